//! What a person sees of an entry, built once for every view: `log`'s rows
//! (from the tree or from the end of the file), the Markdown transcript's
//! headings and the page's outline all read a [`Headline`]; `show`, the
//! Markdown transcript, the page and the TUI's chat draw an entry's body
//! from one [`message::Body`]. How a row or a part is drawn (escaped,
//! painted, padded) is the views' own.

pub mod log;
pub mod message;
pub mod redact;
pub mod reflog;
pub mod status;

// The message as stored, which a view's heading reads (role, model,
// usage), and sizes as a person reads them.
pub use crate::format::message::{Block, Entry, Look, Message, Piece, human_size};

use crate::format::MessageKind;
use crate::refs::Names;
use crate::tree::{Ix, Tree};

/// One entry's headline, as a row of a listing shows it: who wrote it,
/// what names it, its first line. Text here is as stored; a view escapes
/// it when it draws it.
#[derive(Debug, Clone, Default)]
pub struct Headline {
    /// The entry's id, in full.
    pub id: String,
    /// The id as a person reads it ([`Tree::short_id`]).
    pub short: String,
    /// Its parent's id; `None` for a root.
    pub parent: Option<String>,
    /// User, assistant, tool result or custom.
    pub kind: MessageKind,
    /// The model (assistant), the tool (tool result) or the kind (custom).
    pub tag: String,
    /// The first line of its text.
    pub subject: String,
    /// Milliseconds since the epoch; 0 when the entry has no time.
    pub timestamp: u64,
    /// HEAD is this entry.
    pub head: bool,
    /// The branches whose tip it is.
    pub branches: Vec<String>,
    /// The labels that name it.
    pub labels: Vec<String>,
    /// Entries on its root path, itself included (known when the whole
    /// tree was read).
    pub depth: Option<u32>,
    /// Its line in the file (known when the whole tree was read).
    pub line: Option<u64>,
    /// The line as stored (for `--json`), when a view asked for it.
    pub raw: Vec<u8>,
    /// Its tokens and cost, when a view asked for them.
    pub spent: Option<crate::stats::Spent>,
    /// Lines a view shows under it: a Claude Code tool result's subagents,
    /// each with what it used.
    pub notes: Vec<String>,
}

impl Headline {
    /// The row of entry `ix`; with `records`, the parent is the file's own,
    /// which may be one of ysess's records.
    pub fn of(tree: &Tree, names: &Names, ix: Ix, records: bool) -> Headline {
        let node = tree.node(ix);
        let parent = if records {
            tree.raw_parent(ix)
        } else {
            tree.parent(ix)
        };
        Headline {
            id: tree.id(ix).to_string(),
            short: tree.short_id(ix).to_string(),
            parent: parent.map(|p| tree.id(p).to_string()),
            kind: node.kind,
            tag: tree.tag(ix).to_string(),
            subject: tree.subject(ix).to_string(),
            timestamp: node.timestamp,
            head: names.head == Some(ix),
            branches: names.branches(ix).to_vec(),
            labels: names.labels(ix).to_vec(),
            depth: Some(node.depth),
            line: Some(node.line),
            raw: Vec::new(),
            spent: None,
            notes: Vec::new(),
        }
    }

    /// What names it, as decorations list it: HEAD, then branches, then
    /// labels (each as [`label_word`] gives it).
    pub fn words(&self) -> Vec<String> {
        let head = self.head.then(|| "HEAD".to_string());
        head.into_iter()
            .chain(self.branches.iter().cloned())
            .chain(self.labels.iter().map(|l| label_word(l).into_owned()))
            .collect()
    }
}

/// A label as a decoration names it, raw: marked `label: ` where it could
/// be read as HEAD or as an entry id (yoagent takes any label; ysess would
/// refuse such a name), as git marks `tag: v1`.
pub fn label_word(label: &str) -> std::borrow::Cow<'_, str> {
    if label == "HEAD" || label == "@" || crate::format::yoagent::counter_number(label).is_some() {
        std::borrow::Cow::Owned(format!("label: {label}"))
    } else {
        std::borrow::Cow::Borrowed(label)
    }
}

/// Rows made per piece of work when a listing is made on every core.
const ROWS_PER_PIECE: usize = 2048;

/// Makes `make(ix)` for every entry of `order`, on every core when the
/// listing is long, and hands each result to `each` in `order`'s order as
/// soon as it and those before it are made. Memory stays bounded: a few
/// pieces of `ROWS_PER_PIECE` rows are under way at a time
/// ([`crate::input::par::ordered`]). The first error `each` returns stops the
/// making and is returned.
pub fn rows_in_order<T: Send, E>(
    order: &[crate::Ix],
    make: impl Fn(crate::Ix) -> T + Sync,
    mut each: impl FnMut(crate::Ix, T) -> Result<(), E>,
) -> Result<(), E> {
    let workers = crate::input::par::jobs();
    if workers == 1 || order.len() <= ROWS_PER_PIECE {
        return order.iter().try_for_each(|&ix| each(ix, make(ix)));
    }
    let mut failed = None;
    crate::input::par::ordered(
        workers,
        workers * 2,
        order.chunks(ROWS_PER_PIECE),
        |piece: &[crate::Ix]| {
            let made: Vec<T> = piece.iter().map(|&ix| make(ix)).collect();
            (piece, made)
        },
        // Pieces under way when `each` failed still come here: skipped.
        |(piece, made)| {
            if failed.is_some() {
                return false;
            }
            for (&ix, t) in piece.iter().zip(made) {
                if let Err(e) = each(ix, t) {
                    failed = Some(e);
                    return false;
                }
            }
            true
        },
    );
    failed.map_or(Ok(()), Err)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_in_order_and_the_first_error_stops_them() {
        let order: Vec<crate::Ix> = (0..10_000).rev().collect();
        let mut seen = Vec::new();
        rows_in_order(
            &order,
            |ix| ix * 2,
            |ix, v| {
                assert_eq!(v, ix * 2);
                seen.push(ix);
                Ok::<_, ()>(())
            },
        )
        .unwrap();
        assert_eq!(seen, order);
        let mut taken = 0;
        let stopped = rows_in_order(
            &order,
            |ix| ix,
            |ix, _| {
                taken += 1;
                if ix == 5000 { Err(ix) } else { Ok(()) }
            },
        );
        assert_eq!(stopped, Err(5000));
        // 9999 down to 5001, then 5000, and nothing after it.
        assert_eq!(taken, 5000);
    }
}
