"""The empty map as the reference: later photos of the same map are compared with it, square by square.

A judge photographs the map once without figures (``photo reference``). Its top-down view at
:data:`PX` pixels a square is kept (:class:`Reference`, one ``.npz`` file). A later photo is
rectified onto the same view, aligned to it (ECC, a homography, invariant to gain and offset),
and compared pixel by pixel in a way that light, shadow and white balance do not move:

- in the log domain, a change of light or white balance is an added constant per channel; its
  field is the median of each square's log ratio, then a median over 5 x 5 squares (a base
  covers one square, a Large one four: the median passes over them), then again over 3 x 3
  squares leaving out those far from the first (a glare or a shadow a few squares wide), and is
  subtracted. On 19 held-out pairs of tools/fit_bases.py: a 7 x 7 median alone left 1.8 % of
  squares wrong, 5 x 5 1.5 %, 5 x 5 then 3 x 3 1.0-1.2 %;
- what remains is split into brightness (``lum``, a base is darker), colour (``chroma``: a
  grey shadow has none) and structure (``struct``: the printed art's fine detail seen in the
  reference but not in the photo, or new edges; a shadow keeps the art's detail).

So the printed art is background, whatever it looks like: only what changed since the
reference photo counts. :mod:`.bases` then asks whether the change has the shape of a base.
"""

from __future__ import annotations

import io
import json
import warnings
import zipfile
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..errors import AssistantError
from ..fileread import read_limited
from ..i18n import N_, _, n_
from . import views
from .board import Grid

#: a reference bigger than this is not one this program wrote (a 200 x 200 map's view is far smaller)
MAX_REFERENCE_BYTES = 256 * 1024 * 1024

PX = 32  # pixels a square of the top-down view: a base (0.42 squares) is a disc of 13 px radius
PAD = 1  # squares of view kept round the map (a base on the edge has its ring outside)
FORMAT = "tabletop-assistant map reference"
VERSION = 1
#: log(value + LOG_FLOOR): dark pixels' noise does not blow up the log ratio
LOG_FLOOR = 8.0
#: squares a side of the window over which the light's field is a median
LIGHT_WINDOW = 5
#: log-ratio distance from the first field past which a square is left out of the second
REFINE = 0.5


#: the most SIFT keypoints kept a picture (the strongest) for the registration on the reference's
#: art (R80, :mod:`.artgrid`): the matching costs their product
MAX_FEATURES = 1000
#: the most keypoints a reference file may hold: a reference saved before :func:`sift_features`
#: kept to :data:`MAX_FEATURES` may hold a few more (OpenCV's ties), and is read as it is
MAX_STORED_FEATURES = 2 * MAX_FEATURES
#: the length of a SIFT descriptor (whole numbers 0-255, kept as bytes in a reference file)
DESCRIPTOR_LENGTH = 128


class Features(NamedTuple):
    """A picture's SIFT keypoints: their places (N x 2, pixels) and descriptors (N x 128)."""

    points: np.ndarray
    descriptors: np.ndarray


def sift_features(gray: np.ndarray) -> Features:
    """The strongest :data:`MAX_FEATURES` SIFT keypoints of a grey picture (none: empty arrays).

    OpenCV's ``nfeatures`` keeps every keypoint as strong as the last one kept, and a keypoint
    with two orientations twice: it returns a few more than asked (1,002 on an independent
    photo's empty map), and a reference saved with them was refused by its own reader as damaged.
    The strongest are kept, ties in OpenCV's order."""
    keypoints, descriptors = cv2.SIFT.create(nfeatures=MAX_FEATURES).detectAndCompute(gray, None)
    if len(keypoints) > MAX_FEATURES:
        strongest = np.argsort([-k.response for k in keypoints], kind="stable")[:MAX_FEATURES]
        keypoints = [keypoints[i] for i in strongest]
        descriptors = descriptors[strongest] if descriptors is not None else None
    points = np.array([k.pt for k in keypoints], np.float32).reshape(-1, 2)
    return Features(points, descriptors if descriptors is not None else np.zeros((0, DESCRIPTOR_LENGTH), np.float32))


