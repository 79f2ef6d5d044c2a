//! `log`'s filters on the command line, and the roles `grep` and `log`
//! take.

use clap::Args;

use super::Failure;
use crate::MessageKind;
use crate::search::filter::Filter;
use crate::search::{Pattern, PatternOptions};

/// `--since`/`--until`'s time, in ms since the epoch (0 for a time
/// before it), counted back from `now` where it is relative; a time that
/// does not parse is a usage error.
pub fn when_ms(
    text: Option<&str>,
    now: &dyn Fn() -> jiff::ZonedDateTime,
) -> Result<Option<u64>, Failure> {
    text.map(|t| {
        crate::search::when::parse_when(t, &now())
            .map(|ts| u64::try_from(ts.as_millisecond()).unwrap_or(0))
            .map_err(Failure::usage)
    })
    .transpose()
}

/// A role as `--role` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Role {
    User,
    Assistant,
    #[value(name = "toolResult")]
    ToolResult,
}

impl From<Role> for MessageKind {
    fn from(role: Role) -> Self {
        match role {
            Role::User => MessageKind::User,
            Role::Assistant => MessageKind::Assistant,
            Role::ToolResult => MessageKind::ToolResult,
        }
    }
}

/// Which entries `log` shows: every filter given must pass.
#[derive(Debug, Clone, Args, Default)]
pub struct FilterArgs {
    /// Only entries whose message text matches PATTERN (a regular
    /// expression; repeat it for any of several, see --all-match)
    #[arg(long, value_name = "PATTERN", conflicts_with = "graph")]
    pub grep: Vec<String>,
    /// With several --grep: entries that match all of them
    #[arg(long, requires = "grep")]
    pub all_match: bool,
    /// With --grep: ignore case
    #[arg(short = 'i', long = "regexp-ignore-case", requires = "grep")]
    pub ignore_case: bool,
    /// With --grep: fixed strings, not regular expressions
    #[arg(short = 'F', long = "fixed-strings", requires = "grep")]
    pub fixed: bool,
    /// Only entries of this role (repeatable)
    #[arg(long, value_enum, value_name = "ROLE", conflicts_with = "graph")]
    pub role: Vec<Role>,
    /// Only assistant messages that call the tool NAME, and its results
    #[arg(long, value_name = "NAME", conflicts_with = "graph")]
    pub tool: Option<String>,
    /// Only assistant messages of the model NAME
    #[arg(long, value_name = "NAME", conflicts_with = "graph")]
    pub model: Option<String>,
    /// Only entries at or after this time (2025-12-02, '2025-12-02 09:03',
    /// yesterday, '3 days ago'; local time)
    #[arg(long, value_name = "WHEN", conflicts_with = "graph")]
    pub since: Option<String>,
    /// Only entries at or before this time (the forms of --since)
    #[arg(long, value_name = "WHEN", conflicts_with = "graph")]
    pub until: Option<String>,
    /// Only entries a label names
    #[arg(long, conflicts_with = "graph")]
    pub labelled: bool,
    /// Only assistant messages whose usage (input, output, cache read and
    /// write tokens) adds up to at least N
    #[arg(long, value_name = "N", conflicts_with = "graph")]
    pub min_tokens: Option<u64>,
}

impl FilterArgs {
    /// The filter; a pattern or a time that does not parse is a usage
    /// error.
    /// The filter these flags ask for; `now` (the time `--since 2h` counts
    /// back from, in the local zone) is asked for only when a time is given.
    pub fn filter(&self, now: &dyn Fn() -> jiff::ZonedDateTime) -> Result<Filter, Failure> {
        let options = PatternOptions {
            fixed: self.fixed,
            ignore_case: self.ignore_case,
            word: false,
        };
        let grep = self
            .grep
            .iter()
            .map(|p| Pattern::new(p, options))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| Failure::usage(format!("--grep: {}", crate::search::one_line(&e))))?;
        let when = |flag: &str, text: &Option<String>| {
            text.as_deref()
                .map(|t| {
                    crate::search::when::parse_when(t, &now())
                        .map(|ts| ts.as_millisecond())
                        .map_err(|e| Failure::usage(format!("{flag}: {e}")))
                })
                .transpose()
        };
        Ok(Filter {
            grep,
            all_match: self.all_match,
            roles: self.role.iter().map(|&r| r.into()).collect(),
            tool: self.tool.clone(),
            model: self.model.clone(),
            since: when("--since", &self.since)?,
            until: when("--until", &self.until)?,
            labelled: self.labelled,
            min_tokens: self.min_tokens,
        })
    }
}
