//! Why ysess will not append to a session, or why what it appended may be
//! gone.

use std::io;

/// Why ysess will not append to a session, or why what it appended may be
/// gone.
#[derive(Debug)]
pub enum WriteError {
    /// The last line is torn (an interrupted write): appending after it
    /// would bury it mid-file.
    Torn {
        /// The torn line's number.
        line: u64,
        /// The file's length when read.
        len: u64,
    },
    /// The file holds lines yoagent would refuse.
    Invalid(crate::repo::LoadError),
    /// The file holds no entry. Starting a session is an explicit act
    /// (`append --create`): an app saving the file whole truncates it first,
    /// and an empty file is what ysess then sees.
    Empty,
    /// Another program wrote to the file, or replaced it, while ysess read
    /// it: what was read is no longer what is there.
    Changed,
    /// The file was cut short (or emptied) after ysess read it: another
    /// program is saving it whole.
    Shrank,
    /// The lines were written, but another program saved or replaced the
    /// file meanwhile: they may be lost, or may land after lines ysess did
    /// not plan on. `taken_back` says whether ysess removed them again.
    Lost {
        /// What happened.
        why: &'static str,
        /// ysess took its lines back out.
        taken_back: bool,
    },
    /// Not a regular file (a device, a directory, a pipe).
    NotAFile,
    /// A format ysess reads but does not write yet.
    Format(crate::format::Format),
    /// A pi version-1 file, whose entries pi renumbers when it opens it.
    Unnumbered,
    /// The app wrote to its session (or replaced it) while ysess planned
    /// records to keep beside it: they would stand before what it wrote.
    AppWrote,
    /// The session's app owns its file, and there is no folder to keep
    /// ysess's refs in (no `$YSESS_REFS`, `$XDG_DATA_HOME` or `$HOME`).
    NoStore,
    /// Another error, from the system.
    Io(io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Torn { line, .. } => {
                write!(
                    f,
                    "the last line ({line}) is torn, as by an interrupted write"
                )
            }
            WriteError::Invalid(e) => write!(f, "{e}"),
            WriteError::Empty => write!(f, "the file holds no session (it is empty)"),
            WriteError::Changed => {
                write!(
                    f,
                    "another program changed or replaced the file while ysess read it"
                )
            }
            WriteError::Shrank => write!(
                f,
                "the file shrank while ysess read it: another program is saving it"
            ),
            WriteError::Lost { why, taken_back } => {
                write!(f, "{why} while ysess appended to it")?;
                if *taken_back {
                    write!(f, "; ysess took its lines back out")
                } else {
                    write!(f, "; the new lines may be lost")
                }
            }
            WriteError::NotAFile => write!(f, "not a regular file"),
            WriteError::Format(format) => write!(
                f,
                "a {} session: ysess reads it, and leaves writing it to the app that owns it",
                format.name()
            ),
            WriteError::Unnumbered => write!(
                f,
                "a pi version-1 session: its entries have no ids yet, and pi gives them new ones \
                 (and drops the parents of anything appended) when it next opens the file"
            ),
            WriteError::AppWrote => write!(
                f,
                "the app that owns the session wrote to it while ysess planned its refs"
            ),
            WriteError::NoStore => write!(
                f,
                "no folder to keep ysess's refs for this session in (its app owns the file): \
                 none of YSESS_REFS, XDG_DATA_HOME, HOME is set"
            ),
            WriteError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> Self {
        WriteError::Io(e)
    }
}
