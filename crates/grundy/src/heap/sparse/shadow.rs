//! Byte copies of the values, for the scan's vector filter (values past 128).
//!
//! The scan looks for the few rare values a heap still wants among the split values
//! `g(a) ^ g(m - a)`, `a = from, from + 1, ...` (module `wanted`). Read from the values, the
//! second parts run *backwards*: a chunk of 16 pairs is two loads and a reversal of one of
//! them, which the baseline x86-64 target (SSE2, no byte shuffle) does in three shuffles per
//! 8 lanes of 16 bits. Two byte copies avoid both costs:
//!
//! - `fwd[i]` is the low byte of `g(i)`;
//! - `rev[top - i]` is the low byte of `g(i)`, for every `i <= top`: the partners
//!   `g(m - a)` for ascending `a` are read *forwards* from `rev[top - m + a]`.
//!
//! A chunk of 16 pairs is then two 16-byte loads, one xor and one compare (and or) per
//! wanted value: 16 lanes at a time instead of 8, with no shuffle. Comparing low bytes can
//! only report a hit too many (two values with the same low byte, past 255), never miss
//! one, so the byte test is a *filter*: the chunk it reports is walked again on the full
//! 16-bit values, which alone decide what is found (module `wanted`). The values are the
//! same bit for bit with the filter or without it.
//!
//! Memory: two more bytes per value, kept only while values are past 128 (the games that
//! scan: Grundy's game). `rev` is sized for the target of the run (`top`); extending past
//! it rebuilds it, at least a quarter larger each time, so extending in small steps costs
//! amortised `O(1)` a value.

use std::collections::TryReserveError;

/// The low bytes of `g(0..len)` forwards and backwards (see the module documentation).
#[derive(Debug, Clone, Default)]
pub(crate) struct Shadow {
    /// `fwd[i]` = `g(i) as u8`.
    fwd: Vec<u8>,
    /// `rev[top - i]` = `g(i) as u8` for `i < fwd.len()` (the rest 0); `top + 1` long.
    rev: Vec<u8>,
    /// The largest heap `rev` has room for.
    top: usize,
    /// The heaps `i < fwd.len()` whose value is past 255 (its low byte is not the value),
    /// ascending: Grundy's game has one below `2^25`, `g(7,250,049) = 256`.
    high: Vec<u32>,
}

impl Shadow {
    /// Copies the values not yet copied, with room in `rev` for every heap below `target`.
    pub fn sync(&mut self, values: &[u16], target: usize) -> Result<(), TryReserveError> {
        let top = target.saturating_sub(1).max(values.len().saturating_sub(1));
        if self.rev.is_empty() || top > self.top {
            let top = if self.rev.is_empty() {
                top
            } else {
                top.max(self.top.saturating_add(self.top / 4))
            };
            let mut rev = Vec::new();
            rev.try_reserve_exact(top + 1)?;
            rev.resize(top + 1, 0);
            for (i, &b) in self.fwd.iter().enumerate() {
                rev[top - i] = b;
            }
            (self.rev, self.top) = (rev, top);
        }
        let from = self.fwd.len();
        if values.len() > from {
            self.fwd.try_reserve(values.len() - from)?;
            for (i, &v) in values.iter().enumerate().skip(from) {
                self.fwd.push(v as u8);
                self.rev[self.top - i] = v as u8;
                if v > 255 {
                    // Heaps are below 2^32 (`super::MAX_HEAP`).
                    self.high.push(i as u32);
                }
            }
        }
        Ok(())
    }

    /// The heaps copied whose value is past 255, ascending (module `wide`).
    pub fn wide(&self) -> &[u32] {
        &self.high
    }

    /// How many values are copied.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.fwd.len()
    }

    /// Whether every value `g(from..=to)` (copied) is below 256, so that its low byte is
    /// the value itself: a binary search in the few heaps with larger values.
    #[inline]
    pub fn exact(&self, from: usize, to: usize) -> bool {
        let i = self.high.partition_point(|&p| (p as usize) < from);
        self.high.get(i).is_none_or(|&p| p as usize > to)
    }

    /// The low bytes of `g(0..)`, forwards.
    #[inline]
    pub fn forwards(&self) -> &[u8] {
        &self.fwd
    }

    /// The backward copy and its top: `rev[top - i]` is the low byte of `g(i)`.
    #[inline]
    pub fn backwards(&self) -> (&[u8], usize) {
        (&self.rev, self.top)
    }

    /// The low bytes of the split pairs `(a, m - a)` for `a` in `from..=to`: `g(a)` and
    /// `g(m - a)`, both in the order of ascending `a` (`from <= to`, `m - from` copied).
    #[inline]
    pub fn pairs(&self, m: usize, from: usize, to: usize) -> (&[u8], &[u8]) {
        debug_assert!(from <= to && to <= m && m - from < self.fwd.len());
        let low = &self.fwd[from..=to];
        let start = self.top - (m - from);
        (low, &self.rev[start..=start + (to - from)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::heap::sparse::tests::cases(200)))]

        /// The pairs read from the copies are the low bytes of the values, whatever steps
        /// the copies were made in.
        #[test]
        fn pairs_are_the_low_bytes_of_the_split_values(
            values in prop::collection::vec(0u16..1024, 2..400),
            steps in prop::collection::vec(1usize..100, 1..8),
            slack in 0usize..50,
        ) {
            let mut shadow = Shadow::default();
            let mut len = 0;
            for step in steps {
                len = (len + step).min(values.len());
                shadow.sync(&values[..len], len + slack).unwrap();
            }
            shadow.sync(&values, values.len()).unwrap();
            prop_assert_eq!(shadow.len(), values.len());
            let m = values.len() - 1;
            for from in 0..=m / 2 {
                for to in from..=(m / 2).min(from + 20) {
                    let (low, high) = shadow.pairs(m, from, to);
                    for (k, a) in (from..=to).enumerate() {
                        prop_assert_eq!(low[k], values[a] as u8);
                        prop_assert_eq!(high[k], values[m - a] as u8);
                    }
                    let below = values[from..=to].iter().all(|&v| v < 256);
                    prop_assert_eq!(shadow.exact(from, to), below, "{}..={}", from, to);
                }
            }
        }
    }
}
