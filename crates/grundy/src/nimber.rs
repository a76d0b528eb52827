//! Nimbers: the values of impartial games.
//!
//! A [`Nimber`] is a 64-bit nim-value `*n`. Two operations make the nimbers a field
//! (Conway, *On Numbers and Games*, ch. 6):
//!
//! - the **nim-sum** `a ^ b`: the value of the sum of two games, which is bitwise XOR
//!   (Bouton 1901);
//! - the **nim-product** `a * b`: the value of the product of two coin-turning games by
//!   the Tartan theorem (Winning Ways, ch. 14), defined by
//!   `a ⊗ b = mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' : a' < a, b' < b }`.
//!
//! The nimbers below `2^(2^k)` form a subfield for every `k`. The Fermat 2-powers
//! `F = 2^(2^k)` multiply by the rules `F ⊗ x = F·x` for `x < F` and `F ⊗ F = 3F/2`,
//! which gives the recursive product used here: split each factor into halves at `F`,
//! multiply the halves with three half-size products (Karatsuba), and finish the 16-bit
//! field `GF(2^16)` with logarithm tables. A 64-bit product costs nine table lookups and
//! some shifts (see the `nim_product` benchmark).
//!
//! ```
//! use grundy::Nimber;
//! let a = Nimber(13) ^ Nimber(12) ^ Nimber(8);
//! assert_eq!(a, Nimber(9));
//! assert_eq!(Nimber(2) * Nimber(2), Nimber(3)); // F ⊗ F = 3F/2 with F = 2
//! assert_eq!(Nimber(4) * Nimber(4), Nimber(6));
//! assert_eq!(Nimber(7) * Nimber(7).inverse().unwrap(), Nimber(1));
//! ```

use std::fmt;
use std::ops::{BitXor, BitXorAssign, Mul, MulAssign};
use std::sync::OnceLock;

/// A nim-value `*n`. `^` is the nim-sum and `*` the nim-product.
#[derive(
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(transparent)]
pub struct Nimber(pub u64);

impl Nimber {
    /// The value of a finished game (no moves): `*0`.
    pub const ZERO: Nimber = Nimber(0);
    /// The unit of nim multiplication: `*1`.
    pub const ONE: Nimber = Nimber(1);

    /// The plain integer of this nimber.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// Whether this is `*0`, i.e. the position is a P-position (in normal play).
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The nim-product `self ⊗ other` (also available as `*`).
    pub fn nim_mul(self, other: Nimber) -> Nimber {
        Nimber(mul64(self.0, other.0))
    }

    /// `self` raised to the nim-power `exp` (repeated nim-multiplication).
    pub fn nim_pow(self, mut exp: u64) -> Nimber {
        let mut base = self;
        let mut acc = Nimber::ONE;
        while exp > 0 {
            if exp & 1 == 1 {
                acc *= base;
            }
            base = base * base;
            exp >>= 1;
        }
        acc
    }

    /// The nim-inverse: the `y` with `self ⊗ y = 1`, or `None` for `*0`.
    ///
    /// The nimbers below `2^64` are the field `GF(2^64)`, so `x^(2^64 - 2)` is the inverse.
    pub fn inverse(self) -> Option<Nimber> {
        if self.is_zero() {
            None
        } else {
            Some(self.nim_pow(u64::MAX - 1))
        }
    }
}

impl fmt::Debug for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "*{}", self.0)
    }
}

/// Prints the plain integer (`9`), as the literature writes values in tables.
impl fmt::Display for Nimber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl From<u64> for Nimber {
    fn from(n: u64) -> Self {
        Nimber(n)
    }
}

impl From<Nimber> for u64 {
    fn from(n: Nimber) -> Self {
        n.0
    }
}

impl BitXor for Nimber {
    type Output = Nimber;
    /// The nim-sum.
    fn bitxor(self, rhs: Nimber) -> Nimber {
        Nimber(self.0 ^ rhs.0)
    }
}

impl BitXorAssign for Nimber {
    fn bitxor_assign(&mut self, rhs: Nimber) {
        self.0 ^= rhs.0;
    }
}

impl Mul for Nimber {
    type Output = Nimber;
    /// The nim-product.
    fn mul(self, rhs: Nimber) -> Nimber {
        self.nim_mul(rhs)
    }
}

