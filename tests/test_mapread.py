"""The map's terrain from the printed border lines (``map from-photo``; PL p.26).

The boards here are drawn by hand with OpenCV, seen from straight above (no camera), each in
one way printed maps mark terrain; every expectation is written from the rulebook's words:
"each terrain type has a coloured outline", "the artwork does not matter", "every square
inside a larger outlined area has that terrain"; a wall edge is a red line on a grid line, a
closed door a row of blue rectangles on it.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from assistant.cli.app import app
from assistant.photo import mapread
from assistant.photo.mapread import _cover_at, _covers, read_map
from assistant.position import load_position

runner = CliRunner()
PX = 40
COLS, ROWS = 8, 6
RED, GREEN, YELLOW, ORANGE, BLUE = (40, 40, 200), (60, 170, 60), (40, 200, 230), (30, 130, 240), (200, 110, 30)
PAPER, SAND, LAVA, BROWN = (200, 222, 232), (120, 185, 215), (40, 70, 180), (45, 85, 130)


def board(floor: tuple[int, int, int] = PAPER) -> np.ndarray:
    """An empty map, COLS x ROWS squares of PX pixels, dark grid lines."""
    img = np.full((ROWS * PX, COLS * PX, 3), floor, np.uint8)
    for x in range(0, COLS * PX + 1, PX):
        cv2.line(img, (x, 0), (x, ROWS * PX), (60, 60, 60), 1)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(img, (0, y), (COLS * PX, y), (60, 60, 60), 1)
    return img


def inset_outline(img: np.ndarray, c0: int, r0: int, c1: int, r1: int, colour: tuple[int, int, int], inset: int = 4) -> None:
    """One outline just inside the area of columns c0..c1, rows r0..r1 (0-based, inclusive)."""
    cv2.rectangle(img, (c0 * PX + inset, r0 * PX + inset), ((c1 + 1) * PX - inset, (r1 + 1) * PX - inset), colour, 3)


def line_outline(img: np.ndarray, c0: int, r0: int, c1: int, r1: int, colour: tuple[int, int, int]) -> None:
    """One outline right on the grid lines around the area."""
    cv2.rectangle(img, (c0 * PX, r0 * PX), ((c1 + 1) * PX, (r1 + 1) * PX), colour, 4)


def test_a_sand_floor_is_not_difficult_terrain() -> None:
    img = board(SAND)
    inset_outline(img, 2, 1, 2, 1, YELLOW)  # C2 only
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"C2": "difficult"}
    assert r.edges == {}


def test_brown_fill_is_art_the_border_decides() -> None:
    img = board()
    img[PX * 1:PX * 2, PX * 4:PX * 6] = BROWN  # E2, F2: a brown crate...
    inset_outline(img, 4, 1, 5, 1, GREEN)  # ...outlined green: a low object
    img[PX * 4:PX * 5, PX * 1:PX * 2] = BROWN  # B5: a brown pillar outlined red: a wall
    inset_outline(img, 1, 4, 1, 4, RED)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"E2": "low", "F2": "low", "B5": "wall"}


def test_an_outline_on_the_grid_line_makes_a_wall_square_not_four_wall_edges() -> None:
    img = board()
    line_outline(img, 3, 2, 3, 2, RED)  # D3, its outline on the grid lines
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"D3": "wall"}
    assert r.edges == {}  # its sides block as a wall square's, not as wall edges


def test_an_area_outlined_once_counts_whole() -> None:
    img = board()
    inset_outline(img, 1, 1, 4, 3, ORANGE)  # B2..E4, one orange outline: twelve pit squares
    line_outline(img, 6, 0, 7, 2, YELLOW)  # G1..H3 on the lines: six difficult squares
    r = read_map(img, COLS, ROWS, PX)
    pits = {f"{c}{n}" for c in "BCDE" for n in (2, 3, 4)}
    difficult = {f"{c}{n}" for c in "GH" for n in (1, 2, 3)}
    assert r.squares == {**{s: "pit" for s in pits}, **{s: "difficult" for s in difficult}}


def test_wall_edges_and_doors_on_the_grid_lines() -> None:
    img = board()
    cv2.line(img, (2 * PX, 3 * PX), (5 * PX, 3 * PX), RED, 4)  # the line under C3, D3, E3: three wall edges
    cv2.line(img, (6 * PX, 3 * PX), (6 * PX, 4 * PX), RED, 4)  # a wall east of F4...
    for i in range(3):  # ...and a door in its line, east of F5: three blue rectangles
        y0 = 4 * PX + 3 + i * 12
        cv2.rectangle(img, (6 * PX - 3, y0), (6 * PX + 3, y0 + 8), BLUE, -1)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {}
    assert r.edges == {"C3.S": "wall", "D3.S": "wall", "E3.S": "wall", "F4.E": "wall", "F5.E": "door"}


def test_lava_art_and_a_colour_cast() -> None:
    img = board(LAVA)
    inset_outline(img, 0, 0, 1, 1, YELLOW)  # A1..B2 difficult
    inset_outline(img, 5, 3, 5, 3, ORANGE)  # F4 pit
    line_outline(img, 3, 4, 3, 4, RED)  # D5 wall
    cast = np.clip(img.astype(np.float32) * np.array([1.15, 1.0, 0.85]), 0, 255).astype(np.uint8)  # a camera's cast
    for im in (img, cast):
        r = read_map(im, COLS, ROWS, PX)
        assert r.squares == {"A1": "difficult", "B1": "difficult", "A2": "difficult", "B2": "difficult", "F4": "pit", "D5": "wall"}
        assert r.edges == {}


CARPET, RING = (30, 30, 170), (20, 15, 15)


def test_a_red_carpet_is_not_walls() -> None:
    """A floor printed red with dark rings all over (the art's colour is the walls' colour)
    has no wall: a border is a line the squares' middles do not have. The one wall, outlined and
    filled dark, and the green low object are read; every other square is open."""
    img = board(CARPET)
    for y in range(PX // 4, ROWS * PX, PX // 2):  # the carpet's pattern: dark rings, two a square each way
        for x in range(PX // 4, COLS * PX, PX // 2):
            cv2.circle(img, (x, y), 7, RING, 3)
    inset_outline(img, 5, 1, 6, 2, GREEN)  # F2..G3 low
    img[PX * 4 + 4:PX * 5 - 4, PX * 2 + 4:PX * 3 - 4] = (60, 60, 60)  # C5: a dark wall block...
    inset_outline(img, 2, 4, 2, 4, (60, 60, 235))  # ...outlined in a brighter red than the carpet
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"F2": "low", "G2": "low", "F3": "low", "G3": "low", "C5": "wall"}
    assert r.edges == {}


def test_orange_cracks_and_yellow_specks_are_art() -> None:
    """Lava crossed by thin orange cracks, grass sprinkled with yellow specks: short strokes in the
    printed colours, running every way, are art; the outlined areas are read whole, the rest open."""
    rng = np.random.default_rng(5)
    lava = board((20, 30, 90))
    for _ in range(120):  # cracks: short thin orange polylines every which way
        p = rng.integers(0, [COLS * PX, ROWS * PX])
        pts = [p + rng.integers(-12, 13, 2) * k for k in range(3)]
        cv2.polylines(lava, [np.array(pts, np.int32)], False, ORANGE, 1)
    inset_outline(lava, 1, 1, 2, 2, YELLOW)  # B2..C3 difficult
    grass = board((40, 140, 90))
    for _ in range(1500):  # specks of a yellow flower, one to three pixels
        x, y = rng.integers(0, [COLS * PX, ROWS * PX])
        grass[y:y + rng.integers(1, 3), x:x + rng.integers(1, 4)] = YELLOW
    inset_outline(grass, 1, 1, 2, 2, ORANGE)  # B2..C3 pit
    for img, kind in ((lava, "difficult"), (grass, "pit")):
        r = read_map(img, COLS, ROWS, PX)
        assert r.squares == {s: kind for s in ("B2", "C2", "B3", "C3")}, kind


def test_a_broken_outline_is_listed_to_confirm() -> None:
    img = board()
    # three sides of E4 outlined green, the fourth not at all: no closed outline, so no terrain,
    # but the judge is asked
    x0, y0, x1, y1 = 4 * PX + 4, 3 * PX + 4, 5 * PX - 4, 4 * PX - 4
    cv2.polylines(img, [np.array([[x1, y1], [x0, y1], [x0, y0], [x1, y0]], np.int32)], False, GREEN, 3)
    r = read_map(img, COLS, ROWS, PX)
    assert "E4" not in r.squares
    assert "E4" in r.unsure


def _photo(tmp_path):
    """The drawn map on a sheet on a dark table, a little turned and tilted, no corner markers."""
    img = board()
    for x in range(0, COLS * PX + 1, PX):  # printed lines bold enough to find the grid by
        cv2.line(img, (x, 0), (x, ROWS * PX), (30, 30, 30), 2)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(img, (0, y), (COLS * PX, y), (30, 30, 30), 2)
    inset_outline(img, 1, 1, 2, 1, YELLOW)  # B2, C2 difficult
    line_outline(img, 5, 3, 5, 3, RED)  # F4 wall
    sheet = cv2.copyMakeBorder(img, 20, 20, 20, 20, cv2.BORDER_CONSTANT, value=(245, 245, 245))
    sheet = cv2.resize(sheet, None, fx=2, fy=2, interpolation=cv2.INTER_LINEAR)
    h, w = sheet.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[270, 210], [1500, 255], [1560, 1140], [225, 1080]])
    photo = cv2.warpPerspective(sheet, cv2.getPerspectiveTransform(src, dst), (1800, 1350), borderValue=(50, 60, 70))
    path = tmp_path / "map.png"
    cv2.imwrite(str(path), photo)
    return path


def test_map_from_photo_without_corner_markers(tmp_path) -> None:
    out = tmp_path / "map.yaml"
    r = runner.invoke(app, ["map", "from-photo", str(_photo(tmp_path)), "--cols", str(COLS), "--rows", str(ROWS), "-o", str(out)])
    assert r.exit_code == 0, r.output
    text = out.read_text()
    assert text.startswith("# ") and "row 1" in text  # it says how the grid was oriented
    m = load_position(out).map
    assert {s.name: k.value for k, v in m.squares.items() for s in v} == {"B2": "difficult", "C2": "difficult", "F4": "wall"}
    assert not m.walls and not m.doors
    j = runner.invoke(app, ["map", "from-photo", str(_photo(tmp_path)), "--cols", str(COLS), "--rows", str(ROWS), "--json"])
    assert j.exit_code == 0, j.output
    import json

    doc = json.loads(j.stdout)
    assert doc["grid_from"] == "lines" and doc["map"]["squares"] == {"wall": ["F4"], "difficult": ["B2:C2"]}
    assert isinstance(doc["unsure"], list)


def test_map_from_photo_keeps_the_empty_map_as_the_reference(tmp_path) -> None:
    """The set-up photo serves twice: the terrain read from it, and the reference later photos
    are compared with (the grid found once, so both are of the same map the same way round)."""
    from assistant.photo.reference import load_reference

    out, ref = tmp_path / "map.yaml", tmp_path / "empty.npz"
    r = runner.invoke(app, ["map", "from-photo", str(_photo(tmp_path)), "--cols", str(COLS), "--rows", str(ROWS), "-o", str(out), "--reference", str(ref)])
    assert r.exit_code == 0, r.output
    back = load_reference(ref)
    assert (back.cols, back.rows, back.name) == (COLS, ROWS, "map.png")
    assert load_position(out).map.cols == COLS
    # a position file that cannot be written leaves no reference behind either
    ref2 = tmp_path / "other.npz"
    args = ["map", "from-photo", str(_photo(tmp_path)), "--cols", str(COLS), "--rows", str(ROWS), "-o", str(tmp_path), "--reference", str(ref2)]
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and not ref2.exists()


def test_map_from_photo_refuses_a_photo_without_a_map(tmp_path) -> None:
    path = tmp_path / "noise.png"
    cv2.imwrite(str(path), np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8))
    out = tmp_path / "map.yaml"
    r = runner.invoke(app, ["map", "from-photo", str(path), "--cols", "8", "--rows", "6", "-o", str(out)])
    assert r.exit_code == 2 and "no grid found" in r.stderr
    assert not out.exists()


@pytest.mark.slow
def test_map_from_photo_on_a_varied_photo_without_markers() -> None:
    from assistant.model import Position
    from assistant.photo.synth import render_photo
    from assistant.photo.terrain import read_map_photo

    pos = load_position(__import__("assistant.resources", fromlist=["example_path"]).example_path("clone-wars-corridor"))
    empty = Position(pos.edition, pos.map, (), pos.cards)
    img, truth = render_photo(empty, seed=7_100_003, width=2400, height=1800, tilt_max=30.0, varied=True, corner_markers=False)
    got = read_map_photo(img, pos.map.cols, pos.map.rows)
    assert got is not None and got.how == "lines"
    cols, rows = pos.map.cols, pos.map.rows

    def turn(n: str) -> str:  # the square's name with the map turned half round
        return f"{chr(ord('A') + cols - 1 - (ord(n[0]) - ord('A')))}{rows + 1 - int(n[1:])}"

    # an empty map cannot tell which way round it lies: one way or the other, every square is
    # read right or listed for the judge to confirm
    r = got.reading
    names = {f"{chr(ord('A') + c)}{n + 1}" for c in range(cols) for n in range(rows)}
    straight = {n for n in names if r.squares.get(n) != truth.squares.get(n)}
    turned = {n for n in names if r.squares.get(n) != truth.squares.get(turn(n))}
    wrong = min(straight, turned, key=len)
    assert len(wrong) <= 4 and wrong <= set(r.unsure), (wrong, r.unsure)


def _wiggly_loop(rng: np.random.Generator, centre: np.ndarray, radius: float) -> np.ndarray:
    """A closed crack: a loop about ``radius`` pixels round, its edge wandering in and out."""
    t = np.linspace(0, 2 * np.pi, 90, endpoint=False)
    wander = np.convolve(rng.normal(0, 0.35, t.size + 8), np.ones(9) / 9, mode="valid")[: t.size]
    r = radius * (1 + wander)
    return np.stack([centre[0] + r * np.cos(t), centre[1] + r * np.sin(t)], 1).astype(np.int32)


@pytest.mark.parametrize("seed", [11, pytest.param(12, marks=pytest.mark.xfail(
    reason="cracks crossing two sides of the pit's outline leave them straight along 0.7 and 0.86 of their length, as a "
           "carpet's rings closing round a square are (0.86, 0.89; R105): the pit is listed to confirm, read open", strict=True)),
    pytest.param(13, marks=pytest.mark.xfail(
        reason="cracks running alongside a border within a few pixels hide it (the floor around it is the cracks' colour)",
        strict=True))])
def test_closed_wiggly_lava_cracks_are_not_pits(seed: int) -> None:
    """Dark lava veined with long orange cracks that wander and close into loops a square or two
    across (the art of a lava map): a printed border is a straight line along a square's side, at
    one distance from the grid line all along; a crack that wanders across that band is art, even
    where it closes round a square, and it does not hide a border it crosses. Only the outlined
    areas are terrain (PL p.26: "the artwork does not matter")."""
    rng = np.random.default_rng(seed)
    img = board((25, 35, 60))
    for _ in range(14):
        centre = rng.uniform([0, 0], [COLS * PX, ROWS * PX])
        cv2.polylines(img, [_wiggly_loop(rng, centre, float(rng.uniform(0.6, 1.6)) * PX)], True, ORANGE, 2, cv2.LINE_AA)
    inset_outline(img, 1, 1, 2, 1, RED)  # B2, C2 a wall
    inset_outline(img, 5, 3, 5, 3, ORANGE)  # F4 a pit
    r = read_map(img, COLS, ROWS, PX)
    assert "F4" in r.squares or "F4" in r.unsure  # read, or at least listed
    assert r.squares == {"B2": "wall", "C2": "wall", "F4": "pit"}


@pytest.mark.parametrize(("floor", "ring"), [((35, 25, 150), 1.0), ((30, 30, 140), 1.2)])
def test_a_red_floor_between_large_dark_rings_is_not_walls(floor: tuple[int, int, int], ring: float) -> None:
    """A floor printed red, crossed by thick dark rings two squares and more across and dark dots
    (the red shows as bands between them, every way), with the print's grain: the floor's own
    colour is art, not a wall. The wall outlined in red round its grey fill and the yellow area
    are read; every other square is open."""
    img = board(floor)
    step = int(2.4 * PX)
    for y in range(0, ROWS * PX + PX, step):
        for x in range(0, COLS * PX + PX, step):
            cv2.circle(img, (x + PX // 2, y + PX // 3), int(ring * PX), RING, int(0.2 * ring * PX))
            cv2.circle(img, (x + PX, y + PX), int(0.3 * PX), RING, -1)
            cv2.circle(img, (x, y + PX // 2), int(0.3 * PX), RING, -1)
    img = np.clip(img + np.random.default_rng(1).normal(0, 8, img.shape), 0, 255).astype(np.uint8)
    img[PX * 1 + 4:PX * 3 - 4, PX * 4 + 4:PX * 5 - 4] = (110, 110, 120)  # E2..E3: a grey wall block...
    inset_outline(img, 4, 1, 4, 2, RED)  # ...outlined red
    inset_outline(img, 1, 4, 2, 4, YELLOW)  # B5, C5 difficult
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"E2": "wall", "E3": "wall", "B5": "difficult", "C5": "difficult"}


@pytest.mark.parametrize("cast", [(0.6, 1.35, 0.95), (0.7, 1.4, 1.0)])
def test_orange_is_told_from_yellow_by_the_yellow_beside_it(cast: tuple[float, float, float]) -> None:
    """Under a strong green-yellow cast, with grid lines too faint to measure it, an orange
    outline's hue lies nearer yellow's printed hue than orange's. On the same map a yellow
    outline is yellower still: the two areas are of two colours, the redder one orange (a pit,
    PL p.26), and that reading is listed for the judge to confirm."""
    img = np.full((ROWS * PX, COLS * PX, 3), PAPER, np.uint8)  # no grid lines: the cast cannot be measured
    inset_outline(img, 1, 1, 2, 1, YELLOW)  # B2, C2 difficult
    inset_outline(img, 5, 3, 5, 4, ORANGE)  # F4, F5 a pit
    im = np.clip(img.astype(np.float32) * np.array(cast), 0, 255).astype(np.uint8)
    r = read_map(im, COLS, ROWS, PX)
    assert r.squares == {"B2": "difficult", "C2": "difficult", "F4": "pit", "F5": "pit"}
    assert "F4" in r.unsure and "F5" in r.unsure


def star_field(rng: np.random.Generator) -> np.ndarray:
    """A star field printed near black under a purple nebula, its grid lines printed brown at half
    ink: against that sky every grid line stands out as a dim orange stroke."""
    img = np.full((ROWS * PX, COLS * PX, 3), (40, 14, 30), np.uint8)  # BGR: a dark purple sky
    for _ in range(900):  # printed stars, one to two pixels
        x, y = rng.integers(0, [COLS * PX, ROWS * PX])
        cv2.circle(img, (int(x), int(y)), int(rng.integers(1, 3)), (235, 250, 255), -1)
    for x in range(0, COLS * PX + 1, PX):
        cv2.line(img, (x, 0), (x, ROWS * PX), (38, 48, 66), 2)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(img, (0, y), (COLS * PX, y), (38, 48, 66), 2)
    return img


def test_brown_grid_lines_on_a_black_star_field_are_no_pit_outlines() -> None:
    """The grid lines stand out as orange along every side of every square and through no
    square's middle. A map outlines a few areas, so what its typical side shows is the grid's own
    ink, not a pit round every square (reading R75). The yellow area and the red wall are read;
    every other square is open."""
    rng = np.random.default_rng(3)
    img = star_field(rng)
    line_outline(img, 1, 3, 3, 3, YELLOW)  # B4..D4 difficult, on the grid lines
    inset_outline(img, 5, 1, 5, 2, RED)  # F2, F3 a wall
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"B4": "difficult", "C4": "difficult", "D4": "difficult", "F2": "wall", "F3": "wall"}


@pytest.mark.parametrize("outline", [inset_outline, line_outline])
def test_an_orange_pit_on_a_grid_that_shows_orange_is_told_by_its_strength(
        outline: Callable[[np.ndarray, int, int, int, int, tuple[int, int, int]], None]) -> None:
    """On the same star field a pit's orange border, printed in full ink, stands out from the
    sky far more than the dim brown grid lines do: it is read (R75), whether just inside the
    squares or on the grid lines, and listed to confirm (its colour is the grid's); no other
    square is a pit."""
    rng = np.random.default_rng(3)
    img = star_field(rng)
    line_outline(img, 1, 3, 3, 3, YELLOW)  # B4..D4 difficult
    outline(img, 5, 1, 6, 2, ORANGE)  # F2..G3 a pit
    img = np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)
    r = read_map(img, COLS, ROWS, PX)
    pit = {"F2", "G2", "F3", "G3"}
    assert r.squares == {"B4": "difficult", "C4": "difficult", "D4": "difficult", **dict.fromkeys(pit, "pit")}
    assert pit <= set(r.unsure)


def navy_sky(rng: np.random.Generator, fill: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """A star field: black sky on the right, a bright purple nebula on the left, grid lines
    printed navy (70 % ink) -- against the black they show as a dim blue line, a door's colour.
    ``fill``: columns c0..c1, rows r0..r1 (0-based, inclusive) printed a light brown under the
    grid lines (a crate's fill), where the same navy lines stand out the more."""
    sky = np.full((ROWS * PX, COLS * PX, 3), (12, 5, 5), np.float32)
    yy, xx = np.mgrid[0:ROWS * PX, 0:COLS * PX]
    nebula = np.clip(1 - np.hypot(xx - COLS * PX * 0.25, yy - ROWS * PX * 0.5) / (5 * PX), 0, 1)[..., None]
    img = (sky * (1 - nebula) + np.array((110, 40, 100), np.float32) * nebula).astype(np.uint8)
    for _ in range(700):  # printed stars
        x, y = rng.integers(0, [COLS * PX, ROWS * PX])
        cv2.circle(img, (int(x), int(y)), int(rng.integers(1, 3)), (235, 250, 255), -1)
    if fill is not None:
        c0, r0, c1, r1 = fill
        patch = img[r0 * PX:(r1 + 1) * PX, c0 * PX:(c1 + 1) * PX]
        patch[:] = (patch * 0.25 + np.array((60, 85, 105), np.float32) * 0.75).astype(np.uint8)
    grid = np.zeros(img.shape[:2], np.uint8)
    for x in range(0, COLS * PX + 1, PX):
        cv2.line(grid, (x, 0), (x, ROWS * PX), 255, 2)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(grid, (0, y), (COLS * PX, y), 255, 2)
    return np.where(grid[..., None] > 0, img * 0.3 + np.array((60, 28, 24), np.float32) * 0.7, img).astype(np.uint8)


def wall_line_with_door(img: np.ndarray) -> None:
    """Wall edges east of F2..F4, and a door, three bright blue rectangles, east of F5."""
    cv2.line(img, (6 * PX, 1 * PX), (6 * PX, 4 * PX), RED, 4)
    for i in range(3):
        y0 = 4 * PX + 3 + i * 12
        cv2.rectangle(img, (6 * PX - 3, y0), (6 * PX + 3, y0 + 8), BLUE, -1)


def test_navy_grid_lines_on_a_black_sky_are_no_doors_and_hide_no_door() -> None:
    """Against the black sky the navy grid lines show a door's blue along many lines; a door is
    printed in full ink. The door is read (and listed to confirm: its colour is the grid's, R75),
    the red wall above it too, no other line is a door."""
    rng = np.random.default_rng(4)
    assert_the_wall_and_its_door_alone_are_read(navy_sky(rng), rng)


def assert_the_wall_and_its_door_alone_are_read(img: np.ndarray, rng: np.random.Generator) -> None:
    """With :func:`wall_line_with_door` drawn on ``img`` and a little noise: no terrain square,
    the wall edges and the door read and no other line, the door listed to confirm (its colour
    is the grid's)."""
    wall_line_with_door(img)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {}
    assert r.edges == {"F2.E": "wall", "F3.E": "wall", "F4.E": "wall", "F5.E": "door"}
    assert "F5.E" in r.unsure


@pytest.mark.parametrize("column", [1, 2])
def test_navy_grid_lines_over_a_light_fill_are_no_doors(column: int) -> None:
    """The same navy grid printed over a low area's brown fill, a strip three squares down
    (outlined green): over the fill the lines between its squares stand out as a door's blue even
    at the larger step that leaves the black sky's lines bare. A printed door is a mark on one
    side of its squares; a blue shown by another side of the same square too is the grid's ink
    (R92): no line through the fill is a door, the strip is read low, the real door still read."""
    rng = np.random.default_rng(4)
    img = navy_sky(rng, fill=(column, 1, column, 3))
    inset_outline(img, column, 1, column, 3, GREEN)
    wall_line_with_door(img)
    img = np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {f"{'ABCDEFGH'[column]}{n}": "low" for n in (2, 3, 4)}
    assert r.edges == {"F2.E": "wall", "F3.E": "wall", "F4.E": "wall", "F5.E": "door"}


GOLD, NAVY = (90, 180, 220), (120, 60, 40)


def gold_ring_carpet(period: float) -> np.ndarray:
    """A navy carpet printed with gold rings and blobs about a square apart (the pattern's period
    ``period`` squares, not the grid's): gold, between the pits' orange and the difficult yellow,
    drawn as curved lines that close round many squares and run near their sides."""
    img = board(NAVY)
    p = period * PX
    yy, xx = np.mgrid[0:ROWS * PX, 0:COLS * PX].astype(np.float32)
    ring = np.abs(np.hypot(xx % p - p / 2, yy % p - p / 2) - p * 0.35) < p * 0.045
    blob = np.sin(xx / p * 2 * np.pi) * np.sin(yy / p * 2 * np.pi) > 0.75
    img[ring | blob] = GOLD
    for x in range(0, COLS * PX + 1, PX):  # the grid printed over the art
        cv2.line(img, (x, 0), (x, ROWS * PX), (150, 150, 150), 1)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(img, (0, y), (COLS * PX, y), (150, 150, 150), 1)
    return img


@pytest.mark.parametrize("period", [0.95, 1.05, 1.1])
def test_gold_rings_of_a_carpet_closing_round_squares_are_no_pits(period: float) -> None:
    """Issue 28, round 14 (independent scenes 398, 473: eight and six squares read as pits, every
    one open): where the art draws a border's colour all over the map, its curved lines close round
    a square here and there, straight along a part of each side; a printed outline runs straight
    along the whole of every side (PL p.26). The outlined wall and difficult square are read, no
    square of the carpet is a pit (reading R105)."""
    img = gold_ring_carpet(period)
    inset_outline(img, 5, 1, 6, 1, RED)  # F2, G2 a wall
    inset_outline(img, 2, 3, 2, 3, YELLOW)  # C4 difficult
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"F2": "wall", "G2": "wall", "C4": "difficult"}
    # nor is a square listed because the rings run along three of its sides: an open outline is
    # one straight along them
    assert not [w for w, why in r.unsure.items() if "does not close" in why]


def ring_motif_carpet(period: float) -> np.ndarray:
    """A navy carpet printed with gold rings a square and a third across, each with two blobs on
    it (north-west and south-east), ``period`` squares apart both ways, one ring centred on C3:
    its curve hugs C3's four sides, straight enough along each (independent scene 507: such rings
    read as difficult terrain on C3 and J3); the grid printed pale over the art."""
    img = board(NAVY)
    p = period * PX
    yy, xx = np.mgrid[0:ROWS * PX, 0:COLS * PX].astype(np.float32)
    u, v = (xx - 2.5 * PX + p / 2) % p - p / 2, (yy - 2.5 * PX + p / 2) % p - p / 2
    ring = np.abs(np.hypot(u, v) - 0.67 * PX) < 0.065 * PX
    b = 0.67 * PX / np.sqrt(2)
    blobs = (np.hypot(u + b, v + b) < 0.2 * PX) | (np.hypot(u - b, v - b) < 0.2 * PX)
    img[ring | blobs] = GOLD
    for x in range(0, COLS * PX + 1, PX):
        cv2.line(img, (x, 0), (x, ROWS * PX), (230, 220, 200), 1)
    for y in range(0, ROWS * PX + 1, PX):
        cv2.line(img, (0, y), (COLS * PX, y), (230, 220, 200), 1)
    return img


@pytest.mark.parametrize("period", [1.75, 1.8])
def test_a_ring_of_the_art_round_one_square_is_no_outline_where_the_art_repeats_it(period: float) -> None:
    """Where the art draws a border's colour, a ring of it a little larger than a square, centred
    on one, runs near enough to straight along 0.92-0.97 of each side that it passed for an
    outline (R105; independent scene 507: C3 and J3 read difficult at full confidence, both
    open). The art repeats its motif at its own period, off the grid lines as much as on them; a
    printed outline sits on the grid. C3 is read open and listed; the printed pit outline on G2
    is still read (reading R138)."""
    img = ring_motif_carpet(period)
    inset_outline(img, 6, 1, 6, 1, ORANGE)  # G2 a pit, printed
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"G2": "pit"}
    assert "C3" in r.unsure and "recurs" in r.unsure["C3"]



