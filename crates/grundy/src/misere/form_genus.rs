//! The genus of a heap read off its misère canonical form.
//!
//! ## Why the form is enough
//! The exponent `gk` of `G`'s genus is `γ(G + k·*2)`, `γ` the misère Grundy value, and `γ(G)`
//! is the one `m` making `G + *m` a misère P-position ([`super::sequence`]'s module doc): so
//! misère-equal games have equal exponents, and the normal value `g⁺` of the form is the
//! game's own (J. H. Conway, *On Numbers and Games*, ch. 12: the genus is an invariant of
//! misère equality). The exponents of a heap are therefore those of its canonical form
//! ([`super::canonical`]), whose game graph is far smaller than the sums of heaps a search
//! over the heaps visits (Kayles heap 59: 43,989 forms; 0.07 heap 104: 68,536).
//!
//! ## The table
//! `γ(x + a·*2 + b·*1)` for every form `x` of the arena, `a` copies of `*2` and `b ∈ {0, 1}`
//! copies of `*1`: `*1 + *1 = 0` in misère play, so two copies of `*1` are none and `b`
//! is read modulo 2. By the definition, with the end's value 1 (the player to move, unable
//! to, wins), `γ(x + a·*2 + b·*1)` is the mex of the values of its options:
//! - `x' + a·*2 + b·*1` for every option `x'` of the form `x`;
//! - for `a > 0`, a `*2` moved to `*1` or to `0`: `x + (a-1)·*2 + (b+1 mod 2)·*1` and
//!   `x + (a-1)·*2 + b·*1`;
//! - for `b = 1`, the `*1` taken: `x + a·*2`.
//!
//! Every option of a form has a smaller id than the form (forms are stored after their
//! options), and every other option has a smaller level `2a + b`; so each level is filled in
//! the order of the ids, from the levels below it, with no search and no recursion: a level
//! costs one pass over the options of the arena's forms, `O(Σ|options|)`, and the genus of
//! a heap whose exponents settle after `K` terms needs `2K` levels over the ids up to its
//! form. Levels grow with the arena (a heap's form is the newest id when it is built), so a
//! sequence of heaps fills each entry once. Memory: four bytes an entry.
//!
//! ## The route ([`super::sequence::genus_sequence_by_forms`])
//! Heap by heap: its form ([`HeapForms::push_next`]), then its genus from the table and its
//! tameness from the form (CGSuite's `IsTame`, [`Forms::is_tame`]). Everything is charged to
//! the [`Budget`]; a run stopped keeps the heaps done.

use super::MisereError;
use super::canonical::{FormId, Forms, HeapForms, units};
use super::genus::{Genus, MAX_EXPONENTS, unsettled};
use super::genus_report::{GenusEntry, GenusRoute, GenusSequence, TameBasis};
use crate::control::Budget;
use crate::heap::rules::HeapRule;

/// Misère Grundy values of canonical forms plus copies of `*2` and `*1`, level by level.
#[derive(Debug, Default)]
pub struct FormGenus {
    /// `levels[2a + b][x]` is `γ(x + a·*2 + b·*1)`, for the ids below the level's length.
    levels: Vec<Vec<u32>>,
    /// The entries of all levels.
    entries: usize,
}

impl FormGenus {
    /// An empty table.
    pub fn new() -> Self {
        FormGenus::default()
    }

    /// `γ(id + twos·*2)`, filling the levels it needs for every form up to `id` of `forms`
    /// (which must be the arena the table was filled from so far).
    pub fn value(
        &mut self,
        forms: &Forms,
        id: FormId,
        twos: u32,
        budget: &Budget,
    ) -> Result<u32, MisereError> {
        let len = id as usize + 1;
        for level in 0..2 * (twos as usize + 1) {
            self.extend(forms, level, len, budget)?;
        }
        Ok(self.levels[2 * twos as usize][id as usize])
    }

    /// The genus of the form `id`: `g⁺` and the exponents until the period-2 tail has shown
    /// (at most [`MAX_EXPONENTS`]; a tail not seen by then is refused).
    pub fn genus(
        &mut self,
        forms: &Forms,
        id: FormId,
        budget: &Budget,
    ) -> Result<Genus, MisereError> {
        let value = u64::from(forms.g_plus(id));
        let mut exps = Vec::new();
        for k in 0..MAX_EXPONENTS as u32 {
            exps.push(u64::from(self.value(forms, id, k, budget)?));
            if let Some(g) = Genus::settled(value, &exps) {
                // The arena computed g⁻ when it stored the form, from the same options.
                if g.exponents[0] != u64::from(forms.g_minus(id)) {
                    return Err(MisereError::Invariant(format!(
                        "the form {id} has misère Grundy value {} in the arena and {} in the genus table",
                        forms.g_minus(id),
                        g.exponents[0]
                    )));
                }
                return Ok(g);
            }
        }
        Err(unsettled())
    }

