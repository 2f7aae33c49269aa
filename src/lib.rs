//! `queens`: exact, certified answers to chessboard queen problems.
//!
//! - [`count`]: the number of N-queens solutions, all and up to symmetry.
//! - [`weight`]: the non-attacking placement of N queens with the largest weight sum.
//! - [`repair`]: the fewest real queen moves to a non-attacking position, with the moves.
//! - [`guard`]: the fewest queens occupying or attacking every marked square.
//! - [`judge`]: LightOJ 1061, UVa 167 and UVa 11214 in their exact formats.
//! - `serve` (feature `serve`, on by default): the local web page and its JSON API.
//!
//! Every solver is a pure function from a problem and [`Options`] to an answer that carries its
//! certificate; [`verify`] re-checks certificates independently of the solvers.

#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
pub mod count;
pub mod format;
pub mod guard;
pub mod judge;
pub mod ledger;
#[cfg(feature = "mpi")]
pub mod mpi_run;
pub mod options;
pub mod problem;
pub mod repair;
#[cfg(feature = "serve")]
pub mod serve;
pub mod verify;
pub mod weight;

pub use options::{Deadline, Options};
