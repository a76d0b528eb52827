//! The generic engine (`solve::Solver`) against a tiny solver written from the definition on
//! random games: `value(p) = mex { value(o) : o an option of p }` over whole positions, with
//! no splitting into components, no shared option list and no bit sets. And the engine with
//! a dense index (`ImpartialGame::dense_index`, values in an array) against itself without
//! one (values in its hash table): the same values, errors, work and stops, cycles and
//! limits included.

use grundy::Nimber;
use grundy::game::{ImpartialGame, SplitOptions};
use grundy::solve::{Budget, BudgetError, Limits, SolveError, Solver};
use proptest::prelude::*;
use std::collections::HashMap;

/// The least value not in `values`, by trying 0, 1, 2, ... in turn.
fn mex_by_definition(values: &[u64]) -> u64 {
    (0..).find(|v| !values.contains(v)).unwrap()
}

/// A random acyclic game on nodes `0..n`: node `i` moves to the multisets of smaller nodes
/// listed in `moves[i]` (an empty multiset is a move to nothing). A position is a sorted
/// multiset of nodes; each node is a component.
#[derive(Clone, Debug)]
struct Dag {
    moves: Vec<Vec<Vec<u16>>>,
    /// Whether the game lists its options already split (`split_options`) or lets the
    /// default split its whole options.
    split: bool,
    /// The dense index of each single node (none for sums, and none at all if empty).
    index: Vec<Option<u64>>,
}

impl ImpartialGame for Dag {
    type Position = Vec<u16>;
    fn options(&self, p: &Vec<u16>) -> Vec<Vec<u16>> {
        let mut out = Vec::new();
        for (i, &node) in p.iter().enumerate() {
            for result in &self.moves[usize::from(node)] {
                let mut q: Vec<u16> = p[..i].iter().chain(&p[i + 1..]).copied().collect();
                q.extend(result);
                q.sort_unstable();
                out.push(q);
            }
        }
        out
    }
    fn components(&self, p: &Vec<u16>) -> Vec<Vec<u16>> {
        p.iter().map(|&n| vec![n]).collect()
    }
    fn dense_index(&self, p: &Vec<u16>) -> Option<u64> {
        match p.as_slice() {
            [node] => self.index.get(usize::from(*node)).copied().flatten(),
            _ => None,
        }
    }
    fn split_options(&self, p: &Vec<u16>, out: &mut SplitOptions<Vec<u16>>) {
        match p.as_slice() {
            [node] if self.split => {
                for result in &self.moves[usize::from(*node)] {
                    for &part in result {
                        out.part(vec![part]);
                    }
                    out.end_option();
                }
            }
            _ => {
                for option in self.options(p) {
                    for part in self.components(&option) {
                        out.part(part);
                    }
                    out.end_option();
                }
            }
        }
    }
}

/// The value of a whole position from the definition: the mex of its options' values,
/// each option a whole position (memoised on whole positions, recursion depth at most the
/// number of moves a game can last, small here).
fn by_definition(game: &Dag, p: &Vec<u16>, memo: &mut HashMap<Vec<u16>, u64>) -> u64 {
    if let Some(&v) = memo.get(p) {
        return v;
    }
    let values: Vec<u64> = game
        .options(p)
        .iter()
        .map(|o| by_definition(game, o, memo))
        .collect();
    let v = mex_by_definition(&values);
    memo.insert(p.clone(), v);
    v
}

/// Random moves for `n` nodes: each move of node `i` leads to at most `parts` nodes below
/// `i` whose labels add up to less than `i` (so that sums of few nodes stay small for the
/// reference), repeats allowed.
fn dag(max_nodes: usize, max_moves: usize, parts: usize) -> impl Strategy<Value = Dag> {
    game(max_nodes, max_moves, parts, false)
}

/// Random moves for `n` nodes as [`dag`] gives, or with `cyclic` to any nodes at all (so
/// that most games have cycles).
fn game(
    max_nodes: usize,
    max_moves: usize,
    parts: usize,
    cyclic: bool,
) -> impl Strategy<Value = Dag> {
    (1..=max_nodes, any::<bool>(), any::<u64>()).prop_map(move |(n, split, seed)| {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let moves = (0..n)
            .map(|i| {
                let count = (next() % (max_moves as u64 + 1)) as usize;
                (0..count)
                    .filter_map(|_| {
                        if cyclic {
                            let k = (next() % (parts as u64 + 1)) as usize;
                            return Some((0..k).map(|_| (next() % n as u64) as u16).collect());
                        }
                        if i == 0 {
                            return None;
                        }
                        let k = (next() % (parts as u64 + 1)) as usize;
                        let mut left = i as u64 - 1;
                        let mut result = Vec::new();
                        for _ in 0..k {
                            if left == 0 {
                                break;
                            }
                            let part = next() % left + 1;
                            left -= part;
                            result.push(part as u16);
                        }
                        Some(result)
                    })
                    .collect()
            })
            .collect();
        Dag {
            moves,
            split,
            index: Vec::new(),
        }
    })
}

