//! `fsck --manifest OUT`: the manifest written whole, one
//! [`crate::fleet::manifest::Line`] per file.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::output::{Output, OutputError, OutputErrorKind};
use crate::check::digest::Digest;
use crate::fleet::manifest::Line;

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
