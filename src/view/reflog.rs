//! The HEAD moves ysess recorded, as `ysess reflog` lists them
//! ([`head_moves`]): newest first, each with the branches it left and
//! reached by name.

use crate::format::message::Message;
use crate::format::records::Kind;
use crate::refs::reflog::moves;
use crate::repo::Repo;
use crate::tree::Ix;

/// One HEAD move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadMove {
    /// `HEAD@{n}` is where this move left HEAD from: 1 for the newest.
    pub n: usize,
    /// `checkout`, or `checkout -b` when the move started a branch.
    pub kind: &'static str,
    /// The record that made the move.
    pub record: Ix,
    /// When it was written, milliseconds since the epoch.
    pub timestamp: u64,
    /// HEAD before the move.
    pub from: Ix,
    /// The branch new work landed on before the move.
    pub from_branch: Option<String>,
    /// HEAD after the move.
    pub to: Ix,
    /// The branch new work lands on after the move.
    pub to_branch: Option<String>,
}

/// Every HEAD move of the session, newest first. A branch deleted before a
/// move is no branch of that move's.
pub fn head_moves(repo: &Repo) -> Vec<HeadMove> {
    let name = |branch: Option<Ix>, at: Ix| {
        branch
            .filter(|&b| repo.refs.deleted.iter().all(|d| d.record != b || d.by > at))
            .and_then(|b| branch_name(repo, b))
    };
    moves(&repo.tree)
        .into_iter()
        .rev()
        .enumerate()
        .map(|(k, m)| HeadMove {
            n: k + 1,
            kind: match m.kind.as_str() {
                "ysess.branch" => "checkout -b",
                _ => "checkout",
            },
            record: m.record,
            timestamp: m.timestamp,
            from: m.from,
            from_branch: name(m.from_branch, m.record),
            to: m.to,
            to_branch: name(m.to_branch, m.record),
        })
        .collect()
}

/// The name a `ysess.branch` record gave its branch, live or deleted.
fn branch_name(repo: &Repo, record: Ix) -> Option<String> {
    if let Some(b) = repo.refs.by_record(record) {
        return Some(b.name.clone());
    }
    let Message::Custom { kind, data, .. } = repo.entry(record).ok()?.message else {
        return None;
    };
    match Kind::parse(&kind, &data) {
        Ok(Kind::Branch { name, .. }) => Some(name),
        _ => None,
    }
}
