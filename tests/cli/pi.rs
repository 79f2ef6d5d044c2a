//! pi's own sessions: pi (pinned in tests/pi, driven by tests/pi/harness.mjs)
//! writes seeded sessions with forks and labels and says what it reads in
//! them, and ysess must read the same.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde::Deserialize;

use crate::support::{Dir, Run, fixture};

/// The seeds every comparison with pi runs on.
const SEEDS: std::ops::RangeInclusive<u32> = 1..=30;

fn harness_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pi")
}

/// Why pi's harness cannot run on this machine, if it cannot. Where pi is
/// not installed yet and npm is there, installs the pinned version first
/// (once per run), as `.ci/run` does.
fn harness_missing() -> Option<String> {
    static SET_UP: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    SET_UP
        .get_or_init(|| {
            let pi = harness_dir().join("node_modules/@mariozechner/pi-coding-agent/package.json");
            if !pi.is_file()
                && let Some(why) = install_pi(&pi)
            {
                return Some(why);
            }
            match Command::new("node").arg("--version").output() {
                Ok(out) if out.status.success() => None,
                Ok(out) => Some(format!("`node --version` failed ({})", out.status)),
                Err(e) => Some(format!(
                    "node cannot start ({e}); install Node.js 20 or newer"
                )),
            }
        })
        .clone()
}

/// `npm ci` of the pinned pi; why it could not be done, if it could not.
fn install_pi(pi: &Path) -> Option<String> {
    let _ = writeln!(
        std::io::stderr(),
        "setting up the pi tests: npm ci --prefix tests/pi (once)"
    );
    let out = match Command::new("npm")
        .args(["ci", "--prefix"])
        .arg(harness_dir())
        .args([
            "--omit=optional",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
        ])
        .output()
    {
        Ok(out) => out,
        Err(e) => {
            return Some(format!(
                "{} is missing, and npm cannot start to install it ({e}); install Node.js 20 or newer",
                pi.display()
            ));
        }
    };
    if !out.status.success() || !pi.is_file() {
        let err = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = err.lines().rev().take(5).collect();
        return Some(format!(
            "{} is missing, and `npm ci --prefix tests/pi` failed ({}): {}",
            pi.display(),
            out.status,
            tail.into_iter().rev().collect::<Vec<_>>().join(" / ")
        ));
    }
    None
}

/// Runs `node tests/pi/harness.mjs ARGS` and returns what it printed, or
/// None where node or pi is missing and `YSESS_SKIP=pi` says to skip (else
/// the test fails, naming the command that installs them). A harness that
/// runs and fails fails the test.
#[track_caller]
pub fn node_harness(args: &[&str]) -> Option<String> {
    if let Some(why) = harness_missing() {
        crate::support::missing(&crate::support::PI, &why);
        return None;
    }
    let out = Command::new("node")
        .arg(harness_dir().join("harness.mjs"))
        .args(args)
        .output()
        .expect("node starts");
    assert!(
        out.status.success(),
        "node harness.mjs {args:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Some(String::from_utf8(out.stdout).expect("the harness prints UTF-8"))
}

/// What pi reads in a session file (`harness.mjs inspect`).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Inspect {
    /// `getLeafId()`: the last entry of the file.
    pub leaf_id: Option<String>,
    /// `getBranch()`: root to leaf, every entry type, labels included.
    pub branch: Vec<String>,
    pub branch_types: Vec<String>,
    /// `getEntries()`, in file order.
    pub entries: Vec<PiEntry>,
    /// Entries that no entry names as parent, in file order.
    pub tips: Vec<String>,
    /// `getLabel(id)` of every entry that has one.
    pub labels: BTreeMap<String, String>,
    /// `buildSessionContext().messages.length`.
    pub context: usize,
    pub header: serde_json::Value,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PiEntry {
    pub id: String,
    pub parent_id: Option<String>,
    #[serde(rename = "type")]
    pub kind: String,
    /// A compaction's first kept entry.
    #[serde(default)]
    pub first_kept_entry_id: Option<String>,
}

impl Inspect {
    /// pi's branch as ysess's `log` walks it: ysess folds label entries out
    /// of the tree, as it folds its own records, and shows labels as names.
    fn branch_without_labels(&self) -> Vec<&str> {
        self.branch
            .iter()
            .zip(&self.branch_types)
            .filter(|(_, kind)| *kind != "label")
            .map(|(id, _)| id.as_str())
            .collect()
    }
}

fn parse_inspect(line: &str) -> Inspect {
    serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("harness printed no inspect ({e}): {line}"))
}

