"""A side has its colour in every picture, whatever order the position file lists its figures in
(a new user's trial, round 15): colours went by the order of first appearance, so a game whose
file listed a dark figure first drew its light figures in red on the phone and the PNG, and in the
dark side's style on the terminal board, where the next game drew them blue."""

from __future__ import annotations

import re

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from assistant.cli.board import figure_labels
from assistant.cli.picture import draw
from assistant.model import Position
from assistant.position.load import parse_position
from assistant.svg import board_svg

TABLE = """\
format: tabletop-position/1
rules: swm2008
map: {{cols: 8, rows: 8}}
figures:
{figures}
"""
FIGURES = {
    "han": "  - {id: han, side: light, at: B2, stats: {hp: 10, defense: 10, attack: 5, damage: 10}}",
    "vader": "  - {id: vader, side: dark, at: F6, stats: {hp: 10, defense: 10, attack: 5, damage: 10}}",
    "leia": "  - {id: leia, side: light, at: B6, stats: {hp: 10, defense: 10, attack: 5, damage: 10}}",
}


def _position(order: list[str]) -> Position:
    return parse_position(TABLE.format(figures="\n".join(FIGURES[name] for name in order)))


def _svg_fill(pos: Position, figure: str) -> str:
    svg = board_svg(pos)
    found = re.search(rf'data-figure="{figure}".*?fill="(#[0-9a-f]{{6}})"', svg, re.S)
    assert found, svg[:400]
    return found.group(1)


def _png_colour(pos: Position, figure: str) -> tuple[int, ...]:
    """The picture's colour at the middle of the figure's square."""
    img = draw(pos)
    f = pos.figure(figure)
    h, w = img.shape[:2]
    y, x = int((f.at.row + 0.5) * h / pos.map.rows), int((f.at.col + 0.5) * w / pos.map.cols)
    return tuple(int(v) for v in np.asarray(img)[y, x])


@given(st.permutations(["han", "vader", "leia"]))
def test_each_side_has_one_colour_whatever_order_the_file_lists_its_figures(order: list[str]) -> None:
    light_first = _position(["han", "vader", "leia"])
    pos = _position(order)
    assert pos.sides_to_colour() == ["light", "dark"]  # the order the pictures use
    for figure in ("han", "vader"):
        assert _svg_fill(pos, figure) == _svg_fill(light_first, figure)
        assert figure_labels(pos)[figure].style == figure_labels(light_first)[figure].style
    assert _svg_fill(pos, "han") != _svg_fill(pos, "vader")


def test_the_pictures_colour_a_side_the_same_when_dark_is_listed_first() -> None:
    light_first, dark_first = _position(["han", "vader"]), _position(["vader", "han"])
    assert _png_colour(dark_first, "han") == _png_colour(light_first, "han")
    assert _png_colour(dark_first, "vader") == _png_colour(light_first, "vader")


def test_sides_other_than_light_and_dark_keep_their_order_of_appearance() -> None:
    pos = parse_position(TABLE.format(figures="\n".join([
        "  - {id: x, side: b, at: B2, stats: {hp: 10, defense: 10}}", "  - {id: y, side: a, at: F6, stats: {hp: 10, defense: 10}}"])))
    assert pos.sides_to_colour() == ["b", "a"]
