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

    fn archive(&self) -> PathBuf {
        self.dir.join("home/.local/share/ysess/archive")
    }

    fn run(&self, args: &[&str]) -> Run {
        self.dir.run_in_home(args)
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
    // JSON session, its session and its subagent's file, and yoagent's.
    assert_eq!(t["new"], 7, "{first}");
    assert_eq!(t["unchanged"], 0, "{first}");
    // OpenCode's database is named, not copied.
    assert_eq!(t["skipped"], 1, "{first}");
    assert!(
        first.stderr.contains("opencode.db: not archived"),
        "{first}"
    );
    assert!(
        first
            .stderr
            .ends_with("archived: 7 new sessions, 0 grew (+0 B), 0 new versions, 0 unchanged\n"),
        "{first}"
    );
    // Laid out by agent and the file's path under the agent's folder.
    let claude = home.copy("claude", &home.claude, "home/.claude/projects");
    assert_eq!(read(&claude), read(&home.claude));
    let sub = home.copy("claude", &home.claude_subagent, "home/.claude/projects");
    assert_eq!(read(&sub), read(&home.claude_subagent));
    let codex = home.copy("codex", &home.codex, "home/.codex/sessions");
    assert_eq!(read(&codex), read(&home.codex));
    let yoagent = home
        .archive()
        .join("path")
        .join(home.yoagent.strip_prefix("/").expect("absolute"));
    assert_eq!(read(&yoagent), read(&home.yoagent));

    let second = home.run(&["archive"]);
    second.status(0);
    assert!(
        second
            .stderr
            .ends_with("archived: 0 new sessions, 0 grew (+0 B), 0 new versions, 7 unchanged\n"),
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
    assert_eq!(total(&run)["new"], 7, "{run}");
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
            .ends_with("archived: 0 new sessions, 0 grew (+0 B), 0 new versions, 7 unchanged\n"),
        "{again}"
    );
    assert!(!named.join("backup").exists(), "an archive inside DIR");
    assert!(!home.archive().exists(), "the default archive");
}

#[test]
fn archive_appends_what_grew_keeps_a_rewrite_as_a_version_and_a_deleted_session() {
    let home = Home::new();
    home.run(&["archive"]).status(0);
    let codex_copy = home.copy("codex", &home.codex, "home/.codex/sessions");
    let old = home.run(&["fsck", "--digest", codex_copy.to_str().expect("UTF-8")]);
    old.status(0);
    let old_digest = old.stdout.trim().to_string();
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
        (&0.into(), &1.into(), &1.into(), &3.into(), &2.into()),
        "{run}"
    );
    assert_eq!(t["grew_bytes"], grown.len() as u64 - before, "{run}");
    // The grown copy equals the live file, and still starts with what was
    // archived before.
    assert_eq!(read(&codex_copy), grown);
    home.run(&[
        "fsck",
        "--since",
        &old_digest,
        codex_copy.to_str().expect("UTF-8"),
    ])
    .status(0);
    // Both histories of the rewritten session are kept.
    let json_copy = home.copy("gemini", &home.gemini_json, "home/.gemini/tmp");
    assert_eq!(read(&json_copy), first_json);
    let v2 = json_copy.with_file_name("session-2026-12-06T08-42-cf868f42.v2.json");
    assert_eq!(read(&v2), rewritten);
    // The deleted session stays.
    let claude_copy = home.copy("claude", &home.claude, "home/.claude/projects");
    assert!(claude_copy.is_file(), "{run}");

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
    // The live sessions are listed from their live files, not archived.
    for s in sessions.iter().filter(|s| s["id"] != CLAUDE_ID) {
        assert_eq!(s["archived"], false, "{ls}");
        assert!(
            !s["path"]
                .as_str()
                .expect("a path")
                .starts_with(home.archive().to_str().expect("UTF-8")),
            "{ls}"
        );
    }
    let plain = home.run(&["ls"]);
    let archived_rows = home.run(&["ls", "--archive"]);
    assert_eq!(
        archived_rows.stdout.lines().count(),
        plain.stdout.lines().count() + 1,
        "{archived_rows}"
    );
    assert!(
        archived_rows.stdout.contains("(archived) Who calls"),
        "{archived_rows}"
    );
    // Without --archive, ls says nothing of it.
    assert!(!plain.stdout.contains("(archived)"), "{plain}");

    let again = home.run(&["archive"]);
    assert!(
        again.stderr.ends_with(
            "archived: 0 new sessions, 0 grew (+0 B), 0 new versions, 5 unchanged, 2 kept that the agents deleted\n"
        ),
        "{again}"
    );
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
        (&6.into(), &1.into(), &0.into()),
        "{run}"
    );
    assert_eq!(t["grew_bytes"], 1, "{run}");
    let copy = home
        .archive()
        .join("path")
        .join(home.yoagent.strip_prefix("/").expect("absolute"));
    assert_eq!(read(&copy), grown);
}

#[test]
fn archive_hook_claude_prints_the_session_end_hook() {
    let home = Home::new();
    let run = home.run(&["archive", "--hook", "claude"]);
    run.status(0);
    let hook: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    assert_eq!(
        hook["hooks"]["SessionEnd"][0]["hooks"][0],
        serde_json::json!({"type": "command", "command": "ysess archive --quiet"}),
        "{run}"
    );
    // It archives nothing.
    assert!(!home.archive().exists(), "{run}");
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
    Changed {
        home,
        grown,
        old_codex,
        first_json,
        rewritten,
        new_session,
    }
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
        for n in 1..=*times {
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
                    .filter(|p| p.to_string_lossy().ends_with(".tmp"))
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
