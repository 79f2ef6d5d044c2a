//! One entry as the chat pane shows it: a heading (role, model or tool,
//! id, time, what the reply used) and its body, from the same view model
//! as the page ([`crate::view::message::Body`]). Thinking, tool calls
//! and tool results are folded under a one-line preview until opened;
//! errors are marked. Every piece of session text is escaped and cut to
//! the pane's width by display width (CJK and emoji take two columns).

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use unicode_width::UnicodeWidthChar;

use crate::cli::ls::tokens;
use crate::stats::Spent;
use crate::ui::output::escape;
use crate::view::message::{Body, Part};
use crate::view::{Entry, Look, Message, human_size};

/// What the heading of an entry says beyond its message.
pub struct Heading<'a> {
    /// The entry's short id.
    pub short: &'a str,
    /// Its time, as shown (`2026-12-05 14:03`), or empty.
    pub time: String,
    /// What the reply used, when it records usage.
    pub spent: Option<Spent>,
}

/// The style of a role's heading.
fn role_style(message: &Message) -> Style {
    match message {
        Message::User { .. } => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        Message::Assistant { .. } => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        Message::ToolResult { is_error: true, .. } => {
            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
        }
        Message::ToolResult { .. } => Style::new().fg(Color::Magenta),
        Message::Custom { .. } => Style::new().fg(Color::DarkGray),
    }
}

/// Every input token: fresh, read from the cache and written to it (the
/// sum saturates: the numbers come from the file).
pub fn all_in(s: &Spent) -> u64 {
    s.input
        .saturating_add(s.cache_read)
        .saturating_add(s.cache_write)
}

/// The lines of `entry`, `width` columns wide; `open`: its folds are open.
pub fn lines(entry: &Entry, heading: &Heading<'_>, open: bool, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(8));
    let message = &entry.message;
    let mut out = vec![heading_line(message, heading, width)];
    body_lines(&Body::of(entry), open, width, &mut out);
    out
}

/// The heading: a bar, the role and what names it, what it used, when.
fn heading_line(message: &Message, heading: &Heading<'_>, width: usize) -> Line<'static> {
    let (who, tag) = match message {
        Message::User { .. } => ("user".to_string(), String::new()),
        Message::Assistant { model, .. } => ("assistant".to_string(), escape(model).into_owned()),
        Message::ToolResult {
            tool_name,
            is_error,
            ..
        } => (
            if *is_error {
                "✗ tool error".to_string()
            } else {
                "tool result".to_string()
            },
            escape(tool_name).into_owned(),
        ),
        Message::Custom { kind, .. } => ("custom".to_string(), escape(kind).into_owned()),
    };
    let mut spans = vec![
        Span::styled("▌ ", role_style(message)),
        Span::styled(who, role_style(message)),
    ];
    if !tag.is_empty() {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(tag, Style::new().fg(Color::Blue)));
    }
    spans.push(Span::styled(
        format!(" · {}", escape(heading.short)),
        Style::new().fg(Color::Yellow),
    ));
    if let Some(s) = heading.spent {
        let mut used = format!(" · {} in · {} out", tokens(all_in(&s)), tokens(s.output));
        if let Some(cost) = s.cost {
            used.push_str(&format!(" · ${cost:.4}"));
        }
        spans.push(Span::styled(used, Style::new().fg(Color::DarkGray)));
    }
    if !heading.time.is_empty() {
        spans.push(Span::styled(
            format!(" · {}", heading.time),
            Style::new().fg(Color::DarkGray),
        ));
    }
    cut(Line::from(spans), width)
}

/// The body's parts, folded unless `open`: a tool result's output is one
/// fold, its other parts after it.
fn body_lines(body: &Body<'_>, open: bool, width: usize, out: &mut Vec<Line<'static>>) {
    let Some(answer) = body.answer else {
        for part in &body.parts {
            part_lines(part, open, width, out);
        }
        return;
    };
    let style = if answer.error {
        Style::new().fg(Color::Red)
    } else {
        Style::new()
    };
    let name = escape(answer.tool).into_owned();
    fold(
        &format!("result {name}"),
        &body.output(),
        open,
        style,
        width,
        out,
    );
    for part in &body.parts {
        if !matches!(part, Part::Output { .. }) {
            part_lines(part, open, width, out);
        }
    }
}

