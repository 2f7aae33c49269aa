//! The ledger file: a header line and one self-checking line per finished unit, decoded
//! without ever failing on bad bytes, and appended to with one write and one `fsync` per batch.
//!
//! Lines are JSON objects ending in `"check":"<16 hex digits>"`, a checksum of the bytes of the
//! line before `,"check":`. The header:
//! `{"queens_ledger":1,"n":12,"units":120,"plan":"<hex>","check":"<hex>"}`; a record:
//! `{"first":5,"last":5,"solutions":"132","unique_x8":"136","mod13":[2,4],"mod15":[12,2],`
//! `"spec":"<hex>","check":"<hex>"}` (one line)
//! where `mod13` and `mod15` are the residues of `[solutions, unique_x8]` and `spec` is the
//! checksum of the specs of units `first..=last` ([`range_checksum`](super::plan::range_checksum)).
//!
//! A guard refutation's ledger ([`Job::Guard`]) names its job in the header,
//! `{"queens_ledger":1,"job":"guard","n":20,"rows":20,"cols":20,"guards":10,"independent":false,`
//! `"depth":3,"units":..,"plan":..,"check":..}`, and its records carry `"covers"` and `"nodes"`
//! in place of `"solutions"` and `"unique_x8"` ([`Tallies`]); everything else is the same.

use super::checksum::{checksum_bytes, hex, parse_hex};
use super::plan::{CompleteJob, GuardJob, Job, Tallies, UnitCount, WorkPlan};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fmt;
use thiserror::Error;

mod file;

pub use file::*;

/// Format version written in every ledger header.
pub const LEDGER_VERSION: u32 = 1;

/// The first line of a ledger: which count, and which plan, it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: u32,
    /// Number of units in the plan.
    pub units: u64,
    /// [`WorkPlan::checksum`] of the plan.
    pub plan: u64,
    /// What the plan's units compute.
    pub job: Job,
}

impl Header {
    /// The header of a ledger for `plan`.
    pub fn for_plan(plan: &dyn WorkPlan) -> Self {
        Header {
            n: plan.n(),
            units: plan.unit_count(),
            plan: plan.checksum(),
            job: plan.job(),
        }
    }

    /// Why a ledger with this header does not belong to a count whose header is `expected`
    /// (call it when they differ).
    pub fn mismatch(&self, expected: &Header) -> HeaderMismatch {
        let kernel = |job: Job| match job {
            Job::Count => Some("the constellation search"),
            Job::JoinCount { .. } => Some("the join"),
            Job::Guard(_) | Job::Complete(_) => None,
        };
        if self.n == expected.n && self.job != expected.job {
            if let (Some(mine), Some(theirs)) = (kernel(self.job), kernel(expected.job)) {
                if mine != theirs {
                    return HeaderMismatch::Kernel {
                        n: self.n,
                        found: mine,
                        wanted: theirs,
                    };
                }
            }
        }
        if self.job != expected.job {
            HeaderMismatch::Job {
                found: job_words(self.n, self.job),
                wanted: job_words(expected.n, expected.job),
            }
        } else if self.n != expected.n {
            HeaderMismatch::Size {
                found: self.n,
                wanted: expected.n,
            }
        } else {
            HeaderMismatch::Plan {
                found: *self,
                wanted: *expected,
            }
        }
    }
}

/// Why a ledger's header does not belong to the job at hand ([`Header::mismatch`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum HeaderMismatch {
    /// The same count of N by another counting kernel.
    #[error(
        "ledger is for N = {n} counted by {found}, not by {wanted}: ledgers of different \
         kernels cannot be mixed (resume or merge it with ledgers of its own kernel)"
    )]
    Kernel {
        /// Board size.
        n: u32,
        /// The ledger's kernel, in words.
        found: &'static str,
        /// The expected kernel, in words.
        wanted: &'static str,
    },
    /// Another job ([`job_words`] of each).
    #[error("ledger is for {found}, not {wanted}")]
    Job {
        /// The ledger's job.
        found: String,
        /// The expected job.
        wanted: String,
    },
    /// A count of another board size.
    #[error("ledger is for N = {found}, not N = {wanted}")]
    Size {
        /// The ledger's N.
        found: u32,
        /// The expected N.
        wanted: u32,
    },
    /// Another plan of the same job.
    #[error(
        "ledger is for another plan of N = {} ({} units, plan {}; this build's plan has {} \
         units, plan {})",
        found.n, found.units, hex(found.plan), wanted.units, hex(wanted.plan)
    )]
    Plan {
        /// The ledger's header.
        found: Header,
        /// The expected header.
        wanted: Header,
    },
}

