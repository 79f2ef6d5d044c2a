//! The subject line: the first line of an entry's text, made while the
//! line is scanned, unescaping only what it shows.

use std::borrow::Cow;

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;
pub(crate) use crate::format::json::SUBJECT_CHARS;

/// Raw pieces of the first text, thinking, tool call and image of a message.
#[derive(Default)]
pub(crate) struct Parts<'a> {
    pub(crate) text: Option<(&'a [u8], bool)>,
    pub(crate) thinking: Option<(&'a [u8], bool)>,
    pub(crate) call: Option<(Cow<'a, str>, &'a [u8])>,
    pub(crate) image: Option<(&'a [u8], usize)>,
}

/// The first non-blank line of a JSON string body, unescaped when
/// `escaped`, trimmed, at most [`SUBJECT_CHARS`] characters. Decodes only as
/// far as it needs; the body was already checked.
pub(crate) fn first_line(raw: &[u8], escaped: bool) -> String {
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
    pub(crate) fn subject(&self) -> Option<String> {
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

/// A tool call's subject as the slow path makes it: its name and its
/// arguments as serde prints them. `None` when they do not parse.
pub(crate) fn call_subject(name: &str, arguments: &[u8]) -> Option<String> {
    let printed = serde_printed(std::str::from_utf8(arguments).ok()?)?;
    Some(crate::format::json::subject_line(&format!(
        "{name} {printed}"
    )))
}

/// One JSON value as serde prints it: the bytes as they are when
/// `prints_as_is`, else parsed and printed. `None` when it is not JSON.
pub fn serde_printed(raw: &str) -> Option<Cow<'_, str>> {
    if prints_as_is(raw.as_bytes()) {
        return Some(Cow::Borrowed(raw));
    }
    let value: serde_json::Value = serde_json::from_str(raw).ok()?;
    Some(Cow::Owned(value.to_string()))
}

/// Whether `raw`, one JSON value that was already checked, is exactly what
/// `serde_json` prints for the `Value` it parses to: compact, no escapes but
/// the short ones serde writes, integers only, no key twice in an object.
/// A tool call's subject and `grep` then take the bytes as they are instead
/// of a parse and a print (pi and Claude Code store arguments as
/// `JSON.stringify` writes them, and yoagent as serde does: that shape
/// nearly always).
pub(crate) fn prints_as_is(raw: &[u8]) -> bool {
    let mut at = 0;
    compact_value(raw, &mut at, 0) && at == raw.len()
}

/// Whether the value at `at` is spelled as serde prints it; moves `at`
/// past it. Deeper than serde's own limit, or an object of more keys than
/// are compared, is left to serde.
fn compact_value(b: &[u8], at: &mut usize, depth: usize) -> bool {
    const KEYS: usize = 32;
    if depth > 128 {
        return false;
    }
    match b.get(*at) {
        Some(b'"') => compact_string(b, at),
        Some(b'{') => {
            *at += 1;
            if b.get(*at) == Some(&b'}') {
                *at += 1;
                return true;
            }
            let mut keys: [&[u8]; KEYS] = [&[]; KEYS];
            let mut n = 0;
            loop {
                let start = *at + 1;
                if n == KEYS || !compact_string(b, at) {
                    return false;
                }
                // Escapes are spelled one way here: equal keys look equal.
                let key = &b[start..*at - 1];
                if keys[..n].contains(&key) || b.get(*at) != Some(&b':') {
                    return false;
                }
                keys[n] = key;
                n += 1;
                *at += 1;
                if !compact_value(b, at, depth + 1) {
                    return false;
                }
                match b.get(*at) {
                    Some(b',') => *at += 1,
                    Some(b'}') => {
                        *at += 1;
                        return true;
                    }
                    _ => return false,
                }
            }
        }
        Some(b'[') => {
            *at += 1;
            if b.get(*at) == Some(&b']') {
                *at += 1;
                return true;
            }
            loop {
                if !compact_value(b, at, depth + 1) {
                    return false;
                }
                match b.get(*at) {
                    Some(b',') => *at += 1,
                    Some(b']') => {
                        *at += 1;
                        return true;
                    }
                    _ => return false,
                }
            }
        }
        Some(b't') if b[*at..].starts_with(b"true") => {
            *at += 4;
            true
        }
        Some(b'n') if b[*at..].starts_with(b"null") => {
            *at += 4;
            true
        }
        Some(b'f') if b[*at..].starts_with(b"false") => {
            *at += 5;
            true
        }
        Some(&first @ (b'-' | b'0'..=b'9')) => {
            let sign = usize::from(first == b'-');
            let digits = b[*at + sign..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            let lead = b.get(*at + sign).copied();
            *at += sign + digits;
            // No leading zero, no minus zero, within 64 bits; fractions and
            // exponents print as serde prints floats.
            digits > 0
                && digits <= 18
                && !(lead == Some(b'0') && (digits > 1 || sign == 1))
                && !matches!(b.get(*at), Some(b'.' | b'e' | b'E'))
        }
        _ => false,
    }
}

/// Whether the string at `at` holds only escapes serde writes (`\"`,
/// `\\`, `\n`, `\r`, `\t`, `\b`, `\f`) and no control character;
/// moves `at` past its closing quote.
fn compact_string(b: &[u8], at: &mut usize) -> bool {
    if b.get(*at) != Some(&b'"') {
        return false;
    }
    let mut i = *at + 1;
    loop {
        let rest = &b[i.min(b.len())..];
        let Some(j) = memchr::memchr2(b'"', b'\\', rest) else {
            return false;
        };
        if has_control(&rest[..j]) {
            return false;
        }
        i += j;
        if b[i] == b'"' {
            *at = i + 1;
            return true;
        }
        match b.get(i + 1) {
            Some(b'"' | b'\\' | b'n' | b'r' | b't' | b'b' | b'f') => i += 2,
            _ => return false,
        }
    }
}

/// True when any byte of `bytes` is below 0x20.
pub(crate) fn has_control(bytes: &[u8]) -> bool {
    let mut chunks = bytes.chunks_exact(8);
    let mut acc = 0u64;
    for chunk in &mut chunks {
        let w = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        acc |= w.wrapping_sub(LO * 0x20) & !w;
    }
    acc & HI != 0 || chunks.remainder().iter().any(|&b| b < 0x20)
}

#[cfg(test)]
mod tests {
    use super::prints_as_is;

    /// serde's own print of `raw`, when it parses.
    fn serde_print(raw: &str) -> Option<String> {
        serde_json::from_str::<serde_json::Value>(raw)
            .ok()
            .map(|v| v.to_string())
    }

    #[test]
    fn arguments_taken_as_they_are_are_what_serde_prints() {
        let taken = [
            r#"{"command":"ls -la","n":3}"#,
            r#"{"path":"a\"b\\c\nd\te","list":[1,-2,true,false,null,{}],"o":{"a":[]}}"#,
            r#"{"text":"café 🚀 «x»","deep":{"a":{"b":{"c":[0,10,-7]}}}}"#,
            r#"{}"#,
            r#"[]"#,
            r#""just a string""#,
            r#"{"a":1,"b":{"a":2}}"#,
            r#"{"big":123456789012345678}"#,
        ];
        for raw in taken {
            assert!(prints_as_is(raw.as_bytes()), "{raw}");
            assert_eq!(serde_print(raw).as_deref(), Some(raw), "{raw}");
        }
    }

    #[test]
    fn arguments_serde_would_print_otherwise_are_not_taken() {
        let refused = [
            r#"{ "command": "ls" }"#,
            r#"{"n":2.5}"#,
            r#"{"n":1e3}"#,
            r#"{"n":-0}"#,
            r#"{"n":007}"#,
            r#"{"n":12345678901234567890123}"#,
            r#"{"s":"\u00e9"}"#,
            r#"{"s":"a\/b"}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"a":{"x":1,"x":1}}"#,
            "{\"s\":\"tab\tinside\"}",
            r#"{"a":1"#,
            r#"[1,2"#,
        ];
        for raw in refused {
            assert!(!prints_as_is(raw.as_bytes()), "{raw}");
        }
        // Most of them serde prints otherwise; the others (`2.5`) only
        // cost a parse.
        for raw in [
            r#"{ "command": "ls" }"#,
            r#"{"n":1e3}"#,
            r#"{"n":-0}"#,
            r#"{"s":"\u00e9"}"#,
            r#"{"s":"a\/b"}"#,
            r#"{"a":1,"a":2}"#,
        ] {
            assert_ne!(serde_print(raw).as_deref(), Some(raw), "{raw}");
        }
    }
}
