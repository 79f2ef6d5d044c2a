//! The fast path every format shares: a single-pass, allocation-light JSON
//! scanner for one session line. Each format reads its own entry shape with
//! it (`yoagent/scan.rs`, `pi/scan.rs`, `claude/scan.rs`, …), as methods on
//! `Scanner`.
//!
//! It accepts only what the format's own loader certainly accepts; for
//! yoagent, in the shape yoagent writes it: objects (not arrays standing in for structs), the role
//! or type tag as the first key, no duplicate known keys, no escapes in keys,
//! no exponents in numbers, no surrogate escapes that do not pair up. Anything
//! else makes it give up (`None`), and the caller falls back to the exact
//! serde-based check (yoagent's [`super::yoagent::exact`]). So the fast path decides nothing on
//! its own for odd input: it only makes the common case fast. Its soundness
//! (accept implies yoagent accepts) is what the differential tests pin down.

pub(crate) mod subject;
pub use subject::serde_printed;

use std::borrow::Cow;

use subject::{Parts, has_control};
#[cfg(test)]
use subject::{SUBJECT_CHARS, first_line};

/// serde_json refuses nesting deeper than 128; stay well clear of it and let
/// the exact path decide anything deeper.
const MAX_DEPTH: u32 = 96;

pub(crate) struct Scanner<'a> {
    /// The line, and the same as bytes.
    pub(crate) text: &'a str,
    pub(crate) b: &'a [u8],
    pub(crate) pos: usize,
    /// Whether to make the subject line (only commands that print it do).
    pub(crate) want_subject: bool,
    /// What the subject line is made of, captured as raw slices while
    /// scanning and decoded once at the end.
    pub(crate) parts: Parts<'a>,
    /// The line holds no control bytes, so inside strings only `"` and `\`
    /// need finding (which memchr does fast).
    pub(crate) clean: bool,
    /// The searchable blocks of the message, collected when asked for
    /// ([`scan_line_blocks`]).
    pub(crate) blocks: Option<Vec<SearchBlock<'a>>>,
    /// The entry's tally, when asked for ([`Scanner::tallying`]); given up
    /// (`None`) on anything its format's reader would take otherwise.
    pub(crate) tally: Option<crate::format::Tally>,
    /// The bytes beyond one that the escapes of the last string body took
    /// ([`Scanner::string_body`]): what its characters are fewer than its
    /// bytes count for them.
    escaped_bytes: usize,
}

impl<'a> Scanner<'a> {
    pub(crate) fn new(line: &'a str, want_subject: bool) -> Self {
        Scanner {
            text: line,
            b: line.as_bytes(),
            pos: 0,
            clean: !has_control(line.as_bytes()),
            parts: Parts::default(),
            want_subject,
            blocks: None,
            tally: None,
            escaped_bytes: 0,
        }
    }

    /// Takes the entry's [`crate::format::Tally`] as it scans, when `on`.
    pub(crate) fn tallying(&mut self, on: bool) {
        self.tally = on.then(crate::format::Tally::default);
    }

    /// Counts the characters of a text block, the string body the scanner
    /// read last, into the tally: each escape (checked as it was read) is
    /// one character.
    pub(crate) fn tally_text(&mut self, (body, escaped): (&[u8], bool)) {
        if let Some(t) = &mut self.tally {
            let taken = if escaped { self.escaped_bytes } else { 0 };
            match plain_chars(body).checked_sub(taken) {
                Some(n) => t.text += n as u64,
                None => self.tally = None,
            }
        }
    }

    /// The tally taken, for the entry's facts.
    pub(crate) fn take_tally(&mut self) -> Option<crate::format::Tally> {
        self.tally.take()
    }

    /// What `read` makes of the line, when it reads all of it (white space
    /// aside); `None` otherwise.
    pub(crate) fn whole<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        let made = read(self)?;
        self.ws();
        (self.pos == self.b.len()).then_some(made)
    }
}

