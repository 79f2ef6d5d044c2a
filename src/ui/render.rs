//! How entries look to a person: decorations, roles, times, colours. Shared
//! by log, show, branch and tag.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use crate::format::MessageKind;
use crate::refs::Names;
use crate::tree::{Ix, Tree};
use crate::ui::output::escape;
use crate::view::label_word;

/// Colours, or none.
#[derive(Debug, Clone, Copy)]
pub struct Paint {
    /// Colours are on.
    pub on: bool,
}

impl Paint {
    fn wrap(self, code: &str, text: &str) -> String {
        if self.on && !text.is_empty() {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }
    /// An id: yellow.
    pub fn id(self, text: &str) -> String {
        self.wrap("33", text)
    }
    /// HEAD: bold cyan.
    pub fn head(self, text: &str) -> String {
        self.wrap("1;36", text)
    }
    /// A label: bold green.
    pub fn label(self, text: &str) -> String {
        self.wrap("1;32", text)
    }
    /// A branch: bold magenta.
    pub fn branch(self, text: &str) -> String {
        self.wrap("1;35", text)
    }
    /// A role: blue.
    pub fn role(self, text: &str) -> String {
        self.wrap("34", text)
    }
    /// Dimmed.
    pub fn dim(self, text: &str) -> String {
        self.wrap("2", text)
    }
    /// An error: red.
    pub fn error(self, text: &str) -> String {
        self.wrap("31", text)
    }
    /// What a search matched.
    pub fn matched(self, text: &str) -> String {
        self.wrap("1;31", text)
    }
    /// A header: bold.
    pub fn header(self, text: &str) -> String {
        self.wrap("1", text)
    }
}

/// ` (HEAD, first-draft)` or nothing: what names the entry, escaped and
/// painted.
pub fn decorate(names: &Names, ix: Ix, paint: Paint) -> String {
    decorations(
        names.head == Some(ix),
        names.branches(ix),
        names.labels(ix),
        paint,
    )
}

/// ` (HEAD, lib, first-draft)` or nothing: HEAD, then branches, then labels,
/// escaped and painted.
pub fn decorations(head: bool, branches: &[String], labels: &[String], paint: Paint) -> String {
    let mut parts = Vec::new();
    if head {
        parts.push(paint.head("HEAD"));
    }
    parts.extend(branches.iter().map(|b| paint.branch(&escape(b))));
    parts.extend(labels.iter().map(|l| paint.label(&shown_label(l))));
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// A label as decorations show it: escaped, and `""` for the empty label.
pub fn shown_label(label: &str) -> std::borrow::Cow<'_, str> {
    if label.is_empty() {
        std::borrow::Cow::Borrowed("\"\"")
    } else {
        match label_word(label) {
            std::borrow::Cow::Borrowed(l) => escape(l),
            std::borrow::Cow::Owned(l) => std::borrow::Cow::Owned(escape(&l).into_owned()),
        }
    }
}

/// `user`, `assistant claude-sonnet-5`, `toolResult bash`, `custom status_update`.
pub fn role(tree: &Tree, ix: Ix) -> String {
    role_text(tree.node(ix).kind, tree.tag(ix))
}

/// A role with its tag (model, tool or kind), escaped.
pub fn role_text(kind: MessageKind, tag: &str) -> String {
    let name = kind.role_name();
    if tag.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", escape(tag))
    }
}

/// A session's id as `ls` shows it and `-s` takes it: its first 8
/// characters.
pub fn short_session(id: &str) -> &str {
    prefix(id, 8)
}

/// The first `n` characters of `id` (all of it when shorter).
fn prefix(id: &str, n: usize) -> &str {
    id.char_indices().nth(n).map_or(id, |(at, _)| &id[..at])
}

