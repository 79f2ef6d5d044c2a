use std::io::{self, Write};

use clap::Args;

use super::{Context, Exit, Failure, open_with, resolve};
use crate::fleet::sessions;
use crate::repo::Repo;
use crate::stats::Account;
use crate::stats::report::{self, By, Group, Kind, Report};
use crate::ui::json;
use crate::ui::output::{Level, escape, json_line};
use crate::ui::pager::paged;
use crate::ui::render::{Paint, time};
use unicode_width::UnicodeWidthStr as _;

/// Account for the turns: tokens, cost, tool calls, models, time
///
/// Per branch (as `ysess branch` lists them), or per path of the revisions
/// given: turns by role, tokens in, out, cache read and cache write from
/// the assistant messages' usage, the cost where the format records it
/// (pi does), tool calls by name with the results that are errors, the
/// models used, and the time from the first entry to the last. Then the
/// total, which counts the entries several branches share once.
/// `--by model` and `--by day` (local time), `week` and `month` group the
/// same entries otherwise; `--by tool` lists the tools.
///
/// With --all, every session found where `ysess ls` looks (or under the
/// folders given instead of REVs) is accounted for, each read once on
/// every core, by session (the default), project, agent, model, day, week
/// or month, within --since and --until. A file that cannot be read is
/// named on stderr and the exit status is 1.
///
/// Examples:
///   ysess stats                     every branch, then the total
///   ysess stats lib first-draft     the paths to two revisions
///   ysess stats --by model          which model used what
///   ysess stats --by day --json | jq -r 'select(.type=="day") | [.name, .tokens.output] | @tsv'
///   ysess stats --all --by day --since '7 days ago'   this week, every agent
///   ysess stats --all --by project --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct StatsArgs {
    /// Account for the paths to these entries [default: every branch]; with
    /// --all, the folders to look in [default: where `ysess ls` looks]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub revs: Vec<String>,
    /// Group by branch (or revision), model, tool, day, week or month; with
    /// --all also by session (the default), project or agent
    #[arg(long, value_enum, value_name = "GROUP")]
    pub by: Option<By>,
    /// Every session, not only the session file's
    #[arg(long)]
    pub all: bool,
    /// With --all: `--archive [DIR]`, `--no-archive`.
    #[command(flatten)]
    pub shelf: super::archive::Shelf,
    /// With --all: only entries at or after this time (2025-12-02,
    /// yesterday, '3 days ago'; local time)
    #[arg(long, value_name = "WHEN", requires = "all")]
    pub since: Option<String>,
    /// With --all: only entries at or before this time (the forms of
    /// --since)
    #[arg(long, value_name = "WHEN", requires = "all")]
    pub until: Option<String>,
    /// The time zone of days, weeks and months: a name of the zone database
    /// (Europe/Berlin, UTC) [default: the local zone]
    #[arg(long, value_name = "ZONE")]
    pub tz: Option<String>,
    /// One JSON object per group, then the total
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &StatsArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    args.shelf.only_with_all(args.all)?;
    let tz = match &args.tz {
        Some(name) => jiff::tz::TimeZone::get(name)
            .map_err(|e| Failure::usage(format!("--tz {}: {e}", escape(name))))?,
        None => ctx.tz.clone(),
    };
    if args.all {
        return all(args, ctx, &tz);
    }
    let by = match args.by {
        Some(by) if by.across_sessions() => {
            return Err(Failure::usage(format!(
                "--by {} groups sessions: it takes --all",
                by_name(by)
            )));
        }
        by => by.unwrap_or_default(),
    };
    let repo = open_with(ctx, crate::repo::Open::default().tallies(true))?;
    let tree = &repo.tree;
    if tree.head().is_none() {
        return Err(super::empty("it has no entry to account for"));
    }
    let revisions = args
        .revs
        .iter()
        .map(|rev| Ok((rev.clone(), resolve(&repo, rev)?)))
        .collect::<Result<Vec<_>, Failure>>()?;
    let session = ctx.session_file();
    let Report { groups, total } = report::report(&repo, session.as_deref(), &revisions, by, &tz)?;
    let p = Paint {
        on: ctx.streams.color_out,
    };
    paged(&mut ctx.streams, args.json, |out| {
        if args.json {
            return write_json(out, Some(&repo), &groups, &total, by);
        }
        if by == By::Tool {
            return write_tools(out, &total, p);
        }
        for g in &groups {
            let name = match (&g.name, g.tip) {
                // A subagent named by a session id (Gemini CLI's, OpenCode's)
                // as a session is shown.
                (Some(name), _) if g.kind == Kind::Subagent => {
                    escape(crate::ui::render::short_session(name)).into_owned()
                }
                (Some(name), _) => escape(name).into_owned(),
                (None, Some(tip)) => escape(tree.short_id(tip)).into_owned(),
                (None, None) => String::new(),
            };
            let painted = match (g.kind, g.current, &g.name) {
                (_, true, _) => p.head(&name),
                (Kind::Branch, _, Some(_)) => p.branch(&name),
                (Kind::Branch | Kind::Revision, _, None) => p.id(&name),
                _ => p.header(&name),
            };
            let marker = match g.kind {
                Kind::Branch if g.current => "* ",
                Kind::Branch => "  ",
                Kind::Subagent => "subagent ",
                _ => "",
            };
            // A named branch or a revision also says which entry it is.
            let tip = match (g.tip, &g.name) {
                (Some(tip), Some(name)) if name != tree.id(tip) => {
                    format!(" {}", p.id(&escape(tree.short_id(tip))))
                }
                _ => String::new(),
            };
            writeln!(out, "{marker}{painted}{tip}")?;
            write_account(out, &g.account, &tz, p)?;
            writeln!(out)?;
        }
        writeln!(out, "{}", p.header("total"))?;
        write_account(out, &total, &tz, p)
    })?;
    hint_unpriced(ctx, total.unpriced.keys().map(String::as_str))?;
    Ok(Exit::Success)
}

