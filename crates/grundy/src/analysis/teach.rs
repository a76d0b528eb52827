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
//! The notes are typed data ([`Note`], serialised with a `kind`), and [`Note::lines`] writes
//! them as text. They are computed after the analysis, under a share of the context's budget
//! (at most [`MAX_NOTE_WORK`] units and the same cancellation); a note that cannot be computed
//! (a value out of reach) is left out rather than failing the explanation. Their size is
//! bounded whatever the position: a component's moves are listed under a small budget that
//! refuses a long list before it is made, a position is written into at most
//! [`MAX_NOTE_TEXT`] bytes (cut with `…`, never formatted whole), a staircase lists at most
//! [`MAX_NOTE_STEPS`] odd steps, and a shortened note says so.
//!
//! ```
//! use grundy::analysis::teach::{Note, notes};
//! use grundy::catalog::parse;
//! let n = notes(&parse("nim 2").unwrap(), &Default::default());
//! let Note::MexTable(t) = &n[0] else { panic!() };
//! assert_eq!(t.mex, grundy::Nimber(2)); // nim 2 moves to values 0 and 1
//! assert_eq!(n[0].lines().last().unwrap(), "  mex{0, 1} = 2: the least value that no option has");
//! ```

use crate::control::Limits;
use crate::heap::sequence::known_within;
use crate::nimber::Nimber;
use crate::sum::{Component, Context, Sum};

/// The most options a mex table lists.
pub const MAX_TABLE_ROWS: usize = 40;

/// The most work listing a component's moves for a mex table may take: the listing of a
/// table's rows many times over, so that a component with thousands of moves is refused at
/// once.
const LISTING_WORK: u64 = 1 << 20;

/// The most bytes of one position (or one move's description) a note writes: a longer one is
/// cut and ends with `…`.
pub const MAX_NOTE_TEXT: usize = 4096;

/// The most odd steps a staircase note lists (the value counts them all).
pub const MAX_NOTE_STEPS: usize = 64;

/// The most moves an explanation line names; the others are counted.
pub const MAX_MOVES_IN_WORDS: usize = 32;

/// The moves' descriptions as an explanation line lists them (`3 -> 1, 5 -> 7`): at most
/// [`MAX_MOVES_IN_WORDS`], each cut to [`MAX_NOTE_TEXT`] bytes, then how many more there are.
pub fn moves_in_words(moves: &[crate::sum::Move]) -> String {
    let mut words: Vec<String> = moves
        .iter()
        .take(MAX_MOVES_IN_WORDS)
        .map(|m| bounded_str(&m.description).0)
        .collect();
    if moves.len() > MAX_MOVES_IN_WORDS {
        let more = moves.len() - MAX_MOVES_IN_WORDS;
        words.push(format!("and {more} more"));
    }
    words.join(", ")
}

/// A `fmt::Write` that keeps at most `room` bytes (cut on a character boundary) and then
/// stops the formatting with an error, so that a huge position is never written whole.
struct Bounded {
    text: String,
    room: usize,
    cut: bool,
}

impl std::fmt::Write for Bounded {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        if s.len() <= self.room {
            self.text.push_str(s);
            self.room -= s.len();
            return Ok(());
        }
        let mut end = self.room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.room = 0;
        self.cut = true;
        Err(std::fmt::Error)
    }
}

/// `value` as text of at most [`MAX_NOTE_TEXT`] bytes (and `…`), and whether it was cut.
fn bounded(value: &dyn std::fmt::Display) -> (String, bool) {
    let mut out = Bounded {
        text: String::new(),
        room: MAX_NOTE_TEXT,
        cut: false,
    };
    // An error is the writer stopping the formatting, or a Display failing: either way the
    // text so far is what is shown.
    let failed = std::fmt::write(&mut out, format_args!("{value}")).is_err();
    if out.cut || failed {
        out.text.push('…');
    }
    (out.text, out.cut)
}

/// A description cut to [`MAX_NOTE_TEXT`] bytes (and `…`), and whether it was cut.
fn bounded_str(text: &str) -> (String, bool) {
    if text.len() <= MAX_NOTE_TEXT {
        return (text.to_owned(), false);
    }
    let mut end = MAX_NOTE_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (format!("{}…", &text[..end]), true)
}

