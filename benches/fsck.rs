//! `cargo bench --bench fsck`: `ysess fsck` against yoagent's own loader on a
//! large generated session, and against the cost of reading the bytes
//! (`wc -l`, `cat > /dev/null`); `log --graph` against `fsck`.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the generated session.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//!
//! The session is generated once into `target/bench/session-<entries>.jsonl`
//! (with a `.meta` marker naming the generator version, seed and size) and
//! reused while the marker matches.
//!
//! `ysess fsck` is run once with its output captured, then timed with its
//! output on /dev/null; likewise `ysess fsck --digest` and `ysess log
//! --graph`. yoagent's loader is timed twice: inside this process, and as a
//! process of its own (this bench run again with `--yoagent-load FILE`: it
//! reads the file and calls `from_jsonl`), timed like the ysess child, so
//! that process is compared with process. Peak RSS of the ysess
//! child comes from `/usr/bin/time -f %M` and a `/proc/<pid>/status` `VmHWM`
//! poll, whichever saw more (see `benches/support.rs`).

#[path = "support.rs"]
mod support;

use std::collections::{BTreeMap, HashMap};
use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use support::{
    BenchSession, Captured, Out, Table, Timed, bench_runs, bench_session, check_run, kib, list_ms,
    mb, ms, pass, peak_rss, profile, secs, time_child,
};

const TABLE: Table = Table { what: 40 };
const SPEEDUP_TARGET: f64 = 10.0;
const RSS_TARGET: f64 = 0.5;
/// `fsck` against `wc -l` on the same file: at most this many times.
const WC_TARGET: f64 = 3.0;
/// `log --graph` against `fsck` on the same file: at most this many times.
const GRAPH_TARGET: f64 = 1.5;