@pytest.mark.parametrize("period", [2.0, 1.75])
def test_a_ring_of_the_art_round_one_square_lies_outside_it_and_is_no_outline(period: float) -> None:
    """A ring of the art a little larger than a square, centred on one, closes round it with its
    curve a tenth to a quarter of a square beyond each side; a printed border runs on the grid
    lines or just inside its area. At a whole number of squares apart the rings recur on the grid
    only, which R138 does not tell from printed outlines (independent scene 554: a green carpet of
    gold rings two squares apart, 32 squares read difficult, all open). C3 is read open and
    listed; the printed pit outline on G2 is still read (reading R192)."""
    img = ring_motif_carpet(period)
    inset_outline(img, 6, 1, 6, 1, ORANGE)  # G2 a pit, printed
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"G2": "pit"}
    assert "C3" in r.unsure and "open" in r.unsure["C3"]

def lava_veins(rng: np.random.Generator) -> np.ndarray:
    """Dark lava veined with long glowing orange cracks, the pits' own colour, that wander and
    close into loops."""
    img = board((15, 18, 25))
    for _ in range(16):
        centre = rng.uniform([0, 0], [COLS * PX, ROWS * PX])
        cv2.polylines(img, [_wiggly_loop(rng, centre, float(rng.uniform(0.6, 1.6)) * PX)], True, (20, 120, 250), 2, cv2.LINE_AA)
    return img


