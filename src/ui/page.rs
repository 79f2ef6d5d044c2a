//! `export --html`: one self-contained page of a session's tree.
//!
//! The page is static HTML with one inline style sheet and one inline
//! script, both allowed by hash in a strict Content-Security-Policy (no
//! network, no other script). The session travels as JSON in two
//! `<script type="application/json">` blocks, which browsers never run:
//! `tree` (ids, parents, roles, subjects, names and the `log --graph`
//! drawing, small) and `messages` (every content block, large, parsed only
//! once the outline is on screen). Session text is escaped on output twice
//! over: `<`, `>`, `&`, U+2028 and U+2029 are `\u` escapes inside the JSON,
//! so nothing in it can end its block, and the script builds the page with
//! `textContent` and `createElement` only.
//!
//! Everything is streamed: the JSON is written by serde straight into the
//! writer, entry by entry, so memory stays that of one entry.

use std::io::{self, Write};

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::refs::Names;
use crate::repo::Repo;
use crate::tree::Ix;
use crate::tree::graph::display_order;
use crate::ui::graph::{Graph, Style};
use crate::view::message::{Body, Part, Said};
use crate::view::redact::Redactor;
use crate::view::{Entry, Look, Message};

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// What to put on the page.
pub struct Page<'a> {
    /// The session.
    pub repo: &'a Repo,
    /// Only the path root→this entry; `None`: the whole tree.
    pub path_to: Option<Ix>,
    /// The page's title (the session file's name), escaped here.
    pub title: &'a str,
    /// Every text from the session or the machine goes through it: the
    /// title, the outline's subjects, tags and names, the messages.
    pub redact: Option<&'a Redactor>,
}

/// `text` through `redact`, when there is one.
fn clean<'t>(redact: Option<&Redactor>, text: &'t str) -> std::borrow::Cow<'t, str> {
    match redact {
        Some(r) => r.redact(text),
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// Writes the page.
pub fn write_page(out: &mut dyn Write, page: &Page<'_>) -> io::Result<()> {
    let repo = page.repo;
    let tree = &repo.tree;
    // Rows top to bottom, as `log --graph` draws them.
    let mut order: Vec<Ix> = match page.path_to {
        Some(ix) => {
            let mut path = tree.path(ix);
            path.reverse();
            path
        }
        None => display_order(tree, false),
    };
    order.retain(|&ix| !tree.is_record(ix));
    // Entries go in file order; `at[ix]` is an entry's place there.
    let mut shown: Vec<Ix> = order.clone();
    shown.sort_unstable();
    let mut at = vec![u32::MAX; tree.len()];
    for (k, &ix) in shown.iter().enumerate() {
        at[ix as usize] = k as u32;
    }

    let csp = format!(
        "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; \
         img-src data:; base-uri 'none'; form-action 'none'",
        sha256_base64(SCRIPT),
        sha256_base64(STYLE)
    );
    write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n\
         <header id=\"top\"><h1>{}</h1><span id=\"summary\"></span></header>\n\
         <main><nav id=\"outline\" aria-label=\"Session tree\"><div id=\"rows\" role=\"tree\" tabindex=\"0\" aria-label=\"Entries\"></div></nav>\n\
         <section id=\"chat\" aria-live=\"polite\"><p class=\"note\">Loading…</p></section></main>\n\
         <noscript><p class=\"note\">This page shows the session with JavaScript; the data is in the page source.</p></noscript>\n",
        html_escape(&clean(page.redact, page.title)),
        html_escape(&clean(page.redact, page.title)),
    )?;

    // The tree: small, parsed first.
    out.write_all(b"<script type=\"application/json\" id=\"tree\">")?;
    tree_json(out, page, &shown, &order, &at)?;
    out.write_all(b"</script>\n")?;
    // The script comes before the messages, so that the outline is drawn
    // while the browser still reads them.
    writeln!(out, "<script>{SCRIPT}</script>")?;

    out.write_all(b"<script type=\"application/json\" id=\"messages\">[")?;
    messages(out, repo, &shown, page.redact)?;
    out.write_all(b"]</script>\n</body>\n</html>\n")?;
    Ok(())
}

