//! `ysess stats`, and the token placeholders of `log --format` and
//! `branch --format`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Deserialize;
use yoagent::types::{Content, Message};
use yoagent::{AgentMessage, Session};

use crate::sessgen::{self as sg};
use crate::support::{Dir, Run, demo, fixture};

// ---------------------------------------------------------------------------
// The --json contract, deserialised
// ---------------------------------------------------------------------------

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Account {
    #[serde(rename = "type")]
    kind: String,
    name: Option<String>,
    #[serde(default)]
    tip: Option<String>,
    #[serde(default)]
    current: Option<bool>,
    entries: u64,
    turns: Turns,
    tokens: Tokens,
    cost: Option<f64>,
    unpriced: Vec<Model>,
    tools: Vec<Tool>,
    models: Vec<Model>,
    first: Option<u64>,
    last: Option<u64>,
    wall_ms: u64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Default, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct Turns {
    user: u64,
    assistant: u64,
    #[serde(rename = "toolResult")]
    tool_result: u64,
    custom: u64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Default, Clone, Copy)]
#[serde(deny_unknown_fields)]
struct Tokens {
    input: u64,
    output: u64,
    cache_read: u64,
    cache_write: u64,
    cache_write_1h: u64,
    total: u64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Clone)]
#[serde(deny_unknown_fields)]
struct Tool {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    name: String,
    calls: u64,
    errors: u64,
}

#[derive(Debug, Deserialize, PartialEq, Eq, Clone)]
#[serde(deny_unknown_fields)]
struct Model {
    name: String,
    turns: u64,
}

fn accounts(run: &Run) -> Vec<Account> {
    run.status(0);
    run.stdout
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("not an account ({e}): {l}\n{run}"))
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Against yoagent: an independent sum over path_messages()
// ---------------------------------------------------------------------------

/// What a list of yoagent's messages used, summed here from yoagent's own
/// types: the figures `stats` must print.
#[derive(Debug, Default, PartialEq)]
struct Sum {
    entries: u64,
    turns: Turns,
    tokens: Tokens,
    tools: BTreeMap<String, (u64, u64)>,
    models: BTreeMap<String, u64>,
}

impl Sum {
    fn of<'a>(messages: impl IntoIterator<Item = &'a AgentMessage>) -> Sum {
        let mut sum = Sum::default();
        for m in messages {
            sum.entries += 1;
            match m {
                AgentMessage::Custom(_) => sum.turns.custom += 1,
                AgentMessage::Llm(Message::User { .. }) => sum.turns.user += 1,
                AgentMessage::Llm(Message::Assistant {
                    content,
                    usage,
                    model,
                    ..
                }) => {
                    sum.turns.assistant += 1;
                    sum.tokens.input += usage.input;
                    sum.tokens.output += usage.output;
                    sum.tokens.cache_read += usage.cache_read;
                    sum.tokens.cache_write += usage.cache_write;
                    *sum.models.entry(model.clone()).or_default() += 1;
                    for c in content {
                        if let Content::ToolCall { name, .. } = c {
                            sum.tools.entry(name.clone()).or_default().0 += 1;
                        }
                    }
                }
                AgentMessage::Llm(Message::ToolResult {
                    tool_name,
                    is_error,
                    ..
                }) => {
                    sum.turns.tool_result += 1;
                    if *is_error {
                        sum.tools.entry(tool_name.clone()).or_default().1 += 1;
                    }
                }
            }
        }
        let t = &mut sum.tokens;
        t.total = t.input + t.output + t.cache_read + t.cache_write;
        sum
    }

    fn of_account(a: &Account) -> Sum {
        Sum {
            entries: a.entries,
            turns: a.turns,
            tokens: a.tokens,
            tools: a
                .tools
                .iter()
                .map(|t| (t.name.clone(), (t.calls, t.errors)))
                .collect(),
            models: a.models.iter().map(|m| (m.name.clone(), m.turns)).collect(),
        }
    }
}

/// yoagent's `path_messages()` after `seek(id)`.
fn path_messages(session: &Session, id: &str) -> Vec<AgentMessage> {
    let mut s = session.clone();
    s.seek(id).expect("a known id");
    s.path_messages()
}

