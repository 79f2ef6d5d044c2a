//! The commands that change a session (`checkout`, `tag NAME`, `branch NAME`,
//! `branch -m/-d`, `append`) and `export`, judged by yoagent itself: between
//! ysess commands the file is loaded with `Session::from_jsonl`, worked on
//! with `append`, and saved whole with `std::fs::write`, as an app does.

use std::collections::{HashMap, HashSet};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::process::{Command, Stdio};

use serde_json::json;
use yoagent::types::{Content, CustomMessage, Message, StopReason, Usage};
use yoagent::{AgentMessage, Session, SessionEntry};

use crate::sessgen::Rng;
use crate::support::{Dir, Run, demo, user_line};

const FILE: &str = "session.jsonl";

// ---------------------------------------------------------------------------
// Helpers: the file as yoagent sees it
// ---------------------------------------------------------------------------

fn bytes(dir: &Dir) -> Vec<u8> {
    dir.read(FILE)
}

/// The session file as an app loads it.
#[track_caller]
fn load(dir: &Dir) -> Session {
    let text = String::from_utf8(bytes(dir)).expect("the session is UTF-8");
    Session::from_jsonl(&text).unwrap_or_else(|e| panic!("yoagent refuses the file: {e}\n{text}"))
}

/// What an app does after its agent ran: the whole file again.
fn save(dir: &Dir, session: &Session) {
    std::fs::write(dir.join(FILE), session.to_jsonl()).expect("the app saves");
}

/// The messages a model sees: custom records dropped.
fn llm(messages: Vec<AgentMessage>) -> Vec<AgentMessage> {
    messages
        .into_iter()
        .filter(|m| !matches!(m, AgentMessage::Custom(_)))
        .collect()
}

/// What an agent resumes with, as the model sees it.
fn head_path(session: &Session) -> Vec<AgentMessage> {
    llm(session.path_messages())
}

/// The model's view of the path from the root to `id`.
#[track_caller]
fn path_to(session: &Session, id: &str) -> Vec<AgentMessage> {
    let mut s = session.clone();
    s.seek(id)
        .unwrap_or_else(|e| panic!("{id} is in the session: {e}"));
    head_path(&s)
}

/// The model's view of the path to the checkpoint `label`.
#[track_caller]
fn checkpoint_path(session: &Session, label: &str) -> Vec<AgentMessage> {
    let mut s = session.clone();
    s.seek_checkpoint(label)
        .unwrap_or_else(|e| panic!("seek_checkpoint({label}): {e}"));
    head_path(&s)
}

fn is_ysess_record(entry: &SessionEntry) -> bool {
    matches!(&entry.message, AgentMessage::Custom(c) if c.kind.starts_with("ysess."))
}

/// The entries that are not ysess's bookkeeping records.
fn work(session: &Session) -> Vec<&SessionEntry> {
    session
        .entries()
        .iter()
        .filter(|e| !is_ysess_record(e))
        .collect()
}

/// ysess records of one kind (`ysess.tag`, …).
fn records<'a>(session: &'a Session, kind: &str) -> Vec<&'a SessionEntry> {
    session
        .entries()
        .iter()
        .filter(|e| matches!(&e.message, AgentMessage::Custom(c) if c.kind == kind))
        .collect()
}

/// The file loads in yoagent and fsck finds no error.
#[track_caller]
fn assert_sound(dir: &Dir, context: &str) {
    let text = String::from_utf8(bytes(dir)).expect("the session is UTF-8");
    if let Err(e) = Session::from_jsonl(&text) {
        panic!("{context}: yoagent refuses the file: {e}\n{text}");
    }
    let run = dir.run(&["fsck"]);
    assert_eq!(run.status, Some(0), "{context}: fsck\n{run}\n{text}");
}

/// Runs a command that must leave the file as it was (a refusal, or a
/// no-op), and checks that it did.
#[track_caller]
fn unchanged(dir: &Dir, args: &[&str], code: i32) -> Run {
    let before = bytes(dir);
    let run = dir.run(args);
    run.status(code);
    assert!(run.stdout.is_empty(), "nothing on stdout\n{run}");
    assert_eq!(bytes(dir), before, "the file is unchanged\n{run}");
    run
}

/// `branch --json` as name → tip, for the named branches.
fn named_branches(dir: &Dir) -> HashMap<String, String> {
    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    run.json_lines()
        .into_iter()
        .filter_map(|v| {
            Some((
                v["name"].as_str()?.to_string(),
                v["tip"].as_str()?.to_string(),
            ))
        })
        .collect()
}

/// The next id yoagent's `append` would give after loading the file.
fn next_yoagent_id(dir: &Dir) -> String {
    let mut s = load(dir);
    s.append(Message::user("probe").into())
}

fn user(text: &str) -> AgentMessage {
    Message::user(text).into()
}

fn assistant(text: &str) -> AgentMessage {
    Message::assistant(
        vec![Content::Text { text: text.into() }],
        StopReason::Stop,
        "m",
        "p",
        Usage::default(),
    )
    .into()
}

fn custom(status: &str) -> AgentMessage {
    AgentMessage::Custom(CustomMessage::new(
        "status_update",
        json!({ "status": status }),
    ))
}

fn json_of(message: &AgentMessage) -> String {
    serde_json::to_string(message).expect("messages serialize")
}

// ---------------------------------------------------------------------------
// checkout
// ---------------------------------------------------------------------------

#[test]
fn checkout_makes_yoagent_resume_with_exactly_the_path_to_the_revision() {
    let dir = demo();
    let original = load(&dir);
    for (rev, id) in [
        ("e5", "e5"),
        ("first-draft", "e4"),
        ("library", "e8"),
        ("e13", "e13"),
        ("e12~2", "e10"),
        ("e1", "e1"),
        ("e9", "e9"),
        ("e15", "e15"),
    ] {
        let run = dir.run(&["checkout", rev]);
        run.status(0);
        assert!(run.stdout.is_empty(), "{run}");
        let session = load(&dir);
        assert_eq!(
            head_path(&session),
            path_to(&original, id),
            "after checkout {rev}\n{run}"
        );
        assert_eq!(
            work(&session).len(),
            work(&original).len(),
            "checkout adds no work"
        );
        assert_sound(&dir, &format!("checkout {rev}"));
    }
}

#[test]
fn checkout_says_where_head_is_now() {
    let dir = demo();
    dir.run(&["checkout", "e5"])
        .status(0)
        .stdout("")
        .stderr("HEAD is now at e5 user: Good. Add a --json output for CI.\n");
    dir.run(&["-q", "checkout", "e4"]).status(0).stderr("");
}

#[test]
fn checkout_of_where_head_already_is_leaves_the_file_byte_for_byte() {
    let dir = demo();
    let run = unchanged(&dir, &["checkout", "e15"], 0);
    assert!(run.stderr.starts_with("HEAD is already at e15"), "{run}");
    unchanged(&dir, &["checkout", "HEAD"], 0);

    dir.run(&["checkout", "e5"]).status(0);
    for rev in ["e5", "@", "HEAD", "e6^"] {
        let run = unchanged(&dir, &["checkout", rev], 0);
        assert!(run.stderr.starts_with("HEAD is already at e5"), "{run}");
    }
}

#[test]
fn an_agent_that_resumes_after_checkout_forks_from_the_revision() {
    let dir = demo();
    let original = load(&dir);
    dir.run(&["checkout", "e5"]).status(0);
    let mut session = load(&dir);
    let reply = assistant("Here is step 4, again.");
    let id = session.append(reply.clone());
    assert_eq!(id, "e17", "yoagent numbers after ysess's record (e16)");
    save(&dir, &session);

    let session = load(&dir);
    let mut expected = path_to(&original, "e5");
    expected.push(reply);
    assert_eq!(head_path(&session), expected);
    // The old branch below e5 is still there, untouched.
    assert!(session.branch_tips().contains(&"e6"));
    assert_sound(&dir, "agent after checkout");
}

// ---------------------------------------------------------------------------
// tag
// ---------------------------------------------------------------------------

