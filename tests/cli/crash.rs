//! Every command that writes, killed at each of its file-system steps in
//! turn, as SQLite tests itself: `strace` delivers SIGKILL (then SIGINT,
//! then SIGTERM) on entry to the N-th call of each writing system call
//! (`write`, `fdatasync`, `fsync`, `link`, `rename`, `unlink`,
//! `ftruncate`…) the command makes, for every N it makes. After each kill
//! the files must be sound (the session loads in yoagent, no line half or
//! glued, an output whole or absent), and a rerun of the same command
//! must reach what one uninterrupted run reaches, leaving nothing
//! temporary behind. The points tried are counted per command.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};

use crate::support::{Dir, fixture};

/// The system calls a kill is delivered on.
const CALLS: [&str; 12] = [
    "write",
    "pwrite64",
    "fsync",
    "fdatasync",
    "link",
    "linkat",
    "rename",
    "renameat",
    "renameat2",
    "unlink",
    "unlinkat",
    "ftruncate",
];

/// One command that writes, and what must hold around its kills.
struct Case {
    name: &'static str,
    /// Prepares a fresh folder for a run.
    setup: fn(&Dir),
    args: &'static [&'static str],
    /// What must hold after a kill at any point (`rerun`: false) and after
    /// the rerun that follows it (`rerun`: true); why not, if not.
    sound: fn(&Dir, bool) -> Result<(), String>,
}

fn demo(dir: &Dir) {
    dir.fixture("demo.jsonl", "session.jsonl");
}

fn claude(dir: &Dir) {
    dir.fixture(
        "agents/claude/fork/projects/-tmp--tmpkrZJ8A-work/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl",
        "dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl",
    );
}

fn torn(dir: &Dir) {
    let whole = std::fs::read(fixture("demo.jsonl")).expect("the demo");
    let mut bytes = whole.clone();
    bytes.extend_from_slice(b"\n{\"id\":\"e16\",\"parent_id\":\"e15\",\"mess");
    dir.write("session.jsonl", bytes);
}

/// `ysess ARGS` in `dir` under `strace` with `options` (as [`Dir::run`]
/// runs it: its own refs store, no session file from the environment).
fn under_strace(dir: &Dir, options: &[String], args: &[&str]) -> std::process::ExitStatus {
    Command::new("strace")
        .args(options)
        .arg(env!("CARGO_BIN_EXE_ysess"))
        .args(args)
        .current_dir(dir.path())
        .env_remove("YSESS_FILE")
        .env("YSESS_REFS", dir.join(".ysess-refs"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("strace runs")
}

/// The session loads in yoagent, and fsck finds no error.
fn loads(dir: &Dir) -> Result<(), String> {
    let text = std::fs::read_to_string(dir.join("session.jsonl")).map_err(|e| e.to_string())?;
    yoagent::Session::from_jsonl(&text).map_err(|e| format!("yoagent refuses it: {e:?}"))?;
    let fsck = dir.run(&["fsck"]);
    if fsck.status != Some(0) {
        return Err(format!("fsck: {}", fsck.stderr));
    }
    Ok(())
}

/// Hidden temporary files (`.….tmp`) anywhere below the folder.
fn temporaries(dir: &Dir) -> Vec<String> {
    crate::agents::files_under(dir.path())
        .into_iter()
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            (name.starts_with('.') && name.ends_with(".tmp")).then_some(name)
        })
        .collect()
}

