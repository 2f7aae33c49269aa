//! The ledger of `queens guard --table N --ledger FILE`: the table's lines as they are
//! printed, in the one ledger mechanism of [`super::ledger`] (sealed JSON lines, a header
//! naming the job, a torn last line removed, one write and `fsync` per line), so that a killed
//! table resumes and a changed or damaged line is solved again instead of trusted.
//!
//! The header: `{"queens_ledger":1,"job":"guard_table","rule":"any","theorems":true,`
//! `"check":"<hex>"}`; a record: `{"rows":5,"cols":4,"proven":true,"line":"5 4 3 search",`
//! `"check":"<hex>"}` (`line` as the table printed it).

use super::ledger::{
    read_sealed, rule_name, seal, LedgerError, LedgerFile, LedgerWriter, LineError, Refusal,
    LEDGER_VERSION, TABLE_HEADER_START,
};
use serde::{Deserialize, Serialize};
use std::path::Path;

pub use super::ledger::TableJob;

/// One line of a table, for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableEntry {
    /// The board's rows.
    pub rows: usize,
    /// The board's columns.
    pub cols: usize,
    /// Whether the line's value is proven (an unproven board is solved again on resuming).
    pub proven: bool,
    /// The line as the table printed it.
    pub line: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    queens_ledger: u32,
    job: String,
    rule: String,
    theorems: bool,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    rows: usize,
    cols: usize,
    proven: bool,
    line: String,
}

/// The header line (with its newline) of a ledger of `job`.
pub fn table_header_line(job: TableJob) -> String {
    let line = seal(
        serde_json::to_string(&HeaderLine {
            queens_ledger: LEDGER_VERSION,
            job: "guard_table".to_string(),
            rule: rule_name(job.independent).to_string(),
            theorems: job.theorems,
        })
        .expect("a header serializes"),
    );
    debug_assert!(line.starts_with(TABLE_HEADER_START));
    line
}

/// The record line (with its newline) of an entry.
pub fn table_record_line(entry: &TableEntry) -> String {
    seal(
        serde_json::to_string(&RecordLine {
            rows: entry.rows,
            cols: entry.cols,
            proven: entry.proven,
            line: entry.line.clone(),
        })
        .expect("a record serializes"),
    )
}

fn parse_header(body: &str) -> Result<TableJob, LineError> {
    let h: HeaderLine =
        serde_json::from_str(body).map_err(|e| LineError::MalformedHeader(e.to_string()))?;
    if h.queens_ledger != LEDGER_VERSION {
        return Err(LineError::Version(h.queens_ledger));
    }
    let independent = match (h.job.as_str(), h.rule.as_str()) {
        ("guard_table", "any") => false,
        ("guard_table", "independent") => true,
        _ => return Err(LineError::UnknownJob),
    };
    Ok(TableJob {
        independent,
        theorems: h.theorems,
    })
}

fn parse_record(body: &str) -> Result<TableEntry, LineError> {
    let r: RecordLine =
        serde_json::from_str(body).map_err(|e| LineError::MalformedRecord(e.to_string()))?;
    Ok(TableEntry {
        rows: r.rows,
        cols: r.cols,
        proven: r.proven,
        line: r.line,
    })
}

/// A table's ledger, open for appending its lines.
pub struct TableLedger {
    writer: LedgerWriter,
}

impl TableLedger {
    /// Appends the entry's record with one write, then flushes it to disk (`fsync`).
    pub fn append(&mut self, entry: &TableEntry) -> Result<(), LedgerError> {
        self.writer.append(&table_record_line(entry))
    }
}

