//! What a conversation says, taken out of each API's shape, so that what an
//! agent sends its model on resume and what `ysess export` gives can be
//! compared turn by turn. Each rule that drops or merges something the
//! agent itself does is written here once, and docs/tests.md lists
//! them.

use serde_json::Value;

/// One block of a turn, as the model reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Said {
    Text(String),
    Thinking(String),
    Call {
        id: String,
        name: String,
        input: Value,
    },
    Result {
        id: String,
        output: String,
        error: bool,
    },
}

/// A turn: who speaks, and what.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub role: String,
    pub said: Vec<Said>,
}

/// Text the agent adds to a turn for the model only: `<system-reminder>`
/// spans (its environment, the date, tokens left, its tools), wherever they
/// stand in a block, are never the session file's own words, so they are
/// taken out before comparing; a block that held nothing else is dropped.
/// One exception: Claude Code wraps a line it wrote for a background
/// task's notice (`origin.kind: task-notification`) in a reminder when it
/// resumes, so a reminder holding a `<task-notification>` is read as that
/// notice, as the file has it.
pub fn without_reminders(text: &str) -> String {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let inner_start = start + OPEN.len();
        let end = rest[inner_start..]
            .find(CLOSE)
            .map(|e| inner_start + e)
            .unwrap_or(rest.len());
        let inner = &rest[inner_start..end];
        if let (Some(a), Some(b)) = (
            inner.find("<task-notification>"),
            inner.rfind("</task-notification>"),
        ) {
            out.push_str(&inner[a..b + "</task-notification>".len()]);
        }
        rest = &rest[(end + CLOSE.len()).min(rest.len())..];
    }
    out.push_str(rest);
    out.trim().to_string()
}

fn result_text(content: &Value) -> String {
    let text = match content {
        Value::String(s) => s.clone(),
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    };
    without_reminders(&text)
}

/// A Claude Code tool by today's name: 2.1.328 sends an older session's
/// calls of its subagent tool, `Task`, as calls of `Agent`.
fn today(name: &str) -> &str {
    match name {
        "Task" => "Agent",
        other => other,
    }
}

/// Anthropic Messages (`messages` of a request, or `ysess export`'s array
/// on a Claude Code session) as turns:
/// - `system` messages (the environment Claude Code states mid-conversation)
///   and `<system-reminder>` text blocks are the agent's, not the
///   conversation's: dropped;
/// - consecutive messages of one role are one turn (Claude Code merges the
///   lines of a reply written one block a line, and the results of
///   parallel calls, into one message);
/// - thinking is compared by its text (the signature is the API's).
pub fn anthropic(messages: &[Value]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for m in messages {
        let role = m["role"].as_str().unwrap_or("").to_string();
        if role == "system" {
            continue;
        }
        let mut said = Vec::new();
        match &m["content"] {
            Value::String(s) => {
                let s = without_reminders(s);
                if !s.is_empty() {
                    said.push(Said::Text(s));
                }
            }
            Value::Array(blocks) => {
                for b in blocks {
                    match b["type"].as_str().unwrap_or("") {
                        "text" => {
                            let t = without_reminders(b["text"].as_str().unwrap_or(""));
                            if !t.is_empty() {
                                said.push(Said::Text(t));
                            }
                        }
                        "thinking" => {
                            said.push(Said::Thinking(
                                b["thinking"].as_str().unwrap_or("").to_string(),
                            ));
                        }
                        "redacted_thinking" => said.push(Said::Thinking(String::new())),
                        "tool_use" => said.push(Said::Call {
                            id: b["id"].as_str().unwrap_or("").to_string(),
                            name: today(b["name"].as_str().unwrap_or("")).to_string(),
                            input: b["input"].clone(),
                        }),
                        "tool_result" => said.push(Said::Result {
                            id: b["tool_use_id"].as_str().unwrap_or("").to_string(),
                            output: result_text(&b["content"]),
                            error: b["is_error"].as_bool().unwrap_or(false),
                        }),
                        other => said.push(Said::Text(format!("<{other} block>"))),
                    }
                }
            }
            _ => {}
        }
        push_turn(&mut turns, role, said);
    }
    turns
}

