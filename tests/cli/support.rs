//! Running ysess the way a person does: in a directory of its own, with
//! arguments and maybe standard input, and looking at what it printed.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::sessgen as sg;

/// A scratch directory with the fixtures at hand.
pub struct Dir {
    tmp: tempfile::TempDir,
}

impl Dir {
    pub fn new() -> Dir {
        Dir {
            tmp: tempfile::tempdir().expect("a temp dir"),
        }
    }

    pub fn path(&self) -> &Path {
        self.tmp.path()
    }

    pub fn join(&self, name: &str) -> PathBuf {
        self.tmp.path().join(name)
    }

    /// Copies `tests/fixtures/NAME` in as `as_name`.
    pub fn fixture(&self, name: &str, as_name: &str) -> PathBuf {
        let to = self.join(as_name);
        std::fs::copy(fixture(name), &to).expect("fixture copies");
        to
    }

    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
        let to = self.join(name);
        std::fs::write(&to, bytes).expect("temp file writes");
        to
    }

    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.join(name)).expect("temp file reads")
    }

    /// Runs ysess here with these arguments.
    pub fn run(&self, args: &[&str]) -> Run {
        self.run_with(args, None, &[])
    }

    pub fn run_stdin(&self, args: &[&str], stdin: &[u8]) -> Run {
        self.run_with(args, Some(stdin), &[])
    }

    /// Runs ysess with `home/` here as HOME, where each agent keeps its
    /// sessions at its default place (no agent's variable set), and `apps/`
    /// as YSESS_PATH.
    pub fn run_in_home(&self, args: &[&str]) -> Run {
        let home = self.join("home");
        let apps = self.join("apps");
        self.run_with(
            args,
            None,
            &[
                ("HOME", home.to_str().expect("UTF-8")),
                ("YSESS_PATH", apps.to_str().expect("UTF-8")),
                ("CLAUDE_CONFIG_DIR", ""),
                ("CODEX_HOME", ""),
                ("PI_CODING_AGENT_DIR", ""),
                ("PI_CODING_AGENT_SESSION_DIR", ""),
                ("QWEN_HOME", ""),
                ("QWEN_RUNTIME_DIR", ""),
                ("GEMINI_CLI_HOME", ""),
                ("COPILOT_HOME", ""),
                ("XDG_DATA_HOME", ""),
            ],
        )
    }

    pub fn run_with(&self, args: &[&str], stdin: Option<&[u8]>, env: &[(&str, &str)]) -> Run {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ysess"));
        cmd.args(args)
            .current_dir(self.path())
            .env_remove("YSESS_FILE")
            .env_remove("NO_COLOR")
            .env("TZ", "UTC")
            // No memo of `log -n`'s branch search outside the test.
            .env("YSESS_CACHE_DIR", "")
            // The refs of app-owned sessions stay in the test's folder.
            .env("YSESS_REFS", self.path().join(".ysess-refs"))
            .env_remove("YSESS_PAGER")
            .stdin(if stdin.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("ysess starts");
        if let Some(bytes) = stdin {
            let mut pipe = child.stdin.take().expect("stdin is piped");
            pipe.write_all(bytes).expect("stdin takes the input");
        }
        let out = child.wait_with_output().expect("ysess finishes");
        Run {
            args: args.iter().map(|a| a.to_string()).collect(),
            status: out.status.code(),
            stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
        }
    }
}

