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
//!
//! Rules can also come from scripts ([`crate::scripted`]): a [`Catalog`] holds the built-in
//! rules and the scripts loaded into it, and parses expressions that use both.
//!
//! ```
//! use grundy::catalog::Catalog;
//! let mut catalog = Catalog::new();
//! catalog.load_script(
//!     "const NAME = \"take13\"; const HEAP = true;
//!      fn moves(n) { [1, 3].filter(|k| k <= n).map(|k| n - k) }",
//!     "take13.rhai",
//! ).unwrap();
//! let sum = catalog.parse("take13 4 5 + nim 2").unwrap();
//! assert_eq!(sum.to_string(), "take13 4 5 + nim 2");
//! assert!(grundy::catalog::parse("take13 4").is_err()); // not a built-in rule
//! ```

use crate::expr::{ExprError, Rule, Spec, parse_spec};
#[cfg(feature = "scripts")]
use crate::scripted::{ScriptError, ScriptLimits, ScriptRule};
use crate::sum::Sum;
#[cfg(feature = "scripts")]
use std::sync::Arc;

/// Every rule the language knows, family by family.
pub fn rules() -> impl Iterator<Item = &'static Rule> {
    [
        crate::classic::RULES,
        crate::heap::catalog::RULES,
        crate::hackenbush::RULES,
        crate::coins::RULES,
        crate::boards::RULES,
    ]
    .into_iter()
    .flatten()
}

/// The rule a term names: code literals (`0.137`, `4!.0`, `c.c`: whatever
/// [`looks_like_code`](crate::heap::rules::looks_like_code) says is a code, the same test
/// [`HeapRule::parse`](crate::heap::rules::HeapRule::parse) makes) go to the rule that reads
/// codes, other names must match exactly.
///
/// ```
/// use grundy::catalog::find_rule;
/// assert_eq!(find_rule("c.c").unwrap().name, "0.137");
/// assert_eq!(find_rule(".07").unwrap().name, "0.137");
/// assert!(find_rule("cram").is_some_and(|r| r.name == "cram"));
/// ```
pub fn find_rule(name: &str) -> Option<&'static Rule> {
    let literal = crate::heap::rules::looks_like_code(name);
    rules().find(|r| if literal { r.literal } else { r.name == name })
}

/// Parses and checks an expression against the built-in rules.
pub fn parse(text: &str) -> Result<Sum, ExprError> {
    Catalog::new().parse(text)
}

/// Checks a parsed expression against the built-in rules, term by term.
pub fn check(spec: &Spec) -> Result<Sum, ExprError> {
    Catalog::new().check(spec)
}

/// The built-in rules and the rule scripts loaded: what an expression may use.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    #[cfg(feature = "scripts")]
    scripts: Vec<Arc<ScriptRule>>,
}

impl Catalog {
    /// The built-in rules alone.
    pub fn new() -> Self {
        Catalog::default()
    }

    #[cfg(feature = "scripts")]
    /// Compiles a rule script and adds its rule, under the default limits; `origin` (usually
    /// the file name) names it in messages. A name already taken is an error.
    pub fn load_script(
        &mut self,
        source: &str,
        origin: &str,
    ) -> Result<Arc<ScriptRule>, ScriptError> {
        self.load_script_with(source, origin, ScriptLimits::DEFAULT)
    }

    #[cfg(feature = "scripts")]
    /// [`Catalog::load_script`] under these limits.
    pub fn load_script_with(
        &mut self,
        source: &str,
        origin: &str,
        limits: ScriptLimits,
    ) -> Result<Arc<ScriptRule>, ScriptError> {
        let rule = ScriptRule::compile(source, origin, limits)?;
        if find_rule(rule.name()).is_some() {
            return Err(ScriptError::new(
                origin,
                format!(
                    "`{}` is a built-in rule; give the script another NAME",
                    rule.name()
                ),
            ));
        }
        if let Some(other) = self.script(rule.name()) {
            return Err(ScriptError::new(
                origin,
                format!("`{}` is already defined by {}", rule.name(), other.origin()),
            ));
        }
        let rule = Arc::new(rule);
        self.scripts.push(Arc::clone(&rule));
        Ok(rule)
    }

    #[cfg(feature = "scripts")]
    /// The script rule of this name, if one is loaded.
    pub fn script(&self, name: &str) -> Option<&Arc<ScriptRule>> {
        self.scripts.iter().find(|r| r.name() == name)
    }

    #[cfg(feature = "scripts")]
    /// The script rules loaded, in order.
    pub fn scripts(&self) -> &[Arc<ScriptRule>] {
        &self.scripts
    }

    /// Every rule's usage and summary: the built-in rules, then the scripts'.
    pub fn help(&self) -> Vec<(String, String)> {
        rules()
            .map(|r| (r.usage.to_string(), r.summary.to_string()))
            .chain(self.script_help())
            .collect()
    }

    /// The rule scripts' usages and summaries (none without the `scripts` feature).
    fn script_help(&self) -> impl Iterator<Item = (String, String)> + '_ {
        #[cfg(feature = "scripts")]
        return self
            .scripts
            .iter()
            .map(|r| (r.usage().to_string(), r.summary().to_string()));
        #[cfg(not(feature = "scripts"))]
        return std::iter::empty();
    }

    /// The rule scripts' names (none without the `scripts` feature).
    fn script_names(&self) -> impl Iterator<Item = String> + '_ {
        #[cfg(feature = "scripts")]
        return self.scripts.iter().map(|r| r.name().to_string());
        #[cfg(not(feature = "scripts"))]
        return std::iter::empty();
    }

    /// Parses and checks an expression.
    pub fn parse(&self, text: &str) -> Result<Sum, ExprError> {
        self.check(&parse_spec(text)?)
    }

    /// Checks a parsed expression against the rules, term by term.
    pub fn check(&self, spec: &Spec) -> Result<Sum, ExprError> {
        let mut components = Vec::new();
        for term in &spec.terms {
            let name = &term.rule.value;
            #[cfg(feature = "scripts")]
            if let Some(rule) = self.script(name) {
                components.extend(rule.build(term)?);
                continue;
            }
            let rule = find_rule(name).ok_or_else(|| {
                let mut known: Vec<String> = rules().map(|r| r.name.to_string()).collect();
                known.extend(self.script_names());
                ExprError::new(
                    term.rule.span.clone(),
                    format!("unknown rule `{}`", crate::expr::shorten(name)),
                )
                .with_help(format!("known rules: {}", known.join(", ")))
            })?;
            components.extend((rule.build)(term)?);
        }
        Ok(Sum::new(components))
    }
}
