//! Games defined in Python: the user's callable lists a position's moves, the library's
//! engines do the rest.
//!
//! - Normal play: [`Solver`] (memoised, splitting positions by the optional `components`
//!   callable, under a work budget); when a position repeats, the reachable positions are
//!   explored into a graph and solved by the loopy-graph solver (Smith's ∞(K) values, draws).
//! - Misère play: [`MisereSolver`] over whole positions.
//! - Heap games: the nim-sequence by the mex rule, a move giving a heap or several heaps.
//!
//! Python code runs with the GIL held (it must), so these engines keep the GIL; every 1024
//! calls into Python they run Python's signal handlers, and a `KeyboardInterrupt` (or any
//! exception the user's code raises) stops the engine through its budget and is re-raised
//! as itself.

use crate::errors::{self, AnalysisError, GrundyError};
use crate::expr::{limits, sequence_report};
use grundy::Nimber;
use grundy::api::Task;
use grundy::control::{Budget, Control};
use grundy::game::ImpartialGame;
use grundy::graph::csr::Csr;
use grundy::solve::{MisereSolver, SolveError, Solver};
use grundy::value::{Outcome, Value};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyInt, PyList, PyTuple};
use rustc_hash::FxHashMap;
use std::cell::{Cell, RefCell};
use std::hash::{Hash, Hasher};

/// A Python position: the object and its hash, compared with Python's `==`.
#[derive(Debug)]
struct Key {
    object: Py<PyAny>,
    hash: isize,
}

impl Key {
    fn new(object: &Bound<'_, PyAny>, context: impl FnOnce() -> String) -> PyResult<Key> {
        let hash = object.hash().map_err(|e| {
            let what = object
                .repr()
                .map_or_else(|_| "?".to_string(), |r| r.to_string());
            PyTypeError::new_err(format!(
                "{}: the position {what} is unhashable ({}); positions must be hashable: use \
                 tuples or frozensets instead of lists or sets",
                context(),
                e.value(object.py())
            ))
        })?;
        Ok(Key {
            object: object.clone().unbind(),
            hash,
        })
    }
}

impl Clone for Key {
    fn clone(&self) -> Self {
        Python::with_gil(|py| Key {
            object: self.object.clone_ref(py),
            hash: self.hash,
        })
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.hash.hash(state);
    }
}

impl PartialEq for Key {
    fn eq(&self, other: &Self) -> bool {
        if self.hash != other.hash {
            return false;
        }
        if self.object.is(&other.object) {
            return true;
        }
        Python::with_gil(|py| {
            self.object
                .bind(py)
                .eq(other.object.bind(py))
                .unwrap_or(false)
        })
    }
}

impl Eq for Key {}

/// The user's game as the engines see it. The first Python error is kept, and stops the
/// engine by cancelling its budget.
struct PyGame<'py> {
    py: Python<'py>,
    moves: Bound<'py, PyAny>,
    components: Option<Bound<'py, PyAny>>,
    failure: RefCell<Option<PyErr>>,
    budget: Budget,
    calls: Cell<u64>,
}

impl<'py> PyGame<'py> {
    fn fail(&self, e: PyErr) {
        let mut failure = self.failure.borrow_mut();
        if failure.is_none() {
            *failure = Some(e);
        }
        self.budget.cancel();
    }

    fn tick(&self) -> PyResult<()> {
        let calls = self.calls.get() + 1;
        self.calls.set(calls);
        if calls % 1024 == 0 {
            self.py.check_signals()?;
        }
        Ok(())
    }

    fn list(&self, f: &Bound<'py, PyAny>, what: &str, p: &Key) -> PyResult<Vec<Key>> {
        self.tick()?;
        let position = p.object.bind(self.py);
        let out = f.call1((position,))?;
        let describe = || {
            format!(
                "{what}({})",
                position
                    .repr()
                    .map_or_else(|_| "?".to_string(), |r| r.to_string())
            )
        };
        let iter = out.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "{} returned {}, not an iterable of positions",
                describe(),
                out.get_type()
                    .name()
                    .map_or_else(|_| "?".to_string(), |n| n.to_string())
            ))
        })?;
        let mut keys = Vec::new();
        for item in iter {
            keys.push(Key::new(&item?, || {
                format!("{} returned a move", describe())
            })?);
        }
        Ok(keys)
    }

    fn take_failure(&self) -> Option<PyErr> {
        self.failure.borrow_mut().take()
    }
}

