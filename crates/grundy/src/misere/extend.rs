//! A fast candidate for the quotient after one more generator, from the old quotient's
//! structure (as Siegel's MisereSolver does), for the quotient module to verify.
//!
//! Let `Q` be the verified quotient of generators `0..i` and `h` the new generator `i`, whose
//! options are sums of the old generators. Every sum of the new closure is `A + k·h` with `A`
//! a sum of old generators. The candidate assumes that the class of `A` in `Q` is all that
//! matters about `A` (true whenever adding `h` does not split an old element, the common
//! case), so it works on the states `(a, k)`, `a ∈ Q`:
//! - `(a, 0)` is a P-position exactly when `a` is in the P-portion of `Q`;
//! - `(a, k)`, `k ≥ 1`, is a P-position when no option is: the options of a representative
//!   game of `a` with `k` copies of `h`, and `A + O + (k−1)·h` for the options `O` of `h`.
//!   The search walks real games (so it always ends) and memoises on `(class, k)`.
//!
//! The rows `k = 0, 1, 2, …` of outcomes are computed until one repeats the row two before it
//! (a period-2 tail in `k`, as powers in misère quotients end in), at most [`MAX_COPIES`]
//! rows. The states, with the old generators acting on `a` and `h` raising `k` (wrapping into
//! the tail), form a commutative automaton; its minimal automaton (Moore's partition
//! refinement) is the candidate monoid: the product of `(a, k)` and `(b, l)` is `(ab, k + l)`.
//!
//! Nothing here is trusted: the caller verifies the candidate on every sum of the new closure
//! with the finite automaton of the quotient module, and falls back to the slower
//! signature search when it fails. Cost: `O(|Q|·K)` memoised outcomes (each listing the options
//! of one representative) and `O(|Q|·K·g)` per refinement round for `g` distinct generator
//! images and `K` rows.

use super::MisereError;
use super::generators::Generators;
use super::monoid::Quotient;
use super::moore::refine_partition;
use crate::control::Budget;
use rustc_hash::FxHashMap;

/// The most copies of the new generator tried before its powers must have settled.
pub const MAX_COPIES: usize = 24;

