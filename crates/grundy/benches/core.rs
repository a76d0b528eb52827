//! Figures for the foundation: nim-multiplication throughput and the generic engine's speed.
//!
//! `cargo bench -p grundy --bench core` prints:
//! - nim products per second for random 64-bit and 16-bit factors;
//! - the generic engine solving Kayles (written here against the `ImpartialGame` trait, so
//!   every position splits into heaps) up to heap 8000: components solved and options
//!   examined per second;
//! - the same with positions kept inline and options handed over already split
//!   (`ImpartialGame::split_options`);
//! - Wythoff's game, a two-dimensional game, for every position with x + y <= 600, both ways;
//! - Kayles and Wythoff again with a dense index (`ImpartialGame::dense_index`): the engine
//!   keeps their values in an array instead of its hash table (`kayles-dense`, and
//!   `wythoff-dense` indexed square by square, `wythoff-diagonals` by anti-diagonal).
//!
//! Figures of the previous step (user time, one core of a 2-core AMD EPYC at load about 8;
//! before = the engine with a `MexSet` per component and `Option<Nimber>` values, after = one
//! shared bit-set stack and a tight scan per frame):
//!
//! | run                        | before  | after   | options/s (user) | positions/s | peak    |
//! |----------------------------|---------|---------|------------------|-------------|---------|
//! | `kayles-split 8000`        | 0.78 s  | 0.65 s  | 49 million       | —           | < 12 MiB|
//! | `kayles 8000` (Vec rows)   | 3.5 s   | 3.5 s   | 9 million        | —           | < 12 MiB|
//! | `wythoff-split 600`        | 2.15 s  | 1.07 s  | 85 million       | 169,000     | < 12 MiB|
//! | `wythoff-split 1500`       |         | 70.6 s  | 20 million       | 16,000      | 53 MiB  |
//! | `wythoff-split 2000`       |         | 258 s   | 12.9 million     | 7,760       | 104 MiB |
//!
//! The dense index (issue 14, part 4), user time at load 4 to 7; "before" is the engine above
//! on the game without an index (same day, runs paired in turn, medians of 5, for 600 and
//! 8000; the table above for 1500 and 2000). Options of one component each (a queen's) are
//! also listed in one pass (`SplitOptions::single_part_options`) and scanned without following
//! their ranges, which speeds up the hashed runs too:
//!
//! | run                         | before  | after    | options/s (user) | positions/s | peak     |
//! |-----------------------------|---------|----------|------------------|-------------|----------|
//! | `kayles-split 8000` (hashed)| 0.653 s | 0.645 s  | 50 million       | —           | < 12 MiB |
//! | `kayles-dense 8000`         | 0.653 s | 0.205 s  | 156 million      | —           | < 12 MiB |
//! | `wythoff-split 600` (hashed)| 1.08 s  | 0.758 s  | 119 million      | 239,000     | < 12 MiB |
//! | `wythoff-dense 600`         | 1.04 s  | 0.254 s  | 356 million      | 712,000     | < 12 MiB |
//! | `wythoff-dense 1500`        | 70.6 s  | 4.83 s   | 292 million      | 233,000     | 18 MiB   |
//! | `wythoff-dense 2000`        | 258 s   | 12.9 s   | 259 million      | 155,000     | 18 MiB   |
//! | `wythoff-dense 3000`        |         | 38.4 s   | 293 million      | 117,000     | 66 MiB   |
//! | `wythoff-diagonals 3000`    |         | 50.4 s   | 223 million      | 89,000      | 34 MiB   |
//!
//! Square by square beats anti-diagonals as the table leaves the caches (at 1500 the two are
//! within 8 %, at 3000 the squares take 0.76 of the time): a queen's moves along its longer
//! side, and along the shorter one up to the diagonal, read neighbouring slots, where by
//! anti-diagonal every move is a stride of about x + y slots. The squares hold (N + 1)² slots
//! for the N(N + 1)/2 queens of x + y <= N, twice the anti-diagonals' memory, still 4 bytes a
//! slot against the hash table's 17 or more a queen. `kayles 8000` (Vec rows, no index) spends
//! its time in the game's own allocations and is unchanged.
//!
//! Wythoff to x + y = 8000 (`wythoff-dense 8000`: 32,012,001 queens, 213,405,338,000 options)
//! was run once, at nice 10 on the shared machine at load 6 to 8, and stopped unfinished after
//! 55 minutes of wall time in which it got 13 % of a core: 443 s of user time, peak 130 MiB.
//! Its array was then at 2^25 slots (128 MiB), which it fills at x + y = 4096 and outgrows at
//! 5793, so it had solved every queen to some x + y between 4096 and 5792: 13 % to 38 % of
//! the options (they grow as the cube of x + y), at 65 to 183 million options a second, down
//! from 293 million at 3000 as the array leaves the 32 MiB cache. Projection: at most 183
//! million a second for the rest gives at least 20 minutes of one core in all; the array then
//! takes 2^26 slots (256 MiB, with 128 MiB more while it moves), against some 1.7 GiB and
//! at least 4.5 hours for the hash table.
//!
//! Pass a heap size to change the Kayles runs (`cargo bench -p grundy --bench core -- 4000`),
//! or a name (`kayles`, `kayles-split`, `kayles-dense`, `wythoff`, `wythoff-split`,
//! `wythoff-dense`, `wythoff-diagonals`) and a size to run one figure alone, for
//! `/usr/bin/time -v` to report its peak memory.

