//! A session opened at a path: what every command starts from.
//!
//! [`Repo::open`] reads and checks the file once (refusing one its format's
//! own loader would refuse), and keeps what the commands need: the file's
//! [`Format`], its tree (with subject lines), its named branches, and the
//! file itself, held open, to read whole entries from when they are printed.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

use crate::check::{Finding, Options, check_tree};
use crate::format::Format;
use crate::format::message::{Entry, NotAnEntry};
use crate::input::Source;
use crate::refs::Refs;
use crate::refs::revision::{RevError, resolve_at};
use crate::tree::{Ix, Tree};

/// Where entry bytes are read back from: the file, or (for standard input,
/// which cannot be read twice) memory.
enum Held {
    /// The file, held open: read through the same handle that was checked
    /// (and, for writing commands, locked), whatever the path names meanwhile.
    Open(std::fs::File),
    Memory(Vec<u8>),
}

/// What [`Repo::load_once_with`] does besides reading a session.
#[derive(Debug, Clone, Copy, Default)]
pub struct Once {
    /// Compute the digest of the whole file, as read.
    pub digest: bool,
    /// Refuse the file unless it starts with the bytes this digest names
    /// (its first finding then `digestMismatch`).
    pub since: Option<crate::check::digest::Digest>,
    /// A torn last line (an agent writing it now) is no refusal: the
    /// entries before it are read, as [`Repo::load_torn`] reads them.
    pub torn: bool,
    /// Keep what each entry's line says of its usage and size, read in the
    /// check's own pass ([`Repo::tally`]), so `stats` and the tables need
    /// not read those lines again.
    pub tallies: bool,
}

/// A session file, read, checked and indexed.
pub struct Repo {
    /// The file's format.
    pub format: Format,
    /// Every entry, with the user's tree folded out of ysess's records.
    pub tree: Tree,
    /// The named branches.
    pub refs: Refs,
    /// The file version its header declares, as its app reads it (pi's 1,
    /// 2 or 3); `None` for a format without one.
    pub version: Option<u64>,
    /// The torn last line, when the file was loaded with
    /// [`Repo::load_torn`] and has one.
    pub torn: Option<crate::check::Torn>,
    /// The title the format's own lines give the session
    /// ([`crate::check::Report::title`]).
    pub title: Option<String>,
    store: Held,
    /// Read without subject lines ([`Repo::load_lean`]).
    lean: bool,
    /// Each entry's tally, when the load asked for them ([`Once::tallies`]).
    tallies: Vec<Option<crate::format::Tally>>,
    /// What the format works out once per session when first asked for
    /// (a Codex rollout's usage by model call): [`Repo::format_memo`].
    format_memo: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
    /// How many bytes of the file were read.
    read_len: u64,
    /// For a session whose app owns the file: its refs file, and the
    /// records joined from it ([`Repo::with_store`]).
    side: Side,
}

/// An app-owned session's refs, kept beside its file
/// ([`crate::refs::store`]).
#[derive(Default)]
struct Side {
    /// The session's id, as its app knows it.
    session: Option<String>,
    /// Its refs file (which may not exist yet).
    file: Option<std::path::PathBuf>,
    /// The entries from it, from this one on, are records from the refs
    /// file: `(entry, its line)`, in order.
    lines: Vec<(Ix, Vec<u8>)>,
    /// Where the app's whole lines ended when the session was read.
    app_end: Option<u64>,
    /// The refs file, as read.
    refs: Option<crate::refs::store::Refs>,
}

/// Why a session cannot be shown.
#[derive(Debug)]
pub enum LoadError {
    /// The file cannot be read.
    Io(io::Error),
    /// yoagent would refuse the file; the first error and how many there are.
    Invalid {
        /// The first error.
        first: Finding,
        /// How many errors there are.
        errors: usize,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(e) => write!(f, "cannot read: {e}"),
            LoadError::Invalid { first, errors } => {
                let at = first
                    .line
                    .map(|l| format!("line {l}: "))
                    .unwrap_or_default();
                let more = match errors {
                    1 => String::new(),
                    n => format!(" (and {} more)", n - 1),
                };
                write!(
                    f,
                    "not a valid session: {at}{}: {}{more}",
                    first.code, first.message
                )
            }
        }
    }
}

