//! Every session on the machine: the folders where each agent keeps its
//! sessions ([`search_path`]), the session files in them ([`find`]), and
//! what `ysess ls` says of each ([`Session::of`]); `stats --all`'s accounts are
//! [`super::accounts`].
//!
//! The agents' folders, each as the agent itself finds it:
//! - Claude Code: `projects/` in every folder of `$CLAUDE_CONFIG_DIR`
//!   (a comma-separated list), else `~/.claude/projects` and
//!   `~/.config/claude/projects`;
//! - pi: `$PI_CODING_AGENT_SESSION_DIR`, else `sessions/` in
//!   `$PI_CODING_AGENT_DIR`, else `~/.pi/agent/sessions`;
//! - Codex: `sessions/` in `$CODEX_HOME`, else `~/.codex/sessions`;
//! - Qwen Code: `projects/` in `$QWEN_RUNTIME_DIR`, else in `$QWEN_HOME`,
//!   else `~/.qwen/projects`;
//!
//! (each format's [`crate::format::Spec::session_dirs`], in the registry's
//! order)
//! - and the folders of `$YSESS_PATH` (separated as `$PATH` is), where
//!   yoagent apps, or copies of any agent's sessions, are kept.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use crate::format::Format;

use crate::format::message::Usage;
use crate::repo::{LoadError, Repo};
use crate::stats::report::whole_session;
use crate::stats::{Account, Facts};
use crate::tree::Ix;

/// Bytes of a file's head read for its session id and project.
pub(super) const HEAD: u64 = 64 << 10;

/// The largest session file a command over many sessions reads whole into
/// memory, to read it once ([`crate::repo::Open::once`]); with one file per core
/// at a time, this bounds what such a command holds.
pub const ONCE: u64 = 64 << 20;

/// A folder sessions are looked for in, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    /// The folder.
    pub dir: PathBuf,
    /// Named by the user (`$YSESS_PATH`, or on the command line): when it
    /// cannot be read, that is worth saying. An agent's default folder that
    /// does not exist is only an agent not used here.
    pub named: bool,
}

/// The search path, with `var` reading the environment: each agent's
/// folder (whether or not it exists), then `$YSESS_PATH`'s, each once.
pub fn search_path(var: &dyn Fn(&str) -> Option<OsString>) -> Vec<Root> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    let home = set("HOME").map(PathBuf::from);
    // Each agent's folders, as the agent finds them.
    let dirs: Vec<PathBuf> = Format::ALL
        .into_iter()
        .flat_map(|f| f.spec().session_dirs(&set, home.as_deref()))
        .collect();
    let mut roots: Vec<Root> = dirs
        .into_iter()
        .map(|dir| Root { dir, named: false })
        .collect();
    if let Some(path) = set("YSESS_PATH") {
        roots.extend(
            std::env::split_paths(&path)
                .filter(|d| !d.as_os_str().is_empty())
                .map(|dir| Root { dir, named: true }),
        );
    }
    let mut seen = std::collections::HashSet::new();
    roots.retain(|r| seen.insert(r.dir.clone()));
    roots
}

/// Where to look: the folders `dirs` names (each named by the user), or,
/// when it names none, the search path of this process's environment.
pub fn roots<P: AsRef<Path>>(dirs: &[P]) -> Vec<Root> {
    if dirs.is_empty() {
        return search_path(&|name| std::env::var_os(name));
    }
    dirs.iter()
        .map(|dir| Root {
            dir: dir.as_ref().to_path_buf(),
            named: true,
        })
        .collect()
}

