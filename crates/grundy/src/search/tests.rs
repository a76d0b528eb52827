//! Tests of the position search: small games against the mex recurrence, and random
//! games (random sums, many options, large values, tiny tables) against brute force.

use super::*;
use crate::control::Limits;

/// Kayles (0.77) on a row of pins, split into rows.
struct Kayles;
impl SearchGame for Kayles {
    type Key = u32;
    fn options(&self, &n: &u32, out: &mut Options<u32>) {
        for take in 1..=2u32.min(n) {
            for left in 0..=n - take {
                out.push_option([left, n - take - left].into_iter().filter(|&h| h > 0));
            }
        }
    }
    fn size(&self, &n: &u32) -> u32 {
        n
    }
}

fn kayles_by_mex(max: usize) -> Vec<u32> {
    let mut g = vec![0u32; max + 1];
    for n in 1..=max {
        let mut seen = vec![false; 2 * n + 2];
        for take in 1..=2.min(n) {
            for left in 0..=n - take {
                seen[(g[left] ^ g[n - take - left]) as usize] = true;
            }
        }
        g[n] = seen.iter().position(|s| !s).unwrap() as u32;
    }
    g
}

#[test]
fn kayles_values_match_the_mex_recurrence() {
    let expected = kayles_by_mex(60);
    let mut s = Searcher::new(&Kayles, &Budget::default()).unwrap();
    for (n, &e) in expected.iter().enumerate() {
        assert_eq!(s.value(&(n as u32)).unwrap(), e, "kayles {n}");
    }
    for n in 0..40u32 {
        for k in 0..8 {
            let parts = [n, 7];
            assert_eq!(
                s.sum_is(&parts, k).unwrap(),
                expected[n as usize] ^ expected[7] == k
            );
        }
    }
}

#[test]
fn a_tiny_table_still_gives_right_values() {
    // Far too small for Kayles 18: entries are replaced and searched again.
    let expected = kayles_by_mex(18);
    let budget = Budget::new(Limits {
        max_positions: 16,
        ..Limits::DEFAULT
    });
    let mut s = Searcher::new(&Kayles, &budget).unwrap();
    assert_eq!(s.value(&18).unwrap(), expected[18]);
    assert!(s.stats().peak_entries <= 16);
    assert!(s.stats().replaced > 0);
}

#[test]
fn the_budget_stops_the_search() {
    let budget = Budget::new(Limits {
        max_work: 50,
        max_positions: 8,
        ..Limits::DEFAULT
    });
    let mut s = Searcher::new(&Kayles, &budget).unwrap();
    assert_eq!(
        s.value(&60),
        Err(SearchError::Budget(BudgetError::Work { limit: 50 }))
    );
    let budget = Budget::default();
    budget.cancel();
    let mut s = Searcher::new(&Kayles, &budget).unwrap();
    assert_eq!(
        s.value(&30),
        Err(SearchError::Budget(BudgetError::Cancelled))
    );
}

// -- Random games against brute force -------------------------------------------------------

/// A random game given by its table of options: component `i` has options that are sums of
/// components below `i` (equal parts allowed, to test cancelling), sometimes very many (to
/// cross the 64 and 128 value boundaries of the bit sets).
#[derive(Debug)]
struct RandomGame {
    options: Vec<Vec<Vec<u32>>>,
    bound: bool,
    prove: bool,
    /// Options listed one at a time: `None` (listed at once), or the count given as the
    /// number of options plus this (a bound above the count must work too).
    lazy: Option<u32>,
}

