//! The graph algorithms against independent slow implementations written from the
//! definitions, on thousands of random small graphs with and without cycles.
//!
//! - Outcomes and remoteness: the sets `L_k` (lost within `k` moves: every follower in
//!   `W_{k-1}`) and `W_k` (won within `k`: some follower in `L_{k-1}`), iterated over `k`.
//! - Sprague–Grundy values of acyclic graphs: the recursive mex of the definition.
//! - Generalised values: Smith's theorem as the definition of what a value means: `u + *j`
//!   (the token at `u` plus a Nim heap of `j`) is a P-position iff `γ(u) = j`, and for
//!   `γ(u) = ∞(K)` it is N iff `j ∈ K` and a draw otherwise. Checked by the slow outcome
//!   computation on the product graph.
//! - Sums of tokens: the product graph of the tokens, solved by the slow outcomes.
//! - Kernels: every subset of vertices tried.

use grundy::Nimber;
use grundy::control::Control;
use grundy::graph::csr::Csr;
use grundy::graph::kernel::find_kernel;
use grundy::graph::read::{ReadOptions, read_judge, read_judge_cases};
use grundy::graph::{GraphSolution, analyze_tokens, first_player_wins, judge_outcome, solve};
use grundy::value::{Outcome, Value};
use proptest::prelude::*;
use std::collections::BTreeSet;

pub(crate) type Adj = Vec<Vec<u32>>;

/// Outcome and remoteness from the definition, by the sets `L_k` and `W_k`.
fn slow_outcomes(adj: &Adj) -> Vec<(Outcome, Option<u32>)> {
    let n = adj.len();
    let mut lost = vec![false; n]; // L_{k-1}
    let mut won = vec![false; n]; // W_{k-1}
    let mut result = vec![(Outcome::Draw, None); n];
    for k in 0..=(n as u32 + 1) {
        let lost_k: Vec<bool> = (0..n)
            .map(|u| adj[u].iter().all(|&w| won[w as usize]))
            .collect();
        let won_k: Vec<bool> = (0..n)
            .map(|u| adj[u].iter().any(|&w| lost[w as usize]))
            .collect();
        for u in 0..n {
            if result[u].1.is_none() {
                if lost_k[u] {
                    result[u] = (Outcome::P, Some(k));
                } else if won_k[u] {
                    result[u] = (Outcome::N, Some(k));
                }
            }
        }
        lost = lost_k;
        won = won_k;
    }
    result
}

/// The recursive mex of the definition (acyclic graphs only).
fn slow_grundy(adj: &Adj, u: u32) -> u32 {
    let followers: BTreeSet<u32> = adj[u as usize]
        .iter()
        .map(|&w| slow_grundy(adj, w))
        .collect();
    (0..).find(|m| !followers.contains(m)).unwrap()
}

/// The product graph of `tokens` tokens on `adj`, a move moving one token; positions are
/// numbered in base `n`. With `heap = Some(j)`, instead one token plus a Nim heap of `0..=j`.
fn product(adj: &Adj, tokens: usize) -> Adj {
    let n = adj.len();
    let total = n.pow(tokens as u32);
    (0..total)
        .map(|p| {
            let mut moves = Vec::new();
            let mut place = 1;
            for _ in 0..tokens {
                let at = (p / place) % n;
                for &w in &adj[at] {
                    moves.push((p - at * place + w as usize * place) as u32);
                }
                place *= n;
            }
            moves
        })
        .collect()
}

/// The graph plus a Nim heap of up to `j_max`: vertex `u * (j_max + 1) + j`.
fn with_nim_heap(adj: &Adj, j_max: usize) -> Adj {
    let h = j_max + 1;
    let mut out = vec![Vec::new(); adj.len() * h];
    for (u, followers) in adj.iter().enumerate() {
        for j in 0..h {
            let moves = &mut out[u * h + j];
            moves.extend(followers.iter().map(|&w| (w as usize * h + j) as u32));
            moves.extend((0..j).map(|k| (u * h + k) as u32));
        }
    }
    out
}

