//! `ysess archive` and `ls --archive`: a home built for the test with
//! sessions of several agents where each keeps them, archived, then
//! grown, rewritten and deleted, and archived again.

use std::path::{Path, PathBuf};

use crate::agents::copy_tree;
use crate::support::{Dir, Run, fixture};

struct Home {
    dir: Dir,
    /// A Claude Code session, with a subagent in a file of its own.
    claude: PathBuf,
    claude_subagent: PathBuf,
    codex: PathBuf,
    /// Gemini CLI's older sessions are one JSON document, saved whole.
    gemini_json: PathBuf,
    yoagent: PathBuf,
}

const PROJECT: &str = "home/.claude/projects/-home-dana-src-ystats";
const CLAUDE_ID: &str = "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f";
/// A session of OpenCode's database, which the tests delete.
const OPENCODE_ID: &str = "ses_db5958b66ffeuHzzQB3uNBllYk";

impl Home {
    fn new() -> Home {
        let dir = Dir::new();
        let put = |from: &Path, to: &str| {
            let to = dir.join(to);
            std::fs::create_dir_all(to.parent().expect("a folder")).expect("folders");
            std::fs::copy(from, &to).expect("a copy");
            to
        };
        let claude = put(
            &fixture("claude/delegates.jsonl"),
            &format!("{PROJECT}/{CLAUDE_ID}.jsonl"),
        );
        let claude_subagent = put(
            &fixture("claude/delegates/subagents/agent-a3f9c2e1.jsonl"),
            &format!("{PROJECT}/{CLAUDE_ID}/subagents/agent-a3f9c2e1.jsonl"),
        );
        let codex = put(
            &fixture("codex/rollout.jsonl"),
            "home/.codex/sessions/2026/11/21/rollout-2026-11-21T08-00-00-019a2d7a-41c4-78b1-b7cc-a45d62a89cd5.jsonl",
        );
        copy_tree(&fixture("gemini/legacy"), &dir.join("home/.gemini"));
        copy_tree(&fixture("gemini/subagent"), &dir.join("home/.gemini"));
        copy_tree(
            &fixture("opencode/openai"),
            &dir.join("home/.local/share/opencode"),
        );
        copy_tree(&fixture("qwen/subagent"), &dir.join("home/.qwen"));
        copy_tree(&fixture("copilot/tools"), &dir.join("home/.copilot"));
        put(
            &fixture("pi/v2.jsonl"),
            "home/.pi/agent/sessions/--home-dana-src-ystats--/2026-12-01_pi.jsonl",
        );
        let gemini_json =
            dir.join("home/.gemini/tmp/proj/chats/session-2026-12-06T08-42-cf868f42.json");
        let yoagent = put(&fixture("demo.jsonl"), "apps/demo.jsonl");
        Home {
            dir,
            claude,
            claude_subagent,
            codex,
            gemini_json,
            yoagent,
        }
    }

    /// OpenCode's database.
    fn opencode(&self) -> PathBuf {
        self.dir.join("home/.local/share/opencode/opencode.db")
    }

    fn archive(&self) -> PathBuf {
        self.dir.join("home/.local/share/ysess/archive")
    }

    fn run(&self, args: &[&str]) -> Run {
        self.dir.run_in_home(args)
    }

    /// The copy of a file of `$YSESS_PATH` (`apps/`): under `path/`, by
    /// its whole path, a name's leading `.` written `%2E`.
    fn in_path(&self, live: &Path) -> PathBuf {
        let under: PathBuf = live
            .strip_prefix("/")
            .expect("absolute")
            .components()
            .map(|c| {
                let name = c.as_os_str().to_str().expect("UTF-8").replace('%', "%25");
                match name.strip_prefix('.') {
                    Some(rest) => format!("%2E{rest}"),
                    None => name,
                }
            })
            .collect();
        self.archive().join("path").join(under)
    }

    /// The file's copy in the archive, by its path under the agent's
    /// folder.
    fn copy(&self, agent: &str, live: &Path, root: &str) -> PathBuf {
        let under = live
            .strip_prefix(self.dir.join(root))
            .expect("under the agent's folder");
        self.archive().join(agent).join(under)
    }
}

