//! `export --redact` and `grep --secrets`: a session with a secret of every
//! kind in every place, exported for sharing, keeps none of them.

use serde_json::json;

use crate::support::{Dir, demo};

/// The machine the tests pretend to run on.
pub(crate) const ENV: &[(&str, &str)] = &[("HOME", "/home/dana"), ("USER", "dana")];

pub(crate) const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
pub(crate) const GCP: &str = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW";
pub(crate) const GITHUB: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
pub(crate) const GITLAB: &str = "glpat-0123456789abcdefghij";
pub(crate) const OPENAI: &str = "sk-abcdefghij0123456789T3BlbkFJabcdefghij0123456789";
pub(crate) const SLACK: &str = "xoxb-1234567890-1234567890-abcdefABCDEF";
pub(crate) const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
pub(crate) const PASSWORD: &str = "q8Zr2Lx9Tv4W";
pub(crate) const EMAIL: &str = "dana.b@example.org";
pub(crate) const KEY_BODY: &str = "MIIEowIBAAKCAQEAxyz";

pub(crate) fn anthropic() -> String {
    format!("sk-ant-api03-{}xAA", "a1B2".repeat(23))
}

fn private_key() -> String {
    format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        KEY_BODY.repeat(4)
    )
}

/// What must not survive, and its kind (the Parquet tests plant them
/// too).
pub(crate) fn planted() -> Vec<(String, &'static str)> {
    vec![
        (AWS.into(), "aws-access-key"),
        (GCP.into(), "gcp-api-key"),
        (GITHUB.into(), "github-token"),
        (GITLAB.into(), "gitlab-token"),
        (OPENAI.into(), "openai-key"),
        (anthropic(), "anthropic-key"),
        (SLACK.into(), "slack-token"),
        (JWT.into(), "jwt"),
        (KEY_BODY.into(), "private-key"),
        (PASSWORD.into(), "secret-assignment"),
        (EMAIL.into(), "email"),
        ("/home/dana".into(), "home"),
        ("dana".into(), "user"),
        ("ACME-7731".into(), "pattern"),
    ]
}

fn line(id: &str, parent: Option<&str>, message: serde_json::Value) -> String {
    json!({"id": id, "parent_id": parent, "message": message, "timestamp": 1_760_000_000_000u64})
        .to_string()
}

/// A yoagent session, named after its user, with a secret in the user's
/// text, the thinking, the reply, a tool call's arguments, a tool's output
/// and a label.
fn leaky() -> Dir {
    let dir = Dir::new();
    let env_file = format!(
        "GITHUB_TOKEN={GITHUB}\nSLACK_BOT={SLACK}\nDB_PASSWORD={PASSWORD}\n{}\nGITLAB={GITLAB}\n",
        private_key()
    );
    let lines = [
        line(
            "e1",
            None,
            json!({"role": "user", "content": [{"type": "text",
            "text": format!("Deploy with {AWS}; mail {EMAIL}, files in /home/dana/work, ticket ACME-7731")}],
            "timestamp": 1}),
        ),
        line(
            "e2",
            Some("e1"),
            json!({"role": "assistant", "content": [
            {"type": "thinking", "thinking": format!("The token {JWT} is in the header")},
            {"type": "text", "text": format!("I'll use {OPENAI} for now, dana.")},
            {"type": "toolCall", "id": "call_1", "name": "bash",
             "arguments": {"command": "cat /home/dana/work/.env", "key": GCP}}],
            "stopReason": "toolUse", "model": "m", "provider": "p",
            "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
            "timestamp": 2}),
        ),
        line(
            "e3",
            Some("e2"),
            json!({"role": "toolResult", "toolCallId": "call_1",
            "toolName": "bash", "content": [{"type": "text", "text": env_file}],
            "isError": false, "timestamp": 3}),
        ),
        line(
            "e4",
            Some("e3"),
            json!({"role": "assistant", "content": [{"type": "text",
            "text": format!("Anthropic's is {} too.", anthropic())}],
            "stopReason": "stop", "model": "m", "provider": "p",
            "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
            "timestamp": 4}),
        ),
    ];
    dir.write("dana.jsonl", lines.join("\n") + "\n");
    dir
}

#[track_caller]
fn none_survives(what: &str, out: &str) {
    for (secret, kind) in planted() {
        assert!(
            !out.contains(&secret),
            "{kind} {secret:?} survives {what}:\n{out}"
        );
    }
    assert!(!out.contains("PRIVATE KEY"), "a key block survives {what}");
}

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
