//! Misère quotients (Plambeck–Siegel), computed heap by heap and verified.
//!
//! The misère quotient of a closed set `A` of games (every sum of the generators, here the
//! heaps `1..=N` of a rule) identifies two games `G`, `H` when `G + X` and `H + X` have the same
//! misère outcome for every `X` in `A`. It is a commutative monoid `Q` with a subset `P` (the
//! P-portion): `G + H` maps to the product of their elements, and a sum is a misère P-position
//! exactly when its element lies in `P` (T. E. Plambeck, *Taming the wild in impartial
//! combinatorial games*, Integers 5 (2005) G05; T. E. Plambeck and A. N. Siegel, *Misère
//! quotients for impartial games*, JCTA 115 (2008)).
//!
//! ## The algorithm
//! As in Siegel's MisereSolver, the quotient of the heaps `1..=n` is built from the verified
//! quotient of `1..=n-1`:
//! 1. **Candidate.** Every element keeps a representative game (a small sum of heaps). Games
//!    are told apart by their *signature*: the outcomes of the game plus each test game (the
//!    representatives, and every game a failed verification produced). Starting from the old
//!    representatives, the products "element × heap" are classified by signature, new
//!    signatures becoming new elements, until the products close. Outcomes come from the exact
//!    misère search ([`super::oracle`]), which answers sums of the smaller heaps at once through
//!    the old quotient.
//! 2. **Verification.** A candidate `(Q, P, Φ)` predicts every outcome correctly if the empty
//!    sum maps outside `P` and, for every sum `G` of heaps, `Φ(G) ∈ P` exactly when no option
//!    of `G` maps into `P` (induction on `G`). An option of `G` replaces one heap `H_i` by one of
//!    its options `O`, so it maps to `Φ(G − H_i)·Φ(O)`; whether some option of `G + Z` lies in
//!    `P` through a heap of `G` depends only on the set `U(G)` of the `z` with
//!    `Φ(G − H_i)·z·Φ(O) ∈ P` for some `i`, `O`. The pairs `(Φ(G), U(G))` form a finite automaton
//!    (adding a heap updates both), so a search over its states checks every sum at once;
//!    `super::dominance` cuts the states whose `U` contains the `U` of an earlier state
//!    with the same `Φ` (they cannot fail first) and checks the other kind of failure,
//!    predicted P with an option predicted P, element by element. The least failing sum
//!    found is a counterexample, whose prefixes, suffixes
//!    and options join the test games, and the candidate is rebuilt.
//!    **Repeated types.** The automaton depends only on the table, the P-portion and the set
//!    of heap *types* `(Φ(H), W_H)`, `W_H = {y : y·Φ(O) ∈ P for an option O of H}`. A new
//!    heap whose type (read in the old quotient: its options are old sums) is the type of an
//!    old heap leaves the automaton unchanged, so the old quotient with the new heap mapped
//!    to that image is proven at the cost of listing its options; `W_H` fixes the image.
//!    Periodic heap maps (Kayles from heap 71) make this the common case.
//!    Otherwise, before any search, the candidate of `super::extend` (the old class of the rest and
//!    the copies of the new heap) is put to the verification. When the new heap splits old
//!    elements it fails, and the trial is *recalibrated* as in MisereSolver
//!    ([`super::recal`]): the least failing sum (exponents compared highest heap first) is
//!    read off the verification automaton, its true outcome is the opposite of the trial's
//!    prediction (every smaller sum, so every option, is predicted right), and subsets of its
//!    heaps, smallest first, are freed as cyclic counters beside the trial, which is reduced
//!    again; the first that gets the failing sum right is the next trial (for a bounded number
//!    of rounds: nothing here relies on the trials converging). Then the hypothesis that the new heap acts like
//!    an element already there is tried, element by element; the signature search below is the
//!    last resort.
//! 3. **Reduction.** Elements of a verified candidate are told apart by real outcomes, and the
//!    monoid laws are checked on the table, so the candidate *is* the quotient of the heaps
//!    `1..=n`: this is proven, not observed.
//!
//! Every impartial misère quotient has even order (Plambeck–Siegel): each is checked, and an odd
//! order is reported as an internal error.
//!
//! The map from heap sizes to elements is eventually periodic for many games. A period seen in
//! the computed heaps is *proven* for every heap when the periodicity theorem applies (octal
//! and hexadecimal codes without constraints) and the heaps computed reach the bound it needs
//! (module `periodicity`); otherwise it is reported as *observed*.
//!
//! Cost: the automaton has at most `|Q|·2^|Q|` states and in practice a few thousand; each
//! heap adds `O(|Q|·k)` classifications of `|T|` outcomes each (`k` distinct heap images);
//! a heap of a repeated type costs `O(o·|Q|)` for its `o` options.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::heap::rules::HeapRule;
//! use grundy::misere::quotient::heap_quotient;
//! let rule = HeapRule::parse("0.75").unwrap();
//! let q = heap_quotient(&rule, 12, &Budget::default(), 1000).unwrap();
//! assert_eq!(q.quotient.order(), 8); // R8 of Plambeck–Siegel
//! assert_eq!(q.quotient.p_portion().len(), 2);
//! ```

