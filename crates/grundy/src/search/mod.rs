//! Single-position nimber search: the value of one big position of a board or graph game.
//!
//! Heap games have sequences; a Cram board, a graph for Node Kayles or a Chomp bar has one
//! question: what is the value of this position? The [`Searcher`] answers it for any game
//! that implements [`SearchGame`], with the techniques of Lemoine and Viennot ("Nimbers are
//! inevitable", Theoretical Computer Science 462, 2012) and Beling and Rogalski ("On
//! pruning search trees of impartial games", Artificial Intelligence 283, 2020):
//!
//! - **Components.** A game lists each option as the independent components it falls into
//!   (regions of a board, connected parts of a graph); values nim-add.
//! - **Canonical forms.** Components are keys the game has put in canonical form (a board
//!   region moved to the corner and taken in the least of its symmetric images), so equal
//!   positions share one table entry.
//! - **Proving instead of computing (aspiration).** To learn the value of a component `C`,
//!   the search asks "is `g(C) = k`?" for `k = 0, 1, ...`: is there an option of value `k`?
//!   An option whose value comes out in full on the way (perhaps another value than the
//!   one asked: the table may know it) is not asked again, and its value is remembered as
//!   taken for the values still to try. For an option that is a sum of several
//!   components, the values of all but the largest are found (they are smaller), and only
//!   the largest is asked, with `k` nim-added to their values.
//! - **Sets of values (Beling and Rogalski).** The largest part is asked "is your value in
//!   this set?" ([`Searcher`]'s `in_set`): with `m` options a value is one of `0..=m`; each
//!   option removes one element of that set of possible values (its own value, or else the
//!   largest element, which leaves the mex unchanged as the set keeps one element more than
//!   there are options left), so an option is only asked about the possible values but the
//!   largest, and the search stops once the possible values and the wanted ones are apart.
//!   A proved "not in the set" is kept in the table as excluded values.
//! - **Equal parts cancel.** Two equal components of an option add to 0 and are dropped.
//! - **Transposition cut-offs.** Before any option is searched, every option whose parts
//!   are all in the table is checked, and a component whose options are all known is valued
//!   by the mex at once.
//! - **Options one at a time.** A game that knows how many options a component has
//!   ([`SearchGame::option_count`]) gives them one at a time
//!   ([`SearchGame::visit_options`]) to a question "is your value in this set?", and the
//!   listing stops as soon as the options found in the table answer it (an option whose
//!   value is the one asked refutes it): most questions are answered by a few of the
//!   options, so most are never made. (Cram 5 x 8's value: 3.5 s → 2.1 s of CPU.)
//! - **Threads.** [`Searcher::value_of_sum_with_threads`] shares out the outermost
//!   component's questions among threads that share one table (`parallel.rs`).
//! - **A bounded table.** The `table::Table` grows up to the budget's position and memory
//!   limits and then replaces its cheapest entries, so a search too big for memory slows
//!   down instead of failing.
//!
//! Every node searched is charged to the [`Budget`] (which also carries cancellation, so a
//! front end's Ctrl-C stops a long search, and its work count is the progress): one unit
//! for the node and [`SearchGame::work_per_option`] for each option made, so that a unit
//! stays near the budget's 10 to 100 ns and the default work limit means seconds. The search
//! recurses, one level per move played, so its depth is at most a small multiple of the
//! number of moves a game can last; [`MAX_DEPTH`] stops a game that lasts longer.
//!
//! Measured (`cargo bench -p grundy --bench boards`, on a shared two-core machine under a
//! load of about 8, so CPU time from `/usr/bin/time` is the fair figure): Node Kayles on
//! the 3 x 14 grid 0.03 s CPU (8 254 nodes), Chomp 10 x 12 by this search 2.4 s CPU
//! (646 568 nodes, 108 MB peak; Chomp itself goes through its staircase table, 0.08 s),
//! Cram 5 x 7 by the generic region search 8.5 s CPU (1.47 million nodes, 313 MB peak);
//! Cram has its own game with 64-bit keys and Beling's reductions ([`crate::boards::cram`]).
//!
//! **Keeping the table.** What the table holds is proved, so a later search over the same
//! game may start from it: [`Searcher::keep`] leaves it in a [`KeptTable`] and
//! [`Searcher::resume`] takes it back (a board keeps its table from the value's search for
//! the winning moves' search: `analyze "cram 5x8"` 12.7 s → 8.8 s of CPU).
//!
//! Complexity: at worst the number of distinct components reachable, times their options;
//! in practice far fewer, because proving `g ≠ k` needs one option of value `k`, and an
//! option asked about a set of values stops as soon as its own possible values miss it.
//!
//! ```
//! use grundy::search::{Options, SearchGame, Searcher};
//! use grundy::control::Budget;
//!
//! /// Kayles on a row of n pins: knock down one or two adjacent pins.
//! struct Kayles;
//! impl SearchGame for Kayles {
//!     type Key = u32;
//!     fn options(&self, &n: &u32, out: &mut Options<u32>) {
//!         for take in 1..=2u32.min(n) {
//!             for left in 0..=(n - take) / 2 {
//!                 let right = n - take - left;
//!                 out.push_option([left, right].into_iter().filter(|&h| h > 0));
//!             }
//!         }
//!     }
//!     fn size(&self, &n: &u32) -> u32 { n }
//! }
//! let mut s = Searcher::new(&Kayles, &Budget::default()).unwrap();
//! let values: Vec<u32> = (0..12).map(|n| s.value(&n).unwrap()).collect();
//! assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

