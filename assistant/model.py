"""The board model: frozen value objects and one state class, :class:`Position`.

Nothing here reads files; :mod:`assistant.position` turns a position file into these
objects (and back) and is the only place that knows the file format.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from .coords import Corner, Edge, Square
from .editions import Edition, Size, SquareTerrain
from .errors import AssistantError, UnknownNameError
from .stats import Stats

if TYPE_CHECKING:  # pragma: no cover
    from .cards import Card


@dataclass(frozen=True)
class Map:
    """A battle map: ``cols`` x ``rows`` squares with terrain on squares and edges.

    Door state lives here too: ``open_doors`` is a subset of ``doors``; every other door
    is closed.
    """

    cols: int
    rows: int
    name: str | None = None
    squares: Mapping[SquareTerrain, frozenset[Square]] = field(default_factory=dict)
    walls: frozenset[Edge] = frozenset()
    doors: frozenset[Edge] = frozenset()
    open_doors: frozenset[Edge] = frozenset()
    open_corners: frozenset[Corner] = frozenset()
    areas: Mapping[str, frozenset[Square]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Drop empty terrain lists so that equality does not depend on how a file spelt "none".
        object.__setattr__(
            self, "squares", MappingProxyType({k: v for k, v in self.squares.items() if v})
        )
        object.__setattr__(self, "areas", MappingProxyType(dict(self.areas)))
        index: dict[Square, frozenset[SquareTerrain]] = {}
        for kind, squares in self.squares.items():
            for sq in squares:
                index[sq] = index.get(sq, frozenset()) | {kind}
        object.__setattr__(self, "_terrain_index", index)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Map):
            return NotImplemented
        return all(getattr(self, f.name) == getattr(other, f.name) for f in fields(self))

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> tuple[type[Map], tuple[Any, ...]]:
        # Pickled (the position cache) as the arguments that build it: a read-only mapping cannot
        # be pickled, and the terrain index is rebuilt from them.
        return Map, tuple(dict(v) if isinstance(v, MappingProxyType) else v for v in (getattr(self, f.name) for f in fields(self)))

    def on_map(self, sq: Square) -> bool:
        return 0 <= sq.col < self.cols and 0 <= sq.row < self.rows

    def terrain(self, sq: Square) -> frozenset[SquareTerrain]:
        """Every square-terrain kind on ``sq`` (empty for clear floor)."""
        return self._terrain_index.get(sq, frozenset())  # type: ignore[attr-defined]

    def closed_doors(self) -> frozenset[Edge]:
        return self.doors - self.open_doors

    def blocking_edges(self) -> frozenset[Edge]:
        """Edges that act as walls now: wall edges and closed doors."""
        return self.walls | self.closed_doors()


@dataclass(frozen=True)
class Figure:
    """One figure on the table.

    ``at`` is the north-west square of its space; ``size`` fixes the space's footprint.
    """

    id: str
    side: str
    at: Square
    size: Size = Size.MEDIUM
    card: str | None = None
    damage_taken: int = 0
    activated: bool = False
    stats: Stats = Stats()
    marker: int | None = None
    conditions: tuple[str, ...] = ()
    #: the set of its card (the same name is printed in several sets); None: a card of no set
    card_set: str | None = None

    @property
    def space(self) -> frozenset[Square]:
        """Every square the figure occupies."""
        n = self.size.footprint
        return frozenset(self.at.offset(dc, dr) for dc in range(n) for dr in range(n))

    def space_name(self) -> str:
        n = self.size.footprint
        if n == 1:
            return self.at.name
        return f"{self.at.name}:{self.at.offset(n - 1, n - 1).name}"


class DepartedError(AssistantError):
    """A figure named that has left the game (defeated, fled, removed)."""


def card_key(name: str, card_set: str | None) -> str:
    """How :attr:`Position.cards` keys a card: its name and its set, case-insensitively (one
    position may hold the Clone Trooper of two sets)."""
    return f"{name.lower()}\x1f{(card_set or '').lower()}"


#: what a position keeps of its own answers (rebuilt when needed, never pickled)
_MEMOS = frozenset({"_stats", "_board"})


@dataclass(eq=False)
class Position:
    """The state of one table: the rules edition in force, the map and the figures.

    >>> from assistant.coords import parse_square
    >>> p = Position(Edition.SWM2008, Map(cols=4, rows=4), (Figure("obi", "light", parse_square("B2")),))
    >>> p.figure("obi").at.name
    'B2'
    >>> p.figure_at(parse_square("B2")).id
    'obi'
    """

    #: the rules edition in force (the position file's ``rules:`` key)
    edition: Edition
    map: Map
    figures: tuple[Figure, ...] = ()
    #: stat cards the figures name, looked up when the position was loaded, by :func:`card_key`
    cards: Mapping[str, Card] = field(default_factory=dict, repr=False)
    #: figures that have left a game's table, with when and how (named instead of "unknown")
    departed: Mapping[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._by_id = {f.id: f for f in self.figures}
        self._by_square = {sq: f for f in self.figures for sq in f.space}
        # stats_of by figure id, for this very figure object: asked per figure per rule, thousands of
        # times an answer (the cards, like the figures, are not changed once a position is built)
        self._stats: dict[str, tuple[Figure, Stats]] = {}

    def __getstate__(self) -> dict[str, Any]:
        # the memos (stats_of's, the rules engine's board and its lines of sight) are rebuilt, not
        # pickled (the position cache; a pickle written before a memo existed)
        return {k: v for k, v in self.__dict__.items() if k not in _MEMOS}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update({k: v for k, v in state.items() if k not in _MEMOS})
        self._stats = {}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (self.edition, self.map, self.figures) == (other.edition, other.map, other.figures)

    def figure(self, figure_id: str) -> Figure:
        """The figure with this id; raises :class:`UnknownNameError` with close matches."""
        try:
            return self._by_id[figure_id]
        except KeyError:
            if figure_id in self.departed:
                raise DepartedError(self.departed[figure_id]) from None
            raise UnknownNameError("figure", figure_id, self._by_id) from None

    def figure_at(self, sq: Square) -> Figure | None:
        return self._by_square.get(sq)

    def sides(self) -> list[str]:
        """Sides in order of first appearance."""
        return list(dict.fromkeys(f.side for f in self.figures))

    def sides_to_colour(self) -> list[str]:
        """Sides in the order the pictures give them their colours: light first and dark second
        where the position has them, the others as they first appear. In order of appearance
        alone, a game whose file lists a dark figure first drew the light side in the dark side's
        colour (a new user's trial, round 15: red light figures on the phone, blue ones in the
        next game)."""
        named = [side for side in ("light", "dark") if side in self.sides()]
        return [*named, *(side for side in self.sides() if side not in named)]

    def card_of(self, fig: Figure) -> Card | None:
        return self.cards.get(card_key(fig.card, fig.card_set)) if fig.card else None

    def stats_of(self, fig: Figure) -> Stats:
        """Effective stats: the card's values with the file's inline ``stats:`` on top."""
        hit = self._stats.get(fig.id)
        if hit is not None and hit[0] is fig:
            return hit[1]
        card = self.card_of(fig)
        base = card.base_stats() if card is not None else Stats()
        stats = base.overlay(fig.stats)
        self._stats[fig.id] = (fig, stats)
        return stats
