//! The value of a Green Hackenbush picture in O(V + E): fusion, then the colon principle.
//!
//! 1. **Fusion principle** (Winning Ways, ch. 7; Ferguson, Part I, §6.3): the vertices on any
//!    cycle may be fused into one vertex without changing the value; the edges of the cycle
//!    become loops, and a loop is worth the same as a stalk of one edge. The vertices that
//!    lie on common cycles are exactly the 2-edge-connected components, found here as the
//!    pieces left when the bridges are removed (Tarjan's bridge-finding by depth-first
//!    search, with an explicit stack). A 2-edge-connected component with `k` non-bridge
//!    edges becomes one vertex carrying `k` loops, worth `k mod 2` (so an odd cycle is worth
//!    1 and an even one 0).
//! 2. **Colon principle** (Ferguson, §6.2): what is left is a tree of fused vertices joined
//!    by bridges, rooted at the ground. The branches meeting at a vertex may be replaced by
//!    one stalk whose length is the nim-sum of their values; a branch hanging from a bridge
//!    above a subtree worth `v` is a stalk of length `v + 1`. So, from the leaves down,
//!    `value(c) = (loops(c) mod 2) ⊕ ⨁_{children d} (value(d) + 1)`.
//!
//! Every step is a linear pass with explicit queues or stacks: no recursion.

use super::picture::{Compact, Picture};
use crate::nimber::Nimber;

/// The Sprague–Grundy value of a picture (0 if no edge touches the ground). O(V + E).
///
/// ```
/// use grundy::hackenbush::{Picture, value};
/// use grundy::Nimber;
/// // A tree: the ground, a trunk 0-1 and two branches 1-2, 1-3: 1 + (1 ⊕ 1) = 1.
/// assert_eq!(value(&Picture::new(vec![(0, 1), (1, 2), (1, 3)])), Nimber(1));
/// // A triangle on the ground (odd cycle: 1) with a stalk 2-3 and a loop 3-3 on top
/// // (fused: one loop, worth 1, on a stalk of one edge: 1 + 1).
/// let p = Picture::new(vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)]);
/// assert_eq!(value(&p), Nimber(1 ^ 2));
/// ```
pub fn value(picture: &Picture) -> Nimber {
    let graph = picture.compact();
    if !graph.has_ground {
        return Nimber::ZERO;
    }
    Nimber(fused_value(&graph))
}

fn fused_value(graph: &Compact) -> u64 {
    let (start, list) = graph.adjacency();
    let n = graph.vertices;
    let is_bridge = bridges(graph, &start, &list);

    // 2-edge-connected components: the pieces joined by non-bridge edges, found by search
    // from every vertex reached from the ground.
    const NONE: u32 = u32::MAX;
    let mut piece = vec![NONE; n];
    let mut pieces = 0u32;
    let mut stack = Vec::new();
    // Vertices in order of reach from the ground, through any edge: the pieces get numbers
    // in that order, so every piece's parent (towards the ground) is numbered before it.
    let mut order = vec![0u32];
    let mut reached = vec![false; n];
    reached[0] = true;
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        for &(w, _) in &list[start[v]..start[v + 1]] {
            if !reached[w as usize] {
                reached[w as usize] = true;
                order.push(w);
            }
        }
    }
    for &root in &order {
        if piece[root as usize] != NONE {
            continue;
        }
        piece[root as usize] = pieces;
        stack.push(root);
        while let Some(v) = stack.pop() {
            let v = v as usize;
            for &(w, e) in &list[start[v]..start[v + 1]] {
                if !is_bridge[e as usize] && piece[w as usize] == NONE {
                    piece[w as usize] = pieces;
                    stack.push(w);
                }
            }
        }
        pieces += 1;
    }

    // Loops (non-bridge edges) per piece, and the tree of pieces joined by bridges.
    let p = pieces as usize;
    let mut loops = vec![0u64; p];
    let mut parent = vec![NONE; p];
    for (e, &(a, b)) in graph.edges.iter().enumerate() {
        let (pa, pb) = (piece[a as usize], piece[b as usize]);
        if pa == NONE {
            continue; // not connected to the ground
        }
        if is_bridge[e] {
            // The piece numbered later hangs below the other one.
            let (upper, lower) = if pa < pb { (pa, pb) } else { (pb, pa) };
            parent[lower as usize] = upper;
        } else {
            loops[pa as usize] += 1;
        }
    }
    // Colon principle from the leaves down: children are numbered after their parents.
    let mut value: Vec<u64> = loops.iter().map(|k| k & 1).collect();
    for c in (1..p).rev() {
        let up = parent[c] as usize;
        value[up] ^= value[c] + 1;
    }
    value[0]
}

