//! Deep tier, run on purpose: `cargo test --release -p grundy-cli --test suite sweep:: -- --ignored
//! --nocapture`. Random sums over the whole catalogue, with hostile sizes (0, 2^16, 2^32,
//! 2^64 − 1, 2^64, −1, "1e9", empty, ...), through `analyze` (normal, misère, JSON, the
//! generic engine), `sequence` (normal and misère) and `quotient`, each run by the real binary
//! under the default limits, and rule scripts (the examples and hostile ones: moves that grow
//! the position, arrays and maps grown without end, endless loops and recursions) through
//! `analyze` and `sequence`, and outputs (`--checkpoint`, `--plot`, `--dot`) aimed at device
//! nodes, a directory, a FIFO and a symlink, which must be left what they were. Every run
//! must end by itself with a status of 0, 1 or 2 and no panic, within a generous time cap and
//! an address-space cap of 6 GB; runs over 15 s are printed (slow refusals are worth a look,
//! not a failure). `sequence` in normal play past the time cap (a large `--max-work` given
//! on purpose) gets a Ctrl-C and must stop within seconds with status 130. This
//! sweep found the wrong genus past heap 512, the misère search's unbounded positions and
//! interner, the tame rule's reading of an unlistable component as one without moves, and
//! `sequence half` running the definition (hours) where a closed form answers.
//!
//! `SWEEP_CASES` sets the number of runs (default 300, about half an hour on two cores).

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Sizes that have broken engines before.
const SIZES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "7",
    "13",
    "64",
    "100",
    "1000",
    "65535",
    "65536",
    "4294967295",
    "4294967296",
    "18446744073709551615",
];

/// Sizes no parser should take (one in nine sizes drawn): each must be a clear refusal.
const NOT_SIZES: &[&str] = &[
    "18446744073709551616",
    "-1",
    "99999999999999999999",
    "1e9",
    "0x10",
    "",
];

const HEAP_RULES: &[&str] = &[
    "nim",
    "kayles",
    "dawson-kayles",
    "dawson",
    "grundys-game",
    "lasker",
    "half",
    "even-if-not-all",
    "sub(1,3,4)",
    "sub(0)",
    "sub(18446744073709551615)",
    "bash(0)",
    "bash(3)",
    "allbut(1,2)",
    "allbut()",
    "0.137",
    "4.07",
    "0.f",
    "4!.0",
    "0.7?",
    "0.4=",
    "0.",
    "0.00000000000000000000007",
    "0.8",
    "0.fffff",
    "moore(0)",
    "moore(2)",
];

const COIN_RULES: &[&str] = &[
    "turning-turtles",
    "twins",
    "mock-turtles",
    "ruler",
    "moebius",
    "mogul",
    "turn(3)",
    "turn(0)",
    "coin-sub(1,2)",
];

const BOARDS: &[&str] = &[
    "3x3",
    "0x0",
    "1x18446744073709551615",
    "100x100",
    "4x5",
    "3,2,1",
    "..#/...",
    "2x",
];

const GRAPHS: &[&str] = &[
    "hackenbush 0-1 1-2",
    "node-kayles 1-2 2-3",
    "arc-kayles 1-2",
    "hackenbush 0-18446744073709551615",
    "node-kayles 5x5",
];

fn size() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => prop::sample::select(SIZES).prop_map(str::to_string),
        1 => prop::sample::select(NOT_SIZES).prop_map(str::to_string),
    ]
}

fn sizes(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(size(), 0..=max).prop_map(|v| v.join(" "))
}

fn term() -> impl Strategy<Value = String> {
    prop_oneof![
        11 => (prop::sample::select(HEAP_RULES), sizes(3)).prop_map(|(r, n)| format!("{r} {n}")),
        3 => (prop::sample::select(COIN_RULES), sizes(3)).prop_map(|(r, n)| format!("{r} {n}")),
        2 => (size(), size()).prop_map(|(x, y)| format!("wythoff {x} {y}")),
        1 => sizes(3).prop_map(|n| format!("staircase {n}")),
        1 => (
            prop::sample::select(&["corners", "rugs", "acrostic-twins", "product(turn:2,coin-sub:1:2)"][..]),
            size(),
            size()
        )
            .prop_map(|(r, x, y)| format!("{r} {x},{y}")),
        1 => (prop::sample::select(&["cram", "chomp"][..]), prop::sample::select(BOARDS))
            .prop_map(|(r, b)| format!("{r} {b}")),
        1 => prop::sample::select(GRAPHS).prop_map(str::to_string),
    ]
}

fn expression() -> impl Strategy<Value = String> {
    prop::collection::vec(term(), 1..=3).prop_map(|t| t.join(" + "))
}

fn heap_rule() -> impl Strategy<Value = String> {
    prop::sample::select(HEAP_RULES).prop_map(str::to_string)
}

