//! Gemini CLI's older session files (up to 0.38, before JSON Lines): one
//! JSON document a session, `chats/session-<time>-<id>.json`, pretty
//! printed and rewritten whole on every change (a `/rewind` drops the later
//! messages with no mark left): `{sessionId, projectHash, startTime,
//! lastUpdated, messages, kind?, directories?, summary?}`, each message
//! the shape the JSON Lines files hold. ysess reads such a file as the
//! lines Gemini CLI 0.39 and later write: the header, each message, then
//! its summary as a `$set`. Gemini CLI 0.61 resumes one by writing a
//! `.jsonl` copy beside it (the same name, `l` added) and goes on there:
//! the `.json` is then [`superseded`].

use std::io;
use std::path::Path;

use serde_json::{Map, Value, json};

/// Whether `path` is an older session file: a `.json` in a `chats` folder
/// (`chats/session-….json`, or a subagent's `chats/<session>/<id>.json`).
pub fn is_legacy(path: &Path) -> bool {
    if path.extension().is_none_or(|x| x != "json") {
        return false;
    }
    let in_chats = |dir: Option<&Path>| dir.and_then(Path::file_name).is_some_and(|n| n == "chats");
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("session-"));
    (named && in_chats(path.parent())) || in_chats(path.parent().and_then(Path::parent))
}

/// Whether Gemini CLI has copied the file into a `.jsonl` beside it.
pub fn superseded(path: &Path) -> bool {
    is_legacy(path) && {
        let mut copy = path.as_os_str().to_owned();
        copy.push("l");
        Path::new(&copy).is_file()
    }
}

/// The file read as Gemini CLI's JSON Lines.
pub fn lines(path: &Path) -> io::Result<Vec<u8>> {
    let bytes = crate::input::open_regular(path).and_then(|file| {
        let len = file.metadata()?.len();
        crate::input::read_at(&file, 0, len)
    })?;
    let doc: Map<String, Value> = serde_json::from_slice(&bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: not a Gemini CLI session (a JSON object with `messages`): {e}",
                path.display()
            ),
        )
    })?;
    let messages = match doc.get("messages") {
        Some(Value::Array(messages)) => messages.as_slice(),
        _ => {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: not a Gemini CLI session: no `messages` list",
                    path.display()
                ),
            ));
        }
    };
    let header: Map<String, Value> = doc
        .iter()
        .filter(|(k, _)| {
            matches!(
                k.as_str(),
                "sessionId" | "projectHash" | "startTime" | "lastUpdated" | "kind" | "directories"
            )
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut out = Vec::with_capacity(bytes.len());
    let mut push = |v: &Value| {
        out.extend_from_slice(v.to_string().as_bytes());
        out.push(b'\n');
    };
    push(&Value::Object(header));
    messages.iter().for_each(&mut push);
    if let Some(summary) = doc.get("summary").filter(|s| s.is_string()) {
        push(&json!({"$set": {"summary": summary}}));
    }
    Ok(out)
}
