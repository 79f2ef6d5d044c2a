//! The warnings: what yoagent loads but a person likely did not mean.

use crate::format::{Format, MessageKind};
use crate::tree::{Ix, Tree};

use super::{Code, Finding};
use crate::format::tools::ToolFacts;

/// The warnings: what yoagent loads but a person likely did not mean. In a
/// large file the tool results are paired with their calls on another
/// thread meanwhile: this runs after the whole file is read, when the other
/// cores are idle.
pub(super) fn warn(tree: &Tree, tools: &ToolFacts, format: Format, out: &mut Vec<Finding>) {
    let (orphans, ()) = crate::input::par::join(
        tree.len() >= crate::input::par::SPLIT_AT,
        || orphan_results(tree, tools),
        || labels_ids_and_links(tree, format, out),
    );
    out.extend(orphans);
    unanswered_calls(tree, tools, out);
}

/// A warning about entry `ix`.
fn finding(tree: &Tree, ix: Ix, code: Code, message: String) -> Finding {
    let node = tree.node(ix);
    Finding {
        code,
        line: Some(node.line),
        offset: Some(node.offset),
        id: Some(tree.id(ix).to_string()),
        message,
        remedy: None,
    }
}

/// Labels (empty, or a name on several entries), ids yoagent would not make,
/// extra roots, children older than their parents.
fn labels_ids_and_links(tree: &Tree, format: Format, out: &mut Vec<Finding>) {
    labels(tree, out);
    odd_ids(tree, format, out);
    roots_and_times(tree, format, out);
}

/// Labels: empty ones, and names on several entries.
fn labels(tree: &Tree, out: &mut Vec<Finding>) {
    let finding = |ix: Ix, code: Code, message: String| finding(tree, ix, code, message);
    let all = 0..tree.len() as Ix;
    let mut by_label: hashbrown::HashMap<&str, Vec<Ix>> = hashbrown::HashMap::new();
    // (pi's label changes set one label per entry: moving one or clearing
    // it with an empty label is what they are for.)
    for ix in all.filter(|&ix| tree.node(ix).label_on.is_none()) {
        if tree.node(ix).unknown_target {
            continue;
        }
        if let Some(label) = tree.node(ix).label.as_deref() {
            if label.is_empty() {
                out.push(finding(
                    ix,
                    Code::EmptyLabel,
                    format!("entry {} has an empty label", tree.id(ix)),
                ));
            }
            by_label.entry(label).or_default().push(ix);
        }
    }
    for (label, holders) in by_label {
        let Some((&winner, shadowed)) = holders.split_last() else {
            continue;
        };
        // `ysess tag --force` moves a label by design: the newest carrier wins.
        if tree.is_record(winner) {
            continue;
        }
        let (win, win_line) = (tree.id(winner), tree.node(winner).line);
        for &ix in shadowed {
            out.push(finding(
                ix,
                Code::DuplicateLabel,
                format!(
                    "label `{label}` is also on {win} (line {win_line}); yoagent's seek_checkpoint picks the last one, {win}"
                ),
            ));
        }
    }
}

/// Ids yoagent would not have made: one finding, with the count.
fn odd_ids(tree: &Tree, format: Format, out: &mut Vec<Finding>) {
    let finding = |ix: Ix, code: Code, message: String| finding(tree, ix, code, message);
    let all = 0..tree.len() as Ix;
    let mut odd = all
        .filter(|_| format.spec().counter_ids())
        .filter(|&ix| !crate::format::yoagent::is_counter_id(tree.id(ix)));
    if let Some(first) = odd.next() {
        let more = odd.count();
        let tail = if more == 0 {
            String::new()
        } else {
            format!(" ({more} more ids like it)")
        };
        out.push(finding(
            first,
            Code::NonStandardId,
            format!(
                "id {} is not of the form e<N> that yoagent's append makes{tail}",
                tree.id(first)
            ),
        ));
    }
}

