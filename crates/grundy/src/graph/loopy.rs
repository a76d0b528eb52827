//! Games on graphs with cycles: win, lose or draw with remoteness, and Smith's generalised
//! Sprague–Grundy function.
//!
//! **Retrograde analysis** (as for chess endgame tables, Ströhlein 1970; for games on graphs
//! see Fraenkel, *Combinatorial game theory foundations applied to digraph kernels*, 1997):
//! vertices without moves are lost for the player to move (P, remoteness 0). A vertex with a
//! P-follower is won (N); a vertex whose followers are all N is lost (P). Working from the
//! lost vertices backwards through the predecessors, with a counter per vertex of followers
//! not yet known to be N, labels every vertex that can be forced; the rest are draws. A FIFO
//! queue finishes vertices in order of remoteness, so the winner's remoteness is `1 + min`
//! over the P-followers and the loser's `1 + max` over the followers: the winner wins as fast
//! as possible and the loser holds out as long as possible. Time `O(V + E)`.
//!
//! **Generalised Sprague–Grundy function** (C. A. B. Smith, *Graphs and composite games*,
//! 1966; the algorithm of A. S. Fraenkel and Y. Yesha, *Theory of annihilation games*, 1982):
//! for `m = 0, 1, 2, ...`, label `m` every unlabelled vertex `u` such that no follower is
//! labelled `m` and every follower that is unlabelled or labelled `∞` has a follower labelled
//! `m` (repeating until nothing changes); then label `∞` every unlabelled vertex with no
//! follower labelled `m`. The inner step is a retrograde pass like the one above, so each
//! round costs `O(V + E)` and the whole `O((V + E) · (g + 1))` for a largest finite value `g`.
//! A vertex labelled `∞` has the value `∞(K)`, `K` being the finite values of its followers.

use super::GraphError;
use super::csr::Csr;
use crate::control::Control;
use crate::value::Outcome;

/// Remoteness of a draw: there is none.
pub const NO_REMOTENESS: u32 = u32::MAX;

/// The generalised value marker for `∞(K)`.
pub const INFINITE: u32 = u32::MAX - 1;

const UNLABELLED: u32 = u32::MAX;

/// How often, in processed vertices, progress is reported and cancellation checked.
const CHECK_EVERY: usize = 1 << 20;

fn check(control: &mut Control, done: usize, total: usize) -> Result<(), GraphError> {
    control.report(done as u64, total as u64);
    if control.is_cancelled() {
        Err(GraphError::Cancelled)
    } else {
        Ok(())
    }
}

