//! What a person reads of an agent-written session: `log`, `show`,
//! `branch`, `grep`, Markdown, the page (as Chromium draws it) and the TUI
//! never show Claude Code's markup raw nor a full-length id, and a reply
//! written over several lines is counted once wherever usage is shown.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ysess::tui::{App, Start};
use ysess::ui::graph::Style;

use super::text::raw_markup_or_long_id as claude_or_codex_check;
use crate::support::Dir;

/// Every session file the agents wrote (subagents' own files included):
/// Claude Code's and Codex's scenarios, Qwen Code's, Gemini CLI's (its
/// older `.json` too) and Copilot CLI's, and each session in OpenCode's
/// databases (`…/opencode.db/<id>`).
fn every_file() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let sessions = |dir: &Path| -> Vec<PathBuf> {
        super::files_under(dir)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl" || x == "json"))
            .filter(|p| !p.ends_with("mock.json") && !p.to_string_lossy().ends_with(".meta.json"))
            .collect()
    };
    for agent in ["claude", "codex"] {
        for scenario in super::scenarios(agent) {
            out.extend(sessions(&scenario));
        }
    }
    let fixtures = super::root().join("tests/fixtures");
    // (Not the empty files a Gemini CLI resume leaves: no session.)
    let holds_messages = |p: &PathBuf| {
        p.extension().is_some_and(|x| x == "json")
            || std::fs::read_to_string(p).is_ok_and(|t| t.lines().any(|l| l.starts_with("{\"id\"")))
    };
    out.extend(sessions(&fixtures.join("qwen")));
    out.extend(sessions(&fixtures.join("copilot")));
    out.extend(
        sessions(&fixtures.join("gemini"))
            .into_iter()
            .filter(holds_messages),
    );
    for store in ["openai", "anthropic"] {
        let db = fixtures.join("opencode").join(store).join("opencode.db");
        let conn =
            rusqlite::Connection::open_with_flags(&db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
                .expect("the database opens");
        let mut stmt = conn.prepare("SELECT id FROM session").expect("a query");
        let ids: Vec<String> = stmt
            .query_map([], |r| r.get(0))
            .expect("the sessions")
            .collect::<Result<_, _>>()
            .expect("the ids");
        out.extend(ids.into_iter().map(|id| db.join(id)));
    }
    assert!(out.len() >= 50, "{} agent-written files", out.len());
    out
}

