use std::io::Write;

use clap::Args;

use super::{Context, Exit, Failure, open_repo};
use crate::Names;
use crate::ui::output::{escape, escape_lines, stored_json};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, time};
use crate::view::{Block, Entry, Look, Message, human_size};

/// Show one entry in full
///
/// A header (id, parent, role, model and provider, stop reason, token usage,
/// time, labels, children), then every content block: text, thinking
/// (dimmed), tool calls with their arguments pretty-printed, tool results
/// (errors marked), images as `[image/png, 12 KB]`, a custom record's data,
/// an agent's markup as what it means (`/model opus`, `! cargo test`, their
/// output, a task's notification, injected context).
///
/// Several REVs show each entry in turn, in the order given; a range
/// (`A..B`, `A...B`) shows its entries newest first, as `log` lists them.
///
/// Examples:
///   ysess show                 the entry at HEAD
///   ysess show first-draft~2   two entries before a checkpoint
///   ysess show e3 e4 e5        three entries, one after the other
///   ysess show --json e42      the entry exactly as stored
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ShowArgs {
    /// The entries to show, or ranges of them (A..B, A...B) [default: HEAD]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub revs: Vec<String>,
    /// Each entry as stored, one JSON object per line
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &ShowArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let repo = open_repo(ctx)?;
    let branches = repo.refs.pairs();
    let tree = &repo.tree;
    let texts: Vec<&str> = match args.revs.as_slice() {
        [] => vec!["HEAD"],
        revs => revs.iter().map(String::as_str).collect(),
    };
    // Every revision is resolved before anything is printed.
    let entries = repo.each(&texts).map_err(super::rev_failure)?;
    if args.json {
        for ix in entries {
            let line = repo.line(ix)?;
            let text = std::str::from_utf8(&line)
                .map(str::trim)
                .unwrap_or_default();
            writeln!(ctx.streams.out, "{}", stored_json(text))?;
        }
        return Ok(Exit::Success);
    }
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let names = Names::new(tree, tree.head(), &branches);
    let tz = ctx.tz.clone();
    // A Claude Code tool result that carries a subagent's answer, its
    // subagent (from the subagent's own file).
    let mut launched = Vec::with_capacity(entries.len());
    for &ix in &entries {
        let subagent = match ctx.session_file() {
            Some(path) => crate::stats::subagents::answered_by(&repo, &path, ix)?
                .map(|s| crate::ui::render::subagent_line(&s, path.parent())),
            None => None,
        };
        launched.push(subagent);
    }
    paged(&mut ctx.streams, false, |out| {
        for (k, (&ix, subagent)) in entries.iter().zip(&launched).enumerate() {
            if k > 0 {
                writeln!(out)?;
            }
            one(out, &repo, &names, ix, p, &tz, subagent.as_deref())?;
        }
        Ok(())
    })?;
    Ok(Exit::Success)
}

