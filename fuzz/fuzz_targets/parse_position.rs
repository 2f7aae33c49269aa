#![no_main]
//! Any bytes: parse_position either returns a well-formed value or a located error; never panics.

use libfuzzer_sys::fuzz_target;
use queens::format::{decode_utf8, parse_position};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = decode_utf8(data) else { return };
    match parse_position(text) {
        Ok(value) => check(&value),
        Err(e) => assert!(e.line >= 1 && e.col >= 1 && e.line <= text.lines().count() + 1),
    }
});

fn check(position: &queens::repair::Position) {
    assert_eq!(position.queens.len(), position.n);
    assert!(position.queens.iter().all(|q| q.row < position.n && q.col < position.n));
}
