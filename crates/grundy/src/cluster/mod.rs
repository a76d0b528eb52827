//! Runs past one process, on [timely dataflow](https://github.com/TimelyDataflow/timely-dataflow)
//! (feature `cluster`): processes named in a hosts file, one or more worker threads each,
//! connected over TCP.
//!
//! - [`connect`]: the hosts file and the connections, under a deadline ([`Cluster`]).
//! - [`graph`](mod@graph): a game graph solved by every worker of every process: values,
//!   outcomes and remoteness equal to the one-thread solver's ([`solve_on_cluster`],
//!   [`solve_with_workers`]); a judge-format file read in parts by the workers, no process
//!   holding the whole graph ([`judge_on_cluster`], [`judge_with_workers`]); a game explored
//!   in parts by the workers and answered for its start, no process holding the whole graph
//!   either ([`explore_on_cluster`], [`explore_with_workers`]); an edge list (named vertices)
//!   read in parts, every vertex's answer gathered on process 0 ([`edges_on_cluster`],
//!   [`edges_with_workers`]).
//! - [`census`](mod@census): a census of the atlas spread over the processes: process 0 plans it
//!   from its database, the games go to the workers by their index (game i to worker
//!   i mod W), each worker computes its games as a one-process census does, and the results
//!   come back to process 0, which alone writes the database ([`distributed_census`]).
//!
//! Faults: a hosts file that does not parse, an index out of range, a peer that never comes
//! up (the deadline) are errors before any work; a peer that dies mid-run makes timely's
//! connection threads fail, which stops the workers of every process, and the run ends
//! with [`ClusterError::Peer`]: what process 0 wrote before is kept (one transaction a
//! game), and the same census run again continues where it stopped.

pub mod census;
pub mod connect;
pub mod graph;

pub use census::distributed_census;
pub use connect::Cluster;
pub use graph::edges::{EdgeAnswer, EdgeFile, NamedVertex, edges_on_cluster, edges_with_workers};
pub use graph::explore::{Exploration, StartAnswer, explore_on_cluster, explore_with_workers};
pub use graph::judge::{JudgeAnswer, JudgeFile, judge_on_cluster, judge_with_workers};
pub use graph::{
    DistributedSolution, SolveStats, solve_on_cluster, solve_with_workers,
    solve_with_workers_in_steps,
};

use crate::atlas::AtlasError;

/// Why a cluster run could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// The hosts file does not parse.
    #[error("{origin}{}: {message}", if *line > 0 { format!(":{line}") } else { String::new() })]
    Hosts {
        /// The file.
        origin: String,
        /// The line (from 1; 0 for the file as a whole).
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// This process's index is not in the hosts file.
    #[error("process {process} is out of range: the hosts file names {count} processes (0 to {})", count - 1)]
    Process {
        /// The index given.
        process: usize,
        /// Processes in the file.
        count: usize,
    },
    /// This process's own address cannot be listened on.
    #[error("cannot listen on {address}: {message}")]
    Bind {
        /// The address.
        address: String,
        /// Why.
        message: String,
    },
    /// Peers did not connect before the deadline.
    #[error(
        "process {process}: no connection with process {} within {seconds} s (are they started, \
         with the same hosts file?)",
        missing.join(", ")
    )]
    Connect {
        /// This process.
        process: usize,
        /// The peers missing, with their addresses.
        missing: Vec<String>,
        /// The deadline.
        seconds: f64,
    },
    /// A connection said something unexpected.
    #[error("cluster connection: {0}")]
    Protocol(String),
    /// A peer failed or left during the run.
    #[error("the cluster stopped: {0}")]
    Peer(String),
    /// A process was asked to stop (Ctrl-C): every process stops at the same step.
    #[error("interrupted")]
    Interrupted,
    /// The input file is malformed (the one-process reader's message, the same on every
    /// process).
    #[error(transparent)]
    Read(#[from] crate::graph::read::ReadError),
    /// A game explored in parts could not be explored (the one-process error: a limit, or
    /// a position whose moves could not be listed).
    #[error(transparent)]
    Explore(#[from] crate::graph::explore::ExploreError),
    /// The atlas refused (process 0).
    #[error(transparent)]
    Atlas(#[from] AtlasError),
}
