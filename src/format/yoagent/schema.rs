//! The session entry shape as yoagent 0.26.6 declares it, with the same
//! serde attributes: what serde accepts here is what yoagent loads.

use std::borrow::Cow;

use serde::Deserialize;
use serde::de;
use serde_json::Value;

use crate::format::{LineFacts, MessageKind};

#[derive(Deserialize)]
pub(crate) struct SessionEntry {
    id: String,
    parent_id: Option<String>,
    message: AgentMessage,
    timestamp: u64,
    #[serde(default)]
    label: Option<String>,
}

#[derive(Deserialize)]
#[serde(untagged)]
pub(crate) enum AgentMessage {
    Llm(Message),
    Custom(CustomMessage),
}

#[derive(Deserialize)]
pub(crate) struct CustomMessage {
    role: String,
    kind: String,
    #[allow(dead_code)]
    data: Value,
}

#[derive(Deserialize)]
#[serde(tag = "role")]
pub(crate) enum Message {
    #[serde(rename = "user")]
    User {
        #[allow(dead_code)]
        content: Vec<Content>,
        #[allow(dead_code)]
        timestamp: u64,
    },
    #[serde(rename = "assistant")]
    Assistant {
        content: Vec<Content>,
        #[serde(rename = "stopReason")]
        #[allow(dead_code)]
        stop_reason: StopReason,
        model: String,
        #[allow(dead_code)]
        provider: String,
        #[allow(dead_code)]
        usage: Usage,
        #[allow(dead_code)]
        timestamp: u64,
        #[serde(rename = "errorMessage", alias = "error_message")]
        #[allow(dead_code)]
        error_message: Option<String>,
    },
    #[serde(rename = "toolResult")]
    ToolResult {
        #[serde(rename = "toolCallId")]
        tool_call_id: String,
        #[serde(rename = "toolName")]
        #[allow(dead_code)]
        tool_name: String,
        #[allow(dead_code)]
        content: Vec<Content>,
        #[serde(rename = "isError")]
        #[allow(dead_code)]
        is_error: bool,
        #[allow(dead_code)]
        timestamp: u64,
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) enum StopReason {
    Stop,
    Length,
    ToolUse,
    Error,
    Aborted,
    Refusal,
}

#[derive(Deserialize)]
#[allow(dead_code)]
pub(crate) struct Usage {
    input: u64,
    output: u64,
    #[serde(default, rename = "cacheRead", alias = "cache_read")]
    cache_read: u64,
    #[serde(default, rename = "cacheWrite", alias = "cache_write")]
    cache_write: u64,
    #[serde(default, rename = "totalTokens", alias = "total_tokens")]
    total_tokens: u64,
}

#[derive(Deserialize)]
#[serde(tag = "type")]
#[allow(dead_code)]
pub(crate) enum Content {
    #[serde(rename = "text")]
    Text { text: String },
    #[serde(rename = "image")]
    Image {
        data: String,
        #[serde(rename = "mimeType")]
        mime_type: String,
    },
    #[serde(rename = "thinking")]
    Thinking {
        thinking: String,
        signature: Option<String>,
        #[serde(default)]
        redacted: Option<String>,
        // yoagent tolerates any value here (an unknown protocol loads as
        // none), so any JSON value is accepted.
        #[serde(
            default,
            rename = "redactedProtocol",
            alias = "redacted_protocol",
            deserialize_with = "any_value"
        )]
        redacted_protocol: Option<Value>,
    },
    #[serde(rename = "toolCall")]
    ToolCall {
        id: String,
        name: String,
        arguments: Value,
        #[serde(default, rename = "providerMetadata", alias = "provider_metadata")]
        provider_metadata: Option<Value>,
    },
}

fn any_value<'de, D: de::Deserializer<'de>>(deserializer: D) -> Result<Option<Value>, D::Error> {
    Option::<Value>::deserialize(deserializer)
}

impl SessionEntry {
    pub(crate) fn into_facts(self) -> LineFacts<'static> {
        let mut facts = LineFacts {
            id: Cow::Owned(self.id),
            parent: self.parent_id.map(Cow::Owned),
            label: self.label.map(Cow::Owned),
            timestamp: self.timestamp,
            ..LineFacts::default()
        };
        match self.message {
            AgentMessage::Llm(Message::User { .. }) => facts.kind = MessageKind::User,
            AgentMessage::Llm(Message::Assistant { content, model, .. }) => {
                facts.kind = MessageKind::Assistant;
                facts.model = Some(Cow::Owned(model));
                facts.tool_calls = content
                    .into_iter()
                    .filter_map(|block| match block {
                        Content::ToolCall { id, .. } => Some(Cow::Owned(id)),
                        _ => None,
                    })
                    .collect();
            }
            AgentMessage::Llm(Message::ToolResult {
                tool_call_id,
                tool_name,
                ..
            }) => {
                facts.kind = MessageKind::ToolResult;
                facts.tool_result_for = Some(Cow::Owned(tool_call_id));
                facts.tool_name = Some(Cow::Owned(tool_name));
            }
            AgentMessage::Custom(custom) => {
                facts.kind = MessageKind::Custom;
                facts.custom_role = Some(Cow::Owned(custom.role));
                facts.custom_kind = Some(Cow::Owned(custom.kind));
            }
        }
        facts
    }
}

/// Whether a message value is one of yoagent's model messages (rather than a
/// custom record), as its untagged `AgentMessage` decides. Through the
/// untagged enum, as yoagent reads it, a tag may be a variant's index
/// (`"role":1`), which `Message` read straight from a `Value` refuses.
pub fn is_llm_message(message: &Value) -> bool {
    matches!(AgentMessage::deserialize(message), Ok(AgentMessage::Llm(_)))
}
