//! `cargo bench --bench log`: `ysess log` / `ysess show` against what an app
//! does with yoagent to resume HEAD's branch (`read_to_string` +
//! `Session::from_jsonl` + `path_messages`), on a large generated session.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the generated session.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//!
//! The session is the one `benches/fsck.rs` uses: generated once into
//! `target/bench/session-<entries>.jsonl` (with a `.meta` marker naming the
//! generator version, seed and size) and reused while the marker matches.
//!
//! Every ysess command is first run once with its output captured (exit 0 is
//! checked, and the output is looked at), then timed `runs` times with stdout
//! and stderr on /dev/null (`Stdio::null()`); one extra row times
//! `log --graph` into a pipe that this process drains.
//!
//! Peak RSS of the ysess child: the crate forbids `unsafe`, so `wait4` is out
//! of reach. It is taken from `/usr/bin/time -f %M` (GNU time reaps the child
//! with `wait4`, so this is the kernel's `ru_maxrss`) when that exists, and
//! always also by polling `/proc/<pid>/status` `VmHWM` every 2 ms while the
//! child runs (a high-water mark, so the last read is close to the peak).
//! The table shows the highest value either method saw and names it.

#[path = "gen.rs"]
mod sessgen;

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

/// `log -n 20` against yoagent's `from_jsonl` + `path_messages`.
const SPEEDUP_TARGET: f64 = 20.0;
/// `log --graph` against `fsck` on the same file.
const GRAPH_FSCK_TARGET: f64 = 3.0;
/// Peak RSS as a fraction of the file size.
const RSS_TARGET: f64 = 0.5;
/// Entries asked of `log -n`.
const LAST: usize = 20;