fn count_lines_with(dir: &Dir, text: &str) -> usize {
    std::fs::read_to_string(dir.join("session.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(text))
        .count()
}

/// The session loads, and `needle` is on no line before the rerun (the
/// kill came first) or one line, and on one line after it.
fn once(dir: &Dir, rerun: bool, needle: &str) -> Result<(), String> {
    loads(dir)?;
    match (rerun, count_lines_with(dir, needle)) {
        (false, 0) | (_, 1) => Ok(()),
        (_, n) => Err(format!("{n} lines hold {needle}")),
    }
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "append",
            setup: demo,
            args: &["append", "--user", "crash-probe"],
            sound: |dir, rerun| {
                loads(dir)?;
                // Whole or not at all; the rerun adds it (again).
                let n = count_lines_with(dir, "crash-probe");
                match (rerun, n) {
                    (false, 0 | 1) | (true, 1 | 2) => Ok(()),
                    _ => Err(format!("{n} lines hold the message")),
                }
            },
        },
        Case {
            name: "tag",
            setup: demo,
            args: &["tag", "crash-probe", "e6"],
            sound: |dir, rerun| once(dir, rerun, "\"crash-probe\""),
        },
        Case {
            name: "branch",
            setup: demo,
            args: &["branch", "crash-probe", "e6"],
            sound: |dir, rerun| once(dir, rerun, "\"ysess.branch\""),
        },
        Case {
            name: "checkout -b",
            setup: demo,
            args: &["checkout", "-b", "crash-probe", "e6"],
            sound: |dir, rerun| {
                loads(dir)?;
                if rerun {
                    let out = dir.run(&["log", "-1", "--format", "{id} {decorations}"]);
                    let said = &out.stdout;
                    if !said.contains("crash-probe") {
                        return Err(format!("HEAD is not on the branch: {said}"));
                    }
                }
                Ok(())
            },
        },
        Case {
            name: "tag (the refs beside a Claude Code session)",
            setup: claude,
            args: &[
                "-f",
                "dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl",
                "tag",
                "crash-probe",
                "HEAD~1",
            ],
            sound: |dir, rerun| {
                let session = std::fs::read(dir.join("dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl"))
                    .map_err(|e| e.to_string())?;
                if session
                    != std::fs::read(fixture(
                        "agents/claude/fork/projects/-tmp--tmpkrZJ8A-work/dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl",
                    ))
                    .expect("the fixture")
                {
                    return Err("the app's file changed".to_string());
                }
                let refs = dir.join(".ysess-refs");
                if refs.exists() && rerun {
                    let fsck = dir.run(&["fsck", "--strict", ".ysess-refs"]);
                    if fsck.status != Some(0) {
                        return Err(format!("fsck of the refs: {}", fsck.stderr));
                    }
                    let out = dir.run(&[
                        "-f",
                        "dd1d0d79-0c2f-4881-8188-0d790c2f1881.jsonl",
                        "log",
                        "-1",
                        "crash-probe",
                        "--format",
                        "{short_id}",
                    ]);
                    if out.stdout != "cfd13c38\n" {
                        return Err("the label is not on its entry".to_string());
                    }
                }
                Ok(())
            },
        },
        Case {
            name: "export --html -o",
            setup: demo,
            args: &["export", "--html", "-o", "page.html"],
            sound: |dir, rerun| {
                loads(dir)?;
                match std::fs::read_to_string(dir.join("page.html")) {
                    Ok(page) if page.trim_end().ends_with("</html>") => Ok(()),
                    Ok(_) => Err("page.html is not whole".to_string()),
                    Err(_) if !rerun => Ok(()),
                    Err(e) => Err(format!("page.html: {e}")),
                }
            },
        },
        Case {
            name: "export --parquet",
            setup: demo,
            args: &["export", "--parquet", "out", "session.jsonl"],
            sound: |dir, rerun| {
                loads(dir)?;
                if !rerun {
                    return Ok(());
                }
                // The rows one uninterrupted run writes, each once.
                let fresh = dir.run(&["export", "--parquet", "fresh", "session.jsonl"]);
                if fresh.status != Some(0) {
                    return Err(fresh.stderr.clone());
                }
                let (got, want) = (entry_rows(&dir.join("out")), entry_rows(&dir.join("fresh")));
                if got != want {
                    return Err(format!("{got} entry rows, where one run writes {want}"));
                }
                Ok(())
            },
        },
        Case {
            name: "fsck --manifest",
            setup: demo,
            args: &["fsck", "--manifest", "m.manifest", "."],
            sound: |dir, rerun| match std::fs::read_to_string(dir.join("m.manifest")) {
                Ok(m) if m.ends_with('\n') && m.lines().count() == 1 => Ok(()),
                Ok(m) => Err(format!("the manifest is not whole: {m:?}")),
                Err(_) if !rerun => Ok(()),
                Err(e) => Err(format!("m.manifest: {e}")),
            },
        },
        Case {
            name: "fsck --repair",
            setup: torn,
            args: &["fsck", "--repair"],
            sound: |dir, rerun| {
                let now = std::fs::read(dir.join("session.jsonl")).map_err(|e| e.to_string())?;
                let whole = std::fs::read(fixture("demo.jsonl")).expect("the demo");
                let cut = now.len() == whole.len() + 1;
                if rerun && !cut {
                    return Err(format!("not repaired: {} bytes", now.len()));
                }
                if cut {
                    loads(dir)?;
                    // The torn bytes were kept before the cut.
                    let kept = crate::agents::files_under(dir.path())
                        .iter()
                        .any(|p| p.to_string_lossy().contains(".torn-"));
                    if !kept {
                        return Err("cut without keeping the torn bytes".to_string());
                    }
                }
                Ok(())
            },
        },
    ]
}

