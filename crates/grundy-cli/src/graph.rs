//! `grundy graph`: games on explicit graphs (edge lists, the judge format, or the positions of
//! an expression), with values, outcomes, remoteness, sums of tokens, kernels and pictures.

use crate::Failure;
use crate::front::{self, LIMIT_FLAGS, Watch};
use grundy::api::{KernelSummary, TokenSumReport, VertexReport, VertexValue};
use grundy::cluster::graph::Progress;
use grundy::cluster::{Cluster, ClusterError, EdgeAnswer, SolveStats, StartAnswer};
use grundy::control::{Budget, Control, Limits};
use grundy::graph::draw::{check_svg, to_dot, to_svg};
use grundy::graph::explore::{ExploreError, explore};
use grundy::graph::kernel::{KernelError, KernelReport, find_kernel_within};
use grundy::graph::read::{JudgeReader, ReadError, ReadOptions, read_edge_list, read_judge};
use grundy::graph::{
    GameGraph, GraphError, GraphSolution, Names, TokenMove, TokenSum, analyze_tokens,
    judge_outcome, solve, sum_of_tokens,
};
use grundy::sum::{Context, Engine};
use grundy::value::{Outcome, Value};
use grundy::words::count;
use indicatif::ProgressBar;
use std::borrow::Cow;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Solve a game graph: every vertex's value, outcome and remoteness; sums of tokens; kernels;
/// pictures.
///
/// Input formats: an edge list (`FROM TO` per line, a lone `NAME` declares a vertex, `#`
/// comments), or the judge format (`--format judge`; `seed` is another name for it): `N M K`,
/// then M edges `x y` (from x to y, vertices 1 to N), then K vertices holding a token, all
/// numbers separated by any white space wherever the lines break, as a contest judge writes
/// them; it prints `win`, `lose` or `draw` for the player to move. With --cases the input
/// starts with the number T of test cases, each `N M K`, edges and tokens, and one answer is
/// printed per case. A bad number is reported with its line and column. `-` or no file reads
/// standard input.
///
///   grundy graph game.txt                       every vertex: value, outcome, remoteness
///   grundy graph game.txt --tokens a,c,f        the sum of tokens and its winning moves
///   grundy graph --format judge < problem.txt   prints win, lose or draw
///   grundy graph --format judge --cases in.txt  one line per test case
///   grundy graph --expr nim 2 3 --dot g.dot     the positions of a game, drawn
///   grundy graph game.txt --kernel              a kernel, or the proof that none exists
///   grundy graph big.txt --workers 2            solved by two worker threads
///   grundy graph big.txt --cluster hosts.txt --process 0    process 0 of several (each
///                                               process runs this with its own index)
///
/// Graphs with cycles: play can go on for ever, and some positions then equal no Nim heap.
/// Their value is ∞(K), C. A. B. Smith's generalised Sprague-Grundy value (Graphs and
/// composite games, 1966), where K is the set of the finite values among the position's
/// options (`∞()`: no option has one). Alone, ∞(K) is a win for the player to move when 0 is
/// in K (move to that option) and a draw otherwise: neither player can force a win, and the
/// one who would lose keeps the game going for ever; a draw's remoteness is `-`. In a sum of
/// tokens, one ∞(K) beside finite values of nim-sum b is a win for the player to move exactly
/// when b is in K (move it to an option of value b, leaving b ⊕ b = 0) and a draw otherwise;
/// two or more ∞ tokens make a draw. Finite values add by nim-sum as in any acyclic game.
///
/// Exit status: 0 answered, 1 could not compute (a limit was reached), 2 bad input,
/// 130 interrupted.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The graph file; `-` (or nothing) for standard input.
    input: Option<String>,
    /// The input format [default: edges].
    #[arg(long, value_enum, conflicts_with = "expr")]
    format: Option<Format>,
    /// The judge format with several test cases: the input starts with their number T, then
    /// T cases (`N M K`, edges, tokens); prints one answer per case. Implies --format judge.
    #[arg(long, conflicts_with_all = ["expr", "tokens", "kernel", "json", "dot", "svg"])]
    cases: bool,
    /// Explore the positions reachable from this game expression instead of reading a file
    /// (unquoted words are joined: `--expr nim 2 3`).
    #[arg(long, value_name = "EXPR", num_args = 1.., conflicts_with = "input")]
    expr: Option<Vec<String>>,
    /// Vertices holding a token, separated by commas or spaces (`--tokens a,c,f`); the flag
    /// may be repeated. With --expr each value is one position (`--tokens "nim 1 3"`).
    #[arg(long, value_name = "VERTICES")]
    tokens: Vec<String>,
    /// Find a kernel (independent and absorbing), or show that none exists.
    #[arg(long)]
    kernel: bool,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write the graph in Graphviz DOT, coloured by outcome and labelled by value.
    #[arg(long, value_name = "FILE")]
    dot: Option<PathBuf>,
    /// Write an SVG picture (laid out without Graphviz; small graphs only, refused up front
    /// when the layout would be slow).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// With --kernel: the most draw vertices to hand to the SAT solver.
    #[arg(long, default_value_t = grundy::graph::kernel::DEFAULT_MAX_DRAWS)]
    max_kernel_draws: usize,
    /// With --expr: answer for the start position alone (the number of positions and moves,
    /// and the start's value, outcome and remoteness). With --workers or --cluster the
    /// positions are then explored in parts, each worker those it owns: no process holds the
    /// whole graph.
    #[arg(
        long,
        requires = "expr",
        conflicts_with_all = ["tokens", "kernel", "json", "dot", "svg"]
    )]
    start: bool,
    /// With --expr: the most positions to explore.
    #[arg(long, default_value_t = 100_000)]
    max_positions: usize,
    /// With --expr or --kernel: the most units of work (100 a move explored, 16 a step of the
    /// kernel search); the default is the library's `Limits::DEFAULT`, as in `analyze`.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.max_work)]
    max_work: u64,
    /// The most memory the graph may take, in MiB (default: 90% of the available memory).
    #[arg(long, value_name = "MIB")]
    max_memory: Option<u64>,
    /// With --expr: load a rule script (Rhai) whose rule the expression may use.
    #[arg(long, value_name = "FILE", requires = "expr")]
    rules: Vec<PathBuf>,
    /// Solve with this many worker threads (timely dataflow; with --cluster, in each
    /// process). The answers are those of one thread.
    #[arg(long, value_name = "N", default_value_t = 1, conflicts_with = "cases")]
    workers: usize,
    /// Solve over the processes this hosts file names (host:port lines, process 0 first):
    /// every process reads the same input and runs with its own --process; process 0 prints
    /// the answer, the others only progress.
    #[arg(
        long,
        value_name = "HOSTS",
        requires = "process",
        conflicts_with = "cases"
    )]
    cluster: Option<PathBuf>,
    /// This process's index in the hosts file.
    #[arg(long, value_name = "I", requires = "cluster")]
    process: Option<usize>,
    /// The most seconds to wait for every process to connect (with --cluster).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 30.0,
        requires = "cluster"
    )]
    connect_timeout: f64,
}

