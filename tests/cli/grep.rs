//! `ysess grep`: transcripts on the demo session, `--json` checked against
//! the entries as `show --json` prints them, pi's and Claude Code's files,
//! hostile text.

use serde::Deserialize;

use crate::support::{Dir, Run, demo, fixture};

/// One line of `grep --json`, every field required.
#[derive(Debug, Deserialize, PartialEq, Eq, Clone)]
#[serde(deny_unknown_fields)]
struct Match {
    id: String,
    line: u64,
    role: String,
    block: usize,
    kind: String,
    tool: Option<String>,
    start: usize,
    end: usize,
    text: String,
}

fn matches(run: &Run) -> Vec<Match> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}\n{run}")))
        .collect()
}

/// The text a `--json` match points into, read from the entry as stored
/// (`show --json`): its content block's text, a tool call's name or its
/// arguments as compact JSON.
fn block_text(dir: &Dir, file: &str, m: &Match) -> String {
    let run = dir.run(&["-f", file, "show", "--json", &m.id]);
    run.status(0);
    let entry: serde_json::Value = serde_json::from_str(run.stdout.trim()).expect("JSON");
    // yoagent and pi keep the message under `message`; so does Claude Code.
    let content = &entry["message"]["content"];
    let block = match content {
        serde_json::Value::String(text) => return text.clone(),
        _ => &content[m.block],
    };
    match m.kind.as_str() {
        "text" => block["text"].as_str().expect("text").to_string(),
        "thinking" => block["thinking"].as_str().expect("thinking").to_string(),
        "toolName" => block["name"].as_str().expect("name").to_string(),
        "toolArguments" => {
            let args = block
                .get("arguments")
                .or_else(|| block.get("input"))
                .expect("arguments");
            args.to_string()
        }
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn grep_prints_each_matching_line_with_the_entry_and_its_role() {
    demo()
        .run(&["grep", "serde"])
        .status(0)
        .stderr("")
        .stdout(
            "e13 assistant: The search failed; from what I know: clap for arguments, serde_json for parsing, sha2 for digests.\n\
             e15 assistant: clap, serde_json and sha2.\n",
        );
}

#[test]
fn grep_marks_thinking_tool_calls_and_tool_results() {
    demo()
        .run(&["grep", "-i", "search|look|run-"])
        .status(0)
        .stderr("")
        .stdout(
            "e2 assistant [thinking]: Look at what is in the repo first.\n\
             e3 toolResult bash: run-0412.jsonl\n\
             e3 toolResult bash: run-0413.jsonl\n\
             e3 toolResult bash: run-0414.jsonl\n\
             e11 assistant [tool call]: search\n\
             e12 toolResult search: error: search service unavailable\n\
             e13 assistant: The search failed; from what I know: clap for arguments, serde_json for parsing, sha2 for digests.\n",
        );
}

#[test]
fn grep_context_shows_lines_around_within_the_block() {
    demo()
        .run(&["grep", "-i", "parse", "--context", "1"])
        .status(0)
        .stdout(
            "e4 assistant- Plan:\n\
             e4 assistant: 1. Parse each line as a session entry.\n\
             e4 assistant- 2. Check ids and parents.\n\
             e8 assistant: Library plan: a reader, a validator and a tree index; the CLI only parses arguments and prints.\n",
        );
}

#[test]
fn grep_context_separates_groups_apart_and_does_not_repeat_lines() {
    let dir = Dir::new();
    let text = "one hit\ntwo\nthree\nfour\nfive hit\nsix hit\nseven";
    dir.write(
        "session.jsonl",
        format!("{}\n", crate::support::user_line("e1", None, text)),
    );
    dir.run(&["grep", "hit", "--context", "1"])
        .status(0)
        .stdout(
            "e1 user: one hit\n\
             e1 user- two\n\
             --\n\
             e1 user- four\n\
             e1 user: five hit\n\
             e1 user: six hit\n\
             e1 user- seven\n",
        );
}

#[test]
fn grep_context_as_large_as_a_u64_shows_the_whole_block_without_overflowing() {
    let whole = "e4 assistant- Plan:\n\
                 e4 assistant: 1. Parse each line as a session entry.\n\
                 e4 assistant- 2. Check ids and parents.\n\
                 e4 assistant- 3. Report every problem with its line.\n";
    for rev in [&[][..], &["e4"][..]] {
        let mut args = vec!["grep", "--context", "18446744073709551615", "Parse each"];
        args.extend(rev);
        demo().run(&args).status(0).stdout(whole);
    }
}

#[test]
fn grep_options_word_fixed_and_case() {
    let dir = demo();
    dir.run(&["grep", "-w", "plan"]).status(0).stdout(
        "e1 user: Draft a plan for a CLI that checks our agent's session files.\n\
         e8 assistant: Library plan: a reader, a validator and a tree index; the CLI only parses arguments and prints.\n",
    );
    dir.run(&["grep", "-F", "ls sessions/ | head"])
        .status(0)
        .stdout("e2 assistant [bash]: {\"command\":\"ls sessions/ | head\"}\n");
    dir.run(&["grep", "CLAP"]).status(1).stdout("").stderr("");
    dir.run(&["grep", "-i", "-c", "CLAP"])
        .status(0)
        .stdout("e13:1\ne15:1\n");
}

#[test]
fn grep_role_and_tool_narrow_what_is_searched() {
    let dir = demo();
    dir.run(&["grep", "--role", "user", "-l", "crates"])
        .status(0)
        .stdout("e10\ne14\n");
    dir.run(&[
        "grep",
        "--role",
        "toolResult",
        "--role",
        "user",
        "-l",
        "search|session",
    ])
    .status(0)
    .stdout("e1\ne12\n");
    // Only bash's calls and results: e11's search call is left out.
    dir.run(&["grep", "--tool", "bash", "-l", "s"])
        .status(0)
        .stdout("e2\ne3\n");
}

#[test]
fn grep_on_revisions_searches_only_their_paths() {
    let dir = demo();
    dir.run(&["grep", "-l", "serde|Plan"])
        .status(0)
        .stdout("e4\ne13\ne15\n");
    dir.run(&["grep", "-l", "serde|Plan", "e13"])
        .status(0)
        .stdout("e4\ne13\n");
    dir.run(&["grep", "-l", "serde|Plan", "e13", "HEAD"])
        .status(0)
        .stdout("e4\ne13\ne15\n");
    // A range, as log takes it: on e15's path, not on e8's.
    dir.run(&["grep", "-l", "serde|Plan|plan", "e8..e15"])
        .status(0)
        .stdout("e15\n");
    dir.run(&["grep", "x", "nosuch"]).status(128);
}

#[test]
fn grep_exits_1_when_nothing_matches_and_2_for_a_pattern_that_does_not_parse() {
    let dir = demo();
    dir.run(&["grep", "no such words"])
        .status(1)
        .stdout("")
        .stderr("");
    // The regex crate's words, on one line.
    let run = dir.run(&["grep", "a(b"]);
    run.status(2).stdout("");
    assert!(
        run.stderr
            .starts_with("error: the pattern \"a(b\" does not parse: unclosed group\n"),
        "{run}"
    );
    // `-C` is the global option that changes directory.
    dir.run(&["grep", "--context", "x", "a"]).status(2);
}

#[test]
fn grep_json_gives_the_id_block_kind_and_byte_offsets_of_each_match() {
    let dir = demo();
    let run = dir.run(&[
        "-f",
        "session.jsonl",
        "grep",
        "--json",
        "-i",
        "ls|search|plan|look",
    ]);
    run.status(0).stderr("");
    let found = matches(&run);
    assert!(found.len() >= 8, "{run}");
    let kinds: std::collections::BTreeSet<&str> = found.iter().map(|m| m.kind.as_str()).collect();
    assert_eq!(
        kinds,
        ["text", "thinking", "toolArguments", "toolName"].into()
    );
    for m in &found {
        let text = block_text(&dir, "session.jsonl", m);
        assert_eq!(&text[m.start..m.end], m.text, "{m:?}");
        let word = m.text.to_lowercase();
        assert!(
            ["ls", "search", "plan", "look"].contains(&word.as_str()),
            "{m:?}"
        );
    }
    let e2 = found
        .iter()
        .find(|m| m.id == "e2" && m.kind == "toolArguments")
        .expect("e2's call");
    assert_eq!(
        (e2.role.as_str(), e2.block, e2.tool.as_deref(), e2.line),
        ("assistant", 1, Some("bash"), 2)
    );
    let e12 = found.iter().find(|m| m.id == "e12").expect("e12's result");
    assert_eq!(
        (e12.role.as_str(), e12.tool.as_deref()),
        ("toolResult", Some("search"))
    );
}

#[test]
fn grep_escapes_hostile_text_and_its_highlights() {
    let dir = Dir::new();
    let hostile = "before \u{1b}]0;owned\u{7}\u{1b}[2J after \u{202e}gnp.exe";
    dir.write(
        "session.jsonl",
        format!("{}\n", crate::support::user_line("e1", None, hostile)),
    );
    let run = dir.run(&["--color", "always", "grep", r"\x1b\[2J after"]);
    run.status(0);
    assert_eq!(
        run.stdout,
        "\u{1b}[33me1\u{1b}[0m \u{1b}[34muser\u{1b}[0m: before \\u{1b}]0;owned\\u{7}\u{1b}[1;31m\\u{1b}[2J after\u{1b}[0m \\u{202e}gnp.exe\n",
        "{run}"
    );
    // Without colour, not a single escape character.
    let run = dir.run(&["grep", "owned"]);
    run.status(0);
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{202e}'),
        "{run}"
    );
    // --json: the same text, escaped as JSON, and nothing raw.
    let run = dir.run(&["grep", "--json", "owned"]);
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains('\u{202e}'),
        "{run}"
    );
    assert_eq!(matches(&run)[0].text, "owned");
}

