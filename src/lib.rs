//! `queens`: exact, certified answers to chessboard queen problems.
//!
//! Modules, bottom up (imports only point down):
//!
//! - [`board`]: geometry: squares, the lines through them, the symmetries of square and
//!   rectangular boards with the one canonical form, the one N-queens enumerator and
//!   construction.
//! - [`schedule`]: the one scheduler of independent work units over threads.
//! - `cpu` (internal): the x86-64 instruction-set levels hot code is compiled for, chosen once
//!   at run time (`QUEENS_CPU` caps the choice).
//! - [`options`]: what every solver takes besides its problem: threads, time limit, cancel
//!   flag, progress callback ([`Options`], [`Deadline`]).
//! - [`problem`]: the plain inputs: weight grid, position and move, mark grid.
//! - [`verify`]: independent re-checks of certificates, on [`board`] and [`problem`] alone.
//! - One folder per problem, each a pure solver returning a certified answer:
//!   [`count`] (N-queens solutions, all and up to symmetry), [`weight`] (the best-sum
//!   placement), [`repair`] (the fewest real queen moves, with the moves), [`guard`] (the
//!   fewest guarding queens).
//! - [`complete`]: n-queens completion, blocked n-queens and excluded diagonals (decide, count,
//!   list).
//! - [`scale`]: work plans, shards, ledgers, merge and MPI for counts cut into units.
//! - [`format`](mod@format): every parser (errors with line and column) and writer (text, JSON).
//! - [`judge`]: LightOJ 1061, UVa 167 and UVa 11214 in their exact formats.
//! - `serve` (feature `serve`, on by default): the local web page and its JSON API, over the
//!   same parsers, solvers and writers as the command line.
//! - [`scale`]: work plans, shards, resumable ledgers, their merge, and MPI.
//! - [`schedule`]: the one scheduler of independent work units over threads.
//!
//! ```
//! use queens::{weight::{best, WeightGrid}, Options};
//! let grid = WeightGrid { n: 4, cells: (1..=16).collect() };
//! let answer = best(&grid, &Options::default()).unwrap();
//! assert_eq!((answer.sum, answer.optimal), (34, true));
//! // The certificate, checked by code that shares nothing with the solver.
//! assert!(queens::verify::weight(&grid, &answer.queens, answer.sum).is_ok());
//! ```

#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod complete;
pub mod count;
mod cpu;
pub mod format;
pub mod guard;
pub mod judge;
pub mod options;
pub mod problem;
pub mod repair;
pub mod scale;
pub mod schedule;
#[cfg(feature = "serve")]
#[cfg_attr(docsrs, doc(cfg(feature = "serve")))]
pub mod serve;
pub mod verify;
pub mod weight;

pub use options::{Deadline, Options};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
