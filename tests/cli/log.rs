//! `ysess log`.

use std::collections::HashMap;

use crate::sessgen::{self as sg, Rng};
use crate::support::{Dir, small_demo as demo};

/// The lines of stdout.
fn ids(run: &crate::support::Run) -> Vec<String> {
    run.stdout.lines().map(str::to_string).collect()
}

fn reversed(mut v: Vec<String>) -> Vec<String> {
    v.reverse();
    v
}

// ---------------------------------------------------------------------------
// Against yoagent, on generated sessions
// ---------------------------------------------------------------------------

#[test]
fn log_of_any_revision_is_yoagents_path_to_it_newest_first() {
    for (seed, text, session) in sg::corpus() {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let entries: Vec<String> = session.entries().iter().map(|e| e.id.clone()).collect();
        let mut rng = Rng::new(seed ^ 0xabc);
        // (revision, what yoagent's root→entry path is for it)
        let mut cases: Vec<(String, Vec<String>)> = vec![("HEAD".into(), session.path_ids())];
        let id = &entries[rng.below(entries.len())];
        cases.push((id.clone(), sg::path_to(&session, id)));
        // Labels, the repeated ones first: the newest carrier is the one.
        let mut labels = sg::labels(&session);
        labels.sort_by_key(|l| {
            let carriers = session
                .entries()
                .iter()
                .filter(|e| e.label.as_ref() == Some(l));
            std::cmp::Reverse(carriers.count())
        });
        for label in labels.iter().take(3) {
            let target = sg::checkpoint_target(&session, label);
            cases.push((label.clone(), sg::path_to(&session, &target)));
        }
        // A suffix: k entries back.
        let id = &entries[rng.below(entries.len())];
        let path = sg::path_to(&session, id);
        let k = rng.below(path.len());
        cases.push((format!("{id}~{k}"), path[..path.len() - k].to_vec()));

        for (rev, path) in &cases {
            let run = dir.run(&["log", "--format", "{id}", rev]);
            run.status(0);
            assert_eq!(
                ids(&run),
                reversed(path.clone()),
                "seed {seed}, log {rev}\n{run}"
            );
        }
        // -n keeps the newest n; --reverse then shows them oldest first.
        let (rev, path) = &cases[rng.below(cases.len())];
        let n = 1 + rng.below(path.len());
        let run = dir.run(&[
            "log",
            "--reverse",
            "-n",
            &n.to_string(),
            "--format",
            "{id}",
            rev,
        ]);
        run.status(0);
        assert_eq!(
            ids(&run),
            path[path.len() - n..].to_vec(),
            "seed {seed}\n{run}"
        );
    }
}

#[test]
fn log_all_lists_every_entry_once_newest_line_first() {
    for (seed, text, session) in sg::corpus() {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let run = dir.run(&["log", "--all", "--format", "{id} {parent} {depth} {line}"]);
        run.status(0);
        let mut expected = Vec::new();
        let mut depth: HashMap<&str, usize> = HashMap::new();
        for (line, e) in session.entries().iter().enumerate() {
            let d = e.parent_id.as_deref().map_or(0, |p| depth[p]) + 1;
            depth.insert(&e.id, d);
            let parent = e.parent_id.as_deref().unwrap_or("");
            expected.push(format!("{} {parent} {d} {}", e.id, line + 1));
        }
        let run_reverse = dir.run(&[
            "log",
            "--all",
            "--reverse",
            "--format",
            "{id} {parent} {depth} {line}",
        ]);
        assert_eq!(ids(&run_reverse), expected, "seed {seed}\n{run_reverse}");
        expected.reverse();
        assert_eq!(ids(&run), expected, "seed {seed}\n{run}");
    }
}

