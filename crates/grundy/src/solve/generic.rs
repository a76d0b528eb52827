use super::{Budget, BudgetError, Limits, SolveError};
use crate::Nimber;
use crate::game::ImpartialGame;
use crate::nimber::MexSet;
use rustc_hash::FxHashMap;

/// The generic normal-play engine: Sprague–Grundy values by memoised search.
///
/// `value(p) = ⊕ value(c)` over the components `c` of `p`, and for a component
/// `value(c) = mex { value(o) : o an option of c }`. Values are stored per component, so
/// positions that share parts share work. The search keeps its own stack on the heap: depth
/// is bounded by memory, not by the thread's stack.
///
/// Cost: every stored component lists its options once, so the time is the total number of
/// options over all reachable components (times the cost of splitting and hashing).
#[derive(Debug)]
pub struct Solver<G: ImpartialGame> {
    game: G,
    /// `Some(v)` once solved; `None` while on the search stack (to detect cycles).
    memo: FxHashMap<G::Position, Option<Nimber>>,
    budget: Budget,
    /// The estimated bytes of `memo`.
    bytes: u64,
    /// The estimated bytes of the options listed on the search stack.
    stack_bytes: u64,
}

/// Bytes a hash table spends per entry beyond the entry (control bytes, free slots at the
/// load factor, the allocator's headers of what the position owns).
const TABLE_OVERHEAD: u64 = 24;

struct Frame<P> {
    position: P,
    options: Vec<P>,
    next: usize,
    /// The estimated bytes of `options`.
    bytes: u64,
    seen: MexSet,
}

impl<G: ImpartialGame> Solver<G> {
    /// A solver with the default [`Limits`].
    pub fn new(game: G) -> Self {
        Self::with_limits(game, Limits::DEFAULT)
    }

    /// A solver under a fresh budget with these limits.
    pub fn with_limits(game: G, limits: Limits) -> Self {
        Self::with_budget(game, &Budget::new(limits))
    }

    /// A solver that counts its work against `budget` (shared with its clones): one unit per
    /// option listed and per component opened, and at most `max_positions` stored components.
    pub fn with_budget(game: G, budget: &Budget) -> Self {
        Solver {
            game,
            memo: FxHashMap::default(),
            budget: budget.clone(),
            bytes: 0,
            stack_bytes: 0,
        }
    }

    /// Counts further work against `budget` instead: a solver kept between analyses keeps
    /// its values and works under each analysis's budget in turn.
    pub fn set_budget(&mut self, budget: &Budget) {
        self.budget = budget.clone();
    }

    /// The game being solved.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// How many components have been solved so far.
    pub fn solved(&self) -> usize {
        self.memo.len()
    }

    /// The Sprague–Grundy value of a position.
    pub fn value(&mut self, position: &G::Position) -> Result<Nimber, SolveError> {
        let mut total = Nimber::ZERO;
        for c in self.game.components(position) {
            total ^= self.component_value(c)?;
        }
        Ok(total)
    }

    /// The options of a position whose value is `target`, each with the index of the
    /// component it changed. With `target = 0` these are the winning moves.
    ///
    /// A move changes one component `c` of value `v` into an option `o`; the whole position
    /// then has value `total ⊕ v ⊕ value(o)`.
    pub fn moves_to_value(
        &mut self,
        position: &G::Position,
        target: Nimber,
    ) -> Result<Vec<(usize, G::Position)>, SolveError> {
        let components = self.game.components(position);
        let mut values = Vec::with_capacity(components.len());
        for c in &components {
            values.push(self.component_value(c.clone())?);
        }
        let total: Nimber = values.iter().sum();
        let mut found = Vec::new();
        for (i, c) in components.iter().enumerate() {
            let wanted = target ^ total ^ values[i];
            if let Some(bound) = self.game.option_bound(c) {
                self.budget.afford(bound)?;
            }
            for o in self.game.options(c) {
                if self.value(&o)? == wanted {
                    found.push((i, o));
                }
            }
        }
        Ok(found)
    }

    fn component_value(&mut self, root: G::Position) -> Result<Nimber, SolveError> {
        if let Some(Some(v)) = self.memo.get(&root) {
            return Ok(*v);
        }
        let mut stack = vec![self.open(root)?];
        loop {
            let top = stack
                .last_mut()
                .expect("the stack holds the root until it is solved");
            if top.next == top.options.len() {
                let done = stack.pop().expect("non-empty");
                self.stack_bytes = self.stack_bytes.saturating_sub(done.bytes);
                let v = Nimber(done.seen.mex());
                self.memo.insert(done.position, Some(v));
                if stack.is_empty() {
                    return Ok(v);
                }
                continue;
            }
            let option = &top.options[top.next];
            let mut sum = Nimber::ZERO;
            let mut unsolved = None;
            for c in self.game.components(option) {
                match self.memo.get(&c) {
                    Some(Some(v)) => sum ^= *v,
                    Some(None) => return Err(self.abandon(stack, SolveError::Cycle)),
                    None => {
                        unsolved = Some(c);
                        break;
                    }
                }
            }
            match unsolved {
                Some(c) => match self.open(c) {
                    Ok(frame) => stack.push(frame),
                    Err(e) => return Err(self.abandon(stack, e)),
                },
                None => {
                    top.seen.insert(sum.0);
                    top.next += 1;
                }
            }
        }
    }

