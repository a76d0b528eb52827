//! The record-class nim-sequence engine: the sparse-space method for octal and hexadecimal
//! codes.
//!
//! The value of a heap is the mex of its options. A two-heap split of `m = n - j` tokens has
//! `m / 2` ways, so computing `g(0..N)` from the definition costs `O(N^2)`. The *sparse-space
//! phenomenon* (Berlekamp, Conway and Guy, *Winning Ways* ch. 4, "Sparse space spells
//! speed"; A. Flammenkamp, *Sprague-Grundy values of octal games*,
//! <http://wwwhomes.uni-bielefeld.de/achim/octal.html>) makes it nearly linear:
//!
//! - A **mask** splits values into two classes by the parity of `popcount(v & mask)`; the
//!   class of a nim-sum is the nim-sum of the classes. For most games one class, the *rare*
//!   one (even parity, containing 0), holds very few of the values — the mask is chosen to make
//!   the rare positions as few as possible (module `mask`, by a Walsh–Hadamard transform of the
//!   value histogram) and is re-chosen as values grow.
//! - A *common* option value of a split comes from one rare and one common heap. So the
//!   common values among the options of `n` are found by pairing each of the `R` rare
//!   positions with its partner: `O(R)` per heap. The smallest common value not among them is
//!   the candidate `c`.
//! - `g(n)` is `c` unless some rare value below `c` is missing from the options. Rare values
//!   come from two common heaps; they are found by scanning the splits `(a, m - a)` from
//!   `a = 1` until every rare value below `c` has been seen — which, in a game with sparse
//!   space, happens after a few steps. Only when a rare value is really missing does the scan
//!   run to the end, and then `g(n)` is that (rare) value, a new rare position.
//!
//! Total cost about `O(N·R + N·s)` for `s` the average scan length, against `O(N^2)`.
//!
//! **Layout and parallelism.** Values are `u16` (the engine refuses a value past 65535).
//! Heaps are computed in blocks `[N, N + B)` (`256 <= B <= 4096`, about a 64th of the largest
//! rare position, at most `N / 2`; with values past 128 also no longer than the rare
//! position a sixteenth into the rare list, so that few rare positions are near). For heap `n = N + i` and a split of `m = n − j`, a rare
//! position `p > m − N` pairs with a partner `m − p` below `N`, already known: those pairs
//! (nearly all, for small blocks) are marked for the whole block first, in parallel over
//! heaps (rayon), into one bitset row per heap (module `block`). The few rare positions
//! `p <= m − N` and those found inside the block, the candidate and the scan are then done
//! heap by heap. Marks are gathered in machine words while values stay below 128 (a
//! branch-free shift-and-or per pair, no memory round trip), in a byte table above. From
//! 129 to 1024 the far rare partners are *streamed*: for each rare position `p` the partners
//! `g(m − p)` of 64 consecutive heaps are consecutive values, read in order, each nim-sum
//! stored into its heap's byte table (about half the instructions of a per-heap gather).
//! The scan tests chunks of 16 pairs at once: against a byte table (or, below 128, a word
//! of marks) while many values are wanted, then lane by lane against the few still wanted
//! (module `wanted`: the compiler makes vector compares of it), which is where a
//! coupon-collecting scan spends its time. Scratch tables (64 KiB) are kept from block to
//! block: zeroing them for every block cost a tenth of the instructions of 0.167.
//!
//! *Two cores at once.* The far marks of the *next* block (rare positions whose partners
//! lie below the current block's start) are computed on a second core while the current
//! block is finished heap by heap, with a private copy of the values they read (the last
//! `largest rare position + 2B` values), so the heap-by-heap phase overlaps them. The
//! second core is a thread of the engine's own that lives as long as the engine (module
//! `helper`): a job is handed over through an atomic state word, the waiting side spinning
//! for a few microseconds before it parks, instead of a `rayon::join` per block (some five
//! futex or `sched_yield` calls a block, and the wake-up of a sleeping pool thread: all the
//! system time of 0.167 and 0.354). A block never waits long for its far marks: if they
//! are not ready within 20 µs (on a loaded machine the helper may have no core), the block
//! marks them itself and the late result is dropped; when a quarter of the jobs of a round
//! of 64 come late, the helper is left idle for the next 1024 blocks. With one processor
//! (`RAYON_NUM_THREADS=1`, or a machine or container of one CPU) no helper is started and
//! every block marks its own far partners. When the block starts, the partners between the far job's values and the block
//! (the block before, `B` heaps) are known: they are *streamed* for the whole block at once
//! (below), so heap by heap only the partners inside the block itself are gathered (0.167,
//! blocks of 256: some 25 rare positions a heap instead of 70).
//! While values stay below 128 (one or two words of marks), the rare partners of the far
//! and middle phases are streamed too, into a byte per value and heap, and the bytes packed
//! into words eight at a time by one multiplication. Games with few, early rare positions (0.167: 59, all below 1303; 0.354: 131, all
//! below 3227) have most of their rare-partner work moved to that core this way.
//! *The first pairs of the scan, there too* (issue 14, part 3). With values below 128 the
//! scan for rare values runs heap by heap, and for 0.167 it was the larger half of the
//! work (152 split pairs a heap against 118 rare partners; 60% of the profile in the
//! heap-by-heap phase, the helper's core mostly idle). The helper's job now also marks,
//! for each heap of the next block and each split, the first `far::FAR_PAIRS` (24 at
//! first) pairs `(a, m − a)` whose larger part lies below the job's known values (`a > m −
//! known`): any value marked is a value of an option, so no value changes, and the heap's
//! own scan from `a = 1` then finds most wanted values marked already and stops at once.
//! More pairs make the helper late (its marks are then made again, and a quarter late
//! pauses it): 0.167 to `2^24`, wall time, medians of pairs in turn with the machine
//! otherwise idle: 24 pairs 3.04 s, 16 pairs 3.67 s, 40 pairs 3.35 s, 96 pairs 4.31 s,
//! none (before) 4.83 s; against Beling's `ogsolve -m rc` (built with `target-cpu=native`)
//! **3.12 s against 9.63 s wall, 0.32x** (user time 5.18 s against 9.61 s: both cores).
//! *How many pairs, adapted* (issue 14). The best count depends on the game (fixed counts,
//! wall time to `2^24`: 0.167 best at 24, 0.015 at 48 to 96, 0.336 at 96; at 192 all three
//! came late and were paused), so it adapts (`far::Second::record`): it grows while the
//! helper's job ends well before the block asks for it, and shrinks when the block waits;
//! a block waits up to a quarter of the last job's time (not 20 µs) before marking its far
//! partners itself, and a late job counts once. The helper gathers a heap's marks in a
//! register word (`pairs_word`, four accumulators) instead of a store per pair (a third of
//! 0.336's profile). Against the engine before, pairs run in turn, medians of 5, wall:
//! 0.015 to `2^24` 2.94 s against 5.13 (0.57x), 0.336 4.54 against 6.72 (0.68x), 0.167
//! 1.74 against 2.46 (0.72x), `0.354 --prove` 3.07 against 4.09 (0.76x); values identical.
//! *Values past 128* (Grundy's game) run one of two ways, whichever measures faster
//! (`far::WideChoice`: runs of 16,384 heaps timed each way, the slower way tried again now
//! and then). (1) Over the thread pool, from a pool worker (the blocks up to each progress
//! report run inside one `rayon::scope`; split from the caller's thread, each block slept
//! and woke it and the pool: 0.247 to `2^24`, 150 rare positions, blocks of 256, 2.6 s of
//! system time against 6.7 s of user; then 5.15 s wall against 6.74). There the parallel
//! phase also runs the scan of every split `(a, m − a)` whose parts are both known
//! (`a > m − N`), from the candidate of the far marks, until every rare value below it is
//! found; the heap-by-heap phase then only scans the splits with a part inside the block,
//! and skips the range already scanned unless the near marks raised the candidate.
//! (2) Up to 1024 (`far::PIPELINED_SIZES`), pipelined as below 128: the helper streams the
//! next block's far rare partners into byte tables and marks the first pairs of its scans
//! (a byte a value, packed once a heap; the count adapts as below 128), and the block scans
//! the rest heap by heap; a block waits for the helper up to the whole of its last job
//! (past 128 a block left alone also scans alone). Pipelined, 0.247 to `2^24` takes 0.80x
//! the wall time of the pool way and 0.245 0.79x, but 0.166 1.03x and 0.36 1.52x (long far
//! scans, done faster by the pool's vector filter): hence the measuring. Against the engine
//! before, pairs run in turn, wall: 0.247 0.82x, 0.245 0.87x, 0.257 0.86x, 0.36, 0.361 and
//! 0.166 1.00x, Grundy's game 1.02x. The values are the same in every arrangement (tests
//! run each game with blocks of 4 heaps and the pipeline always on, against the
//! definition).
//!
//! **When there is no sparse space** (more than an eighth of the positions rare under every
//! mask: games whose values grow, or early on), the engine computes each value in full from
//! the definition with a bitset, `O(n)` per heap, and keeps no rare list, so memory stays at
//! the two bytes per value. Three-heap splits (hexadecimal codes) have no sparse-space
//! shortcut here and are enumerated directly, `O(n^2)` per heap; their values grow, and
//! where the growth is an arithmetic period proven by `super::arithmetic`, the values
//! past the proof are copied instead (`super::periodic`).
//!
//! **Constrained splits** (`!`, `?`, `=` on a digit that splits into two heaps;
//! [`SparseSequence::from_take_break`]). Grundy's game, `4!.0`, splits a heap into two
//! *unequal* heaps. The method carries over unchanged but for the one pair `(m/2, m/2)`: the
//! rare-partner pass skips the rare position `m/2` pairing with itself, the scan stops at
//! `(m − 1)/2`, and the equal split's value 0 is not marked. A digit with `=` leaves only
//! the equal split, whose value is 0: one mark, no scan. Grundy's game has sparse space under
//! Flammenkamp's mask `...11110` (1274 rare positions below `2^17`, none of them later up to
//! `2^22` in our runs), but the scan for its rare values is long: about 3000 split pairs per
//! heap at `n ≈ 2^17` (flat from `2^14` on), against some 1300 rare-partner steps. The scan
//! is a coupon collection: after the last rare heap every rare value below the candidate
//! (some 30) must be met among the common–common pairs, and the last one met takes some
//! 3000 pairs on average whatever the order of the pairs (tried: from the start, from the
//! middle; keeping each value's last witness pair and trying it shifted hits 70% of the
//! wanted values at once but rarely the last one). So Grundy's game costs about 4500 pair
//! steps per heap (10^6 heaps: 1.26·10^9 rare-partner and 3.2·10^9 scan steps): with the
//! streamed rare partners and lane-wise scan about 3.1 µs of CPU per heap here (user time
//! of `--to 1000000` on the shared machine; 4 before the scratch tables were kept, 7.4
//! before streaming), both cores busy but for the heap-by-heap phase (some 7% of the
//! profile). The far scan then marks its first pairs (half the last block's average far
//! scan, at most 768) without a test, where nearly every chunk finds a wanted value and the
//! wanted list would be rebuilt after each; past that, chunks with no wanted value are
//! skipped by a tight vector loop (`wanted::first_hit`): 2.3 µs of CPU a heap to `2^22`
//! (user 9.8 s against 12.2 s before, load 3 to 4); `2^28` heaps some 10 CPU-minutes,
//! about 5 minutes on two idle cores.
//!
//! *Byte copies* (module `shadow`): the far scan's skip loop reads the low bytes of the
//! values, the second parts of the pairs from a reversed copy, so that a chunk of 16 pairs
//! is two loads, a xor and a compare per wanted value with no shuffle (SSE2 has no byte
//! shuffle): a filter, exact on the 16-bit values of any chunk it flags. Below 256 the far
//! rare partners are streamed, and the early marks made, from the bytes too (both parts
//! forwards, no index mask). Grundy's game, user time against the engine before, pairs run
//! in turn at load 5 to 7: the filter alone 1.96 s against 2.24 s to `10^6`; all of it
//! 1.71 s against 2.29 s to `10^6`, 6.98 s against 9.58 s to `2^22` (1.66 µs a heap; to
//! `48.4·10^6`, values past 256, some 2.4: `2^28` some 10 CPU-minutes), for two more bytes a value. Profile with the
//! filter (`perf`, to `10^6`): streamed rare partners 33%, the far scan's early marks 25%,
//! the rest of the scan some 25%. *Tried and dropped*: verifying
//! the far rare partners instead of marking them (mark those of the first 384 to 768 rare
//! positions, compare the others 16 heaps at a time with each heap's first 8 or 16 free
//! common values, mark in full where all are reached): values identical, but 3% more CPU
//! than marking all (a third of the heaps needed the full marks with 384 and 8, 7% with
//! 384 and 16, almost none with 768 and 16) —
//! a streamed mark is a byte store at about one per cycle, already near what the compares
//! cost once the frontiers are built.
//!
//! *Marks from words, byte paths past 255* (issue 14). The streamed rare partners read
//! eight byte copies (or four values) as one word, nim-summed with the rare value at once,
//! each mark's index shifted out of it; the early marks nim-sum eight pairs a word the same
//! way (their best length moved from 768 to 1152 pairs). Grundy's game has a single value
//! past 255 below `2^25` (`g(7,250,049) = 256`, a rare position), which had switched both
//! to the 16-bit values for the rest of the run (1.55 µs a heap to `2^24` against 1.48 to
//! `2^22`); the byte copies now list the heaps with values past 255, and a range with none
//! is read from the bytes. Whole-process user time against the engine before, pairs run in
//! turn (load 2 to 3, medians): to `2^22` 4.76 s against 6.19 (0.81), to `2^24`
//! 21.6 s against 28.3 (0.76; 1.29 µs a heap, 15.5 s wall against 18.2). The work per
//! heap does not grow: to `2^25`, 1273 rare-partner and 3121 scan steps a heap, as to
//! `2^20`; `2^28` is still some 6 CPU-minutes. *Measured and not pursued* (on the values to `2^24`): reusing
//! witnesses of the period-3 structure — `g(n) != g(n - 3)` for 70% of heaps past `2^16`
//! (70.3% in `[2^16, 2^17)`, 70.4% in `[2^23, 2^24)`), the structure of the first thousand
//! heaps is gone; guessing the candidate from part of the rare partners and verifying it
//! with vector compares over heaps — with 640 rare positions evenly spread the first free
//! common value is the candidate for 37% of heaps (one of the first two for 64%), with the
//! first 640 for 11%: the mex needs nearly all of them; a value-targeted search for the
//! values the first 768 pairs leave (the heaps `a` of the value `x` whose partner value
//! `x ^ v` is most frequent) — some 180 scalar reads a value, 1490 a heap, against some
//! 2400 pairs of the vector loop; reading the scan's whole chunks from the bytes where they
//! are exact: 6% more user time to `2^24` (dropped).
//!
//! *Wide heaps* (module `wide`, issue 14). From heap 47,132,748 on Grundy's game has many
//! values of 256 and more; a split value from 256 on needs such a part, which the scan met
//! only at `a = m - h` for the latest such heap `h` (to `5·10^7`: 200·10^9 scan steps
//! against some 156·10^9 at the flat rate). Once the candidate passes 256, every pair with a
//! wide part is marked directly, like a rare partner, and the scan looks below 256 only: to
//! `5·10^7`, one run each, scan steps 200.2·10^9 → 157.9·10^9 (2.7·10^6 wide marks), user
//! time 106.3 s → 61.9 s, values identical; to `2^26` 336.4·10^9 → 212.5·10^9 scan steps
//! (3,166 a heap, the flat rate; 19.5·10^6 wide marks), user time 230.1 s → 96.8 s. The
//! marks cost `O(W)` a heap for `W` wide heaps (5,357 below `2^26`), which grows with `n`.
//!
//! *Where the time goes, and wide vectors* (issue 14, measured and not kept). `perf` on
//! Grundy's game to `2^24`: the streamed rare partners (`FarPhase::fill`) 35%, the early
//! marks (`mark_early`) 18%, the scan's skip loops (`wanted::first_hit_bytes`) 13%, its
//! table strikes 10%, the heap-by-heap phase 8%. The two largest are byte scatter stores (a
//! mark a store, at most two a cycle), which no vector width changes. The build targets
//! baseline x86-64 and denies `unsafe`; the `pulp` crate's safe runtime dispatch compiled
//! the skip loops for AVX-512 (steps of 64 pairs, one 64-byte compare per wanted value):
//! 0.96 to 1.0 of the user time to `2^24` (pairs in turn), 0.97 to `2^26`, nothing on
//! 0.167 or 0.354 (which scan nothing); the whole far phase inside the dispatch: 1.006 (its
//! scatter loops compile to the same scalar code, and `pack_bytes`'s multiply to the slow
//! `vpmullq`). Not worth a dependency: what would pay is less marking, not wider marking.
//!
//! *Spread early marks and probes* (module `spread`, issue 14). The first pairs of a range
//! are depleted of the values a heap wants last; the same 1,152 early pairs taken as 18 runs
//! of 64 spread over the range, then runs of 64 probed with a byte filter, then the range
//! read in order as before: Grundy's game to `2^22` 3,152 → 1,770 scan steps a heap, user
//! time 0.79, to `2^24` 0.78 (pairs in turn). Adaptive: a block with probes is compared
//! with the last one without, so codes whose first pairs serve better (0.776, 0.64) pay
//! only rare trials (0.99, 0.98).
//!
//! **What still runs on the plain engine** ([`super::plain`]): constraints on splits into
//! *three* heaps (`0.8!`: which triples are allowed depends on the parts, and three-heap
//! splits have no sparse-space shortcut here anyway), codes whose first digit removes nothing
//! and leaves one heap, subtraction games with large sets (no octal code: `O(|S|)` per heap
//! is already linear), all-but games, Lasker's Nim, `half` and even-if-not-all (values that
//! grow with `n`: no sparse space; most have closed forms, [`super::sequence`]).
//! Games whose values grow with no sparse space in the values alone (`0.004`, `0.005`,
//! `0.006`: Flammenkamp's "sparse space in the domain", where the class of a position
//! depends on the parity of `n` as well) are computed in full, `O(n)` per heap.
//!
//! ```
//! use grundy::control::Control;
//! use grundy::heap::code::Code;
//! use grundy::heap::sparse::SparseSequence;
//! let kayles: Code = "0.77".parse().unwrap();
//! let mut seq = SparseSequence::new(&kayles).unwrap();
//! assert!(seq.extend_to(20, &mut Control::none()).unwrap());
//! assert_eq!(seq.values()[..12], [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

