//! Reading a session in parallel, in any format: blocks of lines are judged
//! on every core (verdicts: each line blank, a header, an entry with its
//! facts, or a fault), and handed back in file order to whoever builds from
//! them (the checker, which builds the tree as it checks).

use std::io::{self, Read};

use super::fault::LineFault;
use crate::format::{Checked, Format, MessageKind};
use crate::input::{Block, Blocks, LineTooLong};

/// Reads `reader` to its end in blocks, judges every line on all cores, and
/// hands each block's verdicts to `take` in file order. `tap` sees every
/// byte read, in order. The format is `format`, or the one the first line
/// shows; `want` says what to take of each entry besides. Returns the
/// number of bytes read and the format. A line too long to read is named
/// by its number.
pub(crate) fn read_blocks<R: Read + Send>(
    reader: R,
    tap: impl FnMut(&[u8]) + Send,
    format: Option<Format>,
    want: Want,
    mut take: impl FnMut(Verdicts),
) -> io::Result<(u64, Format)> {
    let mut blocks = Blocks::new(reader, tap, BLOCK);
    // Lines handed over so far: a line too long to read is named by its
    // number once the blocks before it are taken.
    let lines = std::cell::Cell::new(0u64);
    let mut take = |v: Verdicts| {
        lines.set(lines.get() + v.lines.len() as u64);
        take(v)
    };
    let numbered = |e: io::Error, counted: u64| match LineTooLong::of(&e) {
        Some(long) if long.line.is_none() => long.at_line(counted).error(),
        _ => e,
    };
    let first = blocks.next_block().map_err(|e| numbered(e, 0))?;
    let head = || first.iter().flat_map(|b| b.lines().map(|(_, bytes)| bytes));
    let format = match format {
        Some(format) => format,
        None if Format::unrecognized(head()) => return Err(super::UnknownFormat.into()),
        None => Format::detect(head()),
    };
    let second = match first {
        Some(_) => blocks.next_block(),
        None => Ok(None),
    };
    let second = match (second, first) {
        (Ok(second), first) => (first, second),
        (Err(e), Some(first)) if LineTooLong::of(&e).is_some() => {
            let counted = verdicts(first, format, want).lines.len() as u64;
            return Err(numbered(e, counted));
        }
        (Err(e), _) => return Err(e),
    };
    match second {
        (Some(only), None) => take(verdicts(only, format, want)),
        (Some(first), Some(second)) => {
            let mut ahead = vec![second, first];
            let workers = crate::input::par::jobs();
            crate::input::par::ordered_map(
                workers,
                || match ahead.pop() {
                    Some(block) => Ok(Some(block)),
                    None => blocks.next_block(),
                },
                |block| verdicts(block, format, want),
                &mut take,
            )
            .map_err(|e| numbered(e, lines.get()))?;
        }
        (None, _) => {}
    }
    Ok((blocks.offset(), format))
}

/// What to take of each entry besides its place in the tree.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Want {
    /// Its subject line.
    pub(crate) subjects: bool,
    /// Its [`crate::format::Tally`].
    pub(crate) tallies: bool,
}

/// A piece of text in a [`Verdicts`] string (or another string kept the
/// same way).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Span {
    at: u32,
    len: u32,
}

impl Span {
    /// No text: the name of a call whose format names none.
    pub(crate) const EMPTY: Span = Span { at: 0, len: 0 };

    pub(crate) fn keep(text: &mut String, s: &str) -> Span {
        let at = text.len() as u32;
        text.push_str(s);
        Span {
            at,
            len: s.len() as u32,
        }
    }

    pub(crate) fn of(self, text: &str) -> &str {
        &text[self.at as usize..(self.at + self.len) as usize]
    }
}

/// The facts of one entry, their text in the block's string.
pub(crate) struct Facts {
    pub(crate) id: Span,
    pub(crate) parent: Option<Span>,
    pub(crate) label: Option<Span>,
    pub(crate) timestamp: u64,
    pub(crate) kind: MessageKind,
    /// Range of the block's `calls` (and of its `call_names`, when the
    /// format names the tools beside them).
    pub(crate) calls: std::ops::Range<u32>,
    pub(crate) answers: Option<Span>,
    pub(crate) tag: Option<Span>,
    pub(crate) subject: Option<Span>,
    /// One of ysess's own records.
    pub(crate) record: bool,
    /// What is wrong with a ysess record, if anything.
    pub(crate) record_problem: Option<Span>,
    /// The entry a `ysess.checkout` record says it resumes at.
    pub(crate) checkout_target: Option<Span>,
    /// Another entry the line names ([`crate::format::LineFacts::target`]).
    pub(crate) target: Option<Span>,
    /// The line's type is not one its format knows.
    pub(crate) unknown_type: bool,
    /// [`crate::format::LineFacts::unnumbered`].
    pub(crate) unnumbered: bool,
    /// [`crate::format::LineFacts::sidechain`].
    pub(crate) sidechain: bool,
    /// [`crate::format::LineFacts::logical_parent`].
    pub(crate) logical_parent: bool,
    /// The model a bookkeeping line sets for the model outputs after it
    /// (Codex's `turn_context`).
    pub(crate) context_model: Option<Span>,
    /// [`crate::format::LineFacts::tally`].
    pub(crate) tally: Option<crate::format::Tally>,
}

