//! Kernels of game graphs.
//!
//! A kernel is a set `K` of vertices that is independent (no edge joins two vertices of `K`,
//! and no vertex of `K` has a loop) and absorbing (every vertex outside `K` has an edge into
//! `K`) (von Neumann and Morgenstern 1944; Berge, *Graphs and hypergraphs*). With edges
//! pointing from a position to its options, the P-positions of a finite acyclic game are
//! its unique kernel.
//!
//! With cycles a kernel may not exist (an odd cycle has none) or may not be unique, and
//! deciding whether one exists is NP-complete (Chvátal 1973). Retrograde analysis fixes most
//! of the answer: every kernel contains the P-positions and avoids the N-positions (by
//! induction on remoteness), and a draw has no P-follower, so the kernels are exactly the
//! P-positions together with a kernel of the subgraph induced by the draws. Only that
//! subgraph goes to a SAT solver ([BatSat](https://crates.io/crates/batsat), a MiniSat
//! descendant in pure Rust), one variable per draw vertex:
//! `¬x_u ∨ ¬x_v` for each edge `u → v` between draws (`¬x_u` for a loop) and
//! `x_u ∨ x_{v1} ∨ … ∨ x_{vk}` over the draw followers of each draw `u`. A second call with
//! the first kernel excluded tells whether it is unique.
//!
//! The search runs under a [`Budget`] ([`find_kernel_within`]): building the clauses is
//! charged one unit a draw and an edge (refused up front when that alone passes the work
//! limit), and the solver asks the budget before each of its search steps (a decision and
//! its propagation, charged [`SEARCH_STEP_COST`] units), so a cancellation or the work limit
//! stops it promptly with [`KernelError::Budget`], never with a wrong "no kernel".

use super::GraphSolution;
use super::csr::Csr;
use crate::control::{Budget, BudgetError};
use crate::value::Outcome;
#[cfg(feature = "sat")]
use batsat::callbacks::Callbacks;
#[cfg(feature = "sat")]
use batsat::{Lit, Solver, SolverInterface, SolverOpts, Var, lbool};
#[cfg(feature = "sat")]
use std::cell::Cell;

/// The default limit on the draws handed to the SAT solver.
pub const DEFAULT_MAX_DRAWS: usize = 200_000;

/// The work units charged for one search step of the SAT solver (a decision and the unit
/// propagation after it, some hundreds of nanoseconds on graphs of thousands of draws).
pub const SEARCH_STEP_COST: u64 = 16;

/// Why a kernel search was not made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KernelError {
    /// Too many draw vertices for the SAT solver.
    #[error(
        "the kernel search would give the SAT solver {draws} draw vertices, more than the limit \
         of {limit} (the draw limit; the problem is NP-complete)"
    )]
    TooLarge {
        /// The draw vertices.
        draws: usize,
        /// The limit.
        limit: usize,
    },
    /// The search was cancelled or passed the work limit before it could decide.
    #[error("the kernel search stopped: {0}")]
    Budget(#[from] BudgetError),
    /// The graph has draws, and this build has no SAT solver to search their kernels.
    #[error(
        "the graph has {draws} draw vertices, whose kernels need the SAT solver, and this \
         build of grundy was made without it (the Cargo feature `sat`)"
    )]
    NoSolver {
        /// The draw vertices.
        draws: usize,
    },
}

#[cfg(feature = "sat")]
/// The solver's callbacks: before each search step, charge the budget and stop on a
/// refusal (remembered, to report it).
struct Stop<'a> {
    budget: &'a Budget,
    refused: Cell<Option<BudgetError>>,
}

#[cfg(feature = "sat")]
impl Callbacks for Stop<'_> {
    fn stop(&self) -> bool {
        if self.refused.get().is_some() {
            return true;
        }
        match self.budget.charge(SEARCH_STEP_COST) {
            Ok(()) => false,
            Err(e) => {
                self.refused.set(Some(e));
                true
            }
        }
    }
}

