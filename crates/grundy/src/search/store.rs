//! Where a search keeps what it proved: a [`Table`] of its own, or a [`SharedTable`] that
//! the threads of a parallel search read and write together.
//!
//! The shared table is [`SHARDS`] tables, each behind its own lock, a key going to the shard
//! named by the high bits of its hash (a table places keys by the low bits, so the shards
//! fill evenly). A lookup holds one shard's lock for one probe, so two threads meet on a
//! lock about once in [`SHARDS`] lookups made at the same moment. Each shard grows and
//! replaces on its own, up to a [`SHARDS`]-th of the budget's limits.

use super::table::{self, KeyBytes, Knowledge, NO_VALUE, Record, Table};
use crate::control::{Budget, BudgetError};
use std::cell::Cell;
use std::fmt;
use std::hash::Hash;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

/// The shards of a [`SharedTable`] (a power of two).
pub const SHARDS: usize = 64;

/// Slots of the marks of components being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 16;

/// A table the threads of one search share.
#[derive(Debug)]
pub struct SharedTable<K> {
    shards: Box<[Mutex<Table<K>>]>,
    /// Components some thread is searching now: the hash of each (made odd, so that 0 is
    /// free), in the slot its hash names; a slot taken keeps the first. A mark is a hint:
    /// a component not marked for want of a slot is only searched twice.
    busy: Box<[AtomicU64]>,
}