/// Checks a `log --graph` drawing in the curved style, entry rows being
/// `PREFIX<tab>ID`: every entry once, below all of its descendants, and the
/// lines mean the tree. Each column's line runs from an entry down to its
/// parent's row: a column shows `│` while its line is running and blank
/// otherwise; an entry is drawn on the column running to it (a new or free
/// column for a tip); when two columns run to the same parent, the next line
/// joins them (`├─╯`, crossing running columns with `┼`); the parent's row
/// ends its column's line. Returns the ids in the order drawn.
fn check_curved_graph(session: &yoagent::Session, drawing: &str) -> Result<Vec<String>, String> {
    let parent: HashMap<&str, Option<&str>> = session
        .entries()
        .iter()
        .map(|e| (e.id.as_str(), e.parent_id.as_deref()))
        .collect();
    let mut has_children: HashMap<&str, bool> = HashMap::new();
    for e in session.entries() {
        if let Some(p) = &e.parent_id {
            has_children.insert(p.as_str(), true);
        }
    }
    let head = session.head().expect("a head");
    let mut columns: Vec<Option<String>> = Vec::new();
    let mut join: Option<(usize, usize)> = None;
    let mut drawn: Vec<String> = Vec::new();
    // The column of the last row when it was a root's: a gap line may follow.
    let mut root_ended: Option<usize> = None;
    let trim = |columns: &mut Vec<Option<String>>| {
        while columns.last() == Some(&None) {
            columns.pop();
        }
    };
    for (n, line) in drawing.lines().enumerate() {
        let n = n + 1;
        let Some((prefix, id)) = line.split_once('\t') else {
            // A gap after a root: the running columns and nothing else.
            if join.is_none() && root_ended.take().is_some() {
                let want: String = columns
                    .iter()
                    .map(|c| if c.is_some() { "│ " } else { "  " })
                    .collect();
                if line != want.trim_end() {
                    return Err(format!("line {n}: gap {line:?}, expected {want:?}"));
                }
                continue;
            }
            // A connector: the pending join, nothing else.
            let (into, from) = join
                .take()
                .ok_or(format!("line {n}: a connector with no join pending"))?;
            let chars: Vec<char> = line.chars().collect();
            for (k, &c) in chars.iter().enumerate() {
                let col = k / 2;
                let running = columns.get(col).is_some_and(Option::is_some);
                let want = if k % 2 == 1 {
                    if into * 2 < k && k < from * 2 {
                        '─'
                    } else {
                        ' '
                    }
                } else if col == into {
                    '├'
                } else if col == from {
                    '╯'
                } else if into < col && col < from {
                    if running { '┼' } else { '─' }
                } else if running {
                    '│'
                } else {
                    ' '
                };
                if c != want {
                    return Err(format!("line {n}: {c:?} at {k}, expected {want:?}"));
                }
            }
            let last_running = columns.iter().rposition(Option::is_some).unwrap_or(0);
            if chars.len() < 2 * from.max(last_running) + 1 {
                return Err(format!("line {n}: connector cut short"));
            }
            columns[from] = None;
            trim(&mut columns);
            continue;
        };
        if join.is_some() {
            return Err(format!("line {n}: a join was due before this row"));
        }
        let chars: Vec<char> = prefix.chars().collect();
        if chars.len().is_multiple_of(2) || chars.last() != Some(&' ') {
            return Err(format!("line {n}: odd prefix {prefix:?}"));
        }
        let width = chars.len() / 2;
        let glyphs: Vec<usize> = (0..width)
            .filter(|&k| matches!(chars[2 * k], '@' | '○' | '◆'))
            .collect();
        let [at] = glyphs[..] else {
            return Err(format!("line {n}: not one node in {prefix:?}"));
        };
        let p = *parent
            .get(id)
            .ok_or(format!("line {n}: unknown id {id:?}"))?;
        let want_glyph = if id == head {
            '@'
        } else if p.is_none() {
            '◆'
        } else {
            '○'
        };
        if chars[2 * at] != want_glyph {
            return Err(format!("line {n}: {id} drawn as {:?}", chars[2 * at]));
        }
        for k in 0..width.max(columns.len()) {
            let running = columns.get(k).is_some_and(Option::is_some);
            if k >= width {
                if running {
                    return Err(format!("line {n}: column {k} is running but not drawn"));
                }
                continue;
            }
            if k != at && chars[2 * k] != if running { '│' } else { ' ' } {
                return Err(format!("line {n}: column {k} is {:?}", chars[2 * k]));
            }
            if chars[2 * k + 1] != ' ' {
                return Err(format!("line {n}: no gap after column {k}"));
            }
            if k != at && columns[k].as_deref() == Some(id) {
                return Err(format!("line {n}: column {k} still runs to {id}"));
            }
        }
        let was = columns.get(at).cloned().flatten();
        if has_children.contains_key(id) {
            if was.as_deref() != Some(id) {
                return Err(format!(
                    "line {n}: {id} is not where its children's line runs"
                ));
            }
        } else if was.is_some() {
            return Err(format!("line {n}: tip {id} drawn on a running column"));
        }
        if columns.len() <= at {
            columns.resize(at + 1, None);
        }
        columns[at] = p.map(str::to_string);
        root_ended = p.is_none().then_some(at);
        if let Some(p) = p {
            let other = (0..columns.len()).find(|&k| k != at && columns[k].as_deref() == Some(p));
            join = other.map(|o| (at.min(o), at.max(o)));
        }
        trim(&mut columns);
        drawn.push(id.to_string());
    }
    if join.is_some() || !columns.is_empty() {
        return Err(format!("lines still running at the end: {columns:?}"));
    }
    Ok(drawn)
}

/// The ASCII drawing of a curved one: glyph for glyph, except that a join's
/// corner sits in the gap before the joining column (`|/`, not `├─╯`).
fn curved_to_ascii(drawing: &str) -> String {
    let mut out = String::new();
    for line in drawing.lines() {
        let mut chars: Vec<char> = line.chars().collect();
        if let Some(corner) = chars.iter().position(|&c| c == '╯') {
            chars[corner] = ' ';
            chars[corner - 1] = '/';
        }
        let line: String = chars
            .into_iter()
            .map(|c| match c {
                '○' => 'o',
                '◆' => '#',
                '│' | '├' => '|',
                '─' => '-',
                '┼' => '+',
                c => c,
            })
            .collect();
        out.push_str(line.trim_end_matches(' '));
        out.push('\n');
    }
    out
}

