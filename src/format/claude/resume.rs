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

use serde_json::Value;

/// The positions in `path` (the lines of the entries root→REV, root first)
/// of the entries Claude Code resumes. A line that is not JSON is kept.
pub fn resumed(path: &[&[u8]]) -> Vec<usize> {
    let lines: Vec<Value> = path
        .iter()
        .map(|l| serde_json::from_slice(l).unwrap_or(Value::Null))
        .collect();
    let sent = |i: &usize| lines[*i]["isApiErrorMessage"] != Value::Bool(true);
    let boundary = lines
        .iter()
        .rposition(|l| l["type"] == "system" && l["subtype"] == "compact_boundary");
    let Some(boundary) = boundary else {
        return (0..path.len()).filter(sent).collect();
    };
    let meta = &lines[boundary]["compactMetadata"];
    let id = |i: usize| lines[i]["uuid"].as_str().unwrap_or("");
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
