//! `export --parquet`: the tables, read by DuckDB (pinned in
//! `tests/duckdb/requirements.txt`, in the virtual environment
//! `tests/duckdb/.venv` that `.ci/run` makes; the tests make it once when
//! it is missing, and fail rather than skip under CI), add up to what
//! `ysess stats --json` says of each session, in every format; an
//! incremental export plus the first equals one full export; and every
//! column has the type the manual documents (docs/tables.md).

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::support::{Dir, Group, Run, fixture, missing, python_venv};

const DUCKDB: Group = Group {
    name: "duckdb",
    enable: "python3 -m venv tests/duckdb/.venv && tests/duckdb/.venv/bin/pip install -r tests/duckdb/requirements.txt",
};

fn python() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/duckdb/.venv/bin/python")
}

/// Why DuckDB cannot run here, if it cannot; where its environment is not
/// made yet, makes it first (once per run), as `.ci/run` does.
fn duckdb_missing() -> Option<String> {
    static SET_UP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SET_UP
        .get_or_init(|| {
            let works = || {
                Command::new(python())
                    .args(["-c", "import duckdb"])
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            python_venv(
                &DUCKDB,
                "duckdb",
                works,
                "DuckDB's Python package is not installed in tests/duckdb/.venv",
            )
        })
        .clone()
}

/// The rows of `sql` over the tables in `out` (views `entries`, `tree`,
/// `sessions`).
fn query(out: &Path, sql: &str) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/duckdb/query.py");
    let run = Command::new(python())
        .arg(script)
        .arg(out)
        .arg(sql)
        .output()
        .expect("python starts");
    assert!(
        run.status.success(),
        "duckdb: {sql}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_slice::<Vec<Value>>(&run.stdout).expect("the rows as JSON")
}

/// A folder of sessions of every format: yoagent's, pi's (written by pi),
/// Claude Code's (one with a subagent in its own file) and Codex's (two
/// written by Codex itself).
fn home() -> Option<(Dir, Vec<PathBuf>, Option<Dir>)> {
    let dir = Dir::new();
    let sessions = dir.join("sessions");
    for sub in ["yoagent", "pi", "claude/delegates/subagents", "codex"] {
        std::fs::create_dir_all(sessions.join(sub)).expect("a folder");
    }
    let mut files = Vec::new();
    for (from, to) in [
        ("demo.jsonl", "yoagent/demo.jsonl"),
        ("medium.jsonl", "yoagent/medium.jsonl"),
        ("small-forked.jsonl", "yoagent/small-forked.jsonl"),
        ("pi/v2.jsonl", "pi/v2.jsonl"),
        ("claude/session.jsonl", "claude/session.jsonl"),
        ("claude/today.jsonl", "claude/today.jsonl"),
        ("claude/compacted.jsonl", "claude/compacted.jsonl"),
        ("claude/delegates.jsonl", "claude/delegates.jsonl"),
        ("codex/rollout.jsonl", "codex/rollout.jsonl"),
        // Real Codex: a call's token_count before its items, and after.
        (
            "codex/codex-0.42.0-tools.jsonl",
            "codex/codex-0.42.0-tools.jsonl",
        ),
        (
            "codex/codex-0.169.0-tools.jsonl",
            "codex/codex-0.169.0-tools.jsonl",
        ),
    ] {
        std::fs::copy(fixture(from), sessions.join(to)).expect("copies");
        files.push(sessions.join(to));
    }
    std::fs::copy(
        fixture("claude/delegates/subagents/agent-a3f9c2e1.jsonl"),
        sessions.join("claude/delegates/subagents/agent-a3f9c2e1.jsonl"),
    )
    .expect("copies");
    let pi = match crate::pi::pi_session(7) {
        Some((pi_dir, _)) => {
            std::fs::copy(pi_dir.join("7.jsonl"), sessions.join("pi/7.jsonl")).expect("copies");
            files.push(sessions.join("pi/7.jsonl"));
            Some(pi_dir)
        }
        None => None,
    };
    Some((dir, files, pi))
}

fn export(dir: &Dir, args: &[&str]) -> Run {
    let mut all = vec!["export", "--parquet"];
    all.extend_from_slice(args);
    dir.run(&all)
}

fn num(v: &Value) -> f64 {
    match v {
        Value::Null => 0.0,
        Value::Number(n) => n.as_f64().expect("a number"),
        Value::String(s) => s.parse().expect("a number as text"),
        v => panic!("not a number: {v}"),
    }
}

/// Tokens in/out/cache read/cache write and cost of a `stats --json` group.
fn figures(group: &Value) -> [f64; 5] {
    let t = &group["tokens"];
    [
        num(&t["input"]),
        num(&t["output"]),
        num(&t["cache_read"]),
        num(&t["cache_write"]),
        num(&group["cost"]),
    ]
}

fn row_figures(row: &Value) -> [f64; 5] {
    [
        num(&row["i"]),
        num(&row["o"]),
        num(&row["r"]),
        num(&row["w"]),
        num(&row["c"]),
    ]
}

fn same(a: [f64; 5], b: [f64; 5]) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9)
}

