//! Moore's partition refinement, shared by the quotient candidates.
//!
//! Given a deterministic automaton (states `0..n`, letters `0..L`, a successor function) and
//! an initial partition of its states (by outcome, or by misère Grundy value), the coarsest
//! partition finer than the initial one and stable under every letter: two states end in
//! one block exactly when no word of letters tells them apart. For the commutative automata
//! of misère quotient candidates that partition is a congruence, and its blocks are the
//! candidate's elements (E. F. Moore, *Gedanken-experiments on sequential machines*, 1956).
//!
//! Cost: at most `n` rounds of `O(n·L)` each (in practice a handful), each round hashing the
//! key `(block, blocks of the successors)` of every state.

use super::MisereError;
use crate::control::Budget;
use rustc_hash::FxHashMap;

/// The block of each state and the number of blocks, from the initial blocks `initial` (any
/// numbers: states with equal numbers start together) and `succ(state, letter)`.
pub(super) fn refine_partition(
    initial: Vec<u32>,
    letters: usize,
    succ: impl Fn(usize, usize) -> usize,
    budget: &Budget,
) -> Result<(Vec<u32>, usize), MisereError> {
    let states = initial.len();
    let mut block = initial;
    let mut count = 0;
    loop {
        budget.charge((states * (letters + 1)) as u64 + 1)?;
        let mut keys: FxHashMap<Vec<u32>, u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(states);
        for s in 0..states {
            let mut key = Vec::with_capacity(letters + 1);
            key.push(block[s]);
            key.extend((0..letters).map(|l| block[succ(s, l)]));
            let fresh = keys.len() as u32;
            next.push(*keys.entry(key).or_insert(fresh));
        }
        let c = keys.len();
        block = next;
        if c == count {
            return Ok((block, count));
        }
        count = c;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_mod_six_seen_through_parity_and_mod_three() {
        // States 0..6 counting mod 6, one letter adding 1. Starting from "is 0 mod 3", the
        // letter separates the three residues mod 3 and no more.
        let initial = (0..6).map(|s| u32::from(s % 3 == 0)).collect();
        let (block, count) =
            refine_partition(initial, 1, |s, _| (s + 1) % 6, &Budget::default()).unwrap();
        assert_eq!(count, 3);
        for s in 0..6 {
            assert_eq!(block[s], block[(s + 3) % 6]);
            assert_ne!(block[s], block[(s + 1) % 6]);
        }
    }
}
