"""Line of sight, cover, range, adjacency and nearest enemies on a :class:`Position`.

One engine for the three editions: everything in which they differ comes from the
edition's :class:`~assistant.rules.params.GeometryRules`. Every answer carries its
reasons, each with the rule (edition and seed section) it applies.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction as F
from itertools import product
from typing import TYPE_CHECKING, Any

from ..cards import split_ability
from ..coords import Corner, Edge, Square, count_squares
from ..editions import Edition, SquareTerrain
from ..errors import AssistantError
from ..geometry.core import Blockers, Contact, SquareT, convex_hull
from ..geometry.distance import between, ddm_distance_map, swm_distance_map
from ..geometry.fan import Source, fan, fan_sources, start_corner_crossing
from ..geometry.los import Segment, SightLine, any_point_sight, corner_sight
from ..i18n import N_, _, n_, source_names, term
from ..model import Figure, Position
from .record import find_edition

if TYPE_CHECKING:  # the edition records load on the first lookup, not with the engine
    from .params import GeometryRules

#: abilities and conditions that change who sees or covers whom; the geometry here does
#: not apply them, so an answer involving a figure that has one says so.
SIGHT_ABILITIES = frozenset(
    {
        "blind", "blindsight", "invisible", "invisibility", "hide", "cloaked", "stealth", "sniper",
        "hologram", "light spirit", "frozen in carbonite", "recon", "advantageous cover", "accurate shot",
        "melee reach", "flight", "desert skiff",
    }
)


@dataclass(frozen=True)
class Reason:
    text: str
    rule: str

    def as_json(self) -> dict[str, str]:
        return {"text": self.text, "rule": self.rule}


def condition_refusals(pos: Position, f: Figure, what: str) -> list[Reason]:
    """The conditions of the edition's list (reading R163's record) that stop ``f`` moving
    (``what`` "move") or attacking ("attack": an attack, a charge, a power), as one reason."""
    rec = find_edition(pos.edition)
    rules = {c: rec.conditions[c] for c in f.conditions if c in rec.conditions}
    stopped = sorted(c for c, r in rules.items() if (r.no_move if what == "move" else r.no_attack))
    if not stopped:
        return []
    text = _("{f} cannot move ({conditions})") if what == "move" else _("{f} makes no attack ({conditions})")
    return [Reason(text.format(f=f.id, conditions=", ".join(stopped)), "; ".join(rec.cite(rules[c].rule) for c in stopped))]


def _pt(p: Any) -> list[float]:
    return [float(p[0]), float(p[1])]


def _fmt(v: Any) -> str:
    f = F(v)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}"


def fmt_point(p: Any) -> str:
    return f"[{_fmt(p[0])}, {_fmt(p[1])}]"


def point_name(p: Any) -> str:
    """Where a point of the board lies, as a player names it: the square it is in (``C8``), or
    the grid corner it is on (``C7.SE``).

    >>> point_name((F(5, 2), F(15, 2))), point_name((3, 7))
    ('C8', 'C7.SE')
    """
    x, y = F(p[0]), F(p[1])
    if x.denominator == 1 and y.denominator == 1:
        return Corner(int(x), int(y)).name
    return Square(max(0, math.floor(x)), max(0, math.floor(y))).name


@dataclass(frozen=True)
class SightAnswer:
    rules: Edition
    viewer: str
    target: str
    line_of_sight: bool
    witness: Segment | None
    reasons: tuple[Reason, ...]
    blocker: Contact | None = None
    not_modelled: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "los",
            "rules": self.rules.value,
            "from": self.viewer,
            "to": self.target,
            "line_of_sight": self.line_of_sight,
            "witness": [_pt(self.witness[0]), _pt(self.witness[1])] if self.witness else None,
            "witness_squares": [point_name(self.witness[0]), point_name(self.witness[1])] if self.witness else None,
            "reasons": [r.as_json() for r in self.reasons],
            "not_modelled": list(self.not_modelled),
        }


@dataclass(frozen=True)
class CoverAnswer:
    rules: Edition
    attacker: str
    target: str
    line_of_sight: bool
    cover: bool | None
    best_corner: tuple[int, int] | None
    sources: tuple[Source, ...]
    reasons: tuple[Reason, ...]
    #: "ranged" (the fan from a corner) or "melee" (DDM adjacent figures)
    kind: str = "ranged"
    #: every corner the attacker may choose, with what gives cover from it
    corners: tuple[tuple[tuple[int, int], tuple[Source, ...]], ...] = ()
    bonus: int = 0
    not_modelled: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "cover",
            "rules": self.rules.value,
            "attacker": self.attacker,
            "target": self.target,
            "line_of_sight": self.line_of_sight,
            "cover": self.cover,
            "best_corner": _pt(self.best_corner) if self.best_corner is not None else None,
            "sources": [{"kind": s.kind, "where": s.where} for s in self.sources],
            "reasons": [r.as_json() for r in self.reasons],
            "attack": self.kind,
            "defense_bonus": self.bonus,
            "not_modelled": list(self.not_modelled),
        }


@dataclass(frozen=True)
class RangeAnswer:
    rules: Edition
    a: str
    b: str
    squares: int | None
    adjacent: bool
    reasons: tuple[Reason, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "query": "range",
            "rules": self.rules.value,
            "from": self.a,
            "to": self.b,
            "squares": self.squares,
            "adjacent": self.adjacent,
            "reasons": [r.as_json() for r in self.reasons],
        }


# --- the board as geometry --------------------------------------------------------------


def _sq(s: Square) -> SquareT:
    return (s.col, s.row)


def _edge(e: Edge) -> tuple[int, int, str]:
    return (e.x, e.y, e.axis)


def edge_name(e: tuple[int, int, str]) -> str:
    return Edge(e[0], e[1], "H" if e[2] == "H" else "V").name


def square_name(s: SquareT) -> str:
    return Square(*s).name


@dataclass
class Board:
    """The position's geometry, computed once per position."""

    pos: Position
    rules: GeometryRules
    terrain: dict[SquareTerrain, frozenset[SquareT]] = field(default_factory=dict)
    edge_sources: dict[tuple[int, int, str], Source] = field(default_factory=dict)
    boundary: frozenset[tuple[int, int, str]] = frozenset()
    walls_only: Blockers = field(default_factory=Blockers)
    _sight_cache: dict[Any, Blockers] = field(default_factory=dict)
    _distance_cache: dict[str, dict[SquareT, int]] = field(default_factory=dict)
    #: each pair's line of sight, found once per board (a position's board lives as long as the
    #: position: a shell or the web app asks the same pair again, query after query)
    _line_cache: dict[tuple[Figure, Figure, bool], SightLine] = field(default_factory=dict)

    @classmethod
    def of(cls, pos: Position) -> Board:
        cached: Board | None = pos.__dict__.get("_board")
        if cached is not None:
            return cached
        rules = find_edition(pos.edition).geometry
        m = pos.map
        terrain = {k: frozenset(_sq(s) for s in v) for k, v in m.squares.items()}
        edge_sources: dict[tuple[int, int, str], Source] = {}
        for e in m.walls:
            edge_sources[_edge(e)] = Source("wall", e.name)
        for e in m.closed_doors():
            edge_sources[_edge(e)] = Source("door", e.name)
        boundary: set[tuple[int, int, str]] = set()
        if rules.boundary_is_wall:
            for x in range(m.cols):
                boundary |= {(x, 0, "H"), (x, m.rows, "H")}
            for y in range(m.rows):
                boundary |= {(0, y, "V"), (m.cols, y, "V")}
        walls = terrain.get(SquareTerrain.WALL, frozenset())
        open_pts = frozenset((c.x, c.y) for c in m.open_corners)
        walls_only = Blockers.build(walls, set(edge_sources) | boundary, open_pts)
        board = cls(pos, rules, terrain, edge_sources, frozenset(boundary), walls_only)
        pos.__dict__["_board"] = board
        return board

    def distances(self, f: Figure) -> dict[SquareT, int]:
        """Range from a figure's space to every square (one search per figure, cached)."""
        got = self._distance_cache.get(f.id)
        if got is None:
            walls = self.terrain.get(SquareTerrain.WALL, frozenset())
            search = _DISTANCE_MAPS[self.rules.metric]
            got = search(_space(f), self.pos.map.cols, self.pos.map.rows, walls, frozenset(self.edge_sources))
            self._distance_cache[f.id] = got
        return got

    def kind_of_square(self, sq: SquareT) -> str:
        for kind in (SquareTerrain.WALL, SquareTerrain.FOG, SquareTerrain.FOREST):
            if sq in self.terrain.get(kind, ()):
                return str(kind.value)
        return "square"

    def kind_text(self, sq: SquareT) -> str:
        return term(self.kind_of_square(sq))

    def sight_blockers(self, a: Figure, t: Figure, adjacent: bool) -> Blockers:
        r = self.rules
        extra: set[SquareT] = set()
        if SquareTerrain.FOG in r.sight_blocking and not (r.fog_ignored_when_adjacent and adjacent):
            extra |= self.terrain.get(SquareTerrain.FOG, frozenset())
        if SquareTerrain.FOREST in r.sight_blocking:
            forest = set(self.terrain.get(SquareTerrain.FOREST, frozenset()))
            if r.own_forest_transparent:
                forest -= {_sq(s) for s in a.space | t.space}
            extra |= forest
        if not extra:
            return self.walls_only
        key = frozenset(extra)
        blk = self._sight_cache.get(key)
        if blk is None:
            blk = self.walls_only.with_squares(extra)
            self._sight_cache[key] = blk
        return blk

    def describe(self, c: Contact | None) -> str:
        if c is None:
            return _("nothing")
        if c.kind == "square" and c.square is not None:
            return _("the {kind} square {square}").format(kind=self.kind_text(c.square), square=square_name(c.square))
        if c.kind == "edge" and c.edge is not None:
            return self._edge_text(c.edge)
        if c.kind == "corner" and c.point is not None:
            corner = Corner(*c.point).name
            if c.edge is not None:
                return _("the corner {corner} of {edge}").format(corner=corner, edge=self._edge_text(c.edge))
            if c.square is not None:
                return _("the corner {corner} of the {kind} square {square}").format(
                    corner=corner, kind=self.kind_text(c.square), square=square_name(c.square))
            return _("the corner {corner}").format(corner=corner)
        return _("an obstacle")  # pragma: no cover

    def _edge_text(self, e: tuple[int, int, str]) -> str:
        src = self.edge_sources.get(e)
        if src is not None:
            if src.kind == "door":
                return _("the closed door on {edge}").format(edge=src.where)
            return _("the wall on {edge}").format(edge=src.where)
        return _("the map edge at {edge}").format(edge=edge_name(e))


