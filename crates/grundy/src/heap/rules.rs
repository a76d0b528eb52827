//! The rules of heap games, as the expression language writes them.
//!
//! Every rule here is a take-and-break game played on heaps of tokens: a move picks one heap,
//! removes some tokens and may split what is left into several heaps. The families:
//!
//! | written                | game                                                            |
//! |------------------------|-----------------------------------------------------------------|
//! | `0.137`, `4.07`, `0.f` | octal and hexadecimal codes ([`Code`]; Guy and Smith 1956)      |
//! | `4!.0`, `0.4=`, `0.8?` | codes with a constraint on the parts (as in CGSuite): `!` the   |
//! |                        | parts are pairwise unequal, `?` not all equal, `=` all equal    |
//! | `kayles`               | Kayles, `0.77`                                                  |
//! | `dawson-kayles`        | Dawson's Kayles, `0.07`                                         |
//! | `dawson`               | Dawson's chess, `0.137`                                         |
//! | `grundys-game`         | split a heap into two unequal heaps, `4!.0`                     |
//! | `lasker`               | Lasker's Nim: remove any number, or split a heap into two       |
//! | `half`                 | remove at least half of a heap                                  |
//! | `even-if-not-all`      | remove an even number but not all, or all of an odd heap        |
//! | `sub(1,3,4)`           | subtraction game: remove 1, 3 or 4                              |
//! | `bash(3)`              | Bash: remove 1 to 3 (`sub(1,2,3)`)                              |
//! | `allbut(1,2)`          | remove any number except 1 and 2                                |
//!
//! Each heap is one [`Component`](crate::sum::Component): `kayles 10 20` is two heaps.
//!
//! ```
//! let sum = grundy::catalog::parse("kayles 10 20 + 0.137 5 + sub(4,1,3) 7").unwrap();
//! assert_eq!(sum.to_string(), "kayles 10 20 + 0.137 5 + sub(1,3,4) 7");
//! assert!(grundy::catalog::parse("sub(0,2) 5").is_err());
//! ```

use super::code::{Code, CodeError};
use crate::expr::{ExprError, Spanned, TermSpec, no_params, parse_u64, required_params};
use std::fmt;

pub use super::kind::{Constraint, MAX_SET_ELEMENT, RemovalSet, RuleError, RuleKind, TakeBreak};

/// A heap game's rule: its moves and the name it is written with. Built by
/// [`HeapRule::parse`] or [`HeapRule::from_kind`]; the name always reads back as the same
/// moves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapRule {
    kind: RuleKind,
    name: String,
}

impl fmt::Display for HeapRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

fn set_text(set: &[u64]) -> String {
    set.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}

impl HeapRule {
    /// A rule from its kind, named canonically (codes as codes, sets in order).
    pub fn from_kind(kind: RuleKind) -> Self {
        let name = match &kind {
            RuleKind::TakeBreak(tb) => tb.to_string(),
            RuleKind::Subtraction(s) => format!("sub({})", set_text(s.as_slice())),
            RuleKind::AllBut(s) => format!("allbut({})", set_text(s.as_slice())),
            RuleKind::Lasker => "lasker".into(),
            RuleKind::Half => "half".into(),
            RuleKind::EvenIfNotAll => "even-if-not-all".into(),
        };
        HeapRule { kind, name }
    }

    /// The moves.
    pub fn kind(&self) -> &RuleKind {
        &self.kind
    }

    /// The rule as written in expressions (`kayles`, `0.137`, `sub(1,3,4)`), canonical.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The same moves under their canonical name (`0.77` for `kayles`).
    pub fn canonical(&self) -> HeapRule {
        HeapRule::from_kind(self.kind.clone())
    }