const SUMS: &str = "sum(tokens_in) i, sum(tokens_out) o, sum(cache_read) r, \
                    sum(cache_write) w, sum(cost) c, count_if(turn) turns";

#[test]
fn group_by_session_day_and_model_equals_stats_json_in_every_format() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let Some((dir, files, _pi)) = home() else {
        return;
    };
    export(&dir, &["out", "sessions"]).status(0).stdout("");
    let out = dir.join("out");
    let sessions = query(&out, "SELECT session, file FROM sessions ORDER BY file");
    assert_eq!(sessions.len(), files.len(), "{sessions:?}");
    let agents = query(&out, "SELECT DISTINCT agent FROM entries ORDER BY agent");
    assert_eq!(
        agents,
        ["claude", "codex", "pi", "yoagent"]
            .map(|a| serde_json::json!({ "agent": a }))
            .to_vec()
    );
    for s in &sessions {
        let file = s["file"].as_str().expect("a file");
        let id = s["session"].as_str().expect("an id").replace('\'', "''");
        let stats = |by: &[&str]| {
            let mut args = vec!["-f", file, "stats", "--json"];
            args.extend_from_slice(by);
            dir.run(&args).status(0).json_lines()
        };
        // The session's total.
        let total = stats(&[]).pop().expect("a total");
        let rows = query(
            &out,
            &format!("SELECT {SUMS} FROM entries WHERE session = '{id}'"),
        );
        assert!(
            same(row_figures(&rows[0]), figures(&total)),
            "{file}: {:?} against stats {total}",
            rows[0]
        );
        assert_eq!(
            num(&rows[0]["turns"]),
            num(&total["turns"]["assistant"]),
            "{file}"
        );
        // By day (UTC), and by model.
        for (by, key) in [("day", "CAST(day AS VARCHAR)"), ("model", "model")] {
            let groups = stats(&["--by", by]);
            let groups: Vec<&Value> = groups.iter().filter(|g| g["type"] == by).collect();
            let rows = query(
                &out,
                &format!(
                    "SELECT {key} k, {SUMS} FROM entries WHERE session = '{id}' \
                     GROUP BY k HAVING count_if(turn) > 0 ORDER BY k"
                ),
            );
            let used: Vec<&&Value> = groups
                .iter()
                .filter(|g| g["turns"]["assistant"].as_u64() > Some(0))
                .collect();
            assert_eq!(rows.len(), used.len(), "{file} by {by}: {rows:?}");
            for (row, group) in rows.iter().zip(used) {
                assert_eq!(row["k"], group["name"], "{file} by {by}");
                assert!(
                    same(row_figures(row), figures(group)),
                    "{file} by {by} {}: {row:?} against {group}",
                    group["name"]
                );
            }
        }
        // Tool errors, by tool, as stats counts them.
        let tools = query(
            &out,
            &format!(
                "SELECT tool, count(*) FILTER (WHERE is_error) errors FROM entries \
                 WHERE session = '{id}' AND tool IS NOT NULL GROUP BY tool \
                 HAVING errors > 0 ORDER BY tool"
            ),
        );
        let want: Vec<Value> = total["tools"]
            .as_array()
            .expect("tools")
            .iter()
            .filter(|t| t["errors"].as_u64() > Some(0))
            .map(|t| serde_json::json!({ "tool": t["name"], "errors": t["errors"] }))
            .collect();
        assert_eq!(tools, want, "{file}");
    }
    // The sessions table says what `ls --json` says.
    let listed = dir
        .run_with(
            &["ls", "--json", "sessions"],
            None,
            &[("HOME", dir.path().to_str().expect("UTF-8"))],
        )
        .status(0)
        .json_lines();
    for l in listed.iter().filter(|l| l["type"] == "session") {
        let path = l["path"].as_str().expect("a path");
        let rows = query(
            &out,
            &format!(
                "SELECT session, agent, entries, branches, tokens_in, cost, epoch_ms(last) last \
                 FROM sessions WHERE file = '{}'",
                path.replace('\'', "''")
            ),
        );
        assert_eq!(rows.len(), 1, "{path}");
        let r = &rows[0];
        assert_eq!(r["session"], l["id"], "{path}");
        assert_eq!(r["agent"], l["agent"], "{path}");
        assert_eq!(r["entries"], l["entries"], "{path}");
        assert_eq!(r["branches"], l["branches"], "{path}");
        assert_eq!(r["tokens_in"], l["tokens"]["input"], "{path}");
        assert_eq!(r["last"], l["last"], "{path}");
    }
    // The subagent's turns are in its session's rows, named.
    let sub = query(
        &out,
        "SELECT DISTINCT subagent FROM entries WHERE file LIKE '%subagents%'",
    );
    assert_eq!(sub, vec![serde_json::json!({ "subagent": "a3f9c2e1" })]);
}

