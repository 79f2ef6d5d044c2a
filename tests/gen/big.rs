//! The benches' large, realistic session.
//!
//! Everything is written through yoagent's own `Session` API, so the JSONL
//! is exactly what an app using yoagent writes: user turns, agent rounds of
//! assistant messages (thinking, text, tool calls) and tool results, forks
//! made by `seek` + `append` (edit and re-run) and by `seek_checkpoint`,
//! labels made by `checkpoint` (some names repeat), and a custom
//! `status_update` record now and then.
//!
//! The output is a pure function of `(entries, seed)`, byte for byte: message
//! and entry times come from a fake clock (see [`jsonl_at`]), so the file is
//! what yoagent would have written had its clock read those times.

use serde_json::{Value, json};
use yoagent::provider::ApiProtocol;
use yoagent::{AgentMessage, Content, Message, Session, StopReason, Usage};

use super::{Rng, assistant_at, custom, jsonl_at, tool_result_at, user_at};

/// The seed the benchmark uses.
pub const DEFAULT_SEED: u64 = 0x5e55_10de_2026;

/// A session of exactly `entries` entries, as the JSONL text
/// `std::fs::write(path, session.to_jsonl())` would save.
pub fn generate_jsonl(entries: usize, seed: u64) -> String {
    let mut g = Gen::new(seed);
    while g.len() < entries {
        g.turn(entries);
    }
    jsonl_at(&g.session, |i| g.stamp[i])
}

// ---------------------------------------------------------------------------
// Vocabulary
// ---------------------------------------------------------------------------

/// Common words, as often as they should be picked (split on whitespace).
const WORDS: &str = "\
    the the the a a to to of of and and in is is it that this we we should \
    can will not for on with when then so but if instead because now first \
    next also only parser session entry entries branch checkpoint label head \
    tree file line lines error errors test tests function method struct \
    field value index offset buffer bytes string type trait module crate \
    build compile run fix change read write check parse return returns \
    handle handles call calls look see try keep add remove rename move split \
    merge fails passes works broke loop iterator allocation memory fast slow \
    simple correct wrong missing unused duplicate parent child children fork \
    revision path output input format JSON JSONL UTF-8 serde cargo clippy \
    stdout stderr exit code flag option argument config benchmark profile \
    latency throughput cache hash digest stream mmap chunk record";

/// Words that exercise escaping and unicode: quotes, backslashes, tabs,
/// newlines, accents, CJK, emoji, a zero-width space, a right-to-left word.
const SPICE: &[&str] = &[
    "naïve",
    "résumé",
    "café",
    "日本語",
    "中文字符",
    "Ünïcödé",
    "emoji 🚀",
    "😀",
    "✅",
    "«guillemets»",
    "Ω≈ç√∫",
    "\"quoted\"",
    "'single'",
    "back\\slash",
    "C:\\Users\\dev",
    "tab\there",
    "line\nbreak",
    "zero\u{200b}width",
    "עברית",
    "`code`",
    "<tag attr=\"1\">",
    "a & b",
    "{\"json\": true}",
    "100%",
    "—",
];

const PATHS: &[&str] = &[
    "src/main.rs",
    "src/lib.rs",
    "src/scan.rs",
    "src/index.rs",
    "src/read.rs",
    "src/schema.rs",
    "src/check.rs",
    "src/cli/mod.rs",
    "src/cli/log.rs",
    "src/cli/fsck.rs",
    "tests/cli/main.rs",
    "tests/fixtures/medium.jsonl",
    "Cargo.toml",
    "README.md",
    "benches/fsck.rs",
    "docs/design notes.md",
    "src/naïve/mod.rs",
    "scripts/gen.py",
    "web/src/app.tsx",
    ".github/workflows/ci.yml",
];

