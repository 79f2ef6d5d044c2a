//! `export --markdown`: one path as a readable transcript.
//!
//! Each entry is a `##` heading (role, model or tool, id, time, names),
//! then its text as written; thinking is a quoted block, tool calls and
//! tool results are fenced blocks (the fence longer than any run of
//! backticks inside), images are named with their type and size. Control
//! characters are escaped as everywhere else ysess prints session text.

use std::io::{self, Write};

use jiff::tz::TimeZone;

use crate::refs::Names;
use crate::repo::Repo;
use crate::tree::Ix;
use crate::ui::output::{escape, escape_lines};
use crate::ui::render::time;
use crate::view::message::{Body, Part, Said};
use crate::view::redact::Redactor;
use crate::view::{Entry, Look, Message, human_size};

/// Writes the path root→`target` of `repo` as Markdown; with `redact`,
/// every text that came from the session or the machine goes through it
/// (the entries, the title, the names on an entry).
pub fn write_transcript(
    out: &mut dyn Write,
    repo: &Repo,
    target: Ix,
    title: &str,
    tz: &TimeZone,
    redact: Option<&Redactor>,
) -> io::Result<()> {
    let tree = &repo.tree;
    let path = tree.path(target);
    let branches = repo.refs.pairs();
    let names = Names::new(tree, tree.head(), &branches);
    let clean = |text: &str| -> String {
        redact.map_or_else(|| text.to_string(), |r| r.redact(text).into_owned())
    };
    writeln!(out, "# {}", escape(&clean(title)))?;
    writeln!(out)?;
    writeln!(
        out,
        "{} entries on the path to {} ({} session).",
        path.len(),
        escape(tree.short_id(target)),
        repo.format.name()
    )?;
    writeln!(out)?;
    let mut total = [0u64; 4];
    for &ix in &path {
        let mut entry = repo.entry(ix)?;
        if let Some(r) = redact {
            r.entry(&mut entry);
        }
        // A response written over several lines shows its usage once, on
        // its last line, as `stats` counts it.
        let shown = crate::stats::shows_usage(repo, ix, &entry)?;
        if let Message::Assistant { usage, .. } = &entry.message
            && shown
        {
            for (t, u) in total.iter_mut().zip([
                usage.input,
                usage.output,
                usage.cache_read,
                usage.cache_write,
            ]) {
                *t += u;
            }
        }
        let decorations =
            crate::ui::render::decorate(&names, ix, crate::ui::render::Paint { on: false });
        heading(out, &entry, tree.short_id(ix), &clean(&decorations), tz)?;
        body(out, &entry, shown)?;
    }
    writeln!(out, "---")?;
    writeln!(out)?;
    writeln!(
        out,
        "Tokens on this path: {} in, {} out, {} cache read, {} cache write.",
        total[0], total[1], total[2], total[3]
    )?;
    Ok(())
}

/// `short`: the entry's id as ysess prints it; `decorations`: HEAD,
/// branches and labels, as `log` and `show` decorate an entry.
fn heading(
    out: &mut dyn Write,
    entry: &Entry,
    short: &str,
    decorations: &str,
    tz: &TimeZone,
) -> io::Result<()> {
    let who = match &entry.message {
        Message::User { .. } => "User".to_string(),
        Message::Assistant { model, .. } if model.is_empty() => "Assistant".to_string(),
        Message::Assistant { model, .. } => format!("Assistant ({})", escape(model)),
        Message::ToolResult { tool_name, .. } if tool_name.is_empty() => "Tool result".to_string(),
        Message::ToolResult { tool_name, .. } => format!("Tool result ({})", escape(tool_name)),
        Message::Custom { kind, .. } => format!("Custom ({})", escape(kind)),
    };
    writeln!(
        out,
        "## {who} · {}{decorations} · {}",
        escape(short),
        time(entry.timestamp, tz, false)
    )?;
    writeln!(out)
}

