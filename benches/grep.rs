//! `cargo bench --bench grep`: `ysess grep` against ripgrep (`rg`) on the
//! same generated session, in one run, for several kinds of pattern: a
//! literal, a case-insensitive one, a regular expression, a rare one and a
//! common one.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the generated session.
//! - `YSESS_BENCH_RUNS` (default 5): runs per measurement; the best is shown.
//! - `YSESS_RG` (default `rg` on the `PATH`): the ripgrep binary. When it is
//!   missing, the bench says so and times ysess alone.
//!
//! Both programs write into a pipe that this process drains (ripgrep stops
//! at its first match when its output is /dev/null, which would not be a
//! comparison). ripgrep prints each matching line of the file (a whole JSON
//! line); ysess prints each matching line of message text, after reading
//! the lines the raw bytes pick (their blocks, where they stand). Peak RSS of ysess comes from
//! `benches/support.rs`.

#[path = "support.rs"]
#[allow(dead_code, reason = "the helpers other benches use")]
mod support;

use std::ffi::OsString;
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};

use support::{Out, Table, bench_file, env_usize, mb, ms, pass, peak_rss, profile, time_child};

const TABLE: Table = Table { what: 52 };

/// ysess's time over ripgrep's, at most.
const RATIO_TARGET: f64 = 1.2;
/// `grep -l` (every matching entry) over `rg -c` (every matching line),
/// at most.
const LIST_TARGET: f64 = 1.5;

/// A pattern, with the options both programs take for it.
struct Case {
    what: &'static str,
    /// Options for `ysess grep`.
    options: &'static [&'static str],
    /// Options for `rg`, when not the same: `ysess grep -l` lists the
    /// matching entries of the file, which takes reading all of it, as
    /// `rg -c` does (`rg -l` stops at the first match: its peer is `-l`
    /// across sessions, where ysess names files too).
    rg_options: Option<&'static [&'static str]>,
    pattern: &'static str,
}

const CASES: &[Case] = &[
    Case {
        what: "literal `checkpoint`",
        options: &[],
        rg_options: None,
        pattern: "checkpoint",
    },
    Case {
        what: "entries `-l checkpoint` (rg -c)",
        options: &["-l"],
        rg_options: Some(&["-c"]),
        pattern: "checkpoint",
    },
    Case {
        what: "case-insensitive `-i SERDE`",
        options: &["-i"],
        rg_options: None,
        pattern: "SERDE",
    },
    Case {
        what: r"regex `fn \w+\(`",
        options: &[],
        rg_options: None,
        pattern: r"fn \w+\(",
    },
    Case {
        what: "rare `-F 'memory remove we should'`",
        options: &["-F"],
        rg_options: None,
        pattern: "memory remove we should",
    },
    Case {
        what: "common `the`",
        options: &[],
        rg_options: None,
        pattern: "the",
    },
];

fn main() -> ExitCode {
    let entries = env_usize("YSESS_BENCH_ENTRIES", 200_000);
    let runs = env_usize("YSESS_BENCH_RUNS", 5).max(1);
    let file = match bench_file(entries) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: preparing the bench file: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!("bench file: {} ({})", file.display(), mb(bytes));
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let rg_path = std::env::var_os("YSESS_RG").unwrap_or_else(|| "rg".into());
    let rg = Path::new(&rg_path);
    let have_rg = Command::new(rg)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !have_rg {
        println!(
            "NOTE: ripgrep not found at {} (set YSESS_RG): timing ysess alone, no ratios",
            rg.display()
        );
    }
    println!("runs: {runs} (best shown); both write into a drained pipe\n");
    TABLE.header();
    let mut failed = false;
    let mut profiles = Vec::new();
    for case in CASES {
        let mut ysess_args: Vec<OsString> = vec!["-f".into(), file.clone().into(), "grep".into()];
        ysess_args.extend(case.options.iter().map(OsString::from));
        ysess_args.push(case.pattern.into());
        // A pattern that matches nothing exits 1, which the timing refuses.
        let matches = match count_lines(ysess, &ysess_args) {
            Ok(n) => n,
            Err(e) => {
                eprintln!("error: {}: {e}", case.what);
                failed = true;
                continue;
            }
        };
        let ours = match time_child(ysess, &ysess_args, runs, Out::Drained) {
            Ok(t) => t.best,
            Err(e) => {
                eprintln!("error: {e}");
                failed = true;
                continue;
            }
        };
        profiles.push(format!("{}: {}", case.what, profile(ysess, &ysess_args)));
        TABLE.row(
            &format!("{}: ysess ({matches} lines)", case.what),
            &ms(ours),
            "",
            "",
        );
        if !have_rg {
            continue;
        }
        let mut rg_args: Vec<OsString> = case
            .rg_options
            .unwrap_or(case.options)
            .iter()
            .map(OsString::from)
            .collect();
        rg_args.push(case.pattern.into());
        rg_args.push(file.clone().into());
        let rg_lines = count_lines(rg, &rg_args).unwrap_or(0);
        let theirs = match time_child(rg, &rg_args, runs, Out::Drained) {
            Ok(t) => t.best,
            Err(e) => {
                eprintln!("error: rg: {e}");
                failed = true;
                continue;
            }
        };
        TABLE.row(
            &format!("{}: rg ({rg_lines} lines)", case.what),
            &ms(theirs),
            "",
            "",
        );
        let ratio = ours.as_secs_f64() / theirs.as_secs_f64();
        let target = if case.rg_options.is_some() {
            LIST_TARGET
        } else {
            RATIO_TARGET
        };
        TABLE.row(
            &format!("{}: ysess / rg", case.what),
            &format!("{ratio:.2}x"),
            &format!("<= {target:.1}x"),
            pass(ratio <= target),
        );
    }
    println!();
    for p in &profiles {
        println!("{p}");
    }
    // Memory: the common pattern decodes the most.
    let mut args: Vec<OsString> = vec!["-f".into(), file.clone().into(), "grep".into()];
    args.push(CASES[CASES.len() - 1].pattern.into());
    match peak_rss(ysess, &args, 1) {
        Ok(rss) => {
            TABLE.rss_rows(
                "ysess grep peak RSS (common pattern)",
                "  as a share of the file",
                rss.kib,
                bytes,
                Some(0.2),
            );
            println!("\npeak RSS: {} ({})", rss.method, rss.detail);
        }
        Err(e) => {
            eprintln!("error: peak RSS: {e}");
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs `bin args` once and counts the lines it prints (exit 0 needed).
fn count_lines(bin: &Path, args: &[OsString]) -> Result<usize, String> {
    let out = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!("exit {:?}", out.status.code()));
    }
    Ok(out.stdout.iter().filter(|&&b| b == b'\n').count())
}
