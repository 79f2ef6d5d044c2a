//! Gemini CLI's session files, as Gemini CLI 0.61.0 wrote them against a
//! mock model (`tests/fixtures/gemini/`, each scenario laid out as Gemini
//! CLI's `.gemini/` folder keeps it): read through every command, a rewind
//! a branch, its tokens equal to ccusage's `gemini` report.

use std::path::{Path, PathBuf};

use crate::agents::ysess;
use crate::ccusage::{ccusage_json, ccusage_missing};
use crate::support::{Dir, Run, fixture};

/// The scenario's folder: what Gemini CLI keeps in `~/.gemini/`.
fn scenario(name: &str) -> PathBuf {
    fixture(&format!("gemini/{name}"))
}

/// A home whose `.gemini` is the scenario's folder.
fn home_of(name: &str) -> Dir {
    let home = Dir::new();
    std::os::unix::fs::symlink(scenario(name), home.join(".gemini")).expect("a link");
    home
}

fn session(name: &str, file: &str) -> PathBuf {
    let project = if matches!(name, "legacy" | "upgraded") {
        "proj"
    } else {
        "proj-g"
    };
    scenario(name)
        .join("tmp")
        .join(project)
        .join("chats")
        .join(file)
}

const REWIND: &str = "session-2026-12-06T07-25-4746f332.jsonl";
const SCENARIOS: [&str; 6] = [
    "file", "legacy", "projects", "rewind", "subagent", "upgraded",
];

/// `ysess ARGS` with `home` as `HOME` and no other session folder.
fn in_home(home: &Dir, args: &[&str]) -> Run {
    let path = home.path().to_str().expect("UTF-8").to_string();
    home.run_with(
        args,
        None,
        &[
            ("HOME", path.as_str()),
            ("YSESS_PATH", ""),
            ("XDG_CONFIG_HOME", path.as_str()),
        ],
    )
}

/// Every session file under `dir` (`.jsonl`, and the older `.json`).
fn jsonl_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("a folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            jsonl_under(&p, out);
        } else if p.extension().is_some_and(|x| x == "jsonl" || x == "json") {
            out.push(p);
        }
    }
}

#[test]
fn every_file_gemini_cli_wrote_is_sound_and_read_as_gemini() {
    let dir = Dir::new();
    let mut files = Vec::new();
    for name in SCENARIOS {
        jsonl_under(&scenario(name), &mut files);
    }
    assert!(files.len() >= 13, "{files:?}");
    for file in files {
        let run = ysess(&dir, &file, &["fsck", "-v"]);
        run.status(0);
        assert!(!run.stderr.contains("warning"), "{run}");
        assert!(run.stdout.contains(": ok; gemini session"), "{run}");
    }
}

#[test]
fn a_rewind_is_a_branch_and_a_restated_reply_is_one_entry() {
    let dir = Dir::new();
    let file = session("rewind", REWIND);
    ysess(&dir, &file, &["log", "--graph"]).status(0).stdout(
        "\
@  4112505e (HEAD) assistant gemini-3.8-flash 2026-12-06 07:38: Mock reply #11 to: fourth prompt after rewind
○  2392075c user 2026-12-06 07:38: fourth prompt after rewind
│ ○  217e5966 assistant gemini-3.8-flash 2026-12-06 07:27: Mock reply #9 to: third prompt
│ ○  f19a97ec user 2026-12-06 07:27: third prompt
├─╯
○  460f0ddd assistant gemini-3.8-flash 2026-12-06 07:25: Tool finished; mock reply #6.
○  89029c2a toolResult list_directory 2026-12-06 07:25: Directory listing for /tmp/agents41/proj-g:
○  362b1ac6 assistant gemini-3.8-flash 2026-12-06 07:25: Let me look.
○  bfc4c2bc user 2026-12-06 07:25: second prompt USE_TOOL please
○  e9e38fde assistant gemini-3.8-flash 2026-12-06 07:25: Mock reply #3 to: first prompt say hi
◆  8c2e992b user 2026-12-06 07:25: first prompt say hi
",
    );
    // The reply written twice (its tool call added) is read from its last
    // line: the call is there, once.
    let show = ysess(&dir, &file, &["show", "362b1ac6"]);
    show.status(0);
    assert_eq!(
        show.stdout.matches("tool call list_directory").count(),
        1,
        "{show}"
    );
    assert!(
        show.stdout.contains("65 in, 32 out, 40 cache read"),
        "{show}"
    );
    ysess(&dir, &file, &["grep", "Let me look"])
        .status(0)
        .stdout("362b1ac6 assistant: Let me look.\n");
    // HEAD's path is the conversation Gemini CLI goes on with: the rewound
    // turn is not on it.
    let export = ysess(&dir, &file, &["export"]);
    let text = export.status(0).stdout.clone();
    assert!(text.contains("fourth prompt after rewind"), "{text}");
    assert!(!text.contains("third prompt"), "{text}");
    assert!(text.contains("\"functionCall\""), "{text}");
}

