//! Codex writes the sessions: scenarios run with `codex exec` against the
//! mock, and the checks every rollout it wrote must pass.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Value, json};

use super::mock::{Block, Mock, Reply, Usage};
use super::{Agent, Call, Home, Record, succeeded, text};
use crate::support::Dir;

pub const PACKAGE: &str = "@openai/codex";

/// The model the scenarios ask for (priced in every table).
pub const MODEL: &str = "gpt-5.1-codex";

/// The user's last words in a request, and whether tool outputs follow
/// them (a call's answer is due).
fn last_user(body: &Value) -> (String, usize) {
    let Some(items) = body["input"].as_array() else {
        return (String::new(), 0);
    };
    let mut outputs = 0;
    for it in items.iter().rev() {
        match it["type"].as_str().unwrap_or("") {
            "function_call_output" | "custom_tool_call_output" => outputs += 1,
            "message" if it["role"] == "user" => {
                let words = it["content"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|c| c["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n");
                if words.trim_start().starts_with('<') {
                    // Context Codex injects, not the user's words.
                    continue;
                }
                return (words, outputs);
            }
            _ => {}
        }
    }
    (String::new(), outputs)
}

pub fn session_of(body: &Value) -> Option<String> {
    body["client_metadata"]["session_id"]
        .as_str()
        .or(body["prompt_cache_key"].as_str())
        .map(str::to_string)
}

fn usage(n: u64) -> Usage {
    Usage {
        input: 1_500 + 41 * n,
        output: 60 + 13 * n,
        cache_read: 9_000 + 877 * n,
        cache_write_5m: 0,
        cache_write_1h: 0,
        reasoning: 20 + n,
    }
}

fn script() -> impl Fn(&Value) -> Reply + Send + Sync + 'static {
    let calls = AtomicU64::new(0);
    move |body: &Value| {
        let n = calls.fetch_add(1, Ordering::SeqCst);
        let (said, outputs) = last_user(body);
        let u = usage(n);
        if outputs > 0 {
            return Reply::Message {
                blocks: vec![Block::Text(format!(
                    "Both commands ran ({outputs} outputs)."
                ))],
                usage: u,
            };
        }
        if said.contains("CONTEXT CHECKPOINT COMPACTION") {
            return Reply::text(
                "Summary: the user is planning a small CLI called tally; a plan in three steps is agreed.",
                u,
            );
        }
        if said.contains("HANG") {
            return Reply::Hang {
                text: "Starting on it".into(),
            };
        }
        if said.contains("FAIL") {
            return Reply::Error {
                status: 400,
                message: "Your input exceeds the context window of this model.".into(),
            };
        }
        if said.contains("PARALLEL") {
            return Reply::Message {
                blocks: vec![
                    Block::Thinking("**Two commands**\n\nRun both at once.".into()),
                    Block::call(
                        format!("call_ys{n:04}a"),
                        "exec_command",
                        json!({"cmd": "echo tally"}),
                    ),
                    Block::call(
                        format!("call_ys{n:04}b"),
                        "exec_command",
                        json!({"cmd": "cat /nonexistent/tally/notes.md"}),
                    ),
                ],
                usage: u,
            };
        }
        if said.contains("THINK") {
            return Reply::Message {
                blocks: vec![
                    Block::Thinking("**Why not wc**\n\nThe user wants a reason.".into()),
                    Block::Text("Because tally also counts words per file.".into()),
                ],
                usage: u,
            };
        }
        let first = said
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(48)
            .collect::<String>();
        Reply::text(&format!("Answer {n}: noted \u{201c}{first}\u{201d}."), u)
    }
}

struct Scenario {
    name: &'static str,
    about: &'static str,
    branches: usize,
    run: fn(&Driver<'_>),
}

pub struct Driver<'a> {
    home: &'a Home,
    mock: &'a Mock,
}

impl Driver<'_> {
    fn codex(&self, args: &[&str]) -> String {
        let mut all = vec![
            "exec",
            "--skip-git-repo-check",
            "--sandbox",
            "danger-full-access",
        ];
        all.extend_from_slice(args);
        succeeded(
            &self.home.run(Agent::Codex, self.mock, &all),
            &format!("codex {}", all.join(" ")),
        )
    }

    fn rollouts(&self) -> Vec<PathBuf> {
        rollouts(&self.home.home().join(".codex/sessions"))
    }

    /// The id of the first session this home made.
    fn id(&self) -> String {
        let first = self.rollouts().into_iter().next().expect("a rollout");
        id_of(&first)
    }

    fn start(&self, prompt: &str) {
        self.codex(&["--", prompt]);
    }

    fn resume(&self, prompt: &str) {
        let id = self.id();
        let mut args = vec!["resume", "--skip-git-repo-check"];
        args.extend(["--", id.as_str(), prompt]);
        let mut all = vec!["exec"];
        all.extend(args);
        succeeded(
            &self.home.run(Agent::Codex, self.mock, &all),
            &format!("codex {}", all.join(" ")),
        );
    }
}

