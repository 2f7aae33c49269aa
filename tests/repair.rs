//! Tests of `queens repair` and `queens judge lightoj1061` against independent facts: a plain
//! breadth-first search over real queen moves, a brute force of the relaxed value over all
//! solutions and assignments, the judge sample, and the verifier on every plan.

use queens::board::Square;
use queens::repair::{self, Position, Repair, RepairError};
use queens::{verify, Options};
use std::collections::HashMap;
use std::time::Duration;

mod support;

// ---------------------------------------------------------------------------------------------
// Independent reference code: bitmask positions, real moves, breadth-first search. Shares
// nothing with the solver.

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// Every position reachable from `state` (bit `r * n + c` = a queen) in one real move.
fn neighbours(n: usize, state: u64, out: &mut Vec<u64>) {
    out.clear();
    for from in 0..n * n {
        if state >> from & 1 == 0 {
            continue;
        }
        let (r0, c0) = ((from / n) as i32, (from % n) as i32);
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = (r0 + dr, c0 + dc);
            while r >= 0 && c >= 0 && (r as usize) < n && (c as usize) < n {
                let to = r as usize * n + c as usize;
                if state >> to & 1 == 1 {
                    break;
                }
                out.push(state & !(1 << from) | 1 << to);
                r += dr;
                c += dc;
            }
        }
    }
}

fn attacks(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0 + b.1 == b.0 + a.1 || a.0 + a.1 == b.0 + b.1
}

fn squares_of(n: usize, state: u64) -> Vec<(usize, usize)> {
    (0..n * n)
        .filter(|&i| state >> i & 1 == 1)
        .map(|i| (i / n, i % n))
        .collect()
}

fn is_solution(n: usize, state: u64) -> bool {
    let qs = squares_of(n, state);
    qs.len() == n && (0..n).all(|i| (i + 1..n).all(|j| !attacks(qs[i], qs[j])))
}

/// Every set of `k` squares out of `n * n`, as bitmasks.
fn all_placements(n: usize) -> Vec<u64> {
    fn rec(cells: usize, k: usize, start: usize, acc: u64, out: &mut Vec<u64>) {
        if k == 0 {
            out.push(acc);
            return;
        }
        for i in start..=cells - k {
            rec(cells, k - 1, i + 1, acc | 1 << i, out);
        }
    }
    let mut out = Vec::new();
    rec(n * n, n, 0, 0, &mut out);
    out
}

/// The solutions of size `n` as bitmask positions.
fn solution_states(n: usize) -> Vec<u64> {
    solutions_of(n)
        .iter()
        .map(|s| s.iter().fold(0u64, |a, &(r, c)| a | 1 << (r * n + c)))
        .collect()
}

/// The true fewest moves of every placement: breadth-first from all solutions (moves are
/// reversible, so distances from the solutions are distances to them).
fn distances_to_solutions(n: usize) -> HashMap<u64, u8> {
    ball(n, &solution_states(n), u8::MAX)
}

/// All positions within `depth` real moves of `starts`, with their distance.
fn ball(n: usize, starts: &[u64], depth: u8) -> HashMap<u64, u8> {
    let mut dist: HashMap<u64, u8> = starts.iter().map(|&s| (s, 0)).collect();
    let mut frontier = starts.to_vec();
    let mut buf = Vec::new();
    for d in 1..=depth {
        if frontier.is_empty() {
            break;
        }
        let mut next = Vec::new();
        for &s in &frontier {
            neighbours(n, s, &mut buf);
            for &t in &buf {
                if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(t) {
                    e.insert(d);
                    next.push(t);
                }
            }
        }
        frontier = next;
    }
    dist
}

