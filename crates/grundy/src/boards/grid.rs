//! Cram and Node Kayles on the cells of a board, for the position search: regions as bit
//! masks in canonical form.
//!
//! A region is a connected set of free cells. It is stored in its bounding box (moved to
//! the corner), row by row with stride `w`, in a `u128`: so a board of at most
//! [`MAX_CELLS`] = 128 cells. Its canonical form is the least of its images under the
//! symmetries of the box that keep it tall (`h ≥ w`): 4 for a rectangle (two mirrors and the
//! half turn), 8 for a square (with the transposes). A move's result is split into its
//! regions by flood fill with shifts (a handful of word operations per step).
//!
//! Cram on a board whose regions fit 8 × 8 cells goes through [`super::cram`] instead (one
//! `u64` a region, Cram's own simplifications); this search is the one for Node Kayles and
//! for larger Cram boards.
//!
//! Closed forms, answered without search: a region that is a path of `n` cells (straight or
//! bent) is Dawson's Kayles (0.07) for Cram and Dawson's chess (0.137) for Node Kayles; a
//! cycle of `n` cells has one kind of move, to the path of `n − 2` (Cram) or `n − 3` (Node
//! Kayles) cells; a full even × even rectangle is 0 by the central-symmetry strategy (the
//! second player answers every move by its image under the half turn, which is never
//! blocked by the move itself).

use crate::search::{Options, SearchGame};

/// The most cells of a board the search handles (a region is a `u128` bit mask).
pub const MAX_CELLS: usize = 128;

/// The game played on the free cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GridRule {
    /// Cram: place a domino on two free neighbouring cells.
    Cram,
    /// Node Kayles on the grid graph: take a free cell, and its free neighbours leave too.
    NodeKayles,
}

/// A region of free cells in canonical form: bit `r * w + c` is cell (`r`, `c`) of an
/// `h × w` box with `h ≥ w`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Region {
    /// The cells.
    pub bits: u128,
    /// The height of the box.
    pub h: u8,
    /// The width of the box.
    pub w: u8,
}

/// Cram or Node Kayles on board regions, as a [`SearchGame`].
#[derive(Clone, Debug)]
pub struct GridGame {
    rule: GridRule,
    /// `not_first[w]`: the cells of a stride-`w` layout not in column 0.
    not_first: Vec<u128>,
    /// `not_last[w]`: the cells not in column `w − 1`.
    not_last: Vec<u128>,
    /// The value of a path of `n` cells, `n ≤ 128`.
    path: Vec<u32>,
}

/// Values of the game on a path of `n ≤ max` cells, from the definition: Cram on a path
/// takes two neighbours (leaving paths of `i` and `n − i − 2`), Node Kayles takes a cell
/// and its neighbours (leaving `i − 1` and `n − i − 2`).
pub(crate) fn path_values(rule: GridRule, max: usize) -> Vec<u32> {
    let mut g = vec![0u32; max + 1];
    for n in 1..=max {
        let mut seen = [false; 256];
        for i in 0..n {
            let (left, right) = match rule {
                GridRule::Cram if i + 1 < n => (i, n - i - 2),
                GridRule::Cram => continue,
                GridRule::NodeKayles => (i.saturating_sub(1), n.saturating_sub(i + 2)),
            };
            seen[(g[left] ^ g[right]) as usize & 255] = true;
        }
        g[n] = seen.iter().position(|s| !s).unwrap_or(255) as u32;
    }
    g
}

fn mex1(v: u32) -> u32 {
    u32::from(v == 0)
}

impl GridGame {
    /// The game `rule` on board regions.
    pub fn new(rule: GridRule) -> Self {
        let mut not_first = vec![0u128; MAX_CELLS + 1];
        let mut not_last = vec![0u128; MAX_CELLS + 1];
        for w in 1..=MAX_CELLS {
            for i in 0..MAX_CELLS {
                if i % w != 0 {
                    not_first[w] |= 1 << i;
                }
                if i % w != w - 1 {
                    not_last[w] |= 1 << i;
                }
            }
        }
        GridGame {
            rule,
            not_first,
            not_last,
            path: path_values(rule, MAX_CELLS),
        }
    }

    /// The rule.
    pub fn rule(&self) -> GridRule {
        self.rule
    }

