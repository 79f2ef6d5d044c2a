//! Input that never ends, or whose lines never do: ysess stops at its line
//! limit (`YSESS_MAX_LINE`, 1 GiB by default) and names the line.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::{Dir, user_line};

/// Runs ysess with this environment and standard input (else none),
/// killing it after `secs` seconds; returns its exit code and stderr, or
/// `None` if it had to be killed (it hung, or read without end).
fn run_bounded(
    dir: &Dir,
    args: &[&str],
    env: &[(&str, &str)],
    stdin: Option<std::fs::File>,
    secs: u64,
) -> Option<(i32, String)> {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ysess"));
    cmd.args(args)
        .current_dir(dir.path())
        .env_remove("YSESS_FILE")
        .env_remove("YSESS_DIGEST")
        .env("TZ", "UTC")
        .stdin(stdin.map_or_else(Stdio::null, Stdio::from))
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("ysess starts");
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
fn fsck_of_dev_zero_on_standard_input_stops_at_the_line_limit_instead_of_growing_without_end() {
    let dir = Dir::new();
    let zero = std::fs::File::open("/dev/zero").expect("/dev/zero opens");
    let (code, err) = run_bounded(
        &dir,
        &["fsck", "-"],
        &[("YSESS_MAX_LINE", "16M")],
        Some(zero),
        60,
    )
    .expect("fsck - </dev/zero ends");
    assert_eq!(code, 128, "{err}");
    assert_eq!(
        err,
        "error: -:1: unreadable: cannot read: line 1 (from byte 0) is longer than 16 MiB, \
         the longest line ysess reads (YSESS_MAX_LINE sets it)\n"
    );
}

/// A FIFO in `dir` that nothing ever writes to.
fn fifo(dir: &Dir, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let made = Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    path
}

#[test]
fn a_device_named_as_the_session_file_is_refused_not_read_without_end() {
    let dir = crate::support::demo();
    std::os::unix::fs::symlink("/dev/urandom", dir.join("link.jsonl")).expect("link");
    for file in ["/dev/urandom", "/dev/zero", "link.jsonl"] {
        for args in [&["fsck"][..], &["log"], &["grep", "x"], &["stats"]] {
            let mut all = vec!["-f", file];
            all.extend(args);
            let (code, err) = run_bounded(&dir, &all, &[], None, 30)
                .unwrap_or_else(|| panic!("{all:?} never ended"));
            assert_eq!(code, 128, "{all:?}: {err}");
            assert!(
                err.contains("character device, not a regular file"),
                "{all:?}: {err}"
            );
            assert!(err.contains(file), "the file is named: {all:?}: {err}");
        }
        let (code, err) = run_bounded(&dir, &["fsck", file], &[], None, 30).expect("ends");
        assert_eq!(code, 128, "{err}");
    }
}

#[test]
fn a_time_zone_of_dev_zero_or_a_fifo_is_never_read_and_fsck_reads_none() {
    let dir = crate::support::demo();
    let fifo = fifo(&dir, "zone");
    let fifo = fifo.to_str().expect("UTF-8");
    for tz in ["/dev/zero", ":/dev/zero", fifo] {
        for args in [
            &["stats", "--by", "day"][..],
            &["log"],
            &["fsck"],
            &["status"],
        ] {
            let (code, err) = run_bounded(&dir, args, &[("TZ", tz)], None, 30)
                .unwrap_or_else(|| panic!("TZ={tz} {args:?} never ended"));
            assert_eq!(code, 0, "TZ={tz} {args:?}: {err}");
        }
    }
    // A real zone is still read when a time is shown.
    let run = dir.run_with(&["log", "-n", "1"], None, &[("TZ", "EST5EDT")]);
    run.status(0);
    assert!(
        run.stdout.contains("-05:00") || run.stdout.contains("-04:00"),
        "{run}"
    );
}

#[test]
fn old_copies_manifests_and_digest_files_that_are_devices_or_fifos_are_refused_not_waited_on() {
    let dir = crate::support::demo();
    let fifo = fifo(&dir, "fifo");
    let fifo = fifo.to_str().expect("UTF-8");
    std::fs::create_dir(dir.join("fleet")).expect("mkdir");
    std::fs::copy(dir.join("session.jsonl"), dir.join("fleet/a.jsonl")).expect("copy");
    type Case<'a> = (Vec<&'a str>, Vec<(&'a str, &'a str)>);
    let cases: Vec<Case<'_>> = vec![
        (
            vec!["fsck", "--since-manifest", "/dev/zero", "fleet"],
            vec![],
        ),
        (vec!["fsck", "--since-manifest", fifo, "fleet"], vec![]),
        (vec!["status", "--digest", fifo], vec![]),
        (vec!["status", "--digest", "/dev/zero"], vec![]),
        (vec!["status"], vec![("YSESS_DIGEST", fifo)]),
        (vec!["fsck", "--since", fifo], vec![]),
        (vec!["fsck", "--since", "/dev/zero"], vec![]),
    ];
    for (args, env) in cases {
        let (code, err) = run_bounded(&dir, &args, &env, None, 30)
            .unwrap_or_else(|| panic!("{args:?} {env:?} never ended"));
        assert_eq!(code, 128, "{args:?} {env:?}: {err}");
        assert!(
            err.contains("not a regular file"),
            "{args:?} {env:?}: {err}"
        );
    }

    // A manifest line naming a FIFO: that file is unreadable, the rest checked.
    let digest = dir.run(&["fsck", "--digest", "fleet/a.jsonl"]);
    digest.status(0);
    let digest = digest.stdout.trim().to_string();
    let bytes = digest.rsplit(':').next().expect("bytes").to_string();
    dir.write(
        "m",
        format!(
            "{{\"file\":\"fleet/a.jsonl\",\"bytes\":{bytes},\"digest\":\"{digest}\"}}\n\
             {{\"file\":\"{fifo}\",\"bytes\":{bytes},\"digest\":\"{digest}\"}}\n"
        ),
    );
    let (code, err) = run_bounded(
        &dir,
        &["fsck", "--since-manifest", "m", "fleet"],
        &[],
        None,
        30,
    )
    .expect("a manifest naming a FIFO never ended");
    assert_eq!(code, 128, "{err}");
    assert!(err.contains(&format!("{fifo}: unreadable")), "{err}");
    assert!(err.contains("a FIFO, not a regular file"), "{err}");
}

#[test]
fn fsck_since_an_old_copy_with_a_line_too_long_names_the_old_copy() {
    let dir = crate::support::demo();
    dir.write("old.jsonl", user_line("e1", None, &"x".repeat(4096)));
    let run = dir.run_with(
        &["fsck", "--since", "old.jsonl"],
        None,
        &[("YSESS_MAX_LINE", "1K")],
    );
    run.status(128);
    assert!(
        run.stderr
            .contains("--since old.jsonl: line 1 (from byte 0) is longer than 1 KiB"),
        "{run}"
    );
    assert!(!run.stderr.contains("session.jsonl:1:"), "{run}");
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