use super::MisereError;
use super::generators::Generators;
pub use super::monoid::{Quotient, p_after_option};
use super::oracle::Oracle;
use crate::control::Budget;
use crate::heap::rules::HeapRule;
use rustc_hash::FxHashMap;

/// The quotient of the heaps `1..=max_heap` of a rule, with its heap map.
#[derive(Clone, Debug)]
pub struct HeapQuotient {
    /// The rule.
    pub rule: HeapRule,
    /// The generators (heaps with moves).
    pub generators: Generators,
    /// The quotient of their closure.
    pub quotient: Quotient,
    /// The element of each heap size `0..=max_heap` (heaps without moves map to the identity).
    pub heap_map: Vec<u32>,
    /// The order of the quotient of the heaps `1..=n`, for each `n` (index `n`, 0 first).
    pub orders: Vec<usize>,
}

/// The heap map seen periodic: `map(n + period) = map(n)` for `preperiod <= n` up to the
/// largest heap computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MapPeriod {
    /// The period.
    pub period: u64,
    /// The first heap size from which it holds.
    pub preperiod: u64,
}

impl HeapQuotient {
    /// The element of heap `size`, from the computed map, or through `period` for a heap
    /// beyond it.
    pub fn element_of_heap(&self, size: u64, period: Option<MapPeriod>) -> Option<u32> {
        if let Some(&x) = usize::try_from(size)
            .ok()
            .and_then(|s| self.heap_map.get(s))
        {
            return Some(x);
        }
        let p = period?;
        let last = self.heap_map.len() as u64 - 1;
        // Bring `size` down into the window [last - period + 1, last] by whole periods.
        let back = (size - last).div_ceil(p.period) * p.period;
        let s = size - back;
        (s >= p.preperiod).then(|| self.heap_map[s as usize])
    }

    /// The quotient of a closure of several rules' heaps (and Nim heaps), read for one of
    /// them: `generators` read heap sizes as `rule`'s ([`Generators::reading_heaps`]). Its
    /// `orders` hold the final order at every heap (the order was not followed heap by heap).
    pub fn reading(rule: &HeapRule, generators: Generators, quotient: Quotient) -> HeapQuotient {
        let orders = vec![quotient.order(); generators.len() + 1];
        assemble(rule, generators, quotient, &orders)
    }

    /// The element of the Nim heap `*m`: the identity for `*0`, `None` when the quotient was
    /// computed without it ([`heap_quotient_with_nim`]).
    pub fn element_of_nim(&self, m: u64) -> Option<u32> {
        if m == 0 {
            return Some(0);
        }
        let g = self.generators.of_nim(u32::try_from(m).ok()?)?;
        Some(self.quotient.image_of_generator(g))
    }

    /// The elements of the Nim heaps `*1..*m` among the generators (empty for a quotient
    /// computed without them), index `m − 1`.
    pub fn nim_map(&self) -> Vec<u32> {
        (1..).map_while(|m| self.element_of_nim(m)).collect()
    }

