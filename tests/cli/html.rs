//! `ysess export --html`, looked at as a person sees it: the page is opened
//! in headless Chromium (`chromium --headless --dump-dom`, after its script
//! ran) and the tests read the document it built.
//!
//! Chromium is Debian's `chromium` package (`.ci/run` installs it). Where it
//! is missing these tests fail, naming the command that installs it, unless
//! `YSESS_SKIP=browser` says to skip them (see `support::missing`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::planted::{ENV, leaky, none_survives, planted};
use crate::support::{Dir, demo, small_demo};

/// The browser, or `None` when it is missing and `YSESS_SKIP=browser` says
/// to skip (else the test fails, naming the command that installs it).
#[track_caller]
pub fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("YSESS_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    if path.exists() {
        return Some(path);
    }
    crate::support::missing(
        &crate::support::BROWSER,
        &format!(
            "{} is missing, so the page cannot be opened in a browser",
            path.display()
        ),
    );
    None
}

/// One browser at a time: each is heavy, and the tests run in parallel.
static ONE_BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// The document Chromium built from `page` (with `#fragment` when not
/// empty), once its script ran, in a window tall enough for every row of a
/// small session.
pub fn dump_dom(browser: &Path, page: &Path, fragment: &str) -> String {
    // One browser at a time: each is heavy, and the tests run in parallel.
    static ONE: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one = ONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let profile = tempfile::tempdir().expect("a browser profile dir");
    let mut url = format!("file://{}", page.display());
    if !fragment.is_empty() {
        url.push('#');
        url.push_str(fragment);
    }
    let out = Command::new(browser)
        .args(headless_flags(profile.path()))
        .args(["--virtual-time-budget=5000", "--window-size=1280,3000"])
        .arg("--dump-dom")
        .arg(&url)
        .output()
        .expect("chromium starts");
    assert!(
        out.status.success(),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dom = String::from_utf8(out.stdout).expect("the DOM is UTF-8");
    assert!(
        dom.contains("data-ready="),
        "the page's script did not finish on {url}:\n{dom}"
    );
    dom
}

/// Chromium without a sandbox (tests may run as root), a GPU, or any
/// network of its own (it waits on it otherwise).
pub fn headless_flags(profile: &Path) -> Vec<String> {
    [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
    ]
    .iter()
    .map(|s| s.to_string())
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect()
}

/// Text as it stood in the serialized document, entities decoded.
fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// Every start tag that contains `marker`, whole (`<div class=… >`).
fn tags<'a>(dom: &'a str, marker: &str) -> Vec<&'a str> {
    let mut found = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find(marker) {
        let start = rest[..at].rfind('<').expect("inside a tag");
        let end = at + rest[at..].find('>').expect("the tag ends");
        found.push(&rest[start..=end]);
        rest = &rest[end..];
    }
    found
}

/// An attribute's value in one start tag.
fn attr(tag: &str, name: &str) -> Option<String> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = at + tag[at..].find('"')?;
    Some(unescape(&tag[at..end]))
}

/// The outline as drawn: each row's graph text, then the entry's id.
fn outline(dom: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut rest = dom;
    while let Some(at) = rest.find("<div class=\"row") {
        rest = &rest[at..];
        let end = rest.find("</div>").expect("the row ends");
        let row = &rest[..end];
        let tag = &row[..=row.find('>').expect("the tag ends")];
        let g = row.find("<span class=\"g\">").expect("graph text") + "<span class=\"g\">".len();
        let g_end = g + row[g..].find("</span>").expect("graph text ends");
        let mut line = unescape(&row[g..g_end]);
        if let Some(id) = attr(tag, "data-id") {
            line.push_str(&id);
        }
        lines.push(line.trim_end().to_string());
        rest = &rest[end..];
    }
    lines
}

/// The ids the outline's rows show, top to bottom.
fn shown_ids(dom: &str) -> Vec<String> {
    let open = "<span class=\"id\">";
    let from = dom.find("id=\"rows\"").expect("the outline");
    let dom = &dom[from..from + dom[from..].find("</nav>").expect("the outline ends")];
    dom.match_indices(open)
        .map(|(at, _)| {
            let text = &dom[at + open.len()..];
            unescape(&text[..text.find("</span>").expect("the id ends")])
        })
        .collect()
}

