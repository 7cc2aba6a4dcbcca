"""The game state as a fold of the log's events, and the rules a new event must pass.

``fold(events)`` replays every event in force (not undone; an undo may itself be undone).
``check(state, kind, data)`` returns the reasons, each with the edition's own rule, that a
command is refused now; a judge may record it anyway as an override with a reason.

**An undo never breaks a game.** Undoing an event that later events depend on (an undone
heal makes a later damage defeat the figure, so a still later move names a figure that is
gone) leaves those later events in the log, marked *void* with the reason: the fold skips
them and says why. Every game the log holds opens; ``status``, ``log``, ``export`` and
``replay`` always work.

What a turn may hold is each edition's :class:`~.turns.TurnRules`: SWM move-then-attack,
attack-then-move or a double move; DDM double move, move and one attack, full attack or
charge, with the 1-2-1-2 diagonal count carried over the whole turn's movement.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

import yaml

from ..abilities import has
from ..cards import CardLibrary, split_ability
from ..coords import Square, count_squares, parse_edge, parse_square
from ..editions import Edition, cite_for
from ..errors import AssistantError, UnknownNameError
from ..i18n import _
from ..model import DepartedError, Figure, Position
from ..position import parse_position
from ..rules.engine import Reason
from .store import Event, check_shapes, undone_seqs
from .turns import TURN_RULES, TurnRules

ACTIVATIONS_PER_PHASE = 2
#: conditions that stop a creature acting (it cannot make attacks of opportunity, command, flank)
INACTIVE = frozenset({"stunned", "helpless", "paralyzed", "sleeping", "asleep", "routing", "confused"})
_S, _I = str, int
_ROLL: dict[str, object] = {"attacker": _S, "target": _S, "roll?": _I, "needs?": _I, "hit?": bool, "damage?": _I, "critical?": bool,
                            "saves?": list, "after_hit?": dict, "force_spent?": dict, "hit_damage?": _I}
#: every kind of event the log holds, and what each must carry (checked when the log is read)
SHAPES: dict[str, dict[str, object]] = {
    "setup": {"position": _S, "cards?": list}, "undo": {"seq": _I},
    "initiative": {"first": _S, "winner": _S, "rolls": dict, "totals?": dict, "ratings?": dict, "rerolls?": list, "tie_break?": (_S, type(None))},
    "activate": {"figure": _S}, "end-turn": {},
    "move": {"figure": _S, "to": _S, "cost?": _I, "parity?": _I, "path?": list, "provokes?": list, "mode?": _S, "trample?": list, "tow?": dict},
    "attack": {**_ROLL, "helpers?": list}, "opportunity": _ROLL,
    "charge": {"figure": _S, "to": _S, "cost?": _I, "path?": list, **{k: v for k, v in _ROLL.items() if k != "attacker"}},
    "damage": {"figure": _S, "amount": _I, "by?": _S, "saves?": list}, "heal": {"figure": _S, "amount": _I}, "force": {"figure": _S, "delta": _I},
    "condition": {"figure": _S, "add": bool, "condition": _S}, "door": {"edge": _S, "open": bool}, "place": {"figure": dict},
    "relocate": {"figure": _S, "at": _S}, "remove": {"figure": _S}, "flee": {"figure": _S, "by?": _S},
    "morale": {"figure": _S, "roll": _I, "held": bool, "level?": _I, "commander?": _I, "total?": _I},
    "note": {"text": _S}, "end": {"reason?": _S},
    "embark": {"figure": _S, "skiff": _S}, "disembark": {"figure": _S, "at": _S},
    "power": {"figure": _S, "target": _S, "power": _S, "cost": _I, "struck": list, "after_hit?": dict, "replaces?": _S, "heal?": _I},
}
KINDS = frozenset(SHAPES)


@dataclass(frozen=True)
class Entry:
    """One event with where it happened in the game and what it did, for the log and export."""

    event: Event
    round: int
    phase: int
    text: str
    undone: bool = False
    void: str | None = None  # why an event in force no longer applies (an earlier undo changed the game)


@dataclass(frozen=True)
class Fallen:
    """A figure that left the game: when, by whom, how."""

    seq: int | None
    round: int
    by: str | None
    how: str  # "defeated", "fled", "removed"

    def text(self, fid: str) -> str:
        when = (_("at event #{seq}, round {round}").format(seq=self.seq, round=self.round) if self.seq
                else _("in round {round}").format(round=self.round))
        how = {"defeated": _("defeated"), "fled": _("fled"), "removed": _("removed")}.get(self.how, self.how)
        if self.by:
            text = _("{figure} was {how} by {by} ({when})")
        else:
            text = _("{figure} was {how} ({when})")
        return text.format(figure=fid, how=how, by=self.by, when=when)


@dataclass
class Turn:
    """The acting figure's turn so far."""

    figure: str
    moved_before: int = 0  # squares moved before its first attack
    moved_after: int = 0  # squares moved after it
    attacks: int = 0
    targets: list[str] = field(default_factory=list)
    parity: int = 0  # DDM: the next diagonal costs 2 when 1
    charged: bool = False
    provoked: set[str] = field(default_factory=set)  # enemies the move let make an attack of opportunity
    opportunity_by: set[str] = field(default_factory=set)
    burrowed: bool = False  # DDM Burrow: the turn's whole move is underground
    trampled: bool = False  # DDM Trample: once in its turn
    towed: bool = False  # SWM Tow Cable: the move was the whole turn

    @property
    def moved(self) -> int:
        return self.moved_before + self.moved_after


