//! A whole session file searched as ripgrep searches a file: the pattern's
//! raw form runs over large blocks of bytes (with its literal prefilters),
//! and only the lines it picks are decoded; each block is split between
//! two threads. Memory stays bounded by the block size, whatever the file.

use std::io::{self, Read};

use crate::format::message::{Entry, NotAnEntry};
use crate::format::{Checked, Format, MessageKind};
use crate::input::Blocks;

use super::Pattern;

/// Bytes read at a time.
const BLOCK: usize = 8 << 20;

/// An entry whose line may match, decoded.
#[derive(Debug)]
pub struct Decoded {
    /// Its id (a version-1 pi file's entries are numbered by line, as the
    /// tree numbers them).
    pub id: String,
    /// Its line in the file, from 1.
    pub line: u64,
    pub entry: Entry,
}

/// A line that may match and cannot be read as an entry: `ysess fsck`
/// explains it; the search goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub line: u64,
    pub why: String,
}

/// Searches every entry of `reader` (the user's entries: ysess's records,
/// a format's label changes and custom records are skipped). `judge` is
/// given each entry that may match (on any thread) and says what to keep;
/// `take` gets what was kept, and the lines that could not be read, in
/// file order. Returns the format read.
pub fn scan<R, T>(
    reader: R,
    format: Option<Format>,
    pattern: &Pattern,
    judge: impl Fn(Decoded) -> Option<T> + Sync,
    mut take: impl FnMut(Result<T, Skipped>) -> io::Result<()>,
) -> io::Result<Format>
where
    R: Read + Send,
    T: Send,
{
    let mut blocks = Blocks::new(reader, |_: &[u8]| {}, BLOCK);
    let mut read = Reading {
        format: format.unwrap_or_default(),
        version: None,
        pattern,
    };
    let mut first = true;
    // The number of the next block's first line.
    let mut line = 1u64;
    while let Some(block) = blocks.next_block()? {
        let bytes = block.bytes();
        if first {
            first = false;
            let first_line = bytes
                .split(|&b| b == b'\n')
                .find(|l| !l.iter().all(u8::is_ascii_whitespace));
            if let Some(first_line) = first_line {
                read.format = format.unwrap_or_else(|| Format::detect(first_line));
                if let Checked::Header { version } = read.format.check_line(first_line, false) {
                    read.version = Some(version);
                }
            }
        }
        // Two halves, split at a line's end, searched on two threads.
        let middle = match memchr::memchr(b'\n', &bytes[bytes.len() / 2..]) {
            Some(at) => bytes.len() / 2 + at + 1,
            None => bytes.len(),
        };
        let (front, back) = bytes.split_at(middle);
        let back_line = line + memchr::memchr_iter(b'\n', front).count() as u64;
        let (found_front, found_back) = if back.is_empty() {
            (read.half(front, line, &judge), Vec::new())
        } else {
            std::thread::scope(|s| {
                let worker = s.spawn(|| read.half(back, back_line, &judge));
                let front = read.half(front, line, &judge);
                (front, worker.join().unwrap_or_default())
            })
        };
        line = back_line + memchr::memchr_iter(b'\n', back).count() as u64;
        for found in found_front.into_iter().chain(found_back) {
            take(found)?;
        }
    }
    Ok(read.format)
}

/// What every half needs to read its lines.
struct Reading<'p> {
    format: Format,
    /// The version a header declares (pi's).
    version: Option<u64>,
    pattern: &'p Pattern,
}

