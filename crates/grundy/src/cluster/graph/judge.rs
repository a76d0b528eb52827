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
//! 3. A second reading sends, in rounds of [`PER_ROUND`] numbers a worker, `(y, x)` to the
//!    owner of `y` (the predecessors) and `x` to the owner of `x` (the out-degree); then the
//!    passes of [`super`] run on the shares.
//! 4. The tokens' owners add their values (the nim-sum and the count of `∞`); with exactly one
//!    `∞` token, its `K` is collected from the owners of its followers. Process 0 answers by
//!    Smith's rules, as [`crate::graph::judge_outcome`] does.
//!
//! A malformed input stops every worker after step 2; each process then reads the file with
//! the one-process reader ([`JudgeReader::check`]) for the same message as one process gives.
//! Memory a process, for `P` processes: the share (out-degrees, predecessor lists, the
//! passes' state) and, at the peaks, the received `(y, x)` pairs until they are sorted into
//! predecessor lists and a step's messages: measured 25 to 30 bytes an edge of the share
//! (the numbers themselves are never stored); `--max-memory` is checked against 32 bytes an
//! edge and 80 a vertex.

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

/// Numbers a worker reads between two exchanges of the second reading, by default: the
/// outboxes of a round hold about 6 bytes a number (64 MiB).
pub const PER_ROUND: u64 = 1 << 23;

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
            .fold(self.ends, |h, x| {
                (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95)
            });
        Fingerprint {
            vertices: h.vertices as u32,
            edges: h.edges as u32,
            hash,
        }
    }
}

