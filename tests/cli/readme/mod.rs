//! The manual, tested: every `$ ysess …` example in README.md and in every
//! page of `docs/` runs, and its output must be what the page shows.
//!
//! The rules for the manual's authors (README.md and `docs/**/*.md` alike):
//!
//! - An example with commands and their output goes in a fenced block tagged
//!   `console`. Blocks tagged otherwise (`sh`, `json`, `yaml`, none) are not
//!   run, and a `$ ` line may appear only in a `console` block.
//! - In a `console` block, a line starting with `$ ` is a command: `ysess`
//!   and its arguments, quoted as in a POSIX shell (no pipes, redirections,
//!   variables or other programs: show those in a `sh` block). A trailing
//!   `# comment` is dropped.
//! - The lines after a command, up to the next command or the block's end,
//!   are what it prints: stdout, then stderr. They must match exactly, except
//!   for white space at the end of each line and blank lines at the end.
//! - The command must exit 0, or non-zero when its output shows an `error:`
//!   line, or N when its comment is `# exit N`. A command with no lines
//!   after it is checked only for that.
//! - Each block runs in a fresh directory of its own, holding
//!   `tests/fixtures/*` at the same paths as in the repository and
//!   `session.jsonl`, a copy of `tests/fixtures/demo.jsonl`. The commands of
//!   one block run in order in that directory, so a block can be a tour.
//! - Output must not depend on the clock: after an `append`, show what holds
//!   no new entry's time (`branch -v`, `log --format` without `{time}`).
//!
//! Commands run as the rest of these tests run them: `TZ=UTC`, no colour, no
//! pager.

use std::fmt::Write as _;
use std::path::Path;

use crate::support::Dir;

pub mod pages;

use pages::Page;

/// One fenced code block.
struct Block {
    /// The info string after the opening fence (`console`, `sh`, …).
    tag: String,
    /// The 1-based line of each content line, with the content (the
    /// fence's indentation taken off).
    lines: Vec<(usize, String)>,
}

fn blocks(name: &str, markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<(usize, usize, Block)> = None; // (indent, fence length, block)
    for (i, line) in markdown.lines().enumerate() {
        let n = i + 1;
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        match &mut open {
            None => {
                if ticks >= 3 {
                    let tag = trimmed[ticks..].trim().to_string();
                    open = Some((indent, ticks, Block { tag, lines: vec![] }));
                }
            }
            Some((fence_indent, fence_len, block)) => {
                if ticks >= *fence_len && trimmed[ticks..].trim().is_empty() {
                    out.push(open.take().expect("a block is open").2);
                } else {
                    let strip = indent.min(*fence_indent);
                    block.lines.push((n, line[strip..].to_string()));
                }
            }
        }
    }
    assert!(open.is_none(), "{name} ends inside a code block");
    out
}

/// One `$ ` line of a console block and the output shown after it.
struct Example {
    /// The page it is on (`README.md`, `docs/commands/log.md`).
    file: String,
    line: usize,
    command: String,
    expected: Vec<String>,
}

fn examples(file: &str, block: &Block) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    for (n, text) in &block.lines {
        if let Some(command) = text.strip_prefix("$ ") {
            out.push(Example {
                file: file.to_string(),
                line: *n,
                command: command.to_string(),
                expected: vec![],
            });
        } else if let Some(last) = out.last_mut() {
            last.expected.push(text.trim_end().to_string());
        } else if !text.trim().is_empty() {
            // Output before any command: nothing runs to print it.
            out.push(Example {
                file: file.to_string(),
                line: *n,
                command: String::new(),
                expected: vec![text.clone()],
            });
        }
    }
    out
}

/// A command line split into words as a POSIX shell would (quotes and
/// backslashes), with its trailing comment.
#[derive(Debug, PartialEq)]
struct Words {
    words: Vec<String>,
    comment: Option<String>,
}

