//! The subject line: the first line of an entry's text, made while the
//! line is scanned, unescaping only what it shows.

use std::borrow::Cow;

use super::{HI, LO};
pub(super) use crate::format::json::SUBJECT_CHARS;

/// Raw pieces of the first text, thinking, tool call and image of a message.
#[derive(Default)]
pub(super) struct Parts<'a> {
    pub(super) text: Option<(&'a [u8], bool)>,
    pub(super) thinking: Option<(&'a [u8], bool)>,
    pub(super) call: Option<(Cow<'a, str>, &'a [u8])>,
    pub(super) image: Option<(&'a [u8], usize)>,
}

/// The first non-blank line of a JSON string body, unescaped when
/// `escaped`, trimmed, at most [`SUBJECT_CHARS`] characters. Decodes only as
/// far as it needs; the body was already checked.
pub(super) fn first_line(raw: &[u8], escaped: bool) -> String {
    if !escaped {
        // Without escapes a JSON string holds no line break: it is one line.
        let text = std::str::from_utf8(raw).unwrap_or_default().trim();
        let end = text
            .char_indices()
            .nth(SUBJECT_CHARS)
            .map_or(text.len(), |(i, _)| i);
        return text[..end].trim_end().to_string();
    }
    // One allocation, never grown: SUBJECT_CHARS characters of up to 4 bytes.
    let mut out = String::with_capacity(4 * SUBJECT_CHARS);
    let mut chars = 0;
    let mut i = 0;
    while i < raw.len() && chars < SUBJECT_CHARS {
        let (c, next) = match raw[i] {
            b'\\' => unescape(raw, i + 1),
            ascii @ 0..=0x7f => (char::from(ascii), i + 1),
            lead => {
                let width = if lead < 0xe0 {
                    2
                } else if lead < 0xf0 {
                    3
                } else {
                    4
                };
                let end = (i + width).min(raw.len());
                let c = std::str::from_utf8(&raw[i..end])
                    .ok()
                    .and_then(|t| t.chars().next());
                (c.unwrap_or('\u{fffd}'), end)
            }
        };
        i = next;
        if c == '\n' {
            if !out.trim().is_empty() {
                break;
            }
            out.clear();
            chars = 0;
            continue;
        }
        out.push(c);
        chars += 1;
    }
    let trimmed = out.trim();
    if trimmed.len() == out.len() {
        out
    } else {
        trimmed.to_string()
    }
}

/// The character of the escape whose letter is at `raw[at]`, and where the
/// text continues.
fn unescape(raw: &[u8], at: usize) -> (char, usize) {
    let hex = |from: usize| {
        raw.get(from..from + 4)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u32::from_str_radix(h, 16).ok())
    };
    match raw.get(at) {
        Some(b'n') => ('\n', at + 1),
        Some(b't') => ('\t', at + 1),
        Some(b'r') => ('\r', at + 1),
        Some(b'b') => ('\u{8}', at + 1),
        Some(b'f') => ('\u{c}', at + 1),
        Some(b'u') => match hex(at + 1) {
            Some(high @ 0xD800..=0xDBFF) if raw.get(at + 5..at + 7) == Some(b"\\u") => {
                let low = hex(at + 7).unwrap_or(0);
                let c = char::from_u32(
                    0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3ff),
                );
                (c.unwrap_or('\u{fffd}'), at + 11)
            }
            Some(unit) => (char::from_u32(unit).unwrap_or('\u{fffd}'), at + 5),
            None => ('\u{fffd}', raw.len()),
        },
        Some(&other) => (char::from(other), at + 1),
        None => ('\u{fffd}', raw.len()),
    }
}

impl Parts<'_> {
    /// The first line of the text; else the first tool call; else the
    /// thinking; else the image.
    pub(super) fn subject(&self) -> Option<String> {
        if let Some((raw, escaped)) = self.text {
            let line = first_line(raw, escaped);
            if !line.is_empty() {
                return Some(line);
            }
        }
        if let Some((name, args)) = &self.call {
            let args = String::from_utf8_lossy(args);
            return Some(
                format!("{name} {}", first_line(args.as_bytes(), false))
                    .chars()
                    .take(SUBJECT_CHARS)
                    .collect(),
            );
        }
        if let Some((raw, escaped)) = self.thinking {
            let line = first_line(raw, escaped);
            if !line.is_empty() {
                return Some(line);
            }
        }
        self.image.map(|(mime, data)| {
            let mime = String::from_utf8_lossy(mime);
            format!(
                "[{mime}, {}]",
                crate::format::message::human_size(data * 3 / 4)
            )
        })
    }
}

/// True when any byte of `bytes` is below 0x20.
pub(super) fn has_control(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    let mut acc = 0u64;
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        acc |= w.wrapping_sub(LO * 0x20) & !w;
    }
    acc & HI != 0 || chunks.remainder().iter().any(|&b| b < 0x20)
}
