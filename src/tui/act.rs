//! What a key starts beyond the browser itself: the writes (`t`, `b`,
//! `c`), each one operation of [`crate::ops`], its outcome or refusal
//! said as the command line says it; the diff of two entries (`d`); and
//! the search (`/`, `n`, `N`) with grep's engine.

use super::app::{Action, App, Note, Overlay};
use crate::cli::grep::Matcher;
use crate::cli::{Failure, Global};
use crate::ui::output::escape;
use crate::ui::render::Paint;

impl App {
    /// The options a command run on the session open would have: its
    /// refusals' hints name the file as the user named it.
    fn global(&self) -> Option<Global> {
        let view = self.view.as_ref()?;
        Some(Global {
            file: view.path.clone(),
            session: None,
            dir: None,
            color: crate::ui::output::ColorWhen::Never,
            quiet: false,
            no_pager: true,
            format_of: view.format_of,
            jobs: None,
            file_from: self.file_from,
        })
    }

    /// Makes `action` on the session open: whether it wrote, and the
    /// lines it said (its status lines, or its refusal and hints).
    fn act(&self, action: &Action) -> Option<(bool, Vec<String>)> {
        let global = self.global()?;
        let (path, refs) = (&global.file, self.refs.as_ref());
        let paint = Paint { on: false };
        let done = match action {
            Action::Tag { name, at } => crate::ops::tag::set(path, name, Some(at), false, refs)
                .map(|done| vec![crate::cli::tag::change::set_said(name, &done, paint)])
                .map_err(|e| {
                    crate::cli::tag::change::set_refused(&global, path, e, name, Some(at))
                }),
            Action::Branch { name, at } => {
                crate::ops::branch::create(path, name, Some(at), false, refs)
                    .map(|done| vec![crate::cli::branch::change::created_said(name, &done, paint)])
                    .map_err(|e| {
                        crate::cli::branch::change::create_refused(&global, path, e, Some(at))
                    })
            }
            Action::Checkout { at } => crate::ops::checkout::checkout(path, Some(at), None, refs)
                .map(|done| {
                    let mut said = vec![crate::cli::checkout::said(&done, paint)];
                    said.extend(crate::cli::checkout::resume_hint(&global, path));
                    said
                })
                .map_err(|e| crate::cli::checkout::checkout_refused(&global, path, e)),
        };
        Some(match done {
            Ok(said) => (true, said),
            Err(failure) => (
                false,
                reported(&failure).lines().map(str::to_string).collect(),
            ),
        })
    }

    /// Makes a write the user said yes to, shows what it said, and reads
    /// the file again.
    pub(super) fn write(&mut self, action: &Action) {
        let Some((ok, said)) = self.act(action) else {
            return;
        };
        let title = format!("ysess {}", action.words().join(" "));
        if let Some(view) = &mut self.view {
            if let Err(why) = view.reload_now() {
                // What the write said stays in sight.
                self.overlay = Some(Overlay::Text {
                    title,
                    lines: said,
                    scroll: 0,
                });
                self.note = Some(Note {
                    text: format!("cannot read the file again: {}", escape(&why)),
                    error: true,
                });
                return;
            }
            view.scroll_to_selection(self.page);
        }
        let first = said.first().cloned().unwrap_or_default();
        if said.len() > 1 {
            self.overlay = Some(Overlay::Text {
                title,
                lines: said,
                scroll: 0,
            });
        }
        self.note = Some(Note {
            text: first,
            error: !ok,
        });
    }

    /// `d`: `ysess diff MARK SELECTION`, shown over the panes.
    pub(super) fn diff(&mut self) {
        let Some(view) = &self.view else { return };
        let (Some(mark), Some(ix)) = (view.mark.clone(), view.selected()) else {
            self.note = Some(Note {
                text: "nothing marked: m marks an entry, d diffs it with the selection".to_string(),
                error: true,
            });
            return;
        };
        let id = view.repo.tree.id(ix).to_string();
        let Some(global) = self.global() else { return };
        let text = crate::cli::diff::plain(&global, self.refs.clone(), &mark, &id)
            .unwrap_or_else(|failure| reported(&failure));
        self.overlay = Some(Overlay::Text {
            title: format!("ysess diff {mark} {id}"),
            lines: text.lines().map(str::to_string).collect(),
            scroll: 0,
        });
    }

    /// `/`, `n`, `N`: the next entry (in the listing, from the selection,
    /// wrapping) that grep's engine matches with the arguments typed.
    pub(super) fn find(&mut self, typed: &str, forward: bool) {
        let Some(view) = &mut self.view else { return };
        let matcher = match Matcher::parse(typed) {
            Ok(m) => m,
            Err(why) => {
                self.note = Some(Note {
                    text: escape(&why).into_owned(),
                    error: true,
                });
                return;
            }
        };
        let n = view.order.len();
        if n == 0 {
            return;
        }
        let mut found = None;
        for step in 1..=n {
            let k = if forward {
                (view.sel + step) % n
            } else {
                (view.sel + n - step % n) % n
            };
            match matcher.matches(&view.repo, view.order[k]) {
                Ok(true) => {
                    found = Some(k);
                    break;
                }
                Ok(false) => {}
                Err(e) => {
                    self.note = Some(Note {
                        text: format!("cannot read the file: {e}"),
                        error: true,
                    });
                    return;
                }
            }
        }
        match found {
            Some(k) => {
                let wrapped = if forward {
                    k <= view.sel
                } else {
                    k >= view.sel
                };
                view.select(k, self.page);
                self.note = Some(Note {
                    text: format!(
                        "/{}{}",
                        crate::ui::output::escape(typed),
                        if wrapped { " (wrapped)" } else { "" }
                    ),
                    error: false,
                });
            }
            None => {
                self.note = Some(Note {
                    text: format!("/{}: no match", crate::ui::output::escape(typed)),
                    error: true,
                })
            }
        }
    }
}

/// A failure as the command line reports it: `error: …`, then its
/// hints, a line each, without colour.
fn reported(failure: &Failure) -> String {
    let mut err = Vec::new();
    let mut streams = crate::ui::output::Streams {
        out: &mut std::io::sink(),
        err: &mut err,
        color_err: false,
        color_out: false,
        pager: None,
        width: None,
    };
    crate::cli::report(&mut streams, failure, false);
    String::from_utf8_lossy(&err).into_owned()
}

/// A failure as the status line shows it: its report on one line.
pub(super) fn failure_note(failure: &Failure) -> Note {
    let text = reported(failure).lines().collect::<Vec<_>>().join(" ");
    Note { text, error: true }
}
