//! `ysess archive`: every session the agents keep, copied into one folder
//! that only grows, so that an app deleting or rewriting its files loses
//! nothing.
//!
//! The layout: `DIR/<agent>/<the file's path under the agent's folder>`
//! (`claude/-home-me-app/<id>.jsonl`, with its
//! `<id>/subagents/agent-*.jsonl` beside it), and the files of
//! `$YSESS_PATH` under `DIR/path/<their absolute path>`. A session whose
//! history was rewritten gets a new version beside the old one,
//! `NAME.v2.jsonl` (`.v3`, …), which later growth goes to. `.manifest`
//! remembers each live file's size and time as last archived, so a run
//! over unchanged sessions costs a directory walk; it is only a cache,
//! and a run without it reads the copies instead.
//!
//! A database an agent keeps its sessions in (OpenCode's `opencode.db`)
//! is copied by SQLite's online backup ([`crate::write::database`]): a
//! new backup replaces the last copy only when it holds every row that
//! copy held; one that lost a row (a session the app deleted) becomes a
//! new version (`opencode.v2.db`), the old kept. A store of many files
//! (OpenCode's older `storage/` folder) is not copied: [`Report::skipped`]
//! names each such store once.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};

use super::sessions::{Found, Root, find};
use crate::check::digest::{Change, Digest, compare};
use crate::format::Format;
use crate::write::archive as files;
use crate::write::database;
use crate::write::output::Output;

/// The manifest's name in the archive.
pub const MANIFEST: &str = ".manifest";

/// The archive's folder when none is named: `$XDG_DATA_HOME/ysess/archive`,
/// else `~/.local/share/ysess/archive`.
pub fn default_dir(var: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    set("XDG_DATA_HOME")
        .filter(|d| d.is_absolute())
        .or_else(|| set("HOME").map(|h| h.join(".local/share")))
        .map(|d| d.join("ysess/archive"))
}

/// A folder sessions are archived from, and the folder of the archive
/// they go to (`claude`, …, `path/<the folder>`).
#[derive(Debug, Clone)]
pub struct Source {
    /// Where the agent keeps its sessions.
    pub root: Root,
    /// The agent's format, whose subagents' files are looked for beside
    /// each session (every format's in `$YSESS_PATH`'s folders).
    pub format: Option<Format>,
    /// Where they go, relative to the archive.
    pub into: PathBuf,
}

/// Each agent's folders, then `$YSESS_PATH`'s, as `ls` looks in them.
pub fn sources(var: &dyn Fn(&str) -> Option<OsString>) -> Vec<Source> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    let home = set("HOME").map(PathBuf::from);
    let mut out: Vec<Source> = Format::ALL
        .into_iter()
        .flat_map(|f| {
            f.spec()
                .session_dirs(&set, home.as_deref())
                .into_iter()
                .map(move |dir| Source {
                    root: Root { dir, named: false },
                    format: Some(f),
                    into: PathBuf::from(f.name()),
                })
        })
        .collect();
    if let Some(path) = set("YSESS_PATH") {
        out.extend(
            std::env::split_paths(&path)
                .filter(|d| d.is_absolute())
                .map(|dir| Source {
                    into: Path::new("path").join(visible(&dir)),
                    root: Root { dir, named: true },
                    format: None,
                }),
        );
    }
    out
}

/// A folder of `$YSESS_PATH` as the archive names it: its path without
/// its root, a name's leading `.` written `%2E` (and `%` as `%25`), so
/// that no folder in the archive is hidden from the walk every command
/// makes of it (`/home/me/.local/app` → `home/me/%2Elocal/app`).
fn visible(path: &Path) -> PathBuf {
    relative(path)
        .components()
        .map(|c| {
            let name = c.as_os_str().to_string_lossy().replace('%', "%25");
            match name.strip_prefix('.') {
                Some(rest) => format!("%2E{rest}"),
                None => name,
            }
        })
        .collect()
}

/// `path` without its root (`/home/me` → `home/me`).
fn relative(path: &Path) -> PathBuf {
    path.components()
        .filter(|c| matches!(c, std::path::Component::Normal(_)))
        .collect()
}

/// What happened to one live file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Copied for the first time.
    New,
    /// Its new bytes appended to its copy.
    Grew(u64),
    /// Its history was rewritten: copied whole as a new version.
    Version,
    /// Nothing new.
    Unchanged,
}

/// One live file archived.
#[derive(Debug, Clone)]
pub struct Archived {
    /// The live file.
    pub path: PathBuf,
    /// Its copy, relative to the archive.
    pub copy: PathBuf,
    /// What was done.
    pub outcome: Outcome,
}

