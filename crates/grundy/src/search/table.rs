//! The transposition table of the position search: what is known of each component (its
//! value, or values below 32 it is known not to have), in buckets of eight slots (16 bytes
//! each for a `u64` key) with a 16-bit tag per slot. A key lives in its home bucket, or in the partner bucket next to it when its
//! home is full, so a lookup reads at most sixteen tags (one cache line: the tags of a
//! pair of buckets are 32 adjacent bytes) and compares the full key of matching tags only.
//!
//! The table grows by doubling while it is less than three-quarters full (or when a pair
//! of buckets is full and the table three-eighths full), up to a capacity fixed by the
//! budget (its position and memory limits). Otherwise it degrades by replacement: a new
//! entry takes the place of the entry in its pair of buckets that cost the least work to
//! find. Nothing is ever wrong because of a lost entry; it is only searched again.

use crate::control::{Budget, BudgetError};
use std::hash::{Hash, Hasher};

/// Slots per bucket.
const WAYS: usize = 8;
/// No value stored.
const NO_VALUE: u16 = u16::MAX;
/// The first size of the table, in slots.
const INITIAL_SLOTS: usize = 1 << 12;

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
    pub fn excludes(&self, n: u32) -> bool {
        n < 64 && self.excluded & (1 << n) != 0
    }

    /// Whether every value below `n` is known not to be the value.
    pub fn excludes_all_below(&self, n: u32) -> bool {
        n == 0 || (n <= 64 && (!self.excluded).trailing_zeros() >= n)
    }
}

/// One entry: 16 bytes with a `u64` key (the table's memory is mostly misses: a smaller
/// slot is a faster table).
#[derive(Clone, Copy, Debug, Default)]
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
    slots: Vec<Slot<K>>,
    /// A 16-bit fingerprint of each slot's key (never 0), or 0 for an unused slot: a
    /// lookup reads the bucket's tags (one cache line) and compares the keys of matching
    /// tags only, so a miss touches no slot.
    tags: Vec<u16>,
    entries: usize,
    peak: usize,
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

fn hash<K: Hash>(key: &K) -> u64 {
    let mut h = MixHasher::default();
    key.hash(&mut h);
    h.finish()
}

/// The tag of a hash: its top 16 bits, never 0.
fn tag_of(hash: u64) -> u16 {
    ((hash >> 48) as u16).max(1)
}

