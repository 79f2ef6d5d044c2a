//! The agents themselves as the truth. Claude Code, Codex, Gemini CLI, Qwen
//! Code and Copilot CLI, pinned in `tests/agents/` (`npm ci --prefix
//! tests/agents --ignore-scripts`, which `.ci/run` and the tests run), say
//! what they resume against a mock model ([`mock`]); Claude Code and Codex
//! also write the test sessions.
//!
//! - `tests/fixtures/agents/<agent>/<scenario>/` holds what the agent wrote
//!   (its own folder layout under the agent's home: `projects/` for Claude
//!   Code, `sessions/` for Codex) and `mock.json`: the versions, and every
//!   model call the mock answered with the usage it reported.
//! - [`generate`] writes them anew, one scenario after another, with one
//!   command (docs/tests.md says which):
//!   `YSESS_REGENERATE=1 cargo test --test cli agents::generate -- --ignored`.
//! - The checks (in [`claude`] and [`codex`]) run on every committed file:
//!   `fsck` is clean, `branch` lists the scenario's forks, `export` is what
//!   the agent sends the mock when it resumes the file, and `stats --json`
//!   equals the mock's usage and ccusage's report.
//! - The sessions Gemini CLI, Qwen Code and Copilot CLI wrote are in
//!   `tests/fixtures/{gemini,qwen,copilot}/` (each its own README);
//!   [`gemini`], [`qwen`] and [`copilot`] check that `export` of each is
//!   what the agent sends the mock when it resumes it.

pub mod archive_hook;
pub mod claude;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod human;
pub mod mock;
pub mod qwen;
pub mod resume;
pub mod text;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::{Dir, Group};

pub const AGENTS: Group = Group {
    name: "agents",
    enable: "npm ci --prefix tests/agents --ignore-scripts",
};

