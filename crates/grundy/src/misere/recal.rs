//! Recalibration: the next trial quotient after a trial mispredicts one sum (the step of
//! Siegel's MisereSolver that handles a new heap splitting old elements).
//!
//! A *trial* is a candidate quotient `(T, P, Φ)` of the generators `0..=i`, built by
//! [`super::refine::candidate`] and reduced. When the verification of the quotient module
//! refutes it, the caller finds a sum `v` whose predicted outcome is wrong while every option
//! of `v` is predicted right (the analogue of MisereSolver's lexicographically least failure)
//! and its true outcome. Then, for the subsets `S` of the generators of `v`, smallest first:
//! 1. the generators of `S` are *freed*: the model monoid is `T` (acting through `Φ` on the
//!    other generators) times one cyclic counter per freed generator `g`, of period 2 and
//!    index the larger of the index of `Φ(g)`'s powers in `T` and `g`'s count in `v` less one
//!    (the counter is exact up to that index, so nothing `T` knew about `g` is lost);
//! 2. the P-portion is marked by least words and the model reduced by Moore's refinement
//!    ([`super::refine::candidate`]);
//! 3. the first subset whose trial predicts `v` right is the next trial.
//!
//! Each recalibration keeps what the trial learnt (the structure of `T` on the generators
//! not freed) and adds only the counters needed, reduced before the next round, so the
//! trials stay near the size of the answer instead of multiplying counters from the old
//! quotient. Nothing here is trusted: every trial is put to the verification again, and only
//! a trial that passes is reported.
//!
//! Cost per subset: the elements reached in a model of `|T|·Π(L_g + 1)` (bounded by the
//! budget's position limit, not by the model's span: [`super::refine::MAX_MODEL`]); at most
//! `2^r − 1` subsets for `r` distinct generators in `v`, capped by [`MAX_SUBSETS`], the full
//! set always among them. Freeing every generator of `v` gets `v` right (as in MisereSolver,
//! so the least failures of successive trials strictly increase): `v` is then the least word
//! of its element, whose label is read from its options, all predicted right by the trial.

use super::MisereError;
use super::generators::Generators;
use super::monoid::Quotient;
use super::refine::{Freed, candidate};
use crate::control::Budget;

/// The most subsets of a failing sum's generators tried in one recalibration.
pub const MAX_SUBSETS: usize = 64;

/// The index of the powers of `x` in `q` as the counters of [`Freed`] count it: the least
/// `L >= 1` with `x^(L+1) = x^(L−1)` (1 for an `x` with `x² = 1`, the identity included,
/// whose counter is then the group of order 2, as MisereSolver's `cyclicMonoid(2, 0)`);
/// `None` when the powers of `x` have a period other than 1 or 2 (the counters cannot hold
/// them).
pub fn counter_index(q: &Quotient, x: u32) -> Option<u32> {
    let mut powers = vec![0u32];
    let mut y = 0u32;
    // The powers repeat within |q| + 1 steps.
    for _ in 0..=q.order() {
        y = q.mul(y, x);
        powers.push(y);
    }
    (1..powers.len() - 1)
        .find(|&l| powers[l + 1] == powers[l - 1])
        .map(|l| l as u32)
}

