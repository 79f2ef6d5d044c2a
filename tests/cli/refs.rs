//! Tags, branches and HEAD on sessions whose app owns the file (Claude
//! Code's, Codex's): kept in ysess's refs store beside the file, never in
//! it, with the same checks, locking and guarantees as writes into a
//! yoagent file.

use std::path::{Path, PathBuf};

use crate::support::{Dir, Run};

/// The Claude Code session of the agents' `fork` scenario (two branches),
/// copied into a temporary home as Claude Code keeps it; its path.
fn claude_session(dir: &Dir) -> PathBuf {
    let scenario = crate::support::fixture("agents/claude/fork/projects");
    let project = std::fs::read_dir(&scenario)
        .expect("the scenario's project")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .next()
        .expect("a project folder");
    let to = dir
        .join("home/.claude/projects")
        .join(project.file_name().expect("a name"));
    std::fs::create_dir_all(&to).expect("a project folder");
    let name = "dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl";
    std::fs::copy(project.join(name), to.join(name)).expect("copied");
    to.join(name)
}

/// The Codex rollout of the agents' `turns` scenario, copied the same way.
fn codex_rollout(dir: &Dir) -> PathBuf {
    let sessions = crate::support::fixture("agents/codex/turns/sessions");
    let mut found = crate::agents::files_under(&sessions);
    found.retain(|p| p.extension().is_some_and(|x| x == "jsonl"));
    let from = found.first().expect("a rollout").clone();
    let rel = from.strip_prefix(&sessions).expect("below sessions");
    let to = dir.join("home/.codex/sessions").join(rel);
    std::fs::create_dir_all(to.parent().expect("a folder")).expect("folders");
    std::fs::copy(&from, &to).expect("copied");
    to
}

fn on(dir: &Dir, file: &Path, args: &[&str]) -> Run {
    crate::agents::ysess(dir, file, args)
}

#[test]
fn tag_branch_and_checkout_on_a_claude_code_session_leave_its_file_as_the_app_wrote_it() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    let before = std::fs::read(&file).expect("reads");
    on(&dir, &file, &["tag", "first-draft", "HEAD~2"]).status(0);
    on(&dir, &file, &["branch", "try-2", "first-draft"]).status(0);
    on(&dir, &file, &["checkout", "try-2"])
        .status(0)
        .stderr(&format!(
            "Switched to branch 'try-2' at 94cfed4d (try-2, first-draft) assistant claude-opus-4-5-20251101: Answer 0: noted “Plan a small CLI called tally.”.\n\
             hint: `ysess -f {} resume` goes on from HEAD in Claude Code\n",
            file.display()
        ));
    assert_eq!(std::fs::read(&file).expect("reads"), before);

    // Every view shows the refs as it shows a yoagent file's.
    let graph = on(
        &dir,
        &file,
        &["log", "--graph", "--format", "{short_id} {decorations}"],
    );
    graph.status(0).stdout(
        "○  4e64cccf \n\
         ○  cfd13c38 \n\
         │ ○  5b709707 \n\
         │ ○  7b1ba7b8 \n\
         ├─╯\n\
         @  94cfed4d HEAD, try-2, first-draft\n\
         ◆  68b24880 \n",
    );
    let status = on(&dir, &file, &["status"]);
    assert!(
        status.status(0).stdout.contains("Branch:   try-2\n"),
        "{status}"
    );
    let branches = on(&dir, &file, &["branch"]);
    assert!(branches.status(0).stdout.contains("* try-2"), "{branches}");
    let reflog = on(&dir, &file, &["reflog"]);
    let moves: Vec<&str> = reflog.status(0).stdout.lines().collect();
    assert_eq!(moves.len(), 1, "{reflog}");
    assert!(
        moves[0].starts_with("HEAD@{1}")
            && moves[0].ends_with("checkout: moving from 4e64cccf to 94cfed4d on try-2"),
        "{reflog}"
    );
    on(
        &dir,
        &file,
        &["log", "-1", "first-draft", "--format", "{short_id}"],
    )
    .status(0)
    .stdout("94cfed4d\n");

    // The refs are in the store, under the session's own id, and fsck
    // finds them sound, with the session and on their own.
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    assert!(refs.is_file(), "the refs file is named by the session's id");
    on(&dir, &file, &["fsck", "-v"])
        .status(0)
        .stderr("")
        .stdout(&format!(
            "{}: ok; claude session, 6 entries (and 14 bookkeeping lines), 1 root, 2 branch tips, 1 label, HEAD 94cfed4d at depth 2\n",
            file.display()
        ));
    let store = dir.join(".ysess-refs");
    let run = dir.run(&["fsck", store.to_str().expect("UTF-8")]);
    run.status(0);
    assert!(
        run.stderr
            .starts_with("1 file, 0 with errors, 0 with warnings"),
        "{run}"
    );
}

