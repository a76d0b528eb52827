//! The transposition table of the position search: what is known of each component (its
//! value, or values below 32 it is known not to have), in buckets of four slots aligned to
//! a cache line (a slot is 16 bytes for a `u64` key: a bucket is one 64-byte line). A key
//! lives in its home bucket, or in its partner (the other bucket of the same 128-byte pair)
//! when its home is full, so a lookup reads one cache line, or two adjacent ones when the
//! home is full, and compares the keys there (no separate array of tags to read first).
//!
//! The table grows by doubling while it is less than three-quarters full (or when a pair
//! of buckets is full and the table three-eighths full), up to a capacity fixed by the
//! budget (its position and memory limits). Otherwise it degrades by replacement: a new
//! entry takes the place of the entry in its pair of buckets that cost the least work to
//! find. Nothing is ever wrong because of a lost entry; it is only searched again.

use crate::control::{Budget, BudgetError};
use std::hash::{Hash, Hasher};

/// Slots per bucket.
const WAYS: usize = 4;
/// No value stored.
pub(super) const NO_VALUE: u16 = u16::MAX;
/// The first size of the table, in buckets.
const INITIAL_BUCKETS: usize = 1 << 10;

/// What is known of one component.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Knowledge {
    /// The value, once known.
    pub value: Option<u32>,
    /// Bit `k` set: the value is known not to be `k` (for `k < 64`; the table keeps the
    /// bits below 32).
    pub excluded: u64,
}

impl Knowledge {
    /// Whether the value is known not to be `n`.
    #[cfg(test)]
    pub fn excludes(&self, n: u32) -> bool {
        n < 64 && self.excluded & (1 << n) != 0
    }

    /// Whether every value below `n` is known not to be the value.
    #[cfg(test)]
    pub fn excludes_all_below(&self, n: u32) -> bool {
        n == 0 || (n <= 64 && (!self.excluded).trailing_zeros() >= n)
    }
}

/// One entry: 16 bytes with a `u64` key (the table's memory is mostly misses: a smaller
/// slot is a faster table).
#[derive(Clone, Copy, Debug)]
struct Slot<K> {
    key: K,
    /// Bit `k`: the value is known not to be `k`, for `k < 32` (exclusions of larger values
    /// are dropped: they only prune, and the values of these games are small).
    excluded: u32,
    /// The work spent on this entry (nodes searched below it), as [`work_code`]: the
    /// cheapest is replaced.
    work: u16,
    /// The value, or `NO_VALUE`.
    value: u16,
}

impl<K> Slot<K> {
    fn known(&self) -> Knowledge {
        Knowledge {
            value: (self.value != NO_VALUE).then_some(u32::from(self.value)),
            excluded: u64::from(self.excluded),
        }
    }

    /// Whether the slot holds an entry (an entry always knows something: its value or a
    /// value excluded).
    fn used(&self) -> bool {
        self.value != NO_VALUE || self.excluded != 0
    }
}

impl<K: Default> Slot<K> {
    fn empty() -> Self {
        Slot {
            key: K::default(),
            excluded: 0,
            work: 0,
            value: NO_VALUE,
        }
    }
}

/// Four slots in one cache line (for `u64` keys; two lines for `u128` keys).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
struct Bucket<K> {
    slots: [Slot<K>; WAYS],
}

impl<K: Copy + Default> Bucket<K> {
    fn empty() -> Self {
        Bucket {
            slots: [Slot::empty(); WAYS],
        }
    }
}

/// A count of work in 16 bits, keeping its order: exact below 1024, then ten bits of
/// mantissa after the leading one (so within 0.1 %).
fn work_code(w: u64) -> u16 {
    if w < 1024 {
        return w as u16;
    }
    let e = 63 - w.leading_zeros();
    (((e - 9) << 10) as u64 | ((w >> (e - 10)) & 0x3ff)) as u16
}

