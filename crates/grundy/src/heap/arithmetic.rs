//! Arithmetic periodicity of hexadecimal codes, proven from finitely many values.
//!
//! Every code with a digit that splits a heap into three (`0.8`, `0.c`, `0.48`, ...) has
//! values that grow with the heap, and many grow by a fixed step each period: `0.8` has
//! `g(n) = ⌊(n − 1)/3⌋`, period 3 with saltus 1 (Howse and Nowakowski, *Periodicity and
//! arithmetic-periodicity in hexadecimal games*, TCS 313, 2004, study these games with an
//! arithmetic-periodicity theorem of their own). The Guy–Smith bound does not apply to a
//! saltus, and the definition costs `O(n²)` a heap for three-heap splits. [`prove`] decides
//! from the first values and the code alone, by the argument below (ours), that the pattern
//! holds for every heap; once it does, the values are copied (`g(n) = g(n − p) + s`) and any
//! heap's value is read off at once.
//!
//! ## The argument
//! Let `s = 2^m`, `e ≥ 1`, `p ≥ 1`, and suppose every value below heap `e + p` is below `s`
//! and `g(n) = g(n − p) + s` for `e + p ≤ n < N0`, with `N0 = max(t + 3e, e + p)` and `t`
//! the largest removal. Call heaps below `e` *small*, the others *big*: a big heap is
//! `e + K·p + r`, `0 ≤ r < p`, and the claim is `g(e + K·p + r) = K·s + ρ(r)` with
//! `ρ(r) = g(e + r) < s`. Since every low part is below `s = 2^m`, the nim-sum of parts
//! splits into a high part, the nim-sum of their `K`s, and a low part, the nim-sum of their
//! `ρ`s and small values.
//!
//! By induction on `n ≥ N0`, write `n = e + K·p + r`. A move removes `j` and leaves parts
//! that sum to `n − j`; since `n − j > 3(e − 1)`, at least one part is big. Group the moves
//! by their *shape*: `j`, the small parts, the residues `r_i` of the `b ≥ 1` big parts. A
//! shape fixes the residue `r` of `n` (`r ≡ b·e + Σr_i + Σx + j − e mod p`), the low part `L`
//! of its values, and `D = (b·e + Σr_i + Σx + j − e − r)/p ≥ 0`, and its moves are exactly
//! the ways to choose `K_1, …, K_b ≥ 0` with `ΣK_i = K − D`; their high parts are the set
//! `X_b(K − D)` of nim-sums of `b` numbers summing to `K − D`, and
//! - `X_1(T) = {T}`; `X_2(T)` holds `T` (and only numbers `≤ T` of `T`'s parity);
//! - `X_3(T)` is every number `≤ T` of `T`'s parity (`x ⊕ d ⊕ d` with `x + 2d = T`; a
//!   nim-sum is at most the sum and has its parity).
//!
//! So `g(n) = K·s + ρ(r)` holds for every `K` when, for the residue `r`:
//! 1. no shape with `L = ρ(r)` has `D = 0` (the others reach at most `K − D < K`);
//! 2. every `L < ρ(r)` has a shape with `D = 0` (`K ∈ X_b(K)`);
//! 3. for every `L < s`, every `K − i`, `1 ≤ i ≤ K`, is reached: 0 by a shape with two
//!    big parts or three (`(c, c)`, `(0, c, c)`) for each parity of `K − D`; the others by a
//!    shape with `b ≤ 2` and `D = i`, or one with `b = 3`, `D ≤ i` and `D ≡ i mod 2` (for
//!    all large `i` both parities are needed among the three-part shapes).
//!
//! Conditions 1–3 mention only the shapes, finitely many, never `K`: checking them for
//! every residue, with the values below `N0` checked, proves the pattern for every heap.
//! A pattern from heap 0 is proven from heap 1 (and heap `p` checked against heap 0), or,
//! when the values below `1 + p` pass the saltus (`0.0f`: `g(n) = ⌊n/2⌋`), with the blocks
//! starting at 0 (`e = 0`): then no part is small and a big part of residue 0 has
//! `K_i ≥ 1` (the heap 0 is no part), which the conditions take into account (a part so
//! *held* takes the `x` of `(x, c, c)` only when `x ≥ 1`, a `c` only when `c ≥ 1`; two
//! held parts do not surely reach `K − D` itself), for `K` from `d_max + 4` on (`d_max` the
//! largest `D`), the heaps below checked one by one.
//! Where the conditions fail (a saltus that is not a power of two, values of the first
//! period not below it, a low value reached only through two big parts in a way that
//! depends on the bits of `K`), the period stays *apparent*. Checked against the definition
//! (tests below): every claim of period at most 6, start at most 4 and saltus at most 4 on
//! every code `d0.d1d2` with a three-heap last digit, and random three-digit codes; the
//! winning moves built through a period against the listing of every heap to 160.

