//! A search pattern, compiled twice: for the decoded text of a message, and
//! for the raw bytes of the file, where it picks the lines worth decoding.
//!
//! A session line is JSON: the text of a message is in it byte for byte,
//! except for the characters JSON writes as escapes (`"`, `\`, control
//! characters, and whatever a writer chooses to spell `\uXXXX` or `\/`). So
//! a pattern that can match none of `"`, `\` or a control character finds,
//! in the raw bytes, every line whose decoded text it matches, provided
//! that its assertions (`^`, `\b`, …) are dropped, since what is around a
//! match differs between the two (`\n` is a newline decoded, the letter `n`
//! raw). A line that holds `\/`, or a `\u` escape of anything but a
//! control character, is decoded whatever the pattern.
//! The raw matches only pick candidates: each is decoded and searched
//! again, so what the JSON around a message matches never counts.
//! A pattern that can match an escaped character (or `{` `}` `[` `]`,
//! which a tool call's arguments are searched with, as compact JSON) gets
//! no raw form: every line is decoded.

use regex_syntax::hir::{Class, Hir, HirKind};

/// How a pattern is read.
#[derive(Debug, Clone, Copy, Default)]
pub struct PatternOptions {
    /// A fixed string, not a regular expression (`-F`).
    pub fixed: bool,
    /// Ignore case (`-i`).
    pub ignore_case: bool,
    /// Match whole words only (`-w`).
    pub word: bool,
}

/// A compiled search pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    text: regex::Regex,
    raw: Option<regex::bytes::Regex>,
}

/// A regex error on one line, for a one-line message: the regex crate's
/// own words (`unclosed group`, …) without the picture of the pattern it
/// draws over several lines.
pub fn one_line(error: &regex::Error) -> String {
    let text = error.to_string();
    match text
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix("error: "))
    {
        Some(why) if text.contains('\n') => why.to_string(),
        _ => text.lines().map(str::trim).collect::<Vec<_>>().join(" "),
    }
}

impl Pattern {
    /// Compiles `pattern`; the error is the regex crate's, which points at
    /// the fault ([`one_line`] puts it on one line).
    pub fn new(pattern: &str, options: PatternOptions) -> Result<Pattern, regex::Error> {
        let mut source = if options.fixed {
            regex::escape(pattern)
        } else {
            pattern.to_string()
        };
        if options.word {
            // Half boundaries, as ripgrep's -w: a pattern that starts or ends
            // with a non-word character still matches.
            source = format!(r"\b{{start-half}}(?:{source})\b{{end-half}}");
        }
        let text = regex::RegexBuilder::new(&source)
            .case_insensitive(options.ignore_case)
            .build()?;
        let raw = regex_syntax::ParserBuilder::new()
            .case_insensitive(options.ignore_case)
            .build()
            .parse(&source)
            .ok()
            .filter(|hir| !can_match_escaped(hir))
            .and_then(|hir| regex::bytes::Regex::new(&relax(hir).to_string()).ok());
        Ok(Pattern { text, raw })
    }

    /// The same pattern with no raw form: every line is decoded and
    /// searched (slower; the raw form never changes what is found).
    pub fn decoding_every_line(mut self) -> Pattern {
        self.raw = None;
        self
    }

    /// Whether every line has to be decoded to be searched.
    pub fn decodes_every_line(&self) -> bool {
        self.raw.is_none()
    }

    /// The pattern for raw file bytes, when it has one.
    pub fn raw(&self) -> Option<&regex::bytes::Regex> {
        self.raw.as_ref()
    }

    /// Whether a raw line is worth decoding.
    pub fn may_match_line(&self, line: &[u8]) -> bool {
        self.raw
            .as_ref()
            .is_none_or(|raw| raw.is_match(line) || telling_escapes(line).next().is_some())
    }

    /// The matches in one line of decoded text, as byte ranges.
    pub fn find_iter<'a>(&'a self, line: &'a str) -> impl Iterator<Item = (usize, usize)> + 'a {
        // An empty match says the line matches; it is kept only when it is
        // the line's only one (as grep prints a line that `^` matches).
        let mut any = false;
        let mut empty = None;
        let mut matches = self.text.find_iter(line).peekable();
        std::iter::from_fn(move || {
            for m in matches.by_ref() {
                if m.start() < m.end() {
                    any = true;
                    return Some((m.start(), m.end()));
                }
                empty.get_or_insert((m.start(), m.end()));
            }
            if any { None } else { empty.take() }
        })
    }

    /// Whether one line of decoded text matches.
    pub fn is_match(&self, line: &str) -> bool {
        self.text.is_match(line)
    }
}

