//! ysess: a git-style tool for yoagent session trees.

pub mod check;
pub mod cli;
pub mod compare;
pub mod format;
pub mod input;
pub mod refs;
pub mod repo;
#[cfg(test)]
mod testing;
pub mod tree;
pub mod ui;
pub mod write;
