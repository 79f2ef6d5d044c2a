mod all;
mod secrets;

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;

use super::filters::Role;
use super::{Context, Exit, Failure, open_repo, select, unreadable};
use crate::MessageKind;
use crate::search::scan::{Found, Skipped, scan};
use crate::search::{BlockHits, BlockKind, Pattern, PatternOptions, Scope};
use crate::ui::json::GrepMatch;
use crate::ui::output::{Level, escape, json_line};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, short_session};

/// Search the text of a session's messages
///
/// Prints each line of message text that PATTERN (a regular expression, as
/// the `regex` crate reads it) matches, as `git grep` does: the entry's id,
/// its role, and the line, the match highlighted on a terminal. Searched:
/// user and assistant text, thinking, tool calls' names and arguments (as
/// compact JSON), tool results; every entry of the file, or the paths from
/// the root to the REVs given. ysess's own records are never searched.
/// Exits 1 when nothing matches.
///
/// With --all, every session found where `ysess ls` looks (or under the
/// folders given in place of REVs) is searched, on every core: each match
/// as `SESSION:ENTRY role: text`, the sessions written last first; -l
/// prints the files of the sessions that match, -c each matching entry as
/// `SESSION:ENTRY:N`.
///
/// Examples:
///   ysess grep -i 'serde_json'            where any message mentions it
///   ysess grep -w plan first-draft        on the path to a checkpoint
///   ysess grep --tool bash -l 'ls '       the entries whose bash calls list files
///   ysess grep --json error | jq .id
///   ysess grep --all -l 'rate limit'      which sessions hit it
///   ysess grep --secrets                  what `export --redact` takes out
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct GrepArgs {
    /// The pattern: a regular expression, or with -F a fixed string (with
    /// --secrets, none: the first REV)
    #[arg(value_name = "PATTERN", required_unless_present = "secrets")]
    pub pattern: Option<String>,
    /// Search the paths from the root to these entries, or ranges of them
    /// as `log` takes them (`A..B`) [default: every entry of the file]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub revs: Vec<String>,
    /// PATTERN is a fixed string, not a regular expression
    #[arg(short = 'F', long)]
    pub fixed_strings: bool,
    /// Ignore case
    #[arg(short = 'i', long)]
    pub ignore_case: bool,
    /// Match whole words only
    #[arg(short = 'w', long)]
    pub word_regexp: bool,
    /// Show N lines of context around each match, within its block (`-C`
    /// is the global option that changes directory)
    #[arg(long, value_name = "N")]
    pub context: Option<usize>,
    /// Only messages of this role (repeatable)
    #[arg(long, value_enum, value_name = "ROLE")]
    pub role: Vec<Role>,
    /// Only the calls of the tool NAME (its name and arguments) and its
    /// results
    #[arg(long, value_name = "NAME")]
    pub tool: Option<String>,
    /// Print only the ids of the entries that match
    #[arg(short = 'l', long = "list", conflicts_with_all = ["count", "json", "context"])]
    pub list: bool,
    /// Print each matching entry's id and its number of matching lines
    #[arg(short = 'c', long, conflicts_with_all = ["json", "context"])]
    pub count: bool,
    /// One JSON object per match: id, line, role, block, kind, tool, start,
    /// end, text (with --all, also session and path)
    #[arg(long, conflicts_with = "context")]
    pub json: bool,
    /// Search every session, not only the session file
    #[arg(long)]
    pub all: bool,
    /// With --all: `--archive [DIR]`, `--no-archive`.
    #[command(flatten)]
    pub shelf: super::archive::Shelf,
    /// List what `export --redact` would take out, one find a line: the
    /// entry's id, the kind, and the secret partly masked; no PATTERN
    #[arg(long, conflicts_with_all = [
        "fixed_strings", "ignore_case", "word_regexp", "context", "role",
        "tool", "list", "count", "json", "all",
    ])]
    pub secrets: bool,
    /// With --secrets: also list what REGEX matches (kind `pattern`);
    /// repeatable
    #[arg(long, value_name = "REGEX", requires = "secrets")]
    pub redact_pattern: Vec<String>,
}

