//! The periodicity theorem for misère quotients (`grundy::misere::periodicity`) against
//! quotients computed much further.
//!
//! A period the theorem calls proven at heap `M` (the bound it needs, computed exactly to it)
//! must predict the quotient computed independently to `2M` or more: the same monoid (an
//! isomorphism read from representatives, preserving products and the P-portion) and, for every
//! heap up to there, the element the period gives. A wrong bound or a wrong proof fails this
//! on some code; a range one heap short of the bound is never reported as proven. Independently
//! of the quotient code, sums with heaps past the computed ones, placed through a proven
//! period, agree with the misère outcome from the definition.

use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::MisereError;
use grundy::misere::periodicity::{assess, heap_quotient_proving, proves};
use grundy::misere::quotient::{HeapQuotient, MapPeriod, heap_quotient};
use proptest::prelude::*;

use crate::common::misere_definition;
use misere_definition::all_outcomes;

/// The most heaps a far quotient is computed to.
const FAR_CAP: u64 = 120;

fn budget() -> Budget {
    Budget::new(Limits {
        max_work: 8_000_000,
        ..Limits::DEFAULT
    })
}

/// The quotient, or `None` when it is too large for the test's budget (refused, never wrong).
fn try_quotient(rule: &HeapRule, n: u64) -> Option<HeapQuotient> {
    match heap_quotient(rule, n, &budget(), 400) {
        Ok(q) => Some(q),
        Err(MisereError::Budget(_) | MisereError::TooManyElements { .. }) => None,
        Err(e) => panic!("{rule} to {n}: {e}"),
    }
}

/// Checks that `near` with its map extended by `period` is `far`: an isomorphism of the
/// monoids (read through `near`'s representatives) carrying products, the P-portion and the
/// element of every heap up to `far`'s last.
fn predicts(near: &HeapQuotient, far: &HeapQuotient, period: MapPeriod) -> Result<(), String> {
    let (nq, fq) = (&near.quotient, &far.quotient);
    if nq.order() != fq.order() {
        return Err(format!(
            "order {} to heap {}, {} to heap {}",
            nq.order(),
            near.generators.max_heap(),
            fq.order(),
            far.generators.max_heap()
        ));
    }
    // Heap size of each of near's generators.
    let mut heap_of = Vec::new();
    for s in 0..=near.generators.max_heap() {
        if let Some(g) = near.generators.of_heap(s) {
            assert_eq!(g as usize, heap_of.len());
            heap_of.push(s);
        }
    }
    let iso: Vec<u32> = (0..nq.order() as u32)
        .map(|x| {
            let gens: Vec<u32> = nq
                .representative(x)
                .iter()
                .map(|&g| {
                    far.generators
                        .of_heap(heap_of[g as usize])
                        .expect("a heap with moves in both")
                })
                .collect();
            fq.image(&gens)
        })
        .collect();
    let mut seen = vec![false; fq.order()];
    for &y in &iso {
        if std::mem::replace(&mut seen[y as usize], true) {
            return Err("two elements become one further on".into());
        }
    }
    for a in 0..nq.order() as u32 {
        if nq.is_p(a) != fq.is_p(iso[a as usize]) {
            return Err(format!("element {a} changes its outcome"));
        }
        for b in 0..nq.order() as u32 {
            if iso[nq.mul(a, b) as usize] != fq.mul(iso[a as usize], iso[b as usize]) {
                return Err(format!("the product of {a} and {b} changes"));
            }
        }
    }
    for n in 0..=far.generators.max_heap() {
        let x = near
            .element_of_heap(n, Some(period))
            .ok_or_else(|| format!("heap {n} is not placed"))?;
        if iso[x as usize] != far.heap_map[n as usize] {
            return Err(format!("heap {n} leaves the period"));
        }
    }
    Ok(())
}

