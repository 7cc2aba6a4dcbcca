"""The game state as a fold of the log's events, and the rules a new event must pass.

``fold(events)`` replays every event that is not undone. ``check(state, kind, data)``
returns the reasons (with rules) a command is refused; a judge may record it anyway as an
override with a reason. The sequence follows ``shared/rules/swm.md`` §9 and ``ddm.md`` §9:
initiative each round, phases of two activations alternating between the players (a side
that has run out of figures passes), combined-fire helpers activated without counting
against the phase, the SWM door rule at the end of every turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from ..cards import CardLibrary
from ..coords import Square, parse_edge, parse_square
from ..editions import Edition, SquareTerrain
from ..geometry.distance import search
from ..model import Figure, Position
from ..position import parse_position
from ..rules.engine import Reason
from .store import Event

ACTIVATIONS_PER_PHASE = 2


@dataclass(frozen=True)
class Entry:
    """One applied event with where it happened in the game, for the log and the export."""

    event: Event
    round: int
    phase: int
    text: str


@dataclass
class GameState:
    position: Position
    round: int = 0
    phase: int = 0
    phase_side: str | None = None
    phase_activations: int = 0
    first_side: str | None = None
    active: str | None = None
    moved: dict[str, int] = field(default_factory=dict)  # squares of movement this turn, by figure
    entries: list[Entry] = field(default_factory=list)
    defeated: list[str] = field(default_factory=list)
    #: victory points by side (DDM: eliminations and victory areas; SWM: the tie-break total)
    vp: dict[str, int] = field(default_factory=dict)
    #: DDM morale saves that came due (HP first below half), with the formula
    morale_due: list[str] = field(default_factory=list)
    morale_checked: set[str] = field(default_factory=set)
    #: consecutive finished rounds with no attack and no damage (tie-break at 10)
    quiet_rounds: int = 0
    round_had_action: bool = False
    last_attacker_side: str | None = None

    def winner(self) -> str | None:
        """DDM: the first side to 200 VP; SWM: the last side with figures standing."""
        if self.rules is Edition.DDM2005:
            reached = [s for s, v in self.vp.items() if v >= 200]
            return reached[0] if reached else None
        standing = {f.side for f in self.position.figures}
        return next(iter(standing)) if len(standing) == 1 and self.round > 0 else None

    @property
    def rules(self) -> Edition:
        return self.position.rules

    def cite(self, where: str) -> str:
        return f"{self.rules.value} {where}"

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


# --- applying events ---------------------------------------------------------------------


def _with_figure(pos: Position, fig: Figure | None, fid: str) -> Position:
    figs = tuple(f for f in pos.figures if f.id != fid)
    if fig is not None:
        figs = tuple((fig if f.id == fid else f) for f in pos.figures) if any(f.id == fid for f in pos.figures) else figs + (fig,)
    return Position(pos.rules, pos.map, figs, pos.cards)


def _set_figure(state: GameState, fig: Figure) -> None:
    state.position = _with_figure(state.position, fig, fig.id)


def fold(events: list[Event], library: CardLibrary | None = None, upto: int | None = None) -> GameState:
    # only undos made by then count: a replay shows the game as it was after event ``upto``
    undone = {e.data["seq"] for e in events if e.kind == "undo" and (upto is None or e.seq <= upto)}
    state: GameState | None = None
    for e in events:
        if upto is not None and e.seq > upto:
            break
        if e.kind == "setup":
            state = GameState(parse_position(e.data["position"], "game setup", library))
            state.entries.append(Entry(e, 0, 0, "setup: " + describe_setup(state.position)))
            continue
        assert state is not None, "a game starts with its setup event"
        if e.kind == "undo" or e.seq in undone:
            state.entries.append(Entry(e, state.round, state.phase, describe(state, e) + (" [undone]" if e.seq in undone else "")))
            continue
        text = describe(state, e)
        apply(state, e.kind, e.data)
        state.entries.append(Entry(e, state.round, state.phase, text + (f" [override: {e.override}]" if e.override else "")))
    if state is None:
        raise ValueError("an empty game log")
    return state


def apply(state: GameState, kind: str, data: dict[str, Any]) -> None:
    pos = state.position
    if kind == "initiative":
        _end_turn(state)
        if state.round > 0:
            _end_of_round(state)
        state.round += 1
        state.first_side = data["first"]
        state.phase, state.phase_side, state.phase_activations = 1, data["first"], 0
        for f in pos.figures:
            _set_figure(state, replace(f, activated=False))
    elif kind == "activate":
        _end_turn(state)
        f = state.position.figure(data["figure"])
        if f.side != state.phase_side or state.phase_activations >= ACTIVATIONS_PER_PHASE:
            state.phase += 1  # a new phase: the other player's (or the same, when the other has run out)
            state.phase_side, state.phase_activations = f.side, 0
        state.phase_activations += 1
        _set_figure(state, replace(f, activated=True))
        state.active, state.moved = f.id, {}
    elif kind == "end-turn":
        _end_turn(state)
    elif kind == "move":
        f = state.position.figure(data["figure"])
        _set_figure(state, replace(f, at=parse_square(data["to"])))
        state.moved[f.id] = state.moved.get(f.id, 0) + int(data.get("cost", 0))
    elif kind == "attack":
        state.round_had_action = True
        state.last_attacker_side = state.position.figure(data["attacker"]).side
        for h in data.get("helpers", ()):
            _set_figure(state, replace(state.position.figure(h), activated=True))
        if data.get("damage"):
            _damage(state, data["target"], int(data["damage"]))
    elif kind == "damage":
        _damage(state, data["figure"], int(data["amount"]))
    elif kind == "heal":
        f = state.position.figure(data["figure"])
        _set_figure(state, replace(f, damage_taken=max(0, f.damage_taken - int(data["amount"]))))
    elif kind == "force":
        f = state.position.figure(data["figure"])
        now = state.position.stats_of(f).force or 0
        _set_figure(state, replace(f, stats=replace(f.stats, force=max(0, now + int(data["delta"])))))
    elif kind == "condition":
        f = state.position.figure(data["figure"])
        conds = set(f.conditions)
        (conds.add if data["add"] else conds.discard)(data["condition"])
        _set_figure(state, replace(f, conditions=tuple(sorted(conds))))
    elif kind == "door":
        e = parse_edge(data["edge"])
        m = state.position.map
        opened = m.open_doors | {e} if data["open"] else m.open_doors - {e}
        state.position = Position(pos.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, pos.cards)
    elif kind == "place":
        spec = yaml.safe_dump({"format": "tabletop-position/1", "rules": pos.rules.value, "map": {"cols": pos.map.cols, "rows": pos.map.rows}, "figures": [data["figure"]]})
        fig = parse_position(spec, "place", CardLibrary(list(pos.cards.values()))).figures[0]
        state.position = _with_figure(state.position, fig, fig.id)
    elif kind == "relocate":  # a correction from outside the rules (a photo, a judge): no move is checked
        f = state.position.figure(data["figure"])
        _set_figure(state, replace(f, at=parse_square(data["at"])))
    elif kind == "remove":
        state.position = _with_figure(state.position, None, data["figure"])
    elif kind == "note":
        pass
    else:  # pragma: no cover - commands only write known kinds
        raise ValueError(f"unknown event kind {kind!r}")


def _damage(state: GameState, fid: str, amount: int) -> None:
    state.round_had_action = True
    f = state.position.figure(fid)
    f = replace(f, damage_taken=f.damage_taken + amount)
    stats = state.position.stats_of(f)
    hp = stats.hp
    if state.rules is Edition.DDM2005 and hp is not None and fid not in state.morale_checked and 2 * (hp - f.damage_taken) < hp and f.damage_taken < hp:
        state.morale_checked.add(fid)  # once per battle, pass or fail (ddm.md §8.5)
        fearless = any(x.lower().startswith(("fearless", "construct", "ooze", "undead")) for x in stats.abilities or ())
        if not fearless:
            state.morale_due.append(f"{fid}: morale save due (HP below half): d20 + Level {stats.level if stats.level is not None else '?'} "
                                    f"+ the best commander rating in command range >= 20")
    if hp is not None and f.damage_taken >= hp:
        state.position = _with_figure(state.position, None, fid)
        state.defeated.append(fid)
        card = state.position.card_of(f)
        sides = state.sides() or []
        scorer = state.last_attacker_side if state.last_attacker_side and state.last_attacker_side != f.side else (
            next((s for s in sides if s != f.side), None) if len(sides) <= 2 else None)
        if scorer is not None and card is not None and card.cost is not None:
            state.vp[scorer] = state.vp.get(scorer, 0) + card.cost
        if state.active == fid:
            state.active = None
    else:
        _set_figure(state, f)


def _end_of_round(state: GameState) -> None:
    """DDM victory areas (10 VP a round for any creature in one of your own, ddm.md §9.6), and
    the count of quiet rounds toward the 10-round tie-break (both games)."""
    if state.rules is Edition.DDM2005:
        for side in state.sides():
            area = state.position.map.areas.get(f"victory_{side}")
            if area and any(sq in area for f in state.position.figures if f.side == side for sq in f.space):
                state.vp[side] = state.vp.get(side, 0) + 10
    state.quiet_rounds = 0 if state.round_had_action else state.quiet_rounds + 1
    state.round_had_action = False


def _end_turn(state: GameState) -> None:
    """End the active figure's turn; SWM doors open or close by who stands next to them."""
    if state.active is None:
        return
    state.active, state.moved = None, {}
    if state.rules is Edition.DDM2005:
        return
    m = state.position.map
    occupied = {s for f in state.position.figures for s in f.space}
    opened = set()
    for door in m.doors:
        if any(sq in occupied for sq in door.squares):
            opened.add(door)
    if frozenset(opened) != m.open_doors:
        state.position = Position(state.position.rules, replace(m, open_doors=frozenset(opened)), state.position.figures, state.position.cards)


