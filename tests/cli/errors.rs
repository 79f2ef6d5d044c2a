//! Errors that say what is wrong: exit codes by the README's table, hints a
//! person can run as they are, a missing session file, odd names.

use crate::support::{Dir, Run, demo};

/// What a directory holds before the command runs.
#[derive(Debug, Clone, Copy)]
enum Setup {
    /// `session.jsonl`: a copy of the demo.
    Demo,
    /// The demo with a branch `lib` at e6.
    Lib,
    /// `session.jsonl` with no entries.
    Empty,
    /// No `session.jsonl` at all.
    Missing,
}

fn setup(setup: Setup) -> Dir {
    match setup {
        Setup::Demo => demo(),
        Setup::Lib => {
            let dir = demo();
            dir.run(&["branch", "lib", "e6"]).status(0);
            dir
        }
        Setup::Empty => {
            let dir = Dir::new();
            dir.write("session.jsonl", "");
            dir
        }
        Setup::Missing => Dir::new(),
    }
}

/// The session file's bytes, or nothing when there is none.
fn contents(dir: &Dir) -> Option<Vec<u8>> {
    std::fs::read(dir.join("session.jsonl")).ok()
}

/// One refusal: the setup, the arguments, standard input, the exit code and
/// what stderr must say.
type Row = (
    Setup,
    &'static [&'static str],
    Option<&'static str>,
    i32,
    &'static str,
);

