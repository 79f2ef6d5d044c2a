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
fn markdown_works_for_pi_and_claude_code_sessions() {
    for name in ["pi/demo.jsonl", "claude/session.jsonl"] {
        let dir = Dir::new();
        dir.fixture(name, "session.jsonl");
        let path = dir.run(&["log", "--reverse", "--format", "{short_id}"]);
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

// ---------------------------------------------------------------------------
// `-o FILE`: written whole, beside the target, never over an input
// ---------------------------------------------------------------------------

#[test]
fn export_html_over_the_session_file_is_refused_and_the_session_untouched() {
    let dir = demo();
    let before = dir.read("session.jsonl");
    for args in [
        &[
            "-f",
            "session.jsonl",
            "export",
            "--html",
            "-o",
            "session.jsonl",
        ][..],
        &["export", "--session", "-o", "./session.jsonl"],
    ] {
        let run = dir.run(args);
        run.status(128).stdout("");
        assert!(
            run.stderr.starts_with("error: ") && run.stderr.contains("session.jsonl"),
            "{run}"
        );
        assert!(run.stderr.contains("nothing was written"), "{run}");
        assert_eq!(dir.read("session.jsonl"), before, "{run}");
    }
    // Through a symbolic link to it, too.
    std::os::unix::fs::symlink(dir.join("session.jsonl"), dir.join("link.html")).expect("link");
    dir.run(&["export", "--html", "-o", "link.html"])
        .status(128);
    assert_eq!(dir.read("session.jsonl"), before);
}

#[test]
fn export_to_a_fifo_or_a_device_writes_it_in_place_instead_of_replacing_it() {
    let dir = demo();
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(&fifo).expect("the FIFO reads"))
    };
    dir.run(&["export", "--markdown", "-o", "pipe"])
        .status(0)
        .stderr("");
    let got = String::from_utf8(reader.join().expect("reader")).expect("UTF-8");
    assert!(got.starts_with("# session.jsonl\n"), "{got}");
    use std::os::unix::fs::FileTypeExt;
    assert!(
        std::fs::metadata(&fifo)
            .expect("still there")
            .file_type()
            .is_fifo(),
        "still a FIFO"
    );

    // /dev/stdout is where standard output goes.
    let run = dir.run(&["export", "--markdown", "-o", "/dev/stdout"]);
    run.status(0).stderr("");
    assert!(run.stdout.starts_with("# session.jsonl\n"), "{run}");
    // /dev/null stays a device.
    dir.run(&["export", "--html", "-o", "/dev/null"])
        .status(0)
        .stderr("");
    assert!(!std::fs::metadata("/dev/null").expect("meta").is_file());
}

#[test]
fn a_write_error_of_export_names_the_output_file() {
    let run = demo().run(&["export", "--html", "-o", "/dev/full"]);
    run.status(128).stdout("");
    assert!(run.stderr.contains("/dev/full"), "{run}");
    assert!(!std::fs::metadata("/dev/full").expect("meta").is_file());
    let run = demo().run(&["export", "--html", "-o", "no/such/dir/page.html"]);
    run.status(128);
    assert!(run.stderr.contains("no/such/dir/page.html"), "{run}");
}

#[test]
fn a_symlink_planted_at_the_old_temporary_name_is_not_followed() {
    let dir = demo();
    let victim = dir.write("victim", "keep me");
    std::os::unix::fs::symlink(&victim, dir.join(".page.html.part")).expect("plant");
    dir.run(&["export", "--html", "-o", "page.html"])
        .status(0)
        .stderr("");
    assert_eq!(dir.read("victim"), b"keep me");
    assert!(
        String::from_utf8(dir.read("page.html"))
            .expect("UTF-8")
            .contains("<html")
    );
}

#[test]
fn concurrent_exports_to_one_path_each_leave_a_whole_file() {
    let dir = demo();
    dir.write(
        "other.jsonl",
        crate::support::user_line("e1", None, "another session"),
    );
    let whole = |session: &str| {
        let run = dir.run(&["-f", session, "export", "--session"]);
        run.status(0);
        run.stdout.clone()
    };
    let wants = [whole("session.jsonl"), whole("other.jsonl")];
    for round in 0..8 {
        std::thread::scope(|s| {
            for k in 0..6 {
                let dir = &dir;
                s.spawn(move || {
                    let session = if k % 2 == 0 {
                        "session.jsonl"
                    } else {
                        "other.jsonl"
                    };
                    dir.run(&["-f", session, "export", "--session", "-o", "out.jsonl"])
                        .status(0);
                });
            }
        });
        let got = String::from_utf8(dir.read("out.jsonl")).expect("UTF-8");
        // The records' times differ from run to run: compare the entries.
        let entries = |text: &str| -> Vec<String> {
            text.lines()
                .filter(|l| !l.contains("\"ysess."))
                .map(str::to_string)
                .collect()
        };
        assert!(
            wants.iter().any(|w| entries(w) == entries(&got)),
            "round {round}: a page made of more than one export:\n{got}"
        );
    }
    let left: Vec<String> = std::fs::read_dir(dir.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
}

#[test]
fn export_of_a_private_session_is_private_and_an_existing_output_keeps_its_mode() {
    use std::os::unix::fs::PermissionsExt;
    let dir = demo();
    let mode = |name: &str| {
        std::fs::metadata(dir.join(name))
            .expect("meta")
            .permissions()
            .mode()
            & 0o777
    };
    let chmod = |name: &str, m: u32| {
        std::fs::set_permissions(dir.join(name), std::fs::Permissions::from_mode(m)).expect("chmod")
    };
    chmod("session.jsonl", 0o600);
    dir.run(&["export", "--html", "-o", "page.html"]).status(0);
    assert_eq!(
        mode("page.html"),
        0o600,
        "no more readable than the session"
    );

    chmod("session.jsonl", 0o644);
    dir.write("kept.md", "old");
    chmod("kept.md", 0o600);
    dir.run(&["export", "--markdown", "-o", "kept.md"])
        .status(0);
    assert_eq!(mode("kept.md"), 0o600, "an existing file keeps its mode");
    assert_ne!(dir.read("kept.md"), b"old");
}
