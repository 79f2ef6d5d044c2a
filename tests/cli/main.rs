//! The command-line tests: one binary, a module per command.

mod branch;
mod corpus;
mod fsck;
mod log;
mod show;
mod support;
mod tag;