/// For one code: where a period shows by heap 30, computes the quotient exactly to the bound
/// the theorem needs, and if it is proven there, checks it against the quotient to twice the
/// bound (at most [`FAR_CAP`]). Returns whether a proof was checked.
fn check_code(code: &str) -> Result<bool, String> {
    let rule = HeapRule::parse(code).unwrap();
    let Some(q30) = try_quotient(&rule, 30) else {
        return Ok(false);
    };
    let Some(r) = assess(&q30) else {
        return Ok(false);
    };
    let Some(m) = r.needed else {
        return Err(format!("{code}: a plain code is covered by the theorem"));
    };
    if m * 2 > FAR_CAP && m + 2 * r.period > FAR_CAP {
        return Ok(false);
    }
    // At the bound itself, or a little further when the window after the preperiod is too
    // short for a period to show (two periods and 8 heaps).
    let near_to = m.max(r.preperiod + 2 * r.period + 8);
    let Some(near) = try_quotient(&rule, near_to) else {
        return Ok(false);
    };
    let Some(rn) = assess(&near) else {
        return Ok(false);
    };
    if !rn.proven {
        return Ok(false);
    }
    let period = MapPeriod {
        period: rn.period,
        preperiod: rn.preperiod,
    };
    let far_to = (2 * m).min(FAR_CAP).max(m + 2 * rn.period);
    let Some(far) = try_quotient(&rule, far_to) else {
        return Ok(false);
    };
    predicts(&near, &far, period).map_err(|e| {
        format!(
            "{code}: period {} from {} proven at heap {m}, but to heap {far_to}: {e}",
            rn.period, rn.preperiod
        )
    })?;
    Ok(true)
}

