//! `cargo bench --bench home`: every session of a home at once. `ysess ls`,
//! `ysess grep --all` (and `-c`) and `ysess stats --all --by day` on a home
//! of Claude Code sessions, beside `rg` over the same folder and ccusage's
//! `daily` report (where `npm install --prefix tests/ccusage` installed it),
//! in one run, with ysess's peak memory. Targets (issue 42): `ls` and
//! `stats --all --by day` each in at most 0.35 of ccusage's `daily`, `ls`
//! in at most 0.5 s on the real-shape home, `grep --all` within 1.5x of
//! `rg` over the same folder.
//!
//! Two homes, both made once under `target/bench/` with a `.meta` marker:
//! - `real` (the default): 1,350 sessions, 1 GB, of the lines Claude Code
//!   itself wrote, with long tool results, thousands of progress lines and
//!   subagent folders (`benches/real_gen.rs`);
//! - `generated` (`YSESS_BENCH_HOME=generated`): 2,000 sessions, 1.5 GB,
//!   the shapes of `tests/fixtures/claude/today.jsonl` again and again
//!   (`benches/home_gen.rs`).
//!
//! Environment: `YSESS_BENCH_HOME` (`real` or `generated`),
//! `YSESS_BENCH_SESSIONS`, `YSESS_BENCH_HOME_MB` (the whole home),
//! `YSESS_BENCH_RUNS` (default 1; the best run is shown), `YSESS_RG` (the
//! ripgrep binary, default `rg` on the `PATH`).

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

#[path = "claude_gen.rs"]
mod claude_gen;

#[path = "home_gen.rs"]
mod home_gen;

#[path = "real_gen.rs"]
mod real_gen;

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use support::{Table, env_usize, list_ms, mb, ms, pass, peak_rss, profile, secs, timed};

const TABLE: Table = Table { what: 44 };

/// `ls` and `stats --all --by day`, each against ccusage's `daily`.
const CCUSAGE_TARGET: f64 = 0.35;
/// `ls` of the whole home.
const LS_TARGET: Duration = Duration::from_millis(500);
/// `grep --all` against `rg` over the same folder.
const RG_TARGET: f64 = 1.5;

/// The pattern searched: a word of the sessions' text (in every one): the
/// generated home's, and the real-shape home's.
const PATTERNS: [&str; 2] = ["collect", "tally"];

/// Bytes of the session files under `dir`.
fn size_of(dir: &Path) -> u64 {
    let mut total = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "jsonl") {
                total += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    total
}

