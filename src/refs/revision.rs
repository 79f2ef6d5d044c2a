//! Revisions: how a command-line argument names an entry, as in git and jj.
//!
//! A revision is a name followed by suffixes. The name is, first match wins:
//! `HEAD` or `@` (the head the caller chose), an entry id, a label, a branch
//! name, or a unique prefix of any of those three. The suffixes, applied
//! left to right, are `~N` (the N-th ancestor; `~` alone is `~1`) and `^`
//! (the parent; `^1` too, `^0` is the entry itself).
//!
//! The names of earlier heads come from the reflog ([`super::reflog`]):
//! `HEAD@{N}` (or `@{N}`) is the N-th previous HEAD, the one the N-th newest
//! HEAD move left, `HEAD@{0}` HEAD itself, and `@-` is `HEAD@{1}`.
//! Ranges of entries (`A..B`, `A...B`, `^A`) are [`super::range`]'s.
//!
//! Ids and labels are any strings, so they may contain `~` and `^` or look
//! like `HEAD~2`. An exact name therefore always beats suffix parsing: the
//! whole text is tried first, then ever shorter names before a `~` or `^`.

use crate::tree::{Ix, Tree};

use super::rev_error::MAX_LISTED;
pub use super::rev_error::{Candidate, RevError};

/// The names of the head.
const HEAD_NAMES: [&str; 2] = ["HEAD", "@"];

/// Ids are offered as suggestions only in sessions up to this size, so that a
/// typo never costs an edit-distance scan of a huge session.
const MAX_SUGGESTED_IDS: usize = 10_000;

/// The entry `text` names. `head` is what `HEAD` and `@` stand for;
/// `branches` are the named branches as `(name, tip)`. A head or branch tip
/// outside the tree is treated as absent rather than trusted.
pub fn resolve(
    tree: &Tree,
    head: Option<Ix>,
    branches: &[(String, Ix)],
    text: &str,
) -> Result<Ix, RevError> {
    resolve_at(tree, head, &[], branches, text)
}

/// [`resolve`], with the previous heads for `HEAD@{N}` and `@-`: `previous`
/// holds the HEAD each recorded move left, newest move first.
pub fn resolve_at(
    tree: &Tree,
    head: Option<Ix>,
    previous: &[Ix],
    branches: &[(String, Ix)],
    text: &str,
) -> Result<Ix, RevError> {
    if tree.is_empty() {
        return Err(RevError::EmptySession { text: text.into() });
    }
    let names = Names {
        tree,
        head: head.filter(|&ix| in_tree(tree, ix)),
        previous,
        branches,
        text,
    };
    // The whole text first: an id like `a~1` must not become `a`'s parent.
    if let Some(ix) = names.exact(text)? {
        return Ok(ix);
    }
    // Then the longest exact name before a `~` or `^`, so that an id that
    // itself contains one still takes suffixes.
    for (at, _) in text.rmatch_indices(['~', '^']) {
        let (name, suffix) = text.split_at(at);
        if let Some(start) = names.exact(name)? {
            let steps = parse_suffix(suffix).ok_or_else(|| bad_suffix(text, suffix))?;
            return walk(tree, text, start, &steps);
        }
    }
    names.loose(text)
}

/// N for `HEAD@{N}` and `@{N}`, 1 for `@-`; `None` for any other name,
/// `Some(None)` for an N too large for a number (never read as the
/// largest one).
fn previous_number(name: &str) -> Option<Option<u64>> {
    if name == "@-" {
        return Some(Some(1));
    }
    let inner = ["HEAD", ""].iter().find_map(|head| {
        name.strip_prefix(head)?
            .strip_prefix("@{")?
            .strip_suffix('}')
    })?;
    (!inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit())).then(|| {
        inner.bytes().try_fold(0u64, |n, d| {
            n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
        })
    })
}

fn in_tree(tree: &Tree, ix: Ix) -> bool {
    (ix as usize) < tree.len()
}

fn bad_suffix(text: &str, suffix: &str) -> RevError {
    RevError::BadSuffix {
        text: text.into(),
        suffix: suffix.into(),
    }
}

