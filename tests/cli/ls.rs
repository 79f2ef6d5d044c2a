//! `ysess ls` and `-s`: every session in the agents' own folders of a home
//! built for the test, each in its default place.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::pi::pi_session;
use crate::support::{Dir, Run, fixture};

/// A home with a session of each agent where the agent keeps it: Claude
/// Code (with a subagent in a file of its own), Codex, pi (written by pi
/// itself), Qwen Code (with a subagent's file), Gemini CLI (resumed: with
/// the empty files a resume leaves), Copilot CLI, OpenCode (five sessions
/// and a subagent's in its database), and yoagent (under `$YSESS_PATH`).
struct Home {
    dir: Dir,
    /// With a subagent in a file of its own.
    claude: PathBuf,
    /// Another Claude Code session, of the project `/home/dana/src/ystats`.
    claude2: PathBuf,
    codex: PathBuf,
    pi: PathBuf,
    /// pi's header of its session.
    pi_header: serde_json::Value,
    yoagent: PathBuf,
    qwen: PathBuf,
    gemini: PathBuf,
    copilot: PathBuf,
}

impl Home {
    fn new() -> Option<Home> {
        let (pi_dir, inspect) = pi_session(7)?;
        let dir = Dir::new();
        let put = |from: &Path, to: &str| {
            let to = dir.join(to);
            std::fs::create_dir_all(to.parent().expect("a folder")).expect("folders");
            std::fs::copy(from, &to).expect("a copy");
            to
        };
        let project = "home/.claude/projects/-home-dana-src-ystats";
        let claude = put(
            &fixture("claude/delegates.jsonl"),
            &format!("{project}/7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f.jsonl"),
        );
        put(
            &fixture("claude/delegates/subagents/agent-a3f9c2e1.jsonl"),
            &format!(
                "{project}/7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f/subagents/agent-a3f9c2e1.jsonl"
            ),
        );
        let claude2 = put(
            &fixture("claude/session.jsonl"),
            &format!("{project}/3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13.jsonl"),
        );
        let codex = put(
            &fixture("codex/rollout.jsonl"),
            "home/.codex/sessions/2026/11/21/rollout-2026-11-21T08-00-00-019a2d7a-41c4-78b1-b7cc-a45d62a89cd5.jsonl",
        );
        let pi = put(
            &pi_dir.join("7.jsonl"),
            "home/.pi/agent/sessions/--home-dana-src-ystats--/2026-12-01_pi.jsonl",
        );
        let yoagent = put(&fixture("demo.jsonl"), "apps/demo.jsonl");
        let qwen = dir.join(
            "home/.qwen/projects/-tmp-agents41-proj-q/chats/a46bb707-d851-4654-9bb8-793ec4251519.jsonl",
        );
        let gemini =
            dir.join("home/.gemini/tmp/proj-g/chats/session-2026-12-06T07-25-4746f332.jsonl");
        let copilot = dir
            .join("home/.copilot/session-state/0d07abb5-0bd8-427e-a0f7-6da3a5a5d3b8/events.jsonl");
        Some(Home {
            dir,
            claude,
            claude2,
            codex,
            pi,
            pi_header: inspect.header,
            yoagent,
            qwen,
            gemini,
            copilot,
        })
    }

    /// The same home with the sessions of Qwen Code, Gemini CLI and Copilot
    /// CLI too (the other tests count the first five).
    fn with_every_agent() -> Option<Home> {
        let home = Home::new()?;
        let dir = &home.dir;
        crate::agents::copy_tree(&fixture("qwen/subagent"), &dir.join("home/.qwen"));
        crate::agents::copy_tree(&fixture("gemini/rewind"), &dir.join("home/.gemini"));
        crate::agents::copy_tree(&fixture("copilot/tools"), &dir.join("home/.copilot"));
        crate::agents::copy_tree(
            &fixture("opencode/openai"),
            &dir.join("home/.local/share/opencode"),
        );
        Some(home)
    }

