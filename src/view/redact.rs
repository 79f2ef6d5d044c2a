//! Secrets taken out of what a view shows, for sharing a session
//! (`export --redact`, `grep --secrets`).
//!
//! The patterns are those of gitleaks' `config/gitleaks.toml` (MIT,
//! <https://github.com/gitleaks/gitleaks>, v8.30.0, commit b58d3f1),
//! written down here for Rust's `regex`: AWS access key ids, GCP API keys,
//! GitHub and GitLab tokens, OpenAI and Anthropic keys, Slack tokens and
//! webhooks, private key blocks and JWTs. Two changes: a JWT's segments do
//! not take a backslash, and a private key's body stops at a quote, so a
//! match never swallows part of an escape. Beside them, ysess's own: a
//! high-entropy value assigned to a name ending in `_KEY`, `_TOKEN`,
//! `_SECRET` or `PASSWORD` (only the value goes), e-mail addresses, the
//! home directory and the user's name, and the user's own patterns.
//!
//! Each match becomes `[redacted: KIND]`.

use std::borrow::Cow;
use std::sync::atomic::{AtomicUsize, Ordering};

use regex::Regex;
use serde_json::Value;

use crate::view::{Block, Entry, Message, Piece};

/// Where the patterns come from, as the docs and `--help` name it.
pub const SOURCE: &str = "gitleaks v8.30.0 (config/gitleaks.toml, MIT)";

/// One kind of secret: its name and pattern. The secret is capture group
/// 1 when the pattern has one (the rest is context), else the whole match.
struct Rule {
    kind: &'static str,
    regex: Regex,
    /// Only values this random are secrets (bits per character).
    min_entropy: Option<f64>,
}

/// The published patterns, most specific first.
const PATTERNS: &[(&str, &str)] = &[
    (
        "private-key",
        r#"(?i)-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----[^"]{64,}?KEY(?: BLOCK)?-----"#,
    ),
    (
        "aws-access-key",
        r"\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b",
    ),
    ("gcp-api-key", r#"\b(AIza[\w-]{35})(?:[`'"\s;]|\\[nr]|$)"#),
    (
        "github-token",
        r"\b((?:ghp|gho|ghu|ghs|ghr)_[0-9a-zA-Z]{36})",
    ),
    ("github-token", r"\b(github_pat_\w{82})"),
    ("gitlab-token", r"\b(glpat-[\w-]{20})"),
    (
        "openai-key",
        r#"\b(sk-(?:proj|svcacct|admin)-(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})T3BlbkFJ(?:[A-Za-z0-9_-]{74}|[A-Za-z0-9_-]{58})\b|sk-[a-zA-Z0-9]{20}T3BlbkFJ[a-zA-Z0-9]{20})(?:[`'"\s;]|\\[nr]|$)"#,
    ),
    (
        "anthropic-key",
        r#"\b(sk-ant-(?:api03|admin01)-[a-zA-Z0-9_\-]{93}AA)(?:[`'"\s;]|\\[nr]|$)"#,
    ),
    (
        "slack-token",
        r"(xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*)",
    ),
    (
        "slack-token",
        r"(xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34})",
    ),
    ("slack-token", r"(?i)(xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+)"),
    ("slack-token", r"(xox[os]-\d+-\d+-\d+-[a-fA-F\d]+)"),
    (
        "slack-webhook",
        r"((?:https?://)?hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56})",
    ),
    (
        "jwt",
        r#"\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9/_-]{17,}\.(?:[a-zA-Z0-9/_-]{10,}={0,2})?)(?:[`'"\s;]|\\[nr]|$)"#,
    ),
];

/// A name that says its value is secret, then the value (group 1).
const ASSIGNMENT: &str = r#"(?i)\b[A-Z0-9_]*(?:_KEY|_TOKEN|_SECRET|PASSWORD)\b["']?\s*[:=]\s*["']?([A-Za-z0-9+/=_.~@#%^*!-]{8,200})"#;

/// What `secret-assignment` asks of a value: about as random as a short
/// key (gitleaks asks 3.5 of its generic rule; a password is shorter).
const ASSIGNMENT_ENTROPY: f64 = 3.0;

const EMAIL: &str = r"\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b";

/// Account names too common to take out of prose wherever they appear
/// (their home directory is still redacted).
const COMMON_USERS: &[&str] = &[
    "root", "user", "admin", "runner", "ubuntu", "node", "vscode", "guest", "test",
];

/// A short digest of the rules every [`Redactor`] has (the published
/// patterns and ysess's own, not the user's): two builds of ysess with the
/// same digest redact alike. An export folder records it, beside
/// [`SOURCE`].
pub fn rules_digest() -> String {
    use sha2::Digest as _;
    let mut hash = sha2::Sha256::new();
    let mut add = |s: &str| {
        hash.update(s.as_bytes());
        hash.update([0]);
    };
    // The patterns as compiled (RE2's ASCII classes).
    for (kind, pattern) in PATTERNS {
        add(kind);
        add(&ascii_classes(pattern));
    }
    add(&ascii_classes(ASSIGNMENT));
    add(&ASSIGNMENT_ENTROPY.to_string());
    add(&ascii_classes(EMAIL));
    COMMON_USERS.iter().for_each(|u| add(u));
    // How the home directory and user name become patterns.
    add(r"{home}(?:{edge}|$) {edge}{user}{edge} 3 edge: (?-u:\b) if ASCII, else \b");
    let digest = hash.finalize();
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
}

/// What a [`Redactor`] takes out besides the published patterns.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The home directory (`/home/ana`): it and every path under it.
    pub home: Option<String>,
    /// The user's name, as a whole word (not a common account name nor
    /// shorter than 3 characters).
    pub user: Option<String>,
    /// The user's own patterns (kind `pattern`).
    pub patterns: Vec<String>,
}