/// The first `keep` lines of each file, the rest returned to be appended.
fn cut(files: &[PathBuf], keep: f64) -> Vec<(PathBuf, Vec<u8>)> {
    files
        .iter()
        .map(|f| {
            let bytes = std::fs::read(f).expect("reads");
            let lines: Vec<&[u8]> = bytes.split_inclusive(|&b| b == b'\n').collect();
            let n = ((lines.len() as f64) * keep).ceil() as usize;
            let head: Vec<u8> = lines[..n].concat();
            let rest: Vec<u8> = lines[n..].concat();
            std::fs::write(f, head).expect("writes");
            (f.clone(), rest)
        })
        .collect()
}

fn append(rest: &[(PathBuf, Vec<u8>)]) {
    for (f, bytes) in rest {
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(f)
            .expect("opens");
        file.write_all(bytes).expect("appends");
    }
}

/// Every table's rows, in one order, as DuckDB reads them.
fn tables(out: &Path) -> Vec<Vec<Value>> {
    [
        "SELECT * FROM entries ORDER BY file, line",
        "SELECT * FROM tree ORDER BY file, entry",
        "SELECT * FROM sessions ORDER BY file",
    ]
    .iter()
    .map(|sql| query(out, sql))
    .collect()
}

#[test]
fn an_incremental_export_after_the_first_equals_one_full_export() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let Some((dir, mut files, _pi)) = home() else {
        return;
    };
    files.push(dir.join("sessions/claude/delegates/subagents/agent-a3f9c2e1.jsonl"));
    // The sessions as they were: about half of each file.
    let rest = cut(&files, 0.5);
    export(&dir, &["first", "sessions", "--manifest", "first.manifest"]).status(0);
    // They grow; one is tagged (a label, which changes the tree table).
    append(&rest);
    dir.run(&[
        "-f",
        "sessions/yoagent/medium.jsonl",
        "tag",
        "reviewed",
        "HEAD~1",
    ])
    .status(0);
    let grown = export(
        &dir,
        &[
            "first",
            "sessions",
            "--since-manifest",
            "first.manifest",
            "--manifest",
            "second.manifest",
        ],
    );
    grown.status(0);
    assert!(grown.stderr.contains("exported"), "{}", grown.stderr);
    export(&dir, &["full", "sessions"]).status(0);
    let (incremental, full) = (tables(&dir.join("first")), tables(&dir.join("full")));
    assert!(full[0].len() > 100, "{} entry rows", full[0].len());
    for (i, name) in ["entries", "tree", "sessions"].iter().enumerate() {
        assert_eq!(incremental[i].len(), full[i].len(), "{name}: rows");
        for (a, b) in incremental[i].iter().zip(&full[i]) {
            assert_eq!(a, b, "{name}");
        }
    }
    let labels = query(
        &dir.join("first"),
        "SELECT count(*) n FROM tree WHERE list_contains(labels, 'reviewed')",
    );
    assert_eq!(labels[0]["n"], 1);
    // Nothing grew since the second manifest: nothing is written.
    let again = export(
        &dir,
        &["first", "sessions", "--since-manifest", "second.manifest"],
    );
    again.status(0);
    assert!(again.stderr.contains("unchanged"), "{}", again.stderr);
    assert_eq!(tables(&dir.join("first")), incremental);
}