/// OpenAI Responses `input` items (a Codex request, or `ysess export`'s
/// array on a Codex rollout) as turns:
/// - `developer` messages and the context Codex injects as user messages
///   (`<environment_context>`, `<user_instructions>`, `# AGENTS.md`,
///   `<permissions instructions>`) are the agent's: dropped;
/// - reasoning is compared by its summary;
/// - consecutive items of one role are one turn.
pub fn responses(items: &[Value]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for it in items {
        let (role, said) = match it["type"].as_str().unwrap_or("") {
            "message" => {
                let role = it["role"].as_str().unwrap_or("").to_string();
                if role == "developer" || role == "system" {
                    continue;
                }
                let mut said = Vec::new();
                for c in it["content"].as_array().into_iter().flatten() {
                    let t = c["text"].as_str().unwrap_or("");
                    if codex_injected(t) {
                        continue;
                    }
                    said.push(Said::Text(t.to_string()));
                }
                (role, said)
            }
            "reasoning" => {
                let text = it["summary"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|s| s["text"].as_str())
                    .collect::<Vec<_>>()
                    .join("\n");
                ("assistant".to_string(), vec![Said::Thinking(text)])
            }
            "function_call" | "custom_tool_call" => {
                let args = it["arguments"]
                    .as_str()
                    .or(it["input"].as_str())
                    .unwrap_or("");
                let input = serde_json::from_str(args).unwrap_or(Value::String(args.to_string()));
                (
                    "assistant".to_string(),
                    vec![Said::Call {
                        id: it["call_id"].as_str().unwrap_or("").to_string(),
                        name: it["name"].as_str().unwrap_or("").to_string(),
                        input,
                    }],
                )
            }
            "function_call_output" | "custom_tool_call_output" => {
                let output = match &it["output"] {
                    Value::String(s) => s.clone(),
                    Value::Object(o) => o
                        .get("content")
                        .and_then(Value::as_str)
                        .unwrap_or("")
                        .to_string(),
                    other => result_text(other),
                };
                (
                    "tool".to_string(),
                    vec![Said::Result {
                        id: it["call_id"].as_str().unwrap_or("").to_string(),
                        output,
                        error: false,
                    }],
                )
            }
            _ => continue,
        };
        push_turn(&mut turns, role, said);
    }
    turns
}

fn codex_injected(text: &str) -> bool {
    let t = text.trim_start();
    [
        "<environment_context>",
        "<user_instructions>",
        "# AGENTS.md instructions",
        "<permissions instructions>",
        "<skills_instructions>",
        "<apps_instructions>",
    ]
    .iter()
    .any(|p| t.starts_with(p))
}

/// A tool's output as a GenAI `functionResponse.response` holds it: its
/// `output` (Gemini CLI and Qwen Code write `{output}`), or its `error`, or
/// the whole object.
fn genai_output(response: &Value) -> String {
    match (&response["output"], &response["error"]) {
        (Value::String(s), _) | (_, Value::String(s)) => s.clone(),
        _ => response.to_string(),
    }
}

/// A call's id as Gemini CLI sends it: it keeps a call's id as
/// `<tool>__<id>` (in its file too) and takes the `<tool>__` off before
/// the request (`stripToolCallIdPrefixes`), so the id is compared without
/// it.
fn call_id(id: &str, name: &str) -> String {
    id.strip_prefix(&format!("{name}__"))
        .unwrap_or(id)
        .to_string()
}

/// A result the tool's turn already holds, word for word. This rule
/// makes the comparison weaker than the others, on purpose: Gemini CLI
/// 0.61.0 sends a call's result more than once when it resumes. Its file
/// keeps the result twice (in the reply's `toolCalls[].result` and in the
/// `user` line of the `functionResponse` after it), and
/// `convertSessionToClientHistory` makes a content of each (the first as
/// `<reply id>_response`): the model gets it twice. A run that resumes the
/// file writes its history back (a `$set` of `messages`), the
/// `<reply id>_response` content included, so once the file has been
/// resumed after the call the model gets it three times. `ysess export`
/// gives the result once; the copies are compared as one.
fn repeated_result(turns: &[Turn], said: &Said) -> bool {
    turns
        .last()
        .is_some_and(|t| t.role == "tool" && t.said.contains(said))
}

/// Gemini CLI's context for the model: the `<session_context>` message it
/// puts first in every conversation (the date, the system, the folders),
/// written anew at each start and left out of what it resumes of a file.
fn gemini_injected(text: &str) -> bool {
    text.trim_start().starts_with("<session_context>")
}

