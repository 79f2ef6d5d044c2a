// pi itself, driven from ysess's tests: pi writes sessions, and pi reopens
// what ysess wrote, so the tests compare ysess with pi's own reading.
//
//   node harness.mjs gen SEED OUT            write a seeded pi session to OUT
//   node harness.mjs inspect FILE            print pi's view of FILE as one JSON object
//   node harness.mjs sessions DIR SEED...    gen DIR/SEED.jsonl for each seed, then
//                                            inspect it; one JSON object a line
//                                            (one node start for many seeds)
//   node harness.mjs append FILE TEXT        pi resumes FILE: a user and an assistant
//                                            message; prints the new leaf id
//   node harness.mjs label FILE TARGET NAME  pi labels TARGET (NAME "" clears);
//                                            prints the label entry's id
//
// Needs no network and no API keys: only SessionManager is used, which
// reads and appends files.

import { existsSync } from "node:fs";
import { join } from "node:path";

// The module the package's index re-exports SessionManager from, loaded
// alone: the index also loads every provider SDK and the TUI, 1.3 s a start
// against 0.04 s, and the tests start node several times.
const { SessionManager } = await import(
  new URL("./core/session-manager.js", import.meta.resolve("@mariozechner/pi-coding-agent"))
);

// mulberry32: the session's shape depends on SEED alone; pi picks the ids and
// entry timestamps itself, so those differ from run to run.
function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  return {
    int,
    chance: (p) => next() < p,
    pick: (xs) => xs[int(xs.length)],
    hex: (n) => Array.from({ length: n }, () => int(16).toString(16)).join(""),
  };
}

const WORDS = [
  "parse", "the", "config", "file", "and", "check", "every", "field", "tree", "branch",
  "fork", "label", "résumé", "naïve", "日本語", "tests", "fail", "pass", "rewind", "again",
];
const LABELS = ["plan", "good", "review", "retry", "v1", "bug", "done", "before-fork", "idea", "keep"];
const TOOLS = ["read", "bash", "edit", "write"];
const MODELS = [
  ["anthropic", "anthropic-messages", "claude-sonnet-4-5"],
  ["openai", "openai-responses", "gpt-5"],
  ["google", "google-generative-ai", "gemini-2.5-pro"],
];

