"""Exact, certified answers to chessboard queen problems, from Python.

The solvers are the Rust library's (the ``queens`` command line's), called in process::

    >>> import queens
    >>> queens.count(8).solutions
    92
    >>> answer = queens.weight([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]])
    >>> answer.sum, answer.optimal, answer.queens
    (34, True, [(0, 1), (1, 3), (2, 0), (3, 2)])
    >>> queens.verify_weight([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]], answer).valid
    True

Every answer has ``to_dict()`` (exactly the command line's ``--json`` object), ``to_json()``,
``str()`` (the command line's text output) and ``_repr_svg_()`` (a notebook draws the board).
Inputs are strings in the command line's file formats, lists of rows, or NumPy arrays.

Long solves run without the interpreter's lock, stop at ``time_limit`` seconds with their best
answer and proven bound, and stop on Ctrl-C: the ``KeyboardInterrupt`` then carries the answer
so far as its ``answer`` attribute. Input that cannot be read raises :class:`InputError` (a
``ValueError``) with the command line's message, ``line`` and ``column``; a question without an
answer raises :class:`NoAnswerError` (a ``ValueError``).
"""

from __future__ import annotations

import json as _json
import os as _os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Optional, Tuple

from . import _queens
from ._queens import (
    CompleteAnswer,
    CountAnswer,
    GuardAnswer,
    InputError,
    NoAnswerError,
    RepairAnswer,
    WeightAnswer,
    complete,
    count,
    guard,
    judge,
    repair,
    weight,
)

__all__ = [
    "count",
    "solutions",
    "weight",
    "repair",
    "guard",
    "complete",
    "judge",
    "verify_weight",
    "verify_repair",
    "verify_guard",
    "verify_complete",
    "verify_solutions",
    "verify_placement",
    "CountAnswer",
    "Solution",
    "WeightAnswer",
    "RepairAnswer",
    "GuardAnswer",
    "CompleteAnswer",
    "Verdict",
    "InputError",
    "NoAnswerError",
]

__version__ = "0.1.0"

if hasattr(_os, "register_at_fork"):
    # A forked child has none of the parent's threads: it starts its own solve-budget ticker.
    _os.register_at_fork(after_in_child=_queens._after_fork)

Square = Tuple[int, int]

@dataclass(frozen=True)
class Solution:
    """One N-queens solution: ``index`` (from 1, in enumeration order) and ``columns`` (the
    queen's column in each row)."""

    n: int
    index: int
    columns: Tuple[int, ...]

    @property
    def queens(self) -> List[Square]:
        """The queens as ``(row, column)`` pairs, in row order."""
        return list(enumerate(self.columns))

    def to_dict(self) -> Dict[str, Any]:
        """The solution as ``queens solutions N --json`` writes its line."""
        return {"n": self.n, "index": self.index, "queens": [list(q) for q in self.queens]}

    def to_json(self) -> str:
        """The solution as the command line's JSON line (without the newline)."""
        return _json.dumps(self.to_dict(), separators=(",", ":"))

    def __str__(self) -> str:
        return "".join(
            "".join("Q" if c == col else "." for c in range(self.n)) + "\n"
            for col in self.columns
        )

    def svg(self) -> str:
        """The solution drawn as an SVG picture."""
        return _queens.solutions_svg([list(self.columns)], self.index)

    def _repr_svg_(self) -> str:
        return self.svg()


@dataclass(frozen=True)
class Verdict:
    """What re-checking a certificate found: ``valid``, and the command line's line (``valid:
    ...`` or ``invalid: ...`` with the first violation). True when valid. Optimality claims are
    not checked."""

    valid: bool
    message: str

    def __bool__(self) -> bool:
        return self.valid

    def __str__(self) -> str:
        return self.message


def solutions(n: int, unique: bool = False, limit: Optional[int] = None) -> Iterator[Solution]:
    """The N-queens solutions in the command line's order, found one at a time as the iterator
    is advanced (``unique``: one per class of rotations and reflections; ``limit``: at most
    that many). N = 2 and 3 have none."""
    for index, columns in _queens.SolutionIterator(n, unique, limit):
        yield Solution(n, index, tuple(columns))


def _answer_text(answer: Any) -> str:
    if isinstance(answer, str):
        return answer
    if isinstance(answer, dict):
        return _json.dumps(answer)
    to_json = getattr(answer, "to_json", None)
    if to_json is None:
        raise TypeError(
            f"an answer must be an answer object, a dict or a JSON string, not {type(answer).__name__}"
        )
    return to_json()


def _verdict(result: Tuple[bool, str]) -> Verdict:
    return Verdict(*result)


def verify_weight(grid: Any, answer: Any) -> Verdict:
    """Re-checks a weight answer (an answer object, its dict or its JSON text) against its grid:
    N queens, none attacking, and the claimed sum."""
    return _verdict(_queens.verify("weight", grid, _answer_text(answer)))


def verify_repair(board: Any, answer: Any) -> Verdict:
    """Re-checks a repair answer against its start board: every move legal in turn, the end
    position non-attacking, the claimed move count."""
    return _verdict(_queens.verify("repair", board, _answer_text(answer)))


def verify_guard(marks: Any, answer: Any) -> Verdict:
    """Re-checks a guard answer against its marks: every mark covered (and no two queens
    attacking for an independent answer)."""
    return _verdict(_queens.verify("guard", marks, _answer_text(answer)))


def verify_complete(board: Any, answer: Any, diagonals: Optional[int] = None) -> Verdict:
    """Re-checks a completion against its partial board."""
    return _verdict(_queens.verify("complete", board, _answer_text(answer), diagonals))


def verify_solutions(n: int, lines: Any) -> Verdict:
    """Re-checks N-queens solutions (``Solution`` objects, their dicts, or JSON lines as
    ``queens solutions N --json`` writes them): each valid, none twice."""
    if isinstance(lines, str):
        text = lines
    else:
        text = "".join(_answer_text(line) + "\n" for line in lines)
    return _verdict(_queens.verify("solutions", n, text))


def verify_placement(board: Any) -> Verdict:
    """Checks a board of N queens: valid when no two attack, else the first attacking pair."""
    return _verdict(_queens.verify_placement(board))
