//! The genus sequence of a heap game: the genus of every heap size, and where the game stops
//! being tame.
//!
//! Each genus comes from the definition ([`super::genus`]), with the misère Grundy values of
//! every sum of smaller heaps met on the way memoised across heap sizes. A heap is *tame* when
//! its genus is that of a Nim position and every heap its options leave is tame (Conway: sums
//! of tame games are tame, so then every position it reaches is tame). The work grows with the
//! number of positions a heap reaches, roughly the partitions of its size for splitting games;
//! the run stops under the budget and keeps what it has.

use super::MisereError;
use super::genus::{Genus, GenusSolver};
use crate::control::Budget;
use crate::heap::component::HeapGame;
use crate::heap::options::for_each_option;
use crate::heap::rules::HeapRule;

/// One heap of the sequence.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GenusEntry {
    /// The heap size.
    pub heap: u64,
    /// Its genus.
    pub genus: Genus,
    /// Whether it is tame.
    pub tame: bool,
}

/// The genus sequence up to where it was computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenusSequence {
    /// One entry per heap size from 0.
    pub entries: Vec<GenusEntry>,
    /// The first heap that is not tame, if any was met.
    pub first_wild: Option<u64>,
    /// Why the run stopped before the last heap asked for, if it did.
    pub stopped: Option<MisereError>,
}

/// The genus of heaps `0..=to` of `rule`.
pub fn genus_sequence(rule: &HeapRule, to: u64, budget: &Budget) -> GenusSequence {
    let game = HeapGame::new(rule);
    let mut solver = GenusSolver::new(&game, budget);
    let mut entries: Vec<GenusEntry> = Vec::new();
    let mut first_wild = None;
    let mut stopped = None;
    for n in 0..=to {
        let pos = if n == 0 { vec![] } else { vec![n] };
        match solver.genus(&pos) {
            Ok(genus) => {
                let mut tame = genus.tame().is_some();
                if tame && n > 0 {
                    for_each_option(rule, n, |o| {
                        tame &= o.parts.iter().all(|&p| entries[p as usize].tame);
                    });
                }
                if !tame && first_wild.is_none() {
                    first_wild = Some(n);
                }
                entries.push(GenusEntry {
                    heap: n,
                    genus,
                    tame,
                });
            }
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    GenusSequence {
        entries,
        first_wild,
        stopped,
    }
}
