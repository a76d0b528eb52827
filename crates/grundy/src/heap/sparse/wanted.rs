//! The rare values a heap still needs, and the scan of split pairs that looks for them.
//!
//! Once the rare-partner marks give the candidate `c`, the rare values below `c` not yet
//! marked are *wanted*: each must be some split value `g(a) ^ g(m - a)` of two common heaps,
//! or `g(n)` is the smallest one missing. The scan runs `a = 1, 2, ...` until none is wanted.
//! It is a coupon collection: a few values are found at once, and most of the pairs are
//! read while the last one or two are still missing (Grundy's game: some 3000 pairs a heap).
//!
//! So the test of a chunk of 16 pairs changes with the number `k` of values wanted: many,
//! a byte table looked up once per pair; at most [`LIST`], the 16 nim-sums are compared with
//! each wanted value in turn, lane by lane, which the compiler turns into vector compares
//! (8 lanes of 16 bits with SSE2) — about `k / 4` instructions a pair instead of some six.
//! Only a chunk with a hit is walked again, pair by pair, to strike off what it found.

/// Up to this many wanted values are compared lane by lane; more go through the byte table.
pub(crate) const LIST: usize = 16;
/// Pairs tested at once.
pub(crate) const CHUNK: usize = 16;

/// The wanted values of one heap: a byte table over all 16-bit values and their list.
#[derive(Debug, Clone)]
pub(crate) struct Wanted {
    table: Box<[u8; 1 << 16]>,
    /// The values wanted, and while more than [`LIST`] are, possibly some struck off since
    /// (the table says which).
    list: Vec<u16>,
    /// How many values are wanted (`list.len()` once at most [`LIST`] are).
    missing: usize,
    /// `list` padded to [`LIST`] entries with copies of its first (when it is that short).
    lanes: [u16; LIST],
    /// The low bytes of `lanes`, for the byte filter ([`first_hit_bytes`]).
    lanes8: [u8; LIST],
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted {
            table: Box::new([0; 1 << 16]),
            list: Vec::new(),
            missing: 0,
            lanes: [0; LIST],
            lanes8: [0; LIST],
        }
    }
}

impl Wanted {
    /// Marks `v` wanted (it must not be already).
    #[inline]
    pub fn add(&mut self, v: u16) {
        debug_assert_eq!(self.table[v as usize], 0);
        self.table[v as usize] = 1;
        self.list.push(v);
        self.missing += 1;
    }

    /// Call after the last [`add`](Self::add) and before scanning.
    #[inline]
    pub fn ready(&mut self) {
        self.refresh_lanes();
    }

    /// How many values are still wanted.
    #[inline]
    pub fn missing(&self) -> usize {
        self.missing
    }

    /// Whether `v` is wanted.
    #[inline]
    pub fn contains(&self, v: u16) -> bool {
        self.table[v as usize] != 0
    }

    /// The values wanted; while more than [`LIST`] are, also some struck off since they
    /// were added ([`contains`](Self::contains) tells which).
    pub fn values(&self) -> &[u16] {
        &self.list
    }

    /// The low bytes of the lanes (the list padded to [`LIST`]; while at most [`LIST`] are
    /// wanted), for a byte filter.
    #[inline]
    pub fn lanes8(&self) -> &[u8; LIST] {
        &self.lanes8
    }

    /// The smallest value wanted.
    pub fn lowest(&self) -> Option<u16> {
        self.list
            .iter()
            .copied()
            .filter(|&v| self.contains(v))
            .min()
    }

    /// Wants nothing any more.
    pub fn clear(&mut self) {
        for &v in &self.list {
            self.table[v as usize] = 0;
        }
        self.list.clear();
        self.missing = 0;
    }

    fn refresh_lanes(&mut self) {
        if let Some(&first) = self.list.first()
            && self.list.len() <= LIST
        {
            self.lanes = [first; LIST];
            self.lanes[..self.list.len()].copy_from_slice(&self.list);
            self.lanes8 = self.lanes.map(|v| v as u8);
        }
    }

