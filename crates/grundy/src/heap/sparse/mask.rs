//! Choosing the mask that splits values into rare and common ones.
//!
//! Under a mask `m`, a value `v` is of class `popcount(v & m) mod 2`; classes add under nim-sum:
//! `class(a ^ b) = class(a) ^ class(b)`. Values of class 1 are *common*, of class 0 *rare*
//! (Winning Ways ch. 4, "Sparse space spells speed"; A. Flammenkamp's tables of octal games).
//! A common option value of a two-heap split comes from a rare heap and a common heap, so
//! when rare positions are few the common option values are all found from them.
//!
//! The best mask is the one with the fewest rare positions. With the value histogram `h`,
//! the number of rare positions under every mask at once is `(total + H(m)) / 2`, where `H`
//! is the Walsh–Hadamard transform of `h` — `O(k 2^k)` for values below `2^k`.

/// The mask with the fewest rare positions for a value histogram (`hist[v]` = how many
/// positions have value `v`; its length a power of two), and that number. Ties go to the
/// smaller mask. The mask is never 0.
pub(crate) fn best_mask(hist: &[u64]) -> (u16, u64) {
    let size = hist.len().max(2);
    debug_assert!(size.is_power_of_two() && size <= 1 << 16);
    let mut w: Vec<i64> = (0..size)
        .map(|v| hist.get(v).copied().unwrap_or(0) as i64)
        .collect();
    let mut half = 1;
    while half < size {
        for start in (0..size).step_by(2 * half) {
            for i in start..start + half {
                let (a, b) = (w[i], w[i + half]);
                w[i] = a + b;
                w[i + half] = a - b;
            }
        }
        half *= 2;
    }
    let total = w[0];
    let mut best = (1u16, ((total + w[1]) / 2) as u64);
    for (m, &wm) in w.iter().enumerate().skip(2) {
        let rare = ((total + wm) / 2) as u64;
        if rare < best.1 {
            best = (m as u16, rare);
        }
    }
    best
}

/// Whether `v` is common (class 1) under `mask`.
#[inline(always)]
pub(crate) fn is_common(v: u16, mask: u16) -> bool {
    (v & mask).count_ones() & 1 == 1
}

/// The bitset of common values below `64 * words`.
pub(crate) fn common_words(mask: u16, words: usize) -> Vec<u64> {
    (0..words)
        .map(|w| {
            (0..64).fold(0u64, |acc, b| {
                let v = (w * 64 + b) as u32;
                let common = (v & mask as u32).count_ones() & 1 == 1;
                acc | (common as u64) << b
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_mask_counts_rare_positions() {
        // values 1, 2, 3, 3, 1: mask 1 makes 2 rare (value 2); mask 3 makes 3, 3 rare.
        let mut hist = vec![0u64; 4];
        for v in [1, 2, 3, 3, 1] {
            hist[v] += 1;
        }
        for mask in 1..4u16 {
            let rare = [1u16, 2, 3, 3, 1]
                .iter()
                .filter(|&&v| !is_common(v, mask))
                .count();
            let (best, count) = best_mask(&hist);
            assert!(count <= rare as u64);
            if best == mask {
                assert_eq!(count, rare as u64);
            }
        }
        assert_eq!(best_mask(&hist), (1, 1));
    }

    #[test]
    fn common_words_match_is_common() {
        let words = common_words(0b1011, 2);
        for v in 0..128u16 {
            assert_eq!(
                words[v as usize >> 6] >> (v & 63) & 1 == 1,
                is_common(v, 0b1011)
            );
        }
    }
}
