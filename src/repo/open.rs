//! The one way to open a session: [`Repo::open`], reading an [`Input`] as
//! an [`Open`] value says.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::{Held, LoadError, Repo, Side};
use crate::check::digest::Digest;
use crate::check::{Code, Options, Report, Severity, check_tree};
use crate::format::Format;
use crate::input::Source;
use crate::refs::Refs;
use crate::tree::Tree;

/// What opening a session does with a torn last line: one cut short, as
/// by an interrupted write or an agent writing it now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TornLine {
    /// An error like any other: the file is refused when its format's own
    /// loader refuses a damaged file (yoagent's, pi's).
    #[default]
    Refuse,
    /// No refusal: the line is kept aside in [`Repo::torn`], and the
    /// entries before it are read (as the format's app skips it).
    Keep,
}

/// How to open a session: what to read it as, what to keep of it, and
/// whether to read it into memory once. [`Open::default`] reads the file
/// as its first line shows, refuses a torn last line, builds subject
/// lines, and reads entries back from the file held open.
///
/// ```
/// use ysess::repo::{Open, Repo, TornLine};
///
/// let open = Open::default().torn(TornLine::Keep).tallies(true);
/// let repo = Repo::open("tests/fixtures/demo.jsonl", &open)?;
/// assert!(repo.torn.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Open {
    format: Option<Format>,
    torn: TornLine,
    subjects: bool,
    tallies: bool,
    once: Option<u64>,
    digest: bool,
    since: Option<Digest>,
}

impl Default for Open {
    fn default() -> Open {
        Open {
            format: None,
            torn: TornLine::Refuse,
            subjects: true,
            tallies: false,
            once: None,
            digest: false,
            since: None,
        }
    }
}

impl Open {
    /// Reads the file as `format` when one is given, whatever its first
    /// line shows (else as that line shows).
    pub fn format(mut self, format: Option<Format>) -> Open {
        self.format = format;
        self
    }

    /// What to do with a torn last line.
    pub fn torn(mut self, torn: TornLine) -> Open {
        self.torn = torn;
        self
    }

    /// Whether the tree keeps each entry's subject line (the default).
    /// Without them, a view that shows a few entries at a time (`ysess
    /// tui`) reads each one's subject when it shows it ([`Repo::subject`])
    /// and opens a large session sooner, in less memory.
    pub fn subjects(mut self, yes: bool) -> Open {
        self.subjects = yes;
        self
    }

    /// Whether to keep what each entry's line says of its usage and size,
    /// read in the check's own pass ([`Repo::tally`]), so `stats` and the
    /// tables need not read those lines again.
    pub fn tallies(mut self, yes: bool) -> Open {
        self.tallies = yes;
        self
    }

    /// Reads the session once: a regular file of at most `limit` bytes is
    /// read whole into memory, checked from there, and its entries read
    /// back from memory, never from the file again (what a command over
    /// many files wants: one read each, memory bounded by `limit` per file
    /// read at once). A larger file, or anything but a regular file, is
    /// read as without it. A locked file is always read through its handle.
    pub fn once(mut self, limit: u64) -> Open {
        self.once = Some(limit);
        self
    }

    /// Whether to take the whole file's digest, as read ([`Repo::digest`]).
    pub fn digest(mut self, yes: bool) -> Open {
        self.digest = yes;
        self
    }

    /// Refuses the file unless it starts with the bytes `digest` names (its
    /// one finding then `digestMismatch`); `None` checks nothing.
    pub fn since(mut self, digest: Option<Digest>) -> Open {
        self.since = digest;
        self
    }

    /// What the check is asked for.
    fn check(&self) -> Options {
        Options {
            subjects: self.subjects,
            format: self.format,
            tallies: self.tallies,
            digest: self.digest,
            since: self.since,
            ..Options::default()
        }
    }
}

/// What a session is read from. Each converts into it: a path (`-` is
/// standard input), a [`Source`], bytes already read, a locked file.
pub enum Input<'a> {
    /// A file, or standard input.
    Source(Source),
    /// A session file's bytes, all of them, read already (to look at them
    /// raw first, as `grep --all` does); entries are read back from them.
    Bytes(Vec<u8>),
    /// A file the caller holds open (and locked): read from its start, and
    /// entries read back, through that same handle.
    Locked(&'a std::fs::File),
}

