//! Octal and hexadecimal codes of take-and-break games.
//!
//! A code `d0.d1d2d3...` (Guy and Smith, *The G-values of various games*, 1956; Winning Ways
//! ch. 4) says for each `j` what removing `j` tokens from one heap may leave: digit `dj` is
//! a sum of bits, `1` if it may leave no heap, `2` one heap, `4` two heaps, and in hexadecimal
//! codes `8` three heaps. The digit before the point is `j = 0`: a heap may be split without
//! removing anything (`4.07`: split a heap into two, or remove two tokens, ...). Kayles is
//! `0.77`, Dawson's chess `0.137`, Dawson's Kayles `0.07`.
//!
//! ```
//! use grundy::heap::code::Code;
//! let kayles: Code = "0.77".parse().unwrap();
//! assert!(kayles.allows(2, 2)); // take two, leave one heap
//! assert!(kayles.allows(1, 0)); // take one, leave nothing
//! assert_eq!(kayles.max_removal(), 2);
//! assert_eq!(kayles.to_string(), "0.77");
//! assert!("0.8".parse::<Code>().unwrap().is_hex()); // digits above 7 make a hex code
//! ```

use std::fmt;
use std::str::FromStr;

/// A checked octal or hexadecimal code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Code {
    /// `digits[j]` for removing `j` tokens, `j = 0` being the digit before the point.
    /// Trailing zero digits are dropped.
    digits: Vec<u8>,
    /// Whether the code is hexadecimal (some digit allows three heaps).
    hex: bool,
}

/// Why a code could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CodeError {
    /// No point, or nothing after it.
    #[error(
        "`{}` is not a code: expected digits, a point and digits, such as 0.137 or 4.07",
        crate::expr::shorten(.0)
    )]
    Shape(String),
    /// A digit that is not a hexadecimal digit.
    #[error(
        "`{digit}` at position {position} of `{}` is not an octal or hexadecimal digit",
        crate::expr::shorten(.code)
    )]
    Digit {
        /// The code.
        code: String,
        /// The bad character.
        digit: char,
        /// Its 0-based position in the code.
        position: usize,
    },
    /// The code allows no move at all.
    #[error("`{0}` allows no move at all")]
    Empty(String),
    /// A digit above 15 (from [`Code::from_digits`]).
    #[error("{0} is not a digit of a code: digits are 0 to 15 (0-f)")]
    DigitTooLarge(u8),
    /// More than one digit before the point.
    #[error("`{0}`: only one digit may stand before the point (splitting without removal)")]
    Whole(String),
}

