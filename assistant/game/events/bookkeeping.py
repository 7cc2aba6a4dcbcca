"""The log's own events (its one setup, an undo) and the judge's corrections from outside the
rules: a figure placed, set to another square, removed, and a note."""

from __future__ import annotations

from dataclasses import replace

import yaml

from ...cards import CardLibrary
from ...coords import parse_square
from ...errors import AssistantError
from ...i18n import _
from ...model import Position
from ...position import parse_position
from ...position.load import check_position_text
from ...position.save import position_to_data
from ...rules.engine import Reason
from ...rules.record import find_edition
from ..effects import set_figure, with_figure
from ..state import Data, Fallen, GameState, describe_setup, event_kind

_S, _I = str, int


class _LogEvent:
    """The log writes these itself (the game's start, an undo): no command records them, so
    one is refused when applied, in the words used for any kind no command records."""

    name = ""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        raise ValueError(f"unknown event kind {self.name!r}")


@event_kind("setup", {"position": _S, "cards?": list})
class Setup(_LogEvent):
    """The game's first event: the position it starts from (and the user's cards, kept). The
    fold loop starts the state from it."""

    name = "setup"

    def describe(self, state: GameState, data: Data) -> str:
        return _("setup: {what}").format(what=describe_setup(state.position))


@event_kind("undo", {"seq": _I})
class Undo(_LogEvent):
    """An undo of an earlier event (an undo undone brings the event back); the fold loop reads
    the undos first, to know which events are in force."""

    name = "undo"

    def describe(self, state: GameState, data: Data) -> str:
        return _("undo of event {seq}").format(seq=data["seq"])


def _library(state: GameState) -> CardLibrary:
    """The cards a placed figure may be: the game's library (reading R180), else its figures' own."""
    return state.library if state.library is not None else CardLibrary(list(state.position.cards.values()))


def _placed(state: GameState, data: Data) -> tuple[Position, str]:
    """The position with the figure ``data`` places (its card too, if new: R180), and its id."""
    pos = state.position
    spec = yaml.safe_dump({"format": "tabletop-position/1", "rules": pos.edition.value, "map": {"cols": pos.map.cols, "rows": pos.map.rows},
                           "figures": [data["figure"]]})
    placed = parse_position(spec, "place", _library(state))
    fig = placed.figures[0]
    pos = with_figure(state.position, fig, fig.id)
    return Position(pos.edition, pos.map, pos.figures, {**pos.cards, **placed.cards}), fig.id


