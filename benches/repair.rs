//! Speed of `repair::solve` (the true minimum) and of the LightOJ 1061 judge (the relaxed
//! count). Boards come from a fixed-seed generator, so every run measures the same work.
//! `cargo bench --bench repair`; bench/repair.sh compares with the peers.

use queens::board::Square;
use queens::judge::{self, JudgeProblem};
use queens::repair::{self, Position};
use queens::Options;
use std::sync::atomic::{AtomicUsize, Ordering};

fn main() {
    divan::main();
}

struct Rng(u64);

impl Rng {
    fn below(&mut self, k: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % k as u64) as usize
    }

    fn position(&mut self, n: usize) -> Position {
        let mut cells: Vec<usize> = (0..n * n).collect();
        for i in 0..n {
            let j = i + self.below(n * n - i);
            cells.swap(i, j);
        }
        let mut queens: Vec<Square> = cells[..n]
            .iter()
            .map(|&k| Square::new(k / n, k % n))
            .collect();
        queens.sort();
        Position { n, queens }
    }
}

fn boards(n: usize, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    (0..count).map(|_| rng.position(n)).collect()
}

fn judge_input(count: usize) -> String {
    let mut text = format!("{count}\n");
    for p in boards(8, count, 1061) {
        text.push('\n');
        text.push_str(&queens::format::repair::board_text(8, &p.queens).replace('Q', "q"));
    }
    text
}

/// The whole 200-board judge input, parsing and printing included.
#[divan::bench]
fn judge_lightoj1061_200_boards(bencher: divan::Bencher) {
    let text = judge_input(200);
    bencher.bench(|| {
        let mut out = Vec::with_capacity(4096);
        judge::run(
            JudgeProblem::LightOj1061,
            divan::black_box(&text),
            &mut out,
            &Options::default(),
        )
        .unwrap();
        out
    });
}

/// The true minimum on one random 8x8 board per sample (the slowest sample is the slowest
/// board of the 2,000).
#[divan::bench(sample_count = 2000, sample_size = 1)]
fn plan_8x8_one_random_board(bencher: divan::Bencher) {
    let all = boards(8, 2000, 8);
    let next = AtomicUsize::new(0);
    bencher
        .with_inputs(|| {
            let i = next.fetch_add(1, Ordering::Relaxed) % all.len();
            all[i].clone()
        })
        .bench_refs(|p| repair::solve(p, &Options::default()).unwrap());
}

/// The 8x8 example, where blocking forces one move more than the relaxed count.
#[divan::bench]
fn plan_8x8_blocked_example(bencher: divan::Bencher) {
    let p = queens::format::parse_position(
        "........\n.....q..\n.q......\n........\n....q...\nq.......\n......qq\n...q...q\n",
    )
    .unwrap();
    bencher.bench(|| repair::solve(divan::black_box(&p), &Options::default()).unwrap());
}

/// The true minimum on random 16x16 boards (one board per sample, 10 boards).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn plan_16x16_random(bencher: divan::Bencher) {
    let all = boards(16, 10, 16);
    let next = AtomicUsize::new(0);
    bencher
        .with_inputs(|| {
            let i = next.fetch_add(1, Ordering::Relaxed) % all.len();
            all[i].clone()
        })
        .bench_refs(|p| repair::solve(p, &Options::default()).unwrap());
}

/// A solved 32x32 board (the classical construction) with three queens moved.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn plan_32x32_three_moved(bencher: divan::Bencher) {
    // Columns of the construction for n = 32 (n mod 6 = 2): evens, then odds with 1 and 3
    // swapped and 5 moved to the end (1-based).
    let mut cols: Vec<usize> = (2..=32).step_by(2).collect();
    let mut odds: Vec<usize> = (1..=31).step_by(2).collect();
    odds.swap(0, 1);
    odds.retain(|&c| c != 5);
    odds.push(5);
    cols.extend(odds);
    let mut queens: Vec<Square> = cols
        .iter()
        .enumerate()
        .map(|(r, &c)| Square::new(r, c - 1))
        .collect();
    queens[3] = Square::new(30, 11);
    queens[17] = Square::new(0, 0);
    queens[25] = Square::new(12, 20);
    queens.sort();
    let p = Position { n: 32, queens };
    bencher.bench(|| repair::solve(divan::black_box(&p), &Options::default()).unwrap());
}
