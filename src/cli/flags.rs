//! The flags and flag values shared by the commands, each defined once: `--json`/`--format`,
//! `-q`, `-t`/`--time-limit` and `-j`/`--threads` (at most [`MAX_THREADS`]), board sizes.

use super::{solver_options, Failure};
use clap::Args;
use queens::guard::MAX_GUARD_SIDE;
use queens::Options;
use std::time::Duration;

/// How a search command writes its answer.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputFormat {
    /// A short human answer with the board drawn.
    Text,
    /// One JSON object (the command-line contract's answer shape).
    Json,
    /// A self-contained SVG picture of the answer.
    Svg,
}

/// The formats one command offers for `--format`: all of [`OutputFormat`], or a part of them
/// ([`PlainFormat`]), each converting into [`OutputFormat`] for the code shared by all.
pub trait FormatChoice:
    clap::ValueEnum + Clone + Copy + std::fmt::Debug + Send + Sync + 'static + Into<OutputFormat>
{
    /// The help of `--format` for these formats.
    const HELP: &'static str;
}

impl FormatChoice for OutputFormat {
    const HELP: &'static str = "Output format: text (default), json or svg";
}

/// The formats of a command whose answer has no picture (`count`): text or JSON.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlainFormat {
    /// A short human answer.
    Text,
    /// One JSON object (the command-line contract's answer shape).
    Json,
}

impl FormatChoice for PlainFormat {
    const HELP: &'static str = "Output format: text (default) or json";
}

impl From<PlainFormat> for OutputFormat {
    fn from(format: PlainFormat) -> Self {
        match format {
            PlainFormat::Text => OutputFormat::Text,
            PlainFormat::Json => OutputFormat::Json,
        }
    }
}

/// Options shared by the search commands: `--json`, `--format` (its values `F`: every
/// [`OutputFormat`] by default, [`PlainFormat`] for a command with no picture, which then
/// neither offers nor accepts `svg`), `-q` and the limits.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs<F: FormatChoice = OutputFormat> {
    /// Print one JSON object instead of the text answer (short for `--format json`).
    #[arg(long)]
    pub json: bool,
    #[arg(long, value_enum, value_name = "FORMAT", help = F::HELP)]
    pub format: Option<F>,
    /// Draw no progress on stderr.
    #[arg(short = 'q', long)]
    pub quiet: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `-t/--time-limit S` and `-j/--threads T`: the limits of every command that solves.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Stop after S seconds with the best answer found and its proven bound (judge: the whole
    /// run, each case left then answered at once with the best found).
    #[arg(short = 't', long, value_name = "S", value_parser = parse_seconds)]
    pub time_limit: Option<Duration>,
    /// Worker threads, at most 256 (default: one per core). The answer does not depend on it.
    #[arg(short = 'j', long, value_name = "T", default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
}

impl LimitArgs {
    /// Solver options for these limits, wired to Ctrl-C.
    pub fn options(&self) -> Options {
        solver_options(self.threads, self.time_limit)
    }
}

impl<F: FormatChoice> SearchArgs<F> {
    /// The output format asked for: `--format`, or JSON for `--json`; both must agree.
    pub fn output(&self) -> Result<OutputFormat, Failure> {
        match (self.json, self.format.map(F::into)) {
            (true, Some(f)) if f != OutputFormat::Json => Err(Failure::bad_input(
                "--json (short for --format json) conflicts with --format given another value",
            )),
            (true, _) => Ok(OutputFormat::Json),
            (false, f) => Ok(f.unwrap_or(OutputFormat::Text)),
        }
    }

    /// Solver options for these arguments, wired to Ctrl-C.
    pub fn options(&self) -> Options {
        self.limits.options()
    }

    /// Whether progress may be drawn (not with `--quiet`, JSON or SVG; [`progress::Progress`]
    /// also checks that stderr is a terminal).
    pub fn shows_progress(&self) -> bool {
        !self.quiet && matches!(self.output(), Ok(OutputFormat::Text))
    }
}

/// The most worker threads a command accepts.
pub const MAX_THREADS: usize = 256;

/// Parses a thread count from 0 (one per core) to [`MAX_THREADS`].
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let threads: usize = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of threads"))?;
    if threads > MAX_THREADS {
        return Err(format!(
            "{threads} threads is more than the {MAX_THREADS} allowed (0 means one per core)"
        ));
    }
    Ok(threads)
}

/// Parses a non-negative, finite number of seconds.
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    let secs: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if !secs.is_finite() || !(0.0..=1e9).contains(&secs) {
        return Err(format!("'{text}' is not a number of seconds from 0 to 1e9"));
    }
    Ok(Duration::from_secs_f64(secs))
}

/// Parses `N` or `RxC` into (rows, columns), each from 1 to the supported maximum.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let side = |part: &str| -> Result<usize, String> {
        let value: usize = part
            .trim()
            .parse()
            .map_err(|_| format!("'{part}' is not a board side (N or RxC expected)"))?;
        if value == 0 || value > MAX_GUARD_SIDE {
            return Err(format!(
                "a board side of {value} is not supported: sides must be from 1 to {MAX_GUARD_SIDE}"
            ));
        }
        Ok(value)
    };
    match text.split_once(['x', 'X']) {
        Some((rows, cols)) => Ok((side(rows)?, side(cols)?)),
        None => {
            let n = side(text)?;
            Ok((n, n))
        }
    }
}
