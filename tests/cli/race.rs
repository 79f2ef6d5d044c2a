//! `ysess append` racing an app that saves the whole session file, as apps
//! built on yoagent do: load it (`Session::from_jsonl`), `append` a turn,
//! and save `to_jsonl()` either with `std::fs::write` (truncate, then write)
//! or through a temporary file renamed into place. The app takes no lock.
//!
//! Shared by the short test in `cargo test` (`write.rs`) and the long run in
//! `cargo bench --bench race` (`#[path = "../tests/cli/race.rs"] mod race;`).
//!
//! What is counted for each `ysess append --user race-K`:
//! - exit 0 and `race-K` is in the final file: done;
//! - exit 0 and absent: dropped by a save of the app that loaded the file
//!   before ysess finished and saved after ysess started (the hazard ysess
//!   cannot see: the app saves what it loaded, later). Such a drop is
//!   `explained` when a save like that exists, `unexplained` otherwise.
//!   Timing alone cannot tell whether that save came just before ysess's
//!   last check or just after it, so this count does not prove every
//!   detectable loss was reported: the unit tests of `src/store.rs` pin
//!   each check with the save placed exactly;
//! - exit non-zero: `refused` (nothing was written), `taken_back` (written,
//!   then removed by ysess itself), or `reported_lost` (written, and said to
//!   be possibly lost).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use yoagent::types::Message;
use yoagent::{AgentMessage, Session};

/// How the app saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Saver {
    /// `std::fs::write(path, session.to_jsonl())`.
    Write,
    /// Write a temporary file, then rename it over the session file.
    Rename,
    /// `std::fs::write` of the same session again and again, as fast as it
    /// goes (no load between saves), with no final newline: the save most
    /// likely to land between ysess's look at the file's end and its write.
    /// The file is looked at before each save for a glued line, since the
    /// next save would hide it.
    Resave,
    /// Read the file's bytes whole, then `std::fs::write` them back without
    /// a final newline, again and again, as fast as it goes: what an app
    /// that saves what it read does. A line glued in the file stays in it.
    Copy,
}

#[derive(Debug, Default, Clone)]
pub struct Counts {
    pub appends: usize,
    pub done: usize,
    pub refused: usize,
    pub taken_back: usize,
    pub reported_lost: usize,
    /// Exit 0, absent at the end, dropped by an app's save of what it had
    /// loaded before.
    pub explained: usize,
    /// Exit 0, absent at the end, with no save that could have dropped it.
    pub unexplained: Vec<String>,
    /// Refused ("nothing was written") yet present at the end.
    pub refused_but_present: Vec<String>,
    /// Reported (taken back or maybe lost) yet present: the app had loaded
    /// the file in the instant the lines were there.
    pub reported_but_present: usize,
    pub saves: usize,
    /// Times the app could not load the file (it read a save or an append
    /// half done, and loaded again).
    pub app_load_retries: usize,
    pub final_lines: usize,
    pub broken_lines: usize,
    /// Broken lines that are two entries run together: ysess's line glued
    /// to the end of a line an app saved without a final newline (in the
    /// final file, or, with [`Saver::Resave`], seen before any save).
    pub glued_lines: usize,
    pub duplicate_ids: usize,
    /// Whether yoagent loads the final file.
    pub final_loads: bool,
}

impl Counts {
    pub fn line(&self, saver: Saver) -> String {
        format!(
            "{saver:?} saver: {} appends: {} done, {} refused, {} taken back, {} reported lost, \
             {} dropped later by an app save of an older load, {} unexplained; \
             {} refused but present, {} reported but present; {} app saves, {} app load retries; \
             final file: {} lines, {} broken ({} glued), {} duplicate ids, loads in yoagent: {}",
            self.appends,
            self.done,
            self.refused,
            self.taken_back,
            self.reported_lost,
            self.explained,
            self.unexplained.len(),
            self.refused_but_present.len(),
            self.reported_but_present,
            self.saves,
            self.app_load_retries,
            self.final_lines,
            self.broken_lines,
            self.glued_lines,
            self.duplicate_ids,
            self.final_loads
        )
    }

    /// Nothing corrupted, nothing duplicated, no silent loss ysess could
    /// have seen, no refusal that wrote after all.
    pub fn sound(&self) -> bool {
        self.final_loads
            && self.broken_lines == 0
            && self.glued_lines == 0
            && self.duplicate_ids == 0
            && self.unexplained.is_empty()
            && self.refused_but_present.is_empty()
    }
}

