"""Fighting: an attack, an attack of opportunity, a DDM charge, a Force power that hurts, and
damage recorded by hand. Each is written with its d20s as rolled at the table."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ...abilities import has
from ...coords import count_squares, parse_square
from ...editions import cite_for
from ...errors import AssistantError
from ...i18n import _, n_
from ...rules.engine import Reason
from ...rules.record import find_edition
from .. import effects
from ..effects import force_paid, hit, rout_move, set_figure, turn_of
from ..outcome import roll_outcome
from ..referee import check_attack, check_charge, check_force_spend, check_opportunity, check_power, game_over
from ..state import Data, GameState, event_kind, fold_cause

_S, _I = str, int
#: what an attack's roll writes (the charge writes it too, with the charger as "figure")
_ROLL: dict[str, Any] = {"attacker": _S, "target": _S, "roll?": _I, "needs?": _I, "hit?": bool, "damage?": _I, "critical?": bool,
                         "saves?": list, "after_hit?": dict, "force_spent?": dict, "hit_damage?": _I, "reroll?": _I, "reroll_needs?": _I,
                         "spend_force?": _S}


def _saves_spend(state: GameState, data: Data) -> list[Reason]:
    """The Force points a defender's saves spent (Lightsaber Block...): once per turn, in another's turn too (CS r.9; PL p.26)."""
    return [r for fid, cost in (data.get("force_spent") or {}).items() for r in check_force_spend(state, str(fid), int(cost))]


#: what :func:`~..actions.roll_outcome` writes from the attack's answer and its dice: each is
#: derived again when the log is folded (reading R203)
_DERIVED = ("needs", "reroll_needs", "hit", "critical", "damage", "hit_damage", "after_hit", "force_spent")


def derived_again(state: GameState, data: Data, attacker: str, target: str, tries: list[dict[str, Any]]) -> None:
    """Refuse an attack whose record the position at this event contradicts (reading R203): the
    number needed with every modifier, a Force reroll's number and cost, the hit, the critical,
    the damage through the target's saves as their dice are recorded. Exported hashes anyone can
    make again, so an edited ``needs`` (or damage) is void like an edited hit (R196). ``tries``:
    the ways the attack may have been asked (DDM: its card's melee or ranged line, which the
    record does not keep); the record stands when one of them gives it. A position that answers
    nothing (a number no longer given) leaves the record as it is; so does a key the record lacks,
    but a command's record (one with its ``needs``) always has its hit and damage."""
    from ...rules.attack import attack  # start-up time: the attack rules only when a verb attacks

    effects.roll_agrees(data)  # the die against the record's own number first (R196): the plainer words
    roll, reroll = data.get("roll"), data.get("reroll")
    if not isinstance(roll, int) or not (reroll is None or isinstance(reroll, int)):
        return
    raw = data.get("after_hit")
    after = {str(k): list(v) for k, v in raw.items() if isinstance(v, list)} if isinstance(raw, dict) else None
    tr = state.turn_rules
    cause = fold_cause(state)
    first: str | None = None
    for kw in tries:
        try:
            ans = attack(state.position, attacker, target, **kw)
        except AssistantError:
            continue
        if ans.unasked:
            continue
        if not ans.legal and not state.override and ans.illegal_reasons:  # refused when recorded, unless overridden (R206)
            first = first or _("recorded without a judge's override, yet the rules refuse it: {reasons}; {cause}").format(
                reasons="; ".join(r.text + (f" ({r.rule})" if r.rule else "") for r in ans.illegal_reasons), cause=cause)
            continue
        # a save the record does not name was never reached (an earlier one avoided the hit): an
        # unused stand-in, which the comparison finds in the derived record should it be reached
        given = {k.lower() for k in after or {}}
        stand_ins: dict[str, list[int | None]] = {
            st.ability: [None] * st.saves for st in ans.after_hit if st.save is not None and st.ability.lower() not in given}
        try:
            got = roll_outcome(ans, roll, {**(after or {}), **stand_ins}, reroll)
        except AssistantError as exc:
            first = first or _("the position at this event contradicts its record: {why} ({rule}); {cause}").format(
                why=exc, rule=tr.cite(tr.cite_attack_roll), cause=cause)
            continue
        differ = [k for k in _DERIVED if (k in data or (k in ("hit", "damage") and "needs" in data)) and _plain(data.get(k)) != _plain(got.get(k))]
        if not differ:
            return
        k = differ[0]
        first = first or _("its record says {key} {recorded}, the position at this event gives {derived} "
                           "(attack {bonus:+d} against {defense}; {rule}): {cause}").format(
            key=k, recorded=_shown(data.get(k)), derived=_shown(got.get(k)), bonus=ans.attack_bonus, defense=ans.defense,
            rule=tr.cite(tr.cite_attack_roll), cause=cause)
    if first is not None:
        raise AssistantError(first)


