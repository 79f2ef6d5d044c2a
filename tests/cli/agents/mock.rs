//! A mock model on 127.0.0.1 that speaks each agent's API with streaming:
//! Anthropic Messages (`POST /v1/messages`, Claude Code) and OpenAI
//! Responses (`POST /v1/responses`, Codex). It replies from a script (a
//! function of the request), sets each reply's usage, and records every
//! request it gets with the usage it reported, so the true token totals of
//! every session an agent writes against it are known.
//!
//! std only: one thread accepts, one thread a connection, HTTP/1.1 with
//! keep-alive, request bodies by `Content-Length` or chunked. A reply's
//! events are sent as one `text/event-stream` body (the agents parse the
//! stream as it comes; they do not need it slow).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

/// One content block of a scripted reply.
#[derive(Debug, Clone)]
pub enum Block {
    Text(String),
    /// Reasoning: Anthropic's `thinking` (with a signature), OpenAI's
    /// `reasoning` item with a summary.
    Thinking(String),
    /// A tool call; `id` is the call's id in both APIs.
    Tool {
        id: String,
        name: String,
        input: Value,
    },
    /// The stream stops this many milliseconds before the next block, as a
    /// model's does while it writes (the agent may start a call's tool
    /// meanwhile).
    Pause(u64),
}

impl Block {
    /// A call of `name` with `input`, its id `id`.
    pub fn call(id: String, name: &str, input: Value) -> Block {
        Block::Tool {
            id,
            name: name.to_string(),
            input,
        }
    }
}

/// The mark between a stream's parts where [`Block::Pause`] stands.
const PAUSE: char = '\u{1}';

/// What one reply reports it used. `input` is the uncached input; OpenAI
/// counts cached input inside `input_tokens`, and the mock reports it so.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Usage {
    pub input: u64,
    pub output: u64,
    pub cache_read: u64,
    /// Cache writes kept five minutes.
    pub cache_write_5m: u64,
    /// Cache writes kept one hour (Anthropic's `ephemeral_1h_input_tokens`).
    pub cache_write_1h: u64,
    /// The part of `output` spent reasoning (OpenAI's `reasoning_tokens`).
    pub reasoning: u64,
}

impl Usage {
    pub fn add(&mut self, o: &Usage) {
        self.input += o.input;
        self.output += o.output;
        self.cache_read += o.cache_read;
        self.cache_write_5m += o.cache_write_5m;
        self.cache_write_1h += o.cache_write_1h;
        self.reasoning += o.reasoning;
    }
}

/// A scripted answer to one request.
#[derive(Debug, Clone)]
pub enum Reply {
    Message {
        blocks: Vec<Block>,
        usage: Usage,
    },
    /// An HTTP error with the API's own error body.
    Error {
        status: u16,
        message: String,
    },
    /// Starts the stream, sends `text` as the first delta, then holds the
    /// connection open without ending the reply: the client is killed
    /// mid-turn (an interrupted turn).
    Hang {
        text: String,
    },
}

impl Reply {
    pub fn text(text: &str, usage: Usage) -> Reply {
        Reply::Message {
            blocks: vec![Block::Text(text.to_string())],
            usage,
        }
    }
}

/// One request the mock got, and the usage it reported for it (none for
/// an error, a hang or a request that is not a model call).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Recorded {
    pub path: String,
    pub body: Value,
    pub usage: Option<Usage>,
    pub model: Option<String>,
    /// The id the mock gave its reply (Anthropic's `message.id`, OpenAI's
    /// response id), by which a file's line names the call it holds.
    pub reply: Option<String>,
}

type Script = dyn Fn(&Value) -> Reply + Send + Sync;

/// A running mock; stops accepting when dropped.
pub struct Mock {
    pub port: u16,
    recorded: Arc<Mutex<Vec<Recorded>>>,
    stop: Arc<AtomicBool>,
    /// Requests currently held open by a `Hang` reply.
    pub hanging: Arc<AtomicU64>,
}

