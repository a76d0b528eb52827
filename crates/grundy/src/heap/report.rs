//! Looking at nim-sequences: value histograms, the values as rows of text, and scatter plots.
//!
//! Each is one pass over the values, `O(N)`. The scatter plot draws at most
//! `PLOT_COLUMNS` (1600) columns, each one dot per distinct value among its heaps, so its size
//! is bounded by the columns times the distinct values, however long the sequence; it is
//! drawn the way the literature draws nim-sequences (Flammenkamp's pages of octal games).

use crate::plot::{Frame, dot};
use std::fmt::Write;

/// How often each value occurs: `counts[v]` heaps have value `v`.
pub fn histogram(values: &[u16]) -> Vec<u64> {
    let mut counts = Vec::new();
    for &v in values {
        let v = usize::from(v);
        if v >= counts.len() {
            counts.resize(v + 1, 0);
        }
        counts[v] += 1;
    }
    counts
}

/// The values as text, ten to a line, each line headed by the heap of its first value and
/// the values right-aligned to the widest, the way `grundy sequence` prints them.
///
/// ```
/// let rows = grundy::heap::report::value_rows(&[0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]);
/// assert_eq!(rows, " 0:  0 1 1 2 0 3 1 1 0 3\n10:  3 2\n");
/// ```
pub fn value_rows(values: &[u16]) -> String {
    let width = values.iter().max().map_or(1, |m| m.to_string().len());
    let index_width = values.len().to_string().len();
    value_rows_from(values, 0, width, index_width)
}

/// The rows of [`value_rows`] for a stretch of a longer sequence whose first value is
/// `g(first)`, in columns `width` wide and heap numbers `index_width` wide (so that several
/// stretches of one sequence line up).
pub fn value_rows_from(values: &[u16], first: usize, width: usize, index_width: usize) -> String {
    let mut out = String::new();
    for (row, chunk) in values.chunks(10).enumerate() {
        let line: Vec<String> = chunk.iter().map(|v| format!("{v:>width$}")).collect();
        let _ = writeln!(
            out,
            "{:>index_width$}:  {}",
            first + row * 10,
            line.join(" ")
        );
    }
    out
}

/// The widest plot in points; longer sequences are drawn with one column per group of heaps.
const PLOT_COLUMNS: usize = 1600;

/// An SVG scatter plot of a nim-sequence: heap `n` across, value `g(n)` up, one dot per
/// heap, the way nim-sequences are drawn in the literature (e.g. Flammenkamp's octal-game
/// pages). Sequences longer than the plot is wide are grouped: each column shows every
/// value that occurs among its heaps, so the bands of common and rare values stay visible.
pub fn svg_scatter(values: &[u16], title: &str) -> String {
    let group = values.len().div_ceil(PLOT_COLUMNS).max(1);
    let columns = values.len().div_ceil(group).max(1);
    let max = values.iter().copied().max().unwrap_or(0).max(1);
    let frame = Frame::new(60.0, 40.0, 960.0, 540.0);
    let (left, top, width, height) = frame.parts();
    let x = |col: usize| left + width * col as f64 / columns.max(2).saturating_sub(1).max(1) as f64;
    let y = |v: u16| top + height - height * f64::from(v) / f64::from(max);
    let r = if values.len() <= 200 { 2.5 } else { 1.0 };
    let mut svg = String::new();
    frame.open(&mut svg, (20.0, 50.0), 24.0, title);
    frame.axes(&mut svg);
    let _ = writeln!(
        svg,
        r#"<text x="{left}" y="{}">0</text>"#,
        top + height + 18.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">n = {}</text>"#,
        left + width,
        top + height + 18.0,
        values.len().saturating_sub(1)
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">{max}</text>"#,
        left - 6.0,
        top + 4.0
    );
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="end">0</text>"#,
        left - 6.0,
        top + height
    );
    let _ = writeln!(svg, r#"<g fill="navy">"#);
    let mut seen = vec![usize::MAX; usize::from(max) + 1];
    for (col, chunk) in values.chunks(group).enumerate() {
        for &v in chunk {
            if seen[usize::from(v)] != col {
                seen[usize::from(v)] = col;
                dot(&mut svg, x(col), y(v), r);
            }
        }
    }
    svg.push_str("</g>\n</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_counts_values() {
        assert_eq!(histogram(&[0, 1, 1, 3]), vec![1, 2, 0, 1]);
        assert!(histogram(&[]).is_empty());
    }

    #[test]
    fn plots_have_one_dot_per_value_and_column() {
        let svg = svg_scatter(&[0, 1, 2, 1], "0.77 <test>");
        assert!(svg.starts_with("<svg"));
        assert_eq!(svg.matches("<circle").count(), 4);
        assert!(svg.contains("0.77 &lt;test&gt;"));
        // A long sequence is grouped into at most PLOT_COLUMNS columns.
        let long: Vec<u16> = (0..100_000).map(|i| (i % 3) as u16).collect();
        let dots = svg_scatter(&long, "x").matches("<circle").count();
        assert!(
            (3 * (PLOT_COLUMNS - 20)..=3 * PLOT_COLUMNS).contains(&dots),
            "{dots}"
        );
    }
}
