//! `--jobs N` and `YSESS_JOBS`: the one knob of every command's parallel
//! work. What a command prints does not depend on it; how many threads do
//! the work does, and the run's profile (`YSESS_PROFILE=1`) says how many.

use crate::support::{Dir, Run};

/// A folder of eight sessions, enough for fsck to spread over threads.
fn fleet() -> Dir {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.join("sessions")).expect("folder is made");
    for n in 0..8 {
        dir.fixture("demo.jsonl", &format!("sessions/s{n}.jsonl"));
    }
    dir
}

/// The most worker threads the profile line on stderr says the run used.
fn workers(run: &Run) -> u64 {
    let line = run
        .stderr
        .lines()
        .find(|l| l.starts_with("profile: "))
        .unwrap_or_else(|| panic!("a profile line\n{run}"));
    let (_, after) = line
        .split_once("summed over ")
        .unwrap_or_else(|| panic!("the workers in the profile\n{run}"));
    after
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a worker count\n{run}"))
}

#[test]
fn jobs_sets_how_many_threads_fsck_of_a_folder_runs_on_and_changes_nothing_printed() {
    let dir = fleet();
    let profile = [("YSESS_PROFILE", "1")];
    let one = dir.run_with(&["-j", "1", "fsck", "sessions"], None, &profile);
    one.status(0);
    assert_eq!(workers(&one), 1, "{one}");
    let three = dir.run_with(&["fsck", "--jobs", "3", "sessions"], None, &profile);
    three.status(0);
    assert_eq!(workers(&three), 3, "{three}");
    // The same answer, but for the time the run took.
    let answer = |run: Run| -> Vec<serde_json::Value> {
        let mut lines = run.status(0).json_lines();
        for line in &mut lines {
            line.as_object_mut().map(|o| o.remove("seconds"));
        }
        lines
    };
    let all = answer(dir.run(&["fsck", "sessions", "--json"]));
    let serial = answer(dir.run(&["-j", "1", "fsck", "sessions", "--json"]));
    assert_eq!(serial.len(), 9);
    assert_eq!(serial, all);
}

#[test]
fn ysess_jobs_is_the_default_and_the_flag_overrides_it() {
    let dir = fleet();
    let env = [("YSESS_PROFILE", "1"), ("YSESS_JOBS", "2")];
    let from_env = dir.run_with(&["fsck", "sessions"], None, &env);
    from_env.status(0);
    assert_eq!(workers(&from_env), 2, "{from_env}");
    let flag = dir.run_with(&["-j", "1", "fsck", "sessions"], None, &env);
    flag.status(0);
    assert_eq!(workers(&flag), 1, "{flag}");
}

#[test]
fn a_jobs_count_that_is_not_a_positive_number_is_refused_by_name() {
    let dir = fleet();
    let run = dir.run_with(&["fsck", "sessions"], None, &[("YSESS_JOBS", "0")]);
    run.status(128);
    assert!(
        run.stderr
            .contains("error: YSESS_JOBS is `0`: give a number of threads from 1 to 4096"),
        "{run}"
    );
    assert_eq!(run.stdout, "", "{run}");
    let run = dir.run(&["--jobs", "zero", "fsck", "sessions"]);
    run.status(2);
    assert!(run.stderr.contains("'--jobs <N>'"), "{run}");
}
