//! `fsck --manifest`: one JSON line per file, its path and digest, so that a
//! later `fsck --since-manifest` proves every file only grew, outside git
//! (object storage, backups). [`read`] reads one, [`Writer`] writes one.
//!
//! ```text
//! {"file":"sessions/a.jsonl","bytes":8873,"digest":"sha256:…:8873"}
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::check::digest::Digest;
use crate::write::output::{Output, OutputError, OutputErrorKind};

/// One line of a manifest.
#[derive(Debug, Serialize, Deserialize)]
pub struct Line {
    /// The file, as the run named it.
    pub file: String,
    /// Its length when the manifest was written.
    pub bytes: u64,
    /// `sha256:<hex>:<bytes>` of its bytes then.
    pub digest: String,
}

/// A manifest that cannot be read: its path, the line, why.
#[derive(Debug)]
pub struct ManifestError {
    /// The manifest.
    pub path: PathBuf,
    /// The line at fault, from 1; `None` for the file as a whole.
    pub line: Option<u64>,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.path.display(), self.why),
            None => write!(f, "{}: {}", self.path.display(), self.why),
        }
    }
}

impl std::error::Error for ManifestError {}

/// The longest manifest line read: a path and a digest take far less.
const MAX_LINE: u64 = 64 << 10;

/// Reads a manifest: each file's digest, by path.
pub fn read(path: &Path) -> Result<BTreeMap<PathBuf, Digest>, ManifestError> {
    let fail = |line, why: String| ManifestError {
        path: path.to_path_buf(),
        line,
        why,
    };
    // A regular file (not `/dev/zero`, not a FIFO), read a line at a time,
    // each line bounded.
    let file =
        crate::input::open_regular(path).map_err(|e| fail(None, format!("cannot read: {e}")))?;
    let mut reader = BufReader::new(file);
    let mut files = BTreeMap::new();
    let mut bytes = Vec::new();
    for n in 1.. {
        bytes.clear();
        let read = (&mut reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| fail(Some(n), format!("cannot read: {e}")))?;
        if read == 0 {
            break;
        }
        if bytes.len() as u64 > MAX_LINE {
            return Err(fail(
                Some(n),
                format!("not a manifest line: longer than {} KiB", MAX_LINE >> 10),
            ));
        }
        let Ok(text) = std::str::from_utf8(&bytes) else {
            return Err(fail(Some(n), "not a manifest line: not UTF-8".to_string()));
        };
        if text.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(text)
            .map_err(|e| fail(Some(n), format!("not a manifest line: {e}")))?;
        let digest: Digest = line
            .digest
            .parse()
            .map_err(|e| fail(Some(n), format!("field `digest`: {e}")))?;
        if digest.bytes != line.bytes {
            return Err(fail(
                Some(n),
                format!(
                    "field `bytes` is {} but the digest covers {} bytes",
                    line.bytes, digest.bytes
                ),
            ));
        }
        if files.insert(PathBuf::from(&line.file), digest).is_some() {
            return Err(fail(Some(n), format!("{} is listed twice", line.file)));
        }
    }
    Ok(files)
}

/// Writes a manifest whole (see [`crate::write::output`]): into a temporary
/// file beside its final path, renamed there at the end, so a run that
/// stops half way leaves the old manifest whole; never over a file the run
/// reads.
pub struct Writer {
    out: BufWriter<Output>,
}

impl Writer {
    /// `inputs`: files the command reads besides the session files (an old
    /// manifest); a session file checked is refused as it is met, by
    /// [`Writer::add`].
    pub fn create(path: &Path, inputs: &[&Path]) -> Result<Writer, OutputError> {
        Ok(Writer {
            out: BufWriter::new(Output::create(path, inputs, None)?),
        })
    }

    /// Adds a file's line; refuses a file that is the manifest itself.
    pub fn add(&mut self, file: &str, digest: Digest) -> io::Result<()> {
        if std::fs::metadata(file).is_ok_and(|m| self.out.get_ref().is(&m)) {
            return Err(OutputError {
                path: self.out.get_ref().path().to_path_buf(),
                kind: OutputErrorKind::IsInput(PathBuf::from(file)),
            }
            .into());
        }
        let line = Line {
            file: file.to_string(),
            bytes: digest.bytes,
            digest: digest.to_string(),
        };
        serde_json::to_writer(&mut self.out, &line)?;
        self.out.write_all(b"\n")
    }

    /// Flushes to disk and puts the manifest in place.
    pub fn finish(self) -> io::Result<()> {
        let out = self.out.into_inner().map_err(|e| e.into_error())?;
        out.finish()?;
        Ok(())
    }
}