/// `--by`'s name for a grouping.
fn by_name(by: By) -> String {
    use clap::ValueEnum as _;
    by.to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_string())
}

/// `stats --all`: the accounts of every session found, grouped.
fn all(args: &StatsArgs, ctx: &mut Context<'_>, tz: &jiff::tz::TimeZone) -> Result<Exit, Failure> {
    let by = match args.by {
        None | Some(By::Branch) => By::Session,
        Some(by) => by,
    };
    let now = || jiff::Timestamp::now().to_zoned_datetime(tz.clone());
    let window = crate::fleet::accounts::Window {
        since: super::filters::when_ms(args.since.as_deref(), &now)?,
        until: super::filters::when_ms(args.until.as_deref(), &now)?,
    };
    let roots = sessions::roots(&args.revs);
    let mut found = sessions::find(&roots);
    args.shelf.add_to(&mut found, !args.revs.is_empty())?;
    let mut unreadable = 0u64;
    let mut said = Ok(());
    let accounts = crate::fleet::accounts::accounts(found, by, tz, window, |path, e| {
        unreadable += 1;
        let why = super::hint::load_error(&e);
        said = ctx
            .streams
            .diag(Level::Error, &escape(&format!("{}: {why}", path.display())));
        said.is_ok()
    });
    said?;
    let kind = match by {
        By::Day => Kind::Day,
        By::Week => Kind::Week,
        By::Month => Kind::Month,
        By::Model => Kind::Model,
        By::Project => Kind::Project,
        By::Agent => Kind::Agent,
        _ => Kind::Session,
    };
    let p = Paint {
        on: ctx.streams.color_out,
    };
    paged(&mut ctx.streams, args.json, |out| {
        if args.json {
            if by == By::Tool {
                write_json(out, None, &[], &accounts.total, by)?;
                return Ok(());
            }
            for (name, account) in &accounts.groups {
                json_line(out, &shape(kind.as_str(), Some(name), None, None, account))?;
            }
            return json_line(out, &shape("total", None, None, None, &accounts.total));
        }
        if by == By::Tool {
            return write_tools(out, &accounts.total, p);
        }
        for (name, account) in &accounts.groups {
            writeln!(out, "{}", p.header(&escape(name)))?;
            write_account(out, account, tz, p)?;
            writeln!(out)?;
        }
        let sessions = accounts.sessions;
        let noun = if sessions == 1 { "session" } else { "sessions" };
        writeln!(out, "{} ({sessions} {noun})", p.header("total"))?;
        write_account(out, &accounts.total, tz, p)
    })?;
    hint_unpriced(ctx, accounts.total.unpriced.keys().map(String::as_str))?;
    Ok(if unreadable > 0 {
        Exit::No
    } else {
        Exit::Success
    })
}

/// `hint: no price for model 'foo'; …` on stderr, once per model with no
/// price (whose cost then shows as unknown).
pub fn hint_unpriced<'m>(
    ctx: &mut Context<'_>,
    models: impl IntoIterator<Item = &'m str>,
) -> Result<(), Failure> {
    if ctx.global.quiet {
        return Ok(());
    }
    for model in models {
        ctx.streams.diag(
            Level::Hint,
            &escape(&format!(
                "no price for model '{model}', so its cost is unknown; YSESS_PRICES=FILE can give one"
            )),
        )?;
    }
    Ok(())
}

/// `$0.0627`: dollars to a hundredth of a cent.
pub fn dollars(cost: f64) -> String {
    format!("${cost:.4}")
}

/// `4m 4s`, `2h 5m`, `3d 1h`: a duration as a person reads it.
fn duration(ms: u64) -> String {
    let s = ms / 1000;
    match s {
        s if s < 60 => format!("{s}s"),
        s if s < 3600 => format!("{}m {}s", s / 60, s % 60),
        s if s < 86_400 => format!("{}h {}m", s / 3600, s % 3600 / 60),
        s => format!("{}d {}h", s / 86_400, s % 86_400 / 3600),
    }
}