/// What [`find`] finds.
#[derive(Debug)]
pub enum Found {
    /// A session file.
    File {
        /// Where it is.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
        /// When it was last written.
        modified: Option<std::time::SystemTime>,
    },
    /// A folder the user named that cannot be read, or a path below a root
    /// that cannot.
    Unreadable {
        /// Where.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
}

/// The session files under `roots`: `*.jsonl` files, found as `fsck DIR`
/// finds them ([`super::walk`]), but not the files of Claude Code's
/// subagents (`<session>/subagents/agent-*.jsonl`), which belong to their
/// session. An agent's folder that does not exist is skipped in silence.
pub fn find(roots: &[Root]) -> Vec<Found> {
    let mut names = vec![super::walk::DEFAULT_GLOB.to_string()];
    names.extend(
        Format::ALL
            .iter()
            .flat_map(|f| f.spec().store_globs())
            .map(|n| n.to_string()),
    );
    let globs = super::walk::Globs::new(&names).expect("the default glob compiles");
    let mut found = Vec::new();
    for root in roots {
        if !root.named && !root.dir.is_dir() {
            continue;
        }
        let dirs = [root.dir.clone()];
        for item in super::walk::walk(&dirs, &globs) {
            match item {
                super::walk::Found::File { path, size } => {
                    // A file of many sessions (OpenCode's database): each.
                    match Format::sessions_in(&path) {
                        Some(Ok(sessions)) => {
                            found.extend(sessions.into_iter().map(|(path, ms)| Found::File {
                                path,
                                size: 0,
                                modified: Some(
                                    std::time::SystemTime::UNIX_EPOCH
                                        + std::time::Duration::from_millis(ms),
                                ),
                            }));
                            continue;
                        }
                        Some(Err(error)) => {
                            found.push(Found::Unreadable { path, error });
                            continue;
                        }
                        None => {}
                    }
                    // A subagent's file belongs to its session; a session an
                    // app copied into the store it goes on in is read there.
                    // (A file named itself is read all the same.)
                    let named = path == root.dir;
                    if is_subagent_file(&path)
                        || (!named && Format::ALL.iter().any(|f| f.spec().superseded(&path)))
                    {
                        continue;
                    }
                    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
                    found.push(Found::File {
                        path,
                        size,
                        modified,
                    });
                }
                super::walk::Found::Unreadable { path, error } => {
                    found.push(Found::Unreadable { path, error });
                }
            }
        }
    }
    found
}

/// A subagent's own file, which its session's reads with it: a format
/// knows it by where it lies ([`crate::format::Spec::is_subagent_file`]).
fn is_subagent_file(path: &Path) -> bool {
    Format::ALL.iter().any(|f| f.spec().is_subagent_file(path))
}

/// What a session's row says of its total: its first and last times, its
/// tokens and its cost, as [`Account::of`] counts them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Total {
    /// The earliest time (ms since the epoch).
    pub first: Option<u64>,
    /// The latest time.
    pub last: Option<u64>,
    /// Tokens, summed over the model calls.
    pub usage: Usage,
    /// Dollars, summed over the calls that record a cost or are priced.
    pub cost: Option<f64>,
    /// The models of the calls that have no price (whose cost is unknown).
    pub unpriced: std::collections::BTreeSet<String>,
}

/// What `ysess ls` says of one session.
#[derive(Debug, Clone)]
pub struct Session {
    /// Its file.
    pub path: PathBuf,
    /// The agent that wrote it.
    pub format: Format,
    /// Its id: the one the file records (pi's header, Codex's
    /// `session_meta`), else the file's stem (Claude Code names its files
    /// by their sessions' ids, as ccusage reads them).
    pub id: String,
    /// The folder the agent worked in, where the file records it.
    pub project: Option<String>,
    /// The earliest timestamp (ms since the epoch).
    pub started: Option<u64>,
    /// The latest timestamp (ms since the epoch).
    pub last: Option<u64>,
    /// Entries of the conversation (ysess's records and the app's
    /// bookkeeping left out).
    pub entries: u64,
    /// Branches, as `ysess branch` lists them.
    pub branches: usize,
    /// Tokens, as `ysess stats` totals them (Claude Code subagents
    /// included).
    pub usage: Usage,
    /// Dollars, as `ysess stats` totals them; `None` when nothing is
    /// priced, and when a model has no price (`unpriced`).
    pub cost: Option<f64>,
    /// The models with no price, whose cost is unknown.
    pub unpriced: Vec<String>,
    /// A title: the name the user gave (pi's `session_info`, Claude Code's
    /// `custom-title`), else the app's summary (Claude Code's `summary` of
    /// this session's own entries), else the first line of the user's own
    /// first words (not a message the app injected, nor its markup alone:
    /// [`crate::format::message::Message::own_words`]); raw session text,
    /// to be escaped.
    pub title: Option<String>,
}

