use std::io::{self, Write};

use clap::Args;

mod template;

use super::{Context, Exit, Failure, open_repo};
use crate::ui::graph::{Graph, Style};
use crate::ui::output::{escape, stored_json};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, fit, role_text, time};
use crate::view::{Headline, log};
use crate::{Format, Ix, Names, Tree};
use template::Template;

/// Show the conversation that led to an entry, newest first
///
/// Prints the path from the root to REV (default: HEAD), newest first, like
/// `git log`: each entry's id, its decorations (HEAD, branches, labels), its
/// role (with the model of an assistant, the tool of a tool result, the kind
/// of a custom record), its local time and the first line of its text.
/// `--graph` draws the whole tree as `jj log` does; `--all` lists every
/// entry of every branch.
///
/// Several REVs show the entries on any of their paths, newest first in file
/// order. As in git, `A..B` is what is on B's path and not on A's, `A...B`
/// what is on either side of their fork point, and `^A` leaves out A's path;
/// a side left out of a range is HEAD.
///
/// Examples:
///   ysess log -n 5                    the last five turns of the current branch
///   ysess log --oneline first-draft   the path to a checkpoint, one line each
///   ysess log --oneline main..lib     what lib did since it left main
///   ysess log --oneline -3 @-...@     both sides of the fork since the last checkout
///   ysess log --graph                 the whole tree, forks and all
///   ysess log --format '{id}{tab}{subject}' -n 3
#[derive(Debug, Clone, Args)]
#[command(verbatim_doc_comment)]
pub struct LogArgs {
    /// The entries whose paths to show, or ranges: A..B, A...B, ^A [default: HEAD]
    #[arg(
        value_name = "REV",
        allow_negative_numbers = true,
        add = crate::ui::complete::revisions()
    )]
    pub revs: Vec<String>,
    /// One line per entry: id, decorations, role and subject
    #[arg(long, conflicts_with = "format")]
    pub oneline: bool,
    /// Show at most N entries (`-N` too, as in git: `log -3`)
    #[arg(short = 'n', long = "max-count", value_name = "N")]
    pub max_count: Option<usize>,
    /// Oldest first
    #[arg(long, conflicts_with = "graph")]
    pub reverse: bool,
    /// Every entry of every branch, not just one path (so no REV)
    #[arg(long)]
    pub all: bool,
    /// Draw the tree (all of it, unless a REV is given)
    #[arg(long)]
    pub graph: bool,
    /// Draw the graph with ASCII characters only (with --graph)
    #[arg(long, requires = "graph")]
    pub ascii: bool,
    /// Print each entry with this template, e.g. '{id} {subject}'
    #[arg(long, value_name = "FMT", long_help = template::help())]
    pub format: Option<String>,
    /// End each entry with NUL instead of a newline
    #[arg(short = 'z')]
    pub nul: bool,
    /// The entries as stored, one JSON object per line
    #[arg(long, conflicts_with_all = ["graph", "format", "oneline"])]
    pub json: bool,
    /// Also show ysess's own bookkeeping records (hidden by default)
    #[arg(long)]
    pub markers: bool,
    #[command(flatten)]
    pub filters: super::filters::FilterArgs,
}