    /// Reads a rule as written in an expression, without heaps: `kayles`, `0.137`,
    /// `sub(1,3,4)`, `4!.0`.
    ///
    /// ```
    /// use grundy::heap::rules::HeapRule;
    /// assert_eq!(HeapRule::parse("bash(3)").unwrap().name(), "bash(3)");
    /// assert!(HeapRule::parse("0.1g").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<HeapRule, ExprError> {
        let spec = crate::expr::parse_spec(text)?;
        match spec.terms.as_slice() {
            [term] if term.args.is_empty() => rule_of_term(term),
            [term] => Err(ExprError::new(
                term.args[0].span.start..term.span.end,
                "expected a rule alone, without heap sizes",
            )),
            _ => Err(ExprError::new(
                0..text.len(),
                "expected a single heap rule such as `0.137` or `kayles`",
            )),
        }
    }

    /// The octal or hexadecimal code of this rule with no constraints, if it has one: the
    /// case for the fast (sparse-space) engine and the Guy–Smith periodicity theorem.
    /// Subtraction games with a set of small numbers are codes too (digit 3 at each member).
    pub fn plain_code(&self) -> Option<Code> {
        match &self.kind {
            RuleKind::TakeBreak(tb) => tb.as_plain_code().cloned(),
            RuleKind::Subtraction(set) if set.max() <= 4096 => {
                let max = usize::try_from(set.max()).ok()?;
                let mut digits = vec![0u8; max + 1];
                for &s in set {
                    digits[s as usize] = 3;
                }
                Code::from_digits(digits).ok()
            }
            _ => None,
        }
    }
}

fn named_code(name: &str, code: &str, constraint0: Constraint) -> HeapRule {
    let code: Code = code.parse().expect("the named codes are valid");
    let mut constraints = vec![Constraint::Any; code.digits().len()];
    constraints[0] = constraint0;
    let tb = TakeBreak::new(code, constraints).expect("the named codes are valid");
    HeapRule {
        kind: RuleKind::TakeBreak(tb),
        name: name.into(),
    }
}

/// Checks the rule part of a term (name and parameters) into a [`HeapRule`].
pub fn rule_of_term(term: &TermSpec) -> Result<HeapRule, ExprError> {
    let name = term.rule.value.as_str();
    if looks_like_code(name) {
        no_params(term)?;
        let tb = parse_take_break(&term.rule)?;
        return Ok(HeapRule::from_kind(RuleKind::TakeBreak(tb)));
    }
    Ok(match name {
        "kayles" => {
            no_params(term)?;
            named_code(name, "0.77", Constraint::Any)
        }
        "dawson-kayles" => {
            no_params(term)?;
            named_code(name, "0.07", Constraint::Any)
        }
        "dawson" => {
            no_params(term)?;
            named_code(name, "0.137", Constraint::Any)
        }
        "grundys-game" => {
            no_params(term)?;
            named_code(name, "4.0", Constraint::Unequal)
        }
        "lasker" | "half" | "even-if-not-all" => {
            no_params(term)?;
            HeapRule::from_kind(match name {
                "lasker" => RuleKind::Lasker,
                "half" => RuleKind::Half,
                _ => RuleKind::EvenIfNotAll,
            })
        }
        "sub" => {
            let set = number_set(
                required_params(term, "sub(S1,S2,...), e.g. sub(1,3,4)")?,
                "sub",
            )?;
            HeapRule::from_kind(RuleKind::Subtraction(set))
        }
        "allbut" => {
            let set = number_set(
                required_params(term, "allbut(S1,S2,...), e.g. allbut(1,2)")?,
                "allbut",
            )?;
            HeapRule::from_kind(RuleKind::AllBut(set))
        }
        "bash" => {
            let params = required_params(term, "bash(K), e.g. bash(3)")?;
            let [k] = params else {
                let span = params[1].span.start..params[params.len() - 1].span.end;
                return Err(ExprError::new(
                    span,
                    "`bash` takes one parameter: the most tokens a move removes",
                ));
            };
            let max = parse_u64(k, "the most tokens a move removes")?;
            if max == 0 || max > MAX_SET_ELEMENT {
                return Err(ExprError::new(
                    k.span.clone(),
                    format!(
                        "`bash({max})`: the most tokens a move removes must be 1 to {MAX_SET_ELEMENT}"
                    ),
                ));
            }
            let set = RemovalSet::up_to(max)
                .map_err(|e| ExprError::new(k.span.clone(), e.to_string()))?;
            HeapRule {
                kind: RuleKind::Subtraction(set),
                name: format!("bash({max})"),
            }
        }
        _ => {
            return Err(ExprError::new(
                term.rule.span.clone(),
                format!("`{}` is not a heap rule", crate::expr::shorten(name)),
            ));
        }
    })
}