impl Mock {
    pub fn start(script: impl Fn(&Value) -> Reply + Send + Sync + 'static) -> Mock {
        let listener = TcpListener::bind("127.0.0.1:0").expect("the mock binds a loopback port");
        let port = listener.local_addr().expect("a bound address").port();
        let recorded = Arc::new(Mutex::new(Vec::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let hanging = Arc::new(AtomicU64::new(0));
        let script: Arc<Script> = Arc::new(script);
        {
            let (recorded, stop, hanging) = (recorded.clone(), stop.clone(), hanging.clone());
            std::thread::spawn(move || {
                for conn in listener.incoming() {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(conn) = conn else { continue };
                    let (recorded, script, hanging, stop) = (
                        recorded.clone(),
                        script.clone(),
                        hanging.clone(),
                        stop.clone(),
                    );
                    std::thread::spawn(move || {
                        let _ = serve(conn, &*script, &recorded, &hanging, &stop);
                    });
                }
            });
        }
        Mock {
            port,
            recorded,
            stop,
            hanging,
        }
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far, in the order they came.
    pub fn recorded(&self) -> Vec<Recorded> {
        self.recorded.lock().expect("the record").clone()
    }

    /// The model calls so far (requests answered with a message).
    pub fn calls(&self) -> Vec<Recorded> {
        self.recorded()
            .into_iter()
            .filter(|r| r.usage.is_some())
            .collect()
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

struct Request {
    method: String,
    path: String,
    body: Vec<u8>,
}

fn read_request(reader: &mut BufReader<TcpStream>) -> std::io::Result<Option<Request>> {
    let mut line = String::new();
    if reader.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let (mut length, mut chunked) = (0usize, false);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 {
            return Ok(None);
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "content-length" {
                length = value.parse().unwrap_or(0);
            } else if name == "transfer-encoding" && value.eq_ignore_ascii_case("chunked") {
                chunked = true;
            }
        }
    }
    let mut body = Vec::new();
    if chunked {
        loop {
            let mut size = String::new();
            reader.read_line(&mut size)?;
            let size = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            let mut chunk = vec![0; size + 2];
            reader.read_exact(&mut chunk)?;
            if size == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..size]);
        }
    } else {
        body.resize(length, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(Some(Request { method, path, body }))
}

fn serve(
    conn: TcpStream,
    script: &Script,
    recorded: &Mutex<Vec<Recorded>>,
    hanging: &AtomicU64,
    stop: &AtomicBool,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut out = conn;
    while let Some(req) = read_request(&mut reader)? {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let route = req.path.split('?').next().unwrap_or("");
        let dialect = match (req.method.as_str(), route) {
            ("POST", p) if p.ends_with("/messages") => Some(Dialect::Anthropic),
            ("POST", p) if p.ends_with("/responses") => Some(Dialect::Responses),
            _ => None,
        };
        let Some(dialect) = dialect else {
            // Token counting and anything else: a small, valid answer.
            let answer = if route.ends_with("/count_tokens") {
                json!({"input_tokens": 1})
            } else {
                json!({})
            };
            recorded.lock().expect("the record").push(Recorded {
                path: req.path.clone(),
                body,
                usage: None,
                model: None,
                reply: None,
            });
            let status = if req.method == "HEAD" || route.ends_with("/count_tokens") {
                200
            } else {
                404
            };
            respond(&mut out, status, "application/json", &answer.to_string())?;
            continue;
        };
        let model = body["model"].as_str().map(str::to_string);
        let reply = script(&body);
        let (usage, reply_id) = match &reply {
            // A reply cut off after `message_start` has reported the usage
            // that event carries (one output token so far).
            Reply::Hang { .. } if matches!(dialect, Dialect::Anthropic) => (
                Some(Usage {
                    output: 1,
                    ..Usage::default()
                }),
                Some(next_id("msg")),
            ),
            Reply::Message { usage, .. } => (
                Some(*usage),
                Some(next_id(match dialect {
                    Dialect::Anthropic => "msg",
                    Dialect::Responses => "resp",
                })),
            ),
            _ => (None, None),
        };
        recorded.lock().expect("the record").push(Recorded {
            path: req.path.clone(),
            body: body.clone(),
            usage,
            model: model.clone(),
            reply: reply_id.clone(),
        });
        let model = model.unwrap_or_default();
        match reply {
            Reply::Message { blocks, usage } => {
                let id = reply_id.unwrap_or_default();
                let events = match dialect {
                    Dialect::Anthropic => anthropic_events(&id, &model, &blocks, &usage),
                    Dialect::Responses => responses_events(&id, &model, &blocks, &usage),
                };
                if events.contains(PAUSE) {
                    stream(&mut out, &events)?;
                } else {
                    respond(&mut out, 200, "text/event-stream", &events)?;
                }
            }
            Reply::Error { status, message } => {
                let body = match dialect {
                    Dialect::Anthropic => {
                        json!({"type": "error", "error": {"type": "invalid_request_error", "message": message}})
                    }
                    Dialect::Responses => {
                        json!({"error": {"type": "invalid_request_error", "code": "invalid_request", "message": message}})
                    }
                };
                respond(&mut out, status, "application/json", &body.to_string())?;
            }
            Reply::Hang { text } => {
                let first = match dialect {
                    Dialect::Anthropic => {
                        let id = reply_id.unwrap_or_default();
                        let all =
                            anthropic_events(&id, &model, &[Block::Text(text)], &Usage::default());
                        // Up to and including the first delta.
                        let cut = all.find("event: content_block_stop").unwrap_or(all.len());
                        all[..cut].to_string()
                    }
                    Dialect::Responses => {
                        let all = responses_events(
                            &next_id("resp"),
                            &model,
                            &[Block::Text(text)],
                            &Usage::default(),
                        );
                        let cut = all
                            .find("event: response.output_text.done")
                            .unwrap_or(all.len());
                        all[..cut].to_string()
                    }
                };
                write!(
                    out,
                    "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nrequest-id: {}\r\n\
                     cache-control: no-cache\r\n\r\n{first}",
                    next_id("req")
                )?;
                out.flush()?;
                hanging.fetch_add(1, Ordering::SeqCst);
                // Held until the client goes away or the mock stops.
                let mut sink = [0u8; 64];
                let _ = out.set_read_timeout(Some(std::time::Duration::from_millis(200)));
                loop {
                    if stop.load(Ordering::SeqCst) {
                        break;
                    }
                    match reader.get_mut().read(&mut sink) {
                        Ok(0) => break,
                        Ok(_) => {}
                        Err(e)
                            if matches!(
                                e.kind(),
                                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                            ) => {}
                        Err(_) => break,
                    }
                }
                hanging.fetch_sub(1, Ordering::SeqCst);
                return Ok(());
            }
        }
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Dialect {
    Anthropic,
    Responses,
}

fn respond(out: &mut TcpStream, status: u16, kind: &str, body: &str) -> std::io::Result<()> {
    let reason = match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Error",
    };
    // Every answer carries a request id, as the APIs' do (Claude Code
    // records it as `requestId`; ccusage counts a reply once by it).
    write!(
        out,
        "HTTP/1.1 {status} {reason}\r\ncontent-type: {kind}\r\nrequest-id: {}\r\n\
         x-request-id: {}\r\ncontent-length: {}\r\n\r\n{body}",
        next_id("req"),
        next_id("req"),
        body.len()
    )?;
    out.flush()
}

/// A stream sent in parts, chunked, with the pauses [`PAUSE`] marks.
fn stream(out: &mut TcpStream, events: &str) -> std::io::Result<()> {
    write!(
        out,
        "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nrequest-id: {}\r\n\
         transfer-encoding: chunked\r\n\r\n",
        next_id("req")
    )?;
    for (i, part) in events.split(PAUSE).enumerate() {
        if i % 2 == 1 {
            out.flush()?;
            let ms = part.parse().unwrap_or(0);
            std::thread::sleep(std::time::Duration::from_millis(ms));
            continue;
        }
        if !part.is_empty() {
            write!(out, "{:x}\r\n{part}\r\n", part.len())?;
        }
    }
    write!(out, "0\r\n\r\n")?;
    out.flush()
}

fn sse(out: &mut String, event: &str, data: Value) {
    out.push_str("event: ");
    out.push_str(event);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn next_id(prefix: &str) -> String {
    format!("{prefix}_mock{:06}", NEXT_ID.fetch_add(1, Ordering::SeqCst))
}

/// Anthropic Messages streaming: `message_start` carries the input side of
/// the usage, `message_delta` the output tokens.
fn anthropic_events(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> String {
    let mut out = String::new();
    let cache_write = usage.cache_write_5m + usage.cache_write_1h;
    sse(
        &mut out,
        "message_start",
        json!({"type": "message_start", "message": {
            "id": id, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {
                "input_tokens": usage.input,
                "cache_creation_input_tokens": cache_write,
                "cache_read_input_tokens": usage.cache_read,
                "cache_creation": {
                    "ephemeral_5m_input_tokens": usage.cache_write_5m,
                    "ephemeral_1h_input_tokens": usage.cache_write_1h,
                },
                "output_tokens": 1,
            }
        }}),
    );
    let mut calls_tool = false;
    let mut index = 0usize;
    for block in blocks {
        match block {
            Block::Pause(ms) => {
                out.push(PAUSE);
                out.push_str(&ms.to_string());
                out.push(PAUSE);
                continue;
            }
            Block::Text(text) => {
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}}),
                );
                sse(
                    &mut out,
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "text_delta", "text": text}}),
                );
            }
            Block::Thinking(text) => {
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
                );
                sse(
                    &mut out,
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "thinking_delta", "thinking": text}}),
                );
                sse(
                    &mut out,
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "signature_delta", "signature": format!("sig-{}", next_id("th"))}}),
                );
            }
            Block::Tool { id, name, input } => {
                calls_tool = true;
                sse(
                    &mut out,
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index, "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
                );
                sse(
                    &mut out,
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index, "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
                );
            }
        }
        sse(
            &mut out,
            "content_block_stop",
            json!({"type": "content_block_stop", "index": index}),
        );
        index += 1;
    }
    sse(
        &mut out,
        "message_delta",
        json!({"type": "message_delta",
            "delta": {"stop_reason": if calls_tool { "tool_use" } else { "end_turn" }, "stop_sequence": null},
            "usage": {"output_tokens": usage.output}}),
    );
    sse(&mut out, "message_stop", json!({"type": "message_stop"}));
    out
}

