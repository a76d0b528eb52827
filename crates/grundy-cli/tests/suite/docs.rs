//! The docs cannot go stale: every command in a `console` block of the README, the guide
//! (`docs/src/*.md`) and ARCHITECTURE.md is run with the real binary, and its output checked.
//!
//! The format: a line starting with `$ ` is a command (a line ending in ` \` continues it),
//! run by `bash` in a fresh directory holding a copy of the repository's `examples/`, with
//! this build's `grundy` first on the PATH. The lines after it, up to the next command or the
//! end of the block, are its standard output and standard error merged; a last line `? N`
//! is its exit status (0 when absent). In expected output a line `...` matches any number of
//! lines and `[..]` any text within a line. (The `pycon` blocks are run by the Python tests.)

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The files whose console blocks are run.
fn documents() -> Vec<PathBuf> {
    let mut files = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    let mut guide: Vec<PathBuf> = std::fs::read_dir(root().join("docs/src"))
        .expect("docs/src exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    guide.sort();
    files.extend(guide);
    files
}

/// One command of a console block and what it should print.
#[derive(Debug)]
struct Case {
    file: String,
    line: usize,
    command: String,
    expected: Vec<String>,
    status: i32,
}

/// The commands of every `console` block of `text`.
fn cases(file: &str, text: &str) -> Vec<Case> {
    let mut out: Vec<Case> = Vec::new();
    let mut in_console = false;
    let mut in_other = false;
    let mut continuing = false;
    for (i, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        if fence {
            let info = line.trim_start().trim_start_matches('`').trim();
            if in_console || in_other {
                in_console = false;
                in_other = false;
            } else if info == "console" {
                in_console = true;
            } else {
                in_other = true;
            }
            continuing = false;
            continue;
        }
        if !in_console {
            continue;
        }
        if continuing {
            let case = out.last_mut().unwrap();
            case.command.push('\n');
            case.command.push_str(line);
            continuing = line.ends_with(" \\");
        } else if let Some(command) = line.strip_prefix("$ ") {
            out.push(Case {
                file: file.to_string(),
                line: i + 1,
                command: command.to_string(),
                expected: Vec::new(),
                status: 0,
            });
            continuing = line.ends_with(" \\");
        } else if let Some(case) = out.last_mut() {
            case.expected.push(line.to_string());
        } else {
            panic!(
                "{file}:{}: output before any command in a console block",
                i + 1
            );
        }
    }
    for case in &mut out {
        if let Some(last) = case.expected.last()
            && let Some(code) = last.strip_prefix("? ")
        {
            case.status = code
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{}:{}: bad status line {last}", case.file, case.line));
            case.expected.pop();
        }
        while case.expected.last().is_some_and(|l| l.trim().is_empty()) {
            case.expected.pop();
        }
    }
    out
}

/// Whether one line matches an expected line with `[..]` wildcards.
fn line_matches(expected: &str, actual: &str) -> bool {
    let (expected, actual) = (expected.trim_end(), actual.trim_end());
    let pieces: Vec<&str> = expected.split("[..]").collect();
    if pieces.len() == 1 {
        return expected == actual;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Whether the actual lines match the expected ones, `...` matching any run of lines.
fn lines_match(expected: &[String], actual: &[&str]) -> bool {
    // The lengths are small: a table of which suffixes match.
    let (n, m) = (expected.len(), actual.len());
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = if expected[i].trim() == "..." {
                ok[i + 1][j] || (j < m && ok[i][j + 1])
            } else {
                j < m && line_matches(&expected[i], actual[j]) && ok[i + 1][j + 1]
            };
        }
    }
    ok[0][0]
}

/// A fresh directory holding a copy of `examples/`.
fn scratch(n: usize) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-docs-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let status = Command::new("cp")
        .arg("-r")
        .arg(root().join("examples"))
        .arg(&dir)
        .status()
        .expect("cp runs");
    assert!(status.success());
    dir
}

#[test]
fn every_documented_command_prints_what_the_docs_say() {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_grundy"));
    let bin_dir = binary.parent().unwrap().to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut all = Vec::new();
    for file in documents() {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let name = file
            .strip_prefix(root())
            .unwrap_or(&file)
            .display()
            .to_string();
        all.extend(cases(&name, &text));
    }
    assert!(
        all.len() >= 100,
        "only {} documented commands found",
        all.len()
    );
    let mut failures = Vec::new();
    for (n, case) in all.iter().enumerate() {
        let dir = scratch(n);
        let out = Command::new("bash")
            .arg("-c")
            .arg(format!("exec 2>&1\n{}", case.command))
            .current_dir(&dir)
            .env("PATH", &path)
            .env("NO_COLOR", "1")
            .output()
            .expect("bash runs");
        let text = String::from_utf8_lossy(&out.stdout);
        let actual: Vec<&str> = text.lines().collect();
        let status = out.status.code().unwrap_or(-1);
        if status != case.status || !lines_match(&case.expected, &actual) {
            failures.push(format!(
                "{}:{}: $ {}\n--- expected (status {}):\n{}\n--- got (status {status}):\n{}",
                case.file,
                case.line,
                case.command,
                case.status,
                case.expected.join("\n"),
                text.trim_end()
            ));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        failures.is_empty(),
        "{} of {} documented commands differ from the docs:\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_matcher_reads_the_format() {
    let text = "```console\n$ echo a \\\n  b\na b\n$ false\n? 1\n```\n```sh\n$ not run\n```\n";
    let c = cases("t.md", text);
    assert_eq!(c.len(), 2);
    assert_eq!(c[0].command, "echo a \\\n  b");
    assert_eq!(c[0].expected, ["a b"]);
    assert_eq!((c[1].status, c[1].expected.len()), (1, 0));
    let e = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "b", "c", "z"]));
    assert!(lines_match(&e(&["a", "...", "z"]), &["a", "z"]));
    assert!(!lines_match(&e(&["a", "...", "z"]), &["a", "b"]));
    assert!(line_matches(
        "took [..] s, [..] values",
        "took 1.5 s, 10 values"
    ));
    assert!(!line_matches("took [..] s", "took 1.5 ms!"));
    assert!(!lines_match(&e(&["x"]), &["y"]));
}
