//! yoagent 0.26.6's session format: its id rule, and deciding one line
//! (blank, a valid entry with its facts, or a fault) exactly as its loader
//! does, by the fast scanner when it is sure and by serde otherwise.

pub mod canonical;
pub mod entry;
pub mod exact;
pub mod scan;
pub mod schema;
pub mod spec;

use crate::format::Checked;
use exact::check_exact;
pub use spec::Yoagent;

/// Checks one line (without its `\n`) the way yoagent's `Session::from_jsonl`
/// does: UTF-8, trimmed of Unicode white space, blank lines skipped, then one
/// `SessionEntry` parsed from the rest.
/// `subject`: also make the entry's subject line (for commands that print it).
pub fn check_line(bytes: &[u8], subject: bool) -> Checked<'_> {
    read_line(bytes, subject, false)
}

/// [`check_line`], the entry's tally taken too when `tally` asks for it
/// (see [`crate::format::Format::check_line_tallied`]).
pub fn read_line(bytes: &[u8], subject: bool, tally: bool) -> Checked<'_> {
    let (trimmed, indent) = match crate::format::text_of(bytes) {
        Ok(text) => text,
        Err(no) => return no.into(),
    };
    if let Some(facts) = scan::scan_line_tallied(trimmed, subject, tally) {
        return Checked::Entry { facts, indent };
    }
    match check_exact(trimmed) {
        Ok(facts) => Checked::Entry { facts, indent },
        Err(fault) => Checked::Fault { fault, indent },
    }
}

/// The number yoagent's counter reads from an id: `N` for an id `e<N>`, as
/// its loader parses it (`strip_prefix('e')`, then `u64::from_str`, which
/// takes `e01` as 1 and `e+1` as 1). yoagent's next append is `e<max+1>`.
/// This is the one rule for ids in ysess.
pub fn counter_number(id: &str) -> Option<u64> {
    id.strip_prefix('e')?.parse::<u64>().ok()
}

/// Whether an id is one yoagent's `append` makes: `e` and the number
/// written plainly (`e1`, `e42`; not `e01` or `e+1`, which its counter reads
/// but never writes).
pub fn is_counter_id(id: &str) -> bool {
    counter_number(id).is_some_and(|n| n > 0 && id[1..] == *n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_rule_for_ids_reads_as_yoagent_and_writes_as_its_append() {
        assert_eq!(counter_number("e12"), Some(12));
        assert_eq!(counter_number("e01"), Some(1));
        assert_eq!(counter_number("e+3"), Some(3));
        assert_eq!(counter_number("e"), None);
        assert_eq!(counter_number("E1"), None);
        assert_eq!(counter_number("e18446744073709551616"), None);
        assert!(is_counter_id("e1") && is_counter_id("e400"));
        for odd in ["e0", "e01", "e+1", "e", "e1x", "E1", "x1"] {
            assert!(!is_counter_id(odd), "{odd}");
        }
    }
}
