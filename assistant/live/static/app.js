// The live table's page: tap to ask, tap to play. Every answer comes from the server's engine;
// this script only asks and draws. No framework, no build step.
// $, esc, tr, cite and say come from common.js; tableSync from sync.js.
"use strict";
// mine / target: the two explicit slots (a tap never moves "mine"; only its slot button frees it).
// helpers: combined fire's helpers; mode: null, "move" (tap a square), "helpers" (tap allies).
const S = { mine: null, target: null, helpers: [], picking: null, mode: null, moveTo: null, targets: [], stats: {}, verbs: null, photo: null };
const isGame = document.body.dataset.game === "yes";
const isSpectator = document.body.dataset.spectator === "yes";

// ---------------------------------------------------------------- requests

// A request id per user action (RFC 4122 v4 from getRandomValues: crypto.randomUUID needs a
// secure context, and a phone on the LAN reaches the table over plain http).
function requestId() {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function refusalText(body, status) {
  if (body && body.reasons && body.reasons.length) {
    // the page's own way to override (its field), on a player's page: a spectator has none
    const hint = body.hint && !isSpectator ? " " + body.hint : "";
    return tr("Refused:") + " " + body.reasons.map((x) => cite(`${x.text} (${tr(x.rule)})`)).join("; ") + "." + hint;
  }
  return (body && body.error) || `error ${status}`;
}

async function api(path, opts) {
  const r = await tableFetch(path, opts);
  const kind = r.headers.get("content-type") || "";
  const body = kind.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    const err = new Error(refusalText(body, r.status));
    err.body = body;  // a refusal's JSON: 'missing' says which numbers a question lacks
    throw err;
  }
  return body;
}

// A POST that records: the same request id on every retry (the server records it once), retried
// only when the answer never came (the network, not a refusal).
async function post(path, data, rid) {
  const id = rid || requestId();
  for (let attempt = 0; ; attempt++) {
    try {
      return await api(path, { method: "POST", headers: { "content-type": "application/json", "x-request-id": id, "x-write-token": WRITE_TOKEN }, body: JSON.stringify(data) });
    } catch (e) {
      if (e.body !== undefined || attempt >= 2) throw e;
      await new Promise((ok) => setTimeout(ok, 300 * (attempt + 1)));
    }
  }
}

// ---------------------------------------------------------------- the board: fit, zoom, pan, taps

const Z = { w: 0, h: 0, scale: 1, fit: 1, tx: 0, ty: 0, zoomed: false };
const board = $("board");

function svgEl() { return board.querySelector("svg"); }

// The server's drawing, made ready for a phone: sized by this script (not a fixed 40 px a
// square), every drawn thing deaf to taps, and a hit layer on top whose targets are at least
// 44 x 44 screen px at any zoom.
function prepareBoard() {
  const svg = svgEl();
  if (!svg) return;
  const vb = svg.viewBox.baseVal;
  Z.w = vb.width; Z.h = vb.height;
  svg.removeAttribute("style");
  const ns = "http://www.w3.org/2000/svg";
  const hits = document.createElementNS(ns, "g");
  hits.setAttribute("class", "hits");
  for (const r of svg.querySelectorAll("rect[data-square]")) {
    const h = document.createElementNS(ns, "rect");
    const name = r.dataset.square;
    h.dataset.square = name;
    h.dataset.cx = +r.getAttribute("x") + r.getAttribute("width") / 2;
    h.dataset.cy = +r.getAttribute("y") + r.getAttribute("height") / 2;
    h.dataset.size = r.getAttribute("width");
    r.removeAttribute("data-square"); r.dataset.sq = name;
    hits.appendChild(h);
  }
  for (const g of svg.querySelectorAll("g[data-figure]")) {
    const c = g.querySelector("circle");
    const id = g.dataset.figure;
    const h = document.createElementNS(ns, "g");
    h.dataset.figure = id;
    h.setAttribute("tabindex", "0");
    h.setAttribute("role", "button");
    h.setAttribute("aria-label", (g.querySelector("title") || {}).textContent || id);
    const hc = document.createElementNS(ns, "circle");
    hc.setAttribute("cx", c.getAttribute("cx")); hc.setAttribute("cy", c.getAttribute("cy"));
    hc.dataset.r = c.getAttribute("r");
    h.appendChild(hc);
    g.removeAttribute("data-figure"); g.removeAttribute("tabindex"); g.dataset.fig = id;
    hits.appendChild(h);
  }
  svg.appendChild(hits);
  applyZoom();
}

function sizeHits() {
  const svg = svgEl();
  if (!svg) return;
  const min = 44 / Z.scale;  // 44 screen px in the drawing's units
  for (const h of svg.querySelectorAll(".hits rect")) {
    const size = Math.max(min, +h.dataset.size);
    h.setAttribute("x", h.dataset.cx - size / 2); h.setAttribute("y", h.dataset.cy - size / 2);
    h.setAttribute("width", size); h.setAttribute("height", size);
  }
  for (const c of svg.querySelectorAll(".hits circle")) c.setAttribute("r", Math.max(min / 2, +c.dataset.r));
}

function clampPan() {
  const cw = board.clientWidth, ch = board.clientHeight, w = Z.w * Z.scale, h = Z.h * Z.scale;
  Z.tx = w <= cw ? (cw - w) / 2 : Math.min(0, Math.max(cw - w, Z.tx));
  Z.ty = h <= ch ? (ch - h) / 2 : Math.min(0, Math.max(ch - h, Z.ty));
}

function applyZoom() {
  const svg = svgEl();
  if (!svg || !Z.w) return;
  clampPan();
  svg.setAttribute("width", Z.w * Z.scale);
  svg.setAttribute("height", Z.h * Z.scale);
  svg.style.transform = `translate(${Z.tx}px, ${Z.ty}px)`;
  sizeHits();
}

// portrait: the board as tall as the map at the screen's width, leaving the sheet room for the answer
function layout() {
  const landscape = window.matchMedia("(min-aspect-ratio: 1/1)").matches;
  if (!landscape && Z.w) {
    const room = window.innerHeight - $("status").offsetHeight - Math.min(320, window.innerHeight * 0.4);
    board.style.height = Math.max(120, Math.min(Z.h * board.clientWidth / Z.w, room)) + "px";
  } else board.style.height = "";
  fitBoard();
}

function fitBoard() {
  if (!Z.w) return;
  Z.fit = Math.min(board.clientWidth / Z.w, board.clientHeight / Z.h);
  Z.scale = Z.fit; Z.zoomed = false;
  applyZoom();
}

// zoom by `factor` keeping the board point under (x, y) (board px) where it is
function zoomAt(factor, x, y) {
  const max = Math.max(Z.fit * 4, 3);
  const scale = Math.min(max, Math.max(Z.fit, Z.scale * factor));
  const k = scale / Z.scale;
  Z.tx = x - (x - Z.tx) * k; Z.ty = y - (y - Z.ty) * k;
  Z.scale = scale; Z.zoomed = scale > Z.fit * 1.01;
  applyZoom();
}

