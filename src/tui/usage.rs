//! What each reply used and what each path used, read once per read of
//! the file, in the background.

use crate::Ix;
use crate::repo::Repo;
use crate::stats::Spent;

/// What each entry used on its own (as `log --format {tokens_in}` counts
/// it: a Claude Code response on its last line), and what the path from
/// the root to each entry used: a few numbers per entry, not the entries'
/// facts, so memory stays that of the tree.
pub struct Usage {
    /// By entry: what it used on its own.
    pub own: Vec<Option<Spent>>,
    /// By entry: what its path used, itself included.
    pub path: Vec<Spent>,
}

impl Usage {
    /// Reads every entry's usage, on every core.
    pub fn read(repo: &Repo) -> std::io::Result<Usage> {
        let tree = &repo.tree;
        let n = tree.len();
        // Made on every core, in order, as `log` makes its rows.
        let ixs: Vec<Ix> = (0..n as Ix).collect();
        let mut own = Vec::with_capacity(n);
        crate::view::rows_in_order(
            &ixs,
            |ix| crate::stats::spent(repo, ix),
            |_, spent| spent.map(|s| own.push(s)),
        )?;
        // A parent is on an earlier line than its children.
        let none = Spent {
            input: 0,
            output: 0,
            cache_read: 0,
            cache_write: 0,
            cost: None,
        };
        let mut path = vec![none; n];
        for ix in 0..n {
            let before = tree
                .parent(ix as Ix)
                .filter(|&p| (p as usize) < ix)
                .map_or(none, |p| path[p as usize]);
            path[ix] = match own[ix] {
                // Saturating: the numbers come from the file.
                Some(s) if !tree.is_record(ix as Ix) => Spent {
                    input: before.input.saturating_add(s.input),
                    output: before.output.saturating_add(s.output),
                    cache_read: before.cache_read.saturating_add(s.cache_read),
                    cache_write: before.cache_write.saturating_add(s.cache_write),
                    cost: match (before.cost, s.cost) {
                        (None, None) => None,
                        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
                    },
                },
                _ => before,
            };
        }
        Ok(Usage { own, path })
    }
}