/// A session pi wrote, and pi's reading of it.
pub struct PiSession {
    pub seed: u32,
    pub path: PathBuf,
    pub pi: Inspect,
}

/// pi writes the session of each seed into one directory, as `SEED.jsonl`,
/// and reopens it: one node start for all of them.
pub fn pi_sessions(seeds: impl IntoIterator<Item = u32>) -> Option<(Dir, Vec<PiSession>)> {
    let dir = Dir::new();
    let seeds: Vec<String> = seeds.into_iter().map(|s| s.to_string()).collect();
    let mut args = vec!["sessions", dir.path().to_str().expect("temp dir is UTF-8")];
    args.extend(seeds.iter().map(String::as_str));
    let out = node_harness(&args)?;
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), seeds.len(), "one inspect per seed:\n{out}");
    let sessions = seeds
        .iter()
        .zip(lines)
        .map(|(seed, line)| PiSession {
            seed: seed.parse().expect("a seed"),
            path: dir.join(&format!("{seed}.jsonl")),
            pi: parse_inspect(line),
        })
        .collect();
    Some((dir, sessions))
}

/// One seeded session that pi wrote, at `DIR/SEED.jsonl`, and pi's reading of it.
pub fn pi_session(seed: u32) -> Option<(Dir, Inspect)> {
    let (dir, mut sessions) = pi_sessions([seed])?;
    Some((dir, sessions.pop().expect("one session").pi))
}

fn ysess(dir: &Dir, file: &Path, args: &[&str]) -> Run {
    let mut all = vec!["-f", file.to_str().expect("temp path is UTF-8")];
    all.extend_from_slice(args);
    dir.run(&all)
}

/// One line of `tag --json`.
#[derive(Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(deny_unknown_fields)]
struct Tag {
    name: String,
    target: String,
}

// ---------------------------------------------------------------------------
// The harness itself
// ---------------------------------------------------------------------------

#[test]
fn ci_fails_rather_than_skip_the_pi_tests_when_pi_is_not_installed() {
    let ci = std::env::var("CI").unwrap_or_default();
    if ci.is_empty() {
        return;
    }
    if let Some(why) = harness_missing() {
        panic!(
            "CI={ci}, yet pi's harness cannot run, so every comparison with pi would be skipped: {why}"
        );
    }
}

#[test]
fn pi_sessions_have_forks_labels_and_every_entry_type_the_harness_writes() {
    let Some((_dir, sessions)) = pi_sessions(SEEDS) else {
        return;
    };
    let mut kinds = BTreeSet::new();
    for PiSession { seed, path, pi } in &sessions {
        let text = std::fs::read_to_string(path).expect("pi wrote the file");
        assert_eq!(
            text.lines().count(),
            pi.entries.len() + 1,
            "seed {seed}: a header and the entries"
        );
        assert_eq!(pi.header["type"], "session", "seed {seed}");
        assert_eq!(pi.header["version"], 3, "seed {seed}");
        assert!(
            (10..=60).contains(&pi.entries.len()),
            "seed {seed}: {} entries",
            pi.entries.len()
        );
        for e in &pi.entries {
            assert!(
                e.id.len() == 8 && e.id.bytes().all(|b| b.is_ascii_hexdigit()),
                "seed {seed}: pi's ids are 8 hex digits, not {:?}",
                e.id
            );
        }
        assert_eq!(
            pi.leaf_id.as_deref(),
            pi.entries.last().map(|e| e.id.as_str()),
            "seed {seed}: the leaf is the last entry"
        );
        assert_eq!(pi.branch.last(), pi.leaf_id.as_ref(), "seed {seed}");
        let roots = pi.entries.iter().filter(|e| e.parent_id.is_none()).count();
        assert_eq!(roots, 1, "seed {seed}: one root");
        assert!(
            pi.tips.len() >= 2,
            "seed {seed}: forked, yet tips {:?}",
            pi.tips
        );
        assert!(pi.context > 0, "seed {seed}: pi's context is empty");
        kinds.extend(pi.entries.iter().map(|e| e.kind.clone()));
    }
    let every = [
        "message",
        "label",
        "model_change",
        "thinking_level_change",
        "custom",
        "custom_message",
        "session_info",
        "compaction",
        "branch_summary",
    ];
    assert_eq!(
        kinds,
        every.iter().map(|k| k.to_string()).collect(),
        "entry types across the seeds"
    );
    let labelled = sessions.iter().filter(|s| !s.pi.labels.is_empty()).count();
    assert!(
        labelled >= SEEDS.count() * 2 / 3,
        "only {labelled} sessions keep a label"
    );
    let leaf_is_label = sessions
        .iter()
        .filter(|s| s.pi.branch_types.last().map(String::as_str) == Some("label"));
    assert!(
        leaf_is_label.count() > 0,
        "no session whose leaf is a label entry"
    );
}

