//! Hints that a person can run as they are: the command line they typed,
//! with the fix, and what to do when there is no session file at all.

use std::io;

use super::{FileFrom, Global};
use crate::fleet::check::{Finding, Remedy};
use crate::ops::RevError;
use crate::repo::LoadError;

/// A word as a POSIX shell reads it back: as it is when that is safe, else
/// in single quotes.
pub fn quote(word: &str) -> String {
    let safe = |c: char| c.is_alphanumeric() || "-_./:@+,%".contains(c);
    if !word.is_empty() && word.chars().all(safe) && !word.starts_with('~') {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// `` `ysess -f FILE tag --force NAME REV` ``: `ysess`, the global options
/// the person gave on the command line (so the hint acts on the same file),
/// then `words`, each quoted for the shell.
pub fn command(global: &Global, words: &[&str]) -> String {
    // A session `-s` found is named by its file, as `-f` would name it.
    let named = matches!(global.file_from, FileFrom::CommandLine | FileFrom::Session);
    line(global, named, words)
}

/// `` `ysess fsck OPTIONS FILE` `` for the session file (with `-C` when the
/// person gave it), so that fsck checks the same file.
pub fn fsck(global: &Global, options: &[&str]) -> String {
    let file = global.file.to_string_lossy();
    let mut words = vec!["fsck"];
    words.extend(options);
    words.push(&file);
    line(global, false, &words)
}

fn line(global: &Global, with_file: bool, words: &[&str]) -> String {
    let mut line = String::from("ysess");
    if let Some(dir) = &global.dir {
        line.push_str(" -C ");
        line.push_str(&quote(&dir.to_string_lossy()));
    }
    if with_file {
        line.push_str(" -f ");
        line.push_str(&quote(&global.file.to_string_lossy()));
    }
    // The format the command read the file as, so the hint reads it so too.
    if let Some(format) = global.format_of {
        line.push_str(" --format-of ");
        line.push_str(format.name());
    }
    for word in words {
        line.push(' ');
        line.push_str(&quote(word));
    }
    format!("`{line}`")
}

/// When the session file does not exist: where the name came from, and how
/// to name another (or try the demo session).
pub fn missing_file(global: &Global, error: &io::Error) -> Vec<String> {
    if error.kind() != io::ErrorKind::NotFound {
        return Vec::new();
    }
    let file = quote(&global.file.to_string_lossy());
    let mut hints = vec![match global.file_from {
        FileFrom::Default => format!(
            "ysess reads {file} in the current directory unless `-f PATH` or the \
             YSESS_FILE environment variable names another session file"
        ),
        FileFrom::Environment => format!(
            "the YSESS_FILE environment variable names {file}; `-f PATH` names another \
             session file"
        ),
        FileFrom::CommandLine => "check the path given with `-f`".to_string(),
        FileFrom::Session => {
            "the file `-s` found is gone: `ysess ls` lists those there are".to_string()
        }
    }];
    if global.file_from == FileFrom::Default || global.file_from == FileFrom::Environment {
        hints.push(
            "to try ysess, run it on the demo session in its source tree: \
             `ysess -f tests/fixtures/demo.jsonl log --graph`"
                .to_string(),
        );
    }
    hints
}

/// A finding's message, with what ysess can do about it (its [`Remedy`])
/// in the command line's words.
pub fn finding(f: &Finding) -> String {
    let message = &f.message;
    match f.remedy {
        None => message.clone(),
        Some(Remedy::CutTorn(bytes)) => {
            format!("{message}, and `ysess fsck --repair` cuts the {bytes} torn bytes after it")
        }
        Some(Remedy::CutTornWhenQuiet) => format!(
            "{message}. Run fsck again once no program writes the file: \
             a line still torn then is an interrupted write, which `ysess fsck --repair` cuts"
        ),
        Some(Remedy::CompareOldCopy) => format!(
            "{message} (compare with an old copy, `ysess fsck --since OLDFILE`, to name the line)"
        ),
    }
}

/// Why a session would not load, its first finding worded by [`finding`].
pub fn load_error(e: &LoadError) -> String {
    match e {
        LoadError::Invalid { first, errors } => LoadError::Invalid {
            first: Finding {
                message: finding(first),
                remedy: None,
                ..first.clone()
            },
            errors: *errors,
        }
        .to_string(),
        LoadError::Io(_) => e.to_string(),
    }
}

/// Advice to print after a revision that names nothing, one line each.
pub fn revision(e: &RevError) -> Vec<String> {
    match e {
        RevError::EmptySession { .. } | RevError::NoHead { .. } => Vec::new(),
        RevError::Empty => vec![syntax_hint()],
        RevError::NoBase { text } => vec![format!("did you mean 'HEAD{text}'?")],
        RevError::Unknown {
            suffix, suggestion, ..
        } => match suggestion {
            Some(near) => vec![format!("did you mean '{near}{suffix}'?")],
            None => vec![syntax_hint()],
        },
        RevError::Ambiguous { .. } => {
            vec!["give more of the id or label, or all of it".to_owned()]
        }
        RevError::PastRoot {
            from,
            ancestors,
            root,
            ..
        } => match ancestors {
            0 => Vec::new(),
            n => vec![format!("the root is {root} ({from}~{n})")],
        },
        RevError::BadSuffix { .. } => vec![suffix_hint()],
        RevError::NoSecondParent { .. } => vec![suffix_hint()],
        RevError::Record { entry, .. } => entry
            .iter()
            .map(|e| format!("it hangs from {e}; name that entry instead"))
            .collect(),
        RevError::HugeMove { .. } => {
            vec!["`ysess reflog` lists the HEAD moves ysess recorded".to_owned()]
        }
        RevError::NoPrevious { moves: 0, .. } => {
            vec!["`ysess checkout` records each HEAD move; `ysess reflog` lists them".to_owned()]
        }
        RevError::NoPrevious { moves, .. } => {
            vec![format!(
                "`ysess reflog` lists them: HEAD@{{1}} to HEAD@{{{moves}}}"
            )]
        }
    }
}

/// What a revision may be.
fn syntax_hint() -> String {
    "a revision is HEAD, @, @-, HEAD@{N}, an entry id or label or branch (or a unique prefix \
     of one), then any of ~N and ^"
        .to_owned()
}

fn suffix_hint() -> String {
    "'~N' goes N entries back and '^' goes to the parent, e.g. 'HEAD~2' or 'HEAD^'".to_owned()
}

#[cfg(test)]
mod tests {
    use crate::ops::RevError;

    #[test]
    fn a_revision_error_advises_what_to_type() {
        let unknown = RevError::Unknown {
            name: "frist".into(),
            suffix: "~2".into(),
            suggestion: Some("first-draft".into()),
        };
        assert_eq!(super::revision(&unknown), ["did you mean 'first-draft~2'?"]);
        let previous = RevError::NoPrevious {
            text: "HEAD@{3}".into(),
            n: 3,
            moves: 2,
        };
        assert_eq!(
            super::revision(&previous),
            ["`ysess reflog` lists them: HEAD@{1} to HEAD@{2}"]
        );
        let past = RevError::PastRoot {
            text: "e3~5".into(),
            from: "e3".into(),
            ancestors: 2,
            root: "e1".into(),
        };
        assert_eq!(super::revision(&past), ["the root is e1 (e3~2)"]);
        let bad = RevError::BadSuffix {
            text: "e1x".into(),
            suffix: "x".into(),
        };
        assert_eq!(super::revision(&bad), [super::suffix_hint()]);
        assert_eq!(super::revision(&RevError::Empty), [super::syntax_hint()]);
    }

    use super::quote;

    #[test]
    fn words_are_quoted_only_when_a_shell_would_change_them() {
        assert_eq!(quote("first-draft"), "first-draft");
        assert_eq!(quote("e6"), "e6");
        assert_eq!(quote("feature/x"), "feature/x");
        assert_eq!(quote("naïve"), "naïve");
        assert_eq!(quote("first-draft~2"), "'first-draft~2'");
        assert_eq!(quote("@^"), "'@^'");
        assert_eq!(quote("~x"), "'~x'");
        assert_eq!(quote("it's"), r"'it'\''s'");
        assert_eq!(quote("a b"), "'a b'");
        assert_eq!(quote("$(x)"), "'$(x)'");
        assert_eq!(quote(""), "''");
    }
}
