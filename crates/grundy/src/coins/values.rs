//! Single-coin values of one-dimensional rules, and the search for moves of a given value.
//!
//! The value of a position is the nim-sum of the values of its heads (Ferguson, *Game
//! Theory, Part I*, §5.1), so everything rests on `g(n)`, the value of a single head at `n`:
//! `g(n) = mex { ⨁_{a ∈ S} g(a) : S a set of other coins a move may turn with n }`, because a
//! move from a single head leaves heads exactly at `S`.
//!
//! [`CoinValues`] gives `g(n)` by the closed form where the theory has one and otherwise by
//! [`values_by_rule`], that mex computed coin by coin:
//! - "at most `m` other coins" (Moebius, Mogul, `turn(k)`): the nim-sums of at most `m`
//!   earlier values are kept as `m` bit sets `R_j` (sums of at most `j` values; using a coin
//!   twice only cancels it, so repeats are harmless). Then `g(n) = mex R_m`, and adding
//!   `g(n)` updates `R_j ← R_j ∪ (R_{j-1} ⊕ g(n))`. Cost `O(count · m · B / 64)` word
//!   operations, `B` the power of two above the largest value.
//! - "exactly one other coin": `g(n) = mex` of all earlier values; a run of coins (Ruler):
//!   the mex of the suffix nim-sums, `O(count²)`; a subtraction set `S`: `O(count · |S|)`.
//!
//! Moves to a value: for Ruler the prefix nim-sums are the Gray code (`g(1) ⊕ … ⊕ g(m) =
//! m ⊕ (m >> 1)`), so the one run of a given value is found in `O(64)`.

use super::rule::{LineRule, Shape};
use crate::control::{Budget, BudgetError};
use crate::nimber::MexSet;
use crate::nimber::Nimber;
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;

/// Why coin values or moves could not be computed within the limits.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CoinError {
    /// The table of single-coin values would be too big.
    #[error(
        "{rule} has no closed form, so its coin values are computed coin by coin; coin {coin} \
         needs a table of {needed} values, more than the position limit of {limit}; use \
         smaller coins"
    )]
    TooBig {
        /// The rule, as written.
        rule: String,
        /// The coin asked for.
        coin: u64,
        /// The size of the table.
        needed: u128,
        /// The limit.
        limit: usize,
    },
    /// The work or memory budget ran out, or the work was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
}

/// Single-coin values `g(n)` of one rule, for coins up to a bound.
#[derive(Clone, Debug)]
pub struct CoinValues {
    rule: LineRule,
    /// For rules without a closed form, `g(first + i)` at `i`.
    table: Vec<Nimber>,
    /// For rules without a closed form: the coins with each value, ascending.
    by_value: FxHashMap<u64, Vec<u64>>,
}

impl CoinValues {
    /// Values for the coins up to `last` (by closed form, or computed under `budget`).
    pub fn new(rule: &LineRule, last: u64, budget: &Budget) -> Result<CoinValues, CoinError> {
        let mut values = CoinValues {
            rule: rule.clone(),
            table: Vec::new(),
            by_value: FxHashMap::default(),
        };
        if rule.closed_form(rule.first_coin()).is_none() {
            let count = last.saturating_sub(rule.first_coin()).saturating_add(1);
            values.table = values_by_rule(rule, count, budget)?;
            let first = rule.first_coin();
            for (i, v) in values.table.iter().enumerate() {
                values
                    .by_value
                    .entry(v.0)
                    .or_default()
                    .push(first + i as u64);
            }
        }
        Ok(values)
    }

    /// The rule.
    pub fn rule(&self) -> &LineRule {
        &self.rule
    }

    /// `g(n)`, the value of a single head at coin `n` (which must be within the bound).
    pub fn get(&self, n: u64) -> Nimber {
        self.rule
            .closed_form(n)
            .unwrap_or_else(|| self.table[(n - self.rule.first_coin()) as usize])
    }

    /// Calls `visit` with the coins `c` in `lo..hi` with `g(c) = v`, ascending: by
    /// inverting the closed form (these rules' values are one-to-one), or from the table.
    fn for_coins_with_value(&self, v: Nimber, lo: u64, hi: u64, visit: &mut dyn FnMut(u64)) {
        let mut check = |c: u64| {
            if c >= lo && c < hi && self.get(c) == v {
                visit(c);
            }
        };
        match self.rule {
            LineRule::TurningTurtles | LineRule::Twins => check(v.0),
            LineRule::MockTurtles => check(v.0 >> 1),
            LineRule::Ruler => unreachable!("Ruler turns runs, found without value lookups"),
            _ => {
                if let Some(coins) = self.by_value.get(&v.0) {
                    coins.iter().for_each(|&c| check(c));
                }
            }
        }
    }

