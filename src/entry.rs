//! What ysess keeps of one entry: the facts the tree index and the checks
//! need, never the message body itself (that stays in the file, by range).

use std::borrow::Cow;

/// What kind of message an entry carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum MessageKind {
    #[default]
    User,
    Assistant,
    ToolResult,
    /// An app-specific record (`{role, kind, data}`), never sent to a model.
    Custom,
}

impl MessageKind {
    /// The one name ysess gives each kind in every output: the role as it
    /// appears in the file, and `custom` for a custom message (which carries
    /// a role string of its own).
    pub fn role_name(self) -> &'static str {
        match self {
            MessageKind::User => "user",
            MessageKind::Assistant => "assistant",
            MessageKind::ToolResult => "toolResult",
            MessageKind::Custom => "custom",
        }
    }
}

/// The facts of one valid line, borrowed from the line where possible.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct LineFacts<'a> {
    pub id: Cow<'a, str>,
    pub parent: Option<Cow<'a, str>>,
    pub label: Option<Cow<'a, str>>,
    pub timestamp: u64,
    pub kind: MessageKind,
    /// The model, for assistant messages.
    pub model: Option<Cow<'a, str>>,
    /// The role string of a custom record.
    pub custom_role: Option<Cow<'a, str>>,
    /// The `kind` of a custom record.
    pub custom_kind: Option<Cow<'a, str>>,
    /// Ids of the tool calls an assistant message makes, in order.
    pub tool_calls: Vec<Cow<'a, str>>,
    /// The tool call a tool result answers.
    pub tool_result_for: Option<Cow<'a, str>>,
    /// The tool a tool result comes from.
    pub tool_name: Option<Cow<'a, str>>,
    /// One line saying what the message is about (see `Message::subject`).
    pub subject: Option<Cow<'a, str>>,
}

impl LineFacts<'_> {
    /// The same facts, owning their text.
    pub fn into_owned(self) -> LineFacts<'static> {
        let own = |c: Cow<'_, str>| Cow::Owned(c.into_owned());
        LineFacts {
            id: own(self.id),
            parent: self.parent.map(own),
            label: self.label.map(own),
            timestamp: self.timestamp,
            kind: self.kind,
            model: self.model.map(own),
            custom_role: self.custom_role.map(own),
            custom_kind: self.custom_kind.map(own),
            tool_calls: self.tool_calls.into_iter().map(own).collect(),
            tool_result_for: self.tool_result_for.map(own),
            tool_name: self.tool_name.map(own),
            subject: self.subject.map(own),
        }
    }
}

/// The number yoagent's counter reads from an id: `N` for an id `e<N>`, as
/// its loader parses it (`strip_prefix('e')`, then `u64::from_str`, which
/// takes `e01` as 1 and `e+1` as 1). yoagent's next append is `e<max+1>`.
/// This is the one rule for ids in ysess.
pub fn counter_number(id: &str) -> Option<u64> {
    id.strip_prefix('e')?.parse::<u64>().ok()
}

/// Whether an id is one yoagent's `append` makes: `e` and the number
/// written plainly (`e1`, `e42`; not `e01` or `e+1`, which its counter reads
/// but never writes).
pub fn is_counter_id(id: &str) -> bool {
    counter_number(id).is_some_and(|n| n > 0 && id[1..] == *n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_ids_reads_as_yoagent_and_writes_as_its_append() {
        assert_eq!(counter_number("e12"), Some(12));
        assert_eq!(counter_number("e01"), Some(1));
        assert_eq!(counter_number("e+3"), Some(3));
        assert_eq!(counter_number("e"), None);
        assert_eq!(counter_number("E1"), None);
        assert_eq!(counter_number("e18446744073709551616"), None);
        assert!(is_counter_id("e1") && is_counter_id("e400"));
        for odd in ["e0", "e01", "e+1", "e", "e1x", "E1", "x1"] {
            assert!(!is_counter_id(odd), "{odd}");
        }
    }
}
