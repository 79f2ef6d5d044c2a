//! Deciding one line: blank, a valid entry (with its facts), or a fault.

use crate::entry::LineFacts;
use crate::scan::scan_line;
use crate::schema::{LineFault, check_exact};

/// The verdict on one raw line.
#[derive(Debug)]
pub enum Checked<'a> {
    /// Empty or only whitespace: yoagent skips it.
    Blank,
    /// A loadable entry. `indent` is where the trimmed text starts.
    Entry { facts: LineFacts<'a>, indent: usize },
    /// Not loadable; `indent` as above.
    Fault { fault: LineFault, indent: usize },
    /// Not UTF-8: yoagent cannot read the file at all. `at` is the offset of
    /// the first bad byte within the line.
    NotUtf8 {
        at: usize,
        /// The bytes stop in the middle of a character: a write cut short.
        cut: bool,
    },
}

impl Checked<'_> {
    /// The same verdict, owning its text.
    pub fn into_owned(self) -> Checked<'static> {
        match self {
            Checked::Blank => Checked::Blank,
            Checked::Entry { facts, indent } => Checked::Entry {
                facts: facts.into_owned(),
                indent,
            },
            Checked::Fault { fault, indent } => Checked::Fault { fault, indent },
            Checked::NotUtf8 { at, cut } => Checked::NotUtf8 { at, cut },
        }
    }
}

/// Checks one line (without its `\n`) the way yoagent's `Session::from_jsonl`
/// does: UTF-8, trimmed of Unicode white space, blank lines skipped, then one
/// `SessionEntry` parsed from the rest.
/// `subject`: also make the entry's subject line (for commands that print it).
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'_> {
    let text = match simdutf8::basic::from_utf8(bytes) {
        Ok(text) => text,
        Err(_) => {
            let err = std::str::from_utf8(bytes).err();
            let at = err.map_or(0, |e| e.valid_up_to());
            // No error length: the bytes end inside a character.
            let cut = err.is_some_and(|e| e.error_len().is_none());
            return Checked::NotUtf8 { at, cut };
        }
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Checked::Blank;
    }
    let indent = text.len() - text.trim_start().len();
    if let Some(facts) = scan_line(trimmed, subject) {
        return Checked::Entry { facts, indent };
    }
    match check_exact(trimmed) {
        Ok(facts) => Checked::Entry { facts, indent },
        Err(fault) => Checked::Fault { fault, indent },
    }
}
