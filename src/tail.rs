//! Reading a session from its end: `ysess log -n 20` needs only the last
//! entries of the path to HEAD, and HEAD is the last line. Walking back from
//! the end of the file and stopping once those are found costs a few
//! kilobytes however large the file is.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;

use crate::check::{Checked, check_line};
use crate::entry::{LineFacts, MessageKind};

/// One entry of the path, as `log` shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PathEntry {
    pub id: String,
    pub parent: Option<String>,
    pub timestamp: u64,
    pub kind: MessageKind,
    pub tag: String,
    pub subject: String,
    /// The labels this entry carries that name it: a label names the newest
    /// entry carrying it, as yoagent's `seek_checkpoint` picks.
    pub labels: Vec<String>,
    /// The line as stored, trimmed.
    pub raw: Vec<u8>,
}

const BLOCK: u64 = 256 << 10;

/// The last `n` entries of the path root→HEAD, newest first, or `None` when
/// the lines read raise any doubt (a line yoagent would refuse, an id seen
/// twice): the caller then loads the whole file, which explains.
pub fn head_path(path: &Path, n: usize) -> io::Result<Option<Vec<PathEntry>>> {
    if n == 0 {
        return Ok(Some(Vec::new()));
    }
    // A pipe or a device has no end to read back from; a named pipe is not
    // even opened, as what one open reads is gone for the next.
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let mut file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    // A line longer than ysess reads (or a limit that does not parse): the
    // whole load says which.
    let Ok(limit) = crate::read::max_line() else {
        return Ok(None);
    };
    let mut end = meta.len();
    let mut carry: Vec<u8> = Vec::new();
    let mut walk = Walk {
        wanted: None,
        out: Vec::new(),
        n,
        labels: HashSet::new(),
        ids: HashSet::new(),
        hidden: 0,
        record_labels: std::collections::HashMap::new(),
    };
    while end > 0 || !carry.is_empty() {
        let start = end.saturating_sub(BLOCK);
        let mut buf = vec![0; (end - start) as usize];
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf)?;
        buf.extend_from_slice(&carry);
        // The text before the first newline may continue in the block
        // before; keep it for then, unless this is the start of the file.
        let complete_from = if start == 0 {
            0
        } else {
            match memchr::memchr(b'\n', &buf) {
                Some(i) => i + 1,
                None if buf.len() as u64 > limit => {
                    return Ok(None);
                }
                None => {
                    carry = buf;
                    end = start;
                    continue;
                }
            }
        };
        for line in buf[complete_from..].rsplit(|&b| b == b'\n') {
            if line.len() as u64 > limit {
                return Ok(None);
            }
            match walk.line(line) {
                Step::More => {}
                Step::Done => return Ok(Some(walk.out)),
                Step::Unsure => return Ok(None),
            }
        }
        carry = buf[..complete_from.saturating_sub(1)].to_vec();
        end = start;
        if start == 0 {
            break;
        }
    }
    // The root was reached (or the file is empty): the path is complete,
    // unless a parent was never found.
    Ok(walk.wanted.is_none().then_some(walk.out))
}

struct Walk {
    /// The id of the next entry of the path, once HEAD is known.
    wanted: Option<String>,
    out: Vec<PathEntry>,
    n: usize,
    /// Labels seen so far, from the end: the first carrier seen is the one
    /// a label names.
    labels: HashSet<String>,
    ids: HashSet<String>,
    /// Records passed on the path (not shown).
    hidden: usize,
    /// Labels carried by ysess records, by the id of the entry they name.
    record_labels: std::collections::HashMap<String, Vec<String>>,
}

enum Step {
    More,
    Done,
    Unsure,
}