fn split(command: &str) -> Result<Words, String> {
    let unsupported = |what: &str| {
        Err(format!(
            "{what} is not supported in a ```console block: only `ysess ARGS` runs; \
             move this example to a ```sh block, which is not run"
        ))
    };
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = command.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                words.extend(word.take());
            }
            '#' if word.is_none() => {
                let rest: String = chars.collect();
                return finish(words, Some(rest.trim().to_string()));
            }
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("an unclosed ' quote".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("an unclosed \" quote".into()),
                        },
                        Some('$') => return unsupported("a `$` expansion"),
                        Some('`') => return unsupported("a command substitution"),
                        Some(c) => w.push(c),
                        None => return Err("an unclosed \" quote".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => return Err("a trailing backslash".into()),
            },
            '|' => return unsupported("a pipe `|`"),
            '<' | '>' => return unsupported("a redirection"),
            ';' | '&' => return unsupported("a command list (`;`, `&`, `&&`)"),
            '$' => return unsupported("a `$` expansion"),
            '`' => return unsupported("a command substitution"),
            '(' | ')' => return unsupported("a subshell"),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    return finish(words, None);

    fn finish(words: Vec<String>, comment: Option<String>) -> Result<Words, String> {
        match words.first().map(String::as_str) {
            Some("ysess") => Ok(Words { words, comment }),
            Some(other) => Err(format!(
                "`{other}` is not ysess: only `ysess ARGS` runs in a ```console block; \
                 move this example to a ```sh block, which is not run"
            )),
            None => Err("an empty command".into()),
        }
    }
}

