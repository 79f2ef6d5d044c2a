//! The Claude Code sessions the benches make (`claude`, `home`).

use std::io::Write as _;
use std::path::Path;

/// A UUID-shaped id, different for each `(block, line)`.
fn uuid(block: usize, line: usize) -> String {
    let n = (block as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (line as u64) << 56;
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        (n >> 32) as u32,
        (n >> 16) as u16,
        line,
        block % 0xfff,
        block
    )
}

/// Writes a Claude Code session of about `bytes` at `path`: the shapes of
/// `tests/fixtures/claude/today.jsonl` again and again with fresh ids
/// (those of blocks `first_block` on, so that sessions made with different
/// ones share no id), its dates moved to `day` (`YYYY-MM-DD`) when given.
pub fn generate(
    path: &Path,
    bytes: u64,
    first_block: usize,
    day: Option<&str>,
) -> std::io::Result<usize> {
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/claude/today.jsonl"),
    )?;
    let lines: Vec<serde_json::Value> = fixture
        .lines()
        .map(|l| serde_json::from_str(l).expect("the fixture is JSON"))
        .collect();
    let fork = [
        "d9c8b7a6-0010-4000-8000-000000000010",
        "eac9b8a7-0011-4000-8000-000000000011",
    ];
    let head = "acebdac9-0013-4000-8000-000000000013";
    let pad = " and more words".repeat(60);
    let mut out = std::io::BufWriter::new(std::fs::File::create(path)?);
    let (mut written, mut block, mut last): (u64, usize, Option<String>) = (0, first_block, None);
    while written < bytes {
        let ids: std::collections::HashMap<String, String> = lines
            .iter()
            .enumerate()
            .filter_map(|(k, v)| Some((v["uuid"].as_str()?.to_string(), uuid(block, k))))
            .collect();
        for v in &lines {
            let mut v = v.clone();
            if v["uuid"].as_str().is_some_and(|u| fork.contains(&u)) && block % 1000 != 0 {
                continue;
            }
            if let Some(u) = v["uuid"].as_str() {
                v["uuid"] = ids[u].clone().into();
                let parent = match v["parentUuid"].as_str() {
                    Some(p) => ids.get(p).cloned(),
                    None => last.clone(),
                };
                v["parentUuid"] = parent.map_or(serde_json::Value::Null, Into::into);
            }
            if v["type"] == "assistant" {
                let id = format!("{}_{block}", v["message"]["id"].as_str().unwrap_or("msg"));
                v["message"]["id"] = id.into();
                for b in v["message"]["content"].as_array_mut().into_iter().flatten() {
                    if let Some(t) = b["text"].as_str() {
                        b["text"] = format!("{t}{pad}").into();
                    }
                }
            }
            let mut line = v.to_string();
            if let Some(day) = day {
                line = line.replace("2026-11-20T", &format!("{day}T"));
            }
            writeln!(out, "{line}")?;
            written += line.len() as u64 + 1;
        }
        last = Some(ids[head].clone());
        block += 1;
    }
    out.flush()?;
    Ok(block - first_block)
}
