// What both live pages share: element lookup, escaping, the page's texts in the reader's language
// (the server fills data-ui from the catalogs), and the message line.
"use strict";
const $ = (id) => document.getElementById(id);
// Text from the table shown as the judge's terminal shows it (textsafe.shown; reading R215): a control
// character, a bidirectional embedding, override or isolate, or a lone surrogate is written as its
// escape ("\u202e"), so a note or an override reason sent from one phone cannot turn the log's
// words around on every other phone (the log's "[undone]" read backwards after it).
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
function shownText(t) {
  return String(t ?? "").replace(UNSAFE, (c) => { const n = c.charCodeAt(0); return n < 0x100 ? "\\x" + n.toString(16).padStart(2, "0") : "\\u" + n.toString(16).padStart(4, "0"); });
}
function esc(t) { return shownText(t).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c])); }
const UI = JSON.parse(document.body.dataset.ui || "{}");
function tr(text, vars) { let s = UI[text] || text; for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(v); return s; }
// A reading cited in a rule or a text ("reading R3 in docs/readings.md") in the reader's words
// ("odczyt R3 w docs/readings.md"): the answers' JSON cites in English (i18n.cited; reading R275).
function cite(t) {
  return String(t ?? "").replace(/\breadings? (R\d+(?:(?:, | and )R\d+)*)( in docs\/readings\.md)?/g, (m, ids, where) => {
    const list = ids.split(" and ").join(", ");
    return tr((list.includes(",") ? "readings {ids}" : "reading {ids}") + (where ? " in docs/readings.md" : ""), {ids: list});
  });
}
// The same text as HTML, each cited reading's id a link to the reading whole (/reading/R3, opened
// beside the table): the judge reads what a verdict stands on, not only its number (reading R351).
const CITED = /\breadings? (R\d+(?:(?:, | and )R\d+)*)( in docs\/readings\.md)?/g;
function citeHtml(t) {
  const text = String(t ?? "");
  let html = "", at = 0;
  for (const m of text.matchAll(CITED)) {
    html += esc(text.slice(at, m.index));
    html += esc(cite(m[0])).replace(/R\d+/g, (id) => `<a class="reading" href="/reading/${id}" target="_blank" rel="noopener">${id}</a>`);
    at = m.index + m[0].length;
  }
  return html + esc(text.slice(at));
}
function say(text, ok) { const m = $("message"); m.textContent = shownText(cite(text)); m.className = ok ? "ok" : ""; }
// The table's write token, from this page's own HTML (a page on another site cannot read it): every
// POST carries it as X-Write-Token, or the server refuses it (403) and records nothing.
let WRITE_TOKEN = (document.querySelector('meta[name="write-token"]') || {}).content || "";

// A request to the table. A write refused for its token ("write_token": "invalid") comes from a tab
// left open while the table was restarted (a new token each start): the table's own page is read
// again for its token -- same-origin, which a page on another site cannot read -- and the write is
// sent once more with it, the same request id (reading R215). Every other answer as it came.
async function tableFetch(path, opts) {
  const r = await fetch(path, opts);
  const sent = opts && opts.headers && opts.headers["x-write-token"];
  if (r.status !== 403 || sent === undefined || !(r.headers.get("content-type") || "").includes("json")) return r;
  const body = await r.clone().json().catch(() => ({}));
  if (body.write_token !== "invalid") return r;
  const page = await fetch(location.pathname, { credentials: "same-origin" }).catch(() => null);
  if (!page || !page.ok) return r;
  const meta = new DOMParser().parseFromString(await page.text(), "text/html").querySelector('meta[name="write-token"]');
  if (!meta || !meta.content || meta.content === sent) return r;
  WRITE_TOKEN = meta.content;
  return fetch(path, { ...opts, headers: { ...opts.headers, "x-write-token": WRITE_TOKEN } });
}