impl Code {
    /// The code from its digits (`digits[0]` before the point); each digit at most 15.
    pub fn from_digits(mut digits: Vec<u8>) -> Result<Code, CodeError> {
        if let Some(&d) = digits.iter().find(|&&d| d > 15) {
            return Err(CodeError::DigitTooLarge(d));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        let hex = digits.iter().any(|&d| d >= 8);
        if digits.iter().all(|&d| d == 0) {
            return Err(CodeError::Empty(format_code(&digits, hex)));
        }
        Ok(Code { digits, hex })
    }

    /// The digit for removing `j` tokens (0 past the last digit).
    pub fn digit(&self, j: usize) -> u8 {
        self.digits.get(j).copied().unwrap_or(0)
    }

    /// The digits, `j = 0` first.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// Whether removing `j` tokens may leave `heaps` heaps (0 to 3).
    pub fn allows(&self, j: usize, heaps: u32) -> bool {
        heaps < 4 && self.digit(j) & (1 << heaps) != 0
    }

    /// The largest number of tokens a move removes.
    pub fn max_removal(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether this is a hexadecimal code (some move leaves three heaps).
    pub fn is_hex(&self) -> bool {
        self.hex
    }

    /// Whether every move leaves at most one heap: a subtraction-like game.
    pub fn never_splits(&self) -> bool {
        self.digits.iter().all(|&d| d & 0b1100 == 0)
    }
}

/// The most codes [`Code::unshifted`] gives.
pub const MAX_UNSHIFTED: usize = 4096;

/// The bits of a digit of the code one heap down that a move leaving `j` heaps gives: a
/// move may leave any `i <= j` of its heaps non-empty there.
fn down_mask(j: usize) -> u8 {
    (1 << (j + 1)) - 1
}

impl Code {
    /// The code one heap down, when heaps of one token are dead here (no move takes a lone
    /// token): heap `n + 1` of this game plays as heap `n` of the code returned, so its
    /// `g(n)` is `g(n + 1)` here for every `n` (and `g(1) = g(0) = 0` here). `0.07`'s is
    /// `0.137`: Dawson's Kayles is Dawson's chess one heap on (Winning Ways, ch. 4).
    ///
    /// Why: a heap of one token is worth nothing here, so a heap of `m` tokens may be read
    /// as one of `m - 1`. A move that removes `k` tokens and leaves `j` heaps of `p_i >= 1`
    /// tokens then leaves `j` heaps of `p_i - 1 >= 0`, having removed `k + j - 1` of the
    /// `m - 1`; those that had one token are gone. So digit `t` down here has bit `i` exactly
    /// when some digit `k = t + 1 - j` here has bit `j >= i`, and each such move exists for
    /// every heap size (the heaps of one token and the larger ones chosen freely): the two
    /// heaps have the same options, read alike, and by induction the same value. `None` when
    /// a lone token can be taken (or the digit before the point is not a split).
    ///
    /// ```
    /// use grundy::heap::code::Code;
    /// let dawsons_kayles: Code = "0.07".parse().unwrap();
    /// assert_eq!(dawsons_kayles.shifted().unwrap().to_string(), "0.137");
    /// assert_eq!("0.137".parse::<Code>().unwrap().shifted(), None);
    /// ```
    pub fn shifted(&self) -> Option<Code> {
        // A lone token taken (digit 1, no heap left), or a digit 0 that is not a split.
        if self.digit(1) & 1 != 0 || self.digit(0) & 0b11 != 0 {
            return None;
        }
        let mut down = vec![0u8; self.digits.len() + 3];
        for (k, &d) in self.digits.iter().enumerate() {
            for j in 0..4 {
                if d & (1 << j) != 0 {
                    // k + j - 1 >= 1 here: (k, j) = (1, 0) and k = 0 with j < 2 are out.
                    down[k + j - 1] |= down_mask(j);
                }
            }
        }
        Code::from_digits(down).ok()
    }

    /// The codes whose [`Code::shifted`] is this one: each plays, one heap on, as this
    /// game (`g(n + 1)` there is `g(n)` here), so they all have one sequence. At most
    /// [`MAX_UNSHIFTED`] of them (the first found), shortest codes first.
    ///
    /// Each digit `t` here is made by the bits `(k, j)` of the codes up with `k + j - 1 =
    /// t` (at most four), so the ways to make each digit are found apart and combined.
    ///
    /// ```
    /// use grundy::heap::code::Code;
    /// let dawsons_chess: Code = "0.137".parse().unwrap();
    /// let up: Vec<String> = dawsons_chess.unshifted().iter().map(|c| c.to_string()).collect();
    /// assert_eq!(up[..4], ["0.07", "0.071", "0.072", "0.073"]);
    /// ```
    pub fn unshifted(&self) -> Vec<Code> {
        let down = &self.digits;
        if down[0] != 0 {
            return Vec::new();
        }
        // Each digit's ways: the bits (k, 1 << j) to set one heap up.
        let mut all: Vec<Vec<u8>> = vec![vec![0; down.len() + 1]];
        for (t, &digit) in down.iter().enumerate().skip(1) {
            let pairs: Vec<(usize, u8, u8)> = (0..4)
                .filter(|&j| j <= t + 1)
                .map(|j| (t + 1 - j, j))
                // A lone token taken, or digit 0 neither splitting: not a code with a shift.
                .filter(|&(k, j)| !((k == 1 && j == 0) || (k == 0 && j < 2)))
                .filter(|&(_, j)| digit & down_mask(j) == down_mask(j))
                .map(|(k, j)| (k, 1 << j, down_mask(j)))
                .collect();
            let ways: Vec<Vec<(usize, u8)>> = (0u32..1 << pairs.len())
                .filter(|&set| {
                    let made = pairs
                        .iter()
                        .enumerate()
                        .filter(|&(i, _)| set >> i & 1 == 1)
                        .fold(0, |m, (_, p)| m | p.2);
                    made == digit
                })
                .map(|set| {
                    let chosen = pairs.iter().enumerate().filter(|&(i, _)| set >> i & 1 == 1);
                    chosen.map(|(_, &(k, bit, _))| (k, bit)).collect()
                })
                .collect();
            let mut next = Vec::new();
            'combine: for up in &all {
                for way in &ways {
                    if next.len() == MAX_UNSHIFTED {
                        break 'combine;
                    }
                    let mut up = up.clone();
                    for &(k, bit) in way {
                        up[k] |= bit;
                    }
                    next.push(up);
                }
            }
            all = next;
        }
        let mut out: Vec<Code> = all
            .into_iter()
            .filter_map(|up| Code::from_digits(up).ok())
            .filter(|up| up.shifted().as_ref() == Some(self))
            .collect();
        out.sort_by(|a, b| (a.digits.len(), &a.digits).cmp(&(b.digits.len(), &b.digits)));
        out
    }

    /// The codes that differ from this one only in whether a heap of exactly `k` tokens may
    /// be taken whole (bit 1 of digit `k`), for `k` from 1 to one past the last digit, and
    /// play the same game: each with its `k`. That move is made from the heap of `k` alone
    /// and leaves nothing (value 0); every other option of every heap is the same in both
    /// codes. So the two sequences agree iff the code without the move has `g(k) != 0`
    /// (then an option of value 0 is there already, and the mex of the heap of `k`, hence
    /// every value after it, is unchanged), which is checked here from the definition.
    /// OEIS names such twins (".156 and .1561"). Codes of more than [`MAX_TWIN_DIGITS`]
    /// digits get none (the check costs about `L^4` steps for a hexadecimal code of `L`).
    ///
    /// ```
    /// use grundy::heap::code::Code;
    /// let code: Code = "0.156".parse().unwrap();
    /// let twins: Vec<String> = code.whole_heap_twins().iter().map(|(c, _)| c.to_string()).collect();
    /// assert_eq!(twins, ["0.1561"]);
    /// ```
    pub fn whole_heap_twins(&self) -> Vec<(Code, usize)> {
        let past_last = self.digits.len();
        if past_last > MAX_TWIN_DIGITS {
            return Vec::new();
        }
        // Below heap k both codes have the same options, hence the same values: this code's.
        let mut g: Vec<u32> = Vec::with_capacity(past_last + 1);
        for n in 0..=past_last {
            g.push(mex_of_heap(&self.digits, &g, n));
        }
        (1..=past_last)
            .filter_map(|k| {
                let mut digits = self.digits.clone();
                digits.resize(past_last + 1, 0);
                let mut without = digits.clone();
                without[k] &= !1;
                digits[k] ^= 1;
                let zero_without = mex_of_heap(&without, &g[..k], k) == 0;
                let other = Code::from_digits(digits).ok()?;
                // A code left with no move is no game (`0.1` less its one move).
                Code::from_digits(without).ok()?;
                (!zero_without).then_some((other, k))
            })
            .collect()
    }
}

/// The most digits a code may have for [`Code::whole_heap_twins`].
pub const MAX_TWIN_DIGITS: usize = 64;

/// `g(n)` of the code with `digits`, from the definition (the mex of the options read off
/// the digits), given `g[..n]`.
fn mex_of_heap(digits: &[u8], g: &[u32], n: usize) -> u32 {
    let mut seen = vec![false; 1];
    let mut see = |v: u32| {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    };
    for (k, &d) in digits.iter().enumerate().take(n + 1) {
        let rest = n - k;
        if d & 1 != 0 && k > 0 && rest == 0 {
            see(0);
        }
        if d & 2 != 0 && k > 0 && rest >= 1 {
            see(g[rest]);
        }
        if d & 4 != 0 {
            (1..rest).for_each(|a| see(g[a] ^ g[rest - a]));
        }
        if d & 8 != 0 {
            for a in 1..rest {
                (1..rest - a).for_each(|b| see(g[a] ^ g[b] ^ g[rest - a - b]));
            }
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

fn format_code(digits: &[u8], _hex: bool) -> String {
    let d = |x: &u8| char::from_digit(*x as u32, 16).unwrap_or('?');
    let mut s = String::new();
    s.push(digits.first().map_or('0', d));
    s.push('.');
    if digits.len() == 1 {
        s.push('0');
    }
    s.extend(digits.iter().skip(1).map(d));
    s
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_code(&self.digits, self.hex))
    }
}

impl FromStr for Code {
    type Err = CodeError;

    /// Reads `d.ddd`: octal digits, or hexadecimal digits `0-9a-f` (any digit above 7 makes
    /// the code hexadecimal). A leading `.` alone (`.137`) is also accepted.
    fn from_str(s: &str) -> Result<Code, CodeError> {
        let (whole, frac) = s
            .split_once('.')
            .ok_or_else(|| CodeError::Shape(s.into()))?;
        // One point: `0..7` or `0.7.7` is no code (the second point was read as nothing).
        if frac.is_empty() || frac.contains('.') {
            return Err(CodeError::Shape(s.into()));
        }
        if whole.len() > 1 {
            return Err(CodeError::Whole(s.into()));
        }
        let mut digits = Vec::with_capacity(frac.len() + 1);
        for (position, c) in whole
            .chars()
            .chain(std::iter::once('.'))
            .chain(frac.chars())
            .enumerate()
        {
            if c == '.' {
                if whole.is_empty() {
                    digits.push(0);
                }
                continue;
            }
            let v = c.to_digit(16).ok_or(CodeError::Digit {
                code: s.into(),
                digit: c,
                position,
            })?;
            digits.push(v as u8);
        }
        Code::from_digits(digits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_read_and_print() {
        for s in ["0.77", "0.137", "4.07", "0.007", "0.f", "0.167", "0.3f"] {
            assert_eq!(s.parse::<Code>().unwrap().to_string(), s);
        }
        assert_eq!(".137".parse::<Code>().unwrap().to_string(), "0.137");
        assert_eq!("0.770".parse::<Code>().unwrap().to_string(), "0.77");
        assert!("0.f".parse::<Code>().unwrap().is_hex());
        assert!("0.3".parse::<Code>().unwrap().never_splits());
        assert!(!"0.7".parse::<Code>().unwrap().never_splits());
        assert!(matches!(
            "0.1g".parse::<Code>(),
            Err(CodeError::Digit { digit: 'g', .. })
        ));
        assert!(matches!("0.000".parse::<Code>(), Err(CodeError::Empty(_))));
        assert!(matches!("12.3".parse::<Code>(), Err(CodeError::Whole(_))));
        assert!(matches!("3".parse::<Code>(), Err(CodeError::Shape(_))));
        for two_points in ["0..7", "0.7.7", "..7", "0.7."] {
            assert!(
                matches!(two_points.parse::<Code>(), Err(CodeError::Shape(_))),
                "{two_points}"
            );
        }
        assert_eq!(
            Code::from_digits(vec![0, 16]),
            Err(CodeError::DigitTooLarge(16))
        );
    }
}
