//! `ysess branch`.

use std::collections::HashMap;

use serde::Deserialize;

use crate::sessgen as sg;
use crate::support::{Dir, small_demo as demo};

/// One line of `branch --json`, every field required.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Branch {
    name: Option<String>,
    tip: String,
    fork_point: Option<String>,
    current: bool,
    detached: bool,
    length: u64,
}

fn branches(run: &crate::support::Run) -> Vec<Branch> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}\n{run}")))
        .collect()
}

// ---------------------------------------------------------------------------
// Against yoagent, on generated sessions
// ---------------------------------------------------------------------------

#[test]
fn branch_json_lists_yoagents_branch_tips_newest_first_with_head_current() {
    for (seed, text, session) in sg::corpus() {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let run = dir.run(&["branch", "--json"]);
        run.status(0).stderr("");
        let got = branches(&run);

        let mut tips: Vec<String> = session
            .branch_tips()
            .iter()
            .map(|t| t.to_string())
            .collect();
        tips.reverse();
        let got_tips: Vec<String> = got.iter().map(|b| b.tip.clone()).collect();
        assert_eq!(got_tips, tips, "seed {seed}\n{run}");

        let current: Vec<&Branch> = got.iter().filter(|b| b.current).collect();
        assert_eq!(current.len(), 1, "seed {seed}: one current branch\n{run}");
        assert_eq!(
            Some(current[0].tip.as_str()),
            session.head(),
            "seed {seed}: HEAD's tip is current\n{run}"
        );

        // The fork point is the nearest ancestor with more than one child;
        // the length counts the entries after it (or from the root).
        let children: HashMap<&str, usize> = session
            .entries()
            .iter()
            .map(|e| (e.id.as_str(), session.children(&e.id).len()))
            .collect();
        for b in &got {
            assert_eq!(b.name, None);
            let path = sg::path_to(&session, &b.tip);
            let fork = path[..path.len() - 1]
                .iter()
                .rposition(|id| children[id.as_str()] > 1);
            assert_eq!(
                b.fork_point.as_deref(),
                fork.map(|k| path[k].as_str()),
                "seed {seed}: fork point of {}\n{run}",
                b.tip
            );
            let length = path.len() - fork.map_or(0, |k| k + 1);
            assert_eq!(b.length, length as u64, "seed {seed}: length of {}", b.tip);
        }
    }
}

#[test]
fn branch_contains_keeps_the_branches_whose_path_holds_the_revision() {
    for (seed, text, session) in sg::corpus().into_iter().step_by(3) {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let mut rng = sg::Rng::new(seed);
        let entries = session.entries();
        let target = &entries[rng.below(entries.len())].id;
        let run = dir.run(&["branch", "--json", "--contains", target]);
        run.status(0);
        let got: Vec<String> = branches(&run).into_iter().map(|b| b.tip).collect();
        let mut expected: Vec<String> = session
            .branch_tips()
            .into_iter()
            .filter(|tip| sg::path_to(&session, tip).contains(target))
            .map(str::to_string)
            .collect();
        expected.reverse();
        assert_eq!(got, expected, "seed {seed}: --contains {target}\n{run}");
    }
}

// ---------------------------------------------------------------------------
// What a person sees
// ---------------------------------------------------------------------------

#[test]
fn branch_lists_tips_newest_first_and_stars_heads() {
    demo()
        .run(&["branch"])
        .status(0)
        .stderr("")
        .stdout("* e10\n  e8\n  e7\n  e5\n");
}

#[test]
fn branch_verbose_adds_fork_point_length_and_last_message() {
    demo().run(&["branch", "-v"]).status(0).stderr("").stdout(
        "\
* e10  forked at e2  2 entries  custom status_update: {\"tokens\":1234,\"phase\":\"idle\"}
  e8   forked at e6  1 entry    user: Smaller steps, please
  e7   forked at e6  1 entry    assistant m: A streaming plan
  e5   forked at e2  3 entries  toolResult bash: 1 test failed
",
    );
}

#[test]
fn branch_verbose_of_a_session_that_never_forks_says_so() {
    let dir = Dir::new();
    let mut s = yoagent::Session::new();
    s.append(sg::user("one"));
    s.append(sg::assistant("two"));
    dir.write("session.jsonl", sg::saved(&s));
    dir.run(&["branch", "-v"])
        .status(0)
        .stdout("* e2  no fork  2 entries  assistant m: two\n");
}