pub(crate) enum Line {
    Blank,
    Header {
        version: u64,
    },
    /// A line of the format's own with no entry in it; `unknown` names its
    /// type when the format does not know it.
    Aside {
        unknown: Option<Box<str>>,
        title: Option<crate::format::Title>,
    },
    Moves(crate::format::Moves),
    Entry {
        facts: Facts,
        indent: usize,
    },
    Fault {
        fault: LineFault,
        indent: usize,
    },
    NotUtf8 {
        at: usize,
        cut: bool,
    },
}

/// One line's verdict.
pub(crate) struct Verdict {
    /// Offset of the line within its block.
    pub(crate) at: usize,
    pub(crate) len: usize,
    pub(crate) bom: bool,
    /// Only NUL bytes: what a crash often leaves where a write was going.
    pub(crate) nul: bool,
    pub(crate) line: Line,
}

/// A block's verdicts: compact, a few allocations per block, so that handing
/// them from a worker to the tree builder costs little.
pub(crate) struct Verdicts {
    pub(crate) offset: u64,
    /// The format the lines were read as.
    pub(crate) format: Format,
    pub(crate) text: String,
    pub(crate) calls: Vec<Span>,
    /// The tool each of `calls` names, where the format names it beside
    /// the call for its results (Claude Code); shorter than `calls` (or
    /// empty) when the last calls name none.
    pub(crate) call_names: Vec<Span>,
    pub(crate) lines: Vec<Verdict>,
}

/// Bytes per block of lines handed to a worker thread.
const BLOCK: usize = 4 << 20;

fn verdicts(block: Block, format: Format, want: Want) -> Verdicts {
    let mut out = Verdicts {
        offset: block.offset,
        format,
        text: String::new(),
        calls: Vec::new(),
        call_names: Vec::new(),
        lines: Vec::with_capacity(block.bytes().len() / 512),
    };
    for (at, bytes) in block.lines() {
        let line = match format.check_line_tallied(bytes, want.subjects, want.tallies) {
            Checked::Blank => Line::Blank,
            Checked::Header { version } => Line::Header { version },
            Checked::Aside { unknown, title } => Line::Aside { unknown, title },
            Checked::Moves(moves) => Line::Moves(moves),
            Checked::NotUtf8 { at, cut } => Line::NotUtf8 { at, cut },
            Checked::Fault { fault, indent } => Line::Fault { fault, indent },
            Checked::Entry { mut facts, indent } => {
                let tally = facts.tally.take();
                let text = &mut out.text;
                let first_call = out.calls.len() as u32;
                let checked_record = format.check_record(bytes, &facts);
                out.calls
                    .extend(facts.tool_calls.iter().map(|c| Span::keep(text, c)));
                if !facts.tool_call_names.is_empty() {
                    out.call_names.resize(first_call as usize, Span::EMPTY);
                    out.call_names
                        .extend(facts.tool_call_names.iter().map(|c| Span::keep(text, c)));
                }
                let facts = Facts {
                    id: Span::keep(text, &facts.id),
                    parent: facts.parent.as_deref().map(|p| Span::keep(text, p)),
                    label: facts.label.as_deref().map(|l| Span::keep(text, l)),
                    timestamp: facts.timestamp,
                    kind: facts.kind,
                    calls: first_call..out.calls.len() as u32,
                    answers: facts
                        .tool_result_for
                        .as_deref()
                        .map(|c| Span::keep(text, c)),
                    // A custom record's tag is its kind, whatever else it names.
                    tag: match facts.kind {
                        MessageKind::Custom => facts.custom_kind.as_deref(),
                        _ => facts
                            .model
                            .as_deref()
                            .or(facts.tool_name.as_deref())
                            .or(facts.custom_kind.as_deref()),
                    }
                    .map(|t| Span::keep(text, t)),
                    context_model: facts
                        .model
                        .as_deref()
                        .filter(|_| facts.kind == MessageKind::Custom)
                        .map(|m| Span::keep(text, m)),
                    subject: facts.subject.as_deref().map(|s| Span::keep(text, s)),
                    record: format.is_record(&facts),
                    record_problem: None,
                    checkout_target: None,
                    target: facts.target.as_deref().map(|t| Span::keep(text, t)),
                    unknown_type: format.unknown_type(&facts),
                    unnumbered: facts.unnumbered,
                    sidechain: facts.sidechain,
                    logical_parent: facts.logical_parent,
                    tally,
                };
                let facts = match checked_record {
                    Ok(target) => Facts {
                        checkout_target: target.map(|t| Span::keep(text, &t)),
                        ..facts
                    },
                    Err(problem) => Facts {
                        record_problem: Some(Span::keep(text, &problem)),
                        ..facts
                    },
                };
                Line::Entry { facts, indent }
            }
        };
        let bom = at == 0 && block.offset == 0 && bytes.starts_with(b"\xEF\xBB\xBF");
        let nul = !bytes.is_empty() && bytes.iter().all(|&b| b == 0);
        out.lines.push(Verdict {
            at,
            len: bytes.len(),
            bom,
            nul,
            line,
        });
    }
    out
}
