use super::*;
use std::fs;
use std::sync::atomic::{AtomicBool, Ordering};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-run-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

fn rule(text: &str) -> HeapRule {
    HeapRule::parse(text).unwrap()
}

/// The values of `rule` computed in one go by the engine [`engine_for`] picks (the plain
/// engine for small counts, as the reference).
fn direct(rule: &HeapRule, count: u64) -> Vec<u16> {
    if count <= 3000 {
        return crate::heap::plain::reference_values(rule, count);
    }
    let mut e = crate::heap::sequence::engine_for(rule, Vec::new()).unwrap();
    e.extend_to_len(count, &mut Control::none()).unwrap();
    e.into_values()
}

/// Runs `options` to the end with no control.
fn run_to_end(rule: &HeapRule, options: RunOptions) -> (SequenceRun, RunReport) {
    let mut run = SequenceRun::new(rule.clone(), options).unwrap();
    let report = run.run(&mut Control::none()).unwrap();
    (run, report)
}

/// Runs `options`, cancelling once `stop_at` values are reported done.
fn run_cancelled(rule: &HeapRule, options: RunOptions, stop_at: u64) -> RunReport {
    let flag = AtomicBool::new(false);
    let mut progress = |done: u64, _total: u64| {
        if done >= stop_at {
            flag.store(true, Ordering::Relaxed);
        }
    };
    let mut control = Control::none()
        .with_progress(&mut progress)
        .with_cancel(&flag);
    let mut run = SequenceRun::new(rule.clone(), options).unwrap();
    run.run(&mut control).unwrap()
}