/// An account's lines, indented under its group's name.
fn write_account(
    out: &mut dyn Write,
    a: &Account,
    tz: &jiff::tz::TimeZone,
    p: Paint,
) -> io::Result<()> {
    let field = |out: &mut dyn Write, name: &str, value: &str| {
        writeln!(out, "    {} {value}", p.dim(&format!("{name:<7}")))
    };
    field(out, "entries", &a.entries.to_string())?;
    if let (Some(first), Some(last)) = (a.first, a.last) {
        let when = format!(
            "{} to {} ({})",
            time(first, tz, true),
            time(last, tz, true),
            duration(a.wall_ms())
        );
        field(out, "time", &when)?;
    }
    let t = a.turns;
    field(
        out,
        "turns",
        &format!(
            "{} user, {} assistant, {} toolResult, {} custom",
            t.user, t.assistant, t.tool_result, t.custom
        ),
    )?;
    let u = a.usage;
    field(
        out,
        "tokens",
        &format!(
            "{} in, {} out, {} cache read, {} cache write",
            u.input, u.output, u.cache_read, u.cache_write
        ),
    )?;
    let cost = match a.cost {
        _ if !a.unpriced.is_empty() => {
            let models: Vec<String> = a.unpriced.keys().map(|m| escape(m).into_owned()).collect();
            format!("unknown (no price for {})", models.join(", "))
        }
        Some(c) => dollars(c),
        None => "not recorded".to_string(),
    };
    field(out, "cost", &cost)?;
    let tools: Vec<String> = a
        .tools
        .iter()
        .map(|(name, t)| {
            let errors = match t.errors {
                0 => String::new(),
                1 => " (1 error)".to_string(),
                n => format!(" ({n} errors)"),
            };
            format!("{} {}{errors}", escape(name), t.calls)
        })
        .collect();
    field(out, "tools", &list(tools))?;
    let models: Vec<String> = a
        .models
        .iter()
        .map(|(name, n)| format!("{} {n}", escape(name)))
        .collect();
    field(out, "models", &list(models))
}

fn list(items: Vec<String>) -> String {
    if items.is_empty() {
        "none".to_string()
    } else {
        items.join(", ")
    }
}

/// `--by tool`: one row per tool, then the total.
fn write_tools(out: &mut dyn Write, total: &Account, p: Paint) -> io::Result<()> {
    let mut rows: Vec<[String; 3]> = vec![["tool".into(), "calls".into(), "errors".into()]];
    rows.extend(total.tools.iter().map(|(name, t)| {
        [
            escape(name).into_owned(),
            t.calls.to_string(),
            t.errors.to_string(),
        ]
    }));
    let calls: u64 = total.tools.values().map(|t| t.calls).sum();
    let errors: u64 = total.tools.values().map(|t| t.errors).sum();
    rows.push(["total".into(), calls.to_string(), errors.to_string()]);
    let width = rows.iter().map(|r| r[0].width()).max().unwrap_or(0);
    let last = rows.len() - 1;
    for (k, [name, calls, errors]) in rows.iter().enumerate() {
        let pad = " ".repeat(width - name.width());
        let name = if k == 0 || k == last {
            p.header(name)
        } else {
            name.clone()
        };
        writeln!(out, "{name}{pad}  {calls:>6}  {errors:>6}")?;
    }
    Ok(())
}

fn write_json(
    out: &mut dyn Write,
    repo: Option<&Repo>,
    groups: &[Group],
    total: &Account,
    by: By,
) -> io::Result<()> {
    if by == By::Tool {
        for (name, t) in &total.tools {
            json_line(
                out,
                &json::ToolUse {
                    r#type: Some("tool"),
                    name,
                    calls: t.calls,
                    errors: t.errors,
                },
            )?;
        }
    }
    for g in groups {
        let tip = g.tip.zip(repo).map(|(t, repo)| repo.tree.id(t));
        let current = (g.kind == Kind::Branch).then_some(g.current);
        json_line(
            out,
            &shape(g.kind.as_str(), g.name.as_deref(), tip, current, &g.account),
        )?;
    }
    json_line(out, &shape("total", None, None, None, total))
}

fn shape<'a>(
    kind: &'static str,
    name: Option<&'a str>,
    tip: Option<&'a str>,
    current: Option<bool>,
    a: &'a Account,
) -> json::Account<'a> {
    let u = a.usage;
    json::Account {
        r#type: kind,
        name,
        tip,
        current,
        entries: a.entries,
        turns: json::Turns {
            user: a.turns.user,
            assistant: a.turns.assistant,
            tool_result: a.turns.tool_result,
            custom: a.turns.custom,
        },
        tokens: json::Tokens {
            input: u.input,
            output: u.output,
            cache_read: u.cache_read,
            cache_write: u.cache_write,
            cache_write_1h: u.cache_write_1h,
            total: u.total_tokens,
        },
        cost: a.known_cost(),
        unpriced: a
            .unpriced
            .iter()
            .map(|(name, &turns)| json::ModelUse { name, turns })
            .collect(),
        tools: a
            .tools
            .iter()
            .map(|(name, t)| json::ToolUse {
                r#type: None,
                name,
                calls: t.calls,
                errors: t.errors,
            })
            .collect(),
        models: a
            .models
            .iter()
            .map(|(name, &turns)| json::ModelUse { name, turns })
            .collect(),
        first: a.first,
        last: a.last,
        wall_ms: a.wall_ms(),
    }
}
