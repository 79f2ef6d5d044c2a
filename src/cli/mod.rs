//! The command line: parsing, one module per command, and the one place
//! where outcomes become exit codes.

mod append;
pub(crate) mod archive;
pub(crate) mod branch;
pub(crate) mod checkout;

pub(crate) mod diff;
mod exit;
mod export;
mod filters;
mod fsck;
pub mod generate;
pub(crate) mod grep;
pub(crate) mod hint;
mod log;
pub(crate) mod ls;
pub mod manual;
mod redact;
mod reflog;
pub(crate) mod resume;

mod progress;
mod show;
mod stats;
mod status;
mod tables;
pub(crate) mod tag;
pub mod tui;
mod write;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand};

use exit::is_broken_pipe;
pub use exit::{Exit, Failure, report};

use crate::ui::output::{self, ColorWhen, Streams};
use crate::ui::pager;

/// A git-style tool for agent session trees (yoagent, pi, Claude Code, Codex,
/// Qwen Code, Gemini CLI, Copilot CLI, OpenCode)
///
/// A session is a JSONL file of entries, each with an id and a parent: a
/// tree of conversation turns that only ever grows. ysess shows, compares
/// and checks those trees, and moves HEAD, labels and branches by
/// appending, never by rewriting history. It reads the sessions of
/// yoagent, pi, Claude Code, Codex, Qwen Code, Gemini CLI, GitHub Copilot
/// CLI and OpenCode, and writes yoagent's and pi's files; the refs of the
/// others' sessions it keeps in a store of its own.
///
/// Examples:
///   ysess log --graph                  the whole tree, forks and all
///   ysess checkout -b lib first-draft  resume from a checkpoint on a new branch
///   ysess diff first-draft lib         what the two directions did differently
///   ysess fsck --strict sessions/*.jsonl
#[derive(Debug, Parser)]
#[command(
    verbatim_doc_comment,
    name = "ysess",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_long_help = manual::long_help()
)]
pub struct Cli {
    /// The options every command takes.
    #[command(flatten)]
    pub global: Global,
    /// The command.
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes, before or after its name.
#[derive(Debug, Args)]
pub struct Global {
    /// The session file (`-` reads standard input)
    #[arg(
        short = 'f',
        long = "file",
        env = "YSESS_FILE",
        default_value = "session.jsonl",
        value_name = "PATH",
        global = true
    )]
    pub file: PathBuf,
    /// The session to use instead of -f: a unique start of its id or file
    /// name, `latest` (the session written last) or `latest~N`, found
    /// where `ysess ls` looks, then in the archive (before the command's
    /// name: `export --session` is export's own)
    #[arg(short = 's', long = "session", value_name = "ID", id = "session_id")]
    pub session: Option<String>,
    /// Run as if started in DIR
    #[arg(short = 'C', value_name = "DIR", global = true)]
    pub dir: Option<PathBuf>,
    /// When to use colours (`auto` honours NO_COLOR)
    #[arg(long, value_enum, default_value_t, value_name = "WHEN", global = true)]
    pub color: ColorWhen,
    /// Print less: no status messages, no hints
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// Never page the output (on a terminal it goes through $YSESS_PAGER, else
    /// $PAGER, else `less -FRX`)
    #[arg(long, global = true)]
    pub no_pager: bool,
    /// Read the session file as this format, whatever its first lines show
    /// (by default: the format its first lines show, else yoagent's)
    #[arg(long, value_enum, value_name = "FORMAT", global = true)]
    pub format_of: Option<crate::Format>,
    /// Threads for the work done in parallel: fsck, ls, grep, stats and the
    /// exports over many sessions or a large one (default: $YSESS_JOBS, else
    /// every core)
    #[arg(
        short = 'j',
        long,
        value_name = "N",
        global = true,
        value_parser = clap::value_parser!(u32).range(1..=4096)
    )]
    pub jobs: Option<u32>,
    /// Where `file` came from, so that hints can repeat the command line.
    #[arg(skip)]
    pub file_from: FileFrom,
}

/// `--format-of` takes the name of any format ysess reads: the list, their
/// names and their help come from [`crate::Format`] itself.
impl clap::ValueEnum for crate::Format {
    fn value_variants<'a>() -> &'a [Self] {
        &crate::Format::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.name()).help(self.about()))
    }
}