/// How the graph is solved: one thread (the default), several, or several processes.
enum Solver {
    One,
    Workers(usize),
    Cluster(grundy::cluster::Cluster),
}

impl Solver {
    fn of(args: &Args) -> Result<Solver, Failure> {
        front::check_workers(args.workers)?;
        Ok(match &args.cluster {
            Some(hosts) => Solver::Cluster(front::cluster(
                hosts,
                args.process,
                args.workers,
                args.connect_timeout,
            )?),
            None if args.workers == 1 => Solver::One,
            None => Solver::Workers(args.workers),
        })
    }

    /// Solves `graph`: the solution, or `None` on a process other than 0 (which has
    /// done its share and prints nothing).
    fn solve(
        &self,
        graph: &mut GameGraph,
        cancel: &Arc<AtomicBool>,
    ) -> Result<Option<GraphSolution>, Failure> {
        use grundy::cluster::{solve_on_cluster, solve_with_workers};
        if let Solver::One = self {
            let solved = with_progress("solving", cancel, |c| solve(&graph.csr, c));
            return solved.map(Some).map_err(graph_failure);
        }
        let csr = Arc::new(std::mem::take(&mut graph.csr));
        let run = self.in_parts(
            "",
            cancel,
            |cluster, progress| {
                solve_on_cluster(cluster, Arc::clone(&csr), Arc::clone(cancel), progress)
            },
            |n, progress| solve_with_workers(Arc::clone(&csr), n, Arc::clone(cancel), progress),
            |run| &run.stats,
        )?;
        if run.is_some() {
            // The workers are done with it (a failed run has no use for it: not copied).
            graph.csr = Arc::try_unwrap(csr).unwrap_or_else(|shared| (*shared).clone());
        }
        Ok(run.map(|run| run.solution))
    }

