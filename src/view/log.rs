//! What `ysess log` lists: the entries a selection names ([`entries`]),
//! and the fast read of HEAD's last entries from the end of the file
//! ([`tail_rows`]).

use std::path::Path;

use super::Headline;
use crate::refs::revision::RevError;
use crate::repo::Repo;
use crate::tree::Ix;
use crate::tree::graph::display_order;

/// Which entries to list.
#[derive(Debug, Clone, Copy, Default)]
pub struct Selection<'a> {
    /// Revisions and ranges (`A..B`, `A...B`, `^A`); none: HEAD's path.
    pub revs: &'a [String],
    /// Every entry of every branch.
    pub all: bool,
    /// In the graph's order (with no revision: the whole tree).
    pub graph: bool,
    /// ysess's records too, on the paths as the file has them.
    pub markers: bool,
}

impl Selection<'_> {
    /// Whether the whole tree is listed (`--all`, or a graph of no
    /// revision).
    pub fn whole_tree(&self) -> bool {
        self.all || (self.graph && self.revs.is_empty())
    }
}

/// The entries `selection` names, newest first: the whole tree (in the
/// graph's order for a graph), the path to one revision, or what several
/// revisions or a range select together. Records are among them; the
/// caller folds them out unless `markers`.
pub fn entries(repo: &Repo, selection: Selection<'_>) -> Result<Vec<Ix>, RevError> {
    let tree = &repo.tree;
    let revs = selection.revs;
    Ok(if selection.whole_tree() {
        if selection.graph {
            display_order(tree, selection.markers)
        } else {
            (0..tree.len() as Ix).rev().collect()
        }
    } else if revs.is_empty() && tree.head().is_none() {
        Vec::new() // an empty session: nothing to show
    } else if let [rev] = revs
        && !repo.is_range(rev)
    {
        let target = repo.resolve(rev)?;
        let mut path = if selection.markers {
            tree.raw_path(target)
        } else {
            tree.path(target)
        };
        path.reverse();
        path
    } else {
        let texts: Vec<&str> = match revs {
            [] => vec!["HEAD"],
            revs => revs.iter().map(String::as_str).collect(),
        };
        repo.select(&texts, selection.markers)?
    })
}

/// The last `n` entries of HEAD's path in the yoagent session at `path`,
/// newest first, read from the end of the file (`branches`: with the
/// branch names that decorate them; `memos`: the folder where the search
/// for branch records is remembered, see [`crate::refs::memo`]). `None` when the end of the file
/// raises doubts, or an id is long enough to need the whole file to
/// shorten: then the caller reads the whole file, and explains its
/// problems.
pub fn tail_rows(
    path: &Path,
    n: usize,
    branches: bool,
    memos: Option<&Path>,
) -> Option<Vec<Headline>> {
    let entries = crate::refs::tail::head_path(path, n, branches, memos).ok()??;
    // A long id is shortened to the prefix no other id shares, which only
    // the whole file tells.
    if entries
        .iter()
        .any(|e| e.id.len() > crate::tree::SHORT_ID_LEN)
    {
        return None;
    }
    Some(
        entries
            .into_iter()
            .enumerate()
            .map(|(k, e)| Headline {
                short: e.id.clone(),
                id: e.id,
                parent: e.parent,
                kind: e.kind,
                tag: e.tag,
                subject: e.subject,
                timestamp: e.timestamp,
                head: k == 0,
                branches: Vec::new(),
                labels: e.labels,
                depth: None,
                line: None,
                raw: e.raw,
                spent: None,
                notes: Vec::new(),
            })
            .collect(),
    )
}
