//! Misère canonical (simplest) forms of impartial games, hash-consed in an arena, and
//! tameness read off them as CGSuite reads it.
//!
//! ## The theory implemented
//! Games are equal in misère play, `G = H`, when `o⁻(G + X) = o⁻(H + X)` for every game `X`.
//! `G` and `H` are *linked* when some `T` makes both `G + T` and `H + T` misère P-positions.
//! J. H. Conway, *On Numbers and Games* (2nd ed.), ch. 12, with the proofs written out in
//! A. N. Siegel, *Combinatorial Game Theory* (AMS 2013), ch. V.1 and *On the structure of
//! misère impartial games* (arXiv:2012.08554), §2:
//!
//! 1. **Linking.** `G` is linked to `H` iff no option `G'` equals `H` and no option `H'`
//!    equals `G`.
//! 2. **Equality.** `G = H` iff (i) no `G'` is linked to `H`, that is (by 1) every `G'`
//!    equals some `H'` or has an option `G'' = H`; (ii) symmetrically every `H'` equals some `G'`
//!    or has an option `H'' = G`; (iii) the *proviso* for ends: if `G` has no move then `H`
//!    is a misère N-position, and if `H` has no move then `G` is one. (Sufficiency: for any
//!    `X` with `G + X` a P-position, every `H + X'` is N by induction on `X`, no `H' + X` is
//!    P because `H'` would be linked to `G` by `X`, and `H + X` is not an end by (iii).)
//! 3. **Simplest form.** An option `G'` of `G` is *reversible* when it has an option
//!    `G'' = G`. `G` is in simplest form when its options are and none is reversible; equal
//!    games in simplest form are identical (from 2, by induction on the birthday), and every
//!    game has one.
//!
//! ## The construction
//! The canonical form of `G = {S}`, `S` the canonical forms of its options (sorted, without
//! repeats): if `S` is empty, the end `0`. Otherwise, if some option `s ∈ S` has an option
//! `t` with `t = G`, the form is `t` itself (canonical, being an option of a canonical game);
//! else `{S}` is in simplest form. By the equality theorem, with `t` and `S` canonical (so
//! that equality among them is identity), `t = G` exactly when
//! - `t = 0`: every `s ∈ S` has `0` as an option and some `s` is a misère P-position (the
//!   proviso: `G` must be an N-position, as `0` is); so `*1 + *1 = {*1} = 0`;
//! - `t ≠ 0`: every option of `t` is in `S`, and every `s ∈ S` that is not an option of `t`
//!   has `t` as an option. (Necessity of the first: an option `h` of `t` not in `S` would
//!   need an option `h' = G = t`, and `t` would have a reversible option.)
//!
//! `*2 + *2 = {*2, *3}` has no such `t` (it is a P-position, and `*1`'s option `0` is not
//! among its options), so it is not `0`. The same tests drive CGSuite's misère canonical
//! forms (A. N. Siegel and D. Hoey; its zero test and its test of each "generation gap" of
//! the options sorted by birthday); this module was written from the theorem above.
//!
//! ## Tameness as CGSuite defines it
//! CGSuite's `IsTame` is its *hereditarily tame* phylum: the canonical form's normal value
//! `g⁺` and misère Grundy value `g⁻` are a tame pair (`g⁺ = g⁻`, or both at most 1, the
//! `(g⁺, g⁻)` of `0^120`, `1^031` and `a^{a, a⊕2}`), and every option *of the canonical form*
//! is hereditarily tame. The raw game tree may hold wild positions that the canonical form
//! bypasses: misère Kayles heap 6 (genus `3^31`) is tame, heap 5 (`4^146`) is not.
//!
//! ## Cost
//! A form is built from its options' forms: the candidates `t` are the options of one option
//! of greatest birthday (the others cannot pass), `O(|opts(s)| · |S| log)` for the tests.
//! The form of a sum `A + B` needs the forms of the sums of `A` and `B`'s followers, memoised
//! on the pair of ids, so up to `|followers(A)|·|followers(B)|` constructions. Every step is
//! charged to the [`Budget`]; every node counts as a stored position; no recursion (explicit
//! stacks). A heap's form comes from the forms of the heaps its options leave, folded
//! pairwise ([`HeapForms`]).
//!
//! Where the time goes: the look-ups of the memo of sums miss the cache and the TLB (the
//! memo holds millions of entries). So [`Forms::sum`] visits each sum once (its options
//! looked up when it is opened, a missing one once more before it is built; re-reading the
//! whole list after each missing one cost 70% of the time in a general hash map), and the
//! memo is one small table per greater id (`SumMemo`), where the options of `x + y` mostly
//! fall in two rows. `grundy sequence kayles --misere` (release, default limit, the search
//! taking its half of the work too) went from 10.6 to 7.3 s of one core (0.69x, runs in
//! turn) and 227 to 167 MiB, and reaches heap 68 where it stopped at 67; with ten times the
//! work (to heap 76, where the position limit stops the memo) from 110 to 72 s and 819 to
//! 550 MB.
//!
//! ```
//! use grundy::control::Budget;
//! use grundy::misere::canonical::Forms;
//! let mut f = Forms::new(&Budget::default());
//! let one = f.nim(1).unwrap();
//! let two = f.nim(2).unwrap();
//! assert_eq!(f.sum(one, one).unwrap(), Forms::ZERO); // *1 + *1 = 0 in misère play
//! assert_ne!(f.sum(two, two).unwrap(), Forms::ZERO); // but *2 + *2 ≠ 0
//! assert!(f.is_tame(two));
//! ```

