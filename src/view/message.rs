//! An entry's body, as every view draws it: its blocks read once into
//! [`Part`]s (text, thinking, a tool call, a tool's output, an image,
//! markup as what it means, a custom record's data, a model's error), in
//! the order a reader meets them, with what the views decide by (the
//! message's kind, the call a tool result answers and whether it failed)
//! computed here. `show`, the Markdown transcript, the page and the TUI's
//! chat each draw this one model their own way. Text here is as stored; a
//! view escapes it when it draws it.

use serde_json::Value;

use crate::format::MessageKind;
use crate::format::message::{Block, Entry, Look, Message};

/// What an entry says, in parts.
#[derive(Debug, Clone, PartialEq)]
pub struct Body<'a> {
    /// User, assistant, tool result or custom.
    pub kind: MessageKind,
    /// For a tool result, the call it answers.
    pub answer: Option<Answer<'a>>,
    /// Its parts, in order: a custom record that says nothing in words is
    /// its [`Part::Data`] alone; a model's error comes after its blocks.
    pub parts: Vec<Part<'a>>,
}

/// The call a tool result answers, and how it went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Answer<'a> {
    /// The call's id.
    pub call: &'a str,
    /// The tool (empty when the file does not say).
    pub tool: &'a str,
    /// The tool reported an error.
    pub error: bool,
}

/// One part of a body.
#[derive(Debug, Clone, PartialEq)]
pub enum Part<'a> {
    /// Words (a user's, a model's, or what a custom record says).
    Text(&'a str),
    /// The model's reasoning.
    Thinking {
        /// Its text (empty when redacted).
        text: &'a str,
        /// Encrypted reasoning the provider returned instead of text.
        redacted: bool,
    },
    /// A call of a tool.
    ToolCall {
        /// The call's id, which its result names.
        id: &'a str,
        /// The tool.
        name: &'a str,
        /// Its arguments, as given.
        arguments: &'a Value,
    },
    /// A text block of a tool result: what the tool said.
    Output {
        /// The text.
        text: &'a str,
        /// The tool reported an error.
        error: bool,
    },
    /// An image.
    Image {
        /// `image/png`, …
        mime_type: &'a str,
        /// Bytes of decoded image data.
        bytes: usize,
        /// Its base64 data, when the file holds it as plain base64.
        data: Option<&'a str>,
    },
    /// An agent's markup, as what it means.
    Markup(Vec<Said<'a>>),
    /// A custom record's data, as stored.
    Data(&'a Value),
    /// The provider's error, when a model call failed.
    Error(&'a str),
}

/// A piece of an agent's markup as a view draws it
/// ([`crate::format::markup::Piece::shown`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Said<'a> {
    /// How it looks.
    pub look: Look,
    /// The one-line label a view puts above it (empty for words; the
    /// command itself for a command).
    pub label: String,
    /// Its text (empty for a command).
    pub text: &'a str,
}

impl<'a> Body<'a> {
    /// The body of `entry`.
    pub fn of(entry: &'a Entry) -> Body<'a> {
        let message = &entry.message;
        let answer = match message {
            Message::ToolResult {
                tool_call_id,
                tool_name,
                is_error,
                ..
            } => Some(Answer {
                call: tool_call_id,
                tool: tool_name,
                error: *is_error,
            }),
            _ => None,
        };
        let mut images = image_data(&entry.message_value);
        let mut parts: Vec<Part<'a>> = message
            .content()
            .iter()
            .map(|block| match block {
                Block::Text(text) => match answer {
                    Some(answer) => Part::Output {
                        text,
                        error: answer.error,
                    },
                    None => Part::Text(text),
                },
                Block::Thinking { text, redacted } => Part::Thinking {
                    text,
                    redacted: *redacted,
                },
                Block::ToolCall {
                    id,
                    name,
                    arguments,
                } => Part::ToolCall {
                    id,
                    name,
                    arguments,
                },
                Block::Image { mime_type, bytes } => Part::Image {
                    mime_type,
                    bytes: *bytes,
                    data: images.next().flatten(),
                },
                Block::Markup { pieces, .. } => Part::Markup(
                    pieces
                        .iter()
                        .map(|piece| {
                            let (look, label, text) = piece.shown();
                            Said { look, label, text }
                        })
                        .collect(),
                ),
            })
            .collect();
        match message {
            Message::Custom { data, said, .. } if said.is_empty() => parts.push(Part::Data(data)),
            Message::Assistant {
                error_message: Some(error),
                ..
            } => parts.push(Part::Error(error)),
            _ => {}
        }
        Body {
            kind: message.kind(),
            answer,
            parts,
        }
    }

    /// A tool result's text, its blocks joined by newlines (empty when it
    /// has none).
    pub fn output(&self) -> String {
        let texts: Vec<&str> = self
            .parts
            .iter()
            .filter_map(|part| match part {
                Part::Output { text, .. } => Some(*text),
                _ => None,
            })
            .collect();
        texts.join("\n")
    }

    /// It is a tool result that reported an error.
    pub fn failed(&self) -> bool {
        self.answer.is_some_and(|answer| answer.error)
    }
}

/// The base64 data of each image block of a message, in block order:
/// yoagent's and pi's `data`, Claude Code's `source.data`. `None` for an
/// image whose data is missing or not plain base64.
fn image_data(message: &Value) -> impl Iterator<Item = Option<&str>> {
    message
        .get("content")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("image"))
        .map(|b| {
            b.get("data")
                .or_else(|| b.get("source").and_then(|s| s.get("data")))
                .and_then(Value::as_str)
                .filter(|d| is_base64(d))
        })
}

fn is_base64(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body_of(line: &str) -> Entry {
        Entry::parse(line.as_bytes()).expect("parses")
    }

    #[test]
    fn a_tool_results_text_is_its_output_and_says_whether_it_failed() {
        let entry = body_of(
            r#"{"id":"e3","parent_id":"e2","timestamp":5,"message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"a"},{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"},{"type":"text","text":"b"}],"isError":true,"timestamp":5}}"#,
        );
        let body = Body::of(&entry);
        assert_eq!(
            body.answer,
            Some(Answer {
                call: "c1",
                tool: "bash",
                error: true
            })
        );
        assert!(body.failed());
        assert_eq!(body.output(), "a\nb");
        assert!(matches!(
            body.parts[1],
            Part::Image {
                data: Some("iVBORw0KGgo="),
                ..
            }
        ));
        assert_eq!(
            body.parts[2],
            Part::Output {
                text: "b",
                error: true
            }
        );
    }

    #[test]
    fn a_models_error_comes_after_its_blocks_and_a_record_is_its_data() {
        let entry = body_of(
            r#"{"id":"e2","parent_id":"e1","timestamp":5,"message":{"role":"assistant","content":[{"type":"text","text":"hi"}],"stopReason":"error","model":"m","provider":"p","usage":{"input":1,"output":2},"errorMessage":"overloaded","timestamp":5}}"#,
        );
        let body = Body::of(&entry);
        assert_eq!(body.parts, [Part::Text("hi"), Part::Error("overloaded")]);
        assert!(!body.failed());
        let entry = body_of(
            r#"{"id":"e1","timestamp":5,"message":{"role":"user","kind":"note","data":{"a":1}}}"#,
        );
        let body = Body::of(&entry);
        assert_eq!(body.kind, MessageKind::Custom);
        assert!(matches!(body.parts[..], [Part::Data(_)]));
    }

    #[test]
    fn only_plain_base64_is_image_data() {
        assert!(is_base64("iVBORw0KGgo="));
        assert!(!is_base64("abc\"><script>"));
        assert!(!is_base64(""));
    }
}
