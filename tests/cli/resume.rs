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
    dir.run(&["-f", "pi.jsonl", "resume", "--print"])
        .status(0)
        .stdout("cd /home/user/project && pi --session pi.jsonl\n");
    dir.run(&["-f", "pi.jsonl", "resume", "HEAD~1", "--print", "--", "-p", "go on"])
        .status(0)
        .stdout(&format!(
            "cd /home/user/project && ysess -f pi.jsonl checkout {parent} && pi --session pi.jsonl -p 'go on'\n"
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
    dir.fixture("pi/demo.jsonl", "my session.jsonl");
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
    .stdout("cd /home/user/project && pi --session 'my session.jsonl' --model 'a b' 'it'\\''s'\n");
}
