//! The misère quotient route of an analysis: a sum of heaps of one or more heap rules, with
//! Nim heaps beside them, read through the misère quotient of their closure (Plambeck–Siegel).
//!
//! The closure's generators are the Nim heaps `*1..*m` of the sum, then each rule's heaps up
//! to [`QUOTIENT_HEAPS`] (or the sum's largest heap of that rule, if smaller). A heap beyond
//! that is placed through the period of its rule's heap map, read in the quotient of the whole
//! closure; the heaps are computed further (to [`QUOTIENT_PROOF_HEAPS`]) when the periodicity
//! theorem needs them to prove that period, or when no period shows by [`QUOTIENT_HEAPS`]
//! (Kayles's starts at heap 71). The theorem holds as stated for a closure of several rules'
//! heaps and Nim heaps ([`crate::misere::periodicity`]): each added heap of a repeated type
//! leaves the quotient as it was, whichever rule it belongs to.
//!
//! Cost: the quotient of the closure ([`crate::misere::quotient`]), at most
//! [`QUOTIENT_ELEMENTS`] elements, under the route's budget; then `O(k)` products for the
//! outcome of `k` heaps, and the winning moves as [`winning_moves_of_parts`] lists them.

use super::route::{Route, cancelled, reports, route_budget};
use super::{Analysis, WinningMove};
use crate::control::Budget;
use crate::heap::component::HeapComponent;
use crate::heap::rules::HeapRule;
use crate::misere::MisereError;
use crate::misere::generators::Generators;
use crate::misere::outcome::{Part, sum_verdict_of_parts, winning_moves_of_parts};
use crate::misere::periodicity::{NotCovered, ReportedPeriod, needed_heap, proves};
use crate::misere::quotient::{HeapQuotient, MapPeriod, compute};
use crate::sum::{AnalysisError, Component, ComponentId, Context, Sum};
use crate::value::Outcome;
use std::sync::Arc;

/// The most heaps of each rule whose quotient an analysis computes; larger heaps go through
/// the period of the heap map.
pub const QUOTIENT_HEAPS: u64 = 32;
/// The most heaps of a rule an analysis computes the quotient to when a period of its heap
/// map is to be proven or found.
pub const QUOTIENT_PROOF_HEAPS: u64 = 256;
/// The most elements of a quotient an analysis computes.
pub const QUOTIENT_ELEMENTS: usize = 256;
/// The largest Nim heap the quotient route takes beside heaps: each of `*1..*m` is a
/// generator, and a quotient with Nim heaps grows fast past `*3` (Kayles with `*4` passes
/// 256 elements).
pub const QUOTIENT_NIM: u64 = 8;
/// The most times the quotient is computed again with more heaps.
const ROUNDS: usize = 3;

/// A component of the sum as the quotient reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    /// A heap of rule `rule` (an index into the rules).
    Heap { rule: usize, size: u64 },
    /// A Nim heap.
    Nim(u64),
}

/// Every component a heap of a heap rule or a Nim heap: the rules (in order of first use,
/// one per name: two names of one rule stay apart, so that moves print as written) and each
/// component's slot, in the sum's order. Nim heaps alone are no heap rule's (misère Nim
/// has its own rule).
pub(super) fn slots(sum: &Sum) -> Option<(Vec<HeapRule>, Vec<Slot>)> {
    let all_nim = sum.components.iter().all(|c| c.as_nim_heap().is_some());
    let mut rules: Vec<HeapRule> = Vec::new();
    let mut slots = Vec::new();
    for c in &sum.components {
        if !all_nim && let Some(m) = c.as_nim_heap() {
            slots.push(Slot::Nim(m));
            continue;
        }
        let (rule, size) = crate::heap::component::HeapComponent::of(c.as_ref())?;
        let index = match rules.iter().position(|r| r.name() == rule.name()) {
            Some(i) => i,
            None => {
                rules.push(rule.clone());
                rules.len() - 1
            }
        };
        slots.push(Slot::Heap { rule: index, size });
    }
    Some((rules, slots))
}

/// The quotient of the closure, read for each rule, and each rule's heaps computed.
struct Closure {
    views: Vec<HeapQuotient>,
}