/// The session id a rollout's `session_meta` names.
fn id_of(rollout: &Path) -> String {
    let text = std::fs::read_to_string(rollout).expect("the rollout reads");
    let first: Value = serde_json::from_str(text.lines().next().expect("a first line"))
        .expect("the first line is JSON");
    first["payload"]["id"]
        .as_str()
        .expect("session_meta names the session")
        .to_string()
}

pub fn rollouts(sessions: &Path) -> Vec<PathBuf> {
    super::files_under(sessions)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect()
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "turns",
            about: "three turns in three runs (exec, then exec resume twice), the last with reasoning",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally that counts lines and words.");
                d.resume("Make the second step smaller.");
                d.resume("THINK: why not just use wc?");
            },
        },
        Scenario {
            name: "tools",
            about: "a reply that runs two commands at once (one fails), twice",
            branches: 1,
            run: |d| {
                d.start("PARALLEL: run echo and read the notes.");
                d.resume("PARALLEL: once more, please.");
            },
        },
        Scenario {
            name: "fork",
            about: "two turns, then exec fork (a new rollout with the history copied)",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                d.resume("Make it a library instead.");
                let id = d.id();
                d.codex(&["fork", "--", &id, "Try it in Rust."]);
            },
        },
        Scenario {
            name: "interrupted",
            about: "a turn killed while the model streams, a refused request (HTTP 400), then a resume",
            branches: 1,
            run: |d| {
                d.start("Plan a small CLI called tally.");
                let id = d.id();
                let args = [
                    "exec",
                    "resume",
                    "--skip-git-repo-check",
                    "--",
                    &id,
                    "HANG: write all of it.",
                ];
                d.home.interrupt(
                    Agent::Codex,
                    d.mock,
                    &args,
                    |m| m.hanging.load(Ordering::SeqCst) > 0,
                    std::time::Duration::ZERO,
                );
                let _ = d.home.run(
                    Agent::Codex,
                    d.mock,
                    &[
                        "exec",
                        "resume",
                        "--skip-git-repo-check",
                        "--",
                        &id,
                        "FAIL: paste the whole log.",
                    ],
                );
                d.resume("Start again, smaller.");
            },
        },
        Scenario {
            name: "compact",
            about: "turns until the context passes Codex's automatic compaction limit, then a turn after it",
            branches: 1,
            run: |d| {
                let limit = "model_auto_compact_token_limit=8000";
                d.codex(&["-c", limit, "--", "Plan a small CLI called tally."]);
                let id = d.id();
                for prompt in ["Add a --words flag.", "Now write the first step."] {
                    d.codex(&["resume", "-c", limit, "--", &id, prompt]);
                }
            },
        },
        Scenario {
            name: "fast",
            about: "two turns in Codex's fast mode (service_tier fast, recorded as priority) on gpt-5.5, priced at its fast multiple",
            branches: 1,
            run: |d| {
                let fast = r#"service_tier="fast""#;
                d.codex(&[
                    "-c",
                    fast,
                    "-m",
                    "gpt-5.5",
                    "--",
                    "Plan a small CLI called tally.",
                ]);
                let id = d.id();
                d.codex(&[
                    "resume",
                    "-c",
                    fast,
                    "-m",
                    "gpt-5.5",
                    "--",
                    &id,
                    "THINK: why not wc?",
                ]);
            },
        },
        Scenario {
            name: "reasoning",
            about: "reasoning with a summary before the answer, in two turns",
            branches: 1,
            run: |d| {
                d.start("THINK: why a new tool?");
                d.resume("THINK: and why Rust?");
            },
        },
    ]
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
        };
        (s.run)(&driver);
        let to = super::fixtures("codex").join(s.name);
        let _ = std::fs::remove_dir_all(&to);
        super::copy_tree(&home.home().join(".codex/sessions"), &to.join("sessions"));
        super::write_record(
            &to,
            format!("codex {version}"),
            (s.name, s.about, s.branches),
            &mock,
            session_of,
        );
    }
}

