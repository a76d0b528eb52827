//! Generator games: a finite list of games closed under options, whose sums a quotient
//! describes.
//!
//! Generator `i` is one game (a heap of some size, or a Nim heap); each of its options is a
//! sum of generators of smaller index, written as a sorted list of indices. A position of the
//! closure is a sorted list of generator indices (a multiset). Games with no option (a heap of
//! size 0, a heap of 1 in a game that cannot take it) are the zero game and never appear in a
//! position.

use super::MisereError;
use crate::control::Budget;
use crate::heap::options::{for_each_option, option_count_bound};
use crate::heap::rules::HeapRule;

/// The generator of each heap size of one rule (`None` for a heap with no move), index =
/// size.
pub type HeapIndex = Vec<Option<u32>>;

/// The generators of a closure: names and options.
#[derive(Clone, Debug)]
pub struct Generators {
    names: Vec<String>,
    options: Vec<Vec<Vec<u32>>>,
    /// For heap systems: the generator of each heap size (`None` for a zero heap), index = size.
    heap_index: Vec<Option<u32>>,
}

impl Generators {
    /// The heaps `1..=max_heap` of a heap rule (heaps without moves left out, as zero).
    pub fn heaps(rule: &HeapRule, max_heap: u64, budget: &Budget) -> Result<Self, MisereError> {
        Self::nim_then_heaps(0, rule, max_heap, budget)
    }

    /// The Nim heaps `*1..=*nim` (generators `0..nim`), then the heaps `1..=max_heap` of a
    /// heap rule: the closure in which the genus of a heap is read (`G + k·*2 + *m`).
    pub fn nim_then_heaps(
        nim: u32,
        rule: &HeapRule,
        max_heap: u64,
        budget: &Budget,
    ) -> Result<Self, MisereError> {
        let mut g = Generators::nim(nim);
        g.heap_index = g.push_heaps(rule, max_heap, budget, None)?;
        Ok(g)
    }

    /// The Nim heaps `*1..=*nim`, then for each rule in turn its heaps `1..=max_heap`: the
    /// closure of a sum that mixes the heaps of several rules and Nim heaps. Heap sizes read
    /// as the first rule's; the second result is each rule's heap index, for
    /// [`Self::reading_heaps`]. Heaps of the later rules are named `rule:size`.
    pub fn nim_then_rules(
        nim: u32,
        rules: &[(&HeapRule, u64)],
        budget: &Budget,
    ) -> Result<(Self, Vec<HeapIndex>), MisereError> {
        let mut g = Generators::nim(nim);
        let mut indexes = Vec::with_capacity(rules.len());
        for (i, &(rule, max_heap)) in rules.iter().enumerate() {
            let prefix = (i > 0).then(|| rule.to_string());
            indexes.push(g.push_heaps(rule, max_heap, budget, prefix.as_deref())?);
        }
        g.heap_index = indexes.first().cloned().unwrap_or_else(|| vec![None]);
        Ok((g, indexes))
    }

    /// The same generators with heap sizes read through `heap_index` (one rule's index from
    /// [`Self::nim_then_rules`]).
    pub fn reading_heaps(&self, heap_index: &[Option<u32>]) -> Generators {
        Generators {
            names: self.names.clone(),
            options: self.options.clone(),
            heap_index: heap_index.to_vec(),
        }
    }

    /// Appends the heaps `1..=max_heap` of `rule` (named by size, after `prefix:` if given)
    /// and returns their heap index (`None` for heaps without moves).
    fn push_heaps(
        &mut self,
        rule: &HeapRule,
        max_heap: u64,
        budget: &Budget,
        prefix: Option<&str>,
    ) -> Result<HeapIndex, MisereError> {
        let mut index: HeapIndex = vec![None];
        for s in 1..=max_heap {
            // Each option is built twice (the heaps left, then their generators) and sorted:
            // two option words at the misère searches' rate.
            let per_option = 2 * super::genus::SEARCH_COST;
            let bound = option_count_bound(rule, s);
            budget.afford(
                u64::try_from(bound)
                    .unwrap_or(u64::MAX)
                    .saturating_mul(per_option),
            )?;
            let mut opts: Vec<Vec<u32>> = Vec::new();
            for_each_option(rule, s, |o| {
                let mut p: Vec<u32> = o.parts.iter().filter_map(|&h| index[h as usize]).collect();
                p.sort_unstable();
                opts.push(p);
            });
            budget.charge((opts.len() as u64 + 1).saturating_mul(per_option))?;
            opts.sort_unstable();
            opts.dedup();
            if opts.is_empty() {
                index.push(None);
            } else {
                index.push(Some(self.names.len() as u32));
                self.names.push(match prefix {
                    Some(r) => format!("{r}:{s}"),
                    None => s.to_string(),
                });
                self.options.push(opts);
            }
        }
        Ok(index)
    }