/// Where the escapes are that spell a character the raw form could miss:
/// `\/`, and `\u` escapes of anything but a control character (below
/// U+0020, which the raw form cannot match). Two runs of `memmem`, not in
/// order. (A `\\u`, an escaped backslash and a `u`, is taken too: its line
/// is decoded for nothing.)
pub(crate) fn telling_escapes(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let unicode = memchr::memmem::find_iter(bytes, b"\\u").filter(move |&i| {
        let hex = bytes.get(i + 2..i + 4).unwrap_or_default();
        hex != b"00" || !matches!(bytes.get(i + 4), Some(b'0' | b'1'))
    });
    unicode.chain(memchr::memmem::find_iter(bytes, b"\\/"))
}

/// Whether the pattern can match a character that JSON escapes, or a
/// bracket of a tool call's arguments.
fn can_match_escaped(hir: &Hir) -> bool {
    let risky = |c: u32| c < 0x20 || matches!(c, 0x22 | 0x5c | 0x7b | 0x7d | 0x5b | 0x5d);
    let risky_range = |lo: u32, hi: u32| {
        lo < 0x20
            || [0x22, 0x5c, 0x7b, 0x7d, 0x5b, 0x5d]
                .iter()
                .any(|&c| lo <= c && c <= hi)
    };
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => false,
        HirKind::Literal(lit) => lit.0.iter().any(|&b| risky(u32::from(b))),
        HirKind::Class(Class::Unicode(class)) => class
            .ranges()
            .iter()
            .any(|r| risky_range(r.start() as u32, r.end() as u32)),
        HirKind::Class(Class::Bytes(class)) => class
            .ranges()
            .iter()
            .any(|r| risky_range(u32::from(r.start()), u32::from(r.end()))),
        HirKind::Repetition(rep) => can_match_escaped(&rep.sub),
        HirKind::Capture(cap) => can_match_escaped(&cap.sub),
        HirKind::Concat(subs) | HirKind::Alternation(subs) => subs.iter().any(can_match_escaped),
    }
}

/// The pattern without its assertions: it matches wherever the pattern
/// does, and more.
fn relax(hir: Hir) -> Hir {
    match hir.into_kind() {
        HirKind::Empty | HirKind::Look(_) => Hir::empty(),
        HirKind::Literal(lit) => Hir::literal(lit.0),
        HirKind::Class(class) => Hir::class(class),
        HirKind::Repetition(mut rep) => {
            rep.sub = Box::new(relax(*rep.sub));
            Hir::repetition(rep)
        }
        HirKind::Capture(mut cap) => {
            cap.sub = Box::new(relax(*cap.sub));
            Hir::capture(cap)
        }
        HirKind::Concat(subs) => Hir::concat(subs.into_iter().map(relax).collect()),
        HirKind::Alternation(subs) => Hir::alternation(subs.into_iter().map(relax).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(p: &str) -> Pattern {
        Pattern::new(p, PatternOptions::default()).expect("compiles")
    }

    #[test]
    fn a_pattern_that_can_match_an_escaped_character_decodes_every_line() {
        for p in [r#"a"b"#, r"\\n", ".", r"\s", r"\W", "[^a]", r"\{", r"a\tb"] {
            assert!(pattern(p).decodes_every_line(), "{p}");
        }
        for p in [
            "plan",
            r"\bplan\b",
            "^Plan:",
            r"\w+ing",
            "sha2|serde_json",
            "é",
        ] {
            assert!(!pattern(p).decodes_every_line(), "{p}");
        }
    }

    #[test]
    fn the_raw_form_ignores_assertions_so_an_escape_before_a_word_cannot_hide_it() {
        // Decoded, `word` follows a newline; raw, it follows the `n` of `\n`.
        let p = pattern(r"\bword");
        assert!(p.may_match_line(br#"{"text":"a\nword"}"#));
        assert!(p.is_match("word"));
    }

    #[test]
    fn a_line_with_a_unicode_escape_is_always_a_candidate() {
        let p = pattern("café");
        assert!(p.may_match_line(br#"{"text":"caf\u00e9"}"#));
        assert!(!p.may_match_line(br#"{"text":"cafe"}"#));
    }

    #[test]
    fn word_and_case_options_shape_the_match() {
        let p = Pattern::new(
            "PLAN",
            PatternOptions {
                ignore_case: true,
                word: true,
                ..PatternOptions::default()
            },
        )
        .expect("compiles");
        assert_eq!(
            p.find_iter("a plan, planning").collect::<Vec<_>>(),
            [(2, 6)]
        );
        let fixed = Pattern::new(
            "a.b",
            PatternOptions {
                fixed: true,
                ..PatternOptions::default()
            },
        )
        .expect("compiles");
        assert!(!fixed.is_match("axb"));
        assert!(fixed.is_match("a.b"));
    }
}
