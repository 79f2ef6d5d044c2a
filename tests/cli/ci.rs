//! `fsck` in other projects' CI, through the doors they expect: the hooks of
//! `.pre-commit-hooks.yaml`, run by pre-commit itself (pinned in
//! `tests/precommit/requirements.txt`, in the virtual environment
//! `tests/precommit/.venv` that `.ci/run` makes; the tests make it once when
//! it is missing, and fail rather than skip under CI), and the GitHub Action
//! `action.yml`, whose script `ci/fsck-changed.sh` runs here in a repository
//! with a base and a head commit, with the ysess under test on PATH in place
//! of the one the action installs.
//!
//! The `language: rust` hooks would build ysess in release inside the test:
//! pre-commit checks their definitions (`validate-manifest`), and their
//! `language: system` twins, the same command, run here.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::{Dir, Group, missing, python_venv, user_line};

const PRECOMMIT: Group = Group {
    name: "precommit",
    enable: "python3 -m venv tests/precommit/.venv && tests/precommit/.venv/bin/pip install -r tests/precommit/requirements.txt",
};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn venv(program: &str) -> PathBuf {
    root().join("tests/precommit/.venv/bin").join(program)
}

/// Why pre-commit cannot run here, if it cannot; where its environment is
/// not made yet, makes it first (once per run), as `.ci/run` does.
fn precommit_missing() -> Option<String> {
    static SET_UP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SET_UP
        .get_or_init(|| {
            let works = || {
                Command::new(venv("pre-commit"))
                    .arg("--version")
                    .output()
                    .is_ok_and(|o| o.status.success())
            };
            python_venv(
                &PRECOMMIT,
                "precommit",
                works,
                "pre-commit is not installed in tests/precommit/.venv",
            )
        })
        .clone()
}

/// True when the test can go on; otherwise `missing` has failed it or said
/// it skipped.
fn have_precommit() -> bool {
    match precommit_missing() {
        None => true,
        Some(why) => {
            missing(&PRECOMMIT, &why);
            false
        }
    }
}

/// PATH with the ysess under test first, as a project's runner has its own.
fn search_path() -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_ysess"))
        .parent()
        .expect("the binary's folder");
    format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `program` with `args` in `dir`: git with a fixed identity and no
/// configuration of this machine's, ysess first on PATH.
fn command(program: impl AsRef<std::ffi::OsStr>, dir: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(dir)
        .env("PATH", search_path())
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.com")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.com")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env_remove("YSESS")
        .env_remove("YSESS_FILE")
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE");
    cmd
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = command("git", dir).args(args).output().expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// What a program printed, both streams, and how it ended, for asserts.
struct Ran {
    what: String,
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Ran {
    fn of(what: String, out: Output) -> Ran {
        Ran {
            what,
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }

    #[track_caller]
    fn status(&self, code: i32) -> &Ran {
        assert_eq!(self.code, Some(code), "exit status\n{self}");
        self
    }

    /// Asserts that stdout and stderr together hold `text`.
    #[track_caller]
    fn says(&self, text: &str) -> &Ran {
        assert!(
            self.stdout.contains(text) || self.stderr.contains(text),
            "expected {text:?}\n{self}"
        );
        self
    }

    /// Asserts stdout is empty: the findings and status go to stderr.
    #[track_caller]
    fn no_stdout(&self) -> &Ran {
        assert_eq!(self.stdout, "", "stdout\n{self}");
        self
    }

    #[track_caller]
    fn never_says(&self, text: &str) -> &Ran {
        assert!(
            !self.stdout.contains(text) && !self.stderr.contains(text),
            "did not expect {text:?}\n{self}"
        );
        self
    }
}

impl std::fmt::Display for Ran {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "$ {}", self.what)?;
        writeln!(f, "--- stdout\n{}--- stderr\n{}", self.stdout, self.stderr)?;
        writeln!(f, "--- exit {:?}", self.code)
    }
}

fn session(turns: usize) -> String {
    (1..=turns)
        .map(|n| {
            let parent = (n > 1).then(|| format!("e{}", n - 1));
            user_line(&format!("e{n}"), parent.as_deref(), &format!("turn {n}")) + "\n"
        })
        .collect()
}