def _space(f: Figure) -> list[SquareT]:
    return sorted(_sq(s) for s in f.space)


def _touching(a: Figure, t: Figure) -> list[tuple[SquareT, SquareT]]:
    out = []
    for x, y in product(_space(a), _space(t)):
        if max(abs(x[0] - y[0]), abs(x[1] - y[1])) == 1:
            out.append((x, y))
    return out


def _not_modelled(pos: Position, *figs: Figure) -> tuple[str, ...]:
    out: list[str] = []
    for f in figs:
        abilities = pos.stats_of(f).abilities or ()
        for ab in abilities:
            name, _value = split_ability(ab)
            if name.lower() in SIGHT_ABILITIES:
                out.append(f"{f.id}: {ab}")
        for cond in f.conditions:
            if cond.lower() in SIGHT_ABILITIES:
                out.append(f"{f.id}: {cond}")
    return tuple(dict.fromkeys(out))


# --- adjacency --------------------------------------------------------------------------


def _local_sight(board: Board, a: SquareT, t: SquareT, blk: Blockers) -> SightLine:
    if board.rules.sight == "corner":
        return corner_sight([a], [t], blk)
    return any_point_sight(a, t, blk)


def adjacent(pos: Position, a: Figure, t: Figure) -> bool:
    """Next to each other (diagonals included) and not separated by a wall there."""
    board = Board.of(pos)
    return any(_local_sight(board, x, y, board.walls_only).clear for x, y in _touching(a, t))