impl Reading<'_> {
    /// The lines of `bytes` (whose first line is number `line`) that may
    /// match, decoded and judged.
    fn half<T>(
        &self,
        bytes: &[u8],
        mut line: u64,
        judge: &(impl Fn(Decoded) -> Option<T> + Sync),
    ) -> Vec<Result<T, Skipped>> {
        let mut found = Vec::new();
        let mut counted = 0;
        let mut each = |start: usize, end: usize, found: &mut Vec<Result<T, Skipped>>| {
            line += memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u64;
            counted = start;
            match self.decode(&bytes[start..end], line) {
                Some(Ok(decoded)) => found.extend(judge(decoded).map(Ok)),
                Some(Err(skipped)) => found.push(Err(skipped)),
                None => {}
            }
        };
        match self.pattern.raw() {
            Some(raw) => {
                // The lines the pattern's raw form picks, and those holding
                // an escape it could miss, in order.
                let span = |at: usize| {
                    let start = memchr::memrchr(b'\n', &bytes[..at]).map_or(0, |i| i + 1);
                    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i);
                    (start, end)
                };
                let mut lines = Vec::new();
                let mut at = 0;
                while at < bytes.len() {
                    let Some(m) = raw.find_at(bytes, at) else {
                        break;
                    };
                    let (start, end) = span(m.start());
                    lines.push((start, end));
                    at = end + 1;
                }
                let mut last: Option<(usize, usize)> = None;
                for at in super::pattern::telling_escapes(bytes) {
                    if last.is_none_or(|(start, end)| !(start..=end).contains(&at)) {
                        let line = span(at);
                        lines.push(line);
                        last = Some(line);
                    }
                }
                lines.sort_unstable();
                lines.dedup();
                for (start, end) in lines {
                    each(start, end, &mut found);
                }
            }
            None => {
                let mut start = 0;
                while start < bytes.len() {
                    let end =
                        memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                    each(start, end, &mut found);
                    start = end + 1;
                }
            }
        }
        found
    }

    /// One line read as an entry: `None` for what is not searched (blank
    /// lines, headers, records, custom records).
    fn decode(&self, bytes: &[u8], line: u64) -> Option<Result<Decoded, Skipped>> {
        let skipped = |why: String| Some(Err(Skipped { line, why }));
        let (id, text) = match self.format.check_line(bytes, false) {
            Checked::Entry { facts, indent } => {
                if facts.kind == MessageKind::Custom || self.format.is_record(&facts) {
                    return None;
                }
                let id = if self.version == Some(1) {
                    format!("line{line}")
                } else {
                    facts.id.into_owned()
                };
                let text = std::str::from_utf8(&bytes[indent..]).map_or("", str::trim);
                (id, text.as_bytes())
            }
            Checked::Fault { fault, .. } => return skipped(fault.message),
            Checked::NotUtf8 { at, .. } => return skipped(format!("not UTF-8 at byte {at}")),
            Checked::Blank | Checked::Header { .. } | Checked::Aside => return None,
        };
        let entry = match self.format {
            Format::Yoagent => Entry::parse(text),
            Format::Pi => crate::format::pi::entry(text),
            Format::Claude => crate::format::claude::entry(text),
        };
        match entry {
            Ok(entry) => Some(Ok(Decoded { id, line, entry })),
            Err(NotAnEntry(why)) => skipped(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{BlockHits, PatternOptions, Scope, search_message};

    type Found = (String, u64, Vec<BlockHits>);

    fn found(bytes: &[u8], pattern: &Pattern) -> (Vec<Found>, Vec<Skipped>) {
        let (mut hits, mut skipped) = (Vec::new(), Vec::new());
        let judge = |d: Decoded| {
            let h = search_message(pattern, &Scope::default(), &d.entry.message);
            (!h.is_empty()).then_some((d.id, d.line, h))
        };
        scan(bytes, None, pattern, judge, |f| {
            match f {
                Ok(f) => hits.push(f),
                Err(s) => skipped.push(s),
            }
            Ok(())
        })
        .expect("scans");
        (hits, skipped)
    }

    /// Text whose JSON holds every kind of escape, next to what is searched.
    const ESCAPED: &str = concat!(
        r#"{"id":"e1","parent_id":null,"timestamp":1,"message":{"role":"user","content":[{"type":"text","text":"a\nword caf\u00e9 and a\/b \"quoted\" tab\there\u001b[31m red"}],"timestamp":1}}"#,
        "\n",
        r#"{"id":"e2","parent_id":"e1","timestamp":2,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"line one\nword two"},{"type":"toolCall","id":"c1","name":"edit","arguments":{"path":"src\/x.rs","n":31}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":2}}"#,
        "\n",
        r#"{"id":"e3","parent_id":"e2","timestamp":3,"message":{"role":"toolResult","toolCallId":"c1","toolName":"edit","content":[{"type":"text","text":"done: \u0041BC é"}],"isError":false,"timestamp":3}}"#,
        "\n",
    );

    #[test]
    fn the_raw_fast_path_finds_what_decoding_every_line_finds() {
        let files: Vec<Vec<u8>> = [
            "tests/fixtures/demo.jsonl",
            "tests/fixtures/pi/demo.jsonl",
            "tests/fixtures/pi/v1.jsonl",
            "tests/fixtures/claude/session.jsonl",
        ]
        .iter()
        .map(|f| std::fs::read(f).expect("fixture reads"))
        .chain([ESCAPED.as_bytes().to_vec()])
        .collect();
        let cases: &[(&str, PatternOptions)] = &[
            ("word", PatternOptions::default()),
            (r"\bword", PatternOptions::default()),
            ("^word", PatternOptions::default()),
            ("café", PatternOptions::default()),
            (
                "CAFÉ",
                PatternOptions {
                    ignore_case: true,
                    ..PatternOptions::default()
                },
            ),
            ("a/b", PatternOptions::default()),
            ("src/x", PatternOptions::default()),
            ("ABC", PatternOptions::default()),
            ("31", PatternOptions::default()),
            ("fork", PatternOptions::default()),
            ("plan", PatternOptions::default()),
            (r"\w+ing\b", PatternOptions::default()),
            (
                "a",
                PatternOptions {
                    word: true,
                    ..PatternOptions::default()
                },
            ),
            ("日本", PatternOptions::default()),
            // These can match what JSON escapes: decoded everywhere anyway.
            (r#""quoted""#, PatternOptions::default()),
            (r"tab\there", PatternOptions::default()),
            (r"\x1b\[31m", PatternOptions::default()),
        ];
        for (text, options) in cases {
            let fast = Pattern::new(text, *options).expect("compiles");
            let slow = fast.clone().decoding_every_line();
            let mut total = 0;
            for bytes in &files {
                let (a, a_skipped) = found(bytes, &fast);
                let (b, b_skipped) = found(bytes, &slow);
                assert_eq!(a, b, "{text}");
                assert_eq!(a_skipped, b_skipped, "{text}");
                total += a.len();
            }
            assert!(total > 0, "{text} matches somewhere, so the test tests");
        }
        // The patterns that cannot match an escaped character do go the fast way.
        assert!(
            !Pattern::new("café", PatternOptions::default())
                .unwrap()
                .decodes_every_line()
        );
    }

    #[test]
    fn a_match_only_inside_a_unicode_escape_is_found() {
        let p = Pattern::new("café", PatternOptions::default()).expect("compiles");
        let (hits, _) = found(ESCAPED.as_bytes(), &p);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].0, "e1");
        let p = Pattern::new("ABC", PatternOptions::default()).expect("compiles");
        assert_eq!(found(ESCAPED.as_bytes(), &p).0[0].0, "e3");
        // Every line holds `\n` escapes; the text holds no backslash.
        let p = Pattern::new(r"\\n", PatternOptions::default()).expect("compiles");
        assert_eq!(found(ESCAPED.as_bytes(), &p).0, []);
    }
}
