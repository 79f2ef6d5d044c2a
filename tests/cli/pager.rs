//! Paging on a terminal, as git pages: the output is never lost to a pager
//! that fails, and the pager is chosen and turned off as in git. These run
//! ysess on a pseudo-terminal, since only a terminal is paged.

use crate::support::{Dir, Run, demo, run_on_terminal};

/// The commands that page, each with what a pipe gets from it.
fn paged_commands(dir: &Dir) -> Vec<(Vec<&'static str>, Run)> {
    [
        vec!["log"],
        vec!["log", "--oneline", "-n", "3"],
        vec!["log", "--graph"],
        vec!["show", "e4"],
        vec!["diff", "e6", "e15"],
    ]
    .into_iter()
    .map(|args| {
        let piped = dir.run(&args);
        piped.status(0).stderr("");
        assert!(!piped.stdout.is_empty(), "{piped}");
        (args, piped)
    })
    .collect()
}

#[test]
fn a_pager_that_cannot_start_still_prints_the_output() {
    let dir = demo();
    for (args, piped) in paged_commands(&dir) {
        // Run directly, and through the shell (shell syntax in the command).
        for (pager, says) in [
            (
                "/nonexistent",
                "warning: cannot start the pager '/nonexistent': ",
            ),
            (
                "/nonexistent >&2",
                "warning: the pager '/nonexistent >&2' could not be found",
            ),
        ] {
            let run = run_on_terminal(&dir, &args, &[("YSESS_PAGER", pager)], 0);
            run.status(0).stdout(&piped.stdout);
            assert!(run.stderr.contains(says), "{run}");
            assert!(run.stderr.ends_with("; writing to the terminal\n"), "{run}");
        }
    }
}

#[test]
fn a_pager_that_exits_non_zero_is_reported_and_the_output_printed() {
    let dir = demo();
    for (args, piped) in paged_commands(&dir) {
        for (pager, code) in [("false", 1), ("cat >/dev/null; exit 3", 3)] {
            let run = run_on_terminal(&dir, &args, &[("PAGER", pager)], 0);
            run.status(0).stdout(&piped.stdout).stderr(&format!(
                "warning: the pager '{pager}' exited with status {code}; writing to the terminal\n"
            ));
        }
    }
}

#[test]
fn a_pager_the_person_quits_early_is_not_an_error() {
    let dir = Dir::new();
    let mut lines = vec![crate::support::user_line("e1", None, "turn 1")];
    for n in 2..=5000 {
        lines.push(crate::support::user_line(
            &format!("e{n}"),
            Some(&format!("e{}", n - 1)),
            "a turn long enough to fill the pipe to the pager",
        ));
    }
    dir.write("session.jsonl", lines.join("\n"));
    let run = run_on_terminal(&dir, &["log"], &[("YSESS_PAGER", "head -n 1")], 0);
    run.status(0)
        .stdout("e5000 (HEAD)  user  2025-10-09 08:53:20 +00:00\n")
        .stderr("");
}

#[test]
fn the_pager_is_ysess_pager_then_pager_and_cat_or_empty_turns_it_off() {
    let dir = demo();
    let piped = dir.run(&["log", "--oneline"]);
    let marked = |mark: &str| {
        piped
            .stdout
            .lines()
            .map(|l| format!("{mark}{l}\n"))
            .collect::<String>()
    };
    let cases: &[(&[(&str, &str)], String)] = &[
        (&[("PAGER", "sed s/^/P:/")], marked("P:")),
        (
            &[("YSESS_PAGER", "sed s/^/Y:/"), ("PAGER", "sed s/^/P:/")],
            marked("Y:"),
        ),
        (&[("PAGER", "cat")], piped.stdout.clone()),
        (&[("PAGER", "")], piped.stdout.clone()),
        (
            &[("YSESS_PAGER", ""), ("PAGER", "sed s/^/P:/")],
            piped.stdout.clone(),
        ),
        (
            &[("YSESS_PAGER", "cat"), ("PAGER", "sed s/^/P:/")],
            piped.stdout.clone(),
        ),
    ];
    for (env, expected) in cases {
        let run = run_on_terminal(&dir, &["log", "--oneline"], env, 0);
        run.status(0).stdout(expected).stderr("");
    }
    // The default is less, told to quit at once when the output fits.
    let run = run_on_terminal(
        &dir,
        &["log", "--oneline"],
        &[("YSESS_PAGER", "sh -c 'echo \"$LESS\"; cat >/dev/null'")],
        0,
    );
    run.status(0).stdout("FRX\n").stderr("");
}

#[test]
fn no_pager_is_a_global_option() {
    let dir = demo();
    let piped = dir.run(&["log", "--oneline"]);
    let pager = [("YSESS_PAGER", "sed s/^/paged:/")];
    for args in [
        &["--no-pager", "log", "--oneline"][..],
        &["log", "--no-pager", "--oneline"],
        &["log", "--oneline", "--no-pager"],
    ] {
        run_on_terminal(&dir, args, &pager, 0)
            .status(0)
            .stdout(&piped.stdout)
            .stderr("");
    }
    // Accepted by every command, paged or not.
    run_on_terminal(&dir, &["--no-pager", "show", "e4"], &pager, 0).status(0);
    run_on_terminal(&dir, &["diff", "--no-pager", "e6", "e15"], &pager, 0).status(0);
    dir.run(&["fsck", "--no-pager"]).status(0);
    dir.run(&["--no-pager", "branch"]).status(0);
}

#[test]
fn a_long_subject_in_the_graph_is_cut_to_the_terminal_width_never_on_a_pipe() {
    use unicode_width::UnicodeWidthStr;
    let dir = Dir::new();
    let long = format!("計画 {}", "a subject that goes on ".repeat(20));
    let lines = [
        crate::support::user_line("e1", None, "root"),
        crate::support::user_line("e2", Some("e1"), &long),
        crate::support::user_line("e3", Some("e1"), "short"),
    ];
    dir.write("session.jsonl", lines.join("\n"));
    // A pipe gets every row whole, whatever COLUMNS says.
    let piped = dir.run_with(&["log", "--graph"], None, &[("COLUMNS", "30")]);
    piped.status(0);
    assert!(
        piped
            .stdout
            .lines()
            .any(|l| l.contains("計画 a subject") && l.width() > 200 && !l.ends_with('…')),
        "{piped}"
    );
    // A terminal gets no row wider than itself, through the pager or not.
    for (args, env, columns, width) in [
        (&["--no-pager", "log", "--graph"][..], &[][..], 60, 60),
        (
            &["--no-pager", "log", "--graph"],
            &[("COLUMNS", "45")],
            80,
            45,
        ),
        (&["log", "--graph"], &[("YSESS_PAGER", "sed s/^//")], 50, 50),
    ] {
        let run = run_on_terminal(&dir, args, env, columns);
        run.status(0).stderr("");
        assert_eq!(
            run.stdout.lines().count(),
            piped.stdout.lines().count(),
            "{run}"
        );
        for line in run.stdout.lines() {
            assert!(line.width() <= width, "wider than {width}: {line:?}\n{run}");
        }
        let cut: Vec<&str> = run.stdout.lines().filter(|l| l.ends_with('…')).collect();
        assert_eq!(cut.len(), 1, "{run}");
        assert_eq!(cut[0].width(), width, "{run}");
        assert!(run.stdout.contains("short"), "{run}");
    }
}
