//! The examples of README.md and docs/*.md run: every `$ queens ...` line in a code block whose
//! files the repository ships is executed from the repository root, and its output (standard
//! error joined in the order written) compared with the lines that follow it. `for i in A B C;
//! do queens ...; done` runs the command once per value, and so does `seq A B | xargs ... -I{}
//! queens ...` (one value at a time); `sed -i 'EXPR' FILE` edits a file an earlier example
//! wrote; `*` in a file name matches the scratch folder's files. Ledgers and `> FILE` outputs
//! are written to a scratch folder, whose path is taken out of the output. `seconds`, `nodes`
//! and `threads` (and a text answer's timings such as `(0.011 s)` or `in 0.14 s`, and its node
//! counts) are masked; `...` in the documented output stands for any text. Skipped: examples
//! with a time limit, `serve`, and files the repository does not hold (e.g. written by the
//! benchmarks).

use std::path::Path;
use std::process::{Command, Stdio};

const FILES: &[&str] = &[
    "README.md",
    "docs/count.md",
    "docs/guard.md",
    "docs/repair.md",
    "docs/weight.md",
    "docs/json.md",
    "docs/scale.md",
    "docs/complete.md",
    "docs/see.md",
];

/// One `$ queens ...` example: where it is, the command line, and the output shown.
struct Example {
    place: String,
    command: String,
    shown: String,
}

fn examples(file: &str, text: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut in_block = false;
    let mut current: Option<Example> = None;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_block = !in_block;
            found.extend(current.take());
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.extend(current.take());
            let looped = command.starts_with("for ") && command.contains("; do queens ");
            let fanned = command.starts_with("seq ") && command.contains(" queens ");
            if command.starts_with("queens ") || looped || fanned || command.starts_with("sed -i ")
            {
                current = Some(Example {
                    place: format!("{file}:{}", i + 1),
                    command: command.to_string(),
                    shown: String::new(),
                });
            }
        } else if let Some(example) = current.as_mut() {
            example.shown.push_str(line);
            example.shown.push('\n');
        }
    }
    found.extend(current);
    found
}

/// `arg`, or where it is a pattern `PREFIX*SUFFIX`, the names of the files in `scratch` it
/// matches, sorted (as a shell expands it); a pattern that matches nothing stays as it is.
fn glob(scratch: &Path, arg: &str) -> Vec<String> {
    let Some((prefix, suffix)) = arg.split_once('*') else {
        return vec![arg.to_string()];
    };
    let mut names: Vec<String> = std::fs::read_dir(scratch)
        .into_iter()
        .flatten()
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| {
            name.len() >= prefix.len() + suffix.len()
                && name.starts_with(prefix)
                && name.ends_with(suffix)
        })
        .collect();
    names.sort();
    if names.is_empty() {
        names.push(arg.to_string());
    }
    names
}

/// `text` with the numbers of volatile fields replaced by `#`.
fn mask(text: &str) -> String {
    let mut out = text.to_string();
    for key in ["\"seconds\":", "\"nodes\":", "\"threads\":"] {
        let mut from = 0;
        while let Some(k) = out[from..].find(key) {
            let start = from + k + key.len();
            let end = out[start..]
                .find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | '-')))
                .map_or(out.len(), |e| start + e);
            out.replace_range(start..end, "#");
            from = start + 1;
        }
    }
    // Node counts in text ("(6 nodes)", "381 search nodes"), which depend on the thread count.
    for word in [" nodes", " search nodes"] {
        let mut from = 0;
        while let Some(k) = out[from..].find(word) {
            let end = from + k;
            let start = out[..end]
                .rfind(|c: char| !(c.is_ascii_digit() || c == ','))
                .map_or(0, |s| s + 1);
            if start < end {
                out.replace_range(start..end, "#");
                from = start + 1 + word.len();
            } else {
                from = end + word.len();
            }
        }
    }
    // Text timings: "(0.011 s)", "counted now in 0.14 s".
    let mut from = 0;
    while let Some(k) = out[from..].find(['(', ' ']) {
        let start = from + k + 1;
        let digits = out[start..]
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(out.len(), |e| start + e);
        let rest = &out[digits..];
        let seconds =
            rest.starts_with(" s") && !rest[2..].starts_with(|c: char| c.is_ascii_alphanumeric());
        if digits > start && out[start..digits].contains('.') && seconds {
            out.replace_range(start..digits, "#");
        }
        from = start;
    }
    out
}

