//! One-dimensional coin-turning rules: which sets of coins a move may turn.

use crate::expr::{ExprError, Spanned, parse_u64};
use crate::nimber::Nimber;
use std::fmt;
use std::ops::ControlFlow;

/// A one-dimensional coin-turning rule. A move turns over a set of coins whose rightmost
/// (largest) coin goes from heads to tails; the rule says which sets of *other* coins (all
/// to the left of it) may be turned with it. Coins are numbered from [`LineRule::first_coin`].
///
/// | rule | expression | coins from | a move turns | value of a head at `n` |
/// |---|---|---|---|---|
/// | Turning Turtles | `turning-turtles` | 1 | one or two coins | `n` |
/// | Twins | `twins` | 0 | exactly two coins | `n` |
/// | Mock Turtles | `mock-turtles` | 0 | one to three coins | the `n`-th odious number |
/// | Ruler | `ruler` | 1 | a run of consecutive coins | the largest power of 2 dividing `n` |
/// | Moebius | `moebius` | 1 | one to five coins | by the rule (no closed form) |
/// | Mogul | `mogul` | 1 | one to seven coins | by the rule (no closed form) |
/// | turn up to `k` | `turn(k)` | 1 | one to `k` coins | by the rule |
/// | subtraction | `coin-sub(s1,s2,..)` | 0 | coins `n` and `n - s`, `s` in the set | the subtraction game's value |
///
/// Twins is Turning Turtles shifted by one: its coin 0 is the "dummy" coin that stands for
/// turning one coin only; likewise `coin-sub(S)` numbers from 0 so that a head at `n` is a
/// heap of `n` in the subtraction game `S`. (Ferguson, *Game Theory, Part I*, §5.1; Winning
/// Ways, ch. 14.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum LineRule {
    /// Turn one or two coins; coins from 1.
    TurningTurtles,
    /// Turn exactly two coins; coins from 0.
    Twins,
    /// Turn one, two or three coins; coins from 0.
    MockTurtles,
    /// Turn any run of consecutive coins ending at the head; coins from 1.
    Ruler,
    /// Turn one to five coins; coins from 1.
    Moebius,
    /// Turn one to seven coins; coins from 1.
    Mogul,
    /// Turn one to `k` coins (`k >= 1`); coins from 1.
    TurnUpTo(u64),
    /// Turn coin `n` and coin `n - s` for an `s` in the set (sorted, distinct, all `>= 1`);
    /// coins from 0.
    Subtraction(Vec<u64>),
}

/// The sets of other coins a move may turn with the head at `n` (all below `n`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape<'a> {
    /// Any set of at most this many coins.
    AtMost(u64),
    /// Exactly one coin.
    ExactlyOne,
    /// The run `n-1, n-2, ..., n-j+1` for any `j >= 1` (the empty run for `j = 1`).
    Run,
    /// The one coin `n - s` for an `s` in the set.
    Offsets(&'a [u64]),
}

impl LineRule {
    /// Every rule with a fixed name, for help texts and tests.
    pub const NAMED: [LineRule; 6] = [
        LineRule::TurningTurtles,
        LineRule::Twins,
        LineRule::MockTurtles,
        LineRule::Ruler,
        LineRule::Moebius,
        LineRule::Mogul,
    ];

