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

pub mod ledger;
pub mod part;
pub mod rows;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::Digest as _;

use crate::check::digest::Digest;
use crate::fleet::sessions::{ONCE, Session};
use crate::repo::{LoadError, Open, Repo, TornLine};
use crate::stats::report::{counted_own, whole_session};
use part::{Columns, Pages, Part};
use rows::{ENTRIES, SESSIONS, Source, TREE};

/// Rows of one partition buffered before they are written as a row group.
const ROW_GROUP: usize = 128 * 1024;

/// Bytes of rows buffered over every partition before the largest is
/// written out: what bounds an export's memory.
const BUFFERED: usize = 48 << 20;

/// Threads that put the snapshot files in place.
const PUBLISHERS: usize = 4;

/// A part file is closed, and the next begun, past this size.
const PART_BYTES: usize = 256 << 20;

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

/// One session, read for the tables by a worker.
struct Read {
    /// Rows it added to the entries table.
    rows: u64,
    /// Every file read (the session's and its subagents'), with its digest
    /// when asked for.
    files: Vec<(PathBuf, Option<Digest>)>,
    /// The snapshot files written (tree, sessions), whole, to be put in
    /// place.
    closed: Vec<part::Closed>,
    /// Whether nothing grew since the manifest.
    unchanged: bool,
}

/// Why a session is not in the tables: a refusal of the session alone
/// (before any of its rows is written), or a failure of the export.
enum Failed {
    Refused(Box<Refused>),
    Fatal(io::Error),
}

/// Why one session is not in the tables.
pub struct Refused {
    /// The file at fault (the session's, or a subagent's).
    pub path: PathBuf,
    /// Why.
    pub error: LoadError,
}

/// The name a session's snapshot files take: its id (as a file name can
/// hold it) and a short hash of its file's path, so two copies of one
/// session in different folders are two sessions.
fn snapshot_name(id: &str, path: &Path) -> String {
    let safe: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(100)
        .collect();
    let hash = sha2::Sha256::digest(path.as_os_str().as_encoded_bytes());
    let short: String = hash[..4].iter().map(|b| format!("{b:02x}")).collect();
    format!("{safe}-{short}.parquet")
}