# --- line of sight ----------------------------------------------------------------------


def _pair(pos: Position, a_id: str, b_id: str) -> tuple[Figure, Figure]:
    a, b = pos.figure(a_id), pos.figure(b_id)
    if a.id == b.id:
        raise AssistantError(_("{id!r} is named twice: ask about two different figures").format(id=a.id))
    return a, b


def sight(pos: Position, viewer: str, target: str) -> SightAnswer:
    a, t = _pair(pos, viewer, target)
    board = Board.of(pos)
    r = board.rules
    adj = adjacent(pos, a, t) if r.fog_ignored_when_adjacent else False
    result = board._line_cache.get((a, t, adj))
    if result is None:
        result = board._line_cache[(a, t, adj)] = _sight(board, a, t, board.sight_blockers(a, t, adj))
    reasons: list[Reason] = []
    words = find_edition(pos.edition).words
    if result.clear and result.witness is not None:
        (p, q) = result.witness
        if r.sight == "corner":
            text = _("the corner-to-corner line from {p} to {q} touches no wall").format(p=fmt_point(p), q=fmt_point(q))
        else:
            text = _(words.clear_line).format(p=fmt_point(p), a=a.id, q=fmt_point(q), t=t.id)
        reasons.append(Reason(text, r.sight_rule))
    else:
        if r.sight == "corner":
            text = _("no line from a corner of {a}'s space to a corner of {t}'s is clear; the shortest touches {blocker}").format(
                a=a.id, t=t.id, blocker=board.describe(result.blocker))
        else:
            text = _(words.blocked_line).format(a=a.id, t=t.id, blocker=board.describe(result.blocker))
        reasons.append(Reason(text, r.sight_rule))
    if r.sight_reading:
        reasons.append(Reason(_("reading: {reading}").format(reading=_(r.sight_reading)), r.sight_rule))
    if adj and board.terrain.get(SquareTerrain.FOG):
        reasons.append(Reason(_("fog does not block between adjacent creatures"),
                              r.cite("§ MGŁA I DYM p.25 (a creature in fog still sees the squares next to it)")))
    return SightAnswer(pos.edition, a.id, t.id, result.clear, result.witness, tuple(reasons), result.blocker, _not_modelled(pos, a, t))


