//! Misère Grundy values by the definition, with small values read off a misère quotient and
//! options left unsearched where one look ahead proves them irrelevant.
//!
//! The misère Grundy value `γ(G)` is 1 when `G` has no move and otherwise the mex of its
//! options' values; `γ(G) = m` exactly when `G + *m` is a misère P-position (proof in
//! [`super::sequence`]). [`super::genus::GenusSolver`] finds the value of every option of
//! every position it meets. This search finds the mex with less:
//! - **Small values from a quotient** ([`super::low`]): for a sum the misère quotient of `*1`,
//!   `*2` and the heaps covers, `γ ∈ {0, 1, 2}` is read off at once, or `γ ≥ 3`.
//! - **Options certified, not searched.** Let `m` be the mex of the option values known so
//!   far. An option `G'` whose value is unknown can only change the mex if `γ(G') = m`. If
//!   some option `G''` of `G'` already has the known value `m`, then `G' + *m` has the
//!   P-option `G'' + *m`, so it is N and `γ(G') ≠ m`: `G'` need not be searched while the mex
//!   stays `m`. Only options not so certified are searched (first those whose normal-play
//!   value is `m`, a guess that orders the work and decides nothing); each value found may
//!   raise the mex, and the options are certified again against the new one. When every
//!   option left is certified, `γ(G) = m`.
//! - **`*1 + *1` is dropped.** For every game `X`, `X + *1 + *1` has the misère outcome of
//!   `X` (induction on `X`: if `X` is P, each option `X' + *1 + *1` is N by induction and
//!   `X + *1` is N through `X`, so `X + *1 + *1` is P; if `X` has a P-option `X'`, then
//!   `X' + *1 + *1` is P; if `X` has no move, `X + *1 + *1` moves to `X + *1`, whose only
//!   option `X` has no move, so `X + *1` is P). So `γ(G + *1 + *1) = γ(G)`, and the count of
//!   `*1` is kept mod 2. Heaps whose game tree *is* `*1` or `*2` (Kayles's heaps 1 and 2) are
//!   counted as such.
//!
//! Exact values known before (the labelled monoid of [`super::labels`]) answer the sums they
//! cover. Every value is the mex of values that are proven or certified, so every value
//! returned is proven. Cost: the sums searched, each listing its options once to open it and
//! once per certification (charged per option word, as the other misère searches); memory:
//! one value per sum searched and one fact per certificate; an explicit stack.
//!
//! An outcome search (nodes `G + *m` decided as soon as one option is P) was tried first and
//! reached fewer Kayles heaps under the same work (39 against 50 with the quotient's small
//! values alone): wrong guesses of `m` and of the winning option each cost a search.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::heap::rules::HeapRule;
//! use grundy::misere::gamma::GammaSearch;
//! use grundy::misere::low::LowValues;
//! let kayles = HeapRule::parse("kayles").unwrap();
//! let budget = Budget::default();
//! let low = LowValues::compute(&kayles, 12, &budget, 1000).unwrap();
//! let mut search = GammaSearch::new(&kayles, &budget).with_low(&low);
//! // Kayles heap 5 has genus 4^146: γ(K5) = 1, γ(K5 + *2) = 4, γ(K5 + *2 + *2) = 6.
//! assert_eq!(search.gamma(&[5], 0, 0).unwrap(), 1);
//! assert_eq!(search.gamma(&[5], 1, 0).unwrap(), 4);
//! assert_eq!(search.gamma(&[5], 2, 0).unwrap(), 6);
//! // *1 + *1 is dropped: the same value with two more *1.
//! assert_eq!(search.gamma(&[5], 1, 2).unwrap(), 4);
//! ```

use super::MisereError;
use super::genus::{Known, SEARCH_COST};
use super::low::{Low, LowValues};
use crate::control::Budget;
use crate::heap::options::{for_each_option, option_count_bound};
use crate::heap::rules::HeapRule;
use rustc_hash::{FxHashMap, FxHashSet};
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

/// A sum `heaps + twos·*2 + ones·*1` (heaps ascending, none empty).
type Sum = (Vec<u64>, u32, u32);