/// The work a [`work_code`] stands for (its least).
fn work_of(code: u16) -> u64 {
    let e = u32::from(code >> 10);
    if e == 0 {
        return u64::from(code);
    }
    (u64::from(code & 0x3ff) | 0x400) << (e - 1)
}

/// A hash table from component keys to [`Knowledge`], bounded in size.
#[derive(Debug)]
pub struct Table<K> {
    buckets: Vec<Bucket<K>>,
    entries: usize,
    peak: usize,
    /// The most slots (a power of two, at least two buckets).
    max_slots: usize,
    replaced: u64,
    budget: Budget,
}

/// A hasher that mixes every word fully (the splitmix64 finaliser), so that every bit of a
/// packed position reaches the bucket index. (A multiplicative hash leaves the high bytes of
/// a word out of the low bits of the index, and packed positions differ there.)
#[derive(Default)]
struct MixHasher(u64);

fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = mix(self.0.rotate_left(23) ^ i ^ 0x9e37_79b9_7f4a_7c15);
    }
    fn write_u128(&mut self, i: u128) {
        self.write_u64(i as u64);
        self.write_u64((i >> 64) as u64);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64);
    }
}

pub(super) fn hash<K: Hash>(key: &K) -> u64 {
    let mut h = MixHasher::default();
    key.hash(&mut h);
    h.finish()
}

/// The most slots a table may have under the budget's position and memory limits (a power
/// of two).
fn max_slots<K>(budget: &Budget) -> usize {
    let limits = budget.limits();
    let slot = (std::mem::size_of::<Bucket<K>>() / WAYS) as u64;
    let by_memory = limits.max_bytes / slot.max(1);
    let cap = (limits.max_positions as u64)
        .min(by_memory)
        .max(2 * WAYS as u64);
    // The largest power of two not above the cap.
    1usize << (63 - cap.leading_zeros()).min(40)
}

impl<K: Copy + Default + Eq + Hash> Table<K> {
    /// An empty table whose size is bounded by the budget's position and memory limits.
    pub fn new(budget: &Budget) -> Result<Self, BudgetError> {
        Self::part(budget, 1)
    }

    /// An empty table of at most a `parts`-th of what the budget allows (`parts` a power
    /// of two): one shard of a [`super::store::SharedTable`].
    pub fn part(budget: &Budget, parts: usize) -> Result<Self, BudgetError> {
        let max_slots = (max_slots::<K>(budget) / parts.max(1)).max(2 * WAYS);
        let first = INITIAL_BUCKETS.min(max_slots / WAYS);
        let mut buckets = budget.vec_with_capacity(first)?;
        buckets.resize(first, Bucket::empty());
        Ok(Table {
            buckets,
            entries: 0,
            peak: 0,
            max_slots,
            replaced: 0,
            budget: budget.clone(),
        })
    }

    /// Makes the table count against `budget` from now on, if its limits allow the table as
    /// it is (else `false`: build a new one).
    pub fn rebind(&mut self, budget: &Budget) -> bool {
        self.rebind_part(budget, 1)
    }

    /// [`Table::rebind`] for a table that is a `parts`-th of a shared one.
    pub fn rebind_part(&mut self, budget: &Budget, parts: usize) -> bool {
        let max_slots = (max_slots::<K>(budget) / parts.max(1)).max(2 * WAYS);
        if self.buckets.len() * WAYS > max_slots {
            return false;
        }
        self.max_slots = max_slots;
        self.budget = budget.clone();
        true
    }

    /// The home bucket of a key.
    fn home(&self, key: &K) -> usize {
        hash(key) as usize & (self.buckets.len() - 1)
    }

    /// The place (bucket, slot) of `key` in its home bucket `b` or its partner `b ^ 1`.
    fn find(&self, b: usize, key: &K) -> Option<(usize, usize)> {
        // Slots of a bucket fill in order and are never emptied, and a key goes to its
        // partner bucket only when its home is full: an unused slot at home ends the
        // search, and one in the partner ends it there.
        for home in [b, b ^ 1] {
            for (i, s) in self.buckets[home].slots.iter().enumerate() {
                if !s.used() {
                    return None;
                }
                if s.key == *key {
                    return Some((home, i));
                }
            }
        }
        None
    }

