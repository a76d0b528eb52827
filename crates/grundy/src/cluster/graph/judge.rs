//! A judge-format problem solved where it lies: every worker reads its own byte range of the
//! file (a shared path), sends each edge to the owners of its two ends and each token to the
//! owner of its vertex, and no process ever holds the whole graph.
//!
//! 1. Every process reads the first line `N M K` itself; the numbers after it are cut into
//!    `W` equal byte ranges, one a worker; a number belongs to the range of its first byte.
//! 2. Each worker counts and checks its numbers (each in `1..=N`); the counts, shared by all,
//!    say where each worker's numbers stand in the input (number `i` is the start of edge
//!    `i / 2` or its end, or a token): an edge cut by a range boundary is joined by the worker
//!    holding its start, which learnt the next worker's first number.
//! 3. A second reading sends, in rounds of [`PER_ROUND`] numbers a worker, the local index
//!    of `y` to the owner of `y` (a predecessor to count) and that of `x` to the owner of `x`
//!    (its out-degree), for every edge `(x, y)`; the owners then lay out their predecessor
//!    lists. A third reading sends `(y, x)` to the owner of `y`, which stores `x` in place.
//!    Each reading must hash to what the first read, or the file changed meanwhile.
//! 4. The passes of [`super`] run on the shares, about `PER_ROUND / 4` messages a worker in
//!    one step (a cascade with more pauses until the next step; the bound is checked before
//!    each vertex, so a step may carry one vertex's list of predecessors more).
//! 5. The tokens' owners add their values (the nim-sum and the count of `∞`); with exactly one
//!    `∞` token, its `K` is collected from the owners of its followers. Process 0 answers by
//!    Smith's rules, as [`crate::graph::judge_outcome`] does.
//!
//! A malformed input stops every worker after step 2; each process then reads the file with
//! the one-process reader ([`JudgeReader::check`]) for the same message as one process gives.
//! Memory a process, for `P` processes: the share (out-degree and the start of its list a
//! vertex, a predecessor an edge: 8 bytes a vertex and 4 an edge), the passes' state (about
//! 40 bytes a vertex for the acyclic pass) and the outboxes, batches in transit and inbox of
//! one round or step (tens of mebibytes); the numbers themselves are never stored.
//! `--max-memory` is checked against 8 bytes an edge and 80 a vertex of a share, and 128 MiB.

use super::phases::Share;
use super::step::Steps;
use super::{Fingerprint, Halt, Progress, Setup, SolveStats, Tell, execute, passes};
use crate::cluster::{Cluster, ClusterError};
use crate::graph::loopy::INFINITE;
use crate::graph::read::{JudgeHeader, JudgeReader, ReadError, ReadOptions, is_space};
use crate::nimber::Nimber;
use crate::value::{Outcome, Value, sum_outcome, sum_value};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use timely::worker::Worker;

/// Numbers a worker reads between two exchanges of a reading, by default: the outboxes of a
/// round hold 4 bytes a number (16 MiB); a step of the passes then sends at most a quarter as
/// many messages a worker.
pub const PER_ROUND: u64 = 1 << 22;

/// A judge-format file on a path every process can read, its first line read.
#[derive(Clone, Debug)]
pub struct JudgeFile {
    path: PathBuf,
    header: JudgeHeader,
    len: u64,
    per_round: u64,
    /// A hash of the file's first and last mebibyte: copies of the file on several
    /// machines must be the same, and most differences show there.
    ends: u64,
}

