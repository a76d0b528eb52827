//! The misère search over whole sums of any families.
//!
//! Misère outcomes do not follow from the components' values, so the whole position is
//! searched. To keep that affordable, each distinct component (by its canonical expression) is
//! stored once with an id, its moves are listed once, and a position is the sorted list of its
//! components' ids: hashing and comparing positions is cheap, and no text is formatted per
//! position.

use super::{Analysis, ComponentReport, winning};
use crate::game::ImpartialGame;
use crate::solve::{MisereSolver, SolveError};
use crate::sum::{AnalysisError, Component, Context, Sum};
use crate::value::Outcome;
use rustc_hash::FxHashMap;
use std::cell::RefCell;

/// Every component met so far, and the moves of those expanded.
pub(super) struct Interner<'a> {
    ctx: &'a Context,
    ids: FxHashMap<String, u32>,
    components: Vec<Box<dyn Component>>,
    /// For each id, once listed: each move's result as ids.
    moves: Vec<Option<Vec<Vec<u32>>>>,
    /// The bytes the components met take here, about: four times each one's text (the key,
    /// the state of the boxed component, which its text spells, and what listing its moves
    /// leaves; calibrated on Cram boards: a limit of 1024 MiB stops at 1.3 GB of RSS), a
    /// few words, and the move lists as ids.
    bytes: u64,
    /// The bytes of text formatted to intern components since the last charge: formatting
    /// and hashing a component's text costs in proportion to its length (a 100×100 Chomp
    /// board is 300 characters), which the per-move charge of listing does not see.
    formatted: u64,
}

/// Bytes of a component's text formatted and hashed per unit of work.
const TEXT_BYTES_PER_UNIT: u64 = 8;

/// The bytes a component takes in the interner besides its text (the map's slot, the box,
/// its move list's header).
const COMPONENT_BYTES: u64 = 160;

impl Interner<'_> {
    fn id(&mut self, c: &dyn Component) -> u32 {
        let key = c.to_string();
        self.formatted = self.formatted.saturating_add(key.len() as u64);
        if let Some(&id) = self.ids.get(&key) {
            return id;
        }
        let id = self.components.len() as u32;
        self.bytes = self
            .bytes
            .saturating_add(4 * key.len() as u64 + COMPONENT_BYTES);
        self.ids.insert(key, id);
        self.components.push(c.clone_box());
        self.moves.push(None);
        id
    }

    pub(super) fn position(&mut self, components: &[Box<dyn Component>]) -> Vec<u32> {
        let mut p: Vec<u32> = components.iter().map(|c| self.id(c.as_ref())).collect();
        p.sort_unstable();
        p
    }

    /// Fails when the components held pass the memory limit, naming component `id`.
    fn check_held(&self, id: u32) -> Result<(), AnalysisError> {
        self.ctx
            .budget
            .check_bytes(self.bytes, 1)
            .map(|_| ())
            .map_err(|e| AnalysisError::budget(self.components[id as usize].as_ref(), e))
    }

    /// The moves of component `id` as ids, listed on first use.
    fn moves_of(&mut self, id: u32) -> Result<&[Vec<u32>], AnalysisError> {
        if self.moves[id as usize].is_none() {
            // The components met are a table of their own, beside the solver's: big ones (a
            // Cram board of 100×100 is 10 KB of text, with 19,800 moves) filled 6 GB in 6 s.
            // Checked before listing (a listing may add hundreds of MB) and after.
            self.check_held(id)?;
            let moves = self.components[id as usize].moves(self.ctx)?;
            let listed: Vec<Vec<u32>> = moves.iter().map(|m| self.position(&m.result)).collect();
            let formatted = std::mem::take(&mut self.formatted);
            self.ctx
                .budget
                .charge(formatted / TEXT_BYTES_PER_UNIT)
                .map_err(|e| AnalysisError::budget(self.components[id as usize].as_ref(), e))?;
            let ids: u64 = listed.iter().map(|l| 4 * l.len() as u64 + 24).sum();
            self.bytes = self.bytes.saturating_add(ids);
            self.moves[id as usize] = Some(listed);
            self.check_held(id)?;
        }
        Ok(self.moves[id as usize].as_deref().unwrap_or_default())
    }
}

/// Sums as one game whose positions are sorted component ids.
pub(super) struct SumGame<'a> {
    interner: RefCell<Interner<'a>>,
    /// The first error a component gave while listing moves.
    error: RefCell<Option<AnalysisError>>,
}

