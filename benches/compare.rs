//! `cargo bench --bench compare`: this build of ysess against another (an
//! older one, built from an earlier commit) on the commands the other
//! benches time, run in turn in one run, so that a change is seen to make no
//! command slower. Target (issue 42): no command more than 5% slower.
//!
//! Environment:
//! - `YSESS_OLD` (required): the other `ysess` binary, e.g. built with
//!   `git worktree add /tmp/old <commit> && cargo build --profile dist
//!   --manifest-path /tmp/old/Cargo.toml --target-dir /tmp/old-target`;
//! - `YSESS_BENCH_RUNS` (default 5): runs of each command per build, taken
//!   in turn (old, new, old, new, …); the best of each is compared.
//!
//! The files are the other benches' (made once under `target/bench/`): the
//! 200,000-entry session, and the real-shape home of the `home` bench.

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

#[path = "real_gen.rs"]
mod real_gen;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use support::{BenchSession, Table, bench_runs, bench_session, ms, pass, timed};

const TABLE: Table = Table { what: 44 };

/// New against old: at most this many times.
const SLOWER_TARGET: f64 = 1.05;

fn main() -> ExitCode {
    let Some(old) = std::env::var_os("YSESS_OLD").map(PathBuf::from) else {
        eprintln!("error: set YSESS_OLD to the ysess binary to compare this build with");
        return ExitCode::FAILURE;
    };
    let new = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let runs = bench_runs();
    let Some(BenchSession { file, .. }) = bench_session() else {
        return ExitCode::FAILURE;
    };
    let home = match real_gen::make_home(1350, 1024) {
        Ok(h) => h,
        Err(e) => {
            eprintln!("error: making the home: {e}");
            return ExitCode::FAILURE;
        }
    };
    let projects = home.join(".claude/projects");
    let env: Vec<(&str, OsString)> = vec![
        ("HOME", home.clone().into()),
        ("YSESS_PATH", "".into()),
        ("TZ", "UTC".into()),
    ];
    let on = |args: &[&str], path: &Path| -> Vec<OsString> {
        let mut v: Vec<OsString> = args.iter().map(OsString::from).collect();
        v.push(path.into());
        v
    };
    // A command on the session: `-f FILE` before it.
    let of = |args: &[&str]| -> Vec<OsString> {
        let mut v: Vec<OsString> = vec!["-f".into(), file.clone().into()];
        v.extend(args.iter().map(OsString::from));
        v
    };
    let cases: Vec<(String, Vec<OsString>)> = vec![
        ("fsck (session)".into(), on(&["fsck"], &file)),
        ("log --graph (session)".into(), of(&["log", "--graph"])),
        ("log (session)".into(), of(&["log"])),
        ("stats (session)".into(), of(&["stats"])),
        (
            "grep checkpoint (session)".into(),
            of(&["grep", "checkpoint"]),
        ),
        (
            "grep -l checkpoint (session)".into(),
            of(&["grep", "-l", "checkpoint"]),
        ),
        ("ls (home)".into(), on(&["ls"], &projects)),
        (
            "stats --all --by day (home)".into(),
            on(&["stats", "--all", "--by", "day"], &projects),
        ),
        (
            "grep --all tally (home)".into(),
            on(&["grep", "--all", "tally"], &projects),
        ),
        ("fsck (home)".into(), on(&["fsck"], &projects)),
    ];
    println!("new: {}\nold: {}\n", new.display(), old.display());
    TABLE.header();
    let mut failed = false;
    for (what, args) in &cases {
        let (mut best_old, mut best_new) = (Duration::MAX, Duration::MAX);
        let mut error = None;
        for _ in 0..runs {
            // Exit 0 and 1 are both results: grep's no match is 1.
            let once = |bin: &Path| timed(bin, args, &env, 1, &[0, 1]).map(|t| t[0]);
            match (once(&old), once(new)) {
                (Ok(o), Ok(n)) => {
                    best_old = best_old.min(o);
                    best_new = best_new.min(n);
                }
                (Err(e), _) | (_, Err(e)) => {
                    error = Some(e);
                    break;
                }
            }
        }
        if let Some(e) = error {
            failed = true;
            TABLE.row(what, "failed", "", &e);
            continue;
        }
        let ratio = best_new.as_secs_f64() / best_old.as_secs_f64();
        TABLE.row(&format!("{what}: old"), &ms(best_old), "", "");
        TABLE.row(&format!("{what}: new"), &ms(best_new), "", "");
        TABLE.row(
            "  new / old",
            &format!("{ratio:.2}x"),
            &format!("<= {SLOWER_TARGET:.2}x"),
            pass(ratio <= SLOWER_TARGET),
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
