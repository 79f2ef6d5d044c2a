//! Every JSON shape ysess prints, in one place: the contract that scripts
//! rely on (each command's `--json` section in its page of docs/commands/).
//! Each command prints JSON Lines (one value per line) through
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
    /// The branch's name; `null` for a tip no branch names, and for a
    /// detached HEAD.
    pub name: Option<&'a str>,
    /// The id of its tip, in full.
    pub tip: &'a str,
    /// The id of the entry where it leaves the rest of the tree; `null`
    /// when it has none.
    pub fork_point: Option<&'a str>,
    /// HEAD is on this branch.
    pub current: bool,
    /// HEAD is on no branch's tip; this object says where it is.
    pub detached: bool,
    /// Its entries since the fork point.
    pub length: u32,
}

/// `tag --json`: one object per label.
#[derive(Serialize)]
pub struct Tag<'a> {
    /// The label.
    pub name: &'a str,
    /// The id of the entry it names.
    pub target: &'a str,
}

/// `fsck --json`: one object per finding (`"type": "finding"`).
#[derive(Serialize)]
pub struct Finding<'a> {
    /// Always `finding`.
    pub r#type: &'static str,
    /// The file, as named on the command line (or found by the walk).
    pub file: &'a str,
    /// The line the finding is on, from 1; `null` for the file as a whole.
    pub line: Option<u64>,
    /// The byte offset in the file where the problem is, when one byte
    /// says it.
    pub offset: Option<u64>,
    /// `error` (yoagent would refuse the file) or `warning`.
    pub severity: &'static str,
    /// The stable code (the table of codes in docs/commands/fsck.md).
    pub code: &'static str,
    /// The entry's id, raw, when the finding is about one entry.
    pub id: Option<&'a str>,
    /// For people: session text in it is escaped (`id` has the raw id).
    pub message: std::borrow::Cow<'a, str>,
}

/// `fsck --json`: one summary object per file, after its findings (`"type": "summary"`).
#[derive(Serialize)]
pub struct Summary<'a> {
    /// Always `summary`.
    pub r#type: &'static str,
    /// The file, as named.
    pub file: &'a str,
    /// The file's format: `yoagent`, `pi`, `claude` or `codex`.
    pub format: &'static str,
    /// No error (and, with `--strict`, no warning).
    pub ok: bool,
    /// Findings of severity `error`.
    pub errors: usize,
    /// Findings of severity `warning`.
    pub warnings: usize,
    /// Entries of the conversation (folded-out lines not counted).
    pub entries: u64,
    /// Lines folded out of the conversation: ysess's records, pi's label
    /// changes, a Claude Code session's bookkeeping and subagent lines.
    pub records: u64,
    /// Entries without a parent.
    pub roots: u64,
    /// Entries without children: the ends of branches.
    pub tips: u64,
    /// Distinct labels.
    pub labels: u64,
    /// The id of HEAD; `null` for an empty session.
    pub head: Option<&'a str>,
    /// Entries on HEAD's root path, HEAD included (0 when empty).
    pub head_depth: u32,
    /// The bytes read.
    pub bytes: u64,
    /// `sha256:<hex>:<bytes>` with `--digest` (or a manifest); else `null`.
    pub digest: Option<String>,
}

/// `diff --json`: one object for the whole comparison.
#[derive(Serialize)]
pub struct Diff<'a> {
    /// The id of the entry the first side ends at.
    pub a: &'a str,
    /// The id of the entry the second side ends at.
    pub b: &'a str,
    /// The last entry both paths share; `null` when they share none.
    pub fork_point: Option<Fork<'a>>,
    /// The turns after the fork point, aligned.
    pub pairs: Vec<Step<'a>>,
    /// Each side's totals.
    pub stats: Stats,
}

/// The fork point in [`Diff`].
#[derive(Serialize)]
pub struct Fork<'a> {
    /// Its id.
    pub id: &'a str,
    /// The first line of its text.
    pub subject: &'a str,
}

/// Per-side totals in [`Diff`].
#[derive(Serialize)]
pub struct Stats {
    /// The first side's totals.
    pub a: turns::Stats,
    /// The second side's totals.
    pub b: turns::Stats,
}

/// One aligned step in [`Diff`]: a pair of turns, or a turn on one side.
#[derive(Serialize)]
pub struct Step<'a> {
    /// The first side's turn; `null` when only the second side has one.
    pub a: Option<&'a str>,
    /// The second side's turn; `null` when only the first side has one.
    pub b: Option<&'a str>,
    /// The role of the turn (the second side's, in a pair).
    pub role: String,
    /// `same`, `changed`, `removed` (first side only) or `added`.
    pub status: &'static str,
    /// Lines of text the second side adds.
    pub insertions: usize,
    /// Lines of text the second side takes away.
    pub deletions: usize,
}

