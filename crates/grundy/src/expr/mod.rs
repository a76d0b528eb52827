//! The game-expression language: text in, checked game out, and back.
//!
//! ```text
//! nim 3 5 7                       three Nim heaps
//! staircase 3 2 1                 staircase Nim: 3 coins on step 1, 2 on step 2, 1 on step 3
//! moore(2) 3 5 7                  Moore's Nim_2: take from up to 2 heaps at once
//! wythoff 3 5                     a Wythoff queen at (3, 5)
//! nim 3 5 + staircase 1 2 + wythoff 2 1    a sum
//! 0                               the zero game (no moves)
//! ```
//!
//! Reading is in two steps, so that errors can say exactly what is wrong and where:
//! [`parse_spec`] turns text into a plain [`Spec`] (terms, parameters, arguments, with their
//! places); the catalogue of rules ([`crate::catalog`], a layer above the game families) then
//! checks each term against its [`Rule`], giving a [`Sum`](crate::sum::Sum). This module is
//! the bare language: it knows no family. Printing a sum gives an expression that parses to
//! the same game.
//!
//! ```
//! let spec = grundy::expr::parse_spec("nim 3 5 + wythoff 2 1").unwrap();
//! assert_eq!(spec.terms.len(), 2);
//! assert_eq!(spec.terms[1].rule.value, "wythoff");
//! let err = grundy::expr::parse_spec("nim 3 )").unwrap_err();
//! assert_eq!(err.span, 6..7);
//! ```

mod spec;

pub use spec::{Spanned, Spec, TermSpec, parse_spec};

use crate::sum::Component;
use std::fmt;
use std::ops::Range;

/// A malformed or invalid expression: what is wrong and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// The offending text (byte offsets into the expression).
    pub span: Range<usize>,
    /// What is wrong and what was expected.
    pub message: String,
    /// More help, such as the list of known rules.
    pub help: Option<String>,
}

impl ExprError {
    /// An error at `span`.
    pub fn new(span: Range<usize>, message: impl Into<String>) -> Self {
        ExprError {
            span,
            message: message.into(),
            help: None,
        }
    }

    /// Adds a line of help.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// The error with the expression and a caret line under the offending text:
    ///
    /// ```text
    /// nim 3 x
    ///       ^ expected a heap size (a whole number), found `x`
    /// ```
    ///
    /// Only the line holding the error is shown (with its number when the expression has
    /// several lines), and a long line is cut to a window around the error, so that an
    /// expression of a million characters still gives a readable message. A span that is
    /// out of range or not on character boundaries is clamped, never a panic.
    pub fn render(&self, source: &str) -> String {
        let floor = |i: usize| {
            let mut i = i.min(source.len());
            while !source.is_char_boundary(i) {
                i -= 1;
            }
            i
        };
        let start = floor(self.span.start);
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let end = floor(self.span.end).clamp(start, line_end);
        let (before, cut_before) = last_chars(&source[line_start..start], CONTEXT);
        let (marked, cut_marked) = first_chars(&source[start..end], MARKED);
        let (after, cut_after) = first_chars(&source[end..line_end], CONTEXT);
        let mut shown = String::new();
        if cut_before {
            shown.push('…');
        }
        shown.push_str(before);
        let caret_at = shown.chars().count();
        shown.push_str(marked);
        if cut_marked {
            shown.push('…');
        } else {
            shown.push_str(after);
            if cut_after {
                shown.push('…');
            }
        }
        let shown = shown.trim_end_matches('\r');
        let width = marked.chars().count().max(1);
        let mut out = String::new();
        if source.trim_end().contains('\n') {
            let line = source[..start].matches('\n').count() + 1;
            out.push_str(&format!("line {line}:\n"));
        }
        out.push_str(&format!(
            "{shown}\n{}{} {}",
            " ".repeat(caret_at),
            "^".repeat(width),
            self.message
        ));
        if let Some(h) = &self.help {
            out.push('\n');
            out.push_str(h);
        }
        out
    }
}

