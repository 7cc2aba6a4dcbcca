// The card games' live table: the table now, plays checked and recorded by the server's engine.
"use strict";
const $ = (id) => document.getElementById(id);
let version = -1;
function esc(t) { return String(t ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c])); }
function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : ""; }
async function api(path, opts) {
  const r = await fetch(path, opts);
  const body = (r.headers.get("content-type") || "").includes("json") ? await r.json() : await r.text();
  if (!r.ok) throw new Error((body && body.error) || `error ${r.status}`);
  return body;
}
const post = (path, data) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(data) });
async function sync(force) {
  const v = (await api("api/version")).version;
  if (!force && v === version) return;
  version = v;
  const st = await api("api/status");
  $("lines").textContent = st.lines.join("\n");
  const log = await api("api/events");
  $("log").innerHTML = log.events.map((e) => `<li value="${e.seq}">${esc(e.command)}${e.undone ? " <em>[undone]</em>" : ""}${e.override ? ` <em>[override: ${esc(e.override)}]</em>` : ""}</li>`).join("");
}
function show(r, verdict) {
  $("answer").innerHTML = `<p class="${verdict ? "legal" : "illegal"}"><b>${verdict ? "legal" : "not legal"}</b>: ${esc(r.command)}</p><ul>${r.said.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>`;
}
if ($("b-check")) {
  $("b-check").onclick = async () => { try { const r = await post("api/check", { command: $("command").value }); show(r, r.legal); say(""); } catch (e) { say(e.message); } };
  $("b-do").onclick = async () => {
    const override = $("override").value.trim();
    try {
      const r = await post("api/do", { command: $("command").value, override: override || null });
      show(r, true); say(`#${r.seq} recorded`, true); $("command").value = ""; $("override").value = ""; await sync(true);
    } catch (e) { say(e.message); }
  };
  $("b-undo").onclick = async () => { if (!confirm("Undo the last play? It stays in the log, marked undone.")) return;
    try { const r = await post("api/undo", {}); say(`#${r.seq} undid event ${r.undid}`, true); await sync(true); } catch (e) { say(e.message); } };
  $("command").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("b-check").click(); });
}
sync(true).catch((e) => say(e.message));
setInterval(() => sync(false).catch(() => {}), 700);