const CODE: &[&str] = &[
    r#"fn parse_line(input: &str) -> Result<Entry, Error> {"#,
    r#"    let re = Regex::new(r"^\s*(\w+)\s*=\s*\"(.*)\"$").unwrap();"#,
    r#"    println!("{}: {:?}\n", name, value);"#,
    "\tif line.ends_with('\\\\') {",
    "\t\tcontinue;",
    "\t}",
    r#"    // TODO: handle naïve UTF-8 paths — 日本語 too"#,
    r#"    let path = "C:\\Users\\dev\\project\\session.jsonl";"#,
    r#"    return Err(format!("unexpected token '{}' at {}:{}", tok, line, col).into());"#,
    "}",
    "",
    "",
    "#[derive(Debug, Clone, PartialEq, Eq)]",
    "pub struct Entry { pub id: String, pub parent_id: Option<String>, pub label: Option<String> }",
    "    match self.state {",
    "        State::Idle => {}",
    r#"        _ => unreachable!("bad state: {:?}", self.state),"#,
    "    }",
    "    for (i, ch) in text.char_indices() {",
    r#"        if ch == '"' || ch == '\\' { out.push('\\'); }"#,
    r#"    assert_eq!(split("a\tb\tc"), vec!["a", "b", "c"]);"#,
    "    let mut seen: HashSet<&str> = HashSet::with_capacity(n);",
    "    let bytes = std::fs::read(path).with_context(|| format!(\"reading {}\", path.display()))?;",
    "    for line in memchr::memchr_iter(b'\\n', &bytes) {",
    "        offsets.push(line as u64 + 1);",
    "    Ok(())",
    "impl fmt::Display for Revision {",
    "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {",
    r#"        write!(f, "{}@{}", self.label, self.id)"#,
    "def load(path):",
    r#"    with open(path, encoding="utf-8") as f:"#,
    r#"        return [json.loads(l) for l in f if l.strip()]"#,
    r#"    print(f"{len(rows)} rows\t{elapsed:.2f}s")"#,
    r#"const label = `checkpoint-${n}`; // "quoted" and 'single'"#,
    "    if (!entry.parent_id) { roots.push(entry.id); }",
    r#"SELECT id, parent_id FROM entries WHERE label = 'wip' AND text LIKE '%\%%';"#,
    "    let emoji = \"🚀✅\"; let cjk = \"中文\"; // mixed widths",
];

const COMMANDS: &[&str] = &[
    "cargo test -q",
    "cargo build --release 2>&1 | tail -n 20",
    "cargo clippy --all-targets -- -D warnings",
    "cargo fmt --check",
    "git status --short",
    "git diff --stat HEAD~1",
    "git log --oneline -n 15",
    "ls -la src/",
    "rg -n \"parent_id\" src/ | head -n 40",
    "wc -l tests/fixtures/*.jsonl",
    "python3 scripts/gen.py --entries 1000 > /tmp/s.jsonl && ysess fsck /tmp/s.jsonl",
    "find . -name '*.rs' -newer Cargo.toml | xargs grep -l 'unsafe'",
    "echo \"naïve \\\"quoted\\\" line\" | jq -R .",
    "hyperfine --warmup 2 'ysess fsck big.jsonl'",
];

/// Tool names, as often as they should be picked (split on whitespace).
const TOOLS: &str = "\
    bash bash bash read_file read_file read_file edit edit \
    grep grep write_file list_files web_fetch todo_write";

/// Label names: a few repeat across the session, the rest are unique.
const LABELS: &[&str] = &[
    "first-draft",
    "before-refactor",
    "tests-green",
    "wip",
    "release-candidate",
    "bisect-good",
    "naïve-approach",
    "v2 draft",
];

const STATUSES: &[&str] = &["running", "waiting", "compacting", "idle", "done"];

const MODELS: &[(&str, &str)] = &[
    ("claude-sonnet-5", "anthropic"),
    ("claude-sonnet-5", "anthropic"),
    ("claude-sonnet-5", "anthropic"),
    ("claude-opus-4-5", "anthropic"),
    ("gpt-5.1", "openai"),
    ("gemini-3-pro", "google"),
];

// ---------------------------------------------------------------------------
// The session walker
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    User,
    Assistant,
    ToolResult,
    Custom,
}