/// A run's result.
#[derive(Debug, Default)]
pub struct Report {
    /// Every live file, in the order found.
    pub files: Vec<Archived>,
    /// Files that could not be read or archived, and why.
    pub failed: Vec<(PathBuf, io::Error)>,
    /// Stores not copied (a database), each once.
    pub skipped: BTreeSet<PathBuf>,
    /// Files archived before that are no longer live.
    pub gone: usize,
}

/// What the manifest keeps of a live file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Seen {
    live: PathBuf,
    copy: PathBuf,
    bytes: u64,
    modified_ns: u128,
}

fn read_manifest(dir: &Path) -> BTreeMap<PathBuf, Seen> {
    let Ok(file) = std::fs::File::open(dir.join(MANIFEST)) else {
        return BTreeMap::new();
    };
    BufReader::new(file)
        .lines()
        .map_while(Result::ok)
        .filter_map(|l| serde_json::from_str::<Seen>(&l).ok())
        .map(|s| (s.live.clone(), s))
        .collect()
}

fn write_manifest(dir: &Path, seen: &BTreeMap<PathBuf, Seen>) -> io::Result<()> {
    use std::io::Write;
    // Whole, then written at once (the output is not buffered).
    let mut text = Vec::with_capacity(seen.len() * 256);
    for s in seen.values() {
        serde_json::to_writer(&mut text, s).map_err(io::Error::other)?;
        text.push(b'\n');
    }
    let mut out = Output::create(&dir.join(MANIFEST), &[], None)?;
    out.write_all(&text)?;
    out.finish()?;
    Ok(())
}

/// The live files under `source`: each session and its subagents' files,
/// and each database sessions are kept in, once; none inside the archive
/// `dir`.
fn live_files(source: &Source, root: &Path, dir: &Path, report: &mut Report) -> Vec<PathBuf> {
    // The archive's own files, however the walk spells them: `dir` is
    // canonical, the walk's paths are under the folder as named.
    let in_archive = |path: &Path| {
        path.starts_with(dir)
            || (path.strip_prefix(&source.root.dir))
                .is_ok_and(|under| root.join(under).starts_with(dir))
    };
    let mut out = Vec::new();
    for found in find(std::slice::from_ref(&source.root)) {
        match found {
            Found::File { path, .. } => {
                if in_archive(&path) {
                    continue;
                }
                if let Some(store) = Format::store_of(&path) {
                    if database::is_sqlite(&store) {
                        if !out.contains(&store) {
                            out.push(store);
                        }
                    } else {
                        report.skipped.insert(store);
                    }
                    continue;
                }
                // Only the agent's own: another format's would open each
                // session to look for its id.
                let formats =
                    (source.format.as_ref()).map_or(&Format::ALL[..], std::slice::from_ref);
                let kept_with: Vec<PathBuf> = formats
                    .iter()
                    .flat_map(|f| f.spec().kept_with(&path))
                    .collect();
                out.push(path);
                out.extend(kept_with);
            }
            Found::Unreadable { path, error } => report.failed.push((path, error)),
        }
    }
    out
}

/// Archives every live file of `sources` into `dir` (made if needed),
/// under its lock; `waiting` is called when another run holds it.
pub fn archive(dir: &Path, sources: &[Source], waiting: impl FnOnce()) -> io::Result<Report> {
    let lock = files::lock(dir, waiting)?;
    let dir = dir.canonicalize()?;
    let mut seen = read_manifest(&dir);
    let mut report = Report::default();
    let mut done = BTreeSet::new();
    let mut changed = false;
    for source in sources {
        let root = source
            .root
            .dir
            .canonicalize()
            .unwrap_or(source.root.dir.clone());
        for path in live_files(source, &root, &dir, &mut report) {
            if !done.insert(path.clone()) {
                continue;
            }
            let under = path.strip_prefix(&source.root.dir).unwrap_or(&path);
            let under = if under == path {
                path.strip_prefix(&root).unwrap_or(&path)
            } else {
                under
            };
            let copy = source.into.join(relative(under));
            let archived = if database::is_sqlite(&path) {
                one_database(&dir, &path, copy, seen.get(&path))
            } else {
                one(&dir, &path, copy, seen.get(&path))
            };
            match archived {
                Ok((archived, now)) => {
                    if seen.get(&path) != Some(&now) {
                        seen.insert(path.clone(), now);
                        changed = true;
                    }
                    report.files.push(archived);
                }
                // The agent deleted it since the walk found it: gone, as
                // if the walk had not.
                Err(e) if e.kind() == io::ErrorKind::NotFound && !path.exists() => {
                    done.remove(&path);
                }
                Err(e) => report.failed.push((path, e)),
            }
        }
    }
    report.gone = seen.keys().filter(|p| !done.contains(*p)).count();
    // A run that found nothing new leaves the manifest as it was.
    if changed {
        write_manifest(&dir, &seen)?;
    }
    drop(lock);
    Ok(report)
}