pub mod checkpoint;
mod game;
mod parallel;
mod sets;
pub(crate) mod store;
pub(crate) mod table;

pub use game::{Options, SearchGame};

use crate::control::{Budget, BudgetError};
use sets::{Look, Pending, PendingOption, PossibleValues, SET_BITS, low_bits, mex_of, xor_set};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use store::Store;
use table::Knowledge;

/// The deepest the search may recurse (a few levels per move played).
pub const MAX_DEPTH: usize = 512;

/// Why a search stopped without its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A limit of the budget was reached, or the search was cancelled.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// The game lasts longer than the search may recurse.
    #[error("the search would recurse deeper than {limit} levels (the depth limit)")]
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// One thread of a parallel search stopped because another answered the question they
    /// shared; the parallel search handles it, and no public method returns it.
    #[error("another thread answered first")]
    Superseded,
}

/// Figures of a search, for benchmarks and progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SearchStats {
    /// Components expanded (their options listed).
    pub nodes: u64,
    /// Table entries stored now.
    pub entries: usize,
    /// The most entries stored at once.
    pub peak_entries: usize,
    /// The bytes of the table now.
    pub table_bytes: usize,
    /// Entries overwritten because the table was full.
    pub replaced: u64,
}

/// The position search over one game, with its table (reuse it for related positions: the
/// table carries over).
pub struct Searcher<'g, G: SearchGame> {
    game: &'g G,
    budget: Budget,
    table: Store<G::Key>,
    pool: Vec<Options<G::Key>>,
    pending_pool: Vec<Pending<G::Key>>,
    depth: usize,
    nodes: u64,
    /// The value the outermost component is being asked about, for the progress status.
    trying: Option<u32>,
    /// Set when another thread of a parallel search has answered the question this one is
    /// on: the search stops with [`SearchError::Superseded`].
    stop: Option<Arc<AtomicBool>>,
    /// Work not yet charged to the budget: a thread of a parallel search charges in batches
    /// of [`BATCH`] units (one shared counter written by every node would cost more than the
    /// node); otherwise 0, every unit charged at once.
    unbilled: u64,
    /// Whether work is charged in batches.
    batched: bool,
    /// Whether this search says the progress status (a helper thread does not).
    speaks: bool,
}

/// Units of work a thread of a parallel search charges at once.
const BATCH: u64 = 1 << 12;

/// The least size ([`SearchGame::size`]) of a component a thread of a parallel search marks
/// as being searched: smaller ones are quicker searched again than looked up.
const BUSY_SIZE: u32 = 16;

/// Nodes between two progress statuses ([`Budget::set_status`]): about a tenth of a second.
const STATUS_EVERY: u64 = 1 << 15;

