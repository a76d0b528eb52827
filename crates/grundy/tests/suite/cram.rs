//! Cram in the 8 × 8 frame, the tall 16 × 8 frame and the narrow 16 × 4 frame
//! (`grundy::boards::cram`): their keys, simplifications and searches, each against a brute
//! force written here from the definition (bit masks, memo, no simplification, no symmetry).

use grundy::boards::CramGame;
use grundy::boards::cram::{Cells, EndTable, align, canonical, reduce, transpose};
use grundy::control::{Budget, Limits};
use grundy::search::{Options, SearchGame, Searcher};
use proptest::prelude::*;
use std::collections::HashMap;

/// The end table of the 5 x 4 box, made once.
fn end_table() -> std::sync::Arc<EndTable> {
    static TABLE: std::sync::OnceLock<std::sync::Arc<EndTable>> = std::sync::OnceLock::new();
    TABLE
        .get_or_init(|| EndTable::compute(5, &Budget::default()).unwrap().into())
        .clone()
}

/// Cram on the cells `free` of the 8 × 8 frame (bit `8r + c`), from the definition: the same
/// cells of the 16 × 8 frame (its first eight rows, with the same moves).
fn brute(free: u64, memo: &mut HashMap<u128, u32>) -> u32 {
    brute_tall(u128::from(free), memo)
}

/// The cells of an `h × w` box at the corner of the frame.
fn boxed(bits: u64, h: usize, w: usize) -> u64 {
    let mut x = 0;
    for r in 0..h {
        x |= ((bits >> (r * w)) & ((1 << w) - 1)) << (8 * r);
    }
    x
}

fn cell(x: u64, r: usize, c: usize) -> bool {
    x >> (8 * r + c) & 1 == 1
}

/// The eight images of `x` under the symmetries of the frame, cell by cell.
fn images(x: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for t in 0..8 {
        let mut y = 0u64;
        for r in 0..8 {
            for c in 0..8 {
                if !cell(x, r, c) {
                    continue;
                }
                let (mut a, mut b) = (r, c);
                if t & 1 == 1 {
                    a = 7 - a;
                }
                if t & 2 == 2 {
                    b = 7 - b;
                }
                if t & 4 == 4 {
                    std::mem::swap(&mut a, &mut b);
                }
                y |= 1 << (8 * a + b);
            }
        }
        out.push(y);
    }
    out
}

/// A random set of frame cells: each of the `h × w` box free with probability 4/5.
fn random_cells(seed: u64, h: usize, w: usize) -> u64 {
    let mut x = seed | 1;
    let mut free = 0u64;
    for r in 0..h {
        for c in 0..w {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 5 != 0 {
                free |= 1 << (8 * r + c);
            }
        }
    }
    free
}

#[test]
fn transpose_swaps_rows_and_columns() {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..1000 {
        x = x.rotate_left(17).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ 0x94d0_49bb;
        let t = transpose(x);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!(cell(t, c, r), cell(x, r, c));
            }
        }
    }
}

#[test]
fn every_image_and_every_place_gives_one_key() {
    let mut x = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // A random shape in a random box, at a random place.
        let (h, w) = ((x % 8 + 1) as usize, ((x >> 3) % 8 + 1) as usize);
        let shape = boxed(x >> 6, h, w);
        if shape == 0 {
            continue;
        }
        let key = canonical(shape);
        assert_eq!(key, align(key), "{shape:#x}");
        for image in images(shape) {
            assert_eq!(canonical(image), key, "{shape:#x}");
            let a = align(image);
            // The image's own box: its free rows and columns below and right.
            let spare_rows = (0..8)
                .take_while(|r| a >> (8 * (7 - r)) & 0xff == 0)
                .count();
            let spare_cols = (0..8)
                .take_while(|c| (0..8).all(|r| !cell(a, r, 7 - c)))
                .count();
            let (rows, cols) = (spare_rows, spare_cols);
            for (dr, dc) in [(0, 0), (rows, cols), (rows / 2, 0), (0, cols / 2)] {
                let moved = (a << (8 * dr)) << dc;
                assert_eq!(canonical(moved), key, "{shape:#x} moved {dr},{dc}");
            }
        }
        // The key is one of the images, so no two shapes share one by accident.
        assert!(images(shape).iter().any(|&i| align(i) == key));
    }
}