@dataclass(frozen=True)
class Reference:
    """The empty map seen from straight above: ``view`` is BGR, ``PX`` pixels a square, ``PAD``
    squares round the map, ((rows + 2 PAD) PX) x ((cols + 2 PAD) PX). ``features``: the view's
    SIFT keypoints (:func:`sift_features`), made once with the reference: the registration on its
    art (R80) found them again on every game photo it read, most of its work (0.1-0.2 of its
    0.2-0.35 CPU-seconds); None in a reference saved without them (found when needed)."""

    view: np.ndarray
    cols: int
    rows: int
    name: str  # the photo it was made from
    taken: str  # when it was made (UTC, ISO 8601)
    features: Features | None = None

    def view_features(self) -> Features:
        """The view's SIFT keypoints: those made with the reference, or found now."""
        return self.features if self.features is not None else sift_features(cv2.cvtColor(self.view, cv2.COLOR_BGR2GRAY))


def top_down(image: np.ndarray, grid: Grid, cols: int, rows: int, px: int = PX) -> np.ndarray:
    """The map seen from above, ``px`` pixels a square, ``PAD`` squares round it (uint8 BGR).

    The photo is first shrunk to about two pixels a view pixel (INTER_AREA), so that the warp
    samples a smoothed image rather than aliasing a 12 MP photo's fine print. Only the part of
    the photo the view shows is shrunk (:func:`view_window`): the whole 12 MP photo's was half the
    resizing of a ``photo detect`` (round 11 of issue 28).

    Within one photo's search (:func:`.views.shared`) the view through the same homography is
    made once, and the shrunk window once for every view that samples it: the reference's
    orientation (:func:`orient_by_reference`) looked at the map through each way round of one
    printed grid (the same window, shrunk again) and ``photo detect`` again through the one it
    chose (the same view: its resize and warp made a second time, 0.03-0.06 CPU-seconds on
    independent photos s0432 and s0449; round 23 of issue 28). The same arrays either way; each
    caller gets its own copy of the view, so none sees another's changes."""
    key = ("top down", grid.H.tobytes(), grid.H.dtype.str, grid.H.shape, int(cols), int(rows), int(px))
    if not views.sharing():
        return _top_down(image, grid.H, cols, rows, px)
    return views.once(image, key, lambda: _top_down(image, grid.H, cols, rows, px)).copy()


