//! Misère Grundy values through a labelled quotient, proven by a finite automaton.
//!
//! The misère Grundy value `γ(G)` is 1 when `G` has no move and otherwise the mex of its
//! options' values; `γ(G) = m` exactly when `G + *m` is a misère P-position. The genus of a
//! heap is a list of such values (`γ(H + k·*2)`, `k = 0, 1, …`), so a genus sequence needs
//! `γ` on the sums of a closure that holds `*2`.
//!
//! ## Why not the misère quotient, nor Nim heaps
//! The misère quotient `Φ` of the closure only decides outcomes: `γ(G) = m` asks about
//! `G + *m`, and `*m` need not lie in the closure. For Kayles (whose heaps 1, 2, 3 are `*1`,
//! `*2`, `*3`) `γ` is a function of the quotient element up to heap 18, and no longer from
//! heap 20 on (two sums with one element have different values). Adding the Nim heaps `*m`
//! to the closure answers it, but then sums with several big Nim heaps must be told apart
//! too, and for Kayles that quotient passes a thousand elements by heap 20. What is needed
//! is coarser: the congruence `G ~ H` when `γ(G + X) = γ(H + X)` for every sum `X` of the
//! closure. Its classes form a monoid `L` (finer than the misère quotient, as `γ` decides
//! outcomes) with a label `λ(x)` on each element, and `λ(Φ_L(G)) = γ(G)`.
//!
//! ## The algorithm
//! `L` is built generator by generator, as [`super::quotient`] builds the misère quotient:
//! 1. **Candidate** (as in `super::extend`): for the old labelled monoid and the new
//!    generator `h`, the values of `A + k·h` for `k = 0, 1, …` (rows, until one repeats the
//!    row two before it, as powers end in period 2), searched over real games and memoised
//!    on `(old element of A, k)`; the states `(a, k)` reduced by Moore's refinement starting
//!    from the labels.
//! 2. **Proof.** For a sum `G` let `U(G)` map each `z ∈ L` to the set of labels
//!    `λ(Φ(G − H_i)·z·Φ(O))` over the heaps `H_i` of `G` and their options `O` (the values of
//!    the moves of `G + Z` made in `G`, for any `Z` with `Φ(Z) = z`). Adding a heap `H` gives
//!    `U(G + H)[z] = U(G)[Φ(H)·z] ∪ W_H[Φ(G)·z]` with `W_H[y] = {λ(y·Φ(O))}`, so the pairs
//!    `(Φ(G), U(G))` form a finite automaton, searched breadth-first from the empty sum. If
//!    `λ(1) = 1` and every non-empty state has `λ(Φ(G)) = mex U(G)[0]`, then by induction on
//!    `G` (options first) `γ(G) = mex{γ(G')} = mex{λ(Φ(G'))} = λ(Φ(G))` for *every* sum of
//!    the closure: the values are proven, not sampled. (With outcomes for labels this is the
//!    verification of [`super::quotient`].)
//!
//! A candidate that fails its proof means the new heap splits old elements: as for the
//! misère quotient ([`super::refine`]), the generators of the failing sum are freed (counted
//! exactly up to an index) for a few rounds, each candidate proven. When that does not
//! converge the computation stops there, keeping everything proven before, and the caller
//! falls back to a slower route. Cost per generator: `O(|L|·K)` memoised values (`K ≤ 24`
//! rows, each listing the options of one representative), `O(|L|·K·g)` per refinement pass,
//! and `O(|S|·t·|L|)` for the proof (`|S|` automaton states, `t` distinct heap types).
//!
//! **Observed limit.** For Kayles with `*1`, `*2` the labelled monoid has 24 elements
//! through heap 19 (found in milliseconds), but heap 20 splits it: the freed candidates
//! grow past 1500 elements with counterexamples holding ever more copies of heaps 12, 17
//! and 20, so the labelled monoid of the whole closure is probably infinite. MisereSolver's
//! recalibration (as [`super::recal`] does for the misère quotient: trial by trial, the least
//! failing sum read off the proof automaton, subsets of its heaps freed smallest first) was
//! tried here too and does not settle either: at heap 20 its trials rise 36 → 220 → 464 →
//! 1472 → 2740 elements in 66 rounds (and past 4000 with 4 GiB), the failing sums holding
//! ever more copies of heaps 12 and 20 (19 and 18 in the last); so it was not kept. Nor is `γ` a
//! function of the misère quotient element and the normal-play value together
//! ([`labels_through_normal_values`] refutes it by heap 24; both facts are module tests).
//! The genus of Kayles heaps past 19 is left to the slower routes.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::misere::generators::Generators;
//! use grundy::misere::labels::labelled_quotient;
//! let budget = Budget::default();
//! // Misère Nim with heaps *1, *2, *3.
//! let gens = Generators::nim(3);
//! let l = labelled_quotient(&gens, &budget, 100, |_, _| Ok(())).unwrap();
//! let value = |pos: &[u32]| l.label(l.quotient.image(pos));
//! assert_eq!(value(&[1, 2]), 1); // *2 + *3: a big heap, nim-sum 1
//! assert_eq!(value(&[0, 0]), 1); // *1 + *1: an even number of 1-heaps
//! assert_eq!(value(&[0]), 0); // *1: an odd number
//! ```