    /// Fills level `level` for the ids below `len`; the levels below it must hold them.
    fn extend(
        &mut self,
        forms: &Forms,
        level: usize,
        len: usize,
        budget: &Budget,
    ) -> Result<(), MisereError> {
        while self.levels.len() <= level {
            self.levels.push(Vec::new());
        }
        let from = self.levels[level].len();
        if from >= len {
            return Ok(());
        }
        let extra = len - from;
        budget.check_positions(self.entries + extra)?;
        budget.check_bytes((self.entries + extra) as u64, 4)?;
        let (a, b) = (level / 2, level % 2);
        // The levels this one reads: a *2 moved to *1 (b flips) or to 0, and the *1 taken.
        let (lower, rest) = self.levels.split_at_mut(level);
        let cur = &mut rest[0];
        cur.try_reserve_exact(extra)
            .map_err(|_| crate::control::BudgetError::Memory {
                needed: Some((extra * 4) as u64),
                limit: budget.limits().max_bytes,
            })?;
        let mut examined = 0u64;
        // `x` is a form id: it indexes the arena and three levels at once.
        #[allow(clippy::needless_range_loop)]
        for x in from..len {
            let opts = forms.options(x as FormId);
            examined += opts.len() as u64 + 3;
            if examined >= 1 << 12 {
                budget.charge(units(examined))?;
                examined = 0;
            }
            let mut seen = Seen::default();
            for &o in opts {
                seen.add(cur[o as usize]);
            }
            if a > 0 {
                seen.add(lower[2 * (a - 1) + (1 - b)][x]);
                seen.add(lower[2 * (a - 1) + b][x]);
            }
            if b == 1 {
                seen.add(lower[level - 1][x]);
            }
            // The end alone has no move: the player to move wins (misère), value 1.
            let v = if opts.is_empty() && a == 0 && b == 0 {
                1
            } else {
                seen.mex()
            };
            cur.push(v);
        }
        budget.charge(units(examined))?;
        self.entries += extra;
        Ok(())
    }
}

/// The values seen among a position's options: a bit set for the small ones (nearly all),
/// a list for the rest.
#[derive(Default)]
struct Seen {
    small: u64,
    large: Vec<u32>,
}

impl Seen {
    fn add(&mut self, v: u32) {
        if v < 64 {
            self.small |= 1 << v;
        } else {
            self.large.push(v);
        }
    }

    fn mex(mut self) -> u32 {
        let m = self.small.trailing_ones();
        if m < 64 {
            return m;
        }
        self.large.sort_unstable();
        self.large.dedup();
        let mut m = 64;
        for &v in &self.large {
            if v != m {
                break;
            }
            m += 1;
        }
        m
    }
}

/// The genus of heaps `0..=to` of `rule` read off their canonical forms, and the forms: heap
/// by heap, until `to` or the budget; tameness from the forms.
pub(super) fn forms_route(rule: &HeapRule, to: u64, budget: &Budget) -> (GenusSequence, HeapForms) {
    let mut hf = HeapForms::new(budget);
    let mut table = FormGenus::new();
    let mut seq = GenusSequence {
        entries: Vec::new(),
        first_wild: None,
        stopped: None,
        quotient_order: None,
        route: GenusRoute::CanonicalForms { forms: 0 },
    };
    for n in 0..=to {
        let step = hf
            .push_next(rule)
            .and_then(|id| Ok((id, table.genus(&hf.forms, id, budget)?)));
        let step = step.and_then(|(id, genus)| {
            let tame = hf.forms.is_tame(id);
            seq.push(
                GenusEntry {
                    heap: n,
                    genus,
                    tame,
                    tame_basis: TameBasis::CanonicalForm,
                },
                budget,
            )?;
            if !tame && seq.first_wild.is_none() {
                seq.first_wild = Some(n);
            }
            Ok(())
        });
        match step {
            Ok(()) => {}
            Err(e) => {
                // A heap whose form was built but whose genus was not is dropped with it.
                hf.heaps.truncate(seq.entries.len());
                hf.stopped = Some(e.clone());
                seq.stopped = Some(e);
                break;
            }
        }
    }
    seq.route = GenusRoute::CanonicalForms {
        forms: hf.forms.len(),
    };
    (seq, hf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_heaps_have_the_nim_genera() {
        let budget = Budget::default();
        let mut f = Forms::new(&budget);
        let mut t = FormGenus::new();
        for (k, text) in [
            (0, "0^120"),
            (1, "1^031"),
            (2, "2^20"),
            (3, "3^31"),
            (5, "5^57"),
        ] {
            let id = f.nim(k).unwrap();
            assert_eq!(t.genus(&f, id, &budget).unwrap().to_string(), text);
        }
        // *2 + *2 = 0^02.
        let two = f.nim(2).unwrap();
        let s = f.sum(two, two).unwrap();
        assert_eq!(t.genus(&f, s, &budget).unwrap().to_string(), "0^02");
    }

    #[test]
    fn mex_of_small_and_large_values() {
        let mut s = Seen::default();
        for v in [0, 1, 3] {
            s.add(v);
        }
        assert_eq!(s.mex(), 2);
        let mut s = Seen::default();
        for v in (0..64).chain([65, 64, 67]) {
            s.add(v);
        }
        assert_eq!(s.mex(), 66);
        assert_eq!(Seen::default().mex(), 0);
    }
}
