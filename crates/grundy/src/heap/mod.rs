//! Heap games: take-and-break rules and their nim-sequences.

pub mod checkpoint;
pub mod code;
pub mod component;
pub mod options;
pub mod period;
pub mod plain;
pub mod report;
pub mod rules;
pub mod sequence;
pub mod sparse;
