//! `grundy analyze` and `grundy rules`.

use crate::front::{self, Watch};
use crate::{Failure, emit};
use grundy::api::{
    Analysis, AnalyzeRequest, EngineChoice, LimitRequest, MISERE_POSITIONS, MoveSearch, Preset,
    Session,
};
use grundy::boards::cram::{EndTable, EndTableError, MAX_END_ROWS};
use grundy::control::{Budget, Limits};

/// Value, outcome, every winning move and why, for a position written as an expression.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "The expression may be given unquoted (`grundy analyze nim 3 4`): \
    the words are joined with spaces. `-` reads it from standard input, --file from a file (a \
    command line holds only 128 KiB). Exit status: 0 answered, 1 could not compute (a limit \
    was reached), 2 bad input, 130 interrupted."
)]
pub struct Args {
    /// The position, such as "nim 13 12 8" or "nim 3 + wythoff 3 5"; `-` reads standard input.
    #[arg(required_unless_present = "file", conflicts_with = "file", num_args = 1..)]
    expression: Vec<String>,
    /// Read the expression from FILE (`-` for standard input).
    #[arg(long, value_name = "FILE")]
    file: Option<String>,
    /// Misère play: the player who makes the last move loses.
    #[arg(long)]
    misere: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The engine: `fast` (closed forms and fast paths) or `generic` (search through the moves
    /// alone, to cross-check a fast path on small positions).
    #[arg(long, value_enum, default_value_t = EngineArg::Fast)]
    engine: EngineArg,
    /// The most positions the generic engines may store [default: 20000000 components in
    /// normal play; 2000000 whole positions in a misère search, which are much larger].
    #[arg(long)]
    max_positions: Option<usize>,
    /// The most units of work (one unit is a move generated or a position expanded, 10 to
    /// 100 ns; the library's `Limits::DEFAULT` is a few seconds to about twenty of one core)
    /// [default: 250000000].
    #[arg(long, value_name = "N")]
    max_work: Option<u64>,
    /// The most memory one table may take, in MiB [default: 4096, or half the memory available if less].
    #[arg(long, value_name = "MIB")]
    max_memory: Option<u64>,
    /// Threads for the position search of a board's value (both cores: 2); the winning
    /// moves and other engines use one.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// The value and the outcome alone, without looking for winning moves (for a board game,
    /// often far quicker: each candidate move costs a proof).
    #[arg(long, conflicts_with = "one_move")]
    no_moves: bool,
    /// Look for one winning move only (the search stops at the first).
    #[arg(long)]
    one_move: bool,
    /// Load a rule script (Rhai) whose rule the expression may use; may be repeated.
    #[arg(long, value_name = "FILE")]
    rules: Vec<std::path::PathBuf>,
    /// Keep the search table of the expression's Cram board in FILE: read first if it
    /// exists, written when the analysis ends, answered or stopped by a limit, Ctrl-C or
    /// SIGTERM, so that the same command run again goes on from what was proved.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<std::path::PathBuf>,
    /// Value every region of a Cram board that fits a box four cells wide from the end
    /// table in FILE, never searching it: read if the file exists, else computed first
    /// (--end-rows) and written there. The same answers, sooner on big boards.
    #[arg(long, value_name = "FILE")]
    end_table: Option<std::path::PathBuf>,
    /// The rows of the end table's box when it is computed (1 to 7; 7 rows take about 6 s
    /// and 128 MiB, and cover every region of 4 x 7 cells).
    #[arg(
        long,
        value_name = "N",
        default_value_t = MAX_END_ROWS,
        requires = "end_table",
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_END_ROWS))
    )]
    end_rows: u32,
}

impl Args {
    /// The expression: the words given, joined with spaces, or the text of the file or of
    /// standard input.
    fn text(&self) -> Result<String, Failure> {
        match (&self.file, self.expression.as_slice()) {
            (Some(path), _) => front::read_text(path),
            (None, [only]) if only == "-" => front::read_text("-"),
            (None, words) => Ok(words.join(" ")),
        }
    }

    /// The request these arguments make, for `text`.
    fn request(&self, text: String) -> AnalyzeRequest {
        AnalyzeRequest {
            expression: text,
            misere: self.misere,
            engine: match self.engine {
                EngineArg::Fast => EngineChoice::Fast,
                EngineArg::Generic => EngineChoice::Generic,
            },
            limits: LimitRequest {
                max_positions: self.max_positions,
                max_work: self.max_work,
                max_memory: self.max_memory,
                threads: Some(self.threads),
            },
            moves: if self.no_moves {
                MoveSearch::None
            } else if self.one_move {
                MoveSearch::One
            } else {
                MoveSearch::All
            },
        }
    }
}

// The defaults the help states are the library's.
const _: () = assert!(MISERE_POSITIONS == 2_000_000 && Limits::DEFAULT.max_work == 250_000_000);

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum EngineArg {
    Fast,
    Generic,
}

