//! Every JSON shape ysess prints, in one place: the contract that scripts
//! rely on (each command's `--json` section in the README). Each command
//! prints JSON Lines (one value per line) through
//! [`super::output::json_line`], which escapes terminal hazards inside
//! strings. Fields are only ever added.
//!
//! | command | shape |
//! | --- | --- |
//! | `log --json`, `show --json` | each entry as stored in the file |
//! | `export` | the path's messages, one array, as yoagent writes them |
//! | `branch --json` | [`Branch`] per branch |
//! | `tag --json` | [`Tag`] per label |
//! | `diff --json` | one [`Diff`] |
//! | `diff --files --json` | [`Change`] per entry |
//! | `fsck --json` | [`Finding`] per finding, then [`Summary`] per file |

use serde::Serialize;

use crate::compare::turns;

/// `branch --json`: one object per branch (and one for a detached HEAD).
#[derive(Serialize)]
pub struct Branch<'a> {
    pub name: Option<&'a str>,
    pub tip: &'a str,
    pub fork_point: Option<&'a str>,
    pub current: bool,
    /// HEAD is on no branch's tip; this object says where it is.
    pub detached: bool,
    pub length: u32,
}

/// `tag --json`: one object per label.
#[derive(Serialize)]
pub struct Tag<'a> {
    pub name: &'a str,
    pub target: &'a str,
}

/// `fsck --json`: one object per finding (`"type": "finding"`).
#[derive(Serialize)]
pub struct Finding<'a> {
    pub r#type: &'static str,
    pub file: &'a str,
    pub line: Option<u64>,
    pub offset: Option<u64>,
    pub severity: &'static str,
    pub code: &'static str,
    pub id: Option<&'a str>,
    /// For people: session text in it is escaped (`id` has the raw id).
    pub message: std::borrow::Cow<'a, str>,
}

/// `fsck --json`: one summary object per file, after its findings (`"type": "summary"`).
#[derive(Serialize)]
pub struct Summary<'a> {
    pub r#type: &'static str,
    pub file: &'a str,
    /// The file's format: `yoagent` or `pi`.
    pub format: &'static str,
    pub ok: bool,
    pub errors: usize,
    pub warnings: usize,
    pub entries: u64,
    pub records: u64,
    pub roots: u64,
    pub tips: u64,
    pub labels: u64,
    pub head: Option<&'a str>,
    pub head_depth: u32,
    pub bytes: u64,
    pub digest: Option<String>,
}

/// `diff --json`: one object for the whole comparison.
#[derive(Serialize)]
pub struct Diff<'a> {
    pub a: &'a str,
    pub b: &'a str,
    pub fork_point: Option<Fork<'a>>,
    pub pairs: Vec<Step<'a>>,
    pub stats: Stats<'a>,
}

/// The fork point in [`Diff`].
#[derive(Serialize)]
pub struct Fork<'a> {
    pub id: &'a str,
    pub subject: &'a str,
}

/// Per-side totals in [`Diff`].
#[derive(Serialize)]
pub struct Stats<'a> {
    pub a: &'a turns::Stats,
    pub b: &'a turns::Stats,
}

/// One aligned step in [`Diff`]: a pair of turns, or a turn on one side.
#[derive(Serialize)]
pub struct Step<'a> {
    pub a: Option<&'a str>,
    pub b: Option<&'a str>,
    pub role: String,
    pub status: &'static str,
    pub insertions: usize,
    pub deletions: usize,
}

/// `diff --files --json`: one object per entry added, removed or changed.
#[derive(Serialize)]
pub struct Change<'a> {
    pub status: &'static str,
    pub id: &'a str,
    pub line: u64,
    pub note: &'a str,
}