#[test]
fn an_export_since_a_manifest_refuses_a_session_whose_history_was_rewritten() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("s")).expect("a folder");
    let medium = dir.join("s/medium.jsonl");
    std::fs::copy(fixture("medium.jsonl"), &medium).expect("copies");
    std::fs::copy(fixture("demo.jsonl"), dir.join("s/demo.jsonl")).expect("copies");
    export(&dir, &["out", "s", "--manifest", "m"]).status(0);
    let before = tables(&dir.join("out"));
    // A byte of an old line changed in place.
    let mut bytes = std::fs::read(&medium).expect("reads");
    let at = bytes.windows(4).position(|w| w == b"text").expect("text");
    bytes[at + 10] = if bytes[at + 10] == b'a' { b'b' } else { b'a' };
    std::fs::write(&medium, &bytes).expect("writes");
    let run = export(&dir, &["out", "s", "--since-manifest", "m"]);
    run.status(128);
    assert!(
        run.stderr.contains("s/medium.jsonl") && run.stderr.contains("history rewritten"),
        "{}",
        run.stderr
    );
    assert_eq!(tables(&dir.join("out")), before, "nothing of it exported");
}

/// The manual's table of a table's columns (docs/tables.md): (name,
/// DuckDB type).
fn documented(table: &str) -> Vec<(String, String)> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tables.md"))
            .expect("docs/tables.md reads");
    let header = format!("| `{table}` column | type |");
    let start = readme
        .find(&header)
        .unwrap_or_else(|| panic!("docs/tables.md documents the {table} table"));
    readme[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                cells[1].trim_matches('`').to_string(),
                cells[2].trim_matches('`').to_string(),
            )
        })
        .collect()
}

#[test]
fn every_column_has_the_type_the_readme_documents() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("s")).expect("a folder");
    for (from, to) in [
        ("demo.jsonl", "s/demo.jsonl"),
        ("claude/session.jsonl", "s/session.jsonl"),
    ] {
        std::fs::copy(fixture(from), dir.join(to)).expect("copies");
    }
    export(&dir, &["out", "s"]).status(0);
    for table in ["entries", "tree", "sessions"] {
        let described: Vec<(String, String)> =
            query(&dir.join("out"), &format!("DESCRIBE {table}"))
                .iter()
                .map(|r| {
                    (
                        r["column_name"].as_str().expect("a name").to_string(),
                        r["column_type"].as_str().expect("a type").to_string(),
                    )
                })
                .collect();
        assert_eq!(described, documented(table), "{table}");
    }
}

#[test]
fn session_text_in_the_tables_is_escaped() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("s")).expect("a folder");
    dir.write(
        "s/hostile.jsonl",
        concat!(
            r#"{"id":"e1","parent_id":null,"message":{"role":"user","content":[{"type":"text","text":"\u001b[31mred\u202e evil\u0007"}],"timestamp":1764666000000},"timestamp":1764666000000}"#,
            "\n"
        ),
    );
    export(&dir, &["out", "s"]).status(0);
    let rows = query(
        &dir.join("out"),
        "SELECT subject, text_len, title FROM entries JOIN sessions USING (session)",
    );
    assert_eq!(rows.len(), 1);
    let subject = rows[0]["subject"].as_str().expect("a subject");
    assert_eq!(subject, r"\u{1b}[31mred\u{202e} evil\u{7}");
    assert_eq!(rows[0]["title"].as_str(), Some(subject));
    assert_eq!(rows[0]["text_len"], 15);
}