/// The pinned versions, as `tests/agents/package.json` names them.
pub fn pinned(package: &str) -> String {
    let text = std::fs::read_to_string(root().join("tests/agents/package.json"))
        .expect("tests/agents/package.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("package.json is JSON");
    json["dependencies"][package]
        .as_str()
        .unwrap_or_else(|| panic!("{package} is pinned in tests/agents/package.json"))
        .to_string()
}

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn fixtures(agent: &str) -> PathBuf {
    root().join("tests/fixtures/agents").join(agent)
}

/// The agent's program: a native binary (npm skips install scripts here,
/// so the platform package's binary is called directly), or the script of
/// a node program ([`Agent::node`]).
pub fn binary(agent: Agent) -> PathBuf {
    let modules = root().join("tests/agents/node_modules");
    match agent {
        Agent::Claude => modules.join("@anthropic-ai/claude-code-linux-x64/claude"),
        Agent::Codex => {
            modules.join("@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex")
        }
        Agent::Gemini => modules.join("@google/gemini-cli/bundle/gemini.js"),
        Agent::Qwen => modules.join("@qwen-code/qwen-code/cli.js"),
        Agent::Copilot => modules.join("@github/copilot-linux-x64/copilot"),
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    Claude,
    Codex,
    /// Gemini CLI (`@google/gemini-cli`, a node program).
    Gemini,
    /// Qwen Code (`@qwen-code/qwen-code`, a node program).
    Qwen,
    /// GitHub Copilot CLI (`@github/copilot`; its loader only starts the
    /// platform package's binary).
    Copilot,
}

impl Agent {
    pub const ALL: [Agent; 5] = [
        Agent::Claude,
        Agent::Codex,
        Agent::Gemini,
        Agent::Qwen,
        Agent::Copilot,
    ];

    /// A node program: [`binary`] is its script, run with `node`.
    pub fn node(self) -> bool {
        matches!(self, Agent::Gemini | Agent::Qwen)
    }
}

/// Where Copilot CLI unpacks itself at its first start (its JavaScript and
/// runtime, 235 MB): one place for every test's home, beside the package,
/// so it unpacks once a `npm ci`.
fn copilot_cache() -> PathBuf {
    root().join("tests/agents/node_modules/.cache/copilot")
}

/// Why the agents cannot run here, if they cannot. Installs the pinned
/// versions first when they are missing and npm is there (once a run).
pub fn agents_missing() -> Option<String> {
    static SET_UP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SET_UP
        .get_or_init(|| {
            let have = || Agent::ALL.iter().all(|a| binary(*a).is_file());
            if !have() {
                let _ = writeln!(
                    std::io::stderr(),
                    "setting up the agent tests: npm ci --prefix tests/agents (once)"
                );
                let ran = Command::new("npm")
                    .args(["ci", "--prefix"])
                    .arg(root().join("tests/agents"))
                    .args(["--ignore-scripts", "--no-audit", "--no-fund"])
                    .output();
                if !ran.is_ok_and(|o| o.status.success()) || !have() {
                    let missing: Vec<String> = Agent::ALL
                        .iter()
                        .map(|a| binary(*a))
                        .filter(|b| !b.is_file())
                        .map(|b| b.display().to_string())
                        .collect();
                    return Some(format!(
                        "{} missing, and `npm ci --prefix tests/agents` could not install it",
                        missing.join(", ")
                    ));
                }
            }
            None
        })
        .clone()
}

/// Skips (or fails, under CI) when the agents cannot run; true when they can.
pub fn ready() -> bool {
    match agents_missing() {
        Some(why) => {
            crate::support::missing(&AGENTS, &why);
            false
        }
        None => true,
    }
}

/// A home of the agent's own for one run: `home/` as `HOME`, `work/` the
/// project it runs in.
pub struct Home {
    pub dir: Dir,
}

impl Home {
    pub fn new() -> Home {
        let dir = Dir::new();
        std::fs::create_dir_all(dir.join("home")).expect("a home");
        std::fs::create_dir_all(dir.join("work")).expect("a project folder");
        Home { dir }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.join("home")
    }

    pub fn work(&self) -> PathBuf {
        self.dir.join("work")
    }

    /// Runs `agent` with `args` in the project folder against `mock`.
    pub fn run(&self, agent: Agent, mock: &mock::Mock, args: &[&str]) -> Output {
        self.command(agent, mock, args)
            .output()
            .expect("the agent starts")
    }

    /// Runs `agent` with `args` until `ready` says of the mock that the
    /// moment has come (the model is streaming, a tool was called) and
    /// `then` more has passed, interrupts it as Ctrl-C does (SIGINT) and
    /// waits for it to end.
    pub fn interrupt(
        &self,
        agent: Agent,
        mock: &mock::Mock,
        args: &[&str],
        ready: impl Fn(&mock::Mock) -> bool,
        then: std::time::Duration,
    ) {
        let mut child = self
            .command(agent, mock, args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the agent starts");
        let started = std::time::Instant::now();
        while !ready(mock) {
            assert!(
                started.elapsed().as_secs() < 60,
                "the moment to interrupt never came"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        std::thread::sleep(then);
        let _ = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status();
        let _ = child.wait();
    }

    pub fn command(&self, agent: Agent, mock: &mock::Mock, args: &[&str]) -> Command {
        let mut cmd = if agent.node() {
            let mut node = Command::new("node");
            node.arg(binary(agent));
            node
        } else {
            Command::new(binary(agent))
        };
        cmd.args(args)
            .current_dir(self.work())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home())
            .env("TZ", "UTC")
            .env("LANG", "C.UTF-8")
            .stdin(std::process::Stdio::null());
        match agent {
            Agent::Claude => {
                cmd.env("ANTHROPIC_BASE_URL", mock.base_url())
                    .env("ANTHROPIC_API_KEY", "sk-ysess-mock")
                    .env("CLAUDE_CODE_MAX_RETRIES", "0")
                    .env("DISABLE_AUTOUPDATER", "1")
                    .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .env("DISABLE_TELEMETRY", "1");
            }
            Agent::Codex => {
                let codex_home = self.home().join(".codex");
                std::fs::create_dir_all(&codex_home).expect("a Codex home");
                std::fs::write(
                    codex_home.join("config.toml"),
                    format!(
                        "model = \"{}\"\nmodel_provider = \"mock\"\n\
                         [model_providers.mock]\nname = \"mock\"\n\
                         base_url = \"{}/v1\"\nenv_key = \"YSESS_MOCK_KEY\"\n\
                         wire_api = \"responses\"\nrequest_max_retries = 0\n\
                         stream_max_retries = 0\n",
                        codex::MODEL,
                        mock.base_url()
                    ),
                )
                .expect("Codex's config");
                cmd.env("CODEX_HOME", codex_home)
                    .env("YSESS_MOCK_KEY", "sk-ysess-mock");
            }
            Agent::Gemini => {
                // An API key as the way in (no Google login), and no usage
                // statistics sent anywhere; merged into the settings a test
                // put there (a hook).
                let gemini = self.home().join(".gemini");
                std::fs::create_dir_all(&gemini).expect("a Gemini home");
                let file = gemini.join("settings.json");
                let mut settings: serde_json::Value = std::fs::read(&file)
                    .ok()
                    .and_then(|b| serde_json::from_slice(&b).ok())
                    .unwrap_or_else(|| serde_json::json!({}));
                merge(
                    &mut settings,
                    serde_json::json!({
                        "security": {"auth": {"selectedType": "gemini-api-key"}},
                        "privacy": {"usageStatisticsEnabled": false},
                        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
                    }),
                );
                std::fs::write(&file, settings.to_string()).expect("Gemini CLI's settings");
                // It starts itself again in a child with a larger heap
                // unless told not to (a second start, a second a run).
                cmd.env("GEMINI_API_KEY", "ysess-mock")
                    .env("GOOGLE_GEMINI_BASE_URL", mock.base_url())
                    .env("GEMINI_CLI_TRUST_WORKSPACE", "true")
                    .env("GEMINI_CLI_NO_RELAUNCH", "true");
            }
            Agent::Qwen => {
                // Its own model provider; and no second start in a child
                // (as Gemini CLI's).
                cmd.env("OPENAI_API_KEY", "sk-ysess-mock")
                    .env("OPENAI_BASE_URL", format!("{}/v1", mock.base_url()))
                    .env("OPENAI_MODEL", "mock-model")
                    .env("QWEN_CODE_NO_RELAUNCH", "true");
            }
            Agent::Copilot => {
                // Its own model provider ("bring your own key"), offline: no
                // GitHub account, telemetry or update.
                cmd.env("COPILOT_OFFLINE", "true")
                    .env(
                        "COPILOT_PROVIDER_BASE_URL",
                        format!("{}/v1", mock.base_url()),
                    )
                    .env("COPILOT_PROVIDER_API_KEY", "sk-ysess-mock")
                    .env("COPILOT_MODEL", "mock-model")
                    .env("COPILOT_AUTO_UPDATE", "false")
                    .env("COPILOT_CACHE_HOME", copilot_cache());
            }
        }
        cmd
    }
}

/// `from`'s keys set in `into`, objects merged key by key.
pub fn merge(into: &mut serde_json::Value, from: serde_json::Value) {
    match (into, from) {
        (serde_json::Value::Object(into), serde_json::Value::Object(from)) => {
            for (k, v) in from {
                merge(into.entry(k).or_insert(serde_json::Value::Null), v);
            }
        }
        (into, from) => *into = from,
    }
}

/// Asserts an agent's run succeeded, showing what it said if not.
#[track_caller]
pub fn succeeded(out: &Output, what: &str) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what}: exit {:?}\n--- stdout\n{stdout}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// Every file under `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in read.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Copies the tree `from` into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    for f in files_under(from) {
        let rel = f.strip_prefix(from).expect("under the tree");
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().expect("a parent")).expect("a folder");
        std::fs::copy(&f, &dest).expect("copied");
    }
}

