//! Writing for people and for programs: stdout that ends quietly on a broken
//! pipe, colour only where asked or on a terminal, session text escaped.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};

use clap::ValueEnum;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum ColorWhen {
    /// Colour on a terminal, unless `NO_COLOR` is set
    #[default]
    Auto,
    /// Colour even into a pipe or a file
    Always,
    /// No colour
    Never,
}

impl ColorWhen {
    /// Whether to colour a stream: `always`/`never` win; `auto` colours a
    /// terminal unless `NO_COLOR` is set to anything but the empty string.
    pub fn enabled(self, is_terminal: bool, no_color: Option<&str>) -> bool {
        match self {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto => is_terminal && no_color.is_none_or(str::is_empty),
        }
    }
}

/// Where a command writes. Tests pass buffers; `main` passes the real
/// streams.
pub struct Streams<'a> {
    /// Standard output: the data.
    pub out: &'a mut dyn Write,
    /// Standard error: status, warnings, errors.
    pub err: &'a mut dyn Write,
    /// Colour stderr.
    pub color_err: bool,
    /// Colour stdout (a terminal, or `--color always`).
    pub color_out: bool,
    /// The pager command, when stdout is a terminal and paging is on.
    pub pager: Option<String>,
    /// The terminal's width in columns when stdout is a terminal (rows
    /// that must not wrap are cut to it); `None` on a pipe.
    pub width: Option<usize>,
}

impl Streams<'_> {
    /// `error: …` / `warning: …` / `hint: …` on stderr, the prefix coloured.
    pub fn diag(&mut self, level: Level, text: &str) -> io::Result<()> {
        let (name, color) = match level {
            Level::Error => ("error", "\x1b[1;31m"),
            Level::Warning => ("warning", "\x1b[1;33m"),
            Level::Hint => ("hint", "\x1b[1;36m"),
        };
        if self.color_err {
            writeln!(self.err, "{color}{name}\x1b[0m: {text}")
        } else {
            writeln!(self.err, "{name}: {text}")
        }
    }
}

/// How bad a line on stderr is: its prefix (`error:`, `warning:`, `hint:`).
#[derive(Debug, Clone, Copy)]
pub enum Level {
    /// `error:`
    Error,
    /// `warning:`
    Warning,
    /// `hint:`
    Hint,
}

