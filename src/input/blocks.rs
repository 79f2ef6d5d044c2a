//! Blocks of whole lines, read in large pieces and handed to worker threads.

use std::io::{self, Read};
use std::sync::{Arc, Mutex};

use super::{LineTooLong, Tap, max_line};

/// Buffers of blocks the workers are done with, for the reader to fill
/// again: fresh multi-megabyte allocations cost page faults and zeroing.
type Pool = Arc<Mutex<Vec<Vec<u8>>>>;

/// A run of whole lines read in one go: every line ends with `\n` except,
/// at the end of the input, the last. Its buffer goes back to the reader's
/// pool when it is dropped.
#[derive(Debug)]
pub struct Block {
    /// File offset of the first byte.
    pub offset: u64,
    buf: Vec<u8>,
    len: usize,
    pool: Pool,
}

impl Block {
    /// Its bytes: whole lines.
    pub fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }

    /// The lines, with their offsets within the block.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &[u8])> + '_ {
        let bytes = self.bytes();
        let mut start = 0;
        std::iter::from_fn(move || {
            if start >= bytes.len() {
                return None;
            }
            let end = memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
            let line = (start, &bytes[start..end]);
            start = end + 1;
            Some(line)
        })
    }
}

impl Drop for Block {
    fn drop(&mut self) {
        if let Ok(mut pool) = self.pool.lock()
            && pool.len() < 8
        {
            pool.push(std::mem::take(&mut self.buf));
        }
    }
}

/// Reads `reader` in blocks of whole lines of about `size` bytes (more when
/// a line is longer). `tap` sees every byte once, in order.
pub struct Blocks<R, F> {
    reader: Tap<R, F>,
    size: usize,
    /// Bytes read after the last newline of the previous block.
    carry: Vec<u8>,
    offset: u64,
    done: bool,
    pool: Pool,
    limit: io::Result<u64>,
}

impl<R: Read, F: FnMut(&[u8])> Blocks<R, F> {
    /// Blocks of about `size` bytes of `reader`, each byte shown to `tap`.
    pub fn new(reader: R, tap: F, size: usize) -> Self {
        Blocks {
            reader: Tap { reader, tap },
            size,
            carry: Vec::new(),
            offset: 0,
            done: false,
            pool: Pool::default(),
            limit: max_line(),
        }
    }

    /// Bytes handed out in blocks so far: the input's length, at the end.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next block. A line longer than the limit ([`max_line`]) is an
    /// error carrying [`LineTooLong`], whose `uncounted` newlines are those
    /// of this block before the line.
    pub fn next_block(&mut self) -> io::Result<Option<Block>> {
        if self.done {
            return Ok(None);
        }
        let limit = match &self.limit {
            Ok(limit) => *limit,
            Err(e) => return Err(io::Error::new(e.kind(), e.to_string())),
        };
        let (mut buf, mut len) = self.start_buffer(limit);
        // Where the line without an end yet starts (the carry has no
        // newline); only new bytes are searched, so a long line costs
        // linear time however it trickles in.
        let mut line_start = 0;
        loop {
            if len == buf.len() {
                // A line longer than a block.
                let grown = (buf.len() * 2).min(bound(line_start, limit)).max(len + 1);
                buf.resize(grown, 0);
            }
            let n = read_some(&mut self.reader, &mut buf[len..])?;
            if let Some(i) = memchr::memrchr(b'\n', &buf[len..len + n]) {
                line_start = len + i + 1;
            }
            len += n;
            if (len - line_start) as u64 > limit {
                let at = first_long(&buf, len, limit).unwrap_or(line_start);
                return Err(too_long(&buf, at, self.offset, limit));
            }
            if n == 0 {
                self.done = true;
                if len == 0 {
                    return Ok(None);
                }
                break;
            }
            if len >= self.size && line_start > 0 {
                self.carry.extend_from_slice(&buf[line_start..len]);
                len = line_start;
                break;
            }
        }
        // A whole line longer than the limit can come in one read.
        if len as u64 > limit
            && let Some(at) = first_long(&buf, len, limit)
        {
            return Err(too_long(&buf, at, self.offset, limit));
        }
        let block = Block {
            offset: self.offset,
            buf,
            len,
            pool: Arc::clone(&self.pool),
        };
        self.offset += len as u64;
        Ok(Some(block))
    }

