//! Comparing two directions of a conversation: the turns after their fork
//! point aligned by shape ([`turns`]).

pub mod turns;
