"""The grid search's CPU (issue 28: "CPU a photo <= 1.0 s on two cores"): the harder corner-marker
searches scan three adaptive-threshold windows (3-15 px), not six (3-33), and still read corner
markers from 24 px (a 1 px blur and JPEG: 20 px and under were read by neither) to 320 px, a fifth
of the photo's side, tilted and blurred as a phone shows them; the printed-colour read
measures each pixel's own colour once a map."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.photo import gridsearch, mapread
from assistant.photo.markers import CORNER_WINDOW_MAX, find_markers
from assistant.photo.synth import DICT


def _scene(sides: list[int], seed: int = 0) -> np.ndarray:
    """A 1,600 x 1,200 grey table with wood-like streaks, corner markers 0-3 (with their white
    margin) of the given sides in pixels, each turned and foreshortened, the whole blurred by a
    lens (Gaussian, 1 px) and JPEG-compressed."""
    rng = np.random.default_rng(seed)
    h, w = 1200, 1600
    streaks = cv2.GaussianBlur(rng.normal(0, 1, (h, w // 8)).astype(np.float32), (0, 0), 3)
    img = np.clip(120 + 25 * cv2.resize(streaks, (w, h)), 0, 255).astype(np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICT)
    for mid, side in enumerate(sides):
        n = 6 * 20
        mk = np.full((n + 40, n + 40), 255, np.uint8)  # a white margin of a third of the marker
        mk[20:20 + n, 20:20 + n] = cv2.aruco.generateImageMarker(dictionary, mid, n)
        cx, cy = 250 + 380 * mid, 300 + 180 * (mid % 2)
        s = side * (n + 40) / n / 2
        dst = np.array([[cx - s, cy - 0.7 * s], [cx + s, cy - 0.6 * s], [cx + 1.1 * s, cy + 0.75 * s], [cx - 0.9 * s, cy + 0.7 * s]], np.float32)
        src = np.array([[0, 0], [n + 40, 0], [n + 40, n + 40], [0, n + 40]], np.float32)
        M = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(mk, M, (w, h), flags=cv2.INTER_AREA, borderValue=0)
        inside = cv2.warpPerspective(np.full_like(mk, 255), M, (w, h), borderValue=0) > 0
        img[inside] = warped[inside]
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    ok, jpg = cv2.imencode(".jpg", cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(jpg, cv2.IMREAD_COLOR)


def test_the_harder_searches_scan_three_windows() -> None:
    assert CORNER_WINDOW_MAX == 15


@pytest.mark.parametrize("sides", [[24, 30, 38, 48], [60, 90, 130, 170], [200, 240, 280, 320]])
def test_the_harder_searches_read_corner_markers_small_and_large(sides: list[int]) -> None:
    img = _scene(sides)
    assert sorted(m.id for m in find_markers(img, small_markers=True) if m.id < 4) == [0, 1, 2, 3]
    assert sorted(m.id for m in find_markers(img, small_markers=True, full_resolution=True) if m.id < 4) == [0, 1, 2, 3]


def test_the_printed_colours_named_with_the_pixels_own_lean_measured_once_are_the_same() -> None:
    rng = np.random.default_rng(3)
    a, b, fa, fb = (rng.normal(0, 40, (40, 50)).astype(np.float32) for _ in range(4))
    once = mapread._named(a, b, fa, fb, mapread._leaning(a, b))
    fresh = mapread._named(a, b, fa, fb)
    assert once.keys() == fresh.keys() and all(np.array_equal(once[k], fresh[k]) for k in once)
    assert any(m.any() for m in fresh.values())  # some pixel is named: the comparison compares something


def _named_as_written(a: np.ndarray, b: np.ndarray, fa: np.ndarray, fb: np.ndarray, least: float = mapread.LEAST_DEPARTURE) -> dict[str, np.ndarray]:
    """The printed colours' reading as round 18 wrote it: numpy's float remainder, and every test
    made for every colour (the reading the cheaper one must give to the last bit)."""
    def gaps(ang: np.ndarray) -> np.ndarray:
        return np.abs((ang[None] - mapread._PROTO + 180.0) % 360.0 - 180.0)

    da, db = a - fa, b - fb
    ta, tb = fa + da / mapread.COVER, fb + db / mapread.COVER
    strong = (np.hypot(da, db) >= least) & (np.hypot(ta, tb) >= mapread.LEAST_CHROMA)
    diff = gaps(np.degrees(np.arctan2(tb, ta)).astype(np.float32))
    nearest = diff.argmin(axis=0)
    near = diff <= mapread.HUE_TOLERANCE
    own = np.degrees(np.arctan2(b, a)).astype(np.float32)
    near &= (gaps(own) <= mapread.OWN_TOLERANCE) & (a[None] * mapread._COS + b[None] * mapread._SIN >= mapread.OWN_LEAST)
    near &= da[None] * mapread._COS + db[None] * mapread._SIN >= least
    return {name: strong & near[k] & (nearest == k) for k, name in enumerate(mapread.NAMES)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_printed_colours_read_cheaply_are_those_of_the_direct_reading(dtype: type) -> None:
    rng = np.random.default_rng(5)
    a, b, fa, fb = (rng.normal(0, 40, (60, 70)).astype(dtype) for _ in range(4))
    for least in (mapread.LEAST_DEPARTURE, 2 * mapread.LEAST_DEPARTURE):
        cheap, direct = mapread._named(a, b, fa, fb, least=least), _named_as_written(a, b, fa, fb, least)
        assert cheap.keys() == direct.keys() and all(np.array_equal(cheap[k], direct[k]) for k in cheap)
        assert sum(int(m.sum()) for m in direct.values()) > 100  # many pixels named, of several colours
        assert sum(m.any() for m in direct.values()) >= 3


def test_the_hue_gaps_are_the_float_remainders_to_the_last_bit() -> None:
    """Every float32 within 20,000 steps of the angles where the remainder wraps (each printed
    colour's hue and its opposite, 0 and +-180), and a million drawn from -180 to 180."""
    rng = np.random.default_rng(6)
    centres = [-180.0, 0.0, 180.0] + [c for p in mapread._PROTO.ravel().tolist() for c in (p - 180.0, p, p + 180.0)]
    near = [(np.arange(-20_000, 20_000) + np.float32(c).view(np.int32)).astype(np.int32).view(np.float32) for c in centres]
    ang = np.concatenate([*near, (rng.random(1_000_000) * 360 - 180).astype(np.float32), np.float32([-0.0, 0.0])])
    ang = ang[(ang >= -180) & (ang <= 180)]
    expected = np.abs((ang[None] - mapread._PROTO[:, :, 0] + 180.0) % 360.0 - 180.0)
    got = mapread._hue_gaps(ang[None])[:, 0]
    assert got.dtype == np.float32 and np.array_equal(got.view(np.uint32), expected.view(np.uint32))


def test_map_from_photo_searches_a_markerless_maps_printed_lines_once(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An 8 x 6 paper map without corner markers, upside down (the first grid pass's scene): the
    grid search of ``map from-photo`` (the photo's searches, then the upright grid) looks for the
    printed grid once, and reads the same map as before (its terrain, turned as the judge says)."""
    from assistant.photo import lines, terrain

    from .test_mapread_orientation import TRUE, _photo

    calls: list[int] = []
    real = lines._grid_candidates

    def counted(*a, **k):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(lines, "_grid_candidates", counted)
    image = cv2.imread(_photo(tmp_path, 8, 6, cv2.ROTATE_180))
    got = terrain.read_map_photo(image, 8, 6, turn=180)
    assert got is not None and got.how == "lines"
    assert len(calls) == 1
    assert got.reading.squares == TRUE


@pytest.mark.parametrize("side", [0.3, 0.45, 0.6])
def test_the_search_near_a_square_reads_base_markers_a_third_to_six_tenths_of_a_square(side: float) -> None:
    """Base markers of 0.3-0.6 of a square (CONTRACT §4's figure bases) on a board seen at 60 px a
    square, blurred by a lens, read by the search around their squares (its windows unchanged by
    the corner searches' three)."""
    from assistant.photo.markers import find_markers_near
    px, n = 60, 8
    rng = np.random.default_rng(5)
    img = np.clip(150 + 20 * cv2.GaussianBlur(rng.normal(0, 1, (n * px, n * px)).astype(np.float32), (0, 0), 2), 0, 255).astype(np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(DICT)
    squares = [(1, 1), (5, 2), (3, 6)]
    for mid, (c, r) in zip((7, 21, 40), squares, strict=True):
        s = int(round(side * px))
        mk = cv2.aruco.generateImageMarker(dictionary, mid, s)
        m = max(2, s // 6)  # the sticker's white margin, a cell wide
        x0, y0 = c * px + (px - s) // 2, r * px + (px - s) // 2
        img[y0 - m:y0 + s + m, x0 - m:x0 + s + m] = 255
        img[y0:y0 + s, x0:x0 + s] = mk
    img = cv2.cvtColor(cv2.GaussianBlur(img, (0, 0), 1.2), cv2.COLOR_GRAY2BGR)
    H = np.diag([1 / px, 1 / px, 1.0])  # image pixels -> board squares
    assert sorted(m.id for m in find_markers_near(img, H, squares)) == [7, 21, 40]


def test_two_corner_markers_the_printed_lines_confirm_are_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    """A 12 MP-like photo (3,200 px: larger than the marker search's 2,400-px copy, so the
    whole-photo searches would follow) with two corner markers showing, NW and SE covered (a
    figure's shadow, a hand), printed lines clear: the grid the two markers give is confirmed by
    the lines after the searches on the copy, and no whole-photo search for a third is run (each
    0.4-1.3 CPU-seconds on the diagnosis photos, reading none). The grid lies on the map's lattice."""
    import assistant.photo as photo
    from assistant.photo.board import marker_board_corners
    from assistant.photo.synth import MARKER_SQUARES, random_position, render_photo

    from .test_photo_grid import count_searches

    rng = np.random.default_rng(6)
    pos = random_position(rng, busy=False)
    img, truth = render_photo(pos, seed=6, width=3200, height=2400, tilt_max=20.0)
    cols, rows = pos.map.cols, pos.map.rows
    for mid in (0, 2):
        cover = marker_board_corners(mid, cols, rows, MARKER_SQUARES * 1.6)
        cv2.fillConvexPoly(img, truth.photo_points(cover).astype(np.int32), (40, 45, 50))
    calls = count_searches(monkeypatch)
    grid, markers, by_lines = photo.locate_grid(img, pos)
    assert sorted(m.id for m in markers if m.id < 4) == [1, 3] and not by_lines
    assert all(not full for _small, full, _up in calls)  # the copy's searches only
    pts = np.array([[x, y] for x in range(cols + 1) for y in range(rows + 1)], np.float64)
    back = cv2.perspectiveTransform(truth.photo_points(pts)[None], grid.H)[0]
    assert float(np.max(np.linalg.norm(back - pts, axis=1))) < 0.25


def test_a_markerless_photos_grey_and_search_copies_are_made_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The structure check, the default and the harder corner-marker search and the full-resolution
    one each made their own grey copy of the whole photo (four), and the default and the harder
    search each their own shrunk copy (two): within one grid search each is made once (.views)."""
    from assistant import photo
    from assistant.photo import markers
    from assistant.photo.synth import random_position, render_photo

    pos = random_position(np.random.default_rng(11), busy=False)
    img, _truth = render_photo(pos, seed=11, width=1600, height=1200, tilt_max=20.0, corner_markers=False)
    # a search copy smaller than the photo, as a 12 MP photo's 2,400-px copy, on a photo small enough for a test
    monkeypatch.setattr(markers, "MAX_SIDE", 1000)
    monkeypatch.setattr(gridsearch, "MARKER_SIDE", 1000)
    greys: list[tuple[int, ...]] = []
    halves: list[tuple[int, ...]] = []
    real_cvt, real_resize = cv2.cvtColor, cv2.resize

    def cvt(src: np.ndarray, code: int, *args: object, **kw: object) -> np.ndarray:
        if code == cv2.COLOR_BGR2GRAY and src.shape == img.shape:
            greys.append(src.shape)
        return real_cvt(src, code, *args, **kw)

    def resize(src: np.ndarray, dsize: object, *args: object, **kw: object) -> np.ndarray:
        if src.shape == img.shape[:2] and kw.get("fx") == 1000 / 1600:
            halves.append(src.shape)
        return real_resize(src, dsize, *args, **kw)

    monkeypatch.setattr(cv2, "cvtColor", cvt)
    monkeypatch.setattr(cv2, "resize", resize)
    try:  # no corner markers: found by the printed lines, or refused; either way every search ran
        photo.locate_grid(img, pos)
    except photo.NoGridError:
        pass
    assert len(greys) == 1
    assert len(halves) == 1


def test_map_from_photo_runs_each_marker_search_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``map from-photo`` on a markerless map: the grid search runs the default corner-marker
    search, then the harder ones, and the printed lines turn the grid by the corner markers the
    default search saw -- the same search, asked for again; within one photo's reading it is not
    made twice (.views)."""
    from assistant.photo import markers, terrain
    from assistant.photo.synth import random_position, render_photo

    pos = random_position(np.random.default_rng(11), busy=False)
    img, _truth = render_photo(pos, seed=11, width=1600, height=1200, tilt_max=20.0, corner_markers=False)
    searches: list[tuple[object, ...]] = []
    real = markers._detector

    class Counted:
        def __init__(self, small_markers: bool, min_perimeter_rate: float = 0.005, window_max: int = 33) -> None:
            self.detector = real(small_markers, min_perimeter_rate, window_max)
            self.key = (small_markers, min_perimeter_rate)

        def detectMarkers(self, view: np.ndarray) -> object:  # ArUco's name
            searches.append((*self.key, view.shape))
            return self.detector.detectMarkers(view)

    monkeypatch.setattr(markers, "_detector", Counted)
    terrain.read_map_photo(img, pos.map.cols, pos.map.rows)
    assert searches  # the photo was searched
    assert len(searches) == len(set(searches))
