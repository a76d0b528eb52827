//! Recalibration: the next trial quotient after a trial mispredicts one sum (the step of
//! Siegel's MisereSolver that handles a new heap splitting old elements).
//!
//! A *trial* is a candidate quotient `(T, P, Φ)` of the generators `0..=i`, built by
//! [`super::refine::candidate`] and reduced. When the verification of [`super::quotient`]
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
use super::quotient::{Quotient, p_after_option};
use super::refine::{Freed, candidate};
use crate::control::Budget;
use rustc_hash::FxHashMap;

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

/// The unpruned reference for [`super::dominance::least_failure`] (which the computation
/// uses; this one builds every reachable state, and the tests compare the two).
///
/// The least sum of generators `0..=i` (exponent vectors compared highest generator first,
/// an order in which every option of a sum comes before it) whose predicted outcome in
/// `trial` disagrees with the predictions for its options; `None` when there is none.
///
/// Every smaller sum is then predicted right (by induction: its options are smaller), so the
/// failure's options are predicted right and its true outcome is the opposite of its
/// prediction, without any search. Computed on the automaton of the verification (states
/// `(Φ(G), U(G))`, one letter per heap type, each type spelt by its smallest generator): the
/// states from which letters `0..=k` alone reach a failing state are closed level by level,
/// and the word is read off from the highest letter down, each exponent the least that
/// still reaches a failure. Cost: `O(S·t)` for `S` reachable states and `t` heap types, each
/// state `O(|Q|)` to build.
pub fn lex_least_failure(
    gens: &Generators,
    trial: &Quotient,
    i: u32,
    budget: &Budget,
) -> Result<Option<Vec<u32>>, MisereError> {
    let n = trial.order();
    let words = n.div_ceil(64);
    // Heap types, by their smallest generator.
    let mut types: Vec<(u32, Vec<u64>, u32)> = Vec::new();
    for j in 0..=i {
        let h = trial.image_of_generator(j);
        let w = p_after_option(trial, gens.options(j));
        if !types.iter().any(|(h2, w2, _)| *h2 == h && *w2 == w) {
            types.push((h, w, j));
        }
    }
    let t = types.len();
    let has = |set: &[u64], z: u32| set[z as usize / 64] >> (z % 64) & 1 == 1;
    // All reachable states; the empty sum is a state of its own (no option to check).
    let start = (0u32, vec![u64::MAX; words + 1]);
    let mut index: FxHashMap<(u32, Vec<u64>), u32> = FxHashMap::default();
    let mut states = vec![start.clone()];
    index.insert(start, 0);
    let mut succ: Vec<u32> = Vec::new();
    let mut failing: Vec<bool> = vec![false];
    let empty = vec![0u64; words];
    let mut s = 0;
    while s < states.len() {
        // A state costs `t·|Q|` table look-ups and bit tests, about 1 ns each (measured on
        // 0.137 to heap 29): one unit of work per 16 of them.
        budget.charge((t * n / 16) as u64 + 1)?;
        for (h, w, _) in &types {
            let (x, u) = &states[s];
            let x2 = trial.mul(*x, *h);
            let u: &[u64] = if s == 0 { &empty } else { u };
            let mut u2 = vec![0u64; words];
            for z in 0..n as u32 {
                if has(u, trial.mul(*h, z)) || has(w, trial.mul(*x, z)) {
                    u2[z as usize / 64] |= 1 << (z % 64);
                }
            }
            let fails = trial.is_p(x2) == has(&u2, 0);
            let state = (x2, u2);
            let next = match index.get(&state) {
                Some(&k) => k,
                None => {
                    let k = states.len() as u32;
                    budget.check_positions(states.len() + 1)?;
                    index.insert(state.clone(), k);
                    states.push(state);
                    failing.push(fails);
                    k
                }
            };
            succ.push(next);
        }
        s += 1;
    }
    let count = states.len();
    drop(index);
    // levels[k][s]: letters 0..=k reach a failing state from s (levels[k-1] for k = 0 is
    // `failing`).
    budget.check_bytes(count as u64, t as u64)?;
    let mut levels: Vec<Vec<bool>> = Vec::with_capacity(t);
    for k in 0..t {
        budget.charge(2 * count as u64 + 1)?;
        let below = levels.last().unwrap_or(&failing);
        let mut level = below.clone();
        // Predecessors along letter k.
        let mut preds: Vec<Vec<u32>> = vec![Vec::new(); count];
        for s in 0..count {
            preds[succ[s * t + k] as usize].push(s as u32);
        }
        let mut stack: Vec<u32> = (0..count as u32).filter(|&s| level[s as usize]).collect();
        while let Some(s) = stack.pop() {
            for &p in &preds[s as usize] {
                if !level[p as usize] {
                    level[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        levels.push(level);
    }
    if t == 0 || !levels[t - 1][0] {
        return Ok(None);
    }
    let mut word = Vec::new();
    let mut s = 0usize;
    for k in (0..t).rev() {
        let below = if k == 0 { &failing } else { &levels[k - 1] };
        let mut steps = 0;
        while !below[s] {
            s = succ[s * t + k] as usize;
            word.push(types[k].2);
            steps += 1;
            if steps > count {
                return Err(MisereError::Invariant(
                    "the least failing sum could not be read off the automaton".into(),
                ));
            }
        }
    }
    word.sort_unstable();
    Ok(Some(word))
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
