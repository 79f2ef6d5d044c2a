//! A session with a secret of every kind in every place (`leaky`), and
//! what must not survive its export with `--redact` (`planted`): shared by
//! the redaction tests and the browser's check of the page.

use serde_json::json;

use crate::support::Dir;

/// The machine the tests pretend to run on.
pub const ENV: &[(&str, &str)] = &[("HOME", "/home/dana"), ("USER", "dana")];

pub const AWS: &str = "AKIAIOSFODNN7EXAMPLE";
pub const GCP: &str = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW";
pub const GITHUB: &str = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
pub const GITLAB: &str = "glpat-0123456789abcdefghij";
pub const OPENAI: &str = "sk-abcdefghij0123456789T3BlbkFJabcdefghij0123456789";
pub const SLACK: &str = "xoxb-1234567890-1234567890-abcdefABCDEF";
pub const JWT: &str = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
pub const PASSWORD: &str = "q8Zr2Lx9Tv4W";
pub const EMAIL: &str = "dana.b@example.org";
pub const KEY_BODY: &str = "MIIEowIBAAKCAQEAxyz";

pub fn anthropic() -> String {
    format!("sk-ant-api03-{}xAA", "a1B2".repeat(23))
}

fn private_key() -> String {
    format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        KEY_BODY.repeat(4)
    )
}

/// What must not survive, and its kind.
pub fn planted() -> Vec<(String, &'static str)> {
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

/// One line of a yoagent session: entry `id` under `parent`.
pub fn line(id: &str, parent: Option<&str>, message: serde_json::Value) -> String {
    json!({"id": id, "parent_id": parent, "message": message, "timestamp": 1_760_000_000_000u64})
        .to_string()
}

/// A yoagent session, named after its user, with a secret in the user's
/// text, the thinking, the reply, a tool call's arguments, a tool's output
/// and a label.
pub fn leaky() -> Dir {
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
pub fn none_survives(what: &str, out: &str) {
    for (secret, kind) in planted() {
        assert!(
            !out.contains(&secret),
            "{kind} {secret:?} survives {what}:\n{out}"
        );
    }
    assert!(!out.contains("PRIVATE KEY"), "a key block survives {what}");
}