impl<G: SearchGame> fmt::Debug for Searcher<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Searcher")
            .field("stats", &self.stats())
            .finish()
    }
}

impl<'g, G: SearchGame> Searcher<'g, G> {
    /// A search over `game` counting its work against `budget`.
    pub fn new(game: &'g G, budget: &Budget) -> Result<Self, BudgetError> {
        Ok(Self::with_store(game, budget, Store::new(budget)?))
    }

    fn with_store(game: &'g G, budget: &Budget, table: Store<G::Key>) -> Self {
        Searcher {
            game,
            budget: budget.clone(),
            table,
            pool: Vec::new(),
            pending_pool: Vec::new(),
            depth: 0,
            nodes: 0,
            trying: None,
            stop: None,
            unbilled: 0,
            batched: false,
            speaks: true,
        }
    }

    /// A search over `game` that starts from the table `kept` holds (left there by
    /// [`Searcher::keep`] after an earlier search over the same game), or from an empty one.
    /// What a table knows stays true, so a component's winning moves are searched with what
    /// its value's search learnt.
    pub fn resume(
        game: &'g G,
        budget: &Budget,
        kept: &KeptTable<G::Key>,
    ) -> Result<Self, BudgetError> {
        let table = match kept.take() {
            Some(mut t) => {
                if t.rebind(budget) {
                    t
                } else {
                    drop(t);
                    Store::new(budget)?
                }
            }
            None => Store::new(budget)?,
        };
        Ok(Self::with_store(game, budget, table))
    }

    /// Leaves the table in `kept` for a later [`Searcher::resume`] over the same game.
    pub fn keep(self, kept: &KeptTable<G::Key>) {
        kept.put(self.table);
    }

