//! The least failing sum of a trial quotient, found with *dominance pruning* (the check
//! behind Siegel's MisereSolver's verification, written here from the argument below).
//!
//! A trial `(Q, P, Φ)` for the generators `0..=i` predicts the outcome of every sum `G` as
//! `Φ(G) ∈ P`. It is right for every sum exactly when the empty sum maps outside `P` and
//! every non-empty sum `G` is predicted P exactly when no option of `G` is predicted P. A
//! sum that breaks this is a *failure*, of one of two kinds:
//!
//! - **P-failure**: `Φ(G) ∈ P` and some option is predicted P. The option moves in one heap
//!   `H` of `G = X + H` to one of its options `O`, so the failure depends only on
//!   `x = Φ(X)` and the heap's *type* `(h, W_H)` (`W_H` = the `y` with `y·Φ(O) ∈ P` for an
//!   option `O` of `H`): `x·h ∈ P` and `x ∈ W_H`. Every element `x` is checked against every
//!   type, and the least failure of this kind is the least word of `x` plus `H` (the order
//!   below is a monomial order, so the least word of `x` gives the least sum). Cost
//!   `O(|Q|·t)` for `t` types, after the least words (`O(|Q|·g·log|Q|)`).
//! - **N-failure**: `Φ(G) ∉ P` and no option is predicted P. A sum is followed by its state
//!   `(x, U)`, `U` = the `z` such that some option of `G + Z` through a heap of `G` is
//!   predicted P when `Φ(Z) = z`; adding a heap of type `(h, W)` gives
//!   `(x·h, {z : h·z ∈ U} ∪ {z : x·z ∈ W})`, monotone in `U`. `G` is an N-failure when
//!   `x ∉ P` and `1 ∉ U`. So if two non-empty sums `G'` and `G` have states `(x, U')` and
//!   `(x, U)` with `U' ⊆ U`, then for every `V`, `G + V` being an N-failure makes `G' + V`
//!   one: `G` is *dominated* and nothing above it needs a look. The search runs over the sums
//!   in increasing order (exponent vectors, highest generator first, one letter per heap
//!   type: a sum and the sum with each heap replaced by the smallest heap of its type have
//!   one state, the latter smaller), keeping for each `x` the antichain of the minimal `U`
//!   seen; a sum dominated by an earlier one is cut with everything above it in the order's
//!   tree. The least N-failure is never cut: were it `G + V` with `G` dominated by an earlier
//!   (so smaller) `G'`, then `G' + V` would be a smaller N-failure. The search stops at the
//!   least P-failure when there is one.
//!
//! The least of the two is the least failing sum: every smaller sum, so every option of it,
//! is predicted right (options are smaller in this order, and by induction every sum below
//! the least failure is predicted right), so its true outcome is the opposite of the trial's
//! prediction. No failure at all proves the trial predicts every sum right (induction on
//! sums). The number of states kept is the size of the antichains, in practice far below
//! the reachable states of the full automaton (`lex_least_failure`, kept as
//! the unpruned reference the tests compare with): 0.137 to heap 29 takes 1.5 s instead of
//! 6.9 s, and heap 32 (order 638) is reached in seconds.

use super::MisereError;
use super::generators::Generators;
use super::monoid::{Quotient, p_after_option};
use crate::control::Budget;
#[cfg(test)]
use rustc_hash::FxHashMap;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A heap type of a trial: image `h`, the set `W` (bit set), and its smallest generator.
struct Type {
    h: u32,
    w: Vec<u64>,
    generator: u32,
}

fn has(set: &[u64], z: u32) -> bool {
    set[z as usize / 64] >> (z % 64) & 1 == 1
}

fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

/// The heap types of the generators `0..=i` in `trial`, by smallest generator, ascending.
fn types(gens: &Generators, trial: &Quotient, i: u32) -> Vec<Type> {
    let mut out: Vec<Type> = Vec::new();
    for j in 0..=i {
        let h = trial.image_of_generator(j);
        let w = p_after_option(trial, gens.options(j));
        if !out.iter().any(|t| t.h == h && t.w == w) {
            out.push(Type { h, w, generator: j });
        }
    }
    out
}

/// Compares two sums (sorted generator lists) in the order of their exponent vectors,
/// highest generator first.
pub fn cmp_words(a: &[u32], b: &[u32]) -> Ordering {
    a.iter().rev().cmp(b.iter().rev())
}

