"""The Python answers against independent facts: OEIS values, brute force on small boards, and the
verifier on every certificate."""

import itertools
import json
import random
from collections import deque

import pytest

import queens

# OEIS A000170 (all solutions) and A002562 (up to rotation and reflection), N = 1..14.
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752]


def attack(a, b):
    (r1, c1), (r2, c2) = a, b
    return r1 == r2 or c1 == c2 or abs(r1 - r2) == abs(c1 - c2)


def non_attacking(squares):
    return all(not attack(a, b) for a, b in itertools.combinations(squares, 2))


def brute_solutions(n):
    """Every N-queens solution as a tuple of columns, by trying every permutation."""
    return {
        p
        for p in itertools.permutations(range(n))
        if non_attacking(list(enumerate(p)))
    }


@pytest.mark.parametrize("n", range(1, 15))
def test_count_matches_oeis(n):
    answer = queens.count(n, threads=2)
    assert (answer.solutions, answer.unique) == (A000170[n - 1], A002562[n - 1])
    assert answer.complete and answer.units_done == answer.units_total
    assert answer.n == n


@pytest.mark.parametrize("n", range(1, 9))
def test_solutions_are_the_brute_force_set(n):
    listed = list(queens.solutions(n))
    assert [s.index for s in listed] == list(range(1, len(listed) + 1))
    assert {s.columns for s in listed} == brute_solutions(n)
    assert len(list(queens.solutions(n, unique=True))) == A002562[n - 1]
    if listed:
        verdict = queens.verify_solutions(n, listed)
        assert verdict and verdict.message.startswith("valid:")


def test_solutions_are_lazy_and_limited():
    first = next(iter(queens.solutions(32)))
    assert non_attacking(first.queens) and len(first.columns) == 32
    assert len(list(queens.solutions(12, limit=5))) == 5
    assert first._repr_svg_().startswith("<svg")


def test_a_repeated_or_broken_solution_is_refused():
    sols = list(queens.solutions(6))
    twice = queens.verify_solutions(6, [sols[0], sols[1], sols[0]])
    assert not twice and "line 3" in twice.message
    broken = sols[0].to_dict()
    broken["queens"][0] = [0, 0]
    assert not queens.verify_solutions(6, [broken])


def brute_weight(grid, best=max):
    n = len(grid)
    sums = [
        sum(grid[r][c] for r, c in enumerate(p))
        for p in itertools.permutations(range(n))
        if non_attacking(list(enumerate(p)))
    ]
    return best(sums) if sums else None


@pytest.mark.parametrize("seed", range(12))
def test_weight_is_the_brute_force_best_and_verifies(seed):
    rng = random.Random(seed)
    n = rng.choice([1, 4, 5, 6, 7])
    grid = [[rng.randint(-50, 99) for _ in range(n)] for _ in range(n)]
    answer = queens.weight(grid)
    assert answer.optimal and answer.bound == answer.sum == brute_weight(grid)
    assert sum(grid[r][c] for r, c in answer.queens) == answer.sum
    assert non_attacking(answer.queens)
    assert queens.verify_weight(grid, answer)
    # The same grid as the command line's text, and as tuples.
    text = "".join(" ".join(map(str, row)) + "\n" for row in grid)
    assert queens.weight(text).sum == answer.sum
    assert queens.weight(tuple(tuple(r) for r in grid)).sum == answer.sum


@pytest.mark.parametrize("seed", range(6))
def test_minimize_is_the_brute_force_smallest_and_verifies(seed):
    rng = random.Random(100 + seed)
    n = rng.choice([4, 5, 6, 7])
    grid = [[rng.randint(-50, 99) for _ in range(n)] for _ in range(n)]
    answer = queens.weight(grid, minimize=True)
    assert answer.sense == "min" and queens.weight(grid).sense == "max"
    assert answer.optimal and answer.bound == answer.sum == brute_weight(grid, min)
    assert sum(grid[r][c] for r, c in answer.queens) == answer.sum
    assert queens.verify_weight(grid, answer)
    assert answer.to_dict()["sense"] == "min"


@pytest.mark.parametrize("n", [4, 8, 11])
def test_weight_sums_beyond_64_bits_are_exact(n):
    # Small grids (N <= 10) take the quick path; 11 the interruptible one. Either way the
    # sum and bound are exact ints, beyond 64 bits and below -2**63 too.
    big = 2**62 + 3
    for sign in (1, -1):
        grid = [[sign * big] * n for _ in range(n)]
        answer = queens.weight(grid)
        assert answer.sum == answer.bound == sign * big * n
        assert answer.to_dict()["sum"] == sign * big * n


def test_weight_of_two_and_three_has_no_answer():
    for n in (2, 3):
        with pytest.raises(queens.NoAnswerError, match="no placement"):
            queens.weight([[1] * n] * n)


def test_a_forged_weight_answer_is_invalid():
    grid = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
    forged = queens.weight(grid).to_dict()
    forged["sum"] += 1
    verdict = queens.verify_weight(grid, forged)
    assert not verdict and verdict.message.startswith("invalid:")
    assert queens.verify_weight(grid, json.dumps(queens.weight(grid).to_dict()))