fn main() -> ExitCode {
    let argv: Vec<OsString> = std::env::args_os().collect();
    if let Some(i) = argv.iter().position(|a| a == "--yoagent-load") {
        return yoagent_load(argv.get(i + 1).map(Path::new));
    }
    let runs = bench_runs();
    let Some(BenchSession { file, bytes, .. }) = bench_session() else {
        return ExitCode::FAILURE;
    };

    // -- yoagent: read_to_string + Session::from_jsonl ----------------------
    let mut load = Duration::MAX;
    let mut read_load = Duration::MAX;
    let mut stats = None;
    for _ in 0..runs {
        let t0 = Instant::now();
        let text = std::fs::read_to_string(&file).expect("read bench file");
        let t1 = Instant::now();
        let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads the bench file");
        let t2 = Instant::now();
        load = load.min(t2 - t1);
        read_load = read_load.min(t2 - t0);
        if stats.is_none() {
            stats = Some(Stats::of(&session, &text));
        }
    }
    let stats = stats.expect("runs >= 1");
    println!("bench file: {} ({})", file.display(), mb(bytes));
    stats.print(bytes);
    println!();

    // -- ysess fsck ----------------------------------------------------------
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let fsck_args: Vec<OsString> = vec!["fsck".into(), file.clone().into()];
    let digest_args: Vec<OsString> = vec!["fsck".into(), "--digest".into(), file.clone().into()];
    let (fsck_out, fsck) = match check_and_time(ysess, &fsck_args, runs) {
        Ok(r) => r,
        Err(e) => {
            print_yoagent_only(bytes, stats.entries, load, read_load);
            eprintln!("error: ysess fsck: {e}");
            return ExitCode::FAILURE;
        }
    };
    let digest = check_and_time(ysess, &digest_args, runs);
    let graph_args: Vec<OsString> = vec![
        "-f".into(),
        file.clone().into(),
        "log".into(),
        "--graph".into(),
    ];
    let graph = check_and_time(ysess, &graph_args, runs);
    let rss = peak_rss(ysess, &fsck_args, runs);
    // The floor: reading the bytes, with and without looking at them.
    let wc = time_child(
        Path::new("wc"),
        &["-l".into(), file.clone().into()],
        runs,
        Out::Null,
    );
    let cat = time_child(Path::new("cat"), &[file.clone().into()], runs, Out::Null);
    // yoagent's loader as a process of its own: this bench, run again.
    let load_process = std::env::current_exe()
        .map_err(|e| e.to_string())
        .and_then(|me| {
            time_child(
                &me,
                &["--yoagent-load".into(), file.clone().into()],
                runs,
                Out::Null,
            )
        });

    // -- table ---------------------------------------------------------------
    let ratio = secs(load) / secs(fsck.best);
    let ratio_read = secs(read_load) / secs(fsck.best);
    TABLE.header();
    TABLE.row("file size", &mb(bytes), "", "");
    TABLE.row("entries", &stats.entries.to_string(), "", "");
    TABLE.row("yoagent from_jsonl (load only)", &ms(load), "", "");
    TABLE.row(
        "yoagent read_to_string + from_jsonl",
        &ms(read_load),
        "",
        "",
    );
    TABLE.row("ysess fsck", &ms(fsck.best), "", "");
    TABLE.row(
        "speedup: yoagent load / ysess fsck",
        &format!("{ratio:.1}x"),
        &format!(">= {SPEEDUP_TARGET:.0}x"),
        pass(ratio >= SPEEDUP_TARGET),
    );
    TABLE.row(
        "speedup: yoagent read+load / ysess fsck",
        &format!("{ratio_read:.1}x"),
        &format!(">= {SPEEDUP_TARGET:.0}x"),
        pass(ratio_read >= SPEEDUP_TARGET),
    );
    match &load_process {
        Ok(t) => {
            let r = secs(t.best) / secs(fsck.best);
            TABLE.row("yoagent load, a process of its own", &ms(t.best), "", "");
            TABLE.row(
                "speedup: yoagent process / ysess fsck",
                &format!("{r:.1}x"),
                &format!(">= {SPEEDUP_TARGET:.0}x"),
                pass(r >= SPEEDUP_TARGET),
            );
        }
        Err(e) => TABLE.row("yoagent load process", "failed", "", &format!("({e})")),
    }
    match &cat {
        Ok(t) => TABLE.row("cat > /dev/null", &ms(t.best), "", ""),
        Err(e) => TABLE.row("cat > /dev/null", "failed", "", &format!("({e})")),
    }
    match &wc {
        Ok(t) => {
            let r = secs(fsck.best) / secs(t.best);
            TABLE.row("wc -l", &ms(t.best), "", "");
            TABLE.row(
                "ysess fsck / wc -l",
                &format!("{r:.1}x"),
                &format!("<= {WC_TARGET:.0}x"),
                pass(r <= WC_TARGET),
            );
        }
        Err(e) => TABLE.row("wc -l", "failed", "", &format!("({e})")),
    }
    match &graph {
        Ok((_, t)) => {
            let r = secs(t.best) / secs(fsck.best);
            TABLE.row("ysess log --graph", &ms(t.best), "", "");
            TABLE.row(
                "ysess log --graph / ysess fsck",
                &format!("{r:.2}x"),
                &format!("<= {GRAPH_TARGET:.1}x"),
                pass(r <= GRAPH_TARGET),
            );
        }
        Err(e) => TABLE.row("ysess log --graph", "failed", "", &format!("({e})")),
    }
    TABLE.rss_result(
        "ysess fsck",
        "peak RSS / file size",
        &rss,
        bytes,
        Some(RSS_TARGET),
    );
    match &digest {
        Ok((_, t)) => TABLE.row("ysess fsck --digest", &ms(t.best), "", ""),
        Err(e) => TABLE.row("ysess fsck --digest", "failed", "", &format!("({e})")),
    }
    println!();
    println!("best of {runs}; ysess fsck runs: {}", list_ms(&fsck.all));
    if let (Ok(w), Ok(c), Ok(p)) = (&wc, &cat, &load_process) {
        println!(
            "wc -l runs: {}; cat runs: {}; yoagent process runs: {}",
            list_ms(&w.all),
            list_ms(&c.all),
            list_ms(&p.all)
        );
    }
    if let Ok(rss) = &rss {
        println!("peak RSS detail: {}", rss.detail);
    }
    if !fsck_out.stdout.trim().is_empty() {
        println!("ysess fsck stdout: {}", fsck_out.stdout.trim());
    }
    println!(
        "ysess fsck findings (stderr): {}",
        findings(&fsck_out.stderr)
    );
    println!("ysess fsck {}", profile(ysess, &fsck_args));
    println!("ysess log --graph {}", profile(ysess, &graph_args));
    println!(
        "throughput: yoagent load {:.0} MB/s, ysess fsck {:.0} MB/s",
        bytes as f64 / 1e6 / secs(load),
        bytes as f64 / 1e6 / secs(fsck.best)
    );
    if let Ok((d, _)) = &digest {
        let want = sha256_hex(&file);
        let verdict = match &want {
            Ok(hex) if d.stdout.contains(hex.as_str()) => "matches the file's sha256".to_string(),
            Ok(hex) => format!("MISMATCH: the file's sha256 is {hex}"),
            Err(e) => format!("not checked ({e})"),
        };
        println!(
            "ysess fsck --digest stdout: {} ({verdict})",
            d.stdout.trim()
        );
    }
    ExitCode::SUCCESS
}

/// `--yoagent-load FILE`: what an app does to open a session, as a process
/// of its own: read the file and load it with `from_jsonl`.
fn yoagent_load(file: Option<&Path>) -> ExitCode {
    let Some(file) = file else {
        eprintln!("error: --yoagent-load needs a file");
        return ExitCode::FAILURE;
    };
    let loaded = std::fs::read_to_string(file)
        .map_err(|e| e.to_string())
        .and_then(|text| yoagent::Session::from_jsonl(&text).map_err(|e| e.to_string()));
    match loaded {
        Ok(session) => {
            println!("{} entries", session.entries().len());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {}: {e}", file.display());
            ExitCode::FAILURE
        }
    }
}