#[test]
fn simplifying_keeps_the_value_on_every_set_of_small_boxes() {
    let mut memo = HashMap::new();
    for (h, w) in [(4, 4), (3, 5), (2, 8), (5, 3)] {
        for bits in 0u64..1 << (h * w) {
            let x = boxed(bits, h, w);
            let y = reduce(x);
            assert_eq!(y & !x, 0, "{x:#x}: simplifying only removes cells");
            assert_eq!(brute(y, &mut memo), brute(x, &mut memo), "{x:#x} -> {y:#x}");
        }
    }
}

#[test]
fn the_parts_of_every_set_of_small_boxes_add_up_to_its_value() {
    let game = CramGame::new();
    let mut memo = HashMap::new();
    for (h, w) in [(4, 4), (3, 5), (2, 8), (5, 3), (3, 6)] {
        for bits in 0u64..1 << (h * w) {
            let x = boxed(bits, h, w);
            let mut sum = 0;
            game.split(x, |p| {
                assert_eq!(p, canonical(p), "{x:#x}: a part is a key");
                sum ^= brute(p, &mut memo);
            });
            assert_eq!(sum, brute(x, &mut memo), "{x:#x}");
        }
    }
}

#[test]
fn the_search_agrees_with_the_definition_on_every_set_of_small_boxes() {
    let game = CramGame::new();
    let budget = Budget::default();
    let mut memo = HashMap::new();
    for (h, w) in [(4, 4), (3, 5), (2, 7), (6, 2), (1, 8)] {
        // One searcher for all: the table carries over from shape to shape.
        let mut s = Searcher::new(&game, &budget).unwrap();
        for bits in 0u64..1 << (h * w) {
            let x = boxed(bits, h, w);
            let mut parts = Vec::new();
            game.split(x, |p| parts.push(p));
            let v = s.value_of_sum(&parts).unwrap();
            assert_eq!(v, brute(x, &mut memo), "{x:#x}");
        }
    }
}

/// Whether the cells of `x` are connected (cell by cell).
fn connected(x: u64) -> bool {
    if x == 0 {
        return true;
    }
    let mut seen = x & x.wrapping_neg();
    let mut todo = vec![seen.trailing_zeros()];
    while let Some(i) = todo.pop() {
        let (r, c) = (i / 8, i % 8);
        let mut next = Vec::new();
        if c > 0 {
            next.push(i - 1);
        }
        if c < 7 {
            next.push(i + 1);
        }
        if r > 0 {
            next.push(i - 8);
        }
        if r < 7 {
            next.push(i + 8);
        }
        for j in next {
            if x >> j & 1 == 1 && seen >> j & 1 == 0 {
                seen |= 1 << j;
                todo.push(j);
            }
        }
    }
    seen == x
}

/// The closed forms (paths, cycles, regions won by the half-turn strategy) and the value
/// bound, against the definition.
#[test]
fn closed_forms_and_the_bound_agree_with_the_definition() {
    use grundy::search::SearchGame;
    let game = CramGame::new();
    let mut memo = HashMap::new();
    let mut known = 0;
    // On keys (connected, simplified, canonical), as the search asks, and on the cells
    // themselves when they are connected and at the corner.
    let mut check = |x: u64, memo: &mut HashMap<u128, u32>| {
        let mut keys = Vec::new();
        game.split(x, |p| keys.push(p));
        if connected(x) && x & 0xff != 0 && x & 0x0101_0101_0101_0101 != 0 {
            keys.push(x);
        }
        for p in keys {
            let v = brute(p, memo);
            if let Some(k) = game.known_value(&p) {
                assert_eq!(k, v, "{p:#x} of {x:#x}");
                known += 1;
            }
            assert!(game.value_bound(&p).unwrap() >= v, "{p:#x} of {x:#x}");
        }
    };
    for (h, w) in [(4, 4), (3, 5), (2, 7), (5, 3), (1, 8)] {
        for bits in 0u64..1 << (h * w) {
            check(boxed(bits, h, w), &mut memo);
        }
    }
    // Shapes that are their own images under the half turn, in larger boxes: a random
    // half and its image, the centre free or not.
    for seed in 1..400u64 {
        let (h, w) = (2 + (seed % 5) as usize, 2 + (seed / 5 % 6) as usize);
        let mut x = random_cells(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), h, w);
        for r in 0..h {
            for c in 0..w {
                if cell(x, r, c) {
                    x |= 1 << (8 * (h - 1 - r) + w - 1 - c);
                }
            }
        }
        if seed % 3 == 0 {
            x &= !(1 << (8 * (h / 2) + w / 2));
            x &= !(1 << (8 * (h - 1 - h / 2) + w - 1 - w / 2));
        }
        // Full corners, so that the box stays h x w.
        x |= 1 | 1 << (8 * (h - 1) + w - 1);
        if x.count_ones() <= 22 {
            check(x, &mut memo);
        }
    }
    assert!(known > 1000, "{known}");
}

