"""Checked movement: the cheapest legal path for a figure, with its edition's costs and its
movement abilities (Flight, Wall Climber, Stable Footing, Hologram, Incorporeal ...).

A turn's movement is checked step by step as the players record it; DDM's 1-2-1-2 diagonal
count runs over the whole turn, so each route starts from the parity the turn has reached.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..abilities import has
from ..coords import Square
from ..editions import SquareTerrain
from ..geometry.distance import search
from ..i18n import _
from ..model import Figure, Position
from ..rules.record import find_edition
from .turns import TURN_RULES


@dataclass(frozen=True)
class Route:
    """A checked move: its cost, the path, the DDM diagonal parity after it; or why not."""

    cost: int | None
    text: str
    path: tuple[Square, ...] = ()
    parity: int = 0
    notes: tuple[str, ...] = ()


def movement_cost(pos: Position, f: Figure, to: Square) -> tuple[int | None, str]:
    """The cheapest path's cost for a figure on its own (no turn so far), and its words."""
    r = route(pos, f, to)
    return r.cost, r.text


def _wall_neighbourhood(pos: Position) -> set[tuple[int, int]]:
    """Squares next to a wall (a wall square around them, or a wall edge on their boundary)."""
    m = pos.map
    out: set[tuple[int, int]] = set()
    for s in m.squares.get(SquareTerrain.WALL, frozenset()):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                out.add((s.col + dx, s.row + dy))
    for e in m.walls:
        if e.axis == "H":
            out |= {(e.x, e.y - 1), (e.x, e.y)}
        else:
            out |= {(e.x - 1, e.y), (e.x, e.y)}
    return out


@dataclass(frozen=True)
class Mover:
    """How one figure moves on this board: its step costs and where it may not end."""

    step: Callable[[tuple[int, int], tuple[int, int], int], tuple[int, int] | None]
    end_problem: Callable[[Square], str | None]
    notes: tuple[str, ...]
    flier: bool
    slow: frozenset[tuple[int, int]]
    pits: frozenset[tuple[int, int]]


def mover(pos: Position, f: Figure, *, burrow: bool = False, trample: bool = False, flight: bool = False, leap: bool = False) -> Mover:
    """SWM: orthogonal 1, diagonal 2, entering low objects or difficult terrain doubles; DDM:
    diagonals 1-2-1-2, difficult terrain and statues 2 (3 diagonally). Never through walls,
    closed doors, pits or enemies (Flight and its kin excepted); no diagonal step past a
    wall's corner; allies are passed, not shared.

    ``burrow`` (DDM Burrow): underground, ignoring the surface's terrain, walls and enemies;
    ``trample`` (DDM Trample): through the squares of smaller enemies; ``flight``: Flight
    granted for this move (SWM Tow Cable); ``leap``: SWM Force Leap used this turn, through enemies."""
    m = pos.map
    tr = TURN_RULES[pos.edition]
    alternating = find_edition(pos.edition).geometry.metric == "diagonal_1_2"  # DDM; else 2 each
    cite = tr.cite(tr.cite_movement)
    abilities = tuple(pos.stats_of(f).abilities or ())
    known = [a for a in tr.movement_abilities if has(abilities, a)]
    flier = flight or any(a in known for a in ("Flight", "Light Spirit"))
    climber = "Wall Climber" in known
    through_enemies = flier or leap or "Hologram" in known
    incorporeal = "Incorporeal" in known
    steady = "Stable Footing" in known
    walls = {(s.col, s.row) for s in m.squares.get(SquareTerrain.WALL, frozenset())}
    pits = {(s.col, s.row) for s in m.squares.get(SquareTerrain.PIT, frozenset())}
    statues = {(s.col, s.row) for s in m.squares.get(SquareTerrain.STATUE, frozenset())}
    slow_kinds = (SquareTerrain.LOW, SquareTerrain.DIFFICULT, SquareTerrain.FOREST, SquareTerrain.RISKY, SquareTerrain.SPIKE_STONES, SquareTerrain.STATUE)
    slow = {(s.col, s.row) for k in slow_kinds for s in m.squares.get(k, frozenset())}
    blocking = {(e.x, e.y, e.axis) for e in m.blocking_edges()}
    wall_points = {p for (x, y, a) in blocking for p in ((x, y), (x + 1, y) if a == "H" else (x, y + 1))}
    for s in walls:
        wall_points |= {(s[0], s[1]), (s[0] + 1, s[1]), (s[0], s[1] + 1), (s[0] + 1, s[1] + 1)}
    wall_points -= {(c.x, c.y) for c in m.open_corners}
    enemy_figs = [e for e in pos.figures if e.side != f.side]
    occupied_by_enemy = {(s.col, s.row) for e in enemy_figs for s in e.space}
    enemies = occupied_by_enemy
    if trample:
        enemies = {(s.col, s.row) for e in enemy_figs if e.size.rank >= f.size.rank for s in e.space}
    if incorporeal:
        enemies = {(s.col, s.row) for e in enemy_figs if has(pos.stats_of(e).abilities or (), "Incorporeal") for s in e.space}
    friends = {(s.col, s.row) for e in pos.figures if e.side == f.side and e.id != f.id for s in e.space}
    near_wall = _wall_neighbourhood(pos) if climber else set()

    def end_problem(to: Square) -> str | None:
        goal = (to.col, to.row)
        if not m.on_map(to):
            return _("{square} is off the map").format(square=to.name)
        if goal in walls:
            return _("{square} is a wall square").format(square=to.name) + f" ({cite})"
        if goal in pits and not (flier and tr.flier_may_end_on_pit):
            text = (_("{square} is a pit square: Flight crosses pits but must end on a legal square") if flier
                    else _("{square} is a pit square"))
            return text.format(square=to.name) + f" ({tr.cite(tr.cite_flight) if flier else cite})"
        if goal in statues and tr.statue_no_end:
            return _("{square} is a statue: no creature may end its move there").format(square=to.name) + f" ({tr.cite(tr.cite_statue)})"
        if goal in occupied_by_enemy or goal in friends:
            return _("{square} is occupied").format(square=to.name)
        return None

    def flying(sq: tuple[int, int], nb: tuple[int, int]) -> bool:
        return flier or (climber and sq in near_wall and nb in near_wall)

    def underground(sq: tuple[int, int], nb: tuple[int, int], par: int) -> tuple[int, int] | None:
        if sq[0] != nb[0] and sq[1] != nb[1]:
            return ((2 if par else 1), 1 - par) if alternating else (2, 0)
        return 1, par

    def step(sq: tuple[int, int], nb: tuple[int, int], par: int) -> tuple[int, int] | None:
        fly = flying(sq, nb)
        if nb in walls or (nb in pits and not fly) or (nb in enemies and not (fly or through_enemies)):
            return None
        is_slow = nb in slow and not fly and not steady
        if sq[0] != nb[0] and sq[1] != nb[1]:
            if (max(sq[0], nb[0]), max(sq[1], nb[1])) in wall_points:
                return None  # no diagonal step past the corner or end of a wall
            if alternating:
                return (3, par) if is_slow else ((2 if par else 1), 1 - par)
            return (4 if is_slow else 2), 0
        e = (max(sq[0], nb[0]), sq[1], "V") if sq[0] != nb[0] else (sq[0], max(sq[1], nb[1]), "H")
        if e in blocking:
            return None
        return (2 if is_slow else 1), par

    notes = tuple(_("{ability} applied").format(ability=a) + f" ({tr.cite(tr.cite_flight) if a == 'Flight' else tr.cite('glossary ' + a)})" for a in known)
    if burrow:
        return Mover(underground, end_problem, (), False, frozenset(), frozenset())
    return Mover(step, end_problem, notes, flier, frozenset(slow | statues), frozenset(pits))


