//! Hints that a person can run as they are: the command line they typed,
//! with the fix, and what to do when there is no session file at all.

use std::io;

use super::{FileFrom, Global};

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
    line(global, global.file_from == FileFrom::CommandLine, words)
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
    }];
    if global.file_from != FileFrom::CommandLine {
        hints.push(
            "to try ysess, run it on the demo session in its source tree: \
             `ysess -f tests/fixtures/demo.jsonl log --graph`"
                .to_string(),
        );
    }
    hints
}

#[cfg(test)]
mod tests {
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
