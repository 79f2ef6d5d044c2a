//! Sessions made with yoagent's own `Session` API, for the tests of the
//! commands that read them, built from the pieces of the session generator
//! the benches use (`tests/gen/`): small hand-written ones with fixed times,
//! random ones (a seeded [`Rng`] picks the shape) with many forks and
//! repeated labels, and the benches' large one ([`generate_jsonl`]).

use serde_json::json;
use yoagent::types::{Content, CustomMessage, Message, StopReason, Usage};
use yoagent::{AgentMessage, Session, SessionEntry};

#[path = "../gen/mod.rs"]
mod generator;

pub use generator::{
    DEFAULT_SEED, Rng, assistant_at, custom, generate_jsonl, jsonl_at, tool_result_at, user_at,
};

/// 2025-10-09 08:53:20 UTC, in milliseconds: the first entry's time.
pub const T0: u64 = 1_760_000_000_000;

/// Entries are this far apart in saved files: 1 minute 1 second.
pub const STEP: u64 = 61_000;

/// What `std::fs::write(path, session.to_jsonl())` saves, except that the
/// entry on line `i` (0-based) has the time `T0 + i * STEP` instead of the
/// real clock's, so that what ysess prints is the same on every run.
pub fn saved(session: &Session) -> String {
    jsonl_at(session, |i| T0 + i as u64 * STEP)
}

/// The session as an app would load it back: the head is the last line.
pub fn reload(text: &str) -> Session {
    Session::from_jsonl(text).expect("yoagent loads it")
}

pub fn user(text: &str) -> AgentMessage {
    user_at(text, None, 1).into()
}

/// A user turn with a text and an image (16 bytes of PNG, base64).
pub fn user_with_image(text: &str) -> AgentMessage {
    user_at(text, Some("iVBORw0KGgoAAAANSUhEUg==".into()), 1).into()
}

pub fn assistant(text: &str) -> AgentMessage {
    let content = vec![Content::Text { text: text.into() }];
    assistant_at(content, StopReason::Stop, "m", "p", Usage::default(), 2).into()
}

/// An assistant turn that thinks, says something and calls a tool.
pub fn assistant_call(thinking: &str, text: &str, call: &str, tool: &str) -> AgentMessage {
    let content = vec![
        Content::thinking(thinking),
        Content::Text { text: text.into() },
        Content::tool_call(call, tool, json!({"command": "cargo test", "timeout": 60})),
    ];
    let usage = Usage {
        input: 1200,
        output: 80,
        cache_read: 1000,
        cache_write: 7,
        total_tokens: 2287,
    };
    assistant_at(content, StopReason::ToolUse, "m", "p", usage, 3).into()
}

pub fn tool_result(call: &str, tool: &str, text: &str, is_error: bool) -> AgentMessage {
    tool_result_at(call, tool, text, is_error, 4).into()
}

/// Label names drawn from a small pool, so that names repeat.
const LABELS: &[&str] = &["draft", "plan", "retry", "good", "cp-1", "cp-2", "wip"];

/// A random session of about `entries` entries (at least 1), built the way an
/// app builds one: turns of user, assistant (sometimes with a tool call
/// answered by a tool result) and custom records; rewinds with `seek` to any
/// earlier entry and with `seek_checkpoint` to a label, then carrying on
/// from there (a fork); checkpoints with names that repeat. Returned as the
/// app left it in memory (the head may be where it last sought to).
pub fn random_session(seed: u64, entries: usize) -> Session {
    let mut rng = Rng::new(seed);
    let mut s = Session::new();
    let mut call = 0;
    // Some sessions fork a lot, some little (per mille).
    let fork_rate = (2 + rng.below(25)) * 10;
    while s.entries().len() < entries.max(1) {
        match rng.below(10) {
            0..=3 => {
                s.append(user(&format!("question {}", s.entries().len() + 1)));
            }
            4..=6 => {
                s.append(assistant(&format!("answer {}", s.entries().len() + 1)));
            }
            7 | 8 => {
                call += 1;
                let id = format!("call_{call}");
                s.append(assistant_call("hmm", "let me run it", &id, "bash"));
                if rng.chance(900) {
                    s.append(tool_result(&id, "bash", "ok", rng.chance(100)));
                }
            }
            _ => {
                s.append(custom("status_update", json!({"n": s.entries().len()})));
            }
        }
        if rng.chance(fork_rate) {
            // (A checkpoint on an entry replaces its label, so the names in
            // use are read back from the entries.)
            let in_use = labels(&s);
            if !in_use.is_empty() && rng.chance(300) {
                let name = &in_use[rng.below(in_use.len())];
                s.seek_checkpoint(name).expect("a known label");
            } else {
                let all = s.entries();
                // Mostly recent entries, sometimes any.
                let k = if rng.chance(500) {
                    all.len() - 1 - rng.below(all.len().min(8))
                } else {
                    rng.below(all.len())
                };
                let id = all[k].id.clone();
                s.seek(&id).expect("a known id");
            }
        }
        if rng.chance(120) {
            let name = LABELS[rng.below(LABELS.len())];
            s.checkpoint(name).expect("a head");
        }
    }
    s
}