/// The tree's JSON: the format, HEAD, the entry selected, the outline's
/// nodes (in file order, `shown`) and the graph's rows (top to bottom,
/// `order`); `at[ix]` is an entry's place among the nodes.
fn tree_json(
    out: &mut dyn Write,
    page: &Page<'_>,
    shown: &[Ix],
    order: &[Ix],
    at: &[u32],
) -> io::Result<()> {
    let repo = page.repo;
    let tree = &repo.tree;
    let place = |ix: Option<Ix>| ix.map(|ix| at[ix as usize]).filter(|&k| k != u32::MAX);
    let branches = repo.refs.pairs();
    let names = Names::new(tree, tree.head(), &branches);
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, HtmlJson);
    let mut map = (&mut ser).serialize_map(None).map_err(io::Error::other)?;
    map.serialize_entry("format", repo.format.name())
        .map_err(io::Error::other)?;
    map.serialize_entry("head", &place(tree.head()))
        .map_err(io::Error::other)?;
    map.serialize_entry("select", &place(page.path_to.or(tree.head())))
        .map_err(io::Error::other)?;
    map.serialize_entry("path", &page.path_to.is_some())
        .map_err(io::Error::other)?;
    map.serialize_entry(
        "nodes",
        &seq(shown.iter().map(|&ix| {
            let row = crate::view::Headline::of(tree, &names, ix, false);
            let text = |s: String| match clean(page.redact, &s) {
                std::borrow::Cow::Owned(new) => new,
                std::borrow::Cow::Borrowed(_) => s,
            };
            Node {
                parent: place(tree.parent(ix)),
                role: row.kind.role_name(),
                short: (row.short != row.id).then_some(row.short),
                id: row.id,
                tag: text(row.tag),
                subject: text(row.subject),
                time: row.timestamp,
                labels: row.labels.into_iter().map(text).collect(),
                branches: row.branches.into_iter().map(text).collect(),
            }
        })),
    )
    .map_err(io::Error::other)?;
    let mut graph = Graph::new(tree, Style::Curved);
    map.serialize_entry(
        "rows",
        &seq(order.iter().map(|&ix| {
            let row = graph.draw(ix);
            GraphLine {
                at: at[ix as usize],
                prefix: row.prefix,
                connector: row.connector,
                gap: row.gap,
            }
        })),
    )
    .map_err(io::Error::other)?;
    SerializeMap::end(map).map_err(io::Error::other)
}

/// The messages, in the same order as the nodes: read and serialized in
/// chunks on every core, written here in order.
fn messages(
    out: &mut dyn Write,
    repo: &Repo,
    shown: &[Ix],
    redact: Option<&Redactor>,
) -> io::Result<()> {
    let workers = crate::input::par::jobs_up_to(8);
    let mut chunks = shown.chunks(CHUNK).enumerate();
    let mut failed = None;
    crate::input::par::ordered_map(
        workers,
        || Ok::<_, io::Error>(chunks.next()),
        |(k, chunk)| messages_json(repo, chunk, k == 0, redact),
        |done| match done {
            Ok(bytes) if failed.is_none() => {
                if let Err(e) = out.write_all(&bytes) {
                    failed = Some(e);
                }
            }
            Ok(_) => {}
            Err(e) => failed = failed.take().or(Some(e)),
        },
    )?;
    failed.map_or(Ok(()), Err)
}

/// Entries serialized per task: enough to keep a worker busy, small enough
/// to keep memory low.
const CHUNK: usize = 256;

/// The JSON of some entries' messages, comma-separated (a leading comma
/// unless `first`).
fn messages_json(
    repo: &Repo,
    chunk: &[Ix],
    first: bool,
    redact: Option<&Redactor>,
) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(chunk.len() * 1024);
    for (k, &ix) in chunk.iter().enumerate() {
        if k > 0 || !first {
            out.push(b',');
        }
        let mut entry = repo.entry(ix)?;
        if let Some(r) = redact {
            r.entry(&mut entry);
        }
        let mut ser = serde_json::Serializer::with_formatter(&mut out, HtmlJson);
        let shown = crate::stats::shows_usage(repo, ix, &entry)?;
        Msg(&entry, repo.format, shown)
            .serialize(&mut ser)
            .map_err(io::Error::other)?;
    }
    Ok(out)
}

/// A sequence serialized from an iterator, one item at a time.
struct Seq<I>(std::cell::Cell<Option<I>>);