/// What the generator records beside a scenario's files.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Record {
    /// The agent and its version (`claude-code 2.1.328`).
    pub agent: String,
    pub scenario: String,
    /// What the scenario does, in a sentence.
    pub about: String,
    /// The branches the scenario made in its main session's tree (1 for a
    /// conversation without forks).
    pub branches: usize,
    /// Every model call the mock answered, in order.
    pub calls: Vec<Call>,
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Call {
    pub model: String,
    /// The session the call was made for (the agent's header or metadata),
    /// where the request names it.
    pub session: Option<String>,
    /// The id the mock gave the reply (`message.id` in a Claude Code line).
    pub reply: String,
    pub usage: mock::Usage,
}

impl Record {
    pub fn read(scenario: &Path) -> Record {
        let text = std::fs::read_to_string(scenario.join("mock.json"))
            .unwrap_or_else(|e| panic!("{}: {e}", scenario.join("mock.json").display()));
        serde_json::from_str(&text).expect("mock.json reads")
    }
}

/// The scenario folders of one agent's committed corpus.
pub fn scenarios(agent: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures(agent))
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.join("mock.json").is_file())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Writes every agent's scenarios anew into `tests/fixtures/agents/`.
/// Run with `YSESS_REGENERATE=1 cargo test --test cli agents::generate --
/// --ignored` after changing a pinned version in `tests/agents/`.
#[test]
#[ignore = "writes the agent-written fixtures anew: YSESS_REGENERATE=1 cargo test --test cli agents::generate -- --ignored"]
fn generate() {
    assert!(
        std::env::var_os("YSESS_REGENERATE").is_some(),
        "set YSESS_REGENERATE=1 to write tests/fixtures/agents anew"
    );
    assert!(ready(), "the agents must be installed to generate");
    let only = std::env::var("YSESS_SCENARIO").ok();
    claude::generate(only.as_deref());
    codex::generate(only.as_deref());
}

