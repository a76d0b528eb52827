//! The three passes of the distributed solver, each run by every worker on its share of the
//! vertices: the acyclic values, win / lose / draw with remoteness, and Smith's generalised
//! values. Each is the one-process algorithm of [`crate::graph`] with the vertex's state kept
//! by its owner and the updates along reversed edges sent to the owner of the predecessor.

use super::step::{Steps, Stopped};
use crate::graph::Csr;
use crate::graph::loopy::{INFINITE, NO_REMOTENESS};
use crate::value::Outcome;
use timely::worker::Worker;

/// Not decided yet.
const OPEN: u32 = u32::MAX;

/// How often a long local cascade looks whether it was asked to stop.
const CHECK_EVERY: u64 = 1 << 20;

/// One worker's vertices: vertex `v` belongs to worker `v mod peers`, at local index
/// `v / peers`; for each, its out-degree and its predecessors (global indices, one per edge).
pub(super) struct Share {
    owners: Owners,
    index: u32,
    /// Global vertices.
    pub total: u64,
    out_degree: Vec<u32>,
    pred_start: Vec<u32>,
    preds: Vec<u32>,
}

impl Share {
    /// A share with no edges yet: `total` vertices in all, this worker's out-degrees 0.
    pub fn empty(total: u64, index: usize, peers: usize) -> Share {
        let (index, peers) = (index as u32, peers as u32);
        let len = if total > u64::from(index) {
            (total - u64::from(index)).div_ceil(u64::from(peers))
        } else {
            0
        };
        Share {
            owners: Owners {
                peers,
                shift: peers.is_power_of_two().then(|| peers.trailing_zeros()),
            },
            index,
            total,
            out_degree: vec![0; len as usize],
            pred_start: vec![0; len as usize + 1],
            preds: Vec::new(),
        }
    }

    /// This worker's share of `graph`: two passes over its edges.
    pub fn of(graph: &Csr, index: usize, peers: usize) -> Share {
        let n = graph.vertex_count() as u32;
        let mut share = Share::empty(u64::from(n), index, peers);
        share.out_degree = (0..share.len())
            .map(|k| graph.out_degree(share.global(k)))
            .collect();
        share.fill_preds(|each| {
            for v in 0..n {
                for &w in graph.successors(v) {
                    each(w, v);
                }
            }
        });
        share
    }

    /// Out-degrees of the owned vertices, to be counted by the caller.
    pub fn out_degree_mut(&mut self) -> &mut [u32] {
        &mut self.out_degree
    }

    /// Stores the predecessors: `edges` calls its argument with `(target, source)` for every
    /// edge (of the whole graph or only those into this worker's vertices), twice (a count,
    /// then the filling).
    pub fn fill_preds(&mut self, edges: impl Fn(&mut dyn FnMut(u32, u32))) {
        edges(&mut |w, _| {
            let (owner, k) = self.locate(w);
            if self.mine(owner) {
                self.count_pred(k);
            }
        });
        self.allot_preds();
        edges(&mut |w, v| {
            let (owner, k) = self.locate(w);
            if self.mine(owner) {
                self.place_pred(k, v);
            }
        });
    }

    /// Stores the edges `(k, x)` into this worker's vertices (local index of the end, global
    /// index of the start) as its lists of predecessors.
    pub fn fill_from(&mut self, edges: &[(u32, u32)]) {
        for &(k, _) in edges {
            self.count_pred(k as usize);
        }
        self.allot_preds();
        for &(k, x) in edges {
            self.place_pred(k as usize, x);
        }
    }

    /// Counts one more predecessor of local vertex `k` (before [`Share::allot_preds`]).
    #[inline]
    pub fn count_pred(&mut self, k: usize) {
        self.pred_start[k] += 1;
    }

    /// Makes room for the predecessors counted: vertex `k`'s list ends at `pred_start[k]`
    /// until [`Share::place_pred`] has filled it from its end, which leaves `pred_start[k]`
    /// at its start. Nothing but the lists themselves is allocated.
    pub fn allot_preds(&mut self) {
        let len = self.len();
        let mut end = 0u32;
        for k in 0..len {
            end += self.pred_start[k];
            self.pred_start[k] = end;
        }
        self.pred_start[len] = end;
        self.preds = vec![0u32; end as usize];
    }

    /// Stores `v` as a predecessor of local vertex `k`; `false` (and nothing stored) when
    /// more come than were counted, possible only if the input changed between a count and
    /// its filling (an overflow into the previous vertex's list, filled from its end too, is
    /// caught the same way by whoever checks the input).
    #[inline]
    pub fn place_pred(&mut self, k: usize, v: u32) -> bool {
        let slot = &mut self.pred_start[k];
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        self.preds[*slot as usize] = v;
        true
    }

    /// Vertices owned.
    pub fn len(&self) -> usize {
        self.out_degree.len()
    }

