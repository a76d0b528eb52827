//! A misère quotient as the front ends show it (`grundy quotient --json`): elements by name,
//! the table by element index, the heap map by name, the presentation, and the heap map's
//! period with what the periodicity theorem proves of it.

use super::periodicity::ReportedPeriod;
use super::presentation::Presentation;
use super::quotient::HeapQuotient;

/// A quotient as the front ends show it (`grundy quotient --json`): elements by name, the
/// table by element index, the heap map by name.
#[derive(
    Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct QuotientReport {
    /// The rule's name.
    pub rule: String,
    /// The largest heap of the closure.
    pub max_heap: u64,
    /// The number of elements.
    pub order: usize,
    /// The names of the elements of the P-portion.
    pub p_portion: Vec<String>,
    /// The name of each element (`1`, `a`, `ab²`, …), index = element.
    pub elements: Vec<String>,
    /// Generators and relations, element names being normal forms in its letters.
    pub presentation: Presentation,
    /// The multiplication table by element index.
    pub table: Vec<Vec<u32>>,
    /// The element (by name) of each heap size `0..=max_heap`.
    pub heap_map: Vec<String>,
    /// The element (by name) of each Nim heap `*1..=*m` of the closure, for a quotient
    /// computed with Nim heaps beside the heaps (empty otherwise).
    pub nim_map: Vec<String>,
    /// The order of the quotient of the heaps `1..=n`, for each `n`.
    pub orders: Vec<usize>,
    /// The heap map's period, if one shows.
    pub period: Option<ReportedPeriod>,
}

impl HeapQuotient {
    /// The typed report of this quotient (what `grundy quotient --json` prints).
    pub fn report(&self) -> QuotientReport {
        let names = self.quotient.names();
        let name = |x: &u32| names[*x as usize].clone();
        QuotientReport {
            rule: self.rule.name().to_string(),
            max_heap: self.generators.max_heap(),
            order: self.quotient.order(),
            p_portion: self.quotient.p_portion().iter().map(name).collect(),
            elements: names.clone(),
            presentation: self.quotient.presentation(),
            table: self.quotient.table().to_vec(),
            heap_map: self.heap_map.iter().map(name).collect(),
            nim_map: self.nim_map().iter().map(name).collect(),
            orders: self.orders.clone(),
            period: self.reported_period(),
        }
    }
}
