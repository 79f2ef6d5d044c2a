//! Claude Code writes the sessions: scenarios run with `claude -p` against
//! the mock, and the checks every file it wrote must pass.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use super::mock::{Block, Mock, Reply, Usage};
use super::{Agent, Call, Home, Record, succeeded, text};
use crate::support::Dir;

pub const PACKAGE: &str = "@anthropic-ai/claude-code";

/// What the user last said in a request: their words (reminders left out)
/// and the ids of the tool results they carry.
fn last_user(body: &Value) -> (String, Vec<String>) {
    let Some(messages) = body["messages"].as_array() else {
        return (String::new(), vec![]);
    };
    for m in messages.iter().rev() {
        if m["role"] != "user" {
            continue;
        }
        return match &m["content"] {
            Value::String(s) => (s.clone(), vec![]),
            Value::Array(blocks) => {
                let words = blocks
                    .iter()
                    .filter(|b| b["type"] == "text")
                    .filter_map(|b| b["text"].as_str())
                    .filter(|t| !t.trim_start().starts_with("<system-reminder>"))
                    .collect::<Vec<_>>()
                    .join("\n");
                let results = blocks
                    .iter()
                    .filter(|b| b["type"] == "tool_result")
                    .filter_map(|b| b["tool_use_id"].as_str().map(str::to_string))
                    .collect();
                (words, results)
            }
            _ => (String::new(), vec![]),
        };
    }
    (String::new(), vec![])
}

