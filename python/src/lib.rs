//! `queens._queens`: the native half of the `queens` Python package. Every function reads its
//! input with the library's parsers, solves with the library's solvers through
//! `queens::puzzle`, and hands back a handle whose JSON, text and SVG are the command line's;
//! the Python half (`queens/__init__.py`) turns handles into typed answer objects.

mod answers;
mod input;
mod run;

use answers::IntoAnswer;
use queens::format::RunInfo;
use std::time::Instant;

use input::{board_text, weight_input, Squares, WeightInput};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyValueError};
use pyo3::prelude::*;
use queens::board::Columns;
use queens::format::{svg, ParseError};
use queens::judge::{JudgeError, JudgeProblem};
use queens::problem::MarkGrid;
use queens::puzzle::count::{check_placement, check_solutions};
use queens::puzzle::{
    self, CheckError, Complete, CompleteChoices, Count, CountChoices, Guard, GuardChoices, Listing,
    Puzzle, Repair, Verdict, Weight,
};
use queens::weight::Sense;
use queens::Deadline;

create_exception!(
    queens,
    InputError,
    PyValueError,
    "Input that could not be read: the command line's message, with `line` and `column` \
     (1-based) where the input goes wrong."
);
create_exception!(
    queens,
    NoAnswerError,
    PyValueError,
    "The question has no answer (for example no placement of N queens exists for N = 2 or 3); \
     the command line exits with status 1 here."
);

/// A parse error as `InputError`, with its line and column as attributes.
fn input_error(py: Python<'_>, error: &ParseError) -> PyErr {
    let err = InputError::new_err(error.to_string());
    let value = err.value(py);
    let _ = value.setattr("line", error.line);
    let _ = value.setattr("column", error.col);
    err
}

/// Reads `text` as `P`'s input (with `choices`), errors as [`InputError`].
fn read<P: Puzzle>(py: Python<'_>, text: &str, choices: &P::Choices) -> PyResult<P::Input> {
    P::read_with(text, choices).map_err(|e| input_error(py, &e))
}

/// Solves `input` as `P` under Python with the options of `threads` and `time_limit`.
fn solve<P: IntoAnswer>(
    py: Python<'_>,
    input: P::Input,
    choices: P::Choices,
    threads: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PyObject> {
    solve_with_options::<P>(py, input, choices, run::options(threads, time_limit)?)
}

/// Solves `input` as `P` under Python ([`run::interruptible`]): the answer object; after
/// Ctrl-C the `KeyboardInterrupt` with the answer so far as its `answer` attribute.
fn solve_with_options<P: IntoAnswer>(
    py: Python<'_>,
    input: P::Input,
    choices: P::Choices,
    options: queens::Options,
) -> PyResult<PyObject> {
    let work = |options: &queens::Options| {
        let started = Instant::now();
        P::solve(&input, &choices, options)
            .map(|answer| (answer, RunInfo::measured(started, options)))
    };
    let outcome = if P::quick(&input) {
        run::at_once(options, work)?
    } else {
        run::interruptible(py, options, work)?
    };
    match (outcome.result, outcome.interrupt) {
        (Ok((answer, info)), interrupt) => {
            let answer = P::into_answer(
                py,
                puzzle::Solved {
                    input,
                    answer,
                    info,
                },
            )?;
            match interrupt {
                None => Ok(answer),
                Some(err) => {
                    // Any exception a signal handler raised gets the answer so far.
                    let _ = err.value(py).setattr("answer", answer);
                    Err(err)
                }
            }
        }
        (Err(_), Some(err)) => Err(err),
        (Err(e), None) if P::unanswerable(&e) => Err(NoAnswerError::new_err(e.to_string())),
        (Err(e), None) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// The board size of a count or a listing, checked as the library checks it.
fn board_size(n: &Bound<'_, PyAny>) -> PyResult<u32> {
    let size = n.extract::<i64>().ok().and_then(|v| u32::try_from(v).ok());
    match size {
        Some(size) => queens::count::check_size(size)
            .map(|()| size)
            .map_err(|e| PyValueError::new_err(e.to_string())),
        // Negative or beyond 32 bits: the library's message, with the number as given.
        None if n.is_instance_of::<pyo3::types::PyInt>() => Err(PyValueError::new_err(format!(
            "N = {n} is not supported: N must be from 1 to {}",
            queens::count::MAX_N
        ))),
        None => Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "N must be an int, not {}",
            n.get_type().name()?
        ))),
    }
}

/// Counts the N-queens solutions.
#[pyfunction]
#[pyo3(signature = (n, threads=None, time_limit=None, memory=None))]
fn count(
    py: Python<'_>,
    n: &Bound<'_, PyAny>,
    threads: Option<i64>,
    time_limit: Option<f64>,
    memory: Option<u64>,
) -> PyResult<PyObject> {
    let n = board_size(n)?;
    let choices = CountChoices {
        first_solution: true,
    };
    let options = queens::Options {
        // The most memory the join may take, in MiB (the command line's `--memory`).
        memory: memory.map(|mib| mib << 20),
        ..run::options(threads, time_limit)?
    };
    solve_with_options::<Count>(py, n, choices, options)
}

