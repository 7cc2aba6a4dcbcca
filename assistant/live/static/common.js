// What both live pages share: element lookup, escaping, the page's texts in the reader's language
// (the server fills data-ui from the catalogs), and the message line.
"use strict";
const $ = (id) => document.getElementById(id);
function esc(t) { return String(t ?? "").replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c])); }
const UI = JSON.parse(document.body.dataset.ui || "{}");
function tr(text, vars) { let s = UI[text] || text; for (const [k, v] of Object.entries(vars || {})) s = s.split(`{${k}}`).join(v); return s; }
function say(text, ok) { const m = $("message"); m.textContent = text || ""; m.className = ok ? "ok" : ""; }
// The table's write token, from this page's own HTML (a page on another site cannot read it): every
// POST carries it as X-Write-Token, or the server refuses it (403) and records nothing.
const WRITE_TOKEN = (document.querySelector('meta[name="write-token"]') || {}).content || "";
