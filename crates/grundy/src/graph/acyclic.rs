//! Sprague–Grundy values of an acyclic game graph in linear time.
//!
//! The value of a vertex is the mex of its followers' values (Sprague 1935, Grundy 1939), so
//! values are computed in reverse topological order: every follower before the vertex. The
//! order comes from an iterative depth-first search (a vertex is finished when all its
//! followers are, so the finishing order is a reverse topological order, Tarjan 1976), which
//! needs only the successor lists and also detects a cycle (an edge back to a vertex still on
//! the stack). The mex of a vertex with `d` followers is at most `d`; it is found with a
//! stamp array (a slot per value `0..=d`, marked with the vertex's own stamp, so nothing is
//! cleared between vertices).
//!
//! Time `O(V + E)`, memory `O(V)` besides the graph; no recursion.
//!
//! Kahn's algorithm (repeatedly remove a vertex whose followers are all done) gives the same
//! order but needs the predecessor lists too: on a random acyclic graph of 2 million vertices
//! and 10 million edges it took 2.0–2.2 s with the transpose against 1.6 s for this search
//! (measured on the shared 2-core machine, same load), and a third more memory.

use super::GraphError;
use super::csr::Csr;
use crate::control::Control;

/// Marks a vertex not yet reached.
const UNVISITED: u32 = u32::MAX;
/// Marks a vertex on the search stack: an edge to it closes a cycle.
const ON_STACK: u32 = u32::MAX - 1;

/// How often, in finished vertices, progress is reported and cancellation checked.
const CHECK_EVERY: u32 = 1 << 20;

/// Values and remoteness of an acyclic graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AcyclicValues {
    /// The Sprague–Grundy value of each vertex.
    pub values: Vec<u32>,
    /// The remoteness of each vertex (empty unless asked for): 0 for a vertex without
    /// moves, `1 + max` over the followers for a P-position, `1 + min` over the followers
    /// that are P-positions for an N-position.
    pub remoteness: Vec<u32>,
}

/// The Sprague–Grundy value (and, if `with_remoteness`, the remoteness) of every vertex, or
/// `None` if the graph has a cycle.
pub fn solve_acyclic(
    graph: &Csr,
    with_remoteness: bool,
    control: &mut Control,
) -> Result<Option<AcyclicValues>, GraphError> {
    Ok(if with_remoteness {
        search::<2>(graph, control)?.map(|state| AcyclicValues {
            values: state.iter().map(|s| s[0]).collect(),
            remoteness: state.iter().map(|s| s[1]).collect(),
        })
    } else {
        search::<1>(graph, control)?.map(|state| AcyclicValues {
            values: state.into_iter().map(|s| s[0]).collect(),
            remoteness: Vec::new(),
        })
    })
}

/// The search, with `W = 1` (values) or `W = 2` (values and remoteness side by side, so a
/// follower's value and remoteness share a cache line: the graph is far larger than the
/// cache, and the time goes into memory accesses).
fn search<const W: usize>(
    graph: &Csr,
    control: &mut Control,
) -> Result<Option<Vec<[u32; W]>>, GraphError> {
    let n = graph.vertex_count();
    let mut state = vec![[UNVISITED; W]; n];
    let mut stamps = vec![0u32; graph.max_out_degree() as usize + 2];
    // (vertex, index of the next follower to look at)
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let mut finished = 0u32;
    for root in 0..n as u32 {
        if state[root as usize][0] != UNVISITED {
            continue;
        }
        state[root as usize][0] = ON_STACK;
        stack.push((root, 0));
        'search: while let Some(top) = stack.last_mut() {
            let v = top.0;
            let followers = graph.successors(v);
            while (top.1 as usize) < followers.len() {
                let w = followers[top.1 as usize];
                top.1 += 1;
                match state[w as usize][0] {
                    UNVISITED => {
                        state[w as usize][0] = ON_STACK;
                        stack.push((w, 0));
                        continue 'search;
                    }
                    ON_STACK => return Ok(None),
                    _ => {}
                }
            }
            // Every follower has its value: take the mex.
            let stamp = v + 1;
            let degree = followers.len() as u32;
            for &w in followers {
                let x = state[w as usize][0];
                if x <= degree {
                    stamps[x as usize] = stamp;
                }
            }
            let mut mex = 0;
            while stamps[mex as usize] == stamp {
                mex += 1;
            }
            state[v as usize][0] = mex;
            if W == 2 {
                let mut r = 0;
                if degree > 0 {
                    r = 1 + if mex == 0 {
                        followers
                            .iter()
                            .map(|&w| state[w as usize][W - 1])
                            .max()
                            .unwrap_or(0)
                    } else {
                        followers
                            .iter()
                            .filter(|&&w| state[w as usize][0] == 0)
                            .map(|&w| state[w as usize][W - 1])
                            .min()
                            .unwrap_or(0)
                    };
                }
                state[v as usize][W - 1] = r;
            }
            stack.pop();
            finished += 1;
            if finished % CHECK_EVERY == 0 {
                control.report(u64::from(finished), n as u64);
                if control.is_cancelled() {
                    return Err(GraphError::Cancelled);
                }
            }
        }
    }
    control.report(n as u64, n as u64);
    Ok(Some(state))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(adj: &[Vec<u32>]) -> Option<AcyclicValues> {
        solve_acyclic(&Csr::from_adjacency(adj), true, &mut Control::none()).unwrap()
    }

    #[test]
    fn nim_heaps_as_a_graph() {
        // Vertex h is a Nim heap of size h: it moves to every smaller heap.
        let adj: Vec<Vec<u32>> = (0..6).map(|h| (0..h).collect()).collect();
        let s = solve(&adj).unwrap();
        assert_eq!(s.values, [0, 1, 2, 3, 4, 5]);
        // A heap is won in one move; the empty heap is lost at once.
        assert_eq!(s.remoteness, [0, 1, 1, 1, 1, 1]);
    }

    #[test]
    fn a_chain_gives_alternating_values_and_remoteness_its_length() {
        let n = 2_000_000u32;
        let adj: Vec<Vec<u32>> = (0..n)
            .map(|v| if v == 0 { vec![] } else { vec![v - 1] })
            .collect();
        let s = solve(&adj).unwrap();
        assert!(s.values.iter().enumerate().all(|(v, &x)| x == v as u32 % 2));
        assert_eq!(s.remoteness[n as usize - 1], n - 1);
    }

    #[test]
    fn cycles_are_detected() {
        assert_eq!(solve(&[vec![1], vec![2], vec![0]]), None);
        assert_eq!(solve(&[vec![0]]), None);
        assert!(solve(&[vec![1, 2], vec![2], vec![]]).is_some());
    }
}
