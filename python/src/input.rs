//! Python values as the command line's input texts: every input is written in the CLI's file
//! format and read by the library's one parser, so errors carry the same messages and the same
//! line (the row, from 1) and column.

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyList, PyString, PyTuple};
use pyo3::Borrowed;
use queens::problem::WeightGrid;

/// What the squares of a board input mean, and how they are written.
#[derive(Clone, Copy)]
pub enum Squares {
    /// A repair board: a truthy square is a queen (`q`), a falsy one empty (`.`).
    Queens,
    /// A mark grid: a truthy square is marked (`X`), a falsy one not (`.`).
    Marks,
}

/// `value` with `tolist()` called first when it has one (a NumPy array), so that NumPy is never
/// needed here.
fn plain<'py>(value: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let common = value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyList>()
        || value.is_instance_of::<PyTuple>();
    if !common && value.hasattr("tolist")? {
        return value.call_method0("tolist");
    }
    Ok(value.clone())
}

/// The rows of a non-string input.
fn rows<'py>(value: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    value
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{what} must be a string in the command line's format, or a sequence of rows, \
                 not {}",
                type_name(value)
            ))
        })?
        .collect()
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_string(), |n| n.to_string())
}

/// A weight grid as given: read already, or a text for the library's parser.
pub enum WeightInput {
    /// Rows of integers, square: the grid the parser would read from their text.
    Grid(WeightGrid),
    /// A text in the command line's format (given, or written from rows that the parser must
    /// judge, so that its error names the place).
    Text(String),
}

/// A weight grid: a list (or tuple) of N lists of N Python ints is taken as it is (the parser
/// costs more than an 8 x 8 solve); anything else goes through [`weight_text`] and the parser.
pub fn weight_input(value: &Bound<'_, PyAny>) -> PyResult<WeightInput> {
    if let Some(grid) = square_rows(value) {
        return Ok(WeightInput::Grid(grid));
    }
    weight_text(value).map(WeightInput::Text)
}

/// `value` as a grid when it is a list or tuple of N lists or tuples of N ints, each within 64
/// bits; None otherwise (the parser then reads its text and says what is wrong where).
///
/// This is the hot path of many small solves (an 8 x 8 solve takes well under a microsecond),
/// so it reads the entries through borrowed references of the stable C API.
fn square_rows(value: &Bound<'_, PyAny>) -> Option<WeightGrid> {
    let rows = Items::of(value.as_borrowed())?;
    let n = rows.len;
    if n == 0 {
        return None;
    }
    let mut cells = Vec::with_capacity(n * n);
    for r in 0..n {
        let row = Items::of(rows.get(r)?)?;
        if row.len != n {
            return None;
        }
        for c in 0..n {
            cells.push(row.int(c)?);
        }
    }
    Some(WeightGrid { n, cells })
}

/// The items of a list or tuple, by index.
struct Items<'a, 'py> {
    seq: Borrowed<'a, 'py, PyAny>,
    list: bool,
    len: usize,
}

impl<'a, 'py> Items<'a, 'py> {
    /// The items of `seq` when it is exactly a list or a tuple (a subclass goes the parser's
    /// way, which reads any sequence).
    fn of(seq: Borrowed<'a, 'py, PyAny>) -> Option<Self> {
        let object = seq.as_ptr();
        // SAFETY: `seq` is a live object and the interpreter's lock is held (`Borrowed`); the
        // type objects are the interpreter's statics, compared by address only.
        unsafe {
            let kind = ffi::Py_TYPE(object);
            let list = if kind == std::ptr::addr_of_mut!(ffi::PyList_Type) {
                true
            } else if kind == std::ptr::addr_of_mut!(ffi::PyTuple_Type) {
                false
            } else {
                return None;
            };
            let len = if list {
                ffi::PyList_Size(object)
            } else {
                ffi::PyTuple_Size(object)
            };
            Some(Items {
                seq,
                list,
                len: usize::try_from(len).ok()?,
            })
        }
    }

    /// Item `i` (< `len`), borrowed from the sequence (which holds it while the sequence
    /// lives; the caller holds the sequence and runs no Python code meanwhile).
    fn borrowed(&self, i: usize) -> *mut ffi::PyObject {
        let index = i as ffi::Py_ssize_t;
        // SAFETY: `seq` is a live list or tuple (checked in `of`) and the interpreter's lock
        // is held (`Bound`); an index out of range returns null with an IndexError set.
        unsafe {
            if self.list {
                ffi::PyList_GetItem(self.seq.as_ptr(), index)
            } else {
                ffi::PyTuple_GetItem(self.seq.as_ptr(), index)
            }
        }
    }

