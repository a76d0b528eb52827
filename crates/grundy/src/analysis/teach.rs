//! Explanations that teach: why a position has its value, in the terms a lesson uses.
//!
//! - **The mex table** of a single component ([`mex_table`]): each option with its value, and
//!   the value as the least value no option has (the definition, Sprague 1935 and Grundy
//!   1939; Ferguson, *Game Theory*, ch. 3). Costs one value per option, so only components
//!   with at most [`MAX_TABLE_ROWS`] moves get a table.
//! - **Staircase Nim** is Nim on the odd steps (Sprague 1937; Berlekamp, Conway and Guy,
//!   *Winning Ways*, ch. 7): coins moved from an even step to an odd one can be moved straight
//!   on down by the other player, so the even steps do not count.
//! - **A heap game with a proven period**: where heap `n` falls in the period, and so which
//!   smaller heap has the same value (Guy and Smith, *The G-values of various games*, 1956).
//!
//! Every note is computed under the context's budget; a note that cannot be computed (a value
//! out of reach) is left out rather than failing the explanation.

use crate::Nimber;
use crate::catalog::find_rule;
use crate::heap::rules::HeapRule;
use crate::heap::sequence::known;
use crate::sum::{Component, Context, Sum};

/// The most options a mex table lists.
pub const MAX_TABLE_ROWS: usize = 40;

/// One option in a mex table.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MexRow {
    /// The move, in the game's words.
    #[serde(rename = "move")]
    pub description: String,
    /// What the component becomes, as an expression.
    pub result: String,
    /// Its value.
    pub value: Nimber,
}

/// Why a component has its value: its options' values and their mex.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MexTable {
    /// The component, as an expression.
    pub component: String,
    /// Each option and its value.
    pub rows: Vec<MexRow>,
    /// The least value no option has: the component's value.
    pub mex: Nimber,
}

impl MexTable {
    /// The table as lines of text.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "Why {} has value {}: its options and their values",
            self.component, self.mex
        )];
        let width = self
            .rows
            .iter()
            .map(|r| r.description.chars().count())
            .max()
            .unwrap_or(0);
        for r in &self.rows {
            out.push(format!(
                "  {:<width$}  leaves {}  value {}",
                r.description, r.result, r.value
            ));
        }
        let mut values: Vec<u64> = self.rows.iter().map(|r| r.value.0).collect();
        values.sort_unstable();
        values.dedup();
        let set: Vec<String> = values.iter().map(u64::to_string).collect();
        out.push(format!(
            "  mex{{{}}} = {}: the least value that no option has",
            set.join(", "),
            self.mex
        ));
        out
    }
}

/// The mex table of one component, when it has at most [`MAX_TABLE_ROWS`] moves and every
/// option's value is in reach.
pub fn mex_table(c: &dyn Component, ctx: &Context) -> Option<MexTable> {
    let moves = c.moves(ctx).ok()?;
    if moves.len() > MAX_TABLE_ROWS {
        return None;
    }
    let mut rows = Vec::with_capacity(moves.len());
    for m in moves {
        let mut v = Nimber::ZERO;
        for part in &m.result {
            v ^= part.value_in(ctx).ok()?;
        }
        let result = Sum::new(m.result).to_string();
        rows.push(MexRow {
            description: m.description,
            result,
            value: v,
        });
    }
    let mex = Nimber(crate::nimber::mex(rows.iter().map(|r| r.value.0)));
    Some(MexTable {
        component: c.to_string(),
        rows,
        mex,
    })
}

/// The teaching notes for a position: the mex table when it is a single component, and a note
/// for each staircase and each heap game with a proven period.
pub fn notes(sum: &Sum, ctx: &Context) -> Vec<String> {
    let mut out = Vec::new();
    if let [only] = sum.components.as_slice() {
        if let Some(t) = mex_table(only.as_ref(), ctx) {
            out.extend(t.lines());
        }
    }
    for c in &sum.components {
        if c.rule() == "staircase" {
            out.push(staircase_note(&c.args()));
        } else if let Some(note) = period_note(c.as_ref()) {
            out.push(note);
        }
    }
    out
}

