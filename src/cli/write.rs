//! What the commands that change a session share: opening it locked,
//! numbering new entries, appending, and saying where HEAD is.

use std::time::{SystemTime, UNIX_EPOCH};

use super::{Context, Failure};
use crate::format::yoagent::records::Record;
use crate::input::Source;
use crate::refs::Refs;
use crate::repo::Repo;
use crate::tree::Ix;
use crate::ui::output::escape;
use crate::ui::render::{Names, Paint, role};
use crate::write::{Create, Locked, WriteError};

/// Milliseconds since the epoch, for new entries' timestamps.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Opens the session file for appending, under its lock.
pub fn open_locked(ctx: &Context<'_>) -> Result<(Locked, Refs), Failure> {
    open_locked_with(ctx, Create::No)
}

/// [`open_locked`]; with `Create::Allowed` a missing or empty file is a new
/// session.
pub fn open_locked_with(ctx: &Context<'_>, create: Create) -> Result<(Locked, Refs), Failure> {
    let source = Source::new(&ctx.global.file);
    let Source::Path(path) = &source else {
        return Err(Failure::usage(
            "cannot change standard input: name the session file with -f",
        ));
    };
    let locked = Locked::open(path, create).map_err(|e| {
        let file = escape(&source.display()).into_owned();
        let failure = |e: &dyn std::fmt::Display| {
            Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written"))
        };
        match e {
            WriteError::Torn { .. } => failure(&e).with_hint(format!(
                "{} cuts the torn line (keeping its bytes)",
                super::hint::fsck(ctx.global, &["--repair"])
            )),
            WriteError::Invalid(_) => failure(&e).with_hint(format!(
                "{} lists every problem",
                super::hint::fsck(ctx.global, &[])
            )),
            WriteError::Empty => failure(&e)
                .with_hint("an app may be saving it right now: run the command again")
                .with_hint("`ysess append --create` starts a new session in an empty file"),
            WriteError::Changed | WriteError::Shrank | WriteError::Lost { .. } => {
                failure(&e).with_hint("run the command again once the other program is done")
            }
            WriteError::NotAFile => failure(&e),
            WriteError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                super::unreadable(ctx.global, &io, "; nothing was written")
                    .with_hint("`ysess append --create` starts a new session in a new file")
            }
            WriteError::Io(io) => failure(&io),
        }
    })?;
    let refs = locked.repo.refs.clone();
    Ok((locked, refs))
}

/// Ids for `count` new entries, as yoagent's `append` would number them.
pub fn new_ids(repo: &Repo, count: usize) -> Result<Vec<String>, Failure> {
    let first = repo.next_number();
    let last = first.and_then(|n| n.checked_add(count.saturating_sub(1) as u64));
    match (first, last) {
        (Some(first), Some(_)) => Ok((0..count as u64)
            .map(|k| format!("e{}", first + k))
            .collect()),
        _ => Err(Failure::from(anyhow::anyhow!(
            "no id is left to number new entries: the session already has an id e<N> with the largest N there is"
        ))),
    }
}

/// Appends records (and nothing else) and returns their ids.
pub fn append_records(locked: Locked, records: &[Record]) -> Result<Vec<String>, Failure> {
    let ids = new_ids(&locked.repo, records.len())?;
    let now = now_ms();
    let lines: Vec<String> = records
        .iter()
        .zip(&ids)
        .map(|(r, id)| r.line(id, now))
        .collect();
    append_lines(locked, &lines)?;
    Ok(ids)
}

/// Where new entries for REV hang: REV itself, except that the name of a
/// branch with no work yet means the branch's own record, so that the work
/// lands on the branch.
pub fn attach_point(tree: &crate::tree::Tree, refs: &Refs, rev: Option<&str>, target: Ix) -> Ix {
    match rev.and_then(|name| refs.get(name)) {
        Some(branch) if crate::refs::newest_below(tree)[branch.record as usize].is_none() => {
            branch.record
        }
        _ => target,
    }
}

/// Refuses a name that already names something else: branch and label names
/// share one namespace in revisions, so a clash would make one unreachable.
pub fn check_free(
    tree: &crate::tree::Tree,
    refs: &Refs,
    name: &str,
    for_branch: bool,
) -> Result<(), Failure> {
    if tree.find(name).is_some() {
        return Err(Failure::refuse(format!("'{name}' is already an entry id")));
    }
    if for_branch && tree.label(name).is_some() {
        return Err(Failure::refuse(format!("'{name}' is already a label")));
    }
    if !for_branch && refs.get(name).is_some() {
        return Err(Failure::refuse(format!("'{name}' is already a branch")));
    }
    Ok(())
}

/// The checkout record that puts yoagent's head back where it is now, after
/// other records moved it: it hangs from the current last line's entry (a
/// record on a branch included), so work appended later lands where it
/// would have, on the same branch.
pub fn stay(tree: &crate::tree::Tree, head: Ix) -> Record {
    let at = tree.last().unwrap_or(head);
    Record {
        kind: crate::format::yoagent::records::Kind::Checkout {
            target: tree.id(head).to_string(),
        },
        parent: tree.id(at).to_string(),
    }
}

/// Appends lines. A refusal says which file and that nothing was written
/// (the file is as it was); lines that were written but may have been
/// dropped by another program's save are reported as such.
pub fn append_lines(locked: Locked, lines: &[String]) -> Result<(), Failure> {
    let file = escape(&locked.path().display().to_string()).into_owned();
    locked.append(lines).map_err(|e| match e {
        WriteError::Lost { .. } => Failure::from(anyhow::anyhow!("{file}: {e}"))
            .with_hint(format!(
                "`ysess log -f {file}` shows what the file holds now, and `ysess fsck -f {file}` whether it is sound"
            ))
            .with_hint("run the command again once the other program is done"),
        WriteError::Changed | WriteError::Shrank => {
            Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written"))
                .with_hint("run the command again once the other program is done")
        }
        _ => Failure::from(anyhow::anyhow!("{file}: {e}; nothing was written")),
    })
}

/// `e5 (first-draft) user: draft a plan`, for status messages.
pub fn describe(repo: &Repo, refs: &Refs, ix: Ix, paint: Paint) -> String {
    let tree = &repo.tree;
    let names = Names::new(tree, None, &refs.pairs());
    format!(
        "{}{} {}: {}",
        paint.id(&escape(tree.id(ix))),
        names.decorations(ix, paint),
        role(tree, ix),
        escape(tree.subject(ix))
    )
}

/// A status line on stderr, unless `-q`.
pub fn status(ctx: &mut Context<'_>, text: &str) -> Result<(), Failure> {
    if !ctx.global.quiet {
        writeln!(ctx.streams.err, "{text}")?;
    }
    Ok(())
}
