//! Handing a session back to its agent at an entry (`ysess resume REV`):
//! what each format's app is run with so that the conversation goes on
//! from REV, and the new session file to write first where the app has no
//! way to resume at a point by itself. The app's own file is never
//! changed: Claude Code forks with `--resume-session-at` and
//! `--fork-session` (or resumes a copy of the path, when REV is not on the
//! branch Claude Code resumes); Codex resumes a new rollout whose history
//! is the original's up to REV; pi resumes its file after a checkout.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::Format;

/// What a format's handoff is given: the session, REV, and the
/// surroundings the app is found in.
pub struct At<'a> {
    /// The session file.
    pub path: &'a Path,
    /// The session's id, as its app knows it.
    pub session: &'a str,
    /// REV's entry id.
    pub rev: &'a str,
    /// The session's first line.
    pub first_line: &'a [u8],
    /// The lines of the entries root→REV (the app's, bookkeeping
    /// included), in order.
    pub path_lines: &'a [Vec<u8>],
    /// The lines after REV's in file order, each with its offset: the
    /// bookkeeping that follows it, up to and including the next entry's
    /// line (all the rest, when no entry follows).
    pub after: &'a [(u64, Vec<u8>)],
    /// Where the file's whole lines end.
    pub end: u64,
    /// The file's lines that start before an offset, in file order.
    pub before: &'a dyn Fn(u64) -> std::io::Result<Vec<Vec<u8>>>,
    /// The file's last bytes (up to 1 MiB), for what the app reads from
    /// its end.
    pub tail: &'a [u8],
    /// Whether entry `id`'s path (root→it) goes through REV.
    pub through_rev: &'a dyn Fn(&str) -> bool,
    /// REV is HEAD (where the app itself resumes).
    pub rev_is_head: bool,
    /// The id of the entry the app's own lines make HEAD (ysess's refs
    /// left out).
    pub app_head: Option<&'a str>,
    /// The arguments given after `--`, for the app.
    pub args: &'a [String],
    /// Now, in ms since the epoch.
    pub now_ms: u64,
    /// The local time zone (Codex names its files by local time).
    pub zone: &'a jiff::tz::TimeZone,
    /// The environment.
    pub var: &'a dyn Fn(&str) -> Option<OsString>,
}

/// The command that resumes a session at REV, and what to write first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handoff {
    /// The app's command, as found on `PATH`.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Where it runs: the session's working directory.
    pub cwd: Option<PathBuf>,
    /// Variables set for it (the app's home, when the session is in
    /// another one than the app would look in).
    pub env: Vec<(String, PathBuf)>,
    /// A new session file to write before the app runs: the path to REV
    /// in the app's own format, under a new id.
    pub new_file: Option<NewFile>,
    /// Before the app runs, HEAD must move to REV (pi resumes its file
    /// where its head is): the revision to check out.
    pub checkout_first: Option<String>,
    /// How to install the app, for the error when it is not on `PATH`.
    pub install: &'static str,
}

impl Handoff {
    /// `program args` run in `cwd` with `env`, on the session as it is.
    pub fn run(
        program: &str,
        args: Vec<String>,
        cwd: Option<PathBuf>,
        env: Vec<(String, PathBuf)>,
        install: &'static str,
    ) -> Handoff {
        Handoff {
            program: program.to_string(),
            args,
            cwd,
            env,
            new_file: None,
            checkout_first: None,
            install,
        }
    }

    /// The same, once `file` is written: the session the app resumes.
    pub fn writing(self, file: NewFile) -> Handoff {
        Handoff {
            new_file: Some(file),
            ..self
        }
    }
}

/// A new session file, written whole before the app resumes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewFile {
    /// Where.
    pub path: PathBuf,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// The new session's id.
    pub session: String,
}

/// Why a session cannot be handed back to its app at REV.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The format has no app to run (yoagent is a library).
    NoApp(&'static str),
    /// What the file says cannot be read into a command.
    Unreadable(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::NoApp(why) => f.write_str(why),
            Refusal::Unreadable(why) => f.write_str(why),
        }
    }
}