# --- what may happen next ------------------------------------------------------------------


def check(state: GameState, kind: str, data: dict[str, Any]) -> list[Reason]:
    """Why this command is refused now (empty: allowed)."""
    r = state.cite
    pos = state.position
    if kind == "initiative":
        if state.round > 0 and not state.round_over():
            left = [f.id for f in pos.figures if not f.activated]
            return [Reason(f"round {state.round} is not over: {', '.join(left)} may still activate", r("PL p.5-6; CS r.5 (a round ends when every character has activated)"))]
        return []
    if kind == "activate":
        if state.round == 0:
            return [Reason("roll initiative first: a round starts with initiative", r("PL p.5; CS r.5"))]
        f = _figure(pos, data["figure"])
        if f.activated:
            return [Reason(f"{f.id} has already activated this round", r("PL p.6; CS r.5"))]
        side = state.expected_side()
        if side is not None and f.side != side:
            return [Reason(f"it is {side}'s activation: each player activates up to {ACTIVATIONS_PER_PHASE} characters per phase, alternating", r("PL p.6, p.16; CS r.5"))]
        return []
    if kind == "move":
        f = _figure(pos, data["figure"])
        reasons = []
        if state.active != f.id:
            reasons.append(Reason(f"{f.id} is not the figure whose turn it is ({state.active or 'nobody'})", r("PL p.6; CS r.5")))
        cost, why = movement_cost(pos, f, parse_square(data["to"]))
        if cost is None:
            reasons.append(Reason(why, r("PL p.6-7, p.17, p.28; CS r.5-6, r.11") if pos.rules is not Edition.DDM2005 else r("§ Ruch p.10")))
        else:
            speed = pos.stats_of(f).speed or 6
            so_far = state.moved.get(f.id, 0)
            if so_far + cost > 2 * speed:
                reasons.append(Reason(f"{f.id} would move {so_far + cost} squares; its speed {speed} allows {2 * speed} in a turn without attacking ({why})", r("PL p.6, p.16; CS r.5")))
        return reasons
    if kind == "attack":
        a = _figure(pos, data["attacker"])
        reasons = []
        if state.active != a.id:
            reasons.append(Reason(f"{a.id} is not the figure whose turn it is ({state.active or 'nobody'})", r("PL p.6; CS r.5")))
        speed = pos.stats_of(a).speed or 6
        if state.moved.get(a.id, 0) > speed:
            reasons.append(Reason(f"{a.id} moved {state.moved[a.id]} squares, more than its speed {speed}: a double move leaves no attack", r("PL p.6, p.16; CS r.5")))
        return reasons
    if kind in ("damage", "heal", "force", "condition", "remove"):
        _figure(pos, data["figure"])
        return []
    if kind == "door":
        e = parse_edge(data["edge"])
        if e not in pos.map.doors:
            return [Reason(f"{e.name} is not a door on this map", r("PL p.28; CS r.11"))]
        return []
    return []


