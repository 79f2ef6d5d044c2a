//! What the tables hold of one session: its entries' rows (by day), its
//! tree's rows, and its one row of the sessions table.

mod file;
mod line_text;
mod said;

pub use file::file_rows;
pub use said::{Said, said, total};

use std::borrow::Cow;
use std::path::Path;

use super::part::{Cell, Column, Columns, Kind};
use crate::fleet::sessions::Session;
use crate::format::MessageKind;
use crate::format::json::SUBJECT_CHARS;
use crate::repo::Repo;
use crate::stats::Facts;
use crate::tree::Ix;
use crate::view::redact::Redactor;

const fn col(name: &'static str, kind: Kind, nullable: bool, dictionary: bool) -> Column {
    Column {
        name,
        kind,
        nullable,
        dictionary,
    }
}

/// The entries table: one row per entry, facts that never change once its
/// line is written (the agent and the UTC day are the folders it is in).
pub const ENTRIES: &[Column] = &[
    col("session", Kind::Text, false, true),
    col("file", Kind::Text, false, true),
    col("line", Kind::Int, false, false),
    col("entry", Kind::Text, false, false),
    col("parent", Kind::Text, true, false),
    col("depth", Kind::Int, false, false),
    col("root", Kind::Text, false, true),
    col("role", Kind::Text, false, true),
    col("kind", Kind::Text, true, true),
    col("model", Kind::Text, true, true),
    col("timestamp", Kind::Time, true, false),
    col("turn", Kind::Bool, false, false),
    col("tokens_in", Kind::Int, true, false),
    col("tokens_out", Kind::Int, true, false),
    col("cache_read", Kind::Int, true, false),
    col("cache_write", Kind::Int, true, false),
    col("cost", Kind::Float, true, false),
    col("tool", Kind::Text, true, true),
    col("tool_call_id", Kind::Text, true, false),
    col("tool_calls", Kind::Int, true, false),
    col("is_error", Kind::Bool, true, false),
    col("text_len", Kind::Int, false, false),
    col("subject", Kind::Text, false, false),
    col("subagent", Kind::Text, true, true),
];

/// The tree table: where each entry stands in its session now (which
/// changes as the session grows), one file per session, replaced whole.
pub const TREE: &[Column] = &[
    col("session", Kind::Text, false, true),
    col("file", Kind::Text, false, true),
    col("entry", Kind::Text, false, false),
    col("tip", Kind::Bool, false, false),
    col("on_head_path", Kind::Bool, false, false),
    col("fork_point", Kind::Text, true, true),
    col("labels", Kind::Texts, false, true),
];

/// The sessions table: one row per session, as `ysess ls --json` says it.
pub const SESSIONS: &[Column] = &[
    col("session", Kind::Text, false, false),
    col("file", Kind::Text, false, false),
    col("project", Kind::Text, true, true),
    col("started", Kind::Time, true, false),
    col("last", Kind::Time, true, false),
    col("entries", Kind::Int, false, false),
    col("branches", Kind::Int, false, false),
    col("tokens_in", Kind::Int, false, false),
    col("tokens_out", Kind::Int, false, false),
    col("cache_read", Kind::Int, false, false),
    col("cache_write", Kind::Int, false, false),
    col("cost", Kind::Float, true, false),
    col("title", Kind::Text, true, false),
    col("head", Kind::Text, true, false),
];

/// How the tables say a session's text: through the redactor, with
/// `--redact` (every text cell, ids and paths too, as the other exports
/// redact every string); a subject or title made inert as well.
#[derive(Clone, Copy)]
pub struct Say<'a> {
    /// Control characters escaped.
    pub escape: &'a (dyn for<'s> Fn(&'s str) -> Cow<'s, str> + Sync),
    /// The redactor, with `--redact`.
    pub redact: Option<&'a Redactor>,
}