use super::MisereError;
use crate::control::Budget;
use crate::game::ImpartialGame;
use crate::heap::options::for_each_option;
use crate::heap::rules::HeapRule;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;

/// The id of a canonical form in a [`Forms`] arena.
pub type FormId = u32;

/// Option ids examined per unit of work: a unit of the budget is some tens of nanoseconds
/// (measured: about 3 ns an id examined in a release build).
const IDS_PER_UNIT: u64 = 8;

/// The units of work for examining `ids` option ids.
pub(super) fn units(ids: u64) -> u64 {
    ids / IDS_PER_UNIT + 1
}

#[derive(Clone, Copy, Debug)]
struct Node {
    start: usize,
    len: u32,
    g_plus: u32,
    g_minus: u32,
    birthday: u32,
    tame: bool,
}

/// An arena of misère canonical forms: equal games get the same id.
pub struct Forms {
    nodes: Vec<Node>,
    options: Vec<FormId>,
    /// The canonical form of `{S}` for every option list `S` met (canonical or not).
    index: FxHashMap<Box<[FormId]>, FormId>,
    /// The option ids held by the keys of `index`.
    index_ids: usize,
    sums: SumMemo,
    nims: Vec<FormId>,
    /// A scratch list for [`Forms::form_of_list`].
    scratch: Vec<FormId>,
    budget: Budget,
}

impl fmt::Debug for Forms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Forms")
            .field("forms", &self.nodes.len())
            .field("sums", &self.sums.len())
            .finish()
    }
}

impl Forms {
    /// The end, the game with no move.
    pub const ZERO: FormId = 0;

    /// An arena holding only the end, counting its work against `budget`.
    pub fn new(budget: &Budget) -> Self {
        let mut index = FxHashMap::default();
        index.insert(Vec::new().into_boxed_slice(), 0);
        Forms {
            nodes: vec![Node {
                start: 0,
                len: 0,
                g_plus: 0,
                g_minus: 1,
                birthday: 0,
                tame: true,
            }],
            options: Vec::new(),
            index,
            index_ids: 0,
            sums: SumMemo::default(),
            nims: vec![0],
            scratch: Vec::new(),
            budget: budget.clone(),
        }
    }

    /// The number of canonical forms stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the end is stored.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// The options of a canonical form, sorted by id.
    pub fn options(&self, id: FormId) -> &[FormId] {
        let n = &self.nodes[id as usize];
        &self.options[n.start..n.start + n.len as usize]
    }

    /// The normal-play value `g⁺`.
    pub fn g_plus(&self, id: FormId) -> u32 {
        self.nodes[id as usize].g_plus
    }

    /// The misère Grundy value `g⁻` (0 exactly at misère P-positions).
    pub fn g_minus(&self, id: FormId) -> u32 {
        self.nodes[id as usize].g_minus
    }

    /// The birthday (the height of the canonical game tree).
    pub fn birthday(&self, id: FormId) -> u32 {
        self.nodes[id as usize].birthday
    }

    /// Whether the form is hereditarily tame (CGSuite's `IsTame`): `(g⁺, g⁻)` a tame pair and
    /// every option hereditarily tame.
    pub fn is_tame(&self, id: FormId) -> bool {
        self.nodes[id as usize].tame
    }