/// True for characters that must not reach a terminal raw: C0 and C1
/// controls, DEL, and the invisible bidirectional overrides that can make
/// text read differently from what it is.
pub fn is_hazard(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Whether `bytes` may hold a hazard: a control byte, or the first byte of
/// a C1 control (U+0080..U+009F) or of a bidi control (U+2000..U+2FFF).
/// Checked 32 bytes at a time, without branches, so the common case is fast.
fn may_hold_hazard(bytes: &[u8]) -> bool {
    bytes.chunks(32).any(|chunk| {
        chunk.iter().fold(false, |any, &b| {
            any | (b < 0x20) | (b == 0x7f) | (b == 0xc2) | (b == 0xe2)
        })
    })
}

/// Session text made safe for a terminal: hazards become visible escapes
/// (`\n`, `\t`, `\r`, `\u{1b}`); a backslash before them stays as it is.
pub fn escape(text: &str) -> Cow<'_, str> {
    if !may_hold_hazard(text.as_bytes()) || !text.chars().any(is_hazard) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if is_hazard(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Multi-line session text made safe for a terminal, line by line: its line
/// breaks and tabs stay (they move nothing but the cursor to the next line
/// or column), every other hazard is escaped as by [`escape`].
pub fn escape_lines(text: &str) -> Vec<String> {
    text.split('\n')
        .map(|line| {
            let line = line.strip_suffix('\r').unwrap_or(line);
            line.split('\t')
                .map(|part| escape(part).into_owned())
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect()
}

/// A serde_json formatter that also escapes DEL, C1 controls and bidi
/// overrides (serde_json escapes only C0), so `--json` output is safe to
/// print to a terminal too. The JSON means the same either way.
pub struct SafeJson;

impl serde_json::ser::Formatter for SafeJson {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let mut rest = fragment;
        while let Some((at, c)) = rest.char_indices().find(|&(_, c)| is_hazard(c)) {
            writer.write_all(&rest.as_bytes()[..at])?;
            write!(writer, "\\u{:04x}", c as u32)?;
            rest = &rest[at + c.len_utf8()..];
        }
        writer.write_all(rest.as_bytes())
    }
}

/// A JSON text as stored, made safe for a terminal without re-encoding it.
/// Inside strings, DEL, C1 controls and bidi overrides become `\uXXXX`
/// escapes (a loadable line holds no raw C0 control there: JSON forbids it).
/// Between tokens, the tab and carriage return JSON allows as white space
/// become plain spaces: the same JSON, and nothing that moves the cursor.
/// Numbers, key order and everything else stay byte for byte.
pub fn stored_json(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hazard) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        let after_backslash = escaped;
        escaped = in_string && !after_backslash && c == '\\';
        if c == '"' && !after_backslash {
            in_string = !in_string;
        }
        match c {
            '\t' | '\n' | '\r' if !in_string => out.push(' '),
            c if is_hazard(c) => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Writes one JSON value and a newline.
pub fn json_line<T: serde::Serialize>(out: &mut dyn Write, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, SafeJson);
    // serde_json wraps a failed write; keep its kind (a closed pipe is not
    // an error for the caller).
    value
        .serialize(&mut ser)
        .map_err(|e| match e.io_error_kind() {
            Some(kind) => io::Error::new(kind, e),
            None => io::Error::other(e),
        })?;
    out.write_all(b"\n")
}

/// Whether standard error is a terminal.
pub fn stderr_is_terminal() -> bool {
    io::stderr().is_terminal()
}

/// The width of the terminal stdout is on, as git finds it: `$COLUMNS`,
/// else the terminal's own size; `None` when stdout is not a terminal.
pub fn stdout_width(columns: Option<&str>) -> Option<usize> {
    let stdout = io::stdout();
    if !stdout.is_terminal() {
        return None;
    }
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|&w| w > 0)
        .or_else(|| terminal_size::terminal_size_of(&stdout).map(|(w, _)| usize::from(w.0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_hazards_and_nothing_else() {
        assert_eq!(escape("plain résumé 🚀"), "plain résumé 🚀");
        assert_eq!(
            escape("a\x1b[2Jb\nc\u{202E}d\u{9b}"),
            "a\\u{1b}[2Jb\\nc\\u{202e}d\\u{9b}"
        );
    }

    #[test]
    fn json_escapes_c1_and_bidi_and_still_round_trips() {
        let mut out = Vec::new();
        json_line(
            &mut out,
            &serde_json::json!({"m": "x\u{9b}y\u{202e}z\u{7f}\n"}),
        )
        .expect("to memory");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(text, "{\"m\":\"x\\u009by\\u202ez\\u007f\\n\"}\n");
        let back: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
        assert_eq!(back["m"], "x\u{9b}y\u{202e}z\u{7f}\n");
    }

    #[test]
    fn stored_json_never_passes_a_raw_carriage_return_or_tab() {
        let stored = "{\"a\\\"\":\r\"x\\\\\",\t\"b\":\"\u{9b}\\r\"}";
        let safe = stored_json(stored);
        assert!(!safe.chars().any(is_hazard), "{safe:?}");
        assert_eq!(safe, "{\"a\\\"\": \"x\\\\\", \"b\":\"\\u009b\\r\"}");
        let before: serde_json::Value = serde_json::from_str(stored).expect("valid JSON");
        let after: serde_json::Value = serde_json::from_str(&safe).expect("valid JSON");
        assert_eq!(before, after);
    }

    #[test]
    fn no_color_turns_auto_off_only() {
        assert!(ColorWhen::Auto.enabled(true, None));
        assert!(ColorWhen::Auto.enabled(true, Some("")));
        assert!(!ColorWhen::Auto.enabled(true, Some("1")));
        assert!(!ColorWhen::Auto.enabled(false, None));
        assert!(ColorWhen::Always.enabled(false, Some("1")));
    }
}
