//! `ysess resume`, proven by the agents themselves: a session they wrote,
//! copied into a temporary home, is tagged, branched and checked out by
//! ysess (the file stays as the agent wrote it), and handed back to the
//! agent at the tag. The request the mock model then receives holds
//! exactly the conversation up to the tag, and the new lines the agent
//! writes continue from it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::mock::{Mock, Reply, Usage};
use super::{Agent, Home, PROBE, binary, text};
use crate::support::Run;

/// A folder holding the agents' commands under their own names, to put
/// first on `PATH`.
fn agents_on_path(home: &Home) -> PathBuf {
    let bin = home.dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a bin folder");
    for (agent, name) in [(Agent::Claude, "claude"), (Agent::Codex, "codex")] {
        let link = bin.join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(binary(agent), &link).expect("a link to the agent");
        }
    }
    bin
}

/// `ysess ARGS` as the person at `home` runs it: their `HOME`, the agents
/// on `PATH`, the agent pointed at `mock` (as the agents' own runs are),
/// in the project folder; ysess's refs in their default place.
fn ysess(home: &Home, mock: &Mock, agent: Agent, args: &[&str]) -> Run {
    let bin = agents_on_path(home);
    // The agent's own variables, as `Home::command` sets them.
    let model = home.command(agent, mock, &[]);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ysess"));
    cmd.args(args)
        .current_dir(home.work())
        .env_clear()
        .stdin(std::process::Stdio::null());
    for (name, value) in model.get_envs() {
        if let Some(value) = value {
            cmd.env(name, value);
        }
    }
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");
    cmd.env("PATH", path).env("YSESS_CACHE_DIR", "");
    let out = cmd.output().expect("ysess starts");
    Run {
        args: args.iter().map(|a| a.to_string()).collect(),
        status: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `export REV` of `file`, as turns.
fn exported(
    home: &Home,
    mock: &Mock,
    agent: Agent,
    file: &Path,
    rev: &str,
    read: fn(&[Value]) -> Vec<text::Turn>,
) -> Vec<text::Turn> {
    let f = file.to_str().expect("UTF-8");
    let run = ysess(home, mock, agent, &["-f", f, "export", rev]);
    let messages: Vec<Value> = serde_json::from_str(&run.status(0).stdout).expect("export is JSON");
    read(&messages)
}

/// The session files under `dir` other than `except`.
fn new_files(dir: &Path, except: &[PathBuf]) -> Vec<PathBuf> {
    super::files_under(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && !except.contains(p))
        .collect()
}

/// `ysess resume [REV] -- ARGS… PROBE` on `file` as the person at `home`
/// runs it: it exits 0, the agent sends the mock exactly `export TAG` (the
/// request's `key`, read with `read`), and the file is as the agent wrote
/// it. The run, for what else a test asks of it.
#[allow(clippy::too_many_arguments)]
fn resumes_exactly_the_path(
    home: &Home,
    mock: &Mock,
    agent: Agent,
    file: &Path,
    rev: Option<&str>,
    tag: &str,
    agent_args: &[&str],
    (key, read): Request,
) -> Run {
    let before = std::fs::read(file).expect("reads");
    let mut args = vec!["-f", file.to_str().expect("UTF-8"), "resume"];
    args.extend(rev);
    args.push("--");
    args.extend_from_slice(agent_args);
    args.push(PROBE);
    let run = ysess(home, mock, agent, &args);
    run.status(0);
    let sent = super::probed(mock, key, read);
    let path = exported(home, mock, agent, file, tag, read);
    assert_eq!(text::difference(&sent, &path), None, "{run}");
    assert_eq!(
        std::fs::read(file).expect("reads"),
        before,
        "the original keeps its history"
    );
    run
}

/// Where a request holds the conversation, and how it is read as turns.
type Request = (&'static str, fn(&[Value]) -> Vec<text::Turn>);

const ANTHROPIC: Request = ("messages", text::anthropic);
const RESPONSES: Request = ("input", text::responses);

/// A copy of a Claude Code scenario's main session in `home`, where Claude
/// Code keeps it; its path.
fn claude_copy(home: &Home, scenario: &str, id: &str) -> PathBuf {
    let projects = super::fixtures("claude").join(scenario).join("projects");
    super::copy_tree(&projects, &home.home().join(".claude/projects"));
    new_files(&home.home().join(".claude/projects"), &[])
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == id))
        .expect("the session's copy")
}

/// The entries of a session from HEAD back to its root: `(short id,
/// subject)`.
fn path_of(home: &Home, mock: &Mock, agent: Agent, file: &Path) -> Vec<(String, String)> {
    let f = file.to_str().expect("UTF-8");
    let run = ysess(
        home,
        mock,
        agent,
        &["-f", f, "log", "--format", "{short_id}\t{subject}"],
    );
    run.status(0)
        .stdout
        .lines()
        .map(|l| {
            let (id, subject) = l.split_once('\t').expect("two fields");
            (id.to_string(), subject.to_string())
        })
        .collect()
}

#[test]
fn claude_code_resumed_at_a_tag_sends_exactly_the_path_to_it_and_goes_on_from_it() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    let session = "7f189dd0-bc49-42cb-802c-9dd0bc4902cb";
    let file = claude_copy(&home, "turns", session);
    let f = file.to_str().expect("UTF-8");
    let before = std::fs::read(&file).expect("reads");
    let claude = Agent::Claude;
    for args in [
        &["tag", "first-draft", "HEAD~3"][..],
        &["branch", "try-2", "HEAD~1"],
        &["checkout", "first-draft"],
    ] {
        let mut all = vec!["-f", f];
        all.extend_from_slice(args);
        ysess(&home, &mock, claude, &all).status(0);
    }
    assert_eq!(
        std::fs::read(&file).expect("reads"),
        before,
        "the file is as Claude Code wrote it"
    );
    let tag = ysess(
        &home,
        &mock,
        claude,
        &["-f", f, "log", "-1", "first-draft", "--format", "{id}"],
    );
    let tag = tag.status(0).stdout.trim().to_string();

    // --print: one line, the working directory first.
    let printed = ysess(
        &home,
        &mock,
        claude,
        &["-f", f, "resume", "first-draft", "--print"],
    );
    assert_eq!(
        printed.status(0).stdout,
        format!(
            "cd -- {} && claude --resume {session} --resume-session-at {tag} --fork-session\n",
            cwd_of(&file)
        ),
        "{printed}"
    );

    // Resumed by ysess at HEAD (the tag), the request is the path to it.
    resumes_exactly_the_path(
        &home,
        &mock,
        claude,
        &file,
        None,
        "first-draft",
        &["-p"],
        ANTHROPIC,
    );

    // Claude Code wrote a new session: the tagged entry, then the new turn.
    let projects = home.home().join(".claude/projects");
    let forks = new_files(&projects, std::slice::from_ref(&file));
    assert_eq!(forks.len(), 1, "{forks:?}");
    let graph = path_of(&home, &mock, claude, &forks[0]);
    let probe = graph
        .iter()
        .position(|(_, s)| s == PROBE)
        .expect("the new prompt");
    assert_eq!(
        graph[probe + 1].0,
        tag[..8],
        "the new turn hangs from the tag: {graph:?}"
    );
    assert_eq!(graph[0].1, "Going on.");
    let fsck = ysess(
        &home,
        &mock,
        claude,
        &[
            "fsck",
            home.home()
                .join(".local/share/ysess/refs")
                .to_str()
                .expect("UTF-8"),
        ],
    );
    fsck.status(0);
}

