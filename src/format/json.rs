//! What the formats read as plain JSON share (pi's and Claude Code's lines;
//! yoagent's explanations): fields by name, content blocks, the subject
//! line, ISO times, and a syntax error said without serde's position.

use serde_json::{Map, Value};

use super::fault::{FaultKind, LineFault};
use super::{Checked, text_of};

/// A line's value, and where its text starts; the verdict when it is blank,
/// not UTF-8, or not JSON (boxed: the rare case stays off the common one's
/// stack).
pub fn parse_line(bytes: &[u8]) -> Result<(Value, usize), Box<Checked<'static>>> {
    let (text, indent) = text_of(bytes).map_err(|no| Box::new(Checked::from(no)))?;
    parse(text, indent).map(|value| (value, indent))
}

/// The value of a line's trimmed `text` (which starts at `indent`), or the
/// fault that says why it is not JSON.
pub fn parse(text: &str, indent: usize) -> Result<Value, Box<Checked<'static>>> {
    match serde_json::from_str(text) {
        Ok(value) => Ok(value),
        Err(e) => {
            let kind = if e.is_eof() {
                FaultKind::Eof
            } else {
                FaultKind::Syntax
            };
            let fault = LineFault {
                kind,
                at: Some(e.column().saturating_sub(1)),
                message: bare(&e),
                id: None,
            };
            Err(Box::new(Checked::Fault { fault, indent }))
        }
    }
}

/// The serde_json error text without its "at line 1 column 7" suffix (ysess
/// reports the position itself).
pub fn bare(err: &serde_json::Error) -> String {
    let text = err.to_string();
    match text.rfind(" at line ") {
        Some(cut) => text[..cut].to_string(),
        None => text,
    }
}

/// The keys of a line that is a JSON object, read into `K` (what a
/// format's detection looks at); `None` for any other line. Only an object
/// is asked: serde also reads a struct from a list, and a yoagent entry
/// written as the list of its fields is no line of any app's.
///
/// `needs`: keys (quoted, `"payload"`) of which the object must hold one
/// for `K` to say yes. A line whose bytes hold none of them is no such
/// line, and is not parsed: detection looks at the first lines of every
/// file, which in a long session are tens of kilobytes each. A line with a
/// `\u` escape is looked at closer, as a key could be spelled with one: its
/// top-level keys are read by the scanner, and it is parsed when one is
/// needed or spelled with an escape.
pub fn object_keys<'a, K: serde::Deserialize<'a>>(line: &'a [u8], needs: &[&[u8]]) -> Option<K> {
    let holds = |bytes: &[u8]| memchr::memmem::find(line, bytes).is_some();
    let may = needs.is_empty()
        || needs.iter().any(|key| holds(key))
        || holds(b"\\u") && key_may_be_one_of(line, needs);
    if !may {
        return None;
    }
    let (text, _) = text_of(line).ok()?;
    if !text.starts_with('{') {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// Whether a top-level key of the object `line` is one of `needs` (quoted),
/// or the scanner cannot tell (a key with an escape, an odd line).
fn key_may_be_one_of(line: &[u8], needs: &[&[u8]]) -> bool {
    let Ok((text, _)) = text_of(line) else {
        return true;
    };
    let mut found = false;
    let read = crate::format::scan::Scanner::new(text, false).whole(|s| {
        s.object(|s, key| {
            found |= needs
                .iter()
                .any(|n| n.len() >= 2 && &n[1..n.len() - 1] == key);
            s.skip_value(2)
        })
    });
    read.is_none() || found
}

/// A time field, in ms since the epoch; 0 when it is missing or not an ISO
/// time.
pub fn millis(value: Option<&Value>) -> u64 {
    value
        .and_then(Value::as_str)
        .and_then(iso_millis)
        .unwrap_or(0)
}

/// The verdict on a line that is JSON but not of the format's shape.
pub fn shape_fault(message: &str, indent: usize) -> Checked<'static> {
    Checked::Fault {
        fault: LineFault {
            kind: FaultKind::Shape,
            at: None,
            message: message.to_string(),
            id: None,
        },
        indent,
    }
}

/// A string field.
pub fn string<'a>(map: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    map.get(key).and_then(Value::as_str)
}

/// The content blocks of a message (a plain string has none).
pub fn blocks(message: &Map<String, Value>) -> impl Iterator<Item = &Map<String, Value>> {
    message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
}

