//! What a format's own code asks of the session it reads. The open session
//! ([`crate::repo::Repo`]) answers; a format names only this, never the
//! layers built on it, so the format folders sit below the repository that
//! opens them.

use std::any::Any;
use std::borrow::Cow;
use std::io;
use std::sync::OnceLock;

use crate::tree::{Ix, Tree};

/// A session as a format's code sees it: its tree and its lines.
pub trait Session {
    /// The tree of its entries.
    fn tree(&self) -> &Tree;

    /// Entry `ix`'s line: borrowed when the session is held in memory, read
    /// from the file otherwise.
    fn line_bytes(&self, ix: Ix) -> io::Result<Cow<'_, [u8]>>;

    /// Each of `ixs`' lines, in their order, handed to `each` (one pass over
    /// the file for all of them).
    fn each_line(
        &self,
        ixs: &[Ix],
        each: &mut dyn FnMut(Ix, &[u8]) -> io::Result<()>,
    ) -> io::Result<()>;

    /// A place for what the format works out once per session (Codex's and
    /// Copilot CLI's usage of each turn).
    fn format_memo(&self) -> &OnceLock<Box<dyn Any + Send + Sync>>;
}
