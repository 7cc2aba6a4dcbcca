"""A Destiny table as plain text lines, for ``status`` and the export (no colours: judges paste
it), and as JSON (``status --json``, the export's final table)."""

from __future__ import annotations

from typing import Any

from ..i18n import N_, _, n_
from .importers import said_word
from .table import Card, Table

#: the machine values a table shows, in the catalogs (the phase)
SHOWN_VALUES = (N_("setup"), N_("action"), N_("upkeep"))


def describe(t: Table) -> list[str]:
    head = _("round {round}, {phase} phase").format(round=t.round, phase=_(t.phase))
    if t.phase == "action":
        head += _(", {turn} to act").format(turn=t.turn) + (_(" (Ambush extra action)") if t.extra_action else "")
    if t.claimed_by:
        head += _("; {who} claimed").format(who=t.claimed_by)
    if t.bf_owner:
        lines = [head + _("; battlefield: {owner}'s, controlled by {controller}").format(owner=t.bf_owner, controller=t.bf_controller or "-")]
    else:  # before the battlefield roll: "battlefield: -'s, controlled by -" read as a name
        lines = [head + _("; battlefield: not chosen yet")]
    if t.winner:
        lines.append(_("GAME OVER: {result}").format(result=t.result))
    for p in t.players:
        lines.append(
            _("{name} ({side}): {resources} resources, hand {hand}/{hand_limit}, deck {deck}, discard {discard}").format(
                name=p.name, side=said_word(p.side), resources=p.resources, hand=p.hand, hand_limit=p.hand_limit, deck=p.deck, discard=p.discard
            )
        )
        for c in t.cards:
            if c.owner != p.name or c.kind in ("upgrade", "downgrade"):
                continue
            if c.kind == "character":
                state = (
                    _("defeated")
                    if c.defeated
                    else (
                        _("{damage}/{health} damage, {shields} shields").format(damage=c.damage, health=c.health, shields=c.shields)
                        + (_(", exhausted") if c.exhausted else "")
                    )
                )
                ups = ", ".join(u.name for u in t.upgrades_on(c.id))
                kws = f" [{', '.join(sorted(c.keywords))}]" if c.keywords else ""
                downs = ", ".join(u.name for u in t.downgrades_on(c.id))
                lines.append(f"  {c.name}: {state}{kws}" + (_("; upgrades: {ups}").format(ups=ups) if ups else "")
                             + (_("; downgrades: {names}").format(names=downs) if downs else ""))
                dice = _dice_line(t, c)
                if dice:
                    lines.append(_("    dice: {dice}").format(dice=dice))
            elif c.kind == "plot":
                lines.append(_("  plot {name}").format(name=c.name) + (_(" (exhausted)") if c.exhausted else ""))
            else:
                lines.append(_("  support {name}").format(name=c.name) + (_(" (exhausted)") if c.exhausted else ""))
        pool = [f"{d.id}={d.showing}" for d in t.pool(p.name)]
        if pool:
            lines.append(_("  pool: {names}").format(names=' '.join(pool)))
    for who, n in t.indirect:
        lines.append(
            n_("pending: {who} assigns {n} indirect damage among their characters",
               "pending: {who} assigns {n} indirect damage among their characters", n).format(who=who, n=n)
        )
    for cid, n in t.discard_down:
        lines.append(n_("pending: discard {n} upgrade from {c}", "pending: discard {n} upgrades from {c}", n).format(n=n, c=cid))
    for what, cid in t.delayed:
        lines.append(_("after this round: {what} {c}").format(what=what, c=cid))
    return lines


def _dice_line(t: Table, c: Card) -> str:
    """A character's dice and its upgrades' dice: id, where it is, the face it shows."""
    parts = []
    for card in (c, *t.upgrades_on(c.id)):
        for d in t.dice_of(card.id):
            where = f" ({card.name})" if card is not c else ""
            parts.append(f"{d.id}{where} " + (_("showing {showing} in the pool").format(showing=d.showing) if d.showing is not None else _("on the card")))
    return "; ".join(parts)


def summary(t: Table) -> dict[str, Any]:
    return {
        "round": t.round,
        "phase": t.phase,
        "turn": t.turn,
        "battlefield": t.bf_controller,
        "winner": t.winner,
        "players": {p.name: {"resources": p.resources, "hand": p.hand, "deck": p.deck, "discard": p.discard} for p in t.players},
        "characters": [
            {"id": c.id, "owner": c.owner, "damage": c.damage, "shields": c.shields, "exhausted": c.exhausted, "defeated": c.defeated}
            for c in t.cards
            if c.kind == "character"
        ],
        "pool": {d.id: str(d.showing) for d in t.dice if d.showing is not None},
    }