    /// The processes of the cluster (1 without one).
    fn processes(&self) -> usize {
        match self {
            Solver::Cluster(cluster) => cluster.processes(),
            _ => 1,
        }
    }

    /// Runs a solve in parts: `on_cluster` on a cluster, `with_workers` with this process's
    /// workers (never for [`Solver::One`]). The answer is `None` on a process other than 0,
    /// which has done its share and prints nothing; the statistics `stats` finds in the
    /// answer go to standard error; errors name `path` (none if empty).
    fn in_parts<A>(
        &self,
        path: &str,
        cancel: &Arc<AtomicBool>,
        on_cluster: impl FnOnce(&Cluster, Progress) -> Result<Option<A>, ClusterError>,
        with_workers: impl FnOnce(usize, Progress) -> Result<A, ClusterError>,
        stats: impl Fn(&A) -> &SolveStats,
    ) -> Result<Option<A>, Failure> {
        let solved = distributed(|progress| match self {
            Solver::Cluster(cluster) => on_cluster(cluster, progress),
            Solver::Workers(n) => with_workers(*n, progress).map(Some),
            Solver::One => unreachable!("only for several workers"),
        });
        let answer = solved.map_err(|e| cluster_failure(path, e, cancel))?;
        if let Some(answer) = &answer {
            report(stats(answer));
        }
        Ok(answer)
    }

    /// Answers for every vertex of the edge list in the file at `path`, read in parts by the
    /// workers of this process or of the cluster.
    fn edge_file(
        &self,
        path: &str,
        options: &ReadOptions,
        json: bool,
        cancel: &Arc<AtomicBool>,
    ) -> Result<(), Failure> {
        use grundy::cluster::{EdgeFile, edges_on_cluster, edges_with_workers};
        File::open(path).map_err(|e| Failure::input(format!("cannot open {path}: {e}")))?;
        let file = EdgeFile::open(path, options, self.processes())
            .map_err(|e| read_failure(path, e, cancel))?;
        let answer = self.in_parts(
            path,
            cancel,
            |cluster, progress| edges_on_cluster(cluster, &file, Arc::clone(cancel), progress),
            |n, progress| edges_with_workers(&file, n, Arc::clone(cancel), progress),
            |answer| &answer.stats,
        )?;
        match answer {
            Some(answer) => crate::emit_with(|out| edges_text(out, &answer, json)),
            None => Ok(()),
        }
    }

    /// Answers `--start` for the game `start`, explored in parts by the workers of this
    /// process or of the cluster.
    fn start_in_parts(
        &self,
        start: &grundy::sum::Sum,
        catalog: grundy::catalog::Catalog,
        args: &Args,
        cancel: &Arc<AtomicBool>,
    ) -> Result<(), Failure> {
        use grundy::cluster::{Exploration, explore_on_cluster, explore_with_workers};
        let game = Exploration::new(start, catalog, args.max_positions, args.max_work)
            .map_err(|e| cluster_failure("", e, cancel))?;
        let answer = self.in_parts(
            "",
            cancel,
            |cluster, progress| explore_on_cluster(cluster, &game, Arc::clone(cancel), progress),
            |n, progress| explore_with_workers(&game, n, Arc::clone(cancel), progress),
            |answer| &answer.stats,
        )?;
        match answer {
            Some(answer) => crate::emit_with(|out| start_text(out, &answer)),
            None => Ok(()),
        }
    }

    /// Answers the judge problem in the file at `path` with the workers of this process or
    /// of the cluster, each reading its part of the file: no process holds the whole graph.
    fn judge_file(
        &self,
        path: &str,
        options: &ReadOptions,
        cancel: &Arc<AtomicBool>,
    ) -> Result<(), Failure> {
        use grundy::cluster::{JudgeFile, judge_on_cluster, judge_with_workers};
        File::open(path).map_err(|e| Failure::input(format!("cannot open {path}: {e}")))?;
        let file = JudgeFile::open(path, options, self.processes())
            .map_err(|e| read_failure(path, e, cancel))?;
        let answer = self.in_parts(
            path,
            cancel,
            |cluster, progress| judge_on_cluster(cluster, &file, Arc::clone(cancel), progress),
            |n, progress| judge_with_workers(&file, n, Arc::clone(cancel), progress),
            |answer| &answer.stats,
        )?;
        match answer {
            Some(answer) => crate::emit(judge_word(answer.outcome)),
            None => Ok(()),
        }
    }
}

