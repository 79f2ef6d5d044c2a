//! The session generator the tests and the benches share (included by
//! `tests/cli/gen.rs` and `benches/support.rs` with `#[path]`): one seeded
//! [`Rng`], one set of message builders and one way to save a session with
//! fake times ([`jsonl_at`]), and from them the benches' large realistic
//! session ([`generate_jsonl`]). The tests' own sessions (`tests/cli/gen.rs`:
//! the demo, random sessions, hostile text) are built from the same pieces.

use serde_json::Value;
use yoagent::{AgentMessage, Content, CustomMessage, Message, Session, StopReason, Usage};

mod big;

pub use big::{DEFAULT_SEED, generate_jsonl};

/// Bumped whenever [`generate_jsonl`]'s output for a given `(entries, seed)`
/// changes, so that a bench file cached from an older generator is not reused.
#[allow(dead_code, reason = "the tests cache no bench files")]
pub const GEN_VERSION: u32 = 1;

/// xorshift64* seeded through splitmix64: tiny, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Rng(if z == 0 { 0x2545_F491_4F6C_DD1D } else { z })
    }

    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn word(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }

    /// Roughly log-uniform in `lo..=hi` (`lo >= 1`): small values common,
    /// large ones present. A power of two is picked uniformly, then a value
    /// within it (integers only, so every platform gives the same numbers).
    pub fn log_range(&mut self, lo: usize, hi: usize) -> usize {
        let (lo_bits, hi_bits) = (lo.ilog2() as usize, hi.ilog2() as usize);
        let b = self.range(lo_bits, hi_bits);
        self.range(1 << b, (2 << b) - 1).clamp(lo, hi)
    }

    pub fn alnum(&mut self, out: &mut String, n: usize) {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        for _ in 0..n {
            out.push(A[self.below(A.len())] as char);
        }
    }

    pub fn base64(&mut self, out: &mut String, n: usize) {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for _ in 0..n {
            out.push(A[self.below(A.len())] as char);
        }
        while !out.len().is_multiple_of(4) {
            out.push('=');
        }
    }
}

/// A user turn made at `ts` (ms): its text, then a PNG if `image` (base64)
/// is given.
pub fn user_at(text: impl Into<String>, image: Option<String>, ts: u64) -> Message {
    let mut content = vec![Content::Text { text: text.into() }];
    if let Some(data) = image {
        content.push(Content::Image {
            data,
            mime_type: "image/png".into(),
        });
    }
    Message::User {
        content,
        timestamp: ts,
    }
}

/// An assistant message made at `ts` (ms).
pub fn assistant_at(
    content: Vec<Content>,
    stop: StopReason,
    model: &str,
    provider: &str,
    usage: Usage,
    ts: u64,
) -> Message {
    Message::assistant(content, stop, model, provider, usage).with_timestamp(ts)
}

/// A tool's answer to the call `call`, made at `ts` (ms).
pub fn tool_result_at(
    call: &str,
    tool: &str,
    text: impl Into<String>,
    is_error: bool,
    ts: u64,
) -> Message {
    Message::ToolResult {
        tool_call_id: call.into(),
        tool_name: tool.into(),
        content: vec![Content::Text { text: text.into() }],
        is_error,
        timestamp: ts,
    }
}

/// An app's own record (yoagent's role `extension`).
pub fn custom(kind: &str, data: Value) -> AgentMessage {
    AgentMessage::Custom(CustomMessage::new(kind, data))
}

/// What `std::fs::write(path, session.to_jsonl())` saves, except that the
/// entry on line `i` (0-based) has the time `time(i)` instead of the real
/// clock's, so that the file is the same on every run.
pub fn jsonl_at(session: &Session, time: impl Fn(usize) -> u64) -> String {
    let mut out = String::new();
    for (i, entry) in session.entries().iter().enumerate() {
        let mut entry = entry.clone();
        entry.timestamp = time(i);
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&serde_json::to_string(&entry).expect("entries serialize"));
    }
    out
}