/// Tokens as the three judges count them: (input, output, cache read,
/// cache write).
pub type Tokens = (u64, u64, u64, u64);

pub fn mock_tokens(calls: &[&Call]) -> Tokens {
    let mut t = mock::Usage::default();
    for c in calls {
        t.add(&c.usage);
    }
    (
        t.input,
        t.output,
        t.cache_read,
        t.cache_write_5m + t.cache_write_1h,
    )
}

/// `ysess stats --all --json`'s total in a home where only `env` names
/// session folders: its tokens and cost.
pub fn ysess_all(env: &[(&str, &str)]) -> (Tokens, Option<f64>) {
    let dir = Dir::new();
    let home = dir.join("home");
    std::fs::create_dir_all(&home).expect("a home");
    let home = home.to_str().expect("a UTF-8 path").to_string();
    let mut all_env = vec![
        ("HOME", home.as_str()),
        ("YSESS_PATH", ""),
        ("XDG_CONFIG_HOME", home.as_str()),
    ];
    all_env.extend_from_slice(env);
    let run = dir.run_with(&["stats", "--all", "--json"], None, &all_env);
    run.status(0);
    let total = run.stats_total();
    let k = &total["tokens"];
    let n = |key: &str| k[key].as_u64().unwrap_or(0);
    (
        (n("input"), n("output"), n("cache_read"), n("cache_write")),
        total["cost"].as_f64(),
    )
}

/// ccusage's totals (`ccusage [SUB] daily --json --offline`) with `env`.
pub fn ccusage_daily(sub: Option<&str>, env: &[(&str, &str)]) -> (Tokens, f64) {
    let args: Vec<&str> = sub.into_iter().chain(["daily"]).collect();
    let t = crate::ccusage::totals(&crate::ccusage::ccusage_json(&args, env));
    ((t.input, t.output, t.cache_read, t.cache_write), t.cost)
}