@event_kind("place", {"figure": dict})
class Place:
    """A figure put on the map as a position file writes it (a reinforcement, a judge's fix)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        # the figure must be one the standing position's file could hold (reading R163's trial): an
        # id already standing was replaced -- side, card and all -- and a wall or another figure's
        # square was taken, silently. Refused outright: no override makes two figures one square.
        pos = state.position
        spec = data["figure"]
        standing = position_to_data(pos)
        figures = standing["figures"]
        text = yaml.safe_dump({**standing, "figures": [*figures, spec]}, sort_keys=False, allow_unicode=True)
        found = check_position_text(text, "place", _library(state), in_file=False)
        mine = [p.message for p in found.errors if p.where.startswith(f"figures[{len(figures)}]")]
        # reading R179: what a file could hold is not yet what this game takes. A side none of the game's
        # figures (standing or fallen) has is a typo that would make a third side mid-game, and a condition
        # the edition's record does not list is refused as `game condition` refuses it (R163).
        sides = sorted({f.side for f in pos.figures} | set(state.fallen_side.values()))
        if isinstance(spec.get("side"), str) and sides and spec["side"] not in sides:
            mine.append(_("its side {side!r} is none of the game's ({sides})").format(side=spec["side"], sides=", ".join(sides)))
        # trial22: a defeated (or fled) figure's id placed again stood and activated while the game still
        # counted it defeated and its enemy kept the points for it; a mistaken defeat is undone instead
        # (a figure a judge removed may be placed again: it scored nothing)
        gone = state.fallen.get(spec["id"]) if isinstance(spec.get("id"), str) else None
        if gone is not None and gone.how in ("defeated", "fled"):
            mine.append(_("{story}: the game counts it out of play, its points scored; undo that event to bring it back "
                          "(game undo {seq}), or give a new figure another id").format(
                story=gone.text(spec["id"]), seq=gone.seq if gone.seq is not None else "N"))
        rec = find_edition(pos.edition)
        conds = spec.get("conditions")
        for name in conds if isinstance(conds, list) else ():
            why = rec.unknown_condition(name) if isinstance(name, str) else None
            if why:
                mine.append(why)
        if mine:
            raise AssistantError(_("{figure} cannot be placed: {problems}").format(figure=spec.get("id"), problems="; ".join(mine)))
        # reading R204: the figure joins its side's squad or warband, so the building rules that `game new`
        # checks (a faction of the side, an era's factions, one Unique person; DDM one shared faction) are
        # checked again; a rule it newly breaks is a reason to refuse, which a judge may override (a summoned
        # creature, a scenario's). Not the points or DDM's 8 creatures: a reinforcement or a summon is not bought.
        from ..squads import check_squads

        before = {r.text for r in check_squads(pos, bought=False)[0]}
        return [r for r in check_squads(_placed(state, data)[0], bought=False)[0] if r.text not in before]

    def fold(self, state: GameState, data: Data) -> list[str]:
        state.position, fid = _placed(state, data)
        state.fallen.pop(fid, None)
        return []

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} placed at {at}").format(figure=data["figure"].get("id"), at=data["figure"].get("at"))


@event_kind("relocate", {"figure": _S, "at": _S})
class Relocate:
    """A correction from outside the rules (a photo, a judge): no move is checked."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        # no rule is checked, but the square must be one of the map's: a figure set off the map would
        # stand nowhere (no judge's override makes it a place), so it is refused, not a reason to override
        moved = replace(state.figure(data["figure"]), at=parse_square(data["at"]))
        off = [q.name for q in moved.space if not state.position.map.on_map(q)]
        if off:
            raise AssistantError(_("{figure} cannot be set to {at}: {squares} is off the map").format(
                figure=data["figure"], at=data["at"], squares=", ".join(off)))
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        set_figure(state, replace(f, at=parse_square(data["at"])))
        return []

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} set to {at} ({source})").format(figure=data["figure"], at=data["at"], source=data.get("source", _("correction")))


@event_kind("remove", {"figure": _S})
class Remove:
    """A figure taken off the table (a passenger that failed its save with its skiff, a judge's fix)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        if data.get("figure") in state.aboard:  # a passenger that failed its save with its skiff
            return []
        state.named(data)
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        if data["figure"] in state.aboard:
            state.aboard.pop(str(data["figure"]))
            state.fallen[str(data["figure"])] = Fallen(state.seq, state.round, None, "removed")
            return []
        f = state.figure(data["figure"])
        state.position = with_figure(state.position, None, f.id)
        state.fallen[f.id] = Fallen(state.seq, state.round, None, "removed")
        if state.active == f.id:
            state.active, state.turn = None, None
        return []

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} removed").format(figure=data["figure"])


@event_kind("note", {"text": _S, "on?": _I})
class Note:
    """A judge's note: changes nothing. ``on``: the earlier event it is about (a ruling on a
    disputed attack), which the log and the export name beside the note (reading R353)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        on = data.get("on")
        if on is not None and not any(e.event.seq == on for e in state.entries):
            last = state.entries[-1].event.seq if state.entries else 0
            raise AssistantError(_("a note on event #{on}: the log has events #1 to #{last}").format(on=on, last=last))
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        return []

    def describe(self, state: GameState, data: Data) -> str:
        if data.get("on") is not None:
            return _("judge's note on event #{on}: {text}").format(on=data["on"], text=data["text"])
        return _("judge's note: {text}").format(text=data["text"])
