//! The genus sequence of a heap game: the genus of every heap size, and where the game stops
//! being tame.
//!
//! ## Through a quotient ([`genus_sequence_by_quotient`])
//! The misère Grundy value `γ(G)` is the unique `m` for which `G + *m` is a misère
//! P-position. (By induction: if `γ(G) = m`, no option `G' + *m` is P since no option of `G`
//! has value `m`, and no `G + *j`, `j < m`, is P; if `γ(G) < m`, moving `*m` to `*γ(G)` wins;
//! if `γ(G) > m`, some option `G'` has `γ(G') = m`, or `G` has no move and `G + *0` is N.)
//! Two routes read the exponent `gk` of heap `n`, `γ(n + k·*2)`, every step proven:
//! 1. **Labelled monoid** ([`genus_sequence_by_labels`], tried first): the monoid of the sums
//!    of `*1`, `*2` and the heaps whose elements carry their misère Grundy values
//!    ([`super::labels`]); `gk` is the label of `Φ(n)·Φ(*2)^k`. Coarser than any quotient
//!    holding Nim heaps, as only one Nim heap at a time is ever added to a sum.
//! 2. **Misère quotient with Nim heaps**: the quotient of the closure of `*1..*M` and the
//!    heaps (built by [`super::quotient::compute`]); `gk` is the one `m ≤ M` with
//!    `Φ(n)·Φ(*2)^k·Φ(*m)` in the P-portion. `M` starts at 7 and doubles (to at most 63)
//!    whenever no `m ≤ M` fits.
//!
//! Time and memory follow the monoid, not the number of positions: for 0.75 heaps to 200
//! take well under a second. Both routes stop where a heap splits the monoid beyond what
//! their candidates repair: for Kayles the labelled monoid has 24 elements to heap 19 and
//! then grows without settling (see [`super::labels`]), and the quotient with Nim heaps
//! passes a thousand elements near heap 20.
//!
//! ## Off the canonical forms ([`genus_sequence_by_forms`])
//! Misère-equal games have equal genera, so each exponent is read off the heap's misère
//! canonical form ([`super::canonical`]): `gk = γ(F_n + k·*2)`, from a table of the values of
//! every form of the arena plus copies of `*2` and `*1`, filled level by level in the order
//! of the ids ([`super::form_genus`]). The forms are far smaller than the sums of heaps a
//! search visits (Kayles heap 59: 43,989 forms, growing some 1.13 times a heap; 0.07 heap
//! 104: 68,536), and the table costs little beside them: the work is the forms'. When the
//! labelled monoid stops early, [`genus_sequence`] reads the genus off the forms with half of
//! the work, and then runs the quotient and the search below with what is left, keeping the
//! longer; where both reached, the two must agree (each is proven by its own route: a
//! difference is reported as [`MisereError::Invariant`]). Under the default work limit
//! (release build) Kayles reaches heap 68 (58 by the search), 0.07 heap 118 (61), 0.137 heap
//! 117 (67), in about 7.3 to 9.6 s of one core and 167 to 206 MiB (67, 117, 116 in 10.6 to
//! 13.3 s and 227 to 232 MiB before the forms' sums were visited once and memoised in rows,
//! [`super::canonical`]): a unit of the forms' work still takes longer than one of the
//! search. With ten times the work the forms stop at the position limit (their memo of
//! sums): Kayles heap 76 (70 by the search), 0.07 heap 130 (75), 0.137 heap 129, in 72 to
//! 76 s and 550 to 600 MB (110 to 118 s and 820 to 870 MB before).
//!
//! ## By a pruned search ([`genus_sequence_by_search`])
//! The search of [`super::gamma`]: the definition (each value the mex of its options'
//! values), with the values 0, 1, 2 of any sum read off the misère quotient of `*1`, `*2` and
//! the heaps ([`super::low`]; for Kayles the 40-element quotient of misère Kayles, to any
//! heap computed), every sum of the heaps the labelled monoid covers answered from it, and
//! options whose value cannot change the mex certified by one look ahead instead of searched.
//! Every value is proven. With seven eighths of the default work limit (release build)
//! Kayles reaches heap 58 (59 with the whole limit, 47 before this search, 38 from the
//! definition alone), 0.07 heap 61, 0.137 heap 67 (60); the work grows with the number of
//! sums a heap reaches, some 10 times for every 12 heaps of Kayles. It stays as the fallback
//! for games whose forms do not shrink, and as an independent check of the forms.
//!
//! ## From the definition ([`genus_sequence_by_definition`])
//! Each genus from the definition ([`super::genus`]), with the misère Grundy values of every
//! sum of smaller heaps met on the way memoised across heap sizes: the independent reference,
//! whose work grows with the number of positions a heap reaches (the partitions of its size
//! for splitting games).
//!
//! ## Tameness
//! A heap is *tame* as CGSuite defines it (`IsTame`): its misère canonical form
//! ([`super::canonical`]) is hereditarily tame, reversible options bypassed (misère Kayles
//! heaps 6 and 8 are tame though a position of their raw trees is wild). Where the genus was
//! read off the forms, the forms give the tameness too; otherwise the genus is computed with
//! seven eighths of the work, then the forms of those heaps (at most [`CANONICAL_HEAPS`])
//! with the rest. Past the forms the verdict falls back to the raw game
//! tree (the genus a Nim genus and every heap its options leave tame: Conway, sums of tame
//! games are tame), which is stricter (a heap tame there is tame in its canonical form too)
//! and is marked [`TameBasis::RawTree`]. Every run stops under the budget and keeps what it
//! has; a run cancelled keeps the raw tree's verdicts.

