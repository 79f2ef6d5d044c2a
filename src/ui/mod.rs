//! What a person sees: escaping and colour, the pager, the terminal's
//! width, how entries are drawn, and shell completion.

pub mod complete;
pub mod graph;
pub mod json;
pub mod markdown;
pub mod output;
pub mod page;
pub mod pager;
pub mod render;
pub mod template;
pub mod zone;