/// `diff --files --json`: one object per entry added, removed or changed.
#[derive(Serialize)]
pub struct Change<'a> {
    /// `added`, `removed` or `changed`.
    pub status: &'static str,
    /// The entry's id.
    pub id: &'a str,
    /// Its line in the file it is in (the new one, or the old one for
    /// `removed`).
    pub line: u64,
    /// What changed, for people; empty for `added` and `removed`.
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
    /// `ts` in local time, ISO 8601.
    pub time: String,
    /// The id of the entry HEAD was at before the move.
    pub from: &'a str,
    /// The branch new work landed on before the move (`null`: none).
    pub from_branch: Option<&'a str>,
    /// The id of the entry HEAD moved to.
    pub to: &'a str,
    /// The branch new work lands on after the move (`null`: none).
    pub to_branch: Option<&'a str>,
}

/// `status --json`: one object.
#[derive(Serialize)]
pub struct Status<'a> {
    /// The session file, as named.
    pub file: &'a str,
    /// `yoagent`, `pi`, `claude` or `codex`.
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
    /// Tips of the conversation: the ends of its branches.
    pub tips: usize,
    /// The last line is cut short by an interrupted write (`null`: not).
    pub torn: Option<StatusTorn>,
    /// The file against the digest given (`null`: none given).
    pub since: Option<StatusSince>,
}

/// HEAD in [`Status`].
#[derive(Serialize)]
pub struct StatusHead<'a> {
    /// HEAD's id, in full.
    pub id: &'a str,
    /// The id as a person reads it (not in `--json`).
    #[serde(skip)]
    pub short: &'a str,
    /// `user`, `assistant`, `toolResult` or `custom`.
    pub role: &'static str,
    /// The model, the tool or the custom kind; empty when none.
    pub tag: &'a str,
    /// The first line of its text.
    pub subject: &'a str,
    /// Entries on its root path, itself included.
    pub depth: u32,
}

/// The nearest label in [`Status`].
#[derive(Serialize)]
pub struct StatusLabel<'a> {
    /// The label.
    pub name: &'a str,
    /// The id of the entry it names.
    pub id: &'a str,
    /// The id as a person reads it (not in `--json`).
    #[serde(skip)]
    pub short: &'a str,
    /// How many entries HEAD is below it (0: on HEAD).
    pub behind: u32,
}

/// A torn last line in [`Status`].
#[derive(Serialize)]
pub struct StatusTorn {
    /// The file is sound up to this byte.
    pub offset: u64,
    /// The torn bytes after it.
    pub bytes: u64,
}

/// The file against a digest, in [`Status`].
#[derive(Serialize)]
pub struct StatusSince {
    /// The digest compared with, as given.
    pub digest: String,
    /// `unchanged`, `appended` (the file only grew) or `rewritten`.
    pub state: &'static str,
    /// Bytes appended since (0 unless `appended`).
    pub appended: u64,
}

/// `grep --json`: one object per match.
#[derive(Serialize)]
pub struct GrepMatch<'a> {
    /// With `--all`: the session's id, as `ls` shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a str>,
    /// With `--all`: the session's file.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<&'a str>,
    /// The entry's id.
    pub id: &'a str,
    /// Its line in the file.
    pub line: u64,
    /// The entry's role: `user`, `assistant`, `toolResult` or `custom`.
    pub role: &'static str,
    /// The index of the content block in the message.
    pub block: usize,
    /// `text`, `thinking`, `toolName` or `toolArguments`.
    pub kind: &'static str,
    /// The tool of a tool call or a tool result.
    pub tool: Option<&'a str>,
    /// Where the match starts and ends in the block's text, in bytes.
    pub start: usize,
    /// Where the match ends, in bytes (exclusive).
    pub end: usize,
    /// The text matched.
    pub text: &'a str,
}

/// `fsck --json` on a directory (or with `--since-rev`, `--manifest`,
/// `--since-manifest`): one object after every file's (`"type": "total"`).
#[derive(Serialize)]
pub struct Total {
    /// Always `total`.
    pub r#type: &'static str,
    /// Every file passed (see `Summary::ok`), and none is missing or
    /// unreadable.
    pub ok: bool,
    /// Files checked.
    pub files: u64,
    /// Files with at least one error.
    pub files_with_errors: u64,
    /// Files with at least one warning.
    pub files_with_warnings: u64,
    /// Files that could not be read.
    pub unreadable: u64,
    /// Files the old version lists that are gone.
    pub missing: u64,
    /// Bytes read, over every file.
    pub bytes: u64,
    /// Wall time of the run.
    pub seconds: f64,
}

/// `stats --json`: one object per group (`"type"`: `branch`, `revision`,
/// `model` or `day`), then one for the whole (`"type": "total"`).
#[derive(Serialize)]
pub struct Account<'a> {
    /// `branch`, `revision`, `subagent`, `model`, `day`, or `total`.
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
    /// Entries of the conversation in the group.
    pub entries: u64,
    /// Turns by role.
    pub turns: Turns,
    /// Tokens, summed over the assistant turns.
    pub tokens: Tokens,
    /// Dollars; `null` when no turn records a cost, and when a model has no
    /// price (`unpriced`).
    pub cost: Option<f64>,
    /// Assistant turns whose model has no price, by model: the reason
    /// `cost` is `null`.
    pub unpriced: Vec<ModelUse<'a>>,
    /// Tool calls and errors, by tool name.
    pub tools: Vec<ToolUse<'a>>,
    /// Assistant turns, by model.
    pub models: Vec<ModelUse<'a>>,
    /// Milliseconds since the epoch.
    pub first: Option<u64>,
    /// The latest timestamp, milliseconds since the epoch.
    pub last: Option<u64>,
    /// Milliseconds from the first timestamp to the last.
    pub wall_ms: u64,
}

