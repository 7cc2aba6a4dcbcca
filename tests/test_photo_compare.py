"""One comparison of a photo with the record serves 'photo check', 'photo apply' and the web page."""

from __future__ import annotations

from pathlib import Path

from assistant.coords import Square
from assistant.photo import PhotoResult
from assistant.photo.compare import SURE, VERDICTS, compare
from assistant.photo.figures import Seen
from assistant.position import load_position
from assistant.resources import example_path

ROOM = example_path("pillar-room")
assert ROOM is not None


def _result(figures: list[Seen], occupied: list[str], uncertain: tuple[str, ...] = ()) -> PhotoResult:
    return PhotoResult("t.jpg", True, 0.5, figures, occupied, [{"square": s, "confidence": 0.2} for s in uncertain])


def test_each_verdict_from_a_hand_made_reading() -> None:
    pos = load_position(Path(ROOM))
    # the record: kenobi B2, shaak D11, grievous N2, yuzzem M9
    res = _result(
        [Seen("kenobi", "B2", 0.99, "marker"),       # where the record has him
         Seen("shaak", "E11", 0.95, "marker"),       # one square east, sure
         Seen("grievous", "N4", 0.55, "roster")],    # moved, but the detector is unsure
        ["B2", "E11", "N4", "H7"],                   # H7: nobody of the record stands there
    )
    rows = {r.figure or r.photo.name: r for r in compare(pos, res).rows if r.figure or r.photo}
    assert rows["kenobi"].verdict == "agree" and rows["kenobi"].agree
    assert rows["shaak"].verdict == "moved" and rows["shaak"].photo == Square(4, 10) and rows["shaak"].to_apply
    assert rows["grievous"].verdict == "uncertain" and not rows["grievous"].to_apply
    assert rows["yuzzem"].verdict == "missing" and rows["yuzzem"].photo is None and rows["yuzzem"].game == Square(12, 8)
    assert rows["H7"].verdict == "extra" and rows["H7"].figure is None
    assert not compare(pos, res).agree


def test_a_sure_move_onto_a_doubted_square_is_uncertain() -> None:
    pos = load_position(Path(ROOM))
    res = _result([Seen("shaak", "E11", 0.99, "marker")], ["E11"], uncertain=("E11",))
    (shaak,) = compare(pos, res).of("uncertain")
    assert shaak.figure == "shaak" and shaak.confidence == 0.99


def test_the_threshold_is_the_callers() -> None:
    pos = load_position(Path(ROOM))
    res = _result([Seen("shaak", "E11", 0.7, "marker")], ["E11"])
    assert compare(pos, res).of("moved") == ()
    assert [r.figure for r in compare(pos, res, sure=0.6).of("moved")] == ["shaak"]
    assert SURE == 0.8


def test_all_in_place_agrees_and_json_names_squares() -> None:
    pos = load_position(Path(ROOM))
    res = _result([Seen(f.id, f.at.name, 0.9, "marker") for f in pos.figures], [f.at.name for f in pos.figures])
    c = compare(pos, res)
    assert c.agree and {r.verdict for r in c.rows} == {"agree"}
    assert c.rows[0].as_json() == {"figure": "kenobi", "game": "B2", "photo": "B2", "confidence": 0.9, "verdict": "agree"}
    assert set(VERDICTS) == {"agree", "moved", "uncertain", "missing", "extra"}


def test_a_large_figure_that_moved_is_one_figure_not_three_extra_ones() -> None:
    """A user's trial (diagnosis photo s0467, `photo check` with the empty map's reference): the Large
    figure f2 read at J7 was listed as moved, and its three other squares K7, J8, K8 as three figures the
    game does not have."""
    pos = load_position(Path(ROOM))
    # yuzzem (Large) is recorded on M9:N10; the photo shows it on J3:K4
    res = _result([Seen("yuzzem", "J3", 0.95, "marker")], ["J3", "K3", "J4", "K4", "H7"])
    rows = compare(pos, res).rows
    assert [(r.figure, r.verdict) for r in rows if r.figure == "yuzzem"] == [("yuzzem", "moved")]
    assert [r.photo.name for r in rows if r.verdict == "extra" and r.photo] == ["H7"]
