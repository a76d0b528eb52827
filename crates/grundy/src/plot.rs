//! The frame every SVG plot of values shares (ground floor: it knows no game): the `<svg>`
//! element on a white background, a title, the two axes, dots, and text escaped for SVG.
//! Used by the nim-sequence scatter plot ([`crate::heap::report`]) and the teaching plot
//! ([`crate::analysis::picture`]). Each call appends a few lines: `O(1)` per element.

use std::fmt::Write;

/// The plotting area of a chart, in SVG points: its left and top edges, width and height.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    left: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl Frame {
    /// The area whose top left corner is `(left, top)`.
    pub fn new(left: f64, top: f64, width: f64, height: f64) -> Self {
        Frame {
            left,
            top,
            width,
            height,
        }
    }

    /// `(left, top, width, height)`.
    pub fn parts(&self) -> (f64, f64, f64, f64) {
        (self.left, self.top, self.width, self.height)
    }

    /// Opens the picture: an `<svg>` element `margin.0` wider and `margin.1` taller than the
    /// area's right and bottom edges, a white background, and `title` at height `title_y`.
    pub fn open(&self, svg: &mut String, margin: (f64, f64), title_y: f64, title: &str) {
        let _ = writeln!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="sans-serif" font-size="12">"#,
            self.left + self.width + margin.0,
            self.top + self.height + margin.1
        );
        let _ = writeln!(svg, r#"<rect width="100%" height="100%" fill="white"/>"#);
        let _ = writeln!(
            svg,
            r#"<text x="{}" y="{title_y}" font-size="16">{}</text>"#,
            self.left,
            escape(title)
        );
    }

    /// The axes: up the left edge and along the bottom.
    pub fn axes(&self, svg: &mut String) {
        let _ = writeln!(
            svg,
            r#"<path d="M{} {} V{} H{}" stroke="black" fill="none"/>"#,
            self.left,
            self.top,
            self.top + self.height,
            self.left + self.width
        );
    }
}

/// A dot of radius `r` at `(x, y)`.
pub(crate) fn dot(svg: &mut String, x: f64, y: f64, r: f64) {
    let _ = writeln!(svg, r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r}"/>"#);
}

/// `text` with the characters SVG text cannot hold as they are escaped.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_opens_with_its_title_escaped_and_draws_its_axes() {
        let frame = Frame::new(60.0, 40.0, 900.0, 360.0);
        let mut svg = String::new();
        frame.open(&mut svg, (30.0, 60.0), 22.0, "a <b> & c");
        frame.axes(&mut svg);
        dot(&mut svg, 1.3, 2.0, 1.5);
        assert_eq!(
            svg,
            concat!(
                r#"<svg xmlns="http://www.w3.org/2000/svg" width="990" height="460" font-family="sans-serif" font-size="12">"#,
                "\n",
                r#"<rect width="100%" height="100%" fill="white"/>"#,
                "\n",
                r#"<text x="60" y="22" font-size="16">a &lt;b&gt; &amp; c</text>"#,
                "\n",
                r#"<path d="M60 40 V400 H960" stroke="black" fill="none"/>"#,
                "\n",
                r#"<circle cx="1.3" cy="2.0" r="1.5"/>"#,
                "\n"
            )
        );
    }
}