impl std::error::Error for LoadError {}

impl From<io::Error> for LoadError {
    fn from(e: io::Error) -> Self {
        LoadError::Io(e)
    }
}

/// Checks `reader` while keeping a copy of every byte read, for input that
/// cannot be read again. The check's line limit bounds what is kept when a
/// line never ends (`/dev/zero`).
fn spooled<R: Read + Send>(
    reader: R,
    options: &Options,
) -> io::Result<(crate::check::Report, Tree, Held)> {
    let mut kept = Vec::new();
    let tap = crate::input::Tap {
        reader,
        tap: |bytes: &[u8]| kept.extend_from_slice(bytes),
    };
    let (report, tree) = check_tree(tap, options)?;
    Ok((report, tree, Held::Memory(kept)))
}

impl Repo {
    /// Opens the session file at `path` (`-` is standard input).
    pub fn open(path: impl AsRef<Path>) -> Result<Repo, LoadError> {
        Repo::load(&Source::new(path.as_ref()))
    }

    /// Reads and checks a session; refuses one its format's loader would
    /// refuse.
    pub fn load(source: &Source) -> Result<Repo, LoadError> {
        Repo::load_as(source, None)
    }

    /// [`Repo::load`], reading the file as `format` when one is given
    /// (else as its first line shows).
    pub fn load_as(source: &Source, format: Option<Format>) -> Result<Repo, LoadError> {
        let (report, tree, store) = Repo::read(source, format, true, false)?;
        Repo::new(report, tree, store)
    }

    /// [`Repo::load_as`], keeping what each entry's line says of its usage
    /// and size ([`Repo::tally`]): for `stats`, which then reads only the
    /// lines the format's scanner did not read.
    pub fn load_tallied(source: &Source, format: Option<Format>) -> Result<Repo, LoadError> {
        let (report, tree, store) = Repo::read(source, format, true, true)?;
        Repo::new(report, tree, store)
    }

    /// [`Repo::load_once`], keeping each entry's tally ([`Repo::tally`]).
    pub fn load_once_tallied(path: &Path, limit: u64) -> Result<Repo, LoadError> {
        let once = Once {
            tallies: true,
            ..Once::default()
        };
        Repo::load_once_with(path, limit, &once).map(|(repo, _)| repo)
    }

    /// [`Repo::load`] for a session read once: a regular file of at most
    /// `limit` bytes is read whole into memory, checked from there, and its
    /// entries read back from memory, never from the file again (what a
    /// command over many files wants: one read each, memory bounded by
    /// `limit` per file read at once). A larger file, or anything but a
    /// regular file, is read as [`Repo::load`] reads it.
    pub fn load_once(path: &Path, limit: u64) -> Result<Repo, LoadError> {
        Repo::load_once_with(path, limit, &Once::default()).map(|(repo, _)| repo)
    }

    /// [`Repo::load_once_with`]'s read of a file: whole into memory when it
    /// is a regular file of at most `limit` bytes.
    fn read_once(
        path: &Path,
        limit: u64,
        options: &Options,
    ) -> Result<(crate::check::Report, Tree, Held), LoadError> {
        let file = crate::input::open_session(path)?;
        let meta = file.metadata()?;
        Ok(if !meta.is_file() {
            spooled(file, options)?
        } else if meta.len() > limit {
            let (report, tree) = check_tree(&file, options)?;
            (report, tree, Held::Open(file))
        } else {
            // The file as it was when looked at: what an agent appends
            // meanwhile is for the next look.
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            (&file).take(meta.len()).read_to_end(&mut bytes)?;
            let (report, tree) = check_tree(&bytes[..], options)?;
            (report, tree, Held::Memory(bytes))
        })
    }