    /// The first unused slot of the pair of buckets from `b`, home first.
    fn free_slot(&self, b: usize) -> Option<(usize, usize)> {
        [b, b ^ 1].into_iter().find_map(|home| {
            self.buckets[home]
                .slots
                .iter()
                .position(|s| !s.used())
                .map(|i| (home, i))
        })
    }

    /// What is known of `key`, if it is stored.
    pub fn get(&self, key: &K) -> Option<Knowledge> {
        self.find(self.home(key), key)
            .map(|(b, i)| self.buckets[b].slots[i].known())
    }

    /// Stores what is known of `key`, merging with what was stored; `work` is what finding
    /// it cost. Knowledge of nothing (no value, no value below 32 excluded) is not stored.
    pub fn update(&mut self, key: K, known: Knowledge, work: u32) -> Result<(), BudgetError> {
        // Values beyond u16 are not stored (no game here comes near).
        let value = match known.value {
            Some(v) if v < u32::from(NO_VALUE) => v as u16,
            _ => NO_VALUE,
        };
        let slot = Slot {
            key,
            excluded: known.excluded as u32,
            work: work_code(u64::from(work)),
            value,
        };
        if !slot.used() {
            return Ok(());
        }
        let b = self.home(&key);
        if let Some((h, i)) = self.find(b, &key) {
            let s = &mut self.buckets[h].slots[i];
            if s.value == NO_VALUE {
                s.value = value;
            }
            s.excluded |= slot.excluded;
            s.work = work_code(work_of(s.work).saturating_add(u64::from(work)));
            return Ok(());
        }
        if let Some((h, i)) = self.free_slot(b) {
            self.buckets[h].slots[i] = slot;
            self.entries += 1;
            self.peak = self.peak.max(self.entries);
            if self.entries * 4 > self.slots() * 3 {
                self.grow()?;
            }
            return Ok(());
        }
        // A full pair of buckets in a table three-eighths full or more grows the table
        // (below capacity); in an emptier table (rare), or at capacity, it replaces.
        if self.slots() < self.max_slots && self.entries * 8 >= self.slots() * 3 {
            self.grow()?;
            return self.update(key, known, work);
        }
        // A full pair: replace its cheapest entry (the new key may take a slot of the
        // partner bucket, as its home is full).
        let (h, i) = [b, b ^ 1]
            .into_iter()
            .flat_map(|h| (0..WAYS).map(move |i| (h, i)))
            .min_by_key(|&(h, i)| self.buckets[h].slots[i].work)
            .unwrap_or((b, 0));
        self.buckets[h].slots[i] = slot;
        self.replaced += 1;
        Ok(())
    }

    /// Doubles the table (if below capacity), placing every entry again.
    fn grow(&mut self) -> Result<(), BudgetError> {
        let new_len = self.buckets.len() * 2;
        if new_len * WAYS > self.max_slots {
            return Ok(());
        }
        let mut buckets = self.budget.vec_with_capacity(new_len)?;
        buckets.resize(new_len, Bucket::empty());
        let old = std::mem::replace(&mut self.buckets, buckets);
        for s in old.iter().flat_map(|b| b.slots.iter()) {
            if !s.used() {
                continue;
            }
            let b = self.home(&s.key);
            // Doubling splits each pair of buckets in two pairs, each taking at most the
            // eight entries of the old pair: there is always room.
            if let Some((h, i)) = self.free_slot(b) {
                self.buckets[h].slots[i] = *s;
            }
        }
        Ok(())
    }
}

/// A key a checkpoint file can hold: 16 bytes, little-endian.
pub trait KeyBytes: Sized {
    /// The key's bytes.
    fn to_bytes(self) -> [u8; 16];
    /// The key of these bytes, if they are one.
    fn from_bytes(bytes: [u8; 16]) -> Option<Self>;
}

