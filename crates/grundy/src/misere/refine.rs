//! Splitting old quotient elements when a new generator distinguishes them: the candidate of
//! `super::extend` with some generators *freed* (as Siegel's MisereSolver recalibrates).
//!
//! The candidate of `super::extend` keeps only the class of the old part `A` of a sum
//! `A + k·h`. When the new heap `h` tells apart two sums with the same old class, that
//! candidate fails verification and the failing sum names the generators involved. Here
//! those generators are *freed*: a sum is modelled by the class in the old quotient `Q` of its
//! other generators, times the number of copies of each freed generator `f` (exact up to an
//! index `L_f`, then alternating with period 2, as powers in misère quotients end). The model
//! monoid `M = Q × C(L_1) × … × C(L_r)` is at least as fine as needed once enough generators
//! are freed with large enough indices.
//!
//! - **P-portion by least words.** The elements of `M` reached by sums of generators are
//!   listed in the order of their least word (words compared by their exponent vectors, the
//!   highest generator first: a total order kept by adding a generator, in which every option
//!   of a word comes before it, since a move replaces one generator by smaller ones). An
//!   element is P exactly when no option of its least word maps to a P element; the options'
//!   elements are always decided already. This is the induction a true quotient obeys.
//! - **Reduction.** Moore's partition refinement merges the elements that no sequence of
//!   generators tells apart (a congruence, as the monoid is commutative): the candidate.
//! - **Verification** stays with the caller (module `quotient`): the finite automaton checks
//!   every sum of the new closure; a failure returns the shortest failing sum, whose
//!   generators are freed (or whose exponents raise the indices) for the next round.
//!
//! Nothing here is trusted: a candidate that is wrong is refused by the verification, and the
//! caller falls back to the slow search after a bounded number of rounds. Cost per round:
//! `O(|M'|·(g + o))` for the `|M'|` reachable model elements, `g` distinct generator images
//! and `o` options of a least word, plus `O(|M'|·g)` per refinement pass.

use super::MisereError;
use super::generators::Generators;
use super::monoid::Quotient;
use super::moore::refine_partition;
use crate::control::Budget;
use rustc_hash::FxHashMap;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The largest label: misère Grundy values are kept in 64-bit sets.
pub const MAX_LABEL: u32 = 63;

/// The least value not in the set `s` (64 when it holds 0..=63).
pub(super) fn mex(s: u64) -> u32 {
    crate::nimber::mex_of_bits(&[s]) as u32
}

/// The refusal of a misère Grundy value past [`MAX_LABEL`] (labelled models).
pub(super) fn too_large() -> MisereError {
    MisereError::Unsupported(format!(
        "a misère Grundy value is larger than {MAX_LABEL}, the largest kept"
    ))
}

/// The most model elements (`|Q| × Π (L_f + 1)`) indexed by an array; a larger model is
/// indexed by a hash map of the elements reached, which are bounded by the budget's position
/// limit, not by the model's span (MisereSolver's direct sums likewise build only what is
/// reached: refusing a large span skipped the subsets, the full one among them, that
/// recalibrate a failure with heaps of high counts, Dawson's chess at heap 33).
pub const MAX_MODEL: u64 = 1 << 18;

/// A freed generator and the index of its powers (exact below `index`, then period 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Freed {
    /// The generator.
    pub generator: u32,
    /// Copies `0..=index` are told apart; `index + 1` copies act as `index - 1`.
    pub index: u32,
}

/// The model monoid: the old quotient times one truncated counter per freed generator.
struct Model<'a> {
    old: &'a Quotient,
    freed: &'a [Freed],
    /// For each generator `0..=i`: `Some(slot)` if freed, else `None`.
    slot: Vec<Option<usize>>,
    /// Mixed radix: element = old + n·(k_0 + (L_0+1)·(k_1 + …)).
    radix: Vec<u64>,
    n: u64,
}