impl Session {
    /// Reads the session file at `path`, once ([`ONCE`]), for its tree and
    /// its accounts (as `stats` totals them).
    pub fn of(path: &Path) -> Result<Session, LoadError> {
        let repo = Repo::open(
            crate::Source::Path(path.to_path_buf()),
            &crate::repo::Open::default().once(ONCE).tallies(true),
        )?;
        let (facts, counted) = whole_session(&repo, Some(path)).map_err(LoadError::Io)?;
        Ok(Session::of_repo(path, &repo, &facts, counted))
    }

    /// The id [`Session::of_repo`] gives the session of `repo` at `path`,
    /// without its account.
    pub fn id_of(path: &Path, repo: &Repo) -> String {
        head_facts(
            path,
            &repo.start(HEAD).unwrap_or_default(),
            Some(repo.format),
        )
        .0
        .unwrap_or_else(|| stem(path))
    }

    /// What `ls` says of the session `repo`, read from `path`, given the
    /// facts of its whole session and those its total counts (as
    /// [`whole_session`] gives them).
    pub fn of_repo(path: &Path, repo: &Repo, facts: &[Option<Facts>], counted: Vec<Ix>) -> Session {
        let total = Account::of(facts, counted);
        Session::of_total(
            path,
            repo,
            Total {
                first: total.first,
                last: total.last,
                usage: total.usage,
                cost: total.cost,
                unpriced: total.unpriced.keys().cloned().collect(),
            },
        )
    }

    /// The session of `repo` at `path` whose total (as [`Account::of`]
    /// counts it) is `total`.
    pub fn of_total(path: &Path, repo: &Repo, total: Total) -> Session {
        let tree = &repo.tree;
        let branches = crate::refs::listing::Listing::of(&repo.refs, tree, None)
            .rows
            .len();
        // The last title the session was given, bookkeeping or not.
        let named = (0..tree.len() as Ix)
            .filter(|&ix| repo.format.spec().title_tag() == Some(tree.tag(ix)))
            .map(|ix| tree.subject(ix))
            .filter(|s| !s.trim().is_empty())
            .last();
        let title = named
            .map(str::to_string)
            .or_else(|| repo.title.clone())
            .or_else(|| {
                // The user's own first words: not text the app injected
                // (`meta`), nor markup alone (a command, its output, a
                // reminder).
                tree.entries()
                    .filter(|&ix| {
                        tree.node(ix).kind == crate::format::MessageKind::User
                            && tree.tag(ix) != "meta"
                    })
                    .find_map(|ix| repo.entry(ix).ok()?.message.own_words())
            });
        let (id, project) = head_facts(
            path,
            &repo.start(HEAD).unwrap_or_default(),
            Some(repo.format),
        );
        let id = id.unwrap_or_else(|| stem(path));
        Session {
            path: path.to_path_buf(),
            format: repo.format,
            id,
            project,
            started: total.first,
            last: total.last,
            entries: tree.entries().count() as u64,
            branches,
            usage: total.usage,
            cost: total.cost.filter(|_| total.unpriced.is_empty()),
            unpriced: total.unpriced.into_iter().collect(),
            title,
        }
    }
}

/// The session id and project a file records near its start: pi's header
/// (`id`, `cwd`), Codex's `session_meta` (`payload.id`, `payload.cwd`),
/// Claude Code's first line with a `cwd` (its id is the file's name). Read from
/// the file's first [`HEAD`] bytes only, whose lines also tell the format.
/// `known`: the file's format, when it was read already.
pub(super) fn head_facts(
    path: &Path,
    head: &[u8],
    known: Option<Format>,
) -> (Option<String>, Option<String>) {
    let format = known.unwrap_or_else(|| Format::detect(head.split(|&b| b == b'\n')));
    let (id, project) = lines_facts(format, head);
    let project = project.or_else(|| {
        let root = format.spec().project(path)?;
        Some(root.display().to_string())
    });
    (id, project)
}