    /// The figures so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            entries: self.table.len(),
            peak_entries: self.table.peak(),
            table_bytes: self.table.bytes(),
            replaced: self.table.replaced(),
        }
    }

    /// The value of one component.
    pub fn value(&mut self, key: &G::Key) -> Result<u32, SearchError> {
        self.nimber(*key)
    }

    /// The value of a sum of components.
    pub fn value_of_sum(&mut self, parts: &[G::Key]) -> Result<u32, SearchError> {
        let mut v = 0;
        for p in parts {
            v ^= self.nimber(*p)?;
        }
        Ok(v)
    }

    /// Whether the sum of `parts` has value `n`: the values of all parts but the largest
    /// are found, and the largest is asked whether its value is `n` nim-added to theirs.
    pub fn sum_is(&mut self, parts: &[G::Key], n: u32) -> Result<bool, SearchError> {
        let mut x = 0u32;
        let mut big: Option<(u32, G::Key)> = None;
        for (i, p) in parts.iter().enumerate() {
            // Two equal parts cancel (G + G = 0): only a part seen an odd number of times
            // counts, at its last occurrence.
            if parts[i + 1..].contains(p) || parts[..i].iter().filter(|q| *q == p).count() % 2 == 1
            {
                continue;
            }
            if let Some(v) = self.known(p) {
                x ^= v;
                continue;
            }
            let size = self.game.size(p);
            match big {
                Some((s, _)) if s >= size => x ^= self.nimber(*p)?,
                Some((_, b)) => {
                    x ^= self.nimber(b)?;
                    big = Some((size, *p));
                }
                None => big = Some((size, *p)),
            }
        }
        let want = n ^ x;
        match big {
            None => Ok(want == 0),
            Some((_, b)) if want < SET_BITS => Ok(self.in_set(b, 1 << want)? == Some(want)),
            Some((_, b)) => Ok(self.nimber(b)? == want),
        }
    }

    /// The value of a component, from the table or by closed form, without search.
    fn known(&self, key: &G::Key) -> Option<u32> {
        self.game
            .known_value(key)
            .or_else(|| self.table.get(key).and_then(|k| k.value))
    }

    /// One look at what is known of a component (closed form, then one table lookup).
    fn lookup(&self, key: &G::Key) -> Look {
        if let Some(v) = self.game.known_value(key) {
            return Look::Value(v);
        }
        match self.table.get(key) {
            Some(Knowledge { value: Some(v), .. }) => Look::Value(v),
            Some(k) => Look::Excluded(k.excluded),
            None => Look::Excluded(0),
        }
    }

    /// The value of a component, by aspiration: is it 0? 1? ... Each option is asked
    /// whether its value is the one tried ([`Searcher::in_set`] with one value), and an
    /// option whose value comes out in full is not asked again.
    fn nimber(&mut self, key: G::Key) -> Result<u32, SearchError> {
        let excluded = match self.lookup(&key) {
            Look::Value(v) => return Ok(v),
            Look::Excluded(excluded) => excluded,
        };
        let start = self.nodes;
        let options = self.expand(&key)?;
        let found = if !self.game.prove_values() || options.len() as u32 >= SET_BITS {
            self.mex_of_options(&options)
        } else {
            self.aspire(&options, excluded)
        };
        self.release(options);
        let v = found?;
        self.set_value(key, v, self.nodes - start + 1)?;
        Ok(v)
    }

    /// The search of [`Searcher::nimber`] over the options (fewer than 128 of them); values
    /// below 64 in `excluded` are known not to be the value.
    fn aspire(&mut self, options: &Options<G::Key>, excluded: u64) -> Result<u32, SearchError> {
        let (mut pending, seen) = self.pend_all(options);
        let mut skip = seen | u128::from(excluded);
        'values: for r in 0..options.len() as u32 {
            if skip & (1 << r) != 0 {
                continue;
            }
            if self.depth == 1 {
                self.trying = Some(r);
            }
            let mut i = 0;
            while i < pending.options.len() {
                let x = self.resolve(&mut pending, i)?;
                let big = pending.options[i].big;
                let answer = if x < SET_BITS {
                    self.in_set(big, 1 << (r ^ x))?
                } else {
                    Some(self.nimber(big)?)
                };
                match answer {
                    Some(v) => {
                        // The option's value came out in full (perhaps not `r`: the table
                        // or a search below may know more than was asked): it is taken,
                        // and the option is not asked again, so it must be remembered
                        // for the values still to try.
                        pending.options.remove(i);
                        if v ^ x == r {
                            continue 'values;
                        }
                        if v ^ x < SET_BITS {
                            skip |= 1 << (v ^ x);
                        }
                    }
                    None => i += 1,
                }
            }
            self.pending_pool.push(pending);
            return Ok(r);
        }
        self.pending_pool.push(pending);
        Ok(options.len() as u32)
    }

    /// The value of `key` if it is in the set `want` (bit `k`: value `k`), or `None` when it
    /// is proved not to be; a value outside `want` may still be returned when it was found.
    ///
    /// This is the pruning of Beling and Rogalski: with `m` options the value is one of
    /// `0..=m`, the set `P` of values still possible. Each option removes one element of
    /// `P`: its own value if in `P`, else the largest (which leaves the least element, the
    /// mex, unchanged, as `P` keeps one element more than there are options left). So an
    /// option need only be asked whether its value is in `P` without its largest element
    /// (and not above the largest value wanted), and the search stops as soon as `P` and
    /// `want` are apart.
    fn in_set(&mut self, key: G::Key, want: u128) -> Result<Option<u32>, SearchError> {
        let excluded = match self.lookup(&key) {
            Look::Value(v) => return Ok(Some(v)),
            Look::Excluded(excluded) => excluded,
        };
        let bound = self.game.value_bound(&key).unwrap_or(u32::MAX);
        let want = want & low_bits(bound.saturating_add(1)) & !u128::from(excluded);
        if want == 0 {
            return Ok(None);
        }
        let start = self.nodes;
        // A thread of a parallel search marks a large component it searches, so that the
        // other threads leave it for last.
        let busy = match &self.table {
            Store::Shared(s, _) if self.batched && self.game.size(&key) >= BUSY_SIZE => {
                s.mark_busy(&key)
            }
            _ => None,
        };
        let found = self.search_in_set(&key, want);
        let work = self.nodes - start + 1;
        let stored = match found {
            Ok(Some(v)) => self.set_value(key, v, work),
            // Proved: the value is none of `want`.
            Ok(None) => {
                let known = Knowledge {
                    value: None,
                    excluded: want as u64,
                };
                let work = u32::try_from(work).unwrap_or(u32::MAX);
                self.table
                    .update(key, known, work)
                    .map_err(SearchError::from)
            }
            Err(e) => Err(e),
        };
        // Unmarked once the answer is in the table, for a thread that left it for last.
        if let (Some(slot), Store::Shared(s, _)) = (busy, &self.table) {
            s.unmark_busy(slot);
        }
        stored.and(found)
    }

    /// The search of [`Searcher::in_set`] over the options of `key`.
    fn search_in_set(&mut self, key: &G::Key, want: u128) -> Result<Option<u32>, SearchError> {
        match self.game.option_count(key) {
            Some(m) if self.game.prove_values() && m < SET_BITS => self.prune_lazily(key, m, want),
            _ => {
                let options = self.expand(key)?;
                let found = if !self.game.prove_values() || options.len() as u32 >= SET_BITS {
                    self.mex_of_options(&options).map(Some)
                } else {
                    self.prune_options(&options, want)
                };
                self.release(options);
                found
            }
        }
    }

    /// Whether another thread of a parallel search is searching `key` now.
    fn busy(&self, key: &G::Key) -> bool {
        match &self.table {
            Store::Shared(s, _) if self.batched => s.is_busy(key),
            _ => false,
        }
    }

    /// Files every option ([`Searcher::pend`]), the easiest first: the options pending, and
    /// the values (bit `k`: value `k`, the last bit for any larger) of those whose parts are
    /// all known.
    fn pend_all(&mut self, options: &Options<G::Key>) -> (Pending<G::Key>, u128) {
        let mut pending = self.take_pending();
        let mut seen = 0u128;
        for parts in options.iter() {
            if let Some(x) = self.pend(&mut pending, parts) {
                seen |= 1u128 << x.min(127);
            }
        }
        pending.sort();
        (pending, seen)
    }

    /// Files one option: its nim-sum if every part is known, else `None` and the option
    /// joins `pending` with its unknown parts.
    fn pend(&self, pending: &mut Pending<G::Key>, parts: &[G::Key]) -> Option<u32> {
        let first = pending.others.len() as u32;
        let mut x = 0;
        let mut big: Option<(u32, G::Key)> = None;
        let mut difficulty = 0u64;
        for (i, p) in parts.iter().enumerate() {
            // Two equal parts cancel (G + G = 0): only a part seen an odd number of times
            // counts, at its last occurrence.
            if parts[i + 1..].contains(p) || parts[..i].iter().filter(|q| *q == p).count() % 2 == 1
            {
                continue;
            }
            if let Some(v) = self.known(p) {
                x ^= v;
                continue;
            }
            let size = self.game.size(p);
            difficulty += u64::from(size) * u64::from(size);
            match big {
                Some((s, b)) if size > s => {
                    pending.others.push(b);
                    big = Some((size, *p));
                }
                Some(_) => pending.others.push(*p),
                None => big = Some((size, *p)),
            }
        }
        let Some((_, big)) = big else {
            return Some(x);
        };
        pending.options.push(PendingOption {
            x,
            big,
            others: (first, pending.others.len() as u32),
            difficulty,
        });
        None
    }

    /// Values in full the parts of pending option `i` other than its largest (once), and
    /// returns their nim-sum with its known parts.
    fn resolve(&mut self, pending: &mut Pending<G::Key>, i: usize) -> Result<u32, SearchError> {
        let (a, b) = pending.options[i].others;
        for j in a..b {
            let v = self.nimber(pending.others[j as usize])?;
            pending.options[i].x ^= v;
        }
        pending.options[i].others = (b, b);
        Ok(pending.options[i].x)
    }

    /// The value as the mex of every option's value, each found in full.
    fn mex_of_options(&mut self, options: &Options<G::Key>) -> Result<u32, SearchError> {
        let mut seen = vec![0u64; options.len() / 64 + 1];
        for parts in options.iter() {
            let v = self.value_of_sum(parts)?;
            if let Some(word) = seen.get_mut(v as usize / 64) {
                *word |= 1 << (v % 64);
            }
        }
        Ok(mex_of(&seen))
    }

    /// The search of [`Searcher::in_set`] over the options (fewer than 128 of them).
    fn prune_options(
        &mut self,
        options: &Options<G::Key>,
        want: u128,
    ) -> Result<Option<u32>, SearchError> {
        let mut possible = PossibleValues::new(options.len() as u32);
        // Pass 1: options whose parts are all known.
        let mut pending = self.take_pending();
        let mut refuted = false;
        for parts in options.iter() {
            if let Some(x) = self.pend(&mut pending, parts) {
                possible.remove(x);
                if possible.set & want == 0 {
                    refuted = true;
                    break;
                }
            }
        }
        let found = if refuted {
            Ok(None)
        } else {
            self.search_pending(&mut pending, possible, want)
        };
        self.pending_pool.push(pending);
        found
    }

    /// [`Searcher::prune_options`] with the options listed one at a time (the game gives at
    /// least their number, `m < 128`): pass 1 stops listing as soon as the options in the
    /// table answer. The set of possible values starts as `0..=m`; with fewer options than
    /// `m` it ends with more than one element, but its least is still the mex (count the
    /// missing options as options of a value too large, searched last: each removes the
    /// largest element, which leaves the least in place).
    fn prune_lazily(
        &mut self,
        key: &G::Key,
        m: u32,
        want: u128,
    ) -> Result<Option<u32>, SearchError> {
        self.enter()?;
        let mut pending = self.take_pending();
        let mut possible = PossibleValues::new(m);
        let mut listed = 0u32;
        let mut refuted = false;
        let game = self.game;
        let this = &*self;
        game.visit_options(key, &mut |parts| {
            listed += 1;
            if let Some(x) = this.pend(&mut pending, parts) {
                possible.remove(x);
                if possible.set & want == 0 {
                    refuted = true;
                    return false;
                }
            }
            true
        });
        debug_assert!(listed <= m, "{listed} options, at most {m} said");
        let units = u64::from(listed).saturating_mul(self.game.work_per_option());
        let found = match self.charge(units) {
            Err(e) => Err(e.into()),
            Ok(()) if refuted => Ok(None),
            Ok(()) => self.search_pending(&mut pending, possible, want),
        };
        self.pending_pool.push(pending);
        self.depth -= 1;
        found
    }

    /// An empty [`Pending`] from the pool.
    fn take_pending(&mut self) -> Pending<G::Key> {
        let mut pending = self.pending_pool.pop().unwrap_or_default();
        pending.options.clear();
        pending.others.clear();
        pending
    }

    /// Pass 2 of [`Searcher::prune_options`]: the options not answered by the table, the
    /// easiest first, each asked whether its value is among the possible ones.
    fn search_pending(
        &mut self,
        pending: &mut Pending<G::Key>,
        mut possible: PossibleValues,
        want: u128,
    ) -> Result<Option<u32>, SearchError> {
        let top = 127 - want.leading_zeros();
        let upto_top = low_bits(top + 1);
        pending.sort();
        let mut exact = true;
        // The options in the order asked: an option another thread is searching now goes
        // last (once), when that thread may have answered it.
        let n = pending.options.len();
        let mut later: Vec<usize> = Vec::new();
        let mut k = 0;
        while k < n + later.len() {
            let i = if k < n { k } else { later[k - n] };
            k += 1;
            if possible.set & want == 0 {
                return Ok(None);
            }
            if k <= n && self.busy(&pending.options[i].big) {
                later.push(i);
                continue;
            }
            let asked = possible.without_largest() & upto_top;
            let x = self.resolve(pending, i)?;
            let big = pending.options[i].big;
            let answer = if x < SET_BITS {
                self.in_set(big, xor_set(asked, x))?
            } else {
                Some(self.nimber(big)?)
            };
            match answer {
                Some(v) => possible.remove(v ^ x),
                None => {
                    possible.remove_largest();
                    exact = false;
                }
            }
        }
        let v = possible.least();
        Ok((exact || v <= top).then_some(v))
    }

    /// Lists the options of `key`, counting one unit of work for the node and one for each
    /// option listed (each is put in canonical form and looked up, the real cost).
    fn expand(&mut self, key: &G::Key) -> Result<Options<G::Key>, SearchError> {
        self.enter()?;
        let mut options = self.pool.pop().unwrap_or_default();
        options.clear();
        self.game.options(key, &mut options);
        let units = (options.len() as u64).saturating_mul(self.game.work_per_option());
        if let Err(e) = self.charge(units) {
            self.release(options);
            return Err(e.into());
        }
        Ok(options)
    }

    /// One level down: counts the node (one unit of work) and checks the depth.
    fn enter(&mut self) -> Result<(), SearchError> {
        if self.depth >= MAX_DEPTH {
            return Err(SearchError::TooDeep { limit: MAX_DEPTH });
        }
        if let Some(stop) = &self.stop {
            if stop.load(Ordering::Relaxed) {
                return Err(SearchError::Superseded);
            }
        }
        self.charge(1)?;
        self.nodes += 1;
        self.depth += 1;
        if self.speaks && self.nodes % STATUS_EVERY == 0 {
            self.say_status();
        }
        Ok(())
    }

    /// The progress status: nodes, table, and the value the outermost component is asked
    /// about (every smaller one ruled out).
    fn say_status(&self) {
        let stats = self.stats();
        let trying = match self.trying {
            Some(0) | None => String::new(),
            Some(1) => ", trying the value 1 (0 ruled out)".to_string(),
            Some(r) => format!(", trying the value {r} (0 to {} ruled out)", r - 1),
        };
        self.budget.set_status(format!(
            "{} nodes, table {} entries ({} MiB){trying}",
            stats.nodes,
            stats.entries,
            stats.table_bytes >> 20
        ));
    }

    /// Counts `units` of work against the budget: at once, or in batches of [`BATCH`] units
    /// in a thread of a parallel search.
    fn charge(&mut self, units: u64) -> Result<(), BudgetError> {
        if !self.batched {
            return self.budget.charge(units);
        }
        self.unbilled = self.unbilled.saturating_add(units);
        if self.unbilled < BATCH {
            return Ok(());
        }
        self.bill()
    }

    /// Charges the work not yet charged.
    fn bill(&mut self) -> Result<(), BudgetError> {
        let units = std::mem::take(&mut self.unbilled);
        self.budget.charge(units)
    }

    fn release(&mut self, options: Options<G::Key>) {
        self.depth -= 1;
        self.pool.push(options);
    }

    fn set_value(&mut self, key: G::Key, v: u32, work: u64) -> Result<(), SearchError> {
        let known = Knowledge {
            value: Some(v),
            excluded: 0,
        };
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        Ok(self.table.update(key, known, work)?)
    }
}