impl Closure {
    /// The quotient of the Nim heaps `*1..*nim` and each rule's heaps up to `bounds[i]`.
    fn compute(
        rules: &[HeapRule],
        nim: u32,
        bounds: &[u64],
        budget: &Budget,
    ) -> Result<Closure, MisereError> {
        let with: Vec<(&HeapRule, u64)> = rules.iter().zip(bounds.iter().copied()).collect();
        let (gens, indexes) = Generators::nim_then_rules(nim, &with, budget)?;
        let quotient = compute(&gens, budget, QUOTIENT_ELEMENTS, |_, _| Ok(()))?;
        let views = rules
            .iter()
            .zip(&indexes)
            .map(|(r, index)| HeapQuotient::reading(r, gens.reading_heaps(index), quotient.clone()))
            .collect();
        Ok(Closure { views })
    }

    fn bound(&self, rule: usize) -> u64 {
        self.views[rule].generators.max_heap()
    }
}

/// "the Nim heaps *1 to *m and " (or nothing without Nim heaps), for the explanation.
fn nim_heaps_and(nim: u32) -> String {
    match nim {
        0 => String::new(),
        1 => "the Nim heap *1 and ".into(),
        m => format!("the Nim heaps *1 to *{m} and "),
    }
}

/// The closure named in a refusal: "0.75", "0.75 with *1 to *3", "kayles and 0.75".
fn closure_name(rules: &[HeapRule], nim: u32) -> String {
    let names: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
    let mut name = crate::words::listed(&names);
    match nim {
        0 => {}
        1 => name.push_str(" with *1"),
        m => name.push_str(&format!(" with *1 to *{m}")),
    }
    name
}

/// The heaps each rule's part of the closure covers: "heaps 1 to 32" for one rule, "heaps 1
/// to 32 of kayles and heaps 1 to 9 of 0.75" for several.
fn heaps_covered(rules: &[HeapRule], bounds: &[u64]) -> String {
    if let [_] = rules {
        return format!("heaps 1 to {}", bounds[0]);
    }
    crate::words::listed(
        &rules
            .iter()
            .zip(bounds)
            .map(|(r, b)| format!("heaps 1 to {b} of {r}"))
            .collect::<Vec<_>>(),
    )
}

