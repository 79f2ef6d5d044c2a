//! `cargo bench --bench parquet`: `ysess export --parquet` beside `ysess
//! fsck` on the same input, in one run: the 200,000-entry session, and the
//! generated home of 2,000 Claude Code sessions (about 1.5 GB, as the
//! `home` bench makes it), with the export's peak memory and the time of an
//! incremental export over the home when nothing grew.
//! Target (issue 27): the export within 3x of fsck on the same input, in
//! bounded memory.
//!
//! Environment: `YSESS_BENCH_ENTRIES` (default 200,000),
//! `YSESS_BENCH_SESSIONS` (default 2000), `YSESS_BENCH_HOME_MB` (default
//! 1536), `YSESS_BENCH_RUNS` (default 3 for the session, 1 for the home;
//! the best run is shown; fsck and export alternate).

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

#[path = "claude_gen.rs"]
mod claude_gen;

#[path = "home_gen.rs"]
mod home_gen;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use support::{Table, bench_session, env_usize, list_ms, mb, ms, pass, peak_rss, secs};

const TABLE: Table = Table { what: 44 };

/// One timed run of `ysess args` (stdout and stderr dropped); its exit
/// status must be 0 (fsck of the home may say 1 for its warnings: `ok`).
fn run(args: &[OsString], ok: &[i32]) -> Result<Duration, String> {
    let t = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("ysess: {e}"))?;
    let took = t.elapsed();
    match status.code() {
        Some(c) if ok.contains(&c) => Ok(took),
        c => Err(format!("ysess {args:?}: exit {c:?}")),
    }
}

fn os(a: &[&str]) -> Vec<OsString> {
    a.iter().map(OsString::from).collect()
}

/// fsck and a fresh export of `input`, alternating, `runs` times each: the
/// times of each.
fn side_by_side(
    input: &Path,
    fsck: &[OsString],
    out: &Path,
    runs: usize,
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    let (mut f, mut e) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        f.push(run(fsck, &[0, 1])?);
        let _ = std::fs::remove_dir_all(out);
        let mut args = os(&["export", "--parquet"]);
        args.push(out.into());
        args.push(input.into());
        e.push(run(&args, &[0])?);
    }
    Ok((f, e))
}

fn report(what: &str, input: &Path, bytes: u64, fsck: &[OsString], runs: usize) -> bool {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/bench/parquet-{what}"));
    let (f, e) = match side_by_side(input, fsck, &out, runs) {
        Ok(t) => t,
        Err(err) => {
            TABLE.row(&format!("{what}: export"), "failed", "", &err);
            return false;
        }
    };
    let (bf, be) = (
        *f.iter().min().expect("runs"),
        *e.iter().min().expect("runs"),
    );
    TABLE.row(&format!("{what}: fsck"), &ms(bf), "", "");
    TABLE.row(&format!("{what}: export --parquet"), &ms(be), "", "");
    let ratio = secs(be) / secs(bf);
    TABLE.row(
        &format!("{what}: export / fsck"),
        &format!("{ratio:.2}x"),
        "<= 3x",
        pass(ratio <= 3.0),
    );
    let written = files_under(&out);
    TABLE.row(
        &format!("{what}: tables written"),
        &mb(written.1),
        "",
        &format!("{} files", written.0),
    );
    let rss_out = out.with_extension("rss");
    let _ = std::fs::remove_dir_all(&rss_out);
    let mut args = os(&["export", "--parquet"]);
    args.push(rss_out.clone().into());
    args.push(input.into());
    match peak_rss(Path::new(env!("CARGO_BIN_EXE_ysess")), &args, 1) {
        Ok(r) => TABLE.rss_rows(
            &format!("{what}: export peak RSS"),
            "  as a share of the input",
            r.kib,
            bytes,
            None,
        ),
        Err(err) => TABLE.row(&format!("{what}: export peak RSS"), "n/a", "", &err),
    }
    let _ = std::fs::remove_dir_all(&rss_out);
    println!(
        "  {what}: fsck runs {}; export runs {}",
        list_ms(&f),
        list_ms(&e)
    );
    true
}

/// Files and bytes under `dir`.
fn files_under(dir: &Path) -> (usize, u64) {
    let (mut n, mut bytes) = (0, 0);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                n += 1;
                bytes += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    (n, bytes)
}

fn main() -> ExitCode {
    let Some(session) = bench_session() else {
        return ExitCode::FAILURE;
    };
    let sessions = env_usize("YSESS_BENCH_SESSIONS", 2000);
    let megabytes = env_usize("YSESS_BENCH_HOME_MB", 1536);
    let home = match home_gen::make_home(sessions, megabytes) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: making the home: {e}");
            return ExitCode::FAILURE;
        }
    };
    let projects: PathBuf = home.join(".claude/projects");
    let home_bytes = files_under(&projects).1;
    TABLE.header();
    let mut ok = true;
    let mut fsck = os(&["fsck", "-f"]);
    fsck.push(session.file.clone().into());
    ok &= report(
        &format!("session ({} entries)", session.entries),
        &session.file,
        session.bytes,
        &fsck,
        env_usize("YSESS_BENCH_RUNS", 3).max(1),
    );
    let mut fsck = os(&["fsck"]);
    fsck.push(projects.clone().into());
    ok &= report(
        &format!("home ({sessions} sessions)"),
        &projects,
        home_bytes,
        &fsck,
        env_usize("YSESS_BENCH_RUNS", 1).max(1),
    );
    // The nightly run when nothing grew: every file read and checked
    // against the manifest, nothing written.
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench/parquet-nightly");
    let manifest = out.with_extension("manifest");
    let _ = std::fs::remove_dir_all(&out);
    let mut first = os(&["export", "--parquet"]);
    first.extend([
        out.clone().into(),
        projects.clone().into(),
        "--manifest".into(),
    ]);
    first.push(manifest.clone().into());
    let mut again = os(&["export", "--parquet"]);
    again.extend([
        out.clone().into(),
        projects.clone().into(),
        "--since-manifest".into(),
    ]);
    again.push(manifest.clone().into());
    match run(&first, &[0]).and_then(|_| run(&again, &[0])) {
        Ok(t) => TABLE.row(
            "home: export --since-manifest, nothing grew",
            &ms(t),
            "",
            "",
        ),
        Err(e) => {
            ok = false;
            TABLE.row("home: export --since-manifest", "failed", "", &e);
        }
    }
    println!("home: {} ({})", projects.display(), mb(home_bytes));
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