/// The job of a ledger in words: `N = 12`, `10 guards on 20x20 (depth 3)` or `the
/// completions of a 21x21 board (depth 12, board 3f2a...)`.
pub fn job_words(n: u32, job: Job) -> String {
    match job {
        Job::Count => format!("N = {n}"),
        Job::JoinCount { memory_mib } => {
            format!("N = {n} by the join (units cut for {memory_mib} MiB)")
        }
        Job::Guard(g) => format!(
            "{} {}guards on {}x{} (depth {})",
            g.queens,
            if g.independent { "independent " } else { "" },
            g.rows,
            g.cols,
            g.depth
        ),
        Job::Complete(c) => format!(
            "the completions of a {n}x{n} board (depth {}, board {:016x})",
            c.depth,
            checksum_bytes(c.board.as_bytes())
        ),
    }
}

/// Which table a `queens guard --table` ledger ([`super::table`]) holds: the rule, and whether lower bounds may come from theorems.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableJob {
    /// Independent domination (the queens do not attack one another).
    pub independent: bool,
    /// Whether theorems' bounds are cited (`--no-theorems` not given).
    pub theorems: bool,
}

impl fmt::Display for TableJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the table of rule {}, theorems {}",
            rule_name(self.independent),
            if self.theorems { "yes" } else { "no" }
        )
    }
}

pub(crate) fn rule_name(independent: bool) -> &'static str {
    if independent {
        "independent"
    } else {
        "any"
    }
}

/// One finished range of units in a ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// First unit id of the range.
    pub first: u64,
    /// Last unit id of the range (inclusive).
    pub last: u64,
    /// What the range contributes.
    pub count: UnitCount,
    /// Residues of `[solutions, unique_x8]` modulo 13, as written.
    pub mod13: [u8; 2],
    /// Residues of `[solutions, unique_x8]` modulo 15, as written.
    pub mod15: [u8; 2],
    /// [`super::range_checksum`] of the specs of units `first..=last`, as written.
    pub spec: u64,
    /// The names its two numbers were written under (a count's or a guard refutation's).
    pub tallies: Tallies,
}

impl Record {
    /// The record for units `first..=last` of `plan` with the given count; residues and spec
    /// checksum computed here. Panics if the range is not in the plan.
    pub fn new(plan: &dyn WorkPlan, first: u64, last: u64, count: UnitCount) -> Self {
        let spec = plan.range_checksums(&[(first, last)])[0].expect("a range of the plan");
        Record::with_spec(plan.job().tallies(), first, last, count, spec)
    }

    /// The record for units `first..=last` with the given count and spec checksum (residues
    /// computed here), its numbers named as `tallies` says.
    pub fn with_spec(tallies: Tallies, first: u64, last: u64, count: UnitCount, spec: u64) -> Self {
        Record {
            tallies,
            first,
            last,
            count,
            mod13: residues(count, 13),
            mod15: residues(count, 15),
            spec,
        }
    }

    /// Whether the written residues agree with the written counts.
    pub fn residues_agree(&self) -> bool {
        self.mod13 == residues(self.count, 13) && self.mod15 == residues(self.count, 15)
    }

    /// Whether the record's range lies in `plan` and its spec checksum is the plan's for it.
    pub fn matches_plan(&self, plan: &dyn WorkPlan) -> bool {
        plan.range_checksums(&[(self.first, self.last)])[0] == Some(self.spec)
    }
}

/// `[solutions, unique_x8]` modulo `modulus` (13 or 15).
pub fn residues(count: UnitCount, modulus: u128) -> [u8; 2] {
    [
        (count.solutions % modulus) as u8,
        (count.unique_x8 % modulus) as u8,
    ]
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    queens_ledger: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    job: Option<String>,
    n: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    rows: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cols: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    guards: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    independent: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kernel: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    memory_mib: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    board: Option<String>,
    units: u64,
    plan: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    first: u64,
    last: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    solutions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    unique_x8: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    covers: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    completions: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    nodes: Option<String>,
    mod13: [u8; 2],
    mod15: [u8; 2],
    spec: String,
}

const CHECK_KEY: &str = ",\"check\":\"";