    fn run(&self, args: &[&str]) -> Run {
        self.dir.run_in_home(args)
    }

    /// `ysess -f FILE stats --json`'s total, for the same file.
    fn stats_total(&self, file: &Path) -> serde_json::Value {
        self.run(&["-f", file.to_str().expect("UTF-8"), "stats", "--json"])
            .status(0)
            .stats_total()
    }
}

fn set_modified(path: &Path, secs: u64) {
    let file = std::fs::File::options()
        .append(true)
        .open(path)
        .expect("the file opens");
    file.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(secs))
        .expect("its time is set");
}

#[test]
fn ls_lists_every_agents_sessions_in_their_own_folders_newest_first() {
    let Some(home) = Home::with_every_agent() else {
        return;
    };
    let run = home.run(&["ls", "--json"]);
    run.status(0);
    let lines = run.json_lines();
    let (sessions, total) = lines.split_at(lines.len() - 1);
    assert_eq!(total[0]["type"], "total", "{run}");
    assert_eq!(total[0]["sessions"], 13, "{run}");
    assert_eq!(total[0]["unreadable"], 0, "{run}");
    // Newest activity first.
    let lasts: Vec<u64> = sessions
        .iter()
        .map(|s| s["last"].as_u64().expect("a time"))
        .collect();
    assert!(lasts.windows(2).all(|w| w[0] >= w[1]), "{run}");
    let of = |path: &Path| {
        sessions
            .iter()
            .find(|s| s["path"] == path.to_str().expect("UTF-8"))
            .unwrap_or_else(|| panic!("{} listed\n{run}", path.display()))
            .clone()
    };
    // Each agent's own record of the session's id and project.
    let pi = of(&home.pi);
    assert_eq!(pi["agent"], "pi");
    assert_eq!(pi["id"], home.pi_header["id"]);
    assert_eq!(pi["project"], home.pi_header["cwd"]);
    let codex = of(&home.codex);
    assert_eq!(codex["agent"], "codex");
    assert_eq!(codex["id"], "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5");
    assert_eq!(codex["project"], "/home/dana/src/ystats");
    // The title is the user's first words, not the context Codex adds.
    assert!(
        !codex["title"]
            .as_str()
            .expect("a title")
            .starts_with("(context:"),
        "{run}"
    );
    let claude = of(&home.claude);
    assert_eq!(claude["agent"], "claude");
    assert_eq!(claude["id"], "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f");
    assert_eq!(claude["title"], "Who calls `collect`? Use an agent.");
    let claude2 = of(&home.claude2);
    assert_eq!(claude2["id"], "3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13");
    assert_eq!(claude2["project"], "/home/dana/src/ystats");
    // Claude Code's summary of the session is its title.
    assert_eq!(claude2["title"], "Add --json flag to ystats stats");
    let yoagent = of(&home.yoagent);
    assert_eq!(yoagent["agent"], "yoagent");
    assert_eq!(yoagent["id"], "demo");
    let text = std::fs::read_to_string(&home.yoagent).expect("the file reads");
    let loaded = yoagent::Session::from_jsonl(&text).expect("yoagent loads it");
    assert_eq!(yoagent["entries"], loaded.entries().len() as u64);
    // Tokens and cost are `stats`' totals (a Claude Code subagent's file
    // included), and the subagent's file is no session of its own.
    let qwen = of(&home.qwen);
    assert_eq!(qwen["agent"], "qwen");
    assert_eq!(qwen["id"], "a46bb707-d851-4654-9bb8-793ec4251519");
    assert_eq!(qwen["project"], "/tmp/agents41/proj-q");
    let gemini = of(&home.gemini);
    assert_eq!(gemini["agent"], "gemini");
    assert_eq!(gemini["id"], "4746f332-6801-43b1-88dc-63d50b1dd184");
    assert_eq!(gemini["project"], "/tmp/agents41/proj-g");
    assert_eq!(gemini["branches"], 2);
    let copilot = of(&home.copilot);
    assert_eq!(copilot["agent"], "copilot");
    assert_eq!(copilot["id"], "0d07abb5-0bd8-427e-a0f7-6da3a5a5d3b8");
    assert_eq!(copilot["title"], "USE_TOOL please list txt files");
    let opencode = sessions.iter().filter(|s| s["agent"] == "opencode").count();
    assert_eq!(opencode, 5, "{run}");
    for (listed, file) in [
        (&qwen, &home.qwen),
        (&gemini, &home.gemini),
        (&copilot, &home.copilot),
        (&pi, &home.pi),
        (&codex, &home.codex),
        (&claude, &home.claude),
        (&claude2, &home.claude2),
        (&yoagent, &home.yoagent),
    ] {
        let total = home.stats_total(file);
        assert_eq!(listed["tokens"], total["tokens"], "{}", file.display());
        assert_eq!(listed["cost"], total["cost"], "{}", file.display());
    }
    assert!(!run.stdout.contains("agent-a3f9c2e1"), "{run}");
    assert!(!run.stdout.contains("agent-Explore"), "{run}");
}