// What a tap at (clientX, clientY) means: the nearest figure whose hit circle holds it, else the square under it.
// While a move waits for its square, squares only: a figure's wide hit circle never takes that tap.
function resolveTap(cx, cy, squaresOnly) {
  const svg = svgEl();
  if (!svg) return {};
  const pt = new DOMPoint(cx, cy).matrixTransform(svg.getScreenCTM().inverse());
  let best = null, bestD = Infinity;
  for (const c of squaresOnly ? [] : svg.querySelectorAll(".hits circle")) {
    const d = Math.hypot(pt.x - c.getAttribute("cx"), pt.y - c.getAttribute("cy"));
    if (d <= +c.getAttribute("r") && d < bestD) { best = c.parentNode.dataset.figure; bestD = d; }
  }
  if (best) return { figure: best };
  let sq = null; bestD = Infinity;
  for (const h of svg.querySelectorAll(".hits rect")) {
    const half = +h.dataset.size / 2, dx = Math.abs(pt.x - h.dataset.cx), dy = Math.abs(pt.y - h.dataset.cy);
    if (dx <= half && dy <= half) return { square: h.dataset.square };
    const d = Math.max(dx, dy);
    if (d <= +h.getAttribute("width") / 2 && d < bestD) { sq = h.dataset.square; bestD = d; }
  }
  return sq ? { square: sq } : {};
}

const pointers = new Map();
let gesture = null, lastTap = null;
board.addEventListener("pointerdown", (ev) => {
  if (ev.target.closest("#zoom")) return;
  try { board.setPointerCapture(ev.pointerId); } catch (e) { /* a pointer the browser no longer tracks: no capture needed */ }
  pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
  const [a, b] = [...pointers.values()];
  if (pointers.size === 1) gesture = { kind: "tap", x: a.x, y: a.y, tx: Z.tx, ty: Z.ty, t: performance.now() };
  else if (pointers.size === 2) {
    const box = board.getBoundingClientRect();
    gesture = { kind: "pinch", d: Math.hypot(a.x - b.x, a.y - b.y) || 1, scale: Z.scale, mx: (a.x + b.x) / 2 - box.left, my: (a.y + b.y) / 2 - box.top };
  }
});
board.addEventListener("pointermove", (ev) => {
  if (!pointers.has(ev.pointerId) || !gesture) return;
  pointers.set(ev.pointerId, { x: ev.clientX, y: ev.clientY });
  const [a, b] = [...pointers.values()];
  if (gesture.kind === "pinch" && b) {
    const want = gesture.scale * Math.hypot(a.x - b.x, a.y - b.y) / gesture.d;
    zoomAt(want / Z.scale, gesture.mx, gesture.my);
  } else if (gesture.kind !== "pinch" && (gesture.kind === "pan" || Math.hypot(a.x - gesture.x, a.y - gesture.y) > 8)) {
    gesture.kind = "pan";
    Z.tx = gesture.tx + a.x - gesture.x; Z.ty = gesture.ty + a.y - gesture.y;
    applyZoom();
  }
});
function pointerEnd(ev) {
  if (!pointers.has(ev.pointerId)) return;
  pointers.delete(ev.pointerId);
  const g = gesture;
  if (pointers.size === 0) gesture = null;
  if (ev.type === "pointerup" && g && g.kind === "tap" && performance.now() - g.t < 800) onTap(ev.clientX, ev.clientY).catch((e) => say(e.message));
}
board.addEventListener("pointerup", pointerEnd);
board.addEventListener("pointercancel", pointerEnd);
board.addEventListener("wheel", (ev) => {
  ev.preventDefault();
  const box = board.getBoundingClientRect();
  zoomAt(ev.deltaY < 0 ? 1.2 : 1 / 1.2, ev.clientX - box.left, ev.clientY - box.top);
}, { passive: false });
board.addEventListener("keydown", (ev) => {
  const fig = ev.target.closest && ev.target.closest("[data-figure]");
  if (fig && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); tapFigure(fig.dataset.figure).catch((e) => say(e.message)); }
});
$("b-fit").onclick = fitBoard;
$("b-zoom-in").onclick = () => zoomAt(1.5, board.clientWidth / 2, board.clientHeight / 2);
$("b-zoom-out").onclick = () => zoomAt(1 / 1.5, board.clientWidth / 2, board.clientHeight / 2);
// the header cut to two lines on a phone: a tap shows the whole of it, another cuts it again (R213)
$("status").onclick = () => { $("status").classList.toggle("full"); layout(); };
// a new width (a turned phone, a resized window) fits the board again; a height alone is the
// on-screen keyboard opening for the d20 field, and the board stays as the player left it
let laidOutFor = [window.innerWidth, window.innerHeight];
window.addEventListener("resize", () => {
  const [w, h] = laidOutFor;
  if (window.innerWidth === w && window.matchMedia("(pointer: coarse)").matches && window.innerHeight < h) return;
  laidOutFor = [window.innerWidth, window.innerHeight];
  layout();
  fitSlots();
});

async function onTap(cx, cy) {
  const hit = resolveTap(cx, cy, S.mode === "move" && !!S.mine);
  const now = performance.now();
  if (hit.square && S.mode === "move" && S.mine) { await previewMove(hit.square); return; }
  if (hit.square) {
    const field = document.querySelector("#verb-form-box input[data-square-field]");
    if (field) { field.value = hit.square; return; }
  }
  if (hit.figure) { lastTap = null; await tapFigure(hit.figure); return; }
  // a double tap on the board (not on a figure): zoom in there, or back to the whole map
  if (lastTap && now - lastTap.t < 400 && Math.hypot(cx - lastTap.x, cy - lastTap.y) < 30) {
    lastTap = null;
    const box = board.getBoundingClientRect();
    if (Z.zoomed) fitBoard(); else zoomAt(2.5, cx - box.left, cy - box.top);
    return;
  }
  lastTap = { t: now, x: cx, y: cy };
}

// A move is tapped square by square: where the whole map makes squares smaller than a thumb,
// zoom in on the mover until a square is 44 px (the whole map again once the move is done).
let autoZoomed = false;
function zoomForMove() {
  const c = S.mine && board.querySelector(`.hits [data-figure="${CSS.escape(S.mine)}"] circle`);
  const sq = board.querySelector(".hits rect");
  if (!c || !sq) return;
  const size = +sq.dataset.size * Z.scale;
  if (size >= 44) return;
  const box = board.getBoundingClientRect();
  let r = c.getBoundingClientRect();
  zoomAt(44 / size, r.left + r.width / 2 - box.left, r.top + r.height / 2 - box.top);
  r = c.getBoundingClientRect();  // then the mover in the middle of the board
  Z.tx += box.left + box.width / 2 - (r.left + r.width / 2);
  Z.ty += box.top + box.height / 2 - (r.top + r.height / 2);
  applyZoom();
  autoZoomed = true;
}
function unzoomAfterMove() { if (autoZoomed) { autoZoomed = false; fitBoard(); } }

