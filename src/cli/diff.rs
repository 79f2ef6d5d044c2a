use std::collections::BTreeMap;
use std::io::Write;

use clap::Args;
use similar::{ChangeTag, TextDiff};

use super::{Context, Exit, Failure, open_repo, resolve};
use crate::Source;
use crate::Tree;
use crate::compare::files::{self, Status};
use crate::compare::turns::{Stats, Step};
use crate::compare::{Comparison, Side};
use crate::repo::Repo;
use crate::ui::json;
use crate::ui::output::{escape, escape_lines, json_line};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, role};

/// Compare two directions of a conversation
///
/// Compares the path root→A with root→B (`diff REV` compares HEAD with REV):
/// prints the fork point (the last entry both share), then what each side did
/// after it. The turns after the fork are aligned as a conversation (turns
/// that play the same part, by role and the tools they call, side by side),
/// and each changed pair shows as a unified diff of its text. Turns on one
/// side only show as wholly removed (-) or added (+).
///
/// With --files OLD NEW, compares two copies of one session file instead:
/// which entries were added, removed or changed, entry by entry.
///
/// Examples:
///   ysess diff first-draft lib        what the library direction did differently
///   ysess diff --stat e6 e15          turns, tokens and tool calls on each side
///   ysess diff --summary e6 e15       one line per turn
///   ysess diff --files old.jsonl session.jsonl
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct DiffArgs {
    /// One side [default: HEAD, with REV as the other]
    #[arg(value_name = "A", add = crate::ui::complete::revisions())]
    pub a: Option<String>,
    /// The other side
    #[arg(value_name = "B", add = crate::ui::complete::revisions())]
    pub b: Option<String>,
    /// Lines of context around each change
    #[arg(short = 'U', long = "unified", value_name = "N", default_value_t = 3)]
    pub context: usize,
    /// Per side: turns by role, tokens in and out, tool calls by name
    #[arg(long)]
    pub stat: bool,
    /// One line per turn: `+ e42 assistant: …`
    #[arg(long)]
    pub summary: bool,
    /// Show changed words inline ([-old-]{+new+}) instead of lines
    #[arg(long)]
    pub word_diff: bool,
    /// Show changed words inline, in colour
    #[arg(long)]
    pub color_words: bool,
    /// Exit 1 when the sides differ, 0 when not
    #[arg(long)]
    pub exit_code: bool,
    /// The fork point, the aligned turns and the stats as JSON
    #[arg(long, conflicts_with_all = ["stat", "summary", "word_diff", "color_words"])]
    pub json: bool,
    /// Compare two copies of a session file (OLD NEW) entry by entry
    #[arg(
        long,
        num_args = 2,
        value_names = ["OLD", "NEW"],
        conflicts_with_all = ["a", "b", "stat", "summary", "word_diff", "color_words", "context"]
    )]
    pub files: Option<Vec<std::path::PathBuf>>,
}

/// More context than any turn has lines: larger values change nothing.
const MAX_CONTEXT: usize = 1 << 20;

pub fn run(args: &DiffArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    // `-q`/`--quiet` (the global option): print nothing, answer by status.
    let quiet = ctx.global.quiet;
    if let Some(files) = &args.files {
        return files_diff(args, ctx, &files[0], &files[1]);
    }
    let repo = open_repo(ctx)?;
    let tree = &repo.tree;
    let (a, b) = match (&args.a, &args.b) {
        (Some(a), Some(b)) => (resolve(&repo, a)?, resolve(&repo, b)?),
        (Some(rev), None) => (resolve(&repo, "HEAD")?, resolve(&repo, rev)?),
        (None, _) => {
            return Err(Failure::usage(
                "diff needs a revision to compare HEAD with (or A B)",
            ));
        }
    };
    let cmp = Comparison::of(&repo, a, b)?;
    let differ = cmp.differ();
    let exit = if (args.exit_code || quiet) && differ {
        Exit::No
    } else {
        Exit::Success
    };
    if quiet {
        return Ok(exit);
    }
    if args.json {
        json_line(ctx.streams.out, &json_view(tree, &cmp))?;
        return Ok(exit);
    }
    let p = Paint {
        on: ctx.streams.color_out,
    };
    paged(&mut ctx.streams, false, |out| {
        human(out, args, tree, &cmp, p)
    })?;
    Ok(exit)
}