use super::MisereError;
use super::canonical::HeapForms;
use super::form_genus::forms_route;
use super::gamma::GammaSearch;
use super::generators::Generators;
use super::genus::{Genus, GenusSolver, MAX_EXPONENTS, unsettled};
pub use super::genus_report::{GenusEntry, GenusRoute, GenusSequence, TameBasis};
use super::labels::{Labelled, labelled_quotient};
use super::low::LowValues;
use super::quotient::{Quotient, compute};
use crate::control::{Budget, BudgetError, Limits};
use crate::heap::component::HeapGame;
use crate::heap::options::for_each_option;
use crate::heap::rules::HeapRule;
use crate::heap::sequence::{HeapValueError, heap_value_within};

/// The most elements of the quotient behind a genus sequence.
pub const GENUS_ELEMENTS: usize = 4096;
/// The most heaps the quotient route takes (the definition may go on past them).
pub const QUOTIENT_HEAPS: u64 = 512;
/// The largest Nim heap joined to the closure to read misère Grundy values.
pub const MAX_NIM: u32 = 63;
/// The most heaps whose misère canonical forms a genus sequence builds for their tameness.
pub const CANONICAL_HEAPS: u64 = 512;

/// Tameness read off the canonical forms where they were built; `first_wild` recomputed.
fn apply_forms(mut seq: GenusSequence, forms: &HeapForms) -> GenusSequence {
    for (e, &id) in seq.entries.iter_mut().zip(&forms.heaps) {
        e.tame = forms.forms.is_tame(id);
        e.tame_basis = TameBasis::CanonicalForm;
    }
    seq.first_wild = seq.entries.iter().find(|e| !e.tame).map(|e| e.heap);
    seq
}

/// `run` with seven eighths of the work, then the tameness of the heaps it computed read
/// off their canonical forms, built with what is left (at least an eighth). A run stopped
/// by its share of the work names the whole limit (the forms take the rest of it).
fn with_forms(
    rule: &HeapRule,
    budget: &Budget,
    run: impl FnOnce(&Budget) -> GenusSequence,
) -> GenusSequence {
    let limits = budget.limits();
    let share = budget.child(Limits {
        max_work: limits.max_work - limits.max_work / 8,
        ..limits
    });
    let mut seq = run(&share);
    name_whole_limit(&mut seq, &limits);
    tame_from_forms(rule, seq, budget, &limits)
}