#[test]
fn branch_contains_lists_only_branches_that_grew_from_the_revision() {
    let dir = demo();
    dir.run(&["branch", "--contains", "e6"])
        .status(0)
        .stderr("")
        .stdout("  e8\n  e7\n");
    dir.run(&["branch", "--contains", "first-draft"])
        .status(0)
        .stdout("* e10\n  e8\n  e7\n  e5\n");
    dir.run(&["branch", "--contains", "HEAD"])
        .status(0)
        .stdout("* e10\n");
    dir.run(&["branch", "-v", "--contains", "e4"])
        .status(0)
        .stdout("  e5  forked at e2  3 entries  toolResult bash: 1 test failed\n");
}

#[test]
fn branch_contains_an_unknown_revision_is_fatal() {
    demo()
        .run(&["branch", "--contains", "frist-draft"])
        .status(128)
        .stdout("")
        .stderr(
            "error: unknown revision 'frist-draft'\n\
             hint: did you mean 'first-draft'?\n",
        );
}

// ---------------------------------------------------------------------------
// For programs
// ---------------------------------------------------------------------------

#[test]
fn branch_json_has_name_tip_fork_point_current_and_length() {
    let run = demo().run(&["branch", "--json"]);
    run.status(0).stderr("");
    let b = |tip: &str, fork: &str, current: bool, length: u64| Branch {
        name: None,
        tip: tip.into(),
        fork_point: Some(fork.into()),
        current,
        detached: false,
        length,
    };
    assert_eq!(
        branches(&run),
        vec![
            b("e10", "e2", true, 2),
            b("e8", "e6", false, 1),
            b("e7", "e6", false, 1),
            b("e5", "e2", false, 3),
        ],
        "{run}"
    );
    // A branch that never forked has no fork point.
    let dir = Dir::new();
    let mut s = yoagent::Session::new();
    s.append(sg::user("only"));
    dir.write("session.jsonl", sg::saved(&s));
    let run = dir.run(&["branch", "--json"]);
    assert_eq!(
        branches(&run),
        vec![Branch {
            name: None,
            tip: "e1".into(),
            fork_point: None,
            current: true,
            detached: false,
            length: 1
        }],
        "{run}"
    );
}

// ---------------------------------------------------------------------------
// Hostile text
// ---------------------------------------------------------------------------

#[test]
fn branch_never_prints_control_or_bidi_characters_from_the_session_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let shown = sg::HOSTILE_SHOWN;
    let run = dir.run(&["branch"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert_eq!(
        run.stdout,
        format!("* y{shown}\n  e3\n"),
        "{:?}",
        run.stdout
    );
    let run = dir.run(&["branch", "-v"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert!(
        run.stdout.contains(&format!("out{shown}")),
        "{:?}",
        run.stdout
    );
    // An argument cannot hold a NUL: a unique prefix of the id does.
    let run = dir.run(&["branch", "-v", "--contains", "x\u{1b}[2J\u{9b}\u{202e}"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert_eq!(
        run.stdout,
        format!("  e3  forked at e1  2 entries  toolResult n{shown}: out{shown}\n"),
        "{:?}",
        run.stdout
    );
}

#[test]
fn branch_json_of_hostile_text_is_valid_json_that_carries_it_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let run = dir.run(&["branch", "--json"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    let h = sg::HOSTILE;
    assert_eq!(
        branches(&run),
        vec![
            Branch {
                name: None,
                tip: format!("y{h}"),
                fork_point: Some("e1".into()),
                current: true,
                detached: false,
                length: 1,
            },
            Branch {
                name: None,
                tip: "e3".into(),
                fork_point: Some("e1".into()),
                current: false,
                detached: false,
                length: 2,
            },
        ]
    );
}

#[test]
fn branch_v_pads_wide_cjk_names_by_display_width() {
    use unicode_width::UnicodeWidthStr;
    let dir = crate::support::demo();
    dir.run(&["branch", "図書館", "e13"]).status(0);
    dir.run(&["branch", "lib", "e6"]).status(0);
    let run = dir.run(&["branch", "-v"]);
    run.status(0);
    // Every column starts at the same terminal column on every line.
    for marker in ["forked at ", "entries  "] {
        let starts: Vec<usize> = run
            .stdout
            .lines()
            .map(|line| {
                let name_end = 2 + line[2..].find(' ').expect("a name");
                let at = name_end + line[name_end..].find(marker).expect("the column");
                line[..at].width()
            })
            .collect();
        assert!(
            starts.windows(2).all(|w| w[0] == w[1]),
            "{marker:?} starts at {starts:?}\n{run}"
        );
    }
    assert!(run.stdout.contains("図書館"), "{run}");
}
