//! What the generic engines spend, checked against the budget before they spend it: the
//! positions they store, the moves they list and the bytes their table and search stack take.

use super::{Budget, BudgetError};
use crate::game::ImpartialGame;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};

/// The bytes the allocator takes for a block that holds `words` 64-bit words: a header of
/// 8 bytes, rounded up to 16, at least 32 (the glibc allocator's chunks). Growing vectors
/// keep spare room: a quarter more is counted for it. 0 for positions that own nothing.
pub(super) fn block_bytes(words: u64) -> u64 {
    if words == 0 {
        return 0;
    }
    let asked = words.saturating_mul(10); // 8 bytes a word, and a quarter more of room
    asked.saturating_add(8).saturating_add(15) / 16 * 16
}

/// The bytes a table of the engine holds: its slots (at its real capacity, plus one control
/// byte each) and the blocks its keys own.
pub(super) fn table_bytes<K, V, S>(table: &HashMap<K, V, S>, owned: u64) -> u64 {
    let slot = (std::mem::size_of::<(K, V)>() as u64).saturating_add(1);
    (table.capacity() as u64)
        .saturating_mul(slot)
        .saturating_add(owned)
}

/// What an engine holds besides its table's slots: the blocks the table's keys own, and
/// the blocks the options listed on its search stack own.
#[derive(Debug, Default)]
pub(super) struct Holdings {
    /// The bytes the keys of the table own.
    pub(super) owned: u64,
    /// The bytes the options on the search stack own.
    pub(super) stack: u64,
}

/// What opening a position will cost, worked out before its options are listed.
#[derive(Debug)]
pub(super) struct Opening {
    /// The words the position owns.
    pub(super) words: u64,
    /// The bytes its key will own in the table.
    pub(super) owned: u64,
}

/// The checks every engine makes before it opens `position` (lists its options and stores it
/// in `table`, a table of `(position, V)` entries whose keys own `owned` bytes): the position
/// limit, the work its option bound announces, and the bytes of the table (grown if it is
/// full), of the search stack (`stack` bytes) and of the options about to be listed, each
/// about `option_size` bytes inline plus what a position like this one owns.
pub(super) fn admit<G, V, S>(
    game: &G,
    budget: &Budget,
    table: &HashMap<G::Position, V, S>,
    owned_by_keys: u64,
    stack: u64,
    position: &G::Position,
    option_size: u64,
) -> Result<Opening, BudgetError>
where
    G: ImpartialGame + ?Sized,
    G::Position: Hash + Eq,
    S: BuildHasher,
{
    budget.check_positions(table.len().saturating_add(1))?;
    let bound = game.option_bound(position);
    if let Some(bound) = bound {
        budget.afford(bound)?;
    }
    let words = game.position_words(position);
    let owned = block_bytes(words);
    // A full table doubles: the old slots and the new are held together while it grows.
    let mut table_now = table_bytes(table, owned_by_keys.saturating_add(owned));
    if table.len() == table.capacity() {
        let slot = (std::mem::size_of::<(G::Position, V)>() as u64).saturating_add(1);
        let grown = (table.capacity() as u64).max(2).saturating_mul(2);
        table_now = table_now.saturating_add(grown.saturating_mul(slot));
    }
    let listing = bound
        .unwrap_or(0)
        .saturating_mul(option_size.saturating_add(owned));
    budget.check_bytes(table_now.saturating_add(stack).saturating_add(listing), 1)?;
    Ok(Opening { words, owned })
}

/// Charges the work of listing `options` options of a position that owns `words` words:
/// listing an option costs in proportion to the words it copies.
pub(super) fn charge_listing(
    budget: &Budget,
    options: usize,
    words: u64,
) -> Result<(), BudgetError> {
    budget.charge(
        (options as u64)
            .saturating_add(1)
            .saturating_mul(words.saturating_add(1)),
    )
}

/// Checks the bytes held once a position's options are listed (their real number and
/// size): the table, whose keys own `owned` bytes, and a search stack of `stack` bytes.
pub(super) fn check_held<K, V, S>(
    budget: &Budget,
    table: &HashMap<K, V, S>,
    owned: u64,
    stack: u64,
) -> Result<(), BudgetError> {
    budget
        .check_bytes(table_bytes(table, owned).saturating_add(stack), 1)
        .map(|_| ())
}

/// Reserves room for one more entry, fallibly: a table the machine cannot grow is an error
/// naming the memory limit, not an abort.
pub(super) fn reserve_one<K: Hash + Eq, V, S: BuildHasher>(
    budget: &Budget,
    table: &mut HashMap<K, V, S>,
) -> Result<(), BudgetError> {
    table.try_reserve(1).map_err(|_| BudgetError::Memory {
        needed: None,
        limit: budget.limits().max_bytes,
    })
}
