//! A presentation of a misère quotient by generators and relations, the way Plambeck and
//! Siegel write them: `R8 = ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩` for 0.75.
//!
//! ## Normal forms
//! The letters `a`, `b`, `c`, … are the images of the heaps, read in heap order, each one
//! not already a product of the letters before it. Every element is a product of letters, and
//! its *normal form* is the least word (monomial) that gives it in the order that compares
//! degrees first and then, at the first letter whose exponents differ, puts the larger
//! exponent first (`ab² < ac²`). That order is a monomial order (it is kept when both sides
//! are multiplied by one letter), so the set of normal forms is closed under division: a
//! divisor `d` of a normal form `m = d·r` that were not normal would have a smaller word
//! `d'`, and `d'·r < m` would give the same element.
//!
//! ## Relations
//! A word that is not a normal form, but whose every divisor by one letter is, is a
//! *minimal non-normal word*; the relations are `w = NF(w)` for those words. They are the
//! reduced Gröbner basis of the quotient's congruence for this order: every word not normal
//! has a minimal non-normal divisor, and rewriting it by its relation makes the word
//! smaller, so rewriting ends, at the normal form (the only normal word of its element).
//! Hence the relations define the monoid, and no relation follows from the others (the left
//! side of each is rewritten by no other).
//!
//! Cost: normal forms of degree `d` are normal forms of degree `d - 1` times a letter, so the
//! words tried are at most `|Q|·L` for `L` letters, each with `O(L)` work: `O(|Q|·L²)`.

use super::monoid::Quotient;
use std::collections::{HashMap, HashSet};

/// A word in the letters: the exponent of each letter, index = letter.
pub type Word = Vec<u32>;

/// The letters of a quotient and the normal form of each element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NormalForms {
    /// The element each letter stands for, in order (`a` first).
    pub letters: Vec<u32>,
    /// The normal form of each element, index = element (`None`: not a product of the
    /// letters, which cannot happen for a quotient built from its generators).
    pub words: Vec<Option<Word>>,
    /// The relations `w = NF(w)` for the minimal non-normal words `w`, in the order of `w`.
    pub relations: Vec<(Word, Word)>,
}

/// One relation, written out (`lhs = rhs`).
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Relation {
    /// The minimal non-normal word (`b³`).
    pub lhs: String,
    /// Its normal form (`b`; `1` for the identity).
    pub rhs: String,
}

/// A presentation `⟨letters | relations⟩`, as `grundy quotient` prints it.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Presentation {
    /// The letters (`a`, `b`, …).
    pub generators: Vec<String>,
    /// The relations.
    pub relations: Vec<Relation>,
}

impl std::fmt::Display for Presentation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let rels: Vec<String> = self
            .relations
            .iter()
            .map(|r| format!("{} = {}", r.lhs, r.rhs))
            .collect();
        write!(f, "⟨{} | {}⟩", self.generators.join(", "), rels.join(", "))
    }
}

/// `u` before `v`: lower degree first, then the larger exponent at the first letter where
/// they differ.
fn word_order(u: &[u32], v: &[u32]) -> std::cmp::Ordering {
    let du: u64 = u.iter().map(|&k| u64::from(k)).sum();
    let dv: u64 = v.iter().map(|&k| u64::from(k)).sum();
    du.cmp(&dv).then_with(|| {
        u.iter()
            .zip(v)
            .find(|(a, b)| a != b)
            .map_or(std::cmp::Ordering::Equal, |(a, b)| b.cmp(a))
    })
}

