//! The generic engine's array of values, for components that have a dense index
//! ([`ImpartialGame::dense_index`](crate::game::ImpartialGame::dense_index)).
//!
//! A slot per index holds a component's value in 32 bits, or one of two marks: [`UNKNOWN`]
//! (not solved) and [`ON_STACK`] (being solved, to find cycles). A value always fits: the
//! engine puts a component here only if it has fewer than [`ON_STACK`] options, and a
//! component's value is at most its number of options. Reading a value is one array load
//! instead of a hash and a key comparison; with a layout that keeps a position's options
//! near each other (a row of a board stored in a row of the array) some of the loads even
//! share cache lines.
//!
//! The array grows on demand (doubling, so growth costs O(1) a slot amortised), each growth
//! checked first against the memory limit (the old and new arrays are held together while
//! it moves) and reserved fallibly; it never passes four slots per storable position. An
//! index beyond what it may grow to is not an error: that component goes to the hash table.

use super::Budget;

/// The slot of a component not solved (or out of the array).
pub(super) const UNKNOWN: u32 = u32::MAX;
/// The slot of a component on the search stack.
pub(super) const ON_STACK: u32 = u32::MAX - 1;

/// The fewest slots the array may grow to, whatever the position limit.
const MIN_SLOTS: u64 = 1 << 16;

/// Values of indexed components, by index.
#[derive(Debug, Default)]
pub(super) struct DenseTable {
    slots: Vec<u32>,
    /// How many slots hold a value or [`ON_STACK`]: the components stored here.
    filled: usize,
}

impl DenseTable {
    /// The slot at `index`: a value, [`ON_STACK`], or [`UNKNOWN`] (also past the end).
    #[inline]
    pub(super) fn get(&self, index: u64) -> u32 {
        usize::try_from(index)
            .ok()
            .and_then(|i| self.slots.get(i))
            .copied()
            .unwrap_or(UNKNOWN)
    }

    /// How many components the array holds (solved or on the stack).
    pub(super) fn filled(&self) -> usize {
        self.filled
    }

    /// The bytes the array holds.
    pub(super) fn bytes(&self) -> u64 {
        (self.slots.capacity() as u64).saturating_mul(4)
    }

    /// Marks the component at `index` (an index [`make_room`](Self::make_room) made room
    /// for, whose slot is [`UNKNOWN`]) as on the search stack.
    pub(super) fn open(&mut self, index: usize) {
        debug_assert_eq!(self.slots[index], UNKNOWN);
        self.slots[index] = ON_STACK;
        self.filled += 1;
    }

    /// Records the value of the component at `index`, which is on the stack.
    pub(super) fn solve(&mut self, index: usize, value: u32) {
        debug_assert_eq!(self.slots[index], ON_STACK);
        debug_assert!(value < ON_STACK);
        self.slots[index] = value;
    }

    /// Forgets the component at `index`, on the stack of an abandoned search.
    pub(super) fn forget(&mut self, index: usize) {
        debug_assert_eq!(self.slots[index], ON_STACK);
        self.slots[index] = UNKNOWN;
        self.filled -= 1;
    }

    /// Grows the array to hold `index` if needed and allowed: at most four slots per
    /// position the budget lets the engine store (and at least [`MIN_SLOTS`]), and the
    /// grown array, the old one while it moves and `other` bytes held elsewhere within the
    /// memory limit. Whether `index` has a slot now; `false` sends its component to the
    /// hash table.
    pub(super) fn make_room(&mut self, index: u64, budget: &Budget, other: u64) -> bool {
        if index < self.slots.len() as u64 {
            return true;
        }
        let limits = budget.limits();
        let most = (limits.max_positions as u64)
            .saturating_mul(4)
            .max(MIN_SLOTS);
        let Some(needed) = index.checked_add(1).filter(|&n| n <= most) else {
            return false;
        };
        let grown = needed
            .max((self.slots.len() as u64).saturating_mul(2))
            .min(most);
        let Ok(grown) = usize::try_from(grown) else {
            return false;
        };
        // Old and new arrays together while the slots move.
        let held = other
            .saturating_add(self.bytes())
            .saturating_add((grown as u64).saturating_mul(4));
        if budget.check_bytes(held, 1).is_err() {
            return false;
        }
        if self
            .slots
            .try_reserve_exact(grown - self.slots.len())
            .is_err()
        {
            return false;
        }
        self.slots.resize(grown, UNKNOWN);
        true
    }
}
