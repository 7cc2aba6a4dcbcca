// The card games' live table: the table now, plays checked and recorded by the server's engine.
// $, esc, tr, cite and say come from common.js.
"use strict";
let version = -1;
async function api(path, opts) {
  const r = await tableFetch(path, opts);
  const body = (r.headers.get("content-type") || "").includes("json") ? await r.json() : await r.text();
  // a play the rules refuse: the rule's words, and how this page overrides it (not the command line's --override)
  if (!r.ok && body && body.refused && body.reason) {
    throw new Error(`${tr("Refused:")} ${body.reason}. ${tr("A judge may record it anyway: write the reason under \u201cOverride reason\u201d, then tap \u201cRecord\u201d.")}`);
  }
  if (!r.ok) throw new Error((body && body.error) || `error ${r.status}`);
  return body;
}
// A request id per play (getRandomValues: crypto.randomUUID needs a secure context, a phone on the
// LAN has plain http); a retry after a lost answer sends the same id, and the server records it once.
function requestId() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
async function post(path, data, rid) {
  const id = rid || requestId();
  for (let attempt = 0; ; attempt++) {
    try { return await api(path, { method: "POST", headers: { "content-type": "application/json", "x-request-id": id, "x-write-token": WRITE_TOKEN }, body: JSON.stringify(data) }); }
    catch (e) { if (!(e instanceof TypeError) || attempt >= 2) throw e; await new Promise((ok) => setTimeout(ok, 300 * (attempt + 1))); }
  }
}
async function sync(force) {
  const v = (await api("api/version")).version;
  if (!force && v === version) return;
  version = v;
  const st = await api("api/status");
  $("lines").textContent = shownText(cite(st.lines.join("\n")));
  $("acting").textContent = shownText(st.lines[0] || "");  // the round (or turn) and phase, as the heading's second line
  const log = await api("api/events");
  $("log").innerHTML = log.events.map((e) => `<li value="${e.seq}">${citeHtml(e.text)}${e.undone ? ` <em>[${esc(tr("undone"))}]</em>` : ""}${e.override ? ` <em>[${esc(tr("override"))}: ${esc(e.override)}]</em>` : ""}</li>`).join("");
}
// verdict: what the rules say of the play; label: what the answer's heading says, when not the
// verdict itself (a play the rules refuse, recorded by the judge's override)
function show(r, verdict, label) {
  const head = label || (verdict ? tr("legal") : tr("not legal"));
  $("answer").innerHTML = `<p class="${verdict ? "legal" : "illegal"}"><b>${esc(head)}</b>: ${esc(r.command)}</p><ul>${r.said.map((x) => `<li>${citeHtml(x)}</li>`).join("")}</ul>`;
}
// a play's answer and its refusal are shown under the buttons, scrolled onto a phone's screen
// (they were a screen below them: 711 px down a 640 px phone)
function onScreen() { const r = $("reply"); if (r && (r.textContent || "").trim()) r.scrollIntoView({ block: "nearest" }); }
if ($("b-check")) {
  // an empty field is said here (the server's refusal names the API's JSON body, not the field)
  const typed = () => { if ($("command").value.trim()) return true; say(tr("Type the play first, in the game's notation.")); onScreen(); $("command").focus(); return false; };
  $("b-check").onclick = async () => { if (!typed()) return; try { const r = await post("api/check", { command: $("command").value }); show(r, r.legal); say(""); } catch (e) { say(e.message); } onScreen(); };
  $("b-do").onclick = async () => {
    const override = $("override").value.trim(), btn = $("b-do"), sent = $("command").value;
    if (btn.disabled || !typed()) return;
    btn.disabled = true;  // one tap, one play: a second tap waits for the first answer
    try {
      const r = await post("api/do", { command: sent, override: override || null });
      // an overridden play the rules refuse is recorded but changes nothing: not "legal"
      show(r, r.applied, r.applied ? null : tr("not legal, recorded by the judge's override"));
      say(tr("#{seq} recorded", { seq: r.seq }), true);
      // emptied only if it still holds the play sent: the next play, typed while this one was on its way, stays
      if ($("command").value === sent) $("command").value = "";
      if ($("override").value.trim() === override) $("override").value = "";
      onScreen();
      await sync(true);  // the table's lines above may grow: the reply is brought back on screen
      onScreen();
    } catch (e) { say(e.message); onScreen(); } finally { btn.disabled = false; }
  };
  $("b-undo").onclick = async () => { if (!confirm(tr("Undo the last play? It stays in the log, marked undone."))) return;
    try { const r = await post("api/undo", {}); say(tr("#{seq} undid event {undid}", { seq: r.seq, undid: r.undid }), true); await sync(true); onScreen(); } catch (e) { say(e.message); onScreen(); } };
  // the judge's note: the game's own note verb (refused when it says nothing, R330)
  $("b-note").onclick = async () => {
    try {
      const r = await post(`api/do/${document.body.dataset.cards}/note`, { text: $("note").value });
      say(tr("#{seq} recorded", { seq: r.seq }), true); $("note").value = ""; await sync(true);
    } catch (e) { say(e.message); }
    onScreen();
  };
  $("command").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("b-check").click(); });
}
sync(true).catch((e) => say(e.message));
window.tableSync.onChange(() => sync(true).catch((e) => say(e.message)));
