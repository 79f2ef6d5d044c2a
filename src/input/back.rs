//! Reading a file from its end, a line at a time: what `log -n` needs, at a
//! cost that does not grow with the file.

use std::borrow::Cow;
use std::fs::File;
use std::io;

/// Bytes read per step back.
pub(crate) const BLOCK: u64 = 256 << 10;

/// The lines of a file, last first. Newlines are searched for block by block
/// from the end; a line that spans blocks is then read once, whole, so every
/// byte is read at most twice however long the line (keeping the partial
/// line and prepending each earlier block to it copied it once per block).
pub struct BackLines {
    file: File,
    /// The bytes `block_start..block_start + block.len()` of the file.
    block: Vec<u8>,
    block_start: u64,
    /// Where the next line (going back) ends, before its `\n`.
    end: u64,
    /// The first line of the file has been given.
    done: bool,
    /// Bytes read from the file so far.
    read: u64,
    /// The longest line read ([`super::max_line`]).
    limit: u64,
}

impl BackLines {
    /// The lines of `file`, `len` bytes long, none longer than `limit`.
    pub fn new(file: File, len: u64, limit: u64) -> BackLines {
        BackLines {
            file,
            block: Vec::new(),
            block_start: len,
            end: len,
            done: false,
            read: 0,
            limit,
        }
    }

    /// Bytes read from the file so far.
    pub fn bytes_read(&self) -> u64 {
        self.read
    }

    /// The next line back; `Some(None)` for a line longer than the limit,
    /// found without reading more of it than the limit.
    #[allow(clippy::type_complexity)]
    pub fn next_back(&mut self) -> io::Result<Option<Option<Cow<'_, [u8]>>>> {
        if self.done {
            return Ok(None);
        }
        let end = self.end;
        let mut search_end = end;
        let start = loop {
            if search_end > self.block_start {
                let within = &self.block[..(search_end - self.block_start) as usize];
                if let Some(i) = memchr::memrchr(b'\n', within) {
                    break self.block_start + i as u64 + 1;
                }
                search_end = self.block_start;
            }
            if end - search_end > self.limit {
                return Ok(Some(None));
            }
            if self.block_start == 0 {
                break 0;
            }
            let from = self.block_start.saturating_sub(BLOCK);
            self.block = self.read_at(from, self.block_start)?;
            self.block_start = from;
        };
        if end - start > self.limit {
            return Ok(Some(None));
        }
        if start == 0 {
            self.done = true;
        } else {
            self.end = start - 1;
        }
        let block_end = self.block_start + self.block.len() as u64;
        Ok(Some(Some(
            if start >= self.block_start && end <= block_end {
                let at = (start - self.block_start) as usize;
                Cow::Borrowed(&self.block[at..at + (end - start) as usize])
            } else {
                Cow::Owned(self.read_at(start, end)?)
            },
        )))
    }

    /// The bytes `from..to` of the file.
    fn read_at(&mut self, from: u64, to: u64) -> io::Result<Vec<u8>> {
        let buf = super::read_at(&self.file, from, to - from)?;
        self.read += to - from;
        Ok(buf)
    }
}