/// One option in a mex table.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
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
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct MexTable {
    /// The component, as an expression.
    pub component: String,
    /// Each option and its value.
    pub rows: Vec<MexRow>,
    /// The least value no option has: the component's value.
    pub mex: Nimber,
    /// The table as lines of text, as the terminal shows it.
    pub text: Vec<String>,
    /// Whether a position or a move was too long to write whole and is cut (it ends in `…`).
    pub shortened: bool,
}

impl MexTable {
    /// The table as lines of text.
    fn render(&self) -> Vec<String> {
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
        let result_width = self
            .rows
            .iter()
            .map(|r| r.result.chars().count())
            .max()
            .unwrap_or(0);
        // Padded by hand: a format width past 65,535 panics, and a result can be that long.
        let pad = |text: &str, to: usize| " ".repeat(to.saturating_sub(text.chars().count()));
        for r in &self.rows {
            out.push(format!(
                "  {}{}  leaves {}{}  value {}",
                r.description,
                pad(&r.description, width),
                r.result,
                pad(&r.result, result_width),
                r.value
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
        if self.shortened {
            out.push(format!(
                "  (positions and moves longer than {MAX_NOTE_TEXT} bytes are cut, ending in …)"
            ));
        }
        out
    }
}

/// The mex table of one component, when it has at most [`MAX_TABLE_ROWS`] moves and every
/// option's value is in reach.
pub fn mex_table(c: &dyn Component, ctx: &Context) -> Option<MexTable> {
    // Listing runs under a small child budget: a component with far more moves than a table
    // shows is refused before its moves are listed (families charge a listing up front), not
    // listed in full and then dropped.
    let listing = Context {
        engine: ctx.engine,
        end_table: ctx.end_table.clone(),
        budget: ctx.budget.child(Limits {
            max_work: LISTING_WORK,
            ..ctx.budget.limits()
        }),
    };
    let moves = c.moves(&listing).ok()?;
    if moves.len() > MAX_TABLE_ROWS {
        return None;
    }
    let mut rows = Vec::with_capacity(moves.len());
    let mut shortened = false;
    for m in moves {
        let mut v = Nimber::ZERO;
        for part in &m.result {
            v ^= part.value_in(ctx).ok()?;
        }
        let (result, cut) = bounded(&Sum::new(m.result));
        let (description, cut_description) = bounded_str(&m.description);
        shortened |= cut | cut_description;
        rows.push(MexRow {
            description,
            result,
            value: v,
        });
    }
    let mex = Nimber(crate::nimber::mex(rows.iter().map(|r| r.value.0)));
    let (component, cut) = bounded(&c);
    let mut table = MexTable {
        component,
        rows,
        mex,
        text: Vec::new(),
        shortened: shortened | cut,
    };
    table.text = table.render();
    Some(table)
}

/// A note that teaches, as typed data: front ends read the fields, or print [`Note::lines`].
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Note {
    /// Why a single component has its value: its options' values and their mex.
    MexTable(MexTable),
    /// Staircase Nim as Nim on the odd steps.
    Staircase(StaircaseNote),
    /// Where a heap falls in its rule's proven period.
    Period(PeriodNote),
}

/// Staircase Nim reduced to Nim on its odd steps.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct StaircaseNote {
    /// The component, as an expression.
    pub component: String,
    /// The odd steps (numbered from 1) and the coins on each: the first [`MAX_NOTE_STEPS`].
    pub odd_steps: Vec<Step>,
    /// The odd steps not listed in `odd_steps` (their coins count in the value).
    pub more_steps: usize,
    /// The nim-sum of the coins on the odd steps: the component's value.
    pub value: Nimber,
    /// The note in a sentence.
    pub text: String,
}

/// One step of a staircase.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct Step {
    /// The step, numbered from 1 (step 0 is the ground).
    pub step: usize,
    /// The coins on it.
    pub coins: u64,
}

/// A heap of a rule with a proven period (saltus 0), and the heap in the first period with
/// the same value.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct PeriodNote {
    /// The rule, as written in expressions.
    pub rule: String,
    /// The heap size `n`.
    pub heap: u64,
    /// The preperiod `e`: the period holds from heap `e` on.
    pub preperiod: u64,
    /// The period `p`.
    pub period: u64,
    /// The period in words, with how it is proven.
    pub statement: String,
    /// `n` itself before the preperiod, else `e + (n - e) mod p`: the heap with the same value.
    pub same_as: u64,
    /// The value `g(n)`.
    pub value: Nimber,
    /// The note in a sentence.
    pub text: String,
}

