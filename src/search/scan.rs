//! A whole session file searched as ripgrep searches a file: the pattern's
//! raw form runs over large blocks of bytes (with its literal prefilters),
//! and only the lines it picks are decoded; each block is split between
//! two threads. Memory stays bounded by the block size, whatever the file.

use std::io::{self, Read};

use crate::format::message::{Entry, NotAnEntry};
use crate::format::{Checked, Format, MessageKind};
use crate::input::Blocks;

use super::Pattern;

/// Bytes read at a time.
const BLOCK: usize = 8 << 20;

/// An entry whose line may match, decoded.
#[derive(Debug)]
pub struct Decoded {
    /// Its id (a version-1 pi file's entries are numbered by line, as the
    /// tree numbers them).
    pub id: String,
    /// Its line in the file, from 1.
    pub line: u64,
    pub entry: Entry,
}

/// A line that may match and cannot be read as an entry: `ysess fsck`
/// explains it; the search goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub line: u64,
    pub why: String,
}

/// Searches every entry of `reader` (the user's entries: ysess's records,
/// a format's label changes and custom records are skipped). `judge` is
/// given each entry that may match (on any thread) and says what to keep;
/// `take` gets what was kept, and the lines that could not be read, in
/// file order. Returns the format read.
pub fn scan<R, T>(
    reader: R,
    format: Option<Format>,
    pattern: &Pattern,
    judge: impl Fn(Decoded) -> Option<T> + Sync,
    mut take: impl FnMut(Result<T, Skipped>) -> io::Result<()>,
) -> io::Result<Format>
where
    R: Read + Send,
    T: Send,
{
    let mut blocks = Blocks::new(reader, |_: &[u8]| {}, BLOCK);
    let mut read = Reading {
        format: format.unwrap_or_default(),
        version: None,
        pattern,
    };
    let mut first = true;
    // The number of the next block's first line.
    let mut line = 1u64;
    while let Some(block) = blocks.next_block()? {
        let bytes = block.bytes();
        if first {
            first = false;
            let first_line = bytes
                .split(|&b| b == b'\n')
                .find(|l| !l.iter().all(u8::is_ascii_whitespace));
            if let Some(first_line) = first_line {
                read.format = format.unwrap_or_else(|| Format::detect(first_line));
                if let Checked::Header { version } = read.format.check_line(first_line, false) {
                    read.version = Some(version);
                }
            }
        }
        // Two halves, split at a line's end, searched on two threads.
        let middle = match memchr::memchr(b'\n', &bytes[bytes.len() / 2..]) {
            Some(at) => bytes.len() / 2 + at + 1,
            None => bytes.len(),
        };
        let (front, back) = bytes.split_at(middle);
        let back_line = line + memchr::memchr_iter(b'\n', front).count() as u64;
        let (found_front, found_back) = if back.is_empty() {
            (read.half(front, line, &judge), Vec::new())
        } else {
            std::thread::scope(|s| {
                let worker = s.spawn(|| read.half(back, back_line, &judge));
                let front = read.half(front, line, &judge);
                (front, worker.join().unwrap_or_default())
            })
        };
        line = back_line + memchr::memchr_iter(b'\n', back).count() as u64;
        for found in found_front.into_iter().chain(found_back) {
            take(found)?;
        }
    }
    Ok(read.format)
}

/// What every half needs to read its lines.
struct Reading<'p> {
    format: Format,
    /// The version a header declares (pi's).
    version: Option<u64>,
    pattern: &'p Pattern,
}

impl Reading<'_> {
    /// The lines of `bytes` (whose first line is number `line`) that may
    /// match, decoded and judged.
    fn half<T>(
        &self,
        bytes: &[u8],
        mut line: u64,
        judge: &(impl Fn(Decoded) -> Option<T> + Sync),
    ) -> Vec<Result<T, Skipped>> {
        let mut found = Vec::new();
        let mut counted = 0;
        let mut each = |start: usize, end: usize, found: &mut Vec<Result<T, Skipped>>| {
            line += memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u64;
            counted = start;
            match self.decode(&bytes[start..end], line) {
                Some(Ok(decoded)) => found.extend(judge(decoded).map(Ok)),
                Some(Err(skipped)) => found.push(Err(skipped)),
                None => {}
            }
        };
        match self.pattern.raw() {
            Some(raw) => {
                let mut at = 0;
                while at < bytes.len() {
                    let Some(m) = raw.find_at(bytes, at) else {
                        break;
                    };
                    let start = memchr::memrchr(b'\n', &bytes[..m.start()]).map_or(0, |i| i + 1);
                    let end = memchr::memchr(b'\n', &bytes[m.start()..])
                        .map_or(bytes.len(), |i| m.start() + i);
                    each(start, end, &mut found);
                    at = end + 1;
                }
            }
            None => {
                let mut start = 0;
                while start < bytes.len() {
                    let end =
                        memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                    each(start, end, &mut found);
                    start = end + 1;
                }
            }
        }
        found
    }

    /// One line read as an entry: `None` for what is not searched (blank
    /// lines, headers, records, custom records).
    fn decode(&self, bytes: &[u8], line: u64) -> Option<Result<Decoded, Skipped>> {
        let skipped = |why: String| Some(Err(Skipped { line, why }));
        let (id, text) = match self.format.check_line(bytes, false) {
            Checked::Entry { facts, indent } => {
                if facts.kind == MessageKind::Custom || self.format.is_record(&facts) {
                    return None;
                }
                let id = if self.version == Some(1) {
                    format!("line{line}")
                } else {
                    facts.id.into_owned()
                };
                let text = std::str::from_utf8(&bytes[indent..]).map_or("", str::trim);
                (id, text.as_bytes())
            }
            Checked::Fault { fault, .. } => return skipped(fault.message),
            Checked::NotUtf8 { at, .. } => return skipped(format!("not UTF-8 at byte {at}")),
            Checked::Blank | Checked::Header { .. } | Checked::Aside => return None,
        };
        let entry = match self.format {
            Format::Yoagent => Entry::parse(text),
            Format::Pi => crate::format::pi::entry(text),
            Format::Claude => crate::format::claude::entry(text),
        };
        match entry {
            Ok(entry) => Some(Ok(Decoded { id, line, entry })),
            Err(NotAnEntry(why)) => skipped(why),
        }
    }
}
