//! Being a good citizen of the shell: the committed completion scripts and
//! man pages are what the binary makes now, dynamic completion offers what
//! is in the session, and every command explains itself.

use std::collections::BTreeMap;
use std::path::Path;

use crate::support::{Dir, Run, demo, user_line};

const REGENERATE: &str =
    "cargo run -- generate completions completions && cargo run -- generate man man";

/// Every file of a directory, by name.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .map(|e| e.expect("a directory entry"))
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let bytes = std::fs::read(e.path()).expect("a generated file reads");
            (name, bytes)
        })
        .collect()
}

/// Regenerates `what` into a temp dir and compares it with the committed copy.
fn up_to_date(what: &str) {
    let dir = Dir::new();
    dir.run(&["generate", what, "out"]).status(0).stderr("");
    let made = files(&dir.join("out"));
    assert!(!made.is_empty(), "ysess generate {what} wrote nothing");
    let committed = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(what));
    let missing: Vec<&String> = made
        .keys()
        .filter(|n| !committed.contains_key(*n))
        .collect();
    let extra: Vec<&String> = committed
        .keys()
        .filter(|n| !made.contains_key(*n))
        .collect();
    let stale: Vec<&String> = made
        .iter()
        .filter(|(n, bytes)| committed.get(*n).is_some_and(|c| c != *bytes))
        .map(|(n, _)| n)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && stale.is_empty(),
        "the committed {what}/ is stale (missing: {missing:?}, not generated any more: {extra:?}, \
         out of date: {stale:?}).\nRun `{REGENERATE}`, delete the files no longer generated, \
         and commit the result; never edit them by hand."
    );
}

#[test]
fn committed_completion_scripts_are_what_the_binary_generates() {
    up_to_date("completions");
}

#[test]
fn committed_man_pages_are_what_the_binary_generates() {
    up_to_date("man");
}

#[test]
fn generate_writes_a_script_per_shell_and_a_page_per_command() {
    let dir = Dir::new();
    dir.run(&["generate", "completions", "c"]).status(0);
    dir.run(&["generate", "man", "m"]).status(0);
    let scripts: Vec<String> = files(&dir.join("c")).into_keys().collect();
    assert_eq!(
        scripts,
        [
            "_ysess",
            "_ysess.ps1",
            "ysess.bash",
            "ysess.elv",
            "ysess.fish"
        ]
    );
    let pages: Vec<String> = files(&dir.join("m")).into_keys().collect();
    let mut expected = vec!["ysess.1".to_string()];
    for sub in [
        "append", "archive", "branch", "checkout", "diff", "export", "fsck", "grep", "log", "ls",
        "reflog", "resume", "show", "stats", "status", "tag", "tui",
    ] {
        expected.push(format!("ysess-{sub}.1"));
    }
    expected.sort();
    assert_eq!(pages, expected);
    // The hidden command is in neither.
    for (name, bytes) in files(&dir.join("c"))
        .into_iter()
        .chain(files(&dir.join("m")))
    {
        let text = String::from_utf8(bytes).expect("UTF-8");
        assert!(!text.contains("generate"), "{name} mentions generate");
    }
}

// ---------------------------------------------------------------------------
// Dynamic completion, through clap_complete's environment protocol
// ---------------------------------------------------------------------------

/// Completes the last of `words` (the command line after `ysess`) as bash
/// does: `COMPLETE=bash ysess -- ysess WORDS…` with the index of the word
/// under the cursor and bash's separator.
fn complete_bash(dir: &Dir, words: &[&str], env: &[(&str, &str)]) -> (Run, Vec<String>) {
    let index = words.len().to_string();
    let mut args = vec!["--", "ysess"];
    args.extend_from_slice(words);
    let mut vars = vec![
        ("COMPLETE", "bash"),
        ("_CLAP_COMPLETE_INDEX", index.as_str()),
        ("_CLAP_IFS", "\x0b"),
    ];
    vars.extend_from_slice(env);
    let run = dir.run_with(&args, None, &vars);
    run.status(0).stderr("");
    let offered = run
        .stdout
        .split('\x0b')
        .filter(|c| !c.is_empty())
        .map(str::to_string)
        .collect();
    (run, offered)
}