    /// Item `i`, borrowed from the sequence (see [`Items::borrowed`]).
    fn get(&self, i: usize) -> Option<Borrowed<'a, 'py, PyAny>> {
        let item = self.borrowed(i);
        if item.is_null() {
            // SAFETY: the lock is held; clears the IndexError.
            unsafe { ffi::PyErr_Clear() };
            return None;
        }
        // SAFETY: a non-null reference borrowed from `seq`, which outlives `'a` and is not
        // changed meanwhile (no Python code runs while the grid is read).
        Some(unsafe { Borrowed::from_ptr(self.seq.py(), item) })
    }

    /// Item `i` when it is exactly a Python int within 64 bits.
    fn int(&self, i: usize) -> Option<i64> {
        let item = self.borrowed(i);
        if item.is_null() {
            // SAFETY: as in `get`.
            unsafe { ffi::PyErr_Clear() };
            return None;
        }
        // SAFETY: `item` is a live object (borrowed from the sequence); the lock is held.
        unsafe {
            if ffi::Py_TYPE(item) != std::ptr::addr_of_mut!(ffi::PyLong_Type) {
                return None;
            }
            let value = ffi::PyLong_AsLongLong(item);
            if value == -1 && !ffi::PyErr_Occurred().is_null() {
                ffi::PyErr_Clear();
                return None;
            }
            Some(value)
        }
    }
}

/// A weight grid: a string (N lines of N integers), or rows of integers (lists, tuples, a
/// NumPy array). Rows that are strings are taken as lines of the text.
fn weight_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = plain(value)?;
    if let Ok(text) = value.downcast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    let mut text = String::new();
    for (r, row) in rows(&value, "a weight grid")?.iter().enumerate() {
        if let Ok(line) = row.downcast::<PyString>() {
            text.push_str(&line.to_cow()?);
        } else {
            let entries = row.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "row {} of a weight grid must be a sequence of integers, not {}",
                    r + 1,
                    type_name(row)
                ))
            })?;
            for (c, entry) in entries.enumerate() {
                let entry = entry?;
                if c > 0 {
                    text.push(' ');
                }
                if entry.is_instance_of::<PyBool>() || !is_integer(&entry) {
                    return Err(PyTypeError::new_err(format!(
                        "row {}, entry {} of a weight grid: a weight must be an integer, not {}",
                        r + 1,
                        c + 1,
                        type_name(&entry)
                    )));
                }
                match entry.extract::<i64>() {
                    Ok(v) => text.push_str(&v.to_string()),
                    // Too large for 64 bits: the parser says so, with the place.
                    Err(_) => text.push_str(&entry.str()?.to_string()),
                }
            }
        }
        text.push('\n');
    }
    Ok(text)
}

/// Whether `value` is an integer: a Python `int` or anything with `__index__` (NumPy's).
fn is_integer(value: &Bound<'_, PyAny>) -> bool {
    value.is_instance_of::<PyInt>() || value.hasattr("__index__").unwrap_or(false)
}

/// A board of squares (a repair board or a mark grid): a string in the CLI's format, or rows,
/// each a string (`".q.."`, `"X.X"`) or a sequence of squares, each a one-character string
/// written as it is or any other value, truthy for a queen or a mark.
pub fn board_text(value: &Bound<'_, PyAny>, squares: Squares) -> PyResult<String> {
    let value = plain(value)?;
    if let Ok(text) = value.downcast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    let (what, on) = match squares {
        Squares::Queens => ("a board", 'q'),
        Squares::Marks => ("a mark grid", 'X'),
    };
    let mut text = String::new();
    for (r, row) in rows(&value, what)?.iter().enumerate() {
        if let Ok(line) = row.downcast::<PyString>() {
            text.push_str(&line.to_cow()?);
        } else {
            let squares = row.try_iter().map_err(|_| {
                PyTypeError::new_err(format!(
                    "row {} of {what} must be a string or a sequence of squares, not {}",
                    r + 1,
                    type_name(row)
                ))
            })?;
            for square in squares {
                let square = square?;
                match square.downcast::<PyString>() {
                    Ok(s) => text.push_str(&s.to_cow()?),
                    Err(_) => text.push(if square.is_truthy()? { on } else { '.' }),
                }
            }
        }
        text.push('\n');
    }
    Ok(text)
}