use super::MisereError;
use super::extend::{MAX_COPIES, assemble};
use super::generators::Generators;
use super::monoid::Quotient;
pub use super::refine::MAX_LABEL;
use super::refine::{self, Freed, ModelMonoid, mex, too_large, widen};
use crate::control::Budget;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// A monoid of sums of generators whose elements carry their misère Grundy values.
#[derive(Clone, Debug)]
pub struct Labelled {
    /// The monoid, the images of the generators, and the P-portion (the elements of value 0).
    pub quotient: Quotient,
    /// The misère Grundy value of each element.
    pub labels: Vec<u32>,
}

impl Labelled {
    /// The misère Grundy value of element `x`.
    pub fn label(&self, x: u32) -> u32 {
        self.labels[x as usize]
    }
}

/// The labelled quotient of the closure of `gens`, built generator by generator, each step
/// proven on every sum; `each` sees every intermediate one (after generator `i`). Refused
/// (with [`MisereError::Unsupported`]) when a new generator's candidate fails its proof.
pub fn labelled_quotient(
    gens: &Generators,
    budget: &Budget,
    max_elements: usize,
    mut each: impl FnMut(u32, &Labelled) -> Result<(), MisereError>,
) -> Result<Labelled, MisereError> {
    let mut current = Labelled {
        quotient: Quotient::trivial(),
        labels: vec![1],
    };
    for i in 0..gens.len() as u32 {
        current = step(gens, &current, i, budget, max_elements)?.ok_or_else(|| {
            MisereError::Unsupported(format!(
                "heap {} tells apart sums that the smaller heaps do not: the misère Grundy values are not read this way past it",
                gens.name(i)
            ))
        })?;
        each(i, &current)?;
    }
    Ok(current)
}

/// Adding generator `i`: the candidate of [`super::extend::assemble`] from rows of misère
/// Grundy values, and its proof; `None` when it is refuted or its rows do not settle.
fn step(
    gens: &Generators,
    old: &Labelled,
    i: u32,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<Labelled>, MisereError> {
    let n = old.quotient.order();
    let mut search = Search {
        gens,
        old,
        i,
        budget,
        memo: FxHashMap::default(),
    };
    let mut rows: Vec<Vec<u32>> = Vec::new();
    loop {
        let k = rows.len();
        if k > MAX_COPIES {
            return Ok(None);
        }
        let mut row = Vec::with_capacity(n);
        for a in 0..n as u32 {
            row.push(search.value(old.quotient.representative(a), k as u32)?);
        }
        rows.push(row);
        if k >= 2 && rows[k] == rows[k - 2] {
            break;
        }
    }
    let Some((quotient, labels)) =
        assemble(&old.quotient, i, &rows, |v| v == 0, budget, max_elements)?
    else {
        return Err(MisereError::TooManyElements {
            limit: max_elements,
        });
    };
    let Some(witness) = counterexample(gens, &quotient, &labels, budget)? else {
        return Ok(Some(Labelled { quotient, labels }));
    };
    // The new heap splits old elements: free the generators of the failing sum, as the
    // misère quotient does ([`super::refine`]), each candidate proven.
    let mut freed = vec![Freed {
        generator: i,
        index: 4,
    }];
    if let Some(f) = widen(&freed, &witness) {
        freed = f;
    }
    for _ in 0..REFINE_ROUNDS {
        budget.check()?;
        let Some((quotient, labels)) =
            refine::candidate(gens, &old.quotient, i, &freed, true, budget, max_elements)?
        else {
            return Ok(None);
        };
        // A model growing far past the old monoid is not converging (for Kayles at heap 20
        // it passes 1500 elements and keeps growing): give up on this route.
        if quotient.order() > 4 * n.max(4) {
            return Ok(None);
        }
        match counterexample(gens, &quotient, &labels, budget)? {
            None => return Ok(Some(Labelled { quotient, labels })),
            Some(w) => match widen(&freed, &w) {
                Some(f) => freed = f,
                None => return Ok(None),
            },
        }
    }
    Ok(None)
}

/// The most rounds of freed generators tried for one new generator.
const REFINE_ROUNDS: usize = 4;

/// The misère quotient times the normal-play values: element `(Φ(G), g(G))`, the values
/// nim-added (both parts are homomorphisms, so the product is one).
struct Product<'a> {
    q: &'a Quotient,
    n: u64,
    normal: &'a [u64],
}