fn seq<I>(items: I) -> Seq<I> {
    Seq(std::cell::Cell::new(Some(items)))
}

impl<I, T> Serialize for Seq<I>
where
    I: Iterator<Item = T>,
    T: Serialize,
{
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(None)?;
        if let Some(items) = self.0.take() {
            for item in items {
                seq.serialize_element(&item)?;
            }
        }
        seq.end()
    }
}

/// One entry of the outline.
#[derive(Serialize)]
struct Node {
    id: String,
    /// The id as ysess prints it, when shorter.
    #[serde(skip_serializing_if = "Option::is_none")]
    short: Option<String>,
    parent: Option<u32>,
    role: &'static str,
    tag: String,
    subject: String,
    time: u64,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    labels: Vec<String>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    branches: Vec<String>,
}

/// One line of the page's graph drawing: the entry and the graph text
/// before it.
#[derive(Serialize)]
struct GraphLine {
    at: u32,
    prefix: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    connector: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gap: Option<String>,
}

/// An entry's message as the page shows it, in its file's format.
/// (A response written over several lines carries its usage on its last
/// line only, `false` on the others, so the page adds it up once.)
struct Msg<'a>(&'a Entry, crate::format::Format, bool);

impl Serialize for Msg<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (entry, format, usage_shown) = (self.0, self.1, self.2);
        let body = Body::of(entry);
        let mut map = s.serialize_map(None)?;
        match &entry.message {
            Message::User { .. } => {}
            Message::Assistant {
                stop_reason,
                model,
                provider,
                usage,
                error_message,
                fast,
                ..
            } => {
                map.serialize_entry("model", model)?;
                map.serialize_entry("provider", provider)?;
                if !stop_reason.is_empty() {
                    map.serialize_entry("stop", stop_reason)?;
                }
                if usage_shown {
                    map.serialize_entry(
                        "usage",
                        &[
                            usage.input,
                            usage.output,
                            usage.cache_read,
                            usage.cache_write,
                        ],
                    )?;
                    // The one account: what `stats` and `log --format {cost}` say.
                    if let Some(cost) =
                        crate::stats::cost(&entry.message_value, format, model, usage, *fast)
                    {
                        map.serialize_entry("cost", &cost)?;
                    }
                }
                if let Some(error) = error_message {
                    map.serialize_entry("error", error)?;
                }
            }
            Message::ToolResult { .. } => {
                if let Some(answer) = body.answer {
                    map.serialize_entry("call", answer.call)?;
                    map.serialize_entry("tool", answer.tool)?;
                }
                if body.failed() {
                    map.serialize_entry("isError", &true)?;
                }
            }
            Message::Custom { kind, data, .. } => {
                map.serialize_entry("kind", kind)?;
                map.serialize_entry("data", data)?;
            }
        }
        // A record's data and a model's error are the message's own
        // fields above.
        map.serialize_entry(
            "blocks",
            &seq(body
                .parts
                .iter()
                .filter(|part| !matches!(part, Part::Data(_) | Part::Error(_)))
                .map(Shown)),
        )?;
        map.end()
    }
}

/// One content block: a part of the body.
struct Shown<'a>(&'a Part<'a>);

impl Serialize for Shown<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(None)?;
        match self.0 {
            Part::Text(text) | Part::Output { text, .. } => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
            }
            Part::Thinking { text, redacted } => {
                map.serialize_entry("type", "thinking")?;
                map.serialize_entry("text", text)?;
                if *redacted {
                    map.serialize_entry("redacted", &true)?;
                }
            }
            Part::ToolCall {
                id,
                name,
                arguments,
            } => {
                map.serialize_entry("type", "toolCall")?;
                map.serialize_entry("id", id)?;
                map.serialize_entry("name", name)?;
                map.serialize_entry("arguments", arguments)?;
            }
            Part::Markup(pieces) => {
                map.serialize_entry("type", "markup")?;
                map.serialize_entry("pieces", &seq(pieces.iter().map(ShownPiece)))?;
            }
            Part::Image {
                mime_type,
                bytes,
                data,
            } => {
                map.serialize_entry("type", "image")?;
                map.serialize_entry("mimeType", mime_type)?;
                map.serialize_entry("bytes", bytes)?;
                if let Some(data) = data.filter(|_| is_image_type(mime_type)) {
                    map.serialize_entry("data", data)?;
                }
            }
            // Not blocks: the message's own fields.
            Part::Data(_) | Part::Error(_) => {}
        }
        map.end()
    }
}

