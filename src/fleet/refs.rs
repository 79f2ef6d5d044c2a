//! `fsck` of the refs ysess keeps beside an app's session
//! ([`crate::refs::store`]): a refs file checked on its own (`ysess fsck
//! ~/.local/share/ysess/refs/`), and the refs of a session checked with it.
//!
//! A refs file's lines must be records ysess can read, and every ref must
//! name an entry the session still holds (`danglingRef`, an error: the
//! label or branch would resolve nowhere). A refs file whose session is not
//! where it was recorded cannot have its refs checked (`refsWithoutSession`,
//! a warning).

use std::io;
use std::path::Path;

use crate::check::{Code, Finding, Report};
use crate::format::records::Kind;
use crate::refs::store::{Refs, Store, is_refs_file};
use crate::repo::Repo;

/// Whether the file at `path` is a refs file (its first line says so).
/// Only a regular file is looked at: a pipe's bytes are the session's.
pub fn is_refs(path: &Path) -> bool {
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let len = file.metadata().map_or(0, |m| m.len().min(4 << 10));
    let head = crate::input::read_at(&file, 0, len).unwrap_or_default();
    is_refs_file(head.split(|&b| b == b'\n').next().unwrap_or_default())
}

/// Checks the refs file at `path` on its own: its lines, and its refs
/// against the session its header names, when that is still there.
pub fn check_refs_file(path: &Path) -> io::Result<Report> {
    let bytes = std::fs::read(path)?;
    let refs = Refs::parse(&bytes);
    let mut report = Report::default();
    report.summary.bytes = bytes.len() as u64;
    report.findings = line_findings(&refs, None);
    let Some(header) = refs.header.clone() else {
        return Ok(report);
    };
    if let Some(format) = crate::format::Format::from_name(&header.format) {
        report.format = format;
    }
    let missing = |why: String| Finding {
        code: Code::RefsWithoutSession,
        line: Some(1),
        offset: Some(0),
        id: None,
        message: format!(
            "the refs of session {} name {}, {why}: its refs cannot be checked",
            header.session,
            header.path.display()
        ),
        remedy: None,
    };
    let there = std::fs::metadata(&header.path).is_ok_and(|m| m.is_file())
        || crate::format::Format::keeps_whole(&header.path);
    if !there {
        report
            .findings
            .push(missing("which is not a session file there".to_string()));
        return Ok(report);
    }
    let session = match Repo::open(&header.path, &crate::repo::Open::default()) {
        Ok(repo) => repo.with_store(&header.path, None)?,
        Err(e) => {
            report
                .findings
                .push(missing(format!("which cannot be read ({e})")));
            return Ok(report);
        }
    };
    if session.session_id() != Some(header.session.as_str()) {
        report
            .findings
            .push(missing("which holds another session now".to_string()));
        return Ok(report);
    }
    let mut session = session;
    session.join(refs)?;
    report.findings.extend(ref_findings(&session, None));
    report.summary.entries = session.tree.entries().count() as u64;
    report.summary.roots = session.tree.roots().count() as u64;
    refs_summary(&session, &mut report);
    report.sort();
    Ok(report)
}

/// The findings of the refs kept for the session at `path` in `store`,
/// each naming the refs file; none when the session's app does not own
/// its file or it has no refs.
pub fn check_session_refs(
    path: &Path,
    store: Option<&Store>,
    report: &mut Report,
) -> io::Result<()> {
    let format = report.format;
    // Most sessions have none: the session is read again only for those
    // that do, and its head only when its name does not say its id.
    // A pipe cannot be read again.
    let there = std::fs::metadata(path).is_ok_and(|m| m.is_file())
        || crate::format::Format::keeps_whole(path);
    let (Some(store), true) = (store, there) else {
        return Ok(());
    };
    let read = |from_end: bool| {
        let bytes = crate::input::open_regular(path).and_then(|file| {
            let size = file.metadata()?.len();
            let len = size.min(if from_end { 64 << 10 } else { 1 << 20 });
            let at = if from_end { size - len } else { 0 };
            crate::input::read_at(&file, at, len)
        });
        bytes.unwrap_or_default()
    };
    let first = || {
        let mut head = read(false);
        head.truncate(memchr::memchr(b'\n', &head).unwrap_or(head.len()));
        head
    };
    let has_refs = format
        .session_id(path, first, || read(true))
        .is_some_and(|id| store.file(format, &id).exists());
    if !has_refs {
        return Ok(());
    }
    let repo = match Repo::open(path, &crate::repo::Open::default()) {
        Ok(repo) => repo,
        // The session's own findings say why.
        Err(_) => return Ok(()),
    };
    let repo = repo.with_store(path, Some(store))?;
    let (Some(file), Some(refs)) = (repo.refs_file(), repo.stored_refs()) else {
        return Ok(());
    };
    report.findings.extend(line_findings(refs, Some(file)));
    report.findings.extend(ref_findings(&repo, Some(file)));
    refs_summary(&repo, report);
    Ok(())
}

