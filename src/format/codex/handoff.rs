//! `ysess resume` for Codex. Codex resumes or forks a rollout only at its
//! end, so ysess writes a new rollout that holds the conversation up to
//! REV and has Codex resume it (`codex resume NEW`, or `codex exec resume
//! NEW …` when the arguments after `--` start with `exec`):
//!
//! - a rollout with ordinals (Codex 0.169's paginated history) gets what
//!   Codex's own `fork` writes: a `session_meta` whose `history_base` is
//!   the original up to REV (`end_ordinal_exclusive`, `end_byte_offset`),
//!   with `forked_from_id`; nothing is copied, so nothing is counted twice;
//! - an older rollout is copied up to REV under the new id (its events
//!   left out: Codex resumes from the response items, and a copied
//!   `token_count` would count the original's usage again).

use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::format::handoff::{At, Handoff, NewFile, Refusal, uuid_v7};

const INSTALL: &str = "npm install -g @openai/codex";

/// The command that resumes the Codex rollout `at` describes at REV.
pub fn handoff(at: &At<'_>) -> Result<Handoff, Refusal> {
    let unreadable = |why: &str| Refusal::Unreadable(why.to_string());
    let meta: Map<String, Value> = serde_json::from_slice(at.first_line)
        .map_err(|_| unreadable("the rollout's first line is not its session_meta"))?;
    if meta.get("type").and_then(Value::as_str) != Some("session_meta") {
        return Err(unreadable(
            "the rollout's first line is not its session_meta",
        ));
    }
    let payload = meta
        .get("payload")
        .and_then(Value::as_object)
        .ok_or_else(|| unreadable("the rollout's session_meta has no payload"))?;
    let cwd = payload
        .get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from);
    let session = uuid_v7(at.now_ms);
    let now = crate::format::pi::iso(at.now_ms);
    let (sessions, default_sessions) = sessions_folder(at.path, at.var);
    // A history that points into the original only where Codex finds it:
    // under the `sessions` folder it is given.
    let findable = sessions.is_some();
    let sessions = sessions
        .or_else(|| default_sessions.clone())
        .ok_or_else(|| unreadable("neither CODEX_HOME nor HOME is set"))?;
    let env = match sessions.parent() {
        Some(home) if Some(&sessions) != default_sessions.as_ref() => {
            vec![("CODEX_HOME".to_string(), home.to_path_buf())]
        }
        _ => Vec::new(),
    };
    let paginated = meta.contains_key("ordinal") && findable;
    let (cut, cut_line) = turn_end(at);
    let bytes = if paginated {
        let last_before = at
            .after
            .iter()
            .take_while(|(offset, _)| *offset < cut)
            .last()
            .map(|(_, line)| line.as_slice())
            .or(at.path_lines.last().map(Vec::as_slice));
        let ordinal_of = |line: &[u8]| {
            serde_json::from_slice::<Map<String, Value>>(line)
                .ok()?
                .get("ordinal")?
                .as_u64()
        };
        let end = match cut_line {
            Some(line) => ordinal_of(line),
            None => last_before.and_then(ordinal_of).map(|o| o + 1),
        }
        .ok_or_else(|| unreadable("the rollout's lines have no ordinal where REV ends"))?;
        let base = Base {
            thread: at.session,
            end,
            offset: cut,
        };
        forked_meta(payload, &session, &now, base)
    } else {
        let lines = (at.before)(cut).map_err(|e| Refusal::Unreadable(e.to_string()))?;
        copied(&meta, &session, &now, &lines)
    };
    let (date, time) = local_stamp(at.now_ms, at.zone);
    let path = sessions
        .join(date.replace('-', "/"))
        .join(format!("rollout-{date}T{time}-{session}.jsonl"));
    let args = resume_args(at.args, &session);
    Ok(
        Handoff::run("codex", args, cwd, env, INSTALL).writing(NewFile {
            path,
            bytes,
            session,
        }),
    )
}

/// Where REV's turn ends: the offset of the first line after it, and that
/// line (none when the turn runs to the end of the file). The turn's
/// events (usage, the turn's end) stay with it; the next item, context or
/// turn does not.
fn turn_end<'a>(at: &At<'a>) -> (u64, Option<&'a [u8]>) {
    // (`kind`, the event's own type.)
    let kinds = |line: &[u8]| {
        let fields = serde_json::from_slice::<Map<String, Value>>(line).ok();
        let kind = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_string);
        let of = fields.as_ref();
        (
            kind(of.and_then(|f| f.get("type"))),
            kind(of.and_then(|f| f.get("payload")?.get("type"))),
        )
    };
    let event = |line: &[u8]| {
        matches!(
            kinds(line).0.as_deref(),
            Some("event_msg" | "token_usage_record")
        )
    };
    // The turn's end is its last event: what follows is the next turn's.
    let ended = |line: &[u8]| kinds(line).1.as_deref() == Some("task_complete");
    let mut through_end = false;
    let next = at.after.iter().find(|(_, line)| {
        let stop = through_end || !event(line);
        through_end |= ended(line);
        stop
    });
    match next {
        Some((offset, line)) => (*offset, Some(line.as_slice())),
        None => (at.end, None),
    }
}

