"""A Large base is grey plastic, and a rim fainter than the map's art draws is no base (reading R161).

Built from diagnosis photo s0356 without the reference (a sand map): a Large figure's base at
D6:E7 read as surely empty on every square (0.00-0.03, its Large rim 0.149), while a dark sand
patch two squares over, F6:G7, read as a base on its texture (0.99, 0.81, 0.47, 0.99): the block
was taken for the Large figure -- 4 squares false occupied. Every square of that block's base core
read coloured, 0.16-0.17 over the roster's plastic grey on that photo (R123's test); of the 88
Large bases on photos 341-412 and 533-538 off plain paper none showed more than 2 of its 4 squares
so (its figure's painted body over a core). Left without the patch, the Large figure was then named on G5:H6 by the
faint rim of a block read on two squares (0.089) -- fainter than the rims nine in ten of that
map's bare block centres draw (0.134).

The values below are those the pipeline measured on s0356 (scores, plastic, rims), on a map cut
down to the squares that matter.
"""

from __future__ import annotations

from assistant.coords import Square, parse_square
from assistant.editions import Edition, Size
from assistant.model import Figure, Map, Position
from assistant.photo.figures import Seen
from assistant.photo.placement import PAINTED_BY, PRINTED_BLOCK_SHARE, place

COLS, ROWS = 10, 9
GREY = 0.117  # the roster's plastic on s0356 without the reference
NOWHERE = {"C2", "D2", "E2", "I4"}  # s0356's pits and wall
S0356_ART_RIM = 0.134
S0356_LARGE_RIMS = """0.087 0.074 0.101 0.101 0.065 0.101 0.084 0.079 0.067
0.157 0.074 0.105 0.094 0.060 0.078 0.081 0.102 0.101
0.084 0.167 0.093 0.088 0.044 0.060 0.082 0.085 0.105
0.097 0.086 0.065 0.088 0.081 0.073 0.122 0.054 0.081
0.083 0.095 0.057 0.072 0.048 0.050 0.089 0.084 0.068
0.052 0.090 0.054 0.149 0.068 0.165 0.092 0.134 0.089
0.104 0.065 0.048 0.094 0.023 0.103 0.072 0.098 0.063
0.097 0.141 0.099 0.094 0.151 0.147 0.164 0.072 0.063"""


def s0356_like(patch_plastic: tuple[float, float, float, float] = (0.28, 0.29, 0.29, 0.28),
               half_rim: float = 0.089, art_rim: float = 0.134) -> tuple[Position, dict[str, float], list[Seen], dict[str, object]]:
    pos = Position(Edition.SWM2008, Map(COLS, ROWS), (
        Figure("big", "light", parse_square("D6"), Size.LARGE),  # stands still since the record
        Figure("a", "dark", parse_square("A1"), marker=1),
        Figure("b", "dark", parse_square("J1"), marker=2),
        Figure("c", "light", parse_square("H5")),  # no base marker (s0356's f4)
    ))
    by_marker = [Seen("a", "A1", 1.0, "marker"), Seen("b", "J1", 1.0, "marker")]
    scores = {Square(c, r).name: 0.01 for c in range(COLS) for r in range(ROWS)}
    scores |= {"A1": 1.0, "J1": 1.0, "H5": 0.98, "D6": 0.03, "E6": 0.02, "D7": 0.0, "E7": 0.0,
               "F6": 0.99, "G6": 0.81, "F7": 0.47, "G7": 0.99}
    plastic = {sq: GREY for sq in scores} | dict(zip(("F6", "G6", "F7", "G7"), patch_plastic, strict=True))
    # the Large rim round each block's centre as s0356 gave it (by the block's north-west square,
    # a row of the map a line); nine in ten of them 0.134 or fainter: the sand's own rims
    large = {Square(c, r).name: float(v) * art_rim / S0356_ART_RIM for r, line in enumerate(S0356_LARGE_RIMS.split("\n"))
             for c, v in enumerate(line.split())}
    large |= {"G5": half_rim}
    # each square's own round rim (a Medium base's), as s0356 gave it where it matters
    rims = {sq: 0.1 for sq in scores} | {"A1": 0.3, "J1": 0.3, "H5": 0.306, "D6": 0.073, "E6": 0.142, "D7": 0.123, "E7": 0.169,
                                          "F6": 0.206, "G6": 0.340, "F7": 0.234, "G7": 0.265, "G5": 0.234, "H6": 0.219}
    return pos, scores, by_marker, {"large_rims": large, "plastic": plastic, "nowhere": NOWHERE, "rims": rims}


def test_a_block_of_coloured_art_read_as_a_base_takes_no_large_figure() -> None:
    pos, scores, by_marker, kw = s0356_like()
    placed = place(pos, scores, by_marker, **kw)  # type: ignore[arg-type]
    assert "big" not in {s.id for s in placed.figures}  # before R161: named on F6, four squares false occupied
    assert placed.not_seen == ("big",)
    assert not {"F6", "G6", "F7", "G7"} & set(placed.occupied)
    assert not {"G5", "H6"} & set(placed.occupied)  # nor on the faint rim of the block beside it


def test_a_large_base_whose_figure_colours_two_of_its_squares_is_still_taken() -> None:
    # s0382's Large base at C8: two of its squares' cores coloured by its figure's body (0.13 and
    # 0.24 over the grey); the block read as a base is that base
    pos, scores, by_marker, kw = s0356_like(patch_plastic=(GREY, GREY + 0.13, GREY, GREY + 0.24))
    assert 2 < PRINTED_BLOCK_SHARE * 4 and 0.13 > PAINTED_BY
    placed = place(pos, scores, by_marker, **kw)  # type: ignore[arg-type]
    assert {s.id: s.at for s in placed.figures}["big"] == "F6"


def test_a_half_read_block_takes_a_large_figure_by_a_rim_clearer_than_the_art_draws() -> None:
    # s0388 with the reference: a Large base read on two squares, its rim 0.114 over the map's
    # art's 0.093, is found by it; on s0356's sand (art 0.134) a rim of 0.089 is not
    pos, scores, by_marker, kw = s0356_like(half_rim=0.114, art_rim=0.093)
    placed = place(pos, scores, by_marker, **kw)  # type: ignore[arg-type]
    assert {s.id: s.at for s in placed.figures}.get("big") == "G5"
    pos, scores, by_marker, kw = s0356_like(half_rim=0.114, art_rim=0.134)
    assert "big" not in {s.id for s in place(pos, scores, by_marker, **kw).figures}  # type: ignore[arg-type]