    /// A buffer for the next block, the carried bytes of the last one's
    /// unfinished line at its start, and their length.
    #[inline]
    fn start_buffer(&mut self, limit: u64) -> (Vec<u8>, usize) {
        // A recycled buffer is already initialized to its full length, so
        // reading into it needs no zeroing; only growth does.
        let mut buf = self
            .pool
            .lock()
            .ok()
            .and_then(|mut p| p.pop())
            .unwrap_or_default();
        // A fresh buffer starts small and doubles as it fills, so a small
        // file costs a small buffer.
        let want = (64 << 10)
            .min(self.size)
            .max((self.carry.len() * 2).min(bound(0, limit)));
        if buf.len() < want {
            buf.resize(want, 0);
        }
        buf[..self.carry.len()].copy_from_slice(&self.carry);
        let len = self.carry.len();
        self.carry.clear();
        (buf, len)
    }
}

/// How far a buffer whose unfinished line starts at `start` may grow: it
/// never grows past what tells a line over the limit (the limit and a
/// byte), so memory is bounded by the limit, not by the file.
#[inline]
fn bound(start: usize, limit: u64) -> usize {
    start
        .saturating_add(usize::try_from(limit).unwrap_or(usize::MAX))
        .saturating_add(1)
}

/// Reads what the reader has, again when a signal interrupts it.
#[inline]
fn read_some(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match reader.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The first line of `buf[..end]` longer than the limit (the last one may
/// have no end yet).
#[inline]
fn first_long(buf: &[u8], end: usize, limit: u64) -> Option<usize> {
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', &buf[..end]).chain([end]) {
        if (nl - start) as u64 > limit {
            return Some(start);
        }
        start = nl + 1;
    }
    None
}

/// The error of a line over the limit that starts at `at` in a block that
/// starts at `offset`.
#[inline]
fn too_long(buf: &[u8], at: usize, offset: u64, limit: u64) -> io::Error {
    LineTooLong {
        line: None,
        uncounted: memchr::memchr_iter(b'\n', &buf[..at]).count() as u64,
        offset: offset + at as u64,
        limit,
    }
    .error()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `len` bytes with no newline, which remembers the furthest
    /// byte of the buffers it was asked to read into.
    struct NoNewline {
        left: usize,
        read: usize,
        furthest: std::rc::Rc<std::cell::Cell<usize>>,
    }

    impl Read for NoNewline {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            // The buffer starts where the reader has read to, less what
            // the block holds already: its end is the buffer's size.
            self.furthest
                .set(self.furthest.get().max(self.read + buf.len()));
            let n = buf.len().min(self.left).min(1 << 20);
            buf[..n].fill(b'x');
            self.left -= n;
            self.read += n;
            Ok(n)
        }
    }

    #[test]
    fn a_file_without_newlines_was_read_into_twice_the_line_limit() {
        let limit = 3 << 20;
        let furthest = std::rc::Rc::new(std::cell::Cell::new(0));
        let reader = NoNewline {
            left: 64 << 20,
            read: 0,
            furthest: furthest.clone(),
        };
        let mut blocks = Blocks::new(reader, |_: &[u8]| {}, 1 << 20);
        blocks.limit = Ok(limit);
        let e = blocks.next_block().expect_err("a line over the limit");
        assert!(LineTooLong::of(&e).is_some(), "{e}");
        // The buffer never grew past the limit and a byte (and a read's
        // worth): the file's size does not count.
        assert!(
            furthest.get() as u64 <= limit + 1,
            "buffers reached {} bytes for a limit of {limit}",
            furthest.get()
        );
    }
}
