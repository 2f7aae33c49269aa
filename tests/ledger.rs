//! Resumable, sharded counting through ledgers: shards merge to the known counts, runs killed
//! at any moment resume to the exact value, and tampered ledgers are caught by `queens merge`.
//! Whole file: about 10 s with `cargo test --release` on 2 cores.
//!
//! Library tests use the reference plan `TwoRowPlan` and the fast counter's plan
//! (`counter_plan`, which the CLI uses); CLI tests hold for any plan.

mod reference_plan;
mod support;

use queens::scale::{
    counter_plan, header_line, merge, parse_line, read_contents, record_line, run, LedgerError,
    Line, MergeReport, Record, Shard, UnitCount, UnitsPlan, WorkPlan,
};
use queens::Options;
use reference_plan::{is_smallest_image, TwoRowPlan};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use support::{queens, scratch, A000170, A002562};

fn known(n: u32) -> UnitCount {
    UnitCount {
        solutions: A000170[n as usize - 1],
        unique_x8: 8 * A002562[n as usize - 1],
    }
}

fn merge_files(plan: &dyn WorkPlan, paths: &[PathBuf]) -> MergeReport {
    let files: Vec<(String, _)> = paths
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                read_contents(&std::fs::read(p).unwrap()),
            )
        })
        .collect();
    merge(plan, None, &files)
}

/// Record lines (not the header) of a ledger file.
fn record_count(path: &Path) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count() - 1
}

fn opts(threads: usize) -> Options {
    Options::with_threads(threads)
}

#[test]
fn plan_units_sum_to_known_counts_for_small_boards() {
    for n in 1..=10 {
        let plan = TwoRowPlan::new(n).unwrap();
        assert!((0..plan.unit_count()).all(|i| plan.spec(i).unwrap().id == i));
        let total = (0..plan.unit_count())
            .map(|i| plan.count_unit(i))
            .fold(UnitCount::default(), |a, b| a.checked_add(b).unwrap());
        assert_eq!(total, known(n), "N = {n}");
    }
    assert!(TwoRowPlan::new(0).is_none());
    assert!(TwoRowPlan::new(33).is_none());
}

#[test]
fn smallest_image_agrees_with_board_canonical_form() {
    // All 92 solutions of N = 8, by plain recursion over column lists.
    let mut sols = Vec::new();
    extend_plainly(8, &mut Vec::new(), &mut |cols| sols.push(cols.to_vec()));
    assert_eq!(sols.len(), 92);
    let mut smallest = 0;
    for s in &sols {
        let bytes: Vec<u8> = s.iter().map(|&c| c as u8).collect();
        let (canon, _) = queens::board::canonical_columns(s);
        assert_eq!(is_smallest_image(&bytes), canon == *s, "{s:?}");
        smallest += usize::from(canon == *s);
    }
    assert_eq!(smallest, 12);
}

#[test]
fn counter_plan_units_sum_to_known_counts() {
    for n in 1..=14 {
        let plan = counter_plan(n).unwrap();
        assert!((0..plan.unit_count()).all(|i| plan.spec(i).unwrap().id == i));
        let total = (0..plan.unit_count())
            .map(|i| plan.count_unit(i))
            .fold(UnitCount::default(), |a, b| a.checked_add(b).unwrap());
        assert_eq!(total, known(n), "N = {n}");
    }
    assert!(counter_plan(0).is_none());
    assert!(counter_plan(33).is_none());
}

