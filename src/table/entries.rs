//! The entries table as rows come: partitions by agent and day, buffered
//! and written as row groups of part files, ended on every core and handed
//! to be put in place.

use std::collections::BTreeMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::part::{self, Columns, Pages, Part};
use super::rows::ENTRIES;

/// Rows of one partition buffered before they are written as a row group.
const ROW_GROUP: usize = 128 * 1024;

/// Bytes of rows buffered over every partition before the largest is
/// written out: what bounds an export's memory.
const BUFFERED: usize = 48 << 20;

/// A part file is closed, and the next begun, past this size.
const PART_BYTES: usize = 256 << 20;

/// One file's rows as they come to the writer, a window of entries at a
/// time.
pub(super) struct Windows<'e, 'a> {
    pub(super) entries: &'e Mutex<Entries<'a>>,
    pub(super) agent: &'static str,
    /// Rows added to the entries table.
    pub(super) added: u64,
    /// The days of the window before.
    pub(super) last: Vec<String>,
}

impl Windows<'_, '_> {
    /// Adds one window's rows. A day the file's rows have passed (in the
    /// window before, not in this one) has its rows, as far as this file
    /// goes: its part file is ended on a core of its own while the next
    /// window's rows are made. (A file's entries come in time order; a
    /// day that comes back later begins a part file of its own.)
    pub(super) fn take(&mut self, by_day: Vec<(String, Columns)>) -> io::Result<()> {
        let mut entries = self
            .entries
            .lock()
            .map_err(|_| io::Error::other("a writer failed"))?;
        let mut days: Vec<String> = Vec::new();
        for (day, cols) in by_day {
            self.added += cols.rows() as u64;
            if !days.contains(&day) {
                days.push(day.clone());
            }
            entries.add(self.agent, day, cols)?;
        }
        for day in std::mem::replace(&mut self.last, days) {
            if !self.last.contains(&day) {
                entries.end(self.agent, day)?;
            }
        }
        Ok(())
    }
}

/// One partition of the entries table being written.
pub(super) struct Partition {
    dir: PathBuf,
    /// Rows buffered, in the pieces they came in (written as one row
    /// group, never copied into one buffer).
    buffer: Vec<Columns>,
    /// Rows and bytes buffered.
    rows: usize,
    bytes: usize,
    part: Option<Part>,
    /// The number of the next part file.
    next: usize,
}

impl Partition {
    /// No rows yet, in `dir`; its next part file is numbered `next`.
    fn new(dir: PathBuf, next: usize) -> Partition {
        Partition {
            dir,
            buffer: Vec::new(),
            rows: 0,
            bytes: 0,
            part: None,
            next,
        }
    }

    /// Writes the buffered rows as a row group of the part file (begun
    /// when there is none); the file, when it is now large enough, is
    /// ended and handed to `publish` to be put in place.
    fn flush(&mut self, run: &str, publish: &Publish) -> io::Result<()> {
        let rows = std::mem::take(&mut self.buffer);
        self.rows = 0;
        self.bytes = 0;
        if rows.iter().all(|r| r.rows() == 0) {
            return Ok(());
        }
        let part = match &mut self.part {
            Some(part) => part,
            None => {
                let name = format!("part-{run}-{}.parquet", self.next);
                self.next += 1;
                self.part
                    .insert(Part::create(self.dir.join(name), ENTRIES, Pages::Zstd)?)
            }
        };
        part.write_all(rows)?;
        if part.bytes_written() >= PART_BYTES
            && let Some(part) = self.part.take()
        {
            publish.part(part.close()?);
        }
        Ok(())
    }
}

/// Where whole files go to be put in place, by threads of their own: each
/// waits for its bytes to reach the disk, which takes the encoding none of
/// its time.
#[derive(Clone)]
pub(super) struct Publish {
    pub(super) to: std::sync::mpsc::Sender<(part::Closed, bool)>,
}

impl Publish {
    /// A part file of the entries table: put beside the others, never over
    /// one.
    pub(super) fn part(&self, closed: part::Closed) {
        self.send(closed, true);
    }

    /// A session's snapshot file: put over the one it replaces.
    pub(super) fn snapshot(&self, closed: part::Closed) {
        self.send(closed, false);
    }

    fn send(&self, closed: part::Closed, part: bool) {
        if let Err(unsent) = self.to.send((closed, part)) {
            unsent.0.0.abandon();
        }
    }
}

/// The partitions of the entries table, written as rows come.
pub(super) struct Entries<'a> {
    out: &'a Path,
    run: &'a str,
    open: BTreeMap<(String, String), Partition>,
    buffered: usize,
    publish: Publish,
    /// Where a partition goes to be written out and its part file ended
    /// ([`end_partitions`]).
    ending: std::sync::mpsc::SyncSender<Partition>,
}