/// Runs each of `runs` as a ysess process of its own in `dir` (as
/// [`Dir::run`] runs one), all started while `lock` is held so that they
/// queue up behind it, then set off at once; each one's arguments and
/// output, in order, once all have ended.
pub fn queued_behind_lock(
    dir: &Dir,
    lock: &Path,
    runs: &[Vec<String>],
) -> Vec<(String, std::process::Output)> {
    let held = std::fs::File::options()
        .read(true)
        .write(true)
        .open(lock)
        .expect("the file to lock");
    held.lock().expect("locked");
    let children: Vec<_> = runs
        .iter()
        .map(|args| {
            let child = Command::new(env!("CARGO_BIN_EXE_ysess"))
                .args(args)
                .current_dir(dir.path())
                .env_remove("YSESS_FILE")
                .env("YSESS_REFS", dir.join(".ysess-refs"))
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("ysess starts");
            (args.join(" "), child)
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(150));
    held.unlock().expect("unlocked");
    drop(held);
    children
        .into_iter()
        .map(|(args, child)| (args, child.wait_with_output().expect("ysess ends")))
        .collect()
}

pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// What one run printed, shown as a transcript when a test fails.
pub struct Run {
    pub args: Vec<String>,
    pub status: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The JSON Lines of stdout, each parsed.
    pub fn json_lines(&self) -> Vec<serde_json::Value> {
        self.stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}\n{self}"))
            })
            .collect()
    }

    /// Asserts the exit status, showing the whole transcript if it differs.
    #[track_caller]
    /// The `"type":"total"` line of `stats --json`.
    pub fn stats_total(&self) -> serde_json::Value {
        self.json_lines()
            .into_iter()
            .find(|l| l["type"] == "total")
            .unwrap_or_else(|| panic!("a total line\n{self}"))
    }

    pub fn status(&self, code: i32) -> &Run {
        assert_eq!(self.status, Some(code), "exit status\n{self}");
        self
    }

    #[track_caller]
    pub fn stdout(&self, expected: &str) -> &Run {
        assert_eq!(self.stdout, expected, "stdout\n{self}");
        self
    }

    #[track_caller]
    pub fn stderr(&self, expected: &str) -> &Run {
        assert_eq!(self.stderr, expected, "stderr\n{self}");
        self
    }
}

impl fmt::Display for Run {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "$ ysess {}", self.args.join(" "))?;
        writeln!(f, "--- stdout")?;
        write!(f, "{}", self.stdout)?;
        writeln!(f, "--- stderr")?;
        write!(f, "{}", self.stderr)?;
        writeln!(f, "--- exit {:?}", self.status)
    }
}

/// One yoagent-shaped line for hand-made sessions.
pub fn user_line(id: &str, parent: Option<&str>, text: &str) -> String {
    serde_json::json!({
        "id": id,
        "parent_id": parent,
        "message": {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1},
        "timestamp": 1_760_000_000_000u64,
    })
    .to_string()
}

/// A scratch directory whose `session.jsonl` is the README's demo session,
/// `tests/fixtures/demo.jsonl`.
pub fn demo() -> Dir {
    let dir = Dir::new();
    dir.fixture("demo.jsonl", "session.jsonl");
    dir
}

/// The same with the small demo session instead, [`sg::demo`] saved with
/// fixed times.
pub fn small_demo() -> Dir {
    let dir = Dir::new();
    dir.write("session.jsonl", sg::saved(&sg::demo()));
    dir
}

