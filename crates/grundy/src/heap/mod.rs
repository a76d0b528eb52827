//! Heap games: take-and-break rules and their nim-sequences.

pub mod code;
pub mod sparse;
