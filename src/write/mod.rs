//! Changing session files: the one module that writes them. ysess never
//! rewrites history: it appends ([`Locked`]: lock, check, append, verify),
//! and the only cut it makes is of a torn last line, whose bytes are saved
//! beside the file first ([`repair`]). [`plan`] says what to append;
//! [`output`] writes the other files a command makes (`export -o`).

pub mod archive;
mod beside;
pub mod database;
mod error;
pub mod export;
pub mod output;
pub mod plan;
pub mod repair;

pub use error::WriteError;
pub use repair::{RepairError, backup_path, cut_torn};

use std::fs::{File, OpenOptions};
use std::io::{self, Seek, Write};
use std::path::{Path, PathBuf};

use crate::input::read_at;

/// A point in an append where a debug build (the one `cargo test` builds)
/// stops when `YSESS_DEBUG_PAUSE` names it: it says `ysess: paused at
/// POINT` on stderr and waits to be killed, so that the tests kill it at
/// that very step, not at a moment timing happens to hit. A release build
/// has no such point: the variable does nothing there.
#[cfg(debug_assertions)]
fn pause(point: &str) {
    if std::env::var_os("YSESS_DEBUG_PAUSE").is_some_and(|p| p == point) {
        let _ = writeln!(io::stderr(), "ysess: paused at {point}");
        loop {
            std::thread::park();
        }
    }
}

#[cfg(not(debug_assertions))]
fn pause(_: &str) {}

/// The device and inode a path or an open file names.
type FileId = (u64, u64);