impl KeyBytes for u128 {
    fn to_bytes(self) -> [u8; 16] {
        self.to_le_bytes()
    }
    fn from_bytes(bytes: [u8; 16]) -> Option<u128> {
        Some(u128::from_le_bytes(bytes))
    }
}

impl KeyBytes for u64 {
    fn to_bytes(self) -> [u8; 16] {
        u128::from(self).to_le_bytes()
    }
    fn from_bytes(bytes: [u8; 16]) -> Option<u64> {
        u64::try_from(u128::from_le_bytes(bytes)).ok()
    }
}

impl KeyBytes for usize {
    fn to_bytes(self) -> [u8; 16] {
        (self as u128).to_le_bytes()
    }
    fn from_bytes(bytes: [u8; 16]) -> Option<usize> {
        usize::try_from(u128::from_le_bytes(bytes)).ok()
    }
}

/// One entry as a checkpoint file holds it: the key, the values below 32 excluded, the work
/// code, the value (`u16::MAX`: none).
pub type Record = ([u8; 16], u32, u16, u16);

impl<K: Copy> Table<K> {
    /// Every entry: its key, what is known of it, the work it cost.
    pub fn entries(&self) -> impl Iterator<Item = (K, Knowledge, u32)> + '_ {
        self.buckets
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter(|s| s.used())
            .map(|s| {
                let work = u32::try_from(work_of(s.work)).unwrap_or(u32::MAX);
                (s.key, s.known(), work)
            })
    }
}

impl<K: Copy + KeyBytes> Table<K> {
    /// Every entry, as records.
    pub fn records(&self) -> impl Iterator<Item = Record> + '_ {
        self.buckets
            .iter()
            .flat_map(|b| b.slots.iter())
            .filter(|s| s.used())
            .map(|s| (s.key.to_bytes(), s.excluded, s.work, s.value))
    }
}

impl<K: Copy + Default + Eq + Hash + KeyBytes> Table<K> {
    /// Grows the table (up to its capacity) until `more` entries more fit below its growth
    /// threshold: records read back come in the order of another table's buckets, which
    /// would crowd a small table's.
    pub fn reserve(&mut self, more: usize) -> Result<(), BudgetError> {
        let wanted = self.entries.saturating_add(more);
        while wanted.saturating_mul(4) > self.slots() * 3 && self.slots() * 2 <= self.max_slots {
            self.grow()?;
        }
        Ok(())
    }

    /// Stores a record read back (merged with what is known, as [`Table::update`] does);
    /// `false` for bytes that are no key of this table.
    pub fn restore(&mut self, (key, excluded, work, value): Record) -> Result<bool, BudgetError> {
        let Some(key) = K::from_bytes(key) else {
            return Ok(false);
        };
        let known = Knowledge {
            value: (value != NO_VALUE).then_some(u32::from(value)),
            excluded: u64::from(excluded),
        };
        let work = u32::try_from(work_of(work)).unwrap_or(u32::MAX);
        self.update(key, known, work)?;
        Ok(true)
    }
}

impl<K> Table<K> {
    /// Entries stored now.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// The most entries stored at once.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Entries overwritten because the table was full.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// The slots of the table now.
    fn slots(&self) -> usize {
        self.buckets.len() * WAYS
    }

