//! What the browser looks like: the tree pane (the rows of `log --graph`),
//! the chat pane (the selected entry's path), the status line, and what
//! covers them for a while (the keys, a prompt, a question, a diff).

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::app::{App, Ask, Overlay};
use super::chat::{cut, wrap};
use super::scroll::{anchor_bottom, height_of};
use super::view::{Pane, View};
use crate::cli::ls::tokens;
use crate::ui::output::escape;

/// The keys, as `?` lists them (and the table in docs/commands/tui.md).
pub const KEYS: &[(&str, &str)] = &[
    (
        "j / k, ↓ / ↑",
        "next / previous entry (in the chat: entry of the path)",
    ),
    ("PgDn / PgUp", "a page down / up"),
    (
        "g / G",
        "first / last entry (in the chat: root / selected entry)",
    ),
    (
        "Enter, Space",
        "open or close the entry's folds (thinking, tool calls, results)",
    ),
    ("Tab", "switch between the tree and the chat"),
    (
        "/",
        "search, with grep's arguments (`-i retry --role assistant`)",
    ),
    ("n / N", "next / previous match"),
    ("[ / ]", "previous / next fork point"),
    ("m", "mark the selected entry"),
    (
        "d",
        "diff the mark with the selection (`ysess diff MARK SEL`)",
    ),
    (
        "t",
        "tag the selected entry (`ysess tag NAME SEL`, asks first)",
    ),
    (
        "b",
        "start a branch at the selected entry (`ysess branch NAME SEL`, asks first)",
    ),
    (
        "c",
        "check out the selected entry (`ysess checkout SEL`, asks first)",
    ),
    (
        "y",
        "copy the selected entry's id (to the terminal's clipboard)",
    ),
    (
        "R",
        "go on from the selected entry in the session's agent (`ysess resume SEL`, on quitting)",
    ),
    ("?", "this list"),
    ("q, Esc", "quit (or back to the session list); Ctrl-C quits"),
];

const FOCUS: Style = Style::new().fg(Color::Cyan);
const DIM: Style = Style::new().fg(Color::DarkGray);