#[test]
fn tag_name_rev_is_where_seek_checkpoint_resumes_and_head_stays() {
    let dir = demo();
    let original = load(&dir);
    let before = head_path(&original);
    for (name, rev, id) in [
        ("step-four", Some("e5"), "e5"),
        ("search", Some("e12"), "e12"),
        ("root", Some("e1"), "e1"),
        ("here", None, "e15"),
        ("here-again", None, "e15"),
        ("plan", Some("first-draft"), "e4"),
    ] {
        let mut args = vec!["tag", name];
        args.extend(rev);
        let run = dir.run(&args);
        run.status(0);
        assert!(run.stdout.is_empty(), "{run}");
        assert!(run.stderr.starts_with(&format!("Labelled {id} ")), "{run}");
        let session = load(&dir);
        assert_eq!(
            checkpoint_path(&session, name),
            path_to(&original, id),
            "seek_checkpoint({name})"
        );
        assert_eq!(head_path(&session), before, "HEAD did not move ({name})");
        assert_eq!(work(&session).len(), work(&original).len());
        assert_sound(&dir, &format!("tag {name}"));
    }
    let run = dir.run(&["tag", "--json"]);
    let listed: Vec<(String, String)> = run
        .json_lines()
        .into_iter()
        .map(|v| {
            (
                v["name"].as_str().unwrap().into(),
                v["target"].as_str().unwrap().into(),
            )
        })
        .collect();
    for (name, id) in [("step-four", "e5"), ("search", "e12"), ("here", "e15")] {
        assert!(
            listed.contains(&(name.to_string(), id.to_string())),
            "{name} → {id}\n{run}"
        );
    }
}

#[test]
fn tag_refuses_a_name_in_use_unless_forced_and_then_the_newest_wins() {
    let dir = demo();
    let original = load(&dir);
    let run = unchanged(&dir, &["tag", "first-draft", "e6"], 128);
    assert!(run.stderr.contains("first-draft"), "{run}");
    assert!(run.stderr.contains("--force"), "{run}");

    dir.run(&["tag", "mine", "e3"]).status(0);
    unchanged(&dir, &["tag", "mine", "e5"], 128);

    for (force, rev, id) in [
        ("--force", "e6", "e6"),
        ("-F", "e13", "e13"),
        ("--force", "first-draft~1", "e12"),
    ] {
        dir.run(&["tag", force, "first-draft", rev]).status(0);
        let session = load(&dir);
        assert_eq!(
            checkpoint_path(&session, "first-draft"),
            path_to(&original, id),
            "tag {force} first-draft {rev}"
        );
        assert_eq!(head_path(&session), head_path(&original));
        assert_sound(&dir, "tag --force");
    }
    dir.run(&["tag", "-F", "mine", "e5"]).status(0);
    assert_eq!(
        checkpoint_path(&load(&dir), "mine"),
        path_to(&original, "e5")
    );
}

#[test]
fn tag_delete_is_refused_and_points_to_force() {
    let dir = demo();
    let run = unchanged(&dir, &["tag", "-d", "first-draft"], 128);
    assert!(run.stderr.starts_with("error: "), "{run}");
    assert!(run.stderr.contains("hint: "), "{run}");
    assert!(run.stderr.contains("--force"), "{run}");
    // A label that does not exist is said not to.
    let run = unchanged(&dir, &["tag", "-d", "no-such-label"], 128);
    assert_eq!(
        run.stderr, "error: no label named 'no-such-label'\n",
        "{run}"
    );
    unchanged(&dir, &["tag", "--delete", "library"], 128);
}

#[test]
fn tag_while_head_is_a_record_keeps_head_and_branch() {
    let dir = demo();
    let original = load(&dir);
    dir.run(&["checkout", "-b", "lib", "first-draft"]).status(0);
    dir.run(&["tag", "t1"]).status(0);
    dir.run(&["tag", "t2", "e12"]).status(0);
    let session = load(&dir);
    assert_eq!(head_path(&session), path_to(&original, "e4"));
    assert_eq!(checkpoint_path(&session, "t1"), path_to(&original, "e4"));
    assert_eq!(checkpoint_path(&session, "t2"), path_to(&original, "e12"));
    // New work still lands on lib.
    let id = dir
        .run(&["append", "--user", "on lib"])
        .stdout
        .trim()
        .to_string();
    assert_eq!(named_branches(&dir).get("lib"), Some(&id));
    assert_sound(&dir, "tags on a fresh branch");
}

// ---------------------------------------------------------------------------
// branch and checkout -b
// ---------------------------------------------------------------------------

#[test]
fn checkout_b_then_an_agents_turns_grow_the_branch_and_checkout_returns_to_them() {
    let dir = demo();
    let original = load(&dir);
    let run = dir.run(&["checkout", "-b", "lib", "first-draft"]);
    run.status(0).stdout("");
    assert!(
        run.stderr
            .starts_with("Switched to a new branch 'lib' at e4 (first-draft)"),
        "{run}"
    );
    assert_eq!(head_path(&load(&dir)), path_to(&original, "e4"));
    assert_eq!(
        named_branches(&dir).get("lib").map(String::as_str),
        Some("e4")
    );

    // An agent resumes, works three turns, and saves the whole file.
    let mut session = load(&dir);
    let turns = [
        user("Make it a library after all."),
        assistant("Library: reader, validator, index."),
        user("Good."),
    ];
    let mut last = String::new();
    for turn in &turns {
        last = session.append(turn.clone());
    }
    save(&dir, &session);
    assert_eq!(last, "e19", "e16 is ysess's record, then e17..e19");

    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    let first = &run.json_lines()[0];
    assert_eq!(first["name"], "lib", "{run}");
    assert_eq!(first["tip"], last.as_str(), "{run}");
    assert_eq!(first["current"], true, "{run}");

    // Elsewhere for a while, then back.
    dir.run(&["checkout", "e15"]).status(0);
    assert_eq!(head_path(&load(&dir)), path_to(&original, "e15"));
    dir.run(&["tag", "elsewhere"]).status(0);
    let run = dir.run(&["checkout", "lib"]);
    run.status(0);
    assert!(
        run.stderr
            .starts_with(&format!("Switched to branch 'lib' at {last} ")),
        "{run}"
    );

    let session = load(&dir);
    let mut expected = path_to(&original, "e4");
    expected.extend(turns.iter().cloned());
    assert_eq!(head_path(&session), expected);
    let resumed_at = session
        .path_ids()
        .into_iter()
        .rev()
        .find(|id| !is_ysess_record(session.entry(id).unwrap()));
    assert_eq!(resumed_at.as_deref(), Some(last.as_str()));

    // And what the agent appends next still grows lib.
    let mut session = load(&dir);
    let next = session.append(assistant("More."));
    save(&dir, &session);
    assert_eq!(named_branches(&dir).get("lib"), Some(&next));
    assert_sound(&dir, "checkout -b and an agent");
}

#[test]
fn branch_name_rev_starts_a_branch_without_moving_head() {
    let dir = demo();
    let original = load(&dir);
    let run = dir.run(&["branch", "lib", "first-draft"]);
    run.status(0).stdout("");
    assert!(
        run.stderr.starts_with("Created branch 'lib' at e4"),
        "{run}"
    );
    dir.run(&["branch", "here"]).status(0);
    let session = load(&dir);
    assert_eq!(head_path(&session), head_path(&original), "HEAD stays");
    assert_eq!(work(&session).len(), work(&original).len());
    let named = named_branches(&dir);
    assert_eq!(named.get("lib").map(String::as_str), Some("e4"));
    assert_eq!(named.get("here").map(String::as_str), Some("e15"));

    // What yoagent appends next lands where it would have: on neither
    // (as `git branch NAME` does not switch to NAME).
    let mut session = load(&dir);
    let id = session.append(user("next"));
    save(&dir, &session);
    let named = named_branches(&dir);
    assert_eq!(named.get("lib").map(String::as_str), Some("e4"));
    assert_eq!(named.get("here").map(String::as_str), Some("e15"));
    let mut expected = head_path(&original);
    expected.push(user("next"));
    assert_eq!(head_path(&load(&dir)).len(), expected.len());
    assert_eq!(load(&dir).head(), Some(id.as_str()));

    dir.run(&["checkout", "lib"]).status(0);
    assert_eq!(head_path(&load(&dir)), path_to(&original, "e4"));
    let id = dir
        .run(&["append", "--user", "lib work"])
        .stdout
        .trim()
        .to_string();
    assert_eq!(named_branches(&dir).get("lib"), Some(&id));
    assert_sound(&dir, "branch NAME REV");
}

