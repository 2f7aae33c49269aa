//! Output of `queens weight`.
