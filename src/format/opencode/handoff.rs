//! `ysess resume` for OpenCode: `opencode --session ID`, run in the
//! session's directory, at the session's end, where OpenCode goes on. At
//! an earlier entry it is refused: OpenCode resumes a session only at its
//! end, and ysess never writes into OpenCode's database (its `--fork`
//! copies the whole session, not a path).

use std::path::PathBuf;

use serde_json::Value;

use crate::format::handoff::{At, Handoff, Refusal};

/// The command that resumes the OpenCode session `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    if at.app_head != Some(at.rev) {
        return Err(Refusal::Unreadable(
            "OpenCode resumes a session only at its end, and ysess never writes into \
             OpenCode's database: resume at HEAD (`ysess resume`), or go on from the \
             session in OpenCode and fork it there"
                .to_string(),
        ));
    }
    let header: Value = serde_json::from_slice(at.first_line).unwrap_or(Value::Null);
    let cwd = header["directory"].as_str().map(PathBuf::from);
    // OpenCode's data folder: the one that holds `opencode.db`.
    let data = at
        .path
        .parent()
        .and_then(|db| db.parent())
        .map(|d| std::path::absolute(d).unwrap_or_else(|_| d.to_path_buf()));
    let set = |name: &str| (at.var)(name).filter(|v| !v.is_empty());
    let default = set("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .map(|d| d.join("opencode"));
    let env = match (&data, &default) {
        (Some(data), default) if Some(data) != default.as_ref() => match data.parent() {
            Some(share) if data.file_name().is_some_and(|n| n == "opencode") => {
                vec![("XDG_DATA_HOME".to_string(), share.to_path_buf())]
            }
            _ => Vec::new(),
        },
        _ => Vec::new(),
    };
    Ok(Handoff::run(
        "opencode",
        ["--session".to_string(), at.session.to_string()]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect(),
        cwd,
        env,
        "npm install -g opencode-ai",
    ))
}
