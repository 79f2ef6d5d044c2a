use std::io::Write;

use clap::Args;

use super::{Context, Exit, Failure, open_repo};
use crate::Names;
use crate::ui::output::{escape, escape_lines, stored_json};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, time};
use crate::view::message::{Body, Part};
use crate::view::{Look, Message, human_size};

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
    let body = Body::of(&entry);
    writeln!(
        out,
        "{} {}{}",
        p.header("entry"),
        p.id(&escape(tree.short_id(ix))),
        crate::ui::render::decorate(names, ix, p)
    )?;
    // The parent in the user's tree: ysess's records are folded out.
    if let Some(parent) = tree.parent(ix) {
        field(out, p, "Parent:", &p.id(&escape(tree.short_id(parent))))?;
    }
    field(out, p, "Role:", entry.message.role())?;
    what_it_is(out, &entry.message, &body, p, subagent)?;
    field(out, p, "Time:", &time(entry.timestamp, tz, false))?;
    field(out, p, "Format:", repo.format.name())?;
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
        field(
            out,
            p,
            "Label:",
            &format!("{}{note}", p.label(&escape(label))),
        )?;
    }
    let children: Vec<String> = tree
        .children(ix)
        .iter()
        .map(|&c| p.id(&escape(tree.short_id(c))))
        .collect();
    if !children.is_empty() {
        field(out, p, "Children:", &children.join(", "))?;
    }
    parts(out, &body, p)
}

/// One line of the header: its name, padded, then its value.
fn field(out: &mut dyn Write, p: Paint, name: &str, value: &str) -> std::io::Result<()> {
    writeln!(out, "{} {value}", p.header(&format!("{name:<9}")))
}

/// The header's lines for what the message is: a reply's model, stop,
/// usage and error; the tool and call a result answers; a record's kind.
fn what_it_is(
    out: &mut dyn Write,
    message: &Message,
    body: &Body<'_>,
    p: Paint,
    subagent: Option<&str>,
) -> std::io::Result<()> {
    match message {
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
                p,
                "Model:",
                &format!("{} ({})", escape(model), escape(provider)),
            )?;
            // A response written over several lines has its stop reason
            // on the last.
            if !stop_reason.is_empty() {
                field(out, p, "Stop:", &escape(stop_reason))?;
            }
            field(
                out,
                p,
                "Usage:",
                &format!(
                    "{} in, {} out, {} cache read, {} cache write",
                    usage.input, usage.output, usage.cache_read, usage.cache_write
                ),
            )?;
            if let Some(err) = error_message {
                field(out, p, "Error:", &p.error(&escape(err)))?;
            }
        }
        Message::ToolResult { .. } => {
            if let Some(answer) = body.answer {
                // Claude Code's results name the call, not the tool.
                let tool = match answer.tool {
                    "" => format!("[{}]", escape(answer.call)),
                    name => format!("{} [{}]", escape(name), escape(answer.call)),
                };
                field(out, p, "Tool:", &tool)?;
            }
            if body.failed() {
                field(out, p, "Result:", &p.error("error"))?;
            }
            if let Some(subagent) = subagent {
                field(out, p, "Subagent:", subagent)?;
            }
        }
        Message::Custom { kind, .. } => field(out, p, "Kind:", &escape(kind))?,
        Message::User { .. } => {}
    }
    Ok(())
}

/// An entry's body, part by part, indented under its header: a custom
/// record's data (unless it says something in words), text, thinking
/// (dimmed), tool calls with their arguments, a tool's output (errors
/// marked), images by type and size, markup as what it means. A model's
/// error is in the header.
fn parts(out: &mut dyn Write, body: &Body<'_>, p: Paint) -> std::io::Result<()> {
    let indented = |out: &mut dyn Write, text: &str, dim: bool| -> std::io::Result<()> {
        for line in escape_lines(text) {
            let line = if dim { p.dim(&line) } else { line };
            writeln!(out, "    {line}")?;
        }
        Ok(())
    };
    let pretty =
        |value: &serde_json::Value| serde_json::to_string_pretty(value).unwrap_or_default();
    for part in body.parts.iter().filter(|p| !matches!(p, Part::Error(_))) {
        writeln!(out)?;
        match part {
            Part::Output { text, error: true } => {
                writeln!(out, "    {}", p.error("[error]"))?;
                indented(out, text, false)?;
            }
            Part::Text(text) | Part::Output { text, .. } => indented(out, text, false)?,
            Part::Thinking { text, redacted } => {
                let what = if *redacted {
                    "[thinking, redacted]"
                } else {
                    "[thinking]"
                };
                writeln!(out, "    {}", p.dim(what))?;
                indented(out, text, true)?;
            }
            Part::ToolCall {
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
                indented(out, &pretty(arguments), false)?;
            }
            Part::Image {
                mime_type, bytes, ..
            } => {
                writeln!(out, "    [{}, {}]", escape(mime_type), human_size(*bytes))?;
            }
            Part::Markup(pieces) => {
                for (k, piece) in pieces.iter().enumerate() {
                    if k > 0 {
                        writeln!(out)?;
                    }
                    let label = escape(&piece.label);
                    let text = piece.text;
                    match piece.look {
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
            Part::Data(data) => indented(out, &pretty(data), false)?,
            // Shown in the header.
            Part::Error(_) => {}
        }
    }
    Ok(())
}