@dataclass
class GameState:
    position: Position
    round: int = 0
    phase: int = 0
    phase_side: str | None = None
    phase_activations: int = 0
    first_side: str | None = None
    active: str | None = None
    turn: Turn | None = None
    entries: list[Entry] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    fallen: dict[str, Fallen] = field(default_factory=dict)
    fallen_side: dict[str, str] = field(default_factory=dict)
    #: victory points by side (DDM: eliminations and victory areas; SWM: the tie-break total)
    vp: dict[str, int] = field(default_factory=dict)
    #: DDM morale saves due (HP first below half), by figure, with the formula
    morale_due: dict[str, str] = field(default_factory=dict)
    morale_checked: set[str] = field(default_factory=set)
    #: consecutive finished rounds with no attack and no damage (tie-break at 10)
    quiet_rounds: int = 0
    round_had_action: bool = False
    intuition_used: set[str] = field(default_factory=set)  # SWM Intuition: once a round
    #: SWM Desert Skiff: the figures carried (off the map, still in play), and by whom
    aboard: dict[str, tuple[Figure, str]] = field(default_factory=dict)
    #: the squares a defeated skiff stood on: its saved passengers are placed next to them
    wrecks: dict[str, tuple[Square, ...]] = field(default_factory=dict)
    last_attacker: str | None = None
    scored_round: int = 0
    ended: str | None = None
    announced_winner: str | None = None
    seq: int | None = None  # the event being applied

    @property
    def rules(self) -> Edition:
        return self.position.edition

    @property
    def turn_rules(self) -> TurnRules:
        return TURN_RULES[self.rules]

    @property
    def moved(self) -> dict[str, int]:
        """Squares moved this turn by the acting figure."""
        return {self.turn.figure: self.turn.moved} if self.turn and self.turn.moved else {}

    def cite(self, where: str) -> str:
        return cite_for(self.rules, where)

    def winner(self) -> str | None:
        """DDM: the first side to 200 VP; SWM: the last side with figures standing."""
        if self.turn_rules.victory == "vp":
            reached = [s for s, v in self.vp.items() if v >= 200]
            return reached[0] if reached else None
        standing = {f.side for f in self.position.figures}
        return next(iter(standing)) if len(standing) == 1 and self.round > 0 else None

    def over(self) -> str | None:
        """Why the game is over, or None."""
        w = self.winner()
        if w:
            return f"{w} has won"
        if self.ended:
            return f"the game was ended ({self.ended})"
        return None

    def figure(self, fid: str) -> Figure:
        """The figure; one that has left the game is named with when and by whom."""
        try:
            return self.position.figure(fid)
        except (UnknownNameError, DepartedError):
            if fid in self.fallen:
                raise AssistantError(self.fallen[fid].text(fid)) from None
            if fid in self.aboard:
                raise AssistantError(_("{id} is aboard {skiff} (Desert Skiff): off the map until it disembarks before the round's first activation (game disembark {id} SQUARE); what it does aboard is not checked here").format(
                    id=fid, skiff=self.aboard[fid][1])) from None
            raise

    def unactivated(self, side: str) -> list[Figure]:
        return [f for f in self.position.figures if f.side == side and not f.activated]

    def sides(self) -> list[str]:
        return self.position.sides()

    def expected_side(self) -> str | None:
        """Whose activation it is now."""
        if self.round == 0:
            return None
        side = self.phase_side
        if side is not None and self.phase_activations < ACTIVATIONS_PER_PHASE and self.unactivated(side):
            return side
        others = [s for s in self._order() if s != side and self.unactivated(s)]
        if others:
            return others[0]
        return side if side is not None and self.unactivated(side) else None

    def _order(self) -> list[str]:
        sides = self.sides()
        if self.first_side in sides:
            i = sides.index(self.first_side)
            sides = sides[i:] + sides[:i]
        return sides

    def round_over(self) -> bool:
        return all(f.activated for f in self.position.figures)

    def speed(self, f: Figure) -> int:
        """Its speed: written in its stats, else its card's Speed [#] (SWM PL p.63, CS g.12), else
        the edition's 6."""
        stats = self.position.stats_of(f)
        if stats.speed:
            return stats.speed
        for text in stats.abilities or ():
            name, value = split_ability(text)
            if name.lower() == "speed" and value:
                return value
        return self.turn_rules.default_speed


