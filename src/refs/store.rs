//! ysess's own refs for sessions whose app owns the file (Claude Code's,
//! Codex's): the same records a yoagent file holds (`ysess.tag`,
//! `ysess.branch`, `ysess.checkout`, …), kept beside the app's file, never
//! in it, one append-only JSONL file per session:
//!
//! ```text
//! $YSESS_REFS/<format>/<session id>.jsonl   (default $XDG_DATA_HOME/ysess/refs,
//!                                            else ~/.local/share/ysess/refs)
//! ```
//!
//! The file is named by the session's own id (Claude Code's file stem,
//! Codex's `session_meta` id), so a moved session keeps its refs and two
//! sessions never share a file. Its first line says whose refs it holds;
//! each other line is one record as yoagent would hold it, plus `at`: how
//! many bytes of the app's file were read when it was written. That places
//! every record among the app's lines as if it had been appended to the
//! file then, so HEAD, branches and labels mean on an app's session what
//! they mean in a yoagent file (work the app appends later moves HEAD on).
//!
//! ```text
//! {"ysess":"refs","version":1,"format":"claude","session":"7f0c…","path":"/home/me/.claude/projects/…/7f0c….jsonl"}
//! {"id":"ysess:1","parent_id":"<entry>","message":{"role":"extension","kind":"ysess.tag","data":{…}},"timestamp":…,"label":"first-draft","at":48213}
//! ```

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::format::Format;
use crate::format::records::{Kind, Record, is_record};

/// The version of the refs file's layout this build writes and reads.
pub const VERSION: u64 = 1;

/// What ids ysess gives its records in a refs file start with: `:` is in
/// no name a person can give (revisions use it), so a record's id never
/// shadows a label or a branch.
pub const ID_PREFIX: &str = "ysess:";

/// Where the refs of app-owned sessions are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Store {
    /// The store's folder.
    pub root: PathBuf,
}

impl Store {
    /// The store the environment names, with `var` reading it:
    /// `$YSESS_REFS`, else `$XDG_DATA_HOME/ysess/refs`, else
    /// `~/.local/share/ysess/refs`; `None` when none of them is set.
    pub fn from_vars(var: &dyn Fn(&str) -> Option<OsString>) -> Option<Store> {
        let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let root = set("YSESS_REFS")
            .or_else(|| set("XDG_DATA_HOME").map(|d| d.join("ysess/refs")))
            .or_else(|| set("HOME").map(|h| h.join(".local/share/ysess/refs")))?;
        Some(Store { root })
    }

    /// The store this process's environment names.
    pub fn from_env() -> Option<Store> {
        Store::from_vars(&|name| std::env::var_os(name))
    }

    /// The refs file of the session `session` of `format`.
    pub fn file(&self, format: Format, session: &str) -> PathBuf {
        self.root
            .join(format.name())
            .join(format!("{}.jsonl", file_name(session)))
    }
}

