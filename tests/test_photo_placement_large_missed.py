"""A Large figure's base the photo shows is found, not reported unseen (R150).

Hand-made score maps (each square's probability of holding a base) and Large rims (each 2 x 2
block centre's :func:`assistant.photo.bases.rim_strength`, n = 2) stand for the photo's readings;
the position handed in plays the record, out of date. Drawn from the diagnosis photos' failures
without the reference: s0468 (lava; a Large base at A1:B2 under its broad body read 0.60, 0.16,
0.01, 0.20, its centre's rim 0.19 the clearest on the map; printed lava read as bases elsewhere,
so the roster's count read A1 away and the block was left with no square read: the figure was
reported not seen, four squares missed).
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.placement import COUNT_READ, place

COLS = ROWS = 12


def record(*figs: tuple[str, str, Size]) -> Position:
    return Position(Edition.SWM2008, Map(COLS, ROWS), tuple(Figure(i, "light", parse_square(at), size) for i, at, size in figs))


def scores(on: dict[str, float], empty: float = 0.02) -> dict[str, float]:
    return {Square(c, r).name: empty for c in range(COLS) for r in range(ROWS)} | on


def large_rims(on: dict[str, float], bare: float = 0.04) -> dict[str, float]:
    return {Square(c, r).name: bare for c in range(COLS - 1) for r in range(ROWS - 1)} | on


#: s0468's readings, drawn: the Large base at A1 read on A1 alone (doubtful), lava art read as
#: bases on five squares (doubtful, likelier than A1), two Medium bases sure; the roster covers 6
ART = {"F6": 0.80, "H8": 0.75, "J3": 0.70, "C10": 0.66, "K11": 0.64}


def test_a_large_base_whose_one_read_square_the_count_read_away_is_found_by_its_rim() -> None:
    """The count reads A1 (0.60) away among the doubtful squares before the blocks are sought; its
    block then has no square read, and the rim's block asks for one. Seen again, the block with
    the clearest Large rim on the map (0.19) is the Large figure's, named there, doubtful (listed)."""
    pos = record(("big", "E4", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    p = scores({"A1": 0.60, "A2": 0.16, "B1": 0.01, "B2": 0.20, "B8": 0.97, "K2": 0.96} | ART)
    placed = place(pos, p, [], set(), large_rims=large_rims({"A1": 0.19, "D3": 0.128}))
    named = {s.id: s for s in placed.figures}
    assert not placed.not_seen
    assert named["big"].at == "A1" and named["big"].confidence <= COUNT_READ
    assert {"A1", "B1", "A2", "B2"} <= set(placed.occupied)
    assert named["a"].at == "B8" and named["b"].at == "K2"


def test_the_clearest_rim_is_taken_not_the_block_with_more_art_read() -> None:
    """Lava art at D3:E4 reads 0.58, 0.57, read away by the count with A1. Seen again, its block
    scores higher on its squares (two read) than the base's block (one): the squares say little
    either way, the rim is the base's round plastic; the clearest rim (0.19 against the art's
    faint 0.13) is the Large base."""
    pos = record(("big", "E4", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    art = {"D3": 0.58, "E4": 0.57, "F6": 0.80, "H8": 0.72, "J3": 0.70, "C10": 0.66}
    p = scores({"A1": 0.60, "A2": 0.16, "B1": 0.01, "B2": 0.20, "B8": 0.97, "K2": 0.96} | art)
    placed = place(pos, p, [], set(), large_rims=large_rims({"A1": 0.19, "D3": 0.13}))
    assert {s.id: s.at for s in placed.figures}.get("big") == "A1"


def test_without_a_clear_rim_the_block_seen_again_is_not_taken() -> None:
    """The control: the same squares, no Large rim anywhere (0.04): a doubtful square read away is
    as likely art; the Large figure is reported not seen rather than named onto it."""
    pos = record(("big", "E4", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    p = scores({"A1": 0.60, "A2": 0.16, "B1": 0.01, "B2": 0.20, "B8": 0.97, "K2": 0.96} | ART)
    placed = place(pos, p, [], set(), large_rims=large_rims({}))
    assert list(placed.not_seen) == ["big"]
