"""Which way round an empty map lies (``map from-photo`` without corner markers).

Issue 28 item 1: the record never orients the grid; an empty map has no record at all. A map's
printed lines are as symmetric as its outline, so a photo of a map that is not square, with no
corner marker and no printed sign, cannot tell the map from the map turned half round (a square
map: from any quarter turn). The scenes are drawn from that description (independent scene 388:
a 15 x 9 carpet-art map, no marker, read upside down): the map is photographed with its row 1
along the photo's bottom edge (or, square, its left edge). The answer must say that it is not
confirmed and how to turn it, and the judge's ``--turn`` must then read the map's own squares.
"""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
import yaml

from assistant.cli.app import app
from assistant.photo import lines
from assistant.photo.lines import TurnError, turned_board
from assistant.position import load_position

from .test_mapread import PX, RED, YELLOW, inset_outline, line_outline, runner

#: the map's own terrain, as printed: B2 and C2 outlined yellow (difficult), F4 red (a wall)
TRUE = {"B2": "difficult", "C2": "difficult", "F4": "wall"}


def _photo(tmp_path, cols: int, rows: int, rotate: int | None) -> str:
    """A ``cols`` x ``rows`` paper map with :data:`TRUE`'s terrain, no corner markers, turned by
    ``rotate`` (a ``cv2.ROTATE_*``, None for upright) before it is laid on a dark table and
    photographed a little tilted."""
    img = np.full((rows * PX, cols * PX, 3), (200, 222, 232), np.uint8)
    for x in range(0, cols * PX + 1, PX):
        cv2.line(img, (x, 0), (x, rows * PX), (30, 30, 30), 2)
    for y in range(0, rows * PX + 1, PX):
        cv2.line(img, (0, y), (cols * PX, y), (30, 30, 30), 2)
    inset_outline(img, 1, 1, 2, 1, YELLOW)  # B2, C2
    line_outline(img, 5, 3, 5, 3, RED)  # F4
    if rotate is not None:
        img = cv2.rotate(img, rotate)
    sheet = cv2.copyMakeBorder(img, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(245, 245, 245))
    sheet = cv2.resize(sheet, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    h, w = sheet.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[270, 210], [270 + 0.66 * w, 230], [290 + 0.68 * w, 240 + 0.68 * h], [250, 220 + 0.66 * h]])
    photo = cv2.warpPerspective(sheet, cv2.getPerspectiveTransform(src, dst), (int(600 + 0.7 * w), int(500 + 0.7 * h)), borderValue=(50, 60, 70))
    path = tmp_path / "map.png"
    cv2.imwrite(str(path), photo)
    return str(path)


def _read(tmp_path, path: str, cols: int, rows: int, *extra: str):
    out = tmp_path / "map.yaml"
    out.unlink(missing_ok=True)
    r = runner.invoke(app, ["map", "from-photo", path, "--cols", str(cols), "--rows", str(rows), "-o", str(out), *extra])
    return r, out


def _squares(out) -> dict[str, str]:
    m = load_position(out).map
    return {s.name: k.value for k, v in m.squares.items() for s in v}


def test_a_map_upside_down_without_markers_says_its_orientation_is_not_confirmed_and_turns(tmp_path) -> None:
    photo = _photo(tmp_path, 8, 6, cv2.ROTATE_180)  # row 1 along the photo's bottom edge
    r, out = _read(tmp_path, photo, 8, 6)
    assert r.exit_code == 0, r.output
    head = out.read_text().split("format:")[0]
    assert "NOT confirmed" in head and "--turn 180" in head  # in the file the judge reviews...
    assert "NOT confirmed" in r.stderr and "--turn 180" in r.stderr  # ...and said at once
    j = runner.invoke(app, ["map", "from-photo", photo, "--cols", "8", "--rows", "6", "--json"])
    assert j.exit_code == 0, j.output
    doc = json.loads(j.stdout)
    assert doc["orientation_confirmed"] is False and doc["ways_round_left_open"] == 2
    # the judge checks a square and turns it: the map's own squares
    r, out = _read(tmp_path, photo, 8, 6, "--turn", "180")
    assert r.exit_code == 0, r.output
    assert _squares(out) == TRUE
    assert "NOT confirmed" not in out.read_text() and "--turn" in out.read_text()
    j = runner.invoke(app, ["map", "from-photo", photo, "--cols", "8", "--rows", "6", "--json", "--turn", "180"])
    assert json.loads(j.stdout)["orientation_confirmed"] is True


