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

pub mod part;
pub mod rows;

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::Digest as _;

use crate::check::digest::Digest;
use crate::fleet::sessions::{ONCE, Session};
use crate::repo::{LoadError, Once, Repo};
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
    let old = |p: &Path| options.since.as_ref().and_then(|m| m.get(p)).copied();
    // Each line's usage and text length are taken in the check's own
    // pass, where its format's scanner reads them.
    let once = |p: &Path| Once {
        since: old(p),
        torn: true,
        tallies: true,
        ..Once::default()
    };
    let (repo, _) = Repo::load_once_with(path, ONCE, &once(path)).map_err(|e| refuse(path, e))?;
    let from = old(path).map_or(0, |d| d.bytes);
    let until = settled(&repo).map_err(|e| refuse(path, LoadError::Io(e)))?;
    let mut read = vec![(path.to_path_buf(), from, until)];
    // A Claude Code session's subagents, in files of their own.
    let mut subs = Vec::new();
    if repo.format == crate::Format::Claude {
        for (id, file) in crate::format::claude::subagent_files(path) {
            let (sub, _) =
                Repo::load_once_with(&file, ONCE, &once(&file)).map_err(|e| refuse(&file, e))?;
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
    let claude = repo.format == crate::Format::Claude;
    let (read, tree) = std::thread::scope(|scope| {
        let read = scope.spawn(|| -> io::Result<_> {
            if claude {
                let (facts, counted) = whole_session(&repo, Some(path))?;
                Ok((facts, Some(counted)))
            } else {
                Ok((crate::stats::read(&repo)?, None))
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
    let ((facts, counted), tree) = match (read, tree) {
        (Ok(read), Ok(tree)) => (read, tree),
        (Err(e), tree) => {
            if let Ok(tree) = tree {
                tree.abandon();
            }
            return Err(io_err(e));
        }
        (Ok(_), Err(e)) => return Err(Failed::Fatal(e)),
    };
    // The session's row of the sessions table (as `ls` says it), from its
    // facts and the entries its total counts.
    let session_of = |counted| {
        let session = Session::of_repo(path, &repo, &facts, counted);
        let head = repo.tree.head().map(|h| repo.tree.id(h));
        let row = rows::session_row(&session, head, options.escape);
        (session, row)
    };
    // The entries' rows, then the sessions table; a failure from here on
    // is the export's, and takes the tree table's file back with it.
    let rest = (|| -> io::Result<(u64, part::Closed)> {
        // The facts of the session's own entries come first.
        let own = &facts[..repo.tree.len().min(facts.len())];
        // The rows go to the writer a window at a time, so a session of
        // any size is held in bounded memory.
        let mut added = 0u64;
        let mut sink = |by_day: Vec<(String, Columns)>| -> io::Result<()> {
            let mut entries = entries
                .lock()
                .map_err(|_| io::Error::other("a writer failed"))?;
            for (day, cols) in by_day {
                added += cols.rows() as u64;
                entries.add(agent, day, cols)?;
            }
            Ok(())
        };
        let own_rows = |sink: &mut (dyn FnMut(Vec<(String, Columns)>) -> io::Result<()> + Send)| {
            rows::file_rows(
                &Source {
                    repo: &repo,
                    path,
                    facts: own,
                    session: &id,
                    subagent: None,
                    from,
                    until,
                },
                options.escape,
                sink,
            )
        };
        let (session, row) = match counted {
            Some(counted) => {
                let made = session_of(counted);
                own_rows(&mut sink)?;
                made
            }
            // What the total counts needs the tree only: it is taken while
            // the rows are made.
            None => std::thread::scope(|scope| {
                let made = scope.spawn(|| session_of(counted_own(&repo)));
                let rows = own_rows(&mut sink);
                let made = made.join().expect("the session's account does not panic");
                rows.map(|()| made)
            })?,
        };
        debug_assert_eq!(session.id, id);
        for (sub_id, file, sub, from, until) in &subs {
            let facts = crate::stats::read(sub)?;
            rows::file_rows(
                &Source {
                    repo: sub,
                    path: file,
                    facts: &facts,
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
        Ok((added, sessions))
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
/// whole line, except the model outputs at the end of a Codex rollout
/// still waiting for the `token_count` line that records their usage (and
/// what follows them). Their rows are left for the next export, which
/// starts here; what an export takes of a file never changes later.
fn settled(repo: &Repo) -> io::Result<u64> {
    let end = repo.whole_lines_end()?;
    if repo.format != crate::Format::Codex {
        return Ok(end);
    }
    let tree = &repo.tree;
    let mut cut = end;
    for ix in (0..tree.len() as crate::Ix).rev() {
        if tree.is_record(ix) {
            if tree.tag(ix) == "token_count" {
                break;
            }
            continue;
        }
        if tree.node(ix).kind != crate::MessageKind::Assistant {
            break;
        }
        cut = tree.node(ix).offset;
    }
    Ok(cut)
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
    /// Writes the buffered rows as a row group of the part file (begun
    /// when there is none); the file, when it is now large enough, is put
    /// in place and named.
    fn flush(&mut self, run: &str) -> io::Result<Option<PathBuf>> {
        let rows = std::mem::take(&mut self.buffer);
        self.rows = 0;
        self.bytes = 0;
        if rows.iter().all(|r| r.rows() == 0) {
            return Ok(None);
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
            return part.finish(false).map(Some);
        }
        Ok(None)
    }
}

/// The partitions of the entries table, written as rows come.
struct Entries<'a> {
    out: &'a Path,
    run: &'a str,
    open: BTreeMap<(String, String), Partition>,
    buffered: usize,
    written: Vec<PathBuf>,
}

impl Entries<'_> {
    fn add(&mut self, agent: &str, day: String, rows: Columns) -> io::Result<()> {
        let key = (agent.to_string(), day);
        let p = self.open.entry(key.clone()).or_insert_with(|| Partition {
            dir: self
                .out
                .join("entries")
                .join(format!("agent={}", key.0))
                .join(format!("day={}", key.1)),
            buffer: Vec::new(),
            rows: 0,
            bytes: 0,
            part: None,
            next: 0,
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
        if let Some(done) = p.flush(self.run)? {
            self.written.push(done);
        }
        Ok(())
    }

    /// Writes what is buffered and puts every part file in place, the
    /// partitions on every core.
    fn finish(mut self) -> io::Result<Vec<PathBuf>> {
        let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
        // The largest first, each to the next free core.
        let mut partitions: Vec<&mut Partition> = self.open.values_mut().collect();
        partitions.sort_by_key(|p| std::cmp::Reverse(p.bytes));
        let queue = Mutex::new(partitions.into_iter());
        let run = self.run;
        let done: Vec<io::Result<Vec<PathBuf>>> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    scope.spawn(|| -> io::Result<Vec<PathBuf>> {
                        let mut written = Vec::new();
                        loop {
                            let next = queue
                                .lock()
                                .unwrap_or_else(std::sync::PoisonError::into_inner)
                                .next();
                            let Some(p) = next else {
                                return Ok(written);
                            };
                            written.extend(p.flush(run)?);
                            if let Some(part) = p.part.take() {
                                written.push(part.finish(false)?);
                            }
                        }
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a writing thread does not panic"))
                .collect()
        });
        let mut failed = None;
        for written in done {
            match written {
                Ok(written) => self.written.extend(written),
                Err(e) => failed = failed.or(Some(e)),
            }
        }
        // A run that fails takes back the part files it put in place: the
        // same run again then adds each row once.
        if let Some(e) = failed {
            self.abandon();
            return Err(e);
        }
        Ok(std::mem::take(&mut self.written))
    }

    /// Gives up: the part files of this run are removed, in place or not.
    fn abandon(self) {
        for p in self.open.into_values() {
            if let Some(part) = p.part {
                part.abandon();
            }
        }
        for path in self.written {
            let _ = std::fs::remove_file(path);
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
    let entries = Mutex::new(Entries {
        out: &options.out,
        run: &options.run,
        open: BTreeMap::new(),
        buffered: 0,
        written: Vec::new(),
    });
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failed: io::Result<()> = Ok(());
    // The snapshot files are put in place by threads of their own: each
    // waits for its bytes to reach the disk, which takes the reading none
    // of its time.
    let (to_publish, publishing) = std::sync::mpsc::channel::<part::Closed>();
    let publishing = Mutex::new(publishing);
    let published: Mutex<Vec<io::Result<PathBuf>>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..PUBLISHERS {
            scope.spawn(|| {
                loop {
                    let next = publishing
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .recv();
                    let Ok(closed) = next else { break };
                    let done = closed.publish(true);
                    published
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .push(done);
                }
            });
        }
        crate::fleet::ordered(
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
                        failed = Err(e);
                        return false;
                    }
                };
                summary.sessions += 1;
                summary.unchanged += u64::from(read.unchanged);
                summary.entries += read.rows;
                for closed in read.closed {
                    if let Err(unsent) = to_publish.send(closed) {
                        unsent.0.abandon();
                    }
                }
                failed = read.files.iter().try_for_each(|(path, d)| match d {
                    Some(d) => digest(path, *d),
                    None => Ok(()),
                });
                failed.is_ok()
            },
        );
        drop(to_publish);
    });
    for done in published
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        match done {
            Ok(path) => summary.written.push(path),
            Err(e) => failed = failed.and(Err(e)),
        }
    }
    let entries = entries
        .into_inner()
        .map_err(|_| io::Error::other("a writer failed"))?;
    if let Err(e) = failed {
        entries.abandon();
        return Err(e);
    }
    let parts = entries.finish()?;
    summary.written.extend(parts);
    Ok(summary)
}
