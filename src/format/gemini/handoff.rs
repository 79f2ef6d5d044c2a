//! `ysess resume` for Gemini CLI: `gemini --resume SESSION`, run in the
//! session's project, where Gemini CLI itself goes on (the end of the
//! conversation its file lays out); anywhere else, the path to REV written
//! as a new session in the same `chats/` folder (a header under a new id,
//! then the path's messages as Gemini CLI wrote them), and
//! `gemini --resume NEW`.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::format::handoff::{At, Handoff, NewFile, Refusal, uuid_v4};

const INSTALL: &str = "npm install -g @google/gemini-cli";

/// The command that resumes the Gemini CLI session `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    let cwd = super::project_root(at.path);
    // Gemini CLI's home: the folder that holds `.gemini/tmp/<project>/chats/`.
    let home = gemini_home(at.path);
    let set = |name: &str| (at.var)(name).filter(|v| !v.is_empty());
    let default_home = set("GEMINI_CLI_HOME")
        .or_else(|| set("HOME"))
        .map(PathBuf::from);
    let env = match &home {
        Some(home) if Some(home) != default_home.as_ref() => {
            vec![("GEMINI_CLI_HOME".to_string(), home.clone())]
        }
        _ => Vec::new(),
    };
    let args = |session: &str| -> Vec<String> {
        ["--resume".to_string(), session.to_string()]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect()
    };
    if home.is_none() {
        return Err(Refusal::Unreadable(
            "the session is in no Gemini CLI `chats` folder (`.gemini/tmp/<project>/chats/`), \
             where Gemini CLI finds the sessions it resumes"
                .to_string(),
        ));
    }
    if at.app_head == Some(at.rev) {
        return Ok(Handoff::run("gemini", args(at.session), cwd, env, INSTALL));
    }
    if let Some(why) = would_delete(at, home.as_deref(), cwd.as_deref()) {
        return Err(Refusal::Unreadable(why));
    }
    let session = uuid_v4();
    let stamp = jiff::Timestamp::from_millisecond(at.now_ms as i64)
        .map(|t| t.strftime("%Y-%m-%dT%H-%M").to_string())
        .unwrap_or_default();
    let now = jiff::Timestamp::from_millisecond(at.now_ms as i64)
        .map(|t| t.to_string())
        .unwrap_or_default();
    let header: serde_json::Value = serde_json::from_slice(at.first_line).unwrap_or(json!({}));
    let header = json!({
        "sessionId": session,
        "projectHash": header.get("projectHash").cloned().unwrap_or_default(),
        "startTime": now,
        "lastUpdated": now,
        "kind": "main",
    });
    let mut bytes = header.to_string().into_bytes();
    bytes.push(b'\n');
    for line in at.path_lines {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    let folder = at.path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(
        Handoff::run("gemini", args(&session), cwd, env, INSTALL).writing(NewFile {
            path: folder.join(format!("session-{stamp}-{}.jsonl", &session[..8])),
            bytes,
            session,
        }),
    )
}

/// Why Gemini CLI would delete the session when it starts a new one, if it
/// would. Gemini CLI 0.61 cleans up at every start, unless
/// `general.sessionRetention.enabled` is false in the user's or the
/// project's settings: it deletes every file of a session that has a file
/// it cannot resume (as the one its own `--resume` leaves, with no message)
/// and every session older than `maxAge` (30 days), sparing only the
/// session it runs (the files whose name holds its first 8 characters).
/// (google-gemini/gemini-cli#27368; measured in the agent tests.)
fn would_delete(at: &At<'_>, home: Option<&Path>, project: Option<&Path>) -> Option<String> {
    let settings = |dir: &Path| -> Option<serde_json::Value> {
        let text = std::fs::read_to_string(dir.join(".gemini/settings.json")).ok()?;
        serde_json::from_str(&text).ok()
    };
    let retention: Vec<serde_json::Value> = [home, project]
        .into_iter()
        .flatten()
        .filter_map(settings)
        .map(|s| s["general"]["sessionRetention"].clone())
        .collect();
    if retention.iter().any(|r| r["enabled"] == false) {
        return None;
    }
    let fix = "set \"general\": {\"sessionRetention\": {\"enabled\": false}} in \
               ~/.gemini/settings.json (or the project's .gemini/settings.json), or resume at \
               the session's end (`ysess resume`), where Gemini CLI runs this session itself";
    // (a) a file of this session Gemini CLI cannot resume.
    let id8 = &at.session[..at.session.len().min(8)];
    let chats = at.path.parent()?;
    let stray = std::fs::read_dir(chats)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .find(|p| {
            p != at.path
                && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                    n.starts_with("session-")
                        && (n.ends_with(&format!("-{id8}.jsonl"))
                            || n.ends_with(&format!("-{id8}.json")))
                })
                && !holds_a_message(p)
        });
    if let Some(stray) = stray {
        return Some(format!(
            "Gemini CLI would delete this session as it starts the new one: its cleanup removes \
             every file of a session that has a file it cannot resume, and {} (left by a resume) \
             holds no message; {fix}",
            stray.display()
        ));
    }
    // (b) a session older than the retention's age (30 days unless set).
    let days = retention
        .iter()
        .find_map(|r| r["maxAge"].as_str())
        .and_then(|a| a.strip_suffix('d')?.parse::<u64>().ok())
        .unwrap_or(30);
    let last = last_updated(at)?;
    let age = at.now_ms.saturating_sub(last);
    (age > days * 24 * 3600 * 1000).then(|| {
        format!(
            "Gemini CLI would delete this session as it starts the new one: its cleanup removes \
             sessions last updated more than {days} days ago; {fix}"
        )
    })
}

/// Whether a session file holds a message Gemini CLI resumes (not only its
/// header and the context it opens a chat with).
fn holds_a_message(path: &Path) -> bool {
    let Ok(bytes) = crate::format::Format::read_whole(path).unwrap_or_else(|| std::fs::read(path))
    else {
        return true;
    };
    bytes.split(|&b| b == b'\n').any(|line| {
        matches!(
            super::check_line(line, false),
            crate::format::Checked::Entry { .. }
        )
    })
}

/// When the session was last updated, in ms since the epoch: its last
/// `lastUpdated`.
fn last_updated(at: &At<'_>) -> Option<u64> {
    let text = String::from_utf8_lossy(at.tail);
    let from_tail = text.rfind("\"lastUpdated\":\"").and_then(|i| {
        let rest = &text[i + "\"lastUpdated\":\"".len()..];
        crate::format::json::iso_millis(&rest[..rest.find('"')?])
    });
    from_tail.or_else(|| {
        let header: serde_json::Value = serde_json::from_slice(at.first_line).ok()?;
        crate::format::json::iso_millis(header["lastUpdated"].as_str()?)
    })
}

/// The folder above `.gemini/tmp/<project>/chats/` that holds the session
/// file: Gemini CLI's home for it.
fn gemini_home(session: &Path) -> Option<PathBuf> {
    let chats = session.parent()?;
    let tmp = chats.parent()?.parent()?;
    let dot = tmp.parent()?;
    (chats.file_name()? == "chats" && tmp.file_name()? == "tmp" && dot.file_name()? == ".gemini")
        .then(|| dot.parent().map(Path::to_path_buf))
        .flatten()
        .map(|home| std::path::absolute(&home).unwrap_or(home))
}