#[test]
fn a_tiny_table_still_gives_right_values() {
    let game = CramGame::new();
    let budget = Budget::new(Limits {
        max_positions: 16,
        ..Limits::DEFAULT
    });
    let mut memo = HashMap::new();
    let mut s = Searcher::new(&game, &budget).unwrap();
    for seed in 1..40u64 {
        let x = random_cells(seed * 0x9e37_79b9, 4, 5);
        let mut parts = Vec::new();
        game.split(x, |p| parts.push(p));
        assert_eq!(s.value_of_sum(&parts).unwrap(), brute(x, &mut memo));
    }
    assert!(s.stats().replaced > 0);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random shapes of up to 20 cells anywhere in the frame: the search and each
    /// option's value against the definition.
    #[test]
    fn random_shapes_match_the_definition(
        h in 2usize..=8,
        w in 2usize..=8,
        seed in any::<u64>(),
        blocked in 0u32..64,
    ) {
        let mut free = random_cells(seed, h, w);
        // At most 20 cells, so that the brute force stays quick.
        while free.count_ones() > 20 {
            free &= free - 1;
        }
        free = free.rotate_left(blocked % 3) & !blocked_column(blocked);
        check_against_definition(free, u128::from, &mut HashMap::new())?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The options listed one at a time are one per domino (counted here cell by cell), that
    /// number is the count the search relies on, and a visit that stops early sees a prefix
    /// of them. (`options` lists through `visit_options`; the values of both paths are
    /// checked against the brute force above.)
    #[test]
    fn options_one_at_a_time_are_the_options(
        h in 1usize..=8,
        w in 1usize..=8,
        seed in any::<u64>(),
        stop in 0usize..40,
    ) {
        let game = CramGame::new();
        let x = canonical(random_cells(seed, h, w));
        let free = |r: usize, c: usize| r < 8 && c < 8 && x >> (8 * r + c) & 1 == 1;
        let dominoes = (0..8)
            .flat_map(|r| (0..8).map(move |c| (r, c)))
            .filter(|&(r, c)| free(r, c))
            .map(|(r, c)| usize::from(free(r, c + 1)) + usize::from(free(r + 1, c)))
            .sum::<usize>();
        let mut listed = Vec::new();
        game.visit_options(&x, &mut |parts| {
            listed.push(parts.to_vec());
            true
        });
        prop_assert_eq!(listed.len(), dominoes, "{:#x}", x);
        let mut all = Options::default();
        game.options(&x, &mut all);
        prop_assert_eq!(all.len(), dominoes, "{:#x}", x);
        prop_assert_eq!(game.option_count(&x), Some(dominoes as u32), "{:#x}", x);
        let mut prefix = Vec::new();
        game.visit_options(&x, &mut |parts| {
            prefix.push(parts.to_vec());
            prefix.len() <= stop
        });
        prop_assert_eq!(&prefix[..], &listed[..listed.len().min(stop + 1)]);
    }
}

/// A column to block (none for most draws), so shapes have holes right through.
fn blocked_column(k: u32) -> u64 {
    if k < 48 {
        0
    } else {
        0x0101_0101_0101_0101 << (k % 8)
    }
}

// -- The tall frame: `u128`, sixteen rows of eight ---------------------------------------------

/// Cram on the cells `free` of the 16 × 8 frame (bit `8r + c`), from the definition.
fn brute_tall(free: u128, memo: &mut HashMap<u128, u32>) -> u32 {
    if let Some(&v) = memo.get(&free) {
        return v;
    }
    let mut seen = 0u128;
    for i in 0..128 {
        if free >> i & 1 == 0 {
            continue;
        }
        let (r, c) = (i / 8, i % 8);
        let partners = [(c + 1 < 8).then_some(i + 1), (r + 1 < 16).then_some(i + 8)];
        for j in partners.into_iter().flatten() {
            if free >> j & 1 == 1 {
                let v = brute_tall(free & !(1 << i) & !(1 << j), memo);
                seen |= 1 << v.min(127);
            }
        }
    }
    let v = (!seen).trailing_zeros();
    memo.insert(free, v);
    v
}

/// A random set of at most `most` cells of an `h × w` box of the tall frame, free with
/// probability 3/4.
fn random_tall(seed: u64, h: usize, w: usize, most: u32) -> u128 {
    let mut x = seed | 1;
    let mut free = 0u128;
    for r in 0..h {
        for c in 0..w {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x % 4 != 0 && free.count_ones() < most {
                free |= 1 << (8 * r + c);
            }
        }
    }
    free
}

/// The four images of `x` under the symmetries of the 16 × 8 frame's rectangle, cell by cell.
fn tall_images(x: u128) -> Vec<u128> {
    (0..4)
        .map(|t| {
            let mut y = 0u128;
            for i in 0..128 {
                if x >> i & 1 == 1 {
                    let (mut r, mut c) = (i / 8, i % 8);
                    if t & 1 == 1 {
                        r = 15 - r;
                    }
                    if t & 2 == 2 {
                        c = 7 - c;
                    }
                    y |= 1 << (8 * r + c);
                }
            }
            y
        })
        .collect()
}

#[test]
fn tall_keys_are_one_per_shape_and_agree_with_the_square_frame() {
    for seed in 1..3000u64 {
        let h = 1 + (seed % 16) as usize;
        let w = 1 + (seed / 16 % 8) as usize;
        let shape = random_tall(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15), h, w, 128);
        if shape == 0 {
            continue;
        }
        let key = canonical(shape);
        assert_eq!(key, align(key), "{shape:#x}");
        for image in tall_images(shape) {
            assert_eq!(canonical(image), key, "{shape:#x}");
            // Moved down a row and right a column, when there is room.
            if image >> 120 == 0 && image & (0x80 * 0x0101_0101_0101_0101_0101_0101_0101_0101) == 0
            {
                assert_eq!(canonical(image << 9), key, "{shape:#x} moved");
            }
        }
        // A shape of the first eight rows has the key of the square frame.
        if let Ok(small) = u64::try_from(align(shape)) {
            assert_eq!(key, u128::from(canonical(small)), "{shape:#x}");
        }
    }
}

