use clap::Args;
use serde_json::Value;

use super::output::json_line;
use super::{Context, Exit, Failure, open_session, resolve};
use crate::message::Message;
use crate::refs::Refs;

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
    #[arg(value_name = "REV", add = super::complete::revisions())]
    pub rev: Option<String>,
    /// Write the path as a linear session file (JSON Lines)
    #[arg(long)]
    pub session: bool,
}

pub fn run(args: &ExportArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let session = open_session(ctx)?;
    let refs = Refs::read(&session)?;
    let tree = &session.tree;
    if args.rev.is_none() && tree.head_entry().is_none() {
        // An empty session resumes with no messages.
        if !args.session {
            writeln!(ctx.streams.out, "[]")?;
        }
        return Ok(Exit::Success);
    }
    let target = resolve(
        tree,
        tree.head_entry(),
        &refs.pairs(),
        args.rev.as_deref().unwrap_or("HEAD"),
    )?;
    let out = &mut ctx.streams.out;
    if args.session {
        let mut parent: Option<String> = None;
        for ix in tree
            .path(target)
            .into_iter()
            .filter(|&ix| !tree.is_record(ix))
        {
            let mut raw = session.entry(ix)?.canonical();
            raw["parent_id"] = parent.map_or(Value::Null, Value::String);
            json_line(*out, &raw)?;
            parent = Some(tree.id(ix).to_string());
        }
        return Ok(Exit::Success);
    }
    let mut messages = Vec::new();
    for ix in tree.path(target) {
        let entry = session.entry(ix)?;
        if !matches!(entry.message, Message::Custom { .. }) {
            messages.push(entry.message_value);
        }
    }
    json_line(*out, &messages)?;
    Ok(Exit::Success)
}