/// The first words of the conversation: a subagent's request opens with
/// its task.
fn first_user(body: &Value) -> String {
    let Some(first) = body["messages"].as_array().and_then(|m| m.first()) else {
        return String::new();
    };
    match &first["content"] {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The session a request was made for (Claude Code names it in the
/// request's metadata).
pub fn session_of(body: &Value) -> Option<String> {
    let user = body["metadata"]["user_id"].as_str()?;
    let inner: Value = serde_json::from_str(user).ok()?;
    inner["session_id"].as_str().map(str::to_string)
}

/// Usage that differs from call to call, with every kind of token,
/// one-hour cache writes on every third call.
fn usage(n: u64) -> Usage {
    Usage {
        input: 900 + 37 * n,
        output: 40 + 11 * n,
        cache_read: 12_000 + 1_013 * n,
        cache_write_5m: 300 + 29 * n,
        cache_write_1h: if n.is_multiple_of(3) {
            2_000 + 7 * n
        } else {
            0
        },
        reasoning: 0,
    }
}

/// The mock's side of every Claude Code scenario: replies chosen by what
/// the request asks, so concurrent requests (a subagent beside its
/// parent) are answered the same whatever their order.
fn script() -> impl Fn(&Value) -> Reply + Send + Sync + 'static {
    let calls = AtomicU64::new(0);
    move |body: &Value| {
        let n = calls.fetch_add(1, Ordering::SeqCst);
        let (said, results) = last_user(body);
        let u = usage(n);
        if said.contains("CRITICAL: Respond with TEXT ONLY")
            || said.contains("summary of the conversation")
        {
            return Reply::text(
                "<analysis>The user asked for a plan, then a second step.</analysis>\n\
                 <summary>1. Primary request: plan a small CLI called `tally`.\n\
                 2. Done so far: a plan in three steps.</summary>",
                u,
            );
        }
        if first_user(body).contains("SUBTASK") {
            return Reply::Message {
                blocks: vec![Block::Text(
                    "Found it: `tally` counts lines in src/main.rs.".into(),
                )],
                usage: u,
            };
        }
        if !results.is_empty() {
            return Reply::text(&format!("The tools answered ({}).", results.len()), u);
        }
        if said.contains("HANG") {
            return Reply::Hang {
                text: "Starting on it".into(),
            };
        }
        if said.contains("FAIL") {
            return Reply::Error {
                status: 400,
                message: "prompt is too long: 212000 tokens > 200000 maximum".into(),
            };
        }
        if said.contains("PARALLEL") {
            return Reply::Message {
                blocks: vec![
                    Block::Thinking("Two things to look at; both at once.".into()),
                    Block::Text("Looking at both.".into()),
                    Block::call(
                        format!("toolu_ys{n:04}a"),
                        "Bash",
                        json!({"command": "echo tally", "description": "Say the name"}),
                    ),
                    Block::call(
                        format!("toolu_ys{n:04}b"),
                        "Read",
                        json!({"file_path": "/nonexistent/tally/notes.md"}),
                    ),
                ],
                usage: u,
            };
        }
        if said.contains("THREE") {
            // Three calls at once, the slowest first: its result is
            // written last, hanging from the first of the reply's lines.
            return Reply::Message {
                blocks: vec![
                    Block::Thinking("Three lookups; the slow one first.".into()),
                    Block::call(
                        format!("toolu_ys{n:04}d"),
                        "Bash",
                        json!({"command": "sleep 1; echo slow", "description": "A slow command"}),
                    ),
                    Block::Pause(400),
                    Block::call(
                        format!("toolu_ys{n:04}e"),
                        "Read",
                        json!({"file_path": "notes.md"}),
                    ),
                    Block::Pause(400),
                    Block::Text("Still looking.".into()),
                    Block::call(
                        format!("toolu_ys{n:04}f"),
                        "Glob",
                        json!({"pattern": "*.md"}),
                    ),
                ],
                usage: u,
            };
        }
        if said.contains("SLOW") {
            return Reply::Message {
                blocks: vec![
                    Block::Text("Running the long check.".into()),
                    Block::call(
                        format!("toolu_ys{n:04}g"),
                        "Bash",
                        json!({"command": "python3 -c \"import time; time.sleep(30)\"", "description": "A long check"}),
                    ),
                ],
                usage: u,
            };
        }
        if said.contains("DELEGATE") {
            return Reply::Message {
                blocks: vec![Block::call(
                    format!("toolu_ys{n:04}c"),
                    "Agent",
                    json!({"description": "Find the counter", "prompt": "SUBTASK: find where tally counts lines.", "subagent_type": "general-purpose"}),
                )],
                usage: u,
            };
        }
        if said.contains("THINK") {
            return Reply::Message {
                blocks: vec![
                    Block::Thinking("The user wants a reason; give one.".into()),
                    Block::Text(
                        "Because counting lines is what `wc -l` does, and tally adds words.".into(),
                    ),
                ],
                usage: u,
            };
        }
        // The user's own words, not the app's markup (a command's caveat).
        let first = said
            .lines()
            .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('<'))
            .unwrap_or("")
            .chars()
            .take(48)
            .collect::<String>();
        Reply::text(&format!("Answer {n}: noted \u{201c}{first}\u{201d}."), u)
    }
}

/// One scenario: what it does and how it drives `claude -p`.
struct Scenario {
    name: &'static str,
    about: &'static str,
    model: &'static str,
    branches: usize,
    run: fn(&Driver<'_>),
}

/// Runs Claude Code in one home against one mock.
pub struct Driver<'a> {
    home: &'a Home,
    mock: &'a Mock,
    model: &'a str,
    pub id: String,
}

impl Driver<'_> {
    fn claude(&self, args: &[&str]) -> String {
        let mut all = vec!["-p", "--model", self.model];
        all.extend_from_slice(args);
        succeeded(
            &self.home.run(Agent::Claude, self.mock, &all),
            &format!("claude {}", all.join(" ")),
        )
    }

    fn start(&self, prompt: &str) {
        self.claude(&["--session-id", &self.id, "--", prompt]);
    }

    fn resume(&self, prompt: &str) {
        self.claude(&["--resume", &self.id, "--", prompt]);
    }

    /// The session's main file.
    fn file(&self) -> PathBuf {
        main_files(&self.home.home().join(".claude/projects"))
            .into_iter()
            .find(|p| p.file_stem().is_some_and(|s| s == self.id.as_str()))
            .expect("the session's file")
    }

    /// The uuid of the `n`th (from 0) assistant line with text.
    fn reply_uuid(&self, n: usize) -> String {
        let text = std::fs::read_to_string(self.file()).expect("the session reads");
        text.lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter(|v| v["type"] == "assistant")
            .filter(|v| {
                v["message"]["content"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|b| b["type"] == "text"))
            })
            .nth(n)
            .and_then(|v| v["uuid"].as_str().map(str::to_string))
            .expect("such a reply")
    }
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "turns",
            about: "three turns in three runs (start, then --resume twice), the last with thinking",
            model: "claude-opus-4-6",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally that counts lines and words.");
                d.resume("Make the second step smaller.");
                d.resume("THINK: why not just use wc?");
            },
        },
        Scenario {
            name: "tools",
            about: "a reply that calls two tools at once (Bash, and a Read that fails), twice",
            model: "claude-sonnet-4-5-20250929",
            branches: 1,
            run: |d| {
                d.start("PARALLEL: run echo and read the notes.");
                d.resume("PARALLEL: once more, please.");
            },
        },
        Scenario {
            name: "parallel",
            about: "three tools called at once, the slowest first, streamed slowly so that results are written between the reply's lines",
            model: "claude-sonnet-4-5-20250929",
            branches: 1,
            run: |d| {
                std::fs::write(d.home.work().join("notes.md"), "# tally\ncounts lines\n")
                    .expect("a notes file");
                d.start("THREE: look everything up.");
                d.resume("THREE: and once more.");
            },
        },
        Scenario {
            name: "subagent",
            about: "a subagent (the Agent tool) that runs beside the session and reports back",
            model: "claude-sonnet-4-5-20250929",
            branches: 1,
            run: |d| {
                d.start("DELEGATE: find where tally counts lines.");
                d.resume("Thanks. Summarise what it found in one line.");
            },
        },
        Scenario {
            name: "compact",
            about: "two turns, /compact, then a turn after the compaction",
            model: "claude-haiku-4-5-20251001",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                d.resume("Add a --words flag to the plan.");
                d.resume("/compact");
                d.resume("Now write the first step.");
            },
        },
        Scenario {
            name: "fork",
            about: "two turns; --resume-session-at the first reply (a fork in the file); --fork-session (a new file)",
            model: "claude-opus-4-5-20251101",
            branches: 2,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                d.resume("Make it a library instead.");
                let first = d.reply_uuid(0);
                d.claude(&[
                    "--resume",
                    &d.id,
                    "--resume-session-at",
                    &first,
                    "--",
                    "Keep it a CLI, but add JSON output.",
                ]);
                d.claude(&["--resume", &d.id, "--fork-session", "--", "Try it in Rust."]);
            },
        },
        Scenario {
            name: "stopped-tool",
            about: "a turn stopped (SIGINT) while its tool runs, then a resume",
            model: "claude-sonnet-4-5-20250929",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                // The tool runs once the reply that calls it has come; a
                // second and a half into its thirty, the turn is stopped.
                let args = [
                    "-p",
                    "--model",
                    d.model,
                    "--allowedTools",
                    "Bash",
                    "--resume",
                    &d.id,
                    "--",
                    "SLOW: run the long check.",
                ];
                d.home.interrupt(
                    Agent::Claude,
                    d.mock,
                    &args,
                    |m| m.calls().len() >= 2,
                    std::time::Duration::from_millis(1500),
                );
                d.resume("Skip the check; what next?");
            },
        },
        Scenario {
            name: "interrupted",
            about: "a turn killed while the model streams, a refused request (HTTP 400), then a resume",
            model: "claude-sonnet-4-5-20250929",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                let args = [
                    "-p",
                    "--model",
                    d.model,
                    "--resume",
                    &d.id,
                    "--",
                    "HANG: write all of it.",
                ];
                d.home.interrupt(
                    Agent::Claude,
                    d.mock,
                    &args,
                    |m| m.hanging.load(Ordering::SeqCst) > 0,
                    std::time::Duration::ZERO,
                );
                let refused = d.home.run(
                    Agent::Claude,
                    d.mock,
                    &[
                        "-p",
                        "--model",
                        d.model,
                        "--resume",
                        &d.id,
                        "--",
                        "FAIL: paste the whole log.",
                    ],
                );
                let _ = refused;
                d.resume("Start again, smaller.");
            },
        },
    ]
}

