//! Names of misère quotient elements: their normal forms, words in the images of the
//! generators ([`super::presentation`]).

use super::monoid::Quotient;
use super::presentation::render;

impl Quotient {
    /// A name for each element: `1` for the identity, otherwise its normal form, a shortest
    /// word in letters `a`, `b`, `c`, … standing for the distinct images of the generators in
    /// order (`ab²`), the larger exponents of earlier letters first among words of one length.
    pub fn names(&self) -> Vec<String> {
        self.normal_forms()
            .words
            .iter()
            .map(|w| w.as_deref().map_or_else(|| "?".to_string(), render))
            .collect()
    }
}
