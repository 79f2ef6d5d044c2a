//! `export --redact` and `grep --secrets`: a session with a secret of every
//! kind in every place, exported for sharing, keeps none of them.

use crate::planted::{EMAIL, ENV, GITHUB, leaky, none_survives, planted};
use crate::support::{Dir, demo};

#[test]
fn no_planted_secret_survives_any_export() {
    let dir = leaky();
    let forms: [&[&str]; 4] = [&["--markdown"], &["--html"], &[], &["--session"]];
    for form in forms {
        let mut args = vec!["-f", "dana.jsonl", "export", "--redact"];
        args.extend(form);
        args.extend(["--redact-pattern", "ACME-[0-9]+"]);
        let run = dir.run_with(&args, None, ENV);
        run.status(0);
        none_survives(&args.join(" "), &run.stdout);
        for (_, kind) in planted() {
            assert!(
                run.stdout.contains(&format!("[redacted: {kind}]")),
                "no {kind} in {args:?}\n{run}"
            );
        }
        if form.is_empty() || form == ["--session"] {
            // Still JSON that loads.
            for l in run.stdout.lines() {
                serde_json::from_str::<serde_json::Value>(l).expect("JSON");
            }
        }
    }
}

#[test]
fn stderr_counts_what_each_kind_took() {
    let dir = leaky();
    let args = ["-f", "dana.jsonl", "export", "--markdown", "--redact"];
    let run = dir.run_with(&args, None, ENV);
    run.status(0).stderr(
        "redacted: 1 private-key, 1 aws-access-key, 1 gcp-api-key, 1 github-token, \
         1 gitlab-token, 1 openai-key, 1 anthropic-key, 1 slack-token, 1 jwt, \
         1 secret-assignment, 1 email, 2 home, 2 user\n",
    );
    let quiet = dir.run_with(&["-q", "-f", "dana.jsonl", "export", "--redact"], None, ENV);
    quiet.status(0).stderr("");
}

#[test]
fn a_session_without_secrets_exports_the_same_redacted() {
    let dir = demo();
    let env = &[("HOME", "/home/nobody-here"), ("USER", "nobody-here")];
    for form in [&["--markdown"][..], &["--html"], &[], &["--session"]] {
        let mut plain = vec!["export"];
        plain.extend(form);
        let mut redacted = plain.clone();
        redacted.push("--redact");
        let before = dir.run_with(&plain, None, env);
        let after = dir.run_with(&redacted, None, env);
        assert_eq!(before.stdout, after.stdout, "{plain:?}");
        after.status(0).stderr("redacted: nothing\n");
    }
}

#[test]
fn a_claude_code_summary_and_working_directory_are_redacted() {
    let dir = Dir::new();
    let text = std::fs::read_to_string(crate::support::fixture("claude/session.jsonl"))
        .expect("fixture")
        .replace(
            "Add --json flag to ystats stats",
            &format!("Share {GITHUB} with {EMAIL}"),
        );
    dir.write("session.jsonl", text);
    for form in ["--markdown", "--html"] {
        let run = dir.run_with(&["export", form, "--redact"], None, ENV);
        run.status(0);
        none_survives(form, &run.stdout);
    }
}

#[test]
fn grep_secrets_of_a_long_session_lists_every_find_in_file_order() {
    // Searched a block of entries at a time on every core: written in the
    // file's order all the same.
    let dir = Dir::new();
    let lines: Vec<String> = (0..1000)
        .map(|n| {
            let parent = (n > 0).then(|| format!("e{}", n - 1));
            crate::planted::line(
                &format!("e{n}"),
                parent.as_deref(),
                serde_json::json!({"role": "user", "timestamp": n,
                    "content": [{"type": "text", "text": format!("mail user{n:04}@example.org")}]}),
            )
        })
        .collect();
    dir.write("long.jsonl", lines.join("\n") + "\n");
    let run = dir.run(&["-f", "long.jsonl", "grep", "--secrets"]);
    run.status(0);
    let ids: Vec<&str> = run
        .stdout
        .lines()
        .map(|l| l.split(' ').next().expect("an id"))
        .collect();
    let expected: Vec<String> = (0..1000).map(|n| format!("e{n}")).collect();
    assert_eq!(ids, expected, "{run}");
    assert!(run.stdout.lines().all(|l| l.contains(" email ")), "{run}");
}