    /// Starts solving a component: lists its options and marks it as on the stack.
    fn open(&mut self, position: G::Position) -> Result<Frame<G::Position>, SolveError> {
        self.budget.check_positions(self.memo.len() + 1)?;
        let bound = self.game.option_bound(&position);
        if let Some(bound) = bound {
            self.budget.afford(bound)?;
        }
        // Memory: the entry, what the position owns, and the hash table's overhead; and the
        // options listed on the search stack, each about the size of the position.
        let words = self.game.position_words(&position);
        let owned = words.saturating_mul(8);
        let entry = (std::mem::size_of::<(G::Position, Option<Nimber>)>() as u64)
            .saturating_add(owned)
            .saturating_add(TABLE_OVERHEAD);
        let option_size = (std::mem::size_of::<G::Position>() as u64).saturating_add(owned);
        let listing = bound.unwrap_or(0).saturating_mul(option_size);
        self.budget.check_bytes(
            self.bytes
                .saturating_add(entry)
                .saturating_add(self.stack_bytes)
                .saturating_add(listing),
            1,
        )?;
        self.bytes = self.bytes.saturating_add(entry);
        let options = self.game.options(&position);
        let frame_bytes = (options.len() as u64).saturating_mul(option_size);
        // Listing an option costs in proportion to the words it copies.
        let units = (options.len() as u64 + 1).saturating_mul(words.saturating_add(1));
        self.budget.charge(units)?;
        self.memo.try_reserve(1).map_err(|_| BudgetError::Memory {
            needed: None,
            limit: self.budget.limits().max_bytes,
        })?;
        self.memo.insert(position.clone(), None);
        self.stack_bytes = self.stack_bytes.saturating_add(frame_bytes);
        Ok(Frame {
            seen: MexSet::with_capacity(options.len()),
            position,
            options,
            next: 0,
            bytes: frame_bytes,
        })
    }

    /// Forgets the unfinished components of an abandoned search (a cycle, a limit), so the
    /// solver stays usable: they are not taken for positions on the stack later.
    fn abandon(&mut self, stack: Vec<Frame<G::Position>>, error: SolveError) -> SolveError {
        for f in stack {
            self.stack_bytes = self.stack_bytes.saturating_sub(f.bytes);
            self.memo.remove(&f.position);
        }
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Position n has the single option n - 1: a chain as deep as n.
    struct Chain;
    impl ImpartialGame for Chain {
        type Position = u32;
        fn options(&self, n: &u32) -> Vec<u32> {
            if *n == 0 { vec![] } else { vec![n - 1] }
        }
    }

    #[test]
    fn a_chain_of_ten_million_does_not_overflow_the_stack() {
        let mut s = Solver::new(Chain);
        assert_eq!(s.value(&10_000_000).unwrap(), Nimber(0));
        assert_eq!(s.value(&9_999_999).unwrap(), Nimber(1));
        assert_eq!(s.solved(), 10_000_001);
    }

    #[test]
    fn the_position_limit_is_an_error_not_a_crash() {
        let limits = Limits {
            max_positions: 100,
            ..Limits::DEFAULT
        };
        let mut s = Solver::with_limits(Chain, limits);
        assert_eq!(
            s.value(&1000),
            Err(SolveError::Budget(BudgetError::Positions { limit: 100 }))
        );
    }

    /// A two-cycle: 0 <-> 1.
    struct Loop;
    impl ImpartialGame for Loop {
        type Position = u8;
        fn options(&self, n: &u8) -> Vec<u8> {
            vec![1 - n]
        }
    }

    #[test]
    fn a_cycle_is_reported() {
        let mut s = Solver::new(Loop);
        assert_eq!(s.value(&0), Err(SolveError::Cycle));
        assert_eq!(s.value(&0), Err(SolveError::Cycle));
    }

    /// Nim heaps as a multiset, split into single heaps.
    struct Heaps;
    impl ImpartialGame for Heaps {
        type Position = Vec<u64>;
        fn options(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for (i, &h) in p.iter().enumerate() {
                for t in 0..h {
                    let mut q = p.clone();
                    q[i] = t;
                    out.push(q);
                }
            }
            out
        }
        fn components(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
            p.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
        }
    }

    #[test]
    fn sums_split_and_winning_moves_are_found() {
        let mut s = Solver::new(Heaps);
        assert_eq!(s.value(&vec![13, 12, 8]).unwrap(), Nimber(9));
        let wins = s.moves_to_value(&vec![13, 12, 8], Nimber(0)).unwrap();
        let heaps: Vec<_> = wins.iter().map(|(i, o)| (*i, o.clone())).collect();
        assert_eq!(heaps, vec![(0, vec![4]), (1, vec![5]), (2, vec![1])]);
    }
}