/// Longest subject kept, in characters: enough for any terminal line.
pub const SUBJECT_CHARS: usize = 200;

/// A subject line: the first non-blank line of `text`, trimmed, at most
/// [`SUBJECT_CHARS`] characters.
pub fn subject_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
        .chars()
        .take(SUBJECT_CHARS)
        .collect()
}

/// An ISO 8601 time in milliseconds since the epoch. The shape JavaScript's
/// `toISOString()` writes, `YYYY-MM-DDTHH:MM:SS.mmmZ`, is read by hand (it
/// is on every line pi writes); any other goes through jiff.
pub fn iso_millis(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let digits = |from: usize, to: usize| -> Option<u64> {
        b[from..to].iter().try_fold(0u64, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + u64::from(c - b'0'))
        })
    };
    let plain = b.len() == 24
        && [
            (4, b'-'),
            (7, b'-'),
            (10, b'T'),
            (13, b':'),
            (16, b':'),
            (19, b'.'),
            (23, b'Z'),
        ]
        .iter()
        .all(|&(at, c)| b[at] == c);
    if plain {
        let (y, m, d) = (digits(0, 4)?, digits(5, 7)?, digits(8, 10)?);
        let (h, min, sec, ms) = (
            digits(11, 13)?,
            digits(14, 16)?,
            digits(17, 19)?,
            digits(20, 23)?,
        );
        if (1970..=9999).contains(&y)
            && (1..=12).contains(&m)
            && (1..=31).contains(&d)
            && h < 24
            && min < 60
            && sec < 60
        {
            // Days since 1970-01-01 of a civil date (Howard Hinnant's
            // algorithm), in March-based years.
            let (y, m) = if m <= 2 { (y - 1, m + 9) } else { (y, m - 3) };
            let era = y / 400;
            let yoe = y - era * 400;
            let doy = (153 * m + 2) / 5 + d - 1;
            let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
            let days = (era * 146_097 + doe).checked_sub(719_468)?;
            let in_month = match m {
                // March-based: months 0..=11 are March..February.
                // (February counts in the March-based year before its own.)
                11 => {
                    let year = y + 1;
                    let leap = year.is_multiple_of(4)
                        && (!year.is_multiple_of(100) || year.is_multiple_of(400));
                    28 + u64::from(leap)
                }
                1 | 3 | 6 | 8 => 30,
                _ => 31,
            };
            if d <= in_month {
                return Some(((days * 24 + h) * 60 + min) * 60_000 + sec * 1000 + ms);
            }
        }
    }
    text.parse::<jiff::Timestamp>()
        .ok()
        .and_then(|t| u64::try_from(t.as_millisecond()).ok())
}

/// A line read whole as a JSON object, for a format's entry reader: what
/// is wrong with it otherwise, in a person's words.
pub fn object_line(line: &[u8]) -> Result<Map<String, Value>, NotAnEntry> {
    let text = std::str::from_utf8(line).map_err(|e| NotAnEntry(format!("not UTF-8: {e}")))?;
    match serde_json::from_str(text.trim()) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(NotAnEntry("not an object".to_string())),
        Err(e) => Err(NotAnEntry(format!("not JSON: {e}"))),
    }
}

/// Why a line could not be read as an entry (the file needs `ysess fsck`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAnEntry(pub String);

impl std::fmt::Display for NotAnEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::object_keys;

    #[derive(serde::Deserialize)]
    struct Keys {
        #[allow(dead_code)]
        payload: serde_json::Value,
    }

    fn has_payload(line: &str) -> bool {
        object_keys::<Keys>(line.as_bytes(), &[b"\"payload\""]).is_some()
    }

    #[test]
    fn a_needed_key_is_found_however_the_line_spells_it() {
        // Plain, and beside an escape elsewhere.
        assert!(has_payload(r#"{"type":"x","payload":{}}"#));
        assert!(has_payload(r#"{"text":"\u001b[31m","payload":1}"#));
        // Spelled with an escape, as serde reads it.
        assert!(has_payload(r#"{"type":"x","\u0070ayload":{}}"#));
        assert!(has_payload(r#"{"text":"\u001b","\u0070ayload":[]}"#));
        // Missing, with and without an escape about; only inside a value.
        assert!(!has_payload(r#"{"type":"x","body":{}}"#));
        assert!(!has_payload(r#"{"text":"\u001b","body":{"payload":1}}"#));
        assert!(!has_payload(r#"{"text":"payload \u00e9"}"#));
    }
}