fn fast(adj: &Adj) -> (Csr, GraphSolution) {
    let g = Csr::from_adjacency(adj);
    let s = solve(&g, &mut Control::none()).unwrap();
    (g, s)
}

/// Random graphs on up to `max_n` vertices; with `acyclic`, edges only go to smaller
/// vertices after a random relabelling.
pub(crate) fn graphs(max_n: usize, max_edges: usize, acyclic: bool) -> impl Strategy<Value = Adj> {
    (1..=max_n)
        .prop_flat_map(move |n| {
            (
                Just(n),
                prop::collection::vec((0..n, 0..n), 0..=max_edges),
                Just((0..n as u32).collect::<Vec<u32>>()).prop_shuffle(),
            )
        })
        .prop_map(move |(n, edges, relabel)| {
            let mut adj = vec![Vec::new(); n];
            for (a, b) in edges {
                if acyclic {
                    if a == b {
                        continue;
                    }
                    let (hi, lo) = (a.max(b), a.min(b));
                    adj[relabel[hi] as usize].push(relabel[lo]);
                } else {
                    adj[a].push(b as u32);
                }
            }
            adj
        })
}

fn any_graph(max_n: usize, max_edges: usize) -> impl Strategy<Value = Adj> {
    prop_oneof![
        graphs(max_n, max_edges, true),
        graphs(max_n, max_edges, false)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn outcomes_and_remoteness_match_the_definition(adj in any_graph(12, 30)) {
        check_outcomes(&adj)?;
    }

    #[test]
    fn acyclic_values_match_the_recursive_mex(adj in graphs(12, 30, true)) {
        let (g, s) = fast(&adj);
        prop_assert!(s.acyclic);
        for u in 0..adj.len() as u32 {
            prop_assert_eq!(s.value(&g, u), Value::Finite(Nimber(u64::from(slow_grundy(&adj, u)))));
        }
    }

    #[test]
    fn generalised_values_predict_sums_with_nim_heaps(adj in any_graph(7, 14)) {
        check_generalised_values(&adj)?;
    }

    #[test]
    fn sums_of_tokens_match_the_product_graph(
        adj in any_graph(6, 12),
        picks in prop::collection::vec(0usize..36, 1..=3),
    ) {
        let n = adj.len();
        let tokens: Vec<u32> = picks.iter().map(|&p| (p % n) as u32).collect();
        let (g, s) = fast(&adj);
        let sum = analyze_tokens(&g, &s, &tokens);
        let prod = slow_outcomes(&product(&adj, tokens.len()));
        let index = |ts: &[u32]| ts.iter().rev().fold(0usize, |acc, &t| acc * n + t as usize);
        prop_assert_eq!(sum.outcome, prod[index(&tokens)].0);
        prop_assert_eq!(sum.winning_moves.is_empty(), sum.outcome != Outcome::N);
        // Every move, judged in the product graph.
        let mut winning = BTreeSet::new();
        let mut drawing = BTreeSet::new();
        for (i, &from) in tokens.iter().enumerate() {
            for &to in &adj[from as usize] {
                let mut after = tokens.clone();
                after[i] = to;
                match prod[index(&after)].0 {
                    Outcome::P => { winning.insert((i, from, to)); }
                    Outcome::Draw if sum.outcome == Outcome::Draw => { drawing.insert((i, from, to)); }
                    _ => {}
                }
            }
        }
        let got: BTreeSet<_> = sum.winning_moves.iter().map(|m| (m.token, m.from, m.to)).collect();
        prop_assert_eq!(got, winning);
        let got: BTreeSet<_> = sum.drawing_moves.iter().map(|m| (m.token, m.from, m.to)).collect();
        prop_assert_eq!(got, drawing);
        if tokens.len() > 1 {
            if let Some(v) = &sum.value {
                if s.acyclic {
                    // The nim-sum is the value of the product graph.
                    let pv = slow_grundy(&product(&adj, tokens.len()), index(&tokens) as u32);
                    prop_assert_eq!(v, &Value::Finite(Nimber(u64::from(pv))));
                }
            }
        }
    }

    #[test]
    fn kernels_match_brute_force(adj in any_graph(10, 20)) {
        let (g, s) = fast(&adj);
        let n = adj.len();
        let kernels: Vec<u32> = (0u32..1 << n)
            .filter(|&set| {
                (0..n).all(|u| {
                    let inside = set >> u & 1 == 1;
                    let into = adj[u].iter().any(|&w| set >> w & 1 == 1);
                    inside != into
                })
            })
            .collect();
        let report = find_kernel(&g, &s, usize::MAX).unwrap();
        match &report.kernel {
            None => prop_assert!(kernels.is_empty()),
            Some(k) => {
                let set = k.iter().fold(0u32, |acc, &v| acc | 1 << v);
                prop_assert!(kernels.contains(&set), "{:?} is not a kernel", k);
                prop_assert_eq!(report.unique, kernels.len() == 1);
            }
        }
        if s.acyclic {
            prop_assert_eq!(kernels.len(), 1);
        }
    }

    #[test]
    fn judge_answers_match_a_straightforward_solution(
        adj in any_graph(9, 20),
        picks in prop::collection::vec(0usize..81, 0..=3),
    ) {
        let n = adj.len();
        let tokens: Vec<usize> = picks.iter().map(|&p| p % n).collect();
        let edges: Vec<(usize, u32)> = adj.iter().enumerate()
            .flat_map(|(u, ws)| ws.iter().map(move |&w| (u, w))).collect();
        let mut text = format!("{} {} {}\n", n, edges.len(), tokens.len());
        for (u, w) in &edges {
            text.push_str(&format!("{} {}\n", u + 1, w + 1));
        }
        for t in &tokens {
            text.push_str(&format!("{}\n", t + 1));
        }
        let input = read_judge(text.as_bytes(), &ReadOptions::default()).unwrap();
        let wins = first_player_wins(&input.graph, &input.tokens, &mut Control::none()).unwrap();
        // Straightforward: parse with split_whitespace, solve the product graph.
        let mut words = text.split_whitespace().map(|w| w.parse::<usize>().unwrap());
        let (vn, m, k) = (words.next().unwrap(), words.next().unwrap(), words.next().unwrap());
        let mut plain = vec![Vec::new(); vn];
        for _ in 0..m {
            let (x, y) = (words.next().unwrap(), words.next().unwrap());
            plain[x - 1].push(y as u32 - 1);
        }
        let ts: Vec<usize> = (0..k).map(|_| words.next().unwrap() - 1).collect();
        let expected = if ts.is_empty() {
            false
        } else {
            let prod = slow_outcomes(&product(&plain, ts.len()));
            let index = ts.iter().rev().fold(0usize, |acc, &t| acc * vn + t);
            prod[index].0 == Outcome::N
        };
        prop_assert_eq!(wins, expected);
    }
}

fn check_outcomes(adj: &Adj) -> Result<(), TestCaseError> {
    let (_, s) = fast(adj);
    let slow = slow_outcomes(adj);
    for u in 0..adj.len() as u32 {
        prop_assert_eq!(
            (s.outcome(u), s.remoteness(u)),
            slow[u as usize],
            "vertex {}",
            u
        );
    }
    Ok(())
}

fn check_generalised_values(adj: &Adj) -> Result<(), TestCaseError> {
    let (g, s) = fast(adj);
    let j_max = adj.len() + 1;
    let slow = slow_outcomes(&with_nim_heap(adj, j_max));
    for u in 0..adj.len() as u32 {
        let value = s.value(&g, u);
        prop_assert_eq!(value.outcome(), s.outcome(u));
        for j in 0..=j_max {
            let expected = match &value {
                Value::Finite(m) if m.0 == j as u64 => Outcome::P,
                Value::Finite(_) => Outcome::N,
                Value::Infinite(k) if k.contains(&Nimber(j as u64)) => Outcome::N,
                Value::Infinite(_) => Outcome::Draw,
            };
            prop_assert_eq!(
                slow[u as usize * (j_max + 1) + j].0,
                expected,
                "vertex {} with value {} plus *{}",
                u,
                value,
                j
            );
        }
    }
    Ok(())
}

proptest! {
    // The deep tier: `cargo test --release -p grundy --test suite graph_properties:: -- --ignored`.
    #![proptest_config(ProptestConfig::with_cases(20000))]

    #[test]
    #[ignore]
    fn deep_outcomes_and_remoteness_on_larger_graphs(adj in any_graph(40, 120)) {
        check_outcomes(&adj)?;
    }

    #[test]
    #[ignore]
    fn deep_generalised_values_on_larger_graphs(adj in any_graph(11, 40)) {
        check_generalised_values(&adj)?;
    }
}

/// The explored graph of a Wythoff queen, solved as a graph, against the published
/// P-positions (tests/data/wythoff_p_positions.txt names its source).
#[test]
fn explored_wythoff_graph_has_the_published_p_positions() {
    use grundy::graph::explore::explore;
    let text = include_str!("../data/wythoff_p_positions.txt");
    let mut reference = BTreeSet::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let pair: Vec<u64> = line
            .split_whitespace()
            .map(|w| w.parse().unwrap())
            .collect();
        reference.insert((pair[0], pair[1]));
        reference.insert((pair[1], pair[0]));
    }
    let (max_a, max_b) = (32, 52); // the pair for k = 20
    assert!(reference.contains(&(max_a, max_b)));
    let start = grundy::catalog::parse(&format!("wythoff {max_a} {max_b}")).unwrap();
    let graph = explore(&start, &Default::default(), 100_000).unwrap();
    assert_eq!(
        graph.vertex_count(),
        (max_a as usize + 1) * (max_b as usize + 1)
    );
    let solution = solve(&graph.csr, &mut Control::none()).unwrap();
    let mut found = BTreeSet::new();
    for v in 0..graph.vertex_count() as u32 {
        if solution.outcome(v) == Outcome::P {
            let name = graph.name(v);
            let xy: Vec<u64> = name
                .split_whitespace()
                .skip(1)
                .map(|w| w.parse().unwrap())
                .collect();
            found.insert((xy[0], xy[1]));
        }
    }
    let expected: BTreeSet<_> = reference
        .into_iter()
        .filter(|&(a, b)| a <= max_a && b <= max_b)
        .collect();
    assert_eq!(found, expected);
}