/// Whether a rule name is written as a code (octal or hexadecimal, with or without `!` `?`
/// `=` constraints): it starts with a digit or the point, or with a hexadecimal digit
/// followed by the point, possibly after constraint markers (`c.0`, `c!.4`, `f.f`). This is
/// the one test every reader of rules uses (the expression catalogue through
/// [`crate::catalog::find_rule`], and [`HeapRule::parse`] for `sequence` and `quotient`), so
/// that whatever one command takes as a code every command does; whether the code is valid
/// is then for [`HeapRule::parse`]'s reading of it to say, with the same message everywhere.
///
/// ```
/// use grundy::heap::rules::looks_like_code;
/// for code in ["0.137", "4!.0", ".07", "c.c", "f?.7", "a.0"] {
///     assert!(looks_like_code(code), "{code}");
/// }
/// for name in ["kayles", "c", "cram", "abc.1", "sub"] {
///     assert!(!looks_like_code(name), "{name}");
/// }
/// ```
pub fn looks_like_code(name: &str) -> bool {
    let mut chars = name.chars();
    match chars.next() {
        Some(c) if c.is_ascii_digit() || c == '.' => true,
        Some(c) if c.is_ascii_hexdigit() => {
            let rest = chars.as_str();
            rest.trim_start_matches(['!', '?', '=']).starts_with('.')
        }
        _ => false,
    }
}

/// A set of removals: positive, at most [`MAX_SET_ELEMENT`], sorted and without repeats.
fn number_set(params: &[Spanned<String>], rule: &str) -> Result<RemovalSet, ExprError> {
    let mut set = Vec::with_capacity(params.len());
    for p in params {
        let v = parse_u64(p, "a number of tokens")?;
        if v == 0 {
            return Err(ExprError::new(
                p.span.clone(),
                format!("`{rule}` cannot list 0: every move removes at least one token"),
            ));
        }
        if v > MAX_SET_ELEMENT {
            return Err(ExprError::new(
                p.span.clone(),
                format!(
                    "`{v}` is too large for a `{rule}` set: the largest allowed is {MAX_SET_ELEMENT}"
                ),
            ));
        }
        set.push(v);
    }
    // Each member is checked above, with its place; the whole set can still be refused (no
    // member at all).
    let span = match (params.first(), params.last()) {
        (Some(a), Some(b)) => a.span.start..b.span.end,
        _ => 0..0,
    };
    RemovalSet::new(set).map_err(|e| ExprError::new(span, format!("`{rule}`: {e}")))
}

