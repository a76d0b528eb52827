//! The options of one heap, listed from the rules: what the generic engine and the move
//! lists use.
//!
//! An option is the number of tokens removed and the heaps left (sorted, each non-empty).
//! Listing is proportional to the number of options: `O(t + n)` for a code with splits into
//! two heaps, `O(n²)` with splits into three, `O(n)` for Lasker's Nim and all-but games.

use super::rules::{HeapRule, RuleKind};

/// One option of a heap: `removed` tokens taken away, `parts` the heaps left (ascending).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeapOption {
    /// How many tokens the move removes.
    pub removed: u64,
    /// The heaps left, ascending, none empty.
    pub parts: Vec<u64>,
}

impl HeapOption {
    /// A sentence for people: `take 2, leaving 3 and 5`.
    pub fn describe(&self, heap: u64) -> String {
        let parts: Vec<String> = self.parts.iter().map(u64::to_string).collect();
        match (self.removed, parts.len()) {
            (r, 0) if r == heap => format!("take all {heap}"),
            (0, _) => format!("split {heap} into {}", parts.join(" and ")),
            (r, 1) => format!("take {r}, leaving {}", parts[0]),
            (r, _) => format!("take {r}, leaving {}", parts.join(" and ")),
        }
    }
}

/// The number of options a heap of `n` has, or an estimate of it from above: used to refuse
/// listing the moves of a huge heap one by one.
pub fn option_count_bound(rule: &HeapRule, n: u64) -> u128 {
    let n = u128::from(n);
    match rule.kind() {
        RuleKind::TakeBreak(tb) => {
            let per_removal = match tb.max_heaps_left() {
                3 => n.saturating_mul(n) / 12 + n + 1,
                2 => n / 2 + 2,
                _ => 2,
            };
            (tb.code().max_removal() as u128 + 1).saturating_mul(per_removal)
        }
        RuleKind::Subtraction(set) => set.len() as u128,
        RuleKind::AllBut(_) | RuleKind::Half | RuleKind::EvenIfNotAll => n + 1,
        RuleKind::Lasker => n + n / 2 + 1,
    }
}

/// Calls `f` with every option of a heap of `n` tokens (possibly with repeats of the same
/// position reached by different removals).
pub fn for_each_option(rule: &HeapRule, n: u64, mut f: impl FnMut(HeapOption)) {
    let mut emit = |removed: u64, parts: Vec<u64>| f(HeapOption { removed, parts });
    let leave = |left: u64| if left == 0 { vec![] } else { vec![left] };
    match rule.kind() {
        RuleKind::TakeBreak(tb) => {
            for (j, &digit) in tb.code().digits().iter().enumerate() {
                let j = j as u64;
                if j > n {
                    break;
                }
                let m = n - j;
                let constraint = tb.constraint(j as usize);
                if digit & 1 != 0 && m == 0 {
                    emit(j, vec![]);
                }
                if digit & 2 != 0 && m >= 1 && j >= 1 {
                    emit(j, vec![m]);
                }
                if digit & 4 != 0 {
                    for a in 1..=m / 2 {
                        if constraint.allows_pair(a, m - a) {
                            emit(j, vec![a, m - a]);
                        }
                    }
                }
                if digit & 8 != 0 {
                    for a in 1..=m / 3 {
                        for b in a..=(m - a) / 2 {
                            let c = m - a - b;
                            if constraint.allows_triple(a, b, c) {
                                emit(j, vec![a, b, c]);
                            }
                        }
                    }
                }
            }
        }
        RuleKind::Subtraction(set) => {
            for &s in set.iter().take_while(|&&s| s <= n) {
                emit(s, leave(n - s));
            }
        }
        RuleKind::AllBut(set) => {
            for k in 1..=n {
                if set.binary_search(&k).is_err() {
                    emit(k, leave(n - k));
                }
            }
        }
        RuleKind::Lasker => {
            for k in 1..=n {
                emit(k, leave(n - k));
            }
            for a in 1..=n / 2 {
                emit(0, vec![a, n - a]);
            }
        }
        RuleKind::Half => {
            // Remove k with 2k ≥ n: leave n - k ≤ ⌊n/2⌋.
            if n > 0 {
                for left in 0..=n / 2 {
                    emit(n - left, leave(left));
                }
            }
        }
        RuleKind::EvenIfNotAll => {
            let mut k = 2;
            while k < n {
                emit(k, vec![n - k]);
                k += 2;
            }
            if n % 2 == 1 {
                emit(n, vec![]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(rule: &str, n: u64) -> Vec<(u64, Vec<u64>)> {
        let rule = HeapRule::parse(rule).unwrap();
        let mut out = Vec::new();
        for_each_option(&rule, n, |o| out.push((o.removed, o.parts)));
        out
    }

    #[test]
    fn kayles_options_of_four() {
        assert_eq!(
            options("kayles", 4),
            vec![(1, vec![3]), (1, vec![1, 2]), (2, vec![2]), (2, vec![1, 1])]
        );
    }

    #[test]
    fn grundys_game_splits_unequally() {
        assert_eq!(
            options("grundys-game", 6),
            vec![(0, vec![1, 5]), (0, vec![2, 4])]
        );
        assert_eq!(options("grundys-game", 2), vec![]);
    }

    #[test]
    fn the_other_families() {
        assert_eq!(options("sub(1,3,4)", 3), vec![(1, vec![2]), (3, vec![])]);
        assert_eq!(options("allbut(1,2)", 4), vec![(3, vec![1]), (4, vec![])]);
        assert_eq!(
            options("half", 5),
            vec![(5, vec![]), (4, vec![1]), (3, vec![2])]
        );
        assert_eq!(
            options("even-if-not-all", 5),
            vec![(2, vec![3]), (4, vec![1]), (5, vec![])]
        );
        assert_eq!(options("even-if-not-all", 4), vec![(2, vec![2])]);
        assert_eq!(
            options("lasker", 2),
            vec![(1, vec![1]), (2, vec![]), (0, vec![1, 1])]
        );
        assert_eq!(options("0.8", 4), vec![(1, vec![1, 1, 1])]);
        assert_eq!(options("0.8!", 7), vec![(1, vec![1, 2, 3])]);
    }
}
