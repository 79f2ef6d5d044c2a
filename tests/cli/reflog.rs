//! `ysess reflog`: the HEAD moves ysess recorded.

use serde::Deserialize;

use crate::pi::{PiSession, node_harness, pi_sessions};
use crate::support::{Dir, Run, demo};

/// One line of `reflog --json`.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Move {
    n: usize,
    kind: String,
    record: String,
    ts: u64,
    time: String,
    from: String,
    from_branch: Option<String>,
    to: String,
    to_branch: Option<String>,
}

fn moves(run: &Run) -> Vec<Move> {
    run.status(0);
    run.json_lines()
        .into_iter()
        .map(|v| serde_json::from_value(v).expect("a move"))
        .collect()
}

fn short(m: &Move) -> (&str, Option<&str>, &str, Option<&str>) {
    (
        &m.from,
        m.from_branch.as_deref(),
        &m.to,
        m.to_branch.as_deref(),
    )
}

/// tests/fixtures/moves.jsonl is the demo session after `checkout
/// first-draft`, `checkout -b lib e6`, an appended user turn, `branch wip
/// e13`, `checkout wip` and `checkout -`, each a minute apart.
fn moves_fixture() -> Dir {
    let dir = Dir::new();
    dir.fixture("moves.jsonl", "session.jsonl");
    dir
}

#[test]
fn reflog_lists_the_moves_newest_first_with_time_and_from_and_to() {
    moves_fixture()
        .run(&["reflog"])
        .status(0)
        .stdout(
            "HEAD@{1}  2025-12-02 10:06:00 +00:00  checkout: moving from e13 on wip to e18 on lib\n\
             HEAD@{2}  2025-12-02 10:05:00 +00:00  checkout: moving from e18 on lib to e13 on wip\n\
             HEAD@{3}  2025-12-02 10:01:00 +00:00  checkout -b: moving from e4 to e6 on lib\n\
             HEAD@{4}  2025-12-02 10:00:00 +00:00  checkout: moving from e15 to e4\n",
        )
        .stderr("");
}

#[test]
fn reflog_json_is_one_object_per_move() {
    let got = moves(&moves_fixture().run(&["reflog", "--json"]));
    assert_eq!(
        got[2],
        Move {
            n: 3,
            kind: "checkout -b".into(),
            record: "e17".into(),
            ts: 1_764_669_660_000,
            time: "2025-12-02T10:01:00.000+00:00".into(),
            from: "e4".into(),
            from_branch: None,
            to: "e6".into(),
            to_branch: Some("lib".into()),
        }
    );
    let all: Vec<_> = got.iter().map(short).collect();
    assert_eq!(
        all,
        [
            ("e13", Some("wip"), "e18", Some("lib")),
            ("e18", Some("lib"), "e13", Some("wip")),
            ("e4", None, "e6", Some("lib")),
            ("e15", None, "e4", None),
        ]
    );
    assert_eq!(got.iter().map(|m| m.n).collect::<Vec<_>>(), [1, 2, 3, 4]);
}

#[test]
fn head_at_n_is_the_from_of_the_nth_line() {
    let dir = moves_fixture();
    let got = moves(&dir.run(&["reflog", "--json"]));
    for m in &got {
        let rev = format!("HEAD@{{{}}}", m.n);
        let run = dir.run(&["log", "-1", "--format", "{id}", &rev]);
        run.status(0).stdout(&format!("{}\n", m.from));
    }
}

#[test]
fn branch_and_tag_put_head_back_so_they_are_no_moves() {
    let dir = demo();
    dir.run(&["branch", "side", "e6"]).status(0);
    dir.run(&["tag", "mark", "e2"]).status(0);
    dir.run(&["reflog"]).status(0).stdout("");
    dir.run(&["reflog", "--json"]).status(0).stdout("");
}

#[test]
fn an_agents_work_between_moves_shows_as_the_next_moves_from() {
    let dir = demo();
    dir.run(&["checkout", "e4"]).status(0);
    dir.run(&["append", "--user", "retry from the plan"])
        .status(0)
        .stdout("e17\n");
    dir.run(&["checkout", "e13"]).status(0);
    let got = moves(&dir.run(&["reflog", "--json"]));
    let all: Vec<_> = got.iter().map(short).collect();
    assert_eq!(all, [("e17", None, "e13", None), ("e15", None, "e4", None)]);
    assert_eq!(got[0].record, "e18");
    assert!(got[0].ts >= got[1].ts);
}