    /// A period of the heap map, if one shows: the smallest period `p` (and for it the
    /// smallest preperiod) such that the map repeats with period `p` from the preperiod to the
    /// last heap, seen over at least two whole periods and at least 8 heaps. Observed here;
    /// [`Self::reported_period`] says whether the periodicity theorem proves it.
    pub fn period(&self) -> Option<MapPeriod> {
        let m = &self.heap_map;
        let n = m.len();
        for p in 1..n / 2 {
            // The smallest e with m[k] == m[k + p] for all k >= e.
            let mut e = n - p;
            while e > 0 && m[e - 1] == m[e - 1 + p] {
                e -= 1;
            }
            let e = e.max(1);
            if n - e >= 2 * p && n - e >= 8 {
                return Some(MapPeriod {
                    period: p as u64,
                    preperiod: e as u64,
                });
            }
        }
        None
    }
}

/// The quotient of the heaps `1..=max_heap` of `rule`: proven for those heaps. Refused when it
/// would pass `max_elements` elements, or the budget.
pub fn heap_quotient(
    rule: &HeapRule,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
) -> Result<HeapQuotient, MisereError> {
    heap_quotient_reaching(rule, max_heap, budget, max_elements).map_err(|stop| stop.error)
}

/// Where a limit stopped [`heap_quotient_reaching`]: why, at which heap, and the quotient of
/// the heaps before that one (proven for them), when there is one.
#[derive(Debug)]
pub struct QuotientStop {
    /// Why the computation stopped.
    pub error: MisereError,
    /// The heap whose addition failed (`None`: listing the heaps' options failed).
    pub heap: Option<u64>,
    /// The quotient of the heaps `1..heap − 1`, proven for them (`None` when not even the
    /// first heap with a move was added).
    pub reached: Option<Box<HeapQuotient>>,
    /// What the work on the heap that failed showed: its trials' size and a certified lower
    /// bound on the order of the quotient with it.
    pub progress: Box<Progress>,
}

/// What the work on one heap showed before a limit stopped it.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// The most elements of a trial (the table of a trial has this number squared entries).
    pub largest_trial: usize,
    /// Sums pairwise told apart by their outcomes, read off the refuted trials
    /// (`super::bound`): the quotient with the new heap has at least this many elements.
    pub lower_bound: Option<super::bound::LowerBound>,
    /// How many trials the verification refuted (each one recalibrated).
    pub refuted: usize,
    /// The greatest least failing sum of the refuted trials, by generator name (heap sizes,
    /// ascending): the trial it refuted predicts every smaller sum right (exponents compared
    /// highest heap first, `super::dominance::cmp_words`), so the trials got that far.
    pub furthest_failure: Option<Vec<String>>,
    /// Whether the recalibration ended (no next trial got the furthest failure right), the
    /// work going on in the slower searches after it.
    pub recalibration_ended: bool,
    /// The same sum as generator indices (for the comparison).
    furthest: Option<Vec<u32>>,
}

impl Progress {
    /// The certified least order of the quotient with the heap that failed: the certificate's
    /// count, or the order of the quotient before it (its elements stay apart), if larger.
    pub fn at_least(&self, before: usize) -> usize {
        self.lower_bound
            .as_ref()
            .map_or(before, |b| b.elements().max(before))
    }
}

impl From<QuotientStop> for MisereError {
    fn from(stop: QuotientStop) -> Self {
        stop.error
    }
}

/// As [`heap_quotient`], but a computation stopped by a limit keeps what it proved: the
/// quotient of the heaps before the one that failed (a bounded answer where the full one is
/// out of reach, as for Dawson's chess past heap 29).
pub fn heap_quotient_reaching(
    rule: &HeapRule,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
) -> Result<HeapQuotient, QuotientStop> {
    heap_quotient_with_nim(rule, 0, max_heap, budget, max_elements)
}

