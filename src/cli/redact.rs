//! `--redact` and `--redact-pattern`, as `export` and `grep --secrets`
//! take them: the [`Redactor`] built from the machine's home directory and
//! user name, and the count of what it took out.

use std::io::Write;

use super::Failure;
use crate::table::ledger::Redaction;
use crate::view::redact::{Options, Redactor};

/// The redactor for this machine (`$HOME`, `$USER` or `$USERNAME`) with the
/// user's `patterns`; a pattern that does not parse is a usage error.
pub fn redactor(patterns: &[String]) -> Result<Redactor, Failure> {
    Redactor::new(&options(patterns)).map_err(|e| {
        Failure::usage(format!(
            "a --redact-pattern does not parse: {}",
            crate::search::one_line(&e)
        ))
    })
}

/// What the redactor takes out on this machine.
fn options(patterns: &[String]) -> Options {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
    Options {
        home: var("HOME").or_else(|| var("USERPROFILE")),
        user: var("USER").or_else(|| var("USERNAME")),
        patterns: patterns.to_vec(),
    }
}

/// The rules [`redactor`] redacts by, as an export folder records them:
/// the home directory and user name as a digest only.
pub fn recorded(patterns: &[String]) -> Redaction {
    use sha2::Digest as _;
    let options = options(patterns);
    let mut hash = sha2::Sha256::new();
    for part in [&options.home, &options.user] {
        hash.update(part.as_deref().unwrap_or_default().as_bytes());
        hash.update([0]);
    }
    let digest = hash.finalize();
    Redaction {
        source: crate::view::redact::SOURCE.to_string(),
        rules: crate::view::redact::rules_digest(),
        patterns: options.patterns,
        machine: digest[..6].iter().map(|b| format!("{b:02x}")).collect(),
    }
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