/// The genus of heaps `0..=to` of `rule`: through the labelled monoid (a quarter of the
/// budget's work; if it reaches `to`, the tameness read off the canonical forms built with
/// the rest); else off the heaps' misère canonical forms ([`super::form_genus`], half of the
/// work); if they stop early, through the misère quotient with Nim heaps (an eighth) and by
/// the search of [`super::gamma`] with what is left, answering at once every sum of the heaps
/// the labelled monoid covers (its values are proven) and reading the values 0, 1, 2 off the
/// quotient of `*1`, `*2` and the heaps (built with a quarter); keeping the longest, checked
/// against the forms' genera where both reached, with the tameness of the forms' heaps read
/// off their forms.
pub fn genus_sequence(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let limits = budget.limits();
    let part = |d: u64| {
        budget.child(Limits {
            max_work: limits.max_work / d,
            ..limits
        })
    };
    let (labelled, seed) = labels_route(rule, to, &part(4));
    if labelled.stopped.is_none() || budget.is_cancelled() {
        return tame_from_forms(rule, labelled, budget, &limits);
    }
    let (mut formed, hf) = forms_route(rule, to, &part(2));
    // The entries hold the forms' tameness: the arena's memory is freed for the search.
    drop(hf);
    name_whole_limit(&mut formed, &limits);
    if formed.stopped.is_none() || budget.is_cancelled() {
        return formed;
    }
    let best = longer(labelled, with_nim_route(rule, to, &part(8)), budget);
    if budget.is_cancelled() {
        return longer(formed, best, budget);
    }
    let low = match LowValues::compute(rule, to.min(QUOTIENT_HEAPS), &part(4), GENUS_ELEMENTS) {
        Ok(low) => Some(low),
        Err(MisereError::Budget(BudgetError::Cancelled)) => return longer(formed, best, budget),
        Err(_) => None,
    };
    let searched = longer(
        search(rule, to, budget, seed.as_ref(), low.as_ref()),
        best,
        budget,
    );
    cross_checked(formed, searched, budget)
}

/// The longer of the sequence read off the forms and `other`, after checking that they
/// agree on every heap both reached (each proven by its own route: a difference is a bug,
/// reported as [`MisereError::Invariant`] with the heaps before it kept); the tameness of
/// every heap the forms reached read off them.
fn cross_checked(formed: GenusSequence, other: GenusSequence, budget: &Budget) -> GenusSequence {
    let differ = formed
        .entries
        .iter()
        .zip(&other.entries)
        .find(|(a, b)| a.genus != b.genus)
        .map(|(a, b)| {
            (
                a.heap,
                format!(
                    "heap {} has genus {} from its canonical form and {} by the route: {}",
                    a.heap,
                    a.genus,
                    b.genus,
                    other.route.explain(other.quotient_order)
                ),
            )
        });
    if let Some((heap, message)) = differ {
        let mut seq = formed;
        seq.entries.truncate(heap as usize);
        seq.stopped = Some(MisereError::Invariant(message));
        return seq;
    }
    if other.entries.len() <= formed.entries.len() {
        return longer(formed, other, budget);
    }
    let mut best = other;
    for (e, f) in best.entries.iter_mut().zip(&formed.entries) {
        e.tame = f.tame;
        e.tame_basis = f.tame_basis;
    }
    best.first_wild = best.entries.iter().find(|e| !e.tame).map(|e| e.heap);
    // Strictly longer: kept, marked cancelled if the work was.
    longer(best, formed, budget)
}

/// A run stopped by its share of the work names the whole limit (the other routes take the
/// rest of it).
fn name_whole_limit(seq: &mut GenusSequence, limits: &Limits) {
    if let Some(MisereError::Budget(BudgetError::Work { limit })) = &mut seq.stopped {
        *limit = limits.max_work;
    }
}

/// The tameness of `seq`'s heaps read off their canonical forms, built with what is left
/// of the budget (at most [`CANONICAL_HEAPS`] of them).
fn tame_from_forms(
    rule: &HeapRule,
    seq: GenusSequence,
    budget: &Budget,
    limits: &Limits,
) -> GenusSequence {
    let Some(last) = seq.entries.last().map(|e| e.heap) else {
        return seq;
    };
    let forms = HeapForms::compute(rule, last.min(CANONICAL_HEAPS), &budget.child(*limits));
    apply_forms(seq, &forms)
}

