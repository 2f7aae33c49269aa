//! Measurements, not checks: ignored tests that time the guard search on chosen boards (run
//! them with `cargo test --release --lib guard::measure -- --ignored --nocapture`). They live
//! apart from the search so its files hold only the search and its checks.

#![cfg(test)]

use super::local;
use super::search::{Board, Level};
use super::witness::symmetric_cover;
use super::witness::tests::witness;
use crate::board::Square;
use crate::problem::MarkGrid;
use crate::Deadline;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn cpu_seconds() -> f64 {
    crate::schedule::cpu_seconds().unwrap_or(0.0)
}

fn run<const K: usize>(rows: usize, cols: usize, k: usize, independent: bool) {
    let board = Board::<K>::new(rows, cols, &vec![true; rows * cols], independent);
    let nodes = AtomicU64::new(0);
    let start = cpu_seconds();
    let verdict = match board.level(k, &Deadline::never(), &nodes) {
        Level::Found(q) => format!("found {}", q.len()),
        Level::Infeasible => "refuted".to_string(),
        Level::Stopped => "stopped".to_string(),
    };
    println!(
        "probe {rows}x{cols} k={k} independent={independent}: {verdict}, {} nodes, {:.2} CPU s",
        nodes.load(Ordering::Relaxed),
        cpu_seconds() - start
    );
}

/// Measuring aid, not a check: `GUARD_PROBE="16x14:8,15x15:8" cargo test --release --lib
/// probe_levels -- --ignored --nocapture` runs the exact search for one level of each full
/// board on one thread and prints the verdict, the nodes and the CPU seconds (user + sys of
/// the process, Linux). `GUARD_PROBE_INDEPENDENT=1` for the independent rule.
#[test]
#[ignore]
fn probe_levels() {
    let spec = std::env::var("GUARD_PROBE").unwrap_or_default();
    let independent = std::env::var("GUARD_PROBE_INDEPENDENT").is_ok();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    for item in spec.split(',').filter(|s| !s.is_empty()) {
        let (size, k) = item.split_once(':').expect("RxC:K");
        let (rows, cols) = size.split_once('x').expect("RxC");
        let (rows, cols, k): (usize, usize, usize) = (
            rows.parse().unwrap(),
            cols.parse().unwrap(),
            k.parse().unwrap(),
        );
        pool.install(|| match (rows * cols).div_ceil(64) {
            1 => run::<1>(rows, cols, k, independent),
            2 => run::<2>(rows, cols, k, independent),
            3 => run::<3>(rows, cols, k, independent),
            4 => run::<4>(rows, cols, k, independent),
            5..=6 => run::<6>(rows, cols, k, independent),
            _ => run::<8>(rows, cols, k, independent),
        });
    }
}

/// The moonshot: a 13-queen cover of the 26 x 26 board would settle gamma(Q_26) = 13. On a
/// board of even side only a group with fixed squares allows an odd number of queens, and
/// of the subgroups of the board symmetries only the two diagonal mirrors have them (the
/// two are conjugate, so one is searched). With `--ignored --nocapture`; `MOONSHOT_SECONDS`
/// (default 60) bounds the symmetric search and, separately, the local search. Reports
/// what was searched; asserts only that what it found is a cover.
#[test]
#[ignore]
fn moonshot_26() {
    let seconds: u64 = std::env::var("MOONSHOT_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    let (n, target) = (26, 13);
    let marks = MarkGrid::full(n, n);
    let board = Board::<16>::new(n, n, &marks.marked, false);
    let identity: Vec<u32> = (0..(n * n) as u32).collect();
    let transpose: Vec<u32> = (0..n * n).map(|s| ((s % n) * n + s / n) as u32).collect();
    let (name, group) = ("diagonal mirror", vec![identity, transpose]);
    {
        let started = Instant::now();
        let mut stats = (0, false);
        let end = started + Duration::from_secs(seconds);
        let found = symmetric_cover(
            &board,
            &group,
            target,
            &Deadline::never(),
            end,
            Some(&mut stats),
        );
        eprintln!(
            "moonshot n = 26, {target} queens, {name}: {:?} queens, {} nodes, {:.1} s, {}",
            found.as_ref().map(Vec::len),
            stats.0,
            started.elapsed().as_secs_f64(),
            if stats.1 {
                "exhaustive"
            } else {
                "stopped by the clock"
            }
        );
        if let Some(queens) = found {
            let squares: Vec<Square> = queens.iter().map(|&s| Square::new(s / n, s % n)).collect();
            crate::verify::guard(&marks, &squares).unwrap();
            eprintln!("moonshot witness: {squares:?}");
        }
    }
    let started = Instant::now();
    let greedy = board.greedy();
    let end = started + Duration::from_secs(seconds);
    let best = local::improve(
        &board,
        &greedy,
        target,
        &Deadline::never(),
        Some(end),
        u64::MAX,
    );
    let squares: Vec<Square> = best.iter().map(|&s| Square::new(s / n, s % n)).collect();
    crate::verify::guard(&marks, &squares).unwrap();
    eprintln!(
        "moonshot n = 26, local search from greedy ({} queens): {} queens in {:.1} s",
        greedy.len(),
        best.len(),
        started.elapsed().as_secs_f64()
    );
}

/// A075458 for n = 13..=25: a witness of the known value for each (with `--ignored
/// --nocapture`: the time and the method of each).
#[test]
#[ignore]
fn witnesses_of_a075458_13_to_25() {
    const GAMMA: [usize; 13] = [7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13];
    for (i, &gamma) in GAMMA.iter().enumerate() {
        witness(13 + i, gamma, false);
    }
}
