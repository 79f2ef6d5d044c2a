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

use sha2::Digest as _;

use crate::check::digest::Digest;
use crate::fleet::sessions::{ONCE, Session};
use crate::repo::{LoadError, Once, Repo};
use crate::stats::report::whole_session;
use part::{Columns, Part};
use rows::{ENTRIES, SESSIONS, Source, TREE};

/// Rows of one partition buffered before they are written as a row group.
const ROW_GROUP: usize = 128 * 1024;

/// Bytes of rows buffered over every partition before the largest is
/// written out: what bounds an export's memory.
const BUFFERED: usize = 96 << 20;

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
    pub escape: &'a (dyn Fn(&str) -> String + Sync),
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
    agent: &'static str,
    /// Its entries' rows, by UTC day; empty when nothing is new.
    entries: Vec<(String, Columns)>,
    /// Every file read (the session's and its subagents'), with its digest
    /// when asked for.
    files: Vec<(PathBuf, Option<Digest>)>,
    /// The snapshot files written (tree, sessions).
    written: Vec<PathBuf>,
    /// Whether nothing grew since the manifest.
    unchanged: bool,
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
fn read_session(path: &Path, options: &Options<'_>) -> Result<Read, Box<Refused>> {
    let refuse = |path: &Path, error: LoadError| {
        Box::new(Refused {
            path: path.to_path_buf(),
            error,
        })
    };
    let old = |p: &Path| options.since.as_ref().and_then(|m| m.get(p)).copied();
    let once = |p: &Path| Once {
        since: old(p),
        torn: true,
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
            agent,
            entries: Vec::new(),
            files,
            written: Vec::new(),
            unchanged,
        });
    }
    let io_err = |e: io::Error| refuse(path, LoadError::Io(e));
    let (facts, counted) = whole_session(&repo, Some(path)).map_err(io_err)?;
    let session = Session::of_repo(path, &repo, &facts, counted);
    // The facts of the session's own entries come first.
    let own = &facts[..repo.tree.len().min(facts.len())];
    let main = rows::file_rows(
        &Source {
            repo: &repo,
            path,
            facts: own,
            session: &session.id,
            subagent: None,
            from,
            until,
        },
        options.escape,
    )
    .map_err(io_err)?;
    let mut entries = main.entries;
    let mut tree = main.tree;
    for (id, file, sub, from, until) in &subs {
        let facts = crate::stats::read(sub).map_err(io_err)?;
        let rows = rows::file_rows(
            &Source {
                repo: sub,
                path: file,
                facts: &facts,
                session: &session.id,
                subagent: Some(id),
                from: *from,
                until: *until,
            },
            options.escape,
        )
        .map_err(io_err)?;
        for (day, cols) in rows.entries {
            match entries.iter_mut().find(|(d, _)| *d == day) {
                Some((_, mine)) => mine.append(cols),
                None => entries.push((day, cols)),
            }
        }
        tree.append(rows.tree);
    }
    let head = repo.tree.head().map(|h| repo.tree.id(h));
    let name = snapshot_name(&session.id, path);
    let mut written = Vec::new();
    for (table, columns, cols) in [
        ("tree", TREE, tree),
        (
            "sessions",
            SESSIONS,
            rows::session_row(&session, head, options.escape),
        ),
    ] {
        let at = options
            .out
            .join(table)
            .join(format!("agent={agent}"))
            .join(&name);
        let mut part = Part::create(at, columns).map_err(io_err)?;
        if let Err(e) = part.write(cols) {
            part.abandon();
            return Err(io_err(e));
        }
        written.push(part.finish(true).map_err(io_err)?);
    }
    Ok(Read {
        agent,
        entries,
        files,
        written,
        unchanged,
    })
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
    buffer: Columns,
    part: Option<Part>,
    /// The number of the next part file.
    next: usize,
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
            buffer: Columns::new(ENTRIES),
            part: None,
            next: 0,
        });
        self.buffered += rows.bytes();
        p.buffer.append(rows);
        if p.buffer.rows() >= ROW_GROUP {
            self.flush(&key)?;
        }
        while self.buffered > BUFFERED {
            let Some(largest) = self
                .open
                .iter()
                .max_by_key(|(_, p)| p.buffer.bytes())
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
        let rows = std::mem::replace(&mut p.buffer, Columns::new(ENTRIES));
        self.buffered -= rows.bytes();
        if rows.rows() == 0 {
            return Ok(());
        }
        let part = match &mut p.part {
            Some(part) => part,
            None => {
                let name = format!("part-{}-{}.parquet", self.run, p.next);
                p.next += 1;
                p.part.insert(Part::create(p.dir.join(name), ENTRIES)?)
            }
        };
        part.write(rows)?;
        if part.bytes_written() >= PART_BYTES
            && let Some(part) = p.part.take()
        {
            self.written.push(part.finish(false)?);
        }
        Ok(())
    }

    /// Writes what is buffered and puts every part file in place.
    fn finish(mut self) -> io::Result<Vec<PathBuf>> {
        let keys: Vec<_> = self.open.keys().cloned().collect();
        for key in &keys {
            self.flush(key)?;
        }
        for p in self.open.values_mut() {
            if let Some(part) = p.part.take() {
                self.written.push(part.finish(false)?);
            }
        }
        Ok(self.written)
    }

    /// Gives up: the part files not yet in place are removed.
    fn abandon(self) {
        for p in self.open.into_values() {
            if let Some(part) = p.part {
                part.abandon();
            }
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
    let mut entries = Entries {
        out: &options.out,
        run: &options.run,
        open: BTreeMap::new(),
        buffered: 0,
        written: Vec::new(),
    };
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failed: io::Result<()> = Ok(());
    crate::fleet::ordered(
        workers,
        workers * 2,
        files.iter(),
        |path| read_session(path, options),
        |read| {
            progress();
            let read = match read {
                Ok(read) => read,
                Err(refusal) => {
                    refused(refusal);
                    return true;
                }
            };
            summary.sessions += 1;
            summary.unchanged += u64::from(read.unchanged);
            summary.written.extend(read.written);
            failed = (|| -> io::Result<()> {
                for (path, d) in &read.files {
                    if let Some(d) = d {
                        digest(path, *d)?;
                    }
                }
                for (day, rows) in read.entries {
                    summary.entries += rows.rows() as u64;
                    entries.add(read.agent, day, rows)?;
                }
                Ok(())
            })();
            failed.is_ok()
        },
    );
    if let Err(e) = failed {
        entries.abandon();
        return Err(e);
    }
    let parts = entries.finish()?;
    summary.written.extend(parts);
    Ok(summary)
}
