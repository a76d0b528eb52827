//! Cram on regions that fit a frame, for the position search: each region one `u64` (the
//! 8 × 8 frame), one `usize` (the narrow frame of 16 × 4, for boards such as 4 × 9 or 4 × 11)
//! or one `u128` (the tall frame of 16 × 8, for boards such as 5 × 9 or 7 × 9), boards with
//! a side of 9 or more turned so that their long side runs down.
//!
//! A set of cells is a word with bit `W r + c` for cell (`r`, `c`), `c < W` (`W` = 8, or 4
//! in the narrow frame); every operation below is the same few word operations on each
//! frame (generic over [`Cells`]). So the moves, the neighbours and the symmetries are word operations: a
//! vertical mirror is [`u64::swap_bytes`], the half turn is [`u64::reverse_bits`], the transpose is
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
//! Closed forms ([`SearchGame::known_value`]): a region that fits the box of an end table
//! given to the game ([`EndTable`], every set of cells of a box four wide, computed once
//! and kept on disk) takes its value from it; a path of `n` cells is Dawson's Kayles
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
//! **The narrow frame** (`CramGame<usize>`, 16 rows of 4 in a 64-bit word): a board four
//! cells wide and 9 to 16 long took the tall frame before, at two words a set and 32 bytes a
//! table slot; here it is one word and 16 bytes, with its dominoes across the board listed
//! first. Cram 4 × 9 0.80 s → 0.38 s, 4 × 11 31 s → 14.8 s (user time, release); against
//! igs in turn (`farm-bench`, medians, quiet machine): 4 × 9 0.48 s vs 0.51 s, 4 × 11 16.4 s
//! (200 MB) vs 29.6 s (8.2 GB). A region of
//! at most four rows is keyed in the frame's 4 × 4 corner with all eight symmetries (two delta
//! swaps transpose it), a taller one by the four of its box.
//!
//! **The tall frame** (`CramGame<u128>`): before it, a board with a side of 9 or more went
//! through the general region search of `super::grid` (Cram 4 × 9 12.6 s, 4 × 11 about
//! 330 s, 5 × 9 no answer in 600 s). In the tall frame a region taller than eight rows has
//! the four symmetries of its box (it is at most eight wide, so never turned); a region of
//! at most eight rows takes its key from the 8 × 8 frame's [`canonical`], so both frames
//! key a small region alike. A node costs about 1.5 times a node of the 8 × 8 frame (a
//! 32-byte table slot, two-word operations).
//!
//! Measured against the anchor in turn (value of the empty board, `grundy analyze "cram
//! RxC" --no-moves` against `igsolve cram R C`, release builds, user time on this two-core
//! machine with a build beside it; 2026-11-29): 5 × 7 0.69 s vs 1.42 s; 5 × 8 3.75 s vs
//! 6.28 s (105 MB vs 9.5 MB); 4 × 9 0.80 s vs 0.48 s in the tall frame (igs's search of this
//! board is smaller, its table ends with 22 600 values against our 146 000 entries: the
//! narrow frame above closes the gap per node, not in nodes); 4 × 11 31.0 s vs 31.9 s in the
//! tall frame (0.8 GB vs 8.4 GB); 5 × 9
//! 74 s vs 142 s (1.6 GB vs 8.4 GB).
//!
//! Complexity per option listed: `O(d)` word operations for the flood fill (`d` the
//! region's diameter, at most 64) and a constant for the key; the search above it is the
//! one of [`crate::search`].

mod cells;
mod end;

pub use end::{EndTable, EndTableError, MAX_END_ROWS};

pub use cells::{Cells, align, canonical, reduce, transpose};

use super::grid::{GridRule, Region, path_values};
use crate::search::{Options, SearchGame};
use cells::{cut_edges, east, extent, fill, lowest, mirrors, north, south, west};
use std::sync::Arc;

/// The side of the 8 × 8 frame: a region fits when its bounding box is at most 8 × 8.
pub const FRAME: usize = 8;

