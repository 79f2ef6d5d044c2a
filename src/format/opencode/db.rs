//! OpenCode's database (`opencode.db`, SQLite in write-ahead-log mode),
//! read only: each session is read into the lines [`super`] defines over
//! it, and named `<database>/<session id>` (a database is a file, so no
//! real path is named so).
//!
//! The database is opened read only through SQLite itself, beside its
//! `-wal` and `-shm` files (never copied, never opened `immutable`: the
//! log holds what OpenCode wrote last), and each read is one short
//! transaction: OpenCode goes on writing meanwhile, never locked out.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde_json::{Value, json};

/// The database's file name.
pub const FILE: &str = "opencode.db";

/// A session the database holds.
#[derive(Debug, Clone)]
pub struct Listed {
    /// Its id (`ses_…`).
    pub id: String,
    /// The session that started it as a subagent, if one did.
    pub parent: Option<String>,
    /// When it was last written, in ms since the epoch.
    pub updated: u64,
}

/// The names of the versions `ysess archive` keeps of a database that
/// lost a session (`opencode.v2.db`, …), as [`is_db`] knows them.
pub const VERSIONS: &str = "opencode.v*.db";

/// Whether `path` is an OpenCode database (by its name): `opencode.db`,
/// or a version of one in ysess's archive (`opencode.v2.db`).
pub fn is_db(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let version = name
        .strip_prefix("opencode.v")
        .and_then(|n| n.strip_suffix(".db"))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
    name == FILE || version
}

/// The database and session a path names (`…/opencode.db/ses_…`), when the
/// database is a file there.
pub fn split(path: &Path) -> Option<(&Path, &str)> {
    let db = path.parent()?;
    let id = path.file_name()?.to_str()?;
    (is_db(db) && id.starts_with("ses_") && db.is_file()).then_some((db, id))
}

fn sql(e: rusqlite::Error, _db: &Path) -> io::Error {
    io::Error::other(format!("not OpenCode's database as it is read: {e}"))
}

fn open(db: &Path) -> io::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(db, flags).map_err(|e| sql(e, db))?;
    // OpenCode writes often and briefly: wait for it rather than fail.
    conn.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(|e| sql(e, db))?;
    Ok(conn)
}

/// The sessions the database holds, newest first.
pub fn sessions(db: &Path) -> io::Result<Vec<Listed>> {
    let conn = open(db)?;
    let mut stmt = conn
        .prepare("SELECT id, parent_id, time_updated FROM session ORDER BY time_updated DESC, id")
        .map_err(|e| sql(e, db))?;
    let rows = stmt
        .query_map([], |r| {
            Ok(Listed {
                id: r.get(0)?,
                parent: r.get(1)?,
                updated: r.get::<_, i64>(2)?.max(0) as u64,
            })
        })
        .map_err(|e| sql(e, db))?;
    rows.collect::<Result<_, _>>().map_err(|e| sql(e, db))
}

/// The sessions a session started as subagents: `(id, path)`, by id.
pub fn children(db: &Path, session: &str) -> io::Result<Vec<(String, PathBuf)>> {
    let conn = open(db)?;
    let mut stmt = conn
        .prepare("SELECT id FROM session WHERE parent_id = ?1 ORDER BY id")
        .map_err(|e| sql(e, db))?;
    let rows = stmt
        .query_map([session], |r| r.get::<_, String>(0))
        .map_err(|e| sql(e, db))?;
    let ids: Vec<String> = rows.collect::<Result<_, _>>().map_err(|e| sql(e, db))?;
    Ok(ids
        .into_iter()
        .map(|id| (id.clone(), db.join(id)))
        .collect())
}

/// Whether the database holds the session.
pub fn holds(db: &Path, session: &str) -> bool {
    open(db)
        .and_then(|conn| {
            conn.query_row("SELECT 1 FROM session WHERE id = ?1", [session], |_| Ok(()))
                .optional()
                .map_err(|e| sql(e, db))
        })
        .is_ok_and(|found| found.is_some())
}

