//! `ysess fsck`: what a person sees, and what CI relies on.

use std::io::Read;
use std::process::{Command, Stdio};

use crate::sessgen as sg;
use crate::support::{Dir, demo, fixture, user_line};

fn session(lines: &[String]) -> String {
    lines.join("\n")
}

fn findings(run: &crate::support::Run) -> Vec<(String, Option<u64>, String)> {
    run.json_lines()
        .into_iter()
        .filter(|v| v["type"] == "finding")
        .map(|v| {
            (
                v["code"].as_str().unwrap_or_default().to_string(),
                v["line"].as_u64(),
                v["severity"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

#[test]
fn a_clean_session_prints_nothing_and_exits_0() {
    let dir = Dir::new();
    dir.fixture("small-forked.jsonl", "session.jsonl");
    dir.run(&["fsck"]).status(0).stdout("").stderr("");
}

/// The benches' session generator writes what yoagent writes (it loads and
/// saves back byte for byte) and a session ysess finds sound.
#[test]
fn the_bench_session_is_what_yoagent_writes_and_fsck_finds_it_sound() {
    let text = sg::generate_jsonl(2_000, sg::DEFAULT_SEED);
    let session = sg::reload(&text);
    assert_eq!(session.entries().len(), 2_000);
    assert!(session.to_jsonl() == text, "yoagent saves it differently");
    let dir = Dir::new();
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck"]);
    run.status(0).stdout("");
    // Its labels repeat on purpose; fsck says so, and nothing else.
    let warnings = run.stderr.lines();
    assert!(
        warnings.clone().all(|l| l.contains(": duplicateLabel: ")),
        "{run}"
    );
}

#[test]
fn verbose_adds_one_summary_line_per_file() {
    let dir = Dir::new();
    dir.fixture("small-forked.jsonl", "a.jsonl");
    dir.fixture("linear.jsonl", "b.jsonl");
    dir.run(&["fsck", "-v", "-q", "a.jsonl", "b.jsonl"]).status(0).stdout(
        "a.jsonl: ok; yoagent session, 12 entries, 1 root, 3 branch tips, 4 labels, HEAD e12 at depth 7\n\
         b.jsonl: 0 errors, 1 warning; yoagent session, 6 entries, 1 root, 1 branch tip, 2 labels, HEAD e6 at depth 6\n",
    );
}

#[test]
fn every_problem_is_reported_one_line_each_on_stderr() {
    let dir = Dir::new();
    let text = session(&[
        user_line("e1", None, "hello"),
        user_line("e2", Some("e1"), "again"),
        user_line("e2", Some("e1"), "duplicate"),
        user_line("e4", Some("e9"), "dangling"),
        user_line("e5", Some("e5"), "self"),
        r#"{"id":"e6","parent_id":"e1","message":{"role":"assistant","content":[],"stopReason":"stop","model":"m","provider":"p","timestamp":1},"timestamp":1760000000000}"#.to_string(),
        r#"{"id":"e7","parent_id":"e1","message":{"role":"user","content":[{"type":"text","text":"cut"#.to_string(),
    ]);
    dir.write("session.jsonl", &text);
    let torn_at = text.rfind('\n').expect("several lines") + 1;
    let torn_len = text.len() - torn_at;
    dir.run(&["fsck"]).status(1).stdout("").stderr(&format!(
        "error: session.jsonl:3: duplicateId: entry e2 already defined at line 2\n\
         error: session.jsonl:4: unknownParent: entry e4: parent e9 is not defined in this file\n\
         error: session.jsonl:5: selfParent: entry e5 names itself as its parent\n\
         error: session.jsonl:6: invalidMessage: message (assistant): missing field `usage`\n\
         error: session.jsonl:7: truncatedLastLine: the last line is cut short, as by an interrupted write; \
         the file is sound up to byte {torn_at}, and `ysess fsck --repair` cuts the {torn_len} torn bytes after it\n",
    ));
}

#[test]
fn json_has_one_object_per_finding_then_a_summary_per_file_in_argument_order() {
    let dir = Dir::new();
    dir.write(
        "bad.jsonl",
        session(&[user_line("e1", None, "a"), user_line("e1", None, "b")]),
    );
    dir.fixture("small-forked.jsonl", "good.jsonl");
    let run = dir.run(&["fsck", "--json", "good.jsonl", "bad.jsonl"]);
    run.status(1);
    let lines = run.json_lines();
    assert_eq!(lines.len(), 3, "{run}");
    assert_eq!(lines[0]["type"], "summary");
    assert_eq!(lines[0]["file"], "good.jsonl");
    assert_eq!(lines[0]["ok"], true);
    assert_eq!(lines[0]["entries"], 12);
    assert_eq!(lines[0]["tips"], 3);
    assert_eq!(lines[0]["head"], "e12");
    assert_eq!(lines[1]["type"], "finding");
    assert_eq!(lines[1]["file"], "bad.jsonl");
    assert_eq!(lines[1]["line"], 2);
    assert_eq!(lines[1]["severity"], "error");
    assert_eq!(lines[1]["code"], "duplicateId");
    assert_eq!(lines[1]["id"], "e1");
    let first_line_len = user_line("e1", None, "a").len() as u64;
    assert_eq!(lines[1]["offset"], first_line_len + 1);
    assert_eq!(lines[2]["type"], "summary");
    assert_eq!(lines[2]["ok"], false);
    assert_eq!(lines[2]["errors"], 1);
    assert!(run.stderr.is_empty(), "{run}");
}

#[test]
fn warnings_fail_only_with_strict() {
    let dir = Dir::new();
    let text = session(&[
        user_line("e1", None, "a"),
        user_line("x-2", None, "second root, odd id"),
        serde_json::json!({"id": "e3", "parent_id": "e1", "label": "", "timestamp": 1,
            "message": {"role": "user", "content": [], "timestamp": 1}})
        .to_string(),
    ]);
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck", "--json"]);
    run.status(0);
    let mut got = findings(&run);
    got.sort();
    assert_eq!(
        got,
        vec![
            ("emptyLabel".to_string(), Some(3), "warning".to_string()),
            ("multipleRoots".to_string(), Some(2), "warning".to_string()),
            ("nonStandardId".to_string(), Some(2), "warning".to_string()),
            (
                "olderThanParent".to_string(),
                Some(3),
                "warning".to_string()
            ),
        ]
    );
    dir.run(&["fsck", "--strict", "-q"]).status(1).stderr("");
}

#[test]
fn duplicate_labels_say_which_one_yoagent_picks() {
    let dir = Dir::new();
    let mut session = yoagent::Session::new();
    session.append(yoagent::types::Message::user("first").into());
    session.checkpoint("draft").expect("head exists");
    session.append(yoagent::types::Message::user("second").into());
    session.checkpoint("draft").expect("head exists");
    dir.write("session.jsonl", session.to_jsonl());
    dir.run(&["fsck"]).status(0).stderr(
        "warning: session.jsonl:1: duplicateLabel: label `draft` is also on e2 (line 2); \
         yoagent's seek_checkpoint picks the last one, e2\n",
    );
}

#[test]
fn tool_calls_and_results_that_do_not_pair_up_are_warnings() {
    let dir = Dir::new();
    let assistant = |id: &str, parent: &str, call: &str| {
        serde_json::json!({"id": id, "parent_id": parent, "timestamp": 1_760_000_000_002u64, "message": {
            "role": "assistant", "stopReason": "toolUse", "model": "m", "provider": "p",
            "usage": {"input": 1, "output": 1}, "timestamp": 2,
            "content": [{"type": "toolCall", "id": call, "name": "bash", "arguments": {}}]}})
        .to_string()
    };
    let result = |id: &str, parent: &str, call: &str| {
        serde_json::json!({"id": id, "parent_id": parent, "timestamp": 1_760_000_000_003u64, "message": {
            "role": "toolResult", "toolCallId": call, "toolName": "bash", "isError": false,
            "content": [], "timestamp": 3}})
        .to_string()
    };
    let text = session(&[
        user_line("e1", None, "go"),
        assistant("e2", "e1", "call_1"),
        result("e3", "e2", "call_1"),
        result("e4", "e1", "call_1"),
        assistant("e5", "e3", "call_2").replace("1760000000002", "1760000000005"),
    ]);
    dir.write("session.jsonl", &text);
    dir.run(&["fsck"]).status(0).stderr(
        "warning: session.jsonl:4: orphanToolResult: tool result e4 answers call `call_1`, \
         which no assistant message earlier on its path makes\n\
         warning: session.jsonl:5: unansweredToolCall: entry e5 calls `call_2` but the branch \
         ending at e5 has no result for it\n",
    );
}

#[test]
fn repair_cuts_only_a_torn_last_line_and_keeps_the_bytes() {
    let dir = Dir::new();
    let good = session(&[user_line("e1", None, "a"), user_line("e2", Some("e1"), "b")]);
    let torn = &user_line("e3", Some("e2"), "c")[..30];
    dir.write("session.jsonl", format!("{good}\n{torn}"));
    let cut_at = good.len() + 1;
    dir.run(&["fsck", "--repair"])
        .status(0)
        .stdout("")
        .stderr(&format!(
            "session.jsonl: cut the torn last line (30 bytes at offset {cut_at}); \
         they are saved in session.jsonl.torn-{cut_at}\n"
        ));
    assert_eq!(dir.read("session.jsonl"), format!("{good}\n").into_bytes());
    assert_eq!(
        dir.read(&format!("session.jsonl.torn-{cut_at}")),
        torn.as_bytes()
    );
    let text = String::from_utf8(dir.read("session.jsonl")).expect("utf-8");
    let loaded = yoagent::Session::from_jsonl(&text).expect("yoagent loads the repaired file");
    assert_eq!(loaded.head(), Some("e2"));
    dir.run(&["fsck"]).status(0).stderr("");
}

#[test]
fn repair_refuses_everything_but_a_torn_last_line() {
    let dir = Dir::new();
    let text = session(&[
        user_line("e1", None, "a"),
        "{not json".to_string(),
        user_line("e3", Some("e1"), "c"),
    ]);
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck", "--repair"]);
    run.status(1);
    assert!(
        run.stderr
            .contains("session.jsonl: nothing to repair: no torn last line\n")
            && !run.stderr.contains("hint: session.jsonl: nothing"),
        "{run}"
    );
    assert!(
        run.stderr.contains("error: session.jsonl:2: invalidJson: "),
        "{run}"
    );
    assert_eq!(
        dir.read("session.jsonl"),
        text.as_bytes(),
        "the file is untouched"
    );
}

#[test]
fn digest_then_since_proves_the_file_only_grew() {
    let dir = Dir::new();
    let first = user_line("e1", None, "a");
    dir.write("session.jsonl", &first);
    let run = dir.run(&["fsck", "--digest"]);
    run.status(0);
    let digest = run.stdout.trim().to_string();
    assert!(
        digest.starts_with("sha256:") && digest.ends_with(&format!(":{}", first.len())),
        "{run}"
    );

    // yoagent appends by saving the whole file again: old bytes, newline, new line.
    dir.write(
        "session.jsonl",
        format!("{first}\n{}", user_line("e2", Some("e1"), "b")),
    );
    dir.run(&["fsck", "--since", &digest]).status(0).stderr("");

    dir.write("session.jsonl", user_line("e1", None, "A"));
    let run = dir.run(&["fsck", "--since", &digest]);
    run.status(1);
    assert!(
        run.stderr
            .starts_with("error: session.jsonl: digestMismatch: "),
        "{run}"
    );
}

#[test]
fn since_an_old_copy_names_the_first_rewritten_line_and_allows_a_checkpoint() {
    let dir = Dir::new();
    let mut session = yoagent::Session::new();
    session.append(yoagent::types::Message::user("plan").into());
    session.append(yoagent::types::Message::user("more").into());
    dir.write("old.jsonl", session.to_jsonl());

    // An app checkpoints (a label set in place) and appends, then saves whole.
    session.checkpoint("first-draft").expect("head exists");
    session.append(yoagent::types::Message::user("after").into());
    dir.write("session.jsonl", session.to_jsonl());
    dir.run(&["fsck", "--since", "old.jsonl"]).status(0).stderr(
        "warning: session.jsonl:2: labelAddedInPlace: label `first-draft` was added to entry e2 in place \
         (as yoagent's checkpoint does), not appended; it is not in line 2 of the old copy\n",
    );

    let edited = String::from_utf8(dir.read("session.jsonl"))
        .expect("utf-8")
        .replace("\"more\"", "\"less\"");
    dir.write("session.jsonl", edited);
    let run = dir.run(&["fsck", "--since", "old.jsonl"]);
    run.status(1);
    assert!(
        run.stderr.contains(
            "error: session.jsonl:2: historyRewritten: entry e2 was rewritten since the old copy (old line 2): \
             `message` changed\n"
        ),
        "{run}"
    );
}

#[test]
fn standard_input_is_read_for_a_dash() {
    let dir = Dir::new();
    let text = std::fs::read(fixture("small-forked.jsonl")).expect("fixture");
    dir.run_stdin(&["fsck", "-v", "-"], &text)
        .status(0)
        .stdout("-: ok; yoagent session, 12 entries, 1 root, 3 branch tips, 4 labels, HEAD e12 at depth 7\n");
}

#[test]
fn the_session_file_comes_from_dash_f_env_or_dash_c() {
    let dir = Dir::new();
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    dir.fixture("small-forked.jsonl", "sub/session.jsonl");
    dir.fixture("small-forked.jsonl", "other.jsonl");
    dir.run(&["-C", "sub", "fsck", "-v"]).status(0).stdout(
        "session.jsonl: ok; yoagent session, 12 entries, 1 root, 3 branch tips, 4 labels, HEAD e12 at depth 7\n",
    );
    dir.run(&["fsck", "-v", "-f", "other.jsonl"])
        .status(0)
        .stdout(
            "other.jsonl: ok; yoagent session, 12 entries, 1 root, 3 branch tips, 4 labels, HEAD e12 at depth 7\n",
        );
    dir.run_with(&["fsck", "-v"], None, &[("YSESS_FILE", "other.jsonl")])
        .status(0)
        .stdout(
            "other.jsonl: ok; yoagent session, 12 entries, 1 root, 3 branch tips, 4 labels, HEAD e12 at depth 7\n",
        );
}

#[test]
fn a_missing_file_is_fatal_and_a_bad_command_line_is_a_usage_error() {
    let dir = Dir::new();
    dir.run(&["fsck", "nope.jsonl"]).status(128).stderr(
        "error: nope.jsonl: unreadable: cannot read: No such file or directory (os error 2)\n",
    );
    dir.run(&["fsck", "--no-such-flag"]).status(2);
    let run = dir.run(&["fsck", "--since", "sha256:zz:1"]);
    run.status(2);
    assert!(
        run.stderr
            .starts_with("error: --since `sha256:zz:1` is not a digest"),
        "{run}"
    );
}

#[test]
fn hostile_session_text_is_escaped_for_the_terminal() {
    let dir = Dir::new();
    let text = session(&[
        user_line("e1", None, "a"),
        user_line("e\u{1b}[2J\u{202e}", Some("e1"), "b"),
        user_line("e\u{1b}[2J\u{202e}", Some("e1"), "c"),
    ]);
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck"]);
    run.status(1);
    assert!(
        !run.stderr.contains('\u{1b}') && !run.stderr.contains('\u{202e}'),
        "{run}"
    );
    assert!(
        run.stderr
            .contains("entry e\\u{1b}[2J\\u{202e} already defined at line 2"),
        "{run}"
    );
    let run = dir.run(&["fsck", "--json"]);
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{202e}'),
        "{run}"
    );
    let lines = run.json_lines();
    assert_eq!(
        lines[0]["id"], "e\u{1b}[2J\u{202e}",
        "the id field keeps the raw id"
    );
}

#[test]
fn colour_only_when_asked_or_on_a_terminal() {
    let dir = Dir::new();
    dir.write(
        "session.jsonl",
        session(&[user_line("e1", None, "a"), user_line("e1", None, "b")]),
    );
    let plain = dir.run(&["fsck"]);
    assert!(plain.stderr.starts_with("error: "), "{plain}");
    let coloured = dir.run(&["fsck", "--color", "always"]);
    assert!(
        coloured.stderr.starts_with("\u{1b}[1;31merror\u{1b}[0m: "),
        "{coloured}"
    );
    let no_color = dir.run_with(&["fsck", "--color", "auto"], None, &[("NO_COLOR", "1")]);
    assert!(!no_color.stderr.contains('\u{1b}'), "{no_color}");
}

#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    let dir = Dir::new();
    let names: Vec<String> = (0..400).map(|i| format!("s{i}.jsonl")).collect();
    for name in &names {
        dir.fixture("small-forked.jsonl", name);
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .arg("fsck")
        .arg("--json")
        .args(&names)
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ysess starts");
    let mut first = [0u8; 16];
    child
        .stdout
        .as_mut()
        .expect("piped")
        .read_exact(&mut first)
        .expect("some output");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("ysess ends");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn the_demo_session_loads_in_yoagent_and_passes_strict_fsck() {
    let text = std::fs::read_to_string(fixture("demo.jsonl")).expect("demo fixture");
    let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads the demo");
    assert_eq!(session.head(), Some("e15"));
    assert_eq!(session.branch_tips(), vec!["e6", "e13", "e15"]);
    let dir = demo();
    dir.run(&["fsck", "--strict"]).status(0).stderr("");
}

#[test]
fn a_write_torn_inside_a_character_or_left_as_nul_bytes_is_repairable() {
    let dir = Dir::new();
    let good = session(&[user_line("e1", None, "a"), user_line("e2", Some("e1"), "b")]);
    let mut torn = format!("{good}\n").into_bytes();
    torn.extend_from_slice(b"{\"id\":\"e3\",\"parent_id\":\"e2\",\"message\":{\"text\":\"caf\xc3");
    dir.write("session.jsonl", &torn);
    let run = dir.run(&["fsck", "--repair"]);
    run.status(0);
    assert_eq!(
        dir.read("session.jsonl"),
        format!("{good}\n").into_bytes(),
        "{run}"
    );

    let mut zeros = format!("{good}\n").into_bytes();
    zeros.extend_from_slice(&[0; 40]);
    dir.write("session.jsonl", &zeros);
    dir.run(&["fsck", "--repair"]).status(0);
    assert_eq!(dir.read("session.jsonl"), format!("{good}\n").into_bytes());
}

#[test]
fn a_second_tear_at_the_same_offset_gets_its_own_backup() {
    let dir = Dir::new();
    let good = session(&[user_line("e1", None, "a")]);
    let at = good.len() + 1;
    dir.write("session.jsonl", format!("{good}\n{{\"id\":\"e2\",\"par"));
    dir.run(&["fsck", "--repair"]).status(0);
    dir.write(
        "session.jsonl",
        format!("{good}\n{{\"id\":\"e2\",\"parent_id\":\"e"),
    );
    let run = dir.run(&["fsck", "--repair"]);
    run.status(0);
    assert!(
        run.stderr.contains(&format!("session.jsonl.torn-{at}.1")),
        "{run}"
    );
    assert_eq!(
        dir.read(&format!("session.jsonl.torn-{at}")),
        b"{\"id\":\"e2\",\"par"
    );
    assert_eq!(
        dir.read(&format!("session.jsonl.torn-{at}.1")),
        b"{\"id\":\"e2\",\"parent_id\":\"e"
    );
}

#[test]
fn a_successful_repair_is_a_status_line_not_a_hint() {
    let dir = Dir::new();
    let good = session(&[user_line("e1", None, "a")]);
    let torn = &user_line("e2", Some("e1"), "b")[..20];
    dir.write("session.jsonl", format!("{good}\n{torn}"));
    let run = dir.run(&["fsck", "--repair"]);
    run.status(0).stdout("");
    assert!(
        run.stderr
            .starts_with("session.jsonl: cut the torn last line ("),
        "{run}"
    );
    assert!(!run.stderr.contains("hint:"), "{run}");
    // Nothing left to do is said the same way.
    let run = dir.run(&["fsck", "--repair"]);
    run.status(0)
        .stderr("session.jsonl: nothing to repair: no torn last line\n");
}

#[test]
fn fsck_since_garbage_names_the_since_argument_not_the_session_file() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "demo.jsonl");
    let run = dir.run(&["fsck", "--since", "garbage", "demo.jsonl"]);
    run.status(128).stdout("").stderr(
        "error: --since garbage: neither a digest nor an old copy of the file: \
         No such file or directory (os error 2)\n\
         hint: --since takes a digest that `ysess fsck --digest` printed \
         (sha256:<hex>:<bytes>) or the path of an old copy of the session file\n",
    );
    assert!(!run.stderr.contains("demo.jsonl"), "{run}");
    // The same with --json: the argument is wrong, not the file, so no
    // finding about demo.jsonl is printed.
    dir.run(&["fsck", "--json", "--since", "garbage", "demo.jsonl"])
        .status(128)
        .stdout("");
    std::fs::create_dir(dir.join("old")).expect("mkdir");
    let run = dir.run(&["fsck", "--since", "old", "demo.jsonl"]);
    run.status(128);
    assert!(
        run.stderr.starts_with(
            "error: --since old: neither a digest nor an old copy of the file: it is a directory\n"
        ),
        "{run}"
    );
}

#[test]
fn a_line_echoed_onto_a_file_without_a_final_newline_is_reported_as_glued_lines() {
    let dir = Dir::new();
    let demo = std::fs::read(fixture("demo.jsonl")).expect("demo");
    assert_ne!(demo.last(), Some(&b'\n'), "yoagent writes no final newline");
    // `echo "$line" >> session.jsonl`
    let line = user_line("e16", Some("e15"), "one more");
    let mut text = demo.clone();
    text.extend_from_slice(format!("{line}\n").as_bytes());
    dir.write("session.jsonl", &text);
    assert!(
        yoagent::Session::from_jsonl(std::str::from_utf8(&text).expect("UTF-8")).is_err(),
        "yoagent refuses it"
    );
    let run = dir.run(&["fsck", "--json"]);
    run.status(1);
    let lines = run.json_lines();
    let found: Vec<_> = lines.iter().filter(|v| v["type"] == "finding").collect();
    assert_eq!(found.len(), 1, "{run}");
    assert_eq!(found[0]["code"], "gluedLines", "{run}");
    assert_eq!(found[0]["severity"], "error", "{run}");
    assert_eq!(found[0]["line"], 15, "{run}");
    assert_eq!(found[0]["id"], "e15", "{run}");
    // The offset is where the newline is missing: the end of the old file.
    assert_eq!(found[0]["offset"], demo.len() as u64, "{run}");
    let run = dir.run(&["fsck"]);
    run.status(1);
    assert!(
        run.stderr.starts_with(
            "error: session.jsonl:15: gluedLines: entries e15 and e16 share one line, the newline \
             between them missing"
        ) && run
            .stderr
            .contains("insert a newline before byte 330 of the line"),
        "{run}"
    );
    // A command that reads the session says the same, and writes nothing.
    let run = dir.run(&["append", "--user", "x"]);
    run.status(128);
    assert!(
        run.stderr.contains("gluedLines: entries e15 and e16"),
        "{run}"
    );
    assert_eq!(dir.read("session.jsonl"), text);
    // Inserting the newline, as the message says, makes a sound file.
    let mut fixed = demo.clone();
    fixed.push(b'\n');
    fixed.extend_from_slice(format!("{line}\n").as_bytes());
    dir.write("session.jsonl", &fixed);
    dir.run(&["fsck", "--json"]).status(0);
}

#[test]
fn only_a_whole_object_followed_by_another_is_glued() {
    let dir = Dir::new();
    let (a, b) = (user_line("e1", None, "a"), user_line("e2", Some("e1"), "b"));
    for (tail, code) in [
        (format!(" {b}"), "gluedLines"),
        (format!("{b}{b}"), "gluedLines"),
        // The second cut short: still two lines glued, the newline missing.
        (b[..20].to_string(), "gluedLines"),
        ("x".to_string(), "invalidJson"),
        ("[1]".to_string(), "invalidJson"),
        ("}".to_string(), "invalidJson"),
    ] {
        dir.write("session.jsonl", format!("{a}{tail}"));
        let run = dir.run(&["fsck", "--json"]);
        run.status(1);
        let codes: Vec<_> = findings(&run).into_iter().map(|f| f.0).collect();
        assert_eq!(codes, [code], "{tail:?}\n{run}");
    }
}

/// An entry whose message cannot be read still names its id: the error is
/// reported on its line, once, and its children are no `unknownParent`.
#[test]
fn a_broken_entrys_children_do_not_cascade_into_unknown_parent_errors() {
    let dir = Dir::new();
    let demo = std::fs::read_to_string(crate::support::fixture("demo.jsonl")).expect("demo");
    let lines: Vec<String> = demo
        .lines()
        .enumerate()
        .map(|(k, line)| {
            if k != 4 {
                return line.to_string();
            }
            let mut entry: serde_json::Value = serde_json::from_str(line).expect("JSON");
            entry["message"]["timestamp"] = "notanumber".into();
            entry.to_string()
        })
        .collect();
    dir.write("session.jsonl", session(&lines) + "\n");
    let run = dir.run(&["fsck", "--json"]);
    run.status(1);
    assert_eq!(
        findings(&run),
        [("invalidMessage".to_string(), Some(5), "error".to_string())],
        "{run}"
    );
}

#[cfg(unix)]
#[test]
fn a_fifo_named_directly_that_no_program_writes_hung_for_ever() {
    let dir = Dir::new();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.join("x.jsonl"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    // Each in a thread of its own: both wait at once.
    let runs: Vec<_> = [
        vec!["-f", "x.jsonl", "fsck"],
        vec!["ls", "x.jsonl"],
        vec!["-f", "x.jsonl", "log"],
    ]
    .into_iter()
    .map(|args| {
        let dir = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_ysess"))
                .args(&args)
                .current_dir(dir)
                .stdin(std::process::Stdio::null())
                .output()
                .expect("ysess runs");
            (args, out, started.elapsed())
        })
    })
    .collect();
    for run in runs {
        let (args, out, took) = run.join().expect("the run ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(
            stderr.contains("x.jsonl")
                && stderr.contains("no program opened it to write within 5 s"),
            "{args:?}: {stderr}"
        );
        assert!(took.as_secs() < 30, "{args:?} took {took:?}");
    }
}