// ---------------------------------------------------------------------------
// ysess reads what pi wrote as pi does
// ---------------------------------------------------------------------------

#[test]
fn log_is_the_path_pi_get_branch_returns_without_label_entries() {
    let Some((dir, sessions)) = pi_sessions(SEEDS) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let run = ysess(&dir, path, &["log", "--format", "{id}"]);
        run.status(0);
        let mut log: Vec<&str> = run.stdout.lines().collect();
        log.reverse();
        assert_eq!(
            log,
            pi.branch_without_labels(),
            "seed {seed}: log, oldest first, against pi's getBranch()\n{run}"
        );
    }
}

#[test]
fn tag_json_lists_the_labels_pi_get_label_reports() {
    let Some((dir, sessions)) = pi_sessions(SEEDS) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let run = ysess(&dir, path, &["tag", "--json"]);
        run.status(0);
        let tags: BTreeSet<Tag> = run
            .stdout
            .lines()
            .map(|l| {
                serde_json::from_str(l).unwrap_or_else(|e| panic!("seed {seed}: {e}: {l:?}\n{run}"))
            })
            .collect();
        let labels: BTreeSet<Tag> = pi
            .labels
            .iter()
            .map(|(target, name)| Tag {
                name: name.clone(),
                target: target.clone(),
            })
            .collect();
        assert_eq!(
            tags, labels,
            "seed {seed}: tags against pi's getLabel()\n{run}"
        );
    }
}

#[test]
fn fsck_passes_every_session_pi_wrote() {
    let Some((dir, sessions)) = pi_sessions(SEEDS) else {
        return;
    };
    for PiSession { seed, path, .. } in &sessions {
        let run = ysess(&dir, path, &["fsck"]);
        assert_eq!(
            run.status,
            Some(0),
            "seed {seed}: fsck of a file pi wrote\n{run}"
        );
    }
}

#[test]
fn fsck_v_names_the_pi_format() {
    let Some((dir, sessions)) = pi_sessions(SEEDS) else {
        return;
    };
    for PiSession { seed, path, .. } in &sessions {
        let run = ysess(&dir, path, &["fsck", "-v"]);
        run.status(0);
        // the word `pi`, not part of the file's path or another word
        let said = format!("{}\n{}", run.stdout, run.stderr)
            .replace(path.to_str().expect("UTF-8 path"), "FILE");
        let words: Vec<&str> = said.split(|c: char| !c.is_alphanumeric()).collect();
        assert!(
            words.contains(&"pi"),
            "seed {seed}: fsck -v does not say the format is pi\n{run}"
        );
    }
}

#[test]
fn log_follows_pi_when_pi_resumes_after_a_label_entry() {
    // seed 3's last entry is a label, so pi's resumed user message hangs
    // below the label entry, which ysess folds away.
    let Some((dir, before)) = pi_session(3) else {
        return;
    };
    assert_eq!(
        before.branch_types.last().map(String::as_str),
        Some("label"),
        "seed 3 no longer ends on a label"
    );
    let path = dir.join("3.jsonl");
    let file = path.to_str().expect("UTF-8 path");
    let leaf = node_harness(&["append", file, "carry on"]).expect("the harness ran a moment ago");
    let after =
        parse_inspect(&node_harness(&["inspect", file]).expect("the harness ran a moment ago"));
    assert_eq!(after.leaf_id.as_deref(), Some(leaf.trim()));
    let resumed = &after.entries[before.entries.len()];
    assert_eq!(
        resumed.parent_id, before.leaf_id,
        "pi resumes below its leaf, the label entry"
    );

    let run = ysess(&dir, &path, &["log", "--format", "{id}"]);
    run.status(0);
    let mut log: Vec<&str> = run.stdout.lines().collect();
    log.reverse();
    assert_eq!(
        log,
        after.branch_without_labels(),
        "log against pi's getBranch() after pi resumed\n{run}"
    );
    ysess(&dir, &path, &["fsck"]).status(0);
}

