//! `ysess log`.