impl App {
    /// Draws the browser on `frame`.
    pub fn draw(&mut self, frame: &mut Frame<'_>) {
        let [main, status] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(1)]).areas(frame.area());
        self.page = usize::from(main.height.saturating_sub(2)).max(1);
        self.width = frame.area().width;
        match &mut self.view {
            Some(view) => {
                let [left, right] =
                    Layout::horizontal([Constraint::Percentage(45), Constraint::Percentage(55)])
                        .areas(main);
                self.chat_width = right.width.saturating_sub(2).max(8);
                draw_tree(frame, view, left);
                draw_chat(frame, view, right);
            }
            None => self.draw_list(frame, main),
        }
        self.draw_status(frame, status);
        self.draw_overlay(frame, main);
    }

    fn draw_list(&mut self, frame: &mut Frame<'_>, area: Rect) {
        let block = Block::bordered()
            .title(" sessions (ysess ls) ")
            .border_style(FOCUS);
        let inner = block.inner(area);
        frame.render_widget(block, area);
        let Some(list) = &mut self.list else { return };
        if list.loading {
            frame.render_widget(Paragraph::new("reading sessions…").style(DIM), inner);
            return;
        }
        if list.sessions.is_empty() {
            frame.render_widget(
                Paragraph::new("no session found where `ysess ls` looks").style(DIM),
                inner,
            );
            return;
        }
        let height = usize::from(inner.height).saturating_sub(1);
        list.move_by(0, height);
        let (top, sel) = (list.top, list.sel);
        let lines = list.lines(usize::from(inner.width));
        let mut shown = vec![Line::styled(lines[0].clone(), DIM)];
        for (k, line) in lines.iter().enumerate().skip(1 + top).take(height) {
            let style = if k - 1 == sel {
                Style::new().add_modifier(Modifier::REVERSED)
            } else {
                Style::new()
            };
            shown.push(Line::styled(line.clone(), style));
        }
        frame.render_widget(Paragraph::new(shown), inner);
    }

    fn draw_status(&self, frame: &mut Frame<'_>, area: Rect) {
        if let Some(Overlay::Prompt { ask, input }) = &self.overlay {
            let asked = match (ask, self.view.as_ref().and_then(selected_short)) {
                (Ask::Search, _) => "/".to_string(),
                (Ask::Tag, Some(s)) => format!("tag {s} as: "),
                (Ask::Branch, Some(s)) => format!("branch at {s}, named: "),
                _ => String::new(),
            };
            let line = Line::from(vec![
                Span::styled(asked, FOCUS),
                Span::raw(escape(input).into_owned()),
                Span::styled("█", DIM),
            ]);
            frame.render_widget(Paragraph::new(cut(line, usize::from(area.width))), area);
            return;
        }
        let mut left = match &self.view {
            Some(view) => {
                let tree = &view.repo.tree;
                let name = view.path.file_name().map_or_else(
                    || view.path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                let head = tree.head().map_or_else(
                    || "-".to_string(),
                    |h| escape(tree.short_id(h)).into_owned(),
                );
                let mut text = format!(
                    " {} · {} · HEAD {head}",
                    escape(&name),
                    view.repo.format.name()
                );
                if let Some(branch) = &view.branch {
                    text.push_str(&format!(" on {}", escape(branch)));
                }
                let n = view.order.len();
                text.push_str(&format!(
                    " · {} {} · {} {}",
                    crate::ui::render::thousands(n as u64),
                    if n == 1 { "entry" } else { "entries" },
                    view.tips,
                    if view.tips == 1 { "tip" } else { "tips" }
                ));
                if let Some(mark) = &view.mark
                    && let Some(ix) = tree.find(mark)
                {
                    text.push_str(&format!(" · mark {}", escape(tree.short_id(ix))));
                }
                text
            }
            None => match &self.list {
                Some(list) => format!(" {} sessions", list.sessions.len()),
                None => String::new(),
            },
        };
        left.push(' ');
        let info = Span::styled(left, Style::new().add_modifier(Modifier::REVERSED));
        // A message comes first: what a key just did matters most.
        let line = match &self.note {
            Some(note) => {
                let style = if note.error {
                    Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
                } else {
                    Style::new().fg(Color::Yellow)
                };
                Line::from(vec![Span::styled(format!(" {} ", note.text), style), info])
            }
            None => Line::from(vec![info, Span::styled(" ? keys · q quit", DIM)]),
        };
        frame.render_widget(Paragraph::new(cut(line, usize::from(area.width))), area);
    }

    fn draw_overlay(&mut self, frame: &mut Frame<'_>, area: Rect) {
        match &mut self.overlay {
            None | Some(Overlay::Prompt { .. }) => {}
            Some(Overlay::Help) => {
                let width = KEYS
                    .iter()
                    .map(|(k, _)| k.chars().count())
                    .max()
                    .unwrap_or(0);
                let lines: Vec<Line<'_>> = KEYS
                    .iter()
                    .map(|(k, what)| {
                        Line::from(vec![
                            Span::styled(format!("{k:width$}  "), FOCUS),
                            Span::raw(*what),
                        ])
                    })
                    .collect();
                let box_area = centered(area, 90, lines.len() as u16 + 2);
                frame.render_widget(Clear, box_area);
                frame.render_widget(
                    Paragraph::new(lines).block(
                        Block::bordered()
                            .title(" keys (any key closes) ")
                            .border_style(FOCUS),
                    ),
                    box_area,
                );
            }
            Some(Overlay::Confirm { action }) => {
                let command = format!(
                    "ysess {}",
                    action
                        .words()
                        .iter()
                        .map(|a| escape(a).into_owned())
                        .collect::<Vec<_>>()
                        .join(" ")
                );
                let lines = vec![
                    Line::raw(format!("Run `{command}`?")),
                    Line::styled("It appends to the session file.", DIM),
                    Line::from(vec![
                        Span::styled("y", FOCUS),
                        Span::raw(" runs it, any other key cancels"),
                    ]),
                ];
                let wide = u16::try_from(command.chars().count()).unwrap_or(u16::MAX);
                let box_area = centered(area, wide.saturating_add(12).max(44), 5);
                frame.render_widget(Clear, box_area);
                frame.render_widget(
                    Paragraph::new(lines)
                        .block(Block::bordered().title(" write? ").border_style(FOCUS)),
                    box_area,
                );
            }
            Some(Overlay::Text {
                title,
                lines,
                scroll,
            }) => {
                let box_area = area;
                let inner_width = usize::from(box_area.width.saturating_sub(2)).max(8);
                // Long lines wrap at the box's edge, in the colour of
                // their start.
                let rows: Vec<Line<'_>> = lines
                    .iter()
                    .flat_map(|l| {
                        let style = if l.starts_with('+') {
                            Style::new().fg(Color::Green)
                        } else if l.starts_with('-') {
                            Style::new().fg(Color::Red)
                        } else if l.starts_with("error:") {
                            Style::new().fg(Color::Red).add_modifier(Modifier::BOLD)
                        } else {
                            Style::new()
                        };
                        let text = l.replace('\t', "    ");
                        wrap(&text, inner_width)
                            .into_iter()
                            .map(|piece| Line::styled(piece.to_string(), style))
                            .collect::<Vec<_>>()
                    })
                    .collect();
                // The last screenful is as far as it scrolls.
                let height = usize::from(box_area.height.saturating_sub(2));
                *scroll = (*scroll).min(rows.len().saturating_sub(height));
                let shown: Vec<Line<'_>> = rows.into_iter().skip(*scroll).take(height).collect();
                frame.render_widget(Clear, box_area);
                frame.render_widget(
                    Paragraph::new(shown).block(
                        Block::bordered()
                            .title(format!(" {} (q closes) ", escape(title)))
                            .border_style(FOCUS),
                    ),
                    box_area,
                );
            }
        }
    }
}