/// Writes what the mock saw of a scenario beside its files.
pub fn write_record(
    to: &Path,
    agent: String,
    scenario: (&str, &str, usize),
    mock: &mock::Mock,
    session_of: fn(&serde_json::Value) -> Option<String>,
) {
    let (name, about, branches) = scenario;
    let record = Record {
        agent,
        scenario: name.to_string(),
        about: about.to_string(),
        branches,
        calls: mock
            .calls()
            .into_iter()
            .map(|c| Call {
                model: c.model.clone().unwrap_or_default(),
                session: session_of(&c.body),
                reply: c.reply.clone().unwrap_or_default(),
                usage: c.usage.expect("a call has usage"),
            })
            .collect(),
    };
    std::fs::write(
        to.join("mock.json"),
        serde_json::to_string_pretty(&record).expect("the record serializes") + "\n",
    )
    .expect("mock.json writes");
}

/// The committed scenarios of `agent`, at least five.
pub fn the_scenarios(agent: &str) -> Vec<PathBuf> {
    let all = scenarios(agent);
    assert!(
        all.len() >= 5,
        "tests/fixtures/agents/{agent} holds {} scenarios; regenerate them (see tests/cli/agents/mod.rs)",
        all.len()
    );
    all
}

/// `ysess -f FILE ARGS…` in `dir`.
pub fn ysess(dir: &Dir, file: &Path, args: &[&str]) -> crate::support::Run {
    let mut all = vec!["-f", file.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    dir.run(&all)
}

/// Each file's `export` read as turns (`read`) beside what the agent
/// resumes of it (`resumed`): how many were compared, and each difference.
pub fn compare_resumes(
    files: Vec<PathBuf>,
    resumed: impl Fn(&Path) -> Vec<text::Turn>,
    read: fn(&[serde_json::Value]) -> Vec<text::Turn>,
) -> (usize, Vec<String>) {
    let dir = Dir::new();
    let mut differ = Vec::new();
    for file in &files {
        let agent = resumed(file);
        let export = ysess(&dir, file, &["export"]);
        export.status(0);
        let messages: Vec<serde_json::Value> =
            serde_json::from_str(&export.stdout).expect("export is JSON");
        if let Some(diff) = text::difference(&agent, &read(&messages)) {
            differ.push(format!("{}: {diff}", file.display()));
        }
    }
    (files.len(), differ)
}

/// What differs among the three judges of one scenario's account: the
/// mock's tokens, ysess's and ccusage's, and the two costs (to a cent).
pub fn account_differs(
    scenario: &str,
    mock: Tokens,
    (ours, cost): (Tokens, Option<f64>),
    (theirs, their_cost): (Tokens, f64),
) -> Vec<String> {
    let mut differ = Vec::new();
    if ours != mock || theirs != mock {
        differ.push(format!(
            "{scenario}: tokens (in, out, cache read, cache write): mock {mock:?}, ysess {ours:?}, ccusage {theirs:?}"
        ));
    }
    let cost = cost.unwrap_or(f64::NAN);
    if cost.is_nan() || (cost - their_cost).abs() >= 0.005 {
        differ.push(format!(
            "{scenario}: cost: ysess ${cost:.6}, ccusage ${their_cost:.6}"
        ));
    }
    differ
}

/// `fsck` of a file the agent wrote finds nothing: no error, no warning.
pub fn fsck_is_clean(dir: &Dir, file: &Path) {
    let run = ysess(dir, file, &["fsck"]);
    run.status(0);
    assert!(!run.stderr.contains("warning"), "{run}");
}

/// The tokens `stats --json` totals for one file.
pub fn stats_tokens(dir: &Dir, file: &Path) -> Tokens {
    let run = ysess(dir, file, &["stats", "--json"]);
    let total = run.status(0).stats_total();
    let n = |k: &str| total["tokens"][k].as_u64().unwrap_or(0);
    (n("input"), n("output"), n("cache_read"), n("cache_write"))
}

/// What each resume check says to the agent: its own words, left out of
/// what is compared ([`probed`]).
pub const PROBE: &str = "ysess resume probe: reply with one word.";

/// The conversation of the request the mock got with [`PROBE`] in it (its
/// `messages` or `input`, named by `key`), as turns ([`text`] reads them
/// with `read`), the probe's own words left out.
pub fn probed(
    mock: &mock::Mock,
    key: &str,
    read: fn(&[serde_json::Value]) -> Vec<text::Turn>,
) -> Vec<text::Turn> {
    let call = mock
        .calls()
        .into_iter()
        .find(|c| c.body[key].to_string().contains(PROBE))
        .expect("the resumed request");
    let mut turns = read(
        call.body[key]
            .as_array()
            .expect("the request's conversation"),
    );
    if let Some(last) = turns.last_mut() {
        last.said
            .retain(|s| *s != text::Said::Text(PROBE.to_string()));
        if last.said.is_empty() {
            turns.pop();
        }
    }
    turns
}

impl Agent {
    /// Its command, as `ysess resume` finds it on `PATH`.
    pub fn command_name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Gemini => "gemini",
            Agent::Qwen => "qwen",
            Agent::Copilot => "copilot",
        }
    }
}