#[cfg(feature = "sat")]
/// Runs the solver: `Some(true)` satisfiable, `Some(false)` not, an error when the budget
/// stopped it before an answer.
fn solve(solver: &mut Solver<Stop<'_>>) -> Result<bool, KernelError> {
    let result = solver.solve_limited(&[]);
    if result == lbool::TRUE {
        Ok(true)
    } else if result == lbool::FALSE {
        Ok(false)
    } else {
        let refused = solver.cb().refused.get();
        Err(refused.unwrap_or(BudgetError::Cancelled).into())
    }
}

/// What is known about the kernels of a graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelReport {
    /// A kernel, sorted, or `None` when the graph has none.
    pub kernel: Option<Vec<u32>>,
    /// Whether the kernel found is the only one (`false` when there is none).
    pub unique: bool,
}

/// Finds a kernel of `graph`, given its solution, or proves that none exists. At most
/// `max_draws` draw vertices go to the SAT solver. Under the default [`Budget`]: see
/// [`find_kernel_within`] to cancel it or choose its work limit.
pub fn find_kernel(
    graph: &Csr,
    solution: &GraphSolution,
    max_draws: usize,
) -> Result<KernelReport, KernelError> {
    find_kernel_within(graph, solution, max_draws, &Budget::default())
}

/// As [`find_kernel`], under `budget`: the clauses and every search step of the SAT solver
/// are charged to it, and its cancellation or work limit stops the search with
/// [`KernelError::Budget`].
pub fn find_kernel_within(
    graph: &Csr,
    solution: &GraphSolution,
    max_draws: usize,
    budget: &Budget,
) -> Result<KernelReport, KernelError> {
    budget.check()?;
    let n = graph.vertex_count();
    let losing: Vec<u32> = (0..n as u32)
        .filter(|&v| solution.outcome(v) == Outcome::P)
        .collect();
    let draws: Vec<u32> = (0..n as u32)
        .filter(|&v| solution.outcome(v) == Outcome::Draw)
        .collect();
    if draws.is_empty() {
        return Ok(KernelReport {
            kernel: Some(losing),
            unique: true,
        });
    }
    if draws.len() > max_draws {
        return Err(KernelError::TooLarge {
            draws: draws.len(),
            limit: max_draws,
        });
    }
    // One unit a draw and an edge out of one, to build the clauses.
    let clause_work = draws.iter().fold(draws.len() as u64, |sum, &u| {
        sum.saturating_add(graph.successors(u).len() as u64)
    });
    budget.afford(clause_work)?;
    budget.charge(clause_work)?;
    kernel_with_draws(graph, losing, &draws, budget)
}

/// Without the SAT solver: refused, naming the draws and the feature.
#[cfg(not(feature = "sat"))]
fn kernel_with_draws(
    _graph: &Csr,
    _losing: Vec<u32>,
    draws: &[u32],
    _budget: &Budget,
) -> Result<KernelReport, KernelError> {
    Err(KernelError::NoSolver { draws: draws.len() })
}

/// The kernels among the draws, by the SAT solver; the P-positions `losing` join the one
/// found.
#[cfg(feature = "sat")]
fn kernel_with_draws(
    graph: &Csr,
    losing: Vec<u32>,
    draws: &[u32],
    budget: &Budget,
) -> Result<KernelReport, KernelError> {
    let n = graph.vertex_count();
    // Variable index of each draw vertex.
    let mut var_of = vec![u32::MAX; n];
    let mut solver = Solver::new(
        SolverOpts::default(),
        Stop {
            budget,
            refused: Cell::new(None),
        },
    );
    let vars: Vec<Var> = draws
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            var_of[v as usize] = i as u32;
            solver.new_var_default()
        })
        .collect();
    let mut clause = Vec::new();
    let mut consistent = true;
    for (i, &u) in draws.iter().enumerate() {
        let xu = Lit::new(vars[i], true);
        clause.clear();
        clause.push(xu);
        for &w in graph.successors(u) {
            let j = var_of[w as usize];
            if j == u32::MAX {
                continue;
            }
            let xw = Lit::new(vars[j as usize], true);
            clause.push(xw);
            let mut independent = if j as usize == i {
                vec![!xu]
            } else {
                vec![!xu, !xw]
            };
            consistent &= solver.add_clause_reuse(&mut independent);
        }
        consistent &= solver.add_clause_reuse(&mut clause);
    }
    if !consistent || !solve(&mut solver)? {
        return Ok(KernelReport {
            kernel: None,
            unique: false,
        });
    }
    let chosen: Vec<bool> = vars
        .iter()
        .map(|&x| solver.value_var(x) == lbool::TRUE)
        .collect();
    let mut kernel = losing;
    kernel.extend(
        draws
            .iter()
            .zip(&chosen)
            .filter(|(_, c)| **c)
            .map(|(&v, _)| v),
    );
    kernel.sort_unstable();
    // Exclude this kernel and ask again.
    let mut different: Vec<Lit> = vars
        .iter()
        .zip(&chosen)
        .map(|(&x, &c)| Lit::new(x, !c))
        .collect();
    let unique = !solver.add_clause_reuse(&mut different) || !solve(&mut solver)?;
    Ok(KernelReport {
        kernel: Some(kernel),
        unique,
    })
}

