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
//! - **Proving instead of computing.** To learn the value of a component `C`, the search
//!   asks "is `g(C) = k`?" for `k = 0, 1, ...`: that is, is `C + *k` a loss for the player to
//!   move? A single option of value `k` answers *no* at once, so most options are never
//!   valued in full. For an option that is a sum of several components, the values of all
//!   but the largest are found (they are smaller), and the question is asked again of the
//!   largest, with `k` nim-added to their values.
//! - **Transposition cut-offs.** Before any option is searched, every option whose parts
//!   are all in the table is checked, and a component whose options are all known is valued
//!   by the mex at once.
//! - **A bounded table.** The [`table::Table`] grows up to the budget's position and memory
//!   limits and then replaces its cheapest entries, so a search too big for memory slows
//!   down instead of failing.
//!
//! Every node searched is charged to the [`Budget`] (which also carries cancellation, so a
//! front end's Ctrl-C stops a long search, and its work count is the progress). The search
//! recurses, one level per move played, so its depth is at most a small multiple of the
//! number of moves a game can last; [`MAX_DEPTH`] stops a game that lasts longer.
//!
//! Measured (`cargo bench -p grundy --bench boards`, on a shared two-core machine under a
//! load of about 10): Node Kayles on the 3 x 14 grid 0.13 s, Chomp 10 x 12 6.9 s (646 810
//! nodes), Cram 5 x 7 20 s (1.4 million nodes), Cram 5 x 8 223 s (8.1 million nodes, 5.9
//! million table entries). Beling's igs is much faster on Cram: its pruning is not all here.
//!
//! Complexity: at worst the number of distinct components reachable, times their options;
//! in practice far fewer, because proving `g = k` needs one option of value `k` (when `g ≠
//! k`) and otherwise only the options' *outcomes* against `*k`.
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

pub mod table;

use crate::control::{Budget, BudgetError};
use std::fmt;
use std::hash::Hash;
use table::{Knowledge, Table};

/// The deepest the search may recurse (a few levels per move played).
pub const MAX_DEPTH: usize = 512;

/// A game the position search can solve: its components and their options.
pub trait SearchGame {
    /// A component in canonical form: equal components (up to the game's symmetries) must
    /// have equal keys, and a key must be one connected part (it is never split again).
    type Key: Copy + Default + Eq + Hash + fmt::Debug;

    /// Every option of the component `key`, each pushed as the keys of the components it
    /// falls into ([`Options::push_option`]; no keys at all for the zero game).
    fn options(&self, key: &Self::Key, out: &mut Options<Self::Key>);

    /// A measure of size (cells, vertices) that shrinks with every move: of the parts of an
    /// option, the largest is the one searched last.
    fn size(&self, key: &Self::Key) -> u32;

    /// Whether to prove values ("is g = k?", pruning) rather than compute every option's
    /// value in full. Proving pays where options fall into several components (Cram, Node
    /// Kayles); for a game whose options are single components with many values (Chomp),
    /// computing each option's value once is cheaper.
    fn prove_values(&self) -> bool {
        true
    }

    /// An upper bound on the value of a component, if one is cheap (a value is at most the
    /// length of the longest play). Asking whether the value is larger is answered at once.
    fn value_bound(&self, key: &Self::Key) -> Option<u32> {
        let _ = key;
        None
    }

    /// The value of a component known without search (a closed form), if any.
    fn known_value(&self, key: &Self::Key) -> Option<u32> {
        let _ = key;
        None
    }
}

/// The options of one component, each a list of component keys, in one flat buffer.
#[derive(Clone, Debug)]
pub struct Options<K> {
    keys: Vec<K>,
    ends: Vec<u32>,
}

