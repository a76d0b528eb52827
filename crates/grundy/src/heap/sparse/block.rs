//! The inner loops of a sparse-space block: marking option values into per-heap bitsets.
//!
//! A block computes heaps `[n0, n0 + len)`. Its first phase, run in parallel over heaps,
//! marks the split values of rare partners far from the heap: a rare position `p >= len`
//! pairs with `m - p < n0`, known before the block. (Marking pairs from the middle of the
//! split range there too was tried and dropped: the rare values a heap needs are found by
//! pairs `(a, m - a)` with small `a` — whose partners are recent values — after some 150 pairs
//! in 0.167, but take thousands of pairs from the middle, where values look independent.)
//!
//! Values in a block stay below `size` (a power of two), so every nim-sum is below `size` too.
//! Heap by heap, when `size <= 128`, the marks are gathered in one or two machine words
//! ([`Word`], four accumulators), which keeps the loops free of memory round trips; above,
//! in a byte table (plain stores). The far phase streams the partners of many heaps at once
//! for every size up to 1024 ([`STREAM`]) into byte tables, packed into words eight bytes
//! at a time ([`pack_bytes`]). A phase may mark only the partners from `start` on (the
//! middle band between the values a far job read and the block's start).

use super::moves::Split;
use super::shadow::Shadow;
use super::wanted::{LIST, Wanted};
use super::wide::{WIDE, mark_wide};

/// A machine word of value marks: `u64` for values below 64, a [`Pair`] of words below 128.
pub(crate) trait Word:
    Copy
    + Default
    + Eq
    + std::ops::BitOr<Output = Self>
    + std::ops::BitOrAssign
    + std::ops::BitAnd<Output = Self>
    + std::ops::Not<Output = Self>
{
    /// Values below this are marked in a word.
    const BITS: usize;
    /// The mark of value `x` (below `BITS`).
    fn mark(x: u16) -> Self;
    /// The first `BITS / 64` words of a bitset.
    fn load(bits: &[u64]) -> Self;
    /// ORs the word into the first `BITS / 64` words of a bitset.
    fn store_or(self, bits: &mut [u64]);
    /// The smallest marked value (`BITS` if none).
    fn lowest(self) -> usize;
    /// The marks of the values below `c`.
    fn below(c: usize) -> Self;
    /// The marked values, ascending, into `lanes` (as many as fit; the lanes past them
    /// repeat the first), and how many are marked.
    fn lanes(self, lanes: &mut [u16; LIST]) -> usize;
}

/// The set bits of `word` (standing for `offset + bit`) into `lanes` from `k` on, while
/// they fit; returns `k` plus the number of bits.
#[inline]
fn word_lanes(mut word: u64, offset: u16, lanes: &mut [u16; LIST], mut k: usize) -> usize {
    while word != 0 {
        if k < LIST {
            lanes[k] = offset + word.trailing_zeros() as u16;
        }
        k += 1;
        word &= word - 1;
    }
    k
}

/// Pads `lanes` past the first `k` with copies of the first.
#[inline]
fn pad_lanes(lanes: &mut [u16; LIST], k: usize) {
    let first = lanes[0];
    for lane in lanes.iter_mut().skip(k) {
        *lane = first;
    }
}

impl Word for u64 {
    const BITS: usize = 64;
    #[inline(always)]
    fn mark(x: u16) -> Self {
        1 << (x & 63)
    }
    #[inline(always)]
    fn load(bits: &[u64]) -> Self {
        bits[0]
    }
    #[inline(always)]
    fn store_or(self, bits: &mut [u64]) {
        bits[0] |= self;
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline(always)]
    fn below(c: usize) -> Self {
        if c >= 64 { u64::MAX } else { (1 << c) - 1 }
    }
    #[inline]
    fn lanes(self, lanes: &mut [u16; LIST]) -> usize {
        let k = word_lanes(self, 0, lanes, 0);
        pad_lanes(lanes, k);
        k
    }
}

/// Marks of the values below 128 as two words (a mark looked up in [`PAIR_MARKS`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(16))]
pub(crate) struct Pair(pub u64, pub u64);

impl std::ops::BitOr for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitor(self, o: Pair) -> Pair {
        Pair(self.0 | o.0, self.1 | o.1)
    }
}

impl std::ops::BitOrAssign for Pair {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Pair) {
        self.0 |= o.0;
        self.1 |= o.1;
    }
}

impl std::ops::BitAnd for Pair {
    type Output = Pair;
    #[inline(always)]
    fn bitand(self, o: Pair) -> Pair {
        Pair(self.0 & o.0, self.1 & o.1)
    }
}

impl std::ops::Not for Pair {
    type Output = Pair;
    #[inline(always)]
    fn not(self) -> Pair {
        Pair(!self.0, !self.1)
    }
}