    /// The global index of local vertex `k`.
    pub fn global(&self, k: usize) -> u32 {
        k as u32 * self.owners.peers + self.index
    }

    pub fn preds(&self, k: usize) -> &[u32] {
        &self.preds[self.pred_start[k] as usize..self.pred_start[k + 1] as usize]
    }

    /// The owner of `v` and its local index there.
    #[inline]
    pub fn locate(&self, v: u32) -> (usize, usize) {
        self.owners.locate(v)
    }

    /// Who owns which vertex (a copy, to be used while the share is being filled).
    pub fn owners(&self) -> Owners {
        self.owners
    }

    pub fn mine(&self, owner: usize) -> bool {
        owner == self.index as usize
    }
}

/// Who owns which vertex: `v` belongs to worker `v mod peers`, at local index `v / peers`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Owners {
    peers: u32,
    /// `log2(peers)` when `peers` is a power of two (then ownership is a mask and a shift).
    shift: Option<u32>,
}

impl Owners {
    /// The owner of `v` and its local index there.
    #[inline]
    pub fn locate(self, v: u32) -> (usize, usize) {
        match self.shift {
            Some(s) => ((v & (self.peers - 1)) as usize, (v >> s) as usize),
            None => ((v % self.peers) as usize, (v / self.peers) as usize),
        }
    }
}

/// An open vertex of the acyclic pass.
struct Open {
    heard: u32,
    degree: u32,
    /// The largest remoteness heard.
    longest: u32,
    /// The smallest remoteness heard from a follower of value 0.
    shortest_to_zero: u32,
    /// The values below 64 heard.
    mask: u64,
}

/// The acyclic pass's result for the owned vertices: values and remoteness (`OPEN` where a
/// cycle is reachable).
pub(super) struct Acyclic {
    pub values: Vec<u32>,
    pub remoteness: Vec<u32>,
    /// Whether every vertex of the whole graph was decided.
    pub complete: bool,
}