impl Model<'_> {
    fn wrap(index: u32, mut k: u32) -> u32 {
        while k > index {
            k -= 2;
        }
        k
    }

    /// The element times generator `g`.
    fn step(&self, s: u64, g: u32) -> u64 {
        match self.slot[g as usize] {
            None => {
                let a = (s % self.n) as u32;
                let b = self.old.mul(a, self.old.image_of_generator(g));
                s - u64::from(a) + u64::from(b)
            }
            Some(j) => {
                let r = self.radix[j];
                let size = u64::from(self.freed[j].index) + 1;
                let k = (s / r) % size;
                let k2 = u64::from(Self::wrap(self.freed[j].index, k as u32 + 1));
                s - k * r + k2 * r
            }
        }
    }

    /// The product, counter by counter (no allocation: the trial tables of heap 33 of 0.137
    /// make tens of millions of these).
    fn mul(&self, s: u64, t: u64) -> u64 {
        let (a, b) = ((s % self.n) as u32, (t % self.n) as u32);
        let (mut ks, mut ls) = (s / self.n, t / self.n);
        let mut out = u64::from(self.old.mul(a, b));
        for (f, r) in self.freed.iter().zip(&self.radix) {
            let size = u64::from(f.index) + 1;
            let k = Self::wrap(f.index, (ks % size + ls % size) as u32);
            ks /= size;
            ls /= size;
            out += u64::from(k) * r;
        }
        out
    }

    /// The number of elements: every element is below it.
    fn size(&self) -> u64 {
        self.radix
            .last()
            .zip(self.freed.last())
            .map_or(self.n, |(r, f)| r * (u64::from(f.index) + 1))
    }
}

/// The candidate quotient of generators `0..=i` from the quotient `old` (of generators
/// `0..i`, or a trial of `0..=i`), with the generators of `freed` (which must include every
/// generator without an image in `old`) counted exactly up to their indices, and the label of
/// each element: its outcome (1 for P) or, with `grundy`, its misère Grundy value (the
/// labelled monoid, module `labels`). `None` when the model's elements cannot be
/// numbered in 64 bits or the candidate has more than `max_elements` elements; the elements
/// reached count against the budget's position limit.
pub fn candidate(
    gens: &Generators,
    old: &Quotient,
    i: u32,
    freed: &[Freed],
    grundy: bool,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<(Quotient, Vec<u32>)>, MisereError> {
    let n = old.order() as u64;
    let mut slot = vec![None; i as usize + 1];
    let mut radix = Vec::with_capacity(freed.len());
    let mut size = n;
    for (j, f) in freed.iter().enumerate() {
        if f.generator > i || f.index < 1 || slot[f.generator as usize].is_some() {
            return Err(MisereError::Invariant(format!(
                "a freed generator {} (index {}) is out of range or repeated",
                f.generator, f.index
            )));
        }
        slot[f.generator as usize] = Some(j);
        radix.push(size);
        // Elements are numbered in 64 bits: a span past that is refused.
        size = match size.checked_mul(u64::from(f.index) + 1) {
            Some(s) => s,
            None => return Ok(None),
        };
    }
    if (0..=i).any(|g| slot[g as usize].is_none() && g as usize >= old.generator_count()) {
        return Err(MisereError::Invariant(
            "a generator without an image in the base quotient must be freed".into(),
        ));
    }
    let model = Model {
        old,
        freed,
        slot,
        radix,
        n,
    };
    reduce(gens, &model, i + 1, grundy, budget, max_elements)
}

/// A commutative monoid model whose elements are numbers (`0` the identity), acted on by the
/// generators: the truncated counters here, or the product of the labelled monoid (module
/// `labels`).
pub(super) trait ModelMonoid {
    /// The element times generator `g`.
    fn step(&self, s: u64, g: u32) -> u64;
    /// The product of two elements.
    fn mul(&self, s: u64, t: u64) -> u64;
    /// A bound on the elements (all below it) when it is small enough to index an array by
    /// element; `None` otherwise.
    fn dense_size(&self) -> Option<u64> {
        None
    }
    /// The products of every two of `elems`, a row `elems[x]·elems[..]` at a time.
    fn mul_rows(
        &self,
        elems: &[u64],
        row: &mut dyn FnMut(&[u64]) -> Result<(), MisereError>,
    ) -> Result<(), MisereError> {
        let mut products = vec![0u64; elems.len()];
        for &s in elems {
            for (o, &t) in products.iter_mut().zip(elems) {
                *o = self.mul(s, t);
            }
            row(&products)?;
        }
        Ok(())
    }
}

impl ModelMonoid for Model<'_> {
    fn step(&self, s: u64, g: u32) -> u64 {
        Model::step(self, s, g)
    }
    fn mul(&self, s: u64, t: u64) -> u64 {
        Model::mul(self, s, t)
    }
    fn dense_size(&self) -> Option<u64> {
        // An array index only for a small span (`ElementIndex::new`).
        Some(self.size())
    }
    /// As [`Model::mul`] for every pair, with each element split into its parts once:
    /// no division per product (the table is most of a large trial's reduction).
    fn mul_rows(
        &self,
        elems: &[u64],
        row: &mut dyn FnMut(&[u64]) -> Result<(), MisereError>,
    ) -> Result<(), MisereError> {
        let r = self.freed.len();
        let mut olds: Vec<u32> = Vec::with_capacity(elems.len());
        let mut counters: Vec<u32> = Vec::with_capacity(elems.len() * r);
        for &s in elems {
            olds.push((s % self.n) as u32);
            let mut rest = s / self.n;
            for f in self.freed {
                let size = u64::from(f.index) + 1;
                counters.push((rest % size) as u32);
                rest /= size;
            }
        }
        let mut products = vec![0u64; elems.len()];
        for (x, &a) in olds.iter().enumerate() {
            let old_row = &self.old.table()[a as usize];
            let ks = &counters[x * r..(x + 1) * r];
            for (y, (o, &b)) in products.iter_mut().zip(&olds).enumerate() {
                let ls = &counters[y * r..(y + 1) * r];
                let mut z = u64::from(old_row[b as usize]);
                for (((&k, &l), f), &radix) in ks.iter().zip(ls).zip(self.freed).zip(&self.radix) {
                    z += u64::from(Self::wrap(f.index, k + l)) * radix;
                }
                *o = z;
            }
            row(&products)?;
        }
        Ok(())
    }
}

