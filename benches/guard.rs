//! Fewest guards: full boards (the queen domination and independent domination numbers) and
//! UVa-size boards with marks, each solved to a proven optimum on one thread.

use queens::guard::{solve, MarkGrid, Rule};
use queens::Options;

fn main() {
    divan::main();
}

/// `gamma(Q_n)` proven: the search for n - 1 queens must fail everywhere.
#[divan::bench(args = [8, 10, 11, 12, 13], sample_count = 10)]
fn full_board(n: usize) -> usize {
    let marks = MarkGrid::full(n, n);
    let placement = solve(&marks, Rule::Any, &Options::with_threads(1)).unwrap();
    assert!(placement.optimal);
    placement.queens.len()
}

/// The independent domination number of the full board, proven.
#[divan::bench(args = [8, 10, 12, 13], sample_count = 10)]
fn full_board_independent(n: usize) -> usize {
    let marks = MarkGrid::full(n, n);
    let placement = solve(&marks, Rule::Independent, &Options::with_threads(1)).unwrap();
    assert!(placement.optimal);
    placement.queens.len()
}

/// Fifteen 9 x 9 boards with pseudo-random marks (one UVa 11214 input at its largest).
#[divan::bench(sample_count = 20)]
fn uva_size_boards(bencher: divan::Bencher) {
    let mut state = 0x0001_1214_u64;
    let boards: Vec<MarkGrid> = (0..15)
        .map(|i| {
            let marked = (0..81)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state % 10 < 3 + i % 7
                })
                .collect();
            MarkGrid {
                rows: 9,
                cols: 9,
                marked,
            }
        })
        .collect();
    bencher.bench(|| {
        boards
            .iter()
            .map(|b| {
                solve(b, Rule::Any, &Options::with_threads(1))
                    .unwrap()
                    .queens
                    .len()
            })
            .sum::<usize>()
    });
}
