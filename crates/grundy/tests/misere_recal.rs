//! Quotients whose new heaps split old elements (the recalibration of
//! `grundy::misere::recal`), checked against an identity between two games and against the
//! definition.
//!
//! Dawson's chess 0.137 heap `n` is the same game tree as Dawson's Kayles 0.07 heap `n + 1`
//! (0.07 removes two counters leaving 0, 1 or 2 heaps; its heap 1 has no move). So the quotient
//! of 0.137's heaps `1..=N` and that of 0.07's heaps `1..=N+1` must be isomorphic, with the
//! same P-portion and the heap maps shifted by one. The two are computed independently (their
//! generators, options and trials differ), so a wrong recalibration would have to go wrong the
//! same way twice. From heap 24 of 0.137 (25 of 0.07) new heaps split old elements.
//!
//! Published figure: Siegel (miseregames blog, 28 Aug 2007, "Some MisereSolver questions
//! answered") gives |Q_30(0.07)| = 360 (the quotient of 0.07's heaps 1..30); see
//! tests/data/misere/quotients.txt.

use grundy::control::{Budget, Limits};
use grundy::heap::rules::HeapRule;
use grundy::misere::quotient::{HeapQuotient, heap_quotient};
use std::collections::HashMap;

fn quotient(rule: &str, max_heap: u64) -> HeapQuotient {
    let budget = Budget::new(Limits {
        max_work: 50_000_000_000,
        ..Limits::DEFAULT
    });
    heap_quotient(&HeapRule::parse(rule).unwrap(), max_heap, &budget, 4000).unwrap()
}

/// Checks that `a` (0.137 to `n`) and `b` (0.07 to `n + 1`) are isomorphic through the
/// heap maps: the map sending the element of a representative sum of 0.137 heaps to the
/// element of the same sum with every heap one larger in 0.07.
fn assert_isomorphic(a: &HeapQuotient, b: &HeapQuotient) {
    let (qa, qb) = (&a.quotient, &b.quotient);
    assert_eq!(qa.order(), qb.order(), "orders");
    assert_eq!(a.orders[1..], b.orders[2..], "orders heap by heap");
    let n = qa.order();
    let mut phi = vec![0u32; n];
    for (x, slot) in phi.iter_mut().enumerate() {
        let rep = qa.representative(x as u32);
        *slot = rep.iter().fold(0, |y, &g| {
            let size: u64 = a.generators.name(g).parse().unwrap();
            qb.mul(y, b.heap_map[size as usize + 1])
        });
    }
    let mut seen = HashMap::new();
    for (x, &y) in phi.iter().enumerate() {
        assert!(seen.insert(y, x).is_none(), "not one to one: {x} and {}", seen[&y]);
        assert_eq!(qa.is_p(x as u32), qb.is_p(y), "P-portion at {x}");
    }
    for x in 0..n as u32 {
        for y in 0..n as u32 {
            assert_eq!(
                phi[qa.mul(x, y) as usize],
                qb.mul(phi[x as usize], phi[y as usize]),
                "product of {x} and {y}"
            );
        }
    }
    for (size, &x) in a.heap_map.iter().enumerate().skip(1) {
        assert_eq!(phi[x as usize], b.heap_map[size + 1], "heap {size}");
    }
}

#[test]
fn dawsons_chess_and_dawsons_kayles_agree_past_the_first_split() {
    // 0.137 splits old elements at heap 24 (order 24 -> 144) and again at 25.
    let a = quotient("0.137", 25);
    let b = quotient("0.07", 26);
    assert_eq!(a.orders[23], 24);
    assert_eq!(a.orders[24], 144);
    assert_isomorphic(&a, &b);
}

#[test]
#[ignore = "deep: about 20 s in debug"]
fn dawsons_chess_and_dawsons_kayles_agree_to_the_published_order() {
    let a = quotient("0.137", 29);
    let b = quotient("0.07", 30);
    // Siegel: |Q_30(0.07)| = 360.
    assert_eq!(b.quotient.order(), 360);
    assert_isomorphic(&a, &b);
}