/// A repository (`repo/` in the scratch directory) whose first commit holds
/// four sound sessions and a note. Then, uncommitted: `grew` appended to,
/// `rewritten`'s line 2 changed (still sound), `broken` given a line that is
/// no JSON, `deleted` removed, `new` added, the note changed.
fn repository() -> (Dir, PathBuf) {
    let dir = Dir::new();
    let repo = dir.join("repo");
    std::fs::create_dir_all(repo.join("sessions")).expect("a folder");
    git(&repo, &["init", "-q", "-b", "main"]);
    for name in ["grew", "rewritten", "broken", "deleted"] {
        dir.write(&format!("repo/sessions/{name}.jsonl"), session(4));
    }
    dir.write("repo/notes.txt", "not a session\n");
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "four sessions"]);
    dir.write("repo/sessions/grew.jsonl", session(6));
    let rewritten = session(4).replace("turn 2", "turn two");
    dir.write("repo/sessions/rewritten.jsonl", rewritten);
    dir.write(
        "repo/sessions/broken.jsonl",
        session(4) + "{\"id\": \"e5\",\n",
    );
    std::fs::remove_file(repo.join("sessions/deleted.jsonl")).expect("rm");
    dir.write("repo/sessions/new.jsonl", session(2));
    dir.write("repo/notes.txt", "still not a session\n");
    (dir, repo)
}

/// `pre-commit try-repo` of this checkout, hook `hook`, on `files` of the
/// repository `repo`; pre-commit's store in the scratch directory.
fn try_hook(dir: &Dir, repo: &Path, hook: &str, files: &[&str]) -> Ran {
    let mut cmd = command(venv("pre-commit"), repo);
    cmd.arg("try-repo")
        .arg(root())
        .arg(hook)
        .arg("--files")
        .args(files)
        .env("PRE_COMMIT_HOME", dir.join("pre-commit-home"))
        .env("PRE_COMMIT_COLOR", "never")
        .env_remove("SKIP");
    let what = format!(
        "pre-commit try-repo <ysess> {hook} --files {}",
        files.join(" ")
    );
    Ran::of(what, cmd.output().expect("pre-commit starts"))
}

/// A YAML file of this checkout as JSON, read by the venv's PyYAML.
fn yaml(name: &str) -> Value {
    let out = Command::new(venv("python"))
        .args([
            "-c",
            "import json, sys, yaml; json.dump(yaml.safe_load(open(sys.argv[1])), sys.stdout)",
        ])
        .arg(root().join(name))
        .output()
        .expect("python starts");
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("YAML as JSON")
}

#[test]
fn precommit_hook_passes_sound_sessions_and_names_a_broken_one() {
    if !have_precommit() {
        return;
    }
    let (dir, repo) = repository();
    // The note is no session: the hook's `files` keeps it from ysess.
    let files = ["sessions/grew.jsonl", "sessions/new.jsonl", "notes.txt"];
    try_hook(&dir, &repo, "ysess-fsck-system", &files)
        .status(0)
        .says("ysess fsck")
        .says("Passed");
    let files = ["sessions/grew.jsonl", "sessions/broken.jsonl"];
    try_hook(&dir, &repo, "ysess-fsck-system", &files)
        .status(1)
        .says("Failed")
        .says("- hook id: ysess-fsck-system")
        .says("error: sessions/broken.jsonl:5: truncatedLastLine")
        .never_says("sessions/grew.jsonl:");
    // A rewritten session is still sound: only the append-only hook sees it.
    try_hook(
        &dir,
        &repo,
        "ysess-fsck-system",
        &["sessions/rewritten.jsonl"],
    )
    .status(0);
}

#[test]
fn precommit_append_only_hook_names_a_session_rewritten_since_head() {
    if !have_precommit() {
        return;
    }
    let (dir, repo) = repository();
    let hook = "ysess-fsck-append-only-system";
    try_hook(
        &dir,
        &repo,
        hook,
        &["sessions/grew.jsonl", "sessions/new.jsonl"],
    )
    .status(0)
    .says("Passed");
    let files = ["sessions/grew.jsonl", "sessions/rewritten.jsonl"];
    try_hook(&dir, &repo, hook, &files)
        .status(1)
        .says("Failed")
        .says("error: sessions/rewritten.jsonl:2: historyRewritten: entry e2 was rewritten since HEAD")
        .never_says("sessions/grew.jsonl:");
}