mod block;
mod far;
mod finish;
mod mask;
mod moves;
mod shadow;
mod spread;
#[cfg(test)]
mod tests;
mod wanted;
mod wide;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::control::Control;
use crate::heap::code::Code;
use crate::heap::rules::TakeBreak;

use block::Word;
use far::{FarJob, Marks, Second};
use finish::{finish_wide, finish_word, first_free_common, first_zero};
use mask::{best_mask, common_words, is_common};
use moves::{Moves, mark_all_splits, mark_simple_options, set_bit};
use shadow::Shadow;
use wanted::Wanted;

/// Why the engine cannot do a computation.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SparseError {
    /// The code is outside what the engine computes.
    #[error(
        "the sparse-space engine cannot compute `{}`: {reason}",
        crate::expr::shorten(.code)
    )]
    Unsupported {
        /// The code.
        code: String,
        /// Why.
        reason: String,
    },
    /// A heap size past what the engine stores (positions are kept in 32 bits).
    #[error("heap size {n} is past the largest the sequence engine computes ({limit})")]
    HeapTooLarge {
        /// The heap size asked for.
        n: u64,
        /// The largest allowed.
        limit: u64,
    },
    /// A value that does not fit the 16-bit storage.
    #[error("g({n}) is larger than 65535, the largest value the sequence engine stores")]
    ValueTooLarge {
        /// The heap whose value overflowed.
        n: u64,
    },
    /// Memory for the values could not be reserved.
    #[error("computing to heap {n} needs about {bytes} bytes of memory, which could not be had")]
    OutOfMemory {
        /// The heap size asked for.
        n: u64,
        /// The bytes needed.
        bytes: u64,
    },
    /// A checkpointed prefix that cannot be a nim-sequence.
    #[error("the saved values are not a nim-sequence prefix: {0}")]
    BadPrefix(String),
}

