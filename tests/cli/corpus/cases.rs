//! The corpus generator: a small session written by the real yoagent API,
//! then broken (and almost-broken) in every way the issue lists, with
//! `serde_json::Value` edits for shape changes and text/byte edits for
//! everything a `Value` cannot express (torn lines, raw bytes, duplicate
//! keys, odd numbers, padding).
//!
//! Everything here is deterministic: timestamps are pinned, the only
//! randomness is the tests' seeded [`Rng`], and the cases come out in the same
//! order every time.
//!
//! Two sizes: [`Size::Quick`] (the default) takes the most telling values of
//! each list — lists put those first — and [`Size::Full`] takes them all,
//! with every byte position of the torn last line.

use serde_json::{Map, Value, json};
use yoagent::provider::ApiProtocol;
use yoagent::{Content, Session, StopReason, Usage};

use crate::sessgen::{Rng, assistant_at, custom, jsonl_at, tool_result_at, user_at};

/// One session file of the corpus.
pub struct Case {
    /// Unique, human-readable: `category/what`.
    pub name: String,
    pub bytes: Vec<u8>,
    /// Worth running as its own `ysess fsck FILE` process too.
    pub notable: bool,
}

/// How much of the corpus to build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// Every category, with the most telling values of each list.
    Quick,
    /// Every value of every list.
    Full,
}

/// Every case, in a fixed order.
pub fn corpus(size: Size) -> Vec<Case> {
    let base = Base::new();
    let mut corpus = Corpus {
        size,
        cases: Vec::new(),
    };
    whole_files(&mut corpus, &base);
    line_endings_and_padding(&mut corpus, &base);
    torn_lines(&mut corpus, &base);
    line_shuffles(&mut corpus, &base);
    parent_links(&mut corpus, &base);
    entry_fields(&mut corpus, &base);
    message_fields(&mut corpus, &base);
    roles(&mut corpus, &base);
    custom_records(&mut corpus, &base);
    usage_fields(&mut corpus, &base);
    content_blocks(&mut corpus, &base);
    stop_reasons(&mut corpus, &base);
    labels(&mut corpus, &base);
    numbers(&mut corpus, &base);
    float_edges(&mut corpus, &base);
    surrogates(&mut corpus, &base);
    raw_bytes(&mut corpus, &base);
    duplicate_keys(&mut corpus, &base);
    escaped_keys(&mut corpus, &base);
    layouts(&mut corpus, &base);
    backslashes(&mut corpus, &base);
    arrays_for_objects(&mut corpus, &base);
    trailing_garbage(&mut corpus, &base);
    deep_nesting(&mut corpus, &base);
    huge_lines(&mut corpus, &base);
    block_boundaries(&mut corpus, &base);
    several_problems(&mut corpus, &base);
    random_edits(&mut corpus, &base);
    corpus.cases
}

// ---------------------------------------------------------------------------
// The base session
// ---------------------------------------------------------------------------

/// Line indexes (0-based) of the base session's entries, by what they hold.
const USER: usize = 0; // e1, the root: user text
const ASSISTANT: usize = 1; // e2: thinking + text + toolCall, stopReason toolUse
const TOOL_RESULT: usize = 2; // e3
const LABELED: usize = 3; // e4: assistant text, checkpoint "cp1"
const CUSTOM: usize = 4; // e5: custom `status_update` record
const FORK_USER: usize = 5; // e6: child of e1 (a second branch), text + image
const FORK_ASSISTANT: usize = 6; // e7: redacted thinking, stopReason error
const LAST: usize = 7; // e8: a short user line with multi-byte text

/// In `ASSISTANT`'s content: 0 thinking, 1 text, 2 toolCall.
const THINKING_BLOCK: &str = "/message/content/0";
const TEXT_BLOCK: &str = "/message/content/1";
const TOOL_CALL_BLOCK: &str = "/message/content/2";
/// In `FORK_USER`'s content.
const IMAGE_BLOCK: &str = "/message/content/1";
/// In `FORK_ASSISTANT`'s content.
const REDACTED_BLOCK: &str = "/message/content/0";

/// Marker strings for text substitution; they need no JSON escaping.
const RAW: &str = "@@raw@@";
const RAW_KEY: &str = "@@member@@";

/// The valid session every case starts from, as yoagent writes it.
struct Base {
    lines: Vec<String>,
    entries: Vec<Value>,
}

impl Base {
    fn new() -> Self {
        // Times pinned: entry `i` at T0 + `i` seconds, its message 1 ms before.
        const T0: u64 = 1_760_000_000_000;
        let at = |i: u64| T0 + 1000 * i - 1;
        let (model, provider) = ("model-x", "provider-y");
        let mut session = Session::new();
        let root = session.append(user_at("hello, naïve 🚀 world", None, at(0)).into());
        let usage = Usage {
            input: 120,
            output: 40,
            cache_read: 7,
            cache_write: 3,
            total_tokens: 170,
        };
        let content = vec![
            Content::thinking_signed("Let me read it.", "sig-1"),
            Content::Text {
                text: "Reading \"a.txt\"\tnow.".into(),
            },
            Content::tool_call("call_1", "read_file", json!({"path": "a.txt", "n": [1, 2]})),
        ];
        let stop = StopReason::ToolUse;
        session.append(assistant_at(content, stop, model, provider, usage.clone(), at(1)).into());
        session.append(
            tool_result_at("call_1", "read_file", "line one\nline two", false, at(2)).into(),
        );
        let content = vec![Content::Text {
            text: "Done.".into(),
        }];
        session
            .append(assistant_at(content, StopReason::Stop, model, provider, usage, at(3)).into());
        session.checkpoint("cp1").expect("the session has a head");
        session.append(custom("status_update", json!({"step": 1, "note": "ok"})));
        session.seek(&root).expect("the root exists");
        session.append(user_at("another try", Some("aGVsbG8=".into()), at(5)).into());
        let content = vec![
            Content::thinking_redacted(ApiProtocol::AnthropicMessages, "EmwKAhgB"),
            Content::Text { text: "".into() },
        ];
        let stop = StopReason::Error;
        let failed = assistant_at(content, stop, model, provider, Usage::default(), at(6));
        session.append(failed.with_error_message("overloaded").into());
        session.append(user_at("ok é🚀", None, at(7)).into());

        let text = jsonl_at(&session, |i| T0 + 1000 * i as u64);
        let lines: Vec<String> = text.lines().map(str::to_owned).collect();
        let entries = lines
            .iter()
            .map(|l| serde_json::from_str(l).expect("yoagent writes JSON"))
            .collect();
        Base { lines, entries }
    }

    fn file(&self) -> Vec<u8> {
        join(&self.lines)
    }

    /// The base file with line `index` replaced by `line`.
    fn with_line(&self, index: usize, line: impl Into<String>) -> Vec<u8> {
        let mut lines = self.lines.clone();
        lines[index] = line.into();
        join(&lines)
    }

    /// The base file with line `index` replaced by `entry`.
    fn with_entry(&self, index: usize, entry: &Value) -> Vec<u8> {
        self.with_line(index, to_line(entry))
    }
}

fn join(lines: &[String]) -> Vec<u8> {
    lines.join("\n").into_bytes()
}

fn to_line(value: &Value) -> String {
    serde_json::to_string(value).expect("a Value always serializes")
}

/// `entry` with the object at `pointer` changed by `edit`.
fn edit(entry: &Value, pointer: &str, edit: impl FnOnce(&mut Map<String, Value>)) -> Value {
    let mut entry = entry.clone();
    let object = entry
        .pointer_mut(pointer)
        .and_then(Value::as_object_mut)
        .unwrap_or_else(|| panic!("{pointer:?} names an object of the base entry"));
    edit(object);
    entry
}

fn set(entry: &Value, pointer: &str, key: &str, value: Value) -> Value {
    edit(entry, pointer, |o| {
        o.insert(key.into(), value);
    })
}

fn without(entry: &Value, pointer: &str, key: &str) -> Value {
    edit(entry, pointer, |o| {
        o.remove(key);
    })
}

/// `entry` as a line with `key` at `pointer` set to the raw JSON text `raw`
/// (which need not be valid JSON).
fn with_raw(entry: &Value, pointer: &str, key: &str, raw: &str) -> String {
    to_line(&set(entry, pointer, key, json!(RAW))).replacen(&format!("\"{RAW}\""), raw, 1)
}

/// `entry` as a line with the raw member text `member` (e.g. `"id":"x"`)
/// added to the object at `pointer`, duplicates allowed.
fn with_raw_member(entry: &Value, pointer: &str, member: &str) -> String {
    to_line(&set(entry, pointer, RAW_KEY, Value::Null)).replacen(
        &format!("\"{RAW_KEY}\":null"),
        member,
        1,
    )
}

/// Values of every JSON type, for "wrong type" cases.
/// The first four already give every field a value of the wrong type.
fn every_type() -> Vec<Value> {
    vec![
        Value::Null,
        json!(0),
        json!("x"),
        json!({}),
        json!([]),
        json!(-1),
        json!(1.5),
        json!(true),
        json!(""),
        json!([{"type": "text", "text": "a"}]),
    ]
}

/// A value's JSON text, cut short for a case name.
fn short(value: &Value) -> String {
    let text = to_line(value);
    if text.chars().count() > 24 {
        format!("{}…", text.chars().take(64).collect::<String>())
    } else {
        text
    }
}

/// `line` with the first `from` replaced by `to`; `from` must be there.
fn replaced(line: &str, from: &str, to: &str) -> String {
    assert!(line.contains(from), "{from:?} is in the base line {line:?}");
    line.replacen(from, to, 1)
}

struct Corpus {
    size: Size,
    cases: Vec<Case>,
}

impl Corpus {
    fn full(&self) -> bool {
        self.size == Size::Full
    }

    /// All of `list` for the full corpus, else its first `quick` items.
    fn pick<'a, T>(&self, list: &'a [T], quick: usize) -> &'a [T] {
        if self.full() {
            list
        } else {
            &list[..quick.min(list.len())]
        }
    }

    fn add(&mut self, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.cases.push(Case {
            name: name.into(),
            bytes: bytes.into(),
            notable: false,
        });
    }

    fn add_notable(&mut self, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.cases.push(Case {
            name: name.into(),
            bytes: bytes.into(),
            notable: true,
        });
    }
}

// ---------------------------------------------------------------------------
// Whole files and line structure
// ---------------------------------------------------------------------------

const LINEAR: &[u8] = include_bytes!("../../fixtures/linear.jsonl");
const SMALL_FORKED: &[u8] = include_bytes!("../../fixtures/small-forked.jsonl");
const MEDIUM: &[u8] = include_bytes!("../../fixtures/medium.jsonl");

fn whole_files(c: &mut Corpus, base: &Base) {
    c.add_notable("file/base", base.file());
    let mut with_newline = base.file();
    with_newline.push(b'\n');
    c.add("file/base-with-final-newline", with_newline);
    c.add_notable("file/fixture-linear", LINEAR);
    c.add("file/fixture-small-forked", SMALL_FORKED);
    c.add("file/fixture-medium", MEDIUM);
    for i in 0..base.lines.len() {
        c.add(
            format!("file/only-line-{}", i + 1),
            base.lines[..=i].join("\n"),
        );
    }

    c.add_notable("file/empty", "");
    c.add_notable("file/only-newline", "\n");
    c.add_notable("file/only-blank-lines", "\n\n  \n\t\n\r\n");
    c.add(
        "file/only-unicode-blank-lines",
        "\u{a0}\n\u{2028}\n\u{3000}\u{85}\n",
    );
    c.add_notable("file/only-bom", "\u{feff}");
    c.add("file/only-bom-newline", "\u{feff}\n");
    c.add("file/json-null", "null");
    c.add("file/json-empty-object", "{}");
    c.add("file/json-empty-array", "[]");
    c.add("file/json-number", "17");
    c.add("file/json-string", "\"e1\"");
    c.add("file/json-true", "true");
    c.add(
        "file/whole-session-as-one-array",
        format!("[{}]", base.lines.join(",")),
    );
    c.add("file/pretty-printed-entry", {
        let pretty = serde_json::to_string_pretty(&base.entries[USER]).expect("serializes");
        pretty.into_bytes()
    });
    c.add("file/single-quotes", base.lines[USER].replace('"', "'"));
    c.add(
        "file/unquoted-key",
        base.with_line(USER, replaced(&base.lines[USER], "\"id\"", "id")),
    );
    c.add(
        "file/trailing-comma-in-object",
        base.with_line(
            TOOL_RESULT,
            format!(
                "{},}}",
                &base.lines[TOOL_RESULT][..base.lines[TOOL_RESULT].len() - 1]
            ),
        ),
    );
    c.add(
        "file/trailing-comma-in-array",
        base.with_line(
            ASSISTANT,
            replaced(&base.lines[ASSISTANT], "[1,2]", "[1,2,]"),
        ),
    );
    c.add(
        "file/missing-comma",
        base.with_line(
            USER,
            replaced(&base.lines[USER], ",\"parent_id\"", "\"parent_id\""),
        ),
    );
    c.add("file/comment-line", {
        let mut lines = base.lines.clone();
        lines.insert(2, "// a comment".into());
        join(&lines)
    });
    c.add("file/hash-comment-line", {
        let mut lines = base.lines.clone();
        lines.insert(0, "# session".into());
        join(&lines)
    });
}

