//! Small shared primitives the solvers build on, each defined once: seeded pseudo-random
//! generators ([`rng`]). The CPU-level dispatch of hot code is the crate's internal `cpu`
//! module; the thread count is [`crate::Options::thread_count`].

pub mod rng;