#[test]
fn an_existing_branch_name_is_refused() {
    let dir = demo();
    dir.run(&["branch", "lib", "e4"]).status(0);
    let run = unchanged(&dir, &["branch", "lib", "e8"], 128);
    assert!(run.stderr.contains("already exists"), "{run}");
    unchanged(&dir, &["checkout", "-b", "lib", "e8"], 128);
    unchanged(&dir, &["branch", "-m", "lib", "lib"], 128);
    unchanged(&dir, &["branch", "-d", "nope"], 128);
    unchanged(&dir, &["branch", "-m", "nope", "other"], 128);
}

#[test]
fn names_are_checked_like_git_refs() {
    let dir = demo();
    dir.run(&["branch", "lib", "e4"]).status(0);
    let bad = [
        "a b",
        "a..b",
        "ctl\u{1}x",
        "esc\u{1b}",
        "tab\tx",
        "e12",
        "e99999",
        "HEAD",
        "@",
        "x~1",
        "x^",
        "x:y",
        "-x",
        "x/",
        "x.lock",
        "",
    ];
    for name in bad {
        for args in [
            vec!["branch", name],
            vec!["branch", name, "e4"],
            vec!["checkout", "-b", name, "e4"],
            vec!["tag", name],
            vec!["tag", name, "e4"],
            vec!["append", "--label", name, "--user", "x"],
            vec!["branch", "-m", "lib", name],
        ] {
            // `-x` does not even parse as a name (exit 2, README "Exit status").
            let code = if name.starts_with('-') { 2 } else { 128 };
            let run = unchanged(&dir, &args, code);
            assert!(run.stderr.starts_with("error: "), "{run}");
        }
    }
    for good in ["feature/x", "v2.1", "naïve", "e12x", "lib2"] {
        dir.run(&["branch", good, "e4"]).status(0);
    }
    assert_sound(&dir, "good names");
}

#[test]
fn branch_m_and_d_touch_names_only() {
    let dir = demo();
    dir.run(&["branch", "lib", "first-draft"]).status(0);
    dir.run(&["branch", "other", "library"]).status(0);
    let session = load(&dir);
    let before_work = work(&session).len();
    let before_path = head_path(&session);
    let before_lines = session.entries().len();

    let run = dir.run(&["branch", "-m", "lib", "library-v2"]);
    run.status(0).stdout("");
    assert!(run.stderr.contains("library-v2"), "{run}");
    let named = named_branches(&dir);
    assert_eq!(named.get("lib"), None);
    assert_eq!(named.get("library-v2").map(String::as_str), Some("e4"));
    assert_eq!(named.get("other").map(String::as_str), Some("e8"));

    dir.run(&["branch", "--move", "other", "x"]).status(0);
    dir.run(&["branch", "-d", "x"]).status(0).stdout("");
    let named = named_branches(&dir);
    assert_eq!(named.len(), 1, "{named:?}");
    assert_eq!(named.get("library-v2").map(String::as_str), Some("e4"));
    dir.run(&["branch", "--delete", "library-v2"]).status(0);
    assert!(named_branches(&dir).is_empty());

    let session = load(&dir);
    assert_eq!(work(&session).len(), before_work, "no entry added or lost");
    assert_eq!(
        session.entries().len(),
        before_lines + 4,
        "one record per change"
    );
    assert_eq!(head_path(&session), before_path, "HEAD stays");
    // A deleted name can be used again.
    dir.run(&["branch", "lib", "e6"]).status(0);
    assert_eq!(
        named_branches(&dir).get("lib").map(String::as_str),
        Some("e6")
    );
    assert_sound(&dir, "branch -m and -d");
}

#[test]

fn renaming_the_branch_head_is_on_keeps_new_work_on_it() {
    let dir = demo();
    dir.run(&["checkout", "-b", "feat", "first-draft"])
        .status(0);
    dir.run(&["branch", "-m", "feat", "feat2"]).status(0);
    let id = dir
        .run(&["append", "--user", "work"])
        .stdout
        .trim()
        .to_string();
    let run = dir.run(&["branch", "--json"]);
    let feat2 = run
        .json_lines()
        .into_iter()
        .find(|v| v["name"] == "feat2")
        .expect("feat2 listed");
    assert_eq!(feat2["tip"], id.as_str(), "{run}");
    assert_eq!(feat2["current"], true, "{run}");
}

#[test]

fn deleting_another_branch_keeps_head_on_its_branch() {
    let dir = demo();
    dir.run(&["branch", "old", "e8"]).status(0);
    dir.run(&["checkout", "-b", "feat", "first-draft"])
        .status(0);
    dir.run(&["branch", "-d", "old"]).status(0);
    let mut session = load(&dir);
    let id = session.append(user("work"));
    save(&dir, &session);
    assert_eq!(named_branches(&dir).get("feat"), Some(&id));
}

#[test]

fn a_branch_named_like_a_label_is_refused_or_checkout_finds_the_branch() {
    let dir = demo();
    dir.run(&["tag", "lib", "e6"]).status(0);
    let run = dir.run(&["checkout", "-b", "lib", "first-draft"]);
    if run.status == Some(128) {
        return;
    }
    run.status(0);
    let id = dir
        .run(&["append", "--user", "on lib"])
        .stdout
        .trim()
        .to_string();
    dir.run(&["checkout", "e15"]).status(0);
    dir.run(&["checkout", "lib"]).status(0);
    let session = load(&dir);
    let at = session
        .path_ids()
        .into_iter()
        .rev()
        .find(|i| !is_ysess_record(session.entry(i).unwrap()));
    assert_eq!(at, Some(id), "checkout lib resumes on the branch lib");
}

// ---------------------------------------------------------------------------
// append
// ---------------------------------------------------------------------------

#[test]
fn append_user_prints_the_id_yoagents_append_would_give() {
    let dir = demo();
    let original = load(&dir);
    let expected = next_yoagent_id(&dir);
    let run = dir.run(&["append", "--user", "hi there"]);
    run.status(0).stdout(&format!("{expected}\n"));
    assert_eq!(expected, "e16");
    let session = load(&dir);
    assert_eq!(session.head(), Some("e16"));
    let got = head_path(&session);
    let (last, earlier) = got.split_last().expect("a path");
    assert_eq!(earlier, &head_path(&original)[..], "below the old HEAD");
    let AgentMessage::Llm(Message::User { content, .. }) = last else {
        panic!("a user message: {last:?}");
    };
    assert_eq!(
        content,
        &vec![Content::Text {
            text: "hi there".into()
        }]
    );

    // After ysess's own records too.
    dir.run(&["checkout", "e5"]).status(0);
    let expected = next_yoagent_id(&dir);
    assert_eq!(expected, "e18");
    dir.run(&["append", "--user", "again"])
        .status(0)
        .stdout("e18\n");
    let got = head_path(&load(&dir));
    assert_eq!(got[..got.len() - 1], path_to(&original, "e5")[..]);
    assert_sound(&dir, "append --user");
}

#[test]
fn append_numbers_after_the_largest_e_n_id_as_yoagent_does() {
    let dir = Dir::new();
    dir.write(
        FILE,
        [
            user_line("e1", None, "a"),
            user_line("e007", Some("e1"), "b"),
            user_line("call-99", Some("e007"), "c"),
            user_line("e3x", Some("call-99"), "d"),
        ]
        .join("\n"),
    );
    let expected = next_yoagent_id(&dir);
    assert_eq!(expected, "e8");
    dir.run(&["append", "--user", "x"]).status(0).stdout("e8\n");
    assert_eq!(load(&dir).head(), Some("e8"));
    assert_sound(&dir, "odd ids");
}

#[test]
fn an_empty_file_is_not_silently_taken_for_a_new_session() {
    // What an app's `fs::write` leaves between its truncation and its write.
    let dir = Dir::new();
    dir.write(FILE, "");
    for args in WRITES {
        let run = unchanged(&dir, args, 128);
        assert!(
            run.stderr
                .starts_with("error: session.jsonl: the file holds no session"),
            "{run}"
        );
        assert!(run.stderr.contains("append --create"), "{run}");
    }
    let run = unchanged(&dir, &["append", "--user", "first"], 128);
    assert!(run.stderr.contains("nothing was written"), "{run}");
}

