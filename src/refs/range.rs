//! Sets of entries named on the command line, as git's revision ranges:
//!
//! - `REV`: the path from the root to REV;
//! - `^REV`: not the path to REV (it removes, from what the others name);
//! - `A..B`: the path to B less the path to A (`^A B`): what B's direction
//!   did since it left A's;
//! - `A...B`: the entries on either side of the fork point of A and B, the
//!   fork point itself excluded.
//!
//! A side left out is `HEAD` (`A..` is `A..HEAD`). A text that names an
//! entry whole is that entry, so an id or label that contains `..` or starts
//! with `^` still names it.

use crate::tree::{Ix, Tree};

use super::revision::RevError;

/// One command-line text, split into the revisions it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spec<'a> {
    /// The path to the revision.
    Rev(&'a str),
    /// `^REV`.
    Not(&'a str),
    /// `A..B`.
    Range(&'a str, &'a str),
    /// `A...B`.
    Symmetric(&'a str, &'a str),
}

impl<'a> Spec<'a> {
    /// Splits `text`; `names` says whether a text names an entry whole.
    pub fn parse(text: &'a str, names: impl Fn(&str) -> bool) -> Spec<'a> {
        let or_head = |side: &'a str| if side.is_empty() { "HEAD" } else { side };
        if names(text) {
            return Spec::Rev(text);
        }
        if let Some((a, b)) = text.split_once("...") {
            return Spec::Symmetric(or_head(a), or_head(b));
        }
        if let Some((a, b)) = text.split_once("..") {
            return Spec::Range(or_head(a), or_head(b));
        }
        match text.strip_prefix('^') {
            Some(rest) if !rest.is_empty() => Spec::Not(rest),
            _ => Spec::Rev(text),
        }
    }

    /// Whether the text is more than one revision.
    pub fn is_range(&self) -> bool {
        !matches!(self, Spec::Rev(_))
    }
}

/// The entries `texts` name together, newest first (file order, reversed):
/// the union of the paths they include less the union of those they
/// exclude. `resolve` names one entry; `up` is the parent to walk to (the
/// user's tree's, or the file's with ysess's records). Each entry is
/// visited at most twice, whatever the number of texts.
pub fn select(
    tree: &Tree,
    texts: &[&str],
    resolve: impl Fn(&str) -> Result<Ix, RevError>,
    up: impl Fn(Ix) -> Option<Ix>,
) -> Result<Vec<Ix>, RevError> {
    let mut include = Vec::new();
    let mut exclude = Vec::new();
    for text in texts {
        match Spec::parse(text, |t| resolve(t).is_ok()) {
            Spec::Rev(rev) => include.push(resolve(rev)?),
            Spec::Not(rev) => exclude.push(resolve(rev)?),
            Spec::Range(a, b) => {
                exclude.push(resolve(a)?);
                include.push(resolve(b)?);
            }
            Spec::Symmetric(a, b) => {
                let (a, b) = (resolve(a)?, resolve(b)?);
                include.extend([a, b]);
                exclude.extend(common_ancestor(a, b, &up));
            }
        }
    }
    // 0: not seen, 1: excluded, 2: included.
    let mut mark = vec![0u8; tree.len()];
    for start in exclude {
        let mut cursor = Some(start);
        while let Some(c) = cursor.filter(|&c| mark[c as usize] == 0) {
            mark[c as usize] = 1;
            cursor = up(c);
        }
    }
    let mut chosen = Vec::new();
    for start in include {
        let mut cursor = Some(start);
        while let Some(c) = cursor.filter(|&c| mark[c as usize] == 0) {
            mark[c as usize] = 2;
            chosen.push(c);
            cursor = up(c);
        }
    }
    chosen.sort_unstable_by(|a, b| b.cmp(a));
    Ok(chosen)
}

/// The nearest entry on both paths, if they share a root.
pub fn common_ancestor(a: Ix, b: Ix, up: impl Fn(Ix) -> Option<Ix>) -> Option<Ix> {
    let path = |mut at: Option<Ix>| {
        let mut path = Vec::new();
        while let Some(c) = at {
            path.push(c);
            at = up(c);
        }
        path.reverse();
        path
    };
    let (pa, pb) = (path(Some(a)), path(Some(b)));
    pa.iter()
        .zip(&pb)
        .take_while(|(x, y)| x == y)
        .last()
        .map(|(x, _)| *x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::tree;

    /// e1 ← e2 ← e3 ← e4 ← e5, and e3 ← e6 ← e7; HEAD is e7.
    fn forked() -> Tree {
        tree(&[
            ("e1", None),
            ("e2", Some("e1")),
            ("e3", Some("e2")),
            ("e4", Some("e3")),
            ("e5", Some("e4")),
            ("e6", Some("e3")),
            ("e7", Some("e6")),
        ])
    }

    fn ids(t: &Tree, texts: &[&str]) -> Vec<String> {
        let resolve = |text: &str| super::super::revision::resolve(t, t.head(), &[], text);
        select(t, texts, resolve, |ix| t.parent(ix))
            .unwrap_or_else(|e| panic!("{texts:?}: {e}"))
            .into_iter()
            .map(|ix| t.id(ix).to_string())
            .collect()
    }

    #[test]
    fn the_forms() {
        let t = forked();
        assert_eq!(ids(&t, &["e5"]), ["e5", "e4", "e3", "e2", "e1"]);
        assert_eq!(ids(&t, &["e5..e7"]), ["e7", "e6"]);
        assert_eq!(ids(&t, &["e7..e5"]), ["e5", "e4"]);
        assert_eq!(ids(&t, &["e5...e7"]), ["e7", "e6", "e5", "e4"]);
        assert_eq!(ids(&t, &["e5", "^e3"]), ["e5", "e4"]);
        assert_eq!(
            ids(&t, &["e5", "e7", "^e2"]),
            ["e7", "e6", "e5", "e4", "e3"]
        );
        // A side left out is HEAD.
        assert_eq!(ids(&t, &["e5.."]), ["e7", "e6"]);
        assert_eq!(ids(&t, &["..e5"]), ["e5", "e4"]);
        // An ancestor's range is empty.
        assert!(ids(&t, &["e7..e3"]).is_empty());
        assert_eq!(ids(&t, &["e3..e3"]), Vec::<String>::new());
    }

    #[test]
    fn names_with_dots_or_carets_name_their_entry() {
        let t = tree(&[("a..b", None), ("^c", Some("a..b")), ("d", Some("^c"))]);
        assert_eq!(ids(&t, &["a..b"]), ["a..b"]);
        assert_eq!(ids(&t, &["^c"]), ["^c", "a..b"]);
        assert_eq!(ids(&t, &["^c..d"]), ["d"]);
    }

    #[test]
    fn an_unknown_side_is_the_error() {
        let t = forked();
        let resolve = |text: &str| super::super::revision::resolve(&t, t.head(), &[], text);
        let e = select(&t, &["e5..zz"], resolve, |ix| t.parent(ix)).unwrap_err();
        assert_eq!(e.to_string(), "unknown revision 'zz'");
    }

    #[test]
    fn parse() {
        let no = |_: &str| false;
        assert_eq!(Spec::parse("a..b", no), Spec::Range("a", "b"));
        assert_eq!(Spec::parse("a...b", no), Spec::Symmetric("a", "b"));
        assert_eq!(Spec::parse("...b", no), Spec::Symmetric("HEAD", "b"));
        assert_eq!(Spec::parse("^a", no), Spec::Not("a"));
        assert_eq!(Spec::parse("^", no), Spec::Rev("^"));
        assert_eq!(Spec::parse("a", no), Spec::Rev("a"));
    }
}
