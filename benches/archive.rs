//! `cargo bench --bench archive`: `ysess archive DIR` over a home of Claude
//! Code sessions, three times: into a fresh archive (every file copied),
//! again with nothing changed, and again after a few sessions grew. Each
//! run's time, the bytes it wrote to the archive, its peak memory and its
//! summary line. Target (the archive's issue): the second run, over
//! unchanged sessions, takes under 5% of the first, about a directory walk.
//!
//! The home is the `home` bench's `real` one (`benches/real_gen.rs`: 1,350
//! sessions, 1 GB, of the lines Claude Code wrote, with subagent folders),
//! made once under `target/bench/` with a `.meta` marker and shared with
//! that bench; the archive is `target/bench/real-<sessions>-<mb>-archive/`,
//! removed before the first run. The third run appends a copy of its last
//! line to 5 sessions of the home; they are cut back to their lengths
//! afterwards (a run killed before that cuts them back at its next start,
//! from the list `…-archive.grown` names), so that the home stays the one
//! its marker describes.
//!
//! Environment: `YSESS_BENCH_SESSIONS` (default 1,350),
//! `YSESS_BENCH_HOME_MB` (default 1,024; e.g. 200 sessions of 150 MB run
//! in well under a minute), `YSESS_BENCH_RUNS` (default 3: the second run
//! is repeated, the best shown).

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

#[path = "real_gen.rs"]
mod real_gen;

use std::ffi::OsString;
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use support::{Table, env_usize, kib, list_ms, mb, ms, pass, secs, vm_hwm_kib};

const TABLE: Table = Table { what: 44 };

/// The second run (nothing changed) against the first.
const SECOND_TARGET: f64 = 0.05;

/// Sessions the third run finds grown.
const GROWN: usize = 5;

/// One `ysess archive` run.
struct Run {
    time: Duration,
    /// Peak RSS (KiB), from `/proc/<pid>/status` `VmHWM` polled every 2 ms.
    kib: u64,
    /// Its summary line (stderr).
    summary: String,
}

/// Runs `bin args` with `env`, stdout on /dev/null: its time, peak memory
/// and last line on stderr; an error unless it exits 0.
fn run(bin: &Path, args: &[OsString], env: &[(&str, OsString)]) -> Result<Run, String> {
    let t = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    let status_path = format!("/proc/{}/status", child.id());
    let done = Arc::new(AtomicBool::new(false));
    let hwm = Arc::new(AtomicU64::new(0));
    let poller = {
        let (done, hwm) = (Arc::clone(&done), Arc::clone(&hwm));
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if let Some(k) = std::fs::read_to_string(&status_path)
                    .ok()
                    .and_then(|s| vm_hwm_kib(&s))
                {
                    hwm.fetch_max(k, Ordering::Relaxed);
                }
                std::thread::sleep(Duration::from_millis(2));
            }
        })
    };
    let mut stderr = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut stderr);
    }
    let status = child.wait().map_err(|e| format!("waiting for ysess: {e}"));
    let time = t.elapsed();
    done.store(true, Ordering::Relaxed);
    let _ = poller.join();
    let status = status?;
    if !status.success() {
        return Err(format!(
            "exit {:?}: {}",
            status.code(),
            stderr.trim().replace('\n', "; ")
        ));
    }
    Ok(Run {
        time,
        kib: hwm.load(Ordering::Relaxed),
        summary: stderr.lines().last().unwrap_or("").to_string(),
    })
}

/// Bytes of the files under `dir`, and how many there are.
fn size_of(dir: &Path) -> (u64, usize) {
    let (mut total, mut files) = (0, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                total += e.metadata().map_or(0, |m| m.len());
                files += 1;
            }
        }
    }
    (total, files)
}

/// The sessions' own files (not subagents'), sorted.
fn sessions_of(projects: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(projects)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|p| std::fs::read_dir(p.path()).into_iter().flatten().flatten())
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    out.sort();
    out
}

/// Cuts the files `grown` lists (`LENGTH PATH` lines) back to their
/// lengths, then removes the list.
fn cut_back(grown: &Path) -> std::io::Result<()> {
    let Ok(text) = std::fs::read_to_string(grown) else {
        return Ok(());
    };
    for line in text.lines() {
        let Some((len, path)) = line.split_once(' ') else {
            continue;
        };
        let len: u64 = len.parse().map_err(std::io::Error::other)?;
        std::fs::OpenOptions::new()
            .write(true)
            .open(path)?
            .set_len(len)?;
    }
    std::fs::remove_file(grown)
}