pub fn run(args: &GrepArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    args.shelf.only_with_all(args.all)?;
    if args.secrets {
        return secrets::run(args, ctx);
    }
    let (pattern, scope) = pattern_of(args)?;
    let render = Render {
        args,
        paint: Paint {
            on: ctx.streams.color_out,
        },
        session: None,
    };
    if args.all {
        return all::run(args, ctx, &pattern, &scope, &render);
    }
    // Claude Code's and Codex's tool results name only the call they
    // answer: their files are searched through the tree, which pairs them.
    let paired = args.revs.is_empty()
        && ctx
            .session_file()
            .is_some_and(|path| crate::search::through_tree(&path, ctx.global.format_of));
    let matched = if args.revs.is_empty() && !paired {
        let (matched, skipped) = stream(args, ctx, &pattern, &scope, &render)?;
        warn_skipped(ctx, &skipped)?;
        matched
    } else {
        through_tree(args, ctx, &pattern, &scope, &render, paired)?
    };
    Ok(if matched { Exit::Success } else { Exit::No })
}

/// Searches the file as it streams, on every core: whether anything
/// matched, and the lines that are no entry.
/// The pattern and the scope (roles, tool) the arguments ask for.
fn pattern_of(args: &GrepArgs) -> Result<(Pattern, Scope), Failure> {
    let options = PatternOptions {
        fixed: args.fixed_strings,
        ignore_case: args.ignore_case,
        word: args.word_regexp,
    };
    let text = args.pattern.as_deref().unwrap_or_default();
    let pattern = Pattern::new(text, options).map_err(|e| {
        Failure::usage(format!(
            "the pattern {:?} does not parse: {}",
            text,
            crate::search::one_line(&e)
        ))
    })?;
    let scope = Scope {
        roles: args.role.iter().map(|&r| r.into()).collect(),
        tool: args.tool.clone(),
    };
    Ok((pattern, scope))
}

/// grep's engine for one entry at a time (`/` in `ysess tui`): the
/// pattern and the filters of grep's arguments.
pub struct Matcher {
    pattern: Pattern,
    scope: Scope,
}

impl Matcher {
    /// grep's arguments as typed (`-i retry --role assistant`, quoted as a
    /// shell quotes): what does not parse is said as grep says it.
    pub fn parse(typed: &str) -> Result<Matcher, String> {
        use clap::FromArgMatches as _;
        let words = shlex::split(typed)
            .ok_or_else(|| format!("cannot split {typed:?}: a quote is not closed"))?;
        let mut cmd = GrepArgs::augment_args(clap::Command::new("/").no_binary_name(true))
            .disable_help_flag(true);
        let args = cmd
            .try_get_matches_from_mut(words)
            .and_then(|m| GrepArgs::from_arg_matches(&m))
            .map_err(|e| {
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or("").trim();
                first.strip_prefix("error: ").unwrap_or(first).to_string()
            })?;
        if args.all || !args.revs.is_empty() {
            return Err("/ searches the session open, from the selection: no REV, no --all".into());
        }
        let (pattern, scope) = pattern_of(&args).map_err(|f| format!("{:#}", f.error))?;
        Ok(Matcher { pattern, scope })
    }

    /// Whether entry `ix` of `repo` has a match (ysess's records and an
    /// app's bookkeeping never do).
    pub fn matches(&self, repo: &crate::repo::Repo, ix: crate::Ix) -> io::Result<bool> {
        let tree = &repo.tree;
        if tree.is_record(ix) || tree.node(ix).kind == MessageKind::Custom {
            return Ok(false);
        }
        let bytes = repo.line_bytes(ix)?;
        if !self.pattern.may_match_line(&bytes) {
            return Ok(false);
        }
        let entry = repo.entry_from(ix, &bytes)?;
        Ok(Found::in_entry(String::new(), 0, &entry, &self.pattern, &self.scope).is_some())
    }
}

fn stream(
    args: &GrepArgs,
    ctx: &mut Context<'_>,
    pattern: &Pattern,
    scope: &Scope,
    render: &Render<'_>,
) -> Result<(bool, Vec<Skipped>), Failure> {
    let found_any = AtomicBool::new(false);
    let mut skipped: Vec<Skipped> = Vec::new();
    let source = crate::Source::new(&ctx.global.file);
    let mut reader =
        Some(crate::Format::open(&source).map_err(|e| unreadable(ctx.global, &e, ""))?);
    let format = ctx.global.format_of;
    paged(&mut ctx.streams, args.json, |out| {
        // A pager that fails has the output written again, from the start.
        let reader = match reader.take() {
            Some(reader) => reader,
            None => crate::Format::open(&source)?,
        };
        skipped.clear();
        // Each part's output is made on its thread, then written in order.
        let keep = |f: Found, part: &mut Vec<u8>| {
            found_any.store(true, Ordering::Relaxed);
            render.entry(part, &f)
        };
        scan(reader, format, pattern, scope, keep, |part, s| {
            skipped.extend(s);
            out.write_all(&part)
        })
    })
    .map_err(|e| {
        let file = ctx.global.file.display().to_string();
        Failure::from(anyhow::Error::new(e).context(file))
    })?;
    Ok((found_any.into_inner(), skipped))
}

