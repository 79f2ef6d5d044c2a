//! `ysess fsck DIR…`, `--since-rev`, `--manifest`, `--since-manifest`: many
//! files at once, and the proof that they only grew.

use std::path::Path;
use std::process::Command;

use crate::support::{Dir, Run, user_line};

fn mkdir(dir: &Dir, name: &str) {
    std::fs::create_dir_all(dir.join(name)).expect("directory is made");
}

/// (file, format) of each file's summary object, in output order.
fn summaries(run: &Run) -> Vec<(String, String)> {
    run.json_lines()
        .into_iter()
        .filter(|v| v["type"] == "summary")
        .map(|v| {
            (
                v["file"].as_str().unwrap_or_default().to_string(),
                v["format"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

/// (file, code, line) of each finding.
fn findings(run: &Run) -> Vec<(String, String, Option<u64>)> {
    run.json_lines()
        .into_iter()
        .filter(|v| v["type"] == "finding")
        .map(|v| {
            (
                v["file"].as_str().unwrap_or_default().to_string(),
                v["code"].as_str().unwrap_or_default().to_string(),
                v["line"].as_u64(),
            )
        })
        .collect()
}

fn total(run: &Run) -> serde_json::Value {
    let lines = run.json_lines();
    let last = lines.last().cloned().unwrap_or_default();
    assert_eq!(last["type"], "total", "{run}");
    last
}

/// The summary line, its time left out: `3 files, 1 with errors, …, 12.3 kB`.
fn summary_line(run: &Run) -> String {
    let last = run.stderr.lines().last().unwrap_or_default();
    let (head, time) = last.rsplit_once(" in ").unwrap_or((last, ""));
    assert!(
        time.ends_with(" s") && time[..time.len() - 2].parse::<f64>().is_ok(),
        "no time in the summary line\n{run}"
    );
    head.to_string()
}

fn session(ids: usize) -> String {
    (1..=ids)
        .map(|n| {
            let parent = (n > 1).then(|| format!("e{}", n - 1));
            user_line(&format!("e{n}"), parent.as_deref(), &format!("turn {n}")) + "\n"
        })
        .collect()
}

#[test]
fn a_directory_is_walked_in_name_order_skipping_ignored_hidden_and_linked_files() {
    let dir = Dir::new();
    for d in ["fleet/a/b", "fleet/ignored", "fleet/.hidden", "fleet/z"] {
        mkdir(&dir, d);
    }
    dir.fixture("demo.jsonl", "fleet/a/demo.jsonl");
    dir.fixture("broken.jsonl", "fleet/a/b/broken.jsonl");
    dir.fixture("pi/demo.jsonl", "fleet/pi.jsonl");
    dir.fixture("claude/session.jsonl", "fleet/z/claude.jsonl");
    dir.fixture("demo.jsonl", "fleet/ignored/skipped.jsonl");
    dir.fixture("broken.jsonl", "fleet/.hidden/skipped.jsonl");
    dir.fixture("broken.jsonl", "fleet/notes.txt");
    dir.write("fleet/.gitignore", "ignored/\n");
    #[cfg(unix)]
    {
        // A loop back up the tree and a link to a broken file: not followed.
        std::os::unix::fs::symlink("..", dir.join("fleet/a/loop")).expect("link");
        std::os::unix::fs::symlink("../.hidden/skipped.jsonl", dir.join("fleet/z/link.jsonl"))
            .expect("link");
    }
    let run = dir.run(&["fsck", "--json", "fleet"]);
    run.status(1).stderr("");
    assert_eq!(
        summaries(&run),
        [
            ("fleet/a/b/broken.jsonl", "yoagent"),
            ("fleet/a/demo.jsonl", "yoagent"),
            ("fleet/pi.jsonl", "pi"),
            ("fleet/z/claude.jsonl", "claude"),
        ]
        .map(|(f, k)| (f.to_string(), k.to_string()))
    );
    let total = total(&run);
    assert_eq!(total["files"], 4);
    assert_eq!(total["files_with_errors"], 1);
    assert_eq!(total["unreadable"], 0);
    assert_eq!(total["ok"], false);
    let bytes: u64 = [
        "broken.jsonl",
        "demo.jsonl",
        "pi/demo.jsonl",
        "claude/session.jsonl",
    ]
    .iter()
    .map(|f| std::fs::metadata(crate::support::fixture(f)).map_or(0, |m| m.len()))
    .sum();
    assert_eq!(total["bytes"], bytes);

    // The same, for people: findings as for one file, then one line.
    let run = dir.run(&["fsck", "fleet"]);
    run.status(1).stdout("");
    assert!(
        run.stderr
            .starts_with("error: fleet/a/b/broken.jsonl:7: duplicateId: "),
        "{run}"
    );
    assert_eq!(
        summary_line(&run),
        format!(
            "4 files, 1 with errors, 0 with warnings, {:.1} kB",
            bytes as f64 / 1000.0
        )
    );
}

#[test]
fn files_named_beside_a_directory_are_checked_whatever_their_name() {
    let dir = Dir::new();
    mkdir(&dir, "d");
    dir.write("d/keep-1.jsonl", session(3));
    dir.write("d/other.jsonl", "not json\n");
    dir.write("named.log", session(2));
    let run = dir.run(&["fsck", "--json", "--glob", "keep-*", "d", "named.log"]);
    run.status(0);
    let files: Vec<String> = summaries(&run).into_iter().map(|(f, _)| f).collect();
    assert_eq!(files, ["d/keep-1.jsonl", "named.log"]);
}

#[cfg(unix)]
#[test]
fn a_symlink_loop_named_on_the_command_line_is_unreadable_and_exits_128() {
    let dir = Dir::new();
    mkdir(&dir, "d");
    dir.write("d/ok.jsonl", session(2));
    std::os::unix::fs::symlink("loop.jsonl", dir.join("loop.jsonl")).expect("link");
    let run = dir.run(&["fsck", "d", "loop.jsonl"]);
    run.status(128).stdout("");
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("error: loop.jsonl: unreadable: cannot read: ")
            && first.contains("symbolic links"),
        "{run}"
    );
    assert_eq!(
        summary_line(&run),
        format!(
            "1 file, 0 with errors, 0 with warnings, 1 unreadable, {} B",
            session(2).len()
        )
    );
}

/// A socket cannot be opened for reading, even by root: the run goes on and
/// exits 128.
#[cfg(unix)]
#[test]
fn an_unreadable_file_is_reported_and_the_others_still_checked() {
    let dir = Dir::new();
    mkdir(&dir, "d");
    dir.fixture("broken.jsonl", "d/broken.jsonl");
    let _socket = std::os::unix::net::UnixListener::bind(dir.join("socket.jsonl")).expect("bind");
    let run = dir.run(&["fsck", "--json", "d", "socket.jsonl"]);
    run.status(128);
    let found = findings(&run);
    assert_eq!(
        found.last().map(|f| f.1.as_str()),
        Some("unreadable"),
        "{run}"
    );
    assert_eq!(found.last().map(|f| f.0.as_str()), Some("socket.jsonl"));
    assert_eq!(total(&run)["unreadable"], 1);
    assert_eq!(total(&run)["files_with_errors"], 1);
}

/// Mode 000 stops everyone but root, who reads every file: as root (as in
/// some CI containers) this case cannot be made, and the test says so.
#[cfg(unix)]
#[test]
fn a_file_without_read_permission_in_a_directory_is_unreadable() {
    use std::os::unix::fs::PermissionsExt;
    // Who runs the tests: `id -u`.
    let uid = Command::new("id").arg("-u").output().expect("id runs");
    if String::from_utf8_lossy(&uid.stdout).trim() == "0" {
        eprintln!("skipped: running as root, who can read a mode-000 file");
        return;
    }
    let dir = Dir::new();
    mkdir(&dir, "d");
    let locked = dir.write("d/locked.jsonl", session(2));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).expect("chmod");
    let run = dir.run(&["fsck", "d"]);
    run.status(128);
    assert!(
        run.stderr
            .starts_with("error: d/locked.jsonl: unreadable: cannot read: Permission denied"),
        "{run}"
    );
}

#[test]
fn standard_input_with_a_directory_is_a_usage_error() {
    let dir = Dir::new();
    mkdir(&dir, "d");
    dir.run(&["fsck", "d", "-"]).status(2).stdout("");
}

/// git, run in `dir` with a fixed identity and clock.
fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A repository whose second commit appends to `grew`, rewrites line 2 of
/// `rewritten`, cuts `shortened` and deletes `deleted`, and adds `new`.
fn repository() -> Dir {
    let dir = Dir::new();
    git(dir.path(), &["init", "-q", "-b", "main"]);
    mkdir(&dir, "sessions");
    for name in ["grew", "rewritten", "shortened", "deleted"] {
        dir.write(&format!("sessions/{name}.jsonl"), session(4));
    }
    dir.write("notes.txt", "not a session\n");
    git(dir.path(), &["add", "."]);
    git(dir.path(), &["commit", "-q", "-m", "four sessions"]);
    dir.write("sessions/grew.jsonl", session(6));
    let rewritten = session(4).replace("turn 2", "turn two");
    dir.write("sessions/rewritten.jsonl", rewritten);
    dir.write("sessions/shortened.jsonl", session(3));
    std::fs::remove_file(dir.join("sessions/deleted.jsonl")).expect("rm");
    dir.write("sessions/new.jsonl", session(2));
    dir.write("notes.txt", "rewritten, but not a session\n");
    git(dir.path(), &["add", "-A"]);
    git(dir.path(), &["commit", "-q", "-m", "history changed"]);
    dir
}

#[test]
fn since_rev_accepts_growth_and_names_rewritten_shortened_and_deleted_files() {
    let repo = repository();
    let run = repo.run(&["fsck", "--json", "--since-rev", "HEAD~1"]);
    run.status(1);
    assert_eq!(
        findings(&run),
        [
            ("sessions/deleted.jsonl", "historyRewritten", None),
            ("sessions/rewritten.jsonl", "historyRewritten", Some(2)),
            ("sessions/shortened.jsonl", "historyRewritten", None),
        ]
        .map(|(f, c, l)| (f.to_string(), c.to_string(), l))
    );
    // Growth and a new file pass: every current file is checked as usual.
    let files: Vec<String> = summaries(&run).into_iter().map(|(f, _)| f).collect();
    assert_eq!(
        files,
        [
            "sessions/grew.jsonl",
            "sessions/new.jsonl",
            "sessions/rewritten.jsonl",
            "sessions/shortened.jsonl"
        ]
    );
    let total = total(&run);
    assert_eq!(
        (total["files"].as_u64(), total["missing"].as_u64()),
        (Some(4), Some(1))
    );

    let run = repo.run(&["fsck", "--since-rev", "HEAD~1", "sessions"]);
    run.status(1).stdout("");
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "error: sessions/deleted.jsonl: historyRewritten: the file was deleted since HEAD~1",
            "error: sessions/rewritten.jsonl:2: historyRewritten: entry e2 was rewritten since HEAD~1 (old line 2): `message` changed",
            "error: sessions/shortened.jsonl: historyRewritten: entry e4 (old line 4) and all after it are gone: the file lost entries since HEAD~1",
        ]
    );
    assert!(
        summary_line(&run).starts_with("4 files, 2 with errors, 0 with warnings, 1 missing, "),
        "{run}"
    );

    // Only growth since the last commit; from a subdirectory too.
    repo.run(&["fsck", "--since-rev", "HEAD"]).status(0);
    let sub = repo.join("sessions");
    let out = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(["fsck", "-q", "--since-rev", "HEAD~1", "grew.jsonl"])
        .current_dir(&sub)
        .output()
        .expect("ysess runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn since_rev_names_a_revision_that_is_not_there() {
    let repo = repository();
    let run = repo.run(&["fsck", "--since-rev", "no-such-branch"]);
    run.status(128).stdout("").stderr(
        "error: --since-rev no-such-branch: revision no-such-branch is not a commit of this repository\n",
    );
    let plain = Dir::new();
    let run = plain.run(&["fsck", "--since-rev", "HEAD"]);
    run.status(128);
    assert!(
        run.stderr
            .starts_with("error: --since-rev HEAD: not in a git repository"),
        "{run}"
    );
}

#[test]
fn since_rev_in_a_shallow_clone_without_the_revision_says_how_to_fetch_it() {
    let repo = repository();
    let clones = Dir::new();
    let url = format!("file://{}", repo.path().display());
    git(
        clones.path(),
        &["clone", "-q", "--depth", "1", &url, "shallow"],
    );
    let out = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(["fsck", "--since-rev", "HEAD~1"])
        .current_dir(clones.join("shallow"))
        .output()
        .expect("ysess runs");
    assert_eq!(out.status.code(), Some(128));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: --since-rev HEAD~1: revision HEAD~1 is not in this shallow clone: its history was not fetched\n\
         hint: fetch the history down to it: `git fetch --deepen=N` or `git fetch --unshallow`\n\
         hint: in GitHub Actions: actions/checkout with `fetch-depth: 0`\n"
    );
}

#[test]
fn a_manifest_round_trip_proves_growth_and_names_missing_files() {
    let dir = Dir::new();
    mkdir(&dir, "fleet/sub");
    dir.write("fleet/grows.jsonl", session(3));
    dir.write("fleet/sub/stays.jsonl", session(2));
    dir.write("fleet/goes.jsonl", session(2));
    dir.write("fleet/shrinks.jsonl", session(4));
    dir.run(&["fsck", "-q", "--manifest", "fleet.manifest", "fleet"])
        .status(0)
        .stdout("");
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&dir.read("fleet.manifest"))
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let listed: Vec<&str> = lines.iter().filter_map(|l| l["file"].as_str()).collect();
    assert_eq!(
        listed,
        [
            "fleet/goes.jsonl",
            "fleet/grows.jsonl",
            "fleet/shrinks.jsonl",
            "fleet/sub/stays.jsonl"
        ]
    );
    // The digest is the one `fsck --digest` prints for the file.
    let digest = dir.run(&["fsck", "--digest", "fleet/grows.jsonl"]);
    assert_eq!(
        lines[1]["digest"].as_str().map(|d| format!("{d}\n")),
        Some(digest.stdout.clone())
    );
    assert_eq!(lines[1]["bytes"], session(3).len());

    // Unchanged: passes. Then one grows, one shrinks, one goes, one is new.
    dir.run(&["fsck", "-q", "--since-manifest", "fleet.manifest", "fleet"])
        .status(0);
    dir.write("fleet/grows.jsonl", session(5));
    dir.write("fleet/shrinks.jsonl", session(3));
    std::fs::remove_file(dir.join("fleet/goes.jsonl")).expect("rm");
    dir.write("fleet/new.jsonl", session(1));
    let run = dir.run(&[
        "fsck",
        "--json",
        "--since-manifest",
        "fleet.manifest",
        "--manifest",
        "next.manifest",
        "fleet",
    ]);
    run.status(1);
    assert_eq!(
        findings(&run),
        [
            ("fleet/goes.jsonl", "historyRewritten", None),
            ("fleet/shrinks.jsonl", "digestMismatch", None),
        ]
        .map(|(f, c, l)| (f.to_string(), c.to_string(), l))
    );
    assert_eq!(total(&run)["missing"], 1);
    // The next manifest lists what is there now, and the next run passes
    // against it.
    dir.run(&["fsck", "-q", "--since-manifest", "next.manifest", "fleet"])
        .status(0);

    // A manifest that is not one is refused, naming its line.
    dir.write(
        "bad.manifest",
        "{\"file\":\"a\",\"bytes\":1,\"digest\":\"x\"}\n",
    );
    let run = dir.run(&["fsck", "--since-manifest", "bad.manifest", "fleet"]);
    run.status(128);
    assert!(
        run.stderr
            .starts_with("error: --since-manifest bad.manifest:1: field `digest`: "),
        "{run}"
    );
}

