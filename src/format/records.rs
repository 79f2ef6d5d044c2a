//! ysess's own records. Everything ysess changes in a session is appended as
//! an ordinary yoagent entry (the next `e<N>` id) whose message is a custom
//! record `{"role": "extension", "kind": "ysess.<op>", "data": {…}}`: yoagent
//! loads it, never sends it to a model, and an agent that resumes keeps
//! appending below it. Where a record hangs in the tree is what makes yoagent
//! do what the person asked:
//!
//! | kind | parent | data | effect in yoagent |
//! | --- | --- | --- | --- |
//! | `ysess.checkout` | the entry to resume from | `{"target"}` | on the last line, it is yoagent's head: `path_messages()` resumes at its parent |
//! | `ysess.tag` | the labelled entry | `{"name", "target"}`, and the entry's `label` | `seek_checkpoint(name)` lands on it, resuming at its parent |
//! | `ysess.branch` | the branch's base | `{"name", "target"}` | work appended below it belongs to the branch |
//! | `ysess.branch-delete` | the last line's entry | `{"name"}` | the name no longer names a branch |
//! | `ysess.branch-rename` | the last line's entry | `{"from", "to"}` | the branch is known by its new name |

use serde::Serialize;
use serde_json::{Value, json};

/// The role every record of ysess's is written with.
pub const ROLE: &str = "extension";

/// The kinds of record ysess writes.
pub const KINDS: [&str; 5] = [
    "ysess.checkout",
    "ysess.tag",
    "ysess.branch",
    "ysess.branch-delete",
    "ysess.branch-rename",
];

/// Whether a custom message's kind is in ysess's namespace (`ysess.…`):
/// ysess refuses to append such a message for a user.
pub fn is_ysess_kind(kind: &str) -> bool {
    kind.starts_with("ysess.")
}

/// Whether a custom message is one of ysess's own records: exactly the role
/// and a kind that ysess writes. These, and nothing else, are folded out of
/// the user's tree.
pub fn is_record(role: &str, kind: &str) -> bool {
    role == ROLE && KINDS.contains(&kind)
}

/// [`is_record`] for an entry as the line checks read it.
pub fn is_record_entry(facts: &crate::format::LineFacts<'_>) -> bool {
    facts.kind == crate::format::MessageKind::Custom
        && is_record(
            facts.custom_role.as_deref().unwrap_or_default(),
            facts.custom_kind.as_deref().unwrap_or_default(),
        )
}

/// One record as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    /// What it records.
    pub kind: Kind,
    /// The entry it hangs from.
    pub parent: String,
}

/// What one of ysess's records says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// HEAD moves to `target` (`ysess.checkout`).
    Checkout {
        /// The id of the entry HEAD moves to.
        target: String,
    },
    /// The label `name` names `target` (`ysess.tag`).
    Tag {
        /// The label.
        name: String,
        /// The id of the entry it names.
        target: String,
    },
    /// The branch `name` starts at `target` (`ysess.branch`).
    Branch {
        /// The branch.
        name: String,
        /// The id of the entry it starts at.
        target: String,
    },
    /// The branch `name` is deleted (`ysess.branch-delete`).
    BranchDelete {
        /// The branch.
        name: String,
    },
    /// The branch `from` is now called `to` (`ysess.branch-rename`).
    BranchRename {
        /// Its old name.
        from: String,
        /// Its new name.
        to: String,
    },
}

impl Kind {
    /// The record's kind as stored (`ysess.checkout`, …).
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Checkout { .. } => KINDS[0],
            Kind::Tag { .. } => KINDS[1],
            Kind::Branch { .. } => KINDS[2],
            Kind::BranchDelete { .. } => KINDS[3],
            Kind::BranchRename { .. } => KINDS[4],
        }
    }

    /// The record's data, as written.
    pub fn data(&self) -> Value {
        match self {
            Kind::Checkout { target } => json!({ "target": target }),
            Kind::Tag { name, target } | Kind::Branch { name, target } => {
                json!({ "name": name, "target": target })
            }
            Kind::BranchDelete { name } => json!({ "name": name }),
            Kind::BranchRename { from, to } => json!({ "from": from, "to": to }),
        }
    }

    /// Reads a record's kind and data back; `Err` says what is malformed.
    pub fn parse(kind: &str, data: &Value) -> Result<Kind, String> {
        let field = |name: &str| -> Result<String, String> {
            match data.get(name) {
                Some(Value::String(s)) if !s.is_empty() => Ok(s.clone()),
                Some(Value::String(_)) => Err(format!("`data.{name}` is empty")),
                Some(_) => Err(format!("`data.{name}` is not a string")),
                None => Err(format!("`data.{name}` is missing")),
            }
        };
        if !data.is_object() {
            return Err("`data` is not an object".to_string());
        }
        Ok(match kind {
            "ysess.checkout" => Kind::Checkout {
                target: field("target")?,
            },
            "ysess.tag" => Kind::Tag {
                name: field("name")?,
                target: field("target")?,
            },
            "ysess.branch" => Kind::Branch {
                name: field("name")?,
                target: field("target")?,
            },
            "ysess.branch-delete" => Kind::BranchDelete {
                name: field("name")?,
            },
            "ysess.branch-rename" => Kind::BranchRename {
                from: field("from")?,
                to: field("to")?,
            },
            other => return Err(format!("`{other}` is not a kind of record ysess writes")),
        })
    }
}