/// Why `--expr` could not be explored, with the hint naming the flag.
fn explore_failure(e: ExploreError) -> Failure {
    match e.budget_error() {
        Some(b) => front::budget_failure(e.to_string(), b, LIMIT_FLAGS),
        None if matches!(e, ExploreError::TooManyPositions { .. }) => Failure::compute(format!(
            "{e}\nhint: raise the limit with --max-positions if memory allows"
        )),
        None => Failure::compute(e.to_string()),
    }
}

/// A table of vertices: the graph's size (vertices, edges, whether acyclic), then `rows`
/// rows with their `name`s and answers (`row`), and the note on `∞(K)` if one has it.
fn table<'a>(
    out: &mut dyn Write,
    (vertices, edges, acyclic): (u64, u64, bool),
    rows: usize,
    name: &dyn Fn(usize) -> Cow<'a, str>,
    row: &dyn Fn(usize) -> (Value, Outcome, Option<u32>),
) -> io::Result<()> {
    let cycles = if acyclic { "no cycles" } else { "with cycles" };
    writeln!(
        out,
        "{}, {}, {cycles}",
        count(vertices, "vertex"),
        count(edges, "edge")
    )?;
    let width = (0..rows)
        .map(|v| name(v).chars().count())
        .max()
        .unwrap_or(0)
        .clamp(6, 40);
    writeln!(
        out,
        "{:<width$}  {:<10}  outcome  remoteness",
        "vertex", "value"
    )?;
    let mut infinite = false;
    for v in 0..rows {
        let (value, outcome, remoteness) = row(v);
        let remoteness = remoteness.map_or("-".to_owned(), |r| r.to_string());
        infinite |= matches!(value, Value::Infinite(_));
        writeln!(
            out,
            "{:<width$}  {:<10}  {:<7}  {remoteness}",
            name(v),
            value.to_string(),
            outcome.to_string(),
        )?;
    }
    if infinite {
        writeln!(out, "{INFINITE_NOTE}")?;
    }
    Ok(())
}

/// The answer of `--start`: the graph's size and the start's row.
fn start_text(out: &mut dyn Write, a: &StartAnswer) -> io::Result<()> {
    table(
        out,
        (a.vertices, a.edges, a.acyclic),
        1,
        &|_| Cow::Borrowed(a.name.as_str()),
        &|_| (a.value.clone(), a.outcome, a.remoteness),
    )
}

/// Every vertex of an edge list read in parts, as one process prints it: text, or JSON in the
/// shape of the library's `GraphReport` (no tokens, no kernel).
fn edges_text(out: &mut dyn Write, a: &EdgeAnswer, json: bool) -> io::Result<()> {
    if json {
        write!(out, "{{\"acyclic\":{},\"vertices\":[", a.acyclic)?;
        for i in 0..a.len() {
            if i > 0 {
                out.write_all(b",")?;
            }
            let v = a.vertex(i);
            let report = VertexReport {
                name: v.name,
                value: VertexValue::from(&v.value),
                outcome: v.outcome,
                remoteness: v.remoteness,
            };
            serde_json::to_writer(&mut *out, &report)?;
        }
        return out.write_all(b"],\"sum\":null,\"kernel\":null}\n");
    }
    table(
        out,
        (a.len() as u64, a.edges, a.acyclic),
        a.len(),
        &|v| Cow::Borrowed(a.name(v)),
        &|v| {
            let x = a.vertex(v);
            (x.value, x.outcome, x.remoteness)
        },
    )
}

/// Runs a distributed solve with a progress bar, timely's panics silenced (a peer that
/// leaves makes its threads panic: that is reported as an error).
fn distributed<T>(
    solve: impl FnOnce(Progress) -> Result<T, ClusterError>,
) -> Result<T, ClusterError> {
    let bar = front::bar(0, "solving".to_owned(), "vertices");
    let shown = bar.clone();
    let progress = Box::new(move |pass: &str, done: u64, total: u64| {
        shown.set_message(pass.to_owned());
        shown.set_length(total);
        shown.set_position(done);
    });
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let solved = solve(progress);
    std::panic::set_hook(previous);
    bar.finish_and_clear();
    solved
}

