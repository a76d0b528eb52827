//! Readers for game graphs: a named edge list and the classic judge format.
//!
//! Both read through a large buffer and parse bytes directly (no per-line allocation, no
//! UTF-8 checks on numbers), so a file is read at close to disk speed. Every syntax error names
//! its line (and, in the judge format, its column) and what was expected; sizes are checked
//! against a memory limit before the big arrays are allocated.
//!
//! - **Edge list**: one `FROM TO` per line; a line with a single name declares a vertex
//!   (isolated vertices need this); `#` starts a comment; names are any tokens without spaces,
//!   numbered in order of first appearance.
//! - **Judge format** (also called `seed`): `N M K`, then `M` edges `x y` (an edge from `x` to
//!   `y`, vertices `1..=N`), then the `K` vertices holding a token. As a judge's `scanf` or
//!   `cin >>` reads them, these are numbers separated by any white space (spaces, tabs, line
//!   breaks, `\r`, form feeds), wherever the lines break: `2 1 1 1 2 1` on one line is a
//!   problem. A multi-case input ([`read_judge_cases`], [`JudgeReader`]) starts with the
//!   number `T` of cases, each `N M K`, edges and tokens.

use super::csr::{Csr, MAX_EDGES, MAX_VERTICES};
use super::{GameGraph, Names};
use crate::words;
use rustc_hash::FxHashMap;
use std::fmt;
use std::io::{self, Read};

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A line or a token is malformed.
    #[error("{}: {message}", place(*.line, *.column))]
    Syntax {
        /// The line number, from 1.
        line: u64,
        /// The column of the offending token, from 1, where the reader reads tokens (the
        /// judge format); `None` where it reads whole lines (the edge list).
        column: Option<u64>,
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
    /// An error in one test case of a multi-case judge input.
    #[error("case {case} of {cases}: {error}")]
    Case {
        /// The case, from 1.
        case: u64,
        /// The number of cases the input announced.
        cases: u64,
        /// What is wrong in it.
        error: Box<ReadError>,
    },
}

fn place(line: u64, column: Option<u64>) -> String {
    match column {
        Some(column) => format!("line {line}, column {column}"),
        None => format!("line {line}"),
    }
}

impl ReadError {
    fn syntax(line: u64, message: impl Into<String>) -> Self {
        ReadError::Syntax {
            line,
            column: None,
            message: message.into(),
        }
    }

    /// The line of a syntax error.
    pub fn line(&self) -> Option<u64> {
        match self {
            ReadError::Syntax { line, .. } => Some(*line),
            ReadError::Case { error, .. } => error.line(),
            _ => None,
        }
    }

    /// The column of a syntax error in a format read token by token.
    pub fn column(&self) -> Option<u64> {
        match self {
            ReadError::Syntax { column, .. } => *column,
            ReadError::Case { error, .. } => error.column(),
            _ => None,
        }
    }

