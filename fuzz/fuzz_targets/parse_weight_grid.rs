#![no_main]
//! Any bytes: parse_weight_grid either returns a well-formed value or a located error; never panics.

use libfuzzer_sys::fuzz_target;
use queens::format::{decode_utf8, parse_weight_grid};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = decode_utf8(data) else { return };
    match parse_weight_grid(text) {
        Ok(value) => check(&value),
        Err(e) => assert!(e.line >= 1 && e.col >= 1 && e.line <= text.lines().count() + 1),
    }
});

fn check(grid: &queens::weight::WeightGrid) {
    assert_eq!(grid.cells.len(), grid.n * grid.n);
}
