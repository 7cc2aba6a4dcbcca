"""What happens to a figure besides attacks: healing, Force points, conditions, a DDM morale
save, and fleeing off the map."""

from __future__ import annotations

from dataclasses import replace

from ...abilities import SPEED_POWERS
from ...coords import count_squares
from ...editions import cite_for
from ...errors import AssistantError
from ...i18n import _, condition_name, n_
from ...rules.engine import Reason
from ...rules.record import find_edition
from ..effects import eliminate, hp_text, lose_stealth, set_figure, spend_force, turn_of
from ..referee import FORCE_LEAP_RULE, check_force_leap, check_force_sense, check_force_spend, check_mend, check_move_faster, check_speed_power
from ..state import Data, GameState, Turn, event_kind

#: the ``use`` of a Force point that buys movement (SWM Move Faster)
MOVE_FASTER = "move-faster"
#: the ``use`` of a Force point on swm2008 Force Sense: every enemy loses Stealth until the end of the round (PL p.46; R273)
FORCE_SENSE = "Force Sense"
#: the ``use`` of a Force point on SWM Force Leap: until the end of the turn the acting figure moves through enemies and
#: provokes no attacks of opportunity (PL p.44; CS g.6; R305)
FORCE_LEAP = "Force Leap"

_S, _I = str, int


@event_kind("heal", {"figure": _S, "amount": _I, "by?": _S, "ability?": _S, "cost?": _I})
class Heal:
    """Damage healed: never below none taken. ``by``: the figure whose special action removes it (SWM
    Heal, Force Heal, Repair, Industrial Repair: in its turn, in place of its attacks, ``ability`` as
    its card writes it, ``cost`` Force points spent; reading R272)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        if data.get("by") is None:
            return []
        state.named({"figure": data["by"]})
        return check_mend(state, state.figure(data["by"]), state.figure(data["figure"]), data.get("ability"), int(data["amount"]))

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        if data.get("by") is not None:
            t = turn_of(state, str(data["by"]))
            t.mended = str(data.get("ability") or "")
            spend_force(state, str(data["by"]), int(data.get("cost", 0)))
            state.round_had_action = True
        set_figure(state, replace(f, damage_taken=max(0, f.damage_taken - int(data["amount"]))))
        return [hp_text(state, state.figure(f.id))]

    def describe(self, state: GameState, data: Data) -> str:
        if data.get("by") is not None:
            return _("{by} uses {ability} on {figure}: {amount} damage removed").format(
                by=data["by"], ability=data.get("ability") or "?", figure=data["figure"], amount=data["amount"])
        return _("{figure} heals {amount}").format(figure=data["figure"], amount=data["amount"])


@event_kind("force", {"figure": _S, "delta": _I, "use?": _S})
class Force:
    """Force points spent or gained: never below none. A spend counts toward the figure's one
    spend a turn (SWM CS r.9; PL p.26); ``use: move-faster`` buys the acting figure 2 more
    squares of movement this turn (CS r.9; PL p.25)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        delta = int(data["delta"])
        if data.get("use") == MOVE_FASTER:
            return check_move_faster(state, state.figure(data["figure"]), delta)
        if data.get("use") in SPEED_POWERS:
            return check_speed_power(state, state.figure(data["figure"]), delta, str(data["use"]))
        if data.get("use") == FORCE_SENSE:
            return check_force_sense(state, state.figure(data["figure"]), delta)
        if data.get("use") == FORCE_LEAP:
            return check_force_leap(state, state.figure(data["figure"]), delta)
        if data.get("use") is not None:
            raise AssistantError(_("unknown Force point use {use!r}: {known}").format(
                use=data["use"], known=", ".join((MOVE_FASTER, *SPEED_POWERS, FORCE_SENSE, FORCE_LEAP))))
        return check_force_spend(state, data["figure"], -delta) if delta < 0 else []

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        delta = int(data["delta"])
        if delta < 0:
            spend_force(state, f.id, -delta)
        else:
            now = state.position.stats_of(f).force or 0
            set_figure(state, replace(f, stats=replace(f.stats, force=now + delta)))
        if data.get("use") == MOVE_FASTER:
            t = turn_of(state, f.id)
            t.faster += state.turn_rules.move_faster_squares * max(1, -delta)
            t.faster_after_attack = t.faster_after_attack or t.attacks > 0
        elif data.get("use") in SPEED_POWERS:  # Knight Speed 4, Master Speed 6 more squares (R251)
            t = turn_of(state, f.id)
            t.faster += SPEED_POWERS[str(data["use"])][0]
            t.faster_after_attack = t.faster_after_attack or t.attacks > 0
            t.speed_powers.append(str(data["use"]))
        elif data.get("use") == FORCE_SENSE:
            return lose_stealth(state, state.figure(f.id))
        elif data.get("use") == FORCE_LEAP:
            turn_of(state, f.id).leaped = True
        elif delta < 0 and state.turn is not None and state.turn.figure == f.id:
            state.turn.plain_spend = True
        return []

    def describe(self, state: GameState, data: Data) -> str:
        text: str = _("{figure} Force {delta}").format(figure=data["figure"], delta=f"{int(data['delta']):+d}")
        if data.get("use") == MOVE_FASTER:
            text += ": " + _("Move Faster, {squares} more this turn").format(squares=count_squares(state.turn_rules.move_faster_squares))
        elif data.get("use") in SPEED_POWERS:
            text += ": " + _("{power}, {squares} more this turn").format(power=data["use"], squares=count_squares(SPEED_POWERS[str(data["use"])][0]))
        elif data.get("use") == FORCE_SENSE:
            text += ": " + _("Force Sense, every enemy loses Stealth until the end of the round (PL p.46; reading R273 in docs/readings.md)")
        elif data.get("use") == FORCE_LEAP:
            text += ": " + _("Force Leap, through enemies and no attacks of opportunity until the end of its turn ({rule})").format(
                rule=cite_for(state.position.edition, FORCE_LEAP_RULE))
        return text


