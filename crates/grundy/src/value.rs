//! Values and outcomes of positions, and the rules for sums.
//!
//! In normal play every position of a finite impartial game has a nimber value (Sprague 1935,
//! Grundy 1939), and a sum's value is the nim-sum of its parts' values. Loopy games add
//! Smith's infinite values `∞(K)` (C. A. B. Smith, *Graphs and composite games*, 1966): a
//! position from which the game can go on forever, `K` being the finite values among its
//! options.

use crate::nimber::Nimber;
use std::fmt;

/// Who wins from a position with best play.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
pub enum Outcome {
    /// The previous player wins: the player to move loses.
    #[serde(rename = "P")]
    P,
    /// The next player (the player to move) wins.
    #[serde(rename = "N")]
    N,
    /// Neither player can force a win: play goes on forever (loopy games only).
    #[serde(rename = "D")]
    Draw,
}

impl Outcome {
    /// A sentence for people.
    pub fn describe(self) -> &'static str {
        match self {
            Outcome::P => "P: the player to move loses",
            Outcome::N => "N: the player to move wins",
            Outcome::Draw => "D: a draw, play can go on forever",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::Draw => "D",
        })
    }
}

/// The generalised Sprague–Grundy value of a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A nimber: the position is equivalent to a Nim heap of that size.
    Finite(Nimber),
    /// Smith's `∞(K)`: the position can be kept going forever; `K` (sorted, no repeats) are
    /// the finite values it can move to.
    Infinite(Vec<Nimber>),
}

impl Value {
    /// The outcome of a position with this value played alone: `0` is P, another nimber N,
    /// `∞(K)` is N when `0 ∈ K` (move to a P-position) and a draw otherwise.
    pub fn outcome(&self) -> Outcome {
        match self {
            Value::Finite(n) if n.is_zero() => Outcome::P,
            Value::Finite(_) => Outcome::N,
            Value::Infinite(k) if k.contains(&Nimber::ZERO) => Outcome::N,
            Value::Infinite(_) => Outcome::Draw,
        }
    }

    /// The nimber, if finite.
    pub fn finite(&self) -> Option<Nimber> {
        match self {
            Value::Finite(n) => Some(*n),
            Value::Infinite(_) => None,
        }
    }
}

impl From<Nimber> for Value {
    fn from(n: Nimber) -> Self {
        Value::Finite(n)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Finite(n) => write!(f, "{n}"),
            Value::Infinite(k) => {
                f.write_str("∞(")?;
                for (i, v) in k.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{v}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// The value of a sum of games, where the parts determine it (Smith's rules):
/// all finite gives the nim-sum; exactly one `∞(K)` with the others summing to `b` gives
/// `∞(K ⊕ b)`; two or more infinite parts give `None` (the sum is a draw, see
/// [`sum_outcome`], but its set `K` is not determined by the parts' values).
pub fn sum_value<'a, I: IntoIterator<Item = &'a Value>>(parts: I) -> Option<Value> {
    let mut finite = Nimber::ZERO;
    let mut infinite: Option<&Vec<Nimber>> = None;
    for part in parts {
        match part {
            Value::Finite(n) => finite ^= *n,
            Value::Infinite(k) if infinite.is_none() => infinite = Some(k),
            Value::Infinite(_) => return None,
        }
    }
    Some(match infinite {
        None => Value::Finite(finite),
        Some(k) => {
            let mut shifted: Vec<Nimber> = k.iter().map(|v| *v ^ finite).collect();
            shifted.sort_unstable();
            Value::Infinite(shifted)
        }
    })
}

/// The outcome of a sum of games from its parts' values (Smith's rules): all finite, P iff the
/// nim-sum is 0; one `∞(K)` with the rest summing to `b`, N if `b ∈ K`, else a draw; two or
/// more infinite, a draw.
pub fn sum_outcome<'a, I: IntoIterator<Item = &'a Value>>(parts: I) -> Outcome {
    sum_value(parts).map_or(Outcome::Draw, |v| v.outcome())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn smith_rules_for_sums() {
        let f = |n| Value::Finite(Nimber(n));
        let inf = |k: &[u64]| Value::Infinite(k.iter().map(|&n| Nimber(n)).collect());
        assert_eq!(sum_outcome(&[f(3), f(3)]), Outcome::P);
        assert_eq!(sum_outcome(&[f(3), f(1)]), Outcome::N);
        assert_eq!(sum_outcome(&[inf(&[0, 2]), f(2)]), Outcome::N);
        assert_eq!(sum_outcome(&[inf(&[0, 2]), f(1)]), Outcome::Draw);
        assert_eq!(sum_outcome(&[inf(&[0]), inf(&[0])]), Outcome::Draw);
        assert_eq!(sum_value(&[inf(&[0, 2]), f(2)]), Some(inf(&[0, 2])));
        assert_eq!(sum_value(&[inf(&[1]), f(3)]), Some(inf(&[2])));
        assert_eq!(inf(&[1, 4]).to_string(), "∞(1,4)");
    }
}
