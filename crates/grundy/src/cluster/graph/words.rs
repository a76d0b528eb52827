//! What the messages of the readings and explorations are made of: texts packed in `u32`
//! words, the worker that owns a text, outcomes as numbers.

use crate::value::Outcome;

/// The most words a worker puts in one outbox before it sends them (a bound on the memory of
/// a step's messages; a longer payload would still arrive whole, see [`super::step`]).
pub(super) const ROOM: usize = super::step::CHUNK / 2;

/// Appends `text`: its length in bytes, then its bytes in little-endian words, the last one
/// padded with zeros.
pub(super) fn push_text(out: &mut Vec<u32>, text: &str) {
    out.push(text.len() as u32);
    out.extend(text.as_bytes().chunks(4).map(|c| {
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        u32::from_le_bytes(b)
    }));
}

/// The words [`push_text`] appends for a text of `len` bytes.
pub(super) fn text_words(len: usize) -> usize {
    1 + len.div_ceil(4)
}

/// The text at `words[*i]` (as [`push_text`] put it), `*i` moved past it; `None` if the
/// words end too soon or the bytes are not UTF-8.
pub(super) fn take_text(words: &[u32], i: &mut usize) -> Option<String> {
    let len = *words.get(*i)? as usize;
    let body = words.get(*i + 1..*i + text_words(len))?;
    *i += text_words(len);
    let mut bytes: Vec<u8> = body.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.truncate(len);
    String::from_utf8(bytes).ok()
}

/// The worker of `peers` that owns `text` (a name, a position): a hash of its bytes.
pub(super) fn owner(text: &str, peers: usize) -> usize {
    let h = text
        .as_bytes()
        .chunks(8)
        .fold(crate::hash::mix(0, text.len() as u64), |h, c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            crate::hash::mix(h, u64::from_le_bytes(b))
        });
    ((h >> 32) % peers as u64) as usize
}

/// An outcome as a message carries it: 0 P, 1 N, 2 draw.
pub(super) fn outcome_word(o: Outcome) -> u8 {
    match o {
        Outcome::P => 0,
        Outcome::N => 1,
        Outcome::Draw => 2,
    }
}

/// The outcome of [`outcome_word`]'s number.
pub(super) fn outcome_of(word: u32) -> Outcome {
    match word {
        0 => Outcome::P,
        1 => Outcome::N,
        _ => Outcome::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_come_back_as_they_went() {
        let mut out = vec![7];
        for t in ["", "a", "abcd", "abcde", "0.137 12 + nim 3", "é∞"] {
            push_text(&mut out, t);
        }
        let mut i = 1;
        for t in ["", "a", "abcd", "abcde", "0.137 12 + nim 3", "é∞"] {
            assert_eq!(take_text(&out, &mut i).as_deref(), Some(t));
        }
        assert_eq!(i, out.len());
        // Cut short: no text.
        let mut i = 0;
        assert_eq!(take_text(&[9, 0], &mut i), None);
    }

    #[test]
    fn owners_spread_and_stay() {
        let mut seen = [0u32; 3];
        for n in 0..300 {
            let o = owner(&format!("v{n}"), 3);
            assert_eq!(o, owner(&format!("v{n}"), 3));
            seen[o] += 1;
        }
        assert!(seen.iter().all(|&c| c > 60), "{seen:?}");
    }
}
