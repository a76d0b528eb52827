//! `grundy graph`: games on explicit graphs (edge lists, the judge format, or the positions of
//! an expression), with values, outcomes, remoteness, sums of tokens, kernels and pictures.

use crate::Failure;
use grundy::control::Control;
use grundy::graph::draw::{to_dot, to_svg};
use grundy::graph::explore::explore;
use grundy::graph::kernel::{KernelReport, find_kernel};
use grundy::graph::read::{ReadOptions, read_edge_list, read_judge};
use grundy::graph::{
    GameGraph, GraphSolution, Names, TokenMove, TokenSum, analyze_tokens, first_player_wins, solve,
};
use grundy::sum::Context;
use grundy::value::Value;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

/// Solve a game graph: every vertex's value, outcome and remoteness; sums of tokens; kernels;
/// pictures.
///
/// Input formats: an edge list (`FROM TO` per line, a lone `NAME` declares a vertex, `#`
/// comments), or the judge format (`N M K`, then M edges `x y`, then K token vertices;
/// prints `win` or `lose`). `-` or no file reads standard input.
///
///   grundy graph game.txt                      every vertex: value, outcome, remoteness
///   grundy graph game.txt --tokens a c f       the sum of tokens and its winning moves
///   grundy graph --format seed < problem.txt   prints win or lose
///   grundy graph --expr "nim 2 3" --dot g.dot  the positions of a game, drawn
///   grundy graph game.txt --kernel             a kernel, or the proof that none exists
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The graph file; `-` (or nothing) for standard input.
    input: Option<String>,
    /// The input format.
    #[arg(long, value_enum, default_value_t = Format::Edges)]
    format: Format,
    /// Explore the positions reachable from this game expression instead of reading a file.
    #[arg(long, value_name = "EXPR", conflicts_with = "input")]
    expr: Option<String>,
    /// Vertices holding a token: analyse their sum and give the winning moves.
    #[arg(long, num_args = 1.., value_name = "VERTEX")]
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
    /// Write an SVG picture (laid out without Graphviz; up to 2000 vertices).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// With --kernel: the most draw vertices to hand to the SAT solver.
    #[arg(long, default_value_t = grundy::graph::kernel::DEFAULT_MAX_DRAWS)]
    max_kernel_draws: usize,
    /// With --expr: the most positions to explore.
    #[arg(long, default_value_t = 100_000)]
    max_positions: usize,
    /// The most memory the graph may take, in MiB (default: 90% of the available memory).
    #[arg(long, value_name = "MIB")]
    max_memory: Option<u64>,
    /// With --expr: load a rule script (Rhai) whose rule the expression may use.
    #[arg(long, value_name = "FILE", requires = "expr")]
    rules: Vec<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// `FROM TO` per line, names without spaces.
    Edges,
    /// The judge format `N M K`, edges, token vertices; prints `win` or `lose`.
    #[value(alias = "judge")]
    Seed,
}

fn memory_limit(mib: Option<u64>) -> ReadOptions {
    if let Some(mib) = mib {
        return ReadOptions {
            max_bytes: mib << 20,
        };
    }
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|rest| {
                    rest.trim()
                        .trim_end_matches("kB")
                        .trim()
                        .parse::<u64>()
                        .ok()
                })
        });
    match available {
        Some(kib) => ReadOptions {
            max_bytes: kib * 1024 / 10 * 9,
        },
        None => ReadOptions::default(),
    }
}

fn open_input(input: &Option<String>) -> Result<(Box<dyn Read>, String), Failure> {
    match input.as_deref() {
        None | Some("-") => Ok((Box::new(io::stdin().lock()), "<stdin>".to_owned())),
        Some(path) => {
            let file =
                File::open(path).map_err(|e| Failure::input(format!("cannot open {path}: {e}")))?;
            let size = file.metadata().map(|m| m.len()).unwrap_or(0);
            if show_progress() && size > 0 {
                let reader = ProgressReader {
                    inner: file,
                    done: 0,
                    total: size,
                    meter: Meter::new("reading"),
                };
                return Ok((Box::new(reader), path.to_owned()));
            }
            Ok((Box::new(file), path.to_owned()))
        }
    }
}

