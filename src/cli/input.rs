//! Reading a command's input: a file or standard input, as bytes or UTF-8 text, with the name
//! that messages use; a read of standard input that Ctrl-C can always end.

use super::{interrupted, Failure, EXIT_INTERRUPTED};
use queens::format::{decode_utf8, ParseError};
use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::time::Duration;

/// Reads a whole input (a file, or standard input for `None` or `-`) as bytes, with the name to
/// use in messages. Reading standard input says so on stderr when it is a terminal, and
/// Ctrl-C ends the read at once (exit 130).
pub fn read_bytes(path: &Option<PathBuf>) -> Result<(String, Vec<u8>), Failure> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let bytes = std::fs::read(p)
                .map_err(|e| Failure::bad_input(format!("cannot read {}: {e}", p.display())))?;
            Ok((p.display().to_string(), bytes))
        }
        _ => {
            if std::io::stdin().is_terminal() {
                eprintln!("reading the input from standard input; end it with Ctrl-D");
            }
            read_stdin().map(|bytes| ("<stdin>".to_string(), bytes))
        }
    }
}

/// All of standard input: directly when it is a regular file (which cannot hang), else in
/// reads that wait for data at most 50 ms at a time, so that Ctrl-C ends the wait.
fn read_stdin() -> Result<Vec<u8>, Failure> {
    let cannot = |e: std::io::Error| Failure::bad_input(format!("cannot read standard input: {e}"));
    if let Some(size) = stdin_file_size() {
        let mut bytes = Vec::with_capacity(size.saturating_add(1).min(1 << 30) as usize);
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map_err(cannot)?;
        return Ok(bytes);
    }
    let mut stdin = std::io::stdin().lock();
    let mut bytes = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    loop {
        let ready = stdin_ready_within(Duration::from_millis(50));
        if interrupted() {
            return Err(Failure {
                code: EXIT_INTERRUPTED,
                message: "interrupted while reading standard input".into(),
            });
        }
        if !ready {
            continue;
        }
        match stdin.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(k) => bytes.extend_from_slice(&chunk[..k]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(cannot(e)),
        }
    }
}

/// Whether standard input has data, an end or an error to read within `wait` (so that a read
/// does not block); `false` when the wait ran out or a signal ended it.
#[cfg(unix)]
fn stdin_ready_within(wait: Duration) -> bool {
    let mut watched = libc::pollfd {
        fd: libc::STDIN_FILENO,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: `poll` reads and writes exactly the one `pollfd` passed, which lives on this
    // stack frame for the whole call.
    #[allow(unsafe_code)]
    let ready = unsafe { libc::poll(&mut watched, 1, wait.as_millis() as libc::c_int) };
    ready != 0
        && !(ready < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted)
}

/// Off Unix a read may block; it is always attempted.
#[cfg(not(unix))]
fn stdin_ready_within(_wait: Duration) -> bool {
    true
}

/// Reads a whole input (a file, or standard input for `None` or `-`) as UTF-8 text; errors name
/// the file and the line and column of an invalid byte.
pub fn read_input(path: &Option<PathBuf>) -> Result<(String, String), Failure> {
    let (name, bytes) = read_bytes(path)?;
    let text = decode_utf8(&bytes).map_err(|e| located(&name, &e))?;
    Ok((name, text.to_string()))
}

/// A bad-input failure for a parse error in the input called `name`.
pub fn located(name: &str, error: &ParseError) -> Failure {
    Failure::bad_input(format!("{name}: {error}"))
}

/// The size of standard input when it is a regular file (`< file`), not a pipe or a terminal.
#[cfg(unix)]
fn stdin_file_size() -> Option<u64> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin().as_fd().try_clone_to_owned().ok()?;
    let meta = std::fs::File::from(fd).metadata().ok()?;
    meta.file_type().is_file().then_some(meta.len())
}

/// Standard input is never assumed to be a regular file off Unix.
#[cfg(not(unix))]
fn stdin_file_size() -> Option<u64> {
    None
}
