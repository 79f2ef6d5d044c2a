//! Reading bytes, whatever the format: a session file (or standard input)
//! streamed line by line or in blocks of whole lines ([`Blocks`]), never held
//! whole in memory, so a session of any size is read in a few megabytes;
//! read from its end ([`back`]); the longest line ysess reads
//! ([`max_line`]); reading at an offset ([`read_at`]); and opening only
//! what may be read ([`open`]): a session is a regular file or a pipe.

pub mod back;
mod blocks;
pub mod open;
pub mod par;
pub mod profile;

pub use blocks::{Block, Blocks};
pub use open::{open_regular, open_session, read_small};

use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Reads `len` bytes at `offset` without moving the file's position.
pub fn read_at(file: &File, offset: u64, len: u64) -> io::Result<Vec<u8>> {
    let mut out = vec![0; len as usize];
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileExt;
        file.read_exact_at(&mut out, offset)?;
    }
    #[cfg(not(unix))]
    {
        use std::io::{Seek, SeekFrom};
        let mut reader = file;
        reader.seek(SeekFrom::Start(offset))?;
        reader.read_exact(&mut out)?;
    }
    Ok(out)
}

/// One line of a session file, without its `\n`.
#[derive(Debug, Clone, Copy)]
pub struct RawLine<'a> {
    /// 1-based, counting blank lines too, as yoagent's loader does.
    pub number: u64,
    /// Byte offset of the line's first byte in the file.
    pub offset: u64,
    /// The line, without its newline.
    pub bytes: &'a [u8],
}

/// Where a session comes from: a file, or standard input for `-`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// A file.
    Path(PathBuf),
    /// Standard input (`-f -`).
    Stdin,
}

impl Source {
    /// The source `-f` names: `-` is standard input.
    pub fn new(path: &Path) -> Source {
        if path == Path::new("-") {
            Source::Stdin
        } else {
            Source::Path(path.to_path_buf())
        }
    }

    /// The name used in messages: the path as given, or `-`.
    pub fn display(&self) -> String {
        match self {
            Source::Path(p) => p.display().to_string(),
            Source::Stdin => "-".to_string(),
        }
    }
}

/// The longest line ysess reads, unless `YSESS_MAX_LINE` says otherwise:
/// a line that never ends (`/dev/zero`) must not take all memory.
pub const DEFAULT_MAX_LINE: u64 = 1 << 30;

/// The line limit: `YSESS_MAX_LINE` (bytes, or with a suffix `K`, `M`, `G`,
/// powers of 1024), else [`DEFAULT_MAX_LINE`].
pub fn max_line() -> io::Result<u64> {
    let Some(text) = std::env::var_os("YSESS_MAX_LINE") else {
        return Ok(DEFAULT_MAX_LINE);
    };
    let text = text.to_string_lossy();
    let trimmed = text.trim();
    let (digits, unit) = match trimmed.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => (&trimmed[..i], c.to_ascii_uppercase()),
        _ => (trimmed, 'B'),
    };
    let shift = match unit {
        'B' => 0,
        'K' => 10,
        'M' => 20,
        'G' => 30,
        _ => 64,
    };
    digits
        .parse::<u64>()
        .ok()
        .filter(|&n| n > 0 && shift < 64)
        .and_then(|n| n.checked_mul(1 << shift))
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "YSESS_MAX_LINE is `{}`: give a number of bytes, such as 1048576, 64M or 2G",
                    text.escape_debug()
                ),
            )
        })
}

/// A line longer than the limit: where it starts. Carried inside an
/// `io::Error` of kind `InvalidData`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineTooLong {
    /// 1-based line number, once known.
    pub line: Option<u64>,
    /// Newlines before the line's start that the caller has not counted
    /// yet (read, but not yet handed out).
    pub uncounted: u64,
    /// Where the line starts in the file, in bytes.
    pub offset: u64,
    /// The longest line read (`YSESS_MAX_LINE`).
    pub limit: u64,
}

impl LineTooLong {
    /// As an `io::Error` of kind `InvalidData`.
    pub fn error(self) -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, self)
    }

    /// The `LineTooLong` an error carries, if any.
    pub fn of(e: &io::Error) -> Option<LineTooLong> {
        e.get_ref()?.downcast_ref::<LineTooLong>().copied()
    }

    /// With the line number, from the lines the caller has counted.
    pub fn at_line(self, counted: u64) -> LineTooLong {
        LineTooLong {
            line: Some(counted + self.uncounted + 1),
            uncounted: 0,
            ..self
        }
    }
}

impl std::fmt::Display for LineTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let limit = match self.limit {
            n if n % (1 << 30) == 0 => format!("{} GiB", n >> 30),
            n if n % (1 << 20) == 0 => format!("{} MiB", n >> 20),
            n if n % (1 << 10) == 0 => format!("{} KiB", n >> 10),
            n => format!("{n} bytes"),
        };
        match self.line {
            Some(line) => write!(f, "line {line} (from byte {})", self.offset)?,
            None => write!(f, "the line from byte {}", self.offset)?,
        }
        write!(
            f,
            " is longer than {limit}, the longest line ysess reads (YSESS_MAX_LINE sets it)"
        )
    }
}

impl std::error::Error for LineTooLong {}

const CHUNK: usize = 1 << 20;

/// Pulls lines from a reader one at a time, in a buffer that holds about a
/// megabyte plus the longest line.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    /// `buf[start..]` is not yet handed out.
    start: usize,
    /// `buf[start..searched]` holds no newline.
    searched: usize,
    /// File offset of `buf[0]`.
    base: u64,
    number: u64,
    eof: bool,
    limit: io::Result<u64>,
}

