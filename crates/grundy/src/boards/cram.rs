//! Cram on regions that fit an 8 × 8 frame, for the position search: each region one `u64`.
//!
//! A set of cells is a `u64` with bit `8r + c` for cell (`r`, `c`), `r, c < 8`: a row is a
//! byte. So the moves, the neighbours and the symmetries are word operations: a vertical
//! mirror is [`u64::swap_bytes`], the half turn is [`u64::reverse_bits`], the transpose is
//! three delta swaps (Knuth, *The Art of Computer Programming* 4A, 7.1.3; Warren, *Hacker's
//! Delight*, 7-3). A component's key is the least of its eight images under the symmetries of
//! the square, each moved to the top-left corner, so equal regions of any board (and of
//! boards of different sizes) share one table entry, and a table slot is 24 bytes.
//!
//! Before a move's result is split into components, it is simplified by two rules that keep
//! the value (both proved by matching the options of the two positions one to one, and
//! checked in the tests against the definition on every set of cells of small boxes):
//!
//! - **Stars** (Lemoine and Viennot; Beling's igs): a cell with two or more *tufts*
//!   (neighbours that have no other neighbour) keeps one. Covering the centre with either
//!   tuft leaves the same position once the other, now isolated, is dropped; covering it
//!   with any other cell leaves every tuft isolated.
//! - **Bridges**: a cell that is not a tuft and whose every neighbour is the centre of a
//!   tuft is dropped. A domino on it and on a centre `s` leaves `s`'s tuft isolated: the
//!   same position as the domino on `s` and its tuft, which the smaller board has too. (An
//!   isolated cell is the case with no neighbour: it can never be covered.)
//!
//! Both rules run to a fixed point (each pass removes a cell), then the cells split into
//! connected components by flood fill, and two equal components of one option cancel
//! (`G + G = 0`).
//!
//! Closed forms ([`SearchGame::known_value`]): a path of `n` cells is Dawson's Kayles
//! (0.07) on `n`, a cycle of `n` cells is worth `mex{g(path of n − 2)}`, a region that is
//! its own image under the half turn with its centre not free is 0 (the second player
//! answers each domino with its image: every full even × even rectangle, and the board an
//! even × odd rectangle leaves after its central domino). The value is at most the length of the longest
//! play, and a domino covers one black and one white cell of the chessboard colouring:
//! the bound [`SearchGame::value_bound`] is the smaller colour count, or the number of moves
//! if smaller.
//!
//! Moves are listed from the centre of the region out; the search tries options of equal
//! difficulty in that order, and it matters: Cram 5 × 7 takes 0.36 million nodes so, 2
//! million with the farthest first.
//!
//! Measured (`cargo bench -p grundy --bench boards`, CPU time on a shared two-core machine
//! under a load of about 8): Cram 5 × 7 0.63 s (0.23 million nodes, 43 MB peak), Cram
//! 5 × 8 3.7 to 4.0 s (1.1 million nodes, 0.85 million table entries, 166 MB peak); the
//! region search of `super::grid` took 9.3 s and 68 s (1.5 and 9.0 million nodes, 0.6 and
//! 1.2 GB). With the half-turn rule and 16-byte table slots (release `grundy analyze`,
//! user time under a load of about 6, before → after): the value of 5 × 8 (`cram 5x8 +
//! nim 1`) 4.5 s, 170 MB → 4.2 s, 121 MB; `cram 5x8` with its 59 winning moves (searched
//! from the value's table) 12.7 s, 350 MB → 8.8 s, 236 MB; `cram 5x7` 1.7 s → 1.1 s.
//! With options made one at a time ([`SearchGame::visit_options`]: a question stops
//! listing at the first option the table refutes it with) and one cache line per table
//! bucket (release, user time, load 5 to 7): `cram 5x8 + nim 1` 3.5 s, 121 MB → 2.3 s,
//! 103 MB; `cram 5x8` 9.5 s, 236 MB → 6.0 s, 203 MB; `cram 5x7` 0.95 s → 0.5 s.
//! Cram 6 × 7 (`analyze "cram 6x7 + nim 5" --max-work 10000000000000 --max-positions
//! 200000000`) is 5 in 770 s of user time under a load of 7 (the run had 27 % of a CPU),
//! 3.0 GB peak: the table at its 2^27 slots (2 GiB) is replacing, and the peak is the
//! doubling, old and new arrays at once (14 min 46 s and 3.5 GB before, on a quiet machine).
//!
//! The anchor, Beling's igs (`igsolve`, release build on this machine, user time under a
//! load of 2 to 4): Cram 5 × 7 0.78 s (5 MB), 5 × 8 3.56 s (9 MB: its table keeps only
//! values, 184 000 of them, against our 805 000 values and excluded values), Chomp 10 × 12
//! 1.88 s; its Cram 6 × 7 (2 GiB table) had refuted the values 1 to 3 after 6.4 min of CPU
//! and was stopped. A profile of 5 × 8 here: half of the time is the table lookups (cache
//! and TLB misses in a 64 MiB table), a fifth the flood fill and canonical forms. Reading a
//! batch of options' buckets before filing them (so the misses overlap) moved the time
//! from the lookups to the reads and saved nothing measurable, and was left out.
//!
//! Complexity per option listed: `O(d)` word operations for the flood fill (`d` the
//! region's diameter, at most 64) and a constant for the key; the search above it is the
//! one of [`crate::search`].