impl ImpartialGame for PyGame<'_> {
    type Position = Key;
    fn options(&self, p: &Key) -> Vec<Key> {
        self.list(&self.moves, "moves", p).unwrap_or_else(|e| {
            self.fail(e);
            Vec::new()
        })
    }
    fn components(&self, p: &Key) -> Vec<Key> {
        match &self.components {
            None => vec![p.clone()],
            Some(f) => self.list(f, "components", p).unwrap_or_else(|e| {
                self.fail(e);
                vec![p.clone()]
            }),
        }
    }
}

/// The error for an engine that stopped: the user's own exception if one was raised, else
/// the limit or the cycle.
fn stopped(game: &PyGame<'_>, e: SolveError) -> PyErr {
    if let Some(user) = game.take_failure() {
        return user;
    }
    match e {
        SolveError::Budget(b) => errors::budget(b, ""),
        SolveError::Cycle => AnalysisError::new_err(e.to_string()),
    }
}

/// Analyses a position of a game defined in Python; returns a dict (see `GameAnalysis`).
#[pyfunction]
#[pyo3(signature = (moves, components, position, misere=false, max_positions=None, max_work=None))]
pub fn analyze_game<'py>(
    py: Python<'py>,
    moves: Bound<'py, PyAny>,
    components: Option<Bound<'py, PyAny>>,
    position: Bound<'py, PyAny>,
    misere: bool,
    max_positions: Option<usize>,
    max_work: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let task = if misere {
        Task::AnalyzeMisere
    } else {
        Task::Analyze
    };
    let budget = Budget::new(limits(max_positions, max_work, None, task)?);
    let game = PyGame {
        py,
        moves,
        components,
        failure: RefCell::new(None),
        budget: budget.clone(),
        calls: Cell::new(0),
    };
    let root = Key::new(&position, || "analyze_game".to_string())?;
    let out = PyDict::new(py);
    out.set_item("position", &position)?;
    out.set_item("misere", misere)?;
    if misere {
        let mut solver = MisereSolver::with_budget(&game, &budget);
        let outcome = solver.outcome(&root).map_err(|e| stopped(&game, e))?;
        let wins = solver
            .winning_options(&root)
            .map_err(|e| stopped(&game, e))?;
        out.set_item("value", py.None())?;
        out.set_item("outcome", outcome.to_string())?;
        out.set_item("winning_moves", objects(py, &wins))?;
        out.set_item("loopy", false)?;
        return Ok(out);
    }
    let mut solver = Solver::with_budget(&game, &budget);
    match solver.value(&root) {
        Ok(v) => {
            let mut wins = Vec::new();
            if !v.is_zero() {
                for o in game.options(&root) {
                    let value = solver.value(&o).map_err(|e| stopped(&game, e))?;
                    if value == Nimber::ZERO {
                        wins.push(o);
                    }
                }
            }
            if let Some(e) = game.take_failure() {
                return Err(e);
            }
            out.set_item("value", v.0)?;
            out.set_item("outcome", if v.is_zero() { "P" } else { "N" })?;
            out.set_item("winning_moves", objects(py, &wins))?;
            out.set_item("loopy", false)?;
            Ok(out)
        }
        Err(SolveError::Cycle) if game.failure.borrow().is_none() => {
            drop(solver);
            loopy(&game, &root, &budget, &out)?;
            Ok(out)
        }
        Err(e) => Err(stopped(&game, e)),
    }
}

fn objects<'py>(py: Python<'py>, keys: &[Key]) -> Bound<'py, PyList> {
    PyList::new(py, keys.iter().map(|k| k.object.bind(py))).expect("a list of objects")
}