    /// The number of distinct canonical forms `id` reaches, itself included (the size of
    /// its canonical game graph).
    pub fn follower_count(&self, id: FormId) -> usize {
        let mut seen = FxHashSet::default();
        let mut todo = vec![id];
        seen.insert(id);
        while let Some(x) = todo.pop() {
            for &o in self.options(x) {
                if seen.insert(o) {
                    todo.push(o);
                }
            }
        }
        seen.len()
    }

    /// The Nim heap `*k`.
    pub fn nim(&mut self, k: u32) -> Result<FormId, MisereError> {
        while self.nims.len() <= k as usize {
            let opts = self.nims.clone();
            let id = self.from_options(opts)?;
            self.nims.push(id);
        }
        Ok(self.nims[k as usize])
    }

    /// The canonical form of the game whose options have the canonical forms `opts`.
    pub fn from_options(&mut self, opts: Vec<FormId>) -> Result<FormId, MisereError> {
        self.form_of_list(&opts)
    }

    /// [`Forms::from_options`] on a borrowed list: sorted in a scratch vector kept across
    /// calls, so a list already in the index costs no allocation.
    fn form_of_list(&mut self, opts: &[FormId]) -> Result<FormId, MisereError> {
        self.budget.charge(units(opts.len() as u64))?;
        let mut sorted = std::mem::take(&mut self.scratch);
        sorted.clear();
        sorted.extend_from_slice(opts);
        sorted.sort_unstable();
        sorted.dedup();
        let found = self.canonical(&sorted);
        self.scratch = sorted;
        found
    }

    /// The canonical form of `{opts}`, `opts` sorted without repeats.
    fn canonical(&mut self, opts: &[FormId]) -> Result<FormId, MisereError> {
        if let Some(&id) = self.index.get(opts) {
            return Ok(id);
        }
        let id = match self.reverse(opts)? {
            Some(t) => t,
            None => self.insert(opts)?,
        };
        self.index_ids += opts.len();
        self.index.insert(opts.into(), id);
        Ok(id)
    }

    /// The `t` (an option of an option) equal to `{opts}`, if any.
    fn reverse(&self, opts: &[FormId]) -> Result<Option<FormId>, MisereError> {
        // t = 0: every option has the end as an option, and some option is a P-position.
        if opts
            .iter()
            .all(|&s| self.options(s).first() == Some(&Self::ZERO))
            && opts.iter().any(|&s| self.g_minus(s) == 0)
        {
            return Ok(Some(Self::ZERO));
        }
        // A nonzero `t` equal to `{opts}` has its options among `opts`, so its birthday is
        // above theirs; an option `s` of the greatest birthday is then not an option of `t`
        // (else `opts` would be exactly `t`'s options, found in the index), and has `t` as
        // an option: the candidates are the options of `s`.
        let Some(&top) = opts.iter().max_by_key(|&&s| self.birthday(s)) else {
            return Ok(None);
        };
        let mut examined = self.options(top).len() as u64;
        let mut found = None;
        for &t in self.options(top) {
            let topts = self.options(t);
            if t == Self::ZERO || topts.len() >= opts.len() {
                continue;
            }
            examined += (opts.len() + topts.len()) as u64;
            if is_subset(topts, opts)
                && opts
                    .iter()
                    .filter(|x| topts.binary_search(x).is_err())
                    .all(|&x| self.options(x).binary_search(&t).is_ok())
            {
                found = Some(t);
                break;
            }
        }
        self.budget.charge(units(examined))?;
        Ok(found)
    }

    /// Fails if the arena with `extra` more option ids passes the memory limit: the option
    /// ids (4 bytes each, in the arena and in the index's keys), the nodes, and the entries
    /// of the index (some 32 bytes each with its table), and the memo of sums' table (with
    /// the one it grows into when the next entry would grow it).
    fn check_memory(&self, extra: usize) -> Result<(), MisereError> {
        let ids = (self.options.len() + extra + self.index_ids) as u64;
        let bytes = ids
            .saturating_mul(4)
            .saturating_add(self.nodes.len() as u64 * std::mem::size_of::<Node>() as u64)
            .saturating_add((self.index.len() as u64).saturating_mul(32))
            .saturating_add(self.sums.bytes_after_insert());
        self.budget.check_bytes(bytes, 1)?;
        Ok(())
    }

