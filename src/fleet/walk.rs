//! Session files under directories, found as `rg` finds files: `ignore`'s
//! walk (`.gitignore`, `.ignore` and hidden files skipped), symbolic links
//! not followed, and only names that match the globs (`*.jsonl`). A path
//! named on the command line is taken as it is, whatever its name.

use std::io;
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

/// The glob session files match by default.
pub const DEFAULT_GLOB: &str = "*.jsonl";

/// What the walk finds.
#[derive(Debug)]
pub enum Found {
    /// A file to check, with its size when the walk knows it.
    File {
        /// Where it is.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// A path that cannot be read: a directory the walk cannot enter, a
    /// path that does not exist, a symbolic link loop.
    Unreadable {
        /// Where it is.
        path: PathBuf,
        /// Why it cannot be read.
        error: io::Error,
    },
}

impl Found {
    /// The path found.
    pub fn path(&self) -> &Path {
        match self {
            Found::File { path, .. } | Found::Unreadable { path, .. } => path,
        }
    }
}

/// Which file names the walk keeps.
pub struct Globs {
    /// (matcher, whether it matches the path below the root rather than the name)
    matchers: Vec<(GlobMatcher, bool)>,
}

impl Globs {
    /// Globs without `/` match a file's name; with one, its path below the
    /// directory walked.
    pub fn new(globs: &[String]) -> Result<Globs, globset::Error> {
        let matchers = globs
            .iter()
            .map(|g| {
                let whole = g.contains('/');
                let glob = GlobBuilder::new(g).literal_separator(true).build()?;
                Ok((glob.compile_matcher(), whole))
            })
            .collect::<Result<_, globset::Error>>()?;
        Ok(Globs { matchers })
    }

    /// Whether a path found otherwise (listed by git, by a manifest) is
    /// one the walk would keep, judged by its name.
    pub fn matches_name(&self, path: &Path) -> bool {
        let name = path.file_name().map(Path::new);
        self.matchers
            .iter()
            .any(|(m, whole)| *whole || name.is_some_and(|n| m.is_match(n)))
    }

    fn matches(&self, below_root: &Path) -> bool {
        let name = below_root.file_name().map(Path::new);
        self.matchers.iter().any(|(m, whole)| match whole {
            true => m.is_match(below_root),
            false => name.is_some_and(|n| m.is_match(n)),
        })
    }
}

/// Every file under `roots`, in order: each root in turn, a directory's
/// entries sorted by name. Streams: nothing is kept but the walk's stack.
pub fn walk<'a>(roots: &'a [PathBuf], globs: &'a Globs) -> impl Iterator<Item = Found> + Send + 'a {
    roots.iter().flat_map(move |root| {
        // A session its app keeps in a database is no file, but is one.
        if crate::format::Format::keeps_whole(root) && !root.is_file() {
            let one: Box<dyn Iterator<Item = Found> + Send> =
                Box::new(std::iter::once(Found::File {
                    path: root.clone(),
                    size: 0,
                }));
            return one;
        }
        let start: Box<dyn Iterator<Item = Found> + Send> = match std::fs::metadata(root) {
            Err(error) => Box::new(std::iter::once(Found::Unreadable {
                path: root.clone(),
                error,
            })),
            Ok(meta) if !meta.is_dir() => Box::new(std::iter::once(Found::File {
                path: tidy(root, root.clone()),
                size: meta.len(),
            })),
            Ok(_) => Box::new(
                ignore::WalkBuilder::new(root)
                    .follow_links(false)
                    .require_git(false)
                    .sort_by_file_name(|a, b| a.cmp(b))
                    .build()
                    .filter_map(move |entry| found(root, entry, globs)),
            ),
        };
        start
    })
}

/// What a walk that found no session file skipped: the first session file
/// (as `globs` name them) below a hidden folder of one of `roots`, or
/// hidden itself, and that hidden folder or file, which a user can name to
/// check it (`~/.claude`). At most `limit` entries of each root are looked
/// at, so that a home full of hidden folders costs a bounded walk.
pub fn first_hidden(roots: &[PathBuf], globs: &Globs, limit: usize) -> Option<(PathBuf, PathBuf)> {
    for root in roots.iter().filter(|r| r.is_dir()) {
        let walk = ignore::WalkBuilder::new(root)
            .hidden(false)
            .follow_links(false)
            .require_git(false)
            .sort_by_file_name(|a, b| a.cmp(b))
            .build();
        for entry in walk.take(limit).flatten() {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Ok(below) = entry.path().strip_prefix(root) else {
                continue;
            };
            if !globs.matches(below) {
                continue;
            }
            let mut hidden = root.clone();
            for part in below.components() {
                hidden.push(part);
                if part.as_os_str().to_string_lossy().starts_with('.') {
                    return Some((tidy(root, entry.path().to_path_buf()), tidy(root, hidden)));
                }
            }
        }
    }
    None
}

fn found(
    root: &Path,
    entry: Result<ignore::DirEntry, ignore::Error>,
    globs: &Globs,
) -> Option<Found> {
    let entry = match entry {
        Ok(entry) => entry,
        Err(e) => {
            let (path, error) = split(e);
            return Some(Found::Unreadable {
                path: path.map_or_else(|| root.to_path_buf(), |p| tidy(root, p)),
                error,
            });
        }
    };
    // Only regular files: links are not followed, and a FIFO would block.
    if entry.depth() == 0 || !entry.file_type().is_some_and(|t| t.is_file()) {
        return None;
    }
    let below = entry.path().strip_prefix(root).unwrap_or(entry.path());
    if !globs.matches(below) {
        return None;
    }
    let path = tidy(root, entry.path().to_path_buf());
    Some(match entry.metadata() {
        Ok(meta) => Found::File {
            path,
            size: meta.len(),
        },
        Err(e) => Found::Unreadable {
            path,
            error: split(e).1,
        },
    })
}

/// `./a.jsonl` as `a.jsonl`, as git names it.
fn tidy(_root: &Path, path: PathBuf) -> PathBuf {
    let tidy: PathBuf = path
        .components()
        .filter(|c| *c != std::path::Component::CurDir)
        .collect();
    if tidy.as_os_str().is_empty() {
        path
    } else {
        tidy
    }
}

/// The path and the I/O error inside one of `ignore`'s errors.
fn split(e: ignore::Error) -> (Option<PathBuf>, io::Error) {
    match e {
        ignore::Error::WithPath { path, err } => (Some(path), split(*err).1),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => {
            split(*err)
        }
        ignore::Error::Loop { child, ancestor } => (
            Some(child),
            io::Error::other(format!(
                "a symbolic link loop back to {}",
                ancestor.display()
            )),
        ),
        ignore::Error::Io(err) => (None, err),
        ignore::Error::Partial(mut errs) if errs.len() == 1 => split(errs.remove(0)),
        other => (None, io::Error::other(other.to_string())),
    }
}
