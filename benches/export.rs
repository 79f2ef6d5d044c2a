//! `cargo bench --bench export`: `ysess export --html` of a large generated
//! session, and the page opened in headless Chromium.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the generated session.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//! - `YSESS_CHROMIUM` (default /usr/bin/chromium): the browser; without it
//!   the browser rows are left out.
//!
//! The session is the one the other benches use (`benches/support.rs`).
//! The export is timed writing the page to a file (`-o`), as a person runs
//! it; its size is compared with the session's. The browser rows come from
//! the page itself: it records when it was first painted (the Paint Timing
//! API), when its outline was drawn, when the messages were parsed and when
//! the chat was shown, in milliseconds since navigation, as attributes of
//! its root element, which `--dump-dom` prints. The wall time of the whole
//! browser run (start, load, dump, exit) is shown beside them.

#[path = "support.rs"]
#[allow(dead_code)]
mod support;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

use support::{
    BenchSession, Out, Table, bench_runs, bench_session, check_run, list_ms, mb, ms, pass,
    peak_rss, secs, time_child,
};

const TABLE: Table = Table { what: 44 };

/// Seconds for `export --html` of the bench session.
const EXPORT_TARGET: f64 = 3.0;
/// The page's size as a multiple of the session's.
const SIZE_TARGET: f64 = 2.0;

fn main() -> ExitCode {
    let runs = bench_runs();
    let Some(BenchSession {
        entries,
        file,
        bytes,
    }) = bench_session()
    else {
        return ExitCode::FAILURE;
    };
    println!("bench file: {} ({})", file.display(), mb(bytes));
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let page = file.with_extension("html");
    let args: Vec<OsString> = vec![
        "-f".into(),
        file.clone().into(),
        "export".into(),
        "--html".into(),
        "-o".into(),
        page.clone().into(),
    ];
    let timed =
        match check_run(ysess, &args).and_then(|_| time_child(ysess, &args, runs, Out::Null)) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
    let size = std::fs::metadata(&page).map(|m| m.len()).unwrap_or(0);
    let ratio = size as f64 / bytes.max(1) as f64;

    println!();
    println!("runs: export --html {}", list_ms(&timed.all));
    TABLE.header();
    TABLE.row(
        &format!("export --html, {entries} entries"),
        &ms(timed.best),
        &format!("< {EXPORT_TARGET:.0} s"),
        pass(secs(timed.best) < EXPORT_TARGET),
    );
    match peak_rss(ysess, &args, 1) {
        Ok(rss) => TABLE.rss_rows(
            &format!("export --html peak RSS ({})", rss.method),
            "export --html peak RSS / session size",
            rss.kib,
            bytes,
            None,
        ),
        Err(e) => eprintln!("warning: peak RSS: {e}"),
    }
    TABLE.row("page size", &mb(size), "", "");
    TABLE.row(
        "page size / session size",
        &format!("{ratio:.2}x"),
        &format!("< {SIZE_TARGET:.0}x"),
        pass(ratio < SIZE_TARGET),
    );

    let browser = std::env::var_os("YSESS_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if !browser.exists() {
        println!(
            "\n{} is missing: the page was not opened in a browser",
            browser.display()
        );
        return ExitCode::SUCCESS;
    }
    match open(&browser, &page) {
        Ok((wall, marks)) => {
            for (name, what) in [
                ("data-first-paint", "browser: first paint"),
                (
                    "data-first-contentful-paint",
                    "browser: first contentful paint",
                ),
                ("data-outline", "browser: outline drawn"),
                ("data-messages", "browser: messages parsed"),
                ("data-ready", "browser: chat of HEAD's path shown"),
            ] {
                let value = marks
                    .iter()
                    .find(|(n, _)| n == name)
                    .map_or_else(|| "not recorded".to_string(), |(_, v)| format!("{v} ms"));
                TABLE.row(what, &value, "", "");
            }
            TABLE.row("browser: start, load, dump, exit", &ms(wall), "", "");
        }
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

/// Opens the page once; the wall time and the page's own marks.
fn open(browser: &Path, page: &Path) -> Result<(std::time::Duration, Vec<(String, u64)>), String> {
    let profile = std::env::temp_dir().join(format!("ysess-bench-chromium-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&profile);
    let t = Instant::now();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--window-size=1280,900",
            // Real time, not virtual: the script runs its deferred work
            // within this budget, and the marks are wall-clock times.
            "--timeout=60000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .map_err(|e| format!("starting {}: {e}", browser.display()))?;
    let wall = t.elapsed();
    let _ = std::fs::remove_dir_all(&profile);
    let dom = String::from_utf8_lossy(&out.stdout);
    let root = dom
        .find("<html")
        .and_then(|at| dom[at..].find('>').map(|end| &dom[at..at + end]))
        .ok_or("the browser printed no document")?;
    let marks = root
        .split(' ')
        .filter_map(|attr| {
            let (name, value) = attr.split_once('=')?;
            let value = value.trim_matches('"').parse().ok()?;
            Some((name.to_string(), value))
        })
        .collect();
    Ok((wall, marks))
}
