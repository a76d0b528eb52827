//! An edge list (named vertices) solved where it lies: every worker reads its own byte range
//! of the file (a shared path), each name belongs to the worker it hashes to, and no process
//! holds the whole graph; the answers, every vertex's, come back to process 0 in the order
//! one process lists them (the order in which the names first appear).
//!
//! 1. The file is cut into `W` equal byte ranges, one a worker; a line belongs to the range
//!    of its first byte. Each worker reads its lines in rounds of `per_round` lines, and
//!    sends every name with its place (the line's offset, and whether it is a line's first or
//!    second field) to the name's owner, which numbers the names it owns (local index `k`,
//!    global index `k * W + w`, the ownership of the passes) and keeps each one's first place.
//! 2. A second reading sends each edge `x y` to the owner of `x`, which counts it in `x`'s
//!    out-degree and passes `y` on, with `x`'s global index, to the owner of `y`, which keeps
//!    the edge in `y`'s list of predecessors.
//! 3. The passes of [`super`] run on the shares; for `∞(K)` values, the owner of each vertex
//!    with a finite value sends it to the owners of its predecessors (the followers' values
//!    make the `K`s). Every vertex's row (name, first place, value, outcome, remoteness)
//!    goes to worker 0, which sorts the rows by first place.
//!
//! A malformed line (a third field, a name that is not UTF-8), or a file that reads
//! differently the second time, stops every worker at the next round of the reading; each
//! process then reads the file once more, storing nothing ([`check_edge_list`], with the
//! line parser of [`crate::graph::read::read_edge_list`]), for the message one process
//! gives. Memory: a worker keeps its names and their first places, 8 bytes an edge into its
//! vertices until its share is built, the share and the passes' state; process 0 also the
//! rows of every vertex (the answer). `--max-memory` is checked before any connection
//! against four times a process's part of the file, and 128 MiB.

use super::phases::Share;
use super::step::{Steps, Stopped};
use super::words::{ROOM, outcome_of, owner, push_text, take_text, text_words};
use super::{Halt, Progress, Setup, SolveStats, Tell, agree, execute, passes};
use crate::cluster::{Cluster, ClusterError};
use crate::graph::csr::{MAX_EDGES, MAX_VERTICES};
use crate::graph::loopy::{INFINITE, NO_REMOTENESS};
use crate::graph::read::{EdgeLine, ReadError, ReadOptions, check_edge_list, edge_line};
use crate::nimber::Nimber;
use crate::value::{Outcome, Value};
use rustc_hash::FxHashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Seek, SeekFrom};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use timely::worker::Worker;

/// Lines a worker reads between two exchanges of a reading, by default.
pub const LINES_PER_ROUND: u64 = 1 << 18;

/// An edge list on a path every process can read.
#[derive(Clone, Debug)]
pub struct EdgeFile {
    path: PathBuf,
    len: u64,
    per_round: u64,
    /// A hash of the file's first and last mebibyte (copies on several machines must be the
    /// same).
    ends: u64,
}

/// One vertex's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamedVertex {
    /// Its name.
    pub name: String,
    /// Its (generalised) Sprague–Grundy value.
    pub value: Value,
    /// Who wins from it.
    pub outcome: Outcome,
    /// Moves to the end with best play; `None` for a draw.
    pub remoteness: Option<u32>,
}

/// Every vertex's answer, in the order the names first appear in the file, kept compact
/// (32 bytes a vertex and its name's bytes; the `K` of `∞(K)` values on the side).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdgeAnswer {
    rows: Vec<Row>,
    names: String,
    /// The `K` of each `∞(K)` vertex, by its first place.
    sets: FxHashMap<u64, Vec<Nimber>>,
    /// Edges (lines `FROM TO`).
    pub edges: u64,
    /// Whether the graph has no cycle.
    pub acyclic: bool,
    /// What the run measured.
    pub stats: SolveStats,
}

/// A vertex's answer as process 0 keeps it: value (or `INFINITE`), outcome (0 P, 1 N, 2
/// draw), remoteness (or `NO_REMOTENESS`), where its name starts in the names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Row {
    place: u64,
    name: u64,
    value: u32,
    remoteness: u32,
    outcome: u8,
}