/// A search table kept between searches over one game (a component's value, then its
/// winning moves), shared by clones; empty until a [`Searcher::keep`]. Every entry is a
/// proved fact about a component of the game, so any later search over the same game may
/// start from it.
pub struct KeptTable<K>(Arc<Mutex<Option<Store<K>>>>);

impl<K> KeptTable<K> {
    /// An empty place for a table.
    pub fn new() -> Self {
        KeptTable(Arc::new(Mutex::new(None)))
    }

    fn take(&self) -> Option<Store<K>> {
        // A poisoned lock (a panic elsewhere while it was held) only loses the table.
        self.0.lock().ok().and_then(|mut t| t.take())
    }

    fn put(&self, table: Store<K>) {
        if let Ok(mut t) = self.0.lock() {
            *t = Some(table);
        }
    }

    /// The entries of the table kept, if any.
    pub fn entries(&self) -> usize {
        self.0
            .lock()
            .ok()
            .and_then(|t| t.as_ref().map(Store::len))
            .unwrap_or(0)
    }
}

impl<K> Default for KeptTable<K> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K> Clone for KeptTable<K> {
    fn clone(&self) -> Self {
        KeptTable(Arc::clone(&self.0))
    }
}

impl<K> fmt::Debug for KeptTable<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeptTable")
            .field("entries", &self.entries())
            .finish()
    }
}

#[cfg(test)]
mod tests;
