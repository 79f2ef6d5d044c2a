//! Codex's rollout files (`tests/fixtures/codex/FORMAT.md`): ones real
//! Codex versions wrote against a mock model, held to the usage the mock
//! reported; and one built by hand to the shapes Codex's own code writes:
//! a session header, an injected context message, reasoning, a function
//! call and its output, a compaction, a custom tool call, token counts, a
//! line type ysess does not know.

use crate::support::Dir;

fn rollout() -> Dir {
    let dir = Dir::new();
    dir.fixture("codex/rollout.jsonl", "session.jsonl");
    dir
}

#[test]
fn a_codex_rollout_reads_as_one_conversation_named_by_line() {
    let dir = rollout();
    let run = dir.run(&["fsck", "-v"]);
    run.status(0).stdout(
        "session.jsonl: 0 errors, 1 warning; codex session, 11 entries (and 8 bookkeeping lines), \
         1 root, 1 branch tip, 0 labels, HEAD line18 at depth 11\n",
    );
    assert!(
        run.stderr
            .contains("unknownLineType: 1 line of type `ghost_snapshot`"),
        "{run}"
    );
    dir.run(&["log", "--format", "{id} {parent} {role} {tag}"])
        .status(0)
        .stdout(
            "\
line18 line17 assistant gpt-5-codex
line17 line15 toolResult apply_patch
line15 line14 assistant gpt-5-codex
line14 line13 user 
line13 line10 custom compacted
line10 line9 assistant gpt-5-codex
line9 line7 toolResult shell
line7 line6 assistant gpt-5-codex
line6 line3 assistant gpt-5-codex
line3 line2 user 
line2  user meta
",
        );
    dir.run(&["branch", "-v"])
        .status(0)
        .stdout("* line18  no fork  11 entries  assistant gpt-5-codex: Patched: src/main.rs now opens with `// ystats`.\n");
}

#[test]
fn codex_usage_comes_from_token_counts_and_equals_the_last_total() {
    let dir = rollout();
    let run = dir.run(&["stats", "--json"]);
    run.status(0);
    let total = run.stats_total();
    // The last token_count's total_token_usage: 17,700 input of which
    // 15,000 cached, 250 output, 17,950 in all.
    assert_eq!(total["tokens"]["input"], 2700, "{run}");
    assert_eq!(total["tokens"]["cache_read"], 15000, "{run}");
    assert_eq!(total["tokens"]["output"], 250, "{run}");
    assert_eq!(total["tokens"]["total"], 17950, "{run}");
    assert_eq!(total["models"][0]["name"], "gpt-5-codex", "{run}");
    let run = dir.run(&["show", "line10"]);
    run.status(0);
    assert!(
        run.stdout.contains("Model:    gpt-5-codex (openai)\n"),
        "{run}"
    );
    assert!(
        run.stdout
            .contains("Usage:    400 in, 30 out, 4000 cache read"),
        "{run}"
    );
    dir.run(&["diff", "--stat", "line10", "line18"]).status(0).stdout(
        "\
fork point line10 assistant gpt-5-codex: src/main.rs has 42 lines.
--- line10 (0 turns after the fork)
+++ line18 (5 turns after the fork)
 a: line10: 0 turns, 0 tokens in, 0 out, tool calls: none
 b: line18: 5 turns (2 assistant, 1 custom, 1 toolResult, 1 user), 1100 tokens in, 100 out, tool calls: apply_patch ×1
 0 changed, 5 added, 0 removed, 0 the same
",
    );
}

#[test]
fn a_codex_tool_output_names_its_call_and_grep_finds_it() {
    let dir = rollout();
    let run = dir.run(&["grep", "--json", "42 src"]);
    run.status(0);
    let found = run.json_lines();
    assert_eq!(found[0]["id"], "line9", "{run}");
    assert_eq!(found[0]["tool"], "shell", "{run}");
}

#[test]
fn codex_rollouts_are_never_written_to() {
    let dir = rollout();
    let before = dir.read("session.jsonl");
    // ysess's records go beside the rollout, in its refs store.
    for args in [&["tag", "x"][..], &["checkout", "line3"], &["branch", "b"]] {
        dir.run(args).status(0);
    }
    let run = dir.run(&["append", "--user", "hi"]);
    run.status(128);
    assert!(
        run.stderr
            .contains("a codex session: ysess reads it, and leaves writing it to the app"),
        "{run}"
    );
    assert_eq!(dir.read("session.jsonl"), before);
}

