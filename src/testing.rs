//! What the unit tests share.

/// Texts that JSON and terminals treat specially: escapes, characters of
/// every UTF-8 length, a surrogate pair's, control characters.
pub const ODD_TEXTS: [&str; 6] = [
    "",
    "plain",
    "é漢🙂",
    "line\nbreak\ttab \"quoted\" back\\slash /",
    "\u{1b}[2J\u{9b}\u{202e}\u{0}",
    "𝄞 and \u{10FFFF}",
];

/// A xorshift generator: random trees that are the same on every run,
/// without a dependency.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// A tree of user entries from `(id, parent, label)` triples in file order
/// (entry `i` on line `i + 1`).
pub fn labeled_tree(entries: &[(&str, Option<&str>, Option<&str>)]) -> crate::tree::Tree {
    let mut builder = crate::tree::TreeBuilder::default();
    for (i, &(id, parent, label)) in entries.iter().enumerate() {
        builder
            .push(crate::tree::NewEntry {
                id,
                parent,
                label,
                timestamp: 0,
                kind: crate::format::MessageKind::User,
                line: i as u64 + 1,
                offset: 0,
                len: 0,
                tag: None,
                subject: None,
                record: false,
                target: None,
            })
            .expect("test trees are valid");
    }
    builder.finish()
}

/// The same from `(id, parent)` pairs: no labels.
pub fn tree(entries: &[(&str, Option<&str>)]) -> crate::tree::Tree {
    let triples: Vec<_> = entries.iter().map(|&(id, p)| (id, p, None)).collect();
    labeled_tree(&triples)
}

/// The text of every `*.jsonl` file below `tests/fixtures/<under>` (any
/// depth), bytes that are not UTF-8 replaced.
pub fn fixture_texts(under: &str) -> Vec<String> {
    let mut texts = Vec::new();
    let mut dirs = vec![
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(under),
    ];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir)
            .expect("the fixtures are there")
            .flatten()
        {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "jsonl") {
                let bytes = std::fs::read(&path).expect("a fixture reads");
                texts.push(String::from_utf8_lossy(&bytes).into_owned());
            }
        }
    }
    texts
}
