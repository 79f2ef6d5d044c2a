//! `cargo bench --bench formats`: `ysess fsck` and `ysess log --graph` on a
//! pi session and a Claude Code session against the same on the yoagent
//! session they are made from, in one run: reading either should cost no
//! more per byte.
//!
//! Environment:
//! - `YSESS_BENCH_ENTRIES` (default 200000): entries in the session.
//! - `YSESS_BENCH_RUNS` (default 3): runs per measurement, taken in turn
//!   (one of each file, then the next round); the best is shown, with the
//!   least CPU time (user + sys, from `/usr/bin/time`) beside it.
//!
//! The pi session is made once from the yoagent bench file
//! (`target/bench/session-<entries>.jsonl`) and cached as
//! `target/bench/pi-<entries>.jsonl` (with a `.meta` marker naming the
//! source's size). It holds the same tree in pi's shapes: pi's header, each
//! entry a `message` entry (its message as stored: yoagent's messages have
//! pi-ai's shapes) with an 8-hex id, its `parentId` and an ISO timestamp,
//! each custom record a `custom` entry, and each label a `label` entry hung
//! from the file's last entry, as pi's `appendLabelChange` hangs it. Before
//! it is cached, `ysess fsck` must find it a sound pi session with as many
//! entries as the source. The Claude Code session (`claude-<entries>.jsonl`)
//! is made the same way, one line per entry in Claude Code 2.0's shapes (see
//! `claude_file`), and checked the same way.

#[path = "support.rs"]
mod support;

use std::ffi::OsString;
use std::io::{BufRead, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use support::{
    BenchSession, Out, Table, bench_runs, bench_session, check_run, kib, list_ms, mb, ms, secs,
    time_child,
};
use ysess::format::pi::iso;

const TABLE: Table = Table { what: 44 };

/// An 8-hex id for the entry on line `k`, unique in the file.
fn pi_id(k: usize) -> String {
    format!("{:08x}", (k as u32).wrapping_mul(0x9E37_79B1))
}

/// Makes (or reuses) the pi session with the tree of `source`.
fn pi_file(source: &Path, entries: usize) -> std::io::Result<PathBuf> {
    let dir = source.parent().unwrap_or(Path::new("."));
    let file = dir.join(format!("pi-{entries}.jsonl"));
    let meta = dir.join(format!("pi-{entries}.jsonl.meta"));
    let want = format!(
        "from {} bytes={}",
        source.display(),
        std::fs::metadata(source)?.len()
    );
    if std::fs::read_to_string(&meta).is_ok_and(|m| m.trim() == want) && file.exists() {
        println!("reusing {}", file.display());
        return Ok(file);
    }
    println!("making {} from {} ...", file.display(), source.display());
    let input = std::io::BufReader::new(std::fs::File::open(source)?);
    let tmp = dir.join(format!("pi-{entries}.jsonl.tmp"));
    let mut out = BufWriter::new(std::fs::File::create(&tmp)?);
    writeln!(
        out,
        "{}",
        json!({"type": "session", "version": 3, "id": "0193f0a0-0000-7000-8000-00000000b5e5",
               "timestamp": iso(1_760_000_000_000), "cwd": "/bench"})
    )?;
    let mut ids: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut labels: Vec<(String, String, u64)> = Vec::new();
    let mut last = String::new();
    let mut next = 0usize;
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let entry: Value = serde_json::from_str(&line).map_err(std::io::Error::other)?;
        let id = pi_id(next);
        next += 1;
        let old = entry["id"].as_str().unwrap_or_default().to_string();
        let parent = entry["parent_id"]
            .as_str()
            .and_then(|p| ids.get(p))
            .cloned();
        let ms = entry["timestamp"].as_u64().unwrap_or(0);
        let message = &entry["message"];
        let converted = if message.get("kind").is_some() {
            json!({"type": "custom", "customType": message["kind"], "data": message["data"],
                   "id": id, "parentId": parent, "timestamp": iso(ms)})
        } else {
            json!({"type": "message", "id": id, "parentId": parent, "timestamp": iso(ms),
                   "message": message})
        };
        writeln!(out, "{converted}")?;
        if let Some(label) = entry["label"].as_str() {
            labels.push((id.clone(), label.to_string(), ms));
        }
        ids.insert(old, id.clone());
        last = id;
    }
    // The labels, as pi appends label changes: each hung from the leaf.
    for (target, label, ms) in labels {
        let id = pi_id(next);
        next += 1;
        writeln!(
            out,
            "{}",
            json!({"type": "label", "id": id, "parentId": last, "timestamp": iso(ms),
                   "targetId": target, "label": label})
        )?;
        last = id;
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, &file)?;
    std::fs::write(&meta, format!("{want}\n"))?;
    Ok(file)
}

