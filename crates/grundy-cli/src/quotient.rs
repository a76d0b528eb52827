//! `grundy quotient`: the misère quotient of a heap game (Plambeck–Siegel).

use crate::{Failure, emit};
use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::periodicity::{
    MAX_HEAP_BOUND, MAX_NIM_HEAPS, NotCovered, heap_quotient_as_asked,
};
use grundy::misere::quotient::HeapQuotient;

/// The misère quotient of the sums of a heap game's heaps 1 to N: order, P-portion,
/// presentation by generators and relations, multiplication table, and the element of each
/// heap size.
///
/// The quotient is computed heap by heap and verified on every sum of those heaps (proven for
/// heaps up to --max-heap). A period of the heap map is proven for every heap by the
/// periodicity theorem (octal and hexadecimal codes without constraints) once the heaps
/// computed reach the bound it needs; when they fall short and the bound is small (at most
/// twice --max-heap, or 256), the quotient is computed further to it. Otherwise the period is
/// observed, not proven.
///
/// With --nim M the closure holds the Nim heaps *1 to *M beside the heaps (the quotient
/// that decides sums of the rule's heaps with such Nim heaps, as `analyze --misere` reads
/// them); the periodicity theorem holds for it as stated.
///
/// Examples:
///   grundy quotient 0.75
///   grundy quotient 0.137 --max-heap 16 --json
///   grundy quotient kayles --nim 2 --max-heap 120
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The rule: an octal code (0.75, 0.137) or a named heap game (kayles, sub(1,3), ...).
    rule: String,
    /// The largest heap of the closure.
    #[arg(long, value_name = "N", default_value_t = 24)]
    max_heap: u64,
    /// Nim heaps *1 to *M in the closure beside the heaps (at most 64).
    #[arg(long, value_name = "M", default_value_t = 0)]
    nim: u32,
    /// The most elements the quotient may have.
    #[arg(long, value_name = "N", default_value_t = 1024)]
    max_elements: usize,
    /// The most units of work.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.max_work)]
    max_work: u64,
    /// The most positions (searched sums, automaton states) stored at once.
    #[arg(long, value_name = "N", default_value_t = Limits::DEFAULT.max_positions)]
    max_positions: usize,
    /// The most memory one table (a trial's multiplication table, the elements a trial
    /// reaches) may take, in MiB [default: 4096, or half the memory available if less].
    #[arg(long, value_name = "MIB")]
    max_memory: Option<u64>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Print the multiplication table whatever the order (by default only up to
    /// 64 elements; the presentation describes it in any case, and --json always has it).
    #[arg(long)]
    table: bool,
}

/// Tables of quotients up to this order are printed without `--table`.
const TABLE_ORDER: usize = 64;

pub fn run(args: Args) -> Result<(), Failure> {
    let rule = HeapRule::parse(&args.rule)
        .map_err(|e| Failure::input(format!("invalid rule\n{}", e.render(&args.rule))))?;
    if args.max_heap > MAX_HEAP_BOUND {
        return Err(Failure::input(
            MisereError::HeapBound {
                max_heap: args.max_heap,
                limit: MAX_HEAP_BOUND,
            }
            .to_string()
                + " (lower --max-heap)",
        ));
    }
    if args.nim > MAX_NIM_HEAPS {
        return Err(Failure::input(format!(
            "--nim {} asks for more Nim heaps than the {MAX_NIM_HEAPS} a closure may hold (each is a generator)",
            args.nim
        )));
    }
    // Ctrl-C, SIGTERM and SIGHUP stop the computation (status 130), as for `analyze`.
    let cancel = crate::front::interrupt_flag()?;
    let budget = Budget::with_cancel_flag(
        Limits {
            max_work: args.max_work,
            max_positions: args.max_positions,
            max_bytes: crate::front::mib_limit(args.max_memory, Limits::DEFAULT.max_bytes)?,
            ..Limits::DEFAULT
        },
        cancel,
    );
    let watch = crate::front::Watch::new("computing the quotient".to_owned(), &budget);
    let q = heap_quotient_as_asked(&rule, args.nim, args.max_heap, &budget, args.max_elements);
    drop(watch);
    let q = q.map_err(|stop| {
        let e = stop.error;
        let hint = match e {
            MisereError::Budget(grundy::control::BudgetError::Cancelled) => {
                return crate::front::interrupted();
            }
            MisereError::TooManyElements { .. } => {
                " (raise it with --max-elements, or lower --max-heap)"
            }
            MisereError::Budget(grundy::control::BudgetError::Work { .. }) => {
                " (raise it with --max-work, or lower --max-heap)"
            }
            MisereError::Budget(grundy::control::BudgetError::Positions { .. }) => {
                " (raise it with --max-positions, or lower --max-heap)"
            }
            MisereError::Budget(grundy::control::BudgetError::Memory { .. }) => {
                " (raise it with --max-memory if the machine has it, or lower --max-heap)"
            }
            _ => "",
        };
        // What was proven before the limit is still an answer: print it, then say where and
        // why the computation stopped (non-zero exit, as `sequence` does).
        let progress = stop.progress;
        match (stop.heap, stop.reached) {
            (Some(heap), Some(reached)) => {
                let shown = if args.json {
                    serde_json::to_string_pretty(&reached.report())
                        .map(|t| t + "\n")
                        .map_err(|e| Failure::compute(e.to_string()))
                } else {
                    Ok(render(&reached, args.max_heap, args.table))
                };
                if let Err(f) = shown.and_then(|text| emit(&text)) {
                    return f;
                }
                Failure::compute(format!(
                    "stopped at heap {heap} (the quotient of the heaps 1 to {} above is proven{}): {e}{hint}",
                    heap - 1,
                    found(&progress, heap, reached.quotient.order())
                ))
            }
            _ => Failure::compute(format!("{e}{hint}")),
        }
    })?;
    if args.json {
        let text = serde_json::to_string_pretty(&q.report())
            .map_err(|e| Failure::compute(e.to_string()))?;
        emit(&(text + "\n"))
    } else {
        emit(&render(&q, args.max_heap, args.table))
    }
}