# --- folding the log ------------------------------------------------------------------------


def _snapshot(state: GameState) -> dict[str, Any]:
    """The state's fields, containers copied, so a failed event can be rolled back."""
    snap: dict[str, Any] = {}
    for f in fields(state):
        v = getattr(state, f.name)
        if f.name == "entries":
            snap[f.name] = v
        elif isinstance(v, (dict, list, set)):
            snap[f.name] = type(v)(v)
        elif isinstance(v, Turn):
            snap[f.name] = replace(v, targets=list(v.targets), provoked=set(v.provoked), opportunity_by=set(v.opportunity_by))
        else:
            snap[f.name] = v
    return snap


def fold(events: list[Event], library: CardLibrary | None = None, upto: int | None = None, path: str = "the game log") -> GameState:
    check_shapes(path, events, SHAPES)
    undone = undone_seqs(events, upto)
    state: GameState | None = None
    for e in events:
        if upto is not None and e.seq > upto:
            break
        if e.kind == "setup":  # the first event, and the only setup (check_shapes)
            state = GameState(parse_position(e.data["position"], "game setup", _setup_library(e, library)))
            state.entries.append(Entry(e, 0, 0, _("setup: {what}").format(what=describe_setup(state.position))))
            continue
        assert state is not None
        if e.kind == "undo" or e.seq in undone:
            state.entries.append(Entry(e, state.round, state.phase, _describe_safely(state, e), undone=e.seq in undone))
            continue
        text = _describe_safely(state, e)
        snap = _snapshot(state)
        state.seq = e.seq
        try:
            said = apply(state, e.kind, e.data)
        except (AssistantError, KeyError, ValueError, TypeError, AttributeError) as exc:
            state.__dict__.update(snap)
            state.entries.append(Entry(e, state.round, state.phase, text, void=_void_reason(exc)))
            continue
        if e.override:
            said.append(_("override: {override}").format(override=e.override))
        state.entries.append(Entry(e, state.round, state.phase, "; ".join([text, *said])))
    assert state is not None
    state.seq = None
    if state.fallen:
        p = state.position
        state.position = Position(p.edition, p.map, p.figures, p.cards, {k: v.text(k) for k, v in state.fallen.items()})
    return state


def _setup_library(e: Event, library: CardLibrary | None) -> CardLibrary | None:
    """The library with the cards the game was started with (kept in the setup event)."""
    kept = e.data.get("cards")
    if not kept:
        return library
    from ..cards import cards_from_data
    from ..yamlio import YamlReadError, parse_yaml

    extra = []
    for item in kept if isinstance(kept, list) else ():
        if not isinstance(item, dict) or not isinstance(item.get("text"), str):
            continue
        try:
            data, lines, problems = parse_yaml(item["text"], str(item.get("file", "game cards")))
        except YamlReadError:
            continue
        got, _problems = cards_from_data(data, lines, str(item.get("file", "game cards")), problems)
        extra += got
    base = list(library.cards()) if library is not None else []
    return CardLibrary(base + extra)


def _void_reason(exc: BaseException) -> str:
    if isinstance(exc, AssistantError):
        return str(exc)
    if isinstance(exc, KeyError):
        return _("its data lacks {key}").format(key=exc)
    return _("its data cannot be applied ({exc})").format(exc=exc)


def _describe_safely(state: GameState, e: Event) -> str:
    try:
        return describe(state, e)
    except (KeyError, ValueError, TypeError, AttributeError):
        return f"{e.kind} (unreadable data)"


# --- applying events ---------------------------------------------------------------------


def _with_figure(pos: Position, fig: Figure | None, fid: str) -> Position:
    figs = tuple(f for f in pos.figures if f.id != fid)
    if fig is not None:
        figs = tuple((fig if f.id == fid else f) for f in pos.figures) if any(f.id == fid for f in pos.figures) else figs + (fig,)
    return Position(pos.edition, pos.map, figs, pos.cards)


def _set_figure(state: GameState, fig: Figure) -> None:
    state.position = _with_figure(state.position, fig, fig.id)