/// [`head_facts`] from the lines of the head alone.
fn lines_facts(format: Format, head: &[u8]) -> (Option<String>, Option<String>) {
    // yoagent records neither: its lines are not read.
    if format.yoagent_lines() {
        return (None, None);
    }
    // The last line of the head may be cut: only whole lines are read.
    for line in head.split(|&b| b == b'\n') {
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
            continue;
        };
        if let Some(facts) = format.spec().head_facts(&v) {
            return facts;
        }
    }
    (None, None)
}

/// A file's stem, as text.
pub(super) fn stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Why `-s` names no one session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoSession {
    /// No session's id or file name starts so; `searched` folders.
    None {
        /// What was asked for.
        spec: String,
        /// How many session files were looked at.
        searched: usize,
    },
    /// `latest~N` with fewer than N + 1 sessions.
    TooFewSessions {
        /// N.
        back: usize,
        /// How many there are.
        found: usize,
    },
    /// Several sessions match: their files.
    Ambiguous {
        /// What was asked for.
        spec: String,
        /// The files that match, newest first.
        candidates: Vec<PathBuf>,
    },
}

impl std::fmt::Display for NoSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoSession::None { spec, searched } => write!(
                f,
                "no session's id or file name starts with `{spec}` ({searched} session files searched)"
            ),
            NoSession::TooFewSessions { back, found } => write!(
                f,
                "latest~{back} names the session {back} before the latest, and there are only {found}"
            ),
            NoSession::Ambiguous { spec, candidates } => write!(
                f,
                "`{spec}` is the start of {} sessions' ids or file names",
                candidates.len()
            ),
        }
    }
}

impl std::error::Error for NoSession {}

/// The session files of `files` (as [`find`] gives them), the one written
/// last first (the same time: by path).
pub fn newest_first(files: &[Found]) -> Vec<&Path> {
    let mut sessions: Vec<(&Path, Option<std::time::SystemTime>)> = files
        .iter()
        .filter_map(|f| match f {
            Found::File { path, modified, .. } => Some((path.as_path(), *modified)),
            Found::Unreadable { .. } => None,
        })
        .collect();
    sessions.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    sessions.into_iter().map(|s| s.0).collect()
}

/// The id of the session in the file at `path`, as `ls` shows it: the id
/// the file records near its start, else the file's stem.
pub fn id_of(path: &Path) -> String {
    head_facts(path, &file_head(path), None)
        .0
        .unwrap_or_else(|| stem(path))
}

/// The first [`HEAD`] bytes of the file at `path`; none when it cannot be
/// read.
fn file_head(path: &Path) -> Vec<u8> {
    // Never a FIFO's open, which would wait for a writer.
    let Ok(file) = crate::input::open_regular(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len().min(HEAD));
    crate::input::read_at(&file, 0, len).unwrap_or_default()
}