pub fn run(args: &LogArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let args = &counted(args)?;
    let filter = args
        .filters
        // Now in ysess's zone, never jiff's own reading of the system's.
        .filter(&|| jiff::Timestamp::now().to_zoned_datetime(ctx.tz.clone()))?;
    let template = args
        .format
        .as_deref()
        .map(Template::parse)
        .transpose()
        .map_err(Failure::usage)?;
    let render = Render {
        paint: Paint {
            on: ctx.streams.color_out,
        },
        // The zone is read the first time a local time is shown, if ever.
        tz: &ctx.tz,
        template: template.as_ref(),
        args,
        end: if args.nul { "\0" } else { "\n" },
        width: ctx.streams.width,
    };
    // `log -n N` of HEAD reads only the end of the file it needs (an empty
    // answer is left to the whole read, which tells an empty session).
    if let Some(items) =
        from_the_end(args, ctx, template.as_ref(), &filter).filter(|items| !items.is_empty())
    {
        paged(&mut ctx.streams, args.json, |out| {
            for (k, item) in items.iter().enumerate() {
                render.write(out, k, &render.text(item), &item.raw, None)?;
            }
            Ok(())
        })?;
        return Ok(Exit::Success);
    }
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    if tree.head().is_none() {
        return Err(super::empty("it has no entry to show"));
    }
    let names = Names::new(tree, tree.head(), &repo.refs.pairs());
    let (order, shown) = listed(args, &repo, &names, &filter)?;
    let (subagents, folder) = match ctx.session_file() {
        Some(path) if args.markers && !args.json && template.is_none() => (
            crate::stats::subagents::of_session(&repo, &path)?,
            path.parent().map(std::path::Path::to_path_buf),
        ),
        _ => (Vec::new(), None),
    };
    let note = |s| {
        format!(
            "↳ subagent {}",
            crate::ui::render::subagent_line(s, folder.as_deref())
        )
    };
    paged(&mut ctx.streams, args.json, |out| {
        let mut graph = args.graph.then(|| graph(args, tree, shown.as_ref()));
        // Each entry's text is made on every core; the graph is drawn and
        // the text written in order on this thread.
        let made = |ix| -> io::Result<(String, Vec<u8>)> {
            let mut item = Headline::of(tree, &names, ix, args.markers);
            if args.json {
                item.raw = repo.line(ix)?;
            }
            // With `--markers`, a Claude Code session's subagents in files
            // of their own: each under the tool result that carries its
            // answer, or after the list when no result names it.
            item.notes = subagents
                .iter()
                .filter(|s| s.answer == Some(ix))
                .map(note)
                .collect();
            if template.as_ref().is_some_and(Template::shows_usage) {
                item.spent = crate::stats::spent(&repo, ix)?;
            }
            Ok((render.text(&item), item.raw))
        };
        let mut k = 0;
        crate::view::rows_in_order(&order, made, |ix, made| {
            let (text, raw) = made?;
            render.write(out, k, &text, &raw, graph.as_mut().map(|g| (g, ix)))?;
            k += 1;
            Ok::<_, io::Error>(())
        })?;
        for s in subagents.iter().filter(|s| s.answer.is_none()) {
            writeln!(out, "{} (no tool result of this session names it)", note(s))?;
        }
        Ok(())
    })?;
    Ok(Exit::Success)
}

/// The arguments with `-3` read as `-n 3` (clap hands a negative number
/// over as a REV).
fn counted(args: &LogArgs) -> Result<LogArgs, Failure> {
    let (counts, revs): (Vec<&String>, Vec<&String>) =
        args.revs.iter().partition(|r| count_flag(r).is_some());
    let max_count = counts.last().and_then(|c| count_flag(c)).or(args.max_count);
    if args.all && !revs.is_empty() {
        return Err(Failure::usage(
            "--all cannot be used with a REV: it lists every entry of every branch",
        ));
    }
    Ok(LogArgs {
        revs: revs.into_iter().cloned().collect(),
        max_count,
        ..args.clone()
    })
}

/// The entries listed, in order: those selected, records left out unless
/// `--markers`, then the filters, `-n` and `--reverse`; and, for a graph
/// of some entries, the entries selected, whose lines it draws (`None`:
/// the whole tree's).
fn listed(
    args: &LogArgs,
    repo: &crate::repo::Repo,
    names: &Names,
    filter: &crate::search::filter::Filter,
) -> Result<(Vec<Ix>, Option<hashbrown::HashSet<Ix>>), Failure> {
    let whole_tree = selection(args).whole_tree();
    let tree = &repo.tree;
    let mut order = log::entries(repo, selection(args)).map_err(super::rev_failure)?;
    let shown = (args.graph && !whole_tree).then(|| order.iter().copied().collect());
    if !args.markers {
        order.retain(|&ix| !tree.is_record(ix));
    }
    filter.retain(repo, names, &mut order)?;
    if let Some(n) = args.max_count {
        order.truncate(n);
    }
    if args.reverse {
        order.reverse();
    }
    Ok((order, shown))
}

