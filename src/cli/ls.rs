use std::collections::HashSet;
use std::io::{self, IsTerminal};
use std::path::PathBuf;

use clap::Args;

use super::progress::Progress;
use super::{Context, Exit, Failure, hint};
use crate::Format;
use crate::fleet::sessions::{self, Found, Session};
use crate::ui::json;
use crate::ui::output::{Level, escape, json_line};
use crate::ui::render::{Paint, fit, short_sessions, thousands, time};

/// List every session on this machine, newest activity first
///
/// Looks in each agent's own folder, as the agent finds it: Claude Code's
/// ~/.claude/projects (and ~/.config/claude/projects; $CLAUDE_CONFIG_DIR
/// moves them), pi's ~/.pi/agent/sessions ($PI_CODING_AGENT_DIR,
/// $PI_CODING_AGENT_SESSION_DIR), Codex's ~/.codex/sessions ($CODEX_HOME),
/// and the folders of $YSESS_PATH (yoagent apps' sessions, or copies of
/// any agent's); or only in the DIRs given. When `ysess archive` has made
/// its archive, the sessions it keeps that the agents deleted are listed
/// too, marked "(archived)" (`--no-archive` leaves them out; a session
/// the agents still have is listed from their file, by its id). Each
/// session is read whole, on
/// every core: its last activity, agent, id, entries, branches, tokens and
/// cost (as `ysess stats` totals them), project (the folder the agent
/// worked in) and title (the name given in pi, else the first prompt).
/// A file that cannot be read is named on stderr and the exit status is 1;
/// the others are still listed. Exits 1 when no session is listed.
///
/// Examples:
///   ysess ls                              every session, newest first
///   ysess ls --since yesterday --agent claude
///   ysess ls --project myapp --json | jq -r .path
///   ysess ls ~/transcripts                the sessions under a folder
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct LsArgs {
    /// Look only under these folders (or at these files) [default: the
    /// search path]
    #[arg(value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Only sessions active at or after this time (2025-12-02, yesterday,
    /// '3 days ago'; local time)
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only sessions started at or before this time (the forms of --since)
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only the sessions of this agent's format (repeatable)
    #[arg(long, value_enum, value_name = "AGENT")]
    pub agent: Vec<Format>,
    /// Only sessions whose project (the folder the agent worked in)
    /// contains TEXT
    #[arg(long, value_name = "TEXT")]
    pub project: Option<String>,
    #[command(flatten)]
    pub shelf: super::archive::Shelf,
    /// One JSON object per session, then a total
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &LsArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let now = || jiff::Timestamp::now().to_zoned_datetime(ctx.tz.clone());
    let since = super::filters::when_ms(args.since.as_deref(), &now)?;
    let until = super::filters::when_ms(args.until.as_deref(), &now)?;
    let roots = sessions::roots(&args.dirs);
    let mut found = sessions::find(&roots);
    let archive = args.shelf.add_to(&mut found, !args.dirs.is_empty())?;
    let bar = Progress::new(!args.json && !ctx.global.quiet && io::stderr().is_terminal());
    let mut listed: Vec<Session> = Vec::new();
    let mut unreadable = 0u64;
    let mut failed = None;
    let items = found.into_iter().inspect(|f| {
        if let Found::File { size, .. } = f {
            bar.found(*size);
        }
    });
    read_found(items, |(path, size, read)| {
        bar.done(size);
        match read {
            Ok(session) => listed.push(session),
            Err(why) => {
                unreadable += 1;
                let said = bar.suspend(|| {
                    ctx.streams
                        .diag(Level::Error, &escape(&format!("{}: {why}", path.display())))
                });
                if let Err(e) = said {
                    failed = Some(e);
                    return false;
                }
            }
        }
        true
    });
    bar.finish();
    if let Some(e) = failed {
        return Err(e.into());
    }
    listed.retain(|s| {
        (args.agent.is_empty() || args.agent.contains(&s.format))
            && since.is_none_or(|t| s.last.is_some_and(|l| l >= t))
            && until.is_none_or(|t| s.started.is_some_and(|f| f <= t))
            && args.project.as_deref().is_none_or(|p| {
                s.project
                    .as_deref()
                    .is_some_and(|project| project.contains(p))
            })
    });
    one_row_per_session(&mut listed);
    let archived =
        (archive.as_ref()).map_or_else(HashSet::new, |a| only_the_deleted(&mut listed, a));
    newest_first(&mut listed);
    if args.json {
        for s in &listed {
            let mut row = session_json(s);
            row.archived = archive.is_some().then(|| archived.contains(&s.path));
            json_line(ctx.streams.out, &row)?;
        }
        json_line(
            ctx.streams.out,
            &json::SessionsTotal {
                r#type: "total",
                sessions: listed.len(),
                unreadable,
            },
        )?;
    } else {
        let paint = Paint {
            on: ctx.streams.color_out,
        };
        let shown = marked(&listed, &archived);
        let lines = table(&shown, &ctx.tz, paint, ctx.streams.width);
        crate::ui::pager::paged(&mut ctx.streams, false, |out| {
            lines.iter().try_for_each(|line| writeln!(out, "{line}"))
        })?;
    }
    let unpriced: std::collections::BTreeSet<&str> = listed
        .iter()
        .flat_map(|s| s.unpriced.iter().map(String::as_str))
        .collect();
    super::stats::hint_unpriced(ctx, unpriced)?;
    if listed.is_empty() && !args.json && !ctx.global.quiet {
        let looked: Vec<String> = roots
            .iter()
            .map(|r| escape(&r.dir.display().to_string()).into_owned())
            .collect();
        ctx.streams.diag(
            Level::Hint,
            &format!("no session listed; looked in {}", looked.join(", ")),
        )?;
    }
    Ok(if unreadable > 0 || listed.is_empty() {
        Exit::No
    } else {
        Exit::Success
    })
}

