//! The command-line tests: one binary, a module per command.

mod branch;
mod corpus;
mod diff;
mod errors;
mod folded;
mod formats;
mod fsck;
mod generated;
mod limits;
mod log;
#[cfg(unix)]
mod pager;
mod pi;
mod pipe;
mod race;
mod readme;
#[path = "gen.rs"]
mod sessgen;
mod show;
mod support;
mod tag;
mod write;