/// The next trial after `trial` (of generators `0..=i`) predicts the sum `v` wrong (`v_is_p`
/// is its true outcome): the first subset of `v`'s generators, smallest first, whose freed
/// model predicts `v` right. `None` when no subset does (or every model is too large).
pub fn recalibrate(
    gens: &Generators,
    trial: &Quotient,
    i: u32,
    v: &[u32],
    v_is_p: bool,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<Quotient>, MisereError> {
    // Distinct generators of v, with their counts.
    let mut involved: Vec<(u32, u32)> = Vec::new();
    for &g in v {
        match involved.iter_mut().find(|(h, _)| *h == g) {
            Some((_, c)) => *c += 1,
            None => involved.push((g, 1)),
        }
    }
    involved.sort_unstable();
    let r = involved.len();
    if r == 0 || r >= 32 {
        return Ok(None);
    }
    let mut subsets: Vec<u32> = (1u32..(1 << r)).collect();
    subsets.sort_by_key(|m| (m.count_ones(), *m));
    let full = subsets.pop().unwrap_or(1);
    subsets.truncate(MAX_SUBSETS - 1);
    // Freeing every heap of `v` always predicts it right (its least word is then `v` itself,
    // labelled from its options, which the trial predicts right): tried last whatever the cap.
    subsets.push(full);
    for mask in subsets {
        budget.check()?;
        let Some(freed) = freed_counters(trial, &involved, mask) else {
            continue;
        };
        let Some((next, _)) = candidate(gens, trial, i, &freed, false, budget, max_elements)?
        else {
            continue;
        };
        let mut w = v.to_vec();
        w.sort_unstable();
        if next.is_p(next.image(&w)) == v_is_p {
            return Ok(Some(next));
        }
    }
    Ok(None)
}

/// The generators of `involved` (with their counts in the failing sum) picked by `mask`, each
/// freed as a counter exact up to its count and to the index of its image's powers in
/// `trial`; `None` when an image's powers have a period other than 1 or 2.
fn freed_counters(trial: &Quotient, involved: &[(u32, u32)], mask: u32) -> Option<Vec<Freed>> {
    involved
        .iter()
        .enumerate()
        .filter(|&(k, _)| mask >> k & 1 == 1)
        .map(|(_, &(g, c))| {
            let l = counter_index(trial, trial.image_of_generator(g))?;
            Some(Freed {
                generator: g,
                index: l.max(c),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Freeing every generator of the least failing sum gets that sum right, round after
    /// round, and the least failures strictly increase: Dawson's chess at heap 24, the first
    /// heap that splits old elements.
    #[test]
    fn freeing_the_whole_failure_repairs_it() {
        use super::super::dominance::{cmp_words, least_failure};
        use super::super::quotient::compute;
        use crate::heap::rules::HeapRule;
        let budget = Budget::default();
        let rule = HeapRule::parse("0.137").unwrap();
        let gens = Generators::heaps(&rule, 24, &budget).unwrap();
        let i = gens.of_heap(24).unwrap();
        let mut old = None;
        compute(&gens, &budget, 1000, |g, q| {
            if g + 1 == i {
                old = Some(q.clone());
            }
            Ok(())
        })
        .unwrap();
        let old = old.unwrap();
        let fresh = [Freed {
            generator: i,
            index: 3,
        }];
        let (mut trial, _) = candidate(&gens, &old, i, &fresh, false, &budget, 10_000)
            .unwrap()
            .unwrap();
        let mut last: Option<Vec<u32>> = None;
        let mut rounds = 0;
        while let Some(mut v) = least_failure(&gens, &trial, i, &budget).unwrap() {
            v.sort_unstable();
            if let Some(last) = &last {
                assert_eq!(cmp_words(&v, last), std::cmp::Ordering::Greater, "{v:?}");
            }
            let v_is_p = !trial.is_p(trial.image(&v));
            let mut involved: Vec<(u32, u32)> = Vec::new();
            for &g in &v {
                match involved.iter_mut().find(|(h, _)| *h == g) {
                    Some((_, c)) => *c += 1,
                    None => involved.push((g, 1)),
                }
            }
            let all = (1u32 << involved.len()) - 1;
            let freed = freed_counters(&trial, &involved, all).expect("counters");
            let (whole, _) = candidate(&gens, &trial, i, &freed, false, &budget, 100_000)
                .unwrap()
                .expect("a model");
            assert_eq!(whole.is_p(whole.image(&v)), v_is_p, "{v:?}");
            trial = recalibrate(&gens, &trial, i, &v, v_is_p, &budget, 100_000)
                .unwrap()
                .expect("a next trial");
            last = Some(v);
            rounds += 1;
        }
        assert!(
            rounds > 0,
            "heap 24 splits old elements: the first trial fails"
        );
    }

    #[test]
    fn counter_index_reads_the_powers_of_nim_heaps() {
        // Misère Nim heaps *1, *2: *1 has powers 1, a, 1, a, ... (a² = 1), a counter of
        // index 1 (the group of order 2), as the identity has; *2's powers 1, b, b², b, ...
        // need index 2.
        let gens = Generators::nim(2);
        let q =
            super::super::quotient::compute(&gens, &Budget::default(), 100, |_, _| Ok(())).unwrap();
        let a = q.image_of_generator(0);
        assert_eq!(q.mul(a, a), 0);
        assert_eq!(counter_index(&q, a), Some(1));
        assert_eq!(counter_index(&q, 0), Some(1));
        let b = q.image_of_generator(1);
        assert_ne!(q.mul(b, b), 0);
        assert_eq!(counter_index(&q, b), Some(2));
    }
}