impl MulAssign for Nimber {
    fn mul_assign(&mut self, rhs: Nimber) {
        *self = *self * rhs;
    }
}

impl std::iter::Sum for Nimber {
    /// The nim-sum of many values: the value of a sum of games.
    fn sum<I: Iterator<Item = Nimber>>(iter: I) -> Nimber {
        iter.fold(Nimber::ZERO, |a, b| a ^ b)
    }
}

impl<'a> std::iter::Sum<&'a Nimber> for Nimber {
    fn sum<I: Iterator<Item = &'a Nimber>>(iter: I) -> Nimber {
        iter.copied().sum()
    }
}

/// The minimal excludant: the least value not in `values`.
///
/// Runs in `O(len)` time with a bit set of `len + 1` bits: the mex of `len` values is at most
/// `len`, so larger values can be ignored and nothing needs sorting.
///
/// ```
/// use grundy::nimber::mex;
/// assert_eq!(mex([0, 1, 3, 7]), 2);
/// assert_eq!(mex([]), 0);
/// ```
pub fn mex<I>(values: I) -> u64
where
    I: IntoIterator<Item = u64>,
{
    let values = values.into_iter();
    let mut seen = MexSet::with_capacity(values.size_hint().0);
    for v in values {
        seen.insert(v);
    }
    seen.mex()
}

/// The least value whose bit is not set in `words` (bit `v % 64` of word `v / 64` stands
/// for `v`): the mex of a bit set, in `O(words)`.
///
/// ```
/// use grundy::nimber::mex_of_bits;
/// assert_eq!(mex_of_bits(&[0b1011]), 2);
/// assert_eq!(mex_of_bits(&[u64::MAX, 1]), 65);
/// assert_eq!(mex_of_bits(&[u64::MAX]), 64);
/// ```
pub fn mex_of_bits(words: &[u64]) -> u64 {
    words
        .iter()
        .position(|w| *w != u64::MAX)
        .map_or(words.len() as u64 * 64, |i| {
            i as u64 * 64 + u64::from(words[i].trailing_ones())
        })
}

/// A set of values that answers `mex` quickly: a bit set for values below 2^20 and a short
/// list for the rare larger ones. Reuse it across positions ([`MexSet::clear`]) to avoid
/// allocating in inner loops.
#[derive(Clone, Debug, Default)]
pub struct MexSet {
    words: Vec<u64>,
    /// Values too large for the bit set; the mex only reaches them after 2^20 smaller values.
    big: Vec<u64>,
}

const BITSET_LIMIT: u64 = 1 << 20;

impl MexSet {
    /// An empty set sized for about `n` insertions.
    pub fn with_capacity(n: usize) -> Self {
        MexSet {
            words: Vec::with_capacity((n / 64 + 1).min(BITSET_LIMIT as usize / 64)),
            big: Vec::new(),
        }
    }

    /// Removes every value, keeping the allocation.
    pub fn clear(&mut self) {
        self.words.clear();
        self.big.clear();
    }

    /// Adds a value.
    pub fn insert(&mut self, v: u64) {
        if v >= BITSET_LIMIT {
            self.big.push(v);
            return;
        }
        let word = (v / 64) as usize;
        if word >= self.words.len() {
            self.words.resize(word + 1, 0);
        }
        self.words[word] |= 1 << (v % 64);
    }

    /// Whether `v` was inserted.
    pub fn contains(&self, v: u64) -> bool {
        if v >= BITSET_LIMIT {
            return self.big.contains(&v);
        }
        let word = (v / 64) as usize;
        word < self.words.len() && self.words[word] & (1 << (v % 64)) != 0
    }

    /// The least value not inserted.
    pub fn mex(&self) -> u64 {
        let mut m = mex_of_bits(&self.words);
        // Only reached when 2^20 values below are all present.
        while self.contains(m) {
            m += 1;
        }
        m
    }
}

// ---------------------------------------------------------------------------------------------
// Nim multiplication.

