//! The best-sum kernel on random grids (weights 1..99, fixed seeds): one thread, and all cores.
//! Run with `cargo bench --bench weight`.

use queens::weight::{best, WeightGrid};
use queens::Options;

fn main() {
    divan::main();
}

/// A grid of weights 1..=99 from a fixed xorshift seed.
fn grid(n: usize, seed: u64) -> WeightGrid {
    let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let cells = (0..n * n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 99) as i64 + 1
        })
        .collect();
    WeightGrid { n, cells }
}

#[divan::bench(args = [8, 12, 14, 16])]
fn one_thread(bencher: divan::Bencher, n: usize) {
    let g = grid(n, n as u64);
    let options = Options::with_threads(1);
    bencher.bench(|| best(divan::black_box(&g), &options).unwrap().sum);
}

#[divan::bench(args = [16, 18], sample_count = 10)]
fn all_threads(bencher: divan::Bencher, n: usize) {
    let g = grid(n, n as u64);
    let options = Options::default();
    bencher.bench(|| best(divan::black_box(&g), &options).unwrap().sum);
}
