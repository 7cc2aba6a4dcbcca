"""An SW TCG table as plain text lines, for ``status`` and the export (no colours: judges paste
it), and as JSON (``status --json``, the export's final table)."""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _, n_
from .table import Table, step_name

#: the machine values a table shows, in the catalogs (a unit's state)
SHOWN_VALUES = (N_("partial"), N_("retreated"))


def describe(t: Table) -> list[str]:
    lines = [_("turn {turn}, step {step}").format(turn=t.turn, step=step_name(t.step)) + (f"; {t.result}" if t.result else "")]
    for p in t.players:
        lines.append(
            _("{side}: Force {force}, BP {bp}, hand {hand}, deck {deck}, discard {discard}").format(
                side=p.side, force=p.force, bp=p.bp, hand=p.hand, deck=p.deck, discard=p.discard
            )
            + (_(", setup BP {setup_bp}").format(setup_bp=p.setup_bp) if t.step == "setup" else "")
        )
        for zone in ("space", "ground", "character", "build"):
            us = [u for u in t.units if u.owner == p.side and u.zone == zone and u.aboard is None]
            if not us:
                continue
            parts = []
            for u in us:
                bits = [
                    _("{damage} dmg").format(damage=u.damage) if u.damage else "",
                    _("tapped") if u.tapped else "",
                    _(u.status),
                    _("{counters}/{cost} built").format(counters=u.counters, cost=u.cost) if u.status == "partial" else "",
                ]
                pilot = t.pilot_of(u.id)
                if pilot:
                    bits.append(_("pilot {label}").format(label=pilot.label))
                extra = ", ".join(b for b in bits if b)
                parts.append(u.label + (f" ({extra})" if extra else ""))
            lines.append(f"  {zone}: " + "; ".join(parts))
    if t.attack:
        a = t.attack
        lines.append(
            _("attack: {attacker} -> {defender}, power {power}").format(attacker=a.attacker, defender=a.defender, power=a.power)
            + (n_(", rolled {rolls}: {hits} hit, {damage} damage", ", rolled {rolls}: {hits} hits, {damage} damage", a.hits).format(
                rolls=list(a.rolls), hits=a.hits, damage=a.damage) if a.rolls else "")
            + (
                _("; {window} chance, {window_turn} to act").format(window=a.window, window_turn=a.window_turn)
                if a.window in ("reroll",)
                else f"; {a.window}"
                if a.window
                else ""
            )
        )
    if t.contest:
        ds, ls, dsb, lsb, turn, _unused = t.contest
        lines.append(_("contest: {ds} (DS bid {dsb}) v {ls} (LS bid {lsb}), {turn} to bid").format(ds=ds, dsb=max(dsb, 0), ls=ls, lsb=max(lsb, 0), turn=turn))
    if t.triggers:
        lines.append(_("waiting triggers: ") + "; ".join(f"{s}: {x}" for s, x in t.triggers))
    return lines


def summary(t: Table) -> dict[str, Any]:
    return {
        "turn": t.turn,
        "step": t.step,
        "players": {p.side: {"force": p.force, "bp": p.bp, "hand": p.hand, "deck": p.deck} for p in t.players},
        "units": [
            {"id": u.id, "owner": u.owner, "zone": u.zone, "tapped": u.tapped, "damage": u.damage, **({"aboard": u.aboard} if u.aboard else {})}
            for u in t.units
        ],
    }
