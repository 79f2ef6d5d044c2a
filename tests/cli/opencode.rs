//! OpenCode's sessions, as OpenCode 1.18.33 wrote them into its SQLite
//! database against a mock model (`tests/fixtures/opencode/`, each folder
//! what `$XDG_DATA_HOME/opencode` holds): each session named
//! `…/opencode.db/<session id>` and read through every command, the
//! database read while OpenCode writes, tokens and cost equal to ccusage's
//! `opencode` report.

use std::path::{Path, PathBuf};

use crate::agents::ysess;
use crate::ccusage::{ccusage_json, ccusage_missing};
use crate::support::{Dir, Run, fixture};

const SCENARIOS: [&str; 2] = ["anthropic", "openai"];

/// A home whose OpenCode data folder is a copy of the scenario's.
fn home_of(name: &str) -> Dir {
    let home = Dir::new();
    let data = home.join(".local/share/opencode");
    std::fs::create_dir_all(&data).expect("a data folder");
    std::fs::copy(
        fixture(&format!("opencode/{name}/opencode.db")),
        data.join("opencode.db"),
    )
    .expect("a copy");
    home
}

fn db(home: &Dir) -> PathBuf {
    home.join(".local/share/opencode/opencode.db")
}

/// `ysess ARGS` with `home` as `HOME` and no other session folder.
fn in_home(home: &Dir, args: &[&str]) -> Run {
    let path = home.path().to_str().expect("UTF-8").to_string();
    home.run_with(
        args,
        None,
        &[
            ("HOME", path.as_str()),
            ("XDG_DATA_HOME", ""),
            ("YSESS_PATH", ""),
            ("XDG_CONFIG_HOME", path.as_str()),
        ],
    )
}

/// The sessions `ls --json` lists in `home`: (id, path, row).
fn listed(home: &Dir) -> Vec<serde_json::Value> {
    in_home(home, &["ls", "--json"])
        .status(0)
        .json_lines()
        .into_iter()
        .filter(|r| r["type"] == "session")
        .collect()
}

const TOOLS: &str = "ses_db5958b66ffeuHzzQB3uNBllYk";

#[test]
fn ls_lists_each_session_once_its_subagents_with_it() {
    let home = home_of("openai");
    let rows = listed(&home);
    let ids: Vec<&str> = rows.iter().filter_map(|r| r["id"].as_str()).collect();
    assert_eq!(ids.len(), 5, "{rows:?}");
    assert!(!ids.contains(&"ses_db59550a1ffeCxrLF3Mto20jcV"), "{ids:?}");
    let tools = rows
        .iter()
        .find(|r| r["id"] == TOOLS)
        .expect("the tool session");
    assert_eq!(tools["agent"], "opencode");
    assert_eq!(tools["project"], "/tmp/a41-opencode/home1/proj");
    assert_eq!(
        tools["title"],
        "Mock reply #5 to: \"USE_TOOL read a.txt please\""
    );
    assert_eq!(
        tools["path"],
        db(&home).join(TOOLS).to_str().expect("UTF-8")
    );
    // `-s` names one by the start of its id.
    let run = in_home(&home, &["-s", "ses_db5955", "stats", "--json"]);
    let lines = run.status(0).json_lines();
    assert!(
        lines
            .iter()
            .any(|l| l["type"] == "subagent" && l["name"] == "ses_db59550a1ffeCxrLF3Mto20jcV"),
        "{run}"
    );
}

#[test]
fn every_session_is_sound_and_a_tool_turn_reads_as_calls_and_results() {
    let dir = Dir::new();
    for name in SCENARIOS {
        let home = home_of(name);
        for row in listed(&home) {
            let path = PathBuf::from(row["path"].as_str().expect("a path"));
            let run = ysess(&dir, &path, &["fsck", "-v"]);
            run.status(0);
            assert!(!run.stderr.contains("warning"), "{run}");
            assert!(run.stdout.contains(": ok; opencode session"), "{run}");
        }
    }
    let home = home_of("openai");
    let file = db(&home).join(TOOLS);
    ysess(&dir, &file, &["log", "--graph", "-n", "4"])
        .status(0)
        .stdout(
            "\
@  msg_24a6a9c (HEAD) assistant mock-model 2026-12-06 08:13: Tool finished; mock reply #11.
○  prt_24a6a9 toolResult glob 2026-12-06 08:13: ripgrep execution failed
○  msg_24a6a98 assistant mock-model 2026-12-06 08:13: Let me look.
○  msg_24a6a95 user 2026-12-06 08:13: \"USE_GLOB find txt files\"
",
        );
    let show = ysess(&dir, &file, &["show", "msg_24a6a79"]);
    show.status(0);
    assert!(
        show.stdout.contains("tool call read [call_mock_6]"),
        "{show}"
    );
    ysess(&dir, &file, &["grep", "USE_BASH"])
        .status(0)
        .stdout("msg_24a6a86 user: \"USE_BASH run ls\"\n");
    // The failed call is an error result.
    let stats = ysess(&dir, &file, &["stats", "--json"]).stats_total();
    let glob = stats["tools"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "glob"))
        .cloned();
    assert_eq!(glob.map(|g| g["errors"].clone()), Some(1.into()), "{stats}");
}

