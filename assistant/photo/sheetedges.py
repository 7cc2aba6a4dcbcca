"""The sheet's edges in a photo and the lens's bend they show (reading R244), and the bend's search
over the bends a phone's lens gives (:func:`_least`): apart from :mod:`.lens` so that the
printed-lines search (:mod:`.lines`), which :mod:`.lens` imports, reads the bend from the sheet's
outlines it has found (reading R402) without a circle through them. :mod:`.lens` names each again."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .straighten import straighten_points

#: the bends tried (half-diagonal units): a phone's wide lens bends its corners up to about 10 %
#: inwards (barrel, k < 0) and a little outwards (pincushion)
K_TRIED = tuple(float(k) for k in np.round(np.arange(-0.14, 0.0601, 0.02), 3))
#: the share of the crossings whose misfit judges a bend (the rest: crossings read on a figure)
KEPT = 0.8
def _least(misfit: Callable[[float], float | None]) -> tuple[float, float, float]:
    """The ``k`` of :data:`K_TRIED` whose ``misfit`` is least, refined between its neighbours (a
    parabola through three), with its misfit and the misfit at 0. Least at either end of the
    range, or not fitted at 0: no bend is read (0, 0, 0) -- a lens bends no photo that far, and
    what fits best there is not a lens (diagnosis photo s0348's markers 0 and 2: -0.14 read from
    the crossings, -0.02 drawn)."""
    got = {k: m for k in K_TRIED if (m := misfit(k)) is not None}
    ks = sorted(got)
    j = min(range(len(ks)), key=lambda n: got[ks[n]]) if ks else 0
    if 0.0 not in got or not 0 < j < len(ks) - 1:
        return 0.0, 0.0, 0.0
    best = ks[j]
    a, b, c = got[ks[j - 1]], got[best], got[ks[j + 1]]
    if a + c - 2 * b > 0:
        best += 0.5 * (a - c) / (a + c - 2 * b) * (ks[j + 1] - best)
    return round(best, 4), got[ks[j]], got[0.0]


#: where along each side of the sheet's outline its edge is sampled (shares of the side; its
#: corners, under corner markers and their quiet zones, left out) and how many points a side
EDGE_SPAN = (0.12, 0.88)
EDGE_SAMPLES = 40
#: how far (a share of the side's length) across the outline's straight side the sheet's edge is
#: looked for: a barrel lens bows a side by up to about 1 % of its length (k -0.12, s0587)
EDGE_REACH = 0.025


def _steps_across(grey: np.ndarray, quad: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Each side of ``quad`` (four corners, ``grey``'s pixels) sampled across: the :data:`EDGE_SAMPLES`
    places on it (:data:`EDGE_SPAN`), the offsets across it (px, within :data:`EDGE_REACH` of its
    length), its normal, and the step of ``grey`` across the side at each place and offset."""
    gx = cv2.Sobel(cv2.GaussianBlur(grey, (0, 0), 1.0), cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(cv2.GaussianBlur(grey, (0, 0), 1.0), cv2.CV_32F, 0, 1, ksize=3)
    sampled = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        length = float(np.linalg.norm(b - a))
        along = (b - a) / max(length, 1e-9)
        normal = np.array([-along[1], along[0]])
        reach = max(3, int(round(EDGE_REACH * length)))
        offsets = np.arange(-reach, reach + 1, dtype=np.float64)
        at = a + np.outer(np.linspace(*EDGE_SPAN, EDGE_SAMPLES) * length, along)  # samples x 2
        pts = at[:, None, :] + offsets[None, :, None] * normal  # samples x offsets x 2
        mx, my = pts[..., 0].astype(np.float32), pts[..., 1].astype(np.float32)
        across = np.abs(cv2.remap(gx, mx, my, cv2.INTER_LINEAR) * normal[0] + cv2.remap(gy, mx, my, cv2.INTER_LINEAR) * normal[1])
        sampled.append((at, offsets, normal, across))
    return sampled


def edges_of_outline(grey: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The sheet's edge along each side of its outline's ``quad`` (four corners, ``grey``'s pixels):
    at :data:`EDGE_SAMPLES` places on the side, the strongest step of ``grey`` across it within
    :data:`EDGE_REACH` of the side (subpixel). The quad's sides are straight; the edge a lens
    bends bows away from them (reading R244)."""
    sides = []
    for at, offsets, normal, across in _steps_across(grey, quad):
        best = np.argmax(across, axis=1)
        inner = (best > 0) & (best < len(offsets) - 1)
        rows = np.arange(len(best))
        left, mid, right = (across[rows, np.clip(best + d, 0, len(offsets) - 1)] for d in (-1, 0, 1))
        curve = left + right - 2 * mid
        shift = np.where(inner & (curve < 0), 0.5 * (left - right) / np.where(curve < 0, curve, -1.0), 0.0)
        sides.append(at + (offsets[best] + shift)[:, None] * normal)
    return sides


#: a step across a side is a candidate for the sheet's edge where it is a local peak at least this
#: share of the side's sample's strongest (the table's grain or the art's lines may outshine it)
EDGE_PEAK = 0.25
#: how near (px of the search's copy) a candidate must lie to the side's curve to be the edge there
EDGE_CURVE_FIT = 1.0
#: the curves tried a side (three candidates each, drawn by a fixed seed: the same photo reads the same)
EDGE_CURVE_TRIES = 300


def coherent_edges_of_outline(grey: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The sheet's edge along each side of its outline's ``quad``, as :func:`edges_of_outline`
    samples it, but the edge at each place the step that lies on one smooth curve along the whole
    side, not the strongest step there (reading R349): every local peak of the step across the side
    (at least :data:`EDGE_PEAK` of that place's strongest) is a candidate, and the curve (a
    parabola across the side: a lens bows a straight edge so) that the most places have a
    candidate within :data:`EDGE_CURVE_FIT` of is taken, each place's nearest candidate on it; a
    place with none is left out. A wood table's grain beside the sheet outshone its edge at half
    the places of s0678's game photo (the bend read from the strongest steps: none)."""
    rng = np.random.default_rng(0)
    share = np.linspace(*EDGE_SPAN, EDGE_SAMPLES)
    sides = []
    for at, offsets, normal, across in _steps_across(grey, quad):
        left, mid, right = across[:, :-2], across[:, 1:-1], across[:, 2:]
        peak = (mid >= left) & (mid > right) & (mid >= EDGE_PEAK * across.max(axis=1, keepdims=True))
        place, step = np.nonzero(peak)
        curve = left[place, step] + right[place, step] - 2 * mid[place, step]
        subpixel = np.where(curve < 0, 0.5 * (left[place, step] - right[place, step]) / np.where(curve < 0, curve, -1.0), 0.0)
        off = offsets[step + 1] + subpixel
        t = share[place] - 0.5
        best, fit = 0, None
        for _try in range(EDGE_CURVE_TRIES if len(set(place.tolist())) >= 3 else 0):
            three = rng.choice(len(place), 3, replace=False)
            if len(set(place[three].tolist())) < 3:
                continue
            c = np.polyfit(t[three], off[three], 2)
            held = len(set(place[np.abs(np.polyval(c, t) - off) <= EDGE_CURVE_FIT].tolist()))
            if held > best:
                best, fit = held, c
        edge = []
        if fit is not None:
            miss = np.abs(np.polyval(fit, t) - off)
            for j in range(EDGE_SAMPLES):
                mine = np.nonzero((place == j) & (miss <= EDGE_CURVE_FIT))[0]
                if len(mine):
                    edge.append(at[j] + off[mine[np.argmin(miss[mine])]] * normal)
        sides.append(np.array(edge, np.float64).reshape(-1, 2))
    return sides


def bend_of_edges(sides: list[np.ndarray], shape: tuple[int, ...]) -> tuple[float, float, float]:
    """The bend that makes the sheet's four edges (``sides``: points along each, in a photo of
    ``shape``) straightest: each side's points straightened by ``k`` and a line fitted to them, the
    misfit the mean distance (px) of the best :data:`KEPT` of each side's points from its line (the
    rest: a figure standing over the edge), over the four sides; with that misfit and the misfit at
    ``k`` = 0 (reading R244)."""

    def misfit(k: float) -> float | None:
        offs = []
        for pts in sides:
            moved = straighten_points(pts, shape, k).astype(np.float32)
            vx, vy, x0, y0 = cv2.fitLine(moved, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
            d = np.sort(np.abs((moved[:, 0] - x0) * vy - (moved[:, 1] - y0) * vx))
            offs.append(float(d[: max(8, int(KEPT * len(d)))].mean()))
        return float(np.mean(offs))

    return _least(misfit)


#: the most a sheet's edges, straightened, may stray from straight lines (px of the grid search's
#: copy, mean of the best :data:`KEPT`) for their bend to be read: measured 0.03-0.07 at the bend
#: read on the diagnosis photos' clean outlines; 0.46-4 where an outline is not the sheet's own
EDGE_FIT = 0.15


def bend_of_quads(grey: np.ndarray, quads: list[np.ndarray]) -> tuple[float, float, float]:
    """The bend the sheet's outlines ``quads`` (four corners each, ``grey``'s pixels) show
    (:func:`bend_of_edges`): the outline whose edges come straightest, where within
    :data:`EDGE_FIT`; else no bend (0, 0, 0). Where the strongest steps read none, each side's edge
    is taken as the steps on one curve along it (:func:`coherent_edges_of_outline`, reading R349)."""
    found = [bend_of_edges(edges_of_outline(grey, q), grey.shape) for q in quads]
    fits = [f for f in found if f[0] != 0.0 and f[1] <= EDGE_FIT]
    if not fits:
        # asked after the strongest steps, so a bend they read stands as it was (R349: a bend read
        # both ways moved s0654's game photo's grid by a hundredth of a square and a figure's square
        # with it); a side whose curve holds at under half its places reads none
        edges = [coherent_edges_of_outline(grey, q) for q in quads]
        found = [bend_of_edges(sides, grey.shape) for sides in edges if min(len(side) for side in sides) >= EDGE_SAMPLES // 2]
        fits = [f for f in found if f[0] != 0.0 and f[1] <= EDGE_FIT]
    return min(fits, key=lambda f: f[1]) if fits else (0.0, 0.0, 0.0)


#: the least bend (:mod:`.lens`, half-diagonal units) a grid search is run again for, straightened by
#: it, and how much better than the photo as it is the bend must fit what gave it (reading R242);
#: the sheet's edges are taken by the same bar (readings R401, R402)
LENS_SHOWN = 0.02
LENS_BETTER = 1.5


def lens_shown(k: float, at_k: float, at_0: float, better: float = LENS_BETTER) -> float:
    """The bend ``k`` where the photo shows it -- at least :data:`LENS_SHOWN`, and what it was read
    from fits ``better`` times better at ``k`` (misfit ``at_k``) than straight (``at_0``) -- else 0
    (reading R242)."""
    return k if abs(k) >= LENS_SHOWN and at_0 >= better * at_k else 0.0
