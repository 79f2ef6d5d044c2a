//! Claude Code as it writes today (2.1), from files built by hand to the
//! shapes public readers document (`tests/fixtures/claude/FORMAT.md`):
//! housekeeping lines before any entry, `progress` and `attachment` lines
//! in the chain, an attachment written before its parent, a reply that calls
//! two tools at once, an edited prompt, a subagent's own file, a compaction
//! continued from a file that is gone.

use crate::sessgen::Rng;
use crate::support::{Dir, Run};

fn today() -> Dir {
    let dir = Dir::new();
    dir.fixture("claude/today.jsonl", "session.jsonl");
    dir
}

/// The codes of the findings a run printed, in order.
fn codes(run: &Run) -> Vec<&str> {
    run.stderr
        .lines()
        .filter_map(|l| l.split(": ").nth(2))
        .collect()
}

#[test]
fn a_file_opening_with_permission_mode_is_read_as_claude_code() {
    let dir = today();
    let run = dir.run(&["fsck", "-v"]);
    run.status(0).stdout(
        "session.jsonl: 0 errors, 1 warning; claude session, 10 entries (and 3 bookkeeping lines), \
         1 root, 2 branch tips, 0 labels, HEAD acebdac9 at depth 8\n",
    );
    // The line type no Claude Code is known to write is skipped and counted.
    assert_eq!(codes(&run), ["unknownLineType"], "{run}");
    assert!(
        run.stderr.contains("1 line of type `ysess-future-line`"),
        "{run}"
    );
}

