//! Pictures that teach, as SVG: the game graph of a small position coloured P/N with the
//! winning moves marked, a Hackenbush picture with the winning cuts marked, and a
//! nim-sequence plot with axes, ticks, visible zeros and the preperiod and period marked.
//!
//! - [`game_graph_svg`]: every position reachable from a small one ([`graph::explore`],
//!   at most [`MAX_GRAPH_VERTICES`]), solved by [`graph::solve`] (misère play as normal play
//!   with one extra move out of each terminal position), laid out by `layout-rs` (layered,
//!   Sugiyama style). P-positions red, N green, draws grey; the moves from the start to a
//!   P-position (the winning moves) drawn thick and red.
//! - [`hackenbush_svg`]: the ground a line, each vertex at its distance from the ground
//!   (breadth-first), edges as segments, loops as circles, parallel edges as arcs; the edges
//!   whose cut wins dashed red and labelled.
//! - [`sequence_svg`]: `g(n)` against `n`, ticks at 1-2-5 steps, zeros as red rings, the
//!   preperiod a dashed line and one period shaded.

use crate::control::Control;
use crate::graph::{self, GameGraph, csr::Csr, explore::explore};
use crate::hackenbush::{GROUND, Picture, value as hackenbush_value};
use crate::heap::period::Period;
use crate::plot::{Frame, dot};
use crate::sum::{AnalysisError, Context, Sum};
use crate::value::Outcome;
#[cfg(feature = "svg")]
use layout::backends::svg::SVGWriter;
#[cfg(feature = "svg")]
use layout::core::base::Orientation;
#[cfg(feature = "svg")]
use layout::core::color::Color;
#[cfg(feature = "svg")]
use layout::core::style::{LineStyleKind, StyleAttr};
#[cfg(feature = "svg")]
use layout::std_shapes::render::get_shape_size;
#[cfg(feature = "svg")]
use layout::std_shapes::shapes::{Arrow, Element, LineEndKind, ShapeKind};
#[cfg(feature = "svg")]
use layout::topo::layout::VisualGraph;
use std::collections::VecDeque;
use std::fmt::Write;

/// The most positions a game-graph picture shows.
pub const MAX_GRAPH_VERTICES: usize = 80;

/// Why a picture could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PictureError {
    /// Too many positions to draw.
    #[error("more than {limit} positions are reachable: too many to draw (try a smaller position)")]
    TooLarge {
        /// The limit.
        limit: usize,
    },
    /// A component's moves could not be listed.
    #[error(transparent)]
    Analysis(#[from] AnalysisError),
    /// This build has no layout (the Cargo feature `svg`).
    #[cfg(not(feature = "svg"))]
    #[error("this build of grundy was made without the SVG layout (the Cargo feature `svg`)")]
    NoLayout,
}

/// The game graph of a small position as SVG, coloured by outcome, with the winning moves
/// from the start marked.
pub fn game_graph_svg(sum: &Sum, misere: bool, ctx: &Context) -> Result<String, PictureError> {
    let g = explore(sum, ctx, MAX_GRAPH_VERTICES).map_err(|e| match e {
        graph::explore::ExploreError::TooManyPositions { .. }
        | graph::explore::ExploreError::TooManyMoves { .. } => PictureError::TooLarge {
            limit: MAX_GRAPH_VERTICES,
        },
        graph::explore::ExploreError::Moves(e) => PictureError::Analysis(e),
        graph::explore::ExploreError::Budget(b) => PictureError::Analysis(budget_error(sum, b)),
    })?;
    ctx.budget
        .charge(g.csr.edge_count() as u64 + g.vertex_count() as u64)
        .map_err(|e| PictureError::Analysis(budget_error(sum, e)))?;
    let n = g.vertex_count();
    let (outcomes, labels) = if misere {
        let mut adjacency: Vec<Vec<u32>> = (0..n as u32)
            .map(|v| g.csr.successors(v).to_vec())
            .collect();
        for succ in &mut adjacency {
            if succ.is_empty() {
                succ.push(n as u32);
            }
        }
        adjacency.push(Vec::new());
        let csr = Csr::from_adjacency(&adjacency);
        let (o, _) = graph::loopy::win_lose_draw(&csr, &csr.transpose(), &mut Control::none())
            .map_err(|_| {
                PictureError::Analysis(budget_error(sum, crate::control::BudgetError::Cancelled))
            })?;
        let labels = (0..n).map(|v| o[v].to_string()).collect::<Vec<_>>();
        (o[..n].to_vec(), labels)
    } else {
        let s = graph::solve(&g.csr, &mut Control::none()).map_err(|_| {
            PictureError::Analysis(budget_error(sum, crate::control::BudgetError::Cancelled))
        })?;
        let labels = (0..n as u32)
            .map(|v| format!("{} · {}", s.outcome(v), s.value(&g.csr, v)))
            .collect();
        (s.outcomes().to_vec(), labels)
    };
    lay_out(&g, &outcomes, &labels)
}

