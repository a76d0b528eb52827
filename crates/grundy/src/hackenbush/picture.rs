//! Pictures: the positions of Green Hackenbush, as multigraphs rooted at the ground.

use crate::expr::{ExprError, Spanned, parse_u64};
use rustc_hash::FxHashMap;
use std::fmt;

/// The ground vertex: everything drawn on the floor is this one vertex.
pub const GROUND: u64 = 0;

/// An edge between two vertices, as written (`1-2`); a loop has `a == b`.
pub type Edge = (u64, u64);

/// A Green Hackenbush picture: a multigraph whose vertex [`GROUND`] (0) is the ground.
///
/// Loops (`3-3`) and parallel edges are allowed. Edges keep the order and the vertex numbers
/// they were written with, so a picture prints back as written. Edges that are not connected
/// to the ground (possible only as written by a user, never after a move) are part of the
/// picture but not of the game: they have already fallen, so they add nothing to the value and
/// cannot be cut.
///
/// ```
/// use grundy::hackenbush::Picture;
/// let p = Picture::new(vec![(0, 1), (1, 2), (1, 3)]);
/// assert_eq!(p.to_string(), "0-1 1-2 1-3");
/// assert_eq!(p.cut(1).to_string(), "0-1 1-3");
/// assert_eq!(p.cut(0).to_string(), "");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Picture {
    edges: Vec<Edge>,
}

/// A picture with its vertices numbered `0..vertices` and the ground (if present) at 0: the
/// form the algorithms work on.
#[derive(Clone, Debug)]
pub(crate) struct Compact {
    /// How many vertices.
    pub vertices: usize,
    /// Whether the ground is a vertex of the picture (then it is vertex 0).
    pub has_ground: bool,
    /// The edges, in the picture's order.
    pub edges: Vec<(u32, u32)>,
}

impl Compact {
    /// Adjacency in compressed form: `start[v]..start[v + 1]` indexes `(neighbour, edge)`
    /// pairs of vertex `v`. Loops appear twice at their vertex.
    pub fn adjacency(&self) -> (Vec<usize>, Vec<(u32, u32)>) {
        let mut start = vec![0usize; self.vertices + 1];
        for &(a, b) in &self.edges {
            start[a as usize + 1] += 1;
            start[b as usize + 1] += 1;
        }
        for v in 0..self.vertices {
            start[v + 1] += start[v];
        }
        let mut fill = start.clone();
        let mut list = vec![(0u32, 0u32); start[self.vertices]];
        for (e, &(a, b)) in self.edges.iter().enumerate() {
            list[fill[a as usize]] = (b, e as u32);
            fill[a as usize] += 1;
            list[fill[b as usize]] = (a, e as u32);
            fill[b as usize] += 1;
        }
        (start, list)
    }

    /// Which edges are connected to the ground (breadth-first search from it, O(V + E)).
    pub fn grounded(&self) -> Vec<bool> {
        let mut edge_on = vec![false; self.edges.len()];
        if !self.has_ground {
            return edge_on;
        }
        let (start, list) = self.adjacency();
        let mut seen = vec![false; self.vertices];
        seen[0] = true;
        let mut queue = vec![0u32];
        let mut head = 0;
        while head < queue.len() {
            let v = queue[head] as usize;
            head += 1;
            for &(w, e) in &list[start[v]..start[v + 1]] {
                edge_on[e as usize] = true;
                if !seen[w as usize] {
                    seen[w as usize] = true;
                    queue.push(w);
                }
            }
        }
        edge_on
    }
}

impl Picture {
    /// A picture with these edges.
    pub fn new(edges: Vec<Edge>) -> Self {
        Picture { edges }
    }

    /// The edges, as written.
    pub fn edges(&self) -> &[Edge] {
        &self.edges
    }

    /// Whether the picture has no edges at all.
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    /// Whether some edge touches the ground. A picture that does not is worth 0.
    pub fn touches_ground(&self) -> bool {
        self.edges.iter().any(|&(a, b)| a == GROUND || b == GROUND)
    }

    /// The picture with vertices renumbered `0..n`, the ground first.
    pub(crate) fn compact(&self) -> Compact {
        let has_ground = self.touches_ground();
        let top = self.edges.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(0);
        let edges: Vec<(u32, u32)>;
        let vertices;
        if top <= 2 * self.edges.len() as u64 + 16 {
            // Small labels (the usual case): a table instead of a hash map.
            const NONE: u32 = u32::MAX;
            let mut index = vec![NONE; top as usize + 1];
            let mut next = 0u32;
            if has_ground {
                index[GROUND as usize] = 0;
                next = 1;
            }
            let mut id = |v: u64| {
                let slot = &mut index[v as usize];
                if *slot == NONE {
                    *slot = next;
                    next += 1;
                }
                *slot
            };
            edges = self.edges.iter().map(|&(a, b)| (id(a), id(b))).collect();
            vertices = next as usize;
        } else {
            let mut index: FxHashMap<u64, u32> = FxHashMap::default();
            if has_ground {
                index.insert(GROUND, 0);
            }
            let mut id = |v: u64| -> u32 {
                let next = index.len() as u32;
                *index.entry(v).or_insert(next)
            };
            edges = self.edges.iter().map(|&(a, b)| (id(a), id(b))).collect();
            vertices = index.len();
        }
        Compact {
            vertices,
            has_ground,
            edges,
        }
    }