def _crack_down(img: np.ndarray, rng: np.random.Generator, x: float, y0: int, y1: int) -> None:
    """A crack wandering down the map about column pixel ``x``, from row pixel ``y0`` to ``y1``."""
    ys = np.arange(y0, y1, 4)
    xs = x + np.cumsum(rng.normal(0, 1.2, ys.size))
    cv2.polylines(img, [np.stack([xs, ys], 1).astype(np.int32)], False, (20, 120, 250), 2, cv2.LINE_AA)


@pytest.mark.parametrize("seed", [1, 2, pytest.param(3, marks=pytest.mark.xfail(
    reason="a crack running alongside a side of the outline within a few pixels hides that side (the floor around it is "
           "the crack's colour): the pit is read open, two of its squares listed to confirm", strict=True))])
def test_a_pit_on_lava_is_read_whole_though_cracks_run_through_its_squares(seed: int) -> None:
    """Issue 28, round 14 (independent scenes 406, 414, 415, 474: pits of 2-6 squares on lava read
    open): a crack of the pit's orange wandering down the middle of a square inside the outline or
    beside it made the outline's side there read as art, and the area leaked open. A side along
    which the orange runs straight the whole way is the outline, whatever the art beside it; the
    pit, filled dark as printed pits are, is read whole (PL p.26) (reading R105)."""
    rng = np.random.default_rng(seed)
    img = lava_veins(rng)
    img[PX * 2:PX * 5, PX * 1:PX * 3] = (img[PX * 2:PX * 5, PX * 1:PX * 3] * 0.25 + 8).astype(np.uint8)  # B3..C5: a dark pit...
    _crack_down(img, rng, 1.5 * PX, PX * 2 + 6, PX * 5 - 6)  # ...a crack's glow down its squares' middles
    _crack_down(img, rng, 0.5 * PX, PX * 1, PX * 6)  # and down the squares beside it
    inset_outline(img, 1, 2, 2, 4, ORANGE)  # ...outlined orange
    inset_outline(img, 5, 1, 5, 1, RED)  # F2 a wall
    r = read_map(img, COLS, ROWS, PX)
    assert {s: k for s, k in r.squares.items() if k == "pit"} == {s: "pit" for s in ("B3", "C3", "B4", "C4", "B5", "C5")}
    assert r.squares.get("F2") == "wall"


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.02, 0.1, 0.4]),
       st.integers(4, 40), st.sampled_from(["H", "V"]), st.sampled_from([0.05, 0.1, 0.22, 0.6]),
       st.sampled_from([0.6, 0.8, 0.9]), st.sampled_from([0.0, 0.1, 0.3]))