/// Every octal code of one and two digits: each proof checked against the quotient to twice
/// its bound. Many apply (the count guards against a test that checks nothing).
#[test]
fn proofs_of_short_codes_hold_far_beyond_their_bound() {
    let mut checked = Vec::new();
    let mut codes: Vec<String> = (1..8).map(|d| format!("0.{d}")).collect();
    for a in 0..8 {
        for b in 1..8 {
            codes.push(format!("0.{a}{b}"));
        }
    }
    for code in &codes {
        if check_code(code).unwrap() {
            checked.push(code.clone());
        }
    }
    assert!(checked.len() >= 20, "only {checked:?}");
    assert!(checked.iter().any(|c| c == "0.75"), "{checked:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Random three-digit codes (and a digit before the point: splitting without removal).
    #[test]
    fn proofs_of_random_codes_hold_far_beyond_their_bound(
        whole in prop_oneof![Just(0u8), Just(4u8)],
        digits in proptest::collection::vec(0u8..8, 3),
    ) {
        prop_assume!(digits[2] != 0);
        let code = format!("{whole}.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
        check_code(&code).map_err(TestCaseError::fail)?;
        check_every_period(&code).map_err(TestCaseError::fail)?;
    }
}

/// The theorem itself, for every period it would prove: for each short code and each heap
/// bound N from 4 to 24, every `(n0, p)` the map repeats with up to N and that the theorem
/// proves at N must hold in the quotient to heap 60 (at least twice every bound used). Short
/// windows with accidental repeats (0.75 to heap 4: `a b a b`, then `c` at heap 5) are where a
/// wrong bound fails.
#[test]
fn every_period_the_theorem_proves_holds_to_heap_60() {
    let mut claims = 0;
    let mut codes: Vec<String> = (1..8).map(|d| format!("0.{d}")).collect();
    for a in 0..8 {
        for b in 1..8 {
            codes.push(format!("0.{a}{b}"));
        }
    }
    codes.extend(["4.7", "0.8", "sub(1,3)", "0.123"].map(String::from));
    for code in &codes {
        claims += check_every_period(code).unwrap();
    }
    assert!(claims >= 200, "only {claims} proofs checked");
}

/// For heaps bounds N from 4 to 24, every period the theorem proves for the quotient to N,
/// checked against the quotient to heap 60; the number of proofs checked.
fn check_every_period(code: &str) -> Result<usize, String> {
    let rule = HeapRule::parse(code).unwrap();
    let Some(far) = try_quotient(&rule, 60) else {
        return Ok(0);
    };
    let mut claims = 0;
    for n in 4..=24u64 {
        let Some(near) = try_quotient(&rule, n) else {
            break;
        };
        for p in 1..=n / 2 {
            for n0 in 1..=n - p {
                let period = MapPeriod {
                    period: p,
                    preperiod: n0,
                };
                if proves(&near, period) {
                    claims += 1;
                    predicts(&near, &far, period).map_err(|e| {
                        format!("{code}: period {p} from {n0} proven at heap {n}: {e}")
                    })?;
                }
            }
        }
    }
    Ok(claims)
}

/// One heap short of the bound is not proven; at the bound it is.
#[test]
fn one_heap_short_of_the_bound_is_observed() {
    let rule = HeapRule::parse("0.75").unwrap();
    let short = assess(&heap_quotient(&rule, 21, &Budget::default(), 100).unwrap()).unwrap();
    assert_eq!((short.period, short.preperiod), (2, 8));
    assert_eq!(short.needed, Some(22));
    assert!(!short.proven);
    let at = assess(&heap_quotient(&rule, 22, &Budget::default(), 100).unwrap()).unwrap();
    assert_eq!((at.period, at.preperiod, at.needed), (2, 8, Some(22)));
    assert!(at.proven);
    // The extension computes exactly to the bound.
    let q = heap_quotient_proving(&rule, 21, &Budget::default(), 100, 22).unwrap();
    assert_eq!(q.generators.max_heap(), 22);
    assert!(q.reported_period().unwrap().proven);
    // Not past the caller's limit: observed.
    let q = heap_quotient_proving(&rule, 21, &Budget::default(), 100, 21).unwrap();
    assert_eq!(q.generators.max_heap(), 21);
    assert!(!q.reported_period().unwrap().proven);
}

/// Kayles: period 12 from heap 71, so the theorem needs heaps to 2·(71 + 12) + 2 = 168.
#[test]
fn kayles_period_is_proven_at_heap_168() {
    let rule = HeapRule::parse("kayles").unwrap();
    let short = assess(&heap_quotient(&rule, 167, &Budget::default(), 100).unwrap()).unwrap();
    assert_eq!(
        (short.period, short.preperiod, short.needed),
        (12, 71, Some(168))
    );
    assert!(!short.proven);
    let at = heap_quotient(&rule, 168, &Budget::default(), 100).unwrap();
    let r = assess(&at).unwrap();
    assert_eq!((r.period, r.preperiod, r.needed), (12, 71, Some(168)));
    assert!(r.proven);
    assert_eq!(at.quotient.order(), 40);
}

/// Kayles's proof at 168 against its quotient to 400 (cheap: from heap 71 on, each heap
/// repeats an older heap's type and costs no verification).
#[test]
fn kayles_proof_holds_to_heap_400() {
    let rule = HeapRule::parse("kayles").unwrap();
    let near = heap_quotient(&rule, 168, &Budget::default(), 100).unwrap();
    let far = heap_quotient(&rule, 400, &Budget::default(), 100).unwrap();
    let period = near.period().unwrap();
    predicts(&near, &far, period).unwrap();
}

/// Two-digit codes whose period is proven by heap 16: every sum of up to 6 tokens more than
/// the heaps computed (so single heaps and sums past them, placed through the period) has the
/// outcome of the definition.
#[test]
fn proven_periods_place_larger_heaps_as_the_definition_does() {
    let mut checked = 0;
    for a in 0..8 {
        for b in 1..8 {
            let code = format!("0.{a}{b}");
            let rule = HeapRule::parse(&code).unwrap();
            let Some(q) = try_quotient(&rule, 16).filter(|q| assess(q).is_some_and(|r| r.proven))
            else {
                continue;
            };
            let n = q.generators.max_heap();
            let period = q.period().unwrap();
            for (pos, is_p) in all_outcomes(&rule, n + 6, n + 6) {
                let v = grundy::misere::outcome::sum_verdict(&q, &pos, Some(period))
                    .unwrap_or_else(|| panic!("{code} {pos:?} not placed"));
                assert_eq!(v.is_p, is_p, "{code} to heap {n}: {pos:?}");
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} codes checked");
}