#[test]
fn a_codex_rollouts_refs_move_head_and_name_entries_without_touching_it() {
    let dir = Dir::new();
    let file = codex_rollout(&dir);
    let before = std::fs::read(&file).expect("reads");
    let head = on(&dir, &file, &["log", "-1", "--format", "{short_id}"]);
    let head = head.status(0).stdout.trim().to_string();
    on(&dir, &file, &["tag", "first-draft", "HEAD~2"]).status(0);
    on(&dir, &file, &["checkout", "first-draft"]).status(0);
    let now = on(
        &dir,
        &file,
        &["log", "-1", "--format", "{short_id} {decorations}"],
    );
    assert!(now.status(0).stdout.contains(" HEAD, first-draft"), "{now}");
    on(&dir, &file, &["checkout", "-"]).status(0);
    on(&dir, &file, &["log", "-1", "--format", "{short_id}"])
        .status(0)
        .stdout(&format!("{head}\n"));
    assert_eq!(std::fs::read(&file).expect("reads"), before);
}

#[test]
fn work_the_app_appends_after_a_checkout_moves_head_on() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    let full = std::fs::read(&file).expect("reads");
    // The session as it was before its last turn: checked out at its root.
    let text = String::from_utf8(full.clone()).expect("UTF-8");
    let cut = text.find("Keep it a CLI").expect("the last turn's prompt");
    let cut = text[..cut].rfind('\n').expect("a line start") + 1;
    std::fs::write(&file, &full[..cut]).expect("cut");
    on(&dir, &file, &["checkout", "HEAD~1"]).status(0);
    on(&dir, &file, &["log", "-1", "--format", "{short_id}"])
        .status(0)
        .stdout("7b1ba7b8\n");
    // Claude Code goes on in the file: its new work is HEAD now.
    std::fs::write(&file, &full).expect("the app appends");
    on(&dir, &file, &["log", "-1", "--format", "{short_id}"])
        .status(0)
        .stdout("4e64cccf\n");
}

#[test]
fn a_moved_session_keeps_its_refs_and_ysess_refs_names_the_store() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    let store = dir.join("elsewhere");
    let env = [("YSESS_REFS", store.to_str().expect("UTF-8"))];
    let f = file.to_str().expect("UTF-8");
    dir.run_with(&["-f", f, "tag", "v1", "HEAD~3"], None, &env)
        .status(0);
    assert!(
        store
            .join("claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl")
            .is_file()
    );
    let moved = dir.join("dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    std::fs::rename(&file, &moved).expect("moved");
    let m = moved.to_str().expect("UTF-8");
    dir.run_with(
        &["-f", m, "log", "-1", "v1", "--format", "{short_id}"],
        None,
        &env,
    )
    .status(0)
    .stdout("68b24880\n");
}

#[test]
fn fsck_names_a_ref_whose_entry_the_session_no_longer_holds() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    let full = std::fs::read_to_string(&file).expect("reads");
    on(&dir, &file, &["tag", "json-output", "HEAD"]).status(0);
    // The same session, without its last turn.
    let cut = full.find("Keep it a CLI").expect("the last turn's prompt");
    let cut = full[..cut].rfind('\n').expect("a line start") + 1;
    std::fs::write(&file, &full[..cut]).expect("cut");
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    let run = on(&dir, &file, &["fsck"]);
    run.status(1);
    assert!(
        run.stderr.contains(&format!(
            "error: {}: danglingRef: {}:2: the label `json-output` names entry 4e64cccf-6622-4de9-a452-ef15fbc77397, which the session no longer holds",
            file.display(),
            refs.display()
        )),
        "{run}"
    );
    let run = dir.run(&["fsck", refs.to_str().expect("UTF-8")]);
    run.status(1);
    assert!(
        run.stderr
            .contains(":2: danglingRef: the label `json-output`"),
        "{run}"
    );
    // A refs file whose session is gone cannot be checked: a warning.
    std::fs::remove_file(&file).expect("removed");
    let run = dir.run(&["fsck", refs.to_str().expect("UTF-8")]);
    run.status(0);
    assert!(run.stderr.contains("refsWithoutSession"), "{run}");
}

