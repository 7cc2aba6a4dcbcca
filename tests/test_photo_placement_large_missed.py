"""A Large figure's base the photo shows is found, not reported unseen (R110).

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


def test_a_large_base_under_its_body_read_empty_on_every_square_is_found_by_a_clear_rim() -> None:
    """s0459 (water): a Large figure's broad body over its whole block (L6:M7 on the photo, I6:J7 here), the squares read
    0.06, 0.02, 0.03, 0.20 -- no square as a base, so no block and no rimmed block (which asks
    for one square read) explained it, and it was reported not seen. Its centre's rim read 0.19,
    the art's clearest elsewhere 0.15: the base's round plastic is there; named, doubtful."""
    pos = record(("big", "H3", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    p = scores({"I6": 0.06, "J6": 0.02, "I7": 0.03, "J7": 0.20, "B8": 0.97, "K2": 0.96})
    placed = place(pos, p, [], set(), large_rims=large_rims({"I6": 0.19, "G2": 0.15, "C2": 0.126}))
    named = {s.id: s for s in placed.figures}
    assert not placed.not_seen and named["big"].at == "I6" and named["big"].confidence <= COUNT_READ
    assert {"I6", "J6", "I7", "J7"} <= set(placed.occupied) and "I6" in dict(placed.uncertain)
    assert any("every one of its squares reads as empty" in n for n in placed.notes)


def test_no_large_base_is_read_on_bare_squares_by_a_rim_art_shows_too() -> None:
    """The control: no square read, the clearest rim 0.15 (water's and lava's art show that much,
    printed rings more): the Large figure is reported not seen, never named onto the art."""
    pos = record(("big", "H3", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    p = scores({"I6": 0.06, "J6": 0.02, "I7": 0.03, "J7": 0.20, "B8": 0.97, "K2": 0.96})
    placed = place(pos, p, [], set(), large_rims=large_rims({"I6": 0.15, "G2": 0.15, "C2": 0.126}))
    assert list(placed.not_seen) == ["big"]


def test_a_rim_on_art_that_draws_rims_everywhere_names_no_large_base() -> None:
    """s0442 (a star field): bright stars on black draw a rim round every block centre (there the
    median 0.12, a tenth 0.21 or more; drawn here fainter, up to 0.115, a tenth 0.11 or more);
    a Large figure short, a bare block's 0.20 is the clearest. It stands out of the map's own rims
    by less than twice: the art's, no base -- the figure is reported not seen rather than named
    onto the stars (s0442: a bare block's 0.30 taken, four squares more wrong)."""
    pos = record(("big", "H3", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    p = scores({"I6": 0.06, "J6": 0.02, "I7": 0.03, "J7": 0.20, "B8": 0.97, "K2": 0.96})
    stars = {Square(c, r).name: 0.05 + 0.065 * ((3 * c + 5 * r) % 11) / 10 for c in range(COLS - 1) for r in range(ROWS - 1)}
    placed = place(pos, p, [], set(), large_rims=stars | {"I6": 0.20})
    assert list(placed.not_seen) == ["big"]
    # on a plain floor (its block rims 0.04) the same rim is a base's
    placed = place(pos, p, [], set(), large_rims=large_rims({"I6": 0.20}))
    assert {s.id: s.at for s in placed.figures}.get("big") == "I6"


def test_no_large_base_is_read_where_every_square_of_the_block_reads_surely_empty() -> None:
    """The clear rim alone, every square of its block read surely empty (0.02): printed circles on
    bare floor; the classifier glimpses nothing of a base under a body there. Not seen."""
    pos = record(("big", "H3", Size.LARGE), ("a", "B8", Size.MEDIUM), ("b", "K2", Size.MEDIUM))
    placed = place(pos, scores({"B8": 0.97, "K2": 0.96}), [], set(), large_rims=large_rims({"I6": 0.30}))
    assert list(placed.not_seen) == ["big"]
