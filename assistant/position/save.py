"""Writing positions as canonical ``tabletop-position/1`` YAML.

The output is canonical: terrain in the contract's order, squares merged into ranges,
edges merged into runs, defaults left out. Loading what :func:`dump_position` wrote gives
an equal :class:`~assistant.model.Position` (a Hypothesis property test checks this).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..coords import format_edges, format_squares
from ..editions import SquareTerrain
from ..model import Figure, Position
from ..yamlio import dump_yaml, write_text_atomic
from .format import FORMAT


def position_to_data(pos: Position) -> dict[str, Any]:
    m = pos.map
    game_map: dict[str, Any] = {}
    if m.name is not None:
        game_map["name"] = m.name
    game_map["cols"] = m.cols
    game_map["rows"] = m.rows
    squares = {k.value: format_squares(m.squares[k]) for k in SquareTerrain if m.squares.get(k)}
    if squares:
        game_map["squares"] = squares
    edges = {}
    if m.walls:
        edges["wall"] = format_edges(m.walls)
    if m.doors:
        edges["door"] = format_edges(m.doors)
    if edges:
        game_map["edges"] = edges
    if m.open_doors:
        game_map["open_doors"] = format_edges(m.open_doors)
    if m.open_corners:
        game_map["open_corners"] = [c.name for c in sorted(m.open_corners, key=lambda c: (c.y, c.x))]
    if m.areas:
        game_map["areas"] = {name: format_squares(sqs) for name, sqs in m.areas.items()}
    return {
        "format": FORMAT,
        "rules": pos.edition.value,
        "map": game_map,
        "figures": [figure_to_data(f) for f in pos.figures],
    }


def figure_to_data(f: Figure) -> dict[str, Any]:
    out: dict[str, Any] = {"id": f.id}
    if f.card is not None:
        out["card"] = f.card
        if f.card_set:  # the set it was read from: the same name in another set may differ
            out["set"] = f.card_set
    out["side"] = f.side
    out["at"] = f.at.name
    out["size"] = f.size.value
    if f.damage_taken:
        out["damage_taken"] = f.damage_taken
    if f.activated:
        out["activated"] = True
    stats = f.stats.given()
    if stats:
        out["stats"] = stats
    if f.marker is not None:
        out["marker"] = f.marker
    if f.conditions:
        out["conditions"] = list(f.conditions)
    return out


def dump_position(pos: Position) -> str:
    return dump_yaml(position_to_data(pos))


def save_position(pos: Position, path: Path | str) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half of one."""
    write_text_atomic(path, dump_position(pos))