/// A session id as a file name: kept as it is when it is one already (a
/// UUID), else each byte outside `[A-Za-z0-9._-]` written `%XX`, so that
/// two ids never make one name.
fn file_name(id: &str) -> String {
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-');
    let mut out = String::with_capacity(id.len());
    for (k, b) in id.bytes().enumerate() {
        if plain(b) && !(k == 0 && b == b'.') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A refs file's first line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always `"refs"`: what the file is.
    pub ysess: String,
    /// The layout's version ([`VERSION`]).
    pub version: u64,
    /// The session's format ([`Format::name`]).
    pub format: String,
    /// The session's id.
    pub session: String,
    /// Where the session's file was when the refs file was made.
    pub path: PathBuf,
}

impl Header {
    /// The header of a new refs file.
    pub fn new(format: Format, session: &str, path: &Path) -> Header {
        Header {
            ysess: "refs".to_string(),
            version: VERSION,
            format: format.name().to_string(),
            session: session.to_string(),
            path: path.to_path_buf(),
        }
    }

    /// Its line.
    pub fn line(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// Whether a file's first line is a refs file's header.
pub fn is_refs_file(first_line: &[u8]) -> bool {
    serde_json::from_slice::<Value>(first_line)
        .ok()
        .is_some_and(|v| v.get("ysess").and_then(Value::as_str) == Some("refs"))
}

/// One record of a refs file.
#[derive(Debug, Clone, PartialEq)]
pub struct Stored {
    /// Its id (`ysess:<N>`).
    pub id: String,
    /// What it records, and the entry (or record) it hangs from.
    pub record: Record,
    /// The label it carries (a tag's name).
    pub label: Option<String>,
    /// When it was written, in ms since the epoch.
    pub timestamp: u64,
    /// How many bytes of the app's file had been read when it was written.
    pub at: u64,
    /// Its line in the refs file, from 1.
    pub line: u64,
    /// The line's bytes.
    pub bytes: Vec<u8>,
}

/// A line of a refs file that is not a record ysess can read: skipped, and
/// named by `fsck`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Its line, from 1.
    pub line: u64,
    /// What is wrong.
    pub why: String,
    /// The last line, without its newline and no record: a write cut
    /// short.
    pub torn: bool,
}

/// A refs file, read.
#[derive(Debug, Clone, Default)]
pub struct Refs {
    /// Its header, when the first line is one.
    pub header: Option<Header>,
    /// The records, in file order.
    pub records: Vec<Stored>,
    /// The lines that are not records.
    pub problems: Vec<Problem>,
    /// The file's length in bytes, as read.
    pub len: u64,
}

#[derive(Deserialize)]
struct LineIn {
    id: String,
    parent_id: String,
    message: MessageIn,
    #[serde(default)]
    timestamp: u64,
    #[serde(default)]
    label: Option<String>,
    at: u64,
}

#[derive(Deserialize)]
struct MessageIn {
    role: String,
    kind: String,
    #[serde(default)]
    data: Value,
}

impl Refs {
    /// Reads a refs file's bytes. A line that is not whole (the last,
    /// without its newline) is left out: a write still under way, or one
    /// cut short, which the next write starts after.
    pub fn parse(bytes: &[u8]) -> Refs {
        let mut refs = Refs {
            len: bytes.len() as u64,
            ..Refs::default()
        };
        let whole = match memchr::memrchr(b'\n', bytes) {
            Some(end) => &bytes[..=end],
            None => &[][..],
        };
        for (k, line) in whole.split(|&b| b == b'\n').enumerate() {
            let number = k as u64 + 1;
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            if number == 1 {
                match serde_json::from_slice::<Header>(line) {
                    Ok(h) if h.ysess == "refs" && h.version <= VERSION => refs.header = Some(h),
                    Ok(h) if h.ysess == "refs" => refs.problems.push(Problem {
                        line: 1,
                        why: format!(
                            "version {} of the refs layout: this ysess reads version {VERSION}",
                            h.version
                        ),
                        torn: false,
                    }),
                    _ => refs.problems.push(Problem {
                        line: 1,
                        why: "the first line is not a refs file's header".to_string(),
                        torn: false,
                    }),
                }
                continue;
            }
            match record_of(line, number) {
                Ok(stored) => refs.records.push(stored),
                Err(why) => refs.problems.push(Problem {
                    line: number,
                    why,
                    torn: false,
                }),
            }
        }
        let rest = &bytes[whole.len()..];
        let last = whole.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
        if !rest.iter().all(u8::is_ascii_whitespace) {
            // A whole record that only lacks its newline is read as one.
            match record_of(rest, last) {
                Ok(stored) if last > 1 => refs.records.push(stored),
                _ => refs.problems.push(Problem {
                    line: last,
                    why: "the last line is cut short, as by an interrupted write".to_string(),
                    torn: true,
                }),
            }
        }
        refs.problems.sort_by_key(|p| p.line);
        refs
    }

    /// Reads the refs file at `path`; `None` when there is none.
    pub fn read(path: &Path) -> io::Result<Option<Refs>> {
        match std::fs::read(path) {
            Ok(bytes) => Ok(Some(Refs::parse(&bytes))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The number of the next record's id: one more than the largest;
    /// `None` when the largest is the largest number there is.
    pub fn next_number(&self) -> Option<u64> {
        self.records
            .iter()
            .filter_map(|r| r.id.strip_prefix(ID_PREFIX)?.parse::<u64>().ok())
            .max()
            .unwrap_or(0)
            .checked_add(1)
    }

    /// Where the newest record was written: how far the app's file had
    /// been read (0 when there is none).
    pub fn last_at(&self) -> u64 {
        self.records.iter().map(|r| r.at).max().unwrap_or(0)
    }
}

/// A record line, read; why not, in words.
fn record_of(line: &[u8], number: u64) -> Result<Stored, String> {
    let parsed: LineIn = serde_json::from_slice(line).map_err(|e| {
        let e = e.to_string();
        format!("not a record: {e}")
    })?;
    if !is_record(&parsed.message.role, &parsed.message.kind) {
        return Err(format!(
            "`{}` is not a kind of record ysess writes",
            parsed.message.kind
        ));
    }
    if !parsed.id.starts_with(ID_PREFIX) {
        return Err(format!("the id `{}` is not one ysess gives", parsed.id));
    }
    let kind = Kind::parse(&parsed.message.kind, &parsed.message.data)?;
    Ok(Stored {
        id: parsed.id,
        record: Record {
            kind,
            parent: parsed.parent_id,
        },
        label: parsed.label,
        timestamp: parsed.timestamp,
        at: parsed.at,
        line: number,
        bytes: line.to_vec(),
    })
}

/// The line of a record in a refs file: the record as yoagent holds it,
/// and `at`.
pub fn record_line(record: &Record, id: &str, now_ms: u64, at: u64) -> String {
    let line = record.line(id, now_ms);
    match serde_json::from_str::<serde_json::Map<String, Value>>(&line) {
        Ok(mut fields) => {
            fields.insert("at".to_string(), Value::from(at));
            serde_json::to_string(&fields).unwrap_or(line)
        }
        Err(_) => line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<OsString> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| OsString::from(v))
        }
    }

    #[test]
    fn the_store_is_where_the_environment_says_in_the_order_documented() {
        let at = |pairs: &[(&str, &str)]| Store::from_vars(&vars(pairs)).map(|s| s.root);
        assert_eq!(
            at(&[("HOME", "/h")]),
            Some("/h/.local/share/ysess/refs".into())
        );
        assert_eq!(
            at(&[("HOME", "/h"), ("XDG_DATA_HOME", "/d")]),
            Some("/d/ysess/refs".into())
        );
        assert_eq!(
            at(&[
                ("HOME", "/h"),
                ("XDG_DATA_HOME", "/d"),
                ("YSESS_REFS", "/r")
            ]),
            Some("/r".into())
        );
        assert_eq!(at(&[("HOME", "")]), None);
    }

    fn claude() -> Format {
        Format::from_name("claude").expect("a format")
    }

    fn codex() -> Format {
        Format::from_name("codex").expect("a format")
    }

    #[test]
    fn two_session_ids_never_share_a_refs_file() {
        let store = Store { root: "/r".into() };
        let uuid = "7f0c2c1e-1b0a-4c51-9d7e-3f1f2a6b8c90";
        assert_eq!(
            store.file(claude(), uuid),
            PathBuf::from(format!("/r/claude/{uuid}.jsonl"))
        );
        assert_ne!(store.file(claude(), uuid), store.file(codex(), uuid));
        let names: Vec<String> = ["a/b", "a%2Fb", "..", ".x", "a b"]
            .iter()
            .map(|id| file_name(id))
            .collect();
        for name in &names {
            assert!(!name.contains('/') && !name.starts_with('.'), "{name}");
        }
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
    }

    #[test]
    fn a_refs_file_reads_back_what_was_written_and_names_what_is_not_a_record() {
        let header = Header::new(codex(), "s1", Path::new("/x/rollout.jsonl"));
        let tag = Record {
            kind: Kind::Tag {
                name: "first-draft".into(),
                target: "line7".into(),
            },
            parent: "line7".into(),
        };
        let text = format!(
            "{}\n{}\n{{\"id\":\"e1\"}}\n{}\n{{\"id\":\"ysess:3\",\"par",
            header.line(),
            record_line(&tag, "ysess:1", 5, 900),
            record_line(&tag, "ysess:2", 6, 950),
        );
        let refs = Refs::parse(text.as_bytes());
        assert_eq!(refs.header, Some(header));
        assert_eq!(refs.records.len(), 2);
        assert_eq!(refs.records[0].record, tag);
        assert_eq!(refs.records[0].label.as_deref(), Some("first-draft"));
        assert_eq!((refs.records[1].at, refs.records[1].line), (950, 4));
        let lines: Vec<u64> = refs.problems.iter().map(|p| p.line).collect();
        assert_eq!(lines, [3, 5]);
        assert_eq!(refs.next_number(), Some(3));
    }
}
