//! The markup agents put into a user message's text, read as what it
//! means: one model ([`Piece`]) that every view draws.
//!
//! Claude Code writes what the user did at its prompt as tags in a user
//! message (or a `system` line's `content`):
//! - a slash command: `<command-name>/model</command-name>
//!   <command-message>model</command-message><command-args>opus
//!   </command-args>`, which is `/model opus`;
//! - its output: `<local-command-stdout>Kept model as …
//!   </local-command-stdout>` (or `-stderr`), ANSI escapes and all;
//! - a shell command run with `!`: `<bash-input>uv run ty check
//!   </bash-input>`, then `<bash-stdout>…</bash-stdout><bash-stderr>…
//!   </bash-stderr>`;
//! - a background task's end: `<task-notification><task-id>…</task-id>
//!   <status>completed</status><summary>…</summary></task-notification>`;
//! - context it injects: `<system-reminder>`, `<local-command-caveat>`.
//!
//! Codex injects `<environment_context>`, `<user_instructions>`, an
//! `AGENTS.md` preamble, and, from an IDE, `# Context from my IDE setup:`
//! before `## My request for Codex:` and the user's words.
//!
//! A view shows `/model opus`, the output with its escapes stripped, `! uv
//! run ty check`, a task's status and summary, context set apart, and the
//! user's own words; never the tags. The text is still session text: views
//! escape what is left of its control characters.

/// One thing a piece of markup says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// The user's own words (after the context an app put before them).
    Words(String),
    /// A command the user typed at the prompt, as typed: `/model opus`,
    /// `! uv run ty check`.
    Command(String),
    /// What a command printed: its standard output, or (`error`) its
    /// standard error. Escape sequences are stripped.
    Output {
        /// The text, trimmed.
        text: String,
        /// It was the command's standard error.
        error: bool,
    },
    /// A background task's notification.
    Task {
        /// The task's id (empty when not given).
        id: String,
        /// `completed`, `failed`, `killed`, … (empty when not given).
        status: String,
        /// What the app says happened.
        summary: String,
    },
    /// Context the app injected, not the user's words.
    Context {
        /// What it is: the tag (`system-reminder`), or `IDE context`,
        /// `AGENTS.md`.
        tag: String,
        /// Its text.
        text: String,
    },
}

/// How a view draws a [`Piece`]: the user's words as text, a command as a
/// line of its own, output and context set apart under a label.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// Plain text.
    Words,
    /// A command line (`label` holds it; there is no text).
    Command,
    /// A command's output or a task's summary, under its label.
    Output,
    /// Standard error, under its label.
    Error,
    /// Context the app added: dimmed, or folded.
    Context,
}

impl Piece {
    /// How it looks, the one-line label a view puts above it (empty for
    /// words), and its text (empty for a command).
    pub fn shown(&self) -> (Look, String, &str) {
        match self {
            Piece::Words(text) => (Look::Words, String::new(), text),
            Piece::Command(line) => (Look::Command, line.clone(), ""),
            Piece::Output { text, error: false } => (Look::Output, "output".into(), text),
            Piece::Output { text, error: true } => (Look::Error, "stderr".into(), text),
            Piece::Task {
                id,
                status,
                summary,
            } => {
                let mut label = "task".to_string();
                for part in [id, status].into_iter().filter(|p| !p.is_empty()) {
                    label.push(' ');
                    label.push_str(part);
                }
                let look = if matches!(status.as_str(), "failed" | "killed" | "error") {
                    Look::Error
                } else {
                    Look::Output
                };
                (look, label, summary)
            }
            Piece::Context { tag, text } => (Look::Context, format!("context: {tag}"), text),
        }
    }

    /// One line that says what it is, as a subject line shows it.
    pub fn subject(&self) -> String {
        let line = crate::format::json::subject_line;
        match self {
            Piece::Words(text) => line(text),
            Piece::Command(command) => line(command),
            Piece::Output { text, .. } if text.trim().is_empty() => "(no output)".to_string(),
            Piece::Output { text, .. } => line(text),
            Piece::Task { summary, .. } if !summary.trim().is_empty() => {
                let (_, label, _) = self.shown();
                format!("{label}: {}", line(summary))
            }
            Piece::Task { .. } => self.shown().1,
            Piece::Context { tag, .. } => format!("{CONTEXT_ONLY}{tag})"),
        }
    }
}