/// Where the session file's name came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FileFrom {
    /// `./session.jsonl`, by default.
    #[default]
    Default,
    /// `$YSESS_FILE`.
    Environment,
    /// `-f PATH`.
    CommandLine,
    /// `-s ID`, resolved to a file.
    Session,
}

/// The commands. Each variant's help is its arguments' doc comment (a doc
/// comment here would replace it in `--help`).
#[derive(Debug, Subcommand)]
#[allow(missing_docs)]
pub enum Command {
    Log(log::LogArgs),
    Ls(ls::LsArgs),
    Archive(archive::ArchiveArgs),
    Show(show::ShowArgs),
    Branch(branch::BranchArgs),
    Tag(tag::TagArgs),
    Checkout(checkout::CheckoutArgs),
    Resume(resume::ResumeArgs),
    Append(append::AppendArgs),
    Export(export::ExportArgs),
    Diff(diff::DiffArgs),
    Fsck(fsck::FsckArgs),
    Status(status::StatusArgs),
    Reflog(reflog::ReflogArgs),
    Grep(grep::GrepArgs),
    Stats(stats::StatsArgs),
    Tui(tui::TuiArgs),
    /// Hidden: not in the derived command, so neither the help, the man
    /// pages nor the completion scripts show it; [`parse`] adds it.
    #[command(skip)]
    Generate(generate::GenerateArgs),
}

/// What a command needs from its surroundings, passed in so tests can run
/// commands without a process.
pub struct Context<'a> {
    /// The global options.
    pub global: &'a Global,
    /// Where output goes.
    pub streams: Streams<'a>,
    /// The zone times are shown in (the system's, or `$TZ`), read the
    /// first time a local time is shown.
    pub tz: crate::ui::zone::Zone,
    /// Where ysess keeps the refs of sessions whose app owns the file
    /// (`$YSESS_REFS`, …: [`crate::refs::store::Store::from_env`]).
    pub refs: Option<crate::refs::store::Store>,
    /// What runs `ysess tui`, when the program has the browser.
    pub browse: Option<tui::Browse>,
}

impl Context<'_> {
    /// The session file `-f` names (or `./session.jsonl`); `None` for
    /// standard input (`-f -`).
    pub fn session_file(&self) -> Option<std::path::PathBuf> {
        match crate::Source::new(&self.global.file) {
            crate::Source::Path(path) => Some(path),
            crate::Source::Stdin => None,
        }
    }
}

/// Loads the session file for a command that shows it.
fn open_repo(ctx: &Context<'_>) -> Result<crate::repo::Repo, Failure> {
    open_with(ctx, crate::repo::Open::default())
}

/// [`open_repo`] with options of its own (`--format-of` is added to them).
pub(crate) fn open_with(
    ctx: &Context<'_>,
    open: crate::repo::Open,
) -> Result<crate::repo::Repo, Failure> {
    let source = crate::Source::new(&ctx.global.file);
    let open = open.format(ctx.global.format_of);
    let with_refs = |repo: crate::repo::Repo| match &source {
        // An app-owned session's refs, kept beside it.
        crate::Source::Path(path) => repo
            .with_store(path, ctx.refs.as_ref())
            .map_err(crate::repo::LoadError::Io),
        crate::Source::Stdin => Ok(repo),
    };
    crate::repo::Repo::open(&source, &open)
        .and_then(with_refs)
        .map_err(|e| match e {
            crate::repo::LoadError::Invalid { .. } => {
                Failure::refuse(format!("{}: {}", source.display(), hint::load_error(&e)))
                    .with_hint(format!(
                        "{} lists every problem",
                        hint::fsck(ctx.global, &[])
                    ))
            }
            crate::repo::LoadError::Io(e) => unreadable(ctx.global, &e, ""),
        })
}

/// The session file cannot be read: names it, and when it does not exist,
/// says how to name another. `after` ends the message (`; nothing was
/// written`).
fn unreadable(global: &Global, e: &io::Error, after: &str) -> Failure {
    let file = global.file.display();
    let mut failure = if e.kind() == io::ErrorKind::NotFound {
        Failure::refuse(format!("the session file {file} does not exist{after}"))
    } else {
        Failure::refuse(format!("{file}: cannot read: {e}{after}"))
    };
    failure.hints = hint::missing_file(global, e);
    failure
}

