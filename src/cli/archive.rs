use std::collections::HashSet;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use super::{Context, Exit, Failure};
use crate::fleet::archive::{self, Outcome, Report};
use crate::fleet::kept;
use crate::fleet::sessions::Found;
use crate::ui::json;
use crate::ui::output::{Level, escape, json_line};
use crate::ui::render::thousands;

/// Keep a copy of every session, before the agents delete or rewrite them
///
/// Copies every session `ysess ls` finds, for every agent (subagents'
/// files included), into DIR: DIR/<agent>/<the file's path under the
/// agent's folder>, and $YSESS_PATH's files under DIR/path/<their path>
/// (a name's leading "." as %2E, so that no folder of it is hidden).
/// Append-only and incremental: a session that grew gets only its new
/// bytes appended, once the copy is proved a prefix of the live file (its
/// digest, as `fsck --since` checks); a session whose history was
/// rewritten is kept as a new version beside the old one (NAME.v2.jsonl);
/// a session the agent deleted stays. A run when nothing changed costs a
/// directory walk. A database (OpenCode's) is copied by SQLite's online
/// backup; a backup that lost a session is kept as a new version
/// (opencode.v2.db). One run at a time: a second waits for the first.
/// Ends with a summary on stderr; exits 1 when a file could not be
/// archived (each named on stderr). Once the archive exists, `ls`, `-s`,
/// `grep --all`, `stats --all`, `tui` and `export --parquet` read the
/// sessions it keeps that the agents no longer have, marked archived.
///
/// `--hook AGENT` prints the entry to merge into the agent's settings so
/// that it runs `ysess archive --quiet [DIR]` each time one of its
/// sessions ends, headless runs (`claude -p`, `gemini -p`) included:
/// Claude Code's `SessionEnd` hook (~/.claude/settings.json), with the
/// 60 seconds it allows such a hook at most (1.5 by default), or Gemini
/// CLI's (~/.gemini/settings.json). Qwen Code fires its `SessionEnd` only
/// when an interactive session exits, so there is no hook for it: run
/// `ysess archive` from cron or a timer.
///
/// Examples:
///   ysess archive                         into ~/.local/share/ysess/archive
///   ysess archive ~/backup/sessions
///   ysess archive --hook claude           the Claude Code hook that runs it
///   ysess archive --hook gemini           the Gemini CLI hook that runs it
///   ysess archive --json | jq -r 'select(.change == "version") | .copy'
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ArchiveArgs {
    /// The archive [default: $YSESS_ARCHIVE, else
    /// $XDG_DATA_HOME/ysess/archive, else ~/.local/share/ysess/archive]
    // Not the id `dir`: that is the global `-C DIR`'s, which would take it.
    #[arg(value_name = "DIR", id = "archive_dir")]
    pub dir: Option<PathBuf>,
    /// Print the entry for the agent's settings that runs `ysess archive`
    /// (into DIR, when named) each time a session of the agent ends, and
    /// archive nothing
    #[arg(long, value_enum, value_name = "AGENT")]
    pub hook: Option<Hook>,
    /// One JSON object per session archived, then a total
    #[arg(long)]
    pub json: bool,
}

/// The agents whose hooks `--hook` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Hook {
    /// Claude Code's `SessionEnd` hook, for ~/.claude/settings.json
    Claude,
    /// Gemini CLI's `SessionEnd` hook, for ~/.gemini/settings.json
    Gemini,
}

/// The archive's folder: DIR, else the default.
pub fn dir(named: Option<&Path>) -> Result<PathBuf, Failure> {
    match named {
        Some(dir) => Ok(dir.to_path_buf()),
        None => kept::default_dir(&|name| std::env::var_os(name)).ok_or_else(|| {
            Failure::refuse("no archive folder: neither $XDG_DATA_HOME nor $HOME is set")
                .with_hint("name one: ysess archive DIR")
        }),
    }
}

/// `--archive [DIR]` and `--no-archive`, for the commands that read every
/// session on the machine.
#[derive(Debug, Clone, Default, Args)]
pub struct Shelf {
    /// Also the sessions archived in DIR (by `ysess archive`) that the
    /// agents no longer have, marked archived [default: read when it
    /// exists and no folder is named; DIR: $YSESS_ARCHIVE, else
    /// ~/.local/share/ysess/archive]
    #[arg(long, value_name = "DIR", num_args = 0..=1, conflicts_with = "no_archive")]
    pub archive: Option<Option<PathBuf>>,
    /// Leave out the archive's sessions
    #[arg(long)]
    pub no_archive: bool,
}