impl JudgeFile {
    /// Opens `path` and reads its first line `N M K` (refused as [`crate::graph::read::read_judge`]
    /// refuses it), and checks that a share of the graph for each of `processes` processes
    /// fits in `options`' memory.
    pub fn open(
        path: impl AsRef<Path>,
        options: &ReadOptions,
        processes: usize,
    ) -> Result<JudgeFile, ReadError> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(ReadError::Io(std::io::Error::other(
                "not a regular file (a pipe cannot be read in parts): read it whole",
            )));
        }
        let len = metadata.len();
        let header = JudgeReader::new(&file, options).read_header()?;
        options.check_judge_share(&header, processes as u64)?;
        Ok(JudgeFile {
            ends: ends_hash(&file, len)?,
            path,
            header,
            len,
            per_round: PER_ROUND,
        })
    }

    /// Sets the numbers a worker reads between two exchanges ([`PER_ROUND`] by default, at
    /// least 1): fewer hold less memory in the outboxes and take more steps.
    pub fn with_per_round(mut self, numbers: u64) -> JudgeFile {
        self.per_round = numbers.max(1);
        self
    }

    /// The first line.
    pub fn header(&self) -> JudgeHeader {
        self.header
    }

    /// The bytes of worker `w` of `workers`: an equal part of those after the first line.
    fn range(&self, w: usize, workers: usize) -> Range<u64> {
        let body = self.header.body;
        let len = u128::from(self.len.saturating_sub(body));
        let at = |i: usize| body + (len * i as u128 / workers as u128) as u64;
        at(w)..at(w + 1)
    }

    /// The first error of the file, as one process reads it (a file that reads well now has
    /// changed since a worker read it).
    fn first_error(&self) -> ClusterError {
        let checked = File::open(&self.path)
            .map_err(ReadError::from)
            .and_then(|file| JudgeReader::new(file, &ReadOptions::default()).check());
        match checked {
            Err(e) => ClusterError::Read(e),
            Ok(()) => ClusterError::Protocol(format!(
                "{} changed while it was being read",
                self.path.display()
            )),
        }
    }

    /// What every process compares first: the first line, the file's length and ends, and
    /// the rounds of the reading (which every worker must take alike).
    fn fingerprint(&self) -> Fingerprint {
        let h = self.header;
        let hash = [h.tokens, self.len, self.per_round]
            .into_iter()
            .fold(self.ends, crate::hash::mix);
        Fingerprint {
            vertices: h.vertices as u32,
            edges: h.edges as u32,
            hash,
        }
    }
}

/// A hash of the first and the last mebibyte of a file of `len` bytes.
pub(super) fn ends_hash(mut file: &File, len: u64) -> Result<u64, ReadError> {
    const MIB: u64 = 1 << 20;
    let mut h = 0u64;
    for start in [0, len.saturating_sub(MIB)] {
        file.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity(MIB as usize);
        file.take(MIB).read_to_end(&mut buf)?;
        h = buf
            .iter()
            .fold(h, |h, &b| crate::hash::mix(h, u64::from(b)));
    }
    Ok(h)
}

/// Who wins the sum of the tokens of a judge problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JudgeAnswer {
    /// The outcome of the sum (`P`: the player to move loses).
    pub outcome: Outcome,
    /// The value of the sum, where Smith's rules give one (not with two `∞` tokens or more).
    pub value: Option<Value>,
    /// What the run measured.
    pub stats: SolveStats,
}