def _plain(v: Any) -> Any:
    """A value as JSON keeps it (a tuple a list, no empty mapping), to compare a record with its derivation."""
    if isinstance(v, dict):
        return {str(k): _plain(x) for k, x in v.items() if x not in (0, None)} or None
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _shown(v: Any) -> str:
    return "-" if v is None else json.dumps(v, ensure_ascii=False) if isinstance(v, (dict, list, bool)) else str(v)


def roll_text(d: Data) -> str:
    """The d20 as rolled and what it did: a miss, a hit, a critical hit, and the damage; a roll
    rerolled with a Force point says both dice, the second standing (R187)."""
    if d.get("reroll") is not None:
        first = _("roll {roll} needs {needs}, rerolled with a Force point").format(roll=d.get("roll"), needs=d.get("needs"))
        return first + "; " + roll_text({**d, "roll": d["reroll"], "needs": d.get("reroll_needs"), "reroll": None})
    if not d.get("hit"):
        return _("roll {roll} needs {needs} -> misses").format(roll=d.get("roll"), needs=d.get("needs"))
    if d.get("damage"):
        text = _("roll {roll} needs {needs} -> critical hit for {damage} damage") if d.get("critical") else \
            _("roll {roll} needs {needs} -> hits for {damage} damage")
    else:
        text = _("roll {roll} needs {needs} -> critical hit") if d.get("critical") else _("roll {roll} needs {needs} -> hits")
    return text.format(roll=d.get("roll"), needs=d.get("needs"), damage=d.get("damage"))


@event_kind("attack", {**_ROLL, "helpers?": list})
class Attack:
    """An attack in the acting figure's turn (with SWM combined fire's helpers, who spend their activation)."""

    def activation_of(self, data: Data) -> str | None:
        return str(data["attacker"])  # part of the attacker's activation: void while it is undone

    def check(self, state: GameState, data: Data) -> list[Reason]:
        return game_over(state, data) or check_attack(state, state.figure(data["attacker"]), state.figure(data["target"])) + _saves_spend(state, data)

    def fold(self, state: GameState, data: Data) -> list[str]:
        a = state.figure(data["attacker"])
        target = state.figure(data["target"])
        moved = bool(state.turn and state.turn.figure == a.id and state.turn.moved > 0)  # as game attack asks it
        helpers = tuple(str(h) for h in data.get("helpers", ()))
        kinds = [None, "ranged"] if state.turn_rules.attack_lines_from_card else [None]
        boost = data.get("spend_force")  # a Force power bought before the roll (R251): paid once a turn for Sith Rage
        spend = {"spend_force": str(boost), "force_paid": force_paid(state, a.id, str(boost))} if boost else {}
        derived_again(state, data, a.id, target.id, [{"moved": moved, "combined_fire": helpers, "kind": k, **spend} for k in kinds])
        state.round_had_action = True
        for h in data.get("helpers", ()):
            set_figure(state, replace(state.figure(h), activated=True))
        t = turn_of(state, a.id)
        if boost and str(boost).lower() not in {p.lower() for p in t.force_powers}:
            t.force_powers.append(str(boost))
        t.attacks += 1
        t.targets.append(target.id)
        return hit(state, a, target, data)

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        if d.get("helpers"):
            return _("{attacker} attacks {target} with combined fire from {helpers}: {roll}").format(
                attacker=d["attacker"], target=d["target"], helpers=", ".join(d["helpers"]), roll=roll_text(d))
        text: str = _("{attacker} attacks {target}: {roll}").format(attacker=d["attacker"], target=d["target"], roll=roll_text(d))
        if d.get("spend_force"):
            text += " " + _("(with {power})").format(power=d["spend_force"])
        return text