/// One searchable block of a message as it stands in the line, unread:
/// what `ysess grep` searches, with no allocation for the common case.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchBlock<'a> {
    /// Its content block's index in the message.
    pub index: usize,
    /// What the block holds.
    pub piece: Piece<'a>,
}

/// What a [`SearchBlock`] holds.
#[derive(Debug, Clone, PartialEq)]
pub enum Piece<'a> {
    /// A text block's string, quotes included; `escaped` when its body holds
    /// an escape (else the body is the text itself).
    Text {
        /// The string as the line spells it, quotes included.
        quoted: &'a str,
        /// It holds an escape.
        escaped: bool,
    },
    /// A thinking block's string (not redacted), as [`Piece::Text`].
    Thinking {
        /// The string as the line spells it, quotes included.
        quoted: &'a str,
        /// It holds an escape.
        escaped: bool,
    },
    /// A tool call: its name, and its arguments as the line spells them.
    ToolCall {
        /// The tool.
        name: Cow<'a, str>,
        /// Its arguments as the line spells them.
        arguments: &'a str,
    },
}

/// Tracks which known fields of an object were seen; a duplicate makes the
/// fast path give up (serde reports duplicate fields, and which variant wins
/// in an untagged enum then depends on details best left to serde).
#[derive(Default)]
pub(crate) struct Seen(u32);

impl Seen {
    pub(crate) fn first(&mut self, bit: u32) -> Option<()> {
        let mask = 1 << bit;
        if self.0 & mask != 0 {
            return None;
        }
        self.0 |= mask;
        Some(())
    }
    pub(crate) fn has(&self, bit: u32) -> bool {
        self.0 & (1 << bit) != 0
    }
}

/// The characters of a string body without escapes: every byte but a
/// UTF-8 continuation byte starts one.
fn plain_chars(body: &[u8]) -> usize {
    // A continuation byte is 0b10xx_xxxx, below -64 as a signed byte; the
    // starts are summed in bytes, 255 at most at a time, which the
    // compiler turns into vector adds.
    body.chunks(255)
        .map(|chunk| {
            let starts = chunk
                .iter()
                .fold(0u8, |n, &b| n.wrapping_add(u8::from(b as i8 >= -64)));
            usize::from(starts)
        })
        .sum()
}

/// The characters of the string a JSON string body (between its quotes)
/// spells, counted without making it: each escape is one character (a
/// surrogate pair, two escapes, is one); `None` for a body that is not a
/// string's, or that holds a lone surrogate (which decoding refuses too).
/// The Parquet tables' text lengths are its one use.
#[cfg(feature = "parquet")]
pub(crate) fn text_chars(body: &[u8]) -> Option<usize> {
    let hex = |at: usize| -> Option<u32> {
        let digits = std::str::from_utf8(body.get(at..at + 4)?).ok()?;
        u32::from_str_radix(digits, 16).ok()
    };
    // Every byte but a continuation byte starts a character; each escape
    // then takes back all but one of its (ASCII) bytes.
    let mut n = plain_chars(body);
    let mut at = 0;
    while let Some(found) = memchr::memchr2(b'\\', b'"', &body[at..]) {
        at += found;
        if body[at] == b'"' {
            return None;
        }
        let len = match body.get(at + 1)? {
            b'u' => {
                let unit = hex(at + 2)?;
                if (0xD800..0xDC00).contains(&unit) {
                    // A high surrogate: a low one must follow.
                    if body.get(at + 6..at + 8)? != b"\\u"
                        || !(0xDC00..0xE000).contains(&hex(at + 8)?)
                    {
                        return None;
                    }
                    12
                } else if (0xDC00..0xE000).contains(&unit) {
                    return None;
                } else {
                    6
                }
            }
            _ => 2,
        };
        n = n.checked_sub(len - 1)?;
        at += len;
    }
    Some(n)
}