fn session_json(s: &Session) -> json::Session<'_> {
    let u = s.usage;
    json::Session {
        r#type: "session",
        agent: s.format.name(),
        id: &s.id,
        path: s.path.display().to_string(),
        project: s.project.as_deref(),
        started: s.started,
        last: s.last,
        entries: s.entries,
        branches: s.branches,
        tokens: json::Tokens {
            input: u.input,
            output: u.output,
            cache_read: u.cache_read,
            cache_write: u.cache_write,
            cache_write_1h: u.cache_write_1h,
            total: u.total_tokens,
        },
        cost: s.cost,
        unpriced: &s.unpriced,
        title: s.title.as_deref(),
        archived: None,
    }
}

/// The sessions as a table, one per line, a header first:
/// `ACTIVITY  AGENT  SESSION  ENTRIES  BRANCHES  TOKENS  COST  PROJECT  TITLE`,
/// each line cut to the terminal's width.
/// A session file read for its listing: its path, size, and its
/// [`Session`] or why it could not be read.
pub(crate) type Read = (PathBuf, u64, Result<Session, String>);

/// Reads every file `found` names on every core, handing each to `done` in
/// order as soon as it and those before it are read; `done` returning
/// false stops.
pub(crate) fn read_found(
    found: impl Iterator<Item = Found> + Send,
    done: impl FnMut(Read) -> bool,
) {
    let workers = crate::input::par::jobs();
    crate::input::par::ordered(
        workers,
        workers * 4,
        found,
        |f| match f {
            Found::File { path, size, .. } => {
                let read = Session::of(&path).map_err(|e| hint::load_error(&e));
                (path, size, read)
            }
            Found::Unreadable { path, error } => (path, 0, Err(error.to_string())),
        },
        done,
    );
}

/// A session whose app left files of it that hold no entry (Gemini CLI
/// starts a new file, then goes on in the old one, when it resumes) is one
/// row: a file with no entry is left out when another file of the same
/// agent holds entries of the same session.
pub(crate) fn one_row_per_session(listed: &mut Vec<Session>) {
    let held: HashSet<(crate::Format, String)> = listed
        .iter()
        .filter(|s| s.entries > 0)
        .map(|s| (s.format, s.id.clone()))
        .collect();
    listed.retain(|s| s.entries > 0 || !held.contains(&(s.format, s.id.clone())));
}

/// The rows as the table shows them: an archived session's title marked.
pub(crate) fn marked(listed: &[Session], archived: &HashSet<PathBuf>) -> Vec<Session> {
    listed
        .iter()
        .map(|s| match archived.contains(&s.path) {
            true => Session {
                title: Some(format!("(archived) {}", s.title.as_deref().unwrap_or(""))),
                ..s.clone()
            },
            false => s.clone(),
        })
        .collect()
}

