//! `queens serve`: every endpoint against the command line's answers on the same inputs, the
//! limits (400, 413, 429), the time cap, and a request cancelled mid-solve.
#![cfg(feature = "serve")]

mod support;
mod web;

use serde_json::Value;
use std::time::{Duration, Instant};
use support::{queens_with_input, Rng};
use web::Server;

/// The README's repair board: relaxed count 3, true minimum 4.
const REPAIR: &str =
    "........\n.....q..\n.q......\n........\n....q...\nq.......\n......qq\n...q...q\n";
const GUARD: &str = "XX......X.\nX....X....\n..X.......\n.......XX.\n...X......\n.X......X.\n..........\n....XX....\n";

fn weights(n: usize, seed: u64) -> String {
    let mut rng = Rng(seed);
    let mut text = String::new();
    for _ in 0..n {
        let row: Vec<String> = (0..n).map(|_| rng.range(-20, 99).to_string()).collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    text
}

/// A JSON answer without the fields that vary from run to run.
fn stable(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in ["seconds", "threads", "nodes"] {
            o.remove(k);
        }
    }
    v
}

fn cli_json(args: &[&str], input: &str) -> Value {
    let run = queens_with_input(args, input.as_bytes());
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    serde_json::from_str(&run.stdout).expect("CLI JSON")
}

fn full_board(side: usize) -> String {
    let line = "X".repeat(side) + "\n";
    line.repeat(side)
}

#[test]
fn search_endpoints_answer_as_the_command_line() {
    let server = Server::start(&[]);
    let weight = weights(8, 11);
    let cases: [(&str, &str, &str); 3] = [
        ("weight", "/api/weight", &weight),
        ("repair", "/api/repair", REPAIR),
        ("guard", "/api/guard", GUARD),
    ];
    for (command, path, input) in cases {
        let reply = server.post(path, input.as_bytes());
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let api = reply.json();
        assert_eq!(api["problem"], command);
        assert_eq!(api["optimal"], true, "{api}");
        assert_eq!(stable(api), stable(cli_json(&[command, "--json"], input)));
        // The same picture and the same text as the command line.
        let picture = server.post(&format!("{path}?format=svg"), input.as_bytes());
        assert_eq!(picture.status, 200);
        assert!(picture
            .header("content-type")
            .is_some_and(|t| t.starts_with("image/svg+xml")));
        let cli = queens_with_input(&[command, "--format", "svg"], input.as_bytes());
        assert_eq!(picture.text(), cli.stdout, "{command} svg");
        let text = server.post(&format!("{path}?format=text"), input.as_bytes());
        let cli = queens_with_input(&[command], input.as_bytes());
        assert_eq!(text.text(), cli.stdout, "{command} text");
    }
    // The weight's sense travels as a query parameter.
    let least = server.post("/api/weight?minimize=1", weight.as_bytes());
    assert_eq!(least.status, 200);
    assert_eq!(least.json()["sense"], "min");
    assert_eq!(
        stable(least.json()),
        stable(cli_json(&["weight", "--minimize", "--json"], &weight))
    );
    // Guard's options travel as query parameters.
    let independent = server.post("/api/guard?independent=1&count_sets=1", GUARD.as_bytes());
    assert_eq!(
        stable(independent.json()),
        stable(cli_json(
            &["guard", "--independent", "--count-sets", "--json"],
            GUARD
        ))
    );
}