/// The manual's `pre-receive` hook (docs/commands/fsck.md), as printed
/// there, on a bare repository: growth is pushed, a shortened session is
/// refused.
#[cfg(unix)]
#[test]
fn the_readme_pre_receive_hook_refuses_a_push_that_shortens_a_session() {
    use std::os::unix::fs::PermissionsExt;
    let readme = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands/fsck.md"),
    )
    .expect("docs/commands/fsck.md reads");
    let start = readme
        .find("```sh\n#!/bin/sh\n# Refuse a push")
        .expect("the page shows the hook");
    let hook = &readme[start + "```sh\n".len()..];
    let hook = &hook[..hook.find("```").expect("the block ends")];

    let dir = Dir::new();
    git(
        dir.path(),
        &["init", "-q", "--bare", "-b", "main", "server.git"],
    );
    let path = dir.write("server.git/hooks/pre-receive", hook);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    git(dir.path(), &["init", "-q", "-b", "main", "work"]);
    let work = dir.join("work");
    mkdir(&dir, "work/sessions");
    let bin = Path::new(env!("CARGO_BIN_EXE_ysess"))
        .parent()
        .expect("the binary's folder");
    let search = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let push = || {
        Command::new("git")
            .args(["push", "-q", "../server.git", "main"])
            .current_dir(&work)
            .env("PATH", &search)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .expect("git push runs")
    };
    for (n, message) in [(3, "first"), (5, "grew")] {
        dir.write("work/sessions/a.jsonl", session(n));
        git(&work, &["add", "-A"]);
        git(&work, &["commit", "-q", "-m", message]);
        let out = push();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    dir.write("work/sessions/a.jsonl", session(4));
    git(&work, &["commit", "-q", "-am", "shortened"]);
    let out = push();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        stderr.contains("error: sessions/a.jsonl: historyRewritten: entry e5 (old line 5)")
            && stderr.contains("refs/heads/main: session history changed; push refused"),
        "{stderr}"
    );
}