/// The least word (sorted generator list) of every element reached by sums of the
/// generators `0..=i`, `None` for an element no sum reaches.
pub fn least_words(
    trial: &Quotient,
    i: u32,
    budget: &Budget,
) -> Result<Vec<Option<Vec<u32>>>, MisereError> {
    let n = trial.order();
    // Letters: the smallest generator of each distinct image.
    let mut letters: Vec<(u32, u32)> = Vec::new();
    for j in 0..=i {
        let h = trial.image_of_generator(j);
        if !letters.iter().any(|&(g, _)| g == h) {
            letters.push((h, j));
        }
    }
    let mut least: Vec<Option<Vec<u32>>> = vec![None; n];
    // Words kept descending: Vec's order is then the exponent order.
    let mut queue: BinaryHeap<Reverse<(Vec<u32>, u32)>> = BinaryHeap::new();
    queue.push(Reverse((Vec::new(), 0)));
    while let Some(Reverse((word, x))) = queue.pop() {
        if least[x as usize].is_some() {
            continue;
        }
        budget.charge(letters.len() as u64 + 1)?;
        for &(h, j) in &letters {
            let y = trial.mul(x, h);
            if least[y as usize].is_none() {
                let mut w = word.clone();
                let at = w.iter().position(|&g| g < j).unwrap_or(w.len());
                w.insert(at, j);
                queue.push(Reverse((w, y)));
            }
        }
        let mut ascending = word;
        ascending.reverse();
        least[x as usize] = Some(ascending);
    }
    Ok(least)
}

/// The least sum of generators `0..=i` (exponent vectors compared highest generator first)
/// that `trial` predicts wrongly against its options (see the module docs); `None` when there
/// is none, which proves the trial's predictions for every sum (given `trial.is_p(0)` is
/// false, checked here: a trial with the identity in `P` fails at the empty sum).
pub fn least_failure(
    gens: &Generators,
    trial: &Quotient,
    i: u32,
    budget: &Budget,
) -> Result<Option<Vec<u32>>, MisereError> {
    if trial.is_p(0) {
        return Ok(Some(Vec::new()));
    }
    let types = types(gens, trial, i);
    let least = least_words(trial, i, budget)?;
    // The least P-failure.
    let mut best: Option<Vec<u32>> = None;
    budget.charge((least.len() * types.len()) as u64 / 16 + 1)?;
    for (x, word) in least.iter().enumerate() {
        let Some(word) = word else { continue };
        let x = x as u32;
        for t in &types {
            if trial.is_p(trial.mul(x, t.h)) && has(&t.w, x) {
                let mut f = word.clone();
                let at = f.partition_point(|&g| g <= t.generator);
                f.insert(at, t.generator);
                if best
                    .as_ref()
                    .is_none_or(|b| cmp_words(&f, b) == Ordering::Less)
                {
                    best = Some(f);
                }
            }
        }
    }
    if let Some(nf) = least_n_failure(trial, &types, best.as_deref(), budget)? {
        return Ok(Some(nf));
    }
    Ok(best)
}

/// The least N-failure below `bound` (the module docs' search), as a sorted generator list.
fn least_n_failure(
    trial: &Quotient,
    types: &[Type],
    bound: Option<&[u32]>,
    budget: &Budget,
) -> Result<Option<Vec<u32>>, MisereError> {
    let n = trial.order();
    let t = types.len();
    let words = n.div_ceil(64);
    // The successor of state (x, U) along type k; `root`: the empty sum (no options yet).
    // Built a word of 64 bits at a time from the rows of `h` and `x` (this loop is most of
    // the search's time: a bit per element per state).
    let table = trial.table();
    let step = |x: u32, u: &[u64], k: usize| -> (u32, Vec<u64>) {
        let ty = &types[k];
        let (rh, rx) = (&table[ty.h as usize][..n], &table[x as usize][..n]);
        let mut u2 = vec![0u64; words];
        for ((out, hs), xs) in u2.iter_mut().zip(rh.chunks(64)).zip(rx.chunks(64)) {
            let mut bits = 0u64;
            for (b, (&hz, &xz)) in hs.iter().zip(xs).enumerate() {
                let bit =
                    (u[hz as usize / 64] >> (hz % 64)) | (ty.w[xz as usize / 64] >> (xz % 64));
                bits |= (bit & 1) << b;
            }
            *out = bits;
        }
        (trial.mul(x, ty.h), u2)
    };
    // For each element, the antichain of the minimal U seen.
    let mut antichains: Vec<Vec<Vec<u64>>> = vec![Vec::new(); n];
    let mut kept = 0usize;
    // heaps[k]: the exponent of letter k (-1: exhausted); states[k]: the state with the
    // exponents of letters k.. applied (states[t]: the empty sum).
    let mut heaps: Vec<i64> = vec![0; t];
    let root = (0u32, vec![0u64; words]);
    let mut states: Vec<(u32, Vec<u64>)> = vec![root; t + 1];
    let word_of = |heaps: &[i64]| -> Vec<u32> {
        let mut w = Vec::new();
        for (k, &e) in heaps.iter().enumerate() {
            for _ in 0..e.max(0) {
                w.push(types[k].generator);
            }
        }
        w.sort_unstable();
        w
    };
    let mut depth: isize = -1;
    loop {
        if depth < 0 {
            // Visit the word of the current exponents (state states[0]).
            let (x, u) = &states[0];
            if heaps.iter().any(|&e| e > 0) && !trial.is_p(*x) && !has(u, 0) {
                return Ok(Some(word_of(&heaps)));
            }
            depth = 0;
            continue;
        }
        let d = depth as usize;
        if d >= t {
            return Ok(None);
        }
        heaps[d] += 1;
        if heaps[d] > 0 {
            if let Some(b) = bound {
                if cmp_words(&word_of(&heaps), b) != Ordering::Less {
                    return Ok(None);
                }
            }
            budget.charge((n / 16) as u64 + 1)?;
            let (x, u) = &states[d];
            let (x2, u2) = step(*x, u, d);
            // Dominated by a state kept for x2: cut; otherwise keep it, dropping the kept
            // states it dominates.
            let chain = &mut antichains[x2 as usize];
            if chain.iter().any(|v| subset(v, &u2)) {
                heaps[d] = -1;
                depth += 1;
                continue;
            }
            let before = chain.len();
            chain.retain(|v| !subset(&u2, v));
            kept = kept + 1 - (before - chain.len());
            chain.push(u2.clone());
            budget.check_positions(kept)?;
            states[d] = (x2, u2);
        }
        depth -= 1;
        if depth >= 0 {
            states[depth as usize] = states[depth as usize + 1].clone();
        }
    }
}