/// OpenAI Responses streaming: each output item added and done, then
/// `response.completed` with the usage (cached input inside
/// `input_tokens`, reasoning inside `output_tokens`).
fn responses_events(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> String {
    let mut out = String::new();
    let response = |status: &str, output: Vec<Value>, usage: Value| {
        json!({"id": id, "object": "response", "created_at": 1_700_000_000, "status": status,
            "model": model, "output": output, "usage": usage})
    };
    sse(
        &mut out,
        "response.created",
        json!({"type": "response.created", "response": response("in_progress", vec![], Value::Null)}),
    );
    let mut items = Vec::new();
    for (index, block) in blocks
        .iter()
        .filter(|b| !matches!(b, Block::Pause(_)))
        .enumerate()
    {
        let item = match block {
            Block::Pause(_) => continue,
            Block::Text(text) => {
                let item_id = next_id("msg");
                sse(
                    &mut out,
                    "response.output_item.added",
                    json!({"type": "response.output_item.added", "output_index": index,
                        "item": {"type": "message", "id": item_id, "role": "assistant", "status": "in_progress", "content": []}}),
                );
                sse(
                    &mut out,
                    "response.output_text.delta",
                    json!({"type": "response.output_text.delta", "item_id": item_id, "output_index": index, "content_index": 0, "delta": text}),
                );
                sse(
                    &mut out,
                    "response.output_text.done",
                    json!({"type": "response.output_text.done", "item_id": item_id, "output_index": index, "content_index": 0, "text": text}),
                );
                json!({"type": "message", "id": item_id, "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}]})
            }
            Block::Thinking(text) => {
                let item_id = next_id("rs");
                json!({"type": "reasoning", "id": item_id,
                    "summary": [{"type": "summary_text", "text": text}]})
            }
            Block::Tool { id, name, input } => {
                let item_id = next_id("fc");
                json!({"type": "function_call", "id": item_id, "call_id": id, "name": name,
                    "arguments": input.to_string(), "status": "completed"})
            }
        };
        sse(
            &mut out,
            "response.output_item.done",
            json!({"type": "response.output_item.done", "output_index": index, "item": item}),
        );
        items.push(item);
    }
    let usage = json!({
        "input_tokens": usage.input + usage.cache_read,
        "input_tokens_details": {"cached_tokens": usage.cache_read},
        "output_tokens": usage.output,
        "output_tokens_details": {"reasoning_tokens": usage.reasoning},
        "total_tokens": usage.input + usage.cache_read + usage.output,
    });
    sse(
        &mut out,
        "response.completed",
        json!({"type": "response.completed", "response": response("completed", items, usage)}),
    );
    out
}
