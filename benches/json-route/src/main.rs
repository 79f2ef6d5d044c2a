use std::borrow::Cow;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde::de::IgnoredAny;

#[derive(Deserialize)]
#[allow(dead_code)]
struct Entry<'a> {
    #[serde(borrow)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, rename = "parentId")]
    parent_id: Option<Cow<'a, str>>,
    timestamp: Option<u64>,
    message: Option<IgnoredAny>,
}

fn best(runs: usize, lines: &[&[u8]], f: &mut dyn FnMut(&[u8]) -> bool) -> (Duration, usize) {
    let mut best = Duration::MAX;
    let mut ok = 0;
    for _ in 0..runs {
        let t = Instant::now();
        ok = lines.iter().filter(|l| f(l)).count();
        best = best.min(t.elapsed());
    }
    (best, ok)
}

fn main() {
    let path = std::env::args().nth(1).expect("usage: json-route FILE");
    let data = std::fs::read(&path).expect("read");
    let lines: Vec<&[u8]> = data
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mb = data.len() as f64 / 1e6;
    let runs = 3;
    let mut scratch = Vec::new();
    let mut row = |name: &str, f: &mut dyn FnMut(&[u8]) -> bool| {
        let (t, ok) = best(runs, &lines, f);
        println!(
            "{name:<46} {:>8.1} ms {:>7.0} MB/s  ({ok} lines accepted)",
            t.as_secs_f64() * 1e3,
            mb / t.as_secs_f64()
        );
    };
    println!(
        "{} lines, {mb:.1} MB, one thread, best of {runs}",
        lines.len()
    );
    row("ysess yoagent::check_line (facts)", &mut |l| {
        matches!(
            ysess::format::yoagent::check_line(l, false),
            ysess::format::Checked::Entry { .. }
        )
    });
    row("serde_json IgnoredAny (validate only)", &mut |l| {
        serde_json::from_slice::<IgnoredAny>(l).is_ok()
    });
    row("serde_json Entry (id, parent, skip rest)", &mut |l| {
        serde_json::from_slice::<Entry<'_>>(l).is_ok()
    });
    row("sonic-rs IgnoredAny (validate only)", &mut |l| {
        sonic_rs::from_slice::<IgnoredAny>(l).is_ok()
    });
    row("sonic-rs Entry (id, parent, skip rest)", &mut |l| {
        sonic_rs::from_slice::<Entry<'_>>(l).is_ok()
    });
    row("simd-json tape (validate only, copy)", &mut |l| {
        scratch.clear();
        scratch.extend_from_slice(l);
        simd_json::to_tape(&mut scratch).is_ok()
    });
    println!(
        "simd-json implementation: {}",
        simd_json::Deserializer::algorithm()
    );
}