/// How the subject of a message that holds only the app's context starts
/// (`(context: environment_context)`): not words of the user's.
pub const CONTEXT_ONLY: &str = "(context: ";

/// Tags whose content is context the app added, not the user's words.
const CONTEXT: [&str; 5] = [
    "system-reminder",
    "environment_context",
    "user_instructions",
    "local-command-caveat",
    "INSTRUCTIONS",
];

/// The tags of a slash command, written together in any order.
const COMMAND: [&str; 3] = ["command-name", "command-message", "command-args"];

/// Codex's preamble from an IDE, and the heading before the user's words.
const IDE: &str = "# Context from my IDE setup:";
const IDE_REQUEST: &str = "## My request for Codex:";
/// Codex's preamble of a project's `AGENTS.md`.
const AGENTS: &str = "# AGENTS.md instructions for ";

/// The pieces `text` is made of, when it opens with an agent's markup;
/// `None` for text that does not (it is the user's, as written).
pub fn read(text: &str) -> Option<Vec<Piece>> {
    let start = text.trim_start();
    if let Some(rest) = start.strip_prefix(IDE) {
        return Some(ide(rest));
    }
    if start.starts_with(AGENTS) {
        return Some(vec![Piece::Context {
            tag: "AGENTS.md".to_string(),
            text: start.trim_end().to_string(),
        }]);
    }
    if !start.starts_with('<') {
        // Words that a reminder interrupts (Claude Code's compaction summary
        // holds one between its first lines and the summary).
        let pieces = words_and_reminders(start);
        return (pieces.len() > 1).then_some(pieces);
    }
    let mut pieces = Vec::new();
    let mut rest = start;
    let mut shell_output = false;
    while let Some((tag, inside, after)) = element(rest) {
        match tag {
            t if COMMAND.contains(&t) => {
                let (line, after) = command(rest);
                pieces.push(Piece::Command(line));
                rest = after;
                continue;
            }
            "local-command-stdout" | "local-command-stderr" => pieces.push(Piece::Output {
                text: plain(inside),
                error: tag.ends_with("stderr"),
            }),
            "bash-input" => pieces.push(Piece::Command(format!("! {}", plain(inside)))),
            "bash-stdout" | "bash-stderr" => {
                shell_output = true;
                if !inside.is_empty() {
                    pieces.push(Piece::Output {
                        text: plain(inside),
                        error: tag == "bash-stderr",
                    });
                }
            }
            "task-notification" => {
                let field = |t: &str| find(inside, t).map(plain).unwrap_or_default();
                pieces.push(Piece::Task {
                    id: field("task-id"),
                    status: field("status"),
                    summary: field("summary"),
                });
            }
            t if CONTEXT.contains(&t) => pieces.push(Piece::Context {
                tag: t.to_string(),
                text: plain(inside),
            }),
            _ => break,
        }
        rest = after;
    }
    // A shell command that printed nothing still ran.
    if shell_output && !pieces.iter().any(|p| matches!(p, Piece::Output { .. })) {
        pieces.push(Piece::Output {
            text: String::new(),
            error: false,
        });
    }
    if pieces.is_empty() {
        return None;
    }
    if !rest.trim().is_empty() {
        pieces.extend(words_and_reminders(rest));
    }
    Some(pieces)
}

/// Codex's preamble from an IDE (`rest`, after its heading): the context,
/// then the user's words after their heading.
fn ide(rest: &str) -> Vec<Piece> {
    let (context, words) = match rest.find(IDE_REQUEST) {
        Some(at) => (&rest[..at], &rest[at + IDE_REQUEST.len()..]),
        None => (rest, ""),
    };
    let mut pieces = vec![Piece::Context {
        tag: "IDE context".to_string(),
        text: context.trim().to_string(),
    }];
    if !words.trim().is_empty() {
        pieces.push(Piece::Words(words.trim().to_string()));
    }
    pieces
}