def apply(state: GameState, kind: str, data: dict[str, Any]) -> list[str]:
    """Apply one event; returns what followed from it (doors, defeats, points, the winner)."""
    said: list[str] = []
    if kind == "initiative":
        said += _end_turn(state)
        if state.round > 0:
            said += _end_of_round(state)
        state.round += 1
        state.first_side = str(data["first"])
        state.phase, state.phase_side, state.phase_activations = 1, state.first_side, 0
        state.intuition_used = set()
        for f in state.position.figures:
            _set_figure(state, replace(f, activated=False))
    elif kind == "activate":
        f = state.figure(data["figure"])
        said += _end_turn(state)
        if f.side != state.phase_side or state.phase_activations >= ACTIVATIONS_PER_PHASE:
            state.phase += 1  # a new phase: the other player's (or the same, when the other has run out)
            state.phase_side, state.phase_activations = f.side, 0
        state.phase_activations += 1
        _set_figure(state, replace(f, activated=True))
        state.active, state.turn = f.id, Turn(f.id)
    elif kind == "end-turn":
        said += _end_turn(state)
    elif kind == "move":
        f = state.figure(data["figure"])
        to = parse_square(data["to"])
        _set_figure(state, replace(f, at=to))
        if data.get("mode") == "intuition":  # before any activation; no turn of its own
            state.intuition_used.add(f.id)
        else:
            t = _turn_of(state, f.id)
            t.burrowed = t.burrowed or data.get("mode") == "burrow"
            t.trampled = t.trampled or bool(data.get("trample"))
            if isinstance(data.get("tow"), dict):
                ally = state.figure(str(data["tow"]["figure"]))
                _set_figure(state, replace(ally, at=parse_square(str(data["tow"]["to"]))))
                t.towed = True
            cost = int(data.get("cost", 0))
            if t.attacks:
                t.moved_after += cost
            else:
                t.moved_before += cost
            if "parity" in data:
                t.parity = int(data["parity"])
            t.provoked |= set(data.get("provokes", ()))
    elif kind == "attack":
        a = state.figure(data["attacker"])
        target = state.figure(data["target"])
        state.round_had_action = True
        for h in data.get("helpers", ()):
            _set_figure(state, replace(state.figure(h), activated=True))
        t = _turn_of(state, a.id)
        t.attacks += 1
        t.targets.append(target.id)
        said += _hit(state, a, target, data)
    elif kind == "opportunity":
        a = state.figure(data["attacker"])
        target = state.figure(data["target"])
        state.round_had_action = True
        if state.turn is not None:
            state.turn.opportunity_by.add(a.id)
        said += _hit(state, a, target, data)
    elif kind == "charge":
        f = state.figure(data["figure"])
        target = state.figure(data["target"])
        _set_figure(state, replace(f, at=parse_square(data["to"])))
        t = _turn_of(state, f.id)
        t.moved_before += int(data.get("cost", 0))
        t.charged, t.attacks = True, t.attacks + 1
        t.targets.append(target.id)
        state.round_had_action = True
        said += _hit(state, state.figure(f.id), target, data)
    elif kind == "damage":
        said += _damage(state, data["figure"], int(data["amount"]), data.get("by"), data.get("saves"))
    elif kind == "power":  # a Force power that hurts: it replaces the user's attacks (PL p.44-47)
        f = state.figure(data["figure"])
        t = _turn_of(state, f.id)
        if data.get("replaces") != "nothing":  # Drain Life, Sith Hatred: used besides the attacks
            t.attacks += 1
        t.targets.append(data["target"])
        if int(data["cost"]):  # a special ability (Grenades) spends no Force points
            now = state.position.stats_of(f).force or 0
            _set_figure(state, replace(f, stats=replace(f.stats, force=max(0, now - int(data["cost"])))))
        if int(data.get("heal", 0)):
            f = state.figure(f.id)
            _set_figure(state, replace(f, damage_taken=max(0, f.damage_taken - int(data["heal"]))))
        state.last_attacker = f.id
        state.round_had_action = True
        for hit in data["struck"]:
            if int(hit["damage"]) > 0 and hit["figure"] in {x.id for x in state.position.figures}:
                said += _damage(state, hit["figure"], int(hit["damage"]), f.id)
    elif kind == "heal":
        f = state.figure(data["figure"])
        _set_figure(state, replace(f, damage_taken=max(0, f.damage_taken - int(data["amount"]))))
        said.append(_hp_text(state, state.figure(f.id)))
    elif kind == "force":
        f = state.figure(data["figure"])
        now = state.position.stats_of(f).force or 0
        _set_figure(state, replace(f, stats=replace(f.stats, force=max(0, now + int(data["delta"])))))
    elif kind == "condition":
        f = state.figure(data["figure"])
        conds = set(f.conditions)
        (conds.add if data["add"] else conds.discard)(str(data["condition"]))
        _set_figure(state, replace(f, conditions=tuple(sorted(conds))))
    elif kind == "door":
        e = parse_edge(data["edge"])
        m = state.position.map
        opened = m.open_doors | {e} if data["open"] else m.open_doors - {e}
        state.position = Position(state.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, state.position.cards)
    elif kind == "place":
        pos = state.position
        spec = yaml.safe_dump({"format": "tabletop-position/1", "rules": pos.edition.value, "map": {"cols": pos.map.cols, "rows": pos.map.rows}, "figures": [data["figure"]]})
        fig = parse_position(spec, "place", CardLibrary(list(pos.cards.values()))).figures[0]
        state.position = _with_figure(state.position, fig, fig.id)
        state.fallen.pop(fig.id, None)
    elif kind == "relocate":  # a correction from outside the rules (a photo, a judge): no move is checked
        f = state.figure(data["figure"])
        _set_figure(state, replace(f, at=parse_square(data["at"])))
    elif kind == "embark":  # SWM Desert Skiff: the passenger leaves the map and rides with the skiff
        f = state.figure(data["figure"])
        state.aboard[f.id] = (f, str(data["skiff"]))
        state.position = _with_figure(state.position, None, f.id)
        if state.active == f.id:
            state.active, state.turn = None, None
    elif kind == "disembark":
        f, _skiff = state.aboard.pop(str(data["figure"]))
        state.position = _with_figure(state.position, replace(f, at=parse_square(data["at"])), f.id)
    elif kind == "remove" and data["figure"] in state.aboard:
        state.aboard.pop(str(data["figure"]))
        state.fallen[str(data["figure"])] = Fallen(state.seq, state.round, None, "removed")
    elif kind == "remove":
        f = state.figure(data["figure"])
        state.position = _with_figure(state.position, None, f.id)
        state.fallen[f.id] = Fallen(state.seq, state.round, None, "removed")
        if state.active == f.id:
            state.active, state.turn = None, None
    elif kind == "flee":
        f = state.figure(data["figure"])
        said += _eliminate(state, f, data.get("by"), "fled off the map")
    elif kind == "morale":
        f = state.figure(data["figure"])
        state.morale_due.pop(f.id, None)
        state.morale_checked.add(f.id)
        if not data["held"]:
            conds = set(f.conditions) | {"routing"}
            _set_figure(state, replace(f, conditions=tuple(sorted(conds))))
            said.append(_("{id} routs: it moves double Speed toward its exit ({value})").format(id=f.id, value=state.turn_rules.cite('§ Ucieczka p.21-22')))
    elif kind == "end":
        said += _end_turn(state)
        said += _score_if_round_over(state)
        state.ended = str(data.get("reason") or "by the players")
        said.append(_final_words(state))
    elif kind == "note":
        pass
    else:
        raise ValueError(f"unknown event kind {kind!r}")
    w = state.winner()
    if w and state.announced_winner != w:
        state.announced_winner = w
        said.append(_("{side} wins").format(side=w) + f" ({state.turn_rules.cite(state.turn_rules.cite_victory)})")
    return said


