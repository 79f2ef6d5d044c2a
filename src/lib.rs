//! ysess: a git-style tool for yoagent session trees.
//!
//! The data flows one way: read file → parse lines → validate → tree index →
//! (later) resolve revision → render. Everything but `cli` is free of
//! terminals, the environment and the clock.

pub mod canonical;
pub mod check;
pub mod cli;
pub mod diff;
pub mod digest;
pub mod entry;
pub mod fsck;
pub mod graph;
pub mod index;
pub mod load;
pub mod message;
mod par;
pub mod read;
pub mod records;
pub mod refs;
pub mod revision;
mod scan;
pub mod schema;
pub mod since;
pub mod store;
pub mod tail;
#[cfg(test)]
mod testing;
