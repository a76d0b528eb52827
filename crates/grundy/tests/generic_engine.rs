//! The generic engine (`solve::Solver`) against a tiny solver written from the definition on
//! random games: `value(p) = mex { value(o) : o an option of p }` over whole positions, with
//! no splitting into components, no shared option list and no bit sets.

use grundy::Nimber;
use grundy::game::{ImpartialGame, SplitOptions};
use grundy::solve::Solver;
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
        Dag { moves, split }
    })
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
