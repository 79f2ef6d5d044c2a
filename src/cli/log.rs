use std::io::{self, Write};

use clap::Args;

use super::output::{SafeJson, escape};
use super::pager::paged;
use super::render::{Names, Paint, iso_time, role, time};
use super::{Context, Exit, Failure, open_session, resolve};
use crate::graph::{Graph, Style, display_order};
use crate::index::{Ix, Tree};
use crate::load::Session;

/// Show the conversation that led to an entry, newest first
///
/// Prints the path from the root to REV (default: HEAD), newest first, like
/// `git log`: each entry's id, its decorations (HEAD, branches, labels), its
/// role (with the model of an assistant, the tool of a tool result, the kind
/// of a custom record), its local time and the first line of its text.
/// `--graph` draws the whole tree as `jj log` does; `--all` lists every
/// entry of every branch.
///
/// Examples:
///   ysess log -n 5                    the last five turns of the current branch
///   ysess log --oneline first-draft   the path to a checkpoint, one line each
///   ysess log --graph                 the whole tree, forks and all
///   ysess log --format '{id}{tab}{subject}' -n 3
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct LogArgs {
    /// The entry whose path to show [default: HEAD]
    #[arg(value_name = "REV")]
    pub rev: Option<String>,
    /// One line per entry: id, decorations, role and subject
    #[arg(long)]
    pub oneline: bool,
    /// Show at most N entries
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
    /// Oldest first
    #[arg(long, conflicts_with = "graph")]
    pub reverse: bool,
    /// Every entry of every branch, not just one path
    #[arg(long)]
    pub all: bool,
    /// Draw the tree (all of it, unless a REV is given)
    #[arg(long)]
    pub graph: bool,
    /// Draw the graph with ASCII characters only
    #[arg(long)]
    pub ascii: bool,
    /// Print each entry with this template (see README: placeholders such as
    /// {id}, {parent}, {role}, {subject}, {time}, {ts}, {labels}, {n})
    #[arg(long, value_name = "FMT")]
    pub format: Option<String>,
    /// End each entry with NUL instead of a newline
    #[arg(short = 'z')]
    pub nul: bool,
    /// The entries as stored, one JSON object per line
    #[arg(long, conflicts_with_all = ["graph", "format", "oneline"])]
    pub json: bool,
    /// Never page the output
    #[arg(long)]
    pub no_pager: bool,
}

pub fn run(args: &LogArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let session = open_session(ctx)?;
    let tree = &session.tree;
    let head = tree.head();
    let whole_tree = args.all || (args.graph && args.rev.is_none());
    let mut order: Vec<Ix> = if whole_tree {
        if args.graph {
            display_order(tree)
        } else {
            (0..tree.len() as Ix).rev().collect()
        }
    } else {
        let rev = args.rev.as_deref().unwrap_or("HEAD");
        let target = resolve(tree, head, &[], rev)?;
        let mut path = tree.path(target);
        path.reverse();
        path
    };
    if let Some(n) = args.max_count {
        order.truncate(n);
    }
    if args.reverse {
        order.reverse();
    }
    let names = Names::new(tree, head, &[]);
    let paint = Paint {
        on: ctx.streams.color_out,
    };
    let tz = ctx.tz.clone();
    let end = if args.nul { "\0" } else { "\n" };
    let view = View {
        tree,
        names: &names,
        paint,
        tz: &tz,
    };
    let template = args
        .format
        .as_deref()
        .map(Template::parse)
        .transpose()
        .map_err(Failure::usage)?;
    paged(ctx, args.no_pager || args.json, |out| {
        if args.json {
            return json_entries(&session, &order, out, end);
        }
        let mut graph = (args.graph).then(|| {
            Graph::new(
                tree,
                if args.ascii {
                    Style::Ascii
                } else {
                    Style::Curved
                },
            )
        });
        for (k, &ix) in order.iter().enumerate() {
            let text = match &template {
                Some(t) => t.render(&view, ix),
                None if args.oneline || args.graph => view.oneline(ix, args.graph),
                None => view.medium(ix),
            };
            match graph.as_mut() {
                Some(g) => {
                    let row = g.draw(ix);
                    if let Some(connector) = row.connector {
                        writeln!(out, "{connector}")?;
                    }
                    let mut lines = text.split('\n');
                    write!(out, "{}{}", row.prefix, lines.next().unwrap_or(""))?;
                    for more in lines {
                        write!(out, "\n{}{more}", g.continuation())?;
                    }
                    out.write_all(end.as_bytes())?;
                }
                None => {
                    if k > 0 && template.is_none() && !args.oneline {
                        out.write_all(b"\n")?;
                    }
                    write!(out, "{text}{end}")?;
                }
            }
        }
        Ok(())
    })?;
    Ok(Exit::Success)
}