/// Sessions with varied usage, models, tools and errors (the benches'
/// generator), and the small random ones of every shape.
fn sessions() -> Vec<(String, String, Session)> {
    let mut all: Vec<(String, String, Session)> = [7u64, 8, 9]
        .into_iter()
        .map(|seed| {
            let text = sg::generate_jsonl(1500, seed);
            let session = sg::reload(&text);
            (format!("generated seed {seed}"), text, session)
        })
        .collect();
    all.extend(
        sg::corpus()
            .into_iter()
            .step_by(3)
            .map(|(seed, text, s)| (format!("corpus seed {seed}"), text, s)),
    );
    all
}

#[test]
fn stats_totals_are_the_sums_of_yoagents_own_path_messages() {
    for (what, text, session) in sessions() {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let tips: Vec<String> = session
            .branch_tips()
            .iter()
            .map(|t| t.to_string())
            .collect();

        // Every branch: each one is its tip's path; the total counts each
        // entry once, however many branches share it.
        let all = accounts(&dir.run(&["stats", "--json"]));
        let (total, branches) = all.split_last().expect("a total");
        assert_eq!(total.kind, "total");
        assert_eq!(branches.len(), tips.len(), "{what}: a group per tip");
        for b in branches {
            assert_eq!(b.kind, "branch");
            let tip = b.tip.as_deref().expect("a branch has a tip");
            assert_eq!(
                Sum::of_account(b),
                Sum::of(&path_messages(&session, tip)),
                "{what}: branch {tip}"
            );
        }
        let every: Vec<AgentMessage> = session
            .entries()
            .iter()
            .map(|e| e.message.clone())
            .collect();
        assert_eq!(Sum::of_account(total), Sum::of(&every), "{what}: total");

        // Some revisions: each its path, the total their union.
        let picks: Vec<&String> = tips.iter().rev().take(3).collect();
        let mut args = vec!["stats", "--json"];
        args.extend(picks.iter().map(|t| t.as_str()));
        let all = accounts(&dir.run(&args));
        let (total, revisions) = all.split_last().expect("a total");
        let mut union: BTreeSet<String> = BTreeSet::new();
        for (r, tip) in revisions.iter().zip(&picks) {
            assert_eq!(r.kind, "revision");
            assert_eq!(r.name.as_deref(), Some(tip.as_str()));
            assert_eq!(
                Sum::of_account(r),
                Sum::of(&path_messages(&session, tip)),
                "{what}: stats {tip}"
            );
            union.extend(sg::path_to(&session, tip));
        }
        let shared: Vec<AgentMessage> = session
            .entries()
            .iter()
            .filter(|e| union.contains(&e.id))
            .map(|e| e.message.clone())
            .collect();
        assert_eq!(Sum::of_account(total), Sum::of(&shared), "{what}: union");

        // HEAD's path: wall time from its first entry to its last.
        let head = &accounts(&dir.run(&["stats", "--json", "HEAD"]))[0];
        assert_eq!(Sum::of_account(head), Sum::of(&session.path_messages()));
        let times: Vec<u64> = session
            .path_ids()
            .iter()
            .map(|id| session.entry(id).expect("on the path").timestamp)
            .collect();
        assert_eq!(head.first, times.iter().min().copied(), "{what}");
        assert_eq!(head.last, times.iter().max().copied(), "{what}");
        assert_eq!(
            head.wall_ms,
            head.last.unwrap_or(0) - head.first.unwrap_or(0)
        );
        assert_eq!(head.cost, None, "yoagent records no cost");
    }
}