/// Progress goes to standard error, and only when it is a terminal.
fn show_progress() -> bool {
    use std::io::IsTerminal;
    io::stderr().is_terminal()
}

/// A progress line on standard error, redrawn at most four times a second.
struct Meter {
    label: &'static str,
    last: std::time::Instant,
    shown: bool,
}

impl Meter {
    fn new(label: &'static str) -> Self {
        Meter {
            label,
            last: std::time::Instant::now(),
            shown: false,
        }
    }

    fn update(&mut self, done: u64, total: u64) {
        if self.last.elapsed().as_millis() >= 250 && total > 0 {
            self.last = std::time::Instant::now();
            self.shown = true;
            eprint!("\r{}: {:>3}%", self.label, done.min(total) * 100 / total);
        }
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if self.shown {
            eprint!("\r{}\r", " ".repeat(self.label.len() + 6));
        }
    }
}

/// Counts the bytes read from a file for the progress line.
struct ProgressReader<R> {
    inner: R,
    done: u64,
    total: u64,
    meter: Meter,
}

impl<R: Read> Read for ProgressReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.done += k as u64;
        self.meter.update(self.done, self.total);
        Ok(k)
    }
}

/// Runs `work` with a progress line labelled `label` when standard error is a terminal.
fn with_progress<T>(label: &'static str, work: impl FnOnce(&mut Control) -> T) -> T {
    if !show_progress() {
        return work(&mut Control::none());
    }
    let mut meter = Meter::new(label);
    let mut report = |done: u64, total: u64| meter.update(done, total);
    let mut control = Control::none().with_progress(&mut report);
    work(&mut control)
}