/// One secret found: its kind and the text matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Find {
    /// `aws-access-key`, `email`, `pattern`, …
    pub kind: &'static str,
    /// The secret as it was written.
    pub text: String,
}

/// The rules, compiled once, and how many of each kind it has redacted
/// (shared by every thread that redacts with it).
pub struct Redactor {
    rules: Vec<Rule>,
    counts: Vec<AtomicUsize>,
}

impl Redactor {
    /// The published rules with `options`; an error names the user's
    /// pattern that does not compile.
    pub fn new(options: &Options) -> Result<Redactor, regex::Error> {
        let compiled = |kind, pattern: &str, min_entropy| -> Result<Rule, regex::Error> {
            Ok(Rule {
                kind,
                regex: Regex::new(pattern)?,
                min_entropy,
            })
        };
        let mut rules = Vec::new();
        for pattern in &options.patterns {
            rules.push(compiled("pattern", pattern, None)?);
        }
        for (kind, pattern) in PATTERNS {
            rules.push(compiled(kind, &ascii_classes(pattern), None)?);
        }
        rules.push(compiled(
            "secret-assignment",
            &ascii_classes(ASSIGNMENT),
            Some(ASSIGNMENT_ENTROPY),
        )?);
        rules.push(compiled("email", &ascii_classes(EMAIL), None)?);
        // A word's edge: ASCII's for an ASCII name (fast), Unicode's for
        // one that is not (whose last letter ASCII takes for no letter).
        let edge = |name: &str| match name.is_ascii() {
            true => r"(?-u:\b)",
            false => r"\b",
        };
        if let Some(home) = options.home.as_deref().map(|h| h.trim_end_matches('/'))
            && home.len() > 1
        {
            // The directory itself, not a longer name that starts with it.
            let pattern = format!(r"{}(?:{}|$)", regex::escape(home), edge(home));
            rules.push(compiled("home", &pattern, None)?);
        }
        if let Some(user) = options.user.as_deref()
            && user.chars().count() >= 3
            && !COMMON_USERS.contains(&user.to_lowercase().as_str())
        {
            rules.push(compiled(
                "user",
                &format!("{e}{}{e}", regex::escape(user), e = edge(user)),
                None,
            )?);
        }
        let counts = rules.iter().map(|_| AtomicUsize::new(0)).collect();
        Ok(Redactor { rules, counts })
    }

