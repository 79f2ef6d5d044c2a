//! Long output on a terminal goes through a pager, as git's does, and is
//! never lost to one that fails.

use std::io::{self, Write};
use std::process::{Child, Command, Stdio};

use super::output::{Level, Streams};

/// The pager as git chooses it: `$YSESS_PAGER`, else `$PAGER`, else
/// `less -FRX` (which quits at once when the output fits on one screen).
/// The first of the two variables that is set decides; empty or `cat`
/// means no pager.
pub fn choose(ysess_pager: Option<&str>, pager: Option<&str>) -> Option<String> {
    match ysess_pager.or(pager) {
        Some(p) if p.trim().is_empty() || p.trim() == "cat" => None,
        Some(p) => Some(p.to_string()),
        None => Some("less -FRX".to_string()),
    }
}

/// Runs `write` with the command's output stream: a pager's input when
/// stdout is a terminal and paging is on (`skip` turns it off for output
/// meant for programs), else stdout itself.
///
/// A pager that cannot start, or that fails (exits non-zero or is killed),
/// is reported with a warning, and the output is written straight to the
/// terminal: ysess cannot tell how much a failing pager showed, and
/// showing it twice is better than not at all. A pager that the person
/// quits early (it exits 0) is not an error.
pub fn paged<T>(
    streams: &mut Streams<'_>,
    skip: bool,
    mut write: impl FnMut(&mut dyn Write) -> io::Result<T>,
) -> io::Result<T> {
    let pager = match &streams.pager {
        Some(pager) if !skip => pager.clone(),
        _ => return write(streams.out),
    };
    let mut child = match spawn(&pager) {
        Ok(child) => child,
        Err(e) => {
            streams.diag(
                Level::Warning,
                &format!("cannot start the pager '{pager}': {e}; writing to the terminal"),
            )?;
            return write(streams.out);
        }
    };
    let written = match child.stdin.take() {
        Some(stdin) => {
            let mut stdin = io::BufWriter::with_capacity(64 * 1024, stdin);
            let result = write(&mut stdin);
            match (result, stdin.flush()) {
                (Ok(value), Ok(())) => Ok(Some(value)),
                // The pager stopped reading: the person quit, or it failed
                // (its exit status tells which).
                (Err(e), _) | (Ok(_), Err(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(None),
                (Err(e), _) | (Ok(_), Err(e)) => Err(e),
            }
        }
        None => Ok(None),
    };
    // The pager's end of the pipe is closed here, so it sees the end of
    // the output before ysess waits for it.
    let status = child.wait()?;
    let written = written?;
    if !status.success() {
        let how = match status.code() {
            Some(127) => "could not be found".to_string(),
            Some(126) => "could not be run".to_string(),
            Some(code) => format!("exited with status {code}"),
            None => "was killed".to_string(),
        };
        streams.diag(
            Level::Warning,
            &format!("the pager '{pager}' {how}; writing to the terminal"),
        )?;
        return write(streams.out);
    }
    match written {
        Some(value) => Ok(value),
        None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
    }
}

/// Starts the pager as git does: a plain command line is run directly (so
/// a missing program is known before any output is written), anything
/// with shell syntax by `sh -c`. `LESS` and `LV` get git's defaults when
/// unset, so `PAGER=less` behaves as the default does.
fn spawn(pager: &str) -> io::Result<Child> {
    const SHELL_SYNTAX: &[char] = &[
        '|', '&', ';', '<', '>', '(', ')', '$', '`', '\\', '"', '\'', '*', '?', '[', '#', '~', '=',
        '%', '{', '}',
    ];
    let mut cmd = if pager.contains(SHELL_SYNTAX) {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(pager);
        cmd
    } else {
        let mut words = pager.split_whitespace();
        let mut cmd = Command::new(words.next().unwrap_or("less"));
        cmd.args(words);
        cmd
    };
    if std::env::var_os("LESS").is_none() {
        cmd.env("LESS", "FRX");
    }
    if std::env::var_os("LV").is_none() {
        cmd.env("LV", "-c");
    }
    cmd.stdin(Stdio::piped()).spawn()
}

#[cfg(test)]
mod tests {
    use super::choose;

    #[test]
    fn the_pager_is_chosen_as_git_chooses_it() {
        assert_eq!(choose(None, None).as_deref(), Some("less -FRX"));
        assert_eq!(choose(None, Some("most")).as_deref(), Some("most"));
        assert_eq!(choose(Some("bat"), Some("most")).as_deref(), Some("bat"));
        assert_eq!(choose(None, Some("cat")), None);
        assert_eq!(choose(None, Some("")), None);
        // YSESS_PAGER set to nothing turns paging off even when PAGER is set.
        assert_eq!(choose(Some(" "), Some("most")), None);
        assert_eq!(choose(Some("cat"), Some("most")), None);
    }
}
