//! ysess: a git-style tool for session trees, the conversation histories
//! agents save as append-only JSONL files (one entry per line, each with an
//! id and a parent; forks come from appending after a rewind).
//!
//! The `ysess` binary is a thin layer (`cli`, `ui`) over this library,
//! which other tools can build on: open a session, resolve revisions, walk
//! the tree, check the file, append without rewriting history. Those two
//! modules and the crates only they need (clap, clap_complete, clap_mangen,
//! roff, indicatif, terminal_size, unicode-width, anyhow) come with the
//! default feature `cli`; `ysess = { default-features = false }` is the
//! library alone.
//!
//! # The map
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`input`] | bytes: files streamed as lines or blocks, the line limit, reading at an offset; the one executor of parallel work ([`input::par`], `--jobs`) |
//! | [`tree`] | the index of every entry and the user's tree with ysess's records folded out: parents, children, depth, tips, fork points, branch lengths; the graph's layout (its characters are `ui`'s) |
//! | [`format`](mod@format) | a session format: one line → [`format::LineFacts`] (the one entry model), an entry read whole → [`format::message::Entry`]; each agent's folder behind [`format::Spec`], the parallel reader every format shares ([`format::read`]), findings ([`format::finding`]); a format's code sees the session it reads as a [`format::session::Session`], never the layers above |
//! | [`check`] | the validator behind `fsck`: findings with stable codes, warnings, digests, `--since` |
//! | [`refs`] | branches, labels, HEAD and revision syntax: the one resolver, ranges (`A..B`), the reflog of HEAD moves, and `log -n`'s read from the end of the file |
//! | [`repo`] | [`repo::Repo::open`]: a session opened (file, format, tree, refs), where every command starts; what it reads from ([`repo::Input`]: a path, standard input, bytes read, a locked file) and how ([`repo::Open`]: format, torn last line, subjects, tallies, one read into memory, digest) |
//! | [`search`] | the text of messages searched (`grep`, `log --grep`) and `log`'s filters: a pattern's raw form picks the lines worth decoding |
//! | [`stats`] | accounting: turns, tokens, cost, tool calls and errors, models, wall time of any set of entries (`ysess stats`) |
//! | [`write`](mod@write) | lock, plan, append, repair: the only code that changes a file (and an archive's copies, [`write::archive`]) |
//! | [`fleet`] | `fsck` as operations: one file ([`fleet::check`]), and many (the walk of directories, checks on every core in bounded memory, old versions from git or a manifest); every session kept in an archive that only grows ([`fleet::archive`]) |
//! | [`compare`] | two directions of a conversation, or two copies of a file |
//! | [`view`] | the view model: an entry's headline as every listing shows it ([`view::Headline`]), the rows of `log`, `reflog` and `status`, and an entry's body in parts ([`view::message::Body`]: text, thinking, tool calls, a tool's output, images, markup as it reads, a record's data, a model's error) that `show`, the Markdown, the page and the TUI's chat all draw; secrets taken out of what a view shows ([`view::redact`], `export --redact`) |
//! | [`ops`] | what each write command does, as one call with a typed error: tag, branch, checkout, append |
//! | `table` | `export --parquet`'s tables: every entry, tree and session (feature `parquet`) |
//! | `ui` | what a person sees: escaping, colour, pager, width, the graph's characters, the `--json` shapes, completion (feature `cli`) |
//! | `cli` | the command line: one module per command (parse, call the library, render) (feature `cli`) |
//! | `tui` | the browser behind `ysess tui`: its state, keys, drawing and background reads; its writes are [`ops`] calls, and it draws with the commands' renderers, so it sits above `cli`, which runs it as the [`cli::tui::Browse`] the program hands it (feature `cli`) |
//!
//! Dependencies run one way, up this table: a module uses only those above
//! it (`format` uses `tree`, `repo` uses `check` and `refs`, `cli` uses
//! everything), and no two files of one module use each other round.
//! Nothing above `ui` knows about `clap`, the terminal or the pager.
//! `python3 .ci/house` (run by CI) draws the imports and fails on an arrow
//! up, a circle, a file over 600 lines before its tests or a function over
//! 100; `--graph` prints the drawing.
//!
//! # Example
//!
//! Open the demo session, resolve the checkpoint `first-draft`, walk its
//! branch, and check the file:
//!
//! ```
//! use ysess::check::{Options, check};
//! use ysess::repo::{Open, Repo};
//!
//! let repo = Repo::open("tests/fixtures/demo.jsonl", &Open::default())?;
//! let draft = repo.resolve("first-draft")?;
//! let tree = &repo.tree;
//!
//! // The branch that led to the checkpoint, root first.
//! let path: Vec<&str> = tree.path(draft).into_iter().map(|ix| tree.id(ix)).collect();
//! assert_eq!(path, ["e1", "e2", "e3", "e4"]);
//! assert_eq!(repo.entry(draft)?.message.role(), "assistant");
//!
//! // Three directions were tried from it: the tips of the tree.
//! assert_eq!(tree.tips().count(), 3);
//! assert_eq!(tree.fork_point(repo.resolve("HEAD")?), repo.resolve("library").ok());
//!
//! // The checks `ysess fsck` runs: yoagent loads this file.
//! let file = std::fs::File::open("tests/fixtures/demo.jsonl")?;
//! let report = check(file, &Options { warnings: true, ..Options::default() })?;
//! assert_eq!(report.errors(), 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Where a new command, format or check goes: see docs/contributing.md.

#![warn(missing_docs)]
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
pub mod compare;
pub mod fleet;
pub mod format;
pub mod input;
pub mod ops;
pub mod refs;
pub mod repo;
pub mod search;
pub mod stats;
#[cfg(feature = "parquet")]
pub mod table;
#[cfg(test)]
mod testing;
pub mod tree;
#[cfg(feature = "cli")]
pub mod tui;
#[cfg(feature = "cli")]
pub mod ui;
pub mod view;
pub mod write;

// The nouns every operation speaks in: a session's source, its format, its
// tree and the indexes into it, the names on its entries.
pub use format::{Format, MessageKind};
pub use input::Source;
pub use refs::Names;
pub use tree::{Ix, Tree};

// Where a run's time goes (`YSESS_PROFILE=1`), counted wherever files are
// read in parallel.
pub use input::profile;