use grundy::Nimber;
use grundy::game::{ImpartialGame, SplitOptions};
use grundy::solve::{Limits, Solver};
use smallvec::{SmallVec, smallvec};
use std::hint::black_box;
use std::time::Instant;

/// No limit on work or positions: a benchmark names its size itself (memory stays bounded
/// by the default 4 GiB a table).
const UNLIMITED: Limits = Limits {
    max_positions: usize::MAX,
    max_work: u64::MAX,
    ..Limits::DEFAULT
};

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn nim_products(mask: u64, label: &str) {
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    let pairs: Vec<(Nimber, Nimber)> = (0..4096)
        .map(|_| {
            (
                Nimber(xorshift(&mut s) & mask),
                Nimber(xorshift(&mut s) & mask),
            )
        })
        .collect();
    let rounds = 2_000;
    let start = Instant::now();
    let mut acc = Nimber::ZERO;
    for _ in 0..rounds {
        for &(a, b) in &pairs {
            acc ^= black_box(a) * black_box(b);
        }
    }
    black_box(acc);
    let secs = start.elapsed().as_secs_f64();
    let n = rounds as f64 * pairs.len() as f64;
    println!(
        "nim product, {label}: {:.1} million products/s ({n:.0} in {secs:.2} s)",
        n / secs / 1e6
    );
}

/// Kayles (octal 0.77): knock down one pin or two adjacent pins from a row, which may split
/// it in two. A position is a sorted list of rows; each row is a component. Written with the
/// two required methods only (whole options, then split), in vectors: every option and every
/// part is an allocation.
struct Kayles;

impl ImpartialGame for Kayles {
    type Position = Vec<u32>;
    fn options(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        if let [n] = p.as_slice() {
            for k in 1..=2u32.min(*n) {
                for a in 0..=(n - k) / 2 {
                    let b = n - k - a;
                    out.push([a, b].into_iter().filter(|&h| h > 0).collect());
                }
            }
        }
        out
    }
    fn components(&self, p: &Vec<u32>) -> Vec<Vec<u32>> {
        p.iter().map(|&h| vec![h]).collect()
    }
}

/// Rows of pins kept inline (no allocation for up to two rows, which is every component
/// and every option of one).
type Rows = SmallVec<[u32; 2]>;

/// Kayles again, with positions inline and the options handed over already split
/// ([`ImpartialGame::split_options`]): what a game written for speed looks like. With
/// `DENSE`, a row's length is its dense index ([`ImpartialGame::dense_index`]), so the
/// engine keeps the values in an array instead of its hash table.
struct FastKayles<const DENSE: bool>;