    /// The error without the test case it is in, if any.
    pub fn inner(&self) -> &ReadError {
        match self {
            ReadError::Case { error, .. } => error.inner(),
            e => e,
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
    /// Checks that one share of a judge-format graph split over `processes` processes fits.
    #[cfg(feature = "cluster")]
    pub(crate) fn check_judge_share(
        &self,
        header: &JudgeHeader,
        processes: u64,
    ) -> Result<(), ReadError> {
        // The share (8 bytes a vertex, 4 an edge), the passes' state (about 50 bytes a
        // vertex) and a round's or a step's messages: measured 390 to 400 MiB a process of
        // two on the 10 M / 50 M benchmark, against 700 MiB here.
        let (n, m, k) = (header.vertices, header.edges, header.tokens);
        let needed = (n * SHARE_BYTES_PER_VERTEX + m * SHARE_BYTES_PER_EDGE + 4 * k)
            .div_ceil(processes.max(1))
            + SHARE_BUFFERS;
        self.check(
            || {
                format!(
                    "a share of a graph of {} and {}",
                    words::count(n, "vertex"),
                    words::count(m, "edge")
                )
            },
            needed,
        )
    }

    pub(crate) fn check(
        &self,
        what: impl FnOnce() -> String,
        needed: u64,
    ) -> Result<(), ReadError> {
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

/// The same for a process's share of a judge file read in parts, and the messages of a
/// round or step (outboxes, batches in transit, inbox).
#[cfg(feature = "cluster")]
const SHARE_BYTES_PER_EDGE: u64 = 8;
#[cfg(feature = "cluster")]
const SHARE_BYTES_PER_VERTEX: u64 = 80;
#[cfg(feature = "cluster")]
const SHARE_BUFFERS: u64 = 128 << 20;

/// A judge-format problem: the graph and the vertices holding tokens (0-based).
#[derive(Clone, Debug)]
pub struct JudgeInput {
    /// The graph, vertex `i` being `i + 1` in the input.
    pub graph: Csr,
    /// The vertex of each token, 0-based, in input order.
    pub tokens: Vec<u32>,
}

/// The first line `N M K` of a judge-format input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JudgeHeader {
    /// `N`, vertices.
    pub vertices: u64,
    /// `M`, edges.
    pub edges: u64,
    /// `K`, tokens.
    pub tokens: u64,
    /// The offset in the input of the first byte after `K`.
    pub body: u64,
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

fn show(field: &[u8]) -> String {
    let s = String::from_utf8_lossy(field);
    if s.chars().count() > 40 {
        format!("`{}…`", s.chars().take(40).collect::<String>())
    } else {
        format!("`{s}`")
    }
}

/// The most bytes of a token that the judge reader looks at: a number of more digits is never
/// a vertex or a count, so a longer token is refused after its first `MAX_TOKEN` bytes, and a
/// token of a gigabyte needs no more memory than the buffer.
const MAX_TOKEN: usize = 64;

/// The judge reader's buffer.
const TOKEN_BUFFER: usize = 1 << 20;

/// White space between tokens, as C's `isspace` (and so `scanf` and `cin >>`) has it.
#[inline(always)]
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Why a token is not a number that fits in 64 bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bad {
    /// There is no token: the input ends.
    End,
    /// The token is not a run of decimal digits.
    NotNumber,
    /// Decimal digits, but more than 64 bits can hold.
    TooLarge,
}

/// The whitespace-separated tokens of an input, wherever its lines break, with the line and
/// column of each: a fixed buffer, bytes parsed in place, the line counted while skipping
/// white space (so a token's place costs nothing until an error asks for it).
struct Tokens<R> {
    reader: R,
    buf: Vec<u8>,
    /// The next byte to look at.
    pos: usize,
    /// The end of the bytes read into `buf`.
    end: usize,
    eof: bool,
    /// The offset in the input of `buf[0]`.
    base: u64,
    /// The line of `pos`, from 1.
    line: u64,
    /// The offset in the input of the first byte of that line.
    line_start: u64,
    /// Where in `buf` the last token read starts (valid until the next token is read).
    token: usize,
    /// Whether the start of the input was checked for a byte-order mark.
    bom_checked: bool,
}

impl<R: Read> Tokens<R> {
    fn new(reader: R) -> Self {
        Tokens {
            reader,
            buf: vec![0; TOKEN_BUFFER],
            pos: 0,
            end: 0,
            eof: false,
            base: 0,
            line: 1,
            line_start: 0,
            token: 0,
            bom_checked: false,
        }
    }

    /// Moves the unread bytes to the front and reads until at least [`MAX_TOKEN`] of them are
    /// in the buffer or the input ends.
    #[cold]
    #[inline(never)]
    fn refill(&mut self) -> io::Result<()> {
        if self.pos > 0 {
            self.buf.copy_within(self.pos..self.end, 0);
            self.base += self.pos as u64;
            self.end -= self.pos;
            self.pos = 0;
        }
        while !self.eof && self.end < MAX_TOKEN {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => self.eof = true,
                Ok(k) => self.end += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if !self.bom_checked {
            // A UTF-8 byte-order mark (as some editors write) at the very start of the input
            // is not part of the first token; columns count from after it.
            self.bom_checked = true;
            if self.buf[..self.end].starts_with(BOM) {
                self.pos = BOM.len();
                self.line_start = BOM.len() as u64;
            }
        }
        Ok(())
    }

    /// Skips white space (counting lines) up to the next token, with the whole token, or its
    /// first [`MAX_TOKEN`] bytes, in the buffer.
    #[inline(always)]
    fn skip_space(&mut self) -> io::Result<()> {
        loop {
            let buf = &self.buf[..self.end];
            let mut i = self.pos;
            let (mut line, mut line_start) = (self.line, self.line_start);
            while i < buf.len() {
                let b = buf[i];
                if b > b' ' {
                    break;
                }
                if b == b'\n' {
                    line += 1;
                    line_start = self.base + i as u64 + 1;
                } else if !is_space(b) {
                    break;
                }
                i += 1;
            }
            (self.line, self.line_start) = (line, line_start);
            self.pos = i;
            if buf.len() - i >= MAX_TOKEN || self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// The next token as a number.
    #[inline(always)]
    fn number(&mut self) -> io::Result<Result<u64, Bad>> {
        self.skip_space()?;
        self.token = self.pos;
        let buf = &self.buf[..self.end];
        let start = self.pos;
        let mut i = start;
        let mut v = 0u64;
        while i < buf.len() {
            let d = buf[i].wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            // Wrapping: more than 19 digits go the slow way below.
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
        }
        let len = i - start;
        // At least MAX_TOKEN bytes were in the buffer (or the input ends), so a number of
        // at most 19 digits is followed by a byte or the end.
        if len == 0 || len > 19 || (i < buf.len() && !is_space(buf[i])) {
            return Ok(self.slow_number());
        }
        self.pos = i;
        Ok(Ok(v))
    }

    /// The bytes of the token at `self.token` (at most [`MAX_TOKEN`]), and whether it goes on
    /// past them.
    fn token_bytes(&self) -> (&[u8], bool) {
        let window = &self.buf[self.token..self.end.min(self.token + MAX_TOKEN)];
        match window.iter().position(|&b| is_space(b)) {
            Some(len) => (&window[..len], false),
            None => (window, self.token + MAX_TOKEN < self.end || !self.eof),
        }
    }

    /// The rare cases of [`Tokens::number`]: the end, a bad token, a long run of digits.
    #[cold]
    #[inline(never)]
    fn slow_number(&mut self) -> Result<u64, Bad> {
        if self.token == self.end {
            return Err(Bad::End);
        }
        let (bytes, cut) = self.token_bytes();
        if !bytes.iter().all(u8::is_ascii_digit) {
            return Err(Bad::NotNumber);
        }
        let len = bytes.len();
        let digits = &bytes[bytes.iter().take_while(|&&b| b == b'0').count()..];
        if cut || digits.len() > 20 {
            return Err(Bad::TooLarge);
        }
        let mut v = 0u64;
        for &b in digits {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
                .ok_or(Bad::TooLarge)?;
        }
        self.pos = self.token + len;
        Ok(v)
    }

    /// The line and column of the last token read (or of the end of the input, when there was
    /// none). Columns count bytes, which are characters up to the token: only white space and
    /// digits can come before it on its line.
    fn place(&self) -> (u64, u64) {
        let at = self.base + self.token as u64;
        (self.line, at - self.line_start + 1)
    }

    /// The last token read, quoted for a message (its first 40 characters).
    fn shown(&self) -> String {
        let (bytes, cut) = self.token_bytes();
        let s = show(bytes);
        if cut && !s.ends_with("…`") {
            format!("{}…`", &s[..s.len() - 1])
        } else {
            s
        }
    }
}

/// What a vertex number in a judge-format input stands for, to name it in messages.
#[derive(Clone, Copy, Debug)]
enum Role {
    /// The start of edge `i` (from 0).
    From(u64),
    /// The end of edge `i`.
    To(u64),
    /// Token `i`.
    Token(u64),
}

/// The most test cases a multi-case judge input may announce.
pub const MAX_CASES: u64 = u32::MAX as u64;

/// Reads the classic judge format token by token (see the module documentation): one case
/// with [`JudgeReader::read_case`], or a count of cases first with
/// [`JudgeReader::read_case_count`]. Each case is read, checked against the memory limit and
/// returned on its own, so a file of many cases needs the memory of its largest.
///
/// ```
/// use grundy::graph::read::{JudgeReader, ReadOptions};
/// let text = "2\n2 1 1\n1 2\n1\n1 0 1 1";
/// let mut reader = JudgeReader::new(text.as_bytes(), &ReadOptions::default());
/// let cases = reader.read_case_count().unwrap();
/// assert_eq!(cases, 2);
/// for case in 1..=cases {
///     let input = reader.read_case(Some((case, cases))).unwrap();
///     assert_eq!(input.tokens, [0]);
/// }
/// reader.finish_cases(cases).unwrap();
/// ```
pub struct JudgeReader<R> {
    tokens: Tokens<R>,
    options: ReadOptions,
}

impl<R> fmt::Debug for JudgeReader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JudgeReader")
            .field("line", &self.tokens.line)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl<R: Read> JudgeReader<R> {
    /// A reader of `reader` under the memory limit of `options`.
    pub fn new(reader: R, options: &ReadOptions) -> Self {
        JudgeReader {
            tokens: Tokens::new(reader),
            options: *options,
        }
    }

    /// A syntax error at the last token read.
    fn error(&self, message: String) -> ReadError {
        let (line, column) = self.tokens.place();
        ReadError::Syntax {
            line,
            column: Some(column),
            message,
        }
    }

    /// A count (`N`, `M`, `K` or `T`, named by `what`), or the error for a token that is
    /// not one: `expected` says what the count is part of and `at_end` what to say when the
    /// input ends before it.
    /// A count too large for 64 bits is `u64::MAX` (refused by every limit), with its text.
    fn count(
        &mut self,
        what: &str,
        expected: &str,
        at_end: &str,
    ) -> Result<(u64, String), ReadError> {
        match self.tokens.number()? {
            Ok(v) => Ok((v, v.to_string())),
            Err(Bad::TooLarge) => Ok((u64::MAX, self.tokens.shown().trim_matches('`').to_owned())),
            Err(Bad::End) => Err(self.error(format!("expected {expected}{at_end}"))),
            Err(Bad::NotNumber) => Err(self.error(format!(
                "expected {expected}, found {} for {what} (a non-negative integer)",
                self.tokens.shown()
            ))),
        }
    }

    /// A vertex number in `1..=n`, returned 0-based.
    #[inline(always)]
    fn vertex(&mut self, n: u64, role: Role, m: u64, k: u64) -> Result<u32, ReadError> {
        match self.tokens.number()? {
            Ok(v) if v.wrapping_sub(1) < n => Ok((v - 1) as u32),
            found => Err(self.vertex_error(found, n, role, m, k)),
        }
    }

    #[cold]
    #[inline(never)]
    fn vertex_error(
        &self,
        found: Result<u64, Bad>,
        n: u64,
        role: Role,
        m: u64,
        k: u64,
    ) -> ReadError {
        let (noun, of) = match role {
            Role::From(i) | Role::To(i) => ("vertex", format!("edge {} of {m}", i + 1)),
            Role::Token(i) => ("token vertex", format!("token {} of {k}", i + 1)),
        };
        let range = format!("vertices are numbered 1 to {n}");
        self.error(match found {
            Ok(v) => format!("{noun} {v} is out of range: {range} ({of})"),
            Err(Bad::TooLarge) => {
                format!(
                    "{noun} {} is out of range: {range} ({of})",
                    self.tokens.shown()
                )
            }
            Err(Bad::NotNumber) => format!(
                "expected a {noun} number (1 to {n}) for {of}, found {}",
                self.tokens.shown()
            ),
            Err(Bad::End) => match role {
                Role::From(i) => format!(
                    "expected {} `x y`, but the input ends after {i}",
                    words::count(m, "edge")
                ),
                Role::To(i) => format!(
                    "expected {} `x y`, but the input ends in edge {} (after its first vertex)",
                    words::count(m, "edge"),
                    i + 1
                ),
                Role::Token(i) => format!(
                    "expected {k} token {}, but the input ends after {i}",
                    words::plural(k, "vertex")
                ),
            },
        })
    }

    /// Reads the count `T` of test cases that starts a multi-case input.
    pub fn read_case_count(&mut self) -> Result<u64, ReadError> {
        let expected = "the number of test cases T";
        let (t, text) = self.count("T", expected, ", found an empty input")?;
        if t > MAX_CASES {
            return Err(self.error(format!(
                "T = {text} test cases is more than the {MAX_CASES} this tool can answer"
            )));
        }
        Ok(t)
    }

    /// Reads one case: `N M K`, `M` edges `x y` and `K` token vertices. `case` is
    /// `(i, T)`, case `i` of `T` of a multi-case input, named in errors.
    pub fn read_case(&mut self, case: Option<(u64, u64)>) -> Result<JudgeInput, ReadError> {
        self.read_one(case.is_none())
            .map_err(|error| match (case, error) {
                (_, e @ ReadError::Io(_)) => e,
                (Some((case, cases)), error) => ReadError::Case {
                    case,
                    cases,
                    error: Box::new(error),
                },
                (None, error) => error,
            })
    }

    /// The first three numbers of a case, `N M K`, each checked against what this tool can
    /// store.
    fn header(&mut self, alone: bool) -> Result<(u64, u64, u64), ReadError> {
        let expected = "`N M K` (vertices, edges, tokens)";
        let (n, text) = if alone {
            self.count(
                "N",
                &format!("a first line {expected}"),
                ", found an empty input",
            )?
        } else {
            self.count("N", expected, ", but the input ends")?
        };
        if n > MAX_VERTICES {
            return Err(self.error(format!(
                "N = {text} vertices is more than the {MAX_VERTICES} this tool can store"
            )));
        }
        let (m, text) = self.count("M", expected, ", but the input ends after N")?;
        if m > MAX_EDGES {
            return Err(self.error(format!(
                "M = {text} edges is more than the {MAX_EDGES} this tool can store"
            )));
        }
        let (k, text) = self.count("K", expected, ", but the input ends after N and M")?;
        if k > MAX_TOKENS {
            return Err(self.error(format!(
                "K = {text} token vertices is more than the {MAX_TOKENS} this tool can store"
            )));
        }
        Ok((n, m, k))
    }

    /// Reads the first line `N M K` of a single-case input and says where the numbers after
    /// it start, for readers that split the rest into byte ranges (the distributed solver).
    pub fn read_header(&mut self) -> Result<JudgeHeader, ReadError> {
        let (vertices, edges, tokens) = self.header(true)?;
        Ok(JudgeHeader {
            vertices,
            edges,
            tokens,
            body: self.tokens.base + self.tokens.pos as u64,
        })
    }

    /// Reads a single-case input to its end, checking every number as [`read_judge`] does,
    /// without keeping the graph: the first error, or nothing.
    pub fn check(&mut self) -> Result<(), ReadError> {
        let (n, m, k) = self.header(true)?;
        for i in 0..m {
            self.vertex(n, Role::From(i), m, k)?;
            self.vertex(n, Role::To(i), m, k)?;
        }
        for i in 0..k {
            self.vertex(n, Role::Token(i), m, k)?;
        }
        self.finish_announced(m, k)
    }

    fn read_one(&mut self, alone: bool) -> Result<JudgeInput, ReadError> {
        let (n, m, k) = self.header(alone)?;
        // Tokens are stored as they are read (the input holds each one), so K is not counted
        // here: a large K in a short input is refused when the input ends.
        let graph_bytes = n * BYTES_PER_VERTEX + m * BYTES_PER_EDGE;
        let graph_what = || {
            format!(
                "a graph of {} and {}",
                words::count(n, "vertex"),
                words::count(m, "edge")
            )
        };
        self.options.check(graph_what, graph_bytes)?;
        let too_large = || ReadError::TooLarge {
            what: graph_what(),
            needed_mib: graph_bytes.div_ceil(1 << 20),
            limit_mib: self.options.max_bytes >> 20,
        };
        let mut sources: Vec<u32> = Vec::new();
        let mut targets: Vec<u32> = Vec::new();
        sources
            .try_reserve_exact(m as usize)
            .map_err(|_| too_large())?;
        targets
            .try_reserve_exact(m as usize)
            .map_err(|_| too_large())?;
        for i in 0..m {
            let x = self.vertex(n, Role::From(i), m, k)?;
            let y = self.vertex(n, Role::To(i), m, k)?;
            sources.push(x);
            targets.push(y);
        }
        let mut tokens: Vec<u32> = Vec::new();
        for i in 0..k {
            if tokens.len() == tokens.capacity() {
                let more = tokens.len().clamp(1 << 10, 1 << 24).min((k - i) as usize);
                let needed = graph_bytes + (tokens.len() + more) as u64 * 4;
                self.options
                    .check(|| format!("{} token vertices", tokens.len() + more), needed)?;
                tokens
                    .try_reserve_exact(more)
                    .map_err(|_| ReadError::TooLarge {
                        what: format!("{} token vertices", tokens.len() + more),
                        needed_mib: needed.div_ceil(1 << 20),
                        limit_mib: self.options.max_bytes >> 20,
                    })?;
            }
            tokens.push(self.vertex(n, Role::Token(i), m, k)?);
        }
        let graph = Csr::from_edges(n as u32, &sources, &targets);
        Ok(JudgeInput { graph, tokens })
    }

    /// Checks that only white space is left, `after` saying what came before.
    fn finish(&mut self, after: impl FnOnce() -> String) -> Result<(), ReadError> {
        match self.tokens.number()? {
            Err(Bad::End) => Ok(()),
            _ => Err(self.error(format!(
                "unexpected {} after {}",
                self.tokens.shown(),
                after()
            ))),
        }
    }

    /// Checks that only white space follows the one case of a single-case input.
    pub fn finish_case(&mut self, input: &JudgeInput) -> Result<(), ReadError> {
        self.finish_announced(input.graph.edge_count() as u64, input.tokens.len() as u64)
    }

    /// Checks that only white space follows the `m` edges and `k` tokens of the one case.
    fn finish_announced(&mut self, m: u64, k: u64) -> Result<(), ReadError> {
        self.finish(|| {
            format!(
                "the {} and {} the first line announced",
                words::count(m, "edge"),
                words::count(k, "token")
            )
        })
    }

    /// Checks that only white space follows the `cases` cases of a multi-case input.
    pub fn finish_cases(&mut self, cases: u64) -> Result<(), ReadError> {
        self.finish(|| {
            format!(
                "the {} the first line announced",
                words::count(cases, "test case")
            )
        })
    }
}

/// Reads the classic judge format (see the module documentation): one case, then nothing
/// but white space.
pub fn read_judge<R: Read>(reader: R, options: &ReadOptions) -> Result<JudgeInput, ReadError> {
    let mut r = JudgeReader::new(reader, options);
    let input = r.read_case(None)?;
    r.finish_case(&input)?;
    Ok(input)
}

/// Reads a judge-format input of several test cases: a count `T`, then `T` cases each as
/// [`read_judge`] reads one. All the cases are kept; to answer them one at a time in the
/// memory of the largest, use a [`JudgeReader`].
pub fn read_judge_cases<R: Read>(
    reader: R,
    options: &ReadOptions,
) -> Result<Vec<JudgeInput>, ReadError> {
    let mut r = JudgeReader::new(reader, options);
    let cases = r.read_case_count()?;
    let mut out = Vec::new();
    for case in 1..=cases {
        out.push(r.read_case(Some((case, cases)))?);
    }
    r.finish_cases(cases)?;
    Ok(out)
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

    fn intern(&mut self, name: &str, line: u64) -> Result<u32, ReadError> {
        let field = name.as_bytes();
        if let Some(&v) = self.index.get(field) {
            return Ok(v);
        }
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

/// A line of an edge list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EdgeLine<'a> {
    /// Blank, or a comment.
    Empty,
    /// `NAME`: a vertex.
    Vertex(&'a str),
    /// `FROM TO`: an edge.
    Edge(&'a str, &'a str),
}

/// What the line `line` (without its line break; numbered `number`, from 1) of an edge
/// list says, or why it is wrong: a third field, or a name that is not UTF-8.
pub(crate) fn edge_line(line: &[u8], number: u64) -> Result<EdgeLine<'_>, ReadError> {
    let line = match memchr::memchr(b'#', line) {
        Some(hash) => &line[..hash],
        None => line,
    };
    let mut f = fields(line);
    fn name(field: &[u8], number: u64) -> Result<&str, ReadError> {
        std::str::from_utf8(field).map_err(|_| {
            ReadError::syntax(
                number,
                format!("vertex name {} is not valid UTF-8", show(field)),
            )
        })
    }
    Ok(match (f.next(), f.next(), f.next()) {
        (None, _, _) => EdgeLine::Empty,
        (Some(a), None, _) => EdgeLine::Vertex(name(a, number)?),
        (Some(a), Some(b), None) => EdgeLine::Edge(name(a, number)?, name(b, number)?),
        (Some(_), Some(_), Some(c)) => {
            return Err(ReadError::syntax(
                number,
                format!(
                    "expected `FROM TO` (an edge) or `NAME` (a vertex), found a third field {}",
                    show(c)
                ),
            ));
        }
    })
}

/// The error that refuses the edge after `edges` edges, if any.
fn edge_room(edges: u64, number: u64) -> Result<(), ReadError> {
    if edges >= MAX_EDGES {
        return Err(ReadError::syntax(
            number,
            format!("more than the {MAX_EDGES} edges this tool can store"),
        ));
    }
    Ok(())
}

/// Reads an edge list as [`read_edge_list`] does, storing nothing: its first malformed line
/// (a third field, a name that is not UTF-8, an edge past the most a graph can hold), or a
/// failed read. Too many vertices, or memory, are not checked (they need the names).
pub fn check_edge_list<R: Read>(reader: R) -> Result<(), ReadError> {
    let mut lines = Lines::new(reader);
    let mut edges = 0u64;
    while let Some((s, e)) = lines.next_range()? {
        if let EdgeLine::Edge(..) = edge_line(&lines.buf[s..e], lines.line)? {
            edge_room(edges, lines.line)?;
            edges += 1;
        }
    }
    Ok(())
}

/// Reads a named edge list (see the module documentation).
pub fn read_edge_list<R: Read>(reader: R, options: &ReadOptions) -> Result<GameGraph, ReadError> {
    let mut lines = Lines::new(reader);
    let mut names = Interner::default();
    let mut sources = Vec::new();
    let mut targets = Vec::new();
    while let Some((s, e)) = lines.next_range()? {
        match edge_line(&lines.buf[s..e], lines.line)? {
            EdgeLine::Empty => {}
            EdgeLine::Vertex(a) => {
                names.intern(a, lines.line)?;
            }
            EdgeLine::Edge(a, b) => {
                edge_room(sources.len() as u64, lines.line)?;
                sources.push(names.intern(a, lines.line)?);
                targets.push(names.intern(b, lines.line)?);
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

    /// The line and column of a judge error.
    fn place_of(r: Result<JudgeInput, ReadError>) -> (u64, u64, String) {
        let e = r.unwrap_err();
        let column = e.column().expect("a token error has a column");
        (e.line().expect("a syntax error"), column, e.to_string())
    }

    #[test]
    fn judge_errors_name_the_line_and_column() {
        let (line, column, msg) = place_of(judge("3 2 1\n1 2\n2 7\n1\n"));
        assert_eq!((line, column), (3, 3));
        assert!(
            msg.starts_with("line 3, column 3: vertex 7 is out of range"),
            "{msg}"
        );
        assert!(msg.contains("(edge 2 of 2)"), "{msg}");
        let (line, column, msg) = place_of(judge("3 2 1\n1 2\n  2\tx\n1\n"));
        assert_eq!((line, column), (3, 5));
        assert!(
            msg.contains("expected a vertex number (1 to 3) for edge 2 of 2, found `x`"),
            "{msg}"
        );
        // Tokens, not lines: `1 2 3` is an edge and the start of the next.
        let (line, column, msg) = place_of(judge("3 2 1\n1 2 3\n"));
        assert_eq!((line, column), (3, 1));
        assert!(
            msg.contains("input ends in edge 2 (after its first vertex)"),
            "{msg}"
        );
        let (line, column, msg) = place_of(judge("3 2\n"));
        assert_eq!((line, column), (2, 1));
        assert!(
            msg.contains("`N M K`") && msg.contains("after N and M"),
            "{msg}"
        );
        let (line, _, msg) = place_of(judge("3 2 1\n1 2\n"));
        assert_eq!(line, 3);
        assert!(
            msg.contains("expected 2 edges `x y`, but the input ends after 1"),
            "{msg}"
        );
        let (line, column, msg) = place_of(judge("3 1 1\n1 2\n3\n 3\n"));
        assert_eq!((line, column), (4, 2));
        assert!(
            msg.contains("unexpected `3` after the 1 edge and 1 token"),
            "{msg}"
        );
        let (line, _, msg) = place_of(judge("3 1 1\n1 2\n0\n"));
        assert_eq!(line, 3);
        assert!(msg.contains("token vertex 0 is out of range"), "{msg}");
        let (line, column, msg) = place_of(judge("3 x 1\n"));
        assert_eq!((line, column), (1, 3));
        assert!(msg.contains("found `x` for M"), "{msg}");
        for empty in ["", "  \n\t\r\n", "\u{feff}"] {
            let (_, _, msg) = place_of(judge(empty));
            assert!(msg.contains("empty input"), "{empty:?}: {msg}");
        }
        // A vertex too large for 64 bits is out of range, not wrapped.
        let (_, _, msg) = place_of(judge("2 1 0\n1 18446744073709551617\n"));
        assert!(
            msg.contains("vertex `18446744073709551617` is out of range"),
            "{msg}"
        );
        let (_, _, msg) = place_of(judge("99999999999999999999999 1 0\n"));
        assert!(
            msg.contains("N = 99999999999999999999999 vertices is more than"),
            "{msg}"
        );
        // A control character or a sign is no white space.
        let (line, column, msg) = place_of(judge("2 1 0\n1\x002\n"));
        assert_eq!((line, column), (2, 1));
        assert!(msg.contains("found `1\u{0}2`"), "{msg}");
        let (_, column, _) = place_of(judge("2 1 0\n+1 2\n"));
        assert_eq!(column, 1);
    }

    #[test]
    fn judge_tokens_go_anywhere() {
        // One line, many lines, tabs, carriage returns, vertical tabs and form feeds.
        let canonical = judge("4 3 2\n1 2\n2 3\n4 3\n1\n4\n").unwrap();
        for text in [
            "4 3 2 1 2 2 3 4 3 1 4",
            "4\n3\n2\n1\n2\n2\n3\n4\n3\n1\n4",
            "  4 3\t2\r\n1 2 2\r3 4\x0b3\x0c1\n\n\n4   \n\n",
            "\u{feff}4 3 2 1\n2 2 3 4 3 1 4\n",
            "4 3 2 01 002 2 3 4 3 0000000000000000000000000000000001 4",
        ] {
            let input = judge(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
            assert_eq!(input.tokens, canonical.tokens, "{text:?}");
            for v in 0..4 {
                assert_eq!(
                    input.graph.successors(v),
                    canonical.graph.successors(v),
                    "{text:?}"
                );
            }
        }
        let input = judge("2 1 1 1 2 1").unwrap();
        assert_eq!(input.tokens, [0]);
        // Columns count from after a byte-order mark.
        let (line, column, _) = place_of(judge("\u{feff}2 x 1\n"));
        assert_eq!((line, column), (1, 3));
    }

    #[test]
    fn judge_tokens_cross_buffer_refills_and_long_tokens_stay_small() {
        // Tokens every few bytes across several refills of the 1 MiB buffer, so that tokens
        // meet the buffer's end at every offset: the same graph as the plain layout.
        let n = 1000u32;
        let m = 300_000u32;
        let mut plain = format!("{n} {m} 2\n");
        let mut odd = format!("{n} {m} 2");
        let mut state = 12345u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..m {
            let (x, y) = (
                (next() % u64::from(n)) as u32 + 1,
                (next() % u64::from(n)) as u32 + 1,
            );
            plain.push_str(&format!("{x} {y}\n"));
            for v in [x, y] {
                let gap = [" ", "\n", "\t", "\r\n", "   ", " \n\n "][(next() % 6) as usize];
                odd.push_str(gap);
                odd.push_str(&v.to_string());
            }
        }
        plain.push_str("1 2\n");
        odd.push_str("\n1\n2");
        assert!(odd.len() > 2 << 20);
        let a = judge(&plain).unwrap();
        let b = judge(&odd).unwrap();
        assert_eq!(a.tokens, b.tokens);
        for v in 0..n {
            assert_eq!(a.graph.successors(v), b.graph.successors(v));
        }
        // The line of an error far into the input is right.
        let lines = odd.matches('\n').count() as u64;
        let (line, column, _) = place_of(judge(&format!("{odd}\n  x")));
        assert_eq!((line, column), (lines + 2, 3));
        // A token of 10 MB is refused by its first bytes, shown cut.
        let long = format!("2 1 0\n1 {}\n", "7".repeat(10 << 20));
        let (_, _, msg) = place_of(judge(&long));
        assert!(
            msg.contains("is out of range") && msg.contains("…`"),
            "{}",
            &msg[..200.min(msg.len())]
        );
        assert!(msg.len() < 300, "{}", msg.len());
        let long = format!("2 1 0\n1 {}\n", "é".repeat(5 << 20));
        let (_, _, msg) = place_of(judge(&long));
        assert!(msg.contains("found `éé") && msg.len() < 300, "{msg}");
    }

    #[test]
    fn multi_case_inputs_read_case_by_case() {
        let cases_of = |text: &str| read_judge_cases(text.as_bytes(), &ReadOptions::default());
        let cases = cases_of("3\n2 1 1\n1 2\n1\n1 0 0 3 2 2 1 2 2 1 3 3").unwrap();
        assert_eq!(cases.len(), 3);
        assert_eq!(cases[0].tokens, [0]);
        assert!(cases[1].tokens.is_empty());
        assert_eq!(cases[2].tokens, [2, 2]);
        assert_eq!(cases[2].graph.successors(1), &[0]);
        assert!(cases_of("0").unwrap().is_empty());
        // A huge T is refused as T, at its place.
        let e = cases_of("100000000000000000000 1 0 0").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
        assert!(
            e.to_string()
                .contains("T = 100000000000000000000 test cases is more than"),
            "{e}"
        );
        let e = cases_of("4294967296\n").unwrap_err();
        assert!(e.to_string().contains("T = 4294967296"), "{e}");
        // A truncated case names the case, the line and the column.
        let e = cases_of("2\n2 1 1\n1 2\n1\n2 1 1\n1").unwrap_err();
        assert_eq!(
            e.to_string(),
            "case 2 of 2: line 6, column 2: expected 1 edge `x y`, but the input ends in edge 1 \
             (after its first vertex)"
        );
        let e = cases_of("3\n1 0 0\n").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("case 2 of 3: line 3, column 1: expected `N M K`"),
            "{e}"
        );
        let e = cases_of("1\n1 0 0\n5").unwrap_err();
        assert!(
            e.to_string()
                .contains("unexpected `5` after the 1 test case the first line announced"),
            "{e}"
        );
        let e = cases_of("x").unwrap_err();
        assert!(e.to_string().contains("number of test cases T"), "{e}");
        let e = cases_of("").unwrap_err();
        assert!(e.to_string().contains("empty input"), "{e}");
        // A case too large for the memory limit is refused with its figure and its number.
        let small = ReadOptions { max_bytes: 1 << 20 };
        let e = read_judge_cases("2 1 0 0 1000000 1000000 0".as_bytes(), &small).unwrap_err();
        assert!(matches!(e.inner(), ReadError::TooLarge { .. }), "{e}");
        assert!(
            e.to_string()
                .starts_with("case 2 of 2: too large: a graph of 1000000 vertices"),
            "{e}"
        );
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
        let (line, column, msg) = place_of(judge("1 0 100000000000000000\n1\n"));
        assert_eq!((line, column), (1, 5));
        assert!(msg.contains("K = 100000000000000000"), "{msg}");
        let (line, _, msg) = place_of(judge("1 0 1000000\n1\n"));
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