/// A Claude Code uuid for the entry on line `k`.
fn claude_id(k: usize) -> String {
    let h = (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        h >> 32,
        (h >> 16) & 0xffff,
        h & 0xfff,
        (k >> 12) & 0xfff,
        k
    )
}

/// The blocks of a pi-ai message as Anthropic's Messages API writes them.
fn anthropic_blocks(content: &Value) -> Vec<Value> {
    let blocks = content.as_array().map(Vec::as_slice).unwrap_or_default();
    blocks
        .iter()
        .filter_map(|b| match b["type"].as_str()? {
            "text" => Some(json!({"type": "text", "text": b["text"]})),
            "thinking" => Some(
                json!({"type": "thinking", "thinking": b["thinking"], "signature": b["signature"]}),
            ),
            "toolCall" => Some(
                json!({"type": "tool_use", "id": b["id"], "name": b["name"], "input": b["arguments"]}),
            ),
            "image" => Some(json!({"type": "image", "source": {"type": "base64",
                "media_type": b["mimeType"], "data": b["data"]}})),
            _ => None,
        })
        .collect()
}

/// Makes (or reuses) a Claude Code session with the tree of `source`: one
/// line per entry (user and assistant lines, a tool result as the user line
/// Claude Code writes, a custom record as a `system` line), each with the
/// fields Claude Code 2.0 repeats on every line. Claude Code has no labels.
fn claude_file(source: &Path, entries: usize) -> std::io::Result<PathBuf> {
    let dir = source.parent().unwrap_or(Path::new("."));
    let file = dir.join(format!("claude-{entries}.jsonl"));
    let meta = dir.join(format!("claude-{entries}.jsonl.meta"));
    let want = format!(
        "from {} bytes={}",
        source.display(),
        std::fs::metadata(source)?.len()
    );
    if std::fs::read_to_string(&meta).is_ok_and(|m| m.trim() == want) && file.exists() {
        println!("reusing {}", file.display());
        return Ok(file);
    }
    println!("making {} from {} ...", file.display(), source.display());
    let input = std::io::BufReader::new(std::fs::File::open(source)?);
    let tmp = dir.join(format!("claude-{entries}.jsonl.tmp"));
    let mut out = BufWriter::new(std::fs::File::create(&tmp)?);
    let session = "3f2c8a1e-6b4d-4e2a-9c71-5d8e0b6a4f13";
    let mut ids: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for (k, line) in input.lines().enumerate() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let entry: Value = serde_json::from_str(&line).map_err(std::io::Error::other)?;
        let id = claude_id(k);
        let old = entry["id"].as_str().unwrap_or_default().to_string();
        let parent = entry["parent_id"]
            .as_str()
            .and_then(|p| ids.get(p))
            .cloned();
        let time = iso(entry["timestamp"].as_u64().unwrap_or(0));
        let m = &entry["message"];
        let mut line = json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/bench", "sessionId": session, "version": "2.0.42", "gitBranch": "main"});
        let fields = line.as_object_mut().expect("an object");
        let mut put = |key: &str, value: Value| fields.insert(key.to_string(), value);
        match m["role"].as_str().unwrap_or_default() {
            "user" => {
                put("type", json!("user"));
                put(
                    "message",
                    json!({"role": "user", "content": anthropic_blocks(&m["content"])}),
                );
            }
            "assistant" => {
                let usage = &m["usage"];
                let stop = match m["stopReason"].as_str() {
                    Some("toolUse") => "tool_use",
                    Some("length") => "max_tokens",
                    _ => "end_turn",
                };
                put(
                    "message",
                    json!({"model": m["model"], "id": format!("msg_{k:024x}"),
                    "type": "message", "role": "assistant",
                    "content": anthropic_blocks(&m["content"]), "stop_reason": stop,
                    "stop_sequence": null, "usage": {"input_tokens": usage["input"],
                    "cache_creation_input_tokens": usage["cacheWrite"],
                    "cache_read_input_tokens": usage["cacheRead"],
                    "output_tokens": usage["output"], "service_tier": "standard"}}),
                );
                put("requestId", json!(format!("req_{k:024x}")));
                put("type", json!("assistant"));
            }
            "toolResult" => {
                let text: Vec<&str> = m["content"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|b| b["text"].as_str())
                    .collect();
                put("type", json!("user"));
                put(
                    "message",
                    json!({"role": "user", "content": [{"tool_use_id": m["toolCallId"],
                    "type": "tool_result", "content": text.join("\n"), "is_error": m["isError"]}]}),
                );
            }
            _ => {
                put("type", json!("system"));
                put("subtype", m["kind"].clone());
                put("content", json!(m["data"].to_string()));
                put("level", json!("info"));
            }
        }
        put("uuid", json!(id));
        put("timestamp", json!(time));
        writeln!(out, "{line}")?;
        ids.insert(old, id);
    }
    out.flush()?;
    drop(out);
    std::fs::rename(&tmp, &file)?;
    std::fs::write(&meta, format!("{want}\n"))?;
    Ok(file)
}