/// The genus of heaps `0..=to` of `rule` read off their misère canonical forms
/// ([`super::form_genus`]): every exponent the misère Grundy value of the heap's form plus
/// copies of `*2`, every tameness CGSuite's; as far as the budget allows.
pub fn genus_sequence_by_forms(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    forms_route(rule, to, budget).0
}

/// The genus of heaps `0..=to` of `rule` by the proof search of [`super::gamma`], with the
/// values `0`, `1`, `2` read off the misère quotient of `*1`, `*2` and the heaps
/// ([`super::low`], built with a quarter of the work, as far as it goes): every value proven.
pub fn genus_sequence_by_search(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    with_forms(rule, budget, |b| genus_sequence_by_search_raw(rule, to, b))
}

/// [`genus_sequence_by_search`] with the raw tree's tameness.
fn genus_sequence_by_search_raw(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let limits = budget.limits();
    let quarter = budget.child(Limits {
        max_work: limits.max_work / 4,
        ..limits
    });
    let low = LowValues::compute(rule, to.min(QUOTIENT_HEAPS), &quarter, GENUS_ELEMENTS).ok();
    search(rule, to, budget, None, low.as_ref())
}

/// The proof search, answering from `seed` and `low` what they cover.
fn search(
    rule: &HeapRule,
    to: u64,
    budget: &Budget,
    seed: Option<&Seed>,
    low: Option<&LowValues>,
) -> GenusSequence {
    let mut search = GammaSearch::new(rule, budget);
    if let Some(low) = low {
        search = search.with_low(low);
    }
    if let Some(seed) = seed {
        search = search.with_known(Box::new(move |p: &Vec<u64>, twos, ones| {
            seed.value(p, twos, ones)
        }));
    }
    let mut seq = GenusSequence {
        entries: Vec::new(),
        first_wild: None,
        stopped: None,
        quotient_order: None,
        route: GenusRoute::Search {
            low_order: low.map(LowValues::order),
            low_heaps: low.map_or(0, LowValues::covered),
            labelled_heaps: seed.map(|s| s.max_heap),
        },
    };
    for n in 0..=to {
        let value = match normal_value(rule, n, budget) {
            Ok(v) => v,
            Err(e) => {
                seq.stopped = Some(e);
                break;
            }
        };
        search.learn_normal_value(n, value);
        let mut exps = Vec::new();
        let genus = loop {
            if exps.len() == MAX_EXPONENTS {
                break Err(unsettled());
            }
            match search.gamma(&[n], exps.len() as u32, 0) {
                Ok(g) => exps.push(g),
                Err(e) => break Err(e),
            }
            if let Some(g) = Genus::settled(value, &exps) {
                break Ok(g);
            }
        };
        let pushed = genus.and_then(|genus| {
            let entry = tame_entry(rule, n, genus, &seq.entries);
            let wild = !entry.tame;
            seq.push(entry, budget)?;
            if wild && seq.first_wild.is_none() {
                seq.first_wild = Some(n);
            }
            Ok(())
        });
        if let Err(e) = pushed {
            seq.stopped = Some(e);
            break;
        }
    }
    seq
}

/// The one with more entries, the first on a tie; stopped by the cancellation if the work
/// was cancelled (whichever route it stopped).
fn longer(a: GenusSequence, b: GenusSequence, budget: &Budget) -> GenusSequence {
    let mut best = if b.entries.len() > a.entries.len() {
        b
    } else {
        a
    };
    if budget.is_cancelled() {
        best.stopped = Some(MisereError::Budget(BudgetError::Cancelled));
    }
    best
}

/// The genus of heaps `0..=to` of `rule`, through a quotient only: first the labelled
/// monoid of `*1`, `*2` and the heaps ([`genus_sequence_by_labels`], with a quarter of the
/// work); if it stops early, the misère quotient with more Nim heaps, keeping the longer.
pub fn genus_sequence_by_quotient(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    with_forms(rule, budget, |b| {
        genus_sequence_by_quotient_raw(rule, to, b)
    })
}

