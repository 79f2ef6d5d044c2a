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
        return Ok(Handoff {
            program: "gemini".to_string(),
            args: args(at.session),
            cwd,
            env,
            new_file: None,
            checkout_first: None,
            install: INSTALL,
        });
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
    Ok(Handoff {
        program: "gemini".to_string(),
        args: args(&session),
        cwd,
        env,
        new_file: Some(NewFile {
            path: folder.join(format!("session-{stamp}-{}.jsonl", &session[..8])),
            bytes,
            session,
        }),
        checkout_first: None,
        install: INSTALL,
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