// ---- the judge format: tokens wherever the lines break, several cases ----

/// The separators a judge input may have between two numbers: any white space of C's
/// `isspace`, blank lines, Windows line ends.
const GAPS: [&str; 8] = [
    " ", "\n", "\t", "\r\n", "  \n\n ", "\x0b", "\x0c", " \t\r\n",
];

/// The numbers of a judge-format problem: `N M K`, the edges, the token vertices (1-based).
fn judge_numbers(adj: &Adj, tokens: &[usize]) -> Vec<usize> {
    let edges: Vec<(usize, u32)> = adj
        .iter()
        .enumerate()
        .flat_map(|(u, ws)| ws.iter().map(move |&w| (u, w)))
        .collect();
    let mut numbers = vec![adj.len(), edges.len(), tokens.len()];
    for (u, w) in edges {
        numbers.extend([u + 1, w as usize + 1]);
    }
    numbers.extend(tokens.iter().map(|t| t + 1));
    numbers
}

/// Numbers written one layout: `gaps` (indices into [`GAPS`], cycled) between them.
fn wrapped(numbers: &[usize], gaps: &[usize]) -> String {
    let mut text = String::new();
    for (i, x) in numbers.iter().enumerate() {
        if i > 0 {
            text.push_str(GAPS[gaps[i % gaps.len()] % GAPS.len()]);
        }
        text.push_str(&x.to_string());
    }
    text
}

