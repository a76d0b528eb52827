//! End-to-end: `grundy sequence` and heap games in `grundy analyze`, running the real binary.

use crate::common;

use common::{grundy, json, ok_stdout, scratch, stderr, stdout};

use std::process::{Child, Command};

#[test]
fn dawsons_chess_to_200_with_its_proven_period() {
    let o = grundy(&["sequence", "0.137", "--to", "200"]);
    let text = ok_stdout(&o);
    assert!(text.contains("  0:  0 1 1 2 0 3 1 1 0 3\n"), "{text}");
    assert!(text.contains("period 34 from n = 52, proven"), "{text}");
}

#[test]
fn hexadecimal_arithmetic_periods_are_proven_and_answer_huge_heaps() {
    // 0.8: g(n) = ⌊(n − 1)/3⌋; 0.c: ⌊(n − 1)/2⌋.
    let text = ok_stdout(&grundy(&["sequence", "0.8", "--prove"]));
    assert!(
        text.contains("period 3 from n = 1 with saltus 1, proven (arithmetic-periodicity test"),
        "{text}"
    );
    let v = json(&grundy(&[
        "analyze",
        "0.8 1000000000 + 0.c 999999999",
        "--json",
    ]));
    assert_eq!(v["value"], 333_333_333 ^ 499_999_999);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{v}");
    // Every move leaves a sum of value 0, by the closed forms.
    for m in moves {
        let result = m["result"].as_str().unwrap();
        let after = json(&grundy(&["analyze", result, "--json"]));
        assert_eq!(after["value"], 0, "{result}");
    }
}

#[test]
fn long_sequences_print_a_summary_as_text_and_every_value_as_csv() {
    // 0.137 to 10^5: the first rows, the last, and where to find the rest.
    let o = grundy(&["sequence", "0.137", "--to", "100000"]);
    let text = ok_stdout(&o);
    assert!(text.starts_with("0.137: g(0) to g(100000)\n"), "{text}");
    assert!(text.contains("  0:  0 1 1 2 0 3 1 1 0 3\n"), "{text}");
    assert!(text.contains("990:  "), "{text}");
    assert!(!text.contains("\n1000:  "), "{text}");
    assert!(
        text.contains(
            "  ... g(1000) to g(99899) not shown (100001 values in all; every value with \
             --csv or --json)\n"
        ),
        "{text}"
    );
    // The last rows, by heap: g(99900) to g(100000), as the CSV has them.
    let csv = ok_stdout(&grundy(&["sequence", "0.137", "--to", "100000", "--csv"]));
    let all: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split_once(',').unwrap().1)
        .collect();
    assert_eq!(all.len(), 100_001);
    let row = |n: usize| format!("{n:>6}:  {}\n", all[n..(n + 10).min(all.len())].join(" "));
    assert!(text.contains(&row(99_900)), "{text}");
    assert!(text.contains(&row(99_990)), "{text}");
    assert!(text.contains(&row(100_000)), "{text}");
    assert!(text.contains("largest value 9\n"), "{text}");
    assert!(text.contains("period 34 from n = 52, proven"), "{text}");
    assert!(text.lines().count() < 130, "{text}");
    // Up to 10,000 values, every one.
    let text = ok_stdout(&grundy(&["sequence", "0.137", "--to", "9999"]));
    assert!(text.contains("\n 9990:  "), "{text}");
    assert!(!text.contains("not shown"), "{text}");
}

