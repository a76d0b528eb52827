//! Split values of 256 and more, marked from the few heaps whose value is that large.
//!
//! A nim-sum of two values below 256 is below 256, so a split value `g(a) ^ g(m - a)` of
//! 256 or more has a part whose value is 256 or more: a *wide* heap (the byte copies list
//! them, module `shadow`). Once a heap's candidate passes 256, the scan of its splits would
//! otherwise look for the rare values from 256 up among all the pairs, and meet a pair with
//! a wide part only at `a = m - h` for `h` the latest wide heap: Grundy's game has its first
//! value of 256 or more at heap 7,250,049 and many from 47,132,748 on, after which the scan
//! averaged some 6,800 pairs a heap to `2^26` against some 3,100 before (issue 14).
//!
//! Instead, every split with a wide part is marked directly, like a rare partner: for each
//! wide heap `h < m` the pair `(h, m - h)`, when it is a split of the rule (the smaller
//! part at most [`Split::last`], so the equal split of Grundy's game is left out as the scan
//! leaves it out). That gives every split value of 256 and more exactly, in `O(W)` per heap
//! and split for `W` wide heaps; the scan then only looks for the wanted values below 256.
//! A pair of two wide heaps is marked twice (once from each part), which is harmless.

use super::moves::{Split, set_bit};

/// Values from here on are split values only through a wide part.
pub(super) const WIDE: usize = 256;

/// Marks in `row` the split values `g(h) ^ g(m - h)` of heap `n` for every wide heap `h`
/// listed in `lists` (each ascending), over every split of `split2`, for the pairs whose
/// two parts are both below `below` (heaps whose values are known to the caller). Returns
/// the pairs marked.
pub(super) fn mark_wide(
    values: &[u16],
    lists: [&[u32]; 2],
    split2: &[Split],
    n: usize,
    below: usize,
    row: &mut [u64],
) -> u64 {
    let mut steps = 0u64;
    for split in split2 {
        if n < split.j + 2 {
            continue;
        }
        let m = n - split.j;
        let last = split.last(m);
        for list in lists {
            let end = list.partition_point(|&h| (h as usize) < m);
            for &h in &list[..end] {
                let h = h as usize;
                // `h < m`, so `m - h` is at least 1; `h = 0` is no split (never wide in a
                // game, where `g(0) = 0`).
                let other = m - h;
                if h == 0 || h.min(other) > last || h.max(other) >= below {
                    continue;
                }
                steps += 1;
                set_bit(row, (values[h] ^ values[other]) as usize);
            }
        }
    }
    steps
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(super::super::tests::cases(200)))]

        /// The marks from 256 on are exactly the split values from 256 on, enumerated from
        /// the definition (every `a` from 1 to `last(m)`, equal parts only when allowed),
        /// whether the wide heaps come in one list or two.
        #[test]
        fn wide_marks_are_the_wide_split_values(
            values in prop::collection::vec(
                prop_oneof![3 => 0u16..256, 1 => 256u16..1024], 2..120),
            j in 0usize..3,
            unequal in any::<bool>(),
            cut in 0usize..120,
        ) {
            let n = values.len();
            let split = Split { j, unequal };
            let wide: Vec<u32> = (0..n as u32).filter(|&h| values[h as usize] >= 256).collect();
            let cut = wide.partition_point(|&h| (h as usize) < cut);
            let mut row = vec![0u64; 1024 / 64];
            let lists = [&wide[..cut], &wide[cut..]];
            mark_wide(&values, lists, &[split], n, n, &mut row);
            let mut expected = vec![0u64; 1024 / 64];
            if n >= j + 2 {
                let m = n - j;
                for a in 1..=split.last(m) {
                    let x = (values[a] ^ values[m - a]) as usize;
                    if x >= WIDE {
                        set_bit(&mut expected, x);
                    }
                }
            }
            // Only values from 256 on are promised.
            row[..WIDE / 64].fill(0);
            prop_assert_eq!(row, expected);
        }
    }
}
