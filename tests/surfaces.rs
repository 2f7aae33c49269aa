//! What the help, the completions, the manual and the API promise holds: a format is offered
//! only where it exists, an SVG request gives a picture or an error, seconds are plain decimals,
//! counts of one are singular, the manual names no missing page, every API error is JSON.

mod support;
#[cfg(feature = "serve")]
mod web;

use support::{example, queens, queens_with_input};

#[test]
fn count_offers_no_svg() {
    let help = queens(&["count", "--help"]);
    assert_eq!(help.code, 0);
    assert!(!help.stdout.contains("svg"), "{}", help.stdout);
    let weight = queens(&["weight", "--help"]);
    assert!(weight.stdout.contains("svg"), "weight has a picture");
    let refused = queens(&["count", "8", "--format", "svg"]);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("invalid value 'svg'"),
        "{}",
        refused.stderr
    );
    for (shell, count_line) in [
        ("zsh", "Output format\\: text (default) or json]"),
        ("fish", "__fish_queens_using_subcommand count\" -l format"),
    ] {
        let script = queens(&["completions", shell]).stdout;
        let line = script
            .lines()
            .skip_while(|l| !l.contains(count_line))
            .take(3)
            .collect::<Vec<_>>()
            .join("\n");
        assert!(!line.is_empty(), "{shell}: count's --format not found");
        assert!(!line.contains("svg"), "{shell}: {line}");
    }
    // The JSON answer of count is still there.
    let json = queens(&["count", "6", "--format", "json"]);
    assert!(json.stdout.contains("\"solutions\":4"), "{}", json.stdout);
}

#[test]
fn an_svg_request_gives_a_picture_or_an_error() {
    let none = queens(&["solutions", "8", "--format", "svg", "--limit", "0"]);
    assert_eq!(none.code, 2, "{}", none.stdout);
    assert!(
        none.stdout.is_empty() && none.stderr.starts_with("error:"),
        "{}",
        none.stderr
    );
    let one = queens(&["solutions", "8", "--format", "svg", "--limit", "1"]);
    assert_eq!(one.code, 0);
    roxmltree::Document::parse(&one.stdout).expect("a well-formed SVG");
    // JSON lines with --limit 0 are simply none.
    let lines = queens(&["solutions", "8", "--json", "--limit", "0"]);
    assert_eq!((lines.code, lines.stdout.as_str()), (0, ""));
}

#[test]
fn seconds_are_plain_decimals() {
    let weights = example("weights.txt");
    for args in [
        vec!["weight", "--json", weights.to_str().unwrap()],
        vec!["count", "1", "--json"],
    ] {
        let run = queens(&args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let at = run.stdout.find("\"seconds\":").expect("seconds") + 10;
        let value: String = run.stdout[at..]
            .chars()
            .take_while(|c| *c != ',' && *c != '}')
            .collect();
        assert!(
            value.chars().all(|c| c.is_ascii_digit() || c == '.') && value.contains('.'),
            "{args:?}: seconds {value}"
        );
    }
    // A tiny board's answer is fast: the microsecond range must not turn into 7e-6.
    let tiny = queens_with_input(&["weight", "--json", "-"], b"5\n");
    assert!(!tiny.stdout.contains("e-"), "{}", tiny.stdout);
}

#[test]
fn one_is_singular() {
    let run = queens_with_input(&["repair", "-"], b"q.\n");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the board is 1 row by 2 columns"),
        "{}",
        run.stderr
    );
    let run = queens_with_input(&["judge", "uva11214"], b"2 2\nX\n..\n0\n");
    assert!(run.stderr.contains("has 1 square "), "{}", run.stderr);
    let run = queens_with_input(&["judge", "uva11214"], b"3 3\nX..\n0\n");
    assert!(
        run.stderr.contains("the board has 1 row "),
        "{}",
        run.stderr
    );
}

#[test]
fn the_manual_names_no_missing_page_and_documents_the_commands() {
    let man = queens(&["man"]);
    assert_eq!(man.code, 0);
    assert!(!man.stdout.contains("(1)"), "a reference to another page");
    assert!(
        !man.stdout.contains("queens\\-count"),
        "a reference to another page"
    );
    for section in [".SH COMMANDS", "INPUT FORMATS", "EXIT STATUS"] {
        assert!(man.stdout.contains(section), "{section}");
    }
    for command in [
        "count",
        "solutions",
        "weight",
        "repair",
        "guard",
        "judge",
        "verify",
    ] {
        assert!(
            man.stdout.contains(&format!(".SS \"queens {command}\"")),
            "{command}"
        );
    }
    assert!(man.stdout.contains("\\-\\-time\\-limit") || man.stdout.contains("--time-limit"));
}

#[test]
fn judge_completes_its_problem_names() {
    for shell in ["bash", "zsh"] {
        let script = queens(&["completions", shell]).stdout;
        assert!(
            script.contains("lightoj1061 uva167 uva11214"),
            "{shell} offers no judge problem names"
        );
    }
    let bad = queens(&["judge", "uva999"]);
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("unknown judge problem 'uva999'"),
        "{}",
        bad.stderr
    );
    let mixed_case = queens(&[
        "judge",
        "UVa167",
        example("judge/uva167.in").to_str().unwrap(),
    ]);
    assert_eq!(mixed_case.code, 0, "{}", mixed_case.stderr);
}

#[cfg(feature = "serve")]
#[test]
fn every_api_error_is_json_and_names_its_parameter() {
    let server = web::Server::start(&[]);
    let json_error = |reply: &web::Reply, status: u16, wanted: &str| {
        assert_eq!(reply.status, status, "{}", reply.text());
        assert_eq!(reply.header("content-type"), Some("application/json"));
        let message = reply.json()["error"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(message.contains(wanted), "{message}");
    };
    let wrong_method = web::request(server.addr, "GET", "/api/weight", None);
    json_error(&wrong_method, 405, "GET");
    let wrong_method = web::request(server.addr, "DELETE", "/api/count/8", None);
    json_error(&wrong_method, 405, "DELETE");
    let board = b"X.\n.X\n";
    json_error(
        &server.post("/api/guard?independent=2", board),
        400,
        "independent '2'",
    );
    json_error(
        &server.post("/api/guard?count_sets=maybe", board),
        400,
        "count_sets",
    );
    assert_eq!(server.post("/api/guard?independent=0", board).status, 200);
    assert_eq!(server.post("/api/guard?independent=1", board).status, 200);
    json_error(
        &server.get("/api/solutions/8?limit=5000"),
        400,
        "limit 5000",
    );
    json_error(&server.get("/api/solutions/8?unique=2"), 400, "unique '2'");
    assert_eq!(server.get("/api/solutions/8?limit=1000").status, 200);
    // No placement: the command line's message.
    let cli = queens(&["solutions", "2"]);
    assert_eq!(cli.code, 1);
    let message = cli
        .stderr
        .trim()
        .strip_prefix("error: ")
        .unwrap()
        .to_string();
    for path in ["/api/solutions/2", "/api/solutions/3?format=svg"] {
        let reply = server.get(path);
        json_error(&reply, 400, "no placement of");
        if path.ends_with("/2") {
            assert_eq!(reply.json()["error"], message.as_str());
        }
    }
    // Past the last solution of a board that has some: an empty page, not an error.
    let past = server.get("/api/solutions/4?skip=5");
    assert_eq!((past.status, past.text().as_str()), (200, ""));
}
