//! Where the chat pane's first line is: kept so that the cursor's entry is
//! in sight, and moved by page keys. What the keys ask and what the pane
//! draws both use it.

use super::view::View;

/// Lines of the chat's entry `k` (a place on the path).
pub fn height_of(view: &mut View, k: usize, width: u16) -> usize {
    let ix = view.path_ixs[k];
    view.chat_lines(ix, width).len()
}

/// Puts the chat's first line where the path's entry `end` ends at the
/// bottom of a pane `height` high (its start, when it is taller).
pub fn anchor_bottom(view: &mut View, end: usize, height: usize, width: u16) {
    let mut used = height_of(view, end, width);
    if used >= height {
        view.chat_top = (end, 0);
        return;
    }
    let mut k = end;
    while k > 0 {
        let h = height_of(view, k - 1, width);
        if used + h >= height {
            view.chat_top = (k - 1, used + h - height);
            return;
        }
        used += h;
        k -= 1;
    }
    view.chat_top = (0, 0);
}

/// Scrolls the chat so its cursor's entry is in sight.
pub fn cursor_in_sight(view: &mut View, height: usize, width: u16) {
    if view.path_ixs.is_empty() {
        return;
    }
    let (top, skip) = view.chat_top;
    if top == usize::MAX {
        anchor_bottom(view, view.path_ixs.len() - 1, height, width);
    }
    let (top, skip) = if top == usize::MAX {
        view.chat_top
    } else {
        (top, skip)
    };
    if view.cursor < top || (view.cursor == top && skip > 0) {
        view.chat_top = (view.cursor, 0);
        return;
    }
    // Lines from the first in sight to the cursor's entry's end.
    let mut used = height_of(view, top, width).saturating_sub(skip);
    for k in top + 1..=view.cursor {
        used += height_of(view, k, width);
    }
    if used > height {
        anchor_bottom(view, view.cursor, height, width);
    }
}

/// Scrolls the chat by `by` lines; the cursor goes to the entry then on
/// the first line.
pub fn scroll_chat(view: &mut View, by: isize, height: usize, width: u16) {
    if view.path_ixs.is_empty() {
        return;
    }
    let last = view.path_ixs.len() - 1;
    let current = view.chat_top;
    // Where the path's end is at the bottom: no scrolling goes past it.
    anchor_bottom(view, last, height, width);
    let bottom = view.chat_top;
    let (mut k, mut skip) = if current.0 == usize::MAX {
        bottom
    } else {
        current
    };
    k = k.min(last);
    if by >= 0 {
        let mut left = by as usize;
        while left > 0 {
            // An offset taken at another width may lie past the entry.
            let h = height_of(view, k, width);
            skip = skip.min(h.saturating_sub(1));
            if skip + left < h {
                skip += left;
                break;
            }
            if k >= last {
                skip = h.saturating_sub(1);
                break;
            }
            left -= h - skip;
            k += 1;
            skip = 0;
        }
        (k, skip) = (k, skip).min(bottom);
    } else {
        let mut left = by.unsigned_abs();
        skip = skip.min(height_of(view, k, width).saturating_sub(1));
        while left > 0 {
            if skip >= left {
                skip -= left;
                break;
            }
            left -= skip;
            if k == 0 {
                skip = 0;
                break;
            }
            k -= 1;
            skip = height_of(view, k, width);
        }
    }
    view.chat_top = (k, skip);
    view.cursor = k;
}
