//! Conway's genus, from the definition, and the rule for sums of tame games.
//!
//! The misère Grundy value of a game is 1 when it has no move, and otherwise the mex of its
//! options' misère Grundy values; it is 0 exactly at misère P-positions. The *genus* of `G`
//! is `g^{g0 g1 g2 …}`: `g` the normal-play value, `gk` the misère Grundy value of `G` plus `k`
//! copies of `*2` (J. H. Conway, *On Numbers and Games*, ch. 12; *Winning Ways*, ch. 13). The
//! exponents end in a period-2 tail; they are written up to the first pair that repeats, so
//! `0 = 0^120` (1, 2, 0, 2, 0, …) and `*1 = 1^031`.
//!
//! Tame genera are those of Nim positions: `0^120` (an even number of 1-heaps), `1^031` (an
//! odd number) and `a^{a, a⊕2}` (a heap of 2 or more, nim-sum `a`). A game is treated as tame
//! here when it *and every position it can reach* has a tame genus; such games add like misère
//! Nim positions (Conway's rule): a sum of them is a P-position exactly when either some
//! component has a genus `a^{a, a⊕2}` and the normal values nim-add to 0, or none has and the
//! number of `1^031` components is odd. (The rule is checked against the exhaustive search in
//! the tests.)
//!
//! Cost: the search stores every `(position, copies of *2, copies of *1)` reached, so it is
//! bounded by the follower set of the game times the exponents computed (at most
//! [`MAX_EXPONENTS`]); it runs under the budget.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::misere::genus::GenusSolver;
//! use grundy::game::ImpartialGame;
//! struct Nim;
//! impl ImpartialGame for Nim {
//!     type Position = u64;
//!     fn options(&self, n: &u64) -> Vec<u64> { (0..*n).collect() }
//! }
//! let mut s = GenusSolver::new(&Nim, &Budget::default());
//! assert_eq!(s.genus(&0).unwrap().to_string(), "0^120");
//! assert_eq!(s.genus(&1).unwrap().to_string(), "1^031");
//! assert_eq!(s.genus(&5).unwrap().to_string(), "5^57");
//! ```

use super::MisereError;
use crate::control::Budget;
use crate::game::ImpartialGame;
use crate::solve::{SolveError, Solver};
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// The most exponents computed while waiting for the period-2 tail.
pub const MAX_EXPONENTS: usize = 16;

/// Work units charged for each word of each option listed by the misère searches (the genus
/// solver here and the quotient's outcome oracle): measured at some 1 to 2 µs a unit before
/// this factor, so a unit is again tens of nanoseconds, as for the other engines.
pub const SEARCH_COST: u64 = 4;

/// A genus `g^{g0 g1 …}`; the last two exponents repeat forever.
#[derive(
    Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Genus {
    /// The normal-play value `g`.
    pub value: u64,
    /// The exponents `g0 g1 …` up to the repeating pair.
    pub exponents: Vec<u64>,
}

/// The kind of a tame genus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tame {
    /// `0^120`: like an even number of 1-heaps.
    Even,
    /// `1^031`: like an odd number of 1-heaps.
    Odd,
    /// `a^{a, a⊕2}`: like Nim with a heap of 2 or more, nim-sum `a`.
    Big(u64),
}

impl Genus {
    /// The tame kind of this genus, if it is the genus of a Nim position.
    pub fn tame(&self) -> Option<Tame> {
        match (self.value, self.exponents.as_slice()) {
            (0, [1, 2, 0]) => Some(Tame::Even),
            (1, [0, 3, 1]) => Some(Tame::Odd),
            (a, [b, c]) if *b == a && *c == a ^ 2 => Some(Tame::Big(a)),
            _ => None,
        }
    }