#[test]
fn an_export_names_what_it_cannot_read_and_exports_the_rest() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("s")).expect("a folder");
    std::fs::copy(fixture("demo.jsonl"), dir.join("s/demo.jsonl")).expect("copies");
    dir.write("s/bad.jsonl", "{\"id\":\"e1\",\"parent_id\":\"nope\"}\n");
    let run = export(&dir, &["out", "s"]);
    run.status(128);
    assert!(run.stderr.contains("s/bad.jsonl"), "{}", run.stderr);
    assert!(run.stderr.contains("exported 1 sessions"), "{}", run.stderr);
    assert!(dir.join("out/sessions/agent=yoagent").is_dir());
    // Nothing half-written is left behind under a temporary name.
    let hidden = walk(&dir.join("out"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .count();
    assert_eq!(hidden, 0);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    for e in std::fs::read_dir(dir)
        .expect("reads")
        .filter_map(Result::ok)
    {
        let p = e.path();
        if p.is_dir() {
            all.extend(walk(&p));
        } else {
            all.push(p);
        }
    }
    all
}

/// The sessions of [`home`] exported into `out`, and its tables; `None`
/// when DuckDB (which reads them) is missing.
fn exported_once() -> Option<(Dir, Vec<Vec<Value>>)> {
    if let Some(why) = duckdb_missing() {
        missing(&DUCKDB, &why);
        return None;
    }
    let (dir, _files, _pi) = home()?;
    export(&dir, &["out", "sessions"]).status(0);
    let once = tables(&dir.join("out"));
    Some((dir, once))
}

#[test]
fn an_export_run_twice_into_one_folder_doubled_its_rows() {
    let Some((dir, once)) = exported_once() else {
        return;
    };
    assert!(once[0].len() > 100, "{} entry rows", once[0].len());
    // Again, and twice at once: the folder's ledger says what it holds.
    let again = export(&dir, &["out", "sessions"]);
    again.status(0);
    assert!(again.stderr.contains("0 entry rows"), "{}", again.stderr);
    // Both started before either ends.
    let both: Vec<_> = (0..2)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_ysess"))
                .args(["export", "--parquet", "out", "sessions"])
                .current_dir(dir.path())
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("ysess starts")
        })
        .collect();
    let both: Vec<_> = both
        .into_iter()
        .map(|child| child.wait_with_output().expect("ysess ends"))
        .collect();
    for out in &both {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert_eq!(tables(&dir.join("out")), once);
}

#[test]
fn a_run_that_did_not_reach_its_commit_left_parts_the_next_run_counted_again() {
    let Some((dir, once)) = exported_once() else {
        return;
    };
    // What a run killed between its part files and its commit leaves: a
    // part file of its own (a copy of one, under its run's name) and a
    // temporary file.
    let part = walk(&dir.join("out/entries"))
        .into_iter()
        .find(|p| p.extension().is_some_and(|x| x == "parquet"))
        .expect("a part file");
    let stray = part.with_file_name("part-20261206T000000000Z-99999-0.parquet");
    std::fs::copy(&part, &stray).expect("copied");
    let temporary = dir.join("out/tree/.part-x.parquet.99999.tmp");
    std::fs::create_dir_all(temporary.parent().expect("a folder")).expect("a folder");
    std::fs::write(&temporary, b"half").expect("written");
    assert_ne!(
        tables(&dir.join("out")),
        once,
        "the stray part counts until removed"
    );
    let next = export(&dir, &["out", "sessions"]);
    next.status(0);
    assert!(next.stderr.contains("removed 2 files"), "{}", next.stderr);
    assert!(!stray.exists() && !temporary.exists());
    assert_eq!(tables(&dir.join("out")), once);
}

#[test]
fn a_folder_exported_into_before_ledgers_is_refused_unless_its_manifest_is_given() {
    let Some((dir, _files, _pi)) = home() else {
        return;
    };
    export(&dir, &["out", "sessions", "--manifest", "m"]).status(0);
    // A folder as an older ysess left it: part files, no ledger.
    std::fs::remove_dir_all(dir.join("out/.ysess")).expect("removed");
    let run = export(&dir, &["out", "sessions"]);
    run.status(128);
    assert!(run.stderr.contains("would add their rows again"), "{run}");
    let adopted = export(&dir, &["out", "sessions", "--since-manifest", "m"]);
    adopted.status(0);
    assert!(adopted.stderr.contains("0 entry rows"), "{adopted}");
    export(&dir, &["out", "sessions"]).status(0);
}

#[test]
fn a_nightly_run_from_a_manifest_older_than_the_folder_added_its_rows_again() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let Some((dir, files, _pi)) = home() else {
        return;
    };
    let rest = cut(&files, 0.5);
    export(&dir, &["out", "sessions", "--manifest", "night1"]).status(0);
    append(&rest);
    // The second night wrote its manifest, then was killed before the
    // `&& mv`: the third night starts from the first night's manifest.
    export(
        &dir,
        &[
            "out",
            "sessions",
            "--since-manifest",
            "night1",
            "--manifest",
            "night2",
        ],
    )
    .status(0);
    export(&dir, &["out", "sessions", "--since-manifest", "night1"]).status(0);
    export(&dir, &["full", "sessions"]).status(0);
    assert_eq!(tables(&dir.join("out")), tables(&dir.join("full")));
}

