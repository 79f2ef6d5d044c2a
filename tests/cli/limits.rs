//! Input that never ends, or whose lines never do: ysess stops at its line
//! limit (`YSESS_MAX_LINE`, 1 GiB by default) and names the line.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Dir, user_line};

/// Runs ysess with `YSESS_MAX_LINE=limit`, killing it after `secs` seconds;
/// returns its exit code and stderr, or `None` if it had to be killed.
fn run_limited(dir: &Dir, limit: &str, args: &[&str], secs: u64) -> Option<(i32, String)> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ysess"))
        .args(args)
        .current_dir(dir.path())
        .env("YSESS_MAX_LINE", limit)
        .env_remove("YSESS_FILE")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ysess starts");
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            let mut err = String::new();
            std::io::Read::read_to_string(&mut child.stderr.take().expect("piped"), &mut err)
                .expect("stderr reads");
            return Some((status.code().unwrap_or(-1), err));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn fsck_of_dev_zero_stops_at_the_line_limit_instead_of_growing_without_end() {
    let dir = Dir::new();
    let (code, err) =
        run_limited(&dir, "16M", &["fsck", "/dev/zero"], 60).expect("fsck /dev/zero ends");
    assert_eq!(code, 128, "{err}");
    assert_eq!(
        err,
        "error: /dev/zero:1: unreadable: cannot read: line 1 (from byte 0) is longer than 16 MiB, \
         the longest line ysess reads (YSESS_MAX_LINE sets it)\n"
    );
}

#[test]
fn a_line_longer_than_the_limit_is_an_error_naming_the_line() {
    let dir = Dir::new();
    let mut text = [
        user_line("e1", None, "a"),
        String::new(),
        user_line("e2", Some("e1"), "b"),
    ]
    .join("\n");
    text.push('\n');
    let offset = text.len();
    text.push_str(&user_line("e3", Some("e2"), &"x".repeat(300_000)));
    text.push('\n');
    text.push_str(&user_line("e4", Some("e3"), "c"));
    dir.write("session.jsonl", &text);

    let run = dir.run_with(&["fsck", "--json"], None, &[("YSESS_MAX_LINE", "256K")]);
    run.status(128);
    let finding = &run.json_lines()[0];
    assert_eq!(finding["code"], "unreadable", "{run}");
    assert_eq!(finding["line"], 4, "{run}");
    assert_eq!(finding["offset"], offset, "{run}");

    for args in [
        &["log"][..],
        &["log", "-n", "2"],
        &["show", "e2"],
        &["append", "--user", "d"],
    ] {
        let run = dir.run_with(args, None, &[("YSESS_MAX_LINE", "256K")]);
        run.status(128);
        assert!(run.stderr.contains("line 4 (from byte"), "{run}");
    }
    let run = dir.run_with(
        &["-f", "-", "log"],
        Some(text.as_bytes()),
        &[("YSESS_MAX_LINE", "256K")],
    );
    run.status(128);
    assert!(run.stderr.contains("line 4 (from byte"), "{run}");
    // Under the limit, the same file is sound.
    dir.run_with(&["fsck"], None, &[("YSESS_MAX_LINE", "1M")])
        .status(0);
    dir.run(&["fsck"]).status(0);

    // The tail reader of `log -n` stops at the limit too.
    let mut last = text.clone();
    last.push('\n');
    last.push_str(&user_line("e5", Some("e4"), &"y".repeat(600_000)));
    dir.write("last.jsonl", &last);
    let run = dir.run_with(
        &["-f", "last.jsonl", "log", "-n", "1"],
        None,
        &[("YSESS_MAX_LINE", "256K")],
    );
    run.status(128);
    assert!(run.stderr.contains("line 4 (from byte"), "{run}");

    let run = dir.run_with(&["fsck"], None, &[("YSESS_MAX_LINE", "lots")]);
    run.status(128);
    assert!(run.stderr.contains("YSESS_MAX_LINE is `lots`"), "{run}");
}
