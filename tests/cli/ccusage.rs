//! ccusage, pinned in `tests/ccusage/` (`npm install --prefix tests/ccusage`,
//! which the tests run once when it is missing; `YSESS_SKIP=ccusage` skips
//! them knowingly, never under CI),
//! is the second oracle of Claude Code and Codex accounts: on every Claude
//! Code fixture ysess reads, `ysess stats --json`'s totals equal ccusage's
//! session report, token for token, and its cost to the cent's millionth;
//! on every rollout a real Codex wrote, its `codex session` report.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::Dir;

pub fn ccusage() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ccusage/node_modules/.bin/ccusage")
}

/// Why ccusage cannot run here, if it cannot. Where it is not installed
/// yet and npm is there, installs the pinned version first (once per run),
/// as `.ci/run` does.
pub fn ccusage_missing() -> Option<String> {
    static SET_UP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SET_UP
        .get_or_init(|| {
            if !ccusage().is_file() {
                let _ = writeln!(
                    std::io::stderr(),
                    "setting up the ccusage tests: npm install --prefix tests/ccusage (once)"
                );
                let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ccusage");
                let ran = Command::new("npm")
                    .args(["install", "--prefix"])
                    .arg(&dir)
                    .args(["--ignore-scripts", "--no-audit", "--no-fund"])
                    .output();
                if !ran.is_ok_and(|o| o.status.success()) || !ccusage().is_file() {
                    return Some(format!(
                        "{} is missing, and `npm install --prefix tests/ccusage` could not install it",
                        ccusage().display()
                    ));
                }
            }
            match Command::new("node").arg("--version").output() {
                Ok(out) if out.status.success() => None,
                _ => Some("node cannot start; install Node.js 20 or newer".to_string()),
            }
        })
        .clone()
}

