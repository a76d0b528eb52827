//! The board and graph games written plainly from their definitions, as [`ImpartialGame`]s
//! for the generic engine: the reference the position search is tested against. No
//! splitting, no symmetry, no closed form.

use crate::game::ImpartialGame;

/// Cram or Node Kayles on a board, plainly: a position is the free cells, row by row.
#[derive(Clone, Copy, Debug)]
pub struct PlainBoard {
    /// Cells per row.
    pub cols: usize,
    /// Node Kayles (take a cell and its neighbours) rather than Cram (take two neighbours).
    pub node_kayles: bool,
}

impl ImpartialGame for PlainBoard {
    type Position = Vec<bool>;

    fn options(&self, free: &Vec<bool>) -> Vec<Vec<bool>> {
        let c = self.cols;
        let mut out = Vec::new();
        for i in 0..free.len() {
            if !free[i] {
                continue;
            }
            let right = (i % c + 1 < c).then_some(i + 1);
            let down = (i + c < free.len()).then_some(i + c);
            if self.node_kayles {
                let mut next = free.clone();
                next[i] = false;
                let left = (i % c > 0).then(|| i - 1);
                let up = i.checked_sub(c);
                for j in [left, right, up, down].into_iter().flatten() {
                    next[j] = false;
                }
                out.push(next);
            } else {
                for j in [right, down].into_iter().flatten() {
                    if free[j] {
                        let mut next = free.clone();
                        next[i] = false;
                        next[j] = false;
                        out.push(next);
                    }
                }
            }
        }
        out
    }
}

/// Node Kayles or Arc Kayles on a graph, plainly: a position is the vertices left.
#[derive(Clone, Debug)]
pub struct PlainGraph {
    /// The edges, between vertex indices.
    pub edges: Vec<(usize, usize)>,
    /// Arc Kayles (take an edge's two ends) rather than Node Kayles (a vertex and its
    /// neighbours).
    pub arc_kayles: bool,
}

impl ImpartialGame for PlainGraph {
    type Position = Vec<bool>;

    fn options(&self, alive: &Vec<bool>) -> Vec<Vec<bool>> {
        let mut out = Vec::new();
        if self.arc_kayles {
            for &(u, v) in &self.edges {
                if alive[u] && alive[v] {
                    let mut next = alive.clone();
                    next[u] = false;
                    next[v] = false;
                    out.push(next);
                }
            }
        } else {
            for v in 0..alive.len() {
                if alive[v] {
                    let mut next = alive.clone();
                    next[v] = false;
                    for &(a, b) in &self.edges {
                        if a == v {
                            next[b] = false;
                        }
                        if b == v {
                            next[a] = false;
                        }
                    }
                    out.push(next);
                }
            }
        }
        out
    }
}

/// Chomp, plainly: a position is the row lengths, top row first; the top-left square is
/// poisoned and never taken.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlainChomp;

impl ImpartialGame for PlainChomp {
    type Position = Vec<u64>;

    fn options(&self, rows: &Vec<u64>) -> Vec<Vec<u64>> {
        bites(rows).map(|(_, _, next)| next).collect()
    }

    fn option_bound(&self, rows: &Vec<u64>) -> Option<u64> {
        rows.iter().try_fold(0u64, |a, &b| a.checked_add(b))
    }
}

/// Every bite of a Chomp position (row lengths, top first), as the bitten square's row and
/// column (from 0) and the row lengths left: a bite at (`r`, `c`) cuts every row from `r`
/// down to `c` squares. The poisoned top-left square is never bitten.
pub(crate) fn bites(rows: &[u64]) -> impl Iterator<Item = (usize, u64, Vec<u64>)> + '_ {
    (0..rows.len())
        .flat_map(move |r| (0..rows[r]).map(move |c| (r, c)))
        .filter(|&(r, c)| r > 0 || c > 0)
        .map(move |(r, c)| {
            let next = rows
                .iter()
                .enumerate()
                .map(|(i, &len)| if i >= r { len.min(c) } else { len })
                .filter(|&len| len > 0)
                .collect();
            (r, c, next)
        })
}