    fn insert(&mut self, opts: &[FormId]) -> Result<FormId, MisereError> {
        self.budget.check_positions(self.nodes.len() + 1)?;
        self.check_memory(opts.len())?;
        let g_plus = mex(opts.iter().map(|&o| self.g_plus(o)));
        let g_minus = mex(opts.iter().map(|&o| self.g_minus(o)));
        let birthday = opts
            .iter()
            .map(|&o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0);
        let tame = tame_pair(g_plus, g_minus) && opts.iter().all(|&o| self.is_tame(o));
        let id = FormId::try_from(self.nodes.len())
            .ok()
            .filter(|&id| id != MISSING)
            .ok_or_else(|| {
                MisereError::Unsupported("more than 2^32 - 1 canonical forms".to_owned())
            })?;
        let start = self.options.len();
        self.options.extend_from_slice(opts);
        self.nodes.push(Node {
            start,
            len: opts.len() as u32,
            g_plus,
            g_minus,
            birthday,
            tame,
        });
        Ok(id)
    }

    /// The sum `a + b` if known without building it: a summand the end, or memoised.
    fn known(&self, a: FormId, b: FormId) -> Option<FormId> {
        if a == Self::ZERO {
            Some(b)
        } else if b == Self::ZERO {
            Some(a)
        } else {
            let (a, b) = sum_key(a, b);
            self.sums.get(a, b)
        }
    }

    /// The summands of option `i` of the sum `x + y`: `x`'s options first, then `y`'s.
    fn sum_option(&self, x: FormId, y: FormId, i: usize) -> (FormId, FormId) {
        let xs = self.options(x);
        match xs.get(i) {
            Some(&xo) => (xo, y),
            None => (x, self.options(y)[i - xs.len()]),
        }
    }

    /// Opens the frame of the sum `x + y`: the known values of its options appended to
    /// `vals` ([`MISSING`] for the others), charged as one look-up each and one more for
    /// each missing (looked up again before it is built).
    fn open_sum(
        &self,
        x: FormId,
        y: FormId,
        frames: &mut Vec<SumFrame>,
        vals: &mut Vec<FormId>,
    ) -> Result<(), MisereError> {
        let start = vals.len();
        for &xo in self.options(x) {
            vals.push(self.known(xo, y).unwrap_or(MISSING));
        }
        for &yo in self.options(y) {
            vals.push(self.known(x, yo).unwrap_or(MISSING));
        }
        let missing = vals[start..].iter().filter(|&&v| v == MISSING).count();
        self.budget
            .charge(units((vals.len() - start + missing) as u64))?;
        frames.push(SumFrame {
            x,
            y,
            start,
            next: 0,
        });
        self.budget.check_positions(frames.len())?;
        Ok(())
    }

    /// The canonical form of the sum `a + b`, memoised on the pair (`a + b = b + a`: one
    /// entry). A depth-first walk on an explicit stack, so the depth of the games costs no
    /// call stack; each sum is visited once: its options' values are looked up when it is
    /// opened, a missing one looked up again (a sibling may have built it meanwhile) and
    /// then built before the next, and the sum's form is built when the last is known.
    pub fn sum(&mut self, a: FormId, b: FormId) -> Result<FormId, MisereError> {
        if let Some(x) = self.known(a, b) {
            return Ok(x);
        }
        let mut frames: Vec<SumFrame> = Vec::new();
        let mut vals: Vec<FormId> = Vec::new();
        self.open_sum(a, b, &mut frames, &mut vals)?;
        while let Some(&f) = frames.last() {
            let k = self.options(f.x).len() + self.options(f.y).len();
            let seg = &vals[f.start..f.start + k];
            let next = f.next as usize;
            if let Some(i) = seg[next..].iter().position(|&v| v == MISSING) {
                let i = next + i;
                frames.last_mut().expect("non-empty").next = i as u32;
                let (cx, cy) = self.sum_option(f.x, f.y, i);
                match self.known(cx, cy) {
                    Some(v) => vals[f.start + i] = v,
                    None => self.open_sum(cx, cy, &mut frames, &mut vals)?,
                }
                continue;
            }
            let v = self.form_of_list(&vals[f.start..f.start + k])?;
            self.budget
                .check_positions(self.sums.len() + self.nodes.len())?;
            self.check_memory(0)?;
            let (x, y) = sum_key(f.x, f.y);
            self.sums.insert(x, y, v, &self.budget)?;
            frames.pop();
            vals.truncate(f.start);
            match frames.last() {
                Some(p) => vals[p.start + p.next as usize] = v,
                None => return Ok(v),
            }
        }
        unreachable!("the walk returns when its first frame is done")
    }

