use super::dense::{self, DenseTable};
use super::memory::{self, Holdings};
use super::{Budget, BudgetError, Limits, SolveError};
use crate::game::{ImpartialGame, SplitOptions};
use crate::nimber::Nimber;
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
/// options over all reachable components, times one table look-up per part (a hash and a
/// comparison of the game's position type). The values seen among a component's options
/// go into a bit set of `k + 1` bits for `k` options (a larger value cannot be the mex),
/// kept on one stack beside the option list, and the mex is the first zero bit: no
/// allocation per component.
///
/// Components with a dense index ([`ImpartialGame::dense_index`]) keep their values in an
/// array of 32-bit slots instead of the hash table: the look-up is one load at that index.
/// The array grows on demand within the memory limit and at most four slots per storable
/// position; indices beyond it, and components of the game without an index, stay in the
/// hash table. Either way the values, the work charged and the positions counted are the
/// same. Measured (`cargo bench -p grundy --bench core`, user time of one core): Kayles to
/// heap 8000 (3.2 · 10^7 options of two parts) at about 50 million options a second hashed
/// and 156 million with the heap as its index; Wythoff's game (options of one part each,
/// scanned without following their ranges) hashed at 119 million options a second while its
/// table fits the caches (x + y ≤ 600) and 20 million once it does not (x + y ≤ 1500, 1.1
/// million positions), indexed square by square at 356 million (x + y ≤ 600) and 260 to 290
/// million to x + y ≤ 3000 (4.5 million positions, 1.1 · 10^10 options, 38 s, 66 MiB).
#[derive(Debug)]
pub struct Solver<G: ImpartialGame> {
    game: G,
    /// The value once solved; [`ON_STACK`] while on the search stack (to detect cycles).
    memo: FxHashMap<G::Position, u64>,
    /// The values of components with a dense index in reach (the others are in `memo`).
    dense: DenseTable,
    budget: Budget,
    /// The bytes the table's keys own, and the search stack's.
    held: Holdings,
    /// The options of the positions on the search stack, one after another (kept between
    /// searches, so that listing allocates nothing once it has grown).
    list: SplitOptions<G::Position>,
    /// The values seen among the options of each position on the search stack, one bit set
    /// after another (kept between searches, like `list`).
    bits: Vec<u64>,
}

/// The mark of a component on the search stack in the table of values. No value reaches it:
/// a value is at most the number of options listed.
const ON_STACK: u64 = u64::MAX;

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
    /// Where its bit set of the values seen starts in the solver's `bits`.
    bits: usize,
    /// Its slot in the dense table, or `None` if its value goes to the hash table.
    slot: Option<usize>,
    /// Whether every option is one component.
    singles: bool,
}

/// Where the value of a component stands.
enum Lookup {
    Value(u64),
    OnStack,
    Unknown,
}

/// The value of component `c`, if solved: in the dense table if it has a slot with a value
/// or the mark of the stack, else in the hash table (where a component of the game without
/// an index, or with an index beyond the dense table, is kept).
#[inline]
fn lookup<G: ImpartialGame>(
    game: &G,
    memo: &FxHashMap<G::Position, u64>,
    dense: &DenseTable,
    c: &G::Position,
) -> Lookup {
    if let Some(i) = game.dense_index(c) {
        let slot = dense.get(i);
        if slot < dense::ON_STACK {
            return Lookup::Value(u64::from(slot));
        }
        if slot == dense::ON_STACK {
            return Lookup::OnStack;
        }
    }
    match memo.get(c) {
        Some(&ON_STACK) => Lookup::OnStack,
        Some(&v) => Lookup::Value(v),
        None => Lookup::Unknown,
    }
}

/// What [`scan`] found.
enum Scan<P> {
    /// Every option of the frame is valued.
    Done,
    /// This component of an option is not solved yet: open it.
    Open(P),
    /// This component of an option is on the search stack: the game has a cycle.
    Cycle,
}