#[test]
fn json_has_the_documented_keys() {
    let v = json(&grundy(&["sequence", "0.137", "--to", "200", "--json"]));
    assert_eq!(v["rule"], "0.137");
    assert_eq!(v["computed"], 201);
    assert_eq!(v["values"].as_array().unwrap().len(), 201);
    assert_eq!(v["values"][15], 5);
    let p = &v["period"];
    assert_eq!(
        (
            p["period"].as_u64(),
            p["preperiod"].as_u64(),
            p["saltus"].as_u64()
        ),
        (Some(34), Some(52), Some(0))
    );
    assert_eq!(p["proven"], true);

    let v = json(&grundy(&["sequence", "kayles", "--prove", "--json"]));
    assert!(v["values"].is_null(), "--prove omits the values");
    assert_eq!(v["proof"], "proven");
    assert_eq!(v["period"]["period"], 12);
    assert_eq!(v["period"]["preperiod"], 71);
    assert_eq!(v["period"]["proven"], true);
    assert!(v["computed"].as_u64().unwrap() >= 168);

    let v = json(&grundy(&["sequence", "lasker", "--to", "100", "--json"]));
    assert_eq!(v["period"]["saltus"], 4);
    let v = json(&grundy(&[
        "sequence",
        "grundys-game",
        "--to",
        "50",
        "--json",
    ]));
    assert!(v["period"].is_null() || v["period"]["proven"] == false);
}

