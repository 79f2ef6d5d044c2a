//! `--format` templates: text with `{placeholder}`s, one engine for every
//! command that takes one. Each command brings its own table of
//! placeholders ([`Placeholders`]) and says what each stands for when it
//! renders; `{n}`, `{tab}`, `{nul}` and `{{` are the same everywhere.

/// A command's placeholders: an enum with one variant per placeholder.
pub trait Placeholders: Copy + 'static {
    /// Every placeholder: itself, its name and what it stands for, in the
    /// order `--help` lists them.
    const ALL: &'static [(Self, &'static str, &'static str)];
}

/// The characters every template may name.
const CHARACTERS: &[(&str, char, &str)] = &[
    ("n", '\n', "a newline"),
    ("tab", '\t', "a tab"),
    ("nul", '\0', "a NUL byte"),
    ("{", '{', "a `{`"),
];

/// A parsed template.
pub struct Template<P> {
    parts: Vec<Part<P>>,
}

enum Part<P> {
    Text(String),
    Field(P),
}

impl<P: Placeholders> Template<P> {
    /// Parses `text`; an unknown placeholder or a `{` without `}` is an
    /// error that lists the known ones.
    pub fn parse(text: &str) -> Result<Template<P>, String> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            literal.push_str(&rest[..open]);
            let Some(close) = rest[open..].find('}') else {
                return Err(format!("--format: `{{` without `}}` in '{text}'"));
            };
            let name = &rest[open + 1..open + close];
            rest = &rest[open + close + 1..];
            if let Some((_, c, _)) = CHARACTERS.iter().find(|(n, _, _)| *n == name) {
                literal.push(*c);
                continue;
            }
            let Some((field, _, _)) = P::ALL.iter().find(|(_, n, _)| *n == name) else {
                let known: Vec<String> = names::<P>().map(|n| format!("{{{n}}}")).collect();
                return Err(format!(
                    "--format: unknown placeholder {{{name}}}; known: {}",
                    known.join(" ")
                ));
            };
            if !literal.is_empty() {
                parts.push(Part::Text(std::mem::take(&mut literal)));
            }
            parts.push(Part::Field(*field));
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(Template { parts })
    }

    /// Whether any placeholder of the template is one `which` picks.
    pub fn uses(&self, which: impl Fn(P) -> bool) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Field(f) if which(*f)))
    }

    /// The template filled in: `value` gives each placeholder's text (the
    /// command escapes session text there).
    pub fn render(&self, mut value: impl FnMut(P) -> String) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Field(f) => out.push_str(&value(*f)),
            }
        }
        out
    }
}

/// Every name a template of `P` may use, placeholders then characters.
fn names<P: Placeholders>() -> impl Iterator<Item = &'static str> {
    P::ALL
        .iter()
        .map(|(_, n, _)| *n)
        .chain(CHARACTERS.iter().map(|(n, _, _)| *n))
}

/// `--format`'s long help: `intro`, then every placeholder and what it
/// stands for.
pub fn help<P: Placeholders>(intro: &str) -> clap::builder::StyledStr {
    use std::fmt::Write as _;
    let mut help = clap::builder::StyledStr::new();
    let _ = write!(help, "{intro}\n\nPlaceholders:");
    let rows = P::ALL
        .iter()
        .map(|(_, n, m)| (*n, *m))
        .chain(CHARACTERS.iter().map(|(n, _, m)| (*n, *m)));
    let width = names::<P>().map(str::len).max().unwrap_or(0) + 2;
    // The name is styled apart from its braces: clap reads a plain `{n}`
    // in help text as a line break.
    let literal = clap::builder::styling::Style::new().bold();
    for (name, meaning) in rows {
        let pad = " ".repeat(width.saturating_sub(name.len()));
        let _ = write!(help, "\n  {{{literal}{name}{literal:#}}}{pad}{meaning}");
    }
    help
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Demo {
        Id,
        Subject,
    }

    impl Placeholders for Demo {
        const ALL: &'static [(Demo, &'static str, &'static str)] = &[
            (Demo::Id, "id", "the id"),
            (Demo::Subject, "subject", "the subject"),
        ];
    }

    #[test]
    fn characters_and_fields_are_filled_in_and_an_unknown_name_lists_the_known() {
        let t = Template::<Demo>::parse("{id}{tab}{subject}{n}{{}").expect("parses");
        let text = t.render(|f| match f {
            Demo::Id => "e1".to_string(),
            Demo::Subject => "hi".to_string(),
        });
        assert_eq!(text, "e1\thi\n{");
        assert!(t.uses(|f| f == Demo::Subject));
        let err = Template::<Demo>::parse("{nope}").err().expect("refused");
        assert_eq!(
            err,
            "--format: unknown placeholder {nope}; known: {id} {subject} {n} {tab} {nul} {{}"
        );
        assert!(Template::<Demo>::parse("{id").is_err());
    }
}