    /// The rule's fixed name, for those that have one.
    pub fn fixed_name(&self) -> Option<&'static str> {
        Some(match self {
            LineRule::TurningTurtles => "turning-turtles",
            LineRule::Twins => "twins",
            LineRule::MockTurtles => "mock-turtles",
            LineRule::Ruler => "ruler",
            LineRule::Moebius => "moebius",
            LineRule::Mogul => "mogul",
            LineRule::TurnUpTo(_) | LineRule::Subtraction(_) => return None,
        })
    }

    /// The rule with this fixed name.
    pub fn from_name(name: &str) -> Option<LineRule> {
        LineRule::NAMED
            .into_iter()
            .find(|r| r.fixed_name() == Some(name))
    }

    /// The number of the leftmost coin: 0 or 1, by the rule's convention.
    pub fn first_coin(&self) -> u64 {
        match self {
            LineRule::Twins | LineRule::MockTurtles | LineRule::Subtraction(_) => 0,
            _ => 1,
        }
    }

    /// The largest coin whose value this tool can represent: `2^63 - 1` for Mock Turtles
    /// (whose values are about `2n`), `u64::MAX` for the rest.
    pub fn last_coin(&self) -> u64 {
        match self {
            LineRule::MockTurtles => u64::MAX >> 1,
            _ => u64::MAX,
        }
    }

    /// Which other coins a move may turn.
    pub fn shape(&self) -> Shape<'_> {
        match self {
            LineRule::TurningTurtles => Shape::AtMost(1),
            LineRule::Twins => Shape::ExactlyOne,
            LineRule::MockTurtles => Shape::AtMost(2),
            LineRule::Ruler => Shape::Run,
            LineRule::Moebius => Shape::AtMost(4),
            LineRule::Mogul => Shape::AtMost(6),
            LineRule::TurnUpTo(k) => Shape::AtMost(k - 1),
            LineRule::Subtraction(s) => Shape::Offsets(s),
        }
    }

    /// The value of a head at `n` by a closed form, for the rules that have one:
    /// Turning Turtles and Twins `n`; Mock Turtles the `n`-th odious number (the `n`-th
    /// number with an odd count of 1 bits: `2n` or `2n + 1`); Ruler the largest power of 2
    /// dividing `n`. `n` must be a coin of the rule (from the first coin to the last).
    pub fn closed_form(&self, n: u64) -> Option<Nimber> {
        match self {
            LineRule::TurningTurtles | LineRule::Twins => Some(Nimber(n)),
            LineRule::MockTurtles => Some(Nimber(2 * n + u64::from(n.count_ones() % 2 == 0))),
            LineRule::Ruler => Some(Nimber(1 << n.trailing_zeros())),
            _ => None,
        }
    }

    /// How many sets [`for_each_flip_set`](Self::for_each_flip_set) visits for a head at
    /// `n` (in floating point for the binomials, saturating at `u64::MAX`): engines refuse a
    /// head with more moves than their budget before listing them.
    pub fn flip_set_count(&self, n: u64) -> u64 {
        let first = self.first_coin();
        let below = n.saturating_sub(first);
        match self.shape() {
            Shape::AtMost(m) => {
                let mut total = 0.0f64;
                let mut binomial = 1.0f64;
                for j in 0..=m.min(below) {
                    total += binomial;
                    if total >= u64::MAX as f64 {
                        break; // saturated: no need to go on (m may be near 2^64)
                    }
                    binomial = binomial * (below - j) as f64 / (j + 1) as f64;
                }
                total.ceil() as u64
            }
            Shape::ExactlyOne => below,
            Shape::Run => below.saturating_add(1),
            Shape::Offsets(set) => set.iter().filter(|&&s| s <= below).count() as u64,
        }
    }

    /// Calls `visit` with every set of other coins (ascending) that a move with its head at
    /// `n` may turn, straight from the rule's definition; stops early if `visit` breaks.
    pub fn for_each_flip_set(
        &self,
        n: u64,
        visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let first = self.first_coin();
        match self.shape() {
            Shape::AtMost(m) => {
                let below = n.saturating_sub(first);
                for size in 0..=m.min(below) as usize {
                    for_each_subset(first, n, size, visit)?;
                }
            }
            Shape::ExactlyOne => {
                for a in first..n {
                    visit(&[a])?;
                }
            }
            Shape::Run => {
                // The run grows leftwards at the end of a buffer, which doubles when full:
                // O(1) amortised per set, so a walk stopped early costs only what it visited.
                let mut buffer = vec![0u64; 16];
                let mut start = buffer.len();
                visit(&[])?;
                for a in (first..n).rev() {
                    if start == 0 {
                        let len = buffer.len();
                        let mut bigger = vec![0u64; 2 * len];
                        bigger[len..].copy_from_slice(&buffer);
                        buffer = bigger;
                        start = len;
                    }
                    start -= 1;
                    buffer[start] = a;
                    visit(&buffer[start..])?;
                }
            }
            Shape::Offsets(set) => {
                for &s in set {
                    if n >= first && s <= n - first {
                        visit(&[n - s])?;
                    }
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// How the rule is written as a parameter of `product(..)`, where parameters cannot
    /// contain parentheses: `ruler`, `turn:5`, `coin-sub:1:3:4`.
    pub fn product_param(&self) -> String {
        match self {
            LineRule::TurnUpTo(k) => format!("turn:{k}"),
            LineRule::Subtraction(s) => {
                let list: Vec<String> = s.iter().map(u64::to_string).collect();
                format!("coin-sub:{}", list.join(":"))
            }
            named => named.fixed_name().unwrap_or_default().to_string(),
        }
    }

    /// Reads a rule written as a parameter of `product(..)` (see [`LineRule::product_param`]).
    pub fn from_product_param(param: &Spanned<String>) -> Result<LineRule, ExprError> {
        let text = param.value.as_str();
        if let Some(rule) = LineRule::from_name(text) {
            return Ok(rule);
        }
        let mut parts = Vec::new();
        let mut at = param.span.start;
        for piece in text.split(':') {
            parts.push(Spanned {
                value: piece.to_string(),
                span: at..at + piece.len(),
            });
            at += piece.len() + 1;
        }
        match parts[0].value.as_str() {
            "turn" => LineRule::turn_up_to(&parts[1..], &param.span),
            "coin-sub" => LineRule::subtraction(&parts[1..], &param.span),
            _ => Err(ExprError::new(
                param.span.clone(),
                format!(
                    "`{}` is not a one-dimensional coin rule",
                    crate::expr::shorten(text)
                ),
            )
            .with_help(
                "product(..) takes two of: turning-turtles, twins, mock-turtles, ruler, moebius, \
                 mogul, turn:K, coin-sub:S1:S2:..",
            )),
        }
    }

    /// `turn(k)` from its parameters.
    pub fn turn_up_to(
        params: &[Spanned<String>],
        whole: &std::ops::Range<usize>,
    ) -> Result<LineRule, ExprError> {
        match params {
            [k] => {
                let k = parse_u64(k, "the most coins a move turns").and_then(|v| {
                    if v == 0 {
                        Err(ExprError::new(
                            k.span.clone(),
                            "a move turns at least one coin: k must be 1 or more",
                        ))
                    } else {
                        Ok(v)
                    }
                })?;
                Ok(LineRule::TurnUpTo(k))
            }
            _ => Err(ExprError::new(
                whole.clone(),
                "`turn` takes one parameter, the most coins a move may turn: `turn(5) 1 4`",
            )),
        }
    }

    /// `coin-sub(s1,s2,..)` from its parameters.
    pub fn subtraction(
        params: &[Spanned<String>],
        whole: &std::ops::Range<usize>,
    ) -> Result<LineRule, ExprError> {
        if params.is_empty() {
            return Err(ExprError::new(
                whole.clone(),
                "`coin-sub` needs its subtraction set: `coin-sub(1,3,4) 7`",
            ));
        }
        let mut set = Vec::new();
        for p in params {
            let s = parse_u64(p, "a subtraction (a whole number from 1)")?;
            if s == 0 {
                return Err(ExprError::new(
                    p.span.clone(),
                    "subtractions must be 1 or more",
                ));
            }
            set.push(s);
        }
        set.sort_unstable();
        set.dedup();
        Ok(LineRule::Subtraction(set))
    }
}

/// As written in expressions: `mock-turtles`, `turn(5)`, `coin-sub(1,3,4)`.
impl fmt::Display for LineRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineRule::TurnUpTo(k) => write!(f, "turn({k})"),
            LineRule::Subtraction(s) => {
                let list: Vec<String> = s.iter().map(u64::to_string).collect();
                write!(f, "coin-sub({})", list.join(","))
            }
            named => f.write_str(named.fixed_name().unwrap_or_default()),
        }
    }
}

