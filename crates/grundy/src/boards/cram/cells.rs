//! Sets of cells of a frame `W` cells wide, as one machine word: bit `W r + c` for cell
//! (`r`, `c`). Three frames: `u64` (8 × 8, a row is a byte), `u128` (the tall frame, 16 rows
//! of 8, for boards with a side of 9 to 16 cells and the other of at most 8) and `usize` (the
//! narrow frame, 16 rows of 4 on a 64-bit machine, for boards with a side of 9 to 16 cells
//! and the other of at most 4: half the word of the tall frame). The narrow frame's words are
//! `usize` only to be a type of their own; every word operation is the same on the three:
//! moves, neighbours, flood fill, the symmetries, and the two simplifying rules of the module
//! docs of [`super`].

use num_traits::PrimInt;
use std::fmt::Debug;
use std::hash::Hash;

/// A set of cells of a frame `W` cells wide (see the module docs): `u64`, `u128` or `usize`.
pub trait Cells: PrimInt + Hash + Default + Debug + Send + Sync + 'static {
    /// The columns of the frame (at most 8).
    const W: u32;
    /// The rows of the frame.
    const ROWS: u32;
    /// Column 0 of the frame.
    const COL0: Self;
    /// The black cells of the chessboard colouring (`r + c` even).
    const BLACK: Self;
    /// The canonical key of an aligned set (see [`canonical`]).
    fn canonical_aligned(self) -> Self;
    /// The cells of row 0, as a byte (bit `c` for column `c`).
    fn first_row(self) -> u8;
}

impl Cells for u64 {
    const W: u32 = 8;
    const ROWS: u32 = 8;
    const COL0: u64 = 0x0101_0101_0101_0101;
    const BLACK: u64 = 0xAA55_AA55_AA55_AA55;
    fn canonical_aligned(self) -> u64 {
        canonical_small(self)
    }
    fn first_row(self) -> u8 {
        self as u8
    }
}

impl Cells for u128 {
    const W: u32 = 8;
    const ROWS: u32 = 16;
    const COL0: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    const BLACK: u128 = 0xAA55_AA55_AA55_AA55_AA55_AA55_AA55_AA55;
    /// A set taller than eight rows is at most eight columns wide, so it is taller than wide
    /// already and only its box's four symmetries are taken; a set of at most eight rows
    /// takes the 8 × 8 frame's key.
    fn canonical_aligned(self) -> u128 {
        match u64::try_from(self) {
            Ok(small) => u128::from(canonical_small(small)),
            Err(_) => {
                let (h, w) = extent(self);
                let (dy, dx) = ((8 * (Self::ROWS - h)) as usize, (8 - w) as usize);
                let vflip = self.swap_bytes() >> dy;
                let turn = self.reverse_bits() >> (dy + dx);
                let hflip = turn.swap_bytes() >> dy;
                self.min(vflip).min(turn).min(hflip)
            }
        }
    }
    fn first_row(self) -> u8 {
        self as u8
    }
}

/// Column 0 of the narrow frame: bit `4r` for every row.
const NARROW_COL0: usize = usize::MAX / 0xF;

impl Cells for usize {
    const W: u32 = 4;
    const ROWS: u32 = usize::BITS / 4;
    const COL0: usize = NARROW_COL0;
    // Rows alternate 0101 and 1010 (bit 4r + c with r + c even).
    const BLACK: usize = usize::MAX / 0xFF * 0xA5;
    fn canonical_aligned(self) -> usize {
        canonical_narrow(self)
    }
    fn first_row(self) -> u8 {
        (self & 0xF) as u8
    }
}

/// The bits of a frame.
fn bits<C: Cells>() -> u32 {
    C::ROWS * C::W
}

/// The last column of the frame.
fn last_col<C: Cells>() -> C {
    C::COL0 << (C::W - 1) as usize
}

/// Each cell moved one column right (cells of the last column leave).
pub fn east<C: Cells>(x: C) -> C {
    (x << 1) & !C::COL0
}

/// Each cell moved one column left (cells of column 0 leave).
pub fn west<C: Cells>(x: C) -> C {
    (x >> 1) & !last_col::<C>()
}

/// Each cell moved one row down (cells of the last row leave).
pub fn south<C: Cells>(x: C) -> C {
    x << C::W as usize
}

