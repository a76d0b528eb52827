//! Families of heap rules, written as patterns, expanded into checked rules.
//!
//! | pattern      | the games                                                                  |
//! |--------------|----------------------------------------------------------------------------|
//! | `0.???`      | every octal code `0.d1d2d3`, each `?` an octal digit 0 to 7                  |
//! | `0.xx`, `4.x?` | hexadecimal codes: each `x` a hexadecimal digit 0 to f                   |
//! | `4.?7`, `?.?`| fixed digits (0-9, a-f) and wildcards mixed, before the point too           |
//! | `4!.??`, `0.?=` | codes with a constraint: `!` (the parts left pairwise unequal) or `=` (all equal) after a digit or a wildcard |
//! | `sub(1..8)`  | every subtraction game whose set is a nonempty subset of {1, ..., 8}       |
//! | `allbut(1..4)` | every all-but game whose excluded set is a nonempty subset of {1, ..., 4} |
//! | `0.137`, `kayles`, `sub(1,3,4)` | one game: any heap rule `grundy sequence` reads          |
//!
//! A `?` in a family is always a wildcard: CGSuite's "not all equal" constraint, also written
//! `?`, cannot be written in a family (it is for single rules only: `grundy sequence 0.8?`).
//! Codes that are no game (`0.0` allows no move; a digit before the point other than 0, 4, 8
//! or c would remove nothing and leave the heap; a constraint on a digit that does not split
//! the heap, such as `0.3!` of `0.?!`) are left out and counted; codes that are the same code
//! (`0.10` is `0.1`) are listed once, under their canonical name. A family of more than
//! [`MAX_FAMILY`] games is refused.
//!
//! ```
//! use grundy::atlas::Family;
//! let family = Family::parse("0.?").unwrap();
//! let names: Vec<&str> = family.rules.iter().map(|r| r.name()).collect();
//! assert_eq!(names, ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "0.7"]);
//! assert_eq!(family.left_out.count, 1); // 0.0 allows no move
//! assert_eq!(Family::parse("sub(1..3)").unwrap().rules.len(), 7);
//! assert!(Family::parse("0.??????").is_err()); // 262,144 games
//! assert_eq!(Family::parse("0.x").unwrap().rules.len(), 15); // 0.1 to 0.f
//! let grundy = Family::parse("4!.?").unwrap(); // 4!.0 is Grundy's game
//! assert_eq!(grundy.rules[0].name(), "4!.0");
//! ```