/// A random injective dense index for the nodes of `game`, from `seed`: per node none, a
/// small index (nodes in a shuffled order, spread apart), or one far past any table the
/// engine may grow (so that its value goes to the hash table).
fn with_index(game: &Dag, seed: u64) -> Dag {
    let n = game.moves.len();
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut order: Vec<u64> = (0..n as u64).collect();
    for i in (1..n).rev() {
        order.swap(i, (next() % (i as u64 + 1)) as usize);
    }
    let spread = next() % 5 + 1;
    let offset = next() % 100;
    let index = order
        .iter()
        .map(|&k| match next() % 8 {
            0 => None,
            1 => Some((1 << 40) + k),
            _ => Some(offset + k * spread),
        })
        .collect();
    Dag {
        index,
        ..game.clone()
    }
}

/// What a solver answers for each root in turn (one solver for all), with the work done and
/// the components stored after each.
fn answers(
    game: &Dag,
    limits: Limits,
    roots: &[Vec<u16>],
) -> Vec<(Result<Nimber, SolveError>, u64, usize)> {
    let budget = Budget::new(limits);
    let mut solver = Solver::with_budget(game, &budget);
    roots
        .iter()
        .map(|p| {
            let v = solver.value(p);
            (v, budget.work_done(), solver.solved())
        })
        .collect()
}

/// Roots as sorted multisets of the nodes of `game`.
fn roots_of(game: &Dag, roots: &[Vec<u16>]) -> Vec<Vec<u16>> {
    let n = game.moves.len() as u16;
    roots
        .iter()
        .map(|r| {
            let mut p: Vec<u16> = r.iter().map(|&x| x % n).collect();
            p.sort_unstable();
            p
        })
        .collect()
}

proptest! {
    /// Sums of up to three nodes of games whose moves split a node in up to three: the
    /// engine (components, nim-sums) against the whole positions of the definition, with
    /// one solver reused over every root and a fresh one for the last.
    #[test]
    fn sums_match_the_definition(game in dag(9, 6, 3), roots in prop::collection::vec(prop::collection::vec(0u16..9, 1..=3), 1..6)) {
        let n = game.moves.len() as u16;
        let mut solver = Solver::new(&game);
        let mut memo = HashMap::new();
        for root in &roots {
            let mut p: Vec<u16> = root.iter().map(|&x| x % n).collect();
            p.sort_unstable();
            let expected = by_definition(&game, &p, &mut memo);
            prop_assert_eq!(solver.value(&p).unwrap(), Nimber(expected), "{:?}", p);
            // The winning moves (and moves to any value) are the options of that value: each
            // found as component `i` (node `p[i]`) changed into `o`.
            for target in 0..3 {
                let mut found: Vec<Vec<u16>> = solver
                    .moves_to_value(&p, Nimber(target))
                    .unwrap()
                    .into_iter()
                    .map(|(i, o)| {
                        let mut whole: Vec<u16> =
                            p[..i].iter().chain(&p[i + 1..]).chain(&o).copied().collect();
                        whole.sort_unstable();
                        whole
                    })
                    .collect();
                let mut wanted: Vec<Vec<u16>> = game
                    .options(&p)
                    .into_iter()
                    .filter(|o| by_definition(&game, o, &mut memo) == target)
                    .collect();
                found.sort();
                wanted.sort();
                prop_assert_eq!(found, wanted);
            }
        }
        let last = roots.last().unwrap();
        let mut p: Vec<u16> = last.iter().map(|&x| x % n).collect();
        p.sort_unstable();
        prop_assert_eq!(
            Solver::new(&game).value(&p).unwrap(),
            Nimber(by_definition(&game, &p, &mut memo))
        );
    }

    /// Single nodes with many options each (up to 300, to nothing or to one smaller node):
    /// values beyond one word of the engine's bit sets, and options whose values pass the
    /// option count of the node.
    #[test]
    fn wide_nodes_match_the_definition(game in dag(200, 300, 1), root in 0u16..200) {
        let p = vec![root % game.moves.len() as u16];
        let mut memo = HashMap::new();
        let expected = by_definition(&game, &p, &mut memo);
        prop_assert_eq!(Solver::new(&game).value(&p).unwrap(), Nimber(expected));
    }
}