fn line_endings_and_padding(c: &mut Corpus, base: &Base) {
    let lines = &base.lines;
    c.add_notable("eol/crlf", lines.join("\r\n"));
    c.add("eol/crlf-final", format!("{}\r\n", lines.join("\r\n")));
    c.add(
        "eol/crlf-blank-lines",
        format!("\r\n{}\r\n\r\n", lines.join("\r\n\r\n")),
    );
    c.add(
        "eol/mixed",
        format!("{}\n{}", lines[..4].join("\r\n"), lines[4..].join("\n")),
    );
    c.add("eol/cr-cr-lf", lines.join("\r\r\n"));
    c.add_notable("eol/lone-cr-separator", lines.join("\r"));
    c.add("eol/lone-cr-final", format!("{}\r", lines.join("\n")));
    c.add("eol/form-feed-separator", lines.join("\u{c}"));
    c.add("eol/line-separator-u2028", lines.join("\u{2028}"));
    c.add("eol/nel-u0085", lines.join("\u{85}"));
    c.add("blank/leading", format!("\n\n{}", lines.join("\n")));
    c.add("blank/trailing", format!("{}\n\n\n", lines.join("\n")));
    c.add("blank/between-every-line", lines.join("\n\n"));
    c.add("blank/whitespace-lines-between", lines.join("\n \t \n"));
    c.add_notable("bom/file-start", format!("\u{feff}{}", lines.join("\n")));
    c.add(
        "bom/file-start-crlf",
        format!("\u{feff}{}", lines.join("\r\n")),
    );
    c.add(
        "bom/own-first-line",
        format!("\u{feff}\n{}", lines.join("\n")),
    );
    c.add("bom/start-of-line-3", {
        let mut l = lines.clone();
        l[2] = format!("\u{feff}{}", l[2]);
        join(&l)
    });
    c.add("bom/inside-text", {
        let entry = set(
            &base.entries[USER],
            "/message/content/0",
            "text",
            json!("\u{feff}hi"),
        );
        base.with_entry(USER, &entry)
    });
    c.add("bom/utf16le-bytes", {
        let mut bytes = vec![0xff, 0xfe];
        for unit in lines.join("\n").encode_utf16() {
            bytes.extend_from_slice(&unit.to_le_bytes());
        }
        bytes
    });
    c.add("bom/utf16be-bytes", {
        let mut bytes = vec![0xfe, 0xff];
        for unit in lines[USER].encode_utf16() {
            bytes.extend_from_slice(&unit.to_be_bytes());
        }
        bytes
    });

    const PADDING: &[(&str, &str)] = &[
        ("tab", "\t"),
        ("cr", "\r"),
        ("vt", "\u{b}"),
        ("nbsp", "\u{a0}"),
        ("line-separator", "\u{2028}"),
        ("zero-width-space", "\u{200b}"),
        ("bom", "\u{feff}"),
        ("unit-separator", "\u{1f}"),
        ("nul", "\0"),
        ("space", " "),
        ("ff", "\u{c}"),
        ("nel", "\u{85}"),
        ("ogham", "\u{1680}"),
        ("en-quad", "\u{2000}"),
        ("hair-space", "\u{200a}"),
        ("paragraph-separator", "\u{2029}"),
        ("narrow-nbsp", "\u{202f}"),
        ("math-space", "\u{205f}"),
        ("ideographic-space", "\u{3000}"),
        ("file-separator", "\u{1c}"),
        ("mongolian-vowel-sep", "\u{180e}"),
    ];
    for (name, pad) in c.pick(PADDING, 7) {
        let mut l = lines.clone();
        l[2] = format!("{pad}{pad}{}", l[2]);
        c.add(format!("pad/{name}/before-line-3"), join(&l));

        let mut l = lines.clone();
        l[2] = format!("{}{pad}", l[2]);
        c.add(format!("pad/{name}/after-line-3"), join(&l));

        let mut l = lines.clone();
        l[LAST] = format!("{pad}{}{pad}", l[LAST]);
        c.add(format!("pad/{name}/around-last-line"), join(&l));

        let mut l = lines.clone();
        l.insert(3, (*pad).into());
        c.add(format!("pad/{name}/alone-on-line-4"), join(&l));

        let mut l = lines.clone();
        l[2] = replaced(&l[2], "{\"id\":", &format!("{{{pad}\"id\"{pad}:{pad}"));
        c.add(format!("pad/{name}/between-tokens-line-3"), join(&l));
    }
}

// ---------------------------------------------------------------------------
// Torn lines
// ---------------------------------------------------------------------------

fn torn_lines(c: &mut Corpus, base: &Base) {
    let head = base.lines[..LAST].join("\n");
    let last = base.lines[LAST].as_bytes();
    // Every cut of the last line (quick: every 6th, and all cuts at the
    // ends and around `é` and `🚀`, some of them inside those characters).
    let telling = |cut: usize| {
        let near_multibyte =
            (cut.saturating_sub(1)..=cut).any(|i| last.get(i).is_some_and(|b| *b >= 0x80));
        cut.is_multiple_of(12) || cut < 3 || cut + 3 > last.len() || near_multibyte
    };
    let full = c.full();
    for cut in (0..=last.len()).filter(|cut| full || telling(*cut)) {
        let mut bytes = format!("{head}\n").into_bytes();
        bytes.extend_from_slice(&last[..cut]);
        let notable = cut == last.len() / 2 || cut == 1 || cut + 1 == last.len();
        let name = format!("torn-last/cut-{cut}-of-{}", last.len());
        if notable {
            c.add_notable(name, bytes);
        } else {
            c.add(name, bytes);
        }
    }
    // Torn, then a newline (or more) got written after all.
    for cut in (1..last.len()).step_by(if c.full() { 9 } else { 40 }) {
        for tail in ["\n", "\n\n", "\r\n", " \n"] {
            let mut bytes = format!("{head}\n").into_bytes();
            bytes.extend_from_slice(&last[..cut]);
            bytes.extend_from_slice(tail.as_bytes());
            c.add(format!("torn-last/cut-{cut}-then-{tail:?}"), bytes);
        }
    }
    // A longer last line, cut more sparsely.
    let head = base.lines[..FORK_ASSISTANT].join("\n");
    let last = base.lines[FORK_ASSISTANT].as_bytes();
    for cut in (3..last.len()).step_by(if c.full() { 23 } else { 71 }) {
        let mut bytes = format!("{head}\n").into_bytes();
        bytes.extend_from_slice(&last[..cut]);
        c.add(format!("torn-last/assistant-cut-{cut}"), bytes);
    }
    // The medium fixture, torn.
    let medium = MEDIUM.strip_suffix(b"\n").unwrap_or(MEDIUM);
    for back in c.pick(&[1, 1000, 2, 10, 100], 2) {
        c.add(
            format!("torn-last/medium-minus-{back}"),
            &medium[..medium.len() - back],
        );
    }

    // A torn line in the middle, with the rest of the file after it.
    for index in [
        USER,
        ASSISTANT,
        TOOL_RESULT,
        CUSTOM,
        FORK_USER,
        FORK_ASSISTANT,
    ] {
        let line = base.lines[index].as_bytes();
        for k in c.pick(&[2, 4, 1, 3], 2) {
            let cut = line.len() * k / 5;
            let mut bytes = join(&base.lines[..index]);
            if index > 0 {
                bytes.push(b'\n');
            }
            bytes.extend_from_slice(&line[..cut]);
            bytes.push(b'\n');
            bytes.extend_from_slice(&join(&base.lines[index + 1..]));
            c.add(format!("torn-middle/line-{}-cut-{cut}", index + 1), bytes);
        }
        // Torn, and the next append landed on the same line.
        let mut bytes = join(&base.lines[..index]);
        if index > 0 {
            bytes.push(b'\n');
        }
        bytes.extend_from_slice(&line[..line.len() / 2]);
        bytes.extend_from_slice(&join(&base.lines[index + 1..]));
        c.add(
            format!("torn-middle/line-{}-joined-with-next", index + 1),
            bytes,
        );
    }
    c.add_notable("torn-middle/line-3-cut-inside-multibyte", {
        let entry = set(
            &base.entries[TOOL_RESULT],
            "/message/content/0",
            "text",
            json!("日本語"),
        );
        let line = to_line(&entry);
        let at = line.find('日').expect("the text is there") + 1;
        let mut bytes = join(&base.lines[..TOOL_RESULT]);
        bytes.push(b'\n');
        bytes.extend_from_slice(&line.as_bytes()[..at]);
        bytes.push(b'\n');
        bytes.extend_from_slice(&join(&base.lines[TOOL_RESULT + 1..]));
        bytes
    });
}

// ---------------------------------------------------------------------------
// Lines deleted, duplicated, moved
// ---------------------------------------------------------------------------

fn line_shuffles(c: &mut Corpus, base: &Base) {
    let n = base.lines.len();
    for i in 0..n {
        let mut l = base.lines.clone();
        l.remove(i);
        c.add(format!("lines/delete-{}", i + 1), join(&l));

        let mut l = base.lines.clone();
        l.insert(i, base.lines[i].clone());
        c.add(format!("lines/duplicate-{}-in-place", i + 1), join(&l));

        let mut l = base.lines.clone();
        l.push(base.lines[i].clone());
        c.add(format!("lines/duplicate-{}-at-end", i + 1), join(&l));

        if i + 1 < n {
            let mut l = base.lines.clone();
            l.swap(i, i + 1);
            c.add(format!("lines/swap-{}-{}", i + 1, i + 2), join(&l));
        }
    }
    let mut l = base.lines.clone();
    l.reverse();
    c.add_notable("lines/reversed", join(&l));
    let mut l = base.lines.clone();
    l.rotate_left(1);
    c.add("lines/root-moved-to-end", join(&l));
    let mut l = base.lines.clone();
    l.swap(USER, LAST);
    c.add("lines/swap-first-last", join(&l));
    c.add(
        "lines/whole-file-twice",
        format!("{}\n{}", base.lines.join("\n"), base.lines.join("\n")),
    );
    c.add("lines/fixture-linear-then-medium", {
        let mut bytes = LINEAR.to_vec();
        bytes.push(b'\n');
        bytes.extend_from_slice(MEDIUM);
        bytes
    });
    c.add("lines/medium-line-200-duplicated", {
        let text = std::str::from_utf8(MEDIUM).expect("the fixture is UTF-8");
        let mut l: Vec<String> = text.lines().map(str::to_owned).collect();
        l.insert(250, l[199].clone());
        join(&l)
    });
    c.add("lines/medium-line-200-deleted", {
        let text = std::str::from_utf8(MEDIUM).expect("the fixture is UTF-8");
        let mut l: Vec<String> = text.lines().map(str::to_owned).collect();
        l.remove(199);
        join(&l)
    });
}

// ---------------------------------------------------------------------------
// Ids and parent links
// ---------------------------------------------------------------------------