/// The relaxed value by brute force: every solution, every assignment (permutation).
fn brute_relaxed(n: usize, queens: &[(usize, usize)], solutions: &[Vec<(usize, usize)>]) -> usize {
    fn perms(k: usize) -> Vec<Vec<usize>> {
        if k == 0 {
            return vec![vec![]];
        }
        let mut out = Vec::new();
        for p in perms(k - 1) {
            for pos in 0..=p.len() {
                let mut q = p.clone();
                q.insert(pos, k - 1);
                out.push(q);
            }
        }
        out
    }
    thread_local! {
        static PERMS: std::cell::RefCell<HashMap<usize, std::rc::Rc<Vec<Vec<usize>>>>> =
            std::cell::RefCell::new(HashMap::new());
    }
    let all = PERMS.with(|cache| {
        cache
            .borrow_mut()
            .entry(n)
            .or_insert_with(|| std::rc::Rc::new(perms(n)))
            .clone()
    });
    let step = |a: (usize, usize), b: (usize, usize)| {
        if a == b {
            0
        } else if attacks(a, b) {
            1
        } else {
            2
        }
    };
    solutions
        .iter()
        .map(|sol| {
            all.iter()
                .map(|p| (0..n).map(|i| step(queens[i], sol[p[i]])).sum::<usize>())
                .min()
                .unwrap()
        })
        .min()
        .unwrap()
}