/// The main session files under a `projects` folder (subagents' files,
/// under `<session>/subagents/`, are not).
pub fn main_files(projects: &Path) -> Vec<PathBuf> {
    super::files_under(projects)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .filter(|p| !p.components().any(|c| c.as_os_str() == "subagents"))
        .collect()
}

/// A fixed session id per scenario, so regenerating keeps file names.
fn session_id(name: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        (h >> 32) as u32,
        (h >> 16) as u16,
        h as u16 & 0xfff,
        (h >> 4) as u16 & 0xfff,
        h & 0xffff_ffff_ffff
    )
}

pub fn generate(only: Option<&str>) {
    let version = super::pinned(PACKAGE);
    for s in scenarios() {
        if only.is_some_and(|o| o != s.name) {
            continue;
        }
        let home = Home::new();
        let mock = Mock::start(script());
        let driver = Driver {
            home: &home,
            mock: &mock,
            model: s.model,
            id: session_id(s.name),
        };
        (s.run)(&driver);
        // Let a subagent still running finish its file.
        std::thread::sleep(std::time::Duration::from_millis(500));
        let to = super::fixtures("claude").join(s.name);
        let _ = std::fs::remove_dir_all(&to);
        super::copy_tree(&home.home().join(".claude/projects"), &to.join("projects"));
        super::write_record(
            &to,
            format!("claude-code {version}"),
            (s.name, s.about, s.branches),
            &mock,
            session_of,
        );
    }
}

