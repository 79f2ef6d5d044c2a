//! `ysess resume` without the agents: what it runs for each format, and its
//! refusals. (`agents::resume` has Claude Code and Codex run it.)

use crate::support::Dir;

/// A `PATH` that holds no agent.
const NO_AGENTS: (&str, &str) = ("PATH", "/nonexistent");

#[test]
fn pi_resumes_its_file_after_a_checkout_and_print_says_both() {
    let dir = Dir::new();
    let file = dir.fixture("pi/demo.jsonl", "pi.jsonl");
    let before = std::fs::read(&file).expect("reads");
    let head = dir.run(&["-f", "pi.jsonl", "log", "-1", "--format", "{id}"]);
    let head = head.status(0).stdout.trim().to_string();
    let parent = dir.run(&["-f", "pi.jsonl", "log", "-1", "HEAD~1", "--format", "{id}"]);
    let parent = parent.status(0).stdout.trim().to_string();
    // pi runs in the session's folder: the file is named by its whole path.
    let whole = file.display().to_string();
    dir.run(&["-f", "pi.jsonl", "resume", "--print"])
        .status(0)
        .stdout(&format!(
            "cd -- /home/user/project && pi --session {whole}\n"
        ));
    dir.run(&["-f", "pi.jsonl", "resume", "HEAD~1", "--print", "--", "-p", "go on"])
        .status(0)
        .stdout(&format!(
            "cd -- /home/user/project && ysess -f pi.jsonl checkout {parent} && pi --session {whole} -p 'go on'\n"
        ));
    assert_eq!(
        std::fs::read(&file).expect("reads"),
        before,
        "--print writes nothing"
    );
    assert_ne!(head, parent);
}

#[test]
fn a_yoagent_session_is_refused_with_the_checkout_that_moves_head() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "session.jsonl");
    let run = dir.run(&["resume", "first-draft"]);
    run.status(128);
    assert!(
        run.stderr.starts_with(
            "error: a yoagent session is resumed by the program built on yoagent, which ysess cannot run"
        ),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("hint: `ysess checkout first-draft` moves HEAD to REV"),
        "{run}"
    );
}

#[test]
fn an_agent_that_is_not_installed_is_named_with_how_to_install_it() {
    let dir = Dir::new();
    let file = dir.fixture("claude/session.jsonl", "session.jsonl");
    let before = std::fs::read(&file).expect("reads");
    let run = dir.run_with(&["resume"], None, &[NO_AGENTS]);
    run.status(128).stdout("");
    assert!(
        run.stderr.starts_with(
            "error: resuming a Claude Code session needs the `claude` command, which is not on PATH\n\
             hint: install it: npm install -g @anthropic-ai/claude-code\n"
        ),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("resume --print` prints the command instead"),
        "{run}"
    );
    // Nothing was written: no copy of the path, no refs.
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .expect("the folder")
        .filter_map(Result::ok)
        .map(|e| e.file_name())
        .collect();
    assert_eq!(files, ["session.jsonl"], "{files:?}");
    assert_eq!(std::fs::read(&file).expect("reads"), before);
    let codex = Dir::new();
    codex.fixture("codex/rollout.jsonl", "session.jsonl");
    let run = codex.run_with(&["resume"], None, &[NO_AGENTS]);
    run.status(128);
    assert!(
        run.stderr
            .contains("needs the `codex` command, which is not on PATH\nhint: install it: npm install -g @openai/codex"),
        "{run}"
    );
}

#[test]
fn a_printed_command_quotes_what_the_shell_would_split() {
    let dir = Dir::new();
    let file = dir.fixture("pi/demo.jsonl", "my session.jsonl");
    dir.run(&[
        "-f",
        "my session.jsonl",
        "resume",
        "--print",
        "--",
        "--model",
        "a b",
        "it's",
    ])
    .status(0)
    .stdout(&format!(
        "cd -- /home/user/project && pi --session '{}' --model 'a b' 'it'\\''s'\n",
        file.display()
    ));
}

