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

/// `ysess resume` on a Copilot CLI session (`tools/`: a prompt whose reply
/// calls `glob`, then `--resume` and another prompt), copied into
/// `<home>/.copilot/session-state/` with its working directory the folder
/// the agent runs in: tagged at the first turn's answer, Copilot CLI
/// resumes the session ysess writes (`session-state/NEW/events.jsonl`,
/// `copilot --resume=NEW`) and sends exactly `export first`; at the end,
/// `copilot --resume=ID` sends exactly `export`.
#[test]
fn copilot_cli_resumed_at_a_tag_sends_exactly_the_path_to_it() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let id = "0d07abb5-0bd8-427e-a0f7-6da3a5a5d3b8";
    let state = home.home().join(".copilot/session-state");
    super::copy_tree(
        &crate::support::fixture("copilot/tools/session-state"),
        &state,
    );
    let file = state.join(id).join("events.jsonl");
    // ysess runs the agent in the session's working directory (its
    // `session.start`'s `context.cwd`): the copy's names the project folder
    // here, as the folder it was written in is not.
    let events = std::fs::read_to_string(&file).expect("reads");
    let work = serde_json::Value::from(home.work().to_str().expect("UTF-8"));
    std::fs::write(
        &file,
        events.replace(
            r#""cwd":"/tmp/a41-copilot/proj2""#,
            &format!(r#""cwd":{work}"#),
        ),
    )
    .expect("writes");
    let resumed = super::resumes_at_a_tag_and_at_the_end(
        &home,
        &super::Resuming {
            agent: Agent::Copilot,
            file: &file,
            id,
            // "Tool finished; mock reply #4.", before the second prompt.
            entry: "93bfc2dd",
            args: &["--allow-all-tools", "-p"],
            resume: |id| vec![format!("--resume={id}")],
            cwd: &home.work(),
            request: ("messages", text::chat),
            export: text::chat,
        },
    );
    // Each new session is `session-state/<id>/events.jsonl`.
    for (new, path) in [&resumed.printed, &resumed.ran] {
        assert_eq!(path, &state.join(new).join("events.jsonl"));
    }
}
