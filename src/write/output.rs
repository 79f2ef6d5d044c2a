//! Files a command writes whole, other than the session: `export -o FILE`
//! and `fsck --manifest OUT`.
//!
//! - A target that is one of the command's inputs is refused before
//!   anything is written: `-o` naming the session would replace it.
//! - A device, a FIFO, or anything under `/dev` or `/proc` (`/dev/stdout`)
//!   is written directly, never replaced by a regular file.
//! - Anything else is written into a temporary file created exclusively,
//!   under an unpredictable name, beside the target, then renamed over it:
//!   a planted symlink is never followed, a reader never sees half a file,
//!   and of several writers at once each leaves a whole file (the last
//!   rename wins).
//! - A new file is no more readable than the file it comes from; a file
//!   replaced keeps its mode (and, where allowed, its owner).
//! - Every error names the target.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::{FileId, file_id};

/// Why an output file was not written.
#[derive(Debug)]
pub struct OutputError {
    /// The target, as named.
    pub path: PathBuf,
    /// The output's path.
    pub kind: OutputErrorKind,
}

/// Why an output file cannot be written.
#[derive(Debug)]
pub enum OutputErrorKind {
    /// The target is a file the command reads.
    IsInput(PathBuf),
    /// The path names no file (`-o dir/`, `-o ..`).
    NoName,
    /// Another error, from the system.
    Io(io::Error),
}

impl std::fmt::Display for OutputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let path = self.path.display();
        match &self.kind {
            OutputErrorKind::IsInput(input) if input == &self.path => write!(
                f,
                "{path}: the command reads this file; it is not replaced by the output"
            ),
            OutputErrorKind::IsInput(input) => write!(
                f,
                "{path}: it is {}, which the command reads; it is not replaced by the output",
                input.display()
            ),
            OutputErrorKind::NoName => write!(f, "{path}: not a file name"),
            OutputErrorKind::Io(e) => write!(f, "{path}: cannot write: {e}"),
        }
    }
}

impl std::error::Error for OutputError {}

/// An output file being written; [`Output::finish`] puts it in place.
/// Dropped unfinished, it leaves the target as it was.
pub struct Output {
    path: PathBuf,
    to: To,
    /// The file the target named when the output was created, if any.
    target: Option<FileId>,
}

enum To {
    /// A device, a FIFO, standard output: written in place.
    Direct(File),
    /// A temporary file beside the target, and the target's metadata when
    /// it exists (the mode and owner to keep).
    Temp(tempfile::NamedTempFile, Option<Box<Metadata>>),
}

/// Removes the temporaries named `PREFIX….tmp` in `dir` that no living
/// writer holds locked: those a killed run left.
fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with(prefix) && name.ends_with(".tmp")) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        if file.try_lock().is_ok() {
            let _ = std::fs::remove_file(&path);
        }
    }
}

impl Output {
    /// Opens `path` for writing whole. `inputs` are the files the command
    /// reads (a target that is one of them is refused); a new file is
    /// given the permissions of `like` at most (the session it comes from).
    pub fn create(
        path: &Path,
        inputs: &[&Path],
        like: Option<&Path>,
    ) -> Result<Output, OutputError> {
        let fail = |kind| OutputError {
            path: path.to_path_buf(),
            kind,
        };
        let io = |e| fail(OutputErrorKind::Io(e));
        let existing = match std::fs::metadata(path) {
            Ok(meta) => Some(meta),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(io(e)),
        };
        let target = existing.as_ref().map(file_id);
        if let Some(target) = target {
            for input in inputs {
                if std::fs::metadata(input).is_ok_and(|m| file_id(&m) == target) {
                    return Err(fail(OutputErrorKind::IsInput(input.to_path_buf())));
                }
            }
        }
        let special = path.starts_with("/dev") || path.starts_with("/proc");
        if special || existing.as_ref().is_some_and(|m| !m.is_file()) {
            if existing.as_ref().is_some_and(Metadata::is_dir) {
                return Err(io(io::Error::new(
                    io::ErrorKind::IsADirectory,
                    "it is a directory",
                )));
            }
            // Appending: `/dev/stdout` may be a file the shell opened with `>>`.
            let file = OpenOptions::new().append(true).open(path).map_err(io)?;
            return Ok(Output {
                path: path.to_path_buf(),
                to: To::Direct(file),
                target,
            });
        }
        let name = path
            .file_name()
            .ok_or_else(|| fail(OutputErrorKind::NoName))?;
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let mut builder = tempfile::Builder::new();
        let prefix = format!(".{}.", name.to_string_lossy());
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // The process's umask still applies to this.
            let mode = like
                .and_then(|p| std::fs::metadata(p).ok())
                .map_or(0o666, |m| m.permissions().mode() & 0o666);
            builder.permissions(std::fs::Permissions::from_mode(mode));
        }
        #[cfg(not(unix))]
        let _ = like;
        // What a run killed before its rename left: a temporary of this
        // output no process holds any more (each writer holds a lock on
        // its own while it lives) is removed.
        remove_stale(dir, &prefix);
        // Held until the file is put in place or dropped. Another run
        // cleaning up may take a temporary for a stale one in the instant
        // between its making and its lock: then it is made again.
        let mut temp = builder.tempfile_in(dir).map_err(io)?;
        for _ in 0..8 {
            temp.as_file().lock().map_err(io)?;
            if crate::write::still_there(temp.path(), temp.as_file()).map_err(io)? {
                break;
            }
            temp = builder.tempfile_in(dir).map_err(io)?;
        }
        Ok(Output {
            path: path.to_path_buf(),
            to: To::Temp(temp, existing.map(Box::new)),
            target,
        })
    }

    /// Whether `meta` is the file the target named when it was created: a
    /// command that finds its inputs as it goes (a directory's walk) asks
    /// this of each, and must not replace one.
    pub fn is(&self, meta: &Metadata) -> bool {
        self.target == Some(file_id(meta))
    }

    /// The target, as named.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary file the output is written into before it is put in
    /// place, for a writer that opens it by name (SQLite's backup); none
    /// for a device or FIFO.
    pub fn temp_path(&self) -> Option<&Path> {
        match &self.to {
            To::Direct(_) => None,
            To::Temp(temp, _) => Some(temp.path()),
        }
    }

    fn file(&self) -> &File {
        match &self.to {
            To::Direct(file) => file,
            To::Temp(temp, _) => temp.as_file(),
        }
    }

    /// Puts the output in place: flushed to disk and renamed over the
    /// target (a device or FIFO has had its bytes already).
    pub fn finish(self) -> Result<(), OutputError> {
        let (temp, existing) = match self.to {
            To::Direct(_) => return Ok(()),
            To::Temp(temp, existing) => (temp, existing),
        };
        let fail = |e| OutputError {
            path: self.path.clone(),
            kind: OutputErrorKind::Io(e),
        };
        if let Some(meta) = &existing {
            keep_mode_and_owner(temp.as_file(), meta).map_err(fail)?;
        }
        temp.as_file().sync_all().map_err(fail)?;
        temp.persist(&self.path).map_err(|e| fail(e.error))?;
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty()) {
            let _ = File::open(dir).and_then(|d| d.sync_all());
        }
        Ok(())
    }
}

