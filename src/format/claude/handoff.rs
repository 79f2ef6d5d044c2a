//! `ysess resume` for Claude Code: `claude --resume SESSION
//! --resume-session-at REV --fork-session`, which writes the path to REV
//! into a new session and goes on there, leaving the original as it was.
//! Claude Code finds REV only on the branch it resumes (the leaf its last
//! `last-prompt` line names, else its newest entry): for REV on another
//! branch, or a session file outside Claude Code's `projects/` folders,
//! ysess writes the path to REV as a new session beside it (Claude Code's
//! own lines, under a new `sessionId`) and resumes that.

use std::path::{Path, PathBuf};

use crate::format::handoff::{
    At, Handoff, NewFile, Refusal, as_new_session, project_name, string_field, uuid_v4,
};

const INSTALL: &str = "npm install -g @anthropic-ai/claude-code";

/// The command that resumes the Claude Code session `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    let cwd = at
        .path_lines
        .iter()
        .rev()
        .find_map(|line| string_field(line, "cwd"))
        .map(PathBuf::from);
    // Claude Code's home: the folder above `projects/<project>/`.
    let home = claude_home(at.path);
    let default_home = default_home(at.var);
    let env = match &home {
        Some(home) if Some(home) != default_home.as_ref() => {
            vec![("CLAUDE_CONFIG_DIR".to_string(), home.clone())]
        }
        _ => Vec::new(),
    };
    let leaf = last_prompt_leaf(at.tail);
    // (HEAD with ysess's refs is not where Claude Code resumes: its own
    // lines say.)
    let on_its_branch = match leaf {
        Some(leaf) => (at.through_rev)(&leaf),
        None => at.app_head.is_some_and(|head| (at.through_rev)(head)),
    };
    // Claude Code finds a session by its file's name.
    let named_by_id = at.path.file_stem().is_some_and(|s| s == at.session);
    if on_its_branch && home.is_some() && named_by_id {
        let args = [
            "--resume",
            at.session,
            "--resume-session-at",
            at.rev,
            "--fork-session",
        ]
        .into_iter()
        .map(str::to_string)
        .chain(at.args.iter().cloned())
        .collect();
        return Ok(Handoff::run("claude", args, cwd, env, INSTALL));
    }
    // A copy of the path, as a session of its own.
    let session = uuid_v4();
    let folder = match (&home, &default_home, &cwd) {
        (Some(_), _, _) => at.path.parent().map(Path::to_path_buf),
        (None, Some(home), Some(cwd)) => Some(home.join("projects").join(project_name(cwd))),
        _ => None,
    }
    .ok_or_else(|| {
        Refusal::Unreadable(
            "the session is in no Claude Code `projects` folder, and neither its working \
             directory nor Claude Code's home (CLAUDE_CONFIG_DIR, HOME) is known"
                .to_string(),
        )
    })?;
    let bytes = as_new_session(at.path_lines, &session);
    let env = match (&home, &default_home) {
        (None, _) => Vec::new(),
        _ => env,
    };
    Ok(Handoff::run(
        "claude",
        ["--resume".to_string(), session.clone()]
            .into_iter()
            .chain(at.args.iter().cloned())
            .collect(),
        cwd,
        env,
        INSTALL,
    )
    .writing(NewFile {
        path: folder.join(format!("{session}.jsonl")),
        bytes,
        session,
    }))
}

/// The folder above `projects/<project>/` that holds the session file:
/// Claude Code's home for it.
fn claude_home(session: &Path) -> Option<PathBuf> {
    let projects = session.parent()?.parent()?;
    (projects.file_name()? == "projects")
        .then(|| projects.parent().map(Path::to_path_buf))
        .flatten()
        .map(|home| std::path::absolute(&home).unwrap_or(home))
}

/// Where Claude Code looks: the first folder of `$CLAUDE_CONFIG_DIR`, else
/// `~/.claude`.
fn default_home(var: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty());
    match set("CLAUDE_CONFIG_DIR") {
        Some(list) => list
            .to_string_lossy()
            .split(',')
            .map(str::trim)
            .find(|d| !d.is_empty())
            .map(PathBuf::from),
        None => set("HOME").map(|h| PathBuf::from(h).join(".claude")),
    }
}

/// The leaf the last `last-prompt` line in `tail` names: where Claude
/// Code resumes.
fn last_prompt_leaf(tail: &[u8]) -> Option<String> {
    tail.split(|&b| b == b'\n').rev().find_map(|line| {
        memchr::memmem::find(line, b"\"last-prompt\"")?;
        (string_field(line, "type").as_deref() == Some("last-prompt"))
            .then(|| string_field(line, "leafUuid"))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_working_directory_names_its_projects_folder_as_claude_code_does() {
        assert_eq!(
            project_name(Path::new("/tmp/.tmprnNxrX/work")),
            "-tmp--tmprnNxrX-work"
        );
    }

    #[test]
    fn the_leaf_is_the_last_prompts_and_only_a_whole_line_counts() {
        let tail = b"{\"type\":\"last-prompt\",\"leafUuid\":\"a\"}\n{\"type\":\"user\"}\n{\"type\":\"last-prompt\",\"leafUuid\":\"b\"}\n{\"type\":\"last-pro";
        assert_eq!(last_prompt_leaf(tail).as_deref(), Some("b"));
        assert_eq!(last_prompt_leaf(b"{\"type\":\"user\"}"), None);
    }
}