/// GenAI contents (`{role: user|model, parts}`: a Gemini CLI request, or
/// `ysess export`'s array on a Gemini CLI or Qwen Code session) as turns:
/// - a `model` content is the assistant's; `functionResponse` parts are
///   the `tool`'s turn (as chat completions' `tool` messages are);
/// - `thought` parts are thinking, compared by their text;
/// - `<system-reminder>` spans and Gemini CLI's `<session_context>` are
///   the agent's: dropped;
/// - consecutive contents of one role are one turn (Gemini CLI sends its
///   context and the first prompt as one content).
pub fn genai(contents: &[Value]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for c in contents {
        let role = match c["role"].as_str().unwrap_or("") {
            "model" => "assistant",
            other => other,
        };
        for p in c["parts"].as_array().into_iter().flatten() {
            let (role, said) = if let Some(call) = p.get("functionCall") {
                let name = call["name"].as_str().unwrap_or("");
                let said = Said::Call {
                    id: call_id(call["id"].as_str().unwrap_or(""), name),
                    name: name.to_string(),
                    input: call["args"].clone(),
                };
                ("assistant", said)
            } else if let Some(response) = p.get("functionResponse") {
                let name = response["name"].as_str().unwrap_or("");
                let said = Said::Result {
                    id: call_id(response["id"].as_str().unwrap_or(""), name),
                    output: without_reminders(&genai_output(&response["response"])),
                    error: false,
                };
                if repeated_result(&turns, &said) {
                    continue;
                }
                ("tool", said)
            } else if let Some(text) = p["text"].as_str() {
                if p["thought"].as_bool() == Some(true) {
                    (role, Said::Thinking(text.to_string()))
                } else {
                    if gemini_injected(text) {
                        continue;
                    }
                    let text = without_reminders(text);
                    if text.is_empty() {
                        continue;
                    }
                    (role, Said::Text(text))
                }
            } else {
                // Files, images and other data parts, by their kind.
                let kind = p
                    .as_object()
                    .and_then(|o| o.keys().find(|k| *k != "thoughtSignature"))
                    .cloned()
                    .unwrap_or_default();
                (role, Said::Text(format!("<{kind} part>")))
            };
            push_turn(&mut turns, role.to_string(), vec![said]);
        }
    }
    turns
}

/// Copilot CLI's prefix of every prompt it sends (its `transformedContent`
/// in the file): `<current_datetime>…</current_datetime>` and a blank
/// line, the time the prompt was sent, for the model only.
fn without_datetime(text: &str) -> &str {
    const CLOSE: &str = "</current_datetime>";
    match (
        text.trim_start().strip_prefix("<current_datetime>"),
        text.find(CLOSE),
    ) {
        (Some(_), Some(end)) => &text[end + CLOSE.len()..],
        _ => text,
    }
}

