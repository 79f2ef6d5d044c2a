//! A database an agent keeps its sessions in (OpenCode's SQLite), as the
//! archive keeps it: copied by SQLite's own online backup, never by
//! copying the live file (whose write-ahead log holds what the app wrote
//! last), and never replaced by a backup that lost a row.
//!
//! - [`backup`] takes one consistent snapshot, in a single step under one
//!   read transaction, into a temporary file beside its place; it is set
//!   to a rollback journal, so that the copy stands alone, then flushed
//!   and renamed into place (the guarantees of [`Output`]).
//! - [`holds_all`] says whether a new backup holds every row of an older
//!   one, by each table's primary key (its row id where it declares
//!   none): the archive replaces its last copy only with one that does.

use std::io;
use std::path::Path;
use std::time::Duration;

use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};

use super::output::Output;

/// The first bytes of every SQLite database file.
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// Whether the file at `path` is a SQLite database (by its header).
pub fn is_sqlite(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 16];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == MAGIC)
}

fn sql(path: &Path) -> impl Fn(rusqlite::Error) -> io::Error + '_ {
    move |e| io::Error::other(format!("{}: {e}", path.display()))
}

fn read_only(path: &Path) -> io::Result<Connection> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(sql(path))?;
    // The app writes often and briefly: wait for it rather than fail.
    conn.busy_timeout(Duration::from_secs(5))
        .map_err(sql(path))?;
    Ok(conn)
}

/// Removes the journals and logs SQLite kept beside a temporary backup a
/// killed run left (`….tmp-journal`, `-wal`, `-shm`): those of the
/// temporaries of `temp`'s target that are gone ([`Output::create`]
/// removed them).
fn remove_stale_logs(temp: &Path) {
    let (Some(dir), Some(name)) = (temp.parent(), temp.file_name()) else {
        return;
    };
    let name = name.to_string_lossy();
    // `.<target>.<random>.tmp`: the target's temporaries share all but
    // the random part.
    let Some(prefix) = name
        .strip_suffix(".tmp")
        .and_then(|n| n.rsplit_once('.'))
        .map(|(p, _)| format!("{p}."))
    else {
        return;
    };
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in read.filter_map(Result::ok) {
        let file = entry.file_name().to_string_lossy().into_owned();
        if !file.starts_with(&prefix) {
            continue;
        }
        let base = ["-journal", "-wal", "-shm"]
            .iter()
            .find_map(|end| file.strip_suffix(end));
        if base.is_some_and(|b| b.ends_with(".tmp") && !dir.join(b).exists()) {
            let _ = std::fs::remove_file(dir.join(&file));
        }
    }
}

/// Backs up the database `live` as the file `path`, which is made whole
/// or not at all, no more readable than `live`. Returns its size.
pub fn backup(live: &Path, path: &Path) -> io::Result<u64> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let out = Output::create(path, &[live], Some(live))?;
    let temp = out.temp_path().ok_or_else(|| {
        io::Error::other(format!("{}: not a regular file's place", path.display()))
    })?;
    remove_stale_logs(temp);
    let source = read_only(live)?;
    {
        let mut copy = Connection::open(temp).map_err(sql(path))?;
        let step = Backup::new(&source, &mut copy).map_err(sql(live))?;
        // All pages in one step: one read transaction, one snapshot, and
        // no restart when the app writes meanwhile. Busy only while the
        // app holds an exclusive lock, which it does briefly.
        let mut tries = 0;
        loop {
            match step.step(-1).map_err(sql(live))? {
                StepResult::Done => break,
                // Each step waits out the busy timeout (5 s) first.
                _ if tries >= 10 => {
                    return Err(io::Error::other(format!(
                        "{}: the database stayed locked for a minute; not archived this time",
                        live.display()
                    )));
                }
                _ => {
                    tries += 1;
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        }
        drop(step);
        // A copy of a database in write-ahead-log mode is in that mode
        // too: a rollback journal makes it one file that stands alone.
        copy.pragma_update(None, "journal_mode", "DELETE")
            .map_err(sql(path))?;
        copy.close().map_err(|(_, e)| sql(path)(e))?;
    }
    let size = std::fs::metadata(temp)?.len();
    out.finish()?;
    Ok(size)
}

/// Quotes an SQL identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// The tables of the database `schema` names, but SQLite's own.
fn tables(conn: &Connection, schema: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!(
        "SELECT name FROM {schema}.sqlite_master \
         WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
    names.collect()
}

/// The columns of `table`'s primary key, in order; none when it declares
/// none (its row id is its key).
fn primary_key(conn: &Connection, schema: &str, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA {schema}.table_info({})", quoted(table)))?;
    let mut cols: Vec<(i64, String)> = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(5)?, r.get::<_, String>(1)?)))?
        .filter_map(Result::ok)
        .filter(|(pk, _)| *pk > 0)
        .collect();
    cols.sort();
    Ok(cols.into_iter().map(|(_, name)| name).collect())
}

