//! `fsck` of one file as an operation: check it, compare it with an old
//! copy, and cut its torn last line when asked, as [`check_file`].

use std::io;
use std::path::PathBuf;

use crate::check::check;
pub use crate::check::digest::Digest;
pub use crate::check::{Code, Finding, Options, Remedy, Report, Severity};
pub use crate::input::LineTooLong;
use crate::input::Source;
pub use crate::refs::store::Store;
use crate::write::cut_torn;
pub use crate::write::{RepairError, backup_path};

/// An old copy of the file, opened by the caller (so that a wrong one is
/// blamed on the argument that named it), with its name as given.
pub struct OldCopy {
    /// The old copy, open for reading.
    pub file: std::fs::File,
    /// Its path as the user gave it, for the findings.
    pub name: String,
}

impl OldCopy {
    /// Opens the old copy at `path` (a regular file, read boundedly).
    pub fn open(path: &str) -> io::Result<OldCopy> {
        Ok(OldCopy {
            file: crate::input::open_regular(std::path::Path::new(path))?,
            name: path.to_owned(),
        })
    }
}

/// What checking one file gave.
pub struct Outcome {
    /// The findings and the summary.
    pub report: Report,
    /// With `repair`: the backup of the bytes cut, or why nothing was cut;
    /// `None` when there was nothing to repair or no repair was asked.
    pub repaired: Option<Result<PathBuf, RepairError>>,
}

/// Checks every file of `files` as [`check_file`] does, on every core, and
/// hands each outcome to `each` in the files' order as soon as it and those
/// before it are done.
pub fn check_files<'a>(
    files: &'a [Source],
    options: &Options,
    old: Option<&OldCopy>,
    repair: bool,
    refs: Option<&Store>,
    mut each: impl FnMut(&'a Source, io::Result<Outcome>),
) {
    let workers = crate::input::par::jobs().min(files.len());
    // One file needs no pipeline of files (and its own read is the one
    // the profile shows).
    if let [source] = files {
        return each(source, check_file(source, options, old, repair, refs));
    }
    let mut next = files.iter();
    crate::input::par::ordered_map(
        workers,
        || Ok::<_, std::convert::Infallible>(next.next()),
        |source| (source, check_file(source, options, old, repair, refs)),
        |(source, result)| each(source, result),
    )
    .unwrap_or_else(|never| match never {});
}

/// Checks the file `source` names as `options` say; compares it with
/// `old` (the file must only have grown since); with `repair`, cuts its
/// torn last line, unless another program may still be writing it.
pub fn check_file(
    source: &Source,
    options: &Options,
    old: Option<&OldCopy>,
    repair: bool,
    refs: Option<&Store>,
) -> io::Result<Outcome> {
    let refs_file = matches!(source, Source::Path(path) if crate::fleet::refs::is_refs(path));
    let mut report = check(crate::Format::open(source)?, options)?;
    if let (true, Source::Path(path)) = (refs_file, source) {
        // The refs ysess keeps beside an app's session are checked as
        // such; what proves a file only grew (its digest, `--since`) is
        // the same as for any file.
        let mut own = crate::fleet::refs::check_refs_file(path)?;
        own.digest = report.digest;
        own.findings.extend(
            report
                .findings
                .into_iter()
                .filter(|f| matches!(f.code, Code::DigestMismatch | Code::HistoryRewritten)),
        );
        own.sort();
        report = own;
    } else if let Source::Path(path) = source
        && !report.format.writable()
    {
        // And those of a session whose app owns the file, with its own.
        crate::fleet::refs::check_session_refs(path, refs, &mut report)?;
    }
    // A torn last line may be one another program is still writing: say so,
    // rather than point to --repair.
    let live = match (report.torn, source) {
        (Some(_), Source::Path(path)) => {
            crate::write::repair::still_written(path, report.summary.bytes)
        }
        _ => false,
    };
    if let (true, Some(torn)) = (live, report.torn)
        && let Some(f) = report
            .findings
            .iter_mut()
            .find(|f| f.code == Code::TruncatedLastLine)
    {
        f.message = format!(
            "the last line is cut short, and another program may still be writing it \
             (the file changed while ysess read it); \
             the file is sound up to byte {}",
            torn.offset
        );
        f.remedy = Some(Remedy::CutTornWhenQuiet);
    }
    if let (Some(old), Source::Path(path)) = (old, source) {
        // The file is read a second time: a pipe cannot be.
        let now = crate::input::open_regular(path)
            .map_err(|e| io::Error::new(e.kind(), format!("--since reads the file again: {e}")))?;
        report.findings.extend(crate::check::since::compare_named(
            &old.file, now, &old.name,
        )?);
    }
    let repaired = match (repair, report.torn, source) {
        // Never a line another program is still writing.
        (true, Some(_), Source::Path(_)) if live => Some(Err(RepairError::Changed)),
        (true, Some(_), Source::Path(_)) if !report.format.writable() => {
            Some(Err(RepairError::Format(report.format)))
        }
        (true, Some(torn), Source::Path(path)) => {
            let result = cut_torn(path, torn, report.summary.bytes);
            if result.is_ok() {
                report
                    .findings
                    .retain(|f| f.code != Code::TruncatedLastLine);
            }
            Some(result)
        }
        _ => None,
    };
    Ok(Outcome { report, repaired })
}
