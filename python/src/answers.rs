//! The answers as Python objects: each holds the library's solved problem and reads its fields
//! from it; `to_dict()`, `str()` and `_repr_svg_()` are the command line's JSON, text and SVG
//! writers' output.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyDict;
use queens::board::Square;
use queens::complete::{Decision, Tally};
use queens::puzzle::{Complete, Count, Guard, Puzzle, Repair, Solved, Style, Weight};
use std::fmt::Write as _;

/// `json.loads`, looked up once.
fn json_loads(py: Python<'_>) -> PyResult<&Bound<'_, PyAny>> {
    static LOADS: GILOnceCell<PyObject> = GILOnceCell::new();
    LOADS
        .get_or_try_init(py, || {
            Ok::<_, PyErr>(py.import("json")?.getattr("loads")?.unbind())
        })
        .map(|f| f.bind(py))
}

/// `solved` written in `style`; a style with no writer is a `ValueError`.
fn write<P: Puzzle>(solved: &Solved<P>, style: Style) -> PyResult<String> {
    P::write(solved, style).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The command line's JSON object of `solved`, as a new dict.
fn to_dict<'py, P: Puzzle>(py: Python<'py>, solved: &Solved<P>) -> PyResult<Bound<'py, PyDict>> {
    Ok(json_loads(py)?
        .call1((write(solved, Style::Json)?,))?
        .downcast_into::<PyDict>()?)
}

/// `value` as a Python int; one within 64 bits the cheap way (under the stable ABI, PyO3
/// builds a 128-bit int from two halves with Python arithmetic).
fn int128(py: Python<'_>, value: i128) -> PyResult<Bound<'_, PyAny>> {
    match i64::try_from(value) {
        Ok(small) => Ok(small.into_pyobject(py)?.into_any()),
        Err(_) => Ok(value.into_pyobject(py)?.into_any()),
    }
}

/// Squares as `(row, column)` pairs.
fn pairs(squares: &[Square]) -> Vec<(usize, usize)> {
    squares.iter().map(|s| (s.row, s.col)).collect()
}

/// A `__repr__` written field by field, as Python writes values.
struct Repr(String);

impl Repr {
    fn new(name: &str) -> Self {
        Repr(format!("{name}("))
    }

    fn field(mut self, name: &str, value: impl std::fmt::Display) -> Self {
        if !self.0.ends_with('(') {
            self.0.push_str(", ");
        }
        let _ = write!(self.0, "{name}={value}");
        self
    }

    fn flag(self, name: &str, value: bool) -> Self {
        self.field(name, if value { "True" } else { "False" })
    }

    fn squares(self, name: &str, squares: &[Square]) -> Self {
        let list: Vec<String> = squares
            .iter()
            .map(|s| format!("({}, {})", s.row, s.col))
            .collect();
        self.field(name, format!("[{}]", list.join(", ")))
    }

    fn run(self, seconds: f64, threads: usize) -> String {
        self.field("seconds", format!("{seconds:.6}"))
            .field("threads", threads)
            .0
            + ")"
    }
}

/// The methods of an answer class: its own (`$own`), and those every answer has: the
/// writers' output and the run's measurements.
macro_rules! answer_methods {
    ($class:ident { $($own:tt)* }) => {
        #[pymethods]
        impl $class {
            $($own)*

        /// The answer as the command line's `--json` object (a new dict each call).
        fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
            to_dict(py, &self.solved)
        }

        /// The answer as the command line's `--json` text, on one line.
        fn to_json(&self) -> PyResult<String> {
            write(&self.solved, Style::Json)
        }

        /// The answer as the command line's text output.
        fn text(&self) -> PyResult<String> {
            write(&self.solved, Style::Text)
        }

        fn __str__(&self) -> PyResult<String> {
            self.text()
        }

        /// The answer as a self-contained SVG picture (None where there is none: a count).
        fn svg(&self) -> Option<String> {
            write(&self.solved, Style::Svg).ok()
        }

        fn _repr_svg_(&self) -> Option<String> {
            self.svg()
        }

        /// Wall-clock seconds of the solve.
        #[getter]
        fn seconds(&self) -> f64 {
            self.solved.info.seconds
        }

        /// Worker threads of the solve.
        #[getter]
        fn threads(&self) -> usize {
            self.solved.info.threads
        }
        }
    };
}

/// The number of N-queens solutions, all and up to rotation and reflection. `complete` is
/// False when a time limit or Ctrl-C stopped the count: the numbers then count the finished
/// work units only (lower bounds), `units_done` of `units_total`.
#[pyclass(frozen, module = "queens")]
pub struct CountAnswer {
    pub solved: Solved<Count>,
}