/// Runs ysess here with its stdout on a pseudo-terminal of `columns`
/// columns (0: size unknown), as a person at a terminal does; stderr stays
/// a pipe. The terminal's output, line ends as written, is the stdout.
/// The environment names no pager unless `env` does.
#[cfg(unix)]
pub fn run_on_terminal(dir: &Dir, args: &[&str], env: &[(&str, &str)], columns: u16) -> Run {
    let (terminal, reader) = open_terminal(columns);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ysess"));
    cmd.args(args)
        .current_dir(dir.path())
        .env("YSESS_REFS", dir.path().join(".ysess-refs"))
        .env_remove("YSESS_FILE")
        .env_remove("YSESS_PAGER")
        .env_remove("PAGER")
        .env_remove("COLUMNS")
        .env("NO_COLOR", "1")
        .env("TZ", "UTC")
        .env("YSESS_CACHE_DIR", "")
        .stdin(Stdio::null())
        .stdout(Stdio::from(terminal))
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = cmd.spawn().expect("ysess starts");
    // Only ysess (and its pager) may hold the terminal open now.
    drop(cmd);
    let out = child.wait_with_output().expect("ysess finishes");
    let seen = reader.seen();
    Run {
        args: args.iter().map(|a| a.to_string()).collect(),
        status: out.status.code(),
        // The terminal turns each newline into CR LF.
        stdout: String::from_utf8(seen)
            .expect("terminal output is UTF-8")
            .replace("\r\n", "\n"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

/// What a pseudo-terminal showed, read by a thread while ysess writes (so it
/// never blocks on a full buffer).
#[cfg(unix)]
pub struct TerminalReader(std::thread::JoinHandle<Vec<u8>>);

#[cfg(unix)]
impl TerminalReader {
    /// Everything the terminal showed; reading ends (EIO) once every writer
    /// has closed the terminal's other end.
    pub fn seen(self) -> Vec<u8> {
        self.0.join().expect("the terminal reader ends")
    }
}

/// A pseudo-terminal `rows` by `columns` (0 columns: size unknown): its
/// controlling end (closed on exec, so a child never holds it) and its
/// other end, the terminal a program is given.
#[cfg(unix)]
pub fn pseudo_terminal(rows: u16, columns: u16) -> (std::fs::File, std::fs::File) {
    use rustix::pty::{OpenptFlags, grantpt, openpt, ptsname, unlockpt};
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY | OpenptFlags::CLOEXEC)
        .expect("a pseudo-terminal");
    grantpt(&master).expect("grantpt");
    unlockpt(&master).expect("unlockpt");
    if columns > 0 {
        let size = rustix::termios::Winsize {
            ws_row: rows,
            ws_col: columns,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        rustix::termios::tcsetwinsize(&master, size).expect("the terminal takes a size");
    }
    let name = ptsname(&master, Vec::new()).expect("ptsname");
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(OsStr::from_bytes(name.as_bytes()))
        .expect("the terminal's other end opens");
    (std::fs::File::from(master), terminal)
}

/// A pseudo-terminal of `columns` columns (0: size unknown): its other end,
/// to hand to ysess as stdout or stderr, and the reader of what it shows.
#[cfg(unix)]
pub fn open_terminal(columns: u16) -> (std::fs::File, TerminalReader) {
    use std::io::Read;

    let (mut master, terminal) = pseudo_terminal(24, columns);
    let reader = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut chunk = [0u8; 4096];
        while let Ok(n @ 1..) = master.read(&mut chunk) {
            seen.extend_from_slice(&chunk[..n]);
        }
        seen
    });
    (terminal, TerminalReader(reader))
}

/// Tests that need a program outside Rust as ground truth: pi and ccusage
/// (Node.js, pinned in tests/pi and tests/ccusage) and Chromium. Where it is missing they fail, saying
/// which group and the one command that enables it; a person who means to
/// run without them says so with `YSESS_SKIP=pi,ccusage,duckdb,browser` (never under CI),
/// and each skipped test then says so on the terminal.
pub struct Group {
    pub name: &'static str,
    pub enable: &'static str,
}

pub const PI: Group = Group {
    name: "pi",
    enable: "npm ci --prefix tests/pi --omit=optional",
};

pub const CCUSAGE: Group = Group {
    name: "ccusage",
    enable: "npm install --prefix tests/ccusage",
};

pub const STRACE: Group = Group {
    name: "strace",
    enable: "apt-get install strace",
};

pub const BROWSER: Group = Group {
    name: "browser",
    enable: "apt-get install chromium (or set YSESS_CHROMIUM to a Chromium)",
};

/// Makes the Python environment `tests/FOLDER/.venv` from
/// `tests/FOLDER/requirements.txt`, as `.ci/run` does, unless `works`
/// already holds (the caller keeps the answer, to ask once per run): `None`
/// when it works after, else `why_not`.
pub fn python_venv(
    group: &Group,
    folder: &str,
    works: impl Fn() -> bool,
    why_not: &str,
) -> Option<String> {
    if works() {
        return None;
    }
    let _ = writeln!(
        std::io::stderr(),
        "setting up the {} tests: {} (once)",
        group.name,
        group.enable
    );
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let made = Command::new("python3")
        .args(["-m", "venv"])
        .arg(dir.join(".venv"))
        .output();
    let pip = Command::new(dir.join(".venv/bin/python"))
        .args(["-m", "pip", "install", "--quiet", "-r"])
        .arg(dir.join("requirements.txt"))
        .output();
    if made.is_ok_and(|o| o.status.success()) && pip.is_ok_and(|o| o.status.success()) && works() {
        None
    } else {
        Some(why_not.to_string())
    }
}

/// `group`'s program is missing (`why`): fails the test, unless
/// `YSESS_SKIP` names the group outside CI; then says it skipped, and the
/// caller returns.
#[track_caller]
pub fn missing(group: &Group, why: &str) {
    let skip = std::env::var("YSESS_SKIP").unwrap_or_default();
    let named = skip
        .split(',')
        .any(|g| g.trim() == group.name || g.trim() == "all");
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if !named || ci {
        panic!(
            "the {name} tests cannot run: {why}\n\
             enable them: {enable}\n\
             or skip them knowingly: YSESS_SKIP={name} cargo test{ci}",
            name = group.name,
            enable = group.enable,
            ci = if ci {
                " (not under CI, which runs every test)"
            } else {
                ""
            },
        );
    }
    // Straight to the terminal: libtest hides what a passing test prints.
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED ({name} tests, YSESS_SKIP={skip}): {why}; enable them: {enable}",
        name = group.name,
        enable = group.enable,
    );
}
