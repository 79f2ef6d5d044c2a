use std::io::Write;

use clap::Args;

use super::{Context, Exit, Failure, open_with};
use crate::Source;
use crate::repo::Repo;
use crate::ui::json::{Status, StatusHead, StatusLabel, StatusSince, StatusTorn};
use crate::ui::output::{escape, json_line};
use crate::ui::render::{Paint, role};
use crate::view::status::{Change, Digest, Standing, open_for_digest, read_digest_file, since};

/// Say where HEAD is, and how the file stands
///
/// The file and its format; HEAD (id, role, depth, first line); the branch
/// HEAD is on, or that it is on none (on an unnamed tip, or detached inside
/// the tree, where new work forks); the nearest label on
/// HEAD's path; how many entries and tips the tree has; whether the last
/// line is torn by an interrupted write; and, given the digest of an earlier
/// `ysess fsck --digest` (or a file holding it, or `$YSESS_DIGEST`), whether
/// the file is unchanged since, only grew, or was rewritten.
///
/// Examples:
///   ysess status
///   ysess status --digest base.digest   after `ysess fsck --digest > base.digest`
///   ysess status --json
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct StatusArgs {
    /// A digest from `ysess fsck --digest` (sha256:<hex>:<bytes>), or a
    /// file holding one, to tell whether the file changed since
    #[arg(long, env = "YSESS_DIGEST", value_name = "DIGEST|FILE")]
    pub digest: Option<String>,
    /// One JSON object
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &StatusArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let digest = args.digest.as_deref().map(read_digest).transpose()?;
    let source = Source::new(&ctx.global.file);
    if digest.is_some() && source == Source::Stdin {
        return Err(Failure::usage(
            "--digest compares a file, which standard input is not; name the file",
        ));
    }
    let repo = open_with(
        ctx,
        crate::repo::Open::default().torn(crate::repo::TornLine::Keep),
    )?;
    let since = match (&digest, &source) {
        (Some(d), Source::Path(path)) => {
            let file = open_for_digest(path).map_err(|e| super::unreadable(ctx.global, &e, ""))?;
            Some((*d, since(file, d)?))
        }
        _ => None,
    };
    let file = source.display();
    let standing = Standing::of(&repo);
    let status = shape(&repo, &file, &standing, since);
    let out = &mut ctx.streams.out;
    if args.json {
        json_line(out, &status)?;
        return Ok(Exit::Success);
    }
    let p = Paint {
        on: ctx.streams.color_out,
    };
    let role = standing.head.map(|h| role(&repo.tree, h));
    human(out, &status, role, p)?;
    Ok(Exit::Success)
}

/// What `status` says, in the shape of its `--json`.
fn shape<'a>(
    repo: &'a Repo,
    file: &'a str,
    standing: &'a Standing,
    since: Option<(Digest, Change)>,
) -> Status<'a> {
    let tree = &repo.tree;
    Status {
        file,
        format: repo.format.name(),
        head: standing.head.map(|h| StatusHead {
            id: tree.id(h),
            short: tree.short_id(h),
            role: tree.node(h).kind.role_name(),
            tag: tree.tag(h),
            subject: tree.subject(h),
            depth: tree.node(h).depth,
        }),
        branch: standing.branch.as_deref(),
        detached: standing.detached,
        label: standing
            .label
            .as_ref()
            .map(|(name, ix, behind)| StatusLabel {
                name,
                id: tree.id(*ix),
                short: tree.short_id(*ix),
                behind: *behind,
            }),
        entries: standing.entries,
        tips: standing.tips,
        torn: repo.torn.map(|t| StatusTorn {
            offset: t.offset,
            bytes: t.len,
        }),
        since: since.map(|(d, change)| StatusSince {
            digest: d.to_string(),
            state: match change {
                Change::Unchanged => "unchanged",
                Change::Appended(_) => "appended",
                Change::Rewritten => "rewritten",
            },
            appended: match change {
                Change::Appended(n) => n,
                _ => 0,
            },
        }),
    }
}

/// A digest as given, or read from the file it names.
fn read_digest(text: &str) -> Result<Digest, Failure> {
    if text.starts_with("sha256:") {
        return text
            .parse()
            .map_err(|e| Failure::usage(format!("--digest {e}")));
    }
    let refuse = |why: String| {
        Failure::refuse(format!(
            "--digest {}: neither a digest nor a file holding one: {why}",
            super::hint::quote(text)
        ))
        .with_hint("`ysess fsck --digest` prints a digest (sha256:<hex>:<bytes>) to keep")
    };
    let head = read_digest_file(std::path::Path::new(text)).map_err(|e| refuse(e.to_string()))?;
    String::from_utf8_lossy(&head)
        .parse()
        .map_err(|e: String| refuse(e))
}

fn human(
    out: &mut dyn Write,
    s: &Status<'_>,
    role: Option<String>,
    p: Paint,
) -> std::io::Result<()> {
    let mut field =
        |name: &str, value: &str| writeln!(out, "{} {value}", p.header(&format!("{name:<9}")));
    field("File:", &format!("{} ({})", escape(s.file), s.format))?;
    match (&s.head, role) {
        (Some(h), Some(role)) => field(
            "HEAD:",
            &format!(
                "{} {role}, depth {}: {}",
                p.id(&escape(h.short)),
                h.depth,
                escape(h.subject)
            ),
        )?,
        _ => field("HEAD:", "none: the session is empty")?,
    }
    match s.branch {
        Some(b) => field("Branch:", &p.branch(&escape(b)))?,
        None if s.detached => field(
            "Branch:",
            "none: HEAD is detached, inside the tree (new work forks there)",
        )?,
        None if s.head.is_some() => field("Branch:", "none: HEAD is on an unnamed tip")?,
        None => field("Branch:", "none")?,
    }
    match &s.label {
        Some(l) if l.behind == 0 => {
            field("Label:", &format!("{} on HEAD", p.label(&escape(l.name))))?
        }
        Some(l) => field(
            "Label:",
            &format!(
                "{} on {}, {} behind HEAD",
                p.label(&escape(l.name)),
                p.id(&escape(l.short)),
                match l.behind {
                    1 => "1 entry".to_string(),
                    n => format!("{n} entries"),
                }
            ),
        )?,
        None => field("Label:", "none on HEAD's path")?,
    }
    let tips = match s.tips {
        1 => "1 tip".to_string(),
        n => format!("{n} tips"),
    };
    field("Entries:", &format!("{}, {tips}", s.entries))?;
    match &s.torn {
        None => field("Torn:", "no")?,
        Some(t) => field(
            "Torn:",
            &p.error(&format!(
                "yes: {} bytes after byte {}, from an interrupted write; `ysess fsck --repair` cuts them",
                t.bytes, t.offset
            )),
        )?,
    }
    if let Some(since) = &s.since {
        let text = match since.state {
            "unchanged" => "unchanged since the digest".to_string(),
            "appended" => format!(
                "{} bytes appended since the digest; nothing before them changed",
                since.appended
            ),
            _ => p.error("rewritten since the digest: `ysess fsck --since DIGEST` says where"),
        };
        field("Digest:", &text)?;
    }
    Ok(())
}