/// Appends to `GROWN` sessions, spread over the home, a copy of each one's
/// last line, after writing their lengths to `grown`: the bytes appended.
fn grow(sessions: &[PathBuf], grown: &Path) -> std::io::Result<u64> {
    let step = (sessions.len() / GROWN).max(1);
    let picked: Vec<&PathBuf> = sessions.iter().step_by(step).take(GROWN).collect();
    let mut list = String::new();
    for p in &picked {
        list.push_str(&format!(
            "{} {}\n",
            std::fs::metadata(p)?.len(),
            p.display()
        ));
    }
    std::fs::write(grown, list)?;
    let mut added = 0;
    for p in picked {
        let text = std::fs::read(p)?;
        let body = text.strip_suffix(b"\n").unwrap_or(&text);
        let start = body.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let mut line = body[start..].to_vec();
        line.push(b'\n');
        std::fs::OpenOptions::new()
            .append(true)
            .open(p)?
            .write_all(&line)?;
        added += line.len() as u64;
    }
    Ok(added)
}

fn main() -> ExitCode {
    match bench() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The three runs and their table; whether every run succeeded.
fn bench() -> Result<bool, String> {
    let sessions = env_usize("YSESS_BENCH_SESSIONS", 1350);
    let megabytes = env_usize("YSESS_BENCH_HOME_MB", 1024);
    let runs = env_usize("YSESS_BENCH_RUNS", 3).max(1);
    let home =
        real_gen::make_home(sessions, megabytes).map_err(|e| format!("making the home: {e}"))?;
    let archive = home.with_file_name(format!("real-{sessions}-{megabytes}-archive"));
    let grown = archive.with_extension("grown");
    cut_back(&grown).map_err(|e| format!("cutting back {}: {e}", grown.display()))?;
    match std::fs::remove_dir_all(&archive) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            return Err(format!("removing {}: {e}", archive.display()));
        }
        _ => {}
    }
    let claude = home.join(".claude");
    let (bytes, files) = size_of(&claude.join("projects"));
    let env = support::claude_home_env(&home, &claude);
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let args: Vec<OsString> = vec!["archive".into(), archive.clone().into()];
    println!(
        "home: {} ({sessions} sessions, {files} files, {}, real shapes)",
        claude.display(),
        mb(bytes)
    );
    println!("archive: {}", archive.display());

    let first = run(ysess, &args, &env).map_err(|e| format!("the first run: {e}"))?;
    let after_first = size_of(&archive).0;
    let mut second = Vec::new();
    for _ in 0..runs {
        second.push(run(ysess, &args, &env).map_err(|e| format!("the second run: {e}"))?);
    }
    let after_second = size_of(&archive).0;
    let added = grow(&sessions_of(&claude.join("projects")), &grown)
        .map_err(|e| format!("growing sessions: {e}"))?;
    let third = run(ysess, &args, &env);
    cut_back(&grown).map_err(|e| format!("cutting back {}: {e}", grown.display()))?;
    let third = third.map_err(|e| format!("the third run: {e}"))?;
    let after_third = size_of(&archive).0;

    let best = second.iter().min_by_key(|r| r.time).expect("runs >= 1");
    TABLE.header();
    TABLE.row("first run (fresh archive)", &ms(first.time), "", "");
    TABLE.row("  written", &mb(after_first), "", "");
    TABLE.row("  peak RSS", &mb(first.kib * 1024), "", "");
    TABLE.row("second run (nothing changed)", &ms(best.time), "", "");
    TABLE.row(
        "  written",
        &kib(after_second.saturating_sub(after_first)),
        "",
        "",
    );
    TABLE.row("  peak RSS", &mb(best.kib * 1024), "", "");
    TABLE.row(
        &format!("third run ({GROWN} sessions grew)"),
        &ms(third.time),
        "",
        "",
    );
    TABLE.row(
        &format!("  appended to the home ({GROWN} lines)"),
        &kib(added),
        "",
        "",
    );
    TABLE.row(
        "  written",
        &kib(after_third.saturating_sub(after_second)),
        "",
        "",
    );
    TABLE.row("  peak RSS", &mb(third.kib * 1024), "", "");
    let ratio = secs(best.time) / secs(first.time);
    TABLE.row(
        "second / first",
        &format!("{:.2}%", ratio * 100.0),
        &format!("< {:.0}%", SECOND_TARGET * 100.0),
        pass(ratio < SECOND_TARGET),
    );
    println!();
    println!("first run:  {}", first.summary);
    println!("second run: {}", best.summary);
    println!("third run:  {}", third.summary);
    println!(
        "second runs: {}",
        list_ms(&second.iter().map(|r| r.time).collect::<Vec<_>>())
    );
    let ok = first.summary.contains(", 0 new versions, 0 unchanged")
        && !first.summary.contains("failed")
        && best.summary.starts_with("archived: 0 new files, 0 grew")
        && third
            .summary
            .starts_with(&format!("archived: 0 new files, {GROWN} grew"));
    if !ok {
        eprintln!("error: a run did not archive what the bench expected (see the summaries)");
    }
    Ok(ok)
}