def test_a_square_map_leaves_four_ways_open_and_takes_a_quarter_turn(tmp_path) -> None:
    photo = _photo(tmp_path, 7, 7, cv2.ROTATE_90_COUNTERCLOCKWISE)  # row 1 along the photo's left edge
    j = runner.invoke(app, ["map", "from-photo", photo, "--cols", "7", "--rows", "7", "--json"])
    assert j.exit_code == 0, j.output
    assert json.loads(j.stdout)["ways_round_left_open"] == 4
    r, out = _read(tmp_path, photo, 7, 7, "--turn", "90")
    assert r.exit_code == 0, r.output
    assert _squares(out) == TRUE


def test_a_quarter_turn_of_a_map_that_is_not_square_is_refused_and_writes_nothing(tmp_path) -> None:
    r, out = _read(tmp_path, _photo(tmp_path, 8, 6, None), 8, 6, "--turn", "90")
    assert r.exit_code == 2 and "square map" in r.stderr and "Traceback" not in r.output
    assert not out.exists()
    r, out = _read(tmp_path, _photo(tmp_path, 8, 6, None), 8, 6, "--turn", "45")
    assert r.exit_code == 2 and "--turn must be one of" in r.stderr and not out.exists()


@pytest.mark.parametrize(("cols", "rows", "turn"), [(8, 6, 180), (7, 7, 90), (7, 7, 270)])
def test_turns_are_the_board_turned_about_its_centre(cols: int, rows: int, turn: int) -> None:
    """A turn names the same lattice from another corner: the map's centre stays, corners go to corners."""
    T = turned_board(turn, cols, rows)
    centre = T @ [cols / 2, rows / 2, 1]
    assert np.allclose(centre[:2], [cols / 2, rows / 2])
    corners = {(0, 0), (cols, 0), (cols, rows), (0, rows)}
    assert {tuple(np.round(T @ [x, y, 1])[:2]) for x, y in corners} == corners
    assert np.allclose(np.linalg.matrix_power(T, 4), np.eye(3)) and not np.allclose(T, np.eye(3))
    with pytest.raises(TurnError):
        turned_board(90, 8, 6)


def _map_file(tmp_path, cols: int, rows: int, squares: dict[str, list[str]]) -> str:
    """The map's own file, as the judge has it (a scenario's): its size and printed terrain."""
    doc = {"format": "tabletop-position/1", "rules": "swm2008", "map": {"name": "the scenario's", "cols": cols, "rows": rows,
                                                                       "squares": squares}, "figures": []}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    return str(path)


#: :data:`TRUE` as a map file lists it
TRUE_FILE = {"difficult": ["B2", "C2"], "wall": ["F4"]}


def test_the_map_named_orients_a_map_upside_down_without_markers(tmp_path) -> None:
    """Reading R116 (independent scenes 345, 360, 388, 463, 470: no corner marker, each read upside
    down, 25-58 squares wrong, said unconfirmed): the map's own file, named with --position, tells
    which way round by its printed terrain -- its size too -- and the squares are read from the photo."""
    photo = _photo(tmp_path, 8, 6, cv2.ROTATE_180)  # row 1 along the photo's bottom edge
    j = runner.invoke(app, ["map", "from-photo", photo, "--position", _map_file(tmp_path, 8, 6, TRUE_FILE), "--json"])
    assert j.exit_code == 0, j.output
    doc = json.loads(j.stdout)
    assert doc["orientation_confirmed"] is True and doc["ways_round_left_open"] == 1
    assert doc["oriented_by"] == "the map's terrain"
    r, out = _read(tmp_path, photo, 8, 6, "-p", str(tmp_path / "scenario.yaml"))
    assert r.exit_code == 0, r.output
    assert _squares(out) == TRUE and "NOT confirmed" not in r.stderr



