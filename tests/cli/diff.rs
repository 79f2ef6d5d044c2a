//! `ysess diff`: comparing two directions of a conversation, on sessions
//! built with yoagent's own API.

use serde_json::{Value, json};
use yoagent::Session;
use yoagent::types::{AgentMessage, Content, Message, StopReason, Usage};

use crate::sessgen::{assistant_at, tool_result_at, user};
use crate::support::{Dir, demo};

fn tokens((input, output): (u64, u64)) -> Usage {
    Usage {
        input,
        output,
        ..Usage::default()
    }
}

fn assistant(text: &str, used: (u64, u64)) -> AgentMessage {
    let content = vec![Content::Text { text: text.into() }];
    assistant_at(content, StopReason::Stop, "m", "p", tokens(used), 2).into()
}

fn calls(tool: &str, id: &str, used: (u64, u64)) -> AgentMessage {
    let content = vec![Content::tool_call(id, tool, json!({"command": "ls"}))];
    assistant_at(content, StopReason::ToolUse, "m", "p", tokens(used), 3).into()
}

fn result(tool: &str, id: &str, text: &str) -> AgentMessage {
    tool_result_at(id, tool, text, false, 1).into()
}

/// A plan, then two directions from it. B inserts a tool call before its
/// first answer. Returns the session and the two tips.
fn forked() -> (Session, String, String) {
    let mut s = Session::new();
    s.append(user("draft a plan"));
    let plan = s.append(assistant("1. parse\n2. check\n3. report", (100, 20)));
    s.append(user("add json output"));
    s.append(assistant("4. json lines", (150, 10)));
    s.append(user("and a summary"));
    let a = s.append(assistant("5. one summary line", (160, 12)));
    s.seek(&plan).expect("plan exists");
    s.append(user("make it a library"));
    s.append(calls("bash", "c1", (120, 5)));
    s.append(result("bash", "c1", "src/ tests/"));
    s.append(assistant("library: reader, validator, index", (180, 30)));
    s.append(user("and a summary"));
    let b = s.append(assistant("5. one summary line", (190, 12)));
    (s, a, b)
}

