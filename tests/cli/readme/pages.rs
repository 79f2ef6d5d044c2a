//! The manual's pages: README.md and every page of the mdBook in `docs/`,
//! read at test time. The book's `SUMMARY.md` must list every page and
//! only pages that exist, and every link between pages (and into a
//! heading of one) must lead somewhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One Markdown page of the manual.
pub struct Page {
    /// Its path from the repository's root (`README.md`,
    /// `docs/commands/log.md`), as failures name it.
    pub name: String,
    pub text: String,
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(name: &str) -> Page {
    let text = std::fs::read_to_string(root().join(name))
        .unwrap_or_else(|e| panic!("{name} cannot be read: {e}"));
    Page {
        name: name.to_string(),
        text,
    }
}

/// README.md.
pub fn readme() -> Page {
    read("README.md")
}

/// Every `*.md` page under `docs/` but `SUMMARY.md`, sorted by path.
/// Fails when there is none: the manual cannot have gone missing unseen.
pub fn docs() -> Vec<Page> {
    let mut names = Vec::new();
    let mut dirs = vec![root().join("docs")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{} cannot be listed: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a docs/ entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                let name = path.strip_prefix(root()).expect("under the root");
                names.push(name.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    names.retain(|n| n != "docs/SUMMARY.md");
    names.sort();
    assert!(!names.is_empty(), "docs/ holds no page of the manual");
    names.iter().map(|n| read(n)).collect()
}

/// README.md, then every page of `docs/`.
pub fn all() -> Vec<Page> {
    let mut pages = vec![readme()];
    pages.extend(docs());
    pages
}

/// The whole manual as one text, for what must be said somewhere in it.
pub fn manual() -> String {
    all().into_iter().map(|p| p.text + "\n").collect()
}

/// The lines of a page outside fenced code blocks, with their index from 0
/// (a fence closes on a line of at least as many backticks and nothing
/// else).
fn outside_code(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<usize> = None;
    text.lines().enumerate().filter(move |(_, line)| {
        let trimmed = line.trim_start();
        let ticks = trimmed.len() - trimmed.trim_start_matches('`').len();
        if ticks >= 3 {
            match fence {
                None => fence = Some(ticks),
                Some(open) if ticks >= open && trimmed[ticks..].trim().is_empty() => fence = None,
                Some(_) => {}
            }
            return false;
        }
        fence.is_none()
    })
}

/// The relative links of a page, `[text](target)`, outside code: (line,
/// target). Links with a scheme (`https:`) or to an image are left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, line) in outside_code(text) {
        // Inline code spans hold no links.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(n, _)| n % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = &after[..end];
            let image = rest[..at]
                .rfind("![")
                .is_some_and(|b| !rest[b..at].contains(']'));
            if !target.contains(':') && !image {
                out.push((i + 1, target.to_string()));
            }
            rest = &after[end..];
        }
    }
    out
}

/// The anchors of a page's headings, as GitHub and mdBook make them:
/// lower case, punctuation dropped, spaces as `-`, `-1`, `-2` after repeats.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = BTreeSet::new();
    for (_, line) in outside_code(text) {
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        let heading = heading.trim_start_matches('#');
        if !heading.starts_with(' ') {
            continue;
        }
        let slug: String = heading
            .trim()
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ' '))
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        let n = seen.entry(slug.clone()).or_insert(0);
        out.insert(if *n == 0 {
            slug.clone()
        } else {
            format!("{slug}-{n}")
        });
        *n += 1;
    }
    out
}

/// `target` of a link on page `from`, as a path from the root and an anchor.
fn resolve(from: &str, target: &str) -> (PathBuf, Option<String>) {
    let (path, anchor) = match target.split_once('#') {
        Some((p, a)) => (p, Some(a.to_string())),
        None => (target, None),
    };
    if path.is_empty() {
        return (PathBuf::from(from), anchor);
    }
    let mut out = PathBuf::from(from);
    out.pop();
    for part in path.split('/') {
        match part {
            "." | "" => {}
            ".." => {
                out.pop();
            }
            part => out.push(part),
        }
    }
    (out, anchor)
}

/// What is wrong with the links of `pages`: a target that does not exist,
/// or an anchor that no heading of its page makes.
fn broken_links(pages: &[Page]) -> Vec<String> {
    let mut problems = Vec::new();
    for page in pages {
        for (line, target) in links(&page.text) {
            let (path, anchor) = resolve(&page.name, &target);
            let full = root().join(&path);
            if !full.exists() {
                problems.push(format!("{}:{line}: {target}: no such file", page.name));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            if path.extension().is_none_or(|x| x != "md") {
                continue;
            }
            let text = std::fs::read_to_string(&full).expect("a linked page reads");
            if !anchors(&text).contains(&anchor) {
                problems.push(format!(
                    "{}:{line}: {target}: no heading of {} makes #{anchor}",
                    page.name,
                    path.display()
                ));
            }
        }
    }
    problems
}

#[test]
fn readme_summary_lists_every_docs_page_and_only_pages_that_exist() {
    let summary = read("docs/SUMMARY.md");
    let listed: BTreeSet<String> = links(&summary.text)
        .into_iter()
        .map(|(_, target)| {
            let (path, _) = resolve(&summary.name, &target);
            path.to_string_lossy().replace('\\', "/")
        })
        .collect();
    let pages: BTreeSet<String> = docs().into_iter().map(|p| p.name).collect();
    let unlisted: Vec<&String> = pages.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "docs/SUMMARY.md does not list {unlisted:?}: the book would leave them out"
    );
    let missing: Vec<&String> = listed.difference(&pages).collect();
    assert!(
        missing.is_empty(),
        "docs/SUMMARY.md lists {missing:?}, which are not pages of docs/"
    );
    let book = std::fs::read_to_string(root().join("docs/book.toml")).expect("docs/book.toml");
    assert!(book.contains("src = \".\""), "book.toml: {book}");
}

#[test]
fn readme_links_into_docs_and_between_pages_lead_somewhere() {
    let readme = readme();
    let into_docs = links(&readme.text)
        .iter()
        .filter(|(_, t)| t.starts_with("docs/"))
        .count();
    assert!(
        into_docs >= 20,
        "README.md links to only {into_docs} pages of docs/; it should point at the manual"
    );
    let mut pages = all();
    pages.push(read("docs/SUMMARY.md"));
    let problems = broken_links(&pages);
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn readme_link_checker_sees_files_and_anchors() {
    let text = "# A `b`: c\n\n## A b c\n\n```sh\n# not a heading\n```\n\nsee [x](../y.md#z) and `[no](code)` ![img](p.png) [web](https://a)\n";
    assert_eq!(
        anchors(text),
        BTreeSet::from(["a-b-c".to_string(), "a-b-c-1".to_string()])
    );
    assert_eq!(links(text), [(9, "../y.md#z".to_string())]);
    assert_eq!(
        resolve("docs/commands/log.md", "../revisions.md#ranges"),
        (PathBuf::from("docs/revisions.md"), Some("ranges".into()))
    );
    let broken = broken_links(&[Page {
        name: "docs/x.md".into(),
        text: "[a](nowhere.md) [b](commands/log.md#no-such-heading) [c](commands/log.md#filters)"
            .into(),
    }]);
    assert_eq!(broken.len(), 2, "{broken:?}");
}