/// A command that needs an entry, on a session that has none.
fn empty(what: &str) -> Failure {
    Failure::refuse(format!("the session is empty: {what}"))
}

/// Resolves a revision, or fails with the resolver's hints.
fn resolve(repo: &crate::repo::Repo, text: &str) -> Result<crate::Ix, Failure> {
    repo.resolve(text).map_err(rev_failure)
}

/// The entries several revisions and ranges name together, newest first.
fn select(
    repo: &crate::repo::Repo,
    texts: &[&str],
    records: bool,
) -> Result<Vec<crate::Ix>, Failure> {
    repo.select(texts, records).map_err(rev_failure)
}

fn rev_failure(e: crate::ops::RevError) -> Failure {
    let hints = hint::revision(&e);
    let mut failure = Failure::from(anyhow::Error::new(e));
    failure.hints = hints;
    failure
}

/// With `-s ID`, the session file it names becomes the file every command
/// reads; `-s` and `-f` together are a usage error.
fn session_file(cli: &mut Cli) -> Result<(), Failure> {
    let Some(spec) = &cli.global.session else {
        return Ok(());
    };
    if cli.global.file_from == FileFrom::CommandLine {
        return Err(Failure::usage(
            "-s and -f both name the session file: give one of them",
        ));
    }
    let roots = crate::fleet::sessions::roots::<&std::path::Path>(&[]);
    let mut found = crate::fleet::sessions::find(&roots);
    let mut path = crate::fleet::sessions::resolve(spec, &found);
    if let Err(crate::fleet::sessions::NoSession::None { .. }) = path {
        // Then the archive's sessions the agents deleted, when it exists.
        if archive::Shelf::default()
            .add_to(&mut found, false)?
            .is_some()
        {
            path = crate::fleet::sessions::resolve(spec, &found);
        }
    }
    let path = path.map_err(|e| {
        let mut failure = Failure::refuse(output::escape(&e.to_string()).into_owned());
        if let crate::fleet::sessions::NoSession::Ambiguous { candidates, .. } = &e {
            for c in candidates {
                failure = failure.with_hint(format!(
                    "candidate: {}",
                    output::escape(&c.display().to_string())
                ));
            }
        }
        failure
    })?;
    cli.global.file = path;
    cli.global.file_from = FileFrom::Session;
    Ok(())
}

/// Runs a parsed command line; `browse` runs `ysess tui`.
pub fn run<'a>(
    cli: &'a Cli,
    streams: Streams<'a>,
    browse: Option<tui::Browse>,
) -> Result<Exit, Failure> {
    run_with_refs(cli, streams, crate::refs::store::Store::from_env(), browse)
}

/// [`run`], with the refs of app-owned sessions kept in `refs` (a test's
/// own, beside its files).
pub fn run_with_refs<'a>(
    cli: &'a Cli,
    streams: Streams<'a>,
    refs: Option<crate::refs::store::Store>,
    browse: Option<tui::Browse>,
) -> Result<Exit, Failure> {
    let mut ctx = Context {
        global: &cli.global,
        streams,
        tz: crate::ui::zone::Zone::default(),
        refs,
        browse,
    };
    crate::input::par::set_jobs(jobs(cli.global.jobs)?);
    if let Some(path) = std::env::var_os("YSESS_PRICES") {
        crate::stats::prices::install(read_prices(std::path::Path::new(&path))?);
    }
    match &cli.command {
        Command::Log(args) => log::run(args, &mut ctx),
        Command::Ls(args) => ls::run(args, &mut ctx),
        Command::Archive(args) => archive::run(args, &mut ctx),
        Command::Show(args) => show::run(args, &mut ctx),
        Command::Branch(args) => branch::run(args, &mut ctx),
        Command::Tag(args) => tag::run(args, &mut ctx),
        Command::Checkout(args) => checkout::run(args, &mut ctx),
        Command::Resume(args) => resume::run(args, &mut ctx),
        Command::Append(args) => append::run(args, &mut ctx),
        Command::Export(args) => export::run(args, &mut ctx),
        Command::Diff(args) => diff::run(args, &mut ctx),
        Command::Fsck(args) => fsck::run(args, &mut ctx),
        Command::Status(args) => status::run(args, &mut ctx),
        Command::Reflog(args) => reflog::run(args, &mut ctx),
        Command::Grep(args) => grep::run(args, &mut ctx),
        Command::Stats(args) => stats::run(args, &mut ctx),
        Command::Tui(args) => match ctx.browse {
            Some(browse) => browse(args, &mut ctx),
            None => Err(Failure::refuse(
                "this program has no terminal browser: `ysess tui` runs it",
            )),
        },
        Command::Generate(args) => generate::run(args, &mut ctx),
    }
}

