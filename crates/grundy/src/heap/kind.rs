//! The checked parts of a heap rule: [`RuleKind`] and what it is made of — [`TakeBreak`]
//! codes with their [`Constraint`]s, and [`RemovalSet`]s — each built by a constructor that
//! refuses what is not a rule ([`RuleError`]), so no engine meets a set with 0 in it, a
//! constraint on a digit that does not split, or a code that moves without moving.
//!
//! The names by which rules are written, and reading them, are in [`super::rules`], which
//! re-exports everything here.

use super::code::Code;
use std::fmt;

/// The largest element of a subtraction set or an all-but set.
pub const MAX_SET_ELEMENT: u64 = 1 << 20;

/// A constraint on the sizes of the heaps a move leaves (CGSuite's code suffixes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Constraint {
    /// Any sizes.
    #[default]
    Any,
    /// `!`: the heaps left are pairwise unequal.
    Unequal,
    /// `?`: the heaps left are not all equal.
    NotAllEqual,
    /// `=`: the heaps left are all equal.
    AllEqual,
}

impl Constraint {
    fn marker(self) -> &'static str {
        match self {
            Constraint::Any => "",
            Constraint::Unequal => "!",
            Constraint::NotAllEqual => "?",
            Constraint::AllEqual => "=",
        }
    }

    /// Whether two heaps `a ≤ b` satisfy the constraint.
    pub fn allows_pair(self, a: u64, b: u64) -> bool {
        match self {
            Constraint::Any => true,
            Constraint::Unequal | Constraint::NotAllEqual => a != b,
            Constraint::AllEqual => a == b,
        }
    }

    /// Whether three heaps `a ≤ b ≤ c` satisfy the constraint.
    pub fn allows_triple(self, a: u64, b: u64, c: u64) -> bool {
        match self {
            Constraint::Any => true,
            Constraint::Unequal => a != b && b != c,
            Constraint::NotAllEqual => a != c,
            Constraint::AllEqual => a == c,
        }
    }
}

/// Why a rule's parts do not make a rule: what the checked constructors ([`RemovalSet::new`],
/// [`TakeBreak::new`]) refuse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// A set of removals without any member.
    #[error("a set of removals needs at least one number")]
    EmptySet,
    /// A removal of nothing.
    #[error("a set of removals cannot list 0: every move removes at least one token")]
    ZeroRemoval,
    /// A removal past [`MAX_SET_ELEMENT`].
    #[error("{value} is too large for a set of removals: the largest allowed is {max}")]
    RemovalTooLarge {
        /// The removal.
        value: u64,
        /// The largest allowed, [`MAX_SET_ELEMENT`].
        max: u64,
    },
    /// The digit before the point allows a move that removes nothing and does not split.
    #[error(
        "the digit before the point may only split heaps (0, 4, 8 or c), not {digit:x}: removing \
         nothing and leaving one heap or none would be a move that changes nothing"
    )]
    FirstDigit {
        /// The digit.
        digit: u8,
    },
    /// Not one constraint per digit.
    #[error(
        "a code with {} needs {}, not {constraints}",
        crate::words::count(*digits, "digit"),
        crate::words::count(*digits, "constraint")
    )]
    ConstraintCount {
        /// Digits of the code.
        digits: usize,
        /// Constraints given.
        constraints: usize,
    },
    /// A constraint on a digit whose moves leave at most one heap.
    #[error(
        "a constraint (`!`, `?`, `=`) needs a digit that splits the heap (4, 8 or more); digit {index} does not"
    )]
    ConstraintWithoutSplit {
        /// Which digit (`j`, the tokens removed).
        index: usize,
    },
}

/// A set of removals for a subtraction or all-but game: not empty, sorted, without repeats,
/// every member from 1 to [`MAX_SET_ELEMENT`] (so at most that many members). Built only by
/// [`RemovalSet::new`], which checks all of this; reads as a slice.
///
/// ```
/// use grundy::heap::rules::{RemovalSet, RuleError};
/// let set = RemovalSet::new(vec![4, 1, 3, 1]).unwrap();
/// assert_eq!(set.as_slice(), &[1, 3, 4]);
/// assert_eq!(RemovalSet::new(vec![0]), Err(RuleError::ZeroRemoval));
/// assert_eq!(RemovalSet::new(vec![]), Err(RuleError::EmptySet));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RemovalSet(Vec<u64>);

impl RemovalSet {
    /// Checks, sorts and deduplicates `set`.
    pub fn new(mut set: Vec<u64>) -> Result<Self, RuleError> {
        if set.is_empty() {
            return Err(RuleError::EmptySet);
        }
        if set.contains(&0) {
            return Err(RuleError::ZeroRemoval);
        }
        if let Some(&value) = set.iter().find(|&&v| v > MAX_SET_ELEMENT) {
            return Err(RuleError::RemovalTooLarge {
                value,
                max: MAX_SET_ELEMENT,
            });
        }
        set.sort_unstable();
        set.dedup();
        Ok(RemovalSet(set))
    }

