//! The engine against a plain computation from the definition, and known sequences.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use super::*;

/// Proptest cases: `default`, or `PROPTEST_CASES` when set (an explicit count in a
/// config would otherwise ignore it), for deeper runs by hand.
pub(super) fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

/// `g(0..=n)` straight from the definition: the mex over every `j` the code allows of every
/// way to leave 0, 1, 2 or 3 non-empty heaps totalling `n - j`.
fn reference(code: &Code, n: usize) -> Vec<u16> {
    let mut g: Vec<u16> = Vec::with_capacity(n + 1);
    for heap in 0..=n {
        let mut options = std::collections::BTreeSet::new();
        for j in 0..=heap {
            let rest = heap - j;
            if code.allows(j, 0) && j >= 1 && rest == 0 {
                options.insert(0);
            }
            if code.allows(j, 1) && j >= 1 && rest >= 1 {
                options.insert(g[rest]);
            }
            if code.allows(j, 2) {
                for a in 1..rest {
                    options.insert(g[a] ^ g[rest - a]);
                }
            }
            if code.allows(j, 3) {
                for a in 1..rest {
                    for b in 1..rest - a {
                        options.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                    }
                }
            }
        }
        g.push((0..).find(|v| !options.contains(v)).unwrap());
    }
    g
}

/// Sparse space from the first heap on, whatever the share of rare positions.
const ALWAYS_SPARSE: Tuning = Tuning {
    sparse_from: 1,
    max_rare_inverse: 1,
    ..DEFAULT_TUNING
};

/// Sparse space from the first heap, in short blocks whose far phase always runs beside the
/// block before (the pipeline of the two cores, on small inputs).
const ALWAYS_PIPELINED: Tuning = Tuning {
    sparse_from: 1,
    max_rare_inverse: 1,
    block_per_rare: 64,
    min_block: 4,
    pipeline_from: 0,
    copy_per_step: 1 << 20,
    force_helper: true,
    // Long enough for the helper's marks to be used for every block in debug builds.
    patience: std::time::Duration::from_secs(60),
    max_early: DEFAULT_TUNING.max_early,
    // Every pair with a known larger part marked by the helper (`far::FarJob::mark_pairs`):
    // a wrong mark would change a mex.
    fixed_far_pairs: Some(1 << 12),
    // Every far scan probes first (module `spread`).
    spread: spread::Spread::Always,
};

/// Sparse space from the first heap, with the far scans marking as many pairs before the
/// scan as they read on average, or none. The helper marks no scan pairs for values below
/// 128: their count adapts to its timing, and so would the scan steps these are compared by.
const EARLY_LONG: Tuning = Tuning {
    max_early: usize::MAX,
    fixed_far_pairs: Some(0),
    ..ALWAYS_SPARSE
};
const EARLY_NONE: Tuning = Tuning {
    max_early: 0,
    fixed_far_pairs: Some(0),
    ..ALWAYS_SPARSE
};
/// Spread early marks and probes in every far scan (module `spread`).
const SPREAD: Tuning = Tuning {
    spread: spread::Spread::Always,
    ..ALWAYS_SPARSE
};

/// As [`ALWAYS_PIPELINED`], but a block waits for nothing: whichever thread is first, the
/// block uses the helper's marks or makes its own (both paths, in an order the scheduler
/// decides).
const IMPATIENT: Tuning = Tuning {
    patience: std::time::Duration::ZERO,
    fixed_far_pairs: DEFAULT_TUNING.fixed_far_pairs,
    ..ALWAYS_PIPELINED
};

fn compute(code: &Code, n: usize, tuning: Tuning) -> SparseSequence {
    let mut seq =
        SparseSequence::with_tuning(moves::Moves::new(code).unwrap(), vec![0], tuning).unwrap();
    assert!(seq.extend_to(n as u64, &mut Control::none()).unwrap());
    assert_eq!(seq.values().len(), n + 1);
    seq
}

fn code(s: &str) -> Code {
    s.parse().unwrap()
}

/// Octal codes (digit before the point 0 or 4) with up to five digits after it.
fn octal_code() -> impl Strategy<Value = Code> {
    (
        prop::sample::select(vec![0u8, 4]),
        prop::collection::vec(0u8..8, 1..=5),
    )
        .prop_filter_map("allows a move", |(d0, rest)| {
            Code::from_digits(std::iter::once(d0).chain(rest).collect()).ok()
        })
}