def test_many_sides_measured_at_once_read_as_each_one_alone(h: int, w: int, seed: int, density: float, px: int, axis: str,
                                                              reach: float, middle: float, band: float) -> None:
    """The map reading measures every side of one colour at once (round 15 of issue 28): each
    number is the one its own window gives, to the last bit -- the windows at the map's edge,
    cut short, and those past it, empty, included."""
    rng = np.random.default_rng(seed)
    mask = rng.random((h, w)) < density
    ys, xs = [int(v) for v in rng.integers(0, h + px, 12)], [int(v) for v in rng.integers(0, w + px, 12)]
    alone = [_cover_at(mask, axis, y, x, px, reach, middle, band) for y, x in zip(ys, xs, strict=True)]
    assert _covers(mask, axis, ys, xs, px, reach, middle, band) == alone


def test_the_map_reading_measures_each_colour_once_not_a_window_a_side(monkeypatch: pytest.MonkeyPatch) -> None:
    """A map of 8 x 6 squares has 110 sides, each measured for four colours along the side and
    through the squares beside it: a window each, sliced and summed on its own, was 1,716 windows
    here and 8,000-10,000 on a photo's map, half the CPU of a markerless photo's orientation by its
    terrain (round 15 of issue 28). Only the sides read as outlined are looked at one by one
    (where along them each stroke runs)."""
    windows = 0
    one_window = mapread._band_profile

    def counted(*args: object, **kwargs: object) -> tuple[np.ndarray, int]:
        nonlocal windows
        windows += 1
        return one_window(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(mapread, "_band_profile", counted)
    img = board()
    inset_outline(img, 2, 1, 2, 1, YELLOW)
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"C2": "difficult"}
    assert windows <= 4 * 4  # the outlined square's four sides, each colour's strokes along them


