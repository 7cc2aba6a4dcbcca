// The card games' live table: the table now, plays checked and recorded by the server's engine.
// $, esc, tr and say come from common.js.
"use strict";
let version = -1;
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
  $("log").innerHTML = log.events.map((e) => `<li value="${e.seq}">${esc(e.command)}${e.undone ? ` <em>[${esc(tr("undone"))}]</em>` : ""}${e.override ? ` <em>[${esc(tr("override"))}: ${esc(e.override)}]</em>` : ""}</li>`).join("");
}
function show(r, verdict) {
  $("answer").innerHTML = `<p class="${verdict ? "legal" : "illegal"}"><b>${verdict ? esc(tr("legal")) : esc(tr("not legal"))}</b>: ${esc(r.command)}</p><ul>${r.said.map((x) => `<li>${esc(x)}</li>`).join("")}</ul>`;
}
if ($("b-check")) {
  $("b-check").onclick = async () => { try { const r = await post("api/check", { command: $("command").value }); show(r, r.legal); say(""); } catch (e) { say(e.message); } };
  $("b-do").onclick = async () => {
    const override = $("override").value.trim();
    try {
      const r = await post("api/do", { command: $("command").value, override: override || null });
      show(r, true); say(tr("#{seq} recorded", { seq: r.seq }), true); $("command").value = ""; $("override").value = ""; await sync(true);
    } catch (e) { say(e.message); }
  };
  $("b-undo").onclick = async () => { if (!confirm(tr("Undo the last play? It stays in the log, marked undone."))) return;
    try { const r = await post("api/undo", {}); say(tr("#{seq} undid event {undid}", { seq: r.seq, undid: r.undid }), true); await sync(true); } catch (e) { say(e.message); } };
  $("command").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("b-check").click(); });
}
sync(true).catch((e) => say(e.message));
setInterval(() => sync(false).catch(() => {}), 700);