impl Say<'_> {
    /// `s` redacted, each secret counted `times` (the rows that repeat it).
    pub fn plain<'s>(&self, s: &'s str, times: usize) -> Cow<'s, str> {
        match self.redact {
            Some(r) => r.redact_times(s, times),
            None => Cow::Borrowed(s),
        }
    }

    /// The cell of one row's text.
    fn cell<'s>(&self, s: &'s str) -> Cell<'s> {
        Cell::Text(self.plain(s, 1))
    }

    /// The cell of one row's text, if any.
    fn opt<'s>(&self, s: Option<&'s str>) -> Cell<'s> {
        s.map_or(Cell::Null, |s| self.cell(s))
    }

    /// A subject or title: redacted, then made inert. Redacted, one as long
    /// as a subject is kept ([`SUBJECT_CHARS`]), which may have been cut
    /// inside a secret no rule then knows, loses its last, cut word when
    /// that could begin one ([`may_begin_secret`]).
    pub fn line<'s>(&self, s: &'s str) -> Cow<'s, str> {
        let Some(r) = self.redact else {
            return (self.escape)(s);
        };
        let mut said = r.redact(s);
        if s.chars().count() >= SUBJECT_CHARS {
            said = Cow::Owned(without_cut_word(&said));
        }
        match said {
            Cow::Borrowed(b) => (self.escape)(b),
            Cow::Owned(o) => Cow::Owned((self.escape)(&o).into_owned()),
        }
    }
}

/// `s` without what follows its last space or punctuation (a word cut
/// short), then `…`, when that word could begin a secret.
fn without_cut_word(s: &str) -> String {
    let cut = s
        .char_indices()
        .rfind(|(_, c)| c.is_whitespace() || "\"'`=:,;(){}[]<>".contains(*c))
        .map_or(0, |(at, c)| at + c.len_utf8());
    if !may_begin_secret(&s[cut..]) {
        return s.to_string();
    }
    format!("{}…", &s[..cut])
}

/// Whether a word cut short could be the start of a secret: keys and
/// tokens hold digits, an address an `@`, a path a `/`; a long word may be
/// a random value of letters alone.
fn may_begin_secret(word: &str) -> bool {
    word.chars().count() >= 20 || word.chars().any(|c| c.is_ascii_digit() || "@/".contains(c))
}

/// The name of the partition of rows without a time, as Hive and Spark
/// name a null partition.
pub const NO_DAY: &str = "__HIVE_DEFAULT_PARTITION__";

/// What of one file goes in the tables.
pub struct Source<'a> {
    /// The file, read.
    pub repo: &'a Repo,
    /// Its path, as the run names it.
    pub path: &'a Path,
    /// Its entries' facts, as [`crate::stats::read`] gives them, or as
    /// [`crate::stats::read_sparse`] does (with what else it read).
    pub facts: &'a [Option<Facts>],
    /// What [`crate::stats::read_sparse`] read beside the facts; `None`
    /// when every entry's facts were read.
    pub sparse: Option<&'a crate::stats::Sparse>,
    /// The session's id.
    pub session: &'a str,
    /// The subagent whose file it is, or `None` for the session's own.
    pub subagent: Option<&'a str>,
    /// Entries whose lines end within this many bytes were in an earlier
    /// export: only the others go in the entries table.
    pub from: u64,
    /// Entries whose lines end after this many bytes are left for a later
    /// export (their rows could still change).
    pub until: u64,
}

/// The entries of a file that the tables have: the user's tree, and the
/// turns of subagents folded into it (Claude Code's sidechain lines, which
/// `ysess stats` counts); not ysess's records, and not an app's
/// bookkeeping.
fn rows_of(repo: &Repo) -> Vec<Ix> {
    let tree = &repo.tree;
    (0..tree.len() as Ix)
        .filter(|&ix| !tree.is_record(ix) || tree.node(ix).kind != MessageKind::Custom)
        .collect()
}

/// The parent an entry's row names: its parent in the user's tree, or, for
/// a subagent's turn folded into the file, the line it follows.
fn parent_of(repo: &Repo, ix: Ix) -> Option<Ix> {
    if repo.tree.is_record(ix) {
        repo.tree.raw_parent(ix)
    } else {
        repo.tree.parent(ix)
    }
}