#[test]
fn append_create_starts_a_session_in_an_empty_or_missing_file() {
    let dir = Dir::new();
    dir.write(FILE, "");
    dir.run(&["append", "--create", "--user", "first"])
        .status(0)
        .stdout("e1\n");
    let session = load(&dir);
    assert_eq!(session.head(), Some("e1"));
    assert_eq!(session.entries()[0].parent_id, None);
    assert_sound(&dir, "empty file");

    let run = dir.run(&["-f", "new.jsonl", "append", "--user", "first"]);
    run.status(128);
    assert!(run.stderr.contains("append --create"), "{run}");
    assert!(!dir.join("new.jsonl").exists(), "{run}");
    // A refusal after --create writes nothing.
    let run = dir.run(&[
        "-f",
        "new.jsonl",
        "append",
        "--create",
        "--parent",
        "e9",
        "--user",
        "x",
    ]);
    run.status(128);
    // The file it made stays, empty (removing it again could remove a file
    // an app saved there meanwhile); --create writes to it next.
    assert_eq!(dir.read("new.jsonl"), b"", "{run}");
    dir.run(&["-f", "new.jsonl", "append", "--create", "--user", "first"])
        .status(0)
        .stdout("e1\n");
    let text = String::from_utf8(dir.read("new.jsonl")).expect("UTF-8");
    let made = Session::from_jsonl(&text).expect("yoagent loads the new session");
    assert_eq!(made.path_ids(), ["e1"]);
    // On a session, --create just appends.
    dir.run(&["append", "--create", "--user", "second"])
        .status(0)
        .stdout("e2\n");
    assert_sound(&dir, "create on a session");
}

/// A message tagged by number loads in yoagent; `append` refused it, taking
/// it for a custom record without `kind` or `data`.
#[test]
fn append_of_a_message_tagged_by_number_writes_it_as_yoagent_would() {
    let dir = demo();
    let stdin = r#"{"role":1,"content":[{"type":0,"text":"numbered"},{"type":3,"id":"c9","name":"ls","arguments":{}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":7}"#;
    let loaded: AgentMessage = serde_json::from_str(stdin).expect("yoagent reads it");
    dir.run_stdin(&["append"], stdin.as_bytes())
        .status(0)
        .stdout("e16\n");
    let session = load(&dir);
    let written = session.entry("e16").expect("appended");
    assert_eq!(written.message, loaded);
    // Written as yoagent writes it, so an app's next save keeps the line.
    assert_eq!(
        String::from_utf8(bytes(&dir))
            .expect("UTF-8")
            .lines()
            .last(),
        Some(serde_json::to_string(written).expect("serializes").as_str())
    );
}

#[test]
fn append_reads_one_json_object_or_json_lines_from_stdin() {
    let dir = demo();
    let original = load(&dir);

    let one = user("one object");
    let run = dir.run_stdin(&["append"], json_of(&one).as_bytes());
    run.status(0).stdout("e16\n");

    let several = [
        user("first of three"),
        Message::assistant(
            vec![
                Content::thinking("hmm"),
                Content::tool_call("call_9", "bash", json!({"command": "ls"})),
            ],
            StopReason::ToolUse,
            "claude-sonnet-5",
            "anthropic",
            Usage {
                input: 10,
                output: 3,
                ..Usage::default()
            },
        )
        .into(),
        Message::ToolResult {
            tool_call_id: "call_9".into(),
            tool_name: "bash".into(),
            content: vec![Content::Text {
                text: "a\nb".into(),
            }],
            is_error: false,
            timestamp: 5,
        }
        .into(),
        custom("busy"),
    ];
    let stdin: String = several.iter().map(|m| json_of(m) + "\n").collect();
    let expected = next_yoagent_id(&dir);
    assert_eq!(expected, "e17");
    dir.run_stdin(&["append"], stdin.as_bytes())
        .status(0)
        .stdout("e17\ne18\ne19\ne20\n");

    let session = load(&dir);
    assert_eq!(session.head(), Some("e20"));
    assert_eq!(
        session.path_ids()[session.path_ids().len() - 5..],
        ["e16", "e17", "e18", "e19", "e20"],
        "each below the one before"
    );
    let all = session.path_messages();
    assert_eq!(all[all.len() - 5..], [&[one][..], &several[..]].concat());
    assert_eq!(head_path(&original).len() + 4, head_path(&session).len());
    assert_sound(&dir, "append from stdin");
}

#[test]
fn append_refuses_a_message_yoagent_would_not_load_and_writes_nothing() {
    let dir = demo();
    let no_usage = r#"{"role":"assistant","content":[],"stopReason":"stop","model":"m","provider":"p","timestamp":1}"#;
    let good = json_of(&user("fine"));
    for (stdin, names) in [
        (no_usage.to_string(), ["message 1", "usage"]),
        (r#"{"role":"user"}"#.to_string(), ["message 1", "content"]),
        (format!("{good}\n{no_usage}\n"), ["message 2", "usage"]),
        (
            format!("{good}\n{good}\n{{\"role\":\"user\",\"content\":[],\"timestamp\":-1}}"),
            ["message 3", "timestamp"],
        ),
        (
            r#"{"role":"user","content":[{"type":"video","url":"x"}],"timestamp":1}"#.to_string(),
            ["message 1", "video"],
        ),
        ("[1,2]".to_string(), ["message 1", "object"]),
        ("{\"role\":".to_string(), ["message 1", "standard input"]),
        (String::new(), ["no messages", "--user"]),
    ] {
        let before = bytes(&dir);
        let run = dir.run_stdin(&["append"], stdin.as_bytes());
        // No message at all is a usage error; a message that is not one of
        // yoagent's is refused (README "Exit status").
        run.status(if stdin.is_empty() { 2 } else { 128 });
        assert!(run.stdout.is_empty(), "{run}");
        for name in names {
            assert!(run.stderr.contains(name), "names {name:?}\n{run}");
        }
        assert_eq!(bytes(&dir), before, "unchanged\n{run}");
    }
    assert_sound(&dir, "refused messages");
}

#[test]
fn append_parent_and_label() {
    let dir = demo();
    let original = load(&dir);
    let run = dir.run(&[
        "append",
        "--parent",
        "first-draft",
        "--user",
        "try again",
        "--label",
        "retry",
    ]);
    run.status(0).stdout("e16\n");
    let session = load(&dir);
    assert_eq!(
        session.entry("e16").unwrap().parent_id.as_deref(),
        Some("e4")
    );
    let mut expected = path_to(&original, "e4");
    expected.push(session.entry("e16").unwrap().message.clone());
    assert_eq!(head_path(&session), expected);
    let mut s = session.clone();
    s.seek_checkpoint("retry").unwrap();
    assert_eq!(s.head(), Some("e16"));

    // Several messages: the label goes on the last.
    let (a, b) = (user("a"), assistant("b"));
    let stdin = format!("{}\n{}\n", json_of(&a), json_of(&b));
    dir.run_stdin(
        &["append", "--parent", "e12", "--label", "two"],
        stdin.as_bytes(),
    )
    .status(0)
    .stdout("e17\ne18\n");
    let mut s = load(&dir);
    assert_eq!(s.entry("e17").unwrap().parent_id.as_deref(), Some("e12"));
    assert_eq!(s.entry("e17").unwrap().label, None);
    s.seek_checkpoint("two").unwrap();
    assert_eq!(s.head(), Some("e18"));
    let mut expected = path_to(&original, "e12");
    expected.extend([a, b]);
    assert_eq!(head_path(&s), expected);
    assert_eq!(
        head_path(&load(&dir)),
        expected,
        "the last line is yoagent's head"
    );

    unchanged(&dir, &["append", "--parent", "nope", "--user", "x"], 128);
    assert_sound(&dir, "append --parent --label");
}

#[test]
fn append_parent_a_branch_with_work_grows_it() {
    let dir = demo();
    dir.run(&["checkout", "-b", "lib", "e4"]).status(0);
    let first = dir
        .run(&["append", "--user", "on lib"])
        .stdout
        .trim()
        .to_string();
    dir.run(&["checkout", "e15"]).status(0);
    let run = dir.run(&["append", "--parent", "lib", "--user", "more on lib"]);
    run.status(0);
    let id = run.stdout.trim().to_string();
    let session = load(&dir);
    assert_eq!(
        session.entry(&id).unwrap().parent_id.as_deref(),
        Some(first.as_str())
    );
    assert_eq!(named_branches(&dir).get("lib"), Some(&id));
}

#[test]

fn append_parent_a_fresh_branch_grows_it() {
    let dir = demo();
    dir.run(&["branch", "lib", "e4"]).status(0);
    let run = dir.run(&["append", "--parent", "lib", "--user", "x"]);
    run.status(0);
    let id = run.stdout.trim().to_string();
    assert_eq!(named_branches(&dir).get("lib"), Some(&id), "{run}");
}

// ---------------------------------------------------------------------------
// export
// ---------------------------------------------------------------------------

#[test]
fn export_prints_the_paths_messages_as_yoagent_reads_them() {
    let dir = demo();
    dir.run(&["checkout", "-b", "lib", "first-draft"]).status(0);
    dir.run(&["tag", "mark", "e12"]).status(0);
    let mut session = load(&dir);
    session.append(user("lib work"));
    session.append(custom("idle"));
    session.append(assistant("lib reply"));
    save(&dir, &session);
    let session = load(&dir);

    for (rev, id) in [
        (None, "HEAD"),
        (Some("first-draft"), "e4"),
        (Some("e13"), "e13"),
        (Some("mark"), "e12"),
        (Some("lib"), "e21"),
        (Some("e9"), "e9"),
    ] {
        let expected = if id == "HEAD" {
            head_path(&session)
        } else {
            path_to(&session, id)
        };
        let mut args = vec!["export"];
        args.extend(rev);
        let run = dir.run(&args);
        run.status(0);
        let got: Vec<AgentMessage> = serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("a JSON array of AgentMessage: {e}\n{run}"));
        assert_eq!(got, expected, "export {rev:?}");
        assert_eq!(run.stdout.lines().count(), 1, "{run}");

        args.push("--session");
        let run = dir.run(&args);
        run.status(0);
        let exported = Session::from_jsonl(&run.stdout)
            .unwrap_or_else(|e| panic!("yoagent loads export --session: {e}\n{run}"));
        assert_eq!(head_path(&exported), expected, "export --session {rev:?}");
        assert!(
            !exported.entries().iter().any(is_ysess_record),
            "no ysess records"
        );
        assert_eq!(exported.branch_tips().len(), 1, "linear");
    }
    unchanged(&dir, &["export", "nope"], 128);
}