#[test]
fn a_deleted_branch_keeps_its_name_in_the_reflog() {
    let dir = demo();
    dir.run(&["checkout", "-b", "gone", "e6"]).status(0);
    dir.run(&["checkout", "e15"]).status(0);
    dir.run(&["branch", "-d", "gone"]).status(0);
    let got = moves(&dir.run(&["reflog", "--json"]));
    assert_eq!(short(&got[0]), ("e6", Some("gone"), "e15", None));
}

/// Moves recorded after a branch was deleted do not name it, though they
/// reach the entries it was on.
#[test]
fn a_move_after_a_branch_is_deleted_does_not_name_it() {
    let dir = moves_fixture();
    dir.run(&["checkout", "wip"]).status(0);
    dir.run(&["branch", "-d", "lib"]).status(0);
    dir.run(&["checkout", "-"]).status(0);
    let got = moves(&dir.run(&["reflog", "--json"]));
    assert_eq!(short(&got[0]), ("e13", Some("wip"), "e18", None));
    assert_eq!(short(&got[1]), ("e18", Some("lib"), "e13", Some("wip")));
}

#[test]
fn pi_sessions_keep_their_moves_and_pi_resumes_where_the_last_one_went() {
    let Some((dir, sessions)) = pi_sessions(1..=3) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let file = path.to_str().expect("UTF-8 path");
        let leaf = pi
            .branch
            .iter()
            .zip(&pi.branch_types)
            .rev()
            .find(|(_, kind)| *kind != "label")
            .map(|(id, _)| id.clone())
            .expect("pi's branch has a message");
        let target = pi
            .entries
            .iter()
            .find(|e| e.kind == "message" && !pi.branch.contains(&e.id))
            .unwrap_or_else(|| panic!("seed {seed}: no entry off pi's branch"))
            .id
            .clone();
        dir.run(&["-f", file, "checkout", &target]).status(0);
        node_harness(&["append", file, "carry on"]).expect("the harness ran a moment ago");
        let appended = crate::pi::pi_inspect(path)
            .entries
            .last()
            .expect("pi appended")
            .id
            .clone();
        dir.run(&["-f", file, "checkout", "-"]).status(0);
        let got = moves(&dir.run(&["-f", file, "reflog", "--json"]));
        let all: Vec<_> = got.iter().map(short).collect();
        assert_eq!(
            all,
            [
                (appended.as_str(), None, leaf.as_str(), None),
                (leaf.as_str(), None, target.as_str(), None),
            ],
            "seed {seed}"
        );
        // pi resumes where `checkout -` went.
        let after = crate::pi::pi_inspect(path);
        let n = after.branch.len();
        assert_eq!(
            after.branch_types[n - 1],
            "custom",
            "seed {seed}: the checkout"
        );
        assert_eq!(after.branch[n - 2], leaf, "seed {seed}");
    }
}

#[test]
fn reflog_transcript_on_a_pi_session() {
    let dir = Dir::new();
    dir.fixture("pi/demo.jsonl", "session.jsonl");
    dir.run(&["checkout", "-b", "side", "review"]).status(0);
    dir.run(&["checkout", "-"]).status(0);
    let run = dir.run(&["reflog"]);
    run.status(0).stderr("");
    // The times are the clock's: each is `YYYY-MM-DD HH:MM:SS +00:00`.
    let shown: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            let time = &l[10..36];
            assert!(
                time.ends_with(" +00:00") && time.as_bytes()[4] == b'-',
                "{run}"
            );
            format!("{}<time>{}", &l[..10], &l[36..])
        })
        .collect();
    assert_eq!(
        shown,
        [
            "HEAD@{1}  <time>  checkout: moving from ca88697f on side to 38dfc291",
            "HEAD@{2}  <time>  checkout -b: moving from 38dfc291 to ca88697f on side",
        ]
    );
    dir.run(&["log", "-1", "--format", "{id}", "@-"])
        .status(0)
        .stdout("ca88697f\n");
}
