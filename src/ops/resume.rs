//! `ysess resume [REV]`: the command that hands a session back to its
//! agent at REV ([`crate::format::handoff`]), planned here; the command
//! line writes the new session file it may need, and runs the agent or
//! prints its command.

use std::path::Path;

use super::{Error, Refused, row};
pub use crate::format::handoff::{Handoff, NewFile, Refusal};
use crate::repo::{LoadError, Repo};
use crate::tree::Ix;
use crate::view::Headline;
use crate::write::WriteError;

/// What [`plan`] worked out.
#[derive(Debug)]
pub struct Resume {
    /// The entry the conversation goes on from.
    pub at: Headline,
    /// The format's app, as the session names it.
    pub app: &'static str,
    /// The command, and what to write first.
    pub handoff: Handoff,
}

/// The command that resumes the session at `path` at `rev` (HEAD when
/// `None`) in its own agent, with `args` for the agent; `var` reads the
/// environment. Nothing is written.
pub fn plan(
    path: &Path,
    rev: Option<&str>,
    args: &[String],
    var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    store: Option<&crate::refs::store::Store>,
    zone: &jiff::tz::TimeZone,
) -> Result<Resume, Refused<Refusal>> {
    let load = |e: LoadError| match e {
        LoadError::Io(e) => Error::Open(WriteError::Io(e)),
        e => Error::Open(WriteError::Invalid(e)),
    };
    let plain = Repo::open(path, &crate::repo::Open::default()).map_err(load)?;
    let app_head = plain.head().map(|h| plain.tree.id(h).to_string());
    let repo = plain
        .with_store(path, store)
        .map_err(|e| Error::Open(WriteError::Io(e)))?;
    let tree = &repo.tree;
    let head = tree.head().ok_or(Error::Empty("nothing to resume"))?;
    let target = repo.resolve(rev.unwrap_or("HEAD"))?;
    let io = |e: std::io::Error| Refused::Own(Refusal::Unreadable(e.to_string()));
    let app_lines = |ixs: Vec<Ix>| -> std::io::Result<Vec<Vec<u8>>> {
        ixs.into_iter()
            .filter(|&ix| !repo.is_side_record(ix))
            .map(|ix| repo.line(ix))
            .collect()
    };
    let path_lines = app_lines(tree.raw_path(target)).map_err(io)?;
    // The app's lines after REV's, in file order, up to the next entry.
    let rev_offset = tree.node(target).offset;
    let mut later: Vec<Ix> = (0..tree.len() as Ix)
        .filter(|&ix| !repo.is_side_record(ix) && tree.node(ix).offset > rev_offset)
        .collect();
    later.sort_by_key(|&ix| tree.node(ix).offset);
    let upto = later
        .iter()
        .position(|&ix| !tree.is_record(ix))
        .map_or(later.len(), |k| k + 1);
    later.truncate(upto);
    let after: Vec<(u64, Vec<u8>)> = later
        .iter()
        .map(|&ix| Ok((tree.node(ix).offset, repo.line(ix)?)))
        .collect::<std::io::Result<_>>()
        .map_err(io)?;
    let end = repo
        .app_end()
        .map_or_else(|| repo.whole_lines_end(), Ok)
        .map_err(io)?;
    let before = |cut: u64| {
        let mut ixs: Vec<Ix> = (0..tree.len() as Ix)
            .filter(|&ix| !repo.is_side_record(ix) && tree.node(ix).offset < cut)
            .collect();
        ixs.sort_by_key(|&ix| tree.node(ix).offset);
        app_lines(ixs)
    };
    let start = repo.start(1 << 20).map_err(io)?;
    let first_line = start.split(|&b| b == b'\n').next().unwrap_or_default();
    let tail_len = end.min(1 << 20);
    let tail = repo.bytes_at(end - tail_len, tail_len).map_err(io)?;
    let through_rev = |id: &str| {
        tree.find(id)
            .is_some_and(|ix| tree.raw_path(ix).contains(&target))
    };
    let session = repo.session_id().map(str::to_string).unwrap_or_default();
    let at = crate::format::handoff::At {
        path,
        session: &session,
        rev: tree.id(target),
        first_line,
        path_lines: &path_lines,
        after: &after,
        end,
        before: &before,
        tail: &tail,
        through_rev: &through_rev,
        rev_is_head: target == head,
        app_head: app_head.as_deref(),
        args,
        now_ms: super::now_ms(),
        zone,
        var,
    };
    let handoff = repo.format.handoff(&at).map_err(Refused::Own)?;
    Ok(Resume {
        at: row(&repo, target),
        app: repo.format.app(),
        handoff,
    })
}