/// As [`heap_quotient_reaching`], for the closure of the Nim heaps `*1..=*nim` and the heaps
/// `1..=max_heap` (the Nim heaps first, [`Generators::nim_then_heaps`]): the quotient that
/// decides sums of the rule's heaps with Nim heaps up to `*nim` beside them
/// ([`HeapQuotient::element_of_nim`]).
///
/// ```
/// use grundy::control::Budget;
/// use grundy::heap::rules::HeapRule;
/// use grundy::misere::quotient::heap_quotient_with_nim;
/// let rule = HeapRule::parse("0.75").unwrap();
/// let q = heap_quotient_with_nim(&rule, 3, 12, &Budget::default(), 1000).unwrap();
/// // A heap of one 0.75 token is *1: the same element.
/// assert_eq!(q.element_of_nim(1), Some(q.heap_map[1]));
/// ```
pub fn heap_quotient_with_nim(
    rule: &HeapRule,
    nim: u32,
    max_heap: u64,
    budget: &Budget,
    max_elements: usize,
) -> Result<HeapQuotient, QuotientStop> {
    let generators =
        Generators::nim_then_heaps(nim, rule, max_heap, budget).map_err(|error| QuotientStop {
            error,
            heap: None,
            reached: None,
            progress: Box::default(),
        })?;
    let mut orders = vec![1usize];
    // The last verified quotient (each is cheap to keep next to the work that built it).
    let mut last: Option<Quotient> = None;
    let mut progress = Progress::default();
    let result = compute_tracking(&generators, budget, max_elements, &mut progress, |_, q| {
        orders.push(q.order());
        last = Some(q.clone());
        Ok(())
    });
    match result {
        Ok(quotient) => Ok(assemble(rule, generators, quotient, &orders)),
        Err(error) => {
            let failed = orders.len() as u32 - 1;
            let heap = (1..=max_heap).find(|&s| generators.of_heap(s) == Some(failed));
            let reached = match (heap, last) {
                (Some(h), Some(q)) if h > 1 => Some(Box::new(assemble(
                    rule,
                    generators.up_to_heap(h - 1),
                    q,
                    &orders,
                ))),
                _ => None,
            };
            Err(QuotientStop {
                error,
                heap,
                reached,
                progress: Box::new(progress),
            })
        }
    }
}

/// The heap map and the order at each heap, for a quotient of `generators`' closure
/// (`orders[g + 1]`: the order after generator `g`).
fn assemble(
    rule: &HeapRule,
    generators: Generators,
    quotient: Quotient,
    orders: &[usize],
) -> HeapQuotient {
    let max_heap = generators.max_heap();
    // `orders` has an entry per generator; spread it over heap sizes.
    let mut by_heap = vec![1usize; max_heap as usize + 1];
    let mut last = 1;
    for (s, slot) in by_heap.iter_mut().enumerate().skip(1) {
        if let Some(g) = generators.of_heap(s as u64) {
            last = orders[g as usize + 1];
        }
        *slot = last;
    }
    let heap_map = (0..=max_heap)
        .map(|s| {
            generators
                .of_heap(s)
                .map_or(0, |g| quotient.image_of_generator(g))
        })
        .collect();
    HeapQuotient {
        rule: rule.clone(),
        generators,
        quotient,
        heap_map,
        orders: by_heap,
    }
}

/// The quotient of the closure of `gens`, built generator by generator; `each` sees every
/// intermediate quotient (after generator `i`), and may stop the computation with an error.
pub fn compute(
    gens: &Generators,
    budget: &Budget,
    max_elements: usize,
    each: impl FnMut(u32, &Quotient) -> Result<(), MisereError>,
) -> Result<Quotient, MisereError> {
    compute_tracking(gens, budget, max_elements, &mut Progress::default(), each)
}

/// As [`compute`], keeping in `progress` what the work on the generator being added showed
/// (reset for each generator): read it when the computation stops.
pub fn compute_tracking(
    gens: &Generators,
    budget: &Budget,
    max_elements: usize,
    progress: &mut Progress,
    mut each: impl FnMut(u32, &Quotient) -> Result<(), MisereError>,
) -> Result<Quotient, MisereError> {
    let mut oracle = Oracle::default();
    let mut q = Quotient::trivial();
    // The heap types of the last verified quotient (see `Step::same_automaton`).
    let mut types: Vec<HeapType> = Vec::new();
    for i in 0..gens.len() as u32 {
        *progress = Progress::default();
        (q, types) = Step {
            gens,
            budget,
            oracle: &mut oracle,
            old: &q,
            i,
            max_elements,
            old_types: &types,
            last_types: Vec::new(),
            progress,
        }
        .run()?;
        if q.order() % 2 != 0 {
            return Err(MisereError::Invariant(format!(
                "the quotient of the first {} generators has odd order {}, but every impartial misère quotient has even order (Plambeck–Siegel)",
                i + 1,
                q.order()
            )));
        }
        each(i, &q)?;
    }
    Ok(q)
}

