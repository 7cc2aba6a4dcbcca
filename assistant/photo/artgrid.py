"""A game photo's grid from the empty-map reference's printed art (reading R80).

Where a game photo's own grid search refuses (no corner markers seen, printed lines a few grey
levels off lava or star-field art), the judge's reference still holds the very art the photo
shows, seen from above in map coordinates. So the photo is registered onto the reference view by
the art's features: SIFT keypoints of a shrunk grey copy of the photo matched to the reference
view's (Lowe's ratio test), a RANSAC homography photo -> view, which is the grid. Figures cover
parts of the map: their keypoints are outliers. The grid is taken only where a person would trust
it (:func:`grid_from_reference`: many inliers spread over the map, a small residual, a plausible
homography, any corner marker seen on its corner), then refined by the same ECC alignment that
aligns every view onto the reference (:func:`.reference.ecc_correction`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from ..i18n import N_
from . import views
from .board import Grid
from .lines import WORK, markers_off
from .markers import Marker
from .reference import PAD, PX, Reference, art_disagreement, ecc_correction, sift_features, top_down

#: the longer side of the photo's grey copy whose features are matched: at 800 px a 12-20 square
#: map's square is 25-45 px, near the reference view's 32 (SIFT is scale-invariant only so far).
#: Measured on the independent diagnosis photos s0407, s0414, s0416 (4000 px): at 800 px 0.17-0.23
#: CPU-seconds and 216-229 inliers; at 1000 px with the view enlarged 1.5 times 0.30-0.49 s and
#: 32-480 inliers
MATCH_SIDE = 800
#: Lowe's ratio: a match is kept where its best neighbour is this much nearer than the second
RATIO = 0.8
#: RANSAC's inlier threshold, in reference-view pixels (a tenth of a square)
RANSAC_PX = 3.2
#: the fewest inliers trusted: art the photo and the reference share shows hundreds (216-314 on
#: the diagnosis photos); plain paper or another map's art a few dozen at most (24 on plain paper)
MIN_INLIERS = 60
#: the least share of the map's area the inliers' convex hull covers, and the fewest of the map's
#: four quadrants holding at least :data:`MIN_PER_QUADRANT` inliers: a homography fitted on one
#: corner of the map extrapolates to the rest
MIN_HULL_SHARE = 0.35
MIN_QUADRANTS = 3
MIN_PER_QUADRANT = 5
#: the largest median residual of the inliers, in squares
MAX_RESIDUAL = 0.05
#: the least share of the photo the map's outline covers (a map seen smaller than this is not
#: a photo of the map), and how far outside the photo (in photo sides) a map corner may lie
MIN_MAP_SHARE = 0.05
MAX_OUTSIDE = 0.5
#: the modelled CPU seconds of one registration and its ECC refinement (0.2-0.35 measured at 12 MP,
#: its grey copy included)
REGISTRATION_COST = 0.35

#: what told the grid and its orientation (shown in the answer's notes)
BY_ART = N_("the empty-map reference photo's printed art (reading R80 in docs/readings.md)")
BY_OWN_START = N_("the empty-map reference photo's printed art, from the photo's own grid (reading R307 in docs/readings.md)")


@dataclass(frozen=True)
class Registration:
    """The grid the reference's art gives, or None and why not (for the refusal's message)."""

    grid: Grid | None
    why: str


def _view_to_board() -> np.ndarray:
    """Reference view pixels -> board squares."""
    return np.array([[1 / PX, 0, -PAD], [0, 1 / PX, -PAD], [0, 0, 1]], np.float64)


def grid_from_reference(image: np.ndarray, reference: Reference, markers: list[Marker]) -> Registration:
    """The photo's grid from the reference's art (R80), or None with the reason it is not trusted."""
    cols, rows = reference.cols, reference.rows
    # from the printed-lines search's copy of the photo, made once a grid search (.views): shrinking
    # a 12 MP photo again cost 0.04-0.07 CPU-seconds each time
    work_scale = min(1.0, WORK / image.shape[1])
    work = views.shrunk(image, work_scale, cv2.INTER_AREA) if work_scale < 1 else image
    gray = views.gray(work)
    f = min(1.0, MATCH_SIDE / max(gray.shape[:2]))
    small = cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1.0 else gray
    f *= work_scale  # photo pixels -> the matched copy's
    photo = sift_features(small)
    view = reference.view_features()  # made once with the reference (.reference.Reference)
    if len(photo.points) < MIN_INLIERS or len(view.points) < MIN_INLIERS:
        return Registration(None, N_("too little detail to match"))
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(photo.descriptors, view.descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    if len(good) < MIN_INLIERS:
        return Registration(None, N_("too few features match"))
    src = photo.points[[m.queryIdx for m in good]]
    dst = view.points[[m.trainIdx for m in good]]
    H_view, mask = cv2.findHomography(src, dst, cv2.USAC_MAGSAC, RANSAC_PX, maxIters=2000, confidence=0.999)
    if H_view is None or mask is None or int(mask.sum()) < MIN_INLIERS:
        return Registration(None, N_("too few features agree on one placement of the map"))
    inliers = mask.ravel() > 0
    to_board = _view_to_board()
    H = to_board @ H_view @ np.diag([f, f, 1.0])  # photo pixels -> board squares
    on_board = cv2.perspectiveTransform(dst[inliers][None].astype(np.float64), to_board)[0]
    fitted = cv2.perspectiveTransform(src[inliers][None].astype(np.float64) / f, H)[0]
    residual = float(np.median(np.linalg.norm(fitted - on_board, axis=1)))
    if residual > MAX_RESIDUAL:
        return Registration(None, N_("the matched features do not fit one placement closely"))
    why = _implausible(on_board, H, image.shape[1], image.shape[0], cols, rows)
    if why:
        return Registration(None, why)
    # refined as every view is aligned onto the reference: ECC on the top-down view
    grid = Grid(H, residual * float(np.sqrt(abs(np.linalg.det(np.linalg.inv(H)[:2, :2])))), 0, oriented_by=BY_ART, uncertainty=residual,
                by_reference=True)
    registered = grid
    grid = _aligned_on_art(work, work_scale, grid, reference) or grid
    if markers_off(grid, markers, cols, rows) is None:
        return Registration(grid, "")
    if grid is not registered and markers_off(registered, markers, cols, rows) is None:
        # the refinement, not the art's features, moved a corner marker seen off its corner: ECC
        # aligns the whole view onto the reference's, so it also carries the reference's own error
        # (its grid's, and its lens's bend the one homography cannot hold) onto the photo; the
        # marker, measured directly, keeps the registration it stands on (reading R96)
        return Registration(registered, "")
    return Registration(None, N_("a corner marker seen is not on the corner the reference's art puts there"))


def _aligned_on_art(work: np.ndarray, work_scale: float, grid: Grid, reference: Reference) -> Grid | None:
    """``grid`` (photo pixels -> board) moved as ECC aligns its top-down view of the photo's work
    copy (``work``, ``work_scale`` of the photo) onto the reference's view; None where ECC does not
    converge within a third of a square (:func:`.reference.ecc_correction`)."""
    cols, rows = reference.cols, reference.rows
    work_to_photo = np.diag([1 / work_scale, 1 / work_scale, 1.0])
    correction = ecc_correction(top_down(work, replace(grid, H=grid.H @ work_to_photo), cols, rows), reference.view)
    if correction is None:
        return None
    to_board = _view_to_board()
    return replace(grid, H=to_board @ np.linalg.inv(correction.astype(np.float64)) @ np.linalg.inv(to_board) @ grid.H)


#: the most of the map's squares whose art may disagree with the reference's through a grid the
#: photo's own search nearly gave, once aligned on it (:func:`grid_from_own_start`, reading R307)
OWN_START_DISAGREES = 0.5


def grid_from_own_start(image: np.ndarray, reference: Reference, starts: list[Grid], markers: list[Marker]) -> Grid | None:
    """A grid the photo's own search found and refused by a little (``starts``: three or more corner
    markers' grid whose free corner the printed lines neither confirmed nor corrected), aligned on the reference's art by ECC from where it stands
    (:func:`_aligned_on_art`: within a third of a square, or not at all) and taken where, so
    aligned, every corner marker seen stands on its corner and the map's art through it is the
    reference's (:func:`.reference.art_disagreement` at most :data:`OWN_START_DISAGREES`); None
    where none is. Reading R307: the art's features (:func:`grid_from_reference`) match too few on
    a carpet seen at a steep tilt, or the work budget left them out; ECC needs no features, only a
    start near the truth, which the photo's own search gave."""
    if not any(m.id <= 3 for m in markers):
        return None  # no corner marker to stand the aligned grid on: a lattice a square off aligns as well on a repeating print
    cols, rows = reference.cols, reference.rows
    work_scale = min(1.0, WORK / image.shape[1])
    work = views.shrunk(image, work_scale, cv2.INTER_AREA) if work_scale < 1 else image
    for start in starts:
        aligned = _aligned_on_art(work, work_scale, start, reference)
        if aligned is None or markers_off(aligned, markers, cols, rows) is not None:
            continue
        view = top_down(work, replace(aligned, H=aligned.H @ np.diag([1 / work_scale, 1 / work_scale, 1.0])), cols, rows)
        if art_disagreement(view, reference.view, cols, rows) > OWN_START_DISAGREES:
            continue
        return replace(aligned, oriented_by=BY_OWN_START, by_reference=True)
    return None


