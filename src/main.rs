//! The `queens` command line: a thin layer over the library. See the README and `queens --help`.
//!
//! The program starts at the C `main` rather than through Rust's runtime start-up. Judge runs
//! are many tiny processes, and that start-up (a read of `/proc/self/maps` to find the main
//! thread's stack and a handler for stack overflows) was about a tenth of a small UVa 167 run.
//! What it did that matters here is done below: closed pipes give write errors instead of
//! killing the process (SIGPIPE is caught), standard output is flushed before exit, and a panic
//! ends with status 101. Arguments are read by `std::env` as usual (glibc hands them to the
//! standard library at load time, before `main`).

#![cfg_attr(not(test), no_main)]
// The unit tests run under the test harness's own `main`, which leaves the command line unused.
#![cfg_attr(test, allow(dead_code))]

mod cli;

#[cfg(not(test))]
use std::io::Write;

/// The process entry point: runs the command line and returns its exit status.
// SAFETY: `main` is the one symbol of that name in the program (`no_main` removes Rust's own),
// with the C signature the C runtime calls it by; it ignores its arguments.
#[cfg(not(test))]
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    cli::ignore_closed_pipes();
    let status = std::panic::catch_unwind(cli::main).unwrap_or(101);
    let _ = std::io::stdout().flush();
    std::ffi::c_int::from(status)
}