/// The copy's versions: `NAME.jsonl`, `NAME.v2.jsonl`, …
fn version(copy: &Path, n: u32) -> PathBuf {
    if n < 2 {
        return copy.to_path_buf();
    }
    // Built of the name's own bytes: a name not UTF-8 keeps them.
    let mut name = copy.file_stem().map(OsString::from).unwrap_or_default();
    name.push(format!(".v{n}"));
    if let Some(ext) = copy.extension() {
        name.push(".");
        name.push(ext);
    }
    copy.with_file_name(name)
}

/// The last version of `copy` in the archive, and the number the next
/// takes.
fn last_version(dir: &Path, copy: &Path) -> (Option<PathBuf>, u32) {
    let mut n = 1;
    while dir.join(version(copy, n + 1)).exists() {
        n += 1;
    }
    let last = version(copy, n);
    (dir.join(&last).exists().then_some(last), n + 1)
}

fn digest_of(path: &Path) -> io::Result<Digest> {
    crate::check::digest::of(crate::input::open_regular(path)?)
}

/// A live file's size and time of last change, as the manifest keeps
/// them; with `log`, its write-ahead log's added (a database's).
fn stamp(path: &Path, log: bool) -> io::Result<(u64, u128)> {
    let of = |meta: &std::fs::Metadata| {
        let ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        (meta.len(), ns)
    };
    let (mut bytes, mut ns) = of(&std::fs::metadata(path)?);
    if log {
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        if let Ok(meta) = std::fs::metadata(PathBuf::from(wal)) {
            let (b, n) = of(&meta);
            bytes += b;
            ns = ns.max(n);
        }
    }
    Ok((bytes, ns))
}

/// What [`one`] and [`one_database`] hand back: the live file, where it
/// went and what was done, and what the manifest keeps of it.
struct Done<'a> {
    dir: &'a Path,
    path: &'a Path,
    bytes: u64,
    modified_ns: u128,
}

impl<'a> Done<'a> {
    /// The live file `path`'s stamp (`log`: its write-ahead log's
    /// added), and what the manifest last saw of it (`before`) when its
    /// copy is still there.
    fn begin(
        dir: &'a Path,
        path: &'a Path,
        before: Option<&'a Seen>,
        log: bool,
    ) -> io::Result<(Done<'a>, Option<&'a Seen>)> {
        let (bytes, modified_ns) = stamp(path, log)?;
        let done = Done {
            dir,
            path,
            bytes,
            modified_ns,
        };
        Ok((done, before.filter(|s| dir.join(&s.copy).is_file())))
    }

    /// Whether the file is as the manifest last saw it.
    fn as_seen(&self, seen: &Seen) -> bool {
        seen.bytes == self.bytes && seen.modified_ns == self.modified_ns
    }

    fn to(&self, copy: PathBuf, outcome: Outcome) -> io::Result<(Archived, Seen)> {
        if outcome != Outcome::Unchanged && self.modified_ns > 0 {
            let ns = u64::try_from(self.modified_ns).unwrap_or(u64::MAX);
            let time = UNIX_EPOCH + std::time::Duration::from_nanos(ns);
            files::keep_time(&self.dir.join(&copy), time)?;
        }
        let seen = Seen {
            live: self.path.to_path_buf(),
            copy: copy.clone(),
            bytes: self.bytes,
            modified_ns: self.modified_ns,
        };
        let archived = Archived {
            path: self.path.to_path_buf(),
            copy,
            outcome,
        };
        Ok((archived, seen))
    }
}