    /// Indices of the edges connected to the ground: the edges a player may cut.
    pub fn grounded_edges(&self) -> Vec<usize> {
        let on = self.compact().grounded();
        (0..self.edges.len()).filter(|&e| on[e]).collect()
    }

    /// The picture after cutting edge `index`: that edge goes, and so does everything no
    /// longer connected to the ground. O(V + E).
    ///
    /// # Panics
    /// If `index` is not an edge of the picture.
    pub fn cut(&self, index: usize) -> Picture {
        let mut rest = self.edges.clone();
        rest.remove(index);
        Picture::new(rest).grounded_part()
    }

    /// The part of the picture connected to the ground (what the game is played on).
    pub fn grounded_part(&self) -> Picture {
        let on = self.compact().grounded();
        Picture::new(
            self.edges
                .iter()
                .zip(on)
                .filter(|(_, on)| *on)
                .map(|(e, _)| *e)
                .collect(),
        )
    }

    /// Reads a picture from the arguments of a `hackenbush` term: edges `u-v` between
    /// vertex numbers (whole numbers, 0 being the ground). Errors point at the offending
    /// edge or vertex.
    pub fn from_args(args: &[Spanned<String>]) -> Result<Picture, ExprError> {
        args.iter()
            .map(parse_edge)
            .collect::<Result<Vec<_>, _>>()
            .map(Picture::new)
    }
}

/// Reads one edge `u-v`.
fn parse_edge(arg: &Spanned<String>) -> Result<Edge, ExprError> {
    let text = arg.value.as_str();
    let start = arg.span.start;
    let shape = || {
        ExprError::new(
            arg.span.clone(),
            format!(
                "expected an edge `u-v` between two vertex numbers, found `{}`",
                crate::expr::shorten(text)
            ),
        )
        .with_help("edges are written like `0-1 1-2 2-2`; vertex 0 is the ground")
    };
    let negative = |at: usize| {
        ExprError::new(
            start + at..arg.span.end,
            format!(
                "vertex numbers are whole numbers (0 is the ground), found a negative one in `{}`",
                crate::expr::shorten(text)
            ),
        )
    };
    if text.starts_with('-') {
        return Err(if text.len() > 1 { negative(0) } else { shape() });
    }
    let Some(dash) = text.find('-') else {
        return Err(shape());
    };
    let (left, right) = (&text[..dash], &text[dash + 1..]);
    if right.starts_with('-') {
        return Err(negative(dash + 1));
    }
    if right.is_empty() {
        return Err(shape());
    }
    let part = |s: &str, at: usize| Spanned {
        value: s.to_string(),
        span: start + at..start + at + s.len(),
    };
    let a = parse_u64(&part(left, 0), "a vertex number")?;
    let b = parse_u64(&part(right, dash + 1), "a vertex number")?;
    Ok((a, b))
}

/// The edges `a-b` separated by spaces: the arguments of a `hackenbush` term.
impl fmt::Display for Picture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (a, b)) in self.edges.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{a}-{b}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(s: &str) -> Spanned<String> {
        Spanned {
            value: s.to_string(),
            span: 10..10 + s.len(),
        }
    }

    #[test]
    fn edges_parse_and_errors_point_at_the_part() {
        assert_eq!(parse_edge(&arg("0-1")).unwrap(), (0, 1));
        assert_eq!(parse_edge(&arg("12-12")).unwrap(), (12, 12));
        let e = parse_edge(&arg("1-x")).unwrap_err();
        assert_eq!(e.span, 12..13);
        assert!(e.message.contains("vertex number"), "{}", e.message);
        let e = parse_edge(&arg("-1-2")).unwrap_err();
        assert!(e.message.contains("negative"), "{}", e.message);
        let e = parse_edge(&arg("1--2")).unwrap_err();
        assert_eq!(e.span, 12..14);
        assert!(e.message.contains("negative"), "{}", e.message);
        for bad in ["1", "1-", "-", "a", "1-2-3"] {
            assert!(parse_edge(&arg(bad)).is_err(), "{bad}");
        }
        let e = parse_edge(&arg("0-99999999999999999999")).unwrap_err();
        assert!(e.message.contains("too large"), "{}", e.message);
        assert_eq!(e.span, 12..32);
    }

    #[test]
    fn cutting_drops_what_falls() {
        let p = Picture::new(vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 3), (7, 8)]);
        assert_eq!(p.grounded_edges(), vec![0, 1, 2, 3, 4]);
        assert_eq!(p.cut(3).to_string(), "0-1 1-2 2-0");
        assert_eq!(p.cut(0).to_string(), "1-2 2-0 2-3 3-3");
        assert!(Picture::new(vec![(1, 2)]).grounded_part().is_empty());
    }
}