def _turn_of(state: GameState, fid: str) -> Turn:
    """The turn of ``fid``; a judge's override on another figure gets a turn of its own."""
    if state.turn is None or state.turn.figure != fid:
        state.turn = Turn(fid)
        state.active = fid
    return state.turn


def _hit(state: GameState, a: Figure, target: Figure, data: dict[str, Any]) -> list[str]:
    state.last_attacker = a.id
    for fid, cost in (data.get("force_spent") or {}).items():  # a Force-costed save the defender made (Lightsaber Block, ...)
        f = state.figure(fid)
        now = state.position.stats_of(f).force or 0
        _set_figure(state, replace(f, stats=replace(f.stats, force=max(0, now - int(cost)))))
    if data.get("hit") and int(data.get("damage") or 0) > 0:
        return _damage(state, target.id, int(data["damage"]), a.id, data.get("saves"))
    return []


def _hp_text(state: GameState, f: Figure) -> str:
    hp = state.position.stats_of(f).hp
    if hp is None:
        return _("{figure} has taken {damage} damage (HP unknown)").format(figure=f.id, damage=f.damage_taken)
    return _("{figure} has {left} of {hp} HP left").format(figure=f.id, left=hp - f.damage_taken, hp=hp)


def _damage(state: GameState, fid: str, amount: int, by: str | None = None, saves: list[int] | None = None) -> list[str]:
    state.round_had_action = True
    f = state.figure(fid)
    by = by or state.last_attacker
    f = replace(f, damage_taken=f.damage_taken + amount)
    stats = state.position.stats_of(f)
    hp = stats.hp
    said: list[str] = []
    tr = state.turn_rules
    if tr.morale and hp is not None and fid not in state.morale_checked and 2 * (hp - f.damage_taken) < hp and f.damage_taken < hp:
        state.morale_checked.add(fid)  # once per battle, pass or fail
        if fearless(state.position, f):
            said.append(_("{fid} is below half its HP but Fearless: no morale save ({value})").format(fid=fid, value=tr.cite(tr.cite_morale)))
        else:
            due = _("morale save due (HP below half): d20 + Level {level} + the best commander rating in command range >= 20").format(
                level=stats.level if stats.level is not None else "?")
            state.morale_due[fid] = due
            said.append(f"{fid}: {due} ({tr.cite(tr.cite_morale)})")
    if hp is not None and f.damage_taken >= hp and _avoids_defeat(state, f, saves):
        f = replace(f, damage_taken=hp - 10)
        _set_figure(state, f)
        said.append(_("{figure} would be defeated, but its Avoid Defeat saves ({rolls}) both succeed: it stays with 10 Hit Points ({rule})").format(
            figure=fid, rolls=", ".join(map(str, saves or ())), rule=tr.cite("PL p.34; CS g.2")))
    elif hp is not None and f.damage_taken >= hp:
        if saves and has(stats.abilities or (), "Avoid Defeat"):
            said.append(_("{figure}'s Avoid Defeat saves ({rolls}): not both 11 or better").format(figure=fid, rolls=", ".join(map(str, saves))))
        said.append(_("{figure} takes {amount} damage ({taken} of {hp}): defeated").format(figure=fid, amount=amount, taken=f.damage_taken, hp=hp))
        said += _eliminate(state, f, by, "defeated")
    else:
        _set_figure(state, f)
        said.insert(0, _hp_text(state, f))
    return said