/// `diff A B` as it prints without colour, for a view that shows it in a
/// box of its own (the browser's `d`): the session read as `global` names
/// it, A and B resolved, their comparison; or why not.
pub(crate) fn plain(
    global: &super::Global,
    refs: Option<crate::refs::store::Store>,
    a: &str,
    b: &str,
) -> Result<String, Failure> {
    let ctx = Context {
        global,
        streams: crate::ui::output::Streams {
            out: &mut std::io::sink(),
            err: &mut std::io::sink(),
            color_err: false,
            color_out: false,
            pager: None,
            width: None,
        },
        tz: crate::ui::zone::Zone::default(),
        refs,
        browse: None,
    };
    let repo = open_repo(&ctx)?;
    let (a, b) = (resolve(&repo, a)?, resolve(&repo, b)?);
    let cmp = Comparison::of(&repo, a, b)?;
    let args = DiffArgs {
        a: None,
        b: None,
        context: 3,
        stat: false,
        summary: false,
        word_diff: false,
        color_words: false,
        exit_code: false,
        json: false,
        files: None,
    };
    let mut out = Vec::new();
    human(&mut out, &args, &repo.tree, &cmp, Paint { on: false })?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// `--json`: the comparison as one object.
fn json_view<'a>(tree: &'a Tree, cmp: &'a Comparison) -> json::Diff<'a> {
    json::Diff {
        a: tree.id(cmp.a.tip),
        b: tree.id(cmp.b.tip),
        fork_point: cmp.fork.map(|f| json::Fork {
            id: tree.id(f),
            subject: tree.subject(f),
        }),
        pairs: cmp.steps.iter().map(|s| json_step(tree, cmp, *s)).collect(),
        stats: json::Stats {
            a: Stats::of(&cmp.a.entries),
            b: Stats::of(&cmp.b.entries),
        },
    }
}

/// The comparison for people: the fork point, the two sides, then the
/// `--stat` table, the `--summary` lines or every step in full.
fn human(
    out: &mut dyn Write,
    args: &DiffArgs,
    tree: &Tree,
    cmp: &Comparison,
    p: Paint,
) -> std::io::Result<()> {
    let (side_a, side_b) = (&cmp.a, &cmp.b);
    match cmp.fork {
        Some(f) => writeln!(
            out,
            "{} {} {}: {}",
            p.header("fork point"),
            p.id(&escape(tree.short_id(f))),
            role(tree, f),
            escape(tree.subject(f))
        )?,
        None => writeln!(
            out,
            "{} none: the two paths share no entry",
            p.header("fork point")
        )?,
    }
    writeln!(
        out,
        "{} {} ({} after the fork)\n{} {} ({} after the fork)",
        p.error("---"),
        p.id(&escape(tree.short_id(side_a.tip))),
        turns(side_a.turns.len()),
        p.label("+++"),
        p.id(&escape(tree.short_id(side_b.tip))),
        turns(side_b.turns.len())
    )?;
    if args.stat {
        write_stats(
            out,
            "a",
            tree.short_id(side_a.tip),
            &Stats::of(&side_a.entries),
        )?;
        write_stats(
            out,
            "b",
            tree.short_id(side_b.tip),
            &Stats::of(&side_b.entries),
        )?;
        let (same, changed, removed, added) = cmp.counts();
        writeln!(
            out,
            " {changed} changed, {added} added, {removed} removed, {same} the same"
        )?;
        // `--stat --summary` prints both, as in git.
        if !args.summary {
            return Ok(());
        }
    }
    for &step in &cmp.steps {
        if args.summary {
            summary_step(out, tree, cmp, step, p)?;
        } else {
            full_step(out, args, tree, cmp, step, p)?;
        }
    }
    Ok(())
}

/// `id role: subject` of a side's `k`th turn, escaped.
fn turn_line(tree: &Tree, side: &Side, k: usize) -> String {
    format!(
        "{} {}: {}",
        escape(tree.short_id(side.turns[k])),
        role(tree, side.turns[k]),
        escape(tree.subject(side.turns[k]))
    )
}

/// One step of `--summary`: `=`, `~`, `-` or `+`, and the turn.
fn summary_step(
    out: &mut dyn Write,
    tree: &Tree,
    cmp: &Comparison,
    step: Step,
    p: Paint,
) -> std::io::Result<()> {
    let (side_a, side_b) = (&cmp.a, &cmp.b);
    match step {
        Step::Pair { a, b, same } => writeln!(
            out,
            "{} {} {}",
            if same { "=" } else { "~" },
            p.id(&escape(tree.short_id(side_a.turns[a]))),
            turn_line(tree, side_b, b)
        ),
        Step::OnlyA(a) => writeln!(
            out,
            "{}",
            p.error(&format!("- {}", turn_line(tree, side_a, a)))
        ),
        Step::OnlyB(b) => writeln!(
            out,
            "{}",
            p.label(&format!("+ {}", turn_line(tree, side_b, b)))
        ),
    }
}

/// One step in full: a changed turn's text diffed, a turn on one side only
/// with its text.
fn full_step(
    out: &mut dyn Write,
    args: &DiffArgs,
    tree: &Tree,
    cmp: &Comparison,
    step: Step,
    p: Paint,
) -> std::io::Result<()> {
    let (side_a, side_b) = (&cmp.a, &cmp.b);
    let (texts_a, texts_b) = (&side_a.texts, &side_b.texts);
    writeln!(out)?;
    match step {
        Step::Pair { a, b, same: true } => writeln!(
            out,
            "{}",
            p.dim(&format!(
                "= {} {} (the same)",
                escape(tree.short_id(side_a.turns[a])),
                turn_line(tree, side_b, b)
            ))
        ),
        Step::Pair { a, b, same: false } => {
            writeln!(
                out,
                "{} {} → {} {}",
                p.header("~"),
                p.id(&escape(tree.short_id(side_a.turns[a]))),
                p.id(&escape(tree.short_id(side_b.turns[b]))),
                role(tree, side_b.turns[b])
            )?;
            if args.word_diff || args.color_words {
                write_words(out, &texts_a[a], &texts_b[b], args.color_words && p.on, p)
            } else {
                write_lines(
                    out,
                    &texts_a[a],
                    &texts_b[b],
                    args.context.min(MAX_CONTEXT),
                    p,
                )
            }
        }
        Step::OnlyA(a) => one_side(out, '-', &turn_line(tree, side_a, a), &texts_a[a], |t| {
            p.error(t)
        }),
        Step::OnlyB(b) => one_side(out, '+', &turn_line(tree, side_b, b), &texts_b[b], |t| {
            p.label(t)
        }),
    }
}

/// A turn on one side only: `- id role: subject`, then its text, each line
/// marked and painted.
fn one_side(
    out: &mut dyn Write,
    sign: char,
    turn: &str,
    text: &str,
    paint: impl Fn(&str) -> String,
) -> std::io::Result<()> {
    writeln!(out, "{}", paint(&format!("{sign} {turn}")))?;
    for l in escape_lines(text.trim_end()) {
        writeln!(out, "{}", paint(&format!("{sign}{l}")))?;
    }
    Ok(())
}

fn turns(n: usize) -> String {
    format!("{n} {}", if n == 1 { "turn" } else { "turns" })
}

fn write_stats(out: &mut dyn Write, label: &str, tip: &str, s: &Stats) -> std::io::Result<()> {
    let roles: Vec<String> = s
        .roles
        .iter()
        .map(|(r, n)| format!("{n} {}", escape(r)))
        .collect();
    let tools: Vec<String> = s
        .tool_calls
        .iter()
        .map(|(t, n)| format!("{} ×{n}", escape(t)))
        .collect();
    let roles = if roles.is_empty() {
        String::new()
    } else {
        format!(" ({})", roles.join(", "))
    };
    writeln!(
        out,
        " {label}: {}: {}{roles}, {} tokens in, {} out, tool calls: {}",
        escape(tip),
        turns(s.turns),
        s.tokens_in,
        s.tokens_out,
        if tools.is_empty() {
            "none".to_string()
        } else {
            tools.join(", ")
        }
    )
}

/// A unified diff of two turns' text, escaped line by line.
fn write_lines(
    out: &mut dyn Write,
    a: &str,
    b: &str,
    context: usize,
    p: Paint,
) -> std::io::Result<()> {
    let diff = TextDiff::from_lines(a, b);
    for hunk in diff.unified_diff().context_radius(context).iter_hunks() {
        writeln!(out, "{}", p.role(&hunk.header().to_string()))?;
        for change in hunk.iter_changes() {
            let text = escape_lines(change.value().trim_end_matches('\n')).join("\\n");
            match change.tag() {
                ChangeTag::Delete => writeln!(out, "{}", p.error(&format!("-{text}")))?,
                ChangeTag::Insert => writeln!(out, "{}", p.label(&format!("+{text}")))?,
                ChangeTag::Equal => writeln!(out, " {text}")?,
            }
        }
    }
    Ok(())
}

/// Changed words inline: `[-old-]{+new+}`, or in colour.
fn write_words(
    out: &mut dyn Write,
    a: &str,
    b: &str,
    colour: bool,
    p: Paint,
) -> std::io::Result<()> {
    let diff = TextDiff::from_words(a, b);
    // Runs of one kind of change, so `[-a b-]` rather than `[-a-][- -][-b-]`.
    let mut runs: Vec<(ChangeTag, String)> = Vec::new();
    for change in diff.iter_all_changes() {
        match runs.last_mut() {
            Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
            _ => runs.push((change.tag(), change.value().to_string())),
        }
    }
    let mut line = String::new();
    // Escape the session text first, then colour it, line by line.
    for (tag, text) in &runs {
        let lines = escape_lines(text);
        for (k, text) in lines.iter().enumerate() {
            if k > 0 {
                line.push('\n');
            }
            let piece = match (tag, colour) {
                (ChangeTag::Equal, _) => text.to_string(),
                _ if text.is_empty() => String::new(),
                (ChangeTag::Delete, true) => p.error(text),
                (ChangeTag::Insert, true) => p.label(text),
                (ChangeTag::Delete, false) => format!("[-{text}-]"),
                (ChangeTag::Insert, false) => format!("{{+{text}+}}"),
            };
            line.push_str(&piece);
        }
    }
    for l in line.trim_end().lines() {
        writeln!(out, "{l}")?;
    }
    Ok(())
}

fn json_step<'a>(tree: &'a Tree, cmp: &Comparison, step: Step) -> json::Step<'a> {
    let (insertions, deletions) = cmp.changed_lines(step);
    let (a, b, side, k, status) = match step {
        Step::Pair { a, b, same } => (
            Some(a),
            Some(b),
            &cmp.b,
            b,
            if same { "same" } else { "changed" },
        ),
        Step::OnlyA(a) => (Some(a), None, &cmp.a, a, "removed"),
        Step::OnlyB(b) => (None, Some(b), &cmp.b, b, "added"),
    };
    json::Step {
        a: a.map(|a| tree.id(cmp.a.turns[a])),
        b: b.map(|b| tree.id(cmp.b.turns[b])),
        role: side.entries[k].message.role().to_string(),
        status,
        insertions,
        deletions,
    }
}