/// What the generated session holds, read back through yoagent.
struct Stats {
    entries: usize,
    tips: usize,
    labeled: usize,
    distinct_labels: usize,
    roles: BTreeMap<String, usize>,
    tool_calls: BTreeMap<String, usize>,
    tool_errors: usize,
    thinking: usize,
    max_depth: usize,
    head_depth: usize,
    largest_line: usize,
}

impl Stats {
    fn of(session: &yoagent::Session, text: &str) -> Stats {
        use yoagent::{AgentMessage, Content, Message};
        let mut roles = BTreeMap::new();
        let mut tool_calls = BTreeMap::new();
        let mut labels = HashMap::new();
        let mut depth: HashMap<&str, usize> = HashMap::new();
        let (mut tool_errors, mut thinking, mut max_depth, mut head_depth) = (0, 0, 0, 0);
        for e in session.entries() {
            *roles.entry(e.message.role().to_string()).or_insert(0) += 1;
            if let Some(l) = &e.label {
                *labels.entry(l.as_str()).or_insert(0) += 1;
            }
            let d = e.parent_id.as_deref().map_or(1, |p| depth[p] + 1);
            depth.insert(&e.id, d);
            max_depth = max_depth.max(d);
            head_depth = d;
            match &e.message {
                AgentMessage::Llm(Message::Assistant { content, .. }) => {
                    for c in content {
                        match c {
                            Content::ToolCall { name, .. } => {
                                *tool_calls.entry(name.clone()).or_insert(0) += 1
                            }
                            Content::Thinking { .. } => thinking += 1,
                            _ => {}
                        }
                    }
                }
                AgentMessage::Llm(Message::ToolResult { is_error: true, .. }) => tool_errors += 1,
                _ => {}
            }
        }
        Stats {
            entries: session.entries().len(),
            tips: session.branch_tips().len(),
            labeled: labels.values().sum(),
            distinct_labels: labels.len(),
            roles,
            tool_calls,
            tool_errors,
            thinking,
            max_depth,
            head_depth,
            largest_line: text.lines().map(str::len).max().unwrap_or(0),
        }
    }

    fn print(&self, bytes: u64) {
        println!(
            "entries {} | {:.0} bytes/entry | largest line {} | branch tips {} | labeled entries {} ({} distinct labels)",
            self.entries,
            bytes as f64 / self.entries.max(1) as f64,
            kib(self.largest_line as u64),
            self.tips,
            self.labeled,
            self.distinct_labels
        );
        let roles: Vec<String> = self.roles.iter().map(|(r, n)| format!("{r} {n}")).collect();
        println!(
            "roles: {} | tool results with isError {} | thinking blocks {}",
            roles.join(", "),
            self.tool_errors,
            self.thinking
        );
        let calls: Vec<String> = self
            .tool_calls
            .iter()
            .map(|(t, n)| format!("{t} {n}"))
            .collect();
        println!("tool calls: {}", calls.join(", "));
        println!(
            "depth: head {} | deepest {}",
            self.head_depth, self.max_depth
        );
    }
}

// ---------------------------------------------------------------------------
// The ysess child
// ---------------------------------------------------------------------------

/// Run `bin args` once with its output captured (exit 0 checked), then time
/// `runs` runs with its output on /dev/null.
fn check_and_time(bin: &Path, args: &[OsString], runs: usize) -> Result<(Captured, Timed), String> {
    let out = check_run(bin, args)?;
    Ok((out, time_child(bin, args, runs, Out::Null)?))
}

fn sha256_hex(file: &Path) -> std::io::Result<String> {
    use sha2::Digest;
    use std::fmt::Write;
    let sum = sha2::Sha256::digest(std::fs::read(file)?);
    Ok(sum.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    }))
}

// ---------------------------------------------------------------------------
// Output helpers
// ---------------------------------------------------------------------------

fn print_yoagent_only(bytes: u64, entries: usize, load: Duration, read_load: Duration) {
    println!("| {:<40} | {:>12} |", "measure", "value");
    println!("|{:-<42}|{:-<14}|", "", "");
    println!("| {:<40} | {:>12} |", "file size", mb(bytes));
    println!("| {:<40} | {:>12} |", "entries", entries);
    println!(
        "| {:<40} | {:>12} |",
        "yoagent from_jsonl (load only)",
        ms(load)
    );
    println!(
        "| {:<40} | {:>12} |",
        "yoagent read_to_string + from_jsonl",
        ms(read_load)
    );
}

/// Count `LEVEL: FILE:LINE: CODE: message` lines by level and code.
fn findings(stderr: &str) -> String {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for line in stderr.lines() {
        let mut parts = line.splitn(4, ": ");
        let key = match (parts.next(), parts.next(), parts.next()) {
            (Some(level), Some(_), Some(code)) => format!("{level} {code}"),
            _ => "other".to_string(),
        };
        *counts.entry(key).or_insert(0) += 1;
    }
    if counts.is_empty() {
        return "none".to_string();
    }
    let parts: Vec<String> = counts.iter().map(|(k, n)| format!("{k} x{n}")).collect();
    parts.join(", ")
}
