//! Misère Kayles at any size: a Sibert–Conway decomposition, proven here for every sum of
//! Kayles rows, whatever their sizes.
//!
//! ## The decomposition
//! Call the rows of 1, 4, 5, 9, 12, 17, 20 and 25 pins *special* ([`SPECIAL`]) and every
//! other row *common*. A sum of Kayles rows with a common row is a misère P-position exactly
//! when it is one in normal play (its nim-sum is 0). A sum of special rows alone has the
//! normal-play outcome, turned over on the positions of [`PATTERNS`] (an even or odd number
//! of rows from given sets, and one given row).
//!
//! The patterns are Plambeck's published decomposition of Duplicate Kayles, 0.1377
//! (T. E. Plambeck, letter to R. K. Guy of 7 October 2002 on plambeck.org, obtained there
//! "by eyeballing the Kayles decomposition in the Sibert-Conway paper"), read back at half
//! size: 0.1377's heaps `2n − 1` and `2n` play as the Kayles row of `n` pins. That reading is
//! ours; it is not trusted but proven, by [`verify`].
//!
//! ## The proof ([`verify`])
//! A prediction that calls the empty sum N (it has no move) is right on every position if, on
//! every other position, it calls P exactly those with no option it calls P (induction on the
//! position). That is checked on finitely many cases that stand for all:
//! - two or more common rows: every option keeps one, so the prediction is normal play on the
//!   position and on all its options, for which the condition holds (the mex rule);
//! - one common row `C` and special rows: moves in the special rows keep `C`; only rows of at
//!   most 52 pins have an option made of special rows alone (two special rows hold at most
//!   50 pins), so for a larger `C` the mex rule settles it again, and the rows `C` of at most
//!   52 pins are checked one by one;
//! - the special rows enter through their counts, and the prediction of a position and of its
//!   options depends on a count only through whether it is 0, 1 or 2 and its parity, so counts
//!   0 to 4 stand for all (3 for every odd count from 3, 4 for every even one from 4).
//!
//! That is `5^8` count vectors, each alone and with each common row of at most 52 pins with
//! such an option: some 15 million checks of a few operations each, done once per process.
//!
//! The genus does not follow: a Nim heap `*m` added to a sum with a common row does not play
//! as in normal play (`K11 + *4` is a misère P-position, `K11` having value 6), so the
//! decomposition says nothing of `γ` beyond the sums of rows themselves.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::misere::kayles;
//! let budget = Budget::default();
//! assert!(kayles::is_p(&[1], &budget).unwrap()); // one pin: take it and lose
//! assert!(kayles::is_p(&[20], &budget).unwrap());
//! assert!(!kayles::is_p(&[36], &budget).unwrap());
//! assert!(kayles::is_p(&[1_000_000_001, 1_000_000_001], &budget).unwrap()); // mirror
//! ```

use super::MisereError;
use crate::control::Budget;
use crate::heap::rules::HeapRule;
use crate::heap::sequence::heap_value_within;
use std::sync::{Mutex, OnceLock};

/// The special rows, by size.
pub const SPECIAL: [u64; 8] = [1, 4, 5, 9, 12, 17, 20, 25];
const NS: usize = SPECIAL.len();
/// Rows up to this size are the only ones with an option made of special rows alone.
const SMALL: u64 = 52;

/// A pattern: the sums of special rows made of its `single` rows (one of each) and of rows
/// from its sets, an even number from each set of `even` and an odd number from each of
/// `odd`, nothing else.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// Whether its positions are misère P (and normal N); otherwise misère N (and normal P).
    pub misere_p: bool,
    /// Rows present exactly once.
    pub single: &'static [u64],
    /// Sets with an even number of rows.
    pub even: &'static [&'static [u64]],
    /// Sets with an odd number of rows.
    pub odd: &'static [&'static [u64]],
}

/// The patterns (Plambeck's decomposition of 0.1377 at half size; lines that coincide at
/// half size are written once).
pub const PATTERNS: [Pattern; 9] = [
    Pattern {
        misere_p: false,
        single: &[],
        even: &[&[5], &[1, 4]],
        odd: &[],
    },
    Pattern {
        misere_p: false,
        single: &[],
        even: &[&[9, 12, 17], &[1, 4, 20]],
        odd: &[],
    },
    Pattern {
        misere_p: false,
        single: &[25],
        even: &[&[9, 12, 17]],
        odd: &[&[1, 4, 20]],
    },
    Pattern {
        misere_p: true,
        single: &[],
        even: &[],
        odd: &[&[5], &[1, 4]],
    },
    Pattern {
        misere_p: true,
        single: &[],
        even: &[&[5]],
        odd: &[&[1, 4]],
    },
    Pattern {
        misere_p: true,
        single: &[],
        even: &[&[1, 4]],
        odd: &[&[9]],
    },
    Pattern {
        misere_p: true,
        single: &[12],
        even: &[&[1, 4]],
        odd: &[],
    },
    Pattern {
        misere_p: true,
        single: &[],
        even: &[&[9, 12, 17]],
        odd: &[&[1, 4, 20]],
    },
    Pattern {
        misere_p: true,
        single: &[25],
        even: &[],
        odd: &[&[9], &[1, 4]],
    },
];

