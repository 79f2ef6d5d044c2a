//! `cargo bench --bench claude`: `ysess stats`, `log --graph` and `branch`
//! on a ~150 MB Claude Code file, beside `ysess fsck` on it, in one run
//! (target: `stats` within 3x of `fsck`), and beside ccusage's session
//! report where `npm install --prefix tests/ccusage` installed it.
//!
//! The file (`target/bench/claude-150mb.jsonl`, made once) repeats the
//! shapes of `tests/fixtures/claude/today.jsonl` with fresh ids: per turn,
//! housekeeping lines, an attachment written before its parent, a reply
//! calling two tools at once, progress and timing lines, long answers; one
//! turn in a thousand has an edited prompt (a real fork).
//!
//! Environment: `YSESS_BENCH_CLAUDE_MB` (default 150) and
//! `YSESS_BENCH_RUNS` (default 3; the best run is shown).

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use support::{Out, Table, bench_runs, check_run, env_usize, list_ms, mb, ms, secs, time_child};

#[path = "claude_gen.rs"]
mod claude_gen;

const TABLE: Table = Table { what: 40 };

fn bench_file(mb_wanted: usize) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("claude-{mb_wanted}mb.jsonl"));
    let wanted = (mb_wanted as u64) << 20;
    if std::fs::metadata(&file).is_ok_and(|m| m.len() >= wanted) {
        println!("reusing {}", file.display());
        return Ok(file);
    }
    println!("generating {} ...", file.display());
    let t = Instant::now();
    claude_gen::generate(&file, wanted, 0, None)?;
    println!("generated in {}", ms(t.elapsed()));
    Ok(file)
}

fn main() -> ExitCode {
    let runs = bench_runs();
    let file = match bench_file(env_usize("YSESS_BENCH_CLAUDE_MB", 150)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: preparing the bench file: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bytes = std::fs::metadata(&file).map_or(0, |m| m.len());
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let f: OsString = file.clone().into();
    let args = |cmd: &[&str]| -> Vec<OsString> {
        let mut a: Vec<OsString> = vec!["-f".into(), f.clone()];
        a.extend(cmd.iter().map(OsString::from));
        a
    };
    if let Err(e) = check_run(ysess, &args(&["stats", "--json"])) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let mut timed = Vec::new();
    for cmd in [&["fsck"][..], &["stats"], &["log", "--graph"], &["branch"]] {
        match time_child(ysess, &args(cmd), runs, Out::Null) {
            Ok(t) => timed.push((cmd.join(" "), t)),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    // ccusage's session report on the same file, where it is installed.
    let ccusage =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ccusage/node_modules/.bin/ccusage");
    let ccusage_time = ccusage.is_file().then(|| {
        let home = std::env::temp_dir().join(format!("ysess-bench-claude-{}", std::process::id()));
        let projects = home.join("projects/bench");
        std::fs::create_dir_all(&projects).ok()?;
        let linked = projects.join("bench.jsonl");
        std::fs::hard_link(&file, &linked)
            .or_else(|_| std::fs::copy(&file, &linked).map(|_| ()))
            .ok()?;
        let t = Instant::now();
        let ok = std::process::Command::new(&ccusage)
            .args(["session", "--json", "--offline"])
            .env("CLAUDE_CONFIG_DIR", &home)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        let took = t.elapsed();
        let _ = std::fs::remove_dir_all(&home);
        ok.then_some(took)
    });

    println!("bench file: {} ({})", file.display(), mb(bytes));
    TABLE.header();
    for (what, t) in &timed {
        TABLE.row(&format!("ysess {what}"), &ms(t.best), "", "");
    }
    let fsck = secs(timed[0].1.best);
    let stats = secs(timed[1].1.best);
    TABLE.row(
        "stats / fsck",
        &format!("{:.2}x", stats / fsck),
        "<= 3x",
        support::pass(stats <= 3.0 * fsck),
    );
    TABLE.row(
        "log --graph / fsck",
        &format!("{:.2}x", secs(timed[2].1.best) / fsck),
        "",
        "",
    );
    match ccusage_time.flatten() {
        Some(t) => {
            TABLE.row("ccusage session --offline", &ms(t), "", "");
            TABLE.row(
                "ccusage / ysess stats",
                &format!("{:.1}x", secs(t) / stats),
                "",
                "",
            );
        }
        None => TABLE.row("ccusage session", "n/a", "", "(not installed)"),
    }
    println!();
    for (what, t) in &timed {
        println!("ysess {what} runs: {}", list_ms(&t.all));
    }
    ExitCode::SUCCESS
}
