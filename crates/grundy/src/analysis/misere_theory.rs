//! Misère play through theory before search: the misère quotient of the heaps' closure
//! (Plambeck–Siegel, [`super::misere_quotient`]), the proven Sibert–Conway decomposition for Kayles rows beyond the
//! quotient's heaps ([`crate::misere::kayles`]), Conway's rule for sums of tame games, and the
//! exhaustive search when none applies. The explanation says which route answered and why the
//! others did not.

use super::misere_quotient::{QUOTIENT_HEAPS, Slot, slots};
use super::route::{Route, cancelled, reports, route_budget};
use super::{Analysis, WinningMove, search, winning};
use crate::control::Budget;
use crate::heap::component::HeapComponent;
use crate::heap::options::{HeapOption, for_each_option};
use crate::heap::rules::HeapRule;
use crate::misere::MisereError;
use crate::misere::canonical::{FormId, Forms};
use crate::misere::genus::{Genus, GenusSolver, tame_sum_is_p};
use crate::misere::kayles;
use crate::sum::{AnalysisError, Component, ComponentId, Context, Engine, Sum};
use crate::value::Outcome;
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Misère analysis: the quotient, then the tame rule, then the search.
pub(super) fn misere_by_theory(sum: &Sum, ctx: &Context) -> Result<Analysis, AnalysisError> {
    if ctx.engine == Engine::Generic || sum.components.is_empty() {
        return search::misere_search(sum, ctx);
    }
    if let [c] = sum.components.as_slice()
        && let Some(alone) = c.misere_alone(ctx)
    {
        let alone = alone?;
        return Ok(Analysis {
            expression: sum.to_string(),
            misere: true,
            value: None,
            outcome: alone.outcome,
            components: reports(sum, None),
            winning_moves: winning(sum, 0, alone.winning_moves).collect(),
            winning_moves_complete: true,
            winning_moves_note: None,
            explanation: vec![alone.reason],
            notes: Vec::new(),
        });
    }
    let mut why_not = Vec::new();
    match by_kayles(sum, ctx)? {
        Ok(a) => return Ok(a),
        Err(reason) => why_not.push(format!("No Kayles decomposition: {reason}.")),
    }
    match super::misere_quotient::by_quotient(sum, ctx)? {
        Ok(a) => return Ok(a),
        Err(reason) => why_not.push(format!("No quotient: {reason}.")),
    }
    match by_tame(sum, ctx)? {
        Ok(a) => return Ok(a),
        Err(reason) => why_not.push(format!("No tame rule: {reason}.")),
    }
    let mut a = search::misere_search(sum, ctx)?;
    why_not.append(&mut a.explanation);
    a.explanation = why_not;
    Ok(a)
}

/// Every component a heap of one heap rule: the rule and the sizes.
fn heaps_of_one_rule(sum: &Sum) -> Option<(HeapRule, Vec<u64>)> {
    let (mut rules, slots) = slots(sum)?;
    let heaps = slots
        .into_iter()
        .map(|s| match s {
            Slot::Heap { size, .. } => Some(size),
            Slot::Nim(_) => None,
        })
        .collect::<Option<_>>()?;
    (rules.len() == 1).then(|| (rules.remove(0), heaps))
}