/// What a distributed solve measured, on standard error.
fn report(s: &SolveStats) {
    eprintln!(
        "solved by {} in {} in {:.2} s: {} steps, {} between processes",
        count(s.workers, "worker"),
        count(s.processes, "process"),
        s.millis as f64 / 1000.0,
        s.steps,
        indicatif::HumanBytes(s.bytes_between_processes)
    );
}

/// A distributed solve's error as a failure; `source` names the input file of a read error.
fn cluster_failure(source: &str, e: ClusterError, cancel: &AtomicBool) -> Failure {
    match e {
        ClusterError::Interrupted => front::interrupted(),
        ClusterError::Read(e) => read_failure(source, e, cancel),
        ClusterError::Explore(e) => explore_failure(e),
        e @ (ClusterError::Hosts { .. } | ClusterError::Process { .. }) => {
            Failure::input(e.to_string())
        }
        e => Failure::compute(e.to_string()),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// `FROM TO` per line, names without spaces.
    Edges,
    /// The judge format: `N M K`, edges `x y`, token vertices, as numbers separated by any
    /// white space; prints `win`, `lose` or `draw` (also called `seed`).
    #[value(alias = "seed")]
    Judge,
}

fn memory_limit(mib: Option<u64>) -> Result<ReadOptions, Failure> {
    if mib.is_some() {
        return Ok(ReadOptions {
            max_bytes: front::mib_limit(mib, 0)?,
        });
    }
    Ok(match grundy::control::memory::available_memory() {
        Some(bytes) => ReadOptions {
            max_bytes: bytes / 10 * 9,
        },
        None => ReadOptions::default(),
    })
}

fn open_input(
    input: &Option<String>,
    cancel: &Arc<AtomicBool>,
) -> Result<(Box<dyn Read>, String), Failure> {
    let (inner, size, source): (Box<dyn Read>, u64, String) = match input.as_deref() {
        None | Some("-") => (Box::new(io::stdin().lock()), 0, "<stdin>".to_owned()),
        Some(path) => {
            let file =
                File::open(path).map_err(|e| Failure::input(format!("cannot open {path}: {e}")))?;
            let size = file.metadata().map(|m| m.len()).unwrap_or(0);
            (Box::new(file), size, path.to_owned())
        }
    };
    let bar = if size > 0 {
        front::bar(size, "reading".to_owned(), "bytes")
    } else {
        front::spinner("reading".to_owned(), "bytes")
    };
    let reader = ProgressReader {
        inner,
        bar,
        cancel: Arc::clone(cancel),
    };
    Ok((Box::new(reader), source))
}

/// Counts the bytes read for the progress bar, and stops reading when interrupted.
struct ProgressReader {
    inner: Box<dyn Read>,
    bar: ProgressBar,
    cancel: Arc<AtomicBool>,
}

impl Read for ProgressReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(io::Error::other("interrupted"));
        }
        let k = self.inner.read(buf)?;
        self.bar.inc(k as u64);
        if k == 0 {
            self.bar.finish_and_clear();
        }
        Ok(k)
    }
}

impl Drop for ProgressReader {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Runs `work` with a progress bar labelled `label` and the interrupt flag.
fn with_progress<T>(
    label: &'static str,
    cancel: &AtomicBool,
    work: impl FnOnce(&mut Control) -> T,
) -> T {
    let bar = front::bar(0, label.to_owned(), "vertices");
    let mut report = |done: u64, total: u64| {
        bar.set_length(total);
        bar.set_position(done);
    };
    let mut control = Control::none()
        .with_progress(&mut report)
        .with_cancel(cancel);
    let result = work(&mut control);
    bar.finish_and_clear();
    result
}

/// A graph computation's error as a failure: an interruption is status 130.
fn graph_failure(e: GraphError) -> Failure {
    match e {
        GraphError::Cancelled => front::interrupted(),
    }
}

/// A reader's error as a failure naming the source; an interrupted read is status 130.
fn read_failure(source: &str, e: ReadError, cancel: &AtomicBool) -> Failure {
    if cancel.load(Ordering::Relaxed) {
        return front::interrupted();
    }
    let hint = match e {
        ReadError::TooLarge { .. } => "\nhint: raise the limit with --max-memory if memory allows",
        _ => "",
    };
    Failure::input(format!("{source}: {e}{hint}"))
}

/// The token list of --tokens: each value is a list separated by commas or white space,
/// unless the whole value names a vertex (a name may hold a comma); with --expr, each value
/// is one position.
fn token_names(values: &[String], expr: bool, graph: &GameGraph) -> Vec<String> {
    if expr {
        return values.to_vec();
    }
    let mut names = Vec::new();
    for v in values {
        if graph.find(v).is_some() {
            names.push(v.clone());
        } else {
            names.extend(
                v.split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|name| !name.is_empty())
                    .map(str::to_owned),
            );
        }
    }
    names
}