struct Gen {
    rng: Rng,
    /// [`WORDS`] and [`TOOLS`], split.
    words: Vec<&'static str>,
    tools: Vec<&'static str>,
    session: Session,
    /// Parent index (`usize::MAX` for the root) and kind of every entry, by
    /// index; ids are `e{index + 1}`, as `Session::append` assigns them.
    parent: Vec<usize>,
    kind: Vec<Kind>,
    /// Entry timestamp (fake clock, ms) of every entry, by index.
    stamp: Vec<u64>,
    head: usize,
    /// Message clock (ms), advanced a little per message.
    ts: u64,
    turns: u64,
    unique_labels: u64,
    /// Labels given so far (for `seek_checkpoint` forks).
    used_labels: Vec<String>,
    /// Index of the latest entry carrying each label, as `seek_checkpoint`
    /// would choose it.
    label_at: std::collections::HashMap<String, usize>,
}

impl Gen {
    fn new(seed: u64) -> Self {
        Gen {
            rng: Rng::new(seed),
            words: WORDS.split_whitespace().collect(),
            tools: TOOLS.split_whitespace().collect(),
            session: Session::new(),
            parent: Vec::new(),
            kind: Vec::new(),
            stamp: Vec::new(),
            head: usize::MAX,
            ts: 1_760_000_000_000,
            turns: 0,
            unique_labels: 0,
            used_labels: Vec::new(),
            label_at: std::collections::HashMap::new(),
        }
    }

    fn len(&self) -> usize {
        self.parent.len()
    }

    fn tick(&mut self, lo_s: usize, hi_s: usize) -> u64 {
        self.ts += (self.rng.range(lo_s * 1000, hi_s * 1000)) as u64;
        self.ts
    }

    fn push(&mut self, kind: Kind, message: AgentMessage) {
        self.session.append(message);
        // The app appends a little after the message was made.
        self.ts += self.rng.range(20, 900) as u64;
        self.stamp.push(self.ts);
        self.parent.push(self.head);
        self.kind.push(kind);
        self.head = self.len() - 1;
    }

    fn id(i: usize) -> String {
        format!("e{}", i + 1)
    }

    /// One user turn and the agent's rounds that answer it, stopping early
    /// once `limit` entries exist.
    fn turn(&mut self, limit: usize) {
        self.turns += 1;
        if self.len() > 20 && self.rng.chance(60) {
            self.fork();
        }
        let user = self.user_message();
        self.push(Kind::User, user.into());

        let rounds = self.rng.log_range(1, 12);
        for round in 0..rounds {
            let room = limit.saturating_sub(self.len());
            if room == 0 {
                return;
            }
            let mut last = round + 1 == rounds;
            let mut calls = match (last, self.rng.below(20)) {
                (true, _) => 0,
                (false, 0..12) => 1,
                (false, 12..17) => 2,
                (false, 17..19) => 3,
                (false, _) => 4,
            };
            // Leave room for the results and a closing answer: the session
            // never ends with a tool call left unanswered.
            if calls + 2 > room {
                calls = room.saturating_sub(2);
                last = calls == 0;
            }
            let (msg, names) = self.assistant_message(calls, last);
            self.push(Kind::Assistant, msg.into());
            for (call_id, name) in names {
                let result = self.tool_result(&call_id, &name);
                self.push(Kind::ToolResult, result.into());
            }
            let room = limit.saturating_sub(self.len());
            if self.rng.chance(12) && (room >= 3 || last && room >= 1) {
                let status = self.status_update();
                self.push(Kind::Custom, status);
            }
            if last {
                break;
            }
        }
        if self.rng.chance(50) {
            self.checkpoint();
        }
    }

    /// Edit and re-run: move the head back a few to a few hundred entries,
    /// to just before a user turn, so the next user message starts a new
    /// branch. Now and then rewind to a checkpoint instead.
    fn fork(&mut self) {
        if !self.used_labels.is_empty() && self.rng.chance(250) {
            let label = self.rng.pick(&self.used_labels).clone();
            self.session
                .seek_checkpoint(&label)
                .expect("label was given");
            self.head = self.label_at[&label];
            return;
        }
        let back = self.rng.log_range(3, 400);
        let mut at = self.head;
        for _ in 0..back {
            if self.parent[at] == usize::MAX {
                break;
            }
            at = self.parent[at];
        }
        // Walk on to a user message with a parent; fork from that parent.
        while self.kind[at] != Kind::User || self.parent[at] == usize::MAX {
            if self.parent[at] == usize::MAX {
                return;
            }
            at = self.parent[at];
        }
        let target = self.parent[at];
        self.session.seek(&Self::id(target)).expect("entry exists");
        self.head = target;
    }