    /// The value of a path of `n ≤ 128` cells.
    pub fn path_value(&self, n: usize) -> Option<u32> {
        self.path.get(n).copied()
    }

    /// The cells of `set` that neighbour a cell of `from` (or are in it), in a stride-`w`
    /// layout.
    fn grow(&self, from: u128, set: u128, w: usize) -> u128 {
        let vertical =
            from.checked_shl(w as u32).unwrap_or(0) | from.checked_shr(w as u32).unwrap_or(0);
        (from | ((from << 1) & self.not_first[w]) | ((from >> 1) & self.not_last[w]) | vertical)
            & set
    }

    /// Splits the free cells `cells` of a stride-`w` layout into canonical regions.
    pub fn split(&self, cells: u128, w: usize, mut f: impl FnMut(Region)) {
        let mut rest = cells;
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            loop {
                let grown = self.grow(comp, rest, w);
                if grown == comp {
                    break;
                }
                comp = grown;
            }
            rest &= !comp;
            f(canonical(comp, w));
        }
    }

    fn push_result(&self, cells: u128, w: usize, out: &mut Options<Region>) {
        self.split(cells, w, |r| out.push_part(r));
        out.end_option();
    }
}

/// The canonical form of a connected set of cells of a stride-`w` layout.
pub fn canonical(comp: u128, w: usize) -> Region {
    let cells = comp.count_ones();
    let lo = comp.trailing_zeros() as usize;
    let hi = 127 - comp.leading_zeros() as usize;
    let (r0, r1) = (lo / w, hi / w);
    let row_mask = if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    };
    let mut span = 0u128;
    for r in r0..=r1 {
        span |= (comp >> (r * w)) & row_mask;
    }
    let c0 = span.trailing_zeros() as usize;
    let c1 = 127 - span.leading_zeros() as usize;
    let (h, bw) = (r1 - r0 + 1, c1 - c0 + 1);
    if h == 1 || bw == 1 {
        // A straight strip: connected, so full.
        return Region {
            bits: u128::MAX >> (128 - cells),
            h: cells as u8,
            w: 1,
        };
    }
    // Both sides at least 2 and h * bw ≤ 128: each side at most 64.
    let mut rows = [0u64; 64];
    for (r, row) in rows.iter_mut().enumerate().take(h) {
        *row = (((comp >> ((r0 + r) * w)) >> c0) & ((1u128 << bw) - 1)) as u64;
    }
    let (mut h, mut bw) = (h, bw);
    if h < bw {
        rows = transpose(&rows, h, bw);
        std::mem::swap(&mut h, &mut bw);
    }
    let mut best = least_image(&rows, h, bw);
    if h == bw {
        best = best.min(least_image(&transpose(&rows, h, bw), bw, h));
    }
    Region {
        bits: best,
        h: h as u8,
        w: bw as u8,
    }
}

fn transpose(rows: &[u64; 64], h: usize, w: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    for (r, &row) in rows.iter().enumerate().take(h) {
        for (c, tc) in t.iter_mut().enumerate().take(w) {
            *tc |= ((row >> c) & 1) << r;
        }
    }
    t
}

/// The least packing of the four images of `rows` (`h × w`) under the mirrors.
fn least_image(rows: &[u64; 64], h: usize, w: usize) -> u128 {
    let (mut a, mut b, mut c, mut d) = (0u128, 0u128, 0u128, 0u128);
    for (i, &row) in rows.iter().enumerate().take(h) {
        let m = row.reverse_bits() >> (64 - w);
        let (row, m) = (row as u128, m as u128);
        let (up, down) = (i * w, (h - 1 - i) * w);
        a |= row << up;
        b |= row << down;
        c |= m << up;
        d |= m << down;
    }
    a.min(b).min(c).min(d)
}

impl SearchGame for GridGame {
    type Key = Region;