/// A word quoted for a POSIX shell as `ysess resume --print` quotes it.
pub fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_alphanumeric() || "-_./:@+,%".contains(c);
    if !word.is_empty() && word.chars().all(safe) && !word.starts_with('~') {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// A folder holding `agent`'s command under its own name, to put first on
/// `PATH` for `ysess resume`: a script that runs the pinned agent (a node
/// program with `node`) with the variables [`Home::command`] gives it for
/// `mock`, and of the caller's environment only `PATH` and the agent's
/// home that ysess may set (`QWEN_RUNTIME_DIR`, `GEMINI_CLI_HOME`,
/// `COPILOT_HOME`). Written anew at each call (a new mock, a new address).
pub fn agent_on_path(home: &Home, agent: Agent, mock: &mock::Mock) -> PathBuf {
    use std::os::unix::fs::PermissionsExt as _;
    let bin = home.dir.join("bin");
    std::fs::create_dir_all(&bin).expect("a bin folder");
    let model = home.command(agent, mock, &[]);
    let mut words = vec!["exec env -i PATH=\"$PATH\"".to_string()];
    for name in ["QWEN_RUNTIME_DIR", "GEMINI_CLI_HOME", "COPILOT_HOME"] {
        words.push(format!("${{{name}+\"{name}=${name}\"}}"));
    }
    for (name, value) in model.get_envs() {
        let (Some(name), Some(value)) = (name.to_str(), value.and_then(|v| v.to_str())) else {
            continue;
        };
        if name != "PATH" {
            words.push(shell_word(&format!("{name}={value}")));
        }
    }
    if agent.node() {
        words.push("node".to_string());
    }
    words.push(shell_word(binary(agent).to_str().expect("a UTF-8 path")));
    words.push("\"$@\"".to_string());
    let script = bin.join(agent.command_name());
    std::fs::write(&script, format!("#!/bin/sh\n{}\n", words.join(" "))).expect("the script");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("runnable");
    bin
}

/// `ysess -f FILE ARGS…` as the person at `home` runs it: their `HOME`,
/// `bin` first on `PATH`, ysess's refs in `home`'s folder ([`Dir::run`]).
pub fn ysess_at(home: &Home, bin: &Path, file: &Path, args: &[&str]) -> crate::support::Run {
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let mut all = vec!["-f", file.to_str().expect("a UTF-8 path")];
    all.extend_from_slice(args);
    home.dir.run_with(
        &all,
        None,
        &[
            ("HOME", home.home().to_str().expect("a UTF-8 path")),
            ("PATH", path.to_str().expect("a UTF-8 PATH")),
        ],
    )
}

/// Where an agent's request holds the conversation, and how it is read as
/// turns.
pub type Request = (&'static str, fn(&[serde_json::Value]) -> Vec<text::Turn>);

/// One agent's `ysess resume` check ([`resumes_at_a_tag_and_at_the_end`]).
pub struct Resuming<'a> {
    pub agent: Agent,
    /// A copy of a session it wrote, laid out in the [`Home`] as it keeps
    /// it.
    pub file: &'a Path,
    /// The session's id, as the agent resumes it.
    pub id: &'a str,
    /// The entry tagged `first`: one before the last user turn.
    pub entry: &'a str,
    /// The agent's arguments before the probe (`-p`).
    pub args: &'a [&'a str],
    /// The agent's `--resume` argument for a session id.
    pub resume: fn(&str) -> Vec<String>,
    /// Where the session's working directory is: where the agent runs.
    pub cwd: &'a Path,
    /// The agent's requests, and how `export` of the session reads.
    pub request: Request,
    pub export: fn(&[serde_json::Value]) -> Vec<text::Turn>,
}