/// A ledger line: appends `,"check":"<hex>"}` and a newline to a serialized JSON object
/// (the checksum of the bytes before `,"check":`); [`unseal`] takes it off again.
pub fn seal(body: String) -> String {
    let open = body
        .strip_suffix('}')
        .expect("a serialized JSON object ends in '}'");
    let check = checksum_bytes(open.as_bytes());
    format!("{open}{CHECK_KEY}{}\"}}\n", hex(check))
}

/// The ledger line (with its newline) for a header.
pub fn header_line(header: &Header) -> String {
    let guard = match header.job {
        Job::Guard(g) => Some(g),
        _ => None,
    };
    let complete = match header.job {
        Job::Complete(c) => Some(c),
        _ => None,
    };
    let join = match header.job {
        Job::JoinCount { memory_mib } => Some(memory_mib),
        _ => None,
    };
    let job = match header.job {
        Job::Count => None,
        Job::JoinCount { .. } => Some("count"),
        Job::Guard(_) => Some("guard"),
        Job::Complete(_) => Some("complete"),
    };
    seal(
        serde_json::to_string(&HeaderLine {
            queens_ledger: LEDGER_VERSION,
            job: job.map(str::to_string),
            kernel: join.map(|_| "join".to_string()),
            memory_mib: join,
            n: header.n,
            rows: guard.map(|g| g.rows),
            cols: guard.map(|g| g.cols),
            guards: guard.map(|g| g.queens),
            independent: guard.map(|g| g.independent),
            depth: guard.map(|g| g.depth).or(complete.map(|c| c.depth)),
            board: complete.map(|c| c.board.to_string()),
            units: header.units,
            plan: hex(header.plan),
        })
        .expect("a header serializes"),
    )
}

/// The ledger line (with its newline) for a record.
pub fn record_line(record: &Record) -> String {
    let (a, b) = (
        Some(record.count.solutions.to_string()),
        Some(record.count.unique_x8.to_string()),
    );
    let (count, covers, completions, nodes) = match record.tallies {
        Tallies::Count => ((a, b), None, None, None),
        Tallies::Guard => ((None, None), a, None, b),
        Tallies::Complete => ((None, None), None, a, b),
    };
    seal(
        serde_json::to_string(&RecordLine {
            first: record.first,
            last: record.last,
            solutions: count.0,
            unique_x8: count.1,
            covers,
            completions,
            nodes,
            mod13: record.mod13,
            mod15: record.mod15,
            spec: hex(record.spec),
        })
        .expect("a record serializes"),
    )
}

/// A ledger line, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// The header.
    Header(Header),
    /// A finished range.
    Record(Record),
}

/// Why a ledger line is unusable ([`parse_line`], [`read_contents`]).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// The bytes are not UTF-8.
    #[error("not UTF-8 text")]
    NotUtf8,
    /// No `"check"` field.
    #[error("no \"check\" field (not a ledger line)")]
    NoCheck,
    /// Something follows the `"check"` field.
    #[error("does not end with the \"check\" field")]
    CheckNotLast,
    /// The `"check"` field is not 16 hex digits.
    #[error("malformed \"check\" field")]
    MalformedCheck,
    /// The line's checksum is not the written one.
    #[error("checksum mismatch: the line was changed or torn")]
    ChecksumMismatch,
    /// A header line that is not the header's JSON (the decoder's message).
    #[error("malformed header: {0}")]
    MalformedHeader(String),
    /// A header of another format version.
    #[error("ledger format version {0} (this build reads version {LEDGER_VERSION})")]
    Version(u32),
    /// The header's plan checksum is not 16 hex digits.
    #[error("malformed plan checksum")]
    PlanChecksum,
    /// A count's header with an unknown kernel, or the join's without its memory cap.
    #[error("malformed header: unknown kernel or its memory cap missing")]
    UnknownKernel,
    /// A header naming an unknown job, or missing its job's fields.
    #[error("malformed header: unknown job or job fields missing")]
    UnknownJob,
    /// A record line that is not a record's JSON (the decoder's message).
    #[error("malformed record: {0}")]
    MalformedRecord(String),
    /// A record without one of the two pairs of numbers.
    #[error(
        "malformed record: needs \"solutions\" and \"unique_x8\", or \"covers\" and \"nodes\""
    )]
    RecordTallies,
    /// A number that is not written in decimal digits.
    #[error("{field} '{text}' is not a decimal count")]
    NotDecimal {
        /// The field's name.
        field: &'static str,
        /// What was written.
        text: String,
    },
    /// A number of more than 128 bits.
    #[error("{field} '{text}' does not fit 128 bits")]
    TooLarge {
        /// The field's name.
        field: &'static str,
        /// What was written.
        text: String,
    },
    /// The record's spec checksum is not 16 hex digits.
    #[error("malformed spec checksum")]
    SpecChecksum,
    /// A record whose first id is above its last.
    #[error("range {first}-{last} is empty")]
    EmptyRange {
        /// The first id written.
        first: u64,
        /// The last id written.
        last: u64,
    },
    /// The header of a `queens guard --table` ledger where a count's or a refutation's is
    /// expected.
    #[error("the header of a `queens guard --table` ledger, which only that table resumes")]
    TableLedger,
    /// A header after the first line.
    #[error("a second header")]
    SecondHeader,
    /// A record on the first line.
    #[error("the first line must be the ledger header")]
    RecordFirst,
}