/// Heaps up to this size are checked for being `*1` or `*2` as game trees.
const NIM_CHECKED: u64 = 16;

/// Misère Grundy values of sums of a rule's heaps with `*1` and `*2`, by the search of this
/// module; memoised across calls.
pub struct GammaSearch<'a> {
    rule: &'a HeapRule,
    budget: Budget,
    low: Option<&'a LowValues>,
    known: Option<Known<'a, Vec<u64>>>,
    /// Normal-play values of heaps `0..values.len()`, to order the work.
    values: Vec<u64>,
    /// `Some(1)`, `Some(2)`: heap `i` is `*1`, `*2` as a game tree.
    nims: Vec<Option<u8>>,
    gammas: FxHashMap<Sum, u64>,
    /// Proven facts `γ(sum) ≠ m`.
    not: FxHashSet<(Sum, u64)>,
    heap_cache: RefCell<FxHashMap<u64, Rc<Vec<Vec<u64>>>>>,
}

impl fmt::Debug for GammaSearch<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GammaSearch")
            .field("rule", &self.rule.name())
            .field("values", &self.gammas.len())
            .field("certificates", &self.not.len())
            .field("low", &self.low.map(LowValues::order))
            .field("known", &self.known.is_some())
            .finish()
    }
}

/// A sum whose value is being found: the values of its options known so far, and the
/// options not yet known.
struct Frame {
    sum: Sum,
    values: Vec<u64>,
    unknown: Vec<Sum>,
}

/// What the top frame asks.
enum Step {
    /// Its value is decided.
    Value(u64),
    /// This option's value is needed.
    Search(Sum),
}

impl<'a> GammaSearch<'a> {
    /// A search counting its work against `budget`.
    pub fn new(rule: &'a HeapRule, budget: &Budget) -> Self {
        let mut nims: Vec<Option<u8>> = vec![None];
        for x in 1..=NIM_CHECKED {
            let mut opts: Vec<Vec<u64>> = Vec::new();
            for_each_option(rule, x, |o| opts.push(o.parts.clone()));
            opts.sort_unstable();
            opts.dedup();
            // Sorted: `[]` (leaving nothing) comes first.
            let kind = match opts.as_slice() {
                [e] if e.is_empty() => Some(1),
                [e, one]
                    if e.is_empty()
                        && matches!(one.as_slice(), [h] if nims[*h as usize] == Some(1)) =>
                {
                    Some(2)
                }
                _ => None,
            };
            nims.push(kind);
        }
        GammaSearch {
            rule,
            budget: budget.clone(),
            low: None,
            known: None,
            values: Vec::new(),
            nims,
            gammas: FxHashMap::default(),
            not: FxHashSet::default(),
            heap_cache: RefCell::default(),
        }
    }

    /// This search, reading small values off `low`.
    pub fn with_low(mut self, low: &'a LowValues) -> Self {
        self.low = Some(low);
        self
    }

    /// This search, answering from `known` the values it gives (`known(heaps, twos, ones)`,
    /// as [`super::genus::GenusSolver::with_known`]).
    pub fn with_known(mut self, known: Known<'a, Vec<u64>>) -> Self {
        self.known = Some(known);
        self
    }

    /// Learns the normal-play value of the next heap (`heap` must be the number of values
    /// known so far; otherwise nothing is learnt). Only the order of the work depends on it.
    pub fn learn_normal_value(&mut self, heap: u64, value: u64) {
        if heap == self.values.len() as u64 {
            self.values.push(value);
        }
    }

    /// How many values and certificates are stored.
    pub fn stored(&self) -> usize {
        self.gammas.len() + self.not.len()
    }

    /// The normal-play value of a sum, as far as the values go (a guess for ordering).
    fn estimate(&self, sum: &Sum) -> u64 {
        let (heaps, twos, ones) = sum;
        let mut x = 0;
        for &h in heaps {
            x ^= usize::try_from(h)
                .ok()
                .and_then(|i| self.values.get(i))
                .copied()
                .unwrap_or(0);
        }
        if twos % 2 == 1 {
            x ^= 2;
        }
        if ones % 2 == 1 {
            x ^= 1;
        }
        x
    }

