"""Coordinate notation (CONTRACT §1): every name parses, formats canonically and round-trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.coords import (
    Corner,
    Edge,
    Square,
    column_index,
    column_name,
    format_edges,
    format_squares,
    parse_corner,
    parse_edge,
    parse_edges,
    parse_square,
    parse_squares,
)
from assistant.errors import NotationError

cols = st.integers(0, 701)
rows = st.integers(0, 998)
squares = st.builds(Square, cols, rows)


@given(st.integers(0, 20000))
def test_column_names_round_trip(c: int) -> None:
    assert column_index(column_name(c)) == c


@given(squares)
def test_square_names_round_trip_in_any_case(sq: Square) -> None:
    assert parse_square(sq.name) == sq
    assert parse_square(sq.name.lower()) == sq


def test_contract_examples() -> None:
    assert parse_square("A1") == Square(0, 0)
    assert parse_square("c5") == parse_square("C5") == Square(2, 4)
    # D3.E is the segment [4,2]-[4,3], the same edge as E3.W
    e = parse_edge("D3.E")
    assert e == parse_edge("E3.W")
    assert [(c.x, c.y) for c in e.endpoints] == [(4, 2), (4, 3)]
    assert [x.name for x in parse_edges("D3:D7.E")] == ["D3.E", "D4.E", "D5.E", "D6.E", "D7.E"]
    assert parse_corner("D7.SE") == Corner(4, 7)
    assert len(parse_squares("A1:C3")) == 9
    assert parse_squares("C3:A1") == parse_squares("A1:C3")


@given(squares, st.sampled_from("NESW"))
def test_edge_names_round_trip_and_are_canonical(sq: Square, side: str) -> None:
    e = sq.edge(side)  # type: ignore[arg-type]
    assert parse_edge(e.name) == e
    # the other square's opposite side names the same edge
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[side]
    a, b = e.squares
    other = b if a == sq else a
    if other.col >= 0 and other.row >= 0:
        assert other.edge(opposite) == e  # type: ignore[arg-type]


@given(st.builds(Corner, st.integers(0, 702), st.integers(0, 999)))
def test_corner_names_round_trip(c: Corner) -> None:
    assert parse_corner(c.name) == c


@given(st.sets(st.builds(Square, st.integers(0, 12), st.integers(0, 12)), max_size=40))
def test_square_sets_format_and_parse_back(sqs: set[Square]) -> None:
    names = format_squares(sqs)
    back: set[Square] = set()
    for n in names:
        got = parse_squares(n)
        assert not (got & back), "ranges never overlap"
        back |= got
    assert back == sqs


@given(st.sets(st.builds(Edge, st.integers(0, 10), st.integers(0, 10), st.sampled_from("HV")), max_size=40))
def test_edge_sets_format_and_parse_back(edges: set[Edge]) -> None:
    back: set[Edge] = set()
    for n in format_edges(edges):
        back |= set(parse_edges(n))
    assert back == edges


@given(st.text(max_size=30))
def test_parsers_refuse_garbage_only_with_notation_error(text: str) -> None:
    for parse in (parse_square, parse_squares, parse_edge, parse_edges, parse_corner):
        try:
            parse(text)
        except NotationError as exc:
            assert str(exc)  # says what is wrong


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("A0", "not a square name"),
        ("1A", "not a square name"),
        ("A1:B2:C3", "not a square range"),
        ("D3.X", "one of N, E, S, W"),
        ("D3:F5.E", "share neither a row nor a column"),
        ("D7.SX", "one of NW, NE, SE, SW"),
    ],
)
def test_bad_names_say_why(text: str, fragment: str) -> None:
    parsers = {"A0": parse_square, "1A": parse_square, "A1:B2:C3": parse_squares, "D3.X": parse_edge, "D3:F5.E": parse_edges, "D7.SX": parse_corner}
    with pytest.raises(NotationError, match=fragment):
        parsers[text](text)


def test_non_text_is_refused() -> None:
    with pytest.raises(NotationError, match="must be written as text"):
        parse_square(5)