/// The entry's body, part by part, then what a reply used.
fn body(out: &mut dyn Write, entry: &Entry, usage_shown: bool) -> io::Result<()> {
    let body = Body::of(entry);
    if body.failed() {
        writeln!(out, "**Error:**")?;
        writeln!(out)?;
    }
    let pretty =
        |value: &serde_json::Value| serde_json::to_string_pretty(value).unwrap_or_default();
    for part in &body.parts {
        match part {
            Part::Output { text, .. } => fenced(out, "text", text)?,
            Part::Text(text) => {
                for line in escape_lines(text.trim_end()) {
                    writeln!(out, "{line}")?;
                }
                writeln!(out)?;
            }
            Part::Thinking { text, redacted } => {
                let what = if *redacted {
                    "Thinking (redacted)"
                } else {
                    "Thinking"
                };
                writeln!(out, "> *{what}*")?;
                for line in escape_lines(text.trim_end()) {
                    writeln!(out, ">{}{line}", if line.is_empty() { "" } else { " " })?;
                }
                writeln!(out)?;
            }
            Part::ToolCall {
                id,
                name,
                arguments,
            } => {
                writeln!(out, "**Tool call** {} [{}]:", escape(name), escape(id))?;
                writeln!(out)?;
                fenced(out, "json", &pretty(arguments))?;
            }
            Part::Image {
                mime_type, bytes, ..
            } => {
                writeln!(out, "[{}, {}]", escape(mime_type), human_size(*bytes))?;
                writeln!(out)?;
            }
            Part::Markup(pieces) => {
                for piece in pieces {
                    markup(out, piece)?;
                }
            }
            Part::Error(error) => {
                writeln!(out, "**Error:** {}", escape(error))?;
                writeln!(out)?;
            }
            Part::Data(data) => fenced(out, "json", &pretty(data))?,
        }
    }
    if let Message::Assistant { usage, .. } = &entry.message
        && usage_shown
    {
        writeln!(
            out,
            "*Tokens: {} in, {} out, {} cache read, {} cache write.*",
            usage.input, usage.output, usage.cache_read, usage.cache_write
        )?;
        writeln!(out)?;
    }
    Ok(())
}

/// A piece of an agent's markup, as what it means: the user's words as
/// text, a command as code, output fenced under its label, context quoted.
fn markup(out: &mut dyn Write, piece: &Said<'_>) -> io::Result<()> {
    let (label, text) = (piece.label.as_str(), piece.text);
    match piece.look {
        Look::Words => {
            for line in escape_lines(text.trim_end()) {
                writeln!(out, "{line}")?;
            }
            writeln!(out)
        }
        Look::Command if !label.contains('\n') => {
            writeln!(out, "**Command** {}", code_span(label))?;
            writeln!(out)
        }
        Look::Command => {
            writeln!(out, "**Command**")?;
            writeln!(out)?;
            fenced(out, "text", label)
        }
        Look::Output | Look::Error => {
            let mut chars = label.chars();
            let label: String = chars
                .next()
                .into_iter()
                .flat_map(char::to_uppercase)
                .chain(chars)
                .collect();
            writeln!(out, "**{}:**", escape(&label))?;
            writeln!(out)?;
            if text.is_empty() {
                writeln!(out, "*(nothing)*")?;
                return writeln!(out);
            }
            fenced(out, "text", text)
        }
        Look::Context => {
            writeln!(out, "> *{}*", escape(label))?;
            for line in escape_lines(text.trim_end()) {
                writeln!(out, ">{}{line}", if line.is_empty() { "" } else { " " })?;
            }
            writeln!(out)
        }
    }
}

/// One line as inline code, its backticks fenced by a longer run.
fn code_span(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{}{pad}{fence}", escape(text))
}

/// A fenced block whose fence no run of backticks inside can close.
fn fenced(out: &mut dyn Write, info: &str, text: &str) -> io::Result<()> {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    writeln!(out, "{fence}{info}")?;
    for line in escape_lines(text.trim_end_matches('\n')) {
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{fence}")?;
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_outlasts_the_backticks_inside() {
        let mut out = Vec::new();
        fenced(&mut out, "text", "a ```` b\n").expect("writes");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "`````text\na ```` b\n`````\n\n"
        );
    }
}