/// Hostile rule scripts (name, source): moves that grow the position, an array filled move
/// by move, a map grown key by key (with small keys, and with keys of 512 KiB), an array
/// copied into every element of another, a recursion without end, a loop without end, a wrong
/// answer. Each is written into the sweep's folder; the examples of `examples/games` are
/// drawn too.
const HOSTILE_SCRIPTS: &[(&str, &str)] = &[
    ("grow", "fn moves(n) { [n + 1] }"),
    (
        "push",
        "fn moves(n) { let a = []; for i in 0..1000000 { a.push(i); } [] }",
    ),
    (
        "keys",
        "fn moves(n) { let m = #{}; for i in 0..1000000 { m[\"k\" + i] = i; } [] }",
    ),
    (
        "big-keys",
        "fn moves(n) { let s = \"x\"; for i in 0..19 { s += s; } let m = #{}; \
         for i in 0..100000 { m[s + i] = 1; } [] }",
    ),
    (
        "copies",
        "fn moves(n) { let b = []; b.pad(30000, 0); let a = []; a.pad(30000, 0); \
         for i in 0..30000 { a[i] = b; } [] }",
    ),
    ("deep", "fn f(x) { f(x + 1) } fn moves(n) { f(n) }"),
    ("spin", "fn moves(n) { loop { } }"),
    ("wrong", "fn moves(n) { [\"x\", 1.5] }"),
    (
        "split",
        "fn moves(n) { if n < 2 { [] } else { [[n - 1, n - 1], n - 1] } }",
    ),
];

const EXAMPLE_SCRIPTS: &[(&str, &str)] = &[
    ("dim-plus.rhai", "dim+"),
    ("euclid.rhai", "euclid"),
    ("kayles.rhai", "kayles-script"),
    ("powers-of-two.rhai", "powers-of-two"),
    ("subtract-square.rhai", "square"),
    ("wythoff.rhai", "wythoff-script"),
];

/// The sweep's scripts (path, rule name): the hostile ones written once into a scratch folder.
fn scripts() -> &'static [(String, String)] {
    static SCRIPTS: std::sync::OnceLock<Vec<(String, String)>> = std::sync::OnceLock::new();
    SCRIPTS.get_or_init(|| {
        let dir = crate::common::scratch("sweep-scripts");
        let mut all: Vec<(String, String)> = HOSTILE_SCRIPTS
            .iter()
            .map(|(name, body)| {
                let path = dir.join(format!("{name}.rhai"));
                std::fs::write(
                    &path,
                    format!("const NAME = \"{name}\"; const HEAP = true;\n{body}\n"),
                )
                .unwrap();
                (path.display().to_string(), name.to_string())
            })
            .collect();
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/games");
        for (file, name) in EXAMPLE_SCRIPTS {
            let path = format!("{examples}/{file}");
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // The rule's name as the script declares it.
            let declared = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("const NAME = \""))
                .and_then(|r| r.split('"').next())
                .unwrap_or(name)
                .to_string();
            all.push((path, declared));
        }
        all
    })
}

/// Output targets that are not regular files, and a symlink (path, what it is): each must be
/// refused, or written through, and left what it was.
fn targets() -> &'static [(String, &'static str)] {
    static TARGETS: std::sync::OnceLock<Vec<(String, &'static str)>> = std::sync::OnceLock::new();
    TARGETS.get_or_init(|| {
        let dir = crate::common::scratch("sweep-targets");
        let folder = dir.join("folder.svg");
        std::fs::create_dir_all(&folder).unwrap();
        let fifo = dir.join("fifo.svg");
        let _ = std::fs::remove_file(&fifo);
        let _ = Command::new("mkfifo").arg(&fifo).status();
        let real = dir.join("real.svg");
        std::fs::write(&real, "x").unwrap();
        let link = dir.join("link.svg");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&real, &link).unwrap();
        vec![
            ("/dev/full".to_string(), "device"),
            ("/dev/null".to_string(), "device"),
            (folder.display().to_string(), "directory"),
            (fifo.display().to_string(), "fifo"),
            (link.display().to_string(), "symlink"),
        ]
    })
}

/// Whether `path` is still what it was.
fn unchanged(path: &str, what: &str) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return false;
    };
    let t = meta.file_type();
    match what {
        "device" => t.is_char_device(),
        "directory" => t.is_dir(),
        "fifo" => t.is_fifo(),
        "symlink" => t.is_symlink(),
        _ => true,
    }
}

/// One command line of the sweep.
fn command() -> impl Strategy<Value = Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let script = || (0..scripts().len()).prop_map(|i| scripts()[i].clone());
    let target = || (0..targets().len()).prop_map(|i| targets()[i].0.clone());
    prop_oneof![
        (script(), size()).prop_map(move |((path, name), n)| s(&[
            "analyze",
            "--rules",
            &path,
            &format!("{name} {n} + nim 3")
        ])),
        (script(), size()).prop_map(move |((path, name), n)| s(&[
            "sequence", "--rules", &path, &name, "--to", &n
        ])),
        (heap_rule(), target()).prop_map(move |(r, t)| s(&[
            "sequence",
            &r,
            "--to",
            "100",
            "--checkpoint",
            &t,
            "--force"
        ])),
        (heap_rule(), target())
            .prop_map(move |(r, t)| s(&["sequence", &r, "--to", "100", "--plot", &t])),
        (expression(), target()).prop_map(move |(e, t)| s(&["graph", "--expr", &e, "--dot", &t])),
        expression().prop_map(move |e| s(&["analyze", &e])),
        expression().prop_map(move |e| s(&["analyze", &e, "--misere"])),
        expression().prop_map(move |e| s(&["analyze", &e, "--json"])),
        expression().prop_map(move |e| s(&["analyze", &e, "--engine", "generic"])),
        expression().prop_map(move |e| s(&["analyze", &e, "--misere", "--json"])),
        (heap_rule(), size()).prop_map(move |(r, n)| s(&["sequence", &r, "--to", &n])),
        (heap_rule(), size()).prop_map(move |(r, n)| s(&["sequence", &r, "--to", &n, "--misere"])),
        (heap_rule(), size()).prop_map(move |(r, n)| s(&["quotient", &r, "--max-heap", &n])),
    ]
}