    /// Scans the pairs `(low[i], high[high.len() - 1 - i])` (the split values `g(a) ^ g(m -
    /// a)` for `a` from `low`'s first heap on: `low = g(from..=to)`, `high = g(m - to..=m -
    /// from)`) in chunks of [`CHUNK`], striking off every wanted value found, until none is
    /// wanted or the pairs end. Returns how many pairs were read (whole chunks, or all).
    ///
    /// `bytes`, if given, are the low bytes of the same pairs in the order of ascending
    /// `a` ([`super::shadow::Shadow::pairs`]): chunks are then filtered 16 lanes at a time
    /// by [`first_hit_bytes`] (the values found, and the count returned, are the same).
    pub fn scan(&mut self, low: &[u16], high: &[u16], bytes: Option<(&[u8], &[u8])>) -> usize {
        let len = low.len();
        debug_assert_eq!(len, high.len());
        debug_assert!(bytes.is_none_or(|(l, h)| l.len() == len && h.len() == len));
        let mut i = 0;
        while i < len && self.missing > 0 {
            if len - i < CHUNK {
                let pairs = low[i..]
                    .iter()
                    .zip(high[..len - i].iter().rev())
                    .map(|(&l, &h)| l ^ h);
                self.strike_all(pairs);
                return len;
            }
            if self.missing > LIST {
                // Many wanted (the first chunks): most chunks hit, so every chunk is struck
                // off at once, with no test first.
                let xs = chunk_at(low, high, i);
                self.strike_all(xs.iter().copied());
                i += CHUNK;
                continue;
            }
            // Few wanted: the chunks with no hit are skipped by a tight vector loop.
            i += if let Some((low8, high8)) = bytes {
                let (low8, high8) = (&low8[i..], &high8[i..]);
                match self.missing {
                    0..=2 => first_hit_bytes::<2>(low8, high8, &self.lanes8),
                    3..=4 => first_hit_bytes::<4>(low8, high8, &self.lanes8),
                    5..=8 => first_hit_bytes::<8>(low8, high8, &self.lanes8),
                    _ => first_hit_bytes::<LIST>(low8, high8, &self.lanes8),
                }
            } else {
                let (low_rest, high_rest) = (&low[i..], &high[..len - i]);
                match self.missing {
                    0..=2 => first_hit::<2>(low_rest, high_rest, &self.lanes),
                    3..=4 => first_hit::<4>(low_rest, high_rest, &self.lanes),
                    5..=8 => first_hit::<8>(low_rest, high_rest, &self.lanes),
                    _ => first_hit::<LIST>(low_rest, high_rest, &self.lanes),
                }
            };
            if len - i >= CHUNK {
                let xs = chunk_at(low, high, i);
                self.strike_all(xs.iter().copied());
                i += CHUNK;
            }
        }
        i
    }

    /// As [`scan`](Self::scan) on pairs whose values are all below 256, from their byte
    /// copies alone (`low[i] ^ high[i]`, both in the order of ascending `a`: exact there).
    /// For the spread probes (module `spread`): their 16-bit values would be fresh cache
    /// lines, where the byte copies the filter read are loaded already.
    pub fn scan_bytes(&mut self, low: &[u8], high: &[u8]) -> usize {
        let len = low.len().min(high.len());
        let xors = |from: usize, to: usize| {
            low[from..to]
                .iter()
                .zip(&high[from..to])
                .map(|(&l, &h)| u16::from(l ^ h))
        };
        let mut i = 0;
        while i < len && self.missing > 0 {
            if len - i < CHUNK || self.missing > LIST {
                let end = (i + CHUNK).min(len);
                self.strike_all(xors(i, end));
                i = end;
                continue;
            }
            let (low_rest, high_rest) = (&low[i..len], &high[i..len]);
            i += match self.missing {
                0..=2 => first_hit_bytes::<2>(low_rest, high_rest, &self.lanes8),
                3..=4 => first_hit_bytes::<4>(low_rest, high_rest, &self.lanes8),
                5..=8 => first_hit_bytes::<8>(low_rest, high_rest, &self.lanes8),
                _ => first_hit_bytes::<LIST>(low_rest, high_rest, &self.lanes8),
            };
            if len - i >= CHUNK {
                self.strike_all(xors(i, i + CHUNK));
                i += CHUNK;
            }
        }
        i
    }

    /// Strikes off the values of `xs` that are wanted (branch-free: a hit is frequent in
    /// the first chunks and unpredictable). The list (and the lanes) follow only once at
    /// most [`LIST`] values are wanted: while many are, rebuilding the list after every
    /// chunk cost more than the chunks (a quarter of Grundy's game).
    fn strike_all(&mut self, xs: impl Iterator<Item = u16>) {
        let before = self.missing;
        for x in xs {
            let t = &mut self.table[x as usize];
            self.missing -= usize::from(*t);
            *t = 0;
        }
        if self.missing != before && self.missing <= LIST {
            let table = &self.table;
            self.list.retain(|&v| table[v as usize] != 0);
            self.refresh_lanes();
        }
    }
}