/// The judge's answer for one case, from the product graph of its tokens (the definition).
fn slow_judge(adj: &Adj, tokens: &[usize]) -> Outcome {
    if tokens.is_empty() {
        return Outcome::P;
    }
    let n = adj.len();
    let prod = slow_outcomes(&product(adj, tokens.len()));
    prod[tokens.iter().rev().fold(0usize, |acc, &t| acc * n + t)].0
}

fn answer(text: &str) -> Result<Outcome, String> {
    let input = read_judge(text.as_bytes(), &ReadOptions::default()).map_err(|e| e.to_string())?;
    Ok(judge_outcome(&input.graph, &input.tokens, &mut Control::none()).unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// A problem written one number a line, and the same numbers re-wrapped at random token
    /// boundaries (one line, many, blank lines, tabs, CRLF, form feeds): the same graph, the
    /// same tokens, the same answer, and that answer is the product graph's.
    #[test]
    fn judge_inputs_rewrapped_anywhere_read_and_answer_the_same(
        adj in any_graph(8, 18),
        picks in prop::collection::vec(0usize..64, 0..=3),
        gaps in prop::collection::vec(0usize..GAPS.len(), 1..30),
        leading in 0usize..GAPS.len(),
        trailing in 0usize..GAPS.len(),
    ) {
        let tokens: Vec<usize> = picks.iter().map(|&p| p % adj.len()).collect();
        let numbers = judge_numbers(&adj, &tokens);
        let plain = wrapped(&numbers, &[1]);
        let odd = format!("{}{}{}", GAPS[leading], wrapped(&numbers, &gaps), GAPS[trailing]);
        let a = read_judge(plain.as_bytes(), &ReadOptions::default()).unwrap();
        let b = read_judge(odd.as_bytes(), &ReadOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{odd:?}: {e}")))?;
        prop_assert_eq!(&a.tokens, &b.tokens);
        for v in 0..adj.len() as u32 {
            prop_assert_eq!(a.graph.successors(v), b.graph.successors(v));
        }
        let expected = slow_judge(&adj, &tokens);
        prop_assert_eq!(answer(&plain), Ok(expected));
        prop_assert_eq!(answer(&odd), Ok(expected), "{:?}", odd);
    }

    /// `T` cases in one input, wrapped anywhere: each case answers as it does alone.
    #[test]
    fn multi_case_inputs_answer_each_case_as_it_answers_alone(
        cases in prop::collection::vec(
            (any_graph(6, 12), prop::collection::vec(0usize..36, 0..=2)),
            0..6,
        ),
        gaps in prop::collection::vec(0usize..GAPS.len(), 1..30),
    ) {
        let mut numbers = vec![cases.len()];
        let mut alone = Vec::new();
        for (adj, picks) in &cases {
            let tokens: Vec<usize> = picks.iter().map(|&p| p % adj.len()).collect();
            let case = judge_numbers(adj, &tokens);
            alone.push(answer(&wrapped(&case, &[1])).unwrap());
            numbers.extend(case);
        }
        let text = wrapped(&numbers, &gaps);
        let inputs = read_judge_cases(text.as_bytes(), &ReadOptions::default())
            .map_err(|e| TestCaseError::fail(format!("{text:?}: {e}")))?;
        prop_assert_eq!(inputs.len(), cases.len());
        for (i, input) in inputs.iter().enumerate() {
            let outcome = judge_outcome(&input.graph, &input.tokens, &mut Control::none()).unwrap();
            prop_assert_eq!(outcome, alone[i], "case {}", i + 1);
        }
        // One number fewer: the last case (or the count) is cut, and the error says where.
        if numbers.len() > 1 {
            let cut = wrapped(&numbers[..numbers.len() - 1], &gaps);
            let e = read_judge_cases(cut.as_bytes(), &ReadOptions::default()).unwrap_err();
            prop_assert!(e.to_string().starts_with(&format!("case {} of {}: line ", cases.len(), cases.len())), "{}", e);
            prop_assert!(e.column().is_some() && e.to_string().contains("input ends"), "{}", e);
        }
    }
}