fn parent_links(c: &mut Corpus, base: &Base) {
    let n = base.entries.len();
    for i in 0..n {
        let line = i + 1;
        let entry = &base.entries[i];
        let id = entry["id"].clone();
        c.add(
            format!("parent/dangling-line-{line}"),
            base.with_entry(i, &set(entry, "", "parent_id", json!("nope"))),
        );
        let self_parent = set(entry, "", "parent_id", id.clone());
        if i == USER {
            c.add_notable(
                format!("parent/self-line-{line}"),
                base.with_entry(i, &self_parent),
            );
        } else {
            c.add(
                format!("parent/self-line-{line}"),
                base.with_entry(i, &self_parent),
            );
        }
        if i + 2 < n {
            let later = base.entries[i + 2]["id"].clone();
            c.add(
                format!("parent/forward-line-{line}"),
                base.with_entry(i, &set(entry, "", "parent_id", later)),
            );
        }
        // Valid or merely duplicate variants: a few lines are enough.
        if i > 0 && (c.full() || [ASSISTANT, CUSTOM, LAST].contains(&i)) {
            c.add(
                format!("parent/second-root-null-line-{line}"),
                base.with_entry(i, &set(entry, "", "parent_id", Value::Null)),
            );
            c.add(
                format!("parent/second-root-missing-line-{line}"),
                base.with_entry(i, &without(entry, "", "parent_id")),
            );
            c.add(
                format!("parent/points-at-root-line-{line}"),
                base.with_entry(i, &set(entry, "", "parent_id", json!("e1"))),
            );
            c.add(
                format!("id/duplicate-of-previous-line-{line}"),
                base.with_entry(i, &set(entry, "", "id", base.entries[i - 1]["id"].clone())),
            );
        }
    }
    c.add_notable(
        "parent/root-names-next-line",
        base.with_entry(
            USER,
            &set(&base.entries[USER], "", "parent_id", json!("e2")),
        ),
    );
    c.add(
        "parent/empty-string",
        base.with_entry(
            TOOL_RESULT,
            &set(&base.entries[TOOL_RESULT], "", "parent_id", json!("")),
        ),
    );
    c.add(
        "parent/wrong-case",
        base.with_entry(
            TOOL_RESULT,
            &set(&base.entries[TOOL_RESULT], "", "parent_id", json!("E2")),
        ),
    );
    c.add(
        "parent/trailing-space",
        base.with_entry(
            TOOL_RESULT,
            &set(&base.entries[TOOL_RESULT], "", "parent_id", json!("e2 ")),
        ),
    );
    c.add(
        "parent/escaped-same-id",
        base.with_line(
            TOOL_RESULT,
            replaced(
                &base.lines[TOOL_RESULT],
                "\"parent_id\":\"e2\"",
                "\"parent_id\":\"\\u0065\\u0032\"",
            ),
        ),
    );
    c.add("parent/two-node-cycle", {
        let a = set(&base.entries[ASSISTANT], "", "parent_id", json!("e3"));
        let mut l = base.lines.clone();
        l[ASSISTANT] = to_line(&a);
        join(&l)
    });
    c.add(
        "parent/only-entry-names-itself",
        to_line(&set(&base.entries[USER], "", "parent_id", json!("e1"))),
    );

    // Ids renamed consistently (children follow): any string is an id.
    let renames: &[(&str, &str)] = &[
        ("empty", ""),
        ("space", " "),
        ("letters", "abc"),
        ("unicode", "naïve-🚀"),
        ("leading-zero", "e02"),
        ("u64-overflow-suffix", "e18446744073709551616"),
        ("huge-suffix", "e18446744073709551615"),
        ("negative-suffix", "e-1"),
        ("escaped-newline", "a\nb"),
        ("nul-escape", "a\u{0}b"),
        ("quote", "a\"b"),
        ("like-next", "e3"),
    ];
    for (name, new_id) in renames {
        let mut l = base.lines.clone();
        let renamed = set(&base.entries[ASSISTANT], "", "id", json!(new_id));
        l[ASSISTANT] = to_line(&renamed);
        let child = set(&base.entries[TOOL_RESULT], "", "parent_id", json!(new_id));
        l[TOOL_RESULT] = to_line(&child);
        c.add(format!("id/rename-line-2-{name}"), join(&l));
    }
    c.add(
        "id/duplicate-far-apart",
        base.with_entry(LAST, &set(&base.entries[LAST], "", "id", json!("e1"))),
    );
    c.add_notable(
        "id/duplicate-adjacent",
        base.with_entry(
            TOOL_RESULT,
            &set(&base.entries[TOOL_RESULT], "", "id", json!("e2")),
        ),
    );
    c.add(
        "id/same-as-own-parent-and-duplicate",
        base.with_entry(
            TOOL_RESULT,
            &edit(&base.entries[TOOL_RESULT], "", |o| {
                o.insert("id".into(), json!("e2"));
                o.insert("parent_id".into(), json!("e2"));
            }),
        ),
    );
}

// ---------------------------------------------------------------------------
// Entry fields
// ---------------------------------------------------------------------------

fn entry_fields(c: &mut Corpus, base: &Base) {
    let values = every_type();
    for index in c.pick(&[ASSISTANT, LAST], 1) {
        let (index, line) = (*index, index + 1);
        let entry = &base.entries[index];
        for field in ["id", "parent_id", "message", "timestamp", "label"] {
            for value in c.pick(&values, 5) {
                c.add(
                    format!("entry/{field}={}-line-{line}", short(value)),
                    base.with_entry(index, &set(entry, "", field, value.clone())),
                );
            }
            c.add(
                format!("entry/{field}-missing-line-{line}"),
                base.with_entry(index, &without(entry, "", field)),
            );
        }
        c.add(
            format!("entry/unknown-field-line-{line}"),
            base.with_entry(index, &set(entry, "", "extra", json!({"a": [1, null]}))),
        );
        c.add(
            format!("entry/only-id-line-{line}"),
            base.with_entry(index, &json!({"id": entry["id"].clone()})),
        );
        c.add(
            format!("entry/empty-object-line-{line}"),
            base.with_line(index, "{}"),
        );
    }
}

// ---------------------------------------------------------------------------
// Message fields, per role
// ---------------------------------------------------------------------------

fn message_fields(c: &mut Corpus, base: &Base) {
    let shapes: &[(&str, usize, &[&str])] = &[
        ("user", USER, &["content", "timestamp"]),
        (
            "assistant",
            ASSISTANT,
            &[
                "content",
                "stopReason",
                "model",
                "provider",
                "usage",
                "timestamp",
                "errorMessage",
                "error_message",
            ],
        ),
        (
            "tool-result",
            TOOL_RESULT,
            &["toolCallId", "toolName", "content", "isError", "timestamp"],
        ),
        ("custom", CUSTOM, &["role", "kind", "data"]),
    ];
    let values = every_type();
    for (shape, index, fields) in shapes {
        let entry = &base.entries[*index];
        for field in *fields {
            for value in c.pick(&values, 2) {
                c.add(
                    format!("message/{shape}/{field}={}", short(value)),
                    base.with_entry(*index, &set(entry, "/message", field, value.clone())),
                );
            }
            c.add(
                format!("message/{shape}/{field}-missing"),
                base.with_entry(*index, &without(entry, "/message", field)),
            );
        }
        c.add(
            format!("message/{shape}/unknown-field"),
            base.with_entry(
                *index,
                &set(entry, "/message", "extra", json!([1, {"b": null}])),
            ),
        );
        c.add(
            format!("message/{shape}/snake-case-field"),
            base.with_entry(*index, &set(entry, "/message", "tool_call_id", json!("x"))),
        );
    }
    let fork = &base.entries[FORK_ASSISTANT];
    c.add(
        "message/assistant/both-error-message-spellings",
        base.with_entry(
            FORK_ASSISTANT,
            &set(fork, "/message", "error_message", json!("again")),
        ),
    );
    c.add(
        "message/assistant/error-message-null",
        base.with_entry(
            FORK_ASSISTANT,
            &set(fork, "/message", "errorMessage", Value::Null),
        ),
    );
    c.add(
        "message/assistant/snake-case-only-error-message",
        base.with_entry(
            FORK_ASSISTANT,
            &edit(fork, "/message", |o| {
                let v = o
                    .remove("errorMessage")
                    .expect("the base has an errorMessage");
                o.insert("error_message".into(), v);
            }),
        ),
    );
    for (key, camel) in [
        ("stop_reason", "stopReason"),
        ("is_error", "isError"),
        ("tool_name", "toolName"),
    ] {
        let index = if camel == "stopReason" {
            ASSISTANT
        } else {
            TOOL_RESULT
        };
        c.add(
            format!("message/snake-case-instead-of-{camel}"),
            base.with_entry(
                index,
                &edit(&base.entries[index], "/message", |o| {
                    let v = o.remove(camel).expect("the base has the field");
                    o.insert(key.into(), v);
                }),
            ),
        );
    }
    c.add(
        "message/empty-object",
        base.with_entry(USER, &set(&base.entries[USER], "", "message", json!({}))),
    );
    c.add(
        "message/only-role",
        base.with_entry(
            USER,
            &set(&base.entries[USER], "", "message", json!({"role": "user"})),
        ),
    );
}

fn roles(c: &mut Corpus, base: &Base) {
    let roles = [
        json!("user"),
        json!("assistant"),
        json!("toolResult"),
        json!("extension"),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        Value::Null,
        json!("system"),
        json!(""),
        json!("User"),
        json!("tool_result"),
        json!(-1),
        json!(1.5),
        json!(0.0),
        json!(true),
        json!(["user"]),
        json!({"user": null}),
        json!("0"),
    ];
    // Role values on each LLM message shape, with and without `kind` + `data`.
    for (shape, index) in [
        ("user", USER),
        ("assistant", ASSISTANT),
        ("tool-result", TOOL_RESULT),
    ] {
        let entry = &base.entries[index];
        for role in c.pick(&roles, 5) {
            c.add(
                format!("role/{shape}-fields/role={}", short(role)),
                base.with_entry(index, &set(entry, "/message", "role", role.clone())),
            );
            let custom = edit(entry, "/message", |o| {
                o.insert("role".into(), role.clone());
                o.insert("kind".into(), json!("note"));
                o.insert("data".into(), json!({"x": 1}));
            });
            c.add(
                format!("role/{shape}-fields+kind+data/role={}", short(role)),
                base.with_entry(index, &custom),
            );
        }
        c.add(
            format!("role/{shape}-fields/role-missing"),
            base.with_entry(index, &without(entry, "/message", "role")),
        );
    }
    // `role: "user"` + kind + data still loads as a custom record when the
    // user fields are broken.
    let user = &base.entries[USER];
    let breakages: &[(&str, &str, Option<Value>)] = &[
        ("content-number", "content", Some(json!(5))),
        ("content-missing", "content", None),
        ("timestamp-string", "timestamp", Some(json!("x"))),
        ("timestamp-missing", "timestamp", None),
        (
            "content-unknown-block",
            "content",
            Some(json!([{"type": "video"}])),
        ),
    ];
    for (role, index) in c.pick(
        &[
            ("user", USER),
            ("assistant", ASSISTANT),
            ("toolResult", TOOL_RESULT),
        ],
        2,
    ) {
        let (role, index) = (*role, *index);
        for (name, field, value) in breakages {
            let broken = edit(&base.entries[index], "/message", |o| {
                o.insert("role".into(), json!(role));
                o.insert("kind".into(), json!("note"));
                o.insert("data".into(), Value::Null);
                match value {
                    Some(v) => o.insert((*field).into(), v.clone()),
                    None => o.remove(*field),
                };
            });
            c.add(
                format!("role/{role}+kind+data/broken-{name}"),
                base.with_entry(index, &broken),
            );
            let no_kind = without(&broken, "/message", "kind");
            c.add(
                format!("role/{role}+data/broken-{name}"),
                base.with_entry(index, &no_kind),
            );
        }
    }
    // Roles as variant indexes, each with the matching fields.
    c.add_notable(
        "role/index-0-user",
        base.with_entry(USER, &set(user, "/message", "role", json!(0))),
    );
    c.add(
        "role/index-1-assistant",
        base.with_entry(
            ASSISTANT,
            &set(&base.entries[ASSISTANT], "/message", "role", json!(1)),
        ),
    );
    c.add(
        "role/index-2-tool-result",
        base.with_entry(
            TOOL_RESULT,
            &set(&base.entries[TOOL_RESULT], "/message", "role", json!(2)),
        ),
    );
    c.add(
        "role/index-0-on-custom",
        base.with_entry(
            CUSTOM,
            &set(&base.entries[CUSTOM], "/message", "role", json!(0)),
        ),
    );
    c.add(
        "role/raw-index-0.0",
        base.with_line(USER, with_raw(user, "/message", "role", "0.0")),
    );
    c.add(
        "role/raw-index-1e0",
        base.with_line(USER, with_raw(user, "/message", "role", "1e0")),
    );
    c.add(
        "role/raw-index-u64-max",
        base.with_line(
            USER,
            with_raw(user, "/message", "role", "18446744073709551615"),
        ),
    );
    c.add(
        "role/raw-index-neg-0",
        base.with_line(USER, with_raw(user, "/message", "role", "-0")),
    );
}

