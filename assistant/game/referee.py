"""The referee: why a command is refused now, each reason with its own edition's rule.

Each kind of event (:mod:`.events`) checks itself with the rules written here: whose turn it
is, how far a turn may move, how many attacks it holds, a charge's route, a skiff's load.
Also the plans the edges (CLI, web) record: a checked move with the attacks of opportunity
it provokes, a DDM charge, a morale save's bonus. No rules live in the edges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from ..abilities import SPEED_POWERS, Mend, has, mends
from ..cards import DdmCard, split_ability
from ..coords import Square, count_squares, parse_square
from ..editions import Size, SquareTerrain, cite_for
from ..errors import AssistantError
from ..geometry.core import convex_hull, edge_points, interiors_meet, polygon_squares, unit_square
from ..i18n import N_, _, n_
from ..model import Figure, Position
from ..rules import ddm_spells, engine, saves
from ..rules.engine import Reason
from ..rules.params import MoveAndAttack
from ..rules.record import find_edition
from .effects import rout_move
from .movement import Route, mover, reach, route, search_from
from .state import GameState, Turn, check
from .turns import TurnRules

__all__ = ["check", "plan_move", "plan_charge", "allowed_attacks", "morale_bonus", "MovePlan"]  # check: state's, kept here by name


def _abilities(pos: Position, f: Figure) -> tuple[str, ...]:
    return tuple(pos.stats_of(f).abilities or ())


def _defines(pos: Position, ability: str) -> bool:
    """Does the edition's rulebook give ``ability`` the rules applied here (SWM Intuition, DDM
    Trample, SWM 2008 Twin Attack...)? Asked of its record, never of its name."""
    return find_edition(pos.edition).defines(ability)


def _turn(state: GameState, fid: str) -> Turn:
    fleeing = rout_move(state, fid)  # DDM: a creature that has just routed moves at once, out of turn
    if fleeing is not None:
        return fleeing
    return state.turn if state.turn is not None and state.turn.figure == fid else Turn(fid)


def _rallied(state: GameState, f: Figure) -> list[Reason]:
    if _turn(state, f.id).rallied:
        return [Reason(_("{f} rallied this turn: it no longer routs, but does nothing more this turn").format(f=f.id),
                       state.turn_rules.cite("§ Zawracanie p.22"))]
    return []


def game_over(state: GameState, data: dict[str, Any]) -> list[Reason]:
    """The check every move of play begins with: the figures it names are looked up (an
    unknown one raises, a fallen one is named), and nothing more is played once the game is over."""
    state.named(data)
    tr = state.turn_rules
    over = state.over()
    if over:
        return [Reason(_("the game is over: {over}; nothing more is played").format(over=over), tr.cite(tr.cite_victory))]
    return []


def _not_acting(state: GameState, f: Figure) -> list[Reason]:
    tr = state.turn_rules
    if state.active == f.id:
        return []
    acting = state.active or _('nobody is acting')
    # "activate it first" is no advice for a figure that has activated (R320): it acts again next round
    if state.round_over():
        said = _("the round is over: every figure has activated; {f} acts again after the next initiative ('game initiative')").format(f=f.id)
    elif f.activated:
        said = _("{f} has already activated this round and its turn is over ({acting})").format(f=f.id, acting=acting)
    else:
        said = _("{f} is not the figure whose turn it is ({acting}): activate it first").format(f=f.id, acting=acting)
    return [Reason(said, tr.cite(tr.cite_phase))]


def unable(state: GameState, f: Figure, what: str) -> list[Reason]:
    """A condition that stops ``f`` moving (``what`` "move") or attacking ("attack": an attack, a
    charge, a power) in its turn (:func:`..rules.engine.condition_refusals`)."""
    return engine.condition_refusals(state.position, f, what)


def _split(tr_abilities: tuple[str, ...], abl: tuple[str, ...]) -> str | None:
    return next((a for a in tr_abilities if has(abl, a)), None)


def check_move(state: GameState, f: Figure, to: Square, data: dict[str, Any] | None = None) -> list[Reason]:
    tr = state.turn_rules
    c = tr.cite
    data = data or {}
    mode = data.get("mode")
    waiting = state.active is None and _defines(state.position, "Intuition") and has(_abilities(state.position, f), "Intuition")
    if mode == "intuition" or (mode is None and waiting):
        return _check_intuition(state, f, to)
    if mode == "surprise":
        return _check_surprise_move(state, f, to)
    fleeing = rout_move(state, f.id)
    reasons = ([] if fleeing is not None else _not_acting(state, f)) + _rallied(state, f) + unable(state, f, "move")
    t = _turn(state, f.id)
    if isinstance(data.get("tow"), dict):
        return reasons + _check_tow(state, f, to, str(data["tow"].get("figure")), parse_square(str(data["tow"].get("to"))))
    if t.towed:
        return reasons + [Reason(_("{f} used Tow Cable: that move was its whole turn").format(f=f.id), c(_TOW_CITE))]
    burrow = _burrow_speed(state, f)
    if mode == "burrow":
        if burrow is None:
            return reasons + [Reason(_("{f} has no Burrow: it cannot move underground").format(f=f.id), c(tr.cite_movement))]
        if t.moved > 0 and not t.burrowed:
            return reasons + [
                Reason(_("{f} has moved on the surface this turn: a burrowing creature burrows for its whole move").format(f=f.id), c(_BURROW_CITE))
            ]
    elif t.burrowed:
        return reasons + [Reason(_("{f} is burrowing this turn: its whole move is underground (move with --burrow)").format(f=f.id), c(_BURROW_CITE))]
    r = route(state.position, f, to, t.parity, **_how(state, f, t, mode))
    if r.cost is None:
        reasons.append(Reason(r.text.removesuffix(f" ({c(tr.cite_movement)})"), c(tr.cite_movement)))  # cited once
        return reasons
    return reasons + move_budget(state, f, t, r, to, speed=burrow if mode == "burrow" else None)


_BURROW_CITE = "glossary 'Burrow'"
_TOW_CITE = "PL p.65; CS g.13"
_INTUITION_CITE = "PL p.50"


def _burrow_speed(state: GameState, f: Figure) -> int | None:
    """DDM Burrow [#]: its burrowing speed (None: it cannot burrow)."""
    if not _defines(state.position, "Burrow"):
        return None
    for text in _abilities(state.position, f):
        name, value = split_ability(text)
        if name.lower() == "burrow":
            return value or state.speed(f)
    return None


def _how(state: GameState, f: Figure, t: Turn, mode: str | None) -> dict[str, bool]:
    """How this move goes: underground (Burrow), or through smaller enemies (Trample, once a turn)."""
    if mode == "burrow":
        return {"burrow": True}
    tramples = _defines(state.position, "Trample") and has(_abilities(state.position, f), "Trample") and not t.trampled
    return {"trample": True} if tramples else {"leap": True} if t.leaped else {}


def intuition_open(state: GameState, f: Figure) -> bool:
    """SWM Intuition: after initiative, before the first activation, once a round."""
    return (
        _defines(state.position, "Intuition")
        and state.round > 0
        and state.active is None
        and not any(x.activated for x in state.position.figures)
        and has(_abilities(state.position, f), "Intuition")
        and f.id not in state.intuition_used
    )


def _check_intuition(state: GameState, f: Figure, to: Square) -> list[Reason]:
    tr = state.turn_rules
    if not intuition_open(state, f):
        return [Reason(_("{f}'s Intuition move is made after initiative, before the first activation, once a round").format(f=f.id), tr.cite(_INTUITION_CITE))]
    r = route(state.position, f, to)
    if r.cost is None:
        return [Reason(r.text.removesuffix(f" ({tr.cite(tr.cite_movement)})"), tr.cite(tr.cite_movement))]
    speed = state.speed(f)
    if r.cost > speed:
        return [
            Reason(
                _("Intuition moves {f} up to its speed {speed}; this move is {squares} ({text})").format(
                    f=f.id, speed=speed, squares=count_squares(r.cost), text=r.text
                ),
                tr.cite(_INTUITION_CITE),
            )
        ]
    return []


#: SWM Surprise Move, both rulebooks (PL p.64: "(Moc; 1 Punkt Mocy) Po określeniu inicjatywy, postać ta może natychmiast
#: użyć tej Mocy, aby poruszy się do 6 pól, zanim inne postacie zostaną aktywowane (Nie liczy to się do aktywacji) ...
#: tylko raz na rundę"; CS g.13)
SURPRISE_MOVE_RULE = "PL p.64; CS g.13"
SURPRISE_MOVE_SQUARES = 6


def surprise_open(state: GameState, f: Figure) -> bool:
    """SWM Surprise Move: after initiative, before the first activation, once a round (R306)."""
    return (state.round > 0 and state.active is None and not any(x.activated for x in state.position.figures)
            and f.id not in state.surprise_used)


def _check_surprise_move(state: GameState, f: Figure, to: Square) -> list[Reason]:
    """SWM Surprise Move: up to 6 squares for 1 Force point, after initiative and before any
    activation, once a round, no activation (reading R306)."""
    tr = state.turn_rules
    rule = cite_for(state.position.edition, SURPRISE_MOVE_RULE) + "; reading R306 in docs/readings.md"
    if not has(_abilities(state.position, f), "Surprise Move"):
        return [Reason(_("{f} has no Force power {power}").format(f=f.id, power="Surprise Move"), rule)]
    if not surprise_open(state, f):
        return [Reason(_("{f}'s Surprise Move is made after initiative, before the first activation, once a round").format(f=f.id), rule)]
    if (state.position.stats_of(f).force or 0) < 1:
        return [Reason(_("{f} has no Force point left for Surprise Move (1 Force point)").format(f=f.id), rule)]
    r = route(state.position, f, to)
    if r.cost is None:
        return [Reason(r.text.removesuffix(f" ({tr.cite(tr.cite_movement)})"), tr.cite(tr.cite_movement))]
    if r.cost > SURPRISE_MOVE_SQUARES:
        return [Reason(_("Surprise Move moves {f} up to 6 squares; this move is {squares} ({text})").format(
            f=f.id, squares=count_squares(r.cost), text=r.text), rule)]
    return []


def _check_tow(state: GameState, f: Figure, to: Square, ally_id: str, ally_to: Square) -> list[Reason]:
    """SWM Tow Cable: instead of its turn, it and an adjacent Medium or smaller ally each move up
    to 12 squares with Flight; the ally ends next to it."""
    tr = state.turn_rules

    def c() -> str:
        return tr.cite(_TOW_CITE)

    pos = state.position
    t = _turn(state, f.id)
    ally = state.figure(ally_id)
    if not _defines(pos, "Tow Cable") or not has(_abilities(pos, f), "Tow Cable"):
        return [Reason(_("{f} has no Tow Cable").format(f=f.id), c())]
    if t.moved or t.attacks:
        return [Reason(_("Tow Cable is used instead of the turn: {f} has already moved or attacked").format(f=f.id), c())]
    problems: list[Reason] = []
    if ally.side != f.side or ally.id == f.id:
        problems.append(Reason(_("{ally} is not an ally of {f}").format(ally=ally.id, f=f.id), c()))
    elif not _next_to(f, ally):
        problems.append(Reason(_("{ally} is not next to {f}: Tow Cable takes an adjacent ally").format(ally=ally.id, f=f.id), c()))
    largest = find_edition(pos.edition).tow_cable_max_size  # the 2004 text sets no size; the words below name swm2008's Medium
    if largest is not None and ally.size.rank > largest.rank:
        problems.append(Reason(_("Tow Cable moves only Medium or smaller figures; {ally} is {size}").format(ally=ally.id, size=_size_word(ally.size)), c()))
    if problems:
        return problems
    r = route(pos, f, to, flight=True)
    if r.cost is None or r.cost > 12:
        problems.append(
            Reason(
                r.text
                if r.cost is None
                else _("{f} may move up to 12 squares with Tow Cable; this move is {squares}").format(f=f.id, squares=count_squares(r.cost)),
                c(),
            )
        )
        return problems
    moved = _moved(pos, f, to)
    ra = route(moved, moved.figure(ally.id), ally_to, flight=True)
    if ra.cost is None or ra.cost > 12:
        problems.append(
            Reason(
                ra.text
                if ra.cost is None
                else _("{f} may move up to 12 squares with Tow Cable; this move is {squares}").format(f=ally.id, squares=count_squares(ra.cost)),
                c(),
            )
        )
    elif not _next_to(moved.figure(f.id), _placed(moved.figure(ally.id), ally_to)):
        problems.append(Reason(_("the towed {ally} must end next to {f} ({at})").format(ally=ally.id, f=f.id, at=to.name), c()))
    return problems


def _moved(pos: Position, f: Figure, to: Square) -> Position:
    return replace(pos, figures=tuple(replace(x, at=to) if x.id == f.id else x for x in pos.figures))


def _placed(f: Figure, to: Square) -> Figure:
    return replace(f, at=to)


def _size_word(size: Size) -> str:
    return _(size.value)  # the size names are in the catalogue (cli/board.py SIZE_NAMES)


def move_budget(state: GameState, f: Figure, t: Turn, r: Route, to: Square, speed: int | None = None) -> list[Reason]:
    """Does this move fit the turn so far (the edition's turn options)? ``speed``: the speed
    this move goes at when not the figure's own (Burrow)."""
    tr = state.turn_rules
    c = tr.cite
    cost = r.cost or 0
    speed = speed or state.speed(f)
    abl = _abilities(state.position, f)
    split = _split(tr.split_move_abilities, abl)
    if t.charged:
        return [Reason(_("{f} has charged: the charge was its movement and its attack").format(f=f.id), c(tr.cite_charge))]
    if _defines(state.position, "Emplacement") and has(abl, "Emplacement"):
        return [Reason(_("{f} is an Emplacement: it cannot move or be moved").format(f=f.id), c("PL p.42"))]
    if t.moved == 0 and t.attacks == 0 and has(abl, "Mercenary") and _defines(state.position, "Mercenary"):
        from ..rules.attack import targets  # start-up time: the attack rules only when a verb attacks

        legal = [x["target"] for x in targets(state.position, f.id) if x.get("legal")]
        if legal:
            return [
                Reason(
                    _("{f} is a Mercenary: it may move only when it has no legal target where it stands ({targets})").format(f=f.id, targets=", ".join(legal)),
                    c("PL p.54; CS g.9"),
                )
            ]
    if t.attacks == 0:
        charging = _move_and_attack(state, abl)
        if t.moved + cost <= max(2 * speed + t.faster, _no_attack_reach(state, abl), charging.reach(speed) if charging else 0):
            return []
        one_square = max(abs(to.col - f.at.col), abs(to.row - f.at.row)) == 1
        if tr.charge and t.moved == 0 and one_square:
            return []  # DDM: a creature may always spend its whole turn moving 1 square
        return [
            Reason(
                _("{f} would move {squares}; its speed {speed} allows {allowed} in a turn without attacking ({text})").format(
                    f=f.id, squares=count_squares(t.moved + cost), speed=speed, allowed=2 * speed + t.faster, text=r.text
                ) + _faster_note(state, t),
                c(tr.cite_double_move),
            )
        ]
    if tr.cite_heavy_weapon and has(abl, "Heavy Weapon"):
        return [Reason(_("{f} has Heavy Weapon: it cannot attack and move in the same turn").format(f=f.id), c(tr.cite_heavy_weapon))]
    slow = _slow_attack(state, abl)
    if slow:
        return [Reason(_("{f} has {ability}: it cannot attack and move in the same turn").format(f=f.id, ability=slow), c("glossary 'Slow Attack'"))]
    if t.attacks > 1 and tr.full_attack_no_move and not (_defines(state.position, "Greater Mobile Attack") and has(abl, "Greater Mobile Attack")):
        return [
            Reason(
                _("{f} has made {attacks} attacks this turn: after more than one attack it may not move").format(f=f.id, attacks=t.attacks),
                c(tr.cite_multi_attack),
            )
        ]
    if t.moved_before > 0 and not split and tr.move_faster_splits and t.faster:
        # SWM 2004 (CS r.9): "move 6, attack, then pay 1 Force point and move 2 more": what Move
        # Faster added and the move before the attack left unused may follow the attack
        left = min(t.faster, speed + t.faster - t.moved_before)
        if t.moved_after + cost <= left:
            return []
        return [
            Reason(
                _("{f} moved {before} before attacking: after the attack it may move only what Move Faster added and that move left unused, "
                  "{left} ({text})").format(f=f.id, before=count_squares(t.moved_before), left=count_squares(max(0, left)), text=r.text),
                c(tr.cite_move_faster),
            )
        ]
    if t.moved_before > 0 and not split:
        names = _(" or ").join(tr.split_move_abilities)
        reason = Reason(
            _("{f} moved before attacking: a turn has one move, before or after the attack, not both (only {names} splits it)").format(f=f.id, names=names),
            c(tr.cite_turn_options),
        )
        if t.faster and tr.cite_move_faster:  # SWM 2008 (PL p.25): no "move 6, attack, pay 1, move 2 more"
            reason = Reason(reason.text + "; " + _("Move Faster's squares do not split it either"), c(tr.cite_turn_options) + "; " + c(tr.cite_move_faster))
        return [reason]
    limit = speed + t.faster - (t.moved_before if split else 0)
    if t.moved_after + cost > limit:
        how = (
            _("{ability}: at most {speed} squares in all, before and after attacking").format(ability=split, speed=speed)
            if split
            else _("after attacking it may move up to its speed {speed}").format(speed=speed)
        ) + _faster_note(state, t)
        return [
            Reason(
                _("{f} would move {squares} after attacking; {how} ({text})").format(f=f.id, squares=count_squares(t.moved_after + cost), how=how, text=r.text),
                c(tr.cite_split_move if split else tr.cite_double_move),
            )
        ]
    return []


def _faster_note(state: GameState, t: Turn) -> str:
    """What Move Faster added to this turn's movement, said with the refusal that counted it; or,
    when the figure spent a plain Force point in its turn, how to record it as Move Faster."""
    tr = state.turn_rules
    if t.plain_spend and not t.faster and tr.move_faster_squares:
        return "; " + _("{f} spent a Force point this turn without --faster: if it bought Move Faster, undo it and record 'game force {f} -1 --faster' "
                        "({rule})").format(f=t.figure, rule=tr.cite(tr.cite_move_faster))
    if not t.faster:
        return ""
    if t.speed_powers:  # Knight Speed, Master Speed (R251)
        return "; " + _("Force points spent on movement ({powers}) added {squares} ({rule})").format(
            powers=", ".join(t.speed_powers), squares=count_squares(t.faster), rule=tr.cite(tr.cite_move_faster))
    return "; " + _("Move Faster added {squares} ({rule})").format(squares=count_squares(t.faster), rule=tr.cite(tr.cite_move_faster))


def spends_allowed(state: GameState, f: Figure) -> tuple[int, str | None]:
    """How many times a figure may spend Force points in one turn: once (SWM CS r.9, PL p.26);
    Master of the Force [#] raises it to [#] (CS g.9; PL p.53). Asked only where the record has
    the once-a-turn rule (both SWM rulebooks, which both define the power)."""
    for text in _abilities(state.position, f):
        name, value = split_ability(text)
        if name.lower() in ("master of the force", "master of force") and value and value > 1:  # CS g.9 writes "Master of Force"
            return value, text
    return 1, None


def check_force_spend(state: GameState, fid: str, cost: int) -> list[Reason]:
    """A Force point spent now: the figure has the points, and has not yet spent Force points in
    this turn -- its own or another figure's (SWM 2004 CS r.9, the Shaak Ti example; SWM 2008
    PL p.26, the Count Dooku example). A game without Force points checks nothing here."""
    tr = state.turn_rules
    if cost <= 0 or not tr.cite_force_once:
        return []
    f = state.figure(fid)
    reasons: list[Reason] = []
    have = state.position.stats_of(f).force
    if have is not None and have < cost:
        said = n_("{f} has {have} Force point left; this needs {cost}", "{f} has {have} Force points left; this needs {cost}", have)
        reasons.append(Reason(said.format(f=f.id, have=have, cost=cost), tr.cite(tr.cite_force_points)))
    allowed, by = spends_allowed(state, f)
    done = state.force_spends.get(f.id, 0)
    if done >= allowed:
        text = (_("{f} has already spent Force points this turn: a figure spends them once per turn, in its own turn or another's")
                if by is None else _("{f} has spent Force points {n} times this turn, all {ability} allows"))
        reasons.append(Reason(text.format(f=f.id, n=done, ability=by), tr.cite(tr.cite_force_once)))
    return reasons


def check_move_faster(state: GameState, f: Figure, delta: int) -> list[Reason]:
    """SWM Move Faster: the acting figure pays 1 Force point for 2 more squares in its turn (CS
    r.9; PL p.25); SWM 2008 allows no "move 6, attack, pay 1, move 2 more"."""
    tr = state.turn_rules
    if not tr.move_faster_squares:
        return [Reason(_("this game has no Move Faster (a Star Wars Miniatures Force point use)"), tr.cite(tr.cite_turn_options))]
    reasons = _not_acting(state, f)
    if delta != -1:
        reasons.append(Reason(_("Move Faster costs 1 Force point (game force ID -1 --faster), each buying {n} squares").format(n=tr.move_faster_squares),
                              tr.cite(tr.cite_move_faster)))
    t = _turn(state, f.id)
    if t.attacks and t.moved_before > 0 and not tr.move_faster_splits and not _split(tr.split_move_abilities, _abilities(state.position, f)):
        reasons.append(Reason(_("{f} moved and then attacked: Move Faster cannot buy a move after the attack").format(f=f.id), tr.cite(tr.cite_move_faster)))
    return reasons + check_force_spend(state, f.id, -delta)


def check_speed_power(state: GameState, f: Figure, delta: int, power: str) -> list[Reason]:
    """SWM Knight Speed and Master Speed: the acting figure pays 1 Force point for 4 or 6 more
    squares in its own turn (PL p.51, p.53; CS g.8-9), counted with its once-a-turn spend. Unlike
    Move Faster (PL p.25), neither text forbids buying them after an attack (reading R251)."""

    squares, where = SPEED_POWERS[power]
    rule = cite_for(state.position.edition, where) + "; reading R251 in docs/readings.md"
    reasons = _not_acting(state, f)
    if not state.turn_rules.move_faster_squares:
        return [Reason(_("this game has no Move Faster (a Star Wars Miniatures Force point use)"), state.turn_rules.cite(state.turn_rules.cite_turn_options))]
    if not has(_abilities(state.position, f), power):
        reasons.append(Reason(_("{f} has no Force power {power}").format(f=f.id, power=power), rule))
    if delta != -1:
        reasons.append(Reason(_("{power} costs 1 Force point (game force ID -1 --power \"{power}\"), buying {squares}").format(
            power=power, squares=count_squares(squares)), rule))
    return reasons + check_force_spend(state, f.id, -delta)


#: SWM Force Leap, both rulebooks (PL p.44: "Do końca tej tury ... może poruszać się przez wrogie postacie. W dodatku
#: postać ta nie powoduje ataku odruchowego"; CS g.6)
FORCE_LEAP_RULE = "PL p.44; CS g.6"


def check_force_leap(state: GameState, f: Figure, delta: int) -> list[Reason]:
    """SWM Force Leap: 1 Force point of the acting figure, which has it, counted with its once-a-turn
    spend; it takes no time (reading R305)."""
    rule = cite_for(state.position.edition, FORCE_LEAP_RULE) + "; reading R305 in docs/readings.md"
    reasons = _not_acting(state, f)
    if not has(_abilities(state.position, f), "Force Leap"):
        reasons.append(Reason(_("{f} has no Force power {power}").format(f=f.id, power="Force Leap"), rule))
    if delta != -1:
        reasons.append(Reason(_("Force Leap costs 1 Force point (game force ID -1 --power \"Force Leap\")"), rule))
    return reasons + check_force_spend(state, f.id, -delta)


def check_force_sense(state: GameState, f: Figure, delta: int) -> list[Reason]:
    """swm2008 Force Sense (PL p.46: "(Moc; 1 Punkt Mocy) Wszystkie wrogie postacie tracą umiejętność
    specjalną Skradanie się (Stealth) do końca rundy"): 1 Force point of a figure that has it, counted
    with its once-a-turn spend; the text names no turn (reading R273)."""

    rule = cite_for(state.position.edition, "PL p.46") + "; reading R273 in docs/readings.md"
    if not _defines(state.position, "Force Sense"):
        tr = state.turn_rules
        return [Reason(_("the {rules} rules give no Force Sense").format(rules=state.position.edition.value), tr.cite(tr.cite_turn_options))]
    reasons = []
    if not has(_abilities(state.position, f), "Force Sense"):
        reasons.append(Reason(_("{f} has no Force power {power}").format(f=f.id, power="Force Sense"), rule))
    if delta != -1:
        reasons.append(Reason(_("Force Sense costs 1 Force point (game force ID -1 --power \"Force Sense\")"), rule))
    return reasons + check_force_spend(state, f.id, -delta)


def _no_attack_reach(state: GameState, abl: tuple[str, ...]) -> int:
    """How far a turn without attacking goes beyond double speed: Accelerate 24, Wheel Form and
    Wheeled 18 (SWM PL p.32, p.66; CS g.1, g.14)."""
    return max([n for name, n in (("Accelerate", 24), ("Wheel Form", 18), ("Wheeled", 18)) if _defines(state.position, name) and has(abl, name)], default=0)


def _slow_attack(state: GameState, abl: tuple[str, ...]) -> str | None:
    """DDM Slow [Melee/Ranged] Attack: no attack and move in the same turn (the glossary's form
    names the kind of attack; with none named, any attack). Read for every attack of the kind
    the creature makes: its card gives it one attack line of each kind at most."""
    forms = {name.lower() for name in ("Slow Attack", "Slow Melee Attack", "Slow Ranged Attack") if _defines(state.position, name)}
    return next((a for a in abl if split_ability(a)[0].lower() in forms), None)


def _stagger_path(pos: Position, f: Figure, to: Square, most: int) -> bool:
    """Is there a route to ``to`` of at most ``most`` that crosses no difficult terrain and no
    creature (a Staggering charge: glossary 'Stagger')?"""

    mv = mover(pos, f)
    occupied = {(q.col, q.row) for x in pos.figures if x.id != f.id for q in x.space}

    def step(sq: tuple[int, int], nb: tuple[int, int], par: int) -> tuple[int, int] | None:
        if nb in mv.slow or nb in occupied:
            return None
        return mv.step(sq, nb, par)

    best, _prev, reached = search_from((f.at.col, f.at.row), 0, pos.map.cols, pos.map.rows, step, (to.col, to.row))
    return reached is not None and best[reached] <= most


def _sidestep(state: GameState, f: Figure, moved: int) -> bool:
    """DDM Sidestep: a creature that moves only 1 square in its turn makes all its attacks and
    provokes no attacks of opportunity (glossary 'Sidestep')."""
    return _defines(state.position, "Sidestep") and has(_abilities(state.position, f), "Sidestep") and moved <= 1


def _move_and_attack(state: GameState, abl: tuple[str, ...]) -> MoveAndAttack | None:
    """The edition's longer move followed by one attack this figure has (SWM Charging Fire: 2008 up
    to double speed in place of its turn, PL p.36; 2004 up to 12 squares in place of its normal
    attack, CS g.2; reading R303)."""
    return next((m for m in state.turn_rules.move_and_attack if has(abl, m.name)), None)


def _wheeled(state: GameState, abl: tuple[str, ...]) -> bool:
    """Wheeled: instead of a normal turn it moves up to 18 squares and then attacks (PL p.66; CS g.14)."""
    return _defines(state.position, "Wheeled") and has(abl, "Wheeled")


def allowed_attacks(state: GameState, f: Figure, moved: bool) -> tuple[int, str]:
    """How many attacks this figure may make this turn, and why."""
    tr = state.turn_rules
    pos = state.position
    abl = _abilities(pos, f)
    if tr.attack_lines_from_card:
        if moved:
            return 1, _("a creature that moved attacks only once")
        from ..rules.ddm.attack import _ddm_lines  # start-up time: the DDM attack only when a DDM figure attacks

        n = max(len(_ddm_lines(pos, f, "melee")), len(_ddm_lines(pos, f, "ranged")), 1)
        return n, n_("a full attack: the {n} attack on its card, without moving", "a full attack: the {n} attacks on its card, without moving", n).format(n=n)
    n, why = 1, _("one attack per turn")
    multi = next(((name, k) for name, k in tr.multi_attacks if has(abl, name)), None)
    if multi and not moved:
        n, why = multi[1], _("{ability}: {n} attacks when it has not moved").format(ability=multi[0], n=multi[1])
    elif multi and has(abl, "Greater Mobile Attack") and _defines(pos, "Greater Mobile Attack"):
        # PL p.48: "może wykonać kilka ataków (jeżeli istnieją) nawet jeśli porusza się w swojej turze"
        n, why = multi[1], _("{ability}: {n} attacks, and Greater Mobile Attack keeps them after moving").format(ability=multi[0], n=multi[1])
    elif multi:
        why = _("{ability} gives more attacks only to a character that has not moved").format(ability=multi[0])
    if _defines(pos, "Extra Attack") and has(abl, "Extra Attack") and not moved:
        n, why = n + 1, why + _("; Extra Attack: one more, and no move")
    if _defines(pos, "Twin Attack") and has(abl, "Twin Attack"):
        n, why = 2 * n, why + _("; Twin Attack: each attack has a twin against the same target")
    return n, why


def check_attack(state: GameState, a: Figure, target: Figure) -> list[Reason]:
    tr = state.turn_rules
    c = tr.cite
    reasons = _not_acting(state, a) + _rallied(state, a) + unable(state, a, "attack")
    t = _turn(state, a.id)
    abl = _abilities(state.position, a)
    speed = (_burrow_speed(state, a) if t.burrowed else None) or state.speed(a)
    if t.towed:
        reasons.append(Reason(_("{f} used Tow Cable: that move was its whole turn").format(f=a.id), c(_TOW_CITE)))
        return reasons
    if t.mended:
        reasons.append(Reason(_("{f} used {ability} this turn in place of its attacks").format(f=a.id, ability=t.mended), mend_rule(state, t.mended)))
        return reasons
    if t.charged and not (has(abl, "Pounce") and t.targets[:1] == [target.id]):
        reasons.append(
            Reason(
                _("{a} has charged: the charge's one melee attack is made (Pounce alone gives more, against the charged enemy)").format(a=a.id),
                c(tr.cite_charge),
            )
        )
        return reasons
    charging = _move_and_attack(state, abl)
    charged_far = charging is not None and speed + t.faster < t.moved <= charging.reach(speed)
    if t.moved > speed + t.faster and not (_wheeled(state, abl) and t.moved <= 18) and not charged_far:
        reasons.append(
            Reason(
                _("{a} moved {squares}, more than its speed {speed}: a double move leaves no attack").format(
                    a=a.id, squares=count_squares(t.moved), speed=speed
                ) + _faster_note(state, t),
                c(tr.cite_double_move),
            )
        )
    if t.moved_after > 0:
        reasons.append(Reason(_("{a} has already moved after attacking: its attacks this turn are over").format(a=a.id), c(tr.cite_turn_options)))
    slow = _slow_attack(state, abl)
    if slow and t.moved > 0:
        reasons.append(Reason(_("{a} has {ability}: it cannot move and attack in the same turn").format(a=a.id, ability=slow), c("glossary 'Slow Attack'")))
    if tr.cite_heavy_weapon and has(abl, "Heavy Weapon") and t.moved > 0:
        reasons.append(Reason(_("{a} has Heavy Weapon: it cannot move and attack in the same turn").format(a=a.id), c(tr.cite_heavy_weapon)))
    sidestep = _sidestep(state, a, t.moved)
    allowed, why = allowed_attacks(state, a, t.moved_before > 0 and not sidestep)
    if charging is not None and charged_far:
        # the move beyond its speed was the ability's: one attack follows it (its Twin Attack keeps its twin)
        twin = 2 if _defines(state.position, "Twin Attack") and has(abl, "Twin Attack") else 1
        if allowed > twin:
            allowed, why = twin, _("{ability}: the move and one attack").format(ability=charging.name)
    if t.attacks >= allowed:
        reasons.append(
            Reason(
                n_(
                    "{a} has made {attacks} attack this turn, all it may ({why})", "{a} has made {attacks} attacks this turn, all it may ({why})", t.attacks
                ).format(a=a.id, attacks=t.attacks, why=why),
                c(charging.rule if charging is not None and charged_far else tr.cite_multi_attack if allowed > 1 or "moved" in why else tr.cite_turn_options),
            )
        )
    elif _defines(state.position, "Twin Attack") and has(abl, "Twin Attack") and t.attacks % 2 == 1 and t.targets and target.id != t.targets[-1]:
        reasons.append(
            Reason(_("Twin Attack: {a}'s twin attack is against the same target, {target}").format(a=a.id, target=t.targets[-1]), c("PL p.65 Twin Attack"))
        )
    return reasons


def refused_this_turn(state: GameState | None, attacker: str, target: str) -> list[Reason]:
    """What of the acting figure's turn so far refuses an attack on ``target`` now (it moved double,
    it has made its attacks, it charged): the attack question answered "legal" after a double
    move, and the record was then refused. Empty for a figure that is not acting (a question asked
    before its activation, or of another's figure) and for a name the position lacks."""
    if state is None or state.active != attacker:
        return []
    try:
        a, t = state.figure(attacker), state.figure(target)
    except AssistantError:
        return []
    return check_attack(state, a, t)


def targets_this_turn(state: GameState | None, attacker: str, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The targets question's rows, each with what the acting figure's turn so far refuses
    (``refused_this_turn``, as the attack question says it)."""
    return [{**r, "refused_this_turn": [x.as_json() for x in refused_this_turn(state, attacker, str(r.get("target", "")))]} for r in rows]


def check_power(state: GameState, f: Figure, name: str | None = None) -> list[Reason]:
    """A power that hurts is used in the user's turn, in place of its attacks (PL p.44-47), of its
    whole turn, or besides them (Drain Life, Sith Hatred), as its entry says."""
    from ..rules.powers import POWERS, find  # start-up time: the Force powers only when one is used

    tr = state.turn_rules
    reasons = _not_acting(state, f) + unable(state, f, "attack")
    t = _turn(state, f.id)
    replaces = "attacks"
    if name and any(state.position.edition.value in p.editions for p in POWERS):  # its Force powers say what they replace
        power, _value, written = find(state.position, f, name, _abilities(state.position, f))
        replaces, name = power.replaces, written
        reasons += check_force_spend(state, f.id, power.cost)  # once per turn (CS r.9 Shaak Ti; PL p.26 Count Dooku)
        if replaces == "turn" and (t.moved or t.attacks):
            reasons.append(Reason(_("{power} replaces {f}'s whole turn: it has already moved or attacked").format(power=name, f=f.id), tr.cite(power.rule)))
            return reasons
    elif name and tr.attack_lines_from_card:  # DDM: a spell or spell-format ability, cast as many times as its boxes allow
        try:
            spell: ddm_spells.SpellText | None = ddm_spells.find(state.position, f, name, _abilities(state.position, f))
        except AssistantError:
            spell = None  # not written in the card's format: the answer itself says so (rules/ddm_spells.py)
        allowed = ddm_spells.uses(state.position, f, spell) if spell else None
        done = state.spell_uses.get((f.id, spell.written.lower()), 0) if spell else 0
        if spell and allowed is not None and done >= allowed:
            reasons.append(Reason(
                n_("{f} has used {power} {done} times: it has {allowed} use", "{f} has used {power} {done} times: it has {allowed} uses", allowed).format(
                    f=f.id, power=spell.name, done=done, allowed=allowed),
                tr.cite("§ Czary › Ilość użyć p.22")))
    if (t.attacks or t.mended) and replaces != "nothing":
        reasons.append(Reason(_("{f} has already attacked this turn: the power takes the place of its attacks").format(f=f.id), tr.cite("PL p.44-47"))
                       if t.attacks else Reason(_("{f} used {ability} this turn in place of its attacks").format(f=f.id, ability=t.mended),
                                                mend_rule(state, t.mended)))
    return reasons


def _mend_fits(mend: Mend, abl: tuple[str, ...]) -> bool:
    """Does ``mend`` work on a character with these abilities? A Cyborg is living, a Droid and a
    non-Droid at once (PL p.37; CS g.3; reading R270)."""
    if mend.works_on == "living":
        return saves.is_living(abl)
    if mend.works_on == "non-droid":
        return has(abl, "Cyborg") or not has(abl, "Droid")
    if mend.works_on == "droid":
        return has(abl, "Droid") or has(abl, "Cyborg")
    return has(abl, "Mounted Weapon")


_MEND_REFUSALS = {
    "living": N_("{ability} works on a living character; {t} is not living"),
    "non-droid": N_("{ability} has no effect on a Droid, and {t} is one"),
    "droid": N_("{ability} works on a Droid; {t} is not one"),
    "mounted": N_("{ability} works on a character with Mounted Weapon; {t} has none"),
}


def find_mend(state: GameState, healer: Figure, target: Figure, ability: str | None) -> tuple[Mend, str, int | None] | None:
    """The damage-removing special action ``healer`` uses on ``target`` (its rulebook's entry, the
    name as its card writes it, the card's [#] or the 2004 glossary's fixed number): the one named,
    else the first of its own that works on ``target``, else its first. None: it has none."""
    pos = state.position
    card = pos.card_of(healer)
    powers = tuple(p.name for p in getattr(card, "force_powers", None) or ())
    written = list(dict.fromkeys([*_abilities(pos, healer), *powers]))
    found: list[tuple[Mend, str, int | None]] = []
    for text in written:
        name, value = split_ability(text)
        for mend in mends(pos.edition.value):
            if mend.name.lower() == name.lower() and (ability is None or " ".join(ability.split()).lower() in (name.lower(), text.lower())):
                found.append((mend, text, value if value is not None else mend.fixed))
    if not found:
        return None
    abl = _abilities(pos, target)
    return next((f for f in found if _mend_fits(f[0], abl)), found[0])


def mend_rule(state: GameState, written: str) -> str:
    """Where the edition's rulebook states the special action ``written`` (as its card writes it)."""
    name = split_ability(written)[0].lower()
    rule = next((m.rule for m in mends(state.position.edition.value) if m.name.lower() == name), "")
    return state.turn_rules.cite(f"{rule}; reading R272 in docs/readings.md" if rule else "reading R272 in docs/readings.md")


def check_mend(state: GameState, healer: Figure, target: Figure, ability: str | None, amount: int) -> list[Reason]:
    """SWM Heal, Force Heal, Repair, Industrial Repair (``game heal TARGET N --by HEALER``): in the
    healer's own turn, in place of its attacks, on an adjacent character it works on (or itself where
    its entry says so), at most its [#], Force Heal's 2 Force points spent (reading R272)."""
    tr = state.turn_rules
    pos = state.position
    found = find_mend(state, healer, target, ability)
    if found is None:
        names = sorted({m.name for m in mends(pos.edition.value)})
        rules = "; ".join(dict.fromkeys(m.rule for m in mends(pos.edition.value)))
        if not names:
            raise AssistantError(_("--by: {rules} has no special action that removes another's damage (Heal, Repair are Star Wars Miniatures "
                                   "rules); record the heal without --by").format(rules=pos.edition.value))
        said = (_("{f} has no {ability}: only {names} remove another's damage in its turn").format(f=healer.id, ability=ability, names=", ".join(names))
                if ability else _("{f} has no special action that removes damage: only {names} do, in its turn").format(f=healer.id, names=", ".join(names)))
        return [Reason(said, tr.cite(rules))]
    mend, written, value = found
    rule = mend_rule(state, written)
    reasons = _not_acting(state, healer) + unable(state, healer, "attack")
    t = _turn(state, healer.id)
    if t.mended:
        reasons.append(Reason(_("{f} has already used {ability} this turn").format(f=healer.id, ability=t.mended), rule))
    elif t.attacks:
        reasons.append(Reason(_("{f} has already attacked this turn: {ability} takes the place of its attacks").format(f=healer.id, ability=written), rule))
    if t.charged or t.towed or t.moved > state.speed(healer) + t.faster:
        reasons.append(Reason(_("{f}'s move this turn leaves no attack, and {ability} takes an attack's place").format(f=healer.id, ability=written), rule))
    if target.id == healer.id:
        if not mend.self_too:
            reasons.append(Reason(_("{ability} works on an adjacent character, not on {f} itself").format(ability=written, f=healer.id), rule))
    elif not engine.adjacent(pos, healer, target):
        reasons.append(Reason(_("{t} is not next to {f}: {ability} works on an adjacent character").format(t=target.id, f=healer.id, ability=written), rule))
    if not _mend_fits(mend, _abilities(pos, target)):
        reasons.append(Reason(_(_MEND_REFUSALS[mend.works_on]).format(ability=written, t=target.id), rule))
    if mend.wounded and target.damage_taken <= 0:
        reasons.append(Reason(_("{t} has no damage: {ability} is used on a wounded character").format(t=target.id, ability=written), rule))
    if value is not None and amount > value:
        reasons.append(Reason(_("{ability} removes at most {n} damage, not {amount}").format(ability=written, n=value, amount=amount), rule))
    return reasons + check_force_spend(state, healer.id, mend.cost)


_SKIFF_CITE = "PL p.39"


def check_embark(state: GameState, f: Figure, skiff: Figure) -> list[Reason]:
    """SWM 2008 Desert Skiff: one Large or two Medium or Small allies board it, ending their move
    next to its base."""

    def c() -> str:
        return state.turn_rules.cite(_SKIFF_CITE)

    pos = state.position
    if not _defines(pos, "Desert Skiff") or not has(_abilities(pos, skiff), "Desert Skiff"):
        return [Reason(_("{skiff} has no Desert Skiff: it carries no one").format(skiff=skiff.id), c())]
    reasons: list[Reason] = []
    if f.id == skiff.id or f.side != skiff.side:
        reasons.append(Reason(_("{f} is not an ally of {skiff}").format(f=f.id, skiff=skiff.id), c()))
    elif not engine.adjacent(pos, f, skiff):
        reasons.append(Reason(_("{f} is not next to {skiff}: a passenger boards at the end of a move next to its base").format(f=f.id, skiff=skiff.id), c()))
    if state.active != f.id:
        reasons.append(Reason(_("{f} boards at the end of its own move: activate it first").format(f=f.id), c()))
    aboard = [g for g, s in state.aboard.values() if s == skiff.id] + [f]
    large = [g for g in aboard if g.size.rank >= Size.LARGE.rank]
    if any(g.size.rank > Size.LARGE.rank for g in aboard) or (large and len(aboard) > 1) or len(aboard) > 2:
        reasons.append(
            Reason(
                _("{skiff} carries one Large or two Medium or Small allies; with {f} it would carry {all}").format(
                    skiff=skiff.id, f=f.id, all=", ".join(f"{g.id} ({_size_word(g.size)})" for g in aboard)
                ),
                c(),
            )
        )
    return reasons


def check_disembark(state: GameState, fid: str, at: Square) -> list[Reason]:
    """Passengers leave the skiff just before the round's first activation, next to it (or, the
    skiff defeated, next to where it stood), and take their turns that round."""

    def c() -> str:
        return state.turn_rules.cite(_SKIFF_CITE)

    if fid not in state.aboard:
        state.figure(fid)  # unknown or fallen: said by its own error
        return [Reason(_("{f} is not aboard a Desert Skiff").format(f=fid), c())]
    f, skiff_id = state.aboard[fid]
    pos = state.position
    reasons: list[Reason] = []
    skiff = next((x for x in pos.figures if x.id == skiff_id), None)
    if skiff is not None and (state.active is not None or any(x.activated for x in pos.figures) or state.round == 0):
        reasons.append(Reason(_("{f} disembarks just before the round's first activation").format(f=fid), c()))
    space = skiff.space if skiff is not None else state.wrecks.get(skiff_id, ())
    if space and min(max(abs(at.col - s.col), abs(at.row - s.row)) for s in space) != 1:
        reasons.append(
            Reason(
                (_("{at} is not next to {skiff}") if skiff is not None else _("{at} is not next to where {skiff} stood")).format(at=at.name, skiff=skiff_id),
                c(),
            )
        )
    problem = mover(pos, f).end_problem(at)
    if problem:
        reasons.append(Reason(problem, c()))
    return reasons


def check_opportunity(state: GameState, a: Figure, target: Figure) -> list[Reason]:
    tr = state.turn_rules
    c = tr.cite
    pos = state.position
    reasons: list[Reason] = []
    if a.side == target.side:
        return [Reason(_("{target} is an ally of {a}").format(target=target.id, a=a.id), c(tr.cite_opportunity))]
    fleeing = rout_move(state, target.id)
    if fleeing is None and state.active != target.id:
        reasons.append(
            Reason(
                _("{target} is not the figure moving now ({acting}): an attack of opportunity is made against an enemy as it leaves").format(
                    target=target.id, acting=state.active or _("nobody is acting")
                ),
                c(tr.cite_opportunity),
            )
        )
    t = fleeing or (state.turn if state.turn is not None else Turn(target.id))
    made_flee = state.routed_by.get(target.id)
    if fleeing is not None and made_flee == (a.id, state.round):
        reasons.append(Reason(_("{a} made {target} flee this round: it makes no attack of opportunity against it this round").format(a=a.id, target=target.id),
                              c("§ Ucieczka p.21-22")))
    if t.figure == target.id and t.leaped:
        reasons.append(Reason(_("{target} used Force Leap: it provokes no attacks of opportunity this turn").format(target=target.id),
                              cite_for(pos.edition, FORCE_LEAP_RULE)))
    if a.id in t.opportunity_by:
        reasons.append(Reason(_("{a} has already made an attack of opportunity this turn (one per turn)").format(a=a.id), c(tr.cite_opportunity)))
    if a.id not in t.provoked and not engine.adjacent(pos, a, target):
        reasons.append(Reason(_("{target} is not leaving a square next to {a}").format(target=target.id, a=a.id), c(tr.cite_opportunity)))
    if tr.flight_never_provokes and has(_abilities(pos, target), "Flight"):
        reasons.append(Reason(_("{target} has Flight: enemies make no attacks of opportunity against it").format(target=target.id), c(tr.cite_flight)))
    stopped = find_edition(pos.edition).unable_to_react(a.conditions)
    if stopped:
        reasons.append(
            Reason(_("{a} is {conditions}: it makes no attacks of opportunity").format(a=a.id, conditions=', '.join(stopped)), c(tr.cite_opportunity))
        )
    if tr.attack_lines_from_card and has(_abilities(pos, a), "No Reach"):
        reasons.append(Reason(_("{a} has No Reach: it makes no attacks of opportunity").format(a=a.id), c("glossary 'No Reach'")))
    if tr.attack_lines_from_card:
        from ..rules.ddm.attack import _ddm_lines  # start-up time: the DDM attack only when a DDM figure attacks

        if not _ddm_lines(pos, a, "melee"):
            reasons.append(Reason(_("{a} has no melee attack: an attack of opportunity is a melee attack").format(a=a.id), c(tr.cite_opportunity)))
    return reasons


def opportunity_not_checked(state: GameState) -> tuple[str, ...]:
    """The exceptions to an attack of opportunity this referee does not check (said, never ignored)."""
    tr = state.turn_rules
    if tr.opportunity_trigger == "leave-threatened":
        return (
            _(
                "not modelled, check at the table: melee cover between them, a threatener that cannot see the mover, Flight beyond "
                "its first square, and Incorporeal in a wall ({rule})"
            ).format(rule=tr.cite(tr.cite_opportunity)),
        )
    return (
        _("not modelled, check at the table: other movement that provokes nothing this turn ({rule})").format(rule=tr.cite(tr.cite_opportunity)),
    )


# --- moves ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MovePlan:
    route: Route
    provokes: tuple[str, ...]
    notes: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict)  # mode, trample, tow

    def data(self, fid: str, to: Square) -> dict[str, Any]:
        d: dict[str, Any] = {"figure": fid, "to": to.name, "cost": self.route.cost or 0, "parity": self.route.parity, "path": [s.name for s in self.route.path]}
        if self.provokes:
            d["provokes"] = list(self.provokes)
        if d["cost"] and self.extra.get("mode") in ("intuition", "surprise"):
            d.pop("parity")  # not the figure's turn: its diagonal count is not carried on
        return {**d, **self.extra}


def plan_move(state: GameState, fid: str, to: Square, *, burrow: bool = False, tow: tuple[str, Square] | None = None,
              surprise: bool = False) -> MovePlan:
    """The route this turn's move would take and the enemies whose reach it leaves; ``burrow``:
    DDM Burrow's underground move; ``tow``: SWM Tow Cable's ally and where it ends."""
    f = state.figure(fid)
    t = _turn(state, fid)
    tr = state.turn_rules
    intuition = not burrow and tow is None and not surprise and intuition_open(state, f)
    mode = "burrow" if burrow else "surprise" if surprise else "intuition" if intuition else None
    if tow is not None:
        r = route(state.position, f, to, flight=True)
        ally = state.figure(tow[0])
        ra = route(_moved(state.position, f, to), ally, tow[1], flight=True)
        towed = {"figure": ally.id, "to": tow[1].name, "cost": ra.cost or 0, "path": [s.name for s in ra.path]}
        note = _("{f} tows {ally} with Tow Cable: both fly (no attacks of opportunity), up to 12 squares each; this is its whole turn ({rule})").format(
            f=f.id, ally=ally.id, rule=tr.cite(_TOW_CITE)
        )
        return MovePlan(r, (), tuple(r.notes) + (note,), extra={"tow": towed})
    r = route(state.position, f, to, 0 if intuition or surprise else t.parity, **_how(state, f, t, mode))
    provokes: list[str] = []
    notes = list(r.notes)
    extra: dict[str, Any] = {"mode": mode} if mode else {}
    if surprise:
        notes.append(
            _("{f} moves with Surprise Move: 1 Force point, after initiative, before any activation, up to 6 squares; not an activation ({rule})").format(
                f=f.id, rule=cite_for(state.position.edition, SURPRISE_MOVE_RULE)))
    if intuition:
        notes.append(
            _("{f} moves with Intuition: after initiative, before any activation, up to its speed; not an activation ({rule})").format(
                f=f.id, rule=tr.cite(_INTUITION_CITE)
            )
        )
    if r.cost is not None and len(r.path) > 1 and not burrow:
        trampled = _trampled(state.position, f, r.path)
        if trampled:
            extra["trample"] = trampled
            notes.append(_trample_note(state.position, f, trampled))
    if burrow and r.cost is not None:
        notes.append(
            _(
                "{f} burrows: underground it ignores the surface's terrain, walls and enemies, and provokes no attacks of opportunity; it may not charge "
                "({rule})"
            ).format(f=f.id, rule=tr.cite(_BURROW_CITE))
        )
    elif r.cost is not None and len(r.path) > 1:
        if t.leaped:
            notes.append(_("{id} used Force Leap: it moves through enemies and provokes no attacks of opportunity this turn ({rule})").format(
                id=f.id, rule=cite_for(state.position.edition, FORCE_LEAP_RULE)))
        elif tr.flight_never_provokes and has(_abilities(state.position, f), "Flight"):
            notes.append(_("{id} has Flight: its movement provokes no attacks of opportunity ({value})").format(id=f.id, value=tr.cite(tr.cite_flight)))
        elif _defines(state.position, "Ghost Step") and has(_abilities(state.position, f), "Ghost Step"):
            provokes = [
                e for e in _provoked(state.position, f, list(r.path), tr.opportunity_trigger) if has(_abilities(state.position, state.figure(e)), "Blindsight")
            ]
            notes.append(
                _(
                    "{id} declares Ghost Step: Invisible until the end of its turn, so only enemies with Blindsight may make attacks of opportunity "
                    "(glossary 'Ghost Step')"
                ).format(id=f.id)
            )
            if provokes:
                notes.append(_opportunity_note(provokes, tr))
        elif has(_abilities(state.position, f), "Invisible") or "invisible" in f.conditions:  # a DDM glossary name (Ghost Step's condition)
            provokes = [
                e for e in _provoked(state.position, f, list(r.path), tr.opportunity_trigger) if has(_abilities(state.position, state.figure(e)), "Blindsight")
            ]
            notes.append(_("{id} is Invisible: only enemies with Blindsight may make attacks of opportunity (glossary 'Invisible')").format(id=f.id))
            if provokes:
                notes.append(_opportunity_note(provokes, tr))
        elif _sidestep(state, f, t.moved + (r.cost or 0)) and not any((s.col, s.row) in mover(state.position, f).slow for s in r.path[1:]):
            notes.append(
                _("{id} Sidesteps: a move of 1 square provokes no attacks of opportunity, and it may still make all its attacks (glossary 'Sidestep')").format(
                    id=f.id
                )
            )
        else:
            provokes = _provoked(state.position, f, list(r.path), tr.opportunity_trigger)
            made_flee = state.routed_by.get(f.id) if rout_move(state, f.id) is not None else None
            if made_flee is not None and made_flee[1] == state.round and made_flee[0] in provokes:  # R53: as check_opportunity refuses it
                provokes.remove(made_flee[0])
                notes.append(_("{a} made {target} flee this round: it makes no attack of opportunity against it this round").format(
                    a=made_flee[0], target=f.id) + f" ({tr.cite('§ Ucieczka p.21-22')})")
            if provokes:
                notes.append(_opportunity_note(provokes, tr))
    return MovePlan(r, tuple(provokes), tuple(notes), extra=extra)


def _trampled(pos: Position, f: Figure, path: tuple[Square, ...]) -> list[str]:
    """The enemies whose squares the path crosses (DDM Trample)."""
    crossed = set(path[1:-1])
    return [e.id for e in pos.figures if e.side != f.side and crossed & set(e.space)]


def _trample_note(pos: Position, f: Figure, trampled: list[str]) -> str:
    text = next((a for a in _abilities(pos, f) if split_ability(a)[0].lower().startswith("trample") or a.lower().startswith("trample")), "Trample")
    numbers = [int(x) for x in re.findall(r"\d+", text)]
    damage = numbers[0] if numbers else "[#]"
    dc = numbers[1] if len(numbers) > 1 else "[##]"
    return _(
        "{f} tramples {names} (once this turn): each takes {damage} damage unless it saves against DC {dc} (record it with 'game damage'); it still "
        "provokes attacks of opportunity ({rule})"
    ).format(f=f.id, names=", ".join(trampled), damage=damage, dc=dc, rule=cite_for(pos.edition, "glossary 'Trample'"))


def _opportunity_note(provokes: list[str], tr: TurnRules) -> str:
    return n_(
        "leaving {names}'s reach: it may make an attack of opportunity first ({rule}; record it with 'game aoo')",
        "leaving {names}'s reach: each may make an attack of opportunity first ({rule}; record it with 'game aoo')",
        len(provokes),
    ).format(names=', '.join(provokes), rule=tr.cite(tr.cite_opportunity))


def _provoked(pos: Position, f: Figure, path: list[Square], trigger: str) -> list[str]:
    """Enemies (able to act) next to a square the path leaves: SWM any step out of an adjacent
    square; DDM a step out of the threatened area."""

    out: list[str] = []
    others = tuple(x for x in pos.figures if x.id != f.id)
    enemies = [e for e in others if e.side != f.side and not find_edition(pos.edition).unable_to_react(e.conditions)]
    if not enemies:
        return out
    near: list[dict[str, bool]] = []
    for sq in path:
        moved = replace(f, at=sq)
        p = Position(pos.edition, pos.map, others + (moved,), pos.cards)
        near.append({e.id: _next_to(moved, e) and engine.adjacent(p, moved, e) for e in enemies})
    for e in enemies:
        for i in range(len(path) - 1):
            if near[i][e.id] and (trigger == "leave-adjacent" or not near[i + 1][e.id]):
                out.append(e.id)
                break
    return out


def _next_to(a: Figure, b: Figure) -> bool:
    na, nb = a.size.footprint, b.size.footprint
    dx = max(b.at.col - (a.at.col + na - 1), a.at.col - (b.at.col + nb - 1), 0)
    dy = max(b.at.row - (a.at.row + na - 1), a.at.row - (b.at.row + nb - 1), 0)
    return max(dx, dy) == 1


# --- DDM: the charge --------------------------------------------------------------------------


def plan_charge(state: GameState, fid: str, target_id: str, to: Square | None = None) -> tuple[list[Reason], Square | None, Route | None]:
    """Check a DDM charge (§ Szarżowanie p.13): the nearest enemy it sees, by movement path;
    the nearest square next to it, by the shortest path; 2 to 2x Speed squares; a clear route
    (no line from the start space to the end space through a creature or a square that slows
    or stops movement, touching aside). Returns the reasons it is refused, the end square and
    the route."""
    tr = state.turn_rules
    c = tr.cite
    pos = state.position
    f, target = state.figure(fid), state.figure(target_id)
    if not tr.charge:
        return [Reason(_("the charge is a D&D Miniatures action; this game has none"), c(tr.cite_turn_options))], None, None
    cc = c(tr.cite_charge)
    if f.size.footprint != 1:
        not_checked = _("charges of Large and bigger creatures are not checked here: only a judge's override records the move and the attack")
        return [Reason(not_checked, cc)], None, None
    reasons: list[Reason] = []
    if target.side == f.side:
        return [Reason(_("{id} is an ally of {id2}").format(id=target.id, id2=f.id), cc)], None, None
    if not engine.sight(pos, f.id, target.id).line_of_sight:
        reasons.append(Reason(_("{id} cannot see {id2} at the start of its turn").format(id=f.id, id2=target.id), cc))
    dist = reach(pos, f)
    mv_end = _end_check(pos, f)

    def nearest_square(e: Figure) -> tuple[int | None, list[Square]]:
        ring = [Square(s.col + dx, s.row + dy) for s in e.space for dx in (-1, 0, 1) for dy in (-1, 0, 1)]
        ring = [s for s in dict.fromkeys(ring) if s not in e.space and pos.map.on_map(s) and (s.col, s.row) in dist]
        if not ring:
            return None, []
        best = min(dist[(s.col, s.row)] for s in ring)
        return best, [s for s in ring if dist[(s.col, s.row)] == best]

    seen = [e for e in pos.figures if e.side != f.side and engine.sight(pos, f.id, e.id).line_of_sight]
    lengths = {e.id: nearest_square(e)[0] for e in seen}
    known = [v for v in lengths.values() if v is not None]
    near_d, squares = nearest_square(target)
    if known and near_d is not None and near_d > min(known):
        closer = [k for k, v in lengths.items() if v == min(known)]
        reasons.append(
            Reason(
                _("{id} is not the nearest enemy {id2} sees by movement ({names} at {value}, {id} at {near_d}): a charge may only be at the nearest").format(
                    id=target.id, id2=f.id, names=', '.join(closer), value=count_squares(min(known)), near_d=near_d
                ),
                cc,
            )
        )
    if near_d is None:
        reasons.append(Reason(_("no square next to {id} can be reached").format(id=target.id), cc))
        return reasons, None, None
    free = [s for s in squares if mv_end(s) is None]
    if to is None:
        if not free:
            reasons.append(
                Reason(
                    _("the nearest square next to {id} ({names}) is occupied or blocked: no charge").format(
                        id=target.id, names=', '.join(s.name for s in squares)
                    ),
                    cc,
                )
            )
            return reasons, None, None
        to = free[0]
    elif to not in squares:
        reasons.append(
            Reason(
                _("{name} is not the nearest square next to {id} ({names} at {near_d})").format(
                    name=to.name, id=target.id, names=', '.join(s.name for s in squares), near_d=near_d
                ),
                cc,
            )
        )
    elif to not in free:
        reasons.append(Reason(_("{name} is occupied or blocked: no charge").format(name=to.name), cc))
    r = route(pos, f, to)
    if r.cost is None:
        reasons.append(Reason(r.text, cc))
        return reasons, to, None
    speed = state.speed(f)
    if not 2 <= r.cost <= 2 * speed:
        reasons.append(
            Reason(_("a charge moves at least 2 and at most {value} squares (double Speed); this one is {cost}").format(value=2 * speed, cost=r.cost), cc)
        )
    if has(_abilities(pos, f), "Stagger"):
        # Stagger: any route, not only a straight one, but still not through difficult terrain or creatures
        if not _stagger_path(pos, f, to, 2 * speed):
            reasons.append(
                Reason(
                    _("Stagger lets the charge turn, but no route of at most {n} squares to {to} avoids difficult terrain and creatures").format(
                        n=2 * speed, to=to.name
                    ),
                    c("glossary 'Stagger'"),
                )
            )
        blocker = None
    else:
        blocker = _route_blocker(pos, f, to, target)
    if blocker:
        reasons.append(
            Reason(
                _("the route is not clear: a line from {name} to {name2} passes through {blocker}").format(name=f.at.name, name2=to.name, blocker=blocker), cc
            )
        )
    return reasons, to, r


def _end_check(pos: Position, f: Figure) -> Any:
    return mover(pos, f).end_problem


def _route_blocker(pos: Position, f: Figure, to: Square, target: Figure) -> str | None:
    """What a line from the start space to the end space passes through, if anything: a
    creature (allies too), a wall, a thin wall, a square that slows or stops movement."""

    mv = mover(pos, f)
    start = {(s.col, s.row) for s in f.space}
    # every line from a point of the start space to a point of the end space: their convex hull
    h = convex_hull([p for sq in [*start, (to.col, to.row)] for p in unit_square(sq)])
    m = pos.map

    walls = {(s.col, s.row) for s in m.squares.get(SquareTerrain.WALL, frozenset())}
    for x, y in sorted(polygon_squares(h), key=lambda q: abs(q[0] - f.at.col) + abs(q[1] - f.at.row)):
        sq = (x, y)
        if sq in start or sq == (to.col, to.row):
            continue
        name = Square(x, y).name
        if sq in walls:
            return _("the wall square {name}").format(name=name)
        occupant = pos.figure_at(Square(x, y))
        if occupant is not None and occupant.id != f.id and not mv.flier:
            return _("{id} at {name}").format(id=occupant.id, name=name)
        if sq in mv.pits and not mv.flier:
            return _("the pit {name}").format(name=name)
        if sq in mv.slow and not mv.flier:
            return _("{name}, which slows movement").format(name=name)
    for e in sorted(m.blocking_edges(), key=lambda e: e.name):
        if interiors_meet(h, edge_points((e.x, e.y, e.axis))):
            return _("the wall at {name}").format(name=e.name)
    return None


# --- DDM: morale ---------------------------------------------------------------------------------


def morale_bonus(pos: Position, f: Figure) -> tuple[int | None, int, str | None]:
    """(Level, the best commander rating in command range, which commander): d20 + both >= 20.
    The Level is None where no card or stat gives it (not 0: the save's verdict would be invented).

    In command range: within 6 squares of an able commander of its warband, or in its line of
    sight, or itself a commander (which adds its own rating even when it cannot command)."""
    stats = pos.stats_of(f)
    level = stats.level
    abl = _abilities(pos, f)
    own = _rating(pos, f)
    best, by = (own, f.id) if own else (0, None)
    if has(abl, "Wild"):
        return level, best, by
    difficult = next((int(a.split()[-1]) for a in abl if a.lower().startswith("difficult") and a.split()[-1].isdigit()), 0)
    for cmd in pos.figures:
        if cmd.side != f.side or cmd.id == f.id:
            continue
        r = _rating(pos, cmd)
        if not r or r < difficult or find_edition(pos.edition).unable_to_react(cmd.conditions):
            continue
        if r > best and _in_command_range(pos, f, cmd, abl):
            best, by = r, cmd.id
    return level, best, by


def _in_command_range(pos: Position, f: Figure, cmd: Figure, abl: tuple[str, ...]) -> bool:
    """``cmd`` commands ``f`` (whose abilities are ``abl``): within 6 squares of it, or in its
    line of sight, or ``f`` Independent (:func:`morale_bonus`)."""
    d = engine.squares_between(pos, f, cmd)
    return has(abl, "Independent") or (d is not None and d <= 6) or engine.sight(pos, f.id, cmd.id).line_of_sight


def unknown_commanders(pos: Position, f: Figure) -> list[str]:
    """The creatures whose unknown Commander rating could join ``f``'s morale save, had they one:
    itself, and the able creatures of its warband in command range (as :func:`morale_bonus`
    counts them; a Wild creature only itself). Read as none, and named (reading R160)."""
    out = [f.id] if rating_unknown(pos, f) else []
    abl = _abilities(pos, f)
    if has(abl, "Wild"):
        return out
    for cmd in pos.figures:
        if cmd.side != f.side or cmd.id == f.id or find_edition(pos.edition).unable_to_react(cmd.conditions) or not rating_unknown(pos, cmd):
            continue
        if _in_command_range(pos, f, cmd, abl):
            out.append(cmd.id)
    return out


def rating_unknown(pos: Position, f: Figure) -> bool:
    """No Commander rating is given for ``f``: no number on the position or its card, and no
    card that says it has none (R160)."""
    if pos.stats_of(f).commander_rating is not None:
        return False
    card = pos.card_of(f)
    return not (isinstance(card, DdmCard) and card.commander_rating == "none")


def _rating(pos: Position, f: Figure) -> int:
    r = pos.stats_of(f).commander_rating
    return r if isinstance(r, int) else 0


def check_charge(state: GameState, f: Figure, target: Figure, to: Square) -> list[Reason]:
    tr = state.turn_rules
    reasons = _not_acting(state, f)
    stopped = unable(state, f, "move") + unable(state, f, "attack")
    if stopped:  # no route to plan
        return reasons + stopped
    t = _turn(state, f.id)
    if t.moved or t.attacks:
        reasons.append(Reason(_("{id} has already moved or attacked this turn: a charge is the whole turn's action").format(id=f.id), tr.cite(tr.cite_charge)))
    got, _to, _plan = plan_charge(state, f.id, target.id, to)
    return reasons + got
