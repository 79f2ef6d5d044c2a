//! A format is one folder: no file outside `src/format/` names a variant of
//! `Format` (the registry in `src/format/mod.rs` is the one place that
//! does), and each variant's answers live in its folder's `impl Spec`.

use std::path::{Path, PathBuf};

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The variants of `pub enum Format`, as the registry declares them.
fn variants() -> Vec<String> {
    let registry = std::fs::read_to_string(src().join("format/mod.rs")).expect("the registry");
    let body = registry
        .split("pub enum Format {")
        .nth(1)
        .and_then(|rest| rest.split("\n}").next())
        .expect("the registry declares `pub enum Format`");
    body.lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//") && !l.starts_with("#[") && !l.is_empty())
        .map(|l| l.trim_end_matches(',').to_string())
        .collect()
}

#[test]
fn no_file_outside_src_format_names_a_format_variant() {
    let variants = variants();
    assert!(variants.len() >= 4, "{variants:?}");
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let format_dir = src().join("format");
    let mut named = Vec::new();
    for file in files.iter().filter(|f| !f.starts_with(&format_dir)) {
        let text = std::fs::read_to_string(file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            for v in &variants {
                let needle = format!("Format::{v}");
                let at_word_end = |i: usize| {
                    line[i + needle.len()..]
                        .chars()
                        .next()
                        .is_none_or(|c| !c.is_alphanumeric() && c != '_')
                };
                if line.match_indices(&needle).any(|(i, _)| at_word_end(i)) {
                    named.push(format!(
                        "{}:{}: {}",
                        file.strip_prefix(src()).unwrap_or(file).display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        named.is_empty(),
        "{} places outside src/format/ name a format's variant (ask the format through `Format::spec`):\n{}",
        named.len(),
        named.join("\n")
    );
}

#[test]
fn every_format_is_a_folder_that_answers_for_itself() {
    for v in variants() {
        let folder = src().join("format").join(v.to_lowercase());
        let mut files = Vec::new();
        rust_files(&folder, &mut files);
        let answers = files.iter().any(|f| {
            std::fs::read_to_string(f).is_ok_and(|t| t.contains(&format!("impl Spec for {v} ")))
        });
        assert!(
            answers,
            "format {v}: no `impl Spec for {v}` in {}",
            folder.display()
        );
    }
}