proptest! {
    /// A dense index changes nothing but where values are kept: on random games with and
    /// without cycles, under random work and position limits, the same value or error for
    /// every root in turn, the same work charged and the same components stored.
    #[test]
    fn a_dense_index_gives_the_same_answers_and_stops(
        game in prop_oneof![game(12, 5, 3, true), game(40, 6, 2, false)],
        seed in any::<u64>(),
        max_work in prop_oneof![Just(u64::MAX), 0u64..400],
        max_positions in prop_oneof![Just(usize::MAX), 0usize..40],
        roots in prop::collection::vec(prop::collection::vec(0u16..40, 1..=3), 1..8),
    ) {
        let indexed = with_index(&game, seed);
        let roots = roots_of(&game, &roots);
        let limits = Limits { max_work, max_positions, ..Limits::DEFAULT };
        let hashed = answers(&game, limits, &roots);
        prop_assert_eq!(&answers(&indexed, limits, &roots), &hashed);
        // And the acyclic values are those of the definition.
        let mut memo = HashMap::new();
        for (p, (v, _, _)) in roots.iter().zip(&hashed) {
            if let Ok(v) = v && max_work == u64::MAX && max_positions == usize::MAX {
                prop_assert_eq!(*v, Nimber(by_definition(&game, p, &mut memo)));
            }
        }
    }

    /// Under a tight memory limit the dense table may be refused (its components then go to
    /// the hash table) or the whole search may be: never a panic, and a value is right.
    #[test]
    fn a_dense_index_under_a_memory_limit_is_right_or_refused(
        game in dag(40, 6, 2),
        seed in any::<u64>(),
        max_bytes in 0u64..20_000,
        roots in prop::collection::vec(prop::collection::vec(0u16..40, 1..=3), 1..6),
    ) {
        let indexed = with_index(&game, seed);
        let roots = roots_of(&game, &roots);
        let limits = Limits { max_bytes, ..Limits::DEFAULT };
        let mut memo = HashMap::new();
        for (p, (v, _, _)) in roots.iter().zip(answers(&indexed, limits, &roots)) {
            match v {
                Ok(v) => prop_assert_eq!(v, Nimber(by_definition(&game, p, &mut memo))),
                Err(e) => prop_assert!(matches!(e, SolveError::Budget(BudgetError::Memory { limit, .. }) if limit == max_bytes), "{:?}", e),
            }
        }
    }
}

/// A chain whose every node has a dense index: the values in the array, and a chain longer
/// than the array may grow under a small position limit (four slots a position, at least
/// 65,536) refused at the same place with and without the index.
#[test]
fn a_long_indexed_chain_matches_the_hashed_one() {
    let n = 3000u16;
    let moves: Vec<Vec<Vec<u16>>> = (0..n)
        .map(|i| {
            if i == 0 {
                vec![]
            } else {
                vec![vec![i - 1], vec![]]
            }
        })
        .collect();
    let game = Dag {
        moves,
        split: true,
        index: Vec::new(),
    };
    let indexed = Dag {
        index: (0..u64::from(n)).map(|i| Some(i * 64)).collect(),
        ..game.clone()
    };
    let roots: Vec<Vec<u16>> = vec![vec![n - 1], vec![5, 7], vec![n - 2, n - 1]];
    for limits in [
        Limits::DEFAULT,
        Limits {
            max_positions: 2000,
            ..Limits::DEFAULT
        },
        Limits {
            max_work: 5000,
            ..Limits::DEFAULT
        },
    ] {
        let hashed = answers(&game, limits, &roots);
        assert_eq!(answers(&indexed, limits, &roots), hashed, "{limits:?}");
    }
    // Node i has the options i - 1 and nothing: values alternate 1, 2 from node 1 on.
    let mut solver = Solver::new(&indexed);
    assert_eq!(
        solver.value(&vec![n - 1]).unwrap(),
        Nimber(if (n - 1) % 2 == 1 { 1 } else { 2 })
    );
    assert_eq!(solver.solved(), usize::from(n));
}

/// A node whose two options have no component and two: as many parts as options, but not
/// one part an option (the engine's scan of one-part options must not take them for such).
#[test]
fn an_empty_option_beside_a_sum_is_not_two_single_options() {
    let moves = vec![
        vec![],
        vec![vec![]],
        vec![vec![], vec![1]],
        vec![vec![], vec![1, 2]],
    ];
    for split in [false, true] {
        for index in [Vec::new(), (0..4).map(Some).collect()] {
            let game = Dag {
                moves: moves.clone(),
                split,
                index,
            };
            // Values 0, 1, 2; node 3 has the options 0 and 1 + 2 = 3, so its value is 1.
            let mut solver = Solver::new(&game);
            let values: Vec<u64> = (0..4).map(|i| solver.value(&vec![i]).unwrap().0).collect();
            assert_eq!(values, [0, 1, 2, 1]);
        }
    }
}

/// Nim heaps as single nodes (node i moves to every smaller node and to nothing): values
/// up to 199, so the bit sets span several words and every value is the option count.
#[test]
fn nim_values_span_several_words() {
    let moves = (0..200u16)
        .map(|i| {
            (0..i)
                .map(|j| if j == 0 { vec![] } else { vec![j] })
                .collect()
        })
        .collect();
    for split in [false, true] {
        let game = Dag {
            moves: Clone::clone(&moves),
            split,
            index: Vec::new(),
        };
        let mut solver = Solver::new(&game);
        for i in 0..200u16 {
            assert_eq!(solver.value(&vec![i]).unwrap(), Nimber(u64::from(i)));
        }
        assert_eq!(
            solver.value(&vec![199, 64, 63]).unwrap(),
            Nimber(199 ^ 64 ^ 63)
        );
    }
}