/// One save cycle of the app.
struct Cycle {
    loaded_at: Instant,
    saved_at: Instant,
    /// The `race-K` turns in what it loaded.
    seen: HashSet<usize>,
}

struct Append {
    k: usize,
    started: Instant,
    ended: Instant,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// The `race-K` and `app-N` user turns in a session.
fn turns(session: &Session, prefix: &str) -> HashSet<usize> {
    session
        .entries()
        .iter()
        .filter_map(|e| match &e.message {
            AgentMessage::Llm(Message::User { content, .. }) => match content.first() {
                Some(yoagent::types::Content::Text { text }) => {
                    text.strip_prefix(prefix)?.parse().ok()
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Lines that hold more than one JSON value: entries run together.
fn glued(text: &str) -> impl Iterator<Item = &str> {
    text.lines().filter(|line| {
        serde_json::Deserializer::from_str(line.trim())
            .into_iter::<serde_json::Value>()
            .take_while(Result::is_ok)
            .count()
            > 1
    })
}

fn glued_lines(text: &str) -> usize {
    glued(text).count()
}

/// A small deterministic pause, 0 to 1 ms.
fn pause(seed: &mut u64) {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    std::thread::sleep(Duration::from_micros((*seed >> 33) % 1000));
}

fn app(
    path: &Path,
    saver: Saver,
    stop: &AtomicBool,
    cycles: &Mutex<Vec<Cycle>>,
    retries: &Mutex<usize>,
    glued_count: &Mutex<usize>,
) {
    let mut seed = 7u64;
    if saver == Saver::Resave {
        let text = std::fs::read_to_string(path).expect("the session reads");
        let saved = Session::from_jsonl(&text).expect("loads").to_jsonl();
        while !stop.load(Ordering::Relaxed) {
            let loaded_at = Instant::now();
            // A read racing an append can see bytes of two moments (a
            // regular file's reads are not atomic with its writes). A line
            // glued in the file stays until this thread's next save, as
            // ysess never rewrites what it did not write: it counts only if
            // it is still there a moment later.
            if let Ok(now) = std::fs::read_to_string(path)
                && glued_lines(&now) > 0
            {
                std::thread::sleep(Duration::from_millis(20));
                let again = std::fs::read_to_string(path).unwrap_or_default();
                let kept: HashSet<&str> = glued(&again).collect();
                *glued_count.lock().unwrap() += glued(&now).filter(|l| kept.contains(l)).count();
            }
            std::fs::write(path, &saved).expect("the app saves");
            cycles.lock().unwrap().push(Cycle {
                loaded_at,
                saved_at: Instant::now(),
                seen: HashSet::new(),
            });
        }
        return;
    }
    if saver == Saver::Copy {
        while !stop.load(Ordering::Relaxed) {
            let loaded_at = Instant::now();
            let Ok(text) = std::fs::read_to_string(path) else {
                *retries.lock().unwrap() += 1;
                continue;
            };
            let seen = Session::from_jsonl(&text)
                .map(|s| turns(&s, "race-"))
                .unwrap_or_default();
            std::fs::write(path, text.trim_end_matches('\n')).expect("the app saves");
            cycles.lock().unwrap().push(Cycle {
                loaded_at,
                saved_at: Instant::now(),
                seen,
            });
        }
        return;
    }
    let tmp = path.with_extension("jsonl.app-tmp");
    let mut n = 0;
    while !stop.load(Ordering::Relaxed) {
        let loaded_at = Instant::now();
        let Ok(text) = std::fs::read_to_string(path) else {
            *retries.lock().unwrap() += 1;
            continue;
        };
        let mut session = match Session::from_jsonl(&text) {
            Ok(s) if !s.entries().is_empty() => s,
            _ => {
                // A save or an append caught half done: load again.
                *retries.lock().unwrap() += 1;
                std::thread::sleep(Duration::from_micros(200));
                continue;
            }
        };
        let seen = turns(&session, "race-");
        n += 1;
        session.append(Message::user(format!("app-{n}")).into());
        match saver {
            Saver::Write | Saver::Resave | Saver::Copy => {
                std::fs::write(path, session.to_jsonl()).expect("the app saves")
            }
            Saver::Rename => {
                std::fs::write(&tmp, session.to_jsonl()).expect("the app writes");
                std::fs::rename(&tmp, path).expect("the app renames");
            }
        }
        // When the save is complete (the app's thread may be held up
        // between its write and its rename).
        let saved_at = Instant::now();
        cycles.lock().unwrap().push(Cycle {
            loaded_at,
            saved_at,
            seen,
        });
        pause(&mut seed);
    }
}

/// Runs `appends` `ysess append`s (from `writers` threads) against the app
/// saving `session` (a copy of it, in `dir`) with `saver`.
pub fn race(
    exe: &Path,
    session: &Path,
    dir: &Path,
    saver: Saver,
    appends: usize,
    writers: usize,
) -> Counts {
    let path: PathBuf = dir.join("session.jsonl");
    std::fs::copy(session, &path).expect("the session copies");
    let stop = AtomicBool::new(false);
    let cycles = Mutex::new(Vec::new());
    let retries = Mutex::new(0usize);
    let glued = Mutex::new(0usize);
    let results = Mutex::new(Vec::new());
    let next = Arc::new(Mutex::new(0usize));
    std::thread::scope(|scope| {
        let app_thread = scope.spawn(|| app(&path, saver, &stop, &cycles, &retries, &glued));
        let mut workers = Vec::new();
        for _ in 0..writers {
            let next = Arc::clone(&next);
            let (path, results) = (&path, &results);
            workers.push(scope.spawn(move || {
                loop {
                    let k = {
                        let mut next = next.lock().unwrap();
                        if *next >= appends {
                            break;
                        }
                        *next += 1;
                        *next
                    };
                    let started = Instant::now();
                    let out = Command::new(exe)
                        .arg("-f")
                        .arg(path)
                        .args(["append", "--user", &format!("race-{k}")])
                        .env_remove("YSESS_FILE")
                        .stdin(Stdio::null())
                        .output()
                        .expect("ysess runs");
                    let ended = Instant::now();
                    results.lock().unwrap().push(Append {
                        k,
                        started,
                        ended,
                        code: out.status.code(),
                        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
                        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
                    });
                }
            }));
        }
        for w in workers {
            w.join().expect("a writer thread");
        }
        stop.store(true, Ordering::Relaxed);
        app_thread.join().expect("the app thread");
    });

    let cycles = cycles.into_inner().unwrap();
    let results = results.into_inner().unwrap();
    let text = std::fs::read_to_string(&path).expect("the final file is UTF-8");
    let mut counts = Counts {
        glued_lines: glued.into_inner().unwrap(),
        appends: results.len(),
        saves: cycles.len(),
        app_load_retries: retries.into_inner().unwrap(),
        ..Counts::default()
    };
    let mut ids: HashMap<String, usize> = HashMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        counts.final_lines += 1;
        match serde_json::from_str::<yoagent::SessionEntry>(line.trim()) {
            Ok(entry) => *ids.entry(entry.id).or_default() += 1,
            Err(_) => counts.broken_lines += 1,
        }
    }
    counts.duplicate_ids = ids.values().filter(|&&n| n > 1).count();
    counts.glued_lines += glued_lines(&text);
    let present = match Session::from_jsonl(&text) {
        Ok(session) => {
            counts.final_loads = true;
            turns(&session, "race-")
        }
        Err(_) => HashSet::new(),
    };
    for a in &results {
        let here = present.contains(&a.k);
        let what = || {
            format!(
                "race-{}: exit {:?}, stdout {:?}, stderr {:?}",
                a.k, a.code, a.stdout, a.stderr
            )
        };
        if a.code == Some(0) {
            if here {
                counts.done += 1;
            } else if cycles
                .iter()
                .any(|c| !c.seen.contains(&a.k) && c.loaded_at < a.ended && c.saved_at > a.started)
            {
                counts.explained += 1;
            } else {
                counts.unexplained.push(what());
            }
        } else if a.stderr.contains("nothing was written") {
            counts.refused += 1;
            if here {
                counts.refused_but_present.push(what());
            }
        } else {
            if a.stderr.contains("took its lines back") {
                counts.taken_back += 1;
            } else {
                counts.reported_lost += 1;
            }
            if here {
                counts.reported_but_present += 1;
            }
        }
    }
    counts
}
