//! `fsck --since OLDFILE`: proves a session only grew since an old copy. The
//! two files are read side by side, entry by entry (blank lines aside, as
//! yoagent skips them), so any size works in little memory.

use std::io::{self, Read};

use serde_json::Value;

use crate::check::{Code, Finding};
use crate::input::LineReader;

/// A non-blank line, trimmed of JSON white space.
struct Line {
    number: u64,
    /// File offset of the trimmed text.
    offset: u64,
    bytes: Vec<u8>,
}

/// The next line that is not blank (yoagent skips those).
fn next_entry<R: Read>(lines: &mut LineReader<R>) -> io::Result<Option<Line>> {
    while let Some(line) = lines.next_line()? {
        let text = String::from_utf8_lossy(line.bytes);
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        let indent = text.len() - text.trim_start().len();
        return Ok(Some(Line {
            number: line.number,
            offset: line.offset + indent as u64,
            bytes: line.bytes.trim_ascii().to_vec(),
        }));
    }
    Ok(None)
}

/// Compares `new` against `old`. Errors name the first line of `new` that
/// breaks the append-only promise; labels added in place are warnings.
pub fn compare<R1: Read, R2: Read>(old: R1, new: R2) -> io::Result<Vec<Finding>> {
    compare_to(old, new, "the old copy")
}

/// [`compare`], an error reading the old copy naming `old_path`.
pub fn compare_named<R1: Read, R2: Read>(
    old: R1,
    new: R2,
    old_path: &str,
) -> io::Result<Vec<Finding>> {
    compare_inner(old, new, "the old copy", &format!("--since {old_path}"))
}

/// [`compare`], the old version named `old_name` in messages (`HEAD~3`).
pub fn compare_to<R1: Read, R2: Read>(
    old: R1,
    new: R2,
    old_name: &str,
) -> io::Result<Vec<Finding>> {
    compare_inner(old, new, old_name, old_name)
}

/// `old_name` in findings, `old_label` in errors reading the old version.
fn compare_inner<R1: Read, R2: Read>(
    old: R1,
    new: R2,
    old_name: &str,
    old_label: &str,
) -> io::Result<Vec<Finding>> {
    let mut old_lines = LineReader::new(old);
    let mut new_lines = LineReader::new(new);
    let mut findings = Vec::new();
    // An error reading the old version is its own, not the file's: it
    // names the old version, and no line of the file.
    let in_old = |e: io::Error| io::Error::new(e.kind(), format!("{old_label}: {e}"));
    loop {
        let old = match next_entry(&mut old_lines).map_err(in_old)? {
            Some(line) => line,
            None => return Ok(findings),
        };
        let Some(line) = next_entry(&mut new_lines)? else {
            let id = entry_id(&old.bytes);
            findings.push(Finding {
                code: Code::HistoryRewritten,
                line: None,
                offset: None,
                message: format!(
                    "entry {} (old line {}) and all after it are gone: the file lost entries since {old_name}",
                    id.as_deref().unwrap_or("?"),
                    old.number
                ),
                id,
                remedy: None,
            });
            return Ok(findings);
        };
        let new_bytes = line.bytes.as_slice();
        if new_bytes == old.bytes.as_slice() {
            continue;
        }
        let at = |code, id: Option<String>, message| Finding {
            code,
            line: Some(line.number),
            offset: Some(line.offset),
            id,
            message,
            remedy: None,
        };
        match judge(&old.bytes, new_bytes) {
            Change::Same => {}
            Change::LabelAdded { id, label } => findings.push(at(
                Code::LabelAddedInPlace,
                Some(id.clone()),
                format!(
                    "label `{label}` was added to entry {id} in place (as yoagent's checkpoint does), \
                     not appended; it is not in line {} of {old_name}",
                    old.number
                ),
            )),
            Change::Rewritten { old_id, new_id, what } => {
                let message = match (&old_id, &new_id) {
                    (Some(o), Some(n)) if o != n => format!(
                        "this line holds entry {n} where {old_name} has entry {o} (old line {}): \
                         entries were removed, reordered or inserted",
                        old.number
                    ),
                    _ => format!(
                        "entry {} was rewritten since {old_name} (old line {}): {what}",
                        new_id.as_deref().unwrap_or("?"),
                        old.number
                    ),
                };
                findings.push(at(Code::HistoryRewritten, new_id, message));
                return Ok(findings);
            }
        }
    }
}