/// One suffix step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    /// `~N`, `^`, `^1` or `^0`: go N parents back.
    Back(u64),
    /// `^N` for N ≥ 2, which no entry has; an error once reached.
    OtherParent(u64),
}

/// The steps of a suffix such as `~2^~`, or `None` if it is malformed.
/// Numbers too big for a u64 saturate: they go past any root anyway.
fn parse_suffix(suffix: &str) -> Option<Vec<Step>> {
    let mut steps = Vec::new();
    let mut rest = suffix.as_bytes();
    while let Some((&mark, after)) = rest.split_first() {
        let digits = after.iter().take_while(|b| b.is_ascii_digit()).count();
        let (number, after) = after.split_at(digits);
        let n = (!number.is_empty()).then(|| parse_number(number));
        steps.push(match (mark, n) {
            (b'~', n) => Step::Back(n.unwrap_or(1)),
            (b'^', None | Some(1)) => Step::Back(1),
            (b'^', Some(0)) => Step::Back(0),
            (b'^', Some(n)) => Step::OtherParent(n),
            _ => return None,
        });
        rest = after;
    }
    Some(steps)
}

fn parse_number(digits: &[u8]) -> u64 {
    digits.iter().fold(0u64, |n, d| {
        n.saturating_mul(10).saturating_add(u64::from(d - b'0'))
    })
}

/// Applies `steps` from `start`, left to right.
fn walk(tree: &Tree, text: &str, start: Ix, steps: &[Step]) -> Result<Ix, RevError> {
    let mut at = start;
    for &step in steps {
        at = match step {
            Step::Back(n) => {
                ancestor(tree, at, n).map_err(|(ancestors, root)| RevError::PastRoot {
                    text: text.into(),
                    from: tree.id(at).into(),
                    ancestors,
                    root: tree.id(root).into(),
                })?
            }
            Step::OtherParent(n) => {
                return Err(RevError::NoSecondParent {
                    text: text.into(),
                    n,
                });
            }
        };
    }
    Ok(at)
}

/// The `n`-th ancestor of `ix`, or how many ancestors it has and its root.
/// Stops at the root, so it costs at most the entry's depth whatever `n` is.
fn ancestor(tree: &Tree, ix: Ix, n: u64) -> Result<Ix, (u64, Ix)> {
    let mut at = ix;
    for taken in 0..n {
        match tree.parent(at) {
            Some(parent) => at = parent,
            None => return Err((taken, at)),
        }
    }
    Ok(at)
}

/// Something a name prefix matched.
#[derive(Debug, Clone, Copy)]
enum Match<'a> {
    Entry(Ix),
    Label(&'a str, Ix),
    Branch(&'a str, Ix),
}

impl Match<'_> {
    fn target(self) -> Ix {
        match self {
            Match::Entry(ix) | Match::Label(_, ix) | Match::Branch(_, ix) => ix,
        }
    }

    fn candidate(self, tree: &Tree) -> Candidate {
        match self {
            Match::Entry(ix) => Candidate::Entry {
                id: tree.id(ix).into(),
                ix,
            },
            Match::Label(name, ix) => Candidate::Label {
                name: name.into(),
                on: tree.id(ix).into(),
                ix,
            },
            Match::Branch(name, ix) => Candidate::Branch {
                name: name.into(),
                at: tree.id(ix).into(),
                ix,
            },
        }
    }
}

/// Everything a revision's name can be looked up in.
struct Names<'a> {
    tree: &'a Tree,
    /// Already checked to be in the tree.
    head: Option<Ix>,
    /// The heads that recorded moves left, newest first.
    previous: &'a [Ix],
    branches: &'a [(String, Ix)],
    /// The whole revision, for error messages.
    text: &'a str,
}