def _sight(board: Board, a: Figure, t: Figure, blk: Blockers) -> SightLine:
    if board.rules.sight == "corner":
        return corner_sight(_space(a), _space(t), blk)
    pairs = sorted(product(_space(a), _space(t)), key=lambda p: (abs(p[0][0] - p[1][0]) + abs(p[0][1] - p[1][1]), p))
    first: SightLine | None = None
    for x, y in pairs:
        res = any_point_sight(x, y, blk)
        if res.clear:
            return res
        first = first or res
    assert first is not None
    return first


# --- cover ------------------------------------------------------------------------------


def _attacker_corners(a: Figure) -> list[tuple[int, int]]:
    n = a.size.footprint
    x0, y0 = a.at.col, a.at.row
    return [(x, y) for y in range(y0, y0 + n + 1) for x in range(x0, x0 + n + 1)]


def cover(
    pos: Position, attacker: str, target: str, los: SightAnswer | None = None, *,
    ignore_figures: bool = False, force_kind: str | None = None,
) -> CoverAnswer:
    """Cover for the attacker's best corner. ``ignore_figures``: only the target among the
    figures counts (Sniper). ``force_kind``: "melee" or "ranged" to choose the DDM rule
    (default: melee cover for adjacent figures, the ranged fan otherwise)."""
    a, t = _pair(pos, attacker, target)
    board = Board.of(pos)
    r = board.rules
    los = los or sight(pos, attacker, target)
    nm = _not_modelled(pos, a, t)
    if not los.line_of_sight:
        return CoverAnswer(
            pos.edition, a.id, t.id, False, None, None, (),
            (Reason(_("{a} has no line of sight to {t}, so cover does not arise").format(a=a.id, t=t.id), r.cover_rule),), not_modelled=nm,
        )
    is_adjacent = adjacent(pos, a, t)
    if is_adjacent and r.adjacent_never_covered:
        return CoverAnswer(
            pos.edition, a.id, t.id, True, False, _attacker_corners(a)[0], (),
            (Reason(_("{t} is adjacent to {a}: an adjacent enemy never has cover").format(t=t.id, a=a.id), r.adjacent_rule),), not_modelled=nm,
        )
    if is_adjacent and r.melee_cover and force_kind != "ranged":
        return _melee_cover(pos, board, a, t, nm)
    return _ranged_cover(pos, board, a, t, nm, ignore_figures)


