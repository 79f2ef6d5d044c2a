//! What an export folder holds, kept in the folder itself
//! (`OUT/.ysess/ledger.json`, hidden from the engines): the runs committed
//! and, for every session file exported, the bytes taken and their digest.
//!
//! A run holds the folder's lock from start to end, so two exports into
//! one folder take turns. It begins by removing what no committed run
//! wrote (part files of a run killed before its end, temporary files),
//! exports only what the ledger does not hold yet (a file's lines after
//! the bytes taken), and ends by writing the ledger anew, in one rename:
//! the one step that commits the run. A run that does not reach it leaves
//! nothing the next run counts, and a rerun never adds a row twice.
//!
//! A folder exported with `--redact` says so in its ledger, with the rules
//! it was redacted by ([`Redaction`]): its rows are all redacted alike, or
//! none is.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::digest::Digest;

/// The folder, under OUT, that holds the ledger and its lock.
pub const FOLDER: &str = ".ysess";

/// The committed state of an export folder.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Ledger {
    /// The runs whose part files count.
    pub runs: BTreeSet<String>,
    /// Every session file exported: the bytes taken, as a digest.
    pub files: BTreeMap<PathBuf, Digest>,
    /// How its rows were redacted; `None` when they were not.
    pub redaction: Option<Redaction>,
}

/// The rules an export folder's rows were redacted by (`--redact`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Redaction {
    /// Where the published patterns come from (`gitleaks v8.30.0 …`).
    pub source: String,
    /// A digest of every rule ysess itself holds (the published patterns
    /// and its own).
    pub rules: String,
    /// The user's `--redact-pattern`s, in order.
    pub patterns: Vec<String>,
    /// A digest of the home directory and user name redacted (not them).
    pub machine: String,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    version: u64,
    runs: Vec<String>,
    files: Vec<StoredFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    redaction: Option<Redaction>,
}

#[derive(Serialize, Deserialize)]
struct StoredFile {
    file: PathBuf,
    digest: String,
}

/// An export folder, locked for one run.
pub struct Locked {
    out: PathBuf,
    _lock: File,
    /// What the folder held when the run began.
    pub ledger: Ledger,
    /// Whether the folder held a ledger.
    pub had_ledger: bool,
    /// Whether a run with a ledger ever began in the folder: a folder
    /// exported into before ledgers were kept has part files and no
    /// [`FOLDER`]; one whose first run was killed before its commit has
    /// [`FOLDER`] and no ledger yet (its part files count for nothing).
    pub kept_ledgers: bool,
}

fn ledger_path(out: &Path) -> PathBuf {
    out.join(FOLDER).join("ledger.json")
}

/// The run a part file's name says wrote it: `part-<run>-<n>.parquet`.
pub fn run_of_part(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("part-")?.strip_suffix(".parquet")?;
    let (run, n) = rest.rsplit_once('-')?;
    n.bytes().all(|b| b.is_ascii_digit()).then_some(run)
}

impl Locked {
    /// Takes the lock of the export folder `out` (made when missing),
    /// waiting for a run under way, and reads its ledger.
    pub fn open(out: &Path) -> io::Result<Locked> {
        let folder = out.join(FOLDER);
        let kept_ledgers = folder.is_dir();
        std::fs::create_dir_all(&folder)?;
        let lock = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(folder.join("lock"))?;
        lock.lock()?;
        let path = ledger_path(out);
        let (ledger, had_ledger) = match std::fs::read(&path) {
            Ok(bytes) => (parse(&bytes, &path)?, true),
            Err(e) if e.kind() == io::ErrorKind::NotFound => (Ledger::default(), false),
            Err(e) => return Err(e),
        };
        Ok(Locked {
            out: out.to_path_buf(),
            _lock: lock,
            ledger,
            had_ledger,
            kept_ledgers,
        })
    }