/// The most recalibrations of one new generator's trial before the slow search.
const RECAL_ROUNDS: usize = 256;

/// How many times the element limit a trial may reach before it is given up (MisereSolver's
/// trials for Dawson's Kayles pass twice the answer's order).
const TRIAL_FACTOR: usize = 8;

/// Adding generator `i` to the verified quotient `old` of generators `0..i`.
struct Step<'a> {
    gens: &'a Generators,
    budget: &'a Budget,
    oracle: &'a mut Oracle,
    old: &'a Quotient,
    i: u32,
    max_elements: usize,
    /// The heap types of `old` (empty when unknown).
    old_types: &'a [HeapType],
    /// The heap types of the candidate last verified.
    last_types: Vec<HeapType>,
    /// The trials' size and the best lower bound read off them.
    progress: &'a mut Progress,
}

/// A heap's type in a candidate: its image and the set `W` of the `y` for which `y` times
/// the image of one of its options is in the P-portion (a bit set). The verification
/// automaton depends only on the set of types (and on the table and the P-portion).
type HeapType = (u32, Vec<u64>);

/// The type of generator `j` in `q`.
fn heap_type(gens: &Generators, q: &Quotient, j: u32) -> HeapType {
    (q.image_of_generator(j), p_after_option(q, gens.options(j)))
}

/// A candidate: elements with representatives and the action of each generator class.
struct Candidate {
    reps: Vec<Vec<u32>>,
    /// The class of each generator `0..=i`.
    gen_class: Vec<u32>,
    /// Distinct generator classes, with one generator of each.
    classes: Vec<(u32, u32)>,
    /// `act[e][d]`: element `e` times generator class `d`.
    act: Vec<Vec<u32>>,
}

fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(a.len() + b.len());
    v.extend_from_slice(a);
    v.extend_from_slice(b);
    v.sort_unstable();
    v
}