    /// `text` with every secret replaced by `[redacted: KIND]`; borrowed
    /// when there was none.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        self.apply(text, 1)
    }

    /// [`Redactor::redact`] of a text written `times` times over (a column
    /// that repeats it on every row): each of its secrets counts `times`
    /// (none for 0, a copy of a text counted already).
    pub fn redact_times<'t>(&self, text: &'t str, times: usize) -> Cow<'t, str> {
        self.apply(text, times)
    }

    /// [`Redactor::redact`], adding each find to the counts `times` times.
    fn apply<'t>(&self, text: &'t str, times: usize) -> Cow<'t, str> {
        let mut text = Cow::Borrowed(text);
        for (rule, count) in self.rules.iter().zip(&self.counts) {
            let mut found: usize = 0;
            let replaced = replace(rule, &text, |_| found += 1);
            if let Some(replaced) = replaced {
                count.fetch_add(found.saturating_mul(times), Ordering::Relaxed);
                text = Cow::Owned(replaced);
            }
        }
        text
    }

    /// The secrets in `text`, in the order the rules find them (each rule
    /// sees the text the rules before it left).
    pub fn find(&self, text: &str) -> Vec<Find> {
        let mut finds = Vec::new();
        let mut text = Cow::Borrowed(text);
        for rule in &self.rules {
            let replaced = replace(rule, &text, |secret| {
                finds.push(Find {
                    kind: rule.kind,
                    text: secret.to_string(),
                })
            });
            if let Some(replaced) = replaced {
                text = Cow::Owned(replaced);
            }
        }
        finds
    }

    /// How many of each kind were redacted so far, kinds in the order
    /// first defined, none that found nothing.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut out: Vec<(&'static str, usize)> = Vec::new();
        for (rule, count) in self.rules.iter().zip(&self.counts) {
            let n = count.load(Ordering::Relaxed);
            if n == 0 {
                continue;
            }
            match out.iter_mut().find(|(kind, _)| *kind == rule.kind) {
                Some((_, total)) => *total += n,
                None => out.push((rule.kind, n)),
            }
        }
        out
    }

    /// `entry` with every string in it redacted: its blocks, tool calls'
    /// arguments, a record's data, the model and error, the label, and
    /// the message as stored.
    pub fn entry(&self, entry: &mut Entry) {
        let mut text = |s: &mut String| {
            if let Cow::Owned(new) = self.redact(s) {
                *s = new;
            }
        };
        if let Some(label) = &mut entry.label {
            text(label);
        }
        each_string(&mut entry.message, &mut text);
        // The same text again, as stored: redacted, not counted twice.
        self.walk_value(&mut entry.message_value, 0);
    }

    /// The secrets in `entry`'s label and message, string by string, in
    /// the order a view shows them (the message as stored is the same
    /// text again, not searched twice).
    pub fn find_entry(&self, entry: &Entry) -> Vec<Find> {
        let mut finds = Vec::new();
        let mut message = entry.message.clone();
        let mut look = |s: &mut String| finds.extend(self.find(s));
        if let Some(label) = &entry.label {
            look(&mut label.clone());
        }
        each_string(&mut message, &mut look);
        finds
    }

    /// Every string in a JSON value, keys included.
    pub fn value(&self, value: &mut Value) {
        self.walk_value(value, 1);
    }

    fn walk_value(&self, value: &mut Value, times: usize) {
        match value {
            Value::String(s) => {
                if let Cow::Owned(new) = self.apply(s, times) {
                    *s = new;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|v| self.walk_value(v, times)),
            Value::Object(map) => {
                rekey(map, &mut |k: &mut String| {
                    if let Cow::Owned(new) = self.apply(k, times) {
                        *k = new;
                    }
                });
                map.values_mut().for_each(|v| self.walk_value(v, times));
            }
            _ => {}
        }
    }
}

/// Calls `f` on every string of `message`: its blocks, tool calls'
/// arguments (keys too), a record's data, the model and error.
fn each_string(message: &mut Message, f: &mut dyn FnMut(&mut String)) {
    match message {
        Message::User { content } => blocks(content, f),
        Message::Assistant {
            content,
            model,
            provider,
            error_message,
            stop_reason,
            ..
        } => {
            blocks(content, f);
            [model, provider, stop_reason].into_iter().for_each(&mut *f);
            error_message.as_mut().map(f);
        }
        Message::ToolResult {
            tool_call_id,
            tool_name,
            content,
            ..
        } => {
            blocks(content, f);
            [tool_call_id, tool_name].into_iter().for_each(f);
        }
        Message::Custom {
            role,
            kind,
            data,
            said,
        } => {
            [role, kind].into_iter().for_each(&mut *f);
            value_strings(data, f);
            blocks(said, f);
        }
    }
}

