//! `cargo bench --bench tui`: `ysess tui` on the 200,000-entry session,
//! beside `ysess fsck` on the same file, in one run. The browser runs as a
//! person runs it: the release binary on a pseudo-terminal, its screen read
//! through a terminal emulator (vt100).
//!
//! - first frame: from starting `ysess tui` until the status line is on
//!   the screen (target: fsck's time plus 50 ms);
//! - a key: from typing it until the screen has changed (target: a frame,
//!   16 ms), for `j`, `k`, `PgDn`, `PgUp`, `Tab`, `k` in the chat, `G`
//!   and `g`;
//! - a search that matches nothing (every entry read), for scale;
//! - memory: the browser's peak RSS (`VmHWM`) beside `log --graph`'s.
//!
//! Environment: `YSESS_BENCH_ENTRIES` (default 200,000), `YSESS_BENCH_RUNS`
//! (default 3; the best run is shown).

#[path = "support.rs"]
#[allow(dead_code)] // the helpers other benches use
mod support;

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, ExitCode, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use support::{Table, bench_runs, bench_session, mb, ms, pass, peak_rss, secs, vm_hwm_kib};

const TABLE: Table = Table { what: 40 };
const ROWS: u16 = 40;
const COLUMNS: u16 = 160;

/// `ysess tui FILE` on a pseudo-terminal.
struct Browser {
    master: std::fs::File,
    child: std::process::Child,
    seen: Receiver<Vec<u8>>,
    parser: vt100::Parser,
    started: Instant,
}

impl Browser {
    fn start(file: &Path) -> Result<Browser, String> {
        use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
        use std::ffi::OsStr;
        use std::os::unix::ffi::OsStrExt;
        let e = |what: &str, e: &dyn std::fmt::Display| format!("{what}: {e}");
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
            .map_err(|x| e("openpt", &x))?;
        grantpt(&master).map_err(|x| e("grantpt", &x))?;
        unlockpt(&master).map_err(|x| e("unlockpt", &x))?;
        let size = rustix::termios::Winsize {
            ws_row: ROWS,
            ws_col: COLUMNS,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        rustix::termios::tcsetwinsize(&master, size).map_err(|x| e("winsize", &x))?;
        let name = ptsname(&master, Vec::new()).map_err(|x| e("ptsname", &x))?;
        let terminal = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(OsStr::from_bytes(name.as_bytes()))
            .map_err(|x| e("the terminal", &x))?;
        let clone = || terminal.try_clone().map_err(|x| e("the terminal", &x));
        let started = Instant::now();
        let child = Command::new(env!("CARGO_BIN_EXE_ysess"))
            .arg("-f")
            .arg(file)
            .arg("tui")
            .env("TERM", "xterm-256color")
            .stdin(clone()?)
            .stdout(clone()?)
            .stderr(Stdio::null())
            .spawn()
            .map_err(|x| e("ysess", &x))?;
        drop(terminal);
        let master = std::fs::File::from(master);
        let mut reader = master.try_clone().map_err(|x| e("the terminal", &x))?;
        let (tx, seen) = channel();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 65536];
            while let Ok(n @ 1..) = reader.read(&mut chunk) {
                if tx.send(chunk[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Ok(Browser {
            master,
            child,
            seen,
            parser: vt100::Parser::new(
                std::num::NonZeroU16::new(ROWS).expect("rows"),
                std::num::NonZeroU16::new(COLUMNS).expect("columns"),
                0,
            ),
            started,
        })
    }

    /// Reads the screen until `done` holds for its text and colours (ten
    /// seconds at most).
    fn wait(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Result<(), String> {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            let screen = self.parser.screen();
            let seen = format!("{}{}", screen.contents(), screen.contents_formatted());
            if done(&seen) {
                return Ok(());
            }
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!("no {what} within 10 s"));
            }
            if let Ok(bytes) = self.seen.recv_timeout(left) {
                self.parser.process(&bytes);
                // Take what else is there before looking.
                while let Ok(more) = self.seen.try_recv() {
                    self.parser.process(&more);
                }
            }
        }
    }

    /// Types `key`; the time until the screen has changed.
    fn key(&mut self, key: &[u8]) -> Result<Duration, String> {
        let screen = self.parser.screen();
        let before = format!("{}{}", screen.contents(), screen.contents_formatted());
        let t = Instant::now();
        self.master.write_all(key).map_err(|e| e.to_string())?;
        self.wait("change", |now| now != before)?;
        Ok(t.elapsed())
    }

    /// The browser's peak RSS so far, in KiB.
    fn peak_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        vm_hwm_kib(&status)
    }