impl<K> Default for Options<K> {
    fn default() -> Self {
        Options {
            keys: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<K: Copy> Options<K> {
    /// Adds one option made of these components.
    pub fn push_option(&mut self, parts: impl IntoIterator<Item = K>) {
        self.keys.extend(parts);
        self.end_option();
    }

    /// Adds one component to the option being built (finish it with [`Options::end_option`]).
    pub fn push_part(&mut self, key: K) {
        self.keys.push(key);
    }

    /// Finishes the option being built from the parts pushed since the last one.
    pub fn end_option(&mut self) {
        self.ends.push(self.keys.len() as u32);
    }

    /// The number of options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no option.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Option `i`, as its components.
    pub fn get(&self, i: usize) -> &[K] {
        let (a, b) = self.range(i);
        &self.keys[a..b]
    }

    fn range(&self, i: usize) -> (usize, usize) {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        (start, self.ends[i] as usize)
    }

    /// Every option, as its components.
    pub fn iter(&self) -> impl Iterator<Item = &[K]> + '_ {
        (0..self.len()).map(|i| self.get(i))
    }

    /// Empties the list, keeping its memory.
    pub fn clear(&mut self) {
        self.keys.clear();
        self.ends.clear();
    }
}

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
    table: Table<G::Key>,
    pool: Vec<Options<G::Key>>,
    depth: usize,
    nodes: u64,
}

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
        Ok(Searcher {
            game,
            budget: budget.clone(),
            table: Table::new(budget)?,
            pool: Vec::new(),
            depth: 0,
            nodes: 0,
        })
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
        let values: Vec<Option<u32>> = parts.iter().map(|p| self.known(p)).collect();
        self.sum_is_with(parts, &values, n)
    }

    /// [`Searcher::sum_is`] with the values already known of some parts.
    fn sum_is_with(
        &mut self,
        parts: &[G::Key],
        values: &[Option<u32>],
        n: u32,
    ) -> Result<bool, SearchError> {
        let mut m = n;
        let mut big: Option<(u32, G::Key)> = None;
        for (p, v) in parts.iter().zip(values) {
            if let Some(v) = v {
                m ^= v;
                continue;
            }
            let size = self.game.size(p);
            match big {
                Some((s, _)) if s >= size => m ^= self.nimber(*p)?,
                Some((_, b)) => {
                    m ^= self.nimber(b)?;
                    big = Some((size, *p));
                }
                None => big = Some((size, *p)),
            }
        }
        match big {
            None => Ok(m == 0),
            Some((_, b)) if self.game.prove_values() => self.is_value(b, m, false),
            Some((_, b)) => Ok(self.nimber(b)? == m),
        }
    }

    /// The value of a component, from the table or by closed form, without search.
    fn known(&self, key: &G::Key) -> Option<u32> {
        self.game
            .known_value(key)
            .or_else(|| self.table.get(key).and_then(|k| k.value))
    }

    /// The value of a component: its options are listed once, then searched for an option
    /// of value 0, 1, 2, ... until a value is missing.
    fn nimber(&mut self, key: G::Key) -> Result<u32, SearchError> {
        if let Some(v) = self.known(&key) {
            return Ok(v);
        }
        let stored = self.table.get(&key).unwrap_or_default();
        let options = self.expand(&key)?;
        let start = self.nodes;
        if !self.game.prove_values() {
            // Every option valued once, then the mex.
            let mut seen = vec![0u64; options.len() / 64 + 1];
            let mut result = Ok(());
            for parts in options.iter() {
                match self.value_of_sum(parts) {
                    Ok(v) => {
                        if let Some(word) = seen.get_mut(v as usize / 64) {
                            *word |= 1 << (v % 64);
                        }
                    }
                    Err(e) => {
                        result = Err(e);
                        break;
                    }
                }
            }
            self.release(options);
            result?;
            let v = mex_of(&seen);
            self.set_value(key, v, self.nodes - start + 1)?;
            return Ok(v);
        }
        let mut k = 0;
        let result = loop {
            if stored.excludes(k) {
                k += 1;
                continue;
            }
            match self.search_options(k, &options) {
                Err(e) => break Err(e),
                Ok(Found::Value(v)) => break Ok(v),
                Ok(Found::NoneOfValue) => break Ok(k),
                Ok(Found::OptionOfValue) => k += 1,
            }
        };
        self.release(options);
        let v = result?;
        self.set_value(key, v, self.nodes - start + 1)?;
        Ok(v)
    }

    /// Lists the options of `key`, counting one unit of work for the node and one for each
    /// option listed (each is put in canonical form and looked up, the real cost).
    fn expand(&mut self, key: &G::Key) -> Result<Options<G::Key>, SearchError> {
        if self.depth >= MAX_DEPTH {
            return Err(SearchError::TooDeep { limit: MAX_DEPTH });
        }
        self.budget.charge(1)?;
        self.nodes += 1;
        self.depth += 1;
        let mut options = self.pool.pop().unwrap_or_default();
        options.clear();
        self.game.options(key, &mut options);
        if let Err(e) = self.budget.charge(options.len() as u64) {
            self.release(options);
            return Err(e.into());
        }
        Ok(options)
    }

    fn release(&mut self, options: Options<G::Key>) {
        self.depth -= 1;
        self.pool.push(options);
    }

    fn store(&mut self, key: G::Key, known: Knowledge, work: u64) -> Result<(), SearchError> {
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        Ok(self.table.update(key, known, work)?)
    }

    fn exclude(&mut self, key: G::Key, n: u32, work: u64) -> Result<(), SearchError> {
        if n < 64 {
            let known = Knowledge {
                value: None,
                excluded: 1 << n,
            };
            self.store(key, known, work)?;
        }
        Ok(())
    }

    fn set_value(&mut self, key: G::Key, v: u32, work: u64) -> Result<(), SearchError> {
        let known = Knowledge {
            value: Some(v),
            excluded: 0,
        };
        self.store(key, known, work)
    }

    /// Whether `g(key) = n`. `lower_done`: the caller knows `g(key) ≠ j` for every `j < n`.
    fn is_value(&mut self, key: G::Key, n: u32, lower_done: bool) -> Result<bool, SearchError> {
        if let Some(v) = self.game.known_value(&key) {
            return Ok(v == n);
        }
        let stored = self.table.get(&key).unwrap_or_default();
        if let Some(v) = stored.value {
            return Ok(v == n);
        }
        if stored.excludes(n) || self.game.value_bound(&key).is_some_and(|b| n > b) {
            return Ok(false);
        }
        let lower_done = lower_done || stored.excludes_all_below(n);
        let start = self.nodes;
        let options = self.expand(&key)?;
        let found = self.search_options(n, &options);
        self.release(options);
        let work = self.nodes - start;
        match found? {
            Found::Value(v) => {
                self.set_value(key, v, work)?;
                Ok(v == n)
            }
            Found::OptionOfValue => {
                self.exclude(key, n, work)?;
                Ok(false)
            }
            Found::NoneOfValue if lower_done => {
                self.set_value(key, n, work)?;
                Ok(true)
            }
            Found::NoneOfValue => {
                // g ≤ n: the value is n unless it is smaller; find it.
                Ok(self.nimber(key)? == n)
            }
        }
    }

    /// Searches the options for one of value `n`.
    fn search_options(&mut self, n: u32, options: &Options<G::Key>) -> Result<Found, SearchError> {
        // Pass 1: options whose parts are all known.
        let mut seen = vec![0u64; options.len() / 64 + 1];
        let mut values: Vec<Option<u32>> = Vec::with_capacity(options.keys.len());
        let mut all_known = true;
        for parts in options.iter() {
            let mut v = 0;
            let mut known = true;
            for p in parts {
                let x = self.known(p);
                values.push(x);
                match x {
                    Some(x) => v ^= x,
                    None => known = false,
                }
            }
            if !known {
                all_known = false;
                continue;
            }
            if v == n {
                return Ok(Found::OptionOfValue);
            }
            if let Some(word) = seen.get_mut(v as usize / 64) {
                *word |= 1 << (v % 64);
            }
        }
        if all_known {
            return Ok(Found::Value(mex_of(&seen)));
        }
        // Pass 2: search the others, those whose largest unknown part is smallest first.
        let mut order: Vec<(u32, usize)> = Vec::new();
        for i in 0..options.len() {
            let (a, b) = options.range(i);
            if values[a..b].iter().all(|v| v.is_some()) {
                continue;
            }
            let big = (a..b)
                .filter(|&j| values[j].is_none())
                .map(|j| self.game.size(&options.keys[j]))
                .max()
                .unwrap_or(0);
            order.push((big, i));
        }
        order.sort_unstable();
        for (_, i) in order {
            let (a, b) = options.range(i);
            if self.sum_is_with(&options.keys[a..b], &values[a..b], n)? {
                return Ok(Found::OptionOfValue);
            }
        }
        Ok(Found::NoneOfValue)
    }
}

