//! Families of heap rules, written as patterns, expanded into checked rules.
//!
//! | pattern      | the games                                                                  |
//! |--------------|----------------------------------------------------------------------------|
//! | `0.???`      | every octal code `0.d1d2d3`, each `?` an octal digit 0 to 7                  |
//! | `4.?7`, `?.?`| fixed digits (0-9, a-f) and wildcards mixed, before the point too           |
//! | `sub(1..8)`  | every subtraction game whose set is a nonempty subset of {1, ..., 8}       |
//! | `allbut(1..4)` | every all-but game whose excluded set is a nonempty subset of {1, ..., 4} |
//! | `0.137`, `kayles`, `sub(1,3,4)` | one game: any heap rule `grundy sequence` reads          |
//!
//! A `?` in a family is always a wildcard (CGSuite's "not all equal" constraint, also written
//! `?`, is for single rules only). Codes that are no game (`0.0` allows no move; a digit
//! before the point other than 0, 4, 8 or c would remove nothing and leave the heap) are left
//! out and counted; codes that are the same code (`0.10` is `0.1`) are listed once, under
//! their canonical name. A family of more than [`MAX_FAMILY`] games is refused.
//!
//! ```
//! use grundy::atlas::Family;
//! let family = Family::parse("0.?").unwrap();
//! let names: Vec<&str> = family.rules.iter().map(|r| r.name()).collect();
//! assert_eq!(names, ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"]);
//! assert_eq!(family.left_out.count, 1); // 0.0 allows no move
//! assert_eq!(Family::parse("sub(1..3)").unwrap().rules.len(), 7);
//! assert!(Family::parse("0.??????").is_err()); // 262,144 games
//! ```

use crate::heap::code::Code;
use crate::heap::rules::{Constraint, HeapRule, RemovalSet, RuleKind, TakeBreak};
use std::collections::HashSet;

/// The most games one pattern may expand to: 65,536 (`0.?????` has 32,768).
pub const MAX_FAMILY: u64 = 1 << 16;

/// Why a pattern is not a family.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FamilyError {
    /// The pattern is malformed at a character.
    #[error("`{pattern}`: {message} (at character {position})")]
    Syntax {
        /// The pattern.
        pattern: String,
        /// The 1-based character where it goes wrong.
        position: usize,
        /// What is wrong there.
        message: String,
    },
    /// The pattern stands for too many games.
    #[error(
        "`{pattern}` stands for {count} games, more than {max}, the most one family may hold; \
         split it into smaller patterns"
    )]
    TooLarge {
        /// The pattern.
        pattern: String,
        /// How many games it stands for.
        count: u128,
        /// The most allowed, [`MAX_FAMILY`].
        max: u64,
    },
    /// Not a pattern, and not a heap rule either.
    #[error("`{pattern}` is neither a family pattern nor a heap rule: {message}")]
    Rule {
        /// The pattern.
        pattern: String,
        /// The heap rule's error.
        message: String,
    },
}

/// Codes of a pattern that are not games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// How many.
    pub count: u64,
    /// The first one and why, as `0.0: ...`.
    pub first: Option<String>,
}

/// A pattern and the checked rules it stands for, in the pattern's order, each once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// The pattern as written.
    pub pattern: String,
    /// The rules, canonical names, without repeats.
    pub rules: Vec<HeapRule>,
    /// The codes left out as no game.
    pub left_out: LeftOut,
    /// Whether the pattern has wildcards or ranges (not a single rule).
    pub is_pattern: bool,
}

impl Family {
    /// Reads a pattern (see the [module documentation](self)).
    pub fn parse(pattern: &str) -> Result<Family, FamilyError> {
        let text = pattern.trim();
        if let Some(range) = set_range(text) {
            let (head, inner) = range;
            let (low, high) = parse_range(pattern, text, head.len() + 1, inner)?;
            return set_family(pattern, head, low, high);
        }
        if text.contains('?') {
            return code_family(pattern, text);
        }
        let rule = HeapRule::parse(text).map_err(|e| FamilyError::Rule {
            pattern: pattern.to_string(),
            message: e.message.clone(),
        })?;
        Ok(Family {
            pattern: pattern.to_string(),
            rules: vec![rule.canonical()],
            left_out: LeftOut::default(),
            is_pattern: false,
        })
    }
}