fn custom_records(c: &mut Corpus, base: &Base) {
    let custom = &base.entries[CUSTOM];
    let data: Vec<Value> = [
        json!({"nested": {"deep": [1, 2.5, "s", null, true]}}),
        json!(u64::MAX),
        json!(-1e300),
    ]
    .into_iter()
    .chain(every_type())
    .collect();
    for data in c.pick(&data, 7) {
        c.add(
            format!("custom/data={}", short(data)),
            base.with_entry(CUSTOM, &set(custom, "/message", "data", data.clone())),
        );
    }
    let kinds = [
        json!(0),
        Value::Null,
        json!(""),
        json!("status_update"),
        json!("🚀"),
        json!([]),
        json!({}),
    ];
    for kind in c.pick(&kinds, 3) {
        c.add(
            format!("custom/kind={}", short(kind)),
            base.with_entry(CUSTOM, &set(custom, "/message", "kind", kind.clone())),
        );
    }
    for role in c.pick(
        &[
            "extension",
            "user",
            "",
            "assistant",
            "toolResult",
            "system",
            "🚀",
        ],
        4,
    ) {
        c.add(
            format!("custom/role={role:?}"),
            base.with_entry(CUSTOM, &set(custom, "/message", "role", json!(role))),
        );
    }
    c.add(
        "custom/without-kind",
        base.with_entry(CUSTOM, &without(custom, "/message", "kind")),
    );
    c.add(
        "custom/without-data",
        base.with_entry(CUSTOM, &without(custom, "/message", "data")),
    );
    c.add(
        "custom/without-kind-and-data",
        base.with_entry(
            CUSTOM,
            &edit(custom, "/message", |o| {
                o.remove("kind");
                o.remove("data");
            }),
        ),
    );
    c.add(
        "custom/with-content-and-timestamp",
        base.with_entry(
            CUSTOM,
            &edit(custom, "/message", |o| {
                o.insert("content".into(), json!([{"type": "text", "text": "a"}]));
                o.insert("timestamp".into(), json!(1));
            }),
        ),
    );
    c.add(
        "custom/extra-fields",
        base.with_entry(
            CUSTOM,
            &set(custom, "/message", "extra", json!({"z": [[]]})),
        ),
    );
    c.add(
        "custom/data-raw-nul-escape",
        base.with_line(CUSTOM, with_raw(custom, "/message", "data", "\"\\u0000\"")),
    );
    c.add(
        "custom/as-root",
        to_line(&set(custom, "", "parent_id", Value::Null)),
    );
}

const USAGE_ALIASES: [(&str, &str); 3] = [
    ("cacheRead", "cache_read"),
    ("cacheWrite", "cache_write"),
    ("totalTokens", "total_tokens"),
];

/// The assistant entry with its usage field `field` spelled that way: a
/// snake_case alias takes the place of the camelCase name yoagent writes.
fn usage_spelled(assistant: &Value, field: &str) -> Value {
    match USAGE_ALIASES.iter().find(|(_, snake)| *snake == field) {
        Some((camel, snake)) => edit(assistant, "/message/usage", |o| {
            let v = o.remove(*camel).expect("the base writes every usage field");
            o.insert((*snake).into(), v);
        }),
        None => assistant.clone(),
    }
}

fn usage_fields(c: &mut Corpus, base: &Base) {
    let entry = &base.entries[ASSISTANT];
    let usage = "/message/usage";
    let fields = [
        "input",
        "output",
        "cacheRead",
        "cacheWrite",
        "totalTokens",
        "cache_read",
        "cache_write",
        "total_tokens",
    ];
    let values = [
        Value::Null,
        json!(-1),
        json!("1"),
        json!(1.5),
        json!(u64::MAX),
        json!(true),
        json!([]),
        json!({}),
    ];
    for field in fields {
        // A snake_case field replaces its camelCase twin, else it is a duplicate.
        let entry = &usage_spelled(entry, field);
        for value in c.pick(&values, 2) {
            c.add(
                format!("usage/{field}={}", short(value)),
                base.with_entry(ASSISTANT, &set(entry, usage, field, value.clone())),
            );
        }
        for raw in c.pick(&["18446744073709551616", "1e3", "-0", "1.0"], 2) {
            c.add(
                format!("usage/{field}=raw-{raw}"),
                base.with_line(ASSISTANT, with_raw(entry, usage, field, raw)),
            );
        }
        c.add(
            format!("usage/{field}-missing"),
            base.with_entry(ASSISTANT, &without(entry, usage, field)),
        );
    }
    for (camel, snake) in USAGE_ALIASES {
        c.add(
            format!("usage/{snake}-alias-only"),
            base.with_entry(ASSISTANT, &usage_spelled(entry, snake)),
        );
        c.add(
            format!("usage/{camel}-and-{snake}"),
            base.with_entry(ASSISTANT, &set(entry, usage, snake, json!(1))),
        );
        c.add(
            format!("usage/{camel}-twice"),
            base.with_line(
                ASSISTANT,
                with_raw_member(entry, usage, &format!("\"{camel}\":1")),
            ),
        );
    }
    c.add(
        "usage/empty-object",
        base.with_entry(ASSISTANT, &set(entry, "/message", "usage", json!({}))),
    );
    c.add(
        "usage/only-input-output",
        base.with_entry(
            ASSISTANT,
            &set(entry, "/message", "usage", json!({"input": 1, "output": 2})),
        ),
    );
    c.add(
        "usage/unknown-field",
        base.with_entry(ASSISTANT, &set(entry, usage, "reasoning", json!(9))),
    );
    c.add(
        "usage/camel-input-tokens",
        base.with_entry(
            ASSISTANT,
            &set(
                entry,
                "/message",
                "usage",
                json!({"inputTokens": 1, "outputTokens": 2}),
            ),
        ),
    );
}

// ---------------------------------------------------------------------------
// Content blocks
// ---------------------------------------------------------------------------

fn content_blocks(c: &mut Corpus, base: &Base) {
    let blocks: &[(&str, usize, &str, &[&str])] = &[
        (
            "thinking",
            ASSISTANT,
            THINKING_BLOCK,
            &[
                "type",
                "thinking",
                "signature",
                "redacted",
                "redactedProtocol",
            ],
        ),
        ("text", ASSISTANT, TEXT_BLOCK, &["type", "text"]),
        (
            "tool-call",
            ASSISTANT,
            TOOL_CALL_BLOCK,
            &["type", "id", "name", "arguments", "providerMetadata"],
        ),
        (
            "image",
            FORK_USER,
            IMAGE_BLOCK,
            &["type", "data", "mimeType"],
        ),
        (
            "redacted-thinking",
            FORK_ASSISTANT,
            REDACTED_BLOCK,
            &["redacted", "redactedProtocol"],
        ),
        (
            "tool-result-text",
            TOOL_RESULT,
            "/message/content/0",
            &["type", "text"],
        ),
    ];
    let values = [
        Value::Null,
        json!(0),
        json!("x"),
        json!({}),
        json!(true),
        json!([]),
        json!(1.5),
    ];
    for (block, index, pointer, fields) in blocks {
        let entry = &base.entries[*index];
        for field in *fields {
            for value in c.pick(&values, 1) {
                c.add(
                    format!("content/{block}/{field}={}", short(value)),
                    base.with_entry(*index, &set(entry, pointer, field, value.clone())),
                );
            }
            c.add(
                format!("content/{block}/{field}-missing"),
                base.with_entry(*index, &without(entry, pointer, field)),
            );
        }
        c.add(
            format!("content/{block}/unknown-field"),
            base.with_entry(*index, &set(entry, pointer, "extra", json!({"q": [true]}))),
        );
    }

    // `type` values: known names on the wrong shape, unknown names, indexes.
    let types = [
        json!("video"),
        json!(0),
        json!(3),
        json!(4),
        json!("image"),
        json!("toolCall"),
        json!("text"),
        json!("thinking"),
        json!("tool_call"),
        json!("Text"),
        json!("tool_use"),
        json!(1),
        json!(2),
    ];
    for ty in c.pick(&types, 5) {
        c.add(
            format!("content/text-block/type={}", short(ty)),
            base.with_entry(
                ASSISTANT,
                &set(&base.entries[ASSISTANT], TEXT_BLOCK, "type", ty.clone()),
            ),
        );
        c.add(
            format!("content/tool-call-block/type={}", short(ty)),
            base.with_entry(
                ASSISTANT,
                &set(
                    &base.entries[ASSISTANT],
                    TOOL_CALL_BLOCK,
                    "type",
                    ty.clone(),
                ),
            ),
        );
    }
    let user = &base.entries[USER];
    for content in [
        json!([]),
        json!({}),
        json!("hello"),
        json!([[]]),
        json!([null]),
        json!([1]),
        json!([{}]),
        json!([{"type": "text"}]),
        json!([{"type": "text", "text": "a"}, {"type": "video", "url": "x"}]),
        json!([{"type": "image", "data": "", "mimeType": ""}]),
        json!([{"type": "thinking", "thinking": ""}]),
        json!([{"type": "toolCall", "id": "", "name": "", "arguments": null}]),
        json!([{"type": "toolCall", "id": "c", "name": "n"}]),
        json!([{"type": "text", "text": "a", "extra": null}]),
    ] {
        c.add(
            format!("content/user-content={}", short(&content)),
            base.with_entry(USER, &set(user, "/message", "content", content)),
        );
    }

    // redactedProtocol: known, unknown and wrong-typed values are all tolerated.
    let redacted = &base.entries[FORK_ASSISTANT];
    let protocols = [
        json!("future_protocol"),
        json!(7),
        Value::Null,
        json!("openai_responses"),
        json!("anthropic_messages"),
        json!("bedrock_converse_stream"),
        json!("AnthropicMessages"),
        json!(""),
        json!({"x": 1}),
    ];
    for protocol in c.pick(&protocols, 4) {
        c.add(
            format!("content/redacted-protocol={}", short(protocol)),
            base.with_entry(
                FORK_ASSISTANT,
                &set(
                    redacted,
                    REDACTED_BLOCK,
                    "redactedProtocol",
                    protocol.clone(),
                ),
            ),
        );
        c.add(
            format!("content/redacted_protocol-alias={}", short(protocol)),
            base.with_entry(
                FORK_ASSISTANT,
                &edit(redacted, REDACTED_BLOCK, |o| {
                    o.remove("redactedProtocol");
                    o.insert("redacted_protocol".into(), protocol.clone());
                }),
            ),
        );
    }
    c.add(
        "content/redacted-protocol-both-spellings",
        base.with_entry(
            FORK_ASSISTANT,
            &set(
                redacted,
                REDACTED_BLOCK,
                "redacted_protocol",
                json!("openai_responses"),
            ),
        ),
    );
    c.add(
        "content/redacted-protocol-raw-huge-number",
        base.with_line(
            FORK_ASSISTANT,
            with_raw(redacted, REDACTED_BLOCK, "redactedProtocol", "1e400"),
        ),
    );

    // providerMetadata on tool calls, both spellings.
    let tool = &base.entries[ASSISTANT];
    for meta in [
        json!({"thoughtSignature": "abc"}),
        json!("s"),
        json!(1),
        Value::Null,
        json!([]),
    ] {
        c.add(
            format!("content/provider-metadata={}", short(&meta)),
            base.with_entry(
                ASSISTANT,
                &set(tool, TOOL_CALL_BLOCK, "providerMetadata", meta.clone()),
            ),
        );
        c.add(
            format!("content/provider_metadata={}", short(&meta)),
            base.with_entry(
                ASSISTANT,
                &set(tool, TOOL_CALL_BLOCK, "provider_metadata", meta),
            ),
        );
    }
    c.add(
        "content/provider-metadata-both-spellings",
        base.with_entry(
            ASSISTANT,
            &edit(tool, TOOL_CALL_BLOCK, |o| {
                o.insert("providerMetadata".into(), json!({"a": 1}));
                o.insert("provider_metadata".into(), json!({"b": 2}));
            }),
        ),
    );
    for arguments in [
        Value::Null,
        json!("{\"path\":1}"),
        json!(3),
        json!([1, [2]]),
        json!({"": {"": ""}}),
    ] {
        c.add(
            format!("content/arguments={}", short(&arguments)),
            base.with_entry(
                ASSISTANT,
                &set(tool, TOOL_CALL_BLOCK, "arguments", arguments),
            ),
        );
    }
    c.add(
        "content/image-mime_type-snake-case",
        base.with_entry(
            FORK_USER,
            &edit(&base.entries[FORK_USER], IMAGE_BLOCK, |o| {
                let v = o.remove("mimeType").expect("the base image has a mimeType");
                o.insert("mime_type".into(), v);
            }),
        ),
    );
}

