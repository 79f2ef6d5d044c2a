//! `stats --all`: the accounts of every session found, grouped as asked
//! (by model, tool, day, …), within a window of time; each session read
//! once, on every worker the executor gives.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::sessions::{Found, HEAD, ONCE, head_facts, stem};
use crate::repo::{LoadError, Repo};
use crate::stats::report::{self, By, whole_session};
use crate::stats::{Account, Facts, group};
use crate::tree::Ix;

/// A span of time accounts are kept for, in ms since the epoch (either
/// end open).
#[derive(Debug, Clone, Copy, Default)]
pub struct Window {
    /// At or after.
    pub since: Option<u64>,
    /// At or before.
    pub until: Option<u64>,
}

impl Window {
    fn holds(self, ms: u64) -> bool {
        let open = self.since.is_none() && self.until.is_none();
        open || (ms > 0 && self.since.is_none_or(|t| ms >= t) && self.until.is_none_or(|t| ms <= t))
    }
}

/// Accounts across sessions: one group per key of `by`, sorted by key,
/// and the total.
#[derive(Debug, Clone, Default)]
pub struct Accounts {
    /// Each group's name and account.
    pub groups: Vec<(String, Account)>,
    /// Every session's entries in the window.
    pub total: Account,
    /// Sessions read.
    pub sessions: u64,
}

/// The accounts of the sessions `files` names (as [`find`] gives them),
/// grouped `by` (days, weeks and months in `tz`), of the entries in
/// `window` only; each file is read once, on every core. A session counts
/// as `ysess stats` totals it (every branch; a Claude Code session's
/// subagents, in its file or in files of their own), except that a reply
/// written into several files (Claude Code's `--fork-session` copies the
/// history, usage included, into the new session's file) is counted once,
/// as ccusage counts it: in the file holding its earliest copy (the first
/// found of those at the same time), whose account alone is read again
/// without the others' copies. A file that cannot be read goes to `bad`
/// with why, in the order found; `bad` returning false stops the reading.
pub fn accounts(
    files: Vec<Found>,
    by: By,
    tz: &jiff::tz::TimeZone,
    window: Window,
    mut bad: impl FnMut(&Path, LoadError) -> bool,
) -> Accounts {
    let one = |path: &Path, drop: &hashbrown::HashSet<String>| -> Result<Read, LoadError> {
        account_of(path, by, tz, window, drop)
    };
    let none = hashbrown::HashSet::new();
    let workers = crate::input::par::jobs();
    let mut read: Vec<(PathBuf, Read)> = Vec::new();
    // Each reply's earliest copy: (time, its file's place in `read`).
    let mut first: hashbrown::HashMap<String, (u64, usize)> = hashbrown::HashMap::new();
    let mut copied = false;
    crate::input::par::ordered(
        workers,
        workers * 4,
        files.into_iter(),
        |f| match f {
            Found::File { path, .. } => {
                let r = one(&path, &none);
                (path, r)
            }
            Found::Unreadable { path, error } => (path, Err(LoadError::Io(error))),
        },
        |(path, r)| match r {
            Ok(r) => {
                let at = read.len();
                for (reply, time) in &r.replies {
                    match first.get_mut(reply.as_str()) {
                        None => {
                            first.insert(reply.clone(), (*time, at));
                        }
                        Some(owner) => {
                            copied = true;
                            if *time < owner.0 {
                                *owner = (*time, at);
                            }
                        }
                    }
                }
                read.push((path, r));
                true
            }
            Err(why) => bad(&path, why),
        },
    );
    if copied {
        // The files that hold a copy of a reply another file holds first
        // are read again without those replies.
        let drops: Vec<(usize, hashbrown::HashSet<String>)> = read
            .iter()
            .enumerate()
            .map(|(i, (_, r))| {
                let drop = r
                    .replies
                    .iter()
                    .filter(|(reply, _)| {
                        first
                            .get(reply.as_str())
                            .is_some_and(|&(_, owner)| owner != i)
                    })
                    .map(|(reply, _)| reply.clone())
                    .collect();
                (i, drop)
            })
            .filter(|(_, drop): &(usize, hashbrown::HashSet<String>)| !drop.is_empty())
            .collect();
        for (i, drop) in drops {
            if let Ok(again) = one(&read[i].0, &drop) {
                read[i].1 = again;
            }
        }
    }
    let mut merged = BTreeMap::<String, Account>::new();
    let mut out = Accounts::default();
    for (_, r) in read {
        // A session with no entry in the window is not one of these.
        out.sessions += u64::from(r.total.entries > 0);
        out.total.add(&r.total);
        for (name, account) in r.keyed {
            merged.entry(name).or_default().add(&account);
        }
    }
    out.groups = merged.into_iter().filter(|(_, a)| a.entries > 0).collect();
    out
}

/// One session's accounts for [`accounts`], and the replies it counted
/// (a Claude Code response's `message.id`) with the time of their first
/// line.
struct Read {
    keyed: BTreeMap<String, Account>,
    total: Account,
    replies: Vec<(String, u64)>,
}

fn account_of(
    path: &Path,
    by: By,
    tz: &jiff::tz::TimeZone,
    window: Window,
    drop: &hashbrown::HashSet<String>,
) -> Result<Read, LoadError> {
    type Keyed = BTreeMap<String, Account>;
    let repo = Repo::open(
        crate::Source::Path(path.to_path_buf()),
        &crate::repo::Open::default().once(ONCE).tallies(true),
    )?;
    let (facts, counted) = whole_session(&repo, Some(path)).map_err(LoadError::Io)?;
    let kept: Vec<Ix> = counted
        .into_iter()
        .filter(|&ix| {
            facts[ix as usize].as_ref().is_some_and(|f| {
                window.holds(f.timestamp) && f.response.as_ref().is_none_or(|r| !drop.contains(r))
            })
        })
        .collect();
    let mut replies: hashbrown::HashMap<&str, u64> = hashbrown::HashMap::new();
    for &ix in &kept {
        if let Some(f) = &facts[ix as usize]
            && let Some(r) = &f.response
        {
            let t = replies.entry(r.as_str()).or_insert(f.timestamp);
            *t = (*t).min(f.timestamp);
        }
    }
    let replies = replies
        .into_iter()
        .map(|(r, t)| (r.to_string(), t))
        .collect();
    let total = Account::of(&facts, kept.iter().copied());
    let head = || repo.start(HEAD).unwrap_or_default();
    let mut keyed = Keyed::new();
    let whole = |key: String| Keyed::from([(key, total.clone())]);
    match by {
        By::Session => {
            keyed = whole(
                head_facts(path, &head(), None)
                    .0
                    .unwrap_or_else(|| stem(path)),
            )
        }
        By::Project => {
            let project = head_facts(path, &head(), None).1.unwrap_or_else(|| {
                path.parent()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            });
            keyed = whole(project);
        }
        By::Agent => keyed = whole(repo.format.name().to_string()),
        By::Day | By::Week | By::Month | By::Model => {
            let key = |f: &Facts| match by {
                By::Day => report::day(f.timestamp, tz),
                By::Week => report::week(f.timestamp, tz),
                By::Month => report::month(f.timestamp, tz),
                _ => f.model.clone(),
            };
            for (name, ixs) in group(&facts, kept.iter().copied(), key) {
                keyed.insert(name, Account::of(&facts, ixs));
            }
        }
        By::Branch | By::Tool => {}
    }
    Ok(Read {
        keyed,
        total,
        replies,
    })
}
