//! One view of the tree: ysess's own records (written by `checkout`, `tag`,
//! `branch`) are folded out of every answer a person sees. Each test is
//! named after what a user saw go wrong on a copy of the README's demo.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::sessgen as sg;
use crate::support::{Dir, demo, user_line};

/// `branch --json`, keyed by what a person reads: name (or tip) → object.
fn branch_json(dir: &Dir) -> Vec<Value> {
    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    run.json_lines()
}

#[test]
fn branch_after_checkout_mid_tree_says_head_is_detached_and_marks_nothing_else_current() {
    let dir = demo();
    dir.run(&["checkout", "e8"]).status(0);
    dir.run(&["branch"])
        .status(0)
        .stdout("* (HEAD detached at e8)\n  e15\n  e13\n  e6\n");
    let json = branch_json(&dir);
    let current: Vec<&Value> = json.iter().filter(|b| b["current"] == true).collect();
    assert_eq!(current.len(), 1, "{json:?}");
    assert_eq!(current[0]["tip"], "e8");
    assert_eq!(current[0]["detached"], true);
    assert!(
        json.iter()
            .all(|b| b["tip"] != "e15" || b["current"] == false)
    );
    // Back on a tip, HEAD is on that branch again.
    dir.run(&["checkout", "e15"]).status(0);
    dir.run(&["branch"])
        .status(0)
        .stdout("* e15\n  e13\n  e6\n");
}

