//! `grundy analyze` and `grundy rules`.

use crate::{Failure, emit};
use grundy::analysis::{AnalyzeError, analyze_sum};
use grundy::control::Limits;
use grundy::sum::{Context, Engine};
use grundy::{Analysis, Options};

/// Value, outcome, every winning move and why, for a position written as an expression.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The position, such as "nim 13 12 8" or "nim 3 + wythoff 3 5" (quote it).
    expression: String,
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
    /// Load a rule script (Rhai) whose rule the expression may use; may be repeated.
    #[arg(long, value_name = "FILE")]
    rules: Vec<std::path::PathBuf>,
}

/// The default limit of a misère search: whole positions of a sum cost some hundred bytes
/// each and tens of microseconds to expand, so this bounds a search to about a minute and a GiB.
const MISERE_POSITIONS: usize = 2_000_000;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum EngineArg {
    Fast,
    Generic,
}

/// List the rules of the expression language.
#[derive(Debug, clap::Args)]
pub struct RulesArgs {}

pub fn run(args: Args) -> Result<(), Failure> {
    let options = Options {
        misere: args.misere,
        context: Context::new(
            match args.engine {
                EngineArg::Fast => Engine::Fast,
                EngineArg::Generic => Engine::Generic,
            },
            Limits {
                max_positions: args.max_positions.unwrap_or(if args.misere {
                    MISERE_POSITIONS
                } else {
                    Limits::DEFAULT.max_positions
                }),
                ..Limits::DEFAULT
            },
        ),
    };
    let catalog = crate::script_rules::catalog(&args.rules)?;
    let analysis = (catalog.parse(&args.expression).map_err(AnalyzeError::from))
        .and_then(|sum| Ok(analyze_sum(&sum, &options)?))
        .map_err(|e| match e {
            AnalyzeError::Expr(e) => Failure::input(format!(
                "invalid expression\n{}",
                e.render(&args.expression)
            )),
            AnalyzeError::Analysis(e) => Failure::compute(e.to_string()),
        })?;
    if args.json {
        let text =
            serde_json::to_string_pretty(&analysis).map_err(|e| Failure::compute(e.to_string()))?;
        emit(&(text + "\n"))
    } else {
        emit(&render(&analysis))
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
    if !a.explanation.is_empty() {
        out.push_str("\nWhy\n");
        for line in &a.explanation {
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
            out.push_str(&format!(
                "  in {component}: {:<width$}  leaves  {}\n",
                m.description, m.result
            ));
        }
    }
    out
}

pub fn rules(_args: RulesArgs) -> Result<(), Failure> {
    let text: String = grundy::catalog::rules()
        .map(|r| format!("{}\n    {}\n", r.usage, r.summary))
        .collect();
    emit(&text)
}
