//! Certified lower bounds on the order of a quotient that could not be finished: sums
//! pairwise told apart by real misère outcomes, read off a refuted trial.
//!
//! When the quotient of the generators `0..=i` is out of reach (the trials of
//! [`super::recal`] keep failing), the trials still prove something. Let `v` be the least
//! failing sum of a trial `(T, P, Φ)` (exponent vectors compared highest generator first,
//! [`super::dominance::least_failure`]). Every sum `G < v` is predicted right: its options
//! are smaller, the empty sum maps outside `P`, and `G` is not a failure, so by induction
//! `o⁻(G) = P` exactly when `Φ(G) ∈ P`. If two sums `A`, `B` and a test `X` have `A + X` and
//! `B + X` below `v` and `Φ(A)·Φ(X) ∈ P` differs from `Φ(B)·Φ(X) ∈ P`, then `A` and `B` are
//! two elements of the true quotient: `K` sums pairwise told apart this way prove that it
//! has at least `K` elements.
//!
//! The sums used are those below `v` of simple shapes, with `e` the number of copies of the
//! new generator `i` in `v` and `m` the largest other generator of `v`:
//! - any old generators and at most `e − 1` copies of `i` (fewer copies of the highest
//!   generator: smaller);
//! - generators below `m` and at most `e` copies of `i` (same copies, and the rest's highest
//!   generator below `v`'s: smaller).
//!
//! - *mixed*: the old sums (every old generator, no copy of `i`), told apart by old tests
//!   (exactly the elements of the verified quotient without `i`), together with the sums of
//!   generators below `m` and `1..=e` copies of `i`, told apart from those and from each other
//!   by the old tests of generators below `m`: the old order plus the new sums no old sum
//!   matches there.
//!
//! In each family the elements reached with at most `c` copies of `i` are the sums `A`, those
//! with at most `e' − c` copies the tests `X` (`e'` the family's total), for every split `c`;
//! the sums are grouped by partition refinement over the tests, and the largest count wins.
//! The result is a [`LowerBound`] *certificate*: the sums, the tests that split them, and the
//! outcome of each sum plus each test, which the tests of this module check against the
//! exhaustive search ([`super::oracle`]).
//!
//! Cost: a 0-1 breadth-first search over the trial's elements (`O(|T|·g)` for `g` generator
//! images) per family, then `O(|A|·|X|)` table look-ups per split.

use super::MisereError;
use super::monoid::Quotient;
use crate::control::Budget;
use rustc_hash::FxHashMap;
use std::collections::VecDeque;

/// Sums of generators pairwise told apart by misère outcomes: a proof that the quotient of
/// their closure has at least `sums.len()` elements.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LowerBound {
    /// The sums (sorted generator lists), pairwise in different quotient elements.
    pub sums: Vec<Vec<u32>>,
    /// The tests: for two of the sums, some test `X` gives `A + X` and `B + X` different
    /// misère outcomes.
    pub tests: Vec<Vec<u32>>,
    /// `outcomes[a][t]`: whether `sums[a] + tests[t]` is a misère P-position (`None`: not
    /// claimed, the sum being beyond what the trial proves). Every two sums have a test
    /// with both outcomes claimed and different.
    pub outcomes: Vec<Vec<Option<bool>>>,
}

impl LowerBound {
    /// The number of elements proven: the number of sums.
    pub fn elements(&self) -> usize {
        self.sums.len()
    }
}

/// The certificate read off a trial of the generators `0..=i` whose least failing sum is
/// `failure` (see the module docs); `None` when no sum of the shapes used is below it.
/// The trial must be a commutative monoid with its generator images (every trial of
/// [`super::refine`] is) with the identity outside its P-portion.
pub fn from_trial(
    trial: &Quotient,
    i: u32,
    failure: &[u32],
    budget: &Budget,
) -> Result<Option<LowerBound>, MisereError> {
    let e = failure.iter().filter(|&&g| g == i).count() as u32;
    let rest_max = failure.iter().copied().filter(|&g| g != i).max();
    let mut families: Vec<(u32, u32)> = Vec::new(); // (generators below, copies of i)
    if e >= 1 {
        families.push((i, e - 1));
    }
    if let Some(m) = rest_max {
        families.push((m, e));
    }
    let mut best: Option<LowerBound> = None;
    if let (true, Some(m)) = (e >= 1, rest_max) {
        best = Some(mixed(trial, i, m, e, budget)?);
    }
    for (below, copies) in families {
        let reach = reach(trial, i, below, copies, budget)?;
        for c in 0..=copies {
            let found = split(trial, &reach, c, copies - c, budget)?;
            if best
                .as_ref()
                .is_none_or(|b| found.elements() > b.elements())
            {
                best = Some(found);
            }
        }
    }
    Ok(best)
}

