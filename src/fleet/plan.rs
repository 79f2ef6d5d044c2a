//! `fsck` of many files as an operation: what to check ([`Plan`]: the files
//! a walk finds, each with what it was before when a git revision or a
//! manifest says), and checking one of them ([`Plan::check`]), on any
//! thread.

use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::check::{Outcome, check_file};
use super::git::{self, CatFile, GitError};
use super::manifest::{self, ManifestError};
use super::walk::{Found, Globs, walk};
use crate::check::Options;
use crate::check::digest::Digest;
use crate::input::Source;

/// What a file was, before: the proof its current bytes must pass.
pub enum Old {
    /// The blob of the file at the revision (`--since-rev`).
    Blob(String),
    /// The digest a manifest lists (`--since-manifest`).
    Digest(Digest),
}

/// One thing to report on, in walk order.
pub enum Item {
    /// A regular file to check.
    File {
        /// Where it is.
        path: PathBuf,
        /// Its size when found, in bytes.
        size: u64,
        /// What it was before, when the old version lists it.
        old: Option<Old>,
    },
    /// A file that cannot be read (a FIFO, a device, no permission).
    Unreadable {
        /// Where it is.
        path: PathBuf,
        /// Why it cannot be read.
        error: io::Error,
    },
    /// A file the old version has and the present does not.
    Gone {
        /// Where it was.
        path: PathBuf,
        /// What the old version says of it.
        why: String,
    },
}

impl From<Found> for Item {
    fn from(found: Found) -> Item {
        match found {
            Found::File { path, size } => Item::File {
                path,
                size,
                old: None,
            },
            Found::Unreadable { path, error } => Item::Unreadable { path, error },
        }
    }
}

/// What checking an item gave.
pub enum Done {
    /// A file was checked, or could not be read.
    Checked {
        /// The file.
        source: Source,
        /// Its outcome, or why it could not be read.
        result: io::Result<Box<Outcome>>,
    },
    /// A file the old version lists is gone.
    Gone {
        /// Where it was.
        path: PathBuf,
        /// What the old version says of it.
        why: String,
    },
}

/// What a run checks, and against what.
pub struct Plan {
    roots: Vec<PathBuf>,
    globs: Globs,
    /// The old versions, by path, when the run proves growth (taken by
    /// [`Plan::items`]).
    olds: Mutex<Option<BTreeMap<PathBuf, Old>>>,
    /// The revision or manifest the old versions come from, as named.
    since_name: String,
    cat_file: Option<Mutex<CatFile>>,
}

impl Plan {
    /// The files under `roots` that `globs` match.
    pub fn new(roots: Vec<PathBuf>, globs: Globs) -> Plan {
        Plan {
            roots,
            globs,
            olds: Mutex::new(None),
            since_name: String::new(),
            cat_file: None,
        }
    }

    /// Each file must only have grown since the git revision `rev`.
    pub fn since_rev(mut self, rev: &str) -> Result<Plan, GitError> {
        let commit = git::resolve(rev)?;
        let files = git::files_at(&commit, &self.roots)?;
        self.cat_file = Some(Mutex::new(CatFile::start()?));
        self.since_name = rev.to_string();
        let globs = &self.globs;
        self.olds = Mutex::new(Some(
            files
                .into_iter()
                .filter(|(path, _)| globs.matches_name(path))
                .map(|(path, oid)| (path, Old::Blob(oid)))
                .collect(),
        ));
        Ok(self)
    }

    /// Each file must only have grown since the manifest `path` lists it.
    pub fn since_manifest(mut self, path: &Path) -> Result<Plan, ManifestError> {
        let listed = manifest::read(path)?;
        self.since_name = path.display().to_string();
        self.olds = Mutex::new(Some(
            listed
                .into_iter()
                .map(|(path, digest)| (path, Old::Digest(digest)))
                .collect(),
        ));
        Ok(self)
    }

    /// The items in walk order. Without old versions the walk streams;
    /// with them, the present and the past are merged by path first (their
    /// paths only).
    pub fn items(&self) -> Box<dyn Iterator<Item = Item> + Send + '_> {
        let olds = self.olds.lock().unwrap_or_else(|e| e.into_inner()).take();
        let Some(mut olds) = olds else {
            return Box::new(walk(&self.roots, &self.globs).map(Item::from));
        };
        let mut merged: BTreeMap<PathBuf, Item> = BTreeMap::new();
        for found in walk(&self.roots, &self.globs) {
            let mut item = Item::from(found);
            if let Item::File { path, old, .. } = &mut item {
                *old = olds.remove(path.as_path());
            }
            let path = match &item {
                Item::File { path, .. } | Item::Unreadable { path, .. } => path.clone(),
                Item::Gone { path, .. } => path.clone(),
            };
            merged.insert(path, item);
        }
        for (path, old) in olds {
            // Not found by the walk: gone, or left out by an ignore file.
            let item = self.unwalked(path.clone(), old);
            merged.insert(path, item);
        }
        Box::new(merged.into_values())
    }

    /// A file the old version lists and the walk did not find.
    fn unwalked(&self, path: PathBuf, old: Old) -> Item {
        match std::fs::symlink_metadata(&path) {
            // A listed path that is now a FIFO or a device is not opened:
            // it may never answer.
            Ok(_) if std::fs::metadata(&path).is_ok_and(|m| !m.is_file()) => Item::Unreadable {
                error: crate::input::open_regular(&path)
                    .err()
                    .unwrap_or_else(|| io::Error::other("not a regular file")),
                path,
            },
            Ok(meta) => Item::File {
                size: meta.len(),
                path,
                old: Some(old),
            },
            Err(e) if e.kind() == io::ErrorKind::NotFound => Item::Gone {
                why: match &old {
                    Old::Blob(_) => format!("the file was deleted since {}", self.since_name),
                    Old::Digest(d) => format!(
                        "the file is missing: {} lists it with {} bytes",
                        self.since_name, d.bytes
                    ),
                },
                path,
            },
            Err(error) => Item::Unreadable { path, error },
        }
    }

    /// Checks one item (on any thread): the file, and that it only grew
    /// since its old version.
    pub fn check(
        &self,
        item: Item,
        options: &Options,
        repair: bool,
        refs: Option<&crate::refs::store::Store>,
    ) -> Done {
        match item {
            Item::File { path, old, .. } => {
                let source = Source::Path(path);
                let mut options = options.clone();
                if let Some(Old::Digest(d)) = &old {
                    options.since = Some(*d);
                }
                let mut result = check_file(&source, &options, None, repair, refs);
                if let (Ok(outcome), Some(Old::Blob(oid)), Source::Path(path), Some(cat)) =
                    (&mut result, &old, &source, &self.cat_file)
                {
                    let grew = File::open(path).and_then(|now| {
                        let mut cat = cat.lock().unwrap_or_else(|e| e.into_inner());
                        cat.with_blob(oid, |then| {
                            crate::check::since::compare_to(then, now, &self.since_name)
                        })
                    });
                    match grew {
                        Ok(findings) => outcome.report.findings.extend(findings),
                        Err(e) => result = Err(e),
                    }
                }
                Done::Checked {
                    source,
                    result: result.map(Box::new),
                }
            }
            Item::Unreadable { path, error } => Done::Checked {
                source: Source::Path(path),
                result: Err(error),
            },
            Item::Gone { path, why } => Done::Gone { path, why },
        }
    }
}
