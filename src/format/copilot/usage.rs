//! Which reply each token of a Copilot CLI session counts on.
//!
//! Copilot CLI 1.0 writes a `session.usage_record` before each reply: its
//! call's tokens, put on the reply. Versions without those records say a
//! reply's `outputTokens` on the reply, and its input and cache reads only
//! per model, in the `session.shutdown` event each process writes when it
//! ends, as totals over the session so far (a resumed process starts from
//! the last one). So in such a file each shutdown's growth over the one
//! before, per model, is the usage of that model's replies since: the
//! output the replies said stays on them, and the rest (input, cache reads
//! and writes, output they did not say) goes on the model's last reply
//! before the shutdown, so that the session's total is its last shutdown's,
//! as the file itself counts it.

use std::collections::HashMap;
use std::io;

use serde_json::Value;

use super::USAGE;
use crate::format::message::Usage;
use crate::format::session::Session;
use crate::tree::Ix;

/// The tokens put on each reply.
#[derive(Debug, Default)]
pub struct Attributed {
    usage: HashMap<Ix, Usage>,
}

impl Attributed {
    /// The usage put on reply `ix`.
    pub fn of(&self, ix: Ix) -> Option<Usage> {
        self.usage.get(&ix).copied()
    }
}

/// One model's totals in a shutdown.
fn totals(v: &Value) -> Usage {
    let n = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let (cache_read, cache_write) = (n("cacheReadTokens"), n("cacheWriteTokens"));
    let input = n("inputTokens").saturating_sub(cache_read + cache_write);
    let output = n("outputTokens");
    Usage::counted(input, output, cache_read, cache_write)
}

fn minus(a: Usage, b: Usage) -> Usage {
    Usage::counted(
        a.input.saturating_sub(b.input),
        a.output.saturating_sub(b.output),
        a.cache_read.saturating_sub(b.cache_read),
        a.cache_write.saturating_sub(b.cache_write),
    )
}

/// A reply's model and the output it says it made.
fn reply_facts(line: &[u8]) -> (String, u64) {
    let v: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
    let data = &v["data"];
    (
        data["model"].as_str().unwrap_or_default().to_string(),
        data["outputTokens"].as_u64().unwrap_or(0),
    )
}

/// The usage of each reply of a file without usage records, from its
/// shutdowns (see the module's docs); worked out once per session.
pub fn of_repo(repo: &dyn Session) -> io::Result<&Attributed> {
    let memo = repo.format_memo();
    if let Some(done) = memo.get().and_then(|m| m.downcast_ref::<Attributed>()) {
        return Ok(done);
    }
    let tree = repo.tree();
    let all: Vec<Ix> = (0..tree.len() as Ix).collect();
    let records = all.iter().any(|&ix| tree.tag(ix) == USAGE);
    let mut attributed = Attributed::default();
    if !records {
        let wanted: Vec<Ix> = all
            .iter()
            .copied()
            .filter(|&ix| {
                tree.node(ix).kind == crate::MessageKind::Assistant
                    || tree.tag(ix) == "session.shutdown"
            })
            .collect();
        // In file order: each reply's model and output, then at each
        // shutdown the growth per model.
        let mut since: Vec<(Ix, String, u64)> = Vec::new();
        let mut before: HashMap<String, Usage> = HashMap::new();
        let mut last_reply: Option<Ix> = None;
        repo.each_line(&wanted, &mut |ix, line| {
            if tree.node(ix).kind == crate::MessageKind::Assistant {
                let (model, output) = reply_facts(line);
                attributed.usage.insert(ix, Usage::counted(0, output, 0, 0));
                since.push((ix, model, output));
                last_reply = Some(ix);
                return Ok(());
            }
            let v: Value = serde_json::from_slice(line).unwrap_or(Value::Null);
            let Some(metrics) = v["data"]["modelMetrics"].as_object() else {
                return Ok(());
            };
            for (model, m) in metrics {
                let now = totals(&m["usage"]);
                let grew = minus(now, before.get(model).copied().unwrap_or_default());
                before.insert(model.clone(), now);
                let said: u64 = since
                    .iter()
                    .filter(|(_, m, _)| m == model)
                    .map(|(_, _, out)| out)
                    .sum();
                let rest = Usage {
                    output: grew.output.saturating_sub(said),
                    ..grew
                };
                let on = since
                    .iter()
                    .rev()
                    .find(|(_, m, _)| m == model)
                    .map(|(ix, _, _)| *ix)
                    .or(last_reply);
                if let Some(on) = on {
                    attributed.usage.entry(on).or_default().add(&rest);
                }
            }
            since.clear();
            Ok(())
        })?;
    }
    let kept = memo.get_or_init(|| Box::new(attributed));
    Ok(kept
        .downcast_ref::<Attributed>()
        .expect("the memo of a Copilot CLI session holds its usage"))
}
