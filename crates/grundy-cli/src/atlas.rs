//! `grundy atlas`: what the atlas database answers. The queries are the library's
//! (`grundy::atlas::Atlas`); this module parses the arguments and prints text, JSON or CSV.

use crate::Failure;
use crate::census::failure;
use grundy::atlas::{
    Atlas, Family, FamilyRows, Filter, GameCard, GameRow, GameStatus, ProvenTwin, SqlAnswer,
};
use std::path::PathBuf;

/// Ask the atlas database what a census computed: a game's card, a family's games (open or
/// solved), the games with the same sequence, or any read-only SQL query.
///
///   grundy atlas 0.137                      one game's card
///   grundy atlas "0.???" --open             codes with no proven period, and how far computed
///   grundy atlas --same-as 0.07             codes whose sequences agree with 0.07's
///   grundy atlas --sql "SELECT code, period FROM games WHERE period > 1000"
///
/// The tables (games, runs, checksums) are described in the guide's atlas chapter.
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// A game (0.137, kayles) for its card, or a family pattern (0.???) for its games.
    #[arg(value_name = "CODE|PATTERN", required_unless_present_any = ["same_as", "sql"])]
    target: Option<String>,
    /// Only the games with no proven period.
    #[arg(long, conflicts_with = "solved")]
    open: bool,
    /// Only the games with a proven period.
    #[arg(long)]
    solved: bool,
    /// The games whose sequences agree with CODE's.
    #[arg(long, value_name = "CODE", conflicts_with_all = ["target", "sql", "open", "solved"])]
    same_as: Option<String>,
    /// Run one read-only SQL query (SELECT ...) on the database.
    #[arg(long, value_name = "QUERY", conflicts_with_all = ["target", "open", "solved"])]
    sql: Option<String>,
    /// The database file.
    #[arg(long, value_name = "FILE", default_value = "atlas.sqlite")]
    db: PathBuf,
    /// Print JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV.
    #[arg(long)]
    csv: bool,
}

/// The most rows a raw query prints.
const MAX_SQL_ROWS: usize = 1_000_000;

pub fn run(args: Args) -> Result<(), Failure> {
    let atlas = Atlas::open(&args.db).map_err(failure)?;
    if let Some(query) = &args.sql {
        let cancel = crate::front::interrupt_flag()?;
        let answer = atlas
            .sql(query, MAX_SQL_ROWS, Some(&cancel))
            .map_err(failure)?;
        return print_sql(&answer, &args);
    }
    if let Some(code) = &args.same_as {
        let card = atlas.card(code).map_err(failure)?;
        let card = card.ok_or_else(|| not_there(code, &args))?;
        if args.json {
            return crate::emit_json(&card.same_as);
        }
        let mut out = String::new();
        if args.csv {
            out += "code,length\n";
        }
        for twin in &card.same_as {
            out += &if args.csv {
                format!("{},{}\n", csv_field(&twin.code), twin.length)
            } else {
                format!("{}  (g(0) to g({}))\n", twin.code, twin.length - 1)
            };
        }
        if card.same_as.is_empty() && !args.csv {
            out += &format!(
                "no game in the atlas has the sequence of {}\n",
                card.game.code
            );
        }
        if !args.csv {
            for t in &card.proven_same {
                out += &format!("{}\n", proven_text(t));
            }
        }
        return crate::emit(&out);
    }
    let target = args.target.as_deref().unwrap_or_default();
    let family = Family::parse(target).map_err(|e| Failure::input(e.to_string()))?;
    if !family.is_pattern && !args.open && !args.solved {
        let card = atlas.card(target).map_err(failure)?;
        let card = card.ok_or_else(|| not_there(target, &args))?;
        return if args.json {
            crate::emit_json(&card)
        } else if args.csv {
            crate::emit(&rows_csv(std::slice::from_ref(&card.game)))
        } else {
            crate::emit(&card_text(&card))
        };
    }
    let filter = match (args.open, args.solved) {
        (true, _) => Filter::Open,
        (_, true) => Filter::Solved,
        _ => Filter::All,
    };
    let rows = atlas.family(target, filter).map_err(failure)?;
    if args.json {
        crate::emit_json(&rows)
    } else if args.csv {
        crate::emit(&rows_csv(&rows.rows))
    } else {
        crate::emit(&rows_text(&rows))
    }
}

