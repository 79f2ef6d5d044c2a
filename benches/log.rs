//! `cargo bench --bench log`: being written.
fn main() {}
