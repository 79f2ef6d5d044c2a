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

/// A copy of `file`'s project folder (`projects/<project>/`) in `home`'s
/// `~/.qwen`, as the project `home.work()`'s: the copy of `file`. Qwen
/// Code resumes only a session of the project it runs in (the project's
/// folder is named by its path, and the first line's `cwd` must be it), so
/// the copy's folder and `cwd`s name the folder the agent runs in.
fn copy_project(home: &Home, file: &Path) -> PathBuf {
    let project = file
        .parent()
        .and_then(Path::parent)
        .expect("projects/<project>/chats/");
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
    copy.join(file.strip_prefix(project).expect("in the project"))
}

/// What Qwen Code sends the model when it resumes `file` (by its id, in a
/// copy of its project's folder in `~/.qwen`, [`copy_project`]), as turns,
/// the probe's own words left out.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let home = Home::new();
    copy_project(&home, file);
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

/// `ysess resume` on a Qwen Code session (`rewind/`: three prompts, the
/// second calling `glob`, then `/rewind` to before the second and a fourth
/// prompt): tagged at the `glob` turn's answer, on the branch the rewind
/// left, Qwen Code resumes the session ysess writes beside the original
/// (`qwen --resume NEW`, in the session's project) and sends exactly
/// `export first`; at the end, `qwen --resume ID` sends exactly `export`.
#[test]
fn qwen_code_resumed_at_a_tag_sends_exactly_the_path_to_it() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let id = "dc36b879-81a9-4f20-88d6-c61565cd4305";
    let fixture = crate::support::fixture("qwen/rewind/projects/-tmp-agents41-proj-q/chats")
        .join(format!("{id}.jsonl"));
    let file = copy_project(&home, &fixture);
    let resumed = super::resumes_at_a_tag_and_at_the_end(
        &home,
        &super::Resuming {
            agent: Agent::Qwen,
            file: &file,
            id,
            // "Tool finished; mock reply #2.", before the third prompt.
            entry: "6245af67",
            args: &["-p"],
            resume: |id| vec!["--resume".to_string(), id.to_string()],
            cwd: &home.work(),
            request: ("messages", text::chat),
            export: text::genai,
        },
    );
    // Each new session is `<id>.jsonl` beside the original.
    for (new, path) in [&resumed.printed, &resumed.ran] {
        assert_eq!(path, &file.with_file_name(format!("{new}.jsonl")));
    }
}