/// A piece of an agent's markup, as every view draws it
/// ([`crate::format::markup::Piece::shown`]).
struct ShownPiece<'a>(&'a Said<'a>);

impl Serialize for ShownPiece<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let piece = self.0;
        let mut map = s.serialize_map(Some(3))?;
        let look = match piece.look {
            Look::Words => "words",
            Look::Command => "command",
            Look::Output => "output",
            Look::Error => "error",
            Look::Context => "context",
        };
        map.serialize_entry("look", look)?;
        map.serialize_entry("label", &piece.label)?;
        map.serialize_entry("text", piece.text)?;
        map.end()
    }
}

/// `image/png` and the like: only images become `data:` URLs.
pub fn is_image_type(mime: &str) -> bool {
    mime.strip_prefix("image/").is_some_and(|sub| {
        !sub.is_empty()
            && sub
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-'))
    })
}

/// A serde_json formatter for JSON inside a `<script>` block: `<`, `>` and
/// `&` become `\u003c` and the like, so no text in it can close the block
/// or open a comment, and U+2028/U+2029 are escaped as JavaScript once
/// wanted. The JSON means the same.
pub struct HtmlJson;

impl serde_json::ser::Formatter for HtmlJson {
    fn write_string_fragment<W: ?Sized + Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        let bytes = fragment.as_bytes();
        let mut from = 0;
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9; E2 starts other
        // characters too, so it is looked for apart from the three ASCII
        // bytes, and found again only once passed.
        let mut e2 = memchr::memchr(0xE2, bytes);
        loop {
            let ascii = memchr::memchr3(b'<', b'>', b'&', &bytes[from..]).map(|k| from + k);
            while e2.is_some_and(|k| k < from) {
                e2 = e2.and_then(|k| memchr::memchr(0xE2, &bytes[k + 1..]).map(|j| k + 1 + j));
            }
            let at = match (ascii, e2) {
                (Some(a), Some(b)) => a.min(b),
                (a, b) => match a.or(b) {
                    Some(at) => at,
                    None => break,
                },
            };
            let (escape, len): (&[u8], usize) = match bytes[at] {
                b'<' => (b"\\u003c", 1),
                b'>' => (b"\\u003e", 1),
                b'&' => (b"\\u0026", 1),
                _ => match bytes.get(at + 1..at + 3) {
                    Some([0x80, 0xA8]) => (b"\\u2028", 3),
                    Some([0x80, 0xA9]) => (b"\\u2029", 3),
                    // Another character: written as it is.
                    _ => (&bytes[at..at + 1], 1),
                },
            };
            writer.write_all(&bytes[from..at])?;
            writer.write_all(escape)?;
            from = at + len;
        }
        writer.write_all(&bytes[from..])
    }
}

/// Text made safe inside HTML text and attribute values.
pub fn html_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The hash a Content-Security-Policy names an inline block by.
fn sha256_base64(text: &str) -> String {
    base64(&Sha256::digest(text.as_bytes()))
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_in_a_script_block_cannot_close_it() {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, HtmlJson);
        "</script><!-- a&b \u{2028}\u{2029} é"
            .serialize(&mut ser)
            .expect("serializes");
        let text = String::from_utf8(out).expect("utf-8");
        assert_eq!(
            text,
            r#""\u003c/script\u003e\u003c!-- a\u0026b \u2028\u2029 é""#
        );
        let back: String = serde_json::from_str(&text).expect("parses");
        assert_eq!(back, "</script><!-- a&b \u{2028}\u{2029} é");
    }

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        // The hash of the empty script, as browsers compute it.
        assert_eq!(
            sha256_base64(""),
            "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="
        );
    }

    #[test]
    fn only_image_types_become_data_urls() {
        assert!(is_image_type("image/png"));
        assert!(is_image_type("image/svg+xml"));
        assert!(!is_image_type("text/html"));
        assert!(!is_image_type("image/"));
        assert!(!is_image_type("image/png;base64,x\"onerror"));
    }

    #[test]
    fn html_escape_covers_text_and_attributes() {
        assert_eq!(
            html_escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }
}
