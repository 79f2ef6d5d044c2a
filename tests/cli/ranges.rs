//! Revision ranges (`A..B`, `A...B`, `^A`), several revisions, `log -N`,
//! `show A B C`, and the earlier heads (`@-`, `HEAD@{N}`, `checkout -`).

use std::collections::HashSet;

use serde::Deserialize;

use crate::pi::{PiSession, pi_sessions};
use crate::sessgen::{self as sg, Rng};
use crate::support::{Dir, Run, demo};

fn lines(run: &Run) -> Vec<String> {
    run.status(0);
    run.stdout.lines().map(str::to_string).collect()
}

/// `a` less what is in `b`, in `a`'s order.
fn less(a: &[String], b: &[String]) -> Vec<String> {
    let b: HashSet<&String> = b.iter().collect();
    a.iter().filter(|x| !b.contains(x)).cloned().collect()
}

/// Ids newest first in file order.
fn newest_first(mut ids: Vec<String>, order: &[String]) -> Vec<String> {
    let at = |id: &String| order.iter().position(|o| o == id).expect("a known id");
    ids.sort_by_key(|id| std::cmp::Reverse(at(id)));
    ids.dedup();
    ids
}

// ---------------------------------------------------------------------------
// Against yoagent's paths, on generated sessions
// ---------------------------------------------------------------------------