impl Quotient {
    /// The letters, the normal form of every element and the relations (module docs).
    pub fn normal_forms(&self) -> NormalForms {
        let n = self.order();
        let letters = self.letters();
        let l = letters.len();
        let mut words: Vec<Option<Word>> = vec![None; n];
        words[0] = Some(vec![0; l]);
        let mut relations = Vec::new();
        // The normal forms of the last degree, with their elements.
        let mut level: Vec<(Word, u32)> = vec![(vec![0; l], 0)];
        while !level.is_empty() {
            let normal: HashSet<&Word> = level.iter().map(|(w, _)| w).collect();
            let mut candidates: HashMap<Word, u32> = HashMap::new();
            for (w, x) in &level {
                for (i, &g) in letters.iter().enumerate() {
                    let mut m = w.clone();
                    m[i] += 1;
                    candidates.entry(m).or_insert_with(|| self.mul(*x, g));
                }
            }
            let mut candidates: Vec<(Word, u32)> = candidates.into_iter().collect();
            candidates.sort_by(|a, b| word_order(&a.0, &b.0));
            let mut next = Vec::new();
            for (m, x) in candidates {
                match &words[x as usize] {
                    None => {
                        words[x as usize] = Some(m.clone());
                        next.push((m, x));
                    }
                    Some(nf) => {
                        let minimal = (0..l).filter(|&i| m[i] > 0).all(|i| {
                            let mut d = m.clone();
                            d[i] -= 1;
                            normal.contains(&d)
                        });
                        if minimal {
                            relations.push((m, nf.clone()));
                        }
                    }
                }
            }
            level = next;
        }
        NormalForms {
            letters,
            words,
            relations,
        }
    }

    /// The presentation `⟨a, b, … | relations⟩` (module docs).
    pub fn presentation(&self) -> Presentation {
        let nf = self.normal_forms();
        Presentation {
            generators: (0..nf.letters.len()).map(letter).collect(),
            relations: nf
                .relations
                .iter()
                .map(|(w, r)| Relation {
                    lhs: render(w),
                    rhs: render(r),
                })
                .collect(),
        }
    }

    /// The images of the generators in order, each one not already a product of the letters
    /// before it: a minimal generating set, read in heap order.
    fn letters(&self) -> Vec<u32> {
        let n = self.order();
        let mut letters: Vec<u32> = Vec::new();
        let mut reached = vec![false; n];
        reached[0] = true;
        for x in (0..self.generator_count() as u32).map(|g| self.image_of_generator(g)) {
            if reached[x as usize] {
                continue;
            }
            letters.push(x);
            let mut queue: Vec<u32> = (0..n as u32).filter(|&y| reached[y as usize]).collect();
            while let Some(y) = queue.pop() {
                for &g in &letters {
                    let z = self.mul(y, g) as usize;
                    if !reached[z] {
                        reached[z] = true;
                        queue.push(z as u32);
                    }
                }
            }
        }
        letters
    }
}

/// A word written out: `1` for the empty word, otherwise letters with superscript exponents.
pub fn render(w: &[u32]) -> String {
    if w.iter().all(|&k| k == 0) {
        return "1".to_string();
    }
    w.iter()
        .enumerate()
        .filter(|&(_, &k)| k > 0)
        .map(|(l, &k)| format!("{}{}", letter(l), superscript(k)))
        .collect()
}

/// The name of letter `l`: `a` to `z`, then `x26_`, ….
pub fn letter(l: usize) -> String {
    match "abcdefghijklmnopqrstuvwxyz".chars().nth(l) {
        Some(c) => c.to_string(),
        None => format!("x{l}_"),
    }
}