/// A chat message's `content`: a string, or text parts.
fn chat_texts(content: &Value) -> Vec<String> {
    match content {
        Value::String(s) => vec![s.clone()],
        Value::Array(parts) => parts
            .iter()
            .map(|p| match p["type"].as_str() {
                Some("text") | None => p["text"].as_str().unwrap_or("").to_string(),
                Some(other) => format!("<{other} part>"),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// OpenAI chat completions messages (a Qwen Code or Copilot CLI request, or
/// `ysess export`'s array on a Copilot CLI session) as turns:
/// - `system` and `developer` messages are the agent's: dropped;
/// - an assistant's `reasoning_content` is its thinking, then its text,
///   then its `tool_calls` (their `arguments` read as JSON);
/// - `<system-reminder>` spans (Qwen Code's skills and date) and Copilot
///   CLI's `<current_datetime>` prefix are the agent's: dropped;
/// - consecutive messages of one role are one turn.
pub fn chat(messages: &[Value]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    for m in messages {
        let role = m["role"].as_str().unwrap_or("").to_string();
        let mut said = Vec::new();
        match role.as_str() {
            "system" | "developer" => continue,
            "tool" => said.push(Said::Result {
                id: m["tool_call_id"].as_str().unwrap_or("").to_string(),
                output: without_reminders(&chat_texts(&m["content"]).join("\n")),
                error: false,
            }),
            _ => {
                if let Some(r) = m["reasoning_content"].as_str().filter(|r| !r.is_empty()) {
                    said.push(Said::Thinking(r.to_string()));
                }
                for t in chat_texts(&m["content"]) {
                    let t = without_reminders(without_datetime(&t));
                    if !t.is_empty() {
                        said.push(Said::Text(t));
                    }
                }
                for call in m["tool_calls"].as_array().into_iter().flatten() {
                    let f = &call["function"];
                    let input = match &f["arguments"] {
                        Value::String(args) => serde_json::from_str(args)
                            .unwrap_or_else(|_| Value::String(args.clone())),
                        other => other.clone(),
                    };
                    said.push(Said::Call {
                        id: call["id"].as_str().unwrap_or("").to_string(),
                        name: f["name"].as_str().unwrap_or("").to_string(),
                        input,
                    });
                }
            }
        }
        push_turn(&mut turns, role, said);
    }
    turns
}

/// `said` as the next turn, or as more of the last when its role speaks
/// again (nothing when it says nothing).
fn push_turn(turns: &mut Vec<Turn>, role: String, said: Vec<Said>) {
    if said.is_empty() {
        return;
    }
    match turns.last_mut() {
        Some(last) if last.role == role => last.said.extend(said),
        _ => turns.push(Turn { role, said }),
    }
}

/// The two conversations side by side, from the first turn they differ.
pub fn difference(agent: &[Turn], ysess: &[Turn]) -> Option<String> {
    if agent == ysess {
        return None;
    }
    let first = agent
        .iter()
        .zip(ysess)
        .position(|(a, b)| a != b)
        .unwrap_or(agent.len().min(ysess.len()));
    // Each turn on a line, a long one cut (the block that differs follows
    // whole).
    let show = |turns: &[Turn]| {
        turns
            .iter()
            .enumerate()
            .skip(first.saturating_sub(1))
            .take(4)
            .map(|(i, t)| {
                let said = format!("{:?}", t.said);
                let cut = said
                    .char_indices()
                    .nth(400)
                    .map_or(said.as_str(), |(at, _)| &said[..at]);
                let more = if cut.len() < said.len() { "…" } else { "" };
                format!("  [{i}] {} {cut}{more}", t.role)
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    // The first block that differs, whole.
    let block = match (agent.get(first), ysess.get(first)) {
        (Some(a), Some(b)) => a
            .said
            .iter()
            .zip(&b.said)
            .find(|(x, y)| x != y)
            .map(|(x, y)| format!("\n--- first block that differs\nagent: {x:?}\nysess: {y:?}"))
            .unwrap_or_else(|| {
                format!(
                    "\n--- the agent's turn has {} blocks, ysess's {}; the rest:\nagent: {:?}\nysess: {:?}",
                    a.said.len(),
                    b.said.len(),
                    &a.said[a.said.len().min(b.said.len())..],
                    &b.said[a.said.len().min(b.said.len())..]
                )
            }),
        _ => String::new(),
    };
    Some(format!(
        "the agent resumed {} turns, ysess exported {}; first difference at turn {first}\n\
         --- the agent sent\n{}\n--- ysess exported\n{}{block}",
        agent.len(),
        ysess.len(),
        show(agent),
        show(ysess)
    ))
}

/// Markup of Claude Code's that a person should never see raw.
pub const RAW_MARKUP: &[&str] = &[
    "<command-name>",
    "<command-message>",
    "<local-command-stdout>",
    "<local-command-caveat>",
    "<bash-input>",
    "<bash-stdout>",
    "<task-notification>",
    "<system-reminder>",
    "<environment_context>",
];

/// The first raw markup or full-length id in a human output, if any.
pub fn raw_markup_or_long_id(output: &str) -> Option<String> {
    for m in RAW_MARKUP {
        if let Some(at) = output.find(m) {
            return Some(format!("raw markup {m}: …{}…", excerpt(output, at)));
        }
    }
    long_id(output)
}

/// The first full-length id in a human output, if any.
pub fn long_id(output: &str) -> Option<String> {
    // A UUID (8-4-4-4-12 hex digits) printed whole, not as part of a file's
    // name (Claude Code and Codex name session files by their ids).
    let uuid =
        regex::Regex::new(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")
            .expect("a valid pattern");
    uuid.find_iter(output)
        .find(|m| {
            let before = &output[..m.start()];
            let after = &output[m.end()..];
            // (Gemini CLI names a subagent's calls by its session:
            // `<id>#0-0`, a call's id, not an entry's.)
            let in_a_name = before.ends_with('/')
                || before.ends_with('-')
                || after.starts_with(".jsonl")
                || after.starts_with('/')
                || after.starts_with('#');
            !in_a_name
        })
        .map(|m| format!("a long id {}: …{}…", m.as_str(), excerpt(output, m.start())))
}

fn excerpt(s: &str, at: usize) -> String {
    let mut start = at.saturating_sub(60);
    while !s.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (at + 80).min(s.len());
    while !s.is_char_boundary(end) {
        end += 1;
    }
    s[start..end].to_string()
}
