//! `ysess export`: the path to an entry as messages (JSON) or as a new
//! session file of its own, and the whole-or-nothing output those are
//! written to. Nothing here changes the session read.

pub use crate::write::export::{
    Line, path_messages, path_session, resumed_messages, session_refusal,
};
pub use crate::write::output::{Output, OutputError};