/// `diff --files OLD NEW`: entries added, removed or changed, by id.
fn files_diff(
    args: &DiffArgs,
    ctx: &mut Context<'_>,
    old: &std::path::Path,
    new: &std::path::Path,
) -> Result<Exit, Failure> {
    let quiet = ctx.global.quiet;
    let load = |path: &std::path::Path| {
        Repo::open(
            Source::Path(path.to_path_buf()),
            &crate::repo::Open::default(),
        )
        .map_err(|e| {
            Failure::from(anyhow::anyhow!(
                "{}: {e}",
                escape(&path.display().to_string())
            ))
        })
    };
    let (old_s, new_s) = (load(old)?, load(new)?);
    let changes = files::changes(&old_s, &new_s)?;
    let exit = if (args.exit_code || quiet) && !changes.is_empty() {
        Exit::No
    } else {
        Exit::Success
    };
    if quiet {
        return Ok(exit);
    }
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let out = &mut ctx.streams.out;
    let mut tally: BTreeMap<char, usize> = BTreeMap::new();
    for change in &changes {
        let (mark, ix, note) = (change.status.mark(), &change.ix, &change.note);
        *tally.entry(mark).or_default() += 1;
        let tree = if change.status == Status::Removed {
            &old_s.tree
        } else {
            &new_s.tree
        };
        if args.json {
            let status = change.status.as_str();
            json_line(
                *out,
                &json::Change {
                    status,
                    id: tree.id(*ix),
                    line: tree.node(*ix).line,
                    note,
                },
            )?;
            continue;
        }
        let text = format!(
            "{mark} {} {}: {}{}",
            escape(tree.short_id(*ix)),
            role(tree, *ix),
            escape(tree.subject(*ix)),
            if note.is_empty() {
                String::new()
            } else {
                format!("  ({})", escape(note))
            }
        );
        let text = match mark {
            '+' => p.label(&text),
            '-' => p.error(&text),
            _ => text,
        };
        writeln!(out, "{text}")?;
    }
    if !args.json {
        writeln!(
            out,
            "{} added, {} removed, {} changed",
            tally.get(&'+').unwrap_or(&0),
            tally.get(&'-').unwrap_or(&0),
            tally.get(&'~').unwrap_or(&0)
        )?;
    }
    Ok(exit)
}
