//! The refs ysess keeps beside an app's file ([`crate::refs::store`]),
//! joined to the session's tree.

use std::io;
use std::path::Path;

use super::Repo;
use crate::format::Format;
use crate::refs::Refs;
use crate::tree::Ix;

/// The refs ysess keeps beside an app's file ([`crate::refs::store`]).
impl Repo {
    /// Joins the refs `store` keeps for this session (read from `path`) to
    /// its tree, when its app owns the file (Claude Code's, Codex's): the
    /// labels, branches and HEAD moves recorded there then mean what they
    /// mean in a yoagent file. A session of a format ysess writes into,
    /// one read from standard input, and one with no refs file are as they
    /// were.
    pub fn with_store(
        mut self,
        path: &Path,
        store: Option<&crate::refs::store::Store>,
    ) -> io::Result<Repo> {
        use crate::refs::store;
        // Only a session file has refs (not a pipe, whose name is a number).
        let file = std::fs::metadata(path).is_ok_and(|m| m.is_file());
        if self.format.writable() || !(file || Format::keeps_whole(path)) {
            return Ok(self);
        }
        let first = || {
            let mut head = self.start(1 << 20).unwrap_or_default();
            head.truncate(memchr::memchr(b'\n', &head).unwrap_or(head.len()));
            head
        };
        let last = || {
            let end = self.read_len;
            self.bytes_at(end.saturating_sub(64 << 10), end.min(64 << 10))
                .unwrap_or_default()
        };
        let Some(session) = self.format.session_id(path, first, last) else {
            return Ok(self);
        };
        // Every whole line read, the app's bookkeeping after its last
        // entry included.
        self.side.app_end = Some(self.torn.map_or(self.read_len, |t| t.offset));
        self.side.file = store.map(|s| s.file(self.format, &session));
        self.side.session = Some(session.clone());
        let Some(refs) = self
            .side
            .file
            .as_deref()
            .map(store::Refs::read)
            .transpose()?
        else {
            return Ok(self);
        };
        // Only this session's refs: a file of another session (or format)
        // under the same name is left alone.
        if let Some(refs) = refs.filter(|r| {
            r.header
                .as_ref()
                .is_some_and(|h| h.session == session && h.format == self.format.name())
        }) {
            self.join(refs)?;
        }
        Ok(self)
    }

    /// Joins the records of a refs file, read, to the tree.
    pub(crate) fn join(&mut self, refs: crate::refs::store::Refs) -> io::Result<()> {
        // Each record stands after the app's lines that start before `at`.
        let mut starts: Vec<(u64, u64)> = self
            .tree
            .nodes()
            .iter()
            .map(|n| (n.offset, n.line))
            .collect();
        starts.sort_unstable();
        let mut lines = Vec::with_capacity(refs.records.len());
        let after = |at: u64| {
            let k = starts.partition_point(|&(offset, _)| offset < at);
            starts[..k].iter().map(|&(_, line)| line).max().unwrap_or(0)
        };
        let entries: Vec<crate::tree::NewEntry<'_>> = refs
            .records
            .iter()
            .map(|r| crate::tree::NewEntry {
                id: &r.id,
                parent: Some(&r.record.parent),
                label: r.label.as_deref(),
                timestamp: r.timestamp,
                kind: crate::MessageKind::Custom,
                line: after(r.at),
                offset: 0,
                len: r.bytes.len() as u64,
                tag: Some(r.record.kind.name()),
                subject: None,
                record: true,
                target: None,
            })
            .collect();
        let tree = std::mem::take(&mut self.tree);
        let (tree, joined) = tree.extended(entries);
        for (r, joined) in refs.records.iter().zip(joined) {
            // A record whose parent is gone still joins (fsck names it);
            // only a second record of one id does not.
            let ix = match joined {
                Ok(ix) => Some(ix),
                Err(crate::tree::Link::DuplicateId { .. }) => None,
                Err(_) => tree.find(&r.id),
            };
            if let Some(ix) = ix {
                lines.push((ix, r.bytes.clone()));
            }
        }
        self.tree = tree;
        self.side.lines = lines;
        self.side.refs = Some(refs);
        self.refs = Refs::read(&self.tree, |ix| self.entry(ix))?;
        Ok(())
    }

    /// Names the refs file the records joined came from.
    pub(crate) fn set_refs_file(&mut self, path: std::path::PathBuf) {
        self.side.file = Some(path);
    }

    /// A record's line, when entry `ix` is one from the refs file.
    pub(super) fn side_line(&self, ix: Ix) -> Option<&[u8]> {
        let first = self.side.lines.first()?.0;
        if ix < first {
            return None;
        }
        let k = self.side.lines.binary_search_by_key(&ix, |l| l.0).ok()?;
        Some(&self.side.lines[k].1)
    }

    /// Whether entry `ix` is a record from the refs file beside the app's.
    pub fn is_side_record(&self, ix: Ix) -> bool {
        self.side_line(ix).is_some()
    }

    /// The session's id as its app knows it, when its app owns the file.
    pub fn session_id(&self) -> Option<&str> {
        self.side.session.as_deref()
    }

    /// The file ysess keeps this session's refs in, when its app owns
    /// the file and a store is known ([`Repo::with_store`]).
    pub fn refs_file(&self) -> Option<&Path> {
        self.side.file.as_deref()
    }

    /// The refs file, as read ([`Repo::with_store`]); `None` when there is
    /// none.
    pub fn stored_refs(&self) -> Option<&crate::refs::store::Refs> {
        self.side.refs.as_ref()
    }

    /// How many bytes of the file were read.
    pub fn read_len(&self) -> u64 {
        self.read_len
    }

    /// Where the app's whole lines ended when the session was read, for a
    /// session whose refs are kept beside it.
    pub fn app_end(&self) -> Option<u64> {
        self.side.app_end
    }
}
