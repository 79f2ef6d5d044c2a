//! Why a revision names no entry ([`RevError`]), and what an ambiguous
//! name could stand for ([`Candidate`]): what the resolver in
//! [`super::revision`] returns, worded for people (the command line adds
//! its hints).

use std::fmt;

use crate::tree::Ix;

/// An ambiguity message lists at most this many candidates.
pub(super) const MAX_LISTED: usize = 10;

/// What an ambiguous name could stand for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Candidate {
    /// An entry whose id starts with the name.
    Entry {
        /// Its id.
        id: String,
        /// Its index.
        ix: Ix,
    },
    /// A label that starts with the name, on the entry it picks.
    Label {
        /// The label.
        name: String,
        /// The id of the entry it names.
        on: String,
        /// That entry's index.
        ix: Ix,
    },
    /// A branch that starts with the name, at its entry.
    Branch {
        /// The branch.
        name: String,
        /// The id of its tip.
        at: String,
        /// That entry's index.
        ix: Ix,
    },
}

impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Candidate::Entry { id, .. } => write!(f, "entry {id}"),
            Candidate::Label { name, on, .. } => write!(f, "label {name} on {on}"),
            Candidate::Branch { name, at, .. } => write!(f, "branch {name} at {at}"),
        }
    }
}

/// Why a revision names no entry. Session text (ids, labels) is kept and
/// shown raw: escaping control characters is the printer's job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RevError {
    /// The session has no entries, so no revision names one.
    EmptySession {
        /// The revision as typed.
        text: String,
    },
    /// `HEAD` or `@` was asked for but the caller has no head to give.
    NoHead {
        /// The revision as typed.
        text: String,
    },
    /// The revision is the empty string.
    Empty,
    /// Suffixes with no name before them, like `~1`.
    NoBase {
        /// The suffixes as typed.
        text: String,
    },
    /// No entry, label or branch has this name or starts with it.
    Unknown {
        /// The name as typed.
        name: String,
        /// The suffixes typed after the name, kept to complete the suggestion.
        suffix: String,
        /// The nearest known name, if one is close.
        suggestion: Option<String>,
    },
    /// The name is a prefix of several things that name different entries.
    Ambiguous {
        /// The name as typed.
        name: String,
        /// What it could stand for (the first few).
        candidates: Vec<Candidate>,
        /// How many more candidates there are beyond those listed.
        more: usize,
    },
    /// A `~N` or `^` step went further back than the root.
    PastRoot {
        /// The revision as typed.
        text: String,
        /// The entry the failing step started from.
        from: String,
        /// How many ancestors `from` has.
        ancestors: u64,
        /// The root of `from`.
        root: String,
    },
    /// What follows the name is not a list of `~N` and `^N` suffixes.
    BadSuffix {
        /// The revision as typed.
        text: String,
        /// What follows the name.
        suffix: String,
    },
    /// `^N` with N ≥ 2: entries have a single parent.
    NoSecondParent {
        /// The revision as typed.
        text: String,
        /// The parent asked for.
        n: u64,
    },
    /// The id is one of ysess's own records, which are not the user's to
    /// name; `entry` is the entry it hangs from.
    Record {
        /// The record's id.
        id: String,
        /// The id of the entry it hangs from, if any.
        entry: Option<String>,
    },
    /// `HEAD@{N}` or `@-` asks for an earlier HEAD than ysess recorded.
    NoPrevious {
        /// The revision as typed.
        text: String,
        /// Which previous HEAD was asked for.
        n: u64,
        /// How many HEAD moves ysess recorded.
        moves: usize,
    },
    /// `HEAD@{N}` with an N larger than any number ysess counts to.
    HugeMove {
        /// The revision as typed.
        text: String,
    },
}

impl fmt::Display for RevError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RevError::EmptySession { text } => {
                write!(f, "the session is empty: '{text}' names no entry")
            }
            RevError::NoHead { text } => write!(f, "'{text}' names no entry: there is no head"),
            RevError::Empty => write!(f, "empty revision"),
            RevError::NoBase { text } => {
                // The text starts with the suffix mark that lacks a name.
                let mark = text.chars().next().unwrap_or('~');
                write!(f, "revision '{text}' has no name before '{mark}'")
            }
            RevError::Unknown { name, .. } => write!(f, "unknown revision '{name}'"),
            RevError::Ambiguous {
                name,
                candidates,
                more,
            } => {
                write!(f, "ambiguous revision '{name}': it could be ")?;
                write_choices(f, candidates, *more)
            }
            RevError::PastRoot {
                text,
                from,
                ancestors,
                ..
            } => {
                write!(f, "'{text}' goes past the root: {from} has ")?;
                match ancestors {
                    0 => write!(f, "no ancestors"),
                    1 => write!(f, "only 1 ancestor"),
                    n => write!(f, "only {n} ancestors"),
                }
            }
            RevError::BadSuffix { text, suffix } => {
                write!(f, "malformed suffix '{suffix}' in '{text}'")
            }
            RevError::NoSecondParent { text, n } => write!(
                f,
                "'{text}' asks for parent {n}, but an entry has only one parent"
            ),
            RevError::Record { id, .. } => write!(
                f,
                "{id} is one of ysess's own records, not an entry of the conversation"
            ),
            RevError::HugeMove { text } => write!(
                f,
                "'{text}' asks for a HEAD move numbered past any number ysess counts to"
            ),
            RevError::NoPrevious { text, n, moves } => {
                write!(f, "'{text}' asks for HEAD move {n}, but ysess recorded ")?;
                match moves {
                    0 => write!(f, "none"),
                    1 => write!(f, "only 1"),
                    m => write!(f, "only {m}"),
                }
            }
        }
    }
}

/// "a, b or c", or "a, b, c or 4 more".
fn write_choices(f: &mut fmt::Formatter<'_>, listed: &[Candidate], more: usize) -> fmt::Result {
    let total = listed.len() + usize::from(more > 0);
    for (i, candidate) in listed.iter().enumerate() {
        match i {
            0 => {}
            i if i + 1 == total => write!(f, " or ")?,
            _ => write!(f, ", ")?,
        }
        write!(f, "{candidate}")?;
    }
    if more > 0 {
        write!(f, " or {more} more")?;
    }
    Ok(())
}

impl std::error::Error for RevError {}
