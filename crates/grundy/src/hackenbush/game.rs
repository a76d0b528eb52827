//! Green Hackenbush for the generic engine: cut an edge, drop what falls. The reference that
//! the fast value is tested against.

use super::picture::Picture;
use crate::game::ImpartialGame;

/// Green Hackenbush as an [`ImpartialGame`]. A position is a grounded picture in a canonical
/// form: vertices renumbered with the ground at 0, each edge written `(min, max)`, the edges
/// sorted (so equal pictures drawn in another order share their memo entry).
///
/// Options cut one edge and keep what is still connected to the ground. A position splits
/// into the parts that meet only at the ground (their values nim-add, as for any sum).
///
/// ```
/// use grundy::hackenbush::{HackenbushGame, Picture};
/// use grundy::solve::Solver;
/// use grundy::Nimber;
/// let p = Picture::new(vec![(0, 1), (1, 2), (2, 0)]);
/// let mut solver = Solver::new(HackenbushGame);
/// assert_eq!(solver.value(&HackenbushGame::position(&p)).unwrap(), Nimber(1));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct HackenbushGame;

/// A canonical grounded picture: sorted edges `(a, b)`, `a <= b`, ground 0.
pub type Position = Vec<(u32, u32)>;

impl HackenbushGame {
    /// The canonical position of a picture's grounded part.
    pub fn position(picture: &Picture) -> Position {
        let compact = picture.grounded_part().compact();
        let mut edges: Vec<(u32, u32)> = compact
            .edges
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect();
        edges.sort_unstable();
        edges
    }
}

/// The edges of `position` (ground 0) still connected to the ground, found by a plain
/// search (independent of the fast algorithm's code).
fn grounded(edges: &[(u32, u32)]) -> Position {
    let mut reached = vec![0u32];
    let mut keep = vec![false; edges.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for (i, &(a, b)) in edges.iter().enumerate() {
            if !keep[i] && (reached.contains(&a) || reached.contains(&b)) {
                keep[i] = true;
                changed = true;
                for v in [a, b] {
                    if !reached.contains(&v) {
                        reached.push(v);
                    }
                }
            }
        }
    }
    edges
        .iter()
        .zip(keep)
        .filter(|(_, k)| *k)
        .map(|(e, _)| *e)
        .collect()
}

impl ImpartialGame for HackenbushGame {
    type Position = Position;

    fn options(&self, position: &Position) -> Vec<Position> {
        let mut out = Vec::with_capacity(position.len());
        for i in 0..position.len() {
            if i > 0 && position[i] == position[i - 1] {
                continue; // a parallel copy: the same option
            }
            let mut rest = position.clone();
            rest.remove(i);
            out.push(grounded(&rest));
        }
        out
    }

    /// One option per edge.
    fn option_bound(&self, position: &Position) -> Option<u64> {
        Some(position.len() as u64)
    }

    /// An edge is two `u32`s: one word.
    fn position_words(&self, position: &Position) -> u64 {
        position.len() as u64
    }

    /// The parts hanging from the ground: edges joined through vertices other than the
    /// ground. Each loop at the ground is a part of its own. Parts keep their vertex
    /// numbers and order, so a part splits into itself alone.
    fn components(&self, position: &Position) -> Vec<Position> {
        let top = position.iter().map(|&(_, b)| b as usize).max().unwrap_or(0);
        // Union-find over vertices, never through the ground.
        let mut parent: Vec<usize> = (0..=top).collect();
        let find = |parent: &mut Vec<usize>, mut x: usize| {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        };
        for &(a, b) in position {
            if a != 0 {
                let (ra, rb) = (find(&mut parent, a as usize), find(&mut parent, b as usize));
                parent[ra] = rb;
            }
        }
        let mut parts: Vec<(usize, Position)> = Vec::new();
        let mut ground_loops = Vec::new();
        for &(a, b) in position {
            if a == 0 && b == 0 {
                ground_loops.push(vec![(0, 0)]);
                continue;
            }
            let root = find(&mut parent, b as usize);
            match parts.iter_mut().find(|(r, _)| *r == root) {
                Some((_, edges)) => edges.push((a, b)),
                None => parts.push((root, vec![(a, b)])),
            }
        }
        let mut out: Vec<Position> = parts.into_iter().map(|(_, p)| p).collect();
        out.extend(ground_loops);
        out
    }
}
