//! The impartial-game trait: a game is its positions and their options.
//!
//! Every family of games implements [`ImpartialGame`] by listing a position's options (the
//! positions one move leads to) and, where a position is a sum of independent parts, by
//! saying how it splits. Everything else (values, outcomes, winning moves) follows from
//! these two methods through the generic engine in [`crate::solve`], which is the
//! reference that every family's fast path is tested against.
//!
//! ```
//! use grundy::game::ImpartialGame;
//! use grundy::solve::Solver;
//! use grundy::Nimber;
//!
//! /// Subtraction game S(1,2): take one or two tokens.
//! struct TakeOneOrTwo;
//! impl ImpartialGame for TakeOneOrTwo {
//!     type Position = u64;
//!     fn options(&self, n: &u64) -> Vec<u64> {
//!         [1, 2].iter().filter(|&&k| k <= *n).map(|k| n - k).collect()
//!     }
//! }
//! let mut solver = Solver::new(&TakeOneOrTwo);
//! assert_eq!(solver.value(&10).unwrap(), Nimber(10 % 3));
//! ```

use std::hash::Hash;

/// An impartial game in normal play: both players have the same moves, and the player who
/// cannot move loses.
pub trait ImpartialGame {
    /// A position of the game. Positions that are equal must have equal options.
    type Position: Clone + Eq + Hash;

    /// Every position one move leads to (repeats are allowed and harmless).
    fn options(&self, position: &Self::Position) -> Vec<Self::Position>;

