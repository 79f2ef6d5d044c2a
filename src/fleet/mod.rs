//! Many session files at once: finding them under directories ([`walk`]),
//! checking them on every core in bounded memory ([`crate::input::par::ordered`]), and proving
//! that a whole fleet only grew, against a git revision ([`git`]) or a
//! manifest of digests ([`manifest`]); `fsck` of one file ([`check`]), of
//! the refs ysess keeps beside an app's file ([`refs`]), and of a whole run
//! ([`plan`]) as operations.

pub mod accounts;
pub mod archive;
pub mod check;
pub mod git;
pub mod kept;
pub mod manifest;
pub mod plan;
pub mod refs;
pub mod sessions;
pub mod walk;