/// The session the transcripts show, as yoagent writes it:
///
/// ```text
/// e1 user (with an image)
/// └ e2 assistant                 first-draft
///   ├ e3 user                    review (shadowed by e9's)
///   │ └ e4 assistant: thinking, text, tool call call_1
///   │   └ e5 toolResult, an error
///   ├ e6 user                    (a fork: seek e2)
///   │ ├ e7 assistant
///   │ └ e8 user                  (a fork of the fork: seek e6)
///   └ e9 user                    review (a third child of e2)
///     └ e10 custom status_update  HEAD
/// ```
pub fn demo() -> Session {
    let mut s = Session::new();
    s.append(user_with_image(
        "Plan a JSON parser\nwith a tokenizer first",
    ));
    s.append(assistant("Plan: tokenizer, then parser"));
    s.checkpoint("first-draft").expect("a head");
    s.append(user("Write the tokenizer"));
    s.checkpoint("review").expect("a head");
    s.append(assistant_call(
        "Tokens first.\nThen the grammar.",
        "Running the tests",
        "call_1",
        "bash",
    ));
    s.append(tool_result(
        "call_1",
        "bash",
        "1 test failed\nat src/lex.rs:3",
        true,
    ));
    s.seek("e2").expect("e2");
    s.append(user("Stream it instead"));
    s.append(assistant("A streaming plan"));
    s.seek("e6").expect("e6");
    s.append(user("Smaller steps, please"));
    s.seek("e2").expect("e2");
    s.append(user("Or use serde_json?"));
    s.checkpoint("review").expect("a head");
    s.append(custom(
        "status_update",
        json!({"tokens": 1234, "phase": "idle"}),
    ));
    s
}

/// A few random sessions of every size up to a few hundred entries: `(seed,
/// the saved file, the session as yoagent loads that file back)`.
pub fn corpus() -> Vec<(u64, String, Session)> {
    (0..30u64)
        .map(|seed| {
            let entries = match seed {
                0 => 1,
                1 => 2,
                s => 1 + (s as usize * 89) % 320,
            };
            let text = saved(&random_session(seed, entries));
            let loaded = reload(&text);
            (seed, text, loaded)
        })
        .collect()
}

/// The root→head path yoagent gives after `seek(id)`.
pub fn path_to(session: &Session, id: &str) -> Vec<String> {
    let mut s = session.clone();
    s.seek(id).expect("a known id");
    s.path_ids()
}

/// The entry yoagent's `seek_checkpoint(label)` goes to.
pub fn checkpoint_target(session: &Session, label: &str) -> String {
    let mut s = session.clone();
    s.seek_checkpoint(label).expect("a known label");
    s.head().expect("a head").to_string()
}

/// Distinct labels in file order of their first use.
pub fn labels(session: &Session) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for e in session.entries() {
        if let Some(l) = &e.label
            && !names.contains(l)
        {
            names.push(l.clone());
        }
    }
    names
}

/// Text that must never reach a terminal raw: an escape sequence that clears
/// the screen, a C1 control (CSI), a right-to-left override, a NUL.
pub const HOSTILE: &str = "\u{1b}[2J\u{9b}\u{202e}\u{0}";

/// [`HOSTILE`] as ysess shows it to a person.
pub const HOSTILE_SHOWN: &str = "\\u{1b}[2J\\u{9b}\\u{202e}\\u{0}";