def _top_down(image: np.ndarray, H: np.ndarray, cols: int, rows: int, px: int) -> np.ndarray:
    """:func:`top_down`'s view, made."""
    corners = np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64)
    Hinv = np.linalg.inv(H)
    quad = cv2.perspectiveTransform(corners, Hinv)[0]
    side = float(np.sqrt(max(cv2.contourArea(quad.astype(np.float32)), 1.0) / (cols * rows)))
    f = min(1.0, 2.0 * px / max(side, 1e-6))
    small = image
    x0 = y0 = 0
    if f < 0.8:
        x0, y0, x1, y1 = view_window(image.shape[1], image.shape[0], Hinv, cols, rows, f)
        window = (x0, y0, x1, y1)
        small = views.once(image, ("top down window", window, f),
                           lambda: cv2.resize(image[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA))
    else:
        f = 1.0
    S = np.array([[px, 0, PAD * px], [0, px, PAD * px], [0, 0, 1]], np.float64)
    # a view pixel -> the photo's (x0 + x / f, y0 + y / f) -> the shrunk window's (x, y)
    M = S @ H @ np.array([[1 / f, 0, x0], [0, 1 / f, y0], [0, 0, 1]], np.float64)
    size = ((cols + 2 * PAD) * px, (rows + 2 * PAD) * px)
    return cv2.warpPerspective(small, M, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def view_window(width: int, height: int, Hinv: np.ndarray, cols: int, rows: int, f: float) -> tuple[int, int, int, int]:
    """(x0, y0, x1, y1): the part of a ``width`` x ``height`` photo that :func:`top_down`'s view
    of the map (``PAD`` squares round it) samples once shrunk by ``f``; ``Hinv`` maps the grid's
    squares to the photo. A margin of a few shrunk pixels round it keeps the shrinking's and the
    warp's neighbours inside, so that the view is the whole photo's but for the shrunk pixels'
    sub-pixel phase. The whole photo where the map's padded corners are not all in front of the
    camera (their picture is then no bounding box).

    >>> view_window(4000, 3000, np.diag([100.0, 100.0, 1.0]), 10, 8, 0.25)
    (0, 0, 1116, 916)
    >>> view_window(4000, 3000, np.array([[100.0, 0, 1000], [0, 100, 500], [0, 0, 1]]), 10, 8, 0.25)
    (884, 384, 2116, 1416)
    """
    padded = np.array([[-PAD, -PAD, 1], [cols + PAD, -PAD, 1], [cols + PAD, rows + PAD, 1], [-PAD, rows + PAD, 1]], np.float64)
    seen = padded @ np.asarray(Hinv, np.float64).T
    if not np.all(np.isfinite(seen)) or np.any(seen[:, 2] <= 1e-9):
        return 0, 0, width, height
    xy = seen[:, :2] / seen[:, 2:]
    margin = 4.0 / f  # four shrunk pixels: INTER_AREA's source run and the bilinear warp's neighbour
    x0 = int(np.clip(np.floor(xy[:, 0].min() - margin), 0, width))
    y0 = int(np.clip(np.floor(xy[:, 1].min() - margin), 0, height))
    x1 = int(np.clip(np.ceil(xy[:, 0].max() + margin), 0, width))
    y1 = int(np.clip(np.ceil(xy[:, 1].max() + margin), 0, height))
    if x1 - x0 < 2 or y1 - y0 < 2:  # the map's picture is off the photo: the whole photo, as before
        return 0, 0, width, height
    return in_phase(x0, f), in_phase(y0, f), x1, y1


#: how far (shrunk pixels) the window's shrunk pixels may lie from the whole photo's
#: (:func:`in_phase`): OpenCV's area shrinking weighs a source pixel's fragments by where the
#: shrunk pixels' edges fall, so a window 0.01-0.03 of a shrunk pixel off the whole photo's grid
#: made views up to 7 grey levels apart (0.23 on average; independent diagnosis photo s0440,
#: shrunk by 0.4286, near 3/7), 0.0004 off, 1 at most (0.004 on average)
PHASE_TOLERANCE = 0.002


def in_phase(start: int, f: float) -> int:
    """The window's first pixel moved back to the nearest pixel where shrinking by ``f`` puts it
    within :data:`PHASE_TOLERANCE` of a whole shrunk pixel, as the whole photo's shrinking does:
    the window's shrunk pixels then average the same source pixels as the whole photo's did (0
    always qualifies: the whole photo's own start).

    >>> in_phase(0, 0.3), in_phase(100, 0.25), in_phase(101, 0.5), in_phase(224, 3 / 7 + 5e-5)
    (0, 100, 100, 35)
    """
    candidates = np.arange(start + 1)
    off = np.abs(candidates * f - np.round(candidates * f))
    return int(candidates[off <= PHASE_TOLERANCE].max())


def make_reference(image: np.ndarray, grid: Grid, cols: int, rows: int, name: str) -> Reference:
    """The reference from a photo of the empty map and its grid (on the photo straightened by the
    grid's lens where it has one, :attr:`.board.Grid.lens`: ``map from-photo``'s, R257)."""
    if grid.lens:
        from .straighten import straightened  # not .lens: it reads the bend by the grid search, which imports this

        image = straightened(image, grid.lens)
    view = top_down(image, grid, cols, rows)
    return Reference(view, cols, rows, name, datetime.now(timezone.utc).isoformat(timespec="seconds"),
                     sift_features(cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)))


def save_reference(ref: Reference, path: Path) -> None:
    """One ``.npz`` file: the view (PNG-compressed) and a small JSON of what it is. Written whole
    or not at all."""
    from ..yamlio import write_bytes_atomic  # start-up time: the position files' writer (0.003-0.01 s) only where a reference is saved

    ok, png = cv2.imencode(".png", ref.view)
    if not ok:  # pragma: no cover - OpenCV encodes any uint8 BGR image
        raise AssistantError(_("the reference view cannot be encoded as PNG"))
    meta = {"format": FORMAT, "version": VERSION, "cols": ref.cols, "rows": ref.rows, "px": PX, "pad": PAD, "name": ref.name, "taken": ref.taken}
    buf = io.BytesIO()
    view_png, meta_json = np.frombuffer(png.tobytes(), np.uint8), np.array(json.dumps(meta))
    if ref.features is None:
        np.savez(buf, view_png=view_png, meta=meta_json)
    else:  # SIFT's descriptors are whole numbers 0-255: bytes lose nothing
        np.savez(buf, view_png=view_png, meta=meta_json, view_points=ref.features.points.astype(np.float32),
                 view_descriptors=np.clip(np.round(ref.features.descriptors), 0, 255).astype(np.uint8))
    write_bytes_atomic(path, buf.getvalue())


def load_reference(path: Path, shown: str | None = None) -> Reference:
    """A reference saved by :func:`save_reference`; a clear error naming the file otherwise
    (as ``shown``: the web app names the file alone, not where the server keeps it)."""
    p = Path(path)
    name = shown if shown is not None else str(p)

    def bad(why: str) -> AssistantError:
        return AssistantError(_("{p} is not a usable map reference: {why}").format(p=name, why=why))

    if p.is_dir():
        raise bad(_("it is a directory"))
    try:
        data = read_limited(p, MAX_REFERENCE_BYTES)
    except FileNotFoundError:
        raise AssistantError(_("no such map reference: {p} (make one with 'photo reference IMAGE')").format(p=name)) from None
    except OSError as exc:
        raise bad(str(exc.strerror or exc)) from None
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as z:
            meta = json.loads(str(z["meta"]))
            png = np.asarray(z["view_png"], np.uint8)
            # a reference saved before the view's keypoints were kept has none: found when needed
            stored = (np.asarray(z["view_points"]), np.asarray(z["view_descriptors"])) if "view_points" in z.files else None
    except (OSError, ValueError, KeyError, zipfile.BadZipFile, EOFError, json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise bad(_("the file is damaged or of another kind")) from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise bad(_("the file is of another kind"))
    if meta.get("version") != VERSION or meta.get("px") != PX or meta.get("pad") != PAD:
        raise bad(_("it was made by another version of the program (format {version}); make it again").format(version=meta.get("version")))
    cols, rows = meta.get("cols"), meta.get("rows")
    if not (isinstance(cols, int) and isinstance(rows, int) and 1 <= cols <= 200 and 1 <= rows <= 200):
        raise bad(_("its map size is missing or impossible"))
    view = cv2.imdecode(png, cv2.IMREAD_COLOR) if png.size else None
    if view is None or view.shape[:2] != ((rows + 2 * PAD) * PX, (cols + 2 * PAD) * PX):
        raise bad(_("its image is damaged"))
    features = None
    if stored is not None:
        points, descriptors = stored
        if (points.dtype != np.float32 or descriptors.dtype != np.uint8 or points.ndim != 2 or points.shape[1:] != (2,)
                or descriptors.shape != (len(points), DESCRIPTOR_LENGTH) or len(points) > MAX_STORED_FEATURES or not np.isfinite(points).all()):
            raise bad(_("the file is damaged or of another kind"))
        features = Features(points, descriptors.astype(np.float32))
    return Reference(view, cols, rows, str(meta.get("name", "")), str(meta.get("taken", "")), features)


def figures_seen_warning(marker_ids: list[int]) -> list[str]:
    """The warning a reference photo gets when figure-base markers (ids 4 and up; 0-3 are the
    map's corners) are seen on it: it is kept as sent (the judge decides), but figures stood on
    the map, and their bases would read as the map's own art in every later photo. The command
    line and the web app say the same.

    >>> figures_seen_warning([0, 1, 2])
    []
    >>> figures_seen_warning([0, 7])
    ['the photo shows 1 figure marker: a reference is of the EMPTY map; take it again with no figures on it']
    """
    on_map = sum(1 for i in marker_ids if i >= 4)
    return [n_("the photo shows {n} figure marker: a reference is of the EMPTY map; take it again with no figures on it",
               "the photo shows {n} figure markers: a reference is of the EMPTY map; take it again with no figures on it",
               on_map).format(n=on_map)] if on_map else []


def reference_path(game: Path) -> Path:
    """Where a game's own reference is kept: next to its file (``GAME.reference.npz``)."""
    return game.with_name(game.name + ".reference.npz")


def check_size(ref: Reference, cols: int, rows: int, where: str) -> None:
    """Refuse a reference of another map size than the game's."""
    if (ref.cols, ref.rows) != (cols, rows):
        raise AssistantError(
            _("the map reference {where} is of a {rc} x {rr} map, the game's map is {cols} x {rows}: photograph this map empty again "
              "('photo reference')").format(
                where=where, rc=ref.cols, rr=ref.rows, cols=cols, rows=rows
            )
        )


@dataclass(frozen=True)
class Change:
    """How the photo's top-down view differs from the reference's, pixel by pixel (float32 maps
    of the view's size), after the light's field is taken out. ``gray``/``gray_ref``: log
    brightness of both, for the bases' edges."""

    lum: np.ndarray  # log-brightness change, negative where darker
    chroma: np.ndarray  # log-colour change (the part that differs between channels)
    struct: np.ndarray  # fine structure changed: 0 same, about 1 unrelated, 2 inverted
    gray: np.ndarray
    gray_ref: np.ndarray


def align_view(view: np.ndarray, ref_view: np.ndarray) -> np.ndarray:
    """The view warped onto the reference by ECC (a homography at half resolution), which is
    invariant to gain and offset; the view unchanged if ECC does not converge. The grid found in
    each photo is off by a pixel or two (lens distortion, the lines' fit); fine print compared
    a pixel off would read as changed everywhere."""
    full = ecc_correction(view, ref_view)
    if full is None:
        return view
    h, w = view.shape[:2]
    return cv2.warpPerspective(view, full, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def ecc_correction(view: np.ndarray, ref_view: np.ndarray) -> np.ndarray | None:
    """The homography (reference view pixels -> ``view`` pixels) that ECC finds at half
    resolution; None if ECC does not converge or the correction is more than a third of a square."""
    a = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    b = cv2.cvtColor(ref_view, cv2.COLOR_BGR2GRAY)
    sa, sb = (cv2.resize(x, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA).astype(np.float32) for x in (a, b))
    try:
        _cc, found = cv2.findTransformECC(sb, sa, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY,
                                         (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 40, 1e-4), np.full(sb.shape, 255, np.uint8), 5)
    except cv2.error:
        return None
    up = np.diag([2.0, 2.0, 1.0]).astype(np.float32)
    full: np.ndarray = up @ np.asarray(found, np.float32) @ np.linalg.inv(up)
    # a correction of more than a third of a square is no pixel or two: the grid itself is wrong
    h, w = view.shape[:2]
    pts = np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float32)
    if float(np.max(np.abs(cv2.perspectiveTransform(pts, full)[0] - pts[0]))) > PX / 3:
        return None
    return full


#: the band of the art compared by :func:`art_agreement`, Gaussian sigmas in view pixels (a
#: square is :data:`PX`): detail from a sixteenth of a square (finer is the print's and the
#: camera's noise, which differs between any two photos) to a quarter (coarser is the light)
ART_FINE_SIGMA = 2.0
ART_COARSE_SIGMA = 8.0


#: a square's art agrees with the reference's where their band-passed brightness correlates at
#: least this much (on the independent diagnosis photos the map's squares correlate 0.9-1.0 at
#: the median, a square a figure's body or base hides near 0)
ART_AGREES = 0.3
#: the least band-passed detail (root mean square, log brightness) of a reference square whose
#: art is compared: plain paper's is the camera's noise, which agrees with nothing
ART_DETAIL = 0.02


#: the most of the map's squares whose art may disagree with the reference (:func:`art_disagreement`)
#: for the reference to be compared with (R109): figures cover a few squares, not most of the
#: map. On the 122 independent diagnosis photos answered with a reference the most was 0.48 but
#: for two whose empty map was drawn with other art (0.81 and 0.88)
ART_DISAGREES_MOST = 0.75


def art_disagreement(view: np.ndarray, ref_view: np.ndarray, cols: int, rows: int) -> float:
    """The share of the map's squares whose art in ``view`` (a :func:`top_down`, aligned onto
    the reference by :func:`align_view`) is not the reference's: each square's log brightness,
    band-passed between :data:`ART_FINE_SIGMA` and :data:`ART_COARSE_SIGMA`, correlating less
    than :data:`ART_AGREES` with the reference's. The log domain and the band take the light and
    gain out; the same art registered to a pixel or two correlates but where figures hide it.
    Only squares where the reference shows detail (:data:`ART_DETAIL`) are counted; 0.0 where
    none does (nothing to disagree on).

    >>> rng = np.random.default_rng(0)
    >>> art, other = (cv2.resize(rng.integers(0, 255, (104, 136, 3), dtype=np.uint8), (17 * PX, 13 * PX)) for _ in range(2))
    >>> art_disagreement(art, art, 15, 11), art_disagreement(other, art, 15, 11) > 0.9
    (0.0, True)
    """
    def band(v: np.ndarray) -> np.ndarray:
        g = np.log(cv2.cvtColor(v, cv2.COLOR_BGR2GRAY).astype(np.float32) + LOG_FLOOR)
        passed = cv2.GaussianBlur(g, (0, 0), ART_FINE_SIGMA) - cv2.GaussianBlur(g, (0, 0), ART_COARSE_SIGMA)
        squares = passed[PAD * PX:(PAD + rows) * PX, PAD * PX:(PAD + cols) * PX].reshape(rows, PX, cols, PX)
        flat = squares.transpose(0, 2, 1, 3).reshape(rows * cols, PX * PX)
        centred: np.ndarray = flat - flat.mean(axis=1, keepdims=True)
        return centred

    a, b = band(view), band(ref_view)
    detailed = np.sqrt((b * b).mean(axis=1)) >= ART_DETAIL
    if not detailed.any():
        return 0.0
    a, b = a[detailed], b[detailed]
    correlation = (a * b).sum(axis=1) / np.sqrt((a * a).sum(axis=1) * (b * b).sum(axis=1) + 1e-12)
    return float(np.mean(correlation < ART_AGREES))


def compare_views(view: np.ndarray, ref: Reference, align: bool = True) -> Change:
    """The change of ``view`` (a :func:`top_down` of the new photo) from the reference."""
    if align:
        view = align_view(view, ref.view)
    lv = np.log(view.astype(np.float32) + LOG_FLOOR)
    lr = np.log(ref.view.astype(np.float32) + LOG_FLOOR)
    d = lv - lr
    h, w = ref.rows + 2 * PAD, ref.cols + 2 * PAD
    cells = d.reshape(h, PX, w, PX, 3).transpose(0, 2, 1, 3, 4).reshape(h, w, PX * PX, 3)
    med = np.median(cells, axis=2)
    k = LIGHT_WINDOW // 2
    padded = np.pad(med, ((k, k), (k, k), (0, 0)), mode="edge")
    field = np.median(sliding_window_view(padded, (LIGHT_WINDOW, LIGHT_WINDOW), axis=(0, 1)).reshape(h, w, 3, -1), axis=3)
    if REFINE:
        # a glare or a shadow smaller than the window: again over 3 x 3 squares, leaving out the
        # squares far from the first field (a base, a body), where any are left
        odd = np.linalg.norm(med - field, axis=2) > REFINE
        kept = np.where(odd[..., None], np.nan, med)
        near = sliding_window_view(np.pad(kept, ((1, 1), (1, 1), (0, 0)), mode="edge"), (3, 3), axis=(0, 1)).reshape(h, w, 3, -1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a window with every square left out: NaN, and the first field stays
            local = np.nanmedian(near, axis=3)
        field = np.where(np.isnan(local), field, local)
    # the field is smooth between square centres (cv2.resize samples cell centres)
    light = cv2.resize(field.astype(np.float32), (w * PX, h * PX), interpolation=cv2.INTER_LINEAR)
    dc = d - light
    lum = dc.mean(axis=2)
    chroma = np.linalg.norm(dc - lum[..., None], axis=2)
    gv, gr = lv.mean(axis=2), lr.mean(axis=2)
    hv = gv - cv2.GaussianBlur(gv, (0, 0), 2.5)
    hr = gr - cv2.GaussianBlur(gr, (0, 0), 2.5)
    ev = cv2.GaussianBlur(hv * hv, (0, 0), 3.0)
    er = cv2.GaussianBlur(hr * hr, (0, 0), 3.0)
    c = cv2.GaussianBlur(hv * hr, (0, 0), 3.0)
    # normalised squared difference of the fine detail: flat in both (paper) reads as unchanged,
    # the floor TAU keeps camera noise from counting as detail
    struct = (ev + er - 2 * c) / (ev + er + STRUCT_TAU)
    return Change(lum.astype(np.float32), chroma.astype(np.float32), struct.astype(np.float32), gv.astype(np.float32), gr.astype(np.float32))


#: fine detail's energy (log units squared) below which a view counts as flat
STRUCT_TAU = 0.002


#: the least difference of mean structure change between the best way round and the next
ORIENT_MARGIN = 0.08


def orient_by_reference(image: np.ndarray, candidates: list[Grid], reference: Reference) -> Grid | None:
    """Which of the candidate grids (the same printed grid each way round) shows the map as the
    reference does: the printed art is not symmetric. None when none clearly does (plain paper)."""
    if not candidates:
        return None
    scores = []
    for g in candidates:
        ch = compare_views(top_down(image, g, reference.cols, reference.rows), reference, align=False)
        inner = ch.struct[PAD * PX:-PAD * PX, PAD * PX:-PAD * PX]
        scores.append(float(np.median(inner)))
    order = sorted(range(len(scores)), key=lambda k: scores[k])
    best = order[0]
    if len(order) > 1 and scores[order[1]] - scores[best] < ORIENT_MARGIN:
        return None
    return replace(candidates[best], oriented_by=N_("the empty-map reference photo"))