    fn checkpoint(&mut self) {
        let label = if self.rng.chance(400) {
            self.rng.word(LABELS).to_string()
        } else {
            self.unique_labels += 1;
            format!("cp-{}", self.unique_labels)
        };
        self.session.checkpoint(label.clone()).expect("non-empty");
        if !self.label_at.contains_key(&label) {
            self.used_labels.push(label.clone());
        }
        self.label_at.insert(label, self.head);
    }

    // -- messages -----------------------------------------------------------

    fn user_message(&mut self) -> Message {
        let ts = self.tick(20, 300);
        let mut text = String::new();
        let words = self.rng.log_range(4, 120);
        self.prose(&mut text, words);
        if self.rng.chance(120) {
            text.push_str("\n\n```\n");
            let n = self.rng.range(2, 12);
            self.code(&mut text, n);
            text.push_str("```\n");
        }
        let image = if self.rng.chance(8) {
            let mut data = String::new();
            let n = self.rng.range(1_000, 12_000);
            self.rng.base64(&mut data, n);
            Some(data)
        } else {
            None
        };
        user_at(text, image, ts)
    }

    /// An assistant message; `calls` tool calls (returned as (id, name)).
    fn assistant_message(&mut self, calls: usize, last: bool) -> (Message, Vec<(String, String)>) {
        let ts = self.tick(2, 40);
        let &(model, provider) = self.rng.pick(MODELS);
        let mut content = Vec::new();
        if self.rng.chance(650) {
            let mut thinking = String::new();
            let words = self.rng.log_range(8, 90);
            self.prose(&mut thinking, words);
            if provider == "anthropic" && self.rng.chance(900) {
                let mut sig = String::new();
                let n = self.rng.range(200, 480);
                self.rng.base64(&mut sig, n);
                content.push(Content::thinking_signed(thinking, sig));
            } else {
                content.push(Content::thinking(thinking));
            }
        } else if self.rng.chance(15) {
            let mut data = String::new();
            let n = self.rng.range(300, 1_500);
            self.rng.base64(&mut data, n);
            content.push(Content::thinking_redacted(
                ApiProtocol::AnthropicMessages,
                data,
            ));
        }
        if last || self.rng.chance(550) {
            let mut text = String::new();
            let words = if last {
                self.rng.log_range(10, 200)
            } else {
                self.rng.log_range(4, 60)
            };
            self.prose(&mut text, words);
            if last && self.rng.chance(200) {
                text.push_str("\n\n```rust\n");
                let n = self.rng.range(3, 25);
                self.code(&mut text, n);
                text.push_str("```\n");
            }
            content.push(Content::Text { text });
        }
        let mut names = Vec::new();
        for _ in 0..calls {
            let mut id = String::from("toolu_01");
            self.rng.alnum(&mut id, 22);
            let name = self.rng.word(&self.tools);
            let args = self.tool_args(name);
            content.push(Content::tool_call(id.clone(), name, args));
            names.push((id, name.to_string()));
        }
        let mut stop = if calls > 0 {
            StopReason::ToolUse
        } else {
            StopReason::Stop
        };
        let mut error = None;
        if last && self.rng.chance(30) {
            (stop, error) = match self.rng.below(4) {
                0 => (StopReason::Length, None),
                1 => (
                    StopReason::Error,
                    Some("overloaded_error: Overloaded (HTTP 529)".to_string()),
                ),
                2 => (StopReason::Aborted, Some("aborted by user".to_string())),
                _ => (
                    StopReason::Refusal,
                    Some("the model declined to continue".to_string()),
                ),
            };
        }
        let input = self.rng.range(1_000, 180_000) as u64;
        let usage = Usage {
            input,
            output: self.rng.range(20, 8_000) as u64,
            cache_read: if self.rng.chance(700) {
                input * 9 / 10
            } else {
                0
            },
            cache_write: if self.rng.chance(200) {
                self.rng.range(500, 20_000) as u64
            } else {
                0
            },
            total_tokens: 0,
        };
        let mut msg = assistant_at(content, stop, model, provider, usage, ts);
        if let Some(e) = error {
            msg = msg.with_error_message(e);
        }
        (msg, names)
    }