#[cfg(not(feature = "svg"))]
fn lay_out(
    _g: &GameGraph,
    _outcomes: &[Outcome],
    _labels: &[String],
) -> Result<String, PictureError> {
    Err(PictureError::NoLayout)
}

/// The explored graph laid out, each position with its label and the colour of its outcome,
/// the winning moves from the start in red.
#[cfg(feature = "svg")]
fn lay_out(g: &GameGraph, outcomes: &[Outcome], labels: &[String]) -> Result<String, PictureError> {
    let n = g.vertex_count();
    let mut vg = VisualGraph::new(Orientation::TopToBottom);
    let handles: Vec<_> = (0..n as u32)
        .map(|v| {
            let label = format!("{}\n{}", g.name(v), labels[v as usize]);
            let shape = ShapeKind::new_box(&label);
            let look = StyleAttr::new(
                Color::fast("black"),
                if v == 0 { 3 } else { 1 },
                Some(Color::fast(graph::draw::outcome_colour(
                    outcomes[v as usize],
                ))),
                6,
                13,
            );
            let size = get_shape_size(Orientation::TopToBottom, &shape, 13, false);
            vg.add_node(Element::create(shape, look, Orientation::TopToBottom, size))
        })
        .collect();
    let start_wins = outcomes.first() == Some(&Outcome::N);
    let mut seen = std::collections::HashSet::new();
    for (v, w) in g.csr.edges() {
        if !seen.insert((v, w)) {
            continue;
        }
        let winning = v == 0 && start_wins && outcomes[w as usize] == Outcome::P;
        let arrow = if winning {
            Arrow::new(
                LineEndKind::None,
                LineEndKind::Arrow,
                LineStyleKind::Normal,
                "win",
                &StyleAttr::new(Color::fast("red"), 3, None, 0, 12),
                &None,
                &None,
            )
        } else {
            Arrow::simple("")
        };
        vg.add_edge(arrow, handles[v as usize], handles[w as usize]);
    }
    let mut svg = SVGWriter::new();
    if n > 0 {
        vg.do_it(false, false, false, &mut svg);
    }
    Ok(svg.finalize())
}

fn budget_error(sum: &Sum, e: crate::control::BudgetError) -> AnalysisError {
    AnalysisError::Solve {
        component: sum.to_string(),
        source: crate::solve::SolveError::Budget(e),
    }
}

