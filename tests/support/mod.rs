//! Helpers shared by the integration tests: the known sequence values, a seeded generator, a
//! runner for the `queens` binary, scratch directories and the repository's fixtures.
//!
//! Every test file includes this with `mod support;`; not every file uses every item.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// OEIS A000170: the number of N-queens solutions, N = 1..=27 (`A000170[n - 1]`).
pub const A000170: [u128; 27] = [
    1,
    0,
    0,
    2,
    10,
    4,
    40,
    92,
    352,
    724,
    2680,
    14200,
    73712,
    365596,
    2279184,
    14772512,
    95815104,
    666090624,
    4968057848,
    39029188884,
    314666222712,
    2691008701644,
    24233937684440,
    227514171973736,
    2207893435808352,
    22317699616364044,
    234907967154122528,
];

/// OEIS A002562: the N-queens solutions up to rotation and reflection, N = 1..=27.
pub const A002562: [u128; 27] = [
    1,
    0,
    0,
    1,
    2,
    1,
    6,
    12,
    46,
    92,
    341,
    1787,
    9233,
    45752,
    285053,
    1846955,
    11977939,
    83263591,
    621012754,
    4878666808,
    39333324973,
    336376244042,
    3029242658210,
    28439272956934,
    275986683743434,
    2789712466510289,
    29363495934315694,
];

/// OEIS A075458: gamma(Q_n), the fewest queens guarding the full n x n board, n = 1..=25.
pub const A075458: [usize; 25] = [
    1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13,
];

/// OEIS A075324: i(Q_n), the fewest pairwise non-attacking queens guarding the full n x n
/// board, n = 1..=31.
pub const A075324: [usize; 31] = [
    1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8, 9, 9, 9, 10, 11, 11, 11, 12, 13, 13, 13, 14, 15, 15,
    16, 16, 17,
];

/// splitmix64: a small seeded generator, so random inputs are the same on every run.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> usize {
        (self.next_u64() % n) as usize
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }
}

/// What one run of the binary gave.
#[derive(Debug)]
pub struct Run {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
}

/// Runs `queens ARGS` with `stdin` as standard input and returns its raw output.
pub fn queens_output(args: &[&str], stdin: &[u8]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_queens"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run queens");
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for queens");
    let _ = writer.join();
    out
}

/// Runs `queens ARGS` with `stdin` as standard input and waits for it.
pub fn queens_with_input(args: &[&str], stdin: &[u8]) -> Run {
    let out = queens_output(args, stdin);
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `queens ARGS` with empty standard input.
pub fn queens(args: &[&str]) -> Run {
    queens_with_input(args, b"")
}

/// A temporary file or directory of a test, removed (with everything in it) when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// Takes charge of `path`: it is removed when the value is dropped.
    pub fn new(path: PathBuf) -> Scratch {
        Scratch(path)
    }
}

impl std::ops::Deref for Scratch {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Scratch {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if self.0.is_dir() {
            let _ = std::fs::remove_dir_all(&self.0);
        } else {
            let _ = std::fs::remove_file(&self.0);
        }
    }
}

/// A fresh, empty directory for one test ([`Scratch`]: gone when the test ends).
pub fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("queens-test-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    Scratch(dir)
}

/// The path of a fixture file under `tests/fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// The text of a fixture file under `tests/fixtures/`.
pub fn fixture_text(name: &str) -> String {
    std::fs::read_to_string(fixture(name)).unwrap_or_else(|e| panic!("fixture {name}: {e}"))
}

/// The path of a file the README's examples use, under `examples/`.
pub fn example(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name)
}

/// Sends `child` SIGINT (as Ctrl-C does) once it is ready for it, then waits for its output:
/// ready means its SIGINT handler is installed, which Linux shows in the `SigCgt` mask of
/// /proc/PID/status (so the signal cannot come before the handler, whatever the machine's
/// load). Where there is no /proc, it waits a second instead.
#[cfg(unix)]
pub fn interrupt_when_ready(child: std::process::Child) -> std::process::Output {
    wait_for_sigint_handler(child.id());
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(sent.success(), "kill -INT failed");
    child.wait_with_output().expect("wait for queens")
}

