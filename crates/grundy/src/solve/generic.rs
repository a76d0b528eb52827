use super::memory::{self, Holdings};
use super::{Budget, Limits, SolveError};
use crate::Nimber;
use crate::game::{ImpartialGame, SplitOptions};
use crate::nimber::MexSet;
use rustc_hash::FxHashMap;

/// The generic normal-play engine: Sprague–Grundy values by memoised search.
///
/// `value(p) = ⊕ value(c)` over the components `c` of `p`, and for a component
/// `value(c) = mex { value(o) : o an option of c }`. Values are stored per component, so
/// positions that share parts share work. The search keeps its own stack on the heap: depth
/// is bounded by memory, not by the thread's stack.
///
/// Cost: every stored component lists its options once (through
/// [`ImpartialGame::split_options`], into one list shared by the whole search stack, so
/// listing allocates nothing once the list has grown), so the time is the total number of
/// options over all reachable components, times the cost of hashing their parts: about
/// 10 to 30 nanoseconds an option for games whose parts own no memory.
#[derive(Debug)]
pub struct Solver<G: ImpartialGame> {
    game: G,
    /// `Some(v)` once solved; `None` while on the search stack (to detect cycles).
    memo: FxHashMap<G::Position, Option<Nimber>>,
    budget: Budget,
    /// The bytes the table's keys own, and the search stack's.
    held: Holdings,
    /// The options of the positions on the search stack, one after another (kept between
    /// searches, so that listing allocates nothing once it has grown).
    list: SplitOptions<G::Position>,
}

/// The most bytes of option list a solver keeps between searches.
const KEPT_LIST_BYTES: u64 = 64 << 20;