@pytest.mark.parametrize("stretch", [1.025, 0.975, 1.02])
def test_a_wall_line_beside_the_fitted_grid_line_at_the_far_side_is_read(stretch: float) -> None:
    """A map whose photo's grid is fitted a little off, worst at the far side: the map drawn
    stretched across by ``stretch`` and read through the unstretched grid, so its east lines lie
    5-7 pixels (0.13-0.18 squares) off the fitted ones. A wall printed on the grid line east of
    G2..G5 (as a wall edge always is) runs there, beside the fitted line; it is still the wall
    line, and the wall near the west edge, almost on its line, is read as before (reading R128)."""
    img = board()
    cv2.line(img, (7 * PX, 1 * PX), (7 * PX, 5 * PX), RED, 4)  # G2..G5 east: four wall edges
    cv2.line(img, (1 * PX, 2 * PX), (1 * PX, 4 * PX), RED, 4)  # A3..A4 east: two more
    w = int(round(COLS * PX * stretch))
    seen = cv2.resize(img, (w, ROWS * PX), interpolation=cv2.INTER_LINEAR)
    if w >= COLS * PX:
        seen = seen[:, :COLS * PX]
    else:  # the table beyond the map's east edge, paper-coloured
        seen = np.concatenate([seen, np.full((ROWS * PX, COLS * PX - w, 3), PAPER, np.uint8)], axis=1)
    r = read_map(seen, COLS, ROWS, PX)
    assert r.squares == {}
    assert r.edges == {"G2.E": "wall", "G3.E": "wall", "G4.E": "wall", "G5.E": "wall", "A3.E": "wall", "A4.E": "wall"}


