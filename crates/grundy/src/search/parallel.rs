//! The position search on several threads: the outermost component's options are shared
//! out among the threads, all of them reading and writing one table.
//!
//! The value of the outermost component is found as [`Searcher`]'s aspiration finds it: is
//! the value 0? 1? ... For each value `r` tried, every option still open is asked "is your
//! value `r`?". Those questions are independent, so the threads take them in turn (the
//! easiest first, as one thread would); the first answer "yes" settles `r` and stops the
//! other threads' questions at their next node. What each thread proved, the answered
//! questions and every component valued below them, is in the shared table, so a question
//! stopped half-way is quicker when asked again, and no thread proves again what another
//! has. The answer is the one a single thread gives: every value comes from the mex of
//! options proved, whichever thread proved them.
//!
//! A thread that meets an option whose largest region another thread is searching now
//! (marked in the shared table, regions of 16 cells or more) leaves it for last, when the
//! other may have answered it. The threads meet on the table's locks (one per shard,
//! [`super::store::SHARDS`]; each thread reads the values it met lately from a copy of its
//! own, without a lock) and on the budget, which they charge in batches. Deeper levels are
//! searched by one thread each.
//!
//! Measured (`--no-moves`, two threads against one, medians of runs in turn on a two-core
//! machine): Cram 4 x 11 0.66 of the time, 5 x 9 0.73, 5 x 8 0.79, for 1.2 to 1.5 times
//! the CPU time. Without the marks, the two threads searched the same regions at once
//! (1.6 times the positions, slower than one thread); without the copies, every lookup
//! took a lock whose line the other core then had to fetch back (4 x 11: 0.79).

use super::sets::{Look, SET_BITS};
use super::store::Store;
use super::{SearchError, SearchGame, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Sets a round's stop flag when dropped by a panicking thread.
struct StopOnPanic<'a>(&'a AtomicBool);

impl Drop for StopOnPanic<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}

/// The answer of one option's question: its index, and its value if it came out.
type Answer = (usize, Option<u32>);

