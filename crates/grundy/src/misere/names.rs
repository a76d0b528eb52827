//! Names of misère quotient elements: shortest words in the images of the generators.

use super::quotient::Quotient;
use std::collections::VecDeque;

impl Quotient {
    /// A name for each element: `1` for the identity, otherwise a shortest word in letters
    /// `a`, `b`, `c`, … standing for the distinct images of the generators in order (`ab²`).
    pub fn names(&self) -> Vec<String> {
        // Letters: the images of the generators in order, each one not already a product of
        // the letters before it (a minimal generating set, read in heap order).
        let n = self.order();
        let mut letters: Vec<u32> = Vec::new();
        let mut reached = vec![false; n];
        reached[0] = true;
        for x in (0..self.generator_count() as u32).map(|g| self.image_of_generator(g)) {
            if reached[x as usize] {
                continue;
            }
            letters.push(x);
            let mut queue: VecDeque<u32> = (0..n as u32).filter(|&y| reached[y as usize]).collect();
            while let Some(y) = queue.pop_front() {
                for &l in &letters {
                    let z = self.mul(y, l) as usize;
                    if !reached[z] {
                        reached[z] = true;
                        queue.push_back(z as u32);
                    }
                }
            }
        }
        let mut word: Vec<Option<Vec<u32>>> = vec![None; n];
        word[0] = Some(vec![0; letters.len()]);
        let mut queue = VecDeque::from([0u32]);
        while let Some(x) = queue.pop_front() {
            for (l, &g) in letters.iter().enumerate() {
                let y = self.mul(x, g) as usize;
                if word[y].is_none() {
                    let mut w = word[x as usize].clone().unwrap_or_default();
                    w[l] += 1;
                    word[y] = Some(w);
                    queue.push_back(y as u32);
                }
            }
        }
        word.into_iter()
            .map(|w| match w {
                Some(w) if w.iter().any(|&k| k > 0) => w
                    .iter()
                    .enumerate()
                    .filter(|&(_, &k)| k > 0)
                    .map(|(l, &k)| format!("{}{}", letter(l), superscript(k)))
                    .collect(),
                Some(_) => "1".to_string(),
                None => "?".to_string(),
            })
            .collect()
    }
}

fn letter(l: usize) -> String {
    let alphabet = "abcdefghijklmnopqrstuvwxyz";
    match alphabet.chars().nth(l) {
        Some(c) => c.to_string(),
        None => format!("x{l}_"),
    }
}

fn superscript(k: u32) -> String {
    if k == 1 {
        return String::new();
    }
    k.to_string()
        .chars()
        .map(|c| match c {
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            _ => '⁹',
        })
        .collect()
}