/// The mark of each value below 128, looked up: one 16-byte load and OR per rare partner
/// (against a shift, a mask and two selects computing it).
static PAIR_MARKS: [Pair; 128] = {
    let mut marks = [Pair(0, 0); 128];
    let mut x = 0;
    while x < 64 {
        marks[x] = Pair(1 << x, 0);
        marks[x + 64] = Pair(0, 1 << x);
        x += 1;
    }
    marks
};

impl Word for Pair {
    const BITS: usize = 128;
    #[inline(always)]
    fn mark(x: u16) -> Self {
        PAIR_MARKS[(x & 127) as usize]
    }
    #[inline(always)]
    fn load(bits: &[u64]) -> Self {
        Pair(bits[0], bits[1])
    }
    #[inline(always)]
    fn store_or(self, bits: &mut [u64]) {
        bits[0] |= self.0;
        bits[1] |= self.1;
    }
    #[inline(always)]
    fn lowest(self) -> usize {
        if self.0 != 0 {
            self.0.trailing_zeros() as usize
        } else {
            64 + self.1.trailing_zeros() as usize
        }
    }
    #[inline(always)]
    fn below(c: usize) -> Self {
        Pair(u64::below(c), u64::below(c.saturating_sub(64)))
    }
    #[inline]
    fn lanes(self, lanes: &mut [u16; LIST]) -> usize {
        let k = word_lanes(self.0, 0, lanes, 0);
        let k = word_lanes(self.1, 64, lanes, k);
        pad_lanes(lanes, k);
        k
    }
}

/// `g(p) ^ g(m - p)` for each rare position `p` (value `g(p)` in `val`) gathered in one
/// word (every value below `W::BITS`).
#[inline]
pub(crate) fn rare_word<W: Word>(values: &[u16], m: usize, pos: &[u32], val: &[u16]) -> W {
    // Four accumulators: the steps are independent but for the OR into the word.
    let mut acc = [W::default(); 4];
    let (pos4, val4) = (pos.chunks_exact(4), val.chunks_exact(4));
    let (pos_rest, val_rest) = (pos4.remainder(), val4.remainder());
    for (p, v) in pos4.zip(val4) {
        for k in 0..4 {
            acc[k] |= W::mark(v[k] ^ values[m - p[k] as usize]);
        }
    }
    for (&p, &v) in pos_rest.iter().zip(val_rest) {
        acc[0] |= W::mark(v ^ values[m - p as usize]);
    }
    acc[0] | acc[1] | acc[2] | acc[3]
}

/// Marks `g(p) ^ g(m - p)` for each rare position of the list in the byte table `seen`
/// (one byte per value: plain stores, with no read-modify-write chain between steps).
#[inline]
pub(crate) fn rare_bytes(seen: &mut [u8], values: &[u16], m: usize, pos: &[u32], val: &[u16]) {
    // The partners g(m - p) for ascending p, read from one slice backwards.
    let Some(&first) = pos.first() else { return };
    let partners = &values[..=m - first as usize];
    for (&p, &v) in pos.iter().zip(val) {
        seen[(v ^ partners[m - p as usize]) as usize] = 1;
    }
}

/// ORs the byte table `seen` (a multiple of 64 long, every byte 0 or 1) into the bitset
/// `row`: eight bytes at a time, gathered into eight bits by one multiplication (byte `i`
/// of the word, 0 or 1, is shifted by `56 - 7i` to bit `56 + i`; no two shifted bits meet,
/// so there is no carry).
#[inline]
pub(crate) fn pack_bytes(seen: &[u8], row: &mut [u64]) {
    const GATHER: u64 = 0x0102_0408_1020_4080;
    for (word, bytes) in row.iter_mut().zip(seen.chunks_exact(64)) {
        *word |= bytes.chunks_exact(8).enumerate().fold(0u64, |acc, (k, b)| {
            let x = u64::from_le_bytes(b.try_into().expect("eight bytes"));
            debug_assert_eq!(x & !0x0101_0101_0101_0101, 0, "bytes are 0 or 1");
            acc | (x.wrapping_mul(GATHER) >> 56) << (8 * k)
        });
    }
}

/// `g(a) ^ g(m - a)` for `a` in `from..=to` gathered in one word (every value below
/// `W::BITS`). (A four-accumulator form that the compiler turns into SSE2 code measured no
/// faster: SSE2 has no per-lane variable shift.)
#[inline]
pub(crate) fn range_word<W: Word>(values: &[u16], m: usize, from: usize, to: usize) -> W {
    if from > to {
        return W::default();
    }
    let low = &values[from..=to];
    let high = &values[m - to..=m - from];
    low.iter()
        .zip(high.iter().rev())
        .fold(W::default(), |acc, (&l, &h)| acc | W::mark(l ^ h))
}

