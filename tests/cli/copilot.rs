//! GitHub Copilot CLI's session files, as Copilot CLI 1.0.102 wrote them
//! against a mock model (`tests/fixtures/copilot/`, each scenario laid out
//! as `$COPILOT_HOME` keeps it): read through every command, its tokens and
//! cost equal to ccusage's `copilot` report.

use std::path::{Path, PathBuf};

use crate::agents::ysess;
use crate::ccusage::{ccusage_json, ccusage_missing};
use crate::support::{Dir, Run, fixture};

const SCENARIOS: [&str; 7] = [
    "compact", "github", "older", "rewind", "subagent", "tools", "turns",
];

/// The scenario's folder: what Copilot CLI keeps in `$COPILOT_HOME`.
fn scenario(name: &str) -> PathBuf {
    fixture(&format!("copilot/{name}"))
}

/// The scenario's one session file.
fn session(name: &str) -> PathBuf {
    let state = scenario(name).join("session-state");
    let mut found: Vec<PathBuf> = std::fs::read_dir(&state)
        .expect("session-state/")
        .flatten()
        .map(|e| e.path().join("events.jsonl"))
        .filter(|p| p.is_file())
        .collect();
    assert_eq!(found.len(), 1, "{name}: {found:?}");
    found.pop().expect("one session")
}

/// `ysess ARGS` with the scenario as `COPILOT_HOME` and no other folder.
fn in_home(dir: &Dir, name: &str, args: &[&str]) -> Run {
    let home = dir.path().to_str().expect("UTF-8").to_string();
    let copilot = scenario(name);
    dir.run_with(
        args,
        None,
        &[
            ("HOME", home.as_str()),
            ("COPILOT_HOME", copilot.to_str().expect("UTF-8")),
            ("YSESS_PATH", ""),
            ("XDG_CONFIG_HOME", home.as_str()),
        ],
    )
}

#[test]
fn every_session_copilot_cli_wrote_is_sound_and_read_as_copilot() {
    let dir = Dir::new();
    for name in SCENARIOS {
        let run = ysess(&dir, &session(name), &["fsck", "-v"]);
        run.status(0);
        assert!(!run.stderr.contains("warning"), "{run}");
        assert!(run.stdout.contains(": ok; copilot session"), "{run}");
    }
}

#[test]
fn a_tool_call_and_its_result_are_turns_and_the_bookkeeping_is_folded() {
    let dir = Dir::new();
    let file = session("tools");
    ysess(&dir, &file, &["log", "--graph"]).status(0).stdout(
        "\
@  72a54204 (HEAD) assistant mock-model 2026-12-06 08:19: Mock reply #5 to: Thanks, and again plain
○  a531d300 user 2026-12-06 08:19: Thanks, and again plain
○  93bfc2dd assistant mock-model 2026-12-06 08:19: Tool finished; mock reply #4.
○  34645868 toolResult glob 2026-12-06 08:19: ./a.txt
○  bb018e25 assistant mock-model 2026-12-06 08:19: Let me look.
◆  34c30178 user 2026-12-06 08:19: USE_TOOL please list txt files
",
    );
    // A reply's usage is the usage record of its call.
    let show = ysess(&dir, &file, &["show", "bb018e25"]);
    show.status(0);
    assert!(
        show.stdout.contains("123 in, 33 out, 80 cache read"),
        "{show}"
    );
    assert!(
        show.stdout.contains("tool call glob [call_mock_3]"),
        "{show}"
    );
    ysess(&dir, &file, &["grep", "list txt"])
        .status(0)
        .stdout("34c30178 user: USE_TOOL please list txt files\n");
}

#[test]
fn a_subagents_turns_are_folded_out_and_counted_with_the_session() {
    let dir = Dir::new();
    let file = session("subagent");
    let log = ysess(&dir, &file, &["log"]);
    assert_eq!(
        log.status(0)
            .stdout
            .lines()
            .filter(|l| !l.is_empty())
            .count(),
        8,
        "{log}"
    );
    let total = ysess(&dir, &file, &["stats", "--json"]).stats_total();
    assert_eq!(total["turns"]["assistant"], 4, "{total}");
    assert_eq!(total["tokens"]["input"], 510, "{total}");
}