    /// `1, 2, ..., max` (Bash).
    pub fn up_to(max: u64) -> Result<Self, RuleError> {
        if max == 0 {
            return Err(RuleError::EmptySet);
        }
        if max > MAX_SET_ELEMENT {
            return Err(RuleError::RemovalTooLarge {
                value: max,
                max: MAX_SET_ELEMENT,
            });
        }
        Ok(RemovalSet((1..=max).collect()))
    }

    /// The members, ascending.
    pub fn as_slice(&self) -> &[u64] {
        &self.0
    }

    /// The largest member.
    pub fn max(&self) -> u64 {
        // Never empty (checked by the constructors).
        self.0.last().copied().unwrap_or(0)
    }
}

impl std::ops::Deref for RemovalSet {
    type Target = [u64];
    fn deref(&self) -> &[u64] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a RemovalSet {
    type Item = &'a u64;
    type IntoIter = std::slice::Iter<'a, u64>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

/// A take-and-break code: an octal or hexadecimal [`Code`], with a constraint per digit.
/// Built by [`TakeBreak::new`] (or [`TakeBreak::plain`]), which checks that the digit before
/// the point only splits and that constraints stand only on digits that split.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TakeBreak {
    code: Code,
    /// `constraints[j]` applies to the heaps left by removing `j` tokens (as many as digits).
    constraints: Vec<Constraint>,
}

impl TakeBreak {
    /// A code with one constraint per digit.
    pub fn new(code: Code, constraints: Vec<Constraint>) -> Result<Self, RuleError> {
        let d0 = code.digit(0);
        if d0 & 3 != 0 {
            return Err(RuleError::FirstDigit { digit: d0 });
        }
        if constraints.len() != code.digits().len() {
            return Err(RuleError::ConstraintCount {
                digits: code.digits().len(),
                constraints: constraints.len(),
            });
        }
        if let Some(index) = constraints
            .iter()
            .enumerate()
            .position(|(j, &c)| c != Constraint::Any && code.digit(j) & 0b1100 == 0)
        {
            return Err(RuleError::ConstraintWithoutSplit { index });
        }
        Ok(TakeBreak { code, constraints })
    }

    /// A code without constraints.
    pub fn plain(code: Code) -> Result<Self, RuleError> {
        let constraints = vec![Constraint::Any; code.digits().len()];
        TakeBreak::new(code, constraints)
    }

    /// The code.
    pub fn code(&self) -> &Code {
        &self.code
    }

    /// The constraints, one per digit.
    pub fn constraints(&self) -> &[Constraint] {
        &self.constraints
    }

    /// The constraint on removing `j` tokens.
    pub fn constraint(&self, j: usize) -> Constraint {
        self.constraints.get(j).copied().unwrap_or_default()
    }

    /// The code alone, when no digit has a constraint: the octal and hexadecimal games of
    /// the literature, for which the fast engines and the Guy–Smith theorem apply.
    pub fn as_plain_code(&self) -> Option<&Code> {
        self.constraints
            .iter()
            .all(|&c| c == Constraint::Any)
            .then_some(&self.code)
    }

    /// The most heaps a move leaves (1, 2 or 3).
    pub fn max_heaps_left(&self) -> u32 {
        let all = self.code.digits().iter().fold(0, |a, &d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 {
            2
        } else {
            1
        }
    }
}

impl fmt::Display for TakeBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = self.code.digits();
        let d = |j: usize| char::from_digit(u32::from(digits[j]), 16).unwrap_or('?');
        write!(f, "{}{}.", d(0), self.constraint(0).marker())?;
        if digits.len() == 1 {
            return f.write_str("0");
        }
        for j in 1..digits.len() {
            write!(f, "{}{}", d(j), self.constraint(j).marker())?;
        }
        Ok(())
    }
}

/// What a heap game's moves are. Every variant's data is a checked type ([`TakeBreak`],
/// [`RemovalSet`]), so a `RuleKind` is always a valid rule; it is also the key of the
/// per-rule sequence cache (equal kinds are the same game, whatever their names).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleKind {
    /// An octal or hexadecimal code, possibly with constraints.
    TakeBreak(TakeBreak),
    /// Remove a number of tokens in the set.
    Subtraction(RemovalSet),
    /// Remove any positive number of tokens except those in the set.
    AllBut(RemovalSet),
    /// Lasker's Nim: remove any positive number, or split a heap into two non-empty heaps.
    Lasker,
    /// Remove at least half of a heap (leave at most `⌊n/2⌋`).
    Half,
    /// Remove an even number of tokens but not the whole heap, or the whole heap when odd.
    EvenIfNotAll,
}