/// The JSON object of a sealed ledger line (without its newline), its `"check"` field taken
/// off and verified: `{...}` with the fields before `"check"`.
pub fn unseal(line: &[u8]) -> Result<String, LineError> {
    let text = std::str::from_utf8(line).map_err(|_| LineError::NotUtf8)?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    let pos = text.rfind(CHECK_KEY).ok_or(LineError::NoCheck)?;
    let (open, tail) = text.split_at(pos);
    let hex_part = tail[CHECK_KEY.len()..]
        .strip_suffix("\"}")
        .ok_or(LineError::CheckNotLast)?;
    let written = parse_hex(hex_part).ok_or(LineError::MalformedCheck)?;
    if checksum_bytes(open.as_bytes()) != written {
        return Err(LineError::ChecksumMismatch);
    }
    Ok(format!("{open}}}"))
}

/// Decodes one complete ledger line (without its newline). The error says why it is unusable.
pub fn parse_line(line: &[u8]) -> Result<Line, LineError> {
    parse_body(&unseal(line)?)
}

/// Decodes an unsealed line of a count's or a refutation's ledger.
fn parse_body(body: &str) -> Result<Line, LineError> {
    if body.starts_with(TABLE_HEADER_START) {
        Err(LineError::TableLedger)
    } else if body.starts_with("{\"queens_ledger\"") {
        parse_header(body).map(Line::Header)
    } else {
        parse_record(body).map(Line::Record)
    }
}

/// How the header of a `queens guard --table` ledger starts ([`super::table`]).
pub(crate) const TABLE_HEADER_START: &str = "{\"queens_ledger\":1,\"job\":\"guard_table\"";

fn parse_header(body: &str) -> Result<Header, LineError> {
    let h: HeaderLine =
        serde_json::from_str(body).map_err(|e| LineError::MalformedHeader(e.to_string()))?;
    if h.queens_ledger != LEDGER_VERSION {
        return Err(LineError::Version(h.queens_ledger));
    }
    let plan = parse_hex(&h.plan).ok_or(LineError::PlanChecksum)?;
    if let (Some("complete"), None, None, None, None, Some(depth), Some(board)) = (
        h.job.as_deref(),
        h.rows,
        h.cols,
        h.guards,
        h.independent,
        h.depth,
        h.board.as_ref(),
    ) {
        if h.kernel.is_some() || h.memory_mib.is_some() {
            return Err(LineError::UnknownJob);
        }
        return Ok(Header {
            n: h.n,
            units: h.units,
            plan,
            job: Job::Complete(CompleteJob {
                n: h.n,
                depth,
                board: super::complete::intern_board(board.clone()),
            }),
        });
    }
    if h.board.is_some() {
        return Err(LineError::UnknownJob);
    }
    let job = match (
        h.job.as_deref(),
        h.rows,
        h.cols,
        h.guards,
        h.independent,
        h.depth,
    ) {
        (None, None, None, None, None, None) if h.kernel.is_none() && h.memory_mib.is_none() => {
            Job::Count
        }
        (Some("count"), None, None, None, None, None) => {
            match (h.kernel.as_deref(), h.memory_mib) {
                (Some("join"), Some(memory_mib)) => Job::JoinCount { memory_mib },
                (Some("dfs") | None, None) => Job::Count,
                _ => return Err(LineError::UnknownKernel),
            }
        }
        (Some("guard"), Some(rows), Some(cols), Some(queens), Some(independent), Some(depth)) => {
            Job::Guard(GuardJob {
                rows,
                cols,
                queens,
                independent,
                depth,
            })
        }
        _ => return Err(LineError::UnknownJob),
    };
    Ok(Header {
        n: h.n,
        units: h.units,
        plan,
        job,
    })
}

