//! Sets of cells of a frame eight cells wide, as one machine word: bit `8r + c` for cell
//! (`r`, `c`), so a row is a byte. A `u64` holds eight rows (the 8 × 8 frame), a `u128`
//! sixteen (the tall frame, for boards with a side of 9 to 16 cells and the other of at
//! most 8). Every operation here is a few word operations on either: moves, neighbours,
//! flood fill, the symmetries, and the two simplifying rules of the module docs of
//! [`super`].

use num_traits::PrimInt;
use std::fmt::Debug;
use std::hash::Hash;

/// A set of cells of a frame eight cells wide (see the module docs): `u64` or `u128`.
pub trait Cells: PrimInt + Hash + Default + Debug + Send + Sync + 'static {
    /// The rows of the frame.
    const ROWS: u32;
    /// Column 0 of the frame.
    const COL0: Self;
    /// The black cells of the chessboard colouring (`r + c` even).
    const BLACK: Self;
    /// The cells as a `u64`, if they all lie in the first eight rows.
    fn low(self) -> Option<u64>;
    /// Cells of the first eight rows.
    fn from_low(x: u64) -> Self;
    /// The cells of row 0, as a byte.
    fn first_row(self) -> u8;
}

impl Cells for u64 {
    const ROWS: u32 = 8;
    const COL0: u64 = 0x0101_0101_0101_0101;
    const BLACK: u64 = 0xAA55_AA55_AA55_AA55;
    fn low(self) -> Option<u64> {
        Some(self)
    }
    fn from_low(x: u64) -> u64 {
        x
    }
    fn first_row(self) -> u8 {
        self as u8
    }
}

impl Cells for u128 {
    const ROWS: u32 = 16;
    const COL0: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    const BLACK: u128 = 0xAA55_AA55_AA55_AA55_AA55_AA55_AA55_AA55;
    fn low(self) -> Option<u64> {
        u64::try_from(self).ok()
    }
    fn from_low(x: u64) -> u128 {
        u128::from(x)
    }
    fn first_row(self) -> u8 {
        self as u8
    }
}

/// The bits of a frame.
fn bits<C: Cells>() -> u32 {
    C::ROWS * 8
}

/// Column 7 of the frame.
fn col7<C: Cells>() -> C {
    C::COL0 << 7
}

/// Each cell moved one column right (cells of column 7 leave).
pub fn east<C: Cells>(x: C) -> C {
    (x << 1) & !C::COL0
}

/// Each cell moved one column left (cells of column 0 leave).
pub fn west<C: Cells>(x: C) -> C {
    (x >> 1) & !col7::<C>()
}

/// Each cell moved one row down (cells of the last row leave).
pub fn south<C: Cells>(x: C) -> C {
    x << 8
}

/// Each cell moved one row up (cells of row 0 leave).
pub fn north<C: Cells>(x: C) -> C {
    x >> 8
}

/// The lowest cell of a non-empty set.
pub fn lowest<C: Cells>(x: C) -> C {
    x & !(x - C::one())
}

/// The cells of `set` joined to a cell of `from` (`from` in `set`), where a cell of `cut`
/// is not joined to its right neighbour: flood fill, each round spreading along whole rows
/// and columns at once (Kogge–Stone "occluded fills", three or four shifts per direction),
/// so the rounds are the turns of the longest shortest path, not its length.
pub fn fill<C: Cells>(mut from: C, set: C, cut: C) -> C {
    // Cells a spread may enter, per direction.
    let east_pass = set & !C::COL0 & !(cut << 1);
    let west_pass = set & !col7::<C>() & !cut;
    loop {
        let (mut s, mut n, mut p, mut q) = (from, from, set, set);
        let mut k = 8;
        loop {
            s = s | (p & (s << k));
            n = n | (q & (n >> k));
            if 2 * k >= bits::<C>() as usize {
                break;
            }
            p = p & (p << k);
            q = q & (q >> k);
            k *= 2;
        }
        let (mut e, mut p) = (from, east_pass);
        e = e | (p & (e << 1));
        p = p & (p << 1);
        e = e | (p & (e << 2));
        p = p & (p << 2);
        e = e | (p & (e << 4));
        let (mut w, mut p) = (from, west_pass);
        w = w | (p & (w >> 1));
        p = p & (p >> 1);
        w = w | (p & (w >> 2));
        p = p & (p >> 2);
        w = w | (p & (w >> 4));
        let grown = s | n | e | w;
        if grown == from {
            return from;
        }
        from = grown;
    }
}