/// serde reads a variant's index where a tag's name belongs: `"role":0|1|2`
/// is user/assistant/toolResult, a block's `"type":0..3`
/// text/image/thinking/toolCall. ysess took such messages for custom
/// records: `export` dropped them, `show` printed an empty role, `log` a
/// `null` subject.
#[test]
fn messages_tagged_by_number_are_exported_shown_and_logged_as_yoagent_reads_them() {
    let dir = Dir::new();
    let lines = [
        r#"{"id":"e1","parent_id":null,"message":{"role":0,"content":[{"type":0,"text":"list the files"}],"timestamp":1},"timestamp":1}"#,
        r#"{"id":"e2","parent_id":"e1","message":{"role":1,"content":[{"type":2,"thinking":"ls will do"},{"type":3,"id":"c1","name":"ls","arguments":{"path":"."}}],"stopReason":"toolUse","model":"m1","provider":"p","usage":{"input":3,"output":4},"timestamp":2},"timestamp":2}"#,
        r#"{"id":"e3","parent_id":"e2","message":{"role":"extension","kind":"note","data":{"type":0}},"timestamp":3}"#,
        r#"{"id":"e4","parent_id":"e3","message":{"role":2,"toolCallId":"c1","toolName":"ls","content":[{"type":1,"data":"aGk=","mimeType":"image/png"},{"type":0,"text":"a.rs b.rs"}],"isError":false,"timestamp":4},"timestamp":4}"#,
        r#"{"id":"e5","parent_id":"e4","message":{"role":"assistant","content":[{"text":"two files","type":0}],"stopReason":"stop","model":"m1","provider":"p","usage":{"input":5,"output":6},"timestamp":5},"timestamp":5}"#,
    ];
    let text = lines.join("\n");
    dir.write(FILE, &text);
    let original = Session::from_jsonl(&text).expect("yoagent loads numbered tags");
    let expected = head_path(&original);
    assert_eq!(expected.len(), 4, "only the note is a custom record");
    dir.run(&["fsck", FILE]).status(0).stderr("");

    let run = dir.run(&["export"]);
    run.status(0);
    let got: Vec<AgentMessage> = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("a JSON array of AgentMessage: {e}\n{run}"));
    assert_eq!(got, expected, "{run}");
    let run = dir.run(&["export", "--session"]);
    run.status(0);
    let exported = Session::from_jsonl(&run.stdout)
        .unwrap_or_else(|e| panic!("yoagent loads export --session: {e}\n{run}"));
    assert_eq!(exported.path_messages(), original.path_messages(), "{run}");

    let run = dir.run(&["log", "--format", "{id} {tag}: {subject}"]);
    run.status(0).stdout(
        "e5 m1: two files\n\
         e4 ls: a.rs b.rs\n\
         e3 note: {\"type\":0}\n\
         e2 m1: ls {\"path\":\".\"}\n\
         e1 : list the files\n",
    );
    // From the end of the file too.
    let run = dir.run(&["log", "-n", "2", "--format", "{id} {role}: {subject}"]);
    run.status(0)
        .stdout("e5 assistant: two files\ne4 toolResult: a.rs b.rs\n");
    for (id, role) in [("e1", "user"), ("e2", "assistant"), ("e4", "toolResult")] {
        let run = dir.run(&["show", id]);
        run.status(0);
        assert!(
            run.stdout
                .lines()
                .any(|l| l.split_whitespace().collect::<Vec<_>>() == ["Role:", role]),
            "{run}"
        );
    }
}

// ---------------------------------------------------------------------------
// A random mix of ysess commands and agent saves
// ---------------------------------------------------------------------------

/// Ids of the entries that are not ysess records: what a person names.
fn work_ids(session: &Session) -> Vec<String> {
    work(session).iter().map(|e| e.id.clone()).collect()
}

