//! `ysess export --parquet`: sessions of every format as Parquet tables
//! for the engines built for questions across many of them (DuckDB,
//! Spark, Trino). ysess is the exact step from append-only files to
//! tables, not a query engine.
//!
//! The folder an export writes:
//!
//! ```text
//! OUT/entries/agent=claude/day=2026-12-01/part-<run>-0.parquet
//! OUT/tree/agent=claude/<session>-<file hash>.parquet
//! OUT/sessions/agent=claude/<session>-<file hash>.parquet
//! ```
//!
//! `entries` holds what never changes once a line is written, so an
//! export only adds part files to it: a session grown since an earlier
//! export (`--since-manifest`) adds the rows of its new lines. `tree` (tip,
//! HEAD's path, fork point, labels: what a new line changes of older
//! entries) and `sessions` hold one file per session, replaced whole when
//! the session grew. Every file is written under a hidden temporary name
//! and put in place only when whole; a part file is never written over.
mod entries;
pub mod ledger;
pub mod part;
pub mod rows;
mod session;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::check::digest::Digest;
use crate::repo::LoadError;
use entries::{Entries, Partition, Publish, end_partitions};
use session::{Failed, Read, read_session};

/// Threads that put the snapshot files in place.
const PUBLISHERS: usize = 4;

/// What an export is asked to do.
pub struct Options<'a> {
    /// The folder the tables are written in.
    pub out: PathBuf,
    /// The digests of an earlier export's files (`--since-manifest`): of a
    /// file listed, only the lines after those bytes are new, and a file
    /// that no longer starts with them is refused.
    pub since: Option<BTreeMap<PathBuf, Digest>>,
    /// Compute each file's digest, for a manifest of this export.
    pub digests: bool,
    /// Session text made inert (control characters escaped), for subjects
    /// and titles.
    pub escape: &'a (dyn for<'s> Fn(&'s str) -> std::borrow::Cow<'s, str> + Sync),
    /// This run's name in its part files' names.
    pub run: String,
    /// With `--redact`: every text cell goes through it.
    pub redact: Option<&'a crate::view::redact::Redactor>,
}

impl Options<'_> {
    /// How the rows say a session's text.
    fn say(&self) -> rows::Say<'_> {
        rows::Say {
            escape: self.escape,
            redact: self.redact,
        }
    }
}

/// What an export did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Sessions read.
    pub sessions: u64,
    /// Sessions that had not grown since the manifest: nothing written.
    pub unchanged: u64,
    /// Rows added to the entries table.
    pub entries: u64,
    /// Files written, in the order they were put in place.
    pub written: Vec<PathBuf>,
}

/// Why one session is not in the tables.
pub struct Refused {
    /// The file at fault (the session's, or a subagent's).
    pub path: PathBuf,
    /// Why.
    pub error: LoadError,
}

/// Exports the sessions in `files` (each read once, on every core) into
/// the tables under `options.out`. A session that cannot be read, or that
/// no longer starts with what the manifest says (history rewritten), goes
/// to `refused` and is left out; `digest` gets every file read with its
/// digest (when asked for), in order, for a manifest of this export.
pub fn export(
    files: &[PathBuf],
    options: &Options<'_>,
    mut refused: impl FnMut(Box<Refused>),
    mut digest: impl FnMut(&Path, Digest) -> io::Result<()>,
    mut progress: impl FnMut(),
) -> io::Result<Summary> {
    let mut summary = Summary::default();
    let workers = crate::input::par::jobs();
    let mut failed: io::Result<()> = Ok(());
    // Whole files are put in place by threads of their own (a part file
    // of the entries table, or not, with each).
    let (to_publish, publishing) = std::sync::mpsc::channel::<(part::Closed, bool)>();
    let publishing = Mutex::new(publishing);
    let published: Mutex<Vec<(io::Result<PathBuf>, bool)>> = Mutex::new(Vec::new());
    let publish = Publish { to: to_publish };
    let end_failed: Mutex<Option<io::Error>> = Mutex::new(None);
    // Sixteen partitions a core wait to be written out, no more (each of
    // at most `ROW_GROUP` rows): a reader that ends more waits, which
    // bounds the rows held beyond `BUFFERED`.
    let (to_end, ending) = std::sync::mpsc::sync_channel::<Partition>(workers * 16);
    let ending = Mutex::new(ending);
    std::thread::scope(|scope| {
        for _ in 0..PUBLISHERS {
            scope.spawn(|| put_in_place(&publishing, &published));
        }
        // Partitions are written out and their part files ended on every
        // core, beside the reading.
        for _ in 0..workers {
            let publish = publish.clone();
            let (ending, end_failed) = (&ending, &end_failed);
            scope.spawn(move || end_partitions(ending, &options.run, &publish, end_failed));
        }
        let entries = Mutex::new(Entries::new(
            &options.out,
            &options.run,
            publish.clone(),
            to_end,
        ));
        crate::input::par::ordered(
            workers,
            workers * 2,
            files.iter(),
            |path| read_session(path, options, &entries),
            |read| {
                progress();
                take(
                    read,
                    &mut summary,
                    &mut failed,
                    &mut refused,
                    &mut digest,
                    &publish,
                )
            },
        );
        // The last partitions are handed to be written out while the last
        // snapshots are still being put in place.
        let ended = entries
            .into_inner()
            .map_err(|_| io::Error::other("a writer failed"))
            .and_then(|entries| match &failed {
                Ok(()) => entries.finish(),
                Err(_) => {
                    entries.abandon();
                    Ok(())
                }
            });
        if let (Err(e), Ok(())) = (ended, &failed) {
            failed = Err(e);
        }
        drop(publish);
    });
    if let Some(e) = end_failed
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        failed = failed.and(Err(e));
    }
    let published = published
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    settle(published, summary, failed)
}

