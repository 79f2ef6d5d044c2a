//! `grep --all`: every session found where `ysess ls` looks (or under
//! the folders named), searched on every core, each session's output made
//! in memory and written whole, the sessions written last first.

use std::io::Read as _;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{GrepArgs, Render, search_entries};
use crate::cli::{Context, Exit, Failure};
use crate::search::scan::{Found, scan};
use crate::search::{Pattern, Scope};
use crate::ui::output::{Level, escape};
use crate::ui::pager::paged;

/// One session's search with `--all`: its output, whether anything
/// matched, and how many lines were not searched.
struct Searched {
    out: Vec<u8>,
    matched: bool,
    skipped: usize,
}

/// Searches one session file whole, its output made in memory.
fn search_file(
    path: &std::path::Path,
    pattern: &Pattern,
    scope: &Scope,
    render: &Render<'_>,
) -> Result<Searched, crate::repo::LoadError> {
    let mut out = Vec::new();
    if crate::search::through_tree(path, None) {
        // The raw bytes first, as rg reads them: a file the pattern's raw
        // form cannot match (and that holds no escape it could miss) has
        // no match, and is never read as a session; one that may match is
        // read as a session from the same bytes.
        let raw = (pattern.raw().is_some() && !crate::format::Format::keeps_whole(path))
            .then(|| {
                let file = crate::input::open_session(path).ok()?;
                let meta = file.metadata().ok()?;
                if !meta.is_file() || meta.len() > crate::fleet::sessions::ONCE {
                    return None;
                }
                let mut bytes = Vec::with_capacity(meta.len() as usize);
                (&file).take(meta.len()).read_to_end(&mut bytes).ok()?;
                Some(bytes)
            })
            .flatten();
        if raw
            .as_ref()
            .is_some_and(|bytes| !pattern.may_match_line(bytes))
        {
            return Ok(Searched {
                out,
                matched: false,
                skipped: 0,
            });
        }
        let repo = match raw {
            Some(bytes) => crate::repo::Repo::open(bytes, &crate::repo::Open::default())?,
            None => crate::repo::Repo::open(
                crate::Source::Path(path.to_path_buf()),
                &crate::repo::Open::default().once(crate::fleet::sessions::ONCE),
            )?,
        };
        let mut ixs: Vec<crate::Ix> = repo.tree.entries().collect();
        ixs.sort_by_key(|&ix| repo.tree.node(ix).line);
        let matched = search_entries(&repo, &ixs, pattern, scope, render, &mut out)?;
        return Ok(Searched {
            out,
            matched,
            skipped: 0,
        });
    }
    let found_any = AtomicBool::new(false);
    let mut skipped = 0;
    let file = std::fs::File::open(path)?;
    let keep = |f: Found, part: &mut Vec<u8>| {
        found_any.store(true, Ordering::Relaxed);
        render.entry(part, &f)
    };
    scan(file, None, pattern, scope, keep, |part, s| {
        skipped += s.len();
        out.extend_from_slice(&part);
        Ok(())
    })?;
    Ok(Searched {
        out,
        matched: found_any.into_inner(),
        skipped,
    })
}

/// `grep --all`: every session found, searched on every core, each
/// session's output written whole, the sessions written last first.
pub(super) fn run(
    args: &GrepArgs,
    ctx: &mut Context<'_>,
    pattern: &Pattern,
    scope: &Scope,
    render: &Render<'_>,
) -> Result<Exit, Failure> {
    use crate::fleet::sessions;
    let roots = sessions::roots(&args.revs);
    let mut found = sessions::find(&roots);
    args.shelf.add_to(&mut found, !args.revs.is_empty())?;
    let mut unreadable: Vec<String> = found
        .iter()
        .filter_map(|f| match f {
            sessions::Found::Unreadable { path, error } => {
                Some(format!("{}: {error}", path.display()))
            }
            sessions::Found::File { .. } => None,
        })
        .collect();
    let files: Vec<std::path::PathBuf> = sessions::newest_first(&found)
        .into_iter()
        .map(std::path::Path::to_path_buf)
        .collect();
    let workers = crate::input::par::jobs();
    let mut matched = false;
    let mut skipped: Vec<(std::path::PathBuf, usize)> = Vec::new();
    paged(&mut ctx.streams, args.json, |out| {
        let mut failed = Ok(());
        crate::input::par::ordered(
            workers,
            workers * 2,
            files.iter(),
            |path| {
                let id = sessions::id_of(path);
                let render = Render {
                    session: Some((id, path.display().to_string())),
                    ..*render
                };
                (path, search_file(path, pattern, scope, &render))
            },
            |(path, searched)| {
                let written = match searched {
                    Ok(s) => {
                        matched |= s.matched;
                        if s.skipped > 0 {
                            skipped.push((path.clone(), s.skipped));
                        }
                        match (args.list, s.matched) {
                            (true, true) => writeln!(
                                out,
                                "{}",
                                render.paint.id(&escape(&path.display().to_string()))
                            ),
                            (true, false) => Ok(()),
                            (false, _) => out.write_all(&s.out),
                        }
                    }
                    Err(e) => {
                        let why = crate::cli::hint::load_error(&e);
                        unreadable.push(format!("{}: {why}", path.display()));
                        Ok(())
                    }
                };
                failed = written;
                failed.is_ok()
            },
        );
        failed
    })?;
    for (path, n) in &skipped {
        let lines = if *n == 1 { "line" } else { "lines" };
        ctx.streams.diag(
            Level::Warning,
            &escape(&format!(
                "{}: {n} {lines} not searched, not entries (`ysess fsck` explains)",
                path.display()
            )),
        )?;
    }
    for why in &unreadable {
        ctx.streams.diag(Level::Error, &escape(why))?;
    }
    Ok(if !unreadable.is_empty() {
        Exit::Fatal
    } else if matched {
        Exit::Success
    } else {
        Exit::No
    })
}
