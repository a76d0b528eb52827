//! Positions of scripted games: the script's values, made hashable.
//!
//! A script may use any value Rhai has for a position; the engines need positions they can
//! hash and compare, so a position is converted into a [`Pos`]: a whole number, a string, a
//! boolean, a character, or an array of these (nested at most [`MAX_DEPTH`] deep). Maps,
//! floating-point numbers and functions are refused with a message that says which.

use rhai::{Array, Dynamic};
use std::fmt;

/// How deeply arrays may nest inside a position.
pub const MAX_DEPTH: usize = 32;

/// A position of a scripted game.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pos {
    /// A whole number.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A character.
    Char(char),
    /// A string.
    Str(Box<str>),
    /// An array of positions, in order.
    List(Vec<Pos>),
}

impl Pos {
    /// The 64-bit words this position owns on the heap (a string's bytes, an array's items
    /// and what they own), for the engines' memory and work accounting.
    pub fn words(&self) -> u64 {
        match self {
            Pos::Int(_) | Pos::Bool(_) | Pos::Char(_) => 0,
            Pos::Str(s) => (s.len() as u64).div_ceil(8),
            Pos::List(items) => items.iter().fold(
                (items.len() as u64).saturating_mul(std::mem::size_of::<Pos>() as u64 / 8),
                |sum, p| sum.saturating_add(p.words()),
            ),
        }
    }

    /// Converts a script value; `Err` names the type that cannot be a position.
    pub fn from_dynamic(value: &Dynamic) -> Result<Pos, String> {
        Self::convert(value, 0)
    }

    fn convert(value: &Dynamic, depth: usize) -> Result<Pos, String> {
        if let Ok(i) = value.as_int() {
            return Ok(Pos::Int(i));
        }
        if let Ok(b) = value.as_bool() {
            return Ok(Pos::Bool(b));
        }
        if let Ok(c) = value.as_char() {
            return Ok(Pos::Char(c));
        }
        if value.is_string() {
            return Ok(Pos::Str(value.to_string().into_boxed_str()));
        }
        if value.is_array() {
            if depth >= MAX_DEPTH {
                return Err(format!("arrays nested deeper than {MAX_DEPTH} levels"));
            }
            let array = value
                .read_lock::<Array>()
                .ok_or("an array in use elsewhere")?;
            return array
                .iter()
                .map(|v| Self::convert(v, depth + 1))
                .collect::<Result<Vec<_>, _>>()
                .map(Pos::List);
        }
        Err(format!(
            "a value of type `{}` (a position must be a whole number, a string, a boolean, a \
             character or an array of these)",
            value.type_name()
        ))
    }

    /// The script value of this position.
    pub fn to_dynamic(&self) -> Dynamic {
        match self {
            Pos::Int(i) => Dynamic::from_int(*i),
            Pos::Bool(b) => Dynamic::from_bool(*b),
            Pos::Char(c) => Dynamic::from_char(*c),
            Pos::Str(s) => Dynamic::from(s.to_string()),
            Pos::List(items) => Dynamic::from_array(items.iter().map(Pos::to_dynamic).collect()),
        }
    }

    /// The position as expression arguments, if it has a plain form: a number or string is one
    /// argument, a flat array one argument per element.
    pub fn plain_args(&self) -> Option<Vec<String>> {
        match self {
            Pos::List(items) => items.iter().map(Pos::plain_arg).collect(),
            other => Some(vec![other.plain_arg()?]),
        }
    }

    fn plain_arg(&self) -> Option<String> {
        match self {
            Pos::Int(i) => Some(i.to_string()),
            Pos::Bool(b) => Some(b.to_string()),
            Pos::Char(c) => Some(c.to_string()),
            Pos::Str(s) => Some(s.to_string()),
            Pos::List(_) => None,
        }
    }
}

/// Rhai's own notation: `5`, `[21, 13]`, `"abc"`.
impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Pos::Int(i) => write!(f, "{i}"),
            Pos::Bool(b) => write!(f, "{b}"),
            Pos::Char(c) => write!(f, "'{c}'"),
            Pos::Str(s) => write!(f, "{s:?}"),
            Pos::List(items) => {
                f.write_str("[")?;
                for (i, p) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str("]")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_round_trip_and_bad_values_are_named() {
        let p = Pos::List(vec![Pos::Int(21), Pos::Int(13), Pos::Str("x".into())]);
        assert_eq!(Pos::from_dynamic(&p.to_dynamic()).unwrap(), p);
        assert_eq!(p.to_string(), "[21, 13, \"x\"]");
        assert_eq!(
            p.plain_args().unwrap(),
            vec!["21".to_string(), "13".into(), "x".into()]
        );
        let e = Pos::from_dynamic(&Dynamic::from_float(1.5)).unwrap_err();
        assert!(e.contains("f64"), "{e}");
        let mut deep = Dynamic::from_int(0);
        for _ in 0..100 {
            deep = Dynamic::from_array(vec![deep]);
        }
        assert!(Pos::from_dynamic(&deep).unwrap_err().contains("nested"));
    }
}
