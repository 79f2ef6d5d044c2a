//! Old versions of session files, read through git itself: `git rev-parse`
//! names the revision, `git ls-tree` lists its files, and one
//! `git cat-file --batch` process hands over every old file's bytes.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// Why git could not answer.
#[derive(Debug)]
pub enum GitError {
    /// git itself cannot be run.
    Spawn(io::Error),
    /// The current directory is not in a git repository.
    NotARepository(String),
    /// The revision is not in this repository; `shallow` when the clone
    /// is shallow, so the revision may be in history it did not fetch.
    UnknownRevision {
        /// The revision as given.
        rev: String,
        /// The clone is shallow.
        shallow: bool,
    },
    /// git failed otherwise; its message.
    Failed(String),
}

impl fmt::Display for GitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GitError::Spawn(e) => write!(f, "cannot run git: {e}"),
            GitError::NotARepository(why) => write!(f, "not in a git repository: {why}"),
            GitError::UnknownRevision { rev, shallow: true } => write!(
                f,
                "revision {rev} is not in this shallow clone: its history was not fetched"
            ),
            GitError::UnknownRevision {
                rev,
                shallow: false,
            } => {
                write!(f, "revision {rev} is not a commit of this repository")
            }
            GitError::Failed(why) => write!(f, "git failed: {why}"),
        }
    }
}

impl std::error::Error for GitError {}

fn git(args: &[&str]) -> Result<std::process::Output, GitError> {
    Command::new("git")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(GitError::Spawn)
}

fn stderr_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).trim().to_string()
}

/// The commit `rev` names, as a full object id.
pub fn resolve(rev: &str) -> Result<String, GitError> {
    let inside = git(&["rev-parse", "--is-inside-work-tree"])?;
    if !inside.status.success() {
        return Err(GitError::NotARepository(stderr_of(&inside)));
    }
    let spec = format!("{rev}^{{commit}}");
    let out = git(&[
        "rev-parse",
        "--verify",
        "--quiet",
        "--end-of-options",
        &spec,
    ])?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).trim().to_string());
    }
    let shallow = git(&["rev-parse", "--is-shallow-repository"])?;
    Err(GitError::UnknownRevision {
        rev: rev.to_string(),
        shallow: String::from_utf8_lossy(&shallow.stdout).trim() == "true",
    })
}

/// The files (blobs) of `commit` under `paths`, named relative to the
/// current directory as git names them, with their object ids.
pub fn files_at(commit: &str, paths: &[PathBuf]) -> Result<BTreeMap<PathBuf, String>, GitError> {
    let mut cmd = Command::new("git");
    cmd.args(["ls-tree", "-r", "-z", commit, "--"]).args(paths);
    let out = cmd.stdin(Stdio::null()).output().map_err(GitError::Spawn)?;
    if !out.status.success() {
        return Err(GitError::Failed(stderr_of(&out)));
    }
    let mut files = BTreeMap::new();
    for record in out.stdout.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        // `<mode> SP <type> SP <object> TAB <path>`
        let Some(tab) = record.iter().position(|&b| b == b'\t') else {
            return Err(GitError::Failed("unexpected `git ls-tree` output".into()));
        };
        let meta = String::from_utf8_lossy(&record[..tab]);
        let mut fields = meta.split(' ');
        let (mode, kind, oid) = (fields.next(), fields.next(), fields.next());
        // Regular files only: links and submodules are not sessions.
        if kind != Some("blob") || mode == Some("120000") {
            continue;
        }
        files.insert(
            path_of(&record[tab + 1..]),
            oid.unwrap_or_default().to_string(),
        );
    }
    Ok(files)
}

#[cfg(unix)]
fn path_of(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_of(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// One `git cat-file --batch` process: ask for an object, read its bytes.
pub struct CatFile {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl CatFile {
    /// Starts `git cat-file --batch` in the current directory.
    pub fn start() -> Result<CatFile, GitError> {
        let mut child = Command::new("git")
            .args(["cat-file", "--batch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(GitError::Spawn)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(GitError::Failed("no pipe to git cat-file".into()));
        };
        Ok(CatFile {
            child,
            stdin,
            stdout: BufReader::with_capacity(256 * 1024, stdout),
        })
    }

    /// Hands the bytes of blob `oid` to `read`, streamed; whatever `read`
    /// leaves unread is skipped.
    pub fn with_blob<T>(
        &mut self,
        oid: &str,
        read: impl FnOnce(&mut dyn Read) -> io::Result<T>,
    ) -> io::Result<T> {
        writeln!(self.stdin, "{oid}")?;
        self.stdin.flush()?;
        let mut header = String::new();
        self.stdout.read_line(&mut header)?;
        // `<oid> blob <size>`, or `<oid> missing`.
        let mut words = header.split_whitespace();
        let size = match (words.next(), words.next(), words.next()) {
            (Some(_), Some("blob"), Some(size)) => size
                .parse::<u64>()
                .map_err(|_| io::Error::other(format!("git cat-file: bad header {header:?}")))?,
            _ => {
                return Err(io::Error::other(format!(
                    "git cat-file cannot read object {oid}: {}",
                    header.trim()
                )));
            }
        };
        let mut body = (&mut self.stdout).take(size);
        let result = read(&mut body);
        io::copy(&mut body, &mut io::sink())?;
        let mut newline = [0u8; 1];
        self.stdout.read_exact(&mut newline)?;
        result
    }
}

impl Drop for CatFile {
    fn drop(&mut self) {
        // Nothing more to ask: end cat-file and reap it.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