fn not_there(code: &str, args: &Args) -> Failure {
    Failure::compute(format!(
        "{code} is not in the atlas {} (compute it with: grundy census {code} --to N)",
        args.db.display()
    ))
}

fn opt(x: Option<u64>) -> String {
    x.map_or_else(|| "-".into(), |v| v.to_string())
}

/// A game the shift rule ties to the card's, with the relation and the reason.
fn proven_text(t: &ProvenTwin) -> String {
    let relation = match t.offset {
        0 => "the same sequence".to_string(),
        k => format!(
            "g(n) here is g(n {} 1) there",
            if k < 0 { '-' } else { '+' }
        ),
    };
    let kept = if t.in_atlas { "" } else { ", not in the atlas" };
    format!("{}  {relation} ({}){kept}", t.code, t.reason)
}

fn card_text(card: &GameCard) -> String {
    let g = &card.game;
    let mut out = format!("{}\n", g.code);
    let mut line = |name: &str, text: String| out += &format!("  {name:<22}{text}\n");
    let period = match (g.period, g.preperiod) {
        (Some(p), Some(e)) => {
            let saltus = g.saltus.filter(|&s| s > 0).map(|s| format!(", saltus {s}"));
            format!("period {p} from n = {e}{}", saltus.unwrap_or_default())
        }
        _ => "no period seen".into(),
    };
    let status = match g.status {
        GameStatus::Proven => format!(
            "proven: {period} ({})",
            g.proof.as_deref().unwrap_or("proven")
        ),
        GameStatus::Apparent => format!("apparent: {period}, not proven"),
        GameStatus::None => "open: no period seen".into(),
        GameStatus::Refused => format!(
            "refused: {}{}",
            g.reason.as_deref().unwrap_or("no reason recorded"),
            if g.period.is_some() {
                format!(" (the values reached show {period}, apparent)")
            } else {
                String::new()
            }
        ),
    };
    line("status", status);
    line(
        "computed",
        match g.computed_to {
            Some(n) => format!(
                "g(0) to g({n}) of g({}) asked for ({} engine, {:.2} s)",
                g.target,
                g.engine.as_deref().unwrap_or("no"),
                g.seconds
            ),
            None => format!("nothing of g({}) asked for", g.target),
        },
    );
    line("first values", g.first_values.clone());
    if let Some(n) = g.last_exceptional {
        line("last exceptional heap", n.to_string());
    }
    if let (Some(v), Some(n)) = (g.max_value, g.max_value_heap) {
        line("largest value", format!("{v}, first at heap {n}"));
    }
    if let (Some(p), Some(n)) = (g.p_positions, g.computed_to) {
        line("P-positions", format!("{p} among heaps 0 to {n}"));
    }
    if let Some(mask) = g.rare_mask {
        line(
            "rare values",
            format!(
                "{} (mask {mask}; {} rare heaps, the last at {})",
                g.rare_values.as_deref().unwrap_or(""),
                opt(g.rare_count),
                opt(g.last_rare)
            ),
        );
    }
    if let Some(sum) = &g.checksum {
        line(
            "checksum",
            format!("{sum} (FNV-1a of g(0) to g({}))", opt(g.computed_to)),
        );
    }
    let twins = if card.same_as.is_empty() {
        "none in the atlas".to_string()
    } else {
        card.same_as
            .iter()
            .map(|t| format!("{} (to g({}))", t.code, t.length - 1))
            .collect::<Vec<_>>()
            .join(", ")
    };
    line("same sequence", twins);
    for (i, t) in card.proven_same.iter().enumerate() {
        line(
            if i == 0 { "provably the same" } else { "" },
            proven_text(t),
        );
    }
    if let Some(m) = &card.misere {
        let text = if m.computed {
            let period = match (m.period, m.preperiod, m.period_proven) {
                (Some(p), Some(e), Some(true)) => {
                    format!("; heap map period {p} from heap {e}, proven")
                }
                (Some(p), Some(e), _) => format!("; heap map period {p} from heap {e}, observed"),
                _ => String::new(),
            };
            format!(
                "order {}, P-portion {} (heaps 1 to {}{period})",
                opt(m.order),
                opt(m.p_portion),
                opt(m.computed_to)
            )
        } else {
            format!(
                "heaps 1 to {} refused: {}",
                m.max_heap,
                m.reason.as_deref().unwrap_or("no reason recorded")
            )
        };
        line("misère quotient", text);
    }
    line(
        "written",
        format!(
            "{} by census run {}",
            g.finished_at.as_deref().unwrap_or("?"),
            g.run_id.map_or("?".into(), |r| r.to_string())
        ),
    );
    out
}

