// The live table's page: tap to ask, tap to play. Every answer comes from the server's engine;
// this script only asks and draws. No framework, no build step.
// $, esc, tr and say come from common.js.
"use strict";
const S = { selected: null, target: null, moving: false, version: -1, targets: [], stats: {} };
const isGame = document.body.dataset.game === "yes";

async function api(path, opts) {
  const r = await fetch(path, opts);
  const kind = r.headers.get("content-type") || "";
  const body = kind.includes("json") ? await r.json() : await r.text();
  if (!r.ok) {
    let text = (body && body.error) || `error ${r.status}`;
    if (body && body.reasons) text = tr("Refused:") + " " + body.reasons.map((x) => `${x.text} (${x.rule})`).join("; ");
    const err = new Error(text);
    err.body = body;  // a refusal's JSON: 'missing' says which numbers a question lacks
    throw err;
  }
  return body;
}
const post = (path, data) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(data) });

async function drawBoard() {
  const q = new URLSearchParams();
  if (S.selected) q.set("selected", S.selected);
  if (S.target) q.set("target", S.target);
  $("board").innerHTML = await api("api/board.svg?" + q.toString());
}

async function refreshStatus() {
  const st = await api("api/status");
  $("round").textContent = st.round ? tr("round {round}, phase {phase}", { round: st.round, phase: st.phase }) : tr("no round yet");
  let acting = st.active ? tr("{figure} is acting", { figure: st.active }) : (st.next ? tr("next: {side}", { side: st.next }) : "");
  if (st.over) acting = st.over;
  if (st.may_activate) {
    const left = Object.entries(st.may_activate).map(([s, ids]) => `${s}: ${ids.length}`).join(", ");
    acting += left ? " · " + tr("may still act — {left}", { left }) : "";
  }
  $("acting").textContent = acting;
}

async function refreshLog() {
  if (!isGame) return;
  const log = await api("api/events");
  $("log").innerHTML = log.events.map((e) => `<li value="${e.seq}">${esc(e.text)}${e.undone ? ` <em>[${esc(tr("undone"))}]</em>` : ""}${e.override ? ` <em>[${esc(tr("override"))}: ${esc(e.override)}]</em>` : ""}</li>`).join("");
}

function reasonsList(rs) { return (rs || []).map((r) => `<li>${esc(r.text)} <span class="rule">${esc(r.rule)}</span></li>`).join(""); }

async function showTargets() {
  const t = await api("api/targets?figure=" + encodeURIComponent(S.selected));
  S.targets = t.targets;
  const rows = t.targets.map((r) => {
    if (r.legal === null || r.legal === undefined) {  // a number is missing: tapping the row asks for it
      const tap = r.missing ? ` class="tap" data-target="${esc(r.target)}"` : "";
      return `<tr${tap}><td>${esc(r.target)}</td><td colspan="3">${esc(r.error || "?")}</td></tr>`;
    }
    const why = r.legal ? "" : (r.illegal_reasons || []).map((x) => esc(x.text)).join("; ");
    return `<tr class="tap" data-target="${esc(r.target)}"><td>${esc(r.target)}</td><td class="${r.legal ? "legal" : "illegal"}">${r.legal ? esc(tr("legal")) : esc(tr("not legal"))}</td>` +
           `<td>${r.needs ? r.needs + "+" : "-"}</td><td>${r.legal ? Math.round(r.p_hit * 100) + "%" : esc(why)}</td></tr>`;
  }).join("");
  $("answer").innerHTML = `<h3>${esc(S.selected)}: ${esc(tr("targets"))}</h3><table><tr><th>${esc(tr("target"))}</th><th></th><th>${esc(tr("roll"))}</th><th>${esc(tr("chance / why"))}</th></tr>${rows}</table>`;
}

// The numbers given on this page for its questions (figure.stat -> N), sent with each attack question.
function givenStats() { return Object.entries(S.stats).map(([k, v]) => `${k}=${v}`); }

async function askAttack() {
  const stat = givenStats();
  if (!stat.length) return api(`api/attack?attacker=${encodeURIComponent(S.selected)}&target=${encodeURIComponent(S.target)}`);
  return post("api/do/attack", { attacker: S.selected, target: S.target, stat });
}