#[test]
fn grep_finds_text_only_a_json_escape_spells() {
    // `caf\u00e9`, `a\/b` and a word after `\n`: the raw bytes do not show
    // them as the text reads.
    let dir = Dir::new();
    dir.write(
        "session.jsonl",
        concat!(
            r#"{"id":"e1","parent_id":null,"timestamp":1,"message":{"role":"user","content":[{"type":"text","text":"a\nword caf\u00e9 and a\/b"}],"timestamp":1}}"#,
            "\n"
        ),
    );
    for pattern in [r"\bword", "^word", "café", "a/b"] {
        dir.run(&["grep", "-c", pattern]).status(0).stdout("e1:1\n");
    }
    // A backslash-n is in the bytes, not in the text.
    dir.run(&["grep", r"\\n"]).status(1);
}

#[test]
fn grep_never_searches_ysess_s_own_records() {
    let dir = demo();
    dir.run(&["tag", "zebra-label", "e2"]).status(0);
    dir.run(&["checkout", "-b", "yakbranch", "e6"]).status(0);
    dir.run(&["grep", "zebra|yakbranch"]).status(1).stdout("");
    dir.run(&["grep", "-l", "Good"]).status(0).stdout("e5\n");
}

#[test]
fn grep_reads_pi_and_claude_code_sessions() {
    let dir = Dir::new();
    let pi = fixture("pi/demo.jsonl");
    let pi = pi.to_str().expect("UTF-8 path");
    let run = dir.run(&["-f", pi, "grep", "--json", "résumé|日本語"]);
    run.status(0).stderr("");
    let found = matches(&run);
    assert!(found.len() >= 2, "{run}");
    for m in &found {
        let text = block_text(&dir, pi, m);
        assert_eq!(&text[m.start..m.end], m.text, "{m:?}");
    }
    assert_eq!(found[0].id, "a59af012");
    let claude = fixture("claude/session.jsonl");
    let claude = claude.to_str().expect("UTF-8 path");
    let run = dir.run(&["-f", claude, "grep", "--json", "collect_stats"]);
    run.status(0).stderr("");
    let found = matches(&run);
    assert!(found.len() >= 2, "{run}");
    let entries = dir.run(&["-f", claude, "log", "--all", "--json"]);
    for m in &found {
        assert_eq!(m.text, "collect_stats");
        let entry = entries
            .json_lines()
            .into_iter()
            .find(|e| e["uuid"] == m.id.as_str())
            .unwrap_or_else(|| panic!("{} is an entry", m.id));
        assert!(
            entry["message"].to_string().contains("collect_stats"),
            "{m:?}"
        );
    }
}