def _occupant_cover(board: Board, a: Figure, t: Figure) -> list[Source]:
    """Terrain in the target's own space that covers it (DDM forest, SWM low objects), less the
    low objects the attacker shoots over (in or next to its own space)."""
    r = board.rules
    near = {(x + dx, y + dy) for (x, y) in _space(a) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    out = []
    for kind in r.occupant_cover:
        for sq in _space(t):
            if sq not in board.terrain.get(kind, frozenset()):
                continue
            if kind is SquareTerrain.LOW and r.low_objects_near_attacker_ignored and sq in near:
                continue
            out.append(Source(kind.value, square_name(sq)))
    return out


def _occupant_text(t: Figure, sources: list[Source]) -> str:
    kinds = sorted({s.kind for s in sources})
    where = ", ".join(s.where for s in sources)
    if kinds == ["forest"]:
        return _("{t} stands in forest").format(t=t.id)
    return _("{t} stands in a low-object square ({where}): low objects give cover to characters in them").format(t=t.id, where=where)


def _gives_no_cover(pos: Position, f: Figure) -> bool:
    """SWM 2008 Light Spirit "nie zapewnia ona osłony" (PL p.51)."""
    return find_edition(pos.edition).defines("Light Spirit") and any(a.strip().lower() == "light spirit" for a in pos.stats_of(f).abilities or ())


def _ranged_cover(pos: Position, board: Board, a: Figure, t: Figure, nm: tuple[str, ...], ignore_figures: bool = False) -> CoverAnswer:
    r = board.rules
    own = set(_space(a)) | set(_space(t))
    area: dict[SquareT, list[Source]] = {}
    near = {(x + dx, y + dy) for (x, y) in _space(a) for dx in (-1, 0, 1) for dy in (-1, 0, 1)}
    for kind in r.cover_squares:
        for sq in board.terrain.get(kind, frozenset()):
            if sq in own:
                continue
            if kind is SquareTerrain.LOW and r.low_objects_near_attacker_ignored and sq in near:
                continue
            area.setdefault(sq, []).append(Source(kind.value, square_name(sq)))
    for f in pos.figures:
        if f.id in (a.id, t.id) or ignore_figures or _gives_no_cover(pos, f):
            continue
        for sq in _space(f):
            area.setdefault(sq, []).insert(0, Source("figure", f.id))
    walls = board.terrain.get(SquareTerrain.WALL, frozenset())
    occupant = _occupant_cover(board, a, t)
    per_corner: list[tuple[tuple[int, int], tuple[Source, ...]]] = []
    crossings: dict[tuple[int, int], str] = {}
    for c in _attacker_corners(a):
        poly = fan(c, _space(t))
        found = fan_sources(poly, area, board.edge_sources)
        crossing = start_corner_crossing(c, poly, _space(a), walls, board.edge_sources, board.walls_only.open_points)
        if crossing is not None:
            src = board.edge_sources.get(crossing) if len(crossing) == 3 else Source("wall", square_name(crossing))
            if src is not None and src not in found:
                found.append(src)
            crossings[c] = src.where if src else "?"
        per_corner.append((c, tuple(found + [s for s in occupant if s not in found])))
    clear = [(c, s) for c, s in per_corner if not s]
    reasons: list[Reason] = []
    sources: tuple[Source, ...]
    if clear:
        best, sources = clear[0][0], ()
        reasons.append(Reason(
            _("from {a}'s corner {corner} no line to any point of {t}'s space passes through a wall, a figure "
              "or other cover (lines that only touch give none)").format(a=a.id, corner=fmt_point(best), t=t.id), r.cover_rule))
        covered = False
    else:
        best, sources = min(per_corner, key=lambda cs: (len(cs[1]), cs[0][1], cs[0][0]))
        names = source_names(sources)
        reasons.append(Reason(
            _("from every corner of {a}'s space some line to {t}'s space passes through cover; "
              "the best corner {corner} still has {names}").format(a=a.id, t=t.id, corner=fmt_point(best), names=names), r.cover_rule))
        if crossings:
            where = ", ".join(fmt_point(c) for c in sorted(crossings, key=lambda c: (c[1], c[0])))
            walls_named = ", ".join(sorted(set(crossings.values())))
            reasons.append(Reason(
                n_("the corner {where} lies on {walls}, which {a} stands behind: a shot from there would cross it, "
                   "so it gives no clear line",
                   "the corners {where} lie on {walls}, which {a} stands behind: a shot from there would cross it, "
                   "so it gives no clear line", len(crossings)).format(where=where, walls=walls_named, a=a.id),
                r.start_corner_rule))
        if occupant:
            reasons.append(Reason(_occupant_text(t, occupant), r.occupant_cover_rule))
        reasons.append(Reason(_("cover from several sources counts once"), r.cover_rule))
        covered = True
    if r.low_objects_near_attacker_ignored and any(sq in near for sq in board.terrain.get(SquareTerrain.LOW, ())):
        reasons.append(Reason(_("low objects in or next to {a}'s space are ignored").format(a=a.id), r.low_objects_rule))
    return CoverAnswer(
        pos.edition, a.id, t.id, True, covered, best, tuple(sources), tuple(reasons), "ranged", tuple(per_corner),
        r.cover_bonus if covered else 0, nm,
    )


def _melee_cover(pos: Position, board: Board, a: Figure, t: Figure, nm: tuple[str, ...]) -> CoverAnswer:
    r = board.rules
    walls = board.terrain.get(SquareTerrain.WALL, frozenset())
    area = {sq: [Source("melee-corner", square_name(sq))] for sq in walls}
    edges = {e: Source("melee-corner", s.where) for e, s in board.edge_sources.items()}
    pairs = [(x, y) for x, y in _touching(a, t) if _local_sight(board, x, y, board.walls_only).clear]
    per_pair = []
    for x, y in pairs:
        hull = convex_hull([(x[0], x[1]), (x[0] + 1, x[1]), (x[0], x[1] + 1), (x[0] + 1, x[1] + 1),
                            (y[0], y[1]), (y[0] + 1, y[1]), (y[0], y[1] + 1), (y[0] + 1, y[1] + 1)])
        found = fan_sources(hull, {k: v for k, v in area.items() if k not in (x, y)}, edges)
        per_pair.append(((x, y), tuple(found)))
    occupant = _occupant_cover(board, a, t)
    clear = [(p, s) for p, s in per_pair if not s]
    reasons = []
    sources: tuple[Source, ...]
    if clear and not occupant:
        (x, y), sources = clear[0][0], ()
        reasons.append(Reason(_("{a} attacks from {x} into {y}: no line between them passes through a wall").format(
            a=a.id, x=square_name(x), y=square_name(y)), r.melee_cover_rule))
        covered = False
    else:
        pick = clear[0] if clear else min(per_pair, key=lambda ps: len(ps[1]))
        (x, y), sources = pick
        sources = tuple(sources) + tuple(occupant)
        if pick[1]:
            reasons.append(Reason(_("{t} is around the corner or end of a wall from {a}: a line from {x} to {y} passes through {where}").format(
                t=t.id, a=a.id, x=square_name(x), y=square_name(y), where=pick[1][0].where), r.melee_cover_rule))
        if occupant:
            reasons.append(Reason(_occupant_text(t, occupant), r.occupant_cover_rule))
        covered = True
    return CoverAnswer(
        pos.edition, a.id, t.id, True, covered, None, tuple(sources), tuple(reasons), "melee", (),
        r.cover_bonus if covered else 0, nm,
    )


# --- range and nearest ------------------------------------------------------------------


def squares_between(pos: Position, a: Figure, b: Figure) -> int | None:
    """Range from a's space to b's (the minimum over their squares); None if unreachable."""
    return between(Board.of(pos).distances(a), _space(b))


#: how each metric counts squares (GeometryRules.metric), and how a range answer says so
_DISTANCE_MAPS = {"diagonal_2": swm_distance_map, "diagonal_1_2": ddm_distance_map}
_RANGE_WORDS = {
    "diagonal_2": N_("{squares} from {a} to {b}, counted as for movement: a diagonal counts 2, around walls and closed doors; terrain adds nothing"),
    "diagonal_1_2": N_("{squares} from {a} to {b}: diagonals count 1, 2, 1, 2; through wall corners but around wall ends"),
}


def range_between(pos: Position, a_id: str, b_id: str) -> RangeAnswer:
    a, b = _pair(pos, a_id, b_id)
    r = Board.of(pos).rules
    n = squares_between(pos, a, b)
    adj = adjacent(pos, a, b)
    if n is None:
        text = _("no route of squares joins {a} and {b} without passing a wall").format(a=a.id, b=b.id)
    else:
        text = _(_RANGE_WORDS[r.metric]).format(squares=count_squares(n), a=a.id, b=b.id)
    reasons = [Reason(text, r.range_rule)]
    reasons.append(Reason((_("{a} and {b} are adjacent") if adj else _("{a} and {b} are not adjacent")).format(a=a.id, b=b.id), r.adjacency_rule))
    return RangeAnswer(pos.edition, a.id, b.id, n, adj, tuple(reasons))


def nearest_enemies(
    pos: Position, fig_id: str, skip: Callable[[Figure, SightAnswer], bool] | None = None,
) -> tuple[int | None, list[str]]:
    """The closest enemies in line of sight (all of them when tied) and their range.

    ``skip(enemy, sight)`` leaves out enemies that never count as nearest (Stealth,
    Invisibility, Hide, ... -- decided by the attack rules, not here)."""
    f = pos.figure(fig_id)
    best: int | None = None
    out: list[str] = []
    for e in pos.figures:
        if e.side == f.side:
            continue
        s = sight(pos, f.id, e.id)
        if not s.line_of_sight or (skip is not None and skip(e, s)):
            continue
        d = squares_between(pos, f, e)
        if d is None:
            continue
        if best is None or d < best:
            best, out = d, [e.id]
        elif d == best:
            out.append(e.id)
    return best, out


def matrix(pos: Position) -> list[dict[str, Any]]:
    """Every ordered pair: line of sight (with witness), cover and range, as CONTRACT §3."""
    rows: list[dict[str, Any]] = []
    sights: dict[tuple[str, str], SightAnswer] = {}
    ranges: dict[frozenset[str], int | None] = {}
    for a in pos.figures:
        for b in pos.figures:
            if a.id == b.id:
                continue
            key = (b.id, a.id)
            if key in sights:
                rev = sights[key]
                w = (rev.witness[1], rev.witness[0]) if rev.witness else None
                s = SightAnswer(rev.rules, a.id, b.id, rev.line_of_sight, w, rev.reasons, rev.blocker, rev.not_modelled)
            else:
                s = sight(pos, a.id, b.id)
            sights[(a.id, b.id)] = s
            c = cover(pos, a.id, b.id, s) if s.line_of_sight else None
            rk = frozenset((a.id, b.id))
            if rk not in ranges:
                ranges[rk] = squares_between(pos, a, b)
            rows.append({
                "from": a.id,
                "to": b.id,
                "line_of_sight": s.line_of_sight,
                "witness": [_pt(s.witness[0]), _pt(s.witness[1])] if s.witness else None,
                "cover": c.cover if c else None,
                "best_corner": _pt(c.best_corner) if c and c.best_corner is not None else None,
                "range": ranges[rk],
            })
    return rows