#[test]
fn stats_by_model_and_by_day_split_the_total_without_losing_a_turn() {
    let text = sg::generate_jsonl(1500, 11);
    let session = sg::reload(&text);
    let dir = Dir::new();
    dir.write("session.jsonl", &text);
    let every = Sum::of(session.entries().iter().map(|e| &e.message));

    let by_model = accounts(&dir.run(&["stats", "--json", "--by", "model"]));
    let (total, models) = by_model.split_last().expect("a total");
    assert_eq!(Sum::of_account(total), every);
    let assistant: u64 = models.iter().map(|m| m.turns.assistant).sum();
    let output: u64 = models.iter().map(|m| m.tokens.output).sum();
    assert_eq!(
        (assistant, output),
        (every.turns.assistant, every.tokens.output)
    );
    for m in models {
        assert_eq!(m.kind, "model");
        let name = m.name.as_deref().expect("a model's name");
        assert_eq!(
            m.models,
            [Model {
                name: name.into(),
                turns: m.turns.assistant
            }]
        );
        assert_eq!(m.turns.user, 0, "a user turn has no model");
    }

    let by_day = accounts(&dir.run(&["stats", "--json", "--by", "day"]));
    let (total, days) = by_day.split_last().expect("a total");
    assert_eq!(Sum::of_account(total), every);
    let entries: u64 = days.iter().map(|d| d.entries).sum();
    assert_eq!(entries, every.entries, "every entry on one day");
    for d in days {
        let day = d.name.as_deref().expect("a day");
        let first = jiff::Timestamp::from_millisecond(d.first.expect("a time") as i64)
            .expect("a time")
            .strftime("%Y-%m-%d")
            .to_string();
        assert_eq!(first, day, "days are UTC dates under TZ=UTC");
    }

    let by_tool = accounts_or_tools(&dir.run(&["stats", "--json", "--by", "tool"]));
    let tools: BTreeMap<String, (u64, u64)> = by_tool
        .0
        .iter()
        .map(|t| {
            assert_eq!(t.kind.as_deref(), Some("tool"));
            (t.name.clone(), (t.calls, t.errors))
        })
        .collect();
    assert_eq!(tools, every.tools);
    assert_eq!(Sum::of_account(&by_tool.1), every);
}

/// `--by tool`: the tool lines, then the total.
fn accounts_or_tools(run: &Run) -> (Vec<Tool>, Account) {
    run.status(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    let (last, tools) = lines.split_last().expect("a total");
    let tools = tools
        .iter()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("a tool ({e}): {l}")))
        .collect();
    let total = serde_json::from_str(last).expect("the total");
    (tools, total)
}

// ---------------------------------------------------------------------------
// What a person reads
// ---------------------------------------------------------------------------

#[test]
fn stats_shows_each_branch_newest_first_then_the_total() {
    demo().run(&["stats"]).status(0).stderr("").stdout(
        "\
* e15
    entries 8
    time    2025-12-02 09:00 to 2025-12-02 09:04 (4m 4s)
    turns   3 user, 4 assistant, 1 toolResult, 0 custom
    tokens  6092 in, 395 out, 0 cache read, 0 cache write
    cost    not recorded
    tools   bash 1
    models  claude-sonnet-5 4

  e13
    entries 11
    time    2025-12-02 09:00 to 2025-12-02 09:03 (3m 10s)
    turns   3 user, 5 assistant, 2 toolResult, 1 custom
    tokens  8012 in, 474 out, 0 cache read, 0 cache write
    cost    not recorded
    tools   bash 1, search 1 (1 error)
    models  claude-sonnet-5 5

  e6
    entries 6
    time    2025-12-02 09:00 to 2025-12-02 09:01 (1m 5s)
    turns   2 user, 3 assistant, 1 toolResult, 0 custom
    tokens  4250 in, 324 out, 0 cache read, 0 cache write
    cost    not recorded
    tools   bash 1
    models  claude-sonnet-5 3

total
    entries 15
    time    2025-12-02 09:00 to 2025-12-02 09:04 (4m 4s)
    turns   5 user, 7 assistant, 2 toolResult, 1 custom
    tokens  11452 in, 544 out, 0 cache read, 0 cache write
    cost    not recorded
    tools   bash 1, search 1 (1 error)
    models  claude-sonnet-5 7
",
    );
}

#[test]
fn stats_total_counts_the_entries_two_revisions_share_once() {
    let dir = demo();
    let run = dir.run(&["stats", "first-draft", "e6"]);
    run.status(0);
    // e1..e4 are on both paths: 4 + 6 entries, 6 in all.
    assert!(
        run.stdout.starts_with("first-draft e4\n    entries 4\n"),
        "{run}"
    );
    assert!(run.stdout.contains("\ne6\n    entries 6\n"), "{run}");
    assert!(
        run.stdout.contains("total\n    entries 6\n"),
        "the total counts e1..e4 once\n{run}"
    );
}