fn superscript(k: u32) -> String {
    if k == 1 {
        return String::new();
    }
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    k.to_string()
        .chars()
        .map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Budget;
    use crate::heap::rules::HeapRule;
    use crate::misere::quotient::heap_quotient;

    fn quotient(rule: &str, max_heap: u64) -> Quotient {
        let rule = HeapRule::parse(rule).unwrap();
        heap_quotient(&rule, max_heap, &Budget::default(), 4096)
            .unwrap()
            .quotient
    }

    /// Rewrites `w` by the relations until no left side divides it (the relations are a
    /// Gröbner basis, so this ends; the step count is bounded anyway).
    fn rewrite(mut w: Word, relations: &[(Word, Word)]) -> Word {
        for _ in 0..100_000 {
            let Some((lhs, rhs)) = relations
                .iter()
                .find(|(lhs, _)| lhs.iter().zip(&w).all(|(a, b)| a <= b))
            else {
                return w;
            };
            for i in 0..w.len() {
                w[i] = w[i] - lhs[i] + rhs[i];
            }
        }
        panic!("rewriting did not end");
    }

    /// The presentation defines the quotient: the words no left side divides are exactly one
    /// per element, and rewriting `NF(x)·g` gives `NF(x·g)` for every element and letter.
    fn check_defines(q: &Quotient) {
        let nf = q.normal_forms();
        let words: Vec<Word> = nf.words.iter().map(|w| w.clone().unwrap()).collect();
        for (x, w) in words.iter().enumerate() {
            assert_eq!(
                rewrite(w.clone(), &nf.relations),
                *w,
                "NF({x}) is reducible"
            );
            for (i, &g) in nf.letters.iter().enumerate() {
                let mut m = w.clone();
                m[i] += 1;
                let y = q.mul(x as u32, g) as usize;
                assert_eq!(rewrite(m, &nf.relations), words[y], "NF({x})·{}", letter(i));
            }
        }
        for (lhs, rhs) in &nf.relations {
            // Each relation holds in the table, and none is implied by a smaller left side.
            let value = |w: &Word| {
                w.iter().enumerate().fold(0u32, |acc, (i, &k)| {
                    (0..k).fold(acc, |acc, _| q.mul(acc, nf.letters[i]))
                })
            };
            assert_eq!(value(lhs), value(rhs));
            assert_eq!(word_order(rhs, lhs), std::cmp::Ordering::Less);
            let divided = nf
                .relations
                .iter()
                .filter(|(other, _)| other.iter().zip(lhs).all(|(a, b)| a <= b))
                .count();
            assert_eq!(divided, 1, "{} is not minimal", render(lhs));
        }
    }

    #[test]
    fn r8_has_plambeck_and_siegels_presentation() {
        let q = quotient("0.75", 16);
        check_defines(&q);
        let p = q.presentation();
        assert_eq!(p.generators, ["a", "b", "c"]);
        let mut rels: Vec<String> = p
            .relations
            .iter()
            .map(|r| format!("{} = {}", r.lhs, r.rhs))
            .collect();
        let mut published = ["a² = 1", "b³ = b", "bc = ab", "c² = b²"];
        rels.sort();
        published.sort();
        assert_eq!(rels, published);
        // Written by degree, then in the order of words.
        assert_eq!(
            p.to_string(),
            "⟨a, b, c | a² = 1, bc = ab, c² = b², b³ = b⟩"
        );
    }

    #[test]
    fn presentations_define_their_quotients() {
        for (rule, heaps) in [
            ("kayles", 30),
            ("0.07", 18),
            ("0.137", 16),
            ("0.312", 14),
            ("0.4", 20),
            ("4.7", 20),
        ] {
            check_defines(&quotient(rule, heaps));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

        /// Random octal codes: the presentation defines the quotient of heaps 1..12.
        #[test]
        fn random_presentations_define_their_quotients(
            digits in proptest::collection::vec(0u8..8, 1..4),
        ) {
            proptest::prop_assume!(digits.iter().any(|&d| d != 0));
            let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
            let rule = HeapRule::parse(&code).unwrap();
            if let Ok(q) = heap_quotient(&rule, 12, &Budget::default(), 512) {
                check_defines(&q.quotient);
            }
        }
    }

    #[test]
    fn order_prefers_low_degree_then_early_letters() {
        assert!(word_order(&[1, 0], &[0, 2]).is_lt());
        assert!(word_order(&[1, 2, 0], &[1, 0, 2]).is_lt());
        assert!(word_order(&[0, 0, 1], &[0, 0, 1]).is_eq());
    }
}
