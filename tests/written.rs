//! Inputs as people write them: boards with squares separated by single spaces, judge input
//! ended the way C solutions read it, and a host name for `serve --bind`.

mod support;
#[cfg(feature = "serve")]
mod web;

use serde_json::Value;
use support::{example, fixture, queens, queens_with_input};

fn json(args: &[&str]) -> Value {
    let run = queens(args);
    assert_eq!(run.code, 0, "queens {args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

#[test]
fn spaced_boards_read_as_their_plain_twins() {
    let spaced = json(&[
        "repair",
        "--json",
        fixture("repair-spaced.txt").to_str().unwrap(),
    ]);
    let plain = json(&["repair", "--json", example("board.txt").to_str().unwrap()]);
    for field in ["n", "moves", "plan", "final", "optimal"] {
        assert_eq!(spaced[field], plain[field], "{field}");
    }
    assert_eq!(plain["moves"], 4);
    let spaced = json(&[
        "guard",
        "--json",
        fixture("guard-spaced.txt").to_str().unwrap(),
    ]);
    let plain = json(&["guard", "--json", example("marks.txt").to_str().unwrap()]);
    for field in ["rows", "cols", "guards", "queens", "optimal"] {
        assert_eq!(spaced[field], plain[field], "{field}");
    }
}

#[test]
fn uva11214_ends_at_0_or_0_0() {
    let input = std::fs::read_to_string(example("judge/uva11214.in")).unwrap();
    let body = input
        .trim_end()
        .strip_suffix('0')
        .expect("the example ends with 0");
    let expected = queens_with_input(&["judge", "uva11214"], input.as_bytes());
    assert_eq!(expected.code, 0, "{}", expected.stderr);
    assert!(
        expected.stdout.starts_with("Case 1: 5\n"),
        "{}",
        expected.stdout
    );
    for end in [
        "0\n",
        "0 0\n",
        "0 0",
        "  0   0  \r\n",
        "0 0\nanything after the end\n",
    ] {
        let text = format!("{body}{end}");
        let run = queens_with_input(&["judge", "uva11214"], text.as_bytes());
        assert_eq!(
            (run.code, run.stdout.as_str(), run.stderr.as_str()),
            (0, expected.stdout.as_str(), ""),
            "ending {end:?}"
        );
    }
    // Only zeros end it: `0 5` is a bad size line.
    let run = queens_with_input(&["judge", "uva11214"], format!("{body}0 5\n").as_bytes());
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[cfg(feature = "serve")]
#[test]
fn serve_binds_a_host_name() {
    let server = web::Server::start(&["--bind", "localhost"]);
    assert!(
        server.url().starts_with("http://127.0.0.1:"),
        "{}",
        server.url()
    );
    let reply = server.get("/api/count/6");
    assert_eq!(reply.status, 200);
    assert_eq!(reply.json()["solutions"], 4);
    let bad = queens(&[
        "serve",
        "--bind",
        "no such host name.invalid",
        "--port",
        "0",
    ]);
    assert_eq!(bad.code, 2, "{}", bad.stderr);
    assert!(bad.stderr.contains("--bind"), "{}", bad.stderr);
}