/// The `--json` total of a run.
fn total(run: &Run) -> serde_json::Value {
    run.json_lines()
        .into_iter()
        .find(|l| l["type"] == "total")
        .unwrap_or_else(|| panic!("a total\n{run}"))
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn archive_copies_every_agents_sessions_and_a_second_run_adds_nothing() {
    let home = Home::new();
    let first = home.run(&["archive", "--json"]);
    first.status(0);
    let t = total(&first);
    // Claude Code's session and its subagent's file, Codex's, Gemini CLI's
    // JSON session, its session and its subagent's file, Qwen Code's and
    // its subagent's, Copilot CLI's, pi's, yoagent's, and OpenCode's
    // database.
    assert_eq!(t["new"], 12, "{first}");
    assert_eq!(t["unchanged"], 0, "{first}");
    assert_eq!(t["skipped"], 0, "{first}");
    assert!(
        first
            .stderr
            .ends_with("archived: 12 new files, 0 grew (+0 B), 0 new versions, 0 unchanged\n"),
        "{first}"
    );
    // OpenCode's database, by SQLite's backup: a file that stands alone
    // (no log beside it), holding the sessions the live one holds.
    let db = home.archive().join("opencode/opencode.db");
    assert!(!db.with_file_name("opencode.db-wal").exists());
    let ids = |path: &Path| -> Vec<String> {
        let run = home.run(&["ls", "--json", path.to_str().expect("UTF-8")]);
        run.status(0);
        run.json_lines()
            .iter()
            .filter(|r| r["type"] == "session")
            .map(|r| r["id"].as_str().expect("an id").to_string())
            .collect()
    };
    assert_eq!(ids(&db).len(), 5, "the top-level sessions");
    assert_eq!(ids(&db), ids(&home.opencode()));
    // Laid out by agent and the file's path under the agent's folder.
    let claude = home.copy("claude", &home.claude, "home/.claude/projects");
    assert_eq!(read(&claude), read(&home.claude));
    // With the live file's time, as `cp -p` keeps it.
    let modified = |p: &Path| {
        std::fs::metadata(p)
            .and_then(|m| m.modified())
            .expect("a time")
    };
    assert_eq!(modified(&claude), modified(&home.claude));
    let sub = home.copy("claude", &home.claude_subagent, "home/.claude/projects");
    assert_eq!(read(&sub), read(&home.claude_subagent));
    let codex = home.copy("codex", &home.codex, "home/.codex/sessions");
    assert_eq!(read(&codex), read(&home.codex));
    let yoagent = home.in_path(&home.yoagent);
    assert_eq!(read(&yoagent), read(&home.yoagent));

    let second = home.run(&["archive"]);
    second.status(0);
    assert!(
        second
            .stderr
            .ends_with("archived: 0 new files, 0 grew (+0 B), 0 new versions, 12 unchanged\n"),
        "{second}"
    );
    assert_eq!(second.stdout, "", "{second}");
}

#[test]
fn a_named_archive_folder_was_taken_for_the_global_dash_c() {
    // `archive DIR` shared its argument's id with `-C DIR`: ysess changed
    // into DIR first, failing when it did not exist yet, and archiving
    // into DIR/DIR when it did.
    let home = Home::new();
    let run = home.run(&["archive", "--json", "backup/sessions"]);
    run.status(0);
    assert_eq!(total(&run)["new"], 12, "{run}");
    let named = home.dir.join("backup/sessions");
    let under = home
        .claude
        .strip_prefix(home.dir.join("home/.claude/projects"))
        .expect("under the agent's folder");
    assert_eq!(read(&named.join("claude").join(under)), read(&home.claude));
    let again = home.run(&["archive", "backup/sessions"]);
    again.status(0);
    assert!(
        again
            .stderr
            .ends_with("archived: 0 new files, 0 grew (+0 B), 0 new versions, 12 unchanged\n"),
        "{again}"
    );
    assert!(!named.join("backup").exists(), "an archive inside DIR");
    assert!(!home.archive().exists(), "the default archive");
    // -C names the folder to run in, and DIR the archive, relative to it.
    let backup = home.dir.join("backup");
    let moved = home.run(&["archive", "-C", backup.to_str().expect("UTF-8"), "more"]);
    moved.status(0);
    assert_eq!(
        read(&backup.join("more/claude").join(under)),
        read(&home.claude)
    );
}

#[test]
fn archive_appends_what_grew_keeps_a_rewrite_as_a_version_and_a_deleted_session() {
    let home = Home::new();
    // A to-do list of two items in OpenCode's database.
    let conn = rusqlite::Connection::open(home.opencode()).expect("the database");
    for position in 0..2 {
        conn.execute(
            "INSERT INTO todo VALUES ('ses_db595bfe2ffeAx6W1teiN5nW6Z', 'an item', 'pending', 'high', ?1, 1, 1)",
            [position],
        )
        .expect("a to-do item");
    }
    drop(conn);
    home.run(&["archive"]).status(0);
    let codex_copy = home.copy("codex", &home.codex, "home/.codex/sessions");
    // The digest of every session file archived (a database is backed up
    // whole, not appended to).
    let digests: Vec<(PathBuf, String)> = crate::agents::files_under(&home.archive())
        .into_iter()
        .filter(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            !name.is_some_and(|n| n.starts_with('.') || n.ends_with(".db"))
        })
        .map(|p| {
            let run = home.run(&["fsck", "--digest", p.to_str().expect("UTF-8")]);
            run.status(0);
            (p, run.stdout.trim().to_string())
        })
        .collect();
    assert_eq!(digests.len(), 11, "{digests:?}");
    // Codex goes on; Gemini CLI saves its JSON session whole; Claude Code
    // deletes its session (and its subagent's file) after 30 days.
    let mut grown = read(&home.codex);
    let before = grown.len() as u64;
    let last = grown[..grown.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    grown.extend_from_within(last..);
    std::fs::write(&home.codex, &grown).expect("grows");
    let first_json = read(&home.gemini_json);
    let mut rewritten = first_json.clone();
    let at = rewritten.len() / 2;
    rewritten.insert(at, b' ');
    std::fs::write(&home.gemini_json, &rewritten).expect("saved whole");
    std::fs::remove_dir_all(home.claude.with_extension("")).expect("subagents deleted");
    std::fs::remove_file(&home.claude).expect("deleted");
    // OpenCode deletes a session from its database.
    let sql = |statement: &str| {
        let conn = rusqlite::Connection::open(home.opencode()).expect("the database");
        conn.execute(statement, []).expect("the statement runs");
    };
    sql(&format!("DELETE FROM session WHERE id = '{OPENCODE_ID}'"));

    let run = home.run(&["archive", "--json"]);
    run.status(0);
    let t = total(&run);
    assert_eq!(
        (
            &t["new"],
            &t["grew"],
            &t["versions"],
            &t["unchanged"],
            &t["gone"]
        ),
        (&0.into(), &1.into(), &2.into(), &7.into(), &2.into()),
        "{run}"
    );
    assert_eq!(t["grew_bytes"], grown.len() as u64 - before, "{run}");
    // The grown copy equals the live file, and still starts with what was
    // archived before.
    assert_eq!(read(&codex_copy), grown);
    // Each archived file was only appended to.
    for (copy, digest) in &digests {
        let run = home.run(&["fsck", "--since", digest, copy.to_str().expect("UTF-8")]);
        run.status(0);
    }
    // Both histories of the rewritten session are kept.
    let json_copy = home.copy("gemini", &home.gemini_json, "home/.gemini/tmp");
    assert_eq!(read(&json_copy), first_json);
    let v2 = json_copy.with_file_name("session-2026-12-06T08-42-cf868f42.v2.json");
    assert_eq!(read(&v2), rewritten);
    // The deleted session stays.
    let claude_copy = home.copy("claude", &home.claude, "home/.claude/projects");
    assert!(claude_copy.is_file(), "{run}");
    // The backup that lost OpenCode's deleted session is a new version;
    // the old one, which holds it, stays.
    let db = home.archive().join("opencode/opencode.db");
    let db_v2 = db.with_file_name("opencode.v2.db");
    let holds = |path: &Path| {
        let conn = rusqlite::Connection::open(path).expect("the copy");
        conn.query_row(
            "SELECT count(*) FROM session WHERE id = ?1",
            [OPENCODE_ID],
            |r| r.get::<_, i64>(0),
        )
        .expect("a count")
    };
    assert_eq!((holds(&db), holds(&db_v2)), (1, 0), "{run}");

    // ls --archive lists it, marked, beside the live sessions; once each.
    let ls = home.run(&["ls", "--archive", "--json"]);
    ls.status(0);
    let rows = ls.json_lines();
    let sessions: Vec<&serde_json::Value> =
        rows.iter().filter(|r| r["type"] == "session").collect();
    let claude: Vec<_> = sessions.iter().filter(|s| s["id"] == CLAUDE_ID).collect();
    assert_eq!(claude.len(), 1, "{ls}");
    assert_eq!(claude[0]["archived"], true, "{ls}");
    assert_eq!(
        claude[0]["path"],
        claude_copy.to_str().expect("UTF-8"),
        "{ls}"
    );
    let opencode: Vec<_> = sessions.iter().filter(|s| s["id"] == OPENCODE_ID).collect();
    assert_eq!(opencode.len(), 1, "{ls}");
    assert_eq!(opencode[0]["archived"], true, "{ls}");
    assert_eq!(
        opencode[0]["path"],
        db.join(OPENCODE_ID).to_str().expect("UTF-8"),
        "{ls}"
    );
    // The live sessions are listed from their live files, not archived.
    let deleted = [CLAUDE_ID, OPENCODE_ID];
    for s in sessions
        .iter()
        .filter(|s| !deleted.iter().any(|d| s["id"] == *d))
    {
        assert_eq!(s["archived"], false, "{ls}");
        assert!(
            !s["path"]
                .as_str()
                .expect("a path")
                .starts_with(home.archive().to_str().expect("UTF-8")),
            "{ls}"
        );
    }
    // Once the archive exists, ls reads it unasked; --no-archive leaves
    // it out.
    let plain = home.run(&["ls"]);
    let live_only = home.run(&["ls", "--no-archive"]);
    assert_eq!(
        plain.stdout.lines().count(),
        live_only.stdout.lines().count() + 2,
        "{plain}"
    );
    assert!(plain.stdout.contains("(archived) Who calls"), "{plain}");
    assert!(!live_only.stdout.contains("(archived)"), "{live_only}");

    let again = home.run(&["archive"]);
    assert!(
        again.stderr.ends_with(
            "archived: 0 new files, 0 grew (+0 B), 0 new versions, 10 unchanged, 2 kept that the agents deleted\n"
        ),
        "{again}"
    );
    // OpenCode renames a session and writes its to-do list again, one
    // item shorter: the backup holds every row of the sessions' history
    // the last version held, and replaces it.
    sql("UPDATE session SET title = 'renamed' WHERE id = 'ses_db595bfe2ffeAx6W1teiN5nW6Z'");
    sql("DELETE FROM todo WHERE position = 1");
    let renamed = home.run(&["archive", "--json"]);
    renamed.status(0);
    let t = total(&renamed);
    assert_eq!(
        (&t["grew"], &t["versions"], &t["unchanged"]),
        (&1.into(), &0.into(), &9.into()),
        "{renamed}"
    );
    let title = |path: &Path| {
        let conn = rusqlite::Connection::open(path).expect("the copy");
        conn.query_row(
            "SELECT title FROM session WHERE id = 'ses_db595bfe2ffeAx6W1teiN5nW6Z'",
            [],
            |r| r.get::<_, String>(0),
        )
        .expect("a title")
    };
    assert_eq!(title(&db_v2), "renamed", "{renamed}");
    assert_ne!(title(&db), "renamed", "{renamed}");
    assert!(!db.with_file_name("opencode.v3.db").exists(), "{renamed}");
}

#[test]
fn every_command_over_all_sessions_reads_the_sessions_the_agents_deleted() {
    let home = Home::new();
    home.run(&["archive"]).status(0);
    std::fs::remove_dir_all(home.claude.with_extension("")).expect("subagents deleted");
    std::fs::remove_file(&home.claude).expect("deleted");
    let copy = home.copy("claude", &home.claude, "home/.claude/projects");
    let copy = copy.to_str().expect("UTF-8");

    // -s finds it by its id.
    let show = home.run(&["-s", &CLAUDE_ID[..8], "log", "--json"]);
    show.status(0);
    assert!(!show.json_lines().is_empty(), "{show}");
    // grep --all searches it (and once: not the live sessions' copies).
    let grep = home.run(&["grep", "--all", "--json", "-F", "Who calls"]);
    grep.status(0);
    let paths: std::collections::BTreeSet<String> = grep
        .json_lines()
        .iter()
        .filter_map(|m| m["path"].as_str().map(str::to_string))
        .collect();
    assert!(paths.contains(copy), "{grep}");
    assert!(
        paths
            .iter()
            .all(|p| p == copy || !p.starts_with(home.archive().to_str().expect("UTF-8"))),
        "{grep}"
    );
    let no = home.run(&["grep", "--all", "--no-archive", "-F", "Who calls"]);
    assert!(!no.stdout.contains(copy), "{no}");
    // stats --all counts it, once.
    let sessions = |args: &[&str]| {
        let run = home.run(args);
        run.status(0);
        let rows = run.json_lines();
        rows.iter().filter(|r| r["type"] == "session").count()
    };
    assert_eq!(
        sessions(&["stats", "--all", "--json"]),
        sessions(&["stats", "--all", "--json", "--no-archive"]) + 1
    );
    // The Parquet export of every session holds it.
    let out = home.dir.join("tables");
    let export = home.run(&["export", "--parquet", out.to_str().expect("UTF-8"), "--all"]);
    export.status(0);
    let exported = crate::agents::files_under(&out);
    assert!(!exported.is_empty(), "{export}");
    let tables = exported.iter().map(|p| read(p)).any(|bytes| {
        bytes
            .windows(CLAUDE_ID.len())
            .any(|w| w == CLAUDE_ID.as_bytes())
    });
    assert!(tables, "the session's id is in the tables\n{export}");
    // The archive is for every session: not for one session's search.
    let alone = home.run(&["grep", "--no-archive", "x"]);
    alone.status(2);
    assert!(
        alone
            .stderr
            .contains("--archive and --no-archive are for --all"),
        "{alone}"
    );
}

#[test]
fn archive_while_the_agent_appends_keeps_a_prefix_and_catches_up() {
    use std::io::Write as _;
    let home = Home::new();
    let live = home.yoagent.clone();
    let copy = home.in_path(&live);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (live, stop) = (live.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(&live)
                .expect("the live file");
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                // An agent's save: a line, sometimes in two writes.
                let line = format!(
                    r#"{{"type":"custom","id":"w{n}","parent_id":"e15","custom_type":"note","data":{{"n":{n}}}}}"#
                );
                let (a, b) = line.split_at(line.len() / 2);
                file.write_all(a.as_bytes()).expect("writes");
                file.write_all(format!("{b}\n").as_bytes()).expect("writes");
                n += 1;
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        })
    };
    for _ in 0..5 {
        home.run(&["archive", "--quiet"]).status(0);
        let (copied, now) = (read(&copy), read(&live));
        assert!(
            now.starts_with(&copied),
            "the copy is the live file's start"
        );
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    writer.join().expect("the writer ends");
    home.run(&["archive", "--quiet"]).status(0);
    assert_eq!(read(&copy), read(&live));
    let versions = copy.with_file_name("demo.v2.jsonl");
    assert!(!versions.exists(), "growth is never taken for a rewrite");
}