/// Puts each whole file that comes in place (over the snapshot it
/// replaces, or beside the other part files), and notes what came of it.
fn put_in_place(
    publishing: &Mutex<std::sync::mpsc::Receiver<(part::Closed, bool)>>,
    published: &Mutex<Vec<(io::Result<PathBuf>, bool)>>,
) {
    loop {
        let next = publishing
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        let Ok((closed, part)) = next else { break };
        let done = closed.publish(!part);
        published
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .push((done, part));
    }
}

/// Takes one session's read, in the order of `files`: a refusal to
/// `refused`, its snapshots to be put in place, its files' digests to
/// `digest`. Whether the export goes on.
fn take(
    read: Result<Read, Failed>,
    summary: &mut Summary,
    failed: &mut io::Result<()>,
    refused: &mut impl FnMut(Box<Refused>),
    digest: &mut impl FnMut(&Path, Digest) -> io::Result<()>,
    publish: &Publish,
) -> bool {
    let read = match read {
        Ok(read) => read,
        Err(Failed::Refused(refusal)) => {
            refused(refusal);
            return true;
        }
        Err(Failed::Fatal(e)) => {
            if failed.is_ok() {
                *failed = Err(e);
            }
            return false;
        }
    };
    summary.sessions += 1;
    summary.unchanged += u64::from(read.unchanged);
    summary.entries += read.rows;
    for closed in read.closed {
        publish.snapshot(closed);
    }
    // (A session read while another failed changes nothing of
    // the failure: the run is still taken back.)
    if failed.is_ok() {
        *failed = read.files.iter().try_for_each(|(path, d)| match d {
            Some(d) => digest(path, *d),
            None => Ok(()),
        });
    }
    failed.is_ok()
}