/// The rows of every part file of an export's entries table.
fn entry_rows(out: &std::path::Path) -> i64 {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    crate::agents::files_under(&out.join("entries"))
        .into_iter()
        .filter(|p| p.extension().is_some_and(|x| x == "parquet"))
        .map(|p| {
            let file = std::fs::File::open(&p).expect("a part file");
            let reader = SerializedFileReader::new(file).expect("a whole Parquet file");
            reader.metadata().file_metadata().num_rows()
        })
        .sum()
}

/// How many times the command makes each system call of [`CALLS`].
fn calls_made(case: &Case) -> BTreeMap<String, usize> {
    let dir = Dir::new();
    (case.setup)(&dir);
    let log = dir.join("strace.log");
    let options = [
        "-f".to_string(),
        "-qq".into(),
        "-o".into(),
        log.to_string_lossy().into_owned(),
        "-e".into(),
        format!("trace={}", CALLS.join(",")),
    ];
    let status = under_strace(&dir, &options, case.args);
    assert!(status.success(), "{}: the uninterrupted run", case.name);
    let mut made = BTreeMap::new();
    for line in std::fs::read_to_string(&log).expect("the trace").lines() {
        let Some(call) = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.split('(').next())
        else {
            continue;
        };
        if CALLS.contains(&call) {
            *made.entry(call.to_string()).or_insert(0) += 1;
        }
    }
    made
}

fn strace_missing() -> Option<String> {
    match Command::new("strace").arg("-V").output() {
        Ok(out) if out.status.success() => None,
        _ => Some("strace is not installed (apt-get install strace)".to_string()),
    }
}

#[test]
fn every_write_killed_at_every_step_leaves_sound_files_and_a_rerun_converges() {
    if let Some(why) = strace_missing() {
        crate::support::missing(&crate::support::STRACE, &why);
        return;
    }
    let mut tried: Vec<(String, usize)> = Vec::new();
    let mut broken = Vec::new();
    for case in cases() {
        let made = calls_made(&case);
        let mut points = 0;
        for (call, times) in &made {
            for n in 1..=*times {
                for signal in ["SIGKILL", "SIGINT", "SIGTERM"] {
                    points += 1;
                    let dir = Dir::new();
                    (case.setup)(&dir);
                    let options = [
                        "-f".to_string(),
                        "-qq".into(),
                        "-o".into(),
                        "/dev/null".into(),
                        "-e".into(),
                        format!("trace={call}"),
                        "-e".into(),
                        format!("inject={call}:signal={signal}:when={n}"),
                    ];
                    under_strace(&dir, &options, case.args);
                    let at = format!("{}: {signal} at {call} #{n}", case.name);
                    if let Err(why) = (case.sound)(&dir, false) {
                        broken.push(format!("{at}: after the kill: {why}"));
                        continue;
                    }
                    let rerun = dir.run(case.args);
                    // A rerun of what was done says so, as git does
                    // (`tag` of a label that names its entry already).
                    let done = rerun.status == Some(128) && rerun.stderr.contains("already");
                    if rerun.status != Some(0) && !done {
                        broken.push(format!("{at}: the rerun failed: {}", rerun.stderr));
                        continue;
                    }
                    if let Err(why) = (case.sound)(&dir, true) {
                        broken.push(format!("{at}: after the rerun: {why}"));
                    }
                    let left = temporaries(&dir);
                    if !left.is_empty() {
                        broken.push(format!("{at}: temporary files left: {left:?}"));
                    }
                }
            }
        }
        tried.push((case.name.to_string(), points));
    }
    let total: usize = tried.iter().map(|t| t.1).sum();
    eprintln!("crash points tried (each call × SIGKILL, SIGINT, SIGTERM): {total}");
    for (name, points) in &tried {
        eprintln!("  {name}: {points}");
    }
    assert!(total >= 100, "{tried:?}");
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}
