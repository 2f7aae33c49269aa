//! Links the `queens` executable at a fixed address (no PIE) on x86-64 Linux with glibc.
//!
//! A position-independent executable makes the dynamic loader patch about 4,800 pointers at
//! every start, touching (and copying) dozens of pages; for the judges, where one process
//! answers one tiny input, that was a tenth of the run (docs/judge timings in the README).
//! The library, the tests and every other target are built as usual. `QUEENS_PIE=1` at build
//! time keeps the executable position-independent (for address-space randomisation, e.g.
//! when `queens serve` faces a network).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=QUEENS_PIE");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let linux_gnu_x86_64 = var("CARGO_CFG_TARGET_OS") == "linux"
        && var("CARGO_CFG_TARGET_ENV") == "gnu"
        && var("CARGO_CFG_TARGET_ARCH") == "x86_64";
    // A static build (`-C target-feature=+crt-static`) is a static PIE and has no loader work.
    let static_build = var("CARGO_CFG_TARGET_FEATURE")
        .split(',')
        .any(|f| f == "crt-static");
    if linux_gnu_x86_64 && !static_build && var("QUEENS_PIE") != "1" {
        println!("cargo:rustc-link-arg-bin=queens=-no-pie");
    }
}