    fn tool_args(&mut self, name: &str) -> Value {
        let path = self.rng.word(PATHS);
        match name {
            "bash" => {
                if self.rng.chance(150) {
                    let mut script = String::from("cat > /tmp/t.py <<'EOF'\n");
                    let n = self.rng.range(3, 20);
                    self.code(&mut script, n);
                    script.push_str("EOF\npython3 /tmp/t.py \"$@\"");
                    json!({ "command": script, "timeout": 120_000 })
                } else {
                    json!({ "command": self.rng.word(COMMANDS) })
                }
            }
            "read_file" => {
                if self.rng.chance(500) {
                    json!({ "path": path })
                } else {
                    json!({ "path": path, "offset": self.rng.range(1, 900), "limit": 200 })
                }
            }
            "edit" => {
                let (mut old, mut new) = (String::new(), String::new());
                let n = self.rng.range(1, 12);
                self.code(&mut old, n);
                let n = self.rng.range(1, 12);
                self.code(&mut new, n);
                json!({
                    "path": path,
                    "old_string": old,
                    "new_string": new,
                    "replace_all": self.rng.chance(100),
                })
            }
            "write_file" => {
                let mut body = String::new();
                let n = self.rng.range(8, 40);
                self.code(&mut body, n);
                json!({ "path": path, "content": body })
            }
            "grep" => {
                let pattern = self.rng.word(&[
                    r"fn \w+\(",
                    r#"parent_id"\s*:"#,
                    r"\bTODO\b|FIXME",
                    r"naïve|日本語",
                    r#"\\"|\\\\"#,
                ]);
                json!({
                    "pattern": pattern,
                    "path": "src",
                    "options": {
                        "case_insensitive": self.rng.chance(300),
                        "context_lines": self.rng.range(0, 3),
                        "include": ["*.rs", "*.toml"],
                        "max_results": { "per_file": 20, "total": 200 },
                    },
                })
            }
            "list_files" => json!({ "path": "src", "recursive": true, "max_depth": 3 }),
            "web_fetch" => json!({
                "url": "https://docs.rs/serde_json/latest/serde_json/de/struct.Deserializer.html?search=raw%20value&q=\"x\"",
                "headers": { "Accept": "text/html", "User-Agent": "yoagent/0.26" },
                "max_bytes": 200_000,
            }),
            _ => {
                let mut todos = Vec::new();
                for i in 0..self.rng.range(1, 6) {
                    let mut what = String::new();
                    let words = self.rng.range(3, 12);
                    self.prose(&mut what, words);
                    todos.push(json!({
                        "id": i + 1,
                        "content": what,
                        "status": self.rng.word(&["pending", "in_progress", "completed"]),
                        "meta": { "priority": "high", "tags": ["parser", "bench"], "blocked_by": [] },
                    }));
                }
                json!({ "todos": todos })
            }
        }
    }

    fn tool_result(&mut self, call_id: &str, name: &str) -> Message {
        let ts = self.tick(0, 30);
        let is_error = self.rng.chance(70);
        let mut text = String::new();
        if is_error {
            self.error_text(&mut text, name);
        } else {
            let big = self.rng.chance(10);
            match name {
                "bash" => self.bash_output(&mut text, big),
                "read_file" => {
                    let n = if big {
                        self.rng.range(300, 1_200)
                    } else {
                        self.rng.log_range(4, 50)
                    };
                    let start = self.rng.range(1, 900);
                    for i in 0..n {
                        text.push_str(&format!("{:>6}\t", start + i));
                        self.code(&mut text, 1);
                    }
                }
                "grep" => {
                    let n = if big { 600 } else { self.rng.log_range(1, 40) };
                    for _ in 0..n {
                        let path = self.rng.word(PATHS);
                        text.push_str(&format!("{}:{}:", path, self.rng.range(1, 2_000)));
                        self.code(&mut text, 1);
                    }
                }
                "edit" | "write_file" => {
                    text.push_str(&format!(
                        "Applied edit to {} ({} lines changed)",
                        self.rng.word(PATHS),
                        self.rng.range(1, 40)
                    ));
                }
                "list_files" => {
                    for _ in 0..self.rng.range(5, 40) {
                        text.push_str(self.rng.word(PATHS));
                        text.push('\n');
                    }
                }
                "web_fetch" => {
                    let words = if big {
                        5_000
                    } else {
                        self.rng.log_range(50, 600)
                    };
                    self.prose(&mut text, words);
                }
                _ => text.push_str("todos updated"),
            }
        }
        tool_result_at(call_id, name, text, is_error, ts)
    }

