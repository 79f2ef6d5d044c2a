//! A whole session file searched as ripgrep searches a file: the pattern's
//! raw form runs over large blocks of bytes (with its literal prefilters),
//! and only the lines it picks are decoded; each block is split between
//! two threads. Memory stays bounded by the block size, whatever the file.

use std::io::{self, Read};

use crate::format::message::{Entry, Message, NotAnEntry};
use crate::format::{Checked, Format, MessageKind};
use crate::input::Blocks;

use super::{BlockHits, Pattern, Scope, search_blocks, search_message};

/// Bytes read at a time.
const BLOCK: usize = 2 << 20;

/// An entry that matches, with its hits.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// Its id (a version-1 pi file's entries are numbered by line, as the
    /// tree numbers them).
    pub id: String,
    /// Its id as a person reads it ([`crate::tree::Tree::short_id`]), when
    /// the search went through the tree; else the id is shown whole.
    pub short: Option<String>,
    /// Its line in the file, from 1.
    pub line: u64,
    /// What kind of message it carries.
    pub kind: MessageKind,
    /// The tool a tool result comes from.
    pub result_of: Option<String>,
    /// The blocks that match.
    pub hits: Vec<BlockHits>,
}

impl Found {
    /// The hits of `pattern` in a decoded entry; `None` when it has none.
    pub fn in_entry(
        id: String,
        line: u64,
        entry: &Entry,
        pattern: &Pattern,
        scope: &Scope,
    ) -> Option<Found> {
        let hits = search_message(pattern, scope, &entry.message);
        if hits.is_empty() {
            return None;
        }
        let result_of = match &entry.message {
            // Claude Code's results name no tool: none rather than "".
            Message::ToolResult { tool_name, .. } if !tool_name.is_empty() => {
                Some(tool_name.clone())
            }
            _ => None,
        };
        Some(Found {
            id,
            short: None,
            line,
            kind: entry.message.kind(),
            result_of,
            hits,
        })
    }
}

/// A line that may match and cannot be read as an entry: `ysess fsck`
/// explains it; the search goes on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// Its line in the file, from 1.
    pub line: u64,
    /// Why it was skipped.
    pub why: String,
}

/// How the lines the raw form picks are read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Decode {
    /// A yoagent line's searchable blocks are read where they stand, by
    /// the scanner; anything it is not sure of is decoded whole.
    Blocks,
    /// Every picked line is decoded whole (what the scanner must agree with).
    #[cfg_attr(not(test), allow(dead_code, reason = "the tests' reference"))]
    Whole,
}

/// Searches every entry of `reader` (the user's entries: ysess's records,
/// a format's label changes and custom records are skipped) for the blocks
/// in `scope` that `pattern` matches. The file is searched in parts, each
/// on its own thread: `keep` gets each entry of a part that matches, in
/// file order, and keeps what it needs of it in the part's `T` (`ysess
/// grep` writes its output there, so that it is made on every thread);
/// `take` gets each part's `T` and the lines of it that could not be read,
/// in file order. Returns the format read.
pub fn scan<R, T>(
    reader: R,
    format: Option<Format>,
    pattern: &Pattern,
    scope: &Scope,
    keep: impl Fn(Found, &mut T) -> io::Result<()> + Sync,
    take: impl FnMut(T, Vec<Skipped>) -> io::Result<()>,
) -> io::Result<Format>
where
    R: Read + Send,
    T: Default + Send,
{
    scan_as(reader, format, pattern, scope, Decode::Blocks, keep, take)
}