/// Candidates that are not options.
fn values(offered: &[String]) -> Vec<&str> {
    offered
        .iter()
        .map(String::as_str)
        .filter(|c| !c.starts_with('-'))
        .collect()
}

#[test]
fn checkout_completes_labels_branches_and_ids_from_the_file_named_by_minus_f() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "that.jsonl");
    dir.run(&["-q", "-f", "that.jsonl", "branch", "lib", "first-draft"])
        .status(0);
    let (run, offered) = complete_bash(&dir, &["-f", "that.jsonl", "checkout", ""], &[]);
    let names = values(&offered);
    for want in ["lib", "first-draft", "library", "HEAD", "e15", "e1"] {
        assert!(names.contains(&want), "{want} not offered\n{run}");
    }
    // Names first, ids last, the newest id first.
    assert_eq!(
        names[..4],
        ["lib", "first-draft", "library", "HEAD"],
        "{run}"
    );
    assert_eq!(names[4], "e15", "{run}");
    assert!(
        !names.contains(&"e16"),
        "a ysess record is not offered\n{run}"
    );
    // Only what the word typed so far begins.
    let (run, offered) = complete_bash(&dir, &["-f", "that.jsonl", "checkout", "fi"], &[]);
    assert_eq!(offered, ["first-draft"], "{run}");
    // --file=PATH and the file after the command name count too.
    let (_, offered) = complete_bash(&dir, &["--file=that.jsonl", "show", "li"], &[]);
    assert_eq!(offered, ["lib", "library"]);
    let (_, offered) = complete_bash(&dir, &["log", "-f", "that.jsonl", "e1"], &[]);
    assert_eq!(
        values(&offered),
        ["e15", "e14", "e13", "e12", "e11", "e10", "e1"]
    );
}

#[test]
fn every_revision_argument_completes() {
    let dir = demo();
    let lines: &[&[&str]] = &[
        &["log", "lib"],
        &["show", "lib"],
        &["checkout", "lib"],
        &["diff", "lib"],
        &["diff", "e1", "lib"],
        &["export", "lib"],
        &["tag", "x", "lib"],
        &["tag", "lib"],
        &["tag", "-d", "lib"],
        &["branch", "--contains", "lib"],
        &["branch", "x", "lib"],
        &["append", "--parent", "lib"],
        &["stats", "lib"],
        &["stats", "e1", "lib"],
    ];
    for words in lines {
        let (run, offered) = complete_bash(&dir, words, &[]);
        assert_eq!(offered, ["library"], "{run}");
    }
}

#[test]
fn minus_c_and_ysess_file_choose_the_session_as_the_command_would() {
    let dir = Dir::new();
    std::fs::create_dir(dir.join("sub")).expect("mkdir");
    dir.fixture("demo.jsonl", "sub/session.jsonl");
    dir.fixture("small-forked.jsonl", "sub/other.jsonl");
    let (run, offered) = complete_bash(&dir, &["-C", "sub", "checkout", ""], &[]);
    assert!(values(&offered).contains(&"first-draft"), "{run}");
    let (run, offered) = complete_bash(&dir, &["-C", "sub", "-f", "other.jsonl", "log", ""], &[]);
    let values = values(&offered);
    assert!(
        values.contains(&"cp-3") && !values.contains(&"first-draft"),
        "{run}"
    );
    let (run, offered) = complete_bash(
        &dir,
        &["checkout", "f"],
        &[("YSESS_FILE", "sub/session.jsonl")],
    );
    assert_eq!(offered, ["first-draft"], "{run}");
}

#[test]
fn without_a_readable_session_completion_offers_no_values_and_says_nothing() {
    let dir = Dir::new();
    let (run, offered) = complete_bash(&dir, &["checkout", ""], &[]);
    assert!(values(&offered).is_empty(), "{run}");
    dir.write("session.jsonl", "{not json\n");
    let (run, offered) = complete_bash(&dir, &["checkout", ""], &[]);
    assert!(values(&offered).is_empty(), "{run}");
    // Standard input is never read while completing.
    let (run, offered) = complete_bash(&dir, &["-f", "-", "checkout", ""], &[]);
    assert!(values(&offered).is_empty(), "{run}");
}

