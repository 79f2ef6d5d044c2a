//! `branch --format`: each branch printed with a template.

use crate::stats::Account;
use crate::ui::output::escape;

/// Every `branch --format` placeholder and what it stands for.
pub const PLACEHOLDERS: &[(&str, &str)] = &[
    (
        "name",
        "the branch's name (a tip without a name: its id; empty for a detached HEAD)",
    ),
    ("tip", "the id of its tip"),
    ("fork", "the id of its fork point (empty when it has none)"),
    ("length", "its entries since the fork point"),
    ("current", "`*` for the branch HEAD is on, else a space"),
    ("role", "the role of its tip (with model, tool or kind)"),
    ("subject", "the first line of its tip's text"),
    (
        "tokens_in",
        "input tokens of the assistant turns on the path from the root to the tip",
    ),
    ("tokens_out", "output tokens, the same way"),
    (
        "cost",
        "cost in dollars along the path, where the format records one (pi); else empty",
    ),
    ("n", "a newline"),
    ("tab", "a tab"),
    ("nul", "a NUL byte"),
    ("{", "a `{`"),
];

/// `--format`'s long help: what it does, then every placeholder.
pub fn help() -> clap::builder::StyledStr {
    use std::fmt::Write as _;
    let mut help = clap::builder::StyledStr::new();
    let _ = write!(
        help,
        "Print each branch with this template, e.g. '{{name}}{{tab}}{{tokens_out}}'; session text \
         in it is escaped, the template's own text printed as written. Tokens and cost are totals \
         along the branch's path from the root, as `ysess stats` counts them.\n\nPlaceholders:"
    );
    let literal = clap::builder::styling::Style::new().bold();
    for (name, meaning) in PLACEHOLDERS {
        let pad = " ".repeat(12usize.saturating_sub(name.len()));
        let _ = write!(help, "\n  {{{literal}{name}{literal:#}}}{pad}{meaning}");
    }
    help
}

enum Part {
    Text(String),
    Field(usize),
}

/// One branch's values, in the order of [`PLACEHOLDERS`] (session text
/// already escaped by the caller where it is the session's).
pub struct Row<'a> {
    pub name: &'a str,
    pub tip: &'a str,
    pub fork: &'a str,
    pub length: u32,
    pub current: bool,
    pub role: &'a str,
    pub subject: &'a str,
    pub account: Option<&'a Account>,
}

pub struct Template {
    parts: Vec<Part>,
}

impl Template {
    pub fn parse(text: &str) -> Result<Template, String> {
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
            match name {
                "n" => literal.push('\n'),
                "tab" => literal.push('\t'),
                "nul" => literal.push('\0'),
                "{" => literal.push('{'),
                _ => {
                    let Some(k) = PLACEHOLDERS.iter().position(|(n, _)| *n == name) else {
                        let known: Vec<String> = PLACEHOLDERS
                            .iter()
                            .map(|(n, _)| format!("{{{n}}}"))
                            .collect();
                        return Err(format!(
                            "--format: unknown placeholder {{{name}}}; known: {}",
                            known.join(" ")
                        ));
                    };
                    if !literal.is_empty() {
                        parts.push(Part::Text(std::mem::take(&mut literal)));
                    }
                    parts.push(Part::Field(k));
                }
            }
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            parts.push(Part::Text(literal));
        }
        Ok(Template { parts })
    }

    /// Whether the template shows tokens or cost (each branch's path is
    /// then read).
    pub fn shows_usage(&self) -> bool {
        self.parts
            .iter()
            .any(|p| matches!(p, Part::Field(k) if matches!(PLACEHOLDERS[*k].0, "tokens_in" | "tokens_out" | "cost")))
    }

    pub fn render(&self, row: &Row<'_>) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Field(k) => {
                    let a = row.account;
                    let value = match PLACEHOLDERS[*k].0 {
                        "name" => escape(row.name).into_owned(),
                        "tip" => escape(row.tip).into_owned(),
                        "fork" => escape(row.fork).into_owned(),
                        "length" => row.length.to_string(),
                        "current" => if row.current { "*" } else { " " }.to_string(),
                        "role" => row.role.to_string(),
                        "subject" => escape(row.subject).into_owned(),
                        "tokens_in" => a.map(|a| a.usage.input.to_string()).unwrap_or_default(),
                        "tokens_out" => a.map(|a| a.usage.output.to_string()).unwrap_or_default(),
                        "cost" => a
                            .and_then(|a| a.cost)
                            .map(|c| format!("{c:.6}"))
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    out.push_str(&value);
                }
            }
        }
        out
    }
}
