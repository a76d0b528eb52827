//! Spread early marks and probes: the far scan looks for the rare values a heap wants at
//! places spread over its split range before it reads the range in order (issue 14).
//!
//! The far scan marks its first `early` pairs `(a, m - a)` unconditionally (1,152 for
//! Grundy's game), then reads on in order until no rare value below the candidate is
//! wanted. The first pairs are *depleted* of the values wanted last: with `a` small, `g(a)`
//! is one of the early, structured values and `g(m - a)` runs along the recent ones, so
//! what the first thousand pairs miss they tend to keep missing (value 115 makes 1/119 of a
//! heap's split values near `4·10^6`, but is first met at `a = 4,768`). In Python on the
//! values to `4·10^6`, 120 heaps near the end: after the first 1,152 pairs 16% of the heaps
//! want nothing more and the scan from `a = 1` reads 2,842 pairs on average; with the same
//! 1,152 pairs taken as 18 runs of 64 at spread places, 78% want nothing more and the scan
//! reads 222 (36 runs of 32: 72%, 352; 12 runs of 64 of 768 pairs: 49%, 643).
//!
//! So with probes on, a block draws [`PROBES`] offsets ([`fractions`]: one in each of as many
//! equal strata, the strata in bit-reversed order so that each prefix is spread over the
//! whole range, the place in a stratum drawn from a hash of the block's first heap), the
//! same fractions of every heap's far range (consecutive heaps read nearly the same `g(a)`
//! and neighbouring `g(m - a)`: cache-hot). The early marks take the first `early /`
//! [`PROBE`] offsets, [`PROBE`] pairs each, marked eight a word as before
//! ([`FarPhase::mark_spread`]); the scan then *probes* the remaining offsets with a byte
//! filter over whole probes ([`FarPhase::probe`]: 64 pairs four vector compares per wanted
//! value, no call per probe, a probe that may hold a wanted value read again exactly), and
//! at last reads the range in order from its start, as before, for whatever is still
//! wanted: that pass alone decides a value that is really missing. A pair marked or probed
//! is a split of real options, so no value can change (tests run random codes with probes
//! in every block against the definition).
//!
//! Whole-process user time against the engine before, medians of pairs run in turn (load
//! 4 to 5): Grundy's game to `2^22` **0.79** (3.81 s against 4.89; scan steps 3,152 →
//! 1,770 a heap), to `2^24` **0.78** (16.2 s against 20.5; scan steps 3,163 → 1,520 a
//! heap), to `2^26` 0.88 (one run each, 87.6 s against 99.4: past `4.7·10^7` the wide
//! marks, module `wide`, take a growing share); values identical. Other codes
//! to `2^22`: 0.374 0.82 and 0.404 0.90 (probes pay there too), 0.035 0.95, 0.64 0.98,
//! 0.776 0.99, 0.167 1.01 and 0.354 0.99 (no far scan). *Tried*: probes alone, after the
//! early marks at the start of the range, 0.97 to 1.02 (the pairs read past the early
//! marks fall from some 1,500 to 400 a heap, but a probe costs some three times a pair of
//! the sequential skip loop, which is a few cycles per 16 pairs); shorter spread early
//! marks with more probing, 768 pairs 1.06, 512 pairs 1.19 (marking is cheaper than
//! probing); 32 or 128 probes instead of 64 about the same.
//!
//! *Adaptive* ([`Adapt`]). For other codes the order of the pairs helps instead (0.776 in
//! Python: sequential 588 pairs a heap, uniformly random 124,000; 0.64: 1,068 against
//! 2,302): there spread pairs would be read for nothing. The engine measures the pairs a
//! heap read past the early marks: a block with probes is compared with the last block
//! without; probes stay on while they read a quarter fewer, and otherwise rest for [`REST`]
//! blocks (doubling up to [`MAX_REST`] while trials keep failing) before a trial block.
//! Every [`REFRESH`] blocks with probes one runs without, so that the comparison follows
//! the game. The length of the early marks is measured on blocks without probes only (with
//! them the scans are short, and half the average scan would shrink from block to block).