/// The tree table's rows of one file of session `session`: where each of
/// its entries stands now (it needs no entry's facts, so it is made while
/// they are read).
pub fn tree_rows(repo: &Repo, path: &Path, session: &str, say: Say<'_>) -> Columns {
    let tree = &repo.tree;
    let file = path.display().to_string();
    let on_head: Vec<bool> = {
        let mut on = vec![false; tree.len()];
        if let Some(head) = tree.head() {
            for ix in tree.path(head) {
                on[ix as usize] = true;
            }
        }
        on
    };
    let ixs = rows_of(repo);
    // On every row: redacted once, counted on each.
    let session = say.plain(session, ixs.len());
    let file = say.plain(&file, ixs.len());
    let mut tree_rows = Columns::with_rows(TREE, ixs.len(), None);
    for ix in ixs {
        let record = tree.is_record(ix);
        tree_rows.push([
            text(&session),
            text(&file),
            say.cell(tree.id(ix)),
            Cell::Bool(!record && tree.children(ix).is_empty()),
            Cell::Bool(on_head[ix as usize]),
            say.opt(
                Some(ix)
                    .filter(|_| !record)
                    .and_then(|ix| tree.fork_point(ix))
                    .map(|f| tree.id(f)),
            ),
            Cell::Texts(tree.labels_of(ix).iter().map(|l| say.plain(l, 1)).collect()),
        ]);
    }
    tree_rows
}

fn text(s: &str) -> Cell<'_> {
    Cell::Text(Cow::Borrowed(s))
}

impl<'a> Cell<'a> {
    /// Null for empty text.
    fn non_empty(self) -> Cell<'a> {
        match self {
            Cell::Text(t) if t.is_empty() => Cell::Null,
            c => c,
        }
    }
}

/// The sessions table's row of a session, as `ls` says it.
pub fn session_row(s: &Session, head: Option<&str>, say: Say<'_>) -> Columns {
    let int = |n: u64| Cell::Int(i64::try_from(n).unwrap_or(i64::MAX));
    let time = |t: Option<u64>| t.map_or(Cell::Null, int);
    let mut rows = Columns::new(SESSIONS);
    rows.push(vec![
        say.cell(&s.id),
        Cell::Text(match s.path.to_string_lossy() {
            Cow::Borrowed(p) => say.plain(p, 1),
            Cow::Owned(p) => Cow::Owned(say.plain(&p, 1).into_owned()),
        }),
        say.opt(s.project.as_deref()),
        time(s.started),
        time(s.last),
        int(s.entries),
        int(s.branches as u64),
        int(s.usage.input),
        int(s.usage.output),
        int(s.usage.cache_read),
        int(s.usage.cache_write),
        s.cost.map_or(Cell::Null, Cell::Float),
        s.title
            .as_deref()
            .map_or(Cell::Null, |t| Cell::Text(say.line(t))),
        say.opt(head),
    ]);
    rows
}

#[cfg(test)]
mod tests {
    use super::line_text::{json_string_chars, lean_text_len, text_len};
    use super::*;
    use crate::fleet::sessions::Total;

    #[test]
    fn a_redacted_subject_cut_inside_what_may_be_a_secret_loses_the_cut_word() {
        assert_eq!(
            without_cut_word("curl -H 'Bearer ghp_01234"),
            "curl -H 'Bearer …"
        );
        assert_eq!(without_cut_word("mail dana.b@exa"), "mail …");
        // A cut word of prose stays.
        assert_eq!(
            without_cut_word("subagent_type: general-purpos"),
            "subagent_type: general-purpos"
        );
    }