#[test]
fn stats_by_tool_lists_calls_and_errors() {
    demo().run(&["stats", "--by", "tool"]).status(0).stdout(
        "\
tool     calls  errors
bash         1       0
search       1       1
total        2       1
",
    );
}

#[test]
fn stats_by_day_uses_the_local_day() {
    // 2025-12-02 09:00 UTC is still 2025-12-01 ten hours west of UTC (a
    // POSIX TZ: no time zone database needed).
    let dir = demo();
    let run = dir.run_with(&["stats", "--by", "day"], None, &[("TZ", "HST10")]);
    run.status(0);
    assert!(
        run.stdout.starts_with("2025-12-01\n    entries 15\n"),
        "{run}"
    );
    let run = dir.run(&["stats", "--by", "day"]);
    assert!(
        run.stdout.starts_with("2025-12-02\n    entries 15\n"),
        "{run}"
    );
}

#[test]
fn stats_of_an_unknown_revision_or_group_is_refused() {
    let dir = demo();
    dir.run(&["stats", "nosuch"]).status(128).stdout("").stderr(
        "error: unknown revision 'nosuch'\n\
             hint: a revision is HEAD, @, @-, HEAD@{N}, an entry id or label or branch (or a \
             unique prefix of one), then any of ~N and ^\n",
    );
    let run = dir.run(&["stats", "--by", "year"]);
    run.status(2);
    assert!(run.stderr.contains("invalid value 'year'"), "{run}");
}

#[test]
fn ysess_records_never_count_and_named_branches_show_by_name() {
    let dir = demo();
    let before = accounts(&dir.run(&["stats", "--json"]));
    dir.run(&["branch", "lib", "e8"]).status(0);
    dir.run(&["tag", "mark", "e13"]).status(0);
    dir.run(&["checkout", "e6"]).status(0);
    let after = accounts(&dir.run(&["stats", "--json"]));
    let (total, branches) = after.split_last().expect("a total");
    assert_eq!(
        total,
        before.last().expect("a total"),
        "records add nothing"
    );
    // The branch record below e8 makes `lib` a branch whose tip is e8 until
    // work lands below it.
    let lib = branches
        .iter()
        .find(|b| b.name.as_deref() == Some("lib"))
        .expect("lib is listed");
    assert_eq!(lib.tip.as_deref(), Some("e8"));
    assert_eq!(lib.entries, 6);
    let current: Vec<_> = branches
        .iter()
        .filter(|b| b.current == Some(true))
        .collect();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].tip.as_deref(), Some("e6"), "HEAD moved to e6");
}

// ---------------------------------------------------------------------------
// Token placeholders
// ---------------------------------------------------------------------------

#[test]
fn log_format_tokens_are_each_assistant_turns_own_and_sum_to_stats() {
    let dir = demo();
    dir.run(&[
        "log",
        "--format",
        "{id}{tab}{role}{tab}{tokens_in}{tab}{tokens_out}{tab}{cost}",
        "-n",
        "4",
    ])
    .status(0)
    .stdout(
        "e15\tassistant\t1790\t22\t\ne14\tuser\t\t\t\ne8\tassistant\t1702\t97\t\ne7\tuser\t\t\t\n",
    );
    for (what, text, _) in sessions().into_iter().take(2) {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let run = dir.run(&["log", "--format", "{tokens_in} {tokens_out}"]);
        run.status(0);
        let (mut input, mut output) = (0, 0);
        for line in run.stdout.lines() {
            let mut words = line.split(' ');
            input += words.next().unwrap_or("").parse::<u64>().unwrap_or(0);
            output += words.next().unwrap_or("").parse::<u64>().unwrap_or(0);
        }
        let head = &accounts(&dir.run(&["stats", "--json", "HEAD"]))[0];
        assert_eq!(
            (input, output),
            (head.tokens.input, head.tokens.output),
            "{what}"
        );
    }
}

