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

/// The option of a heap of `n` that leaves exactly `parts` (in any order; empty heaps are
/// not parts), if the rule has one: decided from the rule in `O(parts)`, without listing
/// the options (a heap of 10^18 is checked as fast as a heap of 5). The parts fix the
/// removal (`n` minus their sum), so there is at most one such option.
pub fn option_leaving(rule: &HeapRule, n: u64, parts: &[u64]) -> Option<HeapOption> {
    let mut parts = parts.to_vec();
    parts.sort_unstable();
    if parts.first() == Some(&0) {
        return None;
    }
    let left = parts
        .iter()
        .try_fold(0u64, |total, &p| total.checked_add(p))?;
    let removed = n.checked_sub(left)?;
    let legal = match rule.kind() {
        RuleKind::TakeBreak(tb) => {
            let &digit = usize::try_from(removed)
                .ok()
                .and_then(|j| tb.code().digits().get(j))?;
            let constraint = tb.constraint(removed as usize);
            match parts[..] {
                [] => digit & 1 != 0,
                [_] => digit & 2 != 0 && removed >= 1,
                [a, b] => digit & 4 != 0 && constraint.allows_pair(a, b),
                [a, b, c] => digit & 8 != 0 && constraint.allows_triple(a, b, c),
                _ => false,
            }
        }
        RuleKind::Subtraction(set) => parts.len() <= 1 && set.contains(&removed),
        RuleKind::AllBut(set) => {
            parts.len() <= 1 && removed >= 1 && set.binary_search(&removed).is_err()
        }
        RuleKind::Lasker => {
            (parts.len() <= 1 && removed >= 1) || (parts.len() == 2 && removed == 0)
        }
        RuleKind::Half => parts.len() <= 1 && n > 0 && left <= n / 2,
        RuleKind::EvenIfNotAll => match parts.len() {
            0 => n % 2 == 1,
            1 => removed >= 2 && removed % 2 == 0,
            _ => false,
        },
    };
    legal.then_some(HeapOption { removed, parts })
}

/// An option of a heap of `n` that removes as few tokens as the rule allows (of those, one
/// that leaves a single heap if there is one), or `None` when the heap has no move: a move
/// that makes the game last, found in `O(digits)` without listing the options.
pub fn least_option(rule: &HeapRule, n: u64) -> Option<HeapOption> {
    let option = |removed: u64, parts: Vec<u64>| Some(HeapOption { removed, parts });
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
                if digit & 2 != 0 && m >= 1 && j >= 1 {
                    return option(j, vec![m]);
                }
                if digit & 1 != 0 && m == 0 {
                    return option(j, vec![]);
                }
                // The constraints only forbid equal parts: among the first few splits in the
                // listing's order one is allowed whenever any is (and `=` has one split).
                if digit & 4 != 0 {
                    for a in 1..=(m / 2).min(3) {
                        if constraint.allows_pair(a, m - a) {
                            return option(j, vec![a, m - a]);
                        }
                    }
                    if constraint == Constraint::AllEqual && m >= 2 && m % 2 == 0 {
                        return option(j, vec![m / 2, m / 2]);
                    }
                }
                if digit & 8 != 0 {
                    for a in 1..=(m / 3).min(3) {
                        for b in a..=((m - a) / 2).min(a + 3) {
                            if constraint.allows_triple(a, b, m - a - b) {
                                return option(j, vec![a, b, m - a - b]);
                            }
                        }
                    }
                    if constraint == Constraint::AllEqual && m >= 3 && m % 3 == 0 {
                        return option(j, vec![m / 3, m / 3, m / 3]);
                    }
                }
            }
            None
        }
        RuleKind::Subtraction(set) => set
            .iter()
            .find(|&&s| s <= n)
            .and_then(|&s| option(s, leave(n - s))),
        RuleKind::AllBut(set) => (1..=n)
            .take(set.len() + 1)
            .find(|k| set.binary_search(k).is_err())
            .and_then(|k| option(k, leave(n - k))),
        // Splitting removes nothing.
        RuleKind::Lasker if n >= 2 => option(0, vec![1, n - 1]),
        RuleKind::Lasker => (n == 1).then(|| HeapOption {
            removed: 1,
            parts: vec![],
        }),
        RuleKind::Half => (n > 0).then(|| HeapOption {
            removed: n - n / 2,
            parts: leave(n / 2),
        }),
        RuleKind::EvenIfNotAll => {
            if n > 2 {
                option(2, vec![n - 2])
            } else if n % 2 == 1 {
                option(n, vec![])
            } else {
                None
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

    /// Every multiset of at most three non-empty parts with sum at most `n`.
    fn candidate_parts(n: u64) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        for a in 1..=n {
            out.push(vec![a]);
            for b in a..=n - a {
                out.push(vec![a, b]);
                for c in b..=n.saturating_sub(a + b) {
                    if c > 0 && a + b + c <= n {
                        out.push(vec![a, b, c]);
                    }
                }
            }
        }
        out
    }

    #[test]
    fn the_option_leaving_given_parts_is_found_without_listing_as_the_listing_has_it() {
        let rules = [
            "kayles",
            "0.137",
            "0.07",
            "4.07",
            "0.4=",
            "0.8!",
            "0.c?",
            "4!.0",
            "0.77=",
            "0.f",
            "sub(1,3,4)",
            "allbut(1,2)",
            "lasker",
            "half",
            "even-if-not-all",
            "grundys-game",
            "0.123",
            "8.3",
            "0.8?",
        ];
        for text in rules {
            let rule = HeapRule::parse(text).unwrap();
            for n in 0..18u64 {
                let mut listed: Vec<HeapOption> = Vec::new();
                for_each_option(&rule, n, |o| listed.push(o));
                for parts in candidate_parts(n) {
                    let found = option_leaving(&rule, n, &parts);
                    let want = listed.iter().find(|o| o.parts == parts);
                    assert_eq!(found.as_ref(), want, "{text} heap {n} leaving {parts:?}");
                    // Order does not matter.
                    let mut reversed = parts.clone();
                    reversed.reverse();
                    assert_eq!(option_leaving(&rule, n, &reversed), found);
                }
                assert_eq!(option_leaving(&rule, n, &[0]), None);
                // The least option is one of the options, removing the fewest tokens.
                let least = least_option(&rule, n);
                match listed.iter().map(|o| o.removed).min() {
                    None => assert_eq!(least, None, "{text} heap {n}"),
                    Some(fewest) => {
                        let least = least.expect("a heap with options has a least one");
                        assert!(listed.contains(&least), "{text} heap {n}: {least:?}");
                        assert_eq!(least.removed, fewest, "{text} heap {n}");
                    }
                }
            }
        }
        // Huge heaps, at once.
        let kayles = HeapRule::parse("kayles").unwrap();
        let big = 1u64 << 62;
        assert_eq!(
            option_leaving(&kayles, big, &[big - 3, 1]),
            Some(HeapOption {
                removed: 2,
                parts: vec![1, big - 3]
            })
        );
        assert_eq!(option_leaving(&kayles, big, &[big - 4, 1]), None);
        assert_eq!(option_leaving(&kayles, big, &[u64::MAX, 2]), None);
        assert_eq!(least_option(&kayles, big).map(|o| o.removed), Some(1));
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