use super::code::Code;
use super::options::HeapOption;

/// The most shapes (`p^b` big residues times small parts, over all moves) a test enumerates.
const MAX_SHAPES: u64 = 1 << 24;
/// The largest saltus tested (the low parts are tabulated, `p·s` entries).
const MAX_SALTUS: u64 = 1 << 12;

/// What the shapes with one residue of `n` and one low part reach.
#[derive(Clone, Default)]
struct Reach {
    /// Some shape has `D = 0` (it may reach `K` itself).
    zero: bool,
    /// Some shape with `D = 0` surely reaches `K` (at most one part held at `K_i ≥ 1`).
    zero_sure: bool,
    /// The `D`s of the shapes that surely reach `K − D ≥ 1` (one big part, or two with at
    /// most one held).
    top: Vec<u64>,
    /// By the parity of `D`: the least `i` from which a three-part shape surely reaches
    /// every `K − i ≥ 1` of that parity (`(x, c, c)`, `c ≥ 1` where a held part takes it).
    three: [Option<u64>; 2],
    /// By the parity of `D`: some shape surely reaches 0 when `K − D` is even and at least 2
    /// (two parts `(c, c)`, or three `(0, c, c)` with a part not held for the 0).
    bottom: [bool; 2],
}

impl Reach {
    /// Records a shape with `big` big parts, `held` of them with `K_i ≥ 1`, and `D = d`.
    fn add(&mut self, big: usize, held: usize, d: u64) {
        let parity = (d % 2) as usize;
        self.zero |= d == 0;
        self.zero_sure |= d == 0 && held <= 1;
        if big == 2 || (big == 3 && held <= 2) {
            self.bottom[parity] = true;
        }
        if big == 3 {
            // `x` on a held part if any (`K − i ≥ 1`), `c` must reach 1 if a held part
            // takes it.
            let from = d + 2 * u64::from(held >= 2);
            let slot = &mut self.three[parity];
            *slot = Some(slot.map_or(from, |m| m.min(from)));
        } else if held <= 1 && !self.top.contains(&d) {
            self.top.push(d);
        }
    }

    /// Whether every `K − i`, `1 ≤ i ≤ K`, is reached (condition 3) once `K ≥ d_max + 2`,
    /// the `D`s being at most `d_max`: 0 by `bottom`; the others up to `i = d_max + 3` one
    /// by one, the rest by the three-part shapes of both parities.
    fn covers_below(&self, d_max: u64) -> bool {
        let reach = d_max + 3;
        if !self.bottom.iter().all(|&b| b)
            || !self.three.iter().all(|d| d.is_some_and(|d| d <= reach))
        {
            return false;
        }
        (1..=reach)
            .all(|i| self.top.contains(&i) || self.three[(i % 2) as usize].is_some_and(|d| d <= i))
    }
}

/// Calls `f` with every nondecreasing tuple of `len` numbers in `from..to`.
fn tuples(len: usize, from: u64, to: u64, f: &mut impl FnMut(&[u64])) {
    fn go(t: &mut Vec<u64>, len: usize, from: u64, to: u64, f: &mut impl FnMut(&[u64])) {
        if t.len() == len {
            f(t);
            return;
        }
        for x in from..to {
            t.push(x);
            go(t, len, x, to, f);
            t.pop();
        }
    }
    go(&mut Vec::with_capacity(len), len, from, to, f);
}

/// A family of moves from a big heap `e + K·p + r`: remove `removed`, leave the `small`
/// heaps and big heaps of the given `residues`, whose `K`s sum to `K − d`.
struct Shape<'a> {
    removed: u64,
    small: &'a [u64],
    residues: &'a [u64],
    /// The residue `r` of the heaps with these moves.
    residue: u64,
    d: u64,
    /// The nim-sum of the parts' low parts.
    low: u16,
    /// How many big parts have `K_i ≥ 1` (with `e = 0`, the heap `0·p + 0` is no part).
    held: usize,
}