/// A game whose positions repeat: every position reachable from `root` (whole positions),
/// solved as a graph (win / lose / draw and Smith's values).
fn loopy(game: &PyGame<'_>, root: &Key, budget: &Budget, out: &Bound<'_, PyDict>) -> PyResult<()> {
    let py = game.py;
    let limit = budget.limits().max_positions;
    let mut ids: FxHashMap<Key, u32> = FxHashMap::default();
    let mut positions = vec![root.clone()];
    ids.insert(root.clone(), 0);
    let (mut sources, mut targets) = (Vec::new(), Vec::new());
    let mut next = 0;
    while next < positions.len() {
        let options = game
            .list(&game.moves, "moves", &positions[next])
            .inspect_err(|_| budget.cancel())?;
        budget
            .charge(options.len() as u64 + 1)
            .map_err(|e| errors::budget(e, ""))?;
        for o in options {
            let to = match ids.get(&o) {
                Some(&to) => to,
                None => {
                    if positions.len() >= limit {
                        return Err(errors::budget(
                            grundy::control::BudgetError::Positions { limit },
                            "exploring the positions of a loopy game",
                        ));
                    }
                    let to = positions.len() as u32;
                    ids.insert(o.clone(), to);
                    positions.push(o);
                    to
                }
            };
            sources.push(next as u32);
            targets.push(to);
        }
        next += 1;
    }
    let csr = Csr::from_edges(positions.len() as u32, &sources, &targets);
    let mut control = Control::none().with_cancel(budget.cancel_flag());
    let solution = grundy::graph::solve(&csr, &mut control)
        .map_err(|e| GrundyError::new_err(e.to_string()))?;
    let outcome = solution.outcome(0);
    match solution.value(&csr, 0) {
        Value::Finite(n) => {
            out.set_item("value", n.0)?;
            out.set_item("infinite", py.None())?;
        }
        Value::Infinite(k) => {
            out.set_item("value", py.None())?;
            out.set_item("infinite", k.iter().map(|n| n.0).collect::<Vec<_>>())?;
        }
    }
    let pick = |want: Outcome| -> Vec<Key> {
        let mut seen = Vec::new();
        let mut keys = Vec::new();
        for &w in csr.successors(0) {
            if solution.outcome(w) == want && !seen.contains(&w) {
                seen.push(w);
                keys.push(positions[w as usize].clone());
            }
        }
        keys
    };
    out.set_item("outcome", outcome.to_string())?;
    out.set_item("winning_moves", objects(py, &pick(Outcome::P)))?;
    out.set_item("drawing_moves", objects(py, &pick(Outcome::Draw)))?;
    out.set_item("remoteness", solution.remoteness(0))?;
    out.set_item("positions", positions.len())?;
    out.set_item("loopy", true)?;
    Ok(())
}

/// The nim-sequence of a heap rule given by a Python callable: `moves(n)` yields, for each
/// move, the heap left (an int) or the heaps left (an iterable of ints), each smaller than n.
/// Returns the CLI's `sequence --json` text (`rules` is `name`).
#[pyfunction]
#[pyo3(signature = (moves, to, name, max_work=None))]
pub fn heap_sequence(
    py: Python<'_>,
    moves: Bound<'_, PyAny>,
    to: u64,
    name: &str,
    max_work: Option<u64>,
) -> PyResult<String> {
    let budget = Budget::new(limits(None, max_work, None, Task::Sequence)?);
    let count = usize::try_from(to)
        .ok()
        .and_then(|t| t.checked_add(1))
        .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("`to` is too large"))?;
    let mut values: Vec<u16> = budget
        .vec_with_capacity(count)
        .map_err(|e| errors::budget(e, "the nim-sequence"))?;
    let mut seen: Vec<u64> = Vec::new();
    let mut heaps: Vec<u64> = Vec::new();
    for n in 0..=to {
        if n % 1024 == 0 {
            py.check_signals()?;
        }
        let out = moves.call1((n,))?;
        let iter = out.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "moves({n}) must return an iterable of moves (ints, or iterables of ints)"
            ))
        })?;
        seen.clear();
        for item in iter {
            let item = item?;
            let mut value = 0u64;
            let bad = || {
                PyTypeError::new_err(format!(
                    "moves({n}) returned {}: a move is the heap left (an int from 0) or the \
                     heaps left (an iterable of such ints)",
                    item.repr()
                        .map_or_else(|_| "?".to_string(), |r| r.to_string())
                ))
            };
            heaps.clear();
            if item.is_instance_of::<PyInt>() {
                heaps.push(item.extract::<u64>().map_err(|_| bad())?);
            } else if let Ok(tuple) = item.downcast::<PyTuple>() {
                for h in tuple.iter() {
                    heaps.push(h.extract::<u64>().map_err(|_| bad())?);
                }
            } else {
                for h in item.try_iter().map_err(|_| bad())? {
                    heaps.push(h?.extract::<u64>().map_err(|_| bad())?);
                }
            }
            for &h in &heaps {
                if h >= n {
                    return Err(AnalysisError::new_err(format!(
                        "moves({n}) leaves a heap of {h}: every heap a move leaves must be \
                         smaller than the heap it came from"
                    )));
                }
                value ^= u64::from(values[h as usize]);
            }
            seen.push(value);
        }
        budget
            .charge(seen.len() as u64 + 1)
            .map_err(|e| errors::budget(e, "the nim-sequence"))?;
        let mex = grundy::nimber::mex(seen.iter().copied());
        let mex = u16::try_from(mex)
            .map_err(|_| AnalysisError::new_err(format!("g({n}) = {mex} is larger than 65535")))?;
        values.push(mex);
    }
    serde_json::to_string(&sequence_report(name, values))
        .map_err(|e| AnalysisError::new_err(e.to_string()))
}