/// [`genus_sequence_by_quotient`] with the raw tree's tameness.
fn genus_sequence_by_quotient_raw(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let limits = budget.limits();
    let part = budget.child(Limits {
        max_work: limits.max_work / 4,
        ..limits
    });
    let labelled = genus_sequence_by_labels_raw(rule, to, &part);
    if labelled.stopped.is_none() || budget.is_cancelled() {
        return labelled;
    }
    longer(labelled, with_nim_route(rule, to, budget), budget)
}

/// The misère quotient of the heaps with Nim heaps `*1..*M`, `M` doubling from 7.
fn with_nim_route(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let mut nim = 7;
    loop {
        match attempt(rule, to, nim, budget) {
            Ok(seq) => return seq,
            Err(seq) if nim >= MAX_NIM => return *seq,
            Err(_) => nim = 2 * nim + 1,
        }
    }
}

/// The genus of heaps `0..=to` of `rule` through the labelled monoid of [`super::labels`]:
/// the monoid of `*1`, `*2` and the heaps `1..=to` (at most [`QUOTIENT_HEAPS`]) whose
/// elements carry their misère Grundy values, built heap by heap and proven for every sum;
/// each exponent `γ(n + k·*2)` is the label of `Φ(n)·Φ(*2)^k`. Stops (keeping every heap
/// read) where a heap splits the monoid beyond repair, or under the budget.
pub fn genus_sequence_by_labels(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    with_forms(rule, budget, |b| genus_sequence_by_labels_raw(rule, to, b))
}

/// [`genus_sequence_by_labels`] with the raw tree's tameness.
fn genus_sequence_by_labels_raw(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    labels_route(rule, to, budget).0
}

/// A proven labelled monoid and the heaps it covers (every heap up to `max_heap`).
struct Seed {
    gens: Generators,
    labelled: Labelled,
    max_heap: u64,
}

impl Seed {
    /// `γ(position + twos·*2 + ones·*1)`, when every heap is covered.
    fn value(&self, position: &[u64], twos: u32, ones: u32) -> Option<u64> {
        let q = &self.labelled.quotient;
        let image = |g: Option<u32>| g.map(|g| q.image_of_generator(g));
        let (one, two) = (image(self.gens.of_nim(1))?, image(self.gens.of_nim(2))?);
        let mut x = 0;
        for &h in position {
            if h > self.max_heap {
                return None;
            }
            if let Some(y) = image(self.gens.of_heap(h)) {
                x = q.mul(x, y);
            }
        }
        for _ in 0..twos {
            x = q.mul(x, two);
        }
        for _ in 0..ones {
            x = q.mul(x, one);
        }
        Some(u64::from(self.labelled.label(x)))
    }
}