class ArrayLike:
    """An object with tolist(), as a NumPy array has."""

    def __init__(self, rows):
        self.rows = rows

    def tolist(self):
        return self.rows


def test_weight_takes_array_likes_and_numpy():
    grid = [[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8], [9, 7, 9, 3]]
    assert queens.weight(ArrayLike(grid)).sum == brute_weight(grid)
    np = pytest.importorskip("numpy")
    assert queens.weight(np.array(grid, dtype=np.int64)).sum == brute_weight(grid)
    assert queens.repair(np.eye(4, dtype=bool)[[0, 0, 2, 3]]).optimal
    assert queens.guard(np.ones((3, 3), dtype=bool)).guards == 1


def real_moves(queens_at, n):
    """Every position one real move away (along a line, over and onto empty squares)."""
    occupied = set(queens_at)
    for q in queens_at:
        for dr, dc in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]:
            r, c = q
            while True:
                r, c = r + dr, c + dc
                if not (0 <= r < n and 0 <= c < n) or (r, c) in occupied:
                    break
                yield frozenset(occupied - {q} | {(r, c)})


def brute_repair(start, n):
    """The fewest real moves to a non-attacking position, by breadth-first search."""
    start = frozenset(start)
    seen, frontier = {start}, deque([(start, 0)])
    while frontier:
        position, depth = frontier.popleft()
        if non_attacking(list(position)):
            return depth
        for nxt in real_moves(position, n):
            if nxt not in seen:
                seen.add(nxt)
                frontier.append((nxt, depth + 1))
    return None


def board_of(squares, n):
    return ["".join("q" if (r, c) in squares else "." for c in range(n)) for r in range(n)]


@pytest.mark.parametrize("seed", range(10))
def test_repair_is_the_breadth_first_minimum_and_verifies(seed):
    rng = random.Random(seed)
    n = 4 if seed < 6 else 5
    squares = set(rng.sample([(r, c) for r in range(n) for c in range(n)], n))
    board = board_of(squares, n)
    answer = queens.repair(board)
    assert answer.optimal and answer.moves == brute_repair(squares, n)
    assert answer.lower_bound == answer.moves >= answer.relaxed
    assert len(answer.plan) == answer.moves and non_attacking(answer.final)
    assert queens.verify_repair(board, answer)
    assert queens.verify_repair("\n".join(board), answer.to_json())
    # Squares as booleans give the same board.
    grid = [[(r, c) in squares for c in range(n)] for r in range(n)]
    assert queens.repair(grid).moves == answer.moves


def covers(squares, marks):
    return all(
        any(q == m or attack(q, m) for q in squares)
        for m in marks
    )


def brute_guard(rows, cols, marked, independent):
    board = [(r, c) for r in range(rows) for c in range(cols)]
    for k in range(len(board) + 1):
        for chosen in itertools.combinations(board, k):
            if covers(chosen, marked) and (not independent or non_attacking(chosen)):
                return k
    return None


@pytest.mark.parametrize("seed", range(10))
def test_guard_is_the_subset_minimum_and_verifies(seed):
    rng = random.Random(100 + seed)
    rows, cols = rng.randint(1, 4), rng.randint(1, 5)
    grid = [[rng.random() < 0.5 for _ in range(cols)] for _ in range(rows)]
    marked = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c]]
    independent = seed % 2 == 1
    answer = queens.guard(grid, independent=independent)
    assert answer.optimal and answer.guards == brute_guard(rows, cols, marked, independent)
    assert covers(answer.queens, marked)
    assert queens.verify_guard(grid, answer)
    text = "".join("".join("X" if m else "." for m in row) + "\n" for row in grid)
    assert queens.guard(text, independent=independent).guards == answer.guards


def test_full_boards_guard_numbers():
    # OEIS A075458: the domination numbers of the queen graphs, n = 1..8.
    assert [queens.guard(n).guards for n in range(1, 9)] == [1, 1, 1, 2, 3, 3, 4, 5]
    assert queens.guard((3, 4)).guards == brute_guard(3, 4, [(r, c) for r in range(3) for c in range(4)], False)
    counted = queens.guard(3, count_sets=True)
    assert counted.minimum_sets == 1


def test_complete_finds_and_counts_completions():
    board = (queens_examples() / "nauck.txt").read_text()
    found = queens.complete(board)
    assert found.completed and found.proven and non_attacking(found.queens)
    assert set(found.given) <= set(found.queens) and len(found.queens) == found.n
    assert queens.verify_complete(board, found)
    counted = queens.complete(board, count=True)
    n, given = found.n, set(found.given)
    brute = sum(1 for p in brute_solutions(n) if given <= set(enumerate(p)))
    assert counted.completions == brute and counted.complete


def queens_examples():
    from conftest import EXAMPLES

    return EXAMPLES


def test_answers_read_as_people_and_notebooks_want():
    answer = queens.weight([[7]])
    assert repr(answer).startswith("WeightAnswer(n=1, sense='max', sum=7, queens=[(0, 0)], optimal=True")
    assert answer._repr_svg_().startswith("<svg")
    assert "best sum: 7" in str(answer)
    assert queens.count(6)._repr_svg_() is None
    assert repr(queens.count(6)).startswith("CountAnswer(n=6, solutions=4, unique=1, complete=True")
