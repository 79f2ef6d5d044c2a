use clap::Args;

use super::{Context, Exit, Failure, open_repo, resolve};
use crate::format::message::Message;
use crate::ui::output::json_line;
use crate::write::export::Line;

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
        if repo.format != crate::format::Format::Yoagent {
            return Err(Failure::refuse(format!(
                "export --session writes a yoagent session; this is a {} session",
                repo.format.name()
            )));
        }
        crate::write::export::path_session(
            &repo,
            target,
            super::write::now_ms(),
            |line| match line {
                Line::Entry(raw) => json_line(*out, &raw),
                Line::Record(line) => writeln!(out, "{line}"),
            },
        )?;
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
