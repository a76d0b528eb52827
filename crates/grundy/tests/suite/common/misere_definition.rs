//! Misère outcomes of all small sums from the definition, shared by the misère quotient
//! tests: independent of the quotient code.

use grundy::game::ImpartialGame;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use std::collections::HashMap;

/// The misère outcome of every sum of heaps with at most `total` tokens and no heap above
/// `max_heap`, from the definition (a position is P when it has an option and every option is
/// N), in order of the total, smallest first.
pub fn all_outcomes(rule: &HeapRule, total: u64, max_heap: u64) -> Vec<(Vec<u64>, bool)> {
    fn partitions(rem: u64, min: u64, max: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if rem == 0 {
            out.push(cur.clone());
            return;
        }
        for p in min..=rem.min(max) {
            cur.push(p);
            partitions(rem - p, p, max, cur, out);
            cur.pop();
        }
    }
    let game = HeapGame::new(rule);
    let mut outcome: HashMap<Vec<u64>, bool> = HashMap::new();
    let mut out = Vec::new();
    for s in 0..=total {
        let mut level = Vec::new();
        partitions(s, 1, max_heap, &mut Vec::new(), &mut level);
        for pos in level {
            let options = game.options(&pos);
            let is_p = !options.is_empty()
                && options.iter().all(|o| {
                    let mut o: Vec<u64> = o.iter().copied().filter(|&h| h > 0).collect();
                    o.sort_unstable();
                    !outcome[&o]
                });
            outcome.insert(pos.clone(), is_p);
            out.push((pos, is_p));
        }
    }
    out
}