#[test]
fn a_random_mix_of_ysess_commands_and_agent_saves_keeps_the_file_sound() {
    let dir = demo();
    let mut rng = Rng::new(0x05ee_d1e5_50dd_ba11);
    let mut tags: Vec<String> = Vec::new();
    let mut branches: Vec<String> = Vec::new();
    let mut fresh = 0;
    let mut ops = Vec::new();
    for step in 0..32 {
        let before = load(&dir);
        let ids = work_ids(&before);
        let id = rng.pick(&ids).clone();
        fresh += 1;
        let op = rng.below(10);
        let what = match op {
            0 => {
                dir.run(&["checkout", &id]).status(0);
                assert_eq!(
                    head_path(&load(&dir)),
                    path_to(&before, &id),
                    "checkout {id}"
                );
                format!("checkout {id}")
            }
            1 if !branches.is_empty() => {
                let name = rng.pick(&branches).clone();
                let tip = named_branches(&dir)[&name].clone();
                dir.run(&["checkout", &name]).status(0);
                assert_eq!(
                    head_path(&load(&dir)),
                    path_to(&before, &tip),
                    "checkout {name}"
                );
                format!("checkout {name} ({tip})")
            }
            2 | 1 => {
                let force = !tags.is_empty() && rng.below(3) == 0;
                let name = if force {
                    rng.pick(&tags).clone()
                } else {
                    format!("t{fresh}")
                };
                let on_head = rng.below(3) == 0;
                let mut args = vec!["tag"];
                if force {
                    args.push("--force");
                }
                args.push(&name);
                if !on_head {
                    args.push(&id);
                }
                dir.run(&args).status(0);
                let after = load(&dir);
                let target = if on_head {
                    head_path(&before)
                } else {
                    path_to(&before, &id)
                };
                assert_eq!(checkpoint_path(&after, &name), target, "{args:?}");
                assert_eq!(head_path(&after), head_path(&before), "{args:?}");
                let what = args.join(" ");
                if !force {
                    tags.push(name);
                }
                what
            }
            3 => {
                let name = format!("b{fresh}");
                dir.run(&["branch", &name, &id]).status(0);
                assert_eq!(head_path(&load(&dir)), head_path(&before));
                assert_eq!(named_branches(&dir).get(&name), Some(&id));
                branches.push(name.clone());
                format!("branch {name} {id}")
            }
            4 => {
                let name = format!("c{fresh}");
                dir.run(&["checkout", "-b", &name, &id]).status(0);
                assert_eq!(head_path(&load(&dir)), path_to(&before, &id));
                assert_eq!(named_branches(&dir).get(&name), Some(&id));
                branches.push(name.clone());
                format!("checkout -b {name} {id}")
            }
            5 if !branches.is_empty() => {
                let k = rng.below(branches.len());
                let names = named_branches(&dir);
                let old = branches[k].clone();
                let what = if rng.below(2) == 0 {
                    let new = format!("r{fresh}");
                    dir.run(&["branch", "-m", &old, &new]).status(0);
                    let after = named_branches(&dir);
                    assert_eq!(after.get(&new), names.get(&old), "renamed");
                    assert!(!after.contains_key(&old));
                    branches[k] = new.clone();
                    format!("branch -m {old} {new}")
                } else {
                    dir.run(&["branch", "-d", &old]).status(0);
                    assert!(!named_branches(&dir).contains_key(&old));
                    branches.remove(k);
                    format!("branch -d {old}")
                };
                let after = load(&dir);
                assert_eq!(head_path(&after), head_path(&before));
                assert_eq!(work(&after).len(), work(&before).len());
                what
            }
            5 | 6 => {
                let text = format!("ysess turn {step}");
                let below = rng.below(2) == 0;
                let mut args = vec!["append", "--user", &text];
                if below {
                    args.extend(["--parent", &id]);
                }
                let expected_id = next_yoagent_id(&dir);
                dir.run(&args).status(0).stdout(&format!("{expected_id}\n"));
                let after = load(&dir);
                let mut expected = if below {
                    path_to(&before, &id)
                } else {
                    head_path(&before)
                };
                expected.push(after.entry(&expected_id).unwrap().message.clone());
                assert_eq!(head_path(&after), expected, "{args:?}");
                args.join(" ")
            }
            _ => {
                // An app: load, maybe rewind, run a few turns, maybe
                // checkpoint, save whole.
                let mut session = before.clone();
                let seek = rng.below(3) == 0;
                if seek {
                    session.seek(&id).unwrap();
                }
                let mut expected = head_path(&session);
                for k in 0..1 + rng.below(3) {
                    let message = match rng.below(3) {
                        0 => user(&format!("agent user {step}.{k}")),
                        1 => assistant(&format!("agent reply {step}.{k}")),
                        _ => custom("idle"),
                    };
                    session.append(message.clone());
                    expected.extend(llm(vec![message]));
                }
                let label = rng.below(4) == 0;
                if label {
                    session.checkpoint(format!("cp{fresh}")).unwrap();
                    tags.push(format!("cp{fresh}"));
                }
                save(&dir, &session);
                assert_eq!(head_path(&load(&dir)), expected, "agent step {step}");
                format!("agent (seek {seek} to {id}, checkpoint {label})")
            }
        };
        ops.push(what);
        assert_sound(&dir, &format!("step {step}: {}", ops.join("; ")));
    }
    let kinds: HashSet<&str> = ops
        .iter()
        .map(|o| o.split(' ').next().unwrap_or(""))
        .collect();
    eprintln!("random mix: {} steps: {}", ops.len(), ops.join("; "));
    assert!(kinds.len() >= 5, "a mix: {ops:?}");
}

// ---------------------------------------------------------------------------
// Writing safely
// ---------------------------------------------------------------------------

/// Every kind of change, each valid against the demo session.
const WRITES: &[&[&str]] = &[
    &["checkout", "e5"],
    &["checkout", "-b", "lib", "e4"],
    &["tag", "new-label", "e3"],
    &["tag", "--force", "first-draft", "e3"],
    &["branch", "lib2", "e4"],
    &["append", "--user", "hi"],
    &["append", "--parent", "e4", "--user", "hi", "--label", "x"],
];

#[test]
fn a_torn_last_line_is_refused_by_every_writing_command() {
    let dir = demo();
    dir.run(&["branch", "existing", "e8"]).status(0);
    let text = String::from_utf8(bytes(&dir)).unwrap();
    let line = user_line("e99", Some("e15"), "cut in the middle");
    dir.write(FILE, format!("{text}{}", &line[..line.len() / 2]));
    let mut writes: Vec<&[&str]> = WRITES.to_vec();
    writes.push(&["branch", "-m", "existing", "renamed"]);
    writes.push(&["branch", "-d", "existing"]);
    for args in writes {
        let run = unchanged(&dir, args, 128);
        assert!(run.stderr.starts_with("error: "), "{run}");
        assert!(run.stderr.contains("torn"), "{run}");
        assert!(run.stderr.contains("fsck --repair"), "{run}");
    }
    // Repaired, the same commands work again.
    dir.run(&["fsck", "--repair"]).status(0);
    dir.run(&["append", "--user", "after repair"])
        .status(0)
        .stdout("e18\n");
    assert_sound(&dir, "after repair");
}

#[test]
fn a_file_without_a_final_newline_gets_one_and_keeps_every_old_byte() {
    for args in WRITES {
        let dir = Dir::new();
        let mut session = Session::new();
        session.append(user("plan"));
        session.checkpoint("first-draft").unwrap();
        session.append(assistant("ok"));
        session.append(user("step"));
        session.append(assistant("done"));
        session.append(user("more"));
        session.seek("e4").unwrap();
        session.append(user("fork"));
        // WRITES name e3, e4 and e5: they are here too.
        save(&dir, &session);
        let old = bytes(&dir);
        assert_ne!(old.last(), Some(&b'\n'), "yoagent writes no final newline");
        let digest = dir.run(&["fsck", "--digest"]);
        digest.status(0);
        let digest = digest.stdout.trim().to_string();

        dir.run(args).status(0);
        let new = bytes(&dir);
        assert!(new.starts_with(&old), "old bytes kept: {args:?}");
        assert_eq!(new[old.len()], b'\n', "a newline first: {args:?}");
        assert_ne!(new[old.len() + 1], b'\n', "only one: {args:?}");
        assert_eq!(new.last(), Some(&b'\n'), "ysess ends its lines: {args:?}");
        dir.run(&["fsck", "--since", &digest]).status(0).stderr("");
        assert_sound(&dir, &format!("{args:?}"));

        // A second write starts with its own newline too, whatever the
        // file ends with: a blank line, which yoagent and fsck skip.
        let old = bytes(&dir);
        dir.run(&["tag", "second", "e1"]).status(0);
        let new = bytes(&dir);
        assert!(new.starts_with(&old));
        assert_eq!(new[old.len()], b'\n', "a newline first: {args:?}");
        assert_ne!(new[old.len() + 1], b'\n', "only one: {args:?}");
        assert_sound(&dir, &format!("second write after {args:?}"));
    }
}

#[test]
fn a_file_with_crlf_line_ends_keeps_them_and_loads_after_an_append() {
    let dir = Dir::new();
    let old = format!(
        "{}\r\n{}\r\n",
        user_line("e1", None, "a"),
        user_line("e2", Some("e1"), "b")
    );
    dir.write(FILE, &old);
    dir.run(&["tag", "x", "e1"]).status(0);
    dir.run(&["append", "--user", "c"]).status(0).stdout("e5\n");
    let new = bytes(&dir);
    assert!(new.starts_with(old.as_bytes()));
    assert_eq!(
        new[old.len()],
        b'\n',
        "each batch starts with its own newline"
    );
    assert_ne!(new[old.len() + 1], b'\r', "no stray CR");
    assert_sound(&dir, "CRLF");
}

#[test]
fn the_file_mode_is_kept() {
    let dir = demo();
    let path = dir.join(FILE);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
    let inode = std::fs::metadata(&path).unwrap().ino();
    for args in WRITES.iter().chain([&["branch", "-d", "lib"][..]].iter()) {
        dir.run(args).status(0);
        let meta = std::fs::metadata(&path).unwrap();
        assert_eq!(meta.permissions().mode() & 0o7777, 0o640, "{args:?}");
        assert_eq!(
            meta.ino(),
            inode,
            "written in place, not replaced: {args:?}"
        );
    }
    assert_sound(&dir, "mode");
}