    /// The canonical form of the sum of `parts`, folded pairwise.
    pub fn sum_all(&mut self, parts: &[FormId]) -> Result<FormId, MisereError> {
        let mut acc = Self::ZERO;
        for &p in parts {
            acc = self.sum(acc, p)?;
        }
        Ok(acc)
    }

    /// The canonical form of `position` of `game`, from its whole game graph (memoised, an
    /// explicit stack).
    pub fn of_game<G: ImpartialGame>(
        &mut self,
        game: &G,
        position: &G::Position,
    ) -> Result<FormId, MisereError> {
        let mut memo: FxHashMap<G::Position, FormId> = FxHashMap::default();
        self.of_game_memo(game, position, &mut memo)
    }

    /// [`Forms::of_game`] with a memo kept by the caller across positions.
    pub fn of_game_memo<G: ImpartialGame>(
        &mut self,
        game: &G,
        position: &G::Position,
        memo: &mut FxHashMap<G::Position, FormId>,
    ) -> Result<FormId, MisereError> {
        if let Some(&id) = memo.get(position) {
            return Ok(id);
        }
        // (position, its options, how many are done); an option on the stack again means a
        // cycle.
        let mut on_stack: FxHashSet<G::Position> = FxHashSet::default();
        let mut stack: Vec<(G::Position, Vec<G::Position>, usize)> = Vec::new();
        let open = |s: &Self, p: &G::Position| -> Result<Vec<G::Position>, MisereError> {
            if let Some(b) = game.option_bound(p) {
                s.budget.afford(b)?;
            }
            let opts = game.options(p);
            s.budget
                .charge((opts.len() as u64 + 1) * (game.position_words(p) + 1))?;
            Ok(opts)
        };
        let first = open(self, position)?;
        on_stack.insert(position.clone());
        stack.push((position.clone(), first, 0));
        loop {
            let (_, opts, next) = stack.last_mut().expect("the root stays until done");
            if *next < opts.len() {
                let o = opts[*next].clone();
                *next += 1;
                if memo.contains_key(&o) {
                    continue;
                }
                if on_stack.contains(&o) {
                    return Err(MisereError::Unsupported(
                        "the game is loopy (a position repeats): misère canonical forms are for finite games"
                            .into(),
                    ));
                }
                let child = open(self, &o)?;
                self.budget.check_positions(memo.len() + stack.len() + 1)?;
                on_stack.insert(o.clone());
                stack.push((o, child, 0));
                continue;
            }
            let (p, opts, _) = stack.pop().expect("non-empty");
            let ids: Vec<FormId> = opts.iter().map(|o| memo[o]).collect();
            let id = self.from_options(ids)?;
            on_stack.remove(&p);
            memo.insert(p, id);
            if stack.is_empty() {
                return Ok(id);
            }
        }
    }
}

/// The key of the sum `a + b` in the memo: the smaller id first, as `a + b = b + a`.
fn sum_key(a: FormId, b: FormId) -> (FormId, FormId) {
    if a <= b { (a, b) } else { (b, a) }
}

/// The memo of sums, `(a, b) → a + b` for `0 < a ≤ b`, in one row per greater id `b`: each
/// row a small open-addressing table (linear probing) of `(a, a + b)` pairs, doubling at 3/4
/// full, a zero `a` marking an empty slot (sums with the end are never stored).
///
/// Why rows: the look-ups miss the cache and the TLB, and their misses are most of the
/// forms' time. The options of `x + y` (`x < y`) are `x' + y`, all in row `y`, and `x + y'`,
/// in row `x` when `y' < x`: most of a sum's look-ups fall in two small rows, where one
/// table hashed on the pair scatters them over all its memory.
#[derive(Debug, Default)]
struct SumMemo {
    rows: Vec<SumRow>,
    len: usize,
    /// The slots of all rows.
    slots: usize,
}

#[derive(Debug, Default)]
struct SumRow {
    slots: Vec<[FormId; 2]>,
    len: u32,
    /// `64 - log2(slots.len())`: the slot of a key is the top bits of its product.
    shift: u32,
}

impl SumRow {
    const MIN_SLOTS: usize = 4;