/// Runs ysess with its stderr on a pseudo-terminal of 100 columns (stdout on
/// /dev/null): what the terminal showed, and the exit status. `feed` runs while
/// ysess does.
#[cfg(unix)]
fn stderr_on_terminal(dir: &Dir, args: &[&str], feed: impl FnOnce()) -> (String, Option<i32>) {
    use std::process::Stdio;

    let (terminal, reader) = crate::support::open_terminal(100);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ysess"));
    cmd.args(args)
        .current_dir(dir.path())
        .env("NO_COLOR", "1")
        .env_remove("COLUMNS")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(terminal));
    let mut child = cmd.spawn().expect("ysess starts");
    drop(cmd);
    feed();
    let status = child.wait().expect("ysess finishes");
    let seen = reader.seen();
    (String::from_utf8_lossy(&seen).into_owned(), status.code())
}

/// A file that is slow to come (a FIFO, written after 1.5 s) keeps the run
/// going: on a terminal the bar shows after a second, and is cleared.
#[cfg(unix)]
#[test]
fn a_progress_bar_shows_on_a_terminal_once_a_run_takes_a_second() {
    let dir = Dir::new();
    mkdir(&dir, "d");
    dir.write("d/a.jsonl", session(3));
    let made = Command::new("mkfifo")
        .arg(dir.join("slow.jsonl"))
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let feed = || {
        std::thread::sleep(std::time::Duration::from_millis(1500));
        std::fs::write(dir.join("slow.jsonl"), session(2)).expect("the FIFO takes it");
    };
    let (seen, status) = stderr_on_terminal(&dir, &["fsck", "d", "slow.jsonl"], feed);
    assert_eq!(status, Some(0), "{seen}");
    assert!(
        seen.contains(" files, ") && seen.contains("ETA"),
        "no bar: {seen:?}"
    );
    assert!(
        seen.contains("2 files, 0 with errors, 0 with warnings"),
        "{seen:?}"
    );

    // A quick run shows no bar at all.
    let (seen, status) = stderr_on_terminal(&dir, &["fsck", "d"], || {});
    assert_eq!(status, Some(0));
    assert!(!seen.contains("ETA"), "{seen:?}");
    assert!(
        seen.starts_with("1 file, 0 with errors, 0 with warnings, "),
        "{seen:?}"
    );
}

