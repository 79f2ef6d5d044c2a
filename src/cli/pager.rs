//! Long output on a terminal goes through a pager, as git's does.

use std::io::{self, Write};
use std::process::{Command, Stdio};

use super::Context;

/// Runs `write` with the command's output stream: a pager's input when
/// stdout is a terminal and paging is not turned off, else stdout itself.
/// The pager is `$YSESS_PAGER` (empty or `cat` turns paging off), else
/// `less -FRX`, which quits at once when the output fits on one screen.
pub fn paged<T>(
    ctx: &mut Context<'_>,
    no_pager: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<T>,
) -> io::Result<T> {
    let pager = match (&ctx.streams.pager, no_pager) {
        (Some(pager), false) => pager.clone(),
        _ => return write(ctx.streams.out),
    };
    let child = Command::new("sh")
        .arg("-c")
        .arg(&pager)
        .stdin(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        return write(ctx.streams.out);
    };
    let result = match child.stdin.take() {
        Some(stdin) => {
            let mut stdin = io::BufWriter::with_capacity(64 * 1024, stdin);
            let result = write(&mut stdin);
            // The pager closing early (the person quit) is not an error.
            match (result, stdin.flush()) {
                (Err(e), _) | (Ok(_), Err(e)) if e.kind() != io::ErrorKind::BrokenPipe => Err(e),
                (Ok(value), _) => Ok(Some(value)),
                _ => Ok(None),
            }
        }
        None => Ok(None),
    };
    child.wait()?;
    match result? {
        Some(value) => Ok(value),
        None => Err(io::Error::from(io::ErrorKind::BrokenPipe)),
    }
}