#[derive(Serialize)]
struct Line<'a> {
    id: &'a str,
    parent_id: Option<&'a str>,
    message: Message,
    timestamp: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<&'a str>,
}

#[derive(Serialize)]
struct Message {
    role: &'static str,
    kind: &'static str,
    data: Value,
}

impl Record {
    /// The record's line, fields in the order yoagent writes them. A tag
    /// record carries the label itself, so that yoagent's `seek_checkpoint`
    /// finds it.
    pub fn line(&self, id: &str, now_ms: u64) -> String {
        let label = match &self.kind {
            Kind::Tag { name, .. } => Some(name.as_str()),
            _ => None,
        };
        let line = Line {
            id,
            parent_id: Some(&self.parent),
            message: Message {
                role: ROLE,
                kind: self.kind.name(),
                data: self.kind.data(),
            },
            timestamp: now_ms,
            label,
        };
        serde_json::to_string(&line).unwrap_or_default()
    }
}

/// Why a character cannot be in a name: one a person cannot see or type
/// back (Unicode's Other and Separator categories, and white space), so that
/// two names that look the same are the same. Bidirectional overrides would
/// make a name read differently from what it is.
fn unseen(c: char) -> Option<&'static str> {
    use unicode_properties::{GeneralCategory as G, UnicodeGeneralCategory};
    if c.is_whitespace() {
        return Some("white space");
    }
    Some(match c.general_category() {
        G::Control => "a control character",
        G::Format => {
            "an invisible format character (bidirectional controls, zero-width characters \
             and the like are refused)"
        }
        G::PrivateUse => "a private-use character",
        G::Unassigned | G::Surrogate => "an unassigned code point",
        G::SpaceSeparator | G::LineSeparator | G::ParagraphSeparator => "white space",
        _ => return None,
    })
}

/// Why a name cannot name a branch or a label, as git checks its refs.
pub fn check_name(name: &str) -> Result<(), String> {
    let first_unseen = name.chars().find_map(|c| unseen(c).map(|what| (c, what)));
    let held;
    let why = if name.is_empty() {
        "it is empty"
    } else if name == "HEAD" || name == "@" {
        "it means HEAD"
    } else if let Some((c, what)) = first_unseen {
        held = format!("it holds U+{:04X}, {what}", c as u32);
        &held
    } else if name.contains("..") {
        "it holds `..`"
    } else if name
        .chars()
        .any(|c| matches!(c, '~' | '^' | ':' | '?' | '*' | '[' | '\\'))
    {
        "it holds one of ~ ^ : ? * [ \\ (they mean something in revisions)"
    } else if name.starts_with('-') {
        "it starts with `-`"
    } else if name.starts_with('/') || name.ends_with('/') || name.contains("//") {
        "a `/` must sit between two parts"
    } else if name.ends_with('.') || name.ends_with(".lock") {
        "it ends with `.` or `.lock`"
    } else if name.split('/').any(|part| part.starts_with('.')) {
        "a part of it starts with `.`"
    } else if name.contains("@{") {
        "it holds `@{`"
    } else if crate::format::yoagent::counter_number(name).is_some() {
        "it looks like an entry id"
    } else {
        return Ok(());
    };
    // Shown with what cannot be seen made visible, as session text is.
    let shown: String = name
        .chars()
        .map(|c| match unseen(c) {
            Some(_) => format!("\\u{{{:x}}}", c as u32),
            None => c.to_string(),
        })
        .collect();
    Err(format!("'{shown}' is not a valid name: {why}"))
}

/// What is wrong with a line that holds a record in ysess's namespace: data
/// that does not fit its kind, or a record that does not hang where its data
/// says. yoagent loads such a line; ysess would misread it. `Ok` carries the
/// target of a checkout record, which the tree checks once it is linked.
pub fn check_line(
    line: &[u8],
    facts: &crate::format::LineFacts<'_>,
) -> Result<Option<String>, String> {
    let Some(kind) = facts
        .custom_kind
        .as_deref()
        .filter(|k| is_ysess_kind(k))
        .filter(|_| {
            facts.kind == crate::format::MessageKind::Custom
                && facts.custom_role.as_deref() == Some(ROLE)
        })
    else {
        return Ok(None);
    };
    let text = std::str::from_utf8(line).map_err(|e| e.to_string())?.trim();
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    check_record(
        kind,
        &value["message"]["data"],
        facts.parent.as_deref(),
        facts.label.as_deref(),
    )
}