/// What the engine knows about its sequence so far.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseStats {
    /// How many values are computed (`g(0..computed)`).
    pub computed: u64,
    /// The largest value so far.
    pub max_value: u16,
    /// The mask that splits rare from common values, or `None` while the engine works without
    /// sparse space (every value in full).
    pub mask: Option<u16>,
    /// The distinct rare values that occur (under `mask`).
    pub rare_values: Vec<u16>,
    /// How many heaps `n >= 1` have a rare value.
    pub rare_positions: u64,
    /// The last (at most [`LAST_RARE`]) heaps with a rare value, ascending, with their values:
    /// how far out the rare positions go (Grundy's game: 13 past `2^17`, the last at
    /// 48,399,022).
    pub last_rare: Vec<(u64, u16)>,
    /// `histogram[v]` = how many heaps `1 <= n < computed` have value `v` (the published
    /// histograms' convention: `g(0)` is left out).
    pub histogram: Vec<u64>,
    /// Rare-partner nim-sums evaluated (the main work).
    pub rare_xor_steps: u64,
    /// Split pairs scanned looking for rare values below the candidate.
    pub scan_steps: u64,
    /// Values computed in full, without sparse space.
    pub dense_values: u64,
    /// How many times the mask was chosen (and the rare list rebuilt).
    pub mask_changes: u64,
    /// Blocks whose far rare partners were marked on another core while the block before
    /// them was computed.
    pub pipelined_blocks: u64,
}