impl Step<'_> {
    fn is_p(&mut self, pos: &[u32]) -> Result<bool, MisereError> {
        let (old, i) = (self.old, self.i);
        let known = move |p: &[u32]| match p.last() {
            Some(&g) if g < i => Some(old.is_p(old.image(p))),
            _ => None,
        };
        self.oracle.is_p(self.gens, pos, &known, self.budget)
    }

    fn signature(&mut self, game: &[u32], tests: &[Vec<u32>]) -> Result<Vec<bool>, MisereError> {
        tests.iter().map(|t| self.is_p(&merge(game, t))).collect()
    }

    /// The verified quotient after generator `i`, and its heap types.
    fn run(mut self) -> Result<(Quotient, Vec<HeapType>), MisereError> {
        let q = self.run_inner()?;
        Ok((q, self.last_types))
    }

    /// The old quotient with the new generator as an old element, when that is proven
    /// without a search: the new generator's type `(h, W)` (its image and the set `W` of the
    /// `y` with `y·o` in the P-portion for the image `o` of one of its options, which are
    /// sums of old generators) is the type of an old generator. Then the verification
    /// automaton of the extended quotient has exactly the transitions of the one that proved
    /// `old`, so it passes as that one did; and the `W` fixes the image `h` (two elements
    /// with one `W` that both pass would predict the same outcomes for every sum, so they
    /// would be one element).
    fn same_automaton(&mut self) -> Result<Option<Quotient>, MisereError> {
        let old = self.old;
        if self.old_types.is_empty() {
            return Ok(None);
        }
        let n = old.order();
        let options = self.gens.options(self.i);
        self.budget.charge((options.len() * (n + 1)) as u64 + 1)?;
        let w = p_after_option(old, options);
        let Some(&(h, _)) = self.old_types.iter().find(|(_, w2)| *w2 == w) else {
            return Ok(None);
        };
        let mut images = old.generator_images().to_vec();
        images.push(h);
        self.last_types = self.old_types.to_vec();
        Ok(Some(old.with_generator_images(images)))
    }

    fn run_inner(&mut self) -> Result<Quotient, MisereError> {
        if let Some(q) = self.same_automaton()? {
            return Ok(q);
        }
        // The candidate built from the old quotient's structure: right unless the new heap
        // splits an old element.
        let start =
            super::extend::candidate(self.gens, self.old, self.i, self.budget, self.trial_limit())?;
        if let Some(q) = &start {
            if self.verify(&Self::bare_candidate(q), q)?.is_none() {
                return self.within_limit(start.expect("just matched"));
            }
        }
        // The new heap splits old elements: recalibrate trial by trial (MisereSolver's
        // recalibration), each trial verified.
        if let Some(q) = self.refine(start)? {
            return self.within_limit(q);
        }
        // First the cheap hypothesis: the new heap acts like an element already there. The
        // verification decides it without any search; the elements stay told apart.
        for x in 0..self.old.order() as u32 {
            let mut images = self.old.generator_images().to_vec();
            images.push(x);
            let q = self.old.with_generator_images(images);
            if self.verify(&Self::bare_candidate(&q), &q)?.is_none() {
                return Ok(q);
            }
        }
        let mut tests: Vec<Vec<u32>> = self.old.representatives().to_vec();
        let mut extra: Vec<Vec<u32>> = (0..=self.i).map(|j| vec![j]).collect();
        let mut reps: Vec<Vec<u32>> = self.old.representatives().to_vec();
        loop {
            self.budget.check()?;
            let c = self.candidate(&mut reps, &mut tests, &extra)?;
            let q = self.table(&c)?;
            match self.verify(&c, &q)? {
                None => return Ok(q),
                Some(witness) => {
                    let mut added = false;
                    let mut add = |v: &mut Vec<Vec<u32>>, g: Vec<u32>| {
                        if !v.contains(&g) {
                            v.push(g);
                            added = true;
                        }
                    };
                    let mut games = Vec::new();
                    for k in 1..=witness.len() {
                        let mut pre = witness[..k].to_vec();
                        pre.sort_unstable();
                        let mut suf = witness[k..].to_vec();
                        suf.sort_unstable();
                        games.push(pre);
                        games.push(suf);
                    }
                    let mut whole = witness.clone();
                    whole.sort_unstable();
                    games.extend(self.gens.position_options(&whole));
                    for g in games {
                        add(&mut tests, g.clone());
                        add(&mut extra, g);
                    }
                    if !added {
                        return Err(MisereError::Invariant(format!(
                            "the quotient candidate for {} generators could not be refined",
                            self.i + 1
                        )));
                    }
                }
            }
        }
    }

    /// A verified quotient, refused when it has more elements than allowed.
    fn within_limit(&self, q: Quotient) -> Result<Quotient, MisereError> {
        if q.order() > self.max_elements {
            return Err(MisereError::TooManyElements {
                limit: self.max_elements,
            });
        }
        Ok(q)
    }

    /// The most elements a trial may have on the way (trials can pass the answer's size).
    fn trial_limit(&self) -> usize {
        self.max_elements.saturating_mul(TRIAL_FACTOR)
    }

    /// Trials recalibrated one failing sum at a time ([`super::recal`]), from `start` (the
    /// structural candidate) or the old quotient times a fresh counter for the new
    /// generator; each trial verified. `None` when the rounds run out or a failure cannot be
    /// recalibrated.
    fn refine(&mut self, start: Option<Quotient>) -> Result<Option<Quotient>, MisereError> {
        use super::refine::{Freed, candidate};
        let mut trial = match start {
            Some(q) => q,
            None => {
                let fresh = [Freed {
                    generator: self.i,
                    index: 3,
                }];
                let built = candidate(
                    self.gens,
                    self.old,
                    self.i,
                    &fresh,
                    false,
                    self.budget,
                    self.trial_limit(),
                )?;
                match built {
                    Some((q, _)) => q,
                    None => return Ok(None),
                }
            }
        };
        for _ in 0..RECAL_ROUNDS {
            self.budget.check()?;
            // The least failing sum: its options are predicted right, so its outcome is the
            // opposite of the prediction (see `lex_least_failure`). None failing: the trial
            // goes to the full verification (monoid laws and the automaton again).
            let Some(v) = super::dominance::least_failure(self.gens, &trial, self.i, self.budget)?
            else {
                let passes = self
                    .verify(&Self::bare_candidate(&trial), &trial)?
                    .is_none();
                return Ok(passes.then_some(trial));
            };
            let v_is_p = !trial.is_p(trial.image(&v));
            self.learn(&trial, &v)?;
            match super::recal::recalibrate(
                self.gens,
                &trial,
                self.i,
                &v,
                v_is_p,
                self.budget,
                self.trial_limit(),
            )? {
                Some(next) => trial = next,
                None => {
                    // No subset of the failure's heaps, freed, gets it right (within the
                    // model limit): this route has ended (the slower searches below go on).
                    self.progress.recalibration_ended = true;
                    return Ok(None);
                }
            }
        }
        Ok(None)
    }

    /// Keeps the size of a refuted trial and the lower bound it certifies (all sums below
    /// its least failure `v` are predicted right, [`super::bound`]).
    fn learn(&mut self, trial: &Quotient, v: &[u32]) -> Result<(), MisereError> {
        let p = &mut *self.progress;
        p.refuted += 1;
        let mut word = v.to_vec();
        word.sort_unstable();
        if p.furthest
            .as_ref()
            .is_none_or(|f| super::dominance::cmp_words(&word, f) == std::cmp::Ordering::Greater)
        {
            p.furthest_failure = Some(
                word.iter()
                    .map(|&g| self.gens.name(g).to_string())
                    .collect(),
            );
            p.furthest = Some(word);
        }
        // Only a trial larger than every earlier one of this heap is read (the bound is a
        // figure for the refusal; reading every trial would cost the heaps that pass).
        if trial.order() <= p.largest_trial {
            return Ok(());
        }
        p.largest_trial = trial.order();
        // The certificate is built only when the cheap count passes the old order and the
        // best so far (the count is at most the certificate's).
        let known = p
            .lower_bound
            .as_ref()
            .map_or(self.old.order(), |b| b.elements().max(self.old.order()));
        let count = super::bound::estimate(trial, self.i, v, self.old.order(), self.budget)?;
        if count > known {
            if let Some(b) = super::bound::from_trial(trial, self.i, v, self.budget)? {
                if b.elements() > known {
                    p.lower_bound = Some(b);
                }
            }
        }
        Ok(())
    }

    /// The candidate view of a finished table (for [`Self::verify`]).
    fn bare_candidate(q: &Quotient) -> Candidate {
        let mut classes: Vec<(u32, u32)> = Vec::new();
        for (j, &c) in q.generator_images().iter().enumerate() {
            if !classes.iter().any(|&(d, _)| d == c) {
                classes.push((c, j as u32));
            }
        }
        Candidate {
            reps: q.representatives().to_vec(),
            gen_class: q.generator_images().to_vec(),
            classes,
            act: Vec::new(),
        }
    }

    /// Closes the representatives under the generators, classifying by signature.
    fn candidate(
        &mut self,
        reps: &mut Vec<Vec<u32>>,
        tests: &mut Vec<Vec<u32>>,
        extra: &[Vec<u32>],
    ) -> Result<Candidate, MisereError> {
        'round: loop {
            let mut sigs = Vec::with_capacity(reps.len());
            for r in reps.iter() {
                sigs.push(self.signature(r, tests)?);
            }
            let mut by_sig: FxHashMap<Vec<bool>, u32> = FxHashMap::default();
            for (e, s) in sigs.into_iter().enumerate() {
                if by_sig.insert(s, e as u32).is_some() {
                    return Err(MisereError::Invariant(
                        "two quotient elements have one signature".into(),
                    ));
                }
            }
            // Classifies a game, or adds it as a new element (and test) and restarts.
            macro_rules! classify {
                ($game:expr) => {{
                    let game: Vec<u32> = $game;
                    let s = self.signature(&game, tests)?;
                    match by_sig.get(&s) {
                        Some(&e) => e,
                        None => {
                            if reps.len() >= self.max_elements {
                                return Err(MisereError::TooManyElements {
                                    limit: self.max_elements,
                                });
                            }
                            self.budget.check_positions(reps.len() + 1)?;
                            reps.push(game.clone());
                            tests.push(game);
                            continue 'round;
                        }
                    }
                }};
            }
            for g in extra {
                classify!(g.clone());
            }
            let mut gen_class = Vec::with_capacity(self.i as usize + 1);
            for j in 0..=self.i {
                gen_class.push(classify!(vec![j]));
            }
            let mut classes: Vec<(u32, u32)> = Vec::new();
            for (j, &c) in gen_class.iter().enumerate() {
                if !classes.iter().any(|&(d, _)| d == c) {
                    classes.push((c, j as u32));
                }
            }
            let mut act = Vec::with_capacity(reps.len());
            for e in 0..reps.len() {
                let mut row = Vec::with_capacity(classes.len());
                for &(_, j) in &classes {
                    row.push(classify!(merge(&reps[e], &[j])));
                }
                act.push(row);
            }
            return Ok(Candidate {
                reps: reps.clone(),
                gen_class,
                classes,
                act,
            });
        }
    }

    /// The full table of a candidate (products through representatives' words) and its
    /// P-portion.
    fn table(&mut self, c: &Candidate) -> Result<Quotient, MisereError> {
        let n = c.reps.len();
        let class_index = |g: u32| {
            let cl = c.gen_class[g as usize];
            c.classes
                .iter()
                .position(|&(d, _)| d == cl)
                .expect("every class listed")
        };
        self.budget.charge((n * n) as u64)?;
        let mut table = vec![vec![0u32; n]; n];
        for (b, rep) in c.reps.iter().enumerate() {
            for (a, row) in table.iter_mut().enumerate() {
                row[b] = rep
                    .iter()
                    .fold(a as u32, |x, &g| c.act[x as usize][class_index(g)]);
            }
        }
        let mut p = Vec::with_capacity(n);
        for r in &c.reps {
            p.push(self.is_p(r)?);
        }
        Ok(Quotient::from_parts(
            table,
            p,
            c.reps.clone(),
            c.gen_class.clone(),
        ))
    }

    /// Checks the candidate on every sum of generators at once; returns a counterexample (a
    /// list of generators) if one fails.
    fn verify(&mut self, c: &Candidate, q: &Quotient) -> Result<Option<Vec<u32>>, MisereError> {
        let n = q.order();
        // Monoid laws and representatives: failures give counterexample sums.
        for e in 0..n as u32 {
            if q.image(&c.reps[e as usize]) != e {
                return Ok(Some(c.reps[e as usize].clone()));
            }
            for (d1, &(_, j1)) in c.classes.iter().enumerate() {
                for &(_, j2) in &c.classes[d1..] {
                    let x = q.mul(q.mul(e, q.image_of_generator(j1)), q.image_of_generator(j2));
                    let y = q.mul(q.mul(e, q.image_of_generator(j2)), q.image_of_generator(j1));
                    if x != y {
                        return Ok(Some(merge(&c.reps[e as usize], &[j1, j2])));
                    }
                }
            }
        }
        for a in 0..n as u32 {
            for b in 0..n as u32 {
                for &(_, j) in &c.classes {
                    let h = q.image_of_generator(j);
                    if q.mul(a, q.mul(b, h)) != q.mul(q.mul(a, b), h) {
                        return Ok(Some(merge(
                            &merge(&c.reps[a as usize], &c.reps[b as usize]),
                            &[j],
                        )));
                    }
                }
            }
        }
        if q.is_p(0) {
            return Ok(Some(Vec::new()));
        }
        // Heap types: (image, W) where W = {y : y·o ∈ P for an option image o}.
        let mut types: Vec<(u32, Vec<u64>, u32)> = Vec::new();
        for j in 0..=self.i {
            let (h, w) = heap_type(self.gens, q, j);
            if !types.iter().any(|(h2, w2, _)| *h2 == h && *w2 == w) {
                types.push((h, w, j));
            }
        }
        self.last_types = types.iter().map(|(h, w, _)| (*h, w.clone())).collect();
        // Every sum at once: the least failing sum, by the dominance-pruned search.
        super::dominance::least_failure(self.gens, q, self.i, self.budget)
    }
}