/// Reads one session (and its subagents' files) into its rows, and writes
/// its snapshot files.
fn read_session(
    path: &Path,
    options: &Options<'_>,
    entries: &Mutex<Entries<'_>>,
) -> Result<Read, Failed> {
    let refuse = |path: &Path, error: LoadError| {
        Failed::Refused(Box::new(Refused {
            path: path.to_path_buf(),
            error,
        }))
    };
    // By the path as found, or as a whole path (the folder's ledger keeps
    // whole paths, whatever folder the run starts in).
    let old = |p: &Path| {
        let m = options.since.as_ref()?;
        m.get(p)
            .or_else(|| m.get(&std::path::absolute(p).ok()?))
            .copied()
    };
    // Each line's usage and text length are taken in the check's own
    // pass, where its format's scanner reads them.
    let open = |p: &Path| {
        let once = Open::default().once(ONCE).since(old(p));
        let once = once.torn(TornLine::Keep).tallies(true);
        Repo::open(crate::Source::Path(p.to_path_buf()), &once).map_err(|e| refuse(p, e))
    };
    let repo = open(path)?;
    let from = old(path).map_or(0, |d| d.bytes);
    let until = settled(&repo).map_err(|e| refuse(path, LoadError::Io(e)))?;
    let mut read = vec![(path.to_path_buf(), from, until)];
    // A Claude Code session's subagents, in files of their own.
    let mut subs = Vec::new();
    {
        for (id, file) in repo.format.spec().subagent_files(path) {
            let sub = open(&file)?;
            let from = old(&file).map_or(0, |d| d.bytes);
            let until = settled(&sub).map_err(|e| refuse(&file, LoadError::Io(e)))?;
            read.push((file.clone(), from, until));
            subs.push((id, file, sub, from, until));
        }
    }
    // The digest of what this export takes of each file, for its manifest.
    let mut files = Vec::new();
    for (i, (p, _, until)) in read.iter().enumerate() {
        let digest = if options.digests {
            let repo = if i == 0 { &repo } else { &subs[i - 1].2 };
            Some(
                repo.digest_of_start(*until)
                    .map_err(|e| refuse(p, LoadError::Io(e)))?,
            )
        } else {
            None
        };
        files.push((p.clone(), digest));
    }
    let unchanged = options.since.is_some()
        && read
            .iter()
            .all(|(p, from, until)| old(p).is_some() && from == until);
    let agent = repo.format.name();
    if unchanged {
        return Ok(Read {
            rows: 0,
            files,
            closed: Vec::new(),
            unchanged,
        });
    }
    let io_err = |e: io::Error| refuse(path, LoadError::Io(e));
    let id = Session::id_of(path, &repo);
    let name = snapshot_name(&id, path);
    let snapshot = |table: &str, columns, cols| -> io::Result<part::Closed> {
        let at = options
            .out
            .join(table)
            .join(format!("agent={agent}"))
            .join(&name);
        let mut part = Part::create(at, columns, Pages::Plain)?;
        if let Err(e) = part.write(cols) {
            part.abandon();
            return Err(e);
        }
        part.close()
    };
    // The entries' facts are read (on every core) while the tree table,
    // which needs none of them, is made and written. A Claude Code
    // session's total counts its subagents' files too: it is taken with
    // them; any other session's is taken beside its rows, below.
    let claude = repo.format.spec().folds_subagent_turns() || !subs.is_empty();
    let (read, tree) = std::thread::scope(|scope| {
        let read = scope.spawn(|| -> io::Result<_> {
            if claude {
                let (facts, counted) = whole_session(&repo, Some(path))?;
                Ok((facts, Some(counted), None))
            } else {
                // The entries the load tallied need no facts of their own.
                let mut sparse = crate::stats::read_sparse(&repo)?;
                let facts = std::mem::take(&mut sparse.facts);
                Ok((facts, None, Some(sparse)))
            }
        });
        let mut tree = rows::tree_rows(&repo, path, &id);
        for (_, file, sub, _, _) in &subs {
            tree.append(rows::tree_rows(sub, file, &id));
        }
        let tree = snapshot("tree", TREE, tree);
        let read = read.join().expect("reading the facts does not panic");
        (read, tree)
    });
    let ((facts, counted, sparse), tree) = match (read, tree) {
        (Ok(read), Ok(tree)) => (read, tree),
        (Err(e), tree) => {
            if let Ok(tree) = tree {
                tree.abandon();
            }
            return Err(io_err(e));
        }
        (Ok(_), Err(e)) => return Err(Failed::Fatal(e)),
    };
    // The facts of the session's own entries come first.
    let own = Source {
        repo: &repo,
        path,
        facts: &facts[..repo.tree.len().min(facts.len())],
        sparse: sparse.as_ref(),
        session: &id,
        subagent: None,
        from,
        until,
    };
    // The session's row of the sessions table (as `ls` says it), from its
    // facts and the entries its total counts.
    let session_of = |session: Session| {
        let head = repo.tree.head().map(|h| repo.tree.id(h));
        let row = rows::session_row(&session, head, options.escape);
        (session, row)
    };
    // The entries' rows, then the sessions table; a failure from here on
    // is the export's, and takes the tree table's file back with it.
    let rest = (|| -> io::Result<(u64, part::Closed)> {
        // The rows go to the writer a window at a time, so a session of
        // any size is held in bounded memory.
        let mut windows = Windows {
            entries,
            agent,
            added: 0,
            last: Vec::new(),
        };
        let mut sink = |by_day: Vec<(String, Columns)>| windows.take(by_day);
        let (session, row) = match counted {
            Some(counted) => {
                let made = session_of(Session::of_repo(path, &repo, &facts, counted));
                rows::file_rows(&own, options.escape, &mut sink)?;
                made
            }
            // What the total counts needs the tree only: it is taken while
            // the rows are made.
            None => std::thread::scope(|scope| {
                let made = scope.spawn(|| {
                    let total = rows::total(&own, counted_own(&repo));
                    session_of(Session::of_total(path, &repo, total))
                });
                let rows = rows::file_rows(&own, options.escape, &mut sink);
                let made = made.join().expect("the session's account does not panic");
                rows.map(|()| made)
            })?,
        };
        debug_assert_eq!(session.id, id);
        for (sub_id, file, sub, from, until) in &subs {
            let facts = crate::stats::read(sub)?;
            // Each file's days are its own: one file's last days are not
            // passed because the next file's rows begin elsewhere.
            windows.last.clear();
            let mut sink = |by_day: Vec<(String, Columns)>| windows.take(by_day);
            rows::file_rows(
                &Source {
                    repo: sub,
                    path: file,
                    facts: &facts,
                    sparse: None,
                    session: &id,
                    subagent: Some(sub_id),
                    from: *from,
                    until: *until,
                },
                options.escape,
                &mut sink,
            )?;
        }
        let sessions = snapshot("sessions", SESSIONS, row)?;
        Ok((windows.added, sessions))
    })();
    match rest {
        Ok((rows, sessions)) => Ok(Read {
            rows,
            files,
            closed: vec![tree, sessions],
            unchanged,
        }),
        Err(e) => {
            tree.abandon();
            Err(Failed::Fatal(e))
        }
    }
}