#[test]
fn log_graph_draws_every_entry_once_below_its_descendants() {
    let bushy = (0..8u64).map(|seed| {
        let (text, session) = sg::random_tree(seed, 20 + seed as usize * 15);
        (1000 + seed, text, session)
    });
    for (seed, text, session) in sg::corpus().into_iter().chain(bushy) {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let run = dir.run(&["log", "--graph", "--format", "{tab}{id}"]);
        run.status(0);
        let drawn = check_curved_graph(&session, &run.stdout)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{run}"));
        let mut all: Vec<String> = session.entries().iter().map(|e| e.id.clone()).collect();
        let mut once = drawn.clone();
        once.sort();
        all.sort();
        assert_eq!(once, all, "seed {seed}: every entry exactly once\n{run}");
        let row: HashMap<&str, usize> = drawn
            .iter()
            .enumerate()
            .map(|(k, id)| (id.as_str(), k))
            .collect();
        for e in session.entries() {
            if let Some(p) = &e.parent_id {
                assert!(
                    row[e.id.as_str()] < row[p.as_str()],
                    "seed {seed}: {} is drawn above its child {}\n{run}",
                    p,
                    e.id
                );
            }
        }
        assert_eq!(drawn[0], session.head().expect("a head"), "HEAD leads");

        let ascii = dir.run(&["log", "--graph", "--ascii", "--format", "{tab}{id}"]);
        ascii.status(0);
        assert_eq!(
            ascii.stdout,
            curved_to_ascii(&run.stdout),
            "seed {seed}: ascii is the same drawing\n{ascii}"
        );
    }
}

/// `log -n N` of HEAD reads the file from its end; any other revision (even
/// `HEAD~0`, the same entry) reads the whole file. Both must print the same.
#[test]
fn log_n_of_head_read_from_the_end_is_the_same_as_from_the_whole_file() {
    for (seed, text, session) in sg::corpus().into_iter().step_by(3) {
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        let mut rng = Rng::new(seed);
        let n = (1 + rng.below(session.path_ids().len() + 2)).to_string();
        for format in [&["--oneline"][..], &["--json"], &[]] {
            let fast = dir.run(&[&["log", "-n", &n][..], format].concat());
            let whole = dir.run(&[&["log", "-n", &n, "HEAD~0"][..], format].concat());
            fast.status(0);
            assert_eq!(fast.stdout, whole.stdout, "seed {seed}\n{fast}\n{whole}");
        }
        let run = dir.run(&["log", "-n", &n, "--format", "{id}"]);
        let mut path = session.path_ids();
        path.reverse();
        path.truncate(n.parse().expect("a number"));
        assert_eq!(ids(&run), path, "seed {seed}\n{run}");
    }
}

/// `log -n` remembers how far it searched the file for branch records, so
/// that the next run reads only what was appended; a branch made after the
/// memo still decorates, and a memo folder that cannot be made changes
/// nothing.
#[test]
fn log_n_remembers_its_branch_search_and_still_sees_a_branch_made_after() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "session.jsonl");
    let memos = dir.join("memos");
    let memos = memos.to_str().expect("utf-8 path");
    let memo_env = [("YSESS_CACHE_DIR", memos)];
    let log = |env: &[(&str, &str)]| {
        let run = dir.run_with(&["log", "-n", "3"], None, env);
        run.status(0);
        run.stdout
    };
    let whole = || dir.run(&["log", "-n", "3", "HEAD~0"]).stdout;

    assert_eq!(log(&memo_env), whole());
    let memo_files = || std::fs::read_dir(memos).map_or(0, |d| d.count());
    assert_eq!(memo_files(), 1, "one memo for one session");
    assert_eq!(log(&memo_env), whole(), "read with the memo");

    dir.run(&["branch", "feature"]).status(0);
    let decorated = log(&memo_env);
    assert!(decorated.contains("feature"), "{decorated}");
    assert_eq!(decorated, whole());
    assert_eq!(memo_files(), 1);

    // A memo folder under a file: no memo, the same log.
    dir.write("blocker", "");
    let blocked = dir.join("blocker/memos");
    let blocked = [("YSESS_CACHE_DIR", blocked.to_str().expect("utf-8 path"))];
    assert_eq!(log(&blocked), whole());
}