#[test]
fn a_cancelled_run_saves_and_resumes_to_the_uninterrupted_result() {
    let dir = scratch("resume");
    // Grundy's game runs on the plain engine, 0.16 on the sparse one.
    for (text, count) in [("grundys-game", 3000u64), ("0.16", 40_000)] {
        let rule = rule(text);
        let path = dir.join(format!("{}.ckpt", text.replace('.', "_")));
        let mut options =
            RunOptions::new(Goal::Values(count)).with_checkpoint(&path, CheckpointMode::Fresh);
        options.chunk = 500;
        let report = run_cancelled(&rule, options.clone(), count / 3);
        assert_eq!(report.status, RunStatus::Interrupted, "{text}");
        assert!(report.computed < count, "{text}: {report:?}");
        assert_eq!(report.saved.as_deref(), Some(path.as_path()));
        let (saved_rule, saved) = checkpoint::load(&path).unwrap();
        assert_eq!(saved_rule, text);
        assert_eq!(saved.len() as u64, report.computed);

        let resume = RunOptions {
            checkpoint: Some(CheckpointFile {
                path: path.clone(),
                mode: CheckpointMode::Resume,
            }),
            ..options
        };
        let (run, report) = run_to_end(&rule, resume);
        assert_eq!(report.status, RunStatus::Finished);
        assert_eq!(report.resumed, saved.len() as u64);
        assert_eq!(run.values(), direct(&rule, count).as_slice(), "{text}");
        let (whole, whole_report) = run_to_end(&rule, RunOptions::new(Goal::Values(count)));
        assert_eq!(run.values(), whole.values());
        assert_eq!(report.period, whole_report.period);
        assert_eq!(checkpoint::load(&path).unwrap().1, whole.values());
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn progress_is_reported_against_the_whole_step() {
    let rule = rule("kayles");
    let mut totals = Vec::new();
    let mut progress = |done: u64, total: u64| totals.push((done, total));
    let mut control = Control::none().with_progress(&mut progress);
    let mut options = RunOptions::new(Goal::Values(5000));
    options.chunk = 1000;
    let mut run = SequenceRun::new(rule, options).unwrap();
    let report = run.run(&mut control).unwrap();
    assert_eq!(report.shown, 5000);
    assert!(
        totals.iter().all(|&(d, t)| t == 5000 && d <= t),
        "{totals:?}"
    );
    assert_eq!(totals.last(), Some(&(5000, 5000)));
}

#[test]
fn a_fresh_run_does_not_replace_data_it_would_lose() {
    let dir = scratch("overwrite");
    let path = dir.join("run.ckpt");
    let fresh = |goal| RunOptions::new(goal).with_checkpoint(&path, CheckpointMode::Fresh);
    run_to_end(&rule("0.16"), fresh(Goal::Values(500)));

    // Another rule, a shorter run, a proof run: refused, the file untouched.
    let before = fs::read(&path).unwrap();
    for (text, goal) in [
        ("kayles", Goal::Values(10_000)),
        ("0.16", Goal::Values(100)),
        ("0.16", Goal::Prove { max: 1 << 20 }),
    ] {
        let e = SequenceRun::new(rule(text), fresh(goal)).unwrap_err();
        let RunError::Occupied { found, .. } = &e else {
            panic!("{text}: {e}");
        };
        match text {
            "kayles" => assert_eq!(
                found,
                &Occupant::OtherRule {
                    rule: "0.16".into(),
                    values: 500
                }
            ),
            _ => assert_eq!(found, &Occupant::MoreValues { values: 500 }),
        }
        assert!(e.to_string().contains("run.ckpt"), "{e}");
    }
    assert_eq!(fs::read(&path).unwrap(), before);

    // A file that is not a checkpoint is not replaced either.
    let other = dir.join("notes.txt");
    fs::write(&other, "my notes").unwrap();
    let e = SequenceRun::new(
        rule("0.16"),
        RunOptions::new(Goal::Values(10)).with_checkpoint(&other, CheckpointMode::Fresh),
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            RunError::Occupied {
                found: Occupant::NotACheckpoint { .. },
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(fs::read(&other).unwrap(), b"my notes");

    // The same rule and at least as many values: nothing is lost, the run goes ahead.
    let (_, report) = run_to_end(&rule("0.16"), fresh(Goal::Values(800)));
    assert_eq!(report.computed, 800);
    // Replace mode replaces whatever is there.
    let replace = RunOptions::new(Goal::Values(20)).with_checkpoint(&path, CheckpointMode::Replace);
    run_to_end(&rule("kayles"), replace.clone());
    assert_eq!(checkpoint::load(&path).unwrap().1.len(), 20);
    run_to_end(
        &rule("kayles"),
        RunOptions {
            checkpoint: Some(CheckpointFile {
                path: other.clone(),
                mode: CheckpointMode::Replace,
            }),
            ..replace
        },
    );
    assert_eq!(checkpoint::load(&other).unwrap().0, "kayles");
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn resuming_a_longer_proof_checkpoint_stops_at_max() {
    let dir = scratch("max");
    let path = dir.join("run.ckpt");
    let kayles = rule("kayles");
    run_to_end(
        &kayles,
        RunOptions::new(Goal::Values(2000)).with_checkpoint(&path, CheckpointMode::Fresh),
    );
    let resume =
        |max| RunOptions::new(Goal::Prove { max }).with_checkpoint(&path, CheckpointMode::Resume);
    // Kayles' period needs 168 values: with at most 100 there is no proof, whatever the
    // checkpoint holds beyond.
    let (_, report) = run_to_end(&kayles, resume(100));
    assert_eq!(report.proof, ProofStatus::GaveUp);
    assert_eq!((report.shown, report.computed), (100, 2000));
    assert!(report.period.as_ref().is_none_or(|p| !p.proven()));
    // The checkpoint keeps every value.
    assert_eq!(checkpoint::load(&path).unwrap().1.len(), 2000);
    let (_, report) = run_to_end(&kayles, resume(1000));
    assert_eq!(report.proof, ProofStatus::Proven);
    assert_eq!(report.shown, 1000);
    let p = report.period.unwrap();
    assert_eq!((p.period, p.preperiod), (12, 71));
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn wrong_saved_values_are_caught_on_resume() {
    let dir = scratch("verify");
    let path = dir.join("run.ckpt");
    let rule = rule("0.16");
    let good = direct(&rule, 200_000);
    // A damaged value early (in the part checked in full) and at the very end (sampled).
    for heap in [57usize, 199_999] {
        let mut bad = good.clone();
        bad[heap] ^= 1;
        checkpoint::save(&path, "0.16", &bad).unwrap();
        let e = SequenceRun::new(
            rule.clone(),
            RunOptions::new(Goal::Values(10)).with_checkpoint(&path, CheckpointMode::Resume),
        )
        .unwrap_err();
        assert!(
            matches!(e, RunError::BadPrefix { heap: h, .. } if h == heap as u64),
            "{e}"
        );
    }
    // Another rule's values saved under this rule's name.
    checkpoint::save(
        &path,
        "0.16",
        &direct(&HeapRule::parse("0.137").unwrap(), 100),
    )
    .unwrap();
    assert!(matches!(
        SequenceRun::new(
            rule.clone(),
            RunOptions::new(Goal::Values(10)).with_checkpoint(&path, CheckpointMode::Resume)
        ),
        Err(RunError::BadPrefix { .. })
    ));
    // The right values pass, and every rule's true values pass.
    assert_eq!(verify_prefix(&rule, &good), Ok(()));
    for text in [
        "grundys-game",
        "lasker",
        "half",
        "allbut(1,2)",
        "sub(2,5)",
        "0.8f",
        "4.07",
    ] {
        let r = HeapRule::parse(text).unwrap();
        assert_eq!(verify_prefix(&r, &direct(&r, 300)), Ok(()), "{text}");
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn refusals_carry_their_figures() {
    let mut options = RunOptions::new(Goal::Values(1 << 20));
    options.memory_available = Some(1000);
    let mut run = SequenceRun::new(rule("0.137"), options).unwrap();
    let e = run.run(&mut Control::none()).unwrap_err();
    assert!(
        matches!(e, RunError::Memory { values, available: 1000, .. } if values == 1 << 20),
        "{e}"
    );
    assert!(!e.to_string().contains("--"), "{e}");
    // More values than the engine holds, and no period to lift the limit: refused at once,
    // and for that on any machine (it was refused for memory where 19 GiB were not free).
    let mut options = RunOptions::new(Goal::Values(u64::from(u32::MAX) + 1));
    options.memory_available = Some(1 << 30);
    let mut run = SequenceRun::new(rule("grundys-game"), options).unwrap();
    let e = run.run(&mut Control::none()).unwrap_err();
    assert!(
        matches!(e, RunError::TooLong { values, limit, .. }
            if values == u64::from(u32::MAX) + 1 && limit == u64::from(u32::MAX)),
        "{e}"
    );
    assert!(e.to_string().contains("g(4294967294)"), "{e}");
    // Past that limit, a period proven lifts it; the values copied by it are checked for
    // memory then (2^33 values of 2 bytes are more than 1 GiB).
    let mut options = RunOptions::new(Goal::Values(1 << 33));
    options.memory_available = Some(1 << 30);
    let mut run = SequenceRun::new(rule("0.137"), options).unwrap();
    let e = run.run(&mut Control::none()).unwrap_err();
    assert!(
        matches!(e, RunError::Memory { values, .. } if values == 1 << 33),
        "{e}"
    );
    let mut run = SequenceRun::new(
        rule("grundys-game"),
        RunOptions::new(Goal::Prove { max: 1000 }),
    )
    .unwrap();
    let e = run.run(&mut Control::none()).unwrap_err();
    assert!(matches!(e, RunError::Unprovable { .. }), "{e}");
    assert!(!e.to_string().contains("--"), "{e}");
}

#[test]
fn stats_and_reports_serialize() {
    // 0.137's period is proven by n = 175, after which the values are copied by the period.
    let (run, report) = run_to_end(&rule("0.137"), RunOptions::new(Goal::Values(300)));
    let stats = run.stats(&report);
    assert_eq!(stats.engine, "periodic");
    assert_eq!(stats.histogram.iter().sum::<u64>(), 300);
    assert!(stats.engine_stats.is_none());
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["status"], "finished");
    assert_eq!(json["period"]["proven"], true);
    assert_eq!(
        json["period"]["proof"]
            .as_str()
            .map(|s| s.starts_with("Guy-Smith")),
        Some(true)
    );
    // 0.16 has no period before n = 105351: the sparse engine runs, with its statistics.
    let (run, report) = run_to_end(&rule("0.16"), RunOptions::new(Goal::Values(300)));
    let stats = run.stats(&report);
    assert_eq!(stats.engine, "sparse");
    let json = serde_json::to_value(&stats).unwrap();
    assert!(json["engine_stats"]["dense_values"].as_u64().is_some());
}
