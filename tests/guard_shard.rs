//! The sharded guard refutation: "k queens cannot guard this board" cut into units that go
//! through the same plans, ledgers, shards and `merge` as a count. Checked against the known
//! domination numbers (OEIS A075458, A274138, A299029 in tests/support): one queen fewer than
//! the known value is refuted by every unit, the known value is found by some unit with a cover
//! that `verify` accepts, whatever the depth and the number of shards.
//! Whole file: a few seconds with `cargo test --release`.

mod support;

use queens::guard::{MarkGrid, Rule};
use queens::scale::{
    contents_in_memory, merge, read_contents, run, GuardJob, GuardPlan, Job, Shard, UnitCount,
    WorkPlan,
};
use queens::Options;
use std::path::PathBuf;
use support::{queens, scratch, A075458, A274138_TO_13, A299029_TO_13};

/// All units of `plan` searched in memory, then merged: (complete, covers, first unit with one).
fn settle(plan: &dyn WorkPlan) -> (bool, u128, Option<u64>) {
    let results: Vec<(u64, UnitCount)> = (0..plan.unit_count())
        .map(|id| (id, plan.count_unit(id)))
        .collect();
    let contents = contents_in_memory(plan, &results);
    let report = merge(plan, None, &[("memory".to_string(), contents)]);
    (
        report.is_complete(),
        report.total.solutions,
        report.first_hit,
    )
}

fn check_board(rows: usize, cols: usize, rule: Rule, gamma: usize, depths: &[usize]) {
    let marks = MarkGrid::full(rows, cols);
    for &depth in depths {
        if gamma > 1 {
            let plan = GuardPlan::new(&marks, rule, gamma - 1, Some(depth)).unwrap();
            assert_eq!(
                settle(&plan),
                (true, 0, None),
                "{rows}x{cols} {rule:?}: {} queens refuted at depth {depth}",
                gamma - 1
            );
        }
        let plan = GuardPlan::new(&marks, rule, gamma, Some(depth)).unwrap();
        let (complete, covers, first) = settle(&plan);
        assert!(
            complete && covers >= 1,
            "{rows}x{cols} {rule:?} depth {depth}"
        );
        let cover = plan.witness(first.unwrap()).expect("the unit's cover");
        assert!(cover.len() <= gamma);
        let verdict = match rule {
            Rule::Any => queens::verify::guard(&marks, &cover),
            _ => queens::verify::independent_guard(&marks, &cover),
        };
        assert!(verdict.is_ok(), "{rows}x{cols}: {cover:?}");
    }
}

#[test]
fn units_settle_the_known_square_values() {
    for n in 1..=10 {
        check_board(n, n, Rule::Any, A075458[n - 1], &[1, 2, 3]);
    }
}

#[test]
fn units_settle_the_known_rectangles_under_both_rules() {
    for &(n, m, gamma) in A274138_TO_13.iter().filter(|&&(n, _, _)| n <= 9) {
        check_board(m, n, Rule::Any, gamma, &[2]);
    }
    for &(n, m, gamma) in A299029_TO_13.iter().filter(|&&(n, _, _)| n <= 9) {
        check_board(n, m, Rule::Independent, gamma, &[1, 3]);
    }
}

/// Shards run into one ledger each (library `run`), merged: the same verdict for every K, the
/// records of a shard run twice agree, and a resumed run searches nothing again.
#[test]
fn shards_merge_to_the_verdict() {
    let dir = scratch("guard-shards");
    let marks = MarkGrid::full(9, 9);
    let plan = GuardPlan::new(&marks, Rule::Any, 4, Some(3)).unwrap();
    let options = Options::with_threads(2);
    for k in [1u64, 2, 3, 7] {
        let mut files = Vec::new();
        for i in 0..k {
            let path = dir.join(format!("k{k}-s{i}.ledger"));
            let shard = Shard { index: i, count: k };
            let report = run(&plan, &path, Some(shard), &options).unwrap();
            assert!(report.merged.is_complete());
            assert_eq!(report.merged.total.solutions, 0);
            let again = run(&plan, &path, Some(shard), &options).unwrap();
            assert_eq!(again.counted_now, 0);
            assert_eq!(again.done_before, report.counted_now);
            files.push(path);
        }
        let read: Vec<(String, _)> = files
            .iter()
            .map(|p| {
                let bytes = std::fs::read(p).unwrap();
                (p.display().to_string(), read_contents(&bytes))
            })
            .collect();
        let report = merge(&plan, None, &read);
        assert!(report.is_complete(), "K = {k}: {:?}", report.problems);
        assert_eq!(report.total.solutions, 0);
        assert!(report.total.unique_x8 > 0, "search nodes add up");
        if k > 1 {
            let report = merge(&plan, None, &read[1..]);
            assert!(!report.is_complete());
            assert_eq!(
                report.units_present,
                plan.unit_count() - Shard { index: 0, count: k }.size(plan.unit_count())
            );
        }
    }
}

fn ledger(dir: &std::path::Path, name: &str) -> String {
    dir.join(name).display().to_string()
}

