//! The checks of the exact guard search (the parent module, `super`), apart from it for length: the
//! symmetries, every word size alike, the lines, the live squares and branching sets against
//! brute force, the greedy cover and the root bound.

#![cfg(test)]

use super::*;

/// The lemma behind the root reduction, checked by enumeration: every map is a permutation
/// of the squares that preserves "occupies or attacks" in both directions, and with the
/// identity the maps form a group.
#[test]
fn symmetries_are_line_preserving_permutations_forming_a_group() {
    for (rows, cols) in [
        (1, 1),
        (1, 5),
        (2, 3),
        (4, 4),
        (5, 5),
        (3, 7),
        (6, 6),
        (7, 4),
    ] {
        let maps = symmetries(rows, cols);
        assert_eq!(maps.len(), if rows == cols { 7 } else { 3 });
        let board = Board::<1>::new(rows, cols, &vec![true; rows * cols], false);
        let identity: Vec<u32> = (0..(rows * cols) as u32).collect();
        let mut group = maps.clone();
        group.push(identity.clone());
        for p in &maps {
            let mut seen = p.clone();
            seen.sort_unstable();
            assert_eq!(seen, identity);
            for a in 0..rows * cols {
                for b in 0..rows * cols {
                    let (pa, pb) = (p[a] as usize, p[b] as usize);
                    assert_eq!(
                        board.attack[a].0[0] >> b & 1,
                        board.attack[pa].0[0] >> pb & 1
                    );
                }
            }
            for q in &group {
                let composed: Vec<u32> = q.iter().map(|&x| p[x as usize]).collect();
                assert!(group.contains(&composed), "not closed: {rows}x{cols}");
            }
        }
    }
}

/// Every instruction-set level the CPU has gives the same answers (minimum, cover, and
/// the number of minimum covers) on full boards, rectangles and boards with random marks,
/// under both rules.
#[test]
fn every_supported_level_answers_alike() {
    let levels: Vec<Isa> = Isa::ALL.into_iter().filter(|l| l.supported()).collect();
    // Shown with `--nocapture`: which levels this CPU (or emulator) runs.
    eprintln!("guard search levels run: {levels:?}");
    let mut seed = 0x6A09_E667_F3BC_C908u64;
    let mut boards: Vec<(usize, usize, Vec<bool>)> = [(8, 8), (10, 10), (11, 11), (6, 11)]
        .into_iter()
        .map(|(r, c)| (r, c, vec![true; r * c]))
        .collect();
    for _ in 0..4 {
        let marked = (0..81)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                !seed.is_multiple_of(3)
            })
            .collect();
        boards.push((9, 9, marked));
    }
    for (rows, cols, marked) in &boards {
        for independent in [false, true] {
            let answers: Vec<_> = levels
                .iter()
                .map(|&isa| {
                    let mut board = Board::<2>::new(*rows, *cols, marked, independent);
                    board.isa = isa;
                    let nodes = AtomicU64::new(0);
                    let never = Deadline::never();
                    let mut k = board.root_bound();
                    let cover = loop {
                        match board.level(k, &never, &nodes) {
                            Level::Found(queens) => break queens,
                            Level::Infeasible => k += 1,
                            Level::Stopped => unreachable!("no deadline"),
                        }
                    };
                    let sets = board.count_level(cover.len(), &never, &nodes);
                    (cover, sets)
                })
                .collect();
            assert!(
                answers.windows(2).all(|w| w[0] == w[1]),
                "{rows}x{cols} independent={independent}: {answers:?}"
            );
        }
    }
}

/// Every family of lines is disjoint, each line is a true row, column or diagonal (any two
/// of its squares share it), and with the short lines added back each family covers the
/// board.
#[test]
fn lines_are_the_rows_columns_and_diagonals() {
    for (rows, cols) in [(1, 1), (3, 8), (4, 4), (5, 9), (8, 8), (11, 6)] {
        let board = Board::<2>::new(rows, cols, &vec![true; rows * cols], false);
        for family in 0..4 {
            let mut seen = Bits::<2>::EMPTY;
            let mut covered = 0;
            for line in board.lines.iter().filter(|l| l.family == family) {
                assert_eq!(line.squares.count(), line.len);
                assert!(line.len >= 4);
                assert!(line.squares.and(&seen).is_empty());
                seen = seen.or(&line.squares);
                covered += line.len as usize;
                let squares: Vec<usize> = line.squares.ones().collect();
                for &a in &squares {
                    for &b in &squares {
                        let (ra, ca, rb, cb) = (a / cols, a % cols, b / cols, b % cols);
                        let same = match family {
                            0 => ra == rb,
                            1 => ca == cb,
                            2 => ca + rb == cb + ra,
                            _ => ra + ca == rb + cb,
                        };
                        assert!(same, "{rows}x{cols} family {family}");
                    }
                }
            }
            // The lines left out are those of at most 3 squares.
            let lines_of = |len: usize| match family {
                0 => (len == cols) as usize * rows,
                1 => (len == rows) as usize * cols,
                _ => (0..rows + cols - 1)
                    .filter(|&d| {
                        let lo = d.saturating_sub(cols - 1);
                        let hi = d.min(rows - 1);
                        hi + 1 - lo == len
                    })
                    .count(),
            };
            let short: usize = (1..=3).map(|len| len * lines_of(len)).sum();
            assert_eq!(
                covered + short,
                rows * cols,
                "{rows}x{cols} family {family}"
            );
        }
    }
}