/// Calls `visit` with every `size`-subset of `first..end`, ascending, in lexicographic
/// order (an odometer over the indices: no recursion).
pub(crate) fn for_each_subset(
    first: u64,
    end: u64,
    size: usize,
    visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if size == 0 {
        return visit(&[]);
    }
    if end < first || end - first < size as u64 {
        return ControlFlow::Continue(());
    }
    let mut set: Vec<u64> = (first..first + size as u64).collect();
    loop {
        visit(&set)?;
        // Advance the rightmost index that can still move right.
        let mut i = size;
        loop {
            if i == 0 {
                return ControlFlow::Continue(());
            }
            i -= 1;
            let room = end - (size - i) as u64;
            if set[i] < room {
                set[i] += 1;
                for j in i + 1..size {
                    set[j] = set[j - 1] + 1;
                }
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets(rule: &LineRule, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let _ = rule.for_each_flip_set(n, &mut |s| {
            out.push(s.to_vec());
            ControlFlow::Continue(())
        });
        out
    }

    #[test]
    fn flip_sets_follow_the_definitions() {
        assert_eq!(
            sets(&LineRule::TurningTurtles, 3),
            vec![vec![], vec![1], vec![2]]
        );
        assert_eq!(sets(&LineRule::Twins, 2), vec![vec![0], vec![1]]);
        assert_eq!(sets(&LineRule::Twins, 0), Vec::<Vec<u64>>::new());
        assert_eq!(
            sets(&LineRule::MockTurtles, 3),
            vec![
                vec![],
                vec![0],
                vec![1],
                vec![2],
                vec![0, 1],
                vec![0, 2],
                vec![1, 2]
            ]
        );
        assert_eq!(sets(&LineRule::Ruler, 3), vec![vec![], vec![2], vec![1, 2]]);
        assert_eq!(sets(&LineRule::Subtraction(vec![1, 3]), 2), vec![vec![1]]);
        assert_eq!(
            sets(&LineRule::Subtraction(vec![1, 3]), 3),
            vec![vec![2], vec![0]]
        );
        assert_eq!(sets(&LineRule::Moebius, 6).len(), 1 + 5 + 10 + 10 + 5);
        assert_eq!(sets(&LineRule::TurnUpTo(1), 6), vec![Vec::<u64>::new()]);
    }

    #[test]
    fn names_round_trip() {
        let mut all = LineRule::NAMED.to_vec();
        all.push(LineRule::TurnUpTo(4));
        all.push(LineRule::Subtraction(vec![1, 3, 4]));
        for rule in all {
            let p = Spanned {
                value: rule.product_param(),
                span: 0..rule.product_param().len(),
            };
            assert_eq!(LineRule::from_product_param(&p).unwrap(), rule);
        }
        assert_eq!(
            LineRule::Subtraction(vec![1, 3]).to_string(),
            "coin-sub(1,3)"
        );
        let bad = Spanned {
            value: "turn:x".to_string(),
            span: 8..14,
        };
        assert_eq!(LineRule::from_product_param(&bad).unwrap_err().span, 13..14);
    }
}