// A question that lacks numbers shows a small form: each number, and whether to keep it for the card.
function missingForm(missing) {
  const rows = missing.map((m, i) => `<div class="missing-row"><label for="miss-${i}">${esc(tr("{figure}'s {what}", { figure: m.figure, what: m.what }))}</label>` +
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
    await showPair();
  } catch (e) { say(e.message); }
}

async function showPair() {
  const a = encodeURIComponent(S.selected), b = encodeURIComponent(S.target);
  const [los, cov] = await Promise.all([api(`api/los?viewer=${a}&target=${b}`), api(`api/cover?attacker=${a}&target=${b}`)]);
  let att;
  try { att = await askAttack(); } catch (e) {
    if (!(e.body && e.body.missing)) throw e;
    // the form says what is missing; the command line's hints (--stat, cards set) stay in its title
    $("answer").innerHTML = `<h3>${esc(S.selected)} → ${esc(S.target)}</h3>` + missingForm(e.body.missing);
    $("missing-form").title = e.message;
    $("missing-form").addEventListener("submit", submitMissing);
    $("missing-form").scrollIntoView({ block: "end" });  // on a phone the form is on the screen, not below it
    return;
  }
  const w = los.witness ? ` — ${esc(tr("witness line"))} ${esc((los.witness_squares || []).join(" → "))} ${esc(JSON.stringify(los.witness))}` : "";
  let html = `<h3>${esc(S.selected)} → ${esc(S.target)}</h3>`;
  html += `<p><b>${esc(tr("Line of sight:"))}</b> <span class="${los.line_of_sight ? "legal" : "illegal"}">${los.line_of_sight ? esc(tr("yes")) : esc(tr("no"))}</span>${w}</p><ul>${reasonsList(los.reasons)}</ul>`;
  const cv = cov.cover === null ? tr("no line of sight") : (cov.cover ? tr("cover") : tr("no cover"));
  html += `<p><b>${esc(tr("Cover:"))}</b> ${esc(cv)}</p><ul>${reasonsList(cov.reasons)}</ul>`;
  html += `<p><b>${esc(tr("Attack:"))}</b> <span class="${att.legal ? "legal" : "illegal"}">${att.legal ? esc(tr("legal")) : esc(tr("not legal"))}</span>` +
          (att.legal ? " — " + tr("needs {needs}+ ({chance}%), damage {damage}", { needs: att.needs, chance: Math.round(att.p_hit * 100), damage: esc(att.damage) }) : "") + `</p>`;
  html += `<ul>${reasonsList(att.illegal_reasons)}${(att.modifiers || []).map((m) => `<li>${m.value > 0 ? "+" : ""}${esc(m.value)} ${esc(tr(m.applies_to))}: ${esc(m.label || m.source)} <span class="rule">${esc(m.rule || "")}</span></li>`).join("")}</ul>`;
  if (att.attacks && att.attacks.length > 1) html += `<p>${att.attacks.map((x) => `${esc(tr("attack {n}", { n: x.attack }))} (${esc(x.condition)}): ${x.needs}+`).join("; ")}</p>`;
  html += (att.notes || []).map((n) => `<p class="rule">${esc(n.text)} (${esc(n.rule)})</p>`).join("");
  if (att.not_modelled && att.not_modelled.length) html += `<p><b>${esc(tr("Not modelled (check by hand):"))}</b> ${att.not_modelled.map(esc).join(", ")}</p>`;
  $("answer").innerHTML = html;
}

async function select(fig) {
  S.moving = false;
  if (S.selected === fig) { S.selected = null; S.target = null; $("answer").innerHTML = ""; if ($("actions")) $("actions").hidden = true; await drawBoard(); return; }
  if (S.selected && S.targets.some((t) => t.target === fig)) { S.target = fig; await Promise.all([drawBoard(), showPair()]); return; }
  S.selected = fig; S.target = null;
  if ($("actions")) $("actions").hidden = false;
  await Promise.all([drawBoard(), showTargets()]);
}

async function act(verb, args) {
  const override = $("override") ? $("override").value.trim() : "";
  try {
    const r = await post("api/act", { verb, args, override: override || null });
    say(`#${r.event.seq} ${r.text}` + (r.notes && r.notes.length ? " — " + r.notes.join("; ") : ""), true);
    if ($("override")) $("override").value = "";
    await sync(true);
  } catch (e) { say(e.message); }
}