#[cfg(unix)]
fn file_id(meta: &std::fs::Metadata) -> FileId {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn file_id(_: &std::fs::Metadata) -> FileId {
    (0, 0)
}

/// Whether `path` still names the file `file` has open (not a new file
/// renamed into its place, nor nothing at all).
pub(crate) fn still_there(path: &Path, file: &File) -> io::Result<bool> {
    match std::fs::metadata(path) {
        Ok(named) => Ok(file_id(&named) == file_id(&file.metadata()?)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// How many bytes at the end of the file are compared before and after a
/// write: enough to hold the last lines, which every whole-file save
/// rewrites (yoagent's `checkpoint` sets a label on the last line).
const TAIL: u64 = 64 << 10;

/// Whether a missing or empty file may become a new session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Create {
    /// Only a file that holds a session is appended to.
    No,
    /// A missing file is created, and an empty one is written to
    /// (`append --create`).
    Allowed,
}

/// A session file opened for appending: it holds an exclusive lock on the
/// file until dropped, so what was read is what is there when the new lines
/// go in, and two ysess processes never interleave their writes. Programs
/// that do not take the lock (an app saving the file whole) are caught by
/// checks right before and right after the write.
pub struct Locked {
    file: File,
    path: PathBuf,
    /// The session as it is now.
    pub repo: crate::repo::Repo,
    /// The file as planned on: its length, its last bytes, which file.
    len: u64,
    tail: Vec<u8>,
    id: FileId,
    /// This process made the file (`append --create`).
    created: bool,
    /// The file is the refs file kept beside an app's session
    /// ([`crate::refs::store`]), not the session's own.
    beside: Option<Beside>,
}

/// The app's session, as a write beside it holds it.
enum App {
    /// A file of its own, open.
    File(File),
    /// A session its app keeps in a database ([`crate::format::Spec::keeps_whole`]):
    /// read whole again to look at it.
    Whole,
}

/// What a write into a refs file keeps of the app's session it is for.
struct Beside {
    /// The line the refs file starts with when it is new (else empty).
    header: String,
    /// The app's file, as read, and where.
    app: App,
    app_path: PathBuf,
    /// How many of its bytes were read.
    app_len: u64,
}

impl Locked {
    /// The session file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Opens `path` for appending (through a symlink, never replacing it),
    /// takes the lock and reads the session, all from the one open file.
    /// Refuses a file yoagent would refuse (a torn last line in particular),
    /// one that holds no entry (unless `create`), and one that another
    /// program changes meanwhile.
    pub fn open(path: &Path, create: Create) -> Result<Locked, WriteError> {
        // A file renamed into place while ysess waited for the lock is the
        // one to write to: open it again (a few times at most).
        for _ in 0..5 {
            let mut options = OpenOptions::new();
            options.read(true).append(true);
            // A file made here and then refused stays, empty: removing it
            // again could remove a file an app saved there meanwhile.
            let (file, created) = if create == Create::Allowed {
                match options.clone().create_new(true).open(path) {
                    Ok(file) => (file, true),
                    Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                        (options.open(path)?, false)
                    }
                    Err(e) => return Err(e.into()),
                }
            } else {
                (options.open(path)?, false)
            };
            if !file.metadata()?.is_file() {
                return Err(WriteError::NotAFile);
            }
            file.lock()?;
            if !still_there(path, &file)? {
                continue;
            }
            let meta = file.metadata()?;
            let (len, id) = (meta.len(), file_id(&meta));
            let session = match crate::repo::Repo::open(&file, &crate::repo::Open::default()) {
                Ok(session) => session,
                Err(crate::repo::LoadError::Invalid { first, errors }) => {
                    return Err(match first.code {
                        crate::check::Code::TruncatedLastLine => WriteError::Torn {
                            line: first.line.unwrap_or(0),
                            len,
                        },
                        _ => WriteError::Invalid(crate::repo::LoadError::Invalid { first, errors }),
                    });
                }
                Err(crate::repo::LoadError::Io(e)) => return Err(e.into()),
            };
            pause("loaded");
            // The session read must be the bytes the file held when looked
            // at: an app that empties the file to save it can make the
            // length seen before the read and after it both 0 while the
            // read itself saw a whole session, and a batch planned on an
            // empty file has no newline of its own before it.
            if session.read_len() != len {
                return Err(if session.read_len() > len {
                    WriteError::Changed
                } else {
                    WriteError::Shrank
                });
            }
            let tail_len = len.min(TAIL);
            let tail = match read_at(&file, len - tail_len, tail_len) {
                Ok(tail) => tail,
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    return Err(WriteError::Shrank);
                }
                Err(e) => return Err(e.into()),
            };
            match file.metadata()?.len() {
                now if now < len => return Err(WriteError::Shrank),
                now if now != len => return Err(WriteError::Changed),
                _ => {}
            }
            if session.tree.is_empty() && create == Create::No {
                return Err(WriteError::Empty);
            }
            if !session.format.writable() {
                return Err(WriteError::Format(session.format));
            }
            if session.format.numbered_by_line(session.version) {
                return Err(WriteError::Unnumbered);
            }
            return Ok(Locked {
                file,
                path: path.to_path_buf(),
                repo: session,
                len,
                tail,
                id,
                created,
                beside: None,
            });
        }
        Err(WriteError::Changed)
    }

    /// Whether the file is still the one planned on: the same file at the
    /// path, as long as it was, ending with the same bytes. Read again from
    /// the file, never from what was kept.
    fn as_planned(&self) -> Result<(), WriteError> {
        if !still_there(&self.path, &self.file)? {
            return Err(WriteError::Changed);
        }
        // Records beside an app's file are placed after what the app had
        // written: it must not have written more since (or been replaced).
        if let Some(beside) = &self.beside {
            let wrote = match &beside.app {
                App::File(app) => {
                    !still_there(&beside.app_path, app)? || app.metadata()?.len() != beside.app_len
                }
                App::Whole => {
                    crate::format::Format::read_whole(&beside.app_path)
                        .transpose()?
                        .map_or(0, |b| b.len() as u64)
                        != beside.app_len
                }
            };
            if wrote {
                return Err(WriteError::AppWrote);
            }
        }
        let meta = self.file.metadata()?;
        if file_id(&meta) != self.id {
            return Err(WriteError::Changed);
        }
        match meta.len() {
            now if now < self.len => return Err(WriteError::Shrank),
            now if now != self.len => return Err(WriteError::Changed),
            _ => {}
        }
        let tail_len = self.tail.len() as u64;
        match read_at(&self.file, self.len - tail_len, tail_len) {
            Ok(tail) if tail == self.tail => Ok(()),
            Ok(_) => Err(WriteError::Changed),
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Err(WriteError::Shrank),
            Err(e) => Err(e.into()),
        }
    }

    /// The batch as written: whole lines, after a newline of its own
    /// whenever the file holds bytes, whatever its last byte was when
    /// checked. An app that saves without a final newline (yoagent writes
    /// none after its last line) between the check and the write would
    /// otherwise get ysess's first line glued to its last one; at worst
    /// this leaves a blank line, which yoagent, pi and `fsck` skip. An empty
    /// file gets none: pi takes only a first line that is its header.
    fn batch(&self, lines: &[String]) -> Vec<u8> {
        let mut buf = Vec::new();
        match &self.beside {
            // Only ysess writes a refs file, under its lock, each line
            // ended: a newline is needed only after a write cut short.
            Some(beside) => {
                if self.tail.last().is_some_and(|&b| b != b'\n') {
                    buf.push(b'\n');
                }
                if !beside.header.is_empty() {
                    buf.extend_from_slice(beside.header.as_bytes());
                    buf.push(b'\n');
                }
            }
            None if self.len > 0 => buf.push(b'\n'),
            None => {}
        }
        for line in lines {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
        buf
    }

    /// Appends whole lines in one write and flushes them to disk.
    ///
    /// Right before the write the file must still be as planned on (another
    /// program that does not take the lock may have written meanwhile: then
    /// nothing is written). The write is one `O_APPEND` write. If it fails
    /// or falls short, the file is cut back to what it was: it never keeps
    /// half a line of ysess's. Right after it, the lines must have landed
    /// right after the bytes planned on, in the file the path still names;
    /// otherwise a concurrent save may have dropped them, and this says so.
    pub fn append(self, lines: &[String]) -> Result<(), WriteError> {
        let buf = self.batch(lines);
        pause("planned");
        self.as_planned()?;
        let start = self.write(&buf)?;
        pause("checking");
        self.check_written(start, &buf)?;
        // A new file's name is on disk too, not only its bytes.
        if self.created
            && let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
        {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }

    /// Writes `buf` at the end of the file in one write; returns where it
    /// landed.
    fn write(&self, buf: &[u8]) -> Result<u64, WriteError> {
        let mut file = &self.file;
        // A write that fails wrote nothing.
        let n = file.write(buf)?;
        pause("written");
        let synced = if n == buf.len() {
            self.file.sync_data()
        } else {
            Err(io::Error::new(
                io::ErrorKind::WriteZero,
                format!("only {n} of {} bytes were written", buf.len()),
            ))
        };
        if let Err(e) = synced {
            // Take back what this write put in the file, and only that: an
            // app that does not take the lock may have written since.
            let taken_back = file
                .stream_position()
                .is_ok_and(|end| self.take_back(end - n as u64, &buf[..n]));
            return Err(if taken_back {
                e.into()
            } else {
                WriteError::Lost {
                    why: "the write failed part way",
                    taken_back: false,
                }
            });
        }
        // An O_APPEND write leaves the position at the end of what it wrote.
        file.stream_position()
            .map(|end| end - buf.len() as u64)
            .map_err(|_| WriteError::Lost {
                why: "the file's position could not be read back",
                taken_back: false,
            })
    }

    /// After the write: the lines must be where they were planned to go.
    /// Whatever goes wrong here, the lines were written: it is reported as
    /// such, never as "nothing was written".
    fn check_written(&self, start: u64, buf: &[u8]) -> Result<(), WriteError> {
        self.check_written_or_io(start, buf).unwrap_or_else(|e| {
            Err(WriteError::Lost {
                why: match e.kind() {
                    io::ErrorKind::UnexpectedEof => "another program cut the file short",
                    _ => "the file could not be read back",
                },
                taken_back: false,
            })
        })
    }

    fn check_written_or_io(&self, start: u64, buf: &[u8]) -> io::Result<Result<(), WriteError>> {
        let lost = |why, taken_back| Ok(Err(WriteError::Lost { why, taken_back }));
        if !still_there(&self.path, &self.file)? {
            return lost("another program replaced the file", false);
        }
        if start == self.len {
            let tail_len = self.tail.len() as u64;
            let before = read_at(&self.file, self.len - tail_len, tail_len)?;
            let ours = read_at(&self.file, start, buf.len() as u64).ok();
            if before == self.tail && ours.as_deref() == Some(buf) {
                return Ok(Ok(()));
            }
        }
        if start == 0 {
            // The file was emptied just before the write: an app is saving
            // it whole, and its write lands over these lines. Cutting them
            // now could cut the app's bytes instead.
            return lost("another program emptied the file to save it", false);
        }
        // The file was saved whole around the write: these lines now follow
        // lines they were not numbered for (ids may clash). Take them back
        // while they are still the file's last bytes.
        let taken_back = self.take_back(start, buf);
        lost("another program saved the file", taken_back)
    }

    /// Cuts `ours`, written at `start`, off the end of the file, if they are
    /// still its last bytes; whether it did. The check is made right before
    /// the cut: an app that does not take the lock and saves in between
    /// (microseconds) is the one case no program can rule out.
    fn take_back(&self, start: u64, ours: &[u8]) -> bool {
        let end = start + ours.len() as u64;
        let still_ours = self.file.metadata().is_ok_and(|m| m.len() == end)
            && read_at(&self.file, start, ours.len() as u64)
                .ok()
                .as_deref()
                == Some(ours);
        still_ours && self.file.set_len(start).is_ok() && self.file.sync_data().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::Torn;

    fn line(id: &str, parent: Option<&str>) -> String {
        serde_json::json!({"id": id, "parent_id": parent, "timestamp": 1,
            "message": {"role": "user", "content": [{"type": "text", "text": id}], "timestamp": 1}})
        .to_string()
    }

    /// A session as yoagent saves it: no newline after the last line.
    fn session(n: usize) -> String {
        (1..=n)
            .map(|k| {
                let parent = (k > 1).then(|| format!("e{}", k - 1));
                line(&format!("e{k}"), parent.as_deref())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn setup(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.jsonl");
        std::fs::write(&path, text).expect("write");
        (dir, path)
    }

    /// An app's save through a temporary file renamed into place.
    fn save_by_rename(path: &Path, text: &str) {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, text).expect("write");
        std::fs::rename(&tmp, path).expect("rename");
    }

    #[test]
    fn lines_go_after_a_newline_when_the_file_lacks_one() {
        let (_dir, path) = setup(&session(2));
        let locked = Locked::open(&path, Create::No).expect("opens");
        locked.append(&[line("e3", Some("e2"))]).expect("appends");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            format!("{}\n{}\n", session(2), line("e3", Some("e2")))
        );
    }

    #[test]
    fn an_empty_file_is_not_a_new_session_unless_asked() {
        let (_dir, path) = setup("");
        assert!(matches!(
            Locked::open(&path, Create::No),
            Err(WriteError::Empty)
        ));
        let locked = Locked::open(&path, Create::Allowed).expect("opens");
        locked.append(&[line("e1", None)]).expect("appends");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            line("e1", None) + "\n"
        );
    }

    #[test]
    fn a_save_that_empties_the_file_after_planning_is_refused_before_writing() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        File::create(&path).expect("the app truncates");
        let e = locked.append(&[line("e4", Some("e3"))]).unwrap_err();
        assert!(matches!(e, WriteError::Shrank), "{e}");
        assert_eq!(std::fs::read(&path).expect("read"), b"");
    }

    #[test]
    fn a_save_that_renames_a_file_into_place_after_planning_is_refused_before_writing() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        save_by_rename(&path, &session(4));
        let e = locked.append(&[line("e4", Some("e3"))]).unwrap_err();
        assert!(matches!(e, WriteError::Changed), "{e}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), session(4));
    }

    #[test]
    fn a_same_length_rewrite_after_planning_is_refused_before_writing() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let changed = session(3).replace("\"text\":\"e3\"", "\"text\":\"x3\"");
        std::fs::write(&path, &changed).expect("the app saves");
        let e = locked.append(&[line("e4", Some("e3"))]).unwrap_err();
        assert!(matches!(e, WriteError::Changed), "{e}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), changed);
    }

    // The checks after the write: a save that lands between the last check
    // and the write itself.

    #[test]
    fn a_whole_file_save_just_before_the_write_is_reported_and_the_lines_taken_back() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e4", Some("e3"))]);
        locked.as_planned().expect("as planned");
        // The app appended its own e4 and saved: ysess's e4 would clash.
        std::fs::write(&path, session(4)).expect("the app saves");
        let start = locked.write(&buf).expect("writes");
        let e = locked.check_written(start, &buf).unwrap_err();
        assert!(
            matches!(
                e,
                WriteError::Lost {
                    taken_back: true,
                    ..
                }
            ),
            "{e}"
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), session(4));
    }

    #[test]
    fn a_rename_just_before_the_write_is_reported() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e4", Some("e3"))]);
        locked.as_planned().expect("as planned");
        save_by_rename(&path, &session(4));
        let start = locked.write(&buf).expect("writes");
        let e = locked.check_written(start, &buf).unwrap_err();
        assert!(matches!(e, WriteError::Lost { .. }), "{e}");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), session(4));
    }

    #[test]
    fn a_truncation_just_before_the_write_is_reported_and_the_apps_write_wins() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e4", Some("e3"))]);
        locked.as_planned().expect("as planned");
        // fs::write: the truncation, then (after ysess's write) the bytes.
        let mut app = File::create(&path).expect("the app truncates");
        let start = locked.write(&buf).expect("writes");
        let e = locked.check_written(start, &buf).unwrap_err();
        assert!(
            matches!(
                e,
                WriteError::Lost {
                    taken_back: false,
                    ..
                }
            ),
            "{e}"
        );
        app.write_all(session(4).as_bytes())
            .expect("the app writes");
        assert_eq!(std::fs::read_to_string(&path).expect("read"), session(4));
    }

    #[test]
    fn a_save_without_a_final_newline_just_before_the_write_never_glues_the_lines_to_it() {
        // The check sees a final newline (ysess's own last write); then the
        // app saves with none, as yoagent's `to_jsonl` does.
        let (_dir, path) = setup(&(session(3) + "\n"));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e9", Some("e3"))]);
        locked.as_planned().expect("as planned");
        std::fs::write(&path, session(4)).expect("the app saves");
        let start = locked.write(&buf).expect("writes");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            format!("{}\n{}\n", session(4), line("e9", Some("e3"))),
            "the line is a line of its own"
        );
        let _ = locked.check_written(start, &buf);
        for line in std::fs::read_to_string(&path).expect("read").lines() {
            if !line.is_empty() {
                serde_json::from_str::<serde_json::Value>(line).expect("every line is one value");
            }
        }
    }

    #[test]
    fn a_batch_starts_with_its_own_newline_even_after_a_final_newline() {
        let (_dir, path) = setup(&(session(2) + "\n"));
        let locked = Locked::open(&path, Create::No).expect("opens");
        locked.append(&[line("e3", Some("e2"))]).expect("appends");
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(
            text,
            format!("{}\n\n{}\n", session(2), line("e3", Some("e2")))
        );
    }

    #[test]
    fn a_save_after_the_write_but_before_the_check_is_reported() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e4", Some("e3"))]);
        locked.as_planned().expect("as planned");
        let start = locked.write(&buf).expect("writes");
        std::fs::write(
            &path,
            session(3) + "\n" + &line("e4", Some("e3")).replace("e4\"}", "x\"}"),
        )
        .expect("the app saves");
        let e = locked.check_written(start, &buf).unwrap_err();
        assert!(matches!(e, WriteError::Lost { .. }), "{e}");
    }

    #[test]
    fn taking_lines_back_never_cuts_bytes_an_app_wrote_after_them() {
        let (_dir, path) = setup(&session(3));
        let locked = Locked::open(&path, Create::No).expect("opens");
        let buf = locked.batch(&[line("e4", Some("e3"))]);
        let start = locked.write(&buf).expect("writes");
        // An app appends after ysess's lines: they are no longer the last.
        let mut app = OpenOptions::new().append(true).open(&path).expect("app");
        app.write_all(b"\n{\"app\":1}").expect("app writes");
        let before = std::fs::read(&path).expect("read");
        assert!(!locked.take_back(start, &buf));
        assert_eq!(std::fs::read(&path).expect("read"), before);
        // Replaced by a save of another length: nothing is cut either.
        std::fs::write(&path, session(5)).expect("the app saves");
        assert!(!locked.take_back(start, &buf));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), session(5));
    }

    #[test]
    fn a_checkout_beside_an_app_that_wrote_meanwhile_reported_a_head_it_did_not_make() {
        let dir = tempfile::tempdir().expect("temp dir");
        let name = "dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl";
        let path = dir.path().join(name);
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents/claude/fork/projects/-tmp--tmpkrZJ8A-work")
            .join(name);
        let full = std::fs::read(&fixture).expect("the fixture");
        let cut = full.len() - 2000;
        let cut = full[..cut]
            .iter()
            .rposition(|&b| b == b'\n')
            .expect("a line")
            + 1;
        std::fs::write(&path, &full[..cut]).expect("written");
        let store = crate::refs::store::Store {
            root: dir.path().join("refs"),
        };
        let locked = Locked::open_for_records(&path, Some(&store)).expect("opens");
        let head = locked.repo.tree.head().expect("a head");
        let record = crate::format::records::Record {
            kind: crate::format::records::Kind::Checkout {
                target: locked.repo.tree.id(head).to_string(),
            },
            parent: locked.repo.tree.id(head).to_string(),
        };
        let ids = crate::write::plan::new_ids(&locked.repo, 1).expect("an id");
        let lines = crate::write::plan::lines(&locked.repo, std::slice::from_ref(&record), &ids, 1)
            .expect("lines");
        // Claude Code goes on in its file between the plan and the write.
        std::fs::write(&path, &full).expect("the app appends");
        let e = locked.append(&lines).unwrap_err();
        assert!(matches!(e, WriteError::AppWrote), "{e}");
        let refs = std::fs::read_to_string(store.file(
            crate::format::Format::from_name("claude").expect("a format"),
            "dd1d0d79-0c2f-4881-8188-0d790c2f1881",
        ))
        .unwrap_or_default();
        assert!(
            !refs.contains("ysess.checkout"),
            "nothing was written: {refs}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_repair_backup_is_no_more_readable_than_the_session() {
        use std::os::unix::fs::PermissionsExt;
        let good = session(2);
        let (_dir, path) = setup(&format!("{good}\n{{\"id\":\"e3\",\"par"));
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let len = std::fs::metadata(&path).expect("meta").len();
        let offset = good.len() as u64 + 1;
        let torn = Torn {
            offset,
            len: len - offset,
        };
        let backup = cut_torn(&path, torn, len).expect("repairs");
        let mode = std::fs::metadata(&backup)
            .expect("backup")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), good + "\n");
    }
}
