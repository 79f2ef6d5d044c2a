//! `cargo bench --bench fleet`: `ysess fsck DIR` on a fleet of generated
//! session files, against `find | xargs -P2 ysess fsck` and against a program
//! that loads each file with yoagent's `Session::from_jsonl`, in one run.
//!
//! Environment:
//! - `YSESS_BENCH_FILES` (default 2000): files in the fleet.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement; the best is shown.
//!
//! The fleet is made once under `target/bench/fleet-<files>/` (a `.meta`
//! marker names the generator version and the files) and reused while the
//! marker matches. File `i` is a prefix (whole lines) of one generated
//! 20,000-entry yoagent session (made and cached as the other benches make
//! theirs), its size drawn from 10 kB to 20 MB, most files small
//! (`10 kB × 2000^(u⁴)`, `u` uniform): about 1.5 GB for 2,000 files. Every
//! 100th file is one of the test fixtures in pi's or Claude Code's format,
//! so the formats mix; of the others, every 40th is broken (a torn last
//! line, or a line of invalid JSON in the middle): 40 of 2,000. Files are
//! spread over 20 folders.
//!
//! The yoagent program is this bench's own binary run again as a child
//! (`YSESS_FLEET_LOADER=DIR`): it walks DIR and, on two threads, reads each
//! file and calls `Session::from_jsonl`, counting what loads.

#[path = "support.rs"]
#[allow(dead_code)]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use support::{Table, bench_file, bench_runs, env_usize, mb, ms, secs};

const TABLE: Table = Table { what: 44 };
const FLEET_VERSION: u32 = 1;
const SOURCE_ENTRIES: usize = 20_000;
const MIN_SIZE: f64 = 10_000.0;
const MAX_SIZE: f64 = 20_000_000.0;