    #[test]
    fn a_json_string_is_counted_as_decoding_it_counts() {
        for text in crate::testing::ODD_TEXTS {
            let literal = serde_json::to_string(text).unwrap();
            assert_eq!(
                json_string_chars(&literal),
                Some(text.chars().count()),
                "{literal}"
            );
            // Every character escaped as \uXXXX (pairs for the others).
            let escaped: String = text.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
            let literal = format!("\"{escaped}\"");
            assert_eq!(
                json_string_chars(&literal),
                Some(text.chars().count()),
                "{literal}"
            );
        }
        for bad in [
            r#""\ud800""#,
            r#""\udc00x""#,
            r#""\ud800\u0041""#,
            r#""a"b""#,
            "nope",
        ] {
            assert_eq!(json_string_chars(bad), None, "{bad}");
            assert!(serde_json::from_str::<String>(bad).is_err(), "{bad}");
        }
    }

    /// pi lines whose usage or error flag `stats` reads otherwise than the
    /// scanner's usual shape: each gives up its tally (or reads it as
    /// `stats` does), never the line.
    const ODD_PI: &str = r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-12-01T00:00:00.000Z","cwd":"/w"}
{"type":"message","id":"u1","parentId":null,"timestamp":"2026-12-01T00:00:01.000Z","message":{"role":"user","content":"tab\there \"q\" \ud83d\ude80 é","timestamp":1}}
{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-12-01T00:00:02.000Z","message":{"role":"assistant","content":[{"type":"text","text":"x"}],"model":"m","usage":{"input":1.5,"output":2},"stopReason":"stop","timestamp":2}}
{"type":"message","id":"a2","parentId":"a1","timestamp":"2026-12-01T00:00:03.000Z","message":{"role":"assistant","content":[{"type":"text","text":"y"}],"model":"m","usage":{"input":1,"output":2,"cacheRead":null,"cost":{"total":null}},"stopReason":"stop","timestamp":3}}
{"type":"message","id":"a3","parentId":"a2","timestamp":"2026-12-01T00:00:04.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"ls","arguments":{}}],"model":"m","usage":{"input":1,"output":2,"cache_read":7,"cost":{"total":0.1,"total":0.2}},"stopReason":"toolUse","timestamp":4}}
{"type":"message","id":"r1","parentId":"a3","timestamp":"2026-12-01T00:00:05.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"ok"}],"isError":"yes","timestamp":5}}
{"type":"message","id":"r2","parentId":"r1","timestamp":"2026-12-01T00:00:06.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"ok"}],"isError":null,"timestamp":6}}
{"type":"message","id":"a4","parentId":"r2","timestamp":"2026-12-01T00:00:07.000Z","message":{"role":"assistant","content":[],"model":"m","usage":{"input":1,"output":2,"cost":{"total":0.30000000000000004}},"usage":{"input":3,"output":4},"stopReason":"stop","timestamp":7}}
{"type":"message","id":"a5","parentId":"a4","timestamp":"2026-12-01T00:00:08.000Z","message":{"role":"assistant","content":[],"model":"m","usage":{"input":-1,"output":2,"cost":"free"},"stopReason":"stop","timestamp":8}}
{"type":"message","id":"a6","parentId":"a5","timestamp":"2026-12-01T00:00:09.000Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c2","name":"grep","arguments":{}}],"model":"n","usage":{"input":3,"output":4},"stopReason":"toolUse","timestamp":9}}
{"type":"message","id":"r3","parentId":"a6","timestamp":"2026-12-01T00:00:10.000Z","message":{"role":"toolResult","toolCallId":"c2","toolName":"","content":[{"type":"text","text":"ok"}],"isError":false,"timestamp":10}}
{"type":"message","id":"r4","parentId":"r3","timestamp":"2026-12-01T00:00:11.000Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"ls","content":[{"type":"text","text":"late"}],"isError":true,"timestamp":11}}
"#;

    /// The yoagent and pi fixtures and a file of odd pi lines (written in
    /// `dir`), each loaded with the tallies the export asks for.
    fn tallied_fixtures(dir: &Path) -> Vec<(std::path::PathBuf, Repo)> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let odd = dir.join("odd-pi.jsonl");
        std::fs::write(&odd, ODD_PI).expect("writes");
        let files = [
            "demo.jsonl",
            "medium.jsonl",
            "small-forked.jsonl",
            "moves.jsonl",
            "linear.jsonl",
            "pi/demo.jsonl",
            "pi/handmade.jsonl",
            "pi/v1.jsonl",
            "pi/v2.jsonl",
        ]
        .map(|name| root.join(name));
        let once = crate::repo::Open::default().once(u64::MAX).tallies(true);
        files
            .into_iter()
            .chain([odd])
            .map(|path| {
                let repo = Repo::open(&path, &once).expect("loads");
                (path, repo)
            })
            .collect()
    }

    #[test]
    fn tallies_taken_in_the_check_equal_what_the_lines_say() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut tallied = 0;
        for (path, repo) in tallied_fixtures(dir.path()) {
            let path = &path;
            let plain = Repo::open(path, &crate::repo::Open::default()).expect("opens");
            assert_eq!(
                crate::stats::read(&repo).expect("reads"),
                crate::stats::read(&plain).expect("reads"),
                "{}",
                path.display()
            );
            for ix in 0..repo.tree.len() as Ix {
                let Some(tally) = repo.tally(ix) else {
                    continue;
                };
                let entry = plain.entry(ix).expect("reads");
                assert_eq!(
                    tally.text,
                    text_len(&entry.message) as u64,
                    "{} line {}",
                    path.display(),
                    repo.tree.node(ix).line
                );
                tallied += 1;
            }
        }
        assert!(tallied > 100, "{tallied} entries tallied");
    }