    fn status_update(&mut self) -> AgentMessage {
        let status = self.rng.word(STATUSES);
        custom(
            "status_update",
            json!({
                "status": status,
                "turn": self.turns,
                "detail": { "tokens": self.rng.range(100, 200_000), "note": "résumé \"ok\"" },
            }),
        )
    }

    // -- text -----------------------------------------------------------------

    /// `words` words of prose, with sentences, paragraphs, list items and now
    /// and then a word that needs escaping.
    fn prose(&mut self, out: &mut String, words: usize) {
        let mut sentence = 0;
        for i in 0..words {
            if i > 0 {
                if sentence > 6 && self.rng.chance(120) {
                    out.push_str(if self.rng.chance(150) { ".\n\n" } else { ". " });
                    if self.rng.chance(80) {
                        out.push_str("- ");
                    }
                    sentence = 0;
                } else if self.rng.chance(40) {
                    out.push_str(", ");
                } else {
                    out.push(' ');
                }
            }
            sentence += 1;
            if self.rng.chance(60) {
                out.push_str(self.rng.word(SPICE));
            } else {
                out.push_str(self.rng.word(&self.words));
            }
        }
        if words > 0 {
            out.push('.');
        }
    }

    fn code(&mut self, out: &mut String, lines: usize) {
        for _ in 0..lines {
            out.push_str(self.rng.word(CODE));
            out.push('\n');
        }
    }

    fn bash_output(&mut self, out: &mut String, big: bool) {
        let n = if big {
            self.rng.range(300, 1_500)
        } else {
            self.rng.log_range(1, 40)
        };
        for _ in 0..n {
            match self.rng.below(8) {
                0 => out.push_str(
                    "\u{1b}[1m\u{1b}[32m   Compiling\u{1b}[0m ysess v0.1.0 (/work/main)\n",
                ),
                1 => {
                    out.push_str("test tests::");
                    out.push_str(self.rng.word(&self.words));
                    out.push_str(" ... ok\n");
                }
                2 => out.push_str("warning: unused variable: `entry`\n  --> src/index.rs:42:13\n"),
                3 => {
                    out.push_str(&format!(
                        "-rw-r--r-- 1 root root {:>8} Dec  2 11:28 {}\n",
                        self.rng.range(10, 500_000),
                        self.rng.word(PATHS)
                    ));
                }
                4 => {
                    out.push_str(if self.rng.chance(500) { "+" } else { "-" });
                    self.code(out, 1);
                }
                5 => out.push_str("\r\u{1b}[2K    Building [=====>    ] 112/230: serde_json\n"),
                _ => {
                    let words = self.rng.range(4, 16);
                    self.prose(out, words);
                    out.push('\n');
                }
            }
        }
        out.push_str("test result: ok. 42 passed; 0 failed; 0 ignored; finished in 0.31s\n");
    }

    fn error_text(&mut self, out: &mut String, name: &str) {
        match self.rng.below(5) {
            0 => out.push_str(&format!(
                "error[E0308]: mismatched types\n  --> {}:{}:18\n   |\n   = note: expected `&str`, found `String`\n",
                self.rng.word(PATHS),
                self.rng.range(1, 900)
            )),
            1 => out.push_str("command timed out after 120s\n"),
            2 => out.push_str(&format!(
                "{}: No such file or directory (os error 2)",
                self.rng.word(PATHS)
            )),
            3 => out.push_str(&format!(
                "{name}: old_string not found in file; make sure it matches exactly, including \"quotes\", \\backslashes and\ttabs"
            )),
            _ => {
                out.push_str("thread 'main' panicked at src/scan.rs:211:9:\n");
                let words = self.rng.range(5, 40);
                self.prose(out, words);
                out.push_str("\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n");
            }
        }
    }
}
