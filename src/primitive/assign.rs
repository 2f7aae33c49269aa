//! Exact integer assignment (Hungarian method, shortest augmenting paths) on at most
//! [`Lanes::WIDTH`] rows and columns (64 or 128), solved at once ([`Duals::solve`]) or kept
//! incrementally: a search node inherits its parent's duals and matching, loses a few matched
//! pairs, and re-augments only the rows that lost their partner.
//!
//! Costs are minimised. Invariants kept by [`Duals::augment`]: `u[r] + v[c] <= cost(r, c)` on
//! every allowed square of a free row and free column (dual feasibility), and every matched pair
//! is tight (`u[r] + v[c] == cost(r, c)`). Hence `sum u + sum v` over the free rows and columns is
//! a lower bound on the cost of any perfect matching of them on allowed squares, and it equals
//! the optimum once every free row is matched.

use super::lanes::{bits, Lanes};
use std::fmt::Debug;
use std::ops::{Add, Sub};

/// "No partner" in the matching arrays.
pub(crate) const NONE: u8 = u8::MAX;

/// The integer type of costs and duals: `i64` when the weights are small enough, else `i128`.
pub(crate) trait Cost:
    Copy + Ord + Default + Debug + Send + Sync + Add<Output = Self> + Sub<Output = Self> + 'static
{
    /// Converts from `i128`; the caller guarantees that the value fits.
    fn from_i128(x: i128) -> Self;
    /// Widens to `i128`.
    fn to_i128(self) -> i128;
}

impl Cost for i64 {
    fn from_i128(x: i128) -> Self {
        x as i64
    }
    fn to_i128(self) -> i128 {
        self as i128
    }
}

impl Cost for i128 {
    fn from_i128(x: i128) -> Self {
        x
    }
    fn to_i128(self) -> i128 {
        self
    }
}

/// Duals and a (partial) matching between rows and columns.
#[derive(Clone, Debug)]
pub(crate) struct Duals<T: Cost, L: Lanes> {
    /// Row duals.
    pub u: L::Array<T>,
    /// Column duals.
    pub v: L::Array<T>,
    /// Column matched to each row, or [`NONE`].
    pub row_match: L::Array<u8>,
    /// Row matched to each column, or [`NONE`].
    pub col_match: L::Array<u8>,
}

impl<T: Cost, L: Lanes> Duals<T, L> {
    /// Zero duals and an empty matching.
    pub fn empty() -> Self {
        Duals {
            u: L::array(T::default()),
            v: L::array(T::default()),
            row_match: L::array(NONE),
            col_match: L::array(NONE),
        }
    }

    /// Solves the assignment of `rows` to columns from scratch on the `allowed` squares
    /// (`allowed[r]`: the columns row `r` may take). `cost` is row-major with stride `n`.
    /// Returns the optimal cost, or `None` when no perfect matching exists.
    pub fn solve(rows: L, allowed: &L::Array<L>, cost: &[T], n: usize) -> Option<(Self, T)> {
        let mut d = Self::empty();
        for r in bits(rows) {
            let row = &cost[r * n..r * n + n];
            d.u[r] = bits(allowed[r]).map(|c| row[c]).min()?;
        }
        let mut total = T::default();
        for r in bits(rows) {
            total = total + d.u[r];
        }
        for r in bits(rows) {
            total = total + d.augment(r, allowed, cost, n)?;
        }
        Some((d, total))
    }

    /// Matches the unmatched row `start` by a shortest augmenting path in reduced costs,
    /// updating the duals so that the invariants hold. Returns the increase of `sum u + sum v`,
    /// or `None` when no augmenting path exists (then the free rows have no perfect matching on
    /// the allowed squares, and `self` is unchanged).
    pub fn augment(
        &mut self,
        start: usize,
        allowed: &L::Array<L>,
        cost: &[T],
        n: usize,
    ) -> Option<T> {
        self.augment_within(start, allowed, cost, n, None)
    }

