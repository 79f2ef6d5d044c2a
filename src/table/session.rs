//! One session read for the tables: its files loaded (what is new since
//! the manifest, what is settled), its snapshot files (tree, sessions)
//! written whole, and its entries' rows handed to the entries table.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::Digest as _;

use super::entries::{Entries, Windows};
use super::part::{self, Columns, Pages, Part};
use super::rows::{self, SESSIONS, Source, TREE};
use super::{Options, Refused};
use crate::check::digest::Digest;
use crate::fleet::sessions::{ONCE, Session};
use crate::repo::{LoadError, Open, Repo, TornLine};
use crate::stats::Facts;
use crate::stats::report::{counted_own, whole_session};
use crate::tree::Ix;

/// One session, read for the tables by a worker.
pub(super) struct Read {
    /// Rows it added to the entries table.
    pub(super) rows: u64,
    /// Every file read (the session's and its subagents'), with its digest
    /// when asked for.
    pub(super) files: Vec<(PathBuf, Option<Digest>)>,
    /// The snapshot files written (tree, sessions), whole, to be put in
    /// place.
    pub(super) closed: Vec<part::Closed>,
    /// Whether nothing grew since the manifest.
    pub(super) unchanged: bool,
}

/// Why a session is not in the tables: a refusal of the session alone
/// (before any of its rows is written), or a failure of the export.
pub(super) enum Failed {
    Refused(Box<Refused>),
    Fatal(io::Error),
}

/// The refusal of the session for what is wrong with `path`.
fn refuse(path: &Path, error: LoadError) -> Failed {
    Failed::Refused(Box::new(Refused {
        path: path.to_path_buf(),
        error,
    }))
}

/// The digest the manifest holds of `p`: by the path as found, or as a
/// whole path (the folder's ledger keeps whole paths, whatever folder the
/// run starts in).
fn old(options: &Options<'_>, p: &Path) -> Option<Digest> {
    let m = options.since.as_ref()?;
    m.get(p)
        .or_else(|| m.get(&std::path::absolute(p).ok()?))
        .copied()
}

