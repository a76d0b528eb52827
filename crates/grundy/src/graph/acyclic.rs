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
    Ok(
        search(graph, with_remoteness, control)?.map(|nodes| AcyclicValues {
            values: nodes.iter().map(|s| s.value).collect(),
            remoteness: if with_remoteness {
                nodes.iter().map(|s| s.remoteness).collect()
            } else {
                Vec::new()
            },
        }),
    )
}

/// What the search keeps per vertex, side by side: the search is bound by memory accesses
/// (the graph is far larger than the cache), and a follower's state and the bounds of its
/// successor list then arrive in one cache line. Measured 15–30% faster than separate arrays.
#[derive(Clone, Copy)]
struct Node {
    value: u32,
    remoteness: u32,
    /// The successors are `targets[start..end]`.
    start: u32,
    end: u32,
}

fn search(
    graph: &Csr,
    with_remoteness: bool,
    control: &mut Control,
) -> Result<Option<Vec<Node>>, GraphError> {
    let n = graph.vertex_count();
    let offsets = graph.offsets();
    let targets = graph.targets();
    let mut nodes: Vec<Node> = (0..n)
        .map(|v| Node {
            value: UNVISITED,
            remoteness: 0,
            start: offsets[v],
            end: offsets[v + 1],
        })
        .collect();
    let mut stamps = vec![0u32; graph.max_out_degree() as usize + 2];
    // (vertex, index in `targets` of the next follower to look at)
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let mut finished = 0u32;
    for root in 0..n as u32 {
        if nodes[root as usize].value != UNVISITED {
            continue;
        }
        nodes[root as usize].value = ON_STACK;
        stack.push((root, nodes[root as usize].start));
        'search: while let Some(top) = stack.last_mut() {
            let v = top.0;
            let end = nodes[v as usize].end;
            while top.1 < end {
                let w = targets[top.1 as usize];
                top.1 += 1;
                let node = &mut nodes[w as usize];
                match node.value {
                    UNVISITED => {
                        node.value = ON_STACK;
                        let start = node.start;
                        stack.push((w, start));
                        continue 'search;
                    }
                    ON_STACK => return Ok(None),
                    _ => {}
                }
            }
            // Every follower has its value: take the mex.
            let followers = &targets[nodes[v as usize].start as usize..end as usize];
            let stamp = v + 1;
            let degree = followers.len() as u32;
            for &w in followers {
                let x = nodes[w as usize].value;
                if x <= degree {
                    stamps[x as usize] = stamp;
                }
            }
            let mut mex = 0;
            while stamps[mex as usize] == stamp {
                mex += 1;
            }
            nodes[v as usize].value = mex;
            if with_remoteness && degree > 0 {
                let rem = |w: &u32| nodes[*w as usize].remoteness;
                nodes[v as usize].remoteness = 1 + if mex == 0 {
                    followers.iter().map(rem).max().unwrap_or(0)
                } else {
                    followers
                        .iter()
                        .filter(|&&w| nodes[w as usize].value == 0)
                        .map(rem)
                        .min()
                        .unwrap_or(0)
                };
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
    Ok(Some(nodes))
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
