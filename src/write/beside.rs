//! Records kept beside a session whose app owns its file: the refs file
//! ysess keeps for it in the store, locked and appended to as a session
//! file is, with the app's file read under that lock and looked at again
//! right before the write.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use super::repair::{self, RepairError};
use super::{App, Beside, Create, FileId, Locked, TAIL, WriteError, file_id, still_there};
use crate::format::Format;
use crate::input::read_at;

impl Locked {
    /// Opens a session for ysess's records: the session file itself, as
    /// [`Locked::open`] does, when ysess writes into its format; else (its
    /// app owns the file) the refs file kept for it in `store`, made when
    /// there is none. The refs file's lock is taken first, then the app's
    /// file read (never opened for writing), so that records are placed
    /// after what the app had written when they are planned; the app's
    /// file is looked at again right before the write
    /// (as planned, as every write is).
    pub fn open_for_records(
        path: &Path,
        store: Option<&crate::refs::store::Store>,
    ) -> Result<Locked, WriteError> {
        let whole = Format::keeps_whole(path);
        // A pipe's bytes cannot be read again: never look into one.
        if !whole && !std::fs::metadata(path)?.is_file() {
            return Err(WriteError::NotAFile);
        }
        let (app, bytes) = match Format::read_whole(path) {
            Some(bytes) => (App::Whole, bytes?),
            None => (App::File(crate::input::open_session(path)?), Vec::new()),
        };
        let read = |at: u64, len: u64| -> io::Result<Vec<u8>> {
            match &app {
                App::File(file) => read_at(file, at, len),
                App::Whole => {
                    let from = (at as usize).min(bytes.len());
                    let to = (from + len as usize).min(bytes.len());
                    Ok(bytes[from..to].to_vec())
                }
            }
        };
        let size = match &app {
            App::File(file) => file.metadata()?.len(),
            App::Whole => bytes.len() as u64,
        };
        let head = read(0, size.min(1 << 20))?;
        let format = Format::detect(head.split(|&b| b == b'\n'));
        if format.writable() {
            drop(app);
            return Locked::open(path, Create::No);
        }
        let first = || {
            head.split(|&b| b == b'\n')
                .next()
                .unwrap_or_default()
                .to_vec()
        };
        let last = || {
            let len = size.min(64 << 10);
            read(size - len, len).unwrap_or_default()
        };
        let Some(store) = store else {
            return Err(WriteError::NoStore);
        };
        let Some(session) = format.session_id(path, first, last) else {
            return Err(WriteError::Format(format));
        };
        let refs_path = store.file(format, &session);
        if let Some(dir) = refs_path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let refs = RefsFile {
            path: refs_path,
            format,
            session,
        };
        for _ in 0..5 {
            let Some((file, created)) = refs.lock()? else {
                continue;
            };
            let (len, id, bytes) = refs.read(&file)?;
            let (repo, app_len) = refs.join(load_app(&app, path)?, &bytes, path)?;
            let tail_len = len.min(TAIL);
            let tail = bytes[(len - tail_len) as usize..].to_vec();
            let header = match len {
                0 => {
                    let path = std::path::absolute(path)?;
                    crate::refs::store::Header::new(format, &refs.session, &path).line()
                }
                _ => String::new(),
            };
            return Ok(Locked {
                file,
                path: refs.path,
                repo,
                len,
                tail,
                id,
                created,
                beside: Some(Beside {
                    header,
                    app,
                    app_path: path.to_path_buf(),
                    app_len,
                }),
            });
        }
        Err(WriteError::Changed)
    }
}

/// The refs file of one app's session, in the store.
struct RefsFile {
    path: PathBuf,
    format: Format,
    /// The session's id.
    session: String,
}

impl RefsFile {
    /// Opens the refs file (made when there is none) and takes its lock;
    /// `None` when another file was renamed into its place meanwhile (open
    /// it again). Whether this process made it, with it.
    fn lock(&self) -> Result<Option<(File, bool)>, WriteError> {
        let mut options = OpenOptions::new();
        options.read(true).append(true);
        let (file, created) = match options.clone().create_new(true).open(&self.path) {
            Ok(file) => (file, true),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                (options.open(&self.path)?, false)
            }
            Err(e) => return Err(e.into()),
        };
        if !file.metadata()?.is_file() {
            return Err(WriteError::NotAFile);
        }
        file.lock()?;
        if !still_there(&self.path, &file)? {
            return Ok(None);
        }
        Ok(Some((file, created)))
    }

    /// Reads the locked refs file whole: its length, which file it is and
    /// its bytes, refusing one kept for another session. A torn last line
    /// is cut first.
    fn read(&self, file: &File) -> Result<(u64, FileId, Vec<u8>), WriteError> {
        let meta = file.metadata()?;
        let (mut len, id) = (meta.len(), file_id(&meta));
        let mut bytes = read_at(file, 0, len)?;
        let refs = crate::refs::store::Refs::parse(&bytes);
        if let Some(header) = &refs.header
            && (header.session != self.session || header.format != self.format.name())
        {
            return Err(WriteError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} holds the refs of {} session {}, not of {}",
                    self.path.display(),
                    header.format,
                    header.session,
                    self.session
                ),
            )));
        }
        // A write of ysess's that a crash cut short: only ysess writes
        // the file, under this lock, so a last line without its
        // newline that is no record is its own (kept beside the file,
        // cut) and the next line starts clean.
        if refs.problems.iter().any(|p| p.torn) {
            let whole = memchr::memrchr(b'\n', &bytes).map_or(0, |i| i + 1);
            repair::cut_own_torn(file, &self.path, whole as u64).map_err(|e| match e {
                RepairError::Io(e) => WriteError::Io(e),
                other => WriteError::Io(io::Error::other(format!("{other:?}"))),
            })?;
            bytes.truncate(whole);
            len = whole as u64;
        }
        Ok((len, id, bytes))
    }

    /// The app's session `repo` with the refs file's `bytes` joined to it,
    /// and how many bytes of the app's file it read.
    fn join(
        &self,
        repo: crate::repo::Repo,
        bytes: &[u8],
        path: &Path,
    ) -> Result<(crate::repo::Repo, u64), WriteError> {
        let refs = crate::refs::store::Refs::parse(bytes);
        if repo.tree.is_empty() {
            return Err(WriteError::Empty);
        }
        let mut repo = repo.with_store(path, None)?;
        let app_len = repo.read_len();
        repo.join(refs)?;
        repo.set_refs_file(self.path.clone());
        Ok((repo, app_len))
    }
}

/// The app's file, read under the refs file's lock.
fn load_app(app: &App, path: &Path) -> Result<crate::repo::Repo, WriteError> {
    let loaded = match app {
        App::File(file) => crate::repo::Repo::open(file, &crate::repo::Open::default()),
        App::Whole => crate::repo::Repo::open(
            crate::input::Source::Path(path.to_path_buf()),
            &crate::repo::Open::default(),
        ),
    };
    match loaded {
        Ok(repo) => Ok(repo),
        Err(crate::repo::LoadError::Io(e)) => Err(e.into()),
        Err(e) => Err(WriteError::Invalid(e)),
    }
}