fn rows_text(rows: &FamilyRows) -> String {
    let mut out = format!(
        "{:<14} {:<9} {:>9} {:>10} {:>12} {:>8}\n",
        "code", "status", "period", "preperiod", "computed to", "largest"
    );
    for g in &rows.rows {
        out += &format!(
            "{:<14} {:<9} {:>9} {:>10} {:>12} {:>8}\n",
            g.code,
            g.status.as_str(),
            opt(g.period),
            opt(g.preperiod),
            opt(g.computed_to),
            opt(g.max_value)
        );
    }
    out += &format!(
        "{} of the {} games of {}",
        rows.rows.len(),
        rows.games,
        rows.pattern
    );
    if rows.missing > 0 {
        out += &format!("; {} not in the atlas", rows.missing);
    }
    out.push('\n');
    out
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn rows_csv(rows: &[GameRow]) -> String {
    let mut out = String::from(
        "code,status,target,computed_to,engine,period,preperiod,saltus,proof,last_exceptional,\
         max_value,max_value_heap,p_positions,first_values,checksum,rare_mask,rare_values,\
         rare_count,last_rare,reason,seconds,run_id,finished_at\n",
    );
    let n = |x: Option<u64>| x.map(|v| v.to_string()).unwrap_or_default();
    let t = |x: &Option<String>| csv_field(x.as_deref().unwrap_or(""));
    for g in rows {
        let fields = [
            csv_field(&g.code),
            g.status.as_str().to_string(),
            g.target.to_string(),
            n(g.computed_to),
            t(&g.engine),
            n(g.period),
            n(g.preperiod),
            n(g.saltus),
            t(&g.proof),
            n(g.last_exceptional),
            n(g.max_value),
            n(g.max_value_heap),
            n(g.p_positions),
            csv_field(&g.first_values),
            t(&g.checksum),
            n(g.rare_mask),
            t(&g.rare_values),
            n(g.rare_count),
            n(g.last_rare),
            t(&g.reason),
            format!("{:.3}", g.seconds),
            g.run_id.map(|r| r.to_string()).unwrap_or_default(),
            t(&g.finished_at),
        ];
        out += &fields.join(",");
        out.push('\n');
    }
    out
}

fn print_sql(answer: &SqlAnswer, args: &Args) -> Result<(), Failure> {
    if args.json {
        return crate::emit_json(answer);
    }
    let cell = |v: &serde_json::Value| match v {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let separator = if args.csv { "," } else { "\t" };
    let quote = |s: String| if args.csv { csv_field(&s) } else { s };
    let mut out = String::new();
    let header: Vec<String> = answer.columns.iter().map(|c| quote(c.clone())).collect();
    out += &header.join(separator);
    out.push('\n');
    for row in &answer.rows {
        let cells: Vec<String> = row.iter().map(|v| quote(cell(v))).collect();
        out += &cells.join(separator);
        out.push('\n');
    }
    crate::emit(&out)
}