fn parse_record(body: &str) -> Result<Record, LineError> {
    let r: RecordLine =
        serde_json::from_str(body).map_err(|e| LineError::MalformedRecord(e.to_string()))?;
    let decimal = |field: &'static str, s: &str| -> Result<u128, LineError> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(LineError::NotDecimal {
                field,
                text: s.to_string(),
            });
        }
        s.parse::<u128>().map_err(|_| LineError::TooLarge {
            field,
            text: s.to_string(),
        })
    };
    let (tallies, a, b) = match (r.solutions, r.unique_x8, r.covers, r.completions, r.nodes) {
        (Some(a), Some(b), None, None, None) => (Tallies::Count, a, b),
        (None, None, Some(a), None, Some(b)) => (Tallies::Guard, a, b),
        (None, None, None, Some(a), Some(b)) => (Tallies::Complete, a, b),
        _ => return Err(LineError::RecordTallies),
    };
    let [name_a, name_b] = tallies.names();
    let count = UnitCount {
        solutions: decimal(name_a, &a)?,
        unique_x8: decimal(name_b, &b)?,
    };
    let spec = parse_hex(&r.spec).ok_or(LineError::SpecChecksum)?;
    if r.first > r.last {
        return Err(LineError::EmptyRange {
            first: r.first,
            last: r.last,
        });
    }
    Ok(Record {
        first: r.first,
        last: r.last,
        count,
        mod13: r.mod13,
        mod15: r.mod15,
        spec,
        tallies,
    })
}

/// A line of a ledger file that could not be used, with its 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number.
    pub line: usize,
    /// Why it is unusable.
    pub reason: LineError,
}

/// The decoded contents of one ledger file.
#[derive(Clone, Debug, Default)]
pub struct LedgerContents {
    /// The header and its line number, if the file has a valid first line that is a header.
    pub header: Option<(usize, Header)>,
    /// Valid records with their 1-based line numbers, in file order.
    pub records: Vec<(usize, Record)>,
    /// Complete lines that could not be used (bad checksum, malformed, a second header...).
    pub bad_lines: Vec<BadLine>,
    /// The line number of an unterminated last line (a write cut short by a kill), if any.
    pub torn_line: Option<usize>,
    /// Length in bytes of the file up to and including its last newline.
    pub complete_len: u64,
}

/// The complete lines of a ledger file, each [`unseal`]ed (or why not), with 1-based line
/// numbers, and the unterminated last line (a write cut short) if there is one.
#[derive(Clone, Debug, Default)]
pub struct SealedLines {
    /// Each complete line's JSON object, or why it is unusable.
    pub lines: Vec<(usize, Result<String, LineError>)>,
    /// The line number of an unterminated last line, if any.
    pub torn_line: Option<usize>,
    /// Length in bytes of the file up to and including its last newline.
    pub complete_len: u64,
}

/// Splits a ledger file's bytes into lines and unseals each. Never fails.
pub fn read_sealed(bytes: &[u8]) -> SealedLines {
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let mut out = SealedLines {
        complete_len: complete_len as u64,
        ..SealedLines::default()
    };
    if complete_len > 0 {
        out.lines = bytes[..complete_len - 1]
            .split(|&b| b == b'\n')
            .enumerate()
            .map(|(i, line)| (i + 1, unseal(line)))
            .collect();
    }
    if complete_len < bytes.len() {
        out.torn_line = Some(out.lines.len() + 1);
    }
    out
}