def _avoids_defeat(state: GameState, f: Figure, saves: list[int] | None) -> bool:
    """SWM Avoid Defeat: when it would be defeated, two saves of 11; both succeed and it stays with 10
    Hit Points (PL p.34; CS g.2). The two d20s are given with the damage (``--saves``)."""
    if state.position.edition is Edition.DDM2005 or not has(state.position.stats_of(f).abilities or (), "Avoid Defeat"):
        return False
    if saves is None or len(saves) != 2:
        raise AssistantError(_("{figure} has Avoid Defeat: this damage would defeat it, so give its two saves of 11 as rolled (--saves N,N)").format(figure=f.id))
    return all(r == 20 or (r != 1 and r >= 11) for r in saves)


def _eliminate(state: GameState, f: Figure, by: str | None, how: str) -> list[str]:
    """A figure leaves the game: defeated, or fled off the map (DDM: eliminated either way)."""
    state.position = _with_figure(state.position, None, f.id)
    state.defeated.append(f.id)
    state.fallen[f.id] = Fallen(state.seq, state.round, by, how)
    state.fallen_side[f.id] = f.side
    state.morale_due.pop(f.id, None)
    said: list[str] = [] if how == "defeated" else [f"{f.id} {how}: eliminated"]
    card = state.position.card_of(f)
    by_side = _side_of(state, by)
    sides = [s for s in state.sides() if s != f.side] or ([by_side] if by_side else [])
    scorer = by_side if by_side and by_side != f.side else (sides[0] if len(sides) == 1 else None)
    if scorer is not None and card is not None and card.cost is not None:
        state.vp[scorer] = state.vp.get(scorer, 0) + card.cost
        tr = state.turn_rules
        what = _("victory points") if tr.victory == "vp" else _("points toward the tie-break")
        said.append(_("{scorer} scores {cost} {what} for {id} (now {vp}) ({value})").format(scorer=scorer, cost=card.cost, what=what, id=f.id, vp=state.vp[scorer], value=tr.cite(tr.cite_elimination)))
    if state.active == f.id:
        state.active, state.turn = None, None
    carried = [p for p, (_fig, skiff) in state.aboard.items() if skiff == f.id]
    if carried:
        state.wrecks[f.id] = tuple(f.space)
        said.append(_("{skiff} carried {figures}: each is defeated with it unless it makes a save of 11; one that saves is placed next to where {skiff} stood (game disembark ID SQUARE; game remove ID for one that fails) ({rule})").format(
            skiff=f.id, figures=", ".join(carried), rule=cite_for(state.rules, "PL p.39")))
    return said


def _side_of(state: GameState, who: str | None) -> str | None:
    if who is None:
        return None
    if who in state.sides():
        return who
    try:
        return state.position.figure(who).side
    except (UnknownNameError, DepartedError):
        return state.fallen_side.get(who)


def fearless(pos: Position, f: Figure) -> bool:
    """DDM: Constructs, Oozes and Undead are Fearless (Living Constructs are not)."""
    from ..cards import DdmCard

    card = pos.card_of(f)
    words = " ".join([card.type or ""] if isinstance(card, DdmCard) else []).lower()
    words = words.replace("living construct", "")
    abilities = [a.lower() for a in pos.stats_of(f).abilities or ()]
    return (any(t in words for t in ("construct", "ooze", "undead"))
            or any(a.startswith(("fearless", "construct", "ooze", "undead")) and not a.startswith("living construct") for a in abilities))


def _end_of_round(state: GameState) -> list[str]:
    return _score_if_round_over(state, force=True)


def _score_if_round_over(state: GameState, force: bool = False) -> list[str]:
    """At the end of each round: DDM victory areas (10 VP for any of your creatures in one of
    your own), and the count of quiet rounds toward the 10-round tie-break (both games)."""
    if state.round == 0 or state.scored_round >= state.round:
        return []
    if not force and not (state.round_over() and state.active is None):
        return []
    state.scored_round = state.round
    said: list[str] = []
    tr = state.turn_rules
    if tr.victory == "vp":
        for side in state.sides():
            area = state.position.map.areas.get(f"victory_{side}")
            holders = [f.id for f in state.position.figures if f.side == side and area and any(sq in area for sq in f.space)]
            if holders:
                state.vp[side] = state.vp.get(side, 0) + 10
                said.append(_("end of round {round}: {side} scores 10 VP for its victory area ({names}), now {vp} ({value})").format(round=state.round, side=side, names=', '.join(holders), vp=state.vp[side], value=tr.cite('§ Scenariusz starcia p.28')))
    state.quiet_rounds = 0 if state.round_had_action else state.quiet_rounds + 1
    state.round_had_action = False
    if state.quiet_rounds >= 10:
        said.append(_("10 rounds without an attack or damage: the game ends on the tie-break ({value})").format(value=tr.cite(tr.cite_tie_break)))
    return said