impl ImpartialGame for SumGame<'_> {
    type Position = Vec<u32>;
    /// Once a component's moves failed to list, every position reads as having no moves:
    /// whatever the solver computes from then on is wrong and is never used (the caller
    /// answers with the stored error), so it should end at once rather than explore the
    /// rest of the sum with that component's moves missing, spending the whole budget.
    fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        if self.error.borrow().is_some() {
            return out;
        }
        for i in 0..p.len() {
            if i > 0 && p[i] == p[i - 1] {
                continue; // the same component again gives the same options
            }
            let mut interner = self.interner.borrow_mut();
            match interner.moves_of(p[i]) {
                Ok(moves) => {
                    for result in moves {
                        let mut q: Vec<u32> = p[..i]
                            .iter()
                            .chain(&p[i + 1..])
                            .chain(result)
                            .copied()
                            .collect();
                        q.sort_unstable();
                        out.push(q);
                    }
                }
                Err(e) => {
                    self.error.borrow_mut().get_or_insert(e);
                    return Vec::new();
                }
            }
        }
        out
    }

    /// A position owns its ids (two to a word). Counted, a sum whose positions grow with
    /// every move (a heap of 0.4= splits in two, its halves in two, and so on: positions of
    /// thousands of components on a deep search stack) meets the work and memory limits in
    /// proportion, instead of taking all the machine's memory (24 GB, then the kernel's
    /// OOM killer, before this was counted).
    fn position_words(&self, position: &Vec<u32>) -> u64 {
        (position.len() as u64).div_ceil(2)
    }
}

impl<'a> SumGame<'a> {
    /// An empty game over sums of components, listing moves under `ctx`.
    pub(super) fn new(ctx: &'a Context) -> Self {
        SumGame {
            interner: RefCell::new(Interner {
                ctx,
                ids: FxHashMap::default(),
                components: Vec::new(),
                moves: Vec::new(),
                bytes: 0,
                formatted: 0,
            }),
            error: RefCell::new(None),
        }
    }

    /// The position of a list of components.
    pub(super) fn position_of(&self, components: &[Box<dyn Component>]) -> Vec<u32> {
        self.interner.borrow_mut().position(components)
    }

    /// The first error a component gave while listing moves. Every result computed over
    /// this game since that error is wrong: a caller that finds one must answer with it.
    pub(super) fn take_error(&self) -> Option<AnalysisError> {
        self.error.borrow_mut().take()
    }
}

pub(super) fn misere_search(sum: &Sum, ctx: &Context) -> Result<Analysis, AnalysisError> {
    let game = SumGame::new(ctx);
    let root = game.position_of(&sum.components);
    let mut solver = MisereSolver::with_budget(&game, &ctx.budget);
    let failed = |e: SolveError, game: &SumGame| {
        game.error
            .borrow_mut()
            .take()
            .unwrap_or(AnalysisError::Solve {
                component: sum.to_string(),
                source: e,
            })
    };
    let outcome = solver.outcome(&root).map_err(|e| failed(e, &game))?;
    if let Some(e) = game.take_error() {
        return Err(e);
    }
    let mut winning_moves = Vec::new();
    if outcome == Outcome::N {
        for (i, c) in sum.components.iter().enumerate() {
            let mut wins = Vec::new();
            for m in c.moves(ctx)? {
                let rest = sum.replaced(i, &m.result);
                let next = game.interner.borrow_mut().position(&rest.components);
                let after = solver.outcome(&next).map_err(|e| failed(e, &game))?;
                if let Some(e) = game.take_error() {
                    return Err(e);
                }
                if after == Outcome::P {
                    wins.push(m);
                }
            }
            winning_moves.extend(winning(sum, i, wins));
        }
    }
    if let Some(e) = game.error.borrow_mut().take() {
        return Err(e);
    }
    Ok(Analysis {
        expression: sum.to_string(),
        misere: true,
        value: None,
        outcome,
        components: sum
            .components
            .iter()
            .map(|c| ComponentReport::new(c.as_ref(), None))
            .collect(),
        winning_moves,
        winning_moves_complete: true,
        winning_moves_note: None,
        explanation: vec![
            "Misère play: the player who makes the last move loses. Misère outcomes do not follow the nim-sum, so the whole position was searched: a position is N when some move leads to a P-position, and a position with no move is N.".into(),
        ],
        notes: Vec::new(),
    })
}