// `export --parquet --redact`: the planted corpus of `redact.rs`, in every
// text column the tables have.

use crate::planted::{
    AWS, EMAIL, ENV, GCP, GITHUB, GITLAB, JWT, KEY_BODY, OPENAI, PASSWORD, SLACK, anthropic,
    planted,
};

/// A pi session, in a file named after its user, with a planted secret in
/// every text column of the tables: the session's id and project, entry
/// ids (and so parents, roots, fork points, HEAD), subjects, the title,
/// a model, a tool, a tool call's id, a custom record's kind, a label; and
/// a secret where a subject is cut at 200 characters.
fn leaky_pi(dir: &Dir) -> PathBuf {
    let t = |s: u32| format!("2026-12-01T10:00:{s:02}.000Z");
    let key = format!(
        "-----BEGIN RSA PRIVATE KEY-----{}-----END RSA PRIVATE KEY-----",
        KEY_BODY.repeat(4)
    );
    let long = format!("{} {GITHUB} and more", "word ".repeat(38));
    let lines = [
        serde_json::json!({"type": "session", "version": 3, "id": "ACME-7731-s",
            "timestamp": t(0), "cwd": "/home/dana/work"}),
        serde_json::json!({"type": "message", "id": "ACME-1", "parentId": null, "timestamp": t(1),
            "message": {"role": "user", "timestamp": 1,
            "content": format!("Deploy with {AWS}; mail {EMAIL}, {GITLAB} in /home/dana/work")}}),
        serde_json::json!({"type": "message", "id": "e2", "parentId": "ACME-1", "timestamp": t(2),
            "message": {"role": "assistant", "model": "gpt-ACME-3", "provider": "p",
            "content": [{"type": "toolCall", "id": "call-ACME-2", "name": "bash",
                "arguments": {"command": format!("curl -H 'Bearer {OPENAI}'")}}],
            "usage": {"input": 1, "output": 1}, "stopReason": "toolUse", "timestamp": 2}}),
        serde_json::json!({"type": "message", "id": "e3", "parentId": "e2", "timestamp": t(3),
            "message": {"role": "toolResult", "toolCallId": "call-ACME-2", "toolName": "dana-tool",
            "content": [{"type": "text", "text": format!("{SLACK} {GITHUB}\nmore")}],
            "isError": false, "timestamp": 3}}),
        serde_json::json!({"type": "message", "id": "e4", "parentId": "ACME-1", "timestamp": t(4),
            "message": {"role": "assistant", "model": "m", "provider": "p",
            "content": [{"type": "text", "text": key}],
            "usage": {"input": 1, "output": 1}, "stopReason": "stop", "timestamp": 4}}),
        serde_json::json!({"type": "label", "id": "e5", "parentId": "e4", "timestamp": t(5),
            "targetId": "e4", "label": format!("DB_PASSWORD={PASSWORD}")}),
        serde_json::json!({"type": "custom_message", "id": "e6", "parentId": "e5", "timestamp": t(6),
            "customType": "ACME-9", "content": format!("key: {GCP} {JWT}"), "display": true}),
        serde_json::json!({"type": "message", "id": "e7", "parentId": "e6", "timestamp": t(7),
            "message": {"role": "user", "timestamp": 7, "content": long}}),
        serde_json::json!({"type": "session_info", "id": "e8", "parentId": "e7", "timestamp": t(8),
            "name": format!("Ask {}", anthropic())}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    dir.write("dana.jsonl", text)
}

/// `export --parquet out FILE --redact …` in `dir`, as the tests' user.
fn redacted(dir: &Dir, out: &str, extra: &[&str]) -> Run {
    let mut args = vec!["export", "--parquet", out, "dana.jsonl"];
    args.extend_from_slice(extra);
    dir.run_with(&args, None, ENV)
}

/// Every text of every row (list items too) of the tables in `out`.
fn every_text(out: &Path) -> Vec<String> {
    fn texts(v: &Value, into: &mut Vec<String>) {
        match v {
            Value::String(s) => into.push(s.clone()),
            Value::Array(a) => a.iter().for_each(|v| texts(v, into)),
            Value::Object(m) => m.values().for_each(|v| texts(v, into)),
            _ => {}
        }
    }
    let mut all = Vec::new();
    for rows in tables(out) {
        rows.iter().for_each(|r| texts(r, &mut all));
    }
    all
}

#[test]
fn no_planted_secret_survives_in_any_column_of_a_redacted_parquet_export() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    leaky_pi(&dir);
    let run = redacted(
        &dir,
        "out",
        &["--redact", "--redact-pattern", "ACME-[0-9]+"],
    );
    run.status(0);
    let texts = every_text(&dir.join("out")).join("\n");
    for (secret, kind) in planted() {
        assert!(
            !texts.contains(&secret),
            "{kind} {secret:?} survives:\n{texts}"
        );
        assert!(
            texts.contains(&format!("[redacted: {kind}]")),
            "no {kind} redacted:\n{texts}"
        );
    }
    // Nor the start of the token the 200-character subject was cut in.
    assert!(!texts.contains("ghp_"), "{texts}");
    // Each column holds what was planted in it.
    let sessions = query(&dir.join("out"), "SELECT * FROM sessions");
    assert_eq!(sessions[0]["project"], "[redacted: home]/work");
    assert_eq!(sessions[0]["session"], "[redacted: pattern]-s");
    assert_eq!(sessions[0]["title"], "Ask [redacted: anthropic-key]");
    let tools = query(
        &dir.join("out"),
        "SELECT tool, tool_call_id FROM entries WHERE role = 'toolResult'",
    );
    assert_eq!(tools[0]["tool"], "[redacted: user]-tool");
    assert_eq!(tools[0]["tool_call_id"], "call-[redacted: pattern]");
    // And no file of the tables holds one as it was written (Parquet may
    // compress a text: the search through DuckDB above is the one that
    // counts). The folder's ledger, `.ysess`, names the session files.
    for file in walk(&dir.join("out")) {
        if file.components().any(|c| c.as_os_str() == ".ysess") {
            continue;
        }
        let bytes = std::fs::read(&file).expect("reads");
        for (secret, kind) in planted() {
            assert!(
                !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
                "{kind} in {}",
                file.display()
            );
        }
    }
}

#[test]
fn stderr_counts_every_redacted_cell_of_a_parquet_export() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    leaky_pi(&dir);
    let run = redacted(
        &dir,
        "out",
        &["--redact", "--redact-pattern", "ACME-[0-9]+"],
    );
    run.status(0);
    let said = run
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("redacted: "))
        .unwrap_or_else(|| panic!("no count on stderr:\n{run}"));
    let texts = every_text(&dir.join("out"));
    let mut counted = Vec::new();
    for (_, kind) in planted() {
        let marker = format!("[redacted: {kind}]");
        let n: usize = texts.iter().map(|t| t.matches(&marker).count()).sum();
        assert!(n > 0, "no {kind} in the tables");
        counted.push((kind, n));
    }
    // As stderr says them: kinds in the redactor's order, none of 0.
    let said: Vec<(String, usize)> = said
        .split(", ")
        .map(|part| {
            let (n, kind) = part.split_once(' ').expect("N KIND");
            (kind.to_string(), n.parse().expect("a count"))
        })
        .collect();
    for (kind, n) in &counted {
        let on_stderr = said.iter().find(|(k, _)| k == kind).map_or(0, |(_, n)| *n);
        assert_eq!(
            on_stderr, *n,
            "{kind}: stderr {said:?}, the tables {counted:?}"
        );
    }
    assert_eq!(said.len(), counted.len(), "{said:?}");
    // The summary line is still the last.
    assert!(
        run.stderr
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("exported 1 sessions")),
        "{run}"
    );
}