/// A Hackenbush picture as SVG; the edges at the indices in `marked` (the winning cuts) are
/// drawn dashed red.
pub fn hackenbush_svg(picture: &Picture, marked: &[usize]) -> String {
    let edges = picture.edges();
    // Distance from the ground, breadth-first; vertices cut off from the ground go on top.
    let mut vertices: Vec<u64> = edges.iter().flat_map(|&(a, b)| [a, b]).collect();
    vertices.sort_unstable();
    vertices.dedup();
    let index = |v: u64| vertices.binary_search(&v).unwrap_or(0);
    let mut depth = vec![usize::MAX; vertices.len()];
    let mut queue = VecDeque::new();
    if let Ok(g) = vertices.binary_search(&GROUND) {
        depth[g] = 0;
        queue.push_back(g);
    }
    while let Some(u) = queue.pop_front() {
        for &(a, b) in edges {
            let (ia, ib) = (index(a), index(b));
            for (x, y) in [(ia, ib), (ib, ia)] {
                if x == u && depth[y] == usize::MAX {
                    depth[y] = depth[u] + 1;
                    queue.push_back(y);
                }
            }
        }
    }
    let top = depth
        .iter()
        .filter(|&&d| d != usize::MAX)
        .max()
        .copied()
        .unwrap_or(0);
    for d in &mut depth {
        if *d == usize::MAX {
            *d = top + 1;
        }
    }
    let levels = depth.iter().max().copied().unwrap_or(0);
    let mut per_level: Vec<Vec<usize>> = vec![Vec::new(); levels + 1];
    for (i, &d) in depth.iter().enumerate() {
        if vertices[i] != GROUND {
            per_level[d].push(i);
        }
    }
    let widest = per_level.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let mut names: Vec<String> = marked
        .iter()
        .filter_map(|&e| edges.get(e))
        .map(|(a, b)| format!("{a}-{b}"))
        .collect();
    names.dedup();
    let legend = match names.len() {
        0 => String::new(),
        1 => format!("✂ the winning cut: {}", names[0]),
        _ => format!("✂ the winning cuts: {}", names.join(", ")),
    };
    // About 7 pixels a character of the legend.
    let legend_width = legend.chars().count() as f64 * 7.0 + 12.0;
    let (w, step_y) = ((widest as f64 * 70.0).max(240.0).max(legend_width), 70.0);
    // 24 pixels on top for the legend of the winning cuts.
    let h = (levels as f64 + 1.0) * step_y + 84.0;
    let ground_y = h - 30.0;
    let mut pos = vec![(0.0, ground_y); vertices.len()];
    for (d, list) in per_level.iter().enumerate() {
        for (k, &i) in list.iter().enumerate() {
            let x = w * (k as f64 + 1.0) / (list.len() as f64 + 1.0);
            pos[i] = (x, ground_y - d as f64 * step_y);
        }
    }
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r##"<rect x="0" y="{ground_y}" width="{w}" height="30" fill="#c8b89a"/><text x="6" y="{}">ground</text>"##,
        ground_y + 20.0
    );
    let mut drawn: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (ia, ib) = (index(a), index(b));
        let mut p = pos[ia];
        let mut q = pos[ib];
        // An edge to the ground stands on the ground below its other end.
        if a == GROUND {
            p = (q.0, ground_y);
        }
        if b == GROUND {
            q = (p.0, ground_y);
        }
        let win = marked.contains(&e);
        let style = if win {
            r##"stroke="#d00000" stroke-width="4" stroke-dasharray="8 5""##
        } else {
            r##"stroke="#2e8b2e" stroke-width="4""##
        };
        let key = (ia.min(ib), ia.max(ib));
        let k = drawn.entry(key).or_insert(0);
        let bend = *k as f64;
        *k += 1;
        let _ = write!(svg, r#"<g class="edge" data-edge="{a}-{b}">"#);
        if win {
            let _ = write!(svg, "<title>cut {a}-{b}: a winning move</title>");
        }
        if ia == ib && a != GROUND {
            let r = 14.0 + 6.0 * bend;
            let _ = write!(
                svg,
                r#"<circle cx="{:.1}" cy="{:.1}" r="{r}" fill="none" {style}/>"#,
                p.0,
                p.1 - r
            );
        } else if bend == 0.0 {
            let _ = write!(
                svg,
                r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" {style}/>"#,
                p.0, p.1, q.0, q.1
            );
        } else {
            let side = if bend as u64 % 2 == 1 { 1.0 } else { -1.0 };
            let off = side * 18.0 * ((bend + 1.0) / 2.0).floor();
            let (mx, my) = ((p.0 + q.0) / 2.0 + off, (p.1 + q.1) / 2.0);
            let _ = write!(
                svg,
                r#"<path d="M{:.1} {:.1} Q{mx:.1} {my:.1} {:.1} {:.1}" fill="none" {style}/>"#,
                p.0, p.1, q.0, q.1
            );
        }
        if win {
            // Only the scissors at the edge (the names go in the legend): labels of edges
            // that meet at a vertex would overlap.
            let (mx, my) = if ia == ib {
                (p.0, p.1 - 2.0 * (14.0 + 6.0 * bend))
            } else {
                ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0)
            };
            let _ = write!(
                svg,
                r##"<text class="cut" x="{:.1}" y="{:.1}" fill="#d00000" font-size="16" text-anchor="middle" stroke="white" stroke-width="3" paint-order="stroke">✂</text>"##,
                mx,
                my + 5.0
            );
        }
        svg.push_str("</g>\n");
    }
    if !legend.is_empty() {
        let _ = writeln!(
            svg,
            r##"<text x="6" y="17" fill="#d00000" font-weight="bold">{legend}</text>"##
        );
    }
    for (i, &v) in vertices.iter().enumerate() {
        if v != GROUND {
            let _ = writeln!(
                svg,
                r##"<circle cx="{:.1}" cy="{:.1}" r="5" fill="black"/><text x="{:.1}" y="{:.1}" fill="#555">{v}</text>"##,
                pos[i].0,
                pos[i].1,
                pos[i].0 + 7.0,
                pos[i].1 - 6.0
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// Each Hackenbush component of `sum` as SVG with its winning cuts (normal play) marked: an
/// edge is marked when cutting it moves the whole sum to a P-position.
pub fn hackenbush_svgs(sum: &Sum, ctx: &Context) -> Result<Vec<String>, AnalysisError> {
    let pictures: Vec<(usize, &Picture)> = sum
        .components
        .iter()
        .enumerate()
        .filter_map(|(i, c)| Some((i, c.as_any().downcast_ref::<Picture>()?)))
        .collect();
    if pictures.is_empty() {
        return Ok(Vec::new());
    }
    let analysis = super::analyze_sum(
        sum,
        &super::Options {
            misere: false,
            context: ctx.clone(),
            moves: super::MoveSearch::All,
        },
    )?;
    let mut out = Vec::new();
    for (i, picture) in pictures {
        let mut marked: Vec<usize> = Vec::new();
        if let (Some(total), Some(own)) = (analysis.value, analysis.components[i].value)
            && !total.is_zero()
        {
            // A cut wins when it leaves this picture worth `own ⊕ total`. Parallel copies of
            // an edge are one move: the first copy is marked. O(E) cuts of O(E) each, as the
            // picture's own move listing (charged the same way).
            let target = own ^ total;
            let e = picture.edges().len() as u64;
            let units = e.saturating_mul(e.saturating_add(1));
            ctx.budget
                .afford(units)
                .and_then(|()| ctx.budget.charge(units))
                .map_err(|err| AnalysisError::budget(picture, err))?;
            let mut seen = rustc_hash::FxHashSet::default();
            for k in picture.grounded_edges() {
                let (a, b) = picture.edges()[k];
                if seen.insert((a.min(b), a.max(b))) && hackenbush_value(&picture.cut(k)) == target
                {
                    marked.push(k);
                }
            }
        }
        out.push(hackenbush_svg(picture, &marked));
    }
    Ok(out)
}

/// A tick step of 1, 2 or 5 times a power of ten giving about `target` ticks up to `max`.
fn tick_step(max: f64, target: f64) -> f64 {
    let raw = (max / target).max(1.0);
    let mag = 10f64.powi(raw.log10().floor() as i32);
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * mag)
        .find(|&s| s >= raw)
        .unwrap_or(10.0 * mag)
}

/// A nim-sequence plot: `g(n)` for `n = 0..values.len()`, with axes and ticks, the zeros (the
/// P-positions) as red rings, and, with a period, the preperiod as a dashed line and the first
/// full period shaded.
pub fn sequence_svg(values: &[u16], period: Option<&Period>, title: &str) -> String {
    let frame = Frame::new(60.0, 40.0, 900.0, 360.0);
    let (left, top, width, height) = frame.parts();
    let count = values.len().max(2);
    let max_v = f64::from(values.iter().copied().max().unwrap_or(0).max(1));
    let x = |n: f64| left + width * n / (count - 1) as f64;
    let y = |v: f64| top + height - height * v / max_v;
    let mut svg = String::new();
    frame.open(&mut svg, (30.0, 60.0), 22.0, title);
    if let Some(p) = period {
        let e = p.preperiod as f64;
        let end = (p.preperiod + p.period) as f64;
        if e < count as f64 {
            let _ = writeln!(
                svg,
                r##"<rect x="{:.1}" y="{top}" width="{:.1}" height="{height}" fill="#fff3c4"/>"##,
                x(e),
                (x(end.min((count - 1) as f64)) - x(e)).max(1.0)
            );
            let _ = writeln!(
                svg,
                r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{1}" stroke="#b07000" stroke-dasharray="6 4"/><text x="{2:.1}" y="{3}" fill="#b07000">preperiod {4}, period {5}{6}</text>"##,
                x(e),
                top + height,
                x(e) + 4.0,
                top + 14.0,
                p.preperiod,
                p.period,
                if p.proven() {
                    " (proven)"
                } else {
                    " (apparent)"
                }
            );
        }
    }
    // Axes and ticks.
    frame.axes(&mut svg);
    let xs = tick_step((count - 1) as f64, 10.0);
    let mut t = 0.0;
    while t <= (count - 1) as f64 + 1e-9 {
        let _ = writeln!(
            svg,
            r#"<line x1="{0:.1}" y1="{1}" x2="{0:.1}" y2="{2}" stroke="black"/><text x="{0:.1}" y="{3}" text-anchor="middle">{4}</text>"#,
            x(t),
            top + height,
            top + height + 5.0,
            top + height + 18.0,
            t
        );
        t += xs;
    }
    let ys = tick_step(max_v, 6.0);
    let mut t = 0.0;
    while t <= max_v + 1e-9 {
        let _ = writeln!(
            svg,
            r##"<line x1="{0}" y1="{1:.1}" x2="{2}" y2="{1:.1}" stroke="#ddd"/><text x="{3}" y="{4:.1}" text-anchor="end">{5}</text>"##,
            left,
            y(t),
            left + width,
            left - 6.0,
            y(t) + 4.0,
            t
        );
        t += ys;
    }
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">heap size n</text><text x="14" y="{}" transform="rotate(-90 14 {})" text-anchor="middle">g(n)</text>"#,
        left + width / 2.0,
        top + height + 38.0,
        top + height / 2.0,
        top + height / 2.0
    );
    let r = if values.len() <= 300 { 3.0 } else { 1.5 };
    let _ = writeln!(svg, r#"<g fill="navy">"#);
    for (n, &v) in values.iter().enumerate() {
        if v != 0 {
            dot(&mut svg, x(n as f64), y(f64::from(v)), r);
        }
    }
    svg.push_str(
        "</g>\n<g class=\"zeros\" fill=\"none\" stroke=\"#d00000\" stroke-width=\"1.5\">\n",
    );
    for (n, &v) in values.iter().enumerate() {
        if v == 0 {
            dot(&mut svg, x(n as f64), y(0.0), r + 1.5);
        }
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::parse;
    use crate::heap::period::apparent_period;

    #[cfg(feature = "svg")]
    #[test]
    fn game_graph_marks_the_winning_move() {
        let ctx = Context::default();
        let svg = game_graph_svg(&parse("nim 1 2").unwrap(), false, &ctx).unwrap();
        assert!(svg.contains("<svg"), "{svg}");
        // nim 1 2 has one winning move (to nim 1 1): one red arrow labelled "win".
        assert_eq!(svg.matches(">win<").count(), 1, "{svg}");
        let svg = game_graph_svg(&parse("nim 1 2").unwrap(), true, &ctx).unwrap();
        assert!(svg.contains("<svg"));
        assert_eq!(
            game_graph_svg(&parse("nim 30 30").unwrap(), false, &ctx).unwrap_err(),
            PictureError::TooLarge {
                limit: MAX_GRAPH_VERTICES
            }
        );
    }

    #[test]
    fn hackenbush_marks_cuts_and_draws_every_edge() {
        let p = crate::hackenbush::parse_picture("hackenbush 0-1 1-2 1-3 3-3 1-2").unwrap();
        let svg = hackenbush_svg(&p, &[1]);
        assert_eq!(svg.matches("class=\"edge\"").count(), 5);
        assert_eq!(svg.matches("cut 1-2").count(), 1);
        assert_eq!(svg.matches("class=\"cut\"").count(), 1);
        assert!(svg.contains("✂ the winning cut: 1-2<"), "{svg}");
        // A stalk of 3 and a stalk of 1: the winning cut leaves 1 + 1, so edge 1-2 (index 1).
        let sum = parse("hackenbush 0-1 1-2 2-3 + hackenbush 0-4").unwrap();
        let svgs = hackenbush_svgs(&sum, &Context::default()).unwrap();
        assert_eq!(svgs.len(), 2);
        assert!(svgs[0].contains("cut 1-2"), "{}", svgs[0]);
        assert!(!svgs[1].contains("cut"), "{}", svgs[1]);
    }

    #[test]
    fn sequence_plot_has_ticks_zeros_and_period() {
        let values: Vec<u16> = (0..60).map(|n| (n % 3) as u16).collect();
        let p = apparent_period(&values, false).unwrap();
        let svg = sequence_svg(&values, Some(&p), "sub(1,2)");
        assert_eq!(svg.matches("<circle").count(), 60);
        // 20 zeros, drawn as rings in their own group.
        let zeros = svg.split("class=\"zeros\"").nth(1).unwrap();
        assert_eq!(zeros.matches("<circle").count(), 20);
        assert!(svg.contains("preperiod 0, period 3"), "{svg}");
        assert!(svg.contains(">50<"), "ticks at 1-2-5 steps");
    }
}