/// Whether `text` is a UUID as the agents write them (8-4-4-4-12 hex
/// digits).
pub fn is_uuid(text: &str) -> bool {
    let groups: Vec<&str> = text.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

impl Format {
    /// The id of the session in a file its app owns, as the app knows it:
    /// what ysess keeps its refs by ([`crate::refs::store`]). `None` for a
    /// format ysess writes into, and when the file names none. The readers
    /// are called only when the name does not say ([`super::Spec::session_id`]).
    pub fn session_id(
        self,
        path: &Path,
        first_line: impl FnOnce() -> Vec<u8>,
        last_lines: impl FnOnce() -> Vec<u8>,
    ) -> Option<String> {
        let mut first_line = Some(first_line);
        let mut last_lines = Some(last_lines);
        self.spec().session_id(
            path,
            &mut || first_line.take().map(|f| f()).unwrap_or_default(),
            &mut || last_lines.take().map(|f| f()).unwrap_or_default(),
        )
    }

    /// The command that resumes the session `at` describes at REV.
    pub fn handoff(self, at: &At<'_>) -> Result<Handoff, Refusal> {
        self.spec().handoff(at)
    }
}

/// The name of the `projects/` folder Claude Code and Qwen Code keep a
/// working directory's sessions in: every character that is not a letter or a
/// digit made `-`.
pub fn project_name(cwd: &Path) -> String {
    cwd.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// A top-level string field of a JSON line.
pub fn string_field(line: &[u8], key: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Any(serde_json::Map<String, serde_json::Value>);
    let Any(fields) = serde_json::from_slice(line).ok()?;
    fields.get(key)?.as_str().map(str::to_string)
}

/// The lines of a path as a session of its own, as Claude Code's and Qwen
/// Code's files hold one: each line's `sessionId` made `session`, and a
/// subagent's (a sidechain's) lines made the main thread's, or the app does
/// not find the session.
pub fn as_new_session(lines: &[Vec<u8>], session: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    for line in lines {
        let mut line = line.clone();
        if string_field(&line, "sessionId").is_some() {
            line = with_field(&line, "sessionId", serde_json::Value::from(session)).unwrap_or(line);
        }
        if memchr::memmem::find(&line, b"\"isSidechain\":true").is_some() {
            line = with_field(&line, "isSidechain", serde_json::Value::Bool(false)).unwrap_or(line);
        }
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    bytes
}

/// 128 random bits (std's randomly keyed hasher, fed a counter), for the
/// ids of new sessions.
fn random_bits() -> u128 {
    use std::hash::{BuildHasher, Hasher};
    let seed = std::collections::hash_map::RandomState::new();
    let half = |n: u64| {
        let mut h = seed.build_hasher();
        h.write_u64(n);
        h.finish()
    };
    (u128::from(half(0)) << 64) | u128::from(half(1))
}

/// A UUID written as its app writes one: 8-4-4-4-12 hex digits.
fn hyphenated(bits: u128) -> String {
    let hex = format!("{bits:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// A random (version 4) UUID, as Claude Code names its sessions.
pub fn uuid_v4() -> String {
    let bits = random_bits();
    let bits = (bits & !(0xF << 76) & !(0x3 << 62)) | (0x4 << 76) | (0x2 << 62);
    hyphenated(bits)
}

/// A time-ordered (version 7) UUID made at `now_ms`, as Codex names its
/// sessions.
pub fn uuid_v7(now_ms: u64) -> String {
    let bits = random_bits();
    let time = u128::from(now_ms & 0xFFFF_FFFF_FFFF) << 80;
    let rest = bits & ((1u128 << 80) - 1);
    let bits = (time | rest) & !(0xF << 76) & !(0x3 << 62) | (0x7 << 76) | (0x2 << 62);
    hyphenated(bits)
}

/// A JSON line with its top-level string field `key` set to `value`
/// (fields kept in their order); `None` when the line is not an object.
pub fn with_field(line: &[u8], key: &str, value: serde_json::Value) -> Option<Vec<u8>> {
    let mut fields: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(line).ok()?;
    if let Some(slot) = fields.get_mut(key) {
        *slot = value;
    } else {
        fields.insert(key.to_string(), value);
    }
    serde_json::to_vec(&fields).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_session_ids_are_uuids_of_their_version_and_differ() {
        let a = uuid_v4();
        let b = uuid_v4();
        assert_ne!(a, b);
        for id in [&a, &b] {
            assert_eq!(id.len(), 36);
            assert_eq!(&id[14..15], "4", "{id}");
            assert!(matches!(&id[19..20], "8" | "9" | "a" | "b"), "{id}");
        }
        let now = 1_796_535_074_127;
        let v7 = uuid_v7(now);
        assert_eq!(&v7[14..15], "7", "{v7}");
        assert_eq!(
            u64::from_str_radix(&v7[..8], 16).expect("hex") << 16
                | u64::from_str_radix(&v7[9..13], 16).expect("hex"),
            now
        );
    }
}