$("board").addEventListener("click", async (ev) => {
  const fig = ev.target.closest("[data-figure]");
  const sq = ev.target.closest("[data-square]");
  try {
    if (S.moving && sq && S.selected) { S.moving = false; await act("move", { figure: S.selected, to: sq.dataset.square }); return; }
    if (fig) await select(fig.dataset.figure);
  } catch (e) { say(e.message); }
});
$("answer").addEventListener("click", async (ev) => {
  const row = ev.target.closest("[data-target]");
  if (row) { try { await select(row.dataset.target); } catch (e) { say(e.message); } }
});

if ($("b-activate")) {
  $("b-activate").onclick = () => act("activate", { figure: S.selected });
  $("b-move").onclick = () => { S.moving = true; say(tr("Tap the square to move to."), true); };
  $("b-attack").onclick = () => {
    if (!S.target) { say(tr("Tap a target first.")); return; }
    act("attack", { attacker: S.selected, target: S.target, roll: $("roll").value });
  };
  $("b-end").onclick = () => act("end-turn", {});
  $("b-undo").onclick = async () => { if (confirm(tr("Undo the last event? It stays in the log, marked undone."))) await act("undo", {}); };
  $("b-initiative").onclick = async () => {
    const st = await api("api/status");
    const sides = [...new Set(st.figures.map((f) => f.side))];
    const rolls = {};
    for (const s of sides) {
      const v = prompt(`Initiative: ${s}'s d20 as rolled (leave empty to let the assistant roll for everyone)`);
      if (!v) { await act("initiative", { auto: true }); return; }
      rolls[s] = v;
    }
    await act("initiative", { rolls });
  };
  $("photo").onchange = async () => {
    const f = $("photo").files[0];
    if (!f) return;
    say(tr("reading the photo…"), true);
    const form = new FormData(); form.append("photo", f);
    try {
      const r = await api("api/photo", { method: "POST", body: form });
      if (!r.grid_found) { $("photo-answer").innerHTML = `<p class="illegal">${esc(r.error)}</p>`; say(""); return; }
      const rows = r.rows.map((x) => `<tr><td>${esc(x.figure || "?")}</td><td>${esc(x.game || "-")}</td><td>${esc(x.photo || "-")}</td><td class="verdict-${x.verdict}">${esc(tr(x.verdict))}</td></tr>`).join("");
      // squares to confirm: those the photo doubts, and where an uncertain move would put a figure
      const doubted = [...new Set([...r.uncertain.map((u) => u.square), ...r.rows.filter((x) => x.verdict === "uncertain").map((x) => x.photo)])];
      const unsure = doubted.map((square) => ({ square })).map((u) => `<label><input type="checkbox" class="confirm" value="${esc(u.square)}"> ${esc(tr("{square} holds a figure", { square: u.square }))}</label>`).join(" ");
      $("photo-answer").innerHTML = `<table><tr><th>${esc(tr("figure"))}</th><th>${esc(tr("game"))}</th><th>${esc(tr("photo"))}</th><th></th></tr>${rows}</table>` +
        (unsure ? `<p>${esc(tr("Confirm:"))} ${unsure}</p>` : "") + `<button id="b-apply" type="button">${esc(tr("Apply the moved figures"))}</button>`;
      say(tr("photo read in {seconds}s", { seconds: r.seconds }), true);
      $("b-apply").onclick = async () => {
        // the server's comparison says which moves are sure ("moved"); an uncertain one is applied
        // when the player ticked its square
        const confirmed = new Set([...document.querySelectorAll("input.confirm:checked")].map((c) => c.value));
        const moves = r.rows.filter((x) => x.verdict === "moved" || (x.verdict === "uncertain" && confirmed.has(x.photo)))
                            .map((x) => ({ figure: x.figure, at: x.photo, confidence: x.confidence }));
        try { const a = await post("api/photo/apply", { moves, source: "photo " + f.name }); say(tr("{n} figure(s) moved; Undo takes a correction back", { n: a.applied.length }), true); await sync(true); }
        catch (e) { say(e.message); }
      };
    } catch (e) { say(e.message); }
  };
}

async function sync(force) {
  const v = (await api("api/version")).version;
  if (!force && v === S.version) return;
  S.version = v;
  await Promise.all([refreshStatus(), drawBoard(), refreshLog()]);
  if (S.selected && !S.target) await showTargets();
}
sync(true).catch((e) => say(e.message));
setInterval(() => sync(false).catch(() => {}), 700);
