//! `log --format`: its placeholders, on the shared template engine.

use crate::ui::output::escape;
use crate::ui::render::iso_time;
use crate::ui::template::{self, Placeholders};
use crate::view::Headline;

/// A `log --format` placeholder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Id,
    ShortId,
    Parent,
    Role,
    Tag,
    Subject,
    Time,
    Ts,
    Labels,
    Decorations,
    Depth,
    Line,
    TokensIn,
    TokensOut,
    Cost,
}

impl Placeholders for Field {
    const ALL: &'static [(Field, &'static str, &'static str)] = &[
        (Field::Id, "id", "the entry's id, in full"),
        (
            Field::ShortId,
            "short_id",
            "its shortest unique prefix, at least 8 characters (as log prints ids)",
        ),
        (
            Field::Parent,
            "parent",
            "its parent's id (empty for a root)",
        ),
        (Field::Role, "role", "user, assistant, toolResult or custom"),
        (
            Field::Tag,
            "tag",
            "the model (assistant), the tool (tool result) or the kind (custom record)",
        ),
        (Field::Subject, "subject", "the first line of its text"),
        (
            Field::Time,
            "time",
            "local time, ISO 8601 with milliseconds",
        ),
        (
            Field::Ts,
            "ts",
            "the timestamp as stored, milliseconds since the epoch",
        ),
        (
            Field::Labels,
            "labels",
            "the labels that name it, comma-separated",
        ),
        (
            Field::Decorations,
            "decorations",
            "HEAD, branches and labels, comma-separated",
        ),
        (
            Field::Depth,
            "depth",
            "entries on its root path, itself included",
        ),
        (Field::Line, "line", "its line in the file"),
        (
            Field::TokensIn,
            "tokens_in",
            "an assistant message's input tokens (empty for other entries)",
        ),
        (
            Field::TokensOut,
            "tokens_out",
            "an assistant message's output tokens",
        ),
        (
            Field::Cost,
            "cost",
            "its cost in dollars, where the format records one (pi); else empty",
        ),
    ];
}

/// `--format`'s long help: what it does, then every placeholder.
pub fn help() -> clap::builder::StyledStr {
    template::help::<Field>(
        "Print each entry with this template, e.g. '{id} {subject}'; session text in it is \
         escaped, the template's own text printed as written.",
    )
}

/// A `log --format` template.
pub struct Template(template::Template<Field>);

impl Template {
    /// Parses a template; an unknown placeholder is an error naming the
    /// known ones.
    pub fn parse(text: &str) -> Result<Template, String> {
        template::Template::parse(text).map(Template)
    }

    /// Whether the template needs what only reading the whole file tells.
    pub fn needs_whole_file(&self) -> bool {
        self.0.uses(|f| matches!(f, Field::Depth | Field::Line)) || self.shows_usage()
    }

    /// Whether the template prints tokens or cost, read from the entry.
    pub fn shows_usage(&self) -> bool {
        self.0
            .uses(|f| matches!(f, Field::TokensIn | Field::TokensOut | Field::Cost))
    }

    /// Whether the template prints branch names.
    pub fn shows_decorations(&self) -> bool {
        self.0.uses(|f| f == Field::Decorations)
    }

    /// The template filled in for one entry; session text is escaped.
    pub fn render(&self, item: &Headline, tz: &crate::ui::zone::Zone) -> String {
        self.0.render(|field| match field {
            Field::Id => escape(&item.id).into_owned(),
            Field::ShortId => escape(&item.short).into_owned(),
            Field::Parent => escape(item.parent.as_deref().unwrap_or_default()).into_owned(),
            Field::Role => item.kind.role_name().to_string(),
            Field::Tag => escape(&item.tag).into_owned(),
            Field::Subject => escape(&item.subject).into_owned(),
            Field::Time => iso_time(item.timestamp, tz),
            Field::Ts => item.timestamp.to_string(),
            Field::Labels => escape(&item.labels.join(",")).into_owned(),
            Field::Decorations => escape(&item.words().join(", ")).into_owned(),
            Field::Depth => item.depth.map(|d| d.to_string()).unwrap_or_default(),
            Field::Line => item.line.map(|l| l.to_string()).unwrap_or_default(),
            Field::TokensIn => item.spent.map(|s| s.input.to_string()).unwrap_or_default(),
            Field::TokensOut => item.spent.map(|s| s.output.to_string()).unwrap_or_default(),
            Field::Cost => item
                .spent
                .and_then(|s| s.cost)
                .map(|c| format!("{c:.6}"))
                .unwrap_or_default(),
        })
    }
}