#[test]
fn grep_secrets_lists_each_kind_masked() {
    let dir = leaky();
    let run = dir.run_with(
        &[
            "-f",
            "dana.jsonl",
            "grep",
            "--secrets",
            "--redact-pattern",
            "ACME-[0-9]+",
        ],
        None,
        ENV,
    );
    run.status(0);
    // No secret shows whole (a mask keeps an address's first letters,
    // which may spell the user's name).
    for (secret, kind) in planted() {
        assert!(
            kind == "user" || !run.stdout.contains(&secret),
            "{kind}\n{run}"
        );
    }
    for (_, kind) in planted() {
        assert!(
            run.stdout
                .lines()
                .any(|l| l.split(' ').nth(1) == Some(kind)),
            "no {kind}\n{run}"
        );
    }
    assert!(
        run.stdout
            .starts_with("e1 pattern AC******1\ne1 aws-access-key AKIA************LE\n"),
        "{run}"
    );
    // Only the path to e1.
    let e1 = dir.run_with(&["-f", "dana.jsonl", "grep", "--secrets", "e1"], None, ENV);
    assert!(
        e1.status(0).stdout.lines().all(|l| l.starts_with("e1 ")),
        "{e1}"
    );
}

#[test]
fn grep_secrets_finds_nothing_in_the_demo() {
    let env = &[("HOME", "/home/nobody-here"), ("USER", "nobody-here")];
    demo()
        .run_with(&["grep", "--secrets"], None, env)
        .status(1)
        .stdout("");
}

#[test]
fn a_bad_redact_pattern_is_a_usage_error() {
    let run = demo().run(&["export", "--redact", "--redact-pattern", "("]);
    run.status(2);
    assert!(
        run.stderr
            .starts_with("error: a --redact-pattern does not parse"),
        "{run}"
    );
    // With --parquet too, before the folder is made.
    let dir = demo();
    let run = dir.run(&[
        "export",
        "--parquet",
        "out",
        "--redact",
        "--redact-pattern",
        "(",
    ]);
    run.status(2);
    assert!(!dir.join("out").exists(), "{run}");
}

/// What `grep --secrets` lists, kind by kind, and what `export --redact`
/// says it took (`redacted: 1 github-token, 1 home` on stderr).
fn kinds_listed(grep: &str) -> Vec<(String, usize)> {
    let mut out: Vec<(String, usize)> = Vec::new();
    for kind in grep.lines().filter_map(|l| l.split(' ').nth(1)) {
        match out.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => out.push((kind.to_string(), 1)),
        }
    }
    out.sort();
    out
}

fn kinds_taken(stderr: &str) -> Vec<(String, usize)> {
    let list = stderr.trim().strip_prefix("redacted: ").unwrap_or("");
    let mut out: Vec<(String, usize)> = list
        .split(", ")
        .filter_map(|part| {
            let (n, kind) = part.split_once(' ')?;
            Some((kind.to_string(), n.parse().ok()?))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn secrets_in_json_object_keys_were_neither_listed_nor_redacted() {
    // A tool call's arguments whose keys are a token and paths in the
    // home: `grep --secrets` searched only values, and the Markdown and
    // HTML pages showed the keys as written.
    let dir = Dir::new();
    let arguments = serde_json::json!({
        GITHUB: {"scope": "repo"},
        "files": {"/home/dana/work/.env": "r", "/home/dana/notes.txt": "r"},
    });
    let lines = [
        crate::planted::line(
            "e1",
            None,
            serde_json::json!({"role": "user", "content": [{"type": "text", "text": "Read them."}],
            "timestamp": 1}),
        ),
        crate::planted::line(
            "e2",
            Some("e1"),
            serde_json::json!({"role": "assistant", "content": [
            {"type": "toolCall", "id": "call_1", "name": "read", "arguments": arguments}],
            "stopReason": "toolUse", "model": "m", "provider": "p",
            "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
            "timestamp": 2}),
        ),
    ];
    dir.write("keys.jsonl", lines.join("\n") + "\n");
    let grep = dir.run_with(&["-f", "keys.jsonl", "grep", "--secrets"], None, ENV);
    grep.status(0);
    let listed = kinds_listed(&grep.stdout);
    assert_eq!(
        listed,
        [("github-token".to_string(), 1), ("home".to_string(), 2)],
        "{grep}"
    );
    for form in [&["--markdown"][..], &["--html"], &[], &["--session"]] {
        let mut args = vec!["-f", "keys.jsonl", "export", "--redact"];
        args.extend(form);
        let run = dir.run_with(&args, None, ENV);
        run.status(0);
        for secret in [GITHUB, "/home/dana"] {
            assert!(!run.stdout.contains(secret), "{secret} in {args:?}\n{run}");
        }
        for kept in ["[redacted: home]/work/.env", "[redacted: home]/notes.txt"] {
            assert!(run.stdout.contains(kept), "no {kept} in {args:?}\n{run}");
        }
        // What grep --secrets lists is what --redact takes, key for key
        // (the page counts again what its outline shows a second time).
        if form != ["--html"] {
            assert_eq!(kinds_taken(&run.stderr), listed, "{args:?}\n{run}");
        }
    }
}