#[test]
fn archive_keeps_what_claude_code_saves_in_a_sessions_own_folder() {
    let home = Home::new();
    let folder = home.claude.with_extension("");
    let put = |path: PathBuf, text: &str| {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("folders");
        std::fs::write(&path, text).expect("written");
        path
    };
    // An output too large for its line, and a subagent's description.
    let output = put(
        folder.join("tool-results/toolu_01ABC.txt"),
        "a long listing\n",
    );
    let meta = put(
        folder.join("subagents/agent-a3f9c2e1.meta.json"),
        r#"{"agentType":"Explore"}"#,
    );
    // Another app's folder beside its file is not a Claude Code session's.
    let beside = put(home.yoagent.with_extension("").join("notes.txt"), "x");
    home.run(&["archive"]).status(0);
    let copy = |live: &Path| home.copy("claude", live, "home/.claude/projects");
    assert_eq!(read(&copy(&output)), read(&output));
    assert_eq!(read(&copy(&meta)), read(&meta));
    let archived_beside = home.in_path(&beside);
    assert!(!archived_beside.exists());
    // Claude Code deletes the session and its folder: the copies stay.
    std::fs::remove_dir_all(&folder).expect("deleted");
    std::fs::remove_file(&home.claude).expect("deleted");
    home.run(&["archive"]).status(0);
    assert_eq!(read(&copy(&output)), b"a long listing\n");
    assert!(copy(&meta).is_file());
}