/// The graph the entries are drawn in: the whole tree's, or, for some
/// entries (`shown`), only the lines between them.
fn graph<'t>(
    args: &LogArgs,
    tree: &'t Tree,
    shown: Option<&'t hashbrown::HashSet<Ix>>,
) -> Graph<'t> {
    let style = if args.ascii {
        Style::Ascii
    } else {
        Style::Curved
    };
    let markers = args.markers;
    let up = move |ix: Ix| {
        if markers {
            tree.raw_parent(ix)
        } else {
            tree.parent(ix)
        }
    };
    let graph = Graph::new(tree, style);
    match shown {
        None => graph.with_parents(up),
        Some(shown) => graph.with_parents(move |ix| up(ix).filter(|p| shown.contains(p))),
    }
}

/// What the arguments select.
fn selection(args: &LogArgs) -> log::Selection<'_> {
    log::Selection {
        revs: &args.revs,
        all: args.all,
        graph: args.graph,
        markers: args.markers,
    }
}

/// The fast way for the common case: no REV (or HEAD), a count, one path.
/// `None` when the case is not that, or the end of the file raises doubts
/// (then the whole file is read, and its problems explained).
fn from_the_end(
    args: &LogArgs,
    ctx: &Context<'_>,
    template: Option<&Template>,
    filter: &crate::search::filter::Filter,
) -> Option<Vec<Headline>> {
    let head_only = matches!(args.revs.as_slice(), [] | [_])
        && matches!(
            args.revs.first().map(String::as_str),
            None | Some("HEAD" | "@")
        );
    let needs_whole = template.is_some_and(Template::needs_whole_file);
    // The read from the end knows yoagent's lines only.
    let yoagent = ctx.global.format_of.is_none_or(Format::yoagent_lines);
    let n = args.max_count.filter(|_| {
        yoagent
            && head_only
            && !args.all
            && !args.graph
            && !needs_whole
            && !args.markers
            && filter.is_empty()
    })?;
    let path = ctx.session_file()?;
    // Branch names show in the default forms and in `{decorations}`; only
    // then is the whole file searched for them.
    let branches = !args.json && template.is_none_or(Template::shows_decorations);
    let memos = memo_folder();
    let mut items = log::tail_rows(&path, n, branches, memos.as_deref())?;
    if args.reverse {
        items.reverse();
    }
    Some(items)
}

/// Where `log -n` remembers how far each session was searched for branch
/// records: `$YSESS_CACHE_DIR` (empty: nowhere), else `ysess` in
/// `$XDG_CACHE_HOME`, else in `~/.cache`.
fn memo_folder() -> Option<std::path::PathBuf> {
    use std::path::PathBuf;
    let set = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = std::env::var_os("YSESS_CACHE_DIR") {
        return (!dir.is_empty()).then(|| PathBuf::from(dir));
    }
    set("XDG_CACHE_HOME")
        .or_else(|| set("HOME").map(|home| home.join(".cache")))
        .map(|cache| cache.join("ysess"))
        .filter(|dir| dir.is_absolute())
}

/// N for a `-N` argument.
fn count_flag(text: &str) -> Option<usize> {
    let digits = text.strip_prefix('-')?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| digits.parse().ok())
        .flatten()
}

/// ` (HEAD, first-draft)` or nothing, escaped and painted.
fn decorations(row: &Headline, p: Paint) -> String {
    crate::ui::render::decorations(row.head, &row.branches, &row.labels, p)
}

/// `assistant claude-sonnet-5`: the role and its tag, escaped.
fn row_role(row: &Headline) -> String {
    role_text(row.kind, &row.tag)
}

