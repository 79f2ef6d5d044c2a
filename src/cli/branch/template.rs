//! `branch --format`: its placeholders, on the shared template engine.

use crate::stats::Account;
use crate::ui::output::escape;
use crate::ui::template::{self, Placeholders};

/// A `branch --format` placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Name,
    Tip,
    Fork,
    Length,
    Current,
    Role,
    Subject,
    TokensIn,
    TokensOut,
    Cost,
}

impl Placeholders for Field {
    const ALL: &'static [(Field, &'static str, &'static str)] = &[
        (
            Field::Name,
            "name",
            "the branch's name (a tip without a name: its id; empty for a detached HEAD)",
        ),
        (Field::Tip, "tip", "the id of its tip"),
        (
            Field::Fork,
            "fork",
            "the id of its fork point (empty when it has none)",
        ),
        (Field::Length, "length", "its entries since the fork point"),
        (
            Field::Current,
            "current",
            "`*` for the branch HEAD is on, else a space",
        ),
        (
            Field::Role,
            "role",
            "the role of its tip (with model, tool or kind)",
        ),
        (
            Field::Subject,
            "subject",
            "the first line of its tip's text",
        ),
        (
            Field::TokensIn,
            "tokens_in",
            "input tokens of the assistant turns on the path from the root to the tip",
        ),
        (
            Field::TokensOut,
            "tokens_out",
            "output tokens, the same way",
        ),
        (
            Field::Cost,
            "cost",
            "cost in dollars along the path, where the format records one (pi); else empty",
        ),
    ];
}

/// `--format`'s long help: what it does, then every placeholder.
pub fn help() -> clap::builder::StyledStr {
    template::help::<Field>(
        "Print each branch with this template, e.g. '{name}{tab}{tokens_out}'; session text \
         in it is escaped, the template's own text printed as written. Tokens and cost are totals \
         along the branch's path from the root, as `ysess stats` counts them.",
    )
}

/// One branch's values (session text as stored; escaped when rendered).
pub struct BranchValues<'a> {
    pub name: &'a str,
    pub tip: &'a str,
    pub fork: &'a str,
    pub length: u32,
    pub current: bool,
    /// Already escaped (a role with its tag).
    pub role: &'a str,
    pub subject: &'a str,
    pub account: Option<&'a Account>,
}

/// A `branch --format` template.
pub struct Template(template::Template<Field>);

impl Template {
    /// Parses a template; an unknown placeholder is an error naming the
    /// known ones.
    pub fn parse(text: &str) -> Result<Template, String> {
        template::Template::parse(text).map(Template)
    }

    /// Whether the template shows tokens or cost (each branch's path is
    /// then read).
    pub fn shows_usage(&self) -> bool {
        self.0
            .uses(|f| matches!(f, Field::TokensIn | Field::TokensOut | Field::Cost))
    }

    /// The template filled in for one branch.
    pub fn render(&self, row: &BranchValues<'_>) -> String {
        let a = row.account;
        self.0.render(|field| match field {
            Field::Name => escape(row.name).into_owned(),
            Field::Tip => escape(row.tip).into_owned(),
            Field::Fork => escape(row.fork).into_owned(),
            Field::Length => row.length.to_string(),
            Field::Current => if row.current { "*" } else { " " }.to_string(),
            Field::Role => row.role.to_string(),
            Field::Subject => escape(row.subject).into_owned(),
            Field::TokensIn => a.map(|a| a.usage.input.to_string()).unwrap_or_default(),
            Field::TokensOut => a.map(|a| a.usage.output.to_string()).unwrap_or_default(),
            Field::Cost => a
                .and_then(|a| a.known_cost())
                .map(|c| format!("{c:.6}"))
                .unwrap_or_default(),
        })
    }
}
