//! What each key does: on the session list, on a session (the keys every
//! pane shares, then the tree's and the chat's own), and over the panes
//! (help, a prompt, a question, text to read).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::app::{Action, App, Ask, Note, Overlay, Start};
use super::scroll::{cursor_in_sight, scroll_chat};
use super::view::{Pane, View};

impl App {
    /// Takes one key.
    pub fn key(&mut self, key: KeyEvent) {
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        if self.overlay.is_some() {
            self.overlay_key(key);
            return;
        }
        self.note = None;
        if self.view.is_none() {
            self.list_key(key);
            return;
        }
        if !self.session_key(key.code) {
            self.pane_key(key.code);
        }
    }

    fn list_key(&mut self, key: KeyEvent) {
        let page = self.page;
        let Some(list) = &mut self.list else {
            self.quit = true;
            return;
        };
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.quit = true,
            KeyCode::Char('j') | KeyCode::Down => list.move_by(1, page),
            KeyCode::Char('k') | KeyCode::Up => list.move_by(-1, page),
            KeyCode::PageDown => list.move_by(page as isize, page),
            KeyCode::PageUp => list.move_by(-(page as isize), page),
            KeyCode::Char('g') | KeyCode::Home => list.move_by(isize::MIN / 2, page),
            KeyCode::Char('G') | KeyCode::End => list.move_by(isize::MAX / 2, page),
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Enter | KeyCode::Char(' ') => {
                let Some((path, format)) = list.chosen() else {
                    return;
                };
                let start = Start::Session {
                    path,
                    format_of: Some(format),
                    rev: None,
                };
                match App::new(start, None, self.style, self.tz.clone(), self.refs.clone()) {
                    Ok(app) => self.view = app.view,
                    Err(failure) => self.note = Some(super::act::failure_note(&failure)),
                }
            }
            _ => {}
        }
    }

    /// The keys a session takes whichever pane has them; `false` for a key
    /// that is the pane's.
    fn session_key(&mut self, code: KeyCode) -> bool {
        let Some(view) = &mut self.view else {
            return true;
        };
        match code {
            KeyCode::Char('q') | KeyCode::Esc => {
                if self.list.is_some() {
                    self.view = None;
                } else {
                    self.quit = true;
                }
            }
            KeyCode::Char('?') => self.overlay = Some(Overlay::Help),
            KeyCode::Tab | KeyCode::BackTab => {
                view.focus = match view.focus {
                    Pane::Tree => Pane::Chat,
                    Pane::Chat => Pane::Tree,
                };
            }
            KeyCode::Char('/') => {
                self.overlay = Some(Overlay::Prompt {
                    ask: Ask::Search,
                    input: self.search.clone().unwrap_or_default(),
                });
            }
            KeyCode::Char('n') | KeyCode::Char('N') => match self.search.clone() {
                Some(typed) => self.find(&typed, code == KeyCode::Char('n')),
                None => self.note = Some(note("no search yet: / searches", true)),
            },
            KeyCode::Char('[') | KeyCode::Char(']') => {
                match view.fork(code == KeyCode::Char(']')) {
                    Some(k) => view.select(k, self.page),
                    None => self.note = Some(note("no fork point further that way", false)),
                }
            }
            KeyCode::Char('d') => self.diff(),
            _ => return self.entry_key(code),
        }
        true
    }

    /// The keys that act on the selected entry (nothing without one);
    /// `false` for a key that is the pane's.
    fn entry_key(&mut self, code: KeyCode) -> bool {
        let Some(view) = &mut self.view else {
            return true;
        };
        let selected = view.selected();
        let Some(ix) = selected else {
            return matches!(code, KeyCode::Char('m' | 'y' | 't' | 'b' | 'R' | 'c'));
        };
        let tree = &view.repo.tree;
        let id = tree.id(ix).to_string();
        match code {
            KeyCode::Char('m') => {
                let short = crate::ui::output::escape(tree.short_id(ix)).into_owned();
                view.mark = Some(id);
                self.note = Some(Note {
                    text: format!("marked {short}: d diffs it with the selection"),
                    error: false,
                });
            }
            KeyCode::Char('y') => {
                // An id is session text: what is pasted is never a line
                // break or an escape sequence, but its escape.
                let id = crate::ui::output::escape(&id).into_owned();
                self.note = Some(Note {
                    text: format!("copied {id}"),
                    error: false,
                });
                self.copy = Some(id);
            }
            KeyCode::Char('t') | KeyCode::Char('b') => {
                self.overlay = Some(Overlay::Prompt {
                    ask: if code == KeyCode::Char('t') {
                        Ask::Tag
                    } else {
                        Ask::Branch
                    },
                    input: String::new(),
                });
            }
            KeyCode::Char('R') => {
                self.resume = Some((view.path.clone(), id));
                self.quit = true;
            }
            KeyCode::Char('c') => {
                self.overlay = Some(Overlay::Confirm {
                    action: Action::Checkout { at: id },
                });
            }
            _ => return false,
        }
        true
    }

    /// A key for the pane that has the keys.
    fn pane_key(&mut self, code: KeyCode) {
        let (page, width) = (self.page, self.chat_width);
        let Some(view) = &mut self.view else { return };
        match view.focus {
            Pane::Tree => tree_key(view, code, page),
            Pane::Chat => chat_key(view, code, page, width),
        }
    }

    fn overlay_key(&mut self, key: KeyEvent) {
        let Some(overlay) = self.overlay.take() else {
            return;
        };
        match overlay {
            Overlay::Help => {
                // Any key closes the help.
            }
            Overlay::Text {
                title,
                lines,
                scroll,
            } => {
                if let Some(scroll) = text_scroll(key.code, scroll, self.page.max(1)) {
                    self.overlay = Some(Overlay::Text {
                        title,
                        lines,
                        scroll,
                    });
                }
            }
            Overlay::Prompt { ask, mut input } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => self.answer(ask, input),
                KeyCode::Backspace => {
                    input.pop();
                    self.overlay = Some(Overlay::Prompt { ask, input });
                }
                KeyCode::Char(c) if !key.modifiers.contains(KeyModifiers::CONTROL) => {
                    input.push(c);
                    self.overlay = Some(Overlay::Prompt { ask, input });
                }
                _ => self.overlay = Some(Overlay::Prompt { ask, input }),
            },
            Overlay::Confirm { action } => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => self.write(&action),
                _ => self.note = Some(note("nothing written", false)),
            },
        }
    }

    /// A prompt answered.
    fn answer(&mut self, ask: Ask, input: String) {
        let Some(view) = &self.view else { return };
        let Some(ix) = view.selected() else { return };
        let at = view.repo.tree.id(ix).to_string();
        match ask {
            Ask::Search => {
                if input.trim().is_empty() {
                    return;
                }
                self.search = Some(input.clone());
                self.find(&input, true);
            }
            Ask::Tag | Ask::Branch if input.trim().is_empty() => {
                self.note = Some(note("no name given: nothing written", false));
            }
            Ask::Tag => {
                self.overlay = Some(Overlay::Confirm {
                    action: Action::Tag { name: input, at },
                })
            }
            Ask::Branch => {
                self.overlay = Some(Overlay::Confirm {
                    action: Action::Branch { name: input, at },
                })
            }
        }
    }
}