#[test]
fn progress_and_attachment_lines_are_not_branches_and_parallel_results_are_one_turn() {
    let dir = today();
    dir.run(&["log", "--graph"]).status(0).stdout(
        "\
@  acebdac9 (HEAD) assistant claude-sonnet-4-5-20250929 2026-11-20 10:00: Done: `0 entries`, and the exit status is 0.
○  fbdac9b8 user 2026-11-20 10:00: Print `0 entries` and exit 0.
│ ○  eac9b8a7 assistant claude-sonnet-4-5-20250929 2026-11-20 10:00: Done: an empty file now prints `0 entries`.
│ ○  d9c8b7a6 user 2026-11-20 10:00: Print `0 entries` instead.
├─╯
○  b7a6f5e4 assistant claude-sonnet-4-5-20250929 2026-11-20 10:00: `collect` returns early on an empty file and nothing is printed.
○  a6f5e4d3 toolResult Bash 2026-11-20 10:00: 
○  f5e4d3c2 toolResult Read 2026-11-20 10:00: fn main() {
○  d3c2b1a0 assistant claude-sonnet-4-5-20250929 2026-11-20 10:00: Bash {\"command\":\"ystats stats empty.jsonl\",\"description\":\"Run on an empty file\"}
○  c2b1a0e9 assistant claude-sonnet-4-5-20250929 2026-11-20 10:00: Read {\"file_path\":\"/home/dana/src/ystats/src/main.rs\"}
◆  b1a0c9d8 user 2026-11-20 10:00: Why does `ystats` print nothing for an empty file?
",
    );
    // Two tips: the two answers to the edited prompt, nothing else.
    dir.run(&["branch", "-v"]).status(0).stdout(
        "\
* acebdac9  forked at b7a6f5e4  2 entries  assistant claude-sonnet-4-5-20250929: Done: `0 entries`, and the exit status is 0.
  eac9b8a7  forked at b7a6f5e4  2 entries  assistant claude-sonnet-4-5-20250929: Done: an empty file now prints `0 entries`.
",
    );
    // --markers shows the bookkeeping where it hangs.
    let run = dir.run(&["log", "--all", "--markers", "--format", "{short_id} {tag}"]);
    for line in [
        "e4d3c2b1 hook_progress",
        "a7a7a7a7 attachment",
        "c8b7a6f5 turn_duration",
    ] {
        assert!(run.stdout.contains(line), "{run}");
    }
    let run = dir.run(&["log", "--all", "--format", "{short_id}"]);
    assert_eq!(run.stdout.lines().count(), 10, "{run}");
}

#[test]
fn a_claude_code_tool_result_names_its_tool() {
    let dir = today();
    let run = dir.run(&["show", "f5e4d3c2"]);
    run.status(0);
    assert!(
        run.stdout.contains("Tool:     Read [toolu_01Read]\n"),
        "{run}"
    );
    let run = dir.run(&["grep", "--json", "fn main"]);
    run.status(0);
    assert_eq!(run.json_lines()[0]["tool"], "Read", "{run}");
}

#[test]
fn a_split_reply_counts_once_with_its_last_usage_in_stats_and_diff() {
    let dir = today();
    let run = dir.run(&["stats", "--json"]);
    run.status(0);
    let total = run.stats_total();
    // msg_01A (96 out on its last line), msg_01B 40, msg_01C 30, msg_01D 35.
    assert_eq!(total["tokens"]["output"], 201, "{run}");
    assert_eq!(total["tokens"]["input"], 16, "{run}");
    assert_eq!(total["tokens"]["cache_read"], 7000, "{run}");
    assert_eq!(total["tokens"]["cache_write"], 2520, "{run}");
    assert_eq!(total["turns"]["assistant"], 4, "{run}");
    dir.run(&["diff", "--stat", "eac9b8a7", "acebdac9"])
        .status(0)
        .stdout(
            "\
fork point b7a6f5e4 assistant claude-sonnet-4-5-20250929: `collect` returns early on an empty file and nothing is printed.
--- eac9b8a7 (2 turns after the fork)
+++ acebdac9 (2 turns after the fork)
 a: eac9b8a7: 2 turns (1 assistant, 1 user), 4 tokens in, 30 out, tool calls: none
 b: acebdac9: 2 turns (1 assistant, 1 user), 4 tokens in, 35 out, tool calls: none
 2 changed, 0 added, 0 removed, 0 the same
",
        );
}

#[test]
fn a_subagent_file_is_a_conversation_of_its_own() {
    let dir = Dir::new();
    dir.fixture("claude/agent-a3f9c2e1.jsonl", "session.jsonl");
    let run = dir.run(&["log", "--format", "{role} {tag}"]);
    run.status(0)
        .stdout("assistant claude-sonnet-4-5-20250929\ntoolResult Grep\nassistant claude-sonnet-4-5-20250929\nuser \n");
    dir.run(&["show"]).status(0);
    let run = dir.run(&["grep", "-c", "caller"]);
    run.status(0);
    let run = dir.run(&["stats", "--json"]);
    let total = run.stats_total();
    assert_eq!(total["tokens"]["input"], 18, "{run}");
    assert_eq!(total["tokens"]["output"], 35, "{run}");
    dir.run(&["fsck"]).status(0).stderr("");
}

#[test]
fn a_compaction_continued_from_a_gone_file_and_a_stray_sidechain_read_with_warnings() {
    let dir = Dir::new();
    dir.fixture("claude/compacted.jsonl", "session.jsonl");
    let run = dir.run(&["fsck"]);
    run.status(0);
    assert_eq!(codes(&run), ["danglingParent", "danglingParent"], "{run}");
    dir.run(&["log", "--format", "{short_id} {role}"])
        .status(0)
        .stdout("20000000-0000-4000-8000-000000000003 assistant\n20000000-0000-4000-8000-000000000002 user\n20000000-0000-4000-8000-000000000001 custom\n");
    for args in [&["branch", "-v"][..], &["show"], &["stats"], &["status"]] {
        dir.run(args).status(0);
    }
}

/// Reads `text` as a Claude Code session and returns what a person asks of
/// it: every path from a root to each tip, and HEAD.
fn answers(dir: &Dir, text: &str) -> (String, String) {
    dir.write("session.jsonl", text);
    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    let mut paths = String::new();
    for tip in run.json_lines() {
        let tip = tip["tip"].as_str().unwrap_or_default().to_string();
        let log = dir.run(&[
            "log",
            "--reverse",
            "--format",
            "{id} {parent} {depth}",
            &tip,
        ]);
        log.status(0);
        paths.push_str(&log.stdout);
        paths.push('\n');
    }
    let head = dir.run(&["log", "-n", "1", "--format", "{id}"]);
    (paths, head.stdout.clone())
}

#[test]
fn folding_progress_and_attachment_lines_never_changes_paths_or_answers() {
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(crate::support::fixture("claude/today.jsonl"))
            .expect("fixture")
            .lines()
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .collect();
    let is_turn = |v: &serde_json::Value| matches!(v["type"].as_str(), Some("user" | "assistant"));
    // The conversation alone: bookkeeping dropped, each child hung from
    // what its bookkeeping parent hung from.
    let mut bare: Vec<serde_json::Value> = Vec::new();
    let parent_of: std::collections::HashMap<String, serde_json::Value> = lines
        .iter()
        .filter(|v| v["uuid"].is_string())
        .map(|v| {
            (
                v["uuid"].as_str().unwrap_or_default().to_string(),
                v["parentUuid"].clone(),
            )
        })
        .collect();
    let kept: std::collections::HashSet<String> = lines
        .iter()
        .filter(|v| is_turn(v))
        .map(|v| v["uuid"].as_str().unwrap_or_default().to_string())
        .collect();
    for v in lines.iter().filter(|v| is_turn(v)) {
        let mut v = v.clone();
        let mut parent = v["parentUuid"].clone();
        while let Some(p) = parent.as_str().filter(|p| !kept.contains(*p)) {
            parent = parent_of.get(p).cloned().unwrap_or(serde_json::Value::Null);
        }
        v["parentUuid"] = parent;
        bare.push(v);
    }
    let dir = Dir::new();
    let join = |v: &[serde_json::Value]| {
        v.iter()
            .map(|l| l.to_string())
            .collect::<Vec<_>>()
            .join("\n")
            + "\n"
    };
    let want = answers(&dir, &join(&bare));
    assert_eq!(want, answers(&dir, &join(&lines)));
    // Bookkeeping put anywhere, in runs, before or after the line it hangs
    // from: the same answers.
    let mut rng = Rng::new(0x5eed_c1a0);
    for round in 0..12 {
        let mut mixed = bare.clone();
        for k in 0..6 {
            let at = rng.below(mixed.len());
            let host = mixed[at]["uuid"].as_str().unwrap_or_default().to_string();
            let uuid = format!("99999999-{round:04}-4000-8000-{k:012}");
            let kind = if rng.below(2) == 0 {
                "progress"
            } else {
                "attachment"
            };
            let line = serde_json::json!({
                "parentUuid": host, "isSidechain": false, "type": kind,
                "sessionId": "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f",
                "data": {"type": "hook_progress"}, "uuid": uuid,
                "timestamp": "2026-11-20T10:00:30.000Z",
            });
            // A child of the host now hangs from the bookkeeping line.
            if let Some(child) = mixed
                .iter_mut()
                .skip(at + 1)
                .find(|v| v["parentUuid"] == host.as_str())
                && rng.below(2) == 0
            {
                child["parentUuid"] = serde_json::Value::String(uuid.clone());
            }
            // Written after its host, or (as attachments are) just before.
            let place = if rng.below(3) == 0 { at } else { at + 1 };
            mixed.insert(place, line);
        }
        assert_eq!(want, answers(&dir, &join(&mixed)), "round {round}");
    }
}

#[test]
fn slash_commands_their_output_and_injected_text_show_as_what_they_mean() {
    let dir = Dir::new();
    dir.fixture("claude/commands.jsonl", "session.jsonl");
    dir.run(&["log", "--oneline"]).status(0).stdout(
        "\
30000000-2 (HEAD) user: task b1f3 completed: Background command \"npm test\" completed (exit code 0)
30000000-1 user: All checks passed!
30000000-0 user: ! uv run ty check
30000000-f user: Kept model as Default (recommended)
30000000-e custom local_command: /model
30000000-d user: Why is the build slow?
30000000-c user: Set model to opus (claude-opus-4-5)
30000000-b user: /model opus
30000000-a user meta: (context: local-command-caveat)
",
    );
}

#[test]
fn claude_code_markup_was_shown_raw_in_show() {
    let dir = Dir::new();
    dir.fixture("claude/commands.jsonl", "session.jsonl");
    // A slash command on a system line, its output (escape sequences
    // stripped), a shell command, its output, a task's notification.
    dir.run(&[
        "show",
        "30000000-e",
        "30000000-f",
        "30000000-0",
        "30000000-1",
        "@",
    ])
    .status(0)
    .stderr("")
    .stdout(
        "\
entry 30000000-e
Parent:   30000000-d
Role:     custom
Kind:     local_command
Time:     2026-11-22 09:00:05 +00:00
Format:   claude
Children: 30000000-f

    /model

entry 30000000-f
Parent:   30000000-e
Role:     user
Time:     2026-11-22 09:00:06 +00:00
Format:   claude
Children: 30000000-0

    [output]
    Kept model as Default (recommended)

entry 30000000-0
Parent:   30000000-f
Role:     user
Time:     2026-11-22 09:00:07 +00:00
Format:   claude
Children: 30000000-1

    ! uv run ty check

entry 30000000-1
Parent:   30000000-0
Role:     user
Time:     2026-11-22 09:00:08 +00:00
Format:   claude
Children: 30000000-2

    [output]
    All checks passed!

entry 30000000-2 (HEAD)
Parent:   30000000-1
Role:     user
Time:     2026-11-22 09:00:09 +00:00
Format:   claude

    [task b1f3 completed]
    Background command \"npm test\" completed (exit code 0)
",
    );
    // Context the app put before the user's words is set apart from them.
    let run = dir.run(&["show", "30000000-d"]);
    assert!(
        run.status(0).stdout.ends_with(
            "    [context: system-reminder]\n    The task tools haven't been used recently.\n\n    Why is the build slow?\n"
        ),
        "{run}"
    );
    // `--json` is the line as stored, tags and escapes (as JSON escapes) kept.
    let run = dir.run(&["show", "--json", "30000000-f"]);
    let line = &run.status(0).json_lines()[0];
    assert_eq!(
        line["message"]["content"],
        "<local-command-stdout>Kept model as \u{1b}[1mDefault (recommended)\u{1b}[22m</local-command-stdout>",
        "{run}"
    );
}

#[test]
fn claude_code_markup_was_shown_raw_in_the_markdown_export() {
    let dir = Dir::new();
    dir.fixture("claude/commands.jsonl", "session.jsonl");
    let run = dir.run(&["export", "--markdown"]);
    run.status(0).stderr("");
    let md = &run.stdout;
    for shown in [
        "9 entries on the path to 30000000-2 (claude session).",
        "## User · 30000000-a · 2026-11-22 09:00:01 +00:00\n\n> *context: local-command-caveat*\n> Caveat: The messages below",
        "## User · 30000000-b · 2026-11-22 09:00:02 +00:00\n\n**Command** `/model opus`\n",
        "## Custom (local_command) · 30000000-e · 2026-11-22 09:00:05 +00:00\n\n**Command** `/model`\n\n## User",
        "**Output:**\n\n```text\nKept model as Default (recommended)\n```\n",
        "**Command** `! uv run ty check`\n",
        "**Output:**\n\n```text\nAll checks passed!\n```\n",
        "**Task b1f3 completed:**\n\n```text\nBackground command \"npm test\" completed (exit code 0)\n```\n",
        "> *context: system-reminder*\n> The task tools haven't been used recently.\n\nWhy is the build slow?\n",
    ] {
        assert!(md.contains(shown), "{shown:?} in\n{run}");
    }
    for raw in [
        "<command-name>",
        "<local-command",
        "<bash-",
        "<task-",
        "<system-reminder>",
        "\u{1b}",
        "30000000-aaaa",
    ] {
        assert!(!md.contains(raw), "{raw:?} in\n{run}");
    }
}

#[test]
fn ls_titled_a_session_by_its_caveat_its_commands_or_another_session_s_summary() {
    let dir = Dir::new();
    // The summary line names a leaf in another file: that session's title.
    dir.fixture("claude/commands.jsonl", "session.jsonl");
    let run = dir.run(&["ls", "--json", "."]);
    let sessions = run.status(0).json_lines();
    assert_eq!(sessions[0]["title"], "Why is the build slow?", "{run}");
    // A summary of this session's own entries is its title, as before.
    let summary = r#"{"type":"summary","summary":"Build speed","leafUuid":"30000000-1111-4000-8000-000000000008"}"#;
    let text = std::fs::read_to_string(dir.join("session.jsonl")).expect("reads");
    dir.write("session.jsonl", format!("{summary}\n{text}"));
    let run = dir.run(&["ls", "--json", "."]);
    assert_eq!(
        run.status(0).json_lines()[0]["title"],
        "Build speed",
        "{run}"
    );
}

#[test]
fn long_ids_printed_whole_in_grep_show_fsck_and_markdown() {
    let dir = Dir::new();
    dir.fixture("claude/broken.jsonl", "session.jsonl");
    // fsck names the entries of the file short; a parent in no file of
    // the session stays whole (nothing to tell it apart from).
    let run = dir.run(&["fsck", "-v"]);
    run.status(1).stdout(
        "session.jsonl: 2 errors, 3 warnings; claude session, 4 entries, 2 roots, 2 branch tips, 0 labels, HEAD e6d29b18 at depth 2\n",
    );
    assert!(
        run.stderr
            .contains("repeatedUuid: uuid c07f2a94 is already on line 2")
            && run.stderr.contains(
                "multipleRoots: entry 1a8d4f6b is another root (the first is 5b1e9c3d at line 1)"
            )
            && run
                .stderr
                .contains("parent 0b7c5e3a-2f91-4d68-a4e7-8c13b9f05d26 is not in this file"),
        "{run}"
    );
    // --json keeps full ids.
    let run = dir.run(&["fsck", "--json"]);
    let lines = run.json_lines();
    let summary = lines.last().expect("a summary");
    assert_eq!(
        summary["head"], "e6d29b18-4a73-4c0f-9e5b-3f81a7c64d90",
        "{run}"
    );
    // Ids that share their first 8 characters print as long as it takes.
    let dir = Dir::new();
    dir.fixture("claude/commands.jsonl", "session.jsonl");
    dir.run(&["grep", "-F", "checks"])
        .status(0)
        .stdout("30000000-1 user: <bash-stdout>All checks passed!</bash-stdout><bash-stderr></bash-stderr>\n");
    let run = dir.run(&["grep", "--json", "-F", "checks"]);
    assert_eq!(
        run.status(0).json_lines()[0]["id"],
        "30000000-1111-4000-8000-000000000008",
        "{run}"
    );
    let run = dir.run(&["show", "30000000-a"]);
    assert!(
        run.status(0).stdout.starts_with("entry 30000000-a\n"),
        "{run}"
    );
}

#[test]
fn diff_stat_counts_a_split_reply_once_with_its_last_lines_usage_as_stats_does() {
    let dir = today();
    let run = dir.run(&["diff", "--stat", "b1a0c9d8", "acebdac9"]);
    run.status(0);
    // msg_01A over two lines (12, then 96 out), msg_01B 40, msg_01D 35:
    // 171 out in three assistant turns, as `stats acebdac9` counts.
    assert!(
        run.stdout.contains(
            " b: acebdac9: 6 turns (3 assistant, 2 toolResult, 1 user), 12 tokens in, 171 out,"
        ),
        "{run}"
    );
    let run = dir.run(&["stats", "--json", "acebdac9"]);
    let line = &run.json_lines()[0];
    assert_eq!(line["tokens"]["output"], 171, "{run}");
    assert_eq!(line["turns"]["assistant"], 3, "{run}");
}

/// A session in Claude Code 2.1's layout: `S.jsonl` launching a subagent
/// through the Task tool, and `S/subagents/agent-a3f9c2e1.jsonl`.
fn delegates() -> Dir {
    let dir = Dir::new();
    let session = "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f";
    dir.fixture("claude/delegates.jsonl", "session.jsonl");
    std::fs::create_dir_all(dir.join("session/subagents")).expect("folders");
    let agent = std::fs::read_to_string(crate::support::fixture("claude/agent-a3f9c2e1.jsonl"))
        .expect("a fixture")
        .replace(session, "session");
    dir.write("session/subagents/agent-a3f9c2e1.jsonl", agent);
    dir
}

#[test]
fn log_markers_and_show_name_each_subagent_under_the_result_it_answered_with() {
    let dir = delegates();
    let sub = "subagent a3f9c2e1: 4 entries, 2 replies, 1,853 tokens, $0.0042 \
               (session/subagents/agent-a3f9c2e1.jsonl)";
    let run = dir.run(&["log", "--markers", "--oneline"]);
    run.status(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{run}");
    assert!(lines[1].contains("toolResult Task: One caller"), "{run}");
    assert_eq!(lines[2], format!("  ↳ {sub}"), "{run}");
    // Without --markers the log is the conversation alone.
    let run = dir.run(&["log", "--oneline"]);
    assert_eq!(run.status(0).stdout.lines().count(), 4, "{run}");
    let run = dir.run(&["show", "HEAD~1"]);
    assert!(
        run.status(0)
            .stdout
            .contains(&format!("Subagent: {}\n", &sub["subagent ".len()..])),
        "{run}"
    );
    // stats names it too, and the total includes its turns.
    let run = dir.run(&["stats", "--json"]);
    let total = run.status(0).stats_total();
    assert_eq!(total["turns"]["assistant"], 4, "{run}");
}

#[test]
fn a_subagent_no_result_names_is_listed_after_the_log() {
    let dir = delegates();
    let lone =
        std::fs::read_to_string(dir.join("session/subagents/agent-a3f9c2e1.jsonl")).expect("reads");
    dir.write("session/subagents/agent-b0b0b0b0.jsonl", lone);
    let run = dir.run(&["log", "--markers", "--oneline"]);
    let last = run
        .status(0)
        .stdout
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    assert!(
        last.starts_with("↳ subagent b0b0b0b0: 4 entries")
            && last.ends_with("(no tool result of this session names it)"),
        "{run}"
    );
}