def _final_words(state: GameState) -> str:
    w = state.winner()
    if w:
        return _("the game ends: {winner} has won").format(winner=w)
    pts = ", ".join(f"{s} {v}" for s, v in sorted(state.vp.items(), key=lambda kv: -kv[1])) or _("no points")
    leaders = [s for s, v in state.vp.items() if v == max(state.vp.values(), default=0)] if state.vp else []
    lead = _("; {side} leads on points").format(side=leaders[0]) if len(leaders) == 1 else (_("; tied on points") if leaders else "")
    return _("the game ends ({why}): points {points}{lead} ({rule})").format(
        why=state.ended, points=pts, lead=lead, rule=state.turn_rules.cite(state.turn_rules.cite_tie_break))


def _end_turn(state: GameState) -> list[str]:
    """End the active figure's turn; SWM doors open or close by who stands next to them."""
    if state.active is None:
        return []
    state.active, state.turn = None, None
    said: list[str] = []
    tr = state.turn_rules
    if tr.doors_follow_occupancy:
        m = state.position.map
        occupied = {s for f in state.position.figures for s in f.space}
        opened = {door for door in m.doors if any(sq in occupied for sq in door.squares)}
        for door in sorted(opened - m.open_doors, key=lambda d: d.name):
            said.append(_("door {door} opens").format(door=door.name) + f" ({tr.cite(tr.cite_doors)})")
        for door in sorted(m.open_doors - opened, key=lambda d: d.name):
            said.append(_("door {door} closes").format(door=door.name) + f" ({tr.cite(tr.cite_doors)})")
        if frozenset(opened) != m.open_doors:
            state.position = Position(state.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, state.position.cards)
    said += _score_if_round_over(state)
    return said


# --- what may happen next ------------------------------------------------------------------


def check(state: GameState, kind: str, data: dict[str, Any]) -> list[Reason]:
    """Why this command is refused now (empty: allowed). Unknown or fallen figures raise."""
    from . import referee

    return referee.check(state, kind, data)


# --- words for the log ------------------------------------------------------------------------


def describe_setup(pos: Position) -> str:
    figures = ", ".join(_("{figure} ({side}) at {at}").format(figure=f.id, side=f.side, at=f.at.name) for f in pos.figures)
    return _("{edition}, {cols} x {rows}, figures {figures}").format(edition=pos.edition.value, cols=pos.map.cols, rows=pos.map.rows, figures=figures)


def _roll_text(d: dict[str, Any]) -> str:
    if not d.get("hit"):
        return _("roll {roll} needs {needs} -> misses").format(roll=d.get("roll"), needs=d.get("needs"))
    if d.get("damage"):
        text = _("roll {roll} needs {needs} -> critical hit for {damage} damage") if d.get("critical") else \
            _("roll {roll} needs {needs} -> hits for {damage} damage")
    else:
        text = _("roll {roll} needs {needs} -> critical hit") if d.get("critical") else _("roll {roll} needs {needs} -> hits")
    return text.format(roll=d.get("roll"), needs=d.get("needs"), damage=d.get("damage"))


