//! How a command ends: [`Exit`], the one mapping to exit codes (the
//! README's table), and [`Failure`], an error with the hints that help a
//! person act, reported on stderr by [`report`].

use std::io;

use crate::ui::output::{self, Level, Streams};

/// How a command ended; [`Exit::code`] is the only mapping to exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done, and the answer is yes.
    Success,
    /// 1: done, and the answer is no (fsck found errors, …).
    No,
    /// 2: the command line does not parse (what `--help` would have told).
    Usage,
    /// 128: the command line parses, and ysess refuses it or cannot carry
    /// it out (git's `fatal:`).
    Fatal,
    /// 128 + N: `ysess tui` ended by signal N (SIGTERM, SIGHUP, …) after
    /// giving the terminal back, as a shell reports a process the signal
    /// ended; `ysess resume`'s agent ended by it.
    Signal(u8),
    /// N: `ysess resume`'s agent exited with status N.
    Agent(u8),
}

impl Exit {
    /// The process's exit code.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::No => 1,
            Exit::Usage => 2,
            Exit::Fatal => 128,
            Exit::Signal(n) => 128u8.saturating_add(n),
            Exit::Agent(n) => n,
        }
    }
}

/// An error that ends a command, with the hints that help a person act.
#[derive(Debug)]
pub struct Failure {
    /// How the command ends (its exit code).
    pub exit: Exit,
    /// What went wrong.
    pub error: anyhow::Error,
    /// What the person can do, one line each.
    pub hints: Vec<String>,
}

impl Failure {
    /// 2: an unknown or missing argument, options that do not go together,
    /// a value not of its option's form. Anything that depends on the
    /// session is [`Failure::refuse`].
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure {
            exit: Exit::Usage,
            error: anyhow::anyhow!(message.into()),
            hints: Vec::new(),
        }
    }

    /// 128: the command line is understood, and ysess refuses it or cannot
    /// carry it out on this session (README "Exit status").
    pub fn refuse(message: impl Into<String>) -> Failure {
        Failure {
            exit: Exit::Fatal,
            error: anyhow::anyhow!(message.into()),
            hints: Vec::new(),
        }
    }

    /// Adds a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Failure {
        self.hints.push(hint.into());
        self
    }
}

impl<E: Into<anyhow::Error>> From<E> for Failure {
    fn from(error: E) -> Failure {
        Failure {
            exit: Exit::Fatal,
            error: error.into(),
            hints: Vec::new(),
        }
    }
}

pub(super) fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error
        .chain()
        .filter_map(|e| e.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

/// A failure as every command shows it: `error: …`, then its hints
/// (unless `quiet`), on stderr.
pub fn report(streams: &mut Streams<'_>, failure: &Failure, quiet: bool) {
    // Messages may quote session text (ids, labels): escape it.
    let _ = streams.diag(
        Level::Error,
        &output::escape(&format!("{:#}", failure.error)),
    );
    if !quiet {
        for hint in &failure.hints {
            let _ = streams.diag(Level::Hint, &output::escape(hint));
        }
    }
}