answer_methods!(CountAnswer {

    /// The board size N.
    #[getter]
    fn n(&self) -> u32 {
        self.solved.answer.counts.n
    }
    /// The number of solutions (OEIS A000170), a lower bound unless `complete`.
    #[getter]
    fn solutions(&self) -> u128 {
        self.solved.answer.counts.solutions
    }
    /// The number of solutions up to rotation and reflection (A002562).
    #[getter]
    fn unique(&self) -> u128 {
        self.solved.answer.counts.unique
    }
    /// Whether every work unit was counted.
    #[getter]
    fn complete(&self) -> bool {
        self.solved.answer.counts.complete
    }
    /// Work units counted.
    #[getter]
    fn units_done(&self) -> u64 {
        self.solved.answer.counts.units_done
    }
    /// Work units in the plan.
    #[getter]
    fn units_total(&self) -> u64 {
        self.solved.answer.counts.units_total
    }

    fn __repr__(&self) -> String {
        let c = &self.solved.answer.counts;
        Repr::new("CountAnswer")
            .field("n", c.n)
            .field("solutions", c.solutions)
            .field("unique", c.unique)
            .flag("complete", c.complete)
            .field("units_done", c.units_done)
            .field("units_total", c.units_total)
            .run(self.solved.info.seconds, self.solved.info.threads)
    }
});

/// N non-attacking queens of the largest weight sum (the smallest when `sense` is `"min"`):
/// `queens` in row order, `sum`, and `bound`, the proven bound on the best sum (equal to `sum`
/// when `optimal`).
#[pyclass(frozen, module = "queens")]
pub struct WeightAnswer {
    pub solved: Solved<Weight>,
}

answer_methods!(WeightAnswer {

    /// The side N of the grid.
    #[getter]
    fn n(&self) -> usize {
        self.solved.answer.n
    }
    /// The sum of the weights under the queens.
    #[getter]
    fn sum<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int128(py, self.solved.answer.sum)
    }
    /// The queens as `(row, column)` pairs, one per row, in row order.
    #[getter]
    fn queens(&self) -> Vec<(usize, usize)> {
        pairs(&self.solved.answer.queens)
    }
    /// `"max"` (the largest sum was asked for) or `"min"` (the smallest).
    #[getter]
    fn sense(&self) -> &'static str {
        self.solved.answer.sense.name()
    }
    /// Whether `sum` is proven the best.
    #[getter]
    fn optimal(&self) -> bool {
        self.solved.answer.optimal
    }
    /// The proven bound on the best sum: an upper bound on the largest, or a lower bound on
    /// the smallest.
    #[getter]
    fn bound<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        int128(py, self.solved.answer.bound)
    }
    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.solved.answer.nodes
    }

    fn __repr__(&self) -> String {
        let a = &self.solved.answer;
        Repr::new("WeightAnswer")
            .field("n", a.n)
            .field("sense", format_args!("'{}'", a.sense.name()))
            .field("sum", a.sum)
            .squares("queens", &a.queens)
            .flag("optimal", a.optimal)
            .field("bound", a.bound)
            .field("nodes", a.nodes)
            .run(self.solved.info.seconds, self.solved.info.threads)
    }
});

/// The fewest real queen moves (a queen never passes over or lands on another) to a
/// non-attacking position: `plan`, a list of `((row, col), (row, col))` moves, replays legally
/// from the input to `final`. `relaxed` is the count with blocking ignored (the judges'
/// answer); `lower_bound` the proven lower bound (equal to `moves` when `optimal`).
#[pyclass(frozen, module = "queens")]
pub struct RepairAnswer {
    pub solved: Solved<Repair>,
}

type PlanMove = ((usize, usize), (usize, usize));