/// The judge's word for an outcome.
fn judge_word(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::N => "win\n",
        Outcome::P => "lose\n",
        Outcome::Draw => "draw\n",
    }
}

/// `--cases`: a count of test cases, then each case read and answered in turn (so the memory
/// is that of the largest case); the answers are printed once every case is read, so a bad
/// case prints nothing but the error.
fn run_cases(
    input: &Option<String>,
    options: &ReadOptions,
    cancel: &Arc<AtomicBool>,
) -> Result<(), Failure> {
    let (reader, source) = open_input(input, cancel)?;
    let fail = |e| read_failure(&source, e, cancel);
    let mut judge = JudgeReader::new(reader, options);
    let cases = judge.read_case_count().map_err(fail)?;
    let mut answers: Vec<Outcome> = Vec::new();
    for case in 1..=cases {
        let input = judge.read_case(Some((case, cases))).map_err(fail)?;
        let mut control = Control::none().with_cancel(cancel);
        let outcome =
            judge_outcome(&input.graph, &input.tokens, &mut control).map_err(graph_failure)?;
        // One byte an answer, and every case holds at least three numbers: the answers take
        // a sixth of the input at most.
        answers.try_reserve(1).map_err(|_| {
            Failure::compute(format!("no memory left for the answers after case {case}"))
        })?;
        answers.push(outcome);
    }
    judge.finish_cases(cases).map_err(fail)?;
    crate::emit_with(|out| {
        answers
            .iter()
            .try_for_each(|&a| out.write_all(judge_word(a).as_bytes()))
    })
}