#[test]
fn a_redacted_export_folder_refuses_a_run_with_other_redact_settings() {
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    let dir = Dir::new();
    leaky_pi(&dir);
    let settings = ["--redact", "--redact-pattern", "ACME-[0-9]+"];
    redacted(&dir, "out", &settings).status(0);
    let ledger = String::from_utf8(dir.read("out/.ysess/ledger.json")).expect("UTF-8");
    assert!(ledger.contains("gitleaks v8.30.0"), "{ledger}");
    assert!(ledger.contains("ACME-[0-9]+"), "{ledger}");
    let before = walk(&dir.join("out"));
    let rows =
        |dir: &Dir| query(&dir.join("out"), "SELECT count(*) AS n FROM entries")[0]["n"].clone();
    let first = rows(&dir);
    // The session grows; a run without --redact, or with other patterns,
    // would mix its rows with the redacted ones: refused, nothing written.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(dir.join("dana.jsonl"))
        .expect("opens");
    writeln!(
        file,
        r#"{{"type":"message","id":"e9","parentId":"e8","timestamp":"2026-12-01T10:00:09.000Z","message":{{"role":"user","content":"mail {EMAIL} again","timestamp":9}}}}"#
    )
    .expect("appends");
    drop(file);
    let plain = redacted(&dir, "out", &[]);
    plain.status(128);
    assert!(
        plain.stderr.starts_with(
            "error: out: its rows were exported with --redact, and this run's would not be; nothing was written\nhint: "
        ),
        "{plain}"
    );
    let other = redacted(&dir, "out", &["--redact", "--redact-pattern", "dana"]);
    other.status(128);
    assert!(
        other.stderr.contains(
            "its rows were redacted with --redact-pattern 'ACME-[0-9]+', and this run gives --redact-pattern 'dana'"
        ),
        "{other}"
    );
    let none = redacted(&dir, "out", &["--redact"]);
    none.status(128);
    assert!(
        none.stderr
            .contains("and this run gives no --redact-pattern"),
        "{none}"
    );
    assert_eq!(walk(&dir.join("out")), before, "a refused run wrote");
    assert_eq!(rows(&dir), first);
    // The same settings add the new line's row, redacted.
    redacted(&dir, "out", &settings).status(0);
    assert_eq!(rows(&dir).as_u64(), first.as_u64().map(|n| n + 1));
    let texts = every_text(&dir.join("out")).join("\n");
    assert!(!texts.contains(EMAIL), "{texts}");
    // A folder exported without --redact refuses a redacted run too.
    redacted(&dir, "plain", &[]).status(0);
    let into_plain = redacted(&dir, "plain", &settings);
    into_plain.status(128);
    assert!(
        into_plain.stderr.contains(
            "plain: its rows were exported without --redact, and this run's would be redacted"
        ),
        "{into_plain}"
    );
}