    /// `γ(sum)` when known without search.
    fn known_value(&self, sum: &Sum) -> Option<u64> {
        if let Some(&v) = self.gammas.get(sum) {
            return Some(v);
        }
        if let Some(v) = self.known.as_ref().and_then(|k| k(&sum.0, sum.1, sum.2)) {
            return Some(v);
        }
        match self.low.and_then(|l| l.value(&sum.0, sum.1, sum.2)) {
            Some(Low::Value(j)) => Some(j),
            _ => None,
        }
    }

    /// The options of heap `h` (the heaps each leaves), cached.
    fn heap_options(&self, h: u64) -> Rc<Vec<Vec<u64>>> {
        if let Some(o) = self.heap_cache.borrow().get(&h) {
            return Rc::clone(o);
        }
        let mut opts = Vec::new();
        for_each_option(self.rule, h, |o| opts.push(o.parts));
        let opts = Rc::new(opts);
        self.heap_cache.borrow_mut().insert(h, Rc::clone(&opts));
        opts
    }

    /// Calls `f` on the options of `sum` (moves in `*2` and `*1`, then in the heaps),
    /// normalized, until it returns `true`; returns how many it saw.
    fn each_option(&self, sum: &Sum, mut f: impl FnMut(Sum) -> bool) -> u64 {
        let (heaps, twos, ones) = sum;
        let mut seen = 0;
        let mut nim = Vec::new();
        if *twos > 0 {
            nim.push((heaps.clone(), twos - 1, (ones + 1) % 2));
            nim.push((heaps.clone(), twos - 1, *ones));
        }
        if *ones > 0 {
            nim.push((heaps.clone(), *twos, ones - 1));
        }
        for o in nim {
            seen += 1;
            if f(o) {
                return seen;
            }
        }
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue;
            }
            for parts in self.heap_options(h).iter() {
                seen += 1;
                let rest = heaps[..i].iter().chain(&heaps[i + 1..]).chain(parts);
                if f(self.normalize_from(rest.copied(), *twos, *ones)) {
                    return seen;
                }
            }
        }
        seen
    }

    /// The options of `sum`, normalized.
    fn sum_options(&self, sum: &Sum) -> Vec<Sum> {
        let mut out = Vec::new();
        self.each_option(sum, |o| {
            out.push(o);
            false
        });
        out
    }

    /// A bound on the number of options of `sum` (before they are listed).
    fn option_bound(&self, sum: &Sum) -> u64 {
        let total = sum.0.iter().fold(0u128, |a, &h| {
            a.saturating_add(option_count_bound(self.rule, h))
        });
        u64::try_from(total).unwrap_or(u64::MAX).saturating_add(3)
    }

    fn list(&self, sum: &Sum) -> Result<Vec<Sum>, MisereError> {
        self.budget.afford(self.option_bound(sum))?;
        let moves = self.sum_options(sum);
        self.charge(moves.len() as u64, sum)?;
        Ok(moves)
    }

    /// Listing an option copies, sorts, hashes and looks up a sum: charged in proportion to
    /// its words, as the other misère searches.
    fn charge(&self, options: u64, sum: &Sum) -> Result<(), MisereError> {
        let units = (options + 1)
            .saturating_mul(sum.0.len() as u64 + 1)
            .saturating_mul(SEARCH_COST);
        self.budget.charge(units)?;
        Ok(())
    }

    /// Whether `γ(sum) ≠ m` is proven without searching `sum`: stored, or an option of `sum`
    /// has the known value `m` (then `sum + *m` has the P-option `option + *m`, so it is N).
    fn certified(&mut self, sum: &Sum, m: u64) -> Result<bool, MisereError> {
        let fact = (sum.clone(), m);
        if self.not.contains(&fact) {
            return Ok(true);
        }
        self.budget.afford(self.option_bound(sum))?;
        let mut found = false;
        let seen = self.each_option(sum, |o| {
            found = self.known_value(&o) == Some(m);
            found
        });
        self.charge(seen, sum)?;
        if found {
            self.budget.check_positions(self.stored() + 1)?;
            self.not.insert(fact);
        }
        Ok(found)
    }

    /// Opens `sum`: its value at once when every option's value is known (or it has no
    /// move), otherwise a frame.
    fn open(&mut self, sum: Sum) -> Result<Result<Frame, u64>, MisereError> {
        self.budget.check_positions(self.stored() + 1)?;
        let moves = self.list(&sum)?;
        if moves.is_empty() {
            return Ok(Err(1));
        }
        let mut values = Vec::new();
        let mut unknown = Vec::new();
        for o in moves {
            match self.known_value(&o) {
                Some(v) => values.push(v),
                None => unknown.push(o),
            }
        }
        unknown.sort_unstable();
        unknown.dedup();
        if unknown.is_empty() {
            return Ok(Err(mex(&values)));
        }
        Ok(Ok(Frame {
            sum,
            values,
            unknown,
        }))
    }

    /// One step of a frame: its value when decided, or the option to search.
    fn step(&mut self, frame: &mut Frame) -> Result<Step, MisereError> {
        'again: loop {
            let m = mex(&frame.values);
            // Values known by now are taken in; an option whose normal-play value is m is
            // searched before any certificate (it would likely raise the mex).
            let mut likely = None;
            let mut i = 0;
            while i < frame.unknown.len() {
                if let Some(v) = self.known_value(&frame.unknown[i]) {
                    frame.values.push(v);
                    frame.unknown.swap_remove(i);
                    if v == m {
                        continue 'again;
                    }
                    continue;
                }
                if likely.is_none() && self.estimate(&frame.unknown[i]) == m {
                    likely = Some(i);
                }
                i += 1;
            }
            if let Some(i) = likely {
                return Ok(Step::Search(frame.unknown[i].clone()));
            }
            for i in 0..frame.unknown.len() {
                if !self.certified(&frame.unknown[i], m)? {
                    return Ok(Step::Search(frame.unknown[i].clone()));
                }
            }
            // Every option left has a value other than m: the mex is m.
            return Ok(Step::Value(m));
        }
    }

    /// The misère Grundy value of `heaps + twos·*2 + ones·*1` (`heaps` in any order; empty
    /// heaps are ignored).
    pub fn gamma(&mut self, heaps: &[u64], twos: u32, ones: u32) -> Result<u64, MisereError> {
        let root = self.normalize_from(heaps.iter().copied(), twos, ones);
        if let Some(v) = self.known_value(&root) {
            return Ok(v);
        }
        let mut stack = match self.open(root.clone())? {
            Ok(frame) => vec![frame],
            Err(v) => {
                self.gammas.insert(root, v);
                return Ok(v);
            }
        };
        loop {
            let mut top = stack.pop().expect("the root stays until solved");
            match self.step(&mut top)? {
                Step::Value(v) => {
                    self.gammas.insert(top.sum, v);
                    if stack.is_empty() {
                        return Ok(v);
                    }
                }
                Step::Search(child) => {
                    stack.push(top);
                    match self.open(child.clone())? {
                        Ok(frame) => stack.push(frame),
                        Err(v) => {
                            self.gammas.insert(child, v);
                        }
                    }
                }
            }
        }
    }

    /// The sum in the form the memo uses: heaps ascending, none empty; heaps that are `*1`
    /// or `*2` as game trees counted with them; the count of `*1` mod 2.
    fn normalize_from(&self, heaps: impl Iterator<Item = u64>, twos: u32, ones: u32) -> Sum {
        let (mut twos, mut ones) = (twos, ones);
        let mut h = Vec::new();
        for x in heaps.filter(|&x| x > 0) {
            let kind = usize::try_from(x)
                .ok()
                .and_then(|i| self.nims.get(i).copied().flatten());
            match kind {
                Some(1) => ones = ones.saturating_add(1),
                Some(_) => twos = twos.saturating_add(1),
                None => h.push(x),
            }
        }
        h.sort_unstable();
        (h, twos, ones % 2)
    }
}

fn mex(values: &[u64]) -> u64 {
    crate::nimber::mex(values.iter().copied())
}