#[test]
fn claude_code_sessions_pass_fsck_and_branch_lists_the_scenarios_forks() {
    let dir = Dir::new();
    for scenario in super::the_scenarios("claude") {
        let record = Record::read(&scenario);
        for file in super::files_under(&scenario.join("projects")) {
            if file.extension().is_none_or(|x| x != "jsonl") {
                continue;
            }
            super::fsck_is_clean(&dir, &file);
        }
        let main = scenario_main(&scenario);
        let branches = super::ysess(&dir, &main, &["branch", "--json"]);
        branches.status(0);
        assert_eq!(
            branches.json_lines().len(),
            record.branches,
            "{}: the scenario made {} branches\n{branches}",
            record.scenario,
            record.branches
        );
    }
}

/// The scenario's own session file (named by its fixed id).
fn scenario_main(scenario: &Path) -> PathBuf {
    let name = scenario
        .file_name()
        .and_then(|n| n.to_str())
        .expect("a name");
    let id = session_id(name);
    main_files(&scenario.join("projects"))
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s == id.as_str()))
        .unwrap_or_else(|| panic!("{}: no file named {id}", scenario.display()))
}

/// What Claude Code sends the model when it resumes `file`, as turns, the
/// probe's own words left out.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let projects = file
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "projects"))
        .expect("the file is under a projects folder");
    let home = Home::new();
    super::copy_tree(projects, &home.home().join(".claude/projects"));
    let mock = Mock::start(|_| Reply::text("ok", Usage::default()));
    let id = file
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("an id")
        .to_string();
    let out = home.run(
        Agent::Claude,
        &mock,
        &["-p", "--resume", &id, "--", super::PROBE],
    );
    succeeded(&out, &format!("claude -p --resume {id}"));
    let mut turns = super::probed(&mock, "messages", text::anthropic);
    // The "No response requested." Claude Code puts between a trailing
    // user line and the probe.
    if turns.last().is_some_and(|t| {
        t.role == "assistant" && t.said == [text::Said::Text("No response requested.".into())]
    }) {
        turns.pop();
    }
    turns
}

#[test]
fn export_is_what_claude_code_resumes_on_every_generated_session() {
    if !super::ready() {
        return;
    }
    let files: Vec<PathBuf> = super::the_scenarios("claude")
        .iter()
        .flat_map(|s| main_files(&s.join("projects")))
        .collect();
    let (compared, differ) = super::compare_resumes(files, resumed, text::anthropic);
    assert!(compared >= 6, "{compared} sessions compared");
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}

