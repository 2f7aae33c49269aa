//! The one way a search command prints a [`Puzzle`]'s answer and maps its errors to exit
//! statuses.

use super::{emit, emit_line, interrupted, Failure, OutputFormat, Status};
use super::{EXIT_INTERRUPTED, EXIT_NO_ANSWER};
use queens::puzzle::{Puzzle, Solved, Style};

impl From<OutputFormat> for Style {
    fn from(format: OutputFormat) -> Style {
        match format {
            OutputFormat::Text => Style::Text,
            OutputFormat::Json => Style::Json,
            OutputFormat::Svg => Style::Svg,
        }
    }
}

/// Fails (exit 2) when `P` has no writer for `format`, before any solving.
pub fn check_format<P: Puzzle>(format: OutputFormat) -> Result<(), Failure> {
    P::writes(format.into()).map_err(|e| Failure::bad_input(e.to_string()))
}

/// Prints the answer of a solve in `format` (a JSON answer with a newline after it), or maps
/// its error: exit 1 when the question has no answer, 2 otherwise, the message after `name: `
/// when a name is given. After Ctrl-C the answer so far is printed and the status is 130.
pub fn print<P: Puzzle>(
    outcome: Result<Solved<P>, P::Error>,
    format: OutputFormat,
    name: Option<&str>,
) -> Result<Status, Failure> {
    let solved = outcome.map_err(|e| {
        let message = match name {
            Some(name) => format!("{name}: {e}"),
            None => e.to_string(),
        };
        if P::unanswerable(&e) {
            Failure {
                code: EXIT_NO_ANSWER,
                message,
            }
        } else {
            Failure::bad_input(message)
        }
    })?;
    let text = solved
        .write(format.into())
        .map_err(|e| Failure::bad_input(e.to_string()))?;
    if format == OutputFormat::Json {
        emit_line(&text)?;
    } else {
        emit(&text)?;
    }
    if interrupted() {
        return Ok(Status::from(EXIT_INTERRUPTED));
    }
    Ok(Status::SUCCESS)
}