    /// The genus of a Nim heap of `n` (Conway, *On Numbers and Games*, ch. 12): `0^120` for
    /// `n = 0`, `1^031` for `n = 1`, and `n^{n, n⊕2}` from 2 on.
    pub fn of_nim_heap(n: u64) -> Genus {
        match n {
            0 => Genus {
                value: 0,
                exponents: vec![1, 2, 0],
            },
            1 => Genus {
                value: 1,
                exponents: vec![0, 3, 1],
            },
            n => Genus {
                value: n,
                exponents: vec![n, n ^ 2],
            },
        }
    }

    /// The genus from the exponents `g0 g1 …` computed so far, once the period-2 tail has
    /// shown for two more terms than the part before it (`None` while it has not).
    pub fn settled(value: u64, seq: &[u64]) -> Option<Genus> {
        // The smallest j with seq[i] == seq[i + 2] for every i >= j.
        let n = seq.len();
        let mut j = n.saturating_sub(2);
        while j > 0 && seq[j - 1] == seq[j + 1] {
            j -= 1;
        }
        (n >= j + 4).then(|| Genus {
            value,
            exponents: seq[..j + 2].to_vec(),
        })
    }

    /// The exponents' `k`-th term (the tail repeating with period 2).
    pub fn exponent(&self, k: usize) -> u64 {
        let e = &self.exponents;
        if k < e.len() {
            e[k]
        } else {
            let last = e.len() - 1;
            e[last - 1 + (k - last + 1) % 2]
        }
    }
}

/// `0^120`; exponents of two or more digits are separated by commas: `12^{12,14}`.
impl fmt::Display for Genus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exponents.iter().all(|&e| e < 10) {
            let s: String = self.exponents.iter().map(|e| e.to_string()).collect();
            write!(f, "{}^{s}", self.value)
        } else {
            let s: Vec<String> = self.exponents.iter().map(|e| e.to_string()).collect();
            write!(f, "{}^{{{}}}", self.value, s.join(","))
        }
    }
}

/// The refusal when the exponents do not settle within [`MAX_EXPONENTS`] terms.
pub(super) fn unsettled() -> MisereError {
    MisereError::Unsupported(format!(
        "the genus exponents did not settle into their period-2 tail within {MAX_EXPONENTS} terms"
    ))
}

/// The misère outcome of a sum of tame components, by Conway's rule, with the reason.
pub fn tame_sum_is_p(genera: &[Genus]) -> Option<(bool, String)> {
    let kinds: Option<Vec<Tame>> = genera.iter().map(Genus::tame).collect();
    let kinds = kinds?;
    let value = genera.iter().fold(0, |a, g| a ^ g.value);
    if kinds.iter().any(|k| matches!(k, Tame::Big(_))) {
        Some((
            value == 0,
            format!(
                "Every component is tame and some has a genus a^(a, a⊕2), like a Nim heap of 2 or more: the sum is played like misère Nim with a big heap, that is like normal Nim, and its value is {value}."
            ),
        ))
    } else {
        let odd = kinds.iter().filter(|k| **k == Tame::Odd).count();
        Some((
            odd % 2 == 1,
            format!(
                "Every component is tame with genus 0^120 or 1^031, like 1-heaps of Nim: the player to move loses exactly when the number of 1^031 components is odd; here it is {odd}."
            ),
        ))
    }
}

/// Misère Grundy values known before the search: `known(position, twos, ones)` answers
/// `γ(position + twos·*2 + ones·*1)` where it can (a proven table, as the labelled monoid of
/// [`super::labels`] is).
pub type Known<'a, P> = Box<dyn Fn(&P, u32, u32) -> Option<u64> + 'a>;

/// Genus and misère Grundy values of one game's positions, memoised, under a budget.
pub struct GenusSolver<'a, G: ImpartialGame> {
    game: &'a G,
    memo: FxHashMap<(G::Position, u32, u32), u64>,
    normal: Solver<&'a G>,
    budget: Budget,
    genera: FxHashMap<G::Position, Genus>,
    known: Option<Known<'a, G::Position>>,
}