fn scan_as<R, T>(
    reader: R,
    format: Option<Format>,
    pattern: &Pattern,
    scope: &Scope,
    decode: Decode,
    keep: impl Fn(Found, &mut T) -> io::Result<()> + Sync,
    mut take: impl FnMut(T, Vec<Skipped>) -> io::Result<()>,
) -> io::Result<Format>
where
    R: Read + Send,
    T: Default + Send,
{
    let mut blocks = Blocks::new(reader, |_: &[u8]| {}, BLOCK);
    let mut read = Reading {
        format: format.unwrap_or_default(),
        version: None,
        subagent: false,
        pattern,
        scope,
        decode,
    };
    // The number of the next block's first line.
    let mut line = 1u64;
    let Some(block) = blocks.next_block()? else {
        return Ok(read.format);
    };
    read.learn(block.bytes(), format)?;
    line = read.in_halves(block.bytes(), line, &keep, &mut take)?;
    drop(block);
    // The rest: blocks are read (and their lines counted) on one thread
    // while those read before are searched on the others, each whole, and
    // taken in order. Reading is a copy the kernel makes on one core; it
    // is no longer waited for between searches.
    let workers = crate::input::par::jobs();
    let mut failed: Option<io::Error> = None;
    // Once taking fails (or stops: `-l` has its answer), nothing more is read.
    let stop = std::sync::atomic::AtomicBool::new(false);
    let read = &read;
    crate::input::par::ordered_map(
        workers,
        || {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Ok(None);
            }
            Ok::<_, io::Error>(blocks.next_block()?.map(|block| {
                let first = line;
                line += memchr::memchr_iter(b'\n', block.bytes()).count() as u64;
                (block, first)
            }))
        },
        |(block, first)| read.half(block.bytes(), first, &keep),
        |part| {
            if failed.is_none() {
                let done = part.and_then(|(kept, skipped, _)| take(kept, skipped));
                failed = done.err();
                stop.store(failed.is_some(), std::sync::atomic::Ordering::Relaxed);
            }
        },
    )?;
    match failed {
        Some(e) => Err(e),
        None => Ok(read.format),
    }
}

impl Reading<'_> {
    /// What the first block tells: the format (unless given), a header's
    /// version, whether the file is a subagent's own.
    fn learn(&mut self, bytes: &[u8], format: Option<Format>) -> io::Result<()> {
        let first_line = bytes
            .split(|&b| b == b'\n')
            .find(|l| !l.iter().all(u8::is_ascii_whitespace));
        let Some(first_line) = first_line else {
            return Ok(());
        };
        let lines = || bytes.split(|&b| b == b'\n');
        self.format = match format {
            Some(format) => format,
            None if Format::unrecognized(lines()) => {
                return Err(crate::format::UnknownFormat.into());
            }
            None => Format::detect(lines()),
        };
        if let Checked::Header { version } = self.format.check_line(first_line, false) {
            self.version = Some(version);
        }
        // A subagent's own file starts with one of its lines.
        self.subagent =
            bytes
                .split(|&b| b == b'\n')
                .find_map(|l| match self.format.check_line(l, false) {
                    Checked::Entry { facts, .. } => Some(facts.sidechain),
                    _ => None,
                })
                == Some(true);
        Ok(())
    }

    /// One block searched in two halves on two threads (the first block,
    /// before any other is read); the number of the line after it.
    fn in_halves<T: Default + Send>(
        &self,
        bytes: &[u8],
        line: u64,
        keep: &(impl Fn(Found, &mut T) -> io::Result<()> + Sync),
        take: &mut impl FnMut(T, Vec<Skipped>) -> io::Result<()>,
    ) -> io::Result<u64> {
        let middle = match memchr::memchr(b'\n', &bytes[bytes.len() / 2..]) {
            Some(at) => bytes.len() / 2 + at + 1,
            None => bytes.len(),
        };
        let (front, back) = bytes.split_at(middle);
        let (front_part, back_part) = if back.is_empty() {
            (self.half(front, line, keep), None)
        } else {
            let (back, front) = crate::input::par::join(
                true,
                || {
                    // The back half's first line, counted while the front
                    // half is searched.
                    let back_line = line + memchr::memchr_iter(b'\n', front).count() as u64;
                    self.half(back, back_line, keep)
                },
                || self.half(front, line, keep),
            );
            (front, Some(back))
        };
        let mut line = line;
        for part in std::iter::once(front_part).chain(back_part) {
            let (kept, skipped, next) = part?;
            take(kept, skipped)?;
            line = next;
        }
        Ok(line)
    }
}

/// What every half needs to read its lines.
struct Reading<'p> {
    format: Format,
    /// The version a header declares (pi's).
    version: Option<u64>,
    /// The file is a subagent's own (Claude Code): its sidechain lines are
    /// its conversation, not bookkeeping to skip.
    subagent: bool,
    pattern: &'p Pattern,
    scope: &'p Scope,
    decode: Decode,
}

