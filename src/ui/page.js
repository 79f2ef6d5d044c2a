(function () {
  "use strict";
  // Session text only ever reaches the page through textContent and
  // createElement: never as markup.
  var doc = document;
  var root = doc.documentElement;
  var started = performance.now();
  var byId = function (id) { return doc.getElementById(id); };
  function el(tag, cls, text) {
    var e = doc.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function stamp(name) {
    root.setAttribute("data-" + name, String(Math.round(performance.now())));
  }
  try {
    new PerformanceObserver(function (list) {
      list.getEntries().forEach(function (p) {
        root.setAttribute("data-" + p.name, String(Math.round(p.startTime)));
      });
    }).observe({ type: "paint", buffered: true });
  } catch (e) { /* no paint timing: nothing to record */ }

  var tree = JSON.parse(byId("tree").textContent);
  var nodes = tree.nodes;
  var n = nodes.length;
  var msgs = null;
  function messages() {
    if (!msgs) {
      var block = byId("messages");
      msgs = JSON.parse(block.textContent);
      block.textContent = "";
      stamp("messages");
    }
    return msgs;
  }

  // The drawing's lines: an entry's row, or a line of graph alone (-1).
  var lineText = [];
  var lineNode = [];
  var rowOf = new Int32Array(n).fill(-1);
  tree.rows.forEach(function (r) {
    if (r.gap !== undefined) { lineText.push(r.gap); lineNode.push(-1); }
    if (r.connector !== undefined) { lineText.push(r.connector); lineNode.push(-1); }
    rowOf[r.at] = lineText.length;
    lineText.push(r.prefix);
    lineNode.push(r.at);
  });
  var index = new Map();
  // An entry is named by its id, or by its short id as ysess prints it.
  nodes.forEach(function (node, k) { index.set(node.id, k); index.set(node.short || node.id, k); });

  var ROLE = { user: "User", assistant: "Assistant", toolResult: "Tool result", custom: "Custom" };
  var H = 20;
  var outline = byId("outline");
  var rowsEl = byId("rows");
  var chat = byId("chat");
  var sel = -1;
  var onPath = new Uint8Array(n);

  function badges(parent, node, k) {
    if (tree.head === k) parent.append(el("span", "badge head", "HEAD"));
    (node.branches || []).forEach(function (b) { parent.append(el("span", "badge branch", b)); });
    (node.labels || []).forEach(function (l) {
      parent.append(el("span", "badge label", l === "" ? '""' : l));
    });
  }
  function shortTime(ms) {
    var d = new Date(ms);
    return isNaN(d) ? "" : d.toISOString().slice(0, 16).replace("T", " ");
  }

  // Only the rows in view (and a margin) are in the document.
  var drawn = "";
  function drawRows(force) {
    var top = outline.scrollTop;
    var height = outline.clientHeight || 800;
    var first = Math.max(0, Math.floor(top / H) - 30);
    var last = Math.min(lineText.length, Math.ceil((top + height) / H) + 30);
    var key = first + ":" + last;
    if (!force && key === drawn) return;
    drawn = key;
    var frag = doc.createDocumentFragment();
    for (var line = first; line < last; line++) {
      var k = lineNode[line];
      var row = el("div", k < 0 ? "row line" : "row");
      row.style.top = line * H + "px";
      row.append(el("span", "g", lineText[line]));
      if (k >= 0) {
        var node = nodes[k];
        row.id = "row-" + k;
        row.setAttribute("role", "treeitem");
        row.setAttribute("data-id", node.id);
        row.setAttribute("aria-selected", k === sel ? "true" : "false");
        if (k === sel) row.classList.add("selected");
        else if (onPath[k]) row.classList.add("on-path");
        row.append(el("span", "id", node.short || node.id), " ");
        badges(row, node, k);
        row.append(el("span", "role", node.role + (node.tag ? " " + node.tag : "")));
        row.append(" " + shortTime(node.time) + " " + node.subject);
        row.title = node.subject;
      }
      frag.append(row);
    }
    rowsEl.replaceChildren(frag);
  }
  rowsEl.style.height = lineText.length * H + "px";
  var pending = false;
  outline.addEventListener("scroll", function () {
    if (pending) return;
    pending = true;
    requestAnimationFrame(function () { pending = false; drawRows(false); });
  });
  rowsEl.addEventListener("click", function (ev) {
    var row = ev.target.closest ? ev.target.closest(".row") : null;
    if (row && row.hasAttribute("data-id")) {
      go(index.get(row.getAttribute("data-id")), true);
    }
  });

  function pathOf(k) {
    var path = [];
    for (var c = k; c !== null && c !== undefined && c >= 0; c = nodes[c].parent) path.push(c);
    return path.reverse();
  }

  function go(k, push) {
    if (k === undefined || k < 0 || k >= n) return;
    var hash = "#" + encodeURIComponent(nodes[k].id);
    if (location.hash !== hash) {
      if (push) location.hash = hash; else history.replaceState(null, "", hash);
    }
    select(k);
  }

  function select(k) {
    if (sel >= 0) pathOf(sel).forEach(function (c) { onPath[c] = 0; });
    sel = k;
    pathOf(k).forEach(function (c) { onPath[c] = 1; });
    rowsEl.setAttribute("aria-activedescendant", "row-" + k);
    var line = rowOf[k];
    var top = line * H;
    if (top < outline.scrollTop || top + H > outline.scrollTop + outline.clientHeight) {
      outline.scrollTop = Math.max(0, top - outline.clientHeight / 2);
    }
    drawRows(true);
    if (msgs) renderChat();
    else {
      // The outline paints first; the messages, which come after this
      // script in the page, are parsed once the browser has read them.
      var once = function () { if (!msgs) renderChat(); };
      var soon = function () {
        requestAnimationFrame(function () { setTimeout(once, 0); });
        setTimeout(once, 100);
      };
      if (doc.readyState === "loading") doc.addEventListener("DOMContentLoaded", soon);
      else soon();
    }
  }

  function preview(text) {
    var line = String(text).replace(/\s+/g, " ").trim();
    return line.length > 140 ? line.slice(0, 139) + "…" : line;
  }
  function fold(cls, title, rest, body) {
    var d = el("details", cls);
    var s = el("summary");
    s.append(el("b", "", title));
    if (rest) s.append(" " + rest);
    d.append(s, el("pre", "", body));
    return d;
  }
  function num(x) { return Number(x).toLocaleString("en-US"); }
  function money(x) { return "$" + Number(x).toFixed(x < 0.01 ? 4 : 2); }
  var IMAGE = /^image\/[A-Za-z0-9.+-]+$/;
  var BASE64 = /^[A-Za-z0-9+/=]+$/;

  function message(k) {
    var node = nodes[k];
    var m = msgs[k] || {};
    var art = el("article", "msg " + node.role);
    art.setAttribute("data-id", node.id);
    var meta = el("div", "meta");
    meta.append(el("span", "who", ROLE[node.role] || node.role));
    if (node.tag) meta.append(el("span", "tag", node.tag));
    var id = el("span", "id", node.short || node.id);
    meta.append(id, el("span", "time", shortTime(node.time)));
    var names = el("span", "names");
    badges(names, node, k);
    meta.append(names);
    if (m.isError || m.error) {
      art.classList.add("error");
      meta.append(el("span", "badge error", "error"));
    }
    art.append(meta);
    if (m.error) art.append(el("div", "errtext", m.error));
    (m.blocks || []).forEach(function (b) {
      if (b.type === "text") {
        if (node.role === "toolResult") {
          art.append(fold(m.isError ? "result error" : "result", node.tag || "result", preview(b.text), b.text));
        } else {
          art.append(el("div", "text", b.text));
        }
      } else if (b.type === "thinking") {
        art.append(fold("thinking", b.redacted ? "Thinking (redacted)" : "Thinking", preview(b.text), b.text));
      } else if (b.type === "toolCall") {
        var args = JSON.stringify(b.arguments, null, 2);
        art.append(fold("call", "→ " + b.name, preview(JSON.stringify(b.arguments)), args));
      } else if (b.type === "markup") {
        // An agent's markup, as what it means: a command as typed, its
        // output and the app's context folded, the user's words as text.
        (b.pieces || []).forEach(function (p) {
          if (p.look === "words") art.append(el("div", "text", p.text));
          else if (p.look === "command") art.append(el("div", "command", p.label));
          else if (p.look === "error") art.append(fold("result error", p.label, preview(p.text), p.text));
          else art.append(fold(p.look === "context" ? "context" : "result", p.label, preview(p.text), p.text));
        });
      } else if (b.type === "image") {
        if (b.data && IMAGE.test(b.mimeType) && BASE64.test(b.data)) {
          var img = el("img", "shot");
          img.alt = b.mimeType;
          img.src = "data:" + b.mimeType + ";base64," + b.data;
          art.append(img);
        } else {
          art.append(el("div", "note", "[" + b.mimeType + ", " + num(b.bytes) + " bytes]"));
        }
      }
    });
    if (node.role === "custom" && !(m.blocks && m.blocks.length)) {
      art.append(fold("data", m.kind || "data", "", JSON.stringify(m.data, null, 2)));
    }
    if (m.usage) {
      var u = m.usage;
      var line = num(u[0]) + " in · " + num(u[1]) + " out · " + num(u[2]) + " cache read · " + num(u[3]) + " cache write";
      if (m.cost !== undefined) line += " · " + money(m.cost);
      art.append(el("div", "usage", line));
    }
    return art;
  }

  var SHOWN = 300;
  function renderChat() {
    messages();
    if (sel < 0) return;
    var path = pathOf(sel);
    var t = [0, 0, 0, 0], cost = 0, costs = false, turns = 0;
    path.forEach(function (k) {
      var m = msgs[k];
      if (m && m.usage) {
        turns++;
        for (var i = 0; i < 4; i++) t[i] += m.usage[i];
        if (m.cost !== undefined) { cost += m.cost; costs = true; }
      }
    });
    var info = el("p", "pathinfo");
    info.textContent = path.length + " entries on the path to " + (nodes[sel].short || nodes[sel].id) +
      " · " + turns + " responses · " + num(t[0]) + " in · " + num(t[1]) + " out · " +
      num(t[2]) + " cache read · " + num(t[3]) + " cache write" + (costs ? " · " + money(cost) : "");
    chat.replaceChildren(info);
    var from = Math.max(0, path.length - SHOWN);
    var list = el("div", "messages");
    function more() {
      if (from === 0) return;
      var button = el("button", "more", "Show " + Math.min(SHOWN, from) + " earlier entries (of " + from + ")");
      button.addEventListener("click", function () {
        var to = from;
        from = Math.max(0, from - SHOWN);
        var frag = doc.createDocumentFragment();
        for (var i = from; i < to; i++) frag.append(message(path[i]));
        button.remove();
        list.prepend(frag);
        more();
      });
      list.prepend(button);
    }
    for (var i = from; i < path.length; i++) list.append(message(path[i]));
    more();
    chat.append(list);
    var last = list.lastElementChild;
    if (last) {
      last.classList.add("selected");
      last.scrollIntoView({ block: "nearest" });
    }
    if (!root.hasAttribute("data-ready")) stamp("ready");
  }

  // Keys in the outline: up and down along the rows, left to the parent,
  // right to the child drawn nearest above, Home and End.
  function entryLine(from, step) {
    for (var line = from + step; line >= 0 && line < lineText.length; line += step) {
      if (lineNode[line] >= 0) return lineNode[line];
    }
    return -1;
  }
  rowsEl.addEventListener("keydown", function (ev) {
    var k = -1;
    var line = sel >= 0 ? rowOf[sel] : -1;
    if (ev.key === "ArrowDown") k = entryLine(line, 1);
    else if (ev.key === "ArrowUp") k = entryLine(line < 0 ? lineText.length : line, -1);
    else if (ev.key === "Home") k = entryLine(-1, 1);
    else if (ev.key === "End") k = entryLine(lineText.length, -1);
    else if (ev.key === "ArrowLeft" && sel >= 0) k = nodes[sel].parent === undefined || nodes[sel].parent === null ? -1 : nodes[sel].parent;
    else if (ev.key === "ArrowRight" && sel >= 0) {
      var best = -1;
      for (var c = sel + 1; c < n; c++) {
        if (nodes[c].parent === sel && (best < 0 || rowOf[c] > rowOf[best])) best = c;
      }
      k = best;
    } else return;
    ev.preventDefault();
    if (k >= 0) go(k, false);
  });
  // The entry the URL's fragment names (`#e42`), if any.
  function fragment() {
    try {
      return location.hash ? index.get(decodeURIComponent(location.hash.slice(1))) : undefined;
    } catch (e) {
      return undefined;
    }
  }
  window.addEventListener("hashchange", function () {
    var k = fragment();
    if (k !== undefined && k !== sel) select(k);
  });
  window.addEventListener("beforeprint", function () {
    chat.querySelectorAll("details").forEach(function (d) { d.open = true; });
  });

  var tips = 0;
  for (var k = 0; k < n; k++) onPath[k] = 0;
  var hasChild = new Uint8Array(n);
  nodes.forEach(function (node) { if (node.parent !== undefined && node.parent !== null) hasChild[node.parent] = 1; });
  for (k = 0; k < n; k++) if (!hasChild[k]) tips++;
  byId("summary").textContent = n + " entries · " + tips + (tips === 1 ? " tip" : " tips") +
    " · " + tree.format + (tree.path ? " · one path" : "");

  var wanted = fragment();
  var first = wanted !== undefined ? wanted : (tree.select !== null ? tree.select : (n ? n - 1 : -1));
  if (first >= 0) select(first);
  else {
    drawRows(true);
    chat.replaceChildren(el("p", "note", "The session is empty."));
    stamp("ready");
  }
  stamp("outline");
  root.setAttribute("data-script", String(Math.round(performance.now() - started)));
})();