pub fn run(args: Args) -> Result<(), Failure> {
    let options = memory_limit(args.max_memory);
    let (graph, file_tokens) = if let Some(expr) = &args.expr {
        let sum = crate::script_rules::catalog(&args.rules)?
            .parse(expr)
            .map_err(|e| Failure::input(format!("invalid expression\n{}", e.render(expr))))?;
        let graph = explore(&sum, &Context::default(), args.max_positions)
            .map_err(|e| Failure::compute(e.to_string()))?;
        (graph, vec![0])
    } else {
        let (reader, source) = open_input(&args.input)?;
        match args.format {
            Format::Edges => {
                let graph = read_edge_list(reader, &options)
                    .map_err(|e| Failure::input(format!("{source}: {e}")))?;
                (graph, Vec::new())
            }
            Format::Seed => {
                let input = read_judge(reader, &options)
                    .map_err(|e| Failure::input(format!("{source}: {e}")))?;
                let plain = args.tokens.is_empty()
                    && !args.kernel
                    && !args.json
                    && args.dot.is_none()
                    && args.svg.is_none();
                if plain {
                    let wins = with_progress("solving", |c| {
                        first_player_wins(&input.graph, &input.tokens, c)
                    })
                    .map_err(|e| Failure::compute(e.to_string()))?;
                    return crate::emit(if wins { "win\n" } else { "lose\n" });
                }
                let graph = GameGraph {
                    csr: input.graph,
                    names: Names::Numbered,
                };
                (graph, input.tokens)
            }
        }
    };
    let tokens = if args.tokens.is_empty() {
        file_tokens
    } else {
        args.tokens
            .iter()
            .map(|name| {
                let found = graph.find(name);
                let found =
                    found.or_else(|| args.expr.as_ref().and_then(|_| find_position(&graph, name)));
                found.ok_or_else(|| {
                    Failure::input(format!("--tokens: no vertex named `{name}` in the graph"))
                })
            })
            .collect::<Result<Vec<u32>, Failure>>()?
    };
    let solution = with_progress("solving", |c| solve(&graph.csr, c))
        .map_err(|e| Failure::compute(e.to_string()))?;
    let sum = (!tokens.is_empty()).then(|| analyze_tokens(&graph.csr, &solution, &tokens));
    let kernel = if args.kernel {
        Some(
            find_kernel(&graph.csr, &solution, args.max_kernel_draws)
                .map_err(|e| Failure::compute(e.to_string()))?,
        )
    } else {
        None
    };
    if let Some(path) = &args.dot {
        std::fs::write(path, to_dot(&graph, &solution, &tokens))
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.svg {
        let svg = to_svg(&graph, &solution).map_err(|e| Failure::compute(e.to_string()))?;
        std::fs::write(path, svg)
            .map_err(|e| Failure::input(format!("cannot write {}: {e}", path.display())))?;
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

struct Report<'a> {
    graph: &'a GameGraph,
    solution: &'a GraphSolution,
    tokens: &'a [u32],
    sum: Option<&'a TokenSum>,
    kernel: Option<&'a KernelReport>,
}

fn value_json(value: &Value) -> serde_json::Value {
    match value {
        Value::Finite(n) => serde_json::json!(n.0),
        Value::Infinite(k) => {
            serde_json::json!({ "inf": k.iter().map(|n| n.0).collect::<Vec<_>>() })
        }
    }
}

impl Report<'_> {
    fn moves_json(&self, moves: &[TokenMove]) -> serde_json::Value {
        moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "token": m.token,
                    "from": self.graph.name(m.from),
                    "to": self.graph.name(m.to),
                })
            })
            .collect()
    }

    /// JSON, written vertex by vertex so that large graphs need no large buffer.
    fn json(&self, out: &mut dyn Write) -> io::Result<()> {
        let g = &self.graph.csr;
        let s = self.solution;
        write!(out, "{{\"acyclic\":{},\"vertices\":[", s.acyclic)?;
        for v in 0..self.graph.vertex_count() as u32 {
            if v > 0 {
                out.write_all(b",")?;
            }
            let vertex = serde_json::json!({
                "name": self.graph.name(v),
                "value": value_json(&s.value(g, v)),
                "outcome": s.outcome(v),
                "remoteness": s.remoteness(v),
            });
            serde_json::to_writer(&mut *out, &vertex)?;
        }
        out.write_all(b"]")?;
        if let Some(sum) = self.sum {
            let json = serde_json::json!({
                "tokens": self.tokens.iter().map(|&t| self.graph.name(t)).collect::<Vec<_>>(),
                "value": sum.value.as_ref().map(value_json),
                "outcome": sum.outcome,
                "winning_moves": self.moves_json(&sum.winning_moves),
                "drawing_moves": self.moves_json(&sum.drawing_moves),
            });
            out.write_all(b",\"sum\":")?;
            serde_json::to_writer(&mut *out, &json)?;
        }
        if let Some(k) = self.kernel {
            let names = k
                .kernel
                .as_ref()
                .map(|k| k.iter().map(|&v| self.graph.name(v)).collect::<Vec<_>>());
            out.write_all(b",\"kernel\":")?;
            serde_json::to_writer(&mut *out, &names)?;
            write!(out, ",\"kernel_unique\":{}", k.unique)?;
        }
        out.write_all(b"}\n")
    }

    fn text(&self, out: &mut dyn Write) -> io::Result<()> {
        let g = &self.graph.csr;
        let s = self.solution;
        let n = self.graph.vertex_count();
        let cycles = if s.acyclic {
            "no cycles"
        } else {
            "with cycles"
        };
        writeln!(out, "{n} vertices, {} edges, {cycles}", g.edge_count())?;
        let width = (0..n as u32)
            .map(|v| self.graph.name(v).chars().count())
            .max()
            .unwrap_or(0)
            .clamp(6, 40);
        writeln!(
            out,
            "{:<width$}  {:<10}  outcome  remoteness",
            "vertex", "value"
        )?;
        for v in 0..n as u32 {
            let remoteness = s.remoteness(v).map_or("-".to_owned(), |r| r.to_string());
            writeln!(
                out,
                "{:<width$}  {:<10}  {:<7}  {remoteness}",
                self.graph.name(v),
                s.value(g, v).to_string(),
                s.outcome(v).to_string(),
            )?;
        }
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
                        "\nKernel ({} vertices, {unique}): {}",
                        kernel.len(),
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