    fn quit(mut self) {
        let _ = self.master.write_all(b"q");
        let _ = self.child.wait();
    }
}

fn fsck_time(file: &Path) -> Result<Duration, String> {
    let t = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .arg("fsck")
        .arg(file)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !matches!(status.code(), Some(0 | 1)) {
        return Err(format!("fsck: {status}"));
    }
    Ok(t.elapsed())
}

fn main() -> ExitCode {
    let Some(session) = bench_session() else {
        return ExitCode::FAILURE;
    };
    let runs = bench_runs();
    let file = &session.file;
    TABLE.header();
    let mut fsck = Vec::new();
    let mut first = Vec::new();
    // key name, bytes, times
    let mut keys: Vec<(&str, &[u8], Vec<Duration>)> = vec![
        ("j", b"j", Vec::new()),
        ("k", b"k", Vec::new()),
        ("PgDn", b"\x1b[6~", Vec::new()),
        ("PgUp", b"\x1b[5~", Vec::new()),
        ("Tab (to the chat)", b"\t", Vec::new()),
        ("k (in the chat)", b"k", Vec::new()),
        ("Tab (to the tree)", b"\t", Vec::new()),
        ("G (the last entry)", b"G", Vec::new()),
        ("g (the first)", b"g", Vec::new()),
    ];
    let mut peak = 0;
    let mut search = Vec::new();
    for _ in 0..runs {
        match fsck_time(file) {
            Ok(t) => fsck.push(t),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        let mut browser = match Browser::start(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Err(e) = browser.wait("first frame", |s| s.contains(" entries · ")) {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
        first.push(browser.started.elapsed());
        // Let the usage read in the background finish, so that keys are
        // timed against a browser at rest.
        std::thread::sleep(Duration::from_millis(1500));
        let _ = browser.wait("usage", |s| !s.contains("reading usage"));
        for (_, bytes, times) in &mut keys {
            for _ in 0..5 {
                match browser.key(bytes) {
                    Ok(t) => times.push(t),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::FAILURE;
                    }
                }
                // Tab, G and g once per round: pressing them again
                // changes nothing to wait for, or undoes them.
                if bytes.len() == 1 && b"\tGg".contains(&bytes[0]) {
                    break;
                }
            }
        }
        // A search that matches nothing reads every entry: the longest a
        // key can take.
        let t = Instant::now();
        let typed = browser
            .master
            .write_all(b"/nosuchwordsanywhere\r")
            .map_err(|e| e.to_string())
            .and_then(|()| browser.wait("no match", |s| s.contains("no match")));
        match typed {
            Ok(()) => search.push(t.elapsed()),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        peak = peak.max(browser.peak_kib().unwrap_or(0));
        browser.quit();
    }
    let best = |d: &[Duration]| *d.iter().min().expect("runs");
    let (f, fr) = (best(&fsck), best(&first));
    TABLE.row(
        &format!("fsck ({} entries)", session.entries),
        &ms(f),
        "",
        "",
    );
    TABLE.row(
        "tui: first frame",
        &ms(fr),
        &format!("<= {}", ms(f + Duration::from_millis(50))),
        pass(fr <= f + Duration::from_millis(50)),
    );
    TABLE.row(
        "tui: first frame - fsck",
        &format!("{:+.1} ms", (secs(fr) - secs(f)) * 1000.0),
        "<= +50 ms",
        "",
    );
    for (name, _, times) in &keys {
        let worst = *times.iter().max().expect("times");
        TABLE.row(
            &format!("tui: key {name} (worst of {})", times.len()),
            &ms(worst),
            "<= 16 ms",
            pass(worst <= Duration::from_millis(16)),
        );
    }
    TABLE.row(
        "tui: / with no match (every entry read)",
        &ms(best(&search)),
        "",
        "",
    );
    let graph: Vec<OsString> = vec!["-f".into(), file.into(), "log".into(), "--graph".into()];
    match peak_rss(Path::new(env!("CARGO_BIN_EXE_ysess")), &graph, 1) {
        Ok(r) => TABLE.row("log --graph peak RSS", &mb(r.kib * 1024), "", ""),
        Err(e) => TABLE.row("log --graph peak RSS", "n/a", "", &e),
    }
    TABLE.row("tui peak RSS", &mb(peak * 1024), "", "");
    println!(
        "  fsck runs {}; first frame runs {}",
        support::list_ms(&fsck),
        support::list_ms(&first)
    );
    ExitCode::SUCCESS
}