impl EdgeAnswer {
    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The name of vertex `i` (in the order of first appearance).
    pub fn name(&self, i: usize) -> &str {
        let start = self.rows[i].name as usize;
        let end = self.names[start..]
            .find('\n')
            .map_or(self.names.len(), |e| start + e);
        &self.names[start..end]
    }

    /// The answer of vertex `i`.
    pub fn vertex(&self, i: usize) -> NamedVertex {
        let r = self.rows[i];
        NamedVertex {
            name: self.name(i).to_owned(),
            value: match r.value {
                INFINITE => Value::Infinite(self.sets.get(&r.place).cloned().unwrap_or_default()),
                x => Value::Finite(Nimber(u64::from(x))),
            },
            outcome: outcome_of(u32::from(r.outcome)),
            remoteness: (r.remoteness != NO_REMOTENESS).then_some(r.remoteness),
        }
    }
}

impl EdgeFile {
    /// Opens `path` (a regular file) and checks that a process's part of it, for each of
    /// `processes` processes, fits in `options`' memory.
    pub fn open(
        path: impl AsRef<Path>,
        options: &ReadOptions,
        processes: usize,
    ) -> Result<EdgeFile, ReadError> {
        let path = path.as_ref().to_path_buf();
        let file = File::open(&path)?;
        let metadata = file.metadata()?;
        if !metadata.is_file() {
            return Err(ReadError::Io(std::io::Error::other(
                "not a regular file (a pipe cannot be read in parts): read it whole",
            )));
        }
        let len = metadata.len();
        let share = len.div_ceil(processes.max(1) as u64);
        options.check(
            || format!("a share of an edge list of {len} bytes"),
            share.saturating_mul(4).saturating_add(128 << 20),
        )?;
        Ok(EdgeFile {
            ends: super::judge::ends_hash(&file, len)?,
            path,
            len,
            per_round: LINES_PER_ROUND,
        })
    }

    /// Sets the lines a worker reads between two exchanges ([`LINES_PER_ROUND`] by default,
    /// at least 1).
    pub fn with_per_round(mut self, lines: u64) -> EdgeFile {
        self.per_round = lines.max(1);
        self
    }

    /// The bytes of worker `w` of `workers`.
    fn range(&self, w: usize, workers: usize) -> Range<u64> {
        let at = |i: usize| (u128::from(self.len) * i as u128 / workers as u128) as u64;
        at(w)..at(w + 1)
    }

    /// The first error of the file, as one process reads it (read again, nothing stored).
    fn first_error(&self) -> ClusterError {
        let read = File::open(&self.path)
            .map_err(ReadError::from)
            .and_then(|file| check_edge_list(BufReader::new(file)));
        match read {
            Err(e) => ClusterError::Read(e),
            Ok(()) => ClusterError::Protocol(format!(
                "{} changed while it was being read",
                self.path.display()
            )),
        }
    }
}

