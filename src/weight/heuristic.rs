//! Quick placements: a pairwise-swap local search and an annealing walk that improve a
//! placement's cost while keeping it non-attacking (the start is [`crate::board::construction`]).

use crate::primitive::rng::Xorshift64;

/// Improves `cols` (a non-attacking placement, column per row) by exchanging the columns of two
/// rows while that lowers the total of `cost(row, col)` and keeps the queens non-attacking.
/// Stops at a local optimum or after `max_passes` passes over all pairs.
pub(crate) fn swap_descent(
    cols: &mut [u8],
    cost: impl Fn(usize, usize) -> i128,
    max_passes: usize,
) {
    let n = cols.len();
    let mut diag = vec![0u8; 2 * n];
    let mut anti = vec![0u8; 2 * n];
    for (r, &c) in cols.iter().enumerate() {
        diag[c as usize + n - 1 - r] += 1;
        anti[r + c as usize] += 1;
    }
    for _ in 0..max_passes {
        let mut improved = false;
        for i in 0..n {
            for j in i + 1..n {
                let (ci, cj) = (cols[i] as usize, cols[j] as usize);
                let delta = cost(i, cj) + cost(j, ci) - cost(i, ci) - cost(j, cj);
                if delta >= 0 {
                    continue;
                }
                diag[ci + n - 1 - i] -= 1;
                anti[i + ci] -= 1;
                diag[cj + n - 1 - j] -= 1;
                anti[j + cj] -= 1;
                let (a1, a2) = (cj + n - 1 - i, i + cj);
                let (b1, b2) = (ci + n - 1 - j, j + ci);
                let ok = diag[a1] == 0
                    && anti[a2] == 0
                    && diag[b1] == 0
                    && anti[b2] == 0
                    && a1 != b1
                    && a2 != b2;
                let (ki, kj) = if ok { (cj, ci) } else { (ci, cj) };
                diag[ki + n - 1 - i] += 1;
                anti[i + ki] += 1;
                diag[kj + n - 1 - j] += 1;
                anti[j + kj] += 1;
                if ok {
                    cols[i] = ki as u8;
                    cols[j] = kj as u8;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
}

/// Queens on diagonals, with the number of clashes (queens beyond the first on a diagonal).
struct DiagonalLoad {
    n: usize,
    diag: Vec<u32>,
    anti: Vec<u32>,
    clashes: i64,
}

impl DiagonalLoad {
    fn new(cols: &[u8]) -> Self {
        let n = cols.len();
        let mut load = DiagonalLoad {
            n,
            diag: vec![0; 2 * n],
            anti: vec![0; 2 * n],
            clashes: 0,
        };
        for (r, &c) in cols.iter().enumerate() {
            load.add(r, c as usize);
        }
        load
    }

    #[inline]
    fn add(&mut self, r: usize, c: usize) {
        let (d, a) = (c + self.n - 1 - r, r + c);
        self.clashes += i64::from(self.diag[d] > 0) + i64::from(self.anti[a] > 0);
        self.diag[d] += 1;
        self.anti[a] += 1;
    }

    #[inline]
    fn remove(&mut self, r: usize, c: usize) {
        let (d, a) = (c + self.n - 1 - r, r + c);
        self.diag[d] -= 1;
        self.anti[a] -= 1;
        self.clashes -= i64::from(self.diag[d] > 0) + i64::from(self.anti[a] > 0);
    }
}

fn exchange(state: &mut [u8], load: &mut DiagonalLoad, i: usize, j: usize) {
    let (ci, cj) = (state[i] as usize, state[j] as usize);
    load.remove(i, ci);
    load.remove(j, cj);
    load.add(i, cj);
    load.add(j, ci);
    state[i] = cj as u8;
    state[j] = ci as u8;
}

/// Simulated annealing over permutations (moves: exchange the columns of two rows), with
/// diagonal clashes penalised, in a few rounds that each restart from the best placement so far
/// and end with a clash repair and [`swap_descent`]. `cols` (non-attacking) is replaced by the
/// best non-attacking placement met, never a worse one. Deterministic for a given `seed`.
pub(crate) fn anneal(cols: &mut [u8], cost: &[i128], moves: u64, seed: u64) {
    const ROUNDS: u64 = 4;
    let n = cols.len();
    if n < 4 || moves == 0 {
        return;
    }
    let value = |state: &[u8]| -> i128 {
        state
            .iter()
            .enumerate()
            .map(|(r, &c)| cost[r * n + c as usize])
            .sum()
    };
    let as_f64: Vec<f64> = cost.iter().map(|&c| c as f64).collect();
    let mean = (as_f64.iter().sum::<f64>() / as_f64.len() as f64).max(1.0);
    let mut random = Xorshift64::new(seed | 1);
    let mut best = value(cols);
    for round in 0..ROUNDS {
        let mut state = cols.to_vec();
        let mut load = DiagonalLoad::new(&state);
        let steps = moves / ROUNDS;
        let hot = mean * 0.3 / (1 + round) as f64;
        let cold = mean * 0.005;
        let cooling = (cold / hot).powf(1.0 / steps.max(1) as f64);
        let (low_penalty, high_penalty) = (0.2 * mean, 3.0 * mean);
        let ramp = (high_penalty / low_penalty).powf(1.0 / steps.max(1) as f64);
        let (mut temperature, mut penalty) = (hot, low_penalty);
        let mut current = value(&state);
        for _ in 0..steps {
            temperature *= cooling;
            penalty *= ramp;
            let i = random.below(n);
            let j = random.below(n - 1);
            let j = if j >= i { j + 1 } else { j };
            let (ci, cj) = (state[i] as usize, state[j] as usize);
            let before = load.clashes;
            exchange(&mut state, &mut load, i, j);
            let change = cost[i * n + cj] + cost[j * n + ci] - cost[i * n + ci] - cost[j * n + cj];
            let delta = change as f64 + penalty * (load.clashes - before) as f64;
            if delta <= 0.0 || random.unit() < (-delta / temperature).exp() {
                current += change;
                if load.clashes == 0 && current < best {
                    best = current;
                    cols.copy_from_slice(&state);
                }
            } else {
                exchange(&mut state, &mut load, i, j);
            }
        }
        // Remove the last clashes: exchange a clashing row with the row that leaves the fewest
        // clashes (then the least cost), accepting sideways steps.
        for _ in 0..20 * n {
            if load.clashes == 0 {
                break;
            }
            let clashing: Vec<usize> = (0..n)
                .filter(|&r| {
                    let c = state[r] as usize;
                    load.diag[c + n - 1 - r] > 1 || load.anti[r + c] > 1
                })
                .collect();
            let i = clashing[random.below(clashing.len())];
            let mut choice: Option<(i64, i128, u64, usize)> = None;
            for j in (0..n).filter(|&j| j != i) {
                let (ci, cj) = (state[i] as usize, state[j] as usize);
                exchange(&mut state, &mut load, i, j);
                let key = (
                    load.clashes,
                    cost[i * n + cj] + cost[j * n + ci] - cost[i * n + ci] - cost[j * n + cj],
                    random.next_u64(),
                    j,
                );
                exchange(&mut state, &mut load, i, j);
                if choice.is_none_or(|c| (key.0, key.1, key.2) < (c.0, c.1, c.2)) {
                    choice = Some(key);
                }
            }
            if let Some((clashes, _, _, j)) = choice {
                if clashes <= load.clashes {
                    exchange(&mut state, &mut load, i, j);
                }
            }
        }
        if load.clashes == 0 {
            swap_descent(&mut state, |r, c| cost[r * n + c], 64);
            let v = value(&state);
            if v < best {
                best = v;
                cols.copy_from_slice(&state);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::columns_to_squares;
    use crate::verify::n_queens_solution;

    /// The board's construction, one byte per row.
    fn construction(n: usize) -> Vec<u8> {
        let cols = crate::board::construction(n).unwrap();
        cols.into_iter().map(|c| c as u8).collect()
    }

    #[test]
    fn swaps_keep_placements_legal_and_never_worsen() {
        for n in [4usize, 5, 8, 13, 30, 100, 128] {
            let mut cols = construction(n);
            let w = |r: usize, c: usize| ((r * 7919 + c * 104729) % 97) as i128;
            let before: i128 = cols
                .iter()
                .enumerate()
                .map(|(r, &c)| w(r, c as usize))
                .sum();
            swap_descent(&mut cols, w, 50);
            let after: i128 = cols
                .iter()
                .enumerate()
                .map(|(r, &c)| w(r, c as usize))
                .sum();
            assert!(after <= before);
            let cols: Vec<usize> = cols.iter().map(|&c| c as usize).collect();
            assert_eq!(n_queens_solution(n, &columns_to_squares(&cols)), Ok(()));
        }
    }

    #[test]
    fn annealing_keeps_placements_legal_never_worsens_and_repeats() {
        for n in [4usize, 6, 9, 17, 40, 101] {
            let cost: Vec<i128> = (0..n * n)
                .map(|i| ((i * 2654435761) % 101) as i128)
                .collect();
            let total = |cols: &[u8]| -> i128 {
                cols.iter()
                    .enumerate()
                    .map(|(r, &c)| cost[r * n + c as usize])
                    .sum()
            };
            let start = construction(n);
            let mut a = start.clone();
            anneal(&mut a, &cost, 2_000 * n as u64, 7);
            let mut b = start.clone();
            anneal(&mut b, &cost, 2_000 * n as u64, 7);
            assert_eq!(a, b, "same seed, same result");
            assert!(total(&a) <= total(&start));
            let cols: Vec<usize> = a.iter().map(|&c| c as usize).collect();
            assert_eq!(
                n_queens_solution(n, &columns_to_squares(&cols)),
                Ok(()),
                "n = {n}"
            );
        }
    }
}