fn blocks(blocks: &mut [Block], f: &mut dyn FnMut(&mut String)) {
    for block in blocks {
        match block {
            Block::Text(s) | Block::Thinking { text: s, .. } => f(s),
            Block::Image { mime_type, .. } => f(mime_type),
            Block::ToolCall {
                id,
                name,
                arguments,
            } => {
                [id, name].into_iter().for_each(&mut *f);
                value_strings(arguments, f);
            }
            Block::Markup { text, pieces } => {
                f(text);
                for piece in pieces {
                    match piece {
                        Piece::Words(s) | Piece::Command(s) => f(s),
                        Piece::Output { text, .. } => f(text),
                        Piece::Task {
                            id,
                            status,
                            summary,
                        } => [id, status, summary].into_iter().for_each(&mut *f),
                        Piece::Context { tag, text } => [tag, text].into_iter().for_each(&mut *f),
                    }
                }
            }
        }
    }
}

/// The strings of a JSON value, its objects' keys included (a view shows
/// them: a tool call's arguments as JSON).
fn value_strings(value: &mut Value, f: &mut dyn FnMut(&mut String)) {
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter_mut().for_each(|v| value_strings(v, f)),
        Value::Object(map) => {
            rekey(map, f);
            map.values_mut().for_each(|v| value_strings(v, f));
        }
        _ => {}
    }
}

/// Calls `f` on each key of `map`; the keys it changed are renamed in
/// place, the order kept. A new key that another already holds (two keys
/// redacted alike) takes ` (2)`, ` (3)`, …, so that no value is lost.
fn rekey(map: &mut serde_json::Map<String, Value>, f: &mut dyn FnMut(&mut String)) {
    let keys: Vec<String> = map
        .keys()
        .map(|k| {
            let mut k = k.clone();
            f(&mut k);
            k
        })
        .collect();
    if keys.iter().zip(map.keys()).all(|(new, old)| new == old) {
        return;
    }
    let old = std::mem::take(map);
    for (base, (_, v)) in keys.into_iter().zip(old) {
        let mut key = base.clone();
        let mut n = 2;
        while map.contains_key(&key) {
            key = format!("{base} ({n})");
            n += 1;
        }
        map.insert(key, v);
    }
}

