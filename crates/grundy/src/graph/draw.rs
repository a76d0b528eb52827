//! Pictures of game graphs: Graphviz DOT, and SVG laid out without Graphviz.
//!
//! Positions are coloured by outcome (P red, N green, draw grey) and labelled with their name
//! and value. [`to_svg`] lays the graph out with the `layout-rs` crate (a Sugiyama-style
//! layered layout: cycles broken, layers assigned, crossings reduced); for large graphs or a
//! more polished picture, render the DOT file with Graphviz: `dot -Tsvg game.dot -o game.svg`.
//!
//! The layered layout places a dummy node wherever an edge crosses a layer, and its time grows
//! about quadratically in the nodes it places (some 25 s for a path of 2,000 vertices). So
//! [`check_svg`] estimates those nodes up front in `O(V + E)` (layers by longest path, see
//! [`svg_layout_nodes`]) and refuses a graph past [`MAX_SVG_NODES`]: `nim 300` has only 301
//! vertices but 45,150 edges spanning 4.5 million layers.

use super::csr::Csr;
use super::{GameGraph, GraphSolution};
use crate::value::Outcome;
#[cfg(feature = "svg")]
use layout::backends::svg::SVGWriter;
#[cfg(feature = "svg")]
use layout::core::base::Orientation;
#[cfg(feature = "svg")]
use layout::core::color::Color;
#[cfg(feature = "svg")]
use layout::core::style::StyleAttr;
#[cfg(feature = "svg")]
use layout::std_shapes::render::get_shape_size;
#[cfg(feature = "svg")]
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
#[cfg(feature = "svg")]
use layout::topo::layout::VisualGraph;
use std::fmt::Write;

/// The most layout nodes (vertices and the dummy nodes of long edges, see
/// [`svg_layout_nodes`]) [`to_svg`] lays out: a few seconds of layout.
pub const MAX_SVG_NODES: u64 = 1000;

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The graph is too large for the built-in layout.
    #[error(
        "the graph has {vertices} vertices and {edges} edges, which the built-in SVG layout \
         would draw with about {nodes} nodes, more than its limit of {limit}; write DOT and \
         render it with Graphviz (dot -Tsvg FILE -o out.svg)"
    )]
    TooLarge {
        /// The graph's vertices.
        vertices: usize,
        /// The graph's edges.
        edges: usize,
        /// The layout nodes estimated.
        nodes: u64,
        /// The limit.
        limit: u64,
    },
    /// This build has no layout (the Cargo feature `svg`).
    #[error(
        "this build of grundy was made without the SVG layout (the Cargo feature `svg`); write \
         DOT and render it with Graphviz (dot -Tsvg FILE -o out.svg)"
    )]
    NoLayout,
}

/// The fill colour of an outcome.
pub fn outcome_colour(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::P => "#f4a3a3",
        Outcome::N => "#a8e0a0",
        Outcome::Draw => "#d0d0d0",
    }
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The graph in Graphviz DOT: vertices `v0, v1, ...` labelled `name` and value, filled by
/// outcome; tokens (if any) drawn with a double border.
pub fn to_dot(graph: &GameGraph, solution: &GraphSolution, tokens: &[u32]) -> String {
    let n = graph.vertex_count();
    let mut out = String::new();
    out.push_str("digraph game {\n");
    out.push_str(
        "  // Positions coloured by outcome: P red, N green, draw grey; labelled by value.\n",
    );
    out.push_str("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n");
    let mut is_token = vec![false; n];
    for &t in tokens {
        is_token[t as usize] = true;
    }
    for v in 0..n as u32 {
        let label = format!("{}\n{}", graph.name(v), solution.value(&graph.csr, v));
        let _ = write!(
            out,
            "  v{v} [label={}, fillcolor=\"{}\"",
            quote(&label),
            outcome_colour(solution.outcome(v))
        );
        if is_token[v as usize] {
            out.push_str(", peripheries=2, penwidth=2");
        }
        out.push_str("];\n");
    }
    for (v, w) in graph.csr.edges() {
        let _ = writeln!(out, "  v{v} -> v{w};");
    }
    out.push_str("}\n");
    out
}

/// An estimate of the nodes a layered layout of `graph` places: its vertices, and one dummy
/// node for each layer an edge crosses, layers being the longest path from a vertex without
/// predecessors (vertices on cycles take layer 0). `O(V + E)`.
///
/// ```
/// use grundy::graph::csr::Csr;
/// use grundy::graph::draw::svg_layout_nodes;
/// // 0 -> 1 -> 2 and 0 -> 2: the long edge crosses layer 1 once.
/// let g = Csr::from_adjacency(&[vec![1, 2], vec![2], vec![]]);
/// assert_eq!(svg_layout_nodes(&g), 4);
/// ```
pub fn svg_layout_nodes(graph: &Csr) -> u64 {
    let n = graph.vertex_count();
    let mut indegree = vec![0u32; n];
    for (_, w) in graph.edges() {
        indegree[w as usize] += 1;
    }
    let mut layer = vec![0u64; n];
    let mut ready: Vec<u32> = (0..n as u32)
        .filter(|&v| indegree[v as usize] == 0)
        .collect();
    while let Some(v) = ready.pop() {
        for &w in graph.successors(v) {
            layer[w as usize] = layer[w as usize].max(layer[v as usize] + 1);
            indegree[w as usize] -= 1;
            if indegree[w as usize] == 0 {
                ready.push(w);
            }
        }
    }
    graph.edges().fold(n as u64, |total, (v, w)| {
        let span = layer[v as usize].abs_diff(layer[w as usize]);
        total.saturating_add(span.saturating_sub(1))
    })
}

