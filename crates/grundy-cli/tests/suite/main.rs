//! End-to-end tests of the real `grundy` binary, the server and its page in a browser, and
//! the documentation's commands.
//!
//! One test binary for the crate (one link step instead of one per file): each file is a
//! module; run one with `cargo test -p grundy-cli --test suite MODULE::`.

mod analyze;
mod atlas;
mod atlas_view;
mod board;
mod boards_cli;
mod browser;
mod cluster;
mod cluster_graph;
mod codes;
mod common;
mod docs;
mod front_end;
mod generic_budget;
mod graph_cli;
mod hackenbush_coins;
mod hostile;
mod misere;
mod play;
mod rule_scripts;
mod sequence;
mod serve;
mod serve_memory;
mod sweep;
mod wording;