#[test]
fn an_archive_in_a_folder_of_ysess_path_reached_by_a_link_copied_itself() {
    // $YSESS_PATH names the folder by a link; the archive is named by its
    // real path, inside it. Its copies are not sessions to archive.
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("real")).expect("a folder");
    std::fs::copy(fixture("demo.jsonl"), dir.join("real/demo.jsonl")).expect("a copy");
    std::os::unix::fs::symlink(dir.join("real"), dir.join("apps")).expect("a link");
    for expected in [
        "archived: 1 new file, 0 grew (+0 B), 0 new versions, 0 unchanged\n",
        "archived: 0 new files, 0 grew (+0 B), 0 new versions, 1 unchanged\n",
    ] {
        let run = dir.run_in_home(&["archive", "real/arch"]);
        run.status(0);
        assert!(run.stderr.ends_with(expected), "{run}");
    }
    let copies = crate::agents::files_under(&dir.join("real/arch"));
    assert!(
        copies
            .iter()
            .all(|p| p.to_string_lossy().matches("/arch/").count() == 1),
        "{copies:?}"
    );
}

#[test]
fn an_archive_named_by_a_path_not_canonical_lost_its_archived_mark() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("apps")).expect("a folder");
    std::fs::create_dir_all(dir.join("other")).expect("a folder");
    std::fs::copy(fixture("demo.jsonl"), dir.join("apps/demo.jsonl")).expect("a copy");
    dir.run_in_home(&["archive", "arch"]).status(0);
    std::fs::remove_file(dir.join("apps/demo.jsonl")).expect("deleted");
    let ls = dir.run_in_home(&["ls", "--json", "--archive", "./other/../arch"]);
    ls.status(0);
    let rows = ls.json_lines();
    let demo: Vec<_> = rows.iter().filter(|r| r["id"] == "demo").collect();
    assert_eq!(demo.len(), 1, "{ls}");
    assert_eq!(demo[0]["archived"], true, "{ls}");
}