#[test]
fn ls_names_a_bad_file_on_stderr_lists_the_rest_and_exits_1() {
    let Some(home) = Home::new() else { return };
    let broken = home.dir.join("apps/broken.jsonl");
    std::fs::copy(fixture("broken.jsonl"), &broken).expect("a copy");
    let run = home.run(&["ls"]);
    run.status(1);
    assert!(
        run.stderr.contains(&format!(
            "error: {}: not a valid session: line 7",
            broken.display()
        )),
        "{run}"
    );
    // A header, then the five good sessions.
    assert_eq!(run.stdout.lines().count(), 6, "{run}");
    assert!(run.stdout.starts_with("ACTIVITY"), "{run}");
    let json = home.run(&["ls", "--json"]);
    json.status(1);
    let lines = json.json_lines();
    assert_eq!(lines.last().expect("a total")["unreadable"], 1, "{json}");
}

#[test]
fn ls_filters_by_agent_project_and_time() {
    let Some(home) = Home::new() else { return };
    let paths = |args: &[&str]| -> Vec<String> {
        let mut all = vec!["ls", "--json"];
        all.extend(args);
        home.run(&all)
            .json_lines()
            .into_iter()
            .filter(|l| l["type"] == "session")
            .map(|l| l["path"].as_str().expect("a path").to_string())
            .collect()
    };
    let name = |p: &Path| p.to_str().expect("UTF-8").to_string();
    assert_eq!(paths(&["--agent", "codex"]), [name(&home.codex)]);
    assert_eq!(
        paths(&["--agent", "claude", "--agent", "yoagent"]).len(),
        3,
        "repeatable"
    );
    let mut ystats = paths(&["--project", "src/ystats"]);
    ystats.sort();
    let mut want = vec![name(&home.claude), name(&home.claude2), name(&home.codex)];
    want.sort();
    assert_eq!(ystats, want);
    // The Codex session ran on 2026-11-21; Claude Code's the day before.
    assert_eq!(
        paths(&["--since", "2026-11-21", "--until", "2026-11-21 23:59"]),
        [name(&home.codex)]
    );
    // Nothing listed is a "no".
    home.run(&["ls", "--agent", "pi", "--until", "2000-01-01"])
        .status(1);
    home.run(&["ls", "--since", "not a time"]).status(2);
}