impl<'a> Entries<'a> {
    /// No partitions yet: part files go under `out`, named for `run`;
    /// whole ones to `publish`, ended ones to `ending`.
    pub(super) fn new(
        out: &'a Path,
        run: &'a str,
        publish: Publish,
        ending: std::sync::mpsc::SyncSender<Partition>,
    ) -> Entries<'a> {
        Entries {
            out,
            run,
            open: BTreeMap::new(),
            buffered: 0,
            publish,
            ending,
        }
    }

    fn add(&mut self, agent: &str, day: String, rows: Columns) -> io::Result<()> {
        let key = (agent.to_string(), day);
        let p = self.open.entry(key.clone()).or_insert_with(|| {
            let dir = self
                .out
                .join("entries")
                .join(format!("agent={}", key.0))
                .join(format!("day={}", key.1));
            Partition::new(dir, 0)
        });
        self.buffered += rows.bytes();
        p.rows += rows.rows();
        p.bytes += rows.bytes();
        p.buffer.push(rows);
        if p.rows >= ROW_GROUP {
            self.flush(&key)?;
        }
        while self.buffered > BUFFERED {
            let Some(largest) = self
                .open
                .iter()
                .max_by_key(|(_, p)| p.bytes)
                .map(|(k, _)| k.clone())
            else {
                break;
            };
            self.flush(&largest)?;
        }
        Ok(())
    }

    /// Writes a partition's buffered rows as a row group of its part file,
    /// ending the file when it is large enough.
    fn flush(&mut self, key: &(String, String)) -> io::Result<()> {
        let Some(p) = self.open.get_mut(key) else {
            return Ok(());
        };
        self.buffered -= p.bytes;
        p.flush(self.run, &self.publish)
    }

    /// Hands the partition of `day` to be written out and its part file
    /// ended now; rows of that day that come later begin the next part
    /// file.
    fn end(&mut self, agent: &str, day: String) -> io::Result<()> {
        let Some(p) = self.open.get_mut(&(agent.to_string(), day)) else {
            return Ok(());
        };
        if p.rows == 0 && p.part.is_none() {
            return Ok(());
        }
        // (Past the number the part file being ended takes.)
        let fresh = Partition::new(p.dir.clone(), p.next + usize::from(p.part.is_none()));
        let p = std::mem::replace(p, fresh);
        self.buffered -= p.bytes;
        self.hand(p)
    }

    /// Hands `p` to the threads that write it out and end its part file.
    fn hand(&self, p: Partition) -> io::Result<()> {
        self.ending
            .send(p)
            .map_err(|_| io::Error::other("the part files' writers stopped"))
    }

    /// Hands every partition to be written out and its part file ended,
    /// the largest first.
    pub(super) fn finish(mut self) -> io::Result<()> {
        let mut partitions: Vec<Partition> = std::mem::take(&mut self.open).into_values().collect();
        partitions.sort_by_key(|p| std::cmp::Reverse(p.bytes));
        for p in partitions {
            self.hand(p)?;
        }
        Ok(())
    }

    /// Gives up: the part files still being written are removed (those
    /// handed to be put in place are the caller's to take back).
    pub(super) fn abandon(self) {
        for p in self.open.into_values() {
            if let Some(part) = p.part {
                part.abandon();
            }
        }
    }
}

/// Writes out each partition that comes (its rows as a row group of its
/// part file, begun when there is none) and ends its part file, handed to
/// `publish`; on every core, beside the reading. After a failure, what
/// comes is given up, unwritten; the first failure is the answer.
pub(super) fn end_partitions(
    ending: &Mutex<std::sync::mpsc::Receiver<Partition>>,
    run: &str,
    publish: &Publish,
    failed: &Mutex<Option<io::Error>>,
) {
    let failed = |e: Option<io::Error>| {
        let mut failed = failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if failed.is_none() {
            *failed = e;
        }
        failed.is_some()
    };
    loop {
        let next = ending
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .recv();
        let Ok(mut p) = next else { return };
        if failed(None) {
            if let Some(part) = p.part.take() {
                part.abandon();
            }
            continue;
        }
        let done = p.flush(run, publish).and_then(|()| match p.part.take() {
            Some(part) => part.close().map(|closed| publish.part(closed)),
            None => Ok(()),
        });
        if let Err(e) = done {
            if let Some(part) = p.part.take() {
                part.abandon();
            }
            failed(Some(e));
        }
    }
}