/// Logarithm and exponent tables of the multiplicative group of `GF(2^16)` (nimbers below
/// 65536), built once from the 8-bit product table.
struct Tables {
    /// `log[x]` for `x != 0`, base a generator of the multiplicative group.
    log: Vec<u16>,
    /// `exp[i] = g^i` for `i < 2 * 65535`, so the sum of two logs needs no reduction.
    exp: Vec<u16>,
}

const ORDER16: usize = 65535;

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    // Bytes by the recursion from 2-bit products up, without tables.
    let mut mul8 = vec![0u8; 256 * 256];
    for a in 0..256u64 {
        for b in 0..256u64 {
            mul8[(a * 256 + b) as usize] = mul_recursive(a, b, 8) as u8;
        }
    }
    let m16 = |a: u64, b: u64| mul_halves(a, b, 16, &|x, y| mul8[(x * 256 + y) as usize] as u64);
    // Find a generator: an element whose order is exactly 65535 = 3 * 5 * 17 * 257.
    let pow16 = |mut base: u64, mut e: u64| {
        let mut acc = 1;
        while e > 0 {
            if e & 1 == 1 {
                acc = m16(acc, base);
            }
            base = m16(base, base);
            e >>= 1;
        }
        acc
    };
    let generator = (2..65536u64)
        .find(|&g| {
            [3u64, 5, 17, 257]
                .iter()
                .all(|p| pow16(g, ORDER16 as u64 / p) != 1)
        })
        .expect("GF(2^16) has a generator");
    let mut log = vec![0u16; 65536];
    let mut exp = vec![0u16; 2 * ORDER16];
    let mut x = 1u64;
    for i in 0..ORDER16 {
        exp[i] = x as u16;
        exp[i + ORDER16] = x as u16;
        log[x as usize] = i as u16;
        x = m16(x, generator);
    }
    Tables { log, exp }
}

/// The product of two nimbers below `2^bits` by the half-splitting recursion alone.
fn mul_recursive(a: u64, b: u64, bits: u32) -> u64 {
    if bits == 1 {
        return a & b;
    }
    mul_halves(a, b, bits, &|x, y| mul_recursive(x, y, bits / 2))
}

/// One level of the recursion: `a, b < 2^bits`, `half` multiplies nimbers below
/// `F = 2^(bits/2)`. With `a = a1·F + a0`:
/// `a ⊗ b = ((a0⊕a1)⊗(b0⊕b1) ⊕ a0⊗b0)·F  ⊕  a0⊗b0 ⊕ (a1⊗b1)⊗(F/2)`,
/// from `F ⊗ F = F ⊕ F/2` and Karatsuba's `a1b0 ⊕ a0b1 = (a0⊕a1)(b0⊕b1) ⊕ a0b0 ⊕ a1b1`.
fn mul_halves(a: u64, b: u64, bits: u32, half: &dyn Fn(u64, u64) -> u64) -> u64 {
    let h = bits / 2;
    let mask = (1u64 << h) - 1;
    let (a1, a0) = (a >> h, a & mask);
    let (b1, b0) = (b >> h, b & mask);
    let low = half(a0, b0);
    let high = half(a1, b1);
    let mid = half(a0 ^ a1, b0 ^ b1);
    ((mid ^ low) << h) | (low ^ half(high, 1 << (h - 1)))
}

#[inline]
fn mul16(t: &Tables, a: u64, b: u64) -> u64 {
    if a == 0 || b == 0 {
        return 0;
    }
    t.exp[t.log[a as usize] as usize + t.log[b as usize] as usize] as u64
}

#[inline]
fn mul32(t: &Tables, a: u64, b: u64) -> u64 {
    let (a1, a0) = (a >> 16, a & 0xffff);
    let (b1, b0) = (b >> 16, b & 0xffff);
    let low = mul16(t, a0, b0);
    let high = mul16(t, a1, b1);
    let mid = mul16(t, a0 ^ a1, b0 ^ b1);
    ((mid ^ low) << 16) | (low ^ mul16(t, high, 1 << 15))
}

/// `x ⊗ 2^31` for `x < 2^32`: `2^31 = 2^16 ⊗ 2^15`, and multiplying by the Fermat power
/// `F = 2^16` is `x1·F² ⊕ x0·F = (x1 ⊕ x0)·F ⊕ x1⊗(F/2)`.
#[inline]
fn mul32_by_2_31(t: &Tables, x: u64) -> u64 {
    let y = mul32(t, x, 1 << 15);
    let (y1, y0) = (y >> 16, y & 0xffff);
    ((y1 ^ y0) << 16) | mul16(t, y1, 1 << 15)
}

