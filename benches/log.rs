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
//! Peak RSS of the ysess child comes from `/usr/bin/time -f %M` and a
//! `/proc/<pid>/status` `VmHWM` poll, whichever saw more (see
//! `benches/support.rs`).

#[path = "support.rs"]
mod support;

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use support::{
    BenchSession, Out, Rss, Table, Timed, bench_runs, bench_session, kib, list_ms, mb, ms, pass,
    peak_rss, profile, secs, time_child, vm_hwm_kib,
};

const TABLE: Table = Table { what: 44 };

/// `log -n 20` against yoagent's open (`read_to_string` + `from_jsonl`) +
/// `path_messages`.
const SPEEDUP_TARGET: f64 = 1000.0;
/// Bytes `log -n 20` reads once an earlier run left its memo.
const BYTES_TARGET: u64 = 2 << 20;
/// `log --graph` against `fsck` on the same file.
const GRAPH_FSCK_TARGET: f64 = 1.5;
/// Peak RSS as a fraction of the file size.
const RSS_TARGET: f64 = 0.5;
/// Entries asked of `log -n`.
const LAST: usize = 20;

fn main() -> ExitCode {
    let runs = bench_runs();
    let Some(BenchSession { file, bytes, .. }) = bench_session() else {
        return ExitCode::FAILURE;
    };
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

    let check_run = |args: &[OsString]| support::check_run(ysess, args).map(|out| out.stdout);

    let mut failed = false;
    let mut fail = |what: &str, e: &str| {
        eprintln!("error: {what}: {e}");
        failed = true;
    };

    // Check runs: output captured and looked at once.
    let log_n_out = check_run(&log_n);
    let log_n_entries = match &log_n_out {
        Ok(out) => Some(count_entries(out)),
        Err(e) => {
            fail("ysess log -n 20", e);
            None
        }
    };
    let ids_out = check_run(&log_ids);
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
    let graph_out = check_run(&graph);
    if let Err(e) = &graph_out {
        fail("ysess log --graph", e);
    }
    let log_all_out = check_run(&log_all);
    if let Err(e) = &log_all_out {
        fail("ysess log", e);
    }
    let show_out = check_run(&show);
    if let Err(e) = &show_out {
        fail("ysess show", e);
    }
    let fsck_out = check_run(&fsck);
    if let Err(e) = &fsck_out {
        fail("ysess fsck", e);
    }

    // Bytes read by `log -n 20`: the first run on a file searches it whole
    // for branch records and leaves a memo (in a folder of the bench's own);
    // a later run reads the end of the file and what was appended.
    let memos = file.with_file_name("memos");
    let _ = std::fs::remove_dir_all(&memos);
    let memo_env = [("YSESS_CACHE_DIR", memos.to_str().unwrap_or(""))];
    let first_bytes = support::bytes_read(ysess, &log_n, &memo_env);
    let memo_bytes = support::bytes_read(ysess, &log_n, &memo_env);
    if let Err(e) = &memo_bytes {
        fail("ysess log -n 20 (bytes read)", e);
    }

    // Timed runs, stdout and stderr on /dev/null.
    let t_log_n = support::time_child_env(ysess, &log_n, runs, &memo_env);
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
    TABLE.header();
    TABLE.row("file size", &mb(bytes), "", "");
    TABLE.row("entries", &facts.entries.to_string(), "", "");
    TABLE.row(
        "HEAD path length",
        &facts.path_ids.len().to_string(),
        "",
        "",
    );
    TABLE.row("yoagent path_messages (alone)", &ms(path_only), "", "");
    TABLE.row("yoagent from_jsonl + path_messages", &ms(load_path), "", "");
    TABLE.row(
        "yoagent read_to_string + from_jsonl + path",
        &ms(read_load_path),
        "",
        "",
    );
    match yoagent_hwm {
        Some(kib) => TABLE.rss_rows(
            "yoagent (this process, VmHWM)",
            "  / file size",
            kib,
            bytes,
            None,
        ),
        None => TABLE.row("yoagent (this process, VmHWM)", "n/a", "", ""),
    }

    // 2. log -n 20
    time_row("ysess log -n 20", &t_log_n);
    if let Ok(t) = &t_log_n {
        let s = secs(load_path) / secs(t.best);
        let s_read = secs(read_load_path) / secs(t.best);
        TABLE.row(
            "speedup: yoagent load+path / log -n 20",
            &format!("{s:.0}x"),
            "",
            "",
        );
        TABLE.row(
            "speedup: yoagent read+load+path / log -n 20",
            &format!("{s_read:.0}x"),
            &format!(">= {SPEEDUP_TARGET:.0}x"),
            pass(s_read >= SPEEDUP_TARGET),
        );
    }
    match &memo_bytes {
        Ok(b) => TABLE.row(
            "log -n 20 bytes read (memo of a run before)",
            &kib(*b),
            &format!("<= {}", kib(BYTES_TARGET)),
            pass(*b <= BYTES_TARGET),
        ),
        Err(_) => TABLE.row("log -n 20 bytes read", "failed", "", "MISS"),
    }
    if let Ok(b) = &first_bytes {
        TABLE.row("log -n 20 bytes read (first run, no memo)", &mb(*b), "", "");
    }
    rss_result_rows("ysess log -n 20", &r_log_n, bytes);

    // 3. log --graph vs fsck
    time_row("ysess log --graph (stdout /dev/null)", &t_graph);
    time_row("ysess fsck", &t_fsck);
    if let (Ok(g), Ok(f)) = (&t_graph, &t_fsck) {
        let r = secs(g.best) / secs(f.best);
        TABLE.row(
            "log --graph / fsck",
            &format!("{r:.2}x"),
            &format!("<= {GRAPH_FSCK_TARGET:.1}x"),
            pass(r <= GRAPH_FSCK_TARGET),
        );
    }
    rss_result_rows("ysess log --graph", &r_graph, bytes);
    time_row("ysess log --graph (pipe, drained)", &t_graph_pipe);

    // 4. for information
    time_row("ysess log (whole HEAD path)", &t_log_all);
    if let Ok(t) = &t_log_all {
        let s = secs(load_path) / secs(t.best);
        TABLE.row(
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
    TABLE.row(
        "log --format '{id}' -n 20 = path_ids[-20..]",
        if ids_ok { "equal" } else { "differ" },
        "equal",
        pass(ids_ok),
    );
    TABLE.row(
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
    println!("where the time goes (YSESS_PROFILE=1, one run each):");
    for (what, args) in [("log --graph", &graph), ("fsck", &fsck), ("log", &log_all)] {
        println!("  {what:<20} {}", profile(ysess, args));
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
// Output helpers
// ---------------------------------------------------------------------------

fn time_row(what: &str, t: &Result<Timed, String>) {
    match t {
        Ok(t) => TABLE.row(what, &ms(t.best), "", ""),
        Err(_) => TABLE.row(what, "failed", "", "MISS"),
    }
}

fn rss_result_rows(what: &str, r: &Result<Rss, String>, bytes: u64) {
    match r {
        Ok(r) => TABLE.rss_rows(
            &format!("{what} peak RSS ({})", r.method),
            "  / file size",
            r.kib,
            bytes,
            Some(RSS_TARGET),
        ),
        Err(_) => TABLE.row(&format!("{what} peak RSS"), "n/a", "", ""),
    }
}
