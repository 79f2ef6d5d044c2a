//! What Claude Code sends its model when it resumes at the end of a path.
//!
//! Measured with Claude Code 2.1.328 itself (the agent tests): a path
//! without a compaction is sent whole; after a compaction (a `system` line
//! with `subtype: compact_boundary`, `/compact` or the automatic one after a
//! prompt grew too long), only what follows the last boundary on the path
//! is sent, starting at the compaction's summary, with the messages the
//! compaction kept verbatim (`compactMetadata.preservedMessages`, or the
//! range `preservedSegment.headUuid..=tailUuid` in older files) put back
//! right after the summary (`anchorUuid`). The history before the boundary
//! stays in the file and in ysess's tree. The app's own error replies
//! (`isApiErrorMessage`, "Prompt is too long") are never sent.

use std::borrow::Cow;

use serde_json::Value;

/// What resuming needs of a line; the rest of it (the message) is skipped
/// unread.
#[derive(Default, serde::Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    subtype: Option<Cow<'a, str>>,
    #[serde(default, borrow)]
    uuid: Option<Cow<'a, str>>,
    #[serde(rename = "isApiErrorMessage", default)]
    api_error: Option<Value>,
    #[serde(rename = "compactMetadata", default)]
    compact: Option<Value>,
}

/// The positions in `path` (the lines of the entries root→REV, root first)
/// of the entries Claude Code resumes. A line that is not JSON is kept.
pub fn resumed(path: &[&[u8]]) -> Vec<usize> {
    let lines: Vec<Line<'_>> = path
        .iter()
        .map(|l| serde_json::from_slice(l).unwrap_or_default())
        .collect();
    let sent = |i: &usize| lines[*i].api_error != Some(Value::Bool(true));
    let boundary = lines.iter().rposition(|l| {
        l.kind.as_deref() == Some("system") && l.subtype.as_deref() == Some("compact_boundary")
    });
    let Some(boundary) = boundary else {
        return (0..path.len()).filter(sent).collect();
    };
    let meta = lines[boundary].compact.as_ref().unwrap_or(&Value::Null);
    let id = |i: usize| lines[i].uuid.as_deref().unwrap_or("");
    let after: Vec<usize> = (boundary + 1..path.len()).collect();
    let anchor = meta["preservedSegment"]["anchorUuid"]
        .as_str()
        .or(meta["preservedMessages"]["anchorUuid"].as_str());
    let at = anchor
        .and_then(|a| after.iter().position(|&i| id(i) == a))
        .map(|p| p + 1)
        .unwrap_or(0);
    let kept: Vec<usize> = match preserved_ids(meta) {
        Some(ids) => (0..boundary).filter(|&i| ids.contains(&id(i))).collect(),
        None => {
            let segment = &meta["preservedSegment"];
            let from = segment["headUuid"]
                .as_str()
                .and_then(|h| (0..boundary).find(|&i| id(i) == h));
            let to = segment["tailUuid"]
                .as_str()
                .and_then(|t| (0..boundary).find(|&i| id(i) == t));
            match (from, to) {
                (Some(from), Some(to)) if from <= to => (from..=to).collect(),
                _ => Vec::new(),
            }
        }
    };
    let mut out = Vec::with_capacity(after.len());
    out.extend_from_slice(&after[..at]);
    out.extend(kept);
    out.extend_from_slice(&after[at..]);
    out.retain(sent);
    out
}

fn preserved_ids(meta: &Value) -> Option<Vec<&str>> {
    let kept = &meta["preservedMessages"];
    let list = kept["allUuids"].as_array().or(kept["uuids"].as_array())?;
    Some(list.iter().filter_map(Value::as_str).collect())
}