/// A part's lines.
fn part_lines(part: &Part<'_>, open: bool, width: usize, out: &mut Vec<Line<'static>>) {
    let dim = Style::new().fg(Color::DarkGray);
    match part {
        Part::Text(text) => text_lines(text, Style::new(), width, out),
        // A tool result's output is folded whole ([`body_lines`]); a part
        // alone reads as text.
        Part::Output { text, error } => {
            let style = if *error {
                Style::new().fg(Color::Red)
            } else {
                Style::new()
            };
            text_lines(text, style, width, out);
        }
        Part::Thinking { text, redacted } => {
            let text = if *redacted && text.is_empty() {
                "(redacted)"
            } else {
                text
            };
            fold(
                "thinking",
                text,
                open,
                dim.add_modifier(Modifier::ITALIC),
                width,
                out,
            );
        }
        Part::ToolCall {
            name, arguments, ..
        } => {
            let title = format!("tool call {}", escape(name));
            let shown = if open {
                serde_json::to_string_pretty(arguments).unwrap_or_default()
            } else {
                arguments.to_string()
            };
            fold(
                &title,
                &shown,
                open,
                Style::new().fg(Color::Blue),
                width,
                out,
            );
        }
        Part::Image {
            mime_type, bytes, ..
        } => {
            out.push(cut(
                Line::styled(
                    format!("  [image {}, {}]", escape(mime_type), human_size(*bytes)),
                    dim,
                ),
                width,
            ));
        }
        // An agent's markup as what it means: a command as typed, its
        // output and the app's context folded.
        Part::Markup(pieces) => {
            for piece in pieces {
                // A fold's title is shown as given: escaped here.
                let label = escape(&piece.label).into_owned();
                let text = piece.text;
                match piece.look {
                    Look::Words => text_lines(text, Style::new(), width, out),
                    Look::Command => text_lines(
                        &piece.label,
                        Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
                        width,
                        out,
                    ),
                    Look::Output => fold(&label, text, open, Style::new(), width, out),
                    Look::Error => {
                        fold(&label, text, open, Style::new().fg(Color::Red), width, out)
                    }
                    Look::Context => fold(&label, text, open, dim, width, out),
                }
            }
        }
        Part::Data(data) => {
            let text = match data {
                serde_json::Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            fold("custom", &text, open, dim, width, out);
        }
        Part::Error(error) => {
            let red = Style::new().fg(Color::Red).add_modifier(Modifier::BOLD);
            text_lines(&format!("✗ error: {error}"), red, width, out);
        }
    }
}

/// A folded block: `▸ title · first line…` closed; `▾ title` and every
/// line open.
fn fold(
    title: &str,
    text: &str,
    open: bool,
    style: Style,
    width: usize,
    out: &mut Vec<Line<'static>>,
) {
    let marker = Style::new().fg(Color::DarkGray);
    if open {
        out.push(cut(
            Line::from(vec![
                Span::styled("  ▾ ", marker),
                Span::styled(title.to_string(), style.add_modifier(Modifier::BOLD)),
            ]),
            width,
        ));
        text_lines(text, style, width, out);
    } else {
        let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let more = text.lines().filter(|l| !l.trim().is_empty()).count();
        let mut spans = vec![
            Span::styled("  ▸ ", marker),
            Span::styled(title.to_string(), style.add_modifier(Modifier::BOLD)),
        ];
        if !first.is_empty() {
            spans.push(Span::styled(format!(" · {}", escape(first.trim())), style));
        }
        if more > 1 {
            spans.push(Span::styled(format!(" (+{} lines)", more - 1), marker));
        }
        out.push(cut(Line::from(spans), width));
    }
}

/// Text as lines of at most `width` columns, indented by two, escaped
/// (tabs as spaces, every other control character as an escape).
fn text_lines(text: &str, style: Style, width: usize, out: &mut Vec<Line<'static>>) {
    let room = width.saturating_sub(2).max(4);
    for line in text.split('\n') {
        let line = line
            .strip_suffix('\r')
            .unwrap_or(line)
            .replace('\t', "    ");
        let shown = escape(&line);
        for piece in wrap(&shown, room) {
            out.push(Line::styled(format!("  {piece}"), style));
        }
    }
}

/// `text` in pieces of at most `width` columns (at least one character
/// each; an empty text is one empty piece).
pub fn wrap(text: &str, width: usize) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut rest = text;
    loop {
        let (piece, after) = split_at_width(rest, width);
        pieces.push(piece);
        if after.is_empty() {
            return pieces;
        }
        rest = after;
    }
}

