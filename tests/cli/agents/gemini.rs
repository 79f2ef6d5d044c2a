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

/// `ysess resume` on a Gemini CLI session (`rewind/`: a prompt, a second
/// calling `list_directory`, a third, then `/rewind` to the third and a
/// fourth), copied into `<home>/.gemini/tmp/proj-g/` with its project's
/// root the folder the agent runs in: tagged at the second turn's answer,
/// Gemini CLI resumes the session ysess writes in the same `chats/` folder
/// (`gemini --resume NEW`, in the project) and sends exactly `export
/// first`; at the end, `gemini --resume ID` sends exactly `export`.
///
/// Gemini CLI 0.61.0 cleans up at each start (unless
/// `general.sessionRetention.enabled` is false): it takes a file it cannot
/// resume, such as the two its own `--resume` left here holding only a
/// header, for a corrupt session, and deletes every file of that session
/// but the running one's (google-gemini/gemini-cli#27368), the original
/// too when the running session is the one ysess wrote. So ysess refuses,
/// naming the file and the setting, until the cleanup is off (here in the
/// project's settings); then the original survives.
#[test]
fn gemini_cli_resumed_at_a_tag_sends_exactly_the_path_to_it() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let project = home.home().join(".gemini/tmp/proj-g");
    super::copy_tree(
        &crate::support::fixture("gemini/rewind/tmp/proj-g"),
        &project,
    );
    std::fs::write(
        project.join(".project_root"),
        home.work().to_str().expect("UTF-8"),
    )
    .expect("the project's root");
    let file = project.join("chats/session-2026-12-06T07-25-4746f332.jsonl");
    let before = std::fs::read(&file).expect("reads");
    let refs = home.dir.join("refs");
    let run = home.dir.run_with(
        &[
            "-f",
            file.to_str().expect("UTF-8"),
            "resume",
            "460f0ddd",
            "--print",
        ],
        None,
        &[
            ("HOME", home.home().to_str().expect("UTF-8")),
            ("YSESS_REFS", refs.to_str().expect("UTF-8")),
        ],
    );
    run.status(128);
    assert!(
        run.stderr.contains("Gemini CLI would delete this session")
            && run
                .stderr
                .contains("session-2026-12-06T07-27-4746f332.jsonl")
            && run.stderr.contains("sessionRetention"),
        "{run}"
    );
    assert_eq!(
        std::fs::read(&file).expect("reads"),
        before,
        "nothing written"
    );
    // The cleanup off in the project's settings.
    std::fs::create_dir_all(home.work().join(".gemini")).expect("a folder");
    std::fs::write(
        home.work().join(".gemini/settings.json"),
        r#"{"general":{"sessionRetention":{"enabled":false}}}"#,
    )
    .expect("the project's settings");
    let resumed = super::resumes_at_a_tag_and_at_the_end(
        &home,
        &super::Resuming {
            agent: Agent::Gemini,
            file: &file,
            id: "4746f332-6801-43b1-88dc-63d50b1dd184",
            // "Tool finished; mock reply #6.", before the third prompt.
            entry: "460f0ddd",
            args: &["-p"],
            resume: |id| vec!["--resume".to_string(), id.to_string()],
            cwd: &home.work(),
            request: ("contents", text::genai),
            export: text::genai,
        },
    );
    // Each new session is `session-<time>-<id8>.jsonl` in the same folder.
    for (new, path) in [&resumed.printed, &resumed.ran] {
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        assert_eq!(path.parent(), file.parent(), "{}", path.display());
        assert!(
            name.starts_with("session-") && name.ends_with(&format!("-{}.jsonl", &new[..8])),
            "{name}"
        );
    }
}