/// The arithmetic pattern a test works with: `g(e + K·p + r) = K·s + g(e + r)`.
struct Pattern<'a> {
    code: &'a Code,
    values: &'a [u16],
    p: u64,
    e: u64,
}

impl Pattern<'_> {
    /// How many shapes [`Pattern::shapes`] visits (saturating).
    fn count(&self) -> u64 {
        let small = self.e.saturating_sub(1);
        let mut shapes = 0u64;
        for (j, &digit) in self.code.digits().iter().enumerate() {
            for parts in 1..=3u32 {
                if digit & (1 << parts) == 0 || (j == 0 && parts == 1) {
                    continue;
                }
                for big in 1..=parts {
                    let n = self
                        .p
                        .saturating_pow(big)
                        .saturating_mul(small.saturating_pow(parts - big));
                    shapes = shapes.saturating_add(n);
                }
            }
        }
        shapes
    }

    /// Calls `f` with every shape (big parts and small parts as multisets); `false` if
    /// some shape would have `D < 0` (never, for `e ≥ 1`).
    fn shapes(&self, mut f: impl FnMut(&Shape)) -> bool {
        let (p, e) = (self.p, self.e);
        let mut fine = true;
        for (j, &digit) in self.code.digits().iter().enumerate() {
            for parts in 1..=3usize {
                if digit & (1 << parts) == 0 || (j == 0 && parts == 1) {
                    continue;
                }
                for big in 1..=parts {
                    tuples(parts - big, 1, e, &mut |small| {
                        tuples(big, 0, p, &mut |residues| {
                            let sum = big as u64 * e
                                + residues.iter().sum::<u64>()
                                + small.iter().sum::<u64>()
                                + j as u64;
                            let Some(above) = sum.checked_sub(e) else {
                                fine = false;
                                return;
                            };
                            let low = small
                                .iter()
                                .map(|&x| self.values[x as usize])
                                .chain(residues.iter().map(|&r| self.values[(e + r) as usize]))
                                .fold(0, |a, v| a ^ v);
                            let held = if e == 0 {
                                residues.iter().filter(|&&r| r == 0).count()
                            } else {
                                0
                            };
                            f(&Shape {
                                removed: j as u64,
                                small,
                                residues,
                                residue: above % p,
                                d: above / p,
                                low,
                                held,
                            });
                        });
                    });
                }
            }
        }
        fine
    }
}

/// Proves `g(n + period) = g(n) + saltus` for every `n ≥ preperiod` of `code`'s game from
/// its first `values`, by the argument in the [module documentation](self). Returns how
/// many values the proof read, or `None` when the test does not apply or fails (the period
/// may still hold).
pub fn prove(code: &Code, values: &[u16], period: u64, preperiod: u64, saltus: u64) -> Option<u64> {
    if preperiod == 0 {
        // From heap 1 on, and heap 0 against heap p; or with the blocks starting at 0.
        let zero = usize::try_from(period)
            .ok()
            .and_then(|p| values.get(p))
            .is_some_and(|&v| u64::from(v) == u64::from(values[0]) + saltus);
        return prove_from(code, values, period, 1, saltus)
            .filter(|_| zero)
            .or_else(|| prove_from(code, values, period, 0, saltus));
    }
    prove_from(code, values, period, preperiod, saltus)
}

/// Where the blocks of a proven pattern start: the preperiod, or for a pattern from heap 0,
/// 1 if the first values allow (values below `e + p` below the saltus), else 0.
fn block_start(values: &[u16], period: u64, preperiod: u64, saltus: u64) -> u64 {
    let below = |e: u64| {
        values
            .get(..(e + period) as usize)
            .is_some_and(|v| v.iter().all(|&v| u64::from(v) < saltus))
    };
    if preperiod == 0 && !below(1) {
        0
    } else {
        preperiod.max(1)
    }
}

