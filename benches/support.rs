//! What the benches share (`#[path = "support.rs"] mod support;`): the cached
//! bench file (made by the session generator the tests also use,
//! `tests/gen/`), running, timing and measuring the ysess child, and the
//! table and number formatting.
//!
//! Every ysess command runs with stdin on /dev/null. [`check_run`] runs it
//! once with its output captured (exit 0 is checked); [`time_child`] then
//! times `runs` runs with stderr on /dev/null and stdout as [`Out`] says.
//!
//! Peak RSS of the ysess child: the crate forbids `unsafe`, so `wait4` is out
//! of reach. It is taken from `/usr/bin/time -f %M` (GNU time reaps the child
//! with `wait4`, so this is the kernel's `ru_maxrss`) when that exists, and
//! always also by polling `/proc/<pid>/status` `VmHWM` every 2 ms while the
//! child runs (a high-water mark, so the last read is close to the peak).
//! [`peak_rss`] keeps the highest value either method saw and names it.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/gen/mod.rs"]
mod sessgen;

// ---------------------------------------------------------------------------
// The bench file
// ---------------------------------------------------------------------------

/// The generated session of `entries` entries, in
/// `target/bench/session-<entries>.jsonl`: generated once (with a `.meta`
/// marker naming the generator version, seed and size) and reused while the
/// marker matches.
pub fn bench_file(entries: usize) -> std::io::Result<PathBuf> {
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

/// The bench session most benches measure: `YSESS_BENCH_ENTRIES` entries
/// (default 200,000), made by [`bench_file`].
#[allow(dead_code)] // benches/diff.rs and benches/fleet.rs make their own files; not every bench reads every field
pub struct BenchSession {
    pub entries: usize,
    pub file: PathBuf,
    /// The file's size (0 if it cannot be read).
    pub bytes: u64,
}

/// The bench session, or `None` after printing why it could not be made.
#[allow(dead_code)] // benches/diff.rs and benches/fleet.rs make their own files
pub fn bench_session() -> Option<BenchSession> {
    let entries = env_usize("YSESS_BENCH_ENTRIES", 200_000);
    match bench_file(entries) {
        Ok(file) => Some(BenchSession {
            entries,
            bytes: file_size(&file),
            file,
        }),
        Err(e) => {
            eprintln!("error: preparing the bench file: {e}");
            None
        }
    }
}

/// Runs per measurement: `YSESS_BENCH_RUNS` (default 3, at least 1).
pub fn bench_runs() -> usize {
    env_usize("YSESS_BENCH_RUNS", 3).max(1)
}

/// The size of `file` in bytes, 0 if it cannot be read.
#[allow(dead_code)] // benches/fleet.rs sums its own sizes
pub fn file_size(file: &Path) -> u64 {
    std::fs::metadata(file).map_or(0, |m| m.len())
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

/// What a check run printed.
pub struct Captured {
    pub stdout: String,
    #[allow(dead_code)] // only benches/fsck.rs reads stderr
    pub stderr: String,
}

/// Run `bin args` once with its output captured; what it printed if it exits
/// 0 (and its stdout is UTF-8).
pub fn check_run(bin: &Path, args: &[OsString]) -> Result<Captured, String> {
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
    Ok(Captured {
        stdout: String::from_utf8(out.stdout).map_err(|e| format!("stdout is not UTF-8: {e}"))?,
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    })
}

/// Where a timed run's stdout goes.
#[derive(Clone, Copy)]
pub enum Out {
    /// stdout on /dev/null.
    Null,
    /// stdout into a pipe read to the end by this process.
    #[allow(dead_code)] // only benches/log.rs times a drained pipe
    Drained,
}

pub struct Timed {
    pub best: Duration,
    pub all: Vec<Duration>,
}

#[allow(dead_code)] // benches/log.rs
/// Runs `bin args` once with `env` set, every stream on /dev/null; what
/// `suffix` says after the arguments when it fails.
fn run_quiet(
    bin: &Path,
    args: &[OsString],
    env: &[(&str, &str)],
    suffix: &str,
) -> Result<(), String> {
    let status = Command::new(bin)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("spawning {}: {e}", bin.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "`ysess {}`: exit {:?}{suffix}",
            show_args(args),
            status.code()
        ))
    }
}

/// Where the time of `bin args` goes, phase by phase: the line ysess
/// prints on stderr with `YSESS_PROFILE=1` (read, work on every core, work
/// in order, outside the parallel pipeline), from one more run.
#[allow(dead_code)] // not every bench profiles
pub fn profile(bin: &Path, args: &[OsString]) -> String {
    let run = Command::new(bin)
        .args(args)
        .env("YSESS_PROFILE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output();
    match run {
        Ok(out) => String::from_utf8_lossy(&out.stderr)
            .lines()
            .rev()
            .find(|l| l.starts_with("profile: "))
            .map_or_else(|| "no profile printed".to_string(), str::to_string),
        Err(e) => format!("not profiled: {e}"),
    }
}

#[allow(dead_code)] // benches/log.rs counts bytes read
/// Bytes the child `bin args` read (the `rchar` of `/proc/self/io`, which
/// counts the children this process has waited for), run with `env`.
pub fn bytes_read(bin: &Path, args: &[OsString], env: &[(&str, &str)]) -> Result<u64, String> {
    let rchar = || -> Result<u64, String> {
        let io =
            std::fs::read_to_string("/proc/self/io").map_err(|e| format!("/proc/self/io: {e}"))?;
        io.lines()
            .find_map(|l| l.strip_prefix("rchar: "))
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| "/proc/self/io has no rchar".to_string())
    };
    let before = rchar()?;
    run_quiet(bin, args, env, "")?;
    Ok(rchar()? - before)
}

