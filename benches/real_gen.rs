//! A home of real shapes for the `home` bench: Claude Code sessions made of
//! the lines Claude Code itself wrote (`tests/fixtures/agents/claude/`, each
//! scenario's session), with the weight real sessions carry and generated
//! sessions lack:
//! - tool results of 2 to 64 KB, in the message and again in
//!   `toolUseResult` (as Claude Code keeps a command's output twice);
//! - a burst of `bash_progress` lines after each tool call (0 to 120, each
//!   with the output so far), so that a long session holds thousands;
//! - subagent folders (`<session>/subagents/agent-*.jsonl` and its
//!   `.meta.json`) beside one session in five;
//! - sizes from a long-tailed draw (most sessions small, a few of tens of
//!   megabytes), summing to the home's size.
//!
//! Each session repeats one scenario's lines with fresh ids (every UUID,
//! message id, request id and tool id of a repetition its own, so that no
//! two repetitions share one and ccusage counts each reply), its days moved
//! to one of four weeks. Made once into
//! `target/bench/real-<sessions>-<mb>/` with a `.meta` marker.

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use serde_json::Value;

use crate::support::ms;

const GEN: u32 = 2;

/// A small deterministic generator (splitmix64): the home is the same on
/// every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// A subagent's lines as Claude Code wrote them, and its `.meta.json`.
type Agent = (Vec<Value>, String);

/// Every scenario's session as Claude Code wrote it, and every subagent.
struct Scenarios {
    sessions: Vec<Vec<Value>>,
    agents: Vec<Agent>,
}

fn read_lines(path: &Path) -> std::io::Result<Vec<Value>> {
    Ok(std::fs::read_to_string(path)?
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect())
}

fn scenarios() -> std::io::Result<Scenarios> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/claude");
    let mut out = Scenarios {
        sessions: Vec::new(),
        agents: Vec::new(),
    };
    let mut names: Vec<PathBuf> = std::fs::read_dir(&root)?
        .flatten()
        .map(|e| e.path())
        .collect();
    names.sort();
    for dir in names {
        for project in std::fs::read_dir(dir.join("projects"))?.flatten() {
            for f in std::fs::read_dir(project.path())?.flatten() {
                let path = f.path();
                if path.extension().is_none_or(|x| x != "jsonl") {
                    continue;
                }
                let sub = path.with_extension("").join("subagents");
                for a in std::fs::read_dir(&sub).into_iter().flatten().flatten() {
                    let p = a.path();
                    let name = p.file_name().unwrap_or_default().to_string_lossy();
                    if name.ends_with(".jsonl") {
                        let meta = std::fs::read_to_string(p.with_extension("meta.json"))
                            .unwrap_or_default();
                        out.agents.push((read_lines(&p)?, meta));
                    }
                }
                out.sessions.push(read_lines(&path)?);
            }
        }
    }
    Ok(out)
}

fn is_uuid(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 36
        && [8, 13, 18, 23].iter().all(|&i| b[i] == b'-')
        && b.iter()
            .enumerate()
            .all(|(i, c)| [8, 13, 18, 23].contains(&i) || c.is_ascii_hexdigit())
}

/// Fresh ids for one repetition: the same original id maps to the same new
/// one within it.
struct Ids {
    salt: u64,
    map: HashMap<String, String>,
}

impl Ids {
    fn new(salt: u64) -> Ids {
        Ids {
            salt,
            map: HashMap::new(),
        }
    }
    fn fresh(&mut self, old: &str) -> String {
        let n = self.map.len() as u64;
        let salt = self.salt;
        self.map
            .entry(old.to_string())
            .or_insert_with(|| {
                let mut r = Rng(salt ^ n.wrapping_mul(0x2545_F491_4F6C_DD1D));
                let (a, b) = (r.next(), r.next());
                if is_uuid(old) {
                    format!(
                        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
                        a as u32,
                        (a >> 32) as u16,
                        (a >> 48) & 0xfff,
                        b & 0xfff,
                        b >> 16
                    )
                } else {
                    let cut = old.find('_').map_or(0, |i| i + 1);
                    format!("{}{:016x}{:08x}", &old[..cut], a, b as u32)
                }
            })
            .clone()
    }
}