impl<'a> Names<'a> {
    /// The entry `name` names exactly: head, id, label, then branch. Each is
    /// one hash lookup but branches, which are few.
    fn exact(&self, name: &str) -> Result<Option<Ix>, RevError> {
        match previous_number(name) {
            Some(Some(n)) => return self.previous_head(n).map(Some),
            Some(None) => {
                return Err(RevError::HugeMove {
                    text: self.text.into(),
                });
            }
            None => {}
        }
        if HEAD_NAMES.contains(&name) {
            return match self.head {
                Some(head) => Ok(Some(head)),
                None => Err(RevError::NoHead {
                    text: self.text.into(),
                }),
            };
        }
        if let Some(ix) = self.tree.find(name).filter(|&ix| self.tree.is_record(ix)) {
            return Err(RevError::Record {
                id: self.tree.id(ix).into(),
                entry: self.tree.parent(ix).map(|p| self.tree.id(p).into()),
            });
        }
        Ok(self
            .tree
            .find(name)
            .or_else(|| self.tree.label(name))
            .or_else(|| self.branch(name)))
    }

    /// HEAD as it was `n` recorded moves ago.
    fn previous_head(&self, n: u64) -> Result<Ix, RevError> {
        let Some(back) = n.checked_sub(1) else {
            return self.head.ok_or_else(|| RevError::NoHead {
                text: self.text.into(),
            });
        };
        usize::try_from(back)
            .ok()
            .and_then(|back| self.previous.get(back))
            .copied()
            .filter(|&ix| in_tree(self.tree, ix))
            .ok_or_else(|| RevError::NoPrevious {
                text: self.text.into(),
                n,
                moves: self.previous.len(),
            })
    }

    fn branch(&self, name: &str) -> Option<Ix> {
        self.branches().find(|&(n, _)| n == name).map(|(_, ix)| ix)
    }