/// The least value whose bit is not set.
fn mex_of(seen: &[u64]) -> u32 {
    seen.iter()
        .enumerate()
        .find(|(_, w)| **w != u64::MAX)
        .map_or(seen.len() as u32 * 64, |(i, w)| {
            i as u32 * 64 + w.trailing_ones()
        })
}

/// What a search of the options found.
enum Found {
    /// Every option was known: the value is their mex.
    Value(u32),
    /// An option has the value asked about.
    OptionOfValue,
    /// No option has the value asked about.
    NoneOfValue,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Limits;

    /// Kayles (0.77) on a row of pins, split into rows.
    struct Kayles;
    impl SearchGame for Kayles {
        type Key = u32;
        fn options(&self, &n: &u32, out: &mut Options<u32>) {
            for take in 1..=2u32.min(n) {
                for left in 0..=n - take {
                    out.push_option([left, n - take - left].into_iter().filter(|&h| h > 0));
                }
            }
        }
        fn size(&self, &n: &u32) -> u32 {
            n
        }
    }

    fn kayles_by_mex(max: usize) -> Vec<u32> {
        let mut g = vec![0u32; max + 1];
        for n in 1..=max {
            let mut seen = vec![false; 2 * n + 2];
            for take in 1..=2.min(n) {
                for left in 0..=n - take {
                    seen[(g[left] ^ g[n - take - left]) as usize] = true;
                }
            }
            g[n] = seen.iter().position(|s| !s).unwrap() as u32;
        }
        g
    }