/// Sprague–Grundy values and remoteness where no cycle is reachable: a vertex is decided once
/// every follower has told it its value and remoteness (a message per edge, `[u, value,
/// remoteness]`); followers owned by the same worker tell it at once, so a chain within one
/// worker takes no step. The mex needs only which values `0..=d` occur among `d` followers:
/// a mask of 64 bits in the vertex's record, and for the rare vertex with 64 followers or
/// more a bit each in a side array. Messages `E`, steps at most the longest path plus one,
/// and one more for each [`Steps::per_step`] messages a worker has to send at once.
pub(super) fn acyclic(
    share: &Share,
    steps: &mut Steps,
    worker: &mut Worker,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<Acyclic, Stopped> {
    let len = share.len();
    // What a vertex has heard, side by side (one cache line for the random accesses): the
    // values below 64 among its followers as a mask; larger ones, possible only with 64
    // followers or more, in a bit array of `degree + 1` bits a vertex.
    let mut open: Vec<Open> = share
        .out_degree
        .iter()
        .map(|&degree| Open {
            heard: 0,
            degree,
            longest: 0,
            shortest_to_zero: u32::MAX,
            mask: 0,
        })
        .collect();
    let mut big_start: Vec<u64> = Vec::new();
    let mut big_total = 0u64;
    if share.out_degree.iter().any(|&d| d >= 64) {
        big_start = share
            .out_degree
            .iter()
            .map(|&d| {
                let start = big_total;
                if d >= 64 {
                    big_total += u64::from(d) + 1;
                }
                start
            })
            .collect();
    }
    let mut big = vec![0u64; big_total.div_ceil(64) as usize];
    let mut values = vec![OPEN; len];
    let mut remoteness = vec![OPEN; len];
    // Decided, not yet told: (vertex, value, remoteness).
    // Local indices fit in 32 bits (vertices are `u32`): 12 bytes an entry.
    let mut ready: Vec<(u32, u32, u32)> = Vec::new();
    for k in 0..len {
        if share.out_degree[k] == 0 {
            ready.push((k as u32, 0, 0));
        }
    }
    let mut tell = |k: usize, x: u32, r: u32, ready: &mut Vec<(u32, u32, u32)>| {
        let o = &mut open[k];
        o.heard += 1;
        if x < 64 {
            o.mask |= 1 << x;
        } else if x <= o.degree {
            let bit = big_start[k] + u64::from(x);
            big[(bit / 64) as usize] |= 1 << (bit % 64);
        }
        o.longest = o.longest.max(r);
        if x == 0 {
            o.shortest_to_zero = o.shortest_to_zero.min(r);
        }
        if o.heard == o.degree {
            let mut mex = (!o.mask).trailing_zeros();
            if mex == 64 {
                while mex <= o.degree {
                    let bit = big_start[k] + u64::from(mex);
                    if big[(bit / 64) as usize] & (1 << (bit % 64)) == 0 {
                        break;
                    }
                    mex += 1;
                }
            }
            let r = if mex == 0 {
                o.longest
            } else {
                o.shortest_to_zero
            };
            ready.push((k as u32, mex, r.saturating_add(1)));
        }
    };
    let mut out = steps.outboxes();
    let mut decided = 0u64;
    loop {
        let mut sent = 0u64;
        let mut newly = 0u64;
        // A worker that has sent its share of the step pauses (`sent > 0`, so every worker
        // takes another step) and goes on with `ready` after it.
        while sent < steps.per_step {
            let Some((k, x, r)) = ready.pop() else { break };
            let k = k as usize;
            newly += 1;
            if newly % CHECK_EVERY == 0 && steps.cancelled() {
                break;
            }
            values[k] = x;
            remoteness[k] = r;
            for &u in share.preds(k) {
                let (owner, local) = share.locate(u);
                if share.mine(owner) {
                    tell(local, x, r, &mut ready);
                } else {
                    out[owner].extend([u, x, r]);
                    sent += 1;
                }
            }
        }
        let got = steps.exchange(worker, &mut out, [sent, newly])?;
        decided += got.totals[1];
        progress("acyclic values", decided, share.total);
        if got.totals[0] == 0 {
            break;
        }
        for words in got.payloads {
            for m in words.chunks_exact(3) {
                tell(share.locate(m[0]).1, m[1], m[2], &mut ready);
            }
        }
    }
    Ok(Acyclic {
        values,
        remoteness,
        complete: decided == share.total,
    })
}

/// Win / lose / draw with remoteness, level by level: the vertices decided at remoteness `r`
/// tell their predecessors in the steps of level `r` (`[u, 1]` from a loss, `[u, 0]` from a win), which
/// decide remoteness `r + 1`: a loss next door makes a win, the last follower known to be a
/// win makes a loss. Levels keep the remoteness exact (the winner's shortest, the loser's
/// longest), so no vertex acts before its level. Messages at most `E`, steps the largest
/// remoteness plus two, and one more for each [`Steps::per_step`] messages a worker sends
/// in one level.
pub(super) fn win_lose_draw(
    share: &Share,
    steps: &mut Steps,
    worker: &mut Worker,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<(Vec<Outcome>, Vec<u32>), Stopped> {
    let len = share.len();
    let mut outcomes = vec![Outcome::Draw; len];
    let mut remoteness = vec![NO_REMOTENESS; len];
    let mut pending = share.out_degree.clone();
    let mut level: Vec<usize> = Vec::new();
    for k in 0..len {
        if pending[k] == 0 {
            outcomes[k] = Outcome::P;
            remoteness[k] = 0;
            level.push(k);
        }
    }
    let mut out = steps.outboxes();
    let mut here: Vec<u32> = Vec::new();
    let mut decided = 0u64;
    let mut r = 0u32;
    loop {
        // Level `r` tells its predecessors, in steps of at most `per_step` messages a worker
        // (the first step of a level carries the level's size, the others whether a worker
        // has more of it); what they hear decides level `r + 1`.
        let mut next: Vec<usize> = Vec::new();
        let mut at = 0;
        let mut size = 0u64;
        let mut first = true;
        loop {
            let mut sent = 0u64;
            while at < level.len() && sent < steps.per_step {
                let k = level[at];
                at += 1;
                let lost = u32::from(outcomes[k] == Outcome::P);
                for &u in share.preds(k) {
                    let (owner, _) = share.locate(u);
                    let to = if share.mine(owner) {
                        &mut here
                    } else {
                        &mut out[owner]
                    };
                    to.extend([u, lost]);
                    sent += 1;
                }
            }
            let counts = [
                u64::from(at < level.len()),
                if first { level.len() as u64 } else { 0 },
            ];
            first = false;
            let got = steps.exchange(worker, &mut out, counts)?;
            size += got.totals[1];
            let mut hear = |m: &[u32]| {
                let k = share.locate(m[0]).1;
                if remoteness[k] != NO_REMOTENESS {
                    return;
                }
                if m[1] == 1 {
                    outcomes[k] = Outcome::N;
                    remoteness[k] = r + 1;
                    next.push(k);
                } else {
                    pending[k] -= 1;
                    if pending[k] == 0 {
                        outcomes[k] = Outcome::P;
                        remoteness[k] = r + 1;
                        next.push(k);
                    }
                }
            };
            for m in here.chunks_exact(2) {
                hear(m);
            }
            here.clear();
            for words in &got.payloads {
                for m in words.chunks_exact(2) {
                    hear(m);
                }
            }
            if got.totals[0] == 0 {
                break;
            }
        }
        decided += size;
        progress("win, lose or draw", decided, share.total);
        if size == 0 {
            break;
        }
        level = next;
        r += 1;
    }
    Ok((outcomes, remoteness))
}

/// What a message of the generalised pass says about its vertex `x`.
const LABELLED_FOLLOWER: u32 = 0;
const LIVE_FOLLOWER_READY: u32 = 1;
const FOLLOWER_NOW_FINITE: u32 = 2;

/// Smith's generalised values by the rounds of Fraenkel and Yesha, as in
/// [`crate::graph::loopy::generalized_values`]. Round `m`: a vertex whose live followers (not
/// finitely labelled) all have a follower labelled `m`, and that has none itself, is labelled
/// `m`. Within a round the labels are a fixed point that does not depend on the order of the
/// messages (a vertex with a follower labelled `m` is never labelled `m`, by induction on the
/// order of labelling), so updates within a worker cascade at once; rounds are separated by
/// two steps that all workers agree on: the labels `m` are final, then the vertices left
/// without one become `∞` or wait for the next round. Messages `O(E)` a round, at most
/// [`Steps::per_step`] a worker in one step.
pub(super) fn generalized(
    share: &Share,
    steps: &mut Steps,
    worker: &mut Worker,
    progress: &mut dyn FnMut(&str, u64, u64),
) -> Result<Vec<u32>, Stopped> {
    let len = share.len();
    let mut label = vec![OPEN; len];
    let mut live = share.out_degree.clone();
    let mut need = vec![0u32; len];
    let mut has = vec![0u32; len];
    let mut remaining: Vec<usize> = (0..len).collect();
    let mut out = steps.outboxes();
    let mut todo: Vec<(u32, u32)> = Vec::new();
    let mut m = 0u32;
    loop {
        let stamp = m + 1;
        for &k in &remaining {
            need[k] = live[k];
            if need[k] == 0 {
                label[k] = m;
                todo.extend(share.preds(k).iter().map(|&u| (u, LABELLED_FOLLOWER)));
            }
        }
        // The round's labels, to a fixed point.
        loop {
            let mut sent = 0u64;
            let mut done = 0u64;
            while sent < steps.per_step {
                let Some((v, what)) = todo.pop() else { break };
                done += 1;
                if done % CHECK_EVERY == 0 && steps.cancelled() {
                    break;
                }
                let (owner, k) = share.locate(v);
                if !share.mine(owner) {
                    out[owner].extend([v, what]);
                    sent += 1;
                    continue;
                }
                if what == LABELLED_FOLLOWER {
                    let finite = label[k] != OPEN && label[k] != INFINITE;
                    if has[k] == stamp || finite {
                        continue;
                    }
                    has[k] = stamp;
                    todo.extend(share.preds(k).iter().map(|&u| (u, LIVE_FOLLOWER_READY)));
                } else if label[k] == OPEN && has[k] != stamp {
                    need[k] -= 1;
                    if need[k] == 0 {
                        label[k] = m;
                        todo.extend(share.preds(k).iter().map(|&u| (u, LABELLED_FOLLOWER)));
                    }
                }
            }
            let got = steps.exchange(worker, &mut out, [sent, 0])?;
            if got.totals[0] == 0 {
                break;
            }
            for words in got.payloads {
                todo.extend(words.chunks_exact(2).map(|m| (m[0], m[1])));
            }
        }
        // The round's end: labelled vertices stop counting as live followers; the others
        // with a follower labelled m wait, the rest are ∞. In steps of at most `per_step`
        // messages a worker; each worker adds the count it leaves for the next round to the
        // step in which it finishes.
        let mut next = Vec::with_capacity(remaining.len());
        let mut at = 0;
        let mut left = 0u64;
        loop {
            let mut sent = 0u64;
            let was_done = at == remaining.len();
            while at < remaining.len() && sent < steps.per_step {
                let k = remaining[at];
                at += 1;
                if label[k] == m {
                    for &u in share.preds(k) {
                        let (owner, j) = share.locate(u);
                        if share.mine(owner) {
                            live[j] -= 1;
                        } else {
                            out[owner].extend([u, FOLLOWER_NOW_FINITE]);
                            sent += 1;
                        }
                    }
                } else if has[k] == stamp {
                    next.push(k);
                } else {
                    label[k] = INFINITE;
                }
            }
            let done = at == remaining.len();
            let counts = [
                u64::from(!done),
                if done && !was_done {
                    next.len() as u64
                } else {
                    0
                },
            ];
            let got = steps.exchange(worker, &mut out, counts)?;
            for words in got.payloads {
                for m in words.chunks_exact(2) {
                    live[share.locate(m[0]).1] -= 1;
                }
            }
            left += got.totals[1];
            if got.totals[0] == 0 {
                break;
            }
        }
        remaining = next;
        progress("generalised values", share.total - left, share.total);
        if left == 0 {
            break;
        }
        m += 1;
    }
    Ok(label)
}
