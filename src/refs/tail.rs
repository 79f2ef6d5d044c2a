//! Reading a session from its end: `ysess log -n 20` needs only the last
//! entries of the path to HEAD, and HEAD is the last line. Walking back from
//! the end of the file and stopping once those are found costs a few
//! kilobytes however large the file is.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::Path;

use crate::format::{Checked, yoagent::check_line};
use crate::format::{LineFacts, MessageKind};
use crate::input::back::BackLines;

/// One entry of the path, as `log` shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PathEntry {
    /// Its id.
    pub id: String,
    /// Its parent's id.
    pub parent: Option<String>,
    /// Milliseconds since the epoch.
    pub timestamp: u64,
    /// What kind of message it carries.
    pub kind: MessageKind,
    /// The model, the tool or the custom kind.
    pub tag: String,
    /// The first line of its text.
    pub subject: String,
    /// The labels this entry carries that name it: a label names the newest
    /// entry carrying it, as yoagent's `seek_checkpoint` picks.
    pub labels: Vec<String>,
    /// The line as stored, trimmed.
    pub raw: Vec<u8>,
}

/// The last `n` entries of the path root→HEAD, newest first, or `None` when
/// the lines read raise any doubt (a line yoagent would refuse, an id seen
/// twice): the caller then loads the whole file, which explains.
///
/// With `branches`, a file that holds branch records is left to the caller
/// too: branch names decorate the entries their work grew to, which only
/// the whole tree tells. Whether it holds any is searched once and then
/// only in what was appended, when `memos` names a folder to remember the
/// search in ([`super::memo`]).
pub fn head_path(
    path: &Path,
    n: usize,
    branches: bool,
    memos: Option<&Path>,
) -> io::Result<Option<Vec<PathEntry>>> {
    if n == 0 {
        return Ok(Some(Vec::new()));
    }
    // A pipe or a device has no end to read back from; a named pipe is not
    // even opened, as what one open reads is gone for the next.
    if !std::fs::metadata(path)?.is_file() {
        return Ok(None);
    }
    let file = File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Ok(None);
    }
    // A line longer than ysess reads (or a limit that does not parse): the
    // whole load says which.
    let Ok(limit) = crate::input::max_line() else {
        return Ok(None);
    };
    // The walk reads yoagent's lines; other formats are read whole.
    if !crate::format::Format::detect_file(&file)?.yoagent_lines() {
        return Ok(None);
    }
    // Branch names decorate the entries their work grew to, which only the
    // whole tree tells: a file that names branches is read whole, so that
    // `log -n` decorates exactly as `log` does.
    let memo = memos.map(|dir| super::memo::Memo::new(dir, path));
    if branches && super::memo::mentions_branches(&file, meta.len(), memo.as_ref())? {
        return Ok(None);
    }
    let mut walk = Walk {
        wanted: None,
        out: Vec::new(),
        n,
        labels: HashSet::new(),
        ids: HashSet::new(),
        hidden: 0,
        named: std::collections::HashMap::new(),
    };
    let mut lines = BackLines::new(file, meta.len(), limit);
    while let Some(line) = lines.next_back()? {
        let Some(line) = line else {
            return Ok(None); // longer than the limit
        };
        match walk.line(line) {
            Step::More => {}
            Step::Done => return Ok(Some(walk.finish())),
            Step::Unsure => return Ok(None),
        }
    }
    // The root was reached (or the file is empty): the path is complete,
    // unless a parent was never found.
    let complete = walk.wanted.is_none();
    Ok(complete.then(|| walk.finish()))
}

impl Walk {
    /// The entries to show, each with its parent in the user's tree: the
    /// next entry of the path, records passed over.
    fn finish(mut self) -> Vec<PathEntry> {
        let older: Vec<Option<String>> = self
            .out
            .iter()
            .skip(1)
            .map(|e| Some(e.id.clone()))
            .chain([None])
            .collect();
        for (entry, parent) in self.out.iter_mut().zip(older) {
            entry.parent = parent;
        }
        self.out.truncate(self.n);
        self.out
    }
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
    /// The labels seen so far, by the id of the entry each names.
    named: std::collections::HashMap<String, Vec<String>>,
}

enum Step {
    More,
    Done,
    Unsure,
}