#[test]
fn the_database_is_read_while_opencode_writes_it() {
    let home = home_of("openai");
    let path = db(&home);
    // OpenCode runs its database in write-ahead-log mode, and holds a
    // write open while it streams a reply.
    let writer = rusqlite::Connection::open(&path).expect("the database opens");
    let mode: String = writer
        .query_row("PRAGMA journal_mode=WAL", [], |r| r.get(0))
        .expect("WAL");
    assert_eq!(mode, "wal");
    writer
        .execute_batch(
            "BEGIN IMMEDIATE; UPDATE session SET title = 'renamed' WHERE id = 'ses_db5958b66ffeuHzzQB3uNBllYk';",
        )
        .expect("a write under way");
    let started = std::time::Instant::now();
    let run = ysess(&home, &path.join(TOOLS), &["log", "--oneline", "-n", "1"]);
    run.status(0);
    assert!(started.elapsed().as_secs() < 4, "not kept waiting: {run}");
    // What is not committed is not read; once committed, it is.
    assert!(listed(&home).iter().all(|r| r["title"] != "renamed"));
    writer.execute_batch("COMMIT").expect("committed");
    assert!(listed(&home).iter().any(|r| r["title"] == "renamed"));
    // ysess left no lock behind: OpenCode writes again at once.
    writer
        .execute_batch("BEGIN IMMEDIATE; UPDATE session SET title = 'again'; COMMIT;")
        .expect("the writer is never locked out");
}

#[test]
fn a_session_that_is_not_there_is_named() {
    let home = home_of("openai");
    let run = ysess(&home, &db(&home).join("ses_nothere"), &["log"]);
    run.status(128);
    assert!(
        run.stderr
            .contains("opencode.db/ses_nothere does not exist"),
        "{run}"
    );
    let run = ysess(&home, &db(&home).join("ses_nothere"), &["fsck"]);
    run.status(128);
    assert!(
        run.stderr.contains("OpenCode holds no session ses_nothere"),
        "{run}"
    );
}

#[test]
fn stats_all_tokens_and_cost_equal_ccusage_opencode() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    for name in SCENARIOS {
        let home = home_of(name);
        let total = in_home(&home, &["stats", "--all", "--json"]).stats_total();
        let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
        let report = ccusage_json(
            &["opencode", "session"],
            &[
                ("HOME", "/nonexistent"),
                (
                    "OPENCODE_DATA_DIR",
                    db(&home).parent().and_then(Path::to_str).expect("UTF-8"),
                ),
            ],
        );
        let t = crate::ccusage::totals(&report);
        // ccusage's output leaves the reasoning out, and its total holds
        // it: ysess counts it as output, as it is billed.
        assert_eq!(
            (n("input"), n("cache_read"), n("cache_write"), n("total")),
            (t.input, t.cache_read, t.cache_write, t.total),
            "{name}: ysess {total}; ccusage {report}"
        );
        let cost = total["cost"].as_f64().unwrap_or(f64::NAN);
        assert!(
            (cost - t.cost).abs() < 0.005,
            "{name}: ${cost} vs ${}",
            t.cost
        );
    }
}

#[test]
fn tag_and_branch_keep_their_records_beside_the_database_and_resume_goes_on_at_the_end() {
    let home = home_of("openai");
    let path = db(&home);
    let before = std::fs::read(&path).expect("the database");
    let file = path.join(TOOLS);
    ysess(&home, &file, &["tag", "first", "HEAD~2"]).status(0);
    ysess(&home, &file, &["checkout", "-b", "try", "first"]).status(0);
    ysess(&home, &file, &["log", "--oneline", "-n", "1"])
        .status(0)
        .stdout("msg_24a6a98 (HEAD, try, first) assistant mock-model: Let me look.\n");
    // OpenCode's database is never written.
    assert_eq!(std::fs::read(&path).expect("the database"), before);
    home.run(&["fsck", home.join(".ysess-refs").to_str().expect("UTF-8")])
        .status(0);
    // OpenCode resumes a session at its end only: there, its own command;
    // anywhere else, a refusal that says why.
    let run = ysess(&home, &file, &["resume", "--print"]);
    run.status(128);
    assert!(
        run.stderr
            .contains("OpenCode resumes a session only at its end"),
        "{run}"
    );
    ysess(&home, &file, &["checkout", "msg_24a6a9c"]).status(0);
    let run = ysess(&home, &file, &["resume", "--print"]);
    run.status(0);
    assert!(
        run.stdout.starts_with(&format!(
            "cd -- /tmp/a41-opencode/home1/proj && XDG_DATA_HOME={} opencode --session {TOOLS}",
            home.join(".local/share").display()
        )),
        "{run}"
    );
}