/// The 16 split values `g(a + t) ^ g(m - a - t)` for `t` in `0..16` (`a + 15 <= m - a`).
#[inline(always)]
pub(crate) fn chunk_xors(values: &[u16], m: usize, a: usize) -> [u16; CHUNK] {
    let l: &[u16; CHUNK] = values[a..a + CHUNK].try_into().expect("a chunk");
    let h: &[u16; CHUNK] = values[m + 1 - a - CHUNK..=m - a]
        .try_into()
        .expect("a chunk");
    std::array::from_fn(|k| l[k] ^ h[CHUNK - 1 - k])
}

/// The 16 split values of the chunk at `i` of a scan: `low[i + k] ^ high[len - 1 - i - k]`.
#[inline(always)]
fn chunk_at(low: &[u16], high: &[u16], i: usize) -> [u16; CHUNK] {
    let len = low.len();
    let l: &[u16; CHUNK] = low[i..i + CHUNK].try_into().expect("a chunk");
    let h: &[u16; CHUNK] = high[len - i - CHUNK..len - i].try_into().expect("a chunk");
    std::array::from_fn(|k| l[k] ^ h[CHUNK - 1 - k])
}

/// The offset of the first whole chunk of the pairs `(low[i], high[len - 1 - i])` whose
/// nim-sums meet one of the first `N` lanes, or the length of the whole chunks if none
/// does (a multiple of [`CHUNK`]). The loop has no branch but the hit test: the compiler
/// turns each chunk into a few vector xors and compares.
#[inline(never)]
pub(crate) fn first_hit<const N: usize>(low: &[u16], high: &[u16], lanes: &[u16; LIST]) -> usize {
    let lanes: &[u16; N] = lanes[..N].try_into().expect("N <= LIST");
    for (c, (l, h)) in low
        .chunks_exact(CHUNK)
        .zip(high.rchunks_exact(CHUNK))
        .enumerate()
    {
        let l: &[u16; CHUNK] = l.try_into().expect("a chunk");
        let h: &[u16; CHUNK] = h.try_into().expect("a chunk");
        let xs: [u16; CHUNK] = std::array::from_fn(|k| l[k] ^ h[CHUNK - 1 - k]);
        let mut acc = [0u16; CHUNK];
        for &r in lanes {
            for k in 0..CHUNK {
                acc[k] |= u16::from(xs[k] == r).wrapping_neg();
            }
        }
        if acc.iter().fold(0, |a, &b| a | b) != 0 {
            return c * CHUNK;
        }
    }
    low.len().min(high.len()) / CHUNK * CHUNK
}

/// As [`first_hit`] on the low bytes of the pairs, both parts in the order of ascending
/// `a` (`low[i] ^ high[i]`; [`super::shadow::Shadow::pairs`]), against the low bytes of the
/// first `N` lanes: a chunk reported may hold no real hit (two values past 255 with the
/// same low byte), but none with a real hit is passed over. Two loads, a xor and `2N` lane
/// operations per 16 pairs, with no shuffle.
#[inline(never)]
pub(crate) fn first_hit_bytes<const N: usize>(
    low: &[u8],
    high: &[u8],
    lanes: &[u8; LIST],
) -> usize {
    let lanes: &[u8; N] = lanes[..N].try_into().expect("N <= LIST");
    for (c, (l, h)) in low
        .chunks_exact(CHUNK)
        .zip(high.chunks_exact(CHUNK))
        .enumerate()
    {
        let l: &[u8; CHUNK] = l.try_into().expect("a chunk");
        let h: &[u8; CHUNK] = h.try_into().expect("a chunk");
        let xs: [u8; CHUNK] = std::array::from_fn(|k| l[k] ^ h[k]);
        let mut acc = [0u8; CHUNK];
        for &r in lanes {
            for k in 0..CHUNK {
                acc[k] |= u8::from(xs[k] == r).wrapping_neg();
            }
        }
        if acc.iter().fold(0, |a, &b| a | b) != 0 {
            return c * CHUNK;
        }
    }
    low.len().min(high.len()) / CHUNK * CHUNK
}