impl Walk {
    fn line(&mut self, line: Cow<'_, [u8]>) -> Step {
        let bytes: &[u8] = &line;
        // The first entry from the end is HEAD, on the path for sure: its
        // subject is made in the same pass (its line may be very long).
        let head = self.wanted.is_none() && self.out.is_empty() && self.hidden == 0;
        let facts = match check_line(bytes, head) {
            Checked::Blank => return Step::More,
            Checked::Entry { facts, .. } => facts,
            Checked::Header { .. }
            | Checked::Aside { .. }
            | Checked::Moves(_)
            | Checked::Fault { .. }
            | Checked::NotUtf8 { .. } => {
                return Step::Unsure;
            }
        };
        if !self.ids.insert(facts.id.to_string()) {
            return Step::Unsure;
        }
        let is_record = crate::format::records::is_record_entry(&facts);
        self.remember_label(&facts, is_record);
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
        // Read this one again for its subject, unless it was read with it.
        let facts: LineFacts<'_> = if head {
            facts
        } else {
            match check_line(bytes, true) {
                Checked::Entry { facts, .. } => facts,
                _ => return Step::Unsure,
            }
        };
        let own = |c: &Option<Cow<'_, str>>| c.as_deref().unwrap_or_default().to_string();
        self.wanted = facts.parent.as_deref().map(str::to_string);
        let mut entry = PathEntry {
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
                // Sorted, as decorations list them.
                let mut labels = self.named.remove(facts.id.as_ref()).unwrap_or_default();
                labels.sort_unstable();
                labels
            },
            raw: Vec::new(),
        };
        drop(facts);
        entry.raw = stored(line);
        self.out.push(entry);
        // One entry more than asked for: it is the parent of the last one
        // shown, whatever ysess records stand between them in the file.
        if self.out.len() > self.n || self.wanted.is_none() {
            Step::Done
        } else {
            Step::More
        }
    }
}

impl Walk {
    /// Remembers the entry a line's label names. Read from the end, the
    /// first carrier of a name is the newest: it names the entry the one
    /// rule says, which comes at or before it.
    fn remember_label(&mut self, facts: &LineFacts<'_>, is_record: bool) {
        if let Some(label) = facts.label.as_deref()
            && self.labels.insert(label.to_string())
            && let Some(target) =
                crate::tree::label_target(facts.id.as_ref(), is_record, facts.parent.as_deref())
        {
            self.named
                .entry(target.to_string())
                .or_default()
                .push(label.to_string());
        }
    }
}

/// The line as stored, trimmed as yoagent trims it. A line read whole (a
/// long one) is kept, not copied.
fn stored(line: Cow<'_, [u8]>) -> Vec<u8> {
    let text = std::str::from_utf8(&line).unwrap_or_default();
    let start = text.len() - text.trim_start().len();
    let end = start + text.trim().len();
    match line {
        Cow::Owned(mut raw) => {
            raw.truncate(end);
            raw.drain(..start);
            raw
        }
        Cow::Borrowed(raw) => raw[start..end].to_vec(),
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
        let got = head_path(&path, 10, true, None)
            .expect("reads")
            .expect("sure");
        let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e6", "e5", "e2", "e1"]);
        assert_eq!(
            got[3].labels,
            Vec::<String>::new(),
            "cp names e3, the newest carrier"
        );
        assert_eq!(got[1].labels, ["old"]);
        assert_eq!(got[0].subject, "text of e6");
        let two = head_path(&path, 2, true, None)
            .expect("reads")
            .expect("sure");
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
        let got = head_path(&path, 5, true, None)
            .expect("reads")
            .expect("sure");
        let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e2", "e1"]);
    }

    #[test]
    fn log_n_reads_a_long_last_line_in_linear_work() {
        // A last line of many blocks was once kept as a growing tail that
        // every earlier block was copied in front of: quadratic in its
        // length (a 200 MB line took 80 s).
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("s.jsonl");
        let long = "y".repeat(3 * crate::input::back::BLOCK as usize + 17);
        let text = [
            line("e1", None, None),
            line("e2", Some("e1"), None).replace("text of e2", &long),
            String::new(),
            line("e3", Some("e2"), None).replace("text of e3", &long.repeat(4)),
        ]
        .join("\n");
        std::fs::write(&path, &text).expect("write");
        let file = File::open(&path).expect("open");
        let len = text.len() as u64;
        let mut lines = BackLines::new(file, len, u64::MAX);
        let mut got = Vec::new();
        while let Some(Some(line)) = lines.next_back().expect("reads") {
            got.push(String::from_utf8(line.into_owned()).expect("utf-8"));
        }
        let want: Vec<&str> = text.split('\n').rev().collect();
        assert_eq!(got, want);
        assert!(
            lines.bytes_read() <= 2 * len,
            "read {} bytes of a {len}-byte file",
            lines.bytes_read()
        );
        let got = head_path(&path, 3, true, None)
            .expect("reads")
            .expect("sure");
        let ids: Vec<&str> = got.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["e3", "e2", "e1"]);
        assert_eq!(got[0].raw, want[0].as_bytes());
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
        assert_eq!(head_path(&path, 10, true, None).expect("reads"), None);
        std::fs::write(&path, "").expect("write");
        assert_eq!(
            head_path(&path, 10, true, None).expect("reads"),
            Some(vec![])
        );
    }
}
