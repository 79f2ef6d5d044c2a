//! What `ysess stats` reports, as one query ([`report`]): the groups of
//! entries asked for, each with its account, and the total, which counts
//! the entries several groups share once.

use std::io;
use std::path::Path;

use super::{Account, Facts, accounts_of_paths, group, read};
use crate::format::{Format, MessageKind};
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
    let mut all = vec![false; tree.len()];
    let mut groups = Vec::new();
    // Every entry on some path, marked going up from each end until an
    // entry already marked: each entry once, however many paths share it.
    for (_, tip, _) in &paths {
        let mut at = Some(*tip)
            .filter(|&t| !tree.is_record(t))
            .or(tree.parent(*tip));
        while let Some(ix) = at {
            if all[ix as usize] {
                break;
            }
            all[ix as usize] = true;
            at = tree.parent(ix);
        }
    }
    if by == By::Branch {
        let ends: Vec<Ix> = paths.iter().map(|p| p.1).collect();
        let accounts = accounts_of_paths(&facts, tree, &ends);
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
        // The whole session's total counts the turns of subagents whose
        // lines are folded into its file too (as ccusage does); no branch
        // has them.
        for ix in 0..tree.len() as Ix {
            if tree.is_record(ix) && tree.node(ix).kind != MessageKind::Custom {
                all[ix as usize] = true;
            }
        }
        // A Claude Code session's subagents, in files of their own: each is
        // accounted for by name, and the session's total includes them.
        if let (Format::Claude, Some(path)) = (repo.format, session) {
            for (id, file) in crate::format::claude::subagent_files(path) {
                let Some(sub) = super::subagents::facts_of(&file) else {
                    continue; // `ysess fsck` on the file says why
                };
                let start = facts.len();
                facts.extend(sub);
                all.resize(facts.len(), true);
                if by == By::Branch {
                    groups.push(Group {
                        kind: Kind::Subagent,
                        name: Some(id),
                        tip: None,
                        current: false,
                        account: Account::of(&facts, start as Ix..facts.len() as Ix),
                    });
                }
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
    }
    let total = Account::of(&facts, every());
    Ok(Report { groups, total })
}

/// The local day of a timestamp, `YYYY-MM-DD`; none for a missing time.
fn day(ms: u64, tz: &jiff::tz::TimeZone) -> Option<String> {
    let ts = jiff::Timestamp::from_millisecond(i64::try_from(ms).ok()?).ok()?;
    (ms > 0).then(|| {
        ts.to_zoned_datetime(tz.clone())
            .strftime("%Y-%m-%d")
            .to_string()
    })
}