impl ModelMonoid for Product<'_> {
    fn step(&self, s: u64, g: u32) -> u64 {
        let (a, v) = ((s % self.n) as u32, s / self.n);
        let b = self.q.mul(a, self.q.image_of_generator(g));
        (v ^ self.normal[g as usize]) * self.n + u64::from(b)
    }

    fn mul(&self, s: u64, t: u64) -> u64 {
        let (a, v) = ((s % self.n) as u32, s / self.n);
        let (b, w) = ((t % self.n) as u32, t / self.n);
        (v ^ w) * self.n + u64::from(self.q.mul(a, b))
    }
}

/// The labelled monoid read off the misère quotient `q` of the closure of `gens` and the
/// normal-play values `normal` of the generators: the hypothesis that `γ(G)` is a function
/// of `(Φ(G), g(G))`, labelled from least words in the product monoid, reduced, and proven
/// (or refuted: `None`) on every sum by the automaton of this module.
pub fn labels_through_normal_values(
    gens: &Generators,
    q: &Quotient,
    normal: &[u64],
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<Labelled>, MisereError> {
    let generators = covered(gens, q);
    if normal.len() < generators as usize || normal.iter().any(|&v| v > u64::from(u32::MAX)) {
        return Err(MisereError::Invariant(
            "a normal value is missing or too large for the product".into(),
        ));
    }
    let model = Product {
        q,
        n: q.order() as u64,
        normal,
    };
    let Some((quotient, labels)) =
        refine::reduce(gens, &model, generators, true, budget, max_elements)?
    else {
        return Err(MisereError::TooManyElements {
            limit: max_elements,
        });
    };
    Ok(counterexample(gens, &quotient, &labels, budget)?
        .is_none()
        .then_some(Labelled { quotient, labels }))
}

/// The memoised search of a candidate's rows: the misère Grundy value of `A + k·h` for a sum
/// `A` of old generators, assuming it depends on `A` through its old element only (the
/// proof checks it).
struct Search<'a> {
    gens: &'a Generators,
    old: &'a Labelled,
    i: u32,
    budget: &'a Budget,
    memo: FxHashMap<(u32, u32), u32>,
}

struct Frame {
    game: Vec<u32>,
    k: u32,
    options: Vec<(Vec<u32>, u32)>,
    next: usize,
    seen: u64,
}

impl Search<'_> {
    fn lookup(&self, game: &[u32], k: u32) -> Option<u32> {
        let x = self.old.quotient.image(game);
        if k == 0 {
            return Some(self.old.label(x));
        }
        self.memo.get(&(x, k)).copied()
    }

    fn open(&self, game: Vec<u32>, k: u32) -> Result<Frame, MisereError> {
        self.budget.check_positions(self.memo.len() + 1)?;
        let options = self.gens.options_with_copies(&game, self.i, k);
        self.budget.charge(options.len() as u64 + 1)?;
        Ok(Frame {
            game,
            k,
            options,
            next: 0,
            seen: 0,
        })
    }

    /// The misère Grundy value of `game + k·h`, in the candidate's model.
    fn value(&mut self, game: &[u32], k: u32) -> Result<u32, MisereError> {
        if let Some(v) = self.lookup(game, k) {
            return Ok(v);
        }
        let mut stack = vec![self.open(game.to_vec(), k)?];
        loop {
            let top = stack.last_mut().expect("the root stays until solved");
            if top.next < top.options.len() {
                let (g, k) = &top.options[top.next];
                match self.lookup(g, *k) {
                    Some(v) => {
                        top.seen |= 1 << v;
                        top.next += 1;
                    }
                    None => {
                        let (g, k) = (g.clone(), *k);
                        let frame = self.open(g, k)?;
                        stack.push(frame);
                    }
                }
                continue;
            }
            // k >= 1, so there is a move: the mex of the options' values.
            let done = stack.pop().expect("non-empty");
            let v = mex(done.seen);
            if v > MAX_LABEL {
                return Err(too_large());
            }
            self.memo
                .insert((self.old.quotient.image(&done.game), done.k), v);
            if stack.is_empty() {
                return Ok(v);
            }
        }
    }
}