fn mul64(a: u64, b: u64) -> u64 {
    if a < 65536 && b < 65536 {
        return mul16(tables(), a, b);
    }
    let t = tables();
    let (a1, a0) = (a >> 32, a & 0xffff_ffff);
    let (b1, b0) = (b >> 32, b & 0xffff_ffff);
    let low = mul32(t, a0, b0);
    let high = mul32(t, a1, b1);
    let mid = mul32(t, a0 ^ a1, b0 ^ b1);
    ((mid ^ low) << 32) | (low ^ mul32_by_2_31(t, high))
}

/// The nim-product by its definition, `mex { a'⊗b ⊕ a⊗b' ⊕ a'⊗b' }`, over a table of all
/// smaller products: `O(n^4)`, for checking the fast product on small values.
pub fn nim_mul_table_by_definition(n: usize) -> Vec<Vec<u64>> {
    let mut t = vec![vec![0u64; n]; n];
    for a in 0..n {
        for b in 0..n {
            let mut seen = MexSet::default();
            for a2 in 0..a {
                for b2 in 0..b {
                    seen.insert(t[a2][b] ^ t[a][b2] ^ t[a2][b2]);
                }
            }
            t[a][b] = seen.mex();
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn product_matches_the_mex_definition_below_64() {
        let table = nim_mul_table_by_definition(64);
        for a in 0..64u64 {
            for b in 0..64u64 {
                assert_eq!(mul64(a, b), table[a as usize][b as usize], "{a} ⊗ {b}");
            }
        }
    }

    #[test]
    fn fermat_powers_square_to_three_halves() {
        for k in 0..6 {
            let f = 1u64 << (1 << k);
            if f == 0 {
                continue;
            }
            assert_eq!(mul64(f, f), f + f / 2, "F = 2^{}", 1 << k);
        }
        // And the largest Fermat power below 2^64 multiplies by shifting.
        assert_eq!(mul64(1 << 32, 5), 5 << 32);
    }

    #[test]
    fn recursive_and_table_products_agree_on_16_bits() {
        let mut x = 0x1234_5678u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (a, b) = (x & 0xffff, (x >> 20) & 0xffff);
            assert_eq!(mul16(tables(), a, b), mul_recursive(a, b, 16));
        }
    }

    #[test]
    fn mex_of_small_sets() {
        assert_eq!(mex([]), 0);
        assert_eq!(mex([1, 2]), 0);
        assert_eq!(mex([0, 2, 1, 4]), 3);
        assert_eq!(mex([0, 1, 2, u64::MAX]), 3);
        assert_eq!(mex([5, 0, 0, 1, 1_000_000_000]), 2);
    }

    proptest! {
        #[test]
        fn product_agrees_with_pure_recursion(a: u64, b: u64) {
            prop_assert_eq!(mul64(a, b), mul_recursive(a, b, 64));
        }

        #[test]
        fn field_laws(a: u64, b: u64, c: u64) {
            let (a, b, c) = (Nimber(a), Nimber(b), Nimber(c));
            prop_assert_eq!(a * b, b * a);
            prop_assert_eq!((a * b) * c, a * (b * c));
            prop_assert_eq!(a * (b ^ c), (a * b) ^ (a * c));
            prop_assert_eq!(a * Nimber::ONE, a);
        }

        #[test]
        fn inverse_inverts(a in 1u64..) {
            let inv = Nimber(a).inverse().unwrap();
            prop_assert_eq!(Nimber(a) * inv, Nimber::ONE);
        }

        #[test]
        fn mex_matches_sorting(values in proptest::collection::vec(0u64..40, 0..60)) {
            let mut sorted = values.clone();
            sorted.sort_unstable();
            sorted.dedup();
            let expected = sorted.iter().enumerate().find(|(i, v)| *i as u64 != **v)
                .map_or(sorted.len() as u64, |(i, _)| i as u64);
            prop_assert_eq!(mex(values), expected);
        }
    }
}
