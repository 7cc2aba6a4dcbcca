"""The table as plain text lines, for ``status`` and the export (no colours: judges paste it)."""

from __future__ import annotations

from typing import Any


def describe(game: str, t: Any) -> list[str]:
    return _destiny(t) if game == "destiny" else _swtcg(t)


def _destiny(t: Any) -> list[str]:
    head = f"round {t.round}, {t.phase} phase"
    if t.phase == "action":
        head += f", {t.turn} to act" + (" (Ambush extra action)" if t.extra_action else "")
    if t.claimed_by:
        head += f"; {t.claimed_by} claimed"
    lines = [head + f"; battlefield: {t.bf_owner or '-'}'s, controlled by {t.bf_controller or '-'}"]
    if t.winner:
        lines.append(f"GAME OVER: {t.result}")
    for p in t.players:
        lines.append(f"{p.name} ({p.side}): {p.resources} resources, hand {p.hand}/{p.hand_limit}, deck {p.deck}, discard {p.discard}")
        for c in t.cards:
            if c.owner != p.name or c.kind == "upgrade":
                continue
            if c.kind == "character":
                state = "defeated" if c.defeated else f"{c.damage}/{c.health} damage, {c.shields} shields" + (", exhausted" if c.exhausted else "")
                ups = ", ".join(u.name for u in t.upgrades_on(c.id))
                kws = f" [{', '.join(sorted(c.keywords))}]" if c.keywords else ""
                lines.append(f"  {c.name}: {state}{kws}" + (f"; upgrades: {ups}" if ups else ""))
                dice = _dice_line(t, c)
                if dice:
                    lines.append(f"    dice: {dice}")
            else:
                lines.append(f"  support {c.name}" + (" (exhausted)" if c.exhausted else ""))
        pool = [f"{d.id}={d.showing}" for d in t.pool(p.name)]
        if pool:
            lines.append(f"  pool: {' '.join(pool)}")
    for c, n in t.discard_down:
        lines.append(f"pending: discard {n} upgrade(s) from {c}")
    for what, c in t.delayed:
        lines.append(f"after this round: {what} {c}")
    return lines


def _dice_line(t: Any, c: Any) -> str:
    """A character's dice and its upgrades' dice: id, where it is, the face it shows."""
    parts = []
    for card in (c, *t.upgrades_on(c.id)):
        for d in t.dice_of(card.id):
            where = f" ({card.name})" if card is not c else ""
            parts.append(f"{d.id}{where} " + (f"showing {d.showing} in the pool" if d.showing is not None else "on the card"))
    return "; ".join(parts)


def _swtcg(t: Any) -> list[str]:
    lines = [f"turn {t.turn}, step {t.step}" + (f"; {t.result}" if t.result else "")]
    for p in t.players:
        lines.append(f"{p.side}: Force {p.force}, BP {p.bp}, hand {p.hand}, deck {p.deck}, discard {p.discard}"
                     + (f", setup BP {p.setup_bp}" if t.step == "setup" else ""))
        for zone in ("space", "ground", "character", "build"):
            us = [u for u in t.units if u.owner == p.side and u.zone == zone and u.aboard is None]
            if not us:
                continue
            parts = []
            for u in us:
                bits = [f"{u.damage} dmg" if u.damage else "", "tapped" if u.tapped else "", u.status, f"{u.counters}/{u.cost} built" if u.status == "partial" else ""]
                pilot = t.pilot_of(u.id)
                if pilot:
                    bits.append(f"pilot {pilot.label}")
                extra = ", ".join(b for b in bits if b)
                parts.append(u.label + (f" ({extra})" if extra else ""))
            lines.append(f"  {zone}: " + "; ".join(parts))
    if t.attack:
        a = t.attack
        lines.append(f"attack: {a.attacker} -> {a.defender}, power {a.power}" + (f", rolled {list(a.rolls)}: {a.hits} hits, {a.damage} damage" if a.rolls else "")
                     + (f"; {a.window} chance, {a.window_turn} to act" if a.window in ("reroll",) else f"; {a.window}" if a.window else ""))
    if t.contest:
        ds, ls, dsb, lsb, turn, _ = t.contest
        lines.append(f"contest: {ds} (DS bid {max(dsb, 0)}) v {ls} (LS bid {max(lsb, 0)}), {turn} to bid")
    if t.triggers:
        lines.append("waiting triggers: " + "; ".join(f"{s}: {x}" for s, x in t.triggers))
    return lines