/// The rules of several patterns, each once, in order; the left-out counts added up.
pub fn expand_all(patterns: &[String]) -> Result<(Vec<HeapRule>, LeftOut), FamilyError> {
    let mut seen = HashSet::new();
    let mut rules = Vec::new();
    let mut left_out = LeftOut::default();
    for p in patterns {
        let family = Family::parse(p)?;
        left_out.count += family.left_out.count;
        if left_out.first.is_none() {
            left_out.first = family.left_out.first;
        }
        for rule in family.rules {
            if seen.insert(rule.name().to_string()) {
                rules.push(rule);
            }
        }
    }
    Ok((rules, left_out))
}

/// `sub(a..b)` or `allbut(a..b)`: the head and the text inside the parentheses.
fn set_range(text: &str) -> Option<(&str, &str)> {
    let (head, rest) = text.split_once('(')?;
    let inner = rest.strip_suffix(')')?;
    (matches!(head, "sub" | "allbut") && inner.contains("..")).then_some((head, inner))
}

fn parse_range(
    pattern: &str,
    text: &str,
    offset: usize,
    inner: &str,
) -> Result<(u64, u64), FamilyError> {
    let syntax = |at: usize, message: String| FamilyError::Syntax {
        pattern: pattern.to_string(),
        position: text[..offset.min(text.len())].chars().count() + at + 1,
        message,
    };
    let (a, b) = inner.split_once("..").unwrap_or((inner, ""));
    let number = |s: &str, at: usize| {
        s.trim().parse::<u64>().map_err(|_| {
            syntax(
                at,
                format!(
                    "expected a range of removals such as 1..8, found `{}`",
                    crate::expr::shorten(s)
                ),
            )
        })
    };
    let low = number(a, 0)?;
    let high = number(b, a.chars().count() + 2)?;
    if low == 0 || low > high {
        return Err(syntax(
            0,
            format!("the range {low}..{high} must run from 1 or more up to a larger number"),
        ));
    }
    if high > crate::heap::rules::MAX_SET_ELEMENT {
        return Err(syntax(
            a.chars().count() + 2,
            format!(
                "{high} is more than {}, the largest removal",
                crate::heap::rules::MAX_SET_ELEMENT
            ),
        ));
    }
    Ok((low, high))
}

fn set_family(pattern: &str, head: &str, low: u64, high: u64) -> Result<Family, FamilyError> {
    let members = high - low + 1;
    if members > 16 {
        return Err(FamilyError::TooLarge {
            pattern: pattern.to_string(),
            count: (1u128 << members.min(127)) - 1,
            max: MAX_FAMILY,
        });
    }
    let mut rules = Vec::new();
    for mask in 1u32..(1 << members) {
        let set: Vec<u64> = (0..members)
            .filter(|i| mask & (1 << i) != 0)
            .map(|i| low + i)
            .collect();
        let set = RemovalSet::new(set).map_err(|e| FamilyError::Rule {
            pattern: pattern.to_string(),
            message: e.to_string(),
        })?;
        let kind = if head == "sub" {
            RuleKind::Subtraction(set)
        } else {
            RuleKind::AllBut(set)
        };
        rules.push(HeapRule::from_kind(kind));
    }
    // Subsets in the order of their bit masks: sub(1), sub(2), sub(1,2), sub(3), ...
    Ok(Family {
        pattern: pattern.to_string(),
        rules,
        left_out: LeftOut::default(),
        is_pattern: true,
    })
}

/// One place of a code pattern: a fixed digit or a wildcard.
#[derive(Clone, Copy)]
enum Place {
    Fixed(u8),
    Any,
}

