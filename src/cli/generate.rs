//! `ysess generate`: the static completion scripts and the man pages, made
//! from the command-line definition itself. Hidden: it is for packagers and
//! for refreshing the committed copies in `completions/` and `man/`.

use std::path::{Path, PathBuf};

use clap::{Args, CommandFactory, ValueEnum};
use clap_complete::Shell;

use super::{Cli, Context, Exit, Failure};

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum What {
    /// Static completion scripts for bash, zsh, fish, PowerShell and elvish
    Completions,
    /// Man pages: ysess.1 and ysess-<command>.1
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
    fn write(cmd: clap::Command, source: &str, dir: &Path) -> std::io::Result<()> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
            write(sub.clone(), source, dir)?;
        }
        clap_mangen::Man::new(cmd)
            .source(source)
            .manual("ysess Manual")
            .generate_to(dir)
            .map(|_| ())
    }
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let source = format!("ysess {}", cmd.get_version().unwrap_or_default());
    write(cmd, &source, dir)
        .map_err(|e| anyhow::anyhow!("cannot write man pages to {}: {e}", dir.display()))
}