    /// [`Repo::load_once`], with what [`Once`] asks besides; the file's
    /// digest when asked for.
    pub fn load_once_with(
        path: &Path,
        limit: u64,
        once: &Once,
    ) -> Result<(Repo, Option<crate::check::digest::Digest>), LoadError> {
        let options = Repo::once_options(once);
        let read = if let Some(bytes) = Format::read_whole(path) {
            // A session its app keeps in a database: read whole, once.
            let bytes = bytes?;
            let (report, tree) = check_tree(&bytes[..], &options)?;
            (report, tree, Held::Memory(bytes))
        } else {
            Repo::read_once(path, limit, &options)?
        };
        Repo::finish_once(read, once)
    }

    /// [`Repo::load_once`] of a session file whose bytes, all of them, were
    /// read already (to look at them raw first, as `grep --all` does).
    pub fn load_read(bytes: Vec<u8>) -> Result<Repo, LoadError> {
        let once = Once::default();
        let (report, tree) = check_tree(&bytes[..], &Repo::once_options(&once))?;
        Repo::finish_once((report, tree, Held::Memory(bytes)), &once).map(|(repo, _)| repo)
    }

    fn once_options(once: &Once) -> Options {
        Options {
            subjects: true,
            digest: once.digest,
            since: once.since,
            tallies: once.tallies,
            ..Options::default()
        }
    }

    /// The repo of what [`Repo::load_once_with`] read.
    fn finish_once(
        (mut report, tree, store): (crate::check::Report, Tree, Held),
        once: &Once,
    ) -> Result<(Repo, Option<crate::check::digest::Digest>), LoadError> {
        if let Some(changed) = report
            .findings
            .iter()
            .find(|f| f.code == crate::check::Code::DigestMismatch)
        {
            return Err(LoadError::Invalid {
                first: changed.clone(),
                errors: 1,
            });
        }
        if once.torn {
            report
                .findings
                .retain(|f| f.code != crate::check::Code::TruncatedLastLine);
        }
        let digest = report.digest;
        Ok((Repo::new(report, tree, store)?, digest))
    }

    /// [`Repo::load_as`], except that a torn last line (an interrupted
    /// write, which the format's app skips) is no refusal: it is kept in
    /// [`Repo::torn`], and the entries before it are read.
    pub fn load_torn(source: &Source, format: Option<Format>) -> Result<Repo, LoadError> {
        Repo::read_torn(source, format, true)
    }

    /// [`Repo::load_torn`] without the subject lines in the tree: a view
    /// that shows a few entries at a time (`ysess tui`) reads each one's
    /// subject when it shows it ([`Repo::subject`]), and opens a large
    /// session sooner, in less memory.
    pub fn load_lean(source: &Source, format: Option<Format>) -> Result<Repo, LoadError> {
        let mut repo = Repo::read_torn(source, format, false)?;
        repo.lean = true;
        Ok(repo)
    }

    /// A session read with a torn last line kept aside, with or without
    /// its subject lines.
    fn read_torn(
        source: &Source,
        format: Option<Format>,
        subjects: bool,
    ) -> Result<Repo, LoadError> {
        let (mut report, tree, store) = Repo::read(source, format, subjects, false)?;
        report
            .findings
            .retain(|f| f.code != crate::check::Code::TruncatedLastLine);
        Repo::new(report, tree, store)
    }

    /// What entry `ix`'s line says of its usage and size, when the load
    /// kept it ([`Once::tallies`]) and the format's scanner read the line;
    /// `None` otherwise (read it from the line).
    pub fn tally(&self, ix: Ix) -> Option<&crate::format::Tally> {
        self.tallies.get(ix as usize)?.as_ref()
    }