/// A cheap count of what [`from_trial`] would prove (at most its count: rows are compared by
/// a hash, and equal rows have equal hashes, so a collision can only lose a sum), with
/// `old_order` the order of the verified quotient of the generators `0..i`.
pub fn estimate(
    trial: &Quotient,
    i: u32,
    failure: &[u32],
    old_order: usize,
    budget: &Budget,
) -> Result<usize, MisereError> {
    let e = failure.iter().filter(|&&g| g == i).count() as u32;
    let rest_max = failure.iter().copied().filter(|&g| g != i).max();
    let n = trial.order() as u32;
    let row = |s: u32, tests: &[u32]| {
        tests.iter().fold(0x9e37_79b9_7f4a_7c15u64, |h, &x| {
            (h.rotate_left(7) ^ u64::from(trial.is_p(trial.mul(s, x))))
                .wrapping_mul(0x0100_0000_01b3)
        })
    };
    let mut best = 0usize;
    if let (true, Some(m)) = (e >= 1, rest_max) {
        let old = reach(trial, i, i, 0, budget)?;
        let small = reach(trial, i, m, e, budget)?;
        let tests: Vec<u32> = (0..n).filter(|&x| small.level[x as usize] == 0).collect();
        budget.charge((n as u64).saturating_mul(tests.len() as u64) / 64 + 1)?;
        let base: rustc_hash::FxHashSet<u64> = (0..n)
            .filter(|&x| old.level[x as usize] == 0)
            .map(|x| row(x, &tests))
            .collect();
        let mut extra: Vec<u64> = (0..n)
            .filter(|&x| (1..=e).contains(&small.level[x as usize]))
            .map(|x| row(x, &tests))
            .filter(|h| !base.contains(h))
            .collect();
        extra.sort_unstable();
        extra.dedup();
        best = old_order + extra.len();
    }
    let mut families: Vec<(u32, u32)> = Vec::new();
    if e >= 1 {
        families.push((i, e - 1));
    }
    if let Some(m) = rest_max {
        families.push((m, e));
    }
    for (below, copies) in families {
        let r = reach(trial, i, below, copies, budget)?;
        for c in 0..=copies {
            let sums: Vec<u32> = (0..n).filter(|&x| r.level[x as usize] <= c).collect();
            let tests: Vec<u32> = (0..n)
                .filter(|&x| r.level[x as usize] <= copies - c)
                .collect();
            budget.charge((sums.len() as u64).saturating_mul(tests.len() as u64) / 64 + 1)?;
            let mut rows: Vec<u64> = sums.iter().map(|&s| row(s, &tests)).collect();
            rows.sort_unstable();
            rows.dedup();
            best = best.max(rows.len());
        }
    }
    Ok(best)
}

