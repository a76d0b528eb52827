//! The game side of the position search: the [`SearchGame`] trait a game implements and
//! the [`Options`] list it fills (each option as the components it falls into).

use std::fmt;
use std::hash::Hash;

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

    /// At least the number of options of `key` (the number of moves), if it is cheap to
    /// know. A game that gives it has its options listed one at a time
    /// ([`SearchGame::visit_options`]) when the search asks whether a value is in a set, and
    /// the listing stops as soon as the options already in the table answer the question.
    /// A bound below the true count gives wrong values: leave the default (`None`) unless
    /// it is sure.
    fn option_count(&self, key: &Self::Key) -> Option<u32> {
        let _ = key;
        None
    }

    /// The units of work charged to the budget for each option listed (besides one for
    /// each node). A unit is meant to be 10 to 100 ns of work (see
    /// [`crate::control::Limits`]), so that the default work limit stops a search after
    /// seconds, not minutes; a game whose options cost more to make (simplified, split,
    /// put in canonical form and looked up in a table far larger than the cache) says so.
    fn work_per_option(&self) -> u64 {
        1
    }

    /// The options of `key`, the same as [`SearchGame::options`] in the same order, given to
    /// `visit` one at a time (the parts of each); the listing stops as soon as `visit`
    /// returns `false`. The default lists them all first; a game that gives
    /// [`SearchGame::option_count`] should make each option only when it is visited.
    fn visit_options(&self, key: &Self::Key, visit: &mut dyn FnMut(&[Self::Key]) -> bool) {
        let mut out = Options::default();
        self.options(key, &mut out);
        for parts in out.iter() {
            if !visit(parts) {
                return;
            }
        }
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