impl SearchGame for RandomGame {
    type Key = u32;
    fn options(&self, &k: &u32, out: &mut Options<u32>) {
        for parts in &self.options[k as usize] {
            out.push_option(parts.iter().copied());
        }
    }
    fn size(&self, &k: &u32) -> u32 {
        k
    }
    fn prove_values(&self) -> bool {
        self.prove
    }
    fn value_bound(&self, &k: &u32) -> Option<u32> {
        // A value is at most the number of options.
        self.bound.then(|| self.options[k as usize].len() as u32)
    }
    fn option_count(&self, &k: &u32) -> Option<u32> {
        self.lazy
            .map(|extra| self.options[k as usize].len() as u32 + extra)
    }
    fn visit_options(&self, &k: &u32, visit: &mut dyn FnMut(&[u32]) -> bool) {
        for parts in &self.options[k as usize] {
            if !visit(parts) {
                return;
            }
        }
    }
}

/// xorshift64: a reproducible stream from a seed.
struct Stream(u64);
impl Stream {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

impl RandomGame {
    fn new(seed: u64, n: usize) -> Self {
        let mut r = Stream(seed | 1);
        let mut options = Vec::with_capacity(n);
        // How often (in fourths) a component is like a Nim heap.
        let heaps = 1 + r.below(3);
        for i in 0..n {
            // Mostly a few options, sometimes many (up to 160).
            let count = match r.below(10) {
                0 => 60 + r.below(101),
                1..=3 => r.below(20),
                _ => r.below(7),
            };
            let mut opts = Vec::new();
            if i > 0 && r.below(4) < heaps {
                // Like a Nim heap: every recent component alone (so values climb past 64
                // and 128, and the option count past 128 at times).
                for j in i.saturating_sub(150)..i {
                    opts.push(vec![j as u32]);
                }
            }
            for _ in 0..count.min(if i == 0 { 0 } else { 1000 }) {
                let parts = r.below(4);
                let mut o = Vec::new();
                for _ in 0..parts {
                    // Recent components more often, so values grow.
                    let near = r.below(2) == 0;
                    let back = 1 + r.below(if near { 6 } else { i as u64 });
                    o.push(i.saturating_sub(back as usize) as u32);
                }
                if r.below(8) == 0
                    && let Some(&p) = o.first()
                {
                    o.push(p);
                }
                opts.push(o);
            }
            options.push(opts);
        }
        RandomGame {
            options,
            bound: r.below(2) == 0,
            prove: r.below(4) != 0,
            lazy: match r.below(4) {
                0 => None,
                1 => Some(0),
                _ => Some(r.below(5) as u32),
            },
        }
    }