/// What the first phase of a block reads.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FarPhase<'a> {
    /// `values[i]` is `g(base + i)`; it reaches up to `g(known - 1)`, and down far enough for
    /// every far partner `m - p` of the block (and to `g(0)` when `scan` is set).
    pub values: &'a [u16],
    /// The heap `values[0]` stands for.
    pub base: usize,
    /// The first heap of the block.
    pub n0: usize,
    /// Every value below `known` is known (`known <= n0`).
    pub known: usize,
    /// Only partners `m - p` from `start` on are marked (0: all below `known`; the
    /// streamed sizes only).
    pub start: usize,
    /// The rare positions listed so far, ascending, and their values: those whose partner
    /// `m - p` is below `known` are marked here, the others by the heap-by-heap phase.
    pub rare_pos: &'a [u32],
    pub rare_val: &'a [u16],
    /// Two-heap split removals.
    pub split2: &'a [Split],
    /// Every value is below `size`.
    pub size: usize,
    /// The common values (a bitset of at least `2 * size` bits), for the scan.
    pub common: &'a [u64],
    /// Whether to scan the splits whose parts are both below `known` too (values above
    /// 128 only), so that the heap-by-heap phase is left with the near splits.
    pub scan: bool,
    /// With `scan`: the first pairs of each far range marked unconditionally before the
    /// scan ([`FarPhase::mark_early`]).
    pub early: usize,
    /// With `scan`: byte copies of the values (from `g(0)` on, `base` 0) for the scan's
    /// vector filter (module `shadow`), or `None` to filter on the values themselves.
    pub bytes: Option<&'a Shadow>,
    /// With `scan`: the offsets of the spread early marks and probes, made before the scan
    /// reads its range in order (module `spread`; empty: the early marks are the first
    /// pairs, and nothing is probed).
    pub spread: &'a [u32],
}

/// The work of a far phase: rare-partner nim-sums (wide marks included), split pairs
/// scanned (all), and of those, the pairs of the spread probes and those read in order
/// past the early marks (module `spread`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Steps {
    pub rare: u64,
    pub scan: u64,
    pub probed: u64,
    pub after: u64,
}

impl std::ops::Add for Steps {
    type Output = Steps;
    fn add(self, o: Steps) -> Steps {
        Steps {
            rare: self.rare + o.rare,
            scan: self.scan + o.scan,
            probed: self.probed + o.probed,
            after: self.after + o.after,
        }
    }
}

/// The part of a split's range already scanned: every split value `g(a) ^ g(m - a)` below
/// `below` for `a` in `from..=to` is marked in the heap's row (none when `from > to`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scanned {
    pub from: usize,
    pub to: usize,
    pub below: usize,
}

impl Scanned {
    pub const NONE: Scanned = Scanned {
        from: 1,
        to: 0,
        below: 0,
    };
}

/// Heaps whose rare partners are marked together, one rare position at a time: the
/// partners `g(m - p)` of consecutive heaps are consecutive values, read in order, and each
/// nim-sum goes to its own heap's byte table (`STREAM` tables of up to 1 KiB stay in the
/// first-level cache). Against one heap at a time (a gather of partners scattered over the
/// values for each heap): about half the instructions per rare partner.
const STREAM: usize = 64;

/// Marks `v ^ partners[t]` in `rows[t]`: every value below `S`.
///
/// Four partners are read as one word and nim-summed with `v` at once (`v` spread over the
/// four 16-bit lanes), each lane then shifted out: some three instructions a mark instead
/// of four (a load, a xor, a mask and the store).
#[inline(always)]
fn stream<const S: usize>(rows: &mut [[u8; S]], partners: &[u16], v: u16) {
    let spread = u64::from(v) * 0x0001_0001_0001_0001;
    let len = rows.len().min(partners.len());
    let (rows, partners) = (&mut rows[..len], &partners[..len]);
    let mut rows4 = rows.chunks_exact_mut(4);
    let mut parts4 = partners.chunks_exact(4);
    for (rows, part) in (&mut rows4).zip(&mut parts4) {
        let w = part
            .iter()
            .rev()
            .fold(0u64, |acc, &g| acc << 16 | u64::from(g))
            ^ spread;
        for (k, row) in rows.iter_mut().enumerate() {
            row[(w >> (16 * k)) as u16 as usize % S] = 1;
        }
    }
    for (row, &g) in rows4.into_remainder().iter_mut().zip(parts4.remainder()) {
        row[(v ^ g) as usize % S] = 1;
    }
}

/// Marks `v ^ partners[t]` in `rows[t]`, from the byte copies of the values: every value
/// below 256, `S` at least 256. Eight partners at a time, as [`stream`] does four.
#[inline(always)]
fn stream_bytes<const S: usize>(rows: &mut [[u8; S]], partners: &[u8], v: u8) {
    let spread = u64::from(v) * 0x0101_0101_0101_0101;
    let len = rows.len().min(partners.len());
    let (rows, partners) = (&mut rows[..len], &partners[..len]);
    let mut rows8 = rows.chunks_exact_mut(8);
    let mut parts8 = partners.chunks_exact(8);
    for (rows, part) in (&mut rows8).zip(&mut parts8) {
        let w = u64::from_le_bytes(part.try_into().expect("eight bytes")) ^ spread;
        for (k, row) in rows.iter_mut().enumerate() {
            row[usize::from((w >> (8 * k)) as u8) % S] = 1;
        }
    }
    for (row, &g) in rows8.into_remainder().iter_mut().zip(parts8.remainder()) {
        row[usize::from(v ^ g) % S] = 1;
    }
}

