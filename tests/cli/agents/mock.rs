//! A mock model on 127.0.0.1 that speaks each agent's API with streaming:
//! Anthropic Messages (`POST /v1/messages`, Claude Code), OpenAI Responses
//! (`POST /v1/responses`, Codex), OpenAI chat completions (`POST
//! …/chat/completions`, Qwen Code and Copilot CLI) and the Gemini API
//! (`POST /v1beta/models/<model>:streamGenerateContent`, Gemini CLI). It
//! replies from a script (a
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
    /// `reasoning` item with a summary, chat completions'
    /// `reasoning_content`, Gemini's part with `thought: true`.
    Thinking(String),
    /// A tool call; `id` is the call's id in the APIs that have one (the
    /// Gemini API's `functionCall` carries none: Gemini CLI makes its own).
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
            ("POST", p) if p.ends_with("/chat/completions") => Some(Dialect::Chat),
            ("POST", p) if p.ends_with(":streamGenerateContent") => Some(Dialect::Gemini),
            ("POST", p) if p.ends_with(":generateContent") => Some(Dialect::Gemini),
            _ => None,
        };
        // Gemini CLI's structured calls (the router that picks a model, the
        // checks of who speaks next): answered from their JSON schema by
        // the mock itself, as no turn of the conversation.
        let structured = matches!(dialect, Some(Dialect::Gemini))
            .then(|| gemini_schema(&body))
            .flatten();
        let (Some(dialect), None) = (dialect, &structured) else {
            // Token counting, model lists, structured calls and anything
            // else: a small, valid answer.
            let (status, answer) = if let Some(schema) = &structured {
                let text = from_schema(schema).to_string();
                let id = next_id("gen");
                let chunk = gemini_chunk(&id, &gemini_model(route), vec![json!({"text": text})]);
                (200, gemini_finished(chunk, &Usage::default()))
            } else if route.ends_with("/count_tokens") {
                (200, json!({"input_tokens": 1}))
            } else if route.ends_with(":countTokens") {
                (200, json!({"totalTokens": 1}))
            } else if req.method == "GET" && route.ends_with("/models") {
                (
                    200,
                    json!({"object": "list", "data": [
                        {"id": "mock-model", "object": "model", "created": 1_700_000_000, "owned_by": "ysess"}
                    ]}),
                )
            } else if req.method == "HEAD" {
                (200, json!({}))
            } else {
                (404, json!({}))
            };
            let streamed = structured.is_some() && route.ends_with(":streamGenerateContent");
            recorded.lock().expect("the record").push(Recorded {
                path: req.path.clone(),
                body,
                usage: None,
                model: structured.is_some().then(|| gemini_model(route)),
                reply: None,
            });
            if streamed {
                let mut events = String::new();
                data(&mut events, &answer);
                respond(&mut out, status, "text/event-stream", &events)?;
            } else {
                respond(&mut out, status, "application/json", &answer.to_string())?;
            }
            continue;
        };
        // The Gemini API names the model in the path; the others in the body.
        let model = match dialect {
            Dialect::Gemini => Some(gemini_model(route)),
            _ => body["model"].as_str().map(str::to_string),
        };
        // Chat completions stream when asked to; the Gemini API by its route.
        let streams = match dialect {
            Dialect::Chat => body["stream"].as_bool().unwrap_or(false),
            Dialect::Gemini => route.ends_with(":streamGenerateContent"),
            _ => true,
        };
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
                    Dialect::Chat => "chatcmpl",
                    Dialect::Gemini => "gen",
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
                if !streams {
                    let whole = match dialect {
                        Dialect::Chat => chat_completion(&id, &model, &blocks, &usage),
                        _ => gemini_response(&id, &model, &blocks, &usage),
                    };
                    respond(&mut out, 200, "application/json", &whole.to_string())?;
                    continue;
                }
                let events = match dialect {
                    Dialect::Anthropic => anthropic_events(&id, &model, &blocks, &usage),
                    Dialect::Responses => responses_events(&id, &model, &blocks, &usage),
                    Dialect::Chat => chat_events(&id, &model, &blocks, &usage),
                    Dialect::Gemini => gemini_events(&id, &model, &blocks, &usage),
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
                    Dialect::Chat => {
                        json!({"error": {"type": "invalid_request_error", "code": null, "param": null, "message": message}})
                    }
                    Dialect::Gemini => {
                        json!({"error": {"code": status, "status": "INVALID_ARGUMENT", "message": message}})
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
                    // The role, then the first delta; no finish.
                    Dialect::Chat => {
                        let id = next_id("chatcmpl");
                        let mut first = String::new();
                        data(
                            &mut first,
                            &chat_chunk(
                                &id,
                                &model,
                                json!({"role": "assistant", "content": ""}),
                                None,
                            ),
                        );
                        data(
                            &mut first,
                            &chat_chunk(&id, &model, json!({"content": text}), None),
                        );
                        first
                    }
                    // One chunk of text, without a finish reason.
                    Dialect::Gemini => {
                        let mut first = String::new();
                        let chunk =
                            gemini_chunk(&next_id("gen"), &model, vec![json!({"text": text})]);
                        data(&mut first, &chunk);
                        first
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
    /// OpenAI chat completions.
    Chat,
    /// The Gemini API (`generateContent`, `streamGenerateContent`).
    Gemini,
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

/// One server-sent event of the APIs that send bare `data:` lines (chat
/// completions, the Gemini API).
fn data(out: &mut String, value: &Value) {
    out.push_str("data: ");
    out.push_str(&value.to_string());
    out.push_str("\n\n");
}

/// A [`Block::Pause`] in a stream.
fn pause(out: &mut String, ms: u64) {
    out.push(PAUSE);
    out.push_str(&ms.to_string());
    out.push(PAUSE);
}

/// Chat completions' usage: cached input inside `prompt_tokens`, reasoning
/// inside `completion_tokens`.
fn chat_usage(usage: &Usage) -> Value {
    json!({
        "prompt_tokens": usage.input + usage.cache_read,
        "completion_tokens": usage.output,
        "total_tokens": usage.input + usage.cache_read + usage.output,
        "prompt_tokens_details": {"cached_tokens": usage.cache_read},
        "completion_tokens_details": {"reasoning_tokens": usage.reasoning},
    })
}

fn chat_chunk(id: &str, model: &str, delta: Value, finish: Option<&str>) -> Value {
    json!({"id": id, "object": "chat.completion.chunk", "created": 1_700_000_000, "model": model,
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

/// A call as chat completions writes it (`arguments` a JSON string).
fn chat_call(index: usize, id: &str, name: &str, input: &Value) -> Value {
    json!({"index": index, "id": id, "type": "function",
        "function": {"name": name, "arguments": input.to_string()}})
}

/// OpenAI chat completions streaming: the role, a delta a block
/// (`content`, `reasoning_content`, `tool_calls`), the finish, then a
/// chunk with no choice that carries the usage, and `[DONE]`.
fn chat_events(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> String {
    let mut out = String::new();
    data(
        &mut out,
        &chat_chunk(id, model, json!({"role": "assistant", "content": ""}), None),
    );
    let mut calls = 0;
    for block in blocks {
        let delta = match block {
            Block::Pause(ms) => {
                pause(&mut out, *ms);
                continue;
            }
            Block::Text(text) => json!({"content": text}),
            Block::Thinking(text) => json!({"reasoning_content": text}),
            Block::Tool { id, name, input } => {
                calls += 1;
                json!({"tool_calls": [chat_call(calls - 1, id, name, input)]})
            }
        };
        data(&mut out, &chat_chunk(id, model, delta, None));
    }
    let finish = if calls > 0 { "tool_calls" } else { "stop" };
    data(&mut out, &chat_chunk(id, model, json!({}), Some(finish)));
    data(
        &mut out,
        &json!({"id": id, "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": model, "choices": [], "usage": chat_usage(usage)}),
    );
    out.push_str("data: [DONE]\n\n");
    out
}

/// A chat completion not streamed: one message.
fn chat_completion(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> Value {
    let mut text = String::new();
    let mut reasoning = String::new();
    let mut calls = Vec::new();
    for block in blocks {
        match block {
            Block::Text(t) => text.push_str(t),
            Block::Thinking(t) => reasoning.push_str(t),
            Block::Tool { id, name, input } => {
                let mut call = chat_call(calls.len(), id, name, input);
                call.as_object_mut().expect("an object").remove("index");
                calls.push(call);
            }
            Block::Pause(_) => {}
        }
    }
    let mut message = json!({"role": "assistant", "content": text});
    if !reasoning.is_empty() {
        message["reasoning_content"] = json!(reasoning);
    }
    let finish = if calls.is_empty() {
        "stop"
    } else {
        "tool_calls"
    };
    if !calls.is_empty() {
        message["tool_calls"] = Value::Array(calls);
    }
    json!({"id": id, "object": "chat.completion", "created": 1_700_000_000, "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": chat_usage(usage)})
}

/// The model a Gemini API route names (`/v1beta/models/<model>:…`).
fn gemini_model(route: &str) -> String {
    route
        .rsplit_once("/models/")
        .map(|(_, m)| m.split(':').next().unwrap_or(m))
        .unwrap_or("")
        .to_string()
}

/// The JSON schema a Gemini request asks its answer to follow, if any.
fn gemini_schema(body: &Value) -> Option<Value> {
    let config = &body["generationConfig"];
    ["responseJsonSchema", "responseSchema"]
        .iter()
        .map(|k| &config[*k])
        .find(|s| !s.is_null())
        .cloned()
        .or_else(|| {
            (config["responseMimeType"] == "application/json").then(|| json!({"type": "object"}))
        })
}

/// A value that follows `schema`: the first of an enum, 1 for a number (so
/// the router's `complexity_score` is 1: the simple model), `false`, `[]`,
/// and "mock" for a string.
fn from_schema(schema: &Value) -> Value {
    if let Some(first) = schema["enum"].as_array().and_then(|e| e.first()) {
        return first.clone();
    }
    let kind = match &schema["type"] {
        Value::Array(kinds) => kinds.first().and_then(Value::as_str).unwrap_or(""),
        other => other.as_str().unwrap_or(""),
    }
    .to_ascii_lowercase();
    if let Some(props) = schema["properties"].as_object() {
        return Value::Object(
            props
                .iter()
                .map(|(k, v)| (k.clone(), from_schema(v)))
                .collect(),
        );
    }
    match kind.as_str() {
        "object" => json!({}),
        "array" => json!([]),
        "integer" | "number" => json!(1),
        "boolean" => json!(false),
        _ => json!("mock"),
    }
}

fn gemini_chunk(id: &str, model: &str, parts: Vec<Value>) -> Value {
    json!({"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
        "modelVersion": model, "responseId": id})
}

/// `chunk` as a reply's last: its finish and the usage. The Gemini API
/// counts cached input inside `promptTokenCount`, and thoughts apart from
/// `candidatesTokenCount`.
fn gemini_finished(mut chunk: Value, usage: &Usage) -> Value {
    chunk["candidates"][0]["finishReason"] = json!("STOP");
    chunk["usageMetadata"] = json!({
        "promptTokenCount": usage.input + usage.cache_read,
        "cachedContentTokenCount": usage.cache_read,
        "candidatesTokenCount": usage.output,
        "thoughtsTokenCount": usage.reasoning,
        "totalTokenCount": usage.input + usage.cache_read + usage.output + usage.reasoning,
    });
    chunk
}

/// A block as a Gemini part (none for a pause).
fn gemini_part(block: &Block) -> Option<Value> {
    match block {
        Block::Text(text) => Some(json!({"text": text})),
        Block::Thinking(text) => Some(json!({"text": text, "thought": true})),
        Block::Tool { name, input, .. } => {
            Some(json!({"functionCall": {"name": name, "args": input}}))
        }
        Block::Pause(_) => None,
    }
}

/// Gemini API streaming (`?alt=sse`): a chunk a block, the last with the
/// finish and the usage.
fn gemini_events(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> String {
    let last = blocks.iter().rposition(|b| !matches!(b, Block::Pause(_)));
    let mut out = String::new();
    for (i, block) in blocks.iter().enumerate() {
        let Some(part) = gemini_part(block) else {
            if let Block::Pause(ms) = block {
                pause(&mut out, *ms);
            }
            continue;
        };
        let chunk = gemini_chunk(id, model, vec![part]);
        if Some(i) == last {
            data(&mut out, &gemini_finished(chunk, usage));
        } else {
            data(&mut out, &chunk);
        }
    }
    if last.is_none() {
        let chunk = gemini_chunk(id, model, vec![json!({"text": ""})]);
        data(&mut out, &gemini_finished(chunk, usage));
    }
    out
}

/// A Gemini answer not streamed: every part in one candidate.
fn gemini_response(id: &str, model: &str, blocks: &[Block], usage: &Usage) -> Value {
    let parts = blocks.iter().filter_map(gemini_part).collect();
    gemini_finished(gemini_chunk(id, model, parts), usage)
}

/// `body` POSTed (or, without one, a GET) to `path` of `mock`: the answer's
/// body.
fn ask(mock: &Mock, path: &str, body: Option<Value>) -> String {
    let mut conn = TcpStream::connect(("127.0.0.1", mock.port)).expect("the mock accepts");
    let request = match body {
        Some(body) => {
            let body = body.to_string();
            format!(
                "POST {path} HTTP/1.1\r\nhost: mock\r\ncontent-type: application/json\r\n\
                 content-length: {}\r\n\r\n{body}",
                body.len()
            )
        }
        None => format!("GET {path} HTTP/1.1\r\nhost: mock\r\n\r\n"),
    };
    conn.write_all(request.as_bytes()).expect("sent");
    conn.shutdown(std::net::Shutdown::Write).expect("sent all");
    let mut answer = String::new();
    conn.read_to_string(&mut answer).expect("an answer");
    answer
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default()
}

/// The JSON of each `data:` event of a stream (not `[DONE]`).
fn events(stream: &str) -> Vec<Value> {
    stream
        .lines()
        .filter_map(|l| l.strip_prefix("data: "))
        .filter_map(|d| serde_json::from_str(d).ok())
        .collect()
}

#[test]
fn the_mock_speaks_chat_completions_and_the_gemini_api_with_the_usage_it_records() {
    let usage = Usage {
        input: 10,
        output: 7,
        cache_read: 5,
        reasoning: 2,
        ..Usage::default()
    };
    let mock = Mock::start(move |_| Reply::Message {
        blocks: vec![
            Block::Thinking("Hm.".into()),
            Block::Text("Looking.".into()),
            Block::call("call_1".into(), "glob", json!({"pattern": "*.txt"})),
        ],
        usage,
    });

    let chat = events(&ask(
        &mock,
        "/v1/chat/completions",
        Some(
            json!({"model": "m", "stream": true, "messages": [{"role": "user", "content": "hi"}]}),
        ),
    ));
    let deltas: Vec<&Value> = chat.iter().map(|e| &e["choices"][0]["delta"]).collect();
    assert!(
        deltas.iter().any(|d| d["reasoning_content"] == "Hm."),
        "{chat:?}"
    );
    assert!(
        deltas.iter().any(|d| d["content"] == "Looking."),
        "{chat:?}"
    );
    let call = deltas
        .iter()
        .find_map(|d| d["tool_calls"].get(0))
        .expect("a call");
    assert_eq!(call["id"], "call_1");
    assert_eq!(call["function"]["arguments"], r#"{"pattern":"*.txt"}"#);
    assert!(
        chat.iter()
            .any(|e| e["choices"][0]["finish_reason"] == "tool_calls")
    );
    let reported = &chat.last().expect("the usage chunk")["usage"];
    assert_eq!(reported["prompt_tokens"], 15);
    assert_eq!(reported["prompt_tokens_details"]["cached_tokens"], 5);
    assert_eq!(reported["completion_tokens"], 7);
    assert_eq!(reported["completion_tokens_details"]["reasoning_tokens"], 2);

    let whole: Value = serde_json::from_str(&ask(
        &mock,
        "/v1/chat/completions",
        Some(json!({"model": "m", "messages": []})),
    ))
    .expect("a completion");
    assert_eq!(whole["choices"][0]["message"]["content"], "Looking.");
    assert_eq!(whole["usage"]["prompt_tokens"], 15);

    let gemini = events(&ask(
        &mock,
        "/v1beta/models/gem:streamGenerateContent?alt=sse",
        Some(json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})),
    ));
    let parts: Vec<&Value> = gemini
        .iter()
        .map(|e| &e["candidates"][0]["content"]["parts"][0])
        .collect();
    assert_eq!(
        parts,
        [
            &json!({"text": "Hm.", "thought": true}),
            &json!({"text": "Looking."}),
            &json!({"functionCall": {"name": "glob", "args": {"pattern": "*.txt"}}}),
        ]
    );
    let last = gemini.last().expect("a last chunk");
    assert_eq!(last["candidates"][0]["finishReason"], "STOP");
    assert_eq!(
        last["usageMetadata"],
        json!({"promptTokenCount": 15, "cachedContentTokenCount": 5, "candidatesTokenCount": 7,
            "thoughtsTokenCount": 2, "totalTokenCount": 24})
    );

    // The router: a JSON answer that follows its schema, not a call.
    let routed: Value = serde_json::from_str(&ask(
        &mock,
        "/v1beta/models/lite:generateContent",
        Some(json!({"contents": [], "generationConfig": {"responseJsonSchema": {"type": "OBJECT",
            "properties": {"complexity_reasoning": {"type": "STRING"}, "complexity_score": {"type": "INTEGER"}}}}})),
    ))
    .expect("a JSON answer");
    let text = routed["candidates"][0]["content"]["parts"][0]["text"]
        .as_str()
        .expect("text");
    let answer: Value = serde_json::from_str(text).expect("JSON text");
    assert_eq!(answer["complexity_score"], 1);

    let models: Value =
        serde_json::from_str(&ask(&mock, "/v1/models", None)).expect("a model list");
    assert_eq!(models["data"][0]["id"], "mock-model");

    let calls = mock.calls();
    assert_eq!(calls.len(), 3, "the router and the model list are no calls");
    assert!(calls.iter().all(|c| c.usage == Some(usage)));
    assert_eq!(calls[2].model.as_deref(), Some("gem"));
    assert_eq!(calls[0].body["messages"][0]["content"], "hi");
}