/// The old sums (no copy of `i`, every old generator: all below the failure), told apart by
/// old tests, together with the sums of generators below `m` and `1..=e` copies of `i`, told
/// apart from them and from each other by the old tests of generators below `m` (their
/// sums stay below the failure): see the module docs.
fn mixed(
    trial: &Quotient,
    i: u32,
    m: u32,
    e: u32,
    budget: &Budget,
) -> Result<LowerBound, MisereError> {
    let old = reach(trial, i, i, 0, budget)?;
    let small = reach(trial, i, m, e, budget)?;
    let n = trial.order() as u32;
    let base: Vec<u32> = (0..n).filter(|&x| old.level[x as usize] == 0).collect();
    let extra: Vec<u32> = (0..n)
        .filter(|&x| (1..=e).contains(&small.level[x as usize]))
        .collect();
    // Step 1: every sum, by the small old tests.
    let all: Vec<u32> = base.iter().chain(&extra).copied().collect();
    let small_tests: Vec<u32> = (0..n).filter(|&x| small.level[x as usize] == 0).collect();
    let (class, t1) = refine(trial, &all, &small_tests, None, budget)?;
    let (base_first, extra_first) = class.split_at(base.len());
    // Classes holding a base sum: their extra sums are not counted.
    let count1 = class.iter().max().map_or(0, |&c| c as usize + 1);
    let mut has_base = vec![false; count1];
    for &c in base_first {
        has_base[c as usize] = true;
    }
    // Step 2: the base sums further, by every old test.
    let (base_class, t2) = refine(trial, &base, &base, Some(base_first), budget)?;
    let mut sums: Vec<(u32, bool)> = Vec::new(); // (element, is extra)
    let mut seen = vec![false; base_class.iter().max().map_or(0, |&c| c as usize + 1)];
    for (k, &c) in base_class.iter().enumerate() {
        if !std::mem::replace(&mut seen[c as usize], true) {
            sums.push((base[k], false));
        }
    }
    let mut seen = vec![false; count1];
    for (k, &c) in extra_first.iter().enumerate() {
        if !has_base[c as usize] && !std::mem::replace(&mut seen[c as usize], true) {
            sums.push((extra[k], true));
        }
    }
    let tests: Vec<u32> = t1.iter().chain(&t2).copied().collect();
    let words = |x: u32, is_extra: bool| {
        if is_extra { small.word(x) } else { old.word(x) }
    };
    Ok(LowerBound {
        sums: sums.iter().map(|&(x, ex)| words(x, ex)).collect(),
        tests: t1
            .iter()
            .map(|&x| small.word(x))
            .chain(t2.iter().map(|&x| old.word(x)))
            .collect(),
        outcomes: sums
            .iter()
            .map(|&(s, ex)| {
                tests
                    .iter()
                    .enumerate()
                    .map(|(k, &x)| (!ex || k < t1.len()).then(|| trial.is_p(trial.mul(s, x))))
                    .collect()
            })
            .collect(),
    })
}

/// Partition refinement of `elements` (from `start`, or one class) by the outcomes with each
/// test in turn: the classes, and the tests that split one.
fn refine(
    trial: &Quotient,
    elements: &[u32],
    tests: &[u32],
    start: Option<&[u32]>,
    budget: &Budget,
) -> Result<(Vec<u32>, Vec<u32>), MisereError> {
    let mut class: Vec<u32> = start.map_or_else(|| vec![0; elements.len()], <[u32]>::to_vec);
    let mut count = {
        let mut distinct = class.clone();
        distinct.sort_unstable();
        distinct.dedup();
        distinct.len()
    };
    let mut used = Vec::new();
    let mut renumber: FxHashMap<(u32, bool), u32> = FxHashMap::default();
    for &x in tests {
        if count == elements.len() {
            break;
        }
        budget.charge(elements.len() as u64 / 16 + 1)?;
        renumber.clear();
        for (k, &s) in elements.iter().enumerate() {
            let key = (class[k], trial.is_p(trial.mul(s, x)));
            let next = renumber.len() as u32;
            class[k] = *renumber.entry(key).or_insert(next);
        }
        if renumber.len() > count {
            count = renumber.len();
            used.push(x);
        }
    }
    Ok((class, used))
}

/// The elements reached by the generators `0..below` and at most `copies` copies of `i`:
/// for each, the least number of copies of `i` and a word.
struct Reach {
    /// `level[x]`: the least copies of `i` in a sum reaching `x` (`u32::MAX`: unreached).
    level: Vec<u32>,
    /// `parent[x]`: the element before the last generator of the word, and that generator.
    parent: Vec<(u32, u32)>,
}

impl Reach {
    fn word(&self, mut x: u32) -> Vec<u32> {
        let mut w = Vec::new();
        while x != 0 {
            let (p, g) = self.parent[x as usize];
            w.push(g);
            x = p;
        }
        w.sort_unstable();
        w
    }
}