@event_kind("opportunity", _ROLL)
class Opportunity:
    """An attack of opportunity on the figure moving now, out of turn, once a turn per attacker."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        return game_over(state, data) or check_opportunity(state, state.figure(data["attacker"]), state.figure(data["target"])) + _saves_spend(state, data)

    def fold(self, state: GameState, data: Data) -> list[str]:
        a = state.figure(data["attacker"])
        target = state.figure(data["target"])
        boost = data.get("spend_force")  # out of its own turn: always paid now (R251)
        derived_again(state, data, a.id, target.id, [{"kind": find_edition(state.rules).attack.opportunity_kind, "opportunity": True,
                                                       **({"spend_force": str(boost)} if boost else {})}])
        state.round_had_action = True
        fleeing = rout_move(state, target.id)  # DDM: on a creature fleeing out of turn
        if fleeing is not None:
            fleeing.opportunity_by.add(a.id)
        elif state.turn is not None:
            state.turn.opportunity_by.add(a.id)
        return hit(state, a, target, data)

    def describe(self, state: GameState, data: Data) -> str:
        text: str = _("{attacker} makes an attack of opportunity on {target}: {roll}").format(
            attacker=data["attacker"], target=data["target"], roll=roll_text(data))
        if data.get("spend_force"):
            text += " " + _("(with {power})").format(power=data["spend_force"])
        return text


@event_kind("charge", {"figure": _S, "to": _S, "cost?": _I, "path?": list, **{k: v for k, v in _ROLL.items() if k != "attacker"}})
class Charge:
    """A DDM charge: the move to the nearest square next to the nearest enemy, and its one attack at +2."""

    def activation_of(self, data: Data) -> str | None:
        return str(data["figure"])  # part of the charger's activation: void while it is undone

    def check(self, state: GameState, data: Data) -> list[Reason]:
        return game_over(state, data) or check_charge(state, state.figure(data["figure"]), state.figure(data["target"]), parse_square(data["to"]))

    def fold(self, state: GameState, data: Data) -> list[str]:
        f = state.figure(data["figure"])
        target = state.figure(data["target"])
        set_figure(state, replace(f, at=parse_square(data["to"])))
        derived_again(state, data, f.id, target.id, [{"moved": True, "charge": True, "kind": "melee"}])  # from the square it ends on
        t = turn_of(state, f.id)
        t.moved_before += int(data.get("cost", 0))
        t.charged, t.attacks = True, t.attacks + 1
        t.targets.append(target.id)
        state.round_had_action = True
        return hit(state, state.figure(f.id), target, data)

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        return _("{figure} charges {target}, moving to {to} ({squares}), +2 on its attack: {roll}").format(
            figure=d["figure"], target=d["target"], to=d["to"], squares=count_squares(d.get("cost", "?")), roll=roll_text(d))


@event_kind("power", {"figure": _S, "target": _S, "power": _S, "cost": _I, "struck": list, "after_hit?": dict, "replaces?": _S, "heal?": _I})
class Power:
    """A Force power that hurts: it replaces the user's attacks (PL p.44-47), its whole turn, or
    nothing (Drain Life, Sith Hatred); its cost in Force points is spent, and each figure struck
    takes what its saves leave."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        return game_over(state, data) or check_power(state, state.figure(data["figure"]), data.get("power"))

    def fold(self, state: GameState, data: Data) -> list[str]:
        said: list[str] = []
        f = state.figure(data["figure"])
        t = turn_of(state, f.id)
        if data.get("replaces") != "nothing":  # Drain Life, Sith Hatred: used besides the attacks
            t.attacks += 1
        t.targets.append(data["target"])
        key = (f.id, str(data["power"]).lower())  # a DDM spell's use boxes are counted (referee.check_power)
        state.spell_uses[key] = state.spell_uses.get(key, 0) + 1
        effects.spend_force(state, f.id, int(data["cost"]))  # a special ability (Grenades) costs 0: no spend
        if int(data.get("heal", 0)):
            f = state.figure(f.id)
            set_figure(state, replace(f, damage_taken=max(0, f.damage_taken - int(data["heal"]))))
        state.last_attacker = f.id
        state.round_had_action = True
        for struck in data["struck"]:
            if int(struck["damage"]) > 0 and struck["figure"] in {x.id for x in state.position.figures}:
                said += effects.damage(state, struck["figure"], int(struck["damage"]), f.id)
        return said

    def describe(self, state: GameState, data: Data) -> str:
        d = data
        struck = ", ".join(f"{h['figure']} {h['damage']}" for h in d["struck"])
        return n_("{figure} uses {power} on {target} ({cost} Force point): {struck}",
                  "{figure} uses {power} on {target} ({cost} Force points): {struck}", d["cost"]).format(
            figure=d["figure"], power=d["power"], target=d["target"], cost=d["cost"], struck=struck)


@event_kind("damage", {"figure": _S, "amount": _I, "by?": _S, "saves?": list})
class Damage:
    """Damage recorded by hand (a trample, a save failed at the table): SWM Avoid Defeat's two
    saves come with it when it would defeat."""

    def check(self, state: GameState, data: Data) -> list[Reason]:
        state.named(data)
        # SWM 2008 Light Spirit: "cannot attack or take damage" (PL p.51); the attack question refuses
        # it as a target, and damage written by hand is refused the same way (a judge may override)
        f = state.figure(data["figure"])
        if find_edition(state.position.edition).defines("Light Spirit") and has(state.position.stats_of(f).abilities or (), "Light Spirit"):
            return [Reason(_("{t} is a Light Spirit: it is never a legal target and takes no damage").format(t=f.id),
                           cite_for(state.position.edition, "PL p.51"))]
        return []

    def fold(self, state: GameState, data: Data) -> list[str]:
        return effects.damage(state, data["figure"], int(data["amount"]), data.get("by"), data.get("saves"))

    def describe(self, state: GameState, data: Data) -> str:
        if data.get("by"):
            return _("{figure} takes {amount} damage from {by}").format(figure=data["figure"], amount=data["amount"], by=data["by"])
        return _("{figure} takes {amount} damage").format(figure=data["figure"], amount=data["amount"])
