//! Small misère Grundy values read off a misère quotient: `γ(G) ∈ {0, 1, 2}` for any sum `G`
//! of heaps, `*1` and `*2`.
//!
//! `γ(G) = m` exactly when `G + *m` is a misère P-position (see [`super::sequence`]), and at
//! most one `m` fits. So when the misère quotient `(Q, P, Φ)` of the closure of `*1`, `*2`
//! and the heaps `1..=h` of a rule is known, `γ(G)` is `j ≤ 2` exactly when
//! `Φ(G)·Φ(*j) ∈ P` (`*0` the empty sum), and `γ(G) ≥ 3` when no `j ≤ 2` fits: three
//! products in the monoid, for a sum of any length. Both facts are proven for every sum the
//! quotient covers, as the quotient is ([`super::quotient`] verifies it).
//!
//! The quotient need not distinguish larger values (that would need `*3`, `*4`, … in the
//! closure, which for Kayles passes a thousand elements by heap 20), and it stays small where
//! the labelled monoid of [`super::labels`] does not: for Kayles (whose heaps 1 and 2 *are*
//! `*1` and `*2`) it is the 40-element quotient of misère Kayles. The searches of the genus
//! ([`super::genus::GenusSolver`], [`super::gamma`]) then only descend through sums whose
//! value is 3 or more.
//!
//! Cost: building the quotient as [`super::quotient::compute`] does (for Kayles to heap 200 a
//! fraction of a second in a release build: past heap 71 each heap repeats an old type); each
//! answer is `O(len)` table look-ups.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::heap::rules::HeapRule;
//! use grundy::misere::low::{Low, LowValues};
//! let kayles = HeapRule::parse("kayles").unwrap();
//! let low = LowValues::compute(&kayles, 30, &Budget::default(), 1000).unwrap();
//! assert_eq!(low.covered(), 30);
//! assert_eq!(low.value(&[], 0, 0), Some(Low::Value(1))); // no move: 1
//! assert_eq!(low.value(&[1], 0, 0), Some(Low::Value(0))); // a single pin
//! assert_eq!(low.value(&[3], 0, 0), Some(Low::AtLeastThree)); // K3 = *3
//! ```

use super::MisereError;
use super::generators::Generators;
use super::quotient::{Quotient, compute};
use crate::control::{Budget, BudgetError};
use crate::heap::rules::HeapRule;

/// What the quotient says of `γ(G)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Low {
    /// `γ(G)` is this value (0, 1 or 2).
    Value(u64),
    /// `γ(G) ≥ 3`.
    AtLeastThree,
}

/// The verified misère quotient of `*1`, `*2` and the heaps `1..=covered` of a rule.
#[derive(Clone, Debug)]
pub struct LowValues {
    gens: Generators,
    quotient: Quotient,
    covered: u64,
    /// The elements of `*0`, `*1`, `*2`.
    nims: [u32; 3],
}

impl LowValues {
    /// The quotient of `*1`, `*2` and the heaps `1..=to`, or of as many heaps as the budget
    /// and `max_elements` allow (every intermediate quotient is proven for its heaps, and the
    /// last one is kept). `Err` only when not even `*1` and `*2` were added, or on
    /// cancellation.
    pub fn compute(
        rule: &HeapRule,
        to: u64,
        budget: &Budget,
        max_elements: usize,
    ) -> Result<LowValues, MisereError> {
        let gens = Generators::nim_then_heaps(2, rule, to, budget)?;
        let mut last: Option<(u32, Quotient)> = None;
        let result = compute(&gens, budget, max_elements, |g, q| {
            if g >= 1 {
                last = Some((g, q.clone()));
            }
            Ok(())
        });
        match result {
            Err(MisereError::Budget(BudgetError::Cancelled)) => {
                return Err(BudgetError::Cancelled.into());
            }
            Err(e) if last.is_none() => return Err(e),
            _ => {}
        }
        let (g, quotient) = last.expect("checked above");
        // The heaps covered: every heap up to the first whose generator has not joined.
        let covered = (1..=to)
            .take_while(|&h| gens.of_heap(h).is_none_or(|x| x <= g))
            .last()
            .unwrap_or(0);
        let image = |m: u32| gens.of_nim(m).map_or(0, |x| quotient.image_of_generator(x));
        let nims = [0, image(1), image(2)];
        Ok(LowValues {
            gens,
            quotient,
            covered,
            nims,
        })
    }

    /// The largest heap `h` such that every heap `1..=h` is covered.
    pub fn covered(&self) -> u64 {
        self.covered
    }

    /// The order of the quotient.
    pub fn order(&self) -> usize {
        self.quotient.order()
    }

    /// What the quotient says of `γ(heaps + twos·*2 + ones·*1)`; `None` when a heap is not
    /// covered.
    pub fn value(&self, heaps: &[u64], twos: u32, ones: u32) -> Option<Low> {
        let q = &self.quotient;
        let mut x = 0;
        for &h in heaps {
            if h > self.covered {
                return None;
            }
            if let Some(g) = self.gens.of_heap(h) {
                x = q.mul(x, q.image_of_generator(g));
            }
        }
        x = power(q, x, self.nims[2], twos);
        x = power(q, x, self.nims[1], ones);
        Some(
            (0..3u64)
                .find(|&j| q.is_p(q.mul(x, self.nims[j as usize])))
                .map_or(Low::AtLeastThree, Low::Value),
        )
    }
}

/// `x·y^k`, by squaring (`k` may be large).
fn power(q: &Quotient, mut x: u32, mut y: u32, mut k: u32) -> u32 {
    while k > 0 {
        if k & 1 == 1 {
            x = q.mul(x, y);
        }
        y = q.mul(y, y);
        k >>= 1;
    }
    x
}