fn stop_reasons(c: &mut Corpus, base: &Base) {
    let entry = &base.entries[ASSISTANT];
    for reason in [
        json!("stop"),
        json!("length"),
        json!("toolUse"),
        json!("error"),
        json!("aborted"),
        json!("refusal"),
        json!("end_turn"),
        json!("tool_use"),
        json!("Stop"),
        json!("STOP"),
        json!(""),
        json!(" stop"),
        json!(0),
        json!(5),
        json!({"stop": null}),
        json!({"stop": []}),
        json!({"stop": {}}),
        json!({"stop": null, "length": null}),
        json!({"bogus": null}),
        json!(["stop"]),
    ] {
        c.add(
            format!("stop-reason/{}", short(&reason)),
            base.with_entry(ASSISTANT, &set(entry, "/message", "stopReason", reason)),
        );
    }
}

fn labels(c: &mut Corpus, base: &Base) {
    let labeled = &base.entries[LABELED];
    c.add(
        "label/missing",
        base.with_entry(LABELED, &without(labeled, "", "label")),
    );
    c.add(
        "label/null",
        base.with_entry(LABELED, &set(labeled, "", "label", Value::Null)),
    );
    c.add(
        "label/empty-string",
        base.with_entry(LABELED, &set(labeled, "", "label", json!(""))),
    );
    c.add(
        "label/unicode",
        base.with_entry(
            LABELED,
            &set(labeled, "", "label", json!("ünï 🚀 \u{2028}")),
        ),
    );
    c.add(
        "label/duplicate-on-two-entries",
        base.with_entry(LAST, &set(&base.entries[LAST], "", "label", json!("cp1"))),
    );
    c.add("label/on-every-line", {
        let lines: Vec<String> = base
            .entries
            .iter()
            .map(|e| to_line(&set(e, "", "label", json!("all"))))
            .collect();
        join(&lines)
    });
    c.add(
        "label/raw-null-text",
        base.with_line(LABELED, with_raw(labeled, "", "label", "null")),
    );
    c.add(
        "label/raw-Null-text",
        base.with_line(LABELED, with_raw(labeled, "", "label", "Null")),
    );
}

// ---------------------------------------------------------------------------
// Numbers
// ---------------------------------------------------------------------------

/// Number texts, valid JSON or not, spliced in raw; the most telling first.
const NUMBERS: &[&str] = &[
    "-0",
    "1e3",
    "18446744073709551615",
    "18446744073709551616",
    "1e400",
    "1e-400",
    "01",
    "1.0",
    "0",
    "1",
    "-1",
    "0.0",
    "1.5",
    "1E3",
    "1e+3",
    "1e-3",
    "-1e3",
    "9007199254740993",
    "99999999999999999999999",
    "-1e400",
    "+1",
    ".5",
    "1.",
    "0x10",
    "NaN",
    "Infinity",
    "-",
];

fn numbers(c: &mut Corpus, base: &Base) {
    let e = &base.entries;
    let snake_usage = usage_spelled(&e[ASSISTANT], "cache_read");
    let places: &[(&str, usize, &Value, &str, &str)] = &[
        ("entry-timestamp", LAST, &e[LAST], "", "timestamp"),
        ("user-timestamp", USER, &e[USER], "/message", "timestamp"),
        (
            "tool-result-timestamp",
            TOOL_RESULT,
            &e[TOOL_RESULT],
            "/message",
            "timestamp",
        ),
        (
            "usage-input",
            ASSISTANT,
            &e[ASSISTANT],
            "/message/usage",
            "input",
        ),
        (
            "usage-cache_read",
            ASSISTANT,
            &snake_usage,
            "/message/usage",
            "cache_read",
        ),
        (
            "tool-arguments",
            ASSISTANT,
            &e[ASSISTANT],
            TOOL_CALL_BLOCK,
            "arguments",
        ),
        (
            "tool-argument-member",
            ASSISTANT,
            &e[ASSISTANT],
            "/message/content/2/arguments",
            "n",
        ),
        (
            "provider-metadata",
            ASSISTANT,
            &e[ASSISTANT],
            TOOL_CALL_BLOCK,
            "providerMetadata",
        ),
        ("custom-data", CUSTOM, &e[CUSTOM], "/message", "data"),
        (
            "custom-data-member",
            CUSTOM,
            &e[CUSTOM],
            "/message/data",
            "step",
        ),
        ("unknown-entry-field", USER, &e[USER], "", "extra"),
        ("unknown-message-field", USER, &e[USER], "/message", "extra"),
        (
            "unknown-content-field",
            USER,
            &e[USER],
            "/message/content/0",
            "extra",
        ),
    ];
    for (place, index, entry, pointer, key) in places {
        for number in c.pick(NUMBERS, 4) {
            let bytes = base.with_line(*index, with_raw(entry, pointer, key, number));
            let name = format!("number/{place}={number}");
            if *number == "18446744073709551616" && *place == "entry-timestamp" {
                c.add_notable(name, bytes);
            } else {
                c.add(name, bytes);
            }
        }
    }
}

/// Floats at the edges of f64: what overflows depends on the value, not on
/// how the digits are written. The most telling first.
fn float_texts() -> Vec<String> {
    let mut texts: Vec<String> = [
        "1.8e308",
        "0e400",
        "1000e306",
        "0.001e310",
        "1.7976931348623157e308",
        "1.7976931348623159e308",
        "1e99999999999999999999",
        "0e99999999999999999999",
        "1e-99999999999999999999",
        "1e308",
        "10e308",
        "-1.8e308",
        "0.0e999",
        "123456789012345678901234567890e280",
        "0.0000000000000000000000000000001e339",
        "1E400",
        "2.2250738585072014e-308",
        "5e-324",
        "2e-324",
    ]
    .map(str::to_owned)
    .to_vec();
    texts.push(format!("1{}", "0".repeat(400)));
    texts.push(format!("-1{}", "0".repeat(308)));
    texts.push(format!("0.{}1", "0".repeat(400)));
    texts.push(format!("1{}e-100", "0".repeat(400)));
    texts
}