/// What the work on the heap that failed showed: the certified lower bound on the order
/// with it, and the largest trial (elements, and its table's memory).
fn found(progress: &grundy::misere::quotient::Progress, heap: u64, before: usize) -> String {
    let mut out = format!(
        "; the quotient of the heaps 1 to {heap} has at least {} elements (certified by sums told apart by their outcomes)",
        progress.at_least(before)
    );
    if progress.largest_trial > 0 {
        let bytes = (progress.largest_trial as u64).pow(2) * 4;
        out.push_str(&format!(
            "; its trials reached {} elements ({} MB of table)",
            progress.largest_trial,
            bytes.div_ceil(1 << 20)
        ));
    }
    if let Some(sum) = &progress.furthest_failure {
        out.push_str(&format!(
            "; {} refuted, the furthest predicting every sum below {} right (sums compared largest heap first)",
            grundy::words::count(progress.refuted, "trial"),
            heap_sum(sum)
        ));
        if progress.recalibration_ended {
            out.push_str(
                ", where the recalibration found no next trial (the slower searches went on)",
            );
        }
    }
    out
}

/// A sum of heaps by name, repeated heaps as powers of a sort: `1+3+29×5+33×8`.
fn heap_sum(names: &[String]) -> String {
    let mut parts: Vec<(String, usize)> = Vec::new();
    for n in names {
        match parts.last_mut() {
            Some((m, k)) if m == n => *k += 1,
            _ => parts.push((n.clone(), 1)),
        }
    }
    parts
        .iter()
        .map(|(n, k)| {
            if *k == 1 {
                n.clone()
            } else {
                format!("{n}×{k}")
            }
        })
        .collect::<Vec<_>>()
        .join("+")
}

fn render(q: &HeapQuotient, max_heap: u64, full_table: bool) -> String {
    let names = q.quotient.names();
    let p = q.quotient.p_portion();
    let computed = q.generators.max_heap();
    let further = if computed > max_heap {
        format!("; computed past --max-heap {max_heap} to prove the period")
    } else {
        String::new()
    };
    let nim_map = q.nim_map();
    let nim = match nim_map.len() {
        0 => String::new(),
        1 => " with *1".to_string(),
        m => format!(" with *1 to *{m}"),
    };
    let mut out = format!(
        "Misère quotient of {}{nim}, heaps 1 to {computed} (verified on every sum of these heaps{further})\n",
        grundy::expr::shorten(&q.rule.to_string())
    );
    out.push_str(&format!("Order      {}\n", q.quotient.order()));
    out.push_str(&format!(
        "P-portion  {{{}}} ({})\n",
        p.iter()
            .map(|&x| names[x as usize].as_str())
            .collect::<Vec<_>>()
            .join(", "),
        grundy::words::count(p.len(), "element")
    ));
    let map: Vec<String> = q
        .heap_map
        .iter()
        .enumerate()
        .map(|(n, &x)| format!("{n}:{}", names[x as usize]))
        .collect();
    out.push_str(&format!("Heap map   {}\n", map.join(" ")));
    let nims: Vec<String> = nim_map
        .iter()
        .enumerate()
        .map(|(i, &x)| format!("*{}:{}", i + 1, names[x as usize]))
        .collect();
    if !nims.is_empty() {
        out.push_str(&format!("Nim heaps  {}\n", nims.join(" ")));
    }
    match q.reported_period() {
        Some(per) => {
            let why = match (per.proven, per.needed) {
                (true, Some(m)) => format!(
                    "proven for every heap: periodicity theorem, which needs heaps to {m}; checked to heap {computed}"
                ),
                (_, Some(m)) => format!(
                    "observed up to {computed}, not proven: the periodicity theorem needs heaps to {m}; computed to {computed}"
                ),
                (_, None) => format!(
                    "observed up to {computed}, not proven: {}",
                    NotCovered::Rule
                ),
            };
            out.push_str(&format!(
                "Period     {} from heap {} ({why})\n",
                per.period, per.preperiod
            ));
        }
        None => out.push_str(&format!("Period     none seen up to heap {computed}\n")),
    }
    out.push_str(&format!("Presentation {}\n", q.quotient.presentation()));
    let order = q.quotient.order();
    if order > TABLE_ORDER && !full_table {
        out.push_str(&format!(
            "Table      {order} × {order}, not shown (--table prints it; --json holds it)\n"
        ));
        return out;
    }
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(1);
    out.push_str("\nTable\n");
    out.push_str(&format!("  {:>width$} |", ""));
    for n in &names {
        out.push_str(&format!(" {n:>width$}"));
    }
    out.push('\n');
    for (a, row) in q.quotient.table().iter().enumerate() {
        out.push_str(&format!("  {:>width$} |", names[a]));
        for &x in row {
            out.push_str(&format!(" {:>width$}", names[x as usize]));
        }
        out.push('\n');
    }
    out
}