/// The replaced file's mode, and its owner where this process may set it;
/// where it may not, the new file is readable by its owner only.
#[cfg(unix)]
fn keep_mode_and_owner(file: &File, old: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let now = file.metadata()?;
    let mut mode = old.permissions().mode() & 0o7777;
    if (now.uid(), now.gid()) != (old.uid(), old.gid())
        && std::os::unix::fs::fchown(file, Some(old.uid()), Some(old.gid())).is_err()
    {
        mode &= 0o700;
    }
    file.set_permissions(std::fs::Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn keep_mode_and_owner(file: &File, old: &Metadata) -> io::Result<()> {
    file.set_permissions(old.permissions())
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut file = self.file();
        file.write(buf).map_err(|e| named(&self.path, e))
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut file = self.file();
        file.flush().map_err(|e| named(&self.path, e))
    }
}

/// An I/O error that names the file it happened on.
fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: cannot write: {e}", path.display()))
}

impl From<OutputError> for io::Error {
    fn from(e: OutputError) -> io::Error {
        let kind = match &e.kind {
            OutputErrorKind::Io(io) => io.kind(),
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out(dir: &Path, name: &str) -> PathBuf {
        dir.join(name)
    }

    #[test]
    fn a_target_that_is_an_input_is_refused_and_left_untouched() {
        let dir = tempfile::tempdir().expect("temp dir");
        let session = out(dir.path(), "s.jsonl");
        std::fs::write(&session, "{}\n").expect("write");
        let e = Output::create(&session, &[&session], None)
            .err()
            .expect("refused");
        assert!(matches!(e.kind, OutputErrorKind::IsInput(_)), "{e}");
        assert!(
            e.to_string().starts_with(&session.display().to_string()),
            "{e}"
        );
        assert_eq!(std::fs::read(&session).expect("read"), b"{}\n");
        // Through another name of the same file, too.
        #[cfg(unix)]
        {
            let link = out(dir.path(), "link");
            std::os::unix::fs::symlink(&session, &link).expect("symlink");
            assert!(Output::create(&link, &[&session], None).is_err());
        }
    }

    #[test]
    fn the_output_appears_whole_at_finish_and_not_before() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = out(dir.path(), "page.html");
        std::fs::write(&target, "old").expect("write");
        let mut o = Output::create(&target, &[], None).expect("creates");
        o.write_all(b"new page").expect("writes");
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        o.finish().expect("finishes");
        assert_eq!(std::fs::read(&target).expect("read"), b"new page");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file left");
    }

    #[test]
    fn an_output_dropped_unfinished_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = out(dir.path(), "page.html");
        std::fs::write(&target, "old").expect("write");
        let mut o = Output::create(&target, &[], None).expect("creates");
        o.write_all(b"half").expect("writes");
        drop(o);
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_new_output_is_no_more_readable_than_the_session_and_an_old_one_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let session = out(dir.path(), "s.jsonl");
        std::fs::write(&session, "{}\n").expect("write");
        std::fs::set_permissions(&session, std::fs::Permissions::from_mode(0o600)).expect("chmod");
        let mode = |p: &Path| std::fs::metadata(p).expect("meta").permissions().mode() & 0o777;

        let new = out(dir.path(), "new.html");
        let o = Output::create(&new, &[&session], Some(&session)).expect("creates");
        o.finish().expect("finishes");
        assert_eq!(mode(&new), 0o600);

        let old = out(dir.path(), "old.html");
        std::fs::write(&old, "x").expect("write");
        std::fs::set_permissions(&old, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        let o = Output::create(&old, &[&session], Some(&session)).expect("creates");
        o.finish().expect("finishes");
        assert_eq!(mode(&old), 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_in_place_not_replaced() {
        let mut o = Output::create(Path::new("/dev/null"), &[], None).expect("opens");
        o.write_all(b"bytes").expect("writes");
        o.finish().expect("finishes");
        assert!(!std::fs::metadata("/dev/null").expect("meta").is_file());
    }
}