/// One run of `ysess args`, stdout and stderr on /dev/null: its wall time
/// and, where GNU time is at `/usr/bin/time`, the CPU time (user + sys) it
/// reports, which a busy machine disturbs far less than the wall time.
fn timed_run(ysess: &Path, args: &[OsString]) -> Result<(Duration, Option<f64>), String> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        let timed = time_child(ysess, args, 1, Out::Null)?;
        debug_assert_eq!(timed.all.len(), 1);
        return Ok((timed.best, None));
    }
    let report = std::env::temp_dir().join(format!("ysess-bench-cpu-{}", std::process::id()));
    let start = Instant::now();
    let status = Command::new(time)
        .args(["-f", "%U %S", "-o"])
        .arg(&report)
        .arg(ysess)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("spawning /usr/bin/time: {e}"))?;
    let wall = start.elapsed();
    if !status.success() {
        return Err(format!(
            "`ysess {args:?}`: exit {:?} on a timed run",
            status.code()
        ));
    }
    let text =
        std::fs::read_to_string(&report).map_err(|e| format!("/usr/bin/time's report: {e}"))?;
    let used: Option<f64> = text.split_whitespace().map(|t| t.parse::<f64>().ok()).sum();
    Ok((wall, used))
}

fn main() -> ExitCode {
    let runs = bench_runs();
    let Some(BenchSession {
        entries,
        file: yoagent,
        ..
    }) = bench_session()
    else {
        return ExitCode::FAILURE;
    };
    let pi = match pi_file(&yoagent, entries) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: making the pi session: {e}");
            return ExitCode::FAILURE;
        }
    };
    let claude = match claude_file(&yoagent, entries) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: making the Claude Code session: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let args = |file: &Path, rest: &[&str]| -> Vec<OsString> {
        let mut v: Vec<OsString> = vec!["-f".into(), file.as_os_str().to_owned()];
        v.extend(rest.iter().map(OsString::from));
        v
    };
    // Both files are sound, in their formats, with the same entries.
    let mut counts = Vec::new();
    for (file, format) in [(&yoagent, "yoagent"), (&pi, "pi"), (&claude, "claude")] {
        match check_run(ysess, &args(file, &["fsck", "--json"])) {
            Ok(out) => {
                let summary: Value = out
                    .stdout
                    .lines()
                    .last()
                    .and_then(|l| serde_json::from_str(l).ok())
                    .unwrap_or(Value::Null);
                if summary["format"] != format || summary["errors"] != 0 {
                    eprintln!(
                        "error: {} is not a sound {format} session: {summary}",
                        file.display()
                    );
                    return ExitCode::FAILURE;
                }
                counts.push(summary["entries"].as_u64().unwrap_or(0));
            }
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
    }
    if counts[1..].iter().any(|&c| c != counts[0]) {
        eprintln!(
            "error: the pi session has {} entries, the Claude Code one {}, the yoagent one {}",
            counts[1], counts[2], counts[0]
        );
        return ExitCode::FAILURE;
    }
    let size = |f: &Path| std::fs::metadata(f).map_or(0, |m| m.len());
    let (y_bytes, p_bytes, c_bytes) = (size(&yoagent), size(&pi), size(&claude));
    let per_entry = |bytes: u64| kib(bytes / counts[0].max(1));
    println!(
        "{} entries | yoagent {} ({} an entry) | pi {} ({} an entry) | Claude Code {} ({} an entry)",
        counts[0],
        mb(y_bytes),
        per_entry(y_bytes),
        mb(p_bytes),
        per_entry(p_bytes),
        mb(c_bytes),
        per_entry(c_bytes)
    );
    println!();
    TABLE.header();
    let mut all = Vec::new();
    let mut details = Vec::new();
    for what in [&["fsck"][..], &["log", "--graph"]] {
        let files = [
            (&yoagent, y_bytes, "yoagent"),
            (&pi, p_bytes, "pi"),
            (&claude, c_bytes, "claude"),
        ];
        // Round-robin: run r of every file before run r + 1 of any, so a
        // machine that gets busier or quieter during the run weighs on all
        // three alike.
        let mut times = vec![Vec::with_capacity(runs); files.len()];
        let mut cpu = vec![Vec::with_capacity(runs); files.len()];
        for _ in 0..runs {
            for (k, (file, _, _)) in files.iter().enumerate() {
                match timed_run(ysess, &args(file, what)) {
                    Ok((wall, used)) => {
                        times[k].push(wall);
                        cpu[k].extend(used);
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        let mut per_byte = Vec::new();
        let mut cpu_per_byte = Vec::new();
        for (((file, bytes, format), timed), used) in files.into_iter().zip(times).zip(cpu) {
            let best = *timed.iter().min().expect("runs >= 1");
            if let Some(least) = used.iter().copied().reduce(f64::min) {
                cpu_per_byte.push(least / bytes as f64);
                TABLE.row(
                    &format!("  CPU time, user + sys ({format})"),
                    &format!("{:.1} ms", least * 1e3),
                    "",
                    "",
                );
            }
            let rate = bytes as f64 / secs(best) / 1e6;
            TABLE.row(
                &format!("{} ({format})", what.join(" ")),
                &ms(best),
                &format!("{rate:.0} MB/s"),
                "",
            );
            if what == ["fsck"] {
                match support::peak_rss(ysess, &args(file, what), 1) {
                    Ok(rss) => {
                        TABLE.rss_rows(
                            &format!("fsck peak RSS ({format}, {})", rss.method),
                            "  / file size",
                            rss.kib,
                            bytes,
                            None,
                        );
                        details.push(format!("{format}: {}", rss.detail));
                    }
                    Err(e) => eprintln!("warning: peak RSS: {e}"),
                }
            }
            per_byte.push(best.as_secs_f64() / bytes as f64);
            all.push((format!("{} ({format})", what.join(" ")), timed));
        }
        for (i, format) in [(1, "pi"), (2, "claude")] {
            let ratio = per_byte[i] / per_byte[0];
            TABLE.row(
                &format!("{}: {format} / yoagent, per byte", what.join(" ")),
                &format!("{ratio:.2}x"),
                "<= 1x",
                support::pass(ratio <= 1.0),
            );
            if let [y, rest @ ..] = &cpu_per_byte[..] {
                let ratio = rest[i - 1] / y;
                TABLE.row(
                    &format!("  CPU time: {format} / yoagent, per byte"),
                    &format!("{ratio:.2}x"),
                    "<= 1x",
                    support::pass(ratio <= 1.0),
                );
            }
        }
    }
    println!();
    for detail in details {
        println!("peak RSS detail, {detail}");
    }
    println!("best of {runs}; all runs:");
    for (what, times) in all {
        println!("  {what:<24} {}", list_ms(&times));
    }
    ExitCode::SUCCESS
}