/// Characters of context shown on each side of an error.
const CONTEXT: usize = 40;
/// Characters of the offending text shown (and marked) at most.
const MARKED: usize = 60;

/// The first `n` characters of `s`, and whether any were cut.
fn first_chars(s: &str, n: usize) -> (&str, bool) {
    match s.char_indices().nth(n) {
        Some((i, _)) => (&s[..i], true),
        None => (s, false),
    }
}

/// The last `n` characters of `s`, and whether any were cut.
fn last_chars(s: &str, n: usize) -> (&str, bool) {
    match s.char_indices().rev().nth(n.saturating_sub(1)) {
        Some((i, _)) if n > 0 && i > 0 => (&s[i..], true),
        Some(_) => (s, false),
        None => (s, false),
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at {}..{}: {}",
            self.span.start, self.span.end, self.message
        )?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for ExprError {}

/// Checks one term of a rule into the components it stands for.
pub type BuildFn = fn(&TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError>;

/// A rule of the expression language: how to check one term into components.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// The name as written (`nim`); for code literals, a pattern such as `0.137`.
    pub name: &'static str,
    /// How a term is written, for help texts: `nim HEAP...`.
    pub usage: &'static str,
    /// One line on what the game is.
    pub summary: &'static str,
    /// Whether this rule takes the names that start with a digit (octal and hex codes)
    /// rather than the exact name.
    pub literal: bool,
    /// Checks a term of this rule.
    pub build: BuildFn,
}

// -- Helpers for rules checking their terms. --------------------------------------------------

/// `text` as quoted in a message: whole if short, else its first 40 characters and `…`, so
/// that a message about an argument of a million characters stays one line.
///
/// ```
/// assert_eq!(grundy::expr::shorten("nim"), "nim");
/// assert_eq!(grundy::expr::shorten(&"9".repeat(100)).chars().count(), 41);
/// ```
pub fn shorten(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &text[..i]).into(),
        None => text.into(),
    }
}

/// Parses a whole number in `0..=u64::MAX`; `what` names it in the message ("a heap size").
pub fn parse_u64(arg: &Spanned<String>, what: &str) -> Result<u64, ExprError> {
    let text = arg.value.as_str();
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ExprError::new(
            arg.span.clone(),
            format!(
                "expected {what} (a whole number), found `{}`",
                shorten(text)
            ),
        ));
    }
    text.parse::<u64>().map_err(|_| {
        ExprError::new(
            arg.span.clone(),
            format!(
                "`{}` is too large for {what}: the largest is {}",
                shorten(text),
                u64::MAX
            ),
        )
    })
}

/// Requires a term to have no parameters.
pub fn no_params(term: &TermSpec) -> Result<(), ExprError> {
    match &term.params {
        Some(p) => {
            let span = p.first().map_or(term.rule.span.clone(), |s| {
                s.span.start..p.last().map_or(s.span.end, |l| l.span.end)
            });
            Err(ExprError::new(
                span,
                format!(
                    "`{}` takes no parameters in parentheses",
                    shorten(&term.rule.value)
                ),
            ))
        }
        None => Ok(()),
    }
}

/// The term's parameters, requiring it to have parentheses.
pub fn required_params<'a>(
    term: &'a TermSpec,
    usage: &str,
) -> Result<&'a [Spanned<String>], ExprError> {
    term.params.as_deref().ok_or_else(|| {
        ExprError::new(
            term.rule.span.clone(),
            format!("`{}` needs parameters: {usage}", shorten(&term.rule.value)),
        )
    })
}

/// Requires at least one argument.
pub fn some_args<'a>(term: &'a TermSpec, usage: &str) -> Result<&'a [Spanned<String>], ExprError> {
    if term.args.is_empty() {
        let end = term.span.end;
        return Err(ExprError::new(
            end..end,
            format!("`{}` needs arguments: {usage}", shorten(&term.rule.value)),
        ));
    }
    Ok(&term.args)
}