def _figure(pos: Position, fid: str) -> Figure:
    return pos.figure(fid)


def movement_cost(pos: Position, f: Figure, to: Square) -> tuple[int | None, str]:
    """The cheapest path's cost for a 1x1 figure, and the path (or why there is none).

    SWM: orthogonal 1, diagonal 2, entering low objects or difficult terrain doubles; DDM:
    diagonals 1-2-1-2, difficult terrain and statues 2 (3 diagonally). Never through walls,
    closed doors, pits (Flight aside) or enemies; no diagonal step past a wall's corner; may
    pass allies but not stop on them.
    """
    m = pos.map
    if f.size.footprint != 1:
        return None, "moves of Large and bigger figures are not checked here (record them with --override)"
    if not m.on_map(to):
        return None, f"{to.name} is off the map"
    start = (f.at.col, f.at.row)
    goal = (to.col, to.row)
    walls = {(s.col, s.row) for s in m.squares.get(SquareTerrain.WALL, frozenset())}
    pits = {(s.col, s.row) for s in m.squares.get(SquareTerrain.PIT, frozenset())}
    slow_kinds = (SquareTerrain.LOW, SquareTerrain.DIFFICULT, SquareTerrain.FOREST, SquareTerrain.RISKY, SquareTerrain.SPIKE_STONES, SquareTerrain.STATUE)
    slow = {(s.col, s.row) for k in slow_kinds for s in m.squares.get(k, frozenset())}
    blocking = {(e.x, e.y, e.axis) for e in m.blocking_edges()}
    wall_points = {p for (x, y, a) in blocking for p in ((x, y), (x + 1, y) if a == "H" else (x, y + 1))}
    for s in walls:
        wall_points |= {(s[0], s[1]), (s[0] + 1, s[1]), (s[0], s[1] + 1), (s[0] + 1, s[1] + 1)}
    wall_points -= {(c.x, c.y) for c in m.open_corners}
    enemies = {(s.col, s.row) for e in pos.figures if e.side != f.side for s in e.space}
    friends = {(s.col, s.row) for e in pos.figures if e.side == f.side and e.id != f.id for s in e.space}
    if goal in walls or goal in pits:
        return None, f"{to.name} is a {'wall' if goal in walls else 'pit'} square"
    if goal in enemies or goal in friends:
        return None, f"{to.name} is occupied"
    ddm = pos.rules is Edition.DDM2005

    def step(sq: tuple[int, int], nb: tuple[int, int], par: int) -> tuple[int, int] | None:
        if nb in walls or nb in pits or nb in enemies:
            return None
        if sq[0] != nb[0] and sq[1] != nb[1]:
            if (max(sq[0], nb[0]), max(sq[1], nb[1])) in wall_points:
                return None  # no diagonal step past the corner or end of a wall
            if ddm:
                return (3, par) if nb in slow else ((2 if par else 1), 1 - par)
            return (4 if nb in slow else 2), 0
        e = (max(sq[0], nb[0]), sq[1], "V") if sq[0] != nb[0] else (sq[0], max(sq[1], nb[1]), "H")
        if e in blocking:
            return None
        return (2 if nb in slow else 1), par

    best, prev, reached = search([start], m.cols, m.rows, step, goal)
    if reached is not None:
        d = best[reached]
        path = [reached[0]]
        key = reached
        while key in prev:
            key = prev[key]
            path.append(key[0])
        names = " → ".join(Square(*p).name for p in reversed(path))
        return d, f"cheapest path {names} costs {d}"
    return None, f"no path from {f.at.name} to {to.name} (walls, pits or enemies in the way)"