/// Solves the judge problem in `file` with `workers` threads of this process, each reading
/// its part of the file.
pub fn judge_with_workers(
    file: &JudgeFile,
    workers: usize,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<JudgeAnswer, ClusterError> {
    let answer = run(Setup::workers(workers, cancel)?, file, progress)?;
    answer.ok_or_else(|| ClusterError::Protocol("the first worker gave no answer".into()))
}

/// Runs this process's part of the judge problem in `file` (a path every process reads)
/// over `cluster`: process 0 returns the answer, the others `None`.
pub fn judge_on_cluster(
    cluster: &Cluster,
    file: &JudgeFile,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<Option<JudgeAnswer>, ClusterError> {
    run(Setup::cluster(cluster, cancel)?, file, progress)
}

fn run(
    setup: Setup,
    file: &JudgeFile,
    progress: Progress,
) -> Result<Option<JudgeAnswer>, ClusterError> {
    let processes = setup.processes;
    let mine = file.clone();
    let work = move |steps: &mut Steps, worker: &mut Worker, tell: &mut Tell<'_>| {
        let started = std::time::Instant::now();
        // A step of the passes carries about as many words as a round of the reading.
        steps.per_step = (mine.per_round / 4).max(1);
        mine.fingerprint().compare(steps, worker)?;
        let (share, tokens) = load(&mine, steps, worker, tell)?;
        let local = passes(&share, steps, worker, tell)?;
        let answer = sum_of_tokens(&share, &local.values, &tokens, steps, worker)?;
        Ok(answer.map(|(outcome, value, bytes)| JudgeAnswer {
            outcome,
            value,
            stats: SolveStats::since(
                processes,
                worker.peers(),
                steps.steps,
                bytes,
                local.acyclic,
                started,
            ),
        }))
    };
    let bad = || file.first_error();
    execute(setup, progress, work, bad)
}

/// What the first reading of a worker's range found.
#[derive(Clone, Copy, Debug, Default)]
struct Scanned {
    /// Numbers whose first byte is in the range.
    count: u64,
    /// The first of them, 0-based.
    first: Option<u32>,
    /// Whether a token is not a number in `1..=N` (or the file could not be read).
    bad: bool,
    /// A hash of the numbers in their order: each reading must see the same.
    hash: u64,
}

/// Reads the numbers whose first byte lies in `range` (the last may run past its end), each
/// checked to be in `1..=n` and handed 0-based to `each`; a bad token ends the reading, and
/// so does `cancelled` (looked at every mebibyte: the next exchange then stops every worker).
/// Tight loops over spaces and digits: about a gigabyte a second.
fn scan(
    path: &Path,
    range: Range<u64>,
    body: u64,
    n: u64,
    cancelled: &dyn Fn() -> bool,
    each: &mut impl FnMut(u32) -> Result<(), Halt>,
) -> Result<Scanned, Halt> {
    let mut found = Scanned::default();
    let Ok(mut file) = File::open(path) else {
        found.bad = true;
        return Ok(found);
    };
    // From the byte before the range: a number running into it belongs to the range before.
    let look_back = range.start > body;
    let from = if look_back {
        range.start - 1
    } else {
        range.start
    };
    if file.seek(SeekFrom::Start(from)).is_err() {
        found.bad = true;
        return Ok(found);
    }
    let mut buf = vec![0u8; 1 << 20];
    // The file offset of the next byte read; whether the byte before the range is still to
    // come; whether a number of the range before is being skipped.
    let (mut offset, mut look_back, mut skipping) = (from, look_back, false);
    let mut token = Token::default();
    let mut in_token = false;
    'reading: loop {
        if cancelled() {
            break;
        }
        let got = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => {
                found.bad = true;
                return Ok(found);
            }
        };
        let bytes = &buf[..got];
        let base = offset;
        offset += got as u64;
        let mut i = 0;
        if look_back {
            look_back = false;
            skipping = !is_space(bytes[0]);
            i = 1;
        }
        if skipping {
            while i < got && !is_space(bytes[i]) {
                i += 1;
            }
            if i == got {
                continue;
            }
            skipping = false;
        }
        while i < got {
            if !in_token {
                while i < got && is_space(bytes[i]) {
                    i += 1;
                }
                if i == got {
                    break;
                }
                if base + i as u64 >= range.end {
                    break 'reading;
                }
                (in_token, token) = (true, Token::default());
            }
            while i < got && !is_space(bytes[i]) {
                token.push(bytes[i], n);
                i += 1;
            }
            if i < got {
                in_token = false;
                if token.finish(n, &mut found, each)? {
                    return Ok(found);
                }
            }
        }
        if !in_token && offset >= range.end {
            break;
        }
    }
    if in_token {
        token.finish(n, &mut found, each)?;
    }
    Ok(found)
}

/// A number being read.
#[derive(Clone, Copy, Default)]
struct Token {
    value: u64,
    digits: u64,
    /// A byte that is not a digit, or a value past `N`.
    bad: bool,
}

impl Token {
    #[inline]
    fn push(&mut self, b: u8, n: u64) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            self.bad = true;
        } else if !self.bad {
            self.digits += 1;
            self.value = self.value * 10 + u64::from(d);
            // Leading zeros keep it small; anything past N is refused anyway.
            self.bad = self.value > n;
        }
    }

    /// Hands the number to `each` if it is one of `1..=n`; `true` (and `found.bad`) if not.
    #[inline]
    fn finish(
        self,
        n: u64,
        found: &mut Scanned,
        each: &mut impl FnMut(u32) -> Result<(), Halt>,
    ) -> Result<bool, Halt> {
        if self.bad || self.digits == 0 || self.digits >= 64 || self.value == 0 || self.value > n {
            found.bad = true;
            return Ok(true);
        }
        let v = (self.value - 1) as u32;
        found.first.get_or_insert(v);
        found.count += 1;
        found.hash = crate::hash::mix(found.hash, u64::from(v));
        each(v)?;
        Ok(false)
    }
}

