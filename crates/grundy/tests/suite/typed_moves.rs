//! Moves as typed values: every winning move's `becomes` (what the moving component turns
//! into, as family, rule and arguments) agrees with its `result` text, on every route that
//! lists winning moves (normal play, misère theorems, misère quotients, generic search).

use grundy::Options;
use grundy::analysis::analyze;
use grundy::catalog;
use grundy::sum::{ComponentId, Context, Engine, Sum};

fn ids(sum: &Sum) -> Vec<ComponentId> {
    sum.components
        .iter()
        .map(|c| ComponentId::of(c.as_ref()))
        .collect()
}

fn sorted(mut v: Vec<ComponentId>) -> Vec<ComponentId> {
    v.sort_by(|a, b| (&a.rule, &a.args).cmp(&(&b.rule, &b.args)));
    v
}

#[test]
fn every_winning_move_becomes_what_its_result_says() {
    let mut checked = 0;
    for (text, misere) in [
        ("nim 3 4 5", false),
        ("kayles 9 + nim 2", false),
        ("0.137 20 + dawson 7", false),
        ("staircase 1 2 3 + wythoff 2 4", false),
        ("hackenbush 0-1 1-2 1-3 + nim 1", false),
        ("cram 2x3 + nim 2", false),
        ("kayles 9", true),
        ("kayles 5 + nim 1", true),
        ("0.75 5 + 0.75 3", true),
        ("dawson 7 + nim 2", true),
        ("nim 3 4 6", true),
        ("cram 2x3 + nim 1", true),
        ("staircase 1 2 + nim 1", true),
    ] {
        let options = Options {
            moves: Default::default(),
            misere,
            context: Context::new(Engine::Fast, Default::default()),
        };
        let position = catalog::parse(text).unwrap();
        let a = analyze(text, &options).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(a.winning_moves_complete, "{text}");
        if a.outcome == grundy::Outcome::N {
            assert!(
                !a.winning_moves.is_empty(),
                "{text}: an N-position with no move"
            );
        }
        for w in &a.winning_moves {
            // The result's components are the position's, the moving one replaced by `becomes`.
            let mut expected = ids(&position);
            expected.remove(w.component);
            expected.extend(w.becomes.iter().cloned());
            let result = catalog::parse(&w.result).unwrap();
            assert_eq!(
                sorted(ids(&result)),
                sorted(expected),
                "{text} (misère {misere}): {w:?}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} moves checked");
}