/// Whether the session started as a subagent of another.
pub fn has_parent(db: &Path, session: &str) -> bool {
    open(db)
        .and_then(|conn| {
            conn.query_row(
                "SELECT parent_id FROM session WHERE id = ?1",
                [session],
                |r| r.get::<_, Option<String>>(0),
            )
            .optional()
            .map_err(|e| sql(e, db))
        })
        .is_ok_and(|p| p.flatten().is_some())
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

/// Whether OpenCode `version` wrote a reply's `output` with its reasoning
/// in it: up to 1.3, it did; from 1.14 on, reasoning is counted apart
/// (measured by running each version against one mock).
fn output_holds_reasoning(version: &str) -> bool {
    let mut parts = version.split('.').map(|p| p.parse::<u64>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    major == 0 || (major == 1 && minor <= 3)
}

/// The session's lines ([`super`]), in one read transaction.
pub fn lines(db: &Path, session: &str) -> io::Result<Vec<u8>> {
    let mut conn = open(db)?;
    let tx = conn.transaction().map_err(|e| sql(e, db))?;
    let header = tx
        .query_row(
            "SELECT id, parent_id, title, directory, version, time_created, time_updated \
             FROM session WHERE id = ?1",
            [session],
            |r| {
                Ok(json!({
                    "opencode": "session",
                    "id": r.get::<_, String>(0)?,
                    "parentID": r.get::<_, Option<String>>(1)?,
                    "title": r.get::<_, String>(2)?,
                    "directory": r.get::<_, String>(3)?,
                    "version": r.get::<_, String>(4)?,
                    "time": {"created": r.get::<_, i64>(5)?, "updated": r.get::<_, i64>(6)?},
                }))
            },
        )
        .optional()
        .map_err(|e| sql(e, db))?
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("{}: OpenCode holds no session {session}", db.display()),
            )
        })?;
    let mut parts_of: HashMap<String, Vec<Value>> = HashMap::new();
    {
        let mut stmt = tx
            .prepare("SELECT id, message_id, data FROM part WHERE session_id = ?1 ORDER BY id")
            .map_err(|e| sql(e, db))?;
        let rows = stmt
            .query_map([session], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(|e| sql(e, db))?;
        for row in rows {
            let (id, message, data) = row.map_err(|e| sql(e, db))?;
            parts_of
                .entry(message)
                .or_default()
                .push(with_id(parse(&data), id));
        }
    }
    let mut stmt = tx
        .prepare(
            "SELECT id, time_created, data FROM message WHERE session_id = ?1 \
             ORDER BY time_created, id",
        )
        .map_err(|e| sql(e, db))?;
    let rows = stmt
        .query_map([session], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
            ))
        })
        .map_err(|e| sql(e, db))?;
    let mut messages = Vec::new();
    for row in rows {
        let (id, time, data) = row.map_err(|e| sql(e, db))?;
        messages.push((id, time, parse(&data)));
    }
    Ok(assemble(&header, messages, parts_of))
}

/// A part's data with its id (the database keeps the id in a column).
fn with_id(mut part: Value, id: String) -> Value {
    if let Some(map) = part.as_object_mut() {
        map.insert("id".to_string(), Value::from(id));
    }
    part
}

/// The lines of a session ([`super`]): its `header`, then each of its
/// `messages` (id, time, data; in order) with its parts (by message id,
/// in order), and after an assistant message each answered tool call.
pub fn assemble(
    header: &Value,
    messages: Vec<(String, i64, Value)>,
    mut parts_of: HashMap<String, Vec<Value>>,
) -> Vec<u8> {
    let holds = output_holds_reasoning(header["version"].as_str().unwrap_or_default());
    let mut out = Vec::new();
    let mut push = |v: &Value| {
        out.extend_from_slice(v.to_string().as_bytes());
        out.push(b'\n');
    };
    push(header);
    for (id, time, mut data) in messages {
        let parts = parts_of.remove(&id).unwrap_or_default();
        if holds && let Some(map) = data.as_object_mut() {
            map.insert("outputHoldsReasoning".to_string(), Value::Bool(true));
        }
        let answers: Vec<Value> = parts
            .iter()
            .filter(|p| is_answer(p))
            .map(|p| {
                json!({
                    "opencode": "tool",
                    "id": p["id"],
                    "message": id,
                    "time": p["state"]["time"]["end"],
                    "part": p,
                })
            })
            .collect();
        push(&json!({
            "opencode": "message",
            "id": id,
            "time": time,
            "data": data,
            "parts": parts,
        }));
        answers.iter().for_each(&mut push);
    }
    out
}

/// Whether a part is a tool call that has its answer (done, or failed).
fn is_answer(part: &Value) -> bool {
    part["type"] == "tool"
        && matches!(
            part["state"]["status"].as_str(),
            Some("completed" | "error")
        )
}
