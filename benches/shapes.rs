//! `cargo bench --bench shapes`: two session shapes that once made ysess
//! quadratic, each timed at its full size and at a quarter of it, so the
//! ratio of the two times shows how the cost grows (about 4x when linear,
//! 16x when quadratic).
//!
//! - A long last line: HEAD is a tool result of ~200 MB on one line, timed
//!   with `log -n 3`, which reads the file from its end.
//! - Many siblings: 200,000 entries that are all children of the root, timed
//!   with `branch` and `branch -v` (200,000 branches).
//!
//! Environment:
//! - `YSESS_BENCH_LINE_MB` (default 200): size of the long line, in MB.
//! - `YSESS_BENCH_SIBLINGS` (default 200000): children of the root.
//! - `YSESS_BENCH_CAP` (default 60): seconds a ysess run may take before it
//!   is stopped and reported as slower than that.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//!
//! The files are generated once into `target/bench/` (with a `.meta` marker
//! naming the shape and size) and checked to load with yoagent.

#[path = "support.rs"]
#[allow(dead_code)]
mod support;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use support::{Table, bench_runs, env_usize, mb, ms, pass, secs};

const TABLE: Table = Table { what: 44 };

/// Time at full size over time at a quarter of it: linear work gives about
/// 4x, quadratic 16x.
const GROWTH_TARGET: f64 = 8.0;

fn main() -> ExitCode {
    let line_mb = env_usize("YSESS_BENCH_LINE_MB", 200).max(4);
    let siblings = env_usize("YSESS_BENCH_SIBLINGS", 200_000).max(4);
    let cap = Duration::from_secs(env_usize("YSESS_BENCH_CAP", 60) as u64);
    let runs = bench_runs();
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let mut failed = false;
    let mut rows: Vec<Row> = Vec::new();

    // -- a long last line, log -n 3 -------------------------------------------
    for mb_size in [line_mb / 4, line_mb] {
        let file = match shape_file("long-line", mb_size, long_line_jsonl) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: preparing the long-line file: {e}");
                return ExitCode::FAILURE;
            }
        };
        let (load, ids) = yoagent_path(&file);
        let args = with_file(&file, &["log", "-n", "3", "--format", "{id}"]);
        let what = format!("log -n 3, last line {mb_size} MB");
        let best = best_of(ysess, &args, runs, cap, |out| {
            let got: Vec<&str> = out.lines().collect();
            let want: Vec<&str> = ids.iter().rev().take(3).map(String::as_str).collect();
            (got == want)
                .then_some(())
                .ok_or(format!("printed {got:?}, yoagent's path ends {want:?}"))
        });
        failed |= best.is_err();
        rows.push(Row {
            what,
            took: best,
            yoagent: Some(load),
        });
    }
    // -- many siblings, branch and branch -v -----------------------------------
    for n in [siblings / 4, siblings] {
        let file = match shape_file("siblings", n, siblings_jsonl) {
            Ok(f) => f,
            Err(e) => {
                eprintln!("error: preparing the siblings file: {e}");
                return ExitCode::FAILURE;
            }
        };
        let tips = yoagent_tips(&file);
        for verbose in [false, true] {
            let mut a = vec!["branch"];
            if verbose {
                a.push("-v");
            }
            let args = with_file(&file, &a);
            let best = best_of(ysess, &args, runs, cap, |out| {
                let got = out.lines().count();
                (got == tips)
                    .then_some(())
                    .ok_or(format!("listed {got} branches, yoagent has {tips} tips"))
            });
            failed |= best.is_err();
            let flag = if verbose { " -v" } else { "" };
            rows.push(Row {
                what: format!("branch{flag}, {n} children of one entry"),
                took: best,
                yoagent: None,
            });
        }
    }

    // -- table ---------------------------------------------------------------
    println!();
    TABLE.header();
    for row in &rows {
        let value = match &row.took {
            Ok(Took::Done(d)) => ms(*d),
            Ok(Took::Capped) => format!("> {} s", cap.as_secs()),
            Err(_) => "failed".to_string(),
        };
        TABLE.row(&row.what, &value, "", "");
        if let Some(load) = row.yoagent {
            TABLE.row("  yoagent read + from_jsonl + path", &ms(load), "", "");
        }
    }
    // Growth from the quarter size to the full one, per command.
    let pairs = [(0, 1, "log -n 3"), (2, 4, "branch"), (3, 5, "branch -v")];
    for (small, big, what) in pairs {
        let label = format!("growth of {what}: full / quarter size");
        match (&rows[small].took, &rows[big].took) {
            (Ok(Took::Done(s)), Ok(Took::Done(b))) => {
                let r = secs(*b) / secs(*s).max(1e-9);
                TABLE.row(
                    &label,
                    &format!("{r:.1}x"),
                    &format!("< {GROWTH_TARGET:.0}x"),
                    pass(r < GROWTH_TARGET),
                );
            }
            (Ok(Took::Done(_)), Ok(Took::Capped)) => {
                TABLE.row(&label, "capped", &format!("< {GROWTH_TARGET:.0}x"), "MISS")
            }
            _ => TABLE.row(&label, "n/a", "", ""),
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

struct Row {
    what: String,
    took: Result<Took, String>,
    yoagent: Option<Duration>,
}

enum Took {
    /// The best of the runs.
    Done(Duration),
    /// Stopped at the cap.
    Capped,
}

fn with_file(file: &Path, args: &[&str]) -> Vec<OsString> {
    let mut v: Vec<OsString> = vec!["-f".into(), file.as_os_str().to_owned()];
    v.extend(args.iter().map(OsString::from));
    v
}

/// Best of `runs` runs of `bin args`, each stopped at `cap`: the first run's
/// output is checked by `check`. A run stopped at the cap ends the
/// measurement.
fn best_of(
    bin: &Path,
    args: &[OsString],
    runs: usize,
    cap: Duration,
    check: impl Fn(&str) -> Result<(), String>,
) -> Result<Took, String> {
    let shown = args
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut best = Duration::MAX;
    for run in 0..runs {
        match run_capped(bin, args, cap) {
            Ok(Some((took, out))) => {
                if run == 0
                    && let Err(e) = check(&out)
                {
                    eprintln!("error: ysess {shown}: {e}");
                    return Err(e);
                }
                println!("ysess {shown}: {}", ms(took));
                best = best.min(took);
            }
            Ok(None) => {
                println!("ysess {shown}: stopped after {} s", cap.as_secs());
                return Ok(Took::Capped);
            }
            Err(e) => {
                eprintln!("error: ysess {shown}: {e}");
                return Err(e);
            }
        }
    }
    Ok(Took::Done(best))
}

/// Run `bin args` with stdout drained by a thread; its time and output, or
/// `None` when it was still running after `cap` and was stopped.
fn run_capped(
    bin: &Path,
    args: &[OsString],
    cap: Duration,
) -> Result<Option<(Duration, String)>, String> {
    let t = Instant::now();
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    let mut pipe = child.stdout.take().ok_or("no stdout pipe")?;
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        pipe.read_to_end(&mut out).map(|_| out)
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if t.elapsed() > cap => {
                // This child only, by its handle.
                let _ = child.kill();
                let _ = child.wait();
                let _ = reader.join();
                return Ok(None);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => return Err(format!("waiting: {e}")),
        }
    };
    let out = reader
        .join()
        .map_err(|_| "the reader thread panicked".to_string())?
        .map_err(|e| format!("reading stdout: {e}"))?;
    let took = t.elapsed();
    if !status.success() {
        return Err(format!("exit {:?}", status.code()));
    }
    let out = String::from_utf8(out).map_err(|e| format!("stdout is not UTF-8: {e}"))?;
    Ok(Some((took, out)))
}

/// yoagent's read + `from_jsonl` + `path_messages` time, and its path ids.
fn yoagent_path(file: &Path) -> (Duration, Vec<String>) {
    let t = Instant::now();
    let text = std::fs::read_to_string(file).expect("read the shape file");
    let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads the shape file");
    let messages = session.path_messages();
    let took = t.elapsed();
    assert!(!messages.is_empty());
    (took, session.path_ids())
}

/// yoagent's number of branch tips.
fn yoagent_tips(file: &Path) -> usize {
    let text = std::fs::read_to_string(file).expect("read the shape file");
    let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads the shape file");
    session.branch_tips().len()
}

/// `target/bench/<shape>-<size>.jsonl`, made by `make(size)` once and
/// reused while its `.meta` marker matches.
fn shape_file(shape: &str, size: usize, make: fn(usize) -> String) -> std::io::Result<PathBuf> {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("bench");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("{shape}-{size}.jsonl"));
    let meta = dir.join(format!("{shape}-{size}.jsonl.meta"));
    let want = format!("shape={shape} v=1 size={size}");
    if let (Ok(m), Ok(md)) = (std::fs::read_to_string(&meta), std::fs::metadata(&file))
        && m.trim() == format!("{want} bytes={}", md.len())
    {
        println!("reusing {} ({want}, {})", file.display(), mb(md.len()));
        return Ok(file);
    }
    println!("generating {} ({want}) ...", file.display());
    let text = make(size);
    yoagent::Session::from_jsonl(&text).map_err(std::io::Error::other)?;
    let tmp = dir.join(format!("{shape}-{size}.jsonl.tmp"));
    std::fs::write(&tmp, &text)?;
    std::fs::rename(&tmp, &file)?;
    std::fs::write(&meta, format!("{want} bytes={}\n", text.len()))?;
    Ok(file)
}

