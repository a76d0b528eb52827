//! Finishing one heap: the scan of its splits for the values still wanted once the marks
//! are in (values below 64 or 128 in one or two words of marks; wider values by ranges).

use super::block::{self, below};
use super::moves::Split;
use super::wanted::{self, CHUNK, LIST, Wanted};
use super::wide::WIDE;

/// Finishes `g(n)` when every value so far is below `W::BITS` (64, or 128 with a [`block::Pair`] of words), so every split
/// value is too. Returns the value and the number of split pairs scanned.
///
/// The candidate `c` is the smallest common value not marked; the rare values below `c`
/// not yet marked are *wanted*. Scanning the splits `(a, m - a)` from `a = 1` in chunks of
/// 16 (one word of marks per chunk, no branch inside), each chunk strikes off what it found;
/// the scan stops when nothing below `W::BITS` is wanted, and otherwise `g(n)` is the
/// smallest value still wanted (values from `W::BITS` on cannot be split values).
pub(super) fn finish_word<W: block::Word>(
    values: &[u16],
    split2: &[Split],
    n: usize,
    row: &[u64],
    common: &[u64],
) -> (usize, u64) {
    let c = first_free_common(row, common);
    let low_words = W::BITS / 64;
    // `row` has at least `low_words` words: one when values are below 32, else `2 * size / 64`.
    let mut wanted = !W::load(row) & !W::load(common) & W::below(c);
    let mut steps = 0u64;
    if wanted != W::default() {
        // While few values are wanted, a chunk is first compared with them lane by lane
        // (vector compares, module `wanted`); only a chunk with a hit is marked.
        let mut lanes = [0u16; LIST];
        let mut count = wanted.lanes(&mut lanes);
        // All split digits advance together, chunk by chunk: a value missing from one
        // digit's early pairs is often among another's.
        let longest = longest_split(split2, n);
        let mut a = 1;
        'scan: while a <= longest {
            for &split in split2 {
                if n < split.j + 2 || a > split.last(n - split.j) {
                    continue;
                }
                let m = n - split.j;
                let to = (a + CHUNK - 1).min(split.last(m));
                steps += (to + 1 - a) as u64;
                let found: W = if to + 1 - a == CHUNK && count <= LIST {
                    let xs = wanted::chunk_xors(values, m, a);
                    if !wanted::any_wanted(count, &xs, &lanes) {
                        continue;
                    }
                    xs.iter().fold(W::default(), |acc, &x| acc | W::mark(x))
                } else {
                    block::range_word(values, m, a, to)
                };
                let left = wanted & !found;
                if left == W::default() {
                    wanted = left;
                    break 'scan;
                }
                if left != wanted {
                    wanted = left;
                    count = wanted.lanes(&mut lanes);
                }
            }
            a += CHUNK;
        }
    }
    if wanted != W::default() {
        return (wanted.lowest(), steps);
    }
    let high = (low_words..c.div_ceil(64)).find_map(|w| {
        let bits = !row[w] & !common[w] & below(c, w);
        (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
    });
    (high.unwrap_or(c), steps)
}

/// The smallest common value whose bit in `row` is clear.
pub(super) fn first_free_common(row: &[u64], common: &[u64]) -> usize {
    (0..row.len())
        .find_map(|w| {
            let free = !row[w] & common[w];
            (free != 0).then(|| w * 64 + free.trailing_zeros() as usize)
        })
        .expect("a common value below 2 * size is always free")
}

/// What a heap's row of marks holds already, from the parallel phase, besides the rare
/// partners.
#[derive(Clone, Copy, Debug)]
pub(super) struct Marked<'a> {
    /// The ranges (one per split) whose values are marked (by the far phase): they are
    /// skipped.
    pub scanned: Option<&'a [block::Scanned]>,
    /// Every split value from [`WIDE`] on is marked (module `wide`): only the values below
    /// it are looked for, and the smallest value from it on not marked is missing for sure.
    pub wide: bool,
}