/// [`genus_sequence_by_labels`], with the last proven monoid.
fn labels_route(rule: &HeapRule, to: u64, budget: &Budget) -> (GenusSequence, Option<Seed>) {
    let mut seq = GenusSequence {
        entries: Vec::new(),
        first_wild: None,
        stopped: None,
        quotient_order: None,
        route: GenusRoute::Labels,
    };
    let built = to.min(QUOTIENT_HEAPS);
    let gens = match Generators::nim_then_heaps(2, rule, built, budget) {
        Ok(g) => g,
        Err(e) => {
            seq.stopped = Some(e);
            return (seq, None);
        }
    };
    // Every intermediate monoid is proven for its heaps: the last one reached is kept.
    let mut last: Option<(u32, Labelled)> = None;
    let result = labelled_quotient(&gens, budget, GENUS_ELEMENTS, |g, l| {
        last = Some((g, l.clone()));
        Ok(())
    });
    if let Err(e) = result {
        seq.stopped = Some(e);
    } else if to > built {
        seq.stopped = Some(MisereError::HeapBound {
            max_heap: to,
            limit: built,
        });
    }
    // The monoid must hold *2 (generator 1) for the exponents.
    let Some((g, l)) = last.filter(|(g, _)| *g >= 1) else {
        return (seq, None);
    };
    let (q, labels) = (&l.quotient, &l.labels);
    seq.quotient_order = Some(q.order());
    let image = |g: Option<u32>| g.map_or(0, |g| q.image_of_generator(g));
    let two = image(gens.of_nim(2));
    loop {
        let n = seq.entries.len() as u64;
        // Past the heaps built there is no generator to read (not a heap without moves).
        if n > to || n > gens.max_heap() || gens.of_heap(n).is_some_and(|h| h > g) {
            break;
        }
        let value = match normal_value(rule, n, budget) {
            Ok(v) => v,
            Err(e) => {
                seq.stopped = Some(e);
                break;
            }
        };
        let mut y = image(gens.of_heap(n));
        let mut exps = Vec::new();
        let genus = loop {
            if exps.len() == MAX_EXPONENTS {
                break None;
            }
            exps.push(u64::from(labels[y as usize]));
            if let Some(g) = Genus::settled(value, &exps) {
                break Some(g);
            }
            y = q.mul(y, two);
        };
        let Some(genus) = genus else {
            seq.stopped = Some(unsettled());
            break;
        };
        let entry = tame_entry(rule, n, genus, &seq.entries);
        if !entry.tame && seq.first_wild.is_none() {
            seq.first_wild = Some(n);
        }
        seq.entries.push(entry);
    }
    let max_heap = (1..=built)
        .take_while(|&h| gens.of_heap(h).is_none_or(|x| x <= g))
        .last()
        .unwrap_or(0);
    let seed = Seed {
        gens,
        labelled: l,
        max_heap,
    };
    (seq, Some(seed))
}

/// The entry of heap `n` with its genus: tame when the genus is and every heap its options
/// leave is.
fn tame_entry(rule: &HeapRule, n: u64, genus: Genus, entries: &[GenusEntry]) -> GenusEntry {
    let mut tame = genus.tame().is_some();
    if tame && n > 0 {
        for_each_option(rule, n, |o| {
            tame &= o.parts.iter().all(|&p| entries[p as usize].tame);
        });
    }
    GenusEntry {
        heap: n,
        genus,
        tame,
        tame_basis: TameBasis::RawTree,
    }
}

/// One run with Nim heaps up to `*nim`; `Err` with the partial sequence when a misère Grundy
/// value passed `nim`.
fn attempt(
    rule: &HeapRule,
    to: u64,
    nim: u32,
    budget: &Budget,
) -> Result<GenusSequence, Box<GenusSequence>> {
    let mut seq = GenusSequence {
        entries: Vec::new(),
        first_wild: None,
        stopped: None,
        quotient_order: None,
        route: GenusRoute::NimQuotient,
    };
    // The heaps' options are listed before the quotient starts: at most QUOTIENT_HEAPS of
    // them, so that a huge `to` starts at once.
    let built = to.min(QUOTIENT_HEAPS);
    let gens = match Generators::nim_then_heaps(nim, rule, built, budget) {
        Ok(g) => g,
        Err(e) => {
            seq.stopped = Some(e);
            return Ok(seq);
        }
    };
    let mut too_big = false;
    let mut order = 0;
    let result = compute(&gens, budget, GENUS_ELEMENTS, |g, q| {
        order = q.order();
        if g + 1 < nim {
            return Ok(());
        }
        // Every heap whose generator has joined (or that has no move) can be read now.
        loop {
            let n = seq.entries.len() as u64;
            if n > to || n > gens.max_heap() || gens.of_heap(n).is_some_and(|h| h > g) {
                return Ok(());
            }
            let entry = read_entry(rule, &gens, q, n, nim, &seq.entries, budget)?;
            match entry {
                Some(e) => {
                    if !e.tame && seq.first_wild.is_none() {
                        seq.first_wild = Some(n);
                    }
                    seq.entries.push(e);
                }
                None => {
                    too_big = true;
                    return Err(MisereError::Unsupported(format!(
                        "a misère Grundy value of heap {n} is larger than {nim}"
                    )));
                }
            }
        }
    });
    seq.quotient_order = Some(order);
    if result.is_ok() && to > built {
        seq.stopped = Some(MisereError::HeapBound {
            max_heap: to,
            limit: built,
        });
    }
    if let Err(e) = result {
        if too_big {
            seq.stopped = Some(e);
            return Err(Box::new(seq));
        }
        seq.stopped = Some(e);
    }
    Ok(seq)
}

