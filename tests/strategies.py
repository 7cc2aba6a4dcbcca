"""Hypothesis strategies for legal positions of every edition."""

from __future__ import annotations

from hypothesis import strategies as st

from assistant.cards import default_library
from assistant.coords import Edge, Square
from assistant.editions import Edition, SquareTerrain
from assistant.model import Figure, Map, Position, Stats

# printable text without surrounding whitespace (ids and sides are stripped on load)
_word = st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1, max_size=12)
ids = st.from_regex(r"\A[A-Za-z0-9][A-Za-z0-9_.\-]{0,11}\Z")
free_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)


@st.composite
def maps(draw, edition: Edition, max_side: int = 14) -> Map:
    cols = draw(st.integers(1, max_side))
    rows = draw(st.integers(1, max_side))
    all_squares = [Square(c, r) for c in range(cols) for r in range(rows)]
    pick = st.sets(st.sampled_from(all_squares), max_size=min(8, len(all_squares)))
    squares: dict[SquareTerrain, frozenset[Square]] = {}
    for kind in edition.board.square_terrain:
        squares[kind] = frozenset(draw(pick))
    walls_sq = squares.get(SquareTerrain.WALL, frozenset())
    for kind in squares:
        if kind is not SquareTerrain.WALL:
            squares[kind] = squares[kind] - walls_sq
    v_edges = [Edge(x, y, "V") for x in range(cols + 1) for y in range(rows)]
    h_edges = [Edge(x, y, "H") for x in range(cols) for y in range(rows + 1)]
    edge_pick = st.sets(st.sampled_from(v_edges + h_edges), max_size=10)
    walls = frozenset(draw(edge_pick))
    doors = frozenset(draw(edge_pick)) - walls if edition.board.has_doors else frozenset()
    open_doors = frozenset(draw(st.sets(st.sampled_from(sorted(doors)), max_size=len(doors)))) if doors else frozenset()
    points = sorted({p for e in walls | doors for p in e.endpoints} | {c for s in walls_sq for c in s.corners()})
    open_corners = frozenset(draw(st.sets(st.sampled_from(points), max_size=4))) if points else frozenset()
    areas = draw(st.dictionaries(_word, pick.map(frozenset), max_size=3))
    areas = {k: v for k, v in areas.items() if v}
    name = draw(st.none() | free_text)
    return Map(cols, rows, name, squares, walls, doors, open_doors, open_corners, areas)


@st.composite
def positions(draw, edition: Edition | None = None) -> Position:
    edition = edition or draw(st.sampled_from(list(Edition)))
    game_map = draw(maps(edition))
    library = default_library()
    cards = library.cards(edition.game)
    rules = edition.board
    figures: list[Figure] = []
    occupied: set[Square] = set()
    used_ids: set[str] = set()
    used_markers: set[int] = set()
    blocking = game_map.blocking_edges()
    for _ in range(draw(st.integers(0, 6))):
        card = draw(st.none() | st.sampled_from(cards))
        size = card.size if card is not None and card.size is not None else draw(st.sampled_from(rules.sizes))
        n = size.footprint
        if n > game_map.cols or n > game_map.rows:
            continue
        at = Square(draw(st.integers(0, game_map.cols - n)), draw(st.integers(0, game_map.rows - n)))
        fig_id = draw(ids)
        fig = Figure(id=fig_id, side="x", at=at, size=size)
        space = fig.space
        inner = {e for sq in space for e in sq.edges() if all(s in space for s in e.squares)}
        if (
            fig_id in used_ids
            or space & occupied
            or any(k in game_map.terrain(sq) for sq in space for k in rules.no_standing)
            or inner & blocking
        ):
            continue
        stats = draw(
            st.builds(
                Stats,
                hp=st.none() | st.integers(1, 300),
                defense=st.none() | st.integers(0, 40),
                attack=st.none() | st.integers(-5, 30),
                damage=st.none() | st.integers(0, 60),
                speed=st.none() | st.integers(0, 12),
                force=st.none() | st.integers(0, 10),
                abilities=st.none() | st.lists(free_text, max_size=3).map(tuple),
            )
        )
        hp = (card.base_stats() if card else Stats()).overlay(stats).hp
        damage = draw(st.integers(0, hp - 1)) if hp else 0
        marker = draw(st.none() | st.integers(4, 49))
        if marker in used_markers:
            marker = None
        conditions = tuple(draw(st.lists(st.sampled_from(["stunned", "helpless", "routing", "carbonite"]), max_size=2, unique=True)))
        fig = Figure(
            id=fig_id, side=draw(_word), at=at, size=size, card=card.name if card else None, card_set=card.set if card else None,
            damage_taken=damage, activated=draw(st.booleans()), stats=stats, marker=marker, conditions=conditions,
        )
        figures.append(fig)
        occupied |= space
        used_ids.add(fig_id)
        if marker is not None:
            used_markers.add(marker)
    return Position(edition, game_map, tuple(figures))