/// Turns by role in [`Account`].
#[derive(Serialize)]
pub struct Turns {
    /// User messages.
    pub user: u64,
    /// Assistant messages (a Claude Code response once, however many
    /// lines it takes).
    pub assistant: u64,
    /// Tool results.
    #[serde(rename = "toolResult")]
    pub tool_result: u64,
    /// Custom messages.
    pub custom: u64,
}

/// Tokens in [`Account`].
#[derive(Serialize)]
pub struct Tokens {
    /// Input tokens.
    pub input: u64,
    /// Output tokens.
    pub output: u64,
    /// Input tokens read from the prompt cache.
    pub cache_read: u64,
    /// Input tokens written to the prompt cache.
    pub cache_write: u64,
    /// Of `cache_write`, the tokens written for one hour (Claude Code's
    /// `ephemeral_1h_input_tokens`), priced at their own rate.
    pub cache_write_1h: u64,
    /// The sum of the four.
    pub total: u64,
}

/// One tool in [`Account`], and `stats --by tool`'s objects
/// (`"type": "tool"`, before the total).
#[derive(Serialize)]
pub struct ToolUse<'a> {
    /// `tool` in `stats --by tool`'s own objects; absent inside an
    /// account.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#type: Option<&'static str>,
    /// The tool's name.
    pub name: &'a str,
    /// Calls made to it.
    pub calls: u64,
    /// Its results that say `isError`.
    pub errors: u64,
}

/// One model in [`Account`]: its assistant turns.
#[derive(Serialize)]
pub struct ModelUse<'a> {
    /// The model.
    pub name: &'a str,
    /// Assistant turns it wrote.
    pub turns: u64,
}

/// `ls --json`: one object per session (`"type": "session"`), newest
/// activity first.
#[derive(Serialize)]
pub struct Session<'a> {
    /// `session`.
    pub r#type: &'static str,
    /// The format of the agent that wrote it: `claude`, `pi`, `codex` or
    /// `yoagent`.
    pub agent: &'static str,
    /// The id the file records, else the file's stem.
    pub id: &'a str,
    /// The session file.
    pub path: String,
    /// The folder the agent worked in; `null` where the file records none.
    pub project: Option<&'a str>,
    /// The earliest timestamp, milliseconds since the epoch.
    pub started: Option<u64>,
    /// The latest timestamp, milliseconds since the epoch.
    pub last: Option<u64>,
    /// Entries of the conversation.
    pub entries: u64,
    /// Branches, as `ysess branch` lists them.
    pub branches: usize,
    /// Tokens, as `ysess stats` totals them.
    pub tokens: Tokens,
    /// Dollars, as `ysess stats` totals them; `null` when nothing is
    /// priced, and when a model has no price (`unpriced`).
    pub cost: Option<f64>,
    /// The models that have no price, by name.
    pub unpriced: &'a [String],
    /// The name given to the session, else its first user words (raw).
    pub title: Option<&'a str>,
    /// Whenever an archive was read (it exists, or `--archive`): whether
    /// the row is a copy in the archive of a session the agent no longer
    /// has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
}

/// `ls --json`'s last object (`"type": "total"`).
#[derive(Serialize)]
pub struct SessionsTotal {
    /// `total`.
    pub r#type: &'static str,
    /// Sessions listed.
    pub sessions: usize,
    /// Files that could not be read (each named on stderr).
    pub unreadable: u64,
}

/// `archive --json`: one object per live file archived (`"type":
/// "archived"`).
#[derive(Serialize)]
pub struct Archived<'a> {
    /// `archived`.
    pub r#type: &'static str,
    /// The live file.
    pub path: String,
    /// Its copy, relative to the archive.
    pub copy: String,
    /// `new`, `grew`, `version` (history rewritten: a new version) or
    /// `unchanged`.
    pub change: &'a str,
    /// Bytes written to the copy (0 when unchanged).
    pub bytes: u64,
}

/// `archive --json`'s last object (`"type": "total"`).
#[derive(Serialize)]
pub struct ArchiveTotal {
    /// `total`.
    pub r#type: &'static str,
    /// The archive's folder.
    pub archive: String,
    /// Sessions copied for the first time.
    pub new: usize,
    /// Sessions that grew, their new bytes appended.
    pub grew: usize,
    /// Bytes appended to the sessions that grew.
    pub grew_bytes: u64,
    /// Sessions whose history was rewritten, kept as a new version.
    pub versions: usize,
    /// Sessions with nothing new.
    pub unchanged: usize,
    /// Sessions archived before that the app no longer has (they stay).
    pub gone: usize,
    /// Files that could not be read or archived (each named on stderr).
    pub failed: usize,
    /// Stores not copied (a folder of many files), each named on stderr.
    pub skipped: usize,
}