def door_at(img: np.ndarray, line_x: int, row: int) -> None:
    """A door on the vertical grid line ``line_x`` beside row ``row`` (0-based): three blue rectangles."""
    for i in range(3):
        y0 = row * PX + 3 + i * 12
        cv2.rectangle(img, (line_x * PX - 3, y0), (line_x * PX + 3, y0 + 8), BLUE, -1)


def test_a_door_is_read_where_it_opens_a_wall_and_a_lone_blue_mark_is_listed() -> None:
    """A printed door stands in a wall's line: east of B2..B5 a wall, a double door in it (B3, B4),
    so each door meets the wall at one end, the other through its neighbour; a door between two
    wall squares (a gap in a thick wall, E3 and E5 outlined red, the door east of E4 -- its ends
    touch their corners); and a lone blue mark on the line east of G2 that meets no wall at either
    end: the grid's ink or the art, read open and listed to confirm (reading R129)."""
    img = board()
    cv2.line(img, (2 * PX, 1 * PX), (2 * PX, 2 * PX), RED, 4)  # B2.E wall
    cv2.line(img, (2 * PX, 4 * PX), (2 * PX, 5 * PX), RED, 4)  # B5.E wall
    door_at(img, 2, 2)  # B3.E
    door_at(img, 2, 3)  # B4.E
    inset_outline(img, 4, 2, 4, 2, RED)  # E3 wall
    inset_outline(img, 4, 4, 4, 4, RED)  # E5 wall
    door_at(img, 5, 3)  # E4.E, between the corners of E3 and E5
    door_at(img, 7, 1)  # G2.E: no wall anywhere near
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"E3": "wall", "E5": "wall"}
    assert r.edges == {"B2.E": "wall", "B3.E": "door", "B4.E": "door", "B5.E": "wall", "E4.E": "door"}
    assert "G2.E" in r.unsure
    assert not {"B3.E", "B4.E", "E4.E"} & set(r.unsure)  # in a wall's line, or between two wall squares (R208)