// ---------------------------------------------------------------------------
// pi reads what ysess wrote
// ---------------------------------------------------------------------------

pub fn pi_inspect(path: &Path) -> Inspect {
    let file = path.to_str().expect("UTF-8 path");
    parse_inspect(&node_harness(&["inspect", file]).expect("the harness ran a moment ago"))
}

#[test]
fn pi_reads_the_label_ysess_tag_wrote_and_stays_where_it_was() {
    let Some((dir, sessions)) = pi_sessions(1..=5) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let path_before = pi.branch_without_labels();
        let target = path_before[path_before.len() / 2];
        ysess(&dir, path, &["tag", "from-ysess", target]).status(0);
        let after = pi_inspect(path);
        let mut want = pi.labels.clone();
        want.insert(target.to_string(), "from-ysess".to_string());
        assert_eq!(
            after.labels, want,
            "seed {seed}: pi's getLabel() after ysess tag"
        );
        assert_eq!(
            after.branch_without_labels(),
            path_before,
            "seed {seed}: tag moved pi's leaf"
        );
        let new: Vec<&PiEntry> = after.entries[pi.entries.len()..].iter().collect();
        assert_eq!(new.len(), 1, "seed {seed}: one entry appended: {new:?}");
        assert_eq!(new[0].kind, "label", "seed {seed}");
        assert_eq!(
            new[0].parent_id, pi.leaf_id,
            "seed {seed}: hung from pi's leaf, as pi's appendLabelChange does"
        );

        ysess(&dir, path, &["tag", "-d", "from-ysess"]).status(0);
        assert_eq!(
            pi_inspect(path).labels,
            pi.labels,
            "seed {seed}: pi's labels after ysess tag -d"
        );
        ysess(&dir, path, &["fsck"]).status(0);
    }
}

#[test]
fn pi_resumes_where_ysess_checkout_left_it_and_keeps_appending() {
    let Some((dir, sessions)) = pi_sessions(1..=5) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        // a message on another branch than pi's
        let target = pi
            .entries
            .iter()
            .find(|e| e.kind == "message" && !pi.branch.contains(&e.id))
            .unwrap_or_else(|| panic!("seed {seed}: no entry off pi's branch"))
            .id
            .clone();
        ysess(&dir, path, &["checkout", &target]).status(0);
        let after = pi_inspect(path);
        let new = &after.entries[pi.entries.len()..];
        assert_eq!(new.len(), 1, "seed {seed}: one entry appended: {new:?}");
        assert_eq!(
            new[0].kind, "custom",
            "seed {seed}: checkout is a custom entry, out of the model's context"
        );
        assert_eq!(
            new[0].parent_id.as_deref(),
            Some(target.as_str()),
            "seed {seed}"
        );
        let record = new[0].id.clone();
        let target_path = after.branch_without_labels();
        assert_eq!(
            target_path.last(),
            Some(&record.as_str()),
            "seed {seed}: pi resumes below the checkout"
        );
        assert_eq!(target_path[target_path.len() - 2], target, "seed {seed}");

        let file = path.to_str().expect("UTF-8 path");
        node_harness(&["append", file, "carry on from here"])
            .expect("the harness ran a moment ago");
        let resumed = pi_inspect(path);
        let run = ysess(&dir, path, &["log", "--format", "{id}"]);
        run.status(0);
        let mut log: Vec<&str> = run.stdout.lines().collect();
        log.reverse();
        let want: Vec<&str> = resumed
            .branch_without_labels()
            .into_iter()
            .filter(|id| *id != record)
            .collect();
        assert_eq!(
            log, want,
            "seed {seed}: log after pi resumed at {target}, ysess's record folded out\n{run}"
        );
        assert_eq!(
            want[want.len() - 3],
            target,
            "seed {seed}: pi appended below {target}"
        );
        ysess(&dir, path, &["fsck"]).status(0);
    }
}