use super::block::FarPhase;
use super::wanted::{CHUNK, LIST, Wanted};

/// Consecutive pairs tested at each offset.
pub(crate) const PROBE: usize = 64;
/// Offsets tried per heap and split (a power of two).
pub(crate) const PROBES: usize = 64;
/// Blocks without probes after a trial that did not pay.
const REST: u32 = 16;
/// The longest rest.
const MAX_REST: u32 = 1024;
/// Blocks with probes between two blocks without (to measure the scan without them).
const REFRESH: u32 = 64;

/// When the far scan probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spread {
    /// Where it pays ([`Adapt`]).
    Adaptive,
    /// In every block (tests).
    Always,
}

/// The offsets of a block's probes as fractions of a heap's probe range (32-bit fixed
/// point), in the order they are tried: one in each of [`PROBES`] equal strata, the strata
/// in bit-reversed order (each prefix of the list is spread over the whole range), at a
/// place in its stratum drawn from `seed` (a hash: the strata are not hit at the same
/// places in every block).
pub(crate) fn fractions(seed: u64, out: &mut Vec<u32>) {
    let bits = PROBES.trailing_zeros();
    out.clear();
    for k in 0..PROBES as u32 {
        let stratum = k.reverse_bits() >> (32 - bits);
        let jitter = (mix(seed ^ u64::from(k).wrapping_mul(0x9e37_79b9_7f4a_7c15)) >> 32) as u32;
        out.push((stratum << (32 - bits)) | (jitter >> bits));
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit hash.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl FarPhase<'_> {
    /// Probes, for heap `n`, [`PROBE`] pairs at each of the offsets `self.spread` (see
    /// [`fractions`]) of each split's far range past the early marks, until nothing is
    /// wanted: strikes off in `wanted` what it finds (the caller marks it). Returns the
    /// pairs read.
    pub(crate) fn probe(&self, n: usize, wanted: &mut Wanted) -> u64 {
        let mut read = 0u64;
        let copies = self.bytes.filter(|_| self.base == 0);
        for split in self.split2 {
            if wanted.missing() == 0 {
                break;
            }
            if n < split.j + 2 {
                continue;
            }
            let m = n - split.j;
            // The far range `a >= from` (the larger part `m - a` below `known`).
            let from = Self::far_from(self.known, m).max(1);
            let Some(span) = (split.last(m) + 1).checked_sub(from + PROBE) else {
                continue;
            };
            let at = |frac: u32| from + ((span as u64 * u64::from(frac)) >> 32) as usize;
            // The first offsets were marked early (`mark_spread`).
            let mut k = self.early_windows();
            while k < self.spread.len() && wanted.missing() > 0 {
                // The byte filter over the probes from `k` on: the first that may hold a
                // wanted value (none with one is passed over).
                let hit = match copies {
                    // The lanes list every wanted value once at most `LIST` are.
                    Some(c) if wanted.missing() <= LIST => {
                        let probes = Probes {
                            fwd: c.forwards(),
                            rev: c.backwards(),
                            m,
                            fracs: &self.spread[k..],
                            at: &at,
                        };
                        k + match wanted.missing() {
                            0..=2 => probes.first_hit::<2>(wanted.lanes8()),
                            3..=4 => probes.first_hit::<4>(wanted.lanes8()),
                            5..=8 => probes.first_hit::<8>(wanted.lanes8()),
                            _ => probes.first_hit::<LIST>(wanted.lanes8()),
                        }
                    }
                    _ => k,
                };
                read += ((hit - k) * PROBE) as u64;
                let Some(&frac) = self.spread.get(hit) else {
                    break;
                };
                let (a, b) = (at(frac), at(frac) + PROBE - 1);
                read += match copies {
                    // Every value of the probe below 256: from the byte copies alone.
                    Some(c) if c.exact(a, b) && c.exact(m - b, m - a) => {
                        let (low, high) = c.pairs(m, a, b);
                        wanted.scan_bytes(low, high)
                    }
                    _ => {
                        let low = &self.values[a - self.base..=b - self.base];
                        let high = &self.values[m - b - self.base..=m - a - self.base];
                        wanted.scan(low, high, copies.map(|c| c.pairs(m, a, b)))
                    }
                } as u64;
                k = hit + 1;
            }
        }
        read
    }
}

impl FarPhase<'_> {
    /// How many of the offsets the early marks take ([`PROBE`] pairs each).
    fn early_windows(&self) -> usize {
        self.early.div_ceil(PROBE).min(self.spread.len())
    }

    /// The early marks with spread probes: in the byte table `bytes` (a power of two long,
    /// past every value), every split value of the [`PROBE`] pairs at each of the first
    /// `early / PROBE` offsets of each split's far range (the whole range when it is
    /// shorter than a probe), unconditionally. Returns the pairs marked.
    pub(crate) fn mark_spread(&self, n: usize, bytes: &mut [u8]) -> u64 {
        let mask = bytes.len() - 1;
        let mut steps = 0u64;
        let copies = self.bytes.filter(|_| self.base == 0);
        for split in self.split2 {
            if n < split.j + 2 {
                continue;
            }
            let m = n - split.j;
            let (from, last) = (Self::far_from(self.known, m).max(1), split.last(m));
            if from > last {
                continue;
            }
            // The windows, or the whole range when it is shorter than a probe.
            let (span, count) = match (last + 1).checked_sub(from + PROBE) {
                Some(span) => (Some(span), self.early_windows()),
                None => (None, 1),
            };
            for &frac in self.spread.iter().take(count) {
                let (a, b) = match span {
                    Some(span) => {
                        let a = from + ((span as u64 * u64::from(frac)) >> 32) as usize;
                        (a, a + PROBE - 1)
                    }
                    None => (from, last),
                };
                steps += (b + 1 - a) as u64;
                let exact = |c: &&super::shadow::Shadow| {
                    self.size <= 256 || (c.exact(a, b) && c.exact(m - b, m - a))
                };
                if let Some(c) = copies.filter(exact)
                    && let Some(table) = bytes
                        .get_mut(..256)
                        .and_then(|t| <&mut [u8; 256]>::try_from(t).ok())
                {
                    let (low, high) = c.pairs(m, a, b);
                    super::block::mark_xors(table, low, high);
                    continue;
                }
                let low = &self.values[a - self.base..=b - self.base];
                let high = &self.values[m - b - self.base..=m - a - self.base];
                for (&l, &h) in low.iter().zip(high.iter().rev()) {
                    bytes[(l ^ h) as usize & mask] = 1;
                }
            }
        }
        steps
    }
}