#[test]
fn csv_plot_and_stats() {
    let o = grundy(&["sequence", "kayles", "--to", "5", "--csv"]);
    assert_eq!(stdout(&o), "n,value\n0,0\n1,1\n2,2\n3,3\n4,1\n5,4\n");
    let dir = scratch("plot");
    let svg = dir.join("k.svg");
    let o = grundy(&[
        "sequence",
        "kayles",
        "--to",
        "500",
        "--plot",
        svg.to_str().unwrap(),
        "--stats",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    assert!(stdout(&o).contains("value histogram"), "{}", stdout(&o));
    let o = grundy(&[
        "sequence",
        "kayles",
        "--plot",
        dir.join("k.png").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn stats_say_which_engine_runs_and_why() {
    // 0.004 has no sparse space: the small-values engine, said so in the statistics.
    let o = grundy(&["sequence", "0.004", "--to", "10000", "--stats"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("engine           small"), "{out}");
    assert!(out.contains("engine choice    no sparse space"), "{out}");
    // 0.137's period is proven: copies, and the period named.
    let o = grundy(&["sequence", "0.137", "--to", "100000", "--stats"]);
    let out = stdout(&o);
    assert!(out.contains("engine           periodic"), "{out}");
    assert!(
        out.contains("engine choice    period 34 from n = 52, proven"),
        "{out}"
    );
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    let o = grundy(&["sequence", "0.1g"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not an octal or hexadecimal digit"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["sequence", "sub(0,2)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot list 0"), "{}", stderr(&o));
    let o = grundy(&["sequence", "0.137", "--to", "100000000000000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("needs about") && stderr(&o).contains("available"),
        "{}",
        stderr(&o)
    );
    // Past the engines' 32-bit heaps, with no period to come: refused at once, for that, on
    // any machine (not for the 19 GiB the values would need).
    let o = grundy(&[
        "sequence",
        "grundys-game",
        "--to",
        "4294967295",
        "--max-work",
        "1000000000000",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("ask for at most --to 4294967294"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["analyze", "kayles 99999999999999999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("too large"), "{}", stderr(&o));
    let o = grundy(&["sequence", "half", "--prove"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn huge_heaps_are_answered_from_the_period() {
    let o = grundy(&["analyze", "kayles 1000000000000000000", "--json"]);
    let v = json(&o);
    // 10^18 − 71 ≡ 5 (mod 12): the value of heap 76, which is 1 (OEIS A002186).
    assert_eq!(v["value"], 1);
    let moves = v["winning_moves"].as_array().unwrap();
    assert!(!moves.is_empty());
    let o = grundy(&["analyze", "kayles 10 + 0.137 20 + sub(1,3,4) 100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Value     2"), "{}", stdout(&o));
}

#[test]
fn checkpoint_and_resume_give_the_uninterrupted_result() {
    let dir = scratch("resume");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    let first = json(&grundy(&[
        "sequence",
        "0.16",
        "--to",
        "300",
        "--checkpoint",
        c,
        "--json",
    ]));
    assert_eq!(first["computed"], 301);
    assert_resumes_as_direct("0.16", "700", c);
    // A checkpoint of another rule is refused.
    let o = grundy(&[
        "sequence",
        "kayles",
        "--to",
        "10",
        "--checkpoint",
        c,
        "--resume",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds values of 0.16"),
        "{}",
        stderr(&o)
    );
    std::fs::remove_dir_all(dir).unwrap();
}

/// Starts a run long enough to interrupt (Grundy's game to 5·10^6 takes minutes), checkpointing
/// to `checkpoint`, and gives it time to get going.
#[cfg(unix)]
fn start_long_run(checkpoint: &str) -> Child {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "sequence",
            "grundys-game",
            "--to",
            "5000000",
            "--checkpoint",
            checkpoint,
            // A long run on purpose: stopped by the signal, not by the work limit.
            "--max-work",
            "1000000000000000",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    child
}

#[cfg(unix)]
#[test]
fn ctrl_c_saves_a_checkpoint_that_resumes() {
    let dir = scratch("ctrlc");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    let child = start_long_run(c);
    common::send_signal(child.id(), "-INT");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("--resume"), "{}", stderr(&out));
    // Resume (Grundy's game is slow enough to be interrupted) and
    // compare with a direct run.
    let saved = std::fs::metadata(&ckpt).unwrap().len();
    assert!(saved > 100);
    assert_resumes_as_direct("grundys-game", "3000", c);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Tools such as `timeout` deliver one interrupt twice (to the process and to its group): that
/// is not a second Ctrl-C, and the checkpoint must still be saved.
#[cfg(unix)]
#[test]
fn an_interrupt_delivered_twice_still_saves() {
    let dir = scratch("ctrlc-twice");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    let child = start_long_run(c);
    let pid = child.id();
    for _ in 0..2 {
        common::send_signal(pid, "-INT");
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("saved to"), "{}", stderr(&out));
    assert!(std::fs::metadata(&ckpt).unwrap().len() > 100);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_checkpoint_is_not_replaced_without_force() {
    let dir = scratch("force");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    assert!(
        grundy(&["sequence", "0.16", "--to", "300", "--checkpoint", c])
            .status
            .success()
    );
    let saved = std::fs::read(&ckpt).unwrap();
    // Another rule, or fewer values of the same rule: refused, the file untouched.
    let o = grundy(&["sequence", "kayles", "--to", "10", "--checkpoint", c]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("holds 301 values of 0.16") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["sequence", "0.16", "--to", "100", "--checkpoint", c]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--resume") && stderr(&o).contains("--force"),
        "{}",
        stderr(&o)
    );
    let o = grundy(&["sequence", "0.16", "--prove", "--checkpoint", c]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&ckpt).unwrap(), saved);
    // A file that is not a checkpoint is not replaced either.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "keep me").unwrap();
    let o = grundy(&[
        "sequence",
        "kayles",
        "--checkpoint",
        notes.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a checkpoint"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "keep me");
    // --force replaces it.
    let v = json(&grundy(&[
        "sequence",
        "kayles",
        "--to",
        "10",
        "--checkpoint",
        c,
        "--force",
        "--json",
    ]));
    assert_eq!(v["computed"], 11);
    let resumed = json(&grundy(&[
        "sequence",
        "kayles",
        "--to",
        "5",
        "--checkpoint",
        c,
        "--resume",
        "--json",
    ]));
    assert_eq!(resumed["values"], serde_json::json!([0, 1, 2, 3, 1, 4]));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn saving_uses_a_temporary_file_of_its_own() {
    let dir = scratch("tmpname");
    let ckpt = dir.join("run.ckpt");
    // A file that happens to have the name the old versions wrote to.
    std::fs::write(dir.join("run.ckpt.tmp"), "precious").unwrap();
    let c = ckpt.to_str().unwrap();
    assert!(
        grundy(&["sequence", "kayles", "--to", "50", "--checkpoint", c])
            .status
            .success()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("run.ckpt.tmp")).unwrap(),
        "precious"
    );
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["run.ckpt", "run.ckpt.tmp"]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn resuming_a_longer_checkpoint_respects_max() {
    let dir = scratch("max");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    assert!(
        grundy(&["sequence", "kayles", "--to", "1999", "--checkpoint", c])
            .status
            .success()
    );
    // Kayles' period needs 168 values: --max 100 does not prove it, whatever the file holds.
    let v = json(&grundy(&[
        "sequence",
        "kayles",
        "--prove",
        "--max",
        "100",
        "--checkpoint",
        c,
        "--resume",
        "--json",
    ]));
    assert_eq!(v["computed"], 100);
    assert!(
        v["period"].is_null() || v["period"]["proven"] == false,
        "{v}"
    );
    let v = json(&grundy(&[
        "sequence",
        "kayles",
        "--prove",
        "--max",
        "1000",
        "--checkpoint",
        c,
        "--resume",
        "--json",
    ]));
    assert_eq!(v["period"]["proven"], true);
    // The checkpoint keeps its 2000 values.
    let v = json(&grundy(&[
        "sequence",
        "kayles",
        "--to",
        "1999",
        "--checkpoint",
        c,
        "--resume",
        "--json",
    ]));
    assert_eq!(v["computed"], 2000);
    std::fs::remove_dir_all(dir).unwrap();
}

#[cfg(unix)]
#[test]
fn sigterm_saves_a_checkpoint_like_ctrl_c() {
    let dir = scratch("sigterm");
    let ckpt = dir.join("run.ckpt");
    let c = ckpt.to_str().unwrap();
    let child = start_long_run(c);
    common::send_signal(child.id(), "-TERM");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", stderr(&out));
    assert!(stderr(&out).contains("saved to"), "{}", stderr(&out));
    assert_resumes_as_direct("grundys-game", "2000", c);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Resuming from the checkpoint `ckpt` to g(`to`) gives the values of a direct run.
fn assert_resumes_as_direct(rule: &str, to: &str, ckpt: &str) {
    let resumed = json(&grundy(&[
        "sequence",
        rule,
        "--to",
        to,
        "--checkpoint",
        ckpt,
        "--resume",
        "--json",
    ]));
    let direct = json(&grundy(&["sequence", rule, "--to", to, "--json"]));
    assert_eq!(resumed["values"], direct["values"], "{rule} to {to}");
}

/// `sequence` runs under the same default work limit as `analyze` (seconds to about twenty):
/// `0.fa`, whose every value lists some n²/2 splits, is refused with the figure and the
/// flag, keeping the values computed in the checkpoint; a larger `--max-work` goes on from
/// them with `--resume`.
#[test]
fn sequence_runs_under_a_work_limit_and_keeps_its_values() {
    let o = grundy(&["sequence", "0.fa", "--prove", "--max", "20000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("more than 250000000 steps of work"), "{e}");
    assert!(
        e.contains("give --max-work with more than 250000000"),
        "{e}"
    );

    let ckpt = scratch("budget").join("0.fa.ckpt");
    let path = ckpt.to_str().unwrap();
    let o = grundy(&[
        "sequence",
        "0.fa",
        "--to",
        "3000",
        "--max-work",
        "2000000",
        "--checkpoint",
        path,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("more than 2000000 steps of work"), "{e}");
    assert!(e.contains("saved: continue with --resume"), "{e}");
    let o = grundy(&[
        "sequence",
        "0.fa",
        "--to",
        "300",
        "--json",
        "--checkpoint",
        path,
        "--resume",
    ]);
    let v = json(&o);
    assert_eq!(v["computed"], 301);
}