/// Misère analysis of a sum of heaps of heap rules and Nim heaps through the quotient of
/// their closure; the reason when it does not apply or is not affordable.
pub(super) fn by_quotient(sum: &Sum, ctx: &Context) -> Route {
    let Some((rules, slots)) = slots(sum) else {
        return Ok(Err(
            "the components are not all heaps of heap rules (and Nim heaps)".into(),
        ));
    };
    let mut largest = vec![0u64; rules.len()];
    let mut nim = 0u64;
    for s in &slots {
        match *s {
            Slot::Heap { rule, size } => largest[rule] = largest[rule].max(size),
            Slot::Nim(m) => nim = nim.max(m),
        }
    }
    if nim > QUOTIENT_NIM {
        return Ok(Err(format!(
            "a Nim heap of {nim} beside heaps: the quotient route takes Nim heaps up to {QUOTIENT_NIM}"
        )));
    }
    let nim = nim as u32;
    let budget = route_budget(ctx);
    let mut bounds: Vec<u64> = largest.iter().map(|&l| l.min(QUOTIENT_HEAPS)).collect();
    let mut closure = match Closure::compute(&rules, nim, &bounds, &budget) {
        Ok(c) => c,
        Err(e) => {
            cancelled(ctx, sum)?;
            return Ok(Err(format!(
                "the quotient of {} up to {} was not computed ({e})",
                closure_name(&rules, nim),
                heaps_covered(&rules, &bounds).replace("heaps 1 to", "heap"),
            )));
        }
    };
    cancelled(ctx, sum)?;
    // Further heaps where a period is to be proven, or to be found past QUOTIENT_HEAPS; a
    // computation further that fails leaves the quotient before it (periods observed).
    for _ in 0..ROUNDS {
        let mut further = bounds.clone();
        for (i, rule) in rules.iter().enumerate() {
            if largest[i] <= closure.bound(i) {
                continue;
            }
            let view = &closure.views[i];
            further[i] = match view.period() {
                None => QUOTIENT_PROOF_HEAPS,
                Some(p) => match needed_heap(rule, p) {
                    Ok(m) if !proves(view, p) && m <= QUOTIENT_PROOF_HEAPS => m.max(bounds[i]),
                    _ => bounds[i],
                },
            };
        }
        if further == bounds {
            break;
        }
        match Closure::compute(&rules, nim, &further, &budget) {
            Ok(c) => {
                closure = c;
                bounds = further;
            }
            Err(_) => {
                cancelled(ctx, sum)?;
                break;
            }
        }
    }
    let bounds: Vec<u64> = (0..rules.len()).map(|i| closure.bound(i)).collect();
    // Each rule's period, where some heap of it lies beyond the heaps computed.
    let mut periods: Vec<Option<MapPeriod>> = vec![None; rules.len()];
    for (i, rule) in rules.iter().enumerate() {
        if largest[i] > bounds[i] {
            match closure.views[i].period() {
                Some(p) => periods[i] = Some(p),
                None => {
                    let of = if rules.len() > 1 {
                        format!(" of {rule}")
                    } else {
                        String::new()
                    };
                    return Ok(Err(format!(
                        "heaps{of} beyond {} need a period of the heap map, and none shows up to {}",
                        bounds[i], bounds[i]
                    )));
                }
            }
        }
    }
    // Every heap's element, each through its own rule's map.
    let mut elements = Vec::with_capacity(slots.len());
    for s in &slots {
        elements.push(match *s {
            Slot::Heap { rule, size } => {
                match closure.views[rule].element_of_heap(size, periods[rule]) {
                    Some(e) => Part::Element(e),
                    None => {
                        return Ok(Err(
                            "a heap lies before the period of the heap map starts".into()
                        ));
                    }
                }
            }
            Slot::Nim(m) => Part::Nim(m),
        });
    }
    let first = &closure.views[0];
    let Some(v) = sum_verdict_of_parts(first, &elements, None) else {
        return Ok(Err(
            "a Nim heap is not among the quotient's generators".into()
        ));
    };
    let q = &first.quotient;
    let names = q.names();
    let several = rules.len() > 1;
    let mut explanation = vec![format!(
        "Misère play through the misère quotient of {}{} (Plambeck–Siegel): the sums of {}{} form a commutative monoid of {} whose P-portion is {{{}}}; it was computed heap by heap and verified on every sum of those heaps.",
        crate::words::listed(&rules.iter().map(|r| r.to_string()).collect::<Vec<_>>()),
        if several { " together" } else { "" },
        nim_heaps_and(nim),
        heaps_covered(&rules, &bounds),
        crate::words::count(q.order(), "element"),
        q.p_portion()
            .iter()
            .map(|&x| names[x as usize].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let mapped: Vec<String> = slots
        .iter()
        .zip(&v.elements)
        .map(|(s, &e)| match *s {
            Slot::Heap { size, .. } if !several => format!("{size} ↦ {}", names[e as usize]),
            Slot::Heap { rule, size } => format!("{} {size} ↦ {}", rules[rule], names[e as usize]),
            Slot::Nim(m) => format!("*{m} ↦ {}", names[e as usize]),
        })
        .collect();
    explanation.push(format!(
        "Heaps: {}; their product is {}, {} the P-portion.",
        mapped.join(", "),
        names[v.element as usize],
        if v.is_p { "in" } else { "not in" }
    ));
    for (i, rule) in rules.iter().enumerate() {
        if periods[i].is_none() {
            continue;
        }
        if let Some(p) = closure.views[i].reported_period() {
            explanation.push(period_sentence(rule, several, bounds[i], p));
        }
    }
    let mut winning_moves = Vec::new();
    let mut omitted = None;
    if !v.is_p {
        match moves(sum, ctx, &rules, &slots, &closure, &periods, &elements)? {
            Ok(found) => winning_moves = found,
            Err(e) => {
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
        outcome: if v.is_p { Outcome::P } else { Outcome::N },
        components: reports(sum, None),
        winning_moves,
        winning_moves_complete: omitted.is_none(),
        winning_moves_note: omitted,
        explanation,
        notes: Vec::new(),
    }))
}

/// How heaps beyond the computed ones were placed, and whether the period is proven.
fn period_sentence(rule: &HeapRule, several: bool, bound: u64, p: ReportedPeriod) -> String {
    let heaps = if several {
        format!("Heaps of {rule} beyond {bound}")
    } else {
        format!("Heaps beyond {bound}")
    };
    match (p.proven, p.needed) {
        (true, Some(needed)) => format!(
            "{heaps} are placed through the period {} (from heap {}) of the heap map, proven for every heap by the periodicity theorem for misère quotients of octal games (Plambeck–Siegel): the map repeats through heap {bound}, and the theorem needs heaps to {needed}.",
            p.period, p.preperiod
        ),
        (_, Some(needed)) => format!(
            "{heaps} are placed through the period {} (from heap {}) seen in the heap map up to {bound}: observed, not proven (the periodicity theorem needs heaps to {needed}; computed to {bound}).",
            p.period, p.preperiod
        ),
        (_, None) => format!(
            "{heaps} are placed through the period {} (from heap {}) seen in the heap map up to {bound}: observed, not proven ({}).",
            p.period,
            p.preperiod,
            NotCovered::Rule
        ),
    }
}

/// The winning moves: in each rule's heaps through that rule's reading of the quotient (the
/// other heaps counted by their elements), and in the Nim heaps.
fn moves(
    sum: &Sum,
    ctx: &Context,
    rules: &[HeapRule],
    slots: &[Slot],
    closure: &Closure,
    periods: &[Option<MapPeriod>],
    elements: &[Part],
) -> Result<Result<Vec<WinningMove>, MisereError>, AnalysisError> {
    let mut found = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        // This rule's heaps as heaps, the rest by their elements; the Nim heaps' moves once.
        let parts: Vec<Part> = slots
            .iter()
            .zip(elements)
            .map(|(s, &e)| match *s {
                Slot::Heap { rule, size } if rule == i => Part::Heap(size),
                Slot::Nim(m) if i == 0 => Part::Nim(m),
                Slot::Nim(m) => closure.views[0].element_of_nim(m).map_or(e, Part::Element),
                _ => e,
            })
            .collect();
        let moves = match winning_moves_of_parts(&closure.views[i], &parts, periods[i]) {
            Ok(m) => m,
            Err(e) => return Ok(Err(e)),
        };
        let shared = Arc::new(rule.clone());
        for m in moves {
            match slots[m.heap] {
                Slot::Nim(_) => {
                    // The Nim heap's own move to the heap left (at most QUOTIENT_NIM moves).
                    let left = m.option.parts.first().copied().unwrap_or(0);
                    for nim_move in sum.components[m.heap].moves(ctx)? {
                        if let [r] = nim_move.result.as_slice()
                            && r.as_nim_heap() == Some(left)
                        {
                            found.push(WinningMove {
                                component: m.heap,
                                description: nim_move.description,
                                result: sum.replaced(m.heap, &nim_move.result).to_string(),
                                becomes: ComponentId::all(&nim_move.result),
                            });
                        }
                    }
                }
                Slot::Heap { size, .. } => {
                    let result: Vec<Box<dyn Component>> = m
                        .option
                        .parts
                        .iter()
                        .map(|&h| {
                            Box::new(HeapComponent::new(Arc::clone(&shared), h))
                                as Box<dyn Component>
                        })
                        .collect();
                    let mut description = m.option.describe(size);
                    if !m.classes.is_empty() {
                        let p = periods[i].map_or(0, |p| p.period);
                        let c: Vec<String> =
                            m.classes.iter().map(|a| format!("{a} + {p}k")).collect();
                        description.push_str(&format!(" (also {} for any k)", c.join(", ")));
                    }
                    found.push(WinningMove {
                        component: m.heap,
                        description,
                        result: sum.replaced(m.heap, &result).to_string(),
                        becomes: ComponentId::all(&result),
                    });
                }
            }
        }
    }
    // In the order of the components, as the other routes list them.
    found.sort_by_key(|m| m.component);
    Ok(Ok(found))
}