/// Hexadecimal codes with up to three digits after the point.
fn hex_code() -> impl Strategy<Value = Code> {
    (
        prop::sample::select(vec![0u8, 4, 8, 12]),
        prop::collection::vec(0u8..16, 1..=3),
    )
        .prop_filter_map("allows a move", |(d0, rest)| {
            Code::from_digits(std::iter::once(d0).chain(rest).collect()).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    #[test]
    fn octal_codes_match_the_definition(code in octal_code()) {
        let expected = reference(&code, 300);
        prop_assert_eq!(compute(&code, 300, DEFAULT_TUNING).into_values(), expected.clone());
        prop_assert_eq!(compute(&code, 300, ALWAYS_SPARSE).into_values(), expected.clone());
        prop_assert_eq!(compute(&code, 300, ALWAYS_PIPELINED).into_values(), expected.clone());
        prop_assert_eq!(compute(&code, 300, IMPATIENT).into_values(), expected.clone());
    }

    /// The hand-over between the two threads at block boundaries: short blocks of random
    /// length, extended in random steps (a far job posted in one call is collected in the
    /// next), waiting for the helper or not, against the definition.
    #[test]
    fn the_helper_hand_over_keeps_the_values(
        code in octal_code(),
        min_block in 1usize..24,
        steps in prop::collection::vec(1usize..250, 1..6),
        patient in any::<bool>(),
    ) {
        let n = 700;
        let expected = reference(&code, n);
        let tuning = Tuning {
            min_block,
            ..if patient { ALWAYS_PIPELINED } else { IMPATIENT }
        };
        let mut seq =
            SparseSequence::with_tuning(moves::Moves::new(&code).unwrap(), vec![0], tuning)
                .unwrap();
        let mut to = 0;
        for step in steps {
            to = (to + step).min(n);
            prop_assert!(seq.extend_to(to as u64, &mut Control::none()).unwrap());
            prop_assert_eq!(seq.values(), &expected[..=to]);
        }
        prop_assert!(seq.extend_to(n as u64, &mut Control::none()).unwrap());
        prop_assert_eq!(seq.values(), &expected[..]);
        // A clone starts without the helper and goes on alike.
        let mut copy = seq.clone();
        prop_assert!(copy.extend_to(n as u64 + 50, &mut Control::none()).unwrap());
        prop_assert!(seq.extend_to(n as u64 + 50, &mut Control::none()).unwrap());
        prop_assert_eq!(copy.values(), seq.values());
    }

    #[test]
    fn hex_codes_match_the_definition(code in hex_code()) {
        let expected = reference(&code, 60);
        prop_assert_eq!(compute(&code, 60, DEFAULT_TUNING).into_values(), expected.clone());
        prop_assert_eq!(compute(&code, 60, ALWAYS_SPARSE).into_values(), expected.clone());
    }

    #[test]
    fn resuming_from_a_prefix_gives_the_same_values(code in octal_code(), cut in 1usize..400) {
        let whole = compute(&code, 600, DEFAULT_TUNING);
        let prefix = whole.values()[..cut].to_vec();
        let mut resumed = SparseSequence::from_prefix(&code, prefix).unwrap();
        prop_assert!(resumed.extend_to(600, &mut Control::none()).unwrap());
        prop_assert_eq!(resumed.values(), whole.values());
    }
}

/// Longer runs of games known to have sparse space, where the rare list, the parallel far
/// marking and the mask changes all come into play.
#[test]
fn sparse_games_match_the_definition_further() {
    let mut games_pipelined = 0;
    for s in ["0.167", "0.161", "0.14", "0.45", "4.7"] {
        let c = code(s);
        let expected = reference(&c, 1500);
        assert_eq!(
            compute(&c, 1500, DEFAULT_TUNING).values(),
            &expected[..],
            "{s}"
        );
        assert_eq!(
            compute(&c, 1500, ALWAYS_SPARSE).values(),
            &expected[..],
            "{s}"
        );
        let pipelined = compute(&c, 1500, ALWAYS_PIPELINED);
        assert_eq!(pipelined.values(), &expected[..], "{s}");
        let impatient = compute(&c, 1500, IMPATIENT);
        assert_eq!(impatient.values(), &expected[..], "{s}");
        if pipelined.stats().pipelined_blocks > 0 {
            games_pipelined += 1;
        }
    }
    // 4.7 has too little far work to hand to another core.
    assert!(games_pipelined >= 4, "{games_pipelined}");
}

/// Kayles (0.77): A002186 in the OEIS; period 12 from n = 71, the last exceptional value
/// being g(70) (Guy and Smith 1956; Winning Ways ch. 4).
#[test]
fn kayles_period() {
    let seq = compute(&code("0.77"), 20000, DEFAULT_TUNING);
    let g = seq.values();
    assert_eq!(
        g[..24],
        [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7
        ]
    );
    assert!((71..g.len() - 12).all(|n| g[n] == g[n + 12]));
    assert_ne!(g[70], g[82]);
    assert_eq!(g[72..84], [4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]);
}

/// Dawson's chess (0.137): period 34 from n = 52 (Guy and Smith 1956); its heap `n` plays
/// like Dawson's Kayles (0.07, A002187 in the OEIS) with `n + 1`.
#[test]
fn dawsons_chess_period() {
    let seq = compute(&code("0.137"), 20000, DEFAULT_TUNING);
    let g = seq.values();
    assert_eq!(
        g[..20],
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]
    );
    let dawsons_kayles = compute(&code("0.07"), 20001, DEFAULT_TUNING);
    assert_eq!(g, &dawsons_kayles.values()[1..]);
    assert!((52..g.len() - 34).all(|n| g[n] == g[n + 34]));
    assert_ne!(g[51], g[85]);
}

#[test]
fn cancelled_runs_leave_a_valid_prefix() {
    let c = code("0.167");
    let flag = AtomicBool::new(true);
    let mut seq = SparseSequence::new(&c).unwrap();
    assert!(
        !seq.extend_to(5000, &mut Control::none().with_cancel(&flag))
            .unwrap()
    );
    let reference = reference(&c, 300);
    let got = seq.values();
    assert!(!got.is_empty() && got.len() <= 5001);
    assert_eq!(got, &reference[..got.len()]);
}

#[test]
fn progress_is_reported_to_the_end() {
    let mut last = (0, 0);
    let mut progress = |done: u64, total: u64| last = (done, total);
    let mut seq = SparseSequence::new(&code("0.167")).unwrap();
    assert!(
        seq.extend_to(100_000, &mut Control::none().with_progress(&mut progress))
            .unwrap()
    );
    assert_eq!(last, (100_001, 100_001));
}

#[test]
fn extending_in_steps_gives_the_same_values() {
    let c = code("0.161");
    let whole = compute(&c, 50_000, DEFAULT_TUNING);
    let mut steps = SparseSequence::new(&c).unwrap();
    for n in [10, 100, 1000, 1001, 33_333, 50_000] {
        assert!(steps.extend_to(n, &mut Control::none()).unwrap());
    }
    assert_eq!(steps.values(), whole.values());
}

#[test]
fn stats_describe_the_sparse_space() {
    let seq = compute(&code("0.167"), 100_000, DEFAULT_TUNING);
    let stats = seq.stats();
    assert_eq!(stats.computed, 100_001);
    let mask = stats.mask.expect("0.167 has sparse space");
    assert!(stats.rare_positions < 100_000 / 8);
    let rare_count: u64 = (0..stats.histogram.len())
        .filter(|&v| !is_common(v as u16, mask))
        .map(|v| stats.histogram[v])
        .sum();
    assert_eq!(rare_count, stats.rare_positions);
    assert_eq!(stats.histogram.iter().sum::<u64>(), 100_000);
    assert_eq!(stats.max_value as usize, stats.histogram.len() - 1);
    assert!(stats.rare_xor_steps > 0);
}

/// 0.4 has no sparse space (a large share of heaps have value 0, rare under every mask):
/// the engine computes it in full and keeps no rare list.
#[test]
fn games_without_sparse_space_are_computed_in_full() {
    let c = code("0.4");
    let seq = compute(&c, 3000, DEFAULT_TUNING);
    assert_eq!(seq.values(), &reference(&c, 3000)[..]);
    let stats = seq.stats();
    assert_eq!(stats.mask, None);
    assert_eq!(stats.dense_values, 3000);
    assert_eq!(stats.rare_xor_steps, 0);
}

#[test]
fn bad_input_is_refused() {
    assert!(matches!(
        SparseSequence::new(&code("1.7")),
        Err(SparseError::Unsupported { .. })
    ));
    assert!(matches!(
        SparseSequence::from_prefix(&code("0.77"), vec![1, 2]),
        Err(SparseError::BadPrefix(_))
    ));
    let mut seq = SparseSequence::new(&code("0.77")).unwrap();
    assert!(matches!(
        seq.extend_to(u64::MAX, &mut Control::none()),
        Err(SparseError::HeapTooLarge { .. })
    ));
    let err = SparseSequence::new(&code("2.7")).unwrap_err().to_string();
    assert!(
        err.contains("2.7") && err.contains("before the point"),
        "{err}"
    );
}

#[test]
fn values_past_sixteen_bits_are_refused() {
    let mut seq = SparseSequence::new(&code("0.77")).unwrap();
    assert_eq!(seq.push(65535), Ok(()));
    assert_eq!(seq.push(65536), Err(SparseError::ValueTooLarge { n: 2 }));
    assert_eq!(seq.values(), [0, 65535]);
}

#[test]
fn memory_needed_grows_with_n() {
    let c = code("0.167");
    let small = SparseSequence::memory_needed(&c, 1000);
    let big = SparseSequence::memory_needed(&c, 1 << 30);
    assert!(big >= 2 << 30);
    assert!(big > small);
}

/// Octal codes with a random constraint on each digit that splits.
fn constrained_code() -> impl Strategy<Value = TakeBreak> {
    use crate::heap::rules::Constraint;
    let constraint = prop::sample::select(vec![
        Constraint::Any,
        Constraint::Unequal,
        Constraint::NotAllEqual,
        Constraint::AllEqual,
    ]);
    (octal_code(), prop::collection::vec(constraint, 6)).prop_filter_map(
        "constraints on splitting digits",
        |(code, picks)| {
            let constraints = (0..code.digits().len())
                .map(|j| {
                    if code.digit(j) & 4 != 0 {
                        picks[j]
                    } else {
                        Default::default()
                    }
                })
                .collect();
            TakeBreak::new(code, constraints).ok()
        },
    )
}

/// The plain engine's values for a constrained code.
fn plain_values(tb: &TakeBreak, n: usize) -> Vec<u16> {
    use crate::heap::rules::{HeapRule, RuleKind};
    let rule = HeapRule::from_kind(RuleKind::TakeBreak(tb.clone()));
    let mut plain = crate::heap::plain::PlainSequence::new(&rule);
    assert!(
        plain
            .extend_to_len(n as u64 + 1, &mut Control::none())
            .unwrap()
    );
    plain.into_values()
}

fn compute_constrained(tb: &TakeBreak, n: usize, tuning: Tuning) -> Vec<u16> {
    let mut seq = SparseSequence::with_tuning(Moves::of(tb).unwrap(), vec![0], tuning).unwrap();
    assert!(seq.extend_to(n as u64, &mut Control::none()).unwrap());
    seq.into_values()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(200)))]

    #[test]
    fn constrained_codes_match_the_plain_engine(tb in constrained_code()) {
        let expected = plain_values(&tb, 400);
        prop_assert_eq!(compute_constrained(&tb, 400, DEFAULT_TUNING), expected.clone());
        prop_assert_eq!(compute_constrained(&tb, 400, ALWAYS_SPARSE), expected.clone());
        prop_assert_eq!(compute_constrained(&tb, 400, ALWAYS_PIPELINED), expected);
    }
}