/// The candidate quotient after adding generator `i` to `old`, or `None` when the rows of
/// outcomes do not settle within [`MAX_COPIES`] or the candidate has more than `max_elements`
/// elements.
pub fn candidate(
    gens: &Generators,
    old: &Quotient,
    i: u32,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<Quotient>, MisereError> {
    let n = old.order();
    let mut search = Search {
        gens,
        old,
        i,
        budget,
        memo: FxHashMap::default(),
    };
    // Rows of outcomes, k = 0, 1, ...
    let mut rows: Vec<Vec<bool>> = Vec::new();
    loop {
        let k = rows.len();
        if k > MAX_COPIES {
            return Ok(None);
        }
        let mut row = Vec::with_capacity(n);
        for a in 0..n as u32 {
            row.push(search.is_p(old.representative(a), k as u32)?);
        }
        rows.push(row);
        if k >= 2 && rows[k] == rows[k - 2] {
            // Row k repeats row k-2: with the recursion row(k) = F(row(k-1)) in force for the
            // candidate, rows k-1, k alternate from here on.
            break;
        }
    }
    let rows: Vec<Vec<u32>> = rows
        .iter()
        .map(|r| r.iter().map(|&p| u32::from(p)).collect())
        .collect();
    Ok(assemble(old, i, &rows, |v| v == 1, budget, max_elements)?.map(|(q, _)| q))
}

/// The candidate monoid from the rows of labels (outcomes, or misère Grundy values) of the
/// states `(a, k)`, the last row repeating the one two before it: the minimal automaton of
/// the states, with the P-portion from `is_p` on the labels, and the label of each element.
/// `None` when it has more than `max_elements` elements.
pub(super) fn assemble(
    old: &Quotient,
    i: u32,
    rows: &[Vec<u32>],
    is_p: impl Fn(u32) -> bool,
    budget: &Budget,
    max_elements: usize,
) -> Result<Option<(Quotient, Vec<u32>)>, MisereError> {
    let n = old.order();
    // States (a, k), k in 0..=last; raising k past `last` wraps back by 2.
    let last = rows.len() - 2; // rows[last + 1] == rows[last - 1]
    let wrap = |k: usize| if k > last { k - 2 } else { k };
    let states = n * (last + 1);
    let id = |a: u32, k: usize| k * n + a as usize;
    // Letters: the distinct images of the old generators, and the new one.
    let mut letters: Vec<u32> = (0..i).map(|g| old.image_of_generator(g)).collect();
    letters.sort_unstable();
    letters.dedup();
    let step = |s: usize, letter: Option<u32>| -> usize {
        let (k, a) = (s / n, (s % n) as u32);
        match letter {
            Some(x) => id(old.mul(a, x), k),
            None => id(a, wrap(k + 1)),
        }
    };
    // Moore's refinement: start from the labels, split by the blocks of the successors (the
    // old generators' images, then the new generator).
    let initial = (0..states).map(|s| rows[s / n][s % n]).collect();
    let (block, count) = refine_partition(
        initial,
        letters.len() + 1,
        |s, l| step(s, letters.get(l).copied()),
        budget,
    )?;
    if count > max_elements {
        return Ok(None);
    }
    // Number the blocks: the identity's block first, then by smallest representative.
    let rep_of = |s: usize| -> Vec<u32> {
        let (k, a) = (s / n, (s % n) as u32);
        let mut r = old.representative(a).to_vec();
        r.extend(std::iter::repeat_n(i, k));
        r.sort_unstable();
        r
    };
    let mut best: FxHashMap<u32, usize> = FxHashMap::default();
    for (s, &b) in block.iter().enumerate() {
        let len = |t: usize| old.representative((t % n) as u32).len() + t / n;
        best.entry(b)
            .and_modify(|t| {
                if len(s) < len(*t) {
                    *t = s;
                }
            })
            .or_insert(s);
    }
    let mut order: Vec<usize> = best.values().copied().collect();
    order.sort_unstable_by_key(|&s| {
        (
            s != id(0, 0),
            old.representative((s % n) as u32).len() + s / n,
            s,
        )
    });
    let mut number: FxHashMap<u32, u32> = FxHashMap::default();
    for (e, &s) in order.iter().enumerate() {
        number.insert(block[s], e as u32);
    }
    let elem = |s: usize| number[&block[s]];
    let m = order.len();
    budget.charge((m * m) as u64)?;
    let mut table = vec![vec![0u32; m]; m];
    for (x, &s) in order.iter().enumerate() {
        for (y, &t) in order.iter().enumerate() {
            let (k, a) = (s / n, (s % n) as u32);
            let (l, b) = (t / n, (t % n) as u32);
            let mut kl = k + l;
            while kl > last {
                kl -= 2;
            }
            table[x][y] = elem(id(old.mul(a, b), kl));
        }
    }
    let labels: Vec<u32> = order.iter().map(|&s| rows[s / n][s % n]).collect();
    let p = labels.iter().map(|&v| is_p(v)).collect();
    let reps = order.iter().map(|&s| rep_of(s)).collect();
    let mut images: Vec<u32> = (0..i)
        .map(|g| elem(id(old.image_of_generator(g), 0)))
        .collect();
    images.push(elem(id(0, 1)));
    Ok(Some((Quotient::from_parts(table, p, reps, images), labels)))
}

/// The memoised outcome search of the candidate.
struct Search<'a> {
    gens: &'a Generators,
    old: &'a Quotient,
    i: u32,
    budget: &'a Budget,
    memo: FxHashMap<(u32, u32), bool>,
}

struct Frame {
    game: Vec<u32>,
    k: u32,
    options: Vec<(Vec<u32>, u32)>,
    next: usize,
}

impl Search<'_> {
    fn lookup(&self, game: &[u32], k: u32) -> Option<bool> {
        if k == 0 {
            return Some(self.old.is_p(self.old.image(game)));
        }
        self.memo.get(&(self.old.image(game), k)).copied()
    }

    fn open(&self, game: Vec<u32>, k: u32) -> Result<Frame, MisereError> {
        self.budget.check_positions(self.memo.len() + 1)?;
        let options = self.gens.options_with_copies(&game, self.i, k);
        self.budget.charge(options.len() as u64 + 1)?;
        Ok(Frame {
            game,
            k,
            options,
            next: 0,
        })
    }

    /// Whether `game + k·h` is a P-position, in the candidate's model.
    fn is_p(&mut self, game: &[u32], k: u32) -> Result<bool, MisereError> {
        if let Some(v) = self.lookup(game, k) {
            return Ok(v);
        }
        let mut stack = vec![self.open(game.to_vec(), k)?];
        loop {
            let top = stack.last_mut().expect("the root stays until solved");
            let decided = if top.next == top.options.len() {
                // No option is P (k >= 1, so there is a move): P.
                Some(true)
            } else {
                let (g, k) = &top.options[top.next];
                match self.lookup(g, *k) {
                    Some(true) => Some(false),
                    Some(false) => {
                        top.next += 1;
                        None
                    }
                    None => {
                        let (g, k) = (g.clone(), *k);
                        let frame = self.open(g, k)?;
                        stack.push(frame);
                        None
                    }
                }
            };
            if let Some(v) = decided {
                let done = stack.pop().expect("non-empty");
                self.memo.insert((self.old.image(&done.game), done.k), v);
                if stack.is_empty() {
                    return Ok(v);
                }
            }
        }
    }
}
