//! `ysess append` racing an app that saves the whole session file (see
//! `tests/cli/race.rs`): 1,000 appends against each kind of save (the same
//! session saved again and again without a final newline among them), from two
//! writers at once, on a copy of the demo session. Prints the counts; exits
//! non-zero if the file was corrupted, an id was duplicated, or an append
//! was lost without a word where ysess could have seen it.
//!
//! `YSESS_RACE_APPENDS` changes the number of appends per saver,
//! `YSESS_RACE_ROUNDS` the number of runs of each (each on a fresh copy;
//! the totals of every round are printed last); `YSESS_RACE_EXE` runs
//! another ysess binary (an older build, to compare).

#[path = "../tests/cli/race.rs"]
mod race;

use std::path::Path;

fn main() {
    let appends = std::env::var("YSESS_RACE_APPENDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000);
    let exe = std::env::var_os("YSESS_RACE_EXE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_BIN_EXE_ysess")).to_path_buf());
    let rounds: usize = std::env::var("YSESS_RACE_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    let exe = exe.as_path();
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/demo.jsonl");
    let mut sound = true;
    let mut totals = Vec::new();
    for saver in [
        race::Saver::Write,
        race::Saver::Rename,
        race::Saver::Resave,
        race::Saver::Copy,
    ] {
        let (mut broken, mut glued, mut doubled, mut silent, mut loads) = (0, 0, 0, 0, 0);
        for _ in 0..rounds {
            let dir = tempfile::tempdir().expect("a temp dir");
            let started = std::time::Instant::now();
            let counts = race::race(exe, &demo, dir.path(), saver, appends, 2);
            println!(
                "{} ({:.1} s)",
                counts.line(saver),
                started.elapsed().as_secs_f64()
            );
            for what in counts.unexplained.iter().chain(&counts.refused_but_present) {
                println!("  {what}");
            }
            broken += counts.broken_lines;
            glued += counts.glued_lines;
            doubled += counts.duplicate_ids;
            silent += counts.unexplained.len() + counts.refused_but_present.len();
            loads += usize::from(counts.final_loads);
            sound &= counts.sound();
        }
        totals.push((saver, broken, glued, doubled, silent, loads));
    }
    println!(
        "\n| saver | runs × appends | broken lines | glued | duplicate ids | lost without a word or refused yet present | final file loads in yoagent |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (saver, broken, glued, doubled, silent, loads) in totals {
        println!(
            "| {saver:?} | {rounds} × {appends} | {broken} | {glued} | {doubled} | {silent} | {loads} of {rounds} |"
        );
    }
    if !sound {
        std::process::exit(1);
    }
}