/// A session file ysess wrote for a resume: its id and path, as `Wrote
/// session ID for APP: PATH` on stderr names them.
pub fn wrote(run: &crate::support::Run) -> Option<(String, PathBuf)> {
    run.stderr.lines().find_map(|l| {
        let rest = l.strip_prefix("Wrote session ")?;
        let (id, rest) = rest.split_once(" for ")?;
        let (_, path) = rest.split_once(": ")?;
        Some((id.to_string(), PathBuf::from(path)))
    })
}

/// What [`resumes_at_a_tag_and_at_the_end`] saw: the session files ysess
/// wrote for `resume first --print` and for `resume first` (id, path).
pub struct Resumed {
    pub printed: (String, PathBuf),
    pub ran: (String, PathBuf),
}

/// `ysess resume` proven by the agent itself on a copy of a session it
/// wrote: `tag first ENTRY` and `checkout -b try first` leave the file as
/// the agent wrote it and move HEAD to `first`; `resume first --print`
/// prints `cd -- CWD && AGENT --resume NEW ARGS` (NEW the session ysess
/// wrote); `resume first -- ARGS PROBE` runs the agent found on `PATH`
/// against a mock, which gets exactly `export first`, the original file
/// unchanged, and the agent goes on in the new session's file; back at the
/// end (`checkout -`), `resume` runs the agent on the original id, writing
/// nothing, and the mock gets exactly `export` of the end.
pub fn resumes_at_a_tag_and_at_the_end(home: &Home, r: &Resuming<'_>) -> Resumed {
    use mock::{Mock, Reply, Usage};
    let (key, read) = r.request;
    let before = std::fs::read(r.file).expect("reads");
    let unchanged = |what: &str| {
        let now = std::fs::read(r.file);
        assert!(
            now.as_ref().is_ok_and(|now| *now == before),
            "{what}: the file is as {:?} wrote it ({}); beside it: {:?}",
            r.agent,
            now.map_or_else(|e| e.to_string(), |_| "changed".to_string()),
            r.file.parent().map(files_under).unwrap_or_default()
        );
    };
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    let bin = agent_on_path(home, r.agent, &mock);
    let ysess = |args: &[&str]| ysess_at(home, &bin, r.file, args);
    let exported = |rev: &str| {
        let run = ysess(&["export", rev]);
        let messages: Vec<serde_json::Value> =
            serde_json::from_str(&run.status(0).stdout).expect("export is JSON");
        (r.export)(&messages)
    };
    let with_probe = |words: &[&'static str]| -> Vec<&str> {
        let mut all: Vec<&str> = words.to_vec();
        all.push("--");
        all.extend_from_slice(r.args);
        all.push(PROBE);
        all
    };
    let command = |id: &str| {
        let mut words = vec![r.agent.command_name().to_string()];
        words.extend((r.resume)(id));
        words.extend(r.args.iter().map(|a| a.to_string()));
        words.push(PROBE.to_string());
        let words: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
        format!(
            "cd -- {} && {}\n",
            shell_word(r.cwd.to_str().expect("UTF-8")),
            words.join(" ")
        )
    };

    // 1. The tag and the branch are ysess's own records, not the file's.
    ysess(&["tag", "first", r.entry]).status(0);
    ysess(&["checkout", "-b", "try", "first"]).status(0);
    unchanged("after tag and checkout");
    let head = ysess(&["log", "--oneline", "-n", "1"]);
    let head = head.status(0).stdout.clone();
    let labels: Vec<&str> = head
        .strip_prefix(&format!("{} (", &r.entry[..8]))
        .and_then(|rest| rest.split_once(')'))
        .map(|(labels, _)| labels.split(", ").collect())
        .unwrap_or_default();
    assert!(
        labels.contains(&"HEAD") && labels.contains(&"first"),
        "HEAD is at `first`: {head}"
    );

    // 2. At `first`: a new session, the path to it.
    let printed = ysess(&with_probe(&["resume", "first", "--print"]));
    printed.status(0);
    let (id, path) = wrote(&printed).unwrap_or_else(|| panic!("a new session\n{printed}"));
    assert_ne!(id, r.id, "{printed}");
    assert!(path.is_file(), "{printed}");
    assert_eq!(printed.stdout, command(&id), "{printed}");
    unchanged("after resume --print");
    let path_to_first = exported("first");
    let ran = ysess(&with_probe(&["resume", "first"]));
    let (ran_id, ran_path) = wrote(&ran).unwrap_or_else(|| panic!("a new session\n{ran}"));
    assert_eq!(
        ran.status,
        Some(0),
        "{ran}\n--- the session ysess wrote ({})\n{}",
        ran_path.display(),
        std::fs::read_to_string(&ran_path).unwrap_or_default()
    );
    let calls = mock.calls();
    assert!(
        calls
            .iter()
            .any(|c| c.body[key].to_string().contains(PROBE)),
        "the agent sent the probe\n{ran}"
    );
    let sent = probed(&mock, key, read);
    assert_eq!(
        text::difference(&sent, &path_to_first),
        None,
        "what {:?} sent on `resume first` is `export first`\n{ran}",
        r.agent
    );
    unchanged("after resume first");
    let went_on = ysess_at(home, &bin, &ran_path, &["log", "--format", "{subject}"]);
    assert!(
        went_on.status(0).stdout.lines().any(|l| l == PROBE),
        "the agent went on in the session ysess wrote\n{went_on}"
    );

    // 3. At the end: the original id, nothing written.
    ysess(&["checkout", "-"]).status(0);
    let printed_end = ysess(&with_probe(&["resume", "--print"]));
    printed_end.status(0);
    assert_eq!(wrote(&printed_end), None, "{printed_end}");
    assert_eq!(printed_end.stdout, command(r.id), "{printed_end}");
    let the_end = exported("HEAD");
    let mock = Mock::start(|_| Reply::text("Going on.", Usage::default()));
    agent_on_path(home, r.agent, &mock);
    let ran_end = ysess(&with_probe(&["resume"]));
    ran_end.status(0);
    assert_eq!(wrote(&ran_end), None, "{ran_end}");
    let sent = probed(&mock, key, read);
    assert_eq!(
        text::difference(&sent, &the_end),
        None,
        "what {:?} sent on `resume` at the end is `export` of it\n{ran_end}",
        r.agent
    );
    Resumed {
        printed: (id, path),
        ran: (ran_id, ran_path),
    }
}