/// The ids of the messages the chat shows, top to bottom.
fn chat(dom: &str) -> Vec<String> {
    tags(dom, "<article ")
        .iter()
        .map(|t| attr(t, "data-id").expect("an article names its entry"))
        .collect()
}

/// The page of the session in `dir` (`session.jsonl`), written with -o.
fn page(dir: &Dir, extra: &[&str]) -> PathBuf {
    let mut args = vec!["export", "--html", "-o", "page.html"];
    args.extend_from_slice(extra);
    dir.run(&args).status(0).stdout("").stderr("");
    dir.join("page.html")
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

/// A directory holding one of the fixtures as `session.jsonl`.
fn with_fixture(name: &str) -> Dir {
    let dir = Dir::new();
    dir.fixture(name, "session.jsonl");
    dir
}

const FORMATS: [&str; 3] = ["demo.jsonl", "pi/demo.jsonl", "claude/session.jsonl"];

#[test]
fn the_outline_is_log_graph_one_row_per_entry_in_every_format() {
    let Some(browser) = chromium() else { return };
    for name in FORMATS {
        let dir = with_fixture(name);
        let graph = dir.run(&["log", "--graph", "--format", "{id}"]);
        graph.status(0);
        let dom = dump_dom(&browser, &page(&dir, &[]), "");
        assert_eq!(outline(&dom), lines(&graph.stdout), "{name}");
        // Each row shows its entry's id as `log` prints it: short.
        let short = dir.run(&["log", "--graph", "--format", "{short_id}"]);
        let want: Vec<String> = lines(&short.stdout)
            .iter()
            .filter_map(|l| l.split_whitespace().last().map(str::to_string))
            .filter(|l| l.chars().any(|c| c.is_alphanumeric()))
            .collect();
        assert_eq!(shown_ids(&dom), want, "{name}");
        // One tree item per entry of the user's tree, ysess's records out.
        let all = dir.run(&["log", "--all", "--format", "{id}"]);
        let mut ids: Vec<String> = tags(&dom, "role=\"treeitem\"")
            .iter()
            .map(|t| attr(t, "data-id").expect("a row names its entry"))
            .collect();
        let mut want = lines(&all.stdout);
        ids.sort();
        want.sort();
        assert_eq!(ids, want, "{name}");
    }
}

#[test]
fn the_fragment_selects_a_path_and_the_chat_shows_exactly_its_entries() {
    let Some(browser) = chromium() else { return };
    for name in FORMATS {
        let dir = with_fixture(name);
        let page = page(&dir, &[]);
        // HEAD's path without a fragment; every tip's path with its own.
        let entries = dir.run(&["log", "--all", "--format", "{id}"]);
        let mut tried = 0;
        for tip in lines(&entries.stdout).iter().step_by(3).take(4) {
            let path = dir.run(&["log", tip, "--reverse", "--format", "{id}"]);
            path.status(0);
            let dom = dump_dom(&browser, &page, tip);
            assert_eq!(chat(&dom), lines(&path.stdout), "{name}#{tip}");
            let selected: Vec<String> = tags(&dom, "aria-selected=\"true\"")
                .iter()
                .filter_map(|t| attr(t, "data-id"))
                .collect();
            assert_eq!(selected, std::slice::from_ref(tip), "{name}#{tip}");
            tried += 1;
        }
        assert!(tried > 0);
        let head = dir.run(&["log", "--reverse", "--format", "{id}"]);
        let dom = dump_dom(&browser, &page, "");
        assert_eq!(chat(&dom), lines(&head.stdout), "{name} at HEAD");
    }
}

#[test]
fn a_page_of_one_path_holds_only_that_path() {
    let Some(browser) = chromium() else { return };
    let dir = demo();
    let path = dir.run(&["log", "first-draft", "--reverse", "--format", "{id}"]);
    let dom = dump_dom(&browser, &page(&dir, &["first-draft"]), "");
    assert_eq!(chat(&dom), lines(&path.stdout));
    let mut rows: Vec<String> = outline(&dom)
        .iter()
        .map(|l| l.rsplit(' ').next().unwrap_or_default().to_string())
        .collect();
    rows.reverse();
    assert_eq!(rows, lines(&path.stdout));
}

#[test]
fn errors_are_marked_and_images_embedded_only_as_images() {
    let Some(browser) = chromium() else { return };
    let dir = demo();
    let dom = dump_dom(&browser, &page(&dir, &[]), "e13");
    let e12 = tags(&dom, "data-id=\"e12\"")
        .into_iter()
        .find(|t| t.starts_with("<article"))
        .expect("the failed search shows");
    assert!(e12.contains("error"), "{e12}");
    assert!(dom.contains("<span class=\"badge error\">error</span>"));

    // The small demo's first message holds a PNG.
    let dir = small_demo();
    let dom = dump_dom(&browser, &page(&dir, &[]), "e1");
    let images = tags(&dom, "<img ");
    assert_eq!(images.len(), 1, "{dom}");
    let src = attr(images[0], "src").expect("a source");
    assert!(src.starts_with("data:image/png;base64,"), "{src}");

    // An image of another type is named, not embedded.
    let line = r#"{"id":"e1","parent_id":null,"message":{"role":"user","content":[{"type":"image","data":"PHNjcmlwdD4=","mimeType":"text/html"}],"timestamp":1},"timestamp":1760000000000}"#;
    let dir = Dir::new();
    dir.write("session.jsonl", format!("{line}\n"));
    let dom = dump_dom(&browser, &page(&dir, &[]), "");
    assert!(tags(&dom, "<img ").is_empty(), "{dom}");
    assert!(dom.contains("[text/html, 8 bytes]"), "{dom}");
}

/// Each payload would set the document's title or mark the root element
/// if it ran.
const PAYLOADS: [&str; 6] = [
    "</script><script>document.title='pwned'</script>",
    "<img src=x onerror=\"document.title='pwned'\">",
    "<a href=\"javascript:document.title='pwned'\">click</a>",
    "[click](javascript:document.title='pwned')",
    "<svg onload=\"document.documentElement.setAttribute('data-pwned','1')\"></svg>",
    "\u{2028}<!--<script>document.title='pwned'</script>-->&lt;",
];

#[test]
fn a_hostile_session_renders_as_text_and_runs_no_script() {
    let Some(browser) = chromium() else { return };
    let mut lines = Vec::new();
    let mut parent: Option<String> = None;
    for (k, payload) in PAYLOADS.iter().enumerate() {
        let id = format!("e{}", 2 * k + 1);
        lines.push(serde_json::json!({
            "id": id, "parent_id": parent, "timestamp": 1_760_000_000_000u64 + k as u64,
            "label": format!("{payload}{k}"),
            "message": {"role": "user", "content": [{"type": "text", "text": payload}], "timestamp": 1},
        }));
        let reply = format!("e{}", 2 * k + 2);
        lines.push(serde_json::json!({
            "id": reply, "parent_id": id, "timestamp": 1_760_000_000_000u64 + k as u64,
            "message": {"role": "assistant", "model": payload, "provider": payload,
                "content": [{"type": "thinking", "thinking": payload},
                            {"type": "toolCall", "id": payload, "name": payload, "arguments": {"html": payload}}],
                "stopReason": "toolUse", "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2},
                "errorMessage": payload, "timestamp": 1},
        }));
        parent = Some(reply);
    }
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let dir = Dir::new();
    let name = "<b>x<b>.jsonl";
    dir.write(name, &text);
    dir.run(&["-f", name, "export", "--html", "-o", "page.html"])
        .status(0)
        .stderr("");
    let page = dir.join("page.html");
    let html = std::fs::read_to_string(&page).expect("the page reads");
    assert_eq!(
        html.matches("<script").count(),
        3,
        "only ysess's own scripts"
    );
    for fragment in ["", "e1", "e6", "e12"] {
        let dom = dump_dom(&browser, &page, fragment);
        assert!(
            dom.contains("<title>&lt;b&gt;x&lt;b&gt;.jsonl</title>"),
            "{dom}"
        );
        let root = tags(&dom, "<html")[0];
        assert!(!root.contains("data-pwned"), "{root}");
        assert!(tags(&dom, "<img ").is_empty(), "an image element: {dom}");
        assert!(tags(&dom, "<a ").is_empty(), "a link: {dom}");
        assert!(tags(&dom, "<svg").is_empty(), "an svg: {dom}");
        assert_eq!(dom.matches("<script").count(), 3, "{dom}");
    }
    // The payloads are there, as text.
    let dom = dump_dom(&browser, &page, "e12");
    assert!(dom.contains(
        "<div class=\"text\">&lt;img src=x onerror=\"document.title='pwned'\"&gt;</div>"
    ));
    assert!(dom.contains("[click](javascript:document.title='pwned')"));
}

#[test]
fn the_page_is_under_twice_the_session_and_self_contained() {
    let dir = with_fixture("medium.jsonl");
    let html = std::fs::read(page(&dir, &[])).expect("the page reads");
    let session = std::fs::metadata(dir.join("session.jsonl"))
        .expect("the session")
        .len();
    assert!(
        (html.len() as u64) < 2 * session,
        "{} bytes of page for {session} of session",
        html.len()
    );
    let html = String::from_utf8(html).expect("UTF-8");
    // Nothing is fetched: no URL but data: images, a strict policy.
    for fetch in ["http:", "https:", " src=", "<link", "@import", "url("] {
        assert!(!html.contains(fetch), "{fetch}");
    }
    assert!(html.contains(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'sha256-"
    ));
}

#[test]
fn export_html_writes_stdout_or_the_file_named_by_o() {
    let dir = demo();
    let run = dir.run(&["export", "--html"]);
    run.status(0).stderr("");
    assert!(run.stdout.starts_with("<!DOCTYPE html>"));
    dir.run(&["export", "--html", "-o", "page.html"])
        .status(0)
        .stdout("")
        .stderr("");
    assert_eq!(dir.read("page.html"), run.stdout.as_bytes());
    dir.run(&["export", "--html", "--session"])
        .status(2)
        .stdout("");
    // A failed export leaves FILE as it was.
    dir.write("page.html", "kept");
    dir.run(&["export", "--html", "nosuch", "-o", "page.html"])
        .status(128);
    assert_eq!(dir.read("page.html"), b"kept");
}

/// The text a person reads on the page: the document without its scripts
/// (the data they read from) and its tags, entities decoded.
fn rendered_text(dom: &str) -> String {
    let mut text = String::new();
    let mut rest = dom;
    while let Some(at) = rest.find("<script") {
        text.push_str(&rest[..at]);
        let end = rest[at..].find("</script>").expect("the script ends");
        rest = &rest[at + end + "</script>".len()..];
    }
    text.push_str(rest);
    let mut shown = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                shown.push(' ');
            }
            c if !in_tag => shown.push(c),
            _ => {}
        }
    }
    unescape(&shown)
}