/// Kayles rows with one beyond [`QUOTIENT_HEAPS`] (where the quotient to that heap shows no
/// period of its heap map: Kayles's starts at heap 71): the proven decomposition of
/// [`kayles::is_p`], and the winning moves by trying every option of every row (one row of
/// each size).
fn by_kayles(sum: &Sum, ctx: &Context) -> Route {
    let Some((rule, heaps)) = heaps_of_one_rule(sum).filter(|(r, _)| kayles::is_kayles(r)) else {
        return Ok(Err("the components are not all Kayles rows".into()));
    };
    if heaps.iter().all(|&h| h <= QUOTIENT_HEAPS) {
        return Ok(Err(format!(
            "every row has at most {QUOTIENT_HEAPS} pins: the quotient answers"
        )));
    }
    let budget = route_budget(ctx);
    let is_p = match kayles::is_p(&heaps, &budget) {
        Ok(p) => p,
        Err(e) => {
            cancelled(ctx, sum)?;
            return Ok(Err(e.to_string()));
        }
    };
    let mut explanation = vec![
        format!(
            "Misère Kayles through a Sibert–Conway decomposition, proven for every sum of rows: a sum with a row other than {} is a misère P-position exactly when its nim-sum is 0; a sum of those rows alone follows the normal outcome except on the positions listed in the decomposition.",
            kayles::SPECIAL.map(|s| s.to_string()).join(", ")
        ),
        format!(
            "This sum is {}.",
            if is_p {
                "a misère P-position: every move loses"
            } else {
                "a misère N-position"
            }
        ),
    ];
    let mut winning_moves = Vec::new();
    let mut omitted = None;
    if !is_p {
        match kayles_winning_moves(&rule, &heaps, &budget) {
            Ok(moves) => {
                let rule = Arc::new(rule);
                for (i, o) in moves {
                    let result: Vec<Box<dyn Component>> = o
                        .parts
                        .iter()
                        .map(|&h| {
                            Box::new(HeapComponent::new(Arc::clone(&rule), h)) as Box<dyn Component>
                        })
                        .collect();
                    winning_moves.push(WinningMove {
                        component: i,
                        description: o.describe(heaps[i]),
                        result: sum.replaced(i, &result).to_string(),
                        becomes: ComponentId::all(&result),
                    });
                }
            }
            Err(e) => {
                cancelled(ctx, sum)?;
                let note = format!("The winning moves are not listed: {e}.");
                explanation.push(note.clone());
                omitted = Some(note);
            }
        }
    }
    Ok(Ok(Analysis {
        expression: sum.to_string(),
        misere: true,
        value: None,
        outcome: if is_p { Outcome::P } else { Outcome::N },
        components: reports(sum, None),
        winning_moves,
        winning_moves_complete: omitted.is_none(),
        winning_moves_note: omitted,
        explanation,
        notes: Vec::new(),
    }))
}

/// The moves of a misère N-position of Kayles rows to a P-position: every option of every row,
/// each decided by [`kayles::is_p`] (rows of one size are tried once: the rest of the sum is the
/// same); one unit of work per row looked at.
fn kayles_winning_moves(
    rule: &HeapRule,
    heaps: &[u64],
    budget: &Budget,
) -> Result<Vec<(usize, HeapOption)>, MisereError> {
    let mut found = Vec::new();
    for (i, &h) in heaps.iter().enumerate() {
        if let Some(first) = heaps[..i].iter().position(|&g| g == h) {
            let same: Vec<HeapOption> = found
                .iter()
                .filter(|(k, _)| *k == first)
                .map(|(_, o): &(usize, HeapOption)| o.clone())
                .collect();
            found.extend(same.into_iter().map(|o| (i, o)));
            continue;
        }
        // A row of h pins has about h options, each a sum of about as many rows as this one.
        budget
            .afford(h.saturating_mul(heaps.len() as u64 + 1))
            .map_err(|e| MisereError::Unsupported(format!("the options of row {h}: {e}")))?;
        let mut options = Vec::new();
        for_each_option(rule, h, |o| options.push(o));
        options.sort_by(|a, b| (a.removed, &a.parts).cmp(&(b.removed, &b.parts)));
        options.dedup();
        let mut rows: Vec<u64> = Vec::with_capacity(heaps.len() + 1);
        for o in options {
            rows.clear();
            rows.extend(
                heaps
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i)
                    .map(|(_, &r)| r),
            );
            rows.extend(&o.parts);
            budget.charge(rows.len() as u64 + 1)?;
            if kayles::is_p(&rows, budget)? {
                found.push((i, o));
            }
        }
    }
    Ok(found)
}

