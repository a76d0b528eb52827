//! The work budget reaches every long computation of an analysis: the nim-sequences that
//! heap components compute on the way (charged by their real work, refused up front when
//! the estimate alone passes the limit, stopped by cancellation), and the kernel SAT search
//! of game graphs. Each rule here is used by this file alone, so that the per-rule cache of
//! sequences starts empty.

use grundy::analysis::analyze;
use grundy::control::Control;
use grundy::control::{Budget, BudgetError, Limits};
use grundy::graph::{Csr, GraphSolution, KernelError, find_kernel_within, solve};
use grundy::heap::plain::PlainSequence;
use grundy::heap::rules::HeapRule;
use grundy::sum::{Context, Engine};
use grundy::{Nimber, Options};
use proptest::prelude::*;

fn options(max_work: u64) -> Options {
    Options {
        moves: Default::default(),
        misere: false,
        context: Context::new(
            Engine::Fast,
            Limits {
                max_work,
                ..Limits::DEFAULT
            },
        ),
    }
}

/// `g(n)` from the definition, by the plain engine.
fn plain_value(rule: &str, n: u64) -> u16 {
    let mut s = PlainSequence::new(&HeapRule::parse(rule).unwrap());
    s.extend_to_len(n + 1, &mut grundy::control::Control::none())
        .unwrap();
    s.values()[n as usize]
}

#[test]
fn a_heap_sequence_inside_analyze_is_charged_to_the_budget() {
    // All-but games run on the plain engine: some n/2 options a heap.
    let o = options(Limits::DEFAULT.max_work);
    let a = analyze("allbut(1,4) 3000", &o).unwrap();
    assert_eq!(
        a.value,
        Some(Nimber(u64::from(plain_value("allbut(1,4)", 3000))))
    );
    // About 3000²/2 options listed, 4 a unit.
    let work = o.context.budget.work_done();
    assert!(work > 3000 * 3000 / 2 / 4, "charged only {work}");
}

#[test]
fn a_big_heap_is_refused_up_front_by_the_work_limit() {
    // The plain engine's estimate alone (some 1.3 · 10^8 units) passes the limit.
    let o = options(10_000_000);
    let e = analyze("allbut(2) 32000 + nim 3", &o).unwrap_err();
    let grundy::analysis::AnalyzeError::Analysis(e) = e else {
        panic!("{e}")
    };
    assert_eq!(
        e.budget_error(),
        Some(BudgetError::Work { limit: 10_000_000 })
    );
    assert!(e.to_string().contains("allbut(2) 32000"), "{e}");
    assert!(e.to_string().contains("10000000"), "{e}");
    // Nothing was computed for it: the refusal came before the work.
    assert!(o.context.budget.work_done() < 1_000_000);
}

#[test]
fn a_sparse_sequence_stops_at_the_work_limit_and_keeps_its_values() {
    // Grundy's game runs on the sparse-space engine with long scans; its cost is known only
    // while it runs, so it is stopped by the charges of its chunks.
    let o = options(20_000_000);
    let e = analyze("4!.0 150000", &o).unwrap_err();
    let grundy::analysis::AnalyzeError::Analysis(e) = e else {
        panic!("{e}")
    };
    assert_eq!(
        e.budget_error(),
        Some(BudgetError::Work { limit: 20_000_000 })
    );
    // The work done stops within one chunk of the limit.
    assert!(o.context.budget.work_done() < 2 * 20_000_000);
    // The values computed so far stay cached: a small heap now answers without new work.
    let o = options(Limits::DEFAULT.max_work);
    let a = analyze("4!.0 1000", &o).unwrap();
    assert_eq!(a.value, Some(Nimber(u64::from(plain_value("4!.0", 1000)))));
}

#[test]
fn a_cancelled_analysis_stops_its_heap_sequence() {
    let o = options(Limits::DEFAULT.max_work);
    o.context.budget.cancel();
    let e = analyze("allbut(3) 20000", &o).unwrap_err();
    let grundy::analysis::AnalyzeError::Analysis(e) = e else {
        panic!("{e}")
    };
    assert_eq!(e.budget_error(), Some(BudgetError::Cancelled));
}

/// Disjoint odd cycles: no kernel, and every vertex a draw, so the SAT solver must work.
fn odd_cycles(cycles: u32, len: u32) -> (Csr, GraphSolution) {
    let adjacency: Vec<Vec<u32>> = (0..cycles * len)
        .map(|v| vec![v - v % len + (v % len + 1) % len])
        .collect();
    let g = Csr::from_adjacency(&adjacency);
    let s = solve(&g, &mut Control::none()).unwrap();
    (g, s)
}

#[test]
fn the_kernel_search_stops_on_cancellation_and_at_the_work_limit() {
    let (g, s) = odd_cycles(50, 7);
    let max = usize::MAX;
    let budget = Budget::default();
    budget.cancel();
    assert_eq!(
        find_kernel_within(&g, &s, max, &budget),
        Err(KernelError::Budget(BudgetError::Cancelled))
    );
    // Refused up front: the clauses alone (a unit a draw and an edge) pass the limit.
    let tiny = Budget::new(Limits {
        max_work: 10,
        ..Limits::DEFAULT
    });
    assert_eq!(
        find_kernel_within(&g, &s, max, &tiny),
        Err(KernelError::Budget(BudgetError::Work { limit: 10 }))
    );
    // Stopped inside the solver: room for the clauses, not for a search step.
    let clauses = 2 * 350;
    let small = Budget::new(Limits {
        max_work: clauses + 1,
        ..Limits::DEFAULT
    });
    let e = find_kernel_within(&g, &s, max, &small).unwrap_err();
    assert_eq!(
        e,
        KernelError::Budget(BudgetError::Work { limit: clauses + 1 })
    );
    assert!(e.to_string().contains("kernel search stopped"), "{e}");
    // Under the default budget the answer is the search's: odd cycles have no kernel,
    // and work was charged for it.
    let budget = Budget::default();
    let r = find_kernel_within(&g, &s, max, &budget).unwrap();
    assert_eq!(r.kernel, None);
    assert!(budget.work_done() > clauses);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever the work limit, a heap's value is either the definition's or a refusal that
    /// names the limit: the budget never changes an answer.
    #[test]
    fn the_budget_never_changes_an_answer(
        rule in prop::sample::select(vec!["0.3122", "0.1337", "allbut(2,5)", "0.05", "4.3"]),
        n in 0u64..3000,
        max_work in prop_oneof![Just(1u64 << 40), 1u64..2_000_000],
    ) {
        let o = options(max_work);
        match analyze(&format!("{rule} {n}"), &o) {
            Ok(a) => prop_assert_eq!(a.value, Some(Nimber(u64::from(plain_value(rule, n))))),
            Err(grundy::analysis::AnalyzeError::Analysis(e)) => {
                prop_assert_eq!(e.budget_error(), Some(BudgetError::Work { limit: max_work }));
            }
            Err(e) => prop_assert!(false, "{}", e),
        }
    }
}
