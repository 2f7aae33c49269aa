#![no_main]
//! Any bytes: the lightoj1061 reader answers the good cases, then stops with a located error or
//! finishes; it never panics. Every answer written is one complete line.

use libfuzzer_sys::fuzz_target;
use queens::format::decode_utf8;
use queens::judge::{run, Problem};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = decode_utf8(data) else { return };
    let mut out = Vec::new();
    let limit = queens::Options {
        time_limit: Some(std::time::Duration::from_secs(1)),
        ..queens::Options::default()
    };
    let _ = run(Problem::LightOj1061, text, &mut out, &limit);
    assert!(out.is_empty() || out.ends_with(b"\n"));
});