# --- words for the log ------------------------------------------------------------------------


def describe_setup(pos: Position) -> str:
    return f"{pos.rules.value}, {pos.map.cols} x {pos.map.rows}, figures " + ", ".join(f"{f.id} ({f.side}) at {f.at.name}" for f in pos.figures)


def describe(state: GameState, e: Event) -> str:
    d = e.data
    k = e.kind
    if k == "initiative":
        rolls = ", ".join(f"{s} {n}" for s, n in d.get("rolls", {}).items())
        return f"round {state.round + 1}: initiative ({rolls}); {d['winner']} wins, {d['first']} goes first"
    if k == "activate":
        return f"{d['figure']} activates"
    if k == "end-turn":
        return "end of turn"
    if k == "move":
        return f"{d['figure']} moves to {d['to']} ({d.get('cost', '?')} squares)"
    if k == "attack":
        helpers = f" with combined fire from {', '.join(d['helpers'])}" if d.get("helpers") else ""
        result = "hits" if d.get("hit") else "misses"
        dmg = f" for {d['damage']} damage" if d.get("damage") else ""
        return f"{d['attacker']} attacks {d['target']}{helpers}: roll {d.get('roll')} needs {d.get('needs')} -> {result}{dmg}"
    if k == "damage":
        return f"{d['figure']} takes {d['amount']} damage"
    if k == "heal":
        return f"{d['figure']} heals {d['amount']}"
    if k == "force":
        return f"{d['figure']} Force {int(d['delta']):+d}"
    if k == "condition":
        return f"{d['figure']} {'gains' if d['add'] else 'loses'} condition {d['condition']}"
    if k == "door":
        return f"door {d['edge']} {'opened' if d['open'] else 'closed'}"
    if k == "place":
        return f"{d['figure'].get('id')} placed at {d['figure'].get('at')}"
    if k == "relocate":
        return f"{d['figure']} set to {d['at']} ({d.get('source', 'correction')})"
    if k == "remove":
        return f"{d['figure']} removed"
    if k == "note":
        return f"judge's note: {d['text']}"
    if k == "undo":
        return f"undo of event {d['seq']}"
    return k