/// How many of the last rare positions [`SparseStats::last_rare`] lists.
pub const LAST_RARE: usize = 16;

/// The largest heap size the engine computes (positions are stored in 32 bits).
pub const MAX_HEAP: u64 = u32::MAX as u64 - 1;

/// Rows of the per-block bitset buffer are kept under this many bytes in all.
const ROW_BUFFER_BYTES: usize = 1 << 20;
/// The most heaps in one block.
const MAX_BLOCK: usize = 4096;
/// The far phase of the next block copies at most this many values to run beside the current
/// block.
const MAX_WINDOW: usize = 1 << 22;
/// With values past 128, blocks are no longer than the rare position this far into the
/// list (one in `NEAR_SHARE` of them).
const NEAR_SHARE: usize = 16;
/// Progress is reported at most every this many values.
const REPORT_EVERY: usize = 1 << 14;
/// How long a block waits for the far marks the helper prepares for it before marking them
/// itself.
const PATIENCE: std::time::Duration = std::time::Duration::from_micros(20);

/// When sparse space is used: from which heap, and up to which share of rare positions.
#[derive(Debug, Clone, Copy)]
struct Tuning {
    /// Below this many values, every value is computed in full.
    sparse_from: usize,
    /// Sparse space is used while `rare positions * max_rare_inverse <= computed`.
    max_rare_inverse: usize,
    /// Blocks are at most this many times shorter than the largest rare position (and at
    /// least `min_block` long), so that most rare positions are far from the next block.
    block_per_rare: usize,
    /// The fewest heaps in a block (unless it reaches the target or half the heaps known).
    min_block: usize,
    /// The far phase of the next block runs beside the current one from this many
    /// rare-partner nim-sums on.
    pipeline_from: usize,
    /// ... as long as it copies at most this many values per nim-sum.
    copy_per_step: usize,
    /// Whether the far phase gets a thread of its own even with one processor (tests).
    force_helper: bool,
    /// How long a block waits for the far marks the helper prepares for it.
    patience: std::time::Duration,
    /// The most pairs of a far scan range marked before the scan (values past 128).
    max_early: usize,
    /// Split pairs with both parts far behind the next block marked on
    /// the helper thread, per heap and split (module `far`): this many if set, else as many
    /// as keep the helper's job about as long as the block's (`far::Second::record`).
    fixed_far_pairs: Option<usize>,
    /// When the far scan probes spread pairs first (values past 128, module `spread`).
    spread: spread::Spread,
}

const DEFAULT_TUNING: Tuning = Tuning {
    sparse_from: 64,
    max_rare_inverse: 8,
    block_per_rare: 64,
    // Through the thread pool (some 5 futex calls a block), 0.167 to 2^22 (2 splits, 59
    // rare positions below 1303) in CPU seconds, user + system, on the shared machine: 3.5
    // with blocks of 64, 2.3 with 128, 1.9 with 256, 1.8 with 512; 0.354 to 8·10^6: 8.0,
    // 7.1 (256), 6.3 (512). With the helper thread (no system calls while both sides are
    // busy), wall time against 256 at load 6: 0.354 to 4·10^6 0.93 with 64, 0.98 with 128,
    // 1.08 with 512; 0.167 to 2^22 1.11 with 64, 1.01 with 128. Longer blocks leave more
    // rare positions near (heap by heap), shorter ones hand over more often.
    min_block: 256,
    pipeline_from: 1 << 11,
    copy_per_step: 1,
    force_helper: false,
    patience: PATIENCE,
    max_early: block::MAX_EARLY,
    fixed_far_pairs: None,
    spread: spread::Spread::Adaptive,
};