/// [`prove`] with the blocks starting at heap `e` (`e = 0`: the heap `0·p + 0` is no part,
/// so big parts of residue 0 have `K_i ≥ 1`).
fn prove_from(code: &Code, values: &[u16], period: u64, e: u64, saltus: u64) -> Option<u64> {
    let s = saltus;
    if s == 0 || !s.is_power_of_two() || s > MAX_SALTUS || period == 0 {
        return None;
    }
    let p = usize::try_from(period).ok()?;
    let e = usize::try_from(e).ok()?;
    let t = code.max_removal();
    let mut needed = (t + 3 * e).max(e + p);
    if values.len() < needed || (p as u64).saturating_mul(s) > 1 << 22 {
        return None;
    }
    // The values the induction starts from.
    if values[..e + p].iter().any(|&v| u64::from(v) >= s) {
        return None;
    }
    let pattern = Pattern {
        code,
        values,
        p: p as u64,
        e: e as u64,
    };
    if pattern.count() > MAX_SHAPES {
        return None;
    }
    let s = s as usize;
    let mut reach = vec![Reach::default(); p * s];
    let mut d_max = 0u64;
    let fine = pattern.shapes(|shape| {
        d_max = d_max.max(shape.d);
        reach[shape.residue as usize * s + usize::from(shape.low)].add(
            shape.residues.len(),
            shape.held,
            shape.d,
        );
    });
    if !fine {
        return None;
    }
    if e == 0 {
        // Held parts need `K − i ≥ 1` for the `i` checked one by one: `K ≥ d_max + 4`.
        needed = needed.max((d_max as usize + 5) * p);
        if values.len() < needed {
            return None;
        }
    }
    if (e + p..needed).any(|n| u64::from(values[n]) != u64::from(values[n - p]) + s as u64) {
        return None;
    }
    for r in 0..p {
        let target = usize::from(values[e + r]);
        let row = &reach[r * s..(r + 1) * s];
        let holds = row.iter().enumerate().all(|(low, reach)| {
            let own = if low == target {
                !reach.zero
            } else {
                low > target || reach.zero_sure
            };
            own && reach.covers_below(d_max)
        });
        if !holds {
            return None;
        }
    }
    Some(needed as u64)
}

/// `big` numbers summing to `total` whose nim-sum is `high`, the first `held` of them at
/// least 1, if there are any (every case decided: see the comments).
fn split(total: u64, high: u64, big: usize, held: usize) -> Option<Vec<u64>> {
    if high > total || (total - high) % 2 != 0 {
        return None; // a nim-sum is at most the sum, and of its parity
    }
    let c = (total - high) / 2;
    let low_bit = |x: u64| x & x.wrapping_neg();
    match big {
        1 => (high == total && total >= held as u64).then(|| vec![total]),
        // a + b = T and a ⊕ b = h force a & b = c = (T − h)/2, disjoint from h; a and b
        // share c and split the bits of h.
        2 if c & high != 0 => None,
        2 if c >= 1 => Some(vec![c + high, c]),
        2 => match held {
            0 | 1 => (held == 0 || high >= 1).then(|| vec![high, 0]),
            _ => (high.count_ones() >= 2).then(|| vec![low_bit(high), high - low_bit(high)]),
        },
        // (h, c, c) whenever the parts allow; else the nim-sum 0 of three parts at least 1
        // needs a | b = c with a ≠ b (their sum is 2(a | b)); a nim-sum equal to the sum
        // needs disjoint bits, one at least for each held part.
        3 if c >= 1 && high >= 1 => Some(vec![high, c, c]),
        3 if c >= 1 && held <= 2 => Some(vec![c, c, 0]),
        3 if c >= 1 => (c.count_ones() >= 2).then(|| vec![low_bit(c), c - low_bit(c), c]),
        3 => {
            if (high.count_ones() as usize) < held {
                return None;
            }
            let mut ks = vec![0u64; 3];
            let mut rest = high;
            for k in ks.iter_mut().take(held) {
                *k = low_bit(rest);
                rest -= *k;
            }
            ks[0] |= rest;
            Some(ks)
        }
        _ => None,
    }
}

