//! What a person reads of an agent-written session: `log`, `show`,
//! `branch`, `grep`, Markdown, the page (as Chromium draws it) and the TUI
//! never show Claude Code's markup raw nor a full-length id, and a reply
//! written over several lines is counted once wherever usage is shown.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ysess::cli::tui::{App, Start};
use ysess::tree::graph::Style;

use super::text::raw_markup_or_long_id;
use crate::support::Dir;

/// Every session file the agents wrote (subagents' own files included).
fn every_file() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for agent in ["claude", "codex"] {
        for scenario in super::scenarios(agent) {
            out.extend(
                super::files_under(&scenario)
                    .into_iter()
                    .filter(|p| p.extension().is_some_and(|x| x == "jsonl")),
            );
        }
    }
    assert!(out.len() >= 12, "{} agent-written files", out.len());
    out
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
            if let Some(bad) = raw_markup_or_long_id(&out) {
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
        if let Some(bad) = raw_markup_or_long_id(&text) {
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
            if let Some(bad) = raw_markup_or_long_id(&s) {
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