#[allow(dead_code)] // benches/log.rs sets a memo folder
/// [`time_child`] with stdout on /dev/null and `env` set.
pub fn time_child_env(
    bin: &Path,
    args: &[OsString],
    runs: usize,
    env: &[(&str, &str)],
) -> Result<Timed, String> {
    let mut all = Vec::with_capacity(runs);
    for _ in 0..runs {
        let t = Instant::now();
        run_quiet(bin, args, env, " on a timed run")?;
        all.push(t.elapsed());
    }
    Ok(Timed {
        best: *all.iter().min().expect("runs >= 1"),
        all,
    })
}

/// Runs `bin args` `runs` times with `env` set, stdout drained, stderr on
/// /dev/null, each run's exit status one of `ok`: the times.
#[allow(dead_code)] // the home and compare benches
pub fn timed(
    bin: &Path,
    args: &[OsString],
    env: &[(&str, OsString)],
    runs: usize,
    ok: &[i32],
) -> Result<Vec<Duration>, String> {
    let mut all = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let out = Command::new(bin)
            .args(args)
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output()
            .map_err(|e| format!("{}: {e}", bin.display()))?;
        all.push(t.elapsed());
        match out.status.code() {
            Some(code) if ok.contains(&code) => {}
            code => return Err(format!("{} {args:?}: exit {code:?}", bin.display())),
        }
    }
    Ok(all)
}

/// Time `runs` runs of `bin args` (stderr on /dev/null, stdout as `out`
/// says); each must exit 0.
pub fn time_child(bin: &Path, args: &[OsString], runs: usize, out: Out) -> Result<Timed, String> {
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

// ---------------------------------------------------------------------------
// Peak RSS of the ysess child
// ---------------------------------------------------------------------------

pub struct Rss {
    pub kib: u64,
    pub method: &'static str,
    pub detail: String,
}

/// Peak RSS of the child: the highest of `runs` runs of each method.
pub fn peak_rss(bin: &Path, args: &[OsString], runs: usize) -> Result<Rss, String> {
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
    // Runs differ a little (fsck, for one, checks on all cores); keep the
    // highest seen.
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

/// `VmHWM` (KiB) from the text of a `/proc/<pid>/status`.
pub fn vm_hwm_kib(status: &str) -> Option<u64> {
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

/// The results table: `| measure | value | target | verdict |`, the measure
/// column `what` characters wide.
#[derive(Clone, Copy)]
pub struct Table {
    pub what: usize,
}

impl Table {
    pub fn header(self) {
        self.row("measure", "value", "target", "");
        println!(
            "|{:-<w$}|{:-<14}|{:-<14}|{:-<8}|",
            "",
            "",
            "",
            "",
            w = self.what + 2
        );
    }

    pub fn row(self, what: &str, value: &str, target: &str, verdict: &str) {
        let w = self.what;
        println!("| {what:<w$} | {value:>12} | {target:<12} | {verdict:<6} |");
    }

    /// [`Table::rss_rows`] for `{what} peak RSS`, or an `n/a` row saying
    /// why it could not be measured.
    #[allow(dead_code)] // benches/fsck.rs and benches/stats.rs show the error this way
    pub fn rss_result(
        self,
        what: &str,
        share: &str,
        rss: &Result<Rss, String>,
        bytes: u64,
        target: Option<f64>,
    ) {
        match rss {
            Ok(r) => self.rss_rows(
                &format!("{what} peak RSS ({})", r.method),
                share,
                r.kib,
                bytes,
                target,
            ),
            Err(e) => self.row(&format!("{what} peak RSS"), "n/a", "", &format!("({e})")),
        }
    }

    /// Peak RSS in MB (row `what`), then as a share of the file size (row
    /// `share`), judged against `target` (a fraction) when there is one.
    pub fn rss_rows(self, what: &str, share: &str, kib: u64, bytes: u64, target: Option<f64>) {
        let frac = kib as f64 * 1024.0 / bytes.max(1) as f64;
        self.row(what, &mb(kib * 1024), "", "");
        let (target, verdict) = match target {
            Some(t) => (format!("< {:.0}%", t * 100.0), pass(frac < t)),
            None => (String::new(), ""),
        };
        self.row(share, &format!("{:.1}%", frac * 100.0), &target, verdict);
    }
}

/// The environment of ysess run over a bench's home of Claude Code
/// sessions: `HOME`, Claude Code's folder, no other agent's, in UTC.
#[allow(dead_code)] // the home and archive benches
pub fn claude_home_env(home: &Path, claude: &Path) -> Vec<(&'static str, OsString)> {
    vec![
        ("HOME", home.into()),
        ("CLAUDE_CONFIG_DIR", claude.into()),
        ("YSESS_PATH", "".into()),
        ("CODEX_HOME", "".into()),
        ("PI_CODING_AGENT_DIR", "".into()),
        ("PI_CODING_AGENT_SESSION_DIR", "".into()),
        ("TZ", "UTC".into()),
    ]
}

pub fn pass(ok: bool) -> &'static str {
    if ok { "PASS" } else { "MISS" }
}

pub fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

pub fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

pub fn list_ms(ds: &[Duration]) -> String {
    ds.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(", ")
}

pub fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

pub fn kib(bytes: u64) -> String {
    format!("{:.1} KiB", bytes as f64 / 1024.0)
}

/// A number from the environment, `default` when unset or not a number.
pub fn env_usize(name: &str, default: usize) -> usize {
    match std::env::var(name) {
        Ok(v) => v.trim().parse().unwrap_or_else(|_| {
            eprintln!("warning: {name}={v:?} is not a number; using {default}");
            default
        }),
        Err(_) => default,
    }
}