fn reach(
    trial: &Quotient,
    i: u32,
    below: u32,
    copies: u32,
    budget: &Budget,
) -> Result<Reach, MisereError> {
    let n = trial.order();
    // Letters: one generator per distinct image (cost 0), then `i` (cost 1).
    let mut letters: Vec<(u32, u32, u32)> = Vec::new(); // (image, generator, cost)
    for g in 0..below.min(i) {
        let h = trial.image_of_generator(g);
        if !letters.iter().any(|&(x, _, _)| x == h) {
            letters.push((h, g, 0));
        }
    }
    letters.push((trial.image_of_generator(i), i, 1));
    let mut level = vec![u32::MAX; n];
    let mut parent = vec![(0u32, 0u32); n];
    level[0] = 0;
    let mut deque: VecDeque<u32> = VecDeque::from([0]);
    while let Some(x) = deque.pop_front() {
        budget.charge(letters.len() as u64 / 4 + 1)?;
        let lx = level[x as usize];
        for &(h, g, cost) in &letters {
            let y = trial.mul(x, h);
            let ly = lx + cost;
            if ly <= copies && ly < level[y as usize] {
                level[y as usize] = ly;
                parent[y as usize] = (x, g);
                if cost == 0 {
                    deque.push_front(y);
                } else {
                    deque.push_back(y);
                }
            }
        }
    }
    Ok(Reach { level, parent })
}

