use clap::Args;
use serde_json::Value;

use super::{Context, Exit, Failure, open_repo, resolve};
use crate::format::message::Message;
use crate::format::yoagent::records::{Kind, Record};
use crate::tree::Ix;
use crate::ui::output::json_line;

/// Print a path's messages, ready for an agent to resume with
///
/// The messages on the path from the root to REV (default HEAD) as one JSON
/// array, custom records dropped: what yoagent's `Agent::with_messages` and
/// `restore_messages` take. With --session, the path as a linear session
/// file instead (JSON Lines, ysess's records dropped, each entry's parent the
/// one before it), which yoagent's `Session::from_jsonl` loads.
///
/// Examples:
///   ysess export first-draft > messages.json
///   ysess export --session lib > lib.jsonl
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ExportArgs {
    /// The entry whose path to export [default: HEAD]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Write the path as a linear session file (JSON Lines)
    #[arg(long)]
    pub session: bool,
}

pub fn run(args: &ExportArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    if args.rev.is_none() && tree.head().is_none() {
        // An empty session resumes with no messages.
        if !args.session {
            writeln!(ctx.streams.out, "[]")?;
        }
        return Ok(Exit::Success);
    }
    let target = resolve(&repo, args.rev.as_deref().unwrap_or("HEAD"))?;
    let out = &mut ctx.streams.out;
    if args.session {
        let path = tree.path(target);
        // Every label that names an entry of the path, however it was set
        // (in place, or by `ysess tag`), so that `seek_checkpoint` finds it
        // in the export too; labels that name entries off the path stay
        // behind.
        let mut labels: hashbrown::HashMap<Ix, Vec<&str>> = hashbrown::HashMap::new();
        for name in tree.label_names() {
            if let Some(ix) = tree.label(name) {
                labels.entry(ix).or_default().push(name);
            }
        }
        let mut parent: Option<String> = None;
        let mut more: Vec<(String, &str)> = Vec::new();
        for &ix in &path {
            let entry = repo.entry(ix)?;
            let mut names = labels.remove(&ix).unwrap_or_default();
            // The entry's own label first, when it still names the entry.
            if let Some(own) = entry.label.as_deref() {
                names.sort_by_key(|&n| n != own);
            }
            let mut raw = entry.canonical();
            raw["parent_id"] = parent.map_or(Value::Null, Value::String);
            match names.split_first() {
                Some((first, rest)) => {
                    raw["label"] = Value::String((*first).to_string());
                    more.extend(rest.iter().map(|&n| (tree.id(ix).to_string(), n)));
                }
                None => {
                    if let Some(map) = raw.as_object_mut() {
                        map.remove("label");
                    }
                }
            }
            json_line(*out, &raw)?;
            parent = Some(tree.id(ix).to_string());
        }
        // An entry holds one label; any more are carried as ysess does, by
        // tag records, and a checkout record keeps the head at the end.
        if let (false, Some(&last)) = (more.is_empty(), path.last()) {
            let mut next = path
                .iter()
                .filter_map(|&ix| crate::format::yoagent::counter_number(tree.id(ix)))
                .max()
                .unwrap_or(0);
            let now = super::write::now_ms();
            let mut records: Vec<Record> = more
                .into_iter()
                .map(|(target, name)| Record {
                    kind: Kind::Tag {
                        name: name.to_string(),
                        target: target.clone(),
                    },
                    parent: target,
                })
                .collect();
            let last = tree.id(last).to_string();
            records.push(Record {
                kind: Kind::Checkout {
                    target: last.clone(),
                },
                parent: last,
            });
            for record in records {
                next = next.saturating_add(1);
                writeln!(out, "{}", record.line(&format!("e{next}"), now))?;
            }
        }
        return Ok(Exit::Success);
    }
    let mut messages = Vec::new();
    for ix in tree.path(target) {
        let entry = repo.entry(ix)?;
        if !matches!(entry.message, Message::Custom { .. }) {
            messages.push(entry.message_value);
        }
    }
    json_line(*out, &messages)?;
    Ok(Exit::Success)
}
