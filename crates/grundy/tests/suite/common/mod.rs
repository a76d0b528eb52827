//! Helpers shared by the library's integration tests.

pub mod misere_definition;
pub mod misere_grundy;
pub mod misere_search;

use std::ops::Range;

/// Checks that each expression is refused with an expression error at `span` whose message
/// contains `words`.
pub fn assert_expression_errors(cases: &[(&str, Range<usize>, &str)]) {
    let options = grundy::Options::default();
    for (expr, span, words) in cases {
        let err = match grundy::analyze(expr, &options) {
            Err(grundy::analysis::AnalyzeError::Expr(e)) => e,
            other => panic!("{expr}: expected an expression error, got {other:?}"),
        };
        assert_eq!(&err.span, span, "{expr}: {}", err.message);
        assert!(err.message.contains(words), "{expr}: {}", err.message);
    }
}