/// The unpruned reference for [`least_failure`] (which the computation uses; this one builds every reachable state, and the tests compare the two).
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
#[cfg(test)]
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
    use super::lex_least_failure;
    use super::*;
    use crate::heap::rules::HeapRule;
    use crate::misere::quotient::compute;
    use proptest::prelude::*;

    /// A verified quotient of a random code's heaps (or `None` when refused).
    fn verified(digits: &[u8], heaps: u64) -> Option<(Generators, Quotient)> {
        let code = format!(
            "0.{}",
            digits.iter().map(|d| d.to_string()).collect::<String>()
        );
        let rule = HeapRule::parse(&code).ok()?;
        let budget = Budget::default();
        let gens = Generators::heaps(&rule, heaps, &budget).ok()?;
        if gens.is_empty() {
            return None;
        }
        let q = compute(&gens, &budget, 400, |_, _| Ok(())).ok()?;
        Some((gens, q))
    }

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(64)
    }

    #[test]
    fn a_verified_quotient_has_no_failure() {
        for code in [[7u8, 5], [1, 3], [0, 7], [7, 7]] {
            let (gens, q) = verified(&code, 14).unwrap();
            let i = gens.len() as u32 - 1;
            assert_eq!(
                least_failure(&gens, &q, i, &Budget::default()).unwrap(),
                None
            );
        }
    }

    #[test]
    fn least_words_are_least() {
        // Misère Nim *1, *2: the elements and their least words by brute force over short
        // sums (exponents compared highest generator first).
        let (gens, q) = verified(&[7, 5], 10).unwrap();
        let i = gens.len() as u32 - 1;
        let least = least_words(&q, i, &Budget::default()).unwrap();
        let mut best: Vec<Option<Vec<u32>>> = vec![None; q.order()];
        // Every sum of at most 4 generators.
        let mut sums: Vec<Vec<u32>> = vec![vec![]];
        for _ in 0..4 {
            let mut next = Vec::new();
            for s in &sums {
                for g in s.last().copied().unwrap_or(0)..=i {
                    let mut t = s.clone();
                    t.push(g);
                    next.push(t);
                }
            }
            sums.extend(next.iter().cloned());
            sums.sort();
            sums.dedup();
        }
        for s in sums {
            let x = q.image(&s) as usize;
            if best[x]
                .as_ref()
                .is_none_or(|b| cmp_words(&s, b) == Ordering::Less)
            {
                best[x] = Some(s);
            }
        }
        for (x, b) in best.iter().enumerate() {
            if let Some(b) = b {
                assert_eq!(least[x].as_ref(), Some(b), "element {x}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// The pruned search finds exactly the least failure of the full automaton
        /// (`recal::lex_least_failure`, written from the automaton without pruning), on
        /// verified quotients with their P-portion or a generator's image disturbed.
        #[test]
        fn the_pruned_search_finds_the_least_failure_of_the_full_automaton(
            digits in proptest::collection::vec(0u8..8, 2..4),
            heaps in 4u64..14,
            flips in proptest::collection::vec(0usize..1000, 0..4),
            image in proptest::option::of(0usize..1000),
        ) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let Some((gens, q)) = verified(&digits, heaps) else { return Ok(()) };
            let i = gens.len() as u32 - 1;
            let n = q.order();
            let mut p: Vec<bool> = (0..n as u32).map(|x| q.is_p(x)).collect();
            for f in flips {
                let x = f % n;
                if x != 0 {
                    p[x] = !p[x];
                }
            }
            let mut images: Vec<u32> = (0..=i).map(|g| q.image_of_generator(g)).collect();
            if let Some(x) = image {
                images[i as usize] = (x % n) as u32;
            }
            let reps = (0..n as u32).map(|x| q.representative(x).to_vec()).collect();
            let trial = Quotient::from_parts(q.table().to_vec(), p, reps, images);
            let budget = Budget::default();
            let fast = least_failure(&gens, &trial, i, &budget).unwrap();
            let full = lex_least_failure(&gens, &trial, i, &budget).unwrap();
            prop_assert_eq!(fast, full, "{:?} to heap {}", digits, heaps);
        }
    }
}