/// Gives every id in `v` a fresh one, the session id `session`, and the
/// day `day`.
fn rename(v: &mut Value, ids: &mut Ids, session: &str, day: &str) {
    match v {
        Value::Object(map) => {
            for (k, x) in map.iter_mut() {
                match (k.as_str(), &mut *x) {
                    ("sessionId" | "session_id", Value::String(_)) => {
                        *x = session.into();
                    }
                    ("timestamp", Value::String(t)) if t.len() > 10 => {
                        *t = format!("{day}{}", &t[10..]);
                    }
                    (_, Value::String(s))
                        if is_uuid(s)
                            || ["msg_", "req_", "toolu_"].iter().any(|p| s.starts_with(p)) =>
                    {
                        *s = ids.fresh(s);
                    }
                    _ => rename(x, ids, session, day),
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| rename(x, ids, session, day)),
        _ => {}
    }
}

/// Output of `bytes` bytes that reads like a command's or a file's.
fn output(rng: &mut Rng, bytes: usize) -> String {
    const WORDS: [&str; 12] = [
        "fn", "let", "match", "count", "lines", "tally", "result", "error", "path", "self",
        "return", "value",
    ];
    let mut s = String::with_capacity(bytes + 80);
    let mut n = 1;
    while s.len() < bytes {
        s.push_str(&format!("{n:>5}\t"));
        for _ in 0..(4 + rng.below(9)) {
            s.push_str(WORDS[rng.below(WORDS.len() as u64) as usize]);
            s.push(' ');
        }
        s.push('\n');
        n += 1;
    }
    s
}

/// Weighs the tool results of a user line down with `out`.
fn weigh(v: &mut Value, out: &str) {
    let mut weighed = false;
    if let Some(blocks) = v["message"]["content"].as_array_mut() {
        for b in blocks {
            if b["type"] == "tool_result" && b["content"].is_string() {
                b["content"] = out.into();
                weighed = true;
            }
        }
    }
    if weighed && v["toolUseResult"]["stdout"].is_string() {
        v["toolUseResult"]["stdout"] = out.into();
    }
}

/// A `bash_progress` line after the tool call `call` (an assistant line).
fn progress(call: &Value, k: usize, so_far: &str, rng: &mut Rng) -> Value {
    let tool = call["message"]["content"][0]["id"].clone();
    let tail: String = so_far.lines().rev().take(5).collect::<Vec<_>>().join("\n");
    let mut ids = Ids::new(rng.next());
    serde_json::json!({
        "parentUuid": call["uuid"],
        "isSidechain": false,
        "userType": "external",
        "cwd": call["cwd"],
        "sessionId": call["sessionId"],
        "version": call["version"],
        "gitBranch": call["gitBranch"],
        "type": "progress",
        "data": {
            "type": "bash_progress",
            "output": tail,
            "fullOutput": so_far,
            "elapsedTimeSeconds": k,
            "totalLines": so_far.lines().count(),
        },
        "toolUseID": tool,
        "parentToolUseID": tool,
        "uuid": ids.fresh("00000000-0000-4000-8000-000000000000"),
        "timestamp": call["timestamp"],
    })
}

/// Writes one session of about `bytes` into `project`, repeating `lines`;
/// `agents` as its subagents beside it.
fn session(
    project: &Path,
    id: &str,
    (lines, agents): (&[Value], &[Agent]),
    bytes: u64,
    day: &str,
    rng: &mut Rng,
) -> std::io::Result<u64> {
    let path = project.join(format!("{id}.jsonl"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path)?);
    let mut written = 0u64;
    let mut last: Option<Value> = None;
    while written < bytes {
        let mut ids = Ids::new(rng.next());
        let mut rooted = false;
        for line in lines {
            // A session ends anywhere, mid-turn too.
            if written >= bytes {
                break;
            }
            let mut v = line.clone();
            rename(&mut v, &mut ids, id, day);
            // A repetition goes on from the last: its root hangs there.
            if !rooted
                && v.get("parentUuid").is_some_and(Value::is_null)
                && let Some(prev) = &last
            {
                v["parentUuid"] = prev.clone();
                rooted = true;
            }
            if v["type"] == "user" {
                let n = 2048 + rng.below(62 << 10) as usize;
                let long = output(rng, n);
                weigh(&mut v, &long);
            }
            let text = v.to_string();
            writeln!(out, "{text}")?;
            written += text.len() as u64 + 1;
            let calls =
                v["type"] == "assistant" && v["message"]["content"][0]["type"] == "tool_use";
            if calls {
                let mut so_far = String::new();
                for k in 0..rng.below(121) as usize {
                    let n = 40 + rng.below(200) as usize;
                    so_far.push_str(&output(rng, n));
                    if so_far.len() > 4096 {
                        so_far.drain(..so_far.len() - 4096);
                    }
                    let p = progress(&v, k, &so_far, rng).to_string();
                    writeln!(out, "{p}")?;
                    written += p.len() as u64 + 1;
                }
            }
            if let Some(u) = v.get("uuid").filter(|u| u.is_string()) {
                last = Some(u.clone());
            }
        }
    }
    out.flush()?;
    if !agents.is_empty() {
        let dir = project.join(id).join("subagents");
        std::fs::create_dir_all(&dir)?;
        for (lines, meta) in agents {
            let mut ids = Ids::new(rng.next());
            let name = format!("agent-{:016x}", rng.next());
            let mut text = String::new();
            for line in lines {
                let mut v = line.clone();
                rename(&mut v, &mut ids, id, day);
                if v.get("agentId").is_some() {
                    v["agentId"] = name.trim_start_matches("agent-").into();
                }
                text.push_str(&v.to_string());
                text.push('\n');
            }
            written += text.len() as u64;
            std::fs::write(dir.join(format!("{name}.jsonl")), text)?;
            std::fs::write(dir.join(format!("{name}.meta.json")), meta)?;
        }
    }
    Ok(written)
}

/// Makes (or reuses) the home: `sessions` sessions, about `megabytes` in all.
pub fn make_home(sessions: usize, megabytes: usize) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("target/bench/real-{sessions}-{megabytes}"));
    let meta = dir.join(".meta");
    let marker = format!("gen={GEN} sessions={sessions} mb={megabytes}\n");
    if std::fs::read_to_string(&meta).is_ok_and(|m| m == marker) {
        println!("reusing {}", dir.display());
        return Ok(dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "generating {} ({sessions} sessions of real shapes, {megabytes} MB) ...",
        dir.display()
    );
    let t = Instant::now();
    let scenarios = scenarios()?;
    let mut rng = Rng(0x5EED_0042);
    // A long tail: Pareto weights (shape 1.2), capped at 200 times the
    // smallest, scaled to the home's size.
    let weights: Vec<f64> = (0..sessions)
        .map(|_| (1.0 - rng.unit()).powf(-1.0 / 1.2).min(200.0))
        .collect();
    let sum: f64 = weights.iter().sum();
    let total = (megabytes as f64) * (1u64 << 20) as f64;
    let mut written = 0;
    for (k, w) in weights.iter().enumerate() {
        let project = dir.join(format!(
            ".claude/projects/-home-dana-src-project{:02}",
            k % 20
        ));
        std::fs::create_dir_all(&project)?;
        let day = format!("2026-11-{:02}", 1 + k % 28);
        let mut ids = Ids::new(rng.next());
        let id = ids.fresh("00000000-0000-4000-8000-000000000000");
        let lines = &scenarios.sessions[k % scenarios.sessions.len()];
        let agents: &[Agent] = if k % 5 == 0 { &scenarios.agents } else { &[] };
        let bytes = (total * w / sum) as u64;
        written += session(&project, &id, (lines, agents), bytes, &day, &mut rng)?;
    }
    std::fs::write(&meta, marker)?;
    println!("generated {} MB in {}", written >> 20, ms(t.elapsed()));
    Ok(dir)
}