#[test]
fn no_planted_secret_survives_on_the_redacted_page_as_rendered() {
    let Some(browser) = chromium() else { return };
    let dir = leaky();
    dir.run_with(
        &[
            "-f",
            "dana.jsonl",
            "export",
            "--html",
            "--redact",
            "--redact-pattern",
            "ACME-[0-9]+",
            "-o",
            "page.html",
        ],
        None,
        ENV,
    )
    .status(0)
    .stdout("");
    let dom = dump_dom(&browser, &dir.join("page.html"), "");
    // Every entry is drawn, its folded tool output and thinking in it.
    assert_eq!(chat(&dom), ["e1", "e2", "e3", "e4"], "{dom}");
    // Nowhere in the document, the data its script read included ...
    none_survives("the page's document", &unescape(&dom));
    // ... nor in what its script drew, where each kind shows redacted.
    let shown = rendered_text(&dom);
    none_survives("the page as rendered", &shown);
    for (_, kind) in planted() {
        let mark = format!("[redacted: {kind}]");
        assert!(shown.contains(&mark), "no {mark} on the page:\n{shown}");
    }
}

/// A page driven over the DevTools protocol, for what `--dump-dom` cannot
/// do: pressing keys. A minimal WebSocket client (RFC 6455: one
/// handshake, masked text frames out, text frames in) is enough for it.
mod devtools {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpStream;
    use std::path::Path;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    use serde_json::{Value, json};

