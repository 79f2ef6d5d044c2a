//! Short ids for people: the shortest prefix of a long id that no other id
//! of the session starts with, and never fewer than [`MIN_LEN`] characters,
//! as git abbreviates object names. A Claude Code line's id is a 36-character
//! UUID; a graph row is then mostly id. Ids of [`MIN_LEN`] characters or
//! fewer (yoagent's `e12`, pi's 8-hex ids) are shown whole. `--json` always
//! carries full ids, and every unique prefix resolves as a revision.

use std::sync::OnceLock;

use hashbrown::HashMap;

use super::{Ix, Tree};

/// The fewest characters a short id has.
pub const MIN_LEN: usize = 8;

/// The lengths of the ids whose first [`MIN_LEN`] characters another id
/// shares, found once, on the first question: most sessions have none, and
/// a session whose ids are all short never pays for the look.
#[derive(Debug, Default)]
pub(super) struct Abbrev {
    longer: OnceLock<HashMap<Ix, usize>>,
}

/// The byte length of the first `chars` characters of `id` (all of it when
/// it is shorter).
fn prefix_len(id: &str, chars: usize) -> usize {
    id.char_indices().nth(chars).map_or(id.len(), |(at, _)| at)
}

/// Characters two ids share at their start.
fn common_chars(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

impl Abbrev {
    fn longer(&self, tree: &Tree) -> &HashMap<Ix, usize> {
        self.longer.get_or_init(|| {
            // Ids of MIN_LEN characters or more, grouped by their first
            // MIN_LEN characters; shorter ids cannot be taken for a prefix
            // of that length.
            let mut groups: HashMap<&str, Vec<Ix>> = HashMap::new();
            for ix in 0..tree.len() as Ix {
                let id = tree.id(ix);
                let cut = prefix_len(id, MIN_LEN);
                if id[..cut].chars().count() == MIN_LEN {
                    groups.entry(&id[..cut]).or_default().push(ix);
                }
            }
            let mut longer = HashMap::new();
            for mut group in groups.into_values().filter(|g| g.len() > 1) {
                group.sort_unstable_by(|&a, &b| tree.id(a).cmp(tree.id(b)));
                for (at, &ix) in group.iter().enumerate() {
                    let id = tree.id(ix);
                    let before = at.checked_sub(1).map(|b| tree.id(group[b]));
                    let after = group.get(at + 1).map(|&a| tree.id(a));
                    let shared = [before, after]
                        .into_iter()
                        .flatten()
                        .map(|other| common_chars(id, other))
                        .max()
                        .unwrap_or(0);
                    longer.insert(ix, prefix_len(id, shared + 1));
                }
            }
            longer
        })
    }
}

impl Tree {
    /// The id of an entry as a person reads it: the shortest prefix no other
    /// id of the session starts with, at least [`MIN_LEN`] characters (the
    /// whole id when it is that short). Use [`Tree::id`] wherever a program
    /// reads the id (`--json`, files ysess writes).
    pub fn short_id(&self, ix: Ix) -> &str {
        let id = self.id(ix);
        if id.len() <= MIN_LEN {
            return id;
        }
        let cut = match self.abbrev.longer(self).get(&ix) {
            Some(&len) => len,
            None => prefix_len(id, MIN_LEN),
        };
        &id[..cut]
    }
}

/// Whether `c` may be part of an id as ids are written in prose (a UUID,
/// `e12`, pi's hex ids).
fn id_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The words of `text` made of id characters, with where they start.
fn words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(|c: char| !id_char(c))
        .filter(|w| !w.is_empty())
        .map(move |w| (w.as_ptr() as usize - text.as_ptr() as usize, w))
}

impl Tree {
    /// The ids of this tree's entries that `text` names (as whole words)
    /// and that a person reads shorter, each with its short form: what
    /// [`shorten`] needs to say `text` with short ids once the tree is gone.
    pub fn long_ids_in(&self, text: &str) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = words(text)
            .filter(|(_, w)| w.len() > MIN_LEN)
            .filter_map(|(_, w)| {
                let short = self.short_id(self.find(w)?);
                (short != w).then(|| (w.to_string(), short.to_string()))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// `text` with each id of `pairs` (sorted, as [`Tree::long_ids_in`] gives
/// them) that stands as a whole word in it replaced by its short form.
pub fn shorten<'a>(text: &'a str, pairs: &[(String, String)]) -> std::borrow::Cow<'a, str> {
    if pairs.is_empty() {
        return text.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for (at, word) in words(text) {
        if let Ok(k) = pairs.binary_search_by(|(id, _)| id.as_str().cmp(word)) {
            out.push_str(&text[from..at]);
            out.push_str(&pairs[k].1);
            from = at + word.len();
        }
    }
    if from == 0 {
        return text.into();
    }
    out.push_str(&text[from..]);
    out.into()
}

#[cfg(test)]
mod tests {
    use crate::testing::tree as tree_of;

    #[test]
    fn short_ids_are_eight_characters_unless_another_id_shares_them() {
        let tree = tree_of(&[
            ("e1", None),
            ("3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b", Some("e1")),
            ("3f2a9c1b-0d4f-4000-8000-000000000000", Some("e1")),
            ("7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd", Some("e1")),
            ("abcdefgh", Some("e1")),
            ("abcdefghij", Some("e1")),
        ]);
        let short: Vec<&str> = (0..tree.len() as u32).map(|ix| tree.short_id(ix)).collect();
        assert_eq!(
            short,
            [
                "e1",
                "3f2a9c1b-0d4e",
                "3f2a9c1b-0d4f",
                "7c1d2e3f",
                "abcdefgh",
                "abcdefghi",
            ]
        );
    }

    #[test]
    fn prose_names_ids_short_once_the_tree_is_gone() {
        let tree = tree_of(&[
            ("3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b", None),
            (
                "7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd",
                Some("3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b"),
            ),
        ]);
        let text = "entry 7c1d2e3f-aaaa-4bbb-8ccc-dddddddddddd: parent \
                    3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6b, not 3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6bx";
        let pairs = tree.long_ids_in(text);
        assert_eq!(pairs.len(), 2);
        assert_eq!(
            super::shorten(text, &pairs),
            "entry 7c1d2e3f: parent 3f2a9c1b, not 3f2a9c1b-0d4e-4c3b-9a55-1c2d3e4f5a6bx"
        );
    }

    #[test]
    fn short_ids_count_characters_not_bytes() {
        let tree = tree_of(&[("ééééééééé-1", None), ("ééééééééé-2", Some("ééééééééé-1"))]);
        assert_eq!(tree.short_id(0), "ééééééééé-1");
        assert_eq!(tree.short_id(1), "ééééééééé-2");
        let tree = tree_of(&[("éééééééé-one", None)]);
        assert_eq!(tree.short_id(0), "éééééééé");
    }
}
