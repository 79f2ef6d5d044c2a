//! The branches as `ysess branch` lists them (and `stats` accounts for
//! them): named branches, then every other tip of the user's tree, newest
//! tip first, with the one HEAD is on.

use super::Refs;
use crate::tree::{Ix, Tree};

/// One line of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listed {
    /// The branch's name; `None` for a tip no branch names (shown by its id).
    pub name: Option<String>,
    /// Its tip.
    pub tip: Ix,
    /// HEAD is on no branch's tip: this line says where it is.
    pub detached: bool,
}

/// Every branch, and the one HEAD is on.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Newest tip first; on the same tip, by name.
    pub rows: Vec<Listed>,
    /// The row HEAD is on: the branch whose tip HEAD is that the last line
    /// grew under, else any row whose tip HEAD is.
    pub current: Option<usize>,
}

impl Listing {
    /// Named branches, then every other tip of the user's tree; with
    /// `contains`, only the rows whose path goes through it.
    pub fn of(refs: &Refs, tree: &Tree, contains: Option<Ix>) -> Listing {
        let head = tree.head();
        let mut rows: Vec<Listed> = refs
            .branches
            .iter()
            .map(|b| Listed {
                name: Some(b.name.clone()),
                tip: b.tip,
                detached: false,
            })
            .collect();
        let named: hashbrown::HashSet<Ix> = rows.iter().map(|l| l.tip).collect();
        rows.extend(
            tree.tips()
                .filter(|ix| !named.contains(ix))
                .map(|tip| Listed {
                    name: None,
                    tip,
                    detached: false,
                }),
        );
        rows.sort_by_key(|l| (std::cmp::Reverse(l.tip), l.name.clone()));
        if let Some(target) = contains {
            rows.retain(|l| tree.is_ancestor(target, l.tip));
        }
        let on = refs.current(tree).filter(|b| Some(b.tip) == head);
        let current = head.and_then(|h| {
            let by_name = on.and_then(|b| {
                rows.iter()
                    .position(|l| l.name.as_deref() == Some(b.name.as_str()))
            });
            by_name.or_else(|| rows.iter().position(|l| l.tip == h))
        });
        Listing { rows, current }
    }

    /// HEAD anywhere but at a row's tip is on no branch: detached, as git
    /// says, listed first.
    pub fn with_detached_head(mut self, tree: &Tree) -> Listing {
        if let (None, Some(h)) = (self.current, tree.head()) {
            self.rows.insert(
                0,
                Listed {
                    name: None,
                    tip: h,
                    detached: true,
                },
            );
            self.current = Some(0);
        }
        self
    }
}