/// A message for the status line.
fn note(text: &str, error: bool) -> Note {
    Note {
        text: text.to_string(),
        error,
    }
}

/// A key for the tree: the selection moves, or the entry's folds open.
fn tree_key(view: &mut View, code: KeyCode, page: usize) {
    let last = view.order.len().saturating_sub(1);
    let target = match code {
        KeyCode::Char('j') | KeyCode::Down => Some(view.sel + 1),
        KeyCode::Char('k') | KeyCode::Up => Some(view.sel.saturating_sub(1)),
        KeyCode::PageDown => Some(view.sel + page.max(1)),
        KeyCode::PageUp => Some(view.sel.saturating_sub(page.max(1))),
        KeyCode::Char('g') | KeyCode::Home => Some(0),
        KeyCode::Char('G') | KeyCode::End => Some(last),
        KeyCode::Enter | KeyCode::Char(' ') => {
            if let Some(ix) = view.selected() {
                view.toggle(ix);
                // The selected entry ends the chat: its end stays in sight.
                view.cursor = view.path_ixs.len().saturating_sub(1);
                view.chat_top = (usize::MAX, 0);
            }
            None
        }
        _ => None,
    };
    if let Some(k) = target {
        view.select(k.min(last), page);
    }
}

/// A key for the chat: the cursor moves, the chat scrolls, or the cursor's
/// entry's folds open.
fn chat_key(view: &mut View, code: KeyCode, page: usize, width: u16) {
    let last = view.path_ixs.len().saturating_sub(1);
    match code {
        KeyCode::Char('j') | KeyCode::Down => {
            view.cursor = (view.cursor + 1).min(last);
            cursor_in_sight(view, page, width);
        }
        KeyCode::Char('k') | KeyCode::Up => {
            view.cursor = view.cursor.saturating_sub(1);
            cursor_in_sight(view, page, width);
        }
        KeyCode::PageDown => scroll_chat(view, page as isize, page, width),
        KeyCode::PageUp => scroll_chat(view, -(page as isize), page, width),
        KeyCode::Char('g') | KeyCode::Home => {
            view.cursor = 0;
            view.chat_top = (0, 0);
        }
        KeyCode::Char('G') | KeyCode::End => {
            view.cursor = last;
            view.chat_top = (usize::MAX, 0);
        }
        KeyCode::Enter | KeyCode::Char(' ') => {
            if let Some(&ix) = view.path_ixs.get(view.cursor) {
                view.toggle(ix);
                cursor_in_sight(view, page, width);
            }
        }
        _ => {}
    }
}

/// Where text over the panes scrolls to on `code` (rows, as wrapped on
/// the screen; the drawing keeps the last screenful from scrolling out of
/// sight); `None` when the key closes it.
fn text_scroll(code: KeyCode, scroll: usize, page: usize) -> Option<usize> {
    Some(match code {
        KeyCode::Char('q') | KeyCode::Esc | KeyCode::Enter => return None,
        KeyCode::Char('j') | KeyCode::Down => scroll.saturating_add(1),
        KeyCode::Char('k') | KeyCode::Up => scroll.saturating_sub(1),
        KeyCode::PageDown | KeyCode::Char(' ') => scroll.saturating_add(page),
        KeyCode::PageUp => scroll.saturating_sub(page),
        KeyCode::Char('g') | KeyCode::Home => 0,
        KeyCode::Char('G') | KeyCode::End => usize::MAX,
        _ => scroll,
    })
}