/// Values the options of `frame` from `frame.next` on, marking each value in its bit set
/// (`bits` from `frame.bits` on), until one has a component not solved yet.
///
/// The hot loop of the engine: per component of an option, one look-up in the dense table
/// or the hash table.
fn scan<G: ImpartialGame>(
    game: &G,
    memo: &FxHashMap<G::Position, u64>,
    dense: &DenseTable,
    frame: &mut Frame<G::Position>,
    list: &SplitOptions<G::Position>,
    bits: &mut [u64],
) -> Scan<G::Position> {
    let bits = &mut bits[frame.bits..];
    // Values above the number of options cannot be the mex (and have no bit).
    let limit = (bits.len() as u64).saturating_mul(64);
    let parts = list.parts();
    let mut start = list.start_of(frame.next);
    if frame.singles {
        let stop = list.start_of(frame.end);
        // Every option left is one component (a game of one part, such as a Wythoff queen):
        // one look-up an option, with no ranges to follow.
        for c in &parts[start..stop] {
            let v = match lookup(game, memo, dense, c) {
                Lookup::Value(v) => v,
                Lookup::OnStack => return Scan::Cycle,
                Lookup::Unknown => return Scan::Open(c.clone()),
            };
            if v < limit {
                bits[(v / 64) as usize] |= 1 << (v % 64);
            }
            frame.next += 1;
        }
        return Scan::Done;
    }
    for &end in &list.ends()[frame.next..frame.end] {
        let mut sum = 0u64;
        for c in &parts[start..end] {
            match lookup(game, memo, dense, c) {
                Lookup::Value(v) => sum ^= v,
                Lookup::OnStack => return Scan::Cycle,
                Lookup::Unknown => return Scan::Open(c.clone()),
            }
        }
        if sum < limit {
            bits[(sum / 64) as usize] |= 1 << (sum % 64);
        }
        frame.next += 1;
        start = end;
    }
    Scan::Done
}

