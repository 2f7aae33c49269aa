//! Output of `queens repair`.