fn main() -> ExitCode {
    if let Some(dir) = std::env::var_os("YSESS_FLEET_LOADER") {
        return load_with_yoagent(Path::new(&dir));
    }
    let files = env_usize("YSESS_BENCH_FILES", 2_000).max(1);
    let runs = bench_runs();
    let fleet = match make_fleet(files) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: preparing the fleet: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "fleet: {} ({} files, {}, {} broken, {} in pi's or Claude Code's format)",
        fleet.dir.display(),
        fleet.files,
        mb(fleet.bytes),
        fleet.broken,
        fleet.foreign
    );

    let ysess = PathBuf::from(env!("CARGO_BIN_EXE_ysess"));
    // What ysess finds: every broken file, nothing else.
    let json = Command::new(&ysess)
        .args(["fsck", "--json"])
        .arg(&fleet.dir)
        .stdin(Stdio::null())
        .output();
    let total = json.ok().and_then(|out| {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let last = text.lines().last()?.to_string();
        serde_json::from_str::<serde_json::Value>(&last).ok()
    });
    let Some(total) = total.filter(|t| t["type"] == "total") else {
        eprintln!("error: `ysess fsck --json` printed no total");
        return ExitCode::FAILURE;
    };
    println!(
        "ysess fsck: {} files, {} with errors, {} with warnings, {} bytes",
        total["files"], total["files_with_errors"], total["files_with_warnings"], total["bytes"]
    );
    if total["files"] != fleet.files || total["files_with_errors"] != fleet.broken as u64 {
        eprintln!(
            "error: ysess should find {} files, {} with errors",
            fleet.files, fleet.broken
        );
        return ExitCode::FAILURE;
    }

    let dir = fleet.dir.as_os_str();
    let mut fsck = Command::new(&ysess);
    fsck.args(["fsck", "-q"]).arg(dir);
    let mut xargs = Command::new("sh");
    xargs.arg("-c").arg(format!(
        "find \"$1\" -name '*.jsonl' -print0 | xargs -0 -P2 -n 64 '{}' fsck -q",
        ysess.display()
    ));
    xargs.args(["sh", &dir.to_string_lossy()]);
    let mut loader = match std::env::current_exe() {
        Ok(exe) => Command::new(exe),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    loader.env("YSESS_FLEET_LOADER", dir);

    let timed = [
        ("ysess fsck DIR", time(&mut fsck, runs, &[1])),
        (
            "find | xargs -0 -P2 -n 64 ysess fsck",
            time(&mut xargs, runs, &[123]),
        ),
        (
            "yoagent from_jsonl, each file (2 threads)",
            time(&mut loader, runs, &[0]),
        ),
    ];
    let mut best = Vec::new();
    for (what, result) in &timed {
        match result {
            Ok((d, all)) => {
                println!(
                    "{what}: best {} of {}",
                    ms(*d),
                    all.iter().map(|d| ms(*d)).collect::<Vec<_>>().join(", ")
                );
                best.push(*d);
            }
            Err(e) => {
                eprintln!("error: {what}: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    println!();
    TABLE.header();
    let gb = fleet.bytes as f64 / 1e9;
    for ((what, _), d) in timed.iter().zip(&best) {
        TABLE.row(what, &ms(*d), "", "");
        TABLE.row(
            "  files/s, GB/s",
            &format!("{:.0}, {:.2}", fleet.files as f64 / secs(*d), gb / secs(*d)),
            "",
            "",
        );
    }
    let ratio = |a: Duration, b: Duration| secs(a) / secs(b).max(1e-9);
    TABLE.row(
        "fsck DIR against find | xargs",
        &format!("{:.2}x", ratio(best[1], best[0])),
        "",
        "",
    );
    TABLE.row(
        "fsck DIR against yoagent",
        &format!("{:.2}x", ratio(best[2], best[0])),
        "",
        "",
    );
    ExitCode::SUCCESS
}

/// Best of `runs` runs; each must exit with one of `codes`.
fn time(
    cmd: &mut Command,
    runs: usize,
    codes: &[i32],
) -> Result<(Duration, Vec<Duration>), String> {
    let mut all = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let status = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| e.to_string())?;
        all.push(t.elapsed());
        if !status.code().is_some_and(|c| codes.contains(&c)) {
            return Err(format!(
                "exit {:?}, expected one of {codes:?}",
                status.code()
            ));
        }
    }
    let best = *all.iter().min().ok_or("no run")?;
    Ok((best, all))
}

struct Fleet {
    dir: PathBuf,
    files: usize,
    bytes: u64,
    broken: usize,
    foreign: usize,
}

/// A deterministic stream of numbers in [0, 1).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn make_fleet(files: usize) -> std::io::Result<Fleet> {
    let source = bench_file(SOURCE_ENTRIES)?;
    let text = std::fs::read(&source)?;
    if (text.len() as f64) < MAX_SIZE {
        return Err(std::io::Error::other("the source session is under 20 MB"));
    }
    let dir = source
        .parent()
        .unwrap_or(Path::new("."))
        .join(format!("fleet-{files}"));
    let meta = dir.join(".meta");
    let source_len = text.len();
    let want = format!("fleet={FLEET_VERSION} files={files} source={source_len}");
    let foreign_fixtures = [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pi/demo.jsonl"),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude/session.jsonl"),
    ];
    let (mut bytes, mut broken, mut foreign) = (0u64, 0usize, 0usize);
    let reuse = std::fs::read_to_string(&meta).is_ok_and(|m| m.starts_with(&format!("{want} ")));
    if !reuse {
        println!("making {} ({want}) ...", dir.display());
        let _ = std::fs::remove_dir_all(&dir);
    }
    let t = Instant::now();
    let mut rng = Lcg(0x5eed_f1ee7);
    for i in 0..files {
        let u = if i == 0 { 1.0 } else { rng.next() };
        let target = (MIN_SIZE * (MAX_SIZE / MIN_SIZE).powf(u.powi(4))) as usize;
        let path = dir
            .join(format!("folder-{:02}", i % 20))
            .join(format!("session-{i:05}.jsonl"));
        let content: Vec<u8> = if i % 100 == 99 {
            foreign += 1;
            std::fs::read(&foreign_fixtures[(i / 100) % 2])?
        } else {
            // Whole lines up to the size drawn (at least one line).
            let cut = text[..target.min(source_len)]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or_else(
                    || text.iter().position(|&b| b == b'\n').unwrap_or(source_len) + 1,
                    |p| p + 1,
                );
            let mut bytes = text[..cut].to_vec();
            if i % 40 == 39 {
                broken += 1;
                if (i / 40) % 2 == 0 {
                    // A torn last line: half of it.
                    let last = bytes[..bytes.len() - 1]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                    bytes.truncate(last + (bytes.len() - last) / 2);
                } else {
                    // A line in the middle that is not JSON.
                    let mid = bytes[..bytes.len() / 2]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |p| p + 1);
                    bytes.insert(mid + 1, b'#');
                }
            }
            bytes
        };
        bytes += content.len() as u64;
        if !reuse {
            std::fs::create_dir_all(path.parent().unwrap_or(&dir))?;
            std::fs::write(&path, &content)?;
        }
    }
    if !reuse {
        std::fs::write(&meta, format!("{want} bytes={bytes}\n"))?;
        println!("made in {:.1}s", t.elapsed().as_secs_f64());
    } else {
        println!("reusing {}", dir.display());
    }
    Ok(Fleet {
        dir,
        files,
        bytes,
        broken,
        foreign,
    })
}

/// The yoagent program: every `*.jsonl` below `dir`, read and loaded with
/// `Session::from_jsonl` on two threads; prints how many loaded.
fn load_with_yoagent(dir: &Path) -> ExitCode {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "jsonl") {
                files.push(path);
            }
        }
    }
    let queue = Mutex::new(files.into_iter());
    let (loaded, refused) = (AtomicU64::new(0), AtomicU64::new(0));
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let next = queue.lock().map(|mut q| q.next());
                    let Ok(Some(path)) = next else { break };
                    let ok = std::fs::read_to_string(&path)
                        .ok()
                        .is_some_and(|text| yoagent::Session::from_jsonl(&text).is_ok());
                    if ok { &loaded } else { &refused }.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    println!(
        "{} loaded, {} refused",
        loaded.load(Ordering::Relaxed),
        refused.load(Ordering::Relaxed)
    );
    ExitCode::SUCCESS
}