def _implausible(on_board: np.ndarray, H: np.ndarray, width: int, height: int, cols: int, rows: int) -> str:
    """Why the registration is not one a person would trust, or ''."""
    inside = on_board[(on_board[:, 0] >= 0) & (on_board[:, 0] <= cols) & (on_board[:, 1] >= 0) & (on_board[:, 1] <= rows)]
    if len(inside) < MIN_INLIERS:
        return N_("too few matched features on the map")
    hull = cv2.convexHull(inside.astype(np.float32))
    if cv2.contourArea(hull) < MIN_HULL_SHARE * cols * rows:
        return N_("the matched features cover too little of the map")
    right, below = inside[:, 0] >= cols / 2, inside[:, 1] >= rows / 2
    quadrants = sum(int(np.count_nonzero((right == r) & (below == b)) >= MIN_PER_QUADRANT) for r in (False, True) for b in (False, True))
    if quadrants < MIN_QUADRANTS:
        return N_("the matched features lie in too few parts of the map")
    if abs(np.linalg.det(H)) < 1e-12:
        return N_("the placement is degenerate")
    corners = cv2.perspectiveTransform(np.array([[[0, 0], [cols, 0], [cols, rows], [0, rows]]], np.float64), np.linalg.inv(H))[0]
    quad = corners.astype(np.float32)
    board_quad = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    if not cv2.isContourConvex(quad) or np.sign(cv2.contourArea(quad, oriented=True)) != np.sign(cv2.contourArea(board_quad, oriented=True)):
        # the map's corners clockwise in the photo as on the board (no mirror, no fold)
        return N_("the placement folds or mirrors the map")
    if cv2.contourArea(quad) < MIN_MAP_SHARE * width * height:
        return N_("the placement makes the map too small in the photo")
    if (corners[:, 0] < -MAX_OUTSIDE * width).any() or (corners[:, 0] > (1 + MAX_OUTSIDE) * width).any() \
            or (corners[:, 1] < -MAX_OUTSIDE * height).any() or (corners[:, 1] > (1 + MAX_OUTSIDE) * height).any():
        return N_("the placement puts the map's corners far outside the photo")
    return ""