#[test]
fn fsck_manifest_over_a_session_file_of_the_fleet_is_refused_and_the_file_untouched() {
    let dir = Dir::new();
    mkdir(&dir, "fleet");
    dir.write("fleet/a.jsonl", session(3));
    dir.write("fleet/b.jsonl", session(2));
    let before = dir.read("fleet/b.jsonl");
    let run = dir.run(&["fsck", "--manifest", "fleet/b.jsonl", "fleet"]);
    run.status(128);
    assert!(
        run.stderr.contains("--manifest fleet/b.jsonl: ")
            && run.stderr.contains("nothing was written"),
        "{run}"
    );
    assert_eq!(dir.read("fleet/b.jsonl"), before);
    let hidden: Vec<_> = std::fs::read_dir(dir.join("fleet"))
        .expect("dir")
        .filter_map(|e| {
            let name = e.expect("entry").file_name();
            name.to_string_lossy().starts_with('.').then_some(name)
        })
        .collect();
    assert!(hidden.is_empty(), "temporary files left: {hidden:?}");

    // The manifest a run reads is not replaced by the one it writes.
    dir.run(&["fsck", "-q", "--manifest", "m", "fleet"])
        .status(0);
    let old = dir.read("m");
    let run = dir.run(&["fsck", "--since-manifest", "m", "--manifest", "m", "fleet"]);
    run.status(128);
    assert!(run.stderr.contains("--manifest m: "), "{run}");
    assert_eq!(dir.read("m"), old);
}