/// Whether any of the 16 nim-sums equals one of the first `count` lanes (`1 <= count <=
/// LIST`; the lanes past `count` repeat a wanted value).
#[inline(always)]
pub(crate) fn any_wanted(count: usize, xs: &[u16; CHUNK], lanes: &[u16; LIST]) -> bool {
    match count {
        0..=2 => any_of::<2>(xs, lanes),
        3..=4 => any_of::<4>(xs, lanes),
        5..=8 => any_of::<8>(xs, lanes),
        _ => any_of::<LIST>(xs, lanes),
    }
}

/// Whether any of the 16 nim-sums equals one of the first `N` lanes.
#[inline(always)]
fn any_of<const N: usize>(xs: &[u16; CHUNK], lanes: &[u16; LIST]) -> bool {
    let mut acc = [0u16; CHUNK];
    for &r in &lanes[..N] {
        for k in 0..CHUNK {
            acc[k] |= u16::from(xs[k] == r);
        }
    }
    acc.iter().fold(0, |a, &b| a | b) != 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::heap::sparse::tests::cases(300)))]

        /// The vector loop stops at the first chunk a plain loop over the pairs finds a
        /// wanted value in (or after the whole chunks).
        #[test]
        fn first_hit_matches_a_plain_loop(
            low in prop::collection::vec(0u16..48, 0..200),
            high_extra in prop::collection::vec(0u16..48, 0..20),
            wanted in prop::collection::vec(0u16..64, 1..=LIST),
        ) {
            let high: Vec<u16> = low.iter().rev().map(|&v| v ^ 7).chain(high_extra).collect();
            let high = &high[high.len() - low.len()..];
            let mut lanes = [wanted[0]; LIST];
            lanes[..wanted.len()].copy_from_slice(&wanted);
            let whole = low.len() / CHUNK * CHUNK;
            let plain = (0..whole)
                .find(|&i| wanted.contains(&(low[i] ^ high[low.len() - 1 - i])))
                .map_or(whole, |i| i / CHUNK * CHUNK);
            let got = match wanted.len() {
                0..=2 => first_hit::<2>(&low, high, &lanes),
                3..=4 => first_hit::<4>(&low, high, &lanes),
                5..=8 => first_hit::<8>(&low, high, &lanes),
                _ => first_hit::<LIST>(&low, high, &lanes),
            };
            prop_assert_eq!(got, plain);
        }

        /// The byte filter stops at the first chunk whose low bytes meet a wanted low byte:
        /// never after the first chunk with a real hit, and exactly there when every value
        /// is below 256.
        #[test]
        fn first_hit_bytes_matches_a_plain_loop(
            values in prop::collection::vec(0u16..600, 3..400),
            wanted in prop::collection::vec(0u16..700, 1..=LIST),
            from in 0usize..40,
        ) {
            let m = values.len() - 1;
            let to = m / 2;
            let from = from.min(to);
            let len = to + 1 - from;
            let low8: Vec<u8> = (from..=to).map(|a| values[a] as u8).collect();
            let high8: Vec<u8> = (from..=to).map(|a| values[m - a] as u8).collect();
            let mut lanes = [wanted[0]; LIST];
            lanes[..wanted.len()].copy_from_slice(&wanted);
            let lanes8 = lanes.map(|v| v as u8);
            let whole = len / CHUNK * CHUNK;
            let chunk_of = |test: &dyn Fn(usize) -> bool| {
                (0..whole).find(|&i| test(i)).map_or(whole, |i| i / CHUNK * CHUNK)
            };
            let real = chunk_of(&|i| wanted.contains(&(values[from + i] ^ values[m - from - i])));
            let low_bytes = chunk_of(&|i| {
                wanted.iter().any(|&w| w as u8 == low8[i] ^ high8[i])
            });
            let got = match wanted.len() {
                0..=2 => first_hit_bytes::<2>(&low8, &high8, &lanes8),
                3..=4 => first_hit_bytes::<4>(&low8, &high8, &lanes8),
                5..=8 => first_hit_bytes::<8>(&low8, &high8, &lanes8),
                _ => first_hit_bytes::<LIST>(&low8, &high8, &lanes8),
            };
            prop_assert_eq!(got, low_bytes);
            prop_assert!(got <= real);
            if values.iter().all(|&v| v < 256) && wanted.iter().all(|&v| v < 256) {
                prop_assert_eq!(got, real);
            }
        }

        /// With the byte filter, the scan finds the same values and reads the same pairs
        /// as without it (values past 255, so that low bytes collide).
        #[test]
        fn byte_filter_changes_nothing(
            values in prop::collection::vec(0u16..600, 3..600),
            wanted in prop::collection::btree_set(0u16..700, 0..40),
            from in 1usize..50,
        ) {
            let m = values.len() - 1;
            let to = m / 2;
            let from = from.min(to);
            let low8: Vec<u8> = (from..=to).map(|a| values[a] as u8).collect();
            let high8: Vec<u8> = (from..=to).map(|a| values[m - a] as u8).collect();
            let (mut plain, mut filtered) = (Wanted::default(), Wanted::default());
            for w in [&mut plain, &mut filtered] {
                for &v in &wanted {
                    w.add(v);
                }
                w.ready();
            }
            let (low, high) = (&values[from..=to], &values[m - to..=m - from]);
            let read_plain = plain.scan(low, high, None);
            let read_filtered = filtered.scan(low, high, Some((&low8, &high8)));
            prop_assert_eq!(read_plain, read_filtered);
            prop_assert_eq!(plain.missing(), filtered.missing());
            for &v in &wanted {
                prop_assert_eq!(plain.contains(v), filtered.contains(v));
            }
        }

        /// On values below 256, the scan of the byte copies alone finds the same values and
        /// reads the same pairs as the scan of the values.
        #[test]
        fn byte_scan_matches_the_scan(
            values in prop::collection::vec(0u16..256, 3..600),
            wanted in prop::collection::btree_set(0u16..256, 0..40),
            from in 1usize..50,
        ) {
            let m = values.len() - 1;
            let to = m / 2;
            let from = from.min(to);
            let low8: Vec<u8> = (from..=to).map(|a| values[a] as u8).collect();
            let high8: Vec<u8> = (from..=to).map(|a| values[m - a] as u8).collect();
            let (mut plain, mut bytes) = (Wanted::default(), Wanted::default());
            for w in [&mut plain, &mut bytes] {
                for &v in &wanted {
                    w.add(v);
                }
                w.ready();
            }
            let read = plain.scan(&values[from..=to], &values[m - to..=m - from], None);
            prop_assert_eq!(bytes.scan_bytes(&low8, &high8), read);
            prop_assert_eq!(plain.missing(), bytes.missing());
            for &v in &wanted {
                prop_assert_eq!(plain.contains(v), bytes.contains(v));
            }
        }

        /// The scan strikes off exactly the wanted values among the split values it reads,
        /// and reads on until none is wanted.
        #[test]
        fn scan_finds_what_a_direct_loop_finds(
            values in prop::collection::vec(0u16..40, 3..300),
            wanted in prop::collection::btree_set(0u16..64, 0..30),
            from in 1usize..50,
        ) {
            let m = values.len() - 1;
            let to = m / 2;
            let from = from.min(to);
            let mut w = Wanted::default();
            for &v in &wanted {
                w.add(v);
            }
            w.ready();
            let read = w.scan(&values[from..=to], &values[m - to..=m - from], None);
            let found: Vec<u16> = wanted.iter().copied().filter(|&v| !w.contains(v)).collect();
            // Directly: walk the pairs until everything wanted is found.
            let mut left = wanted.clone();
            let mut expected = Vec::new();
            let mut a = from;
            while a <= to && !left.is_empty() {
                let x = values[a] ^ values[m - a];
                if left.remove(&x) {
                    expected.push(x);
                }
                a += 1;
            }
            let mut sorted = found.clone();
            sorted.sort_unstable();
            expected.sort_unstable();
            prop_assert_eq!(sorted, expected);
            prop_assert_eq!(w.missing(), left.len());
            prop_assert_eq!(w.lowest(), left.iter().next().copied());
            for v in 0..64u16 {
                prop_assert_eq!(w.contains(v), left.contains(&v));
            }
            // It stops within the chunk that found the last value (or at the end).
            if left.is_empty() && !wanted.is_empty() {
                prop_assert!(read >= a - from && read < a - from + CHUNK, "{} {}", read, a);
            } else if wanted.is_empty() {
                prop_assert_eq!(read, 0);
            } else {
                prop_assert_eq!(read, to + 1 - from);
            }
            w.clear();
            prop_assert_eq!(w.missing(), 0);
            prop_assert!(w.table.iter().all(|&b| b == 0));
        }
    }
}