#[test]
fn archive_goes_on_from_a_copy_a_lost_manifest_left_behind() {
    let home = Home::new();
    home.run(&["archive"]).status(0);
    std::fs::remove_file(home.archive().join(".manifest")).expect("removed");
    let mut grown = read(&home.yoagent);
    grown.extend_from_slice(b"\n");
    std::fs::write(&home.yoagent, &grown).expect("grows");
    let run = home.run(&["archive", "--json"]);
    run.status(0);
    // Every copy is proved a prefix by its digest: nothing is copied
    // again, and the one that grew gets its new byte.
    let t = total(&run);
    assert_eq!(
        (&t["unchanged"], &t["grew"], &t["new"]),
        (&11.into(), &1.into(), &0.into()),
        "{run}"
    );
    assert_eq!(t["grew_bytes"], 1, "{run}");
    let copy = home.in_path(&home.yoagent);
    assert_eq!(read(&copy), grown);
}

#[test]
fn archive_hook_prints_each_agents_session_end_hook_and_archives_nothing() {
    // How each agent runs it: tests/cli/agents/archive_hook.rs.
    let home = Home::new();
    for (agent, run) in [
        (
            "claude",
            serde_json::json!({"type": "command", "command": "ysess archive --quiet", "timeout": 60}),
        ),
        (
            "gemini",
            serde_json::json!({"type": "command", "command": "ysess archive --quiet"}),
        ),
    ] {
        let printed = home.run(&["archive", "--hook", agent]);
        printed.status(0);
        let hook: serde_json::Value = serde_json::from_str(&printed.stdout).expect("JSON");
        assert_eq!(
            hook,
            serde_json::json!({"hooks": {"SessionEnd": [{"hooks": [run]}]}}),
            "{printed}"
        );
    }
    // It archives nothing.
    assert!(!home.archive().exists());
    // The hook runs in each session's folder: a relative DIR is printed
    // whole.
    let relative = home.run(&["archive", "--hook", "claude", "backup"]);
    let hook: serde_json::Value = serde_json::from_str(&relative.stdout).expect("JSON");
    let whole = home.dir.join("backup");
    assert_eq!(
        hook["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
        format!("ysess archive --quiet {}", whole.display()),
        "{relative}"
    );
    // Qwen Code has none: its SessionEnd never fires in a headless run.
    let qwen = home.run(&["archive", "--hook", "qwen"]);
    qwen.status(2);
    assert!(
        qwen.stderr.contains("[possible values: claude, gemini]"),
        "{qwen}"
    );
}

/// A home archived once, then changed: Codex's session grew, Gemini CLI
/// saved its JSON session whole, and a new Claude Code session began.
struct Changed {
    home: Home,
    grown: Vec<u8>,
    old_codex: usize,
    first_json: Vec<u8>,
    rewritten: Vec<u8>,
    new_session: PathBuf,
}

fn changed() -> Changed {
    let home = Home::new();
    home.run(&["archive"]).status(0);
    let mut grown = read(&home.codex);
    let old_codex = grown.len();
    grown.extend_from_within(..old_codex);
    std::fs::write(&home.codex, &grown).expect("grows");
    let first_json = read(&home.gemini_json);
    let mut rewritten = first_json.clone();
    rewritten.insert(first_json.len() / 2, b' ');
    std::fs::write(&home.gemini_json, &rewritten).expect("saved whole");
    let new_session = home.dir.join(&format!(
        "{PROJECT}/3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13.jsonl"
    ));
    std::fs::copy(fixture("claude/session.jsonl"), &new_session).expect("a new session");
    delete_opencode_session(&home);
    Changed {
        home,
        grown,
        old_codex,
        first_json,
        rewritten,
        new_session,
    }
}

/// OpenCode deletes a session from its database.
fn delete_opencode_session(home: &Home) {
    let conn = rusqlite::Connection::open(home.opencode()).expect("the database");
    conn.execute("DELETE FROM session WHERE id = ?1", [OPENCODE_ID])
        .expect("deleted");
}

/// The sessions a copy of OpenCode's database holds, when it is a sound
/// database.
fn opencode_sessions(path: &Path) -> Result<Vec<String>, String> {
    let flags = rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY;
    let conn = rusqlite::Connection::open_with_flags(path, flags)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if check != "ok" {
        return Err(format!("{}: {check}", path.display()));
    }
    let mut stmt = conn
        .prepare("SELECT id FROM session ORDER BY id")
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let ids = stmt
        .query_map([], |r| r.get::<_, String>(0))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    ids.collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// What must hold of the archive after a run killed anywhere (`rerun`:
/// false), and after the run that follows (`rerun`: true).
fn sound(c: &Changed, rerun: bool) -> Result<(), String> {
    let home = &c.home;
    let codex = read(&home.copy("codex", &home.codex, "home/.codex/sessions"));
    if !c.grown.starts_with(&codex) || codex.len() < c.old_codex {
        return Err(format!(
            "the Codex copy is not the live file's start: {} bytes",
            codex.len()
        ));
    }
    let json = home.copy("gemini", &home.gemini_json, "home/.gemini/tmp");
    if read(&json) != c.first_json {
        return Err("the first version changed".to_string());
    }
    let v2 = json.with_file_name("session-2026-12-06T08-42-cf868f42.v2.json");
    let v3 = json.with_file_name("session-2026-12-06T08-42-cf868f42.v3.json");
    if v3.exists() {
        return Err("a third version".to_string());
    }
    let new = home.copy("claude", &c.new_session, "home/.claude/projects");
    for (copy, live) in [(&v2, &c.rewritten), (&new, &read(&c.new_session))] {
        match std::fs::read(copy) {
            Ok(bytes) if bytes == *live => {}
            Ok(_) => return Err(format!("{} is not whole", copy.display())),
            Err(_) if !rerun => {}
            Err(e) => return Err(format!("{}: {e}", copy.display())),
        }
    }
    if rerun && codex != c.grown {
        return Err("the rerun did not append what grew".to_string());
    }
    // OpenCode's first backup still holds the deleted session; the next,
    // when made, holds the others only.
    let db = home.archive().join("opencode/opencode.db");
    let first = opencode_sessions(&db)?;
    if !first.iter().any(|id| id == OPENCODE_ID) {
        return Err("the first backup lost the deleted session".to_string());
    }
    let v2 = db.with_file_name("opencode.v2.db");
    match v2.exists() {
        true => {
            let second = opencode_sessions(&v2)?;
            if second.iter().any(|id| id == OPENCODE_ID) || second.len() + 1 != first.len() {
                return Err(format!("the second backup holds {second:?}"));
            }
        }
        false if rerun => return Err("no second backup".to_string()),
        false => {}
    }
    if db.with_file_name("opencode.v3.db").exists() {
        return Err("a third backup".to_string());
    }
    Ok(())
}

/// `ysess archive` under `strace` with `options`, in the home's
/// environment.
fn archive_under_strace(home: &Home, options: &[String]) {
    let _ = std::process::Command::new("strace")
        .args(options)
        .arg(env!("CARGO_BIN_EXE_ysess"))
        .arg("archive")
        .current_dir(home.dir.path())
        .env("HOME", home.dir.join("home"))
        .env("YSESS_PATH", home.dir.join("apps"))
        .env("YSESS_REFS", home.dir.join(".ysess-refs"))
        .env_remove("YSESS_FILE")
        .envs(
            [
                "CLAUDE_CONFIG_DIR",
                "CODEX_HOME",
                "PI_CODING_AGENT_DIR",
                "PI_CODING_AGENT_SESSION_DIR",
                "QWEN_HOME",
                "QWEN_RUNTIME_DIR",
                "GEMINI_CLI_HOME",
                "COPILOT_HOME",
                "XDG_DATA_HOME",
            ]
            .map(|v| (v, "")),
        )
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("strace runs");
}

/// Which of a call's `times` to kill at: each, up to 24; of more (the
/// pages of a database's backup, all written to its temporary file), the
/// first 8, the last 8, and 8 spread between.
fn kill_points(times: usize) -> Vec<usize> {
    if times <= 24 {
        return (1..=times).collect();
    }
    let mut points: Vec<usize> = (1..=8).chain(times - 7..=times).collect();
    points.extend((1..=8).map(|k| 8 + k * (times - 16) / 9));
    points.sort_unstable();
    points.dedup();
    points
}

/// As the `crash` tests do for the other writing commands: `archive`
/// killed on entry to each of its writing system calls in turn leaves
/// every copy whole or a prefix of its live file, and a rerun reaches
/// what one run reaches, with no temporary file left and no version twice.
#[test]
fn archive_killed_at_every_write_leaves_sound_copies_and_a_rerun_converges() {
    if std::process::Command::new("strace")
        .arg("-V")
        .output()
        .is_err()
    {
        crate::support::missing(&crate::support::STRACE, "strace is not installed");
        return;
    }
    const CALLS: &str =
        "write,pwrite64,fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,ftruncate";
    let c = changed();
    let log = c.home.dir.join("strace.log");
    let trace = |more: &[String]| {
        let mut options = vec!["-f".to_string(), "-qq".into()];
        options.extend_from_slice(more);
        options
    };
    archive_under_strace(
        &c.home,
        &trace(&[
            "-o".into(),
            log.to_string_lossy().into_owned(),
            "-e".into(),
            format!("trace={CALLS}"),
        ]),
    );
    let mut made: std::collections::BTreeMap<String, usize> = Default::default();
    for line in std::fs::read_to_string(&log).expect("the trace").lines() {
        let call = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.split('(').next());
        if let Some(call) = call.filter(|c| CALLS.split(',').any(|k| k == *c)) {
            *made.entry(call.to_string()).or_insert(0) += 1;
        }
    }
    let mut broken = Vec::new();
    let mut points = 0;
    for (call, times) in &made {
        for n in kill_points(*times) {
            for signal in ["SIGKILL", "SIGTERM"] {
                points += 1;
                let c = changed();
                archive_under_strace(
                    &c.home,
                    &trace(&[
                        "-o".into(),
                        "/dev/null".into(),
                        "-e".into(),
                        format!("trace={call}"),
                        "-e".into(),
                        format!("inject={call}:signal={signal}:when={n}"),
                    ]),
                );
                let at = format!("{signal} at {call} #{n}");
                if let Err(why) = sound(&c, false) {
                    broken.push(format!("{at}: after the kill: {why}"));
                    continue;
                }
                let rerun = c.home.run(&["archive"]);
                if rerun.status != Some(0) {
                    broken.push(format!("{at}: the rerun failed: {rerun}"));
                    continue;
                }
                if let Err(why) = sound(&c, true) {
                    broken.push(format!("{at}: after the rerun: {why}"));
                }
                let left: Vec<PathBuf> = crate::agents::files_under(&c.home.archive())
                    .into_iter()
                    .filter(|p| {
                        let p = p.to_string_lossy();
                        [".tmp", "-journal", "-wal", "-shm", ".new"]
                            .iter()
                            .any(|end| p.ends_with(end))
                    })
                    .collect();
                if !left.is_empty() {
                    broken.push(format!("{at}: temporary files left: {left:?}"));
                }
            }
        }
    }
    assert!(points >= 20, "{made:?}");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
