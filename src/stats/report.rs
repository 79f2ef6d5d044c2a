//! What `ysess stats` reports, as one query ([`report`]): the groups of
//! entries asked for, each with its account, and the total, which counts
//! the entries several groups share once.

use std::io;
use std::path::Path;

use super::{Account, Facts, accounts_of_paths, group, read};
use crate::format::MessageKind;
use crate::refs::listing::Listing;
use crate::repo::Repo;
use crate::tree::Ix;

/// How the entries are grouped (the doc comments are `stats --by`'s help).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum By {
    /// Each branch, or each revision's path
    #[default]
    Branch,
    /// Each model: its assistant turns and the tool results answering them
    Model,
    /// Each tool: calls and errors
    Tool,
    /// Each local day
    Day,
    /// Each ISO week (`2026-W49`, Monday to Sunday, local time)
    Week,
    /// Each local month (`2026-12`)
    Month,
    /// Each session (with --all)
    Session,
    /// Each project, the folder the agent worked in (with --all)
    Project,
    /// Each agent: claude, pi, codex, yoagent (with --all)
    Agent,
}

impl By {
    /// Whether the grouping is of sessions, not of one session's entries.
    pub fn across_sessions(self) -> bool {
        matches!(self, By::Session | By::Project | By::Agent)
    }
}

/// What a group is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A branch of the session.
    Branch,
    /// The path to a revision given.
    Revision,
    /// A Claude Code subagent, from its own file.
    Subagent,
    /// A model.
    Model,
    /// A day.
    Day,
    /// An ISO week.
    Week,
    /// A month.
    Month,
    /// A session.
    Session,
    /// A project.
    Project,
    /// An agent.
    Agent,
}

impl Kind {
    /// Its name in `--json` (`"type"`).
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Branch => "branch",
            Kind::Revision => "revision",
            Kind::Subagent => "subagent",
            Kind::Model => "model",
            Kind::Day => "day",
            Kind::Week => "week",
            Kind::Month => "month",
            Kind::Session => "session",
            Kind::Project => "project",
            Kind::Agent => "agent",
        }
    }
}

/// One group of entries and what it is called.
#[derive(Debug, Clone)]
pub struct Group {
    /// What the group is.
    pub kind: Kind,
    /// The branch (`None` for a tip without a name), the revision as
    /// given, the subagent's id, the model or the day (`YYYY-MM-DD`).
    pub name: Option<String>,
    /// A branch's or a revision's entry.
    pub tip: Option<Ix>,
    /// The branch HEAD is on.
    pub current: bool,
    /// What its entries used.
    pub account: Account,
}

/// The report: the groups, then the total.
#[derive(Debug, Clone)]
pub struct Report {
    /// In the order they are shown: branches newest tip first, revisions
    /// as given, subagents, models and days sorted by name.
    pub groups: Vec<Group>,
    /// Every entry on some path once; with no revision given, also the
    /// turns of subagents folded into the file or kept in files of their
    /// own (as ccusage counts a session).
    pub total: Account,
}

/// The report of the session `repo`, read from `session` (where a Claude
/// Code session's subagent files are looked for; `None` for standard
/// input): the paths to `revisions` (as typed, and resolved), or every
/// branch when there are none, grouped `by`; days are those of `tz`.
pub fn report(
    repo: &Repo,
    session: Option<&Path>,
    revisions: &[(String, Ix)],
    by: By,
    tz: &jiff::tz::TimeZone,
) -> io::Result<Report> {
    let tree = &repo.tree;
    let every_branch = revisions.is_empty();
    // The paths accounted for: the revisions', or every branch's.
    let paths: Vec<(Option<String>, Ix, bool)> = if every_branch {
        let listing = Listing::of(&repo.refs, tree, None);
        listing
            .rows
            .into_iter()
            .enumerate()
            .map(|(k, l)| (l.name, l.tip, listing.current == Some(k)))
            .collect()
    } else {
        revisions
            .iter()
            .map(|(text, ix)| (Some(text.clone()), *ix, false))
            .collect()
    };
    let mut facts = read(repo)?;
    let tips: Vec<Ix> = paths.iter().map(|p| p.1).collect();
    let mut all = on_paths(tree, &tips);
    let mut groups = Vec::new();
    if by == By::Branch {
        let accounts = accounts_of_paths(&facts, tree, &tips);
        for ((name, tip, current), account) in paths.into_iter().zip(accounts) {
            groups.push(Group {
                kind: if every_branch {
                    Kind::Branch
                } else {
                    Kind::Revision
                },
                name,
                tip: Some(tip),
                current,
                account,
            });
        }
    }
    if every_branch {
        for (id, range) in add_the_rest(repo, session, &mut facts, &mut all) {
            if by == By::Branch {
                groups.push(Group {
                    kind: Kind::Subagent,
                    name: Some(id),
                    tip: None,
                    current: false,
                    account: Account::of(&facts, range),
                });
            }
        }
    }
    let every = || (0..facts.len() as Ix).filter(|&ix| all[ix as usize]);
    let keyed = |kind: Kind, key: &dyn Fn(&Facts) -> Option<String>| {
        group(&facts, every(), key)
            .into_iter()
            .map(|(name, ixs)| Group {
                kind,
                name: Some(name),
                tip: None,
                current: false,
                account: Account::of(&facts, ixs),
            })
            .collect::<Vec<_>>()
    };
    match by {
        By::Branch | By::Tool => {}
        By::Model => groups = keyed(Kind::Model, &|f| f.model.clone()),
        By::Day => groups = keyed(Kind::Day, &|f| day(f.timestamp, tz)),
        By::Week => groups = keyed(Kind::Week, &|f| week(f.timestamp, tz)),
        By::Month => groups = keyed(Kind::Month, &|f| month(f.timestamp, tz)),
        // One session: the groups across sessions are all of it.
        By::Session | By::Project | By::Agent => {}
    }
    let total = Account::of(&facts, every());
    Ok(Report { groups, total })
}