#[test]
fn count_and_solutions_answer_as_the_command_line() {
    let server = Server::start(&[]);
    for n in [1, 4, 8, 10] {
        let api = server.get(&format!("/api/count/{n}"));
        assert_eq!(api.status, 200);
        let cli = cli_json(&["count", &n.to_string(), "--json"], "");
        assert_eq!(stable(api.json()), stable(cli));
    }
    let lines = server.get("/api/solutions/8?limit=5");
    assert_eq!(lines.status, 200);
    let cli = queens_with_input(&["solutions", "8", "--limit", "5", "--format", "json"], b"");
    assert_eq!(lines.text(), cli.stdout);
    let unique = server.get("/api/solutions/8?limit=3&unique=1");
    let cli = queens_with_input(
        &[
            "solutions",
            "8",
            "--limit",
            "3",
            "--unique",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(unique.text(), cli.stdout);
    let picture = server.get("/api/solutions/6?limit=4&format=svg");
    let cli = queens_with_input(&["solutions", "6", "--limit", "4", "--format", "svg"], b"");
    assert_eq!(picture.text(), cli.stdout);
    // Paging: skip=K starts at solution K + 1, numbered as in the full listing.
    let page = server.get("/api/solutions/8?limit=2&skip=3");
    let all = queens_with_input(&["solutions", "8", "--limit", "5", "--format", "json"], b"");
    let wanted: Vec<&str> = all.stdout.lines().skip(3).collect();
    assert_eq!(page.text().lines().collect::<Vec<_>>(), wanted);
    // No placement: the command line's error, not an empty answer.
    let none = server.get("/api/solutions/3");
    assert_eq!(none.status, 400);
    let cli = queens_with_input(&["solutions", "3"], b"");
    assert_eq!(cli.code, 1);
    assert_eq!(
        format!("error: {}", none.json()["error"].as_str().unwrap()),
        cli.stderr.trim()
    );
}

#[test]
fn the_page_and_its_assets_are_served() {
    let server = Server::start(&[]);
    let page = server.get("/");
    assert_eq!(page.status, 200);
    assert!(page
        .header("content-type")
        .unwrap()
        .starts_with("text/html"));
    assert!(page.text().contains("<script src=\"/app.js\">"));
    for asset in ["/app.js", "/style.css"] {
        let reply = server.get(asset);
        assert_eq!(reply.status, 200);
        assert!(reply.body.len() > 500, "{asset}");
    }
    let missing = server.get("/nothing/here");
    assert_eq!(missing.status, 404);
    assert!(missing.json()["error"].is_string());
}

#[test]
fn bad_input_gets_400_with_the_command_lines_message() {
    let server = Server::start(&[]);
    let cases: [(&str, &str, &[u8]); 6] = [
        ("weight", "/api/weight", b"1 2 x\n3 4 5\n6 7 8\n"),
        ("weight", "/api/weight", b""),
        ("repair", "/api/repair", b"q..\n...\n"),
        ("repair", "/api/repair", b"qq\xff.\n"),
        ("guard", "/api/guard", b"X.\nX\n"),
        ("guard", "/api/guard", b"X?\n"),
    ];
    for (command, path, body) in cases {
        let reply = server.post(path, body);
        assert_eq!(
            reply.status,
            400,
            "{path} {:?}",
            String::from_utf8_lossy(body)
        );
        let message = reply.json()["error"].as_str().unwrap().to_string();
        let cli = queens_with_input(&[command], body);
        assert_eq!(cli.code, 2);
        assert_eq!(
            cli.stderr.trim_end(),
            format!("error: <stdin>: {message}"),
            "{path}"
        );
    }
    // No placement of 3 queens on a 3x3 board: the command line's message too (exit 1 there).
    let three = b"1 2 3\n4 5 6\n7 8 9\n";
    let reply = server.post("/api/weight", three);
    assert_eq!(reply.status, 400);
    let cli = queens_with_input(&["weight"], three);
    assert_eq!(cli.code, 1);
    assert_eq!(
        cli.stderr.trim_end(),
        format!(
            "error: <stdin>: {}",
            reply.json()["error"].as_str().unwrap()
        )
    );
    for path in [
        "/api/count/abc",
        "/api/count/0",
        "/api/count/33",
        "/api/count/19",
        "/api/solutions/40",
        "/api/solutions/8?limit=x",
        "/api/count/8?time_limit=soon",
    ] {
        let reply = server.get(path);
        assert_eq!(reply.status, 400, "{path}");
        assert!(reply.json()["error"].is_string(), "{path}");
    }
    let reply = server.post("/api/repair?format=png", REPAIR.as_bytes());
    assert_eq!(reply.status, 400);
}

#[test]
fn oversized_bodies_get_413() {
    let server = Server::start(&[]);
    let big = full_board(1100).into_bytes();
    assert!(big.len() > 1 << 20);
    let reply = server.post("/api/guard", &big);
    assert_eq!(reply.status, 413);
    assert!(reply.json()["error"].as_str().unwrap().contains("1048576"));
    // Just under the limit is read (and then judged as input: too large a board here).
    let line = "X".repeat(1000) + "\n";
    let near = line.repeat(1000);
    assert!(near.len() < 1 << 20);
    assert_eq!(server.post("/api/guard", near.as_bytes()).status, 400);
}

/// Waits until `/api/status` says `key` is `value`, at most `within`.
fn wait_for(server: &Server, key: &str, value: u64, within: Duration) -> Duration {
    let start = Instant::now();
    loop {
        if server.status()[key].as_u64() == Some(value) {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < within,
            "{key} did not reach {value}: {}",
            server.status()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn more_solves_than_the_limit_get_429() {
    let server = Server::start(&["--max-solves", "1", "--max-time-limit", "30"]);
    let long = full_board(22);
    let first = web::send(
        server.addr,
        "POST",
        "/api/guard?time_limit=30",
        Some(long.as_bytes()),
    );
    wait_for(&server, "running", 1, Duration::from_secs(10));
    let refused = server.get("/api/count/8");
    assert_eq!(refused.status, 429, "{}", refused.text());
    assert!(refused.json()["error"]
        .as_str()
        .unwrap()
        .contains("1 solves"));
    assert_eq!(server.post("/api/repair", REPAIR.as_bytes()).status, 429);
    // The page and the status are not solves: still answered.
    assert_eq!(server.get("/").status, 200);
    drop(first);
    wait_for(&server, "running", 0, Duration::from_secs(5));
    assert_eq!(server.get("/api/count/8").status, 200);
    assert!(server.status()["refused"].as_u64().unwrap() >= 2);
}

#[test]
fn a_dropped_request_stops_its_solve() {
    let server = Server::start(&["--max-time-limit", "60"]);
    let long = full_board(22);
    let stream = web::send(
        server.addr,
        "POST",
        "/api/guard?time_limit=60",
        Some(long.as_bytes()),
    );
    // The solve holds its slot: the request is being served, and dropping it must stop it.
    wait_for(&server, "running", 1, Duration::from_secs(10));
    drop(stream);
    // The solve stops long before its 60 s limit.
    let stopped = wait_for(&server, "running", 0, Duration::from_secs(5));
    assert!(stopped < Duration::from_secs(5));
    let status = server.status();
    assert_eq!(status["cancelled"], 1, "{status}");
    assert_eq!(status["finished"], 1, "{status}");
    // And the server answers the next request at once.
    let start = Instant::now();
    let reply = server.post("/api/repair", REPAIR.as_bytes());
    assert_eq!(reply.status, 200);
    assert!(start.elapsed() < Duration::from_secs(5));
}

#[test]
fn the_servers_time_cap_applies_to_every_solve() {
    let server = Server::start(&["--max-time-limit", "0.5"]);
    let long = full_board(22);
    for path in ["/api/guard?time_limit=1000", "/api/guard"] {
        let start = Instant::now();
        let reply = server.post(path, long.as_bytes());
        let took = start.elapsed();
        assert_eq!(reply.status, 200);
        let answer = reply.json();
        assert_eq!(answer["optimal"], false, "{answer}");
        assert!(answer["lower_bound"].as_u64().unwrap() <= answer["guards"].as_u64().unwrap());
        assert!(took < Duration::from_secs(8), "{path} took {took:?}");
    }
    assert_eq!(server.status()["max_time_limit"], 0.5);
}

#[test]
fn the_complete_endpoint_answers_as_the_command_line() {
    let server = Server::start(&[]);
    // Nauck's 1850 puzzle, and a small excluded-diagonals instance with its first 2 diagonals.
    let nauck = "........\n........\n........\n...Q....\n.Q......\n........\n........\n........\n";
    let param = "n = 6\nnumdiags = 3\ndiags = [[5, 1], [5, 0], [2, 1]]\n";
    let cases: [(&str, &str, &[&str]); 4] = [
        ("/api/complete", nauck, &[]),
        ("/api/complete?count=1", nauck, &["--count"]),
        ("/api/complete?diagonals=2", param, &["--diagonals", "2"]),
        (
            "/api/complete?diagonals=2&count=1",
            param,
            &["--diagonals", "2", "--count"],
        ),
    ];
    for (path, input, flags) in cases {
        let reply = server.post(path, input.as_bytes());
        assert_eq!(reply.status, 200, "{path}: {}", reply.text());
        let api = reply.json();
        assert_eq!(api["problem"], "complete");
        let mut args = vec!["complete", "--json"];
        args.extend_from_slice(flags);
        let run = queens_with_input(&args, input.as_bytes());
        let cli: Value = serde_json::from_str(&run.stdout).expect("CLI JSON");
        assert_eq!(stable(api), stable(cli), "{path}");
    }
    let picture = server.post("/api/complete?format=svg", nauck.as_bytes());
    let cli = queens_with_input(&["complete", "--format", "svg"], nauck.as_bytes());
    assert_eq!(picture.text(), cli.stdout);
    let bad = server.post("/api/complete", b"Q.\n.Q\n");
    assert_eq!(bad.status, 400);
    assert!(bad.text().contains("attacks"), "{}", bad.text());
}