def describe(state: GameState, e: Event) -> str:
    d = e.data
    k = e.kind
    if k == "initiative":
        parts = []
        for i, rr in enumerate(d.get("rerolls") or ()):
            parts.append(_("roll {value}: ").format(value=i + 1) + ", ".join(f"{s} {rr[s]}" for s in state.sides() if s in rr) + _(" (tied: reroll)"))
        ratings = d.get("ratings") or {}
        totals = d.get("totals") or d.get("rolls", {})
        raw = d.get("rolls") or {}
        order = [s for s in state.sides() if s in raw] + [s for s in raw if s not in state.sides()]
        rolls = ", ".join(
            f"{s} {raw[s]}" + (_(" + commander {rating} = {total}").format(rating=ratings[s], total=totals.get(s, raw[s])) if ratings.get(s) else "")
            for s in order)
        parts.append(rolls)
        text = _("round {round}: initiative ({rolls}); {winner} wins, {first} goes first").format(
            round=state.round + 1, rolls="; ".join(parts), winner=d["winner"], first=d["first"])
        if d.get("tie_break"):
            text += "; " + _("tie broken: {how}").format(how=d["tie_break"])
        return text
    if k == "activate":
        return _("{figure} activates").format(figure=d["figure"])
    if k == "end-turn":
        return _("end of turn")
    if k == "move":
        path = " " + _("via {path}").format(path=" → ".join(d["path"])) if d.get("path") and len(d["path"]) > 2 else ""
        prov = ("; " + _("leaves {figures}'s reach: attack of opportunity possible").format(figures=", ".join(d["provokes"]))
                if d.get("provokes") else "")
        how = {"burrow": "; " + _("underground (Burrow)"), "intuition": "; " + _("Intuition, before any activation")}.get(str(d.get("mode")), "")
        if d.get("trample"):
            how += "; " + _("tramples {figures}").format(figures=", ".join(d["trample"]))
        if isinstance(d.get("tow"), dict):
            how += "; " + _("tows {figure} to {to} (Tow Cable)").format(figure=d["tow"].get("figure"), to=d["tow"].get("to"))
        return _("{figure} moves to {to} ({squares}{path}){provokes}").format(
            figure=d["figure"], to=d["to"], squares=count_squares(d.get("cost", "?")), path=path, provokes=prov) + how
    if k == "attack":
        if d.get("helpers"):
            return _("{attacker} attacks {target} with combined fire from {helpers}: {roll}").format(
                attacker=d["attacker"], target=d["target"], helpers=", ".join(d["helpers"]), roll=_roll_text(d))
        return _("{attacker} attacks {target}: {roll}").format(attacker=d["attacker"], target=d["target"], roll=_roll_text(d))
    if k == "opportunity":
        return _("{attacker} makes an attack of opportunity on {target}: {roll}").format(
            attacker=d["attacker"], target=d["target"], roll=_roll_text(d))
    if k == "charge":
        return _("{figure} charges {target}, moving to {to} ({squares}), +2 on its attack: {roll}").format(
            figure=d["figure"], target=d["target"], to=d["to"], squares=count_squares(d.get("cost", "?")), roll=_roll_text(d))
    if k == "power":
        struck = ", ".join(f"{h['figure']} {h['damage']}" for h in d["struck"])
        return _("{figure} uses {power} on {target} ({cost} Force points): {struck}").format(
            figure=d["figure"], power=d["power"], target=d["target"], cost=d["cost"], struck=struck)
    if k == "damage":
        if d.get("by"):
            return _("{figure} takes {amount} damage from {by}").format(figure=d["figure"], amount=d["amount"], by=d["by"])
        return _("{figure} takes {amount} damage").format(figure=d["figure"], amount=d["amount"])
    if k == "heal":
        return _("{figure} heals {amount}").format(figure=d["figure"], amount=d["amount"])
    if k == "force":
        return _("{figure} Force {delta}").format(figure=d["figure"], delta=f"{int(d['delta']):+d}")
    if k == "condition":
        text = _("{figure} gains condition {condition}") if d["add"] else _("{figure} loses condition {condition}")
        return text.format(figure=d["figure"], condition=d["condition"])
    if k == "door":
        text = _("door {edge} opened by hand") if d["open"] else _("door {edge} closed by hand")
        return text.format(edge=d["edge"])
    if k == "place":
        return _("{figure} placed at {at}").format(figure=d["figure"].get("id"), at=d["figure"].get("at"))
    if k == "relocate":
        return _("{figure} set to {at} ({source})").format(figure=d["figure"], at=d["at"], source=d.get("source", _("correction")))
    if k == "embark":
        return _("{figure} boards {skiff} (Desert Skiff)").format(figure=d["figure"], skiff=d["skiff"])
    if k == "disembark":
        return _("{figure} disembarks at {at}").format(figure=d["figure"], at=d["at"])
    if k == "remove":
        return _("{figure} removed").format(figure=d["figure"])
    if k == "flee":
        if d.get("by"):
            return _("{figure} flees off the map (caused by {by})").format(figure=d["figure"], by=d["by"])
        return _("{figure} flees off the map").format(figure=d["figure"])
    if k == "morale":
        parts = [f"d20 {d['roll']}", f"Level {d.get('level', 0)}"]
        if d.get("commander"):
            parts.append(_("commander {d}").format(d=d['commander']) + (f" ({d['commander_by']})" if d.get("commander_by") else ""))
        verdict = _("holds") if d["held"] else _("fails")
        nat = " " + _("(natural 20)") if d["roll"] == 20 else " " + _("(natural 1)") if d["roll"] == 1 else ""
        return _("{figure} morale save: {parts} = {total} vs 20{natural}: {verdict}").format(
            figure=d["figure"], parts=" + ".join(parts), total=d.get("total"), natural=nat, verdict=verdict)
    if k == "end":
        return _("end of the game") + (f": {d['reason']}" if d.get("reason") else "")
    if k == "note":
        return _("judge's note: {text}").format(text=d["text"])
    if k == "undo":
        return _("undo of event {seq}").format(seq=d["seq"])
    return k
