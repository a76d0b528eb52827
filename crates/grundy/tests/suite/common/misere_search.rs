//! The misère outcome of a sum of heaps by the generic engine's exhaustive search, shared by
//! the misère quotient tests: independent of the quotient code.

use grundy::control::Limits;
use grundy::heap::component::HeapGame;
use grundy::heap::rules::HeapRule;
use grundy::solve::MisereSolver;
use grundy::value::Outcome;

/// The misère outcome of a sum of heaps by exhaustive search over whole positions (the
/// generic engine, independent of the quotient code).
pub fn brute_force_is_p(rule: &HeapRule, heaps: &[u64]) -> bool {
    let game = HeapGame::new(rule);
    let mut position: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    position.sort_unstable();
    MisereSolver::with_limits(&game, Limits::DEFAULT)
        .outcome(&position)
        .unwrap()
        == Outcome::P
}