/// The entries as stored, one per line. A line is passed through as it is
/// unless it holds characters unsafe for a terminal; those are re-encoded
/// (the same JSON, escaped).
fn json_entries(session: &Session, order: &[Ix], out: &mut dyn Write, end: &str) -> io::Result<()> {
    for &ix in order {
        let line = session.line(ix)?;
        let text = std::str::from_utf8(&line)
            .map(str::trim)
            .unwrap_or_default();
        if text
            .chars()
            .any(|c| escape(&c.to_string()).len() > c.len_utf8())
        {
            let value: serde_json::Value = serde_json::from_str(text).map_err(io::Error::other)?;
            let mut ser = serde_json::Serializer::with_formatter(&mut *out, SafeJson);
            serde::Serialize::serialize(&value, &mut ser).map_err(io::Error::other)?;
        } else {
            out.write_all(text.as_bytes())?;
        }
        out.write_all(end.as_bytes())?;
    }
    Ok(())
}

/// What rendering an entry needs.
pub struct View<'a> {
    pub tree: &'a Tree,
    pub names: &'a Names,
    pub paint: Paint,
    pub tz: &'a jiff::tz::TimeZone,
}

impl View<'_> {
    /// `e12 (HEAD, first-draft) assistant claude-sonnet-5: the subject`; in a
    /// graph the short time comes before the subject.
    pub fn oneline(&self, ix: Ix, with_time: bool) -> String {
        let (tree, p) = (self.tree, self.paint);
        let when = if with_time {
            format!(" {}", p.dim(&time(tree.node(ix).timestamp, self.tz, true)))
        } else {
            String::new()
        };
        format!(
            "{}{} {}{when}: {}",
            p.id(&escape(tree.id(ix))),
            self.names.decorations(ix, p),
            p.role(&role(tree, ix)),
            escape(tree.subject(ix))
        )
    }

    /// Two lines, as `git log` but shorter:
    ///
    /// ```text
    /// e12 (HEAD, first-draft)  assistant claude-sonnet-5  2026-10-09 14:03:27 +02:00
    ///     the subject
    /// ```
    pub fn medium(&self, ix: Ix) -> String {
        let (tree, p) = (self.tree, self.paint);
        format!(
            "{}{}  {}  {}\n    {}",
            p.id(&escape(tree.id(ix))),
            self.names.decorations(ix, p),
            p.role(&role(tree, ix)),
            p.dim(&time(tree.node(ix).timestamp, self.tz, false)),
            escape(tree.subject(ix))
        )
    }
}

/// A `--format` template: text with `{placeholder}`s.
pub struct Template {
    parts: Vec<Part>,
}

enum Part {
    Text(String),
    Id,
    Parent,
    Role,
    Tag,
    Subject,
    Time,
    Ts,
    Labels,
    Decorations,
    Depth,
    Line,
}

impl Template {
    pub fn parse(text: &str) -> Result<Template, String> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut literal = String::new();
        while let Some(open) = rest.find('{') {
            literal.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                return Err(format!("--format: `{{` without `}}` in '{text}'"));
            };
            let name = &rest[open + 1..open + close];
            let part = match name {
                "id" => Part::Id,
                "parent" => Part::Parent,
                "role" => Part::Role,
                "tag" => Part::Tag,
                "subject" => Part::Subject,
                "time" => Part::Time,
                "ts" => Part::Ts,
                "labels" => Part::Labels,
                "decorations" => Part::Decorations,
                "depth" => Part::Depth,
                "line" => Part::Line,
                "n" => {
                    literal.push('\n');
                    rest = &rest[open + close + 1..];
                    continue;
                }
                "tab" => {
                    literal.push('\t');
                    rest = &rest[open + close + 1..];
                    continue;
                }
                "nul" => {
                    literal.push('\0');
                    rest = &rest[open + close + 1..];
                    continue;
                }
                "{" => {
                    literal.push('{');
                    rest = &rest[open + close + 1..];
                    continue;
                }
                other => {
                    return Err(format!(
                        "--format: unknown placeholder {{{other}}}; known: {{id}} {{parent}} {{role}} {{tag}} \
                         {{subject}} {{time}} {{ts}} {{labels}} {{decorations}} {{depth}} {{line}} {{n}} {{tab}} {{nul}}"
                    ));
                }
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parts.push(part);
            rest = &rest[open + close + 1..];
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(Template { parts })
    }

    /// The template filled in for one entry; session text is escaped.
    pub fn render(&self, view: &View<'_>, ix: Ix) -> String {
        let tree = view.tree;
        let node = tree.node(ix);
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Id => out.push_str(&escape(tree.id(ix))),
                Part::Parent => out.push_str(
                    &node
                        .parent
                        .map(|p| escape(tree.id(p)).into_owned())
                        .unwrap_or_default(),
                ),
                Part::Role => out.push_str(node.kind.role_name()),
                Part::Tag => out.push_str(&escape(tree.tag(ix))),
                Part::Subject => out.push_str(&escape(tree.subject(ix))),
                Part::Time => out.push_str(&iso_time(node.timestamp, view.tz)),
                Part::Ts => out.push_str(&node.timestamp.to_string()),
                Part::Labels => out.push_str(&escape(&view.names.labels(ix).join(","))),
                Part::Decorations => out.push_str(&escape(&view.names.words(ix).join(", "))),
                Part::Depth => out.push_str(&node.depth.to_string()),
                Part::Line => out.push_str(&node.line.to_string()),
            }
        }
        out
    }
}