/// README "Exit status": 2 when the command line does not parse, 128 when it
/// parses and ysess refuses it or cannot carry it out. Every refusal, one row
/// each: it exits with its code, says why on stderr, prints nothing on
/// stdout and leaves the file as it was.
#[test]
fn every_refusal_exits_by_the_readme_table() {
    use Setup::*;
    let rows: &[Row] = &[
        // The command line does not parse: 2.
        (Demo, &["xyzzy"], None, 2, "unrecognized subcommand"),
        (Demo, &["log", "--no-such-flag"], None, 2, "--no-such-flag"),
        (Demo, &["log", "-n", "x"], None, 2, "invalid value 'x'"),
        (Demo, &["log", "--format", "{bogus}"], None, 2, "bogus"),
        (Demo, &["log", "--reverse", "--graph"], None, 2, "--graph"),
        (
            Demo,
            &["tag", "-d", "x", "y"],
            None,
            2,
            "cannot be used with",
        ),
        (Demo, &["checkout"], None, 2, "checkout needs a revision"),
        (Demo, &["diff"], None, 2, "diff needs a revision"),
        (
            Demo,
            &["fsck", "--since", "sha256:zz"],
            None,
            2,
            "not a digest",
        ),
        (
            Demo,
            &["fsck", "--since", "x", "a", "b"],
            None,
            2,
            "one file",
        ),
        (Demo, &["fsck", "--repair", "-"], None, 2, "standard input"),
        (Demo, &["-f", "-", "tag", "x"], None, 2, "standard input"),
        (Demo, &["append"], Some(""), 2, "no messages"),
        // A listing option with a name is refused, not taken as a new label
        // or branch called `3` or `newc`.
        (Demo, &["tag", "-n", "3"], None, 2, "cannot be used with"),
        (
            Demo,
            &["tag", "--json", "tj"],
            None,
            2,
            "cannot be used with",
        ),
        (Demo, &["tag", "--force"], None, 2, "required"),
        (
            Demo,
            &["branch", "--contains", "e4", "newc"],
            None,
            2,
            "cannot be used with",
        ),
        (
            Demo,
            &["branch", "-v", "newb"],
            None,
            2,
            "cannot be used with",
        ),
        (
            Demo,
            &["branch", "--json", "-d", "x"],
            None,
            2,
            "cannot be used with",
        ),
        (Demo, &["branch", "--force"], None, 2, "--force goes with"),
        (
            Demo,
            &["log", "--oneline", "--format", "{id}"],
            None,
            2,
            "cannot be used with",
        ),
        (
            Demo,
            &["diff", "--json", "--stat", "e6"],
            None,
            2,
            "cannot be used with",
        ),
        // It parses, and the session or ysess refuses it: 128.
        (
            Demo,
            &["tag", "first-draft", "e2"],
            None,
            128,
            "already names e4",
        ),
        (
            Demo,
            &["tag", "-d", "first-draft"],
            None,
            128,
            "rewrite history",
        ),
        (
            Demo,
            &["tag", "-d", "nosuch"],
            None,
            128,
            "no label named 'nosuch'",
        ),
        (Demo, &["tag", "e99"], None, 128, "looks like an entry id"),
        (Demo, &["tag", "a..b"], None, 128, "`..`"),
        (Demo, &["tag", "x\u{202e}y"], None, 128, "U+202E"),
        (Demo, &["tag", "x", "nosuch"], None, 128, "unknown revision"),
        (Lib, &["tag", "lib"], None, 128, "'lib' is already a branch"),
        (
            Demo,
            &["branch", "-d", "nosuch"],
            None,
            128,
            "no branch named",
        ),
        (
            Demo,
            &["branch", "-m", "nosuch", "x"],
            None,
            128,
            "no branch named",
        ),
        (
            Demo,
            &["branch", "first-draft"],
            None,
            128,
            "already a label",
        ),
        (Demo, &["branch", "e3"], None, 128, "looks like an entry id"),
        (
            Demo,
            &["branch", "x", "nosuch"],
            None,
            128,
            "unknown revision",
        ),
        (
            Demo,
            &["branch", "--contains", "nosuch"],
            None,
            128,
            "unknown revision",
        ),
        (Lib, &["branch", "lib", "e6"], None, 128, "already exists"),
        (
            Lib,
            &["branch", "-m", "lib", "first-draft"],
            None,
            128,
            "already a label",
        ),
        (
            Lib,
            &["branch", "-m", "lib", "a b"],
            None,
            128,
            "white space",
        ),
        (Demo, &["checkout", "nosuch"], None, 128, "unknown revision"),
        (Demo, &["checkout", "e"], None, 128, "ambiguous revision"),
        (Demo, &["checkout", "-b", "a b"], None, 128, "white space"),
        (
            Lib,
            &["checkout", "-b", "lib", "e6"],
            None,
            128,
            "already exists",
        ),
        (Demo, &["show", "nosuch"], None, 128, "unknown revision"),
        (Demo, &["log", "nosuch"], None, 128, "unknown revision"),
        (
            Demo,
            &["diff", "e1", "nosuch"],
            None,
            128,
            "unknown revision",
        ),
        (Demo, &["export", "nosuch"], None, 128, "unknown revision"),
        (
            Demo,
            &["append", "--parent", "nosuch", "--user", "x"],
            None,
            128,
            "unknown revision",
        ),
        (
            Demo,
            &["append", "--label", "first-draft", "--user", "x"],
            None,
            128,
            "in use",
        ),
        (
            Demo,
            &["append", "--label", "a\tb", "--user", "x"],
            None,
            128,
            "white space",
        ),
        (
            Demo,
            &["append"],
            Some(r#"{"role":"user"}"#),
            128,
            "content",
        ),
        (Demo, &["append"], Some("[1]"), 128, "not a JSON object"),
        (
            Demo,
            &["append"],
            Some(r#"{"role":"extension","kind":"ysess.checkout","data":{"target":"e2"}}"#),
            128,
            "reserved for ysess's own records",
        ),
        // ysess's own records are not the user's to name (e16, e17 in Lib).
        (
            Lib,
            &["checkout", "e16"],
            None,
            128,
            "one of ysess's own records",
        ),
        (
            Lib,
            &["tag", "x", "e17"],
            None,
            128,
            "one of ysess's own records",
        ),
        (
            Lib,
            &["show", "e17~1"],
            None,
            128,
            "one of ysess's own records",
        ),
        (
            Demo,
            &["fsck", "--since", "garbage"],
            None,
            128,
            "--since garbage",
        ),
        (Demo, &["fsck", "nope.jsonl"], None, 128, "unreadable"),
        // The same refusal on an empty session, the same code.
        (Empty, &["tag", "x"], None, 128, "the file holds no session"),
        (
            Empty,
            &["branch", "x"],
            None,
            128,
            "the file holds no session",
        ),
        (
            Empty,
            &["checkout", "e1"],
            None,
            128,
            "the file holds no session",
        ),
        (
            Empty,
            &["checkout", "-b", "x"],
            None,
            128,
            "the file holds no session",
        ),
        (
            Empty,
            &["branch", "-d", "x"],
            None,
            128,
            "the file holds no session",
        ),
        (Empty, &["show"], None, 128, "the session is empty"),
        (
            Demo,
            &["-C", "nosuch", "log"],
            None,
            128,
            "cannot change to directory",
        ),
        // No session file.
        (Missing, &["log"], None, 128, "session.jsonl does not exist"),
        (
            Missing,
            &["tag", "x"],
            None,
            128,
            "session.jsonl does not exist",
        ),
        (Missing, &["fsck"], None, 128, "unreadable"),
    ];
    let mut wrong = Vec::new();
    for &(how, args, stdin, code, says) in rows {
        let dir = setup(how);
        let before = contents(&dir);
        let run = match stdin {
            Some(input) => dir.run_stdin(args, input.as_bytes()),
            None => dir.run(args),
        };
        let fine = run.status == Some(code)
            && run.stdout.is_empty()
            && run.stderr.starts_with("error: ")
            && run.stderr.contains(says)
            && contents(&dir) == before;
        if !fine {
            wrong.push(format!(
                "{how:?}: expected exit {code} and {says:?}, the file unchanged\n{run}"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The commands a hint offers, each as its words (a hint quotes them in
/// backticks, single-quoting words for the shell).
fn hinted_commands(run: &Run) -> Vec<Vec<String>> {
    let mut commands = Vec::new();
    for line in run.stderr.lines().filter(|l| l.starts_with("hint: ")) {
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 1 {
                commands.push(shell_words(part));
            }
        }
    }
    commands
}

/// Splits words as a POSIX shell does, for the quoting hints use: plain
/// words and single quotes.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in text.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            ' ' if !quoted => words.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    words
}

/// Runs a hinted command line (`ysess …`) in `dir`.
fn run_hint(dir: &Dir, words: &[String]) -> Run {
    assert_eq!(
        words.first().map(String::as_str),
        Some("ysess"),
        "{words:?}"
    );
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    dir.run(&args)
}

#[test]
fn a_refused_tag_hints_the_whole_command_with_force_keeping_its_rev() {
    let dir = setup(Setup::Demo);
    dir.fixture("demo.jsonl", "other.jsonl");
    let run = dir.run(&["-f", "other.jsonl", "tag", "first-draft", "e2"]);
    run.status(128).stderr(
        "error: label 'first-draft' already names e4\n\
         hint: `ysess -f other.jsonl tag --force first-draft e2` moves it (the newest carrier wins, as in yoagent)\n",
    );
    let hinted = hinted_commands(&run);
    run_hint(&dir, &hinted[0]).status(0);
    // It acted on the file named with -f, and the label now names e2.
    let labels = dir.run(&["-f", "other.jsonl", "tag", "--json"]);
    assert!(
        labels
            .json_lines()
            .iter()
            .any(|t| t["name"] == "first-draft" && t["target"] == "e2"),
        "{labels}"
    );
    assert_eq!(
        dir.read("session.jsonl"),
        std::fs::read(crate::support::fixture("demo.jsonl")).expect("demo")
    );
}

#[test]
fn a_refused_branch_hints_its_rev_not_a_literal_rev() {
    let dir = setup(Setup::Lib);
    let run = dir.run(&["branch", "lib", "first-draft~1"]);
    run.status(128).stderr(
        "error: a branch named 'lib' already exists\n\
         hint: `ysess branch --force lib 'first-draft~1'` starts it again at 'first-draft~1'\n",
    );
    run_hint(&dir, &hinted_commands(&run)[0]).status(0);
    let branches = dir.run(&["branch", "--json"]);
    assert!(
        branches
            .json_lines()
            .iter()
            .any(|b| b["name"] == "lib" && b["tip"] == "e3"),
        "{branches}"
    );
}

#[test]
fn a_refused_checkout_b_hints_how_to_move_onto_or_restart_the_branch() {
    let dir = setup(Setup::Lib);
    let run = dir.run(&["checkout", "-b", "lib", "e5"]);
    run.status(128).stderr(
        "error: a branch named 'lib' already exists\n\
         hint: `ysess checkout lib` moves HEAD onto it\n\
         hint: `ysess branch --force lib e5` && `ysess checkout lib` starts it again at e5 first\n",
    );
    let hinted = hinted_commands(&run);
    // The second hint, run as written, puts HEAD at e5 on lib.
    run_hint(&dir, &hinted[1]).status(0);
    run_hint(&dir, &hinted[2]).status(0);
    let run = dir.run(&["log", "--format", "{id} {decorations}"]);
    assert_eq!(run.stdout.lines().next(), Some("e5 HEAD, lib"), "{run}");
}

#[test]
fn quiet_drops_the_hints_but_not_the_error() {
    let dir = setup(Setup::Demo);
    dir.run(&["-q", "tag", "first-draft", "e2"])
        .status(128)
        .stderr("error: label 'first-draft' already names e4\n");
}

#[test]
fn a_missing_session_file_is_named_with_hints_at_f_ysess_file_and_the_demo() {
    let dir = setup(Setup::Missing);
    let demo_hint = "hint: to try ysess, run it on the demo session in its source tree: \
                     `ysess -f tests/fixtures/demo.jsonl log --graph`\n";
    dir.run(&["log"]).status(128).stderr(&format!(
        "error: the session file session.jsonl does not exist\n\
         hint: ysess reads session.jsonl in the current directory unless `-f PATH` or the \
         YSESS_FILE environment variable names another session file\n{demo_hint}"
    ));
    dir.run_with(&["show"], None, &[("YSESS_FILE", "gone.jsonl")])
        .status(128)
        .stderr(&format!(
            "error: the session file gone.jsonl does not exist\n\
             hint: the YSESS_FILE environment variable names gone.jsonl; `-f PATH` names another \
             session file\n{demo_hint}"
        ));
    dir.run(&["-f", "gone.jsonl", "branch", "x"])
        .status(128)
        .stderr(
            "error: the session file gone.jsonl does not exist; nothing was written\n\
             hint: check the path given with `-f`\n\
             hint: `ysess append --create` starts a new session in a new file\n",
        );
    let run = dir.run(&["fsck"]);
    run.status(128);
    assert!(
        run.stderr.contains("session.jsonl: unreadable")
            && run.stderr.contains("`-f PATH`")
            && run.stderr.contains(demo_hint),
        "{run}"
    );
    // The demo hint works where it says, in ysess's source tree.
    let words = shell_words("ysess -f tests/fixtures/demo.jsonl log --graph");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(source.join(&words[2]).is_file());
}

#[test]
fn names_holding_bidi_overrides_or_invisible_characters_are_refused() {
    let dir = setup(Setup::Lib);
    let before = contents(&dir);
    for name in [
        "lib\u{202e}txt", // right-to-left override
        "a\u{2067}b",     // right-to-left isolate
        "a\u{200b}b",     // zero-width space
        "\u{feff}x",      // byte-order mark
        "a\u{a0}b",       // no-break space
    ] {
        for args in [
            vec!["tag", name],
            vec!["branch", name],
            vec!["checkout", "-b", name],
            vec!["branch", "-m", "lib", name],
            vec!["append", "--label", name, "--user", "x"],
        ] {
            let run = dir.run(&args);
            run.status(128).stdout("");
            // The name is shown escaped, the character named.
            let code = format!(
                "U+{:04X}",
                name.chars()
                    .find(|c| !c.is_alphanumeric())
                    .map_or(0, |c| c as u32)
            );
            assert!(
                run.stderr.starts_with("error: '") && run.stderr.contains(&code),
                "{run}"
            );
            assert!(!run.stderr.contains(name), "printed raw\n{run}");
        }
    }
    assert_eq!(contents(&dir), before, "nothing was written");
    // Letters of any script stay welcome.
    dir.run(&["tag", "ライブラリ"]).status(0);
    dir.run(&["branch", "café", "e6"]).status(0);
}

#[test]
fn fsck_flags_a_hand_written_record_whose_name_holds_a_bidi_override() {
    let dir = setup(Setup::Demo);
    let mut text = std::fs::read_to_string(dir.join("session.jsonl")).expect("demo");
    text.push('\n');
    text.push_str(
        &serde_json::json!({
            "id": "e16", "parent_id": "e6",
            "message": {"role": "extension", "kind": "ysess.branch",
                        "data": {"name": "lib\u{202e}txt", "target": "e6"}},
            "timestamp": 1_764_666_300_000u64,
        })
        .to_string(),
    );
    dir.write("session.jsonl", &text);
    let run = dir.run(&["fsck", "--json"]);
    assert!(
        run.json_lines().iter().any(|f| f["code"] == "invalidRecord"
            && f["id"] == "e16"
            && f["message"].as_str().is_some_and(|m| m.contains("U+202E"))),
        "{run}"
    );
}

#[test]
fn the_fsck_hint_of_a_broken_session_checks_the_same_file_from_the_same_directory() {
    let dir = Dir::new();
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    dir.write("sub/s.jsonl", "{not json");
    let run = dir.run(&["-C", "sub", "-f", "s.jsonl", "log"]);
    run.status(128);
    let hinted = hinted_commands(&run);
    assert_eq!(hinted, [shell_words("ysess -C sub fsck s.jsonl")], "{run}");
    let run = run_hint(&dir, &hinted[0]);
    run.status(1);
    assert!(run.stderr.contains("s.jsonl:1: invalidJson"), "{run}");
}

#[test]
fn a_jsonl_file_of_no_session_format_is_refused_in_one_line_naming_the_formats() {
    let dir = crate::support::Dir::new();
    dir.write(
        "session.jsonl",
        "{\"event\":\"start\",\"ts\":1}\n{\"event\":\"data\",\"value\":[1,2]}\n{\"event\":\"end\"}\n",
    );
    for args in [
        &["fsck"][..],
        &["log"],
        &["grep", "x"],
        &["stats"],
        &["show"],
    ] {
        let run = dir.run(args);
        run.status(128).stdout("");
        assert_eq!(run.stderr.lines().count(), 1, "{run}");
        assert!(
            run.stderr
                .contains("not a session file of a format ysess reads (yoagent, pi, claude"),
            "{run}"
        );
    }
    // Named, it is read as that format, and each line explained.
    let run = dir.run(&["--format-of", "yoagent", "fsck"]);
    run.status(1);
    assert_eq!(run.stderr.lines().count(), 3, "{run}");
}

#[test]
fn head_at_a_move_number_past_any_number_is_refused_not_read_as_the_largest() {
    let dir = crate::support::demo();
    let run = dir.run(&["show", "HEAD@{99999999999999999999}"]);
    run.status(128).stdout("");
    assert!(
        run.stderr
            .starts_with("error: 'HEAD@{99999999999999999999}' asks for a HEAD move numbered past"),
        "{run}"
    );
    assert!(!run.stderr.contains("18446744073709551615"), "{run}");
}

#[test]
fn a_branch_name_of_100000_characters_does_not_pad_every_branch_row() {
    let dir = crate::support::demo();
    let long = "b".repeat(100_000);
    dir.run(&["branch", "-q", &long, "e4"]).status(0);
    let run = dir.run(&["branch", "-v"]);
    run.status(0);
    let longest_other = run
        .stdout
        .lines()
        .filter(|l| !l.contains(&long))
        .map(str::len)
        .max()
        .expect("other rows");
    assert!(
        longest_other < 300,
        "a row padded to the long name: {longest_other} bytes"
    );
    assert!(run.stdout.lines().any(|l| l.contains(&long)), "{run}");
}

#[test]
fn a_torn_last_line_another_program_is_still_writing_is_not_offered_to_repair() {
    let dir = crate::support::demo();
    let mut text = String::from_utf8(dir.read("session.jsonl")).expect("UTF-8");
    text.push_str("\n{\"id\":\"e99\",\"parent_id\":\"e1");
    dir.write("session.jsonl", &text);
    let before = dir.read("session.jsonl");
    // An app writing its last line a few bytes at a time, as ysess looks.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (fsck, repair, append) = std::thread::scope(|s| {
        s.spawn(|| {
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(dir.join("session.jsonl"))
                .expect("opens");
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                std::io::Write::write_all(&mut file, b" ").expect("writes");
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        let runs = (
            dir.run(&["fsck"]),
            dir.run(&["fsck", "--repair"]),
            dir.run(&["append", "--user", "x"]),
        );
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        runs
    });
    fsck.status(1);
    assert!(
        fsck.stderr
            .contains("another program may still be writing it"),
        "{fsck}"
    );
    assert!(
        fsck.stderr
            .contains("Run fsck again once no program writes the file"),
        "{fsck}"
    );
    assert!(!fsck.stderr.contains("cuts the"), "{fsck}");
    repair.status(1);
    assert!(repair.stderr.contains("not repaired"), "{repair}");
    append.status(128);
    assert!(
        append
            .stderr
            .contains("hint: another program may still be writing that line"),
        "{append}"
    );
    let after = dir.read("session.jsonl");
    assert!(after.starts_with(&before), "nothing was cut");
    // Once nothing writes it, the torn line is an interrupted write.
    let run = dir.run(&["fsck"]);
    run.status(1);
    assert!(
        run.stderr.contains("`ysess fsck --repair` cuts the"),
        "{run}"
    );
    assert!(!run.stderr.contains("may still be writing"), "{run}");
}

#[test]
fn a_usage_error_printed_an_arguments_escape_sequences_raw() {
    let dir = Dir::new();
    for args in [
        &["\u{1b}]0;pwned\u{7}\u{1b}[2J"][..],
        &["log", "--\u{1b}]0;x\u{7}"],
        &["--color", "\u{1b}]0;x\u{7}", "log"],
        &["\u{9b}\u{202e}x"],
    ] {
        let run = dir.run(args);
        run.status(2);
        assert!(
            !run.stderr
                .chars()
                .any(|c| c != '\n' && ysess::ui::output::is_hazard(c)),
            "{args:?}: {:?}",
            run.stderr
        );
        assert!(run.stderr.starts_with("error: "), "{run}");
    }
    let run = dir.run(&["\u{9b}\u{202e}x"]);
    assert!(run.stderr.contains("'\\u{9b}\\u{202e}x'"), "{run}");
}

#[test]
fn session_option_after_the_command_is_told_it_goes_before() {
    let dir = demo();
    for args in [
        &["log", "-s", "latest"][..],
        &["show", "--session", "latest"],
        &["log", "--session=latest"],
    ] {
        let run = dir.run(args);
        run.status(2);
        assert!(
            run.stderr
                .contains("names the session for any command, so it goes before the command's name: ysess -s latest log"),
            "{args:?}: {run}"
        );
        assert!(!run.stderr.contains("use '--"), "{args:?}: {run}");
    }
}

#[test]
fn fsck_of_a_folder_whose_sessions_are_all_hidden_names_the_hidden_folder() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("home/.claude/projects/-work")).unwrap();
    std::fs::create_dir_all(dir.join("plain")).unwrap();
    dir.write(
        "home/.claude/projects/-work/s.jsonl",
        include_str!("../fixtures/claude/session.jsonl"),
    );
    let home = dir.join("home");
    let run = dir.run(&["fsck", home.to_str().unwrap()]);
    run.status(1);
    let hidden = dir.join("home/.claude");
    assert!(
        run.stderr.contains(&format!(
            "session files in hidden folders are skipped, as git skips them, such as {}: name the folder to check them: ysess fsck {}",
            dir.join("home/.claude/projects/-work/s.jsonl").display(),
            hidden.display()
        )),
        "{run}"
    );
    // Named, the hidden folder is checked.
    dir.run(&["fsck", hidden.to_str().unwrap()]).status(0);
    // A folder with nothing hidden gets no such hint.
    dir.write("plain/notes.txt", "nothing");
    let run = dir.run(&["fsck", dir.join("plain").to_str().unwrap()]);
    run.status(1);
    assert!(!run.stderr.contains("hidden"), "{run}");
}