    /// Whether no two distinct coins have values nim-adding to `w`, known without a search:
    /// the values of these rules are one-to-one (so `w = 0` is impossible), and two odious
    /// numbers nim-add to an evil one (an even count of 1 bits), so for Mock Turtles an
    /// odious `w` is impossible too. This keeps a lone head far to the right quick.
    fn no_pair_sums_to(&self, w: Nimber) -> bool {
        match self.rule {
            LineRule::TurningTurtles | LineRule::Twins => w.is_zero(),
            LineRule::MockTurtles => w.is_zero() || w.0.count_ones() % 2 == 1,
            _ => false,
        }
    }

    /// Calls `visit` with every set of other coins (ascending) that a move with its head at
    /// `n` may turn and whose values nim-add to `want`: the moves to a chosen value, found
    /// without listing all moves where the rule allows (a value lookup picks the last coin).
    pub fn flip_sets_with_value(
        &self,
        n: u64,
        want: Nimber,
        budget: &Budget,
        visit: &mut dyn FnMut(&[u64]),
    ) -> Result<(), CoinError> {
        let first = self.rule.first_coin();
        match self.rule.shape() {
            Shape::AtMost(m) => {
                if want.is_zero() {
                    visit(&[]);
                }
                // Sets of size j: every (j-1)-subset as a prefix, then the last coin by lookup.
                let below = n.saturating_sub(first);
                for size in 1..=m.min(below) as usize {
                    if size == 2 && self.no_pair_sums_to(want) {
                        continue;
                    }
                    // Refused before the walk if its prefixes alone pass the budget.
                    let prefixes = (0..size - 1).fold(1.0f64, |c, i| {
                        c * below.saturating_sub(i as u64) as f64 / (i + 1) as f64
                    });
                    budget.afford(prefixes as u64)?;
                    let mut failure = None;
                    let _ = for_each_prefix(first, n, size - 1, &mut |prefix| {
                        if let Err(e) = budget.charge(1) {
                            failure = Some(CoinError::from(e));
                            return ControlFlow::Break(());
                        }
                        let sum: Nimber = prefix.iter().map(|&c| self.get(c)).sum();
                        let lo = prefix.last().map_or(first, |&c| c + 1);
                        self.for_coins_with_value(want ^ sum, lo, n, &mut |c| {
                            let mut set = prefix.to_vec();
                            set.push(c);
                            visit(&set);
                        });
                        ControlFlow::Continue(())
                    });
                    if let Some(e) = failure {
                        return Err(e);
                    }
                }
            }
            Shape::ExactlyOne => {
                self.for_coins_with_value(want, first, n, &mut |c| visit(&[c]));
            }
            Shape::Run => {
                // Only Ruler turns runs. Its values nim-add along a prefix to the Gray code: g(1) ⊕ ... ⊕ g(m) =
                // m ⊕ (m >> 1). So the run a..n-1 is worth gray(n-1) ⊕ gray(a-1), and the one
                // run worth `want` starts after the coin whose Gray code is gray(n-1) ⊕ want:
                // O(64) however far right n is.
                let gray = |m: u64| m ^ (m >> 1);
                let mut before = gray(n - 1) ^ want.0; // gray(a - 1)
                let mut shift = 1;
                while shift < 64 {
                    before ^= before >> shift; // the inverse Gray code, by prefix xor
                    shift <<= 1;
                }
                if before < n {
                    // The run is listed coin by coin: refused before if unaffordable.
                    budget.afford(n - before)?;
                    let run: Vec<u64> = (before + 1..n).collect();
                    budget.charge(run.len().max(1) as u64)?;
                    visit(&run);
                }
            }
            Shape::Offsets(set) => {
                for &s in set {
                    if n >= first && s <= n - first && self.get(n - s) == want {
                        visit(&[n - s]);
                    }
                }
            }
        }
        Ok(())
    }
}

/// Every `size`-subset of `first..end` (ascending), from the rule module's odometer.
fn for_each_prefix(
    first: u64,
    end: u64,
    size: usize,
    visit: &mut dyn FnMut(&[u64]) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // A prefix may not use the last coin below `end` (the lookup coin comes after it), but
    // visiting it is harmless: the lookup range is then empty.
    super::rule::for_each_subset(first, end, size, visit)
}

