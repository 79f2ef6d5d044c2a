//! The generated home of the `home` and `parquet` benches: 2,000 Claude
//! Code sessions (about 1.5 GB) in `target/bench/home-<sessions>-<mb>/`,
//! made once (with a `.meta` marker) and reused. The sessions lie in 20
//! project folders, each the shapes of `tests/fixtures/claude/today.jsonl`
//! with ids of its own, its days spread over four weeks.

use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::claude_gen;
use crate::support::ms;

pub fn make_home(sessions: usize, megabytes: usize) -> std::io::Result<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("target/bench/home-{sessions}-{megabytes}"));
    let meta = dir.join(".meta");
    let marker = format!("gen=1 sessions={sessions} mb={megabytes}\n");
    if std::fs::read_to_string(&meta).is_ok_and(|m| m == marker) {
        println!("reusing {}", dir.display());
        return Ok(dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "generating {} ({sessions} sessions, {megabytes} MB) ...",
        dir.display()
    );
    let t = Instant::now();
    let each = ((megabytes as u64) << 20) / sessions.max(1) as u64;
    let mut block = 0;
    for k in 0..sessions {
        let project = dir.join(format!(
            ".claude/projects/-home-dana-src-project{:02}",
            k % 20
        ));
        std::fs::create_dir_all(&project)?;
        let day = format!("2026-11-{:02}", 1 + k % 28);
        let file = project.join(format!("{:08x}-0000-4000-8000-{:012x}.jsonl", k, k));
        block += claude_gen::generate(&file, each, block, Some(&day))?;
    }
    std::fs::write(&meta, marker)?;
    println!("generated in {}", ms(t.elapsed()));
    Ok(dir)
}