/// A session, written by yoagent, whose ids, labels and message text all
/// carry [`HOSTILE`] (written as `H`):
///
/// ```text
/// e1 user "hiH\nsecondH"
/// ├ xH assistant: thinking, text, tool call, error message   label LH (shadowed)
/// │ └ e3 toolResult, an error, with an image                 label LH
/// └ yH custom record (role, kind and data hostile)           label MH, HEAD
/// ```
pub fn hostile() -> String {
    let h = HOSTILE;
    let mut s = Session::new();
    s.append(user(&format!("hi{h}\nsecond{h}")));
    s.append(
        Message::assistant(
            vec![
                Content::thinking(format!("think{h}")),
                Content::Text {
                    text: format!("say{h}"),
                },
                Content::tool_call(
                    format!("c{h}"),
                    format!("n{h}"),
                    json!({ format!("k{h}"): format!("v{h}") }),
                ),
            ],
            StopReason::Error,
            format!("m{h}"),
            format!("p{h}"),
            Usage::default(),
        )
        .with_error_message(format!("err{h}"))
        .with_timestamp(2)
        .into(),
    );
    s.checkpoint(format!("L{h}")).expect("a head");
    s.append(
        Message::ToolResult {
            tool_call_id: format!("c{h}"),
            tool_name: format!("n{h}"),
            content: vec![
                Content::Text {
                    text: format!("out{h}"),
                },
                Content::Image {
                    data: "AAAA".into(),
                    mime_type: format!("image/{h}"),
                },
            ],
            is_error: true,
            timestamp: 3,
        }
        .into(),
    );
    s.checkpoint(format!("L{h}")).expect("a head");
    s.seek("e1").expect("e1");
    let mut record =
        CustomMessage::new(format!("k{h}"), json!({ format!("d{h}"): format!("v{h}") }));
    record.role = format!("r{h}");
    s.append(AgentMessage::Custom(record));
    s.checkpoint(format!("M{h}")).expect("a head");
    // yoagent's ids are its own; other writers' are any string.
    let rename = |id: String| match id.as_str() {
        "e2" => format!("x{h}"),
        "e4" => format!("y{h}"),
        _ => id,
    };
    let text = saved(&s)
        .split('\n')
        .map(|line| {
            let mut entry: SessionEntry =
                serde_json::from_str(line).expect("yoagent reads its own");
            entry.id = rename(entry.id);
            entry.parent_id = entry.parent_id.map(rename);
            serde_json::to_string(&entry).expect("entries serialize")
        })
        .collect::<Vec<_>>()
        .join("\n");
    reload(&text);
    text
}

/// True for what must not reach a terminal raw: controls other than a line
/// break or tab, and the bidirectional overrides and marks.
pub fn is_hazard(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Asserts that nothing in what a run printed is a terminal hazard.
#[track_caller]
pub fn assert_terminal_safe(run: &crate::support::Run) {
    let what = format!("`ysess {}`", run.args.join(" ").escape_debug());
    assert_safe_text(&format!("{what}: stdout"), &run.stdout);
    assert_safe_text(&format!("{what}: stderr"), &run.stderr);
}

#[track_caller]
pub fn assert_safe_text(what: &str, text: &str) {
    if let Some(c) = text.chars().find(|&c| is_hazard(c)) {
        // Shown with {:?} so that the failure itself is safe to print.
        panic!("{what} holds {c:?} raw:\n{text:?}");
    }
}

/// The text without ysess's own colours (`ESC [ digits and ; m`).
pub fn without_colours(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\u{1b}[") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        let params = after
            .find(|c: char| !(c.is_ascii_digit() || c == ';'))
            .unwrap_or(after.len());
        if after[params..].starts_with('m') {
            rest = &after[params + 1..];
        } else {
            out.push('\u{1b}');
            rest = &rest[at + 1..];
        }
    }
    out.push_str(rest);
    out
}

/// A tree as other writers may make one: ids that are not yoagent's, parents
/// picked anywhere earlier (wide, bushy trees), several roots. Saved as
/// JSONL and loaded back by yoagent.
pub fn random_tree(seed: u64, entries: usize) -> (String, Session) {
    let mut rng = Rng::new(seed);
    let mut lines = Vec::new();
    for i in 0..entries {
        let parent = if i == 0 || rng.chance(40) {
            None
        } else if rng.chance(500) {
            Some(format!("n{}", i - 1))
        } else {
            Some(format!("n{}", rng.below(i)))
        };
        let entry = json!({
            "id": format!("n{i}"),
            "parent_id": parent,
            "message": {"role": "user", "content": [{"type": "text", "text": format!("text {i}")}], "timestamp": 1},
            "timestamp": T0 + i as u64,
        });
        lines.push(entry.to_string());
    }
    let text = lines.join("\n");
    let session = reload(&text);
    (text, session)
}

/// A number as written in the file, read without going through f64.
#[derive(serde::Deserialize)]
pub struct Numbers {
    message: NumbersRecord,
}

#[derive(serde::Deserialize)]
struct NumbersRecord {
    data: NumbersData,
}

#[derive(serde::Deserialize)]
struct NumbersData {
    big: Box<serde_json::value::RawValue>,
    small: Box<serde_json::value::RawValue>,
}

impl Numbers {
    /// `data.big` and `data.small` as written.
    pub fn of(json: &str) -> (String, String) {
        let n: Numbers = serde_json::from_str(json.trim_end()).expect("JSON");
        (
            n.message.data.big.get().to_string(),
            n.message.data.small.get().to_string(),
        )
    }
}

/// A custom record with numbers serde_json cannot hold exactly in a
/// `Value` (beyond u64, and `1e3`), and `extra` in its data.
pub fn numbers_line(extra: &str) -> String {
    format!(
        "{{\"id\":\"e1\",\"parent_id\":null,\"message\":{{\"role\":\"extension\",\"kind\":\"k\",\
         \"data\":{{\"big\":123456789012345678901234567890,\"small\":1e3,\"text\":\"{extra}\"}}}},\"timestamp\":1}}"
    )
}
