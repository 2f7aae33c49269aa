//! The Rust side of the calling-overhead measurement (python/bench/weight_calls.py is the
//! Python side): solves the same 10,000 random 8 x 8 weight grids with the library directly
//! and prints the time per solve.
//!
//! `cargo run --release --example weight_calls -- [COUNT] [THREADS] [N]`

use queens::weight::{best, WeightGrid};
use queens::Options;
use std::time::Instant;

/// The grids both sides solve: `n x n`, weights 1..=99 from a 64-bit LCG seeded with 1 (the
/// same formula as the Python side's).
fn grids(count: usize, n: usize) -> Vec<WeightGrid> {
    let mut x: u64 = 1;
    (0..count)
        .map(|_| WeightGrid {
            n,
            cells: (0..n * n)
                .map(|_| {
                    x = x
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((x >> 33) % 99 + 1) as i64
                })
                .collect(),
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10_000);
    let threads: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(0);
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let grids = grids(count, n);
    let options = Options::with_threads(threads);
    let cpu = cpu_seconds();
    let started = Instant::now();
    let mut total: i128 = 0;
    for grid in &grids {
        total += best(grid, &options)
            .expect("an 8 x 8 grid has a placement")
            .sum;
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu;
    println!(
        "rust: {count} solves of {n}x{n}, threads {threads}: wall {wall:.4} s ({:.1} us/solve), cpu {cpu:.4} s ({:.1} us/solve), sum of sums {total}",
        wall * 1e6 / count as f64,
        cpu * 1e6 / count as f64
    );
}

/// User + system CPU seconds of this process so far (all threads), from /proc.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(vec![], |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    (ticks(11) + ticks(12)) / 100.0
}
