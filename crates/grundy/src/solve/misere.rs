use super::memory::{self, Holdings};
use super::{Budget, Limits, SolveError};
use crate::game::ImpartialGame;
use crate::value::Outcome;
use rustc_hash::FxHashMap;

/// The generic misère engine: outcomes when the player who makes the last move loses.
///
/// A position with no move is an N-position (the opponent made the last move and lost);
/// otherwise a position is N exactly when some option is P. Misère play does not split over
/// sums, so components are not used: whole positions are searched and stored, which limits
/// this engine to small positions.
#[derive(Debug)]
pub struct MisereSolver<G: ImpartialGame> {
    game: G,
    /// `Some(is_n)` once solved; `None` while on the search stack.
    memo: FxHashMap<G::Position, Option<bool>>,
    budget: Budget,
    /// The bytes the table's keys own, and the options on the search stack.
    held: Holdings,
}

struct Frame<P> {
    position: P,
    options: Vec<P>,
    next: usize,
    /// The bytes of `options` (inline and owned).
    bytes: u64,
}

impl<G: ImpartialGame> MisereSolver<G> {
    /// A misère solver under a fresh budget with these limits.
    pub fn with_limits(game: G, limits: Limits) -> Self {
        Self::with_budget(game, &Budget::new(limits))
    }

    /// A misère solver that counts its work against `budget`: one unit per option listed and
    /// per position opened, and at most `max_positions` stored positions.
    pub fn with_budget(game: G, budget: &Budget) -> Self {
        MisereSolver {
            game,
            memo: FxHashMap::default(),
            budget: budget.clone(),
            held: Holdings::default(),
        }
    }

    /// The misère outcome of a position (P or N).
    pub fn outcome(&mut self, root: &G::Position) -> Result<Outcome, SolveError> {
        Ok(if self.is_n(root.clone())? {
            Outcome::N
        } else {
            Outcome::P
        })
    }

    /// The options of `position` that are misère P-positions: the winning moves.
    pub fn winning_options(
        &mut self,
        position: &G::Position,
    ) -> Result<Vec<G::Position>, SolveError> {
        let mut wins = Vec::new();
        if let Some(bound) = self.game.option_bound(position) {
            self.budget.afford(bound)?;
        }
        for o in self.game.options(position) {
            if !self.is_n(o.clone())? {
                wins.push(o);
            }
        }
        Ok(wins)
    }

    fn is_n(&mut self, root: G::Position) -> Result<bool, SolveError> {
        if let Some(Some(v)) = self.memo.get(&root) {
            return Ok(*v);
        }
        let mut stack = vec![self.open(root)?];
        loop {
            let top = stack.last_mut().expect("the root stays until solved");
            // A terminal position is N; otherwise N as soon as one option is P.
            let decided = if top.options.is_empty() {
                Some(true)
            } else if top.next == top.options.len() {
                Some(false)
            } else {
                match self.memo.get(&top.options[top.next]) {
                    Some(Some(false)) => Some(true),
                    Some(Some(true)) => {
                        top.next += 1;
                        None
                    }
                    Some(None) => return Err(self.abandon(stack, SolveError::Cycle)),
                    None => {
                        let child = top.options[top.next].clone();
                        match self.open(child) {
                            Ok(frame) => stack.push(frame),
                            Err(e) => return Err(self.abandon(stack, e)),
                        }
                        None
                    }
                }
            };
            if let Some(is_n) = decided {
                let done = stack.pop().expect("non-empty");
                self.held.stack = self.held.stack.saturating_sub(done.bytes);
                self.memo.insert(done.position, Some(is_n));
                if stack.is_empty() {
                    return Ok(is_n);
                }
            }
        }
    }

    /// Forgets the unfinished positions of an abandoned search (a cycle, a limit), so the
    /// solver stays usable.
    fn abandon(&mut self, stack: Vec<Frame<G::Position>>, error: SolveError) -> SolveError {
        for f in stack {
            self.held.stack = self.held.stack.saturating_sub(f.bytes);
            let owned = memory::block_bytes(self.game.position_words(&f.position));
            self.held.owned = self.held.owned.saturating_sub(owned);
            self.memo.remove(&f.position);
        }
        error
    }

    fn open(&mut self, position: G::Position) -> Result<Frame<G::Position>, SolveError> {
        let option_size = std::mem::size_of::<G::Position>() as u64;
        let opening = memory::admit(
            &self.game,
            &self.budget,
            &self.memo,
            self.held.owned,
            self.held.stack,
            &position,
            option_size,
        )?;
        let options = self.game.options(&position);
        let owned = options
            .iter()
            .map(|o| memory::block_bytes(self.game.position_words(o)))
            .fold(0, u64::saturating_add);
        let bytes = (options.capacity() as u64)
            .saturating_mul(option_size)
            .saturating_add(owned);
        let table_owned = self.held.owned.saturating_add(opening.owned);
        memory::charge_listing(&self.budget, options.len(), opening.words)?;
        memory::check_held(
            &self.budget,
            &self.memo,
            table_owned,
            self.held.stack.saturating_add(bytes),
        )?;
        memory::reserve_one(&self.budget, &mut self.memo)?;
        self.held.owned = table_owned;
        self.held.stack = self.held.stack.saturating_add(bytes);
        self.memo.insert(position.clone(), None);
        Ok(Frame {
            position,
            options,
            next: 0,
            bytes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim as a sorted multiset of heaps.
    struct Nim;
    impl ImpartialGame for Nim {
        type Position = Vec<u8>;
        fn options(&self, p: &Vec<u8>) -> Vec<Vec<u8>> {
            let mut out = Vec::new();
            for (i, &h) in p.iter().enumerate() {
                for t in 0..h {
                    let mut q = p.clone();
                    q[i] = t;
                    q.sort_unstable();
                    out.push(q);
                }
            }
            out
        }
    }

    /// Bouton's misère rule, from the definition of P-positions in misère Nim.
    fn misere_nim_is_p(p: &[u8]) -> bool {
        let x = p.iter().fold(0, |a, b| a ^ b);
        if p.iter().all(|&h| h <= 1) {
            x == 1
        } else {
            x == 0
        }
    }

    #[test]
    fn misere_nim_matches_boutons_rule() {
        let mut s = MisereSolver::with_limits(Nim, Limits::DEFAULT);
        for a in 0..6u8 {
            for b in a..6 {
                for c in b..6 {
                    let p = vec![a, b, c];
                    let expected = if misere_nim_is_p(&p) {
                        Outcome::P
                    } else {
                        Outcome::N
                    };
                    assert_eq!(s.outcome(&p).unwrap(), expected, "{p:?}");
                }
            }
        }
    }
}