/// A nim-sequence of an octal or hexadecimal code, computed by the sparse-space method.
#[derive(Debug, Clone)]
pub struct SparseSequence {
    moves: Moves,
    tuning: Tuning,
    values: Vec<u16>,
    /// Histogram of `g(1..len)`; its length a power of two above the largest value.
    hist: Vec<u64>,
    max_value: u16,
    /// Whether the current blocks use sparse space (with `mask` and the rare list).
    sparse: bool,
    mask: u16,
    /// Rare positions `n >= 1` under `mask`, ascending, and their values.
    rare_pos: Vec<u32>,
    rare_val: Vec<u16>,
    /// The mask is re-chosen once `len` reaches this, or the value range grows past
    /// `checked_size`.
    next_check: usize,
    checked_size: usize,
    /// Spare buffers for the marks of a block.
    spare: Marks,
    /// The far rare marks of the next block, computed during the last one.
    prepared: Option<Marks>,
    /// The thread that computes them.
    second: Second,
    /// Values from 128 to [`far::PIPELINED_SIZES`]: which way their far phases run, and the
    /// way of the current run of heaps.
    wide_choice: far::WideChoice,
    wide_pipelined: bool,
    /// The buffers of the last far job, for the next.
    spare_job: Option<FarJob>,
    /// Scratch of the heap-by-heap phase (values past 128): a byte per value, all zero.
    seen: Vec<u8>,
    /// Scratch of the heap-by-heap scan, empty.
    wanted: Option<Wanted>,
    /// The pairs of each far scan range marked before the scan (values past 128).
    early: usize,
    /// Byte copies of the values for the far scan's filter (values past 128; empty before).
    shadow: Shadow,
    /// Whether the far scan probes spread pairs first, and the offsets of a block's probes
    /// (module `spread`).
    adapt: spread::Adapt,
    fractions: Vec<u32>,
    rare_xor_steps: u64,
    scan_steps: u64,
    dense_values: u64,
    mask_changes: u64,
    pipelined_blocks: u64,
}

impl SparseSequence {
    /// The engine for `code`, with `g(0) = 0` computed. Refuses a digit before the point that
    /// allows anything but splits.
    pub fn new(code: &Code) -> Result<Self, SparseError> {
        Self::from_prefix(code, vec![0])
    }

    /// Resumes from already-computed values `g(0..values.len())` (from a checkpoint),
    /// rebuilding the histogram; the mask and rare list are chosen again from it.
    pub fn from_prefix(code: &Code, values: Vec<u16>) -> Result<Self, SparseError> {
        Self::with_tuning(Moves::new(code)?, values, DEFAULT_TUNING)
    }

    /// As [`from_prefix`](Self::from_prefix), for a code whose two-heap splits may carry
    /// constraints (`4!.0`, Grundy's game: the two heaps must differ; `=`: they must be
    /// equal). Refuses constraints on splits into three heaps
    /// ([`SparseError::Unsupported`]).
    pub fn from_take_break(tb: &TakeBreak, values: Vec<u16>) -> Result<Self, SparseError> {
        Self::with_tuning(Moves::of(tb)?, values, DEFAULT_TUNING)
    }

    fn with_tuning(
        moves: Moves,
        mut values: Vec<u16>,
        tuning: Tuning,
    ) -> Result<Self, SparseError> {
        match values.first() {
            None => values.push(0),
            Some(0) => {}
            Some(&v) => return Err(SparseError::BadPrefix(format!("g(0) is 0, not {v}"))),
        }
        if values.len() as u64 > MAX_HEAP + 1 {
            return Err(SparseError::HeapTooLarge {
                n: values.len() as u64 - 1,
                limit: MAX_HEAP,
            });
        }
        let max_value = values.iter().copied().max().unwrap_or(0);
        let mut hist = vec![0u64; (max_value as usize + 1).next_power_of_two()];
        for &v in &values[1..] {
            hist[v as usize] += 1;
        }
        Ok(SparseSequence {
            moves,
            tuning,
            values,
            hist,
            max_value,
            sparse: false,
            mask: 1,
            rare_pos: Vec::new(),
            rare_val: Vec::new(),
            next_check: 0,
            checked_size: 0,
            spare: Marks::default(),
            prepared: None,
            second: Second::default(),
            wide_choice: far::WideChoice::default(),
            wide_pipelined: false,
            spare_job: None,
            seen: Vec::new(),
            wanted: None,
            early: 0,
            shadow: Shadow::default(),
            adapt: spread::Adapt::default(),
            fractions: Vec::new(),
            rare_xor_steps: 0,
            scan_steps: 0,
            dense_values: 0,
            mask_changes: 0,
            pipelined_blocks: 0,
        })
    }

