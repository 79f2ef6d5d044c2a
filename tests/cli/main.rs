//! The command-line tests: one binary, a module per command.

mod agents;
mod branch;
mod ccusage;
mod claude;
mod codex;
mod copilot;
mod corpus;
mod crash;
mod diff;
mod errors;
mod export;
mod fleet;
mod folded;
mod formats;
mod fsck;
mod gemini;
mod generated;
mod grep;
mod html;
mod limits;
mod log;
mod log_filters;
mod ls;
mod opencode;
#[cfg(unix)]
mod pager;
mod parquet;
mod pi;
mod pipe;
mod qwen;
mod race;
mod ranges;
mod readme;
mod reflog;
mod refs;
mod resume;
#[path = "gen.rs"]
mod sessgen;
mod shape;
mod show;
mod stats;
mod status;
mod support;
mod tag;
mod tui;
mod write;