impl Reading<'_> {
    /// The lines of `bytes` (whose first line is number `line`) that may
    /// match, read and searched: what `keep` kept of those that match,
    /// those that could not be read, and the number of the line after
    /// `bytes`.
    fn half<T: Default>(
        &self,
        bytes: &[u8],
        mut line: u64,
        keep: &(impl Fn(Found, &mut T) -> io::Result<()> + Sync),
    ) -> io::Result<(T, Vec<Skipped>, u64)> {
        let mut kept = T::default();
        let mut skipped = Vec::new();
        let mut counted = 0;
        let mut each = |start: usize, end: usize| {
            line += memchr::memchr_iter(b'\n', &bytes[counted..start]).count() as u64;
            counted = start;
            match self.search(&bytes[start..end], line) {
                Some(Ok(found)) => keep(found, &mut kept),
                Some(Err(s)) => {
                    skipped.push(s);
                    Ok(())
                }
                None => Ok(()),
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
                    each(start, end)?;
                }
            }
            None => {
                let mut start = 0;
                while start < bytes.len() {
                    let end =
                        memchr::memchr(b'\n', &bytes[start..]).map_or(bytes.len(), |i| start + i);
                    each(start, end)?;
                    start = end + 1;
                }
            }
        }
        let next = line + memchr::memchr_iter(b'\n', &bytes[counted..]).count() as u64;
        Ok((kept, skipped, next))
    }

    /// One line searched: `None` for what is not searched (blank lines,
    /// headers, records, custom records) and for an entry that does not
    /// match.
    fn search(&self, bytes: &[u8], line: u64) -> Option<Result<Found, Skipped>> {
        if self.format.yoagent_lines()
            && self.decode == Decode::Blocks
            && let Some(found) = self.search_blocks(bytes, line)
        {
            return found.map(Ok);
        }
        let skipped = |why: String| Some(Err(Skipped { line, why }));
        let (id, text) = match self.format.check_line(bytes, false) {
            Checked::Entry { facts, indent } => {
                if facts.kind == MessageKind::Custom
                    || self.format.is_record(&facts)
                    || (facts.sidechain && !self.subagent)
                {
                    return None;
                }
                let id = if self.format.numbered_by_line(self.version) {
                    format!("line{line}")
                } else {
                    facts.id.into_owned()
                };
                let text = std::str::from_utf8(&bytes[indent..]).map_or("", str::trim);
                (id, text.as_bytes())
            }
            Checked::Fault { fault, .. } => return skipped(fault.message),
            Checked::NotUtf8 { at, .. } => return skipped(format!("not UTF-8 at byte {at}")),
            Checked::Blank | Checked::Header { .. } | Checked::Aside { .. } | Checked::Moves(_) => {
                return None;
            }
        };
        let entry = self.format.entry(text);
        match entry {
            Ok(entry) => Found::in_entry(id, line, &entry, self.pattern, self.scope).map(Ok),
            Err(NotAnEntry(why)) => skipped(why),
        }
    }

    /// A yoagent line searched where its blocks stand, without decoding
    /// it; `None` when the scanner is not sure of the line (it is then
    /// decoded whole).
    fn search_blocks(&self, bytes: &[u8], line: u64) -> Option<Option<Found>> {
        let (text, _) = crate::format::text_of(bytes).ok()?;
        let (facts, blocks) = crate::format::yoagent::scan::scan_line_blocks(text)?;
        if facts.kind == MessageKind::Custom
            || self.format.is_record(&facts)
            || (facts.sidechain && !self.subagent)
        {
            return Some(None);
        }
        let result_of = match facts.kind {
            MessageKind::ToolResult => facts.tool_name.as_deref(),
            _ => None,
        };
        let hits = search_blocks(self.pattern, self.scope, facts.kind, result_of, &blocks)?;
        if hits.is_empty() {
            return Some(None);
        }
        Some(Some(Found {
            id: facts.id.into_owned(),
            short: None,
            line,
            kind: facts.kind,
            result_of: result_of.map(str::to_string),
            hits,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::PatternOptions;

    type Scanned = (Vec<Found>, Vec<Skipped>);

    fn found_as(bytes: &[u8], pattern: &Pattern, scope: &Scope, decode: Decode) -> Scanned {
        let (mut hits, mut skipped) = (Vec::new(), Vec::new());
        let keep = |f, kept: &mut Vec<Found>| {
            kept.push(f);
            Ok(())
        };
        scan_as(bytes, None, pattern, scope, decode, keep, |kept, s| {
            hits.extend(kept);
            skipped.extend(s);
            Ok(())
        })
        .expect("scans");
        (hits, skipped)
    }

    fn found(bytes: &[u8], pattern: &Pattern) -> Scanned {
        found_as(bytes, pattern, &Scope::default(), Decode::Blocks)
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
                let (b, b_skipped) = found_as(bytes, &slow, &Scope::default(), Decode::Whole);
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
        assert_eq!(hits[0].id, "e1");
        let p = Pattern::new("ABC", PatternOptions::default()).expect("compiles");
        assert_eq!(found(ESCAPED.as_bytes(), &p).0[0].id, "e3");
        // Every line holds `\n` escapes; the text holds no backslash.
        let p = Pattern::new(r"\\n", PatternOptions::default()).expect("compiles");
        assert_eq!(found(ESCAPED.as_bytes(), &p).0, []);
    }

    /// Lines the scanner reads in shapes the fixtures do not show.
    const ODD: &str = concat!(
        // An image before the text: the text is block 1.
        r#"{"id":"o1","parent_id":null,"timestamp":1,"message":{"role":"user","content":[{"type":"image","data":"aGVsbG8=","mimeType":"image/png"},{"type":"text","text":"the picture"}],"timestamp":1}}"#,
        "\n",
        // Redacted thinking is not searched; thinking redacted `null` is.
        r#"{"id":"o2","parent_id":"o1","timestamp":2,"message":{"role":"assistant","content":[{"type":"thinking","thinking":"the secret","redacted":"xyz"},{"type":"thinking","thinking":"the open one","redacted":null},{"type":"text","text":"a\nthe end \"the\" caf\u00e9 the\/other"}],"stopReason":"stop","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":2}}"#,
        "\n",
        // Numeric tags, as serde reads them; arguments spaced, with a float,
        // escapes and a duplicate key, searched as serde prints them.
        r#"{"id":"o3","parent_id":"o2","timestamp":3,"message":{"role":1,"content":[{"type":0,"text":"the call"},{"type":3,"id":"c1","name":"the_tool","arguments":{"path": "the x" , "n": 2.50, "s":"caf\u00e9 \/ the", "d":"the one", "d":"the two"}}],"stopReason":"toolUse","model":"m","provider":"p","usage":{"input":1,"output":2},"timestamp":3}}"#,
        "\n",
        // A tool result, spaced out.
        r#" { "id" : "o4" , "parent_id" : "o3" , "timestamp" : 4 , "message" : { "role" : "toolResult" , "toolCallId" : "c1" , "toolName" : "the_tool" , "content" : [ { "type" : "text" , "text" : "the result\tthe tab" } ] , "isError" : false , "timestamp" : 4 } } "#,
        "\n",
        // A custom record and ysess's own record: never searched.
        r#"{"id":"o5","parent_id":"o4","timestamp":5,"message":{"role":"note","kind":"the kind","data":{"the":"the"}}}"#,
        "\n",
        r#"{"id":"o6","parent_id":"o5","timestamp":6,"message":{"role":"ysess","kind":"ysess.checkout","data":{"target":"the"}}}"#,
        "\n",
        // What the scanner leaves to serde: a key out of order, an escaped key.
        r#"{"id":"o7","parent_id":"o6","timestamp":7,"message":{"content":[{"type":"text","text":"the late role"}],"role":"user","timestamp":7}}"#,
        "\n",
        r#"{"id":"o8","parent_id":"o7","timestamp":8,"message":{"role":"user","content":[{"type":"text","te\u0078t":"the escaped key"}],"timestamp":8}}"#,
        "\n",
        // Not an entry.
        r#"{"id":"o9","parent_id":"o8","timestamp":9,"message":{"role":"user","content":[{"type":"text","text":"the torn"#,
        "\n",
    );

    /// The files both ways of reading are compared on: the fixtures of the
    /// formats the scanner reads, and the lines above.
    fn searched_files() -> Vec<Vec<u8>> {
        let mut files: Vec<Vec<u8>> = [
            "tests/fixtures/demo.jsonl",
            "tests/fixtures/medium.jsonl",
            "tests/fixtures/moves.jsonl",
            "tests/fixtures/broken.jsonl",
            "tests/fixtures/small-forked.jsonl",
            "tests/fixtures/pi/demo.jsonl",
            "tests/fixtures/pi/v1.jsonl",
            "tests/fixtures/claude/session.jsonl",
        ]
        .iter()
        .map(|f| std::fs::read(f).expect("fixture reads"))
        .collect();
        files.push(ESCAPED.as_bytes().to_vec());
        files.push(ODD.as_bytes().to_vec());
        files
    }

    /// The scopes they are searched in: all, a role, a tool.
    fn searched_scopes() -> [Scope; 4] {
        [
            Scope::default(),
            Scope {
                roles: vec![MessageKind::Assistant],
                ..Scope::default()
            },
            Scope {
                tool: Some("the_tool".into()),
                ..Scope::default()
            },
            Scope {
                tool: Some("bash".into()),
                ..Scope::default()
            },
        ]
    }

    #[test]
    fn reading_blocks_where_they_stand_finds_what_decoding_the_line_finds() {
        let files = searched_files();
        let option = |ignore_case, word, fixed| PatternOptions {
            ignore_case,
            word,
            fixed,
        };
        let plain = PatternOptions::default();
        let patterns = [
            ("the", plain),
            ("^the", plain),
            (r"\bthe\b", plain),
            ("THE", option(true, false, false)),
            ("the", option(false, true, false)),
            ("café", plain),
            ("the/other", option(false, false, true)),
            ("2.5", option(false, false, true)),
            (r#""the""#, plain),
            (r"the\tthe", plain),
            (r"fn \w+", plain),
            ("plan|session", plain),
            ("ls ", plain),
            ("bash", plain),
            ("x", plain),
        ];
        let scopes = searched_scopes();
        let mut total = 0;
        for (text, options) in patterns {
            let pattern = Pattern::new(text, options).expect("compiles");
            for scope in &scopes {
                for bytes in &files {
                    let fast = found_as(bytes, &pattern, scope, Decode::Blocks);
                    let whole = found_as(bytes, &pattern, scope, Decode::Whole);
                    assert_eq!(fast, whole, "{text} in {scope:?}");
                    total += fast.0.len();
                }
            }
        }
        assert!(total > 0, "the patterns match, so the test tests");
        // The scanner reads the first four odd lines itself; the two it is
        // not sure of are decoded.
        let read: Vec<bool> = ODD
            .lines()
            .take(8)
            .map(|l| crate::format::yoagent::scan::scan_line_blocks(l.trim()).is_some())
            .collect();
        assert_eq!(read, [true, true, true, true, true, true, false, false]);
        // The odd lines are found where they are searched, and only there.
        let the = Pattern::new("the", plain).expect("compiles");
        let (hits, skipped) = found(ODD.as_bytes(), &the);
        let seen: Vec<(&str, Vec<(usize, &str)>)> = hits
            .iter()
            .map(|f| {
                let blocks = f.hits.iter().map(|h| (h.block.index, h.block.kind.name()));
                (f.id.as_str(), blocks.collect())
            })
            .collect();
        assert_eq!(
            seen,
            [
                ("o1", vec![(1, "text")]),
                ("o2", vec![(1, "thinking"), (2, "text")]),
                (
                    "o3",
                    vec![(0, "text"), (1, "toolName"), (1, "toolArguments")]
                ),
                ("o4", vec![(0, "text")]),
                ("o7", vec![(0, "text")]),
                ("o8", vec![(0, "text")]),
            ]
        );
        assert_eq!(skipped.len(), 1);
        assert_eq!(skipped[0].line, 9);
        // The arguments are searched as serde prints them.
        assert_eq!(
            hits[2].hits[2].block.text,
            r#"{"path":"the x","n":2.5,"s":"café / the","d":"the two"}"#
        );
    }
}