/// Solves the edge list in `file` with `workers` threads of this process, each reading its
/// part of the file.
pub fn edges_with_workers(
    file: &EdgeFile,
    workers: usize,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<EdgeAnswer, ClusterError> {
    let answer = run(Setup::workers(workers, cancel)?, file, progress)?;
    answer.ok_or_else(|| ClusterError::Protocol("the first worker gave no answer".into()))
}

/// Runs this process's part of solving the edge list in `file` (a path every process reads)
/// over `cluster`: process 0 returns the answer, the others `None`.
pub fn edges_on_cluster(
    cluster: &Cluster,
    file: &EdgeFile,
    cancel: Arc<AtomicBool>,
    progress: Progress,
) -> Result<Option<EdgeAnswer>, ClusterError> {
    run(Setup::cluster(cluster, cancel)?, file, progress)
}

fn run(
    setup: Setup,
    file: &EdgeFile,
    progress: Progress,
) -> Result<Option<EdgeAnswer>, ClusterError> {
    let processes = setup.processes;
    let mine = file.clone();
    let work = move |steps: &mut Steps, worker: &mut Worker, tell: &mut Tell<'_>| {
        let started = std::time::Instant::now();
        steps.per_step = mine.per_round.saturating_mul(4);
        let print = [mine.len, mine.per_round]
            .into_iter()
            .fold(mine.ends, crate::hash::mix);
        agree(print, steps, worker, |other, first| {
            format!(
                "process {other} read another file than process {first} (its length or its \
                 first or last mebibyte differ): every process needs the same file"
            )
        })?;
        let mut names = Names::default();
        let mut reader = Reader {
            file: &mine,
            range: mine.range(worker.index(), worker.peers()),
            steps,
            worker,
            tell,
        };
        let read = read_names(&mut reader, &mut names)?;
        let (share, edges) = read_edges(&mut reader, &names, read)?;
        let local = passes(&share, steps, worker, tell)?;
        let sets = infinite_sets(&share, &local.values, steps, worker)?;
        let rows = gather_rows(&names, &local, &sets, steps, worker)?;
        Ok(rows.map(|(rows, names, sets, bytes)| EdgeAnswer {
            rows,
            names,
            sets,
            edges,
            acyclic: local.acyclic,
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

/// What [`lines_in`] calls for each line.
type EachLine<'a> = dyn FnMut(u64, &[u8]) -> Result<(), Halt> + 'a;

/// Calls `each(offset, line)` for every line whose first byte lies in `range` (without its
/// `\n` or `\r\n`; a byte-order mark at the very start is skipped, as one process skips it).
/// `Ok(false)` when the file could not be read (the one-process reader then says why).
fn lines_in(path: &Path, range: Range<u64>, each: &mut EachLine<'_>) -> Result<bool, Halt> {
    let Ok(mut file) = File::open(path) else {
        return Ok(false);
    };
    let mut at = range.start.saturating_sub(1);
    if file.seek(SeekFrom::Start(at)).is_err() {
        return Ok(false);
    }
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut buf = Vec::new();
    if range.start > 0 {
        // The rest of the line holding the byte before the range is the previous range's.
        match reader.read_until(b'\n', &mut buf) {
            Ok(n) => at += n as u64,
            Err(_) => return Ok(false),
        }
    }
    while at < range.end {
        buf.clear();
        let Ok(n) = reader.read_until(b'\n', &mut buf) else {
            return Ok(false);
        };
        if n == 0 {
            break;
        }
        let start = at;
        at += n as u64;
        let mut line = &buf[..];
        if start == 0 {
            line = line.strip_prefix(b"\xef\xbb\xbf").unwrap_or(line);
        }
        line = line.strip_suffix(b"\n").unwrap_or(line);
        line = line.strip_suffix(b"\r").unwrap_or(line);
        each(start, line)?;
    }
    Ok(true)
}

/// The names a worker owns.
#[derive(Default)]
struct Names {
    ids: FxHashMap<Box<str>, u32>,
    /// Each name's first place: its line's offset times 2, plus 1 for a second field.
    first: Vec<u64>,
}

impl Names {
    fn meet(&mut self, name: &str, place: u64) {
        match self.ids.get(name) {
            Some(&k) => {
                let f = &mut self.first[k as usize];
                *f = (*f).min(place);
            }
            None => {
                self.ids.insert(name.into(), self.first.len() as u32);
                self.first.push(place);
            }
        }
    }
}

/// What a worker's reading of its range saw.
struct Reading {
    /// Lines, and a hash of their places and lengths (the second reading must see the same).
    lines: u64,
    hash: u64,
    /// Whether something was wrong in the last round (a name its owner does not hold: the
    /// file changed): to be told with the next exchange.
    bad: bool,
}

/// What the first reading learnt, the same on every worker.
#[derive(Clone, Copy)]
struct FirstReading {
    /// Vertices of the largest worker.
    most: u64,
    /// This worker's lines: their count and a hash of their places and lengths.
    lines: u64,
    hash: u64,
}

/// Outboxes by kind, each a batch for every worker.
type Kinds = [Vec<Vec<u32>>];

/// What a line of a reading sends: its messages put in the outboxes (`false`: bad).
type OnLine<'a> = dyn FnMut(u64, EdgeLine<'_>, &mut Kinds) -> bool + 'a;

/// What a worker does with the words of one kind it was sent; it may fill the outboxes of
/// later kinds (`false`: a message that does not fit the names it holds).
type OnHeard<'a> = dyn FnMut(usize, &[u32], &mut Kinds) -> bool + 'a;

/// A worker's readings of its range.
struct Reader<'a, 'w> {
    file: &'a EdgeFile,
    range: Range<u64>,
    steps: &'a mut Steps,
    worker: &'a mut Worker,
    tell: &'a mut Tell<'w>,
}

impl Reader<'_, '_> {
    /// Reads this worker's lines in rounds, with every worker: `line` puts a line's messages
    /// in the outboxes of each kind; after each round each kind is exchanged in turn and
    /// `heard` takes what came. Ends when every worker has read its range; a bad line on any
    /// worker stops every one with [`Halt::BadInput`].
    fn run(
        &mut self,
        kinds: usize,
        what: &str,
        line: &mut OnLine<'_>,
        heard: &mut OnHeard<'_>,
    ) -> Result<Reading, Halt> {
        let Reader {
            file,
            range,
            steps,
            worker,
            tell,
        } = self;
        rounds(
            file,
            range.clone(),
            kinds,
            what,
            (steps, worker, tell),
            line,
            heard,
        )
    }
}

/// [`Reader::run`].
fn rounds(
    file: &EdgeFile,
    range: Range<u64>,
    kinds: usize,
    what: &str,
    (steps, worker, tell): (&mut Steps, &mut Worker, &mut Tell<'_>),
    line: &mut OnLine<'_>,
    heard: &mut OnHeard<'_>,
) -> Result<Reading, Halt> {
    let mut outs = vec![steps.outboxes(); kinds];
    let (mut lines, mut hash, mut in_round, mut bad) = (0u64, 0u64, 0u64, false);
    let mut round = |outs: &mut Vec<Vec<Vec<u32>>>,
                     reading: bool,
                     bad: &mut bool,
                     steps: &mut Steps,
                     worker: &mut Worker|
     -> Result<bool, Halt> {
        let mut going = false;
        for kind in 0..kinds {
            let counts = [u64::from(reading), u64::from(*bad)];
            let got = steps.exchange(worker, &mut outs[kind], counts)?;
            if kind == 0 {
                if got.totals[1] > 0 {
                    return Err(Halt::BadInput);
                }
                going = got.totals[0] > 0;
            }
            for words in &got.payloads {
                *bad |= !heard(kind, words, outs);
            }
        }
        Ok(going)
    };
    let read = lines_in(&file.path, range, &mut |at, text| {
        lines += 1;
        hash = crate::hash::mix(crate::hash::mix(hash, at), text.len() as u64);
        match edge_line(text, 0) {
            Ok(parsed) => bad |= !line(at, parsed, &mut outs),
            Err(_) => bad = true,
        }
        in_round += 1;
        if in_round == file.per_round || bad {
            // A stop asked here (Ctrl-C) goes with this exchange: every worker sees it.
            in_round = 0;
            round(&mut outs, true, &mut bad, steps, worker)?;
            tell(what, lines, 0);
        }
        Ok(())
    });
    match read {
        Ok(true) => {}
        Ok(false) => bad = true,
        // Every worker saw it in the same exchange.
        Err(halt) => return Err(halt),
    }
    while round(&mut outs, false, &mut bad, steps, worker)? {}
    Ok(Reading { lines, hash, bad })
}

/// The first reading: every name to its owner, which numbers it.
fn read_names(reader: &mut Reader<'_, '_>, names: &mut Names) -> Result<FirstReading, Halt> {
    let peers = reader.worker.peers();
    let send = |outs: &mut [Vec<Vec<u32>>], name: &str, place: u64| {
        let out = &mut outs[0][owner(name, peers)];
        out.extend([place as u32, (place >> 32) as u32]);
        push_text(out, name);
    };
    let read = reader.run(
        1,
        "reading: names",
        &mut |at, line, outs| {
            match line {
                EdgeLine::Vertex(a) => send(outs, a, 2 * at),
                EdgeLine::Edge(a, b) => {
                    send(outs, a, 2 * at);
                    send(outs, b, 2 * at + 1);
                }
                EdgeLine::Empty => {}
            }
            true
        },
        &mut |_, words, _| {
            let mut i = 0;
            while i + 2 < words.len() {
                let place = u64::from(words[i]) | (u64::from(words[i + 1]) << 32);
                i += 2;
                let Some(name) = take_text(words, &mut i) else {
                    return false;
                };
                names.meet(&name, place);
            }
            i == words.len()
        },
    )?;
    // Every worker learns the most names of one worker, and whether there are too many.
    let (steps, worker) = (&mut *reader.steps, &mut *reader.worker);
    let mut out = steps.outboxes();
    let owned = names.first.len() as u64;
    for batch in &mut out {
        batch.extend([owned as u32, (owned >> 32) as u32]);
    }
    let got = steps.exchange(worker, &mut out, [owned, u64::from(read.bad)])?;
    let most = got
        .payloads
        .iter()
        .flat_map(|w| w.chunks_exact(2))
        .map(|c| u64::from(c[0]) | (u64::from(c[1]) << 32))
        .max()
        .unwrap_or(0);
    if got.totals[1] > 0 {
        return Err(Halt::BadInput);
    }
    // Global indices are 32 bits: `k * W + w` for the most names of one worker.
    if got.totals[0] > MAX_VERTICES || (most + 1).saturating_mul(peers as u64) > MAX_VERTICES {
        return Err(Halt::Different(format!(
            "the edge list names {} vertices, {most} of them on one of {peers} workers: more \
             than the {MAX_VERTICES} this tool can number",
            got.totals[0]
        )));
    }
    Ok(FirstReading {
        most,
        lines: read.lines,
        hash: read.hash,
    })
}

/// The second reading: each edge `x y` to the owner of `x` (its out-degree), passed on to the
/// owner of `y` (a predecessor); then this worker's share. Returns the share and the edges of
/// all workers.
fn read_edges(
    reader: &mut Reader<'_, '_>,
    names: &Names,
    first: FirstReading,
) -> Result<(Share, u64), Halt> {
    let (w, peers) = (reader.worker.index(), reader.worker.peers());
    let mut share = Share::empty(first.most * peers as u64, w, peers);
    let mut preds: Vec<(u32, u32)> = Vec::new();
    let mut edges = 0u64;
    let global = |k: u32| k * peers as u32 + w as u32;
    let read = reader.run(
        2,
        "reading: edges",
        &mut |_, line, outs| {
            if let EdgeLine::Edge(a, b) = line {
                let out = &mut outs[0][owner(a, peers)];
                push_text(out, a);
                push_text(out, b);
                edges += 1;
            }
            true
        },
        &mut |kind, words, outs| {
            let mut i = 0;
            if kind == 0 {
                let degree = share.out_degree_mut();
                while i < words.len() {
                    let (Some(a), Some(b)) = (take_text(words, &mut i), take_text(words, &mut i))
                    else {
                        return false;
                    };
                    let Some(&ka) = names.ids.get(a.as_str()) else {
                        return false;
                    };
                    degree[ka as usize] += 1;
                    let out = &mut outs[1][owner(&b, peers)];
                    out.push(global(ka));
                    push_text(out, &b);
                }
            } else {
                while i < words.len() {
                    let x = words[i];
                    i += 1;
                    let Some(b) = take_text(words, &mut i) else {
                        return false;
                    };
                    let Some(&kb) = names.ids.get(b.as_str()) else {
                        return false;
                    };
                    preds.push((kb, x));
                }
            }
            true
        },
    )?;
    // The same lines as the first time, and not too many edges, on every worker.
    let changed = read.bad || read.lines != first.lines || read.hash != first.hash;
    let (steps, worker) = (&mut *reader.steps, &mut *reader.worker);
    let mut out = steps.outboxes();
    let got = steps.exchange(worker, &mut out, [edges, u64::from(changed)])?;
    if got.totals[1] > 0 || got.totals[0] > MAX_EDGES {
        return Err(Halt::BadInput);
    }
    share.fill_from(&preds);
    Ok((share, got.totals[0]))
}

/// The `K` of every `∞(K)` vertex of this worker (sorted, without repeats), by local index:
/// the owner of each vertex with a finite value sends it to the owners of its predecessors,
/// at most `per_step` messages a step.
fn infinite_sets(
    share: &Share,
    values: &[u32],
    steps: &mut Steps,
    worker: &mut Worker,
) -> Result<FxHashMap<u32, Vec<Nimber>>, Stopped> {
    let mut sets: FxHashMap<u32, Vec<Nimber>> = FxHashMap::default();
    for (k, &x) in values.iter().enumerate() {
        if x == INFINITE {
            sets.insert(k as u32, Vec::new());
        }
    }
    // Whether any vertex anywhere has an ∞ value.
    let mut out = steps.outboxes();
    let got = steps.exchange(worker, &mut out, [sets.len() as u64, 0])?;
    if got.totals[0] == 0 {
        return Ok(sets);
    }
    let owners = share.owners();
    let mut next = 0usize;
    loop {
        let mut out = steps.outboxes();
        let mut sent = 0u64;
        while next < share.len() && sent < steps.per_step {
            let x = values[next];
            if x != INFINITE {
                for &v in share.preds(next) {
                    let (o, kv) = owners.locate(v);
                    out[o].extend([kv as u32, x]);
                    sent += 1;
                }
            }
            next += 1;
        }
        let left = u64::from(next < share.len());
        let got = steps.exchange(worker, &mut out, [left, 0])?;
        for m in got.payloads.iter().flat_map(|w| w.chunks_exact(2)) {
            if let Some(set) = sets.get_mut(&m[0]) {
                set.push(Nimber(u64::from(m[1])));
            }
        }
        if got.totals[0] == 0 {
            break;
        }
    }
    for set in sets.values_mut() {
        set.sort_unstable();
        set.dedup();
    }
    Ok(sets)
}

/// What worker 0 gathers: the rows sorted by first place, the names (each ended by a
/// newline, which no name holds), the `K`s by first place, the bytes sent between processes.
type Gathered = (Vec<Row>, String, FxHashMap<u64, Vec<Nimber>>, u64);

/// Every vertex's row on worker 0, in the order of first places; `None` on the others.
fn gather_rows(
    names: &Names,
    local: &super::Local,
    sets: &FxHashMap<u32, Vec<Nimber>>,
    steps: &mut Steps,
    worker: &mut Worker,
) -> Result<Option<Gathered>, Stopped> {
    let mut mine: Vec<(&str, u32)> = names.ids.iter().map(|(n, &k)| (&**n, k)).collect();
    mine.sort_unstable_by_key(|&(_, k)| k);
    let mut rows: Vec<Row> = Vec::new();
    let mut text = String::new();
    let mut infinite: FxHashMap<u64, Vec<Nimber>> = FxHashMap::default();
    let mut next = 0usize;
    loop {
        let mut out = steps.outboxes();
        let batch = &mut out[0];
        while let Some(&(name, k)) = mine.get(next) {
            let k = k as usize;
            let set = sets.get(&(k as u32)).map_or(&[][..], Vec::as_slice);
            if batch.len() + 6 + set.len() + text_words(name.len()) > ROOM && !batch.is_empty() {
                break;
            }
            let place = names.first[k];
            batch.extend([
                place as u32,
                (place >> 32) as u32,
                local.values[k],
                u32::from(local.outcomes[k]),
                local.remoteness[k],
                set.len() as u32,
            ]);
            batch.extend(set.iter().map(|x| x.0 as u32));
            push_text(batch, name);
            next += 1;
        }
        let left = u64::from(next < mine.len());
        let bytes = steps.bytes;
        let got = steps.exchange(worker, &mut out, [left, bytes])?;
        if worker.index() == 0 {
            for words in &got.payloads {
                let mut i = 0;
                while i + 6 <= words.len() {
                    let m = &words[i..i + 6];
                    let place = u64::from(m[0]) | (u64::from(m[1]) << 32);
                    let set_len = m[5] as usize;
                    if m[2] == INFINITE {
                        let set = words[i + 6..i + 6 + set_len].iter();
                        infinite.insert(place, set.map(|&x| Nimber(u64::from(x))).collect());
                    }
                    i += 6 + set_len;
                    // Whole (payloads arrive whole) and UTF-8 (it was a `str`).
                    let name = take_text(words, &mut i).unwrap_or_default();
                    rows.push(Row {
                        place,
                        name: text.len() as u64,
                        value: m[2],
                        remoteness: m[4],
                        outcome: m[3] as u8,
                    });
                    text.push_str(&name);
                    text.push('\n');
                }
            }
        }
        if got.totals[0] == 0 {
            if worker.index() != 0 {
                return Ok(None);
            }
            rows.sort_unstable_by_key(|r| r.place);
            return Ok(Some((rows, text, infinite, got.totals[1])));
        }
    }
}