/// `branch -v` with runs of spaces squeezed, one line per branch.
fn branch_v(dir: &Dir) -> Vec<String> {
    let run = dir.run(&["branch", "-v"]);
    run.status(0);
    run.stdout
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn naming_a_branch_keeps_its_fork_point_and_length() {
    let dir = demo();
    let has = |lines: &[String], want: &str| {
        assert!(
            lines.iter().any(|l| l.starts_with(want)),
            "{want:?} in {lines:#?}"
        );
    };
    has(&branch_v(&dir), "e13 forked at e8 5 entries");
    dir.run(&["branch", "ab", "e13"]).status(0);
    has(&branch_v(&dir), "ab e13 forked at e8 5 entries");
    // A branch named where there is no work yet is as long as its path
    // above it, with no fork: not `forked at e4  0 entries`.
    dir.run(&["checkout", "-b", "lib", "first-draft"]).status(0);
    let lines = branch_v(&dir);
    has(&lines, "* lib e4 no fork 4 entries");
    has(&lines, "ab e13 forked at e8 5 entries");
    // Deleting a name changes no other branch.
    dir.run(&["branch", "-d", "ab"]).status(0);
    let lines = branch_v(&dir);
    has(&lines, "e13 forked at e8 5 entries");
    has(&lines, "* lib e4 no fork 4 entries");
}

#[test]
fn after_checkout_and_append_parents_depths_children_and_fork_points_skip_records() {
    let dir = demo();
    dir.run(&["checkout", "e8"]).status(0);
    dir.run(&["append", "--user", "retry"])
        .status(0)
        .stdout("e17\n");
    let show = dir.run(&["show", "@"]);
    assert!(show.stdout.contains("Parent:   e8\n"), "{show}");
    let parent = dir.run(&["show", "@^"]);
    assert!(parent.stdout.starts_with("entry e8 "), "{parent}");
    let diff = dir.run(&["diff", "--json", "@^", "@"]);
    diff.status(0);
    assert_eq!(diff.json_lines()[0]["fork_point"]["id"], "e8", "{diff}");
    dir.run(&["log", "-n", "3", "--format", "{id} {parent} {depth}"])
        .status(0)
        .stdout("e17 e8 7\ne8 e7 6\ne7 e4 5\n");
    let e4 = dir.run(&["show", "e4"]);
    assert!(e4.stdout.contains("Children: e5, e7\n"), "{e4}");
}

#[test]
fn fsck_verbose_after_checkout_names_the_head_and_tips_that_log_and_branch_show() {
    let dir = demo();
    dir.run(&["checkout", "e8"]).status(0);
    dir.run(&["fsck", "-v"]).status(0).stdout(
        "session.jsonl: ok; yoagent session, 15 entries (and 1 ysess record), 1 root, 3 branch tips, 2 labels, HEAD e8 at depth 6\n",
    );
    let json = dir.run(&["fsck", "--json"]);
    let summary = &json.json_lines()[0];
    assert_eq!(summary["head"], "e8");
    assert_eq!(summary["tips"], 3);
    assert_eq!(summary["records"], 1);
    let log = dir.run(&["log", "-n", "1", "--format", "{id}"]);
    log.stdout("e8\n");
}

#[test]
fn tag_or_branch_on_an_early_entry_keeps_fsck_strict_clean() {
    for write in [["tag", "t1", "e2"], ["branch", "b1", "e11"]] {
        let dir = demo();
        dir.run(&["fsck", "--strict"]).status(0);
        dir.run(&write).status(0);
        dir.run(&["fsck", "--strict"]).status(0).stderr("");
    }
}

#[test]
fn log_n_decorates_with_branch_names_as_log_does() {
    let dir = demo();
    dir.run(&["checkout", "e7"]).status(0);
    dir.run(&["branch", "mid"]).status(0);
    let whole = dir.run(&["log", "--oneline"]);
    let first3: String = whole
        .stdout
        .lines()
        .take(3)
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(first3.starts_with("e7 (HEAD, mid) "), "{whole}");
    dir.run(&["log", "-n", "3", "--oneline"])
        .status(0)
        .stdout(&first3);
}

#[test]
fn revisions_refuse_to_name_ysess_records() {
    let dir = demo();
    dir.run(&["checkout", "e8"]).status(0); // e16, a checkout record
    for args in [
        &["checkout", "e16"][..],
        &["tag", "onrec", "e16"],
        &["branch", "brec", "e16"],
        &["show", "e16~1"],
        &["log", "e16"],
    ] {
        let run = dir.run(args);
        assert_ne!(run.status, Some(0), "{run}");
        assert!(
            run.stderr
                .contains("e16 is one of ysess's own records, not an entry of the conversation"),
            "{run}"
        );
        assert!(run.stderr.contains("hint: it hangs from e8"), "{run}");
    }
    // Nor does a prefix pick one.
    let run = dir.run(&["show", "e16"]);
    assert_ne!(run.status, Some(0), "{run}");
}

#[test]
fn append_refuses_a_hand_written_ysess_record() {
    let dir = demo();
    let before = dir.read("session.jsonl");
    let forged = br#"{"role":"extension","kind":"ysess.checkout","data":{"target":"e2"}}"#;
    let run = dir.run_stdin(&["append"], forged);
    run.status(128);
    assert!(
        run.stderr
            .contains("custom kind `ysess.checkout` is reserved for ysess's own records"),
        "{run}"
    );
    assert_eq!(dir.read("session.jsonl"), before, "nothing was written");
}

#[test]
fn fsck_flags_a_forged_checkout_record() {
    let dir = demo();
    let mut text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
    // Hangs from e15 but claims to resume at e2.
    text.push_str(
        "\n{\"id\":\"e16\",\"parent_id\":\"e15\",\"message\":{\"role\":\"extension\",\"kind\":\"ysess.checkout\",\"data\":{\"target\":\"e2\"}},\"timestamp\":1764666300000}",
    );
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck"]);
    run.status(0);
    assert!(
        run.stderr.contains(
            "invalidRecord: record ysess.checkout: its target e2 is not the entry it hangs from (e15)"
        ),
        "{run}"
    );
    dir.run(&["fsck", "--strict"]).status(1);
}

#[test]
fn export_session_keeps_labels_set_by_tag() {
    let dir = demo();
    dir.run(&["checkout", "-b", "lib", "first-draft"]).status(0);
    dir.run(&["append", "--user", "a library, then"]).status(0);
    dir.run(&["tag", "plan-v1"]).status(0);
    dir.run(&["tag", "also", "e3"]).status(0);
    let run = dir.run(&["export", "--session", "lib"]);
    run.status(0);
    let exported = yoagent::Session::from_jsonl(&run.stdout).expect("yoagent loads the export");
    for (label, at) in [("plan-v1", "e17"), ("first-draft", "e4"), ("also", "e3")] {
        let mut s = exported.clone();
        s.seek_checkpoint(label)
            .unwrap_or_else(|e| panic!("{label}: {e:?}\n{run}"));
        assert_eq!(s.head(), Some(at), "{label}\n{run}");
    }
    // The export resumes where the branch does.
    let ids: Vec<String> = exported.path_ids();
    assert_eq!(ids, ["e1", "e2", "e3", "e4", "e17"], "{run}");
}

#[test]
fn export_session_carries_a_second_label_on_one_entry_as_ysess_does() {
    let dir = demo();
    dir.run(&["tag", "second", "first-draft"]).status(0);
    let run = dir.run(&["export", "--session", "e6"]);
    run.status(0);
    let exported = yoagent::Session::from_jsonl(&run.stdout).expect("yoagent loads the export");
    let out = Dir::new();
    out.write("session.jsonl", &run.stdout);
    for label in ["first-draft", "second"] {
        // yoagent resumes at e4 (through the tag record that carries the
        // second label), and ysess names e4.
        let mut s = exported.clone();
        s.seek_checkpoint(label)
            .expect("the label is in the export");
        assert_eq!(s.path_ids()[..4], ["e1", "e2", "e3", "e4"], "{label}");
        assert!(s.path_ids().len() <= 5, "{label}");
        out.run(&["show", label, "--json"]).status(0);
        let run = out.run(&["log", "-n", "1", "--format", "{id}", label]);
        run.stdout("e4\n");
    }
    // HEAD of the export is still the path's end.
    out.run(&["log", "-n", "1", "--format", "{id}"])
        .stdout("e6\n");
    out.run(&["fsck", "--strict"]).status(0);
}

#[test]
fn custom_messages_are_called_custom_by_show_log_and_diff() {
    let dir = demo();
    let show = dir.run(&["show", "e9"]);
    assert!(
        show.stdout
            .contains("Role:     custom\nKind:     status_update\n"),
        "{show}"
    );
    let log = dir.run(&["log", "e9", "-n", "1", "--format", "{role}"]);
    log.stdout("custom\n");
    let diff = dir.run(&["diff", "--json", "e6", "e10"]);
    let pairs = diff.stdout.clone();
    assert!(pairs.contains("\"custom\""), "{diff}");
    assert!(!pairs.contains("extension"), "{diff}");
}

#[test]
fn a_second_root_is_drawn_apart_from_the_tree_above_it() {
    let dir = demo();
    let mut text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
    text.push('\n');
    text.push_str(&user_line("r1", None, "a second root"));
    text.push('\n');
    text.push_str(&user_line("r2", Some("r1"), "below it"));
    dir.write("session.jsonl", &text);
    let run = dir.run(&["log", "--graph", "--format", "{id}"]);
    run.status(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    // The new tree first (newest), its root, then a blank line, then the
    // demo's tree: the root does not read as hanging below e15.
    assert_eq!(&lines[..4], ["@  r2", "◆  r1", "", "○  e15"], "{run}");
    assert_eq!(lines.last(), Some(&"◆  e1"));
}

#[test]
fn e01_is_read_by_one_id_rule_in_names_fsck_and_new_ids() {
    let dir = Dir::new();
    dir.write(
        "session.jsonl",
        format!(
            "{}\n{}",
            user_line("e01", None, "first"),
            user_line("e7", Some("e01"), "second")
        ),
    );
    // yoagent's counter reads e01 as 1 and e7 as 7: the next id is e8.
    let run = dir.run(&["append", "--user", "third"]);
    run.status(0).stdout("e8\n");
    // fsck: e01 is not an id yoagent's append makes.
    let fsck = dir.run(&["fsck"]);
    assert!(fsck.stderr.contains("nonStandardId: id e01"), "{fsck}");
    // A name yoagent's counter would read as an id is refused, in every
    // spelling its counter reads.
    for name in ["e02", "e+2"] {
        let run = dir.run(&["branch", name]);
        run.status(128);
        assert!(run.stderr.contains("it looks like an entry id"), "{run}");
    }
    // And a revision names it exactly.
    dir.run(&["show", "e01"]).status(0);
}

#[test]
fn only_extension_records_of_ysess_kinds_are_folded_out() {
    let dir = Dir::new();
    dir.write(
        "session.jsonl",
        r#"{"id":"e1","parent_id":null,"message":{"role":"tool","kind":"ysess.note","data":[]},"timestamp":1}"#,
    );
    let loaded =
        yoagent::Session::from_jsonl(&String::from_utf8(dir.read("session.jsonl")).unwrap())
            .expect("yoagent loads it");
    assert_eq!(loaded.head(), Some("e1"));
    dir.run(&["log", "--format", "{id}"])
        .status(0)
        .stdout("e1\n");
    dir.run(&["branch"]).status(0).stdout("* e1\n");
}

// ---------------------------------------------------------------------------
// The property: records never change the user's tree
// ---------------------------------------------------------------------------

/// The file without ysess's records: each record's children hang from the
/// entry the record hangs from (through any chain of records).
fn strip_records(text: &str) -> String {
    let mut up: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut v: Value = serde_json::from_str(line).expect("JSON");
        let id = v["id"].as_str().expect("id").to_string();
        let parent = v["parent_id"].as_str().map(str::to_string);
        let parent = parent.and_then(|p| up.get(&p).cloned().unwrap_or(Some(p)));
        let m = &v["message"];
        let record = m["role"] == "extension"
            && m["kind"].as_str().is_some_and(|k| {
                [
                    "ysess.checkout",
                    "ysess.tag",
                    "ysess.branch",
                    "ysess.branch-delete",
                    "ysess.branch-rename",
                ]
                .contains(&k)
            });
        if record {
            up.insert(id, parent);
            continue;
        }
        v["parent_id"] = parent.map_or(Value::Null, Value::String);
        out.push(v.to_string());
    }
    out.join("\n")
}

/// What a person reads of the tree: every entry's parent and depth, and
/// every tip with its fork point and length.
fn folded_view(dir: &Dir) -> (String, BTreeMap<String, (Value, Value)>) {
    let log = dir.run(&["log", "--all", "--format", "{id} {parent} {depth}"]);
    log.status(0);
    let mut lines: Vec<&str> = log.stdout.lines().collect();
    lines.sort_unstable();
    let tips = branch_json(dir)
        .into_iter()
        .map(|b| {
            (
                b["tip"].as_str().unwrap_or_default().to_string(),
                (b["fork_point"].clone(), b["length"].clone()),
            )
        })
        .collect();
    (lines.join("\n"), tips)
}

#[test]
fn records_added_by_any_mix_of_writes_never_change_the_users_tree() {
    for seed in 0..6u64 {
        let dir = Dir::new();
        let start = sg::saved(&sg::random_session(seed, 12 + seed as usize * 7));
        dir.write("session.jsonl", &start);
        let was_clean = dir.run(&["fsck", "--strict"]).status == Some(0);
        let mut rng = sg::Rng::new(seed ^ 0x5eed);
        let mut names = 0;
        for step in 0..12 {
            let text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
            let ids: Vec<String> = strip_records(&text)
                .lines()
                .map(|l| {
                    serde_json::from_str::<Value>(l).expect("JSON")["id"]
                        .as_str()
                        .unwrap()
                        .to_string()
                })
                .collect();
            let rev = ids[rng.below(ids.len())].clone();
            names += 1;
            let name = format!("n{names}");
            let args: Vec<&str> = match rng.below(6) {
                0 => vec!["tag", &name, &rev],
                1 => vec!["branch", &name, &rev],
                2 => vec!["checkout", &rev],
                3 => vec!["checkout", "-b", &name, &rev],
                4 => vec!["append", "--user", "more"],
                _ => vec!["append", "--parent", &rev, "--user", "aside"],
            };
            let run = dir.run(&args);
            run.status(0);
            let with = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
            let plain = Dir::new();
            plain.write("session.jsonl", strip_records(&with));
            let (entries, tips) = folded_view(&dir);
            let (plain_entries, plain_tips) = folded_view(&plain);
            assert_eq!(entries, plain_entries, "seed {seed} step {step}: {run}");
            // Every tip of the plain tree is listed with the same fork point
            // and length (named or not); names may add mid-tree tips.
            for (tip, fork) in &plain_tips {
                assert_eq!(
                    tips.get(tip),
                    Some(fork),
                    "seed {seed} step {step}: tip {tip}"
                );
            }
            let extra: BTreeSet<&String> = tips
                .keys()
                .filter(|t| !plain_tips.contains_key(*t))
                .collect();
            for tip in extra {
                assert!(entries.contains(&format!("{tip} ")), "{tip} is an entry");
            }
            if was_clean {
                dir.run(&["fsck", "--strict"]).status(0);
            }
            sg::reload(&with);
        }
    }
}

#[test]
fn log_n_format_parent_skips_records_as_log_does() {
    let dir = demo();
    dir.run(&["checkout", "e8"]).status(0);
    dir.run(&["append", "--user", "retry"]).status(0);
    let whole = dir.run(&["log", "--format", "{id} {parent}"]);
    let first2: String = whole
        .stdout
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(first2, "e17 e8\ne8 e7\n", "{whole}");
    dir.run(&["log", "-n", "2", "--format", "{id} {parent}"])
        .status(0)
        .stdout(&first2);
    dir.run(&["log", "-n", "2", "--reverse", "--format", "{id} {parent}"])
        .status(0)
        .stdout("e8 e7\ne17 e8\n");
}

#[test]
fn deleting_the_branch_head_is_on_is_refused_unless_forced() {
    let dir = demo();
    dir.run(&["checkout", "-b", "lib", "e6"]).status(0);
    let before = dir.read("session.jsonl");
    let run = dir.run(&["branch", "-d", "lib"]);
    run.status(128);
    assert!(
        run.stderr
            .contains("cannot delete branch 'lib': HEAD is on it"),
        "{run}"
    );
    assert!(
        run.stderr.contains("`ysess branch --force -d lib`"),
        "{run}"
    );
    assert_eq!(dir.read("session.jsonl"), before, "nothing was written");
    dir.run(&["branch", "--force", "-d", "lib"]).status(0);
    dir.run(&["branch"])
        .status(0)
        .stdout("  e15\n  e13\n* e6\n");
    // A branch HEAD is not on goes without --force.
    dir.run(&["branch", "other", "e13"]).status(0);
    dir.run(&["branch", "-d", "other"]).status(0);
}

#[test]
fn a_label_named_head_or_like_an_id_is_marked_as_a_label_in_decorations() {
    let dir = Dir::new();
    let labelled = |id: &str, parent: Option<&str>, label: &str| {
        let mut v: Value = serde_json::from_str(&user_line(id, parent, id)).expect("JSON");
        v["label"] = label.into();
        v.to_string()
    };
    dir.write(
        "session.jsonl",
        [
            labelled("e1", None, "HEAD"),
            labelled("e2", Some("e1"), "e1"),
            user_line("e3", Some("e2"), "e3"),
        ]
        .join("\n"),
    );
    let want = "e3 (HEAD) user: e3\ne2 (label: e1) user: e2\ne1 (label: HEAD) user: e1\n";
    dir.run(&["log", "--oneline"]).status(0).stdout(want);
    dir.run(&["log", "-n", "3", "--oneline"])
        .status(0)
        .stdout(want);
    // `{labels}` stays the plain names, for scripts.
    dir.run(&["log", "--format", "{labels}"])
        .status(0)
        .stdout("\ne1\nHEAD\n");
}
