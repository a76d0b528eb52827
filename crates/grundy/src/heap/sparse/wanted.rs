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
}

impl Default for Wanted {
    fn default() -> Self {
        Wanted {
            table: Box::new([0; 1 << 16]),
            list: Vec::new(),
            missing: 0,
            lanes: [0; LIST],
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
        }
    }

    /// Scans the pairs `(low[i], high[high.len() - 1 - i])` (the split values `g(a) ^ g(m -
    /// a)` for `a` from `low`'s first heap on: `low = g(from..=to)`, `high = g(m - to..=m -
    /// from)`) in chunks of [`CHUNK`], striking off every wanted value found, until none is
    /// wanted or the pairs end. Returns how many pairs were read (whole chunks, or all).
    pub fn scan(&mut self, low: &[u16], high: &[u16]) -> usize {
        let len = low.len();
        debug_assert_eq!(len, high.len());
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
            let (low_rest, high_rest) = (&low[i..], &high[..len - i]);
            i += match self.missing {
                0..=2 => first_hit::<2>(low_rest, high_rest, &self.lanes),
                3..=4 => first_hit::<4>(low_rest, high_rest, &self.lanes),
                5..=8 => first_hit::<8>(low_rest, high_rest, &self.lanes),
                _ => first_hit::<LIST>(low_rest, high_rest, &self.lanes),
            };
            if len - i >= CHUNK {
                let xs = chunk_at(low, high, i);
                self.strike_all(xs.iter().copied());
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
        #![proptest_config(ProptestConfig::with_cases(300))]

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

        /// The scan strikes off exactly the wanted values among the split values it reads,
        /// and reads on until none is wanted.
        #[test]
        fn scan_finds_what_a_direct_loop_finds(
            values in prop::collection::vec(0u16..40, 2..300),
            wanted in prop::collection::btree_set(0u16..64, 0..30),
            from in 1usize..50,
        ) {
            let m = values.len() - 1;
            let to = m / 2;
            prop_assume!(from <= to);
            let mut w = Wanted::default();
            for &v in &wanted {
                w.add(v);
            }
            w.ready();
            let read = w.scan(&values[from..=to], &values[m - to..=m - from]);
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