/// Opens (creating if needed) the table ledger at `path` for `job`: checks its header, removes
/// a torn last line, and returns the ledger, its proven entries (a later line for a board
/// replacing an earlier one) and notes for the user (lines that were removed or are ignored,
/// whose boards are solved again).
///
/// # Errors
/// [`LedgerError::Refused`] for a file that is not a table ledger (the plain text ledgers of
/// earlier builds included) or whose header names another table; [`LedgerError::Io`].
pub fn open_table_ledger(
    path: &Path,
    job: TableJob,
) -> Result<(TableLedger, Vec<TableEntry>, Vec<String>), LedgerError> {
    let mut file = LedgerFile::open(path)?;
    let sealed = read_sealed(&file.bytes);
    let mut notes = Vec::new();
    if let Some(line) = sealed.torn_line {
        notes.push(file.cut_torn(sealed.complete_len, line, "its board is solved again")?);
    }
    let mut lines = sealed.lines.into_iter();
    match lines.next() {
        None => file.start(&table_header_line(job))?,
        Some((_, header)) => match header.and_then(|body| parse_header(&body)) {
            Ok(found) if found == job => {}
            Ok(found) => {
                return Err(LedgerError::Refused(Box::new(Refusal::OtherTable {
                    file: file.name,
                    found,
                    wanted: job,
                })))
            }
            Err(_) if file.bytes.starts_with(b"# queens guard --table ledger") => {
                return Err(LedgerError::Refused(Box::new(Refusal::PlainTable {
                    file: file.name,
                })))
            }
            Err(reason) => {
                return Err(LedgerError::Refused(Box::new(Refusal::NotLedger {
                    file: file.name,
                    reason: Some(reason),
                })))
            }
        },
    }
    let mut entries: Vec<TableEntry> = Vec::new();
    for (line, body) in lines {
        match body.and_then(|body| parse_record(&body)) {
            Ok(entry) => {
                entries.retain(|e| (e.rows, e.cols) != (entry.rows, entry.cols));
                entries.push(entry);
            }
            Err(reason) => notes.push(format!(
                "{}:{line}: line ignored ({reason}); its board is solved again",
                file.name
            )),
        }
    }
    entries.retain(|e| e.proven);
    Ok((
        TableLedger {
            writer: file.into_writer()?,
        },
        entries,
        notes,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scale::ledger::parse_line;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("queens-table-ledger-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn a_table_ledger_resumes_its_proven_lines_and_distrusts_changed_ones() {
        let job = TableJob {
            independent: false,
            theorems: true,
        };
        let path = scratch("resume");
        let entry = |rows, cols, proven, line: &str| TableEntry {
            rows,
            cols,
            proven,
            line: line.to_string(),
        };
        let (mut ledger, known, notes) = open_table_ledger(&path, job).unwrap();
        assert!(known.is_empty() && notes.is_empty());
        ledger.append(&entry(1, 1, true, "1 1 1 search")).unwrap();
        ledger
            .append(&entry(2, 1, false, "2 1 1? at least 0 (search)"))
            .unwrap();
        ledger.append(&entry(2, 2, true, "2 2 1 search")).unwrap();
        drop(ledger);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(TABLE_HEADER_START), "{text}");
        // A count's reader refuses the header, by name.
        assert_eq!(
            parse_line(text.lines().next().unwrap().as_bytes()),
            Err(LineError::TableLedger)
        );
        // Change the first record by hand, cut the last one short.
        let changed = text.replacen("1 1 1 search", "1 1 0 search", 1);
        std::fs::write(&path, &changed[..changed.len() - 5]).unwrap();
        let (_, known, notes) = open_table_ledger(&path, job).unwrap();
        assert_eq!(known, vec![]);
        assert!(
            notes[0].contains(":4: removed an unfinished last line"),
            "{notes:?}"
        );
        assert!(
            notes[1].contains(":2: line ignored (checksum mismatch"),
            "{notes:?}"
        );
        // The cut line is gone, the next record starts clean.
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(after.lines().count(), 3);
        assert!(after.ends_with('\n'));
        // Another table is refused at line 1.
        let other = TableJob {
            independent: true,
            ..job
        };
        let e = open_table_ledger(&path, other).err().unwrap().to_string();
        assert!(e.ends_with(":1: this ledger is not for this table: it holds the table of rule any, theorems yes, not the table of rule independent, theorems yes"), "{e}");
        // The plain text of earlier builds is refused with a clear word.
        std::fs::write(
            &path,
            "# queens guard --table ledger: rule any, theorems yes\n",
        )
        .unwrap();
        let e = open_table_ledger(&path, job).err().unwrap().to_string();
        assert!(
            e.contains(":1: a table ledger in the plain text of earlier builds"),
            "{e}"
        );
        let _ = std::fs::remove_file(&path);
    }
}