    /// [`Duals::augment`], given up (`None`, with `self` left inconsistent: the caller drops
    /// it) as soon as the increase is known to exceed `limit`, where one is given. The search
    /// passes the slack left before a node is pruned, so that a child that would be pruned
    /// after its augmentation is dropped as soon as that is certain.
    pub fn augment_within(
        &mut self,
        start: usize,
        allowed: &L::Array<L>,
        cost: &[T],
        n: usize,
        limit: Option<T>,
    ) -> Option<T> {
        let mut dist = L::array(T::default());
        let mut pred = L::array(0u8);
        let mut reached = allowed[start];
        let mut scanned = L::EMPTY;
        let row = &cost[start * n..start * n + n];
        let us = self.u[start];
        for c in bits(reached) {
            dist[c] = row[c] - us - self.v[c];
            pred[c] = start as u8;
        }
        let sink = loop {
            let mut candidates = reached & !scanned;
            if candidates == L::EMPTY {
                return None;
            }
            let mut j = candidates.lowest();
            candidates = candidates.without_lowest();
            let mut dj = dist[j];
            while candidates != L::EMPTY {
                let c = candidates.lowest();
                candidates = candidates.without_lowest();
                if dist[c] < dj {
                    dj = dist[c];
                    j = c;
                }
            }
            if limit.is_some_and(|limit| dj > limit) {
                return None;
            }
            scanned |= L::bit(j);
            let k = self.col_match[j];
            if k == NONE {
                break j;
            }
            let k = k as usize;
            let rowk = &cost[k * n..k * n + n];
            let base = dj - self.u[k];
            for c in bits(allowed[k] & !scanned) {
                let nd = base + rowk[c] - self.v[c];
                if !reached.has(c) || nd < dist[c] {
                    dist[c] = nd;
                    pred[c] = k as u8;
                    reached |= L::bit(c);
                }
            }
        };
        let delta = dist[sink];
        self.u[start] = self.u[start] + delta;
        for j in bits(scanned & !L::bit(sink)) {
            let k = self.col_match[j] as usize;
            let t = delta - dist[j];
            self.u[k] = self.u[k] + t;
            self.v[j] = self.v[j] - t;
        }
        let mut j = sink;
        loop {
            let k = pred[j] as usize;
            let next = self.row_match[k];
            self.row_match[k] = j as u8;
            self.col_match[j] = k as u8;
            if k == start {
                break;
            }
            j = next as usize;
        }
        Some(delta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(n: usize, allowed: &[u64; 64], cost: &[i64]) -> Option<i64> {
        fn go(r: usize, n: usize, used: u64, allowed: &[u64; 64], cost: &[i64]) -> Option<i64> {
            if r == n {
                return Some(0);
            }
            bits(allowed[r] & !used)
                .filter_map(|c| Some(cost[r * n + c] + go(r + 1, n, used | 1 << c, allowed, cost)?))
                .min()
        }
        go(0, n, 0, allowed, cost)
    }

    #[test]
    fn matches_brute_force_on_small_matrices() {
        let mut seed = 12345u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for trial in 0..400 {
            let n = 1 + trial % 7;
            let cost: Vec<i64> = (0..n * n).map(|_| (next() % 41) as i64 - 20).collect();
            let mut allowed = [0u64; 64];
            for a in allowed.iter_mut().take(n) {
                *a = next() & ((1 << n) - 1);
                if trial % 3 == 0 {
                    *a = (1 << n) - 1;
                }
            }
            let rows = (1u64 << n) - 1;
            let got = Duals::solve(rows, &allowed, &cost, n);
            let want = brute(n, &allowed, &cost);
            assert_eq!(got.as_ref().map(|x| x.1), want, "trial {trial}");
            if let Some((d, total)) = got {
                let mut matched = 0;
                for r in 0..n {
                    let c = d.row_match[r] as usize;
                    assert!(allowed[r] >> c & 1 == 1);
                    assert_eq!(d.u[r] + d.v[c], cost[r * n + c]);
                    matched += cost[r * n + c];
                    for c2 in bits(allowed[r]) {
                        assert!(d.u[r] + d.v[c2] <= cost[r * n + c2]);
                    }
                }
                assert_eq!(matched, total);
            }
        }
    }

    /// Re-augmenting a row after its pair is broken: a limit at or above the increase gives
    /// what [`Duals::augment`] gives, a limit below it gives up.
    #[test]
    fn limited_augmentation_gives_up_exactly_above_its_limit() {
        let mut random = crate::primitive::rng::Xorshift64::new(987_654_321);
        let mut next = move || random.next_u64();
        let mut gave_up = 0;
        for trial in 0..400 {
            let n = 2 + trial % 9;
            let cost: Vec<i64> = (0..n * n).map(|_| (next() % 97) as i64).collect();
            let mut allowed = [0u64; 64];
            for a in allowed.iter_mut().take(n) {
                *a = (1 << n) - 1;
            }
            let rows = (1u64 << n) - 1;
            let (mut d, _) = Duals::solve(rows, &allowed, &cost, n).expect("full rows match");
            // Forbid one matched square and re-augment its row, as a search child does.
            let r = (next() % n as u64) as usize;
            let c = d.row_match[r] as usize;
            allowed[r] &= !(1 << c);
            d.row_match[r] = NONE;
            d.col_match[c] = NONE;
            let mut plain = d.clone();
            let delta = plain
                .augment(r, &allowed, &cost, n)
                .expect("n >= 2 re-matches");
            let mut exact = d.clone();
            assert_eq!(
                exact.augment_within(r, &allowed, &cost, n, Some(delta)),
                Some(delta),
                "trial {trial}"
            );
            assert_eq!(exact.row_match, plain.row_match);
            if delta > 0 {
                let mut short = d.clone();
                assert_eq!(
                    short.augment_within(r, &allowed, &cost, n, Some(delta - 1)),
                    None,
                    "trial {trial}"
                );
                gave_up += 1;
            }
        }
        assert!(
            gave_up > 100,
            "only {gave_up} augmentations raised the bound"
        );
    }
}
