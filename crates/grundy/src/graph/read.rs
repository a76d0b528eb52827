//! Readers for game graphs: a named edge list and the classic judge format.
//!
//! Both read through a large buffer and parse bytes directly (no per-line allocation, no
//! UTF-8 checks on numbers), so a file is read at close to disk speed. Every syntax error names
//! its line and what was expected; sizes are checked against a memory limit before the big
//! arrays are allocated.
//!
//! - **Edge list**: one `FROM TO` per line; a line with a single name declares a vertex
//!   (isolated vertices need this); `#` starts a comment; names are any tokens without spaces,
//!   numbered in order of first appearance.
//! - **Judge format**: a first line `N M K`, then `M` lines `x y` (an edge from `x` to `y`,
//!   vertices `1..=N`), then `K` vertices holding a token (one or more per line).

use super::csr::{Csr, MAX_EDGES, MAX_VERTICES};
use super::{GameGraph, Names};
use crate::words;
use rustc_hash::FxHashMap;
use std::io::{self, Read};

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A line is malformed.
    #[error("line {line}: {message}")]
    Syntax {
        /// The line number, from 1.
        line: u64,
        /// What is wrong and what was expected.
        message: String,
    },
    /// The input could not be read.
    #[error("cannot read the input: {0}")]
    Io(#[from] io::Error),
    /// The graph would need more memory than allowed.
    #[error(
        "too large: {what} needs about {needed_mib} MiB, more than the memory limit of \
         {limit_mib} MiB"
    )]
    TooLarge {
        /// What was being stored.
        what: String,
        /// The memory needed, in MiB.
        needed_mib: u64,
        /// The limit, in MiB.
        limit_mib: u64,
    },
}

impl ReadError {
    fn syntax(line: u64, message: impl Into<String>) -> Self {
        ReadError::Syntax {
            line,
            message: message.into(),
        }
    }