/// The summary's labels and HEAD as the session's refs make them.
fn refs_summary(repo: &Repo, report: &mut Report) {
    let tree = &repo.tree;
    let head = tree.head();
    let summary = &mut report.summary;
    summary.labels = tree.label_names().len() as u64;
    summary.head = head.map(|h| tree.id(h).to_string());
    summary.head_depth = head.map_or(0, |h| tree.node(h).depth);
    summary.tips = tree.tips().count() as u64;
    if let Some(h) = head {
        report.short_ids.extend(tree.long_ids_in(tree.id(h)));
    }
}

/// Where a finding about a refs file is: its line, or, when the finding
/// is reported with the session's own (whose lines are another file's),
/// the refs file named in its message.
fn place(file: Option<&Path>, line: u64, message: String) -> (Option<u64>, String) {
    match file {
        None => (Some(line), message),
        Some(file) => (None, format!("{}:{line}: {message}", file.display())),
    }
}

/// The lines of a refs file that are not records ysess can read.
fn line_findings(refs: &Refs, file: Option<&Path>) -> Vec<Finding> {
    refs.problems
        .iter()
        .map(|p| {
            let code = if p.line == 1 {
                Code::MissingHeader
            } else {
                Code::InvalidRecord
            };
            finding(code, file, p.line, p.why.clone())
        })
        .collect()
}

/// A finding about line `line` of a refs file ([`place`]). A ref is named
/// by its name: ysess's record ids are never shown.
fn finding(code: Code, file: Option<&Path>, line: u64, message: String) -> Finding {
    let (line, message) = place(file, line, message);
    Finding {
        code,
        line,
        offset: None,
        id: None,
        message,
        remedy: None,
    }
}

/// Each ref that names an entry the session does not hold, and each
/// record that does not hang from what it names.
fn ref_findings(repo: &Repo, file: Option<&Path>) -> Vec<Finding> {
    let Some(refs) = repo.stored_refs() else {
        return Vec::new();
    };
    let tree = &repo.tree;
    let mut findings = Vec::new();
    for r in &refs.records {
        let gone = |id: &str| tree.find(id).is_none();
        let (what, target) = match &r.record.kind {
            Kind::Tag { name, target } => (format!("the label `{name}`"), Some(target)),
            Kind::Branch { name, target } => (format!("the branch `{name}`"), Some(target)),
            Kind::Checkout { target } => ("a move of HEAD".to_string(), Some(target)),
            Kind::BranchDelete { .. } | Kind::BranchRename { .. } => (String::new(), None),
        };
        let problem = match target {
            Some(target) if gone(target) => Some((
                Code::DanglingRef,
                format!("{what} names entry {target}, which the session no longer holds"),
            )),
            Some(target)
                if matches!(r.record.kind, Kind::Tag { .. } | Kind::Branch { .. })
                    && *target != r.record.parent =>
            {
                Some((
                    Code::InvalidRecord,
                    format!("{what} names {target} but hangs from {}", r.record.parent),
                ))
            }
            _ => None,
        };
        if let Some((code, message)) = problem {
            findings.push(finding(code, file, r.line, message));
        }
    }
    findings
}