#[test]
fn dash_s_names_a_session_by_the_start_of_its_id_or_as_latest() {
    let Some(home) = Home::new() else { return };
    // The files' times say which was written last.
    set_modified(&home.yoagent, 4_000);
    set_modified(&home.claude, 3_000);
    set_modified(&home.claude2, 2_500);
    set_modified(&home.codex, 2_000);
    set_modified(&home.pi, 1_000);
    let file_of = |args: &[&str]| {
        let mut all = vec![];
        all.extend(args);
        all.extend(["status", "--json"]);
        let run = home.run(&all);
        run.status(0);
        run.stdout.clone()
    };
    let by_file = |path: &Path| {
        home.run(&["-f", path.to_str().expect("UTF-8"), "status", "--json"])
            .status(0)
            .stdout
            .clone()
    };
    assert_eq!(file_of(&["-s", "latest"]), by_file(&home.yoagent));
    assert_eq!(file_of(&["-s", "latest~1"]), by_file(&home.claude));
    assert_eq!(file_of(&["--session", "latest~4"]), by_file(&home.pi));
    // A unique start of the id the file records (pi's file name does not
    // hold it here), or of the file's name.
    let pi_id = home.pi_header["id"].as_str().expect("an id");
    assert_eq!(file_of(&["-s", &pi_id[..8]]), by_file(&home.pi));
    assert_eq!(file_of(&["-s", "7d1e"]), by_file(&home.claude));
    assert_eq!(file_of(&["-s", "rollout-2026"]), by_file(&home.codex));
    // Ambiguous: every candidate named, exit 128.
    std::fs::copy(&home.yoagent, home.dir.join("apps/demo-copy.jsonl")).expect("a copy");
    let run = home.run(&["-s", "demo", "status"]);
    run.status(128);
    assert!(
        run.stderr
            .contains("error: `demo` is the start of 2 sessions' ids or file names"),
        "{run}"
    );
    assert!(run.stderr.contains("demo-copy.jsonl"), "{run}");
    home.run(&["-s", "nothing-starts-so", "status"]).status(128);
    home.run(&["-s", "latest~9", "status"]).status(128);
    // -s and -f both name the file.
    home.run(&["-s", "latest", "-f", "x.jsonl", "status"])
        .status(2);
}

#[test]
fn ls_never_prints_a_sessions_control_characters_raw() {
    let Some(home) = Home::new() else { return };
    let line = crate::support::user_line("e1", None, "\u{1b}[2Jwiped \u{202e}reversed");
    std::fs::write(
        home.dir.join("apps/hostile\u{1b}.jsonl"),
        format!("{line}\n"),
    )
    .expect("a file");
    let run = home.run(&["ls", "--agent", "yoagent"]);
    run.status(0);
    assert!(!run.stdout.contains('\u{1b}'), "{run}");
    assert!(!run.stdout.contains('\u{202e}'), "{run}");
    assert!(
        run.stdout.contains(r"\u{1b}[2Jwiped \u{202e}reversed"),
        "{run}"
    );
    assert!(run.stdout.contains(r"hostile\u{1b}"), "{run}");
}

/// `ysess stats --all --by BY --json`'s groups, by name, and its total.
fn groups(home: &Home, args: &[&str]) -> (Vec<(String, serde_json::Value)>, serde_json::Value) {
    let mut all = vec!["stats", "--all", "--json"];
    all.extend(args);
    let run = home.run(&all);
    run.status(0);
    let total = run.stats_total();
    let groups = run
        .json_lines()
        .into_iter()
        .filter(|l| l["type"] != "total")
        .map(|l| (l["name"].as_str().expect("a name").to_string(), l))
        .collect();
    (groups, total)
}