/// The session file `spec` names among `files` (as [`find`] gives them):
/// `latest` (the file written last), `latest~N` (N before it), or the
/// unique session whose id or file stem starts with `spec`.
pub fn resolve(spec: &str, files: &[Found]) -> Result<PathBuf, NoSession> {
    let sessions = newest_first(files);
    let back = match spec.strip_prefix("latest") {
        Some("") => Some(0),
        Some(rest) => rest.strip_prefix('~').and_then(|n| n.parse::<usize>().ok()),
        None => None,
    };
    if let Some(back) = back {
        return sessions
            .get(back)
            .map(|s| s.to_path_buf())
            .ok_or(NoSession::TooFewSessions {
                back,
                found: sessions.len(),
            });
    }
    // Every agent's file name holds its session's id (Claude Code's is the
    // id, pi's and Codex's end with it): only those files are opened to
    // read the id they record, unless none matches so (files renamed, or
    // copied under other names), when every file's head is read.
    let id_starts = |path: &Path| {
        head_facts(path, &file_head(path), None)
            .0
            .is_some_and(|id| id.starts_with(spec))
    };
    let mut candidates: Vec<PathBuf> = sessions
        .iter()
        .filter(|path| {
            let stem = stem(path);
            stem.starts_with(spec) || (stem.contains(spec) && id_starts(path))
        })
        .map(|s| s.to_path_buf())
        .collect();
    if candidates.is_empty() {
        candidates = sessions
            .iter()
            .filter(|path| id_starts(path))
            .map(|s| s.to_path_buf())
            .collect();
    }
    match candidates.len() {
        1 => Ok(candidates.into_iter().next().expect("one candidate")),
        0 => Err(NoSession::None {
            spec: spec.to_string(),
            searched: sessions.len(),
        }),
        _ => Err(NoSession::Ambiguous {
            spec: spec.to_string(),
            candidates,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    fn dirs(roots: &[Root]) -> Vec<(String, bool)> {
        roots
            .iter()
            .map(|r| (r.dir.display().to_string(), r.named))
            .collect()
    }

    #[test]
    fn the_search_path_is_each_agents_folder_then_ysess_path() {
        let roots = search_path(&env(&[("HOME", "/h"), ("YSESS_PATH", "/a:/b::/a")]));
        assert_eq!(
            dirs(&roots),
            [
                ("/h/.pi/agent/sessions".into(), false),
                ("/h/.claude/projects".into(), false),
                ("/h/.config/claude/projects".into(), false),
                ("/h/.codex/sessions".into(), false),
                ("/h/.qwen/projects".into(), false),
                ("/h/.gemini/tmp".into(), false),
                ("/h/.copilot/session-state".into(), false),
                ("/h/.local/share/opencode".into(), false),
                ("/a".into(), true),
                ("/b".into(), true),
            ]
        );
    }

    #[test]
    fn the_agents_variables_move_their_folders() {
        let roots = search_path(&env(&[
            ("HOME", "/h"),
            ("CLAUDE_CONFIG_DIR", "/c1, ~/c2"),
            ("PI_CODING_AGENT_DIR", "~/pi"),
            ("CODEX_HOME", "/x"),
            ("QWEN_HOME", "~/q"),
            ("GEMINI_CLI_HOME", "/g"),
            ("COPILOT_HOME", "~/cp"),
            ("XDG_DATA_HOME", "/d"),
        ]));
        assert_eq!(
            dirs(&roots),
            [
                ("/h/pi/sessions".into(), false),
                ("/c1/projects".into(), false),
                ("/h/c2/projects".into(), false),
                ("/x/sessions".into(), false),
                ("/h/q/projects".into(), false),
                ("/g/.gemini/tmp".into(), false),
                ("/h/cp/session-state".into(), false),
                ("/d/opencode".into(), false),
            ]
        );
        let roots = search_path(&env(&[
            ("HOME", "/h"),
            ("QWEN_HOME", "/ignored"),
            ("QWEN_RUNTIME_DIR", "/r"),
        ]));
        assert!(dirs(&roots).contains(&("/r/projects".into(), false)));
        let roots = search_path(&env(&[
            ("HOME", "/h"),
            ("PI_CODING_AGENT_SESSION_DIR", "/s"),
            ("PI_CODING_AGENT_DIR", "/ignored"),
        ]));
        assert!(dirs(&roots).contains(&("/s".into(), false)));
        assert!(!dirs(&roots).iter().any(|(d, _)| d.starts_with("/ignored")));
    }

    #[test]
    fn subagent_files_are_not_sessions_of_their_own() {
        assert!(is_subagent_file(Path::new(
            "/p/abc/subagents/agent-1.jsonl"
        )));
        assert!(!is_subagent_file(Path::new("/p/abc.jsonl")));
        assert!(is_subagent_file(Path::new(
            "/q/projects/-w/subagents/abc/agent-Explore-call_1.jsonl"
        )));
        assert!(!is_subagent_file(Path::new(
            "/q/projects/-w/chats/abc.jsonl"
        )));
    }
}