/// The rollouts real Codex versions wrote against a mock model
/// (`codex-<version>-tools.jsonl`: two turns, each a shell call, its
/// output and a reply, so four model calls), with the usage the mock
/// reported for each call (`codex-<version>-tools.usage.json`, written by
/// the script that drove them, described in `FORMAT.md`).
pub fn written_by_codex() -> Vec<(std::path::PathBuf, serde_json::Value)> {
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex");
    let mut found: Vec<_> = std::fs::read_dir(&folder)
        .expect("the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_str().is_some_and(|p| p.ends_with("-tools.jsonl")))
        .map(|p| {
            let usage = p.with_extension("usage.json");
            let text = std::fs::read_to_string(&usage).expect("the mock's usage beside it");
            (p, serde_json::from_str(&text).expect("JSON"))
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(found.len() >= 4, "{found:?}");
    found
}

#[test]
fn codex_tokens_on_rollouts_real_codex_wrote_equal_what_the_model_reported() {
    let dir = Dir::new();
    for (file, mock) in written_by_codex() {
        let path = file.to_str().expect("a UTF-8 path");
        let run = dir.run(&["-f", path, "stats", "--json"]);
        run.status(0);
        let total = run.stats_total();
        let reported = &mock["total"];
        let n = |v: &serde_json::Value| v.as_u64().expect("a count");
        let (input, cached) = (n(&reported["input_tokens"]), n(&reported["cached_tokens"]));
        // OpenAI's input_tokens counts the cached input too.
        assert_eq!(total["tokens"]["input"], input - cached, "{path}: {run}");
        assert_eq!(total["tokens"]["cache_read"], cached, "{path}: {run}");
        assert_eq!(
            total["tokens"]["output"], reported["output_tokens"],
            "{path}: {run}"
        );
        assert_eq!(
            total["tokens"]["total"], reported["total_tokens"],
            "{path}: {run}"
        );
        assert_eq!(total["tokens"]["cache_write"], 0, "{path}: {run}");
        // Each model call's usage on one output of its own: the path to
        // each entry, oldest first, grows by one call's tokens at a time.
        let ids = dir.run(&["-f", path, "log", "--reverse", "--format", "{id}"]);
        let ids: Vec<&str> = ids.status(0).stdout.lines().collect();
        let mut args = vec!["-f", path, "stats", "--json"];
        args.extend(&ids);
        let paths = dir.run(&args);
        let mut was = 0;
        let mut each = Vec::new();
        for path_total in paths.status(0).json_lines() {
            if path_total["type"] != "revision" {
                continue;
            }
            let now = n(&path_total["tokens"]["total"]);
            if now != was {
                each.push(now - was);
            }
            was = now;
        }
        let calls = mock["calls"].as_array().expect("the calls");
        let wanted: Vec<u64> = calls.iter().map(|c| n(&c["total_tokens"])).collect();
        assert_eq!(each, wanted, "{path}: each call's usage, in order");
        // The model is named: the one the mock was asked for.
        assert_eq!(total["models"].as_array().map(Vec::len), Some(1), "{run}");
        assert_eq!(total["models"][0]["name"], mock["model"], "{path}: {run}");
        assert_eq!(total["models"][0]["turns"], 8, "{path}: {run}");
        // Codex's own lines are all known: fsck finds nothing.
        let fsck = dir.run(&["-f", path, "fsck", "-v"]);
        fsck.status(0).stderr("");
        assert!(
            fsck.stdout.contains(": ok; codex session, 13 entries"),
            "{fsck}"
        );
    }
}

#[test]
fn a_codex_034_rollout_names_no_model_and_ysess_names_its_default() {
    let file = crate::support::fixture("codex/codex-0.34.0-tools.jsonl");
    let text = std::fs::read_to_string(&file).expect("the fixture");
    assert!(!text.contains("\"model\""), "Codex 0.34 names no model");
    let dir = Dir::new();
    let path = file.to_str().expect("a UTF-8 path");
    let run = dir.run(&["-f", path, "stats"]);
    run.status(0);
    assert!(run.stdout.contains("    models  gpt-5 8\n"), "{run}");
    dir.run(&["-f", path, "log", "--format", "{role} {tag}", "-n", "2"])
        .status(0)
        .stdout("assistant gpt-5\nassistant gpt-5\n");
}

#[test]
fn ls_titled_a_codex_session_from_an_ide_by_its_preamble() {
    let dir = Dir::new();
    dir.fixture("codex/ide.jsonl", "session.jsonl");
    // AGENTS.md and the environment are Codex's; the IDE's context comes
    // before the user's request.
    dir.run(&["log", "--oneline"]).status(0).stdout(
        "\
line7 (HEAD) assistant gpt-5-codex: `collect` returns early on an empty file, before anything is printed.
line4 user: Why does `ystats` print nothing for an empty file?
line3 user meta: (context: environment_context)
line2 user meta: (context: AGENTS.md)
",
    );
    let run = dir.run(&["ls", "--json", "."]);
    assert_eq!(
        run.status(0).json_lines()[0]["title"],
        "Why does `ystats` print nothing for an empty file?",
        "{run}"
    );
    let run = dir.run(&["show", "line4"]);
    assert!(
        run.status(0).stdout.ends_with(
            "    [context: IDE context]\n    ## Active file: src/main.rs\n    \n    ## Open tabs:\n    - main.rs: src/main.rs\n\n    Why does `ystats` print nothing for an empty file?\n"
        ),
        "{run}"
    );
}