/// A home whose OpenCode data folder is the scenario's whole folder.
fn home_with_folder(name: &str) -> Dir {
    let home = Dir::new();
    crate::agents::copy_tree(
        &fixture(&format!("opencode/{name}")),
        &home.join(".local/share/opencode"),
    );
    home
}

#[test]
fn the_older_json_store_is_read_and_a_session_in_both_stores_is_listed_once() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let mut totals = Vec::new();
    for name in ["legacy", "migrated"] {
        let home = home_with_folder(name);
        let rows = listed(&home);
        assert_eq!(rows.len(), 3, "{name}: {rows:?}");
        let data = home.join(".local/share/opencode");
        for row in &rows {
            let path = PathBuf::from(row["path"].as_str().expect("a path"));
            // The database first, where it holds the session.
            assert_eq!(
                path.starts_with(data.join("opencode.db")),
                name == "migrated",
                "{name}: {row}"
            );
            let run = ysess(&home, &path, &["fsck"]);
            run.status(0);
            assert!(!run.stderr.contains("warning"), "{run}");
        }
        let total = in_home(&home, &["stats", "--all", "--json"]).stats_total();
        let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
        let report = ccusage_json(
            &["opencode", "session"],
            &[
                ("HOME", "/nonexistent"),
                ("OPENCODE_DATA_DIR", data.to_str().expect("UTF-8")),
            ],
        );
        let t = crate::ccusage::totals(&report);
        // OpenCode 1.1 counted the reasoning in `output`: ccusage's output
        // is ysess's (its total counts the reasoning twice).
        assert_eq!(
            (n("input"), n("output"), n("cache_read"), n("cache_write")),
            (t.input, t.output, t.cache_read, t.cache_write),
            "{name}: ysess {total}; ccusage {report}"
        );
        totals.push(total["tokens"].clone());
    }
    assert_eq!(totals[0], totals[1], "one session counted once");
}

#[test]
fn each_sessions_tokens_and_cost_equal_the_databases_own_totals() {
    let dir = Dir::new();
    for name in SCENARIOS {
        let home = home_of(name);
        let conn = rusqlite::Connection::open(db(&home)).expect("the database");
        for row in listed(&home) {
            let id = row["id"].as_str().expect("an id");
            let own: (u64, u64, u64, u64, u64, f64) = conn
                .query_row(
                    "SELECT tokens_input, tokens_output, tokens_reasoning, tokens_cache_read, \
                     tokens_cache_write, cost FROM session WHERE id = ?1",
                    [id],
                    |r| {
                        Ok((
                            r.get(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get(3)?,
                            r.get(4)?,
                            r.get(5)?,
                        ))
                    },
                )
                .expect("the session's row");
            // The session's own turns: its subagents' are theirs.
            let path = PathBuf::from(row["path"].as_str().expect("a path"));
            let lines = ysess(&dir, &path, &["stats", "--json"])
                .status(0)
                .json_lines();
            let mine =
                lines
                    .iter()
                    .filter(|l| l["type"] == "branch")
                    .fold((0, 0, 0, 0, 0.0), |t, l| {
                        let n = |k: &str| l["tokens"][k].as_u64().unwrap_or(0);
                        (
                            t.0 + n("input"),
                            t.1 + n("output"),
                            t.2 + n("cache_read"),
                            t.3 + n("cache_write"),
                            t.4 + l["cost"].as_f64().unwrap_or(0.0),
                        )
                    });
            assert_eq!(
                (mine.0, mine.1, mine.2, mine.3),
                (own.0, own.1 + own.2, own.3, own.4),
                "{name}/{id}"
            );
            assert!(
                (mine.4 - own.5).abs() < 1e-9,
                "{name}/{id}: ${} vs ${}",
                mine.4,
                own.5
            );
        }
    }
}