/// The worker count: `--jobs`, else `YSESS_JOBS`, else 0 (every core).
fn jobs(flag: Option<u32>) -> Result<usize, Failure> {
    if let Some(n) = flag {
        return Ok(n as usize);
    }
    let Some(text) = std::env::var_os("YSESS_JOBS") else {
        return Ok(0);
    };
    match text.to_str().map(str::trim).map(str::parse::<u32>) {
        Some(Ok(n @ 1..=4096)) => Ok(n as usize),
        _ => Err(Failure::refuse(format!(
            "YSESS_JOBS is `{}`: give a number of threads from 1 to 4096",
            text.to_string_lossy()
        ))),
    }
}

/// The price table `YSESS_PRICES` names (a regular file, at most 16 MiB).
fn read_prices(path: &std::path::Path) -> Result<crate::stats::prices::Prices, Failure> {
    use std::io::Read as _;
    let named = |why: String| Failure::refuse(format!("YSESS_PRICES={}: {why}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| named(format!("cannot read: {e}")))?;
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(named("not a regular file".to_string()));
    }
    let mut text = String::new();
    file.take(16 << 20)
        .read_to_string(&mut text)
        .map_err(|e| named(format!("cannot read: {e}")))?;
    crate::stats::prices::Prices::parse(&text).map_err(|e| {
        named(format!(
            "not a price table ({e}); expected {{\"model\": {{\"input\": 3, \"output\": 15, \"cache_read\": 0.3, \"cache_write\": 3.75}}}}, dollars per million tokens"
        ))
    })
}

/// The whole command line: [`Cli`]'s commands and the hidden `generate`.
pub fn command() -> clap::Command {
    Cli::command().subcommand(
        <generate::GenerateArgs as Args>::augment_args(clap::Command::new("generate")).hide(true),
    )
}

/// Parses a command line, the hidden `generate` included.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    let parsed = match matches.subcommand() {
        Some(("generate", sub)) => Global::from_arg_matches(&matches).and_then(|global| {
            Ok(Cli {
                global,
                command: Command::Generate(generate::GenerateArgs::from_arg_matches(sub)?),
            })
        }),
        _ => Cli::from_arg_matches(&matches),
    };
    let mut cli = parsed.map_err(|e| e.format(&mut cmd))?;
    cli.global.file_from = match matches.value_source("file") {
        Some(clap::parser::ValueSource::CommandLine) => FileFrom::CommandLine,
        Some(clap::parser::ValueSource::EnvVariable) => FileFrom::Environment,
        _ => FileFrom::Default,
    };
    Ok(cli)
}

/// An unknown command gets `did you mean 'log'?`, as in git: the nearest
/// command by edit distance (a swapped pair of letters counts as one edit),
/// else the one clap finds similar. `-s` after the command (`ysess log -s
/// latest`) is told that it goes before it.
fn did_you_mean(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() == ErrorKind::UnknownArgument
        && let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidArg)
        && (typed == "-s" || typed.starts_with("--session"))
    {
        let tip = clap::builder::StyledStr::from(format!(
            "'{typed}' names the session for any command, so it goes before the command's \
             name: ysess -s latest log"
        ));
        e.remove(ContextKind::SuggestedArg);
        e.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![tip]));
        return e;
    }
    if e.kind() != ErrorKind::InvalidSubcommand {
        return e;
    }
    let Some(ContextValue::String(typed)) = e.get(ContextKind::InvalidSubcommand).cloned() else {
        return e;
    };
    let similar = match e.remove(ContextKind::SuggestedSubcommand) {
        Some(ContextValue::String(name)) => Some(name),
        Some(ContextValue::Strings(names)) => names.into_iter().next(),
        _ => None,
    };
    let cmd = Cli::command();
    let nearest = cmd
        .get_subcommands()
        .filter(|c| !c.is_hide_set())
        .map(|c| c.get_name())
        .chain(["help"])
        .map(|name| (strsim::osa_distance(&typed, name), name))
        .filter(|&(distance, name)| distance <= 1 + name.len() / 4)
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, name)| name.to_string());
    let Some(name) = nearest.or(similar) else {
        return e;
    };
    let mut tips = vec![clap::builder::StyledStr::from(format!(
        "did you mean '{name}'?"
    ))];
    if let Some(ContextValue::StyledStrs(more)) = e.remove(ContextKind::Suggested) {
        tips.extend(more);
    }
    e.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
    e
}

