//! Coin-turning games: a row (or grid) of coins; a move turns over a set of coins allowed by
//! the rule, the rightmost of which goes from heads to tails.
//!
//! ```text
//! mock-turtles 0 3 5              heads at coins 0, 3 and 5 (every other coin tails)
//! ruler 1 2 6                     Ruler, coins numbered from 1
//! turn(5) 2 7                     turn one to five coins (this is Moebius)
//! coin-sub(1,3,4) 9               turn coins n and n-s, s in {1,3,4}
//! corners 2,3 4,5                 Turning Corners, heads at (2,3) and (4,5)
//! product(ruler,mock-turtles) 3,4 any two one-dimensional rules, by the Tartan theorem
//! product(turn:5,coin-sub:1:2) 1,0   parametrised rules inside product(..): `:` for `(..)`
//! acrostic-twins 3,5              two coins in a row or in a column
//! ```
//!
//! A position is the set of coins showing heads, written as the coin numbers (`x,y` pairs
//! on a grid) in any order; each coin may be listed once. Coins are numbered from 0 or 1 by
//! each rule's convention (see [`LineRule`]); a coin left of the first is an error, as is a
//! coin whose value would not fit in 64 bits. Positions print with their heads ascending.
//!
//! **The value of a position is the nim-sum of the values of its single heads** (Ferguson,
//! *Game Theory, Part I*, §5.1: a head can be thought of as its own game, because turning a
//! tail to heads and turning a head to tails both nim-add the coin's value). Single-coin
//! values come from closed forms where the theory gives one (Ruler: the largest power of 2
//! dividing `n`; Mock Turtles: the odious numbers) and from the mex over the rule's moves
//! otherwise ([`values_by_rule`]); two-dimensional values from the Tartan theorem
//! (`grid`). Moves to a chosen value are found by value lookups, not by listing every
//! move: a head at `n` under "at most `m` other coins" costs about `n^(m-1) / (m-1)!` lookups
//! (Mock Turtles `O(n)`, Moebius `O(n^3)`), a Ruler head `O(n)`; all of it is counted
//! against the analysis's work [`Budget`](crate::control::Budget) and refused with a clear
//! error, naming the limit, rather than run for hours. The
//! single-coin tables of the rules without a closed form cost `O(n · m · B / 64)` (`B` the
//! power of two above the largest value); measured: Moebius to coin 500 in 0.12 s, Mogul
//! to coin 150 in 1 s (`cargo bench -p grundy --bench hackcoins`).
//!
//! The generic engine over whole positions ([`LineGame`], [`GridGame`]) is the
//! reference the fast values are tested against.

pub(crate) mod grid;
mod line;
mod rule;
mod values;

pub use grid::{CoinGrid, GridGame, GridRule};
pub use line::{CoinRangeError, CoinRow, LineGame, check_coin};
pub use rule::{LineRule, Shape};
pub use values::{CoinError, CoinValues, values_by_rule};

use crate::expr::{
    ExprError, Rule, Spanned, TermSpec, no_params, parse_u64, required_params, some_args,
};
use crate::sum::Component;
use std::ops::Range;

const fn line(name: &'static str, usage: &'static str, summary: &'static str) -> Rule {
    Rule {
        name,
        usage,
        summary,
        literal: false,
        build: build_line,
    }
}

const fn grid(name: &'static str, usage: &'static str, summary: &'static str) -> Rule {
    Rule {
        name,
        usage,
        summary,
        literal: false,
        build: build_grid,
    }
}

/// The coin-turning rules of the expression language.
pub const RULES: &[Rule] = &[
    line(
        "turning-turtles",
        "turning-turtles COIN...   (heads at these coins, numbered from 1)",
        "turn one or two coins, the rightmost heads to tails; a head at n is worth n",
    ),
    line(
        "twins",
        "twins COIN...   (heads at these coins, numbered from 0)",
        "turn exactly two coins, the rightmost heads to tails; a head at n is worth n",
    ),
    line(
        "mock-turtles",
        "mock-turtles COIN...   (heads at these coins, numbered from 0)",
        "turn one to three coins, the rightmost heads to tails; values are the odious numbers",
    ),
    line(
        "ruler",
        "ruler COIN...   (heads at these coins, numbered from 1)",
        "turn a run of consecutive coins ending at a head; a head at n is worth the largest power of 2 dividing n",
    ),
    line(
        "moebius",
        "moebius COIN...   (heads at these coins, numbered from 1)",
        "turn one to five coins, the rightmost heads to tails",
    ),
    line(
        "mogul",
        "mogul COIN...   (heads at these coins, numbered from 1)",
        "turn one to seven coins, the rightmost heads to tails",
    ),
    line(
        "turn",
        "turn(K) COIN...   (heads at these coins, numbered from 1)",
        "turn one to K coins, the rightmost heads to tails",
    ),
    line(
        "coin-sub",
        "coin-sub(S1,S2,..) COIN...   (heads at these coins, numbered from 0)",
        "turn coins n and n-s for s in the set, n heads to tails: the subtraction game as coins",
    ),
    grid(
        "corners",
        "corners X,Y...   (heads at these coins, coordinates from 0)",
        "Turning Corners: turn the four corners of a rectangle; a head at (x,y) is worth x ⊗ y",
    ),
    grid(
        "rugs",
        "rugs X,Y...   (heads at these coins, coordinates from 1)",
        "Ruler × Ruler: turn a rectangular block of coins, the lower right heads to tails",
    ),
    grid(
        "product",
        "product(RULE1,RULE2) X,Y...   (RULE: a 1-D coin rule, turn:K or coin-sub:S1:S2:..)",
        "the Tartan product of two coin rules: a head at (x,y) is worth g1(x) ⊗ g2(y)",
    ),
    grid(
        "acrostic-twins",
        "acrostic-twins X,Y...   (heads at these coins, coordinates from 0)",
        "turn two coins in a row or in a column; a head at (x,y) is worth x ⊕ y",
    ),
];