/// The value of Cram on regions of a frame, as a [`SearchGame`] whose keys are sets of cells
/// ([`Cells`], see the module docs): `CramGame<u64>` for regions of at most 8 × 8 cells,
/// `CramGame<usize>` for regions of at most 16 × 4 and `CramGame<u128>` for regions of at
/// most 16 × 8 (a board with one side of 9 to 16 cells, turned so that side runs down).
#[derive(Clone, Debug)]
pub struct CramGame<C = u64> {
    /// The value of a path of `n` cells (Dawson's Kayles), up to the frame's cells.
    path: Vec<u32>,
    /// `rings[W * (h - 1) + w - 1]`: the dominoes of an `h × w` box by their distance from
    /// its centre, the nearest first, each ring as two masks (horizontal dominoes by their
    /// left cell, vertical ones by their upper cell). Moves are listed in this order, and
    /// the search tries options of equal difficulty in it. (Measured: Cram 5 x 7 takes 2
    /// million nodes with the farthest first, 0.36 million with the nearest first, 1.0 to
    /// 1.2 million in the order of the cells.) In the narrow frame a box taller than wide
    /// has its dominoes across it first, then those along it, each from the centre out:
    /// Cram 4 x 11 14.8 s against 20.8 s, 4 x 9 about 15 % faster (in the 8-wide frames the
    /// same order costs: 5 x 7 1.06 s against 0.48 s, 5 x 8 4.0 s against 3.0 s).
    rings: Vec<Vec<(C, C)>>,
    /// The values of every small region, if given ([`CramGame::with_end_table`]).
    end: Option<Arc<EndTable>>,
}

impl<C: Cells> Default for CramGame<C> {
    fn default() -> Self {
        Self::new()
    }
}

/// The most sets of frame cells of two cells or more that are disjoint (in a frame of up
/// to 128 cells).
const MAX_PARTS: usize = 64;

impl<C: Cells> CramGame<C> {
    /// The game, with its table of path values.
    pub fn new() -> Self {
        let (rows, width) = (C::ROWS as i32, C::W as i32);
        let cells = C::W * C::ROWS;
        let mut rings = Vec::with_capacity(cells as usize);
        for h in 1..=rows {
            for w in 1..=width {
                // Moves are numbered `0..2 * cells`: horizontal dominoes by their left cell,
                // then vertical ones by their upper cell.
                let cell = |m: u32| {
                    let i = (m % cells) as i32;
                    (i / width, i % width)
                };
                // The dominoes inside the box.
                let inside = |m: u32| {
                    let (r, c) = cell(m);
                    if m < cells {
                        r < h && c + 1 < w
                    } else {
                        r + 1 < h && c < w
                    }
                };
                let mut moves: Vec<u32> = (0..2 * cells).filter(|&m| inside(m)).collect();
                // The distance of a domino's centre from the box's centre, doubled, squared.
                let far = |m: u32| {
                    let (r, c) = cell(m);
                    let (dr, dc) = if m < cells {
                        (2 * r + 1 - h, 2 * c + 2 - w)
                    } else {
                        (2 * r + 2 - h, 2 * c + 1 - w)
                    };
                    dr * dr + dc * dc
                };
                // In the narrow frame, a box taller than wide lists the dominoes across it
                // first (each set from the centre out), then those along it.
                let across_first = C::W == 4 && h > w;
                moves.sort_by_key(|&m| (across_first && m >= cells, far(m), m));
                let mut box_rings: Vec<(i32, C, C)> = Vec::new();
                for m in moves {
                    let d = far(m);
                    if box_rings.last().is_none_or(|r| r.0 != d) {
                        box_rings.push((d, C::zero(), C::zero()));
                    }
                    if let Some(ring) = box_rings.last_mut() {
                        let bit = C::one() << (m % cells) as usize;
                        if m < cells {
                            ring.1 = ring.1 | bit;
                        } else {
                            ring.2 = ring.2 | bit;
                        }
                    }
                }
                rings.push(box_rings.into_iter().map(|(_, a, b)| (a, b)).collect());
            }
        }
        CramGame {
            path: path_values(GridRule::Cram, cells as usize),
            rings,
            end: None,
        }
    }

    /// The game whose regions that fit `end`'s box take their values from it (never
    /// searched, never stored), or `None` for none.
    pub fn with_end_table(mut self, end: Option<Arc<EndTable>>) -> Self {
        self.end = end;
        self
    }

    /// The cells of a region (bit `r * w + c` of an `h × w` box, as in
    /// [`super::grid::Region`]) in the frame, turned a quarter if it is wider than the
    /// frame, or `None` when it does not fit.
    pub fn frame(bits: u128, h: usize, w: usize) -> Option<C> {
        let (rows, width) = (C::ROWS as usize, C::W as usize);
        if w == 0 || h == 0 {
            return Some(C::zero());
        }
        let turned = if w <= width && h <= rows {
            false
        } else if h <= width && w <= rows {
            true
        } else {
            return None;
        };
        let mut x = C::zero();
        for r in 0..h {
            for c in 0..w {
                if bits >> (r * w + c) & 1 == 1 {
                    let (fr, fc) = if turned { (c, r) } else { (r, c) };
                    x = x | (C::one() << (width * fr + fc));
                }
            }
        }
        Some(x)
    }