fn user(id: &str, parent: Option<&str>, text: &str, at: u64) -> String {
    serde_json::json!({
        "id": id,
        "parent_id": parent,
        "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": at},
        "timestamp": at,
    })
    .to_string()
}

/// Two turns, then HEAD: a tool result whose text is `mb` MB of JSON-escaped
/// file contents (quotes, newlines, non-ASCII), all on the last line.
fn long_line_jsonl(mb: usize) -> String {
    const PARA: &str = "fn main() {\n    println!(\"héllo, wörld\");\t// ✓\n}\n";
    let text = PARA.repeat(mb * 1_000_000 / PARA.len());
    let result = serde_json::json!({
        "id": "e3",
        "parent_id": "e2",
        "message": {"role": "toolResult", "toolCallId": "call_1", "toolName": "read_file",
            "content": [{"type": "text", "text": text}], "isError": false, "timestamp": 3000},
        "timestamp": 3000,
    });
    [
        user("e1", None, "read main.rs", 1000),
        user("e2", Some("e1"), "all of it, please", 2000),
        result.to_string(),
    ]
    .join("\n")
}

/// A root with `n` children, every one a user retry of the same question.
fn siblings_jsonl(n: usize) -> String {
    let mut lines = Vec::with_capacity(n + 1);
    lines.push(user("e1", None, "which crate should parse JSON?", 1000));
    for i in 2..=n + 1 {
        lines.push(user(
            &format!("e{i}"),
            Some("e1"),
            &format!("retry {i}"),
            1000 + i as u64,
        ));
    }
    lines.join("\n")
}