#[test]
fn an_inserted_tool_call_leaves_later_turns_aligned() {
    let (session, a, b) = forked();
    let dir = Dir::new();
    dir.write("session.jsonl", session.to_jsonl());
    let run = dir.run(&["diff", "--json", &a, &b]);
    run.status(0);
    let out = &run.json_lines()[0];
    assert_eq!(out["fork_point"]["id"], "e2", "{run}");
    let steps: Vec<(Value, Value, Value)> = out["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .map(|p| (p["a"].clone(), p["b"].clone(), p["status"].clone()))
        .collect();
    assert_eq!(
        steps,
        vec![
            (json!("e3"), json!("e7"), json!("changed")),
            (Value::Null, json!("e8"), json!("added")),
            (Value::Null, json!("e9"), json!("added")),
            (json!("e4"), json!("e10"), json!("changed")),
            (json!("e5"), json!("e11"), json!("same")),
            (json!("e6"), json!("e12"), json!("same")),
        ],
        "{run}"
    );
}

#[test]
fn stats_match_counts_taken_from_yoagent() {
    let (session, a, b) = forked();
    let dir = Dir::new();
    dir.write("session.jsonl", session.to_jsonl());
    let run = dir.run(&["diff", "--json", &a, &b]);
    let stats = &run.json_lines()[0]["stats"];
    for (side, tip) in [("a", &a), ("b", &b)] {
        let mut s = session.clone();
        s.seek(tip).expect("tip exists");
        let after_fork: Vec<AgentMessage> = s.path_messages().into_iter().skip(2).collect();
        let (mut tokens_in, mut tokens_out, mut tools) = (0, 0, 0);
        let mut roles = std::collections::BTreeMap::<String, u64>::new();
        for m in &after_fork {
            *roles.entry(m.role().to_string()).or_default() += 1;
            if let Some(Message::Assistant { usage, content, .. }) = m.as_llm() {
                tokens_in += usage.input;
                tokens_out += usage.output;
                tools += content
                    .iter()
                    .filter(|c| matches!(c, Content::ToolCall { .. }))
                    .count();
            }
        }
        let got = &stats[side];
        assert_eq!(got["turns"], after_fork.len(), "{side}: {run}");
        assert_eq!(got["tokens_in"], tokens_in, "{side}");
        assert_eq!(got["tokens_out"], tokens_out, "{side}");
        assert_eq!(
            got["roles"],
            serde_json::to_value(&roles).expect("roles"),
            "{side}"
        );
        let tool_calls: u64 = got["tool_calls"]
            .as_object()
            .expect("map")
            .values()
            .filter_map(Value::as_u64)
            .sum();
        assert_eq!(tool_calls, tools as u64, "{side}");
    }
}

#[test]
fn exit_code_says_whether_the_sides_differ() {
    let (session, a, b) = forked();
    let dir = Dir::new();
    dir.write("session.jsonl", session.to_jsonl());
    dir.run(&["diff", "--exit-code", &a, &a]).status(0);
    dir.run(&["diff", "--exit-code", &a, &b]).status(1);
    dir.run(&["diff", &a, &b]).status(0);
    dir.run(&["diff", "--quiet", &a, &b])
        .status(1)
        .stdout("")
        .stderr("");
    dir.run(&["diff", "--quiet", &b, &b]).status(0).stdout("");
    // One revision compares HEAD with it.
    dir.run(&["diff", "--quiet", &b]).status(0);
    dir.run(&["diff", "--quiet", &a]).status(1);
}

#[test]
fn human_output_shows_the_fork_and_each_turn() {
    let mut s = Session::new();
    s.append(user("plan"));
    let fork = s.append(assistant("draft", (1, 1)));
    let a = s.append(user("shorter"));
    s.seek(&fork).expect("fork");
    s.append(user("longer please"));
    let b = s.append(assistant("a long draft", (1, 1)));
    let dir = Dir::new();
    dir.write("session.jsonl", s.to_jsonl());
    dir.run(&["diff", &a, &b]).status(0).stdout(
        "fork point e2 assistant m: draft\n\
         --- e3 (1 turn after the fork)\n\
         +++ e5 (2 turns after the fork)\n\
         \n\
         ~ e3 → e4 user\n\
         @@ -1,2 +1,2 @@\n \
         user\n\
         -shorter\n\
         +longer please\n\
         \n\
         + e5 assistant m: a long draft\n\
         +assistant m\n\
         +a long draft\n",
    );
    dir.run(&["diff", "--summary", &a, &b])
        .status(0)
        .stdout(
            "fork point e2 assistant m: draft\n--- e3 (1 turn after the fork)\n+++ e5 (2 turns after the fork)\n\
             ~ e3 e4 user: longer please\n+ e5 assistant m: a long draft\n",
        );
    let run = dir.run(&["diff", "--word-diff", &a, &b]);
    assert!(run.stdout.contains("[-shorter-]{+longer please+}"), "{run}");
}

#[test]
fn files_compares_two_copies_entry_by_entry() {
    let mut s = Session::new();
    s.append(user("one"));
    s.append(assistant("two", (1, 1)));
    let dir = Dir::new();
    dir.write("old.jsonl", s.to_jsonl());
    s.checkpoint("cp").expect("head");
    s.append(user("three"));
    dir.write("new.jsonl", s.to_jsonl());
    dir.run(&["diff", "--files", "old.jsonl", "new.jsonl"]).status(0).stdout(
        "~ e2 assistant m: two  (label none → \"cp\")\n+ e3 user: three\n0 removed, 1 added, 1 changed\n"
            .replace("0 removed, 1 added", "1 added, 0 removed")
            .as_str(),
    );
    dir.run(&["diff", "--exit-code", "--files", "old.jsonl", "new.jsonl"])
        .status(1);
    dir.run(&["diff", "--exit-code", "--files", "old.jsonl", "old.jsonl"])
        .status(0);
}

#[test]
fn diff_stat_and_summary_together_print_both_as_git_does() {
    let dir = demo();
    let stat = dir.run(&["diff", "--stat", "e6", "e15"]);
    let summary = dir.run(&["diff", "--summary", "e6", "e15"]);
    let both = dir.run(&["diff", "--stat", "--summary", "e6", "e15"]);
    both.status(0).stderr("");
    // The shared header once, then the stats, then one line per turn.
    let header = "fork point e4 assistant claude-sonnet-5: Plan:\n\
                  --- e6 (2 turns after the fork)\n\
                  +++ e15 (4 turns after the fork)\n";
    assert!(summary.stdout.starts_with(header), "{summary}");
    let turns = &summary.stdout[header.len()..];
    assert!(turns.starts_with("~ e5 e7 user: "), "{summary}");
    both.stdout(&format!("{}{turns}", stat.stdout));
}

#[test]
fn diff_files_refuses_the_options_it_would_ignore() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "old.jsonl");
    dir.fixture("demo.jsonl", "new.jsonl");
    dir.run(&["diff", "--files", "old.jsonl", "new.jsonl"])
        .status(0);
    for option in [
        &["--stat"][..],
        &["--summary"],
        &["--word-diff"],
        &["--color-words"],
        &["-U", "1"],
    ] {
        let mut args = vec!["diff", "--files", "old.jsonl", "new.jsonl"];
        args.extend_from_slice(option);
        let run = dir.run(&args);
        run.status(2).stdout("");
        assert!(
            run.stderr
                .starts_with("error: the argument '--files <OLD> <NEW>' cannot be used with"),
            "{run}"
        );
    }
}
