//! Counts that outgrow one run: deterministic work plans, shards, and the append-only ledger
//! that makes a count resumable after any kill and checkable after a split over many machines.
//!
//! - A [`WorkPlan`] cuts a count into independent units with stable ids, heaviest first.
//! - A [`Shard`] `I/K` (0-based) takes the units whose id is `I` modulo `K`.
//! - A ledger file holds a header line and one self-checking line per finished unit; [`run`]
//!   appends to it with one write and one `fsync` per batch, skips the units already in it, and
//!   drops a torn last line (the unit is counted again).
//! - [`merge`] checks ledgers against the plan (every unit exactly once or duplicated with equal
//!   results, residues, spec checksums, headers) and totals them.
//!
//! Ledger lines are JSON objects ending in `"check":"<16 hex digits>"`, a checksum of the bytes
//! of the line before `,"check":`. The header:
//! `{"queens_ledger":1,"n":12,"units":120,"plan":"<hex>","check":"<hex>"}`; a record:
//! `{"first":5,"last":5,"solutions":"132","unique_x8":"136","mod13":[2,4],"mod15":[12,2],`
//! `"spec":"<hex>","check":"<hex>"}` (one line)
//! where `mod13` and `mod15` are the residues of `[solutions, unique_x8]` and `spec` is the
//! checksum of the specs of units `first..=last` ([`range_checksum`]).

use crate::Options;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// One independent piece of a count: its stable id (its index in the plan) and a checksum of
/// what it computes (e.g. of the pre-placed queens), so that a ledger written by another build
/// or another plan is recognised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitSpec {
    /// Stable id: the unit's index in [`WorkPlan::units`].
    pub id: u64,
    /// Checksum of the unit's definition.
    pub checksum: u64,
}

/// What one unit (or a range of units) contributes to a count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct UnitCount {
    /// Solutions found in the unit.
    pub solutions: u128,
    /// Eight times the unit's share of the solutions up to rotation and reflection. A unit may
    /// hold only part of a symmetry class (a class of 8 split over two units gives each 4/8),
    /// so shares are kept in eighths: the sum over all units is 8 times A002562.
    pub unique_x8: u128,
}

impl UnitCount {
    /// The number of solutions up to symmetry these units hold: exact for a whole plan (whose
    /// `unique_x8` is a multiple of 8), rounded down for a part of one.
    pub fn unique(&self) -> u128 {
        self.unique_x8 / 8
    }

    /// The sum of two counts, or `None` on overflow.
    pub fn checked_add(self, other: UnitCount) -> Option<UnitCount> {
        Some(UnitCount {
            solutions: self.solutions.checked_add(other.solutions)?,
            unique_x8: self.unique_x8.checked_add(other.unique_x8)?,
        })
    }
}

/// A deterministic work plan for counting the N-queens solutions of one board size.
///
/// Promises: `units()` is the same on every machine and every run for the same `n()`; unit `i`
/// has id `i`; units are ordered heaviest first (an estimate); `count_unit(i)` is pure, and the
/// counts of all units sum to the full count (solutions and unique).
pub trait WorkPlan: Sync {
    /// Board size.
    fn n(&self) -> u32;
    /// The units, in id order (`units()[i].id == i`), heaviest first.
    fn units(&self) -> &[UnitSpec];
    /// Counts unit `index`. Pure; may take seconds to minutes.
    fn count_unit(&self, index: usize) -> UnitCount;
    /// A short human description of unit `index` (e.g. its pre-placed queens), for `queens plan`.
    fn describe_unit(&self, index: usize) -> String {
        let _ = index;
        String::new()
    }
}

// ---------------------------------------------------------------------------------------------
// Checksums

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// A 64-bit checksum of bytes: FNV-1a followed by a SplitMix64 finaliser. Detects accidental
/// changes (torn writes, bit flips, edits); it is not a cryptographic signature.
pub fn checksum_bytes(bytes: &[u8]) -> u64 {
    let mut h = FNV_OFFSET;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    mix64(h)
}

fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Checksum of a sequence of 64-bit words (little-endian bytes).
pub fn checksum_words(words: impl IntoIterator<Item = u64>) -> u64 {
    let mut h = FNV_OFFSET;
    for w in words {
        for b in w.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(FNV_PRIME);
        }
    }
    mix64(h)
}

/// Checksum of the specs of a contiguous run of units (ids and checksums, in order): the `spec`
/// field of a ledger record.
pub fn range_checksum(units: &[UnitSpec]) -> u64 {
    checksum_words(units.iter().flat_map(|u| [u.id, u.checksum]))
}

/// Checksum of a whole plan: its N, its size and every unit's spec. Two plans with the same
/// checksum cut the count the same way.
pub fn plan_checksum(plan: &dyn WorkPlan) -> u64 {
    let units = plan.units();
    checksum_words(
        [u64::from(plan.n()), units.len() as u64]
            .into_iter()
            .chain(units.iter().flat_map(|u| [u.id, u.checksum])),
    )
}

fn hex(value: u64) -> String {
    format!("{value:016x}")
}

fn parse_hex(text: &str) -> Option<u64> {
    if text.len() != 16 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u64::from_str_radix(text, 16).ok()
}

// ---------------------------------------------------------------------------------------------
// Shards

/// Shard `index` of `count` (0-based: `0/K` .. `K-1/K`): the units whose id is `index` modulo
/// `count`. Round-robin over the heaviest-first order keeps shards of similar weight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based shard number, below `count`.
    pub index: u64,
    /// Number of shards, at least 1.
    pub count: u64,
}

