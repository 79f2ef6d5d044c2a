//! The sessions an archive keeps that the agents no longer have: what
//! `ls`, `-s`, `grep --all`, `stats --all`, the TUI and the Parquet export
//! read from the archive beside the agents' own folders.
//!
//! A copy lies where its live file lay, under the agent's folder
//! ([`super::archive`]'s layout), so a copy is live when the file it was
//! copied from is still there: no session is read to know it. Of a
//! session kept in several versions (`NAME.v2.jsonl`, a database's
//! `opencode.v2.db`), the newest is read. A session of an archived
//! database is live when the live database still holds it.

use std::collections::{HashMap, HashSet};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::archive::Source;
use super::sessions::{Found, Root, find};
use crate::format::Format;

/// The archive the commands read when none is named: `$YSESS_ARCHIVE`,
/// else the default folder ([`super::archive::default_dir`]).
pub fn default_dir(var: &dyn Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    var("YSESS_ARCHIVE")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| super::archive::default_dir(var))
}

/// A copy's name without its version, and the version (1 for the first
/// copy): `s.v2.jsonl` → (`s.jsonl`, 2).
pub fn unversioned(name: &str) -> (String, u32) {
    let (stem, ext) = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => (stem, Some(ext)),
        _ => (name, None),
    };
    let split = |s: &str| {
        let (base, n) = s.rsplit_once(".v").filter(|(b, _)| !b.is_empty())?;
        let digits = !n.is_empty() && n.len() < 9 && n.bytes().all(|b| b.is_ascii_digit());
        let n: u32 = n.parse().ok().filter(|n| digits && *n >= 2)?;
        Some((base.to_string(), n))
    };
    match (split(stem), ext) {
        (Some((base, n)), Some(ext)) => (format!("{base}.{ext}"), n),
        // A name of no extension: `s.v2`.
        (None, _) => split(name).unwrap_or_else(|| (name.to_string(), 1)),
        (Some(_), None) => (name.to_string(), 1),
    }
}

/// The sessions under the archive `dir` that are not live in `sources`
/// (the folders the archive was made from), each once, in the order
/// found; and the archive's unreadable paths.
pub fn deleted(dir: &Path, sources: &[Source]) -> Vec<Found> {
    let found = find(&[Root {
        dir: dir.to_path_buf(),
        named: true,
    }]);
    let plain: PathBuf = dir
        .components()
        .filter(|c| *c != std::path::Component::CurDir)
        .collect();
    let mut held: HashMap<PathBuf, HashSet<PathBuf>> = HashMap::new();
    // Of each session, the newest version: its index in `out`.
    let mut newest: HashMap<(PathBuf, Option<PathBuf>), (u32, usize)> = HashMap::new();
    let mut out: Vec<Option<Found>> = Vec::new();
    for item in found {
        let Found::File { path, .. } = &item else {
            out.push(Some(item));
            continue;
        };
        // A session of a database is the database's file and the
        // session's name in it.
        let (file, inner) = match Format::store_of(path).filter(|s| s.is_file()) {
            Some(store) => {
                let inner = path.strip_prefix(&store).ok().map(Path::to_path_buf);
                (store, inner)
            }
            None => (path.clone(), None),
        };
        // The walk drops a `.` the folder was named with (`./arch`).
        let Ok(under) = file
            .strip_prefix(dir)
            .or_else(|_| file.strip_prefix(&plain))
        else {
            continue;
        };
        // A name not UTF-8 is no version's (the archive makes none so).
        let (base, n) = match under.file_name().and_then(|n| n.to_str()) {
            Some(name) => {
                let (first, n) = unversioned(name);
                (under.with_file_name(first), n)
            }
            None => (under.to_path_buf(), 1),
        };
        if is_live(&base, inner.as_deref(), sources, &mut held) {
            continue;
        }
        let key = (base, inner);
        match newest.get(&key) {
            Some(&(m, _)) if m >= n => {}
            Some(&(_, at)) => {
                out[at] = None;
                newest.insert(key, (n, out.len()));
                out.push(Some(item));
            }
            None => {
                newest.insert(key, (n, out.len()));
                out.push(Some(item));
            }
        }
    }
    out.into_iter().flatten().collect()
}

/// Whether the copy `under` the archive (its first version's name), with
/// the session `inner` of it when it is a database, was copied from a
/// file of `sources` that is still there (a database that still holds
/// the session).
fn is_live(
    under: &Path,
    inner: Option<&Path>,
    sources: &[Source],
    held: &mut HashMap<PathBuf, HashSet<PathBuf>>,
) -> bool {
    sources.iter().any(|source| {
        let Ok(rest) = under.strip_prefix(&source.into) else {
            return false;
        };
        // A file `$YSESS_PATH` names itself is its own source.
        let live = match rest.as_os_str().is_empty() {
            true => source.root.dir.clone(),
            false => source.root.dir.join(rest),
        };
        match inner {
            None => live.is_file(),
            Some(session) => held
                .entry(live.clone())
                .or_insert_with(|| match Format::sessions_in(&live) {
                    Some(Ok(all)) if live.is_file() => all.into_iter().map(|(p, _)| p).collect(),
                    _ => HashSet::new(),
                })
                .contains(&live.join(session)),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_versions_name_gives_its_first_copys_name_and_its_number() {
        assert_eq!(unversioned("s.jsonl"), ("s.jsonl".into(), 1));
        assert_eq!(unversioned("s.v2.jsonl"), ("s.jsonl".into(), 2));
        assert_eq!(unversioned("opencode.v12.db"), ("opencode.db".into(), 12));
        assert_eq!(unversioned("notes.v2"), ("notes".into(), 2));
        // Not versions: a name that only looks like one.
        assert_eq!(unversioned("s.v.jsonl"), ("s.v.jsonl".into(), 1));
        assert_eq!(unversioned("s.v1.jsonl"), ("s.v1.jsonl".into(), 1));
        assert_eq!(unversioned("s.vx2.jsonl"), ("s.vx2.jsonl".into(), 1));
        assert_eq!(unversioned(".v2"), (".v2".into(), 1));
    }
}
