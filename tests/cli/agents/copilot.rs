//! Copilot CLI's own resume of every committed Copilot CLI session
//! (`tests/fixtures/copilot/`, written by Copilot CLI 1.0.102): what it
//! sends the model is what `ysess export` gives (both OpenAI chat
//! completions).

use std::path::{Path, PathBuf};

use super::mock::{Mock, Reply, Usage};
use super::{Agent, Home, succeeded, text};

/// Every scenario's `session-state/<id>/events.jsonl`.
fn sessions() -> Vec<PathBuf> {
    super::files_under(&crate::support::fixture("copilot"))
        .into_iter()
        .filter(|f| f.file_name().is_some_and(|n| n == "events.jsonl"))
        .collect()
}

/// What Copilot CLI sends the model when it resumes `file`
/// (`--resume=<id>`, in a copy of its scenario's `~/.copilot`), as turns,
/// the probe's own words left out.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let folder = file.parent().expect("session-state/<id>/");
    let state = folder.parent().expect("session-state/");
    let home = Home::new();
    super::copy_tree(state, &home.home().join(".copilot/session-state"));
    let id = folder
        .file_name()
        .and_then(|s| s.to_str())
        .expect("an id")
        .to_string();
    let mock = Mock::start(|_| Reply::text("ok", Usage::default()));
    let out = home.run(
        Agent::Copilot,
        &mock,
        &[
            "--allow-all-tools",
            &format!("--resume={id}"),
            "-p",
            super::PROBE,
        ],
    );
    succeeded(&out, &format!("copilot --resume={id} -p"));
    super::probed(&mock, "messages", text::chat)
}

#[test]
fn export_is_what_copilot_cli_resumes_on_every_committed_session() {
    if !super::ready() {
        return;
    }
    let files = sessions();
    let (compared, differ) = super::compare_resumes(files, resumed, text::chat);
    assert!(compared >= 5, "{compared} sessions compared");
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
