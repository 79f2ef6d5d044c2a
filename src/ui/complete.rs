//! Dynamic completion of what lives in the session: branch names, labels
//! and entry ids, read from the session file the command line names.
//!
//! clap_complete's `CompleteEnv` runs ysess as `COMPLETE=<shell> ysess --
//! <words of the line being completed>`. A completer is handed only the word
//! under the cursor, so the session file is found by reading `-f/--file` and
//! `-C` from those words, as the finished command would. Completion must be
//! quick and silent: any trouble (no file, a broken one, standard input)
//! gives no candidates and prints nothing.

use std::ffi::{OsStr, OsString};
use std::path::PathBuf;

use clap_complete::engine::{ArgValueCompleter, CompletionCandidate};

use crate::input::Source;
use crate::repo::Repo;
use crate::tree::Ix;

/// At most this many entry ids are offered, the newest first.
pub const MAX_IDS: usize = 500;

/// Completes a revision: branch names, labels, `HEAD`, then entry ids.
pub fn revisions() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(current, Want::Revisions))
}

/// Completes a label name.
pub fn labels() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(current, Want::Labels))
}

/// Completes a branch name.
pub fn branches() -> ArgValueCompleter {
    ArgValueCompleter::new(|current: &OsStr| candidates(current, Want::Branches))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Want {
    Revisions,
    Labels,
    Branches,
}

fn candidates(current: &OsStr, want: Want) -> Vec<CompletionCandidate> {
    let Some(current) = current.to_str() else {
        return Vec::new();
    };
    let Some(path) = session_path(&line_words(), std::env::var_os("YSESS_FILE")) else {
        return Vec::new();
    };
    let Ok(repo) = Repo::open(Source::Path(path), &crate::repo::Open::default()) else {
        return Vec::new();
    };
    let tree = &repo.tree;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut offer = |value: &str, help: String, out: &mut Vec<CompletionCandidate>| {
        if value.starts_with(current) && seen.insert(value.to_string()) {
            out.push(CompletionCandidate::new(value).help(Some(help.into())));
        }
    };
    if matches!(want, Want::Revisions | Want::Branches) {
        for branch in &repo.refs.branches {
            let help = format!("branch at {}", safe(tree.short_id(branch.tip)));
            offer(&branch.name, help, &mut out);
        }
    }
    if matches!(want, Want::Revisions | Want::Labels) {
        for name in tree.label_names() {
            let help = match tree.label(name) {
                Some(ix) => format!("label at {}", safe(tree.short_id(ix))),
                None => "label".to_string(),
            };
            offer(name, help, &mut out);
        }
    }
    if want == Want::Revisions {
        if let Some(head) = tree.head() {
            offer(
                "HEAD",
                format!("at {}", safe(tree.short_id(head))),
                &mut out,
            );
        }
        let mut ids = 0;
        for ix in (0..tree.len() as Ix)
            .rev()
            .filter(|&ix| !tree.is_record(ix))
        {
            if ids == MAX_IDS {
                break;
            }
            let id = tree.id(ix);
            if id.starts_with(current) {
                ids += 1;
                offer(id, describe(tree, ix), &mut out);
            }
        }
    }
    out
}

/// An entry's role and first line, short and safe for a terminal.
fn describe(tree: &crate::tree::Tree, ix: Ix) -> String {
    let role = tree.node(ix).kind.role_name();
    let subject: String = tree.subject(ix).chars().take(60).collect();
    safe(&format!("{role}: {subject}"))
}

fn safe(text: &str) -> String {
    crate::ui::output::escape(text).into_owned()
}

/// The words of the command line being completed, up to (not including)
/// the one under the cursor, without the program name.
fn line_words() -> Vec<OsString> {
    let mut args = std::env::args_os().skip_while(|a| a != "--");
    args.next();
    let words: Vec<OsString> = args.collect();
    // bash, zsh and elvish say which word is being completed; fish and
    // PowerShell pass the line up to the cursor, that word last.
    let index = std::env::var("_CLAP_COMPLETE_INDEX")
        .ok()
        .and_then(|i| i.parse::<usize>().ok())
        .unwrap_or(words.len().saturating_sub(1))
        .min(words.len());
    words.into_iter().take(index).skip(1).collect()
}

/// The session file these words name, as the finished command would open
/// it: `-f/--file` (else `$YSESS_FILE`, else `session.jsonl`), inside `-C`
/// when given. `None` for standard input.
fn session_path(words: &[OsString], env_file: Option<OsString>) -> Option<PathBuf> {
    let mut file: Option<OsString> = None;
    let mut dir: Option<OsString> = None;
    let mut words = words.iter();
    while let Some(word) = words.next() {
        let Some(word) = word.to_str() else {
            continue;
        };
        if word == "--" {
            break;
        }
        if let Some(long) = word.strip_prefix("--") {
            match long.split_once('=') {
                Some(("file", value)) => file = Some(value.into()),
                None if long == "file" => file = words.next().cloned(),
                _ => {}
            }
            continue;
        }
        let Some(shorts) = word.strip_prefix('-') else {
            continue;
        };
        // A cluster of flags (`-qf PATH`): a value-taking short ends it,
        // the rest of the word (or else the next word) being its value.
        for (at, c) in shorts.char_indices() {
            let slot = match c {
                'f' => &mut file,
                'C' => &mut dir,
                'q' | 'z' | 'F' | 'v' => continue,
                _ => break,
            };
            let rest = &shorts[at + 1..];
            let rest = rest.strip_prefix('=').unwrap_or(rest);
            *slot = if rest.is_empty() {
                words.next().cloned()
            } else {
                Some(rest.into())
            };
            break;
        }
    }
    let file = file.or(env_file).unwrap_or_else(|| "session.jsonl".into());
    let file = unquote(&file);
    if file == std::path::Path::new("-") {
        return None;
    }
    Some(match dir {
        Some(dir) => unquote(&dir).join(file),
        None => file,
    })
}

/// A word as the shell will see it: quotes around it removed, a leading
/// `~/` expanded (the shell passes what was typed, before expansion).
fn unquote(word: &OsStr) -> PathBuf {
    let Some(text) = word.to_str() else {
        return PathBuf::from(word);
    };
    let text = [('\'', '\''), ('"', '"')]
        .iter()
        .find_map(|&(open, close)| {
            text.strip_prefix(open)
                .and_then(|t| t.strip_suffix(close))
                .filter(|_| text.len() >= 2)
        })
        .unwrap_or(text);
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(text),
    }
}

