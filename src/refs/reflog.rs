//! The reflog: every HEAD move that ysess recorded, read back from the
//! records it appended.
//!
//! HEAD is where the app that owns the file resumes: the entry on the last
//! line, or the entry a record on the last line hangs from. Each command
//! that writes appends its records together, one run of record lines with
//! one timestamp; the run moved HEAD when HEAD, or the branch new work
//! lands on, differs after it from before it. `checkout` and `checkout -b` move it; `branch NAME`
//! and `tag` put it back where it was, so they are no move. Work an agent
//! appends moves HEAD too, but that is the conversation, not ysess's: it
//! shows in a move's `from`, which is HEAD just before the move, wherever
//! the agent had taken it.

use crate::tree::{Ix, Tree};

/// The record kinds whose runs can move HEAD.
const MOVING: [&str; 2] = ["ysess.checkout", "ysess.branch"];

/// One HEAD move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    /// The last record of the run that made the move.
    pub record: Ix,
    /// The kind of the run's last checkout or branch record:
    /// `ysess.checkout`, or `ysess.branch` for `checkout -b`.
    pub kind: String,
    /// When it was written, as stored (milliseconds since the epoch).
    pub timestamp: u64,
    /// HEAD just before the move.
    pub from: Ix,
    /// HEAD just after it.
    pub to: Ix,
    /// The `ysess.branch` record that the new work landed below, before
    /// and after the move (`None`: no branch).
    pub from_branch: Option<Ix>,
    /// The branch new work lands on after the move (its record).
    pub to_branch: Option<Ix>,
}

/// Every HEAD move in the file, oldest first.
pub fn moves(tree: &Tree) -> Vec<Move> {
    let n = tree.len();
    let head_at = |ix: Ix| {
        if tree.is_record(ix) {
            tree.parent(ix)
        } else {
            Some(ix)
        }
    };
    // The innermost branch record above each line, self included: parents
    // come before children, so one forward pass finds them all.
    let mut branch_of: Vec<Option<Ix>> = Vec::with_capacity(n);
    for ix in 0..n as Ix {
        let own = (tree.is_record(ix) && tree.tag(ix) == "ysess.branch").then_some(ix);
        let inherited = tree.raw_parent(ix).and_then(|p| branch_of[p as usize]);
        branch_of.push(own.or(inherited));
    }
    // File order: the index's, except that records kept beside an app's
    // file ([`crate::refs::store`]) come after the app's, and stand where
    // their line places them.
    let mut order: Vec<Ix> = (0..n as Ix).collect();
    order.sort_by_key(|&ix| (tree.node(ix).line, ix));
    let mut moves = Vec::new();
    let mut k = 0;
    while k < n {
        if !tree.is_record(order[k]) || k == 0 {
            k += 1;
            continue;
        }
        let start = k;
        let written = tree.node(order[k]).timestamp;
        while k < n && tree.is_record(order[k]) && tree.node(order[k]).timestamp == written {
            k += 1;
        }
        let (before, last) = (order[start - 1], order[k - 1]);
        let Some(mover) = (start..k)
            .rev()
            .map(|r| order[r])
            .find(|&r| MOVING.contains(&tree.tag(r)))
        else {
            continue;
        };
        let (Some(from), Some(to)) = (head_at(before), head_at(last)) else {
            continue;
        };
        let (from_branch, to_branch) = (branch_of[before as usize], branch_of[last as usize]);
        if (from, from_branch) == (to, to_branch) {
            continue;
        }
        moves.push(Move {
            record: last,
            kind: tree.tag(mover).to_string(),
            timestamp: tree.node(mover).timestamp,
            from,
            to,
            from_branch,
            to_branch,
        });
    }
    moves
}

/// The heads the moves left, newest move first: what `HEAD@{1}`,
/// `HEAD@{2}`, … name.
pub fn previous_heads(tree: &Tree) -> Vec<Ix> {
    moves(tree).iter().rev().map(|m| m.from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::MessageKind;
    use crate::tree::{NewEntry, TreeBuilder};

    /// `(id, parent, record kind, time)` in file order; a kind makes a
    /// record, and the records a command writes share their time.
    fn tree(entries: &[(&str, Option<&str>, Option<&str>, u64)]) -> Tree {
        let mut builder = TreeBuilder::default();
        for (line, &(id, parent, kind, timestamp)) in entries.iter().enumerate() {
            builder
                .push(NewEntry {
                    id,
                    parent,
                    label: None,
                    timestamp,
                    kind: if kind.is_some() {
                        MessageKind::Custom
                    } else {
                        MessageKind::User
                    },
                    line: line as u64 + 1,
                    offset: 0,
                    len: 0,
                    tag: kind,
                    subject: None,
                    record: kind.is_some(),
                    target: None,
                })
                .expect("test trees are valid");
        }
        builder.finish()
    }

    fn ids(t: &Tree, m: &Move) -> (String, String) {
        (t.id(m.from).to_string(), t.id(m.to).to_string())
    }

    #[test]
    fn checkouts_move_head_and_branch_plus_stay_does_not() {
        let t = tree(&[
            ("e1", None, None, 0),
            ("e2", Some("e1"), None, 1),
            ("e3", Some("e2"), None, 2),
            // checkout e1
            ("e4", Some("e1"), Some("ysess.checkout"), 3),
            // an agent resumed there
            ("e5", Some("e4"), None, 4),
            // branch lib e2: the branch record, then a checkout that stays
            ("e6", Some("e2"), Some("ysess.branch"), 5),
            ("e7", Some("e5"), Some("ysess.checkout"), 5),
            // checkout -b side e3
            ("e8", Some("e3"), Some("ysess.branch"), 6),
            // checkout lib (no work yet: hangs from the branch record)
            ("e9", Some("e6"), Some("ysess.checkout"), 7),
        ]);
        let moves = moves(&t);
        let got: Vec<_> = moves.iter().map(|m| ids(&t, m)).collect();
        assert_eq!(
            got,
            [
                ("e3".into(), "e1".into()),
                ("e5".into(), "e3".into()),
                ("e3".into(), "e2".into()),
            ]
        );
        assert_eq!(moves[1].kind, "ysess.branch");
        assert_eq!(moves[1].to_branch, t.find("e8"));
        assert_eq!(moves[2].from_branch, t.find("e8"));
        assert_eq!(moves[2].to_branch, t.find("e6"));
        assert_eq!(moves[0].timestamp, 3);
        assert_eq!(moves[2].timestamp, 7);
        let previous: Vec<&str> = previous_heads(&t).iter().map(|&ix| t.id(ix)).collect();
        assert_eq!(previous, ["e3", "e5", "e3"]);
    }

    #[test]
    fn a_switch_between_branches_at_one_entry_is_a_move() {
        let t = tree(&[
            ("e1", None, None, 0),
            ("e2", Some("e1"), Some("ysess.branch"), 1),
            ("e3", Some("e1"), Some("ysess.checkout"), 2),
        ]);
        let moves = moves(&t);
        assert_eq!(moves.len(), 2);
        assert_eq!(ids(&t, &moves[1]), ("e1".into(), "e1".into()));
        assert_eq!(moves[1].from_branch, t.find("e2"));
        assert_eq!(moves[1].to_branch, None);
    }

    #[test]
    fn no_records_no_moves() {
        let t = tree(&[("e1", None, None, 0), ("e2", Some("e1"), None, 1)]);
        assert!(moves(&t).is_empty());
        assert!(moves(&tree(&[])).is_empty());
    }
}
