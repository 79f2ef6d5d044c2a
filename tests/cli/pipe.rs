//! Sessions that can be read only once: a pipe named by a path (`-f <(…)`,
//! a FIFO) and standard input.

use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::process::Command;

use crate::support::{Dir, demo, fixture};

/// Runs ysess with `-f FIFO`, a FIFO fed the demo session once.
fn through_a_fifo(dir: &Dir, args: &[&str]) -> crate::support::Run {
    let fifo = dir.join("pipe.jsonl");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let bytes = std::fs::read(fixture("demo.jsonl")).expect("the demo reads");
    let feeder = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            // Opening blocks until ysess opens the other end.
            let mut w = std::fs::OpenOptions::new()
                .write(true)
                .open(&fifo)
                .expect("opens");
            let _ = w.write_all(&bytes);
        })
    };
    let mut with = vec!["-f", "pipe.jsonl"];
    with.extend(args);
    let run = dir.run(&with);
    // If ysess never opened the pipe, open it here so the feeder ends.
    let _unblock = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(&fifo);
    feeder.join().expect("the feeder ends");
    run
}

#[test]
fn show_diff_export_and_log_json_read_a_pipe_once_instead_of_failing_with_illegal_seek() {
    let dir = demo();
    for args in [
        &["show", "e3"][..],
        &["show"],
        &["diff", "e5", "e8"],
        &["export"],
        &["export", "--session"],
        &["log", "--json"],
        &["log", "-n", "3"],
        &["log", "-n", "3"],
        &["log", "-n", "3"],
    ] {
        let from_pipe = through_a_fifo(&dir, args);
        let from_file = dir.run(args);
        from_file.status(0);
        assert!(!from_pipe.stderr.contains("Illegal seek"), "{from_pipe}");
        from_pipe.status(0).stdout(&from_file.stdout);
    }
}

#[test]
fn standard_input_is_read_once_for_show_and_export() {
    let dir = demo();
    let bytes = std::fs::read(fixture("demo.jsonl")).expect("the demo reads");
    for args in [&["show", "e3"][..], &["export"], &["log", "--json"]] {
        let mut with = vec!["-f", "-"];
        with.extend(args);
        let from_stdin = dir.run_stdin(&with, &bytes);
        from_stdin.status(0).stdout(&dir.run(args).stdout);
    }
}

#[test]
fn a_process_substitution_is_still_a_session_while_a_device_is_refused() {
    let dir = demo();
    let out = Command::new("bash")
        .arg("-c")
        .arg(r#""$0" -f <(cat session.jsonl) log --format '{id}' -n 2"#)
        .arg(env!("CARGO_BIN_EXE_ysess"))
        .current_dir(dir.path())
        .env_remove("YSESS_FILE")
        .output()
        .expect("bash runs");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        dir.run(&["log", "--format", "{id}", "-n", "2"]).stdout
    );
    let run = dir.run(&["-f", "/dev/urandom", "log"]);
    run.status(128);
    assert!(run.stderr.contains("/dev/urandom"), "{run}");
}
