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
//! | `reflog --json` | [`Move`] per HEAD move, newest first |
//! | `status --json` | one [`Status`] |
//! | `stats --json` | [`Account`] per group, then the total ([`ToolUse`] per tool with `--by tool`) |
//! | `grep --json` | [`GrepMatch`] per match |

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

/// `reflog --json`: one object per HEAD move ysess recorded, newest first.
#[derive(Serialize)]
pub struct Move<'a> {
    /// `HEAD@{n}` is `from`: HEAD as this move left it behind.
    pub n: usize,
    /// `checkout`, or `checkout -b` when the move started a branch.
    pub kind: &'static str,
    /// The record that made the move.
    pub record: &'a str,
    /// As stored, milliseconds since the epoch; `time` is it in local time.
    pub ts: u64,
    pub time: String,
    pub from: &'a str,
    /// The branch new work landed on before the move (`null`: none).
    pub from_branch: Option<&'a str>,
    pub to: &'a str,
    pub to_branch: Option<&'a str>,
}

/// `status --json`: one object.
#[derive(Serialize)]
pub struct Status<'a> {
    pub file: &'a str,
    /// `yoagent`, `pi` or `claude`.
    pub format: &'static str,
    /// `null` for an empty session.
    pub head: Option<StatusHead<'a>>,
    /// The branch HEAD is on (at its tip), `null` when it is on none.
    pub branch: Option<&'a str>,
    /// HEAD is on no named branch, and not at a tip either (new work
    /// forks there), as `branch` lists it.
    pub detached: bool,
    /// The nearest label on HEAD's path, HEAD itself included.
    pub label: Option<StatusLabel<'a>>,
    /// Entries of the conversation (ysess's records and pi's label
    /// entries not counted).
    pub entries: usize,
    pub tips: usize,
    /// The last line is cut short by an interrupted write (`null`: not).
    pub torn: Option<StatusTorn>,
    /// The file against the digest given (`null`: none given).
    pub since: Option<StatusSince>,
}

#[derive(Serialize)]
pub struct StatusHead<'a> {
    pub id: &'a str,
    /// The id as a person reads it (not in `--json`).
    #[serde(skip)]
    pub short: &'a str,
    pub role: &'static str,
    /// The model, the tool or the custom kind; empty when none.
    pub tag: &'a str,
    pub subject: &'a str,
    /// Entries on its root path, itself included.
    pub depth: u32,
}

#[derive(Serialize)]
pub struct StatusLabel<'a> {
    pub name: &'a str,
    pub id: &'a str,
    /// The id as a person reads it (not in `--json`).
    #[serde(skip)]
    pub short: &'a str,
    /// How many entries HEAD is below it (0: on HEAD).
    pub behind: u32,
}

#[derive(Serialize)]
pub struct StatusTorn {
    /// The file is sound up to this byte.
    pub offset: u64,
    /// The torn bytes after it.
    pub bytes: u64,
}

#[derive(Serialize)]
pub struct StatusSince {
    pub digest: String,
    /// `unchanged`, `appended` (the file only grew) or `rewritten`.
    pub state: &'static str,
    /// Bytes appended since (0 unless `appended`).
    pub appended: u64,
}

/// `grep --json`: one object per match.
#[derive(Serialize)]
pub struct GrepMatch<'a> {
    /// The entry's id.
    pub id: &'a str,
    /// Its line in the file.
    pub line: u64,
    pub role: &'static str,
    /// The index of the content block in the message.
    pub block: usize,
    /// `text`, `thinking`, `toolName` or `toolArguments`.
    pub kind: &'static str,
    /// The tool of a tool call or a tool result.
    pub tool: Option<&'a str>,
    /// Where the match starts and ends in the block's text, in bytes.
    pub start: usize,
    pub end: usize,
    /// The text matched.
    pub text: &'a str,
}

/// `fsck --json` on a directory (or with `--since-rev`, `--manifest`,
/// `--since-manifest`): one object after every file's (`"type": "total"`).
#[derive(Serialize)]
pub struct Total {
    pub r#type: &'static str,
    pub ok: bool,
    pub files: u64,
    pub files_with_errors: u64,
    pub files_with_warnings: u64,
    pub unreadable: u64,
    pub missing: u64,
    pub bytes: u64,
    pub seconds: f64,
}

/// `stats --json`: one object per group (`"type"`: `branch`, `revision`,
/// `model` or `day`), then one for the whole (`"type": "total"`).
#[derive(Serialize)]
pub struct Account<'a> {
    pub r#type: &'static str,
    /// The branch (`null` for a tip without a name), the revision as
    /// given, the model or the day (`YYYY-MM-DD`, local time); `null` for
    /// the total.
    pub name: Option<&'a str>,
    /// A branch's or revision's entry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tip: Option<&'a str>,
    /// The branch HEAD is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current: Option<bool>,
    pub entries: u64,
    pub turns: Turns,
    pub tokens: Tokens,
    /// Dollars; `null` when no turn records a cost.
    pub cost: Option<f64>,
    pub tools: Vec<ToolUse<'a>>,
    pub models: Vec<ModelUse<'a>>,
    /// Milliseconds since the epoch.
    pub first: Option<u64>,
    pub last: Option<u64>,
    pub wall_ms: u64,
}

/// Turns by role in [`Account`].
#[derive(Serialize)]
pub struct Turns {
    pub user: u64,
    pub assistant: u64,
    #[serde(rename = "toolResult")]
    pub tool_result: u64,
    pub custom: u64,
}

/// Tokens in [`Account`].
#[derive(Serialize)]
pub struct Tokens {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub total: u64,
}

/// One tool in [`Account`], and `stats --by tool`'s objects
/// (`"type": "tool"`, before the total).
#[derive(Serialize)]
pub struct ToolUse<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#type: Option<&'static str>,
    pub name: &'a str,
    pub calls: u64,
    pub errors: u64,
}

/// One model in [`Account`]: its assistant turns.
#[derive(Serialize)]
pub struct ModelUse<'a> {
    pub name: &'a str,
    pub turns: u64,
}