/// The longest a run may take before it counts as a hang (the default limits stop every
/// refusal seen so far within 40 s on two loaded cores).
const HANG: Duration = Duration::from_secs(120);
/// Runs longer than this are printed.
const SLOW: Duration = Duration::from_secs(15);
/// The address-space cap, in KiB (`ulimit -v`): a run that needs more is killed by its own
/// failed allocation, which this sweep reports, instead of taking the machine's memory.
const ADDRESS_SPACE_KIB: u64 = 6_000_000;

/// How long an interrupted `sequence` may take to stop.
const STOP: Duration = Duration::from_secs(10);

/// Whether a command is a long run by design, stopped by Ctrl-C rather than by a budget.
fn interruptible(args: &[String]) -> bool {
    args[0] == "sequence" && !args.iter().any(|a| a == "--misere")
}

/// Runs `grundy args` under the caps: its exit code (None on a signal or a hang), its
/// standard error and its time. An interruptible run past [`HANG`] gets a SIGINT.
fn run(args: &[String]) -> (Option<i32>, String, Duration) {
    let start = Instant::now();
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {ADDRESS_SPACE_KIB}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut pipe = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut err = String::new();
        let _ = pipe.read_to_string(&mut err);
        err
    });
    let mut interrupted: Option<Instant> = None;
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        let over = start.elapsed() > HANG;
        if over && interruptible(args) && interrupted.is_none() {
            // `sh` exec'd the binary: the same process.
            let _ = Command::new("kill")
                .args(["-INT", &child.id().to_string()])
                .status();
            interrupted = Some(Instant::now());
        }
        if over && interrupted.is_none_or(|t| t.elapsed() > STOP) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let elapsed = start.elapsed();
    let err = reader.join().unwrap();
    (status.and_then(|s| s.code()), err, elapsed)
}

#[test]
#[ignore = "deep tier: half an hour; run with --ignored"]
fn random_commands_over_the_catalogue_end_cleanly() {
    let cases = std::env::var("SWEEP_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(300);
    let mut runner = TestRunner::new(Config {
        cases,
        // A failing command is reported as it is: shrinking would rerun slow commands.
        max_shrink_iters: 0,
        failure_persistence: None,
        ..Config::default()
    });
    let tally = std::cell::RefCell::new(std::collections::BTreeMap::<String, u32>::new());
    let kinds = std::cell::RefCell::new(std::collections::BTreeMap::<String, u32>::new());
    let result = runner.run(&command(), |args| {
        let (code, err, took) = run(&args);
        if let Some((t, what)) = targets().iter().find(|(t, _)| args.contains(t)) {
            prop_assert!(unchanged(t, what), "grundy {args:?} changed the {what} {t}");
        }
        let kind = if args.iter().any(|a| a == "--rules") {
            "script"
        } else if targets().iter().any(|(t, _)| args.contains(t)) {
            "file target"
        } else {
            args[0].as_str()
        };
        *tally.borrow_mut().entry(format!("{code:?}")).or_default() += 1;
        *kinds.borrow_mut().entry(kind.to_string()).or_default() += 1;
        let tail: String = err
            .chars()
            .rev()
            .take(400)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if took > SLOW {
            println!(
                "slow ({:.1} s, exit {code:?}): grundy {args:?}",
                took.as_secs_f64()
            );
        }
        match code {
            Some(0..=2) if !err.contains("panicked") => Ok(()),
            Some(130) if interruptible(&args) && took > HANG => Ok(()),
            None if took > HANG => Err(TestCaseError::fail(format!(
                "grundy {args:?} ran past {} s (and did not stop on Ctrl-C if asked)",
                HANG.as_secs()
            ))),
            _ => Err(TestCaseError::fail(format!(
                "grundy {args:?}: exit {code:?} after {:.1} s: {tail}",
                took.as_secs_f64()
            ))),
        }
    });
    println!("runs by exit code: {:?}", tally.borrow());
    println!("runs by kind: {:?}", kinds.borrow());
    if let Err(e) = result {
        panic!("{e}");
    }
    // Not a sweep of parse errors alone: some runs answered, some were refused.
    let tally = tally.into_inner();
    assert!(tally.contains_key("Some(0)"), "{tally:?}");
    assert!(tally.contains_key("Some(1)"), "{tally:?}");
}