/// A copy of an agent scenario's files in `dir`, as the agent keeps them.
fn agent_home(dir: &Dir, agent: &str, scenario: &str, folder: &str) -> std::path::PathBuf {
    let from = crate::support::fixture(&format!("agents/{agent}/{scenario}/{folder}"));
    let to = dir.join(&format!("home/.{agent}/{folder}"));
    crate::agents::copy_tree(&from, &to);
    to
}

#[test]
fn resume_after_a_checkout_to_another_branch_named_a_message_claude_code_cannot_find() {
    let dir = Dir::new();
    let projects = agent_home(&dir, "claude", "fork", "projects");
    let file = crate::agents::files_under(&projects)
        .into_iter()
        .find(|p| p.to_string_lossy().contains("dd1d0d79"))
        .expect("the session");
    // Without its `last-prompt` lines, Claude Code resumes its newest entry.
    let text = std::fs::read_to_string(&file).expect("reads");
    let kept: String = text
        .lines()
        .filter(|l| !l.contains("\"last-prompt\""))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&file, kept).expect("written");
    let f = file.to_str().expect("UTF-8");
    let home = dir.join("home");
    let env = [("HOME", home.to_str().expect("UTF-8"))];
    dir.run_with(&["-f", f, "checkout", "5b709707"], None, &env)
        .status(0);
    let run = dir.run_with(&["-f", f, "resume", "--print"], None, &env);
    run.status(0);
    assert!(!run.stdout.contains("--resume-session-at"), "{run}");
    assert!(run.stderr.starts_with("Wrote session "), "{run}");
}

#[test]
fn a_codex_rollout_outside_its_sessions_folder_was_resumed_from_a_history_codex_cannot_find() {
    let dir = Dir::new();
    let sessions = agent_home(&dir, "codex", "turns", "sessions");
    let rollout = crate::agents::files_under(&sessions)
        .into_iter()
        .next()
        .expect("the rollout");
    let copy = dir.join("saved-rollout.jsonl");
    std::fs::copy(&rollout, &copy).expect("copied");
    let home = dir.join("home");
    let env = [("HOME", home.to_str().expect("UTF-8"))];
    dir.run_with(
        &["-f", "saved-rollout.jsonl", "resume", "HEAD~2", "--print"],
        None,
        &env,
    )
    .status(0);
    let written: Vec<_> = crate::agents::files_under(&sessions)
        .into_iter()
        .filter(|p| *p != rollout)
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let text = std::fs::read_to_string(&written[0]).expect("reads");
    assert!(
        !text.contains("history_base"),
        "a copy, not a pointer: {text}"
    );
    assert!(text.lines().count() > 5, "the path to REV is in it");
}

#[test]
fn a_subagents_file_was_copied_as_a_sidechain_claude_code_cannot_find() {
    let dir = Dir::new();
    let projects = agent_home(&dir, "claude", "subagent", "projects");
    let agent = crate::agents::files_under(&projects)
        .into_iter()
        .find(|p| {
            p.to_string_lossy()
                .contains("agent-ad6dfe448f334e5d6.jsonl")
        })
        .expect("the subagent's file");
    let home = dir.join("home");
    let env = [("HOME", home.to_str().expect("UTF-8"))];
    let before = crate::agents::files_under(&projects);
    let run = dir.run_with(
        &["-f", agent.to_str().expect("UTF-8"), "resume", "--print"],
        None,
        &env,
    );
    run.status(0);
    let written: Vec<_> = crate::agents::files_under(&projects)
        .into_iter()
        .filter(|p| !before.contains(p))
        .collect();
    assert_eq!(written.len(), 1, "{written:?}");
    let text = std::fs::read_to_string(&written[0]).expect("reads");
    assert!(!text.contains("\"isSidechain\":true"), "{text}");
}

#[test]
fn a_tz_of_dev_zero_made_resume_read_without_end() {
    let dir = Dir::new();
    agent_home(&dir, "codex", "turns", "sessions");
    let home = dir.join("home");
    let rollout = crate::agents::files_under(&home)
        .into_iter()
        .next()
        .expect("a rollout");
    let started = std::time::Instant::now();
    let env = [("HOME", home.to_str().expect("UTF-8")), ("TZ", "/dev/zero")];
    dir.run_with(
        &["-f", rollout.to_str().expect("UTF-8"), "resume", "--print"],
        None,
        &env,
    )
    .status(0);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}