/// List the rules of the expression language, and those of rule scripts.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {
    /// Also list the rule of this rule script (Rhai), with an example; may be repeated.
    #[arg(long, value_name = "FILE")]
    rules: Vec<std::path::PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let text = args.text()?;
    let session = Session::new(Preset::Standard)
        .with_catalog(crate::script_rules::catalog(&args.rules)?)
        .with_cancel_flag(front::interrupt_flag()?);
    let request = args.request(text);
    let budget = session
        .budget(&request.limits, request.task())
        .map_err(front::api_failure)?;
    // A checkpoint is written as the search stops; the watcher must not cut it short.
    let watch = match &args.checkpoint {
        None => Watch::new("analysing".to_owned(), &budget),
        Some(_) => Watch::keeping("analysing".to_owned(), &budget),
    };
    let session = match &args.end_table {
        None => session,
        Some(path) => session.with_end_table(end_table(path, args.end_rows, &budget)?.into()),
    };
    let result = match &args.checkpoint {
        None => session.analyze(&request, &budget),
        Some(path) => {
            let resumed = session.analyze_with_checkpoint(&request, &budget, path);
            let resumed = resumed.map_err(front::api_failure)?;
            kept(path, resumed.loaded, &resumed.saved);
            resumed.analysis
        }
    };
    drop(watch);
    let analysis = result.map_err(front::api_failure)?;
    // A partial answer (a value, or the winning moves, out of reach under the work limit):
    // the analysis says what is missing; the hint says which flag gets it.
    let limit = budget.limits().max_work;
    if budget.work_done() > limit {
        front::report_hint(&format!(
            "part of the answer needs more than {limit} steps of work (the work limit); raise \
             it with --max-work to get the rest"
        ));
    }
    if args.json {
        crate::emit_json(&analysis)
    } else {
        emit(&render(&analysis))
    }
}

/// The end table at `path`, read, or computed and written (its work apart from the
/// analysis's; its memory within the same limit); says which on standard error.
fn end_table(path: &std::path::Path, rows: u32, budget: &Budget) -> Result<EndTable, Failure> {
    let own = budget.share(Limits {
        max_work: u64::MAX,
        ..budget.limits()
    });
    let (table, read) = EndTable::open_or_compute(path, rows, &own).map_err(|e| match e {
        EndTableError::Budget(b) => {
            front::budget_failure(format!("the end table: {b}"), b, front::LIMIT_FLAGS)
        }
        EndTableError::Io { .. } | EndTableError::Write(_) => {
            Failure::compute(format!("end table {e}"))
        }
        e => Failure::input(format!("end table {e}")),
    })?;
    let verb = if read { "read" } else { "computed and wrote" };
    let size = match table.bytes() {
        b if b < 1 << 20 => format!("{} KiB", b >> 10),
        b => format!("{} MiB", b >> 20),
    };
    eprintln!(
        "{verb} the end table of {} rows of 4 cells ({size}) in {}",
        table.rows(),
        path.display()
    );
    Ok(table)
}

/// Says on standard error what the checkpoint gave and kept.
fn kept(path: &std::path::Path, loaded: u64, saved: &Result<u64, grundy::api::ApiError>) {
    let path = path.display();
    if loaded > 0 {
        eprintln!("started from {loaded} entries of {path}");
    }
    match saved {
        Ok(n) => eprintln!("kept {n} entries in {path}"),
        Err(e) => eprintln!("warning: the search table could not be kept: {e}"),
    }
}

/// The analysis as text for people.
fn render(a: &Analysis) -> String {
    let mut out = String::new();
    let play = if a.misere { " (misère play)" } else { "" };
    out.push_str(&format!("Position  {}{play}\n", a.expression));
    if let Some(v) = a.value {
        out.push_str(&format!("Value     {v}\n"));
    }
    out.push_str(&format!("Outcome   {}\n", a.outcome.describe()));
    let notes = a.note_lines();
    if !a.explanation.is_empty() || !notes.is_empty() {
        out.push_str("\nWhy\n");
        for line in a.explanation.iter().chain(&notes) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if !a.winning_moves.is_empty() {
        out.push_str(&format!("\nWinning moves ({})\n", a.winning_moves.len()));
        let width = a
            .winning_moves
            .iter()
            .map(|m| m.description.chars().count())
            .max()
            .unwrap_or(0);
        for m in &a.winning_moves {
            let component = &a.components[m.component].expression;
            // Padded by hand: a format width past 65,535 panics.
            let pad = width.saturating_sub(m.description.chars().count());
            out.push_str(&format!(
                "  in {component}: {}{}  leaves  {}\n",
                m.description,
                " ".repeat(pad),
                m.result
            ));
        }
    }
    out
}

pub fn rules(args: RulesArgs) -> Result<(), Failure> {
    let mut text: String = grundy::catalog::rules()
        .map(|r| format!("{}\n    {}\n", r.usage, r.summary))
        .collect();
    let catalog = crate::script_rules::catalog(&args.rules)?;
    for rule in catalog.scripts() {
        let kind = if rule.is_heap() { ", a heap rule" } else { "" };
        text.push_str(&format!(
            "\n{} (from {}{kind})\n    {}\n    example: grundy analyze --rules {} \"{}\"\n",
            rule.usage(),
            rule.origin(),
            rule.summary(),
            rule.origin(),
            rule.example()
        ));
    }
    emit(&text)
}