#[test]
fn a_cancelled_compaction_is_bookkeeping_and_export_is_the_whole_conversation() {
    let dir = Dir::new();
    let file = session("compact");
    // Both compactions Copilot CLI started here were cancelled (the turn
    // ended first): no node of the tree, and nothing is resumed from them.
    let log = ysess(&dir, &file, &["log", "--graph"]);
    assert!(!log.status(0).stdout.contains("compaction"), "{log}");
    let markers = ysess(&dir, &file, &["log", "--markers", "--oneline"]);
    assert!(
        markers
            .status(0)
            .stdout
            .contains("session.compaction_complete: Conversation compaction cancelled"),
        "{markers}"
    );
    let export = ysess(&dir, &file, &["export"]);
    let messages: Vec<serde_json::Value> =
        serde_json::from_str(&export.status(0).stdout).expect("export is JSON");
    assert_eq!(messages.len(), 8, "{export}");
    assert!(export.stdout.contains("First long question"), "{export}");
}

#[test]
fn ls_lists_each_session_with_its_project() {
    let dir = Dir::new();
    for name in SCENARIOS {
        let run = in_home(&dir, name, &["ls", "--json"]);
        let rows: Vec<serde_json::Value> = run
            .status(0)
            .json_lines()
            .into_iter()
            .filter(|r| r["type"] == "session")
            .collect();
        assert_eq!(rows.len(), 1, "{run}");
        assert_eq!(rows[0]["agent"], "copilot", "{run}");
        let id = session(name)
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned());
        assert_eq!(rows[0]["id"].as_str(), id.as_deref(), "{run}");
        assert!(
            rows[0]["project"]
                .as_str()
                .is_some_and(|p| p.starts_with('/')),
            "{run}"
        );
    }
}

#[test]
fn stats_tokens_and_cost_equal_ccusage_copilot() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let dir = Dir::new();
    for name in SCENARIOS {
        let total = in_home(&dir, name, &["stats", "--all", "--json"]).stats_total();
        let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
        let report = ccusage_json(
            &["copilot", "session"],
            &[
                ("HOME", "/nonexistent"),
                ("COPILOT_HOME", scenario(name).to_str().expect("UTF-8")),
            ],
        );
        let t = crate::ccusage::totals(&report);
        assert_eq!(
            (n("input"), n("output"), n("cache_read"), n("cache_write")),
            (t.input, t.output, t.cache_read, t.cache_write),
            "{name}: ysess {total}; ccusage {report}"
        );
        if let Some(cost) = total["cost"].as_f64() {
            assert!(
                (cost - t.cost).abs() < 0.005,
                "{name}: ${cost} vs ${}",
                t.cost
            );
        }
    }
}

/// The last `session.shutdown`'s totals, over its models: what the file
/// itself says the session used (input without the cache, output, cache
/// read, cache write).
fn own_totals(file: &Path) -> (u64, u64, u64, u64) {
    let text = std::fs::read_to_string(file).expect("the file");
    let last = text
        .lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["type"] == "session.shutdown")
        .expect("a shutdown");
    let mut t = (0, 0, 0, 0);
    for m in last["data"]["modelMetrics"]
        .as_object()
        .expect("models")
        .values()
    {
        let n = |k: &str| m["usage"][k].as_u64().unwrap_or(0);
        t.0 += n("inputTokens") - n("cacheReadTokens") - n("cacheWriteTokens");
        t.1 += n("outputTokens");
        t.2 += n("cacheReadTokens");
        t.3 += n("cacheWriteTokens");
    }
    t
}

#[test]
fn stats_equals_the_files_own_totals_with_or_without_usage_records() {
    let dir = Dir::new();
    for name in SCENARIOS {
        let file = session(name);
        let total = ysess(&dir, &file, &["stats", "--json"]).stats_total();
        let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
        assert_eq!(
            (n("input"), n("output"), n("cache_read"), n("cache_write")),
            own_totals(&file),
            "{name}: {total}"
        );
    }
    // Without usage records (as older versions write), each reply keeps the
    // output it says, and its model's input and cache reads go on the last
    // reply before the shutdown that counts them.
    let file = session("older");
    let show = ysess(&dir, &file, &["show", "bb018e25"]);
    assert!(
        show.status(0).stdout.contains("0 in, 33 out, 0 cache read"),
        "{show}"
    );
}
