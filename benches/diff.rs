//! `cargo bench --bench diff`: `ysess diff` between two long branches of a
//! large session.
//!
//! Environment:
//! - `YSESS_BENCH_RUNS` (default 3): timed runs of `ysess diff`; the best is
//!   shown.
//!
//! The session is derived once from the 200,000-entry bench file the other
//! benches use (`target/bench/session-200000.jsonl`, generated if missing) and
//! cached as `target/bench/two-branches-200000.jsonl`, with a `.meta` marker
//! naming the source file's marker, the layout and the size; it is reused
//! while the marker matches. Every line keeps its message and timestamp
//! (copied byte for byte) while ids and parents are rewritten: entries
//! 1..=190000 form one linear trunk (`e1` the root, `eK`'s parent `e(K-1)`),
//! 190001..=195000 branch A and 195001..=200000 branch B, both forking from
//! `e190000`. Labels are dropped. Before it is cached, the file is checked to
//! load in yoagent, to have exactly the branch tips `e195000` and `e200000`
//! and every id and parent as laid out, and to be byte for byte what
//! yoagent's `to_jsonl` writes for it.
//!
//! `ysess -f FILE diff e195000 e200000` is run once with its output captured
//! (exit 0 and the header are checked), then timed with stdout and stderr on
//! /dev/null; `diff --stat` is run once, captured, and its counts printed;
//! `ysess fsck FILE` is timed too, for reference. Peak RSS of the ysess child
//! comes from `/usr/bin/time -f %M` and a `/proc/<pid>/status` `VmHWM` poll,
//! whichever saw more (see `benches/support.rs`).

#[path = "support.rs"]
mod support;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use serde_json::value::RawValue;
use support::{
    Out, Table, Timed, bench_file, bench_runs, check_run, file_size, kib, list_ms, mb, ms, pass,
    peak_rss, secs, time_child,
};

const TABLE: Table = Table { what: 44 };

/// Entries in the session (the source bench file has as many).
const ENTRIES: usize = 200_000;
/// Entries on each branch after the fork.
const BRANCH: usize = 5_000;
/// Entries on the shared trunk, `e1..=e190000`.
const TRUNK: usize = ENTRIES - 2 * BRANCH;
/// Bumped whenever the derived file for a given source changes.
const LAYOUT_VERSION: u32 = 1;
/// The issue: "Diffing two long branches (5,000 turns each on a
/// 200,000-entry file) stays interactive: under a second".
const DIFF_TARGET: Duration = Duration::from_secs(1);

