//! `cargo bench --bench stats`: `ysess stats` on the 200,000-entry bench
//! session (`target/bench/session-200000.jsonl`, generated if missing),
//! against yoagent's load of the same file followed by a sum of the usage of
//! every entry, and against `ysess fsck` (reading and checking the file,
//! which `stats` does first) in the same run.
//!
//! Environment: `YSESS_BENCH_ENTRIES` (default 200,000) and
//! `YSESS_BENCH_RUNS` (default 3; the best run is shown).
//!
//! Before timing, `stats --json` is run once and its total is checked
//! against yoagent's sum (entries, tokens), so the timed command is known to
//! give the right answer.

#[path = "support.rs"]
mod support;

use std::ffi::OsString;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use support::{
    BenchSession, Out, Table, bench_runs, bench_session, check_run, kib, list_ms, mb, ms, peak_rss,
    secs, time_child,
};

const TABLE: Table = Table { what: 44 };

fn main() -> ExitCode {
    let runs = bench_runs();
    let Some(BenchSession { file, bytes, .. }) = bench_session() else {
        return ExitCode::FAILURE;
    };

    // yoagent: load, then sum every assistant message's usage.
    let mut load_sum = None;
    let mut expected = (0u64, 0u64, 0u64);
    for _ in 0..runs {
        let t = Instant::now();
        let text = std::fs::read_to_string(&file).expect("the bench file reads");
        let session = yoagent::Session::from_jsonl(&text).expect("yoagent loads it");
        let (mut n, mut input, mut output) = (0u64, 0u64, 0u64);
        for e in session.entries() {
            n += 1;
            if let yoagent::AgentMessage::Llm(yoagent::Message::Assistant { usage, .. }) =
                &e.message
            {
                input += usage.input;
                output += usage.output;
            }
        }
        let took = t.elapsed();
        expected = (n, input, output);
        load_sum = Some(load_sum.map_or(took, |b: std::time::Duration| b.min(took)));
    }
    let load_sum = load_sum.expect("runs >= 1");

    let ysess = Path::new(env!("CARGO_BIN_EXE_ysess"));
    let f: OsString = file.clone().into();
    let stats_args: Vec<OsString> = vec!["-f".into(), f.clone(), "stats".into()];
    let json_args: Vec<OsString> = vec!["-f".into(), f.clone(), "stats".into(), "--json".into()];
    let fsck_args: Vec<OsString> = vec!["fsck".into(), f];
    let total = match check_run(ysess, &json_args) {
        Ok(out) => out.stdout.lines().last().unwrap_or_default().to_string(),
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let total: serde_json::Value = serde_json::from_str(&total).expect("the total is JSON");
    let got = (
        total["entries"].as_u64().unwrap_or(0),
        total["tokens"]["input"].as_u64().unwrap_or(0),
        total["tokens"]["output"].as_u64().unwrap_or(0),
    );
    if got != expected {
        eprintln!("error: stats total {got:?}, yoagent's sum {expected:?}");
        return ExitCode::FAILURE;
    }
    let timed = |args: &[OsString]| time_child(ysess, args, runs, Out::Null);
    let (stats, fsck) = match (timed(&stats_args), timed(&fsck_args)) {
        (Ok(s), Ok(f)) => (s, f),
        (Err(e), _) | (_, Err(e)) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let rss = peak_rss(ysess, &stats_args, 1);

    println!(
        "bench file: {} ({}, {} entries)",
        file.display(),
        mb(bytes),
        expected.0
    );
    TABLE.header();
    TABLE.row(
        "yoagent read + from_jsonl + usage sum",
        &ms(load_sum),
        "",
        "",
    );
    TABLE.row("ysess stats", &ms(stats.best), "", "");
    TABLE.row("ysess fsck", &ms(fsck.best), "", "");
    TABLE.row(
        "yoagent / ysess stats",
        &format!("{:.1}x", secs(load_sum) / secs(stats.best)),
        "",
        "",
    );
    TABLE.row(
        "ysess stats / ysess fsck",
        &format!("{:.2}x", secs(stats.best) / secs(fsck.best)),
        "",
        "",
    );
    TABLE.rss_result("ysess stats", "peak RSS / file size", &rss, bytes, None);
    println!();
    println!("best of {runs}; ysess stats runs: {}", list_ms(&stats.all));
    println!("ysess fsck runs: {}", list_ms(&fsck.all));
    println!("average entry: {}", kib(bytes / expected.0.max(1)));
    if let Ok(rss) = &rss {
        println!("peak RSS detail: {}", rss.detail);
    }
    ExitCode::SUCCESS
}
