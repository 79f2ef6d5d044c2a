use std::io::Write as _;

use clap::Args;

use super::hint::{command, quote};
use super::write::{described, op_failure, session_path, status};
use super::{Context, Exit, Failure};
use crate::ops::Refused;
use crate::ops::resume::{Handoff, NewFile, Refusal, plan};
use crate::ui::render::Paint;

/// Go on with a session in its own agent, from any entry
///
/// Starts the agent that wrote the session at REV (default HEAD), in the
/// session's working directory, so that the conversation goes on from
/// there. The session's own file stays as it is:
///
///   Claude Code  claude --resume ID --resume-session-at REV --fork-session
///                (a copy of the path to REV under a new id, resumed with
///                --resume, when REV is on another branch than the one
///                Claude Code resumes)
///   Codex        a new rollout whose history is the session's up to REV,
///                resumed with `codex resume NEW` (`codex exec resume NEW`
///                when the arguments after -- start with `exec`)
///   pi           `pi --session FILE`, after `ysess checkout REV`
///
/// ysess waits for the agent and exits with its status. A new session file
/// it writes is named on stderr. The agent must be on PATH.
///
/// Examples:
///   ysess resume first-draft                 go on from a checkpoint
///   ysess resume first-draft --print         print the command instead
///   ysess resume HEAD~2 -- -p "go on"        Claude Code, non-interactive
///   ysess resume HEAD~2 -- exec "go on"      Codex, non-interactive
#[derive(Debug, Args)]
#[command(verbatim_doc_comment)]
pub struct ResumeArgs {
    /// Where the conversation goes on from: an entry, a label, a branch
    /// [default: HEAD]
    #[arg(value_name = "REV", add = crate::ui::complete::revisions())]
    pub rev: Option<String>,
    /// Print the command (one shell-quoted line, after `cd` to the working
    /// directory) instead of running it; a new session file it needs is
    /// written all the same
    #[arg(long)]
    pub print: bool,
    /// Arguments for the agent, after `--`
    #[arg(last = true, value_name = "ARGS")]
    pub args: Vec<String>,
}

pub fn run(args: &ResumeArgs, ctx: &mut Context<'_>) -> Result<Exit, Failure> {
    let path = session_path(ctx)?;
    hand_off(ctx, &path, args.rev.as_deref(), args.print, &args.args)
}

/// Resumes the session at `path` at `rev` in its agent (or, with `print`,
/// prints the command): `ysess resume`, and `R` in `ysess tui`.
pub fn hand_off(
    ctx: &mut Context<'_>,
    path: &std::path::Path,
    rev: Option<&str>,
    print: bool,
    agent_args: &[String],
) -> Result<Exit, Failure> {
    let args = &ResumeArgs {
        rev: rev.map(str::to_string),
        print,
        args: agent_args.to_vec(),
    };
    let path = path.to_path_buf();
    let resume = planned(ctx, &path, args)?;
    let handoff = &resume.handoff;
    let program = if args.print {
        None
    } else {
        Some(on_path(&handoff.program).ok_or_else(|| {
            Failure::refuse(format!(
                "resuming a {} session needs the `{}` command, which is not on PATH",
                resume.app, handoff.program
            ))
            .with_hint(format!("install it: {}", handoff.install))
            .with_hint(format!(
                "{} prints the command instead",
                command(ctx.global, &resume_words(args, true))
            ))
        })?)
    };
    let file = path.to_string_lossy().into_owned();
    let checkout_first = handoff
        .checkout_first
        .as_deref()
        .map(|rev| command_line(&["ysess", "-f", &file, "checkout", rev]));
    if let Some(new) = &handoff.new_file {
        write_new(new)
            .map_err(|e| Failure::refuse(format!("{}: cannot write: {e}", new.path.display())))?;
        status(
            ctx,
            &format!(
                "Wrote session {} for {}: {}",
                new.session,
                resume.app,
                crate::ui::output::escape(&new.path.display().to_string())
            ),
        )?;
    }
    if args.print {
        return print_command(ctx, handoff, checkout_first.as_deref());
    }
    if let Some(rev) = &handoff.checkout_first {
        crate::ops::checkout::checkout(&path, Some(rev), None, ctx.refs.as_ref())
            .map_err(|e| super::write::refused(ctx, &path, e, |_| Failure::refuse("checkout")))?;
    }
    let paint = Paint {
        on: ctx.streams.color_err,
    };
    status(
        ctx,
        &format!(
            "Resuming in {} at {}",
            resume.app,
            described(&resume.at, paint)
        ),
    )?;
    ctx.streams.err.flush()?;
    run_agent(ctx, handoff, program.unwrap_or_default())
}

/// What resuming the session at `path` at REV takes, planned; a refusal
/// as the command line says it.
fn planned(
    ctx: &mut Context<'_>,
    path: &std::path::Path,
    args: &ResumeArgs,
) -> Result<crate::ops::resume::Resume, Failure> {
    let var = |name: &str| std::env::var_os(name);
    let zone: jiff::tz::TimeZone = (*ctx.tz).clone();
    let planned = plan(
        path,
        args.rev.as_deref(),
        &args.args,
        &var,
        ctx.refs.as_ref(),
        &zone,
    );
    planned.map_err(|e| match e {
        Refused::Op(e) => op_failure(ctx, path, e),
        Refused::Own(Refusal::NoApp(why)) => Failure::refuse(why).with_hint(format!(
            "{} moves HEAD to REV",
            command(
                ctx.global,
                &["checkout", args.rev.as_deref().unwrap_or("REV")]
            )
        )),
        Refused::Own(Refusal::Unreadable(why)) => {
            Failure::refuse(format!("cannot resume this session: {why}"))
        }
    })
}