use crate::nimber::mex_of_bits as mex;

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
            dense: DenseTable::default(),
            budget: budget.clone(),
            held: Holdings::default(),
            list: SplitOptions::new(),
            bits: Vec::new(),
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
        self.memo.len().saturating_add(self.dense.filled())
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
        if let Lookup::Value(v) = lookup(&self.game, &self.memo, &self.dense, &root) {
            return Ok(Nimber(v));
        }
        let mut list = std::mem::take(&mut self.list);
        list.truncate(0);
        self.bits.clear();
        let solved = self.search(root, &mut list);
        // Kept for the next search unless a huge position left them large.
        if list.inline_bytes() <= KEPT_LIST_BYTES {
            self.list = list;
        }
        if self.bits.capacity() as u64 > KEPT_LIST_BYTES / 8 {
            self.bits = Vec::new();
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
            match scan(
                &self.game,
                &self.memo,
                &self.dense,
                top,
                list,
                &mut self.bits,
            ) {
                Scan::Done => {
                    let done = stack.pop().expect("non-empty");
                    let v = mex(&self.bits[done.bits..]);
                    self.bits.truncate(done.bits);
                    list.truncate(done.first);
                    self.held.stack = self.held.stack.saturating_sub(done.owned);
                    match done.slot {
                        // Fewer options than the mark of the stack: the value fits a slot.
                        Some(i) => self.dense.solve(i, v as u32),
                        None => {
                            if let Some(slot) = self.memo.get_mut(&done.position) {
                                *slot = v;
                            }
                        }
                    }
                    if stack.is_empty() {
                        self.held.stack = 0;
                        return Ok(Nimber(v));
                    }
                }
                Scan::Open(c) => match self.open(c, list) {
                    Ok(frame) => stack.push(frame),
                    Err(e) => return Err(self.abandon(stack, e)),
                },
                Scan::Cycle => return Err(self.abandon(stack, SolveError::Cycle)),
            }
        }
    }

    /// Starts solving a component: lists its options at the end of `list`, makes room for
    /// their values in the bit sets and marks it as on the stack.
    fn open(
        &mut self,
        position: G::Position,
        list: &mut SplitOptions<G::Position>,
    ) -> Result<Frame<G::Position>, SolveError> {
        // Each option takes at least one part, the end of its range in the list and a bit.
        let option_size = std::mem::size_of::<G::Position>() as u64 + 9;
        // Components in both tables count against the position limit.
        self.budget
            .check_positions(self.solved().saturating_add(1))?;
        // The dense table counts with the search stack among the bytes held.
        let stack = self
            .held
            .stack
            .saturating_add(self.inline_bytes(list))
            .saturating_add(self.dense.bytes());
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
        let mut slot = None;
        let admitted = memory::charge_listing(&self.budget, end - first, opening.words)
            .and_then(|()| {
                self.budget
                    .charge(self.game.listing_units((end - first) as u64))
            })
            .and_then(|()| {
                // The value of a position with k options is at most k: k + 1 bits hold
                // every value that can matter to its mex.
                let words = (end - first) / 64 + 1;
                self.bits
                    .try_reserve(words)
                    .map_err(|_| BudgetError::Memory {
                        needed: None,
                        limit: self.budget.limits().max_bytes,
                    })
            })
            .and_then(|()| {
                let stack = self
                    .held
                    .stack
                    .saturating_add(owned)
                    .saturating_add(self.inline_bytes(list));
                // A slot in the dense table if the component has an index in reach and
                // its value fits a slot (it is at most its number of options).
                slot = self
                    .game
                    .dense_index(&position)
                    .filter(|_| ((end - first) as u64) < u64::from(dense::ON_STACK))
                    .filter(|&i| {
                        let other =
                            memory::table_bytes(&self.memo, self.held.owned).saturating_add(stack);
                        self.dense.make_room(i, &self.budget, other)
                    })
                    .and_then(|i| usize::try_from(i).ok());
                let stack = stack.saturating_add(self.dense.bytes());
                match slot {
                    Some(_) => memory::check_held(&self.budget, &self.memo, self.held.owned, stack),
                    None => {
                        let table_owned = self.held.owned.saturating_add(opening.owned);
                        memory::check_held(&self.budget, &self.memo, table_owned, stack)
                            .and_then(|()| memory::reserve_one(&self.budget, &mut self.memo))
                    }
                }
            });
        if let Err(e) = admitted {
            list.truncate(first);
            return Err(SolveError::Budget(e));
        }
        let bits = self.bits.len();
        self.bits.resize(bits + (end - first) / 64 + 1, 0);
        self.held.stack = self.held.stack.saturating_add(owned);
        match slot {
            Some(i) => self.dense.open(i),
            None => {
                self.held.owned = self.held.owned.saturating_add(opening.owned);
                self.memo.insert(position.clone(), ON_STACK);
            }
        }
        // Options of one component each (one end after another) are scanned without
        // following the ends.
        let base = list.start_of(first);
        let singles = list.ends()[first..end]
            .iter()
            .enumerate()
            .all(|(k, &e)| e == base + k + 1);
        Ok(Frame {
            position,
            first,
            end,
            next: first,
            owned,
            bits,
            slot,
            singles,
        })
    }

    /// The bytes the option list and the bit sets hold inline.
    fn inline_bytes(&self, list: &SplitOptions<G::Position>) -> u64 {
        list.inline_bytes()
            .saturating_add((self.bits.capacity() as u64).saturating_mul(8))
    }

    /// Forgets the unfinished components of an abandoned search (a cycle, a limit), so the
    /// solver stays usable: they are not taken for positions on the stack later.
    fn abandon(&mut self, stack: Vec<Frame<G::Position>>, error: SolveError) -> SolveError {
        for f in stack {
            match f.slot {
                Some(i) => self.dense.forget(i),
                None => {
                    let owned = memory::block_bytes(self.game.position_words(&f.position));
                    self.held.owned = self.held.owned.saturating_sub(owned);
                    self.memo.remove(&f.position);
                }
            }
        }
        self.bits.clear();
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