/// The process entry point.
pub fn main(browse: tui::Browse) -> ExitCode {
    let started = std::time::Instant::now();
    let exit = run_main(browse);
    if let Some(profile) = crate::profile::report(started.elapsed()) {
        eprintln!("{profile}");
    }
    exit
}

fn run_main(browse: tui::Browse) -> ExitCode {
    // `COMPLETE=<shell> ysess …`: print the shell's registration script, or
    // the candidates for the line being completed, and exit.
    clap_complete::CompleteEnv::with_factory(command).complete();
    let mut cli = match parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            let e = did_you_mean(e);
            // Help and version go to stdout with 0; usage errors to stderr with 2.
            // An error that repeats an argument holding a control character
            // (an escape sequence, a bidi override) is printed plain, each
            // such character escaped, as session text is.
            let hazardous =
                std::env::args_os().any(|a| a.to_string_lossy().chars().any(output::is_hazard));
            if e.use_stderr() && hazardous {
                let plain = e.render().to_string();
                let _ = write!(io::stderr(), "{}", output::escape_lines(&plain).join("\n"));
            } else {
                let _ = e.print();
            }
            return ExitCode::from(if e.use_stderr() {
                Exit::Usage.code()
            } else {
                0
            });
        }
    };
    if let Some(dir) = &cli.global.dir
        && let Err(e) = std::env::set_current_dir(dir)
    {
        eprintln!("error: cannot change to directory {}: {e}", dir.display());
        return ExitCode::from(Exit::Fatal.code());
    }
    let no_color = std::env::var("NO_COLOR").ok();
    let color_err = cli
        .global
        .color
        .enabled(output::stderr_is_terminal(), no_color.as_deref());
    let stdout_terminal = io::IsTerminal::is_terminal(&io::stdout());
    let color_out = cli
        .global
        .color
        .enabled(stdout_terminal, no_color.as_deref());
    // Page only what a person reads on a terminal.
    let pager = pager::choose(
        std::env::var("YSESS_PAGER").ok().as_deref(),
        std::env::var("PAGER").ok().as_deref(),
    )
    .filter(|_| stdout_terminal && !cli.global.no_pager);
    let width = output::stdout_width(std::env::var("COLUMNS").ok().as_deref());
    let stdout = io::stdout();
    let mut out = io::BufWriter::with_capacity(64 * 1024, stdout.lock());
    let mut err = io::stderr();
    let streams = Streams {
        out: &mut out,
        err: &mut err,
        color_err,
        color_out,
        pager,
        width,
    };
    let result = session_file(&mut cli).and_then(|()| run(&cli, streams, Some(browse)));
    let flushed = out.flush();
    match result {
        Ok(exit) => match flushed {
            Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
                eprintln!("error: cannot write output: {e}");
                ExitCode::from(Exit::Fatal.code())
            }
            _ => ExitCode::from(exit.code()),
        },
        Err(failure) if is_broken_pipe(&failure.error) => ExitCode::SUCCESS,
        Err(failure) => {
            let mut streams = Streams {
                out: &mut io::sink(),
                err: &mut io::stderr(),
                color_err,
                color_out: false,
                pager: None,
                width: None,
            };
            report(&mut streams, &failure, cli.global.quiet);
            ExitCode::from(failure.exit.code())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
        super::command().debug_assert();
    }
}