/// Marks the bridges among the edges reachable from the ground (vertex 0): Tarjan's
/// low-link method, with an explicit stack. A parallel edge is not the tree edge it runs
/// beside, so the walk skips only the edge it came in by (by edge number, not by vertex).
fn bridges(graph: &Compact, start: &[usize], list: &[(u32, u32)]) -> Vec<bool> {
    const UNSEEN: u32 = u32::MAX;
    let n = graph.vertices;
    let mut is_bridge = vec![false; graph.edges.len()];
    let mut discovered = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut time = 0u32;
    // Frames: (vertex, edge it came in by, next adjacency index).
    let mut stack: Vec<(u32, u32, usize)> = vec![(0, UNSEEN, start[0])];
    discovered[0] = 0;
    low[0] = 0;
    while let Some(&mut (v, via, ref mut next)) = stack.last_mut() {
        let vu = v as usize;
        if *next < start[vu + 1] {
            let (w, e) = list[*next];
            *next += 1;
            if e == via || w == v {
                continue;
            }
            let wu = w as usize;
            if discovered[wu] == UNSEEN {
                time += 1;
                discovered[wu] = time;
                low[wu] = time;
                stack.push((w, e, start[wu]));
            } else {
                low[vu] = low[vu].min(discovered[wu]);
            }
        } else {
            stack.pop();
            if let Some(&(u, _, _)) = stack.last() {
                let uu = u as usize;
                low[uu] = low[uu].min(low[vu]);
                if low[vu] > discovered[uu] {
                    is_bridge[via as usize] = true;
                }
            }
        }
    }
    is_bridge
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(edges: &[(u64, u64)]) -> u64 {
        value(&Picture::new(edges.to_vec())).0
    }

    #[test]
    fn bamboo_stalks_are_nim_heaps() {
        assert_eq!(v(&[]), 0);
        assert_eq!(v(&[(0, 1)]), 1);
        assert_eq!(v(&[(0, 1), (1, 2), (2, 3)]), 3);
        // Two stalks on the ground: 3 ⊕ 2.
        assert_eq!(v(&[(0, 1), (1, 2), (2, 3), (0, 4), (4, 5)]), 1);
        // Vertex numbers need not be consecutive.
        assert_eq!(v(&[(0, 100), (100, 7)]), 2);
    }

    #[test]
    fn cycles_loops_and_parallel_edges() {
        assert_eq!(
            v(&[(0, 0)]),
            1,
            "a loop on the ground is a stalk of one edge"
        );
        assert_eq!(v(&[(0, 1), (1, 0)]), 0, "two parallel edges: an even cycle");
        assert_eq!(v(&[(0, 1), (1, 2), (2, 0)]), 1, "a triangle: an odd cycle");
        assert_eq!(v(&[(0, 1), (1, 2), (2, 3), (3, 0)]), 0, "a square");
        // A triangle with a stalk of two edges on top: fuse to 3 loops + stalk 2 = 1 ⊕ 2.
        assert_eq!(v(&[(1, 2), (2, 0), (0, 1), (2, 3), (3, 4)]), 3);
        // A loop at the top of a stalk: the stalk above the loop's vertex is one edge.
        assert_eq!(v(&[(0, 1), (1, 1)]), 2);
        // A triangle hanging from a stalk: 1 + (value of triangle) = 1 + 1.
        assert_eq!(v(&[(0, 1), (1, 2), (2, 3), (3, 1)]), 2);
    }

    #[test]
    fn floating_pictures_are_worth_nothing() {
        assert_eq!(v(&[(1, 2), (2, 3)]), 0);
        assert_eq!(v(&[(0, 1), (5, 6), (6, 6)]), 1);
    }

    #[test]
    fn a_long_chain_does_not_overflow_the_stack() {
        let n = 1_000_000u64;
        let edges: Vec<_> = (0..n).map(|i| (i, i + 1)).collect();
        assert_eq!(v(&edges), n);
    }
}
