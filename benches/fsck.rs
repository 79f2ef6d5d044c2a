//! `cargo bench --bench fsck`: `ysess fsck` against yoagent's own loader on a
//! large generated session.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the generated session.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//!
//! The session is generated once into `target/bench/session-<entries>.jsonl`
//! (with a `.meta` marker naming the generator version, seed and size) and
//! reused while the marker matches.
//!
//! Peak RSS of the ysess child: the crate forbids `unsafe`, so `wait4` is out
//! of reach. It is taken from `/usr/bin/time -f %M` (GNU time reaps the child
//! with `wait4`, so this is the kernel's `ru_maxrss`) when that exists, and
//! always also by polling `/proc/<pid>/status` `VmHWM` every 2 ms while the
//! child runs (a high-water mark, so the last read is close to the peak).
//! The table shows the highest value either method saw and names it.

#[path = "gen.rs"]
mod sessgen;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

const SPEEDUP_TARGET: f64 = 10.0;
const RSS_TARGET: f64 = 0.5;

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
    let fsck = match time_child(ysess, &["fsck"], &file, runs) {
        Ok(r) => r,
        Err(e) => {
            print_yoagent_only(bytes, stats.entries, load, read_load);
            eprintln!("error: ysess fsck: {e}");
            return ExitCode::FAILURE;
        }
    };
    let digest = time_child(ysess, &["fsck", "--digest"], &file, runs);
    let rss = peak_rss(ysess, &["fsck"], &file, runs);

    // -- table ---------------------------------------------------------------
    let ratio = secs(load) / secs(fsck.best);
    let ratio_read = secs(read_load) / secs(fsck.best);
    println!(
        "| {:<40} | {:>12} | {:<12} | {:<6} |",
        "measure", "value", "target", ""
    );
    println!("|{:-<42}|{:-<14}|{:-<14}|{:-<8}|", "", "", "", "");
    row("file size", &mb(bytes), "", "");
    row("entries", &stats.entries.to_string(), "", "");
    row("yoagent from_jsonl (load only)", &ms(load), "", "");
    row(
        "yoagent read_to_string + from_jsonl",
        &ms(read_load),
        "",
        "",
    );
    row("ysess fsck", &ms(fsck.best), "", "");
    row(
        "speedup: yoagent load / ysess fsck",
        &format!("{ratio:.1}x"),
        &format!(">= {SPEEDUP_TARGET:.0}x"),
        pass(ratio >= SPEEDUP_TARGET),
    );
    row(
        "speedup: yoagent read+load / ysess fsck",
        &format!("{ratio_read:.1}x"),
        &format!(">= {SPEEDUP_TARGET:.0}x"),
        pass(ratio_read >= SPEEDUP_TARGET),
    );
    match &rss {
        Ok(rss) => {
            let frac = rss.kib as f64 * 1024.0 / bytes as f64;
            row(
                &format!("ysess fsck peak RSS ({})", rss.method),
                &mb(rss.kib * 1024),
                "",
                "",
            );
            row(
                "peak RSS / file size",
                &format!("{:.1}%", frac * 100.0),
                &format!("< {:.0}%", RSS_TARGET * 100.0),
                pass(frac < RSS_TARGET),
            );
        }
        Err(e) => row("ysess fsck peak RSS", "n/a", "", &format!("({e})")),
    }
    match &digest {
        Ok(d) => row("ysess fsck --digest", &ms(d.best), "", ""),
        Err(e) => row("ysess fsck --digest", "failed", "", &format!("({e})")),
    }
    println!();
    println!("best of {runs}; ysess fsck runs: {}", list_ms(&fsck.all));
    if let Ok(rss) = &rss {
        println!("peak RSS detail: {}", rss.detail);
    }
    if !fsck.stdout.trim().is_empty() {
        println!("ysess fsck stdout: {}", fsck.stdout.trim());
    }
    println!("ysess fsck findings (stderr): {}", findings(&fsck.stderr));
    println!(
        "throughput: yoagent load {:.0} MB/s, ysess fsck {:.0} MB/s",
        bytes as f64 / 1e6 / secs(load),
        bytes as f64 / 1e6 / secs(fsck.best)
    );
    if let Ok(d) = &digest {
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

// ---------------------------------------------------------------------------
// The bench file
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
// Timing the ysess child
// ---------------------------------------------------------------------------

struct Timed {
    best: Duration,
    all: Vec<Duration>,
    stdout: String,
    stderr: String,
}

/// Run `bin args file` once untimed (checking exit 0 and keeping its
/// stdout), then `runs` times with output discarded.
fn time_child(bin: &Path, args: &[&str], file: &Path, runs: usize) -> Result<Timed, String> {
    let out = Command::new(bin)
        .args(args)
        .arg(file)
        .output()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "exit {:?}; stderr: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let mut all = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        let status = Command::new(bin)
            .args(args)
            .arg(file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
        let elapsed = t.elapsed();
        if !status.success() {
            return Err(format!("exit {:?} on a timed run", status.code()));
        }
        all.push(elapsed);
    }
    Ok(Timed {
        best: *all.iter().min().expect("runs >= 1"),
        all,
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

struct Rss {
    kib: u64,
    method: &'static str,
    detail: String,
}

/// Peak RSS of the child: the highest of `runs` runs of each method.
fn peak_rss(bin: &Path, args: &[&str], file: &Path, runs: usize) -> Result<Rss, String> {
    let mut polled = 0;
    for _ in 0..runs {
        polled = polled.max(poll_vmhwm(bin, args, file)?);
    }
    let time_bin = Path::new("/usr/bin/time");
    let timed = if time_bin.exists() {
        (0..runs)
            .map(|_| gnu_time_maxrss(time_bin, bin, args, file))
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
    // Runs differ a little (fsck checks on all cores); keep the highest seen.
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
/// the last value read.
fn poll_vmhwm(bin: &Path, args: &[&str], file: &Path) -> Result<u64, String> {
    let mut child = Command::new(bin)
        .args(args)
        .arg(file)
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
fn gnu_time_maxrss(time_bin: &Path, bin: &Path, args: &[&str], file: &Path) -> Result<u64, String> {
    let out = Command::new(time_bin)
        .args(["-f", "ysess-maxrss=%M"])
        .arg(bin)
        .args(args)
        .arg(file)
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

fn row(what: &str, value: &str, target: &str, verdict: &str) {
    println!("| {what:<40} | {value:>12} | {target:<12} | {verdict:<6} |");
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
