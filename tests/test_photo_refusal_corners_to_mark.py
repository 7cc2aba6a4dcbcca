"""A photo refused with one corner marker read, or none, names the markers to place (issue 28,
round 32; reading R354). The diagnosis empty maps s0634 (marker 3 read) and s0638 (marker 3) were
refused "Place the four corner markers on the map's corners", and `map from-photo` said only
"place the corner markers"; the same scenes drawn again with marker 1 added, on the corner across
the map from marker 3, were answered (0.03 and 0.08 squares off). So the refusal says which marker
was read and that the one across from it is the one to place; with none read, two on opposite
corners.

The photos here are a grey cloth with no map at all (nothing to give a grid) and real corner
markers drawn on it, read by the marker search as a judge's photo is."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.editions import Edition
from assistant.model import Map, Position
from assistant.photo import NoGridError, locate_grid
from assistant.photo.printed import DICT

COLS, ROWS = 10, 8
POSITION = Position(Edition.SWM2008, Map(COLS, ROWS), ())
LEGEND = "0 north-west, 1 north-east, 2 south-east, 3 south-west"


def _cloth(ids: tuple[int, ...]) -> np.ndarray:
    """A grey cloth, faint noise, with the corner markers ``ids`` on it (each in its white quiet zone)."""
    rng = np.random.default_rng(3)
    gray = np.clip(rng.normal(120, 4, (900, 1200)), 0, 255).astype(np.uint8)
    for k, mid in enumerate(ids):
        x, y = 150 + 500 * k, 300
        gray[y - 20:y + 140, x - 20:x + 140] = 255
        gray[y:y + 120, x:x + 120] = cv2.aruco.generateImageMarker(cv2.aruco.getPredefinedDictionary(DICT), mid, 120)
    return cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)


@pytest.mark.parametrize(("read", "across", "missing"), [(3, 1, "0, 1, 2"), (2, 0, "0, 1, 3"), (0, 2, "1, 2, 3")])
def test_one_marker_read_the_refusal_names_the_one_across_the_map(read: int, across: int, missing: str) -> None:
    """One corner marker read and no grid: refused, naming the marker read and the one across the
    map from it as the one to place, all four as the surer way, and the corners' key."""
    with pytest.raises(NoGridError) as refused:
        locate_grid(_cloth((read,)), POSITION)
    said = str(refused.value)
    assert "1 of the 4 map-corner markers" in said
    assert f"corner marker {read} is read: place (or uncover) marker {across} on the map's corner across from it too" in said
    assert f"or all of markers {missing} ({LEGEND}" in said
    assert "Place the four corner markers" not in said


def test_no_marker_read_the_refusal_names_two_opposite_corners() -> None:
    """No corner marker at all: markers 0 and 2 (or 1 and 3), on opposite corners, or all four."""
    with pytest.raises(NoGridError) as refused:
        locate_grid(_cloth(()), POSITION)
    said = str(refused.value)
    assert "0 of the 4 map-corner markers" in said
    assert f"no corner marker is read: place markers 0 and 2 (or 1 and 3) on opposite corners of the map, or all four ({LEGEND}" in said


def test_map_from_photo_names_the_marker_to_place(tmp_path) -> None:
    """`map from-photo` refuses the empty map's photo the same way: exit 2, no file written, and
    the marker to place named -- not just "place the corner markers"."""
    path, out = tmp_path / "empty.png", tmp_path / "map.yaml"
    cv2.imwrite(str(path), _cloth((3,)))
    r = CliRunner().invoke(app, ["map", "from-photo", str(path), "--cols", str(COLS), "--rows", str(ROWS), "-o", str(out)])
    assert r.exit_code == 2 and not out.exists()
    assert "no grid found" in r.stderr and "Traceback" not in r.stderr
    assert "corner marker 3 is read: place (or uncover) marker 1 on the map's corner across from it too" in r.stderr
    assert "neither the map-corner markers" not in r.stderr  # the marker read is named, not denied


def test_two_markers_read_keep_their_own_refusal() -> None:
    """Two corner markers read: this advice is not given (their refusal names the corners, R348)."""
    from assistant.photo.tomark import corners_to_mark

    assert corners_to_mark({0, 3}) == "" and corners_to_mark({0, 1, 2}) == ""
    assert corners_to_mark({2, 7, 12}).startswith("corner marker 2 is read")  # base markers (ids 4 and up) are not corner markers