/// Staircase Nim reduced to Nim on the odd steps.
fn staircase_note(args: &[String]) -> String {
    let odd: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .map(|(i, a)| format!("step {}: {a}", i + 1))
        .collect();
    let values: Vec<u64> = args
        .iter()
        .step_by(2)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sum = values.iter().fold(0u64, |s, v| s ^ v);
    let shown: Vec<String> = values.iter().map(u64::to_string).collect();
    format!(
        "Staircase Nim is Nim on the odd steps ({}): coins moved from an even step to an odd \
         one can be moved straight on down by the other player, so the even steps do not \
         count. Value {} = {sum}.",
        odd.join(", "),
        shown.join(" ⊕ ")
    )
}

/// Where a heap falls in its rule's proven period.
fn period_note(c: &dyn Component) -> Option<String> {
    let rule_text = c.rule();
    let name = rule_text.split('(').next().unwrap_or(&rule_text);
    let rule = find_rule(name)?;
    if !crate::heap::rules::RULES
        .iter()
        .any(|r| std::ptr::eq(r, rule))
    {
        return None;
    }
    let heap_rule = HeapRule::parse(&rule_text).ok()?;
    let n: u64 = c.args().first()?.parse().ok()?;
    let k = known(&heap_rule, n).ok()?;
    let period = k.proven_period()?;
    if period.saltus != 0 {
        return None;
    }
    let class = period.class_of(n);
    let v = k.value(class)?;
    Some(if n < period.preperiod {
        format!(
            "{rule_text} has {period}; heap {n} lies before the period starts, so its value {v} \
             is computed directly."
        )
    } else {
        format!(
            "{rule_text} has {period}: heap {n} falls at {class} in the period ({n} = {} + {} · {} \
             + {}), so g({n}) = g({class}) = {v}.",
            period.preperiod,
            (n - period.preperiod) / period.period,
            period.period,
            class - period.preperiod
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalog::parse;

    #[test]
    fn mex_table_matches_the_value() {
        let ctx = Context::default();
        for text in [
            "kayles 5",
            "nim 4",
            "wythoff 2 1",
            "hackenbush 0-1 1-2 1-3",
            "0.137 9",
        ] {
            let sum = parse(text).unwrap();
            let c = sum.components[0].as_ref();
            let t = mex_table(c, &ctx).unwrap();
            assert_eq!(t.mex, c.value(&ctx).unwrap(), "{text}");
            // The mex is the least value missing from the options'.
            assert!(t.rows.iter().all(|r| r.value != t.mex));
            assert!((0..t.mex.0).all(|v| t.rows.iter().any(|r| r.value.0 == v)));
        }
        let lines = mex_table(parse("nim 2").unwrap().components[0].as_ref(), &ctx)
            .unwrap()
            .lines();
        assert_eq!(
            lines.last().unwrap(),
            "  mex{0, 1} = 2: the least value that no option has"
        );
    }

    #[test]
    fn notes_for_staircase_and_periods() {
        let ctx = Context::default();
        let n = notes(&parse("staircase 3 2 1").unwrap(), &ctx);
        assert!(
            n.iter()
                .any(|l| l.contains("step 1: 3, step 3: 1") && l.contains("3 ⊕ 1 = 2")),
            "{n:?}"
        );
        let n = notes(&parse("kayles 1000").unwrap(), &ctx);
        // Kayles: period 12 from n = 71 (Guy and Smith); 1000 = 71 + 77·12 + 5.
        assert!(
            n.iter()
                .any(|l| l.contains("falls at 76") && l.contains("g(1000) = g(76)")),
            "{n:?}"
        );
        assert!(notes(&parse("nim 3 4").unwrap(), &ctx).is_empty());
    }
}
