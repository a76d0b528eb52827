//! The genus sequence of a heap game as a result: one entry per heap (its genus and whether
//! it is tame, and from what), the first wild heap, why a run stopped, and the route that
//! computed the values with a sentence that explains it. The routes themselves are in
//! `sequence` and the modules it calls.

use super::MisereError;
use super::genus::Genus;
use crate::control::Budget;

/// The bytes one entry holds, for the memory limit: the entry, its exponents on the heap
/// (a few words and the allocator's overhead) and the heap's form id beside it.
pub const ENTRY_BYTES: u64 = std::mem::size_of::<GenusEntry>() as u64 + 56;

/// One heap of the sequence.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GenusEntry {
    /// The heap size.
    pub heap: u64,
    /// Its genus.
    pub genus: Genus,
    /// Whether it is tame.
    pub tame: bool,
    /// What the tameness was read from.
    pub tame_basis: TameBasis,
}

/// What a heap's tameness was read from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TameBasis {
    /// The misère canonical form, as CGSuite's `IsTame` reads it.
    CanonicalForm,
    /// The raw game tree (the canonical form was beyond the budget): stricter, so `tame`
    /// here is tame there too, but `wild` here may be tame in the canonical form.
    RawTree,
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
    /// The order of the misère quotient used (heaps and Nim heaps), or of the labelled monoid
    /// (module `labels`), when read through one.
    pub quotient_order: Option<usize>,
    /// Which route computed the values.
    pub route: GenusRoute,
}

impl GenusSequence {
    /// Appends `entry` when the entries then still fit the budget's memory limit (a tame
    /// game's genera come fast: `0.4=` reaches heap 5·10^7 in 25 s, some 5 GB of entries).
    pub fn push(&mut self, entry: GenusEntry, budget: &Budget) -> Result<(), MisereError> {
        budget.check_bytes(self.entries.len() as u64 + 1, ENTRY_BYTES)?;
        self.entries.push(entry);
        Ok(())
    }
}

/// The route that computed a genus sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum GenusRoute {
    /// The labelled monoid of `*1`, `*2` and the heaps (module `labels`).
    Labels,
    /// The misère quotient of the heaps and Nim heaps `*1..*M`.
    NimQuotient,
    /// The misère canonical forms of the heaps (module `form_genus`).
    CanonicalForms {
        /// The forms in the arena.
        forms: usize,
    },
    /// The pruned search (module `gamma`).
    Search {
        /// The order of the quotient of `*1`, `*2` and the heaps giving the values 0, 1, 2
        /// (module `low`), if one was built.
        low_order: Option<usize>,
        /// The heaps that quotient covers (`1..=low_heaps`).
        low_heaps: u64,
        /// The labelled monoid covered the heaps up to this one, when it answered sums.
        labelled_heaps: Option<u64>,
    },
    /// The definition alone (module `genus`).
    Definition,
}

impl GenusRoute {
    /// One sentence saying how the values were computed.
    pub fn explain(&self, order: Option<usize>) -> String {
        let order = order.map_or_else(String::new, |o| format!("{o} elements, "));
        match self {
            GenusRoute::Labels => format!(
                "Read through the labelled monoid of the heaps, *1 and *2 ({order}misère Grundy values proven for every sum)"
            ),
            GenusRoute::NimQuotient => format!(
                "Read through the misère quotient of the heaps and Nim heaps ({order}verified heap by heap)"
            ),
            GenusRoute::CanonicalForms { forms } => format!(
                "Read off the misère canonical forms of the heaps ({forms} forms): each exponent the misère Grundy value of a heap's form plus copies of *2"
            ),
            GenusRoute::Search {
                low_order,
                low_heaps,
                labelled_heaps,
            } => {
                let mut text = String::from("Computed from the definition by a pruned search");
                if let Some(o) = low_order {
                    text.push_str(&format!(
                        "; values 0, 1, 2 read off the misère quotient of *1, *2 and heaps 1 to {low_heaps} ({o} elements)"
                    ));
                }
                if let Some(h) = labelled_heaps {
                    text.push_str(&format!(
                        "; sums of heaps up to {h} answered by the labelled monoid"
                    ));
                }
                text
            }
            GenusRoute::Definition => "Computed from the definition".to_owned(),
        }
    }
}
