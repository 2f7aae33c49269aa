//! A ledger on disk: opening one (checked against the plan, resumed where it stopped, a torn
//! last line cut off), appending records with one write and one `fsync` per batch, and the
//! errors and refusals of a set of ledgers.

use super::{
    header_line, read_contents, record_line, Header, HeaderMismatch, LedgerContents, LineError,
    Record, TableJob,
};
use crate::scale::plan::{UnitCount, WorkPlan};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Something wrong in a set of ledgers, located at a file and line (line 0: the whole file;
/// no file: the ledgers together, e.g. an overflowing total).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LedgerProblem {
    /// The file's name as given.
    pub file: String,
    /// 1-based line number, 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl LedgerProblem {
    /// A problem of the ledgers together (no file, no line).
    pub fn overall(message: impl Into<String>) -> Self {
        LedgerProblem {
            file: String::new(),
            line: 0,
            message: message.into(),
        }
    }
}

impl fmt::Display for LedgerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.file.is_empty() {
            write!(f, "{}", self.message)
        } else if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// Why a ledger run could not proceed.
#[derive(Debug, Error)]
pub enum LedgerError {
    /// Reading or writing the ledger failed.
    #[error("{path}: {source}")]
    Io {
        /// The ledger's path.
        path: String,
        /// The system error.
        source: std::io::Error,
    },
    /// The file is not a ledger, or belongs to another N or plan (bad usage: exit 2).
    #[error(transparent)]
    Refused(Box<Refusal>),
    /// After the run, the ledger does not check out (see the problems; exit 1).
    #[error("the ledger is inconsistent: {}", join_problems(.0))]
    Inconsistent(Vec<LedgerProblem>),
}

/// Why [`open_ledger`] refuses a file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Refusal {
    /// Its header names another job, N or plan.
    #[error("{file}:{line}: {mismatch}")]
    Foreign {
        /// The file's name.
        file: String,
        /// The header's line number.
        line: usize,
        /// How the header differs.
        mismatch: HeaderMismatch,
    },
    /// Its first line is not a ledger header (`reason`: why, if it is a broken line).
    #[error("{file}:1: not a queens ledger ({})", no_header_words(.reason.as_ref()))]
    NotLedger {
        /// The file's name.
        file: String,
        /// Why its first line is unusable, if it is one.
        reason: Option<LineError>,
    },
    /// A `queens guard --table` ledger of another table.
    #[error("{file}:1: this ledger is not for this table: it holds {found}, not {wanted}")]
    OtherTable {
        /// The file's name.
        file: String,
        /// The table its header names.
        found: TableJob,
        /// The table asked for.
        wanted: TableJob,
    },
    /// A `queens guard --table` ledger in the unchecked plain text of earlier builds.
    #[error(
        "{file}:1: a table ledger in the plain text of earlier builds, without checksums: \
         rerun the table with a new ledger file (its lines can be compared by hand)"
    )]
    PlainTable {
        /// The file's name.
        file: String,
    },
}

fn no_header_words(reason: Option<&LineError>) -> String {
    reason.map_or("no header".to_string(), LineError::to_string)
}

fn join_problems(problems: &[LedgerProblem]) -> String {
    let texts: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    texts.join("; ")
}

/// An open ledger, ready to append records for one plan.
pub struct LedgerWriter {
    file: File,
    path: String,
}