fn main() -> ExitCode {
    let real = std::env::var("YSESS_BENCH_HOME").map_or(true, |h| h != "generated");
    let (sessions, megabytes) = if real { (1350, 1024) } else { (2000, 1536) };
    let sessions = env_usize("YSESS_BENCH_SESSIONS", sessions);
    let megabytes = env_usize("YSESS_BENCH_HOME_MB", megabytes);
    let runs = env_usize("YSESS_BENCH_RUNS", 1).max(1);
    let made = if real {
        real_gen::make_home(sessions, megabytes)
    } else {
        home_gen::make_home(sessions, megabytes)
    };
    let pattern = PATTERNS[usize::from(real)];
    let home = match made {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: making the home: {e}");
            return ExitCode::FAILURE;
        }
    };
    let claude = home.join(".claude");
    let bytes = size_of(&claude);
    let env = support::claude_home_env(&home, &claude);
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let args = |a: &[&str]| -> Vec<OsString> { a.iter().map(OsString::from).collect() };
    // The folder is named, so that the runs without this environment
    // (peak memory, profile) read the same sessions.
    let projects: OsString = claude.join("projects").into();
    let with_folder = |a: &[&str]| {
        let mut v = args(a);
        v.push(projects.clone());
        v
    };
    let ls = with_folder(&["ls"]);
    let grep = with_folder(&["grep", "--all", pattern]);
    let grep_c = with_folder(&["grep", "--all", "-c", pattern]);
    let stats = with_folder(&["stats", "--all", "--by", "day"]);
    let mut rows: Vec<(String, Result<Vec<Duration>, String>)> = vec![
        ("ysess ls".into(), timed(ysess, &ls, &env, runs, &[0])),
        (
            format!("ysess grep --all {pattern}"),
            timed(ysess, &grep, &env, runs, &[0]),
        ),
        (
            format!("ysess grep --all -c {pattern}"),
            timed(ysess, &grep_c, &env, runs, &[0]),
        ),
        (
            "ysess stats --all --by day".into(),
            timed(ysess, &stats, &env, runs, &[0]),
        ),
    ];
    let rg = std::env::var_os("YSESS_RG").unwrap_or_else(|| "rg".into());
    let rg_args: Vec<OsString> = vec![pattern.into(), projects.clone()];
    let rg_c_args: Vec<OsString> = vec!["-c".into(), pattern.into(), projects.clone()];
    rows.push((
        format!("rg {pattern} (same folder)"),
        timed(Path::new(&rg), &rg_args, &env, runs, &[0]),
    ));
    rows.push((
        format!("rg -c {pattern} (same folder)"),
        timed(Path::new(&rg), &rg_c_args, &env, runs, &[0]),
    ));
    let ccusage =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ccusage/node_modules/.bin/ccusage");
    if ccusage.is_file() {
        rows.push((
            "ccusage daily --offline".into(),
            timed(
                &ccusage,
                &args(&["daily", "--json", "--offline"]),
                &env,
                runs,
                &[0],
            ),
        ));
    }
    println!(
        "home: {} ({sessions} sessions, {}, {})",
        claude.display(),
        mb(bytes),
        if real { "real shapes" } else { "generated" }
    );
    TABLE.header();
    let best = |what: &str| {
        rows.iter()
            .find(|r| r.0.starts_with(what))
            .and_then(|r| r.1.as_ref().ok())
            .and_then(|t| t.iter().min().copied())
    };
    let mut failed = false;
    for (what, t) in &rows {
        match t {
            Ok(t) => TABLE.row(what, &ms(*t.iter().min().expect("runs >= 1")), "", ""),
            Err(e) => {
                failed = true;
                TABLE.row(what, "failed", "", &format!("({e})"));
            }
        }
    }
    if let Some(l) = best("ysess ls") {
        TABLE.row(
            "ysess ls",
            &ms(l),
            &format!("<= {}", ms(LS_TARGET)),
            pass(l <= LS_TARGET),
        );
    }
    for (ours, theirs, what) in [
        (
            format!("ysess grep --all {pattern}"),
            format!("rg {pattern}"),
            "grep --all / rg",
        ),
        (
            "ysess grep --all -c".to_string(),
            "rg -c".to_string(),
            "grep --all -c / rg -c",
        ),
    ] {
        if let (Some(g), Some(r)) = (best(&ours), best(&theirs)) {
            let ratio = secs(g) / secs(r);
            TABLE.row(
                what,
                &format!("{ratio:.2}x"),
                &format!("<= {RG_TARGET:.1}x"),
                pass(ratio <= RG_TARGET),
            );
        }
    }
    if let (Some(l), Some(s), Some(c)) = (best("ysess ls"), best("ysess stats"), best("ccusage")) {
        let c = secs(c);
        for (what, t) in [("ls", secs(l)), ("stats --all --by day", secs(s))] {
            TABLE.row(
                &format!("{what} / ccusage daily"),
                &format!("{:.2}x", t / c),
                &format!("<= {CCUSAGE_TARGET:.2}x"),
                pass(t / c <= CCUSAGE_TARGET),
            );
        }
    } else {
        TABLE.row("ccusage daily", "n/a", "", "(not installed)");
    }
    for (what, a) in [("ls", &ls), ("grep --all", &grep), ("stats --all", &stats)] {
        match peak_rss(ysess, a, 1) {
            Ok(r) => TABLE.rss_rows(
                &format!("ysess {what} peak RSS"),
                "  as a share of the home",
                r.kib,
                bytes,
                None,
            ),
            Err(e) => TABLE.row(&format!("ysess {what} peak RSS"), "failed", "", &e),
        }
    }
    println!();
    for (what, t) in &rows {
        if let Ok(t) = t {
            println!("{what} runs: {}", list_ms(t));
        }
    }
    for (what, a) in [("ls", &ls), ("grep --all", &grep), ("stats --all", &stats)] {
        println!("ysess {what} {}", profile(ysess, a));
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
