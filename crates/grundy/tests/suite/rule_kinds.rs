//! The checked heap-rule types keep their invariants: the constructors never panic, refuse
//! exactly the bad inputs, and what they build reads back through the expression language
//! as the same rule and runs on the engines without panicking.

use grundy::control::Control;
use grundy::heap::code::Code;
use grundy::heap::rules::{
    Constraint, HeapRule, MAX_SET_ELEMENT, RemovalSet, RuleError, RuleKind, TakeBreak,
};
use grundy::heap::sequence::engine_for;
use proptest::prelude::*;

/// Numbers near the edges: 0, small, around the largest set element, huge.
fn member() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..12,
        1 => Just(0u64),
        1 => (MAX_SET_ELEMENT - 2)..(MAX_SET_ELEMENT + 2),
        1 => any::<u64>(),
        1 => Just(u64::MAX),
    ]
}

fn constraint() -> impl Strategy<Value = Constraint> {
    prop_oneof![
        4 => Just(Constraint::Any),
        1 => Just(Constraint::Unequal),
        1 => Just(Constraint::NotAllEqual),
        1 => Just(Constraint::AllEqual),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn removal_sets_are_checked(set in prop::collection::vec(member(), 0..8)) {
        match RemovalSet::new(set.clone()) {
            Ok(checked) => {
                prop_assert!(!set.is_empty());
                prop_assert!(set.iter().all(|&v| (1..=MAX_SET_ELEMENT).contains(&v)));
                // Sorted, no repeats, the same members.
                prop_assert!(checked.windows(2).all(|w| w[0] < w[1]));
                prop_assert!(set.iter().all(|v| checked.contains(v)));
                prop_assert!(checked.iter().all(|v| set.contains(v)));
                // Both games built from it read back as themselves, and run.
                for kind in [RuleKind::Subtraction(checked.clone()), RuleKind::AllBut(checked)] {
                    let rule = HeapRule::from_kind(kind);
                    let again = HeapRule::parse(rule.name()).unwrap();
                    prop_assert_eq!(again.kind(), rule.kind());
                    let mut engine = engine_for(&rule, Vec::new()).unwrap();
                    engine.extend_to_len(40, &mut Control::none()).unwrap();
                }
            }
            Err(RuleError::EmptySet) => prop_assert!(set.is_empty()),
            Err(RuleError::ZeroRemoval) => prop_assert!(set.contains(&0)),
            Err(RuleError::RemovalTooLarge { value, max }) => {
                prop_assert_eq!(max, MAX_SET_ELEMENT);
                prop_assert!(value > MAX_SET_ELEMENT && set.contains(&value));
            }
            Err(e) => prop_assert!(false, "unexpected {e}"),
        }
    }

    #[test]
    fn take_break_codes_are_checked(
        digits in prop::collection::vec(prop_oneof![15 => 0u8..16, 1 => 16u8..=255], 1..5),
        constraints in prop::collection::vec(constraint(), 0..6),
    ) {
        let too_large = digits.iter().any(|&d| d > 15);
        let Ok(code) = Code::from_digits(digits) else { return Ok(()); };
        prop_assert!(!too_large);
        let n = code.digits().len();
        let result = TakeBreak::new(code.clone(), constraints.clone());
        let first_ok = code.digit(0) & 3 == 0;
        let count_ok = constraints.len() == n;
        let places_ok = constraints
            .iter()
            .enumerate()
            .all(|(j, &c)| c == Constraint::Any || code.digit(j) & 0b1100 != 0);
        prop_assert_eq!(result.is_ok(), first_ok && count_ok && places_ok, "{:?}", result);
        if let Ok(tb) = result {
            prop_assert_eq!(tb.code(), &code);
            prop_assert_eq!(tb.constraints(), constraints.as_slice());
            let rule = HeapRule::from_kind(RuleKind::TakeBreak(tb));
            let again = HeapRule::parse(rule.name()).unwrap();
            prop_assert_eq!(again.kind(), rule.kind());
            let mut engine = engine_for(&rule, Vec::new()).unwrap();
            engine.extend_to_len(24, &mut Control::none()).unwrap();
        }
    }
}

#[test]
fn the_old_out_of_bounds_set_cannot_be_built() {
    // `RuleKind::Subtraction(vec![0])` used to reach an out-of-bounds index; the set is
    // refused now, and so is every way of writing it.
    assert_eq!(RemovalSet::new(vec![0]), Err(RuleError::ZeroRemoval));
    assert!(HeapRule::parse("sub(0)").is_err());
    assert!(HeapRule::parse("allbut(0)").is_err());
    assert!(HeapRule::parse("bash(0)").is_err());
    assert_eq!(
        RemovalSet::up_to(MAX_SET_ELEMENT + 1),
        Err(RuleError::RemovalTooLarge {
            value: MAX_SET_ELEMENT + 1,
            max: MAX_SET_ELEMENT
        })
    );
}
