//! `ysess archive --hook AGENT` proved by the agent itself: the entry it
//! prints, merged into the settings the agent reads in a home of its own,
//! with this `ysess` first on the `PATH`; one headless session against the
//! mock; then the archive holds that session's file byte for byte.
//!
//! Claude Code 2.1.328 and Gemini CLI 0.61.0 fire `SessionEnd` at the end
//! of a `-p` run, once the session's file is written. Qwen Code 0.24.4
//! does not (it fires it when an interactive session exits or is cleared),
//! and its `Stop`, which a `-p` run does fire, comes before the turn's
//! reply is written: so `--hook` has no entry for it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::mock::{Mock, Reply, Usage};
use super::{Agent, Home, succeeded};

/// What one hooked run left: the session's file and the archive.
struct Ran {
    home: Home,
    live: PathBuf,
    archive: PathBuf,
}

/// Merges `ysess archive --hook NAME [DIR]` into `settings` (under the
/// home), runs `agent` with `args` with a `ysess` on its `PATH` that waits
/// `slow` seconds, and finds the one session file it wrote under
/// `sessions` (under the home).
fn hooked(
    agent: Agent,
    (name, slow): (&str, u32),
    dir: Option<&Path>,
    (settings, sessions): (&str, &str),
    args: &[&str],
) -> Ran {
    let home = Home::new();
    let home_var = home.home();
    let mut print = vec!["archive", "--hook", name];
    if let Some(dir) = dir {
        print.push(dir.to_str().expect("UTF-8"));
    }
    let printed = home
        .dir
        .run_with(&print, None, &[("HOME", home_var.to_str().expect("UTF-8"))]);
    printed.status(0);
    let entry: Value = serde_json::from_str(&printed.stdout).expect("the entry is JSON");
    let file = home.home().join(settings);
    std::fs::create_dir_all(file.parent().expect("a folder")).expect("the settings' folder");
    let mut merged: Value = std::fs::read(&file)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| serde_json::json!({}));
    super::merge(&mut merged, entry);
    std::fs::write(&file, merged.to_string()).expect("the settings");

    // The hook's command names `ysess`: this one, first on the PATH, taking
    // `slow` seconds first (as a first archive of many sessions does).
    let bin = home.dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a bin folder");
    let ysess = bin.join("ysess");
    std::fs::write(
        &ysess,
        format!(
            "#!/bin/sh\nsleep {slow}\nexec '{}' \"$@\"\n",
            env!("CARGO_BIN_EXE_ysess")
        ),
    )
    .expect("ysess on the PATH");
    std::fs::set_permissions(&ysess, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("ysess runs");
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .expect("a PATH");

    let mock = Mock::start(|_| Reply::text("Archived, I hope.", Usage::default()));
    let out = home
        .command(agent, &mock, args)
        .env("PATH", path)
        .output()
        .expect("the agent starts");
    succeeded(&out, &format!("{agent:?} {args:?}"));
    let written: Vec<PathBuf> = super::files_under(&home.home().join(sessions))
        .into_iter()
        .filter(|f| f.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    assert_eq!(written.len(), 1, "one session file: {written:?}");
    let archive = dir.map_or_else(
        || home.home().join(".local/share/ysess/archive"),
        Path::to_path_buf,
    );
    Ran {
        live: written[0].clone(),
        home,
        archive,
    }
}

/// The archive's copy of the live file (`<archive>/<agent>/<its path
/// under the agent's folder>`) is the live file, byte for byte.
#[track_caller]
fn archived_whole(ran: &Ran, agent: &str, folder: &Path) {
    let rel = ran
        .live
        .strip_prefix(folder)
        .expect("under the agent's folder");
    let copy = ran.archive.join(agent).join(rel);
    let live = std::fs::read(&ran.live).expect("the session reads");
    let kept = std::fs::read(&copy).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; the archive holds {:?}",
            copy.display(),
            super::files_under(&ran.archive)
        )
    });
    assert!(!live.is_empty());
    assert!(
        kept == live,
        "{}: {} bytes archived, {} live",
        copy.display(),
        kept.len(),
        live.len()
    );
}

#[test]
fn claude_code_archives_its_session_by_the_printed_hook_when_claude_p_ends() {
    if !super::ready() {
        return;
    }
    // Claude Code kills a SessionEnd hook after 1.5 s unless the entry asks
    // for more (its `timeout`): this ysess takes 2.
    let ran = hooked(
        Agent::Claude,
        ("claude", 2),
        None,
        (".claude/settings.json", ".claude/projects"),
        &["-p", "--", "Say hi."],
    );
    let projects = ran.home.home().join(".claude/projects");
    archived_whole(&ran, "claude", &projects);
}

#[test]
fn gemini_cli_archives_its_session_by_the_printed_hook_when_gemini_p_ends() {
    if !super::ready() {
        return;
    }
    // The folder named to --hook (a space in it, quoted in the command).
    let dir = tempfile::tempdir().expect("a temp dir");
    let archive = dir.path().join("my archive");
    let ran = hooked(
        Agent::Gemini,
        ("gemini", 0),
        Some(&archive),
        (".gemini/settings.json", ".gemini/tmp"),
        &["-p", "Say hi."],
    );
    let tmp = ran.home.home().join(".gemini/tmp");
    archived_whole(&ran, "gemini", &tmp);
}