/// How `p` is loaded: each line's usage and text length are taken in the
/// check's own pass, where its format's scanner reads them.
fn open(options: &Options<'_>, p: &Path) -> Result<Repo, Failed> {
    let once = Open::default().once(ONCE).since(old(options, p));
    let once = once.torn(TornLine::Keep).tallies(true);
    Repo::open(crate::Source::Path(p.to_path_buf()), &once).map_err(|e| refuse(p, e))
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

/// A subagent's file of a Claude Code session, loaded.
struct Sub {
    id: String,
    file: PathBuf,
    repo: Repo,
    /// Where its new lines begin and its settled lines end.
    from: u64,
    until: u64,
}

/// A session's files, loaded: its own and its subagents'.
struct Loaded {
    repo: Repo,
    /// Where its new lines begin and its settled lines end.
    from: u64,
    until: u64,
    subs: Vec<Sub>,
    /// Every file read, with its digest when asked for.
    files: Vec<(PathBuf, Option<Digest>)>,
    /// Whether nothing grew since the manifest.
    unchanged: bool,
}

/// Loads the session at `path` and its subagents' files, with the digest
/// of what this export takes of each (for its manifest).
fn load(path: &Path, options: &Options<'_>) -> Result<Loaded, Failed> {
    let repo = open(options, path)?;
    let from = old(options, path).map_or(0, |d| d.bytes);
    let until = settled(&repo).map_err(|e| refuse(path, LoadError::Io(e)))?;
    let mut read = vec![(path.to_path_buf(), from, until)];
    // A Claude Code session's subagents, in files of their own.
    let mut subs = Vec::new();
    for (id, file) in repo.format.spec().subagent_files(path) {
        let sub = open(options, &file)?;
        let from = old(options, &file).map_or(0, |d| d.bytes);
        let until = settled(&sub).map_err(|e| refuse(&file, LoadError::Io(e)))?;
        read.push((file.clone(), from, until));
        subs.push(Sub {
            id,
            file,
            repo: sub,
            from,
            until,
        });
    }
    // The digest of what this export takes of each file, for its manifest.
    let mut files = Vec::new();
    for (i, (p, _, until)) in read.iter().enumerate() {
        let digest = if options.digests {
            let repo = if i == 0 { &repo } else { &subs[i - 1].repo };
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
            .all(|(p, from, until)| old(options, p).is_some() && from == until);
    Ok(Loaded {
        repo,
        from,
        until,
        subs,
        files,
        unchanged,
    })
}

/// Where a session's snapshot files go.
struct Snapshots<'o> {
    out: &'o Path,
    agent: &'static str,
    /// The file's name in each table's folder.
    name: String,
}

impl Snapshots<'_> {
    /// Writes `cols` as the session's file of `table`, whole, to be put in
    /// place.
    fn write(
        &self,
        table: &str,
        columns: &'static [part::Column],
        cols: Columns,
    ) -> io::Result<part::Closed> {
        let at = self
            .out
            .join(table)
            .join(format!("agent={}", self.agent))
            .join(&self.name);
        let mut part = Part::create(at, columns, Pages::Plain)?;
        if let Err(e) = part.write(cols) {
            part.abandon();
            return Err(e);
        }
        part.close()
    }
}

/// The facts of a session's entries, as read for its rows.
struct Said {
    facts: Vec<Option<Facts>>,
    /// The entries its total counts, when taken with its subagents' files
    /// (a Claude Code session).
    counted: Option<Vec<Ix>>,
    /// What the sparse read read beside the facts (any other session).
    sparse: Option<crate::stats::Sparse>,
}

/// Reads the facts of a session's entries (on every core) while its tree
/// table, which needs none of them, is made and written. A Claude Code
/// session's total counts its subagents' files too: it is taken with
/// them; any other session's is taken beside its rows.
fn facts_and_tree(
    loaded: &Loaded,
    path: &Path,
    id: &str,
    options: &Options<'_>,
    snapshots: &Snapshots<'_>,
) -> Result<(Said, part::Closed), Failed> {
    let repo = &loaded.repo;
    let claude = repo.format.spec().folds_subagent_turns() || !loaded.subs.is_empty();
    let (read, tree) = crate::input::par::join(
        true,
        || -> io::Result<_> {
            if claude {
                let (facts, counted) = whole_session(repo, Some(path))?;
                Ok(Said {
                    facts,
                    counted: Some(counted),
                    sparse: None,
                })
            } else {
                // The entries the load tallied need no facts of their own.
                let mut sparse = crate::stats::read_sparse(repo)?;
                let facts = std::mem::take(&mut sparse.facts);
                Ok(Said {
                    facts,
                    counted: None,
                    sparse: Some(sparse),
                })
            }
        },
        || {
            let mut tree = rows::tree_rows(repo, path, id, options.say());
            for sub in &loaded.subs {
                tree.append(rows::tree_rows(&sub.repo, &sub.file, id, options.say()));
            }
            snapshots.write("tree", TREE, tree)
        },
    );
    match (read, tree) {
        (Ok(read), Ok(tree)) => Ok((read, tree)),
        (Err(e), tree) => {
            if let Ok(tree) = tree {
                tree.abandon();
            }
            Err(refuse(path, LoadError::Io(e)))
        }
        (Ok(_), Err(e)) => Err(Failed::Fatal(e)),
    }
}

/// Reads one session (and its subagents' files) into its rows, and writes
/// its snapshot files.
pub(super) fn read_session(
    path: &Path,
    options: &Options<'_>,
    entries: &Mutex<Entries<'_>>,
) -> Result<Read, Failed> {
    let loaded = load(path, options)?;
    if loaded.unchanged {
        return Ok(Read {
            rows: 0,
            files: loaded.files,
            closed: Vec::new(),
            unchanged: true,
        });
    }
    let id = Session::id_of(path, &loaded.repo);
    let snapshots = Snapshots {
        out: &options.out,
        agent: loaded.repo.format.name(),
        name: snapshot_name(&id, path),
    };
    let (said, tree) = facts_and_tree(&loaded, path, &id, options, &snapshots)?;
    // The entries' rows, then the sessions table; a failure from here on
    // is the export's, and takes the tree table's file back with it.
    let rest = write_rows(&loaded, path, &id, said, options, entries, &snapshots);
    match rest {
        Ok((rows, sessions)) => Ok(Read {
            rows,
            files: loaded.files,
            closed: vec![tree, sessions],
            unchanged: false,
        }),
        Err(e) => {
            tree.abandon();
            Err(Failed::Fatal(e))
        }
    }
}

/// Hands the rows of a session's entries (its own, then its subagents') to
/// the entries table, a window at a time, so a session of any size is held
/// in bounded memory; then writes its row of the sessions table (as `ls`
/// says it). Gives the rows added and the sessions table's file.
fn write_rows(
    loaded: &Loaded,
    path: &Path,
    id: &str,
    said: Said,
    options: &Options<'_>,
    entries: &Mutex<Entries<'_>>,
    snapshots: &Snapshots<'_>,
) -> io::Result<(u64, part::Closed)> {
    let repo = &loaded.repo;
    let Said {
        facts,
        counted,
        sparse,
    } = said;
    // The facts of the session's own entries come first.
    let own = Source {
        repo,
        path,
        facts: &facts[..repo.tree.len().min(facts.len())],
        sparse: sparse.as_ref(),
        session: id,
        subagent: None,
        from: loaded.from,
        until: loaded.until,
    };
    // The session's row of the sessions table, from its facts and the
    // entries its total counts.
    let session_of = |session: Session| {
        let head = repo.tree.head().map(|h| repo.tree.id(h));
        let row = rows::session_row(&session, head, options.say());
        (session, row)
    };
    let mut windows = Windows {
        entries,
        agent: snapshots.agent,
        added: 0,
        last: Vec::new(),
    };
    let mut sink = |by_day: Vec<(String, Columns)>| windows.take(by_day);
    let (session, row) = match counted {
        Some(counted) => {
            let made = session_of(Session::of_repo(path, repo, &facts, counted));
            rows::file_rows(&own, options.say(), &mut sink)?;
            made
        }
        // What the total counts needs the tree only: it is taken while
        // the rows are made.
        None => {
            let (made, rows) = crate::input::par::join(
                true,
                || {
                    let total = rows::total(&own, counted_own(repo));
                    session_of(Session::of_total(path, repo, total))
                },
                || rows::file_rows(&own, options.say(), &mut sink),
            );
            rows.map(|()| made)?
        }
    };
    debug_assert_eq!(session.id, id);
    for sub in &loaded.subs {
        let facts = crate::stats::read(&sub.repo)?;
        // Each file's days are its own: one file's last days are not
        // passed because the next file's rows begin elsewhere.
        windows.last.clear();
        let mut sink = |by_day: Vec<(String, Columns)>| windows.take(by_day);
        rows::file_rows(
            &Source {
                repo: &sub.repo,
                path: &sub.file,
                facts: &facts,
                sparse: None,
                session: id,
                subagent: Some(&sub.id),
                from: sub.from,
                until: sub.until,
            },
            options.say(),
            &mut sink,
        )?;
    }
    let sessions = snapshots.write("sessions", SESSIONS, row)?;
    Ok((windows.added, sessions))
}