/// The generators the quotient covers (the first ones of `gens`).
fn covered(gens: &Generators, q: &Quotient) -> u32 {
    gens.len().min(q.generator_count()) as u32
}

/// A sum of generators on which `labels` are wrong (step 2), or `None` when they give the
/// misère Grundy value of every sum of the closure (the generators `q` covers). The monoid
/// laws the proof uses are checked first on the generators' images.
pub(super) fn counterexample(
    gens: &Generators,
    q: &Quotient,
    labels: &[u32],
    budget: &Budget,
) -> Result<Option<Vec<u32>>, MisereError> {
    let n = q.order();
    if labels[0] != 1 {
        return Ok(Some(Vec::new()));
    }
    // Heap types: (image, W, a generator) with W[y] the labels of y times an option's image.
    let mut types: Vec<(u32, Vec<u64>, u32)> = Vec::new();
    for j in 0..covered(gens, q) {
        let h = q.image_of_generator(j);
        let mut opts: Vec<u32> = gens.options(j).iter().map(|o| q.image(o)).collect();
        opts.sort_unstable();
        opts.dedup();
        budget.charge((opts.len() * n) as u64 + 1)?;
        let w: Vec<u64> = (0..n as u32)
            .map(|y| {
                opts.iter()
                    .fold(0u64, |s, &o| s | 1 << labels[q.mul(y, o) as usize])
            })
            .collect();
        if !types.iter().any(|(h2, w2, _)| *h2 == h && *w2 == w) {
            types.push((h, w, j));
        }
    }
    // The laws: every element's representative maps to it, the generators commute, and
    // multiplying by a generator is associative.
    budget.charge((n * n * types.len()) as u64 + 1)?;
    for e in 0..n as u32 {
        let rep = q.representative(e);
        if q.image(rep) != e {
            return Ok(Some(rep.to_vec()));
        }
        for (_, _, j1) in &types {
            let h1 = q.image_of_generator(*j1);
            for (_, _, j2) in &types {
                let h2 = q.image_of_generator(*j2);
                if q.mul(q.mul(e, h1), h2) != q.mul(q.mul(e, h2), h1) {
                    let mut w = rep.to_vec();
                    w.extend([*j1, *j2]);
                    w.sort_unstable();
                    return Ok(Some(w));
                }
            }
            for b in 0..n as u32 {
                if q.mul(e, q.mul(b, h1)) != q.mul(q.mul(e, b), h1) {
                    let mut w = rep.to_vec();
                    w.extend_from_slice(q.representative(b));
                    w.push(*j1);
                    w.sort_unstable();
                    return Ok(Some(w));
                }
            }
        }
    }
    // The empty sum is the start, apart from the states of non-empty sums (its U is empty,
    // but it has no move, so the mex check does not apply to it; a non-empty sum has a move
    // in every U[z], so it never reaches this state).
    let mut seen: FxHashMap<(u32, Vec<u64>), ()> = FxHashMap::default();
    let mut states: Vec<(u32, Vec<u64>)> = vec![(0, vec![0; n])];
    let mut parent: Vec<(usize, u32)> = vec![(usize::MAX, 0)];
    let mut queue = VecDeque::from([0usize]);
    while let Some(s) = queue.pop_front() {
        budget.charge((types.len() * n) as u64 + 1)?;
        for (h, w, j) in &types {
            let (x, u) = &states[s];
            let x2 = q.mul(*x, *h);
            let u2: Vec<u64> = (0..n as u32)
                .map(|z| u[q.mul(*h, z) as usize] | w[q.mul(*x, z) as usize])
                .collect();
            let consistent = mex(u2[0]) == labels[x2 as usize];
            let state = (x2, u2);
            if consistent && seen.contains_key(&state) {
                continue;
            }
            budget.check_positions(states.len() + 1)?;
            seen.insert(state.clone(), ());
            states.push(state);
            parent.push((s, *j));
            if !consistent {
                let mut word = Vec::new();
                let mut k = states.len() - 1;
                while k != 0 {
                    word.push(parent[k].1);
                    k = parent[k].0;
                }
                word.sort_unstable();
                return Ok(Some(word));
            }
            queue.push_back(states.len() - 1);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_labels_are_the_misere_nim_values() {
        let budget = Budget::default();
        let gens = Generators::nim(4);
        let l = labelled_quotient(&gens, &budget, 200, |_, _| Ok(())).unwrap();
        let (q, labels) = (&l.quotient, &l.labels);
        // Misère Nim: with a heap of 2 or more the value is the nim-sum; otherwise it is 1
        // for an even number of 1-heaps, 0 for an odd one.
        for a in 0..3u32 {
            for b in 0..3u32 {
                for c in 0..3u32 {
                    let mut pos = Vec::new();
                    let mut heaps = Vec::new();
                    for (m, count) in [(1u32, a), (2, b), (4, c)] {
                        for _ in 0..count {
                            pos.push(m - 1);
                            heaps.push(m);
                        }
                    }
                    pos.sort_unstable();
                    let big = heaps.iter().any(|&h| h >= 2);
                    let want = if big {
                        heaps.iter().fold(0, |s, &h| s ^ h)
                    } else {
                        u32::from(heaps.len() % 2 == 0)
                    };
                    assert_eq!(labels[q.image(&pos) as usize], want, "{heaps:?}");
                }
            }
        }
    }

    #[test]
    fn a_wrong_label_is_refuted() {
        let budget = Budget::default();
        let gens = Generators::nim(3);
        let l = labelled_quotient(&gens, &budget, 200, |_, _| Ok(())).unwrap();
        assert_eq!(
            counterexample(&gens, &l.quotient, &l.labels, &budget),
            Ok(None)
        );
        for x in 0..l.labels.len() {
            let mut wrong = l.labels.clone();
            wrong[x] ^= 1;
            let w = counterexample(&gens, &l.quotient, &wrong, &budget)
                .unwrap()
                .expect("a wrong label is found");
            // The failing sum maps to an element whose label is wrong, or to one of the
            // elements its options reach.
            assert!(w.len() <= 8, "{w:?}");
        }
    }

    #[test]
    fn kayles_labels_hold_to_heap_19_and_not_at_20() {
        use crate::heap::rules::HeapRule;
        use crate::heap::sequence::heap_value_within;
        use crate::misere::quotient::compute;
        let budget = Budget::default();
        let rule = HeapRule::parse("kayles").unwrap();
        // Heap by heap: proven through heap 19 (generator 20), refused at heap 20.
        let gens = Generators::nim_then_heaps(2, &rule, 22, &budget).unwrap();
        let mut reached = (0, 0);
        let e = labelled_quotient(&gens, &budget, 4096, |g, l| {
            reached = (g, l.quotient.order());
            Ok(())
        })
        .unwrap_err();
        assert!(matches!(e, MisereError::Unsupported(_)), "{e}");
        assert_eq!(reached, (20, 24));
        // Nor is the value a function of the misère quotient element and the normal value:
        // that holds for the heaps to 19 and fails by heap 24.
        for (n, holds) in [(19u64, true), (24, false)] {
            let gens = Generators::nim_then_heaps(2, &rule, n, &budget).unwrap();
            let q = compute(&gens, &budget, 4096, |_, _| Ok(())).unwrap();
            let mut normal = vec![1, 2];
            for s in 1..=n {
                normal.push(heap_value_within(&rule, s, &budget).unwrap());
            }
            let l = labels_through_normal_values(&gens, &q, &normal, &budget, 1 << 16).unwrap();
            assert_eq!(l.is_some(), holds, "heaps to {n}");
        }
    }

    #[test]
    fn mex_of_sets() {
        assert_eq!(mex(0), 0);
        assert_eq!(mex(0b1011), 2);
        assert_eq!(mex(u64::MAX), 64);
    }
}
