//! Which queens can stay: the attack graph of the queens and its independent sets.
//!
//! The queens that stay on a target solution attack no one another, so at most `alpha` of them
//! stay, `alpha` the size of a largest independent set of the attack graph (queens joined when
//! they share a line), and every other queen moves at least once: the relaxed value is at least
//! `n - alpha`. During the search for a target the same count over the queens still free to stay
//! bounds every branch.
//!
//! Independent sets are found by branch and bound over 64-bit vertex sets: vertices of degree 0
//! or 1 are taken at once (some largest set contains them), the others are branched on by
//! largest degree, and a greedy partition into cliques (each clique holds at most one vertex of
//! an independent set) bounds each branch.

use super::square::{lines_meet, Sq};

/// The attack graph: bit `j` of entry `i` is set when queens `i` and `j` share a line.
pub(crate) fn attack_graph(queens: &[Sq]) -> Vec<u64> {
    let mut adj = vec![0u64; queens.len()];
    for i in 0..queens.len() {
        for j in 0..i {
            if lines_meet(queens[i], queens[j]) {
                adj[i] |= 1 << j;
                adj[j] |= 1 << i;
            }
        }
    }
    adj
}

/// The number of cliques in a greedy partition of `set` into cliques: at least the size of any
/// independent subset.
fn clique_cover(adj: &[u64], set: u64) -> u32 {
    let mut left = set;
    let mut cliques = 0;
    while left != 0 {
        let v = left.trailing_zeros() as usize;
        left &= left - 1;
        let mut cand = adj[v] & left;
        while cand != 0 {
            let u = cand.trailing_zeros() as usize;
            left &= !(1u64 << u);
            cand &= adj[u];
        }
        cliques += 1;
    }
    cliques
}

/// Takes into the independent set, while `need` is above 0, every vertex of `set` with at most
/// one neighbour left in `set` (some largest independent set holds it), removing it and that
/// neighbour from `set`; stops early when fewer than `need` vertices are left. Returns the
/// vertices taken.
#[inline]
fn take_forced(adj: &[u64], set: &mut u64, need: &mut u32) -> u64 {
    let mut chosen = 0u64;
    while *need > 0 && set.count_ones() >= *need {
        let mut taken = false;
        let mut scan = *set;
        while scan != 0 {
            let v = scan.trailing_zeros() as usize;
            scan &= scan - 1;
            if *set >> v & 1 == 0 {
                continue;
            }
            let around = adj[v] & *set;
            if around.count_ones() <= 1 {
                *set &= !(around | 1 << v);
                scan &= *set;
                chosen |= 1 << v;
                *need -= 1;
                taken = true;
                if *need == 0 {
                    return chosen;
                }
            }
        }
        if !taken {
            break;
        }
    }
    chosen
}

/// Whether `set` holds an independent set of `need` vertices. When more than `budget` branches
/// would be needed it answers `true` (the caller only prunes on `false`, so the answer stays
/// safe); `budget` counts down.
pub(crate) fn at_least(adj: &[u64], set: u64, need: u32, budget: &mut u64) -> bool {
    let (mut set, mut need) = (set, need);
    take_forced(adj, &mut set, &mut need);
    if need == 0 {
        return true;
    }
    if set.count_ones() < need || clique_cover(adj, set) < need {
        return false;
    }
    if *budget == 0 {
        return true;
    }
    *budget -= 1;
    let v = busiest(adj, set);
    at_least(adj, set & !(adj[v] | 1 << v), need - 1, budget)
        || at_least(adj, set & !(1u64 << v), need, budget)
}

/// The size of a largest independent subset of `set` (exact).
pub(crate) fn largest(adj: &[u64], set: u64) -> u32 {
    // A greedy set (smallest degree first) to start from.
    let mut left = set;
    let mut size = 0;
    while left != 0 {
        let mut v = 0;
        let mut degree = u32::MAX;
        let mut scan = left;
        while scan != 0 {
            let u = scan.trailing_zeros() as usize;
            scan &= scan - 1;
            let d = (adj[u] & left).count_ones();
            if d < degree {
                degree = d;
                v = u;
            }
        }
        left &= !(adj[v] | 1 << v);
        size += 1;
    }
    while at_least(adj, set, size + 1, &mut u64::MAX.clone()) {
        size += 1;
    }
    size
}

/// An independent subset of `set` with `need` vertices, if one is found within `budget`
/// branches (`None`: there is none, or the budget ran out).
pub(crate) fn find(adj: &[u64], set: u64, need: u32, budget: &mut u64) -> Option<u64> {
    let (mut set, mut need) = (set, need);
    let chosen = take_forced(adj, &mut set, &mut need);
    if need == 0 {
        return Some(chosen);
    }
    if set.count_ones() < need || clique_cover(adj, set) < need || *budget == 0 {
        return None;
    }
    *budget -= 1;
    let v = busiest(adj, set);
    find(adj, set & !(adj[v] | 1 << v), need - 1, budget)
        .map(|s| s | chosen | 1 << v)
        .or_else(|| find(adj, set & !(1u64 << v), need, budget).map(|s| s | chosen))
}

/// The member of `set` with the most neighbours inside `set` (the lowest on ties; 0 when none
/// has a neighbour): the vertex both branch-and-bound searches branch on.
fn busiest(adj: &[u64], set: u64) -> usize {
    let (mut v, mut degree) = (0, 0);
    let mut scan = set;
    while scan != 0 {
        let u = scan.trailing_zeros() as usize;
        scan &= scan - 1;
        let d = (adj[u] & set).count_ones();
        if d > degree {
            degree = d;
            v = u;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute(adj: &[u64], set: u64) -> u32 {
        if set == 0 {
            return 0;
        }
        let v = set.trailing_zeros() as usize;
        let without = brute(adj, set & !(1u64 << v));
        let with = 1 + brute(adj, set & !(adj[v] | 1 << v));
        without.max(with)
    }

    #[test]
    fn largest_independent_sets_match_brute_force() {
        let mut rng = crate::primitive::rng::Xorshift64::new(0x5EED);
        let mut next = move || rng.next_u64();
        for round in 0..200 {
            let n = 4 + round % 14;
            let mut queens: Vec<Sq> = Vec::new();
            while queens.len() < n {
                let s = ((next() % n as u64) as u8, (next() % n as u64) as u8);
                if !queens.contains(&s) {
                    queens.push(s);
                }
            }
            let adj = attack_graph(&queens);
            let all = (1u64 << n) - 1;
            let best = brute(&adj, all);
            assert_eq!(largest(&adj, all), best);
            assert!(clique_cover(&adj, all) >= best);
            assert!(at_least(&adj, all, best, &mut 0));
            assert!(!at_least(&adj, all, best + 1, &mut u64::MAX.clone()));
            let set = find(&adj, all, best, &mut u64::MAX.clone()).unwrap();
            assert_eq!(set.count_ones(), best);
            assert!((0..n).all(|i| set >> i & 1 == 0 || adj[i] & set == 0));
        }
    }
}