impl<K: Copy + Default + Eq + Hash> SharedTable<K> {
    /// An empty shared table bounded by the budget's position and memory limits.
    pub fn new(budget: &Budget) -> Result<Self, BudgetError> {
        let shards = (0..SHARDS)
            .map(|_| Table::part(budget, SHARDS).map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(SharedTable {
            shards: shards.into_boxed_slice(),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    fn busy_slot(key: &K) -> (u64, usize) {
        let h = table::hash(key) | 1;
        (h, (h >> 20) as usize & (BUSY_SLOTS - 1))
    }

    /// Marks `key` as being searched, if its slot is free: the slot, to unmark.
    pub fn mark_busy(&self, key: &K) -> Option<usize> {
        let (h, slot) = Self::busy_slot(key);
        let free = self.busy[slot].compare_exchange(0, h, Ordering::Relaxed, Ordering::Relaxed);
        free.ok().map(|_| slot)
    }

    /// Ends a mark of [`SharedTable::mark_busy`].
    pub fn unmark_busy(&self, slot: usize) {
        self.busy[slot].store(0, Ordering::Relaxed);
    }

    /// Whether `key` is marked as being searched.
    pub fn is_busy(&self, key: &K) -> bool {
        let (h, slot) = Self::busy_slot(key);
        self.busy[slot].load(Ordering::Relaxed) == h
    }

    fn shard(&self, key: &K) -> MutexGuard<'_, Table<K>> {
        self.shard_of(table::hash(key))
    }

    /// The shard of a key whose hash is `h`.
    fn shard_of(&self, h: u64) -> MutexGuard<'_, Table<K>> {
        let i = (h >> (64 - SHARDS.trailing_zeros())) as usize;
        // A poisoned shard (a thread panicked holding it) still holds only proved facts.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl<K> SharedTable<K> {
    /// Each shard, locked in turn.
    fn each(&self) -> impl Iterator<Item = MutexGuard<'_, Table<K>>> {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// Slots of a thread's [`Near`] values (a power of two): 512 KiB with `u64` keys.
const NEAR_SLOTS: usize = 1 << 15;

/// A thread's own copy of values it read from, or wrote to, a shared table lately: one
/// slot a hash, the last key in it kept. A value, once proved, never changes, so a copy is
/// never out of date; reading it takes no lock, and leaves the shared table's lines alone
/// (a lock taken is a line written, which the other core must fetch back).
pub struct Near<K> {
    slots: Box<[Cell<(K, u16)>]>,
}

impl<K: Copy + Default + Eq> Near<K> {
    fn new() -> Self {
        Near {
            slots: (0..NEAR_SLOTS)
                .map(|_| Cell::new((K::default(), NO_VALUE)))
                .collect(),
        }
    }

    fn slot(h: u64) -> usize {
        (h >> 32) as usize & (NEAR_SLOTS - 1)
    }

    /// The value of the key whose hash is `h`, if copied here.
    fn get(&self, h: u64, key: &K) -> Option<u32> {
        let (k, v) = self.slots[Self::slot(h)].get();
        (v != NO_VALUE && k == *key).then_some(u32::from(v))
    }

    /// Copies the value of a key (one that fits 16 bits).
    fn put(&self, h: u64, key: K, value: u32) {
        if let Ok(v) = u16::try_from(value) {
            if v != NO_VALUE {
                self.slots[Self::slot(h)].set((key, v));
            }
        }
    }
}

impl<K> fmt::Debug for Near<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Near({} slots)", self.slots.len())
    }
}

/// A search's table: its own, or one shared by the threads of a parallel search.
#[derive(Debug)]
pub enum Store<K> {
    /// A table of one search, read and written without locks.
    Own(Table<K>),
    /// A table shared by threads, with this thread's copies of values.
    Shared(Arc<SharedTable<K>>, Near<K>),
}

impl<K: Copy + Default + Eq + Hash> Store<K> {
    /// An empty table for a search under `budget`: shared when its limits allow more than
    /// one thread ([`crate::control::Limits::max_threads`]).
    pub fn new(budget: &Budget) -> Result<Self, BudgetError> {
        Ok(if budget.limits().max_threads > 1 {
            Store::shared(Arc::new(SharedTable::new(budget)?))
        } else {
            Store::Own(Table::new(budget)?)
        })
    }

    /// A thread's place in a shared table.
    pub fn shared(table: Arc<SharedTable<K>>) -> Self {
        Store::Shared(table, Near::new())
    }

    /// What is known of `key`, if it is stored.
    pub fn get(&self, key: &K) -> Option<Knowledge> {
        match self {
            Store::Own(t) => t.get(key),
            Store::Shared(s, near) => {
                let h = table::hash(key);
                if let Some(v) = near.get(h, key) {
                    return Some(Knowledge {
                        value: Some(v),
                        excluded: 0,
                    });
                }
                let known = s.shard_of(h).get(key);
                if let Some(Knowledge { value: Some(v), .. }) = known {
                    near.put(h, *key, v);
                }
                known
            }
        }
    }

    /// Stores what is known of `key` ([`Table::update`]).
    pub fn update(&mut self, key: K, known: Knowledge, work: u32) -> Result<(), BudgetError> {
        match self {
            Store::Own(t) => t.update(key, known, work),
            Store::Shared(s, near) => {
                let h = table::hash(&key);
                if let Some(v) = known.value {
                    near.put(h, key, v);
                }
                s.shard_of(h).update(key, known, work)
            }
        }
    }

    /// Makes the table count against `budget` from now on, if its limits allow the table as
    /// it is ([`Table::rebind`]).
    pub fn rebind(&mut self, budget: &Budget) -> bool {
        match self {
            Store::Own(t) => t.rebind(budget),
            Store::Shared(s, _) => s.each().all(|mut t| t.rebind_part(budget, SHARDS)),
        }
    }

    /// The same table shared, for a thread more (an own table is moved into a shared one
    /// first, entry by entry).
    pub fn share(&mut self, budget: &Budget) -> Result<Arc<SharedTable<K>>, BudgetError> {
        if let Store::Own(t) = self {
            let shared = SharedTable::new(budget)?;
            for (key, known, work) in t.entries() {
                shared.shard(&key).update(key, known, work)?;
            }
            *self = Store::shared(Arc::new(shared));
        }
        match self {
            Store::Shared(s, _) => Ok(Arc::clone(s)),
            Store::Own(_) => unreachable!("made shared above"),
        }
    }
}

impl<K> Store<K> {
    /// Entries stored now.
    pub fn len(&self) -> usize {
        match self {
            Store::Own(t) => t.len(),
            Store::Shared(s, _) => s.each().map(|t| t.len()).sum(),
        }
    }

    /// The most entries stored at once (for a shared table, the sum of each shard's most:
    /// an upper bound).
    pub fn peak(&self) -> usize {
        match self {
            Store::Own(t) => t.peak(),
            Store::Shared(s, _) => s.each().map(|t| t.peak()).sum(),
        }
    }

    /// The bytes of the table now.
    pub fn bytes(&self) -> usize {
        match self {
            Store::Own(t) => t.bytes(),
            Store::Shared(s, _) => s.each().map(|t| t.bytes()).sum(),
        }
    }

    /// Entries overwritten because the table was full.
    pub fn replaced(&self) -> u64 {
        match self {
            Store::Own(t) => t.replaced(),
            Store::Shared(s, _) => s.each().map(|t| t.replaced()).sum(),
        }
    }
}

impl<K: Copy + Default + Eq + Hash + KeyBytes> Store<K> {
    /// Calls `f` with every entry as a record, until it returns `false`.
    pub fn each_record(&self, f: &mut dyn FnMut(Record) -> bool) {
        match self {
            Store::Own(t) => {
                for r in t.records() {
                    if !f(r) {
                        return;
                    }
                }
            }
            Store::Shared(s, _) => {
                for t in s.each() {
                    for r in t.records() {
                        if !f(r) {
                            return;
                        }
                    }
                }
            }
        }
    }

    /// Makes room for `more` entries ([`Table::reserve`]).
    pub fn reserve(&mut self, more: usize) -> Result<(), BudgetError> {
        match self {
            Store::Own(t) => t.reserve(more),
            Store::Shared(s, _) => {
                for mut t in s.each() {
                    t.reserve(more / SHARDS + 1)?;
                }
                Ok(())
            }
        }
    }

    /// Stores a record read back ([`Table::restore`]).
    pub fn restore(&mut self, record: Record) -> Result<bool, BudgetError> {
        match self {
            Store::Own(t) => t.restore(record),
            Store::Shared(s, _) => match K::from_bytes(record.0) {
                Some(key) => s.shard(&key).restore(record),
                None => Ok(false),
            },
        }
    }
}