#[test]
fn concurrent_tags_and_branches_on_one_claude_code_session_lose_no_ref() {
    const EACH: usize = 12;
    let dir = Dir::new();
    let file = claude_session(&dir);
    let before = std::fs::read(&file).expect("reads");
    on(&dir, &file, &["tag", "base", "HEAD~1"]).status(0);
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    let f = file.to_str().expect("UTF-8").to_string();
    let runs: Vec<Vec<String>> = (0..EACH)
        .flat_map(|k| {
            [
                vec!["tag".to_string(), format!("t{k}"), "HEAD~2".into()],
                vec!["branch".to_string(), format!("b{k}"), "HEAD~3".into()],
            ]
        })
        .map(|args| [vec!["-f".to_string(), f.clone()], args].concat())
        .collect();
    // Queued behind the refs file's lock, then all at once.
    for (args, out) in crate::support::queued_behind_lock(&dir, &refs, &runs) {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let branches = on(&dir, &file, &["branch", "--format", "{name}"]);
    let named: Vec<&str> = branches.status(0).stdout.lines().collect();
    for k in 0..EACH {
        assert!(
            named.contains(&format!("b{k}").as_str()),
            "b{k}: {branches}"
        );
        on(
            &dir,
            &file,
            &["log", "-1", &format!("t{k}"), "--format", "{short_id}"],
        )
        .status(0)
        .stdout("94cfed4d\n");
    }
    let run = dir.run(&["fsck", "--strict", refs.to_str().expect("UTF-8")]);
    run.status(0);
    assert_eq!(std::fs::read(&file).expect("reads"), before);
}

#[test]
fn a_refs_file_cut_short_by_a_crash_is_mended_by_the_next_write() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    on(&dir, &file, &["tag", "v1", "HEAD~1"]).status(0);
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    let mut bytes = std::fs::read(&refs).expect("reads");
    bytes.extend_from_slice(b"{\"id\":\"ysess:9\",\"parent_id\":\"94cf");
    std::fs::write(&refs, &bytes).expect("a torn write");
    on(&dir, &file, &["tag", "v2", "HEAD~2"]).status(0);
    for name in ["v1", "v2"] {
        on(&dir, &file, &["log", "-1", name, "--format", "{short_id}"]).status(0);
    }
    let run = dir.run(&["fsck", "--strict", refs.to_str().expect("UTF-8")]);
    run.status(0);
}

#[test]
fn two_claude_code_files_of_one_name_shared_refs_and_one_deleted_the_others_labels() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("a")).expect("a");
    std::fs::create_dir_all(dir.join("b")).expect("b");
    // Two sessions, each saved as `session.jsonl`: their lines name them.
    std::fs::copy(
        crate::support::fixture("claude/session.jsonl"),
        dir.join("a/session.jsonl"),
    )
    .expect("copied");
    std::fs::copy(
        crate::support::fixture("claude/today.jsonl"),
        dir.join("b/session.jsonl"),
    )
    .expect("copied");
    let (a, b) = (dir.join("a/session.jsonl"), dir.join("b/session.jsonl"));
    on(&dir, &a, &["tag", "mine", "HEAD~1"]).status(0);
    let on_a = on(&dir, &a, &["log", "-1", "mine", "--format", "{short_id}"]);
    let on_a = on_a.status(0).stdout.clone();
    // The same name on the other session is its own label.
    on(&dir, &b, &["tag", "mine", "HEAD"]).status(0);
    on(&dir, &a, &["log", "-1", "mine", "--format", "{short_id}"])
        .status(0)
        .stdout(&on_a);
    for file in [&a, &b] {
        on(&dir, file, &["fsck"]).status(0);
    }
    let files = crate::agents::files_under(&dir.join(".ysess-refs/claude"));
    assert_eq!(files.len(), 2, "one refs file a session: {files:?}");
}

#[test]
fn a_record_id_at_the_largest_number_panicked_or_made_ids_clash() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    on(&dir, &file, &["tag", "v1", "HEAD~1"]).status(0);
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    let text = std::fs::read_to_string(&refs).expect("reads");
    std::fs::write(
        &refs,
        text.replace("\"ysess:1\"", "\"ysess:18446744073709551615\""),
    )
    .expect("written");
    let run = on(&dir, &file, &["tag", "v2", "HEAD~2"]);
    run.status(128);
    assert!(run.stderr.starts_with("error: no id is left"), "{run}");
    on(&dir, &file, &["log", "-1", "v1", "--format", "{short_id}"])
        .status(0)
        .stdout("cfd13c38\n");
}

#[cfg(unix)]
#[test]
fn a_refs_file_naming_a_fifo_as_its_session_hung_fsck() {
    let dir = Dir::new();
    let file = claude_session(&dir);
    on(&dir, &file, &["tag", "v1", "HEAD~1"]).status(0);
    let refs = dir.join(".ysess-refs/claude/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl");
    std::fs::remove_file(&file).expect("removed");
    let made = std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let started = std::time::Instant::now();
    let run = dir.run(&["fsck", refs.to_str().expect("UTF-8")]);
    run.status(0);
    assert!(run.stderr.contains("refsWithoutSession"), "{run}");
    assert!(started.elapsed().as_secs() < 4, "{:?}", started.elapsed());
}
