//! The options of one heap, listed from the rules: what the generic engine and the move
//! lists use.
//!
//! An option is the number of tokens removed and the heaps left (sorted, each non-empty).
//! Listing is proportional to the number of options: `O(t + n)` for a code with splits into
//! two heaps, `O(n²)` with splits into three, `O(n)` for Lasker's Nim and all-but games;
//! a digit whose parts must be equal (`=`) has one split at most, listed in `O(1)`.

use super::rules::{Constraint, HeapRule, RuleKind};

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
            // Per removal: the splits it allows (one when the parts must be equal), and at
            // most two moves that leave one heap or none.
            let mut total: u128 = 0;
            for (j, &digit) in tb.code().digits().iter().enumerate() {
                let equal = tb.constraint(j) == Constraint::AllEqual;
                let per_removal = if digit & 8 != 0 && !equal {
                    n.saturating_mul(n) / 12 + n + 1
                } else if digit & 4 != 0 && !equal {
                    n / 2 + 2
                } else {
                    4
                };
                total = total.saturating_add(per_removal);
            }
            total
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
                // Parts that must be equal: one split at most, not a scan of all of them
                // (a heap of 10^9 in `0.4=` has one option).
                let equal = constraint == Constraint::AllEqual;
                if digit & 4 != 0 && equal {
                    if m >= 2 && m % 2 == 0 {
                        emit(j, vec![m / 2, m / 2]);
                    }
                } else if digit & 4 != 0 {
                    for a in 1..=m / 2 {
                        if constraint.allows_pair(a, m - a) {
                            emit(j, vec![a, m - a]);
                        }
                    }
                }
                if digit & 8 != 0 && equal {
                    if m >= 3 && m % 3 == 0 {
                        emit(j, vec![m / 3, m / 3, m / 3]);
                    }
                } else if digit & 8 != 0 {
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

    /// Every split of `m` into `k` parts (sorted), filtered by the constraint: the definition
    /// the listing must match.
    fn splits_by_definition(m: u64, k: usize, c: Constraint) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        if k == 2 {
            for a in 1..=m / 2 {
                if c.allows_pair(a, m - a) {
                    out.push(vec![a, m - a]);
                }
            }
        } else {
            for a in 1..=m {
                for b in a..=m {
                    if a + b < m && b <= m - a - b && c.allows_triple(a, b, m - a - b) {
                        out.push(vec![a, b, m - a - b]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn equal_parts_are_listed_as_the_definition_lists_them() {
        // `=` on two- and three-part splits, beside digits without a constraint.
        for code in ["0.4=", "4=.0", "0.8=", "0.c=", "0.4=4", "0.77=", "4=.4="] {
            let rule = HeapRule::parse(code).unwrap();
            let RuleKind::TakeBreak(tb) = rule.kind() else {
                panic!("{code} is a take-and-break code")
            };
            for n in 0..40u64 {
                let mut want: Vec<(u64, Vec<u64>)> = Vec::new();
                for (j, &d) in tb.code().digits().iter().enumerate() {
                    let j = j as u64;
                    if j > n {
                        break;
                    }
                    let (m, c) = (n - j, tb.constraint(j as usize));
                    if d & 1 != 0 && m == 0 {
                        want.push((j, vec![]));
                    }
                    if d & 2 != 0 && m >= 1 && j >= 1 {
                        want.push((j, vec![m]));
                    }
                    for (bit, k) in [(4, 2), (8, 3)] {
                        if d & bit != 0 {
                            want.extend(splits_by_definition(m, k, c).into_iter().map(|p| (j, p)));
                        }
                    }
                }
                let got = options(code, n);
                assert_eq!(got, want, "{code} heap {n}");
                assert!(
                    got.len() as u128 <= option_count_bound(&rule, n),
                    "{code} heap {n}"
                );
            }
        }
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