impl<'g, G> Searcher<'g, G>
where
    G: SearchGame + Sync,
    G::Key: Send + Sync,
{
    /// The value of a sum of components, each searched by `threads` threads sharing one
    /// table (the table is made shared first if it is not). With one thread, this is
    /// [`Searcher::value_of_sum`].
    pub fn value_of_sum_with_threads(
        &mut self,
        parts: &[G::Key],
        threads: usize,
    ) -> Result<u32, SearchError> {
        if threads <= 1 {
            return self.value_of_sum(parts);
        }
        let mut v = 0;
        for p in parts {
            v ^= self.nimber_with_threads(*p, threads)?;
        }
        Ok(v)
    }

    /// [`Searcher::nimber`] with the outermost component's options shared out.
    fn nimber_with_threads(&mut self, key: G::Key, threads: usize) -> Result<u32, SearchError> {
        let excluded = match self.lookup(&key) {
            Look::Value(v) => return Ok(v),
            Look::Excluded(excluded) => excluded,
        };
        if !self.game.prove_values() {
            return self.nimber(key);
        }
        let start = self.nodes;
        let options = self.expand(&key)?;
        let found = if options.len() as u32 >= SET_BITS {
            self.mex_of_options(&options)
        } else {
            self.aspire_with_threads(&options, excluded, threads)
        };
        self.release(options);
        let v = found?;
        self.set_value(key, v, self.nodes - start + 1)?;
        Ok(v)
    }

    /// [`Searcher::aspire`] with each value's questions shared out among `threads` threads.
    fn aspire_with_threads(
        &mut self,
        options: &super::Options<G::Key>,
        excluded: u64,
        threads: usize,
    ) -> Result<u32, SearchError> {
        let (mut pending, seen) = self.pend_all(options);
        // Values of the small parts of each option, found once, by this thread.
        for i in 0..pending.options.len() {
            if let Err(e) = self.resolve(&mut pending, i) {
                self.pending_pool.push(pending);
                return Err(e);
            }
        }
        let table = match self.table.share(&self.budget) {
            Ok(t) => t,
            Err(e) => {
                self.pending_pool.push(pending);
                return Err(e.into());
            }
        };
        let mut helpers: Vec<Searcher<'g, G>> = (1..threads)
            .map(|_| {
                let mut h = Searcher::with_store(
                    self.game,
                    &self.budget,
                    Store::shared(Arc::clone(&table)),
                );
                h.depth = self.depth;
                h.speaks = false;
                h
            })
            .collect();
        let mut skip = seen | u128::from(excluded);
        let mut result = Ok(options.len() as u32);
        'values: for r in 0..options.len() as u32 {
            if skip & (1 << r) != 0 {
                continue;
            }
            self.trying = Some(r);
            let asks: Vec<(G::Key, u32)> = pending.options.iter().map(|o| (o.big, o.x)).collect();
            let answers = match self.round(&mut helpers, &asks, r) {
                Ok(a) => a,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            let mut taken = false;
            let mut answered: Vec<(usize, u32)> = answers
                .into_iter()
                .filter_map(|(i, v)| Some((i, v?)))
                .collect();
            answered.sort_unstable_by_key(|a| std::cmp::Reverse(a.0));
            for (i, v) in answered {
                // The option's value came out in full: taken, not asked again.
                pending.options.remove(i);
                let y = v ^ asks[i].1;
                if y == r {
                    taken = true;
                } else if y < SET_BITS {
                    skip |= 1 << y;
                }
            }
            if taken {
                continue 'values;
            }
            // No option has the value r (every one was asked: a round stops early only
            // when one has it).
            result = Ok(r);
            break;
        }
        for h in &helpers {
            self.nodes += h.nodes;
        }
        self.pending_pool.push(pending);
        result
    }

    /// Asks every option of `asks` (its largest part, and the nim-sum of its other parts)
    /// whether its value is `r`, on this thread and the helpers', until one says yes. Every
    /// answer given comes back (a "yes" among them if there is one); with no "yes", every
    /// option was asked.
    fn round(
        &mut self,
        helpers: &mut [Searcher<'g, G>],
        asks: &[(G::Key, u32)],
        r: u32,
    ) -> Result<Vec<Answer>, SearchError> {
        let next = AtomicUsize::new(0);
        let stop = Arc::new(AtomicBool::new(false));
        let (mine, theirs) = std::thread::scope(|s| {
            // A thread the system refuses is left out: the others take its questions.
            let handles: Vec<_> = helpers
                .iter_mut()
                .filter_map(|h| {
                    let (next, stop) = (&next, stop.clone());
                    std::thread::Builder::new()
                        .spawn_scoped(s, move || h.take_questions(asks, r, next, stop))
                        .ok()
                })
                .collect();
            let mine = self.take_questions(asks, r, &next, stop.clone());
            let theirs: Vec<_> = handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect();
            (mine, theirs)
        });
        let mut answers = Vec::with_capacity(asks.len());
        for found in std::iter::once(mine).chain(theirs) {
            answers.extend(found?);
        }
        Ok(answers)
    }

    /// One thread's part of a [`Searcher::round`]: takes the next question until none is
    /// left or `stop` is set (by the thread answering "yes", or failing).
    fn take_questions(
        &mut self,
        asks: &[(G::Key, u32)],
        r: u32,
        next: &AtomicUsize,
        stop: Arc<AtomicBool>,
    ) -> Result<Vec<Answer>, SearchError> {
        self.stop = Some(stop.clone());
        self.batched = true;
        // A thread that panics (a bug) stops the others' questions too; the panic is raised
        // again when the round joins it.
        let _guard = StopOnPanic(&stop);
        let mut answers = Vec::new();
        let mut failed = None;
        while !stop.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(big, x)) = asks.get(i) else {
                break;
            };
            let answer = if x < SET_BITS {
                self.in_set(big, 1 << (r ^ x))
            } else {
                self.nimber(big).map(Some)
            };
            match answer {
                Ok(v) => {
                    if v.map(|v| v ^ x) == Some(r) {
                        stop.store(true, Ordering::Relaxed);
                    }
                    answers.push((i, v));
                }
                Err(SearchError::Superseded) => break,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failed = Some(e);
                    break;
                }
            }
        }
        self.stop = None;
        self.batched = false;
        let billed = self.bill();
        match (failed, billed) {
            (Some(e), _) => Err(e),
            (None, Err(e)) => Err(e.into()),
            (None, Ok(())) => Ok(answers),
        }
    }
}
