//! The page in a real browser: headless Chromium driven over WebDriver (chromedriver's plain
//! HTTP JSON protocol). Places queens by clicking squares, solves, steps through the repair
//! plan, pastes a board, solves guard and weight problems, counts and browses solutions, and
//! saves screenshots to target/screenshots/*.png.
//!
//! It needs `chromedriver` and Chromium (Debian: `apt-get install chromium chromium-driver`), so
//! the default `cargo test` lists it as ignored rather than passing it unseen; run it with
//! `cargo test --release --test browser -- --ignored`, as .ci/run does. Run so, it fails when
//! chromedriver is missing, unless `QUEENS_BROWSER_SKIP` is set (then it says it skipped).
#![cfg(feature = "serve")]

mod support;
mod web;

use serde_json::{json, Value};
use std::net::{SocketAddr, TcpListener};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use web::Server;

fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A chromedriver process and one browser session, both ended when dropped.
struct Browser {
    driver: Child,
    addr: SocketAddr,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn start(chromedriver: &PathBuf) -> Browser {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let addr = SocketAddr::from(([127, 0, 0, 1], port));
        let started = Instant::now();
        loop {
            if std::net::TcpStream::connect(addr).is_ok() {
                let ready = web::request(addr, "GET", "/status", None);
                if ready.status == 200 && ready.json()["value"]["ready"] == true {
                    break;
                }
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "chromedriver did not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let mut browser = Browser {
            driver,
            addr,
            session: String::new(),
        };
        let mut options = json!({
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1100"]
        });
        if let Some(binary) = on_path("chromium") {
            options["binary"] = json!(binary);
        }
        let created = browser.call(
            "POST",
            "/session",
            json!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": options}}}),
        );
        browser.session = created["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {created}"))
            .to_string();
        browser
    }