impl Note {
    /// The note as lines of text.
    pub fn lines(&self) -> Vec<String> {
        match self {
            Note::MexTable(t) => t.text.clone(),
            Note::Staircase(StaircaseNote { text, .. }) | Note::Period(PeriodNote { text, .. }) => {
                vec![text.clone()]
            }
        }
    }
}

impl StaircaseNote {
    fn line(&self) -> String {
        let steps: Vec<String> = self
            .odd_steps
            .iter()
            .map(|s| format!("step {}: {}", s.step, s.coins))
            .collect();
        let coins: Vec<String> = self.odd_steps.iter().map(|s| s.coins.to_string()).collect();
        let mut sum = if coins.is_empty() {
            "0".to_string()
        } else {
            coins.join(" ⊕ ")
        };
        let mut steps = steps.join(", ");
        if self.more_steps > 0 {
            let more = crate::words::count(self.more_steps, "more odd step");
            steps.push_str(&format!(" and {more}, not listed"));
            sum.push_str(" ⊕ …");
        }
        format!(
            "Staircase Nim is Nim on the odd steps ({steps}): coins moved from an even step to an \
             odd one can be moved straight on down by the other player, so the even steps do not \
             count. Value {sum} = {}.",
            self.value
        )
    }
}

impl PeriodNote {
    fn line(&self) -> String {
        let (rule, n, e, p, v) = (
            &self.rule,
            self.heap,
            self.preperiod,
            self.period,
            self.value,
        );
        let statement = &self.statement;
        if n < e {
            format!(
                "{rule} has {statement}; heap {n} lies before the period starts, so its value {v} \
                 is computed directly."
            )
        } else {
            let class = self.same_as;
            format!(
                "{rule} has {statement}: heap {n} falls at {class} in the period ({n} = {e} + {} · \
                 {p} + {}), so g({n}) = g({class}) = {v}.",
                (n - e) / p,
                class - e
            )
        }
    }
}

/// The most work the notes of one position may take (a few tenths of a second): they come
/// after the analysis and must not cost more than it.
pub const MAX_NOTE_WORK: u64 = 20_000_000;

/// The teaching notes for a position: the mex table when it is a single component, and a note
/// for each staircase and each heap game with a proven period. They are computed under a
/// share of the context's budget (at most [`MAX_NOTE_WORK`], charged to it afterwards); a
/// note out of reach is left out.
pub fn notes(sum: &Sum, ctx: &Context) -> Vec<Note> {
    let limits = ctx.budget.limits();
    let left = limits.max_work.saturating_sub(ctx.budget.work_done());
    let share = Context {
        engine: ctx.engine,
        end_table: ctx.end_table.clone(),
        budget: ctx.budget.share(Limits {
            max_work: left.min(MAX_NOTE_WORK),
            ..limits
        }),
    };
    let mut out = Vec::new();
    if let [only] = sum.components.as_slice() {
        if let Some(t) = mex_table(only.as_ref(), &share) {
            out.push(Note::MexTable(t));
        }
    }
    for c in &sum.components {
        if let Some(staircase) = c.as_any().downcast_ref::<crate::classic::Staircase>() {
            if let Some(note) = staircase_note(staircase) {
                out.push(Note::Staircase(note));
            }
        } else if let Some(note) = period_note(c.as_ref(), &share) {
            out.push(Note::Period(note));
        }
    }
    // The share's work is the position's work too; past the limit is no longer an error here.
    let _ = ctx.budget.charge(share.budget.work_done());
    out
}

/// Staircase Nim reduced to Nim on the odd steps.
fn staircase_note(c: &crate::classic::Staircase) -> Option<StaircaseNote> {
    let coins = &c.coins;
    let odd = coins.len().div_ceil(2);
    let odd_steps: Vec<Step> = coins
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 2 == 0)
        .take(MAX_NOTE_STEPS)
        .map(|(i, &coins)| Step { step: i + 1, coins })
        .collect();
    let value = Nimber(coins.iter().step_by(2).fold(0, |s, &x| s ^ x));
    let mut note = StaircaseNote {
        component: bounded(&(c as &dyn Component)).0,
        more_steps: odd - odd_steps.len(),
        odd_steps,
        value,
        text: String::new(),
    };
    note.text = note.line();
    Some(note)
}