#[test]
fn every_session_of_every_agent_exports_as_json_and_parquet() {
    let dir = Dir::new();
    let mut found = Vec::new();
    for (k, file) in every_file().into_iter().enumerate() {
        let json = run(&dir, &file, &["export"]);
        if serde_json::from_str::<Vec<serde_json::Value>>(&json.stdout).is_err() {
            found.push(format!("{}: export is no JSON list", file.display()));
        }
        let out = dir.join(&format!("tables-{k}"));
        let parquet = dir.run(&[
            "export",
            "--parquet",
            out.to_str().expect("a UTF-8 path"),
            file.to_str().expect("a UTF-8 path"),
        ]);
        // A subagent's own file is exported with its session, not alone.
        let opencode_child = file.parent().is_some_and(|db| db.ends_with("opencode.db")) && {
            let conn = rusqlite::Connection::open_with_flags(
                file.parent().expect("the database"),
                rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
            )
            .expect("the database opens");
            let id = file.file_name().and_then(|n| n.to_str()).expect("an id");
            conn.query_row("SELECT parent_id FROM session WHERE id = ?1", [id], |r| {
                r.get::<_, Option<String>>(0)
            })
            .expect("the session")
            .is_some()
        };
        let subagent = opencode_child
            || file.components().any(|c| c.as_os_str() == "subagents")
            || file
                .parent()
                .and_then(|d| d.parent())
                .is_some_and(|d| d.ends_with("chats"));
        if parquet.status != Some(0) || !(subagent || out.join("sessions").is_dir()) {
            found.push(format!("{}: export --parquet: {parquet}", file.display()));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// What is wrong with an output shown of `file`: raw markup or a
/// full-length id. (The replies in the fixtures of Qwen Code, Gemini CLI,
/// Copilot CLI and OpenCode, written against an earlier mock that echoed
/// each prompt, hold the agent's `<system-reminder>` text as the model's
/// own words: only full-length ids are looked for there.)
fn raw_markup_or_long_id(file: &Path, output: &str) -> Option<String> {
    let agents = super::root().join("tests/fixtures/agents");
    if file.starts_with(&agents) {
        claude_or_codex_check(output)
    } else {
        super::text::long_id(output)
    }
}

fn run(dir: &Dir, file: &Path, args: &[&str]) -> crate::support::Run {
    let mut all = vec!["-f", file.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    let run = dir.run(&all);
    run.status(0);
    run
}

#[test]
fn log_show_branch_fsck_and_markdown_show_no_raw_markup_and_grep_no_long_id() {
    let dir = Dir::new();
    let mut found = Vec::new();
    for file in every_file() {
        let mut outputs = vec![
            (
                "log --graph --markers",
                run(&dir, &file, &["log", "--graph", "--markers"]).stdout,
            ),
            ("log", run(&dir, &file, &["log"]).stdout),
            ("branch -v", run(&dir, &file, &["branch", "-v"]).stdout),
            (
                "export --markdown",
                run(&dir, &file, &["export", "--markdown"]).stdout,
            ),
            ("fsck -v", run(&dir, &file, &["fsck", "-v"]).stdout),
            ("stats", run(&dir, &file, &["stats"]).stdout),
        ];
        let grep = dir.run(&[
            "-f",
            file.to_str().expect("a UTF-8 path"),
            "grep",
            "-i",
            "a",
        ]);
        // grep prints the stored text its matches stand in, markup and
        // all, with short ids.
        if let Some(bad) = super::text::long_id(&grep.stdout) {
            found.push(format!("{}: grep -i a: {bad}", file.display()));
        }
        let ids: Vec<String> = run(&dir, &file, &["log", "--json"])
            .json_lines()
            .iter()
            .filter_map(|l| l["id"].as_str().map(str::to_string))
            .collect();
        for id in &ids {
            outputs.push(("show", run(&dir, &file, &["show", id]).stdout));
        }
        for (what, out) in outputs {
            if let Some(bad) = raw_markup_or_long_id(&file, &out) {
                found.push(format!("{}: {what}: {bad}", file.display()));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The page's text as a browser shows it: the DOM after its script ran,
/// without tags, attributes, scripts or styles.
fn visible(dom: &str) -> String {
    let strip = regex::Regex::new(r"(?s)<script.*?</script>|<style.*?</style>|<[^>]*>")
        .expect("a valid pattern");
    strip
        .replace_all(dom, " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

#[test]
fn the_page_shows_no_raw_markup_and_no_long_id_and_counts_a_response_once() {
    let Some(browser) = crate::html::chromium() else {
        return;
    };
    let dir = Dir::new();
    let mut found = Vec::new();
    for file in every_file() {
        let page = dir.join("page.html");
        run(
            &dir,
            &file,
            &[
                "export",
                "--html",
                "-o",
                page.to_str().expect("a UTF-8 path"),
            ],
        );
        let dom = crate::html::dump_dom(&browser, &page, "");
        let text = visible(&dom);
        if let Some(bad) = raw_markup_or_long_id(&file, &text) {
            found.push(format!("{}: the page: {bad}", file.display()));
        }
        // The path's line adds up each response once, as `stats HEAD`.
        let stats = run(&dir, &file, &["stats", "HEAD", "--json"]);
        let head = &stats.json_lines()[0];
        let n = |k: &str| head["tokens"][k].as_u64().unwrap_or(0);
        let want = vec![n("input"), n("output"), n("cache_read"), n("cache_write")];
        let Some(info) = text
            .lines()
            .find(|l| l.contains(" entries on the path to "))
        else {
            found.push(format!("{}: the page has no path line", file.display()));
            continue;
        };
        let after = info.split(" responses · ").nth(1).unwrap_or_default();
        let said: Vec<u64> = said_tokens(after.split(" · $").next().unwrap_or_default());
        if said.get(..4) != Some(&want[..]) {
            found.push(format!(
                "{}: the page says {info:?}; stats HEAD {want:?}",
                file.display()
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn screen(app: &mut App, term: &mut Terminal<TestBackend>) -> String {
    term.draw(|frame| app.draw(frame))
        .expect("the browser draws");
    let buffer = term.backend().buffer();
    let width = buffer.area.width as usize;
    buffer
        .content
        .chunks(width)
        .map(|row| row.iter().map(|c| c.symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_tui_shows_no_raw_markup_and_no_long_id() {
    let mut found = Vec::new();
    for file in every_file() {
        let start = Start::Session {
            path: file.clone(),
            format_of: None,
            rev: None,
        };
        let mut app = match App::new(start, None, Style::Curved, jiff::tz::TimeZone::UTC, None) {
            Ok(app) => app,
            Err(f) => panic!("{}: the browser opens: {:#}", file.display(), f.error),
        };
        let mut term = Terminal::new(TestBackend::new(160, 60)).expect("a test terminal");
        app.settle();
        // Every entry selected in turn, from the top of the tree down.
        let mut screens = vec![screen(&mut app, &mut term)];
        app.key(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE));
        app.settle();
        for _ in 0..40 {
            screens.push(screen(&mut app, &mut term));
            app.key(KeyEvent::new(KeyCode::Char('j'), KeyModifiers::NONE));
            app.settle();
        }
        for s in screens {
            if let Some(bad) = raw_markup_or_long_id(&file, &s) {
                found.push(format!("{}: the TUI: {bad}", file.display()));
                break;
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The tokens a line like `Tokens on this path: 9444 in, 532 out, 132156
/// cache read, 13369 cache write.` says.
fn said_tokens(line: &str) -> Vec<u64> {
    line.split(|c: char| !c.is_ascii_digit() && c != ',')
        .filter_map(|w| w.trim_matches(',').replace(',', "").parse().ok())
        .collect()
}

#[test]
fn markdown_counts_a_reply_written_over_several_lines_once() {
    let dir = Dir::new();
    let mut found = Vec::new();
    for file in every_file() {
        let stats = run(&dir, &file, &["stats", "HEAD", "--json"]);
        let head = &stats.json_lines()[0];
        let n = |k: &str| head["tokens"][k].as_u64().unwrap_or(0);
        let want = vec![n("input"), n("output"), n("cache_read"), n("cache_write")];
        let md = run(&dir, &file, &["export", "--markdown"]).stdout;
        let Some(line) = md.lines().find(|l| l.starts_with("Tokens on this path:")) else {
            continue;
        };
        if said_tokens(line) != want {
            found.push(format!(
                "{}: Markdown says {line:?}; stats HEAD {want:?}",
                file.display()
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