fn special_index(n: u64) -> Option<usize> {
    SPECIAL.iter().position(|&s| s == n)
}

/// The options of a row of `n` pins: the two rows left (either may be 0).
fn options(n: u64) -> impl Iterator<Item = (u64, u64)> {
    (1..=2u64.min(n)).flat_map(move |take| (0..=(n - take) / 2).map(move |a| (a, n - take - a)))
}

/// Normal-play values of rows `0..=SMALL`, by mex.
fn small_values() -> &'static [u64] {
    static V: OnceLock<Vec<u64>> = OnceLock::new();
    V.get_or_init(|| {
        let mut g: Vec<u64> = Vec::new();
        for n in 0..=SMALL {
            let seen: Vec<u64> = options(n)
                .map(|(a, b)| g[a as usize] ^ g[b as usize])
                .collect();
            g.push((0..).find(|v| !seen.contains(v)).unwrap_or(0));
        }
        g
    })
}

impl Pattern {
    fn matches(&self, counts: &[u32; NS]) -> bool {
        let mut c = *counts;
        for &s in self.single {
            let i = special_index(s).expect("pattern rows are special");
            if c[i] == 0 {
                return false;
            }
            c[i] -= 1;
        }
        let sets = || self.even.iter().chain(self.odd.iter());
        let total = |set: &[u64]| -> u64 {
            set.iter()
                .map(|&s| u64::from(c[special_index(s).expect("special")]))
                .sum()
        };
        (0..NS).all(|i| c[i] == 0 || sets().any(|set| set.contains(&SPECIAL[i])))
            && self.even.iter().all(|set| total(set) % 2 == 0)
            && self.odd.iter().all(|set| total(set) % 2 == 1)
    }
}

/// The nim-sum of the special rows counted.
fn special_xor(counts: &[u32; NS]) -> u64 {
    let v = small_values();
    (0..NS)
        .filter(|&i| counts[i] % 2 == 1)
        .fold(0, |x, i| x ^ v[SPECIAL[i] as usize])
}

/// The prediction for a sum of special rows alone: the normal-play verdict, turned over on
/// the patterns' positions.
fn special_p(patterns: &[Pattern], counts: &[u32; NS]) -> bool {
    let normal_p = special_xor(counts) == 0;
    match patterns.iter().find(|p| p.matches(counts)) {
        Some(p) => p.misere_p,
        None => normal_p,
    }
}

/// A move's result in a row of `n`: `counts` gains the special rows left; returns the
/// nim-sum of the common rows left and whether there is one.
fn leave(counts: &mut [u32; NS], rows: [u64; 2]) -> (u64, bool) {
    let v = small_values();
    let mut xor = 0;
    let mut common = false;
    for r in rows.into_iter().filter(|&r| r > 0) {
        match special_index(r) {
            Some(i) => counts[i] += 1,
            None => {
                xor ^= v[r as usize];
                common = true;
            }
        }
    }
    (xor, common)
}

/// The code of a count vector, each count brought to its representative (0, 1, 2; 3 for odd
/// counts from 3, 4 for even ones from 4), digit `i` in base 5.
fn code_of(counts: &[u32; NS]) -> usize {
    counts.iter().rev().fold(0, |x, &c| {
        let r = match c {
            0..=2 => c,
            _ if c % 2 == 1 => 3,
            _ => 4,
        };
        x * 5 + r as usize
    })
}

fn counts_of(code: usize) -> [u32; NS] {
    let mut counts = [0u32; NS];
    let mut c = code;
    for slot in &mut counts {
        *slot = (c % 5) as u32;
        c /= 5;
    }
    counts
}

/// The prediction for special rows alone (`sp`), and their nim-sum.
#[derive(Clone, Copy, Debug)]
struct Special {
    sp: bool,
    xor: u64,
}

/// Proves the prediction of the module docs on every sum of Kayles rows plus at most one Nim
/// heap (once per process; later calls return at once). An error names the first position
/// where the induction fails ([`MisereError::Invariant`]: the prediction would be wrong).
pub fn verify(budget: &Budget) -> Result<(), MisereError> {
    // Callers at the same time wait for one proof rather than each running it.
    static DONE: Mutex<bool> = Mutex::new(false);
    let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
    if !*done {
        check(&PATTERNS, budget)?;
        *done = true;
    }
    Ok(())
}