#[test]
fn a_huge_session_offers_the_newest_ids_but_any_typed_prefix_finds_its_ids() {
    let dir = Dir::new();
    let mut lines = vec![user_line("e1", None, "turn 1")];
    for n in 2..=700 {
        lines.push(user_line(
            &format!("e{n}"),
            Some(&format!("e{}", n - 1)),
            "turn",
        ));
    }
    dir.write("session.jsonl", lines.join("\n"));
    let (run, offered) = complete_bash(&dir, &["show", "e"], &[]);
    assert_eq!(offered.len(), 500, "{run}");
    assert_eq!(offered[0], "e700");
    assert_eq!(offered[499], "e201");
    let (_, offered) = complete_bash(&dir, &["show", "e1"], &[]);
    assert_eq!(offered.len(), 111);
    assert_eq!(offered.last().map(String::as_str), Some("e1"));
}

#[test]
fn fish_and_zsh_get_candidates_with_descriptions() {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "that.jsonl");
    // fish passes the line up to the cursor, the word being completed last.
    let run = dir.run_with(
        &["--", "ysess", "-f", "that.jsonl", "checkout", "first"],
        None,
        &[("COMPLETE", "fish")],
    );
    run.status(0)
        .stdout("first-draft\tlabel at e4\n")
        .stderr("");
    // zsh says which word is under the cursor; an empty one may be missing.
    let run = dir.run_with(
        &["--", "ysess", "-f", "that.jsonl", "checkout"],
        None,
        &[
            ("COMPLETE", "zsh"),
            ("_CLAP_COMPLETE_INDEX", "4"),
            ("_CLAP_IFS", "\n"),
        ],
    );
    run.status(0).stderr("");
    assert!(
        run.stdout.lines().any(|l| l == "library:label at e8"),
        "{run}"
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("e15:assistant: clap")),
        "{run}"
    );
}

#[test]
fn complete_without_a_line_prints_the_shell_registration() {
    let dir = Dir::new();
    for (shell, marker) in [
        ("bash", "complete -o nospace"),
        ("zsh", "#compdef ysess"),
        ("fish", "complete --keep-order"),
    ] {
        let run = dir.run_with(&[], None, &[("COMPLETE", shell)]);
        run.status(0).stderr("");
        assert!(run.stdout.contains(marker), "{run}");
    }
}

// ---------------------------------------------------------------------------
// Help
// ---------------------------------------------------------------------------

#[test]
fn every_command_has_a_summary_a_paragraph_and_examples() {
    let cmd = ysess::cli::command();
    let mut seen = 0;
    for sub in cmd.get_subcommands() {
        let name = sub.get_name();
        let summary = sub.get_about().map(|s| s.to_string()).unwrap_or_default();
        assert!(
            !summary.trim().is_empty() && !summary.contains('\n'),
            "{name}: the summary is one line: {summary:?}"
        );
        let long = sub
            .get_long_about()
            .map(|s| s.to_string())
            .unwrap_or_default();
        let parts: Vec<&str> = long.split("\n\n").collect();
        assert!(
            parts.len() >= 3,
            "{name}: --help has a summary, a paragraph and examples:\n{long}"
        );
        assert_eq!(parts[0], summary, "{name}: the first line is the summary");
        assert!(
            parts[1..parts.len() - 1]
                .iter()
                .all(|p| !p.trim().is_empty() && !p.starts_with("Examples:")),
            "{name}: a paragraph comes before the examples:\n{long}"
        );
        let examples = parts[parts.len() - 1];
        let mut lines = examples.lines();
        assert_eq!(lines.next(), Some("Examples:"), "{name}:\n{long}");
        let examples: Vec<&str> = lines.collect();
        assert!(
            !examples.is_empty()
                && examples
                    .iter()
                    .all(|l| l.starts_with(&format!("  ysess {name}")) || l.contains("| ysess")),
            "{name}: each example is an indented `ysess {name} …` line:\n{long}"
        );
        seen += 1;
    }
    assert!(seen >= 10, "the hidden generate command is checked too");
}

#[test]
fn help_cmd_prints_the_commands_help() {
    let dir = Dir::new();
    let help = dir.run(&["help", "log"]);
    help.status(0).stderr("");
    assert!(
        help.stdout
            .starts_with("Show the conversation that led to an entry, newest first\n\n"),
        "{help}"
    );
    assert!(
        help.stdout.contains("\nExamples:\n  ysess log -n 5"),
        "{help}"
    );
    assert!(
        help.stdout.contains("Usage: ysess log [OPTIONS] [REV]..."),
        "{help}"
    );
    dir.run(&["log", "--help"]).status(0).stdout(&help.stdout);
}