impl<R: Read> LineReader<R> {
    /// A reader of `reader`'s lines.
    pub fn new(reader: R) -> Self {
        LineReader {
            reader,
            buf: Vec::with_capacity(CHUNK),
            start: 0,
            searched: 0,
            base: 0,
            number: 0,
            eof: false,
            limit: max_line(),
        }
    }

    /// The next line, blank ones included; `None` at the end.
    pub fn next_line(&mut self) -> io::Result<Option<RawLine<'_>>> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.searched..]) {
                let end = self.searched + i;
                let line_start = self.start;
                self.start = end + 1;
                self.searched = self.start;
                self.number += 1;
                return Ok(Some(RawLine {
                    number: self.number,
                    offset: self.base + line_start as u64,
                    bytes: &self.buf[line_start..end],
                }));
            }
            self.searched = self.buf.len();
            if self.eof {
                if self.start == self.buf.len() {
                    return Ok(None);
                }
                let line_start = self.start;
                self.start = self.buf.len();
                self.number += 1;
                return Ok(Some(RawLine {
                    number: self.number,
                    offset: self.base + line_start as u64,
                    bytes: &self.buf[line_start..],
                }));
            }
            self.fill()?;
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        let limit = match &self.limit {
            Ok(limit) => *limit,
            Err(e) => return Err(io::Error::new(e.kind(), e.to_string())),
        };
        // What is not handed out is one line without its end yet.
        if (self.buf.len() - self.start) as u64 > limit {
            return Err(LineTooLong {
                line: Some(self.number + 1),
                uncounted: 0,
                offset: self.base + self.start as u64,
                limit,
            }
            .error());
        }
        // Drop what was handed out, then read another chunk.
        self.buf.drain(..self.start);
        self.base += self.start as u64;
        self.searched -= self.start;
        self.start = 0;
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(len + n);
        self.eof = n == 0;
        Ok(())
    }
}

/// A reader that shows every byte it reads to `tap`, in order (for digests).
pub struct Tap<R, F> {
    /// What is read.
    pub reader: R,
    /// What sees every byte read.
    pub tap: F,
}

impl<R: Read, F: FnMut(&[u8])> Read for Tap<R, F> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.reader.read(out)?;
        (self.tap)(&out[..n]);
        Ok(n)
    }
}

/// Streams `reader` line by line. `tap` sees every byte once, in order;
/// `each` sees every line, blank ones included. Returns the number of bytes
/// read.
pub fn for_each_line<R: Read>(
    reader: R,
    mut tap: impl FnMut(&[u8]),
    mut each: impl FnMut(RawLine<'_>),
) -> io::Result<u64> {
    let mut total = 0u64;
    let mut lines = LineReader::new(Tap {
        reader,
        tap: |bytes: &[u8]| {
            total += bytes.len() as u64;
            tap(bytes);
        },
    });
    while let Some(line) = lines.next_line()? {
        each(line);
    }
    drop(lines);
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(text: &[u8], chunk_reader: bool) -> Vec<(u64, u64, Vec<u8>)> {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(out.len()).min(3);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut out = Vec::new();
        let mut tapped = Vec::new();
        let push = |l: RawLine<'_>| out.push((l.number, l.offset, l.bytes.to_vec()));
        let total = if chunk_reader {
            for_each_line(Trickle(text), |b| tapped.extend_from_slice(b), push)
        } else {
            for_each_line(text, |b| tapped.extend_from_slice(b), push)
        }
        .unwrap_or(0);
        assert_eq!(tapped, text);
        assert_eq!(total, text.len() as u64);
        out
    }

    #[test]
    fn blocks_hold_whole_lines_and_cover_the_input() {
        let text: Vec<u8> = (0..500)
            .flat_map(|i| format!("line {i} {}\n", "x".repeat(i % 37)).into_bytes())
            .collect();
        for size in [1, 7, 64, 1000, 1 << 20] {
            for tail in [&b""[..], b"no newline"] {
                let input = [&text[..], tail].concat();
                let mut tapped = Vec::new();
                let mut blocks =
                    Blocks::new(&input[..], |b: &[u8]| tapped.extend_from_slice(b), size);
                let mut joined = Vec::new();
                let mut lines = Vec::new();
                while let Some(block) = blocks.next_block().expect("in memory") {
                    assert_eq!(block.offset, joined.len() as u64);
                    let bytes = block.bytes();
                    assert!(bytes.ends_with(b"\n") || joined.len() + bytes.len() == input.len());
                    lines.extend(
                        block
                            .lines()
                            .map(|(at, l)| (block.offset + at as u64, l.to_vec())),
                    );
                    joined.extend_from_slice(bytes);
                }
                drop(blocks);
                assert_eq!(joined, input, "size {size}");
                assert_eq!(tapped, input);
                let expected: Vec<(u64, Vec<u8>)> = lines_of(&input, false)
                    .into_iter()
                    .map(|(_, o, l)| (o, l))
                    .collect();
                assert_eq!(lines, expected, "size {size}");
            }
        }
    }

    #[test]
    fn splits_like_str_lines_with_offsets() {
        for trickle in [false, true] {
            let got = lines_of(b"ab\n\ncd\r\nef", trickle);
            assert_eq!(
                got,
                vec![
                    (1, 0, b"ab".to_vec()),
                    (2, 3, b"".to_vec()),
                    (3, 4, b"cd\r".to_vec()),
                    (4, 8, b"ef".to_vec()),
                ]
            );
            assert_eq!(lines_of(b"x\n", trickle), vec![(1, 0, b"x".to_vec())]);
            assert!(lines_of(b"", trickle).is_empty());
        }
    }
}