impl From<Source> for Input<'_> {
    fn from(source: Source) -> Self {
        Input::Source(source)
    }
}

impl From<&Source> for Input<'_> {
    fn from(source: &Source) -> Self {
        Input::Source(source.clone())
    }
}

impl From<&Path> for Input<'_> {
    fn from(path: &Path) -> Self {
        Input::Source(Source::new(path))
    }
}

impl From<&PathBuf> for Input<'_> {
    fn from(path: &PathBuf) -> Self {
        Input::Source(Source::new(path))
    }
}

impl From<PathBuf> for Input<'_> {
    fn from(path: PathBuf) -> Self {
        Input::Source(Source::new(&path))
    }
}

impl From<&str> for Input<'_> {
    fn from(path: &str) -> Self {
        Input::Source(Source::new(Path::new(path)))
    }
}

impl From<Vec<u8>> for Input<'_> {
    fn from(bytes: Vec<u8>) -> Self {
        Input::Bytes(bytes)
    }
}

impl<'a> From<&'a std::fs::File> for Input<'a> {
    fn from(file: &'a std::fs::File) -> Self {
        Input::Locked(file)
    }
}

/// A file's report and tree as checked, and where its bytes are held.
type Loaded = (Report, Tree, Held);

impl Repo {
    /// Reads and checks a session as `options` say; refuses one its
    /// format's loader would refuse.
    pub fn open<'a>(input: impl Into<Input<'a>>, options: &Open) -> Result<Repo, LoadError> {
        let check = options.check();
        let read = match input.into() {
            Input::Source(Source::Stdin) => spooled(io::stdin(), &check)?,
            Input::Source(Source::Path(path)) => match options.once {
                Some(limit) => read_once(&path, limit, &check)?,
                None => read_streamed(&path, &check)?,
            },
            Input::Bytes(bytes) => in_memory(bytes, &check)?,
            Input::Locked(file) => {
                let mut reader = file;
                io::Seek::seek(&mut reader, io::SeekFrom::Start(0))?;
                let (report, tree) = check_tree(reader, &check)?;
                (report, tree, Held::Open(file.try_clone()?))
            }
        };
        Repo::finish(read, options)
    }

    /// The repo of a file read, as `options` take it: refused when it no
    /// longer starts as [`Open::since`] says, its torn line kept aside when
    /// asked.
    fn finish((mut report, tree, store): Loaded, options: &Open) -> Result<Repo, LoadError> {
        if let Some(changed) = report
            .findings
            .iter()
            .find(|f| f.code == Code::DigestMismatch)
        {
            return Err(LoadError::Invalid {
                first: changed.clone(),
                errors: 1,
            });
        }
        if options.torn == TornLine::Keep {
            report
                .findings
                .retain(|f| f.code != Code::TruncatedLastLine);
        }
        Repo::new(report, tree, store, !options.subjects)
    }

    /// The repo of a checked file, or the refusal its first error makes.
    fn new(report: Report, tree: Tree, store: Held, lean: bool) -> Result<Repo, LoadError> {
        let errors = report.errors();
        let first = report
            .findings
            .into_iter()
            .find(|f| f.severity() == Severity::Error);
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
            lean,
            tallies: report.tallies,
            digest: report.digest,
            format_memo: std::sync::OnceLock::new(),
            read_len: report.summary.bytes,
            side: Side::default(),
        };
        repo.refs = Refs::read(&repo.tree, |ix| repo.entry(ix))?;
        Ok(repo)
    }
}

/// A file read as it is checked, its entries read back from it later.
fn read_streamed(path: &Path, options: &Options) -> io::Result<Loaded> {
    if let Some(bytes) = Format::read_whole(path) {
        // A session its app keeps in a database: read whole, once.
        return spooled(io::Cursor::new(bytes?), options);
    }
    // One open file serves the check and every entry read later.
    // Only a regular file or a pipe (`<(…)`) is a session.
    let file = crate::input::open_session(path)?;
    if file.metadata()?.is_file() {
        let (report, tree) = check_tree(&file, options)?;
        Ok((report, tree, Held::Open(file)))
    } else {
        // A pipe (`-f <(…)`) cannot be read twice: keep what is read once.
        spooled(file, options)
    }
}