#[test]
fn a_mistyped_command_gets_did_you_mean() {
    let dir = Dir::new();
    for (typed, meant) in [("lgo", "log"), ("chekcout", "checkout"), ("shwo", "show")] {
        let run = dir.run(&[typed]);
        run.status(2).stdout("");
        assert!(
            run.stderr
                .contains(&format!("unrecognized subcommand '{typed}'"))
                && run.stderr.contains(&format!("did you mean '{meant}'?")),
            "{run}"
        );
    }
    let run = dir.run(&["help", "lgo"]);
    run.status(2);
    assert!(run.stderr.contains("did you mean 'log'?"), "{run}");
    let run = dir.run(&["xyzzy"]);
    run.status(2);
    assert!(!run.stderr.contains("did you mean"), "{run}");
}

/// Man page text as a reader sees it: requests (`.TP`) and fonts dropped,
/// roff escapes undone, white space runs as one space.
fn unroff(page: &str) -> String {
    let text: Vec<&str> = page.lines().filter(|l| !l.starts_with('.')).collect();
    let text = text
        .join("\n")
        .replace("\\-", "-")
        .replace("\\*(Aq", "'")
        .replace("\\fB", "")
        .replace("\\fI", "")
        .replace("\\fR", "");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn man_synopsis_names_every_option_value() {
    let man = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let read = |name: &str| std::fs::read_to_string(man.join(name)).expect("a man page");
    let synopsis = |page: &str| {
        let page = read(page);
        let from = page.find(".SH SYNOPSIS\n").expect("a SYNOPSIS") + 13;
        let to = from + page[from..].find("\n.SH").expect("more sections");
        unroff(&page[from..to])
    };
    let log = synopsis("ysess-log.1");
    for shown in [
        "[-f|--file PATH]",
        "[-C DIR]",
        "[-n|--max-count N]",
        "[--format FMT]",
        "[--color WHEN]",
        "[--no-pager]",
        "[REV]",
    ] {
        assert!(log.contains(shown), "{shown} not in: {log}");
    }
    assert!(!log.contains("-C ]") && !log.contains("--file]"), "{log}");
    let diff = synopsis("ysess-diff.1");
    assert!(diff.contains("[--files OLD NEW]"), "{diff}");
    assert!(synopsis("ysess-fsck.1").contains("[PATH]..."));
    assert!(
        synopsis("ysess.1").ends_with("[--no-pager] [--format-of FORMAT] [-j|--jobs N] COMMAND")
    );
}

#[test]
fn man_pages_have_revisions_exit_status_environment_and_examples_as_help_says() {
    use ysess::cli::manual::{ENVIRONMENT, EXIT_STATUS, REVISIONS};
    let dir = Dir::new();
    let help = dir.run(&["--help"]);
    help.status(0);
    let help_text = unroff(&help.stdout);
    let man = Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut pages = 0;
    for (name, bytes) in files(&man) {
        let page = String::from_utf8(bytes).expect("UTF-8");
        // A section's text, from its heading to the next one.
        let section = |heading: &str| -> Option<String> {
            let at = page.find(&format!(".SH {heading}\n"))?;
            let rest = &page[at + heading.len() + 5..];
            Some(unroff(&rest[..rest.find("\n.SH").unwrap_or(rest.len())]))
        };
        let command = name.trim_end_matches(".1").replace('-', " ");
        let mut shared = vec![
            ("\"EXIT STATUS\"", &EXIT_STATUS),
            ("ENVIRONMENT", &ENVIRONMENT),
        ];
        if [
            "ysess fsck",
            "ysess status",
            "ysess reflog",
            "ysess ls",
            "ysess archive",
        ]
        .contains(&command.as_str())
        {
            assert_eq!(section("REVISIONS"), None, "{name} takes no revision");
        } else {
            shared.push(("REVISIONS", &REVISIONS));
        }
        for (heading, words) in shared {
            let body = section(heading).unwrap_or_else(|| panic!("{name} lacks {heading}"));
            // The same words as `ysess --help`.
            for (term, meaning) in words.items {
                let item = format!("{term} {}", unroff(meaning));
                assert!(body.contains(&item), "{name}: {item}");
                assert!(help_text.contains(&item), "--help: {item}");
            }
        }
        // The examples have a section of their own, out of the description.
        let examples = section("EXAMPLES").unwrap_or_else(|| panic!("{name}: no EXAMPLES"));
        assert!(examples.starts_with(&command), "{name}: {examples}");
        let description = section("DESCRIPTION").expect("a DESCRIPTION");
        assert!(!description.contains("Examples:"), "{name}: {description}");
        pages += 1;
    }
    assert_eq!(pages, 18);
}

/// The environment variables ysess's own code reads (`var("…")`,
/// `var_os("…")`, and the agents' folders' `set("…")`), each with a file
/// that reads it.
fn variables_read() -> BTreeMap<String, String> {
    let re = regex::Regex::new(r#"\b(?:var|var_os|set)\("([A-Z][A-Z0-9_]+)"\)"#).unwrap();
    let mut found = BTreeMap::new();
    let mut dirs = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("src")];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                for c in re.captures_iter(&text) {
                    found
                        .entry(c[1].to_string())
                        .or_insert_with(|| path.display().to_string());
                }
            }
        }
    }
    found
}

