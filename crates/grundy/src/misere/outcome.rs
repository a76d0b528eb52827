//! Misère outcomes of sums of heaps through a quotient, at any heap size.
//!
//! Once the quotient of a game's heaps and its heap map are known, the misère outcome of a sum
//! of heaps is one product in the monoid: `O(k)` table look-ups for `k` heaps. A winning move
//! changes one heap `H` into an option `O` with `Φ(rest)·Φ(O)` in the P-portion; for a heap
//! beyond the computed map, the options are searched one representative per class of the
//! smaller parts modulo the map's period (a part past the preperiod stands for its class).
//!
//! Heaps beyond the computed bound are mapped through the period of the heap map; the result
//! says so ([`SumVerdict::through_period`]). Whether that period holds for every heap is for
//! the caller to ask: [`HeapQuotient::reported_period`] says *proven* when the periodicity
//! theorem applies ([`super::periodicity`]: then every outcome read here is proven, at any
//! size), *observed* otherwise.

use super::MisereError;
use super::quotient::{HeapQuotient, MapPeriod};
use crate::heap::options::{HeapOption, for_each_option};

/// The misère outcome of a sum of heaps, read from the quotient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumVerdict {
    /// Whether the sum is a misère P-position.
    pub is_p: bool,
    /// The element of the whole sum.
    pub element: u32,
    /// The element of each heap.
    pub elements: Vec<u32>,
    /// Whether some heap lies beyond the computed map and was placed through its period.
    pub through_period: bool,
}

/// A winning move: which heap, and the option it moves to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuotientMove {
    /// The index of the heap in the sum.
    pub heap: usize,
    /// The option.
    pub option: HeapOption,
    /// For a heap beyond the computed map: the parts that stand for their whole class
    /// `part + k·period`.
    pub classes: Vec<u64>,
}

/// One part of a sum read through a quotient.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// A heap of the quotient's rule, of this size.
    Heap(u64),
    /// A Nim heap of this size: a generator of a quotient computed with Nim heaps
    /// ([`super::quotient::heap_quotient_with_nim`]), or `*0`.
    Nim(u64),
    /// A game whose element is known, such as a heap of another rule of the same closure
    /// ([`super::quotient::HeapQuotient::reading`]): it counts in the product, and its moves
    /// are not listed here.
    Element(u32),
}

/// The outcome of the sum of `heaps` (sizes), or `None` when a heap is beyond the map and no
/// period is known.
pub fn sum_verdict(
    q: &HeapQuotient,
    heaps: &[u64],
    period: Option<MapPeriod>,
) -> Option<SumVerdict> {
    let parts: Vec<Part> = heaps.iter().map(|&h| Part::Heap(h)).collect();
    sum_verdict_of_parts(q, &parts, period)
}

/// The outcome of a sum of heaps and Nim heaps, or `None` when a heap is beyond the map and
/// no period is known, or a Nim heap is not among the quotient's generators.
pub fn sum_verdict_of_parts(
    q: &HeapQuotient,
    parts: &[Part],
    period: Option<MapPeriod>,
) -> Option<SumVerdict> {
    let mut elements = Vec::with_capacity(parts.len());
    for &part in parts {
        elements.push(match part {
            Part::Heap(h) => q.element_of_heap(h, period)?,
            Part::Nim(m) => q.element_of_nim(m)?,
            Part::Element(e) => (e < q.quotient.order() as u32).then_some(e)?,
        });
    }
    let element = elements.iter().fold(0, |x, &e| q.quotient.mul(x, e));
    Some(SumVerdict {
        is_p: q.quotient.is_p(element),
        element,
        elements,
        through_period: parts
            .iter()
            .any(|&p| matches!(p, Part::Heap(h) if h > q.generators.max_heap())),
    })
}

/// Every winning move of the sum of `heaps` (none in a P-position).
pub fn winning_moves(
    q: &HeapQuotient,
    heaps: &[u64],
    period: Option<MapPeriod>,
) -> Result<Vec<QuotientMove>, MisereError> {
    let parts: Vec<Part> = heaps.iter().map(|&h| Part::Heap(h)).collect();
    winning_moves_of_parts(q, &parts, period)
}