#[test]
fn a_wide_region_is_turned_into_the_tall_frame() {
    // A 3 x 11 region (bit r * 11 + c) and its transpose (11 x 3, bit r * 3 + c).
    let mut tall = 0u128;
    for seed in 1..50u64 {
        let x = random_tall(seed * 0x2545_f491, 11, 3, 33);
        let mut wide = 0u128;
        tall = 0;
        for r in 0..11 {
            for c in 0..3 {
                if x >> (8 * r + c) & 1 == 1 {
                    tall |= 1 << (r * 3 + c);
                    wide |= 1 << (c * 11 + r);
                }
            }
        }
        let from_wide = CramGame::<u128>::frame(wide, 3, 11).unwrap();
        let from_tall = CramGame::<u128>::frame(tall, 11, 3).unwrap();
        assert_eq!(canonical(from_wide), canonical(from_tall), "{x:#x}");
        assert_eq!(from_tall, x, "{x:#x}");
    }
    // The square frame takes neither; nothing takes 9 x 9.
    assert_eq!(CramGame::<u64>::frame(tall, 11, 3), None);
    assert_eq!(CramGame::<u128>::frame(1, 9, 9), None);
}

/// The search in the frame `C` on `free` against the definition (on the same cells of the
/// tall frame, `tall(free)`): the value, each part's value, closed forms and bound, and each
/// move's "is it 0?".
fn check_against_definition<C: Cells>(
    free: C,
    tall: impl Fn(C) -> u128,
    memo: &mut HashMap<u128, u32>,
) -> Result<(), TestCaseError> {
    let game = CramGame::<C>::new();
    let mut s = Searcher::new(&game, &Budget::default()).unwrap();
    let mut parts = Vec::new();
    game.split(free, |p| parts.push(p));
    let v = brute_tall(tall(free), memo);
    prop_assert_eq!(s.value_of_sum(&parts).unwrap(), v, "{:#x}", tall(free));
    // Two threads sharing one table give the same value.
    let two = Budget::new(Limits {
        max_threads: 2,
        ..Limits::DEFAULT
    });
    let mut t = Searcher::new(&game, &two).unwrap();
    let found = t.value_of_sum_with_threads(&parts, 2).unwrap();
    prop_assert_eq!(found, v, "two threads: {:#x}", tall(free));
    // With the regions of a 5 x 4 box (or 4 x 5, turned) valued from an end table.
    let ended = CramGame::<C>::new().with_end_table(Some(end_table()));
    let mut e = Searcher::new(&ended, &Budget::default()).unwrap();
    prop_assert_eq!(
        e.value_of_sum(&parts).unwrap(),
        v,
        "end table: {:#x}",
        tall(free)
    );
    for &p in &parts {
        if let Some(k) = ended.known_value(&p) {
            prop_assert_eq!(k, brute_tall(tall(p), memo), "end table: {:#x}", tall(p));
        }
    }
    for &p in &parts {
        let want = brute_tall(tall(p), memo);
        prop_assert_eq!(s.value(&p).unwrap(), want, "{:#x}", tall(p));
        prop_assert!(game.value_bound(&p).unwrap() >= want);
        if let Some(k) = game.known_value(&p) {
            prop_assert_eq!(k, want, "{:#x}", tall(p));
        }
    }
    let (w, bits) = (C::W as usize, (C::W * C::ROWS) as usize);
    let cell = |i: usize| C::one() << i;
    for i in 0..bits {
        for j in [i + 1, i + w] {
            let inside = j < bits && (j != i + 1 || i % w != w - 1);
            if inside && free & cell(i) != C::zero() && free & cell(j) != C::zero() {
                let next = free & !cell(i) & !cell(j);
                let mut parts = Vec::new();
                game.split(next, |p| parts.push(p));
                let is_zero = s.sum_is(&parts, 0).unwrap();
                prop_assert_eq!(
                    is_zero,
                    brute_tall(tall(next), memo) == 0,
                    "{:#x}",
                    tall(next)
                );
                prop_assert!(v != 0 || !is_zero);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random tall shapes of up to 20 cells: the search in the tall frame against the
    /// definition.
    #[test]
    fn random_tall_shapes_match_the_definition(
        h in 9usize..=16,
        w in 1usize..=8,
        seed in any::<u64>(),
    ) {
        check_against_definition(random_tall(seed, h, w, 20), |x| x, &mut HashMap::new())?;
    }

    /// Random shapes of up to 20 cells of the narrow frame (16 rows of 4): its search
    /// against the definition.
    #[test]
    fn random_narrow_shapes_match_the_definition(
        h in 1usize..=16,
        w in 1usize..=4,
        seed in any::<u64>(),
    ) {
        let free = narrow(random_tall(seed, h, w, 20));
        check_against_definition(free, tall_of_narrow, &mut HashMap::new())?;
    }
}

/// Every set of cells of a few tall boxes: the search in the tall frame against the
/// definition (one searcher per box, so the table carries over).
#[test]
fn the_tall_search_agrees_with_the_definition_on_every_set_of_thin_boxes() {
    let game = CramGame::<u128>::new();
    let budget = Budget::default();
    let mut memo = HashMap::new();
    for (h, w) in [(9, 2), (12, 1), (16, 1)] {
        let mut s = Searcher::new(&game, &budget).unwrap();
        for bits in 0u128..1 << (h * w) {
            let mut x = 0u128;
            for r in 0..h {
                x |= ((bits >> (r * w)) & ((1 << w) - 1)) << (8 * r);
            }
            let mut parts = Vec::new();
            game.split(x, |p| parts.push(p));
            assert_eq!(
                s.value_of_sum(&parts).unwrap(),
                brute_tall(x, &mut memo),
                "{x:#x}"
            );
        }
    }
}

// -- The narrow frame: `usize`, sixteen rows of four --------------------------------------------

/// Cells of the tall frame's first four columns in the narrow frame (bit `8r + c` to `4r + c`).
fn narrow(x: u128) -> usize {
    (0..128)
        .filter(|&i| x >> i & 1 == 1)
        .map(|i| {
            assert!(i % 8 < 4, "{x:#x} is wider than four columns");
            1usize << (4 * (i / 8) + i % 8)
        })
        .fold(0, |a, b| a | b)
}

/// The narrow frame's cells in the tall frame.
fn tall_of_narrow(x: usize) -> u128 {
    (0..64)
        .filter(|&i| x >> i & 1 == 1)
        .fold(0, |a, i| a | 1u128 << (8 * (i / 4) + i % 4))
}

/// The images of `x` under the symmetries of the square that fit the narrow frame (the
/// transposes only of sets within four rows), cell by cell.
fn narrow_images(x: usize) -> Vec<usize> {
    let cells: Vec<(usize, usize)> = (0..64)
        .filter(|&i| x >> i & 1 == 1)
        .map(|i| (i / 4, i % 4))
        .collect();
    let mut out = Vec::new();
    for t in 0..8 {
        let moved: Vec<(i64, i64)> = cells
            .iter()
            .map(|&(r, c)| {
                let (r, c) = (r as i64, c as i64);
                let (mut r, mut c) = if t & 4 == 4 { (c, r) } else { (r, c) };
                if t & 1 == 1 {
                    r = 15 - r;
                }
                if t & 2 == 2 {
                    c = 3 - c;
                }
                (r, c)
            })
            .collect();
        if moved
            .iter()
            .all(|&(r, c)| (0..16).contains(&r) && (0..4).contains(&c))
        {
            out.push(moved.iter().fold(0, |a, &(r, c)| a | 1 << (4 * r + c)));
        }
    }
    out
}

#[test]
fn narrow_keys_are_one_per_shape() {
    for seed in 1..4000u64 {
        let h = 1 + (seed % 16) as usize;
        let w = 1 + (seed / 16 % 4) as usize;
        let shape = narrow(random_tall(
            seed.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            h,
            w,
            64,
        ));
        if shape == 0 {
            continue;
        }
        let key = canonical(shape);
        assert_eq!(key, align(key), "{shape:#x}");
        let images = narrow_images(shape);
        // The key is one of the shape's images, so shapes with one key are one shape.
        assert!(
            images.iter().any(|&i| align(i) == key),
            "{shape:#x} -> {key:#x}"
        );
        for image in images {
            assert_eq!(canonical(image), key, "{shape:#x} as {image:#x}");
            // Moved down a row and right a column, when there is room.
            if image >> 60 == 0 && image & (0x8 * (usize::MAX / 0xF)) == 0 {
                assert_eq!(canonical(image << 5), key, "{shape:#x} moved");
            }
        }
    }
}

#[test]
fn a_board_four_wide_takes_the_narrow_frame() {
    // 4 x 9 turned: nine rows of four.
    let x = CramGame::<usize>::frame((1u128 << 36) - 1, 4, 9).unwrap();
    assert_eq!(x, (1usize << 36) - 1);
    assert_eq!(CramGame::<usize>::frame(1, 5, 9), None);
    assert_eq!(CramGame::<usize>::frame(1, 4, 17), None);
    // A region and its transpose get one key.
    for seed in 1..50u64 {
        let x = random_tall(seed * 0x2545_f491, 3, 3, 9);
        let (mut bits, mut turned) = (0u128, 0u128);
        for r in 0..3 {
            for c in 0..3 {
                if x >> (8 * r + c) & 1 == 1 {
                    bits |= 1 << (r * 3 + c);
                    turned |= 1 << (c * 3 + r);
                }
            }
        }
        let a = CramGame::<usize>::frame(bits, 3, 3).unwrap();
        let b = CramGame::<usize>::frame(turned, 3, 3).unwrap();
        assert_eq!(canonical(a), canonical(b), "{x:#x}");
    }
}

/// Every set of cells of a few boxes of the narrow frame: its search against the definition
/// (one searcher per box, so the table carries over).
#[test]
fn the_narrow_search_agrees_with_the_definition_on_every_set_of_small_boxes() {
    let game = CramGame::<usize>::new();
    let budget = Budget::default();
    let mut memo = HashMap::new();
    for (h, w) in [(4, 4), (9, 2), (16, 1), (5, 3)] {
        let mut s = Searcher::new(&game, &budget).unwrap();
        for bits in 0usize..1 << (h * w) {
            let mut x = 0usize;
            for r in 0..h {
                x |= ((bits >> (r * w)) & ((1 << w) - 1)) << (4 * r);
            }
            let mut parts = Vec::new();
            game.split(x, |p| parts.push(p));
            assert_eq!(
                s.value_of_sum(&parts).unwrap(),
                brute_tall(tall_of_narrow(x), &mut memo),
                "{x:#x}"
            );
        }
    }
}

/// A long search says how far it is: its nodes, its table and the value it is trying, every
/// so many nodes, through the budget (what `analyze` shows beside its spinner).
#[test]
fn a_long_search_says_how_far_it_is() {
    let game = CramGame::<u64>::new();
    let budget = Budget::default();
    let x = CramGame::<u64>::frame((1u128 << 35) - 1, 5, 7).unwrap();
    let mut parts = Vec::new();
    game.split(x, |p| parts.push(p));
    let mut s = Searcher::new(&game, &budget).unwrap();
    assert_eq!(budget.status(), None);
    assert_eq!(s.value_of_sum(&parts).unwrap(), 1);
    let status = budget.status().expect("a status after 200,000 nodes");
    assert!(
        status.contains(" nodes, table ") && status.contains(" entries ("),
        "{status}"
    );
    // Cram 5 x 7 is 1: the value 0 is ruled out early (the central domino leaves a
    // symmetric board), and most of the search proves that no option is worth 1.
    assert!(
        status.ends_with("trying the value 1 (0 ruled out)"),
        "{status}"
    );
}

/// A session given an end table hands it to the Cram searches of its analyses (the value's
/// and the winning moves'): the same answers with less work, as the regions that fit are
/// never searched. (The tall frame's game with a table is checked against the definition
/// above; its boards are too big for this test.)
#[test]
fn a_session_with_an_end_table_searches_less_for_the_same_answers() {
    use grundy::api::{AnalyzeRequest, Preset, Session};
    let run = |session: &Session, expression: &str| {
        let req = AnalyzeRequest::new(expression);
        let budget = session.budget(&req.limits, req.task()).unwrap();
        let analysis = session.analyze(&req, &budget).unwrap();
        (serde_json::to_value(analysis).unwrap(), budget.work_done())
    };
    let plain = Session::new(Preset::Standard);
    let ended = Session::new(Preset::Standard).with_end_table(end_table());
    // The 8 x 8 frame, and the narrow frame (a side of 9).
    for expression in ["cram 5x5", "cram 3x9 + nim 1"] {
        let (a, work_a) = run(&plain, expression);
        let (b, work_b) = run(&ended, expression);
        assert_eq!(a, b, "{expression}");
        assert!(
            work_b < work_a,
            "{expression}: {work_b} units with the table, {work_a} without"
        );
    }
}