/// The most slots a table may have under the budget's position and memory limits (a power
/// of two).
fn max_slots<K>(budget: &Budget) -> usize {
    let limits = budget.limits();
    let slot = std::mem::size_of::<Slot<K>>() as u64 + 2;
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
        let max_slots = max_slots::<K>(budget);
        let first = INITIAL_SLOTS.min(max_slots);
        let mut slots = budget.vec_with_capacity(first)?;
        slots.resize(first, Slot::default());
        let mut tags = budget.vec_with_capacity(first)?;
        tags.resize(first, 0);
        Ok(Table {
            slots,
            tags,
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
        let max_slots = max_slots::<K>(budget);
        if self.slots.len() > max_slots {
            return false;
        }
        self.max_slots = max_slots;
        self.budget = budget.clone();
        true
    }

    /// The first slot of the bucket of a hash, and the tag.
    fn place(&self, hash: u64) -> (usize, u16) {
        let buckets = self.slots.len() / WAYS;
        ((hash as usize & (buckets - 1)) * WAYS, tag_of(hash))
    }

    /// The slot holding `key` in the pair of buckets from `b` (its home) and `b ^ WAYS`
    /// (its partner), if any.
    fn find(&self, b: usize, tag: u16, key: &K) -> Option<usize> {
        // Slots of a bucket fill in order and are never emptied, and a key goes to its
        // partner bucket only when its home is full: an unused slot at home ends the
        // search, and one in the partner ends it there.
        for home in [b, b ^ WAYS] {
            for (i, &t) in self.tags[home..home + WAYS].iter().enumerate() {
                if t == 0 {
                    return None;
                }
                if t == tag && self.slots[home + i].key == *key {
                    return Some(home + i);
                }
            }
        }
        None
    }

    /// The first unused slot of the pair of buckets from `b`, home first.
    fn free_slot(&self, b: usize) -> Option<usize> {
        [b, b ^ WAYS].into_iter().find_map(|home| {
            self.tags[home..home + WAYS]
                .iter()
                .position(|&t| t == 0)
                .map(|i| home + i)
        })
    }

    /// What is known of `key`, if it is stored.
    pub fn get(&self, key: &K) -> Option<Knowledge> {
        let (b, tag) = self.place(hash(key));
        self.find(b, tag, key).map(|i| self.slots[i].known())
    }

    /// Stores what is known of `key`, merging with what was stored; `work` is what finding
    /// it cost.
    pub fn update(&mut self, key: K, known: Knowledge, work: u32) -> Result<(), BudgetError> {
        // Values beyond u16 are not stored (no game here comes near).
        let value = match known.value {
            Some(v) if v < u32::from(NO_VALUE) => v as u16,
            _ => NO_VALUE,
        };
        let (b, tag) = self.place(hash(&key));
        if let Some(i) = self.find(b, tag, &key) {
            let s = &mut self.slots[i];
            if s.value == NO_VALUE {
                s.value = value;
            }
            s.excluded |= known.excluded as u32;
            s.work = work_code(work_of(s.work).saturating_add(u64::from(work)));
            return Ok(());
        }
        let slot = Slot {
            key,
            excluded: known.excluded as u32,
            work: work_code(u64::from(work)),
            value,
        };
        if let Some(i) = self.free_slot(b) {
            self.slots[i] = slot;
            self.tags[i] = tag;
            self.entries += 1;
            self.peak = self.peak.max(self.entries);
            if self.entries * 4 > self.slots.len() * 3 {
                self.grow()?;
            }
            return Ok(());
        }
        // A full pair of buckets in a table three-eighths full or more grows the table
        // (below capacity); in an emptier table (rare), or at capacity, it replaces.
        if self.slots.len() < self.max_slots && self.entries * 8 >= self.slots.len() * 3 {
            self.grow()?;
            return self.update(key, known, work);
        }
        // A full pair: replace its cheapest entry (the new key may take a slot of the
        // partner bucket, as its home is full).
        let victim = (b..b + WAYS)
            .chain(b ^ WAYS..(b ^ WAYS) + WAYS)
            .min_by_key(|&i| self.slots[i].work)
            .unwrap_or(b);
        self.slots[victim] = slot;
        self.tags[victim] = tag;
        self.replaced += 1;
        Ok(())
    }

    /// Doubles the table (if below capacity), placing every entry again.
    fn grow(&mut self) -> Result<(), BudgetError> {
        let new_len = self.slots.len() * 2;
        if new_len > self.max_slots {
            return Ok(());
        }
        let mut slots = self.budget.vec_with_capacity(new_len)?;
        slots.resize(new_len, Slot::default());
        let mut tags = self.budget.vec_with_capacity(new_len)?;
        tags.resize(new_len, 0u16);
        let old = std::mem::replace(&mut self.slots, slots);
        let old_tags = std::mem::replace(&mut self.tags, tags);
        for (s, t) in old.into_iter().zip(old_tags) {
            if t == 0 {
                continue;
            }
            let (b, tag) = self.place(hash(&s.key));
            // Doubling splits each pair of buckets in two pairs, each taking at most the
            // sixteen entries of the old pair: there is always room.
            if let Some(i) = self.free_slot(b) {
                self.slots[i] = s;
                self.tags[i] = tag;
            }
        }
        Ok(())
    }
}

impl<K> Table<K> {
    /// Entries stored now.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The most entries stored at once.
    pub fn peak(&self) -> usize {
        self.peak
    }

    /// Entries overwritten because the table was full.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// The bytes the table holds now.
    pub fn bytes(&self) -> usize {
        self.slots.len() * (std::mem::size_of::<Slot<K>>() + 2)
    }

    /// The most slots the table may have.
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
        assert!(t.replaced() * 1000 < keys.len() as u64, "{}", t.replaced());
        // At most seven-eighths empty.
        assert!(t.bytes() <= 8 * keys.len() * (std::mem::size_of::<Slot<u64>>() + 2));
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