/// Where the lines of `repo` whose rows can no longer change end: every
/// whole line, except, in a Codex rollout, from the first model output
/// whose call's `token_count` line has not come yet (and what follows it).
/// Their rows are left for the next export, which starts here; what an
/// export takes of a file never changes later.
fn settled(repo: &Repo) -> io::Result<u64> {
    let end = repo.whole_lines_end()?;
    Ok(match repo.format.spec().waiting(repo)? {
        Some(ix) => repo.tree.node(ix).offset.min(end),
        None => end,
    })
}

/// One file's rows as they come to the writer, a window of entries at a
/// time.
struct Windows<'e, 'a> {
    entries: &'e Mutex<Entries<'a>>,
    agent: &'static str,
    /// Rows added to the entries table.
    added: u64,
    /// The days of the window before.
    last: Vec<String>,
}

impl Windows<'_, '_> {
    /// Adds one window's rows. A day the file's rows have passed (in the
    /// window before, not in this one) has its rows, as far as this file
    /// goes: its part file is ended on a core of its own while the next
    /// window's rows are made. (A file's entries come in time order; a
    /// day that comes back later begins a part file of its own.)
    fn take(&mut self, by_day: Vec<(String, Columns)>) -> io::Result<()> {
        let mut entries = self
            .entries
            .lock()
            .map_err(|_| io::Error::other("a writer failed"))?;
        let mut days: Vec<String> = Vec::new();
        for (day, cols) in by_day {
            self.added += cols.rows() as u64;
            if !days.contains(&day) {
                days.push(day.clone());
            }
            entries.add(self.agent, day, cols)?;
        }
        for day in std::mem::replace(&mut self.last, days) {
            if !self.last.contains(&day) {
                entries.end(self.agent, day)?;
            }
        }
        Ok(())
    }
}

/// One partition of the entries table being written.
struct Partition {
    dir: PathBuf,
    /// Rows buffered, in the pieces they came in (written as one row
    /// group, never copied into one buffer).
    buffer: Vec<Columns>,
    /// Rows and bytes buffered.
    rows: usize,
    bytes: usize,
    part: Option<Part>,
    /// The number of the next part file.
    next: usize,
}

