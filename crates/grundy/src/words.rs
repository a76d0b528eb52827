//! Counts in words that agree in number: "1 vertex", "2 vertices", "1 move", "3 moves".
//!
//! Every message that puts a number before a noun goes through [`count`] (or [`plural`] for
//! the noun alone), so that no front end prints "1 values".

use std::borrow::Cow;

/// Nouns whose plural is not made by adding `s` or `es`.
const IRREGULAR: &[(&str, &str)] = &[("vertex", "vertices"), ("index", "indices")];

/// `noun` in the singular when `n` is 1, else in the plural.
///
/// ```
/// use grundy::words::plural;
/// assert_eq!(plural(1u64, "move"), "move");
/// assert_eq!(plural(0u64, "vertex"), "vertices");
/// assert_eq!(plural(2u64, "entry"), "entries");
/// ```
pub fn plural(n: impl TryInto<u64>, noun: &str) -> Cow<'_, str> {
    if matches!(n.try_into(), Ok(1)) {
        return noun.into();
    }
    if let Some((_, many)) = IRREGULAR.iter().find(|(one, _)| *one == noun) {
        return (*many).into();
    }
    let consonant_y = noun.strip_suffix('y').is_some_and(|stem| {
        stem.chars()
            .last()
            .is_some_and(|c| !"aeiou".contains(c.to_ascii_lowercase()))
    });
    if consonant_y {
        format!("{}ies", &noun[..noun.len() - 1]).into()
    } else if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| noun.ends_with(e))
    {
        format!("{noun}es").into()
    } else {
        format!("{noun}s").into()
    }
}

/// `n` and `noun`, agreeing in number.
///
/// ```
/// use grundy::words::count;
/// assert_eq!(count(1u64, "vertex"), "1 vertex");
/// assert_eq!(count(12u64, "vertex"), "12 vertices");
/// assert_eq!(count(1usize, "value"), "1 value");
/// assert_eq!(count(0u64, "position"), "0 positions");
/// ```
pub fn count<N: TryInto<u64> + Copy + std::fmt::Display>(n: N, noun: &str) -> String {
    format!("{n} {}", plural(n, noun))
}

/// Items joined as a sentence lists them: `a`, `a and b`, `a, b and c`.
///
/// ```
/// use grundy::words::listed;
/// assert_eq!(listed(&["kayles", "0.75", "0.07"]), "kayles, 0.75 and 0.07");
/// assert_eq!(listed(&["kayles", "0.75"]), "kayles and 0.75");
/// assert_eq!(listed(&["kayles"]), "kayles");
/// ```
pub fn listed<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(|s| s.as_ref()).collect();
            format!("{} and {}", rest.join(", "), last.as_ref())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nouns_used_in_messages() {
        for (noun, many) in [
            ("value", "values"),
            ("vertex", "vertices"),
            ("edge", "edges"),
            ("position", "positions"),
            ("move", "moves"),
            ("element", "elements"),
            ("cell", "cells"),
            ("digit", "digits"),
            ("argument", "arguments"),
            ("token", "tokens"),
            ("line", "lines"),
            ("entry", "entries"),
            ("key", "keys"),
            ("box", "boxes"),
            ("match", "matches"),
        ] {
            assert_eq!(plural(1u64, noun), noun);
            assert_eq!(plural(2u64, noun), many);
            assert_eq!(count(1u64, noun), format!("1 {noun}"));
            assert_eq!(count(0u64, noun), format!("0 {many}"));
        }
    }
}