/// Every winning move of a sum of heaps and Nim heaps (none in a P-position). A move in the
/// Nim heap `*m` to `*j` reads as the option that removes `m − j` and leaves the heap `j`
/// (no part when `j = 0`).
pub fn winning_moves_of_parts(
    q: &HeapQuotient,
    parts: &[Part],
    period: Option<MapPeriod>,
) -> Result<Vec<QuotientMove>, MisereError> {
    let unknown = || {
        MisereError::Unsupported(
            "a heap lies beyond the computed quotient map and no period is known".into(),
        )
    };
    let v = sum_verdict_of_parts(q, parts, period).ok_or_else(unknown)?;
    let mut found = Vec::new();
    if v.is_p {
        return Ok(found);
    }
    for (i, &part) in parts.iter().enumerate() {
        let rest = v
            .elements
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i)
            .fold(0, |x, (_, &e)| q.quotient.mul(x, e));
        let h = match part {
            Part::Heap(h) => h,
            Part::Nim(m) => {
                for j in 0..m {
                    let e = q.element_of_nim(j).ok_or_else(unknown)?;
                    if q.quotient.is_p(q.quotient.mul(rest, e)) {
                        found.push(QuotientMove {
                            heap: i,
                            option: HeapOption {
                                removed: m - j,
                                parts: if j == 0 { vec![] } else { vec![j] },
                            },
                            classes: Vec::new(),
                        });
                    }
                }
                continue;
            }
            Part::Element(_) => continue,
        };
        let wins = |parts: &[u64]| -> Option<bool> {
            let mut x = rest;
            for &p in parts {
                x = q.quotient.mul(x, q.element_of_heap(p, period)?);
            }
            Some(q.quotient.is_p(x))
        };
        if h <= q.generators.max_heap() {
            let mut options = Vec::new();
            for_each_option(&q.rule, h, |o| options.push(o));
            options.sort_by(|a, b| (a.removed, &a.parts).cmp(&(b.removed, &b.parts)));
            options.dedup();
            for o in options {
                if wins(&o.parts).ok_or_else(unknown)? {
                    found.push(QuotientMove {
                        heap: i,
                        option: o,
                        classes: Vec::new(),
                    });
                }
            }
        } else {
            let period = period.ok_or_else(unknown)?;
            let code = q.rule.plain_code().ok_or_else(|| {
                MisereError::Unsupported(format!(
                    "winning moves in a heap beyond the computed map are searched for octal codes only, not {}",
                    q.rule
                ))
            })?;
            let (p, e) = (period.period, period.preperiod.max(1));
            let span = e + 2 * p;
            for (j, &d) in code.digits().iter().enumerate() {
                let j = j as u64;
                let m = h - j;
                let mut push = |parts: Vec<u64>, classes: Vec<u64>| -> Result<(), MisereError> {
                    if wins(&parts).ok_or_else(unknown)? {
                        found.push(QuotientMove {
                            heap: i,
                            option: HeapOption { removed: j, parts },
                            classes,
                        });
                    }
                    Ok(())
                };
                if d & 2 != 0 && j >= 1 {
                    push(vec![m], vec![])?;
                }
                if d & 4 != 0 {
                    for a in 1..span.min(m / 2 + 1) {
                        let cls = if a >= period.preperiod {
                            vec![a]
                        } else {
                            vec![]
                        };
                        push(vec![a, m - a], cls)?;
                    }
                }
                if d & 8 != 0 {
                    for a in 1..span {
                        for b in a..a.max(e) + 2 * p {
                            let cls: Vec<u64> = [a, b]
                                .into_iter()
                                .filter(|&x| x >= period.preperiod)
                                .collect();
                            push(vec![a, b, m - a - b], cls)?;
                        }
                    }
                }
            }
        }
    }
    Ok(found)
}