#[test]
fn merged_shards_equal_single_run_and_known_counts() {
    let dir = scratch("shards");
    for (n, tag, plan) in (8..=15).flat_map(|n| {
        // The reference plan and the fast counter's plan.
        let reference: Box<dyn WorkPlan> = Box::new(TwoRowPlan::new(n).unwrap());
        [(n, "ref", reference), (n, "fast", counter_plan(n).unwrap())]
    }) {
        let plan = plan.as_ref();
        let single = dir.join(format!("single-{n}-{tag}.ledger"));
        let report = run(plan, &single, None, &opts(0)).unwrap();
        assert!(report.merged.is_complete());
        assert_eq!(report.merged.total, known(n), "N = {n}");
        assert_eq!(record_count(&single) as u64, plan.unit_count());
        // Fewer shard counts on the big boards keep the test fast.
        let ks: &[u64] = if n >= 14 { &[7] } else { &[1, 3, 7, 16] };
        for &k in ks {
            let mut paths = Vec::new();
            let mut sum = UnitCount::default();
            for i in 0..k {
                let path = dir.join(format!("{n}-{i}-of-{k}-{tag}.ledger"));
                let shard = Shard { index: i, count: k };
                let r = run(plan, &path, Some(shard), &opts(0)).unwrap();
                assert!(r.merged.is_complete(), "N = {n}, shard {shard}");
                assert!(r.merged.missing.is_empty());
                sum = sum.checked_add(r.merged.total).unwrap();
                paths.push(path);
            }
            assert_eq!(sum, known(n), "N = {n}, sum of {k} shard totals");
            let merged = merge_files(plan, &paths);
            assert!(
                merged.is_complete(),
                "N = {n}, K = {k}: {:?}",
                merged.problems
            );
            assert_eq!(merged.total, report.merged.total, "N = {n}, K = {k}");
            assert_eq!(merged.agreeing_duplicates, 0);
        }
    }
    // The CLI agrees: shards through `count --ledger`, totals through `merge --json`.
    let mut args = vec!["merge".to_string(), "--json".to_string()];
    for i in 0..5 {
        let path = dir.join(format!("cli-{i}.ledger"));
        let out = queens(&[
            "count",
            "12",
            "--shard",
            &format!("{i}/5"),
            "--ledger",
            path.to_str().unwrap(),
        ]);
        assert!(out.code == 0, "{}", out.stderr);
        assert!(out.stdout.contains(&format!("N = 12, shard {i}/5:")));
        args.push(path.display().to_string());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = queens(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["solutions"], 14200);
    assert_eq!(json["unique"], 1787);
    assert_eq!(json["complete"], true);
    // Leaving one shard's ledger out: merge names the shard.
    let mut without_last: Vec<&str> = vec!["merge"];
    without_last.extend(&args[2..args.len() - 1]);
    let out = queens(&without_last);
    assert_eq!(out.code, 1);
    assert!(
        out.stdout.contains("that is: all the units of shard 4/5\n"),
        "{}",
        out.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_ledgers_resume_to_the_exact_count() {
    // A kill -9 leaves the ledger cut at some byte; resuming must count exactly the units that
    // have no complete line, and nothing twice.
    let dir = scratch("truncate");
    let n = 11;
    let plan = TwoRowPlan::new(n).unwrap();
    let full = dir.join("full.ledger");
    run(&plan, &full, None, &opts(2)).unwrap();
    let bytes = std::fs::read(&full).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut offsets: Vec<usize> = (0..40)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (bytes.len() as u64 + 1)) as usize
        })
        .collect();
    offsets.extend([0, 1, bytes.len() - 1, bytes.len()]);
    for &cut in &offsets {
        let path = dir.join(format!("cut-{cut}.ledger"));
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let complete_records = bytes[..cut]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            .saturating_sub(1);
        let report = run(&plan, &path, None, &opts(2)).unwrap();
        assert!(report.merged.is_complete(), "cut at {cut}");
        assert_eq!(report.merged.total, known(n), "cut at {cut}");
        assert_eq!(
            report.done_before as usize, complete_records,
            "cut at {cut}"
        );
        assert_eq!(
            report.counted_now as usize,
            plan.unit_count() as usize - complete_records,
            "cut at {cut}"
        );
        assert_eq!(
            record_count(&path),
            plan.unit_count() as usize,
            "cut at {cut}: a unit twice"
        );
        assert_eq!(report.merged.agreeing_duplicates, 0);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Number of units of the CLI's plan for N.
fn cli_plan_units(n: u32) -> usize {
    cli_plan_units_with(n, &[])
}

/// The number of units of `queens plan N` with more arguments (e.g. a memory cap).
fn cli_plan_units_with(n: u32, more: &[&str]) -> usize {
    let n = n.to_string();
    let mut args = vec!["plan", &n, "--summary", "--json"];
    args.extend_from_slice(more);
    let out = queens(&args);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    json["units"].as_u64().unwrap() as usize
}

#[test]
fn killed_processes_resume_to_the_exact_count() {
    // Real kill -9 (SIGKILL) of `queens count N --threads 1 --memory 48 --ledger F` at several
    // moments, then a final run. The join's plan under a 48 MiB cap cuts N = 17 into 58 units
    // (9 under the default cap, the first of which can outlast every kill window), and N is
    // the first from 17 whose full count takes at least 0.8 s here, so the kills land
    // mid-count whatever the engine's speed (about 4 s in all).
    let dir = scratch("kill");
    let mut chosen = None;
    for n in 17..=18u32 {
        let probe = dir.join(format!("probe-{n}.ledger"));
        let start = std::time::Instant::now();
        let out = queens(&[
            "count",
            &n.to_string(),
            "--threads",
            "1",
            "--memory",
            "48",
            "--ledger",
            probe.to_str().unwrap(),
        ]);
        assert!(out.code == 0, "{}", out.stderr);
        let took = start.elapsed();
        if took >= Duration::from_millis(800) || n == 18 {
            chosen = Some((n, took));
            break;
        }
    }
    let (n, took) = chosen.unwrap();
    let path = dir.join("killed.ledger");
    let ledger = path.to_str().unwrap();
    // Kill windows adding up to about 60% of a full run.
    for permille in [20u32, 80, 120, 180, 200] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
            .args([
                "count",
                &n.to_string(),
                "--threads",
                "1",
                "--memory",
                "48",
                "--ledger",
                ledger,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(took * permille / 1000);
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
    }
    let out = queens(&[
        "count",
        &n.to_string(),
        "--json",
        "--memory",
        "48",
        "--ledger",
        ledger,
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    // The kills landed mid-count and kept their progress.
    assert!(
        json["ledger"]["resumed"].as_u64().unwrap() > 0,
        "N = {n}: {json}"
    );
    assert!(
        json["ledger"]["counted"].as_u64().unwrap() > 0,
        "N = {n}: {json}"
    );
    assert_eq!(json["complete"], true);
    assert_eq!(json["units"]["done"], json["units"]["total"]);
    assert_eq!(
        json["solutions"].as_u64().unwrap() as u128,
        known(n).solutions
    );
    assert_eq!(json["unique"].as_u64().unwrap() as u128, known(n).unique());
    assert_eq!(
        record_count(&path),
        cli_plan_units_with(n, &["--memory", "48"]),
        "a unit recorded twice"
    );
    let out = queens(&["merge", ledger]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    let k = known(n);
    assert!(out.stdout.starts_with(&format!(
        "N = {n}: {} solutions, {} unique\n",
        k.solutions,
        k.unique()
    )));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A complete, valid ledger of N = 10 written by the CLI, and its lines.
fn valid_ledger(dir: &Path, name: &str) -> (PathBuf, Vec<String>) {
    let path = dir.join(name);
    let out = queens(&["count", "10", "--ledger", path.to_str().unwrap()]);
    assert!(out.code == 0, "{}", out.stderr);
    let lines = std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    (path, lines)
}

/// A record with new counts and residues recomputed here, keeping its range and spec.
fn with_counts(rec: Record, solutions: u128, unique_x8: u128) -> Record {
    Record {
        count: UnitCount {
            solutions,
            unique_x8,
        },
        mod13: [(solutions % 13) as u8, (unique_x8 % 13) as u8],
        mod15: [(solutions % 15) as u8, (unique_x8 % 15) as u8],
        ..rec
    }
}

fn write_lines(path: &Path, lines: &[String]) {
    std::fs::write(
        path,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
}

/// The record on a line (1-based) of a valid ledger.
fn record_at(lines: &[String], line: usize) -> Record {
    match parse_line(lines[line - 1].as_bytes()).unwrap() {
        Line::Record(r) => r,
        other => panic!("line {line} is {other:?}"),
    }
}

fn merge_cli(paths: &[&Path]) -> (Option<i32>, String) {
    let mut args = vec!["merge".to_string()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = queens(&args);
    (Some(out.code), out.stdout)
}

#[test]
fn merge_reports_tampered_records() {
    let dir = scratch("tamper");
    let (good, lines) = valid_ledger(&dir, "good.ledger");
    let (code, text) = merge_cli(&[&good]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with("N = 10: 724 solutions, 92 unique\n"),
        "{text}"
    );
    let bad = dir.join("bad.ledger");
    let name = bad.display().to_string();

    // A count changed by hand: the line's checksum no longer matches.
    let mut edited = lines.clone();
    let rec = record_at(&lines, 5);
    edited[4] = edited[4].replacen(
        &format!("\"solutions\":\"{}\"", rec.count.solutions),
        &format!("\"solutions\":\"{}\"", rec.count.solutions + 1),
        1,
    );
    assert_ne!(edited[4], lines[4]);
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("{name}:5: checksum mismatch")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "missing 1 of {} units: {}",
            lines.len() - 1,
            rec.first
        )),
        "{text}"
    );
    // A run on that ledger counts the unit again; merge then totals it and still names the
    // ignored line.
    let out = queens(&["count", "10", "--ledger", &name]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("N = 10: 724 solutions, 92 unique\n"));
    assert!(out
        .stderr
        .contains(&format!("note: {name}:5: line ignored (checksum mismatch")));
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.starts_with("N = 10: 724 solutions, 92 unique\n"),
        "{text}"
    );
    assert!(
        text.contains(&format!("ignored {name}:5: checksum mismatch")),
        "{text}"
    );

    // A changed count with a recomputed line checksum: the residues give it away.
    let mut forged = rec;
    forged.count.solutions += 1;
    let mut edited = lines.clone();
    edited[4] = record_line(&forged).trim_end().to_string();
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("{name}:5: unit {}: residues", rec.first)),
        "{text}"
    );
    assert!(text.contains("disagree with solutions"), "{text}");

    // A wrong residue (line checksum recomputed).
    let mut forged = rec;
    forged.mod15[0] = (forged.mod15[0] + 1) % 15;
    let mut edited = lines.clone();
    edited[4] = record_line(&forged).trim_end().to_string();
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("{name}:5: unit {}: residues", rec.first)),
        "{text}"
    );

    // A wrong spec checksum: the record is for some other unit.
    let mut forged = rec;
    forged.spec ^= 1;
    let mut edited = lines.clone();
    edited[4] = record_line(&forged).trim_end().to_string();
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("{name}:5: unit {}: spec checksum", rec.first)),
        "{text}"
    );

    // A missing unit (its line deleted).
    let mut edited = lines.clone();
    edited.remove(7);
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    let gone = record_at(&lines, 8).first;
    assert!(
        text.contains(&format!("missing 1 of {} units: {gone}\n", lines.len() - 1)),
        "{text}"
    );
    assert!(
        !text.contains("solutions,"),
        "no total may be printed: {text}"
    );

    // A unit duplicated with a different (self-consistent) result, in a second file.
    let other = dir.join("other.ledger");
    let dup = with_counts(rec, rec.count.solutions + 1, rec.count.unique_x8);
    assert!(dup.residues_agree());
    write_lines(
        &other,
        &[lines[0].clone(), record_line(&dup).trim_end().to_string()],
    );
    let (code, text) = merge_cli(&[&good, &other]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "{}:2: unit {}: solutions {}, unique_x8 {} conflict with solutions {}, unique_x8 {} at {}:5",
            other.display(),
            rec.first,
            rec.count.solutions + 1,
            rec.count.unique_x8,
            rec.count.solutions,
            rec.count.unique_x8,
            good.display()
        )),
        "{text}"
    );
    // ... while a duplicate with the same result is fine.
    write_lines(&other, &[lines[0].clone(), lines[4].clone()]);
    let (code, text) = merge_cli(&[&good, &other]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("(1 duplicate records agree)"), "{text}");

    // A ledger of another N, and one of another plan of the same N.
    let nine = dir.join("nine.ledger");
    let out = queens(&["count", "9", "--ledger", nine.to_str().unwrap()]);
    assert!(out.code == 0, "{}", out.stderr);
    let (code, text) = merge_cli(&[&good, &nine]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "{}:1: ledger is for N = 9, not N = 10",
            nine.display()
        )),
        "{text}"
    );
    let mut edited = lines.clone();
    let Line::Header(mut h) = parse_line(lines[0].as_bytes()).unwrap() else {
        panic!("line 1 is the header");
    };
    h.plan ^= 0xff;
    edited[0] = header_line(&h).trim_end().to_string();
    write_lines(&bad, &edited);
    let (code, text) = merge_cli(&[&good, &bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!("{name}:1: ledger is for another plan of N = 10")),
        "{text}"
    );

    // A torn last line is noted; its unit is missing until a run resumes.
    let mut torn = std::fs::read(&good).unwrap();
    torn.truncate(torn.len() - 10);
    std::fs::write(&bad, &torn).unwrap();
    let (code, text) = merge_cli(&[&bad]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(&format!(
            "note: {name}:{}: unfinished last line",
            lines.len()
        )),
        "{text}"
    );
    assert!(text.contains("missing 1 of"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn runs_refuse_foreign_ledgers_and_bad_shards() {
    let dir = scratch("refuse");
    let path = dir.join("ten.ledger");
    let ledger = path.to_str().unwrap();
    let out = queens(&["count", "10", "--ledger", ledger]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("N = 10: 724 solutions, 92 unique\n"));
    // Another N on the same ledger.
    let out = queens(&["count", "11", "--ledger", ledger]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains(&format!(
        "error: {ledger}:1: ledger is for N = 10, not N = 11"
    )));
    // Not a ledger at all.
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "hello\nworld\n").unwrap();
    let out = queens(&["count", "10", "--ledger", junk.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("1: not a queens ledger"),
        "{}",
        out.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&junk).unwrap(),
        "hello\nworld\n",
        "left untouched"
    );
    // Shards out of range or malformed, and a shard without a ledger.
    for bad in ["4/4", "1/0", "a/4", "2"] {
        let out = queens(&["count", "10", "--shard", bad, "--ledger", ledger]);
        assert_eq!(out.code, 2, "{bad}");
        assert!(out.stderr.contains("error:"), "{bad}");
    }
    let out = queens(&["count", "10", "--shard", "4/4", "--ledger", ledger]);
    assert!(out.stderr.contains("I must be 0 to 3"), "{}", out.stderr);
    let out = queens(&["count", "10", "--shard", "1/4"]);
    assert_eq!(out.code, 2);
    let out = queens(&["plan", "10", "--shard", "7/7"]);
    assert_eq!(out.code, 2);
    // merge: unreadable and header-less inputs are bad input.
    let out = queens(&["merge", dir.join("absent").to_str().unwrap()]);
    assert_eq!(out.code, 2);
    let out = queens(&["merge", junk.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no ledger header"), "{}", out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_time_limit_stops_between_units_and_the_run_resumes() {
    let dir = scratch("limit");
    let path = dir.join("limited.ledger");
    let ledger = path.to_str().unwrap();
    let out = queens(&[
        "count",
        "12",
        "--time-limit",
        "0",
        "--ledger",
        ledger,
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
    // The same answer shape as a count without a ledger: the numbers over no unit are 0.
    assert_eq!(json["problem"], "count");
    assert_eq!(json["solutions"], 0);
    assert_eq!(json["units"]["done"], 0);
    assert_eq!(json["units"]["total"], cli_plan_units(12));
    assert_eq!(json["ledger"]["counted"], 0);
    assert_eq!(json["ledger"]["missing"][0][0], 0);
    let out = queens(&["merge", ledger]);
    assert_eq!(out.code, 1);
    let units = cli_plan_units(12);
    assert!(
        out.stdout.contains(&format!(
            "missing {units} of {units} units: 0-{}",
            units - 1
        )),
        "{}",
        out.stdout
    );
    let out = queens(&["count", "12", "--ledger", ledger]);
    assert_eq!(out.code, 0);
    assert!(out
        .stdout
        .starts_with("N = 12: 14200 solutions, 1787 unique\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ledger_runs_answer_with_the_fields_of_a_plain_count() {
    let dir = scratch("fields");
    let path = dir.join("nine.ledger");
    let plain = queens(&["count", "9", "--json", "--threads", "2"]);
    let ledger = queens(&[
        "count",
        "9",
        "--json",
        "--threads",
        "2",
        "--ledger",
        path.to_str().unwrap(),
    ]);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert_eq!(ledger.code, 0, "{}", ledger.stderr);
    let plain: serde_json::Value = serde_json::from_str(&plain.stdout).unwrap();
    let ledger: serde_json::Value = serde_json::from_str(&ledger.stdout).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let mut expected = keys(&plain);
    expected.push("ledger".to_string());
    expected.sort();
    let mut got = keys(&ledger);
    got.sort();
    assert_eq!(got, expected);
    for field in ["problem", "n", "solutions", "unique", "complete", "threads"] {
        assert_eq!(ledger[field], plain[field], "{field}");
    }
    let units = cli_plan_units(9);
    assert_eq!(ledger["units"]["done"], units);
    assert_eq!(ledger["units"]["total"], units);
    let details = &ledger["ledger"];
    assert_eq!(details["path"], path.to_str().unwrap());
    assert_eq!(details["shard"], serde_json::Value::Null);
    assert_eq!(details["plan_units"], units);
    assert_eq!(
        (details["resumed"].as_u64(), details["counted"].as_u64()),
        (Some(0), Some(units as u64))
    );
    assert_eq!(details["missing"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn plan_lists_stable_units_heaviest_first() {
    let a = queens(&["plan", "11", "--json"]);
    let b = queens(&["plan", "11", "--json"]);
    assert_eq!(a.stdout, b.stdout, "the plan is deterministic");
    let json: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    let list = json["list"].as_array().unwrap();
    assert_eq!(json["units"], list.len());
    assert_eq!(json["units"], cli_plan_units(11));
    for (i, u) in list.iter().enumerate() {
        assert_eq!(u["id"], i);
    }
    let shard = queens(&["plan", "11", "--shard", "2/5", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&shard.stdout).unwrap();
    assert!(json["list"]
        .as_array()
        .unwrap()
        .iter()
        .all(|u| u["id"].as_u64().unwrap() % 5 == 2));
}

/// Calls `found` with every N-queens solution extending the column list `cols`, by plain
/// recursion (the tests' independent enumerator).
fn extend_plainly(n: usize, cols: &mut Vec<usize>, found: &mut dyn FnMut(&[usize])) {
    let row = cols.len();
    if row == n {
        found(cols);
        return;
    }
    for c in 0..n {
        if cols
            .iter()
            .enumerate()
            .all(|(r, &x)| x != c && x.abs_diff(c) != row - r)
        {
            cols.push(c);
            extend_plainly(n, cols, found);
            cols.pop();
        }
    }
}

/// Solutions extending a fixed first-row column; a solution counts as unique when it equals its
/// canonical form (`queens::board`).
fn first_column_count(n: usize, first: usize) -> UnitCount {
    let mut out = UnitCount::default();
    extend_plainly(n, &mut vec![first], &mut |cols| {
        out.solutions += 1;
        let (canonical, _) = queens::board::canonical_columns(cols);
        out.unique_x8 += 8 * u128::from(canonical == cols);
    });
    out
}

#[test]
fn units_plan_adapts_any_engine_to_ledgers_and_shards() {
    // An independent engine (first-row column units, canonical forms from queens::board) run
    // through the adapter, in 3 shards, merged; and its ledger refused by the two-row plan.
    let dir = scratch("adapter");
    let n = 9u32;
    let plan = UnitsPlan::new(
        n,
        (0..n as usize).collect(),
        |&c| vec![c as u64],
        move |&c| first_column_count(n as usize, c),
    );
    let paths: Vec<PathBuf> = (0..3)
        .map(|i| {
            let path = dir.join(format!("adapter-{i}.ledger"));
            run(&plan, &path, Some(Shard { index: i, count: 3 }), &opts(2)).unwrap();
            path
        })
        .collect();
    let merged = merge_files(&plan, &paths);
    assert!(merged.is_complete(), "{:?}", merged.problems);
    assert_eq!(merged.total, known(n));
    let other = TwoRowPlan::new(n).unwrap();
    let err = run(&other, &paths[0], None, &opts(2)).unwrap_err();
    assert!(err.to_string().contains("another plan of N = 9"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn corrupted_bytes_never_give_a_wrong_count() {
    // 150 ledgers of N = 8, each with one to three bytes changed or cut out: a resumed run either
    // refuses the file (a damaged header) or recounts what it cannot trust and gets the exact
    // value, and merge then agrees.
    let dir = scratch("corrupt");
    let plan = TwoRowPlan::new(8).unwrap();
    let base_path = dir.join("base.ledger");
    run(&plan, &base_path, None, &opts(1)).unwrap();
    let base = std::fs::read(&base_path).unwrap();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |bound: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % bound as u64) as usize
    };
    let (mut refused, mut recounted) = (0, 0);
    for case in 0..150 {
        let mut bytes = base.clone();
        for _ in 0..1 + next(3) {
            let at = next(bytes.len());
            if next(2) == 0 {
                bytes[at] = b"0123456789\",:{}[]-\n\xff abcdef"[next(26)];
            } else {
                let end = (at + 1 + next(30)).min(bytes.len());
                bytes.drain(at..end);
            }
        }
        let path = dir.join(format!("case-{case}.ledger"));
        std::fs::write(&path, &bytes).unwrap();
        match run(&plan, &path, None, &opts(1)) {
            Ok(report) => {
                assert!(report.merged.is_complete(), "case {case}");
                assert_eq!(report.merged.total, known(8), "case {case}");
                recounted += usize::from(report.counted_now > 0);
                let merged = merge_files(&plan, std::slice::from_ref(&path));
                assert!(merged.is_complete(), "case {case}: {:?}", merged.problems);
                assert_eq!(merged.total, known(8), "case {case}");
            }
            Err(LedgerError::Refused(why)) => {
                assert!(why.to_string().contains(":1:"), "case {case}: {why}");
                refused += 1;
            }
            Err(e) => panic!("case {case}: {e}"),
        }
        let _ = std::fs::remove_file(&path);
    }
    assert!(
        refused > 0 && recounted > 100,
        "{refused} refused, {recounted} recounted"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_in_many_k_give_the_same_totals() {
    // Every unit counted once; then every shard I/K, as the plan hands it out in batches, sums
    // to the known count, for the CLI's plans of N = 12..16 and split plans (the cut used from
    // N = 22 on) of smaller boards.
    use queens::scale::counter_plan_split;
    let mut plans: Vec<(u32, Box<dyn WorkPlan>)> =
        (12..=16).map(|n| (n, counter_plan(n).unwrap())).collect();
    for (n, split) in [(12, 1), (12, 2), (13, 2), (14, 1)] {
        plans.push((n, Box::new(counter_plan_split(n, split).unwrap())));
    }
    for (n, plan) in &plans {
        let len = plan.unit_count();
        let counts: Vec<UnitCount> =
            queens::schedule::collect_units(&(0..len).collect::<Vec<u64>>(), &opts(0), |&id, _| {
                Some(plan.count_unit(id))
            })
            .into_iter()
            .map(Option::unwrap)
            .collect();
        for k in [1u64, 2, 3, 16, 97, len + 5] {
            let mut sum = UnitCount::default();
            let mut units = 0;
            for index in 0..k {
                plan.for_each_batch(Some(Shard { index, count: k }), &mut |batch| {
                    for u in batch {
                        assert_eq!(u.id % k, index);
                        sum = sum.checked_add(counts[u.id as usize]).unwrap();
                        units += 1;
                    }
                    true
                });
            }
            assert_eq!(units, len, "N = {n}, K = {k}");
            assert_eq!(sum, known(*n), "N = {n}, K = {k}");
        }
    }
}

#[test]
fn split_plans_run_through_ledgers_and_merge() {
    // The cut of the large boards (constellations split by their next rows' queens) on a
    // small board: shards into ledgers, merged, and a ledger of another cut refused.
    use queens::scale::counter_plan_split;
    let dir = scratch("split");
    let n = 12;
    let plan = counter_plan_split(n, 2).unwrap();
    let paths: Vec<PathBuf> = (0..5)
        .map(|i| {
            let path = dir.join(format!("split-{i}.ledger"));
            let report = run(&plan, &path, Some(Shard { index: i, count: 5 }), &opts(2)).unwrap();
            assert!(report.merged.is_complete());
            path
        })
        .collect();
    let merged = merge_files(&plan, &paths);
    assert!(merged.is_complete(), "{:?}", merged.problems);
    assert_eq!(merged.total, known(n));
    assert_eq!(merged.units_present, plan.unit_count());
    let missing = merge_files(&plan, &paths[1..]);
    assert!(!missing.is_complete());
    assert_eq!(
        missing.missing.iter().map(|(a, b)| b - a + 1).sum::<u64>(),
        Shard { index: 0, count: 5 }.size(plan.unit_count())
    );
    let other = counter_plan_split(n, 1).unwrap();
    let err = run(&other, &paths[0], None, &opts(2)).unwrap_err();
    assert!(err.to_string().contains("another plan of N = 12"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Waits (at most `limit`) until the ledger at `path` holds its header line: the plan is made
/// and the first unit under way.
fn wait_for_header(path: &Path, limit: Duration) {
    let started = std::time::Instant::now();
    while started.elapsed() < limit {
        if std::fs::read_to_string(path).is_ok_and(|t| t.ends_with('\n')) {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("no ledger header in {} after {limit:?}", path.display());
}

/// N = 17 is counted by the join; a cap this small (the join's reserve and 16 MiB of tables)
/// cuts its contexts into batches, so that its plan has many units.
fn small_join_cap() -> String {
    let reserved = queens::count::join_reserved_bytes(17).div_ceil(1 << 20);
    (reserved + 16).to_string()
}

#[test]
fn join_ledgers_resume_after_sigterm_and_time_limits_inside_a_unit() {
    let dir = scratch("join-stop");
    let path = dir.join("join.ledger");
    let ledger = path.to_str().unwrap();
    let cap = small_join_cap();
    // A SIGTERM (a cluster's scheduler at the wall time) during the first unit: the unit in
    // flight is given up within 2 s, nothing half-counted is recorded, exit status 130.
    let child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args([
            "count",
            "17",
            "--threads",
            "1",
            "--memory",
            &cap,
            "--ledger",
            ledger,
            "--json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_header(&path, Duration::from_secs(60));
    let signalled = std::time::Instant::now();
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let stopped_in = signalled.elapsed();
    assert!(
        stopped_in < Duration::from_secs(2),
        "stopped {stopped_in:?} after SIGTERM"
    );
    assert_eq!(out.status.code(), Some(130));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
    let header = std::fs::read_to_string(&path).unwrap();
    assert!(header.contains("\"kernel\":\"join\""), "{header}");
    // A time limit inside a unit: the same.
    let out = queens(&[
        "count",
        "17",
        "--memory",
        &cap,
        "--time-limit",
        "0.05",
        "--ledger",
        ledger,
        "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["complete"], false);
    // The ledger resumes to the exact count (its header keeps the cap: no --memory needed).
    let out = queens(&["count", "17", "--ledger", ledger, "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["complete"], true, "{json}");
    assert_eq!(
        json["solutions"].as_u64().unwrap() as u128,
        known(17).solutions
    );
    assert_eq!(json["unique"].as_u64().unwrap() as u128, known(17).unique());
    assert!(json["units"]["total"].as_u64().unwrap() > 9, "{json}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ledgers_of_different_kernels_are_not_mixed() {
    let dir = scratch("kernels");
    let (dfs, join) = (dir.join("dfs.ledger"), dir.join("join.ledger"));
    let out = Command::new(env!("CARGO_BIN_EXE_queens"))
        .env("QUEENS_KERNEL", "dfs")
        .args(["count", "16", "--ledger", dfs.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(out.status.success());
    let out = queens(&["count", "16", "--ledger", join.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // Each merges alone to the count (an old ledger, without a kernel, is the constellation
    // search's and stays readable).
    for path in [&dfs, &join] {
        let out = queens(&["merge", path.to_str().unwrap()]);
        assert_eq!(out.code, 0, "{}", out.stdout);
        assert!(out
            .stdout
            .starts_with("N = 16: 14772512 solutions, 1846955 unique\n"));
    }
    // Together they are refused, with the reason.
    let out = queens(&["merge", dfs.to_str().unwrap(), join.to_str().unwrap()]);
    assert_eq!(out.code, 1, "{}", out.stdout);
    assert!(
        out.stdout.contains("different kernels cannot be mixed"),
        "{}",
        out.stdout
    );
    // A DFS ledger resumes with its own kernel, whatever the default.
    let out = queens(&["count", "16", "--ledger", dfs.to_str().unwrap(), "--json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_memory_cap_below_one_unit_is_an_error_before_any_work() {
    let dir = scratch("cap");
    let path = dir.join("cap.ledger");
    for args in [
        vec!["count", "18", "--memory", "30"],
        vec![
            "count",
            "18",
            "--memory",
            "30",
            "--ledger",
            path.to_str().unwrap(),
        ],
        vec!["plan", "18", "--memory", "30"],
    ] {
        let out = queens(&args);
        assert_eq!(out.code, 2, "{args:?}: {}", out.stdout);
        assert!(
            out.stderr.contains("too small for N = 18"),
            "{args:?}: {}",
            out.stderr
        );
    }
    assert!(!path.exists(), "no ledger is started");
    let _ = std::fs::remove_dir_all(&dir);
}