impl Shard {
    /// Whether unit `id` belongs to this shard.
    pub fn contains(&self, id: u64) -> bool {
        id % self.count == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// Parses `I/K` with `K >= 1` and `0 <= I < K`; the message says what is wrong.
    fn from_str(text: &str) -> Result<Self, String> {
        let (i, k) = text
            .split_once('/')
            .ok_or_else(|| format!("shard '{text}' is not I/K (e.g. 0/16)"))?;
        let count: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard '{text}': K = '{k}' is not a whole number"))?;
        let index: u64 = i
            .trim()
            .parse()
            .map_err(|_| format!("shard '{text}': I = '{i}' is not a whole number"))?;
        if count == 0 {
            return Err(format!("shard '{text}': K must be at least 1"));
        }
        if index >= count {
            return Err(format!(
                "shard '{text}': I must be 0 to {} (shards are numbered from 0; a Slurm array \
                 should be --array=0-{})",
                count - 1,
                count - 1
            ));
        }
        Ok(Shard { index, count })
    }
}

// ---------------------------------------------------------------------------------------------
// Ledger lines

/// Format version written in every ledger header.
pub const LEDGER_VERSION: u32 = 1;

/// The first line of a ledger: which count, and which plan, it belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Board size.
    pub n: u32,
    /// Number of units in the plan.
    pub units: u64,
    /// [`plan_checksum`] of the plan.
    pub plan: u64,
}

impl Header {
    /// The header of a ledger for `plan`.
    pub fn for_plan(plan: &dyn WorkPlan) -> Self {
        Header {
            n: plan.n(),
            units: plan.units().len() as u64,
            plan: plan_checksum(plan),
        }
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
    /// [`range_checksum`] of the specs of units `first..=last`, as written.
    pub spec: u64,
}

impl Record {
    /// The record for units `first..=last` of `plan` with the given count; residues and spec
    /// checksum computed here.
    pub fn new(plan: &dyn WorkPlan, first: u64, last: u64, count: UnitCount) -> Self {
        let specs = &plan.units()[first as usize..=last as usize];
        Record {
            first,
            last,
            count,
            mod13: residues(count, 13),
            mod15: residues(count, 15),
            spec: range_checksum(specs),
        }
    }