/// More than one root; children older than their parents.
fn roots_and_times(tree: &Tree, format: Format, out: &mut Vec<Finding>) {
    let finding = |ix: Ix, code: Code, message: String| finding(tree, ix, code, message);
    let mut roots = tree.roots().filter(|&r| !tree.node(r).detached);
    if let Some(first) = roots.next() {
        for root in roots {
            out.push(finding(
                root,
                Code::MultipleRoots,
                format!(
                    "entry {} is another root (the first is {} at line {})",
                    tree.id(root),
                    tree.id(first),
                    tree.node(first).line
                ),
            ));
        }
    }

    // Children older than their parents, in the user's tree (where the
    // format's app writes its times in order).
    for ix in tree.entries().filter(|_| format.orders_times()) {
        let node = tree.node(ix);
        if let Some(p) = tree.parent(ix) {
            let parent = tree.node(p);
            if node.timestamp < parent.timestamp {
                out.push(finding(
                    ix,
                    Code::OlderThanParent,
                    format!(
                        "entry {} (timestamp {}) is older than its parent {} (timestamp {})",
                        tree.id(ix),
                        node.timestamp,
                        tree.id(p),
                        parent.timestamp
                    ),
                ));
            }
        }
    }
}

/// Tool results that answer no call on their path.
fn orphan_results(tree: &Tree, tools: &ToolFacts) -> Vec<Finding> {
    let finding = |ix: Ix, code: Code, message: String| finding(tree, ix, code, message);
    let mut out = Vec::new();
    if !tools.answers.is_empty() {
        let (enter, exit) = tree.intervals();
        let is_ancestor = |a: Ix, b: Ix| {
            a != b && enter[a as usize] <= enter[b as usize] && exit[b as usize] <= exit[a as usize]
        };
        let mut by_hash: Vec<(u64, Ix)> = tools
            .calls
            .iter()
            .map(|&(ix, hash, _)| (hash, ix))
            .collect();
        by_hash.sort_unstable();
        for &(result, hash, call) in &tools.answers {
            let from = by_hash.partition_point(|c| c.0 < hash);
            let answered = by_hash[from..]
                .iter()
                .take_while(|c| c.0 == hash)
                .any(|&(_, c)| is_ancestor(c, result));
            if !answered {
                out.push(finding(
                    result,
                    Code::OrphanToolResult,
                    format!(
                        "tool result {} answers call `{}`, which no assistant message earlier on its path makes",
                        tree.id(result),
                        call.of(&tools.text)
                    ),
                ));
            }
        }
    }
    out
}

/// Tool calls left unanswered at the end of a branch: resuming there sends
/// the model a call without its result.
fn unanswered_calls(tree: &Tree, tools: &ToolFacts, out: &mut Vec<Finding>) {
    let finding = |ix: Ix, code: Code, message: String| finding(tree, ix, code, message);
    for tip in tree.tips() {
        let mut answered: Vec<u64> = Vec::new();
        let mut cursor = Some(tip);
        while let Some(ix) = cursor {
            let node = tree.node(ix);
            match node.kind {
                MessageKind::ToolResult => answered.extend(tools.answer_of(ix)),
                MessageKind::Custom => {}
                MessageKind::Assistant => {
                    let open: Vec<&str> = tools
                        .calls_of(ix)
                        .iter()
                        .filter(|c| !answered.contains(&c.1))
                        .map(|c| c.2.of(&tools.text))
                        .collect();
                    if !open.is_empty() {
                        out.push(finding(
                            ix,
                            Code::UnansweredToolCall,
                            format!(
                                "entry {} calls {} but the branch ending at {} has no result for {}",
                                tree.id(ix),
                                quote_list(&open),
                                tree.id(tip),
                                if open.len() == 1 { "it" } else { "them" }
                            ),
                        ));
                    }
                    break;
                }
                MessageKind::User => break,
            }
            cursor = tree.parent(ix);
        }
    }
}

fn quote_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}