fn by_tame(sum: &Sum, ctx: &Context) -> Route {
    let game = search::SumGame::new(ctx);
    let budget = route_budget(ctx);
    let mut solver = GenusSolver::new(&game, &budget);
    let failed = |e: MisereError, game: &search::SumGame| -> Result<String, AnalysisError> {
        cancelled(ctx, sum)?;
        Ok(match game.take_error() {
            // The rule's own error (a rule script's) is the answer, not a reason to go on.
            Some(err @ AnalysisError::Rule { .. }) => return Err(err),
            Some(err) => format!("a component's moves could not be listed ({err})"),
            None => format!("the genera were not computed ({e})"),
        })
    };
    // A component whose moves failed to list looks to the solver like a position with no
    // moves, and the game lists no moves at all after it: every genus computed since is
    // wrong. A rule's own error (a rule script's) is the answer; any other (a move list too
    // long, the memory limit) ends this route, and the search after it meets the same error.
    let listed = |game: &search::SumGame| -> Result<Result<(), String>, AnalysisError> {
        match game.take_error() {
            None => Ok(Ok(())),
            Some(err @ AnalysisError::Rule { .. }) => Err(err),
            Some(err) => Ok(Err(format!(
                "a component's moves could not be listed ({err})"
            ))),
        }
    };
    let mut genera = Vec::new();
    let mut wild = Vec::new();
    // Components tame only in their misère canonical form (reversible options bypassed, as
    // CGSuite's IsTame reads it): their raw trees hold wild positions.
    let mut forms = Forms::new(&budget);
    let mut memo: FxHashMap<Vec<u32>, FormId> = FxHashMap::default();
    let mut by_form = Vec::new();
    for (i, c) in sum.components.iter().enumerate() {
        let pos = game.position_of(std::slice::from_ref(c));
        let result = solver.hereditarily_tame(&pos);
        if let Err(reason) = listed(&game)? {
            return Ok(Err(reason));
        }
        match result {
            Ok((g, tame)) => {
                let mut why = "a position of it has a genus no Nim position has";
                let mut tame = tame;
                if !tame && g.tame().is_some() {
                    let form = forms.of_game_memo(&game, &pos, &mut memo);
                    if let Err(reason) = listed(&game)? {
                        return Ok(Err(reason));
                    }
                    match form {
                        Ok(id) if forms.is_tame(id) => {
                            tame = true;
                            by_form.push(i);
                        }
                        Ok(_) => why = "its misère canonical form has a wild position",
                        Err(_) => {
                            cancelled(ctx, sum)?;
                            why = "a position of its game tree has a wild genus, and its canonical form was not affordable";
                        }
                    }
                }
                if !tame {
                    wild.push(format!("{c} (genus {g}: {why})"));
                }
                genera.push(g);
            }
            Err(e) => return Ok(Err(failed(e, &game)?)),
        }
    }
    if !wild.is_empty() {
        return Ok(Err(format!(
            "{} {} not tame",
            wild.join(", "),
            if wild.len() == 1 { "is" } else { "are" }
        )));
    }
    let (is_p, reason) = tame_sum_is_p(&genera).expect("every genus is tame");
    let mut explanation = vec![
        "Misère play by Conway's rule for tame games (On Numbers and Games, ch. 12): every component is tame (it, and every position it can reach, has the genus of a Nim position, in its game tree or in its misère canonical form), so the sum is played like misère Nim.".to_string(),
    ];
    for (i, (c, g)) in sum.components.iter().zip(&genera).enumerate() {
        if by_form.contains(&i) {
            explanation.push(format!(
                "{c}: genus {g}; tame in its misère canonical form (reversible options bypassed, as CGSuite's IsTame reads it), though its game tree holds positions of wild genus"
            ));
        } else {
            explanation.push(format!("{c}: genus {g}"));
        }
    }
    explanation.push(reason);
    let mut winning_moves = Vec::new();
    if !is_p && !by_form.is_empty() {
        // A move may leave a wild position of a component tame only in its canonical form:
        // each move is judged by the misère Grundy value of the canonical form of the sum
        // it leaves (0 exactly at P-positions).
        explanation.push(
            "Winning moves found through the misère canonical forms of the sums they leave."
                .to_string(),
        );
        let mut ids = Vec::new();
        for c in &sum.components {
            let pos = game.position_of(std::slice::from_ref(c));
            let id = forms.of_game_memo(&game, &pos, &mut memo);
            if let Err(reason) = listed(&game)? {
                return Ok(Err(reason));
            }
            match id {
                Ok(id) => ids.push(id),
                Err(e) => return Ok(Err(failed(e, &game)?)),
            }
        }
        for (i, c) in sum.components.iter().enumerate() {
            let mut wins = Vec::new();
            for m in c.moves(ctx)? {
                let mut after: Vec<FormId> = ids
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i)
                    .map(|(_, &id)| id)
                    .collect();
                for r in &m.result {
                    let pos = game.position_of(std::slice::from_ref(r));
                    let id = forms.of_game_memo(&game, &pos, &mut memo);
                    if let Err(reason) = listed(&game)? {
                        return Ok(Err(reason));
                    }
                    match id {
                        Ok(id) => after.push(id),
                        Err(e) => return Ok(Err(failed(e, &game)?)),
                    }
                }
                match forms.sum_all(&after) {
                    Ok(id) if forms.g_minus(id) == 0 => wins.push(m),
                    Ok(_) => {}
                    Err(e) => return Ok(Err(failed(e, &game)?)),
                }
            }
            winning_moves.extend(winning(sum, i, wins));
        }
    } else if !is_p {
        for (i, c) in sum.components.iter().enumerate() {
            let mut wins = Vec::new();
            for m in c.moves(ctx)? {
                let mut after: Vec<Genus> = genera
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i)
                    .map(|(_, g)| g.clone())
                    .collect();
                for r in &m.result {
                    let pos = game.position_of(std::slice::from_ref(r));
                    let result = solver.genus(&pos);
                    if let Err(reason) = listed(&game)? {
                        return Ok(Err(reason));
                    }
                    match result {
                        Ok(g) => after.push(g),
                        Err(e) => return Ok(Err(failed(e, &game)?)),
                    }
                }
                if tame_sum_is_p(&after).is_some_and(|(p, _)| p) {
                    wins.push(m);
                }
            }
            winning_moves.extend(winning(sum, i, wins));
        }
    }
    Ok(Ok(Analysis {
        expression: sum.to_string(),
        misere: true,
        value: None,
        outcome: if is_p { Outcome::P } else { Outcome::N },
        components: reports(sum, Some(&genera)),
        winning_moves,
        winning_moves_complete: true,
        winning_moves_note: None,
        explanation,
        notes: Vec::new(),
    }))
}