    /// The first slot to probe for `a` (a multiplicative hash: Knuth's golden ratio).
    fn home(&self, a: FormId) -> usize {
        (u64::from(a).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    fn get(&self, a: FormId) -> Option<FormId> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(a);
        loop {
            let [sa, v] = self.slots[i];
            if sa == a {
                return Some(v);
            }
            if sa == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    fn needs_growth(&self) -> bool {
        (self.len as usize + 1) * 4 > self.slots.len() * 3
    }

    fn place(&mut self, a: FormId, v: FormId) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(a);
        while self.slots[i][0] != 0 {
            i = (i + 1) & mask;
        }
        self.slots[i] = [a, v];
    }
}

impl SumMemo {
    /// Bytes a row costs besides its slots.
    const ROW_BYTES: u64 = std::mem::size_of::<SumRow>() as u64;

    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, a: FormId, b: FormId) -> Option<FormId> {
        self.rows.get(b as usize)?.get(a)
    }

    /// The memo's bytes with a generous allowance for one more entry (a row growing, the
    /// rows' vector growing).
    fn bytes_after_insert(&self) -> u64 {
        let slot = std::mem::size_of::<[FormId; 2]>() as u64;
        (self.slots as u64)
            .saturating_add(64)
            .saturating_mul(slot)
            .saturating_add((2 * self.rows.capacity() as u64).saturating_mul(Self::ROW_BYTES))
    }

    /// Stores `a + b = v` (`0 < a ≤ b`, not yet stored); growth is reserved fallibly.
    fn insert(
        &mut self,
        a: FormId,
        b: FormId,
        v: FormId,
        budget: &Budget,
    ) -> Result<(), MisereError> {
        debug_assert!(a != 0 && a <= b);
        let refused = |bytes: usize| crate::control::BudgetError::Memory {
            needed: Some(bytes as u64),
            limit: budget.limits().max_bytes,
        };
        let b = b as usize;
        if self.rows.len() <= b {
            let more = b + 1 - self.rows.len();
            self.rows
                .try_reserve(more)
                .map_err(|_| refused(more * Self::ROW_BYTES as usize))?;
            self.rows.resize_with(b + 1, SumRow::default);
        }
        let row = &mut self.rows[b];
        if row.needs_growth() {
            let size = (2 * row.slots.len()).max(SumRow::MIN_SLOTS);
            let mut slots: Vec<[FormId; 2]> = Vec::new();
            slots
                .try_reserve_exact(size)
                .map_err(|_| refused(size * 8))?;
            slots.resize(size, [0; 2]);
            let old = std::mem::replace(&mut row.slots, slots);
            self.slots += size - old.len();
            row.shift = 64 - size.trailing_zeros();
            for [sa, sv] in old.into_iter().filter(|s| s[0] != 0) {
                row.place(sa, sv);
            }
        }
        row.place(a, v);
        row.len += 1;
        self.len += 1;
        Ok(())
    }
}

/// A value not yet known in [`Forms::sum`]'s list of option values (no form has this id:
/// [`Forms::insert`] refuses the 2^32-th).
const MISSING: FormId = FormId::MAX;

/// A sum being built by [`Forms::sum`]: its summands, where its options' values start in
/// the shared list, and the first option that may still be missing.
#[derive(Clone, Copy, Debug)]
struct SumFrame {
    x: FormId,
    y: FormId,
    start: usize,
    next: u32,
}

/// Whether `(g⁺, g⁻)` is the pair of a Nim position: equal, or both 0 or 1.
pub fn tame_pair(g_plus: u32, g_minus: u32) -> bool {
    g_plus == g_minus || (g_plus <= 1 && g_minus <= 1)
}

fn is_subset(small: &[FormId], big: &[FormId]) -> bool {
    let mut j = 0;
    for &x in small {
        while j < big.len() && big[j] < x {
            j += 1;
        }
        if j == big.len() || big[j] != x {
            return false;
        }
        j += 1;
    }
    true
}

/// The least value not among `values` (only called with options: the end's `g⁻ = 1` is set
/// once, in [`Forms::new`]).
fn mex(values: impl Iterator<Item = u32>) -> u32 {
    // The mex of n values is at most n, which the options' count keeps far below 2^32.
    crate::nimber::mex(values.map(u64::from)) as u32
}

/// An arena over the canonical forms, read as a game (its positions the form ids), for the
/// generic engines.
impl ImpartialGame for Forms {
    type Position = FormId;
    fn options(&self, position: &FormId) -> Vec<FormId> {
        Forms::options(self, *position).to_vec()
    }
}

/// The canonical forms of the heaps `0..` of a heap rule, heap by heap.
#[derive(Debug)]
pub struct HeapForms {
    /// The arena.
    pub forms: Forms,
    /// The form of heap `n` at index `n`.
    pub heaps: Vec<FormId>,
    /// Why the run stopped before the last heap asked for, if it did.
    pub stopped: Option<MisereError>,
}

impl HeapForms {
    /// The forms of heaps `0..=to` of `rule`, as far as the budget allows: heap `n`'s form
    /// from the forms of the sums its options leave (smaller heaps, folded pairwise).
    pub fn compute(rule: &HeapRule, to: u64, budget: &Budget) -> HeapForms {
        let mut out = HeapForms::new(budget);
        for _ in 0..=to {
            if let Err(e) = out.push_next(rule) {
                out.stopped = Some(e);
                break;
            }
        }
        out
    }