impl<G: ImpartialGame> fmt::Debug for GenusSolver<'_, G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GenusSolver")
            .field("stored", &self.memo.len())
            .field("genera", &self.genera.len())
            .field("known", &self.known.is_some())
            .finish()
    }
}

struct Frame<P> {
    key: (P, u32, u32),
    options: Vec<(P, u32, u32)>,
    next: usize,
    seen: Vec<u64>,
}

impl<'a, G: ImpartialGame> GenusSolver<'a, G> {
    /// A solver counting its work against `budget`.
    pub fn new(game: &'a G, budget: &Budget) -> Self {
        GenusSolver {
            game,
            memo: FxHashMap::default(),
            normal: Solver::with_budget(game, budget),
            budget: budget.clone(),
            genera: FxHashMap::default(),
            known: None,
        }
    }

    /// This solver, answering from `known` the values it gives before any search.
    pub fn with_known(mut self, known: Known<'a, G::Position>) -> Self {
        self.known = Some(known);
        self
    }

    fn lookup(&self, key: &(G::Position, u32, u32)) -> Option<u64> {
        self.memo
            .get(key)
            .copied()
            .or_else(|| self.known.as_ref().and_then(|k| k(&key.0, key.1, key.2)))
    }

    /// The misère Grundy value of `position` plus `twos` copies of `*2` and `ones` of `*1`.
    pub fn misere_grundy(
        &mut self,
        position: &G::Position,
        twos: u32,
        ones: u32,
    ) -> Result<u64, MisereError> {
        let root = (position.clone(), twos, ones);
        if let Some(v) = self.lookup(&root) {
            return Ok(v);
        }
        let mut stack = vec![self.open(root)?];
        loop {
            let top = stack.last_mut().expect("the root stays until solved");
            if top.next < top.options.len() {
                let o = &top.options[top.next];
                let known = self
                    .memo
                    .get(o)
                    .copied()
                    .or_else(|| self.known.as_ref().and_then(|k| k(&o.0, o.1, o.2)));
                if let Some(v) = known {
                    top.seen.push(v);
                    top.next += 1;
                } else {
                    let child = o.clone();
                    let frame = self.open(child)?;
                    stack.push(frame);
                }
                continue;
            }
            let done = stack.pop().expect("non-empty");
            let v = if done.options.is_empty() {
                1
            } else {
                mex(done.seen)
            };
            self.memo.insert(done.key, v);
            if stack.is_empty() {
                return Ok(v);
            }
        }
    }

    fn open(&mut self, key: (G::Position, u32, u32)) -> Result<Frame<G::Position>, MisereError> {
        self.budget.check_positions(self.memo.len() + 1)?;
        if let Some(b) = self.game.option_bound(&key.0) {
            self.budget.afford(b)?;
        }
        let (p, twos, ones) = &key;
        let mut options: Vec<(G::Position, u32, u32)> = self
            .game
            .options(p)
            .into_iter()
            .map(|q| (q, *twos, *ones))
            .collect();
        if *twos > 0 {
            options.push((p.clone(), twos - 1, ones + 1));
            options.push((p.clone(), twos - 1, *ones));
        }
        if *ones > 0 {
            options.push((p.clone(), *twos, ones - 1));
        }
        // Listing an option copies, hashes and stores a position: charged in proportion to
        // its words, as the generic engine does, at the rate measured for this search.
        let units = (options.len() as u64 + 1)
            .saturating_mul(self.game.position_words(&key.0).saturating_add(1))
            .saturating_mul(SEARCH_COST);
        self.budget.charge(units)?;
        Ok(Frame {
            key,
            options,
            next: 0,
            seen: Vec::new(),
        })
    }