def route(pos: Position, f: Figure, to: Square, parity: int = 0, **how: bool) -> Route:
    """The cheapest legal path for ``f`` to ``to`` (see :func:`mover`, whose keywords ``how``
    passes on), the DDM diagonal count starting from ``parity``."""
    tr = TURN_RULES[pos.edition]
    if f.size.footprint != 1:
        return Route(None, _("moves of Large and bigger figures are not checked here: only a judge's override records them"))
    mv = mover(pos, f, **how)
    problem = mv.end_problem(to)
    if problem:
        return Route(None, problem)
    best, prev, reached = search_from((f.at.col, f.at.row), parity, pos.map.cols, pos.map.rows, mv.step, (to.col, to.row))
    if reached is None:
        return Route(None, _("no path from {start} to {to} (walls, pits or enemies in the way)").format(start=f.at.name, to=to.name)
                     + f" ({tr.cite(tr.cite_movement)})")
    d = best[reached]
    path = [reached[0]]
    key = reached
    while key in prev:
        key = prev[key]
        path.append(key[0])
    squares = tuple(Square(*p) for p in reversed(path))
    names = " → ".join(s.name for s in squares)
    return Route(d, _("cheapest path {path} costs {cost}").format(path=names, cost=d), squares, reached[1], mv.notes)


def reach(pos: Position, f: Figure, parity: int = 0) -> dict[tuple[int, int], int]:
    """The cost of the cheapest path to every square the figure can step onto (ends not checked)."""
    mv = mover(pos, f)
    best, _found, _paths = search_from((f.at.col, f.at.row), parity, pos.map.cols, pos.map.rows, mv.step, None)
    out: dict[tuple[int, int], int] = {}
    for (sq, _par), d in best.items():
        if sq not in out or d < out[sq]:
            out[sq] = d
    return out


def search_from(start: tuple[int, int], parity: int, cols: int, rows: int, step: Any, goal: tuple[int, int] | None) -> Any:
    """The cheapest-path search with the turn's diagonal parity so far (DDM 1-2-1-2).

    Of the goal's states at equal cost the search reaches parity 0 first -- the one whose next
    diagonal costs 1, never worse for the rest of the turn, which a later step carries on ("Licz
    parzyste przekątne jako 2 pola, nawet jeśli pomiędzy pojawia się ruch po prostej", reading R51
    in docs/readings.md). The turn's own parity is the search's, never flipped: a flipped search
    (its parity 0 standing for the turn's 1) took the unfavourable state of equal cost, so an
    orthogonal detour could reset the count."""
    return search([start], cols, rows, step, goal, start_parity=parity)