/// Returns once process `pid` catches SIGINT (bit 2 - 1 of its `SigCgt` mask); fails after
/// 30 s without it.
#[cfg(unix)]
fn wait_for_sigint_handler(pid: u32) {
    const SIGINT_BIT: u64 = 1 << (2 - 1);
    let path = format!("/proc/{pid}/status");
    let started = std::time::Instant::now();
    loop {
        let Ok(status) = std::fs::read_to_string(&path) else {
            // No /proc (not Linux): no readiness signal to read.
            std::thread::sleep(std::time::Duration::from_secs(1));
            return;
        };
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if caught & SIGINT_BIT != 0 {
            return;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(30),
            "process {pid} never installed its Ctrl-C handler"
        );
        // Polling the readiness signal, not guessing a time.
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// OEIS A274138 up to 13 x 13, as (n, m, gamma(Q(n x m))) with 1 <= m <= n, in the OEIS order:
/// computed by `queens guard --table 13 --no-theorems` (1.4 s on one thread) and equal to the
/// published terms.
pub const A274138_TO_13: [(usize, usize, usize); 91] = [
    (1, 1, 1),
    (2, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (3, 2, 1),
    (3, 3, 1),
    (4, 1, 1),
    (4, 2, 2),
    (4, 3, 2),
    (4, 4, 2),
    (5, 1, 1),
    (5, 2, 2),
    (5, 3, 2),
    (5, 4, 2),
    (5, 5, 3),
    (6, 1, 1),
    (6, 2, 2),
    (6, 3, 2),
    (6, 4, 3),
    (6, 5, 3),
    (6, 6, 3),
    (7, 1, 1),
    (7, 2, 2),
    (7, 3, 3),
    (7, 4, 3),
    (7, 5, 3),
    (7, 6, 4),
    (7, 7, 4),
    (8, 1, 1),
    (8, 2, 2),
    (8, 3, 3),
    (8, 4, 3),
    (8, 5, 4),
    (8, 6, 4),
    (8, 7, 5),
    (8, 8, 5),
    (9, 1, 1),
    (9, 2, 2),
    (9, 3, 3),
    (9, 4, 4),
    (9, 5, 4),
    (9, 6, 4),
    (9, 7, 5),
    (9, 8, 5),
    (9, 9, 5),
    (10, 1, 1),
    (10, 2, 2),
    (10, 3, 3),
    (10, 4, 4),
    (10, 5, 4),
    (10, 6, 4),
    (10, 7, 5),
    (10, 8, 5),
    (10, 9, 5),
    (10, 10, 5),
    (11, 1, 1),
    (11, 2, 2),
    (11, 3, 3),
    (11, 4, 4),
    (11, 5, 4),
    (11, 6, 5),
    (11, 7, 5),
    (11, 8, 6),
    (11, 9, 5),
    (11, 10, 5),
    (11, 11, 5),
    (12, 1, 1),
    (12, 2, 2),
    (12, 3, 3),
    (12, 4, 4),
    (12, 5, 4),
    (12, 6, 5),
    (12, 7, 5),
    (12, 8, 6),
    (12, 9, 6),
    (12, 10, 6),
    (12, 11, 6),
    (12, 12, 6),
    (13, 1, 1),
    (13, 2, 2),
    (13, 3, 3),
    (13, 4, 4),
    (13, 5, 5),
    (13, 6, 5),
    (13, 7, 6),
    (13, 8, 6),
    (13, 9, 6),
    (13, 10, 7),
    (13, 11, 7),
    (13, 12, 7),
    (13, 13, 7),
];

/// OEIS A299029 (independent domination) up to 13 x 13, as A274138_TO_13: computed by
/// `queens guard --table 13 --independent --no-theorems` (0.3 s) and equal to the published terms.
pub const A299029_TO_13: [(usize, usize, usize); 91] = [
    (1, 1, 1),
    (2, 1, 1),
    (2, 2, 1),
    (3, 1, 1),
    (3, 2, 1),
    (3, 3, 1),
    (4, 1, 1),
    (4, 2, 2),
    (4, 3, 2),
    (4, 4, 3),
    (5, 1, 1),
    (5, 2, 2),
    (5, 3, 2),
    (5, 4, 3),
    (5, 5, 3),
    (6, 1, 1),
    (6, 2, 2),
    (6, 3, 2),
    (6, 4, 3),
    (6, 5, 3),
    (6, 6, 4),
    (7, 1, 1),
    (7, 2, 2),
    (7, 3, 3),
    (7, 4, 3),
    (7, 5, 4),
    (7, 6, 4),
    (7, 7, 4),
    (8, 1, 1),
    (8, 2, 2),
    (8, 3, 3),
    (8, 4, 4),
    (8, 5, 4),
    (8, 6, 4),
    (8, 7, 5),
    (8, 8, 5),
    (9, 1, 1),
    (9, 2, 2),
    (9, 3, 3),
    (9, 4, 4),
    (9, 5, 4),
    (9, 6, 4),
    (9, 7, 5),
    (9, 8, 5),
    (9, 9, 5),
    (10, 1, 1),
    (10, 2, 2),
    (10, 3, 3),
    (10, 4, 4),
    (10, 5, 4),
    (10, 6, 4),
    (10, 7, 5),
    (10, 8, 5),
    (10, 9, 5),
    (10, 10, 5),
    (11, 1, 1),
    (11, 2, 2),
    (11, 3, 3),
    (11, 4, 4),
    (11, 5, 4),
    (11, 6, 5),
    (11, 7, 5),
    (11, 8, 6),
    (11, 9, 5),
    (11, 10, 5),
    (11, 11, 5),
    (12, 1, 1),
    (12, 2, 2),
    (12, 3, 3),
    (12, 4, 4),
    (12, 5, 4),
    (12, 6, 5),
    (12, 7, 5),
    (12, 8, 6),
    (12, 9, 6),
    (12, 10, 6),
    (12, 11, 6),
    (12, 12, 7),
    (13, 1, 1),
    (13, 2, 2),
    (13, 3, 3),
    (13, 4, 4),
    (13, 5, 5),
    (13, 6, 5),
    (13, 7, 6),
    (13, 8, 6),
    (13, 9, 6),
    (13, 10, 7),
    (13, 11, 7),
    (13, 12, 7),
    (13, 13, 7),
];
