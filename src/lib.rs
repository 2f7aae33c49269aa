//! `queens`: exact, certified answers to chessboard queen problems.
//!
//! - [`count`]: the number of N-queens solutions, all and up to symmetry.
//! - [`weight`]: the non-attacking placement of N queens with the largest weight sum.
//! - [`repair`]: the fewest real queen moves to a non-attacking position, with the moves.
//! - [`guard`]: the fewest queens occupying or attacking every marked square.
//! - [`judge`]: LightOJ 1061, UVa 167 and UVa 11214 in their exact formats.
//! - [`scale`]: work plans, shards, resumable ledgers, their merge, and MPI.
//! - [`schedule`]: the one scheduler of independent work units over threads.
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
pub mod options;
pub mod repair;
pub mod scale;
pub mod schedule;
pub mod verify;
pub mod weight;

pub use options::{Deadline, Options};
