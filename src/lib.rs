//! `queens`: exact, certified answers to chessboard queen problems.
//!
//! Modules, bottom up (imports only point down; docs/ARCHITECTURE.md follows one request
//! through them):
//!
//! - [`primitive`]: small shared primitives, each defined once: the seeded pseudo-random
//!   generators, board-sized bit sets, the one assignment solver (Hungarian method), and
//!   (internal) the x86-64 instruction-set levels hot code is compiled for, chosen once at run
//!   time (`QUEENS_CPU` caps the choice), with their one dispatch and `pext`.
//! - [`options`]: what every solver takes besides its problem: threads, time limit, cancel
//!   flag, progress callbacks ([`Options`], [`Deadline`], [`SearchEvent`]).
//! - [`schedule`]: the one scheduler of independent work units over threads.
//! - [`board`]: geometry: squares, the lines through them, the symmetries of square and
//!   rectangular boards with the one canonical form, the one N-queens enumerator and
//!   construction.
//! - [`problem`]: the plain inputs: weight grid, position and move, mark grid.
//! - [`verify`]: independent re-checks of certificates, on [`board`] and [`problem`] alone.
//! - One folder per problem, each a pure solver returning a certified answer:
//!   [`count`] (N-queens solutions, all and up to symmetry), [`weight`] (the best-sum
//!   placement), [`repair`] (the fewest real queen moves, with the moves), [`guard`] (the
//!   fewest guarding queens).
//! - [`complete`]: n-queens completion, blocked n-queens and excluded diagonals (decide, count,
//!   list).
//! - [`scale`]: work plans, shards, resumable ledgers, their merge, and MPI.
//! - [`format`](mod@format): every parser (errors with line and column) and writer (text, JSON,
//!   SVG).
//! - [`puzzle`]: one pipeline per problem ([`puzzle::Puzzle`]): read the input, solve, write
//!   the answer, check a certificate; the command line, the web API and `queens verify` are
//!   adapters over it.
//! - [`judge`]: LightOJ 1061, UVa 167 and UVa 11214 in their exact formats.
//! - `serve` (feature `serve`, on by default): the local web page and its JSON API, over
//!   [`puzzle`].
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
pub mod format;
pub mod guard;
pub mod judge;
pub mod options;
pub mod primitive;
pub mod problem;
pub mod puzzle;
pub mod repair;
pub mod scale;
pub mod schedule;
#[cfg(feature = "serve")]
#[cfg_attr(docsrs, doc(cfg(feature = "serve")))]
pub mod serve;
pub mod verify;
pub mod weight;

pub use options::{Deadline, Options, SearchEvent};

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