#[test]
fn branch_format_shows_tokens_along_each_branch_as_stats_counts_them() {
    let dir = demo();
    dir.run(&["branch", "lib", "e8"]).status(0);
    dir.run(&[
        "branch",
        "--format",
        "{current}{name}{tab}{tip}{tab}{fork}{tab}{length}{tab}{tokens_in}{tab}{tokens_out}{tab}[{cost}]",
    ])
    .status(0)
    .stdout(
        "*e15\te15\te8\t2\t6092\t395\t[]\n\
         \x20e13\te13\te8\t5\t8012\t474\t[]\n\
         \x20lib\te8\te4\t2\t4302\t373\t[]\n\
         \x20e6\te6\te4\t2\t4250\t324\t[]\n",
    );
    let run = dir.run(&["branch", "--format", "{tokens}"]);
    run.status(2);
    assert!(run.stderr.contains("unknown placeholder {tokens}"), "{run}");
    dir.run(&["branch", "-v", "--format", "{name}"]).status(2);
}

// ---------------------------------------------------------------------------
// pi and Claude Code
// ---------------------------------------------------------------------------

#[test]
fn stats_on_a_pi_session_sums_the_cost_pi_records() {
    let dir = Dir::new();
    dir.fixture("pi/demo.jsonl", "session.jsonl");
    let run = dir.run(&["stats", "HEAD"]);
    run.status(0).stdout(
        "\
HEAD 38dfc291
    entries 8
    time    2026-12-03 19:52 to 2026-12-03 19:52 (0s)
    turns   3 user, 2 assistant, 2 toolResult, 1 custom
    tokens  15671 in, 3226 out, 21399 cache read, 3556 cache write
    cost    $0.1152
    tools   edit 2
    models  claude-sonnet-4-5 2

total
    entries 8
    time    2026-12-03 19:52 to 2026-12-03 19:52 (0s)
    turns   3 user, 2 assistant, 2 toolResult, 1 custom
    tokens  15671 in, 3226 out, 21399 cache read, 3556 cache write
    cost    $0.1152
    tools   edit 2
    models  claude-sonnet-4-5 2
",
    );
    let costs = dir.run(&["log", "--format", "{cost}"]);
    costs.status(0);
    let per_entry: f64 = costs
        .stdout
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| l.parse::<f64>().expect("a cost"))
        .sum();
    let head = &accounts(&dir.run(&["stats", "--json", "HEAD"]))[0];
    let cost = head.cost.expect("pi records cost");
    assert!((per_entry - cost).abs() < 1e-5, "{per_entry} vs {cost}");
}

/// pi's message entries by id, as the file holds them.
fn pi_messages(path: &std::path::Path) -> HashMap<String, serde_json::Value> {
    std::fs::read_to_string(path)
        .expect("pi's file reads")
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|v| v["type"] == "message")
        .map(|v| {
            (
                v["id"].as_str().unwrap_or_default().to_string(),
                v["message"].clone(),
            )
        })
        .collect()
}