impl Partition {
    /// No rows yet, in `dir`; its next part file is numbered `next`.
    fn new(dir: PathBuf, next: usize) -> Partition {
        Partition {
            dir,
            buffer: Vec::new(),
            rows: 0,
            bytes: 0,
            part: None,
            next,
        }
    }

    /// Writes the buffered rows as a row group of the part file (begun
    /// when there is none); the file, when it is now large enough, is
    /// ended and handed to `publish` to be put in place.
    fn flush(&mut self, run: &str, publish: &Publish) -> io::Result<()> {
        let rows = std::mem::take(&mut self.buffer);
        self.rows = 0;
        self.bytes = 0;
        if rows.iter().all(|r| r.rows() == 0) {
            return Ok(());
        }
        let part = match &mut self.part {
            Some(part) => part,
            None => {
                let name = format!("part-{run}-{}.parquet", self.next);
                self.next += 1;
                self.part
                    .insert(Part::create(self.dir.join(name), ENTRIES, Pages::Zstd)?)
            }
        };
        part.write_all(rows)?;
        if part.bytes_written() >= PART_BYTES
            && let Some(part) = self.part.take()
        {
            publish.part(part.close()?);
        }
        Ok(())
    }
}

/// Where whole files go to be put in place, by threads of their own: each
/// waits for its bytes to reach the disk, which takes the encoding none of
/// its time.
struct Publish {
    to: std::sync::mpsc::Sender<(part::Closed, bool)>,
}

impl Publish {
    /// A part file of the entries table: put beside the others, never over
    /// one.
    fn part(&self, closed: part::Closed) {
        self.send(closed, true);
    }

    /// A session's snapshot file: put over the one it replaces.
    fn snapshot(&self, closed: part::Closed) {
        self.send(closed, false);
    }

    fn send(&self, closed: part::Closed, part: bool) {
        if let Err(unsent) = self.to.send((closed, part)) {
            unsent.0.0.abandon();
        }
    }
}

/// The partitions of the entries table, written as rows come.
struct Entries<'a> {
    out: &'a Path,
    run: &'a str,
    open: BTreeMap<(String, String), Partition>,
    buffered: usize,
    publish: Publish,
    /// Where a partition goes to be written out and its part file ended
    /// ([`end_partitions`]).
    ending: std::sync::mpsc::SyncSender<Partition>,
}

impl Entries<'_> {
    fn add(&mut self, agent: &str, day: String, rows: Columns) -> io::Result<()> {
        let key = (agent.to_string(), day);
        let p = self.open.entry(key.clone()).or_insert_with(|| {
            let dir = self
                .out
                .join("entries")
                .join(format!("agent={}", key.0))
                .join(format!("day={}", key.1));
            Partition::new(dir, 0)
        });
        self.buffered += rows.bytes();
        p.rows += rows.rows();
        p.bytes += rows.bytes();
        p.buffer.push(rows);
        if p.rows >= ROW_GROUP {
            self.flush(&key)?;
        }
        while self.buffered > BUFFERED {
            let Some(largest) = self
                .open
                .iter()
                .max_by_key(|(_, p)| p.bytes)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.flush(&largest)?;
        }
        Ok(())
    }

    /// Writes a partition's buffered rows as a row group of its part file,
    /// ending the file when it is large enough.
    fn flush(&mut self, key: &(String, String)) -> io::Result<()> {
        let Some(p) = self.open.get_mut(key) else {
            return Ok(());
        };
        self.buffered -= p.bytes;
        p.flush(self.run, &self.publish)
    }

    /// Hands the partition of `day` to be written out and its part file
    /// ended now; rows of that day that come later begin the next part
    /// file.
    fn end(&mut self, agent: &str, day: String) -> io::Result<()> {
        let Some(p) = self.open.get_mut(&(agent.to_string(), day)) else {
            return Ok(());
        };
        if p.rows == 0 && p.part.is_none() {
            return Ok(());
        }
        // (Past the number the part file being ended takes.)
        let fresh = Partition::new(p.dir.clone(), p.next + usize::from(p.part.is_none()));
        let p = std::mem::replace(p, fresh);
        self.buffered -= p.bytes;
        self.hand(p)
    }

    /// Hands `p` to the threads that write it out and end its part file.
    fn hand(&self, p: Partition) -> io::Result<()> {
        self.ending
            .send(p)
            .map_err(|_| io::Error::other("the part files' writers stopped"))
    }

    /// Hands every partition to be written out and its part file ended,
    /// the largest first.
    fn finish(mut self) -> io::Result<()> {
        let mut partitions: Vec<Partition> = std::mem::take(&mut self.open).into_values().collect();
        partitions.sort_by_key(|p| std::cmp::Reverse(p.bytes));
        for p in partitions {
            self.hand(p)?;
        }
        Ok(())
    }

    /// Gives up: the part files still being written are removed (those
    /// handed to be put in place are the caller's to take back).
    fn abandon(self) {
        for p in self.open.into_values() {
            if let Some(part) = p.part {
                part.abandon();
            }
        }
    }
}