/// The longest start of `text` at most `width` columns wide (at least one
/// character), and the rest.
fn split_at_width(text: &str, width: usize) -> (&str, &str) {
    match fit_width(text, width) {
        ("", rest) if !rest.is_empty() => {
            let first = rest.chars().next().map_or(0, char::len_utf8);
            rest.split_at(first)
        }
        fits => fits,
    }
}

/// The longest start of `text` at most `width` columns wide (maybe
/// none), and the rest.
fn fit_width(text: &str, width: usize) -> (&str, &str) {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        let w = c.width().unwrap_or(0);
        if used + w > width {
            return text.split_at(at);
        }
        used += w;
    }
    (text, "")
}

/// A line cut to `width` columns, its spans' styles kept (a character
/// two columns wide that would stand across the edge is left out).
pub fn cut(line: Line<'static>, width: usize) -> Line<'static> {
    let mut used = 0;
    let mut spans = Vec::new();
    let style = line.style;
    for span in line.spans {
        if used >= width {
            break;
        }
        let (piece, rest) = fit_width(&span.content, width - used);
        used += piece.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>();
        if rest.is_empty() {
            spans.push(span);
        } else {
            spans.push(Span::styled(piece.to_string(), span.style));
            break;
        }
    }
    Line::from(spans).style(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A yoagent entry whose every block carries `text`.
    fn entry(text: &str) -> Entry {
        let t = serde_json::to_string(text).unwrap();
        let line = format!(
            r#"{{"id":"e2","parent_id":"e1","timestamp":5,"message":{{"role":"assistant","content":[{{"type":"thinking","thinking":{t}}},{{"type":"text","text":{t}}},{{"type":"toolCall","id":"c1","name":{t},"arguments":{{"k":{t}}}}}],"stopReason":"error","model":{t},"provider":"p","usage":{{"input":1,"output":2}},"errorMessage":{t},"timestamp":5}}}}"#
        );
        Entry::parse(line.as_bytes()).expect("a yoagent entry")
    }

    fn heading() -> Heading<'static> {
        Heading {
            short: "e2",
            time: String::new(),
            spent: Some(Spent {
                input: u64::MAX,
                output: 2,
                cache_read: 5,
                cache_write: 0,
                cost: None,
            }),
        }
    }

    #[test]
    fn wide_text_wraps_within_the_width_folded_or_open() {
        let text = "漢字のテキスト🙂と絵文字 ".repeat(20);
        for width in [8u16, 9, 13, 40, 81] {
            for open in [false, true] {
                for line in lines(&entry(&text), &heading(), open, width) {
                    assert!(
                        line.width() <= usize::from(width),
                        "{width} columns, open {open}: {} wide: {line:?}",
                        line.width()
                    );
                }
            }
        }
    }

    #[test]
    fn hostile_text_is_escaped_in_every_span() {
        let hostile = "a\u{1b}[2J\u{9b}\u{202e}\u{2066}\u{0}b\r\nc\td";
        for open in [false, true] {
            for line in lines(&entry(hostile), &heading(), open, 60) {
                for span in &line.spans {
                    assert!(
                        !span.content.chars().any(|c| c.is_control()
                            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')),
                        "open {open}: {:?}",
                        span.content
                    );
                }
            }
        }
    }
}