#[test]
fn sessions_without_secrets_export_the_same_rows_redacted_but_for_the_home_path() {
    let Some((dir, _files, _pi)) = home() else {
        return;
    };
    if let Some(why) = duckdb_missing() {
        return missing(&DUCKDB, &why);
    }
    // The sessions are under the home directory; the user's name is in
    // no session.
    let home = dir.path().to_string_lossy().into_owned();
    let env = [("HOME", home.as_str()), ("USER", "nobody-here")];
    let sessions = dir.join("sessions").to_string_lossy().into_owned();
    let export = |out: &str, redact: &[&str]| {
        let mut args = vec!["export", "--parquet", out, &sessions];
        args.extend_from_slice(redact);
        dir.run_with(&args, None, &env)
    };
    export("plain", &[]).status(0);
    let run = export("redacted", &["--redact"]);
    run.status(0);
    assert!(run.stderr.starts_with("redacted: "), "{run}");
    let plain = tables(&dir.join("plain"));
    let redacted = tables(&dir.join("redacted"));
    assert!(plain[0].len() > 100, "{} entry rows", plain[0].len());
    let mut cut = 0;
    for (plain, redacted) in plain.iter().zip(&redacted) {
        assert_eq!(plain.len(), redacted.len());
        for (p, r) in plain.iter().zip(redacted) {
            let mut homed: Value =
                serde_json::from_str(&p.to_string().replace(&home, "[redacted: home]"))
                    .expect("JSON");
            // A subject or title cut at 200 characters loses its last, cut
            // word (it may be part of a secret no rule knows then).
            for column in ["subject", "title"] {
                if let (Some(Value::String(was)), Some(Value::String(now))) =
                    (homed.get(column), r.get(column))
                    && now.ends_with('…')
                    && was.starts_with(now.trim_end_matches('…'))
                    && was.chars().count() >= 200
                {
                    homed[column] = Value::String(now.clone());
                    cut += 1;
                }
            }
            assert_eq!(r, &homed);
        }
    }
    assert!(cut < 10, "{cut} subjects cut");
    // Only the home path was redacted.
    let said = run.stderr.lines().next().unwrap_or_default();
    assert!(
        said.strip_prefix("redacted: ")
            .is_some_and(|kinds| kinds.split(", ").all(|k| k.ends_with(" home"))),
        "{run}"
    );
}