#[test]
fn precommit_manifest_is_valid_and_each_hook_has_its_system_twin() {
    if !have_precommit() {
        return;
    }
    let out = Command::new(venv("pre-commit"))
        .args(["validate-manifest", ".pre-commit-hooks.yaml"])
        .current_dir(root())
        .output()
        .expect("pre-commit starts");
    Ran::of("pre-commit validate-manifest".into(), out).status(0);
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().expect("a list of hooks");
    let field = |id: &str, key: &str| -> Value {
        let hook = hooks.iter().find(|h| h["id"] == id);
        hook.unwrap_or_else(|| panic!("no hook {id}"))[key].clone()
    };
    let ids: Vec<&str> = hooks.iter().filter_map(|h| h["id"].as_str()).collect();
    assert_eq!(
        ids,
        [
            "ysess-fsck",
            "ysess-fsck-system",
            "ysess-fsck-append-only",
            "ysess-fsck-append-only-system"
        ]
    );
    for (built, system, entry) in [
        ("ysess-fsck", "ysess-fsck-system", "ysess fsck"),
        (
            "ysess-fsck-append-only",
            "ysess-fsck-append-only-system",
            "ysess fsck --since-rev HEAD",
        ),
    ] {
        assert_eq!(field(built, "language"), "rust");
        assert_eq!(field(system, "language"), "system");
        for id in [built, system] {
            assert_eq!(field(id, "entry"), entry, "{id}");
            assert_eq!(field(id, "files"), r"\.jsonl$", "{id}");
        }
    }
}

/// [`repository`]'s changes committed in two steps: the base, then `grew`
/// (`grew` appended to, `new` added, the note changed), then `rewrote`
/// (`rewritten` changed in place, `broken` torn, `deleted` removed). The
/// three commits, with `rewrote` checked out.
fn history() -> (Dir, PathBuf, [String; 3]) {
    let (dir, repo) = repository();
    let base = git(&repo, &["rev-parse", "HEAD"]);
    git(
        &repo,
        &[
            "add",
            "sessions/grew.jsonl",
            "sessions/new.jsonl",
            "notes.txt",
        ],
    );
    git(&repo, &["commit", "-q", "-m", "grew"]);
    let grew = git(&repo, &["rev-parse", "HEAD"]);
    git(&repo, &["add", "-A"]);
    git(&repo, &["commit", "-q", "-m", "rewrote"]);
    let rewrote = git(&repo, &["rev-parse", "HEAD"]);
    (dir, repo, [base, grew, rewrote])
}

/// `ci/fsck-changed.sh` with `args` in `repo`, ysess under test on PATH.
fn script(repo: &Path, args: &[&str]) -> Ran {
    let out = command(root().join("ci/fsck-changed.sh"), repo)
        .args(args)
        .output()
        .expect("the script starts");
    Ran::of(format!("ci/fsck-changed.sh {}", args.join(" ")), out)
}

#[test]
fn action_script_passes_sessions_that_grew_and_names_rewritten_and_deleted_ones() {
    let (_dir, repo, [base, grew, _]) = history();
    git(&repo, &["checkout", "-q", &grew]);
    script(&repo, &["--base", &base])
        .status(0)
        .no_stdout()
        .says(&format!(
            "ysess fsck: 2 session file(s) changed since {base}"
        ));
    git(&repo, &["checkout", "-q", "main"]);
    script(&repo, &["--base", &grew])
        .status(1)
        .says(&format!("error: sessions/rewritten.jsonl:2: historyRewritten: entry e2 was rewritten since {grew}"))
        .says(&format!("error: sessions/deleted.jsonl: historyRewritten: the file was deleted since {grew}"))
        .says("error: sessions/broken.jsonl:5: truncatedLastLine")
        .never_says("sessions/grew.jsonl:")
        .never_says("sessions/new.jsonl:");
    // The base of the whole push: the same three, named.
    script(
        &repo,
        &["--base", &base, "--strict", "--", "sessions/*.jsonl"],
    )
    .status(1)
    .says("sessions/rewritten.jsonl:2: historyRewritten")
    .says("sessions/deleted.jsonl: historyRewritten");
    // A new branch's push (no previous tip): every session file is checked,
    // and no growth can be proved, so only the torn one fails.
    let zeros = "0".repeat(40);
    script(&repo, &["--base", &zeros])
        .status(1)
        .says("ysess fsck: 4 session file(s) in the repository (no base to compare with)")
        .says("error: sessions/broken.jsonl:5: truncatedLastLine")
        .never_says("historyRewritten");
    // No session file among the paths: nothing to check, and that passes.
    script(&repo, &["--base", &grew, "--", "other/*.jsonl"])
        .status(0)
        .says(&format!(
            "no session file changed since {grew} (paths: other/*.jsonl)"
        ));
}