enum Change {
    Same,
    LabelAdded {
        id: String,
        label: String,
    },
    Rewritten {
        old_id: Option<String>,
        new_id: Option<String>,
        what: String,
    },
}

fn entry_id(bytes: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    value.get("id")?.as_str().map(str::to_string)
}

/// Two lines that differ in bytes may still hold the same entry (key order,
/// white space); parse and compare them, the label apart.
fn judge(old: &[u8], new: &[u8]) -> Change {
    let parse = |b: &[u8]| serde_json::from_slice::<Value>(b).ok();
    let (Some(mut old_v), Some(mut new_v)) = (parse(old), parse(new)) else {
        return Change::Rewritten {
            old_id: entry_id(old),
            new_id: entry_id(new),
            what: "its bytes changed".to_string(),
        };
    };
    let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_string);
    let (old_id, new_id) = (id(&old_v), id(&new_v));
    let take_label = |v: &mut Value| match v.as_object_mut().and_then(|o| o.remove("label")) {
        Some(Value::Null) | None => None,
        Some(other) => Some(other),
    };
    let (old_label, new_label) = (take_label(&mut old_v), take_label(&mut new_v));
    if old_v != new_v {
        let what = match (old_v.as_object(), new_v.as_object()) {
            (Some(o), Some(n)) => {
                let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
                keys.sort();
                keys.dedup();
                let changed: Vec<String> = keys
                    .into_iter()
                    .filter(|k| o.get(*k) != n.get(*k))
                    .map(|k| format!("`{k}`"))
                    .collect();
                format!("{} changed", changed.join(", "))
            }
            _ => "its content changed".to_string(),
        };
        return Change::Rewritten {
            old_id,
            new_id,
            what,
        };
    }
    match (old_label, new_label) {
        (None, None) => Change::Same,
        (None, Some(label)) => Change::LabelAdded {
            id: new_id.unwrap_or_default(),
            label: label
                .as_str()
                .map_or_else(|| label.to_string(), str::to_string),
        },
        (Some(before), after) => Change::Rewritten {
            old_id,
            new_id,
            what: match after {
                Some(after) if after == before => return Change::Same,
                Some(after) => format!("its label changed from {before} to {after}"),
                None => format!("its label {before} was removed"),
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const E1: &str = r#"{"id":"e1","parent_id":null,"message":{"role":"user","content":[],"timestamp":1},"timestamp":1}"#;
    const E2: &str = r#"{"id":"e2","parent_id":"e1","message":{"role":"user","content":[],"timestamp":1},"timestamp":2}"#;

    fn findings(old: &str, new: &str) -> Vec<(Code, Option<u64>)> {
        compare(old.as_bytes(), new.as_bytes())
            .expect("in memory")
            .into_iter()
            .map(|f| (f.code, f.line))
            .collect()
    }

    #[test]
    fn growth_is_fine_and_yoagent_resave_is_fine() {
        assert!(findings(E1, &format!("{E1}\n{E2}")).is_empty());
        assert!(findings(&format!("{E1}\n{E2}"), &format!("{E1}\n\n{E2}\n")).is_empty());
    }

    #[test]
    fn a_label_added_in_place_is_a_warning() {
        let labelled = format!("{},\"label\":\"cp\"}}", &E1[..E1.len() - 1]);
        assert_eq!(
            findings(E1, &labelled),
            vec![(Code::LabelAddedInPlace, Some(1))]
        );
    }

    #[test]
    fn names_the_first_rewritten_line() {
        let edited = E2.replace("\"timestamp\":2", "\"timestamp\":3");
        assert_eq!(
            findings(&format!("{E1}\n{E2}"), &format!("{E1}\n{edited}")),
            vec![(Code::HistoryRewritten, Some(2))]
        );
        assert_eq!(
            findings(&format!("{E1}\n{E2}"), E1),
            vec![(Code::HistoryRewritten, None)]
        );
        assert_eq!(
            findings(&format!("{E1}\n{E2}"), &format!("{E2}\n{E1}")),
            vec![(Code::HistoryRewritten, Some(1))]
        );
    }
}