#[test]
fn pi_keeps_its_place_after_ysess_branch_and_resumes_on_the_branch_after_checkout() {
    let Some((dir, sessions)) = pi_sessions(6..=10) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        let messages = |view: &Inspect| -> Vec<String> {
            let ids: Vec<&str> = view.branch_without_labels();
            view.entries
                .iter()
                .filter(|e| e.kind == "message" && ids.contains(&e.id.as_str()))
                .map(|e| e.id.clone())
                .collect()
        };
        let base = pi
            .entries
            .iter()
            .filter(|e| e.kind == "message")
            .nth(1)
            .unwrap_or_else(|| panic!("seed {seed}: two messages"))
            .id
            .clone();
        ysess(&dir, path, &["branch", "lib", &base]).status(0);
        let after = pi_inspect(path);
        assert_eq!(
            messages(&after),
            messages(pi),
            "seed {seed}: branch moved what pi resumes with"
        );
        assert_eq!(after.context, pi.context, "seed {seed}");
        ysess(&dir, path, &["checkout", "lib"]).status(0);
        let on_branch = pi_inspect(path);
        assert_eq!(
            messages(&on_branch).last(),
            Some(&base),
            "seed {seed}: pi resumes at the branch's base"
        );
        let run = ysess(&dir, path, &["branch"]);
        assert!(run.stdout.contains("* lib"), "seed {seed}: {run}");
        ysess(&dir, path, &["fsck"]).status(0);
    }
}

#[test]
fn branch_tips_are_pi_s_leaves_with_label_entries_folded_out() {
    let Some((dir, sessions)) = pi_sessions(1..=30) else {
        return;
    };
    for PiSession { seed, path, pi } in &sessions {
        // pi's tree with its label entries folded out: each entry hangs
        // from the nearest ancestor that is not a label entry.
        let kind: BTreeMap<&str, &str> = pi
            .entries
            .iter()
            .map(|e| (e.id.as_str(), e.kind.as_str()))
            .collect();
        let parent: BTreeMap<&str, Option<&str>> = pi
            .entries
            .iter()
            .map(|e| (e.id.as_str(), e.parent_id.as_deref()))
            .collect();
        let folded = |id: &str| {
            let mut up = parent.get(id).copied().flatten();
            while let Some(p) = up.filter(|p| kind.get(p) == Some(&"label")) {
                up = parent.get(p).copied().flatten();
            }
            up
        };
        let entries: Vec<&str> = pi
            .entries
            .iter()
            .filter(|e| e.kind != "label")
            .map(|e| e.id.as_str())
            .collect();
        let parents: std::collections::BTreeSet<&str> =
            entries.iter().filter_map(|id| folded(id)).collect();
        let mut want: Vec<&str> = entries
            .iter()
            .copied()
            .filter(|id| !parents.contains(id))
            .collect();
        want.sort_unstable();
        let run = ysess(&dir, path, &["branch", "--json"]);
        run.status(0);
        let lines = run.json_lines();
        let mut tips: Vec<&str> = lines
            .iter()
            .map(|b| b["tip"].as_str().unwrap_or_default())
            .collect();
        tips.sort_unstable();
        assert_eq!(tips, want, "seed {seed}: tips\n{run}");
        // Every tip pi itself reports that is not a label entry is one.
        for tip in pi
            .tips
            .iter()
            .filter(|t| kind.get(t.as_str()) != Some(&"label"))
        {
            assert!(want.contains(&tip.as_str()), "seed {seed}: pi's leaf {tip}");
        }
    }
}

// ---------------------------------------------------------------------------
// Files of pi's earlier versions, which pi migrates when it opens them
// ---------------------------------------------------------------------------

/// `id parent` of every entry, in file order, as `log --format` prints them.
fn ids_and_parents(dir: &Dir, file: &Path) -> Vec<(String, Option<String>)> {
    let run = ysess(
        dir,
        file,
        &["log", "--all", "--reverse", "--format", "{id} {parent}"],
    );
    run.status(0);
    run.stdout
        .lines()
        .map(|l| {
            let (id, parent) = l.split_once(' ').expect("two fields");
            (
                id.to_string(),
                Some(parent.to_string()).filter(|p| !p.is_empty()),
            )
        })
        .collect()
}