/// The export's answer once every file is in place or failed: what it
/// wrote, or its first failure. A run that fails takes back the part
/// files it put in place: the same run again then adds each row once. (A
/// snapshot put in place is whole, and stays.)
fn settle(
    published: Vec<(io::Result<PathBuf>, bool)>,
    mut summary: Summary,
    mut failed: io::Result<()>,
) -> io::Result<Summary> {
    let mut parts = Vec::new();
    for (done, part) in published {
        match done {
            Ok(path) => {
                if part {
                    parts.push(path.clone());
                }
                summary.written.push(path);
            }
            Err(e) => failed = failed.and(Err(e)),
        }
    }
    if let Err(e) = failed {
        for path in parts {
            let _ = std::fs::remove_file(path);
        }
        return Err(e);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pi session of `days`: so many entries on each day, in turn.
    fn pi_session(days: &[(&str, usize)]) -> String {
        let mut text = String::from(
            r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/w"}"#,
        );
        text.push('\n');
        let mut parent = "null".to_string();
        let mut n = 0;
        for (day, entries) in days {
            for _ in 0..*entries {
                n += 1;
                let secs = n % 60;
                text.push_str(&format!(
                    r#"{{"type":"message","id":"e{n}","parentId":{parent},"timestamp":"{day}T10:00:{secs:02}.000Z","message":{{"role":"user","content":"line {n}","timestamp":{n}}}}}"#
                ));
                text.push('\n');
                parent = format!("\"e{n}\"");
            }
        }
        text
    }

    /// The part files of each day under `out`, with their rows.
    fn parts(out: &Path) -> BTreeMap<String, Vec<i64>> {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let mut by_day = BTreeMap::new();
        let dir = out.join("entries").join("agent=pi");
        for day in std::fs::read_dir(&dir).unwrap() {
            let day = day.unwrap();
            let mut rows = Vec::new();
            for file in std::fs::read_dir(day.path()).unwrap() {
                let file = file.unwrap().path();
                let name = file.file_name().unwrap().to_string_lossy().into_owned();
                assert!(!name.starts_with('.'), "a temporary file is left: {name}");
                let reader =
                    SerializedFileReader::new(std::fs::File::open(&file).unwrap()).unwrap();
                rows.push(reader.metadata().file_metadata().num_rows());
            }
            rows.sort_unstable();
            by_day.insert(day.file_name().to_string_lossy().into_owned(), rows);
        }
        by_day
    }

    /// Every file under `dir`.
    fn files_under(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    fn options(out: &Path) -> Options<'static> {
        Options {
            out: out.to_path_buf(),
            since: None,
            digests: false,
            escape: &crate::ui::output::escape,
            run: "r".into(),
            redact: None,
        }
    }

    #[test]
    fn a_session_that_fails_after_its_rows_fails_the_export_though_the_next_reads_well() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = tempfile::tempdir().expect("temp dir");
        let pi = dir.path().join("pi.jsonl");
        std::fs::copy(root.join("pi/v2.jsonl"), &pi).unwrap();
        let yoagent = dir.path().join("yoagent.jsonl");
        std::fs::copy(root.join("demo.jsonl"), &yoagent).unwrap();
        // The pi session's rows are added, then its sessions file cannot
        // be written; the yoagent session after it reads well.
        let out = dir.path().join("out");
        std::fs::create_dir_all(out.join("sessions")).unwrap();
        std::fs::write(out.join("sessions").join("agent=pi"), "not a folder").unwrap();
        let done = export(
            &[pi, yoagent],
            &options(&out),
            |r| panic!("refused: {}", r.error),
            |_, _| Ok(()),
            || {},
        );
        assert!(done.is_err(), "the pi session's failure was lost");
        // The run is taken back: no part file, no temporary file.
        assert_eq!(files_under(&out.join("entries")), Vec::<PathBuf>::new());
    }

    #[test]
    fn a_part_file_that_cannot_be_written_fails_the_export_and_leaves_no_part_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let session = dir.path().join("s.jsonl");
        let days = [
            ("2026-12-01", 100),
            ("2026-12-02", 200),
            ("2026-12-03", 200),
        ];
        std::fs::write(&session, pi_session(&days)).unwrap();
        // The second day's folder is taken by a file: its part file, ended
        // on an encoding thread, cannot be begun.
        let out = dir.path().join("out");
        let taken = out.join("entries/agent=pi/day=2026-12-02");
        std::fs::create_dir_all(taken.parent().unwrap()).unwrap();
        std::fs::write(&taken, "x").unwrap();
        let done = export(
            std::slice::from_ref(&session),
            &options(&out),
            |r| panic!("refused: {}", r.error),
            |_, _| Ok(()),
            || {},
        );
        assert!(done.is_err());
        assert_eq!(files_under(&out.join("entries")), [taken]);
    }

    #[test]
    fn a_day_that_comes_back_after_its_part_file_was_ended_begins_another() {
        let dir = std::env::temp_dir().join(format!("ysess-table-days-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let session = dir.join("s.jsonl");
        // Windows of 64 entries in the unit tests: the first day is passed
        // (and its part file ended) long before it comes back.
        let days = [("2026-12-01", 100), ("2026-12-02", 200), ("2026-12-01", 10)];
        std::fs::write(&session, pi_session(&days)).unwrap();
        let out = dir.join("out");
        let options = Options {
            out: out.clone(),
            since: None,
            digests: false,
            escape: &crate::ui::output::escape,
            run: "r".into(),
            redact: None,
        };
        let summary = export(
            std::slice::from_ref(&session),
            &options,
            |r| panic!("refused: {}", r.error),
            |_, _| Ok(()),
            || {},
        )
        .unwrap();
        assert_eq!(summary.entries, 310);
        let parts = parts(&out);
        assert_eq!(parts["day=2026-12-01"], [10, 100], "{parts:?}");
        assert_eq!(parts["day=2026-12-02"], [200], "{parts:?}");
        // Every part file is in what the export says it wrote.
        let written = summary
            .written
            .iter()
            .filter(|p| p.starts_with(out.join("entries")))
            .count();
        assert_eq!(written, 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
