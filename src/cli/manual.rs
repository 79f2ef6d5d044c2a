//! The parts of the manual that every command shares: how revisions are
//! named, the exit status and the environment. One text, shown by
//! `ysess --help` and written into every man page by `generate`.

/// A titled section: a paragraph, a list of terms, and maybe a closing
/// paragraph.
pub struct Section {
    /// Its heading.
    pub title: &'static str,
    /// What comes before the items.
    pub intro: &'static str,
    /// Each item and what it means.
    pub items: &'static [(&'static str, &'static str)],
    /// What comes after the items.
    pub outro: &'static str,
}

/// How revisions are named.
pub const REVISIONS: Section = Section {
    title: "Revisions",
    intro: "Every command that takes an entry (log REV, show REV, diff A B, checkout REV, \
            export REV, tag NAME REV, branch NAME REV, branch --contains REV, append --parent \
            REV) understands the same names, the first that matches winning:",
    items: &[
        (
            "HEAD, @",
            "the head: the entry on the last line (when that is one of ysess's own records, \
             the entry it hangs from)",
        ),
        (
            "HEAD@{N}, @{N}",
            "HEAD as the N-th newest HEAD move that ysess recorded left it (ysess reflog \
             lists them); HEAD@{0} is HEAD",
        ),
        ("@-", "the previous HEAD, HEAD@{1}"),
        ("ID", "that entry, exactly (e12)"),
        (
            "LABEL",
            "the entry it names: the newest carrier of the label, as yoagent's \
             seek_checkpoint picks (first-draft)",
        ),
        ("BRANCH", "the branch's tip (lib)"),
        (
            "PREFIX",
            "a unique prefix of an id, a label or a branch name (first for first-draft)",
        ),
        ("REV~N", "the N-th ancestor of REV (~ alone is ~1)"),
        ("REV^", "the parent of REV (^0 is REV itself)"),
        (
            "A..B",
            "(log, show) the entries on B's path that are not on A's; a side left out is HEAD",
        ),
        (
            "A...B",
            "(log, show) the entries on either side of the fork point of A and B",
        ),
        (
            "^A",
            "(log) leaves out A's path from what the other REVs name",
        ),
    ],
    outro: "first-draft~2 is two entries before the checkpoint; @^ is HEAD's parent. An exact \
            id or label wins over suffix parsing, and over range parsing.",
};

/// The exit codes.
pub const EXIT_STATUS: Section = Section {
    title: "Exit status",
    intro: "",
    items: &[
        ("0", "success: the answer is yes"),
        (
            "1",
            "the answer is no (fsck found an error, or a warning with --strict; \
             diff --exit-code or -q found the sides differ; ls listed nothing or could \
             not read a file)",
        ),
        ("2", "the command line was wrong"),
        (
            "128",
            "the session refuses, or ysess could not run at all (a file cannot be read, a \
             session yoagent would refuse, an unknown revision, ...)",
        ),
    ],
    outro: "A closed pipe (ysess fsck --json | head -1) ends quietly with 0.",
};

/// The environment variables ysess reads.
pub const ENVIRONMENT: Section = Section {
    title: "Environment",
    intro: "",
    items: &[
        (
            "YSESS_FILE",
            "the session file when -f is not given (default: session.jsonl)",
        ),
        (
            "YSESS_PATH",
            "folders where ls and -s look for sessions, besides the agents' own",
        ),
        (
            "CLAUDE_CONFIG_DIR, PI_CODING_AGENT_DIR, PI_CODING_AGENT_SESSION_DIR, CODEX_HOME, \
             QWEN_HOME, QWEN_RUNTIME_DIR, GEMINI_CLI_HOME, COPILOT_HOME, XDG_DATA_HOME",
            "where ls and -s find each agent's sessions, and resume runs the agents, as the \
             agents do (default: ~/.claude, ~/.pi/agent, ~/.codex, ~/.qwen, ~/.gemini, \
             ~/.copilot, and OpenCode's ~/.local/share/opencode)",
        ),
        (
            "YSESS_ARCHIVE",
            "the archive ysess archive keeps sessions in, and ls, -s, grep --all, stats --all, \
             tui and export --parquet read the agents' deleted sessions from once it exists \
             (default: $XDG_DATA_HOME/ysess/archive, else ~/.local/share/ysess/archive)",
        ),
        (
            "YSESS_PRICES",
            "a JSON file of model prices consulted before ysess's own table (dollars per \
             million tokens), for stats, ls and the tables",
        ),
        (
            "YSESS_JOBS",
            "threads for the work done in parallel (fsck, ls, grep, stats, the exports), \
             when --jobs is not given (default: every core)",
        ),
        (
            "YSESS_MAX_LINE",
            "the longest line ysess reads, in bytes or with K, M or G (default: 1G); a longer \
             one is an error naming it",
        ),
        (
            "YSESS_DIGEST",
            "the digest status --digest compares the file with, when it is not given",
        ),
        (
            "YSESS_PAGER, PAGER",
            "the pager for log, show, diff, grep, ls, stats and reflog on a terminal: the \
             first of the two that is set (default: less -FRX); empty or cat turns paging off",
        ),
        (
            "LESS, LV",
            "set to FRX and -c for the pager when unset, as git does",
        ),
        (
            "COLUMNS",
            "the terminal's width, to which log --graph cuts its rows (default: the \
             terminal's own)",
        ),
        (
            "NO_COLOR",
            "when set and not empty, --color auto colours nothing",
        ),
        (
            "TZ, TZDIR",
            "the time zone times are shown in, and the folder of the zone files a name in TZ \
             is looked up in (default: /usr/share/zoneinfo)",
        ),
        (
            "YSESS_CACHE_DIR",
            "where log -n remembers how far each session was searched for branch records \
             (default: $XDG_CACHE_HOME/ysess, else ~/.cache/ysess); empty keeps nothing",
        ),
        (
            "YSESS_REFS",
            "where tag, branch and checkout keep the refs of Claude Code's and Codex's \
             sessions, beside the apps' files (default: $XDG_DATA_HOME/ysess/refs, else \
             ~/.local/share/ysess/refs)",
        ),
        (
            "HOME, USER (USERPROFILE, USERNAME)",
            "the home directory and user name that export --redact and grep --secrets take \
             out of a session",
        ),
        (
            "YSESS_PROFILE",
            "when set and not empty, a command prints where its time went on stderr",
        ),
        (
            "COMPLETE",
            "COMPLETE=bash|zsh|fish ysess prints the shell's dynamic completion script",
        ),
    ],
    outro: "",
};

/// The shared sections as `ysess --help` shows them, after the options.
pub fn long_help() -> String {
    let mut text = String::new();
    for section in [&REVISIONS, &EXIT_STATUS, &ENVIRONMENT] {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(section.title);
        text.push_str(":\n");
        if !section.intro.is_empty() {
            text.push_str(&format!("  {}\n\n", section.intro));
        }
        // Laid out as clap lays out options, so wrapped lines keep their
        // indentation.
        for (term, meaning) in section.items {
            text.push_str(&format!("  {term}\n          {meaning}\n"));
        }
        if !section.outro.is_empty() {
            text.push_str(&format!("\n  {}\n", section.outro));
        }
    }
    text
}
