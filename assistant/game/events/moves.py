"""Moving on the map: a figure's move (with Intuition, Burrow, Trample and Tow Cable), a door
opened or closed by hand, and a Desert Skiff's passengers boarding and leaving it."""

from __future__ import annotations

from dataclasses import replace

from ...coords import Square, count_squares, parse_edge, parse_square
from ...errors import AssistantError
from ...i18n import _
from ...model import Position
from ...rules.engine import Reason
from ..effects import set_figure, spend_force, turn_of, with_figure
from ..referee import check_disembark, check_embark, check_move, game_over, plan_move
from ..state import Data, GameState, event_kind, fold_cause

_S, _I = str, int


@event_kind("move", {"figure": _S, "to": _S, "cost?": _I, "parity?": _I, "path?": list, "provokes?": list, "mode?": _S, "trample?": list,
                     "tow?": dict})
class Move:
    """A figure's move in its turn (or an Intuition move before any activation): its route's cost
    counts toward the turn's movement, and the enemies whose reach it leaves may strike."""

    def activation_of(self, data: Data) -> str | None:
        """Part of the mover's activation (void while it is undone); an Intuition move is in none."""
        return None if data.get("mode") in ("intuition", "surprise") else str(data["figure"])

    def check(self, state: GameState, data: Data) -> list[Reason]:
        return game_over(state, data) or check_move(state, state.figure(data["figure"]), parse_square(data["to"]), data)

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        to = parse_square(data["to"])
        if not state.override:
            _route_again(state, f.id, to, data)
        set_figure(state, replace(f, at=to))
        if data.get("mode") == "intuition":  # before any activation; no turn of its own
            state.intuition_used.add(f.id)
            return []
        if data.get("mode") == "surprise":  # SWM Surprise Move: 1 Force point, before any activation (R306)
            state.surprise_used.add(f.id)
            spend_force(state, f.id, 1)
            return []
        t = turn_of(state, f.id)
        t.burrowed = t.burrowed or data.get("mode") == "burrow"
        t.trampled = t.trampled or bool(data.get("trample"))
        if isinstance(data.get("tow"), dict):
            ally = state.figure(str(data["tow"]["figure"]))
            set_figure(state, replace(ally, at=parse_square(str(data["tow"]["to"]))))
            t.towed = True
        cost = int(data.get("cost", 0))
        if t.attacks:
            t.moved_after += cost
        else:
            t.moved_before += cost
        if "parity" in data:
            t.parity = int(data["parity"])
        t.provoked |= set(data.get("provokes", ()))
        return []

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        path = " " + _("via {path}").format(path=" → ".join(d["path"])) if d.get("path") and len(d["path"]) > 2 else ""
        prov = ("; " + _("leaves {figures}'s reach: attack of opportunity possible").format(figures=", ".join(d["provokes"]))
                if d.get("provokes") else "")
        how = {"burrow": "; " + _("underground (Burrow)"), "intuition": "; " + _("Intuition, before any activation"),
               "surprise": "; " + _("Surprise Move, 1 Force point, before any activation")}.get(str(d.get("mode")), "")
        if d.get("trample"):
            how += "; " + _("tramples {figures}").format(figures=", ".join(d["trample"]))
        if isinstance(d.get("tow"), dict):
            how += "; " + _("tows {figure} to {to} (Tow Cable)").format(figure=d["tow"].get("figure"), to=d["tow"].get("to"))
        text: str = _("{figure} moves to {to} ({squares}{path}){provokes}").format(
            figure=d["figure"], to=d["to"], squares=count_squares(d.get("cost", "?")), path=path, provokes=prov)
        return text + how


#: what :meth:`~..referee.MovePlan.data` writes from the route: each is derived again when the log
#: is folded (reading R227), so an edited path or cost (a move through a wall, 1 square paid for 6) is void
_ROUTE = ("cost", "parity", "path", "provokes", "trample", "tow")


def _route_again(state: GameState, fid: str, to: Square, data: Data) -> None:
    """Refuse a move whose recorded route the position at this event does not give (reading R227):
    the path, its cost and diagonal count, the enemies whose reach it leaves, the figures it
    tramples and the ally it tows are what ``game move`` planned from the same position, so an
    honest record is given back exactly; a key the record lacks is left as it is."""

    tow = data.get("tow")
    towed = (str(tow["figure"]), parse_square(str(tow["to"]))) if isinstance(tow, dict) else None
    got = plan_move(state, fid, to, burrow=data.get("mode") == "burrow", tow=towed, surprise=data.get("mode") == "surprise").data(fid, to)
    for k in _ROUTE:
        if k in data and (data[k] or None) != (got.get(k) or None):
            tr = state.turn_rules
            raise AssistantError(_("its record says {key} {recorded}, the route from the position at this event gives {derived} ({rule}): {cause}").format(
                key=k, recorded=_shown(data[k]), derived=_shown(got.get(k)), rule=tr.cite(tr.cite_movement), cause=fold_cause(state)))


def _shown(v: object) -> str:
    if isinstance(v, dict):
        return ", ".join(f"{k} {_shown(x)}" for k, x in v.items())
    if isinstance(v, list):
        return " → ".join(str(x) for x in v) if v else "-"
    return "-" if v is None else str(v)


@event_kind("door", {"edge": _S, "open": bool})
class Door:
    """A door opened or closed by hand (a judge's record; SWM doors also follow who stands by them)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        tr = state.turn_rules
        e = parse_edge(data["edge"])
        if e not in state.position.map.doors:
            return [Reason(_("{name} is not a door on this map").format(name=e.name), tr.cite(tr.cite_doors or tr.cite_movement))]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        e = parse_edge(data["edge"])
        m = state.position.map
        opened = m.open_doors | {e} if data["open"] else m.open_doors - {e}
        state.position = Position(state.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, state.position.cards)
        return []

    def describe(self, state: GameState, data: Data) -> str:
        text = _("door {edge} opened by hand") if data["open"] else _("door {edge} closed by hand")
        return text.format(edge=data["edge"])


@event_kind("embark", {"figure": _S, "skiff": _S})
class Embark:
    """SWM Desert Skiff: the passenger leaves the map and rides with the skiff."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        return check_embark(state, state.figure(data["figure"]), state.figure(data["skiff"]))

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        state.aboard[f.id] = (f, str(data["skiff"]))
        state.position = with_figure(state.position, None, f.id)
        if state.active == f.id:
            state.active, state.turn = None, None
        return []

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} boards {skiff} (Desert Skiff)").format(figure=data["figure"], skiff=data["skiff"])


@event_kind("disembark", {"figure": _S, "at": _S})
class Disembark:
    """A passenger leaves the skiff, next to it (or to where it stood), before the round's first activation."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        # its passenger is off the map, in state.aboard: not looked up among the figures
        return check_disembark(state, str(data["figure"]), parse_square(data["at"]))

    def fold(self, state: GameState, data: Data) -> list[str]:
        if str(data["figure"]) not in state.aboard:
            # an override records a refused disembark, but no ruling puts on the map a figure that
            # is not off it (and a replay whose embark was undone voids this event with these words)
            state.figure(str(data["figure"]))  # unknown or fallen: said by its own error
            raise AssistantError(_("{f} is not aboard a Desert Skiff").format(f=data["figure"]))
        f, _skiff = state.aboard.pop(str(data["figure"]))
        state.position = with_figure(state.position, replace(f, at=parse_square(data["at"])), f.id)
        return []

    def describe(self, state: GameState, data: Data) -> str:
        return _("{figure} disembarks at {at}").format(figure=data["figure"], at=data["at"])