use crate::heap::code::Code;
use crate::heap::rules::{Constraint, HeapRule, RemovalSet, RuleError, RuleKind, TakeBreak};
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
        if is_code_pattern(text) {
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

/// One place of a code pattern: a fixed digit or a wildcard over `radix` digits (8 for `?`,
/// 16 for `x`), and the constraint written after it.
#[derive(Clone, Copy)]
struct Place {
    digit: Option<u8>,
    radix: u8,
    constraint: Constraint,
}

impl Place {
    fn choices(self) -> u64 {
        if self.digit.is_some() {
            1
        } else {
            u64::from(self.radix)
        }
    }
}

/// Whether `text` is a code pattern: a wildcard (`?`, or `x` in a code), not a set range.
fn is_code_pattern(text: &str) -> bool {
    text.contains('?')
        || (text.contains('x')
            && text.contains('.')
            && text
                .chars()
                .all(|c| c.is_ascii_hexdigit() || matches!(c, '.' | 'x' | '!' | '=')))
}

fn code_family(pattern: &str, text: &str) -> Result<Family, FamilyError> {
    let syntax = |position: usize, message: String| FamilyError::Syntax {
        pattern: pattern.to_string(),
        position,
        message,
    };
    let mut places: Vec<Place> = Vec::new();
    // How many places stand before the point.
    let mut point = None;
    // Whether the previous character was a place (a constraint may follow it, once).
    let mut after_place = false;
    for (i, c) in text.chars().enumerate() {
        let place = |digit, radix| Place {
            digit,
            radix,
            constraint: Constraint::Any,
        };
        match c {
            '.' if point.is_none() => point = Some(places.len()),
            '.' => return Err(syntax(i + 1, "a second point".into())),
            '?' => places.push(place(None, 8)),
            'x' => places.push(place(None, 16)),
            '!' | '=' => match places.last_mut() {
                Some(last) if after_place => {
                    last.constraint = if c == '!' {
                        Constraint::Unequal
                    } else {
                        Constraint::AllEqual
                    };
                }
                _ => {
                    return Err(syntax(
                        i + 1,
                        format!(
                            "`{c}` must follow a digit or a wildcard (once), as in 4!.?? or 0.?="
                        ),
                    ));
                }
            },
            c => match c.to_digit(16) {
                Some(d) => places.push(place(Some(d as u8), 16)),
                None => {
                    return Err(syntax(
                        i + 1,
                        format!(
                            "`{c}` is not a digit (0-9, a-f), a wildcard (`?` octal, `x` \
                             hexadecimal) or a constraint (`!`, `=`)"
                        ),
                    ));
                }
            },
        }
        after_place = matches!(c, '?' | 'x') || c.is_ascii_hexdigit();
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
    let count = places
        .iter()
        .try_fold(1u128, |n, p| n.checked_mul(u128::from(p.choices())))
        .unwrap_or(u128::MAX);
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
    let constraints: Vec<Constraint> = places.iter().map(|p| p.constraint).collect();
    // Each wildcard counts in its radix, the last place fastest: 0.00, 0.01, ..., 0.77.
    for index in 0..count as u64 {
        let mut rest = index;
        let mut digits = vec![0u8; places.len()];
        for (slot, place) in digits.iter_mut().zip(&places).rev() {
            *slot = match place.digit {
                Some(d) => d,
                None => {
                    let d = (rest % u64::from(place.radix)) as u8;
                    rest /= u64::from(place.radix);
                    d
                }
            };
        }
        match rule_of_digits(&digits, &constraints) {
            Ok(rule) => {
                if seen.insert(rule.name().to_string()) {
                    family.rules.push(rule);
                }
            }
            Err(why) => {
                family.left_out.count += 1;
                if family.left_out.first.is_none() {
                    family.left_out.first =
                        Some(format!("{}: {why}", digits_text(&digits, &constraints)));
                }
            }
        }
    }
    Ok(family)
}

/// The rule of a code's digits with a constraint on each: refused when it is no game (no
/// move, a first digit that does not split, a constraint on a digit that does not split).
fn rule_of_digits(digits: &[u8], constraints: &[Constraint]) -> Result<HeapRule, String> {
    let code = Code::from_digits(digits.to_vec()).map_err(|e| e.to_string())?;
    // A constraint on a digit that does not split (trailing zeros among them) is refused
    // before the zeros are dropped.
    if let Some(j) =
        (0..digits.len()).find(|&j| constraints[j] != Constraint::Any && digits[j] & 0b1100 == 0)
    {
        return Err(RuleError::ConstraintWithoutSplit { index: j }.to_string());
    }
    let constraints = constraints[..code.digits().len()].to_vec();
    let tb = TakeBreak::new(code, constraints).map_err(|e| e.to_string())?;
    Ok(HeapRule::from_kind(RuleKind::TakeBreak(tb)))
}

fn digits_text(digits: &[u8], constraints: &[Constraint]) -> String {
    let mut s = String::new();
    for (j, (d, c)) in digits.iter().zip(constraints).enumerate() {
        s.push(char::from_digit(u32::from(*d), 16).unwrap_or('?'));
        s.push_str(match c {
            Constraint::Unequal => "!",
            Constraint::AllEqual => "=",
            _ => "",
        });
        if j == 0 {
            s.push('.');
        }
    }
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
    fn hexadecimal_wildcards_count_in_sixteen() {
        let hex = names("0.x");
        assert_eq!(hex.len(), 15);
        assert_eq!(hex[0], "0.1");
        assert_eq!(hex[14], "0.f");
        // 0.?x: 128 codes, 0.00 no game, 0.d0 the same game as 0.d.
        let f = Family::parse("0.?x").unwrap();
        assert_eq!((f.rules.len(), f.left_out.count), (127, 1));
        assert!(f.rules.iter().any(|r| r.name() == "0.7f"));
        // Only 0, 4, 8 and c may stand before the point.
        let f = Family::parse("x.1").unwrap();
        assert_eq!(names("x.1"), ["0.1", "4.1", "8.1", "c.1"]);
        assert_eq!(f.left_out.count, 12);
        assert!(Family::parse("0.xxxx").is_ok());
        let e = Family::parse("0.xxxxx").unwrap_err().to_string();
        assert!(e.contains("1048576"), "{e}");
    }

    #[test]
    fn constraints_follow_a_place() {
        assert_eq!(names("4!.?")[..2], ["4!.0", "4!.1"]);
        // Only the digits that split may carry a constraint: 0.4= to 0.7=.
        let f = Family::parse("0.?=").unwrap();
        assert_eq!(names("0.?="), ["0.4=", "0.5=", "0.6=", "0.7="]);
        assert_eq!(f.left_out.count, 4);
        assert!(f.left_out.first.unwrap().starts_with("0.0=:"));
        assert_eq!(names("0.?!4"), ["0.4!4", "0.5!4", "0.6!4", "0.7!4"]);
        // The same rules as the heap-rule language reads.
        for rule in Family::parse("0.x!x").unwrap().rules {
            assert_eq!(HeapRule::parse(rule.name()).unwrap().kind(), rule.kind());
        }
        for bad in ["0.!?", "0.?!!", "!0.?", "0.?!="] {
            let e = Family::parse(bad).unwrap_err().to_string();
            assert!(e.contains("must follow"), "{bad}: {e}");
        }
    }

    #[test]
    fn errors_say_what_and_where() {
        let e = Family::parse("0.?y").unwrap_err().to_string();
        assert!(e.contains("`y`") && e.contains("character 4"), "{e}");
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