/// The horizontal edges of `x` that can be cut (marked at their left cell): in a 2 × 2
/// block `a b / c d` of free cells where `a`'s left and upper neighbours and `d`'s right
/// and lower neighbours are not free (or the same mirrored: `b`'s right and upper, `c`'s
/// left and lower), the edges `a-b` and `c-d` go. (Beling's igs, `forbidden_horizontal_moves`.)
///
/// Why: a domino on `a-b` leaves `d` a tuft of `c`; a domino on `b-d` leaves `a` a tuft of
/// `c`: the same position up to a swap of two cells with the same neighbours. Likewise `c-d`
/// and `a-c`. So the horizontal dominoes of the block only repeat other options, and the
/// board without those two edges has the same options (by induction: the pattern stays, or
/// what is left of the block is a star the rules above reduce alike).
pub fn cut_edges<C: Cells>(x: C) -> C {
    let has_left = x & east(x);
    let has_right = x & west(x);
    let has_up = x & south(x);
    let has_down = x & north(x);
    // `a` with `b` and `c`, its left and top closed; `d` with `b` and `c`, its right and
    // bottom closed; `d` is `a + 9`.
    let a = x & !has_left & !has_up & has_right & has_down;
    let d = x & !has_right & !has_down & has_left & has_up;
    let first = a & (d >> 9);
    // Mirrored: `b` with `a` and `d`, right and top closed; `c` (`b + 7`) with `a` and `d`,
    // left and bottom closed.
    let b = x & !has_right & !has_up & has_left & has_down;
    let c = x & !has_left & !has_down & has_right & has_up;
    let second = b & (c >> 7);
    first | (first << 8) | (second >> 1) | (second << 7)
}

/// The transpose of the 8 × 8 frame: cell (`r`, `c`) to (`c`, `r`) (three delta swaps;
/// Knuth, *The Art of Computer Programming* 4A, 7.1.3; Warren, *Hacker's Delight*, 7-3).
pub fn transpose(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^= t ^ (t << 28);
    x
}

/// The occupied columns, as one byte.
pub fn columns<C: Cells>(x: C) -> u8 {
    let mut c = x;
    let mut k = bits::<C>() as usize / 2;
    while k >= 8 {
        c = c | (c >> k);
        k /= 2;
    }
    c.first_row()
}

/// The rows and columns of the box from the top-left corner to the last cell of `x`
/// (`x` aligned, not empty).
pub fn extent<C: Cells>(x: C) -> (u32, u32) {
    let h = (bits::<C>() - 1 - x.leading_zeros()) / 8 + 1;
    let w = 8 - columns(x).leading_zeros();
    (h, w)
}

/// `x` moved to the top-left corner.
pub fn align<C: Cells>(x: C) -> C {
    if x == C::zero() {
        return x;
    }
    let x = x >> (x.trailing_zeros() & !7) as usize;
    x >> columns(x).trailing_zeros() as usize
}

/// The canonical key of a set of cells: the least of its images under the symmetries of
/// the square, each moved to the top-left corner, among those at least as tall as wide
/// (four for a box that is not square: transposes are only taken for a square box). A set
/// taller than eight rows (in the tall frame) is at most eight columns wide, so it is
/// taller than wide already and only its box's four symmetries are taken.
pub fn canonical<C: Cells>(x: C) -> C {
    let x = align(x);
    match x.low() {
        Some(small) => C::from_low(canonical_small(small)),
        None => {
            let (h, w) = extent(x);
            let (dy, dx) = ((8 * (C::ROWS - h)) as usize, (8 - w) as usize);
            let vflip = x.swap_bytes() >> dy;
            let turn = x.reverse_bits() >> (dy + dx);
            let hflip = turn.swap_bytes() >> dy;
            x.min(vflip).min(turn).min(hflip)
        }
    }
}

