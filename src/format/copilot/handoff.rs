//! `ysess resume` for Copilot CLI: `copilot --resume=SESSION`, run in the
//! session's working directory, where Copilot CLI itself goes on (the end
//! of its file, which it replays in order); anywhere else, the events up to
//! REV written as a new session in `session-state/<new id>/events.jsonl`
//! (its `session.start` naming the new id), and `copilot --resume=NEW`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::format::handoff::{At, Handoff, NewFile, Refusal, uuid_v4};

const INSTALL: &str = "npm install -g @github/copilot";

/// The command that resumes the Copilot CLI session `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    let start: Value = serde_json::from_slice(at.first_line).unwrap_or(Value::Null);
    let cwd = start
        .get("data")
        .and_then(|d| d.get("context")?.get("cwd")?.as_str())
        .map(PathBuf::from);
    // Copilot CLI's home: the folder that holds `session-state/<id>/`.
    let state = at.path.parent().and_then(Path::parent);
    let home = state
        .filter(|s| s.file_name().is_some_and(|n| n == "session-state"))
        .and_then(Path::parent)
        .map(|h| std::path::absolute(h).unwrap_or_else(|_| h.to_path_buf()));
    let Some(home) = home else {
        return Err(Refusal::Unreadable(
            "the session is in no Copilot CLI `session-state` folder, where Copilot CLI finds \
             the sessions it resumes"
                .to_string(),
        ));
    };
    let set = |name: &str| (at.var)(name).filter(|v| !v.is_empty());
    let default_home = set("COPILOT_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|h| PathBuf::from(h).join(".copilot")));
    let env = if Some(&home) == default_home.as_ref() {
        Vec::new()
    } else {
        vec![("COPILOT_HOME".to_string(), home.clone())]
    };
    let args = |session: &str| -> Vec<String> {
        [format!("--resume={session}")]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect()
    };
    if at.app_head == Some(at.rev) {
        return Ok(Handoff::run("copilot", args(at.session), cwd, env, INSTALL));
    }
    let session = uuid_v4();
    let before = (at.before)(at.after.first().map_or(at.end, |(offset, _)| *offset))
        .map_err(|e| Refusal::Unreadable(e.to_string()))?;
    let mut bytes = Vec::new();
    for line in &before {
        let mut line = line.clone();
        let mut v: Value = serde_json::from_slice(&line).unwrap_or(Value::Null);
        if v.get("type").and_then(Value::as_str) == Some("session.start")
            && let Some(data) = v.get_mut("data").and_then(Value::as_object_mut)
        {
            data.insert("sessionId".to_string(), Value::from(session.clone()));
            line = v.to_string().into_bytes();
        }
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    Ok(
        Handoff::run("copilot", args(&session), cwd, env, INSTALL).writing(NewFile {
            path: home
                .join("session-state")
                .join(&session)
                .join("events.jsonl"),
            bytes,
            session,
        }),
    )
}