/// The cuts of [`Board::live`] and [`Board::branch`] against brute force, on small boards
/// with random marks, random queens already placed and random forbidden squares, under
/// both rules: when a node is cut no cover of at most `r` allowed squares exists, every
/// square declared dead is in none, and every cover holds a square of the branching set.
#[test]
fn live_squares_and_branching_sets_keep_every_cover() {
    let mut seed = 0x3C6E_F372_FE94_F82Bu64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0;
    for round in 0..1500 {
        let rows = 3 + (next() % 5) as usize;
        let cols = 3 + (next() % 5) as usize;
        let squares = rows * cols;
        let dense = round % 3 == 0;
        let marked: Vec<bool> = (0..squares).map(|_| dense || next() % 4 != 0).collect();
        let independent = round % 2 == 1;
        let board = Board::<1>::new(rows, cols, &marked, independent);
        let mut covered = Bits::<1>::EMPTY;
        let mut placed = Bits::<1>::EMPTY;
        for _ in 0..next() % 3 {
            let q = (next() % squares as u64) as usize;
            if independent && covered.0[0] >> q & 1 == 1 {
                continue;
            }
            covered = covered.or(&board.attack[q]);
            placed.insert(q);
        }
        let mut forbidden = Bits::<1>::EMPTY;
        for _ in 0..next() % (squares as u64 / 2) {
            forbidden.insert((next() % squares as u64) as usize);
        }
        let uncovered = board.marks.and_not(&covered);
        if uncovered.is_empty() {
            continue;
        }
        let allowed = board.allowed(&covered, &forbidden);
        let r = 1 + (next() % 3) as usize;
        // Every cover of `uncovered` by at most `r` allowed squares (non-attacking, also
        // with the placed queens, under the independent rule).
        let pool: Vec<usize> = allowed.ones().collect();
        let mut covers: Vec<Vec<usize>> = Vec::new();
        let mut chosen = Vec::new();
        /// The board, the squares to choose from and the most queens.
        type Context<'a> = (&'a Board<1>, &'a [usize], usize);
        fn walk(
            (board, pool, r): Context,
            from: usize,
            left: Bits<1>,
            attacked: Bits<1>,
            chosen: &mut Vec<usize>,
            covers: &mut Vec<Vec<usize>>,
        ) {
            if left.is_empty() {
                covers.push(chosen.clone());
                return;
            }
            if chosen.len() == r {
                return;
            }
            for i in from..pool.len() {
                let a = pool[i];
                if board.independent && attacked.0[0] >> a & 1 == 1 {
                    continue;
                }
                chosen.push(a);
                let left = left.and_not(&board.attack[a]);
                let attacked = attacked.or(&board.attack[a]);
                walk((board, pool, r), i + 1, left, attacked, chosen, covers);
                chosen.pop();
            }
        }
        walk(
            (&board, &pool, r),
            0,
            uncovered,
            covered,
            &mut chosen,
            &mut covers,
        );
        let mut gains = vec![0; squares];
        match board.live(&uncovered, &allowed, r, &mut gains) {
            None => assert!(
                covers.is_empty(),
                "live cut a node with a cover: {covers:?}"
            ),
            Some(good) => {
                for cover in &covers {
                    assert!(
                        cover.iter().all(|&a| good.0[0] >> a & 1 == 1),
                        "dead square in {cover:?}"
                    );
                }
                match board.branch(&uncovered, &good, r) {
                    None => assert!(covers.is_empty(), "branch cut a node with a cover"),
                    Some(set) => {
                        for cover in &covers {
                            assert!(
                                cover.iter().any(|&a| set.0[0] >> a & 1 == 1),
                                "{cover:?} misses the branching set"
                            );
                        }
                    }
                }
            }
        }
        checked += usize::from(!covers.is_empty());
    }
    // The test must meet nodes with covers as well as cut ones.
    assert!(checked > 100, "only {checked} nodes with covers");
}

#[test]
fn greedy_covers_and_root_bound_is_below_it() {
    for (rows, cols) in [(1, 1), (3, 8), (8, 8), (7, 5)] {
        for independent in [false, true] {
            let board = Board::<1>::new(rows, cols, &vec![true; rows * cols], independent);
            let cover = board.greedy();
            let covered = cover
                .iter()
                .fold(Bits::<1>::EMPTY, |acc, &q| acc.or(&board.attack[q]));
            assert!(board.marks.is_subset(&covered));
            assert!(board.root_bound() <= cover.len());
        }
    }
}
