//! Quick placements: an explicit N-queens solution for every N >= 4, and a pairwise-swap local
//! search that improves a placement's cost while keeping it non-attacking.

/// A solution of the N-queens problem for `n >= 4` (column per row), by the classical explicit
/// construction (even columns first, then odd ones, with the fixes for `n mod 6` = 2 or 3).
pub(crate) fn construction(n: usize) -> Vec<u8> {
    debug_assert!(n >= 4);
    // 1-based columns, as the construction is usually stated.
    let evens: Vec<usize> = (1..=n).filter(|c| c % 2 == 0).collect();
    let odds: Vec<usize> = (1..=n).filter(|c| c % 2 == 1).collect();
    let (evens, odds) = match n % 6 {
        2 => {
            // Swap 1 and 3, move 5 to the end.
            let mut o: Vec<usize> = vec![3, 1];
            o.extend(odds.iter().copied().filter(|&c| c > 5));
            o.push(5);
            (evens, o)
        }
        3 => {
            // Move 2 to the end of the evens, 1 and 3 to the end of the odds.
            let mut e: Vec<usize> = evens.iter().copied().filter(|&c| c != 2).collect();
            e.push(2);
            let mut o: Vec<usize> = odds.iter().copied().filter(|&c| c > 3).collect();
            o.extend([1, 3]);
            (e, o)
        }
        _ => (evens, odds),
    };
    evens
        .into_iter()
        .chain(odds)
        .map(|c| (c - 1) as u8)
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{columns_to_squares, MAX_SIDE};
    use crate::verify::n_queens_solution;

    #[test]
    fn construction_solves_every_size() {
        for n in 4..=MAX_SIDE {
            let cols: Vec<usize> = construction(n).iter().map(|&c| c as usize).collect();
            assert_eq!(
                n_queens_solution(n, &columns_to_squares(&cols)),
                Ok(()),
                "n = {n}"
            );
        }
    }

    #[test]
    fn swaps_keep_placements_legal_and_never_worsen() {
        for n in [4usize, 5, 8, 13, 30] {
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
}
