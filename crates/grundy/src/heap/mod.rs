//! Heap games: take-and-break rules and their nim-sequences.

pub mod code;
pub mod component;
pub mod options;
pub mod period;
pub mod plain;
pub mod rules;
pub mod sequence;
pub mod checkpoint;
pub mod report;
