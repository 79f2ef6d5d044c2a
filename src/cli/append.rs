use std::io::Read;

use clap::Args;
use serde_json::{Value, json};

use super::write::{op_failure, refused, session_path};
use super::{Context, Exit, Failure};
use crate::ops::append::{self, Append, AppendError};
use crate::ui::output::escape;

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
        append::check_label(label).map_err(|e| op_failure(ctx, &ctx.global.file, e))?;
    }
    let messages = match &args.user {
        Some(text) => vec![
            json!({"role": "user", "content": [{"type": "text", "text": text}], "timestamp": crate::ops::now_ms()}),
        ],
        None => read_messages()?,
    };
    if messages.is_empty() {
        return Err(Failure::usage(
            "no messages on standard input (or give --user TEXT)",
        ));
    }
    let path = session_path(ctx)?;
    let what = Append {
        messages,
        parent: args.parent.as_deref(),
        label: args.label.as_deref(),
        create: args.create,
    };
    let ids = append::append(&path, what).map_err(|e| {
        refused(ctx, &path, e, |e| match e {
        AppendError::NotYoagent(format) => Failure::refuse(format!(
            "{}: a {} session: ysess appends messages to yoagent sessions only; nothing was written",
            escape(&ctx.global.file.display().to_string()),
            format.name()
        ))
        .with_hint("the agent that owns the file appends its own messages"),
        AppendError::LabelInUse(label) => Failure::refuse(format!("label '{label}' is in use"))
            .with_hint(format!(
                "append without --label, then {} moves the label to the new entry",
                super::hint::command(ctx.global, &["tag", "--force", &label])
            )),
        AppendError::Invalid { n, why } => {
            Failure::refuse(format!("message {n}: {why}; nothing was written"))
        }
        AppendError::Reserved { n, kind } => Failure::refuse(format!(
            "message {n}: custom kind `{}` is reserved for ysess's own records; nothing was written",
            escape(&kind)
        ))
        .with_hint("`ysess checkout`, `tag` and `branch` write those records"),
    })
    })?;
    for id in &ids {
        writeln!(ctx.streams.out, "{}", escape(id))?;
    }
    Ok(Exit::Success)
}

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
