//! Comparing two directions of a conversation, or two copies of a file.
//!
//! [`Comparison::of`] finds the fork point of two entries' paths and aligns
//! the turns after it ([`turns`] says how); [`files::changes`] lists the
//! entries added, removed or changed between two copies of one session.

pub mod files;
pub mod turns;

use std::io;

use crate::format::message::Entry;
use crate::repo::Repo;
use crate::tree::Ix;
use turns::{Step, align, render, shape};

/// One side of a comparison: the turns after the fork point.
pub struct Side {
    /// The entry this side ends at.
    pub tip: Ix,
    /// Entries after the fork point, oldest first (ysess records left out).
    pub turns: Vec<Ix>,
    /// Those entries, read whole.
    pub entries: Vec<Entry>,
    /// Their text as the diff compares it ([`turns::render`]).
    pub texts: Vec<String>,
}

/// Two paths compared: where they part, and their turns after it aligned.
pub struct Comparison {
    /// The last entry both paths share.
    pub fork: Option<Ix>,
    /// The first path, after the fork point.
    pub a: Side,
    /// The second path, after the fork point.
    pub b: Side,
    /// The two paths' turns, aligned.
    pub steps: Vec<Step>,
}

impl Comparison {
    /// Compares the path root→`a` with root→`b`, in the user's tree.
    pub fn of(repo: &Repo, a: Ix, b: Ix) -> io::Result<Comparison> {
        let tree = &repo.tree;
        let (path_a, path_b) = (tree.path(a), tree.path(b));
        let shared = path_a
            .iter()
            .zip(&path_b)
            .take_while(|(x, y)| x == y)
            .count();
        let fork = shared.checked_sub(1).map(|k| path_a[k]);
        let side = |path: &[Ix], tip: Ix| -> io::Result<Side> {
            let turns: Vec<Ix> = path[shared..]
                .iter()
                .copied()
                .filter(|&ix| !tree.is_record(ix))
                .collect();
            let entries = turns
                .iter()
                .map(|&ix| repo.entry(ix))
                .collect::<io::Result<Vec<_>>>()?;
            let texts = entries.iter().map(render).collect();
            Ok(Side {
                tip,
                turns,
                entries,
                texts,
            })
        };
        let (a, b) = (side(&path_a, a)?, side(&path_b, b)?);
        let shapes = |s: &Side| {
            s.entries
                .iter()
                .map(|e| shape(&e.message))
                .collect::<Vec<_>>()
        };
        let steps = align(&shapes(&a), &shapes(&b), |i, j| a.texts[i] == b.texts[j]);
        Ok(Comparison { fork, a, b, steps })
    }

    /// Whether the two sides did anything differently.
    pub fn differ(&self) -> bool {
        self.steps
            .iter()
            .any(|s| !matches!(s, Step::Pair { same: true, .. }))
    }

    /// How many steps are (the same, changed, removed, added).
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let mut c = (0, 0, 0, 0);
        for step in &self.steps {
            match step {
                Step::Pair { same: true, .. } => c.0 += 1,
                Step::Pair { same: false, .. } => c.1 += 1,
                Step::OnlyA(_) => c.2 += 1,
                Step::OnlyB(_) => c.3 += 1,
            }
        }
        c
    }

    /// Lines (inserted, deleted) by a step, from A's text to B's.
    pub fn changed_lines(&self, step: Step) -> (usize, usize) {
        let lines = |t: &str| t.lines().count();
        match step {
            Step::Pair { same: true, .. } => (0, 0),
            Step::Pair { a, b, .. } => {
                let diff = similar::TextDiff::from_lines(&self.a.texts[a], &self.b.texts[b]);
                diff.iter_all_changes()
                    .fold((0, 0), |(i, d), c| match c.tag() {
                        similar::ChangeTag::Insert => (i + 1, d),
                        similar::ChangeTag::Delete => (i, d + 1),
                        similar::ChangeTag::Equal => (i, d),
                    })
            }
            Step::OnlyA(a) => (0, lines(&self.a.texts[a])),
            Step::OnlyB(b) => (lines(&self.b.texts[b]), 0),
        }
    }
}