    /// No heap yet, an arena counting its work against `budget`.
    pub fn new(budget: &Budget) -> HeapForms {
        HeapForms {
            forms: Forms::new(budget),
            heaps: Vec::new(),
            stopped: None,
        }
    }

    /// The form of the next heap (`heaps.len()`), appended to `heaps`; on failure nothing is
    /// appended (the forms built on the way stay in the arena).
    pub fn push_next(&mut self, rule: &HeapRule) -> Result<FormId, MisereError> {
        let n = self.heaps.len() as u64;
        let mut parts: Vec<Vec<u64>> = Vec::new();
        if n > 0 {
            for_each_option(rule, n, |o| parts.push(o.parts));
        }
        self.forms.budget.charge(parts.len() as u64 + 1)?;
        parts.sort_unstable();
        parts.dedup();
        let mut opts = Vec::with_capacity(parts.len());
        for p in &parts {
            let ids: Vec<FormId> = p.iter().map(|&h| self.heaps[h as usize]).collect();
            opts.push(self.forms.sum_all(&ids)?);
        }
        let id = self.forms.from_options(opts)?;
        self.heaps.push(id);
        Ok(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nim_heaps_and_small_sums() {
        let mut f = Forms::new(&Budget::default());
        let n: Vec<FormId> = (0..6).map(|k| f.nim(k).unwrap()).collect();
        for (k, &id) in n.iter().enumerate() {
            assert_eq!(f.g_plus(id), k as u32);
            assert!(f.is_tame(id));
        }
        assert_eq!(f.g_minus(n[0]), 1);
        assert_eq!(f.g_minus(n[1]), 0);
        assert_eq!(f.sum(n[1], n[1]).unwrap(), n[0]);
        assert_ne!(f.sum(n[2], n[2]).unwrap(), n[0]);
        // *2 + *1 = *3: both have genus 3^31 and tame options.
        assert_eq!(f.sum(n[2], n[1]).unwrap(), n[3]);
        // *1 + *1 + *1 = *1.
        let two_ones = f.sum(n[1], n[1]).unwrap();
        assert_eq!(f.sum(two_ones, n[1]).unwrap(), n[1]);
    }

    #[test]
    fn sum_memo_agrees_with_a_map() {
        // Pairs from a small generator, many in the same rows, through several growths of
        // the rows and of the rows' vector; every stored pair read back, absent ones absent.
        let budget = Budget::default();
        let mut memo = SumMemo::default();
        let mut map = FxHashMap::default();
        let mut state = 12345u64;
        for v in 0..20_000u32 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let b = (state >> 40) as u32 % 300 + 1;
            let a = (state >> 20) as u32 % b + 1;
            if map.contains_key(&(a, b)) {
                continue;
            }
            assert_eq!(memo.get(a, b), None);
            memo.insert(a, b, v, &budget).unwrap();
            map.insert((a, b), v);
        }
        assert_eq!(memo.len(), map.len());
        for b in 1..=301 {
            for a in 1..=b {
                assert_eq!(memo.get(a, b), map.get(&(a, b)).copied(), "({a}, {b})");
            }
        }
    }

    #[test]
    fn mex_and_tame_pairs() {
        assert_eq!(mex([].into_iter()), 0);
        assert_eq!(mex([0, 1, 3].into_iter()), 2);
        assert!(tame_pair(0, 1) && tame_pair(1, 0) && tame_pair(5, 5) && !tame_pair(4, 1));
    }
}