impl<const DENSE: bool> ImpartialGame for FastKayles<DENSE> {
    type Position = Rows;
    fn options(&self, p: &Rows) -> Vec<Rows> {
        let mut out = Vec::new();
        for (i, &n) in p.iter().enumerate() {
            for k in 1..=2u32.min(n) {
                for a in 0..=(n - k) / 2 {
                    let mut q: Rows = p
                        .iter()
                        .copied()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, h)| h)
                        .collect();
                    q.extend([a, n - k - a].into_iter().filter(|&h| h > 0));
                    q.sort_unstable();
                    out.push(q);
                }
            }
        }
        out
    }
    fn components(&self, p: &Rows) -> Vec<Rows> {
        p.iter().map(|&h| smallvec![h]).collect()
    }
    fn dense_index(&self, p: &Rows) -> Option<u64> {
        // One row (a component): its length. Sums of rows have none.
        match p.as_slice() {
            [n] if DENSE => Some(u64::from(*n)),
            _ => None,
        }
    }
    fn split_options(&self, p: &Rows, out: &mut SplitOptions<Rows>) {
        // Only called on components: one row of n pins.
        let n = p.first().copied().unwrap_or(0);
        for k in 1..=2u32.min(n) {
            for a in 0..=(n - k) / 2 {
                for h in [a, n - k - a] {
                    if h > 0 {
                        out.part(smallvec![h]);
                    }
                }
                out.end_option();
            }
        }
    }
}

/// Wythoff's game (a queen moving left, down or diagonally towards the corner): a
/// two-dimensional game, written with `options` only.
struct Wythoff;

impl ImpartialGame for Wythoff {
    type Position = (u32, u32);
    fn options(&self, &(x, y): &(u32, u32)) -> Vec<(u32, u32)> {
        let mut out: Vec<(u32, u32)> = (0..x).map(|a| (a, y)).collect();
        out.extend((0..y).map(|b| (x, b)));
        out.extend((1..=x.min(y)).map(|d| (x - d, y - d)));
        out
    }
}

/// No dense index: every value in the engine's hash table.
const HASHED: u8 = 0;
/// Indexed square by square: `m² + x` or `m² + m + 1 + y` with `m = max(x, y)`.
const SQUARES: u8 = 1;
/// Indexed by anti-diagonal: `s(s + 1) / 2 + x` with `s = x + y`.
const DIAGONALS: u8 = 2;

/// Wythoff's game with its options handed over directly, and a dense index laid out as
/// `LAYOUT` says ([`HASHED`], [`SQUARES`], [`DIAGONALS`]).
struct FastWythoff<const LAYOUT: u8>;

impl<const LAYOUT: u8> ImpartialGame for FastWythoff<LAYOUT> {
    type Position = (u32, u32);
    fn options(&self, p: &(u32, u32)) -> Vec<(u32, u32)> {
        Wythoff.options(p)
    }
    fn dense_index(&self, &(x, y): &(u32, u32)) -> Option<u64> {
        let (x, y) = (u64::from(x), u64::from(y));
        match LAYOUT {
            SQUARES => {
                let m = x.max(y);
                Some(if y == m { m * m + x } else { m * m + m + 1 + y })
            }
            DIAGONALS => {
                let s = x + y;
                Some(s * (s + 1) / 2 + x)
            }
            _ => None,
        }
    }
    fn split_options(&self, &(x, y): &(u32, u32), out: &mut SplitOptions<(u32, u32)>) {
        out.single_part_options((0..x).map(|a| (a, y)));
        out.single_part_options((0..y).map(|b| (x, b)));
        out.single_part_options((1..=x.min(y)).map(|d| (x - d, y - d)));
    }
}