    #[test]
    fn rows_said_from_tallies_equal_rows_said_from_the_facts_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut spared = 0;
        for (path, repo) in tallied_fixtures(dir.path()) {
            let path = &path;
            let facts = crate::stats::read(&repo).expect("reads");
            let mut sparse = crate::stats::read_sparse(&repo).expect("reads");
            let few = std::mem::take(&mut sparse.facts);
            let source = |facts, sparse| Source {
                repo: &repo,
                path,
                facts,
                sparse,
                session: "s",
                subagent: None,
                from: 0,
                until: u64::MAX,
            };
            let (whole, lean) = (source(&facts, None), source(&few, Some(&sparse)));
            for ix in 0..repo.tree.len() as Ix {
                let line = repo.tree.node(ix).line;
                assert_eq!(
                    said(&lean, ix),
                    said(&whole, ix),
                    "{} line {line}",
                    path.display()
                );
                spared += usize::from(few[ix as usize].is_none() && facts[ix as usize].is_some());
            }
            let counted = crate::stats::report::counted_own(&repo);
            let account = crate::stats::Account::of(&facts, counted.clone());
            let expected = Total {
                first: account.first,
                last: account.last,
                usage: account.usage,
                cost: account.cost,
                unpriced: account.unpriced.keys().cloned().collect(),
            };
            assert_eq!(
                total(&lean, counted.clone()),
                expected,
                "{}",
                path.display()
            );
            assert_eq!(total(&whole, counted), expected, "{}", path.display());
        }
        assert!(spared > 100, "{spared} entries read from their tallies");
    }

    #[test]
    fn the_lean_text_length_is_the_length_of_the_text_read_whole() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut leaned = 0;
        for name in [
            "demo.jsonl",
            "medium.jsonl",
            "small-forked.jsonl",
            "pi/demo.jsonl",
            "pi/handmade.jsonl",
            "pi/v1.jsonl",
            "pi/v2.jsonl",
            "claude/session.jsonl",
            "claude/today.jsonl",
            "claude/compacted.jsonl",
            "claude/delegates.jsonl",
            "claude/commands.jsonl",
        ] {
            let repo = Repo::open(root.join(name), &crate::repo::Open::default()).expect("opens");
            for ix in 0..repo.tree.len() as Ix {
                let line = repo.line(ix).expect("reads");
                let Ok(entry) = repo.entry_from(ix, &line) else {
                    continue;
                };
                if let Some(len) = lean_text_len(&line, repo.format) {
                    assert_eq!(
                        len,
                        text_len(&entry.message),
                        "{name} line {}",
                        repo.tree.node(ix).line
                    );
                    leaned += 1;
                }
            }
        }
        assert!(leaned > 100, "{leaned} lines read lean");
    }
}