/// `text` with `rule`'s secrets replaced, `found` told each one; `None`
/// when there was none.
/// `pattern` with `\b`, `\B`, `\w`, `\d` and `\s` as RE2 reads them,
/// which gitleaks compiles its patterns with: ASCII only. (Rust's regex
/// reads them as Unicode, and a Unicode word boundary sends its fast
/// engine back to a slow one on any text that is not ASCII: a session
/// with one `é` was searched ten times slower.)
fn ascii_classes(pattern: &str) -> String {
    let mut out = String::with_capacity(pattern.len() + 32);
    let mut in_class = 0usize;
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ ('b' | 'B')) if in_class == 0 => {
                    out.push_str("(?-u:\\");
                    out.push(e);
                    out.push(')');
                }
                Some(e @ ('w' | 'd' | 's')) => {
                    let name = match e {
                        'w' => "[:word:]",
                        'd' => "[:digit:]",
                        _ => "[:space:]",
                    };
                    match in_class {
                        0 => {
                            out.push('[');
                            out.push_str(name);
                            out.push(']');
                        }
                        _ => out.push_str(name),
                    }
                }
                Some(e) => {
                    out.push('\\');
                    out.push(e);
                }
                None => out.push('\\'),
            },
            '[' => {
                in_class += 1;
                out.push(c);
            }
            ']' if in_class > 0 => {
                in_class -= 1;
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

fn replace(rule: &Rule, text: &str, mut found: impl FnMut(&str)) -> Option<String> {
    if !rule.regex.is_match(text) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for caps in rule.regex.captures_iter(text) {
        let Some(secret) = caps.get(1).or_else(|| caps.get(0)) else {
            continue;
        };
        if secret.is_empty()
            || rule
                .min_entropy
                .is_some_and(|least| entropy(secret.as_str()) < least)
        {
            continue;
        }
        found(secret.as_str());
        out.push_str(&text[last..secret.start()]);
        out.push_str("[redacted: ");
        out.push_str(rule.kind);
        out.push(']');
        last = secret.end();
    }
    if last == 0 {
        return None;
    }
    out.push_str(&text[last..]);
    Some(out)
}

/// Shannon entropy of `text`, in bits per character.
fn entropy(text: &str) -> f64 {
    let mut counts = [0u32; 256];
    for b in text.bytes() {
        counts[b as usize] += 1;
    }
    let n = text.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// `secret` as a person may see it while reviewing: its first 4 and last
/// 2 characters (fewer for a short one), the rest as `*`.
pub fn masked(secret: &str) -> String {
    let chars: Vec<char> = secret.chars().filter(|c| !c.is_control()).collect();
    let n = chars.len();
    let (head, tail) = if n >= 16 {
        (4, 2)
    } else if n >= 8 {
        (2, 1)
    } else {
        (1, 0)
    };
    let head = head.min(n);
    let tail = tail.min(n - head);
    // A long secret (a key block) shows as many stars as a short one.
    let stars = (n - head - tail).min(12);
    chars[..head]
        .iter()
        .copied()
        .chain(std::iter::repeat_n('*', stars))
        .chain(chars[n - tail..].iter().copied())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_key_right_after_a_letter_not_ascii_was_missed() {
        // gitleaks' `\b` is RE2's, ASCII's: `é` is no letter to it.
        let r = Redactor::new(&Options::default()).expect("rules");
        let text = "cléAKIAIOSFODNN7EXAMPLE";
        assert_eq!(r.redact(text), "clé[redacted: aws-access-key]");
        assert_eq!(
            super::ascii_classes(r#"\b(AIza[\w-]{35})(?:[`'"\s;]|\\[nr]|$)"#),
            r#"(?-u:\b)(AIza[[:word:]-]{35})(?:[`'"[:space:];]|\\[nr]|$)"#
        );
    }

    #[test]
    fn a_home_and_a_user_not_ascii_are_still_found_whole() {
        let r = Redactor::new(&Options {
            home: Some("/home/josé".into()),
            user: Some("josé".into()),
            ..Options::default()
        })
        .expect("rules");
        assert_eq!(
            r.redact("cd /home/josé/src; josé, not josée"),
            "cd [redacted: home]/src; [redacted: user], not josée"
        );
    }

    use super::*;

    fn plain() -> Redactor {
        Redactor::new(&Options::default()).expect("compiles")
    }

    /// The one kind `text` holds, and the text left with it redacted.
    fn one(r: &Redactor, text: &str) -> (&'static str, String) {
        let finds = r.find(text);
        assert_eq!(finds.len(), 1, "{finds:?} in {text}");
        (finds[0].kind, r.redact(text).into_owned())
    }

    const SAMPLES: &[(&str, &str)] = &[
        ("aws-access-key", "AKIAIOSFODNN7EXAMPLE"),
        ("gcp-api-key", "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"),
        ("github-token", "ghp_0123456789abcdefghijABCDEFGHIJ012345"),
        ("gitlab-token", "glpat-0123456789abcdefghij"),
        (
            "openai-key",
            "sk-abcdefghij0123456789T3BlbkFJabcdefghij0123456789",
        ),
        ("slack-token", "xoxb-1234567890-1234567890-abcdefABCDEF"),
        (
            "slack-webhook",
            "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
        ),
        (
            "jwt",
            "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        ),
    ];

    #[test]
    fn each_published_kind_is_redacted_in_prose() {
        let r = plain();
        for (kind, secret) in SAMPLES {
            let (found, left) = one(&r, &format!("the key is {secret} ok"));
            assert_eq!(found, *kind);
            assert_eq!(left, format!("the key is [redacted: {kind}] ok"));
        }
        let fine_grained = format!("github_pat_{}", "a1_B".repeat(20) + "c2");
        assert_eq!(one(&r, &fine_grained).0, "github-token");
        let anthropic = format!("sk-ant-api03-{}AA", "a1B2".repeat(23) + "x");
        assert_eq!(one(&r, &format!("{anthropic}\n")).0, "anthropic-key");
    }

    #[test]
    fn a_private_key_block_goes_whole() {
        let block = format!(
            "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
            "MIIEowIBAAKCAQEA".repeat(6)
        );
        let (kind, left) = one(&plain(), &format!("cat id_rsa\n{block}\ndone"));
        assert_eq!(kind, "private-key");
        assert_eq!(left, "cat id_rsa\n[redacted: private-key]\ndone");
    }

    #[test]
    fn a_random_value_assigned_to_a_secret_name_goes_not_its_name() {
        let r = plain();
        let (kind, left) = one(&r, "export DB_PASSWORD=q8Zr2Lx9Tv4W");
        assert_eq!(kind, "secret-assignment");
        assert_eq!(left, "export DB_PASSWORD=[redacted: secret-assignment]");
        assert_eq!(
            r.redact(r#"{"STRIPE_SECRET": "a9Fk3Lm2Qp7Zx"}"#),
            r#"{"STRIPE_SECRET": "[redacted: secret-assignment]"}"#
        );
        // Not random enough: a placeholder stays.
        assert!(r.find("API_KEY=xxxxxxxxxxxx").is_empty());
    }

    #[test]
    fn email_home_user_and_own_patterns() {
        let r = Redactor::new(&Options {
            home: Some("/home/ana/".into()),
            user: Some("ana".into()),
            patterns: vec!["ACME-[0-9]+".into()],
        })
        .expect("compiles");
        assert_eq!(
            r.redact("ana <ana.b@example.org> opened /home/ana/src, not /home/anabel; ACME-42"),
            "[redacted: user] <[redacted: email]> opened [redacted: home]/src, \
             not /home/anabel; [redacted: pattern]"
        );
        assert_eq!(
            r.counts(),
            [("pattern", 1), ("email", 1), ("home", 1), ("user", 1)]
        );
        // A common account name is left in prose.
        let root = Redactor::new(&Options {
            user: Some("root".into()),
            ..Options::default()
        })
        .expect("compiles");
        assert!(root.find("the root cause").is_empty());
    }

    #[test]
    fn text_without_secrets_is_borrowed_unchanged() {
        let r = plain();
        let text = "Draft a plan for a CLI that checks session files: sk-short, ghp_x, a@b";
        assert!(matches!(r.redact(text), Cow::Borrowed(t) if t == text));
        assert!(r.counts().is_empty());
    }

    #[test]
    fn a_bad_pattern_is_an_error() {
        assert!(
            Redactor::new(&Options {
                patterns: vec!["(".into()],
                ..Options::default()
            })
            .is_err()
        );
    }

    #[test]
    fn keys_are_searched_and_two_redacted_alike_keep_both_values() {
        let r = plain();
        let mut v = serde_json::json!({
            "AKIAIOSFODNN7EXAMPLE": 1,
            "plain": {"AKIAIOSFODNN7EXAMPLF": 2},
            "AKIAIOSFODNN7EXAMPLG": 3,
        });
        let mut found = Vec::new();
        value_strings(&mut v.clone(), &mut |s: &mut String| {
            found.extend(r.find(s))
        });
        assert_eq!(found.len(), 3, "{found:?}");
        value_strings(&mut v, &mut |s: &mut String| {
            if let Cow::Owned(new) = r.redact(s) {
                *s = new;
            }
        });
        assert_eq!(
            v.to_string(),
            r#"{"[redacted: aws-access-key]":1,"plain":{"[redacted: aws-access-key]":2},"[redacted: aws-access-key] (2)":3}"#
        );
        assert_eq!(r.counts(), [("aws-access-key", 3)]);
    }

    #[test]
    fn a_masked_secret_keeps_its_ends() {
        assert_eq!(masked("AKIAIOSFODNN7EXAMPLE"), "AKIA************LE");
        assert_eq!(masked("hunter22"), "hu*****2");
        assert_eq!(masked("abc"), "a**");
    }
}
