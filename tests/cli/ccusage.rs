//! ccusage, pinned in `tests/ccusage/` (`npm install --prefix tests/ccusage`,
//! which the tests run once when it is missing; `YSESS_SKIP=ccusage` skips
//! them knowingly, never under CI),
//! is the second oracle of Claude Code accounts: on every Claude Code
//! fixture ysess reads, `ysess stats --json`'s totals equal ccusage's
//! session report, token for token, and its cost to the cent's millionth.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::Dir;

fn ccusage() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ccusage/node_modules/.bin/ccusage")
}

/// Why ccusage cannot run here, if it cannot. Where it is not installed
/// yet and npm is there, installs the pinned version first (once per run),
/// as `.ci/run` does.
fn ccusage_missing() -> Option<String> {
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
    let out = Command::new(ccusage())
        .args(["session", "--json", "--offline"])
        .env("CLAUDE_CONFIG_DIR", home.path())
        .output()
        .expect("ccusage starts");
    assert!(
        out.status.success(),
        "ccusage: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("ccusage's JSON");
    let t = &report["totals"];
    let n = |k: &str| t[k].as_u64().unwrap_or(0);
    (
        n("inputTokens"),
        n("outputTokens"),
        n("cacheReadTokens"),
        n("cacheCreationTokens"),
        t["totalCost"].as_f64().unwrap_or(0.0),
    )
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
