//! How a Gemini CLI file joins the tree. Gemini CLI's lines name no parent:
//! it reads a file into the list of its messages, line by line, and so
//! does ysess, keeping the list's order as the tree:
//!
//! - a message whose id is new continues the conversation: its parent is
//!   the last message of the list so far that a line of the file holds;
//! - a message whose id was seen is that message restated (Gemini CLI
//!   rewrites a reply as its tool calls finish and its tokens come): the
//!   entry keeps its place and reads from the later line;
//! - `{"$rewindTo": id}` drops that message and what follows it from the
//!   list, so the next message starts a branch beside them (the dropped
//!   lines stay in the file and in the tree);
//! - `{"$set": {"messages": […]}}` makes the list those messages (a resumed
//!   session writes its whole history so; ids no line holds, such as the
//!   context Gemini CLI opens a chat with, are passed over).

use crate::format::Moves;
use crate::tree::{Ix, Link, NewEntry, TreeBuilder};

/// The conversation as the file has laid it out so far.
#[derive(Default)]
pub(crate) struct Join {
    /// Message ids, in order.
    list: Vec<Box<str>>,
}

impl Join {
    /// Joins an entry: `Ok((ix, true))` when it restates an entry already
    /// in the tree.
    pub(crate) fn push(
        &mut self,
        builder: &mut TreeBuilder,
        e: NewEntry<'_>,
    ) -> Result<(Ix, bool), Link> {
        if let Some(ix) = builder.find(e.id) {
            builder.restate(ix, e);
            return Ok((ix, true));
        }
        let parent = self
            .list
            .iter()
            .rev()
            .find_map(|id| builder.find(id))
            .map(|ix| builder.id(ix).to_string());
        let ix = builder.push(NewEntry {
            parent: parent.as_deref(),
            ..e
        })?;
        self.list.push(Box::from(e.id));
        Ok((ix, false))
    }

    /// The list moved: `false` when a rewind names a message the list does
    /// not hold (Gemini CLI then leaves the list as it is).
    pub(crate) fn moved(&mut self, moves: Moves) -> bool {
        match moves {
            Moves::RewindTo(id) => match self.list.iter().rposition(|m| *m == id) {
                Some(at) => {
                    self.list.truncate(at);
                    true
                }
                None => false,
            },
            Moves::History(ids) => {
                self.list = ids;
                true
            }
        }
    }
}