#[test]
fn claude_code_resumed_on_a_branch_it_would_not_resume_gets_a_copy_of_the_path() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    let session = "dd1d0d79-0c2f-4881-8188-0d790c2f1881";
    let file = claude_copy(&home, "fork", session);
    let f = file.to_str().expect("UTF-8");
    let claude = Agent::Claude;
    // "Make it a library instead.": the branch Claude Code left.
    ysess(
        &home,
        &mock,
        claude,
        &["-f", f, "tag", "library", "5b709707"],
    )
    .status(0);
    let existing = new_files(&home.home().join(".claude/projects"), &[]);
    let run = resumes_exactly_the_path(
        &home,
        &mock,
        claude,
        &file,
        Some("library"),
        "library",
        &["-p"],
        ANTHROPIC,
    );
    assert!(run.stderr.contains("Wrote session "), "{run}");
    let copies = new_files(&home.home().join(".claude/projects"), &existing);
    assert_eq!(
        copies.len(),
        1,
        "the copy Claude Code went on in: {copies:?}"
    );
    let graph = path_of(&home, &mock, claude, &copies[0]);
    let probe = graph
        .iter()
        .position(|(_, s)| s == PROBE)
        .expect("the new prompt");
    assert_eq!(graph[probe + 1].0, "5b709707", "{graph:?}");
}

