//! Qwen Code's session files, as Qwen Code 0.24.4 wrote them against a mock
//! model (`tests/fixtures/qwen/`, each scenario laid out as Qwen Code's
//! `projects/` folder keeps it): read through every command, its tokens
//! equal to ccusage's `qwen` report.

use std::path::{Path, PathBuf};

use crate::agents::ysess;
use crate::ccusage::{ccusage_json, ccusage_missing};
use crate::support::{Dir, fixture};

/// The scenario's folder (Qwen Code's runtime folder: `projects/` in it).
fn scenario(name: &str) -> PathBuf {
    fixture(&format!("qwen/{name}"))
}

/// The session files of a scenario (`projects/*/chats/*.jsonl`), sorted.
fn sessions(name: &str) -> Vec<PathBuf> {
    let projects = scenario(name).join("projects");
    let mut out = Vec::new();
    for project in std::fs::read_dir(&projects).expect("projects/").flatten() {
        let Ok(chats) = std::fs::read_dir(project.path().join("chats")) else {
            continue;
        };
        out.extend(
            chats
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
        );
    }
    out.sort();
    out
}

fn the_session(name: &str) -> PathBuf {
    let all = sessions(name);
    assert_eq!(all.len(), 1, "{name}: {all:?}");
    all.into_iter().next().expect("one session")
}

const SCENARIOS: [&str; 5] = ["compress", "fork", "rename", "rewind", "subagent"];

#[test]
fn every_session_qwen_code_wrote_is_sound_and_read_as_qwen() {
    let dir = Dir::new();
    for name in SCENARIOS {
        for file in sessions(name) {
            let run = ysess(&dir, &file, &["fsck", "-v"]);
            run.status(0);
            assert!(!run.stderr.contains("warning"), "{run}");
            assert!(run.stdout.contains(": ok; qwen session"), "{run}");
        }
    }
}

#[test]
fn a_rewind_is_a_branch_in_log_graph() {
    let dir = Dir::new();
    let file = the_session("rewind");
    ysess(&dir, &file, &["log", "--graph"]).status(0).stdout(
        "\
@  287dc9ac (HEAD) assistant mock-model 2026-12-06 07:45: Mock reply #13 to: <system-reminder> The current date is: Sunday, December 6, 2
○  3057eab0 user 2026-12-06 07:45: fourth prompt after rewind
│ ○  0a3eafb7 assistant mock-model 2026-12-06 07:40: Mock reply #3 to: <system-reminder> The current date is: Sunday, December 6, 2
│ ○  eb36401c user 2026-12-06 07:40: third prompt
│ ○  6245af67 assistant mock-model 2026-12-06 07:40: Tool finished; mock reply #2.
│ ○  9af9a13b toolResult glob 2026-12-06 07:40: Found 1 file(s) matching \"*.txt\" in the workspace directory, sorted by modification time (newest first):
│ ○  593b37c6 assistant mock-model 2026-12-06 07:40: Let me look.
│ ○  39b0f820 user 2026-12-06 07:40: second prompt USE_TOOL please
├─╯
○  4a2f02da assistant mock-model 2026-12-06 07:39: Mock reply #1 to: <system-reminder> The following skills are available for use
◆  7a591377 user 2026-12-06 07:39: first prompt say hi
",
    );
    // The rewound branch is a branch; the bookkeeping (telemetry, the
    // rewind line itself) is folded out of every answer.
    let branches = ysess(&dir, &file, &["branch", "--json"]);
    let tips: Vec<String> = branches
        .status(0)
        .json_lines()
        .iter()
        .map(|b| b["tip"].as_str().unwrap_or_default()[..8].to_string())
        .collect();
    assert_eq!(tips, ["287dc9ac", "0a3eafb7"]);
    ysess(&dir, &file, &["grep", "after rewind"])
        .status(0)
        .stdout("3057eab0 user: fourth prompt after rewind\n");
}

#[test]
fn a_compression_shows_what_it_put_in_place_and_export_resumes_from_it() {
    let dir = Dir::new();
    let file = the_session("compress");
    let show = ysess(&dir, &file, &["show", "55a29d81"]);
    show.status(0);
    assert!(
        show.stdout
            .contains("Chat compressed (manual, 203 tokens before, 0 after)"),
        "{show}"
    );
    assert!(show.stdout.contains("Mock summary of the chat."), "{show}");
    // Qwen Code sends the compressed history in place of what came before.
    let export = ysess(&dir, &file, &["export"]);
    let messages: Vec<serde_json::Value> =
        serde_json::from_str(&export.status(0).stdout).expect("export is JSON");
    let text = serde_json::to_string(&messages).expect("JSON");
    assert!(text.contains("Mock summary of the chat."), "{text}");
    assert!(!text.contains("first prompt say hi"), "{text}");
    assert!(text.contains("after compress prompt"), "{text}");
}