/// The selected entry's short id, escaped.
fn selected_short(view: &View) -> Option<String> {
    let ix = view.selected()?;
    Some(escape(view.repo.tree.short_id(ix)).into_owned())
}

/// A box `width` × `height` in the middle of `area` (as much as fits).
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    }
}

fn pane(title: String, focused: bool) -> Block<'static> {
    Block::new()
        .borders(Borders::ALL)
        .title(title)
        .border_style(if focused { FOCUS } else { DIM })
}

/// The tree pane: `log --graph`'s rows from the first in sight, the
/// selection in reverse video with a `▶` before it, a `*` before the
/// marked entry.
fn draw_tree(frame: &mut Frame<'_>, view: &mut View, area: Rect) {
    let block = pane(" tree ".to_string(), view.focus == Pane::Tree);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let height = usize::from(inner.height);
    let width = usize::from(inner.width);
    view.scroll_to_selection(height);
    let marked = view.mark.as_deref().and_then(|id| view.repo.tree.find(id));
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(height);
    let mut k = view.top;
    while lines.len() < height && k < view.order.len() {
        let ix = view.order[k];
        let Some(row) = view.graph_row(k) else {
            break;
        };
        for extra in row.gap.iter().chain(&row.connector) {
            if k != view.top {
                lines.push(Line::styled(format!("  {extra}"), DIM));
            }
        }
        let tree = &view.repo.tree;
        let mut item = crate::view::Headline::of(tree, &view.names, ix, false);
        // The session is read without subjects: each row's is read here.
        item.subject = view.subject(ix).to_string();
        let gutter = format!(
            "{}{}",
            if k == view.sel { '▶' } else { ' ' },
            if marked == Some(ix) { '*' } else { ' ' }
        );
        let mut spans = vec![
            Span::styled(gutter, Style::new().fg(Color::Magenta)),
            Span::styled(row.prefix.clone(), Style::new().fg(Color::Magenta)),
            Span::styled(
                escape(&item.short).into_owned(),
                Style::new().fg(Color::Yellow),
            ),
        ];
        let words = crate::ui::render::decorations(
            item.head,
            &item.branches,
            &item.labels,
            crate::ui::render::Paint { on: false },
        );
        if !words.is_empty() {
            spans.push(Span::styled(
                words,
                Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            ));
        }
        spans.push(Span::styled(
            format!(" {}", crate::ui::render::role_text(item.kind, &item.tag)),
            Style::new().fg(Color::Blue),
        ));
        if item.timestamp != 0 {
            spans.push(Span::styled(
                format!(
                    " {}",
                    crate::ui::render::time(item.timestamp, view.tz(), true)
                ),
                DIM,
            ));
        }
        spans.push(Span::raw(format!(": {}", escape(&item.subject))));
        let mut line = cut(Line::from(spans), width);
        if k == view.sel {
            line = line.patch_style(Style::new().add_modifier(Modifier::REVERSED));
            // The selection spans the pane.
            let used = line.width();
            if used < width {
                line.spans.push(Span::styled(
                    " ".repeat(width - used),
                    Style::new().add_modifier(Modifier::REVERSED),
                ));
            }
        }
        lines.push(line);
        k += 1;
    }
    frame.render_widget(Paragraph::new(lines), inner);
}