fn float_edges(c: &mut Corpus, base: &Base) {
    let places: &[(&str, usize, &str, &str)] = &[
        ("tool-arguments", ASSISTANT, TOOL_CALL_BLOCK, "arguments"),
        ("custom-data", CUSTOM, "/message", "data"),
        ("unknown-entry-field", USER, "", "extra"),
        ("unknown-message-field", USER, "/message", "extra"),
    ];
    let texts = float_texts();
    for (place, index, pointer, key) in places {
        for (i, text) in c.pick(&texts, 8).iter().enumerate() {
            let line = with_raw(&base.entries[*index], pointer, key, text);
            let shown: String = text.chars().take(24).collect();
            c.add(
                format!("float/{place}/{i}={shown}"),
                base.with_line(*index, line),
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Strings: surrogates, raw bytes, control characters
// ---------------------------------------------------------------------------

/// JSON string bodies (between the quotes), spliced in raw.
const SURROGATES: &[(&str, &str)] = &[
    ("pair", "\\ud83d\\ude80"),
    ("lone-high", "\\ud800"),
    ("lone-low", "\\udc00"),
    ("high-then-letter", "\\ud800\\u0041"),
    ("bad-hex", "\\u12g4"),
    ("pair-upper-hex", "\\uD83D\\uDE80"),
    ("max-pair", "\\udbff\\udfff"),
    ("two-highs", "\\ud800\\ud800"),
    ("low-then-high", "\\ude80\\ud83d"),
    ("high-at-end", "x\\ud83d"),
    ("escaped-backslash", "\\\\ud800"),
    ("short-escape", "\\u12"),
    ("unknown-escape", "\\q"),
];

fn surrogates(c: &mut Corpus, base: &Base) {
    let places: &[(&str, usize, &str, &str)] = &[
        ("id", LAST, "", "id"),
        ("label", LABELED, "", "label"),
        ("text", USER, "/message/content/0", "text"),
        ("model", ASSISTANT, "/message", "model"),
        ("unknown-entry-field", USER, "", "extra"),
        ("unknown-message-field", TOOL_RESULT, "/message", "extra"),
        ("unknown-content-field", USER, "/message/content/0", "extra"),
        (
            "tool-argument",
            ASSISTANT,
            "/message/content/2/arguments",
            "path",
        ),
        ("custom-data", CUSTOM, "/message/data", "note"),
        ("custom-kind", CUSTOM, "/message", "kind"),
    ];
    for (place, index, pointer, key) in places {
        for (name, body) in c.pick(SURROGATES, 3) {
            let line = with_raw(&base.entries[*index], pointer, key, &format!("\"{body}\""));
            c.add(
                format!("surrogate/{place}/{name}"),
                base.with_line(*index, line),
            );
        }
    }
    for (name, body) in c.pick(SURROGATES, 3) {
        let line = with_raw_member(&base.entries[USER], "", &format!("\"{body}\":1"));
        c.add(
            format!("surrogate/unknown-entry-key/{name}"),
            base.with_line(USER, line),
        );
        let line = with_raw_member(
            &base.entries[ASSISTANT],
            "/message/content/2/arguments",
            &format!("\"{body}\":1"),
        );
        c.add(
            format!("surrogate/tool-argument-key/{name}"),
            base.with_line(ASSISTANT, line),
        );
    }
}

fn raw_bytes(c: &mut Corpus, base: &Base) {
    const INVALID_UTF8: &[(&str, &[u8])] = &[
        ("ff", &[0xff]),
        ("lone-continuation", &[0x80]),
        ("encoded-surrogate", &[0xed, 0xa0, 0x80]),
        ("truncated-4-byte", &[0xf0, 0x9f, 0x9a]),
        ("fe", &[0xfe]),
        ("overlong-slash", &[0xc0, 0xaf]),
        ("above-max", &[0xf4, 0x90, 0x80, 0x80]),
        ("latin1-e-acute", &[0xe9]),
    ];
    for (name, bad) in c.pick(INVALID_UTF8, 4) {
        let user = base.lines[USER].as_bytes();
        let at = base.lines[USER].find("hello").expect("the root says hello");
        let mut bytes = user[..at].to_vec();
        bytes.extend_from_slice(bad);
        bytes.extend_from_slice(&user[at..]);
        bytes.push(b'\n');
        bytes.extend_from_slice(&join(&base.lines[1..]));
        if *name == "ff" {
            c.add_notable(format!("utf8/{name}-in-text-line-1"), bytes);
        } else {
            c.add(format!("utf8/{name}-in-text-line-1"), bytes);
        }

        let mut bytes = base.file();
        bytes.push(b'\n');
        bytes.extend_from_slice(bad);
        c.add(format!("utf8/{name}-on-own-last-line"), bytes);

        let mut bytes = join(&base.lines[..4]);
        bytes.extend_from_slice(b"\n  ");
        bytes.extend_from_slice(bad);
        bytes.push(b'\n');
        bytes.extend_from_slice(&join(&base.lines[4..]));
        c.add(format!("utf8/{name}-on-blank-line-5"), bytes);
    }

    // NUL, raw and escaped, inside and outside strings.
    let user = &base.lines[USER];
    c.add_notable(
        "nul/raw-in-text",
        base.with_line(USER, replaced(user, "hello", "hel\0lo")),
    );
    c.add(
        "nul/raw-in-id",
        base.with_line(LAST, replaced(&base.lines[LAST], "\"e8\"", "\"e\08\"")),
    );
    c.add(
        "nul/raw-in-unknown-field",
        base.with_line(USER, with_raw(&base.entries[USER], "", "extra", "\"a\0b\"")),
    );
    c.add(
        "nul/escaped-in-text",
        base.with_line(USER, replaced(user, "hello", "hel\\u0000lo")),
    );
    c.add(
        "nul/escaped-in-id",
        base.with_line(LAST, replaced(&base.lines[LAST], "\"e8\"", "\"e\\u00008\"")),
    );
    c.add(
        "nul/between-tokens",
        base.with_line(USER, replaced(user, ",", ",\0")),
    );
    c.add("nul/line-start", base.with_line(USER, format!("\0{user}")));
    c.add("nul/line-end", base.with_line(USER, format!("{user}\0")));
    c.add("nul/own-line", {
        let mut l = base.lines.clone();
        l.insert(2, "\0".into());
        join(&l)
    });
    c.add(
        "nul/after-final-newline",
        format!("{}\n\0", base.lines.join("\n")),
    );
    c.add("nul/whole-file", vec![0u8; 64]);

    // Raw control characters inside strings (a raw LF would split the line).
    let telling = [0x01u8, 0x09, 0x0d, 0x1f, 0x7f];
    let rest = (0x02u8..0x20).filter(|b| !telling.contains(b) && *b != b'\n');
    let bytes: Vec<u8> = telling.into_iter().chain(rest).collect();
    for byte in c.pick(&bytes, telling.len()) {
        let ch = char::from(*byte);
        c.add(
            format!("control/raw-{byte:02x}-in-text"),
            base.with_line(USER, replaced(user, "hello", &format!("hel{ch}lo"))),
        );
    }
    for byte in c.pick(&[0x09u8, 0x01, 0x0d, 0x1b, 0x1f], 3) {
        let ch = char::from(*byte);
        c.add(
            format!("control/raw-{byte:02x}-in-id"),
            base.with_line(
                LAST,
                replaced(&base.lines[LAST], "\"e8\"", &format!("\"e{ch}8\"")),
            ),
        );
        c.add(
            format!("control/raw-{byte:02x}-in-unknown-field"),
            base.with_line(
                USER,
                with_raw(&base.entries[USER], "", "extra", &format!("\"a{ch}b\"")),
            ),
        );
        c.add(
            format!("control/raw-{byte:02x}-in-tool-argument"),
            base.with_line(
                ASSISTANT,
                with_raw(
                    &base.entries[ASSISTANT],
                    "/message/content/2/arguments",
                    "path",
                    &format!("\"a{ch}b\""),
                ),
            ),
        );
        c.add(
            format!("control/raw-{byte:02x}-in-key"),
            base.with_line(
                USER,
                with_raw_member(&base.entries[USER], "", &format!("\"a{ch}b\":1")),
            ),
        );
    }
    for ch in ['\u{85}', '\u{9b}', '\u{2028}', '\u{202e}'] {
        c.add(
            format!("control/raw-u{:04x}-in-text", u32::from(ch)),
            base.with_line(USER, replaced(user, "hello", &format!("hel{ch}lo"))),
        );
    }
}

// ---------------------------------------------------------------------------
// Duplicate and escaped keys
// ---------------------------------------------------------------------------

fn duplicate_keys(c: &mut Corpus, base: &Base) {
    let cases: &[(&str, usize, &str, &str)] = &[
        ("entry-id", USER, "", "\"id\":\"e1\""),
        ("entry-id-other-value", TOOL_RESULT, "", "\"id\":\"zz\""),
        ("entry-parent_id", TOOL_RESULT, "", "\"parent_id\":\"e2\""),
        ("entry-parent_id-null", USER, "", "\"parent_id\":null"),
        (
            "entry-message",
            USER,
            "",
            "\"message\":{\"role\":\"user\",\"content\":[],\"timestamp\":1}",
        ),
        ("entry-timestamp", USER, "", "\"timestamp\":1"),
        ("entry-label", LABELED, "", "\"label\":\"cp2\""),
        ("entry-label-null", LABELED, "", "\"label\":null"),
        ("entry-unknown", USER, "", "\"extra\":1,\"extra\":2"),
        ("message-role", USER, "/message", "\"role\":\"user\""),
        (
            "message-role-different",
            USER,
            "/message",
            "\"role\":\"assistant\"",
        ),
        ("message-content", USER, "/message", "\"content\":[]"),
        ("message-timestamp", USER, "/message", "\"timestamp\":1"),
        (
            "message-unknown",
            USER,
            "/message",
            "\"extra\":1,\"extra\":2",
        ),
        (
            "assistant-stopReason",
            ASSISTANT,
            "/message",
            "\"stopReason\":\"stop\"",
        ),
        ("assistant-model", ASSISTANT, "/message", "\"model\":\"m\""),
        (
            "assistant-errorMessage",
            FORK_ASSISTANT,
            "/message",
            "\"errorMessage\":\"e\"",
        ),
        (
            "tool-result-isError",
            TOOL_RESULT,
            "/message",
            "\"isError\":true",
        ),
        ("usage-input", ASSISTANT, "/message/usage", "\"input\":1"),
        (
            "usage-unknown",
            ASSISTANT,
            "/message/usage",
            "\"x\":1,\"x\":2",
        ),
        ("custom-role", CUSTOM, "/message", "\"role\":\"extension\""),
        ("custom-kind", CUSTOM, "/message", "\"kind\":\"k\""),
        ("custom-data", CUSTOM, "/message", "\"data\":null"),
        ("custom-data-member", CUSTOM, "/message/data", "\"step\":2"),
        (
            "custom-unknown",
            CUSTOM,
            "/message",
            "\"extra\":1,\"extra\":2",
        ),
        (
            "content-type",
            USER,
            "/message/content/0",
            "\"type\":\"text\"",
        ),
        (
            "content-type-different",
            USER,
            "/message/content/0",
            "\"type\":\"image\"",
        ),
        (
            "content-text",
            USER,
            "/message/content/0",
            "\"text\":\"again\"",
        ),
        (
            "content-unknown",
            USER,
            "/message/content/0",
            "\"extra\":1,\"extra\":2",
        ),
        (
            "thinking-signature",
            ASSISTANT,
            THINKING_BLOCK,
            "\"signature\":\"s\"",
        ),
        (
            "redacted-protocol",
            FORK_ASSISTANT,
            REDACTED_BLOCK,
            "\"redactedProtocol\":\"anthropic_messages\"",
        ),
        (
            "tool-call-arguments",
            ASSISTANT,
            TOOL_CALL_BLOCK,
            "\"arguments\":{}",
        ),
        (
            "tool-argument-member",
            ASSISTANT,
            "/message/content/2/arguments",
            "\"path\":\"b.txt\"",
        ),
        (
            "image-mimeType",
            FORK_USER,
            IMAGE_BLOCK,
            "\"mimeType\":\"image/gif\"",
        ),
    ];
    for (name, index, pointer, member) in cases {
        let line = with_raw_member(&base.entries[*index], pointer, member);
        if *name == "entry-id" {
            c.add_notable(
                format!("duplicate-key/{name}"),
                base.with_line(*index, line),
            );
        } else {
            c.add(
                format!("duplicate-key/{name}"),
                base.with_line(*index, line),
            );
        }
    }
}

fn escaped_keys(c: &mut Corpus, base: &Base) {
    // Escapes in ids: the decoded string is the id.
    c.add(
        "escaped-id/duplicate-of-e1",
        base.with_line(
            TOOL_RESULT,
            replaced(
                &base.lines[TOOL_RESULT],
                "\"id\":\"e3\"",
                "\"id\":\"\\u0065\\u0031\"",
            ),
        ),
    );
    c.add("escaped-id/solidus-parent-unescaped", {
        let mut l = base.lines.clone();
        l[ASSISTANT] = replaced(&l[ASSISTANT], "\"id\":\"e2\"", "\"id\":\"a\\/b\"");
        l[TOOL_RESULT] = replaced(
            &l[TOOL_RESULT],
            "\"parent_id\":\"e2\"",
            "\"parent_id\":\"a/b\"",
        );
        join(&l)
    });
    c.add("escaped-id/raw-utf8-id-escaped-parent", {
        let mut l = base.lines.clone();
        l[ASSISTANT] = replaced(&l[ASSISTANT], "\"id\":\"e2\"", "\"id\":\"é\"");
        l[TOOL_RESULT] = replaced(
            &l[TOOL_RESULT],
            "\"parent_id\":\"e2\"",
            "\"parent_id\":\"\\u00e9\"",
        );
        join(&l)
    });
    c.add("escaped-id/escaped-parent-not-matching", {
        let mut l = base.lines.clone();
        l[TOOL_RESULT] = replaced(
            &l[TOOL_RESULT],
            "\"parent_id\":\"e2\"",
            "\"parent_id\":\"\\u0065\\u0032 \"",
        );
        join(&l)
    });
    c.add(
        "escaped-id/self-parent-escaped",
        base.with_line(
            TOOL_RESULT,
            replaced(
                &base.lines[TOOL_RESULT],
                "\"parent_id\":\"e2\"",
                "\"parent_id\":\"\\u0065\\u0033\"",
            ),
        ),
    );

    let cases: &[(&str, usize, &str, &str)] = &[
        ("id", USER, "\"id\":", "\"\\u0069d\":"),
        ("id-upper-hex", USER, "\"id\":", "\"\\u0069\\u0064\":"),
        ("id-capital-I", USER, "\"id\":", "\"\\u0049d\":"),
        (
            "parent_id",
            TOOL_RESULT,
            "\"parent_id\":",
            "\"parent\\u005fid\":",
        ),
        ("role", USER, "\"role\":", "\"\\u0072ole\":"),
        ("type", USER, "\"type\":", "\"\\u0074ype\":"),
        (
            "stopReason",
            ASSISTANT,
            "\"stopReason\":",
            "\"stop\\u0052eason\":",
        ),
        (
            "cacheRead",
            ASSISTANT,
            "\"cacheRead\":",
            "\"cache\\u0052ead\":",
        ),
        (
            "timestamp-solidus",
            USER,
            "\"timestamp\":",
            "\"time\\/stamp\":",
        ),
        (
            "role-value",
            USER,
            "\"role\":\"user\"",
            "\"role\":\"\\u0075ser\"",
        ),
        (
            "type-value",
            USER,
            "\"type\":\"text\"",
            "\"type\":\"\\u0074ext\"",
        ),
    ];
    for (name, index, from, to) in cases {
        let line = &base.lines[*index];
        c.add(
            format!("escaped-key/{name}"),
            base.with_line(*index, replaced(line, from, to)),
        );
    }
    c.add(
        "escaped-key/id-plus-escaped-id",
        base.with_line(
            USER,
            with_raw_member(&base.entries[USER], "", "\"\\u0069d\":\"e1\""),
        ),
    );
    c.add(
        "escaped-key/type-plus-escaped-type",
        base.with_line(
            USER,
            with_raw_member(
                &base.entries[USER],
                "/message/content/0",
                "\"\\u0074ype\":\"text\"",
            ),
        ),
    );
    c.add(
        "escaped-key/label-plus-escaped-label",
        base.with_line(
            LABELED,
            with_raw_member(&base.entries[LABELED], "", "\"l\\u0061bel\":\"x\""),
        ),
    );
    c.add(
        "escaped-key/role-plus-escaped-role",
        base.with_line(
            USER,
            with_raw_member(&base.entries[USER], "/message", "\"\\u0072ole\":\"user\""),
        ),
    );
}

// ---------------------------------------------------------------------------
// Same entries, other layouts: key order, whitespace between tokens
// ---------------------------------------------------------------------------

/// `value` as JSON with every object's members in reverse order.
fn reversed_keys(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            let members: Vec<String> = map
                .iter()
                .rev()
                .map(|(k, v)| format!("{}:{}", to_line(&json!(k)), reversed_keys(v)))
                .collect();
            format!("{{{}}}", members.join(","))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(reversed_keys).collect();
            format!("[{}]", items.join(","))
        }
        other => to_line(other),
    }
}

fn layouts(c: &mut Corpus, base: &Base) {
    let reversed: Vec<String> = base.entries.iter().map(reversed_keys).collect();
    c.add_notable("layout/keys-reversed", join(&reversed));
    for (name, gap) in [
        ("spaces", " "),
        ("tabs", "\t"),
        ("crs", "\r"),
        ("mixed", " \t\r "),
    ] {
        let spaced: Vec<String> = base
            .entries
            .iter()
            .map(|e| {
                let pretty = serde_json::to_string_pretty(e).expect("a Value always serializes");
                pretty.replace('\n', gap)
            })
            .collect();
        c.add(format!("layout/pretty-on-one-line-{name}"), join(&spaced));
    }
    for (i, line) in reversed.iter().enumerate() {
        if c.full() || i == ASSISTANT {
            c.add(
                format!("layout/keys-reversed-line-{}", i + 1),
                base.with_line(i, line.clone()),
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Backslash runs before a closing quote, at every word alignment
// ---------------------------------------------------------------------------

fn backslashes(c: &mut Corpus, base: &Base) {
    let places: &[(&str, usize, &str, &str)] = &[
        ("text", USER, "/message/content/0", "text"),
        ("unknown-entry-field", USER, "", "extra"),
        ("id", LAST, "", "id"),
    ];
    let aligns = [0usize, 3, 7, 1, 2, 4, 5, 6];
    for (place, index, pointer, key) in places {
        for &align in c.pick(&aligns, 2) {
            // An even run is that many halves of literal backslashes; an odd
            // run escapes the closing quote and the string runs on.
            for run in 1..=4 {
                let body = format!("{}{}", "x".repeat(align), "\\".repeat(run));
                let line = with_raw(&base.entries[*index], pointer, key, &format!("\"{body}\""));
                c.add(
                    format!("backslash/{place}/align-{align}-run-{run}"),
                    base.with_line(*index, line),
                );
            }
            let body = format!("{}\\\"}}\\\\", "x".repeat(align));
            let line = with_raw(&base.entries[*index], pointer, key, &format!("\"{body}\""));
            c.add(
                format!("backslash/{place}/align-{align}-escaped-quote-brace"),
                base.with_line(*index, line),
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Arrays where objects belong (serde accepts a struct as a sequence)
// ---------------------------------------------------------------------------

fn arrays_for_objects(c: &mut Corpus, base: &Base) {
    let user = &base.entries[USER];
    let message = user["message"].clone();
    let id = user["id"].clone();
    let ts = user["timestamp"].clone();
    let entry_arrays = [
        (
            "4-fields",
            json!([id.clone(), null, message.clone(), ts.clone()]),
        ),
        (
            "5-fields-label",
            json!([id.clone(), null, message.clone(), ts.clone(), "lbl"]),
        ),
        (
            "5-fields-null-label",
            json!([id.clone(), null, message.clone(), ts.clone(), null]),
        ),
        (
            "6-fields",
            json!([id.clone(), null, message.clone(), ts.clone(), null, 1]),
        ),
        ("3-fields", json!([id.clone(), null, message.clone()])),
        ("wrong-order", json!([null, id, message, ts])),
        ("empty", json!([])),
    ];
    for (name, array) in entry_arrays {
        let bytes = base.with_entry(USER, &array);
        if name == "4-fields" {
            c.add_notable(format!("array/entry-{name}"), bytes);
        } else {
            c.add(format!("array/entry-{name}"), bytes);
        }
    }
    let message_arrays = [
        (
            "user",
            USER,
            json!(["user", [{"type": "text", "text": "a"}], 5]),
        ),
        (
            "user-index-tag",
            USER,
            json!([0, [{"type": "text", "text": "a"}], 5]),
        ),
        ("user-short", USER, json!(["user", []])),
        (
            "tool-result",
            TOOL_RESULT,
            json!(["toolResult", "call_1", "read_file", [], false, 5]),
        ),
        (
            "assistant",
            ASSISTANT,
            json!(["assistant", [], "stop", "m", "p", {"input": 1, "output": 2}, 5]),
        ),
        (
            "assistant-with-error",
            ASSISTANT,
            json!(["assistant", [], "stop", "m", "p", {"input": 1, "output": 2}, 5, "e"]),
        ),
        (
            "custom",
            CUSTOM,
            json!(["extension", "status_update", {"x": 1}]),
        ),
        (
            "custom-user-role",
            CUSTOM,
            json!(["user", "status_update", {"x": 1}]),
        ),
        ("empty", USER, json!([])),
    ];
    for (name, index, array) in message_arrays {
        c.add(
            format!("array/message-{name}"),
            base.with_entry(index, &set(&base.entries[index], "", "message", array)),
        );
    }
    for (name, block) in [
        ("text", json!(["text", "hi"])),
        ("text-index-tag", json!([0, "hi"])),
        ("image", json!(["image", "ZGF0YQ==", "image/png"])),
        ("thinking", json!(["thinking", "hmm"])),
        ("tool-call", json!(["toolCall", "c", "n", {}])),
        ("empty", json!([])),
    ] {
        c.add(
            format!("array/content-{name}"),
            base.with_entry(USER, &set(user, "/message", "content", json!([block]))),
        );
    }
    for (name, usage) in [
        ("2", json!([1, 2])),
        ("5", json!([1, 2, 3, 4, 5])),
        ("6", json!([1, 2, 3, 4, 5, 6])),
        ("1", json!([1])),
    ] {
        c.add(
            format!("array/usage-{name}"),
            base.with_entry(
                ASSISTANT,
                &set(&base.entries[ASSISTANT], "/message", "usage", usage),
            ),
        );
    }
}

fn trailing_garbage(c: &mut Corpus, base: &Base) {
    for (name, tail) in [
        ("letter", "x"),
        ("close-brace", "}"),
        ("close-bracket", "]"),
        ("comma", ","),
        ("space-comma", " ,"),
        ("null", " null"),
        ("empty-object", "{}"),
        ("comment", " // done"),
        ("nul", "\0"),
        ("tab", "\t"),
        ("nbsp", "\u{a0}"),
        ("zero-width-space", "\u{200b}"),
        ("semicolon", ";"),
    ] {
        for &index in c.pick(&[LAST, TOOL_RESULT], 1) {
            let line = format!("{}{tail}", base.lines[index]);
            c.add(
                format!("trailing/{name}-line-{}", index + 1),
                base.with_line(index, line),
            );
        }
    }
    let mut l = base.lines.clone();
    let next = l.remove(TOOL_RESULT + 1);
    l[TOOL_RESULT] = format!("{}{next}", l[TOOL_RESULT]);
    c.add_notable("trailing/two-objects-on-line-3", join(&l));
    let mut l = base.lines.clone();
    let next = l.remove(TOOL_RESULT + 1);
    l[TOOL_RESULT] = format!("{} {next}", l[TOOL_RESULT]);
    c.add("trailing/two-objects-space-line-3", join(&l));
    let mut l = base.lines.clone();
    let last = l.pop().expect("the base has lines");
    l.push(format!("{last}{last}"));
    c.add("trailing/last-line-twice-on-one-line", join(&l));
    c.add(
        "trailing/same-entry-twice-on-line-1",
        base.with_line(USER, format!("{}{}", base.lines[USER], base.lines[USER])),
    );
}

// ---------------------------------------------------------------------------
// Nesting depth around serde_json's recursion limit (128)
// ---------------------------------------------------------------------------

fn nested_arrays(depth: usize) -> String {
    format!("{}0{}", "[".repeat(depth), "]".repeat(depth))
}

fn nested_objects(depth: usize) -> String {
    format!("{}0{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

fn deep_nesting(c: &mut Corpus, base: &Base) {
    // (place, line, object pointer, key, containers already open around the value)
    let places: &[(&str, usize, &str, &str, usize)] = &[
        ("unknown-entry-field", USER, "", "extra", 1),
        ("unknown-message-field", USER, "/message", "extra", 2),
        (
            "unknown-content-field",
            USER,
            "/message/content/0",
            "extra",
            4,
        ),
        ("tool-arguments", ASSISTANT, TOOL_CALL_BLOCK, "arguments", 4),
        (
            "provider-metadata",
            ASSISTANT,
            TOOL_CALL_BLOCK,
            "providerMetadata",
            4,
        ),
        (
            "redacted-protocol",
            FORK_ASSISTANT,
            REDACTED_BLOCK,
            "redactedProtocol",
            4,
        ),
        ("custom-data", CUSTOM, "/message", "data", 2),
        (
            "unknown-usage-field",
            ASSISTANT,
            "/message/usage",
            "extra",
            3,
        ),
    ];
    for (place, index, pointer, key, open) in places {
        // 127 open containers load, 128 do not: bracket that on both sides.
        let totals = if c.full() { 126..=129 } else { 127..=128 };
        for total in totals {
            let depth = total - open;
            for (shape, raw) in [
                ("arrays", nested_arrays(depth)),
                ("objects", nested_objects(depth)),
            ] {
                let line = with_raw(&base.entries[*index], pointer, key, &raw);
                let name = format!("depth/{place}/{shape}-total-{total}");
                if total == 128 && *place == "tool-arguments" && shape == "arrays" {
                    c.add_notable(name, base.with_line(*index, line));
                } else {
                    c.add(name, base.with_line(*index, line));
                }
            }
        }
        let line = with_raw(&base.entries[*index], pointer, key, &nested_arrays(5000));
        c.add(
            format!("depth/{place}/arrays-5000"),
            base.with_line(*index, line),
        );
    }
    // Unclosed deep nesting on the last line: torn and too deep at once.
    let line = with_raw(&base.entries[LAST], "", "extra", &"[".repeat(200));
    c.add("depth/unclosed-200-last-line", base.with_line(LAST, line));
}

fn huge_lines(c: &mut Corpus, base: &Base) {
    const MB4: usize = 4 << 20;
    let user = &base.entries[USER];
    let big_text = "long é🚀 line ".repeat(MB4 / 16);
    let line = to_line(&set(user, "/message/content/0", "text", json!(big_text)));
    c.add_notable("huge/4mb-text-line-1", base.with_line(USER, line.clone()));
    let mut l = base.lines.clone();
    l.push(to_line(&edit(user, "", |o| {
        o.insert("id".into(), json!("big"));
        o.insert("parent_id".into(), json!("e8"));
    })));
    let last = l.pop().expect("just pushed");
    let big_last = replaced(&last, "hello, naïve 🚀 world", &"x".repeat(MB4));
    l.push(big_last[..big_last.len() - 3].to_owned());
    c.add_notable("huge/4mb-last-line-torn", join(&l));
    let data = format!("[{}0]", "0,".repeat(MB4 / 2));
    c.add(
        "huge/4mb-custom-data",
        base.with_line(
            CUSTOM,
            with_raw(&base.entries[CUSTOM], "/message", "data", &data),
        ),
    );
    c.add(
        "huge/4mb-garbage-line-3",
        base.with_line(TOOL_RESULT, "z".repeat(MB4)),
    );
}

/// The root entry padded (with ASCII text) to exactly `len` bytes.
fn root_of_length(base: &Base, len: usize) -> String {
    let bare = set(&base.entries[USER], "/message/content/0", "text", json!(""));
    let pad = len
        .checked_sub(to_line(&bare).len())
        .expect("the padded line is longer than the bare one");
    let line = to_line(&set(
        &bare,
        "/message/content/0",
        "text",
        json!("x".repeat(pad)),
    ));
    assert_eq!(line.len(), len, "ASCII padding adds one byte per byte");
    line
}

/// The base file with the root's text padded so that `bytes` start exactly
/// at file offset `at`.
fn with_bytes_at(base: &Base, bytes: &[u8], at: usize) -> Vec<u8> {
    let marked = to_line(&set(
        &base.entries[USER],
        "/message/content/0",
        "text",
        json!(RAW),
    ));
    let start = marked.find(RAW).expect("the marker is in the line");
    let (head, tail) = marked.split_at(start);
    let mut line = head.as_bytes().to_vec();
    line.resize(at, b'x');
    line.extend_from_slice(bytes);
    line.extend_from_slice(&[b'x'; 64]);
    line.extend_from_slice(&tail.as_bytes()[RAW.len()..]);
    line.push(b'\n');
    line.extend_from_slice(&join(&base.lines[1..]));
    line
}

/// Files longer than a read buffer, with a line end exactly at, just before
/// and just after a power-of-two offset and the interesting line right after.
fn block_boundaries(c: &mut Corpus, base: &Base) {
    let offsets = [
        4 << 20,
        1 << 20,
        (4 << 20) - 1,
        (4 << 20) + 1,
        (1 << 20) - 1,
        (1 << 20) + 1,
    ];
    for &at in c.pick(&offsets, 2) {
        let root = root_of_length(base, at);
        let rest = &base.lines[1..];
        let mut lines = vec![root.clone()];
        lines.extend_from_slice(rest);
        c.add(format!("block/newline-at-{at}-loads"), join(&lines));

        let mut torn = lines.clone();
        torn[1] = base.lines[ASSISTANT][..40].to_owned();
        c.add(format!("block/newline-at-{at}-then-torn-line"), join(&torn));

        let mut dup = lines.clone();
        dup[1] = to_line(&set(&base.entries[ASSISTANT], "", "id", json!("e1")));
        c.add(format!("block/newline-at-{at}-then-duplicate"), join(&dup));

        if c.full() {
            let mut bytes = root.into_bytes();
            bytes.truncate(at - 1);
            c.add(format!("block/torn-first-line-{}", at - 1), bytes);
        }
    }

    // A character, a CRLF or a bad byte straddling the same offsets.
    let straddles: [(&str, &[u8], usize); 7] = [
        ("e-acute", "é".as_bytes(), 1),
        ("emoji-1", "🚀".as_bytes(), 1),
        ("emoji-3", "🚀".as_bytes(), 3),
        ("invalid-c3", &[0xc3, b'x'], 1),
        ("invalid-ff", &[0xff], 0),
        ("emoji-2", "🚀".as_bytes(), 2),
        ("lone-continuation", &[0x80], 0),
    ];
    for &at in c.pick(&offsets[..2], 1) {
        for (name, bytes, before) in c.pick(&straddles, 5) {
            c.add(
                format!("block/{name}-at-{at}"),
                with_bytes_at(base, bytes, at - before),
            );
        }
        // `\r` is the last byte before `at`, `\n` the first at it.
        let mut crlf = root_of_length(base, at - 1).into_bytes();
        crlf.extend_from_slice(b"\r\n");
        crlf.extend_from_slice(&join(&base.lines[1..]));
        c.add(format!("block/crlf-straddles-{at}"), crlf);
    }

    // Many short lines, more than a read buffer's worth; the last one repeats
    // an id from the first few hundred bytes.
    let mut lines = Vec::new();
    let template = &base.entries[USER];
    let count = 12_000;
    for i in 1..=count {
        let entry = edit(template, "", |o| {
            o.insert("id".into(), json!(format!("n{i}")));
            let parent = if i == 1 {
                Value::Null
            } else {
                json!(format!("n{}", i - 1))
            };
            o.insert("parent_id".into(), parent);
        });
        lines.push(to_line(&entry));
    }
    let mut dup = lines.clone();
    dup.push(to_line(&edit(template, "", |o| {
        o.insert("id".into(), json!("n2"));
        o.insert("parent_id".into(), json!(format!("n{count}")));
    })));
    c.add("block/many-lines-duplicate-at-end", join(&dup));
    if c.full() {
        let mut forward = lines.clone();
        forward[count - 2] = to_line(&edit(template, "", |o| {
            o.insert("id".into(), json!(format!("n{}", count - 1)));
            o.insert("parent_id".into(), json!(format!("n{count}")));
        }));
        c.add("block/many-lines-forward-parent-near-end", join(&forward));
        c.add("block/many-lines-loads", join(&lines));
    }
}

fn several_problems(c: &mut Corpus, base: &Base) {
    let bad_json = "{\"id\":";
    c.add("several/parse-error-line-3-and-6", {
        let mut l = base.lines.clone();
        l[2] = bad_json.into();
        l[5] = bad_json.into();
        join(&l)
    });
    c.add("several/parse-error-line-4-then-duplicate-line-6", {
        let mut l = base.lines.clone();
        l[3] = bad_json.into();
        l[5] = to_line(&set(&base.entries[5], "", "id", json!("e1")));
        join(&l)
    });
    c.add("several/duplicate-line-3-then-parse-error-line-6", {
        let mut l = base.lines.clone();
        l[2] = to_line(&set(&base.entries[2], "", "id", json!("e1")));
        l[5] = bad_json.into();
        join(&l)
    });
    c.add("several/dangling-line-2-then-parse-error-line-5", {
        let mut l = base.lines.clone();
        l[1] = to_line(&set(&base.entries[1], "", "parent_id", json!("nope")));
        l[4] = bad_json.into();
        join(&l)
    });
    c.add("several/bad-message-line-2-then-torn-last", {
        let mut l = base.lines.clone();
        l[1] = to_line(&set(&base.entries[1], "/message", "usage", json!("lots")));
        let last = l.pop().expect("the base has lines");
        l.push(last[..10].to_owned());
        join(&l)
    });
    c.add("several/parse-error-line-2-then-invalid-utf8-line-6", {
        let mut l = join(&base.lines[..5]);
        l.splice(40..41, *b"{");
        l.extend_from_slice(b"\n\xff\n");
        l.extend_from_slice(&join(&base.lines[5..]));
        l
    });
    c.add("several/duplicate-line-2-then-invalid-utf8-last", {
        let mut l = base.lines.clone();
        l[1] = to_line(&set(&base.entries[1], "", "id", json!("e1")));
        let mut bytes = join(&l);
        bytes.extend_from_slice(b"\n\xc3");
        bytes
    });
    c.add("several/bom-and-torn-last", {
        let mut l = base.lines.clone();
        l[0] = format!("\u{feff}{}", l[0]);
        let last = l.pop().expect("the base has lines");
        l.push(last[..10].to_owned());
        join(&l)
    });
    c.add("several/bad-type-every-line", {
        let lines: Vec<String> = base
            .entries
            .iter()
            .map(|e| to_line(&set(e, "", "timestamp", json!("now"))))
            .collect();
        join(&lines)
    });
    c.add("several/self-parent-then-duplicate", {
        let mut l = base.lines.clone();
        l[2] = to_line(&set(&base.entries[2], "", "parent_id", json!("e3")));
        l[5] = to_line(&set(&base.entries[5], "", "id", json!("e2")));
        join(&l)
    });
}

// ---------------------------------------------------------------------------
// Seeded random byte edits
// ---------------------------------------------------------------------------

/// One to three small byte edits (delete, duplicate, overwrite, insert) at
/// random places of the base file: JSON punctuation, digits, quotes,
/// backslashes, newlines and stray bytes land where no list would put them.
fn random_edits(c: &mut Corpus, base: &Base) {
    const BYTES: &[u8] = b"{}[]\":,\\ \n\r\t0-1e.nu\x00\x7f\xc3\xa9\xff";
    let mut rng = Rng::new(0x5eed_1e55_c0ff_ee01);
    for round in 0..if c.full() { 200 } else { 20 } {
        let mut bytes = base.file();
        let edits = 1 + rng.below(3);
        for _ in 0..edits {
            let at = rng.below(bytes.len());
            match rng.below(4) {
                0 => {
                    bytes.remove(at);
                }
                1 => bytes.insert(at, bytes[at]),
                2 => bytes[at] = BYTES[rng.below(BYTES.len())],
                _ => bytes.insert(at, BYTES[rng.below(BYTES.len())]),
            }
        }
        c.add(format!("random/edit-{round}"), bytes);
    }
}

// ---------------------------------------------------------------------------
// Odd ids and names, for the no-panic test
// ---------------------------------------------------------------------------

/// Ids that look like revision syntax (`HEAD`, `@`, suffixes), start like an
/// option, are empty or are not ASCII. Each still names its own entry.
pub const ODD_IDS: &[&str] = &["HEAD", "@", "-x", "e1~1", "", "日本", "HEAD~1", "e1^", "~"];

/// The tag and branch names the no-panic test's writing commands create.
/// Files whose labels already use them are in [`odd_ids`].
pub const WRITTEN_NAMES: &[&str] = &["t1", "b1", "b2", "b3"];

/// One yoagent-shaped user entry.
fn odd_user(id: &str, parent: Option<&str>, label: Option<&str>, k: u64) -> String {
    let mut entry = json!({
        "id": id,
        "parent_id": parent,
        "message": {
            "role": "user",
            "content": [{"type": "text", "text": format!("text of {id}")}],
            "timestamp": 1_760_000_000_000u64 + k,
        },
        "timestamp": 1_760_000_000_000u64 + k,
    });
    if let Some(label) = label {
        entry["label"] = json!(label);
    }
    to_line(&entry)
}

/// One of ysess's own records, hand-made.
fn odd_record(
    id: &str,
    parent: Option<&str>,
    kind: &str,
    data: Value,
    label: Option<&str>,
) -> String {
    let mut entry = json!({
        "id": id,
        "parent_id": parent,
        "message": {"role": "extension", "kind": kind, "data": data},
        "timestamp": 1_760_000_100_000u64,
    });
    if let Some(label) = label {
        entry["label"] = json!(label);
    }
    to_line(&entry)
}

/// An assistant entry that calls a tool, with token counts.
fn odd_assistant(id: &str, parent: &str, k: u64) -> String {
    to_line(&json!({
        "id": id,
        "parent_id": parent,
        "message": {
            "role": "assistant",
            "content": [
                {"type": "text", "text": format!("answer {id}")},
                {"type": "toolCall", "id": format!("call-{id}"), "name": "bash", "arguments": {"cmd": id}},
            ],
            "stopReason": "toolUse",
            "model": "m",
            "provider": "p",
            "usage": {"input": 10, "output": 2},
            "timestamp": 1_760_000_000_000u64 + k,
        },
        "timestamp": 1_760_000_000_000u64 + k,
    }))
}

/// Sessions whose ids are [`ODD_IDS`], with labels equal to ids, and labels
/// equal to the names of branches and tags created later
/// ([`WRITTEN_NAMES`]). Every one of them loads in yoagent.
pub fn odd_ids() -> Vec<Case> {
    let mut cases = Vec::new();
    let mut add = |name: String, lines: Vec<String>| {
        cases.push(Case {
            name,
            bytes: join(&lines),
            notable: false,
        });
    };

    // A chain e1 ← HEAD ← @ ← … ← ~, each entry labelled with the next odd
    // id (the last with the first): labels equal to other entries' ids.
    let mut lines = vec![odd_user("e1", None, None, 0)];
    let mut parent = "e1";
    for (k, id) in ODD_IDS.iter().enumerate() {
        let label = ODD_IDS[(k + 1) % ODD_IDS.len()];
        lines.push(odd_user(id, Some(parent), Some(label), k as u64 + 1));
        parent = id;
    }
    add("odd-ids/chain".into(), lines);

    // Every odd id a child of e1, labelled with its own id; an assistant
    // between, so that diff has turns to align.
    let mut lines = vec![odd_user("e1", None, None, 0), odd_assistant("e2", "e1", 1)];
    for (k, id) in ODD_IDS.iter().enumerate() {
        lines.push(odd_user(id, Some("e2"), Some(id), k as u64 + 2));
    }
    add("odd-ids/fan".into(), lines);

    // Each odd id as HEAD (the last line), with an older sibling labelled
    // with that id, and the odd entry labelled `e1`.
    for (k, id) in ODD_IDS.iter().enumerate() {
        add(
            format!("odd-ids/head-is/{k}"),
            vec![
                odd_user("e1", None, None, 0),
                odd_assistant("e2", "e1", 1),
                odd_user("e3", Some("e1"), Some(id), 2),
                odd_user(id, Some("e2"), Some("e1"), 3),
            ],
        );
    }

    // A label that the writing commands later try to use as a tag or branch
    // name: on an old entry, and on HEAD.
    for name in WRITTEN_NAMES {
        add(
            format!("odd-ids/label-later-named/{name}"),
            vec![
                odd_user("e1", None, None, 0),
                odd_user("e2", Some("e1"), Some(name), 1),
                odd_user("e3", Some("e2"), None, 2),
            ],
        );
        add(
            format!("odd-ids/label-later-named-on-head/{name}"),
            vec![
                odd_user("e1", None, None, 0),
                odd_user("e2", Some("e1"), Some(name), 1),
            ],
        );
    }
    add(
        "odd-ids/every-later-name-a-label".into(),
        std::iter::once(odd_user("e1", None, None, 0))
            .chain(
                WRITTEN_NAMES
                    .iter()
                    .enumerate()
                    .map(|(k, name)| odd_user(&format!("e{}", k + 2), Some("e1"), Some(name), 1)),
            )
            .collect(),
    );

    // ysess's own records, hand-made with odd names and targets: a branch
    // named like an id at an odd id, a rename to `HEAD`, a checkout of an
    // entry that is not its parent, a tag record with an empty label.
    add(
        "odd-ids/records".into(),
        vec![
            odd_user("e1", None, None, 0),
            odd_user("-x", Some("e1"), None, 1),
            odd_user("日本", Some("e1"), Some("b1"), 2),
            odd_record(
                "e4",
                Some("-x"),
                "ysess.branch",
                json!({"name": "e1~1", "target": "-x"}),
                None,
            ),
            odd_record(
                "e5",
                Some("-x"),
                "ysess.branch",
                json!({"name": "b2", "target": "-x"}),
                None,
            ),
            odd_user("e6", Some("e5"), None, 3),
            odd_record(
                "e7",
                Some("e6"),
                "ysess.branch-rename",
                json!({"from": "b2", "to": "HEAD"}),
                None,
            ),
            odd_record(
                "e8",
                Some("日本"),
                "ysess.tag",
                json!({"name": "", "target": "日本"}),
                Some(""),
            ),
            odd_record(
                "e9",
                Some("e8"),
                "ysess.checkout",
                json!({"target": "-x"}),
                None,
            ),
        ],
    );
    // A session that is only records, the first a root.
    add(
        "odd-ids/only-records".into(),
        vec![
            odd_record("e1", None, "ysess.checkout", json!({"target": "e1"}), None),
            odd_record(
                "e2",
                Some("e1"),
                "ysess.branch",
                json!({"name": "b1", "target": "e1"}),
                Some("t1"),
            ),
        ],
    );
    cases
}