/// The genus of heap `n` read from the quotient `q`; `None` when a misère Grundy value is
/// larger than `nim`.
fn read_entry(
    rule: &HeapRule,
    gens: &Generators,
    q: &Quotient,
    n: u64,
    nim: u32,
    entries: &[GenusEntry],
    budget: &Budget,
) -> Result<Option<GenusEntry>, MisereError> {
    let image = |g: Option<u32>| g.map_or(0, |g| q.image_of_generator(g));
    let x = image(gens.of_heap(n));
    let two = image(gens.of_nim(2));
    let nims: Vec<u32> = (0..=nim).map(|m| image(gens.of_nim(m))).collect();
    let value = heap_value_within(rule, n, budget).map_err(|e| match e {
        HeapValueError::Budget(b) => MisereError::Budget(b),
        e => MisereError::Unsupported(format!("the normal value of heap {n}: {e}")),
    })?;
    let mut exps = Vec::new();
    let mut y = x;
    let genus = loop {
        if exps.len() == MAX_EXPONENTS {
            return Err(unsettled());
        }
        budget.charge(nims.len() as u64)?;
        let mut fits = (0..=nim as u64).filter(|&m| q.is_p(q.mul(y, nims[m as usize])));
        let Some(m) = fits.next() else {
            return Ok(None);
        };
        if let Some(other) = fits.next() {
            return Err(MisereError::Invariant(format!(
                "heap {n} plus {} copies of *2 would have two misère Grundy values, {m} and {other}",
                exps.len()
            )));
        }
        exps.push(m);
        if let Some(g) = Genus::settled(value, &exps) {
            break g;
        }
        y = q.mul(y, two);
    };
    Ok(Some(tame_entry(rule, n, genus, entries)))
}

/// The genus of heaps `0..=to` of `rule`, each from the definition (the slow reference).
pub fn genus_sequence_by_definition(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    with_forms(rule, budget, |b| {
        genus_sequence_by_definition_raw(rule, to, b)
    })
}

/// [`genus_sequence_by_definition`] with the raw tree's tameness.
fn genus_sequence_by_definition_raw(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    definition(rule, to, budget)
}

/// The definition alone.
fn definition(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let game = HeapGame::new(rule);
    let mut solver = GenusSolver::new(&game, budget);
    let mut entries: Vec<GenusEntry> = Vec::new();
    let mut first_wild = None;
    let mut stopped = None;
    for n in 0..=to {
        let pos = if n == 0 { vec![] } else { vec![n] };
        match solver.genus(&pos) {
            Ok(genus) => {
                let mut tame = genus.tame().is_some();
                if tame && n > 0 {
                    for_each_option(rule, n, |o| {
                        tame &= o.parts.iter().all(|&p| entries[p as usize].tame);
                    });
                }
                if !tame && first_wild.is_none() {
                    first_wild = Some(n);
                }
                entries.push(GenusEntry {
                    heap: n,
                    genus,
                    tame,
                    tame_basis: TameBasis::RawTree,
                });
            }
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    GenusSequence {
        entries,
        first_wild,
        stopped,
        quotient_order: None,
        route: GenusRoute::Definition,
    }
}

/// The normal-play value of heap `n`, its failure as a [`MisereError`].
fn normal_value(rule: &HeapRule, n: u64, budget: &Budget) -> Result<u64, MisereError> {
    heap_value_within(rule, n, budget).map_err(|e| match e {
        HeapValueError::Budget(b) => MisereError::Budget(b),
        e => MisereError::Unsupported(format!("the normal value of heap {n}: {e}")),
    })
}