fn main() -> ExitCode {
    let entries = env_usize("YSESS_BENCH_ENTRIES", 200_000);
    let runs = env_usize("YSESS_BENCH_RUNS", 3).max(1);
    let file = match bench_file(entries) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: preparing the bench file: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
    println!("bench file: {} ({})", file.display(), mb(bytes));

    // -- yoagent: read_to_string + from_jsonl + path_messages ---------------
    let mut load_path = Duration::MAX;
    let mut read_load_path = Duration::MAX;
    let mut path_only = Duration::MAX;
    let mut facts = None;
    for _ in 0..runs {
        let t0 = Instant::now();
        let text = std::fs::read_to_string(&file).expect("read bench file");
        let t1 = Instant::now();
        let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads the bench file");
        let t2 = Instant::now();
        let messages = session.path_messages();
        let t3 = Instant::now();
        load_path = load_path.min(t3 - t1);
        read_load_path = read_load_path.min(t3 - t0);
        path_only = path_only.min(t3 - t2);
        if facts.is_none() {
            facts = Some(Facts {
                entries: session.entries().len(),
                tips: session.branch_tips().len(),
                path_ids: session.path_ids(),
                path_messages: messages.len(),
            });
        }
        drop(messages);
        drop(session);
        drop(text);
    }
    let facts = facts.expect("runs >= 1");
    // Read after the yoagent runs: this process has done nothing heavier, so
    // its high-water mark is what yoagent's text + Session + path needed.
    let yoagent_hwm = std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| vm_hwm_kib(&s));
    println!(
        "entries {} | branch tips {} | HEAD path {} entries ({} messages from path_messages)",
        facts.entries,
        facts.tips,
        facts.path_ids.len(),
        facts.path_messages
    );
    println!();

    // -- ysess ----------------------------------------------------------------
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let f = file.as_os_str();
    let with_file = |args: &[&str]| -> Vec<OsString> {
        let mut v: Vec<OsString> = vec!["-f".into(), f.to_owned()];
        v.extend(args.iter().map(OsString::from));
        v
    };
    let last = LAST.to_string();
    let log_n = with_file(&["log", "-n", &last]);
    let log_ids = with_file(&["log", "--format", "{id}", "-n", &last]);
    let graph = with_file(&["log", "--graph"]);
    let log_all = with_file(&["log"]);
    let show = with_file(&["show"]);
    let fsck: Vec<OsString> = vec!["fsck".into(), f.to_owned()];

    let mut failed = false;
    let mut fail = |what: &str, e: &str| {
        eprintln!("error: {what}: {e}");
        failed = true;
    };

    // Check runs: output captured and looked at once.
    let log_n_out = check_run(ysess, &log_n);
    let log_n_entries = match &log_n_out {
        Ok(out) => Some(count_entries(out)),
        Err(e) => {
            fail("ysess log -n 20", e);
            None
        }
    };
    let ids_out = check_run(ysess, &log_ids);
    let want_ids: Vec<&str> = facts
        .path_ids
        .iter()
        .rev()
        .take(LAST)
        .map(String::as_str)
        .collect();
    let ids_ok = match &ids_out {
        Ok(out) => {
            let got: Vec<&str> = out.lines().collect();
            if got != want_ids {
                fail(
                    "ysess log --format '{id}' -n 20",
                    &format!(
                        "printed {got:?}, yoagent's path_ids (last 20, reversed) are {want_ids:?}"
                    ),
                );
            }
            got == want_ids
        }
        Err(e) => {
            fail("ysess log --format '{id}' -n 20", e);
            false
        }
    };
    if let Some(n) = log_n_entries
        && n != LAST
    {
        fail(
            "ysess log -n 20",
            &format!("printed {n} entries, not {LAST}"),
        );
    }
    let graph_out = check_run(ysess, &graph);
    if let Err(e) = &graph_out {
        fail("ysess log --graph", e);
    }
    let log_all_out = check_run(ysess, &log_all);
    if let Err(e) = &log_all_out {
        fail("ysess log", e);
    }
    let show_out = check_run(ysess, &show);
    if let Err(e) = &show_out {
        fail("ysess show", e);
    }
    let fsck_out = check_run(ysess, &fsck);
    if let Err(e) = &fsck_out {
        fail("ysess fsck", e);
    }

    // Timed runs, stdout and stderr on /dev/null.
    let t_log_n = time_child(ysess, &log_n, runs, Out::Null);
    let t_graph = time_child(ysess, &graph, runs, Out::Null);
    let t_graph_pipe = time_child(ysess, &graph, runs, Out::Drained);
    let t_fsck = time_child(ysess, &fsck, runs, Out::Null);
    let t_log_all = time_child(ysess, &log_all, runs, Out::Null);
    let t_show = time_child(ysess, &show, runs, Out::Null);

    // Peak RSS.
    let r_log_n = peak_rss(ysess, &log_n, runs);
    let r_graph = peak_rss(ysess, &graph, runs);
    let r_log_all = peak_rss(ysess, &log_all, runs);
    let r_show = peak_rss(ysess, &show, runs);
    let r_fsck = peak_rss(ysess, &fsck, runs);

    // -- table ---------------------------------------------------------------
    println!(
        "| {:<44} | {:>12} | {:<12} | {:<6} |",
        "measure", "value", "target", ""
    );
    println!("|{:-<46}|{:-<14}|{:-<14}|{:-<8}|", "", "", "", "");
    row("file size", &mb(bytes), "", "");
    row("entries", &facts.entries.to_string(), "", "");
    row(
        "HEAD path length",
        &facts.path_ids.len().to_string(),
        "",
        "",
    );
    row("yoagent path_messages (alone)", &ms(path_only), "", "");
    row("yoagent from_jsonl + path_messages", &ms(load_path), "", "");
    row(
        "yoagent read_to_string + from_jsonl + path",
        &ms(read_load_path),
        "",
        "",
    );
    match yoagent_hwm {
        Some(kib) => rss_rows("yoagent (this process, VmHWM)", kib, bytes, false),
        None => row("yoagent (this process, VmHWM)", "n/a", "", ""),
    }

    // 2. log -n 20
    time_row("ysess log -n 20", &t_log_n);
    if let Ok(t) = &t_log_n {
        let s = secs(load_path) / secs(t.best);
        let s_read = secs(read_load_path) / secs(t.best);
        row(
            "speedup: yoagent load+path / log -n 20",
            &format!("{s:.1}x"),
            &format!(">= {SPEEDUP_TARGET:.0}x"),
            pass(s >= SPEEDUP_TARGET),
        );
        row(
            "speedup: yoagent read+load+path / log -n 20",
            &format!("{s_read:.1}x"),
            &format!(">= {SPEEDUP_TARGET:.0}x"),
            pass(s_read >= SPEEDUP_TARGET),
        );
    }
    rss_result_rows("ysess log -n 20", &r_log_n, bytes);

    // 3. log --graph vs fsck
    time_row("ysess log --graph (stdout /dev/null)", &t_graph);
    time_row("ysess fsck", &t_fsck);
    if let (Ok(g), Ok(f)) = (&t_graph, &t_fsck) {
        let r = secs(g.best) / secs(f.best);
        row(
            "log --graph / fsck",
            &format!("{r:.2}x"),
            &format!("< {GRAPH_FSCK_TARGET:.0}x"),
            pass(r < GRAPH_FSCK_TARGET),
        );
    }
    rss_result_rows("ysess log --graph", &r_graph, bytes);
    time_row("ysess log --graph (pipe, drained)", &t_graph_pipe);

    // 4. for information
    time_row("ysess log (whole HEAD path)", &t_log_all);
    if let Ok(t) = &t_log_all {
        let s = secs(load_path) / secs(t.best);
        row(
            "speedup: yoagent load+path / log",
            &format!("{s:.1}x"),
            "",
            "",
        );
    }
    rss_result_rows("ysess log", &r_log_all, bytes);
    time_row("ysess show", &t_show);
    rss_result_rows("ysess show", &r_show, bytes);
    rss_result_rows("ysess fsck", &r_fsck, bytes);

    // 5. correctness
    row(
        "log --format '{id}' -n 20 = path_ids[-20..]",
        if ids_ok { "equal" } else { "differ" },
        "equal",
        pass(ids_ok),
    );
    row(
        "log -n 20 entries printed",
        &log_n_entries.map_or("n/a".to_string(), |n| n.to_string()),
        &LAST.to_string(),
        pass(log_n_entries == Some(LAST)),
    );

    // -- details -------------------------------------------------------------
    println!();
    println!("best of {runs}; all runs:");
    for (what, t) in [
        ("log -n 20", &t_log_n),
        ("log --graph", &t_graph),
        ("log --graph (pipe)", &t_graph_pipe),
        ("fsck", &t_fsck),
        ("log", &t_log_all),
        ("show", &t_show),
    ] {
        match t {
            Ok(t) => println!("  {what:<20} {}", list_ms(&t.all)),
            Err(e) => println!("  {what:<20} failed: {e}"),
        }
    }
    println!("peak RSS detail:");
    for (what, r) in [
        ("log -n 20", &r_log_n),
        ("log --graph", &r_graph),
        ("log", &r_log_all),
        ("show", &r_show),
        ("fsck", &r_fsck),
    ] {
        match r {
            Ok(r) => println!("  {what:<20} {}", r.detail),
            Err(e) => println!("  {what:<20} failed: {e}"),
        }
    }
    if let Ok(out) = &ids_out {
        println!(
            "log --format '{{id}}' -n 20: {}",
            out.lines().collect::<Vec<_>>().join(" ")
        );
    }
    println!("output sizes (check runs):");
    for (what, out) in [
        ("log -n 20", &log_n_out),
        ("log --graph", &graph_out),
        ("log", &log_all_out),
        ("show", &show_out),
    ] {
        if let Ok(out) = out {
            println!(
                "  {what:<20} {} lines, {}",
                out.lines().count(),
                kib(out.len() as u64)
            );
        }
    }
    if let Ok(out) = &log_all_out {
        println!(
            "  log prints {} entries; yoagent's HEAD path has {}",
            count_entries(out),
            facts.path_ids.len()
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

struct Facts {
    entries: usize,
    tips: usize,
    path_ids: Vec<String>,
    path_messages: usize,
}

/// Entries in `log`'s default output: each starts with an unindented header
/// line (`ID (decorations)  role  time`); the subject is indented and entries
/// are separated by blank lines.
fn count_entries(out: &str) -> usize {
    out.lines()
        .filter(|l| !l.is_empty() && !l.starts_with(char::is_whitespace))
        .count()
}

// ---------------------------------------------------------------------------
// The bench file (as in benches/fsck.rs)
// ---------------------------------------------------------------------------

fn bench_file(entries: usize) -> std::io::Result<PathBuf> {
    let dir = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
        .join("bench");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join(format!("session-{entries}.jsonl"));
    let meta = dir.join(format!("session-{entries}.jsonl.meta"));
    let want = format!(
        "gen={} seed={:#x} entries={entries}",
        sessgen::GEN_VERSION,
        sessgen::DEFAULT_SEED
    );
    if let (Ok(m), Ok(md)) = (std::fs::read_to_string(&meta), std::fs::metadata(&file))
        && m.trim() == format!("{want} bytes={}", md.len())
    {
        println!("reusing {} ({want})", file.display());
        return Ok(file);
    }
    println!("generating {} ({want}) ...", file.display());
    let t = Instant::now();
    let text = sessgen::generate_jsonl(entries, sessgen::DEFAULT_SEED);
    // The file must be exactly what yoagent writes: it loads, and saving the
    // loaded session gives the same bytes back.
    let resaved = yoagent::Session::from_jsonl(&text)
        .map_err(std::io::Error::other)?
        .to_jsonl();
    if resaved != text {
        return Err(std::io::Error::other(
            "generated JSONL differs from yoagent's to_jsonl of it",
        ));
    }
    let tmp = dir.join(format!("session-{entries}.jsonl.tmp"));
    std::fs::write(&tmp, &text)?;
    std::fs::rename(&tmp, &file)?;
    std::fs::write(&meta, format!("{want} bytes={}\n", text.len()))?;
    println!("generated in {:.1}s", t.elapsed().as_secs_f64());
    Ok(file)
}

// ---------------------------------------------------------------------------
// Running and timing the ysess child
// ---------------------------------------------------------------------------

fn show_args(args: &[OsString]) -> String {
    args.iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Run `bin args` once with its output captured; its stdout if it exits 0.
fn check_run(bin: &Path, args: &[OsString]) -> Result<String, String> {
    let out = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "`ysess {}`: exit {:?}; stderr: {}",
            show_args(args),
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("stdout is not UTF-8: {e}"))
}

#[derive(Clone, Copy)]
enum Out {
    /// stdout on /dev/null.
    Null,
    /// stdout into a pipe read to the end by this process.
    Drained,
}

struct Timed {
    best: Duration,
    all: Vec<Duration>,
}

/// Time `runs` runs of `bin args` (stderr on /dev/null); each must exit 0.
fn time_child(bin: &Path, args: &[OsString], runs: usize, out: Out) -> Result<Timed, String> {
    let mut all = Vec::with_capacity(runs);
    for _ in 0..runs {
        let mut cmd = Command::new(bin);
        cmd.args(args).stdin(Stdio::null()).stderr(Stdio::null());
        let t = Instant::now();
        let status = match out {
            Out::Null => cmd.stdout(Stdio::null()).status(),
            Out::Drained => cmd.stdout(Stdio::piped()).spawn().and_then(|mut child| {
                let mut sink = Vec::new();
                if let Some(mut pipe) = child.stdout.take() {
                    pipe.read_to_end(&mut sink)?;
                }
                child.wait()
            }),
        }
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
        let elapsed = t.elapsed();
        if !status.success() {
            return Err(format!(
                "`ysess {}`: exit {:?} on a timed run",
                show_args(args),
                status.code()
            ));
        }
        all.push(elapsed);
    }
    Ok(Timed {
        best: *all.iter().min().expect("runs >= 1"),
        all,
    })
}

struct Rss {
    kib: u64,
    method: &'static str,
    detail: String,
}

/// Peak RSS of the child: the highest of `runs` runs of each method.
fn peak_rss(bin: &Path, args: &[OsString], runs: usize) -> Result<Rss, String> {
    let mut polled = 0;
    for _ in 0..runs {
        polled = polled.max(poll_vmhwm(bin, args)?);
    }
    let time_bin = Path::new("/usr/bin/time");
    let timed = if time_bin.exists() {
        (0..runs)
            .map(|_| gnu_time_maxrss(time_bin, bin, args))
            .collect::<Result<Vec<u64>, String>>()
            .map_err(|e| eprintln!("warning: /usr/bin/time: {e}"))
            .ok()
            .and_then(|all| all.into_iter().max())
    } else {
        None
    };
    let detail = format!(
        "/proc VmHWM poll (2 ms): {}; /usr/bin/time -f %M (wait4 ru_maxrss): {}",
        mb(polled * 1024),
        timed.map_or("n/a".to_string(), |k| mb(k * 1024))
    );
    Ok(match timed {
        Some(kib) if kib >= polled => Rss {
            kib,
            method: "/usr/bin/time",
            detail,
        },
        _ => Rss {
            kib: polled,
            method: "VmHWM poll",
            detail,
        },
    })
}

/// Poll `/proc/<pid>/status` `VmHWM` (KiB) every 2 ms until the child exits;
/// the highest value read.
fn poll_vmhwm(bin: &Path, args: &[OsString]) -> Result<u64, String> {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    let status_path = format!("/proc/{}/status", child.id());
    let mut hwm = 0;
    let status = loop {
        if let Some(k) = std::fs::read_to_string(&status_path)
            .ok()
            .and_then(|s| vm_hwm_kib(&s))
        {
            hwm = hwm.max(k);
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("waiting for ysess: {e}")),
        }
    };
    if !status.success() {
        return Err(format!("exit {:?} on the RSS run", status.code()));
    }
    Ok(hwm)
}

fn vm_hwm_kib(status: &str) -> Option<u64> {
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// GNU time's `%M`: the child's maximum resident set size in KiB.
fn gnu_time_maxrss(time_bin: &Path, bin: &Path, args: &[OsString]) -> Result<u64, String> {
    let out = Command::new(time_bin)
        .args(["-f", "ysess-maxrss=%M"])
        .arg(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .output()
        .map_err(|e| format!("spawning: {e}"))?;
    if !out.status.success() {
        return Err(format!("exit {:?}", out.status.code()));
    }
    String::from_utf8_lossy(&out.stderr)
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("ysess-maxrss=")?.trim().parse().ok())
        .ok_or_else(|| "no %M in its output".to_string())
}

// ---------------------------------------------------------------------------
// Output helpers
// ---------------------------------------------------------------------------

fn time_row(what: &str, t: &Result<Timed, String>) {
    match t {
        Ok(t) => row(what, &ms(t.best), "", ""),
        Err(_) => row(what, "failed", "", "MISS"),
    }
}

fn rss_result_rows(what: &str, r: &Result<Rss, String>, bytes: u64) {
    match r {
        Ok(r) => rss_rows(
            &format!("{what} peak RSS ({})", r.method),
            r.kib,
            bytes,
            true,
        ),
        Err(_) => row(&format!("{what} peak RSS"), "n/a", "", ""),
    }
}

/// Peak RSS in MB, then as a share of the file size (with the target when
/// `judged`).
fn rss_rows(what: &str, kib: u64, bytes: u64, judged: bool) {
    let frac = kib as f64 * 1024.0 / bytes.max(1) as f64;
    row(what, &mb(kib * 1024), "", "");
    let (target, verdict) = if judged {
        (
            format!("< {:.0}%", RSS_TARGET * 100.0),
            pass(frac < RSS_TARGET),
        )
    } else {
        (String::new(), "")
    };
    row(
        "  / file size",
        &format!("{:.1}%", frac * 100.0),
        &target,
        verdict,
    );
}

fn row(what: &str, value: &str, target: &str, verdict: &str) {
    println!("| {what:<44} | {value:>12} | {target:<12} | {verdict:<6} |");
}

fn pass(ok: bool) -> &'static str {
    if ok { "PASS" } else { "MISS" }
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn list_ms(ds: &[Duration]) -> String {
    ds.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(", ")
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

fn env_usize(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| {
            eprintln!("warning: {name}={v:?} is not a number; using {default}");
            default
        }),
        Err(_) => default,
    }
}
