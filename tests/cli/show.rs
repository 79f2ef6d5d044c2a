//! `ysess show`.
