//! OpenCode's older store, JSON files under `storage/` (up to OpenCode
//! 1.1; 1.2 copies them into its database once and leaves them in place):
//! `storage/session/<project>/<session>.json` (the session),
//! `storage/message/<session>/<message>.json` and
//! `storage/part/<message>/<part>.json`, each holding what the database's
//! `data` column holds, with its ids. A session's file is its path; its
//! messages and parts are read with it, as [`super::db`] reads the
//! database's, into the same lines.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// Whether `path` is a session's file of the store
/// (`…/storage/session/<project>/ses_….json`).
pub fn is_session_file(path: &Path) -> bool {
    let named = path
        .file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("ses_") && n.ends_with(".json"));
    named && storage_of(path).is_some()
}

/// The `storage/` folder a session's file is in.
pub(super) fn storage_of(path: &Path) -> Option<&Path> {
    let sessions = path.parent()?.parent()?;
    let storage = sessions.parent()?;
    (sessions.file_name()? == "session" && storage.file_name()? == "storage").then_some(storage)
}

fn read_json(path: &Path) -> io::Result<Value> {
    let bytes = std::fs::read(path)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not JSON: {e}", path.display()),
        )
    })
}

/// The `*.json` files of a folder, by name; none when it is not there.
fn json_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut files = Vec::new();
    for entry in read {
        let path = entry?.path();
        if path.extension().is_some_and(|x| x == "json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The id a file's name gives (OpenCode's migration takes ids so).
fn stem(path: &Path) -> String {
    path.file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string()
}

/// Data as the database keeps it: without the ids, which are columns.
fn data(mut v: Value) -> Value {
    if let Some(map) = v.as_object_mut() {
        for key in ["id", "sessionID", "messageID"] {
            map.remove(key);
        }
    }
    v
}

/// The session's lines ([`super`]).
pub fn lines(path: &Path) -> io::Result<Vec<u8>> {
    let storage = storage_of(path).ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::NotFound,
            format!("{}: not in OpenCode's storage/session/", path.display()),
        )
    })?;
    let info = read_json(path)?;
    let id = stem(path);
    let header = json!({
        "opencode": "session",
        "id": id,
        "parentID": info["parentID"],
        "title": info["title"],
        "directory": info["directory"],
        "version": info["version"],
        "time": info["time"],
    });
    let mut messages = Vec::new();
    let mut parts_of: HashMap<String, Vec<Value>> = HashMap::new();
    for file in json_files(&storage.join("message").join(&id))? {
        let message = stem(&file);
        let v = read_json(&file)?;
        let time = v["time"]["created"].as_i64().unwrap_or(0);
        let mut parts = Vec::new();
        for part in json_files(&storage.join("part").join(&message))? {
            let mut p = data(read_json(&part)?);
            if let Some(map) = p.as_object_mut() {
                map.insert("id".to_string(), Value::from(stem(&part)));
            }
            parts.push(p);
        }
        parts_of.insert(message.clone(), parts);
        messages.push((message, time, data(v)));
    }
    messages.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
    Ok(super::db::assemble(&header, messages, parts_of))
}

/// The sessions a session started as subagents (`parentID`), by id: their
/// files under `storage/session/`.
pub fn children(path: &Path) -> Vec<(String, PathBuf)> {
    let Some(storage) = storage_of(path) else {
        return Vec::new();
    };
    let id = stem(path);
    let mut found = Vec::new();
    let Ok(projects) = std::fs::read_dir(storage.join("session")) else {
        return found;
    };
    for project in projects.flatten() {
        for file in json_files(&project.path()).unwrap_or_default() {
            let parent = read_json(&file)
                .ok()
                .and_then(|v| v["parentID"].as_str().map(str::to_string));
            if parent.as_deref() == Some(id.as_str()) {
                found.push((stem(&file), file));
            }
        }
    }
    found.sort();
    found
}

/// Whether the database beside the store (`opencode.db` in the same data
/// folder) holds the session too: OpenCode 1.2 copied it there.
pub fn in_database(path: &Path) -> bool {
    let (Some(storage), Some(id)) = (storage_of(path), path.file_stem().and_then(|s| s.to_str()))
    else {
        return false;
    };
    let Some(database) = storage.parent().map(|d| d.join(super::db::FILE)) else {
        return false;
    };
    database.is_file() && super::db::holds(&database, id)
}

/// Whether the session started as a subagent of another.
pub fn has_parent(path: &Path) -> bool {
    read_json(path).is_ok_and(|v| v["parentID"].as_str().is_some())
}