/// A slash command's group of tags at the start of `rest`, whatever their
/// order (each once): the command as typed, and what follows the group.
fn command(rest: &str) -> (String, &str) {
    let mut group = rest;
    let (mut name, mut message, mut args) = ("", "", "");
    while let Some((t, inside, after)) = element(group)
        .filter(|(t, ..)| COMMAND.contains(t))
        .filter(|(t, ..)| match *t {
            "command-name" => name.is_empty(),
            "command-message" => message.is_empty(),
            _ => args.is_empty(),
        })
    {
        match t {
            "command-name" => name = inside,
            "command-message" => message = inside,
            _ => args = inside,
        }
        group = after;
    }
    let name = match (name, message) {
        ("", "") => "/",
        ("", message) => message,
        (name, _) => name,
    };
    let mut line = if name.starts_with('/') {
        name.to_string()
    } else {
        format!("/{name}")
    };
    if !args.is_empty() {
        line.push(' ');
        line.push_str(args);
    }
    (line, group)
}

/// The words of `text`, split where a whole `<system-reminder>` element
/// stands at the start of one of its lines (the context Claude Code puts in
/// the middle of a message): the words before, the reminder, and the rest
/// read the same way.
fn words_and_reminders(text: &str) -> Vec<Piece> {
    const OPEN: &str = "<system-reminder>";
    let mut pieces = Vec::new();
    let mut rest = text;
    loop {
        let at = rest
            .match_indices(OPEN)
            .map(|(at, _)| at)
            .find(|&at| (at == 0 || rest[..at].ends_with('\n')) && element(&rest[at..]).is_some());
        let Some(at) = at else {
            break;
        };
        let Some((tag, inside, after)) = element(&rest[at..]) else {
            break;
        };
        let before = rest[..at].trim();
        if !before.is_empty() {
            pieces.push(Piece::Words(before.to_string()));
        }
        pieces.push(Piece::Context {
            tag: tag.to_string(),
            text: plain(inside),
        });
        rest = after;
    }
    if !rest.trim().is_empty() {
        pieces.push(Piece::Words(rest.trim().to_string()));
    }
    pieces
}

/// The element `text` opens with: its tag, what is inside (trimmed) and
/// what follows it (white space skipped); `None` when `text` does not open
/// with a whole element `<tag>…</tag>`.
fn element(text: &str) -> Option<(&str, &str, &str)> {
    let open = text.strip_prefix('<')?;
    let end = open.find('>')?;
    let tag = &open[..end];
    if tag.is_empty()
        || !tag
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_'))
    {
        return None;
    }
    let body = &open[end + 1..];
    let close = format!("</{tag}>");
    let at = body.find(&close)?;
    Some((
        tag,
        body[..at].trim(),
        body[at + close.len()..].trim_start(),
    ))
}

/// The text inside the first `<tag>…</tag>` in `text`, trimmed.
fn find<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&format!("</{tag}>"))? + start;
    Some(text[start..end].trim())
}

/// `text` without terminal escape sequences (colours, bold, cursor moves,
/// titles), trimmed: what a terminal would have shown of it. Other control
/// characters stay, for the views to escape.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            // CSI: parameters and intermediates, then one final byte.
            Some('[') => {
                for c in chars.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            // OSC (a title, a link): up to BEL or ESC \.
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            // Intermediates (`ESC ( B`, a character set), then a final.
            Some(c) if ('\u{20}'..='\u{2f}').contains(&c) => {
                for c in chars.by_ref() {
                    if !('\u{20}'..='\u{2f}').contains(&c) {
                        break;
                    }
                }
            }
            // Any other escape is two characters.
            _ => {}
        }
    }
    out.trim().to_string()
}

/// The subject a message's text stands for when it opens with an agent's
/// markup: the user's words when it holds some, else what its first piece
/// says (`/model opus`, a command's output, `(context: system-reminder)`);
/// `None` for text that does not (its first line is its subject).
pub fn subject(text: &str) -> Option<String> {
    subject_of(&read(text)?)
}

/// The subject of `pieces`: the user's words when they hold some, else
/// what the first piece says.
pub fn subject_of(pieces: &[Piece]) -> Option<String> {
    let words = pieces.iter().find(|p| matches!(p, Piece::Words(_)));
    words.or(pieces.first()).map(Piece::subject)
}