/// The span covering a term's parameters (or its rule name if it has none).
fn params_span(term: &TermSpec) -> Range<usize> {
    match term.params.as_deref() {
        Some([first, .., last]) => first.span.start..last.span.end,
        Some([only]) => only.span.clone(),
        _ => term.rule.span.clone(),
    }
}

fn usage_of(name: &str) -> &'static str {
    RULES
        .iter()
        .find(|r| r.name == name)
        .map_or("", |r| r.usage)
}

fn build_line(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    let name = term.rule.value.as_str();
    let usage = usage_of(name);
    let rule = match name {
        "turn" => LineRule::turn_up_to(required_params(term, usage)?, &params_span(term))?,
        "coin-sub" => LineRule::subtraction(required_params(term, usage)?, &params_span(term))?,
        _ => {
            no_params(term)?;
            LineRule::from_name(name)
                .ok_or_else(|| ExprError::new(term.rule.span.clone(), "not a coin rule"))?
        }
    };
    let args = some_args(term, usage)?;
    let mut heads = Vec::with_capacity(args.len());
    for arg in args {
        let coin = parse_u64(arg, "a coin number")?;
        check_coin(&rule, coin).map_err(|e| ExprError::new(arg.span.clone(), e.to_string()))?;
        heads.push(coin);
    }
    no_repeats(args, &heads)?;
    let row =
        CoinRow::new(rule, heads).map_err(|e| ExprError::new(term.span.clone(), e.to_string()))?;
    Ok(vec![Box::new(row)])
}

/// A position is a set of heads: a coin listed twice is an error, at its second mention.
fn no_repeats<T: Eq + std::hash::Hash>(
    args: &[Spanned<String>],
    coins: &[T],
) -> Result<(), ExprError> {
    let mut seen = rustc_hash::FxHashSet::default();
    for (i, c) in coins.iter().enumerate() {
        if !seen.insert(c) {
            return Err(ExprError::new(
                args[i].span.clone(),
                format!(
                    "coin `{}` is listed twice: a position is a set of heads",
                    crate::expr::shorten(&args[i].value)
                ),
            ));
        }
    }
    Ok(())
}

fn build_grid(term: &TermSpec) -> Result<Vec<Box<dyn Component>>, ExprError> {
    let name = term.rule.value.as_str();
    let usage = usage_of(name);
    let rule = match name {
        "corners" => GridRule::CORNERS,
        "rugs" => GridRule::RUGS,
        "acrostic-twins" => GridRule::AcrosticTwins,
        _ => {
            let params = required_params(term, usage)?;
            let [a, b] = params else {
                return Err(ExprError::new(
                    params_span(term),
                    format!(
                        "`product` takes two coin rules, found {}: {usage}",
                        params.len()
                    ),
                ));
            };
            GridRule::Product {
                alias: None,
                x: LineRule::from_product_param(a)?,
                y: LineRule::from_product_param(b)?,
            }
        }
    };
    if name != "product" {
        no_params(term)?;
    }
    let args = some_args(term, usage)?;
    let (rx, ry) = rule.axes();
    let mut heads = Vec::with_capacity(args.len());
    for arg in args {
        let text = arg.value.as_str();
        let Some(comma) = text.find(',') else {
            return Err(ExprError::new(
                arg.span.clone(),
                format!(
                    "expected a coin `x,y` (two whole numbers and a comma), found `{}`",
                    crate::expr::shorten(text)
                ),
            ));
        };
        let part = |s: &str, at: usize| Spanned {
            value: s.to_string(),
            span: arg.span.start + at..arg.span.start + at + s.len(),
        };
        let (xs, ys) = (part(&text[..comma], 0), part(&text[comma + 1..], comma + 1));
        let x = parse_u64(&xs, "an x coordinate")?;
        let y = parse_u64(&ys, "a y coordinate")?;
        check_coin(rx, x).map_err(|e| ExprError::new(xs.span.clone(), format!("x: {e}")))?;
        check_coin(ry, y).map_err(|e| ExprError::new(ys.span.clone(), format!("y: {e}")))?;
        heads.push((x, y));
    }
    no_repeats(args, &heads)?;
    let g =
        CoinGrid::new(rule, heads).map_err(|e| ExprError::new(term.span.clone(), e.to_string()))?;
    Ok(vec![Box::new(g)])
}