/// Help texts, the options table and the manual say the same things: the
/// formats and the environment variables they list.
#[test]
fn help_and_readme_name_every_format_and_every_variable_ysess_reads() {
    let dir = Dir::new();
    let help = dir.run(&["--help"]);
    help.status(0);
    let help = help.stdout;
    let manual = crate::readme::pages::manual();
    let options_page = "docs/global-options.md";
    let options = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(options_page))
        .expect("the options table's page reads");
    // Every variable read is in --help's Environment section and the
    // manual (README.md and docs/); but HOME, and the crash harness's pause
    // point (a test hook).
    let environment = help
        .split("\nEnvironment:\n")
        .nth(1)
        .expect("--help has an Environment section");
    let read = variables_read();
    assert!(read.len() >= 20, "{read:?}");
    for (name, file) in &read {
        if name == "HOME" || name == "YSESS_DEBUG_PAUSE" {
            continue;
        }
        assert!(
            environment.contains(name.as_str()),
            "{name} (read in {file}) is missing from --help's Environment"
        );
        assert!(
            manual.contains(name.as_str()),
            "{name} (read in {file}) is missing from the manual (README.md and docs/)"
        );
    }
    // Every format --format-of takes is in the options table's row, and
    // its app's name in --help's description and in the manual's table of
    // formats (README.md).
    let values: Vec<(&str, &str)> = help
        .split("--format-of <FORMAT>")
        .nth(1)
        .and_then(|h| h.split("Possible values:\n").nth(1))
        .expect("--format-of lists its values")
        .lines()
        .map_while(|l| l.trim().strip_prefix("- ")?.split_once(':'))
        .map(|(value, said)| (value.trim(), said.trim()))
        .collect();
    assert_eq!(values.len(), 8, "{values:?}");
    let about = help.split("\nUsage:").next().unwrap().replace('\n', " ");
    let row = options
        .lines()
        .find(|l| l.starts_with("| `--format-of "))
        .expect("the options table has --format-of");
    let readme = crate::readme::pages::readme().text;
    let formats_table: Vec<&str> = readme
        .split("## The formats it reads")
        .nth(1)
        .expect("README.md has its table of formats")
        .lines()
        .skip_while(|l| !l.starts_with("| format "))
        .skip(2)
        .take_while(|l| l.starts_with("| "))
        .collect();
    assert_eq!(formats_table.len(), values.len(), "{formats_table:?}");
    for (value, said) in values {
        assert!(
            row.contains(value),
            "{options_page}'s --format-of row lacks {value}: {row}"
        );
        let app = said.split("'s ").next().unwrap();
        assert!(
            about.contains(app),
            "--help's description does not name {app} ({value})"
        );
        let table_row = formats_table
            .iter()
            .find(|l| l.starts_with(&format!("| {app} |")))
            .unwrap_or_else(|| panic!("README.md's table of formats has no row for {app}"));
        let read_only = said.contains("(read only)");
        assert_eq!(
            table_row.contains("| read only"),
            read_only,
            "README.md's table and --help disagree on whether ysess writes {app}'s files"
        );
    }
}