/// Whether `pieces` are only context an app injected (no words, no
/// command of the user's).
pub fn only_context(pieces: &[Piece]) -> bool {
    pieces.iter().all(|p| matches!(p, Piece::Context { .. }))
}

/// The user's own words in `pieces`, if any.
pub fn words(pieces: &[Piece]) -> Option<&str> {
    pieces.iter().find_map(|p| match p {
        Piece::Words(w) if !w.trim().is_empty() => Some(w.as_str()),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slash_commands_and_their_output_read_as_such() {
        assert_eq!(
            subject("<command-message>exit</command-message>\n<command-name>/exit</command-name>\n<command-args></command-args>").as_deref(),
            Some("/exit")
        );
        assert_eq!(
            subject("<command-name>/model</command-name>\n<command-args>opus</command-args>")
                .as_deref(),
            Some("/model opus")
        );
        assert_eq!(
            subject("<local-command-stdout>Bye!\nsee you</local-command-stdout>").as_deref(),
            Some("Bye!")
        );
    }

    #[test]
    fn output_loses_its_escape_sequences() {
        let said = "<local-command-stdout>Kept model as \u{1b}[1mDefault (recommended)\u{1b}[22m</local-command-stdout>";
        assert_eq!(
            read(said),
            Some(vec![Piece::Output {
                text: "Kept model as Default (recommended)".into(),
                error: false
            }])
        );
        assert_eq!(
            plain("\u{1b}]0;title\u{7}a\u{1b}[38;5;1mb\u{1b}(Bc\u{7}"),
            "abc\u{7}"
        );
    }

    #[test]
    fn shell_commands_their_output_and_tasks_read_as_such() {
        assert_eq!(
            read("<bash-input>uv run ty check</bash-input>"),
            Some(vec![Piece::Command("! uv run ty check".into())])
        );
        assert_eq!(
            read("<bash-stdout>All checks passed!</bash-stdout><bash-stderr></bash-stderr>"),
            Some(vec![Piece::Output {
                text: "All checks passed!".into(),
                error: false
            }])
        );
        assert_eq!(
            subject("<bash-stdout></bash-stdout><bash-stderr></bash-stderr>").as_deref(),
            Some("(no output)")
        );
        let task = "<task-notification>\n<task-id>b1f3</task-id>\n<status>completed</status>\n<summary>Background command \"npm test\" completed (exit code 0)</summary>\n</task-notification>";
        assert_eq!(
            subject(task).as_deref(),
            Some("task b1f3 completed: Background command \"npm test\" completed (exit code 0)")
        );
    }

    #[test]
    fn context_is_skipped_for_the_words_after_it() {
        assert_eq!(
            subject("<environment_context>\n  <cwd>/x</cwd>\n</environment_context>").as_deref(),
            Some("(context: environment_context)")
        );
        assert_eq!(
            subject("<system-reminder>be brief</system-reminder>\nFix the bug.").as_deref(),
            Some("Fix the bug.")
        );
        assert_eq!(subject("Fix <b>this</b>."), None);
        assert_eq!(subject("<unknown>x</unknown>"), None);
        let ide = "# Context from my IDE setup:\n\n## Open tabs:\n- main.rs\n\n## My request for Codex:\nCount the lines.\n";
        let pieces = read(ide).expect("markup");
        assert_eq!(words(&pieces), Some("Count the lines."));
        assert_eq!(subject(ide).as_deref(), Some("Count the lines."));
    }

    #[test]
    fn a_compaction_summary_showed_its_reminder_raw() {
        let summary = "This session is being continued from a previous conversation.\n\n<system-reminder>\n<tools-used-before-summary></tools-used-before-summary>\n</system-reminder>\nSummary:\n1. Plan a CLI.";
        let pieces = read(summary).expect("a reminder in the middle is markup");
        assert_eq!(
            pieces[0],
            Piece::Words("This session is being continued from a previous conversation.".into())
        );
        assert!(matches!(&pieces[1], Piece::Context { tag, .. } if tag == "system-reminder"));
        assert_eq!(pieces[2], Piece::Words("Summary:\n1. Plan a CLI.".into()));
        // Words that only mention the tag, not at a line's start, are words.
        assert_eq!(
            read("write <system-reminder>x</system-reminder> in docs"),
            None
        );
    }
}