/// Writes out each partition that comes (its rows as a row group of its
/// part file, begun when there is none) and ends its part file, handed to
/// `publish`; on every core, beside the reading. After a failure, what
/// comes is given up, unwritten; the first failure is the answer.
fn end_partitions(
    ending: &Mutex<std::sync::mpsc::Receiver<Partition>>,
    run: &str,
    publish: &Publish,
    failed: &Mutex<Option<io::Error>>,
) {
    let failed = |e: Option<io::Error>| {
        let mut failed = failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if failed.is_none() {
            *failed = e;
        }
        failed.is_some()
    };
    loop {
        let next = ending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        let Ok(mut p) = next else { return };
        if failed(None) {
            if let Some(part) = p.part.take() {
                part.abandon();
            }
            continue;
        }
        let done = p.flush(run, publish).and_then(|()| match p.part.take() {
            Some(part) => part.close().map(|closed| publish.part(closed)),
            None => Ok(()),
        });
        if let Err(e) = done {
            if let Some(part) = p.part.take() {
                part.abandon();
            }
            failed(Some(e));
        }
    }
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
    // at most [`ROW_GROUP`] rows): a reader that ends more waits, which
    // bounds the rows held beyond [`BUFFERED`].
    let (to_end, ending) = std::sync::mpsc::sync_channel::<Partition>(workers * 16);
    let ending = Mutex::new(ending);
    std::thread::scope(|scope| {
        for _ in 0..PUBLISHERS {
            scope.spawn(|| {
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
            });
        }
        // Partitions are written out and their part files ended on every
        // core, beside the reading.
        for _ in 0..workers {
            let publish = Publish {
                to: publish.to.clone(),
            };
            let (ending, end_failed) = (&ending, &end_failed);
            scope.spawn(move || end_partitions(ending, &options.run, &publish, end_failed));
        }
        let entries = Mutex::new(Entries {
            out: &options.out,
            run: &options.run,
            open: BTreeMap::new(),
            buffered: 0,
            publish: Publish {
                to: publish.to.clone(),
            },
            ending: to_end,
        });
        crate::input::par::ordered(
            workers,
            workers * 2,
            files.iter(),
            |path| read_session(path, options, &entries),
            |read| {
                progress();
                let read = match read {
                    Ok(read) => read,
                    Err(Failed::Refused(refusal)) => {
                        refused(refusal);
                        return true;
                    }
                    Err(Failed::Fatal(e)) => {
                        if failed.is_ok() {
                            failed = Err(e);
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
                    failed = read.files.iter().try_for_each(|(path, d)| match d {
                        Some(d) => digest(path, *d),
                        None => Ok(()),
                    });
                }
                failed.is_ok()
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
    let mut parts = Vec::new();
    for (done, part) in published
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
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
    // A run that fails takes back the part files it put in place: the same
    // run again then adds each row once. (A snapshot put in place is
    // whole, and stays.)
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