/// Solves Kayles heaps 1..=max in order and prints the figures.
fn kayles<G: ImpartialGame>(game: G, max: u32, label: &str, heap: impl Fn(u32) -> G::Position) {
    let start = Instant::now();
    let mut solver = Solver::with_limits(game, UNLIMITED);
    for n in 1..=max {
        // Heaps in increasing order: each new heap's options are all solved already.
        black_box(solver.value(&heap(n)).unwrap());
    }
    let secs = start.elapsed().as_secs_f64();
    // A row of n pins has (n - 1) / 2 + 1 options taking one pin and (n - 2) / 2 + 1 taking two.
    let options: u64 = (1..=u64::from(max))
        .map(|n| (n - 1) / 2 + 1 + if n >= 2 { (n - 2) / 2 + 1 } else { 0 })
        .sum();
    // Kayles has period 12 from n = 71 (Guy and Smith 1956): a sanity check on the figures.
    if max > 83 {
        let r = 71 + (max - 71) % 12;
        assert_eq!(
            solver.value(&heap(max)),
            solver.value(&heap(r)),
            "Kayles periodicity"
        );
    }
    println!(
        "generic engine, {label}, heaps 1..={max}: {} components, {options} options in {secs:.3} s: \
         {:.1} million options/s, {:.0} components/s",
        solver.solved(),
        options as f64 / secs / 1e6,
        solver.solved() as f64 / secs
    );
}

/// Solves every Wythoff position with x + y <= max, by increasing x + y, and prints the
/// figures.
fn wythoff<G: ImpartialGame<Position = (u32, u32)>>(game: G, max: u32, label: &str) {
    let start = Instant::now();
    let mut solver = Solver::with_limits(game, UNLIMITED);
    let mut options = 0u64;
    for s in 0..=max {
        for x in 0..=s {
            let y = s - x;
            options += u64::from(x + y + x.min(y));
            black_box(solver.value(&(x, y)).unwrap());
        }
    }
    let secs = start.elapsed().as_secs_f64();
    // The P-positions are the pairs (floor(k phi), floor(k phi^2)) (Wythoff 1907).
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    for k in 0..(f64::from(max) / phi / phi / 2.0) as u32 {
        let a = (f64::from(k) * phi) as u32;
        assert!(
            solver.value(&(a, a + k)).unwrap().is_zero(),
            "Wythoff P-position"
        );
    }
    println!(
        "generic engine, {label}, x + y <= {max}: {} positions, {options} options in {secs:.3} s: \
         {:.1} million options/s, {:.0} positions/s",
        solver.solved(),
        options as f64 / secs / 1e6,
        solver.solved() as f64 / secs
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let size = |default: u32| {
        args.iter()
            .filter_map(|a| a.parse().ok())
            .next()
            .unwrap_or(default)
    };
    // `core kayles 8000` (or any one name) runs only that figure, for timing and memory of
    // one run on its own.
    let only = args
        .iter()
        .find(|a| a.parse::<u32>().is_err() && !a.starts_with('-'));
    let wants = |name: &str| only.is_none_or(|o| o == name);
    if only.is_none() {
        nim_products(u64::MAX, "64-bit factors");
        nim_products(0xffff, "16-bit factors");
    }
    if wants("kayles") {
        kayles(
            Kayles,
            size(8000),
            "Kayles (Vec rows, options + components)",
            |n| vec![n],
        );
    }
    if wants("kayles-split") {
        kayles(
            FastKayles::<false>,
            size(8000),
            "Kayles (inline rows, split_options)",
            |n| smallvec![n],
        );
    }
    if wants("kayles-dense") {
        kayles(
            FastKayles::<true>,
            size(8000),
            "Kayles (inline rows, split_options, dense index)",
            |n| smallvec![n],
        );
    }
    let corner = if only.is_some() { size(600) } else { 600 };
    if wants("wythoff") {
        wythoff(Wythoff, corner, "Wythoff (options)");
    }
    if wants("wythoff-split") {
        wythoff(FastWythoff::<HASHED>, corner, "Wythoff (split_options)");
    }
    if wants("wythoff-dense") {
        wythoff(
            FastWythoff::<SQUARES>,
            corner,
            "Wythoff (split_options, dense index by squares)",
        );
    }
    if wants("wythoff-diagonals") {
        wythoff(
            FastWythoff::<DIAGONALS>,
            corner,
            "Wythoff (split_options, dense index by anti-diagonals)",
        );
    }
}