    pub struct Page {
        child: Child,
        socket: TcpStream,
        next: u64,
        _profile: tempfile::TempDir,
    }

    impl Drop for Page {
        fn drop(&mut self) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }

    fn http_get(port: &str, path: &str) -> String {
        let mut s = TcpStream::connect(format!("127.0.0.1:{port}")).expect("devtools answers");
        s.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
        )
        .expect("request");
        // The server keeps the connection open: read what Content-Length says.
        let mut reader = BufReader::new(s);
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("response headers");
            if line == "\r\n" || line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body).expect("response body");
        String::from_utf8(body).expect("UTF-8")
    }

    impl Page {
        pub fn open(browser: &Path, url: &str) -> Page {
            let profile = tempfile::tempdir().expect("a profile dir");
            let child = Command::new(browser)
                .args(super::headless_flags(profile.path()))
                .args(["--remote-debugging-port=0", "--window-size=1280,900"])
                .arg(url)
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromium starts");
            let active = profile.path().join("DevToolsActivePort");
            let started = Instant::now();
            let port = loop {
                if let Ok(text) = std::fs::read_to_string(&active)
                    && let Some(port) = text.lines().next().filter(|p| !p.is_empty())
                {
                    break port.to_string();
                }
                assert!(
                    started.elapsed() < Duration::from_secs(60),
                    "chromium opened no DevTools port"
                );
                std::thread::sleep(Duration::from_millis(50));
            };
            let (ws_path, socket) = loop {
                let list: Value =
                    serde_json::from_str(&http_get(&port, "/json/list")).unwrap_or(Value::Null);
                let target = list
                    .as_array()
                    .and_then(|targets| targets.iter().find(|t| t["type"] == "page").cloned());
                if let Some(url) =
                    target.and_then(|t| t["webSocketDebuggerUrl"].as_str().map(str::to_string))
                {
                    let path = url.splitn(4, '/').nth(3).unwrap_or_default().to_string();
                    let socket = TcpStream::connect(format!("127.0.0.1:{port}")).expect("connects");
                    socket
                        .set_read_timeout(Some(Duration::from_secs(60)))
                        .expect("timeout");
                    break (path, socket);
                }
                assert!(
                    started.elapsed() < Duration::from_secs(60),
                    "no page target"
                );
                std::thread::sleep(Duration::from_millis(50));
            };
            let mut page = Page {
                child,
                socket,
                next: 0,
                _profile: profile,
            };
            write!(
                page.socket,
                "GET /{ws_path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n\
                 Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
                 Sec-WebSocket-Version: 13\r\n\r\n"
            )
            .expect("handshake");
            let mut reader = BufReader::new(page.socket.try_clone().expect("socket clones"));
            let mut status = String::new();
            reader.read_line(&mut status).expect("handshake answer");
            assert!(status.contains(" 101 "), "{status}");
            loop {
                let mut line = String::new();
                reader.read_line(&mut line).expect("headers");
                if line == "\r\n" {
                    break;
                }
            }
            page
        }

        fn send(&mut self, text: &str) {
            let bytes = text.as_bytes();
            let mut frame = vec![0x81u8];
            match bytes.len() {
                n if n < 126 => frame.push(0x80 | n as u8),
                n if n < 65536 => {
                    frame.push(0x80 | 126);
                    frame.extend_from_slice(&(n as u16).to_be_bytes());
                }
                n => {
                    frame.push(0x80 | 127);
                    frame.extend_from_slice(&(n as u64).to_be_bytes());
                }
            }
            // A zero mask leaves the payload as it is.
            frame.extend_from_slice(&[0, 0, 0, 0]);
            frame.extend_from_slice(bytes);
            self.socket.write_all(&frame).expect("frame sent");
        }

        fn receive(&mut self) -> String {
            let mut message = Vec::new();
            loop {
                let mut head = [0u8; 2];
                self.socket.read_exact(&mut head).expect("frame head");
                let len = match head[1] & 0x7f {
                    126 => {
                        let mut b = [0u8; 2];
                        self.socket.read_exact(&mut b).expect("length");
                        u64::from(u16::from_be_bytes(b))
                    }
                    127 => {
                        let mut b = [0u8; 8];
                        self.socket.read_exact(&mut b).expect("length");
                        u64::from_be_bytes(b)
                    }
                    n => u64::from(n),
                };
                let mut payload = vec![0u8; len as usize];
                self.socket.read_exact(&mut payload).expect("payload");
                message.extend_from_slice(&payload);
                if head[0] & 0x80 != 0 {
                    return String::from_utf8(message).expect("UTF-8");
                }
            }
        }

        /// Calls a DevTools method and waits for its answer.
        pub fn call(&mut self, method: &str, params: Value) -> Value {
            self.next += 1;
            let id = self.next;
            self.send(&json!({"id": id, "method": method, "params": params}).to_string());
            loop {
                let answer: Value = serde_json::from_str(&self.receive()).expect("JSON");
                if answer["id"] == id {
                    assert!(answer.get("error").is_none(), "{method}: {answer}");
                    return answer["result"].clone();
                }
            }
        }

        /// A JavaScript expression's value in the page.
        pub fn eval(&mut self, expression: &str) -> Value {
            self.call(
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true}),
            )["result"]["value"]
                .clone()
        }

        /// Waits until an expression is true in the page.
        pub fn wait(&mut self, expression: &str) {
            let started = Instant::now();
            while self.eval(expression) != Value::Bool(true) {
                assert!(
                    started.elapsed() < Duration::from_secs(60),
                    "never true: {expression}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
        }

        /// Presses a key (`ArrowDown`, `Home`, …) where the focus is.
        pub fn press(&mut self, key: &str, code: u32) {
            for kind in ["rawKeyDown", "keyUp"] {
                self.call(
                    "Input.dispatchKeyEvent",
                    json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
                );
            }
        }
    }
}

