//! Formats other than yoagent's, read from files written by hand to pi's
//! shapes (`tests/fixtures/pi/handmade.jsonl`: a fork, a tool call and its
//! result, two labels, a model change and a compaction). The comparison
//! with pi itself is in `pi.rs`.

use crate::support::{Dir, Run};

/// The codes of the findings a run printed, in order.
fn codes(run: &Run) -> Vec<&str> {
    run.stderr
        .lines()
        .filter_map(|l| l.split(": ").nth(2))
        .collect()
}

/// The tips `branch --json` lists, in its order.
fn tips(dir: &Dir) -> Vec<String> {
    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    run.json_lines()
        .iter()
        .map(|b| b["tip"].as_str().unwrap_or_default().to_string())
        .collect()
}

/// A directory whose `session.jsonl` is the hand-made pi session.
fn pi() -> Dir {
    let dir = Dir::new();
    dir.fixture("pi/handmade.jsonl", "session.jsonl");
    dir
}

/// One pi entry line.
fn entry(kind: &str, id: &str, parent: Option<&str>, rest: &str) -> String {
    let parent = parent.map_or("null".to_string(), |p| format!("\"{p}\""));
    format!(
        r#"{{"type":"{kind}","id":"{id}","parentId":{parent},"timestamp":"2025-10-09T08:53:2{}.000Z"{rest}}}"#,
        id.len() % 10
    )
}

const HEADER: &str = r#"{"type":"session","version":3,"id":"0193f0a0-0000-7000-8000-000000000001","timestamp":"2025-10-09T08:53:20.000Z","cwd":"/work"}"#;