/// [`canonical`] of an aligned set of the 8 × 8 frame.
fn canonical_small(mut x: u64) -> u64 {
    if x == 0 {
        return 0;
    }
    let (mut h, mut w) = extent(x);
    if h < w {
        x = transpose(x);
        std::mem::swap(&mut h, &mut w);
    }
    let (dy, dx) = (8 * (8 - h), 8 - w);
    let vflip = x.swap_bytes() >> dy;
    let turn = x.reverse_bits() >> (dy + dx);
    let hflip = turn.swap_bytes() >> dy;
    let least = x.min(vflip).min(turn).min(hflip);
    if h != w {
        return least;
    }
    least
        .min(transpose(x))
        .min(transpose(vflip))
        .min(transpose(turn))
        .min(transpose(hflip))
}

/// Whether the second player wins `x` by the half-turn strategy: `x` is its own image under
/// the half turn about the centre of the box from the corner to its last row and column,
/// and the centre (the cell, or the two cells, that the half turn maps to themselves or to
/// each other) is not free. Then a domino's image is free and apart from it, and the
/// position stays symmetric: the value is 0. (This takes in every full even x even
/// rectangle.)
pub fn mirrors<C: Cells>(x: C) -> bool {
    if x == C::zero() {
        return true;
    }
    let (h, w) = extent(x);
    if x.reverse_bits() >> (8 * (C::ROWS - h) + (8 - w)) as usize != x {
        return false;
    }
    // Unless the box is even x even, cell (h / 2, w / 2) is the centre or one of its two.
    (h % 2 == 0 && w % 2 == 0) || x & (C::one() << (8 * (h / 2) + w / 2) as usize) == C::zero()
}

/// The cells of `x` with exactly one neighbour in `x` (tufts), and the cells next to a tuft
/// (centres).
fn tufts_and_centres<C: Cells>(x: C) -> (C, C) {
    let (l, r, u, d) = (x & east(x), x & west(x), x & south(x), x & north(x));
    let any = l | r | u | d;
    let two = (l & r) | (u & d) | ((l | r) & (u | d));
    let tufts = any & !two;
    let centres = x & (east(tufts) | west(tufts) | south(tufts) | north(tufts));
    (tufts, centres)
}

/// A move of every cell one step in a direction.
type Shift<C> = fn(C) -> C;

/// One pass of the two rules of the module docs: extra tufts of a centre go, and bridges
/// (cells, not tufts or centres, whose neighbours are all centres; isolated cells among them).
fn reduce_once<C: Cells>(x: C) -> (C, bool) {
    let (tufts, centres) = tufts_and_centres(x);
    // Tufts by the side of their centre: (the tufts, their centres, the tufts of cells).
    let groups: [(C, Shift<C>, Shift<C>); 4] = [
        // A neighbour below: the centre is the cell below (`south`).
        (tufts & north(x), south, north),
        (tufts & south(x), north, south),
        (tufts & west(x), east, west),
        (tufts & east(x), west, east),
    ];
    let mut kept = C::zero();
    let mut out = x;
    for (these, centre_of, tuft_of) in groups {
        out = out & !(these & tuft_of(kept));
        kept = kept | centre_of(these);
    }
    let others = x & !(tufts | centres);
    let bridges = others & !(east(others) | west(others) | south(others) | north(others));
    (out & !bridges, tufts != C::zero())
}

/// `x` simplified by the rules of the module docs until none applies; the value is kept.
pub fn reduce<C: Cells>(mut x: C) -> C {
    loop {
        let (y, tufts) = reduce_once(x);
        // Without tufts only isolated cells went: no neighbour count changed, so nothing
        // more applies.
        if y == x || !tufts {
            return y;
        }
        x = y;
    }
}