    /// Every component's value, by the mex rule in order.
    fn brute(&self) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::with_capacity(self.options.len());
        for opts in &self.options {
            let mut seen = vec![false; opts.len() + 1];
            for o in opts {
                let v = o.iter().fold(0, |x, &p| x ^ g[p as usize]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            g.push(seen.iter().position(|s| !s).unwrap_or(opts.len()) as u32);
        }
        g
    }
}

/// Asks a searcher many questions about one random game, in a random order, and checks
/// every answer (values and "is the sum n?") against the brute force.
/// Returns the largest value of the game.
fn check_random_game(seed: u64, n: usize, max_positions: usize) -> u32 {
    let game = RandomGame::new(seed, n);
    let g = game.brute();
    let budget = Budget::new(Limits {
        max_positions,
        ..Limits::DEFAULT
    });
    let mut s = Searcher::new(&game, &budget).unwrap();
    let mut r = Stream(seed.rotate_left(17) | 1);
    for question in 0..40 {
        if question == 20 {
            // Half-way, the table is kept and a new searcher resumes from it, under the
            // same limits or tighter ones (then a table too large starts again).
            let kept = KeptTable::new();
            s.keep(&kept);
            let limits = Limits {
                max_positions: match r.below(2) {
                    0 => max_positions,
                    // A tiny table searches again and again: only on a small game.
                    _ if n <= 14 => 16,
                    _ => (max_positions / 2).max(64),
                },
                ..Limits::DEFAULT
            };
            s = Searcher::resume(&game, &Budget::new(limits), &kept).unwrap();
            assert_eq!(kept.entries(), 0);
        }
        let parts: Vec<u32> = (0..1 + r.below(3))
            .map(|_| r.below(n as u64) as u32)
            .collect();
        let v = parts.iter().fold(0, |x, &p| x ^ g[p as usize]);
        let ctx = || format!("seed {seed} n {n} table {max_positions} parts {parts:?}");
        match r.below(3) {
            0 => assert_eq!(s.value_of_sum(&parts).unwrap(), v, "{}", ctx()),
            1 => {
                // The right value and a wrong one near it.
                let k = if r.below(2) == 0 {
                    v
                } else {
                    v ^ (1 + r.below(8) as u32)
                };
                assert_eq!(s.sum_is(&parts, k).unwrap(), v == k, "k {k} {}", ctx());
            }
            _ => {
                let k = r.below(u64::from(v) + 70) as u32;
                assert_eq!(s.sum_is(&parts, k).unwrap(), v == k, "k {k} {}", ctx());
            }
        }
    }
    for k in (0..n as u32).rev().step_by(7) {
        assert_eq!(s.value(&k).unwrap(), g[k as usize], "seed {seed} key {k}");
    }
    g.iter().copied().max().unwrap_or(0)
}

#[test]
fn random_games_match_brute_force() {
    let cases: u64 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(150);
    let base: u64 = std::env::var("SEARCH_SEED")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(0x5eed);
    // How many games had values past the 64 bits of excluded values, and past the 128
    // of the value sets.
    let (mut past64, mut past128) = (0, 0);
    for case in 0..cases {
        let seed = mix_seed(base, case);
        let n = 2 + (seed % 200) as usize;
        // A tiny table searches again and again (exponential in a deep game): only on
        // small games.
        for table in [8, 64, 1 << 20] {
            if n <= table.min(1 << 10) / 3 || table == 8 && n <= 14 {
                let top = check_random_game(seed, n, table);
                past64 += usize::from(top >= 64);
                past128 += usize::from(top >= 128);
            }
        }
    }
    assert!(past64 > 0 && past128 > 0, "{past64} {past128}");
}

fn mix_seed(base: u64, case: u64) -> u64 {
    let mut x = base ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 31)
}

/// The search on several threads ([`Searcher::value_of_sum_with_threads`], a shared table)
/// against the brute force: random games, tables from tiny to roomy, 2 and 3 threads, and
/// the same table then asked by one thread.
#[test]
fn random_games_on_threads_match_brute_force() {
    let cases: u64 = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(60);
    for case in 0..cases {
        let seed = mix_seed(0x7ead, case);
        let n = 2 + (seed % 160) as usize;
        let game = RandomGame::new(seed, n);
        let g = game.brute();
        let mut r = Stream(seed.rotate_left(9) | 1);
        for (threads, table) in [(2, 1 << 20), (3, 1 << 20), (2, 64 * 16), (2, 8)] {
            if table == 8 && n > 14 {
                continue;
            }
            let budget = Budget::new(Limits {
                max_positions: table,
                max_threads: threads,
                ..Limits::DEFAULT
            });
            let mut s = Searcher::new(&game, &budget).unwrap();
            assert!(matches!(s.table, Store::Shared(..)));
            let ctx = format!("seed {seed} n {n} threads {threads} table {table}");
            for _ in 0..6 {
                let parts: Vec<u32> = (0..1 + r.below(3))
                    .map(|_| r.below(n as u64) as u32)
                    .collect();
                let v = parts.iter().fold(0, |x, &p| x ^ g[p as usize]);
                let found = s.value_of_sum_with_threads(&parts, threads).unwrap();
                assert_eq!(found, v, "{ctx} parts {parts:?}");
            }
            let k = (n - 1) as u32;
            assert_eq!(
                s.value_of_sum_with_threads(&[k], threads).unwrap(),
                g[n - 1],
                "{ctx}"
            );
            // The shared table answers a search on one thread too.
            for k in (0..n as u32).rev().step_by(5) {
                assert_eq!(s.value(&k).unwrap(), g[k as usize], "{ctx} key {k}");
                let wrong = g[k as usize] ^ 1;
                assert!(!s.sum_is(&[k], wrong).unwrap(), "{ctx} key {k}");
            }
        }
    }
}

/// A table filled by one thread becomes shared when a search on threads starts: what it
/// held carries over, and every answer stays right.
#[test]
fn a_one_thread_table_is_shared_by_a_search_on_threads() {
    let mut shared = 0;
    for case in 0..20 {
        let seed = mix_seed(0x5ba2e, case);
        let n = 20 + (seed % 120) as usize;
        let game = RandomGame::new(seed, n);
        let g = game.brute();
        let budget = Budget::new(Limits::DEFAULT);
        let mut s = Searcher::new(&game, &budget).unwrap();
        assert!(matches!(s.table, Store::Own(..)));
        for k in 0..(n / 2) as u32 {
            assert_eq!(s.value(&k).unwrap(), g[k as usize], "seed {seed} key {k}");
        }
        let before = s.table.len();
        assert!(before > 0);
        if case % 2 == 0 {
            // Made shared at once: every value it held is in the shared table.
            let held: Vec<(u32, u32)> = (0..n as u32)
                .filter_map(|k| Some((k, s.table.get(&k)?.value?)))
                .collect();
            assert!(!held.is_empty());
            s.table.share(&budget).unwrap();
            assert!(matches!(s.table, Store::Shared(..)));
            for (k, v) in held {
                assert_eq!(
                    s.table.get(&k).and_then(|x| x.value),
                    Some(v),
                    "seed {seed}"
                );
            }
        }
        let (a, b) = ((n - 1) as u32, (n - 2) as u32);
        let found = s.value_of_sum_with_threads(&[a, b], 2).unwrap();
        assert_eq!(found, g[a as usize] ^ g[b as usize], "seed {seed}");
        // A game whose values are proved, with fewer than 128 options at its top, is
        // searched on threads; its table is then shared, with all it held.
        let on_threads = matches!(s.table, Store::Shared(..));
        assert!(!on_threads || game.prove || case % 2 == 0, "seed {seed}");
        assert!(s.table.len() >= before, "seed {seed}");
        for k in 0..n as u32 {
            assert_eq!(s.value(&k).unwrap(), g[k as usize], "seed {seed} key {k}");
        }
        shared += usize::from(on_threads);
    }
    assert!(
        shared >= 5,
        "only {shared} of the games were searched on threads"
    );
}

/// A search on threads stops on its budget like one thread: the budget's error, never a
/// thread's own stop, and what it proved stays true for a search resumed from its table.
#[test]
fn a_search_on_threads_stops_on_its_budget() {
    let game = RandomGame::new(mix_seed(0xb0d9e7, 3), 150);
    let g = game.brute();
    let mut stopped = 0;
    for work in [50u64, 500, 5_000, 50_000] {
        let budget = Budget::new(Limits {
            max_work: work,
            max_threads: 2,
            ..Limits::DEFAULT
        });
        let mut s = Searcher::new(&game, &budget).unwrap();
        match s.value_of_sum_with_threads(&[149], 2) {
            Ok(v) => assert_eq!(v, g[149]),
            Err(e) => {
                assert_eq!(e, SearchError::Budget(BudgetError::Work { limit: work }));
                stopped += 1;
                let kept = KeptTable::new();
                s.keep(&kept);
                let mut again = Searcher::resume(&game, &Budget::default(), &kept).unwrap();
                assert_eq!(again.value_of_sum_with_threads(&[149], 2).unwrap(), g[149]);
            }
        }
    }
    assert!(stopped > 0);
    let budget = Budget::new(Limits {
        max_threads: 2,
        ..Limits::DEFAULT
    });
    budget.cancel();
    let mut s = Searcher::new(&game, &budget).unwrap();
    assert_eq!(
        s.value_of_sum_with_threads(&[149], 2),
        Err(SearchError::Budget(BudgetError::Cancelled))
    );
}