#[test]
fn action_script_fetches_the_base_a_shallow_clone_lacks_and_refuses_an_unknown_one() {
    let (dir, repo, [_, grew, _]) = history();
    let origin = format!("file://{}", repo.display());
    git(
        dir.path(),
        &["clone", "-q", "--depth", "1", &origin, "shallow"],
    );
    let shallow = dir.join("shallow");
    script(&shallow, &["--base", &grew])
        .status(1)
        .says(&format!("fetching the base {grew} from origin"))
        .says("error: sessions/rewritten.jsonl:2: historyRewritten");
    let unknown = "1".repeat(40);
    script(&repo, &["--base", &unknown])
        .status(128)
        .says(&format!(
            "error: the base revision {unknown} is not in this repository"
        ))
        .says("fetch-depth: 0");
    script(&repo, &["--bogus"])
        .status(2)
        .says("usage: fsck-changed.sh");
}

#[test]
fn action_installs_the_crate_and_runs_the_script_with_its_inputs() {
    if !have_precommit() {
        return;
    }
    let action = yaml("action.yml");
    assert_eq!(action["runs"]["using"], "composite");
    let inputs = &action["inputs"];
    // The version installed by default is this crate's.
    assert_eq!(inputs["version"]["default"], env!("CARGO_PKG_VERSION"));
    assert_eq!(inputs["paths"]["default"], "*.jsonl");
    let base = inputs["base"]["default"].as_str().expect("a default base");
    for event in ["github.event.pull_request.base.sha", "github.event.before"] {
        assert!(base.contains(event), "{base}");
    }
    let steps = action["runs"]["steps"].as_array().expect("steps");
    let [install, check] = steps.as_slice() else {
        panic!("two steps: {steps:?}");
    };
    assert_eq!(install["if"], "inputs.install == 'true'");
    assert_eq!(install["env"]["YSESS_VERSION"], "${{ inputs.version }}");
    assert_eq!(
        install["run"],
        "cargo install ysess --locked --version \"$YSESS_VERSION\""
    );
    for (var, input) in [("BASE", "base"), ("PATHS", "paths"), ("STRICT", "strict")] {
        let expected = format!("${{{{ inputs.{input} }}}}");
        assert_eq!(check["env"][format!("YSESS_FSCK_{var}")], expected.as_str());
    }
    assert_eq!(check["shell"], "bash");
    let run = check["run"].as_str().expect("the step's script");
    assert!(
        run.contains("\"$GITHUB_ACTION_PATH/ci/fsck-changed.sh\""),
        "{run}"
    );

    // The step as the runner runs it (bash -e, the action's folder in
    // GITHUB_ACTION_PATH), with the inputs in its environment.
    let (_dir, repo, [base, grew, _]) = history();
    let step = |base: &str, paths: &str, strict: &str| {
        let out = command("bash", &repo)
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", run])
            .env("GITHUB_ACTION_PATH", root())
            .env("YSESS_FSCK_BASE", base)
            .env("YSESS_FSCK_PATHS", paths)
            .env("YSESS_FSCK_STRICT", strict)
            .output()
            .expect("bash starts");
        Ran::of(format!("the step, base {base}, paths {paths:?}"), out)
    };
    // `sessions/*.jsonl` expanded by the shell would miss the deleted file.
    step(&grew, "sessions/*.jsonl", "false")
        .status(1)
        .says("sessions/rewritten.jsonl:2: historyRewritten")
        .says("sessions/deleted.jsonl: historyRewritten");
    // Pathspecs, one a line or a word, matched by git, not by the shell.
    step(&grew, "other/*.jsonl\nsessions/new*.jsonl", "true")
        .status(0)
        .says("no session file changed");
    git(&repo, &["checkout", "-q", &grew]);
    step(&base, "sessions/g*.jsonl sessions/new.jsonl", "true")
        .status(0)
        .says("ysess fsck: 2 session file(s) changed");
}
