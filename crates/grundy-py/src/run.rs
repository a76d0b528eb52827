//! Long computations off the interpreter: a worker thread does the work while the calling
//! thread waits with the GIL released, waking every 50 ms to let Python run its signal
//! handlers. A pending `KeyboardInterrupt` (Ctrl-C) cancels the work through its budget.

use grundy::control::Budget;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

/// Sets the flag when the worker ends, even by a panic.
struct Finished(Arc<(Mutex<bool>, Condvar)>);

impl Drop for Finished {
    fn drop(&mut self) {
        let (lock, condvar) = &*self.0;
        *lock.lock().unwrap_or_else(PoisonError::into_inner) = true;
        condvar.notify_all();
    }
}

/// Runs `work` on a worker thread with the GIL released; Ctrl-C cancels `budget` and raises
/// `KeyboardInterrupt`.
pub fn detached<T: Send>(
    py: Python<'_>,
    budget: &Budget,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = Arc::new((Mutex::new(false), Condvar::new()));
    std::thread::scope(|scope| {
        let flag = Finished(Arc::clone(&done));
        let handle = scope.spawn(move || {
            let _flag = flag;
            work()
        });
        loop {
            let finished = py.allow_threads(|| {
                let (lock, condvar) = &*done;
                let guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
                let (guard, _) = condvar
                    .wait_timeout_while(guard, Duration::from_millis(50), |d| !*d)
                    .unwrap_or_else(PoisonError::into_inner);
                *guard
            });
            if finished {
                break;
            }
            if let Err(e) = py.check_signals() {
                budget.cancel();
                let _ = py.allow_threads(|| handle.join());
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| PyRuntimeError::new_err("the computation panicked (a bug in grundy)"))
    })
}
