//! Compact storage for large directed graphs: compressed sparse rows with `u32` indices.
//!
//! A graph of `V` vertices and `E` edges takes `4(V + 1) + 4E` bytes: the successors of vertex
//! `v` are `targets[offsets[v]..offsets[v + 1]]`. Building from an edge list is a counting sort
//! (two passes, `O(V + E)`), and so is [`Csr::transpose`], which gives the predecessors the
//! retrograde algorithms need.

use std::fmt;

/// The most edges a [`Csr`] can hold: offsets are `u32`.
pub const MAX_EDGES: u64 = u32::MAX as u64;

/// The most vertices a [`Csr`] can hold: indices are `u32`, and the largest values are kept
/// free as markers by the algorithms.
pub const MAX_VERTICES: u64 = (u32::MAX - 2) as u64;

/// A directed graph in compressed sparse row form. Vertices are `0..vertex_count()`;
/// repeated edges and loops are allowed.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Csr {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl fmt::Debug for Csr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Csr")
            .field("vertices", &self.vertex_count())
            .field("edges", &self.edge_count())
            .finish()
    }
}

impl Csr {
    /// The graph on `vertices` vertices with an edge `sources[i] -> targets[i]` for each `i`,
    /// successors kept in input order.
    ///
    /// # Panics
    /// If the slices differ in length, an index is out of range, or the sizes exceed
    /// [`MAX_VERTICES`] / [`MAX_EDGES`] (the readers check all of these first).
    pub fn from_edges(vertices: u32, sources: &[u32], targets: &[u32]) -> Csr {
        assert_eq!(sources.len(), targets.len(), "one target per source");
        assert!(
            sources.len() as u64 <= MAX_EDGES,
            "too many edges for u32 offsets"
        );
        assert!(u64::from(vertices) <= MAX_VERTICES, "too many vertices");
        let n = vertices as usize;
        let mut offsets = vec![0u32; n + 1];
        for &s in sources {
            offsets[s as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut next = offsets[..n].to_vec();
        let mut out = vec![0u32; targets.len()];
        for (&s, &t) in sources.iter().zip(targets) {
            assert!(t < vertices, "edge target out of range");
            let slot = &mut next[s as usize];
            out[*slot as usize] = t;
            *slot += 1;
        }
        Csr {
            offsets,
            targets: out,
        }
    }

    /// The graph with successor lists given directly (for small graphs and tests).
    pub fn from_adjacency(adjacency: &[Vec<u32>]) -> Csr {
        let mut sources = Vec::new();
        let mut targets = Vec::new();
        for (v, succ) in adjacency.iter().enumerate() {
            for &w in succ {
                sources.push(v as u32);
                targets.push(w);
            }
        }
        Csr::from_edges(adjacency.len() as u32, &sources, &targets)
    }

    /// The number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.targets.len()
    }

    /// The successors (options) of `v`, with repeats if the input repeated an edge.
    #[inline]
    pub fn successors(&self, v: u32) -> &[u32] {
        let v = v as usize;
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }

    /// The offsets: the successors of `v` are `targets()[offsets()[v]..offsets()[v + 1]]`.
    pub fn offsets(&self) -> &[u32] {
        &self.offsets
    }

    /// The successors of every vertex, one after the other.
    pub fn targets(&self) -> &[u32] {
        &self.targets
    }

    /// The number of edges leaving `v`.
    #[inline]
    pub fn out_degree(&self, v: u32) -> u32 {
        self.offsets[v as usize + 1] - self.offsets[v as usize]
    }

    /// The largest out-degree (0 for an empty graph).
    pub fn max_out_degree(&self) -> u32 {
        self.offsets
            .windows(2)
            .map(|w| w[1] - w[0])
            .max()
            .unwrap_or(0)
    }

    /// The reversed graph: `w -> v` for every edge `v -> w`, in `O(V + E)`.
    pub fn transpose(&self) -> Csr {
        let n = self.vertex_count();
        let mut offsets = vec![0u32; n + 1];
        for &t in &self.targets {
            offsets[t as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut next = offsets[..n].to_vec();
        let mut out = vec![0u32; self.targets.len()];
        for v in 0..n as u32 {
            for &t in self.successors(v) {
                let slot = &mut next[t as usize];
                out[*slot as usize] = v;
                *slot += 1;
            }
        }
        Csr {
            offsets,
            targets: out,
        }
    }

    /// Every edge `(from, to)`, in order.
    pub fn edges(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.vertex_count() as u32)
            .flat_map(move |v| self.successors(v).iter().map(move |&w| (v, w)))
    }

    /// Bytes of memory held.
    pub fn heap_bytes(&self) -> usize {
        4 * (self.offsets.capacity() + self.targets.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_successors_and_predecessors() {
        let g = Csr::from_edges(4, &[0, 2, 0, 3, 3], &[1, 1, 2, 3, 0]);
        assert_eq!(g.vertex_count(), 4);
        assert_eq!(g.edge_count(), 5);
        assert_eq!(g.successors(0), &[1, 2]);
        assert_eq!(g.successors(1), &[] as &[u32]);
        assert_eq!(g.successors(3), &[3, 0]);
        assert_eq!(g.max_out_degree(), 2);
        let r = g.transpose();
        assert_eq!(r.successors(1), &[0, 2]);
        assert_eq!(r.successors(3), &[3]);
        assert_eq!(r.successors(0), &[3]);
        let mut back: Vec<_> = r.transpose().edges().collect();
        back.sort_unstable();
        let mut edges: Vec<_> = g.edges().collect();
        edges.sort_unstable();
        assert_eq!(back, edges);
        let edges: Vec<_> = g.edges().collect();
        assert_eq!(edges, [(0, 1), (0, 2), (2, 1), (3, 3), (3, 0)]);
    }
}