    /// One WebDriver command; returns its `value`.
    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let text = body.to_string();
        let body = (method == "POST").then_some(text.as_bytes());
        let stream = web::send_typed(self.addr, method, path, body, "application/json");
        let reply = web::receive(stream);
        let value = reply.json()["value"].clone();
        assert_eq!(reply.status, 200, "{method} {path}: {value}");
        value
    }

    fn session(&self, method: &str, rest: &str, body: Value) -> Value {
        self.call(method, &format!("/session/{}{rest}", self.session), body)
    }

    fn open(&self, url: &str) {
        self.session("POST", "/url", json!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let v = self.session(
            "POST",
            "/element",
            json!({"using": "css selector", "value": css}),
        );
        v[ELEMENT].as_str().expect("an element").to_string()
    }

    fn click(&self, css: &str) {
        let id = self.find(css);
        self.session("POST", &format!("/element/{id}/click"), json!({}));
    }

    fn text(&self, css: &str) -> String {
        let id = self.find(css);
        self.session("GET", &format!("/element/{id}/text"), Value::Null)
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    fn type_into(&self, css: &str, text: &str) {
        let id = self.find(css);
        self.session("POST", &format!("/element/{id}/clear"), json!({}));
        self.session(
            "POST",
            &format!("/element/{id}/value"),
            json!({ "text": text }),
        );
    }

    fn script(&self, code: &str) -> Value {
        self.session("POST", "/execute/sync", json!({"script": code, "args": []}))
    }

    fn count(&self, css: &str) -> u64 {
        let code = format!("return document.querySelectorAll({}).length;", json!(css));
        self.script(&code).as_u64().unwrap_or(0)
    }

    /// Waits until the text of `css` contains `wanted`, and returns it.
    fn wait_text(&self, css: &str, wanted: &str) -> String {
        let started = Instant::now();
        loop {
            let text = self.text(css);
            if text.contains(wanted) {
                return text;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "{css} never showed {wanted:?}; it shows {text:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn screenshot(&self, name: &str) {
        let data = self.session("GET", "/screenshot", Value::Null);
        let png = web::base64_decode(data.as_str().expect("base64"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
        std::fs::create_dir_all(&dir).expect("screenshot folder");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("write the screenshot");
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let path = format!("/session/{}", self.session);
            let _ = web::request(self.addr, "DELETE", &path, None);
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

#[test]
#[ignore = "needs chromedriver and Chromium: run with --ignored (QUEENS_BROWSER_SKIP=1 skips)"]
fn the_page_works_in_a_real_browser() {
    let Some((server, browser)) = page() else {
        return;
    };

    // Repair: clear the board and place the README's eight queens by clicking squares.
    browser.click("#clear");
    assert_eq!(browser.count("#editor svg.queen"), 0);
    let queens = [
        (1, 5),
        (2, 1),
        (4, 4),
        (5, 0),
        (6, 6),
        (6, 7),
        (7, 3),
        (7, 7),
    ];
    for (r, c) in queens {
        browser.click(&format!("#editor-{r}-{c}"));
    }
    assert_eq!(browser.count("#editor svg.queen"), 8);
    assert!(browser.text("#hint").starts_with("8 of 8 queens placed"));
    browser.screenshot("repair-editor");

    browser.click("#solve");
    let status = browser.wait_text("#status", "moves");
    assert!(
        status.starts_with("4 moves (proven optimal), relaxed count 3"),
        "{status}"
    );
    // The server's picture: both boards, four numbered arrows.
    assert_eq!(browser.count("#picture svg .move"), 4);
    assert_eq!(browser.count("#picture svg .queen"), 16);
    assert_eq!(browser.text("#move-counter"), "move 0 of 4");

    // Step through the plan.
    browser.click("#forward");
    browser.click("#forward");
    assert_eq!(browser.text("#move-counter"), "move 2 of 4");
    assert!(
        browser.text("#move-text").starts_with("Qh1-g2"),
        "{}",
        browser.text("#move-text")
    );
    assert_eq!(browser.count("#replay svg.queen"), 8);
    assert_eq!(browser.count("#replay .square.to"), 1);
    browser.screenshot("repair-step-2");
    browser.click("#back");
    assert_eq!(browser.text("#move-counter"), "move 1 of 4");
    browser.click("#last");
    assert_eq!(browser.text("#move-counter"), "move 4 of 4");
    assert!(browser
        .text("#queen-count")
        .contains("8 queens on the board, none attacking"));
    browser.click("#first");
    browser.click("#play");
    browser.wait_text("#move-counter", "move 4 of 4");
    // The downloads hold the answers.
    let json_link = browser.script("return document.getElementById('dl-json').href;");
    assert!(json_link.as_str().unwrap().starts_with("blob:"));

    // Paste an input file instead of clicking: four queens in one column.
    browser.click("#text-box summary");
    browser.type_into("#input", "q...\nq...\nq...\nq...\n");
    browser.click("#load");
    assert_eq!(browser.count("#editor svg.queen"), 4);
    browser.click("#solve");
    let status = browser.wait_text("#status", "proven");
    assert!(status.starts_with("3 moves"), "{status}");
    browser.click("#last");
    assert_eq!(browser.text("#move-counter"), "move 3 of 3");
    assert_eq!(browser.count("#replay svg.queen"), 4);

    // Bad input shows the server's message.
    browser.type_into("#input", "q.\n");
    browser.click("#solve");
    let status = browser.wait_text("#status", "error");
    assert!(status.contains("400"), "{status}");

    // Guard: mark squares by clicking, solve, see the queens.
    browser.click("#tabs button[data-problem=guard]");
    browser.click("#clear");
    for (r, c) in [(0, 0), (0, 7), (3, 3), (5, 1), (7, 6), (6, 2), (2, 5)] {
        browser.click(&format!("#editor-{r}-{c}"));
    }
    assert_eq!(browser.count("#editor .square.mark"), 7);
    browser.click("#solve");
    let status = browser.wait_text("#status", "proven optimal");
    assert!(status.contains("guard"), "{status}");
    assert_eq!(browser.count("#picture svg .mark"), 7);
    assert!(browser.count("#picture svg .queen") >= 1);
    browser.screenshot("guard");

    // Weight: the random 8 x 8 numbers, solved.
    browser.click("#tabs button[data-problem=weight]");
    browser.click("#random");
    browser.click("#solve");
    let status = browser.wait_text("#status", "best sum");
    assert!(status.contains("(proven optimal)"), "{status}");
    assert_eq!(browser.count("#picture svg .queen"), 8);
    browser.screenshot("weight");

    // Count and browse.
    browser.click("#tabs button[data-problem=count]");
    browser.type_into("#count-n", "8");
    browser.click("#count");
    let result = browser.wait_text("#count-result", "solutions");
    assert!(
        result.starts_with("8-queens: 92 solutions, 12 unique"),
        "{result}"
    );
    browser.wait_text("#page-label", "solutions 1 to 12");
    assert_eq!(browser.count("#solutions-picture svg .solution"), 12);
    browser.click("#next-page");
    browser.wait_text("#page-label", "solutions 13 to 24");
    browser.click("#unique");
    browser.wait_text("#page-label", "solutions 1 to 12");
    // 12 classes for N = 8: no further page.
    let next_disabled = browser.script("return document.getElementById('next-page').disabled;");
    assert_eq!(next_disabled, true);
    browser.screenshot("solutions");
    assert_eq!(server.status()["running"], 0);
}

/// Starts the server and a browser on its page, or `None` when chromedriver is missing and
/// `QUEENS_BROWSER_SKIP` says to skip.
fn page() -> Option<(Server, Browser)> {
    let Some(chromedriver) = on_path("chromedriver") else {
        assert!(
            std::env::var_os("QUEENS_BROWSER_SKIP").is_some(),
            "chromedriver is not on PATH (apt-get install chromium chromium-driver); set \
             QUEENS_BROWSER_SKIP=1 to skip the browser test explicitly"
        );
        eprintln!("note: QUEENS_BROWSER_SKIP is set and chromedriver is missing: skipped");
        return None;
    };
    let server = Server::start(&[]);
    // A chromedriver that resets its first connection (seen once on a freshly installed
    // Chromium with four tests starting browsers at once) is started again, up to 3 times.
    for attempt in 1.. {
        let started = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let browser = Browser::start(&chromedriver);
            browser.open(&server.url());
            browser.wait_text("#tabs", "Repair");
            browser
        }));
        match started {
            Ok(browser) => return Some((server, browser)),
            Err(_) if attempt < 3 => {
                eprintln!("note: the browser did not start, attempt {attempt}")
            }
            Err(failure) => std::panic::resume_unwind(failure),
        }
    }
    unreachable!("the loop returns or panics")
}

impl Browser {
    /// The input file the page sends on Solve.
    fn input_text(&self) -> String {
        let text = self.script("return document.getElementById('input').value;");
        text.as_str().expect("the input text").to_string()
    }

    /// Presses Solve and returns the status once an answer (or an error) shows.
    fn solve(&self, done: &str) -> String {
        self.script("document.getElementById('status').textContent = '';");
        self.click("#solve");
        let started = Instant::now();
        loop {
            let status = self.text("#status");
            assert!(!status.contains("error"), "the page failed: {status}");
            if status.contains(done) {
                return status;
            }
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "no answer: {status:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The squares of `holder`'s board that hold a queen, as [row, column].
    fn queens_on(&self, holder: &str) -> Vec<(usize, usize)> {
        let code = format!(
            "return [...document.querySelectorAll('#{holder} .square')]\
             .filter((s) => s.querySelector('svg.queen'))\
             .map((s) => [Number(s.dataset.r), Number(s.dataset.c)]);"
        );
        let list = self.script(&code);
        list.as_array()
            .expect("a list")
            .iter()
            .map(|p| {
                (
                    p[0].as_u64().unwrap() as usize,
                    p[1].as_u64().unwrap() as usize,
                )
            })
            .collect()
    }
}

/// The command line's JSON answer for `problem` on `input`.
fn command_line(problem: &str, input: &str) -> Value {
    let run = support::queens_with_input(&[problem, "--json", "-q", "-"], input.as_bytes());
    assert_eq!(run.code, 0, "queens {problem}: {}\n{input}", run.stderr);
    serde_json::from_str(&run.stdout).expect("JSON")
}

/// The first whole number in `text` after `after`.
fn number_after(text: &str, after: &str) -> i64 {
    let rest = &text[text
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {text:?}"))
        + after.len()..];
    let digits: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits
        .parse()
        .unwrap_or_else(|_| panic!("a number in {text:?}"))
}

fn attack(a: (usize, usize), b: (usize, usize)) -> bool {
    a.0 == b.0 || a.1 == b.1 || a.0.abs_diff(b.0) == a.1.abs_diff(b.1)
}

#[test]
#[ignore = "needs chromedriver and Chromium: run with --ignored (QUEENS_BROWSER_SKIP=1 skips)"]
fn each_tab_answers_as_the_command_line_does() {
    let Some((server, browser)) = page() else {
        return;
    };

    // Weight: the board as first shown, a new size, then Random; each solved as the CLI does.
    browser.click("#tabs button[data-problem=weight]");
    for step in ["as shown", "set size", "random"] {
        match step {
            "set size" => {
                browser.type_into("#size", "6");
                browser.click("#resize");
            }
            "random" => browser.click("#random"),
            _ => {}
        }
        let input = browser.input_text();
        assert!(
            input.lines().all(|l| !l.trim().is_empty()),
            "{step}: the page sends blank lines: {input:?}"
        );
        let status = browser.solve("best sum");
        let cli = command_line("weight", &input);
        assert_eq!(
            number_after(&status, "best sum"),
            cli["sum"].as_i64().unwrap(),
            "{step}: {status}"
        );
        assert!(status.contains("proven optimal"), "{status}");
        let n = if step == "as shown" { 8 } else { 6 };
        assert_eq!(browser.count("#picture svg .queen"), n, "{step}");
    }

    // Repair: a random board; the moves as the CLI counts them; the plan stepped forward and back.
    browser.click("#tabs button[data-problem=repair]");
    browser.click("#random");
    let input = browser.input_text();
    let start = browser.queens_on("editor");
    assert_eq!(start.len(), 8);
    let status = browser.solve("move");
    let cli = command_line("repair", &input);
    let moves = cli["moves"].as_u64().unwrap() as usize;
    assert_eq!(number_after(&status, ""), moves as i64, "{status}\n{input}");
    assert_eq!(browser.text("#move-counter"), format!("move 0 of {moves}"));
    let mut sorted = start.clone();
    sorted.sort();
    let mut shown = browser.queens_on("replay");
    shown.sort();
    assert_eq!(shown, sorted, "step 0 is the start position");
    if moves > 0 {
        browser.click("#forward");
        assert_eq!(browser.text("#move-counter"), format!("move 1 of {moves}"));
        assert_eq!(browser.count("#replay .square.to"), 1);
        browser.click("#back");
        assert_eq!(browser.text("#move-counter"), format!("move 0 of {moves}"));
        let mut back = browser.queens_on("replay");
        back.sort();
        assert_eq!(back, sorted, "back to the start");
    }
    browser.click("#last");
    assert_eq!(
        browser.text("#move-counter"),
        format!("move {moves} of {moves}")
    );
    let last = browser.queens_on("replay");
    assert_eq!(last.len(), 8);
    for (i, &a) in last.iter().enumerate() {
        for &b in &last[i + 1..] {
            assert!(
                !attack(a, b),
                "{a:?} and {b:?} attack at the end of the plan"
            );
        }
    }

    // Guard: a random set of marks.
    browser.click("#tabs button[data-problem=guard]");
    browser.click("#random");
    let input = browser.input_text();
    let status = browser.solve("guard");
    let cli = command_line("guard", &input);
    assert_eq!(
        number_after(&status, ""),
        cli["guards"].as_i64().unwrap(),
        "{status}\n{input}"
    );
    assert!(status.contains("proven optimal"), "{status}");

    // Count: N = 6 and N = 7 against the command line.
    browser.click("#tabs button[data-problem=count]");
    for n in ["6", "7"] {
        browser.type_into("#count-n", n);
        browser.click("#count");
        let result = browser.wait_text("#count-result", &format!("{n}-queens:"));
        let run = support::queens(&["count", n, "--json"]);
        let cli: Value = serde_json::from_str(&run.stdout).expect("JSON");
        let expected = format!(
            "{n}-queens: {} solutions, {} unique",
            cli["solutions"], cli["unique"]
        );
        assert!(result.starts_with(&expected), "{result} vs {expected}");
    }
    // N = 3 has no solution: the page says so (the API answers the command line's error).
    browser.type_into("#count-n", "3");
    browser.click("#count");
    browser.wait_text("#count-result", "3-queens: 0 solutions");
    browser.wait_text("#page-label", "no solutions");
    assert_eq!(server.status()["running"], 0);
}

/// The command line's JSON answer for `queens complete` on `input` with `extra` arguments, and
/// its exit status (1: no completion).
fn complete_command_line(input: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["complete", "--json", "-q", "-"];
    args.extend_from_slice(extra);
    let run = support::queens_with_input(&args, input.as_bytes());
    assert!(run.code == 0 || run.code == 1, "{}\n{input}", run.stderr);
    (run.code, serde_json::from_str(&run.stdout).expect("JSON"))
}

fn sorted_squares(list: &Value) -> Vec<(usize, usize)> {
    let mut squares: Vec<(usize, usize)> = list
        .as_array()
        .expect("a list of squares")
        .iter()
        .map(|p| {
            (
                p[0].as_u64().unwrap() as usize,
                p[1].as_u64().unwrap() as usize,
            )
        })
        .collect();
    squares.sort();
    squares
}

#[test]
#[ignore = "needs chromedriver and Chromium: run with --ignored (QUEENS_BROWSER_SKIP=1 skips)"]
fn the_complete_tab_answers_as_the_command_line_does() {
    let Some((server, browser)) = page() else {
        return;
    };
    browser.click("#tabs button[data-problem=complete]");
    assert_eq!(browser.count("#count-completions:not([hidden])"), 1);

    // The board as first shown: Nauck's two queens (d5 and b4).
    let input = browser.input_text();
    let nauck = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/nauck.txt"),
    )
    .expect("examples/nauck.txt")
    .to_lowercase();
    assert_eq!(input, nauck);
    let status = browser.solve("completion");
    assert!(
        status.starts_with("a completion: 2 queens given, 6 placed"),
        "{status}"
    );
    let (code, cli) = complete_command_line(&input, &[]);
    assert_eq!((code, &cli["completed"]), (0, &json!(true)));
    let mut shown = browser.queens_on("completed");
    shown.sort();
    assert_eq!(
        shown,
        sorted_squares(&cli["queens"]),
        "the completion shown"
    );
    assert_eq!(browser.count("#completed svg.queen.given"), 2);
    assert_eq!(browser.count("#completed svg.queen.placed"), 6);
    assert_eq!(browser.count("#picture svg .queen"), 8);
    browser.screenshot("complete");

    // Count: the command line's count of the same board.
    browser.click("#count-completions");
    let status = browser.wait_text("#status", "completions");
    let (_, cli) = complete_command_line(&input, &["--count"]);
    assert_eq!(cli["completions"], 2);
    assert!(status.starts_with("2 completions"), "{status}");
    assert!(
        browser.count("#completed:not([hidden])") == 0,
        "a count shows no board"
    );

    // A click cycles a square: free, queen, blocked, free.
    let row0 = |b: &Browser| b.input_text().lines().next().unwrap().to_string();
    browser.click("#editor-0-0");
    assert_eq!(row0(&browser), "q.......");
    assert_eq!(browser.count("#editor svg.queen"), 3);
    browser.click("#editor-0-0");
    assert_eq!(row0(&browser), "x.......");
    assert_eq!(browser.count("#editor .square.blocked"), 1);
    assert_eq!(browser.count("#editor svg.queen"), 2);
    browser.click("#editor-0-0");
    assert_eq!(row0(&browser), "........");
    assert_eq!(browser.count("#editor .square.blocked"), 0);

    // No completion: 4 x 4 with a queen in a corner, then with the two middle squares of the
    // first row blocked (every 4-queens solution has its first queen there).
    for (clicks, blocked) in [(vec![(0, 0)], 0), (vec![(0, 1), (0, 1), (0, 2), (0, 2)], 2)] {
        browser.type_into("#size", "4");
        browser.click("#resize");
        browser.click("#clear");
        for (r, c) in clicks {
            browser.click(&format!("#editor-{r}-{c}"));
        }
        assert_eq!(browser.count("#editor .square.blocked"), blocked);
        let input = browser.input_text();
        let status = browser.solve("no completion");
        assert!(status.starts_with("no completion (proven"), "{status}");
        let (code, cli) = complete_command_line(&input, &[]);
        assert_eq!(code, 1, "{input}");
        assert_eq!(
            (&cli["completed"], &cli["proven"]),
            (&json!(false), &json!(true))
        );
        assert!(browser.count("#completed:not([hidden])") == 0);
        browser.click("#count-completions");
        let status = browser.wait_text("#status", "completions");
        assert!(status.starts_with("0 completions"), "{status}");
    }

    // Random boards, solved and counted as the command line does.
    browser.type_into("#size", "8");
    browser.click("#resize");
    for _ in 0..3 {
        browser.click("#random");
        let input = browser.input_text();
        let status = browser.solve("completion");
        let (_, cli) = complete_command_line(&input, &[]);
        if cli["completed"] == true {
            assert!(status.starts_with("a completion"), "{status}\n{input}");
            let mut shown = browser.queens_on("completed");
            shown.sort();
            assert_eq!(shown, sorted_squares(&cli["queens"]), "{input}");
        } else {
            assert!(
                status.starts_with("no completion (proven"),
                "{status}\n{input}"
            );
        }
        browser.click("#count-completions");
        let status = browser.wait_text("#status", "completion");
        let (_, cli) = complete_command_line(&input, &["--count"]);
        let count = cli["completions"].to_string();
        assert!(
            status.starts_with(&format!("{count} completion")),
            "{status} vs {count}"
        );
    }
    assert_eq!(server.status()["running"], 0);
}

#[test]
#[ignore = "needs chromedriver and Chromium: run with --ignored (QUEENS_BROWSER_SKIP=1 skips)"]
fn a_narrow_window_shows_the_whole_board() {
    let Some((_server, browser)) = page() else {
        return;
    };
    browser.session("POST", "/window/rect", json!({"width": 420, "height": 900}));
    let width = browser
        .script("return document.documentElement.clientWidth;")
        .as_f64()
        .unwrap();
    assert!(width <= 420.0, "the window is {width} px wide");
    // Every board fits in its panel and the page never scrolls sideways.
    let fits = |holder: &str, panel: &str| {
        std::thread::sleep(Duration::from_millis(250));
        let code = format!(
            "const b = document.querySelector('#{holder} .board').getBoundingClientRect();\
             const p = document.getElementById('{panel}').getBoundingClientRect();\
             const d = document.documentElement;\
             return [b.left >= p.left, b.right <= p.right, p.right <= d.clientWidth,\
                     d.scrollWidth <= d.clientWidth, b.right, p.right, d.scrollWidth];"
        );
        let v = browser.script(&code);
        for i in 0..4 {
            assert_eq!(v[i], true, "{holder} in {panel} at 420 px: {v}");
        }
    };
    for tab in ["weight", "repair", "guard", "complete"] {
        browser.click(&format!("#tabs button[data-problem={tab}]"));
        fits("editor", "solver");
    }
    browser.click("#tabs button[data-problem=complete]");
    browser.solve("a completion");
    fits("completed", "result");
    browser.screenshot("narrow-complete");
    browser.click("#tabs button[data-problem=repair]");
    browser.solve("move");
    fits("replay", "result");
    browser.screenshot("narrow-repair");
}