    /// The line of a syntax error.
    pub fn line(&self) -> Option<u64> {
        match self {
            ReadError::Syntax { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Limits for the readers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// The most memory, in bytes, the graph and the arrays to solve it may take.
    pub max_bytes: u64,
}

impl Default for ReadOptions {
    /// A limit of 16 GiB.
    fn default() -> Self {
        ReadOptions {
            max_bytes: 16 << 30,
        }
    }
}

impl ReadOptions {
    fn check(&self, what: impl FnOnce() -> String, needed: u64) -> Result<(), ReadError> {
        if needed > self.max_bytes {
            return Err(ReadError::TooLarge {
                what: what(),
                needed_mib: needed.div_ceil(1 << 20),
                limit_mib: self.max_bytes >> 20,
            });
        }
        Ok(())
    }
}

/// The most tokens a judge-format input may announce.
pub const MAX_TOKENS: u64 = u32::MAX as u64;

/// Bytes per vertex and per edge needed to read and solve a graph: the edge list while
/// reading, the graph and its transpose, and the per-vertex arrays of the solvers.
const BYTES_PER_EDGE: u64 = 16;
const BYTES_PER_VERTEX: u64 = 40;

/// A judge-format problem: the graph and the vertices holding tokens (0-based).
#[derive(Clone, Debug)]
pub struct JudgeInput {
    /// The graph, vertex `i` being `i + 1` in the input.
    pub graph: Csr,
    /// The vertex of each token, 0-based, in input order.
    pub tokens: Vec<u32>,
}

/// Lines from a reader through a growing buffer, without copying each line.
struct Lines<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    /// The number of the line last returned (1-based).
    line: u64,
    /// Whether the start of the input was checked for a byte-order mark.
    bom_checked: bool,
}

impl<R: Read> Lines<R> {
    fn new(reader: R) -> Self {
        Lines {
            reader,
            buf: vec![0; 1 << 20],
            start: 0,
            end: 0,
            eof: false,
            line: 0,
            bom_checked: false,
        }
    }

    /// The byte range in `self.buf` of the next line, without its `\n` or `\r\n`.
    fn next_range(&mut self) -> io::Result<Option<(usize, usize)>> {
        loop {
            if !self.bom_checked {
                // A UTF-8 byte-order mark (as some editors write) at the very start of the
                // input is not part of the first line.
                if self.line > 0 || self.start > 0 {
                    self.bom_checked = true;
                } else if self.end >= BOM.len() || self.eof {
                    self.bom_checked = true;
                    if self.buf[..self.end].starts_with(BOM) {
                        self.start = BOM.len();
                    }
                }
            }
            if let Some(pos) = memchr::memchr(b'\n', &self.buf[self.start..self.end]) {
                let (s, e) = (self.start, self.start + pos);
                self.start = e + 1;
                self.line += 1;
                return Ok(Some(trim_cr(&self.buf, s, e)));
            }
            if self.eof {
                if self.start < self.end {
                    let (s, e) = (self.start, self.end);
                    self.start = e;
                    self.line += 1;
                    return Ok(Some(trim_cr(&self.buf, s, e)));
                }
                return Ok(None);
            }
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            if self.end == self.buf.len() {
                self.buf.resize(self.buf.len() * 2, 0);
            }
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

fn trim_cr(buf: &[u8], s: usize, e: usize) -> (usize, usize) {
    if e > s && buf[e - 1] == b'\r' {
        (s, e - 1)
    } else {
        (s, e)
    }
}

/// The whitespace-separated fields of a line.
fn fields(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| *b == b' ' || *b == b'\t')
        .filter(|f| !f.is_empty())
}

/// An unsigned decimal number, or `None` if the field is not one (or overflows).
#[inline]
fn parse_number(field: &[u8]) -> Option<u64> {
    if field.is_empty() || field.len() > 19 {
        return None;
    }
    let mut v = 0u64;
    for &b in field {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return None;
        }
        v = v * 10 + u64::from(d);
    }
    Some(v)
}

fn show(field: &[u8]) -> String {
    let s = String::from_utf8_lossy(field);
    if s.chars().count() > 40 {
        format!("`{}…`", s.chars().take(40).collect::<String>())
    } else {
        format!("`{s}`")
    }
}

/// Parses `x y` followed by a newline at the start of `bytes`, with optional spaces, tabs and
/// a carriage return: the numbers and the bytes used, or `None` for any other line.
#[inline]
fn fast_edge(bytes: &[u8]) -> Option<(u64, u64, usize)> {
    let mut i = 0;
    let number = |i: &mut usize, need_gap: bool| -> Option<u64> {
        let start = *i;
        while *i < bytes.len() && (bytes[*i] == b' ' || bytes[*i] == b'\t') {
            *i += 1;
        }
        if need_gap && *i == start {
            return None;
        }
        let digits = *i;
        let mut v = 0u64;
        while *i < bytes.len() {
            let d = bytes[*i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Wrapping: a number of more than 10 digits is refused below anyway.
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            *i += 1;
        }
        let len = *i - digits;
        (len > 0 && len <= 10).then_some(v)
    };
    let x = number(&mut i, false)?;
    let y = number(&mut i, true)?;
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
        i += 1;
    }
    if i < bytes.len() && bytes[i] == b'\r' {
        i += 1;
    }
    (i < bytes.len() && bytes[i] == b'\n').then_some((x, y, i + 1))
}

/// Reads the classic judge format (see the module documentation).
pub fn read_judge<R: Read>(reader: R, options: &ReadOptions) -> Result<JudgeInput, ReadError> {
    let mut lines = Lines::new(reader);
    // The header: the first line that is not blank.
    let header = loop {
        let Some((s, e)) = lines.next_range()? else {
            return Err(ReadError::syntax(
                lines.line.max(1),
                "expected a first line `N M K` (vertices, edges, tokens), found an empty input",
            ));
        };
        let line = &lines.buf[s..e];
        if fields(line).next().is_some() {
            break line.to_vec();
        }
    };
    let header_line = lines.line;
    let mut numbers = [0u64; 3];
    let mut count = 0;
    for f in fields(&header) {
        if count == 3 {
            return Err(ReadError::syntax(
                header_line,
                "expected `N M K` (three numbers), found more fields",
            ));
        }
        numbers[count] = parse_number(f).ok_or_else(|| {
            ReadError::syntax(
                header_line,
                format!(
                    "expected `N M K` (three non-negative integers), found {}",
                    show(f)
                ),
            )
        })?;
        count += 1;
    }
    if count != 3 {
        return Err(ReadError::syntax(
            header_line,
            format!("expected `N M K` (three numbers), found {count}"),
        ));
    }
    let [n, m, k] = numbers;
    if n > MAX_VERTICES {
        return Err(ReadError::syntax(
            header_line,
            format!("{n} vertices is more than the {MAX_VERTICES} this tool can store"),
        ));
    }
    if m > MAX_EDGES {
        return Err(ReadError::syntax(
            header_line,
            format!("{m} edges is more than the {MAX_EDGES} this tool can store"),
        ));
    }
    if k > MAX_TOKENS {
        return Err(ReadError::syntax(
            header_line,
            format!("K = {k} token vertices is more than the {MAX_TOKENS} this tool can store"),
        ));
    }
    // Tokens are stored as they are read (the input holds each one), so K is not counted
    // here: a large K in a short input is refused when the input ends.
    options.check(
        || {
            format!(
                "a graph of {} and {}",
                words::count(n, "vertex"),
                words::count(m, "edge")
            )
        },
        n * BYTES_PER_VERTEX + m * BYTES_PER_EDGE,
    )?;
    let n32 = n as u32;
    let mut sources = Vec::with_capacity(m as usize);
    let mut targets = Vec::with_capacity(m as usize);
    let vertex = |field: &[u8], line: u64, what: &str| -> Result<u32, ReadError> {
        match parse_number(field) {
            Some(v) if (1..=n).contains(&v) => Ok((v - 1) as u32),
            Some(v) => Err(ReadError::syntax(
                line,
                format!("{what} {v} is out of range: vertices are numbered 1 to {n}"),
            )),
            None => Err(ReadError::syntax(
                line,
                format!("expected a vertex number (1 to {n}), found {}", show(field)),
            )),
        }
    };
    while (sources.len() as u64) < m {
        // The fast path: a well-formed edge line wholly in the buffer. Anything else (a blank
        // line, an error, a line cut by the buffer's end) goes through the general path,
        // which accepts exactly the same lines and words the errors.
        if let Some((x, y, used)) = fast_edge(&lines.buf[lines.start..lines.end]) {
            if (1..=n).contains(&x) && (1..=n).contains(&y) {
                sources.push((x - 1) as u32);
                targets.push((y - 1) as u32);
                lines.start += used;
                lines.line += 1;
                continue;
            }
        }
        let Some((s, e)) = lines.next_range()? else {
            return Err(ReadError::syntax(
                lines.line + 1,
                format!(
                    "expected {m} edge lines `x y`, but the input ends after {}",
                    sources.len()
                ),
            ));
        };
        let line = &lines.buf[s..e];
        let mut f = fields(line);
        let (Some(x), Some(y), None) = (f.next(), f.next(), f.next()) else {
            if fields(line).next().is_none() {
                continue;
            }
            return Err(ReadError::syntax(
                lines.line,
                format!(
                    "expected an edge `x y` (edge {} of {m}), found {}",
                    sources.len() + 1,
                    show(line)
                ),
            ));
        };
        sources.push(vertex(x, lines.line, "vertex")?);
        targets.push(vertex(y, lines.line, "vertex")?);
    }
    let mut tokens = Vec::with_capacity(k.min(1 << 20) as usize);
    while (tokens.len() as u64) < k {
        let Some((s, e)) = lines.next_range()? else {
            return Err(ReadError::syntax(
                lines.line + 1,
                format!(
                    "expected {k} token vertices, but the input ends after {}",
                    tokens.len()
                ),
            ));
        };
        for f in fields(&lines.buf[s..e]) {
            if tokens.len() as u64 == k {
                return Err(ReadError::syntax(
                    lines.line,
                    format!("more than the {k} token vertices the first line announced"),
                ));
            }
            tokens.push(vertex(f, lines.line, "token vertex")?);
            if tokens.len() % (1 << 20) == 0 {
                options.check(
                    || format!("{} token vertices", tokens.len()),
                    n * BYTES_PER_VERTEX + m * BYTES_PER_EDGE + tokens.len() as u64 * 4,
                )?;
            }
        }
    }
    while let Some((s, e)) = lines.next_range()? {
        if let Some(f) = fields(&lines.buf[s..e]).next() {
            return Err(ReadError::syntax(
                lines.line,
                format!(
                    "unexpected {} after the {} and {} the first line announced",
                    show(f),
                    words::count(m, "edge"),
                    words::count(k, "token")
                ),
            ));
        }
    }
    let graph = Csr::from_edges(n32, &sources, &targets);
    Ok(JudgeInput { graph, tokens })
}

/// Vertex names, numbered in order of first appearance.
#[derive(Default)]
struct Interner {
    index: FxHashMap<Box<[u8]>, u32>,
    names: Vec<String>,
    name_bytes: u64,
}

impl Interner {
    fn len(&self) -> usize {
        self.names.len()
    }

    /// Memory for the names and the vertices' arrays.
    fn bytes(&self) -> u64 {
        self.names.len() as u64 * BYTES_PER_VERTEX + self.name_bytes
    }

    fn intern(&mut self, field: &[u8], line: u64) -> Result<u32, ReadError> {
        if let Some(&v) = self.index.get(field) {
            return Ok(v);
        }
        let name = std::str::from_utf8(field).map_err(|_| {
            ReadError::syntax(
                line,
                format!("vertex name {} is not valid UTF-8", show(field)),
            )
        })?;
        if self.names.len() as u64 >= MAX_VERTICES {
            return Err(ReadError::syntax(
                line,
                format!("more than the {MAX_VERTICES} vertices this tool can store"),
            ));
        }
        let v = self.names.len() as u32;
        self.name_bytes += 2 * field.len() as u64 + 64;
        self.names.push(name.to_owned());
        self.index.insert(field.into(), v);
        Ok(v)
    }
}

/// Reads a named edge list (see the module documentation).
pub fn read_edge_list<R: Read>(reader: R, options: &ReadOptions) -> Result<GameGraph, ReadError> {
    let mut lines = Lines::new(reader);
    let mut names = Interner::default();
    let mut sources = Vec::new();
    let mut targets = Vec::new();
    while let Some((s, e)) = lines.next_range()? {
        let mut line = &lines.buf[s..e];
        if let Some(hash) = memchr::memchr(b'#', line) {
            line = &line[..hash];
        }
        let mut f = fields(line);
        match (f.next(), f.next(), f.next()) {
            (None, _, _) => {}
            (Some(a), None, _) => {
                names.intern(a, lines.line)?;
            }
            (Some(a), Some(b), None) => {
                if sources.len() as u64 >= MAX_EDGES {
                    return Err(ReadError::syntax(
                        lines.line,
                        format!("more than the {MAX_EDGES} edges this tool can store"),
                    ));
                }
                sources.push(names.intern(a, lines.line)?);
                targets.push(names.intern(b, lines.line)?);
            }
            (Some(_), Some(_), Some(c)) => {
                return Err(ReadError::syntax(
                    lines.line,
                    format!(
                        "expected `FROM TO` (an edge) or `NAME` (a vertex), found a third field {}",
                        show(c)
                    ),
                ));
            }
        }
        if lines.line % 65536 == 0 {
            options.check(
                || format!("an edge list of {}", words::count(lines.line, "line")),
                sources.len() as u64 * BYTES_PER_EDGE + names.bytes(),
            )?;
        }
    }
    options.check(
        || {
            format!(
                "a graph of {} and {}",
                words::count(names.len(), "vertex"),
                words::count(sources.len(), "edge")
            )
        },
        sources.len() as u64 * BYTES_PER_EDGE + names.bytes(),
    )?;
    let csr = Csr::from_edges(names.len() as u32, &sources, &targets);
    Ok(GameGraph {
        csr,
        names: Names::Listed(names.names),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(text: &str) -> Result<JudgeInput, ReadError> {
        read_judge(text.as_bytes(), &ReadOptions::default())
    }

    fn edges(text: &str) -> Result<GameGraph, ReadError> {
        read_edge_list(text.as_bytes(), &ReadOptions::default())
    }

    fn error_of<T: std::fmt::Debug>(r: Result<T, ReadError>) -> (u64, String) {
        let e = r.unwrap_err();
        (e.line().expect("a syntax error"), e.to_string())
    }

    #[test]
    fn reads_the_judge_format() {
        let input = judge("4 3 2\n1 2\r\n2 3\n\n4 3\n1\n4\n").unwrap();
        assert_eq!(input.graph.vertex_count(), 4);
        assert_eq!(input.graph.successors(0), &[1]);
        assert_eq!(input.graph.successors(3), &[2]);
        assert_eq!(input.tokens, [0, 3]);
        // Tokens may share a line; a missing final newline is fine.
        let input = judge("2 1 3\n1 2\n1 2 2").unwrap();
        assert_eq!(input.tokens, [0, 1, 1]);
    }

    #[test]
    fn judge_errors_name_the_line() {
        let (line, msg) = error_of(judge("3 2 1\n1 2\n2 7\n1\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("7 is out of range"), "{msg}");
        let (line, msg) = error_of(judge("3 2 1\n1 2\n2 x\n1\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("expected a vertex number"), "{msg}");
        let (line, msg) = error_of(judge("3 2 1\n1 2 3\n"));
        assert_eq!(line, 2);
        assert!(msg.contains("expected an edge `x y`"), "{msg}");
        let (line, msg) = error_of(judge("3 2\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("`N M K`"), "{msg}");
        let (line, msg) = error_of(judge("3 2 1\n1 2\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("input ends after 1"), "{msg}");
        let (line, msg) = error_of(judge("3 1 1\n1 2\n3\n3\n"));
        assert_eq!(line, 4);
        assert!(msg.contains("unexpected `3`"), "{msg}");
        let (line, msg) = error_of(judge("3 1 1\n1 2\n0\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("token vertex 0 is out of range"), "{msg}");
        let (_, msg) = error_of(judge(""));
        assert!(msg.contains("empty input"), "{msg}");
    }

    #[test]
    fn the_fast_path_accepts_exactly_what_the_general_one_does() {
        for (line, ok) in [
            ("1 2\n", true),
            ("  1\t 2 \r\n", true),
            ("1 2\r\r\n", false),
            ("1 2\r \n", false),
            ("12\n", false),
            ("1 2 3\n", false),
            ("1 x\n", false),
            ("00000000001 2\n", true),
        ] {
            let text = format!("2 1 0\n{line}");
            assert_eq!(judge(&text).is_ok(), ok, "{line:?}");
            let fast = fast_edge(line.as_bytes()).filter(|&(x, y, _)| x <= 2 && y <= 2);
            if fast.is_some() {
                assert!(ok, "{line:?}");
            }
        }
    }

    #[test]
    fn refuses_graphs_beyond_the_memory_limit() {
        let small = ReadOptions { max_bytes: 1 << 20 };
        let e = read_judge("1000000 1000000 1\n".as_bytes(), &small).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { .. }), "{e}");
        assert!(e.to_string().contains("MiB"), "{e}");
        let text: String = (0..2000).map(|i| format!("a{i} b{i}\n")).collect();
        let e = read_edge_list(text.as_bytes(), &ReadOptions { max_bytes: 10_000 }).unwrap_err();
        assert!(matches!(e, ReadError::TooLarge { .. }), "{e}");
    }

    #[test]
    fn reads_edge_lists_with_names_comments_and_isolated_vertices() {
        let g = edges("# a game\na b\nb c # comment\n\nd\n  c\ta  \n").unwrap();
        assert_eq!(g.vertex_count(), 4);
        let names: Vec<_> = (0..4).map(|v| g.name(v).into_owned()).collect();
        assert_eq!(names, ["a", "b", "c", "d"]);
        assert_eq!(g.csr.successors(0), &[1]);
        assert_eq!(g.csr.successors(2), &[0]);
        assert_eq!(g.csr.successors(3), &[] as &[u32]);
        assert_eq!(g.find("c"), Some(2));
        assert_eq!(g.find("z"), None);
    }

    #[test]
    fn edge_list_errors_name_the_line() {
        let (line, msg) = error_of(edges("a b\n\nb c d\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("third field `d`"), "{msg}");
        let e = read_edge_list(&b"a b\n\xff c\n"[..], &ReadOptions::default()).unwrap_err();
        assert_eq!(e.line(), Some(2));
    }

    #[test]
    fn a_byte_order_mark_is_skipped() {
        let g = edges("\u{feff}a b\n").unwrap();
        assert_eq!(g.find("a"), Some(0));
        let input = judge("\u{feff}2 1 1\n1 2\n1\n").unwrap();
        assert_eq!(input.tokens, [0]);
        // Only at the very start: elsewhere it is part of a name.
        let g = edges("a b\n\u{feff}c\n").unwrap();
        assert_eq!(g.find("\u{feff}c"), Some(2));
    }

    #[test]
    fn a_huge_token_count_is_refused_as_such() {
        let (line, msg) = error_of(judge("1 0 100000000000000000\n1\n"));
        assert_eq!(line, 1);
        assert!(msg.contains("K = 100000000000000000"), "{msg}");
        let (line, msg) = error_of(judge("1 0 1000000\n1\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("expected 1000000 token vertices"), "{msg}");
    }

    #[test]
    fn long_lines_cross_buffer_refills() {
        let mut text = String::new();
        for i in 0..200_000 {
            text.push_str(&format!("v{i} v{}\n", i + 1));
        }
        let g = edges(&text).unwrap();
        assert_eq!(g.vertex_count(), 200_001);
        assert_eq!(g.csr.edge_count(), 200_000);
        assert_eq!(g.find("v199999"), Some(199_999));
        let long = format!("{} b\n", "a".repeat(3 << 20));
        let g = edges(&long).unwrap();
        assert_eq!(g.vertex_count(), 2);
    }
}