#[test]
fn a_symlinked_session_is_written_through_the_link() {
    let dir = demo();
    std::fs::create_dir(dir.join("real")).unwrap();
    std::fs::rename(dir.join(FILE), dir.join("real/s.jsonl")).unwrap();
    std::os::unix::fs::symlink("real/s.jsonl", dir.join(FILE)).unwrap();
    for args in WRITES {
        let before = std::fs::read(dir.join("real/s.jsonl")).unwrap();
        dir.run(args).status(0);
        let link = std::fs::symlink_metadata(dir.join(FILE)).unwrap();
        assert!(link.file_type().is_symlink(), "still a link: {args:?}");
        let after = std::fs::read(dir.join("real/s.jsonl")).unwrap();
        assert!(
            after.len() > before.len() && after.starts_with(&before),
            "{args:?}"
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no stray files"
    );
    assert_sound(&dir, "symlink");
}

#[test]
fn standard_input_and_a_missing_file_cannot_be_changed() {
    let dir = demo();
    let text = bytes(&dir);
    for args in WRITES {
        let mut with = vec!["-f", "-"];
        with.extend(*args);
        let run = dir.run_stdin(&with, b"");
        assert_ne!(run.status, Some(0), "{run}");
        assert!(run.stderr.starts_with("error: "), "{run}");

        let mut with = vec!["-f", "missing.jsonl"];
        with.extend(*args);
        let run = dir.run(&with);
        run.status(128);
        assert!(!dir.join("missing.jsonl").exists(), "{run}");
    }
    assert_eq!(bytes(&dir), text);
}

#[test]
fn a_file_yoagent_would_refuse_is_not_written() {
    let good = std::fs::read(crate::support::fixture("demo.jsonl")).unwrap();
    let mut not_utf8 = good.clone();
    let at = not_utf8
        .windows(4)
        .position(|w| w == b"Plan")
        .expect("demo has a plan");
    not_utf8[at] = 0xff;
    let mut bom = b"\xef\xbb\xbf".to_vec();
    bom.extend(&good);
    let mut binary: Vec<u8> = (0..=255u8).cycle().take(3000).collect();
    binary.push(b'\n');
    let duplicate = [
        user_line("e1", None, "a"),
        user_line("e2", Some("e1"), "b"),
        user_line("e2", Some("e1"), "c"),
    ]
    .join("\n");
    let mut bad_middle = good.clone();
    bad_middle.extend(b"\n{\"id\":\"e16\"}\n");
    bad_middle.extend(user_line("e17", Some("e15"), "after").as_bytes());
    let mut latin1_last = good.clone();
    latin1_last.push(b'\n');
    let line = user_line("e16", Some("e15"), "caf@");
    let at = latin1_last.len() + line.find('@').unwrap();
    latin1_last.extend(line.as_bytes());
    latin1_last[at] = 0xe9;
    for (what, file) in [
        ("not UTF-8", not_utf8),
        ("a byte-order mark", bom),
        ("binary", binary),
        ("a duplicate id", duplicate.into_bytes()),
        ("a broken line mid-file", bad_middle),
        ("a Latin-1 last line", latin1_last),
    ] {
        let dir = Dir::new();
        dir.write(FILE, &file);
        for args in WRITES {
            let run = unchanged(&dir, args, 128);
            assert!(run.stderr.starts_with("error: "), "{what}\n{run}");
        }
        for args in [&["branch", "-d", "x"][..], &["branch", "-m", "x", "y"]] {
            let run = dir.run(args);
            assert!(matches!(run.status, Some(2 | 128)), "{what}\n{run}");
            assert_eq!(bytes(&dir), file, "{what}\n{run}");
        }
    }
}

#[test]

fn ids_at_the_end_of_u64_never_make_a_duplicate() {
    let dir = Dir::new();
    dir.write(FILE, user_line("e18446744073709551615", None, "last id"));
    for args in [
        &["append", "--user", "x"][..],
        &["tag", "t"],
        &["branch", "b"],
    ] {
        let before = bytes(&dir);
        let run = dir.run(args);
        if run.status != Some(0) {
            assert_eq!(bytes(&dir), before, "a refusal writes nothing\n{run}");
        }
        assert_sound(&dir, &format!("{args:?}\n{run}"));
    }
}

// ---------------------------------------------------------------------------
// Many writers at once
// ---------------------------------------------------------------------------

#[test]
fn concurrent_ysess_processes_lose_no_record() {
    const EACH: usize = 16;
    let dir = demo();
    let before = load(&dir);
    let before_lines = before.entries().len();
    let runs: Vec<Vec<String>> = (0..EACH)
        .flat_map(|k| {
            [
                vec!["append".to_string(), "--user".into(), format!("c{k}")],
                vec!["tag".to_string(), format!("t{k}")],
            ]
        })
        .collect();
    let ran = crate::support::queued_behind_lock(&dir, &dir.join(FILE), &runs);

    let mut printed = Vec::new();
    for (args, out) in ran {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if args.starts_with("append") {
            let id = String::from_utf8(out.stdout).unwrap().trim().to_string();
            printed.push((args, id));
        }
    }
    assert_sound(&dir, "after the concurrent run");
    let after = load(&dir);

    let ids: Vec<&str> = after.entries().iter().map(|e| e.id.as_str()).collect();
    let unique: HashSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "ids are unique");
    for (args, id) in &printed {
        let entry = after
            .entry(id)
            .unwrap_or_else(|| panic!("{args} printed {id}, which is in the file"));
        let text = args.trim_start_matches("append --user ");
        assert_eq!(
            entry.message,
            {
                let AgentMessage::Llm(Message::User { timestamp, .. }) = &entry.message else {
                    panic!("{id} is a user message");
                };
                AgentMessage::Llm(Message::User {
                    content: vec![Content::Text { text: text.into() }],
                    timestamp: *timestamp,
                })
            },
            "{args}"
        );
    }
    let appended: Vec<&SessionEntry> = work(&after)[work(&before).len()..].to_vec();
    let tags = records(&after, "ysess.tag");
    let checkouts = records(&after, "ysess.checkout");
    for k in 0..EACH {
        let text = format!("c{k}");
        let found = appended
            .iter()
            .filter(|e| json_of(&e.message).contains(&format!("\"{text}\"")))
            .count();
        assert_eq!(found, 1, "user turn {text}");
        let name = format!("t{k}");
        assert_eq!(
            tags.iter()
                .filter(|e| e.label.as_deref() == Some(&name))
                .count(),
            1,
            "tag {name}"
        );
    }
    let written = printed.len() + EACH;
    let found = appended.len() + tags.len();
    eprintln!(
        "concurrency: {} processes, {written} records written ({EACH} entries + {EACH} tags), \
         {found} found ({} entries + {} tags), plus {} checkout records; {} lines before, {} after",
        2 * EACH,
        appended.len(),
        tags.len(),
        checkouts.len(),
        before_lines,
        after.entries().len()
    );
    assert_eq!(appended.len(), EACH);
    assert_eq!(tags.len(), EACH);
    assert_eq!(
        after.entries().len(),
        before_lines + EACH + EACH + checkouts.len(),
        "nothing else was written"
    );
    assert_eq!(
        head_path(&after).len(),
        head_path(&before).len() + EACH,
        "every turn on one path"
    );
}

/// `ysess append`s racing an app that saves the file whole (see `race.rs`;
/// `cargo bench --bench race` runs 1,000 of each).
fn race_an_app_saving_with(saver: crate::race::Saver) {
    let dir = Dir::new();
    let counts = crate::race::race(
        std::path::Path::new(env!("CARGO_BIN_EXE_ysess")),
        &crate::support::fixture("demo.jsonl"),
        dir.path(),
        saver,
        40,
        2,
    );
    eprintln!("{}", counts.line(saver));
    assert_eq!(counts.appends, 40);
    assert!(counts.sound(), "{}\n{counts:#?}", counts.line(saver));
    dir.run(&["fsck"]).status(0);
}

#[test]
fn appends_racing_an_app_that_saves_without_a_final_newline_are_never_glued_to_its_last_line() {
    // yoagent's save: truncate, then write, no newline after the last line.
    // A save between ysess's check and its write used to get ysess's line
    // glued to the app's last one (counted as broken and glued lines).
    race_an_app_saving_with(crate::race::Saver::Write);
}

#[test]
fn appends_racing_an_app_resaving_without_a_final_newline_in_a_loop_are_never_glued() {
    race_an_app_saving_with(crate::race::Saver::Resave);
}