/// Keeps, of the sessions read from the archive (whose paths are
/// `archived`), those whose session the agents no longer have (by agent
/// and id; of several versions, the one active last), and returns their
/// paths.
pub(crate) fn only_the_deleted(
    listed: &mut Vec<Session>,
    archived: &HashSet<PathBuf>,
) -> HashSet<PathBuf> {
    let in_archive = |s: &Session| archived.contains(&s.path);
    let key = |s: &Session| (s.format, without_version(&s.id, &s.path));
    let live: HashSet<_> = listed.iter().filter(|s| !in_archive(s)).map(key).collect();
    let mut kept: std::collections::HashMap<_, Session> = std::collections::HashMap::new();
    for s in listed
        .iter()
        .filter(|s| in_archive(s) && !live.contains(&key(s)))
    {
        let better = kept
            .get(&key(s))
            .is_none_or(|k| (s.last, &s.path) > (k.last, &k.path));
        if better {
            kept.insert(key(s), s.clone());
        }
    }
    let paths: HashSet<PathBuf> = kept.into_values().map(|s| s.path).collect();
    listed.retain(|s| !in_archive(s) || paths.contains(&s.path));
    paths
}

/// A session's id as its first copy has it: an id taken from a version's
/// file name (`demo.v2.jsonl`) without its version.
fn without_version(id: &str, path: &std::path::Path) -> String {
    let named = path.file_stem().and_then(|s| s.to_str()) == Some(id);
    let name = path.file_name().and_then(|n| n.to_str());
    match name.map(crate::fleet::kept::unversioned) {
        Some((first, n)) if named && n >= 2 => std::path::Path::new(&first)
            .file_stem()
            .map_or_else(|| id.to_string(), |s| s.to_string_lossy().into_owned()),
        _ => id.to_string(),
    }
}

/// Newest activity first; sessions without a time last.
pub(crate) fn newest_first(listed: &mut [Session]) {
    listed.sort_by(|a, b| b.last.cmp(&a.last).then_with(|| a.path.cmp(&b.path)));
}

/// The listing's lines: a header, then one line per session, cut to
/// `width`.
pub(crate) fn table(
    listed: &[Session],
    tz: &jiff::tz::TimeZone,
    p: Paint,
    width: Option<usize>,
) -> Vec<String> {
    let home = std::env::var("HOME").ok().filter(|h| !h.is_empty());
    let ids: Vec<&str> = listed.iter().map(|s| s.id.as_str()).collect();
    let short = short_sessions(&ids);
    let rows: Vec<[String; 9]> = listed
        .iter()
        .zip(&short)
        .map(|(s, short)| {
            let u = s.usage;
            let project = s.project.as_deref().map_or_else(String::new, |p| {
                match home.as_deref().and_then(|h| p.strip_prefix(h)) {
                    Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("~{rest}"),
                    _ => p.to_string(),
                }
            });
            [
                s.last
                    .map_or_else(|| "-".to_string(), |l| time(l, tz, true)),
                s.format.name().to_string(),
                escape(short).into_owned(),
                thousands(s.entries),
                thousands(s.branches as u64),
                tokens(u.total_tokens),
                match &s.cost {
                    _ if !s.unpriced.is_empty() => "?".to_string(),
                    Some(c) => super::stats::dollars(*c),
                    None => "-".to_string(),
                },
                escape(&project).into_owned(),
                escape(s.title.as_deref().unwrap_or("")).into_owned(),
            ]
        })
        .collect();
    let header = [
        "ACTIVITY", "AGENT", "SESSION", "ENTRIES", "BRANCHES", "TOKENS", "COST", "PROJECT", "TITLE",
    ];
    let column = |k: usize| {
        rows.iter()
            .map(|r| r[k].chars().count())
            .chain([header[k].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..8).map(column).collect();
    // Numbers are right-aligned, text left.
    let line = |cells: [&str; 9]| {
        let mut out = String::new();
        for (k, cell) in cells.iter().enumerate().take(8) {
            let pad = widths[k].saturating_sub(cell.chars().count());
            if (3..7).contains(&k) {
                out.push_str(&" ".repeat(pad));
                out.push_str(cell);
            } else {
                out.push_str(cell);
                out.push_str(&" ".repeat(pad));
            }
            out.push_str("  ");
        }
        out.push_str(cells[8]);
        out
    };
    let cut = |text: &str| fit(text.trim_end(), width).into_owned();
    let mut lines = vec![cut(&p.dim(line(header).trim_end()))];
    lines.extend(rows.iter().map(|r| {
        cut(&line([
            &r[0], &r[1], &r[2], &r[3], &r[4], &r[5], &r[6], &r[7], &r[8],
        ]))
    }));
    lines
}

/// `912`, `84.1k`, `1.2M`: tokens as a person reads them.
pub(crate) fn tokens(n: u64) -> String {
    match n {
        n if n < 1000 => n.to_string(),
        n if n < 1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        n if n < 1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        n => format!("{:.1}G", n as f64 / 1e9),
    }
}