/// Prints the command that resumes the session (`--print`): into its
/// working directory, HEAD moved first where it must be, then the agent.
fn print_command(
    ctx: &mut Context<'_>,
    handoff: &Handoff,
    checkout_first: Option<&str>,
) -> Result<Exit, Failure> {
    let mut line = String::new();
    if let Some(cwd) = &handoff.cwd {
        line.push_str(&format!("cd -- {} && ", shell_word(&cwd.to_string_lossy())));
    }
    if let Some(first) = checkout_first {
        line.push_str(&format!("{first} && "));
    }
    line.push_str(&invocation(handoff));
    writeln!(ctx.streams.out, "{line}")?;
    Ok(Exit::Success)
}

/// Runs the agent `program` as `handoff` says (in the session's working
/// directory, when it is still there), and exits as it does.
fn run_agent(
    ctx: &mut Context<'_>,
    handoff: &Handoff,
    program: std::path::PathBuf,
) -> Result<Exit, Failure> {
    let mut child = std::process::Command::new(program);
    child.args(&handoff.args);
    for (name, value) in &handoff.env {
        child.env(name, value);
    }
    match &handoff.cwd {
        Some(cwd) if cwd.is_dir() => {
            child.current_dir(cwd);
        }
        Some(cwd) => status(
            ctx,
            &format!(
                "warning: the session's working directory {} is gone; the agent runs here",
                crate::ui::output::escape(&cwd.display().to_string())
            ),
        )?,
        None => {}
    }
    let ran = child
        .status()
        .map_err(|e| Failure::refuse(format!("cannot run `{}`: {e}", handoff.program)))?;
    Ok(exit_of(ran))
}

/// The agent's exit status as ysess's own: its code, or 128 + the signal
/// that ended it, as a shell reports it.
fn exit_of(status: std::process::ExitStatus) -> Exit {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            return Exit::Signal(u8::try_from(signal).unwrap_or(u8::MAX));
        }
    }
    match status.code() {
        Some(0) => Exit::Success,
        Some(code) => Exit::Agent(u8::try_from(code).unwrap_or(u8::MAX)),
        None => Exit::Fatal,
    }
}

/// `resume`'s words as typed, with or without `--print`.
fn resume_words(args: &ResumeArgs, print: bool) -> Vec<&str> {
    let mut words = vec!["resume"];
    words.extend(args.rev.as_deref());
    if print {
        words.push("--print");
    }
    if !args.args.is_empty() {
        words.push("--");
        words.extend(args.args.iter().map(String::as_str));
    }
    words
}

/// Writes a new session file whole, never over an existing one, and
/// flushes it (and its name) to disk.
fn write_new(new: &NewFile) -> std::io::Result<()> {
    if let Some(dir) = new.path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&new.path)?;
    file.write_all(&new.bytes)?;
    file.sync_all()?;
    if let Some(dir) = new.path.parent() {
        let _ = std::fs::File::open(dir).and_then(|d| d.sync_all());
    }
    Ok(())
}

/// The agent's command line, its variables first.
fn invocation(handoff: &Handoff) -> String {
    let mut words: Vec<String> = handoff
        .env
        .iter()
        .map(|(name, value)| format!("{name}={}", shell_word(&value.to_string_lossy())))
        .collect();
    words.push(command_line(
        &std::iter::once(handoff.program.as_str())
            .chain(handoff.args.iter().map(String::as_str))
            .collect::<Vec<_>>(),
    ));
    words.join(" ")
}

/// Words as one shell line.
fn command_line(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One word quoted for a POSIX shell; one holding a control character as
/// `$'…'` with its bytes escaped, so that none is printed raw.
fn shell_word(word: &str) -> String {
    use crate::ui::output::is_hazard;
    if !word.chars().any(is_hazard) {
        return quote(word);
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\'' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if is_hazard(c) => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\x{b:02x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// The program `name` as found on `PATH` (a name with a `/` as it is).
fn on_path(name: &str) -> Option<std::path::PathBuf> {
    let runnable = |p: &std::path::Path| {
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            p.metadata()
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        }
        #[cfg(not(unix))]
        {
            p.is_file()
        }
    };
    if name.contains('/') {
        let p = std::path::PathBuf::from(name);
        return runnable(&p).then_some(p);
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| runnable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_printed_word_never_holds_a_raw_control_character() {
        assert_eq!(shell_word("/tmp/a b"), "'/tmp/a b'");
        assert_eq!(shell_word("plain-1.2"), "plain-1.2");
        let odd = shell_word("/tmp/x\u{1b}[2Jy'z");
        assert_eq!(odd, "$'/tmp/x\\x1b[2Jy\\'z'");
        assert!(!odd.chars().any(char::is_control));
    }
}