@pytest.mark.parametrize(("cols", "rows", "rotate"), [(8, 6, cv2.ROTATE_180), (6, 6, cv2.ROTATE_90_CLOCKWISE)])
def test_the_map_named_orients_by_the_answers_own_reading_where_the_search_read_no_terrain(
        tmp_path, monkeypatch: pytest.MonkeyPatch, cols: int, rows: int, rotate: int) -> None:
    """Reading R193 (independent scenes 360 and 411, stars art, no corner marker, the map's file
    named: the search's coarse reading of each lattice found none of the map's terrain, or tied
    two lattices a third of a square apart, and the map was left open, 58 and 26 squares wrong,
    though the answer's own reading, turned, was right square for square): the map named is
    matched against the answer's reading through each way round, and orients it by the same
    rule; the squares are the map's own."""
    monkeypatch.setattr(lines, "_terrain_matches", lambda image, candidates, pos: [(0.0, 0)] * len(candidates))
    photo = _photo(tmp_path, cols, rows, rotate)
    j = runner.invoke(app, ["map", "from-photo", photo, "--position", _map_file(tmp_path, cols, rows, TRUE_FILE), "--json"])
    assert j.exit_code == 0, j.output
    doc = json.loads(j.stdout)
    assert doc["orientation_confirmed"] is True and doc["ways_round_left_open"] == 1
    assert doc["oriented_by"] == "the map's terrain"
    r, out = _read(tmp_path, photo, cols, rows, "-p", str(tmp_path / "scenario.yaml"))
    assert r.exit_code == 0, r.output
    assert _squares(out) == TRUE and "NOT confirmed" not in r.stderr

def test_a_map_named_with_no_terrain_leaves_the_orientation_open_and_says_so(tmp_path) -> None:
    photo = _photo(tmp_path, 8, 6, cv2.ROTATE_180)
    r, out = _read(tmp_path, photo, 8, 6, "-p", _map_file(tmp_path, 8, 6, {}))
    assert r.exit_code == 0, r.output
    assert "NOT confirmed" in r.stderr and "does not tell it either" in r.stderr
    # without a file named, the answer says that naming one would tell
    r, out = _read(tmp_path, photo, 8, 6)
    assert "NOT confirmed" in r.stderr and "--position" in r.stderr


def test_a_map_named_of_another_size_or_no_size_at_all_is_refused_clearly(tmp_path) -> None:
    photo = _photo(tmp_path, 8, 6, None)
    r, out = _read(tmp_path, photo, 9, 6, "-p", _map_file(tmp_path, 8, 6, TRUE_FILE))
    assert r.exit_code == 2 and "8 x 6" in r.stderr and "Traceback" not in r.output and not out.exists()
    r = runner.invoke(app, ["map", "from-photo", photo, "--cols", "8"])
    assert r.exit_code == 2 and "--position" in r.stderr and "Traceback" not in r.output
    r = runner.invoke(app, ["map", "from-photo", photo, "-p", str(tmp_path / "no such map.yaml")])
    assert r.exit_code == 2 and "no such file" in r.stderr and "Traceback" not in r.output


def _turned_half(name: str, cols: int, rows: int) -> str:
    """The square a half turn of a ``cols`` x ``rows`` map puts where ``name`` was (A1 <-> the far corner)."""
    col, row = ord(name[0]) - ord("A"), int(name[1:]) - 1
    return f"{chr(ord('A') + cols - 1 - col)}{rows - row}"


def test_a_map_left_open_either_way_round_lists_the_square_that_tells_it(tmp_path) -> None:
    """Reading R136 (independent scenes 503, 463, 470: no corner marker, read upside down, said
    unconfirmed, but nothing listed to look at): the answer lists one square whose terrain differs
    from what the half-turned map shows there, with what it is read as and what the turn would
    read, so one look at the map settles it; turned as it says, that square reads the other kind."""
    photo = _photo(tmp_path, 8, 6, cv2.ROTATE_180)  # row 1 along the photo's bottom edge
    j = runner.invoke(app, ["map", "from-photo", photo, "--cols", "8", "--rows", "6", "--json"])
    assert j.exit_code == 0, j.output
    doc = json.loads(j.stdout)
    telling = [u for u in doc["unsure"] if "which way round" in u["why"]]
    assert len(telling) == 1 and "--turn 180" in telling[0]["why"]
    assert doc["unsure"][0] == telling[0] and telling[0]["names"] == [telling[0]["where"]]  # listed first (R207)
    where = telling[0]["where"]
    # a square the map's terrain tells the turn by: its kind differs from its half turn's (TRUE, as printed)
    assert TRUE.get(where, "open") != TRUE.get(_turned_half(where, 8, 6), "open")
    r, out = _read(tmp_path, photo, 8, 6)
    assert r.exit_code == 0, r.output
    assert f"{where}: which way round" in out.read_text().split("format:")[0]  # in the file the judge reviews too
    read_here = _squares(out)
    r, out = _read(tmp_path, photo, 8, 6, "--turn", "180")
    assert r.exit_code == 0, r.output
    turned = _squares(out)
    said_here, said_turned = read_here.get(where, "open"), turned.get(where, "open")
    assert said_here != said_turned
    assert f"read as {said_here};" in telling[0]["why"] and f"it would be {said_turned}." in telling[0]["why"]
    assert "which way round" not in out.read_text()  # the judge's turn confirmed it: nothing left to tell