answer_methods!(RepairAnswer {

    /// The side N of the board.
    #[getter]
    fn n(&self) -> usize {
        self.solved.answer.n
    }
    /// The number of moves of `plan`.
    #[getter]
    fn moves(&self) -> usize {
        self.solved.answer.moves
    }
    /// The fewest moves with blocking ignored, a lower bound on `moves`.
    #[getter]
    fn relaxed(&self) -> usize {
        self.solved.answer.relaxed
    }
    /// Whether `relaxed` is proven.
    #[getter]
    fn relaxed_optimal(&self) -> bool {
        self.solved.answer.relaxed_optimal
    }
    /// Whether `moves` is proven the fewest.
    #[getter]
    fn optimal(&self) -> bool {
        self.solved.answer.optimal
    }
    /// The proven lower bound on the fewest moves.
    #[getter]
    fn lower_bound(&self) -> usize {
        self.solved.answer.lower_bound
    }
    /// The moves, each `((row, col), (row, col))`, legal in turn.
    #[getter]
    fn plan(&self) -> Vec<PlanMove> {
        self.solved
            .answer
            .plan
            .iter()
            .map(|m| ((m.from.row, m.from.col), (m.to.row, m.to.col)))
            .collect()
    }
    /// The queens after the plan, in row-major order.
    #[getter]
    fn r#final(&self) -> Vec<(usize, usize)> {
        pairs(&self.solved.answer.final_queens)
    }
    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.solved.answer.nodes
    }

    fn __repr__(&self) -> String {
        let a = &self.solved.answer;
        let plan: Vec<String> = a
            .plan
            .iter()
            .map(|m| {
                format!(
                    "(({}, {}), ({}, {}))",
                    m.from.row, m.from.col, m.to.row, m.to.col
                )
            })
            .collect();
        Repr::new("RepairAnswer")
            .field("n", a.n)
            .field("moves", a.moves)
            .field("relaxed", a.relaxed)
            .flag("relaxed_optimal", a.relaxed_optimal)
            .flag("optimal", a.optimal)
            .field("lower_bound", a.lower_bound)
            .field("plan", format!("[{}]", plan.join(", ")))
            .squares("final", &a.final_queens)
            .field("nodes", a.nodes)
            .run(self.solved.info.seconds, self.solved.info.threads)
    }
});

/// The fewest queens that occupy or attack every marked square: `queens` (sorted), `guards`
/// of them, and the proven `lower_bound` with its source (`"search"` or `"theorem: NAME"`).
/// `minimum_sets`: the number of guard sets of the minimum size, when they were counted and the
/// minimum is proven; else None.
#[pyclass(frozen, module = "queens")]
pub struct GuardAnswer {
    pub solved: Solved<Guard>,
}

answer_methods!(GuardAnswer {

    /// Board rows.
    #[getter]
    fn rows(&self) -> usize {
        self.solved.answer.guards.rows
    }
    /// Board columns.
    #[getter]
    fn cols(&self) -> usize {
        self.solved.answer.guards.cols
    }
    /// The number of queens.
    #[getter]
    fn guards(&self) -> usize {
        self.solved.answer.guards.queens.len()
    }
    /// The queens as `(row, column)` pairs, sorted.
    #[getter]
    fn queens(&self) -> Vec<(usize, usize)> {
        pairs(&self.solved.answer.guards.queens)
    }
    /// Whether no fewer queens can guard the marks (proven).
    #[getter]
    fn optimal(&self) -> bool {
        self.solved.answer.guards.optimal
    }
    /// The proven lower bound on the number of queens.
    #[getter]
    fn lower_bound(&self) -> usize {
        self.solved.answer.guards.lower_bound
    }
    /// Where the lower bound comes from: `"search"` or `"theorem: NAME"`.
    #[getter]
    fn lower_bound_source(&self) -> String {
        self.solved.answer.guards.lower_bound_source.to_string()
    }
    /// Whether the queens were required not to attack one another.
    #[getter]
    fn independent(&self) -> bool {
        self.solved.answer.guards.independent
    }
    /// Search nodes visited.
    #[getter]
    fn nodes(&self) -> u64 {
        self.solved.answer.guards.nodes
    }
    /// The number of guard sets of the minimum size, when counted and proven.
    #[getter]
    fn minimum_sets(&self) -> Option<u128> {
        self.solved.answer.minimum_sets.flatten()
    }

    fn __repr__(&self) -> String {
        let g = &self.solved.answer.guards;
        let mut repr = Repr::new("GuardAnswer")
            .field("rows", g.rows)
            .field("cols", g.cols)
            .field("guards", g.queens.len())
            .squares("queens", &g.queens)
            .flag("optimal", g.optimal)
            .field("lower_bound", g.lower_bound)
            .field("lower_bound_source", format!("'{}'", g.lower_bound_source))
            .flag("independent", g.independent)
            .field("nodes", g.nodes);
        if let Some(asked) = self.solved.answer.minimum_sets {
            repr = repr.field(
                "minimum_sets",
                asked.map_or_else(|| "None".to_string(), |k| k.to_string()),
            );
        }
        repr.run(self.solved.info.seconds, self.solved.info.threads)
    }
});