/// Win / lose / draw and remoteness of every vertex, by retrograde analysis. `reverse` is
/// `graph.transpose()`. Remoteness is [`NO_REMOTENESS`] for draws.
pub fn win_lose_draw(
    graph: &Csr,
    reverse: &Csr,
    control: &mut Control,
) -> Result<(Vec<Outcome>, Vec<u32>), GraphError> {
    let n = graph.vertex_count();
    let mut outcomes = vec![Outcome::Draw; n];
    let mut remoteness = vec![NO_REMOTENESS; n];
    // For an undecided vertex: followers not yet known to be N.
    let mut pending: Vec<u32> = (0..n as u32).map(|v| graph.out_degree(v)).collect();
    let mut queue: Vec<u32> = Vec::new();
    for v in 0..n as u32 {
        if pending[v as usize] == 0 {
            outcomes[v as usize] = Outcome::P;
            remoteness[v as usize] = 0;
            queue.push(v);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        if head % CHECK_EVERY == 0 {
            check(control, head, n)?;
        }
        let r = remoteness[v as usize] + 1;
        if outcomes[v as usize] == Outcome::P {
            for &u in reverse.successors(v) {
                if remoteness[u as usize] == NO_REMOTENESS {
                    outcomes[u as usize] = Outcome::N;
                    remoteness[u as usize] = r;
                    queue.push(u);
                }
            }
        } else {
            for &u in reverse.successors(v) {
                if remoteness[u as usize] == NO_REMOTENESS {
                    pending[u as usize] -= 1;
                    if pending[u as usize] == 0 {
                        outcomes[u as usize] = Outcome::P;
                        remoteness[u as usize] = r;
                        queue.push(u);
                    }
                }
            }
        }
    }
    control.report(n as u64, n as u64);
    Ok((outcomes, remoteness))
}

/// Smith's generalised Sprague–Grundy value of every vertex: a finite value, or [`INFINITE`]
/// for `∞(K)` (`K` is then the set of finite values among the followers). `reverse` is
/// `graph.transpose()`.
pub fn generalized_values(
    graph: &Csr,
    reverse: &Csr,
    control: &mut Control,
) -> Result<Vec<u32>, GraphError> {
    let n = graph.vertex_count();
    let mut label = vec![UNLABELLED; n];
    // Followers that are unlabelled or labelled ∞ (not finitely labelled).
    let mut live: Vec<u32> = (0..n as u32).map(|v| graph.out_degree(v)).collect();
    // Of those, the ones not yet known to have a follower labelled m (this round).
    let mut need = vec![0u32; n];
    // `has[x] == m + 1`: x has a follower labelled m.
    let mut has = vec![0u32; n];
    let mut remaining: Vec<u32> = (0..n as u32).collect();
    let mut queue: Vec<u32> = Vec::new();
    let mut m: u32 = 0;
    let mut work = 0usize;
    while !remaining.is_empty() {
        let stamp = m + 1;
        queue.clear();
        for &u in &remaining {
            need[u as usize] = live[u as usize];
            if need[u as usize] == 0 {
                label[u as usize] = m;
                queue.push(u);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head];
            head += 1;
            work += 1;
            if work % CHECK_EVERY == 0 {
                check(control, n - remaining.len(), n)?;
            }
            for &x in reverse.successors(v) {
                let lx = label[x as usize];
                if has[x as usize] == stamp || (lx != UNLABELLED && lx != INFINITE) {
                    continue;
                }
                has[x as usize] = stamp;
                for &u in reverse.successors(x) {
                    if label[u as usize] == UNLABELLED && has[u as usize] != stamp {
                        need[u as usize] -= 1;
                        if need[u as usize] == 0 {
                            label[u as usize] = m;
                            queue.push(u);
                        }
                    }
                }
            }
        }
        let mut next = Vec::with_capacity(remaining.len() - queue.len());
        for &u in &remaining {
            let lu = label[u as usize];
            if lu == m {
                for &p in reverse.successors(u) {
                    live[p as usize] -= 1;
                }
            } else if has[u as usize] == stamp {
                next.push(u);
            } else {
                label[u as usize] = INFINITE;
            }
        }
        remaining = next;
        m += 1;
    }
    control.report(n as u64, n as u64);
    Ok(label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Outcome::{Draw, N, P};

    fn run(adj: &[Vec<u32>]) -> (Vec<Outcome>, Vec<u32>, Vec<u32>) {
        let g = Csr::from_adjacency(adj);
        let r = g.transpose();
        let (o, rem) = win_lose_draw(&g, &r, &mut Control::none()).unwrap();
        let v = generalized_values(&g, &r, &mut Control::none()).unwrap();
        (o, rem, v)
    }

    #[test]
    fn a_long_cycle_with_an_exit_needs_no_recursion() {
        // 0 -> 1 -> ... -> n-1 -> 0, and n-1 -> n, a terminal: vertex n-1 wins at once, and
        // going back along the cycle the outcomes alternate.
        let n = 1_000_000u32;
        let mut adj: Vec<Vec<u32>> = (0..n).map(|v| vec![(v + 1) % n]).collect();
        adj[n as usize - 1].push(n);
        adj.push(vec![]);
        let (o, rem, v) = run(&adj);
        for u in 0..n {
            let distance = n - u; // moves from u to the terminal
            assert_eq!(o[u as usize], if distance % 2 == 1 { N } else { P });
            assert_eq!(rem[u as usize], distance);
            assert_eq!(v[u as usize], if distance % 2 == 1 { 1 } else { 0 });
        }
    }

    #[test]
    fn a_two_cycle_is_a_draw() {
        let (o, rem, v) = run(&[vec![1], vec![0]]);
        assert_eq!(o, [Draw, Draw]);
        assert_eq!(rem, [NO_REMOTENESS, NO_REMOTENESS]);
        assert_eq!(v, [INFINITE, INFINITE]);
    }

    #[test]
    fn a_cycle_with_an_exit_to_a_loss() {
        // 0 <-> 1, 1 -> 2, 2 has no moves. 1 wins by moving to 2; 0 must move to 1: lost.
        let (o, rem, v) = run(&[vec![1], vec![0, 2], vec![]]);
        assert_eq!(o, [P, N, P]);
        assert_eq!(rem, [2, 1, 0]);
        assert_eq!(v, [0, 1, 0]);
    }

    #[test]
    fn a_cycle_can_have_finite_values_and_a_loop_an_infinite_one() {
        // 0 -> 1, 0 -> 2; 1 <-> 2; 2 -> 3, a terminal. Vertex 2 can move to the loss 3, so
        // 1, whose only move is to 2, is lost (0); 2 moves to two zeros (1); 0 sees 0 and 1.
        let (o, _, v) = run(&[vec![1, 2], vec![2], vec![1, 3], vec![]]);
        assert_eq!(v, [2, 0, 1, 0]);
        assert_eq!(o, [N, P, N, P]);
        // A self-loop next to a terminal: ∞({0}), an N-position.
        let (o, _, v) = run(&[vec![0, 1], vec![]]);
        assert_eq!(v, [INFINITE, 0]);
        assert_eq!(o, [N, P]);
    }
}