def test_a_square_map_lists_what_each_quarter_turn_would_read_at_its_telling_square(tmp_path) -> None:
    photo = _photo(tmp_path, 7, 7, cv2.ROTATE_90_COUNTERCLOCKWISE)
    j = runner.invoke(app, ["map", "from-photo", photo, "--cols", "7", "--rows", "7", "--json"])
    assert j.exit_code == 0, j.output
    telling = [u for u in json.loads(j.stdout)["unsure"] if "which way round" in u["why"]]
    assert len(telling) == 1 and all(f"with {t}" in telling[0]["why"] or f"--turn {t}" in telling[0]["why"] for t in (90, 180, 270))
    r, out = _read(tmp_path, photo, 7, 7, "--turn", "90")
    assert r.exit_code == 0 and _squares(out) == TRUE
    assert "which way round" not in out.read_text()


def test_a_square_listed_only_for_its_outlines_kind_tells_a_half_turn_where_no_sure_square_does() -> None:
    """R266: every terrain square of a map listed (its outline's colour between two printed ones),
    none read beyond doubt that tells the way round: a square whose doubt is only its kind is
    outlined beyond doubt, and tells a half turn where the half turn reads open there; its note
    keeps the kind's doubt. A sure square is still preferred; a quarter turn, a turn that reads
    terrain there, or a doubt of another sort tells nothing."""
    from assistant.photo.mapread import MapReading
    from assistant.photo.terrain import _telling_note, telling_square

    doubt = "wall or pit? its outline's colour lies between the two"
    r = MapReading(squares={"B2": "wall"}, unsure={"B2": doubt}, kind_only={"B2"})
    assert telling_square(r, 4, 3, 2) == ("B2", {180: "open"})  # C2 (B2 turned half round) open beyond doubt
    note = _telling_note(r, "B2", {180: "open"})
    assert doubt in note and "--turn 180" in note
    assert telling_square(MapReading(squares={"B2": "wall"}, unsure={"B2": "wall: its outline is faint in places (50% of a side)"}),
                          4, 3, 2) is None  # outlined at all in doubt
    assert telling_square(MapReading(squares={"B2": "wall", "C2": "pit"}, unsure={"B2": doubt}, kind_only={"B2"}), 4, 3, 2) is None
    assert telling_square(MapReading(squares={"B2": "wall"}, unsure={"B2": doubt}, kind_only={"B2"}), 3, 3, 4) is None
    sure = MapReading(squares={"B2": "wall", "A1": "low"}, unsure={"B2": doubt}, kind_only={"B2"})
    assert telling_square(sure, 4, 3, 2) == ("A1", {180: "open"})


def test_another_map_of_the_photos_size_whose_few_squares_read_by_chance_does_not_orient_it(tmp_path) -> None:
    """R368 (diagnosis s0553 with another 17 x 12 map, s0649's: four of its terrain squares read
    where the photo's top puts them, none the other way, so the rule's count of hits turned the
    grid, though the photo read as that map agrees on 0.09 of the squares and edges either names):
    a map named that the photo reads so little like is not the map photographed, and the way round
    stays open and said, its telling square listed."""
    photo = _photo(tmp_path, 8, 6, cv2.ROTATE_180)
    # the photo's three terrain squares, and a band of walls the photo does not show: 3 of 15 agree
    doc = {"format": "tabletop-position/1", "rules": "swm2008",
           "map": {"name": "another", "cols": 8, "rows": 6, "squares": {**TRUE_FILE, "wall": ["F4", "A5:F6"]}}, "figures": []}
    named = tmp_path / "another.yaml"
    named.write_text(yaml.safe_dump(doc), encoding="utf-8")
    j = runner.invoke(app, ["map", "from-photo", photo, "--position", str(named), "--json"])
    assert j.exit_code == 0, j.output
    got = json.loads(j.stdout)
    assert got["orientation_confirmed"] is False and got["ways_round_left_open"] == 2
    assert any(u["why"].startswith("which way round:") for u in got["unsure"])
    r, out = _read(tmp_path, photo, 8, 6, "--position", str(named))
    assert "NOT confirmed" in r.stderr and "does not tell it either" in r.stderr and "another map" in r.stderr
    assert _squares(out) == {"C3": "wall", "F5": "difficult", "G5": "difficult"}  # as the photo alone reads it