    /// Computes values up to and including `g(n)`. Reports progress (`values computed`,
    /// `n + 1`) and checks for cancellation through `control` between blocks of at most
    /// 4096 heaps; returns `Ok(false)` if cancelled — [`values`](Self::values) is then a
    /// valid shorter prefix — and `Ok(true)` when done.
    pub fn extend_to(&mut self, n: u64, control: &mut Control) -> Result<bool, SparseError> {
        if n > MAX_HEAP {
            return Err(SparseError::HeapTooLarge { n, limit: MAX_HEAP });
        }
        let target = n as usize + 1;
        if target <= self.values.len() {
            return Ok(true);
        }
        // Room for the values asked for, and at least an eighth more, so that a caller
        // extending in small steps does not copy the values each time.
        let additional = (target - self.values.len()).max(self.values.len() / 8);
        self.values
            .try_reserve_exact(additional)
            .map_err(|_| SparseError::OutOfMemory {
                n,
                bytes: Self::memory_for(&self.moves, n),
            })?;
        let mut reported = self.values.len();
        while self.values.len() < target {
            if control.is_cancelled() {
                return Ok(false);
            }
            self.plan();
            let wide = (128..far::PIPELINED_SIZES).contains(&usize::from(self.max_value));
            if self.sparse && wide && self.second.ready(self.tuning.force_helper) {
                // Values from 128 on: pipelined or over the pool, whichever measures faster
                // (`far::WideChoice`); the tests' tuning that forces the helper pipelines.
                let pipelined = self.tuning.force_helper || self.wide_choice.next();
                self.wide_pipelined = pipelined;
                let (start, started) = (self.values.len(), std::time::Instant::now());
                let stop = (start + REPORT_EVERY).min(target);
                let cancel = control.cancel_flag();
                if pipelined {
                    self.sparse_blocks(stop, target, cancel)?;
                } else {
                    rayon::scope(|_| self.sparse_blocks(stop, target, cancel))?;
                }
                let heaps = self.values.len() - start;
                if heaps >= REPORT_EVERY / 2 {
                    let per_heap = started.elapsed().as_secs_f64() / heaps as f64;
                    self.wide_choice.record(pipelined, per_heap);
                }
            } else if self.sparse
                && (usize::from(self.max_value) >= 128 || self.second.helper.is_none())
            {
                // Far phases split over the thread pool (values past 128, or no helper
                // thread): the sparse blocks up to the next report run on a worker of the
                // pool, so that each block's far phase splits from inside it. Split from
                // outside, every block's call slept and woke this thread and the pool (a
                // futex and yield storm: 0.247 to `2^24` spent 2.6 s of system time against
                // 6.7 s of user time). Where the helper thread takes the far phases, the
                // pool's idle worker would only compete with it for the second core.
                let stop = (self.values.len() + REPORT_EVERY).min(target);
                let cancel = control.cancel_flag();
                rayon::scope(|_| self.sparse_blocks(stop, target, cancel))?;
            } else if self.sparse {
                self.sparse_block(target)?;
            } else {
                self.dense_block(target)?;
            }
            if self.values.len() >= reported + REPORT_EVERY || self.values.len() == target {
                reported = self.values.len();
                control.report(reported as u64, target as u64);
            }
        }
        Ok(true)
    }