/// `g(first), g(first + 1), ...` for `count` coins, by the mex over the rule's flip sets
/// (see the module docs for the method per rule), under `budget`: the table holds at most
/// `max_positions` values, is reserved fallibly, and every coin charges the words it works on.
pub fn values_by_rule(
    rule: &LineRule,
    count: u64,
    budget: &Budget,
) -> Result<Vec<Nimber>, CoinError> {
    let limit = budget.limits().max_positions;
    if count > limit as u64 {
        return Err(CoinError::TooBig {
            rule: rule.to_string(),
            coin: rule.first_coin().saturating_add(count.saturating_sub(1)),
            needed: u128::from(count),
            limit,
        });
    }
    let count = count as usize;
    let mut table = budget.vec_with_capacity::<Nimber>(count)?;
    match rule.shape() {
        Shape::AtMost(m) => {
            let m = m.min(count as u64) as usize;
            // reach[j]: bit set of the nim-sums of at most j values so far.
            let mut words = 1usize;
            let mut reach: Vec<Vec<u64>> = vec![vec![1u64]; m + 1];
            for _ in 0..count {
                budget.charge((words as u64).saturating_mul(m as u64 + 1))?;
                let g = first_zero_bit(&reach[m]);
                table.push(Nimber(g));
                if g >= (words as u64) * 64 {
                    let bits = g.saturating_add(1).next_power_of_two().max(64);
                    budget.check_bytes(bits / 8, m as u64 + 1)?;
                    words = (bits / 64) as usize;
                    for r in &mut reach {
                        r.resize(words, 0);
                    }
                }
                for j in (1..=m).rev() {
                    let (lower, upper) = reach.split_at_mut(j);
                    or_xor_translate(&mut upper[0], &lower[j - 1], g);
                }
            }
        }
        Shape::ExactlyOne => {
            let mut seen = MexSet::default();
            budget.charge(count as u64)?;
            for _ in 0..count {
                let g = seen.mex();
                table.push(Nimber(g));
                seen.insert(g);
            }
        }
        Shape::Run => {
            budget.afford((count as u64).saturating_mul(count as u64) / 2)?;
            for i in 0..count {
                budget.charge(i as u64 + 1)?;
                let mut seen = MexSet::default();
                seen.insert(0);
                let mut sum = Nimber::ZERO;
                for a in (0..i).rev() {
                    sum ^= table[a];
                    seen.insert(sum.0);
                }
                table.push(Nimber(seen.mex()));
            }
        }
        Shape::Offsets(set) => {
            for i in 0..count {
                budget.charge(set.len() as u64 + 1)?;
                let mut seen = MexSet::default();
                for &s in set {
                    if s as usize <= i {
                        seen.insert(table[i - s as usize].0);
                    }
                }
                table.push(Nimber(seen.mex()));
            }
        }
    }
    Ok(table)
}

/// The smallest number not in the bit set (which is never full: it is grown beforehand).
fn first_zero_bit(set: &[u64]) -> u64 {
    for (i, &w) in set.iter().enumerate() {
        if w != u64::MAX {
            return i as u64 * 64 + u64::from(w.trailing_ones());
        }
    }
    set.len() as u64 * 64
}