/// Files yoagent loads but does not write: CRLF, blank and white-space
/// lines (Unicode white space too), other key orders, escaped text, unknown
/// fields, explicit nulls. Reading from the end must see them as yoagent
/// does.
#[test]
fn log_n_of_head_reads_any_file_yoagent_loads_from_the_end_alike() {
    let text = sg::saved(&sg::demo());
    let lines: Vec<&str> = text.split('\n').collect();
    let reordered: Vec<String> = lines
        .iter()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            // serde_json's map is sorted: label, message, parent_id, … id.
            let mut out = serde_json::to_string(&v).expect("JSON");
            out = out.replace("\"review\"", "\"rev\\u0069ew\"");
            out
        })
        .collect();
    let extra: Vec<String> = lines
        .iter()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("JSON");
            v["extra"] = serde_json::json!({"id": "bogus", "label": "zzz"});
            if v["parent_id"].is_null() {
                v.as_object_mut().expect("an object").remove("parent_id");
            }
            if v.get("label").is_none() {
                v["label"] = serde_json::Value::Null;
            }
            v.to_string()
        })
        .collect();
    let variants = [
        ("crlf", lines.join("\r\n") + "\r\n"),
        ("trailing blank lines", lines.join("\n") + "\n\n  \t\n"),
        (
            "unicode white space",
            lines.join("\u{a0}\n\u{3000}") + "\n\u{2003}\n",
        ),
        ("reordered and escaped", reordered.join("\n")),
        ("extra fields and nulls", extra.join("\n")),
    ];
    for (what, text) in variants {
        yoagent::Session::from_jsonl(&text).expect("yoagent loads it");
        let dir = Dir::new();
        dir.write("session.jsonl", &text);
        for n in ["1", "3", "9"] {
            for format in [
                &["--oneline"][..],
                &["--format", "{id}|{labels}|{decorations}|{subject}"],
            ] {
                let fast = dir.run(&[&["log", "-n", n][..], format].concat());
                let whole = dir.run(&[&["log", "-n", n, "HEAD~0"][..], format].concat());
                fast.status(0);
                assert_eq!(fast.stdout, whole.stdout, "{what}\n{fast}\n{whole}");
            }
            let fast = dir.run(&["log", "-n", n, "--json"]);
            let whole = dir.run(&["log", "-n", n, "--json", "HEAD~0"]);
            assert_eq!(
                fast.json_lines(),
                whole.json_lines(),
                "{what}\n{fast}\n{whole}"
            );
        }
    }
}

#[test]
fn log_n_0_prints_nothing() {
    let dir = demo();
    dir.run(&["log", "-n", "0", "HEAD~0"]).status(0).stdout("");
    dir.run(&["log", "-n", "0", "--all"]).status(0).stdout("");
    dir.run(&["log", "-n", "0"]).status(0).stdout("");
}

// ---------------------------------------------------------------------------
// What a person sees
// ---------------------------------------------------------------------------