#[test]
fn codex_rollouts_pass_fsck_and_branch_lists_the_scenarios_forks() {
    let dir = Dir::new();
    for scenario in super::the_scenarios("codex") {
        let record = Record::read(&scenario);
        for file in rollouts(&scenario.join("sessions")) {
            super::fsck_is_clean(&dir, &file);
            let branches = super::ysess(&dir, &file, &["branch", "--json"]);
            branches.status(0);
            assert_eq!(
                branches.json_lines().len(),
                record.branches,
                "{}: {}\n{branches}",
                record.scenario,
                file.display()
            );
        }
    }
}

/// What Codex sends the model when it resumes `file`, as turns.
fn resumed(file: &Path) -> Vec<text::Turn> {
    let sessions = file
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "sessions"))
        .expect("the rollout is under a sessions folder");
    let home = Home::new();
    super::copy_tree(sessions, &home.home().join(".codex/sessions"));
    let mock = Mock::start(|_| Reply::text("ok", Usage::default()));
    let id = id_of(file);
    let out = home.run(
        Agent::Codex,
        &mock,
        &[
            "exec",
            "resume",
            "--skip-git-repo-check",
            "--",
            &id,
            super::PROBE,
        ],
    );
    succeeded(&out, &format!("codex exec resume {id}"));
    super::probed(&mock, "input", text::responses)
}

#[test]
fn export_is_what_codex_resumes_on_every_generated_rollout() {
    if !super::ready() {
        return;
    }
    let files: Vec<PathBuf> = super::the_scenarios("codex")
        .iter()
        .flat_map(|s| rollouts(&s.join("sessions")))
        .collect();
    let (compared, differ) = super::compare_resumes(files, resumed, text::responses);
    assert!(compared >= 5, "{compared} rollouts compared");
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}

#[test]
fn stats_tokens_equal_the_mocks_usage_and_ccusage_on_every_codex_scenario() {
    if let Some(why) = crate::ccusage::ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let mut differ = Vec::new();
    for scenario in super::the_scenarios("codex") {
        let record = Record::read(&scenario);
        let calls: Vec<&Call> = record.calls.iter().collect();
        let home = scenario.to_str().expect("a UTF-8 path");
        // OpenAI counts cached input inside input; ysess and ccusage split it.
        differ.extend(super::account_differs(
            &record.scenario,
            super::mock_tokens(&calls),
            super::ysess_all(&[("CODEX_HOME", home)]),
            super::ccusage_daily(Some("codex"), &[("CODEX_HOME", home)]),
        ));
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn stats_of_each_rollout_equals_the_mocks_usage_of_the_calls_made_for_it() {
    let dir = Dir::new();
    let mut differ = Vec::new();
    for scenario in super::the_scenarios("codex") {
        let record = Record::read(&scenario);
        for file in rollouts(&scenario.join("sessions")) {
            let id = id_of(&file);
            let made: Vec<&Call> = record
                .calls
                .iter()
                .filter(|c| c.session.as_deref() == Some(id.as_str()))
                .collect();
            let ours = super::stats_tokens(&dir, &file);
            let mock = super::mock_tokens(&made);
            if ours != mock {
                differ.push(format!(
                    "{}: stats {ours:?}, the mock's usage of its calls {mock:?}",
                    file.display()
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}

#[test]
fn export_is_what_codex_resumes_on_rollouts_older_versions_wrote() {
    if !super::ready() {
        return;
    }
    // Each rollout alone in a Codex home, named as Codex names its files.
    let folder = super::root().join("tests/fixtures/codex");
    let mut homes = Vec::new();
    for name in [
        "codex-0.34.0-tools",
        "codex-0.42.0-tools",
        "codex-0.63.0-tools",
        "codex-0.169.0-tools",
        "rollout",
        "ide",
    ] {
        let file = folder.join(format!("{name}.jsonl"));
        let id = id_of(&file);
        let home = Dir::new();
        let day = home.join("sessions/2026/12/06");
        std::fs::create_dir_all(&day).expect("a sessions folder");
        let to = day.join(format!("rollout-2026-12-06T03-00-00-{id}.jsonl"));
        std::fs::copy(&file, &to).expect("copied");
        homes.push((to, home));
    }
    let files = homes.iter().map(|(f, _)| f.clone()).collect();
    let (compared, differ) = super::compare_resumes(files, resumed, text::responses);
    assert_eq!(compared, 6);
    assert!(differ.is_empty(), "{}", differ.join("\n\n"));
}