/// Whether the database at `new` holds every row of the one at `old`, by
/// each table's primary key: of the tables named (`only`), else of every
/// table. A table or key column `new` lacks (a migration renamed it)
/// counts as a row lost.
pub fn holds_all(new: &Path, old: &Path, only: Option<&[&str]>) -> io::Result<bool> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_NO_MUTEX
        | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(new, flags).map_err(sql(new))?;
    conn.execute("ATTACH DATABASE ?1 AS old", [old.to_string_lossy()])
        .map_err(sql(old))?;
    let old_tables = tables(&conn, "old").map_err(sql(old))?;
    let new_tables = tables(&conn, "main").map_err(sql(new))?;
    let named = |t: &String| only.is_none_or(|only| only.contains(&t.as_str()));
    for table in old_tables.into_iter().filter(named) {
        if !new_tables.contains(&table) {
            return Ok(false);
        }
        let key = primary_key(&conn, "old", &table).map_err(sql(old))?;
        let key = if key.is_empty() {
            vec!["rowid".to_string()]
        } else {
            key
        };
        let same = key
            .iter()
            .map(|c| format!("n.{c} IS o.{c}", c = quoted(c)))
            .collect::<Vec<_>>()
            .join(" AND ");
        let t = quoted(&table);
        let lost = conn.query_row(
            &format!(
                "SELECT EXISTS (SELECT 1 FROM old.{t} o \
                 WHERE NOT EXISTS (SELECT 1 FROM main.{t} n WHERE {same}))"
            ),
            [],
            |r| r.get::<_, bool>(0),
        );
        match lost {
            Ok(false) => {}
            // Lost a row, or a key column the new schema lacks.
            Ok(true) | Err(_) => return Ok(false),
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(path: &Path, rows: &[&str]) {
        let conn = Connection::open(path).expect("open");
        conn.pragma_update(None, "journal_mode", "WAL")
            .expect("wal");
        conn.execute_batch("CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, title TEXT)")
            .expect("table");
        conn.execute("DELETE FROM session", []).expect("delete");
        for id in rows {
            conn.execute(
                "INSERT INTO session (id, title) VALUES (?1, 'a title')",
                [id],
            )
            .expect("insert");
        }
    }

    #[test]
    fn a_backup_stands_alone_and_says_whether_it_lost_a_row() {
        let dir = tempfile::tempdir().expect("temp dir");
        let live = dir.path().join("live.db");
        db(&live, &["ses_a", "ses_b"]);
        let first = dir.path().join("arch/first.db");
        assert!(backup(&live, &first).expect("backed up") > 0);
        assert!(is_sqlite(&first));
        // A rollback journal: no log beside it, read alone.
        let conn = Connection::open(&first).expect("open");
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .expect("mode");
        assert_eq!(mode, "delete");
        drop(conn);

        db(&live, &["ses_a", "ses_b", "ses_c"]);
        let grown = dir.path().join("arch/grown.db");
        backup(&live, &grown).expect("backed up");
        assert!(holds_all(&grown, &first, None).expect("compared"));
        assert!(!holds_all(&first, &grown, None).expect("compared"));
        // Rows of a table that is not history come and go.
        assert!(holds_all(&first, &grown, Some(&["other"])).expect("compared"));

        db(&live, &["ses_c"]);
        let pruned = dir.path().join("arch/pruned.db");
        backup(&live, &pruned).expect("backed up");
        assert!(!holds_all(&pruned, &grown, Some(&["session"])).expect("compared"));
        assert!(!is_sqlite(&dir.path().join("arch")));
    }
}