impl Walk {
    fn line(&mut self, bytes: &[u8]) -> Step {
        let facts = match check_line(bytes, false) {
            Checked::Blank => return Step::More,
            Checked::Entry { facts, .. } => facts,
            Checked::Fault { .. } | Checked::NotUtf8 { .. } => return Step::Unsure,
        };
        if !self.ids.insert(facts.id.to_string()) {
            return Step::Unsure;
        }
        let names_it = facts
            .label
            .as_deref()
            .is_some_and(|l| self.labels.insert(l.to_string()));
        let is_record = facts.kind == MessageKind::Custom
            && facts
                .custom_kind
                .as_deref()
                .is_some_and(crate::records::is_ysess_kind);
        // A label carried by a ysess record names the entry it hangs from,
        // which comes earlier in the file.
        if is_record
            && names_it
            && let (Some(label), Some(parent)) = (facts.label.as_deref(), facts.parent.as_deref())
        {
            self.record_labels
                .entry(parent.to_string())
                .or_default()
                .push(label.to_string());
        }
        let on_path = match &self.wanted {
            None => self.out.is_empty() && self.hidden == 0, // the last line: HEAD
            Some(id) => *id == facts.id,
        };
        if !on_path {
            return Step::More;
        }
        // ysess's own records are bookkeeping: the path runs on through them.
        if is_record {
            self.wanted = facts.parent.as_deref().map(str::to_string);
            self.hidden += 1;
            return if self.wanted.is_none() {
                Step::Done
            } else {
                Step::More
            };
        }
        // Read this one again for its subject.
        let facts: LineFacts<'_> = match check_line(bytes, true) {
            Checked::Entry { facts, .. } => facts,
            _ => return Step::Unsure,
        };
        let text = std::str::from_utf8(bytes)
            .map(str::trim)
            .unwrap_or_default();
        let own = |c: &Option<Cow<'_, str>>| c.as_deref().unwrap_or_default().to_string();
        self.wanted = facts.parent.as_deref().map(str::to_string);
        self.out.push(PathEntry {
            id: facts.id.to_string(),
            parent: self.wanted.clone(),
            timestamp: facts.timestamp,
            kind: facts.kind,
            tag: [&facts.model, &facts.tool_name, &facts.custom_kind]
                .into_iter()
                .find_map(|t| t.as_deref())
                .unwrap_or_default()
                .to_string(),
            subject: own(&facts.subject),
            labels: {
                let mut labels: Vec<String> = facts
                    .label
                    .as_deref()
                    .filter(|_| names_it)
                    .map(str::to_string)
                    .into_iter()
                    .collect();
                labels.extend(
                    self.record_labels
                        .remove(facts.id.as_ref())
                        .unwrap_or_default(),
                );
                labels
            },
            raw: text.as_bytes().to_vec(),
        });
        if self.out.len() >= self.n || self.wanted.is_none() {
            Step::Done
        } else {
            Step::More
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, parent: Option<&str>, label: Option<&str>) -> String {
        let mut v = serde_json::json!({"id": id, "parent_id": parent, "timestamp": 1,
            "message": {"role": "user", "content": [{"type": "text", "text": format!("text of {id}")}], "timestamp": 1}});
        if let Some(l) = label {
            v["label"] = l.into();
        }
        v.to_string()
    }

    #[test]
    fn walks_the_head_path_back_from_the_end() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.jsonl");
        // e1 - e2 - e3 - e4 ; e2 - e5 - e6 (HEAD), with long lines so that
        // several blocks are read.
        let pad = "x".repeat(100_000);
        let mut lines = vec![
            line("e1", None, Some("cp")),
            line("e2", Some("e1"), None),
            line("e3", Some("e2"), Some("cp")),
            line("e4", Some("e3"), None),
        ];
        lines.push(line("e5", Some("e2"), Some("old")).replace("text of e5", &pad));
        lines.push(line("e6", Some("e5"), None));
        std::fs::write(&path, lines.join("\n")).expect("write");
        let got = head_path(&path, 10).expect("reads").expect("sure");
        let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e6", "e5", "e2", "e1"]);
        assert_eq!(
            got[3].labels,
            Vec::<String>::new(),
            "cp names e3, the newest carrier"
        );
        assert_eq!(got[1].labels, ["old"]);
        assert_eq!(got[0].subject, "text of e6");
        let two = head_path(&path, 2).expect("reads").expect("sure");
        assert_eq!(two.len(), 2);
    }

    #[test]
    fn ysess_records_on_the_path_are_passed_through() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.jsonl");
        let record = serde_json::json!({"id": "e3", "parent_id": "e2", "timestamp": 1,
            "message": {"role": "extension", "kind": "ysess.checkout", "data": {}}})
        .to_string();
        let lines = [line("e1", None, None), line("e2", Some("e1"), None), record];
        std::fs::write(&path, lines.join("\n")).expect("write");
        let got = head_path(&path, 5).expect("reads").expect("sure");
        let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e2", "e1"]);
    }

    #[test]
    fn doubts_make_it_give_up() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.jsonl");
        std::fs::write(
            &path,
            format!(
                "{}\n{{not json\n{}",
                line("e1", None, None),
                line("e2", Some("e1"), None)
            ),
        )
        .expect("write");
        assert_eq!(head_path(&path, 10).expect("reads"), None);
        std::fs::write(&path, "").expect("write");
        assert_eq!(head_path(&path, 10).expect("reads"), Some(vec![]));
    }
}
