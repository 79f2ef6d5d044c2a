//! Opening files to read, so that no path can make ysess read without end
//! or wait for a writer it was not asked to wait for: a session is a
//! regular file or a pipe (`<(command)`), never a device; everything else
//! ysess reads (an old copy, a manifest and the files it lists, a digest
//! file, a time zone) is a regular file, opened without waiting and, where
//! it is small by nature, read only up to a bound.

use std::fs::{File, FileType, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// What a file is, for messages: `a FIFO`, `a character device`.
pub fn kind(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "not a regular file"
    }
}

fn not_regular(t: FileType, what: &str) -> io::Error {
    if t.is_dir() {
        return io::Error::new(io::ErrorKind::IsADirectory, "it is a directory");
    }
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not a regular file; {what}", kind(t)),
    )
}

/// Opens a regular file to read. Never waits: a FIFO that takes the
/// place of the file between the look and the open is opened without
/// blocking, then refused, as is anything else that is not a regular file.
pub fn open_regular(path: &Path) -> io::Result<File> {
    open_regular_for(path, "ysess reads only regular files here")
}

fn open_regular_for(path: &Path, what: &str) -> io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type(), what));
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // No effect on a regular file's reads; keeps a FIFO's open from waiting.
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(not_regular(meta.file_type(), what));
    }
    Ok(file)
}

/// Reads a regular file of at most `limit` bytes whole (a time zone, a
/// digest file): a bigger one is refused, not read.
pub fn read_small(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("it holds more than {limit} bytes, more than such a file ever does"),
        ));
    }
    Ok(bytes)
}

/// How long opening a FIFO waits for a program to open it to write.
pub const FIFO_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// Opens a session file: a regular file, or a pipe (`-f <(command)`, which
/// some shells give as a named FIFO). A device (`/dev/urandom`,
/// `/dev/zero`), a socket or a directory is refused: none of them is a
/// session, and reading one may never end. A FIFO no program opens to
/// write within [`FIFO_WAIT`] is refused too, rather than waited for
/// without end.
pub fn open_session(path: &Path) -> io::Result<File> {
    const WHAT: &str = "a session is a regular file, `-` (standard input) or `<(command)`";
    let meta = std::fs::metadata(path)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if meta.file_type().is_fifo() {
            // As `cat` does, the open waits for the writer; but not for
            // ever. The open blocks in a thread of its own, left behind
            // when the wait ends (the process's end ends it).
            let (tx, rx) = std::sync::mpsc::channel();
            let opening = path.to_path_buf();
            std::thread::spawn(move || {
                let _ = tx.send(File::open(opening));
            });
            let file = match rx.recv_timeout(FIFO_WAIT) {
                Ok(opened) => opened?,
                Err(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!(
                            "it is a FIFO, and no program opened it to write within {} s",
                            FIFO_WAIT.as_secs()
                        ),
                    ));
                }
            };
            let t = file.metadata()?.file_type();
            return if t.is_fifo() || t.is_file() {
                Ok(file)
            } else {
                Err(not_regular(t, WHAT))
            };
        }
    }
    if !meta.is_file() {
        return Err(not_regular(meta.file_type(), WHAT));
    }
    open_regular_for(path, WHAT)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn devices_and_directories_are_not_sessions() {
        for path in ["/dev/urandom", "/dev/zero", "/"] {
            let e = open_session(Path::new(path)).expect_err(path);
            assert!(
                e.to_string().contains("not a regular file") || path == "/",
                "{path}: {e}"
            );
            assert!(open_regular(Path::new(path)).is_err(), "{path}");
        }
    }

    #[test]
    fn a_named_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo");
        assert!(made.success());
        let e = open_regular(&fifo).expect_err("a FIFO is not a regular file");
        assert!(e.to_string().contains("a FIFO"), "{e}");
        assert!(read_small(&fifo, 10).is_err());
    }

    #[test]
    fn a_small_file_over_its_bound_is_refused() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("f");
        std::fs::write(&path, [b'x'; 11]).expect("write");
        assert!(read_small(&path, 10).is_err());
        assert_eq!(read_small(&path, 11).expect("fits").len(), 11);
    }
}