#[test]
fn log_shows_the_path_to_head_newest_first_two_lines_each() {
    demo().run(&["log"]).status(0).stderr("").stdout(
        "\
e10 (HEAD)  custom status_update  2025-10-09 09:02:29 +00:00
    {\"tokens\":1234,\"phase\":\"idle\"}

e9 (review)  user  2025-10-09 09:01:28 +00:00
    Or use serde_json?

e2 (first-draft)  assistant m  2025-10-09 08:54:21 +00:00
    Plan: tokenizer, then parser

e1  user  2025-10-09 08:53:20 +00:00
    Plan a JSON parser
",
    );
}

#[test]
fn log_oneline_shows_one_line_per_entry() {
    demo()
        .run(&["log", "--oneline"])
        .status(0)
        .stderr("")
        .stdout(
            "\
e10 (HEAD) custom status_update: {\"tokens\":1234,\"phase\":\"idle\"}
e9 (review) user: Or use serde_json?
e2 (first-draft) assistant m: Plan: tokenizer, then parser
e1 user: Plan a JSON parser
",
        );
}

#[test]
fn log_n_shows_only_the_newest_n() {
    demo().run(&["log", "-n", "2"]).status(0).stderr("").stdout(
        "\
e10 (HEAD)  custom status_update  2025-10-09 09:02:29 +00:00
    {\"tokens\":1234,\"phase\":\"idle\"}

e9 (review)  user  2025-10-09 09:01:28 +00:00
    Or use serde_json?
",
    );
}

#[test]
fn log_of_a_label_with_a_suffix_starts_that_many_entries_back() {
    let dir = demo();
    dir.run(&["log", "--oneline", "first-draft~1"])
        .status(0)
        .stderr("")
        .stdout("e1 user: Plan a JSON parser\n");
    // The newest carrier of a label is the one it names: e9, not e3.
    dir.run(&["log", "--oneline", "review^"]).status(0).stdout(
        "e2 (first-draft) assistant m: Plan: tokenizer, then parser\n\
             e1 user: Plan a JSON parser\n",
    );
}

#[test]
fn log_graph_draws_forks_of_forks_and_three_children_of_one_entry() {
    demo().run(&["log", "--graph"]).status(0).stderr("").stdout(
        "\
@  e10 (HEAD) custom status_update 2025-10-09 09:02: {\"tokens\":1234,\"phase\":\"idle\"}
○  e9 (review) user 2025-10-09 09:01: Or use serde_json?
│ ○  e8 user 2025-10-09 09:00: Smaller steps, please
│ │ ○  e7 assistant m 2025-10-09 08:59: A streaming plan
│ ├─╯
│ ○  e6 user 2025-10-09 08:58: Stream it instead
├─╯
│ ○  e5 toolResult bash 2025-10-09 08:57: 1 test failed
│ ○  e4 assistant m 2025-10-09 08:56: Running the tests
│ ○  e3 user 2025-10-09 08:55: Write the tokenizer
├─╯
○  e2 (first-draft) assistant m 2025-10-09 08:54: Plan: tokenizer, then parser
◆  e1 user 2025-10-09 08:53: Plan a JSON parser
",
    );
}

#[test]
fn log_graph_ascii_draws_the_same_tree_with_ascii_only() {
    demo()
        .run(&["log", "--graph", "--ascii"])
        .status(0)
        .stderr("")
        .stdout(
            "\
@  e10 (HEAD) custom status_update 2025-10-09 09:02: {\"tokens\":1234,\"phase\":\"idle\"}
o  e9 (review) user 2025-10-09 09:01: Or use serde_json?
| o  e8 user 2025-10-09 09:00: Smaller steps, please
| | o  e7 assistant m 2025-10-09 08:59: A streaming plan
| |/
| o  e6 user 2025-10-09 08:58: Stream it instead
|/
| o  e5 toolResult bash 2025-10-09 08:57: 1 test failed
| o  e4 assistant m 2025-10-09 08:56: Running the tests
| o  e3 user 2025-10-09 08:55: Write the tokenizer
|/
o  e2 (first-draft) assistant m 2025-10-09 08:54: Plan: tokenizer, then parser
#  e1 user 2025-10-09 08:53: Plan a JSON parser
",
        );
}

#[test]
fn log_graph_of_a_revision_draws_only_its_path_and_keeps_extra_lines_in_line() {
    demo()
        .run(&["log", "--graph", "--format", "{id}{n}{subject}", "e8"])
        .status(0)
        .stderr("")
        .stdout(
            "\
○  e8
│  Smaller steps, please
○  e6
│  Stream it instead
○  e2
│  Plan: tokenizer, then parser
◆  e1
   Plan a JSON parser
",
        );
}

#[test]
fn log_format_fills_in_every_placeholder() {
    let run = demo().run(&[
        "log",
        "--all",
        "--format",
        "{id}|{parent}|{role}|{tag}|{subject}|{time}|{ts}|{labels}|{decorations}|{depth}|{line}{tab}{{}.{nul}{n}",
    ]);
    run.status(0).stderr("");
    let rows = [
        "e10|e9|custom|status_update|{\"tokens\":1234,\"phase\":\"idle\"}|2025-10-09T09:02:29.000+00:00|1760000549000||HEAD|4|10",
        "e9|e2|user||Or use serde_json?|2025-10-09T09:01:28.000+00:00|1760000488000|review|review|3|9",
        "e8|e6|user||Smaller steps, please|2025-10-09T09:00:27.000+00:00|1760000427000|||4|8",
        "e7|e6|assistant|m|A streaming plan|2025-10-09T08:59:26.000+00:00|1760000366000|||4|7",
        "e6|e2|user||Stream it instead|2025-10-09T08:58:25.000+00:00|1760000305000|||3|6",
        "e5|e4|toolResult|bash|1 test failed|2025-10-09T08:57:24.000+00:00|1760000244000|||5|5",
        "e4|e3|assistant|m|Running the tests|2025-10-09T08:56:23.000+00:00|1760000183000|||4|4",
        // e3's label `review` is shadowed by e9's: it names e9.
        "e3|e2|user||Write the tokenizer|2025-10-09T08:55:22.000+00:00|1760000122000|||3|3",
        "e2|e1|assistant|m|Plan: tokenizer, then parser|2025-10-09T08:54:21.000+00:00|1760000061000|first-draft|first-draft|2|2",
        "e1||user||Plan a JSON parser|2025-10-09T08:53:20.000+00:00|1760000000000|||1|1",
    ];
    let expected: String = rows.iter().map(|r| format!("{r}\t{{.\0\n\n")).collect();
    run.stdout(&expected);
}

#[test]
fn log_z_ends_each_entry_with_nul_instead_of_a_newline() {
    let dir = demo();
    dir.run(&["log", "-z", "--format", "{id}", "e5"])
        .status(0)
        .stdout("e5\0e4\0e3\0e2\0e1\0");
    dir.run(&["log", "-z", "--oneline", "-n", "2"])
        .status(0)
        .stdout(
            "e10 (HEAD) custom status_update: {\"tokens\":1234,\"phase\":\"idle\"}\0\
             e9 (review) user: Or use serde_json?\0",
        );
}

/// With `-z` a program splits the output on NUL: each piece is one entry,
/// as docs/commands/log.md says ("-z ends each entry with NUL instead of a newline").
#[test]
fn log_z_in_the_default_format_separates_entries_by_nul_alone() {
    let run = demo().run(&["log", "-z", "-n", "2", "HEAD~0"]);
    run.status(0);
    let records: Vec<&str> = run.stdout.split_terminator('\0').collect();
    assert_eq!(
        records,
        [
            "e10 (HEAD)  custom status_update  2025-10-09 09:02:29 +00:00\n    {\"tokens\":1234,\"phase\":\"idle\"}",
            "e9 (review)  user  2025-10-09 09:01:28 +00:00\n    Or use serde_json?",
        ],
        "{:?}",
        run.stdout
    );
}

#[test]
fn log_times_are_shown_in_the_local_zone() {
    let dir = demo();
    dir.run_with(
        &["log", "-n", "1", "--format", "{time}"],
        None,
        &[("TZ", "XYZ-5:30")],
    )
    .status(0)
    .stdout("2025-10-09T14:32:29.000+05:30\n");
}

// ---------------------------------------------------------------------------
// For programs
// ---------------------------------------------------------------------------

/// Each line of a session file, parsed, by id.
fn stored(text: &str) -> HashMap<String, serde_json::Value> {
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            (v["id"].as_str().expect("an id").to_string(), v)
        })
        .collect()
}