/// What is wrong with a record of `kind` with `data`, hung from `parent` and
/// carrying `label`, in any format; `Ok` carries a checkout's target.
pub fn check_record(
    kind: &str,
    data: &Value,
    parent: Option<&str>,
    label: Option<&str>,
) -> Result<Option<String>, String> {
    let parsed = Kind::parse(kind, data).map_err(|why| format!("record {kind}: {why}"))?;
    let Some(parent) = parent else {
        return Err(format!(
            "record {kind}: it hangs from no entry, and ysess always hangs a record from one"
        ));
    };
    let problem = match &parsed {
        Kind::Checkout { target } => return Ok(Some(target.clone())),
        Kind::Tag { target, .. } | Kind::Branch { target, .. } if target != parent => Some(
            format!("record {kind}: its target {target} is not the entry it hangs from ({parent})"),
        ),
        Kind::Tag { name, .. } if label != Some(name) => Some(format!(
            "record {kind}: it names label `{name}` but does not carry it"
        )),
        Kind::Branch { name, .. } | Kind::Tag { name, .. } => check_name(name)
            .err()
            .map(|why| format!("record {kind}: {why}")),
        Kind::BranchRename { to, .. } => check_name(to)
            .err()
            .map(|why| format!("record {kind}: {why}")),
        Kind::BranchDelete { .. } => None,
    };
    match problem {
        Some(p) => Err(p),
        None if !matches!(parsed, Kind::Tag { .. }) && label.is_some() => Err(format!(
            "record {kind}: it carries a label, which only ysess.tag records do"
        )),
        None => Ok(None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_line_loads_as_a_custom_message_and_round_trips() {
        let record = Record {
            kind: Kind::Tag {
                name: "draft".into(),
                target: "e5".into(),
            },
            parent: "e5".into(),
        };
        let line = record.line("e9", 1_760_000_000_000);
        assert_eq!(
            line,
            r#"{"id":"e9","parent_id":"e5","message":{"role":"extension","kind":"ysess.tag","data":{"name":"draft","target":"e5"}},"timestamp":1760000000000,"label":"draft"}"#
        );
        let v: Value = serde_json::from_str(&line).expect("JSON");
        let kind = Kind::parse(
            v["message"]["kind"].as_str().unwrap_or_default(),
            &v["message"]["data"],
        );
        assert_eq!(kind, Ok(record.kind));
    }

    #[test]
    fn malformed_data_is_named() {
        assert_eq!(
            Kind::parse("ysess.branch", &json!({"name": "", "target": "e1"})),
            Err("`data.name` is empty".to_string())
        );
        assert_eq!(
            Kind::parse("ysess.checkout", &json!([])),
            Err("`data` is not an object".to_string())
        );
        assert!(Kind::parse("ysess.teleport", &json!({})).is_err());
    }

    #[test]
    fn names_are_checked_like_git_refs() {
        for good in ["lib", "first-draft", "feature/x", "naïve", "v2.1"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "HEAD",
            "@",
            "a b",
            "a..b",
            "a~1",
            "-x",
            "x/",
            "x.lock",
            ".hidden",
            "a/.b",
            "e12",
            "tab\there",
            "a\u{1b}",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_with_bidi_overrides_or_invisible_characters_are_refused() {
        for (bad, code) in [
            ("lib\u{202e}txt", "U+202E"), // right-to-left override
            ("a\u{2066}b", "U+2066"),     // left-to-right isolate
            ("a\u{200f}", "U+200F"),      // right-to-left mark
            ("li\u{200b}b", "U+200B"),    // zero-width space
            ("\u{feff}lib", "U+FEFF"),    // byte-order mark
            ("a\u{ad}b", "U+00AD"),       // soft hyphen
            ("a\u{e0041}", "U+E0041"),    // tag character
            ("a\u{a0}b", "U+00A0"),       // no-break space
            ("a\u{2028}b", "U+2028"),     // line separator
            ("a\u{3000}b", "U+3000"),     // ideographic space
            ("a\u{85}b", "U+0085"),       // next line (C1 control)
            ("a\u{e000}", "U+E000"),      // private use
            ("a\u{378}", "U+0378"),       // unassigned
        ] {
            let why = check_name(bad).expect_err(bad);
            assert!(why.contains(code), "{bad:?}: {why}");
        }
        for good in ["ライブラリ", "café", "v2-β", "x😀"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
    }
}