/// The N-queens solutions in enumeration order, one at a time: `(index, columns)`.
#[pyclass(module = "queens._queens", name = "SolutionIterator")]
struct SolutionIterator {
    listing: Listing,
}

#[pymethods]
impl SolutionIterator {
    #[new]
    #[pyo3(signature = (n, unique=false, limit=None))]
    fn new(n: &Bound<'_, PyAny>, unique: bool, limit: Option<u64>) -> PyResult<Self> {
        let n = board_size(n)?;
        Ok(SolutionIterator {
            listing: Listing::new(n, unique, 0, limit.unwrap_or(u64::MAX), Deadline::never()),
        })
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(mut slf: PyRefMut<'_, Self>, py: Python<'_>) -> Option<(u64, Columns)> {
        let listing = &mut slf.listing;
        py.allow_threads(|| listing.next())
    }
}

/// The SVG drawing of solutions (lists of columns), numbered from `first_index`.
#[pyfunction]
fn solutions_svg(boards: Vec<Vec<usize>>, first_index: u64) -> PyResult<String> {
    for board in &boards {
        let n = board.len();
        if n == 0 || board.iter().any(|&c| c >= n) {
            return Err(PyValueError::new_err(
                "a solution is a list of N columns, each from 0 to N - 1",
            ));
        }
    }
    Ok(svg::solutions(&boards, first_index))
}

/// A weight grid from its Python value ([`weight_input`]).
fn weight_grid(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<queens::problem::WeightGrid> {
    match weight_input(value)? {
        WeightInput::Grid(grid) => Ok(grid),
        WeightInput::Text(text) => read::<Weight>(py, &text, &Sense::Max),
    }
}

/// The best-sum placement of N non-attacking queens on a weight grid: the largest sum, or
/// the smallest with `minimize`.
#[pyfunction]
#[pyo3(signature = (grid, minimize=false, threads=None, time_limit=None))]
fn weight(
    py: Python<'_>,
    grid: &Bound<'_, PyAny>,
    minimize: bool,
    threads: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PyObject> {
    let input = weight_grid(py, grid)?;
    let sense = Sense::from_minimize(minimize);
    solve::<Weight>(py, input, sense, threads, time_limit)
}

/// The fewest real queen moves to a non-attacking position.
#[pyfunction]
#[pyo3(signature = (board, threads=None, time_limit=None))]
fn repair(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    threads: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PyObject> {
    let input = read::<Repair>(py, &board_text(board, Squares::Queens)?, &())?;
    solve::<Repair>(py, input, (), threads, time_limit)
}

/// The marks of a guard problem: an int N (the full N x N board), a pair (R, C) (the full
/// R x C board), or a mark grid.
fn marks(py: Python<'_>, value: &Bound<'_, PyAny>) -> PyResult<MarkGrid> {
    if let Ok(n) = value.extract::<usize>() {
        return Ok(MarkGrid::full(n, n));
    }
    if let Ok((rows, cols)) = value.extract::<(usize, usize)>() {
        return Ok(MarkGrid::full(rows, cols));
    }
    read::<Guard>(
        py,
        &board_text(value, Squares::Marks)?,
        &GuardChoices::default(),
    )
}

/// The fewest queens that occupy or attack every marked square.
#[pyfunction]
#[pyo3(signature = (marks, independent=false, count_sets=false, theorems=true, threads=None, time_limit=None))]
fn guard(
    py: Python<'_>,
    marks: &Bound<'_, PyAny>,
    independent: bool,
    count_sets: bool,
    theorems: bool,
    threads: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PyObject> {
    let input = self::marks(py, marks)?;
    let choices = GuardChoices {
        rule: queens::guard::Rule::from_independent(independent),
        search: if theorems {
            queens::guard::GuardOptions::default()
        } else {
            queens::guard::GuardOptions::without_theorems()
        },
        count_sets,
    };
    solve::<Guard>(py, input, choices, threads, time_limit)
}

/// A completion of a partial board, or the number of completions.
#[pyfunction]
#[pyo3(signature = (board, count=false, diagonals=None, threads=None, time_limit=None))]
fn complete(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    count: bool,
    diagonals: Option<usize>,
    threads: Option<i64>,
    time_limit: Option<f64>,
) -> PyResult<PyObject> {
    let choices = CompleteChoices { count, diagonals };
    let input = read::<Complete>(py, &board_text(board, Squares::Queens)?, &choices)?;
    solve::<Complete>(py, input, choices, threads, time_limit)
}

/// A verdict as `(valid, the line the command line prints)`.
fn verdict(v: Verdict) -> (bool, String) {
    match v {
        Verdict::Valid(message) => (true, message),
        Verdict::Invalid(why) => (false, format!("invalid: {why}")),
    }
}

/// An answer that could not be checked at all.
fn check_error(py: Python<'_>, e: CheckError) -> PyErr {
    match e {
        CheckError::Unreadable(e) => input_error(py, &e),
        CheckError::Empty => PyValueError::new_err(e.to_string()),
    }
}

/// Re-checks the certificate of a JSON answer of `kind` against its input.
#[pyfunction]
#[pyo3(signature = (kind, input, answer, diagonals=None))]
fn verify(
    py: Python<'_>,
    kind: &str,
    input: &Bound<'_, PyAny>,
    answer: &str,
    diagonals: Option<usize>,
) -> PyResult<(bool, String)> {
    let checked = match kind {
        "weight" => Weight::check(&weight_grid(py, input)?, answer),
        "repair" => Repair::check(
            &read::<Repair>(py, &board_text(input, Squares::Queens)?, &())?,
            answer,
        ),
        "guard" => Guard::check(&marks(py, input)?, answer),
        "complete" => {
            let choices = CompleteChoices {
                diagonals,
                ..CompleteChoices::default()
            };
            let board = read::<Complete>(py, &board_text(input, Squares::Queens)?, &choices)?;
            Complete::check(&board, answer)
        }
        "solutions" => {
            let n: usize = input.extract()?;
            check_solutions(n, answer)
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "unknown verify kind '{kind}' (known: weight, repair, guard, complete, solutions)"
            )))
        }
    };
    Ok(verdict(checked.map_err(|e| check_error(py, e))?))
}

/// Checks a text board of N queens: valid, or the first attacking pair.
#[pyfunction]
fn verify_placement(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<(bool, String)> {
    let text = board_text(board, Squares::Queens)?;
    Ok(verdict(
        check_placement(&text).map_err(|e| input_error(py, &e))?,
    ))
}

/// Answers a judge problem's input in the judge's exact output format.
#[pyfunction]
#[pyo3(signature = (name, text, time_limit=None))]
fn judge(py: Python<'_>, name: &str, text: &str, time_limit: Option<f64>) -> PyResult<String> {
    let problem = JudgeProblem::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = JudgeProblem::ALL.iter().map(|(n, _)| *n).collect();
        PyValueError::new_err(format!(
            "unknown judge problem '{name}' (known: {})",
            names.join(", ")
        ))
    })?;
    let options = run::options(None, time_limit)?;
    let outcome = run::interruptible(py, options, |options| {
        let mut out = Vec::new();
        let result = queens::judge::run(problem, text, &mut out, options);
        (out, result)
    })?;
    let (out, result) = outcome.result;
    let out = String::from_utf8_lossy(&out).into_owned();
    match (result, outcome.interrupt) {
        (Ok(_), None) => Ok(out),
        (Err(JudgeError::BadCase { case, source }), None) => {
            let err = input_error(py, &source);
            let value = err.value(py);
            value.setattr("args", (format!("case {case}: {source}"),))?;
            value.setattr("case", case)?;
            value.setattr("output", out)?;
            Err(err)
        }
        (_, Some(err)) => {
            let _ = err.value(py).setattr("answer", out);
            Err(err)
        }
        (Err(JudgeError::Interrupted { .. }), None) => {
            let err = PyKeyboardInterrupt::new_err("interrupted");
            let _ = err.value(py).setattr("answer", out);
            Err(err)
        }
        (Err(e), None) => Err(PyValueError::new_err(e.to_string())),
    }
}

/// Called in a child process after `fork` (`os.register_at_fork`): the child has none of the
/// parent's threads, so it starts its own budget ticker.
#[pyfunction]
fn _after_fork() {
    run::forget_ticker();
}

/// The native half of the `queens` package.
#[pymodule]
fn _queens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("NoAnswerError", py.get_type::<NoAnswerError>())?;
    m.add_class::<answers::CountAnswer>()?;
    m.add_class::<answers::WeightAnswer>()?;
    m.add_class::<answers::RepairAnswer>()?;
    m.add_class::<answers::GuardAnswer>()?;
    m.add_class::<answers::CompleteAnswer>()?;
    m.add_class::<SolutionIterator>()?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(solutions_svg, m)?)?;
    m.add_function(wrap_pyfunction!(weight, m)?)?;
    m.add_function(wrap_pyfunction!(repair, m)?)?;
    m.add_function(wrap_pyfunction!(guard, m)?)?;
    m.add_function(wrap_pyfunction!(complete, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(verify_placement, m)?)?;
    m.add_function(wrap_pyfunction!(judge, m)?)?;
    m.add_function(wrap_pyfunction!(_after_fork, m)?)?;
    Ok(())
}