/// Finishes `g(n)` for any value range: like [`finish_word`], with the wanted values in a
/// [`Wanted`] (empty on entry and on return), scanned chunk by chunk (module `wanted`).
/// `marked` says what `row` holds already besides the rare partners (see [`Marked`]).
pub(super) fn finish_wide(
    values: &[u16],
    split2: &[Split],
    n: usize,
    row: &[u64],
    common: &[u64],
    wanted: &mut Wanted,
    marked: Marked<'_>,
) -> (usize, u64) {
    let Marked {
        scanned,
        wide: wide_marked,
    } = marked;
    let c = first_free_common(row, common);
    let limit = if wide_marked { c.min(WIDE) } else { c };
    for w in 0..limit.div_ceil(64) {
        let mut bits = !row[w] & !common[w] & below(limit, w);
        while bits != 0 {
            // A value past 16 bits is refused when pushed, whichever it is.
            if let Ok(v) = u16::try_from(w * 64 + bits.trailing_zeros() as usize) {
                wanted.add(v);
            }
            bits &= bits - 1;
        }
    }
    // The smallest value from `limit` to `c` missing from the options, if any: `g(n)`
    // unless one below `limit` is missing too.
    let missing = (limit < c)
        .then(|| {
            (limit / 64..c.div_ceil(64)).find_map(|w| {
                let bits = !row[w] & !common[w] & below(c, w) & !below(limit, w);
                (bits != 0).then(|| w * 64 + bits.trailing_zeros() as usize)
            })
        })
        .flatten()
        .unwrap_or(c);
    wanted.ready();
    let mut steps = 0u64;
    if wanted.missing() > 0 {
        let longest = longest_split(split2, n);
        let mut a = 1;
        'scan: while a <= longest {
            for (k, &split) in split2.iter().enumerate() {
                if n < split.j + 2 || a > split.last(n - split.j) {
                    continue;
                }
                let m = n - split.j;
                let to = (a + CHUNK - 1).min(split.last(m));
                let skip = scanned.map_or(block::Scanned::NONE, |s| s[k]);
                // A range scanned for a lower candidate is no help (values up to `c` needed).
                let skip = if c <= skip.below {
                    skip
                } else {
                    block::Scanned::NONE
                };
                // The chunk without the part already scanned: before it and after it.
                for (from, to) in [
                    (a, to.min(skip.from.wrapping_sub(1))),
                    (a.max(skip.to + 1), to),
                ] {
                    if from > to {
                        continue;
                    }
                    steps += (to + 1 - from) as u64;
                    wanted.scan(&values[from..=to], &values[m - to..=m - from], None);
                    if wanted.missing() == 0 {
                        break 'scan;
                    }
                }
            }
            a += CHUNK;
            // Past the ranges already scanned, when every split is inside its own.
            if let Some(scanned) = scanned.filter(|s| s.iter().all(|r| c <= r.below)) {
                let inside = |(split, skip): (&Split, &block::Scanned)| {
                    (n >= split.j + 2 && a <= split.last(n - split.j)).then_some(
                        if skip.from <= a && a <= skip.to {
                            skip.to + 1
                        } else {
                            a
                        },
                    )
                };
                a = split2
                    .iter()
                    .zip(scanned)
                    .filter_map(inside)
                    .min()
                    .unwrap_or(a);
            }
        }
    }
    let value = wanted.lowest().map_or(missing, usize::from);
    wanted.clear();
    (value, steps)
}

/// The smallest value below `limit` whose bit is clear, or `limit`.
pub(super) fn first_zero(bits: &[u64], limit: usize) -> usize {
    for (w, &word) in bits.iter().enumerate() {
        if word != u64::MAX {
            return (w * 64 + (!word).trailing_zeros() as usize).min(limit);
        }
    }
    limit
}

/// The largest first part `a` of a split `(a, m − a)` of heap `n` over the split digits.
fn longest_split(split2: &[Split], n: usize) -> usize {
    split2
        .iter()
        .filter(|s| n >= s.j + 2)
        .map(|s| s.last(n - s.j))
        .max()
        .unwrap_or(0)
}
