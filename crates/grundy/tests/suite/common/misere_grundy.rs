//! The misère Grundy value of a sum of rule heaps and Nim heaps from the definition, shared by
//! the genus and γ tests: independent of the library's misère code.

use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use std::collections::HashMap;

/// Memo of [`misere_grundy`]: (sorted rule heaps, sorted Nim heaps) to the value.
pub type Memo = HashMap<(Vec<u64>, Vec<u64>), u64>;

/// The misère Grundy value of the rule heaps `heaps` plus the Nim heaps `nim`, by plain
/// recursion: 1 with no move, otherwise the mex of the options' values.
pub fn misere_grundy(
    game: &HeapGame,
    mut heaps: Vec<u64>,
    mut nim: Vec<u64>,
    memo: &mut Memo,
) -> u64 {
    heaps.retain(|&h| h > 0);
    heaps.sort_unstable();
    nim.retain(|&h| h > 0);
    nim.sort_unstable();
    let key = (heaps.clone(), nim.clone());
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut seen = Vec::new();
    for o in game.options(&heaps) {
        seen.push(misere_grundy(game, o, nim.clone(), memo));
    }
    for i in 0..nim.len() {
        for t in 0..nim[i] {
            let mut m = nim.clone();
            m[i] = t;
            seen.push(misere_grundy(game, heaps.clone(), m, memo));
        }
    }
    let v = if seen.is_empty() {
        1
    } else {
        (0..).find(|v| !seen.contains(v)).unwrap()
    };
    memo.insert(key, v);
    v
}
