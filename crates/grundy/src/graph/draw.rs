//! Pictures of game graphs: Graphviz DOT, and SVG laid out without Graphviz.
//!
//! Positions are coloured by outcome (P red, N green, draw grey) and labelled with their name
//! and value. [`to_svg`] lays the graph out with the `layout-rs` crate (a Sugiyama-style
//! layered layout: cycles broken, layers assigned, crossings reduced); for large graphs or a
//! more polished picture, render the DOT file with Graphviz: `dot -Tsvg game.dot -o game.svg`.

use super::{GameGraph, GraphSolution};
use crate::value::Outcome;
use layout::backends::svg::SVGWriter;
use layout::core::base::Orientation;
use layout::core::color::Color;
use layout::core::style::StyleAttr;
use layout::std_shapes::render::get_shape_size;
use layout::std_shapes::shapes::{Arrow, Element, ShapeKind};
use layout::topo::layout::VisualGraph;
use std::fmt::Write;

/// The most vertices [`to_svg`] lays out (its layout is superlinear).
pub const MAX_SVG_VERTICES: usize = 2000;

/// Why a picture could not be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DrawError {
    /// The graph is too large for the built-in layout.
    #[error(
        "the graph has {vertices} vertices, more than the {limit} the built-in SVG layout \
         handles; write DOT (--dot FILE) and render it with Graphviz: dot -Tsvg FILE -o out.svg"
    )]
    TooLarge {
        /// The graph's vertices.
        vertices: usize,
        /// The limit.
        limit: usize,
    },
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

/// The graph as an SVG picture, laid out by `layout-rs`.
pub fn to_svg(graph: &GameGraph, solution: &GraphSolution) -> Result<String, DrawError> {
    let n = graph.vertex_count();
    if n > MAX_SVG_VERTICES {
        return Err(DrawError::TooLarge {
            vertices: n,
            limit: MAX_SVG_VERTICES,
        });
    }
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
    fn svg_is_drawn_for_graphs_with_cycles() {
        let (g, s) = example();
        let svg = to_svg(&g, &s).unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        assert!(svg.contains("#f4a3a3") || svg.contains("f4a3a3"), "{svg}");
    }
}