/// Marks `low[i] ^ high[i]` in `table` for every `i`: eight pairs nim-summed in one word,
/// each byte then shifted out (as [`stream_bytes`] does).
#[inline(always)]
pub(crate) fn mark_xors(table: &mut [u8; 256], low: &[u8], high: &[u8]) {
    let (low8, high8) = (low.chunks_exact(8), high.chunks_exact(8));
    let (low_rest, high_rest) = (low8.remainder(), high8.remainder());
    for (l, h) in low8.zip(high8) {
        let l = u64::from_le_bytes(l.try_into().expect("eight bytes"));
        let h = u64::from_le_bytes(h.try_into().expect("eight bytes"));
        let w = l ^ h;
        for k in 0..8 {
            table[usize::from((w >> (8 * k)) as u8)] = 1;
        }
    }
    for (&l, &h) in low_rest.iter().zip(high_rest) {
        table[usize::from(l ^ h)] = 1;
    }
}

/// Runs `mark` on `rows` and `partners`, leaving out the one at `own` (a rare position
/// paired with itself, where the parts must be unequal).
#[inline(always)]
fn stream_split<R, P>(
    rows: &mut [R],
    partners: &[P],
    own: Option<usize>,
    mut mark: impl FnMut(&mut [R], &[P]),
) {
    match own {
        None => mark(rows, partners),
        Some(cut) => {
            mark(&mut rows[..cut], &partners[..cut]);
            mark(&mut rows[cut + 1..], &partners[cut + 1..]);
        }
    }
}

thread_local! {
    /// The scan's table (64 KiB) of each thread, kept from call to call (empty between):
    /// zeroing a new one for every part of every block cost some 4% of Grundy's game.
    static SCRATCH: std::cell::RefCell<Option<Wanted>> = const { std::cell::RefCell::new(None) };
}

/// This thread's empty [`Wanted`] (a new one if it has none or lends it out).
fn take_wanted() -> Wanted {
    SCRATCH
        .with(|cell| cell.borrow_mut().take())
        .unwrap_or_default()
}

/// The most pairs of a heap's far scan range marked unconditionally before the scan (see
/// [`FarPhase::mark_early`]; the engine marks half the average far scan of the last
/// block, up to this). Grundy's game to 10^6 (scans of some 3000 pairs), user time against
/// none with a fixed length: 0.96 with 256, 0.87 with 768, 0.90 with 1536. With eight
/// pairs marked from one word ([`mark_xors`]), to `2^22`, pairs in turn: 1152 against 768
/// 0.905, 1536 against 1152 1.00.
pub(crate) const MAX_EARLY: usize = 1152;

/// The most pairs of one split the far phase scans for a heap; the rest, if ever needed (a
/// new rare value), is left to the heap-by-heap phase.
const FAR_SCAN_LIMIT: usize = 1 << 16;