/// Each id of a listing as short as it can be, from 8 characters, and
/// still name only itself among the others, as git abbreviates: ids that
/// share their first 8 characters (Codex's are time-ordered UUIDs, alike
/// for the sessions of one minute) are shown long enough to tell apart.
pub fn short_sessions<'a>(ids: &[&'a str]) -> Vec<&'a str> {
    let mut order: Vec<usize> = (0..ids.len()).collect();
    order.sort_by_key(|&i| ids[i]);
    let common = |a: &str, b: &str| a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let mut out = vec![""; ids.len()];
    for (k, &i) in order.iter().enumerate() {
        let id = ids[i];
        // The nearest other ids on either side in sorted order (a listing
        // may hold one id twice: a session and its copy).
        let before = order[..k].iter().rev().map(|&j| ids[j]).find(|o| *o != id);
        let after = order[k + 1..].iter().map(|&j| ids[j]).find(|o| *o != id);
        let shared = [before, after]
            .into_iter()
            .flatten()
            .map(|other| common(id, other))
            .max()
            .unwrap_or(0);
        out[i] = prefix(id, (shared + 1).max(8));
    }
    out
}

/// A millisecond timestamp in the given zone: `2026-10-09 14:03:27 +02:00`,
/// or with `short`, `2026-10-09 14:03`.
pub fn time(ms: u64, tz: &TimeZone, short: bool) -> String {
    use std::fmt::Write as _;
    let Ok(ts) = Timestamp::from_millisecond(i64::try_from(ms).unwrap_or(i64::MAX)) else {
        return format!("@{ms}");
    };
    // Written field by field rather than through strftime: a listing
    // prints one per row, and this is several times faster.
    let offset = tz.to_offset(ts);
    let dt = offset.to_datetime(ts);
    let mut out = String::with_capacity(26);
    let _ = write!(
        out,
        "{:04}-{:02}-{:02} {:02}:{:02}",
        dt.year(),
        dt.month(),
        dt.day(),
        dt.hour(),
        dt.minute()
    );
    if !short {
        let secs = offset.seconds();
        let sign = if secs < 0 { '-' } else { '+' };
        let abs = secs.unsigned_abs();
        let _ = write!(
            out,
            ":{:02} {sign}{:02}:{:02}",
            dt.second(),
            abs / 3600,
            abs / 60 % 60
        );
        if !abs.is_multiple_of(60) {
            let _ = write!(out, ":{:02}", abs % 60);
        }
    }
    out
}

/// The same instant in ISO 8601, for `--format {time}`.
pub fn iso_time(ms: u64, tz: &TimeZone) -> String {
    match Timestamp::from_millisecond(i64::try_from(ms).unwrap_or(i64::MAX)) {
        Ok(ts) => ts
            .to_zoned_datetime(tz.clone())
            .strftime("%Y-%m-%dT%H:%M:%S%.3f%:z")
            .to_string(),
        Err(_) => format!("@{ms}"),
    }
}

/// A line cut to `width` terminal columns, ending in `…` when cut, so that
/// it never wraps (a wrapped row breaks a graph's columns). Wide characters
/// take two columns; colour codes take none, and a cut line ends with a
/// reset so the colour stops with it. `None` (a pipe): the line as it is.
pub fn fit(line: &str, width: Option<usize>) -> std::borrow::Cow<'_, str> {
    use unicode_width::UnicodeWidthChar;
    let Some(width) = width else {
        return line.into();
    };
    // Walks the characters; a colour code (ESC `[` … letter) is skipped
    // whole, as it takes no room.
    let mut used = 0;
    let mut cut = None; // where the text must end to leave room for `…`
    let mut coloured = false;
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c == '\x1b' {
            coloured = true;
            if chars.next_if(|&(_, c)| c == '[').is_some() {
                while chars.next_if(|&(_, c)| !c.is_ascii_alphabetic()).is_some() {}
                chars.next();
            }
            continue;
        }
        let w = c.width().unwrap_or(0);
        if cut.is_none() && used + w > width.saturating_sub(1) {
            cut = Some(at);
        }
        used += w;
        if used > width {
            let mut short = line[..cut.unwrap_or(at)].to_string();
            short.push('…');
            if coloured {
                short.push_str("\x1b[0m");
            }
            return short.into();
        }
    }
    line.into()
}

/// `12,177`: a count with its thousands set apart.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `3 entries, 2 replies, 12,177 tokens, $0.0312`: an account on one line,
/// as `log --markers` and `show` print a subagent's.
pub fn account_line(account: &crate::stats::Account) -> String {
    let mut parts = vec![
        format!("{} entries", thousands(account.entries)),
        format!("{} replies", thousands(account.turns.assistant)),
        format!("{} tokens", thousands(account.usage.total_tokens)),
    ];
    if !account.unpriced.is_empty() {
        parts.push("cost unknown".to_string());
    } else if let Some(cost) = account.cost {
        parts.push(format!("${cost:.4}"));
    }
    parts.join(", ")
}

