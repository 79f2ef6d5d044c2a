//! Qwen Code's own resume of every committed Qwen Code session
//! (`tests/fixtures/qwen/`, written by Qwen Code 0.24.4): what it sends
//! the model (OpenAI chat completions) is what `ysess export` gives (GenAI
//! contents, as Qwen Code keeps them).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::mock::{Mock, Reply, Usage};
use super::{Agent, Home, succeeded, text};

/// Every scenario's main sessions: `projects/<project>/chats/<id>.jsonl`
/// (a subagent's file, under `subagents/`, is not one Qwen Code resumes).
fn sessions() -> Vec<PathBuf> {
    super::files_under(&crate::support::fixture("qwen"))
        .into_iter()
        .filter(|f| {
            f.extension().is_some_and(|x| x == "jsonl")
                && f.parent()
                    .and_then(Path::file_name)
                    .is_some_and(|c| c == "chats")
        })
        .collect()
}

/// Qwen Code's name of a project's folder: its path with every character
/// but a letter or a digit made `-`.
fn folder_name(cwd: &Path) -> String {
    cwd.to_str()
        .expect("UTF-8")
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// What Qwen Code sends the model when it resumes `file` (by its id, in a
/// copy of its scenario's runtime folder in `~/.qwen`), as turns, the
/// probe's own words left out. Qwen Code resumes only a session of the
/// project it runs in (the project's folder is named by its path, and the
/// first line's `cwd` must be it), so the copy's folder and `cwd`s name
/// the folder the agent runs in.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let project = file
        .parent()
        .and_then(Path::parent)
        .expect("projects/<project>/chats/");
    let home = Home::new();
    let copy = home
        .home()
        .join(".qwen/projects")
        .join(folder_name(&home.work()));
    super::copy_tree(project, &copy);
    let text = std::fs::read_to_string(file).expect("reads");
    let first: Value =
        serde_json::from_str(text.lines().next().expect("a line")).expect("a JSON line");
    let cwd = first["cwd"].as_str().expect("the session's cwd");
    let (from, to) = (
        format!("\"cwd\":{}", Value::from(cwd)),
        format!(
            "\"cwd\":{}",
            Value::from(home.work().to_str().expect("UTF-8"))
        ),
    );
    for f in super::files_under(&copy) {
        if f.extension().is_some_and(|x| x == "jsonl") {
            let lines = std::fs::read_to_string(&f).expect("reads");
            std::fs::write(&f, lines.replace(&from, &to)).expect("writes");
        }
    }
    let id = file
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("an id")
        .to_string();
    let mock = Mock::start(|_| Reply::text("ok", Usage::default()));
    let out = home.run(Agent::Qwen, &mock, &["--resume", &id, "-p", super::PROBE]);
    succeeded(&out, &format!("qwen --resume {id} -p"));
    super::probed(&mock, "messages", text::chat)
}

#[test]
fn export_is_what_qwen_code_resumes_on_every_committed_session() {
    if !super::ready() {
        return;
    }
    let files = sessions();
    let (compared, differ) = super::compare_resumes(files, resumed, text::genai);
    assert!(compared >= 5, "{compared} sessions compared");
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