pub fn run(args: Args) -> Result<(), Failure> {
    let options = memory_limit(args.max_memory)?;
    let solver = Solver::of(&args)?;
    let cancel = front::interrupt_flag()?;
    if args.cases {
        if args.format == Some(Format::Edges) {
            return Err(Failure::input(
                "--cases reads the judge format (`--format judge`), not an edge list",
            ));
        }
        return run_cases(&args.input, &options, &cancel);
    }
    let expr = args.expr.as_ref().map(|words| words.join(" "));
    let plain = args.tokens.is_empty()
        && !args.kernel
        && !args.json
        && args.dot.is_none()
        && args.svg.is_none();
    let judge = expr.is_none() && args.format == Some(Format::Judge);
    // A regular file (not standard input, a pipe or a FIFO, which can only be read whole).
    let regular = |p: &&str| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if let Some(path) = args.input.as_deref().filter(regular)
        && judge
        && plain
        && !matches!(solver, Solver::One)
    {
        // A file: each worker reads its part.
        return solver.judge_file(path, &options, &cancel);
    }
    let edge_list = expr.is_none() && args.format != Some(Format::Judge);
    if let Some(path) = args.input.as_deref().filter(regular)
        && edge_list
        && args.tokens.is_empty()
        && !args.kernel
        && args.dot.is_none()
        && args.svg.is_none()
        && !matches!(solver, Solver::One)
    {
        // An edge list in a file: each worker reads its part.
        return solver.edge_file(path, &options, args.json, &cancel);
    }
    let (mut graph, file_tokens) = if let Some(expr) = &expr {
        let catalog = crate::script_rules::catalog(&args.rules)?;
        let sum = catalog
            .parse(expr)
            .map_err(|e| Failure::input(format!("invalid expression\n{}", e.render(expr))))?;
        if args.start && !matches!(solver, Solver::One) {
            // Explored in parts: no process holds the whole graph.
            return solver.start_in_parts(&sum, catalog, &args, &cancel);
        }
        let limits = Limits {
            max_positions: args.max_positions,
            max_work: args.max_work,
            max_bytes: options.max_bytes,
            ..Limits::DEFAULT
        };
        let ctx = Context {
            engine: Engine::Fast,
            budget: Budget::with_cancel_flag(limits, Arc::clone(&cancel)),
            end_table: None,
        };
        let watch = Watch::new("exploring".to_owned(), &ctx.budget);
        let explored = explore(&sum, &ctx, args.max_positions);
        drop(watch);
        let graph = explored.map_err(explore_failure)?;
        (graph, vec![0])
    } else {
        let (reader, source) = open_input(&args.input, &cancel)?;
        match args.format.unwrap_or(Format::Edges) {
            Format::Edges => {
                let graph = read_edge_list(reader, &options)
                    .map_err(|e| read_failure(&source, e, &cancel))?;
                (graph, Vec::new())
            }
            Format::Judge => {
                let input =
                    read_judge(reader, &options).map_err(|e| read_failure(&source, e, &cancel))?;
                if plain && !matches!(solver, Solver::One) {
                    let mut graph = GameGraph {
                        csr: input.graph,
                        names: Names::Numbered,
                    };
                    let Some(solution) = solver.solve(&mut graph, &cancel)? else {
                        return Ok(());
                    };
                    let outcome = sum_of_tokens(&graph.csr, &solution, &input.tokens).1;
                    return crate::emit(judge_word(outcome));
                }
                if plain {
                    let outcome = with_progress("solving", &cancel, |c| {
                        judge_outcome(&input.graph, &input.tokens, c)
                    })
                    .map_err(graph_failure)?;
                    return crate::emit(judge_word(outcome));
                }
                let graph = GameGraph {
                    csr: input.graph,
                    names: Names::Numbered,
                };
                (graph, input.tokens)
            }
        }
    };
    if args.svg.is_some() {
        check_svg(&graph.csr).map_err(|e| Failure::compute(format!("--svg: {e}")))?;
    }
    let tokens = if args.tokens.is_empty() {
        file_tokens
    } else {
        token_names(&args.tokens, expr.is_some(), &graph)
            .iter()
            .map(|name| {
                let found = graph.find(name);
                let found =
                    found.or_else(|| expr.as_ref().and_then(|_| find_position(&graph, name)));
                found.ok_or_else(|| {
                    Failure::input(format!("--tokens: no vertex named `{name}` in the graph"))
                })
            })
            .collect::<Result<Vec<u32>, Failure>>()?
    };
    let Some(solution) = solver.solve(&mut graph, &cancel)? else {
        return Ok(());
    };
    if args.start {
        return crate::emit_with(|out| {
            start_text(
                out,
                &StartAnswer {
                    name: graph.name(0).into_owned(),
                    vertices: graph.vertex_count() as u64,
                    edges: graph.csr.edge_count() as u64,
                    acyclic: solution.acyclic,
                    value: solution.value(&graph.csr, 0),
                    outcome: solution.outcome(0),
                    remoteness: solution.remoteness(0),
                    stats: Default::default(),
                },
            )
        });
    }
    let sum = (!tokens.is_empty()).then(|| analyze_tokens(&graph.csr, &solution, &tokens));
    let kernel = if args.kernel {
        let limits = Limits {
            max_work: args.max_work,
            ..Limits::DEFAULT
        };
        let budget = Budget::with_cancel_flag(limits, Arc::clone(&cancel));
        let watch = Watch::new("kernel search".to_owned(), &budget);
        let found = find_kernel_within(&graph.csr, &solution, args.max_kernel_draws, &budget);
        drop(watch);
        Some(found.map_err(|e| match e {
            KernelError::Budget(b) => front::budget_failure(e.to_string(), b, LIMIT_FLAGS),
            KernelError::TooLarge { .. } => Failure::compute(format!(
                "{e}\nhint: raise the limit with --max-kernel-draws if time allows"
            )),
            KernelError::NoSolver { .. } => Failure::compute(e.to_string()),
        })?)
    } else {
        None
    };
    if let Some(path) = &args.dot {
        front::write_file(path, to_dot(&graph, &solution, &tokens).as_bytes())?;
    }
    if let Some(path) = &args.svg {
        let svg = to_svg(&graph, &solution).map_err(|e| Failure::compute(e.to_string()))?;
        front::write_file(path, svg.as_bytes())?;
    }
    let report = Report {
        graph: &graph,
        solution: &solution,
        tokens: &tokens,
        sum: sum.as_ref(),
        kernel: kernel.as_ref(),
    };
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let written = if args.json {
        report.json(&mut out)
    } else {
        report.text(&mut out)
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stops early (`| head`) is not an error.
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::compute(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// With --expr, a token may name a position in any order of its components (`nim 3 2` for the
/// vertex `nim 2 3`).
fn find_position(graph: &GameGraph, text: &str) -> Option<u32> {
    let key = grundy::catalog::parse(text).ok()?.key();
    (0..graph.vertex_count() as u32)
        .find(|&v| grundy::catalog::parse(&graph.name(v)).is_ok_and(|p| p.key() == key))
}

/// Names separated by spaces, or by commas when a name has a space (positions of --expr).
fn join_names(names: &[std::borrow::Cow<'_, str>]) -> String {
    let separator = if names.iter().any(|n| n.contains(' ')) {
        ", "
    } else {
        " "
    };
    names.join(separator)
}

/// The footnote of a table with `∞(K)` values (the full note is in `grundy graph --help`).
const INFINITE_NOTE: &str = "∞(K): Smith's value of a loopy position; K = the finite values among its \
     options. A win if 0 is in K, else a draw; beside other tokens of nim-sum b, a win if b is \
     in K, else a draw (more in `grundy graph --help`).";

struct Report<'a> {
    graph: &'a GameGraph,
    solution: &'a GraphSolution,
    tokens: &'a [u32],
    sum: Option<&'a TokenSum>,
    kernel: Option<&'a KernelReport>,
}

impl Report<'_> {
    /// JSON in the shape of the library's [`GraphReport`](grundy::api::GraphReport), written
    /// vertex by vertex so that large graphs need no large buffer.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        write!(
            out,
            "{{\"acyclic\":{},\"vertices\":[",
            self.solution.acyclic
        )?;
        for v in 0..self.graph.vertex_count() as u32 {
            if v > 0 {
                out.write_all(b",")?;
            }
            serde_json::to_writer(&mut *out, &VertexReport::of(self.graph, self.solution, v))?;
        }
        out.write_all(b"],\"sum\":")?;
        let sum = self
            .sum
            .map(|s| TokenSumReport::of(self.graph, self.tokens, s));
        serde_json::to_writer(&mut *out, &sum)?;
        out.write_all(b",\"kernel\":")?;
        let kernel = self.kernel.map(|k| KernelSummary {
            vertices: k
                .kernel
                .as_ref()
                .map(|k| k.iter().map(|&v| self.graph.name(v).into_owned()).collect()),
            unique: k.unique,
        });
        serde_json::to_writer(&mut *out, &kernel)?;
        out.write_all(b"}\n")
    }

    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let g = &self.graph.csr;
        let s = self.solution;
        let n = self.graph.vertex_count();
        table(
            out,
            (n as u64, g.edge_count() as u64, s.acyclic),
            n,
            &|v| self.graph.name(v as u32),
            &|v| {
                let v = v as u32;
                (s.value(g, v), s.outcome(v), s.remoteness(v))
            },
        )?;
        if let Some(sum) = self.sum {
            let names: Vec<_> = self.tokens.iter().map(|&t| self.graph.name(t)).collect();
            writeln!(out, "\nSum of tokens at {}", join_names(&names))?;
            match &sum.value {
                Some(v) => writeln!(out, "Value     {v}")?,
                None => writeln!(out, "Value     undetermined (two or more infinite tokens)")?,
            }
            writeln!(out, "Outcome   {}", sum.outcome.describe())?;
            let moves = |title: &str, list: &[TokenMove], out: &mut dyn Write| -> io::Result<()> {
                writeln!(out, "\n{title} ({})", list.len())?;
                for m in list {
                    writeln!(
                        out,
                        "  token {}: {} -> {}",
                        m.token + 1,
                        self.graph.name(m.from),
                        self.graph.name(m.to)
                    )?;
                }
                Ok(())
            };
            if !sum.winning_moves.is_empty() {
                moves("Winning moves", &sum.winning_moves, out)?;
            } else if !sum.drawing_moves.is_empty() {
                moves(
                    "No winning move; moves that keep the draw",
                    &sum.drawing_moves,
                    out,
                )?;
            }
        }
        if let Some(k) = self.kernel {
            match &k.kernel {
                Some(kernel) => {
                    let names: Vec<_> = kernel.iter().map(|&v| self.graph.name(v)).collect();
                    let unique = if k.unique {
                        "the only one"
                    } else {
                        "one of several"
                    };
                    writeln!(
                        out,
                        "\nKernel ({}, {unique}): {}",
                        count(kernel.len(), "vertex"),
                        join_names(&names)
                    )?;
                }
                None => writeln!(
                    out,
                    "\nNo kernel: the P-positions must be in it and the N-positions out, and no \
                     choice among the draws is both independent and absorbing (SAT solver)"
                )?,
            }
        }
        Ok(())
    }
}
