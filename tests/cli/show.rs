//! `ysess show`.

use crate::sessgen as sg;
use crate::support::{Dir, small_demo as demo};

// ---------------------------------------------------------------------------
// Each kind of message
// ---------------------------------------------------------------------------

#[test]
fn show_of_a_user_message_prints_its_text_and_images() {
    demo().run(&["show", "e1"]).status(0).stderr("").stdout(
        "\
entry e1
Role:     user
Time:     2025-10-09 08:53:20 +00:00
Format:   yoagent
Children: e2

    Plan a JSON parser
    with a tokenizer first

    [image/png, 16 B]
",
    );
}

#[test]
fn show_of_an_assistant_message_prints_thinking_text_and_tool_calls() {
    demo().run(&["show", "e4"]).status(0).stderr("").stdout(
        "\
entry e4
Parent:   e3
Role:     assistant
Model:    m (p)
Stop:     toolUse
Usage:    1200 in, 80 out, 1000 cache read, 7 cache write
Time:     2025-10-09 08:56:23 +00:00
Format:   yoagent
Children: e5

    [thinking]
    Tokens first.
    Then the grammar.

    Running the tests

    → tool call bash [call_1]
    {
      \"command\": \"cargo test\",
      \"timeout\": 60
    }
",
    );
}

#[test]
fn show_of_a_tool_result_marks_an_error() {
    demo().run(&["show", "e5"]).status(0).stderr("").stdout(
        "\
entry e5
Parent:   e4
Role:     toolResult
Tool:     bash [call_1]
Result:   error
Time:     2025-10-09 08:57:24 +00:00
Format:   yoagent

    [error]
    1 test failed
    at src/lex.rs:3
",
    );
}

#[test]
fn show_of_a_custom_record_prints_its_kind_and_data() {
    demo().run(&["show"]).status(0).stderr("").stdout(
        "\
entry e10 (HEAD)
Parent:   e9
Role:     custom
Kind:     status_update
Time:     2025-10-09 09:02:29 +00:00
Format:   yoagent

    {
      \"tokens\": 1234,
      \"phase\": \"idle\"
    }
",
    );
}

#[test]
fn show_of_an_entry_whose_label_is_shadowed_names_the_newer_carrier() {
    demo().run(&["show", "e3"]).status(0).stderr("").stdout(
        "\
entry e3
Parent:   e2
Role:     user
Time:     2025-10-09 08:55:22 +00:00
Format:   yoagent
Label:    review (shadowed: the label names e9)
Children: e4

    Write the tokenizer
",
    );
}

#[test]
fn show_of_an_assistant_error_prints_the_error_message() {
    let dir = Dir::new();
    let mut s = yoagent::Session::new();
    s.append(sg::user("hi"));
    s.append(
        yoagent::types::Message::assistant(
            vec![],
            yoagent::types::StopReason::Error,
            "m",
            "p",
            yoagent::types::Usage::default(),
        )
        .with_error_message("overloaded")
        .into(),
    );
    dir.write("session.jsonl", sg::saved(&s));
    dir.run(&["show"]).status(0).stderr("").stdout(
        "\
entry e2 (HEAD)
Parent:   e1
Role:     assistant
Model:    m (p)
Stop:     error
Usage:    0 in, 0 out, 0 cache read, 0 cache write
Error:    overloaded
Time:     2025-10-09 08:54:21 +00:00
Format:   yoagent
",
    );
}

// ---------------------------------------------------------------------------
// Revisions
// ---------------------------------------------------------------------------

#[test]
fn show_head_caret_is_heads_parent_and_a_label_is_its_newest_carrier() {
    let expected = "\
entry e9 (review)
Parent:   e2
Role:     user
Time:     2025-10-09 09:01:28 +00:00
Format:   yoagent
Label:    review
Children: e10

    Or use serde_json?
";
    let dir = demo();
    dir.run(&["show", "HEAD^"]).status(0).stdout(expected);
    dir.run(&["show", "@~1"]).status(0).stdout(expected);
    dir.run(&["show", "review"]).status(0).stdout(expected);
    dir.run(&["show", "rev"]).status(0).stdout(expected);
    dir.run(&["show", "e10^"]).status(0).stdout(expected);
}

#[test]
fn show_of_a_misspelt_label_suggests_the_nearest() {
    demo()
        .run(&["show", "frist-draft"])
        .status(128)
        .stdout("")
        .stderr(
            "error: unknown revision 'frist-draft'\n\
             hint: did you mean 'first-draft'?\n",
        );
}

#[test]
fn show_of_an_ambiguous_prefix_lists_what_it_could_be() {
    let dir = demo();
    dir.run(&["show", "e1"]).status(0);
    dir.run(&["show", "e"]).status(128).stdout("").stderr(
        "error: ambiguous revision 'e': it could be entry e1, entry e2, entry e3, entry e4, \
         entry e5, entry e6, entry e7, entry e8, entry e9 or entry e10\n\
         hint: give more of the id or label, or all of it\n",
    );
    // A prefix of two labels that name different entries.
    let mut s = sg::demo();
    s.checkpoint("rewind").expect("a head");
    dir.write("session.jsonl", sg::saved(&s));
    dir.run(&["show", "re"]).status(128).stdout("").stderr(
        "error: ambiguous revision 're': it could be label review on e9 or label rewind on e10\n\
         hint: give more of the id or label, or all of it\n",
    );
}