/// `dst ← dst ∪ (src ⊕ g)`: every element of `src` nim-added to `g`. Both sets have a power
/// of two above `g` as their size, so the translate stays inside. Whole words move to the
/// word index `i ⊕ (g / 64)`; inside a word, bit `b` moves to `b ⊕ (g mod 64)`, which swaps
/// blocks of 1, 2, 4, 8, 16, 32 bits for each bit set in `g mod 64`.
fn or_xor_translate(dst: &mut [u64], src: &[u64], g: u64) {
    const MASKS: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff,
    ];
    let high = (g >> 6) as usize;
    let low = g & 63;
    for (i, &w) in src.iter().enumerate() {
        if w == 0 {
            continue;
        }
        let mut moved = w;
        for (b, mask) in MASKS.iter().enumerate() {
            if low >> b & 1 == 1 {
                let s = 1 << b;
                moved = ((moved & mask) << s) | ((moved >> s) & mask);
            }
        }
        dst[i ^ high] |= moved;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `g(n)` straight from the definition: the mex over every flip set of the rule.
    fn by_definition(rule: &LineRule, count: u64) -> Vec<u64> {
        let first = rule.first_coin();
        let mut g: Vec<u64> = Vec::new();
        for n in first..first + count {
            let mut seen = MexSet::default();
            let _ = rule.for_each_flip_set(n, &mut |s| {
                seen.insert(s.iter().fold(0, |acc, &c| acc ^ g[(c - first) as usize]));
                ControlFlow::Continue(())
            });
            g.push(seen.mex());
        }
        g
    }

    #[test]
    fn the_bit_set_translate_is_a_nim_sum() {
        for g in [0u64, 1, 5, 63, 64, 100, 255] {
            let mut src = vec![0u64; 4];
            for x in [0u64, 3, 17, 64, 77, 200] {
                src[(x / 64) as usize] |= 1 << (x % 64);
            }
            let mut dst = vec![0u64; 4];
            or_xor_translate(&mut dst, &src, g);
            let mut expected = vec![0u64; 4];
            for x in [0u64, 3, 17, 64, 77, 200] {
                let y = x ^ g;
                expected[(y / 64) as usize] |= 1 << (y % 64);
            }
            assert_eq!(dst, expected, "g = {g}");
        }
    }

    #[test]
    fn the_engine_agrees_with_the_definition() {
        let mut rules = LineRule::NAMED.to_vec();
        rules.extend([1, 2, 3, 4, 8].map(LineRule::TurnUpTo));
        rules.push(LineRule::Subtraction(vec![1, 3, 4]));
        rules.push(LineRule::Subtraction(vec![2, 5]));
        for rule in rules {
            let count = if matches!(rule.shape(), Shape::AtMost(m) if m >= 4) {
                24
            } else {
                80
            };
            let fast: Vec<u64> = values_by_rule(&rule, count, &Budget::default())
                .unwrap()
                .iter()
                .map(|v| v.0)
                .collect();
            assert_eq!(fast, by_definition(&rule, count), "{rule}");
        }
    }

    #[test]
    fn closed_forms_agree_with_the_engine() {
        for rule in [
            LineRule::TurningTurtles,
            LineRule::Twins,
            LineRule::MockTurtles,
            LineRule::Ruler,
        ] {
            let first = rule.first_coin();
            let engine = values_by_rule(&rule, 1500, &Budget::default()).unwrap();
            for (i, v) in engine.iter().enumerate() {
                assert_eq!(
                    rule.closed_form(first + i as u64),
                    Some(*v),
                    "{rule} coin {}",
                    first + i as u64
                );
            }
        }
        // turn(2) is Turning Turtles and turn(3) is Mock Turtles shifted by one coin.
        let t2 = values_by_rule(&LineRule::TurnUpTo(2), 300, &Budget::default()).unwrap();
        let t3 = values_by_rule(&LineRule::TurnUpTo(3), 300, &Budget::default()).unwrap();
        for i in 0..300u64 {
            assert_eq!(t2[i as usize], Nimber(i + 1));
            assert_eq!(Some(t3[i as usize]), LineRule::MockTurtles.closed_form(i));
        }
    }

    #[test]
    fn limits_give_errors_not_hangs() {
        let e = values_by_rule(&LineRule::Mogul, 1 << 40, &Budget::default()).unwrap_err();
        assert!(matches!(e, CoinError::TooBig { .. }), "{e}");
        assert!(e.to_string().contains("mogul"), "{e}");
        let small = Budget::new(crate::control::Limits {
            max_work: 1 << 10,
            ..Default::default()
        });
        let e = values_by_rule(&LineRule::Mogul, 3000, &small).unwrap_err();
        assert!(
            matches!(e, CoinError::Budget(BudgetError::Work { .. })),
            "{e}"
        );
    }

    #[test]
    fn targeted_search_finds_exactly_the_sets_of_that_value() {
        let mut rules = LineRule::NAMED.to_vec();
        rules.push(LineRule::TurnUpTo(4));
        rules.push(LineRule::Subtraction(vec![1, 3, 4]));
        for rule in rules {
            let first = rule.first_coin();
            let values = CoinValues::new(&rule, first + 12, &Budget::default()).unwrap();
            for n in first..first + 12 {
                for want in 0..40u64 {
                    let mut all = Vec::new();
                    let _ = rule.for_each_flip_set(n, &mut |s| {
                        if s.iter().map(|&c| values.get(c)).sum::<Nimber>() == Nimber(want) {
                            all.push(s.to_vec());
                        }
                        ControlFlow::Continue(())
                    });
                    let mut found = Vec::new();
                    let budget = Budget::default();
                    values
                        .flip_sets_with_value(n, Nimber(want), &budget, &mut |s| {
                            found.push(s.to_vec())
                        })
                        .unwrap();
                    all.sort();
                    found.sort();
                    assert_eq!(found, all, "{rule} n={n} want={want}");
                }
            }
        }
    }
}