#[test]
fn fsck_manifest_to_a_device_writes_it_in_place() {
    let dir = Dir::new();
    mkdir(&dir, "fleet");
    dir.write("fleet/a.jsonl", session(3));
    let run = dir.run(&["fsck", "-q", "--manifest", "/dev/stdout", "fleet"]);
    run.status(0);
    let line: serde_json::Value =
        serde_json::from_str(run.stdout.trim()).expect("a manifest line on stdout");
    assert_eq!(line["file"], "fleet/a.jsonl");
}

#[test]
fn fsck_of_a_directory_with_no_session_file_fails_instead_of_passing_as_a_clean_fleet() {
    let dir = Dir::new();
    mkdir(&dir, "empty");
    dir.write("empty/notes.txt", "not a session");
    let run = dir.run(&["fsck", "empty"]);
    run.status(1).stdout("");
    assert!(
        run.stderr
            .starts_with("error: no session file found in empty (files named *.jsonl)\n"),
        "{run}"
    );
    // A wrong glob is caught the same way, and --json says ok: false.
    mkdir(&dir, "fleet");
    dir.write("fleet/a.jsonl", session(2));
    let run = dir.run(&["fsck", "--json", "--glob", "*.json", "fleet"]);
    run.status(1);
    let total = run.json_lines().pop().expect("a total");
    assert_eq!(total["ok"], false, "{run}");
    assert_eq!(total["files"], 0, "{run}");
    // Nor is a manifest of nothing written.
    dir.run(&["fsck", "--manifest", "m", "empty"]).status(1);
    assert!(!dir.join("m").exists());
    // Asked for, an empty fleet passes.
    dir.run(&["fsck", "--allow-empty", "empty"]).status(0);
}
