//! The command-line tests: one binary, a module per command.

mod corpus;
mod fsck;
mod support;