/// Every N-queens solution, by plain row-by-row backtracking.
fn solutions_of(n: usize) -> Vec<Vec<(usize, usize)>> {
    fn rec(n: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<(usize, usize)>>) {
        let row = cols.len();
        if row == n {
            out.push(cols.iter().copied().enumerate().collect());
            return;
        }
        for c in 0..n {
            if (0..row).all(|r| !attacks((r, cols[r]), (row, c))) {
                cols.push(c);
                rec(n, cols, out);
                cols.pop();
            }
        }
    }
    let mut out = Vec::new();
    rec(n, &mut Vec::new(), &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn position_of(n: usize, state: u64) -> Position {
    Position {
        n,
        queens: squares_of(n, state)
            .into_iter()
            .map(|(r, c)| Square::new(r, c))
            .collect(),
    }
}

fn state_of(p: &Position) -> u64 {
    p.queens
        .iter()
        .fold(0, |acc, q| acc | 1 << (q.row * p.n + q.col))
}

fn board(text: &str) -> Position {
    queens::format::parse_position(text).expect("test board parses")
}

/// Solves and checks everything a plan claims about itself.
fn solve(p: &Position, options: &Options) -> Repair {
    let plan = repair::solve(p, options).expect("solvable");
    verify::repair(p, &plan.plan, &plan.final_queens).expect("plan replays legally");
    assert_eq!(plan.moves, plan.plan.len());
    assert!(plan.lower_bound <= plan.moves);
    if plan.relaxed_optimal {
        assert!(plan.relaxed <= plan.moves, "R is a lower bound on D");
    }
    if plan.optimal {
        assert_eq!(plan.lower_bound, plan.moves);
    }
    plan
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, k: usize) -> usize {
        (self.next() % k as u64) as usize
    }

    fn placement(&mut self, n: usize) -> u64 {
        let mut s = 0u64;
        while s.count_ones() < n as u32 {
            s |= 1 << self.below(n * n);
        }
        s
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

/// A solution found by plain backtracking with a random column order, then `k` queens put on
/// random empty squares.
fn scrambled_solution(n: usize, k: usize, rng: &mut Rng) -> Position {
    fn place(n: usize, row: usize, cols: &mut Vec<usize>, rng: &mut Rng) -> bool {
        if row == n {
            return true;
        }
        let offset = rng.below(n);
        for i in 0..n {
            let c = (i + offset) % n;
            if (0..row).all(|r| !attacks((r, cols[r]), (row, c))) {
                cols.push(c);
                if place(n, row + 1, cols, rng) {
                    return true;
                }
                cols.pop();
            }
        }
        false
    }
    let mut cols = Vec::new();
    assert!(place(n, 0, &mut cols, rng));
    let mut queens: Vec<Square> = cols
        .iter()
        .enumerate()
        .map(|(r, &c)| Square::new(r, c))
        .collect();
    for _ in 0..k {
        let i = rng.below(n);
        loop {
            let s = Square::new(rng.below(n), rng.below(n));
            if !queens.contains(&s) {
                queens[i] = s;
                break;
            }
        }
    }
    queens.sort();
    Position { n, queens }
}

const ISSUE_EXAMPLE: &str = "\
........
.....q..
.q......
........
....q...
q.......
......qq
...q...q
";

// ---------------------------------------------------------------------------------------------
// The solver against the independent facts.

#[test]
fn every_placement_of_4_and_5_matches_breadth_first_search() {
    for n in [4, 5] {
        let dist = distances_to_solutions(n);
        let solutions = solutions_of(n);
        let placements = all_placements(n);
        assert_eq!(placements.len(), if n == 4 { 1820 } else { 53130 });
        let mut above_relaxed = 0;
        for &s in &placements {
            let p = position_of(n, s);
            let plan = solve(&p, &Options::default());
            let truth = dist[&s] as usize;
            assert_eq!(plan.moves, truth, "n = {n}, {:?}", p.queens);
            assert!(plan.optimal);
            let qs = squares_of(n, s);
            assert_eq!(plan.relaxed, brute_relaxed(n, &qs, &solutions), "{qs:?}");
            if plan.moves > plan.relaxed {
                above_relaxed += 1;
            }
        }
        // Not asserted to be nonzero: small boards leave room to go around blockers.
        println!("n = {n}: {above_relaxed} placements need more than the relaxed count");
    }
}

/// Every one of the 1,947,792 placements of 6 queens against breadth-first search (none needs
/// more than the relaxed count). Slow: about 1 minute of CPU, 3.5 minutes of wall time on the
/// shared 2-core machine: `cargo test --release --test repair -- --ignored`.
#[test]
#[ignore]
fn every_placement_of_6_matches_breadth_first_search() {
    let n = 6;
    let dist = distances_to_solutions(n);
    let placements = all_placements(n);
    assert_eq!(placements.len(), 1_947_792);
    let mut above_relaxed = 0;
    for &s in &placements {
        let p = position_of(n, s);
        let plan = solve(&p, &Options::with_threads(1));
        assert_eq!(plan.moves, dist[&s] as usize, "{:?}", p.queens);
        assert!(plan.optimal);
        above_relaxed += usize::from(plan.moves > plan.relaxed);
    }
    println!("n = 6: {above_relaxed} placements need more than the relaxed count");
}

#[test]
fn random_6x6_boards_match_breadth_first_search() {
    let n = 6;
    let solutions = solutions_of(n);
    let goal = solution_states(n);
    let near = ball(n, &goal, 3);
    let mut rng = Rng(0x6666);
    for _ in 0..150 {
        let s = rng.placement(n);
        let p = position_of(n, s);
        let plan = solve(&p, &Options::default());
        assert!(plan.optimal);
        // Exact distance when it is at most 5: meet in the middle of two balls (3 + 2).
        let here = ball(n, &[s], 2);
        let truth = here
            .iter()
            .filter_map(|(t, &d1)| near.get(t).map(|&d2| (d1 + d2) as usize))
            .min();
        match truth {
            Some(d) => assert_eq!(plan.moves, d, "{:?}", p.queens),
            None => assert!(plan.moves > 5, "{:?}", p.queens),
        }
        let qs = squares_of(n, s);
        assert_eq!(plan.relaxed, brute_relaxed(n, &qs, &solutions));
    }
}

#[test]
fn random_7x7_boards_match_breadth_first_search() {
    let n = 7;
    let near = ball(n, &solution_states(n), 2);
    let mut rng = Rng(0x7777);
    for round in 0..80 {
        // Half random boards, half solutions with a few queens displaced (small distances).
        let p = if round % 2 == 0 {
            rng.position(n)
        } else {
            scrambled_solution(n, 1 + round % 3, &mut rng)
        };
        let s = state_of(&p);
        let plan = solve(&p, &Options::default());
        assert!(plan.optimal);
        let here = ball(n, &[s], 2);
        let truth = here
            .iter()
            .filter_map(|(t, &d1)| near.get(t).map(|&d2| (d1 + d2) as usize))
            .min();
        match truth {
            Some(d) => assert_eq!(plan.moves, d, "{:?}", p.queens),
            None => assert!(plan.moves > 4, "{:?}", p.queens),
        }
    }
}

#[test]
fn the_issue_example_needs_one_move_more_than_the_judges_count() {
    let p = board(ISSUE_EXAMPLE);
    let plan = solve(&p, &Options::default());
    assert_eq!(plan.relaxed, 3);
    assert_eq!(plan.moves, 4);
    assert!(plan.optimal);
    // Independent confirmation: no real 3-move plan exists (ball of radius 3 holds no solution).
    let within3 = ball(8, &[state_of(&p)], 3);
    assert!(within3.keys().all(|&s| !is_solution(8, s)));
    let r = repair::relaxed(&p, &Options::default()).unwrap();
    assert_eq!(r.value, 3);
    verify::n_queens_solution(8, &r.target).unwrap();
    let step = |a: Square, b: Square| {
        if a == b {
            0
        } else if queens::board::share_line(a, b) {
            1
        } else {
            2
        }
    };
    let total: usize = r.assignment.iter().map(|&(a, b)| step(a, b)).sum();
    assert_eq!(total, r.value);
}

#[test]
fn a_7x7_board_where_blocking_costs_a_move() {
    // Found by sampling random 7x7 boards (about 1 in 100,000 has D > R); the answer is checked
    // here by the plain searches, not taken from the solver.
    let text = ".......\n......q\n.......\n.....q.\n..q....\nq......\nqq.q...\n";
    let p = board(text);
    let s = state_of(&p);
    let solutions = solutions_of(7);
    let qs = squares_of(7, s);
    let relaxed = brute_relaxed(7, &qs, &solutions);
    let from_start = ball(7, &[s], 2);
    let from_goal = ball(7, &solution_states(7), 2);
    let truth = from_start
        .iter()
        .filter_map(|(t, &d1)| from_goal.get(t).map(|&d2| (d1 + d2) as usize))
        .min()
        .expect("within four moves");
    assert_eq!((relaxed, truth), (3, 4));
    let plan = solve(&p, &Options::default());
    assert_eq!(
        (plan.relaxed, plan.moves, plan.optimal),
        (relaxed, truth, true)
    );
}

#[test]
fn relaxed_assignments_are_bijections_with_the_claimed_cost() {
    let mut rng = Rng(42);
    for n in [4, 5, 6, 8, 9, 11, 13] {
        for _ in 0..10 {
            let p = rng.position(n);
            let r = repair::relaxed(&p, &Options::default()).unwrap();
            assert!(r.optimal);
            verify::n_queens_solution(n, &r.target).unwrap();
            let mut from: Vec<Square> = r.assignment.iter().map(|a| a.0).collect();
            let mut to: Vec<Square> = r.assignment.iter().map(|a| a.1).collect();
            from.sort();
            to.sort();
            let mut target = r.target.clone();
            target.sort();
            assert_eq!(from, p.queens);
            assert_eq!(to, target);
            let total: usize = r
                .assignment
                .iter()
                .map(|&(a, b)| match (a == b, queens::board::share_line(a, b)) {
                    (true, _) => 0,
                    (false, true) => 1,
                    _ => 2,
                })
                .sum();
            assert_eq!(total, r.value);
        }
    }
}

#[test]
fn eight_by_eight_boards_are_solved_and_verified() {
    let mut rng = Rng(8);
    for _ in 0..300 {
        let p = rng.position(8);
        let plan = solve(&p, &Options::default());
        assert!(plan.optimal);
        assert!(
            plan.relaxed <= 8,
            "the judges' count never exceeds 8 on 8x8"
        );
    }
    // The documented worst case of the relaxed count: a8 a6 a4 a2 b1 d1 f1 h1 need 8.
    let worst =
        board("q.......\n........\nq.......\n........\nq.......\n........\nq.......\n.q.q.q.q\n");
    let plan = solve(&worst, &Options::default());
    assert_eq!(plan.relaxed, 8);
    assert!(plan.moves >= 8);
}

#[test]
fn larger_boards_are_solved_exactly() {
    let mut rng = Rng(1616);
    for _ in 0..3 {
        let p = rng.position(16);
        let plan = solve(&p, &Options::default());
        assert!(plan.optimal && plan.relaxed_optimal);
    }
    for (n, k) in [(32, 3), (32, 3), (64, 3), (20, 5)] {
        let p = scrambled_solution(n, k, &mut rng);
        let plan = solve(&p, &Options::default());
        assert!(plan.optimal, "n = {n}");
        assert!(
            plan.moves <= 2 * k,
            "each displaced queen can go back in two moves at most"
        );
    }
}

#[test]
fn a_time_limit_gives_a_legal_plan_and_a_proven_bound() {
    let mut rng = Rng(6464);
    let p = rng.position(64);
    let options = Options {
        time_limit: Some(Duration::from_millis(300)),
        ..Options::default()
    };
    let started = std::time::Instant::now();
    let plan = solve(&p, &options);
    assert!(started.elapsed() < Duration::from_secs(20));
    assert!(plan.lower_bound <= plan.moves);
    if !plan.optimal {
        assert!(plan.lower_bound < plan.moves);
    }
}

#[test]
fn the_bound_never_exceeds_the_relaxed_value() {
    // Every placement on 5 x 5, many random ones on 6 x 6 and 7 x 7 (R from the listed
    // solutions), and random larger boards (R from the exact search).
    let exact = |p: &Position| repair::relaxed(p, &Options::default()).unwrap().value;
    for state in all_placements(5) {
        let p = position_of(5, state);
        assert!(repair::lower_bound(&p).unwrap() <= exact(&p));
    }
    let mut rng = Rng(567);
    for n in [6, 7] {
        for _ in 0..2000 {
            let p = rng.position(n);
            assert!(repair::lower_bound(&p).unwrap() <= exact(&p));
        }
    }
    for n in 11..=18 {
        for _ in 0..2 {
            let p = rng.position(n);
            let r = repair::relaxed(&p, &Options::default()).unwrap();
            assert!(r.optimal);
            assert!(repair::lower_bound(&p).unwrap() <= r.value, "n = {n}");
        }
    }
}

#[test]
fn time_limited_answers_on_64_by_64_boards_are_legal_with_a_bound() {
    let mut rng = Rng(64_064);
    let options = Options {
        time_limit: Some(Duration::from_millis(200)),
        ..Options::default()
    };
    for k in 0..4 {
        let p = if k % 2 == 0 {
            rng.position(64)
        } else {
            scrambled_solution(64, 8 + 4 * k, &mut rng)
        };
        // `solve` replays the plan with the verifier and checks the bound against the moves.
        let plan = solve(&p, &options);
        assert!(plan.lower_bound <= plan.moves);
        assert!(repair::lower_bound(&p).unwrap() <= plan.moves);
    }
}

/// The relaxed answer on a board, with one and with two threads: proven, equal, its assignment
/// adding up to its value, its target a solution.
fn relaxed_checked(p: &Position) -> repair::Relaxed {
    let one = repair::relaxed(p, &Options::with_threads(1)).unwrap();
    assert!(one.optimal);
    let sum: usize = one
        .assignment
        .iter()
        .map(|&(q, s)| {
            if q == s {
                0
            } else if attacks((q.row, q.col), (s.row, s.col)) {
                1
            } else {
                2
            }
        })
        .sum();
    assert_eq!(sum, one.value);
    assert!(verify::n_queens_solution(p.n, &one.target).is_ok());
    let two = repair::relaxed(p, &Options::with_threads(2)).unwrap();
    assert_eq!(one, two);
    one
}

/// Random 48 x 48 boards (the benchmark's generator, seed 1048, boards 7 and 4) whose relaxed
/// values an independent MIP solver proved (HiGHS on a model with a binary per target square
/// and per queen and square of its lines, 30 s and 183 s): 26 and 27. On board 4 an optimal
/// target keeps 21 queens and moves each other queen once, and differs in 32 of 48 rows from
/// the target of an earlier version's 30-move plan.
#[test]
fn a_random_48_by_48_board_has_the_relaxed_value_a_mip_proved() {
    let p = board(include_str!("fixtures/repair-random-48-7.txt"));
    assert_eq!(relaxed_checked(&p).value, 26);
}

/// Board 4 of the test above (about 150 s on two cores, so not in the default run).
#[test]
#[ignore]
fn a_harder_random_48_by_48_board_has_the_relaxed_value_a_mip_proved() {
    let p = board(include_str!("fixtures/repair-random-48-4.txt"));
    assert_eq!(relaxed_checked(&p).value, 27);
}

/// A solved 64 x 64 board with 8 queens put on random empty squares (the benchmark's generator,
/// seed 2064, board 0), whose relaxed value an independent MIP solver proved to be 13 (HiGHS on
/// the compact model, a binary per target square and per queen and square, 168 s). The true
/// minimum is then at least 13, and a 13-move plan that replays legally proves it.
#[test]
fn a_displaced_64_by_64_board_has_the_relaxed_value_a_mip_proved() {
    let p = board(include_str!("fixtures/repair-displaced-64-0.txt"));
    assert_eq!(relaxed_checked(&p).value, 13);
    let plan = solve(&p, &Options::with_threads(2));
    assert!(plan.optimal);
    assert_eq!(plan.moves, 13);
}

#[test]
fn the_answer_does_not_depend_on_the_thread_count() {
    let mut rng = Rng(77);
    for n in [8, 12, 16, 20] {
        let p = rng.position(n);
        let one = solve(&p, &Options::with_threads(1));
        let two = solve(&p, &Options::with_threads(2));
        assert_eq!(one.plan, two.plan);
        assert_eq!(one.final_queens, two.final_queens);
    }
}

#[test]
fn tiny_and_oversized_boards() {
    let one = Position {
        n: 1,
        queens: vec![Square::new(0, 0)],
    };
    let plan = solve(&one, &Options::default());
    assert_eq!(plan.moves, 0);
    for n in [2, 3] {
        let p = Position {
            n,
            queens: (0..n).map(|i| Square::new(0, i)).collect(),
        };
        assert_eq!(
            repair::solve(&p, &Options::default()),
            Err(RepairError::NoPlacement { n })
        );
    }
    let zero = Position {
        n: 0,
        queens: vec![],
    };
    assert!(matches!(
        repair::solve(&zero, &Options::default()),
        Err(RepairError::UnsupportedSize { n: 0 })
    ));
    let big = Position {
        n: 65,
        queens: (0..65).map(|i| Square::new(i, 0)).collect(),
    };
    assert!(matches!(
        repair::solve(&big, &Options::default()),
        Err(RepairError::UnsupportedSize { n: 65 })
    ));
    let twice = Position {
        n: 4,
        queens: vec![Square::new(0, 0); 4],
    };
    assert!(matches!(
        repair::solve(&twice, &Options::default()),
        Err(RepairError::SameSquare { .. })
    ));
}

// ---------------------------------------------------------------------------------------------
// The judge and the command line.

/// The boards of a LightOJ 1061 input: T, then T boards of 8 lines of 8 characters.
fn lightoj_boards(input: &str) -> Vec<Vec<(usize, usize)>> {
    let mut tokens = input.split_whitespace();
    let cases: usize = tokens.next().unwrap().parse().unwrap();
    (0..cases)
        .map(|_| {
            let rows: Vec<&str> = (0..8).map(|_| tokens.next().unwrap()).collect();
            let mut queens = Vec::new();
            for (r, row) in rows.iter().enumerate() {
                for (c, ch) in row.chars().enumerate() {
                    if ch == 'q' {
                        queens.push((r, c));
                    }
                }
            }
            queens
        })
        .collect()
}

#[test]
fn judge_example_file_byte_for_byte() {
    // The example input (boards of our own: all in one column, all on one row, a solved board,
    // the README's board, random ones), answered by the brute-force relaxed count.
    let path = support::example("judge/lightoj1061.in");
    let input = std::fs::read_to_string(&path).unwrap();
    let solutions = solutions_of_8();
    let mut expected = String::new();
    for (i, qs) in lightoj_boards(&input).iter().enumerate() {
        let best = solutions.iter().map(|sol| assignment_dp(qs, sol)).min();
        expected.push_str(&format!("Case {}: {}\n", i + 1, best.unwrap()));
    }
    assert!(expected.contains("Case 4: 0\n") && expected.contains("Case 5: 3\n"));
    let mut out = Vec::new();
    queens::judge::run(
        queens::judge::JudgeProblem::LightOj1061,
        &input,
        &mut out,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    let run = support::queens(&["judge", "lightoj1061", path.to_str().unwrap()]);
    assert_eq!((run.code, run.stdout), (0, expected));
}

#[test]
fn judge_answers_equal_the_brute_force_relaxed_count() {
    // Random 8x8 boards, compared with a brute force over the 92 solutions (assignment by
    // trying every permutation would be 8! per solution; a bitmask DP over queens is used).
    let solutions = solutions_of_8();
    let mut rng = Rng(1061);
    let mut input = String::from("40\n");
    let mut expected = String::new();
    for case in 1..=40 {
        let s = rng.placement(8);
        let qs = squares_of(8, s);
        for r in 0..8 {
            let line: String = (0..8)
                .map(|c| if s >> (r * 8 + c) & 1 == 1 { 'q' } else { '.' })
                .collect();
            input.push_str(&line);
            input.push('\n');
        }
        input.push('\n');
        let best = solutions
            .iter()
            .map(|sol| assignment_dp(&qs, sol))
            .min()
            .unwrap();
        expected.push_str(&format!("Case {case}: {best}\n"));
    }
    let mut out = Vec::new();
    queens::judge::run(
        queens::judge::JudgeProblem::LightOj1061,
        &input,
        &mut out,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), expected);
}

fn solutions_of_8() -> Vec<Vec<(usize, usize)>> {
    let out = solutions_of(8);
    assert_eq!(out.len(), 92);
    out
}

/// Minimum-cost assignment of queens to the squares of `sol` (0/1/2 costs) by DP over subsets.
fn assignment_dp(queens: &[(usize, usize)], sol: &[(usize, usize)]) -> usize {
    let k = queens.len();
    let mut best = vec![usize::MAX; 1 << k];
    best[0] = 0;
    for mask in 0..1usize << k {
        if best[mask] == usize::MAX {
            continue;
        }
        let i = mask.count_ones() as usize;
        if i == k {
            continue;
        }
        for (j, &q) in queens.iter().enumerate() {
            if mask >> j & 1 == 0 {
                let step = if q == sol[i] {
                    0
                } else if attacks(q, sol[i]) {
                    1
                } else {
                    2
                };
                let m2 = mask | 1 << j;
                best[m2] = best[m2].min(best[mask] + step);
            }
        }
    }
    best[(1 << k) - 1]
}

fn run_with_input(args: &[&str], input: &str) -> std::process::Output {
    support::queens_output(args, input.as_bytes())
}

#[test]
fn cli_rejects_bad_boards_with_a_location() {
    let cases: [(&str, &str); 5] = [
        ("q...\n.q..\n..q.\n", "line 3"),                 // not square
        ("q...\n.q..\n..q.\n...q\n...q\n", "line"),       // 5 rows of 4
        ("q...\n.q..\n..q.\n....\n", "queens"),           // 3 queens on 4x4
        ("q...\n.q..\n..x.\n...q\n", "line 3, column 3"), // bad character
        ("", "empty"),                                    // empty
    ];
    for (input, needle) in cases {
        let out = run_with_input(&["repair"], input);
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error:"), "{err}");
        assert!(err.contains(needle), "{input:?}: {err}");
        assert!(err.contains("line"), "{err}");
    }
}

#[test]
fn cli_exit_1_when_there_is_no_answer() {
    let out = run_with_input(&["repair"], "q..\n.q.\n..q\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("error:"));
}

#[test]
fn cli_json_and_text() {
    let out = run_with_input(&["repair", "--json", "-"], ISSUE_EXAMPLE);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 8);
    assert_eq!(v["moves"], 4);
    assert_eq!(v["relaxed"], 3);
    assert_eq!(v["optimal"], true);
    let plan: Vec<queens::repair::Move> = serde_json::from_value(v["plan"].clone()).unwrap();
    let fin: Vec<Square> = serde_json::from_value(v["final"].clone()).unwrap();
    assert_eq!(plan.len(), 4);
    verify::repair(&board(ISSUE_EXAMPLE), &plan, &fin).unwrap();

    let out = run_with_input(&["repair"], ISSUE_EXAMPLE);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Fewest moves: 4"), "{text}");
    assert!(text.contains("Blocking forces 1 extra move"), "{text}");
    let first = plan[0];
    let chess = format!(
        "Q{}-{}",
        first.from.chess_name(8, 8).unwrap(),
        first.to.chess_name(8, 8).unwrap()
    );
    assert!(text.contains(&chess), "{text}");
    assert!(text.contains(&format!(
        "[{}, {}] -> [{}, {}]",
        first.from.row, first.from.col, first.to.row, first.to.col
    )));
}

#[test]
fn cli_time_limit_reports_a_lower_bound() {
    let mut rng = Rng(99);
    let p = rng.position(64);
    let text = queens::format::repair::board_text(64, &p.queens);
    let out = run_with_input(&["repair", "--json", "--time-limit", "0"], &text);
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let plan: Vec<queens::repair::Move> = serde_json::from_value(v["plan"].clone()).unwrap();
    let fin: Vec<Square> = serde_json::from_value(v["final"].clone()).unwrap();
    verify::repair(&p, &plan, &fin).unwrap();
    let (lower, moves) = (
        v["lower_bound"].as_u64().unwrap(),
        v["moves"].as_u64().unwrap(),
    );
    assert!(lower <= moves);
    assert_eq!(v["optimal"] == true, lower == moves);
    assert_eq!(v["problem"], "repair");
    assert_eq!(moves as usize, plan.len());
}

#[test]
fn cli_judge_prints_earlier_cases_before_a_bad_one() {
    let good = "q.......\n....q...\n.......q\n.....q..\n..q.....\n......q.\n.q......\n...q....\n";
    let bad_boards = [
        (
            "q.......\n....q...\n.......q\n.....q..\n..q.....\n......q.\n.q......\n...q...\n",
            "line 18",
        ),
        (
            "q.......\n....q...\n.......q\n.....q..\n..q.....\n......q.\n.q......\n...q..x.\n",
            "column 7",
        ),
        (
            "q.......\n....q...\n.......q\n.....q..\n..q.....\n......q.\n.q......\n........\n",
            "queens",
        ),
        ("q.......\n....q...\n", "ends"),
    ];
    for (bad, needle) in bad_boards {
        let input = format!("3\n{good}\n{bad}");
        let out = run_with_input(&["judge", "lightoj1061"], &input);
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "Case 1: 0\n");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error:"), "{err}");
        assert!(err.contains("case 2"), "{err}");
        assert!(err.contains(needle), "{needle}: {err}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Any 6 queens on a 6 x 6 board: the plan replays legally (inside `solve`), and its length
    /// equals the true distance found by a meet-in-the-middle search over real moves when that
    /// distance is at most 5 (otherwise it exceeds 5); R equals the brute-force relaxed count.
    #[test]
    fn any_6x6_placement_matches_search_over_real_moves(
        squares in proptest::sample::subsequence((0..36u64).collect::<Vec<_>>(), 6)
    ) {
        let n = 6;
        let s = squares.iter().fold(0u64, |a, &i| a | 1 << i);
        let solutions = solutions_of(n);
        let goal = solution_states(n);
        let near = ball(n, &goal, 3);
        let p = position_of(n, s);
        let plan = solve(&p, &Options::default());
        proptest::prop_assert!(plan.optimal);
        let here = ball(n, &[s], 2);
        let truth = here
            .iter()
            .filter_map(|(t, &d1)| near.get(t).map(|&d2| (d1 + d2) as usize))
            .min();
        match truth {
            Some(d) => proptest::prop_assert_eq!(plan.moves, d),
            None => proptest::prop_assert!(plan.moves > 5),
        }
        proptest::prop_assert_eq!(plan.relaxed, brute_relaxed(n, &squares_of(n, s), &solutions));
    }
}