impl FarPhase<'_> {
    /// The first rare position whose partner under a split of `m` lies below `known`.
    #[inline]
    pub fn far_from(known: usize, m: usize) -> usize {
        (m + 1).saturating_sub(known)
    }

    /// Fills the rows of heaps `n0 + first ..` (one bitset of `words` words each) and, with
    /// `scan`, the ranges scanned (one per heap and split); returns the work done
    /// ([`Steps`]).
    pub fn fill(
        &self,
        first: usize,
        rows: &mut [u64],
        scanned: &mut [Scanned],
        words: usize,
    ) -> Steps {
        match self.size {
            ..=64 if !self.scan => return self.fill_streamed::<64>(first, rows, scanned, words),
            128 if !self.scan => return self.fill_streamed::<128>(first, rows, scanned, words),
            256 => return self.fill_streamed::<256>(first, rows, scanned, words),
            512 => return self.fill_streamed::<512>(first, rows, scanned, words),
            1024 => return self.fill_streamed::<1024>(first, rows, scanned, words),
            _ => {}
        }
        let mut steps = Steps::default();
        let mut seen = vec![0u8; self.size];
        let mut wanted = self.scan.then(take_wanted);
        let largest = self.rare_pos.last().map_or(0, |&p| p as usize);
        let splits = self.split2.len();
        for (k, row) in rows.chunks_exact_mut(words).enumerate() {
            let n = self.n0 + first + k;
            let (mut narrow, mut wide) = (0u64, Pair::default());
            for &split in self.split2 {
                if n < split.j + 2 {
                    continue;
                }
                let m = n - split.j;
                let lo = self
                    .rare_pos
                    .partition_point(|&p| (p as usize) < Self::far_from(self.known, m));
                let hi = if m > largest {
                    self.rare_pos.len()
                } else {
                    self.rare_pos.partition_point(|&p| (p as usize) < m)
                };
                if lo >= hi {
                    continue;
                }
                steps.rare += (hi - lo) as u64;
                // Partners `m - p` are read at `values[m - p - base]`: every far `p < m`
                // has `m - p >= base`, so `m - base >= p`.
                let local = m - self.base;
                let (far_pos, far_val) = (&self.rare_pos[lo..hi], &self.rare_val[lo..hi]);
                for range in split.partners(far_pos, m) {
                    let (pos, val) = (&far_pos[range.clone()], &far_val[range]);
                    if self.size <= 64 {
                        narrow |= rare_word::<u64>(self.values, local, pos, val);
                    } else if self.size <= 128 {
                        wide |= rare_word::<Pair>(self.values, local, pos, val);
                    } else {
                        rare_bytes(&mut seen, self.values, local, pos, val);
                    }
                }
            }
            if self.size <= 64 {
                narrow.store_or(row);
            } else if self.size <= 128 {
                wide.store_or(row);
            } else {
                if self.scan {
                    steps.scan += self.mark_early(n, &mut seen);
                }
                pack_bytes(&seen, row);
                seen.fill(0);
                if self.scan {
                    let ranges = &mut scanned[k * splits..(k + 1) * splits];
                    let wanted = wanted.get_or_insert_with(take_wanted);
                    steps = steps + self.scan_far(n, row, wanted, ranges);
                }
            }
        }
        if let Some(wanted) = wanted {
            SCRATCH.with(|cell| *cell.borrow_mut() = Some(wanted));
        }
        steps
    }

    /// As [`fill`](Self::fill) for values below `S` (past 128): the rare partners streamed
    /// (see [`STREAM`]), then each heap's scan.
    fn fill_streamed<const S: usize>(
        &self,
        first: usize,
        rows: &mut [u64],
        scanned: &mut [Scanned],
        words: usize,
    ) -> Steps {
        debug_assert!(self.size <= S && (self.size == S || S == 64));
        let mut steps = Steps::default();
        let mut seen: Vec<[u8; S]> = std::iter::repeat_n([0u8; S], STREAM).collect();
        // The scan's byte table (64 KiB): only when it scans.
        let mut wanted = self.scan.then(take_wanted);
        let splits = self.split2.len();
        let heaps = rows.len() / words;
        // Byte tables of 256 entries or more: the byte copies mark exactly where the rare
        // value and the partners read are below 256 (always for `S = 256`; past it, Grundy's
        // game has a single value of 256 below 2^25).
        let bytes = self.bytes.filter(|_| S >= 256 && self.base == 0);
        for sub in (0..heaps).step_by(STREAM) {
            let count = STREAM.min(heaps - sub);
            let n_first = self.n0 + first + sub;
            for &split in self.split2 {
                let j = split.j;
                for (&p, &v) in self.rare_pos.iter().zip(self.rare_val) {
                    let p = p as usize;
                    // Heap `n_first + t` splits `m = n_first + t - j`; the partner `m - p` must
                    // be a heap (`m > p`) below `known`.
                    let t_lo = (j + p + 1).max(self.start + j + p).saturating_sub(n_first);
                    let t_hi = (self.known + j + p).saturating_sub(n_first).min(count);
                    if t_lo >= t_hi {
                        continue;
                    }
                    steps.rare += (t_hi - t_lo) as u64;
                    // Partners `g(m - p)` for t in t_lo..t_hi, in order.
                    let src = n_first + t_lo - j - p - self.base;
                    let rows = &mut seen[t_lo..t_hi];
                    // Unequal parts: not `p` with itself (`m = 2p`).
                    let own = (2 * p + j)
                        .checked_sub(n_first)
                        .filter(|t| split.unequal && (t_lo..t_hi).contains(t))
                        .map(|t| t - t_lo);
                    // Every value read below 256: the byte copies are the values (half
                    // the bytes read, eight partners a word).
                    let len = t_hi - t_lo;
                    let exact = |c: &&Shadow| S == 256 || (v < 256 && c.exact(src, src + len - 1));
                    match bytes.filter(exact) {
                        Some(copies) => {
                            let partners = &copies.forwards()[src..src + len];
                            stream_split(rows, partners, own, |rows, partners| {
                                stream_bytes(rows, partners, v as u8);
                            });
                        }
                        None => {
                            let partners = &self.values[src..src + (t_hi - t_lo)];
                            stream_split(rows, partners, own, |rows, partners| {
                                stream(rows, partners, v);
                            });
                        }
                    }
                }
            }
            for (t, marks) in seen[..count].iter_mut().enumerate() {
                let k = sub + t;
                let row = &mut rows[k * words..(k + 1) * words];
                if self.scan {
                    steps.scan += self.mark_early(n_first + t, marks);
                }
                pack_bytes(marks, row);
                marks.fill(0);
                if self.scan {
                    let ranges = &mut scanned[k * splits..(k + 1) * splits];
                    let wanted = wanted.get_or_insert_with(take_wanted);
                    steps = steps + self.scan_far(n_first + t, row, wanted, ranges);
                }
            }
        }
        if let Some(wanted) = wanted {
            SCRATCH.with(|cell| *cell.borrow_mut() = Some(wanted));
        }
        steps
    }

    /// Marks in the byte table `bytes` (a power of two long, past every value) the first
    /// `early` split values `g(a) ^ g(m - a)` of each split's far range (`m - a < known`,
    /// from its smallest `a` on) of heap `n`; returns the pairs marked.
    ///
    /// These are the pairs the scan reads first, while many rare values are wanted and most
    /// chunks find one: marked unconditionally, a pair is two loads, a nim-sum and a store,
    /// with no test and no list to keep (Grundy's game: some hundred values wanted at first).
    fn mark_early(&self, n: usize, bytes: &mut [u8]) -> u64 {
        debug_assert!(bytes.len().is_power_of_two() && bytes.len() >= self.size);
        // With spread probes, the early pairs are spread too (module `spread`).
        if !self.spread.is_empty() {
            return self.mark_spread(n, bytes);
        }
        let mask = bytes.len() - 1;
        let mut steps = 0u64;
        for split in self.split2 {
            if n < split.j + 2 {
                continue;
            }
            let m = n - split.j;
            let from = Self::far_from(self.known, m).max(1);
            let to = (from + self.early).saturating_sub(1).min(split.last(m));
            if from > to {
                continue;
            }
            steps += (to + 1 - from) as u64;
            // Values below 256 (all, or those of both ranges): from the byte copies, both
            // parts forwards (no index mask).
            let exact =
                |c: &&Shadow| self.size <= 256 || (c.exact(from, to) && c.exact(m - to, m - from));
            if let Some(copies) = self.bytes.filter(|c| self.base == 0 && exact(c))
                && let Some(table) = bytes
                    .get_mut(..256)
                    .and_then(|b| <&mut [u8; 256]>::try_from(b).ok())
            {
                let (low, high) = copies.pairs(m, from, to);
                mark_xors(table, low, high);
                continue;
            }
            let low = &self.values[from - self.base..=to - self.base];
            let high = &self.values[m - to - self.base..=m - from - self.base];
            for (&l, &h) in low.iter().zip(high.iter().rev()) {
                bytes[(l ^ h) as usize & mask] = 1;
            }
        }
        steps
    }

    /// Scans, for heap `n`, the splits `(a, m - a)` with `m - a < known`, in chunks of 16,
    /// until every rare value below the candidate `c` of the marks so far is found (or
    /// [`FAR_SCAN_LIMIT`] pairs), marking those found; records the ranges scanned, complete
    /// below `c`. The heap-by-heap phase adds the near marks; if they raise the candidate it
    /// scans everything again, else it goes on from there if a value is still wanted.
    /// With `spread`, a few pairs spread over the ranges are probed first (module
    /// `spread`): what they find is found, and a range scanned in order afterwards still
    /// holds every split value below `c` marked (the scan stops only when nothing is wanted).
    /// `wanted` is empty on entry and on return. Returns the pairs scanned and the wide
    /// pairs marked (module `wide`) as `rare`.
    fn scan_far(
        &self,
        n: usize,
        row: &mut [u64],
        wanted: &mut Wanted,
        ranges: &mut [Scanned],
    ) -> Steps {
        ranges.fill(Scanned::NONE);
        let mut wide_steps = 0;
        let c = super::first_free_common(row, self.common);
        // Split values are below `size`: a rare value from there on cannot be found here.
        let mut limit = c.min(self.size);
        // Past 256, the far pairs with a wide part give every far split value from 256 on
        // (module `wide`): the scan looks for the values below 256 only, and a range it
        // reports scanned holds every value below `c` all the same.
        if let Some(copies) = self.bytes.filter(|_| limit > WIDE && self.base == 0) {
            let lists = [copies.wide(), &[][..]];
            wide_steps = mark_wide(self.values, lists, self.split2, n, self.known, row);
            limit = WIDE;
        }
        let words = row.iter().zip(self.common).take(limit.div_ceil(64));
        for (w, (&marked, &common)) in words.enumerate() {
            let mut bits = !(marked | common) & below(limit, w);
            while bits != 0 {
                wanted.add((w * 64 + bits.trailing_zeros() as usize) as u16);
                bits &= bits - 1;
            }
        }
        wanted.ready();
        // Every value asked for is marked now, and those still wanted after the scan are
        // cleared again (no copy of the list per heap).
        for &v in wanted.values() {
            row[v as usize / 64] |= 1 << (v % 64);
        }
        let probed = if self.spread.is_empty() || wanted.missing() == 0 {
            0
        } else {
            self.probe(n, wanted)
        };
        let mut steps = 0u64;
        for (split, range) in self.split2.iter().zip(ranges.iter_mut()) {
            if n < split.j + 2 {
                continue;
            }
            let m = n - split.j;
            let from = Self::far_from(self.known, m).max(1);
            let last = split.last(m).min(from + FAR_SCAN_LIMIT - 1);
            if from > last {
                continue;
            }
            // The first pairs are marked already (`mark_early`): the scan goes on after them.
            let front = if self.spread.is_empty() {
                self.early
            } else {
                0
            };
            let start = from + front.min(last + 1 - from);
            let read = if start <= last {
                let low = &self.values[start - self.base..=last - self.base];
                let high = &self.values[m - last - self.base..=m - start - self.base];
                debug_assert!(self.bytes.is_none() || self.base == 0);
                let bytes = self.bytes.map(|b| b.pairs(m, start, last));
                wanted.scan(low, high, bytes)
            } else {
                0
            };
            steps += read as u64;
            *range = Scanned {
                from,
                to: start + read - 1,
                below: c,
            };
        }
        // The values not found are cleared (the list holds every one still wanted).
        for &v in wanted.values() {
            if wanted.contains(v) {
                row[v as usize / 64] &= !(1 << (v % 64));
            }
        }
        wanted.clear();
        Steps {
            rare: wide_steps,
            scan: steps + probed,
            probed,
            after: steps,
        }
    }
}