/// Reads a code literal with optional constraint markers (`!`, `?`, `=`) after digits.
fn parse_take_break(word: &Spanned<String>) -> Result<TakeBreak, ExprError> {
    let text = word.value.as_str();
    let at = |byte: usize, len: usize| word.span.start + byte..word.span.start + byte + len;
    let mut plain = String::with_capacity(text.len());
    // (byte offset in `text`, constraint) for each digit of `plain`, in order; the point has
    // no entry.
    let mut digit_places: Vec<(usize, Constraint)> = Vec::new();
    for (i, c) in text.char_indices() {
        let constraint = match c {
            '!' => Some(Constraint::Unequal),
            '?' => Some(Constraint::NotAllEqual),
            '=' => Some(Constraint::AllEqual),
            _ => None,
        };
        match constraint {
            Some(k) => match digit_places.last_mut() {
                // Right after a digit (`digit_places` holds digits only), once per digit.
                Some(last) if last.1 == Constraint::Any && last.0 + 1 == i => {
                    last.1 = k;
                }
                _ => {
                    return Err(ExprError::new(
                        at(i, 1),
                        format!(
                            "`{c}` must follow a digit (it constrains the heaps that digit's moves leave)"
                        ),
                    ));
                }
            },
            None => {
                plain.push(c);
                if c != '.' {
                    digit_places.push((i, Constraint::Any));
                }
            }
        }
    }
    let code: Code = plain.parse().map_err(|e: CodeError| {
        let span = match &e {
            CodeError::Digit { position, .. } => {
                // `position` counts characters of `plain` including the point.
                let digit_index = plain.chars().take(*position).filter(|&c| c != '.').count();
                digit_places.get(digit_index).map_or(word.span.clone(), |&(b, _)| {
                    at(b, text[b..].chars().next().map_or(1, char::len_utf8))
                })
            }
            _ => word.span.clone(),
        };
        ExprError::new(span, e.to_string())
            .with_help("a code is digits 0-7 (octal) or 0-f (hexadecimal) around a point, such as 0.137, 4.07 or 0.f")
    })?;
    let d0 = code.digit(0);
    if d0 & 3 != 0 {
        return Err(ExprError::new(
            at(0, 1),
            format!(
                "the digit before the point may only split heaps (0, 4, 8 or c), not {d0:x}: removing nothing \
                 and leaving one heap or none would be a move that changes nothing"
            ),
        ));
    }
    // Constraints by digit index j (the leading point-only form `.137` has an implicit 0).
    let implicit_zero = plain.starts_with('.');
    let mut constraints = vec![Constraint::Any; code.digits().len()];
    for (index, &(byte, constraint)) in digit_places.iter().enumerate() {
        let j = index + usize::from(implicit_zero);
        if constraint == Constraint::Any {
            continue;
        }
        if code.digit(j) & 0b1100 == 0 {
            return Err(ExprError::new(
                at(byte, 2),
                "a constraint (`!`, `?`, `=`) needs a digit that splits the heap (4, 8 or more)",
            ));
        }
        constraints[j] = constraint;
    }
    TakeBreak::new(code, constraints).map_err(|e| ExprError::new(word.span.clone(), e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(text: &str) -> Result<HeapRule, ExprError> {
        HeapRule::parse(text)
    }

    #[test]
    fn names_and_codes_read_and_print() {
        for text in [
            "0.77",
            "0.137",
            "4.07",
            "0.f",
            "4!.0",
            "0.4=",
            "0.8?4!",
            "kayles",
            "dawson",
            "lasker",
            "half",
            "even-if-not-all",
        ] {
            assert_eq!(rule(text).unwrap().name(), text);
        }
        assert_eq!(rule("sub(4,1,3,1)").unwrap().name(), "sub(1,3,4)");
        assert_eq!(rule("allbut(2,1)").unwrap().name(), "allbut(1,2)");
        assert_eq!(
            rule("bash(3)").unwrap().kind(),
            &RuleKind::Subtraction(RemovalSet::new(vec![1, 2, 3]).unwrap())
        );
        assert_eq!(
            rule("grundys-game").unwrap().kind(),
            rule("4!.0").unwrap().kind()
        );
        assert_eq!(rule("kayles").unwrap().kind(), rule("0.77").unwrap().kind());
        assert_eq!(rule(".137").unwrap().name(), "0.137");
        // A hexadecimal digit before the point (split into three heaps) reads back too.
        assert_eq!(rule("c!.0").unwrap().name(), "c!.0");
        assert_eq!(rule("c.04").unwrap().name(), "c.04");
    }

    #[test]
    fn bad_rules_say_what_and_where() {
        let e = rule("0.1g").unwrap_err();
        assert_eq!(e.span, 3..4, "{e}");
        let e = rule("sub(1,0)").unwrap_err();
        assert_eq!(e.span, 6..7);
        assert!(e.message.contains("cannot list 0"));
        let e = rule("sub(1,x)").unwrap_err();
        assert_eq!(e.span, 6..7);
        assert!(
            rule("sub")
                .unwrap_err()
                .message
                .contains("needs parameters")
        );
        assert!(rule("bash(0)").is_err());
        assert!(rule("bash(1,2)").is_err());
        assert!(
            rule("2.7")
                .unwrap_err()
                .message
                .contains("before the point")
        );
        assert!(rule("0.3!").unwrap_err().message.contains("splits"));
        let e = rule("0.!4").unwrap_err();
        assert_eq!(e.span, 2..3);
        assert!(rule("0.000").is_err());
        assert!(rule("kayles(2)").is_err());
        assert!(
            rule("sub(2000000)")
                .unwrap_err()
                .message
                .contains("too large")
        );
    }

    #[test]
    fn plain_codes_for_the_fast_engines() {
        assert_eq!(
            rule("sub(1,3,4)")
                .unwrap()
                .plain_code()
                .unwrap()
                .to_string(),
            "0.3033"
        );
        assert!(rule("grundys-game").unwrap().plain_code().is_none());
        assert!(rule("lasker").unwrap().plain_code().is_none());
        assert_eq!(
            rule("dawson").unwrap().plain_code().unwrap().to_string(),
            "0.137"
        );
    }
}
