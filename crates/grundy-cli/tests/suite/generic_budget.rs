//! End-to-end: the generic engine stops at each limit of its budget, with the figure reached
//! and the flag that raises it, and the defaults the help states are the library's.

use crate::common;

use common::{grundy, stderr};
use grundy::control::Limits;

#[test]
fn a_generic_search_stops_at_the_memory_limit_with_the_figure() {
    // A Kayles heap of 100,000 searched from the top keeps the options of every heap on its
    // stack: far more than 50 MiB, which is refused while the search grows (the work limit
    // is raised out of the way).
    let o = grundy(&[
        "analyze",
        "kayles 100000",
        "--engine",
        "generic",
        "--max-memory",
        "50",
        "--max-work",
        "1000000000000",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("memory limit of 50 MiB"), "{err}");
    assert!(err.contains("--max-memory"), "{err}");
}

#[test]
fn a_generic_search_stops_at_the_position_limit_with_the_figure() {
    let o = grundy(&[
        "analyze",
        "kayles 5000",
        "--engine",
        "generic",
        "--max-positions",
        "100",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("more than 100 stored positions"), "{err}");
    assert!(err.contains("--max-positions"), "{err}");
}

#[test]
fn a_generic_search_stops_at_the_default_work_limit_of_the_library() {
    // Kayles 100,000 lists about 5 · 10^9 options: refused up front under the default.
    let o = grundy(&["analyze", "kayles 100000", "--engine", "generic"]);
    assert!(!o.status.success());
    let err = stderr(&o);
    let figure = format!("more than {} steps of work", Limits::DEFAULT.max_work);
    assert!(err.contains(&figure), "{err}");
    assert!(err.contains("--max-work"), "{err}");
}

#[test]
fn the_help_states_the_library_default_work_limit() {
    let default = format!("[default: {}]", Limits::DEFAULT.max_work);
    for command in ["analyze", "graph"] {
        let o = grundy(&[command, "--help"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let help = String::from_utf8(o.stdout).unwrap();
        let line = help
            .lines()
            .skip_while(|l| !l.contains("--max-work"))
            .take(6)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(line.contains(&default), "{command}: {line}");
    }
}
