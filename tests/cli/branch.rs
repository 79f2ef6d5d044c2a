//! `ysess branch`.
