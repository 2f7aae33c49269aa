//! `queens man`: one manual page (roff) for the whole tool, every command with its options, the
//! input formats and the exit status. It names no other page (there is none to install).

use clap::Command;
use clap_mangen::roff::{bold, roman, Roff};

/// The input files, as the command-line contract reads them.
const INPUT_FORMATS: &[(&str, &str)] = &[
    (
        "weight",
        "N lines of N integers (any sign, 64 bits) separated by spaces or tabs.",
    ),
    (
        "repair",
        "N lines of N characters, '.' empty and 'q' or 'Q' a queen, exactly N queens; the squares \
         may be separated by single spaces if every row does so.",
    ),
    (
        "guard",
        "R lines of C characters, 'X' or 'x' marked, '.' (or a queen 'Q') not; single spaces \
         between squares as for repair.",
    ),
    (
        "all",
        "Blank lines and spaces or tabs around a line are ignored; a leading byte-order mark is \
         skipped; any other invisible character is an error at its line and column. FILE '-' or \
         no FILE reads standard input.",
    ),
];

/// The exit statuses every command keeps.
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "The answer was printed (or a certificate is valid)."),
    (
        "1",
        "The question has no answer (no placement exists), or a certificate is invalid.",
    ),
    (
        "2",
        "Bad usage or bad input: 'error:' on standard error with the line and column (or case).",
    ),
    (
        "130",
        "Interrupted by Ctrl-C; what was found so far is reported.",
    ),
];

/// The manual page of `cmd` (the whole command tree) as roff text.
pub fn render(cmd: Command) -> std::io::Result<String> {
    let mut cmd = cmd;
    cmd.build();
    let man = clap_mangen::Man::new(cmd.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    let mut roff = Roff::new();
    roff.control("SH", ["COMMANDS"]);
    for sub in cmd.get_subcommands() {
        command_section(&mut roff, sub, "queens");
    }
    roff.control("SH", ["INPUT FORMATS"]);
    for (what, text) in INPUT_FORMATS {
        roff.control("TP", []);
        roff.text([bold(*what)]);
        roff.text([roman(*text)]);
    }
    roff.control("SH", ["EXIT STATUS"]);
    for (code, text) in EXIT_STATUS {
        roff.control("TP", []);
        roff.text([bold(*code)]);
        roff.text([roman(*text)]);
    }
    out.extend_from_slice(roff.to_roff().as_bytes());
    man.render_extra_section(&mut out)?;
    man.render_version_section(&mut out)?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// One command's subsection: its usage line, what it does, its arguments; then its own
/// subcommands.
fn command_section(roff: &mut Roff, cmd: &Command, parent: &str) {
    if cmd.is_hide_set() || cmd.get_name() == "help" {
        return;
    }
    let name = format!("{parent} {}", cmd.get_name());
    roff.control("SS", [name.as_str()]);
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        roff.text([roman(about.to_string())]);
    }
    for arg in cmd.get_arguments() {
        if arg.is_hide_set() || matches!(arg.get_id().as_str(), "help" | "version") {
            continue;
        }
        roff.control("TP", []);
        roff.text([bold(arg_text(arg))]);
        let mut help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        let values: Vec<String> = arg
            .get_possible_values()
            .iter()
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_string())
            .collect();
        if !values.is_empty() && arg.get_action().takes_values() {
            help.push_str(&format!(" [values: {}]", values.join(", ")));
        }
        roff.text([roman(help)]);
    }
    for sub in cmd.get_subcommands() {
        command_section(roff, sub, &name);
    }
}

/// How an argument is written: `-t, --time-limit <S>`, `<FILE>`.
fn arg_text(arg: &clap::Arg) -> String {
    let value = match arg.get_value_names() {
        Some(names) => names
            .iter()
            .map(|n| format!("<{n}>"))
            .collect::<Vec<_>>()
            .join(" "),
        None => format!("<{}>", arg.get_id().as_str().to_uppercase()),
    };
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("-{short}"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("--{long}"));
    }
    if names.is_empty() {
        return value;
    }
    let mut text = names.join(", ");
    if arg.get_action().takes_values() {
        text.push(' ');
        text.push_str(&value);
    }
    text
}