    /// The branches whose tip is in the tree.
    fn branches(&self) -> impl Iterator<Item = (&'a str, Ix)> + 'a {
        let tree = self.tree;
        self.branches
            .iter()
            .filter(move |(_, ix)| in_tree(tree, *ix))
            .map(|(name, ix)| (name.as_str(), *ix))
    }

    /// Resolves `text` when no exact name starts it: by prefix, with the
    /// suffixes after its first `~` or `^`.
    fn loose(&self, text: &str) -> Result<Ix, RevError> {
        let (name, suffix) = text.split_at(text.find(['~', '^']).unwrap_or(text.len()));
        if let Some(steps) = parse_suffix(suffix) {
            let start = self.by_prefix(name, suffix)?;
            return walk(self.tree, text, start, &steps);
        }
        // Not a name and suffixes. Ids may contain `~` and `^`, so the whole
        // text may still be a prefix of one; otherwise, if the part before the
        // suffix names something, the suffix is what is wrong.
        let whole = self.matches(text);
        if whole.is_empty() && !name.is_empty() && !self.matches(name).is_empty() {
            return Err(bad_suffix(text, suffix));
        }
        self.pick(text, "", &whole)
    }

    fn by_prefix(&self, name: &str, suffix: &str) -> Result<Ix, RevError> {
        match (name.is_empty(), suffix.is_empty()) {
            (true, true) => Err(RevError::Empty),
            (true, false) => Err(RevError::NoBase {
                text: self.text.into(),
            }),
            (false, _) => self.pick(name, suffix, &self.matches(name)),
        }
    }

    /// Ids, labels and branch names that start with `prefix`: entries in
    /// file order, then labels in the order of the entries they pick, then
    /// branches. O(n), which is why it comes after the exact lookups.
    fn matches(&self, prefix: &str) -> Vec<Match<'a>> {
        if prefix.is_empty() {
            return Vec::new(); // every name starts with ""
        }
        let tree = self.tree;
        // ysess's records are not the user's to name.
        let entries = tree
            .entries()
            .filter(|&ix| tree.id(ix).starts_with(prefix))
            .map(Match::Entry);
        let mut labels: Vec<(Ix, &'a str)> = tree
            .label_names()
            .into_iter()
            .filter(|name| name.starts_with(prefix))
            .filter_map(|name| Some((tree.label(name)?, name)))
            .collect();
        labels.sort_unstable();
        let labels = labels.into_iter().map(|(ix, name)| Match::Label(name, ix));
        let branches = self
            .branches()
            .filter(|(name, _)| name.starts_with(prefix))
            .map(|(name, ix)| Match::Branch(name, ix));
        entries.chain(labels).chain(branches).collect()
    }

    /// The one entry `matches` name. Matches that all name the same entry,
    /// like a label and its own entry's id, are not ambiguous.
    fn pick(&self, name: &str, suffix: &str, matches: &[Match<'a>]) -> Result<Ix, RevError> {
        let Some(first) = matches.first() else {
            return Err(RevError::Unknown {
                name: name.into(),
                suffix: suffix.into(),
                suggestion: self.suggest(name),
            });
        };
        let target = first.target();
        if matches.iter().all(|m| m.target() == target) {
            return Ok(target);
        }
        Err(RevError::Ambiguous {
            name: name.into(),
            candidates: matches
                .iter()
                .take(MAX_LISTED)
                .map(|m| m.candidate(self.tree))
                .collect(),
            more: matches.len().saturating_sub(MAX_LISTED),
        })
    }

    /// The known name nearest to `name`, if it is close: optimal string
    /// alignment distance (Levenshtein plus adjacent transpositions, the
    /// commonest typo) of at most a third of the length, and at least 1.
    /// Ties go to labels, then branches, then `HEAD`, then ids in file order.
    ///
    /// Ids are considered only in small sessions, and never for a name of
    /// yoagent's `e<N>` form: a mistyped counter id is one edit away from
    /// other real ids, so the suggestion would be an unrelated entry.
    fn suggest(&self, name: &str) -> Option<String> {
        let tree = self.tree;
        let length = name.chars().count();
        let limit = (length / 3).max(1);
        let labels = tree.label_names().into_iter();
        let branches = self.branches().map(|(name, _)| name);
        let use_ids = tree.len() <= MAX_SUGGESTED_IDS
            && crate::format::yoagent::counter_number(name).is_none();
        let ids = tree
            .entries()
            .filter(move |_| use_ids)
            .map(|ix| tree.id(ix));
        let known = labels.chain(branches).chain(["HEAD"]).chain(ids);
        let mut best: Option<(usize, &str)> = None;
        for candidate in known {
            let bound = best.map_or(limit, |(d, _)| d.saturating_sub(1));
            // Cheap length check before the quadratic distance.
            if candidate.chars().count().abs_diff(length) > bound {
                continue;
            }
            let distance = strsim::osa_distance(name, candidate);
            if distance <= bound && distance > 0 {
                best = Some((distance, candidate));
            }
        }
        best.map(|(_, near)| near.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::labeled_tree as tree;

    /// e1 ← e2 ← e3 ← e4 ← e5 (head), with a fork e3 ← e6.
    ///
    /// File order: e1 e2 e3 e4 e6 e5, so e5 is the head.
    fn forked() -> Tree {
        tree(&[
            ("e1", None, None),
            ("e2", Some("e1"), Some("first-draft")),
            ("e3", Some("e2"), None),
            ("e4", Some("e3"), None),
            ("e6", Some("e3"), Some("side")),
            ("e5", Some("e4"), None),
        ])
    }

    fn ix(t: &Tree, id: &str) -> Ix {
        t.find(id).expect("id in tree")
    }

    fn res(t: &Tree, text: &str) -> Result<Ix, RevError> {
        resolve(t, t.head(), &[], text)
    }

    fn id_of(t: &Tree, text: &str) -> String {
        match res(t, text) {
            Ok(found) => t.id(found).to_owned(),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    /// The name a revision error suggests instead, with the suffixes typed.
    fn suggestion(e: &RevError) -> Option<String> {
        match e {
            RevError::Unknown {
                suffix,
                suggestion: Some(near),
                ..
            } => Some(format!("{near}{suffix}")),
            RevError::NoBase { text } => Some(format!("HEAD{text}")),
            _ => None,
        }
    }

    fn err(t: &Tree, text: &str) -> RevError {
        res(t, text).expect_err(text)
    }

    #[test]
    fn head_and_at_name_the_given_head() {
        let t = forked();
        assert_eq!(id_of(&t, "HEAD"), "e5");
        assert_eq!(id_of(&t, "@"), "e5");
        let e6 = ix(&t, "e6");
        assert_eq!(resolve(&t, Some(e6), &[], "HEAD"), Ok(e6));
        assert_eq!(resolve(&t, Some(e6), &[], "@^"), Ok(ix(&t, "e3")));
    }

    #[test]
    fn earlier_heads_come_from_the_reflog() {
        let t = forked();
        let previous = [ix(&t, "e6"), ix(&t, "e2")];
        let at = |text: &str| resolve_at(&t, t.head(), &previous, &[], text);
        assert_eq!(at("@-"), Ok(ix(&t, "e6")));
        assert_eq!(at("HEAD@{1}"), Ok(ix(&t, "e6")));
        assert_eq!(at("@{2}"), Ok(ix(&t, "e2")));
        assert_eq!(at("HEAD@{0}"), Ok(ix(&t, "e5")));
        assert_eq!(at("@-~2"), Ok(ix(&t, "e2")));
        assert_eq!(at("HEAD@{2}^"), Ok(ix(&t, "e1")));
        let e = at("HEAD@{3}").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'HEAD@{3}' asks for HEAD move 3, but ysess recorded only 2"
        );
        assert!(
            matches!(e, RevError::NoPrevious { n: 3, moves: 2, .. }),
            "{e:?}"
        );
        let e = resolve(&t, t.head(), &[], "@-").unwrap_err();
        assert_eq!(
            e.to_string(),
            "'@-' asks for HEAD move 1, but ysess recorded none"
        );
        assert!(matches!(at("HEAD@{x}"), Err(RevError::Unknown { .. })));
        let e = at("HEAD@{99999999999999999999}").unwrap_err();
        assert!(matches!(e, RevError::HugeMove { .. }), "{e}");
        assert!(!e.to_string().contains("18446744073709551615"), "{e}");
    }

    #[test]
    fn head_with_suffixes() {
        let t = forked();
        assert_eq!(id_of(&t, "HEAD~"), "e4");
        assert_eq!(id_of(&t, "HEAD~2"), "e3");
        assert_eq!(id_of(&t, "@^^"), "e3");
        assert_eq!(id_of(&t, "@~1^1"), "e3");
        assert_eq!(id_of(&t, "HEAD^0"), "e5");
        assert_eq!(id_of(&t, "HEAD~0"), "e5");
        assert_eq!(id_of(&t, "@~4"), "e1");
    }

    #[test]
    fn ids_labels_and_branches() {
        let t = forked();
        assert_eq!(id_of(&t, "e4"), "e4");
        assert_eq!(id_of(&t, "first-draft"), "e2");
        let branches = [("main".to_owned(), ix(&t, "e4"))];
        assert_eq!(resolve(&t, t.head(), &branches, "main~1"), Ok(ix(&t, "e3")));
    }

    #[test]
    fn suffix_chains() {
        let t = forked();
        assert_eq!(id_of(&t, "e5~2^"), "e2");
        assert_eq!(id_of(&t, "first-draft~1"), "e1");
        assert_eq!(id_of(&t, "side^"), "e3");
        assert_eq!(id_of(&t, "e6~~"), "e2");
        assert_eq!(id_of(&t, "e5~001"), "e4");
    }

    #[test]
    fn the_last_carrier_of_a_label_wins() {
        let t = tree(&[
            ("e1", None, Some("cp")),
            ("e2", Some("e1"), Some("cp")),
            ("e3", Some("e1"), None),
        ]);
        assert_eq!(id_of(&t, "cp"), "e2");
        // The earlier carrier is no candidate for a prefix either.
        assert_eq!(id_of(&t, "c"), "e2");
    }

    #[test]
    fn an_id_beats_a_label_of_the_same_name() {
        let t = tree(&[("e1", None, Some("e2")), ("e2", Some("e1"), None)]);
        assert_eq!(id_of(&t, "e2"), "e2");
    }

    #[test]
    fn a_label_beats_a_prefix_of_ids() {
        let t = tree(&[
            ("e10", None, None),
            ("e11", Some("e10"), None),
            ("x", Some("e11"), Some("e1")),
        ]);
        assert_eq!(id_of(&t, "e1"), "x");
    }

    #[test]
    fn a_label_beats_a_branch_of_the_same_name() {
        let t = forked();
        let branches = [("side".to_owned(), ix(&t, "e1"))];
        assert_eq!(resolve(&t, t.head(), &branches, "side"), Ok(ix(&t, "e6")));
    }

    #[test]
    fn a_branch_beats_a_prefix() {
        let t = forked();
        let branches = [("e".to_owned(), ix(&t, "e4"))];
        assert_eq!(resolve(&t, t.head(), &branches, "e"), Ok(ix(&t, "e4")));
    }

    #[test]
    fn head_beats_an_id_named_head() {
        let t = tree(&[("HEAD", None, None), ("e2", Some("HEAD"), None)]);
        assert_eq!(id_of(&t, "HEAD"), "e2");
    }

    #[test]
    fn unique_prefixes() {
        let t = tree(&[
            ("abc123", None, None),
            ("abd456", Some("abc123"), Some("release")),
        ]);
        assert_eq!(id_of(&t, "abc"), "abc123");
        assert_eq!(id_of(&t, "abd~1"), "abc123");
        assert_eq!(id_of(&t, "rel"), "abd456");
        // A label and the id of its own entry are the same choice.
        let t = tree(&[("e1", None, None), ("e12", Some("e1"), Some("e1x"))]);
        assert_eq!(resolve(&t, None, &[], "e1"), Ok(ix(&t, "e1")));
        let t = tree(&[("a", None, None), ("e12", Some("a"), Some("e1x"))]);
        assert_eq!(id_of(&t, "e1"), "e12");
    }

    #[test]
    fn ambiguity_lists_what_each_candidate_is() {
        let t = tree(&[
            ("e1", None, None),
            ("e4", Some("e1"), Some("x1")),
            ("x12", Some("e4"), None),
        ]);
        let branches = [("x1b".to_owned(), ix(&t, "e1"))];
        let e = resolve(&t, t.head(), &branches, "x").unwrap_err();
        assert_eq!(
            e.to_string(),
            "ambiguous revision 'x': it could be entry x12, label x1 on e4 or branch x1b at e1"
        );
        let RevError::Ambiguous {
            name,
            candidates,
            more,
        } = e
        else {
            panic!("not ambiguous")
        };
        assert_eq!(name, "x");
        assert_eq!(more, 0);
        assert_eq!(
            candidates[1],
            Candidate::Label {
                name: "x1".into(),
                on: "e4".into(),
                ix: 1
            }
        );
    }

    #[test]
    fn ambiguity_lists_ten_and_counts_the_rest() {
        let ids: Vec<String> = (1..=25).map(|n| format!("e{n}")).collect();
        let entries: Vec<_> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.as_str(), i.checked_sub(1).map(|p| ids[p].as_str()), None))
            .collect();
        let t = tree(&entries);
        // e1 is an id, so `e` is the ambiguous one: 25 entries.
        let e = err(&t, "e");
        assert_eq!(
            e.to_string(),
            "ambiguous revision 'e': it could be entry e1, entry e2, entry e3, entry e4, \
             entry e5, entry e6, entry e7, entry e8, entry e9, entry e10 or 15 more"
        );
        // Suffixes come after the prefix and are not part of the name.
        let e = err(&t, "e~1");
        assert!(e.to_string().starts_with("ambiguous revision 'e': "), "{e}");
    }

    #[test]
    fn unknown_names_get_the_nearest_label() {
        let t = forked();
        let e = err(&t, "frist-draft");
        assert_eq!(e.to_string(), "unknown revision 'frist-draft'");
        assert_eq!(suggestion(&e).as_deref(), Some("first-draft"));
        // The suggestion keeps the suffixes, so it can be pasted as is.
        let e = err(&t, "frist-draft~2");
        assert_eq!(e.to_string(), "unknown revision 'frist-draft'");
        assert_eq!(suggestion(&e).as_deref(), Some("first-draft~2"));
        assert_eq!(suggestion(&err(&t, "HAED")).as_deref(), Some("HEAD"));
        // Nothing close: the syntax instead.
        let e = err(&t, "zzzzzz");
        assert!(
            matches!(
                e,
                RevError::Unknown {
                    suggestion: None,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn unknown_names_get_the_nearest_branch() {
        let t = forked();
        let branches = [("feature".to_owned(), ix(&t, "e6"))];
        let e = resolve(&t, t.head(), &branches, "featrue").unwrap_err();
        assert_eq!(suggestion(&e).as_deref(), Some("feature"));
    }

    #[test]
    fn unknown_ids_get_the_nearest_id_but_not_counter_ids() {
        let t = tree(&[
            ("3f2a9c1e", None, None),
            ("7b00d4aa", Some("3f2a9c1e"), None),
        ]);
        assert_eq!(
            suggestion(&err(&t, "3f2a9cle")).as_deref(),
            Some("3f2a9c1e")
        );
        let t = forked();
        let e = err(&t, "e7");
        assert_eq!(e.to_string(), "unknown revision 'e7'");
        assert!(
            matches!(
                e,
                RevError::Unknown {
                    suggestion: None,
                    ..
                }
            ),
            "{e:?}"
        );
    }

    #[test]
    fn past_the_root() {
        let t = forked();
        let e = err(&t, "e3~5");
        assert_eq!(
            e.to_string(),
            "'e3~5' goes past the root: e3 has only 2 ancestors"
        );
        assert!(
            matches!(&e, RevError::PastRoot { ancestors: 2, root, .. } if root == "e1"),
            "{e:?}"
        );
        // The failing step is reported from where it started.
        let e = err(&t, "e5~2~5");
        assert_eq!(
            e.to_string(),
            "'e5~2~5' goes past the root: e3 has only 2 ancestors"
        );
        assert_eq!(
            err(&t, "e2^^").to_string(),
            "'e2^^' goes past the root: e1 has no ancestors"
        );
        assert_eq!(
            err(&t, "e2~2").to_string(),
            "'e2~2' goes past the root: e2 has only 1 ancestor"
        );
        assert!(matches!(
            err(&t, "e1^"),
            RevError::PastRoot { ancestors: 0, .. }
        ));
        let huge = err(&t, "HEAD~99999999999999999999999");
        assert!(matches!(huge, RevError::PastRoot { ancestors: 4, .. }));
    }

    #[test]
    fn malformed_suffixes() {
        let t = forked();
        let e = err(&t, "e3~x");
        assert_eq!(e.to_string(), "malformed suffix '~x' in 'e3~x'");
        assert!(
            matches!(
                e,
                RevError::BadSuffix { .. } | RevError::NoSecondParent { .. }
            ),
            "{e:?}"
        );
        assert!(matches!(err(&t, "HEAD^-1"), RevError::BadSuffix { .. }));
        assert!(matches!(err(&t, "e3~1 "), RevError::BadSuffix { .. }));
        // A prefix followed by a bad suffix: the suffix is what is wrong.
        let t = tree(&[("abc", None, None)]);
        assert_eq!(
            err(&t, "ab~x"),
            RevError::BadSuffix {
                text: "ab~x".into(),
                suffix: "~x".into()
            }
        );
        // Nothing before it matches either: an unknown name.
        assert!(matches!(err(&t, "zz~x"), RevError::Unknown { .. }));
    }

    #[test]
    fn second_parents_do_not_exist() {
        let t = forked();
        let e = err(&t, "e3^2");
        assert_eq!(
            e.to_string(),
            "'e3^2' asks for parent 2, but an entry has only one parent"
        );
        assert!(
            matches!(
                e,
                RevError::BadSuffix { .. } | RevError::NoSecondParent { .. }
            ),
            "{e:?}"
        );
        // An unknown name is the first problem to report.
        assert!(matches!(err(&t, "zz^2"), RevError::Unknown { .. }));
    }

    #[test]
    fn ids_containing_suffix_marks() {
        let t = tree(&[
            ("a", None, None),
            ("a~1", Some("a"), None),
            ("b^", Some("a~1"), None),
            ("c", Some("b^"), Some("v~2")),
            ("long~id~x", Some("c"), None),
        ]);
        assert_eq!(id_of(&t, "a~1"), "a~1"); // the id, not a's parent
        assert_eq!(id_of(&t, "b^"), "b^");
        assert_eq!(id_of(&t, "b^^"), "a~1");
        assert_eq!(id_of(&t, "a~1~1"), "a");
        assert_eq!(id_of(&t, "v~2"), "c"); // the label
        assert_eq!(id_of(&t, "v~2~3"), "a");
        assert_eq!(id_of(&t, "long~id~x^"), "c");
        // A prefix of an id that contains a mark.
        assert_eq!(id_of(&t, "long~i"), "long~id~x");
    }

    #[test]
    fn an_empty_id_is_a_name_like_any() {
        let t = tree(&[("", None, None), ("e2", Some(""), None)]);
        assert_eq!(res(&t, ""), Ok(0));
        assert_eq!(res(&t, "~0"), Ok(0));
        assert!(matches!(err(&t, "~1"), RevError::PastRoot { .. }));
        assert_eq!(id_of(&t, "e2^"), "");
    }

    #[test]
    fn empty_texts_and_missing_names() {
        let t = forked();
        assert_eq!(err(&t, ""), RevError::Empty);
        assert_eq!(err(&t, "").to_string(), "empty revision");
        let e = err(&t, "~2");
        assert_eq!(e.to_string(), "revision '~2' has no name before '~'");
        assert_eq!(suggestion(&e).as_deref(), Some("HEAD~2"));
        assert_eq!(
            err(&t, "^").to_string(),
            "revision '^' has no name before '^'"
        );
    }

    #[test]
    fn an_empty_session_names_nothing() {
        let t = tree(&[]);
        for text in ["HEAD", "@", "@~1", "e1", ""] {
            let e = resolve(&t, None, &[], text).unwrap_err();
            assert_eq!(e, RevError::EmptySession { text: text.into() });
        }
        assert_eq!(
            resolve(&t, None, &[], "HEAD").unwrap_err().to_string(),
            "the session is empty: 'HEAD' names no entry"
        );
    }

    #[test]
    fn a_missing_or_bad_head_is_no_head() {
        let t = forked();
        let e = resolve(&t, None, &[], "HEAD~1").unwrap_err();
        assert_eq!(e.to_string(), "'HEAD~1' names no entry: there is no head");
        assert!(matches!(
            resolve(&t, Some(99), &[], "@"),
            Err(RevError::NoHead { .. })
        ));
        // Ids still resolve without a head.
        assert_eq!(resolve(&t, None, &[], "e2"), Ok(1));
    }

    #[test]
    fn branches_outside_the_tree_are_ignored() {
        let t = forked();
        let branches = [("gone".to_owned(), 1000)];
        assert!(matches!(
            resolve(&t, t.head(), &branches, "gone"),
            Err(RevError::Unknown { .. })
        ));
        assert!(resolve(&t, t.head(), &branches, "go").is_err());
    }

    /// Random texts over an alphabet rich in the syntax's own characters
    /// never panic, and whatever resolves is an entry of the tree.
    #[test]
    fn random_texts_never_panic() {
        let t = tree(&[
            ("e1", None, Some("cp")),
            ("e2", Some("e1"), None),
            ("", Some("e2"), Some("~")),
            ("a~b^", Some(""), Some("é~1")),
            ("é", Some("e1"), Some("cp")),
            ("HEAD~1", Some("é"), None),
            ("@", None, None),
        ]);
        let alphabet: Vec<char> = "e12~^@HEADcpab0é9 \u{0}\n~^^".chars().collect();
        let branches = [("b~".to_owned(), 2), ("bad".to_owned(), Ix::MAX)];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let len = (next() % 12) as usize;
            let text: String = (0..len)
                .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                .collect();
            let head = match next() % 3 {
                0 => None,
                1 => Some((next() % 8) as Ix),
                _ => t.head(),
            };
            match resolve(&t, head, &branches, &text) {
                Ok(found) => assert!((found as usize) < t.len(), "{text:?}"),
                Err(e) => {
                    let _ = e.to_string();
                }
            }
        }
    }
}
