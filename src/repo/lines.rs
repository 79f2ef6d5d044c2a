//! An opened session's bytes read back: entries' lines (one at a time or
//! in blocks), the file's start and digest, entries in full.

use std::io;

use super::{Held, Repo};
use crate::format::Format;
use crate::format::message::{Entry, NotAnEntry};
use crate::tree::Ix;

impl Repo {
    /// The bytes of an entry's line, borrowed when the session is held in
    /// memory (no copy), read from the file otherwise.
    pub fn line_bytes(&self, ix: Ix) -> io::Result<std::borrow::Cow<'_, [u8]>> {
        if let Some(line) = self.side_line(ix) {
            return Ok(line.into());
        }
        let node = self.tree.node(ix);
        match &self.store {
            Held::Open(file) => crate::input::read_at(file, node.offset, node.len).map(Into::into),
            Held::Memory(bytes) => {
                let from = node.offset as usize;
                Ok(bytes
                    .get(from..from + node.len as usize)
                    .unwrap_or_default()
                    .into())
            }
        }
    }

    /// Hands `each` the line of every entry of `ixs` (in file order), the
    /// lines read 4 MiB at a time rather than a read each; the first error
    /// stops it.
    pub fn each_line(
        &self,
        ixs: &[Ix],
        mut each: impl FnMut(Ix, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        const BLOCK: u64 = 4 << 20;
        let mut next = 0;
        while next < ixs.len() {
            if let Some(line) = self.side_line(ixs[next]) {
                each(ixs[next], line)?;
                next += 1;
                continue;
            }
            let (block, start, upto) = self.lines_block(ixs, next, BLOCK)?;
            for &ix in &ixs[next..upto] {
                each(ix, self.line_in(&block, start, ix)?)?;
            }
            next = upto;
        }
        Ok(())
    }

    /// The lines of the entries `ixs[from..upto]` (in file order) in one
    /// read: as many as fit in `max` bytes from the first one's start (at
    /// least that one). The bytes start at the offset returned; an entry's
    /// line is at its node's offset less that.
    fn lines_block(
        &self,
        ixs: &[Ix],
        from: usize,
        max: u64,
    ) -> io::Result<(std::borrow::Cow<'_, [u8]>, u64, usize)> {
        let start = self.tree.node(ixs[from]).offset;
        let end_of = |ix: Ix| {
            let node = self.tree.node(ix);
            node.offset + node.len
        };
        let mut upto = from + 1;
        let mut end = end_of(ixs[from]);
        while let Some(&ix) = ixs.get(upto) {
            let node = self.tree.node(ix);
            if self.side_line(ix).is_some() || node.offset < start || end_of(ix) - start > max {
                break;
            }
            end = end.max(end_of(ix));
            upto += 1;
        }
        let bytes = match &self.store {
            Held::Open(file) => crate::input::read_at(file, start, end - start)?.into(),
            Held::Memory(bytes) => bytes
                .get(start as usize..end as usize)
                .unwrap_or_default()
                .into(),
        };
        Ok((bytes, start, upto))
    }

    /// Entry `ix`'s line within a block [`Repo::lines_block`] read from
    /// `start`; an error when the block does not hold it (the file is
    /// shorter than it was).
    fn line_in<'b>(&self, block: &'b [u8], start: u64, ix: Ix) -> io::Result<&'b [u8]> {
        let node = self.tree.node(ix);
        let at = node.offset.saturating_sub(start) as usize;
        block.get(at..at + node.len as usize).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file is shorter than it was",
            )
        })
    }

    /// The bytes of an entry's line.
    pub fn line(&self, ix: Ix) -> io::Result<Vec<u8>> {
        self.line_bytes(ix).map(std::borrow::Cow::into_owned)
    }

    /// Where the whole lines read end: the start of a torn last line, else
    /// the end of the bytes read (for a file held open, the end of its last
    /// entry's line).
    pub fn whole_lines_end(&self) -> io::Result<u64> {
        if let Some(torn) = &self.torn {
            return Ok(torn.offset);
        }
        match &self.store {
            Held::Memory(bytes) => Ok(bytes.len() as u64),
            Held::Open(file) => {
                if let Some(end) = self.side.app_end {
                    return Ok(end);
                }
                // The line that ends last (a format may join an entry
                // after the ones below it: Claude Code's).
                let Some(end) = self.tree.nodes().iter().map(|n| n.offset + n.len).max() else {
                    return Ok(0);
                };
                if end >= file.metadata()?.len() {
                    return Ok(end);
                }
                let next = crate::input::read_at(file, end, 1)?;
                Ok(end + u64::from(next == b"\n"))
            }
        }
    }

    /// The digest of the file's first `len` bytes, read from memory when
    /// the session is held there.
    pub fn digest_of_start(&self, len: u64) -> io::Result<crate::check::digest::Digest> {
        let mut hasher = crate::check::digest::Hasher::default();
        match &self.store {
            Held::Memory(bytes) => hasher.update(&bytes[..bytes.len().min(len as usize)]),
            Held::Open(file) => {
                let mut at = 0;
                while at < len {
                    let chunk = crate::input::read_at(file, at, (len - at).min(1 << 20))?;
                    if chunk.is_empty() {
                        break;
                    }
                    hasher.update(&chunk);
                    at += chunk.len() as u64;
                }
            }
        }
        Ok(hasher.finish(len))
    }

    /// `len` bytes of the file from `offset` (fewer at its end), read from
    /// memory when the session is held there.
    pub fn bytes_at(&self, offset: u64, len: u64) -> io::Result<Vec<u8>> {
        match &self.store {
            Held::Open(file) => {
                let size = file.metadata()?.len();
                let len = len.min(size.saturating_sub(offset));
                crate::input::read_at(file, offset, len)
            }
            Held::Memory(bytes) => {
                let from = (offset as usize).min(bytes.len());
                let to = (from + len as usize).min(bytes.len());
                Ok(bytes[from..to].to_vec())
            }
        }
    }

    /// The first `len` bytes of the file (fewer when it is shorter), read
    /// from memory when the session is held there.
    pub fn start(&self, len: u64) -> io::Result<Vec<u8>> {
        match &self.store {
            Held::Open(file) => {
                let len = len.min(file.metadata()?.len());
                crate::input::read_at(file, 0, len)
            }
            Held::Memory(bytes) => Ok(bytes[..bytes.len().min(len as usize)].to_vec()),
        }
    }

    /// An entry read in full.
    pub fn entry(&self, ix: Ix) -> io::Result<Entry> {
        self.entry_from(ix, &self.line(ix)?)
    }

    /// The entry `ix` from its line, already read with [`Repo::line`].
    pub fn entry_from(&self, ix: Ix, line: &[u8]) -> io::Result<Entry> {
        // Trimmed as yoagent trims a line.
        let text = std::str::from_utf8(line).map(str::trim).unwrap_or_default();
        // ysess's records beside an app's file are written as yoagent's.
        let format = match self.side_line(ix) {
            Some(_) => Format::RECORDS,
            None => self.format,
        };
        let entry = format.entry(text.as_bytes());
        let mut entry = entry.map_err(|NotAnEntry(why)| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "line {} cannot be read back as an entry (did the file change?): {why}",
                    self.tree.node(ix).line
                ),
            )
        })?;
        format.spec().fill_turn(self, ix, &mut entry.message)?;
        // A tool result whose line names no tool takes its call's name,
        // as the tree has it (Claude Code's results name only the call).
        if let crate::format::message::Message::ToolResult { tool_name, .. } = &mut entry.message
            && tool_name.is_empty()
        {
            tool_name.push_str(self.tree.tag(ix));
        }
        // The ids and parents of a file numbered by line are the tree's.
        if self.format.numbered_by_line(self.version) {
            entry.id = self.tree.id(ix).to_string();
            entry.parent_id = self
                .tree
                .raw_parent(ix)
                .map(|p| self.tree.id(p).to_string());
        }
        Ok(entry)
    }
}

/// The session as a format's own code sees it.
impl crate::format::session::Session for Repo {
    fn tree(&self) -> &crate::tree::Tree {
        &self.tree
    }

    fn line_bytes(&self, ix: Ix) -> io::Result<std::borrow::Cow<'_, [u8]>> {
        Repo::line_bytes(self, ix)
    }

    fn each_line(
        &self,
        ixs: &[Ix],
        each: &mut dyn FnMut(Ix, &[u8]) -> io::Result<()>,
    ) -> io::Result<()> {
        Repo::each_line(self, ixs, each)
    }

    fn format_memo(&self) -> &std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>> {
        Repo::format_memo(self)
    }
}
