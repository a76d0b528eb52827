//! The catalogue of rules: every family's rules of the expression language, in one list.
//!
//! This layer sits above the game families and below the analysis. The bare language
//! ([`crate::expr`]) turns text into an unchecked [`Spec`]; each family says how to check a
//! term of its rules ([`Rule`]); the catalogue knows them all and checks a whole expression
//! into a [`Sum`].
//!
//! ```
//! let sum = grundy::catalog::parse("nim 3 5 + wythoff 2 1").unwrap();
//! assert_eq!(sum.to_string(), "nim 3 5 + wythoff 2 1");
//! let err = grundy::catalog::parse("nim 3 x").unwrap_err();
//! assert_eq!(err.span, 6..7);
//! assert!(grundy::catalog::find_rule("kayles").is_some());
//! ```

use crate::expr::{ExprError, Rule, Spec, parse_spec};
use crate::sum::Sum;

/// Every rule the language knows, family by family.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    [
        crate::classic::RULES,
        crate::heap::rules::RULES,
        crate::hackenbush::RULES,
        crate::coins::RULES,
        crate::boards::RULES,
    ]
    .into_iter()
    .flatten()
}

/// The rule a term names: code literals (names that start with a digit, such as `0.137`) go
/// to the rule that reads codes, other names must match exactly.
pub fn find_rule(name: &str) -> Option<&'static Rule> {
    let literal = name.starts_with(|c: char| c.is_ascii_digit());
    rules().find(|r| if literal { r.literal } else { r.name == name })
}

/// Parses and checks an expression.
pub fn parse(text: &str) -> Result<Sum, ExprError> {
    check(&parse_spec(text)?)
}

/// Checks a parsed expression against the rules, term by term.
pub fn check(spec: &Spec) -> Result<Sum, ExprError> {
    let mut components = Vec::new();
    for term in &spec.terms {
        let rule = find_rule(&term.rule.value).ok_or_else(|| {
            let known: Vec<&str> = rules().map(|r| r.name).collect();
            ExprError::new(
                term.rule.span.clone(),
                format!("unknown rule `{}`", term.rule.value),
            )
            .with_help(format!("known rules: {}", known.join(", ")))
        })?;
        components.extend((rule.build)(term)?);
    }
    Ok(Sum::new(components))
}