/// Searches the entries the revisions name (or, `paired`, every entry)
/// through the tree: whether anything matched.
fn through_tree(
    args: &GrepArgs,
    ctx: &mut Context<'_>,
    pattern: &Pattern,
    scope: &Scope,
    render: &Render<'_>,
    paired: bool,
) -> Result<bool, Failure> {
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    // The entries the revisions name together, as `log` takes them
    // (paths, and ranges such as `A..B`), searched in file order.
    let texts: Vec<&str> = args.revs.iter().map(String::as_str).collect();
    let mut ixs = if paired {
        tree.entries().collect()
    } else {
        select(&repo, &texts, false)?
    };
    ixs.sort_by_key(|&ix| tree.node(ix).line);
    ixs.dedup();
    let mut matched = false;
    paged(&mut ctx.streams, args.json, |out| {
        matched = search_entries(&repo, &ixs, pattern, scope, render, out)?;
        Ok(())
    })?;
    Ok(matched)
}

/// Searches the entries `ixs` of `repo` (in that order), writing each
/// match: whether any matched.
fn search_entries(
    repo: &crate::repo::Repo,
    ixs: &[crate::Ix],
    pattern: &Pattern,
    scope: &Scope,
    render: &Render<'_>,
    out: &mut dyn Write,
) -> io::Result<bool> {
    let tree = &repo.tree;
    let mut matched = false;
    for &ix in ixs {
        if tree.is_record(ix) || tree.node(ix).kind == MessageKind::Custom {
            continue;
        }
        let bytes = repo.line(ix)?;
        if !pattern.may_match_line(&bytes) {
            continue;
        }
        let (id, line) = (tree.id(ix).to_string(), tree.node(ix).line);
        let entry = repo.entry_from(ix, &bytes)?;
        if let Some(mut f) = Found::in_entry(id, line, &entry, pattern, scope) {
            f.short = Some(tree.short_id(ix).to_string());
            matched = true;
            render.entry(out, &f)?;
        }
    }
    Ok(matched)
}

/// Warns of the lines not searched (the first five, then how many more).
fn warn_skipped(ctx: &mut Context<'_>, skipped: &[Skipped]) -> Result<(), Failure> {
    let file = ctx.global.file.display().to_string();
    for s in skipped.iter().take(5) {
        ctx.streams.diag(
            Level::Warning,
            &escape(&format!(
                "{file}: line {}: not searched, not an entry: {} (`ysess fsck` explains)",
                s.line, s.why
            )),
        )?;
    }
    if skipped.len() > 5 {
        ctx.streams.diag(
            Level::Warning,
            &format!("{} more lines not searched", skipped.len() - 5),
        )?;
    }
    Ok(())
}

/// An entry's id as a person reads it (`--json` keeps it whole).
fn shown(f: &Found) -> &str {
    f.short.as_deref().unwrap_or(&f.id)
}

/// How matches are written.
#[derive(Clone)]
struct Render<'a> {
    args: &'a GrepArgs,
    paint: Paint,
    /// With `--all`: the session's id and file.
    session: Option<(String, String)>,
}

