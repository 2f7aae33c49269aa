//! Small shared primitives the solvers build on, each defined once: seeded pseudo-random
//! generators ([`rng`]), bit sets sized to the board (`lanes`) and the one exact assignment
//! solver (Hungarian method, incremental: `assign`), used by weight's search and repair's
//! Lagrangian bound; the instruction-set levels of hot code, their dispatch and `pext` (`cpu`).
//! The thread count is [`crate::Options::thread_count`].

pub(crate) mod assign;
pub(crate) mod cpu;
pub(crate) mod lanes;
pub mod rng;