/// Whether `actual` matches `shown`, in which `...` stands for any text.
fn matches(shown: &str, actual: &str) -> bool {
    let pieces: Vec<&str> = shown.split("...").collect();
    if pieces.len() == 1 {
        return shown == actual;
    }
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if !actual.starts_with(first) || actual.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &actual[first.len()..];
    for piece in &pieces[1..pieces.len() - 1] {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

#[test]
fn documented_examples_give_the_documented_output() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut ran = 0;
    let mut failures = Vec::new();
    let scratch = std::env::temp_dir().join(format!("queens-docs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    for file in FILES {
        let text = std::fs::read_to_string(root.join(file)).expect("a doc file");
        for example in examples(file, &text) {
            // The command without its comment, then an optional `| head -N` or `| tail -N`.
            let command = example.command.split("  #").next().unwrap().trim();
            // `sed -i 'EXPR' FILE` edits a file written by an earlier example.
            if let Some(rest) = command.strip_prefix("sed -i ") {
                let parts: Vec<&str> = rest.split('\'').collect();
                assert_eq!(parts.len(), 3, "{}: sed -i 'EXPR' FILE", example.place);
                let status = Command::new("sed")
                    .arg("-i")
                    .arg(parts[1])
                    .arg(scratch.join(parts[2].trim()))
                    .status()
                    .expect("run sed");
                assert!(status.success(), "{}: {command}", example.place);
                continue;
            }
            // `for i in A B C; do queens ...; done`: the command once per value, outputs joined;
            // `seq A B | xargs ... -I{} queens ...`: once per value from A to B, one at a time.
            let commands: Vec<String> = if let Some(rest) = command.strip_prefix("for i in ") {
                let (values, body) = rest.split_once("; do ").expect("for ...; do ...");
                let body = body.strip_suffix("; done").expect("...; done");
                values
                    .split_whitespace()
                    .map(|v| body.replace("$i", v))
                    .collect()
            } else if let Some(rest) = command.strip_prefix("seq ") {
                let (range, xargs) = rest.split_once(" | xargs ").expect("seq A B | xargs ...");
                let bounds: Vec<u64> = range
                    .split_whitespace()
                    .map(|b| b.parse().expect("seq A B"))
                    .collect();
                let body = &xargs[xargs.find("queens ").expect("xargs ... queens ...")..];
                (bounds[0]..=bounds[1])
                    .map(|v| body.replace("{}", &v.to_string()))
                    .collect()
            } else {
                vec![command.to_string()]
            };
            let mut actual = String::new();
            let mut skipped = false;
            let mut last_pipe: Option<String> = None;
            for command in &commands {
                let command = command.as_str();
                let (command, pipe) = match command.split_once(" | ") {
                    Some((c, p)) => (c.trim(), Some(p.trim())),
                    None => (command, None),
                };
                last_pipe = pipe.map(str::to_string);
                // `> FILE`: the output goes to FILE in a scratch folder, where later examples find it.
                let (command, into) = match command.split_once(" > ") {
                    Some((c, file)) => (c.trim(), Some(file.trim())),
                    None => (command, None),
                };
                let args: Vec<String> = command
                    .split_whitespace()
                    .skip(1)
                    .flat_map(|a| glob(&scratch, a))
                    .map(|a| {
                        let written = scratch.join(&a);
                        // Ledgers are written and read in the scratch folder.
                        let ledger = a.ends_with(".ledger") || a.ends_with(".l");
                        if written.exists() || (ledger && !root.join(&a).exists()) {
                            written.to_string_lossy().into_owned()
                        } else {
                            a
                        }
                    })
                    .collect();
                let volatile = ["--time-limit", "serve"];
                let missing_file = args.iter().any(|a| {
                    !a.starts_with('-')
                        && (a.contains('/') || a.contains('.'))
                        && a.parse::<f64>().is_err()
                        && !a.split('/').all(|p| p.parse::<u64>().is_ok())
                        && !root.join(a).exists()
                        && !a.starts_with(scratch.to_str().unwrap())
                });
                if args
                    .iter()
                    .any(|a| volatile.contains(&a.as_str()) || a.contains('*'))
                    || missing_file
                    || pipe.is_some_and(|p| !p.starts_with("head -") && !p.starts_with("tail -"))
                {
                    skipped = true;
                    break;
                }
                // Standard error joins standard output in the order written, as on a terminal,
                // except where the output goes to a file.
                let mut run = Command::new("sh");
                run.arg("-c");
                run.arg(if into.is_some() {
                    "exec \"$0\" \"$@\""
                } else {
                    "exec \"$0\" \"$@\" 2>&1"
                });
                let out = run
                    .arg(env!("CARGO_BIN_EXE_queens"))
                    .args(&args)
                    .current_dir(root)
                    .stdin(Stdio::null())
                    .output()
                    .expect("run queens");
                if let Some(file) = into {
                    assert!(
                        out.status.success(),
                        "{}: {}",
                        example.place,
                        example.command
                    );
                    std::fs::write(scratch.join(file), &out.stdout)
                        .expect("write the scratch file");
                    skipped = true;
                    break;
                }
                actual.push_str(&String::from_utf8_lossy(&out.stdout));
                actual.push_str(&String::from_utf8_lossy(&out.stderr));
            }
            if skipped {
                continue;
            }
            let actual = actual.replace(&format!("{}/", scratch.display()), "");
            let mut actual = actual;
            if let Some(pipe) = last_pipe.as_deref() {
                let k: usize = pipe[6..].parse().expect("head -N or tail -N");
                let lines: Vec<&str> = actual.lines().collect();
                let kept = if pipe.starts_with("head") {
                    &lines[..k.min(lines.len())]
                } else {
                    &lines[lines.len().saturating_sub(k)..]
                };
                actual = kept.iter().map(|l| format!("{l}\n")).collect();
            }
            // "(exit status N)" notes the status; it is not output.
            let mut shown = String::new();
            for line in example.shown.trim_end().lines() {
                let line = match line.rfind("(exit status ") {
                    Some(at) => line[..at].trim_end(),
                    None => line,
                };
                shown.push_str(line);
                shown.push('\n');
            }
            let (shown, actual) = (mask(shown.trim_end()), mask(actual.trim_end()));
            ran += 1;
            if !matches(&shown, &actual) {
                failures.push(format!(
                    "{}: $ {}\n--- documented\n{shown}\n--- actual\n{actual}\n",
                    example.place, example.command
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(ran >= 20, "only {ran} examples ran");
}

#[test]
fn masks_and_wildcards() {
    assert_eq!(
        mask(r#"{"nodes":12,"seconds":7e-6,"threads":2} (0.011 s)"#),
        r#"{"nodes":#,"seconds":#,"threads":#} (# s)"#
    );
    assert_eq!(
        mask("2 completions (6 nodes); all 19 units refuted, 1,381 search nodes"),
        "2 completions (# nodes); all 19 units refuted, # search nodes"
    );
    assert!(matches("a...c", "abbbc"));
    assert!(!matches("a...c", "abbb"));
    assert!(matches("x\n...", "x\ny\nz"));
    assert!(!matches("x", "y"));
}