/// The sums with at most `a` copies of the new generator, grouped by the tests with at
/// most `t` copies (partition refinement, one test at a time).
fn split(
    trial: &Quotient,
    reach: &Reach,
    a: u32,
    t: u32,
    budget: &Budget,
) -> Result<LowerBound, MisereError> {
    let sums: Vec<u32> = (0..trial.order() as u32)
        .filter(|&x| reach.level[x as usize] <= a)
        .collect();
    let tests: Vec<u32> = (0..trial.order() as u32)
        .filter(|&x| reach.level[x as usize] <= t)
        .collect();
    let (class, used) = refine(trial, &sums, &tests, None, budget)?;
    // The classes are numbered 0, 1, ... (all 0 when no test split them).
    let count = class.iter().max().map_or(0, |&m| m as usize + 1);
    // One sum per class.
    let mut first: Vec<Option<u32>> = vec![None; count];
    for (k, &s) in sums.iter().enumerate() {
        first[class[k] as usize].get_or_insert(s);
    }
    let reps: Vec<u32> = first.into_iter().flatten().collect();
    Ok(LowerBound {
        sums: reps.iter().map(|&s| reach.word(s)).collect(),
        tests: used.iter().map(|&x| reach.word(x)).collect(),
        outcomes: reps
            .iter()
            .map(|&s| {
                used.iter()
                    .map(|&x| Some(trial.is_p(trial.mul(s, x))))
                    .collect()
            })
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::rules::HeapRule;
    use crate::misere::dominance::least_failure;
    use crate::misere::generators::Generators;
    use crate::misere::oracle::Oracle;
    use crate::misere::quotient::compute;
    use proptest::prelude::*;

    fn cases() -> u32 {
        std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(32)
    }

    fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
        let mut v = [a, b].concat();
        v.sort_unstable();
        v
    }

    /// Checks a certificate from the definition: the outcomes by the exhaustive search (each
    /// under a work limit of its own; one past it is left unchecked), and the sums' rows
    /// pairwise different. Returns how many outcomes were checked.
    fn check(gens: &Generators, cert: &LowerBound) -> usize {
        let mut oracle = Oracle::default();
        let none = |_: &[u32]| None;
        let mut checked = 0;
        for (s, row) in cert.sums.iter().zip(&cert.outcomes) {
            for (t, claimed) in cert.tests.iter().zip(row) {
                let Some(claimed) = *claimed else { continue };
                let budget = Budget::new(crate::control::Limits {
                    max_work: 2_000_000,
                    ..crate::control::Limits::DEFAULT
                });
                match oracle.is_p(gens, &merge(s, t), &none, &budget) {
                    Ok(truth) => {
                        assert_eq!(truth, claimed, "{s:?} + {t:?}");
                        checked += 1;
                    }
                    Err(MisereError::Budget(_)) => {}
                    Err(e) => panic!("{e}"),
                }
            }
        }
        for (a, ra) in cert.outcomes.iter().enumerate() {
            for (b, rb) in cert.outcomes.iter().enumerate().skip(a + 1) {
                assert!(
                    ra.iter()
                        .zip(rb)
                        .any(|(x, y)| x.is_some() && y.is_some() && x != y),
                    "{:?} and {:?} are not told apart",
                    cert.sums[a],
                    cert.sums[b]
                );
            }
        }
        checked
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        /// On trials of random codes (the verified quotient with its P-portion or the new
        /// generator's image disturbed, so that it fails), every outcome the certificate
        /// claims is the exhaustive search's, its sums are told apart, and its count is at
        /// most the true order.
        #[test]
        fn certificates_hold_against_the_exhaustive_search(
            digits in proptest::collection::vec(0u8..8, 2..4),
            heaps in 4u64..11,
            flips in proptest::collection::vec(0usize..1000, 0..3),
            image in proptest::option::of(0usize..1000),
        ) {
            prop_assume!(digits.iter().any(|&d| d != 0));
            let code = format!("0.{}", digits.iter().map(|d| d.to_string()).collect::<String>());
            let rule = HeapRule::parse(&code).unwrap();
            let budget = Budget::default();
            let Ok(gens) = Generators::heaps(&rule, heaps, &budget) else { return Ok(()) };
            if gens.is_empty() { return Ok(()) }
            let Ok(q) = compute(&gens, &budget, 300, |_, _| Ok(())) else { return Ok(()) };
            let i = gens.len() as u32 - 1;
            let n = q.order();
            let mut p: Vec<bool> = (0..n as u32).map(|x| q.is_p(x)).collect();
            for f in flips {
                let x = f % n;
                if x != 0 { p[x] = !p[x]; }
            }
            let mut images: Vec<u32> = (0..=i).map(|g| q.image_of_generator(g)).collect();
            if let Some(x) = image { images[i as usize] = (x % n) as u32; }
            let reps = (0..n as u32).map(|x| q.representative(x).to_vec()).collect();
            let trial = Quotient::from_parts(q.table().to_vec(), p, reps, images);
            let Some(v) = least_failure(&gens, &trial, i, &budget).unwrap() else {
                return Ok(())
            };
            if v.is_empty() { return Ok(()) }
            if let Some(cert) = from_trial(&trial, i, &v, &budget).unwrap() {
                check(&gens, &cert);
                prop_assert!(cert.elements() <= n, "{} > order {}", cert.elements(), n);
            }
        }
    }

    #[test]
    fn certificates_of_disturbed_trials_of_classic_codes_hold() {
        // Every element's P-marking flipped in turn: each trial fails, and its certificate's
        // outcomes are checked by the exhaustive search.
        let budget = Budget::default();
        let (mut certificates, mut checked, mut largest) = (0, 0, 0);
        for (code, heaps) in [("0.75", 10), ("0.137", 9), ("0.07", 10), ("0.77", 8)] {
            let rule = HeapRule::parse(code).unwrap();
            let gens = Generators::heaps(&rule, heaps, &budget).unwrap();
            let q = compute(&gens, &budget, 300, |_, _| Ok(())).unwrap();
            let i = gens.len() as u32 - 1;
            let n = q.order();
            for x in 1..n {
                let mut p: Vec<bool> = (0..n as u32).map(|y| q.is_p(y)).collect();
                p[x] = !p[x];
                let images = (0..=i).map(|g| q.image_of_generator(g)).collect();
                let reps = (0..n as u32)
                    .map(|y| q.representative(y).to_vec())
                    .collect();
                let trial = Quotient::from_parts(q.table().to_vec(), p, reps, images);
                let Some(v) = least_failure(&gens, &trial, i, &budget).unwrap() else {
                    continue;
                };
                if let Some(cert) = from_trial(&trial, i, &v, &budget).unwrap() {
                    certificates += 1;
                    checked += check(&gens, &cert);
                    largest = largest.max(cert.elements());
                    assert!(cert.elements() <= n);
                }
            }
        }
        assert!(certificates >= 10, "{certificates} certificates");
        assert!(checked >= 100, "{checked} outcomes checked");
        assert!(largest >= 4, "largest certificate {largest}");
    }

    #[test]
    fn an_undisturbed_trial_below_a_late_failure_proves_the_whole_order() {
        // The verified quotient of 0.75 to heap 10 (R8) as a trial, with a made-up failure
        // far out (three copies of the last heap): the sums with two copies and any old
        // heaps tell all 8 elements apart.
        let rule = HeapRule::parse("0.75").unwrap();
        let budget = Budget::default();
        let gens = Generators::heaps(&rule, 10, &budget).unwrap();
        let q = compute(&gens, &budget, 100, |_, _| Ok(())).unwrap();
        let i = gens.len() as u32 - 1;
        let cert = from_trial(&q, i, &[i, i, i], &budget).unwrap().unwrap();
        assert_eq!(cert.elements(), 8);
        let entries = cert.sums.len() * cert.tests.len();
        assert_eq!(check(&gens, &cert), entries);
    }
}
