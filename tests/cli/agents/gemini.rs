//! Gemini CLI's own resume of every committed Gemini CLI session
//! (`tests/fixtures/gemini/`, written by Gemini CLI 0.61.0): what it sends
//! the model is what `ysess export` gives.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::mock::{Mock, Reply, Usage};
use super::{Agent, Home, succeeded, text};

/// The main session files of every scenario: `tmp/<project>/chats/
/// session-*.jsonl` with a message of their own (a resume starts a new
/// file and leaves it with the context message only when it goes on in
/// the old one; Gemini CLI lists no such file).
fn sessions() -> Vec<PathBuf> {
    super::files_under(&crate::support::fixture("gemini"))
        .into_iter()
        .filter(|f| {
            let chats = f.parent().and_then(Path::file_name);
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            chats.is_some_and(|c| c == "chats")
                && name.starts_with("session-")
                && name.ends_with(".jsonl")
                && lines(f)
                    .iter()
                    .any(|l| l["id"].is_string() && l["type"].is_string())
        })
        .collect()
}

fn lines(file: &Path) -> Vec<Value> {
    std::fs::read_to_string(file)
        .expect("reads")
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// What Gemini CLI sends the model when it resumes `file` (by its session
/// id, in a copy of its scenario's `~/.gemini`), as turns, the probe's own
/// words left out. Gemini CLI finds a project's folder by the
/// `.project_root` in it, so the copy's names the folder the agent runs in.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let project = file
        .parent()
        .and_then(Path::parent)
        .expect("tmp/<project>/chats/");
    let gemini = project
        .parent()
        .and_then(Path::parent)
        .expect("the scenario's ~/.gemini");
    let home = Home::new();
    super::copy_tree(gemini, &home.home().join(".gemini"));
    let copy = home
        .home()
        .join(".gemini/tmp")
        .join(project.file_name().expect("a project folder"));
    std::fs::write(
        copy.join(".project_root"),
        home.work().to_str().expect("UTF-8"),
    )
    .expect("the project's root");
    let id = lines(file)
        .iter()
        .find_map(|l| l["sessionId"].as_str().map(str::to_string))
        .expect("a session id");
    let mock = Mock::start(|_| Reply::text("ok", Usage::default()));
    let out = home.run(Agent::Gemini, &mock, &["--resume", &id, "-p", super::PROBE]);
    succeeded(&out, &format!("gemini --resume {id} -p"));
    super::probed(&mock, "contents", text::genai)
}

#[test]
fn export_is_what_gemini_cli_resumes_on_every_committed_session() {
    if !super::ready() {
        return;
    }
    let files = sessions();
    let (compared, differ) = super::compare_resumes(files, resumed, text::genai);
    assert!(compared >= 5, "{compared} sessions compared");
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