async function drawBoard() {
  const q = new URLSearchParams();
  if (S.mine) q.set("selected", S.mine);
  if (S.mine && S.target) q.set("target", S.target);
  else if (S.mine && S.mode === "move" && S.moveTo) q.set("to", S.moveTo);
  const svg = await api("api/board.svg?" + q.toString());
  board.innerHTML = svg;
  prepareBoard();
}

// ---------------------------------------------------------------- mine, target, helpers

// The quick bar's Force reroll field (reading R212): shown while the pair's answer offers one
// (SWM: the attacker has a Force point and nothing forbids it), with the reroll's own number
// (Mettle's +4 in it); hidden and emptied otherwise, so a reroll typed for one pair is never sent for another.
function showReroll(offer) {
  const box = $("reroll-box");
  if (!box) return;
  box.hidden = !offer;
  $("reroll-needs").textContent = offer ? `(${offer.needs}+)` : "";
  if (!offer) $("reroll").value = "";
}

function showSlots() {
  $("mine-id").textContent = shownText(S.mine || "—");
  $("target-id").textContent = shownText(S.target || "—");
  // the whole id where the slot cuts it short (a long press, a screen reader)
  $("slot-mine").title = S.mine ? shownText(S.mine) : "";
  $("slot-target").title = S.target ? shownText(S.target) : "";
  $("slot-mine").classList.toggle("picking", S.picking === "mine" || !S.mine);
  $("helpers").innerHTML = S.helpers.length ? `<span class="chip">${esc(tr("helpers:"))} ${S.helpers.map(esc).join(", ")}</span>` : "";
  if ($("actions")) $("actions").hidden = !S.mine;
  if (!S.mine || !S.target) showReroll(null);
  if ($("b-helpers")) $("b-helpers").setAttribute("aria-pressed", S.mode === "helpers" ? "true" : "false");
  fitSlots();
}

// a slot that cuts its id short gets a row of its own with the other slot, on a narrow sheet
// (app.css): "obi-wan-kenobi" read "o…" on a 360 px phone (R301); short ids keep the one row, and
// the quick attack bar its place on a 360 x 640 screen (R231)
function fitSlots() {
  const slots = $("slots");
  slots.classList.remove("roomy");
  slots.classList.toggle("roomy", [...slots.querySelectorAll(".slot b")].some((b) => b.scrollWidth > b.clientWidth + 1));
}

async function tapFigure(fig) {
  if (S.mode === "helpers" && S.mine && fig !== S.mine && fig !== S.target) {
    S.helpers = S.helpers.includes(fig) ? S.helpers.filter((h) => h !== fig) : [...S.helpers, fig];
    showSlots();
    if (S.target) await showPair();
    return;
  }
  if (!S.mine || S.picking === "mine") {
    S.mine = fig; S.target = null; S.helpers = []; S.picking = null; S.mode = null; closeMove();
    showSlots();
    await Promise.all([drawBoard(), showTargets()]);
    return;
  }
  if (fig === S.mine) { say(tr("{figure} is yours: its slot button frees it", { figure: fig }), true); return; }
  await setTarget(fig);
}

async function setTarget(fig) {
  if (fig !== S.target) showReroll(null);  // the reroll offered against the last target is not this one's
  S.target = fig; S.mode = S.mode === "helpers" ? "helpers" : null; closeMove();
  showSlots();
  await Promise.all([drawBoard(), showPair()]);
}

$("slot-mine").onclick = async () => {
  S.mine = null; S.target = null; S.helpers = []; S.picking = "mine"; S.mode = null; closeMove();
  showSlots();
  $("answer").innerHTML = `<p id="hint">${esc(tr("Tap your figure."))}</p>`;
  await drawBoard();
};
$("slot-target").onclick = async () => {
  if (!S.target) { if (S.mine) say(tr("Tap a target first.")); return; }
  S.target = null; showSlots();
  await Promise.all([drawBoard(), showTargets()]);
};

// ---------------------------------------------------------------- the answer

// An attack line's condition as the reader says it: the JSON's words stay English (machine
// values), their known parts are put in the page's language; an ability's name stays as printed.
function conditionText(c) {
  let t = String(c || "");
  for (const part of ["first attack", "single attack", "next attack of the line", "(did not move)", "Twin Attack: same target, only if it is still standing"]) t = t.split(part).join(tr(part));
  return t.replace(/Rend \+(\d+) if the first hit too/g, (m, n) => tr("Rend +{n} if the first hit too", { n }));
}

function reasonsList(rs) { return (rs || []).map((r) => `<li>${citeHtml(r.text)} <span class="rule">${citeHtml(tr(r.rule))}</span></li>`).join(""); }

async function showTargets() {
  if (!S.mine) return;
  const t = await api("api/targets?figure=" + encodeURIComponent(S.mine));
  S.targets = t.targets;
  const rows = t.targets.map((r) => {
    if (r.legal === null || r.legal === undefined) {  // a number is missing: tapping the row asks for it
      const tap = r.missing ? ` class="tap" data-target="${esc(r.target)}"` : "";
      return `<tr${tap}><td>${esc(r.target)}</td><td colspan="3">${esc(r.error || "?")}</td></tr>`;
    }
    // each reason escaped once, here (escaped again, "obi's space" read "obi&#39;s space")
    const now = r.legal ? (r.refused_this_turn || []) : [];  // the acting figure's turn so far refuses it (a double move)
    if (now.length) {
      return `<tr class="tap" data-target="${esc(r.target)}"><td>${esc(r.target)}</td><td class="illegal">${esc(tr("not this turn"))}</td>` +
             `<td>-</td><td>${now.map((x) => esc(x.text)).join("; ")}</td></tr>`;
    }
    const why = r.legal ? "" : (r.illegal_reasons || []).map((x) => esc(x.text)).join("; ");
    return `<tr class="tap" data-target="${esc(r.target)}"><td>${esc(r.target)}</td><td class="${r.legal ? "legal" : "illegal"}">${r.legal ? esc(tr("legal")) : esc(tr("not legal"))}</td>` +
           `<td>${r.needs && r.odds !== false ? r.needs + "+" : "-"}</td><td>${r.legal ? Math.round(r.p_hit * 100) + "%" : why}</td></tr>`;
  }).join("");
  $("answer").innerHTML = `<h3>${esc(S.mine)}: ${esc(tr("targets"))}</h3><table><tr><th>${esc(tr("target"))}</th><th></th><th>${esc(tr("roll"))}</th><th>${esc(tr("chance / why"))}</th></tr>${rows}</table>`;
}

// The numbers given on this page for its questions (figure.stat -> N), sent with each attack question.
function givenStats() { return Object.entries(S.stats).map(([k, v]) => `${k}=${v}`); }

async function askAttack() {
  const stat = givenStats();
  if (!stat.length && !S.helpers.length) return api(`api/attack?attacker=${encodeURIComponent(S.mine)}&target=${encodeURIComponent(S.target)}`);
  const body = { attacker: S.mine, target: S.target };
  if (stat.length) body.stat = stat;
  if (S.helpers.length) body.combined_fire = S.helpers.join(",");
  return post("api/do/attack", body);
}