/// Grundy's game (`4!.0`) has sparse space (Flammenkamp's mask: every bit but the lowest):
/// far enough for the rare list, the parallel far phase and values past 64 and 128.
#[test]
fn grundys_game_matches_the_plain_engine() {
    let tb = match crate::heap::rules::HeapRule::parse("grundys-game")
        .unwrap()
        .kind()
    {
        crate::heap::rules::RuleKind::TakeBreak(tb) => tb.clone(),
        other => panic!("{other:?}"),
    };
    // Rare positions are over an eighth of all until some 5000 heaps: the engine computes
    // in full until then.
    let n = 1 << 14;
    let expected = plain_values(&tb, n);
    assert_eq!(compute_constrained(&tb, n, DEFAULT_TUNING), expected);
    assert_eq!(compute_constrained(&tb, n, ALWAYS_SPARSE), expected);
    assert_eq!(compute_constrained(&tb, n, ALWAYS_PIPELINED), expected);
    assert_eq!(compute_constrained(&tb, n, EARLY_LONG), expected);
    assert_eq!(compute_constrained(&tb, n, SPREAD), expected);
    // The far scans mark pairs before scanning (more pairs in all than without).
    // Step counts compared on one thread: the helper's share adapts to its timing.
    let scan_steps = |tuning: Tuning| {
        let tuning = Tuning {
            pipeline_from: usize::MAX,
            ..tuning
        };
        let mut seq = SparseSequence::with_tuning(Moves::of(&tb).unwrap(), vec![0], tuning);
        let seq = seq.as_mut().unwrap();
        seq.extend_to(n as u64, &mut Control::none()).unwrap();
        seq.stats().scan_steps
    };
    assert!(scan_steps(EARLY_LONG) > scan_steps(EARLY_NONE));
    // The spread early marks and probes ran (module `spread`): other pairs were read.
    assert_ne!(scan_steps(SPREAD), scan_steps(ALWAYS_SPARSE));
    let mut seq = SparseSequence::from_take_break(&tb, vec![0]).unwrap();
    seq.extend_to(n as u64, &mut Control::none()).unwrap();
    let stats = seq.stats();
    assert!(stats.mask.is_some(), "{stats:?}");
    assert!(stats.rare_positions * 8 < n as u64, "{stats:?}");
}