#[test]
fn log_json_prints_the_entries_as_stored_in_log_order() {
    let dir = Dir::new();
    let text = sg::saved(&sg::demo());
    dir.write("session.jsonl", &text);
    let lines = stored(&text);
    for (args, order) in [
        (&["log", "--json"][..], &["e10", "e9", "e2", "e1"][..]),
        (
            &["log", "--json", "--reverse", "e5"],
            &["e1", "e2", "e3", "e4", "e5"],
        ),
        (&["log", "--json", "-n", "2", "e8"], &["e8", "e6"]),
        (
            &["log", "--json", "--all"],
            &["e10", "e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"],
        ),
    ] {
        let run = dir.run(args);
        run.status(0).stderr("");
        let expected: Vec<serde_json::Value> = order.iter().map(|id| lines[*id].clone()).collect();
        assert_eq!(run.json_lines(), expected, "{run}");
    }
}

#[test]
fn log_json_with_z_ends_each_entry_with_nul() {
    let dir = Dir::new();
    let text = sg::saved(&sg::demo());
    dir.write("session.jsonl", &text);
    let lines = stored(&text);
    let run = dir.run(&["log", "--json", "-z", "e2"]);
    run.status(0);
    let got: Vec<serde_json::Value> = run
        .stdout
        .strip_suffix('\0')
        .expect("ends with NUL")
        .split('\0')
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(got, vec![lines["e2"].clone(), lines["e1"].clone()], "{run}");
}