/// The candidate from a model of the sums of generators `0..generators`: the elements reached,
/// in least-word order, labelled (outcomes, or misère Grundy values with `grundy`) from the
/// options of their least words, reduced by Moore's refinement. `None` when it has more
/// than `max_elements` elements.
pub(super) fn reduce(
    gens: &Generators,
    model: &impl ModelMonoid,
    generators: u32,
    grundy: bool,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<(Quotient, Vec<u32>)>, MisereError> {
    // Letters: one generator per distinct action (the smallest index), identity actions left out.
    let mut letters: Vec<u32> = Vec::new();
    let mut seen_images: Vec<u64> = Vec::new();
    for g in 0..generators {
        let x = model.step(0, g);
        if x != 0 && !seen_images.contains(&x) {
            seen_images.push(x);
            letters.push(g);
        }
    }
    // Elements in the order of their least words (descending generator lists compare as the
    // exponent vectors, highest generator first).
    let mut index = ElementIndex::new(model.dense_size());
    let mut words: Vec<Vec<u32>> = Vec::new();
    let mut states: Vec<u64> = Vec::new();
    let mut p: Vec<u32> = Vec::new();
    let mut queue: BinaryHeap<Reverse<(Vec<u32>, u64)>> = BinaryHeap::new();
    queue.push(Reverse((Vec::new(), 0)));
    let elem = |word: &[u32]| word.iter().fold(0u64, |s, &g| model.step(s, g));
    // The bytes the elements reached hold (their least words, kept and queued, the index,
    // the successor lists), checked against the memory limit as they grow.
    let mut held = 0u64;
    while let Some(Reverse((word, s))) = queue.pop() {
        if index.get(s).is_some() {
            continue;
        }
        budget.check_positions(words.len() + 1)?;
        held += ELEMENT_BYTES + 8 * word.len() as u64 + 4 * letters.len() as u64;
        budget.check_bytes(held, 1)?;
        // P exactly when no option of this least word is P; the misère Grundy value is the
        // mex of the options' values (1 with no option).
        let mut set = 0u64;
        let mut units = 1u64;
        'options: for (pos, &g) in word.iter().enumerate() {
            if pos > 0 && word[pos - 1] == g {
                continue;
            }
            let mut rest = word.clone();
            rest.remove(pos);
            let base = elem(&rest);
            for o in gens.options(g) {
                units += 1 + o.len() as u64;
                let t = o.iter().fold(base, |t, &h| model.step(t, h));
                match index.get(t) {
                    Some(e) => {
                        let v = p[e as usize];
                        set |= 1 << v;
                        if !grundy && v == 1 {
                            break 'options;
                        }
                    }
                    None => {
                        return Err(MisereError::Invariant(
                            "an option's element was not decided before its game".into(),
                        ));
                    }
                }
            }
        }
        budget.charge(units + word.len() as u64 * letters.len() as u64)?;
        let value = match (word.is_empty(), grundy) {
            (true, true) => 1,
            (true, false) => 0,
            (false, true) => mex(set),
            (false, false) => u32::from(set & 2 == 0),
        };
        if value > MAX_LABEL {
            return Err(too_large());
        }
        let e = words.len() as u32;
        index.insert(s, e)?;
        p.push(value);
        states.push(s);
        for &l in &letters {
            let t = model.step(s, l);
            if index.get(t).is_some() {
                continue;
            }
            let mut w = Vec::with_capacity(word.len() + 1);
            let at = word.iter().position(|&x| x < l).unwrap_or(word.len());
            w.extend_from_slice(&word[..at]);
            w.push(l);
            w.extend_from_slice(&word[at..]);
            queue.push(Reverse((w, t)));
        }
        words.push(word);
    }
    // Moore's refinement over the reachable elements, their successors listed once (each
    // refinement pass reads every one).
    let mut succ: Vec<u32> = Vec::with_capacity(states.len() * letters.len());
    for &s in &states {
        for &l in &letters {
            succ.push(index.get(model.step(s, l)).ok_or_else(|| {
                MisereError::Invariant("a successor left the reachable elements".into())
            })?);
        }
    }
    let initial = p.clone();
    let (block, count) = refine_partition(
        initial,
        letters.len(),
        |e, l| succ[e * letters.len() + l] as usize,
        budget,
    )?;
    drop(succ);
    if count > max_elements {
        return Ok(None);
    }
    // Number the blocks by their first element in least-word order (the identity first).
    let mut number: FxHashMap<u32, u32> = FxHashMap::default();
    let mut first: Vec<usize> = Vec::new();
    for (e, &b) in block.iter().enumerate() {
        if let std::collections::hash_map::Entry::Vacant(v) = number.entry(b) {
            v.insert(first.len() as u32);
            first.push(e);
        }
    }
    // The element of each reached model element, then of any model element.
    let numbered: Vec<u32> = block.iter().map(|b| number[b]).collect();
    let class = |s: u64| -> Result<u32, MisereError> {
        index
            .get(s)
            .map(|e| numbered[e as usize])
            .ok_or_else(|| MisereError::Invariant("a product left the reachable elements".into()))
    };
    let k = first.len();
    budget.charge((k * k) as u64)?;
    budget.check_bytes((k * k) as u64, 4)?;
    // Row by row (a column write per product would miss the cache on large trials).
    let elems: Vec<u64> = first.iter().map(|&e| states[e]).collect();
    let mut table = Vec::with_capacity(k);
    model.mul_rows(&elems, &mut |products| {
        table.push(
            products
                .iter()
                .map(|&z| class(z))
                .collect::<Result<Vec<u32>, _>>()?,
        );
        Ok(())
    })?;
    let labels: Vec<u32> = first.iter().map(|&e| p[e]).collect();
    let pp = labels.iter().map(|&v| v == u32::from(!grundy)).collect();
    let reps = first
        .iter()
        .map(|&e| {
            let mut w = words[e].clone();
            w.sort_unstable();
            w
        })
        .collect();
    let mut images = Vec::with_capacity(generators as usize);
    for g in 0..generators {
        images.push(class(model.step(0, g))?);
    }
    Ok(Some((
        Quotient::from_parts(table, pp, reps, images),
        labels,
    )))
}

