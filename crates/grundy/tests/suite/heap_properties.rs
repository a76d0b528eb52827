//! Heap games: the plain engine against the generic engine (through `ImpartialGame`), values
//! from proven periods against directly computed ones, whole analyses fast against generic,
//! and resumed computations against uninterrupted ones.

use grundy::analysis::analyze;
use grundy::control::Control;
use grundy::heap::component::HeapGame;
use grundy::heap::period::{ProofStep, next_proof_step};
use grundy::heap::plain::PlainSequence;
use grundy::heap::rules::HeapRule;
use grundy::heap::sequence::engine_for;
use grundy::solve::Solver;
use grundy::sum::{Context, Engine};
use grundy::{Nimber, Options};
use proptest::prelude::*;

/// A rule as text: octal and hexadecimal codes (with constraints now and then), subtraction,
/// all-but and the named games.
fn rule_text() -> impl Strategy<Value = String> {
    let digit = prop_oneof![4 => 0u8..8, 1 => 8u8..16];
    let code = (
        prop_oneof![3 => Just(0u8), 1 => Just(4u8), 1 => Just(8u8)],
        prop::collection::vec(digit, 1..4),
        prop_oneof![4 => Just(""), 1 => Just("!"), 1 => Just("?"), 1 => Just("=")],
    )
        .prop_map(|(d0, ds, mark)| {
            let mut s = format!("{d0:x}");
            if d0 != 0 {
                s.push_str(mark);
            }
            s.push('.');
            for d in &ds {
                s.push_str(&format!("{d:x}"));
            }
            s
        })
        .prop_filter("a code with a move", |s| HeapRule::parse(s).is_ok());
    let set = prop::collection::btree_set(1u64..7, 1..4)
        .prop_map(|s| s.iter().map(u64::to_string).collect::<Vec<_>>().join(","));
    prop_oneof![
        6 => code,
        2 => set.clone().prop_map(|s| format!("sub({s})")),
        1 => set.prop_map(|s| format!("allbut({s})")),
        1 => prop::sample::select(vec!["kayles", "dawson", "grundys-game", "lasker", "half", "even-if-not-all"]).prop_map(String::from),
    ]
}

fn plain_values(rule: &HeapRule, count: u64) -> Vec<u16> {
    let mut s = PlainSequence::new(rule);
    s.extend_to_len(count, &mut Control::none()).unwrap();
    s.into_values()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The plain engine from the definition agrees with the generic engine walking the
    /// game's moves (positions as lists of heaps).
    #[test]
    fn plain_engine_matches_the_generic_engine(rule in rule_text()) {
        let rule = HeapRule::parse(&rule).unwrap();
        let count = match rule.kind() {
            grundy::heap::rules::RuleKind::TakeBreak(tb) if tb.max_heaps_left() == 3 => 16,
            _ => 26,
        };
        let values = plain_values(&rule, count);
        let mut solver = Solver::new(HeapGame::new(&rule));
        for n in 0..count {
            prop_assert_eq!(Nimber(u64::from(values[n as usize])), solver.value(&vec![n]).unwrap(), "{} heap {}", rule, n);
        }
    }

    /// A period the theorem proves predicts every later value.
    #[test]
    fn proven_periods_predict_later_values(rule in rule_text()) {
        let rule = HeapRule::parse(&rule).unwrap();
        let mut engine = engine_for(&rule, Vec::new()).unwrap();
        let period = loop {
            match next_proof_step(&rule, engine.values(), 1500) {
                ProofStep::Proven(p) => break Some(p),
                ProofStep::Extend(n) => { engine.extend_to_len(n, &mut Control::none()).unwrap(); }
                _ => break None,
            }
        };
        if let Some(period) = period {
            let known = engine.values().to_vec();
            let far = known.len() as u64 + 3 * period.period + 200;
            let direct = plain_values(&rule, far);
            for n in 0..far {
                prop_assert_eq!(period.value_at(&known, n), Some(u64::from(direct[n as usize])), "{} heap {}: {}", rule, n, period);
            }
        }
    }

    /// Stopping anywhere and resuming from the values so far gives the same sequence.
    #[test]
    fn resuming_gives_the_uninterrupted_result(rule in rule_text(), cut in 0u64..120) {
        let rule = HeapRule::parse(&rule).unwrap();
        let whole = plain_values(&rule, 120);
        let mut resumed = engine_for(&rule, whole[..cut as usize].to_vec()).unwrap();
        resumed.extend_to_len(120, &mut Control::none()).unwrap();
        prop_assert_eq!(resumed.values(), whole.as_slice());
    }

    /// Whole analyses of sums of heap games: the fast path and the generic engine agree on the
    /// value, the outcome and the exact winning moves.
    #[test]
    fn analyses_of_heap_sums_agree(rule in rule_text(), heaps in prop::collection::vec(0u64..14, 1..3), nim in 0u64..6) {
        let expr = format!("{rule} {} + nim {nim}", heaps.iter().map(u64::to_string).collect::<Vec<_>>().join(" "));
        let run = |engine| {
            let options = Options { context: Context { engine, ..Context::default() }, ..Options::default() };
            analyze(&expr, &options).unwrap_or_else(|e| panic!("{expr}: {e}"))
        };
        let (fast, generic) = (run(Engine::Fast), run(Engine::Generic));
        prop_assert_eq!(fast.value, generic.value, "{}", expr);
        prop_assert_eq!(fast.outcome, generic.outcome, "{}", expr);
        prop_assert_eq!(&fast.winning_moves, &generic.winning_moves, "{}", expr);
    }
}

#[test]
fn printing_a_heap_sum_parses_back_to_it() {
    for text in [
        "kayles 10 20 + 0.137 5",
        "4!.0 7 + sub(1,3,4) 9",
        "allbut(1,2) 5 + lasker 3 + half 9",
    ] {
        let sum = grundy::catalog::parse(text).unwrap();
        assert_eq!(sum.to_string(), text);
        assert_eq!(
            grundy::catalog::parse(&sum.to_string()).unwrap().key(),
            sum.key()
        );
    }
}