#[test]
fn show_past_the_root_and_a_second_parent_are_fatal() {
    let dir = demo();
    dir.run(&["show", "first-draft~5"])
        .status(128)
        .stdout("")
        .stderr(
            "error: 'first-draft~5' goes past the root: e2 has only 1 ancestor\n\
             hint: the root is e1 (e2~1)\n",
        );
    dir.run(&["show", "e2^2"]).status(128).stdout("").stderr(
        "error: 'e2^2' asks for parent 2, but an entry has only one parent\n\
         hint: '~N' goes N entries back and '^' goes to the parent, e.g. 'HEAD~2' or 'HEAD^'\n",
    );
}

#[test]
fn show_of_a_file_fsck_rejects_is_fatal_and_points_to_fsck() {
    let dir = Dir::new();
    let text = [
        crate::support::user_line("e1", None, "a"),
        crate::support::user_line("e2", Some("e5"), "b"),
    ]
    .join("\n");
    dir.write("session.jsonl", &text);
    dir.run(&["show", "e1"]).status(128).stdout("").stderr(
        "error: session.jsonl: not a valid session: line 2: unknownParent: entry e2: parent e5 is not defined in this file\n\
         hint: `ysess fsck session.jsonl` lists every problem\n",
    );
}

// ---------------------------------------------------------------------------
// For programs
// ---------------------------------------------------------------------------

#[test]
fn show_json_is_the_entry_as_stored() {
    let dir = Dir::new();
    let text = sg::saved(&sg::demo());
    dir.write("session.jsonl", &text);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    for (rev, line) in [
        ("HEAD", 9),
        ("e1", 0),
        ("e4", 3),
        ("e5", 4),
        ("review", 8),
        ("e3", 2),
    ] {
        let run = dir.run(&["show", "--json", rev]);
        run.status(0).stderr("");
        assert_eq!(run.json_lines(), vec![lines[line].clone()], "{run}");
    }
}

/// `show --json` promises the entry as stored: numbers come out as written.
#[test]
fn show_json_keeps_numbers_as_stored() {
    let dir = Dir::new();
    let line = sg::numbers_line("plain");
    yoagent::Session::from_jsonl(&line).expect("yoagent loads it");
    dir.write("session.jsonl", &line);
    let run = dir.run(&["show", "--json"]);
    run.status(0);
    assert_eq!(
        sg::Numbers::of(&run.stdout),
        ("123456789012345678901234567890".into(), "1e3".into()),
        "{:?}",
        run.stdout
    );
}

// ---------------------------------------------------------------------------
// Hostile text
// ---------------------------------------------------------------------------

#[test]
fn show_never_prints_control_or_bidi_characters_from_the_session_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let shown = sg::HOSTILE_SHOWN;
    for rev in ["e1", "e3", "HEAD", "e3^", "L"] {
        let run = dir.run(&["show", rev]);
        run.status(0);
        sg::assert_terminal_safe(&run);
        assert!(run.stdout.contains(shown), "{:?}", run.stdout);
    }
    let run = dir.run(&["show", "e3^"]);
    assert_eq!(
        run.stdout,
        format!(
            "\
entry x{shown}
Parent:   e1
Role:     assistant
Model:    m{shown} (p{shown})
Stop:     error
Usage:    0 in, 0 out, 0 cache read, 0 cache write
Error:    err{shown}
Time:     2025-10-09 08:54:21 +00:00
Format:   yoagent
Label:    L{shown} (shadowed: the label names e3)
Children: e3

    [thinking]
    think{shown}

    say{shown}

    → tool call n{shown} [c{shown}]
    {{
      \"k\\u001b[2J\\u{{9b}}\\u{{202e}}\\u0000\": \"v\\u001b[2J\\u{{9b}}\\u{{202e}}\\u0000\"
    }}
"
        ),
        "{:?}",
        run.stdout
    );
    let run = dir.run(&["show", "e3"]);
    assert!(
        run.stdout.contains(&format!("    [image/{shown}, 3 B]\n")),
        "{:?}",
        run.stdout
    );
}

#[test]
fn show_never_echoes_a_hostile_revision_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    for rev in ["nope\u{1b}[2J\u{9b}\u{202e}", "\u{202e}", "x\u{1b}~9"] {
        let run = dir.run(&["show", rev]);
        run.status(128);
        sg::assert_terminal_safe(&run);
    }
    // The suggestion names a hostile label, escaped.
    let run = dir.run(&["show", "L\u{1b}[2J\u{9b}\u{202f}"]);
    run.status(128).stdout("");
    sg::assert_terminal_safe(&run);
    assert_eq!(
        run.stderr,
        format!(
            "error: unknown revision 'L\\u{{1b}}[2J\\u{{9b}}\u{202f}'\n\
             hint: did you mean 'L{}'?\n",
            sg::HOSTILE_SHOWN
        ),
        "{:?}",
        run.stderr
    );
}

#[test]
fn show_json_of_hostile_text_is_valid_json_that_carries_it_raw() {
    let dir = Dir::new();
    let text = sg::hostile();
    dir.write("session.jsonl", &text);
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    for (rev, line) in [("e1", 0), ("e3^", 1), ("e3", 2), ("HEAD", 3)] {
        let run = dir.run(&["show", "--json", rev]);
        run.status(0);
        sg::assert_terminal_safe(&run);
        assert_eq!(run.json_lines(), vec![lines[line].clone()], "{run}");
    }
}