/// One entry in full: the header, then its blocks.
fn one(
    out: &mut dyn Write,
    repo: &crate::repo::Repo,
    names: &Names,
    ix: crate::Ix,
    p: Paint,
    tz: &jiff::tz::TimeZone,
    subagent: Option<&str>,
) -> std::io::Result<()> {
    let tree = &repo.tree;
    let entry = repo.entry(ix)?;
    {
        let field = |out: &mut dyn Write, name: &str, value: &str| {
            writeln!(out, "{} {value}", p.header(&format!("{name:<9}")))
        };
        writeln!(
            out,
            "{} {}{}",
            p.header("entry"),
            p.id(&escape(tree.short_id(ix))),
            crate::ui::render::decorate(names, ix, p)
        )?;
        // The parent in the user's tree: ysess's records are folded out.
        if let Some(parent) = tree.parent(ix) {
            field(out, "Parent:", &p.id(&escape(tree.short_id(parent))))?;
        }
        field(out, "Role:", entry.message.role())?;
        match &entry.message {
            Message::Assistant {
                model,
                provider,
                stop_reason,
                usage,
                error_message,
                ..
            } => {
                field(
                    out,
                    "Model:",
                    &format!("{} ({})", escape(model), escape(provider)),
                )?;
                // A response written over several lines has its stop reason
                // on the last.
                if !stop_reason.is_empty() {
                    field(out, "Stop:", &escape(stop_reason))?;
                }
                field(
                    out,
                    "Usage:",
                    &format!(
                        "{} in, {} out, {} cache read, {} cache write",
                        usage.input, usage.output, usage.cache_read, usage.cache_write
                    ),
                )?;
                if let Some(err) = error_message {
                    field(out, "Error:", &p.error(&escape(err)))?;
                }
            }
            Message::ToolResult {
                tool_name,
                tool_call_id,
                is_error,
                ..
            } => {
                // Claude Code's results name the call, not the tool.
                let tool = match tool_name.as_str() {
                    "" => format!("[{}]", escape(tool_call_id)),
                    name => format!("{} [{}]", escape(name), escape(tool_call_id)),
                };
                field(out, "Tool:", &tool)?;
                if *is_error {
                    field(out, "Result:", &p.error("error"))?;
                }
                if let Some(subagent) = subagent {
                    field(out, "Subagent:", subagent)?;
                }
            }
            Message::Custom { kind, .. } => field(out, "Kind:", &escape(kind))?,
            Message::User { .. } => {}
        }
        field(out, "Time:", &time(entry.timestamp, tz, false))?;
        field(out, "Format:", repo.format.name())?;
        if let Some(label) = &entry.label {
            let note = match tree.label(label) {
                Some(winner) if winner != ix => {
                    format!(
                        " (shadowed: the label names {})",
                        escape(tree.short_id(winner))
                    )
                }
                _ => String::new(),
            };
            field(out, "Label:", &format!("{}{note}", p.label(&escape(label))))?;
        }
        let children: Vec<String> = tree
            .children(ix)
            .iter()
            .map(|&c| p.id(&escape(tree.short_id(c))))
            .collect();
        if !children.is_empty() {
            field(out, "Children:", &children.join(", "))?;
        }
        blocks(out, &entry, p)
    }
}

/// An entry's content, block by block, indented under its header: a
/// custom record's data (unless it says something in words), text,
/// thinking (dimmed), tool calls with their arguments, images by type and
/// size, markup as what it means.
fn blocks(out: &mut dyn Write, entry: &Entry, p: Paint) -> std::io::Result<()> {
    let indented = |out: &mut dyn Write, text: &str, dim: bool| -> std::io::Result<()> {
        for line in escape_lines(text) {
            let line = if dim { p.dim(&line) } else { line };
            writeln!(out, "    {line}")?;
        }
        Ok(())
    };
    if let Message::Custom { data, said, .. } = &entry.message
        && said.is_empty()
    {
        writeln!(out)?;
        indented(
            out,
            &serde_json::to_string_pretty(data).unwrap_or_default(),
            false,
        )?;
    }
    let is_error = matches!(entry.message, Message::ToolResult { is_error: true, .. });
    for block in entry.message.content() {
        writeln!(out)?;
        match block {
            Block::Text(text) if is_error => {
                writeln!(out, "    {}", p.error("[error]"))?;
                indented(out, text, false)?;
            }
            Block::Text(text) => indented(out, text, false)?,
            Block::Thinking { text, redacted } => {
                let what = if *redacted {
                    "[thinking, redacted]"
                } else {
                    "[thinking]"
                };
                writeln!(out, "    {}", p.dim(what))?;
                indented(out, text, true)?;
            }
            Block::ToolCall {
                id,
                name,
                arguments,
            } => {
                writeln!(
                    out,
                    "    {} {} [{}]",
                    p.role("→ tool call"),
                    escape(name),
                    escape(id)
                )?;
                indented(
                    out,
                    &serde_json::to_string_pretty(arguments).unwrap_or_default(),
                    false,
                )?;
            }
            Block::Image { mime_type, bytes } => {
                writeln!(out, "    [{}, {}]", escape(mime_type), human_size(*bytes))?;
            }
            Block::Markup { pieces, .. } => {
                for (k, piece) in pieces.iter().enumerate() {
                    if k > 0 {
                        writeln!(out)?;
                    }
                    let (look, label, text) = piece.shown();
                    let label = escape(&label);
                    match look {
                        Look::Words => indented(out, text, false)?,
                        Look::Command => writeln!(out, "    {}", p.role(&label))?,
                        Look::Output => {
                            writeln!(out, "    {}", p.dim(&format!("[{label}]")))?;
                            indented(out, text, false)?;
                        }
                        Look::Error => {
                            writeln!(out, "    {}", p.error(&format!("[{label}]")))?;
                            indented(out, text, false)?;
                        }
                        Look::Context => {
                            writeln!(out, "    {}", p.dim(&format!("[{label}]")))?;
                            indented(out, text, true)?;
                        }
                    }
                }
            }
        }
    }
    Ok(())
}