#[test]
fn the_outline_is_walked_with_the_arrow_keys() {
    let Some(browser) = chromium() else { return };
    let _one = ONE_BROWSER
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let dir = demo();
    let page = page(&dir, &[]);
    let mut tab = devtools::Page::open(&browser, &format!("file://{}", page.display()));
    tab.wait("document.documentElement.hasAttribute('data-ready')");
    tab.call("Page.bringToFront", serde_json::json!({}));
    tab.call(
        "Emulation.setFocusEmulationEnabled",
        serde_json::json!({"enabled": true}),
    );
    tab.eval("document.getElementById('rows').focus()");
    assert_eq!(tab.eval("document.activeElement.id"), "rows");
    let selected = |tab: &mut devtools::Page| {
        tab.eval(
            "[document.querySelector('[aria-selected=true]').dataset.id, location.hash, \
             document.querySelector('article:last-of-type').dataset.id]",
        )
    };
    // HEAD first (the URL names no entry yet); each key moves the
    // selection, the fragment and the chat.
    assert_eq!(selected(&mut tab), serde_json::json!(["e15", "", "e15"]));
    for (key, code, id) in [
        ("ArrowDown", 40, "e14"),
        ("ArrowDown", 40, "e13"),
        ("ArrowLeft", 37, "e12"),
        ("ArrowLeft", 37, "e11"),
        ("ArrowRight", 39, "e12"),
        ("End", 35, "e1"),
        ("ArrowUp", 38, "e2"),
        ("ArrowRight", 39, "e3"),
        ("Home", 36, "e15"),
    ] {
        tab.press(key, code);
        assert_eq!(
            selected(&mut tab),
            serde_json::json!([id, format!("#{id}"), id]),
            "after {key}"
        );
    }
}