/// The bits of word `w` that stand for values below `c`.
#[inline]
pub(super) fn below(c: usize, w: usize) -> u64 {
    let start = w * 64;
    if c >= start + 64 {
        u64::MAX
    } else if c <= start {
        0
    } else {
        (1u64 << (c - start)) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_and_row_marking_agree() {
        let values: Vec<u16> = (0..200u16).map(|i| (i * 37 + i / 7) % 64).collect();
        for m in [10, 57, 150, 199] {
            for (from, to) in [(1, m / 2), (3, 3), (5, 4), (m / 2 - 2, m / 2)] {
                let direct =
                    (from..=to).fold(0u64, |acc, a| acc | 1 << (values[a] ^ values[m - a]));
                assert_eq!(
                    range_word::<u64>(&values, m, from, to),
                    direct,
                    "{m} {from} {to}"
                );
                assert_eq!(range_word::<Pair>(&values, m, from, to), Pair(direct, 0));
            }
            let pos = [1u32, 4, 9];
            let val = [values[1], values[4], values[9]];
            let mut seen = Box::new([0u8; 1 << 16]);
            rare_bytes(&mut seen[..], &values, m, &pos, &val);
            let mut row = [0u64; 1];
            pack_bytes(&seen[..64], &mut row);
            assert_eq!(rare_word::<u64>(&values, m, &pos, &val), row[0]);
            assert_eq!(rare_word::<Pair>(&values, m, &pos, &val), Pair(row[0], 0));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::heap::sparse::tests::cases(300)))]

        /// Packing a byte table by multiplication gives the bit of every byte set.
        #[test]
        fn packed_bytes_are_the_bits_of_the_table(
            bits in proptest::collection::vec(proptest::prelude::any::<bool>(), 64..=256),
            before in proptest::prelude::any::<u64>(),
        ) {
            let len = bits.len() / 64 * 64;
            let seen: Vec<u8> = bits[..len].iter().map(|&b| u8::from(b)).collect();
            let mut row = vec![before; len / 64];
            pack_bytes(&seen, &mut row);
            for (w, &word) in row.iter().enumerate() {
                let direct = (0..64).fold(before, |acc, b| acc | u64::from(bits[w * 64 + b]) << b);
                proptest::prop_assert_eq!(word, direct);
            }
        }

        /// The four-accumulator gather of rare partners marks what a direct loop marks, and
        /// the lanes of a word list its values.
        #[test]
        fn rare_partner_words_match_a_direct_loop(
            values in proptest::collection::vec(0u16..128, 40..200),
            picks in proptest::collection::btree_set(1usize..39, 0..20),
        ) {
            let m = values.len() - 1;
            let pos: Vec<u32> = picks.iter().map(|&p| p as u32).collect();
            let val: Vec<u16> = picks.iter().map(|&p| values[p]).collect();
            let direct = picks.iter().fold(0u128, |acc, &p| acc | 1 << (values[p] ^ values[m - p]));
            let pair: Pair = rare_word(&values, m, &pos, &val);
            proptest::prop_assert_eq!(pair, Pair(direct as u64, (direct >> 64) as u64));
            let low: Vec<u16> = values.iter().map(|v| v % 64).collect();
            let val_low: Vec<u16> = picks.iter().map(|&p| low[p]).collect();
            let direct_low = picks.iter().fold(0u64, |acc, &p| acc | 1 << (low[p] ^ low[m - p]));
            proptest::prop_assert_eq!(rare_word::<u64>(&low, m, &pos, &val_low), direct_low);
            let mut lanes = [0u16; LIST];
            let count = pair.lanes(&mut lanes);
            let listed: Vec<u16> = (0..128u16).filter(|&v| direct >> v & 1 == 1).collect();
            proptest::prop_assert_eq!(count, listed.len());
            let shown = count.min(LIST);
            proptest::prop_assert_eq!(&lanes[..shown], &listed[..shown]);
            if count > 0 {
                proptest::prop_assert!(lanes[shown..].iter().all(|&l| l == listed[0]));
            }
        }

        /// Marking four (sixteen-bit) or eight (byte) partners from one word marks what a
        /// plain loop over the partners marks, remainders included.
        #[test]
        fn word_streams_match_a_plain_loop(
            partners in proptest::collection::vec(0u16..512, 0..40),
            extra in 0usize..3,
            v in 0u16..512,
        ) {
            let heaps = partners.len() + extra;
            let mut wide = vec![[0u8; 512]; heaps];
            stream::<512>(&mut wide, &partners, v);
            let low: Vec<u8> = partners.iter().map(|&g| g as u8).collect();
            let mut narrow = vec![[0u8; 256]; heaps];
            stream_bytes::<256>(&mut narrow, &low, v as u8);
            for t in 0..heaps {
                let direct = partners.get(t).map(|&g| usize::from(v ^ g));
                let marked: Vec<usize> = (0..512).filter(|&x| wide[t][x] == 1).collect();
                proptest::prop_assert_eq!(marked, direct.into_iter().collect::<Vec<_>>());
                let marked: Vec<usize> = (0..256).filter(|&x| narrow[t][x] == 1).collect();
                let direct = direct.map(|x| x % 256);
                proptest::prop_assert_eq!(marked, direct.into_iter().collect::<Vec<_>>());
            }
        }

        /// Marking the nim-sums of byte pairs eight at a time marks what a plain loop
        /// marks.
        #[test]
        fn word_marked_xors_match_a_plain_loop(
            pairs in proptest::collection::vec((0u8..=255, 0u8..=255), 0..40),
        ) {
            let (low, high): (Vec<u8>, Vec<u8>) = pairs.iter().copied().unzip();
            let mut table = [0u8; 256];
            mark_xors(&mut table, &low, &high);
            let mut direct = [0u8; 256];
            for &(l, h) in &pairs {
                direct[usize::from(l ^ h)] = 1;
            }
            proptest::prop_assert_eq!(table, direct);
        }

        /// The streamed far phase marks exactly the partners `m - p` in `start..known`.
        #[test]
        fn streamed_marks_cover_partners_from_start_to_known(
            values in proptest::collection::vec(0u16..64, 300..400),
            picks in proptest::collection::btree_set(1usize..250, 1..12),
            known_back in 0usize..60,
            start in 0usize..200,
            unequal in proptest::prelude::any::<bool>(),
        ) {
            let n0 = values.len() - 40;
            let known = n0 - known_back;
            let pos: Vec<u32> = picks.iter().map(|&p| p as u32).collect();
            let val: Vec<u16> = picks.iter().map(|&p| values[p]).collect();
            let split2 = [Split { j: 1, unequal }];
            let common = vec![0u64; 2];
            let phase = FarPhase {
                values: &values[..n0],
                base: 0,
                n0,
                known,
                start,
                rare_pos: &pos,
                rare_val: &val,
                split2: &split2,
                size: 64,
                common: &common,
                scan: false,
                early: 0,
                bytes: None,
                spread: &[],
            };
            let (len, words) = (40, 2);
            let mut rows = vec![0u64; len * words];
            phase.fill(0, &mut rows, &mut [], words);
            for t in 0..len {
                let m = n0 + t - 1;
                let direct = picks
                    .iter()
                    .filter(|&&p| p < m && m - p >= start && m - p < known)
                    .filter(|&&p| !(unequal && 2 * p == m))
                    .fold(0u64, |acc, &p| acc | 1 << (values[p] ^ values[m - p]));
                proptest::prop_assert_eq!(rows[t * words], direct, "heap {}", n0 + t);
                proptest::prop_assert_eq!(rows[t * words + 1], 0);
            }
        }
    }

    #[test]
    fn pair_marks_values_below_128() {
        let values: Vec<u16> = (0..300u16).map(|i| (i * 37 + i / 7) % 128).collect();
        for m in [100, 299] {
            let direct = (1..=m / 2).fold(0u128, |acc, a| acc | 1 << (values[a] ^ values[m - a]));
            let pair: Pair = range_word(&values, m, 1, m / 2);
            assert_eq!(pair, Pair(direct as u64, (direct >> 64) as u64));
            assert_eq!(pair.lowest(), direct.trailing_zeros() as usize);
        }
        assert_eq!(Pair::below(70), Pair(u64::MAX, 0b11_1111));
        assert_eq!(Pair::below(10), Pair(0b11_1111_1111, 0));
    }
}