/// `--json` promises the entries as stored: numbers come out as written,
/// even when a line is re-encoded to escape a bidi override.
#[test]
fn log_json_keeps_numbers_as_stored_when_it_re_encodes_a_line() {
    let dir = Dir::new();
    for extra in ["plain", "\u{202e}"] {
        let line = sg::numbers_line(extra);
        yoagent::Session::from_jsonl(&line).expect("yoagent loads it");
        dir.write("session.jsonl", &line);
        for args in [
            &["log", "--json"][..],
            &["log", "--json", "--all"],
            &["log", "--json", "-n", "1"],
        ] {
            let run = dir.run(args);
            run.status(0);
            sg::assert_terminal_safe(&run);
            assert_eq!(
                sg::Numbers::of(&run.stdout),
                ("123456789012345678901234567890".into(), "1e3".into()),
                "{args:?} {extra:?}: {:?}",
                run.stdout
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Hostile text
// ---------------------------------------------------------------------------

#[test]
fn log_never_prints_control_or_bidi_characters_from_the_session_raw() {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::hostile());
    let shown = sg::HOSTILE_SHOWN;
    for args in [
        &["log"][..],
        &["log", "--oneline", "e3"],
        &["log", "--all"],
        &["log", "--graph"],
        &["log", "--graph", "--ascii"],
        &[
            "log",
            "--all",
            "--format",
            "{id} {parent} {role} {tag} {subject} {labels} {decorations}",
        ],
    ] {
        let run = dir.run(args);
        run.status(0);
        sg::assert_terminal_safe(&run);
        assert!(
            run.stdout.contains(shown),
            "hostile text is shown escaped: {:?}",
            run.stdout
        );
    }
    // In colour, ysess's own colour codes are the only escapes.
    for args in [
        &["log", "--color", "always"][..],
        &["log", "--color", "always", "--graph"],
    ] {
        let run = dir.run(args);
        run.status(0);
        sg::assert_safe_text("stdout in colour", &sg::without_colours(&run.stdout));
        assert!(run.stdout.contains("\u{1b}[33m"), "{:?}", run.stdout);
    }
    let run = dir.run(&["log", "--oneline", "e3"]);
    assert_eq!(
        run.stdout,
        format!(
            "e3 (L{shown}) toolResult n{shown}: out{shown}\n\
             x{shown} assistant m{shown}: say{shown}\n\
             e1 user: hi{shown}\n"
        ),
        "{:?}",
        run.stdout
    );
}

#[test]
fn log_json_of_hostile_text_is_valid_json_that_carries_it_raw() {
    let dir = Dir::new();
    let text = sg::hostile();
    dir.write("session.jsonl", &text);
    let lines = stored(&text);
    let run = dir.run(&["log", "--json", "--all"]);
    run.status(0);
    sg::assert_terminal_safe(&run);
    let h = sg::HOSTILE;
    let order = [format!("y{h}"), "e3".into(), format!("x{h}"), "e1".into()];
    let expected: Vec<serde_json::Value> = order.iter().map(|id| lines[id].clone()).collect();
    assert_eq!(run.json_lines(), expected);
}

/// JSON allows a carriage return and a tab between tokens; `--json` printed
/// them raw, and a carriage return sends the terminal's cursor back over
/// what was printed.
#[test]
fn log_and_show_json_never_print_a_raw_carriage_return() {
    let dir = Dir::new();
    let e1 = crate::support::user_line("e1", None, "a\rb\tc").replacen(',', ",\r", 1);
    let e2 = crate::support::user_line("e2", Some("e1"), "d\re").replace(',', ",\t\r");
    let text = format!("{e1}\n{e2}");
    yoagent::Session::from_jsonl(&text).expect("yoagent loads it");
    dir.write("session.jsonl", &text);
    let lines = stored(&text.replace(['\r', '\t'], " "));
    for args in [
        &["log", "--json"][..],
        &["log", "--json", "-n", "1"],
        &["log", "--json", "--all"],
        &["show", "--json", "e1"],
    ] {
        let run = dir.run(args);
        run.status(0).stderr("");
        assert!(
            !run.stdout.contains(['\r', '\t']),
            "raw control characters in {:?}",
            run.stdout
        );
        for got in run.json_lines() {
            let id = got["id"].as_str().expect("an id");
            assert_eq!(got, lines[id], "{run}");
            assert!(got.to_string().contains(r"\r"), "the text keeps its \\r");
        }
    }
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

#[test]
fn log_refuses_a_file_fsck_rejects_and_points_to_fsck() {
    let dir = Dir::new();
    let text = [
        crate::support::user_line("e1", None, "a"),
        crate::support::user_line("e2", Some("e1"), "b"),
        crate::support::user_line("e2", Some("e1"), "again"),
        crate::support::user_line("e4", Some("e9"), "dangling"),
    ]
    .join("\n");
    dir.write("broken.jsonl", &text);
    dir.run(&["log", "-f", "broken.jsonl"])
        .status(128)
        .stdout("")
        .stderr(
            "error: broken.jsonl: not a valid session: line 3: duplicateId: entry e2 already defined at line 2 (and 1 more)\n\
             hint: `ysess fsck broken.jsonl` lists every problem\n",
        );
}

#[test]
fn log_reverse_with_graph_is_a_usage_error() {
    let run = demo().run(&["log", "--reverse", "--graph"]);
    run.status(2).stdout("");
    assert!(
        run.stderr
            .starts_with("error: the argument '--reverse' cannot be used with '--graph'\n"),
        "{run}"
    );
}

#[test]
fn format_help_lists_the_placeholders_instead_of_pointing_to_the_readme() {
    let dir = demo();
    let help = dir.run(&["log", "--help"]);
    help.status(0);
    assert!(!help.stdout.contains("README"), "{help}");
    let man = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man/ysess-log.1"),
    )
    .expect("the log man page");
    for name in [
        "id",
        "parent",
        "role",
        "tag",
        "subject",
        "time",
        "ts",
        "labels",
        "decorations",
        "depth",
        "line",
        "n",
        "tab",
        "nul",
    ] {
        let placeholder = format!("{{{name}}}");
        assert!(
            help.stdout.contains(&format!("  {placeholder} ")),
            "--help lacks {placeholder}\n{help}"
        );
        assert!(
            man.contains(&placeholder),
            "the man page lacks {placeholder}"
        );
        // Each one listed works.
        dir.run(&["log", "-n", "1", "--format", &placeholder])
            .status(0)
            .stderr("");
    }
}

#[test]
fn log_format_with_an_unknown_placeholder_is_a_usage_error() {
    let dir = demo();
    dir.run(&["log", "--format", "{id} {bogus}"])
        .status(2)
        .stdout("")
        .stderr(
            "error: --format: unknown placeholder {bogus}; known: {id} {short_id} {parent} {role} {tag} \
             {subject} {time} {ts} {labels} {decorations} {depth} {line} {tokens_in} {tokens_out} \
             {cost} {n} {tab} {nul} {{}\n",
        );
    dir.run(&["log", "--format", "{id"])
        .status(2)
        .stdout("")
        .stderr("error: --format: `{` without `}` in '{id'\n");
}

#[test]
fn log_of_an_unknown_revision_is_fatal_with_a_suggestion() {
    demo()
        .run(&["log", "frist-draft~1"])
        .status(128)
        .stdout("")
        .stderr(
            "error: unknown revision 'frist-draft'\n\
             hint: did you mean 'first-draft~1'?\n",
        );
}

#[test]
fn log_past_the_root_says_how_far_back_the_root_is() {
    demo().run(&["log", "e5~7"]).status(128).stdout("").stderr(
        "error: 'e5~7' goes past the root: e5 has only 4 ancestors\n\
             hint: the root is e1 (e5~4)\n",
    );
}

// ---------------------------------------------------------------------------
// Pipes
// ---------------------------------------------------------------------------

#[test]
fn a_closed_pipe_ends_log_quietly_with_0() {
    use std::io::Read;
    use std::process::{Command, Stdio};

    let dir = Dir::new();
    // About 1 MB of log output: more than any pipe and output buffer hold.
    let long = "word ".repeat(60);
    let mut lines = vec![crate::support::user_line("e1", None, &long)];
    for i in 2..=4000 {
        let parent = format!("e{}", if i % 7 == 0 { i / 2 } else { i - 1 });
        lines.push(crate::support::user_line(
            &format!("e{i}"),
            Some(&parent),
            &long,
        ));
    }
    dir.write("session.jsonl", lines.join("\n"));
    for args in [
        &["log", "--all"][..],
        &["log", "--graph"],
        &["log", "--json", "--all"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ysess"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("YSESS_PAGER")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("ysess starts");
        let mut first = [0u8; 64];
        child
            .stdout
            .as_mut()
            .expect("piped")
            .read_exact(&mut first)
            .expect("some output");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("ysess ends");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

#[test]
fn an_empty_session_was_shown_with_exit_0_though_the_exit_table_says_128() {
    let dir = Dir::new();
    dir.write("session.jsonl", "");
    for (args, what) in [
        (&["log"][..], "it has no entry to show"),
        (&["log", "-n", "3"], "it has no entry to show"),
        (&["log", "--graph"], "it has no entry to show"),
        (&["stats"], "it has no entry to account for"),
        (&["export"], "it has no entry to export"),
        (&["export", "--session"], "it has no entry to export"),
        (&["export", "--markdown"], "it has no entry to export"),
        (&["export", "--html"], "it has no entry to export"),
        (&["show"], "'HEAD' names no entry"),
    ] {
        dir.run(args)
            .status(128)
            .stdout("")
            .stderr(&format!("error: the session is empty: {what}\n"));
    }
    // Listings of what there is list nothing, as git's do.
    for args in [&["branch"][..], &["tag"], &["reflog"]] {
        dir.run(args).status(0).stdout("");
    }
}

#[test]
fn log_all_with_a_rev_and_ascii_without_graph_are_refused_not_ignored() {
    let dir = crate::support::demo();
    let run = dir.run(&["log", "--all", "e6"]);
    run.status(2).stdout("");
    assert!(
        run.stderr.starts_with(
            "error: --all cannot be used with a REV: it lists every entry of every branch\n"
        ),
        "{run}"
    );
    let run = dir.run(&["log", "--ascii"]);
    run.status(2).stdout("");
    assert!(
        run.stderr
            .starts_with("error: the following required arguments were not provided:\n  --graph\n"),
        "{run}"
    );
    // Each alone, or --ascii with --graph, still works.
    dir.run(&["log", "--all"]).status(0);
    dir.run(&["log", "--graph", "--ascii"]).status(0);
}

#[test]
fn log_n_lists_an_entrys_own_label_and_a_tag_record_in_the_order_log_does() {
    let dir = crate::support::demo();
    // e8 carries `library` itself; `tag aaa e8` adds a record naming it.
    dir.run(&["tag", "-q", "aaa", "e8"]).status(0);
    let whole = dir.run(&["log", "--oneline"]);
    let tail = dir.run(&["log", "--oneline", "-n", "3"]);
    let e8 = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("e8 "))
            .map(str::to_string)
    };
    assert_eq!(e8(&tail.stdout), e8(&whole.stdout), "{tail}");
    assert!(tail.stdout.contains("e8 (aaa, library) "), "{tail}");
}

#[test]
fn long_ids_show_as_their_shortest_unique_prefix_and_json_keeps_them_whole() {
    let dir = Dir::new();
    let lines = [
        crate::support::user_line("3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b", None, "root"),
        crate::support::user_line(
            "3f2a9c1b-0d4f-4000-8000-000000000000",
            Some("3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b"),
            "shares eleven characters with the root",
        ),
        crate::support::user_line(
            "7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd",
            Some("3f2a9c1b-0d4f-4000-8000-000000000000"),
            "alone in its first eight",
        ),
    ];
    dir.write("session.jsonl", lines.join("\n"));
    // Read from the end of the file (`-n`) or whole, the same ids.
    for args in [&["log", "--oneline"][..], &["log", "--oneline", "-n", "3"]] {
        dir.run(args).status(0).stdout(
            "7c1d2e3f (HEAD) user: alone in its first eight\n\
             3f2a9c1b-0d4f user: shares eleven characters with the root\n\
             3f2a9c1b-0d4e user: root\n",
        );
    }
    let run = dir.run(&["log", "--json", "-n", "1"]);
    assert_eq!(
        run.json_lines()[0]["id"],
        "7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd",
        "{run}"
    );
    dir.run(&["log", "--format", "{short_id} {id}", "-n", "1"])
        .status(0)
        .stdout("7c1d2e3f 7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd\n");
    // What log prints resolves.
    dir.run(&["log", "--format", "{subject}", "-n", "1", "3f2a9c1b-0d4f"])
        .status(0)
        .stdout("shares eleven characters with the root\n");
}