/// A fresh directory for one console block: the fixtures at their
/// repository paths, and the demo session as `session.jsonl`.
fn block_dir() -> Dir {
    let dir = Dir::new();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    copy_tree(&from, &dir.join("tests/fixtures"));
    dir.fixture("demo.jsonl", "session.jsonl");
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("fixture dir is made");
    for entry in std::fs::read_dir(from).expect("fixtures are listed") {
        let entry = entry.expect("fixture entry");
        let path = entry.path();
        let target = to.join(entry.file_name());
        if entry.file_type().expect("fixture type").is_dir() {
            copy_tree(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("fixture copies");
        }
    }
}

/// Lines without trailing white space, and without blank lines at the end.
fn normalise<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = lines.into_iter().map(|l| l.trim_end().into()).collect();
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// The exit status a command must have: `# exit N` says N; an `error:` line
/// in its output says some failure; otherwise success.
enum Status {
    Exactly(i32),
    Failure,
}

impl Status {
    fn of(words: &Words, expected: &[String]) -> Result<Status, String> {
        if let Some(code) = words
            .comment
            .as_deref()
            .and_then(|c| c.strip_prefix("exit "))
        {
            return code
                .trim()
                .parse()
                .map(Status::Exactly)
                .map_err(|_| format!("`# exit {code}` is not an exit status"));
        }
        if expected.iter().any(|l| l.starts_with("error:")) {
            Ok(Status::Failure)
        } else {
            Ok(Status::Exactly(0))
        }
    }

    fn accepts(&self, code: Option<i32>) -> bool {
        match self {
            Status::Exactly(want) => code == Some(*want),
            Status::Failure => matches!(code, Some(c) if c != 0),
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Exactly(code) => write!(f, "{code}"),
            Status::Failure => write!(f, "non-zero (the output shows `error:`)"),
        }
    }
}

/// The console blocks of `pages`, each as its examples.
fn console_examples(pages: &[Page]) -> Vec<Vec<Example>> {
    pages
        .iter()
        .flat_map(|page| {
            blocks(&page.name, &page.text)
                .into_iter()
                .filter(|b| b.tag == "console")
                .map(|b| examples(&page.name, &b))
        })
        .collect()
}

fn indented(lines: &[String]) -> String {
    let mut out = String::new();
    for l in lines {
        let _ = writeln!(out, "    |{l}");
    }
    if lines.is_empty() {
        out.push_str("    (nothing)\n");
    }
    out
}

/// Runs one example in `dir`; what is wrong with it, if anything.
fn check(dir: &Dir, example: &Example) -> Option<String> {
    let at = format!("{}:{}: $ {}", example.file, example.line, example.command);
    if example.command.is_empty() {
        return Some(format!(
            "{}:{}: output with no `$ ysess` command before it in a ```console block",
            example.file, example.line
        ));
    }
    let words = match split(&example.command) {
        Ok(words) => words,
        Err(why) => return Some(format!("{at}\n  {why}")),
    };
    let status = match Status::of(&words, &example.expected) {
        Ok(status) => status,
        Err(why) => return Some(format!("{at}\n  {why}")),
    };
    let args: Vec<&str> = words.words[1..].iter().map(String::as_str).collect();
    let run = dir.run(&args);

    let mut problems = String::new();
    if !status.accepts(run.status) {
        let _ = writeln!(
            problems,
            "  exit status: expected {status}, got {:?}",
            run.status
        );
    }
    if !example.expected.is_empty() {
        let mut printed = run.stdout.clone();
        if !printed.is_empty() && !printed.ends_with('\n') {
            printed.push('\n');
        }
        printed.push_str(&run.stderr);
        let expected = normalise(example.expected.iter().map(String::as_str));
        let actual = normalise(printed.lines());
        if expected != actual {
            let first = expected
                .iter()
                .zip(&actual)
                .position(|(e, a)| e != a)
                .unwrap_or(expected.len().min(actual.len()));
            let _ = write!(
                problems,
                "  output differs from {}:{} on\n  \
                 --- expected (the page)\n{}  --- actual (stdout, then stderr)\n{}",
                example.file,
                example.line + 1 + first,
                indented(&expected),
                indented(&actual),
            );
        }
    }
    if problems.is_empty() {
        None
    } else {
        Some(format!("{at}\n{problems}"))
    }
}

/// Runs every console block of `pages`, each in a fresh directory.
fn run_console_examples(pages: &[Page]) {
    let mut failures = Vec::new();
    let mut commands = 0;
    for block in console_examples(pages) {
        let dir = block_dir();
        for example in &block {
            commands += 1;
            failures.extend(check(&dir, example));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {commands} commands of the manual do not match the binary:\n\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn readme_console_examples_print_what_the_readme_shows() {
    run_console_examples(&[pages::readme()]);
}

#[test]
fn readme_docs_console_examples_print_what_their_pages_show() {
    run_console_examples(&pages::docs());
}

#[test]
fn readme_has_enough_console_commands() {
    for (pages, least) in [(vec![pages::readme()], 12), (pages::docs(), 40)] {
        let commands: usize = console_examples(&pages).iter().map(Vec::len).sum();
        assert!(
            commands >= least,
            "{} has only {commands} commands in ```console blocks; the examples \
             should be tested, so they belong in ```console blocks",
            if least == 12 { "README.md" } else { "docs/" }
        );
    }
}

#[test]
fn readme_dollar_lines_appear_only_in_console_blocks() {
    let stray: Vec<String> = pages::all()
        .iter()
        .flat_map(|page| {
            blocks(&page.name, &page.text)
                .into_iter()
                .filter(|b| b.tag != "console")
                .flat_map(|b| b.lines)
                .filter(|(_, l)| l.starts_with("$ "))
                .map(|(n, l)| format!("{}:{n}: {l}", page.name))
        })
        .collect();
    assert!(
        stray.is_empty(),
        "these look like examples but are not in a ```console block, so no test runs \
         them (tag the block `console`, or drop the `$ `):\n{}",
        stray.join("\n")
    );
}

/// README's "Try it" shows the demo and the test command CI runs
/// (`.ci/run` runs "the README's test command"), and says what the tests
/// need and what installs it.
#[test]
fn readme_try_it_commands_are_in_a_sh_block() {
    let readme = pages::readme();
    let sh: Vec<String> = blocks(&readme.name, &readme.text)
        .into_iter()
        .filter(|b| b.tag == "sh")
        .flat_map(|b| b.lines)
        .map(|(_, l)| match l.find(" #") {
            Some(at) => l[..at].trim().to_string(),
            None => l.trim().to_string(),
        })
        .collect();
    for command in [
        "cargo run --release -- -f tests/fixtures/demo.jsonl log --graph",
        "cargo test --locked",
    ] {
        assert!(
            sh.iter().any(|l| l == command),
            "README.md's \"Try it\" should show `{command}` in a ```sh block"
        );
    }
    let ci = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run"))
        .expect(".ci/run reads");
    assert!(
        ci.contains("cargo test --locked"),
        "CI runs another command"
    );
    for need in [
        "npm",
        "venv",
        "Chromium",
        "strace",
        "bash .ci/run",
        "docs/tests.md",
    ] {
        assert!(
            readme.text.contains(need),
            "README.md offers `cargo test --locked` without naming {need}"
        );
    }
}

// ---------------------------------------------------------------------------
// The harness itself
// ---------------------------------------------------------------------------

fn words(command: &str) -> Vec<String> {
    split(command).expect("splits").words
}

#[test]
fn readme_harness_splits_commands_as_a_shell_does() {
    assert_eq!(
        words(r#"ysess log --format '{id}{tab}{subject}' -n 3"#),
        ["ysess", "log", "--format", "{id}{tab}{subject}", "-n", "3"]
    );
    assert_eq!(
        words(r#"ysess append --user "say \"hi\"" a\ b''"#),
        ["ysess", "append", "--user", "say \"hi\"", "a b"]
    );
    assert_eq!(
        split("ysess fsck x.jsonl   # exit 1 ").expect("splits"),
        Words {
            words: vec!["ysess".into(), "fsck".into(), "x.jsonl".into()],
            comment: Some("exit 1".into()),
        }
    );
    // A `#` inside a word or quotes is not a comment.
    assert_eq!(words("ysess show a#b '#c'"), ["ysess", "show", "a#b", "#c"]);
}

#[test]
fn readme_harness_refuses_what_it_cannot_run() {
    for command in [
        "ysess fsck --json | head -1",
        "ysess log > out.txt",
        "ysess tag x && ysess tag -n",
        "ysess fsck --since \"$(cat run.digest)\"",
        "ysess -f $FILE log",
        "cargo run -- log",
        "ysess show 'unclosed",
        "",
    ] {
        assert!(split(command).is_err(), "{command:?} should be refused");
    }
}

#[test]
fn readme_harness_reads_fences_blocks_and_outputs() {
    let md = "text\n\n```console\n$ ysess a   # one\nout 1  \n\n$ ysess b\n```\n\n- item\n\n  ```console\n  $ ysess c\n   x\n  ```\n```sh\n$ not run\n```\n";
    let blocks = blocks("test.md", md);
    assert_eq!(blocks.len(), 3);
    assert_eq!(
        blocks[1].lines,
        [(13, "$ ysess c".into()), (14, " x".into())]
    );
    assert_eq!(blocks[2].tag, "sh");
    let first = examples("test.md", &blocks[0]);
    assert_eq!(first.len(), 2);
    assert_eq!(
        (first[0].line, first[0].command.as_str()),
        (4, "ysess a   # one")
    );
    assert_eq!(
        normalise(first[0].expected.iter().map(String::as_str)),
        ["out 1"]
    );
    assert!(first[1].expected.is_empty());
}

/// The manual's install lines for completions and man pages, run in the
/// repository with an empty `$HOME`: every file lands where it says.
#[test]
fn completion_install_lines_work_in_a_fresh_home() {
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/commands/generate.md"),
    )
    .expect("docs/commands/generate.md reads");
    let start = page
        .find("# Shell completion and man pages")
        .expect("the page has the section");
    let block = blocks("docs/commands/generate.md", &page[start..])
        .into_iter()
        .next()
        .expect("the section opens with its install block");
    assert_eq!(block.tag, "sh");
    let script: Vec<&str> = block
        .lines
        .iter()
        .map(|(_, line)| line.as_str())
        .filter(|l| !l.starts_with('#') && !l.starts_with("cargo "))
        .collect();
    assert!(script.iter().any(|l| l.contains("cp ")), "{script:?}");
    let home = Dir::new();
    let out = std::process::Command::new("sh")
        .arg("-ec")
        .arg(script.join("\n"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("HOME", home.path())
        .output()
        .expect("sh runs");
    assert!(
        out.status.success(),
        "{script:?}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for installed in [
        ".local/share/bash-completion/completions/ysess",
        ".zfunc/_ysess",
        ".config/fish/completions/ysess.fish",
        ".local/share/man/man1/ysess.1",
        ".local/share/man/man1/ysess-log.1",
    ] {
        assert!(home.join(installed).is_file(), "{installed} not installed");
    }
}
