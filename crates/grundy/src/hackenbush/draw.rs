//! Drawing pictures: an indented text tree, and Graphviz DOT.

use super::picture::{GROUND, Picture};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// The picture as an indented tree grown from the ground (a depth-first spanning tree), with
/// the edges that close cycles and the loops listed under the vertex they start from, and
/// the edges not connected to the ground at the end.
///
/// ```
/// use grundy::hackenbush::{Picture, draw_text};
/// let p = Picture::new(vec![(0, 1), (1, 2), (2, 0), (2, 3), (3, 3)]);
/// let expected = [
///     "ground",
///     "└── 1",
///     "    └── 2",
///     "        ├── back to ground (edge 2-0)",
///     "        └── 3",
///     "            └── loop 3-3",
/// ];
/// assert_eq!(draw_text(&p), expected.join("\n") + "\n");
/// ```
pub fn draw_text(picture: &Picture) -> String {
    let edges = picture.edges();
    // Adjacency by vertex label, in the order the edges were written.
    let mut adjacency: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for (i, &(a, b)) in edges.iter().enumerate() {
        adjacency.entry(a).or_default().push(i);
        if b != a {
            adjacency.entry(b).or_default().push(i);
        }
    }
    // Phase 1: a depth-first walk (explicit stack) gives each vertex its items: the edges
    // it meets first, as a child, a loop, or an edge back to a vertex already drawn.
    let mut items: BTreeMap<u64, Vec<Item>> = BTreeMap::new();
    let mut used = vec![false; edges.len()];
    let mut visited = BTreeSet::from([GROUND]);
    let mut stack: Vec<(u64, usize)> = vec![(GROUND, 0)];
    while let Some((v, next)) = stack.last_mut() {
        let v = *v;
        let list = adjacency.get(&v).map_or(&[][..], |l| l.as_slice());
        let Some(offset) = list[*next..].iter().position(|&e| !used[e]) else {
            stack.pop();
            continue;
        };
        let e = list[*next + offset];
        *next += offset + 1;
        used[e] = true;
        let (a, b) = edges[e];
        let other = if a == v { b } else { a };
        let item = if a == b {
            Item::Loop(e)
        } else if visited.insert(other) {
            stack.push((other, 0));
            Item::Child(other)
        } else {
            Item::Back(e)
        };
        items.entry(v).or_default().push(item);
    }
    // Phase 2: print the tree, again with an explicit stack of (vertex, prefix, next item,
    // depth). Past [`MAX_INDENT`] levels the prefix stops growing and each line names its
    // depth: a long path stays linear in size, not quadratic.
    let mut out = String::from("ground\n");
    let mut stack: Vec<(u64, String, usize, usize)> = vec![(GROUND, String::new(), 0, 0)];
    while let Some((v, prefix, next, depth)) = stack.last_mut() {
        let depth = *depth;
        let list = items.get(v).map_or(&[][..], |l| l.as_slice());
        let Some(&item) = list.get(*next) else {
            stack.pop();
            continue;
        };
        *next += 1;
        let last = *next == list.len();
        let (branch, indent) = if last {
            ("└── ", "    ")
        } else {
            ("├── ", "│   ")
        };
        let line = if depth < MAX_INDENT {
            format!("{prefix}{branch}")
        } else {
            format!("{prefix}{branch}(depth {}) ", depth + 1)
        };
        match item {
            Item::Child(w) => {
                let _ = writeln!(out, "{line}{w}");
                let child_prefix = if depth < MAX_INDENT {
                    format!("{prefix}{indent}")
                } else {
                    prefix.clone()
                };
                stack.push((w, child_prefix, 0, depth + 1));
            }
            Item::Loop(e) => {
                let (a, b) = edges[e];
                let _ = writeln!(out, "{line}loop {a}-{b}");
            }
            Item::Back(e) => {
                let (a, b) = edges[e];
                let other = if a == *v { b } else { a };
                let name = if other == GROUND {
                    "ground".to_string()
                } else {
                    other.to_string()
                };
                let _ = writeln!(out, "{line}back to {name} (edge {a}-{b})");
            }
        }
    }
    let fallen: Vec<String> = edges
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|((a, b), _)| format!("{a}-{b}"))
        .collect();
    if !fallen.is_empty() {
        let _ = writeln!(
            out,
            "not connected to the ground (already fallen): {}",
            fallen.join(" ")
        );
    }
    out
}

/// The most levels of indentation in the text drawing; deeper lines name their depth.
pub const MAX_INDENT: usize = 40;

/// What a vertex shows below it in the text drawing.
#[derive(Clone, Copy, Debug)]
enum Item {
    /// A vertex first reached through this vertex.
    Child(u64),
    /// A loop (edge index).
    Loop(usize),
    /// An edge (index) to a vertex already drawn: it closes a cycle.
    Back(usize),
}

/// The picture in Graphviz DOT (an undirected multigraph; the ground drawn as a box).
///
/// ```
/// use grundy::hackenbush::{Picture, draw_dot};
/// let dot = draw_dot(&Picture::new(vec![(0, 1), (1, 1)]));
/// assert!(dot.starts_with("graph hackenbush {"));
/// assert!(dot.contains("  1 -- 1;"));
/// ```
pub fn draw_dot(picture: &Picture) -> String {
    let mut out = String::from("graph hackenbush {\n  node [shape=point];\n");
    let _ = writeln!(out, "  {GROUND} [shape=box, label=\"ground\"];");
    for &(a, b) in picture.edges() {
        let _ = writeln!(out, "  {a} -- {b};");
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edge_is_drawn_once() {
        let p = Picture::new(vec![(0, 1), (0, 1), (1, 2), (7, 8), (1, 1)]);
        let text = draw_text(&p);
        let expected = [
            "ground",
            "└── 1",
            "    ├── back to ground (edge 0-1)",
            "    ├── 2",
            "    └── loop 1-1",
            "not connected to the ground (already fallen): 7-8",
        ];
        assert_eq!(text, expected.join("\n") + "\n");
    }

    #[test]
    fn a_deep_chain_draws_without_recursion() {
        let edges: Vec<_> = (0..500u64).map(|i| (i, i + 1)).collect();
        let text = draw_text(&Picture::new(edges));
        assert_eq!(text.lines().count(), 501);
    }

    #[test]
    fn a_long_path_draws_in_linear_size() {
        // 9000 edges in a path: indented at every level it would be some 160 MB of text.
        let n = 9000u64;
        let edges: Vec<_> = (0..n).map(|i| (i, i + 1)).collect();
        let text = draw_text(&Picture::new(edges));
        assert_eq!(text.lines().count(), n as usize + 1);
        assert!(text.len() < 300 * n as usize, "{} bytes", text.len());
        let last = text.lines().last().unwrap();
        assert!(last.ends_with(&format!("(depth {n}) {n}")), "{last}");
        // Every line past the indentation limit names its depth, in order.
        for (d, line) in text.lines().enumerate().skip(MAX_INDENT + 1) {
            assert!(line.contains(&format!("(depth {d}) {d}")), "{line}");
        }
    }
}