// A question that lacks numbers shows a small form: each number, and whether to keep it for the card.
function missingForm(missing) {
  const rows = missing.map((m, i) => `<div class="missing-row"><label for="miss-${i}">${esc(tr("{figure}'s {what}", { figure: m.figure, what: m.label || m.what }))}</label>` +
    `<input id="miss-${i}" name="miss-${i}" type="number" inputmode="numeric" step="1" required data-figure="${esc(m.figure)}" data-stat="${esc(m.stat)}"` +
    ` data-card="${esc(m.card || "")}" data-key="${esc(m.card_key || "")}" data-set="${esc(m.card_set || "")}">` +
    (m.card ? `<label class="keep"><input type="checkbox" id="keep-${i}" data-keep="${i}"> ${esc(tr("keep for {card}", { card: m.card }))}</label>` : "") + `</div>`).join("");
  return `<form id="missing-form" class="missing"><p><b>${esc(tr("A number is missing:"))}</b></p>${rows}` +
         `<button id="missing-ask" type="submit">${esc(tr("Ask again"))}</button></form>`;
}

async function submitMissing(ev) {
  ev.preventDefault();
  const inputs = [...document.querySelectorAll("#missing-form input[type=number]")];
  try {
    for (const [i, input] of inputs.entries()) {
      const value = input.value.trim();
      if (!/^-?\d{1,6}$/.test(value)) { say(tr("give a whole number")); input.focus(); return; }
      const keep = $(`keep-${i}`);
      if (keep && keep.checked) await post("api/do/cards/set", { name: input.dataset.card, values: [`${input.dataset.key}=${value}`], in_set: input.dataset.set || null });
      else S.stats[`${input.dataset.figure}.${input.dataset.stat}`] = value;
    }
    if (S.mine && S.target) await showPair();
    else { $("answer").innerHTML = ""; say(tr("kept for the card: record it again"), true); messageInView(); }
  } catch (e) { say(e.message); }
}

// The pair's verdict first (line of sight, cover, needs, chance, damage: on screen without
// scrolling), the reasons and rules one tap further.
async function showPair() {
  if (!S.mine || !S.target) return;
  const mine = S.mine, target = S.target;
  const a = encodeURIComponent(mine), b = encodeURIComponent(target);
  const [los, cov] = await Promise.all([api(`api/los?viewer=${a}&target=${b}`), api(`api/cover?attacker=${a}&target=${b}`)]);
  let att;
  try { att = await askAttack(); } catch (e) {
    if (!(e.body && e.body.missing)) throw e;
    showReroll(null);
    // the form says what is missing; the command line's hints (--stat, cards set) stay in its title
    $("answer").innerHTML = `<h3>${esc(mine)} → ${esc(target)}</h3>` + missingForm(e.body.missing);
    $("missing-form").title = e.body.cli || e.message;
    $("missing-form").addEventListener("submit", submitMissing);
    // on a phone the form is on the screen, not below it; the pair's title above it too where both fit
    // (a phone held sideways showed the form with "ranger → mauler" cut off above it)
    const sheet = $("sheet");
    const whole = sheet && $("answer").getBoundingClientRect().height <= sheet.clientHeight;
    (whole ? $("answer") : $("missing-form")).scrollIntoView({ block: "end" });
    return;
  }
  if (S.mine !== mine || S.target !== target) return;  // the slots changed while the answer was on its way
  const cv = cov.cover === null ? tr("no line of sight") : (cov.cover ? tr("cover") : tr("no cover"));
  const now = att.refused_this_turn || [];  // the acting figure's turn so far refuses it (a double move, its attacks made)
  const attack = att.legal && now.length
    ? `<span class="illegal">${esc(tr("not this turn"))}</span><span class="first-why">${esc(now[0].text)}</span>`
    : att.legal
    ? `<span class="legal">${esc(tr("legal"))}</span> — ` + esc(tr("needs {needs}+ ({chance}%), damage {damage}", { needs: att.needs, chance: Math.round(att.p_hit * 100), damage: att.damage }))
    : `<span class="illegal">${esc(tr("not legal"))}</span>` + ((att.illegal_reasons || [])[0] ? `<span class="first-why">${esc(att.illegal_reasons[0].text)}</span>` : "");
  showReroll(att.legal && !now.length ? att.force_reroll : null);
  let html = `<h3>${esc(mine)} → ${esc(target)}${S.helpers.length ? ` <small>(${esc(tr("helpers:"))} ${S.helpers.map(esc).join(", ")})</small>` : ""}</h3>`;
  html += `<dl id="verdict"><dt>${esc(tr("Line of sight:"))}</dt><dd class="${los.line_of_sight ? "legal" : "illegal"}">${los.line_of_sight ? esc(tr("yes")) : esc(tr("no"))}</dd>` +
          `<dt>${esc(tr("Cover:"))}</dt><dd>${esc(cv)}</dd><dt>${esc(tr("Attack:"))}</dt><dd>${attack}</dd></dl>`;
  const w = los.witness ? `<p>${esc(tr("witness line"))} ${esc((los.witness_squares || []).join(" → "))} ${esc(JSON.stringify(los.witness))}</p>` : "";
  let why = `<p><b>${esc(tr("Line of sight:"))}</b></p>${w}<ul>${reasonsList(los.reasons)}</ul><p><b>${esc(tr("Cover:"))}</b></p><ul>${reasonsList(cov.reasons)}</ul>`;
  why += `<p><b>${esc(tr("Attack:"))}</b></p><ul>${reasonsList(att.illegal_reasons)}${reasonsList(now)}${(att.modifiers || []).map((m) => `<li>${m.value > 0 ? "+" : ""}${esc(m.value)} ${esc(tr(m.applies_to))}: ${esc(m.label || m.source)} <span class="rule">${citeHtml(tr(m.rule || ""))}</span></li>`).join("")}</ul>`;
  if (att.attacks && att.attacks.length > 1) why += `<p>${att.attacks.map((x) => `${esc(tr("attack {n}", { n: x.attack }))} (${esc(conditionText(x.condition))}): ${x.needs}+`).join("; ")}</p>`;
  why += (att.notes || []).map((n) => `<p class="rule">${citeHtml(n.text)} (${citeHtml(tr(n.rule))})</p>`).join("");
  if (att.not_modelled && att.not_modelled.length) why += `<p><b>${esc(tr("Not modelled (check by hand):"))}</b> ${att.not_modelled.map(esc).join(", ")}</p>`;
  const open = $("why") && $("why").open ? " open" : "";
  html += `<details id="why"${open}><summary>${esc(tr("Why (reasons and rules)"))}</summary>${why}</details>`;
  $("answer").innerHTML = html;
  verdictInView();
}

