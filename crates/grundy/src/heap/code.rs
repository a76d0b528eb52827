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