/// The probes of one heap and split, read from the byte copies of the values.
struct Probes<'a, F: Fn(u32) -> usize> {
    fwd: &'a [u8],
    /// The backward copy and its top (`rev[top - i]` is the low byte of `g(i)`).
    rev: (&'a [u8], usize),
    m: usize,
    fracs: &'a [u32],
    /// The first `a` of the probe at a fraction.
    at: &'a F,
}

impl<F: Fn(u32) -> usize> Probes<'_, F> {
    /// The index of the first probe whose pairs' low bytes meet one of the first `N` lanes'
    /// (or the number of probes): [`PROBE`] pairs a probe, tested 16 at a time as
    /// [`super::wanted::first_hit_bytes`] does, with no call per probe.
    #[inline(never)]
    fn first_hit<const N: usize>(&self, lanes: &[u8; LIST]) -> usize {
        let lanes: &[u8; N] = lanes[..N].try_into().expect("N <= LIST");
        let (rev, top) = self.rev;
        for (k, &frac) in self.fracs.iter().enumerate() {
            let a = (self.at)(frac);
            let low: &[u8; PROBE] = self.fwd[a..a + PROBE].try_into().expect("a probe");
            let start = top - (self.m - a);
            let high: &[u8; PROBE] = rev[start..start + PROBE].try_into().expect("a probe");
            let mut acc = [0u8; CHUNK];
            for (l, h) in low.chunks_exact(CHUNK).zip(high.chunks_exact(CHUNK)) {
                for &r in lanes {
                    for t in 0..CHUNK {
                        acc[t] |= u8::from(l[t] ^ h[t] == r).wrapping_neg();
                    }
                }
            }
            if acc.iter().fold(0, |x, &y| x | y) != 0 {
                return k;
            }
        }
        self.fracs.len()
    }
}