#[test]
fn claude_code_markup_was_shown_raw_on_the_page() {
    let Some(browser) = chromium() else { return };
    let dir = with_fixture("claude/commands.jsonl");
    let page = page(&dir, &[]);
    // A short id, as `log` prints it, names an entry in the fragment too.
    let dom = dump_dom(&browser, &page, "30000000-d");
    assert_eq!(
        chat(&dom),
        lines(
            &dir.run(&["log", "30000000-d", "--reverse", "--format", "{id}"])
                .stdout
        )
    );
    let dom = dump_dom(&browser, &page, "");
    let chat_html = &dom[dom.find("id=\"chat\"").expect("the chat")..];
    for shown in [
        "<div class=\"command\">/model opus</div>",
        "<div class=\"command\">/model</div>",
        "<div class=\"command\">! uv run ty check</div>",
        "<b>output</b> Kept model as Default (recommended)",
        "<b>task b1f3 completed</b> Background command \"npm test\" completed (exit code 0)",
        "<b>context: system-reminder</b>",
        "<div class=\"text\">Why is the build slow?</div>",
        "entries on the path to 30000000-2 ",
    ] {
        assert!(chat_html.contains(shown), "{shown:?} in {chat_html}");
    }
    for raw in [
        "&lt;command-name",
        "&lt;bash-",
        "&lt;task-",
        "&lt;local-command",
        "[1m",
    ] {
        assert!(!chat_html.contains(raw), "{raw:?} in {chat_html}");
    }
}