impl Shelf {
    /// The archive to read beside the agents' folders: the one named, or,
    /// when `--archive` is not given and no folder is (`named`), the
    /// default when it exists.
    pub fn dir(&self, named: bool) -> Result<Option<PathBuf>, Failure> {
        match &self.archive {
            _ if self.no_archive => Ok(None),
            Some(named) => dir(named.as_deref()).map(Some),
            None if named => Ok(None),
            None => Ok(kept::default_dir(&|name| std::env::var_os(name)).filter(|d| d.is_dir())),
        }
    }

    /// Refuses `--archive` and `--no-archive` without `--all`, which they
    /// are for.
    pub fn only_with_all(&self, all: bool) -> Result<(), Failure> {
        match all || (self.archive.is_none() && !self.no_archive) {
            true => Ok(()),
            false => Err(Failure::usage(
                "--archive and --no-archive are for --all: the archive's sessions beside every other",
            )),
        }
    }

    /// The sessions of the archive the agents no longer have, added to
    /// `found` (the agents' own, or the folders `named`); their paths, when
    /// an archive is read.
    pub fn add_to(
        &self,
        found: &mut Vec<Found>,
        named: bool,
    ) -> Result<Option<HashSet<PathBuf>>, Failure> {
        let Some(dir) = self.dir(named)? else {
            return Ok(None);
        };
        Ok(Some(add_archived(found, &dir)))
    }
}

/// The sessions of the archive `dir` the agents no longer have, added to
/// `found`; their paths.
pub fn add_archived(found: &mut Vec<Found>, dir: &Path) -> HashSet<PathBuf> {
    let sources = archive::sources(&|name| std::env::var_os(name));
    let deleted = kept::deleted(dir, &sources);
    let paths = deleted
        .iter()
        .filter_map(|f| match f {
            Found::File { path, .. } => Some(path.clone()),
            Found::Unreadable { .. } => None,
        })
        .collect();
    found.extend(deleted);
    paths
}

pub fn run(args: &ArchiveArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    if let Some(agent) = args.hook {
        writeln!(ctx.streams.out, "{}", hook(agent, args.dir.as_deref()))?;
        return Ok(Exit::Success);
    }
    let dir = dir(args.dir.as_deref())?;
    let sources = archive::sources(&|name| std::env::var_os(name));
    let quiet = ctx.global.quiet;
    let err = &mut *ctx.streams.err;
    let report = archive::archive(&dir, &sources, || {
        if !quiet {
            let _ = writeln!(err, "waiting for another `ysess archive` to finish");
        }
    })
    .map_err(|e| Failure::refuse(format!("{}: cannot archive: {e}", dir.display())))?;
    for (path, why) in &report.failed {
        let text = format!("{}: {why}", path.display());
        ctx.streams.diag(Level::Error, &escape(&text))?;
    }
    if !quiet {
        for store in &report.skipped {
            let text = format!(
                "{}: not archived: a store of many files the agent rewrites (OpenCode 1.2 and later copy this one into opencode.db, which is archived)",
                store.display()
            );
            ctx.streams.diag(Level::Warning, &escape(&text))?;
        }
    }
    if args.json {
        for f in &report.files {
            let (change, bytes) = match f.outcome {
                Outcome::New => ("new", size_of(&dir.join(&f.copy))),
                Outcome::Grew(n) => ("grew", n),
                Outcome::Version => ("version", size_of(&dir.join(&f.copy))),
                Outcome::Unchanged => ("unchanged", 0),
            };
            let line = json::Archived {
                r#type: "archived",
                path: f.path.display().to_string(),
                copy: f.copy.display().to_string(),
                change,
                bytes,
            };
            json_line(ctx.streams.out, &line)?;
        }
        json_line(ctx.streams.out, &total(&dir, &report))?;
    }
    if !quiet {
        writeln!(ctx.streams.err, "{}", summary(&report))?;
    }
    Ok(if report.failed.is_empty() {
        Exit::Success
    } else {
        Exit::No
    })
}

