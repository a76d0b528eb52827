//! The classic games of the theory's first chapter: Nim, staircase Nim, Moore's Nim_k and
//! Wythoff's game (Ferguson, *Game Theory, Part I*, ch. 1–2; Winning Ways ch. 2).
//!
//! Fast paths, each checked against the generic engine in the tests:
//! - [`NimHeap`]: a heap of `n` is worth `n` (Bouton 1901), `O(1)`.
//! - [`Staircase`]: the nim-sum of the odd steps, `O(steps)`.
//! - [`MooreNim`]: the outcome by Moore's theorem (bits counted mod `k + 1`), `O(heaps · 64)`,
//!   and a winning move by its proof; values only by the generic engine.
//! - [`Wythoff`]: P-positions from the golden ratio in integer arithmetic, `O(1)`; values
//!   from a table in `O(xy · (x + y) / 64)`, up to `x + y ≤ 8000`.

mod moore;
mod nim;
mod staircase;
mod wythoff;

pub use moore::{MooreNim, moore_is_p, moore_winning_move};
pub use nim::{NimHeap, misere_nim_is_p};
pub use staircase::Staircase;
pub use wythoff::{Wythoff, wythoff_is_p};

use crate::expr::Rule;

/// How many moves a component may list before listing them is refused.
pub(crate) const MAX_LISTED_MOVES: u64 = 1_000_000;

/// The rules of this module.
pub const RULES: &[Rule] = &[
    Rule {
        name: "nim",
        usage: "nim HEAP...",
        summary: "Nim: take any number of tokens from one heap",
        literal: false,
        build: nim::build,
    },
    Rule {
        name: "staircase",
        usage: "staircase COINS-ON-STEP-1 COINS-ON-STEP-2 ...",
        summary: "staircase Nim: move coins from a step to the next step down (step 0 is the ground)",
        literal: false,
        build: staircase::build,
    },
    Rule {
        name: "moore",
        usage: "moore(K) HEAP...",
        summary: "Moore's Nim_k: take from up to K heaps at once",
        literal: false,
        build: moore::build,
    },
    Rule {
        name: "wythoff",
        usage: "wythoff X Y",
        summary: "Wythoff's game: a queen moving left, down or diagonally toward (0,0)",
        literal: false,
        build: wythoff::build,
    },
];