// The pair's verdict on screen, not wherever the sheet was scrolled to: from the sheet's top, and
// where the verdict's last line is still below the sheet (a 320 x 568 phone, whose second row of
// slot buttons leaves the Attack line's chance and damage under the fold, reading R370) the sheet
// is scrolled just enough to show it, the pair's title kept in view.
function verdictInView() {
  const sheet = $("sheet"), v = $("verdict"), title = document.querySelector("#answer h3");
  if (!sheet) return;
  sheet.scrollTop = 0;
  if (!v || !title) return;
  const s = sheet.getBoundingClientRect(), below = v.getBoundingClientRect().bottom - s.bottom;
  if (below > 0.5) sheet.scrollTop = Math.min(Math.ceil(below), Math.max(0, title.getBoundingClientRect().top - s.top));
}

$("answer").addEventListener("click", async (ev) => {
  const row = ev.target.closest("tr[data-target]");
  if (!row) return;
  try {
    if (!S.mine) return;
    if (S.mode === "helpers" && row.dataset.target !== S.target && S.target) { await tapFigure(row.dataset.target); return; }
    await setTarget(row.dataset.target);
  } catch (e) { say(e.message); }
});

// ---------------------------------------------------------------- every verb, through /api/do

function verbPath(verb) { return "api/do/" + verb.split(" ").map(encodeURIComponent).join("/"); }