/// The bytes an element reached holds beside its least word and successors: its state,
/// label and index entry, and the headers of its word kept and queued.
const ELEMENT_BYTES: u64 = 96;

/// The most model elements indexed by an array (4 bytes each) rather than a hash map.
const MAX_DENSE: u64 = MAX_MODEL;

/// The place (in least-word order) of each model element reached: an array over the model
/// when it is small ([`ModelMonoid::dense_size`]), a hash map otherwise. The array saves the
/// hashing of the look-ups that dominate a large trial's reduction and table.
enum ElementIndex {
    Dense(Vec<u32>),
    Sparse(FxHashMap<u64, u32>),
}

impl ElementIndex {
    fn new(size: Option<u64>) -> Self {
        match size {
            Some(n) if n <= MAX_DENSE => ElementIndex::Dense(vec![u32::MAX; n as usize]),
            _ => ElementIndex::Sparse(FxHashMap::default()),
        }
    }

    fn get(&self, s: u64) -> Option<u32> {
        match self {
            ElementIndex::Dense(v) => usize::try_from(s)
                .ok()
                .and_then(|s| v.get(s))
                .copied()
                .filter(|&e| e != u32::MAX),
            ElementIndex::Sparse(m) => m.get(&s).copied(),
        }
    }

    fn insert(&mut self, s: u64, e: u32) -> Result<(), MisereError> {
        match self {
            ElementIndex::Dense(v) => {
                let slot = usize::try_from(s).ok().and_then(|s| v.get_mut(s));
                *slot.ok_or_else(|| {
                    MisereError::Invariant(format!("a model element {s} passes the model's size"))
                })? = e;
            }
            ElementIndex::Sparse(m) => {
                m.insert(s, e);
            }
        }
        Ok(())
    }
}