#[test]
fn stats_of_pi_sessions_are_the_sums_over_pi_s_own_branch() {
    let Some((dir, sessions)) = crate::pi::pi_sessions(1..=12) else {
        return;
    };
    for s in &sessions {
        let messages = pi_messages(&s.path);
        let (mut turns, mut tokens, mut cost) = (Turns::default(), Tokens::default(), 0.0);
        let mut tools: BTreeMap<String, (u64, u64)> = BTreeMap::new();
        for id in &s.pi.branch {
            let Some(m) = messages.get(id) else {
                continue;
            };
            let n = |v: &serde_json::Value| v.as_u64().expect("a count");
            match m["role"].as_str() {
                Some("user") => turns.user += 1,
                Some("assistant") => {
                    turns.assistant += 1;
                    let u = &m["usage"];
                    tokens.input += n(&u["input"]);
                    tokens.output += n(&u["output"]);
                    tokens.cache_read += n(&u["cacheRead"]);
                    tokens.cache_write += n(&u["cacheWrite"]);
                    cost += u["cost"]["total"].as_f64().expect("a cost");
                    for c in m["content"].as_array().into_iter().flatten() {
                        if c["type"] == "toolCall" {
                            let name = c["name"].as_str().expect("a name").to_string();
                            tools.entry(name).or_default().0 += 1;
                        }
                    }
                }
                Some("toolResult") => {
                    turns.tool_result += 1;
                    if m["isError"] == true {
                        let name = m["toolName"].as_str().expect("a name").to_string();
                        tools.entry(name).or_default().1 += 1;
                    }
                }
                _ => {}
            }
        }
        tokens.total = tokens.input + tokens.output + tokens.cache_read + tokens.cache_write;
        let file = s.path.to_str().expect("UTF-8 path");
        let head = &accounts(&dir.run(&["-f", file, "stats", "--json", "HEAD"]))[0];
        let seed = s.seed;
        assert_eq!(head.tokens, tokens, "seed {seed}");
        assert_eq!(
            (
                head.turns.user,
                head.turns.assistant,
                head.turns.tool_result
            ),
            (turns.user, turns.assistant, turns.tool_result),
            "seed {seed}"
        );
        let got: BTreeMap<String, (u64, u64)> = head
            .tools
            .iter()
            .map(|t| (t.name.clone(), (t.calls, t.errors)))
            .collect();
        assert_eq!(got, tools, "seed {seed}");
        let got = head.cost.expect("pi records cost");
        assert!((got - cost).abs() < 1e-9, "seed {seed}: {got} vs {cost}");
    }
}

#[test]
fn a_claude_code_response_over_several_lines_counts_once() {
    let dir = Dir::new();
    std::fs::copy(fixture("claude/session.jsonl"), dir.join("session.jsonl")).expect("copies");
    // The fixture's first response (msg_018a…) takes three lines, each
    // repeating its usage: 4 in, 312 out.
    let run = dir.run(&[
        "log",
        "--reverse",
        "--format",
        "{role} {tokens_in} {tokens_out}",
    ]);
    run.status(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines[1..4],
        ["assistant  ", "assistant  ", "assistant 4 312"],
        "{run}"
    );
    let head = &accounts(&dir.run(&["stats", "--json", "HEAD"]))[0];
    let (input, output) = lines.iter().fold((0, 0), |(i, o), l| {
        let w: Vec<&str> = l.split(' ').collect();
        (
            i + w[1].parse::<u64>().unwrap_or(0),
            o + w[2].parse::<u64>().unwrap_or(0),
        )
    });
    assert_eq!((head.tokens.input, head.tokens.output), (input, output));
    let assistant_lines = lines.iter().filter(|l| l.starts_with("assistant")).count() as u64;
    assert_eq!(
        head.turns.assistant,
        assistant_lines - 2,
        "three lines, one turn"
    );
    // Claude Code records no cost: its usage is priced from the table.
    assert!(head.cost.is_some_and(|c| c > 0.0), "{:?}", head.cost);
    // Its tool results name no tool; the calls they answer do.
    assert!(
        head.tools.iter().all(|t| !t.name.is_empty()),
        "{:?}",
        head.tools
    );
}

#[test]
fn stats_never_prints_control_or_bidi_characters_from_the_session_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    for args in [
        &["stats"][..],
        &["stats", "--by", "model"],
        &["stats", "--by", "tool"],
        &["stats", "--json"],
        &["stats", "--json", "--by", "tool"],
        &["branch", "--format", "{name} {role} {subject} {tokens_in}"],
    ] {
        let run = dir.run(args);
        run.status(0);
        sg::assert_terminal_safe(&run);
    }
    // The model and the tool, escaped in the text, whole in the JSON.
    let run = dir.run(&["stats", "--by", "model"]);
    assert!(run.stdout.contains(sg::HOSTILE_SHOWN), "{run}");
    let total = accounts(&dir.run(&["stats", "--json"]))
        .pop()
        .expect("a total");
    let tool = format!("n{}", sg::HOSTILE);
    assert_eq!(
        total.tools,
        [Tool {
            kind: None,
            name: tool,
            calls: 1,
            errors: 1
        }]
    );
}