fn user(id: &str, parent: Option<&str>, text: &str) -> String {
    entry(
        "message",
        id,
        parent,
        &format!(r#","message":{{"role":"user","content":"{text}","timestamp":1}}"#),
    )
}

fn label(id: &str, parent: &str, target: &str, name: &str) -> String {
    entry(
        "label",
        id,
        Some(parent),
        &format!(r#","targetId":"{target}","label":"{name}""#),
    )
}

#[test]
fn a_pi_session_is_recognised_by_its_header_and_logged_with_its_labels() {
    let dir = pi();
    dir.run(&["fsck", "-v"]).status(0).stderr("").stdout(
        "session.jsonl: ok; pi session, 7 entries (and 2 label changes and ysess records), 1 root, 2 branch tips, \
         2 labels, HEAD 1a2b3c4d at depth 4\n",
    );
    dir.run(&["log", "--oneline"]).status(0).stderr("").stdout(
        "\
1a2b3c4d (HEAD) custom compaction: The user asked for a plan.
0a1b2c3d (retry) user: Try again
b2c3d4e5 assistant claude-sonnet-4-5: bash {\"command\":\"ls\"}
a1b2c3d4 user: Draft a plan
",
    );
    dir.run(&["tag"])
        .status(0)
        .stdout("first-draft  d4e5f6a7\nretry        0a1b2c3d\n");
}

#[test]
fn show_says_the_format_and_reads_pi_messages_and_compactions() {
    let dir = pi();
    dir.run(&["show", "first-draft"])
        .status(0)
        .stderr("")
        .stdout(
            "\
entry d4e5f6a7 (first-draft)
Parent:   c3d4e5f6
Role:     assistant
Model:    claude-sonnet-4-5 (anthropic)
Stop:     stop
Usage:    20 in, 7 out, 0 cache read, 0 cache write
Time:     2025-10-09 08:53:24 +00:00
Format:   pi
Children: f6a7b8c9

    Plan: read a.txt
",
        );
    let run = dir.run(&["show"]);
    run.status(0);
    assert!(
        run.stdout.starts_with(
            "entry 1a2b3c4d (HEAD)\nParent:   0a1b2c3d\nRole:     custom\nKind:     compaction\n"
        ),
        "{run}"
    );
    assert!(
        run.stdout.contains("\"firstKeptEntryId\": \"0a1b2c3d\""),
        "{run}"
    );
}

#[test]
fn the_graph_branches_and_diff_of_a_pi_session() {
    let dir = pi();
    let run = dir.run(&["log", "--graph"]);
    run.status(0);
    let ids: Vec<&str> = run
        .stdout
        .lines()
        .filter_map(|l| {
            l.split_whitespace()
                .find(|w| w.len() == 8 && w.chars().all(|c| c.is_ascii_hexdigit()))
        })
        .collect();
    assert_eq!(
        ids,
        [
            "1a2b3c4d", "0a1b2c3d", "f6a7b8c9", "d4e5f6a7", "c3d4e5f6", "b2c3d4e5", "a1b2c3d4"
        ],
        "{run}"
    );
    assert_eq!(tips(&dir), ["1a2b3c4d", "f6a7b8c9"]);
    let run = dir.run(&["diff", "first-draft", "retry", "--summary"]);
    run.status(0).stdout(
        "\
fork point b2c3d4e5 assistant claude-sonnet-4-5: bash {\"command\":\"ls\"}
--- d4e5f6a7 (2 turns after the fork)
+++ 0a1b2c3d (1 turn after the fork)
- c3d4e5f6 toolResult bash: a.txt
- d4e5f6a7 assistant claude-sonnet-4-5: Plan: read a.txt
+ 0a1b2c3d user: Try again
",
    );
}

#[test]
fn export_gives_pi_s_own_messages_and_log_json_its_lines() {
    let dir = pi();
    let run = dir.run(&["export", "first-draft"]);
    run.status(0);
    let messages: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let roles: Vec<&str> = messages
        .as_array()
        .expect("an array")
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "toolResult", "assistant"],
        "{run}"
    );
    assert_eq!(messages[0]["content"], "Draft a plan");
    let run = dir.run(&["log", "--json", "-n", "1"]);
    let lines = run.json_lines();
    assert_eq!(lines[0]["type"], "compaction", "{run}");
    assert_eq!(lines[0]["tokensBefore"], 1234, "{run}");
}

#[test]
fn ysess_appends_no_messages_to_a_pi_session_and_exports_it_as_no_yoagent_session() {
    let dir = pi();
    let before = dir.read("session.jsonl");
    let run = dir.run(&["append", "--user", "hi"]);
    run.status(128);
    assert!(
        run.stderr.contains(
            "a pi session: ysess appends messages to yoagent sessions only; nothing was written"
        ),
        "{run}"
    );
    dir.run(&["export", "--session"]).status(128);
    assert_eq!(dir.read("session.jsonl"), before);
}

#[test]
fn tag_checkout_and_branch_append_entries_pi_writes_and_ysess_reads_back() {
    let dir = pi();
    dir.run(&["tag", "-q", "mark", "a1b2c3d4"]).status(0);
    dir.run(&["checkout", "-q", "first-draft"]).status(0);
    dir.run(&["branch", "-q", "lib", "0a1b2c3d"]).status(0);
    dir.run(&["tag", "-q", "-d", "retry"]).status(0);
    let text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
    let added: Vec<serde_json::Value> = text
        .lines()
        .skip(10)
        // Each batch starts with its own newline (docs/writing-safely.md).
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let kinds: Vec<String> = added
        .iter()
        .map(|e| {
            format!(
                "{} {}",
                e["type"].as_str().unwrap_or_default(),
                e["customType"]
                    .as_str()
                    .or(e["label"].as_str())
                    .unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "label mark",
            "custom ysess.checkout",
            "custom ysess.branch",
            "custom ysess.checkout",
            "label "
        ]
    );
    for e in &added {
        let id = e["id"].as_str().unwrap_or_default();
        assert!(
            id.len() == 8 && id.chars().all(|c| c.is_ascii_hexdigit()),
            "{e}"
        );
        assert!(
            e["timestamp"].as_str().is_some_and(|t| t.ends_with('Z')),
            "{e}"
        );
    }
    // A label change hangs from pi's leaf; the checkout from its target.
    assert_eq!(added[0]["parentId"], "2a3b4c5d");
    assert_eq!(added[0]["targetId"], "a1b2c3d4");
    assert_eq!(added[1]["parentId"], "d4e5f6a7");
    dir.run(&["log", "--oneline", "-n", "1"]).status(0).stdout(
        "d4e5f6a7 (HEAD, first-draft) assistant claude-sonnet-4-5: Plan: read a.txt
",
    );
    dir.run(&["tag"]).status(0).stdout(
        "first-draft  d4e5f6a7
mark         a1b2c3d4
",
    );
    let run = dir.run(&["branch", "--json"]);
    assert!(
        run.json_lines()
            .iter()
            .any(|b| b["name"] == "lib" && b["tip"] == "0a1b2c3d"),
        "{run}"
    );
    dir.run(&["fsck"]).status(0).stderr("");
}

#[test]
fn pi_labels_are_one_per_entry_the_newest_wins_and_an_empty_one_clears() {
    let dir = Dir::new();
    let lines = [
        HEADER.to_string(),
        user("a0000001", None, "one"),
        user("a0000002", Some("a0000001"), "two"),
        user("a0000003", Some("a0000002"), "three"),
        // `old` then `new` on the first entry: only `new` is left on it.
        label("b0000001", "a0000003", "a0000001", "old"),
        label("b0000002", "b0000001", "a0000001", "new"),
        // `keep` on two entries: pi shows it on both.
        label("b0000003", "b0000002", "a0000002", "keep"),
        label("b0000004", "b0000003", "a0000003", "keep"),
        // `gone` set, then cleared.
        label("b0000005", "b0000004", "a0000002", "gone"),
        label("b0000006", "b0000005", "a0000002", ""),
    ];
    dir.write("session.jsonl", lines.join("\n") + "\n");
    dir.run(&["tag"])
        .status(0)
        .stderr("")
        .stdout("keep  a0000003\nnew   a0000001\n");
    // The clear removed `gone` and with it the second entry's label, as pi's
    // `getLabel` has it: one label per entry.
    dir.run(&["log", "--oneline"]).status(0).stdout(
        "\
a0000003 (HEAD, keep) user: three
a0000002 user: two
a0000001 (new) user: one
",
    );
    // The newest label change decides what a name resolves to.
    dir.run(&["log", "--format", "{id}", "-n", "1", "keep"])
        .status(0)
        .stdout("a0000003\n");
    dir.run(&["fsck"]).status(0).stderr("");
}

#[test]
fn fsck_says_what_pi_would_silently_get_wrong() {
    let dir = Dir::new();
    let lines = [
        HEADER.to_string(),
        user("a0000001", None, "one"),
        entry("weird", "a0000002", Some("a0000001"), ""),
        label("a0000003", "a0000002", "nowhere1", "x"),
        user("a0000001", Some("a0000001"), "again"),
        user("a0000004", Some("a0000009"), "lost"),
        HEADER.to_string(),
        "{\"type\":\"message\",\"id\":\"a00".to_string(),
    ];
    dir.write("session.jsonl", lines.join("\n"));
    let run = dir.run(&["fsck"]);
    run.status(1).stdout("");
    assert_eq!(
        codes(&run),
        [
            "unknownEntryType",
            "unknownTarget",
            "duplicateId",
            "unknownParent",
            "misplacedHeader",
            "truncatedLastLine"
        ],
        "{run}"
    );
    // Without a header pi starts the file afresh: every entry is lost.
    let dir = Dir::new();
    dir.write("session.jsonl", user("a0000001", None, "one") + "\n");
    let run = dir.run(&["--format-of", "pi", "fsck"]);
    run.status(1);
    assert!(
        run.stderr.starts_with(
            "error: session.jsonl:1: missingHeader: the first line is not a session header"
        ),
        "{run}"
    );
}

#[test]
fn format_of_forces_the_format_and_fsck_json_names_it() {
    let dir = pi();
    let run = dir.run(&["fsck", "--json"]);
    let summary = run.json_lines().pop().expect("a summary");
    assert_eq!(summary["format"], "pi", "{run}");
    // Read as yoagent's, the same file is not a session at all.
    let run = dir.run(&["--format-of", "yoagent", "fsck", "--json"]);
    run.status(1);
    let summary = run.json_lines().pop().expect("a summary");
    assert_eq!(summary["format"], "yoagent", "{run}");
    let run = crate::support::demo().run(&["fsck", "--json"]);
    assert_eq!(
        run.json_lines().pop().expect("a summary")["format"],
        "yoagent"
    );
}

/// A directory whose `session.jsonl` is the hand-built Claude Code session
/// (`tests/fixtures/claude/`, with its FORMAT.md and EXPECTED.md).
fn claude() -> Dir {
    let dir = Dir::new();
    dir.fixture("claude/session.jsonl", "session.jsonl");
    dir
}

/// EXPECTED.md's main-thread path, root first: through the compaction's
/// `logicalParentUuid`, sidechains and lines without a uuid left out.
const CLAUDE_PATH: [&str; 20] = [
    "e8d79f49-af6d-414c-8a6f-188a424e617b",
    "e3d6e4b9-d96e-482d-8d50-2d42af1ffe0d",
    "aa8b230f-3b05-4392-a6ea-1c0d2f8b9e9d",
    "a415c4c8-39a4-4721-9e85-eb9025ac45a0",
    "1221b5a2-2155-441c-aff7-c0fcbbe8f88d",
    "bea4256e-36c2-44c7-9885-bbac88043e5f",
    "2054fa81-6e7c-4c6a-87ac-5fed4b6ea010",
    "ff7d5ec0-9bc0-4e20-af25-29cad670a838",
    "432ff218-ce59-45e6-a36b-0753cf4b1858",
    "6fcfd73d-bea7-4239-b379-0dfbd38cadcd",
    "a37e3728-6e08-4514-a37d-37395d3c6201",
    "58921843-1e0b-4ee5-a7be-99ae5052aa32",
    "a23fb787-cc5a-4d8f-983c-a1bed1d42a63",
    "72c8dd98-b0e0-4e90-834c-bf26fc559a25",
    "fcb627af-bf97-4520-9c76-df528de1c743",
    "ba9c678a-ad44-4d8b-b0bc-b8e32285c6af",
    "4b1634e1-2d37-4e81-8935-b8267182a8d0",
    "5b331999-85cf-4a6b-aded-f12233df56d4",
    "4302da54-759f-4b43-9f01-3c8240d90a1e",
    "e3a707d6-6550-4ac4-87b7-097b9b01f7cc",
];

#[test]
fn a_claude_code_session_logs_its_main_thread_through_the_compaction() {
    let dir = claude();
    dir.run(&["fsck", "-v"]).status(0).stderr("").stdout(
        "session.jsonl: ok; claude session, 22 entries (and 4 bookkeeping lines), 1 root, \
         2 branch tips, 0 labels, HEAD e3a707d6 at depth 20\n",
    );
    let run = dir.run(&["log", "--reverse", "--format", "{id}"]);
    run.status(0);
    assert_eq!(run.stdout.lines().collect::<Vec<_>>(), CLAUDE_PATH, "{run}");
    // The compaction continues its logical parent: one root, no extra tip.
    assert_eq!(
        tips(&dir),
        [
            "e3a707d6-6550-4ac4-87b7-097b9b01f7cc",
            "cb4ac8b4-df0c-441f-95bf-54df258ececb"
        ]
    );
    dir.run(&["log", "--oneline", "-n", "3"]).status(0).stdout(
        "\
e3a707d6 (HEAD) assistant claude-sonnet-4-5-20250929: `ystats stats --json` now prints the stats as one JSON object; all 42 tests pass.
4302da54 toolResult Bash: running 42 tests
5b331999 assistant claude-sonnet-4-5-20250929: Bash {\"command\":\"cargo test\",\"description\":\"Run all tests\"}
",
    );
}

#[test]
fn claude_code_sidechains_are_folded_and_markers_show_them() {
    let dir = claude();
    let task = "6fcfd73d-bea7-4239-b379-0dfbd38cadcd";
    let run = dir.run(&["show", task]);
    run.status(0);
    // The subagent's thread hangs from the Task call, but is not its child
    // in the user's tree.
    assert!(run.stdout.contains("Children: a37e3728\n"), "{run}");
    let run = dir.run(&["log", "--all", "--format", "{id}"]);
    assert_eq!(run.stdout.lines().count(), 22, "{run}");
    let run = dir.run(&["log", "--all", "--markers", "--format", "{id}"]);
    assert_eq!(run.stdout.lines().count(), 26, "{run}");
    assert!(
        run.stdout
            .contains("abb4da1c-6df8-4cf6-bb3e-7196906b630c\n"),
        "{run}"
    );
}

#[test]
fn claude_code_lines_show_as_messages_and_the_compaction_as_such() {
    let dir = claude();
    dir.run(&["show", "2054fa81"]).status(0).stdout(
        "\
entry 2054fa81
Parent:   bea4256e
Role:     toolResult
Tool:     Bash [toolu_01XqUEgDIp2OWjwAl9GRhqsD]
Result:   error
Time:     2025-10-14 09:12:18 +00:00
Format:   claude
Children: ff7d5ec0

    [error]
    Exit code 101
    error[E0425]: cannot find function `collect_stats` in this scope
      --> tests/stats.rs:7:13
",
    );
    let run = dir.run(&["log", "--oneline", "-n", "6"]);
    assert!(
        run.stdout
            .ends_with("fcb627af custom compact_boundary: Conversation compacted (manual, 48213 tokens before)\n"),
        "{run}"
    );
}

#[test]
fn a_claude_code_response_over_several_lines_counts_its_usage_once() {
    let dir = claude();
    // After the first user line to A3: one response (msg_018a…) over
    // three lines.
    let run = dir.run(&["diff", "--stat", "e8d79f49", "a415c4c8"]);
    run.status(0);
    let b = run
        .stdout
        .lines()
        .find(|l| l.starts_with(" b: "))
        .unwrap_or_default()
        .to_string();
    // Its usage (EXPECTED.md): 4 in, 312 out, once, not three times.
    assert!(b.contains("4 tokens in, 312 out"), "{run}");
}

#[test]
fn claude_code_files_are_checked_and_never_written_to() {
    let dir = Dir::new();
    dir.fixture("claude/broken.jsonl", "session.jsonl");
    let run = dir.run(&["fsck"]);
    run.status(1);
    assert_eq!(
        codes(&run),
        [
            "invalidJson",
            "repeatedUuid",
            "danglingParent",
            "multipleRoots",
            "truncatedLastLine"
        ],
        "{run}"
    );
    // Claude Code skips the lines it cannot read and reads the rest: so do
    // the commands that show it (fsck reports the damage).
    for args in [&["log"][..], &["stats"], &["branch", "-v"], &["show"]] {
        dir.run(args).status(0);
    }
    let before = dir.read("session.jsonl");
    let run = dir.run(&["fsck", "--repair"]);
    assert!(
        run.stderr
            .contains("not repaired: a claude session is left to the app that owns it"),
        "{run}"
    );
    let dir = claude();
    let session = dir.read("session.jsonl");
    // ysess's records go beside the file, in its refs store.
    for args in [
        &["tag", "x", "HEAD"][..],
        &["checkout", "e8d79f49"],
        &["branch", "lib"],
    ] {
        dir.run(args).status(0);
    }
    let run = dir.run(&["append", "--user", "hi"]);
    run.status(128);
    assert!(
        run.stderr.contains(
            "a claude session: ysess reads it, and leaves writing it to the app that owns it"
        ),
        "{run}"
    );
    assert_eq!(
        dir.read("session.jsonl"),
        session,
        "the app's file is as it wrote it"
    );
    assert_eq!(
        std::fs::read(crate::support::fixture("claude/broken.jsonl")).expect("reads"),
        before
    );
}

#[test]
fn claude_code_graph_and_export_follow_the_main_thread() {
    let dir = claude();
    let run = dir.run(&["log", "--graph", "--ascii", "--format", "{id}"]);
    run.status(0);
    let short: Vec<String> = run
        .stdout
        .lines()
        .map(|l| l.split('-').next().unwrap_or_default().to_string())
        .collect();
    assert_eq!(
        short,
        [
            "@  e3a707d6",
            "o  4302da54",
            "o  5b331999",
            "o  4b1634e1",
            "o  ba9c678a",
            "o  fcb627af",
            "o  72c8dd98",
            "o  a23fb787",
            "o  58921843",
            "o  a37e3728",
            "o  6fcfd73d",
            "o  432ff218",
            "| o  cb4ac8b4",
            "| o  d59a0625",
            "|/",
            "o  ff7d5ec0",
            "o  2054fa81",
            "o  bea4256e",
            "o  1221b5a2",
            "o  a415c4c8",
            "o  aa8b230f",
            "o  e3d6e4b9",
            "#  e8d79f49",
        ],
        "{run}"
    );
    // What Claude Code resumes: after the compaction, its summary first
    // and what follows it; the history before stays in the tree above.
    let run = dir.run(&["export"]);
    let messages: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let messages = messages.as_array().expect("an array");
    assert_eq!(messages.len(), 5, "{run}");
    assert_eq!(messages[0]["role"], "user");
    assert!(
        messages[0]["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("This session is being continued")),
        "{run}"
    );
    assert!(
        !run.stdout.contains("msg_018aVZFaFuCiN84RfezTO0kR"),
        "a reply from before the compaction: {run}"
    );
}

#[test]
fn format_of_is_honoured_by_log_n_and_repeated_in_hints() {
    // Read as pi's, a yoagent session is not a session: `log -n` must not
    // take its fast road through yoagent's lines.
    let run = crate::support::demo().run(&["--format-of", "pi", "log", "-n", "2"]);
    run.status(128).stdout("");
    assert!(
        run.stderr
            .contains("missing field `type` (pi reads an entry by its type)"),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("hint: `ysess --format-of pi fsck session.jsonl` lists every problem"),
        "{run}"
    );
}

#[test]
fn fsck_checks_ysess_records_in_a_pi_session_as_in_a_yoagent_one() {
    let dir = Dir::new();
    let record = |id: &str, parent: &str, kind: &str, data: &str| {
        entry(
            "custom",
            id,
            Some(parent),
            &format!(r#","customType":"{kind}","data":{data}"#),
        )
    };
    let lines = [
        HEADER.to_string(),
        user("a0000001", None, "one"),
        user("a0000002", Some("a0000001"), "two"),
        // Sound: a branch hung from its base, a checkout from its target.
        record(
            "b0000001",
            "a0000001",
            "ysess.branch",
            r#"{"name":"lib","target":"a0000001"}"#,
        ),
        record(
            "b0000002",
            "a0000002",
            "ysess.checkout",
            r#"{"target":"a0000002"}"#,
        ),
        // Forged: a branch hung away from its target, a checkout that names
        // another entry than the one it resumes at, a record with no data,
        // and a tag record (pi's labels are its own entries).
        record(
            "b0000003",
            "a0000002",
            "ysess.branch",
            r#"{"name":"x","target":"a0000001"}"#,
        ),
        record(
            "b0000004",
            "a0000002",
            "ysess.checkout",
            r#"{"target":"a0000001"}"#,
        ),
        record("b0000005", "a0000002", "ysess.branch-delete", "{}"),
        record(
            "b0000006",
            "a0000002",
            "ysess.tag",
            r#"{"name":"t","target":"a0000002"}"#,
        ),
    ];
    dir.write("session.jsonl", lines.join("\n") + "\n");
    let run = dir.run(&["fsck"]);
    run.status(0);
    let flagged: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains(": invalidRecord: "))
        .filter_map(|l| l.split(':').nth(2))
        .collect();
    assert_eq!(flagged, ["6", "7", "8", "9"], "{run}");
    assert!(
        run.stderr
            .contains("its target a0000001 is not the entry it hangs from"),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("in a pi session a label is pi's own `label` entry"),
        "{run}"
    );
}