/// A bit for each byte of `chunk` that is `"` or `\`, or (unless the line
/// is `clean` of them) a control byte: 16 bytes compared at once (SSE2 on
/// x86-64, NEON on ARM, by `wide`).
#[inline]
fn specials32(chunk: &[u8; 32], clean: bool) -> u32 {
    use wide::u8x16;
    let half = |h: &[u8]| -> u32 {
        let v = u8x16::new(h.try_into().unwrap_or_default());
        let mut hit = v.simd_eq(u8x16::splat(b'"')) | v.simd_eq(u8x16::splat(b'\\'));
        if !clean {
            // A byte of at most 0x1f: its maximum with 0x1f is 0x1f.
            let low = u8x16::splat(0x1f);
            hit |= v.max(low).simd_eq(low);
        }
        hit.to_bitmask()
    };
    half(&chunk[..16]) | half(&chunk[16..]) << 16
}

impl<'a> Scanner<'a> {
    #[inline]
    pub(crate) fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    #[inline]
    pub(crate) fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    #[inline]
    pub(crate) fn eat(&mut self, byte: u8) -> Option<()> {
        self.ws();
        if self.peek() == Some(byte) {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    pub(crate) fn literal(&mut self, word: &[u8]) -> Option<()> {
        if self.b[self.pos..].starts_with(word) {
            self.pos += word.len();
            Some(())
        } else {
            None
        }
    }

    /// Offset from `pos` of the next `"`, `\` or control byte, found 32
    /// bytes at a time ([`specials32`]); the last few bytes one by one.
    #[inline]
    pub(crate) fn next_special(&self) -> Option<usize> {
        let rest = &self.b[self.pos..];
        let mut i = 0;
        while let Some(chunk) = rest.get(i..i + 32) {
            let mask = specials32(chunk.try_into().ok()?, self.clean);
            if mask != 0 {
                return Some(i + mask.trailing_zeros() as usize);
            }
            i += 32;
        }
        rest[i..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
            .map(|j| i + j)
    }

    /// Moves past the body of a string whose opening quote was consumed,
    /// returning the raw body and whether it held escapes.
    pub(crate) fn string_body(&mut self) -> Option<(&'a [u8], bool)> {
        let start = self.pos;
        let mut escaped = false;
        self.escaped_bytes = 0;
        loop {
            self.pos += self.next_special()?;
            match self.b[self.pos] {
                b'"' => {
                    let body = &self.b[start..self.pos];
                    self.pos += 1;
                    return Some((body, escaped));
                }
                b'\\' => {
                    escaped = true;
                    let at = self.pos;
                    self.pos += 1;
                    self.escape()?;
                    self.escaped_bytes += self.pos - at - 1;
                }
                _ => return None,
            }
        }
    }

    /// Checks one escape after its backslash. Surrogates must come as a
    /// proper pair; anything else is left to the exact path.
    pub(crate) fn escape(&mut self) -> Option<()> {
        match self.peek()? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {
                self.pos += 1;
                Some(())
            }
            b'u' => {
                self.pos += 1;
                let unit = self.hex4()?;
                match unit {
                    0xD800..=0xDBFF => {
                        self.literal(b"\\u")?;
                        let low = self.hex4()?;
                        (0xDC00..=0xDFFF).contains(&low).then_some(())
                    }
                    0xDC00..=0xDFFF => None,
                    _ => Some(()),
                }
            }
            _ => None,
        }
    }

    pub(crate) fn hex4(&mut self) -> Option<u16> {
        let digits = self.b.get(self.pos..self.pos + 4)?;
        let text = std::str::from_utf8(digits).ok()?;
        if !text.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += 4;
        u16::from_str_radix(text, 16).ok()
    }

    /// A string value, decoded (borrowed when it holds no escapes).
    pub(crate) fn string(&mut self) -> Option<Cow<'a, str>> {
        self.eat(b'"')?;
        let (body, escaped) = self.string_body()?;
        if escaped {
            let quoted = &self.b[self.pos - body.len() - 2..self.pos];
            serde_json::from_slice::<String>(quoted)
                .ok()
                .map(Cow::Owned)
        } else {
            // The body sits between two ASCII quotes: char boundaries.
            let end = self.pos - 1;
            self.text.get(end - body.len()..end).map(Cow::Borrowed)
        }
    }

    /// The string value just read (by [`Scanner::raw_string`]), whose body
    /// is `len` bytes long, with its quotes.
    pub(crate) fn quoted(&self, len: usize) -> Option<&'a str> {
        self.text.get(self.pos - len - 2..self.pos)
    }