#[test]
fn a_resumed_session_is_one_row_in_ls_with_its_project_and_title() {
    let home = home_of("rewind");
    let run = in_home(&home, &["ls", "--json"]);
    let rows: Vec<serde_json::Value> = run
        .status(0)
        .json_lines()
        .into_iter()
        .filter(|r| r["type"] == "session")
        .collect();
    assert_eq!(rows.len(), 1, "{run}");
    assert_eq!(rows[0]["agent"], "gemini");
    assert_eq!(rows[0]["id"], "4746f332-6801-43b1-88dc-63d50b1dd184");
    assert_eq!(rows[0]["project"], "/tmp/agents41/proj-g");
    assert_eq!(rows[0]["branches"], 2);
    // The title is the summary Gemini CLI wrote for the session.
    assert!(
        rows[0]["title"]
            .as_str()
            .is_some_and(|t| t.starts_with("Mock reply #7")),
        "{run}"
    );
}

#[test]
fn two_projects_of_one_name_are_two_projects() {
    let home = home_of("projects");
    let run = in_home(&home, &["ls", "--json"]);
    let mut projects: Vec<String> = run
        .status(0)
        .json_lines()
        .into_iter()
        .filter(|r| r["type"] == "session")
        .map(|r| r["project"].as_str().unwrap_or_default().to_string())
        .collect();
    projects.sort();
    assert_eq!(
        projects,
        ["/tmp/agents41/other/proj-g", "/tmp/agents41/proj-g"]
    );
}

#[test]
fn a_subagents_chat_is_counted_with_its_session() {
    let dir = Dir::new();
    let file = session("subagent", "session-2026-12-06T07-39-5b539256.jsonl");
    let run = ysess(&dir, &file, &["stats", "--json"]);
    let lines = run.status(0).json_lines();
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "subagent" && l["name"] == "28332e14-6aa5-42c4-897d-b1138d48540a"),
        "{run}"
    );
    let home = home_of("subagent");
    let ls = in_home(&home, &["ls", "--json"]);
    assert_eq!(
        ls.status(0)
            .json_lines()
            .last()
            .map(|t| t["sessions"].clone()),
        Some(1.into()),
        "{ls}"
    );
}

#[test]
fn stats_all_tokens_and_cost_equal_ccusage_gemini() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    // (`upgraded` is the next test's: ccusage counts its older turns twice.)
    for name in SCENARIOS.into_iter().filter(|&n| n != "upgraded") {
        let home = home_of(name);
        let ours = in_home(&home, &["stats", "--all", "--json"]);
        let total = ours.status(0).stats_total();
        let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
        let report = ccusage_json(
            &["gemini", "session"],
            &[("HOME", home.path().to_str().expect("UTF-8"))],
        );
        let t = crate::ccusage::totals(&report);
        // ccusage's output leaves the thoughts out, and its total holds
        // them: ysess counts them as output, as they are billed.
        assert_eq!(
            (n("input"), n("cache_read"), n("total")),
            (t.input, t.cache_read, t.total),
            "{name}: ysess {total}; ccusage {report}"
        );
        let cost = total["cost"].as_f64().unwrap_or(f64::NAN);
        assert!(
            (cost - t.cost).abs() < 0.005,
            "{name}: ${cost} vs ${}",
            t.cost
        );
    }
}

#[test]
fn an_older_json_session_reads_as_its_lines_and_its_jsonl_copy_supersedes_it() {
    let dir = Dir::new();
    let old = session("legacy", "session-2026-12-06T08-42-cf868f42.json");
    ysess(&dir, &old, &["log", "--graph"]).status(0).stdout(
        "\
@  95d08d22 (HEAD) assistant gemini-3-flash-preview 2026-12-06 08:42: Tool finished; mock reply #7.
○  7c2a4b69 assistant gemini-3-flash-preview 2026-12-06 08:42: Let me look.
◆  838f555f user 2026-12-06 08:42: USE_TOOL please list the files
",
    );
    let show = ysess(&dir, &old, &["show", "7c2a4b69"]);
    assert!(
        show.status(0).stdout.contains("tool call list_directory"),
        "{show}"
    );
    // Resumed by 0.61.0: the `.json`, its `.jsonl` copy and an empty file
    // are one session, read from the copy, its tokens counted once.
    let home = home_of("upgraded");
    let run = in_home(&home, &["ls", "--json"]);
    let rows: Vec<serde_json::Value> = run
        .status(0)
        .json_lines()
        .into_iter()
        .filter(|r| r["type"] == "session")
        .collect();
    assert_eq!(rows.len(), 1, "{run}");
    assert!(
        rows[0]["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("session-2026-12-06T08-41-c448f8d0.jsonl")),
        "{run}"
    );
    assert_eq!(rows[0]["entries"], 6, "{run}");
}

#[test]
fn an_older_json_session_and_its_resumed_copy_count_as_ccusage_counts_each_alone() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    // ccusage counts a `.json` and its `.jsonl` copy both (the older turns
    // twice); alone, the copy is the session's whole account.
    let home = Dir::new();
    crate::agents::copy_tree(&scenario("upgraded"), &home.join(".gemini"));
    let ours = in_home(&home, &["stats", "--all", "--json"]).stats_total();
    std::fs::remove_file(
        home.join(".gemini/tmp/proj/chats/session-2026-12-06T08-41-c448f8d0.json"),
    )
    .expect("the older file removed");
    let report = ccusage_json(
        &["gemini", "session"],
        &[("HOME", home.path().to_str().expect("UTF-8"))],
    );
    let t = crate::ccusage::totals(&report);
    let n = |k: &str| ours["tokens"][k].as_u64().unwrap_or(0);
    assert_eq!(
        (n("input"), n("cache_read"), n("total")),
        (t.input, t.cache_read, t.total),
        "ysess {ours}; ccusage {report}"
    );
}
