//! The markup agents put into a user message's text, shown as what it
//! means: Claude Code writes a slash command as `<command-name>/exit
//! </command-name><command-message>…</command-message><command-args>…
//! </command-args>` and its output as `<local-command-stdout>…
//! </local-command-stdout>`; it and Codex inject context in tags
//! (`<system-reminder>`, `<environment_context>`, `<user_instructions>`)
//! that are not the user's words. A subject line says `/exit`, the output,
//! or `(context: environment_context)`, never the tags.

/// The text between `<tag>` and `</tag>`, trimmed.
fn inner<'a>(text: &'a str, tag: &str) -> Option<&'a str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(text[start..end].trim())
}

/// Tags whose content is context the app added, not the user's words.
const CONTEXT: [&str; 4] = [
    "system-reminder",
    "environment_context",
    "user_instructions",
    "local-command-caveat",
];

/// How the subject of a message that holds only the app's context starts
/// (`(context: environment_context)`): not words of the user's.
pub const CONTEXT_ONLY: &str = "(context: ";

/// The subject a message's text stands for when it opens with an agent's
/// markup; `None` for text that does not (its first line is its subject).
pub fn subject(text: &str) -> Option<String> {
    let text = text.trim_start();
    if !text.starts_with('<') {
        return None;
    }
    if let Some(name) = inner(text, "command-name") {
        let args = inner(text, "command-args").unwrap_or_default();
        let line = if args.is_empty() {
            name.to_string()
        } else {
            format!("{name} {args}")
        };
        return Some(crate::format::json::subject_line(&line));
    }
    for tag in ["local-command-stdout", "local-command-stderr"] {
        if let Some(out) = inner(text, tag) {
            return Some(crate::format::json::subject_line(out));
        }
    }
    // Context first, then the user's words: the words are the subject.
    let mut rest = text;
    let mut first = None;
    while let Some(tag) = CONTEXT.iter().find(|t| rest.starts_with(&format!("<{t}>"))) {
        first.get_or_insert(*tag);
        let close = format!("</{tag}>");
        match rest.find(&close) {
            Some(end) => rest = rest[end + close.len()..].trim_start(),
            None => {
                rest = "";
                break;
            }
        }
    }
    let tag = first?;
    match rest.trim() {
        "" => Some(format!("{CONTEXT_ONLY}{tag})")),
        words => Some(crate::format::json::subject_line(words)),
    }
}

#[cfg(test)]
mod tests {
    use super::subject;

    #[test]
    fn slash_commands_and_their_output_read_as_such() {
        assert_eq!(
            subject("<command-message>exit</command-message>\n<command-name>/exit</command-name>\n<command-args></command-args>").as_deref(),
            Some("/exit")
        );
        assert_eq!(
            subject("<command-name>/model</command-name>\n<command-args>opus</command-args>")
                .as_deref(),
            Some("/model opus")
        );
        assert_eq!(
            subject("<local-command-stdout>Bye!\nsee you</local-command-stdout>").as_deref(),
            Some("Bye!")
        );
    }

    #[test]
    fn context_is_skipped_for_the_words_after_it() {
        assert_eq!(
            subject("<environment_context>\n  <cwd>/x</cwd>\n</environment_context>").as_deref(),
            Some("(context: environment_context)")
        );
        assert_eq!(
            subject("<system-reminder>be brief</system-reminder>\nFix the bug.").as_deref(),
            Some("Fix the bug.")
        );
        assert_eq!(subject("Fix <b>this</b>."), None);
        assert_eq!(subject("<unknown>x</unknown>"), None);
    }
}