impl Render<'_> {
    fn entry(&self, out: &mut dyn Write, f: &Found) -> io::Result<()> {
        let p = self.paint;
        if self.args.list {
            // With --all, the session's file is listed once, by the caller.
            if self.session.is_some() {
                return Ok(());
            }
            return writeln!(out, "{}", p.id(&escape(shown(f))));
        }
        if self.args.count {
            let lines: usize = f.hits.iter().map(|h| h.lines.len()).sum();
            return writeln!(out, "{}:{lines}", p.id(&escape(&self.named(shown(f)))));
        }
        if self.args.json {
            for h in &f.hits {
                let tool = h.block.tool.as_deref().or(f.result_of.as_deref());
                for l in &h.lines {
                    for &(start, end) in &l.matches {
                        json_line(
                            out,
                            &GrepMatch {
                                session: self.session.as_ref().map(|s| s.0.as_str()),
                                path: self.session.as_ref().map(|s| s.1.as_str()),
                                id: &f.id,
                                line: f.line,
                                role: f.kind.role_name(),
                                block: h.block.index,
                                kind: h.block.kind.name(),
                                tool,
                                start,
                                end,
                                text: &h.block.text[start..end],
                            },
                        )?;
                    }
                }
            }
            return Ok(());
        }
        for h in &f.hits {
            let prefix = self.prefix(f, h);
            match self.args.context.filter(|&n| n > 0) {
                None => {
                    for l in &h.lines {
                        let line = &h.block.text[l.start..l.end];
                        write!(out, "{prefix}: ")?;
                        self.write_highlighted(out, line, l.start, &l.matches)?;
                        out.write_all(b"\n")?;
                    }
                }
                Some(n) => self.with_context(out, &prefix, h, n)?,
            }
        }
        Ok(())
    }

    /// `e4 assistant`, `e2 assistant [thinking]`, `e3 toolResult bash`.
    fn prefix(&self, f: &Found, h: &BlockHits) -> String {
        let p = self.paint;
        let what = match (h.block.kind, &f.result_of) {
            (BlockKind::Thinking, _) => " [thinking]".to_string(),
            (BlockKind::ToolName, _) => " [tool call]".to_string(),
            (BlockKind::ToolArguments, _) => {
                format!(" [{}]", escape(h.block.tool.as_deref().unwrap_or_default()))
            }
            (BlockKind::Text, Some(tool)) => format!(" {}", escape(tool)),
            (BlockKind::Text, None) => String::new(),
        };
        format!(
            "{} {}",
            p.id(&escape(&self.named(shown(f)))),
            p.role(&format!("{}{what}", f.kind.role_name()))
        )
    }

    /// An entry's id, after its session's as `ls` shows it
    /// (`SESSION:ENTRY`) with `--all`.
    fn named(&self, id: &str) -> String {
        match &self.session {
            Some((session, _)) => format!("{}:{id}", short_session(session)),
            None => id.to_string(),
        }
    }

    /// A line of text escaped, its matches (byte ranges of the block,
    /// the line starting at `at`) painted.
    fn highlight(&self, line: &str, at: usize, matches: &[(usize, usize)]) -> String {
        let mut shown = String::with_capacity(line.len());
        let mut from = 0;
        for &(start, end) in matches {
            let (start, end) = (start - at, end - at);
            shown.push_str(&escape(&line[from..start]));
            shown.push_str(&self.paint.matched(&escape(&line[start..end])));
            from = end;
        }
        shown.push_str(&escape(&line[from..]));
        shown
    }

    /// [`Render::highlight`] written straight out.
    fn write_highlighted(
        &self,
        out: &mut dyn Write,
        line: &str,
        at: usize,
        matches: &[(usize, usize)],
    ) -> io::Result<()> {
        if self.paint.on {
            return out.write_all(self.highlight(line, at, matches).as_bytes());
        }
        out.write_all(escape(line).as_bytes())
    }

    /// The matched lines of a block with `n` lines around each, as grep
    /// shows them: `:` before a matched line, `-` before context, `--`
    /// between groups apart.
    fn with_context(
        &self,
        out: &mut dyn Write,
        prefix: &str,
        h: &BlockHits,
        n: usize,
    ) -> io::Result<()> {
        let text = &h.block.text;
        let mut starts = vec![0];
        starts.extend(memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1));
        let line_at = |k: usize| {
            let start = starts[k];
            let end = starts.get(k + 1).map_or(text.len(), |&s| s - 1);
            (start, &text[start..end])
        };
        let mut next = 0; // the first line not yet shown
        let mut hits = h.lines.iter().peekable();
        while let Some(hit) = hits.next() {
            let from = hit.number.saturating_sub(n).max(next);
            if next > 0 && from > next {
                writeln!(out, "--")?;
            }
            for k in from..hit.number {
                writeln!(out, "{prefix}- {}", escape(line_at(k).1))?;
            }
            writeln!(
                out,
                "{prefix}: {}",
                self.highlight(&text[hit.start..hit.end], hit.start, &hit.matches)
            )?;
            next = hit.number + 1;
            let until = hit
                .number
                .saturating_add(n)
                .saturating_add(1)
                .min(starts.len());
            let stop = hits.peek().map_or(until, |h| h.number.min(until));
            for k in next..stop {
                writeln!(out, "{prefix}- {}", escape(line_at(k).1))?;
            }
            next = next.max(stop);
        }
        Ok(())
    }
}