/// The freed generators for the next round after a failing sum `witness`: its generators
/// freed (index two above their count in it), indices raised where its count reached them.
/// `None` when nothing changes (no progress possible this way).
pub fn widen(freed: &[Freed], witness: &[u32]) -> Option<Vec<Freed>> {
    let mut out = freed.to_vec();
    let mut changed = false;
    let mut counts: Vec<(u32, u32)> = Vec::new();
    for &g in witness {
        match counts.iter_mut().find(|(h, _)| *h == g) {
            Some((_, c)) => *c += 1,
            None => counts.push((g, 1)),
        }
    }
    for (g, c) in counts {
        match out.iter_mut().find(|f| f.generator == g) {
            Some(f) => {
                if c + 1 >= f.index {
                    f.index = c + 2;
                    changed = true;
                }
            }
            None => {
                out.push(Freed {
                    generator: g,
                    index: (c + 1).max(2),
                });
                changed = true;
            }
        }
    }
    changed.then_some(out)
}

/// [`widen`] for a failing sum and the representative the candidate confused it with: the
/// generators of both are freed (their counts the larger of the two), as either side may hold
/// the generator that tells them apart. `None` when nothing changes.
pub fn widen_both(freed: &[Freed], witness: &[u32], rep: &[u32]) -> Option<Vec<Freed>> {
    let a = widen(freed, witness);
    let b = widen(a.as_deref().unwrap_or(freed), rep);
    b.or(a)
}

#[cfg(test)]
mod tests {
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

    /// The model of `old` with the generators of `freed` (distinct, below its generator
    /// count) freed, its parts laid out as `candidate` lays them.
    fn model<'a>(old: &'a Quotient, freed: &'a [Freed]) -> Model<'a> {
        let mut slot = vec![None; old.generator_count()];
        let mut radix = Vec::new();
        let mut size = old.order() as u64;
        for (j, f) in freed.iter().enumerate() {
            slot[f.generator as usize] = Some(j);
            radix.push(size);
            size *= u64::from(f.index) + 1;
        }
        Model {
            old,
            freed,
            slot,
            radix,
            n: old.order() as u64,
        }
    }