/// Reads this worker's range three times (a count and check; the in- and out-degrees sent
/// to the owners of the edges' ends; the edges sent to the owners of their ends, each stored
/// in place in its predecessor list) and builds its share; returns the share and the local
/// indices of the tokens it owns.
fn load(
    file: &JudgeFile,
    steps: &mut Steps,
    worker: &mut Worker,
    tell: &mut Tell<'_>,
) -> Result<(Share, Vec<u32>), Halt> {
    let (w, peers) = (worker.index(), worker.peers());
    let JudgeHeader {
        vertices: n,
        edges: m,
        tokens: k,
        body,
    } = file.header;
    let range = file.range(w, peers);
    tell("reading", 0, 0);
    let cancel = steps.cancel_flag();
    let cancelled = move || cancel.load(std::sync::atomic::Ordering::Relaxed);
    let counted = scan(&file.path, range.clone(), body, n, &cancelled, &mut |_| {
        Ok(())
    })?;
    // Every worker learns every worker's count and first number.
    let mut out = steps.outboxes();
    let first = counted.first.unwrap_or(u32::MAX);
    for batch in &mut out {
        batch.extend([
            w as u32,
            counted.count as u32,
            (counted.count >> 32) as u32,
            first,
            u32::from(counted.bad),
        ]);
    }
    let got = steps.exchange(worker, &mut out, [0, 0])?;
    let mut all: Vec<[u32; 5]> = got
        .payloads
        .iter()
        .flat_map(|words| words.chunks_exact(5))
        .map(|c| [c[0], c[1], c[2], c[3], c[4]])
        .collect();
    all.sort_unstable_by_key(|c| c[0]);
    let count = |c: &[u32; 5]| u64::from(c[1]) | (u64::from(c[2]) << 32);
    let total: u64 = all.iter().map(count).sum();
    if all.iter().any(|c| c[4] != 0) || total != 2 * m + k {
        return Err(Halt::BadInput);
    }
    let longest = all.iter().map(count).max().unwrap_or(0);
    let place = Place {
        range,
        before: all[..w].iter().map(count).sum(),
        counted,
        next_first: all[w + 1..].iter().find(|c| count(c) > 0).map(|c| c[3]),
        rounds: longest.div_ceil(file.per_round),
        edges: m,
    };
    let mut share = Share::empty(n, w, peers);
    let owners = share.owners();
    let mut reading = Reading {
        file,
        place: &place,
        cancelled: &cancelled,
        steps,
        worker,
        tell,
    };

    // The second reading: each edge's end counts a predecessor, its start a follower.
    let mut token_vertices: Vec<u32> = Vec::new();
    let mut changed = reading.run(
        "reading: degrees",
        2,
        &mut |x, y, outs| {
            let (owner, ky) = owners.locate(y);
            outs[0][owner].push(ky as u32);
            let (owner, kx) = owners.locate(x);
            outs[1][owner].push(kx as u32);
        },
        &mut |v| token_vertices.push(v),
        &mut |kind, words| {
            if kind == 0 {
                for &ky in words {
                    share.count_pred(ky as usize);
                }
            } else {
                let degree = share.out_degree_mut();
                for &kx in words {
                    degree[kx as usize] += 1;
                }
            }
        },
    )?;

    // The third: each edge stored in its end's predecessor list.
    share.allot_preds();
    let mut overflow = false;
    changed |= reading.run(
        "reading: edges",
        1,
        &mut |x, y, outs| {
            let (owner, ky) = owners.locate(y);
            outs[0][owner].extend([ky as u32, x]);
        },
        &mut |_| {},
        &mut |_, words| {
            for pair in words.chunks_exact(2) {
                overflow |= !share.place_pred(pair[0] as usize, pair[1]);
            }
        },
    )?;

    // The tokens to their owners; whether any worker read something else this time.
    let mut out = steps.outboxes();
    for v in token_vertices {
        let (owner, kv) = owners.locate(v);
        out[owner].push(kv as u32);
    }
    let got = steps.exchange(worker, &mut out, [u64::from(changed || overflow), 0])?;
    if got.totals[0] > 0 {
        return Err(Halt::BadInput);
    }
    Ok((share, got.payloads.concat()))
}

/// Where a worker's numbers stand, from the first reading and the counts of all.
struct Place {
    range: Range<u64>,
    /// Numbers before this worker's in the input.
    before: u64,
    /// What the first reading of the range found.
    counted: Scanned,
    /// The next worker's first number: the end of an edge cut by the boundary.
    next_first: Option<u32>,
    /// Rounds of the longest range, the last one partial (every worker takes one more, for
    /// the edge cut by its range's end).
    rounds: u64,
    /// `M`: the numbers before `2M` are edges, the rest tokens.
    edges: u64,
}

/// A worker's readings after the first, in lockstep rounds of `per_round` numbers.
struct Reading<'a, 'w> {
    file: &'a JudgeFile,
    place: &'a Place,
    cancelled: &'a dyn Fn() -> bool,
    steps: &'a mut Steps,
    worker: &'a mut Worker,
    tell: &'a mut Tell<'w>,
}

/// Outboxes by kind, each a batch for every worker.
type Kinds = [Vec<Vec<u32>>];