#[test]
fn a_pi_version_1_file_reads_as_the_chain_pi_migrates_it_to() {
    let dir = Dir::new();
    let file = dir.fixture("pi/v1.jsonl", "v1.jsonl");
    let run = ysess(&dir, &file, &["fsck", "-v"]);
    run.status(0);
    assert!(
        run.stdout.ends_with(
            "v1.jsonl: ok; pi session, 7 entries, 1 root, 1 branch tip, 0 labels, HEAD line8 at depth 7\n"
        ),
        "{run}"
    );
    let ours = ids_and_parents(&dir, &file);
    ysess(&dir, &file, &["show", "line4"]).status(0);

    // pi numbers the entries when it opens the file (and rewrites it): the
    // same entries, in the same order, each the child of the one before,
    // the compaction keeping from the same entry.
    let before = std::fs::read_to_string(&file).expect("fixture reads");
    let Some(out) = node_harness(&["inspect", file.to_str().expect("UTF-8 path")]) else {
        return;
    };
    let pi = parse_inspect(&out);
    assert_eq!(pi.entries.len(), ours.len(), "{:?}\n{ours:?}", pi.entries);
    let by_pi: BTreeMap<&str, &str> = pi
        .entries
        .iter()
        .zip(&ours)
        .map(|(p, (id, _))| (p.id.as_str(), id.as_str()))
        .collect();
    for (p, (id, parent)) in pi.entries.iter().zip(&ours) {
        let pi_parent = p.parent_id.as_deref().map(|q| by_pi[q]);
        assert_eq!(pi_parent, parent.as_deref(), "parent of {id}");
        if let Some(kept) = &p.first_kept_entry_id {
            assert_eq!(by_pi[kept.as_str()], "line4", "compaction of {id}");
        }
    }
    assert_eq!(pi.leaf_id.as_deref().map(|l| by_pi[l]), Some("line8"));
    assert_ne!(
        std::fs::read_to_string(&file).expect("file reads"),
        before,
        "pi rewrites a version-1 file when it opens it"
    );
}

#[test]
fn writes_to_a_pi_version_1_file_refuse_and_leave_it_as_it_was() {
    let dir = Dir::new();
    let file = dir.fixture("pi/v1.jsonl", "v1.jsonl");
    let before = dir.read("v1.jsonl");
    for args in [
        &["tag", "sticky", "line4"][..],
        &["checkout", "line3"],
        &["branch", "retry", "line3"],
    ] {
        let run = ysess(&dir, &file, args);
        run.status(128);
        assert!(
            run.stderr.contains("a pi version-1 session")
                && run.stderr.contains("nothing was written")
                && run.stderr.contains("hint: open the session in pi once"),
            "{run}"
        );
        assert_eq!(dir.read("v1.jsonl"), before, "{run}");
    }
}

#[test]
fn an_entry_without_an_id_in_a_version_3_file_is_still_invalid() {
    let dir = Dir::new();
    let mut text = std::fs::read_to_string(fixture("pi/v2.jsonl")).expect("fixture reads");
    text = text.replacen("\"version\":2", "\"version\":3", 1);
    text.push_str("{\"type\":\"message\",\"timestamp\":\"2025-09-14T14:01:00.000Z\",\"message\":{\"role\":\"user\",\"content\":\"lost\"}}\n");
    let file = dir.write("v3.jsonl", text);
    let run = ysess(&dir, &file, &["fsck"]);
    run.status(1);
    assert!(
        run.stderr
            .contains("v3.jsonl:5: invalidEntry: an entry without a string `id`"),
        "{run}"
    );
}

#[test]
fn a_pi_version_2_hook_message_reads_as_the_custom_message_pi_3_makes_it() {
    let dir = Dir::new();
    let file = dir.fixture("pi/v2.jsonl", "v2.jsonl");
    ysess(&dir, &file, &["fsck"]).status(0);
    ysess(
        &dir,
        &file,
        &["log", "--format", "{id} {role} {tag}", "-n", "2"],
    )
    .status(0)
    .stdout("c3d4e5f6 assistant claude-sonnet-4-5\nb2c3d4e5 custom custom\n");

    // ysess writes a version-2 file as pi 3 would: pi keeps its ids when it
    // migrates it, so the label stays on its entry.
    ysess(&dir, &file, &["tag", "dark", "a1b2c3d4"]).status(0);
    let Some(out) = node_harness(&["inspect", file.to_str().expect("UTF-8 path")]) else {
        return;
    };
    let pi = parse_inspect(&out);
    assert_eq!(
        pi.labels,
        BTreeMap::from([("a1b2c3d4".to_string(), "dark".to_string())])
    );
    assert_eq!(pi.header["version"], 3, "pi migrated the file");
    ysess(&dir, &file, &["fsck"]).status(0);
    ysess(&dir, &file, &["tag"])
        .status(0)
        .stdout("dark  a1b2c3d4\n");
}
