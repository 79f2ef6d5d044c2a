//! `ysess resume` for Qwen Code: `qwen --resume SESSION` where Qwen Code
//! itself goes on (its file's last entry); anywhere else, the path to REV
//! written as a new session beside the original (Qwen Code's own lines
//! under a new `sessionId`, as its `--fork-session` copies them), and
//! `qwen --resume NEW`.

use std::path::{Path, PathBuf};

use crate::format::handoff::{
    At, Handoff, NewFile, Refusal, as_new_session, project_name, string_field, uuid_v4,
};

const INSTALL: &str = "npm install -g @qwen-code/qwen-code";

/// The command that resumes the Qwen Code session `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    let cwd = at
        .path_lines
        .iter()
        .rev()
        .find_map(|line| string_field(line, "cwd"))
        .map(PathBuf::from);
    // Qwen Code's home: the folder above `projects/<project>/chats/`.
    let home = qwen_home(at.path);
    let default_home = default_home(at.var);
    let env = match &home {
        Some(home) if Some(home) != default_home.as_ref() => {
            vec![("QWEN_RUNTIME_DIR".to_string(), home.clone())]
        }
        _ => Vec::new(),
    };
    // Qwen Code finds a session by its file's name, in its working
    // directory's project folder.
    let named_by_id = at.path.file_stem().is_some_and(|s| s == at.session);
    let at_head = at.app_head == Some(at.rev);
    let args = |session: &str| -> Vec<String> {
        ["--resume".to_string(), session.to_string()]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect()
    };
    if at_head && home.is_some() && named_by_id {
        return Ok(Handoff::run("qwen", args(at.session), cwd, env, INSTALL));
    }
    let session = uuid_v4();
    let folder = match (&home, &default_home, &cwd) {
        (Some(_), _, _) => at.path.parent().map(Path::to_path_buf),
        (None, Some(home), Some(cwd)) => {
            Some(home.join("projects").join(project_name(cwd)).join("chats"))
        }
        _ => None,
    }
    .ok_or_else(|| {
        Refusal::Unreadable(
            "the session is in no Qwen Code `projects` folder, and neither its working \
             directory nor Qwen Code's home (QWEN_RUNTIME_DIR, QWEN_HOME, HOME) is known"
                .to_string(),
        )
    })?;
    let bytes = as_new_session(at.path_lines, &session);
    let env = if home.is_none() { Vec::new() } else { env };
    Ok(
        Handoff::run("qwen", args(&session), cwd, env, INSTALL).writing(NewFile {
            path: folder.join(format!("{session}.jsonl")),
            bytes,
            session,
        }),
    )
}

/// The folder above `projects/<project>/chats/` that holds the session
/// file: Qwen Code's runtime folder for it.
fn qwen_home(session: &Path) -> Option<PathBuf> {
    let chats = session.parent()?;
    let projects = chats.parent()?.parent()?;
    (chats.file_name()? == "chats" && projects.file_name()? == "projects")
        .then(|| projects.parent().map(Path::to_path_buf))
        .flatten()
        .map(|home| std::path::absolute(&home).unwrap_or(home))
}

/// Where Qwen Code keeps sessions: `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`,
/// else `~/.qwen`.
pub fn default_home(var: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    let home = set("HOME").map(PathBuf::from);
    set("QWEN_RUNTIME_DIR")
        .or_else(|| set("QWEN_HOME"))
        .map(|d| crate::format::spec::expand(d, home.as_deref()))
        .or_else(|| home.map(|h| h.join(".qwen")))
}