    /// Whether the written residues agree with the written counts.
    pub fn residues_agree(&self) -> bool {
        self.mod13 == residues(self.count, 13) && self.mod15 == residues(self.count, 15)
    }
}

fn residues(count: UnitCount, modulus: u128) -> [u8; 2] {
    [
        (count.solutions % modulus) as u8,
        (count.unique_x8 % modulus) as u8,
    ]
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderLine {
    queens_ledger: u32,
    n: u32,
    units: u64,
    plan: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordLine {
    first: u64,
    last: u64,
    solutions: String,
    unique_x8: String,
    mod13: [u8; 2],
    mod15: [u8; 2],
    spec: String,
}

const CHECK_KEY: &str = ",\"check\":\"";

/// Appends `,"check":"<hex>"}` and a newline to a serialized JSON object.
fn seal(body: String) -> String {
    let open = body
        .strip_suffix('}')
        .expect("a serialized JSON object ends in '}'");
    let check = checksum_bytes(open.as_bytes());
    format!("{open}{CHECK_KEY}{}\"}}\n", hex(check))
}

/// The ledger line (with its newline) for a header.
pub fn header_line(header: &Header) -> String {
    seal(
        serde_json::to_string(&HeaderLine {
            queens_ledger: LEDGER_VERSION,
            n: header.n,
            units: header.units,
            plan: hex(header.plan),
        })
        .expect("a header serializes"),
    )
}

/// The ledger line (with its newline) for a record.
pub fn record_line(record: &Record) -> String {
    seal(
        serde_json::to_string(&RecordLine {
            first: record.first,
            last: record.last,
            solutions: record.count.solutions.to_string(),
            unique_x8: record.count.unique_x8.to_string(),
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

/// Decodes one complete ledger line (without its newline). The error says why it is unusable.
pub fn parse_line(line: &[u8]) -> Result<Line, String> {
    let text = std::str::from_utf8(line).map_err(|_| "not UTF-8 text".to_string())?;
    let text = text.strip_suffix('\r').unwrap_or(text);
    let pos = text
        .rfind(CHECK_KEY)
        .ok_or_else(|| "no \"check\" field (not a ledger line)".to_string())?;
    let (open, tail) = text.split_at(pos);
    let hex_part = tail[CHECK_KEY.len()..]
        .strip_suffix("\"}")
        .ok_or_else(|| "does not end with the \"check\" field".to_string())?;
    let written = parse_hex(hex_part).ok_or_else(|| "malformed \"check\" field".to_string())?;
    if checksum_bytes(open.as_bytes()) != written {
        return Err("checksum mismatch: the line was changed or torn".to_string());
    }
    let body = format!("{open}}}");
    if open.starts_with("{\"queens_ledger\"") {
        let h: HeaderLine =
            serde_json::from_str(&body).map_err(|e| format!("malformed header: {e}"))?;
        if h.queens_ledger != LEDGER_VERSION {
            return Err(format!(
                "ledger format version {} (this build reads version {LEDGER_VERSION})",
                h.queens_ledger
            ));
        }
        let plan = parse_hex(&h.plan).ok_or_else(|| "malformed plan checksum".to_string())?;
        return Ok(Line::Header(Header {
            n: h.n,
            units: h.units,
            plan,
        }));
    }
    let r: RecordLine =
        serde_json::from_str(&body).map_err(|e| format!("malformed record: {e}"))?;
    let decimal = |field: &str, s: &str| -> Result<u128, String> {
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("{field} '{s}' is not a decimal count"));
        }
        s.parse::<u128>()
            .map_err(|_| format!("{field} '{s}' does not fit 128 bits"))
    };
    let count = UnitCount {
        solutions: decimal("solutions", &r.solutions)?,
        unique_x8: decimal("unique_x8", &r.unique_x8)?,
    };
    let spec = parse_hex(&r.spec).ok_or_else(|| "malformed spec checksum".to_string())?;
    if r.first > r.last {
        return Err(format!("range {}-{} is empty", r.first, r.last));
    }
    Ok(Line::Record(Record {
        first: r.first,
        last: r.last,
        count,
        mod13: r.mod13,
        mod15: r.mod15,
        spec,
    }))
}

/// A line of a ledger file that could not be used, with its 1-based line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine {
    /// 1-based line number.
    pub line: usize,
    /// Why it is unusable.
    pub reason: String,
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

/// Decodes a ledger file's bytes. Never fails: unusable lines are listed in `bad_lines`, an
/// unterminated last line in `torn_line`.
pub fn read_contents(bytes: &[u8]) -> LedgerContents {
    let mut out = LedgerContents::default();
    let complete_len = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    out.complete_len = complete_len as u64;
    let mut line_no = 0;
    if complete_len > 0 {
        for line in bytes[..complete_len - 1].split(|&b| b == b'\n') {
            line_no += 1;
            match parse_line(line) {
                Ok(Line::Header(h)) if line_no == 1 => out.header = Some((line_no, h)),
                Ok(Line::Header(_)) => out.bad_lines.push(BadLine {
                    line: line_no,
                    reason: "a second header".to_string(),
                }),
                Ok(Line::Record(_)) if line_no == 1 => out.bad_lines.push(BadLine {
                    line: line_no,
                    reason: "the first line must be the ledger header".to_string(),
                }),
                Ok(Line::Record(r)) => out.records.push((line_no, r)),
                Err(reason) => out.bad_lines.push(BadLine {
                    line: line_no,
                    reason,
                }),
            }
        }
    }
    if complete_len < bytes.len() {
        out.torn_line = Some(line_no + 1);
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Merging and checking

/// Something wrong in a set of ledgers, located at a file and line (line 0: the whole file;
/// no file: the ledgers together, e.g. an overflowing total).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file's name as given.
    pub file: String,
    /// 1-based line number, 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
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

/// The outcome of checking ledgers against a plan.
#[derive(Clone, Debug)]
pub struct MergeReport {
    /// Board size.
    pub n: u32,
    /// Units in the plan.
    pub plan_units: u64,
    /// The shard checked (`None`: the whole plan).
    pub shard: Option<Shard>,
    /// Units of the shard (or plan) that the checked records cover.
    pub units_present: u64,
    /// Units of the shard (or plan) expected.
    pub units_expected: u64,
    /// Records that repeat an earlier record with equal results.
    pub agreeing_duplicates: u64,
    /// Unit id ranges (inclusive) of the shard or plan that no usable record covers.
    pub missing: Vec<(u64, u64)>,
    /// Inconsistencies, each at a file and line.
    pub problems: Vec<Problem>,
    /// Torn last lines that were ignored (their units count as missing), as file and line.
    pub torn: Vec<(String, usize)>,
    /// Complete record lines that could not be used (changed, corrupted, malformed), ignored:
    /// the units they held count only if another record covers them.
    pub ignored: Vec<Problem>,
    /// The sum over the covered units.
    pub total: UnitCount,
}

impl MergeReport {
    /// Whether every expected unit is present and nothing is inconsistent: `total` is then the
    /// exact count of the shard (or of the whole board).
    pub fn is_complete(&self) -> bool {
        self.missing.is_empty() && self.problems.is_empty()
    }
}

/// Inclusive id ranges of the ids in `ids` (sorted ascending).
pub fn id_ranges(ids: impl IntoIterator<Item = u64>) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    for id in ids {
        match out.last_mut() {
            Some((_, last)) if *last + 1 == id => *last = id,
            _ => out.push((id, id)),
        }
    }
    out
}

/// If the missing units of a whole-plan check are exactly some shards `I/K` (for the smallest
/// such K from 2 to 4096 with shards of at least two units), those shards: e.g. `[1/3]` when
/// one of three shard ledgers was left out.
pub fn missing_shards(missing: &[(u64, u64)], plan_units: u64) -> Option<Vec<Shard>> {
    let missing_count: u64 = missing.iter().map(|(a, b)| b - a + 1).sum();
    if missing_count == 0 || missing_count == plan_units {
        return None;
    }
    let ids = || missing.iter().flat_map(|&(a, b)| a..=b);
    for k in 2..=(plan_units / 2).min(4096) {
        let mut classes = vec![false; k as usize];
        ids().for_each(|id| classes[(id % k) as usize] = true);
        let size = |i: u64| (plan_units + k - 1 - i) / k; // ids below plan_units that are i mod k
        let covered: u64 = (0..k).filter(|&i| classes[i as usize]).map(size).sum();
        let used = classes.iter().filter(|&&c| c).count() as u64;
        if covered == missing_count && used < k {
            return Some(
                (0..k)
                    .filter(|&i| classes[i as usize])
                    .map(|index| Shard { index, count: k })
                    .collect(),
            );
        }
    }
    None
}

/// Formats id ranges as `0-3, 7, 9-12`.
pub fn format_ranges(ranges: &[(u64, u64)]) -> String {
    ranges
        .iter()
        .map(|&(a, b)| {
            if a == b {
                a.to_string()
            } else {
                format!("{a}-{b}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Checks ledgers (file name, decoded contents) against `plan` and totals them. With a shard,
/// only that shard's units are expected (records of other units are checked but not summed).
///
/// Checks: every file has a header equal to the plan's; record lines that are not intact are
/// listed in `ignored` (a torn last line in `torn`) and not used; each record's range lies in
/// the plan, its spec checksum matches the plan's units, its residues match its counts; a unit
/// covered twice is covered by records with the same range and equal counts; every expected
/// unit is covered; the total does not overflow and agrees with the sums of the residues.
pub fn merge(
    plan: &dyn WorkPlan,
    shard: Option<Shard>,
    files: &[(String, LedgerContents)],
) -> MergeReport {
    let units = plan.units();
    let expected_header = Header::for_plan(plan);
    let mut problems = Vec::new();
    let mut torn = Vec::new();
    let mut ignored = Vec::new();
    // For each unit: the (file index, line, record) that covers it first.
    let mut owner: Vec<Option<(usize, usize, Record)>> = vec![None; units.len()];
    let mut agreeing_duplicates = 0;
    for (fi, (name, contents)) in files.iter().enumerate() {
        let problem = |line: usize, message: String| Problem {
            file: name.clone(),
            line,
            message,
        };
        if let Some(line) = contents.torn_line {
            torn.push((name.clone(), line));
        }
        for bad in &contents.bad_lines {
            // A broken header makes the whole file unusable; a broken record is only ignored
            // (its units must then be covered by another record, or they are missing).
            if bad.line == 1 {
                problems.push(problem(bad.line, bad.reason.clone()));
            } else {
                ignored.push(problem(bad.line, bad.reason.clone()));
            }
        }
        match contents.header {
            None => {
                if !contents.bad_lines.iter().any(|b| b.line == 1) {
                    problems.push(problem(0, "no ledger header (empty file?)".to_string()));
                }
                continue;
            }
            Some((line, h)) if h != expected_header => {
                problems.push(problem(line, header_mismatch(&h, &expected_header)));
                continue;
            }
            Some(_) => {}
        }
        for &(line, rec) in &contents.records {
            if rec.last >= units.len() as u64 {
                problems.push(problem(
                    line,
                    format!(
                        "units {}-{} lie outside the plan (ids 0-{})",
                        rec.first,
                        rec.last,
                        units.len().saturating_sub(1)
                    ),
                ));
                continue;
            }
            let spec = range_checksum(&units[rec.first as usize..=rec.last as usize]);
            if spec != rec.spec {
                problems.push(problem(
                    line,
                    format!(
                        "{}: spec checksum {} differs from the plan's {}",
                        unit_words(rec.first, rec.last),
                        hex(rec.spec),
                        hex(spec)
                    ),
                ));
                continue;
            }
            if !rec.residues_agree() {
                problems.push(problem(
                    line,
                    format!(
                        "{}: residues mod 13 {:?} / mod 15 {:?} disagree with solutions {} and \
                         unique_x8 {}",
                        unit_words(rec.first, rec.last),
                        rec.mod13,
                        rec.mod15,
                        rec.count.solutions,
                        rec.count.unique_x8
                    ),
                ));
                continue;
            }
            // Duplicates: the same range with equal counts is fine; anything else is not.
            let clash = (rec.first..=rec.last).find_map(|id| owner[id as usize].map(|o| (id, o)));
            match clash {
                None => {
                    for id in rec.first..=rec.last {
                        owner[id as usize] = Some((fi, line, rec));
                    }
                }
                Some((_, (of, ol, orec))) => {
                    let at = format!("{}:{}", files[of].0, ol);
                    if orec.first != rec.first || orec.last != rec.last {
                        problems.push(problem(
                            line,
                            format!(
                                "{} overlap {} at {at} with a different id range",
                                unit_words(rec.first, rec.last),
                                unit_words(orec.first, orec.last)
                            ),
                        ));
                    } else if orec.count != rec.count {
                        problems.push(problem(
                            line,
                            format!(
                                "{}: solutions {}, unique_x8 {} conflict with solutions {}, \
                                 unique_x8 {} at {at}",
                                unit_words(rec.first, rec.last),
                                rec.count.solutions,
                                rec.count.unique_x8,
                                orec.count.solutions,
                                orec.count.unique_x8
                            ),
                        ));
                    } else {
                        agreeing_duplicates += 1;
                    }
                }
            }
        }
    }
    // Coverage and totals over the expected units.
    let expected = |id: u64| shard.map_or(true, |s| s.contains(id));
    let mut missing_ids = Vec::new();
    let mut total = UnitCount::default();
    let mut residue_sums = [0u64; 4];
    let mut present = 0;
    let mut overflow = false;
    let mut id = 0;
    while id < units.len() as u64 {
        match owner[id as usize] {
            None => {
                if expected(id) {
                    missing_ids.push(id);
                }
                id += 1;
            }
            Some((of, ol, rec)) => {
                // A record counts toward a shard only if all its units belong to that shard.
                let covered = (rec.first..=rec.last).filter(|&u| expected(u)).count() as u64;
                if covered > 0 {
                    present += covered;
                    if covered == rec.last - rec.first + 1 {
                        match total.checked_add(rec.count) {
                            Some(t) => total = t,
                            None => overflow = true,
                        }
                        residue_sums[0] += u64::from(rec.mod13[0]);
                        residue_sums[1] += u64::from(rec.mod13[1]);
                        residue_sums[2] += u64::from(rec.mod15[0]);
                        residue_sums[3] += u64::from(rec.mod15[1]);
                    } else {
                        problems.push(Problem {
                            file: files[of].0.clone(),
                            line: ol,
                            message: format!(
                                "{} straddle shards; cannot total shard {}",
                                unit_words(rec.first, rec.last),
                                shard.map(|s| s.to_string()).unwrap_or_default()
                            ),
                        });
                    }
                }
                id = rec.last + 1;
            }
        }
    }
    if overflow {
        problems.push(Problem {
            file: String::new(),
            line: 0,
            message: "the total overflows 128 bits".to_string(),
        });
    } else if residues(total, 13) != [(residue_sums[0] % 13) as u8, (residue_sums[1] % 13) as u8]
        || residues(total, 15) != [(residue_sums[2] % 15) as u8, (residue_sums[3] % 15) as u8]
    {
        problems.push(Problem {
            file: String::new(),
            line: 0,
            message: "the total disagrees with the sum of the residues".to_string(),
        });
    } else if shard.is_none() && missing_ids.is_empty() && total.unique_x8 % 8 != 0 {
        // The shares of every symmetry class add up to whole classes over a whole plan.
        problems.push(Problem {
            file: String::new(),
            line: 0,
            message: format!(
                "the unique shares add up to {}/8, not a whole number of classes",
                total.unique_x8
            ),
        });
    }
    let units_expected = match shard {
        None => units.len() as u64,
        Some(s) => (0..units.len() as u64).filter(|&u| s.contains(u)).count() as u64,
    };
    MergeReport {
        n: plan.n(),
        plan_units: units.len() as u64,
        shard,
        units_present: present,
        units_expected,
        agreeing_duplicates,
        missing: id_ranges(missing_ids),
        problems,
        torn,
        ignored,
        total,
    }
}

fn unit_words(first: u64, last: u64) -> String {
    if first == last {
        format!("unit {first}")
    } else {
        format!("units {first}-{last}")
    }
}

fn header_mismatch(found: &Header, expected: &Header) -> String {
    if found.n != expected.n {
        format!("ledger is for N = {}, not N = {}", found.n, expected.n)
    } else {
        format!(
            "ledger is for another plan of N = {} ({} units, plan {}; this build's plan has {} \
             units, plan {})",
            found.n,
            found.units,
            hex(found.plan),
            expected.units,
            hex(expected.plan)
        )
    }
}

// ---------------------------------------------------------------------------------------------
// Running a plan into a ledger

/// Why a ledger run could not proceed.
#[derive(Debug, thiserror::Error)]
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
    #[error("{0}")]
    Refused(String),
    /// After the run, the ledger does not check out (see the problems; exit 1).
    #[error("the ledger is inconsistent: {}", join_problems(.0))]
    Inconsistent(Vec<Problem>),
}

fn join_problems(problems: &[Problem]) -> String {
    let texts: Vec<String> = problems.iter().map(|p| p.to_string()).collect();
    texts.join("; ")
}

/// What a ledger run did and what the ledger now holds.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The check of the ledger after the run, restricted to the shard: its `total` is the count
    /// of the shard (of the whole board without a shard) when `is_complete()`.
    pub merged: MergeReport,
    /// Units of the shard that the ledger already held before this run.
    pub done_before: u64,
    /// Units counted by this run.
    pub counted_now: u64,
    /// Whether the run stopped early (time limit or cancel) with units left to count.
    pub stopped: bool,
    /// Notes for the user: a torn last line removed, unusable lines ignored.
    pub notes: Vec<String>,
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
    let name = path.display().to_string();
    let io = |source| LedgerError::Io {
        path: name.clone(),
        source,
    };
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).map_err(io)?;
    let mut contents = read_contents(&bytes);
    let mut notes = Vec::new();
    let expected = Header::for_plan(plan);
    if let Some(line) = contents.torn_line {
        // A write cut short (kill, crash): drop the partial line so the next one starts clean.
        file.set_len(contents.complete_len).map_err(io)?;
        file.sync_all().map_err(io)?;
        notes.push(format!(
            "{name}:{line}: removed an unfinished last line (a run was cut short); its units \
             are counted again"
        ));
        contents.torn_line = None;
    }
    match contents.header {
        Some((line, h)) if h != expected => {
            return Err(LedgerError::Refused(format!(
                "{name}:{line}: {}",
                header_mismatch(&h, &expected)
            )));
        }
        Some(_) => {}
        None if contents.complete_len == 0 => {
            file.seek(SeekFrom::Start(0)).map_err(io)?;
            file.write_all(header_line(&expected).as_bytes())
                .map_err(io)?;
            file.sync_all().map_err(io)?;
            sync_parent_dir(path);
            contents.header = Some((1, expected));
        }
        None => {
            let why = contents
                .bad_lines
                .first()
                .map_or("no header".to_string(), |b| b.reason.clone());
            return Err(LedgerError::Refused(format!(
                "{name}:1: not a queens ledger ({why})"
            )));
        }
    }
    for bad in &contents.bad_lines {
        notes.push(format!(
            "{name}:{}: line ignored ({}); its units are counted again",
            bad.line, bad.reason
        ));
    }
    // Records go through an append-mode handle: each batch lands at the end of the file.
    drop(file);
    let file = OpenOptions::new().append(true).open(path).map_err(io)?;
    Ok((LedgerWriter { file, path: name }, contents, notes))
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

/// The unit ids that usable records of `contents` cover (records matching the plan's spec
/// checksums and with consistent residues), as a bitmap over the plan's units.
pub fn finished_units(plan: &dyn WorkPlan, contents: &LedgerContents) -> Vec<bool> {
    let units = plan.units();
    let mut done = vec![false; units.len()];
    for (_, rec) in &contents.records {
        if rec.last < units.len() as u64
            && rec.residues_agree()
            && range_checksum(&units[rec.first as usize..=rec.last as usize]) == rec.spec
        {
            for id in rec.first..=rec.last {
                done[id as usize] = true;
            }
        }
    }
    done
}

/// Re-reads the ledger at `path` and checks it against `plan` (restricted to `shard`).
pub fn check_ledger(
    plan: &dyn WorkPlan,
    path: &Path,
    shard: Option<Shard>,
) -> Result<MergeReport, LedgerError> {
    let name = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|source| LedgerError::Io {
        path: name.clone(),
        source,
    })?;
    Ok(merge(plan, shard, &[(name, read_contents(&bytes))]))
}

/// Counts the units of `plan` (of `shard` only, if given) that the ledger at `path` does not
/// hold yet, appending one record per finished unit, then re-reads and checks the ledger.
///
/// Units run `options.threads` at a time (0: one per core), heaviest first, each on one thread;
/// finished units are written in batches with one write and one `fsync` each, so a kill at any
/// moment loses at most the units in flight. The deadline in `options` (time limit, cancel) is
/// polled between units: units already started are finished and recorded, and the report says
/// `stopped`. Returns [`LedgerError::Inconsistent`] if the ledger does not check out afterwards
/// (e.g. it held conflicting records before the run).
pub fn run(
    plan: &dyn WorkPlan,
    path: &Path,
    shard: Option<Shard>,
    options: &Options,
) -> Result<RunReport, LedgerError> {
    let (mut writer, contents, notes) = open_ledger(plan, path)?;
    let done = finished_units(plan, &contents);
    let in_shard = |id: u64| shard.map_or(true, |s| s.contains(id));
    let todo: Vec<usize> = (0..plan.units().len())
        .filter(|&i| in_shard(i as u64) && !done[i])
        .collect();
    let shard_size = (0..plan.units().len() as u64)
        .filter(|&i| in_shard(i))
        .count() as u64;
    let done_before = shard_size - todo.len() as u64;
    let threads = options.threads;
    let mut counted_now = 0u64;
    count_units(plan, &todo, threads, &options.deadline(), |batch| {
        let lines: String = batch
            .iter()
            .map(|&(i, c)| record_line(&Record::new(plan, i as u64, i as u64, c)))
            .collect();
        writer.append(&lines)?;
        counted_now += batch.len() as u64;
        options.report(done_before + counted_now, shard_size);
        Ok(())
    })?;
    let merged = check_ledger(plan, path, shard)?;
    if !merged.problems.is_empty() {
        return Err(LedgerError::Inconsistent(merged.problems));
    }
    let stopped = !merged.missing.is_empty();
    Ok(RunReport {
        merged,
        done_before,
        counted_now,
        stopped,
        notes,
    })
}

/// Counts the units `todo` (indices into `plan.units()`) on `threads` threads (0: one per core),
/// in the given order, each unit on one thread; polls `deadline` before starting each unit.
/// Finished units reach `sink` in batches (all that finished since the previous call), on the
/// calling thread; if `sink` fails, no new unit starts and its error is returned.
pub fn count_units<E>(
    plan: &dyn WorkPlan,
    todo: &[usize],
    threads: usize,
    deadline: &crate::Deadline,
    mut sink: impl FnMut(&[(usize, UnitCount)]) -> Result<(), E>,
) -> Result<(), E> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        t => t,
    }
    .min(todo.len().max(1));
    let next = AtomicUsize::new(0);
    let abort = AtomicBool::new(false);
    let mut outcome = Ok(());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, UnitCount)>();
        for _ in 0..threads {
            let tx = tx.clone();
            let (next, abort) = (&next, &abort);
            scope.spawn(move || loop {
                if abort.load(Ordering::Relaxed) || deadline.reached() {
                    break;
                }
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&index) = todo.get(k) else { break };
                let count = plan.count_unit(index);
                if tx.send((index, count)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Group commit: everything finished since the last call goes to the sink at once.
        while let Ok(first) = rx.recv() {
            let mut batch = vec![first];
            batch.extend(rx.try_iter());
            if let Err(e) = sink(&batch) {
                abort.store(true, Ordering::Relaxed);
                outcome = Err(e);
                break;
            }
        }
    });
    outcome
}

/// Ledger contents held in memory, one record per finished unit (line numbers from 2), for
/// checking results that were never written to a file.
pub fn contents_in_memory(plan: &dyn WorkPlan, results: &[(usize, UnitCount)]) -> LedgerContents {
    LedgerContents {
        header: Some((1, Header::for_plan(plan))),
        records: results
            .iter()
            .enumerate()
            .map(|(k, &(i, c))| (k + 2, Record::new(plan, i as u64, i as u64, c)))
            .collect(),
        ..LedgerContents::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Plans from a list of units and a counting function

/// A [`WorkPlan`] made of any list of units (heaviest first) and a function counting one: the
/// adapter that connects a counting engine to ledgers, shards and MPI.
///
/// Each unit's spec checksum is [`checksum_words`] of N followed by `key(unit)` (e.g. the
/// pre-placed queens' squares), so that a ledger written with another cut of the work is
/// refused.
pub struct UnitsPlan<U, F> {
    n: u32,
    units: Vec<U>,
    specs: Vec<UnitSpec>,
    count: F,
}

impl<U, F> UnitsPlan<U, F>
where
    U: fmt::Debug + Sync,
    F: Fn(&U) -> UnitCount + Sync,
{
    /// The plan for board size `n` whose unit `i` is `units[i]`, identified by `key(&units[i])`
    /// and counted by `count(&units[i])`.
    pub fn new(n: u32, units: Vec<U>, key: impl Fn(&U) -> Vec<u64>, count: F) -> Self {
        let specs = units
            .iter()
            .enumerate()
            .map(|(id, u)| UnitSpec {
                id: id as u64,
                checksum: checksum_words(std::iter::once(u64::from(n)).chain(key(u))),
            })
            .collect();
        UnitsPlan {
            n,
            units,
            specs,
            count,
        }
    }
}

impl<U, F> WorkPlan for UnitsPlan<U, F>
where
    U: fmt::Debug + Sync,
    F: Fn(&U) -> UnitCount + Sync,
{
    fn n(&self) -> u32 {
        self.n
    }

    fn units(&self) -> &[UnitSpec] {
        &self.specs
    }

    fn count_unit(&self, index: usize) -> UnitCount {
        (self.count)(&self.units[index])
    }

    fn describe_unit(&self, index: usize) -> String {
        format!("{:?}", self.units[index])
    }
}

// ---------------------------------------------------------------------------------------------
// A simple reference plan

/// The plan of the fast counter: the units of [`crate::count::work_units`] in their order (ids
/// equal), each counted by [`crate::count::count_unit`]; a unit's key is its border
/// constellation, orbit and pre-placed prefix. `None` for N outside 1..=32.
pub fn counter_plan(n: u32) -> Option<Box<dyn WorkPlan>> {
    use crate::count::{count_unit, work_units, Tally, WorkUnit};
    if !(1..=32).contains(&n) {
        return None;
    }
    let key = |u: &WorkUnit| {
        let c = u.constellation;
        let mut words = vec![
            u64::from(c.top),
            u64::from(c.bottom),
            u64::from(c.left),
            u64::from(c.right),
            u64::from(u.orbit),
            u64::from(u.prefix_len),
        ];
        words.extend(
            u.prefix[..u.prefix_len as usize]
                .iter()
                .map(|&p| u64::from(p)),
        );
        words
    };
    let count = |u: &WorkUnit| {
        let found = count_unit(u, &crate::Deadline::never())
            .ok()
            .flatten()
            .expect("every unit of a plan is valid, and a unit without deadline finishes");
        let mut tally = Tally::default();
        tally.add(u, &found);
        UnitCount {
            solutions: tally.solutions,
            unique_x8: tally.classes_times_8.iter().sum(),
        }
    };
    let units = work_units(n).into_iter().map(CounterUnit).collect();
    Some(Box::new(UnitsPlan::new(
        n,
        units,
        |u| key(&u.0),
        move |u| count(&u.0),
    )))
}

/// A unit of the fast counter, described for people in `queens plan`.
struct CounterUnit(crate::count::WorkUnit);

impl fmt::Debug for CounterUnit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let u = &self.0;
        let c = u.constellation;
        write!(
            f,
            "border queens: row 0 col {}, row {} col {}, col 0 row {}, col {} row {}; orbit {}",
            c.top,
            u.n - 1,
            c.bottom,
            c.left,
            u.n - 1,
            c.right,
            u.orbit
        )?;
        if u.prefix_len > 0 {
            let cols: Vec<String> = u.prefix[..u.prefix_len as usize]
                .iter()
                .map(|c| c.to_string())
                .collect();
            write!(f, "; next rows' columns {}", cols.join(","))?;
        }
        Ok(())
    }
}

/// A simple, slow-but-sure plan: one unit per non-attacking placement of the queens of the first
/// two rows (the first row alone for N = 1), each counted by plain bitmask backtracking. A
/// solution counts as unique in the unit that holds the lexicographically smallest of its 8
/// images (as column lists), so the units' unique counts sum exactly to the number of classes.
///
/// It is the reference the fast plan ([`counter_plan`]) is tested against. N from 1 to 32.
#[derive(Clone, Debug)]
pub struct TwoRowPlan {
    n: u32,
    prefixes: Vec<[u8; 2]>,
    depth: usize,
    specs: Vec<UnitSpec>,
}

impl TwoRowPlan {
    /// The plan for N (1 to 32); `None` outside that range.
    pub fn new(n: u32) -> Option<Self> {
        if !(1..=32).contains(&n) {
            return None;
        }
        let depth = if n == 1 { 1 } else { 2 };
        let mut prefixes: Vec<([u8; 2], u64)> = Vec::new();
        for c0 in 0..n {
            if depth == 1 {
                prefixes.push(([c0 as u8, 0], 1));
                continue;
            }
            for c1 in 0..n {
                if c0.abs_diff(c1) > 1 {
                    let p = [c0 as u8, c1 as u8];
                    prefixes.push((p, weight_estimate(n, &p)));
                }
            }
        }
        // Heaviest first; ties in column order, so the order is the same everywhere.
        prefixes.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let specs = prefixes
            .iter()
            .enumerate()
            .map(|(id, (p, _))| UnitSpec {
                id: id as u64,
                checksum: checksum_words([u64::from(n), p[0] as u64, p[1] as u64, depth as u64]),
            })
            .collect();
        Some(TwoRowPlan {
            n,
            prefixes: prefixes.into_iter().map(|(p, _)| p).collect(),
            depth,
            specs,
        })
    }
}

/// Masks (columns, diagonals shifted to the next row) after placing `cols` in rows 0.. .
fn place(n: u32, cols: &[u8]) -> Option<(u64, u64, u64)> {
    let (mut c, mut d, mut a) = (0u64, 0u64, 0u64);
    let full = (1u64 << n) - 1;
    for &col in cols {
        let bit = 1u64 << col;
        if (c | d | a) & bit != 0 {
            return None;
        }
        c |= bit;
        d = ((d | bit) << 1) & full;
        a = (a | bit) >> 1;
    }
    Some((c, d, a))
}

/// Partial placements of the next few rows extending a prefix: a cheap, deterministic estimate
/// of the unit's search effort (five rows, which ranks units by their true node counts with a
/// rank correlation of about 0.6 at N = 11; fewer rows on large boards, to stay cheap).
fn weight_estimate(n: u32, prefix: &[u8; 2]) -> u64 {
    fn partial(n: u32, rows_left: u32, c: u64, d: u64, a: u64) -> u64 {
        if rows_left == 0 {
            return 1;
        }
        let full = (1u64 << n) - 1;
        let mut free = full & !(c | d | a);
        let mut total = 0;
        while free != 0 {
            let bit = free & free.wrapping_neg();
            free ^= bit;
            total += partial(
                n,
                rows_left - 1,
                c | bit,
                ((d | bit) << 1) & full,
                (a | bit) >> 1,
            );
        }
        total
    }
    match place(n, prefix) {
        Some((c, d, a)) => {
            let rows = match n {
                0..=16 => 5,
                17..=24 => 4,
                _ => 3,
            };
            partial(n, n.saturating_sub(2).min(rows), c, d, a)
        }
        None => 0,
    }
}

impl WorkPlan for TwoRowPlan {
    fn n(&self) -> u32 {
        self.n
    }

    fn units(&self) -> &[UnitSpec] {
        &self.specs
    }

    fn count_unit(&self, index: usize) -> UnitCount {
        let n = self.n as usize;
        let prefix = &self.prefixes[index][..self.depth];
        let mut cols = [0u8; 32];
        cols[..self.depth].copy_from_slice(prefix);
        let Some((c, d, a)) = place(self.n, prefix) else {
            return UnitCount::default();
        };
        let mut count = UnitCount::default();
        extend(n, self.depth, c, d, a, &mut cols, &mut count);
        count
    }

    fn describe_unit(&self, index: usize) -> String {
        let p = &self.prefixes[index][..self.depth];
        let cols: Vec<String> = p.iter().map(|c| c.to_string()).collect();
        match self.depth {
            1 => format!("column {} in the first row", cols[0]),
            d => format!("columns {} in the first {d} rows", cols.join(",")),
        }
    }
}

fn extend(n: usize, row: usize, c: u64, d: u64, a: u64, cols: &mut [u8; 32], out: &mut UnitCount) {
    if row == n {
        out.solutions += 1;
        if is_smallest_image(&cols[..n]) {
            out.unique_x8 += 8;
        }
        return;
    }
    let full = (1u64 << n) - 1;
    let mut free = full & !(c | d | a);
    while free != 0 {
        let bit = free & free.wrapping_neg();
        free ^= bit;
        cols[row] = bit.trailing_zeros() as u8;
        extend(
            n,
            row + 1,
            c | bit,
            ((d | bit) << 1) & full,
            (a | bit) >> 1,
            cols,
            out,
        );
    }
}

/// Whether a solution (one column per row) is the lexicographically smallest of its 8 images.
fn is_smallest_image(cols: &[u8]) -> bool {
    let n = cols.len();
    let m = (n - 1) as u8;
    let mut image = [0u8; 32];
    for sym in 1..8 {
        for (r, &c) in cols.iter().enumerate() {
            let r = r as u8;
            // (r, c) -> (r', c') for the 7 non-identity symmetries of the square.
            let (r2, c2) = match sym {
                1 => (c, m - r),     // quarter turn clockwise
                2 => (m - r, m - c), // half turn
                3 => (m - c, r),     // quarter turn counter-clockwise
                4 => (m - r, c),     // mirror top to bottom
                5 => (r, m - c),     // mirror left to right
                6 => (c, r),         // main diagonal
                _ => (m - c, m - r), // anti-diagonal
            };
            image[r2 as usize] = c2;
        }
        if image[..n] < *cols {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::canonical_columns;

    #[test]
    fn smallest_image_agrees_with_board_canonical_form() {
        // All 92 solutions of N = 8, enumerated by brute force over permutations' prefixes.
        let plan = TwoRowPlan::new(8).unwrap();
        let mut sols = Vec::new();
        fn all(n: usize, row: usize, cols: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if row == n {
                out.push(cols.clone());
                return;
            }
            for c in 0..n {
                if cols
                    .iter()
                    .enumerate()
                    .all(|(r, &x)| x != c && x.abs_diff(c) != row - r)
                {
                    cols.push(c);
                    all(n, row + 1, cols, out);
                    cols.pop();
                }
            }
        }
        all(8, 0, &mut Vec::new(), &mut sols);
        assert_eq!(sols.len(), 92);
        let mut smallest = 0;
        for s in &sols {
            let bytes: Vec<u8> = s.iter().map(|&c| c as u8).collect();
            let (canon, _) = canonical_columns(s);
            assert_eq!(is_smallest_image(&bytes), canon == *s, "{s:?}");
            smallest += usize::from(canon == *s);
        }
        assert_eq!(smallest, 12);
        let total = (0..plan.units().len())
            .map(|i| plan.count_unit(i))
            .fold(UnitCount::default(), |a, b| a.checked_add(b).unwrap());
        assert_eq!(
            total,
            UnitCount {
                solutions: 92,
                unique_x8: 96
            }
        );
    }

    #[test]
    fn lines_round_trip_and_detect_changes() {
        let plan = TwoRowPlan::new(6).unwrap();
        let h = Header::for_plan(&plan);
        let line = header_line(&h);
        assert_eq!(parse_line(line.trim_end().as_bytes()), Ok(Line::Header(h)));
        let rec = Record::new(
            &plan,
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
        assert!(parse_line(tampered.trim_end().as_bytes())
            .unwrap_err()
            .contains("checksum mismatch"));
        for cut in 0..line.len() - 1 {
            assert!(parse_line(&line.as_bytes()[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn shards_parse_and_validate() {
        assert_eq!(
            "3/16".parse::<Shard>(),
            Ok(Shard {
                index: 3,
                count: 16
            })
        );
        assert_eq!("0/1".parse::<Shard>(), Ok(Shard { index: 0, count: 1 }));
        for bad in ["16/16", "1/0", "x/3", "3", "-1/4", "1/4/5", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let e = "16/16".parse::<Shard>().unwrap_err();
        assert!(e.contains("0 to 15"), "{e}");
    }

    #[test]
    fn missing_units_are_named_as_shards() {
        let ranges = id_ranges((0..110).filter(|i| i % 3 == 1));
        assert_eq!(
            missing_shards(&ranges, 110),
            Some(vec![Shard { index: 1, count: 3 }])
        );
        let ranges = id_ranges((0..100).filter(|i| i % 16 == 5 || i % 16 == 9));
        assert_eq!(
            missing_shards(&ranges, 100),
            Some(vec![
                Shard {
                    index: 5,
                    count: 16
                },
                Shard {
                    index: 9,
                    count: 16
                }
            ])
        );
        assert_eq!(missing_shards(&[(7, 7)], 110), None);
        assert_eq!(missing_shards(&[(0, 109)], 110), None);
    }

    #[test]
    fn ranges_compress() {
        assert_eq!(id_ranges([0, 1, 2, 5, 7, 8]), vec![(0, 2), (5, 5), (7, 8)]);
        assert_eq!(format_ranges(&id_ranges([0, 1, 2, 5, 7, 8])), "0-2, 5, 7-8");
    }
}