#[test]
fn claude_code_and_codex_usage_is_priced_from_the_table_or_ysess_prices() {
    let dir = crate::support::Dir::new();
    dir.fixture("claude/today.jsonl", "claude.jsonl");
    dir.fixture("codex/rollout.jsonl", "codex.jsonl");
    // claude-sonnet-4-5: 16 in at $3 a million, 201 out at $15, 7,000
    // read at $0.30, 2,520 written at $3.75.
    let run = dir.run(&["-f", "claude.jsonl", "stats", "--json"]);
    run.status(0);
    assert_eq!(run.stats_total()["cost"], 0.014613, "{run}");
    // gpt-5-codex: 2,700 in at $1.25, 250 out at $10, 15,000 cached at $0.125.
    let run = dir.run(&["-f", "codex.jsonl", "stats", "--json"]);
    assert_eq!(run.stats_total()["cost"], 0.00775, "{run}");
    dir.write(
        "prices.json",
        r#"{"claude-sonnet-4-5": {"input": 1, "output": 1}}"#,
    );
    let run = dir.run_with(
        &["-f", "claude.jsonl", "stats", "--json"],
        None,
        &[("YSESS_PRICES", "prices.json")],
    );
    assert_eq!(run.stats_total()["cost"], 0.000217, "{run}");
    dir.write("bad.json", r#"{"m": {"inptu": 1}}"#);
    let run = dir.run_with(
        &["-f", "claude.jsonl", "stats"],
        None,
        &[("YSESS_PRICES", "bad.json")],
    );
    run.status(128).stdout("");
    assert!(
        run.stderr
            .starts_with("error: YSESS_PRICES=bad.json: not a price table"),
        "{run}"
    );
}

#[test]
fn a_model_with_no_price_costs_unknown_never_a_family_price() {
    let dir = Dir::new();
    let file = dir.join("s.jsonl");
    let line = |uuid: &str, parent: &str, model: &str| {
        format!(
            r#"{{"parentUuid":"{parent}","isSidechain":false,"type":"assistant","uuid":"{uuid}","sessionId":"s","timestamp":"2026-03-01T10:00:01.000Z","message":{{"model":"{model}","id":"msg_{uuid}","type":"message","role":"assistant","content":[{{"type":"text","text":"ok"}}],"usage":{{"input_tokens":1000000,"output_tokens":0,"cache_read_input_tokens":0,"cache_creation_input_tokens":0}}}},"cwd":"/x","version":"2.1.0"}}"#
        )
    };
    let text = [
        r#"{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u0","sessionId":"s","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"go"},"cwd":"/x","version":"2.1.0"}"#.to_string(),
        line("a1", "u0", "claude-opus-4-6"),
        // A name that starts like a priced family's is no member of it.
        line("a2", "a1", "claude-opus-4-6-turbo"),
    ]
    .join("\n");
    std::fs::write(&file, text + "\n").expect("written");
    let path = file.to_str().expect("UTF-8");
    let run = dir.run(&["-f", path, "stats", "--json"]);
    let total = accounts(&run).pop().expect("a total");
    assert_eq!(total.cost, None, "{run}");
    assert_eq!(
        total.unpriced,
        vec![Model {
            name: "claude-opus-4-6-turbo".into(),
            turns: 1
        }],
        "{run}"
    );
    assert!(
        run.stderr
            .contains("hint: no price for model 'claude-opus-4-6-turbo'"),
        "{run}"
    );
    let run = dir.run(&["-f", path, "stats"]);
    run.status(0);
    assert!(
        run.stdout
            .contains("cost    unknown (no price for claude-opus-4-6-turbo)"),
        "{run}"
    );
    // A price file names it: the cost is known, 1M tokens at $5 and $2.
    let prices = dir.join("prices.json");
    std::fs::write(
        &prices,
        r#"{"claude-opus-4-6-turbo": {"input": 2, "cache_write_1h": 4}}"#,
    )
    .expect("written");
    let run = dir.run_with(
        &["-f", path, "stats", "--json"],
        None,
        &[("YSESS_PRICES", prices.to_str().expect("UTF-8"))],
    );
    let total = accounts(&run).pop().expect("a total");
    assert!(total.unpriced.is_empty(), "{run}");
    assert!(total.cost.is_some_and(|c| (c - 7.0).abs() < 1e-9), "{run}");
    assert!(!run.stderr.contains("hint"), "{run}");
}