    /// Sparse blocks until `stop` values are known, the method changes ([`Self::plan`]) or
    /// `cancel` is set.
    fn sparse_blocks(
        &mut self,
        stop: usize,
        target: usize,
        cancel: Option<&AtomicBool>,
    ) -> Result<(), SparseError> {
        loop {
            self.sparse_block(target)?;
            if self.values.len() >= stop || cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
                return Ok(());
            }
            self.plan();
            if !self.sparse {
                return Ok(());
            }
        }
    }

    /// The values `g(0), g(1), ..., g(len - 1)`.
    pub fn values(&self) -> &[u16] {
        &self.values
    }

    /// The values, giving up the engine.
    pub fn into_values(self) -> Vec<u16> {
        self.values
    }

    /// The mask, rare values and positions, histogram and work counters.
    pub fn stats(&self) -> SparseStats {
        let size = self.hist.len();
        let mask = self.sparse.then_some(self.mask);
        let (rare_values, rare_positions) = match mask {
            Some(mask) => {
                let values: Vec<u16> = (0..size as u16)
                    .filter(|&v| self.hist[v as usize] > 0 && !is_common(v, mask))
                    .collect();
                (values, self.rare_pos.len() as u64)
            }
            None => (Vec::new(), 0),
        };
        let mut histogram = self.hist.clone();
        histogram.truncate(self.max_value as usize + 1);
        SparseStats {
            computed: self.values.len() as u64,
            max_value: self.max_value,
            mask,
            rare_values,
            rare_positions,
            last_rare: match mask {
                Some(_) => {
                    let from = self.rare_pos.len().saturating_sub(LAST_RARE);
                    (self.rare_pos[from..].iter().zip(&self.rare_val[from..]))
                        .map(|(&n, &v)| (u64::from(n), v))
                        .collect()
                }
                None => Vec::new(),
            },
            histogram,
            rare_xor_steps: self.rare_xor_steps,
            scan_steps: self.scan_steps,
            dense_values: self.dense_values,
            mask_changes: self.mask_changes,
            pipelined_blocks: self.pipelined_blocks,
        }
    }

    /// Bytes needed to compute up to `g(n)`: two per value (four when values pass 128: the
    /// scan's byte copies, module `shadow`), the rare list at its largest (six bytes per
    /// rare position, at most an eighth of the positions) and fixed buffers.
    pub fn memory_needed(code: &Code, n: u64) -> u64 {
        match Moves::new(code) {
            Ok(moves) => Self::memory_for(&moves, n),
            Err(_) => 0,
        }
    }

    fn memory_for(_moves: &Moves, n: u64) -> u64 {
        let len = n.saturating_add(1);
        let values = len.saturating_mul(4);
        let rare = len / DEFAULT_TUNING.max_rare_inverse as u64 * 6;
        let fixed = ROW_BUFFER_BYTES as u64 + (1 << 16) * 8 * 2;
        values.saturating_add(rare).saturating_add(fixed)
    }

    /// Chooses between full computation and sparse space, and the mask, for the next block.
    fn plan(&mut self) {
        let len = self.values.len();
        let size = (self.max_value as usize + 1).next_power_of_two();
        if len < self.tuning.sparse_from {
            return;
        }
        if len < self.next_check && size == self.checked_size {
            return;
        }
        self.next_check = len + (len / 4).max(1024);
        self.checked_size = size;
        let (mask, rare) = best_mask(&self.hist[..size]);
        if rare as usize * self.tuning.max_rare_inverse > len {
            if self.sparse {
                self.sparse = false;
                self.rare_pos = Vec::new();
                self.rare_val = Vec::new();
            }
            return;
        }
        if !self.sparse || rare as usize * 100 < self.rare_pos.len() * 85 {
            self.sparse = true;
            self.mask = mask;
            self.mask_changes += 1;
            self.rare_pos.clear();
            self.rare_val.clear();
            for (n, &v) in self.values.iter().enumerate().skip(1) {
                if !is_common(v, mask) {
                    self.rare_pos.push(n as u32);
                    self.rare_val.push(v);
                }
            }
        }
    }

    /// Appends `g(n)` for `n = values.len()`, keeping histogram, maximum and rare list.
    fn push(&mut self, v: usize) -> Result<(), SparseError> {
        let n = self.values.len();
        let v = u16::try_from(v).map_err(|_| SparseError::ValueTooLarge { n: n as u64 })?;
        self.values.push(v);
        if v as usize >= self.hist.len() {
            self.hist.resize((v as usize + 1).next_power_of_two(), 0);
        }
        self.hist[v as usize] += 1;
        self.max_value = self.max_value.max(v);
        if self.sparse && !is_common(v, self.mask) {
            self.rare_pos.push(n as u32);
            self.rare_val.push(v);
        }
        Ok(())
    }

    /// Computes values in full from the definition, `O(n)` per heap (`O(n^2)` with
    /// three-heap splits), for a block of heaps.
    fn dense_block(&mut self, target: usize) -> Result<(), SparseError> {
        let n0 = self.values.len();
        let per_value = n0 * self.moves.split2.len() + n0 * n0 / 12 * self.moves.split3.len() + 1;
        let block = ((1usize << 24) / per_value).clamp(1, 4096).min(target - n0);
        let mut bits = Vec::new();
        for n in n0..n0 + block {
            let size = (self.max_value as usize + 1).next_power_of_two();
            bits.clear();
            bits.resize(size / 64 + 1, 0u64);
            mark_simple_options(&self.moves, &self.values, n, &mut bits);
            mark_all_splits(&self.moves, &self.values, n, &mut bits);
            let mex = first_zero(&bits, size + 1);
            self.dense_values += 1;
            self.push(mex)?;
        }
        Ok(())
    }

    /// The number of heaps in a sparse block starting at `n0`: rows of `words` words fit the
    /// row buffer, at most [`MAX_BLOCK`] and `n0 / 2` heaps, at most
    /// `tuning.block_per_rare` times fewer than the largest rare position (so that most rare
    /// positions are far from the next block, see [`FarJob`]), and no further than `target`.
    fn block_len(&self, n0: usize, words: usize, target: usize) -> usize {
        let spread = self
            .rare_pos
            .last()
            .map_or(MAX_BLOCK, |&p| p as usize / self.tuning.block_per_rare);
        // Values past 128 (the far phase scans too, in parallel over heaps): the rare
        // positions below the block's length are near for some of its heaps, computed
        // heap by heap; keep them a small share of all.
        // (Grundy's game to 10^6: the heap-by-heap share of the profile falls from 11% to 7%
        // with a sixteenth, blocks of some 500 heaps instead of 2000.)
        let spread = if words > 4 && !self.rare_pos.is_empty() {
            let share = self.rare_pos.len() / NEAR_SHARE;
            spread.min(self.rare_pos[share] as usize)
        } else {
            spread
        };
        (ROW_BUFFER_BYTES / 8 / words)
            .min(MAX_BLOCK)
            .min(spread.max(self.tuning.min_block))
            .min(n0 / 2)
            .clamp(1, target - n0)
    }

    /// Computes a block of heaps by sparse space (see the module documentation): the far
    /// rare partners (and, for values past 128, the far part of the scan) first, prepared
    /// during the previous block or now in parallel over heaps; then heap by heap the near
    /// ones and the rest of the scan — while the far rare partners of the next block are
    /// marked on another core.
    fn sparse_block(&mut self, target: usize) -> Result<(), SparseError> {
        let n0 = self.values.len();
        // Every value below n0 is below `size`; the block ends as soon as one is not, so
        // within a block every nim-sum of known values is below `size` as well.
        let size = (self.max_value as usize + 1).next_power_of_two();
        let words = (2 * size).div_ceil(64);
        let common = common_words(self.mask, words);
        let epoch = (self.mask_changes, size);
        // The far marks the helper prepared for this block, if they come in time; else this
        // thread marks them itself (the helper's late result is dropped at the next block),
        // so that a helper without a core (a loaded machine) never holds the block up.
        if let Some(helper) = self.second.helper.as_mut().filter(|h| h.pending()) {
            let (arrived, waiting) = (std::time::Instant::now(), helper.finished());
            // Up to a quarter of the helper's last job, or all of it past 128, where a block
            // that marks its own far partners also scans its far splits alone (0.247 to
            // `2^24`, wall, pairs in turn: 0.95x against a quarter).
            let share = if size > 128 { 1 } else { 4 };
            let patience = self.tuning.patience.max(self.second.busy / share);
            let result = helper.collect_within(patience);
            self.second.record(match &result {
                Some((job, _)) if waiting => far::Arrival::Waiting {
                    busy: job.busy,
                    idle: job
                        .finished
                        .map_or(Duration::ZERO, |t| arrived.saturating_duration_since(t)),
                },
                Some(_) => far::Arrival::InTime,
                None => far::Arrival::Late,
            });
            if let Some((job, prepared)) = result {
                self.spare_job = Some(job);
                self.prepared = Some(prepared);
            }
        }
        let scan = size > 128 && !self.moves.split2.is_empty();
        if scan {
            self.shadow
                .sync(&self.values, target)
                .map_err(|_| SparseError::OutOfMemory {
                    n: target as u64 - 1,
                    bytes: Self::memory_for(&self.moves, target as u64 - 1),
                })?;
        }
        let mut probing = false;
        let mut marks = match self.prepared.take() {
            Some(p) if p.n0 == n0 && p.epoch == epoch && p.len <= target - n0 => {
                self.pipelined_blocks += 1;
                p
            }
            stale => {
                let block = self.block_len(n0, words, target);
                probing = scan && self.adapt.next(self.tuning.spread);
                if probing {
                    spread::fractions(n0 as u64, &mut self.fractions);
                }
                let phase = block::FarPhase {
                    values: &self.values[..n0],
                    base: 0,
                    n0,
                    known: n0,
                    start: 0,
                    rare_pos: &self.rare_pos,
                    rare_val: &self.rare_val,
                    split2: &self.moves.split2,
                    size,
                    common: &common,
                    scan,
                    early: self.early,
                    bytes: scan.then_some(&self.shadow),
                    spread: if probing { &self.fractions } else { &[] },
                };
                let mut p = stale.unwrap_or_else(|| std::mem::take(&mut self.spare));
                // Over the thread pool (a few futex calls) only where it scans (values past
                // 128) or there is no helper: with a helper, the thread pool's wake-ups
                // would cost more than the far phase it shares (0.354: a third of the
                // system time).
                let parallel_from = if self.second.helper.is_none()
                    || (phase.scan && (size > far::PIPELINED_SIZES || !self.wide_pipelined))
                {
                    1 << 15
                } else {
                    usize::MAX
                };
                p.fill(&phase, block, words, parallel_from);
                p.epoch = epoch;
                p
            }
        };
        self.rare_xor_steps += marks.rare_steps;
        self.scan_steps += marks.scan_steps;
        if !marks.scanned.is_empty() {
            // Half the average far scan (the pairs marked early included: when
            // scans are short, the length falls back to them), measured without probes:
            // with them the scans are short because the early marks are spread, and the
            // early marks would shrink from block to block (the tests' tuning that always
            // probes measures with them, so that both kinds of early marks are made).
            if !probing || self.tuning.spread == spread::Spread::Always {
                let per_scan = marks.scan_steps as usize / marks.scanned.len();
                self.early = (per_scan / 2).min(self.tuning.max_early);
            }
            let heaps = marks.scanned.len() / self.moves.split2.len();
            self.adapt
                .record(heaps, probing, marks.probed + marks.after);
        }
        // The next block, if this one runs to its end with the same value range: its far
        // rare positions (partners below n0) are marked meanwhile on another core.
        let n1 = n0 + marks.len;
        if n1 < target
            && (size <= 128 || (size <= far::PIPELINED_SIZES && self.wide_pipelined))
            && self.second.ready(self.tuning.force_helper)
            && self.second.may_post()
        {
            let len = self.block_len(n1, words, target);
            if let Some(mut job) = self.far_job(n0, n1, len, size, words) {
                job.epoch = epoch;
                let spare = std::mem::take(&mut self.spare);
                if let Some(helper) = self.second.helper.as_mut() {
                    helper.post((job, spare));
                }
            }
        }
        let done = self.near_and_scan(&mut marks, words, size, &common);
        self.spare = marks;
        done
    }

    /// The near rare partners and the rest of the scan, heap by heap, for the block whose far
    /// marks are in `marks`.
    fn near_and_scan(
        &mut self,
        marks: &mut Marks,
        words: usize,
        size: usize,
        common: &[u64],
    ) -> Result<(), SparseError> {
        let (n0, r0) = (marks.n0, marks.r0);
        let splits = self.moves.split2.len();
        // Marks prepared ahead read values below `known` only: the partners from there to
        // the block's start are known now, and streamed for the whole block at once.
        if marks.known < n0 && size <= far::PIPELINED_SIZES {
            let phase = block::FarPhase {
                values: &self.values[..n0],
                base: 0,
                n0,
                known: n0,
                start: marks.known,
                rare_pos: &self.rare_pos[..r0],
                rare_val: &self.rare_val[..r0],
                split2: &self.moves.split2,
                size,
                common,
                scan: false,
                early: 0,
                bytes: None,
                spread: &[],
            };
            let steps = phase.fill(0, &mut marks.rows, &mut [], words);
            self.rare_xor_steps += steps.rare;
            marks.known = n0;
        }
        let known = marks.known;
        // Scratch kept from block to block (zeroing 64 KiB tables per block cost a tenth of
        // the instructions of 0.167): empty on entry and on return.
        let mut seen = std::mem::take(&mut self.seen);
        if size > 128 && seen.len() < size {
            seen.resize(size, 0);
        }
        let mut wanted = self.wanted.take().unwrap_or_default();
        // Per split, the first listed rare position whose partner lies below `known`: it
        // only moves up from heap to heap (no search per heap).
        let mut far_index = vec![0usize; splits];
        // The heaps of this block whose value is past 255 (the byte copies list those before).
        let mut block_wide: Vec<u32> = Vec::new();
        for (i, row) in marks.rows.chunks_exact_mut(words).enumerate() {
            let n = n0 + i;
            mark_simple_options(&self.moves, &self.values, n, row);
            // A split into two equal heaps gives 0 (rare under every mask).
            if self
                .moves
                .split2
                .iter()
                .any(|s| !s.unequal && n >= s.j + 2 && (n - s.j) % 2 == 0)
            {
                set_bit(row, 0);
            }
            // Near rare positions: those listed whose partner is not below `known`, and
            // those found since they were listed.
            let near = self.rare_pos.len();
            for (&split, lo) in self.moves.split2.iter().zip(&mut far_index) {
                if n < split.j + 2 {
                    continue;
                }
                let m = n - split.j;
                let far_from = block::FarPhase::far_from(known, m);
                while *lo < r0 && (self.rare_pos[*lo] as usize) < far_from {
                    *lo += 1;
                }
                let lo = *lo;
                for (start, end) in [(0, lo), (r0, near)] {
                    let list = &self.rare_pos[start..end];
                    let hi = match list.last() {
                        Some(&last) if (last as usize) >= m => {
                            list.partition_point(|&p| (p as usize) < m)
                        }
                        _ => list.len(),
                    };
                    self.rare_xor_steps += hi as u64;
                    for range in split.partners(&list[..hi], m) {
                        let pos = &list[range.clone()];
                        let val = &self.rare_val[start + range.start..start + range.end];
                        if size <= 64 {
                            block::rare_word::<u64>(&self.values, m, pos, val).store_or(row);
                        } else if size <= 128 {
                            block::rare_word::<block::Pair>(&self.values, m, pos, val)
                                .store_or(row);
                        } else {
                            block::rare_bytes(&mut seen[..], &self.values, m, pos, val);
                        }
                    }
                }
            }
            if size > 128 {
                block::pack_bytes(&seen[..size], row);
                seen[..size].fill(0);
            }
            let values = &self.values[..n];
            let split2 = &self.moves.split2;
            let (value, steps) = if size <= 64 {
                finish_word::<u64>(values, split2, n, row, common)
            } else if size <= 128 {
                finish_word::<block::Pair>(values, split2, n, row, common)
            } else {
                // Past 256 (module `wide`): the pairs with a wide part, the heaps of the
                // byte copies (below the block) and those of the block so far.
                let wide_marked = size > wide::WIDE && first_free_common(row, common) > wide::WIDE;
                if wide_marked {
                    let lists = [self.shadow.wide(), &block_wide[..]];
                    self.rare_xor_steps += wide::mark_wide(values, lists, split2, n, n, row);
                }
                let scanned = marks.scanned.get(i * splits..(i + 1) * splits);
                finish_wide(
                    values,
                    split2,
                    n,
                    row,
                    common,
                    &mut wanted,
                    finish::Marked {
                        scanned,
                        wide: wide_marked,
                    },
                )
            };
            self.scan_steps += steps;
            if let Err(e) = self.push(value) {
                (self.seen, self.wanted) = (seen, Some(wanted));
                return Err(e);
            }
            if value >= size {
                break;
            }
            if value >= wide::WIDE {
                block_wide.push(n as u32);
            }
        }
        (self.seen, self.wanted) = (seen, Some(wanted));
        Ok(())
    }
}
