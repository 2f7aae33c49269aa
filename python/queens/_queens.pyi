"""Type stubs of the native half of `queens` (see `queens/__init__.py` for the walk-through)."""

from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

Square = Tuple[int, int]

class InputError(ValueError):
    """Input that could not be read: the command line's message, with where it goes wrong."""

    line: int
    """1-based line (for rows given as lists: the row) of the first problem."""
    column: int
    """1-based column (in characters of the command line's text of the input)."""
    case: int
    """Judge inputs only: the 1-based case (0: the header)."""
    output: str
    """Judge inputs only: the answers of the cases before the bad one."""

class NoAnswerError(ValueError):
    """The question has no answer (no placement of N queens for N = 2 or 3)."""

class _Answer:
    seconds: float
    """Wall-clock seconds of the solve."""
    threads: int
    """Worker threads of the solve."""
    def to_dict(self) -> Dict[str, Any]:
        """The command line's ``--json`` object (a new dict each call)."""
    def to_json(self) -> str:
        """The command line's ``--json`` text, on one line."""
    def text(self) -> str:
        """The command line's text output."""
    def svg(self) -> Optional[str]:
        """A self-contained SVG picture (None for a count)."""
    def _repr_svg_(self) -> Optional[str]: ...

class CountAnswer(_Answer):
    n: int
    solutions: int
    unique: int
    complete: bool
    units_done: int
    units_total: int

class WeightAnswer(_Answer):
    n: int
    sense: str
    sum: int
    queens: List[Square]
    optimal: bool
    bound: int
    nodes: int

class RepairAnswer(_Answer):
    n: int
    moves: int
    relaxed: int
    relaxed_optimal: bool
    optimal: bool
    lower_bound: int
    plan: List[Tuple[Square, Square]]
    final: List[Square]
    nodes: int

class GuardAnswer(_Answer):
    rows: int
    cols: int
    guards: int
    queens: List[Square]
    optimal: bool
    lower_bound: int
    lower_bound_source: str
    independent: bool
    nodes: int
    minimum_sets: Optional[int]

class CompleteAnswer(_Answer):
    n: int
    given: List[Square]
    completed: Optional[bool]
    queens: Optional[List[Square]]
    proven: Optional[bool]
    completions: Optional[int]
    complete: Optional[bool]
    nodes: int

class SolutionIterator(Iterator[Tuple[int, List[int]]]):
    def __init__(self, n: int, unique: bool = False, limit: Optional[int] = None) -> None: ...
    def __iter__(self) -> "SolutionIterator": ...
    def __next__(self) -> Tuple[int, List[int]]: ...

def count(
    n: int,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
    memory: Optional[int] = None,
) -> CountAnswer:
    """Counts the N-queens solutions (N from 1 to 32), all and up to symmetry."""

def weight(
    grid: Any,
    minimize: bool = False,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> WeightAnswer:
    """N non-attacking queens of the largest sum on an N x N grid of integers (the smallest
    with ``minimize``)."""

def repair(
    board: Any, threads: Optional[int] = None, time_limit: Optional[float] = None
) -> RepairAnswer:
    """The fewest real queen moves to a non-attacking position, with the moves."""

def guard(
    marks: Union[int, Tuple[int, int], Any],
    independent: bool = False,
    count_sets: bool = False,
    theorems: bool = True,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> GuardAnswer:
    """The fewest queens that occupy or attack every marked square."""

def complete(
    board: Any,
    count: bool = False,
    diagonals: Optional[int] = None,
    threads: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> CompleteAnswer:
    """A completion of a partial board, or (count=True) the number of completions."""

def judge(name: str, text: str, time_limit: Optional[float] = None) -> str:
    """A judge input answered in the judge's exact output format."""

def verify(kind: str, input: Any, answer: str, diagonals: Optional[int] = None) -> Tuple[bool, str]: ...
def verify_placement(board: Any) -> Tuple[bool, str]: ...
def solutions_svg(boards: List[List[int]], first_index: int) -> str: ...
def _after_fork() -> None: ...
