//! Kernel benchmark of the N-queens counter: one thread, N = 10..=12, and the work plan alone.

use queens::count::{count, work_units};
use queens::Options;

fn main() {
    divan::main();
}

/// A whole count on one thread.
#[divan::bench(args = [10, 11, 12, 13])]
fn count_one_thread(n: u32) -> u128 {
    count(divan::black_box(n), &Options::with_threads(1))
        .map(|c| c.solutions)
        .unwrap_or(0)
}

/// Building the work plan (constellations, ordering).
#[divan::bench(args = [12, 16])]
fn plan(n: u32) -> usize {
    work_units(divan::black_box(n)).len()
}
