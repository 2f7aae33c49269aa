//! Output of `queens guard`.