    #[test]
    fn kayles_values_match_the_mex_recurrence() {
        let expected = kayles_by_mex(60);
        let mut s = Searcher::new(&Kayles, &Budget::default()).unwrap();
        for (n, &e) in expected.iter().enumerate() {
            assert_eq!(s.value(&(n as u32)).unwrap(), e, "kayles {n}");
        }
        for n in 0..40u32 {
            for k in 0..8 {
                let parts = [n, 7];
                assert_eq!(
                    s.sum_is(&parts, k).unwrap(),
                    expected[n as usize] ^ expected[7] == k
                );
            }
        }
    }

    #[test]
    fn a_tiny_table_still_gives_right_values() {
        // Far too small for Kayles 18: entries are replaced and searched again.
        let expected = kayles_by_mex(18);
        let budget = Budget::new(Limits {
            max_positions: 8,
            ..Limits::DEFAULT
        });
        let mut s = Searcher::new(&Kayles, &budget).unwrap();
        assert_eq!(s.value(&18).unwrap(), expected[18]);
        assert!(s.stats().peak_entries <= 8);
        assert!(s.stats().replaced > 0);
    }

    #[test]
    fn the_budget_stops_the_search() {
        let budget = Budget::new(Limits {
            max_work: 50,
            max_positions: 8,
            ..Limits::DEFAULT
        });
        let mut s = Searcher::new(&Kayles, &budget).unwrap();
        assert_eq!(
            s.value(&60),
            Err(SearchError::Budget(BudgetError::Work { limit: 50 }))
        );
        let budget = Budget::default();
        budget.cancel();
        let mut s = Searcher::new(&Kayles, &budget).unwrap();
        assert_eq!(
            s.value(&30),
            Err(SearchError::Budget(BudgetError::Cancelled))
        );
    }
}