#[test]
fn stats_all_adds_up_every_agents_sessions_by_agent_session_model_and_day() {
    let Some(home) = Home::new() else { return };
    let files = [
        ("claude", &home.claude),
        ("claude", &home.claude2),
        ("codex", &home.codex),
        ("pi", &home.pi),
        ("yoagent", &home.yoagent),
    ];
    // Each agent's group is the sum of its sessions' own totals.
    let (by_agent, total) = groups(&home, &["--by", "agent"]);
    let mut sum_all = [0u64; 5];
    for (agent, account) in &by_agent {
        assert_eq!(account["type"], "agent");
        let mut sum = [0u64; 5];
        for (_, file) in files.iter().filter(|(a, _)| a == agent) {
            let t = home.stats_total(file);
            for (k, key) in ["input", "output", "cache_read", "cache_write"]
                .iter()
                .enumerate()
            {
                sum[k] += t["tokens"][key].as_u64().expect("tokens");
            }
            sum[4] += t["entries"].as_u64().expect("entries");
        }
        let tokens = &account["tokens"];
        let mine = [
            tokens["input"].as_u64().expect("input"),
            tokens["output"].as_u64().expect("output"),
            tokens["cache_read"].as_u64().expect("read"),
            tokens["cache_write"].as_u64().expect("write"),
            account["entries"].as_u64().expect("entries"),
        ];
        assert_eq!(mine, sum, "agent {agent}");
        for k in 0..5 {
            sum_all[k] += sum[k];
        }
    }
    assert_eq!(by_agent.len(), 4, "{by_agent:?}");
    assert_eq!(total["tokens"]["input"], sum_all[0]);
    assert_eq!(total["entries"], sum_all[4]);
    // By session: one group per session, named by its id.
    let (by_session, _) = groups(&home, &["--by", "session"]);
    let names: Vec<&str> = by_session.iter().map(|g| g.0.as_str()).collect();
    for id in [
        "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f",
        "3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13",
        "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5",
        "demo",
        home.pi_header["id"].as_str().expect("an id"),
    ] {
        assert!(names.contains(&id), "{id} in {names:?}");
    }
    // By model and by day, the groups add up to the same total.
    for by in ["model", "day", "week", "month"] {
        let (g, t) = groups(&home, &["--by", by]);
        let out: u64 = g
            .iter()
            .map(|(_, a)| a["tokens"]["output"].as_u64().expect("out"))
            .sum();
        assert_eq!(
            out,
            t["tokens"]["output"].as_u64().expect("out"),
            "--by {by}"
        );
        assert!(g.iter().all(|(_, a)| a["type"] == by), "--by {by}");
    }
    // The window keeps the entries of its days only: Codex's day.
    let (days, t) = groups(
        &home,
        &[
            "--by",
            "day",
            "--since",
            "2026-11-21",
            "--until",
            "2026-11-21 23:59:59",
        ],
    );
    assert_eq!(days.len(), 1, "{days:?}");
    assert_eq!(days[0].0, "2026-11-21");
    assert_eq!(t["tokens"], home.stats_total(&home.codex)["tokens"]);
}

#[test]
fn stats_all_names_a_bad_file_and_exits_1_and_by_session_takes_all() {
    let Some(home) = Home::new() else { return };
    std::fs::copy(fixture("broken.jsonl"), home.dir.join("apps/broken.jsonl")).expect("a copy");
    let run = home.run(&["stats", "--all", "--by", "agent"]);
    run.status(1);
    assert!(
        run.stderr.contains("broken.jsonl: not a valid session"),
        "{run}"
    );
    assert!(run.stdout.contains("total (5 sessions)"), "{run}");
    let demo = fixture("demo.jsonl");
    home.run(&[
        "-f",
        demo.to_str().expect("UTF-8"),
        "stats",
        "--by",
        "session",
    ])
    .status(2);
    home.run(&["stats", "--since", "yesterday"]).status(2);
    home.run(&["stats", "--all", "--tz", "Not/AZone"]).status(2);
}

