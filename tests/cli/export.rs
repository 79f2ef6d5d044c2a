//! `ysess export --markdown` (the page of `--html` is tested in a browser,
//! in `html.rs`).

use crate::support::{Dir, demo};

#[test]
fn markdown_transcript_of_a_path_reads_turn_by_turn() {
    demo()
        .run(&["export", "--markdown", "e5"])
        .status(0)
        .stderr("")
        .stdout(
            "\
# session.jsonl

5 entries on the path to e5 (yoagent session).

## User · e1 · 2025-12-02 09:00:00 +00:00

Draft a plan for a CLI that checks our agent's session files.

## Assistant (claude-sonnet-5) · e2 · 2025-12-02 09:00:04 +00:00

> *Thinking*
> Look at what is in the repo first.

**Tool call** bash [call_1]:

```json
{
  \"command\": \"ls sessions/ | head\"
}
```

*Tokens: 1210 in, 64 out, 0 cache read, 0 cache write.*

## Tool result (bash) · e3 · 2025-12-02 09:00:04 +00:00

```text
run-0412.jsonl
run-0413.jsonl
run-0414.jsonl
```

## Assistant (claude-sonnet-5) · e4 (first-draft) · 2025-12-02 09:00:09 +00:00

Plan:
1. Parse each line as a session entry.
2. Check ids and parents.
3. Report every problem with its line.

*Tokens: 1390 in, 212 out, 0 cache read, 0 cache write.*

## User · e5 · 2025-12-02 09:01:00 +00:00

Good. Add a --json output for CI.

---

Tokens on this path: 2600 in, 276 out, 0 cache read, 0 cache write.
",
        );
}

#[test]
fn markdown_marks_failed_tool_results_and_folds_out_ysess_records() {
    let dir = demo();
    let run = dir.run(&["export", "--markdown"]);
    run.status(0).stderr("");
    let md = &run.stdout;
    // HEAD's path: e1..e4, e7, e8, e14, e15.
    let headings: Vec<&str> = md
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .map(|l| l.split(" · ").nth(1).unwrap_or_default())
        .collect();
    assert_eq!(
        headings,
        [
            "e1",
            "e2",
            "e3",
            "e4 (first-draft)",
            "e7",
            "e8 (library)",
            "e14",
            "e15 (HEAD)"
        ]
    );
    let run = dir.run(&["export", "--markdown", "e12"]);
    assert!(
        run.stdout
            .contains("## Tool result (search) · e12 · 2025-12-02 09:03:")
    );
    assert!(
        run.stdout
            .contains("**Error:**\n\n```text\nerror: search service unavailable\n```")
    );
}

#[test]
fn markdown_fences_outlast_backticks_and_control_characters_are_escaped() {
    let line = |id: &str, parent: Option<&str>, message: serde_json::Value| {
        serde_json::json!({"id": id, "parent_id": parent, "timestamp": 1_760_000_000_000u64, "message": message})
            .to_string()
    };
    let text = [
        line(
            "e1",
            None,
            serde_json::json!({"role": "user", "content": [{"type": "text", "text": "bell\u{7} and \u{1b}[31mred"}], "timestamp": 1}),
        ),
        line(
            "e2",
            Some("e1"),
            serde_json::json!({"role": "toolResult", "toolCallId": "c1", "toolName": "cat",
                "content": [{"type": "text", "text": "```\nnot the end\n```"}], "isError": false, "timestamp": 1}),
        ),
    ]
    .join("\n");
    let dir = Dir::new();
    dir.write("session.jsonl", format!("{text}\n"));
    let run = dir.run(&["export", "--markdown"]);
    run.status(0).stderr("");
    assert!(
        run.stdout.contains("\nbell\\u{7} and \\u{1b}[31mred\n"),
        "{run}"
    );
    assert!(
        run.stdout
            .contains("\n````text\n```\nnot the end\n```\n````\n"),
        "{run}"
    );
}

#[test]
fn markdown_of_an_empty_session_says_so() {
    let dir = Dir::new();
    dir.write("session.jsonl", "");
    dir.run(&["export", "--markdown"])
        .status(0)
        .stderr("")
        .stdout("# session.jsonl\n\nThe session is empty.\n");
}

#[test]
fn markdown_works_for_pi_and_claude_code_sessions() {
    for name in ["pi/demo.jsonl", "claude/session.jsonl"] {
        let dir = Dir::new();
        dir.fixture(name, "session.jsonl");
        let path = dir.run(&["log", "--reverse", "--format", "{id}"]);
        let run = dir.run(&["export", "--markdown"]);
        run.status(0).stderr("");
        let ids: Vec<String> = run
            .stdout
            .lines()
            .filter_map(|l| l.strip_prefix("## "))
            .map(|l| {
                let id = l.split(" · ").nth(1).unwrap_or_default();
                id.split(' ').next().unwrap_or_default().to_string()
            })
            .collect();
        let want: Vec<String> = path.stdout.lines().map(str::to_string).collect();
        assert_eq!(ids, want, "{name}");
    }
}