#[test]
fn constraints_on_three_heap_splits_are_left_to_the_plain_engine() {
    let rule = crate::heap::rules::HeapRule::parse("0.8!").unwrap();
    let crate::heap::rules::RuleKind::TakeBreak(tb) = rule.kind() else {
        panic!()
    };
    assert!(matches!(
        SparseSequence::from_take_break(tb, vec![0]),
        Err(SparseError::Unsupported { .. })
    ));
}

/// Games whose values pass 128, 256 and 512 within a few thousand heaps: the byte tables,
/// the streamed rare partners (values 129..1024) and the far scan, forced on from the first
/// heap, against the plain engine; with and without the `!` constraint.
#[test]
fn games_with_values_past_128_match_the_plain_engine() {
    let mut largest_of_all = 0;
    for (rule, n) in [
        ("0.66", 6000),
        ("0.66!", 4000),
        ("4!.6", 4000),
        ("0.6!6", 4000),
    ] {
        let tb = match crate::heap::rules::HeapRule::parse(rule).unwrap().kind() {
            crate::heap::rules::RuleKind::TakeBreak(tb) => tb.clone(),
            other => panic!("{other:?}"),
        };
        let expected = plain_values(&tb, n);
        let largest = *expected.iter().max().unwrap();
        assert!(largest > 128, "{rule}: {largest}");
        largest_of_all = largest_of_all.max(largest);
        for tuning in [
            DEFAULT_TUNING,
            ALWAYS_SPARSE,
            ALWAYS_PIPELINED,
            EARLY_LONG,
            EARLY_NONE,
            SPREAD,
        ] {
            assert_eq!(compute_constrained(&tb, n, tuning), expected, "{rule}");
        }
    }
    assert!(largest_of_all > 512, "{largest_of_all}");
}

proptest! {
    // Most random codes keep small values: they are rejected (cheaply) until 40 grow.
    #![proptest_config(ProptestConfig {
        max_global_rejects: 1 << 20,
        ..ProptestConfig::with_cases(cases(40))
    })]

    /// Random codes with random constraints whose values pass 128 within 1200 heaps, forced
    /// into sparse space, against the plain engine.
    #[test]
    fn growing_constrained_codes_match_the_plain_engine(tb in constrained_code()) {
        let n = 1200;
        let expected = plain_values(&tb, n);
        prop_assume!(expected.iter().any(|&v| v > 128));
        prop_assert_eq!(compute_constrained(&tb, n, ALWAYS_SPARSE), expected.clone());
        prop_assert_eq!(compute_constrained(&tb, n, EARLY_LONG), expected.clone());
        prop_assert_eq!(compute_constrained(&tb, n, ALWAYS_PIPELINED), expected);
    }
}