#[test]
fn grep_all_searches_every_session_newest_first_as_each_file_alone_would() {
    let Some(home) = Home::new() else { return };
    // The order the files were written in: newest first in the output.
    let order = [
        &home.pi,
        &home.codex,
        &home.claude,
        &home.claude2,
        &home.yoagent,
    ];
    for (k, file) in order.iter().enumerate() {
        set_modified(file, 10_000 - k as u64 * 1_000);
    }
    let pattern = "the";
    let run = home.run(&["grep", "--all", "-i", pattern]);
    run.status(0);
    // Each session's lines are what grep of its file alone prints, each
    // id after the session's as `ls` shows it.
    let mut expected = String::new();
    let mut listed = String::new();
    for file in order {
        let alone = home.run(&["-f", file.to_str().expect("UTF-8"), "grep", "-i", pattern]);
        if alone.status == Some(1) {
            continue;
        }
        alone.status(0);
        let ls = home.run(&["ls", "--json", file.to_str().expect("UTF-8")]);
        let id = ls.json_lines()[0]["id"]
            .as_str()
            .expect("an id")
            .to_string();
        let short: String = id.chars().take(8).collect();
        for line in alone.stdout.lines() {
            expected.push_str(&format!("{short}:{line}\n"));
        }
        listed.push_str(&format!("{}\n", file.display()));
    }
    assert!(expected.lines().count() > 10, "{expected}");
    assert_eq!(run.stdout, expected, "{run}");
    // -l: the files of the sessions that match.
    home.run(&["grep", "--all", "-l", "-i", pattern])
        .status(0)
        .stdout(&listed);
    // -c: SESSION:ENTRY:N.
    let counted = home.run(&["grep", "--all", "-c", "-i", pattern]);
    counted.status(0);
    assert!(
        counted.stdout.lines().all(|l| l.split(':').count() == 3),
        "{counted}"
    );
    // --json: each match with its session and file.
    let json = home.run(&["grep", "--all", "--json", "Count the lines"]);
    json.status(0);
    let lines = json.json_lines();
    assert_eq!(lines.len(), 1, "{json}");
    assert_eq!(lines[0]["session"], "019a2d7a-41c4-78b1-b7cc-a45d62a89cd5");
    assert_eq!(lines[0]["path"], home.codex.to_str().expect("UTF-8"));
    // Nothing anywhere: 1.
    home.run(&["grep", "--all", "no session says this"])
        .status(1)
        .stdout("");
}

#[test]
fn a_claude_code_title_the_user_gave_wins_over_the_apps_summaries() {
    let Some(home) = Home::new() else { return };
    // today.jsonl holds a `custom-title` line; a summary written after it
    // does not replace the name the user gave.
    let mut text = std::fs::read_to_string(fixture("claude/today.jsonl")).expect("the fixture");
    text.push_str(r#"{"type":"summary","summary":"What the app made of it","leafUuid":"x"}"#);
    text.push('\n');
    let file = home
        .dir
        .join("home/.claude/projects/-home-dana-src-ystats/today.jsonl");
    std::fs::write(&file, text).expect("a file");
    let run = home.run(&["ls", "--json", file.to_str().expect("UTF-8")]);
    run.status(0);
    assert_eq!(run.json_lines()[0]["title"], "empty-file output", "{run}");
}

/// `grep --all` reads a file's raw bytes first and skips one its pattern
/// cannot match: a word the file holds only through a JSON escape is still
/// found, as `-f FILE grep` finds it.
#[test]
fn grep_all_skips_no_file_whose_only_match_is_escaped() {
    let dir = Dir::new();
    let folder = dir.join("home/.claude/projects/-w");
    std::fs::create_dir_all(&folder).expect("a folder");
    let text = std::fs::read_to_string(fixture("claude/session.jsonl")).expect("the fixture");
    let escaped = folder.join("3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13.jsonl");
    std::fs::write(
        &escaped,
        text.replace("collect_stats", "collect_st\\u0061ts"),
    )
    .expect("written");
    let other = folder.join("4f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13.jsonl");
    std::fs::write(&other, text.replace("collect_stats", "gather")).expect("written");
    let home = dir.join("home");
    let env = [
        ("HOME", home.to_str().expect("UTF-8")),
        ("YSESS_PATH", ""),
        ("CLAUDE_CONFIG_DIR", ""),
    ];
    let all = dir.run_with(&["grep", "--all", "-c", "collect_stats"], None, &env);
    let alone = dir.run(&[
        "-f",
        escaped.to_str().expect("UTF-8"),
        "grep",
        "-c",
        "collect_stats",
    ]);
    let each: String = alone
        .status(0)
        .stdout
        .lines()
        .map(|l| format!("3f2c8a1e:{l}\n"))
        .collect();
    assert!(!each.is_empty(), "{alone}");
    assert_eq!(all.status(0).stdout, each, "{all}");
}