#[test]
fn ranges_are_the_set_differences_of_yoagents_paths() {
    for (seed, text, session) in sg::corpus().into_iter().step_by(3) {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let order: Vec<String> = session.entries().iter().map(|e| e.id.clone()).collect();
        let mut rng = Rng::new(seed ^ 0x5eed);
        for _ in 0..3 {
            let a = order[rng.below(order.len())].clone();
            let b = order[rng.below(order.len())].clone();
            let (pa, pb) = (sg::path_to(&session, &a), sg::path_to(&session, &b));
            let log =
                |revs: &[&str]| lines(&dir.run(&[&["log", "--format", "{id}"][..], revs].concat()));
            let two_dots = newest_first(less(&pb, &pa), &order);
            assert_eq!(
                log(&[&format!("{a}..{b}")]),
                two_dots,
                "seed {seed}: {a}..{b}"
            );
            assert_eq!(
                log(&[&format!("^{a}"), &b]),
                two_dots,
                "seed {seed}: ^{a} {b}"
            );
            let mut either = less(&pb, &pa);
            either.extend(less(&pa, &pb));
            assert_eq!(
                log(&[&format!("{a}...{b}")]),
                newest_first(either, &order),
                "seed {seed}: {a}...{b}"
            );
            let mut union = pa.clone();
            union.extend(pb.clone());
            assert_eq!(
                log(&[&a, &b]),
                newest_first(union, &order),
                "seed {seed}: {a} {b}"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Transcripts on the demo session
// ---------------------------------------------------------------------------

#[test]
fn two_dots_show_what_one_direction_did_since_it_left_the_other() {
    demo()
        .run(&["log", "--oneline", "e15..e13"])
        .status(0)
        .stdout(
            "e13 assistant claude-sonnet-5: The search failed; from what I know: clap for arguments, serde_json for parsing, sha2 for digests.\n\
             e12 toolResult search: error: search service unavailable\n\
             e11 assistant claude-sonnet-5: search {\"query\":\"rust json lines validator crate\"}\n\
             e10 user: Which crates would you use?\n\
             e9 custom status_update: {\"status\":\"idle\"}\n",
        )
        .stderr("");
}

#[test]
fn three_dots_show_both_sides_of_the_fork_and_a_left_out_side_is_head() {
    demo()
        .run(&["log", "--oneline", "e6..."])
        .status(0)
        .stdout(
            "e15 (HEAD) assistant claude-sonnet-5: clap, serde_json and sha2.\n\
             e14 user: Which crates would you use? Keep it to three.\n\
             e8 (library) assistant claude-sonnet-5: Library plan: a reader, a validator and a tree index; the CLI only parses arguments and prints.\n\
             e7 user: Actually, make it a library instead, with the CLI as a thin shell.\n\
             e6 assistant claude-sonnet-5: Added step 4: --json prints one finding per line, then a summary.\n\
             e5 user: Good. Add a --json output for CI.\n",
        );
}

#[test]
fn log_minus_three_is_log_n_three() {
    let dir = demo();
    let short = dir.run(&["log", "--oneline", "-3"]);
    short.status(0);
    assert_eq!(
        short.stdout,
        dir.run(&["log", "--oneline", "-n", "3"]).stdout
    );
    assert_eq!(short.stdout.lines().count(), 3);
    // With a range too, and the last count wins as in git.
    let run = dir.run(&["log", "--format", "{id}", "e15..e13", "-n", "9", "-2"]);
    assert_eq!(lines(&run), ["e13", "e12"]);
}

#[test]
fn a_graph_of_a_range_draws_only_its_entries() {
    demo()
        .run(&[
            "log", "--graph", "--ascii", "--format", "{id}", "e8..e13", "e8..e15",
        ])
        .status(0)
        // Each side stands apart, its oldest entry drawn as a root.
        .stdout("@  e15\n#  e14\n\no  e13\no  e12\no  e11\no  e10\n#  e9\n")
        .stderr("");
}

#[test]
fn an_unknown_side_of_a_range_is_named() {
    demo()
        .run(&["log", "e4..e99"])
        .status(128)
        .stdout("")
        .stderr("error: unknown revision 'e99'\nhint: a revision is HEAD, @, @-, HEAD@{N}, an entry id or label or branch (or a unique prefix of one), then any of ~N and ^\n");
}

#[test]
fn all_takes_no_revision() {
    demo().run(&["log", "--all", "e4"]).status(2);
}

#[test]
fn show_shows_several_entries_in_the_order_given() {
    let dir = demo();
    let run = dir.run(&["show", "e3", "e1"]);
    run.status(0).stdout(
        "entry e3\n\
         Parent:   e2\n\
         Role:     toolResult\n\
         Tool:     bash [call_1]\n\
         Time:     2025-12-02 09:00:04 +00:00\n\
         Format:   yoagent\n\
         Children: e4\n\
         \n    run-0412.jsonl\n    run-0413.jsonl\n    run-0414.jsonl\n\
         \n\
         entry e1\n\
         Role:     user\n\
         Time:     2025-12-02 09:00:00 +00:00\n\
         Format:   yoagent\n\
         Children: e2\n\
         \n    Draft a plan for a CLI that checks our agent's session files.\n",
    );
}

#[test]
fn show_json_prints_one_stored_entry_per_line_ranges_included() {
    let dir = demo();
    let run = dir.run(&["show", "--json", "e1", "e8..e15", "first-draft"]);
    run.status(0);
    let ids: Vec<String> = run
        .json_lines()
        .iter()
        .map(|v| v["id"].as_str().expect("an id").to_string())
        .collect();
    assert_eq!(ids, ["e1", "e15", "e14", "e4"]);
}

// ---------------------------------------------------------------------------
// Earlier heads
// ---------------------------------------------------------------------------

#[test]
fn at_minus_and_head_at_n_name_the_heads_earlier_moves_left() {
    let dir = demo();
    dir.run(&["checkout", "e6"]).status(0);
    dir.run(&["checkout", "e13"]).status(0);
    let one = |rev: &str| lines(&dir.run(&["log", "-1", "--format", "{id}", rev]));
    assert_eq!(one("@-"), ["e6"]);
    assert_eq!(one("HEAD@{1}"), ["e6"]);
    assert_eq!(one("HEAD@{2}"), ["e15"]);
    assert_eq!(one("@{2}~1"), ["e14"]);
    assert_eq!(one("HEAD@{0}"), ["e13"]);
    dir.run(&["log", "HEAD@{3}"])
        .status(128)
        .stderr("error: 'HEAD@{3}' asks for HEAD move 3, but ysess recorded only 2\nhint: `ysess reflog` lists them: HEAD@{1} to HEAD@{2}\n");
    // What changed since the last move, both ways.
    assert_eq!(
        lines(&dir.run(&["log", "--format", "{id}", "@-..@"])),
        ["e13", "e12", "e11", "e10", "e9", "e8", "e7"]
    );
}

#[test]
fn checkout_minus_goes_back_and_back_again() {
    let dir = demo();
    dir.run(&["checkout", "-"])
        .status(128)
        .stderr("error: there is no previous HEAD: ysess has recorded no HEAD move\n");
    dir.run(&["checkout", "first-draft"]).status(0);
    dir.run(&["checkout", "-"])
        .status(0)
        .stderr("HEAD is now at e15 assistant claude-sonnet-5: clap, serde_json and sha2.\n");
    dir.run(&["checkout", "-"])
        .status(0)
        .stderr("HEAD is now at e4 (first-draft) assistant claude-sonnet-5: Plan:\n");
}

#[test]
fn checkout_minus_returns_to_the_branch_and_its_newest_work() {
    let dir = demo();
    dir.run(&["checkout", "-b", "lib", "e6"]).status(0);
    dir.run(&["append", "--user", "more on lib"]).status(0);
    dir.run(&["checkout", "e13"]).status(0);
    dir.run(&["checkout", "-"])
        .status(0)
        .stderr("Switched to branch 'lib' at e17 (lib) user: more on lib\n");
    let run = dir.run(&["status", "--json"]);
    let status: serde_json::Value = run.json_lines().remove(0);
    assert_eq!(status["branch"], "lib");
}

// ---------------------------------------------------------------------------
// pi's sessions
// ---------------------------------------------------------------------------

/// pi's entries and parents, as `log --all` reads them.
#[derive(Deserialize)]
struct Stored {
    id: String,
}

#[test]
fn ranges_on_pi_sessions_are_differences_of_pis_own_paths() {
    let Some((dir, sessions)) = pi_sessions(1..=6) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let file = path.to_str().expect("UTF-8 path");
        // pi's tree without its label entries, which ysess folds out.
        let messages: Vec<&crate::pi::PiEntry> =
            pi.entries.iter().filter(|e| e.kind != "label").collect();
        let parent = |id: &str| {
            pi.entries
                .iter()
                .find(|e| e.id == id)
                .and_then(|e| e.parent_id.clone())
        };
        let path_to = |id: &str| {
            let mut path = vec![id.to_string()];
            while let Some(p) = parent(path.last().expect("not empty")) {
                path.push(p);
            }
            path.retain(|id| messages.iter().any(|m| m.id == *id));
            path.reverse();
            path
        };
        let order: Vec<String> = messages.iter().map(|e| e.id.clone()).collect();
        let mut rng = Rng::new(u64::from(*seed));
        let a = order[rng.below(order.len())].clone();
        let b = order[rng.below(order.len())].clone();
        let (pa, pb) = (path_to(&a), path_to(&b));
        let run = dir.run(&["-f", file, "log", "--json", &format!("{a}..{b}")]);
        let got: Vec<String> = run
            .json_lines()
            .into_iter()
            .map(|v| serde_json::from_value::<Stored>(v).expect("an entry").id)
            .collect();
        assert_eq!(
            got,
            newest_first(less(&pb, &pa), &order),
            "seed {seed}: {a}..{b}"
        );
        let mut either = less(&pb, &pa);
        either.extend(less(&pa, &pb));
        let run = dir.run(&["-f", file, "log", "--format", "{id}", &format!("{a}...{b}")]);
        assert_eq!(lines(&run), newest_first(either, &order), "seed {seed}");
    }
}

#[test]
fn a_range_on_a_pi_session() {
    let dir = Dir::new();
    dir.fixture("pi/demo.jsonl", "session.jsonl");
    dir.run(&["log", "--oneline", "review.."])
        .status(0)
        .stdout(
            "38dfc291 (HEAD) assistant claude-sonnet-4-5: 日本語 label tests again tree and every 日本語\n\
             777b0ec2 user: tests résumé résumé naïve field tests\n\
             be394af8 custom branch_summary: branch tree config and résumé parse the 日本語 file and\n",
        )
        .stderr("");
}