/// Options of value `target` from heap `n`, under a period proven by [`prove`] (`values`
/// holding at least its first `e + p` values): one for every shape of move that reaches
/// the value, `O(shapes)`, whatever the size of `n`. `None` if `n` is not past the
/// pattern's start (`t + 3e`), or the pattern has too many shapes.
pub fn options_to_value(
    code: &Code,
    values: &[u16],
    period: u64,
    preperiod: u64,
    saltus: u64,
    n: u64,
    target: u64,
) -> Option<Vec<HeapOption>> {
    let (p, s) = (period, saltus);
    let e = block_start(values, period, preperiod, saltus);
    let start = (code.max_removal() as u64).checked_add(e.checked_mul(3)?)?;
    if p == 0 || !s.is_power_of_two() || n < start.max(e + p) || values.len() < (e + p) as usize {
        return None;
    }
    let pattern = Pattern { code, values, p, e };
    if pattern.count() > MAX_SHAPES {
        return None;
    }
    let (k, r) = ((n - e) / p, (n - e) % p);
    let (high, low) = (target / s, target % s);
    let mut found = Vec::new();
    pattern.shapes(|shape| {
        if shape.residue != r || u64::from(shape.low) != low || shape.d > k {
            return;
        }
        let Some(ks) = split(k - shape.d, high, shape.residues.len(), shape.held) else {
            return;
        };
        let mut parts: Vec<u64> = shape.small.to_vec();
        parts.extend(ks.iter().zip(shape.residues).map(|(&k, &r)| e + k * p + r));
        parts.sort_unstable();
        found.push(HeapOption {
            removed: shape.removed,
            parts,
        });
    });
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heap::period::apparent_period;
    use crate::heap::plain::reference_values;
    use crate::heap::rules::HeapRule;
    use proptest::prelude::*;

    fn values(code: &str, n: u64) -> (Code, Vec<u16>) {
        let rule = HeapRule::parse(code).unwrap();
        (rule.plain_code().unwrap(), reference_values(&rule, n))
    }

    #[test]
    fn one_digit_codes_are_proven_with_their_closed_forms() {
        // 0.8: g(n) = ⌊(n − 1)/3⌋; 0.c: ⌊(n − 1)/2⌋.
        for (code, p, k) in [("0.8", 3, 3u64), ("0.c", 2, 2)] {
            let (c, v) = values(code, 60);
            for (n, &g) in v.iter().enumerate().skip(1) {
                assert_eq!(u64::from(g), (n as u64 - 1) / k, "{code} {n}");
            }
            assert_eq!(
                prove(&c, &v, p, 1, 1),
                Some((c.max_removal() + 3).max(1 + p as usize) as u64)
            );
        }
    }

    #[test]
    fn wrong_claims_are_refused() {
        let (c, v) = values("0.8", 60);
        // Twice the period with twice the saltus is true, and proven too.
        assert_eq!(prove(&c, &v, 6, 1, 2), Some(7));
        // Not the period or saltus, not a power of two, no saltus, too few values.
        assert_eq!(prove(&c, &v, 3, 1, 2), None);
        assert_eq!(prove(&c, &v, 4, 1, 1), None);
        assert_eq!(prove(&c, &v, 9, 1, 3), None);
        assert_eq!(prove(&c, &v, 3, 1, 0), None);
        assert_eq!(prove(&c, &v[..3], 3, 1, 1), None);
        // The test reads the first max(t + 3e, e + p) = 4 values, and nothing else.
        assert_eq!(prove(&c, &v[..4], 3, 1, 1), Some(4));
        let mut bad = v.clone();
        bad[3] += 1;
        assert_eq!(prove(&c, &bad, 3, 1, 1), None);
        // An octal code whose values happen to rise for a while is never proven.
        let (c, v) = values("0.4", 40);
        assert_eq!(prove(&c, &v, 1, 1, 1), None);
    }

    /// Every code of the form `d0.d1d2` with a three-heap last digit that the test proves
    /// from 200 values: the moves built to each value are options of that value, and one is
    /// built exactly when the listing has one (heaps from where the pattern starts to 160).
    #[test]
    fn moves_built_through_the_period_match_the_listing() {
        use crate::heap::options::for_each_option;
        let mut proven = 0;
        for d0 in ["0", "4"] {
            for d1 in "0123456789abcdef".chars() {
                for d2 in "89abcdef".chars() {
                    let code = format!("{d0}.{d1}{d2}");
                    let (c, v) = values(&code, 160);
                    let Some(found) = apparent_period(&v, true) else {
                        continue;
                    };
                    let (p, e, s) = (found.period, found.preperiod, found.saltus);
                    if prove(&c, &v, p, e, s).is_none() {
                        continue;
                    }
                    proven += 1;
                    let rule = HeapRule::parse(&code).unwrap();
                    let start = c.max_removal() as u64 + 3 * e.max(1);
                    for n in start.max(e.max(1) + p)..160 {
                        let mut listed: Vec<(u64, Vec<u64>)> = Vec::new();
                        for_each_option(&rule, n, |o| {
                            let g = o.parts.iter().fold(0, |a, &x| a ^ u64::from(v[x as usize]));
                            listed.push((g, o.parts));
                        });
                        for target in 0..=u64::from(v[n as usize]) + 2 {
                            let built = options_to_value(&c, &v, p, e, s, n, target).unwrap();
                            let exists = listed.iter().any(|(g, _)| *g == target);
                            assert_eq!(!built.is_empty(), exists, "{code} heap {n} to {target}");
                            for o in &built {
                                assert_eq!(o.parts.iter().sum::<u64>() + o.removed, n);
                                let g =
                                    o.parts.iter().fold(0, |a, &x| a ^ u64::from(v[x as usize]));
                                assert_eq!(g, target, "{code} heap {n}: {o:?}");
                                assert!(listed.iter().any(|(_, parts)| *parts == o.parts));
                            }
                        }
                    }
                }
            }
        }
        assert!(proven >= 40, "only {proven} codes proven");
    }

    /// Every small claim (`p ≤ 6`, `e ≤ 4` (0 included), `s ≤ 4`) on every code `d0.d1d2` with a
    /// three-heap last digit: whatever the test proves from the values it reads holds on the
    /// definition's values to 240. Most claims are false; the test must refuse them all.
    #[test]
    fn no_false_claim_is_proven() {
        let mut proven = 0;
        for d0 in ["0", "4"] {
            for d1 in "0123456789abcdef".chars() {
                for d2 in "89abcdef".chars() {
                    let code = format!("{d0}.{d1}{d2}");
                    let (c, v) = values(&code, 240);
                    for (p, e, s) in (1..=6u64)
                        .flat_map(|p| (0..=4u64).flat_map(move |e| [1, 2, 4].map(|s| (p, e, s))))
                    {
                        if prove(&c, &v, p, e, s).is_none() {
                            continue;
                        }
                        proven += 1;
                        for n in (e + p) as usize..v.len() {
                            assert_eq!(
                                u64::from(v[n]),
                                u64::from(v[n - p as usize]) + s,
                                "{code}: period {p} from {e} with saltus {s} fails at {n}"
                            );
                        }
                    }
                }
            }
        }
        assert!(proven >= 40, "only {proven} claims proven");
    }

    /// A random hexadecimal code: up to three digits after the point, one of them (or the
    /// digit before it) splitting into three heaps.
    fn hex_code() -> impl Strategy<Value = String> {
        (
            prop_oneof![Just(0u8), Just(4), Just(8), Just(12)],
            proptest::collection::vec(0u8..16, 1..=3),
            0usize..4,
        )
            .prop_map(|(mut d0, mut digits, at)| {
                if at >= digits.len() {
                    d0 |= 8;
                } else {
                    digits[at] |= 8;
                }
                if let Some(last) = digits.last_mut().filter(|d| **d == 0) {
                    *last = 8;
                }
                let hex = |d: u8| char::from_digit(u32::from(d), 16).unwrap();
                format!(
                    "{}.{}",
                    hex(d0),
                    digits.into_iter().map(hex).collect::<String>()
                )
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Whatever the first 120 values prove holds on the definition's values to 360: the
        /// period they show, and every small claim (`p ≤ 4`, `e ≤ 2`, `s ≤ 2`).
        #[test]
        fn proofs_hold_on_the_definition(code in hex_code()) {
            let (c, v) = values(&code, 360);
            let mut claims: Vec<(u64, u64, u64)> = (1..=4u64)
                .flat_map(|p| (0..=2u64).flat_map(move |e| [1, 2].map(|s| (p, e, s))))
                .collect();
            if let Some(found) = apparent_period(&v[..120], true) {
                claims.push((found.period, found.preperiod, found.saltus));
            }
            for (p, e, s) in claims {
                if prove(&c, &v[..120], p, e, s).is_some() {
                    for n in (e + p) as usize..v.len() {
                        prop_assert_eq!(
                            u64::from(v[n]),
                            u64::from(v[n - p as usize]) + s,
                            "{}: period {} from {} with saltus {}, heap {}", code, p, e, s, n
                        );
                    }
                }
            }
        }
    }
}