    fn options(&self, region: &Region, out: &mut Options<Region>) {
        let (b, w) = (region.bits, region.w as usize);
        match self.rule {
            GridRule::Cram => {
                let mut horizontal = b & (b >> 1) & self.not_last[w];
                while horizontal != 0 {
                    let i = horizontal.trailing_zeros();
                    horizontal &= horizontal - 1;
                    self.push_result(b & !(3u128 << i), w, out);
                }
                let mut vertical = b & b.checked_shr(w as u32).unwrap_or(0);
                while vertical != 0 {
                    let i = vertical.trailing_zeros();
                    vertical &= vertical - 1;
                    self.push_result(b & !((1u128 << i) | (1u128 << (i as usize + w))), w, out);
                }
            }
            GridRule::NodeKayles => {
                let mut cells = b;
                while cells != 0 {
                    let cell = cells & cells.wrapping_neg();
                    cells &= cells - 1;
                    let gone = self.grow(cell, b, w);
                    self.push_result(b & !gone, w, out);
                }
            }
        }
    }

    fn size(&self, region: &Region) -> u32 {
        region.bits.count_ones()
    }

    /// An option costs about 200 ns or more (a region of up to 128 cells split by flood
    /// fill, each part put in canonical form and looked up): Node Kayles on the 3 x 14 grid
    /// lists 160 000 options in 0.04 s of CPU. Four units each, as for
    /// [`super::cram::CramGame`].
    fn work_per_option(&self) -> u64 {
        4
    }

    /// The longest play: a domino covers two cells, a Node Kayles move takes at least one.
    fn value_bound(&self, region: &Region) -> Option<u32> {
        let cells = region.bits.count_ones();
        Some(match self.rule {
            GridRule::Cram => cells / 2,
            GridRule::NodeKayles => cells,
        })
    }

    fn known_value(&self, region: &Region) -> Option<u32> {
        let (b, w) = (region.bits, region.w as usize);
        let cells = b.count_ones();
        if w == 1 {
            return self.path.get(cells as usize).copied();
        }
        let h = region.h as u32;
        if cells == h * w as u32 && h % 2 == 0 && w % 2 == 0 {
            return Some(0);
        }
        let right = b & (b >> 1) & self.not_last[w];
        let down = b & (b >> w);
        let edges = right.count_ones() + down.count_ones();
        if edges + 1 != cells && edges != cells {
            return None;
        }
        let l = b & (b << 1) & self.not_first[w];
        let up = b & (b << w);
        let (r, d) = (right, down);
        let branching = (l & r & (up | d)) | (up & d & (l | r));
        if branching != 0 {
            return None;
        }
        let n = cells as usize;
        if edges + 1 == cells {
            return self.path.get(n).copied();
        }
        // A cycle: every move leaves one path.
        let after = match self.rule {
            GridRule::Cram => n - 2,
            GridRule::NodeKayles => n - 3,
        };
        self.path.get(after).map(|&v| mex1(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> (u128, usize) {
        let w = rows[0].len();
        let mut bits = 0u128;
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch == '.' {
                    bits |= 1 << (r * w + c);
                }
            }
        }
        (bits, w)
    }

    fn regions(game: &GridGame, rows: &[&str]) -> Vec<Region> {
        let (bits, w) = board(rows);
        let mut out = Vec::new();
        game.split(bits, w, |r| out.push(r));
        out
    }

    #[test]
    fn symmetric_images_share_one_key() {
        let g = GridGame::new(GridRule::Cram);
        let a = regions(&g, &["..#", ".##", "..."]);
        let b = regions(&g, &["...", "##.", "#.."]);
        let c = regions(&g, &["...", ".#.", ".##"]);
        assert_eq!(a.len(), 1);
        assert_eq!(a, b);
        assert_eq!(a, c);
        // Moved elsewhere on a bigger board: the same key.
        let d = regions(&g, &["#####", "#..##", "#.###", "#...#"]);
        assert_eq!(a, d);
    }

    #[test]
    fn splits_into_regions() {
        let g = GridGame::new(GridRule::Cram);
        let r = regions(&g, &["..#..", "###..", "....."]);
        assert_eq!(r.len(), 2);
        let strip = regions(&g, &["#", ".", ".", "."]);
        assert_eq!(
            strip,
            [Region {
                bits: 0b111,
                h: 3,
                w: 1
            }]
        );
    }

    #[test]
    fn path_values_are_the_octal_games() {
        // Dawson's Kayles 0.07 and Dawson's chess 0.137 (OEIS A002187), from n = 0.
        let cram = path_values(GridRule::Cram, 12);
        assert_eq!(cram, [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2]);
        let nk = path_values(GridRule::NodeKayles, 12);
        assert_eq!(nk, [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2]);
    }
}