fn main() -> ExitCode {
    let runs = bench_runs();
    let file = match bench_file(ENTRIES).and_then(|source| two_branch_file(&source)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: preparing the bench file: {e}");
            return ExitCode::FAILURE;
        }
    };
    let bytes = file_size(&file);
    println!("bench file: {} ({})", file.display(), mb(bytes));
    let (tip_a, tip_b, fork) = (
        format!("e{}", TRUNK + BRANCH),
        format!("e{ENTRIES}"),
        format!("e{TRUNK}"),
    );
    println!(
        "layout: trunk e1..{fork} ({TRUNK} entries); branch A ..{tip_a} and branch B ..{tip_b} \
         ({BRANCH} entries each), both forking from {fork}"
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
    let diff = with_file(&["diff", &tip_a, &tip_b]);
    let stat = with_file(&["diff", "--stat", &tip_a, &tip_b]);
    let fsck: Vec<OsString> = vec!["fsck".into(), f.to_owned()];

    let mut failed = false;
    let mut fail = |what: &str, e: &str| {
        eprintln!("error: {what}: {e}");
        failed = true;
    };

    // Check runs: output captured and looked at once.
    let want_header = [
        format!("--- {tip_a} ({BRANCH} turns after the fork)"),
        format!("+++ {tip_b} ({BRANCH} turns after the fork)"),
    ];
    let diff_out = check_run(ysess, &diff).map(|c| c.stdout);
    let header_ok = match &diff_out {
        Ok(out) => {
            let head: Vec<&str> = out.lines().take(3).collect();
            let ok = head.len() == 3
                && head[0].starts_with("fork point ")
                && head[0].split_whitespace().nth(2) == Some(fork.as_str())
                && head[1..] == want_header;
            if !ok {
                fail(
                    "ysess diff",
                    &format!("header {head:?}; want the fork point {fork}, then {want_header:?}"),
                );
            }
            ok
        }
        Err(e) => {
            fail("ysess diff", e);
            false
        }
    };
    let t = Instant::now();
    let stat_out = check_run(ysess, &stat).map(|c| c.stdout);
    let stat_time = t.elapsed();
    let stat_counts = match &stat_out {
        Ok(out) => out.lines().last().map(str::trim).map(str::to_owned),
        Err(e) => {
            fail("ysess diff --stat", e);
            None
        }
    };
    if let Err(e) = check_run(ysess, &fsck) {
        fail("ysess fsck", &e);
    }

    // Timed runs, stdout and stderr on /dev/null.
    let t_diff = time_child(ysess, &diff, runs, Out::Null);
    let t_fsck = time_child(ysess, &fsck, runs, Out::Null);
    for (what, t) in [("ysess diff", &t_diff), ("ysess fsck", &t_fsck)] {
        if let Err(e) = t {
            fail(what, e);
        }
    }

    // Peak RSS.
    let r_diff = peak_rss(ysess, &diff, runs);
    if let Err(e) = &r_diff {
        fail("ysess diff (peak RSS)", e);
    }

    // -- table ---------------------------------------------------------------
    TABLE.header();
    TABLE.row("file size", &mb(bytes), "", "");
    TABLE.row("entries", &ENTRIES.to_string(), "", "");
    TABLE.row("turns per side after the fork", &BRANCH.to_string(), "", "");
    match &t_diff {
        Ok(t) => TABLE.row(
            &format!("ysess diff {tip_a} {tip_b}"),
            &ms(t.best),
            &format!("< {:.0} ms", secs(DIFF_TARGET) * 1000.0),
            pass(t.best < DIFF_TARGET),
        ),
        Err(_) => TABLE.row("ysess diff", "failed", "", "MISS"),
    }
    match &r_diff {
        Ok(r) => TABLE.rss_rows(
            &format!("ysess diff peak RSS ({})", r.method),
            "  / file size",
            r.kib,
            bytes,
            None,
        ),
        Err(_) => TABLE.row("ysess diff peak RSS", "n/a", "", ""),
    }
    match &stat_out {
        Ok(_) => TABLE.row(
            "ysess diff --stat (1 run, captured)",
            &ms(stat_time),
            "exit 0",
            "PASS",
        ),
        Err(_) => TABLE.row("ysess diff --stat", "failed", "exit 0", "MISS"),
    }
    time_row("ysess fsck (reference)", &t_fsck);
    if let (Ok(d), Ok(f)) = (&t_diff, &t_fsck) {
        TABLE.row(
            "diff / fsck",
            &format!("{:.2}x", secs(d.best) / secs(f.best)),
            "",
            "",
        );
    }
    TABLE.row(
        "diff header: fork point, turns per side",
        if header_ok { "as built" } else { "differs" },
        "as built",
        pass(header_ok),
    );

    // -- details -------------------------------------------------------------
    println!();
    println!("best of {runs}; all runs:");
    for (what, t) in [("diff", &t_diff), ("fsck", &t_fsck)] {
        match t {
            Ok(t) => println!("  {what:<6} {}", list_ms(&t.all)),
            Err(e) => println!("  {what:<6} failed: {e}"),
        }
    }
    if let Ok(r) = &r_diff {
        println!("peak RSS detail (diff): {}", r.detail);
    }
    if let Some(counts) = &stat_counts {
        println!("diff --stat: {counts}");
    }
    if let Ok(out) = &diff_out {
        println!(
            "diff output (check run): {} lines, {}",
            out.lines().count(),
            kib(out.len() as u64)
        );
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

// ---------------------------------------------------------------------------
// The two-branch session
// ---------------------------------------------------------------------------

/// The parent of entry `k` (1-based) in the two-branch layout.
fn parent_of(k: usize) -> Option<usize> {
    match k {
        1 => None,
        k if k == TRUNK + 1 || k == TRUNK + BRANCH + 1 => Some(TRUNK),
        k => Some(k - 1),
    }
}

/// `target/bench/two-branches-<ENTRIES>.jsonl`, derived from `source` (the
/// cached bench file) once and reused while its `.meta` marker matches.
fn two_branch_file(source: &Path) -> std::io::Result<PathBuf> {
    let dir = source
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let file = dir.join(format!("two-branches-{ENTRIES}.jsonl"));
    let meta = dir.join(format!("two-branches-{ENTRIES}.jsonl.meta"));
    // The source's own marker names its generator, seed, size and bytes.
    let mut source_meta = source.as_os_str().to_owned();
    source_meta.push(".meta");
    let from = std::fs::read_to_string(&source_meta)?;
    let want = format!(
        "layout={LAYOUT_VERSION} trunk={TRUNK} branches=2x{BRANCH} from=[{}]",
        from.trim()
    );
    if let (Ok(m), Ok(md)) = (std::fs::read_to_string(&meta), std::fs::metadata(&file))
        && m.trim() == format!("{want} bytes={}", md.len())
    {
        println!("reusing {} ({want})", file.display());
        return Ok(file);
    }
    println!("deriving {} ({want}) ...", file.display());
    let t = Instant::now();
    let tmp = dir.join(format!("two-branches-{ENTRIES}.jsonl.tmp"));
    let written = derive(source, &tmp)?;
    if written != ENTRIES {
        return Err(std::io::Error::other(format!(
            "{} has {written} entries, not {ENTRIES}",
            source.display()
        )));
    }
    check_with_yoagent(&tmp)?;
    let len = std::fs::metadata(&tmp)?.len();
    std::fs::rename(&tmp, &file)?;
    std::fs::write(&meta, format!("{want} bytes={len}\n"))?;
    println!("derived and checked in {:.1}s", t.elapsed().as_secs_f64());
    Ok(file)
}

/// Stream `source` line by line into `out` with ids and parents rewritten to
/// the two-branch layout and labels dropped; the number of entries written.
///
/// Each line is parsed with serde_json, but into its top-level fields as raw
/// JSON (`&RawValue`) rather than a `Value`: this crate's serde_json has no
/// `preserve_order`, so a `Value` would write every object's keys sorted
/// (`content` before `role`, ...), which is not what yoagent writes and takes
/// ysess off its fast path. The message and timestamp are copied byte for
/// byte instead, and the entry is written in yoagent's field order.
fn derive(source: &Path, out: &Path) -> std::io::Result<usize> {
    let bad = |n: usize, what: String| std::io::Error::other(format!("line {n}: {what}"));
    let reader = BufReader::with_capacity(1 << 20, File::open(source)?);
    let mut w = BufWriter::with_capacity(1 << 20, File::create(out)?);
    let mut n = 0;
    for line in reader.lines() {
        let line = line?;
        n += 1;
        let fields: BTreeMap<&str, &RawValue> =
            serde_json::from_str(&line).map_err(|e| bad(n, e.to_string()))?;
        if let Some(k) = fields
            .keys()
            .find(|k| !matches!(**k, "id" | "parent_id" | "message" | "timestamp" | "label"))
        {
            return Err(bad(n, format!("unexpected field {k:?}")));
        }
        let field = |k: &str| {
            fields
                .get(k)
                .map(|v| v.get())
                .ok_or_else(|| bad(n, format!("no {k:?}")))
        };
        let (message, timestamp) = (field("message")?, field("timestamp")?);
        serde_json::from_str::<u64>(timestamp)
            .map_err(|e| bad(n, format!("timestamp {timestamp}: {e}")))?;
        let parent = parent_of(n).map_or("null".to_string(), |p| format!("\"e{p}\""));
        if n > 1 {
            w.write_all(b"\n")?;
        }
        write!(
            w,
            "{{\"id\":\"e{n}\",\"parent_id\":{parent},\"message\":{message},\"timestamp\":{timestamp}}}"
        )?;
    }
    w.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    Ok(n)
}

/// The derived file loads in yoagent, has exactly the two branch tips, and is
/// what yoagent's `to_jsonl` writes for it.
fn check_with_yoagent(path: &Path) -> std::io::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let session = yoagent::Session::from_jsonl(&text).map_err(std::io::Error::other)?;
    let fail = |what: String| Err(std::io::Error::other(what));
    if session.entries().len() != ENTRIES {
        return fail(format!(
            "yoagent loads {} entries, not {ENTRIES}",
            session.entries().len()
        ));
    }
    let want = [format!("e{}", TRUNK + BRANCH), format!("e{ENTRIES}")];
    let mut tips = session.branch_tips();
    tips.sort_unstable();
    if tips != want {
        return fail(format!("yoagent's branch tips are {tips:?}, not {want:?}"));
    }
    // Every entry's id and parent as laid out. (Not through `path_ids`: it
    // finds each parent by a linear scan, which is quadratic here.)
    for (k, e) in (1..).zip(session.entries()) {
        let parent = parent_of(k).map(|p| format!("e{p}"));
        if e.id != format!("e{k}") || e.parent_id != parent || e.label.is_some() {
            return fail(format!(
                "entry {k} is {:?} (parent {:?}, label {:?}), not e{k} (parent {parent:?})",
                e.id, e.parent_id, e.label
            ));
        }
    }
    if session.to_jsonl() != text {
        return fail("the derived JSONL differs from yoagent's to_jsonl of it".into());
    }
    println!(
        "yoagent: {} entries, branch tips {tips:?}, ids and parents as laid out",
        session.entries().len()
    );
    Ok(())
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