/// The prediction, and the proof of [`verify`], for any list of patterns (a wrong list fails
/// it; tests use this).
pub fn check(patterns: &[Pattern], budget: &Budget) -> Result<(), MisereError> {
    let v = small_values();
    // Option values are kept as bits of a u32.
    if let Some(&top) = v.iter().find(|&&g| g >= 32) {
        return Err(MisereError::Invariant(format!(
            "a row of at most {SMALL} pins has the value {top}, not below 32"
        )));
    }
    let codes = 5usize.pow(NS as u32);
    budget.charge(codes as u64)?;
    let special: Vec<Special> = (0..codes)
        .map(|code| {
            let counts = counts_of(code);
            Special {
                sp: special_p(patterns, &counts),
                xor: special_xor(&counts),
            }
        })
        .collect();
    // `inc[code][i]`: the code after one more special row `i`.
    let inc: Vec<[u32; NS]> = (0..codes)
        .map(|code| {
            let counts = counts_of(code);
            std::array::from_fn(|i| {
                let mut more = counts;
                more[i] += 1;
                code_of(&more) as u32
            })
        })
        .collect();
    // The common rows with an option made of special rows alone (the others keep a common
    // row in every option, where the prediction is normal play and holds by the mex rule):
    // their value, the values of their options keeping a common row (as bits), and their
    // all-special options (the special rows they leave).
    type AllSpecial = [Option<usize>; 2];
    let commons: Vec<(u64, u64, u32, Vec<AllSpecial>)> = (2..=SMALL)
        .filter(|&n| special_index(n).is_none())
        .filter_map(|n| {
            let mut normal = 0u32;
            let mut all_special: Vec<AllSpecial> = Vec::new();
            for (a, b) in options(n) {
                let parts = [a, b].map(|r| (r > 0).then(|| special_index(r)));
                if parts.iter().all(|p| !matches!(p, Some(None))) {
                    all_special.push(parts.map(Option::flatten));
                } else {
                    normal |= 1 << (v[a as usize] ^ v[b as usize]);
                }
            }
            (!all_special.is_empty()).then_some((n, v[n as usize], normal, all_special))
        })
        .collect();
    let fail = |what: String| Err(MisereError::Invariant(what));
    for code in 0..codes {
        budget.charge(1 + commons.len() as u64)?;
        let counts = counts_of(code);
        let me = special[code];
        // The moves in the special rows: the values they leave (as bits), and whether one
        // leads to a position called P when no common row stands beside them.
        let mut values = 0u32;
        let mut some_p = false;
        for i in (0..NS).filter(|&i| counts[i] > 0) {
            for (a, b) in options(SPECIAL[i]) {
                let mut next = counts;
                next[i] -= 1;
                let (cx, common) = leave(&mut next, [a, b]);
                let after = special[code_of(&next)];
                values |= 1 << (after.xor ^ cx);
                some_p |= if common {
                    after.xor ^ cx == 0
                } else {
                    after.sp
                };
            }
        }
        // Special rows alone (the empty sum, with no move, is checked below).
        if code > 0 && me.sp == some_p {
            return fail(format!(
                "the special rows counted {counts:?} (sizes {SPECIAL:?})"
            ));
        }
        // One common row `C` beside them: the prediction is normal play.
        for (c, gc, normal, all_special) in &commons {
            let p = me.xor ^ gc == 0;
            let some_p = values >> gc & 1 == 1
                || normal >> me.xor & 1 == 1
                || all_special.iter().any(|parts| {
                    let after = parts
                        .iter()
                        .flatten()
                        .fold(code, |x, &i| inc[x][i] as usize);
                    special[after].sp
                });
            if p == some_p {
                return fail(format!(
                    "the special rows counted {counts:?} (sizes {SPECIAL:?}) with row {c}"
                ));
            }
        }
    }
    if special[0].sp {
        return fail("the empty sum is called P".to_string());
    }
    Ok(())
}

/// Whether `rule` is Kayles (0.77 under any name).
pub fn is_kayles(rule: &HeapRule) -> bool {
    HeapRule::parse("0.77").is_ok_and(|k| k.canonical() == rule.canonical())
}

/// The misère outcome of a sum of Kayles rows of any sizes (`true`: P, the player to move
/// loses), through the decomposition proven by [`verify`]; normal values of large rows
/// through [`crate::heap::sequence`] (Kayles's proven period).
pub fn is_p(rows: &[u64], budget: &Budget) -> Result<bool, MisereError> {
    verify(budget)?;
    let rule = HeapRule::parse("0.77").map_err(|e| MisereError::Unsupported(e.to_string()))?;
    let mut counts = [0u32; NS];
    let mut xor = 0;
    let mut common = false;
    for &r in rows.iter().filter(|&&r| r > 0) {
        match special_index(r) {
            Some(i) => counts[i] = counts[i].saturating_add(1),
            None => {
                common = true;
                xor ^= heap_value_within(&rule, r, budget).map_err(|e| {
                    MisereError::Unsupported(format!("the normal value of row {r}: {e}"))
                })?;
            }
        }
    }
    Ok(if common {
        special_xor(&counts) ^ xor == 0
    } else {
        special_p(&PATTERNS, &counts)
    })
}