/// Where a forked rollout's history ends in the original.
struct Base<'a> {
    /// The original's session id.
    thread: &'a str,
    /// Its first ordinal left out.
    end: u64,
    /// Its first byte left out.
    offset: u64,
}

/// A paginated rollout's fork, as Codex's own `fork` writes it: one
/// `session_meta` under the new id whose `history_base` is the original up
/// to `base`.
fn forked_meta(payload: &Map<String, Value>, session: &str, now: &str, base: Base<'_>) -> Vec<u8> {
    let Base {
        thread,
        end,
        offset,
    } = base;
    let mut payload = payload.clone();
    payload.insert("session_id".into(), Value::from(session));
    payload.insert("id".into(), Value::from(session));
    payload.insert("timestamp".into(), Value::from(now));
    payload.insert("forked_from_id".into(), Value::from(thread));
    payload.insert("forked_from_ordinal_exclusive".into(), Value::from(end));
    payload.insert("history_mode".into(), Value::from("paginated"));
    payload.insert(
        "history_base".into(),
        json!({
            "thread_id": thread,
            "end_ordinal_exclusive": end,
            "end_byte_offset": offset,
        }),
    );
    let line = json!({
        "timestamp": now,
        "ordinal": end,
        "type": "session_meta",
        "payload": payload,
    });
    let mut bytes = serde_json::to_vec(&line).unwrap_or_default();
    bytes.push(b'\n');
    bytes
}

/// An older rollout copied up to REV: the session_meta under the new id,
/// then the lines as they are, but for their events.
fn copied(meta: &Map<String, Value>, session: &str, now: &str, lines: &[Vec<u8>]) -> Vec<u8> {
    let mut meta = meta.clone();
    if let Some(p) = meta.get_mut("payload").and_then(Value::as_object_mut) {
        p.insert("id".into(), Value::from(session));
        if p.contains_key("session_id") {
            p.insert("session_id".into(), Value::from(session));
        }
        p.insert("timestamp".into(), Value::from(now));
    }
    let mut bytes = serde_json::to_vec(&meta).unwrap_or_default();
    bytes.push(b'\n');
    for line in lines {
        #[derive(serde::Deserialize)]
        struct Kind<'a> {
            #[serde(rename = "type", borrow)]
            kind: Option<std::borrow::Cow<'a, str>>,
        }
        let kind = serde_json::from_slice::<Kind<'_>>(line)
            .ok()
            .and_then(|k| k.kind);
        if matches!(kind.as_deref(), Some("session_meta" | "event_msg")) {
            continue;
        }
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    bytes
}

/// `codex resume NEW ARGS…`, or `codex exec resume NEW …` when the
/// arguments start with `exec`.
fn resume_args(args: &[String], session: &str) -> Vec<String> {
    match args.split_first() {
        Some((exec, rest)) if exec == "exec" => ["exec", "resume", session]
            .into_iter()
            .map(str::to_string)
            .chain(rest.iter().cloned())
            .collect(),
        _ => ["resume".to_string(), session.to_string()]
            .into_iter()
            .chain(args.iter().cloned())
            .collect(),
    }
}

/// The `sessions` folder the rollout is in (Codex finds a rollout by its
/// id anywhere below it), and the one Codex looks in by default
/// (`$CODEX_HOME/sessions`, else `~/.codex/sessions`).
fn sessions_folder(
    rollout: &Path,
    var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> (Option<PathBuf>, Option<PathBuf>) {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let default = set("CODEX_HOME")
        .map(|h| h.join("sessions"))
        .or_else(|| set("HOME").map(|h| h.join(".codex/sessions")));
    let rollout = std::path::absolute(rollout).unwrap_or_else(|_| rollout.to_path_buf());
    let found = rollout
        .ancestors()
        .skip(1)
        .find(|dir| dir.file_name().is_some_and(|n| n == "sessions"))
        .map(Path::to_path_buf);
    (found, default)
}

/// The date and time Codex names a rollout by, in local time:
/// `2026-12-06` and `05-31-14`.
fn local_stamp(now_ms: u64, zone: &jiff::tz::TimeZone) -> (String, String) {
    let t = jiff::Timestamp::from_millisecond(i64::try_from(now_ms).unwrap_or(i64::MAX))
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    let local = t.to_zoned_datetime(zone.clone());
    (
        local.strftime("%Y-%m-%d").to_string(),
        local.strftime("%H-%M-%S").to_string(),
    )
}