    /// Nim heaps `*1..=*max` (for the genus, and for tests: misère Nim).
    pub fn nim(max: u32) -> Self {
        let mut g = Generators {
            names: Vec::new(),
            options: Vec::new(),
            heap_index: vec![None],
        };
        for m in 1..=max {
            let mut opts: Vec<Vec<u32>> = vec![vec![]];
            opts.extend((0..m - 1).map(|i| vec![i]));
            g.heap_index.push(Some(m - 1));
            g.names.push(format!("*{m}"));
            g.options.push(opts);
        }
        g
    }

    /// How many generators.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is none (every heap is zero).
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of generator `i` (a heap size, or `*m`).
    pub fn name(&self, i: u32) -> &str {
        &self.names[i as usize]
    }

    /// The options of generator `i`.
    pub fn options(&self, i: u32) -> &[Vec<u32>] {
        &self.options[i as usize]
    }

    /// The generator of a heap size (`None` for a heap with no move, or beyond the bound).
    pub fn of_heap(&self, size: u64) -> Option<u32> {
        usize::try_from(size)
            .ok()
            .and_then(|s| self.heap_index.get(s).copied().flatten())
    }

    /// The generators of the heaps up to `max_heap` (and the Nim heaps before them): a
    /// prefix, as heaps are added in order.
    pub fn up_to_heap(&self, max_heap: u64) -> Generators {
        let cut = usize::try_from(max_heap)
            .map_or(self.heap_index.len(), |m| m.saturating_add(1))
            .min(self.heap_index.len());
        let keep = self.heap_index[cut..]
            .iter()
            .flatten()
            .min()
            .map_or(self.names.len(), |&g| g as usize);
        Generators {
            names: self.names[..keep].to_vec(),
            options: self.options[..keep].to_vec(),
            heap_index: self.heap_index[..cut].to_vec(),
        }
    }

    /// The generator of the Nim heap `*m` (`None` for `*0`, or beyond those included), when
    /// the generators start with Nim heaps ([`Self::nim`], [`Self::nim_then_heaps`]).
    pub fn of_nim(&self, m: u32) -> Option<u32> {
        let name = format!("*{m}");
        (m >= 1 && self.names.get(m as usize - 1) == Some(&name)).then(|| m - 1)
    }

    /// The largest heap size these generators cover.
    pub fn max_heap(&self) -> u64 {
        self.heap_index.len() as u64 - 1
    }

    /// The options of a position (sorted multisets), one per move.
    pub fn position_options(&self, pos: &[u32]) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue;
            }
            for o in self.options(pos[i]) {
                let mut q: Vec<u32> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
                q.extend_from_slice(o);
                q.sort_unstable();
                out.push(q);
            }
        }
        out
    }

    /// The options of `pos + k·g` (`k ≥ 1` copies of generator `g` beside `pos`), each with
    /// its count of copies left: a move in `pos` keeps all `k`, a move in one copy leaves
    /// `k − 1` copies and adds that copy's option to the position.
    pub fn options_with_copies(&self, pos: &[u32], g: u32, k: u32) -> Vec<(Vec<u32>, u32)> {
        let mut out: Vec<(Vec<u32>, u32)> = self
            .position_options(pos)
            .into_iter()
            .map(|o| (o, k))
            .collect();
        for o in self.options(g) {
            let mut q = pos.to_vec();
            q.extend_from_slice(o);
            q.sort_unstable();
            out.push((q, k - 1));
        }
        out
    }
}