    /// The genus of `position`: exponents until the period-2 tail has shown for two more
    /// terms (at most [`MAX_EXPONENTS`]; a tail not seen by then is refused).
    pub fn genus(&mut self, position: &G::Position) -> Result<Genus, MisereError> {
        if let Some(g) = self.genera.get(position) {
            return Ok(g.clone());
        }
        let value = self.normal.value(position).map_err(|e| match e {
            SolveError::Budget(b) => MisereError::Budget(b),
            SolveError::Cycle => MisereError::Unsupported(
                "the game is loopy (a position repeats): misère genus theory is for finite games"
                    .into(),
            ),
        })?;
        let mut seq = Vec::new();
        for k in 0..MAX_EXPONENTS as u32 {
            seq.push(self.misere_grundy(position, k, 0)?);
            if let Some(g) = Genus::settled(value.0, &seq) {
                self.genera.insert(position.clone(), g.clone());
                return Ok(g);
            }
        }
        Err(unsettled())
    }

    /// Whether `position` and every position it can reach have tame genera; the genus of
    /// `position` with it.
    pub fn hereditarily_tame(
        &mut self,
        position: &G::Position,
    ) -> Result<(Genus, bool), MisereError> {
        let genus = self.genus(position)?;
        if genus.tame().is_none() {
            return Ok((genus, false));
        }
        let mut seen: FxHashSet<G::Position> = FxHashSet::default();
        let mut todo = vec![position.clone()];
        seen.insert(position.clone());
        while let Some(p) = todo.pop() {
            self.budget.check_positions(seen.len())?;
            if self.genus(&p)?.tame().is_none() {
                return Ok((genus, false));
            }
            for q in self.game.options(&p) {
                if seen.insert(q.clone()) {
                    todo.push(q);
                }
            }
        }
        Ok((genus, true))
    }
}

fn mex(values: Vec<u64>) -> u64 {
    crate::nimber::mex(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Nim;
    impl ImpartialGame for Nim {
        type Position = Vec<u64>;
        fn options(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
            let mut out = Vec::new();
            for i in 0..p.len() {
                for t in 0..p[i] {
                    let mut q = p.clone();
                    q[i] = t;
                    q.retain(|&h| h > 0);
                    q.sort_unstable();
                    out.push(q);
                }
            }
            out
        }
    }

    #[test]
    fn nim_positions_have_the_nim_genera() {
        let budget = Budget::default();
        let mut s = GenusSolver::new(&Nim, &budget);
        for (p, text) in [
            (vec![], "0^120"),
            (vec![1], "1^031"),
            (vec![1, 1], "0^120"),
            (vec![2], "2^20"),
            (vec![3], "3^31"),
            (vec![2, 2], "0^02"),
            (vec![1, 2, 3], "0^02"),
            (vec![4, 1], "5^57"),
        ] {
            let g = s.genus(&p).unwrap();
            assert_eq!(g.to_string(), text, "{p:?}");
            assert!(g.tame().is_some());
        }
    }

    #[test]
    fn exponent_tail_repeats() {
        let g = Genus {
            value: 0,
            exponents: vec![1, 2, 0],
        };
        let seq: Vec<u64> = (0..7).map(|k| g.exponent(k)).collect();
        assert_eq!(seq, [1, 2, 0, 2, 0, 2, 0]);
    }

    #[test]
    fn nim_heaps_have_their_closed_form_genus() {
        struct Nim;
        impl ImpartialGame for Nim {
            type Position = u64;
            fn options(&self, n: &u64) -> Vec<u64> {
                (0..*n).collect()
            }
        }
        let mut s = GenusSolver::new(&Nim, &Budget::default());
        for n in 0..12 {
            assert_eq!(s.genus(&n).unwrap(), Genus::of_nim_heap(n), "*{n}");
        }
    }

    #[test]
    fn mex_of_values() {
        assert_eq!(mex(vec![]), 0);
        assert_eq!(mex(vec![1, 0, 3]), 2);
        assert_eq!(mex(vec![0, 1, 1, 2]), 3);
    }
}