    /// The product from the definition: split both elements into the old element and the
    /// counters, multiply the old parts, add the counters (period 2 past the index), join.
    fn product_by_parts(m: &Model, s: u64, t: u64) -> u64 {
        let parts = |mut s: u64| {
            let a = (s % m.n) as u32;
            s /= m.n;
            let mut ks = Vec::new();
            for f in m.freed {
                ks.push(s % (u64::from(f.index) + 1));
                s /= u64::from(f.index) + 1;
            }
            (a, ks)
        };
        let ((a, ks), (b, ls)) = (parts(s), parts(t));
        let mut out = u64::from(m.old.mul(a, b));
        let mut place = m.n;
        for ((k, l), f) in ks.iter().zip(&ls).zip(m.freed) {
            let (sum, index) = (k + l, u64::from(f.index));
            let c = if sum > index {
                sum - 2 * (sum - index).div_ceil(2)
            } else {
                sum
            };
            out += c * place;
            place *= index + 1;
        }
        out
    }

    /// The model with the defaults of [`ModelMonoid`]: no array index, the table product by
    /// product.
    struct Plain<'a>(Model<'a>);

    impl ModelMonoid for Plain<'_> {
        fn step(&self, s: u64, g: u32) -> u64 {
            self.0.step(s, g)
        }
        fn mul(&self, s: u64, t: u64) -> u64 {
            product_by_parts(&self.0, s, t)
        }
    }

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(64)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// The model's product and its rows (split once, no division per product) are the
        /// product of the parts.
        #[test]
        fn the_model_product_is_the_product_of_its_parts(
            digits in proptest::collection::vec(0u8..8, 2..4),
            heaps in 3u64..10,
            picks in proptest::collection::vec((0usize..100, 2u32..6), 1..4),
            elems in proptest::collection::vec(0u64..1 << 20, 1..24),
        ) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let Some((_, q)) = verified(&digits, heaps) else { return Ok(()) };
            let mut freed: Vec<Freed> = Vec::new();
            for (g, index) in picks {
                let generator = (g % q.generator_count()) as u32;
                if !freed.iter().any(|f| f.generator == generator) {
                    freed.push(Freed { generator, index });
                }
            }
            let m = model(&q, &freed);
            let elems: Vec<u64> = elems.iter().map(|s| s % m.size()).collect();
            let mut rows = Vec::new();
            m.mul_rows(&elems, &mut |r| {
                rows.push(r.to_vec());
                Ok(())
            })
            .unwrap();
            for (x, &s) in elems.iter().enumerate() {
                for (y, &t) in elems.iter().enumerate() {
                    let want = product_by_parts(&m, s, t);
                    prop_assert_eq!(m.mul(s, t), want);
                    prop_assert_eq!(rows[x][y], want);
                }
            }
        }

        /// The reduction with the array index and the split-once table gives the candidate
        /// of the hash index and the product from the definition.
        #[test]
        fn the_reduction_is_the_same_with_either_index(
            digits in proptest::collection::vec(0u8..8, 2..4),
            heaps in 3u64..10,
            picks in proptest::collection::vec((0usize..100, 2u32..5), 1..3),
            grundy in any::<bool>(),
        ) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let Some((gens, q)) = verified(&digits, heaps) else { return Ok(()) };
            let mut freed: Vec<Freed> = Vec::new();
            for (g, index) in picks {
                let generator = (g % q.generator_count()) as u32;
                if !freed.iter().any(|f| f.generator == generator) {
                    freed.push(Freed { generator, index });
                }
            }
            let budget = Budget::default();
            let generators = q.generator_count() as u32;
            let fast = reduce(&gens, &model(&q, &freed), generators, grundy, &budget, 1 << 16);
            let plain = reduce(&gens, &Plain(model(&q, &freed)), generators, grundy, &budget, 1 << 16);
            prop_assert_eq!(fast, plain);
        }
    }
}