/// The work the component reports' genera may take in all, after the route answered.
const GENUS_REPORT_LIMITS: crate::control::Limits = crate::control::Limits {
    max_positions: 200_000,
    max_work: 5_000_000,
    max_bytes: 256 << 20,
    max_threads: 1,
};

/// Gives every component report of a misère analysis its genus and tameness, whatever route
/// answered: a Nim heap by its closed form, any other component by [`GenusSolver`] on the
/// component alone (tame when its game tree, or else its misère canonical form, is), within
/// [`GENUS_REPORT_LIMITS`] and what the budget has left. A component whose tree does not fit
/// keeps `null`, as do the rest once the share is spent; a cancellation ends the analysis.
pub(super) fn fill_genera(
    sum: &Sum,
    analysis: &mut Analysis,
    ctx: &Context,
) -> Result<(), AnalysisError> {
    let limits = ctx.limits();
    let left = limits.max_work.saturating_sub(ctx.budget.work_done());
    // A child budget: its work counts in the request's budget too.
    let budget = ctx.budget.child(crate::control::Limits {
        max_positions: limits.max_positions.min(GENUS_REPORT_LIMITS.max_positions),
        max_work: left.min(GENUS_REPORT_LIMITS.max_work),
        max_bytes: limits.max_bytes.min(GENUS_REPORT_LIMITS.max_bytes),
        max_threads: 1,
    });
    let share = Context {
        engine: ctx.engine,
        budget: budget.clone(),
        end_table: ctx.end_table.clone(),
    };
    // Components are solved in one game (they share positions); a component whose moves
    // could not be listed poisons what was computed over the game since, so the next
    // component starts a fresh one.
    let mut pending: Vec<usize> = (0..sum.components.len())
        .filter(|&i| analysis.components[i].genus.is_none())
        .collect();
    for &i in &pending {
        if let Some(n) = sum.components[i].as_nim_heap() {
            analysis.components[i].genus = Some(Genus::of_nim_heap(n));
            analysis.components[i].tame = Some(true);
        }
    }
    pending.retain(|&i| analysis.components[i].genus.is_none());
    let mut pending: std::collections::VecDeque<usize> = pending.into();
    while !pending.is_empty() {
        let game = search::SumGame::new(&share);
        let mut solver = GenusSolver::new(&game, &budget);
        let mut forms = Forms::new(&budget);
        let mut memo: FxHashMap<Vec<u32>, FormId> = FxHashMap::default();
        let mut failed = false;
        while let Some(i) = pending.pop_front() {
            let c = &sum.components[i];
            let report = &mut analysis.components[i];
            let pos = game.position_of(std::slice::from_ref(c));
            let result = solver.hereditarily_tame(&pos);
            cancelled(ctx, sum)?;
            if game.take_error().is_some() {
                failed = true;
                break;
            }
            let Ok((genus, mut tame)) = result else {
                // The share is spent: the rest stay unknown.
                return Ok(());
            };
            if !tame && genus.tame().is_some() {
                let form = forms.of_game_memo(&game, &pos, &mut memo);
                cancelled(ctx, sum)?;
                if game.take_error().is_some() {
                    report.genus = Some(genus);
                    failed = true;
                    break;
                }
                match form {
                    Ok(id) => tame = forms.is_tame(id),
                    // Tame in its tree or not is all that is known: leave it open.
                    Err(_) => {
                        report.genus = Some(genus);
                        continue;
                    }
                }
            }
            report.genus = Some(genus);
            report.tame = Some(tame);
        }
        if !failed {
            break;
        }
    }
    Ok(())
}
