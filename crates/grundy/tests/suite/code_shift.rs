//! The shift rule of [`Code::shifted`]: a code whose heaps of one token are dead plays, one
//! heap on, as the code it gives. Checked against the definition (the mex of the options,
//! moves read straight from the digits) on every code `d0.d1d2d3` with `d0` 0 or 4, on
//! random longer and hexadecimal ones, and on the published pair (Dawson's Kayles is
//! Dawson's chess one heap on; Winning Ways, ch. 4).

use grundy::heap::code::{Code, MAX_UNSHIFTED};
use proptest::prelude::*;

/// g(0..=to) of `code` from the definition: removing `k` tokens (`k = 0` only splits) and
/// leaving `j` non-empty heaps, when digit `k` has bit `j`.
fn slow(code: &Code, to: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(to + 1);
    for n in 0..=to {
        let mut seen = std::collections::HashSet::new();
        for (k, &d) in code.digits().iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            for j in 0..4 {
                if d & (1 << j) == 0 || (k == 0 && j < 2) {
                    continue;
                }
                match j {
                    0 if rest == 0 => {
                        seen.insert(0);
                    }
                    1 if rest >= 1 => {
                        seen.insert(g[rest]);
                    }
                    2 => {
                        for a in 1..rest {
                            seen.insert(g[a] ^ g[rest - a]);
                        }
                    }
                    3 => {
                        for a in 1..rest {
                            for b in 1..rest - a {
                                seen.insert(g[a] ^ g[b] ^ g[rest - a - b]);
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// `up` played one heap on is `down`: g(n + 1) of `up` is g(n) of `down`, and g(0) = g(1) = 0.
fn check_shift(up: &Code, down: &Code, to: usize) {
    let (gu, gd) = (slow(up, to + 1), slow(down, to));
    assert_eq!(&gu[..2], &[0, 0], "{up}");
    assert_eq!(&gu[1..], &gd[..], "{up} one heap on against {down}");
}

/// Every code the shift rule relates to `up`, checked: its shift, and every other code with
/// the same shift (the same sequence as `up`).
fn check_code(up: &Code, to: usize) {
    let Some(down) = up.shifted() else {
        // A lone token can be taken: heap 1 is alive.
        assert!(up.digit(1) & 1 == 1, "{up}");
        return;
    };
    check_shift(up, &down, to);
    let ups = down.unshifted();
    assert!(
        ups.contains(up) || ups.len() == MAX_UNSHIFTED,
        "{up} is missing from the codes up from {down}: {ups:?}"
    );
    let g = slow(up, to);
    for other in ups {
        assert_eq!(other.shifted().as_ref(), Some(&down), "{other}");
        assert_eq!(slow(&other, to), g, "{other} and {up} share {down}");
    }
}

/// Every code `d0.d1d2d3` with `d0` 0 or 4 (all but the empty one).
fn three_digit_codes() -> impl Iterator<Item = Code> {
    [0u8, 4].into_iter().flat_map(|d0| {
        (0..512u32).filter_map(move |rest| {
            let digits = vec![
                d0,
                (rest >> 6) as u8,
                (rest >> 3 & 7) as u8,
                (rest & 7) as u8,
            ];
            Code::from_digits(digits).ok()
        })
    })
}

#[test]
fn every_three_digit_code_plays_as_its_shift() {
    let mut shifted = 0;
    for code in three_digit_codes() {
        shifted += usize::from(code.shifted().is_some());
        check_code(&code, 24);
    }
    // Digit 1 even (4 of 8), digit 0 either: 2 x 4 x 64 codes, less the empty one.
    assert_eq!(shifted, 2 * 4 * 64 - 1);
}

#[test]
fn dawsons_kayles_is_dawsons_chess_one_heap_on() {
    let kayles: Code = "0.07".parse().unwrap();
    let chess: Code = "0.137".parse().unwrap();
    assert_eq!(kayles.shifted(), Some(chess.clone()));
    let ups: Vec<String> = chess.unshifted().iter().map(Code::to_string).collect();
    // Each extra move (three from three: 0.071; three leaving one heap: 0.072; four from
    // four: 0.0701) leaves what a move of 0.07 leaves, up to dead heaps of one.
    assert_eq!(
        ups,
        [
            "0.07", "0.071", "0.072", "0.073", "0.0701", "0.0711", "0.0721", "0.0731"
        ]
    );
    check_shift(&kayles, &chess, 60);
    // Kayles takes a lone pin: no shift.
    assert_eq!("0.77".parse::<Code>().unwrap().shifted(), None);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn longer_and_hexadecimal_codes_play_as_their_shifts(
        d0 in prop_oneof![Just(0u8), Just(4u8), Just(8u8), Just(12u8)],
        d1 in prop_oneof![0u8..8, 8u8..16].prop_map(|d| d & !1),
        rest in prop::collection::vec(prop_oneof![3 => 0u8..8, 1 => 8u8..16], 0..5),
    ) {
        let mut digits = vec![d0, d1];
        digits.extend(rest);
        if let Ok(code) = Code::from_digits(digits) {
            check_code(&code, 16);
        }
    }
}

/// [`Code::whole_heap_twins`] of `code`, against the definition to heap `to`: every code that
/// differs only in taking a whole heap of `k` is given iff it plays alike; how many are.
fn check_whole_heap_twins(code: &Code, to: usize) -> usize {
    let g = slow(code, to);
    let given = code.whole_heap_twins();
    let mut alike_count = 0;
    for k in 1..=code.digits().len() {
        let mut other = code.digits().to_vec();
        other.resize(code.digits().len() + 1, 0);
        other[k] ^= 1;
        let mut without = other.clone();
        without[k] &= !1;
        let (Ok(other), Ok(_)) = (Code::from_digits(other), Code::from_digits(without)) else {
            continue;
        };
        let alike = slow(&other, to) == g;
        assert_eq!(
            given.contains(&(other.clone(), k)),
            alike,
            "{code} and {other} (a whole heap of {k})"
        );
        alike_count += usize::from(alike);
    }
    alike_count
}

/// Every twin [`Code::whole_heap_twins`] gives of every code `d0.d1d2d3` (and of the
/// hexadecimal `d0.d1d2`, whose splits into three heaps take another path) plays the same
/// sequence by the definition, and every code that differs only in taking a whole heap of
/// `k` and plays the same to heap 24 (16) is given.
#[test]
fn whole_heap_twins_are_exactly_the_codes_that_play_alike() {
    let twins: usize = three_digit_codes()
        .map(|code| check_whole_heap_twins(&code, 24))
        .sum();
    assert!(twins > 500, "{twins}");
    let mut hex_twins = 0;
    for d0 in [0u8, 8] {
        for rest in 0..256u32 {
            let digits = vec![d0, (rest >> 4) as u8, (rest & 15) as u8];
            if let Ok(code) = Code::from_digits(digits) {
                hex_twins += check_whole_heap_twins(&code, 16);
            }
        }
    }
    assert!(hex_twins > 50, "{hex_twins}");
    // 0.156 and 0.1561 (OEIS A071472) among them.
    let code: Code = "0.156".parse().unwrap();
    assert!(
        code.whole_heap_twins()
            .iter()
            .any(|(c, _)| c.to_string() == "0.1561")
    );
}