/// A file read once ([`Open::once`]): whole into memory when it is a
/// regular file of at most `limit` bytes.
fn read_once(path: &Path, limit: u64, options: &Options) -> io::Result<Loaded> {
    if let Some(bytes) = Format::read_whole(path) {
        // A session its app keeps in a database: read whole, once.
        return in_memory(bytes?, options);
    }
    let file = crate::input::open_session(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        spooled(file, options)
    } else if meta.len() > limit {
        let (report, tree) = check_tree(&file, options)?;
        Ok((report, tree, Held::Open(file)))
    } else {
        // The file as it was when looked at: what an agent appends
        // meanwhile is for the next look.
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        (&file).take(meta.len()).read_to_end(&mut bytes)?;
        in_memory(bytes, options)
    }
}

/// Bytes read already, checked and held.
fn in_memory(bytes: Vec<u8>, options: &Options) -> io::Result<Loaded> {
    let (report, tree) = check_tree(&bytes[..], options)?;
    Ok((report, tree, Held::Memory(bytes)))
}

/// Checks `reader` while keeping a copy of every byte read, for input that
/// cannot be read again. The check's line limit bounds what is kept when a
/// line never ends (`/dev/zero`).
fn spooled<R: Read + Send>(reader: R, options: &Options) -> io::Result<Loaded> {
    let mut kept = Vec::new();
    let tap = crate::input::Tap {
        reader,
        tap: |bytes: &[u8]| kept.extend_from_slice(bytes),
    };
    let (report, tree) = check_tree(tap, options)?;
    Ok((report, tree, Held::Memory(kept)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::Ix;

    /// Session fixtures of several formats, as paths.
    fn fixtures() -> Vec<PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        [
            "demo.jsonl",
            "medium.jsonl",
            "pi/demo.jsonl",
            "pi/v1.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "claude/compacted.jsonl",
            "claude/delegates.jsonl",
            "codex/rollout.jsonl",
        ]
        .map(|name| root.join(name))
        .to_vec()
    }

    #[test]
    fn a_lean_session_reads_each_subject_as_the_tree_keeps_it() {
        let torn = Open::default().torn(TornLine::Keep);
        for path in fixtures() {
            let name = path.display();
            let whole = Repo::open(&path, &torn).expect("opens");
            let lean = Repo::open(&path, &torn.subjects(false)).expect("opens lean");
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
        let dir = tempfile::tempdir().expect("a temp dir");
        let once = Open::default().once(u64::MAX);
        for name in [
            "demo.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "codex/rollout.jsonl",
        ] {
            let copy = dir.path().join(name.replace('/', "-"));
            std::fs::copy(root.join(name), &copy).expect("copies");
            let streamed = Repo::open(&copy, &Open::default()).expect("opens");
            let once = Repo::open(&copy, &once).expect("opens");
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
        // Above the limit the file is streamed, as without `once`.
        let big = dir.path().join("big.jsonl");
        std::fs::copy(root.join("demo.jsonl"), &big).expect("copies");
        let streamed = Repo::open(&big, &Open::default().once(10)).expect("opens");
        std::fs::write(&big, b"").expect("empties");
        assert!(streamed.entry(0).is_err());
    }

    type Entry = (Vec<u8>, String, Option<crate::format::Tally>, Option<Ix>);
    type Seen = (
        Vec<Entry>,
        String,
        (Format, Option<u64>, Option<String>, u64),
    );

    /// What a reader of the session sees of it: each entry's line,
    /// subject, tally and parent, its refs, its header's facts. (Where
    /// the whole lines end is not here: a file held open ends at its last
    /// entry, memory at the last byte read.)
    fn seen(repo: &Repo) -> Seen {
        let entries: Vec<_> = (0..repo.tree.len() as Ix)
            .map(|ix| {
                let tally = repo.tally(ix).cloned();
                let line = repo.line(ix).expect("reads");
                (
                    line,
                    repo.subject(ix).into_owned(),
                    tally,
                    repo.tree.parent(ix),
                )
            })
            .collect();
        let refs = format!("{:?}", repo.refs.pairs());
        let header = (
            repo.format,
            repo.version,
            repo.title.clone(),
            repo.read_len(),
        );
        (entries, refs, header)
    }

    #[test]
    fn a_session_read_once_is_the_session_streamed() {
        for path in fixtures() {
            let name = path.display();
            for open in [Open::default(), Open::default().tallies(true)] {
                let streamed = seen(&Repo::open(&path, &open).expect("opens"));
                let once = Repo::open(&path, &open.once(u64::MAX)).expect("opens");
                assert_eq!(seen(&once), streamed, "{name}: read whole");
                let over = Repo::open(&path, &open.once(1)).expect("opens");
                assert_eq!(seen(&over), streamed, "{name}: over the limit");
                let bytes = std::fs::read(&path).expect("reads");
                let read = Repo::open(bytes, &open).expect("opens");
                assert_eq!(seen(&read), streamed, "{name}: bytes read already");
                let file = std::fs::File::open(&path).expect("opens");
                let locked = Repo::open(&file, &open).expect("opens");
                assert_eq!(seen(&locked), streamed, "{name}: a file held open");
            }
        }
    }

    #[test]
    fn a_torn_last_line_is_refused_unless_kept() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        // Its last line ends without a newline: one is written before the
        // torn line, as an agent would have.
        let mut whole = std::fs::read(root.join("demo.jsonl")).expect("reads");
        whole.push(b'\n');
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("torn.jsonl");
        let mut torn = whole.clone();
        torn.extend_from_slice(br#"{"id":"e99","parentId":"e4","#);
        std::fs::write(&path, &torn).expect("writes");
        for once in [None, Some(u64::MAX)] {
            let open = once.map_or(Open::default(), |limit| Open::default().once(limit));
            match Repo::open(&path, &open) {
                Err(LoadError::Invalid { first, .. }) => {
                    assert_eq!(first.code, Code::TruncatedLastLine, "{once:?}");
                }
                Err(e) => panic!("{once:?}: refused for another reason: {e}"),
                Ok(_) => panic!("{once:?}: a torn last line is refused by default"),
            }
            let kept = Repo::open(&path, &open.torn(TornLine::Keep)).expect("opens");
            let intact = Repo::open(root.join("demo.jsonl"), &open).expect("opens");
            assert_eq!(kept.tree.len(), intact.tree.len(), "{once:?}");
            let at = kept
                .torn
                .as_ref()
                .expect("the torn line, kept aside")
                .offset;
            assert_eq!(at, whole.len() as u64, "{once:?}");
            assert_eq!(kept.whole_lines_end().expect("reads"), at, "{once:?}");
        }
    }

    #[test]
    fn tallies_and_the_digest_are_kept_only_when_asked() {
        let mut tallied = 0;
        for path in fixtures() {
            let name = path.display();
            let plain = Repo::open(&path, &Open::default()).expect("opens");
            let asked = Open::default().tallies(true).digest(true);
            let repo = Repo::open(&path, &asked).expect("opens");
            for ix in 0..plain.tree.len() as Ix {
                assert!(plain.tally(ix).is_none(), "{name}: entry {ix}");
                tallied += usize::from(repo.tally(ix).is_some());
            }
            assert_eq!(plain.digest(), None, "{name}");
            let digest = repo.digest().expect("asked for");
            let len = std::fs::metadata(&path).expect("exists").len();
            assert_eq!(digest, repo.digest_of_start(len).expect("reads"), "{name}");
        }
        assert!(tallied > 0, "some format's scanner reads tallies");
    }

    #[test]
    fn a_file_that_no_longer_starts_as_its_digest_says_is_refused() {
        let dir = tempfile::tempdir().expect("a temp dir");
        let path = dir.path().join("s.jsonl");
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        std::fs::copy(root.join("demo.jsonl"), &path).expect("copies");
        let first = Repo::open(&path, &Open::default().digest(true)).expect("opens");
        let since = Open::default().since(first.digest());
        Repo::open(&path, &since).expect("the same file opens");
        let mut bytes = std::fs::read(&path).expect("reads");
        bytes[2] ^= 0x20;
        std::fs::write(&path, &bytes).expect("writes");
        match Repo::open(&path, &since.once(u64::MAX)) {
            Err(LoadError::Invalid { first, errors }) => {
                assert_eq!((first.code, errors), (Code::DigestMismatch, 1));
            }
            Err(e) => panic!("refused for another reason: {e}"),
            Ok(_) => panic!("a rewritten start is refused"),
        }
    }
}