/// Where a heap falls in its rule's proven period.
fn period_note(c: &dyn Component, ctx: &Context) -> Option<PeriodNote> {
    let (heap_rule, n) = crate::heap::component::HeapComponent::of(c)?;
    let k = known_within(heap_rule, n, &ctx.budget).ok()?;
    let period = k.proven_period()?;
    if period.saltus != 0 {
        return None;
    }
    let same_as = period.class_of(n);
    let value = Nimber(k.value(same_as)?);
    let mut note = PeriodNote {
        rule: heap_rule.name().to_string(),
        heap: n,
        preperiod: period.preperiod,
        period: period.period,
        statement: period.to_string(),
        same_as,
        value,
        text: String::new(),
    };
    note.text = note.line();
    Some(note)
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
            .text;
        assert_eq!(
            lines.last().unwrap(),
            "  mex{0, 1} = 2: the least value that no option has"
        );
    }

    #[test]
    fn a_component_with_many_moves_gets_no_table_and_costs_little() {
        for text in ["nim 1000000", "kayles 300000", "wythoff 200000 100000"] {
            let ctx = Context::default();
            let sum = parse(text).unwrap();
            let found = notes(&sum, &ctx);
            assert!(
                !found.iter().any(|n| matches!(n, Note::MexTable(_))),
                "{text}"
            );
            // Refused before listing: far less than listing every move would charge.
            assert!(
                ctx.budget.work_done() <= 2 * LISTING_WORK,
                "{text}: {}",
                ctx.budget.work_done()
            );
        }
    }

    fn lines(notes: &[Note]) -> Vec<String> {
        notes.iter().flat_map(Note::lines).collect()
    }

    #[test]
    fn notes_for_staircase_and_periods() {
        let ctx = Context::default();
        let notes = notes(&parse("staircase 3 2 1").unwrap(), &ctx);
        let Some(Note::Staircase(s)) = notes.get(1) else {
            panic!("{notes:?}")
        };
        // Steps 1 and 3 hold 3 and 1 coins; 3 ⊕ 1 = 2, the value of the staircase.
        assert_eq!(
            s.odd_steps,
            [Step { step: 1, coins: 3 }, Step { step: 3, coins: 1 }]
        );
        assert_eq!(s.value, Nimber(2));
        let n = lines(&notes);
        assert!(
            n.iter()
                .any(|l| l.contains("step 1: 3, step 3: 1") && l.contains("3 ⊕ 1 = 2")),
            "{n:?}"
        );
        let notes = super::notes(&parse("kayles 1000").unwrap(), &ctx);
        // Kayles: period 12 from n = 71 (Guy and Smith); 1000 = 71 + 77·12 + 5.
        let [Note::Period(p)] = notes.as_slice() else {
            panic!("{notes:?}")
        };
        assert_eq!((p.preperiod, p.period, p.same_as), (71, 12, 76));
        let n = lines(&notes);
        assert!(
            n.iter()
                .any(|l| l.contains("falls at 76") && l.contains("g(1000) = g(76)")),
            "{n:?}"
        );
        assert!(super::notes(&parse("nim 3 4").unwrap(), &ctx).is_empty());
    }

    #[test]
    fn notes_stay_within_their_share_of_the_budget() {
        use crate::control::Budget;
        // Kayles 30 has 30 moves, each needing values below 30: a mex table, unless the
        // budget has no room left for it.
        let sum = parse("kayles 30").unwrap();
        let roomy = Context::default();
        assert!(matches!(notes(&sum, &roomy)[0], Note::MexTable(_)));
        let tight = Context {
            budget: Budget::new(Limits {
                max_work: 5,
                ..Limits::DEFAULT
            }),
            ..Context::default()
        };
        assert!(
            notes(&sum, &tight)
                .iter()
                .all(|n| !matches!(n, Note::MexTable(_)))
        );
        // A cancelled computation gets no notes that need work.
        let cancelled = Context::default();
        cancelled.budget.cancel();
        assert!(
            notes(&sum, &cancelled)
                .iter()
                .all(|n| !matches!(n, Note::MexTable(_)))
        );
    }
}