/// Refuses, before any layout, a graph [`to_svg`] would take too long to lay out.
pub fn check_svg(graph: &Csr) -> Result<(), DrawError> {
    // The estimate can only grow with the vertices: skip it for graphs too large anyway.
    let nodes = if graph.vertex_count() as u64 > MAX_SVG_NODES {
        graph.vertex_count() as u64
    } else {
        svg_layout_nodes(graph)
    };
    if nodes > MAX_SVG_NODES {
        return Err(DrawError::TooLarge {
            vertices: graph.vertex_count(),
            edges: graph.edge_count(),
            nodes,
            limit: MAX_SVG_NODES,
        });
    }
    Ok(())
}

/// The graph as an SVG picture, laid out by `layout-rs`; refused (by [`check_svg`]) when the
/// layout would take too long.
pub fn to_svg(graph: &GameGraph, solution: &GraphSolution) -> Result<String, DrawError> {
    check_svg(&graph.csr)?;
    lay_out(graph, solution)
}

#[cfg(not(feature = "svg"))]
fn lay_out(_graph: &GameGraph, _solution: &GraphSolution) -> Result<String, DrawError> {
    Err(DrawError::NoLayout)
}

#[cfg(feature = "svg")]
fn lay_out(graph: &GameGraph, solution: &GraphSolution) -> Result<String, DrawError> {
    let n = graph.vertex_count();
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let handles: Vec<_> = (0..n as u32)
        .map(|v| {
            let label = format!("{}\n{}", graph.name(v), solution.value(&graph.csr, v));
            let shape = ShapeKind::new_box(&label);
            let look = StyleAttr::new(
                Color::fast("black"),
                1,
                Some(Color::fast(outcome_colour(solution.outcome(v)))),
                6,
                14,
            );
            let size = get_shape_size(Orientation::TopToBottom, &shape, 14, false);
            vg.add_node(Element::create(shape, look, Orientation::TopToBottom, size))
        })
        .collect();
    for (v, w) in graph.csr.edges() {
        vg.add_edge(Arrow::simple(""), handles[v as usize], handles[w as usize]);
    }
    let mut svg = SVGWriter::new();
    if n > 0 {
        vg.do_it(false, false, false, &mut svg);
    }
    Ok(svg.finalize())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::Control;
    use crate::graph::read::{ReadOptions, read_edge_list};
    use crate::graph::solve;

    fn example() -> (GameGraph, GraphSolution) {
        let g = read_edge_list("a b\nb a\nb \"c\n".as_bytes(), &ReadOptions::default()).unwrap();
        let s = solve(&g.csr, &mut Control::none()).unwrap();
        (g, s)
    }

    #[test]
    fn dot_colours_by_outcome_and_escapes_names() {
        let (g, s) = example();
        let dot = to_dot(&g, &s, &[0]);
        assert!(dot.starts_with("digraph game {"));
        // a: P (must move to b, which moves to the loss "c), value 0.
        assert!(
            dot.contains("v0 [label=\"a\\n0\", fillcolor=\"#f4a3a3\", peripheries=2"),
            "{dot}"
        );
        assert!(dot.contains("v2 [label=\"\\\"c\\n0\""), "{dot}");
        assert!(
            dot.contains("v1 -> v0;") && dot.contains("v1 -> v2;"),
            "{dot}"
        );
    }

    #[test]
    fn big_layouts_are_refused_up_front() {
        use crate::graph::explore::explore;
        use crate::sum::Context;
        let sum = crate::catalog::parse("nim 300").unwrap();
        let g = explore(&sum, &Context::default(), 1000).unwrap();
        let e = check_svg(&g.csr).unwrap_err();
        let DrawError::TooLarge {
            vertices, edges, ..
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!((vertices, edges), (301, 45_150));
        // A path of n vertices needs no dummy node.
        let path: Vec<Vec<u32>> = (0..900)
            .map(|v| if v < 899 { vec![v + 1] } else { vec![] })
            .collect();
        assert_eq!(svg_layout_nodes(&Csr::from_adjacency(&path)), 900);
        assert!(check_svg(&Csr::from_adjacency(&path)).is_ok());
    }

    #[cfg(feature = "svg")]
    #[test]
    fn svg_is_drawn_for_graphs_with_cycles() {
        let (g, s) = example();
        let svg = to_svg(&g, &s).unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        assert!(svg.contains("#f4a3a3") || svg.contains("f4a3a3"), "{svg}");
    }
}