/// Every entry on the path to some entry of `tips`, each once: marked
/// going up from each tip until an entry already marked (a record's path
/// ends at the entry it hangs from).
fn on_paths(tree: &crate::tree::Tree, tips: &[Ix]) -> Vec<bool> {
    let mut all = vec![false; tree.len()];
    for &tip in tips {
        let mut at = Some(tip)
            .filter(|&t| !tree.is_record(t))
            .or(tree.parent(tip));
        while let Some(ix) = at {
            if all[ix as usize] {
                break;
            }
            all[ix as usize] = true;
            at = tree.parent(ix);
        }
    }
    all
}

/// What a whole session's total counts besides its branches: the turns of
/// subagents whose lines are folded into its file (as ccusage does; no
/// branch has them) and, for a Claude Code session read from `session`,
/// its subagents' own files, whose facts are appended to `facts` (each
/// subagent's id and range returned).
fn add_the_rest(
    repo: &Repo,
    session: Option<&Path>,
    facts: &mut Vec<Option<Facts>>,
    all: &mut Vec<bool>,
) -> Vec<(String, std::ops::Range<Ix>)> {
    mark_folded_turns(repo, all);
    let mut subagents = Vec::new();
    if let Some(path) = session {
        for (id, file) in repo.format.spec().subagent_files(path) {
            let Some(sub) = super::subagents::facts_of(&file) else {
                continue; // `ysess fsck` on the file says why
            };
            let start = facts.len();
            facts.extend(sub);
            all.resize(facts.len(), true);
            subagents.push((id, start as Ix..facts.len() as Ix));
        }
    }
    subagents
}

/// Marks the turns of subagents folded into `repo`'s file (Claude Code's
/// sidechain lines) as counted: a whole session's total has them.
fn mark_folded_turns(repo: &Repo, all: &mut [bool]) {
    let tree = &repo.tree;
    for ix in 0..tree.len() as Ix {
        if tree.is_record(ix) && tree.node(ix).kind != MessageKind::Custom {
            all[ix as usize] = true;
        }
    }
}

/// The tips of every branch of `repo`.
fn tips(repo: &Repo) -> Vec<Ix> {
    Listing::of(&repo.refs, &repo.tree, None)
        .rows
        .into_iter()
        .map(|l| l.tip)
        .collect()
}

/// Those of `repo`'s own entries its whole-session total counts: what
/// [`whole_session`] counts of a session without subagents' files. It
/// needs the tree only, not the facts.
pub fn counted_own(repo: &Repo) -> Vec<Ix> {
    let mut all = on_paths(&repo.tree, &tips(repo));
    mark_folded_turns(repo, &mut all);
    (0..all.len() as Ix)
        .filter(|&ix| all[ix as usize])
        .collect()
}

/// The facts of a whole session's entries (its subagents' files appended
/// for a Claude Code session read from `session`), and those its total
/// counts, as [`report`] counts them with no revision given.
pub fn whole_session(
    repo: &Repo,
    session: Option<&Path>,
) -> io::Result<(Vec<Option<Facts>>, Vec<Ix>)> {
    let mut facts = read(repo)?;
    let mut all = on_paths(&repo.tree, &tips(repo));
    add_the_rest(repo, session, &mut facts, &mut all);
    let counted = (0..facts.len() as Ix)
        .filter(|&ix| all[ix as usize])
        .collect();
    Ok((facts, counted))
}

/// The local date and time of a timestamp; none for a missing time.
fn local(ms: u64, tz: &jiff::tz::TimeZone) -> Option<jiff::civil::DateTime> {
    let ts = jiff::Timestamp::from_millisecond(i64::try_from(ms).ok()?).ok()?;
    (ms > 0).then(|| tz.to_datetime(ts))
}

/// The local day of a timestamp, `YYYY-MM-DD`; none for a missing time.
pub fn day(ms: u64, tz: &jiff::tz::TimeZone) -> Option<String> {
    local(ms, tz).map(|d| format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day()))
}

/// The ISO week of a timestamp's local day, `YYYY-Www`.
pub fn week(ms: u64, tz: &jiff::tz::TimeZone) -> Option<String> {
    local(ms, tz).map(|d| {
        let w = d.date().iso_week_date();
        format!("{:04}-W{:02}", w.year(), w.week())
    })
}

/// The local month of a timestamp, `YYYY-MM`.
pub fn month(ms: u64, tz: &jiff::tz::TimeZone) -> Option<String> {
    local(ms, tz).map(|d| format!("{:04}-{:02}", d.year(), d.month()))
}