/// The chat pane: the path from its first line in sight, each entry's
/// heading and blocks; the cursor's heading marked `▶` when the chat has
/// the keys.
fn draw_chat(frame: &mut Frame<'_>, view: &mut View, area: Rect) {
    let focused = view.focus == Pane::Chat;
    let n = view.path_ixs.len();
    let mut title = format!(
        " path: {} {}",
        crate::ui::render::thousands(n as u64),
        if n == 1 { "entry" } else { "entries" }
    );
    match view.path_used() {
        Some(s) if super::chat::all_in(&s) == 0 && s.output == 0 && s.cost.is_none() => {}
        Some(s) => {
            title.push_str(&format!(
                " · {} in · {} out",
                tokens(super::chat::all_in(&s)),
                tokens(s.output)
            ));
            if let Some(cost) = s.cost {
                title.push_str(&format!(" · ${cost:.4}"));
            }
        }
        None if n > 0 && !view.usage_failed => title.push_str(" · reading usage…"),
        None => {}
    }
    title.push(' ');
    let block = pane(title, focused);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if n == 0 {
        return;
    }
    let height = usize::from(inner.height);
    let width = inner.width;
    if view.chat_top.0 == usize::MAX {
        anchor_bottom(view, n - 1, height, width);
    }
    let (mut k, skip) = view.chat_top;
    k = k.min(n - 1);
    let mut lines: Vec<Line<'static>> = Vec::with_capacity(height);
    // An offset taken at another width may lie past the entry.
    let mut skip = skip.min(height_of(view, k, width).saturating_sub(1));
    while lines.len() < height && k < n {
        let entry_lines = view.chat_lines(view.path_ixs[k], width);
        for (i, line) in entry_lines.iter().enumerate().skip(skip) {
            if lines.len() >= height {
                break;
            }
            let mut line = line.clone();
            if i == 0 && focused && k == view.cursor {
                if let Some(first) = line.spans.first_mut() {
                    first.content = "▶ ".into();
                }
                line = line.patch_style(Style::new().add_modifier(Modifier::BOLD));
            }
            lines.push(line);
        }
        skip = 0;
        k += 1;
    }
    frame.render_widget(Paragraph::new(lines), inner);
}
