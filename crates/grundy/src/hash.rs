//! A fast non-cryptographic hash for checks (is this the same file, the same graph, an
//! undamaged table): FxHash-style mixing of 64-bit words, about a nanosecond a word.

/// `h` with the word `x` mixed in.
#[inline]
pub(crate) fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95)
}

#[cfg(test)]
mod tests {
    use super::mix;

    #[test]
    fn the_order_and_every_word_count() {
        let a = [1u64, 2, 3].into_iter().fold(0, mix);
        let b = [2u64, 1, 3].into_iter().fold(0, mix);
        let c = [1u64, 2, 4].into_iter().fold(0, mix);
        assert_ne!(a, b);
        assert_ne!(a, c);
        assert_ne!(mix(0, 0), mix(0, 1));
    }
}