struct Frame<P> {
    position: P,
    /// Its options in the shared list: `first..end`; `next` is the first not yet valued.
    first: usize,
    end: usize,
    next: usize,
    /// The bytes its listed parts own outside the list.
    owned: u64,
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
            held: Holdings::default(),
            list: SplitOptions::new(),
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
        let mut list = std::mem::take(&mut self.list);
        list.truncate(0);
        let solved = self.search(root, &mut list);
        // Kept for the next search unless a huge position left it large.
        if list.inline_bytes() <= KEPT_LIST_BYTES {
            self.list = list;
        }
        solved
    }

    /// The search of `component_value`, with the list of options on its stack.
    fn search(
        &mut self,
        root: G::Position,
        list: &mut SplitOptions<G::Position>,
    ) -> Result<Nimber, SolveError> {
        let root = self.open(root, list)?;
        let mut stack = vec![root];
        loop {
            let top = stack
                .last_mut()
                .expect("the stack holds the root until it is solved");
            if top.next == top.end {
                let done = stack.pop().expect("non-empty");
                list.truncate(done.first);
                self.held.stack = self.held.stack.saturating_sub(done.owned);
                let v = Nimber(done.seen.mex());
                if let Some(slot) = self.memo.get_mut(&done.position) {
                    *slot = Some(v);
                }
                if stack.is_empty() {
                    self.held.stack = 0;
                    return Ok(v);
                }
                continue;
            }
            let mut sum = Nimber::ZERO;
            let mut unsolved = None;
            for c in list.option(top.next) {
                match self.memo.get(c) {
                    Some(Some(v)) => sum ^= *v,
                    Some(None) => return Err(self.abandon(stack, SolveError::Cycle)),
                    None => {
                        unsolved = Some(c.clone());
                        break;
                    }
                }
            }
            match unsolved {
                Some(c) => match self.open(c, list) {
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

    /// Starts solving a component: lists its options at the end of `list` and marks it as
    /// on the stack.
    fn open(
        &mut self,
        position: G::Position,
        list: &mut SplitOptions<G::Position>,
    ) -> Result<Frame<G::Position>, SolveError> {
        // Each option takes at least one part and the end of its range in the list.
        let option_size = std::mem::size_of::<G::Position>() as u64 + 8;
        let stack = self.held.stack.saturating_add(list.inline_bytes());
        let opening = memory::admit(
            &self.game,
            &self.budget,
            &self.memo,
            self.held.owned,
            stack,
            &position,
            option_size,
        )?;
        let first = list.option_count();
        let parts_before = list.part_count();
        self.game.split_options(&position, list);
        list.truncate(list.option_count()); // parts of an option left unclosed do not count
        let end = list.option_count();
        let owned: u64 = list
            .parts_from(parts_before)
            .iter()
            .map(|p| memory::block_bytes(self.game.position_words(p)))
            .fold(0, u64::saturating_add);
        let table_owned = self.held.owned.saturating_add(opening.owned);
        let stack = self
            .held
            .stack
            .saturating_add(owned)
            .saturating_add(list.inline_bytes());
        let admitted = memory::charge_listing(&self.budget, end - first, opening.words)
            .and_then(|()| memory::check_held(&self.budget, &self.memo, table_owned, stack))
            .and_then(|()| memory::reserve_one(&self.budget, &mut self.memo));
        if let Err(e) = admitted {
            list.truncate(first);
            return Err(SolveError::Budget(e));
        }
        self.held.owned = table_owned;
        self.held.stack = self.held.stack.saturating_add(owned);
        self.memo.insert(position.clone(), None);
        Ok(Frame {
            seen: MexSet::with_capacity(end - first),
            position,
            first,
            end,
            next: first,
            owned,
        })
    }

    /// Forgets the unfinished components of an abandoned search (a cycle, a limit), so the
    /// solver stays usable: they are not taken for positions on the stack later.
    fn abandon(&mut self, stack: Vec<Frame<G::Position>>, error: SolveError) -> SolveError {
        for f in stack {
            let owned = memory::block_bytes(self.game.position_words(&f.position));
            self.held.owned = self.held.owned.saturating_sub(owned);
            self.memo.remove(&f.position);
        }
        self.held.stack = 0;
        error
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::BudgetError;

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

    /// Subtraction game S(1, 3, 4) from the definition, with no memo: the slow reference.
    fn slow_subtraction(n: u32) -> u64 {
        let options: Vec<u64> = [1, 3, 4]
            .iter()
            .filter(|&&k| k <= n)
            .map(|&k| slow_subtraction(n - k))
            .collect();
        (0..).find(|v| !options.contains(v)).unwrap()
    }

    /// Subtraction game S(1, 3, 4) as sums: a position is a list of heaps.
    struct Subtraction;
    impl ImpartialGame for Subtraction {
        type Position = Vec<u32>;
        fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
            let mut out = Vec::new();
            for (i, &h) in p.iter().enumerate() {
                for k in [1, 3, 4] {
                    if k <= h {
                        let mut q = p.clone();
                        q[i] = h - k;
                        out.push(q);
                    }
                }
            }
            out
        }
        fn components(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
            p.iter().filter(|&&h| h > 0).map(|&h| vec![h]).collect()
        }
    }

    #[test]
    fn deep_searches_match_the_definition() {
        // Each root is solved from scratch, so the search goes deep with many frames whose
        // options share the one list.
        for n in [0u32, 1, 7, 18, 25] {
            let mut s = Solver::new(Subtraction);
            assert_eq!(
                s.value(&vec![n]).unwrap(),
                Nimber(slow_subtraction(n)),
                "{n}"
            );
        }
        let mut s = Solver::new(Subtraction);
        let sum = vec![9, 14, 22];
        let expected = slow_subtraction(9) ^ slow_subtraction(14) ^ slow_subtraction(22);
        assert_eq!(s.value(&sum).unwrap(), Nimber(expected));
    }

    #[test]
    fn the_memory_limit_is_an_error_naming_the_limit() {
        let limits = Limits {
            max_bytes: 1 << 16,
            ..Limits::DEFAULT
        };
        let mut s = Solver::with_limits(Chain, limits);
        assert!(matches!(
            s.value(&100_000),
            Err(SolveError::Budget(BudgetError::Memory { limit: 65536, .. }))
        ));
        // The solver stays usable after the refusal.
        assert_eq!(s.value(&10).unwrap(), Nimber(0));
    }
}