#[test]
fn codex_resumed_at_a_tag_sends_exactly_the_path_to_it_in_a_new_rollout() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    let sessions = super::fixtures("codex").join("turns/sessions");
    super::copy_tree(&sessions, &home.home().join(".codex/sessions"));
    let file = new_files(&home.home().join(".codex/sessions"), &[])
        .into_iter()
        .next()
        .expect("the rollout");
    let f = file.to_str().expect("UTF-8");
    let codex = Agent::Codex;
    ysess(
        &home,
        &mock,
        codex,
        &["-f", f, "tag", "first-draft", "HEAD~2"],
    )
    .status(0);
    let printed = ysess(
        &home,
        &mock,
        codex,
        &["-f", f, "resume", "first-draft", "--print"],
    );
    assert!(
        printed.status(0).stdout.contains(" && codex resume "),
        "{printed}"
    );
    // --print wrote the rollout it names; the resume writes its own.
    let existing = new_files(&home.home().join(".codex/sessions"), &[]);
    resumes_exactly_the_path(
        &home,
        &mock,
        codex,
        &file,
        Some("first-draft"),
        "first-draft",
        &["exec", "--skip-git-repo-check"],
        RESPONSES,
    );

    // The new rollout: its history is the path to the tag, then the turn
    // Codex went on with, and ysess reads it as Codex does.
    let rollouts = new_files(&home.home().join(".codex/sessions"), &existing);
    assert_eq!(rollouts.len(), 1, "{rollouts:?}");
    let new = rollouts[0].to_str().expect("UTF-8");
    let fsck = ysess(&home, &mock, codex, &["-f", new, "fsck"]);
    fsck.status(0);
    assert!(!fsck.stderr.contains("warning"), "{fsck}");
    let went_on = exported(&home, &mock, codex, &rollouts[0], "HEAD", text::responses);
    // Less the reply and the new prompt, it is the path to the tag.
    let mut went_on = went_on;
    let reply = went_on.pop().expect("the reply");
    assert_eq!(reply.said, [text::Said::Text("Going on.".into())]);
    if let Some(last) = went_on.last_mut() {
        last.said
            .retain(|s| *s != text::Said::Text(PROBE.to_string()));
        if last.said.is_empty() {
            went_on.pop();
        }
    }
    let path = exported(&home, &mock, codex, &file, "first-draft", text::responses);
    assert_eq!(text::difference(&went_on, &path), None);
    let log = ysess(
        &home,
        &mock,
        codex,
        &["-f", new, "log", "--format", "{subject}"],
    );
    let subjects: Vec<&str> = log.status(0).stdout.lines().collect();
    assert_eq!(subjects.first(), Some(&"Going on."), "{log}");
    assert!(subjects.contains(&PROBE), "{log}");
}

/// The working directory a Claude Code session's lines name.
fn cwd_of(file: &Path) -> String {
    std::fs::read_to_string(file)
        .expect("reads")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|v| v["cwd"].as_str().map(str::to_string))
        .expect("a cwd")
}

#[test]
fn codex_resumes_an_older_rollout_at_a_tag_from_a_copy_of_its_path() {
    if !super::ready() {
        return;
    }
    let home = Home::new();
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    // A rollout Codex 0.63 wrote: no ordinals, so nothing to point into.
    let sessions = home.home().join(".codex/sessions");
    std::fs::create_dir_all(&sessions).expect("a sessions folder");
    let file =
        sessions.join("rollout-2026-12-06T03-29-56-01a24966-b062-7b52-af96-854b33fb6645.jsonl");
    std::fs::copy(
        crate::support::fixture("codex/codex-0.63.0-tools.jsonl"),
        &file,
    )
    .expect("copied");
    let f = file.to_str().expect("UTF-8");
    let codex = Agent::Codex;
    // The first turn's answer, before the second prompt.
    ysess(
        &home,
        &mock,
        codex,
        &["-f", f, "tag", "first-answer", "line18"],
    )
    .status(0);
    resumes_exactly_the_path(
        &home,
        &mock,
        codex,
        &file,
        Some("first-answer"),
        "first-answer",
        &["exec", "--skip-git-repo-check"],
        RESPONSES,
    );
}