/// Claude Code's tool results name no tool, only the call they answer:
/// grep names the tool of the call they answer.
#[test]
fn a_claude_code_tool_result_is_shown_with_its_call_s_tool_name() {
    let dir = Dir::new();
    let claude = fixture("claude/session.jsonl");
    let claude = claude.to_str().expect("UTF-8 path");
    let run = dir.run(&["-f", claude, "grep", "--json", "-F", "cannot find function"]);
    run.status(0).stderr("");
    let found = matches(&run);
    assert_eq!(found.len(), 1, "{run}");
    assert_eq!(found[0].tool.as_deref(), Some("Bash"), "{run}");
    dir.run(&["-f", claude, "grep", "-F", "cannot find function"])
        .status(0)
        .stdout(
            "2054fa81 toolResult Bash: error[E0425]: cannot find function `collect_stats` in this scope\n",
        );
}

/// Every word of every message pi wrote: `grep -l` finds exactly the
/// entries whose text holds it, as read from pi's files by serde here.
#[test]
fn grep_l_on_pi_written_sessions_is_the_entries_whose_text_holds_the_word() {
    let Some((dir, sessions)) = crate::pi::pi_sessions(1..=5) else {
        return;
    };
    for s in sessions {
        let text = std::fs::read_to_string(&s.path).expect("pi's file reads");
        for word in ["fork", "branch", "parse", "日本語"] {
            let mut expected = Vec::new();
            for line in text.lines() {
                let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
                if v["type"] != "message" {
                    continue;
                }
                let m = &v["message"];
                let texts: Vec<String> = match &m["content"] {
                    serde_json::Value::String(t) => vec![t.clone()],
                    serde_json::Value::Array(blocks) => blocks
                        .iter()
                        .flat_map(|b| match b["type"].as_str() {
                            Some("text") => vec![b["text"].as_str().unwrap_or("").to_string()],
                            Some("thinking") => {
                                vec![b["thinking"].as_str().unwrap_or("").to_string()]
                            }
                            Some("toolCall") => vec![
                                b["name"].as_str().unwrap_or("").to_string(),
                                b["arguments"].to_string(),
                            ],
                            _ => vec![],
                        })
                        .collect(),
                    _ => vec![],
                };
                let searched = matches!(
                    m["role"].as_str(),
                    Some("user" | "assistant" | "toolResult")
                );
                if searched && texts.iter().any(|t| t.contains(word)) {
                    expected.push(format!("{}\n", v["id"].as_str().expect("an id")));
                }
            }
            let path = s.path.to_str().expect("UTF-8 path");
            let run = dir.run(&["-f", path, "grep", "-l", "-F", word]);
            run.status(if expected.is_empty() { 1 } else { 0 });
            assert_eq!(
                run.stdout,
                expected.concat(),
                "seed {} {word}\n{run}",
                s.seed
            );
        }
    }
}

#[test]
fn grep_skips_a_picked_line_that_is_no_entry_with_a_warning_naming_it() {
    let dir = Dir::new();
    dir.write(
        "session.jsonl",
        format!(
            "{}\n{{\"id\":\"e2\", hello broken\n",
            crate::support::user_line("e1", None, "hello")
        ),
    );
    let run = dir.run(&["grep", "hello"]);
    run.status(0).stdout("e1 user: hello\n");
    assert!(
        run.stderr
            .starts_with("warning: session.jsonl: line 2: not searched, not an entry:"),
        "{run}"
    );
    assert!(run.stderr.ends_with("(`ysess fsck` explains)\n"), "{run}");
}
