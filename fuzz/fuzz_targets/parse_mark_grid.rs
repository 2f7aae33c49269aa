#![no_main]
//! Any bytes: parse_mark_grid either returns a well-formed value or a located error; never panics.

use libfuzzer_sys::fuzz_target;
use queens::format::{decode_utf8, parse_mark_grid};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = decode_utf8(data) else { return };
    match parse_mark_grid(text) {
        Ok(value) => check(&value),
        Err(e) => assert!(e.line >= 1 && e.col >= 1 && e.line <= text.lines().count() + 1),
    }
});

fn check(marks: &queens::guard::MarkGrid) {
    assert_eq!(marks.marked.len(), marks.rows * marks.cols);
}
