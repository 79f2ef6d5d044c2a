use std::io::Read;

use clap::Args;
use serde_json::{Value, json};

use super::write::{new_ids, now_ms, open_locked_with};
use super::{Context, Exit, Failure, resolve};
use crate::format::yoagent::records::check_name;
use crate::format::{Checked, yoagent::check_line};
use crate::write::Create;

/// Append messages below HEAD, as an agent would
///
/// Adds each message as a new entry (the next `e<N>` id, timestamp now): the
/// first below HEAD (or --parent REV), each next one below the one before.
/// Messages are yoagent messages as JSON on standard input, one object or
/// JSON Lines; --user TEXT is a quick user turn. Every message is checked
/// against yoagent's message shapes before anything is written. Prints the
/// new ids on stdout.
///
/// Examples:
///   ysess append --user 'now make it a library'
///   echo '{"role":"user","content":[{"type":"text","text":"hi"}],"timestamp":1}' | ysess append
///   ysess append --parent first-draft --user 'try again' --label retry
///   ysess append --create -f new.jsonl --user 'a new session'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct AppendArgs {
    /// A user message with this text (instead of JSON on standard input)
    #[arg(long, value_name = "TEXT")]
    pub user: Option<String>,
    /// Append below REV instead of HEAD
    #[arg(long, value_name = "REV", add = crate::ui::complete::revisions())]
    pub parent: Option<String>,
    /// Label the last new entry (a checkpoint)
    #[arg(long, value_name = "NAME")]
    pub label: Option<String>,
    /// Start a new session when the file is missing or empty (otherwise an
    /// empty file is refused: an app saving it whole empties it first)
    #[arg(long)]
    pub create: bool,
}

pub fn run(args: &AppendArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if let Some(label) = &args.label {
        check_name(label).map_err(Failure::refuse)?;
    }
    let messages = match &args.user {
        Some(text) => vec![
            json!({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": now_ms()}),
        ],
        None => read_messages()?,
    };
    if messages.is_empty() {
        return Err(Failure::usage(
            "no messages on standard input (or give --user TEXT)",
        ));
    }
    let create = if args.create {
        Create::Allowed
    } else {
        Create::No
    };
    let (locked, refs) = open_locked_with(ctx, create)?;
    if locked.repo.format != crate::format::Format::Yoagent {
        return Err(Failure::refuse(format!(
            "{}: a {} session: ysess appends messages to yoagent sessions only; nothing was written",
            crate::ui::output::escape(&ctx.global.file.display().to_string()),
            locked.repo.format.name()
        ))
        .with_hint("the agent that owns the file appends its own messages"));
    }
    let tree = &locked.repo.tree;
    let mut parent = match &args.parent {
        Some(rev) => {
            let target = resolve(&locked.repo, rev)?;
            Some(crate::write::plan::attach_point(
                tree,
                &refs,
                Some(rev),
                target,
            ))
        }
        // Below the last line, as yoagent's own append (a ysess record on a
        // branch included, so the work stays on it).
        None => tree.last(),
    }
    .map(|ix| tree.id(ix).to_string());
    if let Some(label) = &args.label {
        super::write::check_free(tree, &refs, label, false)?;
        if tree.label(label).is_some() {
            return Err(
                Failure::refuse(format!("label '{label}' is in use")).with_hint(format!(
                    "append without --label, then {} moves the label to the new entry",
                    super::hint::command(ctx.global, &["tag", "--force", label])
                )),
            );
        }
    }
    let ids = new_ids(&locked.repo, messages.len())?;
    let now = now_ms();
    let mut lines = Vec::with_capacity(messages.len());
    for (k, (message, id)) in messages.into_iter().zip(&ids).enumerate() {
        let label = if k + 1 == ids.len() {
            args.label.as_deref()
        } else {
            None
        };
        let entry_line = |message: &Value| {
            let mut entry =
                json!({"id": id, "parent_id": parent, "message": message, "timestamp": now});
            if let Some(label) = label {
                entry["label"] = json!(label);
            }
            entry.to_string()
        };
        // The same check as fsck's: the line must load in yoagent.
        if let Checked::Fault { fault, .. } = check_line(entry_line(&message).as_bytes(), false) {
            return Err(Failure::refuse(format!(
                "message {}: {}; nothing was written",
                k + 1,
                fault.message
            )));
        }
        let llm = crate::format::yoagent::schema::is_llm_message(&message);
        // The `ysess.` kinds are ysess's own bookkeeping: a message that
        // forged one would move HEAD, labels or branches behind the user's
        // back.
        if let Some(kind) = message
            .get("kind")
            .and_then(Value::as_str)
            .filter(|k| !llm && crate::format::yoagent::records::is_ysess_kind(k))
        {
            return Err(Failure::refuse(format!(
                "message {}: custom kind `{}` is reserved for ysess's own records; nothing was written",
                k + 1,
                crate::ui::output::escape(kind)
            ))
            .with_hint("`ysess checkout`, `tag` and `branch` write those records"));
        }
        // Then written as yoagent writes it, so an app's save keeps it as is.
        let role = crate::format::yoagent::entry::stored_role(&message, llm)
            .unwrap_or_default()
            .to_string();
        let line = entry_line(&crate::format::yoagent::canonical::message(
            &message, llm, &role,
        ));
        if let Checked::Fault { fault, .. } = check_line(line.as_bytes(), false) {
            return Err(Failure::refuse(format!(
                "message {}: {}; nothing was written",
                k + 1,
                fault.message
            )));
        }
        lines.push(line);
        parent = Some(id.clone());
    }
    super::write::append_lines(locked, &lines)?;
    for id in &ids {
        writeln!(ctx.streams.out, "{}", crate::ui::output::escape(id))?;
    }
    Ok(Exit::Success)
}

/// One JSON object, or JSON Lines, from standard input.
fn read_messages() -> Result<Vec<Value>, Failure> {
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text)?;
    let mut messages = Vec::new();
    let stream = serde_json::Deserializer::from_str(&text).into_iter::<Value>();
    for (k, value) in stream.enumerate() {
        let value = value
            .map_err(|e| Failure::refuse(format!("standard input: message {}: {e}", k + 1)))?;
        if !value.is_object() {
            return Err(Failure::refuse(format!(
                "standard input: message {} is not a JSON object",
                k + 1
            )));
        }
        messages.push(value);
    }
    Ok(messages)
}