/// How entries are written: the options and the surroundings.
struct Render<'a> {
    paint: Paint,
    tz: &'a crate::ui::zone::Zone,
    template: Option<&'a Template>,
    args: &'a LogArgs,
    end: &'a str,
    /// The terminal's width: graph rows are cut to it, since a row that
    /// wraps breaks the graph's columns. `None` on a pipe.
    width: Option<usize>,
}

impl Render<'_> {
    /// The entry's text, as the options say (empty for `--json`, which
    /// writes the line as stored).
    fn text(&self, item: &Headline) -> String {
        match self.template {
            _ if self.args.json => String::new(),
            Some(t) => t.render(item, self.tz),
            None if self.args.oneline || self.args.graph => self.oneline(item, self.args.graph),
            None => self.medium(item),
        }
    }

    /// Writes the `k`th entry listed: its `text` (or `raw`, its line as
    /// stored, for `--json`), beside its row of the graph when there is one.
    fn write(
        &self,
        out: &mut dyn Write,
        k: usize,
        text: &str,
        raw: &[u8],
        graph: Option<(&mut Graph<'_>, Ix)>,
    ) -> io::Result<()> {
        if self.args.json {
            return json_line_raw(out, raw, self.end);
        }
        match graph {
            Some((g, ix)) => {
                let row = g.draw(ix);
                for line in row.gap.iter().chain(&row.connector) {
                    writeln!(out, "{}", fit(line, self.width))?;
                }
                let mut lines = text.split('\n');
                let first = format!("{}{}", row.prefix, lines.next().unwrap_or(""));
                write!(out, "{}", fit(&first, self.width))?;
                for more in lines {
                    let line = format!("{}{more}", g.continuation());
                    write!(out, "\n{}", fit(&line, self.width))?;
                }
                out.write_all(self.end.as_bytes())
            }
            None => {
                // Entries of the two-line format are set apart by a blank line
                // (not with -z: NUL alone separates them there).
                if k > 0 && self.template.is_none() && !self.args.oneline && !self.args.nul {
                    out.write_all(b"\n")?;
                }
                write!(out, "{text}{}", self.end)
            }
        }
    }

    /// `e12 (HEAD, first-draft) assistant claude-sonnet-5: the subject`; in a
    /// graph the short time comes before the subject.
    fn oneline(&self, item: &Headline, with_time: bool) -> String {
        let p = self.paint;
        let when = if with_time {
            format!(" {}", p.dim(&time(item.timestamp, self.tz, true)))
        } else {
            String::new()
        };
        let mut text = format!(
            "{}{} {}{when}: {}",
            p.id(&escape(&item.short)),
            decorations(item, p),
            p.role(&row_role(item)),
            escape(&item.subject)
        );
        for note in &item.notes {
            text.push_str(&format!("\n  {}", p.dim(note)));
        }
        text
    }

    /// Two lines, as `git log` but shorter:
    ///
    /// ```text
    /// e12 (HEAD, first-draft)  assistant claude-sonnet-5  2026-10-09 14:03:27 +02:00
    ///     the subject
    /// ```
    fn medium(&self, item: &Headline) -> String {
        let p = self.paint;
        let mut text = format!(
            "{}{}  {}  {}\n    {}",
            p.id(&escape(&item.short)),
            decorations(item, p),
            p.role(&row_role(item)),
            p.dim(&time(item.timestamp, self.tz, false)),
            escape(&item.subject)
        );
        for note in &item.notes {
            text.push_str(&format!("\n    {}", p.dim(note)));
        }
        text
    }
}

/// An entry as stored, on one line, made safe for a terminal.
fn json_line_raw(out: &mut dyn Write, raw: &[u8], end: &str) -> io::Result<()> {
    let text = std::str::from_utf8(raw).map(str::trim).unwrap_or_default();
    out.write_all(stored_json(text).as_bytes())?;
    out.write_all(end.as_bytes())
}