/// Each cell moved one row up (cells of row 0 leave).
pub fn north<C: Cells>(x: C) -> C {
    x >> C::W as usize
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
    let west_pass = set & !last_col::<C>() & !cut;
    loop {
        let (mut s, mut n, mut p, mut q) = (from, from, set, set);
        let mut k = C::W as usize;
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
    let w = C::W as usize;
    // `a` with `b` and `c`, its left and top closed; `d` with `b` and `c`, its right and
    // bottom closed; `d` is `a + W + 1`.
    let a = x & !has_left & !has_up & has_right & has_down;
    let d = x & !has_right & !has_down & has_left & has_up;
    let first = a & (d >> (w + 1));
    // Mirrored: `b` with `a` and `d`, right and top closed; `c` (`b + W - 1`) with `a` and
    // `d`, left and bottom closed.
    let b = x & !has_right & !has_up & has_left & has_down;
    let c = x & !has_left & !has_down & has_right & has_up;
    let second = b & (c >> (w - 1));
    first | (first << w) | (second >> 1) | (second << (w - 1))
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

/// The occupied columns, as one byte (bit `c` for column `c`).
pub fn columns<C: Cells>(x: C) -> u8 {
    let mut c = x;
    let mut k = bits::<C>() as usize / 2;
    while k >= C::W as usize {
        c = c | (c >> k);
        k /= 2;
    }
    c.first_row()
}

/// The rows and columns of the box from the top-left corner to the last cell of `x`
/// (`x` aligned, not empty).
pub fn extent<C: Cells>(x: C) -> (u32, u32) {
    let h = (bits::<C>() - 1 - x.leading_zeros()) / C::W + 1;
    let w = 8 - columns(x).leading_zeros();
    (h, w)
}

/// `x` moved to the top-left corner.
pub fn align<C: Cells>(x: C) -> C {
    if x == C::zero() {
        return x;
    }
    let x = x >> (x.trailing_zeros() / C::W * C::W) as usize;
    x >> columns(x).trailing_zeros() as usize
}

/// The canonical key of a set of cells: the least of its images under the symmetries of
/// the square, each moved to the top-left corner, among those that fit the frame: the four
/// symmetries of its box, and their transposes when the transposed box fits (in the 8 × 8
/// frame a box is first turned to be at least as tall as wide, and transposes are taken for
/// a square box; a set of the tall frame of at most eight rows takes the 8 × 8 key, and one of
/// the narrow frame of at most four rows is keyed in its 4 × 4 corner alike).
pub fn canonical<C: Cells>(x: C) -> C {
    align(x).canonical_aligned()
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

/// The transpose of the 4 × 4 corner of the narrow frame (bits 0 to 15): two delta swaps.
fn transpose4(mut x: usize) -> usize {
    let t = (x ^ (x >> 3)) & 0x0A0A;
    x ^= t ^ (t << 3);
    let t = (x ^ (x >> 6)) & 0x00CC;
    x ^= t ^ (t << 6);
    x
}

/// Each row of the narrow frame mirrored (column `c` to `3 - c`).
fn mirror_rows4(x: usize) -> usize {
    let x = ((x >> 1) & (usize::MAX / 3)) | ((x & (usize::MAX / 3)) << 1);
    ((x >> 2) & (usize::MAX / 5)) | ((x & (usize::MAX / 5)) << 2)
}

/// [`canonical`] of an aligned set of the narrow frame: the four symmetries of its box, and
/// their transposes when it fits the 4 × 4 corner (turned first to be at least as tall as
/// wide).
fn canonical_narrow(mut x: usize) -> usize {
    if x == 0 {
        return 0;
    }
    let (mut h, mut w) = extent(x);
    if h < w {
        x = transpose4(x);
        std::mem::swap(&mut h, &mut w);
    }
    let turn = x.reverse_bits() >> (4 * (usize::ROWS - h) + (4 - w)) as usize;
    let hflip = mirror_rows4(x) >> (4 - w) as usize;
    let vflip = mirror_rows4(turn) >> (4 - w) as usize;
    let least = x.min(vflip).min(turn).min(hflip);
    if h != w {
        return least;
    }
    least
        .min(transpose4(x))
        .min(transpose4(vflip))
        .min(transpose4(turn))
        .min(transpose4(hflip))
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
    if x.reverse_bits() >> (C::W * (C::ROWS - h) + (C::W - w)) as usize != x {
        return false;
    }
    // Unless the box is even x even, cell (h / 2, w / 2) is the centre or one of its two.
    (h % 2 == 0 && w % 2 == 0) || x & (C::one() << (C::W * (h / 2) + w / 2) as usize) == C::zero()
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