fn size_of(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn total(dir: &Path, report: &Report) -> json::ArchiveTotal {
    let count =
        |want: fn(&Outcome) -> bool| report.files.iter().filter(|f| want(&f.outcome)).count();
    json::ArchiveTotal {
        r#type: "total",
        archive: dir.display().to_string(),
        new: count(|o| *o == Outcome::New),
        grew: count(|o| matches!(o, Outcome::Grew(_))),
        grew_bytes: grew_bytes(report),
        versions: count(|o| *o == Outcome::Version),
        unchanged: count(|o| *o == Outcome::Unchanged),
        gone: report.gone,
        failed: report.failed.len(),
        skipped: report.skipped.len(),
    }
}

fn grew_bytes(report: &Report) -> u64 {
    report
        .files
        .iter()
        .map(|f| match f.outcome {
            Outcome::Grew(n) => n,
            _ => 0,
        })
        .sum()
}

/// `archived: 3 new files, 5 grew (+1.2 MB), 1 new version, 120
/// unchanged`, and those no longer live, and the failures.
fn summary(report: &Report) -> String {
    let t = total(Path::new(""), report);
    let plural = |n: usize, one: &str, many: &str| {
        format!(
            "{} {}",
            thousands(n as u64),
            if n == 1 { one } else { many }
        )
    };
    let mut parts = vec![
        plural(t.new, "new file", "new files"),
        format!(
            "{} grew (+{})",
            thousands(t.grew as u64),
            super::fsck::fleet::size(t.grew_bytes)
        ),
        plural(t.versions, "new version", "new versions"),
        format!("{} unchanged", thousands(t.unchanged as u64)),
    ];
    if t.gone > 0 {
        parts.push(format!(
            "{} kept that the agents deleted",
            thousands(t.gone as u64)
        ));
    }
    if t.failed > 0 {
        parts.push(format!("{} failed", thousands(t.failed as u64)));
    }
    format!("archived: {}", parts.join(", "))
}

/// The `SessionEnd` hook entry for the agent's settings.json, as each
/// runs it (tests/cli/agents/archive_hook.rs runs each agent with it).
///
/// Both fire `SessionEnd` at the end of a headless run as well as of an
/// interactive session, once the session's file is written. Claude Code
/// gives a `SessionEnd` hook 1.5 seconds unless one of them asks for more
/// (`timeout`, in seconds, read up to 60), and kills it then: a first
/// archive takes longer. Gemini CLI's hooks are on unless
/// `hooksConfig.enabled` is false, and have 60 seconds.
fn hook(agent: Hook, dir: Option<&Path>) -> String {
    let mut command = "ysess archive --quiet".to_string();
    if let Some(dir) = dir {
        // The hook runs in the session's folder: a relative DIR would be
        // one archive per project.
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        command.push(' ');
        command.push_str(&shell_quote(&dir.display().to_string()));
    }
    let mut run = serde_json::json!({ "type": "command", "command": command });
    if agent == Hook::Claude {
        run["timeout"] = serde_json::json!(60);
    }
    let hook = serde_json::json!({
        "hooks": {
            "SessionEnd": [ { "hooks": [ run ] } ]
        }
    });
    serde_json::to_string_pretty(&hook).expect("a JSON value prints")
}

fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-~+=:,@".contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_counts_each_outcome() {
        let file = |outcome| archive::Archived {
            path: "a".into(),
            copy: "b".into(),
            outcome,
        };
        let report = Report {
            files: vec![
                file(Outcome::New),
                file(Outcome::Grew(1_200_000)),
                file(Outcome::Version),
                file(Outcome::Unchanged),
                file(Outcome::Unchanged),
            ],
            ..Report::default()
        };
        assert_eq!(
            summary(&report),
            "archived: 1 new file, 1 grew (+1.2 MB), 1 new version, 2 unchanged"
        );
    }

    #[test]
    fn the_hook_quotes_a_folder_with_spaces() {
        let hook = hook(Hook::Claude, Some(Path::new("/my sessions")));
        let v: serde_json::Value = serde_json::from_str(&hook).expect("json");
        assert_eq!(
            v["hooks"]["SessionEnd"][0]["hooks"][0]["command"],
            "ysess archive --quiet '/my sessions'"
        );
    }
}