/// Whether the next block probes: the pairs a heap of the last blocks with and without.
#[derive(Debug, Clone, Default)]
pub(crate) struct Adapt {
    /// Probes are on.
    on: bool,
    /// Blocks to go before the next trial (off), or before a block without (on).
    wait: u32,
    /// The current rest after a failed trial.
    rest: u32,
    /// Pairs a heap after the early marks of the last block without probes (in 1/16).
    without: Option<u64>,
}

impl Adapt {
    /// Whether the next block probes.
    pub(crate) fn next(&self, spread: Spread) -> bool {
        match spread {
            Spread::Always => true,
            Spread::Adaptive => {
                if self.on {
                    self.wait > 0
                } else {
                    self.wait == 0 && self.without.is_some()
                }
            }
        }
    }

    /// Records a block of `heaps` heaps, `probed` (whether it probed), `pairs` the pairs
    /// its far scans read past the early marks (probes included).
    pub(crate) fn record(&mut self, heaps: usize, probed: bool, pairs: u64) {
        if heaps == 0 {
            return;
        }
        let per_heap = pairs * 16 / heaps as u64;
        if !probed {
            self.without = Some(per_heap);
            self.wait = self.wait.saturating_sub(1);
            if self.on {
                self.wait = REFRESH;
            }
            return;
        }
        let without = self.without.unwrap_or(u64::MAX);
        // A probe's pair costs more than a pair of the sequential skip loop (a call and
        // fresh cache lines per 64 pairs): keep them when a quarter fewer pairs are read.
        if per_heap.saturating_mul(4) < without.saturating_mul(3) {
            if !self.on {
                (self.on, self.wait, self.rest) = (true, REFRESH, 0);
            }
            self.wait = self.wait.saturating_sub(1);
        } else {
            self.rest = (self.rest * 2).clamp(REST, MAX_REST);
            (self.on, self.wait) = (false, self.rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fractions_cover_every_stratum_once() {
        let mut fr = Vec::new();
        fractions(12345, &mut fr);
        assert_eq!(fr.len(), PROBES);
        let mut strata: Vec<u32> = fr
            .iter()
            .map(|&f| f >> (32 - PROBES.trailing_zeros()))
            .collect();
        // The first two halves of the list: one in each half of the range.
        assert_ne!(strata[0] < PROBES as u32 / 2, strata[1] < PROBES as u32 / 2);
        strata.sort_unstable();
        assert_eq!(strata, (0..PROBES as u32).collect::<Vec<_>>());
    }

    #[test]
    fn adapt_keeps_probes_only_while_they_pay() {
        let mut adapt = Adapt::default();
        assert!(!adapt.next(Spread::Adaptive), "nothing measured yet");
        assert!(adapt.next(Spread::Always));
        adapt.record(100, false, 200_000);
        assert!(adapt.next(Spread::Adaptive), "a trial");
        // The trial reads half the pairs: probes stay on for REFRESH blocks.
        adapt.record(100, true, 100_000);
        for _ in 1..REFRESH {
            assert!(adapt.next(Spread::Adaptive));
            adapt.record(100, true, 100_000);
        }
        assert!(!adapt.next(Spread::Adaptive), "a block without, to measure");
        adapt.record(100, false, 200_000);
        assert!(adapt.next(Spread::Adaptive));
        // Probes that do not pay: a rest of REST blocks, then a trial.
        adapt.record(100, true, 190_000);
        for _ in 0..REST {
            assert!(!adapt.next(Spread::Adaptive));
            adapt.record(100, false, 200_000);
        }
        assert!(adapt.next(Spread::Adaptive));
        adapt.record(100, true, 190_000);
        for _ in 0..2 * REST {
            assert!(!adapt.next(Spread::Adaptive), "a longer rest");
            adapt.record(100, false, 200_000);
        }
        assert!(adapt.next(Spread::Adaptive));
    }
}