    /// The bytes the table holds now.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket<K>>()
    }

    /// The most slots the table may have.
    #[cfg(test)]
    pub fn capacity(&self) -> usize {
        self.max_slots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Limits;

    #[test]
    fn a_full_table_replaces_and_keeps_answering() {
        let budget = Budget::new(Limits {
            max_positions: 64,
            ..Limits::DEFAULT
        });
        let mut t: Table<u64> = Table::new(&budget).unwrap();
        assert_eq!(t.capacity(), 64);
        for k in 0..1000u64 {
            let known = Knowledge {
                value: Some(k as u32 % 7),
                excluded: 0,
            };
            t.update(k, known, k as u32).unwrap();
        }
        assert!(t.len() <= 64);
        assert!(t.replaced() > 0);
        // Whatever is still stored is right.
        let mut found = 0;
        for k in 0..1000u64 {
            if let Some(kn) = t.get(&k) {
                assert_eq!(kn.value, Some(k as u32 % 7));
                found += 1;
            }
        }
        assert!(found > 0 && found <= 64);
    }

    #[test]
    fn packed_keys_that_differ_in_high_bytes_spread_over_buckets() {
        let budget = Budget::default();
        let mut t: Table<u128> = Table::new(&budget).unwrap();
        // Keys differing only in bytes 6 and 7 (as packed Chomp rows do).
        for a in 0..40u128 {
            for b in 0..40u128 {
                let known = Knowledge {
                    value: Some(1),
                    excluded: 0,
                };
                t.update(0x0101_0101_0101 | a << 48 | b << 56, known, 1)
                    .unwrap();
            }
        }
        assert!(t.replaced() <= 16, "{}", t.replaced());
        assert!(t.len() >= 1584);
    }

    #[test]
    fn below_capacity_the_table_grows_and_loses_only_what_it_replaced() {
        let budget = Budget::default();
        let mut t: Table<u64> = Table::new(&budget).unwrap();
        // Keys that crowd some buckets (multiples of a power of two) and spread ones.
        let keys: Vec<u64> = (0..60_000u64)
            .map(|i| if i % 3 == 0 { i << 20 } else { mix(i) })
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            let known = Knowledge {
                value: Some((k % 1000) as u32),
                excluded: 0,
            };
            t.update(k, known, 1).unwrap();
            // Now and then: every key stored so far is there with its value, but for one
            // key lost to each replacement (a pair of buckets full in a table less than
            // three-eighths full: rare).
            if n % 7919 == 0 || n + 1 == keys.len() {
                let mut found = 0;
                for &k in &keys[..=n] {
                    if let Some(x) = t.get(&k) {
                        assert_eq!(x.value, Some((k % 1000) as u32));
                        found += 1;
                    }
                }
                assert_eq!(found as u64 + t.replaced(), n as u64 + 1);
            }
        }
        // Rare: a pair of buckets holds eight entries, and it fills while the table is less
        // than three-eighths full for about one key in 500 (138 of these 60 000).
        assert!(t.replaced() * 200 < keys.len() as u64, "{}", t.replaced());
        // At most seven-eighths empty.
        assert!(t.bytes() <= 8 * keys.len() * std::mem::size_of::<Slot<u64>>());
    }

    #[test]
    fn work_codes_keep_the_order() {
        let works: Vec<u64> = (0..5000u64)
            .chain((13..64).map(|e| 1u64 << e))
            .chain([u64::MAX])
            .collect();
        for pair in works.windows(2) {
            assert!(work_code(pair[0]) <= work_code(pair[1]), "{pair:?}");
        }
        for &w in &works {
            let back = work_of(work_code(w));
            assert!(back <= w && w - back <= w / 1024, "{w}");
        }
        assert_eq!(std::mem::size_of::<Slot<u64>>(), 16);
        assert_eq!(std::mem::size_of::<Bucket<u64>>(), 64);
        assert_eq!(std::mem::align_of::<Bucket<u64>>(), 64);
    }

    #[test]
    fn knowledge_merges() {
        let budget = Budget::default();
        let mut t: Table<u32> = Table::new(&budget).unwrap();
        let ex = |e| Knowledge {
            value: None,
            excluded: e,
        };
        t.update(5, ex(0b01), 1).unwrap();
        t.update(5, ex(0b10), 1).unwrap();
        let k = t.get(&5).unwrap();
        assert!(k.excludes(0) && k.excludes(1) && !k.excludes(2));
        assert!(k.excludes_all_below(2) && !k.excludes_all_below(3));
    }
}
