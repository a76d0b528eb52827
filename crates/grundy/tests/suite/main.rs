//! The library's integration tests: reference values with their sources (under `../data`),
//! property tests against slow engines written from the definitions, bounds and budgets.
//!
//! One test binary for the crate (one link step instead of one per file): each file is a
//! module; run one with `cargo test -p grundy --test suite MODULE::`.

#[cfg(feature = "atlas")]
mod atlas;
mod boards;
mod bounds;
mod budget_holes;
mod checkpoint;
mod chomp_published;
#[cfg(feature = "cluster")]
mod cluster_edges;
#[cfg(all(feature = "cluster", feature = "scripts"))]
mod cluster_explore;
#[cfg(feature = "cluster")]
mod cluster_graph;
#[cfg(feature = "cluster")]
mod cluster_judge;
mod code_shift;
mod coins;
mod common;
mod cram;
#[cfg(feature = "atlas")]
mod czajka_octal;
mod expressions;
mod fast_paths;
mod generic_engine;
mod graph_properties;
mod grundys_game;
mod hackenbush;
mod heap_properties;
mod heap_reference;
mod misere_canonical;
mod misere_form_genus;
mod misere_gamma;
mod misere_genus;
mod misere_genus_cgsuite;
mod misere_kayles;
mod misere_mixed_sums;
mod misere_periodicity;
mod misere_quotient;
mod misere_recal;
mod oeis_octal;
mod parsers;
mod reference_values;
mod rule_kinds;
#[cfg(feature = "scripts")]
mod scripted;
mod sparse_histograms;
mod typed_moves;

/// Counts each thread's memory, as the command-line tool does, so the script tests see the
/// memory ceiling hold.
#[cfg(feature = "scripts")]
#[global_allocator]
static ALLOCATOR: grundy::scripted::CountingAllocator = grundy::scripted::CountingAllocator;
