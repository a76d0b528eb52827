//! The heap rules' entries in the catalogue of rules: how each is written, what it means,
//! and how a term (`kayles 10 20`, `0.137 30`) becomes its components, one
//! [`HeapComponent`] a heap.

use super::component::HeapComponent;
use super::rules::rule_of_term;
use crate::expr::{ExprError, Rule, TermSpec, parse_u64, some_args};
use crate::sum::Component;
use std::sync::Arc;

/// How a term of a heap rule is written.
const USAGE: &str = "RULE HEAP..., e.g. `kayles 10 20`, `0.137 30`, `sub(1,3,4) 100`";

/// The heap-game rules of the expression language.
pub static RULES: &[Rule] = &[
    Rule {
        name: "0.137",
        usage: "CODE HEAP...",
        summary: "take-and-break game by its octal or hex code (0.137, 4.07, 0.f); `!` `?` `=` \
                  after a digit: parts unequal, not all equal, all equal",
        literal: true,
        build: build_term,
    },
    Rule {
        name: "kayles",
        usage: "kayles HEAP...",
        summary: "Kayles (0.77): knock down one pin or two adjacent pins",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "dawson-kayles",
        usage: "dawson-kayles HEAP...",
        summary: "Dawson's Kayles (0.07): knock down two adjacent pins",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "dawson",
        usage: "dawson HEAP...",
        summary: "Dawson's chess (0.137)",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "grundys-game",
        usage: "grundys-game HEAP...",
        summary: "Grundy's game (4!.0): split a heap into two unequal heaps",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "lasker",
        usage: "lasker HEAP...",
        summary: "Lasker's Nim: remove any number of tokens, or split a heap into two",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "half",
        usage: "half HEAP...",
        summary: "remove at least half of a heap",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "even-if-not-all",
        usage: "even-if-not-all HEAP...",
        summary: "remove an even number of tokens but not all, or all of an odd heap (Ferguson)",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "sub",
        usage: "sub(S1,S2,...) HEAP...",
        summary: "subtraction game: remove a number of tokens in the set",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "bash",
        usage: "bash(K) HEAP...",
        summary: "Bash: remove 1 to K tokens",
        literal: false,
        build: build_term,
    },
    Rule {
        name: "allbut",
        usage: "allbut(S1,S2,...) HEAP...",
        summary: "remove any number of tokens except those listed",
        literal: false,
        build: build_term,
    },
];

fn build_term(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    let rule = Arc::new(rule_of_term(term)?);
    let mut heaps: Vec<Box<dyn Component>> = Vec::new();
    for arg in some_args(term, USAGE)? {
        let heap = parse_u64(arg, "a heap size")?;
        heaps.push(Box::new(HeapComponent::new(rule.clone(), heap)));
    }
    Ok(heaps)
}