    /// Entry `ix`'s subject line: the tree's, or, for a repo read without
    /// them ([`Repo::load_lean`]), made from its line as the tree would
    /// have made it (empty when the line cannot be read).
    pub fn subject(&self, ix: Ix) -> std::borrow::Cow<'_, str> {
        if !self.lean {
            return std::borrow::Cow::Borrowed(self.tree.subject(ix));
        }
        let Ok(line) = self.line_bytes(ix) else {
            return std::borrow::Cow::Borrowed("");
        };
        match self.format.check_line(&line, true) {
            crate::format::Checked::Entry { facts, .. } => {
                std::borrow::Cow::Owned(facts.subject.as_deref().unwrap_or_default().to_string())
            }
            _ => std::borrow::Cow::Borrowed(""),
        }
    }

    fn read(
        source: &Source,
        format: Option<Format>,
        subjects: bool,
        tallies: bool,
    ) -> Result<(crate::check::Report, Tree, Held), LoadError> {
        let options = Options {
            subjects,
            format,
            tallies,
            ..Options::default()
        };
        let (report, tree, store) = match source {
            Source::Path(path) if let Some(bytes) = Format::read_whole(path) => {
                // A session its app keeps in a database: read whole, once.
                spooled(io::Cursor::new(bytes?), &options)?
            }
            Source::Path(path) => {
                // One open file serves the check and every entry read later.
                // Only a regular file or a pipe (`<(…)`) is a session.
                let file = crate::input::open_session(path)?;
                if file.metadata()?.is_file() {
                    let (report, tree) = check_tree(&file, &options)?;
                    (report, tree, Held::Open(file))
                } else {
                    // A pipe (`-f <(…)`) cannot be read twice:
                    // keep what is read once.
                    spooled(file, &options)?
                }
            }
            Source::Stdin => spooled(io::stdin(), &options)?,
        };
        Ok((report, tree, store))
    }

    /// The repo of a checked file, or the refusal its first error makes.
    fn new(report: crate::check::Report, tree: Tree, store: Held) -> Result<Repo, LoadError> {
        let errors = report.errors();
        let first = report
            .findings
            .into_iter()
            .find(|f| f.severity() == crate::check::Severity::Error);
        if let Some(first) = first.filter(|_| report.format.refuses_damaged_files()) {
            return Err(LoadError::Invalid { first, errors });
        }
        let mut repo = Repo {
            format: report.format,
            version: report.version,
            torn: report.torn,
            title: report.title,
            tree,
            refs: Refs::default(),
            store,
            lean: false,
            tallies: report.tallies,
            format_memo: std::sync::OnceLock::new(),
            read_len: report.summary.bytes,
            side: Side::default(),
        };
        repo.refs = Refs::read(&repo.tree, |ix| repo.entry(ix))?;
        Ok(repo)
    }

    /// Reads a session from a file the caller holds open (and locked).
    pub fn load_locked(file: &std::fs::File) -> Result<Repo, LoadError> {
        let options = Options {
            subjects: true,
            ..Options::default()
        };
        let mut reader = file;
        std::io::Seek::seek(&mut reader, std::io::SeekFrom::Start(0))?;
        let (report, tree) = check_tree(reader, &options)?;
        Repo::new(report, tree, Held::Open(file.try_clone()?))
    }

    /// HEAD: where the app that owns the file resumes.
    pub fn head(&self) -> Option<Ix> {
        self.tree.head()
    }

    /// The entry a revision names (`HEAD~2`, `first-draft`, an id, a
    /// branch, a unique prefix): the one resolver every command uses.
    pub fn resolve(&self, text: &str) -> Result<Ix, RevError> {
        // Only a text that may name an earlier head pays for the reflog.
        let previous = if text.contains("@{") || text.contains("@-") {
            crate::refs::reflog::previous_heads(&self.tree)
        } else {
            Vec::new()
        };
        resolve_at(&self.tree, self.head(), &previous, &self.refs.pairs(), text)
    }

    /// Each revision's entry, or a range's entries newest first, one after
    /// the other in the order given (`ysess show`); all resolved before
    /// any is returned.
    pub fn each(&self, texts: &[&str]) -> Result<Vec<Ix>, RevError> {
        let mut entries = Vec::new();
        for &text in texts {
            if self.is_range(text) {
                entries.extend(self.select(&[text], false)?);
            } else {
                entries.push(self.resolve(text)?);
            }
        }
        Ok(entries)
    }

    /// Whether `text` is a range (`A..B`, `A...B`, `^A`) rather than one
    /// revision (a name that exists is a revision, whatever it looks like).
    pub fn is_range(&self, text: &str) -> bool {
        crate::refs::range::Spec::parse(text, |t| self.resolve(t).is_ok()).is_range()
    }

    /// The entries that revisions and ranges (`A..B`, `A...B`, `^A`) name
    /// together, newest first; with `records`, ysess's records on their
    /// paths too.
    pub fn select(&self, texts: &[&str], records: bool) -> Result<Vec<Ix>, RevError> {
        let tree = &self.tree;
        crate::refs::range::select(
            tree,
            texts,
            |text| self.resolve(text),
            |ix| {
                if records {
                    tree.raw_parent(ix)
                } else {
                    tree.parent(ix)
                }
            },
        )
    }

    /// The number of the next id yoagent's `append` would give, `e<N+1>`
    /// for the largest N of the ids of the form `e<N>` (as yoagent parses
    /// them); `None` when N is already the largest number there is.
    pub fn next_number(&self) -> Option<u64> {
        let max = (0..self.tree.len() as Ix)
            .filter_map(|ix| crate::format::yoagent::counter_number(self.tree.id(ix)))
            .max()
            .unwrap_or(0);
        max.checked_add(1)
    }

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

    /// What the session's format works out once per session and keeps
    /// ([`crate::format::Spec::fill_turn`]: Codex's usage of each call).
    pub fn format_memo(&self) -> &std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>> {
        &self.format_memo
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
    fn side_line(&self, ix: Ix) -> Option<&[u8]> {
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

/// The session as a format's own code sees it.
impl crate::format::session::Session for Repo {
    fn tree(&self) -> &Tree {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lean_session_reads_each_subject_as_the_tree_keeps_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        for name in [
            "demo.jsonl",
            "pi/demo.jsonl",
            "pi/v1.jsonl",
            "claude/session.jsonl",
            "claude/compacted.jsonl",
            "claude/delegates.jsonl",
            "codex/rollout.jsonl",
        ] {
            let source = Source::Path(root.join(name));
            let whole = Repo::load_torn(&source, None).expect("loads");
            let lean = Repo::load_lean(&source, None).expect("loads lean");
            assert_eq!(whole.tree.len(), lean.tree.len(), "{name}");
            for ix in 0..whole.tree.len() as Ix {
                assert_eq!(
                    lean.tree.subject(ix),
                    "",
                    "{name}: the lean tree keeps none"
                );
                assert_eq!(lean.subject(ix), whole.subject(ix), "{name}: entry {ix}");
            }
        }
    }

    #[test]
    fn a_session_loaded_once_is_never_read_from_its_file_again() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = std::env::temp_dir().join(format!("ysess-load-once-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        for name in [
            "demo.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "codex/rollout.jsonl",
        ] {
            let copy = dir.join(name.replace('/', "-"));
            std::fs::copy(root.join(name), &copy).expect("copies");
            let streamed = Repo::open(&copy).expect("opens");
            let once = Repo::load_once(&copy, u64::MAX).expect("opens");
            // Emptied: only what was read at the load is there to read.
            std::fs::write(&copy, b"").expect("empties");
            assert_eq!(once.tree.len(), streamed.tree.len(), "{name}");
            assert!(streamed.entry(0).is_err(), "{name}: the file is empty now");
            for ix in 0..once.tree.len() as Ix {
                if once.tree.is_record(ix) {
                    continue;
                }
                let line = once.line(ix).expect("held in memory");
                assert_eq!(line.len() as u64, once.tree.node(ix).len, "{name}");
                once.entry(ix).expect("reads back from memory");
            }
            let head = once.start(64).expect("from memory");
            assert!(head.starts_with(b"{"), "{name}");
        }
        // Above the limit the file is streamed, as `Repo::open` reads it.
        let big = dir.join("big.jsonl");
        std::fs::copy(root.join("demo.jsonl"), &big).expect("copies");
        let streamed = Repo::load_once(&big, 10).expect("opens");
        std::fs::write(&big, b"").expect("empties");
        assert!(streamed.entry(0).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
