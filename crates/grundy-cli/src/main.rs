//! The `grundy` command: a thin layer over the `grundy` library.

mod analyze;
mod atlas;
mod census;
mod draw;
mod front;
mod graph;
mod play;
mod quotient;
mod script_rules;
mod sequence;
mod serve;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Counts each thread's memory, so that a rule script's ceiling holds (see
/// `grundy::scripted::CountingAllocator`).
#[global_allocator]
static ALLOCATOR: grundy::scripted::CountingAllocator = grundy::scripted::CountingAllocator;

/// Analyse impartial combinatorial games: who wins, with which move, and why.
///
/// Positions are written in the game-expression language: a sum of terms joined by `+`,
/// each a rule name, optional parameters in parentheses, and arguments:
///
///   nim 13 12 8                   three Nim heaps
///   staircase 3 2 1               staircase Nim (coins on steps 1, 2, 3)
///   moore(2) 3 5 7                Moore's Nim_2
///   wythoff 3 5                   a Wythoff queen at (3, 5)
///   nim 3 5 + wythoff 2 1         a sum of games
///
/// `grundy rules` lists every rule.
#[derive(Debug, Parser)]
#[command(name = "grundy", version, about, long_about, verbatim_doc_comment)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Analyze(analyze::Args),
    Rules(analyze::RulesArgs),
    Draw(draw::Args),
    Sequence(sequence::Args),
    Graph(graph::Args),
    Play(play::Args),
    Serve(serve::Args),
    Quotient(quotient::Args),
    Census(census::Args),
    Atlas(atlas::Args),
    Schema(SchemaArgs),
}

/// Print the JSON Schema of every request and answer of the typed API: what `--json`, the
/// web server's /api/ and the Python package print (docs/api.schema.json).
#[derive(Debug, clap::Args)]
struct SchemaArgs {}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help`, `--version` (status 0) and usage errors (status 2), printed by clap; a
        // help text that cannot be written (`grundy --help > /dev/full`) is a failed write,
        // status 1, as for every other output.
        Err(e) => {
            use std::io::Write;
            let printed = e.print().and_then(|()| std::io::stdout().flush());
            return match printed {
                Err(error) if e.exit_code() == 0 => {
                    front::report_error(&format!("cannot write the output: {error}"));
                    ExitCode::from(1)
                }
                _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2)),
            };
        }
    };
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(args),
        Command::Rules(args) => analyze::rules(args),
        Command::Draw(args) => draw::run(args),
        Command::Sequence(args) => sequence::run(args),
        Command::Graph(args) => graph::run(args),
        Command::Play(args) => play::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Quotient(args) => quotient::run(args),
        Command::Census(args) => census::run(args),
        Command::Atlas(args) => atlas::run(args),
        Command::Schema(SchemaArgs {}) => emit_json(&grundy::api::schema()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            front::report_error(&failure.message);
            ExitCode::from(failure.code)
        }
    }
}

/// Writes `text` to standard output. A closed pipe (`grundy ... | head`) is not an error: the
/// reader has what it wanted.
pub fn emit(text: &str) -> Result<(), Failure> {
    emit_with(|out| out.write_all(text.as_bytes()))
}

/// Runs `write` on a buffered standard output, treating a closed pipe as success.
pub fn emit_with(
    write: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>,
) -> Result<(), Failure> {
    use std::io::Write;
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(Failure::compute(format!("cannot write the output: {e}")))
        }
        _ => Ok(()),
    }
}

/// Writes `value` as pretty JSON and a newline to standard output: every `--json` answer.
pub fn emit_json(value: &impl serde::Serialize) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::compute(e.to_string()))?;
    emit(&(text + "\n"))
}

/// A failed command: the message for the user and the exit status.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, for people.
    pub message: String,
    /// 2 for bad input, 1 for a computation that could not be done, 130 when interrupted.
    pub code: u8,
}

impl Failure {
    /// Bad input from the user.
    pub fn input(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A computation that could not be done.
    pub fn compute(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}
