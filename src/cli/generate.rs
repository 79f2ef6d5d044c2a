//! `ysess generate`: the static completion scripts and the man pages, made
//! from the command-line definition itself. Hidden: it is for packagers and
//! for refreshing the committed copies in `completions/` and `man/`.

use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;

use super::{Cli, Context, Exit, Failure, manual};

/// Write the shell completion scripts or the man pages into DIR
///
/// `completions` writes static completion scripts for bash, zsh, fish,
/// PowerShell and elvish (`ysess.bash`, `_ysess`, `ysess.fish`,
/// `_ysess.ps1`, `ysess.elv`); `man` writes `ysess.1` and one page per
/// command (`ysess-log.1`, …). The output depends only on the command-line
/// definition and the version, so the copies committed in the repository can
/// be checked for staleness.
///
/// Examples:
///   ysess generate completions completions
///   ysess generate man man
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct GenerateArgs {
    /// What to write
    #[arg(value_enum)]
    pub what: What,
    /// The directory to write into (created if missing)
    #[arg(value_name = "DIR")]
    pub out_dir: PathBuf,
}

/// What `ysess generate` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum What {
    /// Static completion scripts for bash, zsh, fish, PowerShell and elvish
    Completions,
    /// Man pages: ysess.1 and ysess-COMMAND.1 (one per command)
    Man,
}

/// The shells the static scripts are written for, in a fixed order.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// Writes the files `args` asks for.
pub fn run(args: &GenerateArgs, _ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    std::fs::create_dir_all(&args.out_dir)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", args.out_dir.display()))?;
    match args.what {
        What::Completions => completions(&args.out_dir)?,
        What::Man => man(&args.out_dir)?,
    }
    Ok(Exit::Success)
}

/// Writes one static completion script per shell into `dir`.
pub fn completions(dir: &Path) -> anyhow::Result<()> {
    let mut cmd = Cli::command();
    let name = cmd.get_name().to_string();
    for shell in SHELLS {
        clap_complete::generate_to(shell, &mut cmd, &name, dir)
            .map_err(|e| anyhow::anyhow!("cannot write {shell} completions: {e}"))?;
    }
    Ok(())
}

/// Writes `ysess.1` and `ysess-<command>.1` for every visible command.
pub fn man(dir: &Path) -> anyhow::Result<()> {
    fn write(cmd: &clap::Command, source: &str, dir: &Path) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            write(sub, source, dir)?;
        }
        let (name, page) = page(cmd, source)?;
        std::fs::write(dir.join(name), page)
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let source = format!("ysess {}", cmd.get_version().unwrap_or_default());
    write(&cmd, &source, dir)
        .map_err(|e| anyhow::anyhow!("cannot write man pages to {}: {e}", dir.display()))
}

/// One man page and its file name: clap_mangen's sections, a SYNOPSIS that
/// names every option's value, the sections `--help` shares (REVISIONS
/// where the command takes one, EXIT STATUS, ENVIRONMENT), then the
/// command's own EXAMPLES, taken out of its description.
fn page(cmd: &clap::Command, source: &str) -> std::io::Result<(String, Vec<u8>)> {
    let long = cmd
        .get_long_about()
        .map(|s| s.to_string())
        .unwrap_or_default();
    let (description, examples) = match long.split_once("\n\nExamples:\n") {
        Some((description, examples)) => (description.to_string(), examples.to_string()),
        None => (long, String::new()),
    };
    let man = clap_mangen::Man::new(cmd.clone().long_about(description))
        .source(source)
        .manual("ysess Manual");
    // Each piece rendered on its own opens with the same preamble; keep
    // the first only.
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    let preamble = roff::Roff::new().render();
    let mut piece = |render: &dyn Fn(&mut Vec<u8>) -> std::io::Result<()>| {
        let mut bytes = Vec::new();
        render(&mut bytes)?;
        let body = bytes.strip_prefix(preamble.as_bytes()).unwrap_or(&bytes);
        out.extend_from_slice(body);
        Ok::<_, std::io::Error>(())
    };
    piece(&|w| man.render_name_section(w))?;
    piece(&|w| synopsis(cmd).to_writer(w))?;
    piece(&|w| man.render_description_section(w))?;
    piece(&|w| man.render_options_section(w))?;
    if cmd.has_subcommands() {
        piece(&|w| man.render_subcommands_section(w))?;
    }
    piece(&|w| shared_sections(cmd).to_writer(w))?;
    piece(&|w| examples_section(&examples).to_writer(w))?;
    piece(&|w| man.render_version_section(w))?;
    Ok((man.get_filename(), out))
}