    /// The keys of board regions (as [`super::grid::GridGame::split`] gives them), if every
    /// region fits the frame.
    pub fn keys(&self, regions: &[Region]) -> Option<Vec<C>> {
        let mut keys = Vec::new();
        for r in regions {
            let x = Self::frame(r.bits, usize::from(r.h), usize::from(r.w))?;
            self.split(x, |k| keys.push(k));
        }
        Some(keys)
    }

    /// Simplifies the cells `cells` of the frame and calls `f` with the key of each of their
    /// components (the search cancels equal pairs).
    pub fn split(&self, cells: C, mut f: impl FnMut(C)) {
        let zero = C::zero();
        let x = reduce(cells);
        let cut = cut_edges(x);
        if cut == zero {
            // The usual case: the components of a simplified set are simplified.
            let mut rest = x;
            while rest != zero {
                let comp = fill(lowest(rest), rest, zero);
                rest = rest & !comp;
                f(canonical(comp));
            }
            return;
        }
        // Sets still to split: disjoint, of two cells or more, so at most `MAX_PARTS`.
        let mut stack = [zero; MAX_PARTS];
        let mut todo = 1;
        stack[0] = x;
        while todo > 0 {
            todo -= 1;
            let x = stack[todo];
            let cut = cut_edges(x);
            let mut rest = x;
            while rest != zero {
                let comp = fill(lowest(rest), rest, cut);
                rest = rest & !comp;
                if comp == x {
                    f(canonical(comp));
                } else {
                    // A part of a set that came apart at cut edges: simplified and split
                    // again, as its cells have fewer neighbours now.
                    let y = reduce(comp);
                    if y != zero && todo < MAX_PARTS {
                        stack[todo] = y;
                        todo += 1;
                    }
                }
            }
        }
    }
}

impl<C: Cells> SearchGame for CramGame<C> {
    type Key = C;

    /// The options of [`CramGame::visit_options`], all of them.
    fn options(&self, x: &C, out: &mut Options<C>) {
        self.visit_options(x, &mut |parts| {
            for &p in parts {
                out.push_part(p);
            }
            out.end_option();
            true
        });
    }

    fn size(&self, &x: &C) -> u32 {
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
    fn option_count(&self, &x: &C) -> Option<u32> {
        Some((x & west(x)).count_ones() + (x & north(x)).count_ones())
    }

    /// The options (a domino placed on two free cells, the rest split into regions), each
    /// made only when it is visited, ring by ring from the board's centre.
    fn visit_options(&self, &x: &C, visit: &mut dyn FnMut(&[C]) -> bool) {
        let zero = C::zero();
        if x == zero {
            return;
        }
        let horizontal = x & west(x);
        let vertical = x & north(x);
        let (h, w) = extent(x);
        // The parts of one option (each has two cells or more).
        let mut parts = [zero; MAX_PARTS];
        let mut one = |cells: C| {
            let mut n = 0;
            self.split(cells, |p| {
                if let Some(slot) = parts.get_mut(n) {
                    *slot = p;
                    n += 1;
                }
            });
            visit(&parts[..n])
        };
        let across = C::one() | (C::one() << 1);
        let down = C::one() | (C::one() << C::W as usize);
        for &(ring_h, ring_v) in &self.rings[(C::W * (h - 1) + w - 1) as usize] {
            let mut m = horizontal & ring_h;
            while m != zero {
                let i = m.trailing_zeros() as usize;
                m = m & (m - C::one());
                if !one(x & !(across << i)) {
                    return;
                }
            }
            let mut m = vertical & ring_v;
            while m != zero {
                let i = m.trailing_zeros() as usize;
                m = m & (m - C::one());
                if !one(x & !(down << i)) {
                    return;
                }
            }
        }
    }

    /// The longest play (each domino covers a black and a white cell), and the number of
    /// moves (a mex of that many values).
    fn value_bound(&self, &x: &C) -> Option<u32> {
        let moves = (x & west(x)).count_ones() + (x & north(x)).count_ones();
        Some(
            (x & C::BLACK)
                .count_ones()
                .min((x & !C::BLACK).count_ones())
                .min(moves),
        )
    }

    fn known_value(&self, &x: &C) -> Option<u32> {
        let cells = x.count_ones();
        if cells < 2 {
            return Some(0);
        }
        if let Some(v) = self.end.as_ref().and_then(|e| e.value(x)) {
            return Some(v);
        }
        let (l, r, u, d) = (x & east(x), x & west(x), x & south(x), x & north(x));
        let edges = r.count_ones() + d.count_ones();
        if edges + 1 != cells && edges != cells {
            return mirrors(x).then_some(0);
        }
        if (l & r & (u | d)) | (u & d & (l | r)) != C::zero() {
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