    /// The independent parts of a position, whose values nim-add to the position's value
    /// (for example the heaps of a Kayles position). The default treats every position as
    /// one part. A part returned here must split into itself alone.
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        vec![position.clone()]
    }

    /// An upper bound on the number of options of `position`, where one is cheap to know
    /// (a Nim heap of size n has n). Engines refuse a position whose options would exceed
    /// their work budget before listing them. `None` (the default) means unknown.
    fn option_bound(&self, position: &Self::Position) -> Option<u64> {
        let _ = position;
        None
    }

    /// The 64-bit words a position owns outside its inline size (a `Vec<u64>` of `n` heaps
    /// owns `n`). Engines count them in the memory their tables take and in the work of
    /// listing options, so that games with big positions meet the limits in proportion.
    /// 0 (the default) for positions that own nothing.
    fn position_words(&self, position: &Self::Position) -> u64 {
        let _ = position;
        0
    }

    /// The work, in units, of listing the `options` options of one position beyond what
    /// the engines charge for copying them (one unit, 10 to 100 ns, an option and a word).
    /// 0 (the default) for games whose moves are computed in Rust; a rule script's call
    /// costs microseconds, and says so here, so that the work limit stops a script game in
    /// about the time it states.
    fn listing_units(&self, options: u64) -> u64 {
        let _ = options;
        0
    }

    /// A dense index of `position`, where the game has a natural one: a number the generic
    /// engine ([`crate::solve::Solver`]) uses as the position's place in an array of values
    /// instead of hashing the position into its table (a heap's size; a Wythoff queen's
    /// place counted square by square, `m² + …` with `m = max(x, y)`).
    ///
    /// The contract: the index is injective over the positions the game reaches (two
    /// different positions never share one; positions with `None` don't count), and small
    /// positions get small indices. The engine's array reaches the largest index it meets,
    /// grown on demand within its memory and position limits; a component whose index lies
    /// beyond them keeps its value in the hash table as before, so a sparse or huge index is
    /// slower, never wrong. Only components are looked up (what
    /// [`components`](ImpartialGame::components) and
    /// [`split_options`](ImpartialGame::split_options) hand over). `None` (the default): no
    /// index, every value in the hash table.
    ///
    /// ```
    /// use grundy::game::{ImpartialGame, SplitOptions};
    /// use grundy::solve::Solver;
    /// use grundy::Nimber;
    ///
    /// /// Subtraction game S(1, 3, 4), a heap its own index.
    /// struct Subtraction;
    /// impl ImpartialGame for Subtraction {
    ///     type Position = u32;
    ///     fn options(&self, &n: &u32) -> Vec<u32> {
    ///         [1, 3, 4].iter().filter(|&&k| k <= n).map(|&k| n - k).collect()
    ///     }
    ///     fn split_options(&self, &n: &u32, out: &mut SplitOptions<u32>) {
    ///         // Every option is one heap: listed in one pass.
    ///         out.single_part_options([1, 3, 4].iter().filter(|&&k| k <= n).map(|&k| n - k));
    ///     }
    ///     fn dense_index(&self, &n: &u32) -> Option<u64> {
    ///         Some(u64::from(n))
    ///     }
    /// }
    /// // The values have period 7: 0 1 0 1 2 3 2.
    /// assert_eq!(Solver::new(Subtraction).value(&100_000).unwrap(), Nimber(3));
    /// ```
    fn dense_index(&self, position: &Self::Position) -> Option<u64> {
        let _ = position;
        None
    }

    /// Whether the player to move has no move.
    fn is_terminal(&self, position: &Self::Position) -> bool {
        self.options(position).is_empty()
    }

    /// Lists the options of `position` already split into their components, into `out`:
    /// [`SplitOptions::part`] for each component of an option, then
    /// [`SplitOptions::end_option`] to close it. This is what the generic engine calls.
    ///
    /// The default lists [`options`](ImpartialGame::options) and splits each with
    /// [`components`](ImpartialGame::components). A game overrides it to skip building
    /// whole positions (and the vectors that hold them): a Kayles heap of `n` pins has the
    /// options `a + b` with `a + b = n - 1` or `n - 2`, and can hand over the heaps `a` and
    /// `b` directly. The options must be the same as the default would give, in any order.
    ///
    /// ```
    /// use grundy::game::{ImpartialGame, SplitOptions};
    /// use grundy::solve::Solver;
    /// use grundy::Nimber;
    ///
    /// /// Kayles rows, one row a component.
    /// struct Kayles;
    /// impl ImpartialGame for Kayles {
    ///     type Position = Vec<u32>;
    ///     fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
    ///         let mut out = Vec::new();
    ///         for (i, &n) in p.iter().enumerate() {
    ///             for k in 1..=n.min(2) {
    ///                 for a in 0..=(n - k) / 2 {
    ///                     let mut q: Vec<u32> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
    ///                     q.extend([a, n - k - a].into_iter().filter(|&h| h > 0));
    ///                     q.sort_unstable();
    ///                     out.push(q);
    ///                 }
    ///             }
    ///         }
    ///         out
    ///     }
    ///     fn components(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
    ///         p.iter().map(|&h| vec![h]).collect()
    ///     }
    ///     /// The same options, split: the rows left, with no whole position built.
    ///     fn split_options(&self, p: &Vec<u32>, out: &mut SplitOptions<Vec<u32>>) {
    ///         for (i, &n) in p.iter().enumerate() {
    ///             for k in 1..=n.min(2) {
    ///                 for a in 0..=(n - k) / 2 {
    ///                     for (j, &h) in p.iter().enumerate() {
    ///                         if j != i {
    ///                             out.part(vec![h]);
    ///                         }
    ///                     }
    ///                     for h in [a, n - k - a].into_iter().filter(|&h| h > 0) {
    ///                         out.part(vec![h]);
    ///                     }
    ///                     out.end_option();
    ///                 }
    ///             }
    ///         }
    ///     }
    /// }
    /// assert_eq!(Solver::new(Kayles).value(&vec![5, 7]).unwrap(), Nimber(4 ^ 2));
    /// ```
    fn split_options(&self, position: &Self::Position, out: &mut SplitOptions<Self::Position>) {
        for option in self.options(position) {
            for part in self.components(&option) {
                out.part(part);
            }
            out.end_option();
        }
    }
}

/// The options of a position, each as the list of its components: what
/// [`ImpartialGame::split_options`] writes to. The generic engine keeps one for its whole
/// search (the options of every position on its stack, one after another), so listing
/// options allocates nothing once it has grown.
///
/// ```
/// use grundy::game::SplitOptions;
/// let mut out = SplitOptions::new();
/// out.part(3u32);
/// out.part(4);
/// out.end_option(); // the option 3 + 4
/// out.end_option(); // an option with no components: the empty position
/// assert_eq!(out.option_count(), 2);
/// assert_eq!(out.option(0), &[3, 4]);
/// assert_eq!(out.option(1), &[] as &[u32]);
/// ```
#[derive(Clone, Debug)]
pub struct SplitOptions<P> {
    parts: Vec<P>,
    /// For each option, the end of its parts in `parts`.
    ends: Vec<usize>,
}