#[test]
fn stats_tokens_equal_the_mocks_usage_and_ccusage_on_every_claude_code_scenario() {
    if let Some(why) = crate::ccusage::ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let mut differ = Vec::new();
    for scenario in super::the_scenarios("claude") {
        let record = Record::read(&scenario);
        let files: String = super::files_under(&scenario.join("projects"))
            .iter()
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .map(|p| std::fs::read_to_string(p).expect("a fixture reads"))
            .collect();
        // A compaction's own call is answered by the summary the app
        // writes as the user's; every other reply is written, by its id.
        let (written, unwritten): (Vec<&Call>, Vec<&Call>) = record
            .calls
            .iter()
            .partition(|c| files.contains(&format!("\"id\":\"{}\"", c.reply)));
        let compactions = files.matches("\"subtype\":\"compact_boundary\"").count();
        assert!(
            unwritten.len() <= compactions,
            "{}: {} replies the mock gave are in no file, and only {compactions} compactions",
            record.scenario,
            unwritten.len()
        );
        let config = scenario.to_str().expect("a UTF-8 path");
        differ.extend(super::account_differs(
            &record.scenario,
            super::mock_tokens(&written),
            super::ysess_all(&[("CLAUDE_CONFIG_DIR", config)]),
            super::ccusage_daily(None, &[("CLAUDE_CONFIG_DIR", config)]),
        ));
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn after_a_compaction_export_starts_at_the_summary_and_log_still_shows_the_whole_history() {
    let dir = Dir::new();
    let scenario = super::fixtures("claude").join("compact");
    let file = scenario_main(&scenario);
    let graph = super::ysess(&dir, &file, &["log", "--graph"]);
    graph.status(0);
    // The whole history: the first prompt, the compaction as a node, and
    // what came after it.
    for shown in [
        "Plan a small CLI called tally.",
        "compact_boundary",
        "Conversation compacted (manual,",
        "Now write the first step.",
    ] {
        assert!(graph.stdout.contains(shown), "{shown}\n{graph}");
    }
    let export = super::ysess(&dir, &file, &["export"]);
    let messages: Vec<Value> = serde_json::from_str(&export.status(0).stdout).expect("JSON");
    let first = text::anthropic(&messages[..1]);
    assert!(
        matches!(&first[0].said[0], text::Said::Text(t) if t.starts_with("This session is being continued")),
        "{export}"
    );
    assert!(
        !export.stdout.contains("Plan a small CLI called tally."),
        "{export}"
    );
}

#[test]
fn stats_of_each_claude_code_file_equals_the_mocks_usage_of_the_replies_it_holds() {
    let dir = Dir::new();
    let mut differ = Vec::new();
    for scenario in super::the_scenarios("claude") {
        let record = Record::read(&scenario);
        for file in main_files(&scenario.join("projects")) {
            // The session's file and its subagents' files, as `stats`
            // counts them.
            let mut text = std::fs::read_to_string(&file).expect("a fixture reads");
            let subagents = file.with_extension("").join("subagents");
            for f in super::files_under(&subagents) {
                if f.extension().is_some_and(|x| x == "jsonl") {
                    text.push_str(&std::fs::read_to_string(&f).expect("a fixture reads"));
                }
            }
            let held: Vec<&Call> = record
                .calls
                .iter()
                .filter(|c| text.contains(&format!("\"id\":\"{}\"", c.reply)))
                .collect();
            let ours = super::stats_tokens(&dir, &file);
            let mock = super::mock_tokens(&held);
            if ours != mock {
                differ.push(format!(
                    "{}: stats {ours:?}, the mock's usage of its replies {mock:?}",
                    file.display()
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

/// The hand-built files of older shapes (`tests/fixtures/claude/`), each
/// alone in a home, named by its session as Claude Code names its files.
fn hand_built() -> Vec<(PathBuf, Dir)> {
    let folder = super::root().join("tests/fixtures/claude");
    let mut out = Vec::new();
    for name in ["session", "today", "compacted", "commands", "delegates"] {
        let file = folder.join(format!("{name}.jsonl"));
        let text = std::fs::read_to_string(&file).expect("a fixture reads");
        let id = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .find_map(|v| v["sessionId"].as_str().map(str::to_string))
            .expect("a session id");
        let home = Dir::new();
        let projects = home.join("projects/-home-dana-src-ystats");
        std::fs::create_dir_all(&projects).expect("a projects folder");
        let to = projects.join(format!("{id}.jsonl"));
        std::fs::write(&to, text).expect("copied");
        out.push((to, home));
    }
    out
}

#[test]
fn export_is_what_claude_code_resumes_on_the_hand_built_files_of_older_shapes() {
    if !super::ready() {
        return;
    }
    let homes = hand_built();
    let files = homes.iter().map(|(f, _)| f.clone()).collect();
    let (compared, differ) = super::compare_resumes(files, resumed, text::anthropic);
    assert_eq!(compared, 5);
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