/// Decodes a ledger file's bytes. Never fails: unusable lines are listed in `bad_lines`, an
/// unterminated last line in `torn_line`.
pub fn read_contents(bytes: &[u8]) -> LedgerContents {
    let sealed = read_sealed(bytes);
    let mut out = LedgerContents {
        torn_line: sealed.torn_line,
        complete_len: sealed.complete_len,
        ..LedgerContents::default()
    };
    for (line_no, body) in sealed.lines {
        let bad = |reason: LineError| BadLine {
            line: line_no,
            reason,
        };
        match body.and_then(|body| parse_body(&body)) {
            Ok(Line::Header(h)) if line_no == 1 => out.header = Some((line_no, h)),
            Ok(Line::Header(_)) => out.bad_lines.push(bad(LineError::SecondHeader)),
            Ok(Line::Record(_)) if line_no == 1 => out.bad_lines.push(bad(LineError::RecordFirst)),
            Ok(Line::Record(r)) => out.records.push((line_no, r)),
            Err(reason) => out.bad_lines.push(bad(reason)),
        }
    }
    out
}

/// Ledger contents held in memory, one record per finished unit (line numbers from 2), for
/// checking results that were never written to a file.
pub fn contents_in_memory(plan: &dyn WorkPlan, results: &[(u64, UnitCount)]) -> LedgerContents {
    let ranges: Vec<(u64, u64)> = results.iter().map(|&(id, _)| (id, id)).collect();
    let specs = plan.range_checksums(&ranges);
    let tallies = plan.job().tallies();
    LedgerContents {
        header: Some((1, Header::for_plan(plan))),
        records: results
            .iter()
            .zip(specs)
            .enumerate()
            .map(|(k, (&(id, c), spec))| {
                let spec = spec.expect("a unit of the plan");
                (k + 2, Record::with_spec(tallies, id, id, c, spec))
            })
            .collect(),
        ..LedgerContents::default()
    }
}

/// The unit ids that usable records of `contents` cover (records matching the plan's spec
/// checksums and with consistent residues). Its size follows the ledger, not the plan.
pub fn finished_units(plan: &dyn WorkPlan, contents: &LedgerContents) -> HashSet<u64> {
    let ranges: Vec<(u64, u64)> = contents
        .records
        .iter()
        .map(|(_, r)| (r.first, r.last))
        .collect();
    let specs = plan.range_checksums(&ranges);
    let mut done = HashSet::new();
    for ((_, rec), spec) in contents.records.iter().zip(specs) {
        if spec == Some(rec.spec) && rec.residues_agree() && rec.tallies == plan.job().tallies() {
            done.extend(rec.first..=rec.last);
        }
    }
    done
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::plan_for;

    #[test]
    fn lines_round_trip_and_detect_changes() {
        let plan = plan_for(6).unwrap();
        let h = Header::for_plan(plan.as_ref());
        let line = header_line(&h);
        assert_eq!(parse_line(line.trim_end().as_bytes()), Ok(Line::Header(h)));
        let rec = Record::new(
            plan.as_ref(),
            2,
            2,
            UnitCount {
                solutions: 1234567890123456789012345,
                unique_x8: 56,
            },
        );
        let line = record_line(&rec);
        assert_eq!(
            parse_line(line.trim_end().as_bytes()),
            Ok(Line::Record(rec))
        );
        let tampered = line.replacen("\"unique_x8\":\"56\"", "\"unique_x8\":\"64\"", 1);
        assert_eq!(
            parse_line(tampered.trim_end().as_bytes()),
            Err(LineError::ChecksumMismatch)
        );
        for cut in 0..line.len() - 1 {
            assert!(parse_line(&line.as_bytes()[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn contents_sort_lines_into_header_records_bad_and_torn() {
        let plan = plan_for(7).unwrap();
        let plan = plan.as_ref();
        let header = header_line(&Header::for_plan(plan));
        let rec = record_line(&Record::new(plan, 0, 0, UnitCount::default()));
        let text = format!("{header}{rec}junk\n{header}{}", &rec[..10]);
        let c = read_contents(text.as_bytes());
        assert_eq!(c.header.map(|(line, _)| line), Some(1));
        assert_eq!(c.records.len(), 1);
        let bad: Vec<usize> = c.bad_lines.iter().map(|b| b.line).collect();
        assert_eq!(bad, vec![3, 4]);
        assert_eq!(c.torn_line, Some(5));
        assert_eq!(c.complete_len as usize, text.len() - 10);
        let done = finished_units(plan, &c);
        assert!(done.contains(&0) && !done.contains(&1) && done.len() == 1);
        let c = read_contents(rec.as_bytes());
        assert!(c.header.is_none());
        assert_eq!(c.bad_lines[0].reason, LineError::RecordFirst);
        assert_eq!(
            c.bad_lines[0].reason.to_string(),
            "the first line must be the ledger header"
        );
    }
}