/// ccusage's JSON report (`ccusage ARGS… --json --offline`) with `env`.
pub fn ccusage_json(args: &[&str], env: &[(&str, &str)]) -> serde_json::Value {
    let mut cmd = Command::new(ccusage());
    cmd.args(args).args(["--json", "--offline"]);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("ccusage starts");
    assert!(
        out.status.success(),
        "ccusage {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("ccusage's JSON")
}

/// A ccusage report's `totals`: input, output, cache read, cache write,
/// the total of tokens, and the cost (`totalCost`, or `costUSD` in the
/// Codex reports).
pub struct Totals {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    pub cache_write: u64,
    pub total: u64,
    pub cost: f64,
}

pub fn totals(report: &serde_json::Value) -> Totals {
    let t = &report["totals"];
    let n = |k: &str| t[k].as_u64().unwrap_or(0);
    Totals {
        input: n("inputTokens"),
        output: n("outputTokens"),
        cache_read: n("cacheReadTokens"),
        cache_write: n("cacheCreationTokens"),
        total: n("totalTokens"),
        cost: t["totalCost"]
            .as_f64()
            .or(t["costUSD"].as_f64())
            .unwrap_or(0.0),
    }
}

/// ccusage's session totals for one file alone in a Claude home:
/// (input, output, cache read, cache write, cost).
fn ccusage_totals(file: &Path) -> (u64, u64, u64, u64, f64) {
    let home = Dir::new();
    let projects = home.join("projects/-home-dana-src-ystats");
    std::fs::create_dir_all(&projects).expect("a projects folder");
    let name = file.file_name().expect("a file name");
    std::fs::copy(file, projects.join(name)).expect("copied");
    // Its subagents' files, in Claude Code 2.1's layout, go with it.
    let stem = file.file_stem().expect("a stem");
    let subagents = file.with_file_name(stem).join("subagents");
    if let Ok(read) = std::fs::read_dir(&subagents) {
        let to = projects.join(stem).join("subagents");
        std::fs::create_dir_all(&to).expect("a subagents folder");
        for entry in read.filter_map(Result::ok) {
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copied");
        }
    }
    let config = home.path().to_str().expect("a UTF-8 path");
    let t = totals(&ccusage_json(
        &["session"],
        &[("CLAUDE_CONFIG_DIR", config)],
    ));
    (t.input, t.output, t.cache_read, t.cache_write, t.cost)
}

#[test]
fn stats_totals_equal_ccusage_on_every_claude_code_fixture() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .expect("the fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let dir = Dir::new();
    let mut compared = 0;
    for file in &files {
        let path = file.to_str().expect("a UTF-8 path");
        let run = dir.run(&["-f", path, "stats", "--json"]);
        if run.status == Some(128) {
            // A file ysess refuses (broken.jsonl) has no account to compare.
            assert!(run.stderr.contains("not a valid session"), "{run}");
            continue;
        }
        run.status(0);
        let total = run.stats_total();
        let k = &total["tokens"];
        let n = |key: &str| k[key].as_u64().unwrap_or(0);
        let (input, output, read, write, cost) = ccusage_totals(file);
        assert_eq!(
            (n("input"), n("output"), n("cache_read"), n("cache_write")),
            (input, output, read, write),
            "{}: ysess (in, out, read, write) against ccusage",
            file.display()
        );
        let ours = total["cost"].as_f64().unwrap_or(0.0);
        assert!(
            (ours - cost).abs() < 1e-9,
            "{}: ysess's cost {ours} against ccusage's {cost}",
            file.display()
        );
        compared += 1;
    }
    assert!(compared >= 5, "compared {compared} fixtures");
}

#[test]
fn a_session_with_a_subagents_folder_totals_as_ccusage_counts_it() {
    let session = "7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f";
    let home = Dir::new();
    let project = home.join("projects/-home-dana-src-ystats");
    let subagents = project.join(session).join("subagents");
    std::fs::create_dir_all(&subagents).expect("folders");
    let fixture = |name: &str| {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/claude")
                .join(name),
        )
        .expect("a fixture")
    };
    let main = project.join(format!("{session}.jsonl"));
    std::fs::write(&main, fixture("today.jsonl")).expect("written");
    // The subagent's lines name the session they belong to.
    let agent =
        fixture("agent-a3f9c2e1.jsonl").replace("7d1e2c3b-4a5f-4e6d-8c7b-9a0b1c2d3e4f", session);
    std::fs::write(subagents.join("agent-a3f9c2e1.jsonl"), agent).expect("written");
    let run = home.run(&["-f", main.to_str().expect("UTF-8"), "stats", "--json"]);
    run.status(0);
    let lines = run.json_lines();
    let sub = lines
        .iter()
        .find(|l| l["type"] == "subagent")
        .expect("the subagent's account");
    assert_eq!(sub["name"], "a3f9c2e1", "{run}");
    assert_eq!(sub["tokens"]["output"], 35, "{run}");
    let total = run.stats_total();
    let k = &total["tokens"];
    // 16 + 18 in, 201 + 35 out, 7,000 + 900 read, 2,520 + 900 written.
    assert_eq!(
        (
            k["input"].clone(),
            k["output"].clone(),
            k["cache_read"].clone(),
            k["cache_write"].clone()
        ),
        (34.into(), 236.into(), 7900.into(), 3420.into()),
        "{run}"
    );
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let out = Command::new(ccusage())
        .args(["session", "--json", "--offline"])
        .env("CLAUDE_CONFIG_DIR", home.path())
        .output()
        .expect("ccusage starts");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let t = &report["totals"];
    assert_eq!(
        (
            t["inputTokens"].clone(),
            t["outputTokens"].clone(),
            t["cacheReadTokens"].clone(),
            t["cacheCreationTokens"].clone()
        ),
        (34.into(), 236.into(), 7900.into(), 3420.into())
    );
    let cost = total["cost"].as_f64().unwrap_or(0.0);
    assert!(
        (cost - t["totalCost"].as_f64().unwrap_or(0.0)).abs() < 1e-9,
        "{cost}"
    );
}

/// A Claude home of every Claude Code fixture that ccusage and ysess both
/// read whole (`broken.jsonl` ysess refuses; the top-level copy of a
/// subagent's file is no session), each file named as Claude Code names it
/// by its session, a subagent's file in its session's folder.
fn claude_home() -> Dir {
    let home = Dir::new();
    let project = home.join("projects/-home-dana-src-ystats");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude");
    for entry in std::fs::read_dir(&folder)
        .expect("the fixtures")
        .filter_map(Result::ok)
    {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            let subagents = path.join("subagents");
            let to = project.join(&name).join("subagents");
            std::fs::create_dir_all(&to).expect("a subagents folder");
            for sub in std::fs::read_dir(&subagents)
                .expect("subagents")
                .filter_map(Result::ok)
            {
                std::fs::copy(sub.path(), to.join(sub.file_name())).expect("copied");
            }
        } else if name.ends_with(".jsonl") && name != "broken.jsonl" && !name.starts_with("agent-")
        {
            std::fs::create_dir_all(&project).expect("a project folder");
            std::fs::copy(&path, project.join(&name)).expect("copied");
        }
    }
    home
}