#[cfg(test)]
mod tests {
    use super::session_path;
    use std::ffi::OsString;
    use std::path::PathBuf;

    fn path(words: &[&str], env: Option<&str>) -> Option<PathBuf> {
        let words: Vec<OsString> = words.iter().map(OsString::from).collect();
        session_path(&words, env.map(OsString::from))
    }

    #[test]
    fn the_session_file_is_read_from_the_line_then_the_environment() {
        assert_eq!(path(&["log"], None), Some("session.jsonl".into()));
        assert_eq!(path(&["log"], Some("e.jsonl")), Some("e.jsonl".into()));
        assert_eq!(
            path(&["-f", "a.jsonl", "log"], Some("e")),
            Some("a.jsonl".into())
        );
        assert_eq!(path(&["log", "--file", "b"], None), Some("b".into()));
        assert_eq!(path(&["--file=c", "show"], None), Some("c".into()));
        assert_eq!(path(&["-fd", "show"], None), Some("d".into()));
        assert_eq!(path(&["-qf", "g", "show"], None), Some("g".into()));
        assert_eq!(
            path(&["-C", "sub", "log"], None),
            Some("sub/session.jsonl".into())
        );
        assert_eq!(
            path(&["-Csub", "-f", "x", "log"], None),
            Some("sub/x".into())
        );
        assert_eq!(
            path(&["-f", "'my file'", "log"], None),
            Some("my file".into())
        );
        assert_eq!(path(&["-f", "-", "log"], None), None);
        assert_eq!(
            path(&["log", "--", "-f", "x"], None),
            Some("session.jsonl".into())
        );
        assert_eq!(
            path(&["log", "-n", "-f"], None),
            Some("session.jsonl".into())
        );
    }
}