/// A completion of a partial board (`count=False`) or the number of its completions
/// (`count=True`). A decision has `completed`, `queens` (all queens, sorted, the `given` ones
/// included; None when no completion exists) and `proven` (False when a time limit stopped the
/// search first); a count has `completions` (a lower bound unless `complete`). The fields of
/// the other kind are None.
#[pyclass(frozen, module = "queens")]
pub struct CompleteAnswer {
    pub solved: Solved<Complete>,
}

impl CompleteAnswer {
    fn decision(&self) -> Option<&Decision> {
        match &self.solved.answer {
            queens::puzzle::CompleteAnswer::Decision(d) => Some(d),
            queens::puzzle::CompleteAnswer::Count(_) => None,
        }
    }

    fn tally(&self) -> Option<&Tally> {
        match &self.solved.answer {
            queens::puzzle::CompleteAnswer::Count(t) => Some(t),
            queens::puzzle::CompleteAnswer::Decision(_) => None,
        }
    }
}

answer_methods!(CompleteAnswer {

    /// The side N of the board.
    #[getter]
    fn n(&self) -> usize {
        self.solved.input.n
    }
    /// The queens of the input.
    #[getter]
    fn given(&self) -> Vec<(usize, usize)> {
        pairs(&self.solved.input.queens)
    }
    /// A decision: whether a completion was found.
    #[getter]
    fn completed(&self) -> Option<bool> {
        self.decision().map(|d| d.completion.is_some())
    }
    /// A decision: the completion's queens, sorted.
    #[getter]
    fn queens(&self) -> Option<Vec<(usize, usize)>> {
        self.decision()
            .and_then(|d| d.completion.as_deref())
            .map(pairs)
    }
    /// A decision: whether the answer is final.
    #[getter]
    fn proven(&self) -> Option<bool> {
        self.decision().map(|d| !d.stopped)
    }
    /// A count: the number of completions.
    #[getter]
    fn completions(&self) -> Option<u128> {
        self.tally().map(|t| t.completions)
    }
    /// A count: whether every completion was counted.
    #[getter]
    fn complete(&self) -> Option<bool> {
        self.tally().map(|t| !t.stopped)
    }
    /// Search nodes.
    #[getter]
    fn nodes(&self) -> u64 {
        match &self.solved.answer {
            queens::puzzle::CompleteAnswer::Decision(d) => d.nodes,
            queens::puzzle::CompleteAnswer::Count(t) => t.nodes,
        }
    }

    fn __repr__(&self) -> String {
        let repr = Repr::new("CompleteAnswer")
            .field("n", self.solved.input.n)
            .squares("given", &self.solved.input.queens);
        let repr = match &self.solved.answer {
            queens::puzzle::CompleteAnswer::Decision(d) => {
                let repr = repr.flag("completed", d.completion.is_some());
                match &d.completion {
                    Some(q) => repr.squares("queens", q),
                    None => repr.field("queens", "None"),
                }
                .flag("proven", !d.stopped)
                .field("nodes", d.nodes)
            }
            queens::puzzle::CompleteAnswer::Count(t) => repr
                .field("completions", t.completions)
                .flag("complete", !t.stopped)
                .field("nodes", t.nodes),
        };
        repr.run(self.solved.info.seconds, self.solved.info.threads)
    }
});

/// A solved problem as its Python answer object.
pub trait IntoAnswer: Puzzle + Sized {
    /// `solved` wrapped in its answer class.
    fn into_answer(py: Python<'_>, solved: Solved<Self>) -> PyResult<PyObject>;

    /// Whether solving `input` takes microseconds whatever it holds, so that it runs at once
    /// on the calling thread, holding the interpreter's lock ([`crate::run::at_once`]).
    fn quick(_input: &Self::Input) -> bool {
        false
    }
}

macro_rules! into_answer {
    ($puzzle:ty, $class:ident $(, $quick:item)?) => {
        impl IntoAnswer for $puzzle {
            fn into_answer(py: Python<'_>, solved: Solved<Self>) -> PyResult<PyObject> {
                Ok(Py::new(py, $class { solved })?.into_any())
            }
            $($quick)?
        }
    };
}

into_answer!(Count, CountAnswer);
into_answer!(
    Weight,
    WeightAnswer,
    /// A grid of side N <= 10 is solved by scanning the listed placements (at most 724 of
    /// them): microseconds.
    fn quick(grid: &queens::problem::WeightGrid) -> bool {
        queens::board::listed_solutions(grid.n).is_some()
    }
);
into_answer!(Repair, RepairAnswer);
into_answer!(Guard, GuardAnswer);
into_answer!(Complete, CompleteAnswer);