use super::grid::{GridRule, Region, path_values};
use crate::search::{Options, SearchGame};

/// The side of the frame: a region fits when its bounding box is at most 8 × 8.
pub const FRAME: usize = 8;

/// Column 0 of the frame.
const COL0: u64 = 0x0101_0101_0101_0101;
/// Column 7 of the frame.
const COL7: u64 = COL0 << 7;
/// The black cells of the chessboard colouring (`r + c` even).
const BLACK: u64 = 0xAA55_AA55_AA55_AA55;

/// Each cell moved one column right (cells of column 7 leave).
fn east(x: u64) -> u64 {
    (x << 1) & !COL0
}

/// Each cell moved one column left (cells of column 0 leave).
fn west(x: u64) -> u64 {
    (x >> 1) & !COL7
}

/// Each cell moved one row down (cells of row 7 leave).
fn south(x: u64) -> u64 {
    x << 8
}

/// Each cell moved one row up (cells of row 0 leave).
fn north(x: u64) -> u64 {
    x >> 8
}

/// The cells of `set` joined to a cell of `from` (`from` in `set`), where a cell of `cut`
/// is not joined to its right neighbour: flood fill, each round spreading along whole rows
/// and columns at once (Kogge–Stone "occluded fills", three shifts per direction), so the
/// rounds are the turns of the longest shortest path, not its length.
fn fill(mut from: u64, set: u64, cut: u64) -> u64 {
    // Cells a spread may enter, per direction.
    let east_pass = set & !COL0 & !(cut << 1);
    let west_pass = set & !COL7 & !cut;
    loop {
        let (mut s, mut p) = (from, set);
        s |= p & (s << 8);
        p &= p << 8;
        s |= p & (s << 16);
        p &= p << 16;
        s |= p & (s << 32);
        let (mut n, mut p) = (from, set);
        n |= p & (n >> 8);
        p &= p >> 8;
        n |= p & (n >> 16);
        p &= p >> 16;
        n |= p & (n >> 32);
        let (mut e, mut p) = (from, east_pass);
        e |= p & (e << 1);
        p &= p << 1;
        e |= p & (e << 2);
        p &= p << 2;
        e |= p & (e << 4);
        let (mut w, mut p) = (from, west_pass);
        w |= p & (w >> 1);
        p &= p >> 1;
        w |= p & (w >> 2);
        p &= p >> 2;
        w |= p & (w >> 4);
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
fn cut_edges(x: u64) -> u64 {
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

/// The transpose: cell (`r`, `c`) to (`c`, `r`) (three delta swaps).
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
fn columns(x: u64) -> u64 {
    let c = x | (x >> 32);
    let c = c | (c >> 16);
    (c | (c >> 8)) & 0xff
}

/// `x` moved to the top-left corner.
pub fn align(x: u64) -> u64 {
    if x == 0 {
        return 0;
    }
    let x = x >> (x.trailing_zeros() & !7);
    x >> columns(x).trailing_zeros()
}

/// The canonical key of a set of cells: the least of its images under the symmetries of
/// the square, each moved to the top-left corner, among those at least as tall as wide
/// (four for a box that is not square: transposes are only taken for a square box).
pub fn canonical(x: u64) -> u64 {
    let mut x = align(x);
    if x == 0 {
        return 0;
    }
    // Rows 0..h and columns 0..w are used.
    let mut h = (63 - x.leading_zeros()) / 8 + 1;
    let mut w = 8 - (columns(x) as u8).leading_zeros();
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
fn mirrors(x: u64) -> bool {
    if x == 0 {
        return true;
    }
    let h = (63 - x.leading_zeros()) / 8 + 1;
    let w = 8 - (columns(x) as u8).leading_zeros();
    if x.reverse_bits() >> (8 * (8 - h) + (8 - w)) != x {
        return false;
    }
    // Unless the box is even x even, cell (h / 2, w / 2) is the centre or one of its two.
    (h % 2 == 0 && w % 2 == 0) || x & (1 << (8 * (h / 2) + w / 2)) == 0
}

/// The cells of `x` with exactly one neighbour in `x` (tufts), and the cells next to a tuft
/// (centres).
fn tufts_and_centres(x: u64) -> (u64, u64) {
    let (l, r, u, d) = (x & east(x), x & west(x), x & south(x), x & north(x));
    let any = l | r | u | d;
    let two = (l & r) | (u & d) | ((l | r) & (u | d));
    let tufts = any & !two;
    let centres = x & (east(tufts) | west(tufts) | south(tufts) | north(tufts));
    (tufts, centres)
}

/// A move of every cell one step in a direction.
type Shift = fn(u64) -> u64;

/// One pass of the two rules of the module docs: extra tufts of a centre go, and bridges
/// (cells, not tufts or centres, whose neighbours are all centres; isolated cells among them).
fn reduce_once(x: u64) -> (u64, bool) {
    let (tufts, centres) = tufts_and_centres(x);
    // Tufts by the side of their centre: (the tufts, their centres, the tufts of cells).
    let groups: [(u64, Shift, Shift); 4] = [
        // A neighbour below: the centre is the cell below (`south`).
        (tufts & north(x), south, north),
        (tufts & south(x), north, south),
        (tufts & west(x), east, west),
        (tufts & east(x), west, east),
    ];
    let mut kept = 0u64;
    let mut out = x;
    for (these, centre_of, tuft_of) in groups {
        out &= !(these & tuft_of(kept));
        kept |= centre_of(these);
    }
    let others = x & !(tufts | centres);
    let bridges = others & !(east(others) | west(others) | south(others) | north(others));
    (out & !bridges, tufts != 0)
}

/// `x` simplified by the rules of the module docs until none applies; the value is kept.
pub fn reduce(mut x: u64) -> u64 {
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

/// The value of Cram on regions of at most 8 × 8 cells, as a [`SearchGame`] with `u64` keys
/// (see the module docs).
#[derive(Clone, Debug)]
pub struct CramGame {
    /// The value of a path of `n ≤ 64` cells (Dawson's Kayles).
    path: Vec<u32>,
    /// `rings[8 * (h - 1) + w - 1]`: the dominoes of an `h × w` box by their distance from
    /// its centre, the nearest first, each ring as two masks (horizontal dominoes by their
    /// left cell, vertical ones by their upper cell). Moves are listed in this order, and
    /// the search tries options of equal difficulty in it. (Measured: Cram 5 x 7 takes 2
    /// million nodes with the farthest first, 0.36 million with the nearest first, 1.0 to
    /// 1.2 million in the order of the cells.)
    rings: Vec<Vec<(u64, u64)>>,
}

impl Default for CramGame {
    fn default() -> Self {
        Self::new()
    }
}

/// The most sets of frame cells of two cells or more that are disjoint.
const MAX_PARTS: usize = 32;

impl CramGame {
    /// The game, with its table of path values.
    pub fn new() -> Self {
        let mut rings = Vec::with_capacity(64);
        for h in 1..=FRAME as i32 {
            for w in 1..=FRAME as i32 {
                // The dominoes inside the box.
                let inside = |m: u8| {
                    let (r, c) = (i32::from(m % 64) / 8, i32::from(m % 64) % 8);
                    if m < 64 {
                        r < h && c + 1 < w
                    } else {
                        r + 1 < h && c < w
                    }
                };
                let mut moves: Vec<u8> = (0..128u8).filter(|&m| inside(m)).collect();
                // The distance of a domino's centre from the box's centre, doubled, squared.
                let far = |m: u8| {
                    let (r, c) = (i32::from(m % 64) / 8, i32::from(m % 64) % 8);
                    let (dr, dc) = if m < 64 {
                        (2 * r + 1 - h, 2 * c + 2 - w)
                    } else {
                        (2 * r + 2 - h, 2 * c + 1 - w)
                    };
                    dr * dr + dc * dc
                };
                moves.sort_by_key(|&m| (far(m), m));
                let mut box_rings: Vec<(i32, u64, u64)> = Vec::new();
                for m in moves {
                    let d = far(m);
                    if box_rings.last().is_none_or(|r| r.0 != d) {
                        box_rings.push((d, 0, 0));
                    }
                    if let Some(ring) = box_rings.last_mut() {
                        if m < 64 {
                            ring.1 |= 1 << m;
                        } else {
                            ring.2 |= 1 << (m - 64);
                        }
                    }
                }
                rings.push(box_rings.into_iter().map(|(_, a, b)| (a, b)).collect());
            }
        }
        CramGame {
            path: path_values(GridRule::Cram, 64),
            rings,
        }
    }

    /// The cells of a region of at most 8 × 8 cells (bit `r * w + c` of an `h × w` box,
    /// as in [`super::grid::Region`]) in the frame, or `None` when it is larger.
    pub fn frame(bits: u128, h: usize, w: usize) -> Option<u64> {
        if h > FRAME || w > FRAME || w == 0 {
            return None;
        }
        let row_mask = (1u128 << w) - 1;
        let mut x = 0u64;
        for r in 0..h {
            x |= (((bits >> (r * w)) & row_mask) as u64) << (8 * r);
        }
        Some(x)
    }

    /// The keys of board regions (as [`super::grid::GridGame::split`] gives them), if every
    /// region fits the frame.
    pub fn keys(&self, regions: &[Region]) -> Option<Vec<u64>> {
        let mut keys = Vec::new();
        for r in regions {
            let x = Self::frame(r.bits, usize::from(r.h), usize::from(r.w))?;
            self.split(x, |k| keys.push(k));
        }
        Some(keys)
    }

    /// Simplifies the cells `cells` of the frame and calls `f` with the key of each of their
    /// components (the search cancels equal pairs).
    pub fn split(&self, cells: u64, mut f: impl FnMut(u64)) {
        let x = reduce(cells);
        let cut = cut_edges(x);
        if cut == 0 {
            // The usual case: the components of a simplified set are simplified.
            let mut rest = x;
            while rest != 0 {
                let comp = fill(rest & rest.wrapping_neg(), rest, 0);
                rest &= !comp;
                f(canonical(comp));
            }
            return;
        }
        // Sets still to split: disjoint, of two cells or more, so at most 32.
        let mut stack = [0u64; MAX_PARTS];
        let mut todo = 1;
        stack[0] = x;
        while todo > 0 {
            todo -= 1;
            let x = stack[todo];
            let cut = cut_edges(x);
            let mut rest = x;
            while rest != 0 {
                let comp = fill(rest & rest.wrapping_neg(), rest, cut);
                rest &= !comp;
                if comp == x {
                    f(canonical(comp));
                } else {
                    // A part of a set that came apart at cut edges: simplified and split
                    // again, as its cells have fewer neighbours now.
                    let y = reduce(comp);
                    if y != 0 && todo < MAX_PARTS {
                        stack[todo] = y;
                        todo += 1;
                    }
                }
            }
        }
    }
}

impl SearchGame for CramGame {
    type Key = u64;

    /// The options of [`CramGame::visit_options`], all of them.
    fn options(&self, x: &u64, out: &mut Options<u64>) {
        self.visit_options(x, &mut |parts| {
            for &p in parts {
                out.push_part(p);
            }
            out.end_option();
            true
        });
    }

    fn size(&self, &x: &u64) -> u32 {
        x.count_ones()
    }

    /// An option costs about 200 ns (simplified, split, each part put in canonical form and
    /// looked up, mostly a cache miss): Cram 5 x 8's value lists 9 million options in 2 s
    /// of CPU. Four units each keeps a unit near 50 ns, so the default work limit stops a
    /// search too large for it after about 15 s of CPU, not a minute.
    fn work_per_option(&self) -> u64 {
        4
    }

    /// One option per domino.
    fn option_count(&self, &x: &u64) -> Option<u32> {
        Some((x & west(x)).count_ones() + (x & north(x)).count_ones())
    }

    /// The options (a domino placed on two free cells, the rest split into regions), each
    /// made only when it is visited, ring by ring from the board's edge.
    fn visit_options(&self, &x: &u64, visit: &mut dyn FnMut(&[u64]) -> bool) {
        if x == 0 {
            return;
        }
        let horizontal = x & west(x);
        let vertical = x & north(x);
        let h = (63 - x.leading_zeros()) as usize / 8 + 1;
        let w = 8 - (columns(x) as u8).leading_zeros() as usize;
        // The parts of one option: at most 32 (each has two cells or more).
        let mut parts = [0u64; MAX_PARTS];
        let mut one = |cells: u64| {
            let mut n = 0;
            self.split(cells, |p| {
                if let Some(slot) = parts.get_mut(n) {
                    *slot = p;
                    n += 1;
                }
            });
            visit(&parts[..n])
        };
        for &(ring_h, ring_v) in &self.rings[8 * (h - 1) + w - 1] {
            let mut m = horizontal & ring_h;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                if !one(x & !(3u64 << i)) {
                    return;
                }
            }
            let mut m = vertical & ring_v;
            while m != 0 {
                let i = m.trailing_zeros();
                m &= m - 1;
                if !one(x & !(0x101u64 << i)) {
                    return;
                }
            }
        }
    }

    /// The longest play (each domino covers a black and a white cell), and the number of
    /// moves (a mex of that many values).
    fn value_bound(&self, &x: &u64) -> Option<u32> {
        let moves = (x & west(x)).count_ones() + (x & north(x)).count_ones();
        Some(
            (x & BLACK)
                .count_ones()
                .min((x & !BLACK).count_ones())
                .min(moves),
        )
    }

    fn known_value(&self, &x: &u64) -> Option<u32> {
        let cells = x.count_ones();
        if cells < 2 {
            return Some(0);
        }
        let (l, r, u, d) = (x & east(x), x & west(x), x & south(x), x & north(x));
        let edges = r.count_ones() + d.count_ones();
        if edges + 1 != cells && edges != cells {
            return mirrors(x).then_some(0);
        }
        if (l & r & (u | d)) | (u & d & (l | r)) != 0 {
            return None;
        }
        let n = cells as usize;
        if edges + 1 == cells {
            return self.path.get(n).copied();
        }
        // A cycle: every move leaves one path of n - 2 cells.
        self.path.get(n - 2).map(|&v| u32::from(v == 0))
    }
}