function gen(seed, out) {
  // pi would append to a file that is there: gen writes fresh sessions only
  if (existsSync(out)) throw new Error(`${out} exists`);
  const r = rng(seed);
  const sm = SessionManager.open(out, undefined, "/home/user/project");
  let clock = 1767225600000 + seed * 1000; // message timestamps (ms), from the seed
  const tick = () => (clock += 1 + r.int(5000));
  const words = (n) => Array.from({ length: n }, () => r.pick(WORDS)).join(" ");
  let model = MODELS[0];

  const usage = () => {
    const input = r.int(20000);
    const output = r.int(4000);
    const cacheRead = r.chance(0.5) ? r.int(50000) : 0;
    const cacheWrite = r.chance(0.3) ? r.int(8000) : 0;
    const cost = {
      input: input * 3e-6,
      output: output * 15e-6,
      cacheRead: cacheRead * 3e-7,
      cacheWrite: cacheWrite * 3.75e-6,
    };
    cost.total = cost.input + cost.output + cost.cacheRead + cost.cacheWrite;
    return { input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite, cost };
  };
  const assistant = (content, stopReason) => ({
    role: "assistant",
    content,
    api: model[1],
    provider: model[0],
    model: model[2],
    usage: usage(),
    stopReason,
    timestamp: tick(),
  });
  const user = () => {
    const text = words(3 + r.int(8));
    let content = text;
    if (r.chance(0.4)) {
      content = [{ type: "text", text }];
      if (r.chance(0.3)) content.push({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    }
    return { role: "user", content, timestamp: tick() };
  };

  // One turn: the user asks; the assistant maybe thinks, maybe calls tools
  // (each answered by a toolResult, some of them errors), then answers.
  const turn = () => {
    sm.appendMessage(user());
    for (let round = 0; round < 2 && r.chance(0.45); round++) {
      const calls = Array.from({ length: 1 + r.int(2) }, () => {
        const name = r.pick(TOOLS);
        return { type: "toolCall", id: `call_${r.hex(12)}`, name, arguments: { path: `src/${r.pick(WORDS)}.rs`, n: r.int(100) } };
      });
      const content = r.chance(0.5) ? [{ type: "thinking", thinking: words(6) }] : [];
      if (r.chance(0.5)) content.push({ type: "text", text: words(4) });
      sm.appendMessage(assistant([...content, ...calls], "toolUse"));
      for (const call of calls) {
        const isError = r.chance(0.25);
        sm.appendMessage({
          role: "toolResult",
          toolCallId: call.id,
          toolName: call.name,
          content: [{ type: "text", text: isError ? `error: ${words(3)}` : words(5) }],
          isError,
          timestamp: tick(),
        });
      }
    }
    const content = r.chance(0.4) ? [{ type: "thinking", thinking: words(8) }] : [];
    content.push({ type: "text", text: words(5 + r.int(10)) });
    sm.appendMessage(assistant(content, r.chance(0.9) ? "stop" : "length"));
  };

  // Entries a label, fork or compaction may point at: everything but labels
  // (pi can label a label entry, but no person does).
  const targets = () => sm.getEntries().filter((e) => e.type !== "label").map((e) => e.id);
  const onPath = () => sm.getBranch().filter((e) => e.type === "message").map((e) => e.id);
  // Names stay unique across targets, so pi's labels read as a set of tags.
  const labelled = () => [...new Set(sm.getEntries().filter((e) => e.type === "label").map((e) => e.targetId))]
    .filter((id) => sm.getLabel(id) !== undefined);
  const freeName = () => {
    const used = new Set(labelled().map((id) => sm.getLabel(id)));
    const free = LABELS.filter((n) => !used.has(n));
    return free.length ? r.pick(free) : `tag-${r.hex(4)}`;
  };

  const actions = {
    turn,
    fork: () => {
      sm.branch(r.pick(targets()));
      turn();
    },
    label: () => sm.appendLabelChange(r.pick(targets()), freeName()),
    // a target's new name replaces its old one: one label per target
    relabel: () => {
      const ids = labelled();
      if (!ids.length) return actions.label();
      sm.appendLabelChange(r.pick(ids), freeName());
    },
    // the name moves: set on the new target, then cleared on the old
    moveLabel: () => {
      const ids = labelled();
      if (!ids.length) return actions.label();
      const from = r.pick(ids);
      const name = sm.getLabel(from);
      const to = r.pick(targets().filter((id) => id !== from && !ids.includes(id)));
      if (to === undefined) return;
      sm.appendLabelChange(to, name);
      sm.appendLabelChange(from, "");
    },
    clearLabel: () => {
      if (!labelled().length) actions.label();
      sm.appendLabelChange(r.pick(labelled()), "");
    },
    model: () => {
      model = r.pick(MODELS);
      sm.appendModelChange(model[0], model[2]);
    },
    thinking: () => sm.appendThinkingLevelChange(r.pick(["off", "minimal", "low", "medium", "high", "xhigh"])),
    custom: () => sm.appendCustomEntry("harness.state", { step: r.int(1000), note: words(2) }),
    customMessage: () => sm.appendCustomMessageEntry("harness.note", words(4), r.chance(0.5)),
    sessionInfo: () => sm.appendSessionInfo(words(2)),
    compaction: () => {
      const path = onPath();
      sm.appendCompaction(words(12), path[r.int(path.length)], 1000 + r.int(100000));
    },
    branchSummary: () => {
      sm.branchWithSummary(r.pick(targets()), words(10));
      turn();
    },
  };

  // What every session has, in a seeded order after a first turn, and
  // random extras until the session is long enough.
  const must = ["fork", "label", "label", "relabel", "moveLabel", "clearLabel", "model", "thinking", "custom"];
  if (r.chance(0.5)) must.push("compaction");
  if (r.chance(0.5)) must.push("branchSummary");
  const extras = [
    "turn", "turn", "turn", "turn", "fork", "fork", "label", "clearLabel", "model", "thinking",
    "custom", "customMessage", "sessionInfo", "compaction", "branchSummary",
  ];
  turn();
  const size = 10 + r.int(30);
  while (must.length || sm.getEntries().length < size) {
    const take = must.length && (sm.getEntries().length >= size || r.chance(0.5));
    const action = take ? must.splice(r.int(must.length), 1)[0] : r.pick(extras);
    actions[action]();
  }
  const n = sm.getEntries().length;
  if (n < 10 || n > 60) throw new Error(`seed ${seed}: ${n} entries, outside 10..60`);
}

function inspect(file) {
  const sm = SessionManager.open(file);
  const entries = sm.getEntries();
  const branch = sm.getBranch();
  const labels = {};
  for (const e of entries) {
    const label = sm.getLabel(e.id);
    if (label !== undefined) labels[e.id] = label;
  }
  // tips: entries nothing follows, in file order (labels are entries to pi)
  const parents = new Set(entries.map((e) => e.parentId));
  return {
    leafId: sm.getLeafId(),
    branch: branch.map((e) => e.id),
    branchTypes: branch.map((e) => e.type),
    entries: entries.map((e) => ({
      id: e.id,
      parentId: e.parentId,
      type: e.type,
      ...(e.firstKeptEntryId !== undefined && { firstKeptEntryId: e.firstKeptEntryId }),
    })),
    tips: entries.filter((e) => !parents.has(e.id)).map((e) => e.id),
    labels,
    context: sm.buildSessionContext().messages.length,
    header: sm.getHeader(),
  };
}

function append(file, text) {
  const sm = SessionManager.open(file);
  sm.appendMessage({ role: "user", content: text, timestamp: Date.now() });
  sm.appendMessage({
    role: "assistant",
    content: [{ type: "text", text: `resumed: ${text}` }],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: Date.now(),
  });
  return sm.getLeafId();
}

function usage() {
  process.stderr.write(
    "usage: harness.mjs gen SEED OUT | inspect FILE | sessions DIR SEED... | append FILE TEXT | label FILE TARGET NAME\n",
  );
  process.exit(2);
}

function seedOf(s) {
  if (!/^\d+$/.test(s)) usage();
  return Number(s);
}

const [cmd, ...args] = process.argv.slice(2);
const print = (v) => process.stdout.write(`${typeof v === "string" ? v : JSON.stringify(v)}\n`);
switch (cmd) {
  case "gen":
    if (args.length !== 2) usage();
    gen(seedOf(args[0]), args[1]);
    break;
  case "inspect":
    if (args.length !== 1) usage();
    print(inspect(args[0]));
    break;
  case "sessions": {
    if (args.length < 2) usage();
    const [dir, ...seeds] = args;
    for (const s of seeds) {
      const out = join(dir, `${seedOf(s)}.jsonl`);
      gen(Number(s), out);
      print(inspect(out));
    }
    break;
  }
  case "append":
    if (args.length !== 2) usage();
    print(append(args[0], args[1]));
    break;
  case "label": {
    if (args.length !== 3) usage();
    const sm = SessionManager.open(args[0]);
    print(sm.appendLabelChange(args[1], args[2]));
    break;
  }
  default:
    usage();
}