// Record or ask one verb: one request id for this action (kept on a retry), the override reason
// sent when the verb takes one, the d20 field emptied after each use.
async function doVerb(verb, args, opts) {
  const spec = S.verbs && S.verbs.detail[verb];
  const body = { ...args };
  const override = $("override") ? $("override").value.trim() : "";
  if (override && spec && spec.params.some((p) => p.name === "override")) body.override = override;
  const clearRoll = () => { if ((opts || {}).usedRoll && $("roll")) { $("roll").value = ""; $("reroll").value = ""; } };
  try {
    // a question's answer comes with its text lines (shown instead of its JSON); a spectator's link
    // asks by GET, which writes nothing (its POSTs are refused: reading R232)
    const asked = isSpectator && spec && !spec.writes && !spec.library;
    const r = asked ? await api(verbPath(verb).replace(/^api\/do\//, "api/ask/") + "?lines=true&args=" + encodeURIComponent(JSON.stringify(body)))
      : await post(verbPath(verb) + (spec && !spec.writes ? "?lines=true" : ""), body, (opts || {}).rid);
    clearRoll();
    if (r.event) {
      say(`#${r.event.seq} ${r.text}` + (r.notes && r.notes.length ? " — " + r.notes.join("; ") : ""), true);
      messageInView();
      if ($("override")) $("override").value = "";
      if ((opts || {}).recorded) opts.recorded();  // the page's own state first (a move's zoom), then the board redrawn
      await sync();
    }
    return r;
  } catch (e) {
    clearRoll(); say(e.message);
    // an answered refusal ends the action: the form sent again (an override written, a reroll) is a new
    // one, with a new request id -- the server answers a repeated id with its first answer (reading R182)
    if (e.body !== undefined && opts && opts.answered) opts.answered();
    if (e.body && e.body.missing && e.body.in_game) askKept(e.body.missing);
    messageInView(); return null;
  }
}

// A record that lacks a number (an attack, a morale save): the game's log takes no number for one
// question, so the form asks it with "keep for CARD" ticked (the message says so; it said the
// command line's 'cards set ...' before, R173). A number no card can keep is recorded by hand.
function askKept(missing) {
  const kept = missing.filter((m) => m.card && m.card_key);
  if (!kept.length) return;
  $("answer").innerHTML = missingForm(kept);
  for (const box of document.querySelectorAll("#missing-form input[data-keep]")) box.checked = true;
  $("missing-form").addEventListener("submit", submitMissing);
}

// The answer to a button, on the screen: the message line is at the sheet's top, and the buttons
// that record (Activate, Attack, End turn, Undo, Initiative, a command's form) lie below the targets
// table -- on a 360 x 640 phone 600 px down, so "#3 obi activates" or a refusal was said out of
// sight and the tap seemed to do nothing. The sheet is scrolled to it when it is not wholly in view
// (from its start when it is taller than the sheet).
function messageInView() {
  if ($("message").textContent) inSheetView($("message"));
}

// An element of the sheet wholly in its view, or, taller than the sheet, from its start: "nearest"
// showed the end of a form taller than the sheet (a judge's note at 200 % zoom on a tablet), its
// first field's label above the sheet's top (reading R393).
function inSheetView(el) {
  const sheet = $("sheet");
  if (!el || !sheet) return;
  const r = el.getBoundingClientRect(), s = sheet.getBoundingClientRect();
  if (r.top < s.top - 0.5 || r.bottom > s.bottom + 0.5) el.scrollIntoView({ block: r.height > s.height ? "start" : "nearest" });
}

// a side as the reader says it: "light" and "dark" through the page's texts, any other name as written
function sideName(s) { return s === "light" || s === "dark" ? tr(s) : s; }

function closeMove() { if ($("move-preview")) { $("move-preview").hidden = true; $("move-preview").innerHTML = ""; } S.moveTo = null; }

async function previewMove(square) {
  const mine = S.mine;
  let plan;
  try { plan = await api(`api/move?figure=${encodeURIComponent(mine)}&to=${encodeURIComponent(square)}`); } catch (e) { say(e.message); return; }
  S.moveTo = square;
  await drawBoard();
  const path = plan.path.length ? plan.path.join(" → ") : "-";
  const box = $("move-preview");
  box.innerHTML = `<p><b>${esc(tr("Move {figure} to {square}?", { figure: mine, square }))}</b><br>` +
    (plan.path.length ? esc(tr("path {path}, cost {cost}", { path, cost: plan.cost })) : `<span class="illegal">${esc(tr("no route there: the move would be refused"))}</span>`) + `</p>` +
    (plan.provokes.length ? `<p class="illegal">${esc(tr("leaves the reach of: {names}", { names: plan.provokes.join(", ") }))}</p>` : "") +
    plan.notes.map((n) => `<p class="rule">${esc(n)}</p>`).join("") +
    `<button id="b-move-confirm" class="primary" type="button">${esc(tr("Confirm the move"))}</button> <button id="b-move-cancel" type="button">${esc(tr("Cancel"))}</button>`;
  box.hidden = false;
  say(tr("Tap another square to change it, or confirm."), true);
  let rid = requestId();  // one action: a double tap on Confirm records once
  $("b-move-confirm").onclick = async () => {
    $("b-move-confirm").disabled = true;
    const done = () => { S.mode = null; closeMove(); unzoomAfterMove(); };
    const r = await doVerb("game move", { figure: mine, to: square }, { rid, recorded: done, answered: () => { rid = requestId(); } });
    if (r) done(); else $("b-move-confirm").disabled = false;
  };
  $("b-move-cancel").onclick = async () => { S.mode = null; closeMove(); unzoomAfterMove(); say(""); await drawBoard(); };
  inSheetView(box);
}

// Which slot or field fills each argument of a verb's form.
function prefill(p) {
  const n = p.name;
  if (["figure", "attacker", "viewer", "a"].includes(n)) return S.mine || "";
  if (["target", "b", "skiff"].includes(n)) return S.target || "";
  if (n === "combined_fire") return S.helpers.join(",");
  if (n === "roll" && p.kind === "int") return $("roll") ? $("roll").value : "";
  if (n === "to") return S.moveTo || "";
  return "";
}

// A list field's items, split at spaces and ";". An item that names something, "NAME=N", keeps the
// words before its "=": "Makashi Style Master=4 Shields=11,8" is two saves, not four words (reading
// R197: a hit on Count Dooku could not be recorded from the page, its save's name cut at each space).
function listItems(v) {
  const words = v.split(/[\s;]+/).filter(Boolean);
  if (!v.includes("=")) return words;
  const items = [];
  let name = [];
  for (const w of v.split(";")) {  // ";" always ends an item
    for (const word of w.split(/\s+/).filter(Boolean)) {
      name.push(word);
      if (word.includes("=")) { items.push(name.join(" ")); name = []; }
    }
    if (name.length) { items.push(name.join(" ")); name = []; }
  }
  return items;
}

// A form for any verb, built from its arguments as the server lists them.
function openVerbForm(verb) {
  const spec = S.verbs.detail[verb];
  const box = $("verb-form-box");
  if (spec.local) { box.innerHTML = `<p class="illegal">${esc(tr("{verb}: this command works on this computer's files; run it there", { verb }))}</p>`; return; }
  const fields = spec.params.filter((p) => p.name !== "override").map((p, i) => {
    const id = `vf-${i}`, v = prefill(p);
    const label = `<label for="${id}">${esc(p.label || p.name)}${p.optional ? "" : " *"}</label>`;
    let input;
    // a checkbox inside its label: the label, a thumb's height, is what is tapped
    if (p.kind === "bool") return `<div class="field"><label for="${id}">${esc(p.label || p.name)}<input id="${id}" type="checkbox" data-name="${esc(p.name)}" data-kind="bool"></label></div>`;
    else if (p.kind === "int") input = `<input id="${id}" type="number" inputmode="numeric" data-name="${esc(p.name)}" data-kind="int" value="${esc(v)}"${p.optional ? "" : " required"}>`;
    else input = `<input id="${id}" type="text" autocapitalize="off"${p.kind === "list" ? "" : ' maxlength="200"'} data-name="${esc(p.name)}" data-kind="${esc(p.kind)}" value="${esc(v)}"${p.name === "to" ? " data-square-field" : ""}${p.optional ? "" : " required"}>`;
    return `<div class="field">${label}${input}</div>`;
  }).join("");
  const go = spec.writes ? tr("Record") : tr("Ask");
  box.innerHTML = `<form class="verb-form" id="verb-form" data-verb="${esc(verb)}"><p><b>${esc(spec.label || verb)}</b></p>${fields}` +
    `<button type="submit" class="primary" id="verb-go">${esc(go)}</button> <button type="button" id="verb-close">${esc(tr("Cancel"))}</button><pre id="verb-result"></pre></form>`;
  let rid = requestId();  // the same id if this form is sent again after a lost answer (a new one after a refusal)
  $("verb-close").onclick = () => { box.innerHTML = ""; };
  $("verb-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const args = {};
    let usedRoll = false;
    for (const input of box.querySelectorAll("input[data-name]")) {
      const k = input.dataset.name, kind = input.dataset.kind;
      if (kind === "bool") { if (input.checked) args[k] = true; continue; }
      const v = input.value.trim();
      if (!v) continue;
      if (k === "roll") usedRoll = true;
      args[k] = kind === "list" ? listItems(v) : v;
    }
    $("verb-go").disabled = true;
    const r = await doVerb(verb, args, { rid: spec.writes ? rid : undefined, usedRoll, answered: () => { rid = requestId(); } });
    if (box.querySelector("#verb-go")) $("verb-go").disabled = false;
    // an answer takes the place of the refusal before it: the red line of an earlier question stayed
    // above the new answer, as if this one had been refused (reading R332)
    if (r && !r.event) say("");
    if (r && !r.event && $("verb-result")) $("verb-result").textContent = shownText(r.text_lines ? r.text_lines.join("\n") : JSON.stringify(r, null, 1));
    if (r && r.event) box.innerHTML = "";
    for (const input of box.querySelectorAll("input[data-name=roll]")) input.value = "";  // a die is used once
  };
  inSheetView(box);
}

// Every verb of this game the server answers, from GET /api/verbs: the game's own as buttons, all of them in
// the list (a command that works only on the server's computer is shown, disabled, saying so).
const CHIPS = ["game charge", "game aoo", "game power", "game morale", "game damage", "game heal", "game condition", "game force",
               "game door", "game embark", "game disembark", "game flee", "game remove", "game note", "game end"];
async function loadVerbs() {
  S.verbs = await api("api/verbs");
  const groups = {};
  for (const v of S.verbs.verbs) (groups[v.includes(" ") ? v.split(" ")[0] : "?"] ||= []).push(v);
  $("verb-select").innerHTML = `<option value="">—</option>` + Object.entries(groups).map(([g, vs]) =>
    `<optgroup label="${esc(g === "?" ? tr("questions") : (g === "game" || g === "cards" ? tr(g) : g))}">` + vs.map((v) => {
      const d = S.verbs.detail[v];
      // a disabled command says why in its own line: greyed out alone, "import cards" looked broken (reading R334)
      const off = d.local ? "{label} (on the table's computer only)"
        : (d.writes || d.library) && isSpectator ? "{label} (a spectator's link only reads)"
          : d.writes && !isGame ? "{label} (a position, not a game: nothing is recorded)" : null;
      const label = off ? tr(off, { label: d.label || v }) : d.label || v;
      return `<option value="${esc(v)}" data-verb="${esc(v)}"${off ? " disabled" : ""}>${esc(label)}</option>`;
    }).join("") + `</optgroup>`).join("");
  $("verb-select").onchange = () => { const v = $("verb-select").value; if (v) openVerbForm(v); };
  if ($("verb-chips")) {
    $("verb-chips").innerHTML = CHIPS.filter((v) => S.verbs.detail[v]).map((v) =>
      `<button type="button" class="verb-chip" data-verb="${esc(v)}">${esc(S.verbs.detail[v].label || v.split(" ")[1])}</button>`).join("");
    $("verb-chips").onclick = (ev) => { const b = ev.target.closest("[data-verb]"); if (b) openVerbForm(b.dataset.verb); };
  }
}

// A card looked up at the table (cards show, R224): its form and answer where the sheet's answers are,
// on the screen without scrolling; a refusal (an unknown name, several cards listed) on the message line.
if ($("b-card")) {
  $("b-card").onclick = () => {
    $("answer").innerHTML = `<form class="verb-form" id="card-form"><div class="field"><label for="card-name">${esc(tr("card name"))}</label>` +
      `<input id="card-name" type="text" autocapitalize="off" maxlength="200" required>` +
      `<button type="submit" class="primary" id="card-go">${esc(tr("Ask"))}</button></div><pre id="card-result"></pre></form>`;
    $("card-form").onsubmit = async (ev) => {
      ev.preventDefault();
      say("");
      const r = await doVerb("cards show", { name: $("card-name").value.trim() });
      if ($("card-result")) $("card-result").textContent = r ? shownText((r.text_lines || []).join("\n")) : "";
    };
    $("card-name").focus();
  };
}

if ($("b-activate")) {
  $("b-activate").onclick = () => doVerb("game activate", { figure: S.mine });
  $("b-move").onclick = () => { S.mode = "move"; closeMove(); showSlots(); zoomForMove(); say(tr("Tap the square to move to."), true); };
  $("b-attack").onclick = async () => {
    if (!S.target) { say(tr("Tap a target first.")); messageInView(); return; }
    const args = { attacker: S.mine, target: S.target, roll: $("roll").value.trim() || null };
    if (S.helpers.length) args.combined_fire = S.helpers.join(",");
    // a Force reroll's d20 with the first: one event, the second standing (R187); the field is
    // shown only where the pair's answer offers the reroll (reading R212)
    const reroll = $("reroll").value.trim();
    if (reroll && !$("reroll-box").hidden) args.reroll = reroll;
    const btn = $("b-attack");
    btn.disabled = true;
    try { await doVerb("game attack", args, { usedRoll: true }); } finally { btn.disabled = false; }
  };
  $("b-helpers").onclick = () => {
    S.mode = S.mode === "helpers" ? null : "helpers";
    showSlots();
    say(S.mode === "helpers" ? tr("Tap the helpers (combined fire); tap again to drop one.") : "", true);
  };
  $("b-end").onclick = () => doVerb("game end-turn", {});
  $("b-undo").onclick = async () => { if (confirm(tr("Undo the last event? It stays in the log, marked undone."))) await doVerb("game undo", {}); };
  // initiative: each side's d20 as rolled, or the assistant rolls for everyone
  $("b-initiative").onclick = async () => {
    const st = await api("api/status");
    const sides = [...new Set(st.figures.map((f) => f.side))];
    const box = $("initiative-form");
    box.innerHTML = `<p><b>${esc(tr("Initiative: each side's d20 as rolled"))}</b></p>` +
      sides.map((s, i) => `<label>${esc(sideName(s))} <input id="init-${i}" type="text" inputmode="numeric" autocomplete="off" size="6" data-side="${esc(s)}"></label> `).join("") +
      `<br><button id="b-init-record" class="primary" type="button">${esc(tr("Record"))}</button>` +
      `<button id="b-init-auto" type="button">${esc(tr("Let the assistant roll"))}</button><button id="b-init-cancel" type="button">${esc(tr("Cancel"))}</button>`;
    box.hidden = false;
    let rid = requestId();
    const answered = () => { rid = requestId(); };
    const done = (r) => { if (r) { box.hidden = true; box.innerHTML = ""; } };
    $("b-init-record").onclick = async () => {
      // a side's d20, or after a tie its rolls in order, "5,12" (the server checks each: reading R182)
      const roll = [...box.querySelectorAll("input[data-side]")].map((x) => `${x.dataset.side}=${x.value.replace(/\s+/g, "")}`);
      if (roll.some((x) => x.endsWith("="))) { say(tr("give a whole number")); messageInView(); return; }
      done(await doVerb("game initiative", { roll }, { rid, answered }));
    };
    $("b-init-auto").onclick = async () => done(await doVerb("game initiative", { auto: true }, { rid, answered }));
    $("b-init-cancel").onclick = () => done(true);
    $("init-0") && $("init-0").focus();
  };
  // the empty map, once at set-up: kept as the game's reference (it replaces the one before, so
  // the player says it is the empty map first)
  $("reference-photo").onchange = async () => {
    const input = $("reference-photo"), f = input.files[0];
    if (!f) return;
    if (!confirm(tr("This is the empty map: keep it as the reference? Later photos are compared with it."))) { input.value = ""; return; }
    say(tr("reading the empty map…"), true);
    photoSays(tr("reading the empty map…"));
    const form = new FormData(); form.append("photo", f);
    try {
      const r = await api("api/photo/reference", { method: "POST", headers: { "x-write-token": WRITE_TOKEN }, body: form });
      showReference(r);
      const notes = (r.notes || []).map((n) => `<p class="photo-note">${esc(n)}</p>`).join("");
      $("photo-answer").innerHTML = notes;
      photoInView();
      say(tr("reference kept: the empty {cols} x {rows} map", { cols: r.cols, rows: r.rows }), true);
    } catch (e) { say(e.message); photoSays(e.message, true); } finally { input.value = ""; }
  };
  $("photo").onchange = async () => {
    const f = $("photo").files[0];
    if (!f) return;
    say(tr("reading the photo…"), true);
    photoSays(tr("reading the photo…"));
    const form = new FormData(); form.append("photo", f);
    try {
      const r = await api("api/photo", { method: "POST", headers: { "x-write-token": WRITE_TOKEN }, body: form });
      const mode = photoMode(r);
      // what the photo would change first, what agrees after it: the moved figure is the row a player
      // checks before Apply, and on a small sheet the rows below it are under the button (R394)
      const rows = [...r.rows].sort((x, y) => (x.verdict === "agree") - (y.verdict === "agree")).map((x) => `<tr><td>${esc(x.figure || "?")}</td><td>${esc(x.game || "-")}</td><td>${esc(x.photo || "-")}</td><td class="verdict-${x.verdict}">${esc(tr(x.verdict))}</td></tr>`).join("");
      // squares to confirm: those the photo doubts, and where an uncertain move would put a figure
      const doubted = [...new Set([...r.uncertain.map((u) => u.square), ...r.rows.filter((x) => x.verdict === "uncertain").map((x) => x.photo)])];
      const unsure = doubted.map((square) => `<label><input type="checkbox" class="confirm" value="${esc(square)}"> ${esc(tr("{square} holds a figure", { square }))}</label>`).join(" ");
      $("photo-answer").innerHTML = mode + `<table><tr><th>${esc(tr("figure"))}</th><th>${esc(tr("game"))}</th><th>${esc(tr("photo"))}</th><th></th></tr>${rows}</table>` +
        (unsure ? `<p>${esc(tr("Confirm:"))} ${unsure}</p>` : "") + `<button id="b-apply" type="button">${esc(tr("Apply the moved figures"))}</button>`;
      photoInView();
      say(tr("photo read in {seconds}s", { seconds: r.seconds }), true);
      // the game's version the photo was compared with: a change since (an undo, another phone's
      // record) makes this answer one of the game before, said and not applied (reading R183)
      S.photo = { version: r.version, applied: false };
      photoStale();
      const rid = requestId();  // one photo, one correction: a second tap or a retry records nothing more
      $("b-apply").onclick = async () => {
        const btn = $("b-apply");
        if (btn.disabled) return;
        btn.disabled = true;  // no second tap while the first is on its way
        // the server's comparison says which moves are sure ("moved"); an uncertain one is applied
        // when the player ticked its square
        const confirmed = new Set([...document.querySelectorAll("input.confirm:checked")].map((c) => c.value));
        const moves = r.rows.filter((x) => x.verdict === "moved" || (x.verdict === "uncertain" && x.photo !== x.game && confirmed.has(x.photo)))
                            .map((x) => ({ figure: x.figure, at: x.photo, confidence: x.confidence }));
        try {
          const a = await post("api/photo/apply", { moves, source: "photo " + f.name, version: r.version }, rid);
          S.photo.applied = true;
          say(a.said, true);
          // ... and beside the button tapped: the message line is at the sheet's top, scrolled out of
          // sight under the photo's answer (a 320 x 568 phone, a tablet at 200 %), so the tap seemed
          // to do nothing but grey the button (reading R392)
          btn.insertAdjacentHTML("beforebegin", `<p id="photo-applied" class="photo-note ok" role="status">${esc(a.said)}</p>`);
          inSheetView($("photo-applied"));
          await sync();
        } catch (e) { say(e.message); photoStale(); if (!S.photo.stale) btn.disabled = false; }
      };
    } catch (e) {
      // no grid in the photo is refused (422, as a reference photo's is: R311) with the mode that read it
      if (e.body && e.body.grid_found === false && e.body.mode) {
        $("photo-answer").innerHTML = photoMode(e.body) + `<p class="illegal" role="status">${esc(e.message)}</p>`; photoInView(); say(""); return;
      }
      say(e.message); photoSays(e.message, true);
    }
  };
}

// Which mode read a photo: the empty map's reference, or the learned classifier alone.
function photoMode(r) {
  return `<p id="photo-mode" class="photo-note mode-${esc(r.mode)}">${esc(r.mode === "reference"
    ? tr("Compared with the empty-map reference (taken {taken})", { taken: when(r.reference.taken) })
    : tr("No reference photo: the learned classifier answered"))}</p>`;
}

// A photo's answer compared with the game as it was: once the game has changed (and the answer was
// not applied), its Apply button is disabled and the answer says it is from before (reading R183).
function photoStale() {
  const btn = $("b-apply"), now = window.tableSync.version;
  if (!S.photo || S.photo.applied || S.photo.stale || !btn || now === null || S.photo.version === undefined || now <= S.photo.version) return;
  S.photo.stale = true;
  btn.disabled = true;
  btn.insertAdjacentHTML("beforebegin", `<p id="photo-stale" class="illegal" role="status">${esc(tr("The game changed after this photo was read: send the photo again."))}</p>`);
}

// What became of the photo just sent, where the player is looking: beside the photo buttons (the
// sheet's message line is scrolled out of sight there), in place of the answer to the photo
// before, which would otherwise stand as if it were this photo's.
function photoSays(text, refused) {
  $("photo-answer").innerHTML = `<p class="${refused ? "illegal" : "photo-note"}" role="status">${esc(text)}</p>`;
  photoInView();
}
// ... and on the screen: a 360 x 640 phone had the photo's table and its Apply button 820-1090 px
// down, out of sight in the sheet under the board (844 x 390 sideways: 590-860 px)
// A photo's answer taller than the sheet (five figures at 200 % zoom on a tablet: 250 px in a 184 px
// sheet) is shown from its start, the Apply button held at the sheet's foot (app.css, reading R391).
function photoInView() { inSheetView($("photo-answer")); }

// ---------------------------------------------------------------- in step with the table

// A reference's time (ISO 8601, UTC) in the reader's own clock and words.
function when(iso) {
  const d = new Date(iso);
  return isNaN(d) ? iso : d.toLocaleString(document.documentElement.lang || undefined, { dateStyle: "medium", timeStyle: "short" });
}

// Whether the game keeps the empty map's reference, and when it was taken (or why it cannot be used).
function showReference(ref) {
  const box = $("reference-state");
  if (!box) return;
  box.classList.toggle("illegal", !!(ref && ref.error));
  box.textContent = !ref ? tr("No reference yet: photos are read by the learned classifier, less sure on printed-art maps.")
    : ref.error ? ref.error : tr("Reference: the empty map, taken {taken}", { taken: when(ref.taken) });
}

async function refreshStatus() {
  const st = await api("api/status");
  showReference(st.reference);
  $("round").textContent = st.round ? tr("round {round}, phase {phase}", { round: st.round, phase: st.phase }) : tr("no round yet");
  let acting = st.active ? tr("{figure} is acting", { figure: st.active }) : (st.next ? tr("next: {side}", { side: sideName(st.next) }) : "");
  // the game over, said in the reader's language ("over" in the JSON is the command line's English)
  if (st.over) acting = st.winner ? tr("{side} wins", { side: sideName(st.winner) }) : tr("the game was ended ({reason})", { reason: st.ended });
  // who may still act, a line of its own on a phone (R213)
  const left = st.may_activate ? Object.entries(st.may_activate).map(([s, ids]) => `${sideName(s)}: ${ids.length}`).join(", ") : "";
  $("acting").textContent = shownText(acting);
  $("left").textContent = left ? tr("may still act — {left}", { left }) : "";
  $("status").title = [$("round").textContent, acting, $("left").textContent].filter(Boolean).join(" · ");
  // a figure no longer on the table leaves its slot (said, not silently re-targeted)
  const ids = new Set(st.figures.map((f) => f.id));
  if (S.target && !ids.has(S.target)) { say(tr("{figure} left the table", { figure: S.target })); S.target = null; }
  if (S.mine && !ids.has(S.mine)) { say(tr("{figure} left the table", { figure: S.mine })); S.mine = null; S.target = null; S.helpers = []; }
  S.helpers = S.helpers.filter((h) => ids.has(h));
  showSlots();
}

async function refreshLog() {
  if (!isGame) return;
  const log = await api("api/events");
  $("log").innerHTML = log.events.map((e) => `<li value="${e.seq}">${citeHtml(e.text)}${e.undone ? ` <em>[${esc(tr("undone"))}]</em>` : ""}${e.override ? ` <em>[${esc(tr("override"))}: ${esc(e.override)}]</em>` : ""}</li>`).join("");
}

// The game changed (here or on another phone): the board, the status, the log, and the open
// answer recomputed (marked stale while it is).
let syncing = null, again = false;
async function sync() {
  if (syncing) { again = true; return syncing; }
  document.body.dataset.syncing = "yes";
  syncing = (async () => {
    do {
      again = false;
      const version = window.tableSync.version;
      if ($("verdict")) $("verdict").classList.add("stale");
      await refreshStatus();
      await Promise.all([drawBoard(), refreshLog(), S.mine && S.target ? showPair() : (S.mine ? showTargets() : null)]);
      // data-synced: the game's version the page now shows (the browser tests wait for a settled page)
      if (version !== null) document.body.dataset.synced = String(version);
      photoStale();
    } while (again);
  })();
  try { await syncing; } finally { syncing = null; document.body.dataset.syncing = "no"; }
}

prepareBoard();
layout();
showSlots();
// data-ready: the first answers are in (the browser tests wait for it)
Promise.all([loadVerbs(), sync()]).catch((e) => say(e.message)).finally(() => { document.body.dataset.ready = "yes"; });
window.tableSync.onChange(() => sync().catch((e) => say(e.message)));
