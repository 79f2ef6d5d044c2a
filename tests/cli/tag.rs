//! `ysess tag`.

use serde::Deserialize;

use crate::sessgen as sg;
use crate::support::{Dir, small_demo as demo};

/// One line of `tag --json`, every field required.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Tag {
    name: String,
    target: String,
}

fn tags(run: &crate::support::Run) -> Vec<Tag> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l:?}\n{run}")))
        .collect()
}

fn tag(name: &str, target: &str) -> Tag {
    Tag {
        name: name.into(),
        target: target.into(),
    }
}

// ---------------------------------------------------------------------------
// Against yoagent, on generated sessions
// ---------------------------------------------------------------------------

#[test]
fn tag_json_names_each_label_once_sorted_with_where_seek_checkpoint_goes() {
    for (seed, text, session) in sg::corpus() {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let run = dir.run(&["tag", "--json"]);
        run.status(0).stderr("");
        let mut names = sg::labels(&session);
        names.sort();
        let expected: Vec<Tag> = names
            .iter()
            .map(|name| tag(name, &sg::checkpoint_target(&session, name)))
            .collect();
        assert_eq!(tags(&run), expected, "seed {seed}\n{run}");
    }
}

// ---------------------------------------------------------------------------
// What a person sees
// ---------------------------------------------------------------------------

#[test]
fn tag_lists_labels_by_name_with_the_entry_each_names() {
    // `review` is on e3 and e9: the newest, e9, is the one it names.
    demo()
        .run(&["tag"])
        .status(0)
        .stderr("")
        .stdout("first-draft  e2\nreview       e9\n");
}

#[test]
fn tag_n_adds_the_first_line_of_each_entry() {
    demo().run(&["tag", "-n"]).status(0).stderr("").stdout(
        "\
first-draft  e2  assistant m: Plan: tokenizer, then parser
review       e9  user: Or use serde_json?
",
    );
}

#[test]
fn tag_l_keeps_the_labels_matching_a_pattern() {
    let dir = demo();
    dir.run(&["tag", "-l", "r*"])
        .status(0)
        .stderr("")
        .stdout("review  e9\n");
    dir.run(&["tag", "-l", "*draft"])
        .status(0)
        .stdout("first-draft  e2\n");
    dir.run(&["tag", "-l", "f?rst-*", "-n"])
        .status(0)
        .stdout("first-draft  e2  assistant m: Plan: tokenizer, then parser\n");
    dir.run(&["tag", "--list", "nothing*"])
        .status(0)
        .stderr("")
        .stdout("");
    // A shell's classes, too; a pattern that does not parse is a usage error.
    dir.run(&["tag", "-l", "[rf]*"])
        .status(0)
        .stdout("first-draft  e2\nreview       e9\n");
    let run = dir.run(&["tag", "-l", "draft-["]);
    run.status(2).stdout("");
    assert!(run.stderr.starts_with("error: --list: "), "{run}");
}

#[test]
fn tag_of_a_session_without_labels_prints_nothing() {
    let dir = Dir::new();
    let mut s = yoagent::Session::new();
    s.append(sg::user("hello"));
    dir.write("session.jsonl", sg::saved(&s));
    dir.run(&["tag"]).status(0).stdout("").stderr("");
    dir.run(&["tag", "--json"]).status(0).stdout("").stderr("");
}

// ---------------------------------------------------------------------------
// For programs
// ---------------------------------------------------------------------------

#[test]
fn tag_json_has_name_and_target() {
    let dir = demo();
    let run = dir.run(&["tag", "--json"]);
    run.status(0).stderr("");
    assert_eq!(
        tags(&run),
        vec![tag("first-draft", "e2"), tag("review", "e9")]
    );
    let run = dir.run(&["tag", "--json", "-l", "rev*"]);
    assert_eq!(tags(&run), vec![tag("review", "e9")]);
}

// ---------------------------------------------------------------------------
// Hostile text
// ---------------------------------------------------------------------------

#[test]
fn tag_never_prints_control_or_bidi_characters_from_the_session_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let shown = sg::HOSTILE_SHOWN;
    let run = dir.run(&["tag"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert_eq!(
        run.stdout,
        format!("L{shown}  e3\nM{shown}  y{shown}\n"),
        "{:?}",
        run.stdout
    );
    let run = dir.run(&["tag", "-n"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert!(
        run.stdout
            .contains(&format!("toolResult n{shown}: out{shown}")),
        "{:?}",
        run.stdout
    );
    let run = dir.run(&["tag", "-l", "M*"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    assert_eq!(
        run.stdout,
        format!("M{shown}  y{shown}\n"),
        "{:?}",
        run.stdout
    );
}

#[test]
fn tag_json_of_hostile_text_is_valid_json_that_carries_it_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let run = dir.run(&["tag", "--json"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    let h = sg::HOSTILE;
    assert_eq!(
        tags(&run),
        vec![
            tag(&format!("L{h}"), "e3"),
            tag(&format!("M{h}"), &format!("y{h}"))
        ]
    );
}

#[test]
fn tag_n_pads_wide_cjk_names_by_display_width() {
    let dir = crate::support::demo();
    dir.run(&["tag", "計画", "e2"]).status(0);
    // 計画 takes four columns, as many as `plan`: both get the same padding.
    dir.run(&["tag", "plan", "e3"]).status(0);
    dir.run(&["tag", "-n"]).status(0).stdout(
        "first-draft  e4  assistant claude-sonnet-5: Plan:\n\
         library      e8  assistant claude-sonnet-5: Library plan: a reader, a validator and a \
         tree index; the CLI only parses arguments and prints.\n\
         plan         e3  toolResult bash: run-0412.jsonl\n\
         計画         e2  assistant claude-sonnet-5: bash {\"command\":\"ls sessions/ | head\"}\n",
    );
}
