//! Text to a plain, unchecked [`Spec`]: the grammar, with no knowledge of the rules.
//!
//! ```text
//! expression := "0" | term ("+" term)*
//! term       := rule ["(" param ("," param)* ")"] arg*
//! rule       := a name (letters, digits, '-', '_') or a code literal such as 0.137
//! param, arg := any text without white space, '+', '(' or ')' (and, for params, ',')
//! ```
//! White space separates arguments; `+` separates terms and needs no spaces around it.

use super::ExprError;
use std::ops::Range;

/// A piece of text and where it stands in the expression (byte offsets).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Range<usize>,
}

/// One term of a sum, unchecked: a rule, its parameters and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TermSpec {
    /// The rule name or code literal.
    pub rule: Spanned<String>,
    /// The parameters in parentheses, if the term has parentheses.
    pub params: Option<Vec<Spanned<String>>>,
    /// The arguments after the rule.
    pub args: Vec<Spanned<String>>,
    /// The whole term.
    pub span: Range<usize>,
}

/// A parsed but unchecked expression: the terms of a sum (none for the zero game `0`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec {
    /// The terms.
    pub terms: Vec<TermSpec>,
}

fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !matches!(c, '+' | '(' | ')')
}

/// Parses the grammar above.
pub fn parse_spec(text: &str) -> Result<Spec, ExprError> {
    let mut p = Parser { text, pos: 0 };
    let mut terms = Vec::new();
    p.skip_space();
    if p.at_end() {
        return Err(ExprError::new(
            0..0,
            "empty expression: expected a game such as `nim 3 5 7`",
        ));
    }
    loop {
        terms.push(p.term()?);
        p.skip_space();
        match p.peek() {
            None => break,
            Some('+') => {
                let plus = p.pos;
                p.pos += 1;
                p.skip_space();
                if p.at_end() {
                    return Err(ExprError::new(plus..plus + 1, "expected a term after `+`"));
                }
                if p.peek() == Some('+') {
                    let at = p.pos;
                    return Err(ExprError::new(at..at + 1, "expected a term after `+`"));
                }
            }
            Some(c) => {
                let at = p.pos;
                return Err(ExprError::new(
                    at..at + c.len_utf8(),
                    format!("unexpected `{c}`: expected an argument, `+` or the end"),
                ));
            }
        }
    }
    // `0` alone is the zero game; in a sum it is a term that adds nothing.
    terms.retain(|t| !(t.rule.value == "0" && t.params.is_none() && t.args.is_empty()));
    Ok(Spec { terms })
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if !c.is_whitespace() {
                break;
            }
            self.pos += c.len_utf8();
        }
    }

    fn word(&mut self, extra_stop: impl Fn(char) -> bool) -> Spanned<String> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !is_word_char(c) || extra_stop(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        Spanned {
            value: self.text[start..self.pos].to_string(),
            span: start..self.pos,
        }
    }

    fn term(&mut self) -> Result<TermSpec, ExprError> {
        let start = self.pos;
        let rule = self.word(|_| false);
        if rule.value.is_empty() {
            // Callers skip white space and stop at the end, so a character is here; an empty
            // span at the end would still be inside the input.
            let (span, found) = match self.peek() {
                Some(c) => (self.pos..self.pos + c.len_utf8(), format!("`{c}`")),
                None => (self.pos..self.pos, "the end".to_owned()),
            };
            return Err(ExprError::new(
                span,
                format!("unexpected {found}: expected a rule name such as `nim`"),
            ));
        }
        let mut params = None;
        if self.peek() == Some('(') {
            let open = self.pos;
            self.pos += 1;
            let mut list = Vec::new();
            loop {
                self.skip_space();
                let p = self.word(|c| c == ',');
                self.skip_space();
                match self.peek() {
                    Some(',') | Some(')') if p.value.is_empty() => {
                        return Err(ExprError::new(
                            self.pos..self.pos + 1,
                            "expected a parameter before this",
                        ));
                    }
                    Some(',') => {
                        list.push(p);
                        self.pos += 1;
                    }
                    Some(')') => {
                        list.push(p);
                        self.pos += 1;
                        break;
                    }
                    _ => {
                        return Err(ExprError::new(
                            open..self.pos.max(open + 1),
                            "unclosed `(`: expected parameters separated by `,` and a `)`",
                        ));
                    }
                }
            }
            params = Some(list);
            if let Some(c) = self.peek().filter(|c| is_word_char(*c)) {
                return Err(ExprError::new(
                    self.pos..self.pos + c.len_utf8(),
                    "expected a space after `)`",
                ));
            }
        }
        let mut args = Vec::new();
        loop {
            self.skip_space();
            match self.peek() {
                Some(c) if is_word_char(c) => args.push(self.word(|_| false)),
                Some('(') | Some(')') => {
                    return Err(ExprError::new(
                        self.pos..self.pos + 1,
                        "parentheses belong right after a rule name, as in `sub(1,3,4) 10`",
                    ));
                }
                _ => break,
            }
        }
        let end = args.last().map_or(self.pos, |a| a.span.end);
        Ok(TermSpec {
            rule,
            params,
            args,
            span: start..end,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(text: &str) -> Vec<(String, Option<Vec<String>>, Vec<String>)> {
        parse_spec(text)
            .unwrap()
            .terms
            .into_iter()
            .map(|t| {
                (
                    t.rule.value,
                    t.params.map(|p| p.into_iter().map(|s| s.value).collect()),
                    t.args.into_iter().map(|s| s.value).collect(),
                )
            })
            .collect()
    }

    #[test]
    fn terms_params_and_args() {
        let s = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shape("nim 3 5+sub( 1, 3 ,4) 10 + 0.137 2"),
            vec![
                ("nim".into(), None, s(&["3", "5"])),
                ("sub".into(), Some(s(&["1", "3", "4"])), s(&["10"])),
                ("0.137".into(), None, s(&["2"])),
            ]
        );
        assert_eq!(shape("0"), vec![]);
        assert_eq!(shape("hackenbush 0-1 1-2").len(), 1);
    }

    #[test]
    fn errors_point_at_the_token() {
        let e = parse_spec("nim 3 + + nim 4").unwrap_err();
        assert_eq!(e.span, 8..9);
        let e = parse_spec("sub(1,3 10").unwrap_err();
        assert!(e.message.contains("unclosed"), "{}", e.message);
        assert!(parse_spec("   ").is_err());
        assert!(parse_spec("nim 3 +").is_err());
        assert!(parse_spec("nim (3)").is_err());
        assert!(parse_spec("sub(1,,2) 3").is_err());
    }
}
