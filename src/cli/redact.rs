//! `--redact` and `--redact-pattern`, as `export` and `grep --secrets`
//! take them: the [`Redactor`] built from the machine's home directory and
//! user name, and the count of what it took out.

use std::io::Write;

use super::Failure;
use crate::view::redact::{Options, Redactor};

/// The redactor for this machine (`$HOME`, `$USER` or `$USERNAME`) with the
/// user's `patterns`; a pattern that does not parse is a usage error.
pub fn redactor(patterns: &[String]) -> Result<Redactor, Failure> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    let options = Options {
        home: var("HOME").or_else(|| var("USERPROFILE")),
        user: var("USER").or_else(|| var("USERNAME")),
        patterns: patterns.to_vec(),
    };
    Redactor::new(&options).map_err(|e| {
        Failure::usage(format!(
            "a --redact-pattern does not parse: {}",
            crate::search::one_line(&e)
        ))
    })
}

/// `redacted: 3 github-token, 1 email` (or `redacted: nothing`) on
/// stderr.
pub fn report(err: &mut dyn Write, redactor: &Redactor) -> std::io::Result<()> {
    let counts = redactor.counts();
    if counts.is_empty() {
        return writeln!(err, "redacted: nothing");
    }
    let list: Vec<String> = counts
        .iter()
        .map(|(kind, n)| format!("{n} {kind}"))
        .collect();
    writeln!(err, "redacted: {}", list.join(", "))
}