#[test]
fn appends_racing_an_app_that_writes_back_what_it_read_without_a_final_newline_were_glued() {
    // The app empties the file, writes it back, empties it again: ysess
    // saw an empty file before and after its read, a whole session in it,
    // and planned a batch with no newline of its own before it.
    race_an_app_saving_with(crate::race::Saver::Copy);
}

#[test]
fn appends_racing_an_app_that_renames_a_new_file_into_place_are_never_lost_silently() {
    race_an_app_saving_with(crate::race::Saver::Rename);
}

#[test]
fn append_killed_at_any_moment_never_leaves_a_torn_line() {
    // Killed at each step of an append by construction, not by timing: the
    // debug build `cargo test` makes stops where YSESS_DEBUG_PAUSE says
    // (src/write/mod.rs) and is killed there. The write itself is one
    // write(2) of a batch smaller than a page: whole or not at all
    // (docs/writing-safely.md says what holds for larger ones).
    let dir = demo();
    let exe = env!("CARGO_BIN_EXE_ysess");
    for round in 0..3 {
        for point in ["planned", "written", "checking"] {
            let text = format!("kill-{round}-{point}");
            let mut child = Command::new(exe)
                .args(["append", "--user", &text])
                .current_dir(dir.path())
                .env_remove("YSESS_FILE")
                .env("YSESS_DEBUG_PAUSE", point)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .expect("ysess starts");
            let mut said = String::new();
            std::io::BufRead::read_line(
                &mut std::io::BufReader::new(child.stderr.take().expect("piped")),
                &mut said,
            )
            .expect("stderr reads");
            assert_eq!(
                said,
                format!("ysess: paused at {point}\n"),
                "a debug build stops at {point} (cargo test builds one)"
            );
            child.kill().expect("SIGKILL");
            let status = child.wait().expect("reaped");
            assert_eq!(status.code(), None, "killed at {point}, not ended");
            assert_sound(&dir, &format!("after a kill at {point}"));
            let after = String::from_utf8(bytes(&dir)).expect("UTF-8");
            assert_eq!(
                after.contains(&text),
                point != "planned",
                "killed at {point}: the line is whole there, or not at all"
            );
        }
    }
    // Nothing is left locked: the next append goes through.
    dir.run(&["append", "--user", "after the kills"]).status(0);
    assert_sound(&dir, "after the kills");
}

// ---------------------------------------------------------------------------
// What ysess writes, after an agent saves the whole file again
// ---------------------------------------------------------------------------

/// `fsck --digest` now, an agent's load-append-save, then `fsck --since`.
fn digest_then_agent_save(dir: &Dir) -> Run {
    let digest = dir.run(&["fsck", "--digest"]);
    digest.status(0);
    let mut session = load(dir);
    session.append(user("the agent goes on"));
    save(dir, &session);
    dir.run(&["fsck", "--since", digest.stdout.trim()])
}

#[test]
fn ysess_records_survive_an_agent_save_byte_for_byte() {
    let dir = demo();
    for args in [
        &["checkout", "-b", "lib", "e4"][..],
        &["tag", "x", "e3"],
        &["tag", "y"],
        &["branch", "b", "e8"],
        &["branch", "-m", "b", "c"],
        &["branch", "-d", "c"],
        &["checkout", "e15"],
    ] {
        dir.run(args).status(0);
        digest_then_agent_save(&dir).status(0).stderr("");
    }
}

#[test]

fn appended_entries_survive_an_agent_save_byte_for_byte() {
    let dir = demo();
    dir.run(&["append", "--user", "hi"]).status(0);
    digest_then_agent_save(&dir).status(0).stderr("");
    dir.run_stdin(&["append"], json_of(&user("from stdin")).as_bytes())
        .status(0);
    digest_then_agent_save(&dir).status(0).stderr("");
}

#[test]
fn messages_given_in_any_shape_are_written_as_yoagent_writes_them() {
    let dir = demo();
    // Keys out of order, a snake_case alias, an unknown field, unsorted
    // tool arguments: yoagent would rewrite all of that when it saves.
    let given = r#"{"timestamp":7,"usage":{"output":2,"input":1,"cache_read":3},"provider":"p","model":"m","stopReason":"toolUse","x_extra":true,"role":"assistant","content":[{"arguments":{"b":1,"a":{"d":1,"c":2}},"name":"bash","id":"c9","type":"toolCall"}]}"#;
    dir.run_stdin(&["append"], given.as_bytes()).status(0);
    digest_then_agent_save(&dir).status(0).stderr("");
    let custom = r#"{"data":{"z":1,"a":2},"kind":"note","role":"extension","extra":1}"#;
    dir.run_stdin(&["append"], custom.as_bytes()).status(0);
    digest_then_agent_save(&dir).status(0).stderr("");
}

#[test]
fn branch_force_on_an_existing_name_says_reset_not_created() {
    let dir = demo();
    dir.run(&["branch", "lib", "e4"])
        .status(0)
        .stderr("Created branch 'lib' at e4 (first-draft) assistant claude-sonnet-5: Plan:\n");
    let run = dir.run(&["branch", "--force", "lib", "e6"]);
    run.status(0).stdout("");
    assert!(run.stderr.starts_with("Reset branch 'lib' to e6 "), "{run}");
}

#[test]
fn tag_force_says_where_the_label_was() {
    let dir = demo();
    let run = dir.run(&["tag", "--force", "first-draft", "e6"]);
    run.status(0).stdout("");
    assert!(
        run.stderr
            .starts_with("Moved label 'first-draft' from e4 to e6 "),
        "{run}"
    );
    // Moved again, it was last at e6 (where its newest carrier hangs).
    let run = dir.run(&["tag", "--force", "first-draft", "e2"]);
    assert!(
        run.stderr
            .starts_with("Moved label 'first-draft' from e6 to e2 "),
        "{run}"
    );
    // Set again where it is, it is not said to move, and nothing is
    // written.
    let before = dir.read("session.jsonl");
    let run = dir.run(&["tag", "--force", "first-draft", "e2"]);
    assert!(
        run.stderr
            .starts_with("Label 'first-draft' already names e2 "),
        "{run}"
    );
    assert_eq!(dir.read("session.jsonl"), before);
    // A new label is still just labelled.
    let run = dir.run(&["tag", "fresh", "e3"]);
    assert!(run.stderr.starts_with("Labelled e3 "), "{run}");
}

// ---------------------------------------------------------------------------
// Each batch starts with its own newline: the blank line it may leave
// ---------------------------------------------------------------------------

#[test]
fn a_line_ysess_appends_is_never_glued_to_an_app_line_and_the_blank_line_loads_everywhere() {
    // yoagent: a file that ends with a newline gets a blank line before
    // ysess's next batch; yoagent and fsck skip it.
    let dir = demo();
    dir.run(&["tag", "one", "e1"]).status(0);
    dir.run(&["tag", "two", "e2"]).status(0);
    let text = String::from_utf8(bytes(&dir)).expect("UTF-8");
    assert!(text.contains("}\n\n{"), "a blank line between batches");
    assert_sound(&dir, "blank line between batches");

    // pi: the same, and pi reads every label and appends after them.
    let Some((dir, before)) = crate::pi::pi_session(4) else {
        return;
    };
    let path = dir.join("4.jsonl");
    let file = path.to_str().expect("UTF-8 path");
    let target = before.entries[1].id.clone();
    dir.run(&["-f", file, "tag", "one", &target]).status(0);
    dir.run(&["-f", file, "tag", "two", &target]).status(0);
    let text = std::fs::read_to_string(&path).expect("pi file");
    assert!(text.contains("}\n\n{"), "a blank line between batches");
    let after = crate::pi::pi_inspect(&path);
    assert_eq!(after.labels.get(&target).map(String::as_str), Some("two"));
    assert_eq!(after.entries.len(), before.entries.len() + 2);
    crate::pi::node_harness(&["append", file, "carry on"]).expect("the harness ran");
    assert_eq!(
        crate::pi::pi_inspect(&path).entries.len(),
        before.entries.len() + 4
    );
    dir.run(&["-f", file, "fsck"]).status(0).stderr("");
    // The first line stays pi's header: pi looks there for its sessions.
    assert!(text.starts_with("{\"type\":\"session\""), "{text}");
}