    /// The part files of the tables (`entries/**/part-*.parquet`), with the
    /// run each names.
    pub fn parts(&self) -> io::Result<Vec<(PathBuf, String)>> {
        let mut parts = Vec::new();
        for_each_file(&self.out.join("entries"), &mut |path| {
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if let Some(run) = run_of_part(name) {
                parts.push((path.to_path_buf(), run.to_string()));
            }
        })?;
        Ok(parts)
    }

    /// Removes what no committed run wrote: part files of other runs, and
    /// the temporary files (`.….tmp`) of runs that ended before putting
    /// them in place. What it removed.
    pub fn clean(&self) -> io::Result<Vec<PathBuf>> {
        let mut removed = Vec::new();
        for (path, run) in self.parts()? {
            if !self.ledger.runs.contains(&run) {
                std::fs::remove_file(&path)?;
                removed.push(path);
            }
        }
        for table in ["entries", "tree", "sessions", FOLDER] {
            let mut temporary = Vec::new();
            for_each_file(&self.out.join(table), &mut |path| {
                let name = path
                    .file_name()
                    .and_then(|n| n.to_str())
                    .unwrap_or_default();
                if name.starts_with('.') && name.ends_with(".tmp") {
                    temporary.push(path.to_path_buf());
                }
            })?;
            for path in temporary {
                std::fs::remove_file(&path)?;
                removed.push(path);
            }
        }
        Ok(removed)
    }

    /// Commits a run: the ledger with `run` and `files` added, written
    /// whole under a temporary name, flushed, and renamed into place.
    pub fn commit(
        &mut self,
        run: &str,
        files: impl IntoIterator<Item = (PathBuf, Digest)>,
    ) -> io::Result<()> {
        let mut ledger = self.ledger.clone();
        ledger.runs.insert(run.to_string());
        ledger.files.extend(files);
        let stored = Stored {
            version: 1,
            runs: ledger.runs.iter().cloned().collect(),
            files: ledger
                .files
                .iter()
                .map(|(file, digest)| StoredFile {
                    file: file.clone(),
                    digest: digest.to_string(),
                })
                .collect(),
            redaction: ledger.redaction.clone(),
        };
        let path = ledger_path(&self.out);
        let temp = path.with_file_name(format!(".ledger.{}.tmp", std::process::id()));
        let mut out = File::create(&temp)?;
        serde_json::to_writer(&mut out, &stored)?;
        out.write_all(b"\n")?;
        out.sync_all()?;
        drop(out);
        std::fs::rename(&temp, &path)?;
        if let Some(dir) = path.parent() {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        self.ledger = ledger;
        self.had_ledger = true;
        Ok(())
    }
}

fn parse(bytes: &[u8], path: &Path) -> io::Result<Ledger> {
    let bad = |why: String| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not an export's ledger: {why}", path.display()),
        )
    };
    let stored: Stored = serde_json::from_slice(bytes).map_err(|e| bad(e.to_string()))?;
    let mut files = BTreeMap::new();
    for f in stored.files {
        let digest = f
            .digest
            .parse()
            .map_err(|e| bad(format!("{}: {e}", f.file.display())))?;
        files.insert(f.file, digest);
    }
    Ok(Ledger {
        runs: stored.runs.into_iter().collect(),
        files,
        redaction: stored.redaction,
    })
}

/// Calls `each` with every regular file below `dir` (none when it is
/// missing), links not followed.
fn for_each_file(dir: &Path, each: &mut dyn FnMut(&Path)) -> io::Result<()> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in read {
        let entry = entry?;
        let kind = entry.file_type()?;
        if kind.is_dir() {
            for_each_file(&entry.path(), each)?;
        } else if kind.is_file() {
            each(&entry.path());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_part_files_name_says_its_run() {
        assert_eq!(
            run_of_part("part-20261205T031500123Z-4711-0.parquet"),
            Some("20261205T031500123Z-4711")
        );
        assert_eq!(
            run_of_part("part-20261205T031500123Z-4711-12.parquet"),
            Some("20261205T031500123Z-4711")
        );
        assert_eq!(run_of_part(".part-x-0.parquet.9.tmp"), None);
        assert_eq!(run_of_part("part-x-y.parquet"), None);
    }
}
