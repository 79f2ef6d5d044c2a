//! `ysess status`: where HEAD is, and how the file stands.

use serde::Deserialize;

use crate::pi::{PiSession, pi_sessions};
use crate::support::{Dir, Run, demo, fixture};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Status {
    file: String,
    format: String,
    head: Option<Head>,
    branch: Option<String>,
    detached: bool,
    label: Option<Label>,
    entries: usize,
    tips: usize,
    torn: Option<Torn>,
    since: Option<Since>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Head {
    id: String,
    role: String,
    tag: String,
    subject: String,
    depth: u32,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Label {
    name: String,
    id: String,
    behind: u32,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Torn {
    offset: u64,
    bytes: u64,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Since {
    digest: String,
    state: String,
    appended: u64,
}

fn status(run: &Run) -> Status {
    run.status(0);
    let mut lines = run.json_lines();
    assert_eq!(lines.len(), 1, "one object\n{run}");
    serde_json::from_value(lines.remove(0)).unwrap_or_else(|e| panic!("{e}\n{run}"))
}

fn digest(dir: &Dir) -> String {
    let run = dir.run(&["fsck", "--digest"]);
    run.status(0);
    run.stdout.trim().to_string()
}

#[test]
fn status_says_where_head_is_on_the_demo_session() {
    demo()
        .run(&["status"])
        .status(0)
        .stdout(
            "File:     session.jsonl (yoagent)\n\
             HEAD:     e15 assistant claude-sonnet-5, depth 8: clap, serde_json and sha2.\n\
             Branch:   none: HEAD is on an unnamed tip\n\
             Label:    library on e8, 2 entries behind HEAD\n\
             Entries:  15, 3 tips\n\
             Torn:     no\n",
        )
        .stderr("");
}

#[test]
fn status_on_a_branch_and_detached() {
    let dir = Dir::new();
    dir.fixture("moves.jsonl", "session.jsonl");
    dir.run(&["status"]).status(0).stdout(
        "File:     session.jsonl (yoagent)\n\
         HEAD:     e18 user, depth 7: Now add --since, to check that a file only grew.\n\
         Branch:   lib\n\
         Label:    first-draft on e4, 3 entries behind HEAD\n\
         Entries:  16, 3 tips\n\
         Torn:     no\n",
    );
    dir.run(&["checkout", "e4"]).status(0);
    let s = status(&dir.run(&["status", "--json"]));
    assert_eq!(s.branch, None);
    assert!(s.detached);
    assert_eq!(
        s.label,
        Some(Label {
            name: "first-draft".into(),
            id: "e4".into(),
            behind: 0
        })
    );
    dir.run(&["status"]).status(0).stdout(
        "File:     session.jsonl (yoagent)\n\
             HEAD:     e4 assistant claude-sonnet-5, depth 4: Plan:\n\
             Branch:   none: HEAD is detached, inside the tree (new work forks there)\n\
             Label:    first-draft on HEAD\n\
             Entries:  16, 3 tips\n\
             Torn:     no\n",
    );
}

#[test]
fn status_json_is_one_object() {
    let dir = demo();
    let s = status(&dir.run(&["status", "--json"]));
    assert_eq!(s.file, "session.jsonl");
    assert_eq!(s.format, "yoagent");
    let head = s.head.expect("a head");
    assert_eq!(
        (
            head.id.as_str(),
            head.role.as_str(),
            head.tag.as_str(),
            head.depth
        ),
        ("e15", "assistant", "claude-sonnet-5", 8)
    );
    assert_eq!(head.subject, "clap, serde_json and sha2.");
    assert_eq!(s.branch, None);
    assert!(!s.detached);
    assert_eq!(s.entries, 15);
    assert_eq!(s.tips, 3);
    assert_eq!(s.torn, None);
    assert_eq!(s.since, None);
}

#[test]
fn a_torn_last_line_is_reported_not_refused() {
    let dir = demo();
    let mut bytes = dir.read("session.jsonl");
    if !bytes.ends_with(b"\n") {
        bytes.push(b'\n');
    }
    let sound = bytes.len() as u64;
    bytes.extend_from_slice(br#"{"id":"e16","parent_id":"e1"#);
    dir.write("session.jsonl", &bytes);
    let s = status(&dir.run(&["status", "--json"]));
    assert_eq!(
        s.torn,
        Some(Torn {
            offset: sound,
            bytes: 27
        })
    );
    assert_eq!(s.head.expect("a head").id, "e15");
    let run = dir.run(&["status"]);
    run.status(0);
    assert!(
        run.stdout.contains(&format!(
            "Torn:     yes: 27 bytes after byte {sound}, from an interrupted write; `ysess fsck --repair` cuts them\n"
        )),
        "{run}"
    );
}

#[test]
fn the_file_against_a_digest_unchanged_appended_rewritten() {
    let dir = demo();
    let before = digest(&dir);
    let len = dir.read("session.jsonl").len() as u64;
    let s = status(&dir.run(&["status", "--json", "--digest", &before]));
    assert_eq!(
        s.since,
        Some(Since {
            digest: before.clone(),
            state: "unchanged".into(),
            appended: 0
        })
    );
    dir.run(&["status", "--digest", &before]).status(0).stdout(
        "File:     session.jsonl (yoagent)\n\
             HEAD:     e15 assistant claude-sonnet-5, depth 8: clap, serde_json and sha2.\n\
             Branch:   none: HEAD is on an unnamed tip\n\
             Label:    library on e8, 2 entries behind HEAD\n\
             Entries:  15, 3 tips\n\
             Torn:     no\n\
             Digest:   unchanged since the digest\n",
    );
    dir.run(&["checkout", "e4"]).status(0);
    let grown = dir.read("session.jsonl").len() as u64 - len;
    // From a file, as `fsck --digest > base.digest` leaves it.
    dir.write("base.digest", format!("{before}\n"));
    let s = status(&dir.run(&["status", "--json", "--digest", "base.digest"]));
    assert_eq!(s.since.expect("a digest").appended, grown);
    // From the environment.
    let run = dir.run_with(&["status", "--json"], None, &[("YSESS_DIGEST", &before)]);
    let since = status(&run).since.expect("a digest");
    assert_eq!((since.state.as_str(), since.appended), ("appended", grown));
    // An earlier byte changed.
    let text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
    dir.write(
        "session.jsonl",
        text.replacen("Draft a plan", "Draft a PLAN", 1),
    );
    let s = status(&dir.run(&["status", "--json", "--digest", &before]));
    assert_eq!(s.since.expect("a digest").state, "rewritten");
}

#[test]
fn a_bad_digest_is_named() {
    let dir = demo();
    dir.run(&["status", "--digest", "sha256:abc:3"])
        .status(2)
        .stderr("error: --digest `sha256:abc:3` is not a digest of the form sha256:<64 hex digits>:<bytes>\n");
    dir.run(&["status", "--digest", "no-such.digest"])
        .status(128);
}

#[test]
fn status_reads_pi_and_claude_code_files() {
    let dir = Dir::new();
    for (name, format) in [("pi/demo.jsonl", "pi"), ("claude/session.jsonl", "claude")] {
        let path = fixture(name);
        let file = path.to_str().expect("UTF-8 path");
        let s = status(&dir.run(&["-f", file, "status", "--json"]));
        assert_eq!(s.format, format);
        let head = dir.run(&["-f", file, "log", "-1", "--format", "{id} {depth}"]);
        head.status(0);
        let h = s.head.expect("a head");
        assert_eq!(head.stdout, format!("{} {}\n", h.id, h.depth), "{name}");
        let all = dir.run(&["-f", file, "log", "--all", "--format", "{id}"]);
        assert_eq!(all.stdout.lines().count(), s.entries, "{name}");
    }
}

#[test]
fn status_on_pi_sessions_has_pis_leaf_as_head_and_pis_tips() {
    let Some((dir, sessions)) = pi_sessions(1..=5) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let file = path.to_str().expect("UTF-8 path");
        let s = status(&dir.run(&["-f", file, "status", "--json"]));
        assert_eq!(s.format, "pi");
        let leaf = pi
            .branch
            .iter()
            .zip(&pi.branch_types)
            .rev()
            .find(|(_, kind)| *kind != "label")
            .map(|(id, _)| id.clone());
        assert_eq!(s.head.map(|h| h.id), leaf, "seed {seed}");
        let messages = pi.entries.iter().filter(|e| e.kind != "label").count();
        assert_eq!(s.entries, messages, "seed {seed}");
        assert!(s.torn.is_none());
        let branch = dir.run(&["-f", file, "branch"]);
        branch.status(0);
        assert_eq!(s.tips, branch.stdout.lines().count(), "seed {seed}");
    }
}

#[test]
fn status_transcript_on_a_pi_session() {
    let dir = Dir::new();
    dir.fixture("pi/demo.jsonl", "session.jsonl");
    dir.run(&["status"])
        .status(0)
        .stdout(
            "File:     session.jsonl (pi)\n\
             HEAD:     38dfc291 assistant claude-sonnet-4-5, depth 8: 日本語 label tests again tree and every 日本語\n\
             Branch:   none: HEAD is on an unnamed tip\n\
             Label:    review on ca88697f, 3 entries behind HEAD\n\
             Entries:  21, 3 tips\n\
             Torn:     no\n",
        )
        .stderr("");
    dir.run(&["checkout", "-b", "side", "review"]).status(0);
    let s = status(&dir.run(&["status", "--json"]));
    assert_eq!(s.branch.as_deref(), Some("side"));
    assert_eq!(s.head.expect("a head").id, "ca88697f");
}
