"""The table as plain text lines, for ``status`` and the export (no colours: judges paste it)."""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _

#: the machine values a table shows, in the catalogs (a Destiny phase, an SW TCG unit's state)
SHOWN_VALUES = (N_("setup"), N_("action"), N_("upkeep"), N_("partial"), N_("retreated"))


def describe(game: str, t: Any) -> list[str]:
    return _destiny(t) if game == "destiny" else _swtcg(t)


def _destiny(t: Any) -> list[str]:
    head = _("round {round}, {phase} phase").format(round=t.round, phase=_(t.phase))
    if t.phase == "action":
        head += _(", {turn} to act").format(turn=t.turn) + (_(" (Ambush extra action)") if t.extra_action else "")
    if t.claimed_by:
        head += _("; {who} claimed").format(who=t.claimed_by)
    lines = [head + _("; battlefield: {owner}'s, controlled by {controller}").format(owner=t.bf_owner or "-", controller=t.bf_controller or "-")]
    if t.winner:
        lines.append(_("GAME OVER: {result}").format(result=t.result))
    for p in t.players:
        lines.append(_("{name} ({side}): {resources} resources, hand {hand}/{hand_limit}, deck {deck}, discard {discard}").format(name=p.name, side=p.side, resources=p.resources, hand=p.hand, hand_limit=p.hand_limit, deck=p.deck, discard=p.discard))
        for c in t.cards:
            if c.owner != p.name or c.kind == "upgrade":
                continue
            if c.kind == "character":
                state = _("defeated") if c.defeated else (_("{damage}/{health} damage, {shields} shields").format(damage=c.damage, health=c.health, shields=c.shields)
                                                          + (_(", exhausted") if c.exhausted else ""))
                ups = ", ".join(u.name for u in t.upgrades_on(c.id))
                kws = f" [{', '.join(sorted(c.keywords))}]" if c.keywords else ""
                lines.append(f"  {c.name}: {state}{kws}" + (_("; upgrades: {ups}").format(ups=ups) if ups else ""))
                dice = _dice_line(t, c)
                if dice:
                    lines.append(_("    dice: {dice}").format(dice=dice))
            else:
                lines.append(_("  support {name}").format(name=c.name) + (_(" (exhausted)") if c.exhausted else ""))
        pool = [f"{d.id}={d.showing}" for d in t.pool(p.name)]
        if pool:
            lines.append(_("  pool: {names}").format(names=' '.join(pool)))
    for c, n in t.discard_down:
        lines.append(_("pending: discard {n} upgrade(s) from {c}").format(n=n, c=c))
    for what, c in t.delayed:
        lines.append(_("after this round: {what} {c}").format(what=what, c=c))
    return lines


def _dice_line(t: Any, c: Any) -> str:
    """A character's dice and its upgrades' dice: id, where it is, the face it shows."""
    parts = []
    for card in (c, *t.upgrades_on(c.id)):
        for d in t.dice_of(card.id):
            where = f" ({card.name})" if card is not c else ""
            parts.append(f"{d.id}{where} " + (_("showing {showing} in the pool").format(showing=d.showing) if d.showing is not None else _("on the card")))
    return "; ".join(parts)


def _swtcg(t: Any) -> list[str]:
    lines = [_("turn {turn}, step {step}").format(turn=t.turn, step=t.step) + (f"; {t.result}" if t.result else "")]
    for p in t.players:
        lines.append(_("{side}: Force {force}, BP {bp}, hand {hand}, deck {deck}, discard {discard}").format(side=p.side, force=p.force, bp=p.bp, hand=p.hand, deck=p.deck, discard=p.discard)
                     + (_(", setup BP {setup_bp}").format(setup_bp=p.setup_bp) if t.step == "setup" else ""))
        for zone in ("space", "ground", "character", "build"):
            us = [u for u in t.units if u.owner == p.side and u.zone == zone and u.aboard is None]
            if not us:
                continue
            parts = []
            for u in us:
                bits = [_("{damage} dmg").format(damage=u.damage) if u.damage else "", _("tapped") if u.tapped else "", _(u.status),
                        _("{counters}/{cost} built").format(counters=u.counters, cost=u.cost) if u.status == "partial" else ""]
                pilot = t.pilot_of(u.id)
                if pilot:
                    bits.append(_("pilot {label}").format(label=pilot.label))
                extra = ", ".join(b for b in bits if b)
                parts.append(u.label + (f" ({extra})" if extra else ""))
            lines.append(f"  {zone}: " + "; ".join(parts))
    if t.attack:
        a = t.attack
        lines.append(_("attack: {attacker} -> {defender}, power {power}").format(attacker=a.attacker, defender=a.defender, power=a.power) + (_(", rolled {rolls}: {hits} hits, {damage} damage").format(rolls=list(a.rolls), hits=a.hits, damage=a.damage) if a.rolls else "")
                     + (_("; {window} chance, {window_turn} to act").format(window=a.window, window_turn=a.window_turn) if a.window in ("reroll",) else f"; {a.window}" if a.window else ""))
    if t.contest:
        ds, ls, dsb, lsb, turn, _unused = t.contest
        lines.append(_("contest: {ds} (DS bid {dsb}) v {ls} (LS bid {lsb}), {turn} to bid").format(ds=ds, dsb=max(dsb, 0), ls=ls, lsb=max(lsb, 0), turn=turn))
    if t.triggers:
        lines.append(_("waiting triggers: ") + "; ".join(f"{s}: {x}" for s, x in t.triggers))
    return lines