/// `ysess log [--oneline] [-n|--max-count N] … [REV]`: the command's own
/// options, then the global ones, each with its value's name.
fn synopsis(cmd: &clap::Command) -> roff::Roff {
    use roff::{bold, italic, roman};
    let mut roff = roff::Roff::new();
    roff.control("SH", ["SYNOPSIS"]);
    let name = cmd.get_bin_name().unwrap_or_else(|| cmd.get_name());
    let mut line = vec![bold(name)];
    let mut options: Vec<&clap::Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !a.is_positional())
        .filter(|a| !matches!(a.get_id().as_str(), "help" | "version"))
        .collect();
    options.sort_by_key(|a| a.is_global_set());
    for arg in options {
        line.push(roman(" ["));
        match (arg.get_short(), arg.get_long()) {
            (Some(short), Some(long)) => {
                line.push(bold(format!("-{short}")));
                line.push(roman("|"));
                line.push(bold(format!("--{long}")));
            }
            (Some(short), None) => line.push(bold(format!("-{short}"))),
            (None, Some(long)) => line.push(bold(format!("--{long}"))),
            (None, None) => {}
        }
        if arg.get_action().takes_values() {
            line.push(roman(" "));
            line.push(italic(value_names(arg)));
        }
        line.push(roman("]"));
    }
    for arg in cmd.get_positionals().filter(|a| !a.is_hide_set()) {
        let value = value_names(arg);
        let many = if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            "..."
        } else {
            ""
        };
        if arg.is_required_set() {
            line.extend([roman(" "), italic(value), roman(many)]);
        } else {
            line.extend([roman(" ["), italic(value), roman(format!("]{many}"))]);
        }
    }
    if cmd.has_subcommands() {
        line.extend([roman(" "), italic("COMMAND")]);
    }
    roff.text(line);
    roff
}

/// An argument's value as the synopsis shows it: `PATH`, `OLD NEW`.
fn value_names(arg: &clap::Arg) -> String {
    match arg.get_value_names() {
        Some(names) => names
            .iter()
            .map(|n| n.as_str())
            .collect::<Vec<_>>()
            .join(" "),
        None => arg.get_id().as_str().to_uppercase(),
    }
}

/// REVISIONS (for ysess and the commands that take one), EXIT STATUS and
/// ENVIRONMENT: the text `ysess --help` ends with.
fn shared_sections(cmd: &clap::Command) -> roff::Roff {
    use roff::{bold, roman};
    let takes_revisions = cmd.get_arguments().any(|a| {
        a.get_value_names().is_some_and(|names| {
            names
                .iter()
                .any(|n| ["REV", "A", "B"].contains(&n.as_str()))
        })
    });
    let mut sections = vec![&manual::EXIT_STATUS, &manual::ENVIRONMENT];
    if takes_revisions || cmd.has_subcommands() {
        sections.insert(0, &manual::REVISIONS);
    }
    let mut roff = roff::Roff::new();
    for section in sections {
        roff.control("SH", [section.title.to_uppercase().as_str()]);
        if !section.intro.is_empty() {
            roff.text([roman(section.intro)]);
        }
        for (term, meaning) in section.items {
            roff.control("TP", []);
            roff.text([bold(*term)]);
            roff.text([roman(*meaning)]);
        }
        if !section.outro.is_empty() {
            roff.control("PP", []);
            roff.text([roman(section.outro)]);
        }
    }
    roff
}

/// EXAMPLES from the `Examples:` paragraph of `--help`: each line is a
/// command, then, after a run of spaces, what it does.
fn examples_section(examples: &str) -> roff::Roff {
    use roff::{bold, roman};
    let mut roff = roff::Roff::new();
    let examples: Vec<&str> = examples
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if examples.is_empty() {
        return roff;
    }
    roff.control("SH", ["EXAMPLES"]);
    for example in examples {
        let (command, what) = match example.find("  ") {
            Some(at) => (&example[..at], example[at..].trim()),
            None => (example, ""),
        };
        roff.control("TP", []);
        roff.text([bold(command)]);
        if !what.is_empty() {
            roff.text([roman(what)]);
        }
    }
    roff
}
