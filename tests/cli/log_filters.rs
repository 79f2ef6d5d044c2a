//! `log`'s filters: `--grep`, `--role`, `--tool`, `--model`, `--since`,
//! `--until`, `--labelled`, `--min-tokens`, alone and combined.

use crate::support::{Dir, demo, fixture};

fn ids(run: &crate::support::Run) -> Vec<String> {
    run.json_lines()
        .iter()
        .map(|e| e["id"].as_str().expect("an id").to_string())
        .collect()
}

#[test]
fn log_grep_keeps_entries_matching_any_pattern_or_all_with_all_match() {
    let dir = demo();
    dir.run(&["log", "--all", "--oneline", "--grep", "clap", "--grep", "plan"])
        .status(0)
        .stderr("")
        .stdout(
            "e15 (HEAD) assistant claude-sonnet-5: clap, serde_json and sha2.\n\
             e13 assistant claude-sonnet-5: The search failed; from what I know: clap for arguments, serde_json for parsing, sha2 for digests.\n\
             e8 (library) assistant claude-sonnet-5: Library plan: a reader, a validator and a tree index; the CLI only parses arguments and prints.\n\
             e1 user: Draft a plan for a CLI that checks our agent's session files.\n",
        );
    let run = dir.run(&[
        "log",
        "--all",
        "--json",
        "--grep",
        "clap",
        "--grep",
        "digests",
        "--all-match",
    ]);
    run.status(0);
    assert_eq!(ids(&run), ["e13"]);
    // -i and -F as git log takes them with --grep.
    let run = dir.run(&["log", "--json", "-i", "--grep", "PLAN:"]);
    assert_eq!(ids(&run), ["e8", "e4"]);
    let run = dir.run(&["log", "--json", "-F", "--grep", "a.b"]);
    run.status(0).stdout("");
}

#[test]
fn log_grep_is_an_option_of_its_own_not_a_typo_of_graph() {
    let run = demo().run(&["log", "--grep", "plan", "-n", "1", "--oneline"]);
    run.status(0).stderr("");
    assert_eq!(
        run.stdout,
        "e8 (library) assistant claude-sonnet-5: Library plan: a reader, a validator and a tree index; the CLI only parses arguments and prints.\n"
    );
    // A filter and --graph do not go together (the graph needs every row).
    let run = demo().run(&["log", "--grep", "plan", "--graph"]);
    run.status(2);
    assert!(
        run.stderr.contains("cannot be used with '--graph'"),
        "{run}"
    );
}

#[test]
fn log_filters_combine_and_n_counts_what_they_keep() {
    let dir = demo();
    dir.run(&[
        "log",
        "--all",
        "--format",
        "{id} {role} {time}",
        "--role",
        "user",
        "--since",
        "2025-12-02 09:01",
        "--until",
        "2025-12-02T09:03:00Z",
    ])
    .status(0)
    .stdout(
        "e10 user 2025-12-02T09:03:00.000+00:00\n\
         e7 user 2025-12-02T09:02:00.000+00:00\n\
         e5 user 2025-12-02T09:01:00.000+00:00\n",
    );
    let run = dir.run(&["log", "--all", "--json", "--role", "assistant", "-n", "2"]);
    assert_eq!(ids(&run), ["e15", "e13"]);
    let run = dir.run(&["log", "--all", "--json", "--labelled"]);
    assert_eq!(ids(&run), ["e8", "e4"]);
    let run = dir.run(&["log", "--all", "--json", "--tool", "search"]);
    assert_eq!(ids(&run), ["e12", "e11"]);
    let run = dir.run(&[
        "log",
        "--json",
        "--model",
        "claude-sonnet-5",
        "--grep",
        "Plan",
    ]);
    assert_eq!(ids(&run), ["e4"]);
    dir.run(&["log", "--json", "--model", "gpt-9"])
        .status(0)
        .stdout("");
}

#[test]
fn log_min_tokens_counts_input_output_and_cache_of_each_assistant_turn() {
    let dir = demo();
    let all = dir.run(&["log", "--all", "--json"]);
    let mut expected = Vec::new();
    for e in all.json_lines() {
        let u = &e["message"]["usage"];
        let total: u64 = ["input", "output", "cacheRead", "cacheWrite"]
            .iter()
            .map(|k| u[k].as_u64().unwrap_or(0))
            .sum();
        if e["message"]["role"] == "assistant" && total >= 1500 {
            expected.push(e["id"].as_str().expect("id").to_string());
        }
    }
    assert!(!expected.is_empty() && expected.len() < 8, "{expected:?}");
    let run = dir.run(&["log", "--all", "--json", "--min-tokens", "1500"]);
    run.status(0);
    assert_eq!(ids(&run), expected);
}

#[test]
fn log_since_and_until_take_relative_times_and_refuse_what_is_not_a_time() {
    let dir = demo();
    // The demo session is from 2025: everything is older than a day ago.
    let run = dir.run(&["log", "--all", "--json", "--since", "1 day ago"]);
    run.status(0).stdout("");
    let run = dir.run(&["log", "--all", "--json", "--until", "yesterday"]);
    assert_eq!(ids(&run).len(), 15);
    let run = dir.run(&["log", "--since", "last blue moon"]);
    run.status(2).stdout("");
    assert!(
        run.stderr
            .starts_with("error: --since: 'last blue moon' is not a time"),
        "{run}"
    );
    dir.run(&["log", "--grep", "a(b"]).status(2).stdout("");
}

#[test]
fn log_filters_read_pi_sessions() {
    let dir = Dir::new();
    let pi = fixture("pi/demo.jsonl");
    let pi = pi.to_str().expect("UTF-8 path");
    let run = dir.run(&["-f", pi, "log", "--all", "--json", "--tool", "edit"]);
    run.status(0).stderr("");
    let found = run.json_lines();
    assert!(!found.is_empty());
    for e in &found {
        let m = &e["message"];
        let calls_edit = m["content"]
            .as_array()
            .is_some_and(|b| b.iter().any(|b| b["name"] == "edit"));
        assert!(m["toolName"] == "edit" || calls_edit, "{e}");
    }
    let run = dir.run(&[
        "-f",
        pi,
        "log",
        "--all",
        "--json",
        "--grep",
        "日本語",
        "--role",
        "toolResult",
    ]);
    run.status(0);
    assert!(!ids(&run).is_empty());
    for e in run.json_lines() {
        assert_eq!(e["message"]["role"], "toolResult");
        assert!(e["message"].to_string().contains("日本語"));
    }
}
