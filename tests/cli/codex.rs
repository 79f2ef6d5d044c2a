//! Codex's rollout files, from one built by hand to the shapes Codex's own
//! code writes (`tests/fixtures/codex/FORMAT.md`): a session header, an
//! injected context message, reasoning, a function call and its output, a
//! compaction, a custom tool call, token counts, a line type ysess does
//! not know.

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
fn codex_rollouts_are_never_written() {
    let dir = rollout();
    let before = dir.read("session.jsonl");
    for args in [
        &["tag", "x"][..],
        &["checkout", "line3"],
        &["branch", "b"],
        &["append", "--user", "hi"],
    ] {
        let run = dir.run(args);
        run.status(128);
        assert!(
            run.stderr
                .contains("a codex session: ysess reads it, and leaves writing it to the app"),
            "{run}"
        );
    }
    assert_eq!(dir.read("session.jsonl"), before);
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