/// The messages Claude Code sends for a resumed path's messages (each
/// line's `message`, in path order): the lines of one reply (one
/// `message.id`) are one message, its text and thinking first and its tool
/// calls after them, and the results of its calls that were written
/// between its lines (Claude Code runs a call's tool while the model still
/// writes) come after it, so every call is answered right after its reply,
/// as the API requires.
pub fn as_sent(messages: Vec<Value>) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    // The reply being gathered, and the results written between its lines.
    let mut reply: Option<Value> = None;
    let mut results: Vec<Value> = Vec::new();
    let flush = |reply: &mut Option<Value>, results: &mut Vec<Value>, out: &mut Vec<Value>| {
        if let Some(mut m) = reply.take() {
            if let Some(blocks) = m.get_mut("content").and_then(Value::as_array_mut) {
                let (calls, said): (Vec<Value>, Vec<Value>) = std::mem::take(blocks)
                    .into_iter()
                    .partition(|b| b["type"] == "tool_use");
                blocks.extend(said);
                blocks.extend(calls);
            }
            out.push(m);
        }
        out.append(results);
    };
    for m in messages {
        let id = m["id"].as_str().filter(|_| m["role"] == "assistant");
        if let (Some(id), Some(open)) = (id, reply.as_mut())
            && open["id"].as_str() == Some(id)
        {
            let more = match m.get("content") {
                Some(Value::Array(blocks)) => blocks.clone(),
                Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
                _ => Vec::new(),
            };
            let mut last = m;
            let mut blocks = match open.get_mut("content").map(Value::take) {
                Some(Value::Array(b)) => b,
                Some(Value::String(s)) => vec![serde_json::json!({"type": "text", "text": s})],
                _ => Vec::new(),
            };
            blocks.extend(more);
            // The last line's usage is the reply's.
            last["content"] = Value::Array(blocks);
            *open = last;
            continue;
        }
        let is_result = m["role"] == "user"
            && m["content"]
                .as_array()
                .is_some_and(|b| !b.is_empty() && b.iter().all(|b| b["type"] == "tool_result"));
        if is_result && reply.is_some() {
            results.push(m);
            continue;
        }
        flush(&mut reply, &mut results, &mut out);
        if id.is_some() {
            reply = Some(m);
        } else {
            out.push(m);
        }
    }
    flush(&mut reply, &mut results, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn lines(values: &[Value]) -> Vec<Vec<u8>> {
        values.iter().map(|v| v.to_string().into_bytes()).collect()
    }

    #[test]
    fn after_a_compaction_the_summary_the_kept_messages_and_what_follows() {
        let path = lines(&[
            json!({"type": "user", "uuid": "u1"}),
            json!({"type": "assistant", "uuid": "a1"}),
            json!({"type": "user", "uuid": "u2"}),
            json!({"type": "assistant", "uuid": "a2"}),
            json!({"type": "system", "subtype": "compact_boundary", "uuid": "b",
                   "compactMetadata": {"preservedMessages": {"anchorUuid": "s", "uuids": ["a2"]}}}),
            json!({"type": "user", "uuid": "s", "isCompactSummary": true}),
            json!({"type": "user", "uuid": "u3"}),
            json!({"type": "assistant", "uuid": "a3", "isApiErrorMessage": true}),
            json!({"type": "assistant", "uuid": "a4"}),
        ]);
        let borrowed: Vec<&[u8]> = lines_of(&path);
        // The summary, the kept reply, then what follows; no error reply.
        assert_eq!(resumed(&borrowed), [5, 3, 6, 8]);
        // Without a compaction, the whole path but the error reply.
        assert_eq!(resumed(&borrowed[..4]), [0, 1, 2, 3]);
    }

    fn lines_of(lines: &[Vec<u8>]) -> Vec<&[u8]> {
        lines.iter().map(Vec::as_slice).collect()
    }

    #[test]
    fn a_reply_over_several_lines_is_one_message_and_its_results_follow_it() {
        let reply = |blocks: Value| json!({"role": "assistant", "id": "m1", "content": blocks});
        let result = |id: &str| json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "ok"}]});
        let sent = as_sent(vec![
            json!({"role": "user", "content": "go"}),
            reply(json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}])),
            reply(json!([{"type": "tool_use", "id": "t2", "name": "Read", "input": {}}])),
            result("t2"),
            reply(json!([{"type": "text", "text": "still looking"}])),
            result("t1"),
            json!({"role": "assistant", "id": "m2", "content": [{"type": "text", "text": "done"}]}),
        ]);
        assert_eq!(sent.len(), 5, "{sent:#?}");
        let kinds: Vec<&str> = sent[1]["content"]
            .as_array()
            .expect("blocks")
            .iter()
            .map(|b| b["type"].as_str().unwrap_or(""))
            .collect();
        assert_eq!(kinds, ["text", "tool_use", "tool_use"]);
        assert_eq!(sent[2], result("t2"));
        assert_eq!(sent[3], result("t1"));
        assert_eq!(sent[4]["id"], "m2");
    }
}