#[test]
fn cli_plans_runs_and_merges_a_refutation() {
    let dir = scratch("guard-cli");
    let plan = queens(&["plan", "guard", "--full", "8", "--queens", "4", "--summary"]);
    assert_eq!(plan.code, 0, "{}", plan.stderr);
    assert!(
        plan.stdout.starts_with("4 guards on 8x8 (depth 1): "),
        "{}",
        plan.stdout
    );
    let listed = queens(&[
        "plan", "guard", "--full", "8", "--queens", "4", "--depth", "2",
    ]);
    let units = listed.stdout.lines().count() - 2;
    let json = queens(&[
        "plan",
        "guard",
        "--full",
        "8",
        "--queens",
        "4",
        "--depth",
        "2",
        "--json",
        "--summary",
    ]);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["units"].as_u64(), Some(units as u64));
    assert_eq!(value["guard"]["guards"].as_u64(), Some(4));

    let names: Vec<String> = (0..3)
        .map(|i| ledger(&dir, &format!("s{i}.ledger")))
        .collect();
    for (i, name) in names.iter().enumerate() {
        let shard = format!("{i}/3");
        let out = queens(&[
            "guard", "--full", "8", "--queens", "4", "--depth", "2", "--ledger", name, "--shard",
            &shard, "-j", "1",
        ]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.contains("units refuted"), "{}", out.stdout);
    }
    let merged = queens(&["merge", &names[0], &names[1], &names[2]]);
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(
        merged
            .stdout
            .contains("proven: 4 queens cannot guard the 8x8 board")
            && merged.stdout.contains("at least 5 are needed"),
        "{}",
        merged.stdout
    );
    let json = queens(&["merge", "--json", &names[0], &names[1], &names[2]]);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(value["verdict"], "refuted");
    assert_eq!(value["lower_bound"].as_u64(), Some(5));
    assert_eq!(value["guards"].as_u64(), Some(4));
    // A shard forgotten: no verdict, exit 1, the shard named.
    let partial = queens(&["merge", &names[0], &names[2]]);
    assert_eq!(partial.code, 1);
    assert!(partial.stdout.contains("no verdict yet") && partial.stdout.contains("shard 1/3"));
    // A count's ledger is not a guard refutation's, nor one of another cut.
    let count = ledger(&dir, "count.ledger");
    assert_eq!(queens(&["count", "8", "--ledger", &count]).code, 0);
    let refused = queens(&["guard", "--full", "8", "--queens", "4", "--ledger", &count]);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("not 4 guards on 8x8"),
        "{}",
        refused.stderr
    );
    let other_cut = queens(&[
        "guard", "--full", "8", "--queens", "4", "--depth", "3", "--ledger", &names[0],
    ]);
    assert_eq!(other_cut.code, 2);
    let count_again = queens(&["count", "8", "--ledger", &names[0]]);
    assert_eq!(count_again.code, 2);
    // A changed record is caught.
    let text = std::fs::read_to_string(&names[1]).unwrap();
    let forged = text.replacen("\"covers\":\"0\"", "\"covers\":\"1\"", 1);
    assert_ne!(forged, text);
    let forged_path = ledger(&dir, "forged.ledger");
    std::fs::write(&forged_path, forged).unwrap();
    let caught = queens(&["merge", &names[0], &forged_path, &names[2]]);
    assert_eq!(caught.code, 1);
    assert!(caught.stdout.contains("ignored"), "{}", caught.stdout);
    // Bad usage.
    assert_eq!(queens(&["guard", "--full", "8", "--queens", "4"]).code, 2);
    assert_eq!(
        queens(&["guard", "--full", "8", "--ledger", &ledger(&dir, "x")]).code,
        2
    );
    assert_eq!(
        queens(&["plan", "guard", "--full", "8", "--queens", "4", "--depth", "40"]).code,
        2
    );
}

#[test]
fn cli_reports_a_cover_with_its_witness() {
    let dir = scratch("guard-cover");
    let name = ledger(&dir, "c.ledger");
    let out = queens(&[
        "guard", "--full", "7x9", "--queens", "5", "--ledger", &name, "--json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let value: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(value["problem"], "guard_refutation");
    assert_eq!(value["verdict"], "cover");
    let cover: Vec<queens::board::Square> = value["cover"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            queens::board::Square::new(
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    assert!(cover.len() <= 5);
    assert!(queens::verify::guard(&MarkGrid::full(7, 9), &cover).is_ok());
    let merged = queens(&["merge", &name]);
    assert_eq!(merged.code, 0);
    assert!(
        merged.stdout.contains("5 queens can guard the 7x9 board"),
        "{}",
        merged.stdout
    );
    // The header names the job, so merge rebuilds the plan by itself.
    let header = std::fs::read_to_string(PathBuf::from(&name)).unwrap();
    let first = header.lines().next().unwrap();
    assert!(
        first.contains("\"job\":\"guard\"") && first.contains("\"cols\":9"),
        "{first}"
    );
    let job = GuardJob {
        rows: 7,
        cols: 9,
        queens: 5,
        independent: false,
        depth: queens::guard::units::default_depth(5) as u32,
    };
    assert_eq!(GuardPlan::full(job).unwrap().job(), Job::Guard(job));
}