@event_kind("condition", {"figure": _S, "add": bool, "condition": _S})
class Condition:
    """A condition gained or lost (stunned, routing, ...)."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        rec = find_edition(state.position.edition)
        name = str(data["condition"])
        unknown = rec.unknown_condition(name) if data["add"] else None
        if unknown:  # reading R163: one list a record, no name recorded that nothing applies
            return [Reason(_("{why}; recorded, it would change nothing").format(why=unknown), "reading R163 in docs/readings.md")]
        has = state.figure(str(data["figure"])).conditions
        if not data["add"] and name not in has:  # reading R181: a log that says a condition went that never was
            text = (_("{figure} has no condition {condition!r} to lose (it has: {has})") if has
                    else _("{figure} has no condition {condition!r} to lose (it has none)"))
            return [Reason(text.format(figure=data["figure"], condition=name, has=", ".join(has)), "reading R181 in docs/readings.md")]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        conds = set(f.conditions)
        (conds.add if data["add"] else conds.discard)(str(data["condition"]))
        set_figure(state, replace(f, conditions=tuple(sorted(conds))))
        return []

    def describe(self, state: GameState, data: Data) -> str:
        text = _("{figure} gains condition {condition}") if data["add"] else _("{figure} loses condition {condition}")
        return text.format(figure=data["figure"], condition=condition_name(str(data["condition"])))


@event_kind("morale", {"figure": _S, "roll": _I, "held": bool, "level?": _I, "commander?": _I, "total?": _I, "unknown_ratings?": list})
class Morale:
    """DDM: a morale save (d20 + Level + the best commander rating in range >= 20); a failed one routs."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        tr = state.turn_rules
        if not tr.morale:
            return [Reason(_("morale saves are a D&D Miniatures rule; this game has none"), tr.cite(tr.cite_turn_options))]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        state.morale_due.pop(f.id, None)
        state.morale_checked.add(f.id)
        tr = state.turn_rules
        if data["held"] and "routing" in f.conditions:  # the rally: it no longer routs, and does nothing more this turn
            set_figure(state, replace(f, conditions=tuple(c for c in f.conditions if c != "routing")))
            if state.active == f.id:
                turn_of(state, f.id).rallied = True
            return [_("{id} rallies: it no longer routs, but does nothing more this turn ({value})").format(id=f.id, value=tr.cite("§ Zawracanie p.22"))]
        if data["held"]:
            return []
        conds = set(f.conditions) | {"routing"}
        set_figure(state, replace(f, conditions=tuple(sorted(conds))))
        if state.active != f.id:  # it moves at once, out of turn, within the turn going on
            state.rout_move, state.rout_during = Turn(f.id), state.active
        return [_("{id} routs: it moves double Speed toward its exit ({value})").format(id=f.id, value=state.turn_rules.cite('§ Ucieczka p.21-22'))]

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        parts = [f"d20 {d['roll']}", f"Level {d.get('level', '?')}"]
        if d.get("commander"):
            parts.append(_("commander {d}").format(d=d['commander']) + (f" ({d['commander_by']})" if d.get("commander_by") else ""))
        verdict = _("holds") if d["held"] else _("fails")
        nat = " " + _("(natural 20)") if d["roll"] == 20 else " " + _("(natural 1)") if d["roll"] == 1 else ""
        text: str = _("{figure} morale save: {parts} = {total} vs 20{natural}: {verdict}").format(
            figure=d["figure"], parts=" + ".join(parts), total=d.get("total", "?"), natural=nat, verdict=verdict)
        unknown = [str(i) for i in d.get("unknown_ratings") or ()]
        if unknown:
            text += "; " + n_(
                "the Commander rating of {names} is unknown and read as none: were it a commander, its rating would join the save "
                "and might hold it ({rule}; reading R160 in docs/readings.md)",
                "the Commander ratings of {names} are unknown and read as none: were one a commander, its rating would join the save "
                "and might hold it ({rule}; reading R160 in docs/readings.md)", len(unknown)).format(
                names=", ".join(unknown), rule=state.turn_rules.cite(state.turn_rules.cite_morale))
        return text


@event_kind("flee", {"figure": _S, "by?": _S})
class Flee:
    """A figure flees off the map: eliminated, scored to whoever made it flee."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        return eliminate(state, state.figure(data["figure"]), data.get("by"), "fled off the map")

    def describe(self, state: GameState, data: Data) -> str:
        if data.get("by"):
            return _("{figure} flees off the map (caused by {by})").format(figure=data["figure"], by=data["by"])
        return _("{figure} flees off the map").format(figure=data["figure"])