fn code_family(pattern: &str, text: &str) -> Result<Family, FamilyError> {
    let syntax = |position: usize, message: String| FamilyError::Syntax {
        pattern: pattern.to_string(),
        position,
        message,
    };
    let mut places = Vec::new();
    let mut point = None;
    for (i, c) in text.chars().enumerate() {
        match c {
            '.' if point.is_none() => point = Some(i),
            '.' => return Err(syntax(i + 1, "a second point".into())),
            '?' => places.push(Place::Any),
            c => match c.to_digit(16) {
                Some(d) => places.push(Place::Fixed(d as u8)),
                None => {
                    return Err(syntax(
                        i + 1,
                        format!("`{c}` is not a digit (0-9, a-f) or the wildcard `?`"),
                    ));
                }
            },
        }
    }
    match point {
        Some(1) => {}
        Some(p) if p > 1 => {
            return Err(syntax(
                2,
                "only one digit may stand before the point".into(),
            ));
        }
        _ => {
            return Err(syntax(
                1,
                "expected a code pattern such as 0.??? (a digit or `?`, a point, digits or `?`)"
                    .into(),
            ));
        }
    }
    if places.len() < 2 {
        return Err(syntax(
            text.chars().count(),
            "no digit after the point".into(),
        ));
    }
    let wild = places.iter().filter(|p| matches!(p, Place::Any)).count() as u32;
    let count = 8u128.pow(wild.min(40));
    if count > u128::from(MAX_FAMILY) {
        return Err(FamilyError::TooLarge {
            pattern: pattern.to_string(),
            count,
            max: MAX_FAMILY,
        });
    }
    let mut seen = HashSet::new();
    let mut family = Family {
        pattern: pattern.to_string(),
        rules: Vec::new(),
        left_out: LeftOut::default(),
        is_pattern: true,
    };
    // Each wildcard counts in octal, the last place fastest: 0.00, 0.01, ..., 0.77.
    for index in 0..count as u64 {
        let mut rest = index;
        let mut digits = vec![0u8; places.len()];
        for (slot, place) in digits.iter_mut().zip(&places).rev() {
            *slot = match place {
                Place::Fixed(d) => *d,
                Place::Any => {
                    let d = (rest % 8) as u8;
                    rest /= 8;
                    d
                }
            };
        }
        match rule_of_digits(&digits) {
            Ok(rule) => {
                if seen.insert(rule.name().to_string()) {
                    family.rules.push(rule);
                }
            }
            Err(why) => {
                family.left_out.count += 1;
                if family.left_out.first.is_none() {
                    family.left_out.first = Some(format!("{}: {why}", digits_text(&digits)));
                }
            }
        }
    }
    Ok(family)
}

fn rule_of_digits(digits: &[u8]) -> Result<HeapRule, String> {
    let code = Code::from_digits(digits.to_vec()).map_err(|e| e.to_string())?;
    let constraints = vec![Constraint::Any; code.digits().len()];
    let tb = TakeBreak::new(code, constraints).map_err(|e| e.to_string())?;
    Ok(HeapRule::from_kind(RuleKind::TakeBreak(tb)))
}

fn digits_text(digits: &[u8]) -> String {
    let hex = |d: &u8| char::from_digit(u32::from(*d), 16).unwrap_or('?');
    let mut s: String = digits.iter().take(1).map(hex).collect();
    s.push('.');
    s.extend(digits.iter().skip(1).map(hex));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &str) -> Vec<String> {
        Family::parse(p)
            .unwrap()
            .rules
            .iter()
            .map(|r| r.name().to_string())
            .collect()
    }

    #[test]
    fn code_patterns_expand_in_order_without_repeats() {
        let two = names("0.??");
        // 64 codes, 0.00 no game, 0.d0 the same as 0.d.
        assert_eq!(two.len(), 63);
        assert_eq!(&two[..3], ["0.01", "0.02", "0.03"]);
        assert!(two.contains(&"0.1".to_string()));
        assert_eq!(names("4.?").len(), 8);
        assert_eq!(names("?.1").len(), 2, "only 0.1 and 4.1 of ?.1 are games");
        assert_eq!(names("0.??7").len(), 64);
    }

    #[test]
    fn set_ranges_are_every_nonempty_subset() {
        let subs = names("sub(1..3)");
        assert_eq!(subs.len(), 7);
        assert!(subs.contains(&"sub(1,3)".to_string()));
        assert_eq!(
            names("allbut(2..3)"),
            ["allbut(2)", "allbut(3)", "allbut(2,3)"]
        );
        assert_eq!(names("sub(1,3,4)"), ["sub(1,3,4)"]);
        assert_eq!(names("kayles"), ["0.77"]);
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = Family::parse("0.?x").unwrap_err().to_string();
        assert!(e.contains("`x`") && e.contains("character 4"), "{e}");
        let e = Family::parse("0.??????").unwrap_err().to_string();
        assert!(e.contains("262144") && e.contains("65536"), "{e}");
        let e = Family::parse("sub(1..17)").unwrap_err().to_string();
        assert!(e.contains("131071"), "{e}");
        let e = Family::parse("sub(3..1)").unwrap_err().to_string();
        assert!(e.contains("3..1"), "{e}");
        let e = Family::parse("00.?").unwrap_err().to_string();
        assert!(e.contains("one digit"), "{e}");
        assert!(Family::parse("nosuchgame").is_err());
    }
}
