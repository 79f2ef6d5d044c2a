//! `ysess tag`.
