//! Exact misère outcomes of sums of generators, from the definition.
//!
//! A position with no move is an N-position (the opponent made the last move); otherwise it is
//! N exactly when some option is P. The search is iterative (its depth is a stack on the heap)
//! and memoised on the sorted multiset; outcomes are facts about games, so the memo stays valid
//! for the whole computation. A `known` oracle (the verified quotient of the smaller heaps)
//! answers positions it covers without search.

use super::MisereError;
use super::generators::Generators;
use crate::control::Budget;
use rustc_hash::FxHashMap;

/// Memoised exact outcomes.
#[derive(Debug, Default)]
pub struct Oracle {
    memo: FxHashMap<Vec<u32>, bool>,
}

struct Frame {
    pos: Vec<u32>,
    options: Vec<Vec<u32>>,
    next: usize,
}

impl Oracle {
    /// Whether `pos` is a misère P-position. `known` answers the positions it can (returning
    /// `Some(is_p)`) without search.
    pub fn is_p(
        &mut self,
        gens: &Generators,
        pos: &[u32],
        known: &dyn Fn(&[u32]) -> Option<bool>,
        budget: &Budget,
    ) -> Result<bool, MisereError> {
        if let Some(v) = self.lookup(pos, known) {
            return Ok(v);
        }
        let mut stack = vec![self.open(gens, pos.to_vec(), budget)?];
        loop {
            let top = stack.last_mut().expect("the root stays until solved");
            let decided = if top.options.is_empty() {
                Some(false) // no move: N
            } else if top.next == top.options.len() {
                Some(true) // every option is N
            } else {
                let option = &top.options[top.next];
                match self.lookup(option, known) {
                    Some(true) => Some(false),
                    Some(false) => {
                        top.next += 1;
                        None
                    }
                    None => {
                        let child = option.clone();
                        let frame = self.open(gens, child, budget)?;
                        stack.push(frame);
                        None
                    }
                }
            };
            if let Some(is_p) = decided {
                let done = stack.pop().expect("non-empty");
                self.memo.insert(done.pos, is_p);
                if stack.is_empty() {
                    return Ok(is_p);
                }
            }
        }
    }

    fn lookup(&self, pos: &[u32], known: &dyn Fn(&[u32]) -> Option<bool>) -> Option<bool> {
        if pos.is_empty() {
            return Some(false);
        }
        known(pos).or_else(|| self.memo.get(pos).copied())
    }

    fn open(
        &mut self,
        gens: &Generators,
        pos: Vec<u32>,
        budget: &Budget,
    ) -> Result<Frame, MisereError> {
        budget.check_positions(self.memo.len() + 1)?;
        let options = gens.position_options(&pos);
        // Listing an option copies, sorts, hashes and stores a position: charged in
        // proportion to its length, at the rate measured for this search.
        let units = (options.len() as u64 + 1)
            .saturating_mul(pos.len() as u64 + 1)
            .saturating_mul(super::genus::SEARCH_COST);
        budget.charge(units)?;
        Ok(Frame {
            pos,
            options,
            next: 0,
        })
    }

    /// How many positions are stored.
    pub fn stored(&self) -> usize {
        self.memo.len()
    }
}