    /// A string value's raw body and whether it holds escapes.
    pub(crate) fn raw_string(&mut self) -> Option<(&'a [u8], bool)> {
        self.eat(b'"')?;
        self.string_body()
    }

    /// A string value whose text is not needed.
    pub(crate) fn skip_string(&mut self) -> Option<()> {
        self.eat(b'"')?;
        self.string_body().map(drop)
    }

    /// An object key: a string without escapes, then the colon.
    pub(crate) fn key(&mut self) -> Option<&'a [u8]> {
        self.eat(b'"')?;
        let (body, escaped) = self.string_body()?;
        if escaped {
            return None;
        }
        self.eat(b':')?;
        Some(body)
    }

    /// Walks an object's members: calls `member` with each key, positioned
    /// at its value. Handles the braces and commas.
    pub(crate) fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, &'a [u8]) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        self.ws();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Some(());
        }
        loop {
            let key = self.key()?;
            member(self, key)?;
            self.ws();
            match self.peek()? {
                b',' => self.pos += 1,
                b'}' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// Walks an array's elements, calling `element` positioned at each.
    pub(crate) fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.eat(b'[')?;
        self.ws();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Some(());
        }
        loop {
            element(self)?;
            self.ws();
            match self.peek()? {
                b',' => self.pos += 1,
                b']' => {
                    self.pos += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// A JSON integer that fits u64: no sign, fraction or exponent.
    pub(crate) fn u64(&mut self) -> Option<u64> {
        self.ws();
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let digits = &self.b[start..self.pos];
        if digits.is_empty() || (digits.len() > 1 && digits[0] == b'0') {
            return None;
        }
        if let Some(b'.' | b'e' | b'E') = self.peek() {
            return None;
        }
        digits.iter().try_fold(0u64, |n, &d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        })
    }

    /// A tag's value: a string, or a variant's index into `names`, which
    /// serde reads as that variant (`"role":1` is an assistant message).
    pub(crate) fn tag(&mut self, names: &[&'static str]) -> Option<Cow<'a, str>> {
        self.ws();
        if let b'0'..=b'9' = self.peek()? {
            let index = usize::try_from(self.u64()?).ok()?;
            return names.get(index).map(|name| Cow::Borrowed(*name));
        }
        self.string()
    }

    pub(crate) fn bool(&mut self) -> Option<bool> {
        self.ws();
        match self.peek()? {
            b't' => self.literal(b"true").map(|()| true),
            b'f' => self.literal(b"false").map(|()| false),
            _ => None,
        }
    }

    /// `null` (true) or not (false, nothing consumed).
    pub(crate) fn null(&mut self) -> bool {
        self.ws();
        self.literal(b"null").is_some()
    }

    pub(crate) fn opt_string(&mut self) -> Option<Option<Cow<'a, str>>> {
        if self.null() {
            Some(None)
        } else {
            self.string().map(Some)
        }
    }

    /// Any JSON number that serde_json parses into a finite value: exponents
    /// and very long literals are left to the exact path.
    pub(crate) fn number(&mut self) -> Option<()> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        let int_start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        let int = &self.b[int_start..self.pos];
        if int.is_empty() || (int.len() > 1 && int[0] == b'0') {
            return None;
        }
        if int == b"0" && start != int_start {
            // `-0` is a float to serde_json; fine, but rare: let serde judge.
            return None;
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let frac_start = self.pos;
            while let Some(b'0'..=b'9') = self.peek() {
                self.pos += 1;
            }
            if self.pos == frac_start {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            return None;
        }
        (self.pos - start <= 300).then_some(())
    }

    /// Any JSON value, checked but not kept.
    pub(crate) fn skip_value(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.ws();
        match self.peek()? {
            b'"' => self.skip_string(),
            b'{' => self.object(|s, _| s.skip_value(depth + 1)),
            b'[' => self.array(|s| s.skip_value(depth + 1)),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::MessageKind;
    use crate::format::yoagent::scan::scan_line;

    #[test]
    fn characters_are_counted_as_rust_counts_them() {
        for text in [
            "",
            "plain",
            "é漢🙂",
            "ab\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}xyz",
            "Ünïcödé compile input string module cache that session fork",
        ] {
            for cut in 0..text.len().min(24) {
                let Some(part) = text.get(cut..) else {
                    continue;
                };
                assert_eq!(
                    plain_chars(part.as_bytes()),
                    part.chars().count(),
                    "{part:?}"
                );
            }
        }
    }

    #[test]
    fn a_tallied_text_counts_each_escape_as_one_character() {
        for text in crate::testing::ODD_TEXTS {
            let escaped: String = text.encode_utf16().map(|u| format!("\\u{u:04x}")).collect();
            for literal in [
                serde_json::to_string(text).unwrap(),
                format!("\"{escaped}\""),
            ] {
                // Two strings on one line: the second's count is its own.
                let line = format!("{literal} {literal}");
                let mut s = Scanner::new(&line, false);
                s.tallying(true);
                for _ in 0..2 {
                    s.ws();
                    let body = s.raw_string().unwrap();
                    s.tally_text(body);
                }
                let tally = s.take_tally().unwrap();
                assert_eq!(tally.text as usize, 2 * text.chars().count(), "{literal}");
            }
        }
    }

    #[test]
    fn every_special_byte_is_found_and_nothing_else() {
        let specials = [b'"', b'\\', 0, 0x1f, b'\n'];
        for first in specials {
            for at in 0..32 {
                for later in specials.into_iter().chain([b'!', 0x20, 0x7f, 0x80, 0xff]) {
                    let mut bytes = *b"abcdefghijklmnopqrstuvwxyz012345";
                    bytes[at..].fill(later);
                    bytes[at] = first;
                    for clean in [false, true] {
                        let mask = specials32(&bytes, clean);
                        let expected: u32 = (0..32)
                            .filter(|&k| {
                                let b = bytes[k];
                                b == b'"' || b == b'\\' || (!clean && b < 0x20)
                            })
                            .fold(0, |m, k| m | 1 << k);
                        assert_eq!(mask, expected, "{first} at {at}, then {later}");
                    }
                }
            }
        }
        assert_eq!(
            specials32(b"plain ok, and h\xc3\xa9llo!! more.....", false),
            0
        );
    }

    #[test]
    fn first_line_unescapes_only_what_it_shows() {
        assert_eq!(
            first_line(br"\n  \t\n  draft a plan\nmore", true),
            "draft a plan"
        );
        assert_eq!(
            first_line(br#"say \"hi\" \ud83d\ude80 \u00e9\\"#, true),
            "say \"hi\" 🚀 é\\"
        );
        assert_eq!(first_line("naïve 日本語".as_bytes(), false), "naïve 日本語");
        assert_eq!(first_line(&[b'x'; 500], false).len(), SUBJECT_CHARS);
        assert_eq!(first_line(br"\u00", true), "\u{fffd}");
    }

    #[test]
    fn control_bytes_are_found_anywhere() {
        assert!(!has_control(b"a plain line of text, long enough"));
        for at in 0..20 {
            let mut line = b"a plain line of text".to_vec();
            line[at] = b'\t';
            assert!(has_control(&line), "at {at}");
        }
        assert!(scan_line("{\"id\":\"e\t1\",\"message\":{\"role\":\"user\",\"content\":[],\"timestamp\":1},\"timestamp\":1}", true).is_none());
    }

    #[test]
    fn tags_written_as_numbers_are_read_as_yoagent_reads_them() {
        for line in [
            r#"{"id":"e1","message":{"role":0,"content":[{"type":0,"text":"hi"}],"timestamp":1},"timestamp":1}"#,
            r#"{"id":"e2","message":{"role":1,"content":[{"type":2,"thinking":"hm"},{"type":3,"id":"c1","name":"ls","arguments":{}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":1},"timestamp":1}"#,
            r#"{"id":"e3","message":{"role":2,"toolCallId":"c1","toolName":"ls","content":[{"type":1,"data":"aGk=","mimeType":"image/png"}],"isError":false,"timestamp":1},"timestamp":1}"#,
        ] {
            let fast = scan_line(line, true).expect("fast path accepts");
            let exact = crate::format::yoagent::exact::check_exact(line).expect("serde accepts");
            assert_eq!(fast, exact, "{line}");
            assert_ne!(fast.subject.as_deref(), Some(""), "{line}");
        }
        // No such variant: left to the exact path, which refuses.
        for line in [
            r#"{"id":"e1","message":{"role":3,"content":[],"timestamp":1},"timestamp":1}"#,
            r#"{"id":"e1","message":{"role":0,"content":[{"type":4,"text":"x"}],"timestamp":1},"timestamp":1}"#,
            r#"{"id":"e1","message":{"role":0.0,"content":[],"timestamp":1},"timestamp":1}"#,
        ] {
            assert!(scan_line(line, true).is_none(), "{line}");
            assert!(
                crate::format::yoagent::exact::check_exact(line).is_err(),
                "{line}"
            );
        }
    }

    #[test]
    fn accepts_what_yoagent_writes() {
        let line = br#"{"id":"e2","parent_id":"e1","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"x\ny"},{"type":"toolCall","id":"call_1","name":"bash","arguments":{"command":"ls","n":[1,2.5,-3,true,null]}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":3},"timestamp":5},"timestamp":6,"label":"cp"}"#;
        let facts =
            scan_line(std::str::from_utf8(line).expect("utf-8"), true).expect("fast path accepts");
        assert_eq!(facts.id, "e2");
        assert_eq!(facts.parent.as_deref(), Some("e1"));
        assert_eq!(facts.label.as_deref(), Some("cp"));
        assert_eq!(facts.timestamp, 6);
        assert_eq!(facts.kind, MessageKind::Assistant);
        assert_eq!(facts.tool_calls, vec!["call_1"]);
    }

    #[test]
    fn gives_up_on_what_it_does_not_know() {
        for line in [
            &br#"{"id":"e1","message":{"content":[],"role":"user","timestamp":1},"timestamp":1}"#[..],
            br#"{"id":"e1","id":"e2","message":{"role":"user","content":[],"timestamp":1},"timestamp":1}"#,
            br#"{"id":"e1","message":{"role":"user","content":[],"timestamp":1e3},"timestamp":1}"#,
            br#"{"id":"\ud800","message":{"role":"user","content":[],"timestamp":1},"timestamp":1}"#,
            br#"["e1",null,{"role":"user","content":[],"timestamp":1},1]"#,
            br#"{"id":"e1","message":{"role":"user","content":[{"type":"video"}],"timestamp":1},"timestamp":1}"#,
        ] {
            let line = std::str::from_utf8(line).expect("utf-8");
            assert!(scan_line(line, true).is_none(), "{line}");
        }
    }
}