def test_a_door_only_a_wall_squares_corner_meets_is_read_and_listed() -> None:
    """Reading R208 (independent scene 574: a blue carpet's grid line under F10 read as a door,
    unlisted, because its one end touches the corner of the wall block G8:H10): a door that no wall
    line meets, and a wall square's corner at one end only, is read and listed to confirm; a door
    in a wall's line is read and not listed."""
    img = board()
    inset_outline(img, 6, 1, 6, 1, RED)  # G2, a wall square
    door_at(img, 6, 2)  # F3.E: its top end is G2's south-west corner, nothing at its other end
    cv2.line(img, (2 * PX, 1 * PX), (2 * PX, 2 * PX), RED, 4)  # B2.E wall
    door_at(img, 2, 2)  # B3.E, in the wall's line
    r = read_map(img, COLS, ROWS, PX)
    assert r.squares == {"G2": "wall"}
    assert r.edges == {"B2.E": "wall", "B3.E": "door", "F3.E": "door"}
    assert "corner" in r.unsure["F3.E"] and "B3.E" not in r.unsure


@pytest.mark.parametrize("radius", [0.2, 0.22, 0.25])
def test_a_red_disc_of_the_art_on_a_grid_line_is_no_wall(radius: float) -> None:
    """The art's red disc, 0.4-0.5 of a square across, centred on the grid line under E3 (a token
    or a lamp printed on the floor): red along the middle of that side, but a wall line runs from
    corner to corner of its side, which the disc does not; the wall printed along the line under
    B5..C5 is read (reading R130)."""
    img = board()
    cv2.circle(img, (4 * PX + PX // 2, 3 * PX), int(radius * PX), (40, 30, 120), -1)  # dark red disc
    cv2.circle(img, (4 * PX + PX // 2, 3 * PX), int(radius * PX * 0.6), (70, 60, 180), 2)  # its lighter ring
    cv2.line(img, (1 * PX, 5 * PX), (3 * PX, 5 * PX), RED, 4)  # B5.S, C5.S
    r = read_map(img, COLS, ROWS, PX)
    assert r.edges == {"B5.S": "wall", "C5.S": "wall"}


def navy_lines_on_wood(rng: np.random.Generator) -> np.ndarray:
    """A light wooden floor (brown planks, a darker grain) with its grid lines printed navy, 2
    pixels wide, at 45 % ink, and two of them (east of B and of D) at 80 %: against the brown
    those two show a door's blue along their whole length even at the largest step the grid's
    ink is measured again by (R75) -- twelve lines of the 82, more than a map prints doors in
    (independent scene 443: navy lines on wood, nine lines of 157 left at that step)."""
    img = np.full((ROWS * PX, COLS * PX, 3), (70, 125, 175), np.float32)
    yy = np.mgrid[0:ROWS * PX, 0:COLS * PX][0]
    img += (12 * np.sin(yy / 3.0 + rng.uniform(0, 6)))[..., None]  # the planks' grain
    navy = np.array((110, 40, 25), np.float32)
    for x in range(0, COLS * PX + 1, PX):
        ink = 0.8 if x in (2 * PX, 4 * PX) else 0.45
        line = np.zeros(img.shape[:2], np.uint8)
        cv2.line(line, (x, 0), (x, ROWS * PX), 255, 2)
        img = np.where(line[..., None] > 0, img * (1 - ink) + navy * ink, img)
    for y in range(0, ROWS * PX + 1, PX):
        line = np.zeros(img.shape[:2], np.uint8)
        cv2.line(line, (0, y), (COLS * PX, y), 255, 2)
        img = np.where(line[..., None] > 0, img * 0.55 + navy * 0.45, img)
    return np.clip(img, 0, 255).astype(np.uint8)


def test_a_door_in_a_walls_line_is_read_where_the_grids_ink_shows_blue_at_every_step() -> None:
    """Navy grid lines on a wooden floor show a door's blue along too many lines at every step
    of R75, and no door was read at all -- the door east of F5, in the line of the wall east of
    F2..F4, among them (independent scenes 443 and 400: each a door in a wall's line missed, not
    listed). The grid's ink runs along lines whether a wall does or not; a door stands in a
    wall's line, the wall running on past its end: it is read and listed to confirm, and no
    other line is a door (reading R137)."""
    rng = np.random.default_rng(7)
    assert_the_wall_and_its_door_alone_are_read(navy_lines_on_wood(rng), rng)


def hazard_stripe(img: np.ndarray, row: int, top: float = 0.25, bottom: float = 0.75) -> None:
    """A yellow and black hazard stripe of the art across the whole map in ``row`` (0-based), from
    ``top`` to ``bottom`` of its height (the middle half), its diagonal bands about a fifth of a
    square wide."""
    y0, y1 = row * PX + int(top * PX), row * PX + int(bottom * PX)
    yy, xx = np.mgrid[y0:y1, 0:COLS * PX]
    band = ((xx + yy) // (PX // 5)) % 2 == 0
    img[y0:y1][band] = YELLOW
    img[y0:y1][~band] = (20, 20, 20)


@pytest.mark.parametrize("inset", [0, 4])
def test_an_outline_crossed_by_a_hazard_stripe_of_its_colour_is_read_closed_and_listed(inset: int) -> None:
    """Issue 28, round 20 (independent scene 425: B4:B6 difficult read open, unlisted): the art's
    yellow and black stripe runs across row 4 and through the yellow outline of B3:B5; where it
    crosses, the stripe's yellow shows through the squares' middles as much as along the side, so
    those two sides tell nothing; the outline's other sides close round the area. It is read
    difficult, and listed; the stripe's other squares stay open (reading R170)."""
    img = board()
    hazard_stripe(img, 3)
    if inset:  # the outline printed over the art
        inset_outline(img, 1, 2, 1, 4, YELLOW, inset)
    else:
        line_outline(img, 1, 2, 1, 4, YELLOW)
    inset_outline(img, 5, 1, 5, 1, RED)  # F2 a wall, away from the stripe
    r = read_map(cv2.GaussianBlur(img, (0, 0), 1.0), COLS, ROWS, PX)  # a photo's blur
    assert r.squares == {"B3": "difficult", "B4": "difficult", "B5": "difficult", "F2": "wall"}
    assert {"B3", "B4", "B5"} <= set(r.unsure)
    assert "crosses it" in r.unsure["B4"]
    assert "F2" not in r.unsure


def test_a_hazard_stripe_alone_closes_no_area() -> None:
    """The stripe's sides are hidden only: with no outline of its colour round most of an area, no
    square is read (reading R170)."""
    img = board()
    hazard_stripe(img, 2)
    r = read_map(cv2.GaussianBlur(img, (0, 0), 1.0), COLS, ROWS, PX)
    assert r.squares == {}


def test_an_orange_outline_between_a_green_floor_and_a_dark_fill_is_a_pit() -> None:
    """Issue 28, round 20 (independent scene 429: E7 a pit read open, unlisted): a thin orange line
    on the grid line between a green floor and a square's dark fill (the photo's own colours there,
    once balanced) departs from the dark toward yellow-orange and from the green toward red-orange:
    named difficult against the one and pit against the other, it was a stroke of neither, and the
    pit was read open. Naming every such pixel by the mean of the two estimates read this pit but
    turned grass maps' pit outlines difficult (scene 405, round 20); named so only on the sides no
    stroke outlines, it reads the pit (reading R291; an expected failure until then)."""
    img = board((44, 84, 21))
    c0, r0 = 3, 2
    cv2.rectangle(img, (c0 * PX + 1, r0 * PX + 1), ((c0 + 1) * PX - 1, (r0 + 1) * PX - 1), (21, 46, 37), -1)
    cv2.rectangle(img, (c0 * PX, r0 * PX), ((c0 + 1) * PX, (r0 + 1) * PX), (12, 128, 180), 2)
    r = read_map(img, COLS, ROWS, PX, mean_named=True)
    assert r.squares == {"D3": "pit"}
    assert read_map(img, COLS, ROWS, PX).squares == {}  # without it (the grid search's reading): read open


def test_an_outlined_pit_is_not_outvoted_by_its_outlines_split_pixels() -> None:
    """Reading R291's other half (scene 405, round 20): the strokes the two sides of a line name
    differently are looked at only on sides no stroke outlines. A pit outlined on the grid lines in
    the same orange, on the same green floor but without the dark fill (named pit against both
    sides), and a pit with the fill beside it are read pits, and a yellow outline stays difficult."""
    img = board((44, 84, 21))
    cv2.rectangle(img, (1 * PX + 1, 1 * PX + 1), (2 * PX - 1, 2 * PX - 1), (21, 46, 37), -1)  # B2 filled dark
    cv2.rectangle(img, (1 * PX, 1 * PX), (2 * PX, 2 * PX), (12, 128, 180), 2)
    cv2.rectangle(img, (4 * PX, 1 * PX), (6 * PX, 2 * PX), (12, 128, 180), 2)  # E2:F2 on the bare floor
    inset_outline(img, 2, 4, 3, 4, YELLOW)  # C5:D5 difficult
    r = read_map(img, COLS, ROWS, PX, mean_named=True)
    assert r.squares == {"B2": "pit", "E2": "pit", "F2": "pit", "C5": "difficult", "D5": "difficult"}


def test_a_hazard_stripe_below_an_outline_closes_no_square_with_its_own_edge() -> None:
    """Issue 28, round 20 (independent scene 373: K6, open, read difficult by a first version): the
    stripe runs along the lower part of row 4, right under the yellow outline of C2:C3; the square
    C4 below has the outline's side above, the stripe's sides hidden either side and the stripe's
    own lower edge below. Its hidden sides' lines run into no outline side: it stays open (reading
    R170)."""
    img = board()
    hazard_stripe(img, 3, 0.5, 0.95)
    inset_outline(img, 2, 1, 2, 2, YELLOW)
    r = read_map(cv2.GaussianBlur(img, (0, 0), 1.0), COLS, ROWS, PX)
    assert r.squares == {"C2": "difficult", "C3": "difficult"}


def test_the_list_to_confirm_is_one_entry_a_look_least_sure_first() -> None:
    """Reading R207 (issue 28 item 5, independent scene 554: 55 squares listed one by one, 51 of
    them the carpet's motif read open): the squares of one outlined area listed for one doubt are
    one entry, so are all the squares read open for one same doubt; the entries are ranked least
    sure first, the square that tells which way round before all, the unmeasured after the measured."""
    motif = "difficult? the art's motif: read as open"
    cast = "pit? the photo's colour cast could not be checked"
    r = mapread.MapReading(
        squares={"C3": "pit", "D3": "pit", "C4": "pit", "H2": "wall", "A6": "low", "F6": "pit"},
        confidence={"C3": 0.7, "D3": 0.7, "C4": 0.7, "H2": 0.0, "A6": 1.0, "F6": 0.7, "B5.E": 0.4},
        unsure={"C3": cast, "D3": cast, "C4": cast, "F6": cast, "H2": "wall or pit?", "A6": "which way round: read as low",
                "A1": motif, "E1": motif, "G5": motif, "B5.E": "door?", "D2.S": "wall 40%, door 10%: read as open"})
    got = mapread.to_confirm(r, first="A6")
    assert got == [
        ("A6", "which way round: read as low", ["A6"]),
        ("H2", "wall or pit?", ["H2"]),
        ("B5.E", "door?", ["B5.E"]),
        ("C3:D3, C4", cast, ["C3", "D3", "C4"]),  # one area, one look
        ("F6", cast, ["F6"]),  # the same doubt on another area: another look
        ("A1, E1, G5", motif, ["A1", "E1", "G5"]),  # read open, one doubt: one look at the map
        ("D2.S", "wall 40%, door 10%: read as open", ["D2.S"]),
    ]
    assert mapread.to_confirm(mapread.MapReading()) == []


@pytest.mark.parametrize(("cx", "cy", "radius"), [(4.3, 2.83, 0.4), (4.35, 2.8, 0.42), (4.25, 2.8, 0.45)])
def test_a_blue_ring_of_the_art_beside_a_wall_is_no_door(cx: float, cy: float, radius: float) -> None:
    """Reading R345 (independent scene 682, wood: a navy disc of the art with a blue ring, in the
    square beside a wall line's end, read as doors on two of that square's sides, one meeting the
    wall's end, the other that door): a door is a row of rectangles across its line, lighting the
    bands across it evenly; the ring's arcs near the lines light one band most and less and less
    beside it -- read open and listed; the door printed in the wall's line is read."""
    img = board((60, 110, 140))
    cv2.line(img, (5 * PX, 0), (5 * PX, 4 * PX), RED, 4)  # E1.E .. E4.E
    img[1 * PX + 2:2 * PX - 1, 5 * PX - 4:5 * PX + 5] = (60, 110, 140)  # the wall's gap for its door
    door_at(img, 5, 1)  # E2.E
    centre = (int(cx * PX), int(cy * PX))
    cv2.circle(img, centre, int(radius * PX), (90, 25, 10), -1)  # the navy disc, in E3 near its south-west corner
    cv2.circle(img, centre, int(radius * PX * 0.85), (210, 110, 40), 2, cv2.LINE_AA)  # its blue ring
    r = read_map(img, COLS, ROWS, PX)
    assert r.edges == {"E1.E": "wall", "E2.E": "door", "E3.E": "wall", "E4.E": "wall"}
    assert "rectangles" in r.unsure["E3.S"] and "rectangles" in r.unsure["D3.E"]
    assert "E2.E" not in r.unsure