impl<P> Default for SplitOptions<P> {
    fn default() -> Self {
        Self::new()
    }
}

impl<P> SplitOptions<P> {
    /// An empty list.
    pub fn new() -> Self {
        SplitOptions {
            parts: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// Adds a component to the option being listed.
    pub fn part(&mut self, component: P) {
        self.parts.push(component);
    }

    /// Closes the option being listed (with the parts added since the last option).
    pub fn end_option(&mut self) {
        self.ends.push(self.parts.len());
    }

    /// Adds one option per item, each made of that one component: the same as
    /// `part(c); end_option();` for each, in one pass (the common case of a game that is one
    /// component, like a Wythoff queen or a Nim heap).
    ///
    /// ```
    /// use grundy::game::SplitOptions;
    /// let mut out = SplitOptions::new();
    /// out.single_part_options(0u32..3);
    /// assert_eq!(out.option_count(), 3);
    /// assert_eq!(out.option(2), &[2]);
    /// ```
    pub fn single_part_options(&mut self, components: impl IntoIterator<Item = P>) {
        // Parts of an unclosed option join the first new one, as with `part` and
        // `end_option`.
        let start = self.parts.len();
        self.parts.extend(components);
        let end = self.parts.len();
        self.ends.extend(start + 1..=end);
    }

    /// How many options are listed.
    pub fn option_count(&self) -> usize {
        self.ends.len()
    }

    /// How many components the listed options hold in all (closed or not).
    pub fn part_count(&self) -> usize {
        self.parts.len()
    }

    /// The components of option `i`.
    ///
    /// # Panics
    /// If `i` is not below [`option_count`](Self::option_count).
    pub fn option(&self, i: usize) -> &[P] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.parts[start..self.ends[i]]
    }

    /// Where option `i` starts in [`parts`](Self::parts): the end of option `i - 1`.
    ///
    /// # Panics
    /// If `i` is above [`option_count`](Self::option_count).
    pub(crate) fn start_of(&self, i: usize) -> usize {
        if i == 0 { 0 } else { self.ends[i - 1] }
    }

    /// The end of each option's parts in [`parts`](Self::parts), option by option.
    pub(crate) fn ends(&self) -> &[usize] {
        &self.ends
    }

    /// Every listed part, option after option.
    pub(crate) fn parts(&self) -> &[P] {
        &self.parts
    }

    /// The components from index `start` of all listed parts on.
    pub(crate) fn parts_from(&self, start: usize) -> &[P] {
        &self.parts[start..]
    }

    /// The bytes the list holds inline (its capacity, not counting what the parts own).
    pub(crate) fn inline_bytes(&self) -> u64 {
        let parts = self.parts.capacity() as u64 * std::mem::size_of::<P>() as u64;
        parts.saturating_add(self.ends.capacity() as u64 * 8)
    }

    /// Forgets every option from option `options` on (and any unclosed parts), keeping
    /// the allocation.
    pub fn truncate(&mut self, options: usize) {
        if options < self.ends.len() {
            self.ends.truncate(options);
        }
        let parts = self.ends.last().copied().unwrap_or(0);
        self.parts.truncate(parts);
    }
}

impl<G: ImpartialGame + ?Sized> ImpartialGame for &G {
    type Position = G::Position;
    fn options(&self, position: &Self::Position) -> Vec<Self::Position> {
        (**self).options(position)
    }
    fn components(&self, position: &Self::Position) -> Vec<Self::Position> {
        (**self).components(position)
    }
    fn option_bound(&self, position: &Self::Position) -> Option<u64> {
        (**self).option_bound(position)
    }
    fn position_words(&self, position: &Self::Position) -> u64 {
        (**self).position_words(position)
    }
    fn dense_index(&self, position: &Self::Position) -> Option<u64> {
        (**self).dense_index(position)
    }
    fn is_terminal(&self, position: &Self::Position) -> bool {
        (**self).is_terminal(position)
    }
    fn split_options(&self, position: &Self::Position, out: &mut SplitOptions<Self::Position>) {
        (**self).split_options(position, out)
    }
}