/// `a3f9c2e1: 4 entries, 2 replies, 1,853 tokens, $0.0042
/// (S/subagents/agent-a3f9c2e1.jsonl)`: a subagent, its account and its
/// file (from `folder`, the session's), escaped.
pub fn subagent_line(
    s: &crate::stats::subagents::Subagent,
    folder: Option<&std::path::Path>,
) -> String {
    let what = s.account.as_ref().map_or_else(
        || "its file cannot be read (ysess fsck on it says why)".to_string(),
        account_line,
    );
    let file = folder
        .and_then(|f| s.file.strip_prefix(f).ok())
        .unwrap_or(&s.file);
    format!(
        "{}: {what} ({})",
        escape(short_session(&s.id)),
        escape(&file.display().to_string())
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_reads_as_strftime_would_write_it() {
        use jiff::tz::{Offset, TimeZone};
        let zones = [
            TimeZone::UTC,
            TimeZone::fixed(Offset::from_seconds(2 * 3600).unwrap()),
            TimeZone::fixed(Offset::from_seconds(-(5 * 3600 + 30 * 60)).unwrap()),
            // Monrovia until 1972: an offset of whole seconds.
            TimeZone::fixed(Offset::from_seconds(-2670).unwrap()),
        ];
        for tz in &zones {
            for ms in [
                0,
                1,
                999,
                59_999,
                1_760_000_000_123,
                4_102_444_799_000,
                253_402_207_200_000,
            ] {
                let zoned = Timestamp::from_millisecond(ms as i64)
                    .unwrap()
                    .to_zoned_datetime(tz.clone());
                assert_eq!(
                    time(ms, tz, true),
                    zoned.strftime("%Y-%m-%d %H:%M").to_string()
                );
                assert_eq!(
                    time(ms, tz, false),
                    zoned.strftime("%Y-%m-%d %H:%M:%S %:z").to_string(),
                    "{ms} in {tz:?}"
                );
            }
        }
    }

    #[test]
    fn fit_cuts_to_terminal_columns_and_never_on_a_pipe() {
        let long = "○  e7 user: a subject far too long";
        assert_eq!(fit(long, None), long);
        assert_eq!(fit(long, Some(100)), long);
        assert_eq!(fit(long, Some(34)), long);
        assert_eq!(fit(long, Some(33)), "○  e7 user: a subject far too lo…");
        assert_eq!(fit("abc", Some(0)), "…");
        // A wide character is not split: 計 takes two columns.
        assert_eq!(fit("ab計画cd", Some(4)), "ab…");
        assert_eq!(fit("ab計画cd", Some(5)), "ab計…");
        // Colour codes take no room; a cut line resets the colour.
        let painted = "\x1b[33me7\x1b[0m user: hello";
        assert_eq!(fit(painted, Some(15)), painted);
        assert_eq!(fit(painted, Some(8)), "\x1b[33me7\x1b[0m user…\x1b[0m");
    }

    #[test]
    fn times_read_in_the_given_zone() {
        let utc = TimeZone::UTC;
        assert_eq!(
            time(1_760_000_000_000, &utc, false),
            "2025-10-09 08:53:20 +00:00"
        );
        assert_eq!(time(1_760_000_000_000, &utc, true), "2025-10-09 08:53");
        assert_eq!(
            iso_time(1_760_000_000_123, &utc),
            "2025-10-09T08:53:20.123+00:00"
        );
        assert_eq!(time(u64::MAX, &utc, true), format!("@{}", u64::MAX));
    }

    #[test]
    fn session_ids_of_one_minute_were_shown_alike() {
        let ids = [
            "01a2496a-e715-7102-817c-2edaa89657b4",
            "01a2496a-ea28-7f61-9e96-26df64140183",
            "7f189dd0-bc49-42cb-802c-9dd0bc4902cb",
            "01a2496a-ea28-7f61-9e96-26df64140183",
        ];
        assert_eq!(
            short_sessions(&ids),
            ["01a2496a-e7", "01a2496a-ea", "7f189dd0", "01a2496a-ea"]
        );
        assert_eq!(short_sessions(&["ab", "abc"]), ["ab", "abc"]);
    }
}