impl Reading<'_, '_> {
    /// Reads the range again: `edge(x, y, outboxes)` for every edge that starts here,
    /// `token(v)` for every token; after each round, every kind of outbox is exchanged in
    /// turn and `heard(kind, words)` takes what came. Returns whether the range read
    /// differently than the first time (the file changed).
    fn run(
        &mut self,
        what: &str,
        kinds: usize,
        edge: &mut dyn FnMut(u32, u32, &mut Kinds),
        token: &mut dyn FnMut(u32),
        heard: &mut dyn FnMut(usize, &[u32]),
    ) -> Result<bool, Halt> {
        let Reading {
            file,
            place,
            cancelled,
            steps,
            worker,
            tell,
        } = self;
        let mut outs = vec![steps.outboxes(); kinds];
        let (before, count) = (place.before, place.counted.count);
        let last = before + count;
        let (mut g, mut pending, mut rounds, mut in_round, mut more) = (before, None, 0, 0, false);
        let again = scan(
            &file.path,
            place.range.clone(),
            file.header.body,
            file.header.vertices,
            cancelled,
            &mut |v| {
                if g == last {
                    // The file changed since the first reading: read no further, say so.
                    more = true;
                    return Ok(());
                }
                if g >= 2 * place.edges {
                    token(v);
                } else if g % 2 == 0 {
                    pending = Some(v);
                } else if let Some(x) = pending.take() {
                    edge(x, v, &mut outs);
                }
                g += 1;
                in_round += 1;
                if in_round == file.per_round {
                    in_round = 0;
                    exchange_round(&mut outs, steps, worker, heard)?;
                    rounds += 1;
                    tell(what, g - before, count);
                }
                Ok(())
            },
        )?;
        if let (Some(x), Some(y)) = (pending, place.next_first) {
            edge(x, y, &mut outs);
        }
        while rounds <= place.rounds {
            exchange_round(&mut outs, steps, worker, heard)?;
            rounds += 1;
        }
        Ok(again.bad || more || again.count != count || again.hash != place.counted.hash)
    }
}

/// One round of a reading: each kind of outbox exchanged in turn, what came to `heard`.
fn exchange_round(
    outs: &mut Kinds,
    steps: &mut Steps,
    worker: &mut Worker,
    heard: &mut dyn FnMut(usize, &[u32]),
) -> Result<(), Halt> {
    for (kind, out) in outs.iter_mut().enumerate() {
        let got = steps.exchange(worker, out, [0, 0])?;
        for words in &got.payloads {
            heard(kind, words);
        }
    }
    Ok(())
}

/// The outcome and value of the sum of the tokens (on worker 0; `None` elsewhere), from
/// each owner's part: the nim-sum of the finite values, the count of `∞` tokens, and with
/// exactly one of them, its `K` from the owners of its followers. With them, the bytes sent
/// between processes by all workers so far.
fn sum_of_tokens(
    share: &Share,
    values: &[u32],
    tokens: &[u32],
    steps: &mut Steps,
    worker: &mut Worker,
) -> Result<Option<(Outcome, Option<Value>, u64)>, Halt> {
    let mut nim_sum = 0u32;
    let mut infinite = 0u64;
    let mut which = u32::MAX;
    for &kv in tokens {
        match values[kv as usize] {
            INFINITE => {
                infinite += 1;
                which = share.global(kv as usize);
            }
            x => nim_sum ^= x,
        }
    }
    let mut out = steps.outboxes();
    for batch in &mut out {
        batch.extend([nim_sum, which]);
    }
    let got = steps.exchange(worker, &mut out, [infinite, steps.bytes])?;
    let [infinite, bytes] = got.totals;
    let words: Vec<u32> = got.payloads.concat();
    let nim_sum = words.chunks_exact(2).fold(0, |s, c| s ^ c[0]);
    let mut parts = vec![Value::Finite(Nimber(u64::from(nim_sum)))];
    if infinite == 1 {
        let v = words
            .chunks_exact(2)
            .map(|c| c[1])
            .find(|&x| x != u32::MAX)
            .unwrap_or(u32::MAX);
        // The finite values among the followers of `v`: its followers are the vertices of
        // which it is a predecessor.
        let mut out = steps.outboxes();
        for (k, &x) in values.iter().enumerate() {
            if x != INFINITE && share.preds(k).contains(&v) {
                out[0].push(x);
            }
        }
        let got = steps.exchange(worker, &mut out, [0, 0])?;
        let mut set: Vec<Nimber> = got
            .payloads
            .concat()
            .into_iter()
            .map(|x| Nimber(u64::from(x)))
            .collect();
        set.sort_unstable();
        set.dedup();
        parts.push(Value::Infinite(set));
    } else {
        parts.extend((0..infinite.min(2)).map(|_| Value::Infinite(Vec::new())));
    }
    if worker.index() != 0 {
        return Ok(None);
    }
    Ok(Some((sum_outcome(&parts), sum_value(&parts), bytes)))
}