#[test]
fn a_title_given_with_rename_is_the_sessions_title_in_ls() {
    let dir = Dir::new();
    let root = scenario("rename");
    let run = dir.run_with(
        &["ls", "--json"],
        None,
        &[
            ("HOME", dir.path().to_str().expect("UTF-8")),
            ("QWEN_RUNTIME_DIR", root.to_str().expect("UTF-8")),
            ("YSESS_PATH", ""),
        ],
    );
    let rows: Vec<serde_json::Value> = run
        .status(0)
        .json_lines()
        .into_iter()
        .filter(|r| r["type"] == "session")
        .collect();
    assert_eq!(rows.len(), 1, "{run}");
    assert_eq!(rows[0]["title"], "My Custom Title", "{run}");
    assert_eq!(rows[0]["agent"], "qwen", "{run}");
    assert_eq!(rows[0]["project"], "/tmp/agents41/proj-q", "{run}");
}

#[test]
fn a_subagent_is_counted_with_its_session_and_listed_once() {
    let dir = Dir::new();
    let file = the_session("subagent");
    let run = ysess(&dir, &file, &["stats", "--json"]);
    let lines = run.status(0).json_lines();
    let sub = lines
        .iter()
        .find(|l| l["type"] == "subagent")
        .unwrap_or_else(|| panic!("a subagent row: {run}"));
    assert_eq!(sub["name"], "Explore-call_mock_4");
    assert_eq!(sub["tokens"]["input"], 125);
    let root = scenario("subagent");
    let ls = dir.run_with(
        &["ls", "--json"],
        None,
        &[
            ("HOME", dir.path().to_str().expect("UTF-8")),
            ("QWEN_RUNTIME_DIR", root.to_str().expect("UTF-8")),
            ("YSESS_PATH", ""),
        ],
    );
    let sessions = ls.status(0).json_lines();
    assert_eq!(
        sessions.last().map(|t| t["sessions"].clone()),
        Some(1.into()),
        "{ls}"
    );
}

/// ccusage's `qwen session` report of a scenario's folder, by session id:
/// (input with the cache reads in it, output, cache read).
fn ccusage_sessions(root: &Path) -> Vec<(String, (u64, u64, u64))> {
    let report = ccusage_json(
        &["qwen", "session"],
        &[
            ("HOME", "/nonexistent"),
            ("QWEN_DATA_DIR", root.to_str().expect("UTF-8")),
        ],
    );
    let mut out: Vec<(String, (u64, u64, u64))> = report["sessions"]
        .as_array()
        .expect("sessions")
        .iter()
        .map(|s| {
            let n = |k: &str| s[k].as_u64().unwrap_or(0);
            (
                s["sessionId"].as_str().unwrap_or_default().to_string(),
                (n("inputTokens"), n("outputTokens"), n("cacheReadTokens")),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn stats_tokens_equal_ccusage_qwen_on_every_session() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let dir = Dir::new();
    let mut compared = 0;
    for name in SCENARIOS {
        let theirs = ccusage_sessions(&scenario(name));
        for file in sessions(name) {
            let id = file
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("named by its id")
                .to_string();
            let run = ysess(&dir, &file, &["stats", "--json"]);
            let lines = run.status(0).json_lines();
            // ccusage reads the session's own file, not its subagents'.
            let own = lines
                .iter()
                .find(|l| l["type"] == "branch" && l["current"] == true)
                .cloned();
            let total = run.stats_total();
            let subs: Vec<&serde_json::Value> =
                lines.iter().filter(|l| l["type"] == "subagent").collect();
            let n = |v: &serde_json::Value, k: &str| v["tokens"][k].as_u64().unwrap_or(0);
            let less = |k: &str| n(&total, k) - subs.iter().map(|s| n(s, k)).sum::<u64>();
            let (input, output, read) = (less("input"), less("output"), less("cache_read"));
            let ours = (input + read, output, read);
            let found = theirs.iter().find(|(s, _)| *s == id);
            assert_eq!(
                found.map(|(_, t)| *t),
                Some(ours),
                "{name}/{id}: ysess (input with cache reads, output, cache read) {ours:?}; ccusage {theirs:?}; own branch {own:?}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 6);
}