/// Archives the database `path` to `copy` (relative to the archive `dir`),
/// as the manifest last saw it (`before`): a backup, which replaces the
/// last version when it holds every row that version held, else becomes
/// the next.
fn one_database(
    dir: &Path,
    path: &Path,
    copy: PathBuf,
    before: Option<&Seen>,
) -> io::Result<(Archived, Seen)> {
    let (done, before) = Done::begin(dir, path, before, true)?;
    if let Some(s) = before.filter(|s| done.as_seen(s)) {
        return done.to(s.copy.clone(), Outcome::Unchanged);
    }
    let (last, next) = last_version(dir, &copy);
    let Some(last) = last else {
        database::backup(path, &dir.join(&copy))?;
        return done.to(copy, Outcome::New);
    };
    // The backup is made beside the last version, under a name of its own
    // (`.NAME.new`), then put in place or kept as the next version.
    let fresh = dir.join(&last).with_file_name(format!(
        ".{}.new",
        last.file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default()
    ));
    let made = database::backup(path, &fresh)?;
    let old = dir.join(&last);
    if digest_of(&fresh)? == digest_of(&old)? {
        std::fs::remove_file(&fresh)?;
        done.to(last, Outcome::Unchanged)
    } else if database::holds_all(&fresh, &old, Format::history_tables(path))? {
        let was = std::fs::metadata(&old)?.len();
        files::replace(&fresh, &old)?;
        done.to(last, Outcome::Grew(made.saturating_sub(was)))
    } else {
        let new = version(&copy, next);
        files::replace(&fresh, &dir.join(&new))?;
        done.to(new, Outcome::Version)
    }
}

/// Archives the live file `path` to `copy` (relative to the archive
/// `dir`), as the manifest last saw it (`before`).
fn one(
    dir: &Path,
    path: &Path,
    copy: PathBuf,
    before: Option<&Seen>,
) -> io::Result<(Archived, Seen)> {
    let (done, before) = Done::begin(dir, path, before, false)?;
    if let Some(s) = before.filter(|s| done.as_seen(s)) {
        return done.to(s.copy.clone(), Outcome::Unchanged);
    }
    // The copy this file went to last, then the newest version on disk
    // (a run killed after making a version, before its manifest).
    let (newest, next) = last_version(dir, &copy);
    let mut candidates: Vec<PathBuf> = before.map(|s| s.copy.clone()).into_iter().collect();
    candidates.extend(newest.filter(|n| !candidates.contains(n)));
    if candidates.is_empty() {
        files::create(
            &dir.join(&copy),
            &mut crate::input::open_regular(path)?,
            path,
        )?;
        return done.to(copy, Outcome::New);
    }
    for last in candidates {
        let digest = digest_of(&dir.join(&last))?;
        // One open of the live file for the proof and the copy: an app
        // that replaces the file meanwhile leaves this one as it was, and
        // exactly the bytes the proof saw are appended.
        let mut live = crate::input::open_regular(path)?;
        match compare(&mut live, &digest)? {
            Change::Unchanged => return done.to(last, Outcome::Unchanged),
            Change::Appended(more) => {
                live.seek(SeekFrom::Start(digest.bytes))?;
                let mut grown = (&mut live).take(more);
                let n = files::append(&dir.join(&last), digest.bytes, &mut grown)?;
                return done.to(last, Outcome::Grew(n));
            }
            Change::Rewritten => {}
        }
    }
    let new = version(&copy, next);
    files::create(
        &dir.join(&new),
        &mut crate::input::open_regular(path)?,
        path,
    )?;
    done.to(new, Outcome::Version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_of_ysess_path_is_named_with_no_hidden_part() {
        assert_eq!(
            visible(Path::new("/home/me/.local/share/app")),
            Path::new("home/me/%2Elocal/share/app")
        );
        assert_eq!(
            visible(Path::new("/srv/100%/..x")),
            Path::new("srv/100%25/%2E.x")
        );
    }

    #[test]
    fn versions_go_before_the_extension() {
        let p = Path::new("claude/p/s.jsonl");
        assert_eq!(version(p, 1), p);
        assert_eq!(version(p, 2), Path::new("claude/p/s.v2.jsonl"));
        assert_eq!(
            version(Path::new("gemini/chats/session-a.json"), 3),
            Path::new("gemini/chats/session-a.v3.json")
        );
    }

    #[test]
    fn the_default_folder_follows_xdg_data_home_else_home() {
        let xdg = |n: &str| match n {
            "XDG_DATA_HOME" => Some("/data".into()),
            "HOME" => Some("/home/me".into()),
            _ => None,
        };
        assert_eq!(
            default_dir(&xdg),
            Some(PathBuf::from("/data/ysess/archive"))
        );
        let home = |n: &str| (n == "HOME").then(|| "/home/me".into());
        assert_eq!(
            default_dir(&home),
            Some(PathBuf::from("/home/me/.local/share/ysess/archive"))
        );
    }
}