/// Whether `set` (a flag per vertex) is a kernel of `graph`: independent and absorbing.
pub fn is_kernel(graph: &Csr, set: &[bool]) -> bool {
    (0..graph.vertex_count() as u32).all(|v| {
        let into_set = graph.successors(v).iter().any(|&w| set[w as usize]);
        if set[v as usize] { !into_set } else { into_set }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::graph::solve;

    fn kernel_of(adj: &[Vec<u32>]) -> KernelReport {
        let g = Csr::from_adjacency(adj);
        let s = solve(&g, &mut Control::none()).unwrap();
        find_kernel(&g, &s, DEFAULT_MAX_DRAWS).unwrap()
    }

    #[test]
    fn the_draw_limit_is_an_error() {
        let g = Csr::from_adjacency(&[vec![1], vec![2], vec![0]]);
        let s = solve(&g, &mut Control::none()).unwrap();
        let e = find_kernel(&g, &s, 2).unwrap_err();
        assert_eq!(e, KernelError::TooLarge { draws: 3, limit: 2 });
    }

    /// Without the SAT solver a graph with draws is refused, naming the draws and the
    /// feature; one without draws still has its kernel, the P-positions
    /// (`cargo test -p grundy --no-default-features --lib graph::kernel`).
    #[cfg(not(feature = "sat"))]
    #[test]
    fn without_the_solver_draws_are_refused_by_name() {
        let g = Csr::from_adjacency(&[vec![1], vec![2], vec![0]]);
        let s = crate::graph::solve(&g, &mut crate::control::Control::none()).unwrap();
        let e = find_kernel(&g, &s, 100).unwrap_err();
        assert_eq!(e, KernelError::NoSolver { draws: 3 });
        assert!(e.to_string().contains("the Cargo feature `sat`"), "{e}");
        let g = Csr::from_adjacency(&[vec![1], vec![]]);
        let s = crate::graph::solve(&g, &mut crate::control::Control::none()).unwrap();
        assert_eq!(find_kernel(&g, &s, 100).unwrap().kernel, Some(vec![1]));
    }

    #[cfg(feature = "sat")]
    #[test]
    fn odd_cycles_have_no_kernel_and_even_ones_two() {
        assert_eq!(kernel_of(&[vec![1], vec![2], vec![0]]).kernel, None);
        assert_eq!(kernel_of(&[vec![0]]).kernel, None);
        let even = kernel_of(&[vec![1], vec![2], vec![3], vec![0]]);
        let k = even.kernel.unwrap();
        assert!(k == [0, 2] || k == [1, 3], "{k:?}");
        assert!(!even.unique);
    }

    #[test]
    fn acyclic_kernels_are_the_p_positions() {
        let r = kernel_of(&[vec![1], vec![2], vec![]]);
        assert_eq!(r.kernel, Some(vec![0, 2]));
        assert_eq!(
            kernel_of(&[vec![1, 2], vec![2], vec![]]).kernel,
            Some(vec![2])
        );
        assert!(r.unique);
    }

    #[test]
    fn is_kernel_checks_both_conditions() {
        let g = Csr::from_adjacency(&[vec![1], vec![]]);
        assert!(is_kernel(&g, &[false, true]));
        assert!(!is_kernel(&g, &[true, true]));
        assert!(!is_kernel(&g, &[false, false]));
    }
}