/// ccusage's REPORT (`daily`, `monthly`, `session`) of the home, by its
/// `period`: (input, output, cache read, cache write, cost).
fn ccusage_report(home: &Dir, report: &str) -> Vec<(String, [u64; 4], f64)> {
    let config = home.path().to_str().expect("a UTF-8 path");
    let json = ccusage_json(&[report], &[("CLAUDE_CONFIG_DIR", config), ("TZ", "UTC")]);
    let key = if report == "session" {
        "session"
    } else {
        report
    };
    json[key]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            let n = |k: &str| r[k].as_u64().unwrap_or(0);
            (
                r["period"].as_str().expect("a period").to_string(),
                [
                    n("inputTokens"),
                    n("outputTokens"),
                    n("cacheReadTokens"),
                    n("cacheCreationTokens"),
                ],
                r["totalCost"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

/// `ysess stats --all --by BY --json` over the same home: (name, tokens,
/// cost) of each group.
fn ysess_groups(home: &Dir, by: &str) -> Vec<(String, [u64; 4], f64)> {
    let run = home.run_with(
        &["stats", "--all", "--by", by, "--json"],
        None,
        &[
            ("CLAUDE_CONFIG_DIR", home.path().to_str().expect("UTF-8")),
            ("HOME", home.join("no-home").to_str().expect("UTF-8")),
            ("YSESS_PATH", ""),
            ("CODEX_HOME", ""),
            ("PI_CODING_AGENT_DIR", ""),
            ("PI_CODING_AGENT_SESSION_DIR", ""),
        ],
    );
    run.status(0);
    run.json_lines()
        .into_iter()
        .filter(|l| l["type"] != "total")
        .map(|l| {
            let t = &l["tokens"];
            let n = |k: &str| t[k].as_u64().unwrap_or(0);
            (
                l["name"].as_str().expect("a name").to_string(),
                [n("input"), n("output"), n("cache_read"), n("cache_write")],
                l["cost"].as_f64().unwrap_or(0.0),
            )
        })
        .collect()
}

#[test]
fn stats_all_equals_ccusage_daily_monthly_and_session_reports_to_the_token() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let home = claude_home();
    for (by, report) in [
        ("day", "daily"),
        ("month", "monthly"),
        ("session", "session"),
    ] {
        let theirs = ccusage_report(&home, report);
        let ours = ysess_groups(&home, by);
        assert!(theirs.len() >= 2, "{report}: {theirs:?}");
        for (period, tokens, cost) in &theirs {
            let mine = ours
                .iter()
                .find(|g| &g.0 == period)
                .unwrap_or_else(|| panic!("--by {by}: no {period}; ysess has {ours:?}"));
            assert_eq!(
                &mine.1, tokens,
                "--by {by} {period}: tokens against ccusage {report}"
            );
            assert!(
                (mine.2 - cost).abs() < 1e-9,
                "--by {by} {period}: cost {} against {cost}",
                mine.2
            );
        }
        // What ccusage leaves out, a group with turns but no usage (a
        // session of slash commands), has no tokens in ysess either.
        for (name, tokens, _) in &ours {
            if !theirs.iter().any(|t| &t.0 == name) {
                assert_eq!(
                    tokens, &[0; 4],
                    "--by {by} {name}: only in ysess, yet it used tokens"
                );
            }
        }
    }
}

/// ccusage's `codex session` totals for one rollout alone in a Codex home:
/// (input not cached, output, cache read, total, cost).
fn ccusage_codex_totals(file: &Path) -> (u64, u64, u64, u64, f64) {
    let home = Dir::new();
    let day = home.join("sessions/2026/12/06");
    std::fs::create_dir_all(&day).expect("a sessions folder");
    let name = file.file_name().expect("a file name").to_string_lossy();
    std::fs::copy(file, day.join(format!("rollout-{name}"))).expect("copied");
    let codex_home = home.path().to_str().expect("a UTF-8 path");
    let report = ccusage_json(&["codex", "session"], &[("CODEX_HOME", codex_home)]);
    assert_eq!(
        report["sessions"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    let t = totals(&report);
    (t.input, t.output, t.cache_read, t.total, t.cost)
}

#[test]
fn stats_totals_equal_ccusage_codex_on_rollouts_real_codex_wrote() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let dir = Dir::new();
    for (file, _) in crate::codex::written_by_codex() {
        let path = file.to_str().expect("a UTF-8 path");
        let run = dir.run(&["-f", path, "stats", "--json"]);
        run.status(0);
        let total = run.stats_total();
        let k = &total["tokens"];
        let n = |key: &str| k[key].as_u64().unwrap_or(0);
        let (input, output, read, all, cost) = ccusage_codex_totals(&file);
        assert!(all > 0, "{path}: ccusage counts nothing");
        assert_eq!(
            (n("input"), n("output"), n("cache_read"), n("total")),
            (input, output, read, all),
            "{path}: ysess (in, out, read, total) against ccusage codex"
        );
        let ours = total["cost"].as_f64().unwrap_or(0.0);
        assert!(
            (ours - cost).abs() < 1e-9,
            "{path}: ysess's cost {ours} against ccusage's {cost}"
        );
    }
}

/// A Claude Code session of the models the old hand-written table priced
/// as their family (Opus 4.6 and 4.7 as Opus 4, at three times their
/// price), with one-hour cache writes and a request above 200,000 tokens.
fn priced_session(dir: &Dir) -> PathBuf {
    let line = |n: u32, model: &str, usage: &str| {
        format!(
            r#"{{"parentUuid":{parent},"isSidechain":false,"type":"assistant","uuid":"a{n}","sessionId":"s1","timestamp":"2026-03-01T10:00:0{n}.000Z","message":{{"model":"{model}","id":"msg_{n}","type":"message","role":"assistant","content":[{{"type":"text","text":"ok"}}],"usage":{usage}}},"requestId":"req_{n}","cwd":"/x","version":"2.1.0"}}"#,
            parent = if n == 1 {
                "\"u0\"".to_string()
            } else {
                format!("\"a{}\"", n - 1)
            },
        )
    };
    let lines = [
        r#"{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u0","sessionId":"s1","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"go"},"cwd":"/x","version":"2.1.0"}"#.to_string(),
        line(1, "claude-opus-4-6", r#"{"input_tokens":1200,"output_tokens":800,"cache_read_input_tokens":40000,"cache_creation_input_tokens":30000,"cache_creation":{"ephemeral_5m_input_tokens":10000,"ephemeral_1h_input_tokens":20000}}"#),
        line(2, "claude-opus-4-7", r#"{"input_tokens":10,"output_tokens":2000,"cache_read_input_tokens":70000,"cache_creation_input_tokens":5000,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":5000}}"#),
        line(3, "claude-sonnet-4-5-20250929", r#"{"input_tokens":250000,"output_tokens":100,"cache_read_input_tokens":0,"cache_creation_input_tokens":260000,"cache_creation":{"ephemeral_5m_input_tokens":30000,"ephemeral_1h_input_tokens":230000}}"#),
    ];
    let project = dir.join("projects/-x");
    std::fs::create_dir_all(&project).expect("a project folder");
    let file = project.join("s1.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").expect("written");
    file
}

#[test]
fn one_hour_cache_writes_and_opus_4_6_cost_what_ccusage_says() {
    let home = Dir::new();
    let file = priced_session(&home);
    let run = home.run(&["-f", file.to_str().expect("UTF-8"), "stats", "--json"]);
    run.status(0);
    let total = run.stats_total();
    assert_eq!(total["tokens"]["cache_write"], 295_000, "{run}");
    assert_eq!(total["tokens"]["cache_write_1h"], 255_000, "{run}");
    let ours = total["cost"].as_f64().expect("a cost");
    // From LiteLLM's table (litellm 1.103.0), dollars per million tokens:
    // Opus 4.6 and 4.7 at 5 in, 25 out, 0.5 read, 6.25 and 10 written;
    // Sonnet 4.5 at 3, 15, 0.3, 3.75 and 6, and 6, 22.5, 0.6, 7.5 and 12
    // above 200,000 tokens of a kind.
    let opus46 = 1200.0 * 5.0 + 800.0 * 25.0 + 40000.0 * 0.5 + 10000.0 * 6.25 + 20000.0 * 10.0;
    let opus47 = 10.0 * 5.0 + 2000.0 * 25.0 + 70000.0 * 0.5 + 5000.0 * 10.0;
    let sonnet = 200_000.0 * 3.0
        + 50_000.0 * 6.0
        + 100.0 * 15.0
        + 30000.0 * 3.75
        + 200_000.0 * 6.0
        + 30_000.0 * 12.0;
    let want = (opus46 + opus47 + sonnet) / 1e6;
    assert!((ours - want).abs() < 1e-9, "ysess {ours}, by hand {want}");
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let out = Command::new(ccusage())
        .args(["session", "--json", "--offline"])
        .env("CLAUDE_CONFIG_DIR", home.path())
        .output()
        .expect("ccusage starts");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("ccusage's JSON");
    let theirs = report["totals"]["totalCost"].as_f64().unwrap_or(0.0);
    assert!(
        (ours - theirs).abs() < 1e-9,
        "ysess's cost {ours} against ccusage's {theirs}"
    );
}

#[test]
fn codex_stats_equal_ccusage_codex_session_report() {
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/codex/rollout.jsonl");
    let home = Dir::new();
    let day = home.join("sessions/2025/11/20");
    std::fs::create_dir_all(&day).expect("a sessions folder");
    let file = day.join("rollout-2025-11-20T10-00-00-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl");
    std::fs::copy(&fixture, &file).expect("copied");
    let run = home.run(&["-f", file.to_str().expect("UTF-8"), "stats", "--json"]);
    run.status(0);
    let total = run.stats_total();
    let codex_home = home.path().to_str().expect("a UTF-8 path");
    let report = ccusage_json(&["codex", "session"], &[("CODEX_HOME", codex_home)]);
    let t = &report["totals"];
    let k = &total["tokens"];
    assert_eq!(
        (
            k["input"].clone(),
            k["output"].clone(),
            k["cache_read"].clone()
        ),
        (
            t["inputTokens"].clone(),
            t["outputTokens"].clone(),
            t["cacheReadTokens"].clone()
        ),
        "{run}"
    );
    let ours = total["cost"].as_f64().expect("a cost");
    let theirs = t["costUSD"].as_f64().expect("ccusage's cost");
    assert!(
        (ours - theirs).abs() < 1e-9,
        "ysess {ours}, ccusage {theirs}"
    );
}

#[test]
fn fast_mode_replies_cost_what_ccusage_says() {
    // Claude Code marks a reply in fast mode with `usage.speed: "fast"`;
    // Opus 4.6 and 4.7 then cost six times their price, Opus 4.8 twice,
    // and models without a fast price the same (ccusage 20.0.24's prices).
    let home = Dir::new();
    let project = home.join("projects/-x");
    std::fs::create_dir_all(&project).expect("a project folder");
    let mut lines = vec![
        r#"{"parentUuid":null,"isSidechain":false,"type":"user","uuid":"u0","sessionId":"s1","timestamp":"2026-03-01T10:00:00.000Z","message":{"role":"user","content":"go"},"cwd":"/x","version":"2.1.0"}"#.to_string(),
    ];
    let models = [
        "claude-opus-4-6",
        "claude-opus-4-7",
        "claude-opus-4-8",
        "claude-opus-4-5-20251101",
        "claude-sonnet-4-6",
    ];
    let mut n = 0;
    for model in models {
        for speed in ["standard", "fast"] {
            n += 1;
            let parent = if n == 1 {
                "u0".to_string()
            } else {
                format!("a{}", n - 1)
            };
            lines.push(format!(
                r#"{{"parentUuid":"{parent}","isSidechain":false,"type":"assistant","uuid":"a{n}","sessionId":"s1","timestamp":"2026-03-01T10:00:{n:02}.000Z","message":{{"model":"{model}","id":"msg_{n}","type":"message","role":"assistant","content":[{{"type":"text","text":"ok"}}],"usage":{{"input_tokens":1000,"output_tokens":500,"cache_read_input_tokens":20000,"cache_creation_input_tokens":3000,"cache_creation":{{"ephemeral_5m_input_tokens":1000,"ephemeral_1h_input_tokens":2000}},"speed":"{speed}"}}}},"requestId":"req_{n}","cwd":"/x","version":"2.1.0"}}"#
            ));
        }
    }
    let file = project.join("s1.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").expect("written");
    let run = home.run(&["-f", file.to_str().expect("UTF-8"), "stats", "--json"]);
    let ours = run.status(0).stats_total()["cost"]
        .as_f64()
        .expect("a cost");
    if let Some(why) = ccusage_missing() {
        crate::support::missing(&crate::support::CCUSAGE, &why);
        return;
    }
    let config = home.path().to_str().expect("a UTF-8 path");
    let report = ccusage_json(&["session"], &[("CLAUDE_CONFIG_DIR", config)]);
    let theirs = report["totals"]["totalCost"].as_f64().unwrap_or(0.0);
    assert!(
        (ours - theirs).abs() < 1e-9,
        "ysess {ours}, ccusage {theirs}"
    );
    // Fast mode made a difference: the same replies at standard speed cost less.
    let standard = std::fs::read_to_string(&file)
        .expect("reads")
        .replace(r#""speed":"fast""#, r#""speed":"standard""#);
    let plain = home.write("standard.jsonl", standard);
    let run = home.run(&["-f", plain.to_str().expect("UTF-8"), "stats", "--json"]);
    let slow = run.status(0).stats_total()["cost"]
        .as_f64()
        .expect("a cost");
    assert!(ours > slow * 1.5, "fast {ours}, standard {slow}");
}