impl LedgerWriter {
    /// Appends lines with a single write, then flushes them to disk (`fsync`).
    pub fn append(&mut self, lines: &str) -> Result<(), LedgerError> {
        self.file
            .write_all(lines.as_bytes())
            .and_then(|()| self.file.sync_data())
            .map_err(|source| LedgerError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Appends one record per finished unit `(id, count)` of `plan`, in one write and one
    /// `fsync`.
    pub fn append_units(
        &mut self,
        plan: &dyn WorkPlan,
        units: &[(u64, UnitCount)],
    ) -> Result<(), LedgerError> {
        let ranges: Vec<(u64, u64)> = units.iter().map(|&(id, _)| (id, id)).collect();
        let specs = plan.range_checksums(&ranges);
        let tallies = plan.job().tallies();
        let lines: String = units
            .iter()
            .zip(specs)
            .map(|(&(id, c), spec)| {
                record_line(&Record::with_spec(
                    tallies,
                    id,
                    id,
                    c,
                    spec.expect("a unit of the plan"),
                ))
            })
            .collect();
        self.append(&lines)
    }
}

/// Opens (creating if needed) the ledger at `path` for `plan`: checks its header, removes a torn
/// last line, and returns the writer, the decoded contents, and notes for the user.
///
/// Refuses (exit 2) a file whose first line is not a ledger header or whose header names
/// another N or plan.
pub fn open_ledger(
    plan: &dyn WorkPlan,
    path: &Path,
) -> Result<(LedgerWriter, LedgerContents, Vec<String>), LedgerError> {
    let mut file = LedgerFile::open(path)?;
    let mut contents = read_contents(&file.bytes);
    let mut notes = Vec::new();
    let expected = Header::for_plan(plan);
    if let Some(line) = contents.torn_line.take() {
        notes.push(file.cut_torn(contents.complete_len, line, "its units are counted again")?);
    }
    match contents.header {
        Some((line, h)) if h != expected => {
            return Err(LedgerError::Refused(Box::new(Refusal::Foreign {
                file: file.name,
                line,
                mismatch: h.mismatch(&expected),
            })));
        }
        Some(_) => {}
        None if contents.complete_len == 0 => {
            file.start(&header_line(&expected))?;
            contents.header = Some((1, expected));
        }
        None => {
            return Err(LedgerError::Refused(Box::new(Refusal::NotLedger {
                file: file.name,
                reason: contents.bad_lines.first().map(|b| b.reason.clone()),
            })));
        }
    }
    for bad in &contents.bad_lines {
        notes.push(format!(
            "{}:{}: line ignored ({}); its units are counted again",
            file.name, bad.line, bad.reason
        ));
    }
    Ok((file.into_writer()?, contents, notes))
}

/// A ledger file opened to be checked and then appended to (created if missing), with its
/// bytes as read.
pub(crate) struct LedgerFile {
    file: File,
    path: PathBuf,
    /// The file's name as given.
    pub(crate) name: String,
    /// Its contents when opened.
    pub(crate) bytes: Vec<u8>,
}

impl LedgerFile {
    /// Opens (creating if needed) and reads the file at `path`.
    pub(crate) fn open(path: &Path) -> Result<Self, LedgerError> {
        let name = path.display().to_string();
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|source| LedgerError::Io {
                path: name.clone(),
                source,
            })?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)
            .map_err(|source| LedgerError::Io {
                path: name.clone(),
                source,
            })?;
        Ok(LedgerFile {
            file,
            path: path.to_path_buf(),
            name,
            bytes,
        })
    }

    fn io(&self, source: std::io::Error) -> LedgerError {
        LedgerError::Io {
            path: self.name.clone(),
            source,
        }
    }

    /// Removes an unfinished last line (line `line`, after byte `complete_len`: a write cut
    /// short by a kill or crash) so that the next line starts clean; the note for the user
    /// ends with `redone` (what happens to its work).
    pub(crate) fn cut_torn(
        &mut self,
        complete_len: u64,
        line: usize,
        redone: &str,
    ) -> Result<String, LedgerError> {
        self.file.set_len(complete_len).map_err(|e| self.io(e))?;
        self.file.sync_all().map_err(|e| self.io(e))?;
        Ok(format!(
            "{}:{line}: removed an unfinished last line (a run was cut short); {redone}",
            self.name
        ))
    }

    /// Writes the header line of an empty file, durably.
    pub(crate) fn start(&mut self, header: &str) -> Result<(), LedgerError> {
        self.file
            .seek(SeekFrom::Start(0))
            .and_then(|_| self.file.write_all(header.as_bytes()))
            .and_then(|()| self.file.sync_all())
            .map_err(|e| self.io(e))?;
        sync_parent_dir(&self.path);
        Ok(())
    }

    /// The writer that appends to the file from now on.
    pub(crate) fn into_writer(self) -> Result<LedgerWriter, LedgerError> {
        // Records go through an append-mode handle: each batch lands at the end of the file.
        let io = |source| LedgerError::Io {
            path: self.name.clone(),
            source,
        };
        drop(self.file);
        let file = OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(io)?;
        Ok(LedgerWriter {
            file,
            path: self.name.clone(),
        })
    }
}

fn sync_parent_dir(path: &Path) {
    // Makes a newly created file's directory entry durable; best effort (not on every OS).
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(parent) {
        let _ = dir.sync_all();
    }
}