/// A hash of the first and the last mebibyte of a file of `len` bytes.
fn ends_hash(mut file: &File, len: u64) -> Result<u64, ReadError> {
    const MIB: u64 = 1 << 20;
    let mut h = 0u64;
    for start in [0, len.saturating_sub(MIB)] {
        file.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::with_capacity(MIB as usize);
        file.take(MIB).read_to_end(&mut buf)?;
        h = buf.iter().fold(h, |h, &b| {
            (h.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95)
        });
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
        mine.fingerprint().compare(steps, worker)?;
        let (share, tokens) = load(&mine, steps, worker, tell)?;
        let local = passes(&share, steps, worker, tell)?;
        let answer = sum_of_tokens(&share, &local.values, &tokens, steps, worker)?;
        Ok(answer.map(|(outcome, value, bytes)| JudgeAnswer {
            outcome,
            value,
            stats: SolveStats {
                processes,
                workers: worker.peers(),
                steps: steps.steps,
                bytes_between_processes: bytes,
                acyclic: local.acyclic,
                millis: started.elapsed().as_millis() as u64,
            },
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
}

/// Reads the numbers whose first byte lies in `range` (the last may run past its end), each
/// checked to be in `1..=n` and handed 0-based to `each`; a bad token ends the reading, and
/// so does `cancelled` (looked at every mebibyte: the next exchange then stops every worker).
fn scan(
    path: &Path,
    range: Range<u64>,
    body: u64,
    n: u64,
    cancelled: &dyn Fn() -> bool,
    each: &mut dyn FnMut(u32) -> Result<(), Halt>,
) -> Result<Scanned, Halt> {
    let mut found = Scanned::default();
    let Ok(mut file) = File::open(path) else {
        found.bad = true;
        return Ok(found);
    };
    // From the byte before the range: a number running into it belongs to the range before.
    let from = if range.start > body {
        range.start - 1
    } else {
        range.start
    };
    if file.seek(SeekFrom::Start(from)).is_err() {
        found.bad = true;
        return Ok(found);
    }
    let mut buf = vec![0u8; 1 << 20];
    let mut offset = from;
    let mut skipping = range.start > body;
    let mut first_byte = range.start > body;
    let (mut in_token, mut value, mut digits, mut token_bad) = (false, 0u64, 0u32, false);
    let mut finish = |value: u64, digits: u32, token_bad: bool, found: &mut Scanned| {
        if token_bad || digits == 0 || digits >= 64 || value == 0 || value > n {
            found.bad = true;
            return Ok(());
        }
        let v = (value - 1) as u32;
        found.first.get_or_insert(v);
        found.count += 1;
        each(v)
    };
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
        for &b in &buf[..got] {
            if first_byte {
                // The byte before the range: a space there means no number runs into it.
                first_byte = false;
                skipping = !is_space(b);
                offset += 1;
                continue;
            }
            if is_space(b) {
                if in_token {
                    in_token = false;
                    finish(value, digits, token_bad, &mut found)?;
                    if found.bad {
                        return Ok(found);
                    }
                }
                skipping = false;
            } else if !skipping {
                if !in_token {
                    if offset >= range.end {
                        break 'reading;
                    }
                    (in_token, value, digits, token_bad) = (true, 0, 0, false);
                }
                let d = b.wrapping_sub(b'0');
                if d > 9 {
                    token_bad = true;
                } else if !token_bad {
                    digits += 1;
                    value = value * 10 + u64::from(d);
                    // Leading zeros keep it small; anything past N is refused anyway.
                    token_bad = value > n;
                }
            }
            offset += 1;
        }
        if !in_token && !skipping && offset >= range.end {
            break;
        }
    }
    if in_token {
        finish(value, digits, token_bad, &mut found)?;
    }
    Ok(found)
}

/// Reads this worker's range twice (a count, then the edges sent to their owners) and
/// builds its share; returns the share and the local indices of the tokens it owns.
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
    let before: u64 = all[..w].iter().map(count).sum();
    let next_first = all[w + 1..].iter().find(|c| count(c) > 0).map(|c| c[3]);
    let longest = all.iter().map(count).max().unwrap_or(0);
    let per_round = file.per_round;
    let rounds = longest.div_ceil(per_round);

    // The second reading: edges to their owners, in rounds.
    let mut share = Share::empty(n, w, peers);
    let mut pairs: Vec<Vec<u32>> = Vec::new();
    let mut token_vertices: Vec<u32> = Vec::new();
    let mut outs = Outboxes {
        pairs: steps.outboxes(),
        degrees: steps.outboxes(),
    };
    let mut g = before;
    let mut pending: Option<u32> = None;
    let mut done_rounds = 0u64;
    let mut in_round = 0u64;
    let send = |x: u32, y: u32, outs: &mut Outboxes, share: &Share| {
        let (owner, _) = share.locate(y);
        outs.pairs[owner].extend([y, x]);
        let (owner, kx) = share.locate(x);
        outs.degrees[owner].push(kx as u32);
    };
    let round = |outs: &mut Outboxes,
                 share: &mut Share,
                 pairs: &mut Vec<Vec<u32>>,
                 steps: &mut Steps,
                 worker: &mut Worker|
     -> Result<(), Halt> {
        let got = steps.exchange(worker, &mut outs.pairs, [0, 0])?;
        pairs.extend(got.payloads);
        let got = steps.exchange(worker, &mut outs.degrees, [0, 0])?;
        let degree = share.out_degree_mut();
        for words in &got.payloads {
            for &kx in words {
                degree[kx as usize] += 1;
            }
        }
        Ok(())
    };
    let last = before + counted.count;
    let mut more = false;
    let again = scan(&file.path, range.clone(), body, n, &cancelled, &mut |v| {
        if g == last {
            // The file changed since the first reading: read no further, say so below.
            more = true;
            return Ok(());
        }
        if g < 2 * m {
            if g % 2 == 0 {
                pending = Some(v);
            } else if let Some(x) = pending.take() {
                send(x, v, &mut outs, &share);
            }
        } else {
            token_vertices.push(v);
        }
        g += 1;
        in_round += 1;
        if in_round == per_round {
            in_round = 0;
            round(&mut outs, &mut share, &mut pairs, steps, worker)?;
            done_rounds += 1;
            tell("reading", g - before, counted.count);
        }
        Ok(())
    })?;
    if let (Some(x), Some(y)) = (pending, next_first) {
        send(x, y, &mut outs, &share);
    }
    while done_rounds <= rounds {
        round(&mut outs, &mut share, &mut pairs, steps, worker)?;
        done_rounds += 1;
    }
    // The tokens to their owners; whether any worker read something else this time.
    let changed = again.bad || more || again.count != counted.count;
    let mut out = steps.outboxes();
    for v in token_vertices {
        let (owner, kv) = share.locate(v);
        out[owner].push(kv as u32);
    }
    let got = steps.exchange(worker, &mut out, [u64::from(changed), 0])?;
    if got.totals[0] > 0 {
        return Err(Halt::BadInput);
    }
    let tokens: Vec<u32> = got.payloads.concat();
    share.fill_preds(|each| {
        for words in &pairs {
            for m in words.chunks_exact(2) {
                each(m[0], m[1]);
            }
        }
    });
    Ok((share, tokens))
}

/// The outboxes of a reading round: `(y, x)` pairs to the owner of `y`, the local index of
/// `x` to its owner.
struct Outboxes {
    pairs: Vec<Vec<u32>>,
    degrees: Vec<Vec<u32>>,
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
